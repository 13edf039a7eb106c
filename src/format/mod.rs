//! Bytes in and out: model writers and solution-file parsers, one file per format.

pub mod lp;
pub mod mps;
pub mod gams;
pub mod solution;
pub mod dimacs_cnf;
