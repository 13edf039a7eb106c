//! The integration tests, one binary (ripgrep's layout): each file beside this one is a
//! module, and `common` holds what they share (the one helper that runs the `tilekit`
//! binary among them). Insta names their snapshots `tests__<module>__<name>.snap`.
//!
//! One file's tests: `cargo test --release --test tests -- native::` (a substring filter, so
//! `cli::` would take `native_cli::` and the other `…_cli::` modules along).

mod common;

mod campaign_export;
mod campaign_neos;
mod campaign_run;
mod campaign_slurm;
mod certify;
mod cli;
mod cli_edge;
mod edge_clique;
mod edge_clique_faults;
mod edge_heuristic;
mod edge_matching;
mod edge_maxsat;
mod edge_milp;
mod edge_milp_cli;
mod edge_models_prop;
mod edge_routes_cli;
mod edge_sat;
mod edge_search;
mod embedded_routes;
mod front_door;
mod fuzz_corpus;
mod gams_real;
mod hardening;
mod highs_embedded;
mod layering;
mod learned;
mod milp_tight;
mod model_snapshots;
mod native;
mod native_cli;
mod neos_horizon80;
mod neos_loopback;
mod reference_docs;
mod roundtrip_prop;
mod runner_faults;
mod sat_external;
mod short_instances;
mod wrapped_milp;
mod writers_solvers;
