//! `SlidingPuzzle::parse`: a sliding-tile instance (optional `R C` header, then the tiles),
//! read under both goal conventions.

use tilekit::puzzle::sliding::{Goal, SlidingPuzzle};

/// One input, as AFL++ hands it over: a panic is a finding.
pub(crate) fn run(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        for goal in [Goal::BlankLast, Goal::BlankFirst] {
            if let Ok(p) = SlidingPuzzle::parse(text, "fuzz", goal) {
                // What parse accepts, the rest of the library relies on.
                assert!(p.is_solvable(goal));
                let _ = p.to_text();
            }
        }
    }
}
