//! The Slurm executor of `tilekit run`: the pending cells become a job array, each array task
//! runs its chunk of cells with the local cell runner (`tilekit run-task`) and writes its
//! rows to a shard file of its own; collecting ([`collect_run`]) merges the shards into the
//! database. The database is only ever written here, by one process: the tasks never touch
//! it.
//!
//! Work directory `W` (default: the database's path with `.slurm` appended):
//! `W/plan-<n>.json` (the chunks), `W/job-<n>.sh` (the batch script), `W/job-<n>.id` (the job
//! id `sbatch --parsable` printed), `W/logs/<job>_<task>.out`, and
//! `W/shards/<job>_<task>.jsonl` — one synced JSON line per finished cell, named
//! `….jsonl.partial` until the task finished all its cells. A task killed half-way leaves
//! its finished cells in the partial shard; collect keeps them (a torn last line is
//! dropped), names the cells still missing, and a re-run plans exactly those. Rows are
//! merged with "insert or ignore" on the cell key, so a shard collected twice, or a cell run
//! twice, is never counted twice.

use super::cells::{self, MatrixSolver, RunRequest};
use super::db::{Db, RunRow};
use super::manifest::Manifest;
use crate::field::Field;
use crate::route::{Error, Progress};
use crate::solve::Limits;
use crate::solve::external::{self, RunSpec};
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The options of the Slurm executor.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SlurmOptions {
    /// The work directory (default: the database's path + `.slurm`).
    pub work: Option<PathBuf>,
    /// Cells each array task runs, one after another.
    pub cells_per_task: usize,
    /// The Slurm partition.
    pub partition: Option<String>,
    /// More arguments for sbatch, each as given.
    pub sbatch_args: Vec<String>,
    /// Wait for the job to end and collect its shards.
    pub wait: bool,
}

/// The schema of a plan file.
pub const PLAN_SCHEMA: &str = "tilekit-slurm-plan/2";

/// A plan: what every array task runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Plan {
    /// [`PLAN_SCHEMA`].
    pub schema: String,
    /// The manifest (absolute).
    pub manifest: PathBuf,
    /// The solvers, by name.
    pub solvers: Vec<String>,
    /// The solver registry file (absolute).
    pub solvers_file: Option<PathBuf>,
    /// Seconds per cell.
    pub time_limit: f64,
    /// Bytes of resident memory each solver may hold (absent: no limit).
    #[serde(default)]
    pub memory_limit: Option<u64>,
    /// Threads per cell.
    pub threads: u32,
    /// Where the shards go (absolute).
    pub shards: PathBuf,
    /// Where the runs' logs go (absolute): the database's logs directory, which the
    /// cluster's nodes share with it. Absent in a plan of an earlier tilekit: no logs.
    #[serde(default)]
    pub logs: Option<PathBuf>,
    /// The cells of each task: (file SHA-256, solver, seed).
    pub tasks: Vec<Vec<(String, String, u32)>>,
}

/// The work directory of a request.
pub fn work_dir(req: &RunRequest, opts: &SlurmOptions) -> PathBuf {
    opts.work.clone().unwrap_or_else(|| {
        let mut p = req.db.clone().into_os_string();
        p.push(".slurm");
        PathBuf::from(p)
    })
}

pub(crate) fn absolute(p: &Path) -> Result<PathBuf, Error> {
    std::path::absolute(p).map_err(|e| Error::Usage(format!("{}: {e}", p.display())))
}

fn io_error(path: &Path, e: std::io::Error) -> Error {
    Error::Usage(format!("{}: {e}", path.display()))
}

