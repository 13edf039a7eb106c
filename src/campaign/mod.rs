//! Benchmark campaigns: whole instance sets exported for other solvers, with a manifest that
//! lets anyone check the files ([`export_set`], [`manifest`], over the sets of [`sets`]), and
//! a matrix of solvers run over them ([`run`]): every answer verified on the route layer's
//! own routes, stored in an SQLite database ([`db`]) and cross-checked ([`crosscheck`]), then
//! summarised as tables and charts ([`report`]).
//!
//! A campaign sits above the routes: it uses the route layer's exports, solves and checks
//! as they are, and no route knows about campaigns.

pub mod bench;
pub mod bench_edge;
pub mod cells;
pub mod crosscheck;
pub mod db;
pub mod export_set;
pub mod manifest;
pub mod neos;
pub mod report;
pub mod run;
pub mod sets;
pub mod slurm;
pub mod verify;
