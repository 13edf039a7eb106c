//! The fuzz targets' bodies, one module per target, shared by the AFL++ binaries
//! (`src/bin/TARGET.rs`, which `scripts/fuzz.sh` builds and runs) and by the test suite, which
//! runs every target over its committed corpus (`fuzz/corpus/TARGET`) in every `cargo test`.

pub(crate) mod dimacs_cnf;
pub(crate) mod edge_board;
pub(crate) mod edge_puzzle;
pub(crate) mod gams_solution;
pub(crate) mod neos_job;
pub(crate) mod neos_response;
pub(crate) mod sliding_moves;
pub(crate) mod sliding_puzzle;
pub(crate) mod solution_cbc;
pub(crate) mod solution_clique;
pub(crate) mod solution_cplex_xml;
pub(crate) mod solution_glpk;
pub(crate) mod solution_highs;
pub(crate) mod solution_maxsat;
pub(crate) mod solution_sat;
pub(crate) mod solution_sol;
pub(crate) mod solver_registry;

/// A target's body: one input, a panic for a finding.
pub(crate) type Run = fn(&[u8]);

/// Every target by name (the name of its binary and of its corpus folder).
pub(crate) const ALL: &[(&str, Run)] = &[
    ("dimacs_cnf", dimacs_cnf::run),
    ("edge_board", edge_board::run),
    ("edge_puzzle", edge_puzzle::run),
    ("gams_solution", gams_solution::run),
    ("neos_job", neos_job::run),
    ("neos_response", neos_response::run),
    ("sliding_moves", sliding_moves::run),
    ("sliding_puzzle", sliding_puzzle::run),
    ("solution_cbc", solution_cbc::run),
    ("solution_clique", solution_clique::run),
    ("solution_cplex_xml", solution_cplex_xml::run),
    ("solution_glpk", solution_glpk::run),
    ("solution_highs", solution_highs::run),
    ("solution_maxsat", solution_maxsat::run),
    ("solution_sat", solution_sat::run),
    ("solution_sol", solution_sol::run),
    ("solver_registry", solver_registry::run),
];
