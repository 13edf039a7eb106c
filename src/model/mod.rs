//! Solver-neutral models: MILP ([`milp`]), CNF ([`cnf`]), weighted CNF ([`wcnf`]) and streamed
//! graphs ([`graph`]), algebraic models as template data ([`algebraic`]), and what solvers
//! answer about them ([`answer`]).

pub mod algebraic;
pub mod answer;
pub mod cnf;
pub mod graph;
pub mod milp;
pub mod wcnf;
