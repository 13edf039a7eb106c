//! The SAT route, for any [`CnfFormulation`] whose models are solutions (a perfect board): one
//! formula, one [`SatSolver`] run, the model checked against every clause, decoded and judged
//! by the family's [`Checker`]. (Sliding puzzles step the horizon instead:
//! [`crate::search::sat_horizon`].)

use super::{Answer, Checked, Progress, Status, with_heartbeat};
use crate::formulate::CnfFormulation;
use crate::model::answer::SatOutcome;
use crate::solve::{Limits, SatSolver, SolveError};
use crate::verify::Checker;
use std::borrow::Borrow;

/// Check an assignment: every clause satisfied, then decoded and checked by `checker`,
/// claiming `claimed` (what a model of this formula promises, e.g. 0 unmatched seams).
pub fn check<F, C>(
    f: &F,
    checker: &C,
    instance: &C::Instance,
    assignment: &[bool],
    claimed: Option<f64>,
) -> Checked<F::Solution>
where
    F: CnfFormulation + ?Sized,
    C: Checker,
    F::Solution: Borrow<C::Solution>,
{
    let mut errors = Vec::new();
    if let Some(i) = f.cnf().first_violated(assignment) {
        errors.push(format!("the model violates clause {} of the CNF", i + 1));
    }
    Checked::judge_decoded(errors, f.decode(assignment), checker, instance, claimed)
}

/// Solve `f` once with `solver` and judge the answer: a model is a solution claiming
/// `claimed`; UNSAT proves there is none (`infeasible`); no answer is a time limit.
pub fn solve<F, C>(
    f: &F,
    checker: &C,
    instance: &C::Instance,
    claimed: Option<f64>,
    solver: &dyn SatSolver,
    limits: &Limits,
    progress: Progress<'_>,
) -> Result<Answer<F::Solution>, SolveError>
where
    F: CnfFormulation + ?Sized,
    C: Checker,
    F::Solution: Borrow<C::Solution>,
{
    let cnf = f.cnf();
    progress(&format!(
        "CNF: {} variables, {} clauses; solving with {}",
        cnf.num_vars(),
        cnf.num_clauses(),
        solver.name()
    ));
    let outcome = with_heartbeat(progress, solver.name(), limits.time, || {
        solver.solve(cnf, limits)
    })?;
    Ok(match outcome {
        SatOutcome::Unknown => Answer::without(Status::TimeLimit, "UNKNOWN"),
        SatOutcome::Unsat => {
            let mut a = Answer::without(Status::Infeasible, "UNSATISFIABLE");
            a.errors.push(format!(
                "no perfect {}: the solver proved the CNF unsatisfiable",
                checker.noun()
            ));
            a
        }
        SatOutcome::Sat(mut model) => {
            // Variables a solver leaves out are false (SatOutcome's contract).
            model.resize(cnf.num_vars().max(model.len()), false);
            // A model of this formula is a perfect solution: optimal once verified.
            Answer::judged(
                check(f, checker, instance, &model, claimed),
                true,
                None,
                "SATISFIABLE",
            )
        }
    })
}
