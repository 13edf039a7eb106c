//! Bytes in and out: model writers and solution-file parsers, one file per format.

pub mod dimacs_cnf;
pub mod dimacs_graph;
pub mod gams;
pub mod lp;
pub mod mps;
pub mod neos_job;
pub mod solution;
