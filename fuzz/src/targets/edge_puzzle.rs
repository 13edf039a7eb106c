//! `EdgePuzzle::parse`: an edge-matching piece file (optional `R C` header, four colours per
//! line).

use tilekit::puzzle::edge::EdgePuzzle;

/// One input, as AFL++ hands it over: a panic is a finding.
pub(crate) fn run(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data)
        && let Ok(p) = EdgePuzzle::parse(text, "fuzz")
    {
        // The writer's output reads back as the same puzzle.
        let again = EdgePuzzle::parse(&p.to_text(), "fuzz").expect("round trip");
        assert_eq!(again, p);
    }
}
