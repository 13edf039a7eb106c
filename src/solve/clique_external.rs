//! Solving a DIMACS graph with an external max-clique solver from the registry (`kind =
//! "clique"`, the built-in entry runs `cliquer -q -q {model}`).
//!
//! cliquer has no time limit of its own: the runner's wall-clock limit kills it, and since it
//! prints its answer only at the end, a kill is [`CliqueOutcome::TimeLimit`]. Errors (a
//! missing binary, a failing exit code, output that is not a clique line) are
//! [`SolveError`]s, as for the MILP and SAT solvers.

use crate::format::solution;
pub use crate::model::answer::CliqueOutcome;
use crate::solve::SolveError;
use crate::solve::external::RunOutput;
use crate::solve::milp_external::{check_kind, launch, tail};
use crate::solve::registry::{SolutionFormat, SolverEntry, SolverKind};
use std::path::Path;
use std::time::Duration;

/// Solve the graph in `graph_path` (with `num_vertices` vertices) with `entry`, working in
/// `workdir`, killed after `time_limit` plus a short grace period.
pub fn solve_clique_file(
    entry: &SolverEntry,
    graph_path: &Path,
    workdir: &Path,
    time_limit: Duration,
    num_vertices: usize,
) -> Result<(CliqueOutcome, RunOutput), SolveError> {
    check_kind(entry, SolverKind::Clique)?;
    let (run, _) = launch(entry, graph_path, workdir, time_limit, 1, "out", None)?;
    if run.timed_out {
        return Ok((CliqueOutcome::TimeLimit, run));
    }
    if run.status != Some(0) {
        return Err(SolveError::Failed {
            solver: entry.name.clone(),
            exit: run.describe_exit(),
            tail: tail(&run),
        });
    }
    let parsed = match entry.solution {
        SolutionFormat::Cliquer => solution::clique::parse_cliquer(
            &run.stdout,
            &format!("{} stdout", entry.name),
            num_vertices,
        ),
        other => unreachable!("registry validation ties {other:?} to a non-clique kind"),
    };
    match parsed {
        Ok(clique) => Ok((CliqueOutcome::Found(clique), run)),
        Err(error) => Err(SolveError::BadSolution {
            solver: entry.name.clone(),
            error,
            tail: tail(&run),
        }),
    }
}
