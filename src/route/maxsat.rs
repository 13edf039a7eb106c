//! The MaxSAT route, for any [`WcnfFormulation`]: one [`MaxsatSolver`] run, its model checked
//! against every hard clause, its cost recounted from the soft clauses and compared with the
//! solver's `o` line, decoded and judged by the family's [`Checker`].
//!
//! Nothing the solver says is taken on trust: a model that breaks a hard clause, an `o` that
//! is not the model's cost, an optimum whose board has fewer unmatched seams than the cost
//! claimed, or "unsatisfiable" for a formulation whose hard part always has a model, is a
//! solver failure (`unverified`, exit 3). A verified answer is `optimal` only when the solver
//! said `s OPTIMUM FOUND` (or it reaches the checker's floor, a perfect board).

use super::{Answer, Checked, Progress, Status, with_heartbeat};
use crate::formulate::WcnfFormulation;
use crate::model::answer::MaxsatOutcome;
use crate::solve::{Limits, MaxsatSolver, SolveError};
use crate::verify::Checker;
use std::borrow::Borrow;

/// Check a model the solver claims costs `claimed_cost`: every hard clause satisfied, the
/// soft clauses it falsifies weigh `claimed_cost`, then decoded and checked by `checker`.
/// With `optimum` (the solver proved it optimal) the checker is told the cost is the
/// solution's objective: a model of an optimum cannot cost more than its own solution,
/// which would have a cheaper model. A model found before the limit may (its guards need not
/// be as true as they could be), so then the checker recounts the objective on its own.
pub fn check<F, C>(
    f: &F,
    checker: &C,
    instance: &C::Instance,
    model: &[bool],
    claimed_cost: u64,
    optimum: bool,
) -> Checked<F::Solution>
where
    F: WcnfFormulation + ?Sized,
    C: Checker,
    F::Solution: Borrow<C::Solution>,
{
    let w = f.wcnf();
    let mut errors = Vec::new();
    if model.len() < w.num_vars() {
        errors.push(format!(
            "the model has {} values but the formula has {} variables",
            model.len(),
            w.num_vars()
        ));
        return Checked {
            solution: None,
            objective: None,
            errors,
        };
    }
    if let Some(i) = w.first_violated_hard(model) {
        errors.push(format!(
            "the model violates hard clause {} of the WCNF",
            i + 1
        ));
    }
    let cost = w.cost(model);
    if cost != claimed_cost {
        errors.push(format!(
            "the solver's `o {claimed_cost}` is not the cost of its model: the soft clauses it falsifies weigh {cost}"
        ));
    }
    let claimed = optimum.then_some(cost as f64);
    Checked::judge_decoded(errors, f.decode(model), checker, instance, claimed)
}

/// Judge a MaxSAT answer: a model is checked at both levels ([`check`]); "unsatisfiable" is
/// an answer only for a formulation whose hard part may have no model; no answer is a time
/// limit.
pub fn judge<F, C>(
    f: &F,
    checker: &C,
    instance: &C::Instance,
    outcome: MaxsatOutcome,
) -> Answer<F::Solution>
where
    F: WcnfFormulation + ?Sized,
    C: Checker,
    F::Solution: Borrow<C::Solution>,
{
    let words = outcome.status_text();
    let num_vars = f.wcnf().num_vars();
    let (cost, mut model, optimum) = match outcome {
        MaxsatOutcome::Unknown => return Answer::without(Status::TimeLimit, words),
        MaxsatOutcome::Unsat if f.hard_satisfiable() => {
            let mut a = Answer::without(Status::Unverified, words);
            a.errors.push(format!(
                "the solver says the hard clauses have no model, but every legal {} is one: a solver failure",
                checker.noun()
            ));
            return a;
        }
        MaxsatOutcome::Unsat => {
            let mut a = Answer::without(Status::Infeasible, words);
            a.errors.push(format!(
                "no legal {}: the solver proved the hard clauses unsatisfiable",
                checker.noun()
            ));
            return a;
        }
        MaxsatOutcome::Optimum { cost, model } => (cost, model, true),
        MaxsatOutcome::Feasible { cost, model } => (cost, model, false),
    };
    // Variables a solver leaves out are false (the parser's contract).
    model.resize(num_vars.max(model.len()), false);
    Answer::judged(
        check(f, checker, instance, &model, cost, optimum),
        optimum,
        checker.floor(instance),
        words,
    )
}

