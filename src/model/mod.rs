//! Solver-neutral models: MILP ([`milp`]) and CNF ([`cnf`]).

pub mod cnf;
pub mod milp;
