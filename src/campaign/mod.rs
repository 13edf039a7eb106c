//! Benchmark campaigns: whole instance sets exported for other solvers, with a manifest that
//! lets anyone check the files ([`export_set`], [`manifest`], over the sets of [`sets`]).
//!
//! A campaign sits above the routes: it uses the route layer's exports, solves and checks
//! as they are, and no route knows about campaigns.

pub mod export_set;
pub mod manifest;
pub mod sets;
