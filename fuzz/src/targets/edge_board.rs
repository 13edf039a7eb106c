//! The edge-matching board readers: `parse_board` (with and without an instance),
//! `parse_brendan_solution` and `parse_any_board`, against a fixed 4×4 instance (Brendan
//! Owen's first set, whose solution file is one of the seeds).

use std::sync::OnceLock;
use tilekit::puzzle::edge::{EdgePuzzle, parse_any_board, parse_board, parse_brendan_solution};

const PIECES: &str = include_str!("../../../models/edge-matching/brendan_set1/pieces_04x04.txt");

fn puzzle() -> &'static EdgePuzzle {
    static P: OnceLock<EdgePuzzle> = OnceLock::new();
    P.get_or_init(|| EdgePuzzle::parse(PIECES, "pieces_04x04.txt").expect("a shipped instance"))
}

/// One input, as AFL++ hands it over: a panic is a finding.
pub(crate) fn run(data: &[u8]) {
    let puzzle = puzzle();
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = parse_board(text, "fuzz", None);
        let _ = parse_board(text, "fuzz", Some(puzzle));
        let _ = parse_brendan_solution(text, "fuzz");
        if let Ok(b) = parse_any_board(text, "fuzz", puzzle) {
            assert_eq!((b.rows, b.cols), (puzzle.rows(), puzzle.cols()));
            // The board writer's output reads back as the same board.
            let again = parse_board(&b.to_text(), "fuzz", Some(puzzle)).expect("round trip");
            assert_eq!(again, b);
        }
    }
}
