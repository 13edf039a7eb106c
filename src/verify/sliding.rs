//! Puzzle-level check of a sliding-puzzle solution: replay every move on a fresh board.

use super::{Checker, Verdict};
use crate::puzzle::sliding::{Goal, Move, SlidingPuzzle, moves_to_string};

/// The sliding-puzzle [`Checker`]: a plan replayed by [`check_moves`] (not by the puzzle's own
/// move code) towards the goal of this convention.
#[derive(Debug, Clone, Copy)]
pub struct PlanChecker {
    /// The goal convention the plan must reach.
    pub goal: Goal,
}

impl Checker for PlanChecker {
    type Instance = SlidingPuzzle;
    type Solution = [Move];
    fn check(&self, p: &SlidingPuzzle, moves: &[Move], claimed: Option<f64>) -> Verdict {
        let goal_board = self.goal.board(p.cells());
        check_moves(
            p.rows(),
            p.cols(),
            p.tiles(),
            &goal_board,
            &moves_to_string(moves),
            claimed,
        )
    }
    fn noun(&self) -> &'static str {
        "plan"
    }
}

/// Replay `moves` (letters U/D/L/R, the blank's direction) on the `rows × cols` board
/// `start` (row-major, 0 = blank) and check that every move stays on the board, that the
/// final board equals `goal`, and (when given) that the length equals `claimed_length`.
pub fn check_moves(
    rows: usize,
    cols: usize,
    start: &[u16],
    goal: &[u16],
    moves: &str,
    claimed_length: Option<f64>,
) -> Verdict {
    let mut errors = Vec::new();
    if start.len() != rows * cols || goal.len() != rows * cols {
        errors.push(format!("the boards do not have {rows}×{cols} cells"));
        return Verdict::from_errors(None, errors);
    }
    let mut board = start.to_vec();
    let Some(mut blank) = board.iter().position(|&t| t == 0) else {
        errors.push("the start board has no blank".to_string());
        return Verdict::from_errors(None, errors);
    };
    let mut count = 0usize;
    for ch in moves.chars().filter(|c| !c.is_whitespace()) {
        count += 1;
        let (r, c) = (blank / cols, blank % cols);
        let next = match ch {
            'U' if r > 0 => Some(blank - cols),
            'D' if r + 1 < rows => Some(blank + cols),
            'L' if c > 0 => Some(blank - 1),
            'R' if c + 1 < cols => Some(blank + 1),
            'U' | 'D' | 'L' | 'R' => None,
            other => {
                errors.push(format!("move {count}: {other:?} is not one of U, D, L, R"));
                return Verdict::from_errors(None, errors);
            }
        };
        match next {
            Some(n) => {
                board[blank] = board[n];
                board[n] = 0;
                blank = n;
            }
            None => {
                errors.push(format!(
                    "move {count} ({ch}) is illegal: the blank at row {}, column {} cannot go there (counting from 1)",
                    r + 1,
                    c + 1
                ));
                return Verdict::from_errors(None, errors);
            }
        }
    }
    if board != goal {
        let wrong = board.iter().zip(goal).filter(|(a, b)| a != b).count();
        errors.push(format!(
            "after {count} moves the board is not the goal: {wrong} cells differ"
        ));
    }
    if let Some(claim) = claimed_length
        && (claim - count as f64).abs() > 1e-6
    {
        errors.push(format!(
            "the solver reported objective {claim} but the solution has {count} moves"
        ));
    }
    Verdict::from_errors(Some(count as f64), errors)
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: [u16; 16] = [5, 1, 2, 3, 9, 6, 7, 4, 13, 10, 11, 8, 14, 15, 0, 12];
    fn goal() -> Vec<u16> {
        (1..16).chain([0]).collect()
    }
    // The case study's 11-move optimum (found by breadth-first search).
    const GOOD: &str = "LLUUURRRDDD";

    #[test]
    fn accepts_a_correct_solution() {
        let v = check_moves(4, 4, &START, &goal(), GOOD, Some(11.0));
        assert!(v.valid, "{:?}", v.errors);
        assert_eq!(v.objective, Some(11.0));
    }

    #[test]
    fn rejects_mutations() {
        // swapped adjacent moves, a dropped move, an illegal move, a wrong claimed length
        let swapped = format!("{}{}{}", &GOOD[..4], &GOOD[5..6], &GOOD[4..5]) + &GOOD[6..];
        for bad in [swapped.as_str(), &GOOD[..10], "D", "LLUUURRRDDDX"] {
            let v = check_moves(4, 4, &START, &goal(), bad, None);
            assert!(!v.valid, "{bad} accepted");
        }
        let v = check_moves(4, 4, &START, &goal(), GOOD, Some(13.0));
        assert_eq!(
            v.errors,
            vec!["the solver reported objective 13 but the solution has 11 moves"]
        );
        let v = check_moves(4, 4, &START, &goal(), "D", None);
        assert_eq!(
            v.errors,
            vec![
                "move 1 (D) is illegal: the blank at row 4, column 3 cannot go there (counting from 1)"
            ]
        );
    }
}
