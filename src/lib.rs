//! tilekit: tile puzzles as optimisation models, solved by real solvers, answers verified.
//!
//! The pipeline is instance → [`puzzle`] → [`formulate`] → [`model`] →
//! [`format`](mod@format) (files) → [`solve`] (solver objects: processes, embedded engines,
//! NEOS) → [`format::solution`] (parsers) → decode → [`verify`] (independent checks) →
//! [`certify`] (checked optimality proofs, SAT route). [`route`] chains the stages once for
//! every family; every stage is also a plain library call. [`campaign`] sits on top: whole
//! instance sets exported with a checked manifest. `ARCHITECTURE.md` draws the house.
//!
//! The front door is [`route::families`]: read an instance (its family found from the
//! content), then solve it with the method tilekit measured best
//! ([`route::method::Method::Recommended`]), or the typed method a
//! [`route::family::SolveRequest`] carries. The report is verified before it is returned.
//!
//! ```
//! use std::path::Path;
//! use std::time::Duration;
//! use tilekit::route::method::Method;
//! use tilekit::route::{families, family::SolveRequest};
//! use tilekit::solve::Limits;
//!
//! let inst = families::read(Path::new("models/sliding/neos_case_study.txt"), None)?;
//! let req = SolveRequest::new(Method::Recommended, Limits::new(Duration::from_secs(60), 1));
//! let solved = families::solve(&inst, &req, &|_| {})?;
//! assert!(solved.report.verified && solved.report.optimal);
//! assert_eq!(solved.report.objective, Some(11.0));
//! # Ok::<(), tilekit::Error>(())
//! ```
//!
//! Each stage is also a call of its own: a puzzle parsed, formulated and written in LP form.
//!
//! ```
//! use tilekit::formulate::sliding_case_study;
//! use tilekit::{Goal, SlidingPuzzle};
//!
//! let p = SlidingPuzzle::parse("2 2\n1 2\n0 3\n", "example", Goal::BlankLast)?;
//! let neos = sliding_case_study::build(&p, Goal::BlankLast, 3)?;
//! let mut lp = Vec::new();
//! tilekit::format::lp::write_lp(&neos.model, &mut lp)?;
//! assert!(String::from_utf8_lossy(&lp).contains("Minimize"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod campaign;
pub mod certify;
pub mod edge_search;
pub mod error;
pub mod field;
pub mod format;
pub mod formulate;
pub mod learn;
pub mod model;
pub mod neos;
pub mod puzzle;
pub mod render;
pub mod rng;
pub mod route;
pub mod search;
pub mod solve;
pub mod verify;
pub mod work;

pub use error::InputError;
pub use model::cnf::{BoolVar, Cnf, Lit};
pub use model::milp::{Model, ObjSense, RowId, Sense, Var, VarKind};
pub use puzzle::sliding::{Goal, Move, SlidingPuzzle};
pub use route::Error;
pub use solve::{ColumnValues, MilpSolution, Outcome, SatOutcome};
