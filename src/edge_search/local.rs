//! The multi-neighbourhood local search (§3.3): a steepest-descent loop that cycles through
//! the neighbourhoods in the paper's order — TA (TA.N iterations of TA.K tiles), BO (once),
//! BW (to a local optimum), TSR (to a local optimum), RO (Clique.N windows) — until a whole
//! cycle gains nothing (the board is then a local optimum with respect to all of them) or
//! the deadline passes.

use super::assign::KuhnMunkres;
use super::border::BorderOptimisation;
use super::neighbourhood::{BlackAndWhite, Neighbourhood, SwapRotate, TileAssignment};
use super::region_clique::RegionOptimisation;
use super::{Ctx, HeuristicError, matched};
use crate::puzzle::edge::Board;
use std::time::Instant;

/// One row of a run's trace: when (seconds since the run began), the matched seams after
/// the step, and the step (`greedy`, `TA`, `BO`, …). In JSON a row is the array `[seconds, matched, step]`.
#[derive(Debug, Clone, PartialEq)]
pub struct TraceRow {
    /// Seconds since the run began.
    pub seconds: f64,
    /// Matched inner seams after the step.
    pub matched: usize,
    /// The step.
    pub step: String,
}

impl serde::Serialize for TraceRow {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // Seconds to the millisecond: the trace is for reading, not for timing to the ns.
        let seconds = (self.seconds * 1000.0).round() / 1000.0;
        (seconds, self.matched, &self.step).serialize(s)
    }
}

/// Run the local search on the complete `board` in place, starting the clock of the trace at
/// `started`. `on_better` is called with every board better than any before (the anytime
/// output); `trace` gets a row after every neighbourhood that gained something. Stops after
/// `patience` whole cycles without gain (1: the paper's local optimum), or at the deadline.
pub fn local_search(
    ctx: &mut Ctx<'_>,
    board: &mut Board,
    hoods: &mut [Box<dyn Neighbourhood>],
    patience: usize,
    started: Instant,
    trace: &mut Vec<TraceRow>,
    on_better: &mut dyn FnMut(&Board, usize),
) -> Result<(), HeuristicError> {
    let p = ctx.puzzle;
    let mut best = matched(p, board);
    let mut idle_cycles = 0;
    let mut cycle = 0;
    while idle_cycles < patience.max(1) && !ctx.out_of_time() {
        cycle += 1;
        let mut gained_in_cycle = 0;
        for hood in hoods.iter_mut() {
            if ctx.out_of_time() {
                break;
            }
            (ctx.progress)(&format!(
                "local search: cycle {cycle}, {}, {best} matched, {:.0} s",
                hood.name(),
                started.elapsed().as_secs_f64()
            ));
            let before = matched(p, board);
            let kept = board.clone();
            hood.improve(ctx, board)?;
            let sc = crate::puzzle::edge::score(p, board);
            let mut after = sc.matched;
            let legal = sc.empty == 0 && sc.rim_faults == 0 && sc.repeats == 0;
            // The trait's contract, checked rather than trusted: a board made worse or
            // illegal (a bug) is put back, so the run's best never depends on it.
            if after < before || !legal {
                debug_assert!(false, "{} made the board worse", hood.name());
                *board = kept;
                after = before;
            }
            if after > before {
                gained_in_cycle += after - before;
                trace.push(TraceRow {
                    seconds: started.elapsed().as_secs_f64(),
                    matched: after,
                    step: hood.name().to_string(),
                });
            }
            if after > best {
                best = after;
                on_better(board, best);
            }
        }
        idle_cycles = if gained_in_cycle == 0 {
            idle_cycles + 1
        } else {
            0
        };
    }
    Ok(())
}

/// The local search's parameters (`None`: the paper's Table 2 value).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LsParams {
    /// TA.K: tiles freed per Tile Assignment move (16).
    pub ta_k: Option<usize>,
    /// TA.N: Tile Assignment iterations per cycle (1000).
    pub ta_n: Option<usize>,
    /// Clique.W × Clique.H: the Region Optimisation window (6 × 6).
    pub clique_window: Option<(usize, usize)>,
    /// Clique.N: Region Optimisation windows per cycle (10).
    pub clique_n: Option<usize>,
    /// Tiles Swap and Rotation takes the first improvement instead of the best.
    pub tsr_first: bool,
}

/// The neighbourhoods in the paper's order: TA, BO, BW, TSR, RO.
pub fn paper_neighbourhoods(params: &LsParams) -> Vec<Box<dyn Neighbourhood>> {
    let ta: TileAssignment = TileAssignment {
        k: params.ta_k.unwrap_or(16),
        iterations: params.ta_n.unwrap_or(1000),
        ..TileAssignment::default()
    };
    let (width, height) = params.clique_window.unwrap_or((6, 6));
    vec![
        Box::new(ta),
        Box::new(BorderOptimisation),
        Box::new(BlackAndWhite::<KuhnMunkres>::default()),
        Box::new(SwapRotate {
            first_improvement: params.tsr_first,
        }),
        Box::new(RegionOptimisation {
            width,
            height,
            iterations: params.clique_n.unwrap_or(10),
        }),
    ]
}
