//! Puzzle-level check of an edge-matching board, written from the rules alone: it shares no
//! code with `puzzle::edge` (rotation, scoring) or with any encoder, so that a convention
//! bug there cannot hide itself here.
//!
//! Conventions, restated: pieces are listed bottom, left, top, right (clockwise), 0 = grey;
//! a rotation is a number of clockwise quarter turns; cells are row-major, row 0 at the top.

use super::{Checker, Verdict};
use crate::puzzle::edge::{Board, EdgePuzzle};

/// The edge-matching [`Checker`]: a board checked by [`check_board`] against the puzzle's
/// listed colours; the verdict's objective is the unmatched inner seams.
#[derive(Debug, Clone, Copy, Default)]
pub struct BoardChecker;

impl BoardChecker {
    /// The full verdict, with the matched seams.
    pub fn verdict(&self, p: &EdgePuzzle, board: &Board, claimed: Option<f64>) -> EdgeVerdict {
        check_board(
            board.rows,
            board.cols,
            &p.colours(),
            &board.raw_cells(),
            claimed,
        )
    }
}

impl Checker for BoardChecker {
    type Instance = EdgePuzzle;
    type Solution = Board;
    fn check(&self, p: &EdgePuzzle, board: &Board, claimed: Option<f64>) -> Verdict {
        self.verdict(p, board, claimed).into()
    }
    fn floor(&self, _p: &EdgePuzzle) -> Option<f64> {
        Some(0.0)
    }
    fn noun(&self) -> &'static str {
        "board"
    }
}

/// At most this many messages per kind of problem, so a garbage board gives a readable report.
const MAX_PER_KIND: usize = 20;

/// The verdict on an edge-matching board.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct EdgeVerdict {
    /// True when no error was found: every cell filled, every piece used once, grey exactly on
    /// the rim, and the claimed objective (if any) right. Unmatched inner edges are allowed.
    pub valid: bool,
    /// Inner seams whose two sides show the same non-grey colour, recounted here.
    pub matched: usize,
    /// Number of inner seams, `2RC − R − C`.
    pub max: usize,
    /// Unmatched inner seams (`max − matched`), the objective the models minimise.
    pub objective: f64,
    /// One sentence per problem.
    pub errors: Vec<String>,
}

impl From<EdgeVerdict> for Verdict {
    fn from(v: EdgeVerdict) -> Verdict {
        Verdict {
            valid: v.valid,
            objective: Some(v.objective),
            errors: v.errors,
        }
    }
}

/// Colours shown up, right, down, left by a piece listed `l` (bottom, left, top, right)
/// after `turns` clockwise quarter turns.
fn shown(l: [u16; 4], turns: u8) -> [u16; 4] {
    let mut s = [l[2], l[3], l[0], l[1]]; // unturned: top is up, right is right, …
    for _ in 0..turns {
        // A clockwise turn: the left side comes up, up goes right, and so on.
        s = [s[3], s[0], s[1], s[2]];
    }
    s
}

