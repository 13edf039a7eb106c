//! What solvers answer, as data: MILP outcomes and column values, SAT outcomes, MaxSAT
//! outcomes, clique outcomes. They sit in `model` (below `format` and `solve`) because both the
//! answer parsers (`format::solution`) and the solver drivers (`solve`) produce them.

use crate::model::milp::Model;

/// How a MILP solve ended, as data (never an error).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Proven optimal.
    Optimal,
    /// An integer-feasible solution, optimality not proven (typically a time limit).
    Feasible,
    /// Proven infeasible.
    Infeasible,
    /// Proven unbounded (or infeasible-or-unbounded).
    Unbounded,
    /// Stopped by the time limit with no feasible solution.
    TimeLimit,
    /// Anything else (solver gave up, status not recognised).
    Unknown,
}

impl Outcome {
    /// True when the outcome carries a usable (integer-feasible) solution.
    pub fn has_solution(self) -> bool {
        matches!(self, Outcome::Optimal | Outcome::Feasible)
    }
}

/// Column values as a solver reported them.
#[derive(Debug, Clone, PartialEq)]
pub enum ColumnValues {
    /// Values by variable name; variables not listed are 0 (CBC omits zeros on big models).
    ByName(Vec<(String, f64)>),
    /// Values by 0-based column position, in the model's variable order (GLPK `-w`).
    ByIndex(Vec<f64>),
    /// No values at all.
    None,
}

/// A parsed MILP solution file.
#[derive(Debug, Clone, PartialEq)]
pub struct MilpSolution {
    /// How the solve ended.
    pub outcome: Outcome,
    /// The solver's status text, verbatim (for reports).
    pub status_text: String,
    /// The objective the solver reported, in the model's own sense.
    pub objective: Option<f64>,
    /// Column values; meaningful only when `outcome.has_solution()`.
    pub values: ColumnValues,
}

impl MilpSolution {
    /// The note a solution read from a solver killed at the time limit carries at the end of
    /// its status text: its file may be partial, so if it fails the checks it is the kill's
    /// doing, not a wrong answer.
    pub const KILLED: &'static str = " (killed at the time limit)";

    /// True when this solution was read from a solver killed at the time limit.
    pub fn was_killed(&self) -> bool {
        self.status_text.ends_with(Self::KILLED)
    }
}

/// Failure to map solver values back onto a model.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ResolveError {
    /// A name the model does not have.
    #[error("the solution names variable {0:?}, which the model does not have")]
    UnknownName(String),
    /// A different number of columns than the model has.
    #[error("the solution has {got} column values but the model has {want} variables")]
    WrongCount {
        /// Values in the file.
        got: usize,
        /// Variables in the model.
        want: usize,
    },
    /// The file carries no values.
    #[error("the solution file carries no variable values")]
    NoValues,
}

impl MilpSolution {
    /// One value per model variable, in model order.
    pub fn resolve(&self, model: &Model) -> Result<Vec<f64>, ResolveError> {
        match &self.values {
            ColumnValues::None => Err(ResolveError::NoValues),
            ColumnValues::ByIndex(v) => {
                if v.len() != model.num_vars() {
                    return Err(ResolveError::WrongCount {
                        got: v.len(),
                        want: model.num_vars(),
                    });
                }
                Ok(v.clone())
            }
            ColumnValues::ByName(pairs) => {
                let index = model.name_index();
                let mut x = vec![0.0; model.num_vars()];
                for (name, value) in pairs {
                    let v = index
                        .get(name.as_str())
                        .ok_or_else(|| ResolveError::UnknownName(name.clone()))?;
                    x[v.index()] = *value;
                }
                Ok(x)
            }
        }
    }
}

/// How a SAT solve ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SatOutcome {
    /// A model: one value per variable (variables the solver left out are `false`).
    Sat(Vec<bool>),
    /// Proven unsatisfiable.
    Unsat,
    /// No answer (time limit, solver gave up).
    Unknown,
}

/// How a MaxSAT solve ended, as the solver's output says it (MaxSAT Evaluation conventions:
/// `s`, the last `o` and the `v` line). Nothing here is checked yet: the route recounts the
/// cost and checks the hard clauses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MaxsatOutcome {
    /// `s OPTIMUM FOUND`: the solver says `model` is optimal and costs `cost` (its last `o`).
    Optimum {
        /// The cost the solver claims.
        cost: u64,
        /// One value per variable (variables the solver left out are `false`).
        model: Vec<bool>,
    },
    /// `s SATISFIABLE`: a model satisfying the hard clauses, optimality not proven.
    Feasible {
        /// The cost the solver claims.
        cost: u64,
        /// One value per variable (variables the solver left out are `false`).
        model: Vec<bool>,
    },
    /// `s UNSATISFIABLE`: the solver says the hard clauses have no model.
    Unsat,
    /// No answer (`s UNKNOWN`, a time limit).
    Unknown,
}

impl MaxsatOutcome {
    /// The `s` line's words, for reports.
    pub fn status_text(&self) -> &'static str {
        match self {
            MaxsatOutcome::Optimum { .. } => "OPTIMUM FOUND",
            MaxsatOutcome::Feasible { .. } => "SATISFIABLE",
            MaxsatOutcome::Unsat => "UNSATISFIABLE",
            MaxsatOutcome::Unknown => "UNKNOWN",
        }
    }
}

/// How a clique solve ended, as data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CliqueOutcome {
    /// The solver finished and printed this clique (0-based node ids, as printed). cliquer's
    /// default mode (`-s`, minimum weight 0) proves it a maximum clique.
    Found(Vec<usize>),
    /// Stopped by the time limit before printing an answer.
    TimeLimit,
}
