//! Construction (§3.1–3.2): the board is cut into rectangular regions, filled one after the
//! other by the region MILP ([`crate::formulate::edge_region`]).
//! - [`greedy`] (Algorithm 1): each region is filled optimally given the regions before it.
//! - [`backtracking`] (Algorithm 2): each region must be filled perfectly (its optimum is
//!   restricted to zero); when one cannot be, the previous region is solved again with its
//!   last filling cut off by the no-good (17), and so on back; at its time limit the deepest
//!   partial board reached is finished greedily.
//!
//! Regions follow the paper's order: bands of `rows` rows from the top, each cut into blocks
//! of `cols` columns from the left (the paper's 1×n and 2×n are whole rows and row pairs).

use super::{Ctx, HeuristicError, RegionOutcome, solve_region};
use crate::formulate::edge_region::{Placement, RegionSpec, unused_pieces};
use crate::puzzle::edge::{Board, EdgePuzzle};
use std::time::{Duration, Instant};

/// The shape of the construction's regions: `rows × cols` cells (`cols` = `None`: the whole
/// width, the paper's `n`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RegionShape {
    /// Rows of a region.
    pub rows: usize,
    /// Columns of a region; `None`: the board's width.
    pub cols: Option<usize>,
}

impl RegionShape {
    /// The paper's 1×n: one whole row at a time.
    pub const ROW: RegionShape = RegionShape {
        rows: 1,
        cols: None,
    };

    /// Read `RxC` (`1x10`, `2xn`, `3x3`; `n` is the board's width).
    pub fn parse(s: &str) -> Result<RegionShape, String> {
        let bad =
            || format!("expected a region shape ROWSxCOLS such as 1x10, 2xn or 3x3, not {s:?}");
        let (r, c) = s.split_once(['x', '×']).ok_or_else(bad)?;
        let rows: usize = r.trim().parse().map_err(|_| bad())?;
        let cols = match c.trim() {
            "n" | "N" => None,
            c => Some(c.parse::<usize>().map_err(|_| bad())?),
        };
        if rows == 0 || cols == Some(0) {
            return Err(format!(
                "a region needs at least one row and one column, not {s:?}"
            ));
        }
        Ok(RegionShape { rows, cols })
    }

    /// As `RxC` with the board's width filled in.
    pub fn label(&self, board_cols: usize) -> String {
        format!("{}x{}", self.rows, self.cols.unwrap_or(board_cols))
    }

    /// The regions of a `rows × cols` board, in the paper's order: each a list of cells, row
    /// by row.
    pub fn regions(&self, rows: usize, cols: usize) -> Vec<Vec<(usize, usize)>> {
        let (h, w) = (self.rows.min(rows), self.cols.unwrap_or(cols).min(cols));
        let mut out = Vec::new();
        for r0 in (0..rows).step_by(h) {
            for c0 in (0..cols).step_by(w) {
                let r1 = (r0 + h).min(rows);
                let c1 = (c0 + w).min(cols);
                out.push(
                    (r0..r1)
                        .flat_map(|r| (c0..c1).map(move |c| (r, c)))
                        .collect(),
                );
            }
        }
        out
    }
}

/// How a construction ended.
#[derive(Debug, Clone)]
pub struct Built {
    /// The complete board.
    pub board: Board,
    /// Regions filled by the MILP (the rest, if any, by [`quick_fill`] at the deadline).
    pub regions_solved: usize,
    /// Regions in all.
    pub regions: usize,
    /// For the backtracking heuristic: regions filled perfectly before it went greedy, and
    /// the backtracks made.
    pub perfect_regions: usize,
    /// Backtracks made.
    pub backtracks: usize,
    /// Whether the whole puzzle was proven to have no perfect board whose regions are
    /// filled in this order (the backtracking search ran out of fillings of its first
    /// region).
    pub exhausted: bool,
}