/// Write the plan and batch script of the pending cells and submit them with `sbatch`
/// (waiting for the job when `wait` says so). `None` when nothing is pending.
pub(crate) fn submit(
    req: &RunRequest,
    opts: &SlurmOptions,
    m: &Manifest,
    solvers: &[MatrixSolver],
    pending: &[cells::Cell],
    progress: Progress<'_>,
) -> Result<Option<PathBuf>, Error> {
    let work = work_dir(req, opts);
    if pending.is_empty() {
        crate::route::notice(progress, "every cell is in the database: nothing to submit");
        return Ok(None);
    }
    let per = opts.cells_per_task.max(1);
    for d in [work.clone(), work.join("logs"), work.join("shards")] {
        std::fs::create_dir_all(&d).map_err(|e| {
            Error::Usage(format!("{}: cannot create the directory: {e}", d.display()))
        })?;
    }
    let work = absolute(&work)?;
    let cells: Vec<(String, String, u32)> = pending
        .iter()
        .map(|c| {
            (
                m.files[c.file].sha256.clone(),
                solvers[c.solver].name().to_string(),
                c.seed,
            )
        })
        .collect();
    let plan = Plan {
        schema: PLAN_SCHEMA.into(),
        manifest: absolute(&req.manifest)?,
        solvers: req.solvers.clone(),
        solvers_file: req.solvers_file.as_deref().map(absolute).transpose()?,
        time_limit: req.limits.time.as_secs_f64(),
        memory_limit: req.limits.memory,
        threads: req.limits.threads,
        shards: work.join("shards"),
        logs: Some(absolute(&super::cells::logs_dir(&req.db))?),
        tasks: cells.chunks(per).map(<[_]>::to_vec).collect(),
    };
    let (n, plan_path, exe) = write_plan(&work, &plan)?;
    let script = format!(
        "#!/bin/sh\n# tilekit run on Slurm: plan {n}, {} cells in {} tasks\n#SBATCH --job-name=tilekit-{n}\n#SBATCH --array=0-{}\n#SBATCH --cpus-per-task={}\n{}#SBATCH --output={}/logs/%A_%a.out\nexec {} run-task {} \"$SLURM_ARRAY_TASK_ID\"\n",
        cells.len(),
        plan.tasks.len(),
        plan.tasks.len() - 1,
        plan.threads.max(1),
        resource_lines(per, plan.time_limit, plan.memory_limit),
        shell_quote(&work.display().to_string()),
        shell_quote(&exe.display().to_string()),
        shell_quote(&plan_path.display().to_string()),
    );
    let script_path = work.join(format!("job-{n}.sh"));
    crate::route::output::write_to(Some(&script_path), script.as_bytes())?;
    // No `sbatch --wait`: it polls after 2, 10, 42, 74… s, so a 3 s job returns after 10 s;
    // `wait_for` asks squeue twice a second instead.
    let mut args = vec!["--parsable".to_string()];
    if let Some(p) = &opts.partition {
        args.push(format!("--partition={p}"));
    }
    args.extend(opts.sbatch_args.iter().cloned());
    args.push(script_path.display().to_string());
    crate::route::notice(
        progress,
        &format!(
            "submitting {} cells as {} Slurm array tasks ({})",
            cells.len(),
            plan.tasks.len(),
            script_path.display()
        ),
    );
    let job = sbatch(&work, args, n)?;
    crate::route::notice(
        progress,
        &format!(
            "Slurm job {job}: {} tasks; collect with: tilekit run {} {f_db} {} {f_collect} {f_work} {}",
            plan.tasks.len(),
            req.manifest.display(),
            req.db.display(),
            work.display(),
            f_db = Field::Db,
            f_collect = Field::Collect,
            f_work = Field::Work
        ),
    );
    if opts.wait {
        // The tasks run one chunk each, one after another at worst, and a queue may hold
        // them a while.
        let per_cell = req.limits.time + Duration::from_secs(5) + req.limits.time / 10;
        let bound = per_cell * (cells.len() as u32) + Duration::from_secs(600);
        wait_for(&job, bound, progress)?;
    }
    Ok(Some(work))
}

/// Write `plan` as `work/plan-<n>.json` under the next free number (earlier plans, and
/// what their tasks wrote, stay for collecting): the number, the plan's path, and this
/// tilekit's own path for the batch script to run.
pub(crate) fn write_plan(
    work: &Path,
    plan: &impl Serialize,
) -> Result<(usize, PathBuf, PathBuf), Error> {
    let n = (1..)
        .find(|n| !work.join(format!("plan-{n}.json")).exists())
        .expect("a free number");
    let plan_path = work.join(format!("plan-{n}.json"));
    let text = serde_json::to_string_pretty(plan).expect("a plan serialises");
    crate::route::output::write_to(Some(&plan_path), text.as_bytes())?;
    let exe = std::env::current_exe()
        .map_err(|e| Error::Failure(format!("cannot find this tilekit's own path: {e}")))?;
    Ok((n, plan_path, exe))
}

