//! Parsers for solver output files.

pub mod cbc;
pub mod clique;
pub mod glpk;
pub mod highs;
pub mod maxsat;
pub mod sat;
