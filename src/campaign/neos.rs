//! The NEOS executor of `tilekit run`: every MILP file of the manifest (LP, MPS or GAMS) is
//! sent to NEOS as one job through the existing client ([`crate::route::neos`]), each job's
//! number recorded in the database (`remote_jobs`; its password stays in the owner-only job
//! file) the moment it is accepted. Submissions are spaced by `interval`, and a cell that
//! already has a job is never sent again: a re-run (or a run with `no_wait` followed by a
//! re-run) fetches the recorded jobs and judges their answers exactly as a local run judges
//! one, against the model rebuilt from the manifest's instance.

use super::cells::{self, RunRequest, RunSummary};
use super::db::{CellKey, RunOrigin, RunRow};
use super::manifest::{FileEntry, Manifest};
use crate::field::Field;
use crate::format::neos_job::{InputMethod, Priority};
use crate::formulate::edge_milp::EdgeMilpOptions;
use crate::neos::client::{Client, ClientOptions};
use crate::neos::jobs::{JobStore, WaitOptions};
use crate::puzzle::edge::EdgePuzzle;
use crate::puzzle::sliding::{Goal, SlidingPuzzle};
use crate::route::neos::{self as route_neos, JobRequest, NeosInstance};
use crate::route::{Error, ModelName, Progress};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The options of the NEOS executor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NeosOptions {
    /// The NEOS solver (default cbc), as `tilekit neos` takes it.
    pub solver: String,
    /// The NEOS server.
    pub server: String,
    /// The e-mail address NEOS requires (else `$NEOS_EMAIL`).
    pub email: Option<String>,
    /// The least time between two submissions.
    pub interval: Duration,
    /// Submit and return; a re-run fetches.
    pub no_wait: bool,
    /// Where job passwords are kept (default: the database's path +
    /// `.neos-jobs.json`).
    pub job_file: Option<PathBuf>,
    /// The longest wait for one job.
    pub max_wait: Duration,
}

/// The most jobs a campaign has out on NEOS at once: NEOS asks its users to submit no more
/// than 10 to 15 at a time.
pub const MAX_OUTSTANDING: usize = 10;

/// The database key of a NEOS cell.
fn key<'a>(f: &'a FileEntry, solver: &'a str, time_limit: f64, threads: u32) -> CellKey<'a> {
    CellKey {
        file_sha256: &f.sha256,
        solver,
        time_limit,
        threads,
    }
}

/// The NEOS label of a cell's solver: `neos:milp:Cbc:LP`.
fn label(solver: &str, input: InputMethod) -> String {
    format!("neos:milp:{solver}:{}", input.neos_name())
}

/// The job of one manifest file: its instance and MILP as NEOS gets them.
fn instance(base: &std::path::Path, m: &Manifest, f: &FileEntry) -> Result<NeosInstance, Error> {
    let inst = m
        .instances
        .iter()
        .find(|i| i.id == f.instance)
        .ok_or_else(|| Error::usage("the file's instance is not in the manifest"))?;
    let path = base.join(&inst.path);
    let text = crate::route::read_text(&path, "instance")?;
    let source = path.display().to_string();
    let model = ModelName::from_name(&f.model)
        .ok_or_else(|| Error::Usage(format!("unknown model {:?}", f.model)))?;
    match inst.family.as_str() {
        "sliding" => {
            let goal = inst
                .goal
                .as_deref()
                .and_then(Goal::parse)
                .unwrap_or_default();
            let p = SlidingPuzzle::parse(&text, &source, goal)?;
            NeosInstance::sliding(p, goal, Some(model), f.horizon.map(|t| t as usize))
        }
        _ => NeosInstance::edge(
            EdgePuzzle::parse(&text, &source)?,
            Some(model),
            EdgeMilpOptions {
                filter_feasible: m.options.filter,
                fix_first_corner: m.options.fix_corner,
            },
        ),
    }
}