/// A benchmark's job array: what [`submit_plan`] writes into its batch script.
pub(crate) struct ArrayJob<'a> {
    /// What the script's comment and the job's name say (`bench korf50-24`, `bench edge`).
    pub what: &'a str,
    /// Array tasks.
    pub tasks: usize,
    /// CPUs per task.
    pub cpus: u32,
    /// Minutes per task, if limited.
    pub minutes: Option<u64>,
}

/// Write `plan` and a batch script that runs each of its tasks through `tilekit run-task`
/// into `work`, and submit it: the job's id. The benchmarks' array jobs all go this way.
pub(crate) fn submit_plan(
    work: &Path,
    plan: &impl Serialize,
    job: ArrayJob<'_>,
    progress: crate::route::Progress<'_>,
) -> Result<String, Error> {
    let (n, plan_path, exe) = write_plan(work, plan)?;
    let time = job
        .minutes
        .map_or(String::new(), |m| format!("#SBATCH --time={}\n", m.max(1)));
    let script = format!(
        "#!/bin/sh\n# tilekit {} on Slurm: plan {n}, one array task each\n#SBATCH --job-name=tilekit-{}-{n}\n#SBATCH --array=0-{}\n#SBATCH --cpus-per-task={}\n{time}#SBATCH --output={}/logs/%A_%a.out\nexec {} run-task {} \"$SLURM_ARRAY_TASK_ID\"\n",
        job.what,
        job.what.replace(' ', "-"),
        job.tasks - 1,
        job.cpus,
        shell_quote(&work.display().to_string()),
        shell_quote(&exe.display().to_string()),
        shell_quote(&plan_path.display().to_string()),
    );
    let script_path = work.join(format!("job-{n}.sh"));
    crate::route::output::write_to(Some(&script_path), script.as_bytes())?;
    crate::route::notice(
        progress,
        &format!(
            "submitting {} as a Slurm job array ({})",
            tasks(job.tasks),
            script_path.display()
        ),
    );
    let id = sbatch(
        work,
        vec!["--parsable".to_string(), script_path.display().to_string()],
        n,
    )?;
    crate::route::notice(progress, &format!("Slurm job {id}: {}", tasks(job.tasks)));
    Ok(id)
}

/// Submit with `sbatch` and `args` (`--parsable` first, the batch script last) from `work`,
/// and record the job id in `work/job-<n>.id`: the id.
pub(crate) fn sbatch(work: &Path, args: Vec<String>, n: usize) -> Result<String, Error> {
    let out = external::run(&RunSpec {
        program: "sbatch".into(),
        args,
        time_limit: Duration::from_secs(120),
        cwd: Some(work.to_path_buf()),
        stop: None,
    })
    .map_err(|e| {
        Error::Usage(format!(
            "sbatch could not run ({e}): is Slurm installed and SLURM_CONF set?"
        ))
    })?;
    let job = out
        .stdout
        .lines()
        .next()
        .map(|l| l.split(';').next().unwrap_or("").trim().to_string())
        .filter(|j| !j.is_empty() && j.chars().all(|c| c.is_ascii_digit()));
    let Some(job) = job else {
        return Err(Error::Failure(format!(
            "sbatch did not submit the job ({}): {}",
            out.describe_exit(),
            out.stderr.trim()
        )));
    };
    crate::route::output::write_to(
        Some(&work.join(format!("job-{n}.id"))),
        format!("{job}\n").as_bytes(),
    )?;
    Ok(job)
}

/// squeue's state line for each task of `job` still queued or running.
pub(crate) fn squeue(job: &str) -> Result<external::RunOutput, Error> {
    external::run(&RunSpec {
        program: "squeue".into(),
        args: vec![
            "-h".into(),
            "-r".into(),
            "-j".into(),
            job.into(),
            "-o".into(),
            "%T".into(),
        ],
        time_limit: Duration::from_secs(30),
        cwd: None,
        stop: None,
    })
    .map_err(|e| {
        Error::Usage(format!(
            "squeue could not run ({e}): is Slurm installed and SLURM_CONF set?"
        ))
    })
}

