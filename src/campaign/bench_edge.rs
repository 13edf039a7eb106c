//! `tilekit bench edge` as a Slurm job array, which is how a hunt for the best board runs
//! across a cluster: one array task per unfinished run (an instance, a method and a seed),
//! each running it into the run's checkpoint directory, which the cluster's nodes share.
//! A depth-first search keeps its best board and checkpoint there as it goes, so a task
//! stopped by a kill, a time limit or a cancelled job loses nothing it found: the same
//! command again submits the unfinished runs, which continue from their checkpoints for
//! what is left of their budgets. Once the job has ended, the benchmark reads the directory
//! without running ([`EdgeBenchOptions::report_only`]) and judges every board again here,
//! trusting no task, and the boards directory ([`EdgeBenchOptions::boards`]) keeps the best.
//!
//! Directory `C` (the checkpoint): the runs' files, and `C/slurm/plan-<n>.json` (the
//! options and each task's run), `C/slurm/job-<n>.sh`, `C/slurm/job-<n>.id` and
//! `C/slurm/logs/<job>_<task>.out`. Running the same command again while the job is still
//! queued or running waits for it instead of submitting its runs twice.

use super::slurm::{ArrayJob, absolute, bench_work, submit_or_wait};
use crate::field::Field;
use crate::route::bench::Outcome;
use crate::route::bench::edge::{
    self, EdgeBenchOptions, EdgeBenchRow, EdgeBenchSummary, EdgeMethod,
};
use crate::route::{Error, Progress};
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The schema of an edge benchmark's plan file.
pub const EDGE_BENCH_PLAN_SCHEMA: &str = "tilekit-edge-bench-plan/1";

/// What every array task of an edge benchmark runs: the options that decide a run, and
/// each task's run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EdgeBenchPlan {
    /// [`EDGE_BENCH_PLAN_SCHEMA`].
    pub schema: String,
    /// The checkpoint directory (absolute).
    pub checkpoint: PathBuf,
    /// Seconds per run.
    pub budget: f64,
    /// Threads per run.
    pub threads: u32,
    /// Each task's run: instance, method (as `bench edge` names it) and seed.
    pub tasks: Vec<(String, String, u64)>,
}

/// Run the edge benchmark as a Slurm job array and report it: submit the unfinished runs
/// (or wait for the job an earlier run submitted), wait for the job to end, then print the
/// table the checkpoint directory holds, every board judged again here. sbatch's own
/// environment (`SBATCH_PARTITION`, `SBATCH_ACCOUNT`, …) chooses where the tasks run.
pub fn run(
    opts: &EdgeBenchOptions,
    out: &mut (dyn Write + Send),
    progress: Progress<'_>,
) -> Result<Outcome<EdgeBenchRow, EdgeBenchSummary>, Error> {
    let Some(dir) = opts.checkpoint.as_deref() else {
        return Err(Error::Usage(format!(
            "a Slurm run keeps the runs' boards in a {} directory that the cluster's nodes share: give one",
            Field::Checkpoint
        )));
    };
    let dir = absolute(dir)?;
    let work = bench_work(&dir)?;
    let opts = EdgeBenchOptions {
        checkpoint: Some(dir.clone()),
        ..opts.clone()
    };
    submit_or_wait(
        &work,
        "every run is finished in the checkpoint directory: nothing to submit",
        progress,
        || {
            let pending = edge::pending(&opts)?;
            if pending.is_empty() {
                return Ok(None);
            }
            submit(&opts, &dir, &work, &pending, progress).map(Some)
        },
    )?;
    let report = EdgeBenchOptions {
        report_only: true,
        ..opts
    };
    edge::run(&report, out, progress)
}

/// Write the plan and batch script of `pending` and submit them: the job's id.
fn submit(
    opts: &EdgeBenchOptions,
    dir: &Path,
    work: &Path,
    pending: &[(String, EdgeMethod, u64)],
    progress: Progress<'_>,
) -> Result<String, Error> {
    let plan = EdgeBenchPlan {
        schema: EDGE_BENCH_PLAN_SCHEMA.into(),
        checkpoint: dir.to_path_buf(),
        budget: opts.budget,
        threads: opts.threads.max(1),
        tasks: pending
            .iter()
            .map(|(i, m, s)| (i.clone(), m.name(), *s))
            .collect(),
    };
    // The budget, a tenth more, and a minute to read the instance and finish the board.
    let minutes = ((plan.budget * 1.1 + 60.0) / 60.0).ceil() as u64;
    let job = ArrayJob {
        what: "bench edge",
        tasks: plan.tasks.len(),
        cpus: plan.threads,
        minutes: Some(minutes),
    };
    super::slurm::submit_plan(work, &plan, job, progress)
}

/// One array task of an edge benchmark's plan (`tilekit run-task PLAN K` on a plan of this
/// kind): its run, into the checkpoint directory, its score printed to the task's log.
pub fn run_task(plan_path: &Path, text: &str, task: usize) -> Result<usize, Error> {
    let plan: EdgeBenchPlan = serde_json::from_str(text).map_err(|e| {
        Error::Usage(format!(
            "{}:{}: not a tilekit edge benchmark plan: {e}",
            plan_path.display(),
            e.line()
        ))
    })?;
    let (instance, method, seed) = plan.tasks.get(task).cloned().ok_or_else(|| {
        Error::Usage(format!(
            "{}: task {task} of a plan of {} tasks",
            plan_path.display(),
            plan.tasks.len()
        ))
    })?;
    let method = EdgeMethod::parse(&method)
        .map_err(|e| Error::Usage(format!("{}: {e}", plan_path.display())))?;
    let opts = EdgeBenchOptions {
        instances: vec![instance.clone()],
        methods: vec![method],
        budget: plan.budget,
        runs: seed as usize,
        threads: plan.threads,
        boards: None,
        svg: None,
        checkpoint: Some(plan.checkpoint.clone()),
        report_only: false,
    };
    let matched = edge::run_one(&opts, &instance, method, seed, &|_| {})?;
    println!(
        "{instance} {} seed {seed}: {matched} matched, verified",
        method.name()
    );
    Ok(1)
}
