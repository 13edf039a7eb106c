//! The heuristics of Salassa, Vancroonenburg, Wauters, Della Croce and Vanden Berghe, "MILP
//! and Max-Clique based heuristics for the Eternity II puzzle" (§3), for edge-matching
//! puzzles too big for the whole MILP or clique graph:
//! - construction ([`construct`]): the MILP-based greedy heuristic (Algorithm 1) and the
//!   backtracking heuristic (Algorithm 2), region by region through the region MILP
//!   ([`crate::formulate::edge_region`]) and any [`MilpSolver`];
//! - the multi-neighbourhood local search (§3.3, [`local`]): Tile Assignment and
//!   Black-and-White ([`assign`], a weighted bipartite matching), Border Optimisation (a
//!   region MILP over the rim, [`border`]), Tiles Swap and Rotation ([`neighbourhood`]), and
//!   Region Optimisation by max-clique on W×H windows ([`region_clique`]);
//! - and, beyond the paper, the search constructors that the best public Eternity II solvers
//!   use, on a fast board core ([`core`]): beam search ([`beam`]) and depth-first search with
//!   a late mismatch budget ([`dfs`]), and large-neighbourhood search that rebuilds windows
//!   by beam ([`lns`]).
//!
//! Everything here works on complete or partial [`Board`]s and keeps its own score
//! ([`matched`]); the board a run reports is judged again by the independent checker
//! (`verify::edge`) before anyone sees it.

pub mod assign;
pub mod beam;
pub mod border;
pub mod construct;
pub mod core;
pub mod dfs;
pub mod lns;
pub mod local;
pub mod neighbourhood;
pub mod quota;
pub mod region_clique;
pub mod scan;
pub mod schedule;

use crate::formulate::edge_region::{self, EdgeRegion, RegionSpec};
use crate::model::answer::Outcome;
use crate::puzzle::edge::{Board, EdgePuzzle};
use crate::solve::{Limits, MilpSolver, SolveError};
use std::time::{Duration, Instant};

/// Why a heuristic run stopped without a board to show.
#[derive(Debug, thiserror::Error)]
pub enum HeuristicError {
    /// A region model could not be built (bad input: a region or a partial board that does
    /// not fit the puzzle).
    #[error(transparent)]
    Region(#[from] edge_region::RegionError),
    /// The MILP solver could not run, or answered something unreadable.
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// The MILP solver's answer failed the model check or did not decode: a solver failure.
    #[error("{solver} gave a region solution that fails the checks: {why}")]
    BadAnswer {
        /// The solver.
        solver: String,
        /// What failed.
        why: String,
    },
}

/// The library's one seeded generator: a run is a function of its seed.
pub use crate::rng::Rng;

/// Where progress lines go (the same shape as `route::Progress`, which this module, below the
/// routes, does not use).
pub type Progress<'a> = &'a (dyn Fn(&str) + Sync);

/// What every step of a heuristic run needs: the puzzle, the MILP solver for region models,
/// the seeded generator, the run's deadline, and where progress goes.
pub struct Ctx<'a> {
    /// The puzzle.
    pub puzzle: &'a EdgePuzzle,
    /// The MILP solver region models go to.
    pub milp: &'a dyn MilpSolver,
    /// The run's generator.
    pub rng: Rng,
    /// When the whole run must end.
    pub deadline: Instant,
    /// Threads a solver may use.
    pub threads: u32,
    /// Progress lines.
    pub progress: Progress<'a>,
    /// Cells the search must leave as they are (`frozen[row * cols + col]`): pieces fixed by
    /// the user, such as the official starter piece. Empty: none.
    pub frozen: Vec<bool>,
}

impl Ctx<'_> {
    /// True when cell (`row`, `col`) must not change.
    pub fn is_frozen(&self, row: usize, col: usize) -> bool {
        self.frozen
            .get(row * self.puzzle.cols() + col)
            .copied()
            .unwrap_or(false)
    }
    /// Time left before the deadline (`None`: none).
    pub fn remaining(&self) -> Option<Duration> {
        self.deadline
            .checked_duration_since(Instant::now())
            .filter(|d| !d.is_zero())
    }
    /// True once the deadline has passed.
    pub fn out_of_time(&self) -> bool {
        self.remaining().is_none()
    }
}

