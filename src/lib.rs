//! tilekit: tile puzzles as optimisation models, solved by real solvers, answers verified.
//!
//! The pipeline is instance → [`puzzle`] → [`formulate`] → [`model`] → [`format`] (files) →
//! [`solve`] (solver processes or embedded engines) → [`format::solution`] (parsers) →
//! decode → [`verify`] (independent checks) → [`certify`] (checked optimality proofs, SAT
//! route). Every stage is a plain function.

pub mod certify;
pub mod error;
pub mod format;
pub mod formulate;
pub mod model;
pub mod neos;
pub mod pipeline;
pub mod puzzle;
pub mod render;
pub mod search;
pub mod solve;
pub mod verify;

pub use error::InputError;
pub use model::cnf::{BoolVar, Cnf, Lit};
pub use model::milp::{Model, ObjSense, RowId, Sense, Var, VarKind};
pub use puzzle::sliding::{Goal, Move, SlidingPuzzle};
pub use solve::{ColumnValues, MilpSolution, Outcome, SatOutcome};
