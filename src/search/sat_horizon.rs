//! Planning as SAT, horizon by horizon: solve the exactly-T formulas of
//! [`crate::formulate::sliding_sat`] for T = L, L + 2, … until one is satisfiable, with any
//! engine, and say whether the plan found is proven shortest. The driver is a search over
//! formulas, so it lives beside the native search rather than in the formulation.

use crate::formulate::sliding_sat::{DecodeError, Encoding, build_encoding, lower_bound};
use crate::model::answer::SatOutcome;
use crate::model::cnf::Cnf;
use crate::puzzle::sliding::{Goal, Move, SlidingPuzzle};
use crate::solve::{Limits, SatSolver, SolveError};
use std::time::Instant;

/// How one horizon's solve ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StepResult {
    /// Satisfiable: a plan of exactly this length exists.
    Sat,
    /// Unsatisfiable: no plan of exactly this length.
    Unsat,
    /// The engine gave no answer.
    Unknown,
}

/// One horizon tried by [`solve_optimal`].
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct SatStep {
    /// The horizon T.
    pub horizon: usize,
    /// The engine's answer.
    pub result: StepResult,
    /// Wall-clock seconds spent in the engine.
    pub seconds: f64,
    /// Wall-clock seconds spent building the formula.
    pub build_seconds: f64,
    /// Variables in the formula.
    pub vars: usize,
    /// Clauses in the formula.
    pub clauses: usize,
}

/// What [`solve_optimal`] found.
#[derive(Debug, Clone, PartialEq)]
pub struct SatPlan {
    /// The plan, replayed to the goal; `None` when no horizon was satisfiable.
    pub moves: Option<Vec<Move>>,
    /// The satisfiable horizon (the plan's length).
    pub horizon: Option<usize>,
    /// Every horizon below this one is proven impossible (parity, or an UNSAT answer).
    pub lower_bound: usize,
    /// The horizons tried, in order.
    pub steps: Vec<SatStep>,
    /// True only when a plan was found and every horizon tried before it was UNSAT, starting
    /// from the parity-adjusted lower bound: then no shorter plan exists.
    pub optimal: bool,
}

/// Failure of [`solve_optimal`]; the normal "no plan within `max_horizon`" and "engine gave no
/// answer" outcomes are not errors but a [`SatPlan`] without moves.
#[derive(Debug, thiserror::Error)]
pub enum SatPlanError<E> {
    /// The board's permutation parity rules out the goal, so no horizon can succeed.
    #[error("this board cannot reach the {0} goal (permutation parity)")]
    Unsolvable(Goal),
    /// The engine failed.
    #[error("the SAT engine failed at horizon {horizon}: {error}")]
    Engine {
        /// The horizon being solved.
        horizon: usize,
        /// The engine's error.
        #[source]
        error: E,
    },
    /// The engine's model violates a clause: an engine or output-parsing bug.
    #[error("at horizon {horizon} the engine's model violates clause {clause} (0-based)")]
    BadModel {
        /// The horizon being solved.
        horizon: usize,
        /// The violated clause.
        clause: usize,
    },
    /// The model does not encode a move sequence.
    #[error("at horizon {horizon}: {error}")]
    Decode {
        /// The horizon being solved.
        horizon: usize,
        /// What was wrong.
        #[source]
        error: DecodeError,
    },
    /// The decoded plan does not take the board to the goal: an encoding bug.
    #[error("at horizon {horizon} the decoded plan does not reach the goal: {reason}")]
    BadPlan {
        /// The horizon being solved.
        horizon: usize,
        /// What replay found.
        reason: String,
    },
}

/// Find a shortest plan by solving exactly-T formulas for T = L, L+2, … up to `max_horizon`,
/// where L is [`lower_bound`], with any engine `solve`. `progress` sees each finished step
/// with its 0-based index.
///
/// Why stepping by 2 from L proves optimality: every move flips the blank's checkerboard
/// colour, so any plan's length has the parity of the blank's distance to its goal cell and
/// horizons of the other parity are impossible. A plan of length k < T with T − k even pads
/// to exactly T moves by moving the blank back and forth (on a board of at least 2×2 it
/// always has a neighbour), so UNSAT at T implies UNSAT at T − 2, T − 4, …; the first SAT
/// horizon after a run of UNSATs from L is therefore the optimum.
///
/// A satisfying model is checked against the formula, decoded and replayed before it is
/// returned. An `Unknown` answer stops the search with no plan and no optimality claim.
pub fn solve_optimal<F, E>(
    puzzle: &SlidingPuzzle,
    goal: Goal,
    max_horizon: usize,
    prune: bool,
    mut solve: F,
    progress: impl FnMut(usize, &SatStep),
) -> Result<SatPlan, SatPlanError<E>>
where
    F: FnMut(&Cnf) -> Result<SatOutcome, E>,
{
    let encoding = if prune {
        Encoding::Pruned
    } else {
        Encoding::Plain
    };
    solve_optimal_with(
        puzzle,
        goal,
        max_horizon,
        encoding,
        |cnf, _| solve(cnf),
        progress,
    )
}

