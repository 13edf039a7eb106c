//! Puzzle → model formulations; each also decodes solver values back to a puzzle solution.
pub mod edge_clique;
pub mod edge_milp;
pub mod edge_sat;
pub mod sliding_flow;
pub mod sliding_neos;
pub mod sliding_sat;
