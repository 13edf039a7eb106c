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
/// and check the solution with `checker`.
///
/// The solution is claimed to score the point's objective only when the solver calls the
/// point optimal. A point short of the optimum may overstate what its solution scores (the
/// edge MILP's match indicators need not be 1 on every seam that matches, only at the
/// optimum), so there the solution must only score no worse than the point; the score
/// reported is the checker's own either way.
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
    let optimal = sol.outcome == Outcome::Optimal;
    let claim = sol.objective.filter(|_| optimal);
    let mut checked = Checked::judge_decoded(errors, f.decode(&x), checker, instance, claim);
    if !optimal
        && let (Some(point), Some(found)) = (sol.objective, checked.objective)
        && found > point + 1e-6
    {
        checked.errors.push(format!(
            "the solution scores {found}, worse than the objective {point} of the point it was decoded from"
        ));
    }
    checked
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formulate::edge_milp::{self, EdgeMilp, EdgeMilpOptions};
    use crate::model::answer::ColumnValues;
    use crate::puzzle::edge::{EdgePuzzle, generate, score};
    use crate::verify::edge::BoardChecker;

    /// A 4×4 board one swap from perfect as the edge MILP's point, with `extra` matching
    /// seams' indicators raised to 1 (the seam rows allow it; only the minimum forbids it),
    /// and the board's unmatched seams.
    fn point(extra: usize, outcome: Outcome) -> (EdgePuzzle, EdgeMilp, MilpSolution, f64) {
        let (p, mut b) = generate(4, 4, 2, 3, 9).unwrap();
        b.cells.swap(5, 6);
        let e = edge_milp::build(&p, EdgeMilpOptions::default()).unwrap();
        let mut x = e.point_of(&p, &b);
        let seams: Vec<usize> = e.h.iter().chain(&e.v).map(|v| v.index()).collect();
        let matching: Vec<usize> = seams.iter().copied().filter(|&i| x[i] == 0.0).collect();
        for &i in matching.iter().take(extra) {
            x[i] = 1.0;
        }
        let objective = seams.iter().map(|&i| x[i]).sum();
        let unmatched = score(&p, &b).unmatched() as f64;
        assert_eq!(objective, unmatched + extra as f64);
        let sol = MilpSolution {
            outcome,
            status_text: String::new(),
            objective: Some(objective),
            values: ColumnValues::ByIndex(x),
        };
        (p, e, sol, unmatched)
    }

    #[test]
    fn a_feasible_point_may_overstate_its_board_but_an_optimal_one_may_not() {
        let (p, e, overstated, unmatched) = point(2, Outcome::Feasible);
        let c = check(&e, &BoardChecker, &p, &overstated);
        assert!(c.errors.is_empty(), "{:?}", c.errors);
        assert_eq!(c.objective, Some(unmatched));
        // Called optimal, the point claims its board scores what the point does.
        let (p, e, claimed, _) = point(2, Outcome::Optimal);
        let c = check(&e, &BoardChecker, &p, &claimed);
        assert!(
            c.errors.iter().any(|s| s.contains("the claimed objective")),
            "{:?}",
            c.errors
        );
        // The exact point passes either way.
        for outcome in [Outcome::Feasible, Outcome::Optimal] {
            let (p, e, exact, _) = point(0, outcome);
            let c = check(&e, &BoardChecker, &p, &exact);
            assert!(c.errors.is_empty(), "{outcome:?}: {:?}", c.errors);
        }
    }
}