/// Wait until no task of `job` is queued or running (asking squeue twice a second), at most
/// `bound`. A job squeue no longer knows (it ended more than MinJobAge ago) has ended.
pub(crate) fn wait_for(job: &str, bound: Duration, progress: Progress<'_>) -> Result<(), Error> {
    let started = std::time::Instant::now();
    let mut said: Option<(usize, std::time::Instant)> = None;
    loop {
        let out = squeue(job)?;
        let live = out.stdout.lines().filter(|l| !l.trim().is_empty()).count();
        if out.status == Some(0) && live == 0 || out.stderr.contains("Invalid job id") {
            return Ok(());
        }
        if out.status != Some(0) {
            return Err(Error::Failure(format!(
                "squeue -j {job} failed ({}): {}",
                out.describe_exit(),
                out.stderr.trim()
            )));
        }
        if started.elapsed() > bound {
            return Err(Error::Failure(format!(
                "Slurm job {job} still has {live} tasks queued or running after {:.0} s: collect later with {f_collect}",
                bound.as_secs_f64(),
                f_collect = Field::Collect
            )));
        }
        // Said when the count changes and every half minute; asked often at first (short
        // jobs end in seconds), then every 10 s, as a cluster's controller asks of its users.
        if said.is_none_or(|(n, t)| n != live || t.elapsed() >= Duration::from_secs(30)) {
            progress(&format!(
                "Slurm job {job}: {} queued or running ({:.0} s)",
                tasks(live),
                started.elapsed().as_secs_f64()
            ));
            said = Some((live, std::time::Instant::now()));
        }
        let waited = started.elapsed();
        std::thread::sleep(if waited < Duration::from_secs(10) {
            Duration::from_millis(500)
        } else if waited < Duration::from_secs(120) {
            Duration::from_secs(2)
        } else {
            Duration::from_secs(10)
        });
    }
}

/// `n` array tasks, in words.
pub(crate) fn tasks(n: usize) -> String {
    format!("{n} task{}", if n == 1 { "" } else { "s" })
}

/// The `#SBATCH` lines that ask for what a task needs: `--time` for `cells` cells of `limit`
/// seconds each (the limit, the 10 % plus 2 s a killed solver is given, and a minute for
/// checking and verifying), and, under a memory limit, `--mem` for it and 512 MB for
/// tilekit itself. A scheduler that knows the time a job needs can backfill it.
fn resource_lines(cells: usize, limit: f64, memory: Option<u64>) -> String {
    let seconds = cells as f64 * (limit * 1.1 + 2.0 + 60.0);
    let minutes = (seconds / 60.0).ceil().max(1.0) as u64;
    let mut lines = format!("#SBATCH --time={minutes}\n");
    if let Some(bytes) = memory {
        lines.push_str(&format!(
            "#SBATCH --mem={}M\n",
            bytes.div_ceil(1_000_000) + 512
        ));
    }
    lines
}

pub(crate) fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// A benchmark's Slurm work directory, `DIR/slurm` with its `logs`, created.
pub(crate) fn bench_work(dir: &Path) -> Result<PathBuf, Error> {
    let work = dir.join("slurm");
    std::fs::create_dir_all(work.join("logs")).map_err(|e| {
        Error::Usage(format!(
            "{}: cannot create the directory: {e}",
            work.display()
        ))
    })?;
    Ok(work)
}

/// A benchmark's job, to its end: the job an earlier run submitted from `work` if it still
/// runs (it owns its tasks' files), else what `submit` submits (`None`: nothing is left to
/// run, which `nothing_left` says).
pub(crate) fn submit_or_wait(
    work: &Path,
    nothing_left: &str,
    progress: Progress<'_>,
    submit: impl FnOnce() -> Result<Option<String>, Error>,
) -> Result<(), Error> {
    let live = match last_job(work)? {
        Some(job) if job_is_live(&job)? => Some(job),
        _ => None,
    };
    let job = match live {
        Some(job) => {
            crate::route::notice(
                progress,
                &format!("Slurm job {job}, submitted earlier, still runs: waiting for it"),
            );
            Some(job)
        }
        None => {
            let job = submit()?;
            if job.is_none() {
                crate::route::notice(progress, nothing_left);
            }
            job
        }
    };
    match job {
        Some(job) => wait_for(&job, Duration::MAX, progress),
        None => Ok(()),
    }
}

/// The id of the last job submitted from `work`, if any.
fn last_job(work: &Path) -> Result<Option<String>, Error> {
    let Some(n) = (1..)
        .take_while(|n| work.join(format!("job-{n}.id")).exists())
        .last()
    else {
        return Ok(None);
    };
    let path = work.join(format!("job-{n}.id"));
    let text = crate::route::read_text(&path, "Slurm job id")?;
    Ok(Some(text.trim().to_string()))
}

