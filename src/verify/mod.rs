//! Independent checkers: model level and puzzle level. Nothing here calls an encoder, and
//! the puzzle checks do not use the puzzle module's move code either: they re-implement the
//! rules from scratch so that a bug in one place cannot hide itself.

pub mod edge;
pub mod milp;
pub mod sliding;

/// The result of a check: valid or not, with every problem found (not just the first).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Verdict {
    /// True when no error was found.
    pub valid: bool,
    /// The objective recomputed by the checker (moves, unmatched edges, model objective).
    pub objective: Option<f64>,
    /// One sentence per problem.
    pub errors: Vec<String>,
}

impl Verdict {
    fn from_errors(objective: Option<f64>, errors: Vec<String>) -> Self {
        Verdict {
            valid: errors.is_empty(),
            objective,
            errors,
        }
    }
}
