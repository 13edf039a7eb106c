//! tilekit: tile puzzles as optimisation models, solved by real solvers, answers verified.
//!
//! The pipeline is instance → [`puzzle`] → [`formulate`] → [`model`] → [`format`] (files) →
//! [`solve`] (solver objects: processes, embedded engines, NEOS) → [`format::solution`]
//! (parsers) → decode → [`verify`] (independent checks) → [`certify`] (checked optimality
//! proofs, SAT route). [`route`] chains the stages once for every family; every stage is also
//! a plain library call. [`campaign`] sits on top: whole instance sets exported with a
//! checked manifest. `ARCHITECTURE.md` draws the house.

pub mod campaign;
pub mod certify;
pub mod error;
pub mod format;
pub mod formulate;
pub mod heuristic;
pub mod learn;
pub mod model;
pub mod neos;
pub mod puzzle;
pub mod render;
pub mod route;
pub mod search;
pub mod solve;
pub mod verify;

pub use error::InputError;
pub use model::cnf::{BoolVar, Cnf, Lit};
pub use model::milp::{Model, ObjSense, RowId, Sense, Var, VarKind};
pub use puzzle::sliding::{Goal, Move, SlidingPuzzle};
pub use route::Error;
pub use solve::{ColumnValues, MilpSolution, Outcome, SatOutcome};