/// Whether `job` still has a task queued or running.
fn job_is_live(job: &str) -> Result<bool, Error> {
    let out = squeue(job)?;
    // A job squeue no longer knows has ended.
    Ok(out.status == Some(0) && out.stdout.lines().any(|l| !l.trim().is_empty()))
}

/// `tilekit run-task PLAN K` (run by Slurm in each array task): run the task's cells
/// and write its shard (or, on a benchmark's plan, [`super::bench::run_task`] or
/// [`super::bench_edge::run_task`]). The cells
/// or instances it ran.
pub fn run_task(plan_path: &Path, task: usize) -> Result<usize, Error> {
    let text = crate::route::read_text(plan_path, "Slurm plan")?;
    // A benchmark's plan names its own schema.
    let schema = serde_json::from_str::<serde_json::Value>(&text)
        .ok()
        .and_then(|v| v.get("schema")?.as_str().map(str::to_string));
    if schema.as_deref() == Some(super::bench::BENCH_PLAN_SCHEMA) {
        return super::bench::run_task(plan_path, &text, task);
    }
    if schema.as_deref() == Some(super::bench_edge::EDGE_BENCH_PLAN_SCHEMA) {
        return super::bench_edge::run_task(plan_path, &text, task);
    }
    let plan: Plan = serde_json::from_str(&text).map_err(|e| {
        Error::Usage(format!(
            "{}:{}: not a tilekit Slurm plan: {e}",
            plan_path.display(),
            e.line()
        ))
    })?;
    if plan.schema != PLAN_SCHEMA {
        return Err(Error::Usage(format!(
            "{}: schema {:?}: this tilekit reads {PLAN_SCHEMA:?}",
            plan_path.display(),
            plan.schema
        )));
    }
    let cells = plan.tasks.get(task).ok_or_else(|| {
        Error::Usage(format!(
            "{}: task {task} of a plan of {} tasks",
            plan_path.display(),
            plan.tasks.len()
        ))
    })?;
    let m = Manifest::read(&plan.manifest)?;
    let base = plan
        .manifest
        .parent()
        .map_or(PathBuf::from("."), Path::to_path_buf);
    let solvers = cells::resolve_solvers(&plan.solvers, plan.solvers_file.as_deref())?;
    let limits = Limits {
        memory: plan.memory_limit,
        ..Limits::new(
            crate::route::seconds("the plan's time limit", plan.time_limit)?,
            plan.threads,
        )
    };
    let job = std::env::var("SLURM_ARRAY_JOB_ID")
        .or_else(|_| std::env::var("SLURM_JOB_ID"))
        .unwrap_or_else(|_| "local".into());
    let shard = format!("{job}_{task}");
    let partial = plan.shards.join(format!("{shard}.jsonl.partial"));
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&partial)
        .map_err(|e| io_error(&partial, e))?;
    let mut n = 0;
    for (sha, name, seed) in cells {
        let f = m.files.iter().find(|f| &f.sha256 == sha).ok_or_else(|| {
            Error::Usage(format!(
                "{}: the plan names a file {sha} the manifest does not list",
                plan_path.display()
            ))
        })?;
        let solver = solvers
            .iter()
            .find(|s| s.name() == name)
            .ok_or_else(|| Error::Usage(format!("the plan names an unknown solver {name}")))?;
        let mut row = cells::run_cell(
            &base,
            &m,
            (f, solver, *seed),
            &limits,
            "slurm",
            plan.logs.as_deref(),
        );
        row.shard = Some(shard.clone());
        let mut line = serde_json::to_string(&row).expect("a row serialises");
        line.push('\n');
        file.write_all(line.as_bytes())
            .and_then(|()| file.sync_data())
            .map_err(|e| io_error(&partial, e))?;
        n += 1;
    }
    drop(file);
    let done = plan.shards.join(format!("{shard}.jsonl"));
    std::fs::rename(&partial, &done).map_err(|e| io_error(&done, e))?;
    Ok(n)
}

/// What collect found.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Collected {
    /// Rows new to the database.
    pub stored: usize,
    /// Of those, solver errors.
    pub errors: usize,
    /// Shards complete.
    pub complete: usize,
    /// Shards left partial (a task that failed or still runs), with their rows.
    pub partial: Vec<(String, usize)>,
    /// Cells of the plans with no row in the database.
    pub missing: usize,
    /// What a user must know (a task that did not finish, cells still missing): printed
    /// whether or not progress is shown.
    pub notes: Vec<String>,
}

