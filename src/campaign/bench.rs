//! A native benchmark (`tilekit bench korf50-24` and the other published sliding sets) as a
//! Slurm job array: one array task per unfinished instance, each running the benchmark on
//! its instance with the run's checkpoint directory, which the cluster's nodes share. The
//! tasks record each proven bound and the plan there, so the gathering needs no shards:
//! once the job has ended, the benchmark reads the directory without searching
//! ([`BenchOptions::report_only`]) and replays every plan here, trusting no task.
//!
//! Directory `C` (the checkpoint): the instances' files, and `C/slurm/plan-<n>.json` (the
//! options and each task's instance), `C/slurm/job-<n>.sh`, `C/slurm/job-<n>.id` and
//! `C/slurm/logs/<job>_<task>.out` (each task's table). Running the same command again
//! after the submitting process was killed waits for the job still queued or running
//! rather than submitting its instances twice; after the job has ended it submits the
//! instances still unfinished, which resume from their bounds.

use super::slurm::{ArrayJob, absolute, bench_work, submit_or_wait};
use crate::field::Field;
use crate::route::bench::Outcome;
use crate::route::bench::native::{self, BenchOptions, BenchRow, BenchSummary};
use crate::route::{Error, Progress};
use crate::search::NativeOptions;
use crate::search::sets::BenchSet;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The schema of a benchmark's plan file.
pub const BENCH_PLAN_SCHEMA: &str = "tilekit-bench-plan/1";

/// What every array task of a benchmark runs: the options that decide the search, and each
/// task's instance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BenchPlan {
    /// [`BENCH_PLAN_SCHEMA`].
    pub schema: String,
    /// The set, by name.
    pub set: String,
    /// The checkpoint directory (absolute).
    pub checkpoint: PathBuf,
    /// Seconds per instance, if limited.
    pub time_limit: Option<f64>,
    /// [`BenchOptions::pdb`].
    pub pdb: Option<String>,
    /// [`BenchOptions::max_with`].
    pub max_with: Option<String>,
    /// [`NativeOptions::cache_dir`] (absolute).
    pub cache_dir: Option<PathBuf>,
    /// [`NativeOptions::dual`].
    pub dual: bool,
    /// [`NativeOptions::bpmx`].
    pub bpmx: bool,
    /// [`NativeOptions::fsm`].
    pub fsm: usize,
    /// [`NativeOptions::threads`].
    pub threads: usize,
    /// [`NativeOptions::frontier`] (0 in plans written before it existed).
    #[serde(default)]
    pub frontier: usize,
    /// The instances of each task, by id.
    pub tasks: Vec<Vec<u32>>,
}

impl BenchPlan {
    /// The options one task runs with.
    fn options(&self, ids: Vec<u32>) -> BenchOptions {
        BenchOptions {
            limit: None,
            ids,
            time_limit: self.time_limit.map(Duration::from_secs_f64),
            jobs: 1,
            interleave: 1,
            native: NativeOptions {
                cache_dir: self.cache_dir.clone(),
                dual: self.dual,
                bpmx: self.bpmx,
                fsm: self.fsm,
                threads: self.threads,
                frontier: self.frontier,
                ..Default::default()
            },
            pdb: self.pdb.clone(),
            max_with: self.max_with.clone(),
            checkpoint: Some(self.checkpoint.clone()),
            report_only: false,
        }
    }
}

/// Run `set`'s benchmark as a Slurm job array and report it: submit the unfinished
/// instances (or wait for the job an earlier run submitted), wait for the job to end, then
/// print the table the checkpoints hold, every plan replayed here. sbatch's own
/// environment (`SBATCH_PARTITION`, `SBATCH_ACCOUNT`, …) chooses where the tasks run.
pub fn run(
    set: BenchSet,
    opts: &BenchOptions,
    out: &mut (dyn Write + Send),
    progress: Progress<'_>,
) -> Result<Outcome<BenchRow, BenchSummary>, Error> {
    let Some(dir) = opts.checkpoint.as_deref() else {
        return Err(Error::Usage(format!(
            "a Slurm run keeps the instances' results in a {} directory that the cluster's nodes share: give one",
            Field::Checkpoint
        )));
    };
    if opts.interleave > 1 || opts.jobs > 1 {
        return Err(Error::Usage(format!(
            "on Slurm each array task searches one instance: {} and {} have no place",
            Field::Jobs,
            Field::Interleave
        )));
    }
    let dir = absolute(dir)?;
    let work = bench_work(&dir)?;
    let search_error = |e: crate::search::SearchError| Error::Usage(e.to_string());
    submit_or_wait(
        &work,
        "every instance is finished in the checkpoint directory: nothing to submit",
        progress,
        || {
            let pending = native::pending(set, opts).map_err(search_error)?;
            if pending.is_empty() {
                return Ok(None);
            }
            submit(set, opts, &dir, &work, &pending, progress).map(Some)
        },
    )?;
    let report = BenchOptions {
        report_only: true,
        checkpoint: Some(dir),
        ..opts.clone()
    };
    native::run(set, &report, out, progress).map_err(search_error)
}

/// Write the plan and batch script of `pending` and submit them: the job's id.
fn submit(
    set: BenchSet,
    opts: &BenchOptions,
    dir: &Path,
    work: &Path,
    pending: &[u32],
    progress: Progress<'_>,
) -> Result<String, Error> {
    let plan = BenchPlan {
        schema: BENCH_PLAN_SCHEMA.into(),
        set: set.name().into(),
        checkpoint: dir.to_path_buf(),
        time_limit: opts.time_limit.map(|t| t.as_secs_f64()),
        pdb: opts.pdb.clone(),
        max_with: opts.max_with.clone(),
        cache_dir: opts.native.cache_dir.as_deref().map(absolute).transpose()?,
        dual: opts.native.dual,
        bpmx: opts.native.bpmx,
        fsm: opts.native.fsm,
        threads: opts.native.threads.max(1),
        frontier: opts.native.frontier,
        tasks: pending.iter().map(|&id| vec![id]).collect(),
    };
    // The limit, a tenth more, and ten minutes to load or build the pattern databases.
    let minutes = plan
        .time_limit
        .map(|t| ((t * 1.1 + 600.0) / 60.0).ceil() as u64);
    let job = ArrayJob {
        what: &format!("bench {}", set.name()),
        tasks: plan.tasks.len(),
        cpus: plan.threads as u32,
        minutes,
    };
    super::slurm::submit_plan(work, &plan, job, progress)
}

/// One array task of a benchmark's plan (`tilekit run-task PLAN K` on a plan of this kind):
/// its instances searched, the table printed to the task's log. The instances it ran.
pub fn run_task(plan_path: &Path, text: &str, task: usize) -> Result<usize, Error> {
    let plan: BenchPlan = serde_json::from_str(text).map_err(|e| {
        Error::Usage(format!(
            "{}:{}: not a tilekit benchmark plan: {e}",
            plan_path.display(),
            e.line()
        ))
    })?;
    let set = BenchSet::parse(&plan.set).ok_or_else(|| {
        Error::Usage(format!(
            "{}: no benchmark set {:?}",
            plan_path.display(),
            plan.set
        ))
    })?;
    let ids = plan.tasks.get(task).cloned().ok_or_else(|| {
        Error::Usage(format!(
            "{}: task {task} of a plan of {} tasks",
            plan_path.display(),
            plan.tasks.len()
        ))
    })?;
    let n = ids.len();
    let mut stdout = std::io::stdout();
    native::run(set, &plan.options(ids), &mut stdout, &|_| {})
        .map_err(|e| Error::Failure(e.to_string()))?;
    Ok(n)
}
