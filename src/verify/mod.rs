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

/// A family's independent checker, as routes see it: a decoded solution of an instance, and
/// optionally the objective a solver claimed for it, checked by the puzzle's own rules.
/// Implementations adapt the puzzle types to the raw-data checks of this module, which share
/// no code with the encoders.
pub trait Checker {
    /// The instance a solution belongs to.
    type Instance: ?Sized;
    /// A decoded solution (a move list, a board).
    type Solution: ?Sized;
    /// Check `solution`; `claimed` is the objective the solver reported for it.
    fn check(
        &self,
        instance: &Self::Instance,
        solution: &Self::Solution,
        claimed: Option<f64>,
    ) -> Verdict;
    /// An objective no solution can beat (no unmatched seams), so that a verified solution
    /// reaching it is optimal whatever the solver proved.
    fn floor(&self, _instance: &Self::Instance) -> Option<f64> {
        None
    }
    /// What a solution is called in messages (`plan`, `board`).
    fn noun(&self) -> &'static str;
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
