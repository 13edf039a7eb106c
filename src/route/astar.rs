//! The A* route ([`Route::Astar`](super::Route::Astar)): best-first search on sliding boards
//! of at most 16 cells, with Manhattan + linear conflict, the pattern databases, or a learned
//! network (Cahlík & Surynek) as the heuristic; weighted A* (`weight`) and focal search
//! (`suboptimality`).
//!
//! Whatever orders the search, the admissible estimate (the pattern databases where the
//! board has them, else Manhattan + linear conflict) is kept beside it, so every report
//! carries a proven `bound` and says `optimal` only when the bound meets the plan. The plan
//! is replayed by the independent checker before anything is reported.

use super::{
    Answer, Checked, Details, Error, FamilyName, NativeStats, Progress, Report, Solution, Status,
};
use crate::field::Field;
use crate::puzzle::sliding::{Goal, Move, SlidingPuzzle, moves_to_string};
use crate::search::ann::{AnnGuide, AnnUse, Mlp, Target};
use crate::search::astar::{
    self, AstarOptions, AstarResult, AstarStop, Guide, MAX_CELLS, Order, Tiles,
};
use crate::search::pdb::Partition;
use crate::search::{NativeOptions, NativeSolver};

/// The shipped 15-puzzle network (`models/sliding/ann-15/`, its manifest beside it), used
/// when `weights` is not given.
pub const SHIPPED_15: &[u8] = include_bytes!("../../models/sliding/ann-15/ann-15.safetensors");
use crate::verify::Checker;
use crate::verify::sliding::PlanChecker;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The A* route's estimate (`heuristic`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum AstarHeuristic {
    /// Manhattan distance + linear conflict (admissible).
    Manhattan,
    /// The additive pattern databases with the reflection (admissible; 15-puzzle), else
    /// Manhattan + linear conflict.
    Pdb,
    /// The network's estimate as it comes (Cahlík & Surynek: inadmissible).
    Ann,
    /// The network's estimate, never below the admissible one, rounded to the distance's
    /// parity.
    AnnPdb,
}

impl AstarHeuristic {
    /// Every heuristic, in the order help texts list them.
    pub const ALL: [AstarHeuristic; 4] = [
        AstarHeuristic::Manhattan,
        AstarHeuristic::Pdb,
        AstarHeuristic::Ann,
        AstarHeuristic::AnnPdb,
    ];
    /// The estimate's name.
    pub fn name(self) -> &'static str {
        match self {
            AstarHeuristic::Manhattan => "manhattan",
            AstarHeuristic::Pdb => "pdb",
            AstarHeuristic::Ann => "ann",
            AstarHeuristic::AnnPdb => "ann-pdb",
        }
    }
    /// Whether it needs a network.
    pub fn learned(self) -> bool {
        matches!(self, AstarHeuristic::Ann | AstarHeuristic::AnnPdb)
    }
}

/// The A* route's options, as given (None: the default).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AstarMethod {
    /// The estimate (default `pdb`).
    pub heuristic: Option<AstarHeuristic>,
    /// The weight file: the network of `ann` and `ann-pdb` (default for the 15-puzzle:
    /// [`SHIPPED_15`]).
    pub weights: Option<PathBuf>,
    /// Weighted A*'s weight W: f = g + W·h (default 1, and
    /// [`LEARNED_WEIGHT`](super::sliding::LEARNED_WEIGHT) with a learned estimate). Above 1
    /// it trades optimality for speed; below 1 it makes a learned (inadmissible) estimate
    /// more cautious.
    pub weight: Option<f64>,
    /// Focal search's bound EPS: answer within `(1 + EPS)` of the optimum.
    pub suboptimality: Option<f64>,
    /// Nodes expanded before their children are estimated together (default 1).
    pub batch: Option<usize>,
    /// Stop when this many boards are stored (default 30 million).
    pub max_states: Option<usize>,
}

impl AstarMethod {
    /// Expansions per batch (`batch`, default 1; 0 is refused).
    pub fn batch(&self) -> Result<usize, Error> {
        match self.batch {
            Some(0) => Err(Error::usage(format!(
                "{} must be at least 1 (expansions whose children are estimated together)",
                Field::Batch
            ))),
            b => Ok(b.unwrap_or(1)),
        }
    }

    /// The heuristic asked for.
    pub fn heuristic(&self) -> AstarHeuristic {
        self.heuristic.unwrap_or(AstarHeuristic::Pdb)
    }