/// The region spec of `cells` on `board`: every piece not on the board may fill it, listed in
/// an order drawn from the run's generator. The order changes nothing in the model but the
/// order of its variables, which decides which of several optimal fillings a MILP solver
/// returns: how one seed's run differs from another's, as the paper's 20 runs did.
fn spec_of(
    ctx: &mut Ctx<'_>,
    board: &Board,
    cells: &[(usize, usize)],
    perfect: bool,
) -> RegionSpec {
    let mut pieces = unused_pieces(ctx.puzzle, board);
    ctx.rng.shuffle(&mut pieces);
    RegionSpec {
        cells: cells.to_vec(),
        pieces,
        cuts: Vec::new(),
        perfect,
    }
}

/// Algorithm 1 from `start` (empty or partial: regions already filled are skipped, cells
/// already filled are left out of their region). Regions the deadline leaves unsolved are
/// completed by [`quick_fill`], so a board always comes back complete.
pub fn greedy(
    ctx: &mut Ctx<'_>,
    shape: RegionShape,
    start: Board,
) -> Result<Built, HeuristicError> {
    let p = ctx.puzzle;
    let regions = shape.regions(p.rows(), p.cols());
    let mut board = start;
    let mut solved = 0;
    for (i, cells) in regions.iter().enumerate() {
        let empty: Vec<(usize, usize)> = cells
            .iter()
            .copied()
            .filter(|&(r, c)| board.get(r, c).is_none())
            .collect();
        if empty.is_empty() {
            continue;
        }
        if ctx.out_of_time() {
            break;
        }
        (ctx.progress)(&format!(
            "greedy: region {} of {} ({} cells), {} matched so far",
            i + 1,
            regions.len(),
            empty.len(),
            super::matched(p, &board)
        ));
        let spec = spec_of(ctx, &board, &empty, false);
        match solve_region(ctx, &board, &spec)? {
            RegionOutcome::Filled { board: b, .. } => {
                board = b;
                solved += 1;
            }
            // Without the perfect restriction the region model is always feasible (its
            // pieces' classes match its cells'); a solver saying otherwise is not believed,
            // and the region is filled without it.
            RegionOutcome::Infeasible | RegionOutcome::TimeLimit => break,
        }
    }
    let board = quick_fill(p, board);
    Ok(Built {
        board,
        regions_solved: solved,
        regions: regions.len(),
        perfect_regions: 0,
        backtracks: 0,
        exhausted: false,
    })
}

/// Algorithm 2 from `start` (empty, or holding fixed pieces) for at most `limit` (and the
/// run's deadline), then [`greedy`] from the deepest partial board it reached.
pub fn backtracking(
    ctx: &mut Ctx<'_>,
    shape: RegionShape,
    limit: Duration,
    start: Board,
) -> Result<Built, HeuristicError> {
    let p = ctx.puzzle;
    // Regions whose cells are all fixed already are no levels of the search.
    let regions: Vec<Vec<(usize, usize)>> = shape
        .regions(p.rows(), p.cols())
        .into_iter()
        .map(|cells| {
            cells
                .into_iter()
                .filter(|&(r, c)| start.get(r, c).is_none())
                .collect::<Vec<_>>()
        })
        .filter(|cells| !cells.is_empty())
        .collect();
    let until = (Instant::now() + limit).min(ctx.deadline);
    // `levels[i]`: the board before region i, and the fillings of region i cut off so far.
    let mut levels: Vec<(Board, Vec<Vec<Placement>>)> = vec![(start, Vec::new())];
    // The placements chosen at each filled level, to cut off when the search comes back.
    let mut chosen: Vec<Vec<Placement>> = Vec::new();
    let mut deepest = (0usize, levels[0].0.clone());
    let mut backtracks = 0;
    let mut exhausted = false;
    let run_deadline = ctx.deadline;
    ctx.deadline = until;
    let result = loop {
        let i = levels.len() - 1;
        if i == regions.len() {
            break Ok(());
        }
        if ctx.out_of_time() {
            break Ok(());
        }
        let (board, cuts) = &levels[i];
        let mut spec = spec_of(ctx, board, &regions[i], true);
        spec.cuts = cuts.clone();
        (ctx.progress)(&format!(
            "backtracking: region {} of {}, {} backtracks so far",
            i + 1,
            regions.len(),
            backtracks
        ));
        match solve_region(ctx, board, &spec) {
            Err(e) => break Err(e),
            Ok(RegionOutcome::Filled {
                board: next,
                placements,
                unmatched,
                ..
            }) => {
                debug_assert_eq!(unmatched, 0, "a perfect region has no unmatched seam");
                chosen.push(placements);
                if i + 1 > deepest.0 {
                    deepest = (i + 1, next.clone());
                }
                levels.push((next, Vec::new()));
            }
            Ok(RegionOutcome::Infeasible) => {
                // No perfect filling of region i under the fillings above it: cut off the
                // previous region's filling and solve that region again.
                let Some(last) = chosen.pop() else {
                    // Region 1 itself has no perfect filling left.
                    exhausted = true;
                    break Ok(());
                };
                levels.pop();
                backtracks += 1;
                levels.last_mut().expect("level i-1 exists").1.push(last);
            }
            Ok(RegionOutcome::TimeLimit) => break Ok(()),
        }
    };
    ctx.deadline = run_deadline;
    result?;
    let complete = levels.len() - 1 == regions.len();
    let (perfect_regions, start) = if complete {
        (regions.len(), levels.pop().expect("the last level").0)
    } else {
        deepest
    };
    let mut built = greedy(ctx, shape, start)?;
    built.perfect_regions = perfect_regions;
    built.regions_solved += perfect_regions;
    built.backtracks = backtracks;
    built.exhausted = exhausted;
    Ok(built)
}