/// [`solve_optimal`] in any [`Encoding`], with an engine that also sees the horizon of the
/// formula it is given (so a proof-producing engine can name its proof after it).
pub fn solve_optimal_with<F, E>(
    puzzle: &SlidingPuzzle,
    goal: Goal,
    max_horizon: usize,
    encoding: Encoding,
    mut solve: F,
    mut progress: impl FnMut(usize, &SatStep),
) -> Result<SatPlan, SatPlanError<E>>
where
    F: FnMut(&Cnf, usize) -> Result<SatOutcome, E>,
{
    if !puzzle.is_solvable(goal) {
        return Err(SatPlanError::Unsolvable(goal));
    }
    let first = lower_bound(puzzle, goal);
    let mut plan = SatPlan {
        moves: None,
        horizon: None,
        lower_bound: first,
        steps: Vec::new(),
        optimal: false,
    };
    let mut t = first;
    while t <= max_horizon {
        let built = Instant::now();
        let enc = build_encoding(puzzle, goal, t, encoding);
        let build_seconds = built.elapsed().as_secs_f64();
        let started = Instant::now();
        let outcome =
            solve(enc.cnf(), t).map_err(|error| SatPlanError::Engine { horizon: t, error })?;
        let step = SatStep {
            horizon: t,
            result: match outcome {
                SatOutcome::Sat(_) => StepResult::Sat,
                SatOutcome::Unsat => StepResult::Unsat,
                SatOutcome::Unknown => StepResult::Unknown,
            },
            seconds: started.elapsed().as_secs_f64(),
            build_seconds,
            vars: enc.cnf().num_vars(),
            clauses: enc.cnf().num_clauses(),
        };
        progress(plan.steps.len(), &step);
        plan.steps.push(step);
        match outcome {
            SatOutcome::Sat(mut model) => {
                // Variables an engine leaves out are false (SatOutcome's contract).
                if model.len() < enc.cnf().num_vars() {
                    model.resize(enc.cnf().num_vars(), false);
                }
                if let Some(clause) = enc.cnf().first_violated(&model) {
                    return Err(SatPlanError::BadModel { horizon: t, clause });
                }
                let moves = enc
                    .decode(&model)
                    .map_err(|error| SatPlanError::Decode { horizon: t, error })?;
                let end = puzzle.replay(&moves).map_err(|e| SatPlanError::BadPlan {
                    horizon: t,
                    reason: e.to_string(),
                })?;
                if !end.is_goal(goal) {
                    return Err(SatPlanError::BadPlan {
                        horizon: t,
                        reason: format!("it ends on a board that is not the {goal} goal"),
                    });
                }
                let before = &plan.steps[..plan.steps.len() - 1];
                plan.optimal = before.iter().all(|s| s.result == StepResult::Unsat)
                    && plan.steps[0].horizon == first;
                plan.moves = Some(moves);
                plan.horizon = Some(t);
                return Ok(plan);
            }
            SatOutcome::Unsat => plan.lower_bound = t + 2,
            SatOutcome::Unknown => return Ok(plan),
        }
        t += 2;
    }
    Ok(plan)
}

/// [`solve_optimal_with`] with a [`SatSolver`] under `limits`, which bound the whole stepping:
/// each horizon's run gets what is left, and none is started once the time is spent (the
/// search then ends as a time limit, with the bound reached).
pub fn solve_with_solver(
    puzzle: &SlidingPuzzle,
    goal: Goal,
    max_horizon: usize,
    encoding: Encoding,
    solver: &dyn SatSolver,
    limits: &Limits,
    progress: impl FnMut(usize, &SatStep),
) -> Result<SatPlan, SatPlanError<SolveError>> {
    let started = Instant::now();
    solve_optimal_with(
        puzzle,
        goal,
        max_horizon,
        encoding,
        |cnf, _| match limits.remaining(started) {
            Some(rest) => solver.solve(cnf, &rest),
            None => Ok(SatOutcome::Unknown),
        },
        progress,
    )
}