    /// The search order, after checking the numbers.
    pub fn order(&self) -> Result<Order, Error> {
        match (self.weight, self.suboptimality) {
            (Some(_), Some(_)) => Err(Error::usage(format!(
                "{f_weight} (weighted A*) and {f_suboptimality} (focal search) are two different searches: give one",
                f_weight = Field::Weight,
                f_suboptimality = Field::Suboptimality
            ))),
            // Past 10⁶ both are greedy search already; the search's arithmetic saturates
            // beyond, but a larger number only hides a typing error.
            (Some(w), None) if !(w.is_finite() && w > 0.0 && w <= 1e6) => {
                Err(Error::Usage(format!(
                    "{f_weight} must be a positive number of at most 10^6, not {}",
                    super::shown_number(w),
                    f_weight = Field::Weight
                )))
            }
            (Some(w), None) => Ok(Order::Weighted { weight: w }),
            (None, Some(e)) if !(e.is_finite() && (0.0..=1e6).contains(&e)) => {
                Err(Error::Usage(format!(
                    "{f_suboptimality} must be a number from 0 to 10^6, not {}",
                    super::shown_number(e),
                    f_suboptimality = Field::Suboptimality
                )))
            }
            (None, Some(e)) => Ok(Order::Focal { eps: e }),
            (None, None) => Ok(Order::Weighted { weight: 1.0 }),
        }
    }
}

/// Best-first search set up for one board size: the admissible estimate (databases loaded
/// once) and the network if one is given, reusable over many boards and heuristics (the
/// bench).
pub struct AstarEngine {
    solver: NativeSolver,
    mlp: Option<Mlp>,
    rows: usize,
    cols: usize,
}

impl AstarEngine {
    /// Load what `heuristic` needs for `rows × cols` boards: the admissible estimate
    /// (Manhattan + linear conflict for `manhattan`, else the databases where the board has
    /// them) and, given `weights`, the network (which must be for this board and, if it is
    /// a residual network, over this same admissible estimate).
    pub fn new(
        rows: usize,
        cols: usize,
        heuristic: AstarHeuristic,
        weights: Option<&std::path::Path>,
        progress: Progress<'_>,
    ) -> Result<Self, Error> {
        if rows * cols > MAX_CELLS {
            return Err(Error::Usage(format!(
                "{f_via} astar handles boards of at most 16 cells (a state is a 64-bit key), not {rows}×{cols}: use {f_via} native",
                f_via = Field::Via
            )));
        }
        if !heuristic.learned() && weights.is_some() {
            return Err(Error::Usage(format!(
                "{f_weights} belongs to {f_heuristic} ann or ann-pdb, not {}",
                heuristic.name(),
                f_weights = Field::Weights,
                f_heuristic = Field::Heuristic
            )));
        }
        // The network first: a residual one names the databases it was trained over, and
        // those are the ones to load (built once when missing).
        let (mlp, source) = match (weights, heuristic.learned()) {
            (Some(path), _) => (
                Some(Mlp::load(path).map_err(|e| Error::Usage(e.to_string()))?),
                path.display().to_string(),
            ),
            (None, true) if (rows, cols) == (4, 4) => (
                Some(Mlp::from_bytes(SHIPPED_15).map_err(|why| {
                    Error::Failure(format!("the built-in network is damaged: {why}"))
                })?),
                "the built-in network (models/sliding/ann-15)".to_string(),
            ),
            (None, true) => {
                return Err(Error::Usage(format!(
                    "{f_heuristic} {} needs a network for {rows}×{cols} boards: {f_weights} FILE (the built-in one is for the 15-puzzle)",
                    heuristic.name(),
                    f_heuristic = Field::Heuristic,
                    f_weights = Field::Weights
                )));
            }
            (None, false) => (None, String::new()),
        };
        if let Some(m) = &mlp
            && (m.rows(), m.cols()) != (rows, cols)
        {
            return Err(Error::Usage(format!(
                "{source}: the network is for {}×{} boards, not {rows}×{cols}",
                m.rows(),
                m.cols()
            )));
        }
        let partition = mlp
            .as_ref()
            .filter(|m| m.target() == Target::Residual)
            .and_then(|m| m.base().strip_prefix("pdb "))
            .and_then(|b| b.strip_suffix(" + reflection"))
            .and_then(|name| Partition::named(rows, cols, name).ok());
        let opts = NativeOptions {
            manhattan_only: heuristic == AstarHeuristic::Manhattan,
            partition,
            ..NativeOptions::default()
        };
        let solver = NativeSolver::new(rows, cols, &opts, progress)
            .map_err(|e| Error::Usage(e.to_string()))?;
        if let Some(m) = &mlp
            && m.target() == Target::Residual
            && m.base() != solver.heuristic_name()
        {
            return Err(Error::Usage(format!(
                "{source}: the network estimates the distance above {:?}, but this board's admissible estimate is {:?}",
                m.base(),
                solver.heuristic_name()
            )));
        }
        Ok(AstarEngine {
            solver,
            mlp,
            rows,
            cols,
        })
    }