/// A random complete board from `start`: the free pieces of each class (corner, border,
/// inner) shuffled into the empty cells of that class, each in a rotation that fits (a random
/// one of the four for inner pieces). The start of the paper's Table 4.
pub fn random(ctx: &mut Ctx<'_>, start: Board) -> Built {
    let p = ctx.puzzle;
    let (rows, cols) = (p.rows(), p.cols());
    let class = |r: usize, c: usize| {
        usize::from(r == 0 || r + 1 == rows) + usize::from(c == 0 || c + 1 == cols)
    };
    let mut board = start;
    let free = unused_pieces(p, &board);
    for k in 0..3 {
        let mut cells: Vec<(usize, usize)> = (0..rows)
            .flat_map(|r| (0..cols).map(move |c| (r, c)))
            .filter(|&(r, c)| class(r, c) == k && board.get(r, c).is_none())
            .collect();
        // A piece's class is the number of its grey sides: 0 inner, 1 border, 2 corner.
        let mut pieces: Vec<u16> = free
            .iter()
            .copied()
            .filter(|&id| p.piece(id).is_some_and(|pc| pc.greys() == k))
            .collect();
        ctx.rng.shuffle(&mut pieces);
        ctx.rng.shuffle(&mut cells);
        for (&(r, c), &id) in cells.iter().zip(&pieces) {
            let fits = p.fitting_rotations(id, r, c);
            if fits.is_empty() {
                continue;
            }
            let rot = fits[ctx.rng.below(fits.len())];
            board.cells[r * cols + c] = Some((id, rot));
        }
    }
    // A board whose classes do not line up (a 1-wide puzzle) is completed the cheap way.
    Built {
        board: quick_fill(p, board),
        regions_solved: 0,
        regions: 0,
        perfect_regions: 0,
        backtracks: 0,
        exhausted: false,
    }
}