/// Adds a message unless this kind already has `MAX_PER_KIND`; counts the overflow.
struct Report {
    errors: Vec<String>,
    kinds: Vec<(&'static str, usize)>,
}

impl Report {
    fn push(&mut self, kind: &'static str, msg: String) {
        let slot = match self.kinds.iter().position(|(k, _)| *k == kind) {
            Some(i) => i,
            None => {
                self.kinds.push((kind, 0));
                self.kinds.len() - 1
            }
        };
        self.kinds[slot].1 += 1;
        if self.kinds[slot].1 <= MAX_PER_KIND {
            self.errors.push(msg);
        }
    }
    fn finish(mut self) -> Vec<String> {
        for (kind, n) in &self.kinds {
            if *n > MAX_PER_KIND {
                self.errors
                    .push(format!("… and {} more {kind} problems", n - MAX_PER_KIND));
            }
        }
        self.errors
    }
}

/// Check a board: `cells[row * cols + col]` is `None` (empty) or `(piece id, turns)` with
/// 1-based ids into `pieces` (listed colours). Reports every empty cell, unknown piece,
/// rotation outside 0..4, piece used twice or never, non-grey side facing out and grey
/// side facing in; recounts matched inner seams; and, when `claimed_unmatched` is given,
/// checks it equals `max − matched`.
pub fn check_board(
    rows: usize,
    cols: usize,
    pieces: &[[u16; 4]],
    cells: &[Option<(usize, u8)>],
    claimed_unmatched: Option<f64>,
) -> EdgeVerdict {
    let max = (2 * rows * cols).saturating_sub(rows + cols);
    let mut rep = Report {
        errors: Vec::new(),
        kinds: Vec::new(),
    };
    if rows == 0 || cols == 0 || cells.len() != rows * cols {
        rep.push(
            "size",
            format!(
                "the board has {} cells, not {rows}×{cols} = {}",
                cells.len(),
                rows * cols
            ),
        );
        let errors = rep.finish();
        return EdgeVerdict {
            valid: false,
            matched: 0,
            max,
            objective: max as f64,
            errors,
        };
    }
    if pieces.len() != rows * cols {
        rep.push(
            "size",
            format!(
                "the instance has {} pieces but a {rows}×{cols} board has {} cells",
                pieces.len(),
                rows * cols
            ),
        );
    }
    // What each cell shows (up, right, down, left), when it holds a real piece.
    let mut sides: Vec<Option<[u16; 4]>> = vec![None; cells.len()];
    let mut uses: Vec<Vec<usize>> = vec![Vec::new(); pieces.len()];
    for (i, cell) in cells.iter().enumerate() {
        let (r, c) = (i / cols, i % cols);
        match *cell {
            None => rep.push("empty", format!("cell ({r}, {c}) is empty")),
            Some((id, _)) if id == 0 || id > pieces.len() => rep.push(
                "piece",
                format!(
                    "cell ({r}, {c}) holds piece {id}, which does not exist (pieces 1 to {})",
                    pieces.len()
                ),
            ),
            Some((id, turns)) => {
                uses[id - 1].push(i);
                if turns > 3 {
                    rep.push(
                        "rotation",
                        format!(
                            "cell ({r}, {c}): rotation {turns} is not 0 to 3 clockwise quarter turns"
                        ),
                    );
                } else {
                    sides[i] = Some(shown(pieces[id - 1], turns));
                }
            }
        }
    }
    for (k, u) in uses.iter().enumerate() {
        match u.len() {
            0 => rep.push("usage", format!("piece {} is not used", k + 1)),
            1 => {}
            n => {
                let at: Vec<String> = u
                    .iter()
                    .map(|&i| format!("({}, {})", i / cols, i % cols))
                    .collect();
                rep.push(
                    "usage",
                    format!("piece {} is used {n} times: cells {}", k + 1, at.join(", ")),
                );
            }
        }
    }
    const SIDE: [&str; 4] = ["up", "right", "down", "left"];
    let mut matched = 0;
    for r in 0..rows {
        for c in 0..cols {
            let Some(s) = sides[r * cols + c] else {
                continue;
            };
            let faces_out = [r == 0, c == cols - 1, r == rows - 1, c == 0];
            for d in 0..4 {
                if faces_out[d] && s[d] != 0 {
                    rep.push(
                        "rim",
                        format!(
                            "cell ({r}, {c}): the {} side faces out of the board but shows colour {}, not grey",
                            SIDE[d], s[d]
                        ),
                    );
                } else if !faces_out[d] && s[d] == 0 {
                    rep.push(
                        "rim",
                        format!(
                            "cell ({r}, {c}): the {} side is grey but faces into the board",
                            SIDE[d]
                        ),
                    );
                }
            }
            // Count each seam once, from its upper or left cell.
            if c + 1 < cols
                && let Some(t) = sides[r * cols + c + 1]
                && s[1] == t[3]
                && s[1] != 0
            {
                matched += 1;
            }
            if r + 1 < rows
                && let Some(t) = sides[(r + 1) * cols + c]
                && s[2] == t[0]
                && s[2] != 0
            {
                matched += 1;
            }
        }
    }
    let unmatched = (max - matched) as f64;
    if let Some(claim) = claimed_unmatched
        && (claim - unmatched).abs() > 1e-6
    {
        rep.push(
            "objective",
            format!(
                "the claimed objective is {claim} unmatched edges but the board has {unmatched} ({matched} of {max} matched)"
            ),
        );
    }
    let errors = rep.finish();
    EdgeVerdict {
        valid: errors.is_empty(),
        matched,
        max,
        objective: unmatched,
        errors,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Brendan Owen's set-1 3×3 instance, written out here so the test needs no parser.
    const PIECES: [[u16; 4]; 9] = [
        [0, 0, 1, 1],
        [0, 0, 1, 2],
        [0, 0, 2, 1],
        [0, 0, 2, 2],
        [0, 1, 3, 2],
        [0, 1, 4, 1],
        [0, 2, 3, 1],
        [0, 2, 4, 2],
        [3, 3, 4, 4],
    ];

    /// Its known solution (Brendan's file converted by hand: rotation (r + 3) mod 4).
    fn solution() -> Vec<Option<(usize, u8)>> {
        [
            (2, 1),
            (6, 2),
            (3, 2),
            (7, 1),
            (9, 0),
            (8, 3),
            (1, 0),
            (5, 0),
            (4, 3),
        ]
        .into_iter()
        .map(Some)
        .collect()
    }

    fn check(cells: &[Option<(usize, u8)>], claim: Option<f64>) -> EdgeVerdict {
        check_board(3, 3, &PIECES, cells, claim)
    }

    fn has(v: &EdgeVerdict, text: &str) -> bool {
        v.errors.iter().any(|e| e.contains(text))
    }

    #[test]
    fn rotation_table() {
        assert_eq!(shown([1, 2, 3, 4], 0), [3, 4, 1, 2]);
        assert_eq!(shown([1, 2, 3, 4], 1), [2, 3, 4, 1]);
        assert_eq!(shown([1, 2, 3, 4], 3), [4, 1, 2, 3]);
    }

    #[test]
    fn the_known_solution_is_perfect() {
        let v = check(&solution(), Some(0.0));
        assert!(v.valid, "{:?}", v.errors);
        assert_eq!((v.matched, v.max, v.objective), (12, 12, 0.0));
        let json = serde_json::to_value(&v).unwrap();
        for k in ["matched", "max", "valid", "errors", "objective"] {
            assert!(json.get(k).is_some(), "{k}");
        }
    }

    #[test]
    fn a_piece_used_twice() {
        let mut b = solution();
        b[4] = Some((5, 0)); // piece 5 also in the centre, piece 9 gone
        let v = check(&b, None);
        assert!(!v.valid);
        assert!(
            has(&v, "piece 5 is used 2 times: cells (1, 1), (2, 1)"),
            "{:?}",
            v.errors
        );
        assert!(has(&v, "piece 9 is not used"));
        assert!(has(
            &v,
            "cell (1, 1): the down side is grey but faces into the board"
        ));
    }

    #[test]
    fn a_rotated_inner_piece_is_legal_but_rescored() {
        let mut b = solution();
        b[4] = Some((9, 1));
        // Up now shows 3 against 4 and down 4 against 3: two seams lost.
        let v = check(&b, None);
        assert!(v.valid, "{:?}", v.errors);
        assert_eq!((v.matched, v.objective), (10, 2.0));
        assert!(check(&b, Some(2.0)).valid);
        let wrong = check(&b, Some(0.0));
        assert!(!wrong.valid);
        assert_eq!(
            wrong.errors,
            vec![
                "the claimed objective is 0 unmatched edges but the board has 2 (10 of 12 matched)"
            ]
        );
    }

    #[test]
    fn a_rotated_corner_breaks_the_rim() {
        let mut b = solution();
        b[0] = Some((2, 2));
        let v = check(&b, None);
        assert!(!v.valid);
        assert!(has(
            &v,
            "cell (0, 0): the left side faces out of the board but shows colour 2, not grey"
        ));
        assert!(has(
            &v,
            "cell (0, 0): the right side is grey but faces into the board"
        ));
    }

    #[test]
    fn two_swapped_pieces() {
        // Swap the top and bottom middle edge pieces, each turned to keep grey outward.
        let mut b = solution();
        b[1] = Some((5, 2));
        b[7] = Some((6, 0));
        let v = check(&b, Some(4.0));
        assert!(v.valid, "{:?}", v.errors);
        assert_eq!(v.matched, 8);
        // Swapped as they were (rotations kept): grey on the wrong sides.
        let mut c = solution();
        c.swap(1, 3);
        let v = check(&c, None);
        assert!(!v.valid);
        assert!(has(&v, "cell (0, 1): the up side faces out of the board"));
    }

    #[test]
    fn a_missing_cell_and_bad_entries() {
        let mut b = solution();
        b[4] = None;
        let v = check(&b, None);
        assert!(!v.valid);
        assert!(has(&v, "cell (1, 1) is empty"));
        assert!(has(&v, "piece 9 is not used"));
        assert_eq!(v.matched, 8);
        b[4] = Some((10, 0));
        assert!(has(
            &check(&b, None),
            "holds piece 10, which does not exist"
        ));
        b[4] = Some((9, 4));
        assert!(has(&check(&b, None), "rotation 4 is not 0 to 3"));
        let v = check_board(3, 3, &PIECES, &b[..8], None);
        assert_eq!(v.errors, vec!["the board has 8 cells, not 3×3 = 9"]);
    }

    #[test]
    fn long_reports_are_capped() {
        let empty = vec![None; 100];
        let pieces = vec![[1, 1, 1, 1]; 100];
        let v = check_board(10, 10, &pieces, &empty, None);
        assert!(v.errors.len() < 50);
        assert!(has(&v, "… and 80 more empty problems"));
    }
}
