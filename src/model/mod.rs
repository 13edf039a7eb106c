//! Solver-neutral models: MILP ([`milp`]), CNF ([`cnf`]) and streamed graphs ([`graph`]).

pub mod cnf;
pub mod graph;
pub mod milp;
