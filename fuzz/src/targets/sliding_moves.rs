//! `parse_moves`: a sliding-tile solution (letters U D L R, `#` comments).

use tilekit::puzzle::sliding::{moves_to_string, parse_moves};

/// One input, as AFL++ hands it over: a panic is a finding.
pub(crate) fn run(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data)
        && let Ok(moves) = parse_moves(text, "fuzz")
    {
        // The writer's output reads back as the same moves.
        let again = parse_moves(&moves_to_string(&moves), "fuzz").expect("round trip");
        assert_eq!(again, moves);
    }
}
