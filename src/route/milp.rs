//! The MILP route, for any [`MilpFormulation`] and any family [`Checker`]: solve the model
//! with a [`MilpSolver`], map the values back onto the model, check the point against every
//! row and bound (objective compared with the solver's), decode, and have the family's
//! independent checker judge the solution.

use super::{Answer, Checked, Progress, Status, with_heartbeat};
use crate::formulate::MilpFormulation;
use crate::model::answer::{MilpSolution, Outcome};
use crate::solve::{Limits, MilpSolver, SolveError};
use crate::verify::{self, Checker};
use std::borrow::Borrow;

/// Solve `f`'s model with `solver`, saying so through `progress` (and every 5 s while it
/// runs, against the solver's [`wait_bound`](crate::solve::Solver::wait_bound)).
pub fn run<F: MilpFormulation + ?Sized>(
    f: &F,
    solver: &dyn MilpSolver,
    limits: &Limits,
    progress: Progress<'_>,
) -> Result<MilpSolution, SolveError> {
    progress(&format!(
        "built {}; solving with {}",
        f.model(),
        solver.name()
    ));
    with_heartbeat(progress, solver.name(), solver.wait_bound(limits), || {
        solver.solve(f.model(), limits)
    })
}

/// Check one answer that carries values: resolve them onto the model, check the point, decode
/// and check the solution with `checker` (claiming the solver's objective).
pub fn check<F, C>(
    f: &F,
    checker: &C,
    instance: &C::Instance,
    sol: &MilpSolution,
) -> Checked<F::Solution>
where
    F: MilpFormulation + ?Sized,
    C: Checker,
    F::Solution: Borrow<C::Solution>,
{
    let x = match sol.resolve(f.model()) {
        Ok(x) => x,
        Err(e) => return Checked::failed(e.to_string()),
    };
    let errors = verify::milp::check_point(f.model(), &x, sol.objective).errors;
    Checked::judge_decoded(errors, f.decode(&x), checker, instance, sol.objective)
}

/// Judge a MILP answer: its outcome as a status, and when it carries a solution, that
/// solution checked at both levels. A solution that fails a check makes the answer
/// `unverified` (a solver failure), never a solution; from a solver killed at the time limit,
/// whose file may be partial, it makes it `time_limit`.
pub fn judge<F, C>(
    f: &F,
    checker: &C,
    instance: &C::Instance,
    sol: &MilpSolution,
) -> Answer<F::Solution>
where
    F: MilpFormulation + ?Sized,
    C: Checker,
    F::Solution: Borrow<C::Solution>,
{
    if !sol.outcome.has_solution() {
        return Answer::without(Status::of_outcome(sol.outcome), sol.status_text.clone());
    }
    let a = Answer::judged(
        check(f, checker, instance, sol),
        sol.outcome == Outcome::Optimal,
        checker.floor(instance),
        sol.status_text.clone(),
    );
    // A solver killed at the limit may have left a half-written file: if what it left fails
    // the checks, the run ended at the time limit; it is not a wrong answer.
    if a.status == Status::Unverified && sol.was_killed() {
        let mut t = Answer::without(Status::TimeLimit, sol.status_text.clone());
        t.errors = vec![format!(
            "the solution file it left fails the checks (partial?): {}",
            a.errors.join("; ")
        )];
        return t;
    }
    a
}