/// Merge every shard of the work directory into the database; report the partial shards and
/// the cells of the plans still missing.
pub fn collect(db: &mut Db, m: &Manifest, work: &Path) -> Result<Collected, Error> {
    let shards = work.join("shards");
    let mut names: Vec<PathBuf> = match std::fs::read_dir(&shards) {
        Ok(rd) => rd.filter_map(|e| e.ok().map(|e| e.path())).collect(),
        Err(e) => {
            return Err(Error::Usage(format!(
                "{}: no Slurm work directory here ({e}): pass the {f_work} of the submission",
                work.display(),
                f_work = Field::Work
            )));
        }
    };
    names.sort();
    cells::record_files(db, m)?;
    let mut c = Collected::default();
    for path in names {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let partial = name.ends_with(".jsonl.partial");
        if !partial && !name.ends_with(".jsonl") {
            continue;
        }
        let text = std::fs::read_to_string(&path).map_err(|e| io_error(&path, e))?;
        let mut rows = 0;
        for line in text.lines() {
            // A torn last line (the task was killed while writing it) is not a row.
            let Ok(row) = serde_json::from_str::<RunRow>(line) else {
                continue;
            };
            if !m.files.iter().any(|f| f.sha256 == row.file_sha256) {
                continue;
            }
            rows += 1;
            if db.insert(&row, false)? {
                c.stored += 1;
                if row.status == "error" {
                    c.errors += 1;
                }
            }
        }
        if partial {
            c.partial
                .push((name.trim_end_matches(".jsonl.partial").to_string(), rows));
        } else {
            c.complete += 1;
        }
    }
    // The cells every plan asked for that still have no row.
    let mut plans: Vec<PathBuf> = std::fs::read_dir(work)
        .map_err(|e| io_error(work, e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name().is_some_and(|n| {
                n.to_string_lossy().starts_with("plan-") && n.to_string_lossy().ends_with(".json")
            })
        })
        .collect();
    plans.sort();
    for p in &plans {
        let Ok(plan) =
            serde_json::from_str::<Plan>(&std::fs::read_to_string(p).unwrap_or_default())
        else {
            continue;
        };
        for (sha, solver, seed) in plan.tasks.iter().flatten() {
            if db
                .status_of(sha, solver, plan.time_limit, plan.threads, *seed)?
                .is_none()
            {
                c.missing += 1;
            }
        }
    }
    for (shard, rows) in &c.partial {
        c.notes.push(format!(
            "Slurm task {shard} did not finish: its {rows} finished cells are kept (its log: {}/logs/{shard}.out)",
            work.display()
        ));
    }
    if c.missing > 0 {
        c.notes.push(format!(
            "{} cells of the submitted plans have no result yet: if their tasks have ended, run the same tilekit run … {f_executor} slurm again to run exactly those",
            c.missing, f_executor = Field::Executor
        ));
    }
    Ok(c)
}

/// Collect a Slurm campaign's results: merge the work directory's shards, then
/// cross-check.
pub fn collect_run(
    req: &RunRequest,
    opts: &SlurmOptions,
) -> Result<(cells::RunSummary, Collected), Error> {
    let m = Manifest::read(&req.manifest)?;
    let work = work_dir(req, opts);
    let mut db = Db::open_writer(&req.db)?;
    let c = collect(&mut db, &m, &work)?;
    let conflicts = cells::cross_check(&mut db, &m)?;
    Ok((
        cells::RunSummary {
            cells: c.stored + c.missing,
            ran: c.stored,
            done_before: 0,
            errors: c.errors,
            conflict_count: conflicts.len(),
            conflicts,
            notes: c.notes.clone(),
            damaged: Vec::new(),
        },
        c,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_task_asks_for_the_time_and_memory_its_cells_need() {
        // Four cells of 60 s: 4 × (66 + 2 + 60) s = 512 s, so 9 minutes.
        assert_eq!(resource_lines(4, 60.0, None), "#SBATCH --time=9\n");
        assert_eq!(
            resource_lines(1, 1.0, Some(2_000_000_000)),
            "#SBATCH --time=2\n#SBATCH --mem=2512M\n"
        );
    }
}
