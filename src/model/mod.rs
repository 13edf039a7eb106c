//! Solver-neutral models: MILP ([`milp`]), CNF ([`cnf`]) and streamed graphs ([`graph`]),
//! algebraic models as template data ([`algebraic`]), and what solvers answer about them
//! ([`answer`]).

pub mod algebraic;
pub mod answer;
pub mod cnf;
pub mod graph;
pub mod milp;