/// Fill every empty cell, row by row, with the unused piece and rotation that fits the cell
/// and matches most of its filled neighbours (ties: the lowest piece id, then rotation). The
/// fallback that completes a board when the time limit stops the MILP: cheap, legal, and no
/// claim of quality.
pub fn quick_fill(p: &EdgePuzzle, mut board: Board) -> Board {
    let mut free = unused_pieces(p, &board);
    let (rows, cols) = (p.rows(), p.cols());
    for r in 0..rows {
        for c in 0..cols {
            if board.get(r, c).is_some() {
                continue;
            }
            let shown = |rr: usize, cc: usize, side: usize| {
                board
                    .get(rr, cc)
                    .and_then(|(id, rot)| p.piece(id).map(|pc| pc.placed(rot)[side]))
            };
            let neighbours = [
                (r > 0).then(|| shown(r - 1, c, 2)).flatten(),
                (c + 1 < cols).then(|| shown(r, c + 1, 3)).flatten(),
                (r + 1 < rows).then(|| shown(r + 1, c, 0)).flatten(),
                (c > 0).then(|| shown(r, c - 1, 1)).flatten(),
            ];
            let mut best: Option<(usize, usize, crate::puzzle::edge::Rotation)> = None;
            for (k, &id) in free.iter().enumerate() {
                let pc = p.piece(id).expect("a piece of the puzzle");
                for rot in p.fitting_rotations(id, r, c) {
                    let placed = pc.placed(rot);
                    let score = (0..4)
                        .filter(|&d| matches!(neighbours[d], Some(k) if k != 0 && k == placed[d]))
                        .count();
                    if best.is_none_or(|(s, _, _)| score > s) {
                        best = Some((score, k, rot));
                    }
                }
            }
            if let Some((_, k, rot)) = best {
                let id = free.remove(k);
                board.cells[r * cols + c] = Some((id, rot));
            }
        }
    }
    board
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edge_search::{Rng, matched};
    use crate::puzzle::edge::{generate, score};

    /// The shared test context (embedded engine, a minute), seed 1.
    fn ctx(p: &EdgePuzzle) -> Ctx<'_> {
        crate::edge_search::region_clique::tests::ctx(p, 1)
    }

    #[test]
    fn shapes_parse_and_cut_the_board_in_the_papers_order() {
        assert_eq!(RegionShape::parse("1xn").unwrap(), RegionShape::ROW);
        assert_eq!(
            RegionShape::parse("2x5").unwrap(),
            RegionShape {
                rows: 2,
                cols: Some(5)
            }
        );
        assert!(RegionShape::parse("0x3").is_err());
        assert!(RegionShape::parse("3").is_err());
        let regions = RegionShape::parse("2x3").unwrap().regions(3, 4);
        assert_eq!(
            regions,
            vec![
                vec![(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)],
                vec![(0, 3), (1, 3)],
                vec![(2, 0), (2, 1), (2, 2)],
                vec![(2, 3)],
            ]
        );
    }

    #[test]
    fn greedy_builds_a_complete_legal_board() {
        let (p, _) = generate(5, 5, 2, 3, 3).unwrap();
        let built = greedy(&mut ctx(&p), RegionShape::ROW, Board::empty(5, 5)).unwrap();
        let sc = score(&p, &built.board);
        assert_eq!((sc.empty, sc.rim_faults, sc.repeats), (0, 0, 0));
        assert_eq!(built.regions_solved, 5);
        assert!(sc.matched >= 20, "{sc:?}");
    }

    #[test]
    fn backtracking_finds_a_planted_perfect_board() {
        let (p, _) = generate(4, 4, 2, 2, 5).unwrap();
        let built = backtracking(
            &mut ctx(&p),
            RegionShape::ROW,
            Duration::from_secs(30),
            Board::empty(4, 4),
        )
        .unwrap();
        assert_eq!(matched(&p, &built.board), p.max_score(), "{built:?}");
        assert_eq!(built.perfect_regions, 4);
        assert!(score(&p, &built.board).is_perfect());
    }

    #[test]
    fn quick_fill_completes_any_partial_board_legally() {
        let (p, planted) = generate(6, 6, 2, 4, 9).unwrap();
        let mut rng = Rng::new(4);
        let mut partial = planted.clone();
        for cell in partial.cells.iter_mut() {
            if rng.below(2) == 0 {
                *cell = None;
            }
        }
        let board = quick_fill(&p, partial);
        let sc = score(&p, &board);
        assert_eq!((sc.empty, sc.rim_faults, sc.repeats), (0, 0, 0), "{sc:?}");
    }
}