/// How one region model solve ended.
#[derive(Debug, Clone)]
pub enum RegionOutcome {
    /// The board with the region filled (checked at the model level and decoded), the
    /// unmatched counted seams, and whether the solver proved that optimal.
    Filled {
        /// The partial board with the region filled.
        board: Board,
        /// The placements chosen, in the order of the region's cells.
        placements: Vec<edge_region::Placement>,
        /// Unmatched counted seams (the objective).
        unmatched: usize,
        /// Proven optimal.
        optimal: bool,
    },
    /// Proven infeasible (with [`RegionSpec::perfect`]: no perfect filling exists).
    Infeasible,
    /// No filling within the time left.
    TimeLimit,
}

/// Build the region model of `spec` on `partial`, solve it with `ctx.milp` within the time
/// left, and check the answer: the point against every row and bound of the model, the
/// decoded board's seams recounted from the board itself. A solver whose answer fails either
/// check is a [`HeuristicError::BadAnswer`].
pub fn solve_region(
    ctx: &Ctx<'_>,
    partial: &Board,
    spec: &RegionSpec,
) -> Result<RegionOutcome, HeuristicError> {
    let region = edge_region::build(ctx.puzzle, partial, spec)?;
    let Some(time) = ctx.remaining() else {
        return Ok(RegionOutcome::TimeLimit);
    };
    let sol = ctx
        .milp
        .solve(&region.model, &Limits::new(time, ctx.threads))?;
    let bad = |why: String| HeuristicError::BadAnswer {
        solver: ctx.milp.name().to_string(),
        why,
    };
    match sol.outcome {
        Outcome::Infeasible => return Ok(RegionOutcome::Infeasible),
        o if !o.has_solution() => return Ok(RegionOutcome::TimeLimit),
        _ => {}
    }
    let x = sol.resolve(&region.model).map_err(|e| bad(e.to_string()))?;
    let verdict = crate::verify::milp::check_point(&region.model, &x, sol.objective);
    if !verdict.errors.is_empty() {
        return Err(bad(verdict.errors.join("; ")));
    }
    let placements = region
        .decode_placements(&x)
        .map_err(|e| bad(e.to_string()))?;
    let board = region.decode(&x).map_err(|e| bad(e.to_string()))?;
    let unmatched = region_unmatched(ctx.puzzle, &region, &board);
    Ok(RegionOutcome::Filled {
        board,
        placements,
        unmatched,
        optimal: sol.outcome == Outcome::Optimal,
    })
}

/// The unmatched counted seams of `region`, recounted on the filled `board` (not read from
/// the solver's seam variables, which only bound them from above).
fn region_unmatched(p: &EdgePuzzle, region: &EdgeRegion, board: &Board) -> usize {
    let x = region.point_of(p, board);
    region
        .seams
        .iter()
        .filter(|&&(s, _, _)| x[s.index()] > 0.5)
        .count()
}

/// Matched inner seams of `board` (empty cells match nothing): the score the paper reports.
pub fn matched(p: &EdgePuzzle, board: &Board) -> usize {
    crate::puzzle::edge::score(p, board).matched
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::edge::generate;

    #[test]
    fn a_region_of_a_planted_board_is_refilled_perfectly_by_the_embedded_engine() {
        let (p, solution) = generate(4, 4, 2, 3, 11).unwrap();
        let mut partial = solution.clone();
        for c in 0..4 {
            partial.cells[4 + c] = None;
        }
        let ctx = region_clique::tests::ctx(&p, 1);
        let spec = RegionSpec::rectangle(&p, &partial, (1, 0), (1, 3));
        match solve_region(&ctx, &partial, &spec).unwrap() {
            RegionOutcome::Filled {
                board,
                unmatched,
                optimal,
                ..
            } => {
                assert_eq!(unmatched, 0);
                assert!(optimal);
                assert_eq!(matched(&p, &board), p.max_score());
            }
            other => panic!("{other:?}"),
        }
    }
}
