//! Solver-neutral models: MILP ([`milp`]), CNF ([`cnf`]) and streamed graphs ([`graph`]), and
//! what solvers answer about them ([`answer`]).

pub mod answer;
pub mod cnf;
pub mod graph;
pub mod milp;