    /// The admissible estimate's name (e.g. `pdb 7-8 + reflection`).
    pub fn lower_name(&self) -> String {
        self.solver.heuristic_name()
    }

    /// The native solver whose estimate is the bound (it also labels boards).
    pub fn native(&self) -> &NativeSolver {
        &self.solver
    }

    /// Bytes of the pattern databases (0 for Manhattan + linear conflict).
    pub fn lower_bytes(&self) -> u64 {
        self.solver.db_info().map_or(0, |d| d.bytes)
    }

    /// The network, when one was loaded.
    pub fn mlp(&self) -> Option<&Mlp> {
        self.mlp.as_ref()
    }

    /// The admissible estimate of a board (search convention).
    pub fn lower(&self, t: &Tiles) -> u32 {
        self.solver.estimate_tiles(&t[..self.rows * self.cols])
    }

    fn guide(&self, heuristic: AstarHeuristic) -> Option<AnnGuide<'_>> {
        match (&self.mlp, heuristic.learned()) {
            (Some(m), true) => Some(AnnGuide {
                mlp: m,
                how: AnnUse {
                    floor: heuristic == AstarHeuristic::AnnPdb,
                },
            }),
            _ => None,
        }
    }

    /// What orders a search with `heuristic`.
    pub fn guide_name(&self, heuristic: AstarHeuristic) -> String {
        match self.guide(heuristic) {
            Some(g) => g.name(),
            None => self.lower_name(),
        }
    }

    /// Search from `start` (search convention) with `heuristic` ordering it (a learned one
    /// needs the network this engine was given).
    pub fn run(
        &self,
        start: &Tiles,
        heuristic: AstarHeuristic,
        order: Order,
        batch: usize,
        deadline: Option<Instant>,
        max_states: usize,
    ) -> AstarResult {
        let opts = AstarOptions {
            rows: self.rows,
            cols: self.cols,
            order,
            batch,
            deadline,
            max_states,
        };
        let lower = |t: &Tiles| self.lower(t);
        astar::search(start, &lower, self.guide(heuristic).as_ref(), &opts)
    }
}

/// Default cap on stored boards (about 40 bytes each with the open list).
pub const MAX_STATES: usize = 30_000_000;

/// Bytes a stored board may cost at the peak: its node, its index entry and its open-list
/// entry, twice over while a table doubles.
const PEAK_BYTES_PER_STATE: f64 = 120.0;

/// The most boards the memory available now can hold at the peak, with a quarter of it
/// left for everything else; a refused allocation past it still stops the search cleanly.
fn states_that_fit() -> usize {
    (super::size::available_bytes() * 0.75 / PEAK_BYTES_PER_STATE).max(1e4) as usize
}

/// The figures of an A* run, in the report.
#[derive(Debug, Clone, serde::Serialize)]
pub struct AstarStats {
    /// The estimate (`heuristic`).
    pub astar_heuristic: AstarHeuristic,
    /// What ordered the search.
    pub guide: String,
    /// `a*`, `weighted a* (w = W)` or `focal (eps = E)`.
    pub order: String,
    /// Children generated.
    pub generated: u64,
    /// Boards the network evaluated.
    pub guided: u64,
    /// Boards stored at the end.
    pub stored: usize,
}

/// The board of `p` in the search's convention.
pub fn tiles_of(p: &SlidingPuzzle, goal: Goal) -> Tiles {
    let v = crate::search::blank_first_tiles(p, goal);
    let mut t = [0u8; MAX_CELLS];
    t[..v.len()].copy_from_slice(&v);
    t
}

/// Describe an order for reports.
pub fn order_name(o: Order) -> String {
    match o {
        Order::Weighted { weight: 1.0 } => "a*".into(),
        Order::Weighted { weight } => format!("weighted a* (w = {weight})"),
        Order::Focal { eps } => format!("focal (eps = {eps})"),
    }
}