/// Solve `f` once with `solver` and judge the answer ([`judge`]).
pub fn solve<F, C>(
    f: &F,
    checker: &C,
    instance: &C::Instance,
    solver: &dyn MaxsatSolver,
    limits: &Limits,
    progress: Progress<'_>,
) -> Result<Answer<F::Solution>, SolveError>
where
    F: WcnfFormulation + ?Sized,
    C: Checker,
    F::Solution: Borrow<C::Solution>,
{
    let w = f.wcnf();
    progress(&format!(
        "WCNF: {} variables, {} hard clauses, {} soft clauses; solving with {}",
        w.num_vars(),
        w.hard().num_clauses(),
        w.num_soft(),
        solver.name()
    ));
    let outcome = with_heartbeat(progress, solver.name(), limits.time, || {
        solver.solve(w, limits)
    })?;
    Ok(judge(f, checker, instance, outcome))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::solution::maxsat::parse;
    use crate::formulate::edge_maxsat::{self, EdgeMaxsat};
    use crate::formulate::edge_sat::SatOptions;
    use crate::model::answer::SatOutcome;
    use crate::puzzle::edge::{EdgePuzzle, generate};
    use crate::verify::edge::BoardChecker;

    /// A generated 3×3 puzzle, its WCNF and a model of the planted (perfect) board.
    fn planted() -> (EdgePuzzle, EdgeMaxsat, Vec<bool>) {
        let (p, board) = generate(3, 3, 2, 2, 4).unwrap();
        let enc = edge_maxsat::build(&p, &SatOptions::default());
        let mut cnf = enc.wcnf().hard().clone();
        for (cell, c) in board.cells.iter().enumerate() {
            let (piece, rot) = c.unwrap();
            let v = enc.placement_var(piece, cell / 3, cell % 3, rot).unwrap();
            cnf.add_clause(&[v.positive()]);
        }
        for m in enc.guards() {
            cnf.add_clause(&[m.positive()]);
        }
        let SatOutcome::Sat(model) =
            crate::solve::sat_embedded::solve_varisat_checked(&cnf).unwrap()
        else {
            panic!("the planted board is a model")
        };
        (p, enc, model)
    }

    /// The solver output `o {cost}`, `s {status}`, `v` (bit string) of `model`.
    fn output(cost: u64, status: &str, model: &[bool]) -> String {
        let bits: String = model.iter().map(|&b| if b { '1' } else { '0' }).collect();
        format!("o {cost}\ns {status}\nv {bits}\n")
    }

    fn judged(enc: &EdgeMaxsat, p: &EdgePuzzle, text: &str) -> Answer<crate::puzzle::edge::Board> {
        let outcome = parse(text, "out", enc.wcnf().num_vars()).unwrap();
        judge(enc, &BoardChecker, p, outcome)
    }

    #[test]
    fn a_true_optimum_is_verified_and_optimal() {
        let (p, enc, model) = planted();
        let a = judged(&enc, &p, &output(0, "OPTIMUM FOUND", &model));
        assert!(a.verified && a.optimal, "{:?}", a.errors);
        assert_eq!((a.status, a.objective), (Status::Solved, Some(0.0)));
    }

    #[test]
    fn an_o_contradicted_by_the_recount_is_a_solver_failure() {
        let (p, enc, mut model) = planted();
        // Drop one guard: the model costs 1 and its board still has no unmatched seam.
        model[enc.guards()[0].index()] = false;
        // Claimed 0 (below the recount): refused.
        let a = judged(&enc, &p, &output(0, "OPTIMUM FOUND", &model));
        assert_eq!(a.status, Status::Unverified);
        assert!(!a.optimal && !a.verified);
        assert!(
            a.errors.iter().any(|e| e
                == "the solver's `o 0` is not the cost of its model: the soft clauses it falsifies weigh 1"),
            "{:?}",
            a.errors
        );
        // Claimed 1, the true cost, as an optimum: its board has 0 unmatched seams, so a
        // cheaper model exists and the optimum is false.
        let a = judged(&enc, &p, &output(1, "OPTIMUM FOUND", &model));
        assert_eq!(a.status, Status::Unverified, "{:?}", a.errors);
        // The same as a model found before the limit: a legal board, verified, not optimal
        // by the solver's word but perfect, so optimal by the checker's floor.
        let a = judged(&enc, &p, &output(1, "SATISFIABLE", &model));
        assert!(a.verified, "{:?}", a.errors);
        assert_eq!(a.objective, Some(0.0));
    }

    #[test]
    fn a_broken_hard_clause_or_board_is_refused() {
        let (p, enc, mut model) = planted();
        // A second piece in cell (0, 0): a hard clause breaks and the board does not decode.
        let cell0 = enc.wcnf().hard().clauses().next().unwrap().to_vec();
        for l in cell0 {
            model[l.var().index()] = true;
        }
        let a = judged(&enc, &p, &output(0, "OPTIMUM FOUND", &model));
        assert_eq!(a.status, Status::Unverified);
        assert!(
            a.errors
                .iter()
                .any(|e| e.starts_with("the model violates hard clause")),
            "{:?}",
            a.errors
        );
    }

    #[test]
    fn unsat_and_unknown() {
        let (p, enc, _) = planted();
        let a = judged(&enc, &p, "s UNSATISFIABLE\n");
        assert_eq!(a.status, Status::Unverified);
        assert!(
            a.errors[0].contains("every legal board is one"),
            "{:?}",
            a.errors
        );
        let a = judged(&enc, &p, "o 3\ns UNKNOWN\n");
        assert_eq!(a.status, Status::TimeLimit);
    }
}
