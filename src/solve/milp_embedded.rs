//! The embedded MILP engine: `microlp` (pure Rust simplex + branch and bound), so that
//! the MILP route works with nothing installed. It is practical only for small models
//! (`docs/results/sliding-routes.md#microlp-limits`); real work belongs to CBC or HiGHS.

use crate::model::answer::{ColumnValues, MilpSolution, Outcome};
use crate::model::milp::{Model, ObjSense, Sense, VarKind};
use crate::solve::{Capabilities, Limits, MilpSolver, SolveError, Solver};
use microlp::{
    ComparisonOp, OptimizationDirection, Problem, SolutionStatus, SolveOptions, TerminationReason,
};
use std::time::Duration;

/// A failure of the embedded engine that is not an answer about the model.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum EmbeddedError {
    /// The engine reported a numerical failure or rejected the input.
    #[error("microlp failed: {0}")]
    Engine(String),
}

/// The microlp version linked in (for `tilekit solvers`).
pub const VERSION: &str = "0.7";

/// microlp as a [`MilpSolver`] (registry name `microlp`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Microlp;

impl Solver for Microlp {
    fn name(&self) -> &str {
        "microlp"
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities {
            time_limit: true,
            threads: false,
            proofs: false,
            embedded: true,
        }
    }
}

impl MilpSolver for Microlp {
    fn solve(&self, model: &Model, limits: &Limits) -> Result<MilpSolution, SolveError> {
        solve_microlp(model, limits.time).map_err(|e| SolveError::Engine {
            solver: "microlp".into(),
            message: e.to_string(),
        })
    }
}

/// Solve `model` with microlp within `time_limit`. Integer values are rounded to the
/// nearest integer (microlp reports them within its 1e-6 tolerance); the caller's model-level
/// verification then checks the rounded point against every row.
pub fn solve_microlp(model: &Model, time_limit: Duration) -> Result<MilpSolution, EmbeddedError> {
    let dir = match model.objective_sense() {
        ObjSense::Minimize => OptimizationDirection::Minimize,
        ObjSense::Maximize => OptimizationDirection::Maximize,
    };
    let mut p = Problem::new(dir);
    let mut vars = Vec::with_capacity(model.num_vars());
    for v in model.vars() {
        let c = model.objective_coef(v);
        let (lb, ub) = model.var_bounds(v);
        let mv = match model.var_kind(v) {
            VarKind::Continuous => p.add_var(c, (lb, ub)),
            VarKind::Binary => p.add_binary_var(c),
            VarKind::Integer => {
                let to_i32 = |x: f64, dflt: i32| {
                    if x.is_finite() {
                        x.clamp(i32::MIN as f64, i32::MAX as f64) as i32
                    } else {
                        dflt
                    }
                };
                p.add_integer_var(c, (to_i32(lb, i32::MIN), to_i32(ub, i32::MAX)))
            }
        };
        vars.push(mv);
    }
    for r in model.rows() {
        let terms: Vec<_> = model
            .row_terms(r)
            .map(|(v, c)| (vars[v.index()], c))
            .collect();
        let op = match model.row_sense(r) {
            Sense::Le => ComparisonOp::Le,
            Sense::Ge => ComparisonOp::Ge,
            Sense::Eq => ComparisonOp::Eq,
        };
        p.add_constraint(terms.as_slice(), op, model.row_rhs(r));
    }
    let mut opts = SolveOptions::default();
    opts.time_limit = Some(time_limit);
    let outcome = match p.solve_with(opts) {
        Ok(o) => o,
        Err(microlp::Error::Infeasible) => return Ok(no_values(Outcome::Infeasible, "infeasible")),
        Err(microlp::Error::Unbounded) => return Ok(no_values(Outcome::Unbounded, "unbounded")),
        Err(e) => return Err(EmbeddedError::Engine(e.to_string())),
    };
    let Some(sol) = outcome.solution() else {
        return Ok(no_values(
            Outcome::TimeLimit,
            "time limit, no integer solution",
        ));
    };
    let (status, text) = match (sol.status(), sol.termination_reason()) {
        (SolutionStatus::Optimal, _) => (Outcome::Optimal, "optimal"),
        (SolutionStatus::Feasible, TerminationReason::TimeLimit) => {
            (Outcome::Feasible, "time limit, feasible")
        }
        (SolutionStatus::Feasible, _) => (Outcome::Feasible, "feasible"),
    };
    let values: Vec<f64> = model
        .vars()
        .map(|v| {
            let x = sol.var_value(vars[v.index()]);
            if model.var_kind(v) == VarKind::Continuous {
                x
            } else {
                x.round()
            }
        })
        .collect();
    Ok(MilpSolution {
        outcome: status,
        status_text: text.to_string(),
        objective: Some(sol.objective()),
        values: ColumnValues::ByIndex(values),
    })
}

fn no_values(outcome: Outcome, text: &str) -> MilpSolution {
    MilpSolution {
        outcome,
        status_text: text.to_string(),
        objective: None,
        values: ColumnValues::None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::milp::Model;

    #[test]
    fn small_milp_statuses() {
        let mut m = Model::new("k");
        let x = m.add_var("x", VarKind::Integer, 0.0, 10.0).unwrap();
        let y = m.add_var("y", VarKind::Binary, 0.0, 1.0).unwrap();
        m.add_row("c", &[(x, 2.0), (y, 3.0)], Sense::Le, 7.5)
            .unwrap();
        m.set_objective("obj", ObjSense::Maximize, &[(x, 1.0), (y, 2.0)])
            .unwrap();
        let s = solve_microlp(&m, Duration::from_secs(10)).unwrap();
        assert_eq!(s.outcome, Outcome::Optimal);
        assert_eq!(s.objective, Some(4.0)); // x=2,y=1 → 4 beats x=3,y=0 → 3
    }

    #[test]
    fn infeasible_is_an_outcome() {
        let mut m = Model::new("k");
        let x = m.add_var("x", VarKind::Integer, 0.0, 10.0).unwrap();
        m.add_row("c", &[(x, 2.0)], Sense::Eq, 3.0).unwrap();
        let s = solve_microlp(&m, Duration::from_secs(10)).unwrap();
        assert_eq!(s.outcome, Outcome::Infeasible);
    }
}