/// Solve `p` by best-first search and verify the plan.
pub fn solve(
    p: &SlidingPuzzle,
    goal: Goal,
    flags: &AstarMethod,
    limit: Duration,
    progress: Progress<'_>,
) -> Result<Report, Error> {
    let started = Instant::now();
    let order = flags.order()?;
    let batch = flags.batch()?;
    let heuristic = flags.heuristic();
    let engine = AstarEngine::new(
        p.rows(),
        p.cols(),
        heuristic,
        flags.weights.as_deref(),
        progress,
    )?;
    let db_seconds = started.elapsed().as_secs_f64();
    let mut rep = Report::new(
        FamilyName::Sliding,
        "astar",
        &order_name(order),
        Details::Sliding {
            horizon: 0,
            moves: None,
        },
    );
    if !p.is_solvable(goal) {
        rep.status = Status::Infeasible;
        rep.solver_status = "the board cannot reach the goal (permutation parity)".into();
        rep.seconds = started.elapsed().as_secs_f64();
        return Ok(rep);
    }
    let start = tiles_of(p, goal);
    let searched = Instant::now();
    let deadline = started + limit;
    let r = engine.run(
        &start,
        heuristic,
        order,
        batch,
        Some(deadline),
        flags
            .max_states
            .unwrap_or(MAX_STATES)
            .min(states_that_fit()),
    );
    let search_seconds = searched.elapsed().as_secs_f64();
    rep.native = Some(NativeStats {
        heuristic: engine.lower_name(),
        nodes: r.expanded,
        initial_h: r.initial_lower,
        db_seconds,
        db_source: engine
            .native()
            .db_info()
            .map_or("none", |d| d.source.name())
            .into(),
        search_seconds,
    });
    rep.astar = Some(AstarStats {
        astar_heuristic: heuristic,
        guide: engine.guide_name(heuristic),
        order: order_name(order),
        generated: r.generated,
        guided: r.guided,
        stored: r.stored,
    });
    rep.bound = Some(r.bound as f64);
    if let Details::Sliding { horizon, .. } = &mut rep.details {
        *horizon = r.bound as usize;
    }
    match &r.plan {
        Some(codes) => {
            let moves: Vec<Move> = crate::search::codes_to_moves(codes, goal);
            let v = PlanChecker { goal }.check(p, &moves, Some(moves.len() as f64));
            let optimal = r.optimal();
            let words = if optimal {
                format!(
                    "optimal: the admissible bound ({}) meets the plan",
                    engine.lower_name()
                )
            } else {
                let mut w = format!(
                    "a plan of {} moves; at least {} moves (gap at most {})",
                    codes.len(),
                    r.bound,
                    codes.len() as u32 - r.bound
                );
                if let Order::Focal { eps } = order {
                    // The guarantee is relative to the (unknown) optimum, not to the bound.
                    w.push_str(&format!(
                        "; focal search: at most {} times the optimum",
                        1.0 + eps
                    ));
                }
                w
            };
            let checked = Checked {
                solution: Some(moves.clone()),
                objective: v.objective,
                errors: v.errors,
            };
            let mut a = Answer::judged(checked, optimal, None, words);
            if !a.optimal {
                a.bound = Some(r.bound as f64);
            }
            a.fill(&mut rep);
            if let Details::Sliding { moves: m, .. } = &mut rep.details {
                *m = a.solution.as_deref().map(moves_to_string);
            }
            rep.solution = a.solution.map(Solution::Plan);
        }
        None => {
            rep.status = match r.stop {
                Some(AstarStop::Exhausted) => Status::Infeasible,
                _ => Status::TimeLimit,
            };
            rep.solver_status = match r.stop {
                Some(AstarStop::StateLimit) => format!(
                    "stopped at {} stored boards ({f_max_states}); at least {} moves",
                    r.stored,
                    r.bound,
                    f_max_states = Field::MaxStates
                ),
                Some(AstarStop::Memory) => format!(
                    "stopped at {} stored boards: no memory for more; at least {} moves",
                    r.stored, r.bound
                ),
                Some(AstarStop::Exhausted) => "no plan: every reachable board was expanded".into(),
                _ => format!("stopped at the time limit; at least {} moves", r.bound),
            };
        }
    }
    rep.seconds = started.elapsed().as_secs_f64();
    Ok(rep)
}