/// Run the MILP files of the manifest on NEOS.
pub fn run(
    req: &RunRequest,
    opts: &NeosOptions,
    progress: Progress<'_>,
) -> Result<RunSummary, Error> {
    let m = Manifest::read(&req.manifest)?;
    let base = cells::base_dir(&req.manifest);
    let solver = route_neos::neos_solver_name(&opts.solver);
    let email = opts
        .email
        .clone()
        .or_else(|| std::env::var("NEOS_EMAIL").ok())
        .map(|e| e.trim().to_string())
        .unwrap_or_default();
    crate::format::neos_job::check_email(&email).map_err(|e| Error::Usage(e.to_string()))?;
    // The MILP files, each one cell.
    let cells: Vec<(&FileEntry, InputMethod)> = m
        .files
        .iter()
        .filter(|f| f.compressed.is_none())
        .filter_map(|f| match f.format.as_str() {
            "lp" => Some((f, InputMethod::Lp)),
            "mps" => Some((f, InputMethod::Mps)),
            // The algebraic model, whose GAMS program prints its own solution: readable
            // whichever NEOS solver runs it (CPLEX, Gurobi, SCIP, ...), where an LP or MPS
            // job's output is CBC's listing.
            "gms" => Some((f, InputMethod::Gams)),
            _ => None,
        })
        .collect();
    if cells.is_empty() {
        return Err(Error::Usage(format!(
            "{}: no uncompressed LP, MPS or GAMS file: NEOS gets MILPs only",
            req.manifest.display()
        )));
    }
    // What tilekit reads out of an LP or MPS job is CBC's solution listing; any other solver
    // gets the GAMS files, whose program prints the solution itself.
    let cbc = solver.eq_ignore_ascii_case("cbc");
    let cells: Vec<(&FileEntry, InputMethod)> = cells
        .into_iter()
        .filter(|(_, input)| cbc || *input == InputMethod::Gams)
        .collect();
    if cells.is_empty() {
        return Err(Error::Usage(format!(
            "{}: {solver} on NEOS answers in its own listing, which tilekit reads only from a GAMS job: export the set with {} gms (or use {} cbc for its LP and MPS files)",
            req.manifest.display(),
            Field::Formats,
            Field::NeosSolver
        )));
    }
    let mut db = super::db::Db::open_writer(&req.db)?;
    let tl = req.limits.time.as_secs_f64();
    let threads = req.limits.threads;
    let mut pending = Vec::new();
    let mut done_before = 0;
    for (f, input) in &cells {
        let name = label(&solver, *input);
        match db.status_of(&f.sha256, &name, tl, threads, 0)? {
            Some(s) if s != "error" || !req.retry_errors => done_before += 1,
            Some(_) => {
                // A job that failed is sent again, not fetched again.
                db.remove_remote_job(&key(f, &name, tl, threads))?;
                pending.push((*f, *input));
            }
            None => pending.push((*f, *input)),
        }
    }
    let mut checked: Vec<&str> = Vec::new();
    for (f, _) in &pending {
        if !checked.contains(&f.sha256.as_str()) {
            cells::check_file(&base, &m, f, &req.manifest)?;
            checked.push(&f.sha256);
        }
    }
    cells::record_files(&mut db, &m)?;
    // One client per job (a client holds its connection settings only), submitting under
    // the account in $NEOS_USERNAME and $NEOS_PASSWORD when they are set.
    let client_options = ClientOptions {
        credentials: crate::neos::client::Credentials::from_env()?,
        ..ClientOptions::default()
    };
    let client = || Client::new(&opts.server, client_options.clone());
    client()?;
    let job_file = opts.job_file.clone().unwrap_or_else(|| {
        let mut p = req.db.clone().into_os_string();
        p.push(".neos-jobs.json");
        PathBuf::from(p)
    });
    let wait = WaitOptions {
        max_wait: opts.max_wait,
        poll: Duration::from_secs(2),
        follow: false,
    };
    // NEOS's short queue runs a job for at most 5 minutes.
    let priority = Priority::for_limit(req.limits.time);
    let job_of = |input: InputMethod| JobRequest {
        category: "milp".into(),
        solver: solver.clone(),
        input,
        priority,
        email: email.clone(),
    };
    // The jobs already out (a run with no_wait, or one killed half-way, left them), oldest
    // first, then the cells still to send.
    let mut outstanding: std::collections::VecDeque<(&FileEntry, InputMethod)> =
        std::collections::VecDeque::new();
    let mut to_send = Vec::new();
    for &(f, input) in &pending {
        match db.remote_job(&key(f, &label(&solver, input), tl, threads))? {
            Some(_) => outstanding.push_back((f, input)),
            None => to_send.push((f, input)),
        }
    }
    let mut to_send = to_send.into_iter();
    let mut last: Option<Instant> = None;
    let (mut submitted, mut ran, mut errors) = (0u64, 0, 0);
    let mut notes = Vec::new();
    let store_of = || JobStore::open(&job_file);
    loop {
        // Send while fewer than MAX_OUTSTANDING jobs are out, spaced by the interval.
        while outstanding.len() < MAX_OUTSTANDING {
            let Some((f, input)) = to_send.next() else {
                break;
            };
            if let Some(t) = last {
                std::thread::sleep(opts.interval.saturating_sub(t.elapsed()));
            }
            let inst = instance(&base, &m, f)?;
            let neos =
                route_neos::executor(&inst, &f.path, &job_of(input), client()?, job_file.clone())?
                    .with_wait(wait.clone());
            let rec = route_neos::submit(&inst, &neos, &req.limits)?;
            last = Some(Instant::now());
            db.add_remote_job(
                &key(f, &label(&solver, input), tl, threads),
                &rec.server,
                rec.number,
                rec.submitted as i64,
            )?;
            submitted += 1;
            outstanding.push_back((f, input));
            progress(&crate::route::step(
                submitted,
                pending.len() as u64,
                &format!("NEOS job {} for {}", rec.number, f.path),
            ));
        }
        if opts.no_wait {
            break;
        }
        // Fetch the oldest job, which frees a place for the next.
        let Some((f, input)) = outstanding.pop_front() else {
            break;
        };
        let name = label(&solver, input);
        let Some((server, number)) = db.remote_job(&key(f, &name, tl, threads))? else {
            continue;
        };
        let Some(rec) = store_of()?.get(number, &server).cloned() else {
            notes.push(format!(
                "NEOS job {number} ({}) is not in the job file {}: its password is lost, so it cannot be fetched",
                f.path,
                job_file.display()
            ));
            continue;
        };
        let started = Instant::now();
        let inst = instance(&base, &m, f)?;
        let neos =
            route_neos::executor(&inst, &f.path, &job_of(input), client()?, job_file.clone())?
                .with_wait(wait.clone());
        let result = neos
            .collect(&rec)
            .map_err(Error::from)
            .and_then(|sol| inst.judge(&name, &sol));
        let origin = RunOrigin {
            solver: name.clone(),
            solver_version: None,
            command: format!("neos job {number} at {server}"),
            executor: "neos".into(),
            shard: Some(number.to_string()),
        };
        let row = RunRow::of(
            &f.sha256,
            origin,
            &req.limits,
            result,
            started.elapsed().as_secs_f64(),
        );
        if row.status == "error" {
            errors += 1;
        }
        if db.insert(&row, req.retry_errors)? {
            ran += 1;
        }
    }
    if opts.no_wait {
        let left = to_send.len();
        notes.push(format!(
            "{submitted} NEOS jobs submitted now ({} out at most at a time, as NEOS asks){}; run the same command again (without {}) to fetch and verify them",
            MAX_OUTSTANDING,
            if left > 0 {
                format!(", {left} cells left to send once those are fetched")
            } else {
                String::new()
            },
            Field::NoWait
        ));
    }
    let conflicts = cells::cross_check(&mut db, &m)?;
    Ok(RunSummary {
        cells: cells.len(),
        ran,
        done_before,
        errors,
        conflict_count: conflicts.len(),
        conflicts,
        notes,
        damaged: Vec::new(),
    })
}
