//! `tilekit neos …`: list solvers, submit jobs, follow them, fetch and verify their results.
//!
//! Exit codes as for the rest of the CLI: 0 success, 1 the answer is "no" (no verified
//! plan: infeasible at this horizon, no solution), 2 usage or input error (including an
//! unknown job or a bad password), 3 server or system failure.

use tilekit::format::neos_job::{self, InputMethod, Priority};
use tilekit::formulate::edge_milp::EdgeMilpOptions;
use tilekit::neos::NeosError;
use tilekit::neos::client::{Client, ClientOptions, JobStatus};
use tilekit::neos::jobs::{self, JobRecord, JobStore, WaitOptions};
use tilekit::route::neos::{self as route_neos, JobRequest, ModelRequest, NeosInstance};
use tilekit::route::{Error, Report};
use tilekit::solve::Limits;

use crate::args::{ModelOpts, NeosCmd, NeosOpts, PriorityArg};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The result of a subcommand: its exit code and what to print on stdout.
#[derive(Debug, Clone)]
pub(crate) struct NeosOutcome {
    /// 0 ok, 1 the answer is "no".
    pub code: i32,
    /// Text for stdout (already formatted as text or JSON).
    pub stdout: String,
}

impl NeosOutcome {
    fn text(stdout: String) -> Self {
        NeosOutcome { code: 0, stdout }
    }
}

/// Run a subcommand: print its output and return the exit code (0 ok, 1 "no" answer).
/// Errors map to exit codes through [`Error::exit_code`].
pub(crate) fn run(cmd: NeosCmd) -> Result<i32, Error> {
    let out = execute(cmd, &|msg| crate::note(msg))?;
    if !out.stdout.is_empty() {
        crate::say(out.stdout.trim_end())?;
    }
    Ok(out.code)
}

/// Run a subcommand without printing: progress lines go to `progress`.
pub(crate) fn execute(
    cmd: NeosCmd,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<NeosOutcome, Error> {
    execute_inner(cmd, progress)
}

/// `--email`, else `NEOS_EMAIL` (`env`), checked.
pub(crate) fn resolve_email(flag: Option<&str>, env: Option<String>) -> Result<String, NeosError> {
    let email = flag
        .map(str::to_string)
        .or(env)
        .map(|e| e.trim().to_string())
        .unwrap_or_default();
    neos_job::check_email(&email)?;
    Ok(email)
}

fn secs(name: &str, v: f64) -> Result<Duration, NeosError> {
    tilekit::route::seconds(format!("--{name}"), v).map_err(|e| NeosError::Usage(e.to_string()))
}

fn client_of(o: &NeosOpts) -> Result<Client, NeosError> {
    let backoff = if o.backoff == 0.0 {
        Duration::ZERO
    } else {
        secs("backoff", o.backoff)?
    };
    Client::new(
        &o.server,
        ClientOptions {
            timeout: secs("timeout", o.timeout)?,
            retries: o.retries.min(10),
            backoff,
            credentials: tilekit::neos::client::Credentials::from_env()?,
        },
    )
}

fn jobs_path(o: &NeosOpts) -> Result<PathBuf, NeosError> {
    match &o.jobs_file {
        Some(p) => Ok(p.clone()),
        None => JobStore::default_path(),
    }
}

fn store_of(o: &NeosOpts) -> Result<JobStore, NeosError> {
    JobStore::open(&jobs_path(o)?)
}

/// The job's record: from the job file, or made from `--password`.
fn record_of(
    store: &JobStore,
    o: &NeosOpts,
    job: i64,
    password: Option<String>,
) -> Result<JobRecord, NeosError> {
    if let Some(pw) = password {
        let mut rec = store
            .get(job, o.server.trim())
            .cloned()
            .unwrap_or(JobRecord {
                number: job,
                password: String::new(),
                server: o.server.trim().to_string(),
                category: "?".into(),
                solver: "?".into(),
                input: InputMethod::Mps,
                submitted: 0,
                instance: None,
            });
        rec.password = pw;
        return Ok(rec);
    }
    store.get(job, o.server.trim()).cloned().ok_or_else(|| {
        NeosError::Usage(format!(
            "job {job} for {} is not in the job file {}: pass --password PW",
            o.server.trim(),
            store.path().display()
        ))
    })
}

/// The instance and model of a job, checked by the library.
fn instance_of(instance: &Path, m: &ModelOpts) -> Result<NeosInstance, Error> {
    NeosInstance::of(
        &tilekit::route::families::read(instance, m.family)?,
        &ModelRequest {
            model: m.model,
            horizon: m.horizon,
            goal: m.goal.into(),
            edge: EdgeMilpOptions {
                filter_feasible: m.filter,
                fix_first_corner: m.fix_corner,
            },
        },
    )
}

/// Where the job goes and who sends it.
fn job_of(m: &ModelOpts, email: String) -> JobRequest {
    JobRequest {
        category: m.category.clone(),
        solver: route_neos::neos_solver_name(&m.solver),
        input: m.input.into(),
        priority: match m.priority {
            Some(PriorityArg::Short) => Priority::Short,
            Some(PriorityArg::Long) => Priority::Long,
            None => Priority::for_limit(Duration::from_secs_f64(m.time_limit.max(0.0))),
        },
        email,
    }
}

/// The limits of a remote run: `--time-limit` for the remote solver, one thread. A short
/// job runs at most 5 minutes on NEOS, so a longer limit asks for the long queue.
fn limits_of(m: &ModelOpts) -> Result<Limits, NeosError> {
    let limit = secs("time-limit", m.time_limit)?;
    if m.priority == Some(PriorityArg::Short) && limit > Priority::SHORT_LIMIT {
        return Err(NeosError::Usage(format!(
            "--priority short jobs run at most {} s on NEOS: use --priority long (the default above it) for --time-limit {}",
            Priority::SHORT_LIMIT.as_secs(),
            m.time_limit
        )));
    }
    Ok(Limits::new(limit, 1))
}

/// Format a report exactly as `tilekit solve` prints it.
pub(crate) fn format_report(rep: &Report, json: bool) -> String {
    rep.render(json)
}

fn report_outcome(rep: Report, json: bool) -> NeosOutcome {
    NeosOutcome {
        code: i32::from(rep.exit_code()),
        stdout: format_report(&rep, json),
    }
}

fn record_line(rec: &JobRecord, show_password: bool) -> String {
    if show_password {
        format!(
            "job {} password {} ({})",
            rec.number,
            rec.password,
            rec.solver_label()
        )
    } else {
        format!("job {} ({})", rec.number, rec.solver_label())
    }
}

fn execute_inner(cmd: NeosCmd, progress: &(dyn Fn(&str) + Sync)) -> Result<NeosOutcome, Error> {
    match cmd {
        NeosCmd::Ping(crate::args::NeosPingArgs { opts }) => {
            let c = client_of(&opts)?;
            let s = c.ping()?;
            Ok(NeosOutcome::text(if opts.json {
                serde_json::json!({"server": c.url(), "reply": s.trim()}).to_string()
            } else {
                s.trim().to_string()
            }))
        }
        NeosCmd::Queue(crate::args::NeosPingArgs { opts }) => {
            let c = client_of(&opts)?;
            let q = c.print_queue()?;
            Ok(NeosOutcome::text(if opts.json {
                serde_json::json!({"server": c.url(), "queue": q}).to_string()
            } else {
                q.trim_end().to_string()
            }))
        }
        NeosCmd::Solvers(crate::args::NeosSolversArgs { category, opts }) => {
            let c = client_of(&opts)?;
            let list = match &category {
                Some(cat) => c.list_solvers_in_category(cat)?,
                None => c.list_all_solvers()?,
            };
            Ok(NeosOutcome::text(if opts.json {
                serde_json::to_string(&list).unwrap_or_default()
            } else {
                list.join("\n")
            }))
        }
        NeosCmd::Submit(crate::args::NeosSubmitArgs {
            job_or_instance,
            model,
            opts,
        }) => {
            let email_env = std::env::var("NEOS_EMAIL").ok();
            let is_xml = job_or_instance
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("xml"));
            let rec = if is_xml {
                let xml = std::fs::read_to_string(&job_or_instance).map_err(|e| {
                    NeosError::Usage(format!("{}: cannot read: {e}", job_or_instance.display()))
                })?;
                let spec = neos_job::parse_job(&xml)
                    .map_err(|e| NeosError::Usage(format!("{}: {e}", job_or_instance.display())))?;
                neos_job::check_email(&spec.email).map_err(NeosError::from)?;
                if model.dry_run {
                    return Ok(NeosOutcome::text(xml));
                }
                let c = client_of(&opts)?;
                let mut store = store_of(&opts)?;
                jobs::submit(&c, &mut store, &spec, &xml, None)?
            } else {
                let email = resolve_email(opts.email.as_deref(), email_env)?;
                let inst = instance_of(&job_or_instance, &model)?;
                let path = job_or_instance.display().to_string();
                let job = job_of(&model, email);
                let limits = limits_of(&model)?;
                if model.dry_run {
                    return Ok(NeosOutcome::text(route_neos::job_text(
                        &inst, &path, &job, &limits,
                    )?));
                }
                let neos =
                    route_neos::executor(&inst, &path, &job, client_of(&opts)?, jobs_path(&opts)?)?;
                route_neos::submit(&inst, &neos, &limits)?
            };
            Ok(NeosOutcome::text(if opts.json {
                rec.to_json(opts.show_password).to_string()
            } else {
                format!(
                    "submitted {}; recorded in {}",
                    record_line(&rec, opts.show_password),
                    jobs_path(&opts)?.display()
                )
            }))
        }
        NeosCmd::Status(crate::args::NeosStatusArgs {
            job: crate::args::JobRef { job, password },
            opts,
        }) => {
            let c = client_of(&opts)?;
            let store = store_of(&opts)?;
            let rec = record_of(&store, &opts, job, password)?;
            let st = c.get_job_status(rec.number, &rec.password)?;
            Ok(NeosOutcome::text(if opts.json {
                serde_json::json!({"job": job, "status": st.as_str()}).to_string()
            } else {
                format!("job {job}: {}", st.as_str())
            }))
        }
        NeosCmd::Kill(crate::args::NeosKillArgs {
            job: crate::args::JobRef { job, password },
            opts,
        }) => {
            let c = client_of(&opts)?;
            let store = store_of(&opts)?;
            let rec = record_of(&store, &opts, job, password)?;
            let reply = c.kill_job(rec.number, &rec.password)?;
            Ok(NeosOutcome::text(if opts.json {
                serde_json::json!({"job": job, "reply": reply.trim()}).to_string()
            } else {
                format!("job {job}: {}", reply.trim())
            }))
        }
        NeosCmd::Results(crate::args::NeosResultsArgs {
            job: crate::args::JobRef { job, password },
            wait,
            poll,
            raw,
            opts,
        }) => {
            let started = Instant::now();
            let c = client_of(&opts)?;
            let store = store_of(&opts)?;
            let rec = record_of(&store, &opts, job, password)?;
            let max_wait = match wait {
                Some(w) => secs("wait", w)?,
                None => Duration::ZERO,
            };
            if max_wait.is_zero() {
                let st = c.get_job_status(rec.number, &rec.password)?;
                if st != JobStatus::Done {
                    return Err(NeosError::NotDone {
                        job,
                        status: st.as_str().into(),
                        secs: 0.0,
                    }
                    .into());
                }
            } else {
                let w = WaitOptions {
                    max_wait,
                    poll: secs("poll", poll)?,
                    follow: false,
                };
                jobs::wait_done(&c, &rec, &w, &mut |m| progress(m))?;
            }
            let output = jobs::fetch(&c, &rec)?;
            if rec.instance.is_some() && !raw {
                let rep = route_neos::judge_results(&rec, &output, started)?;
                Ok(report_outcome(rep, opts.json))
            } else {
                Ok(NeosOutcome::text(output))
            }
        }
        NeosCmd::Solve(crate::args::NeosSolveArgs {
            instance,
            model,
            wait,
            poll,
            follow,
            output,
            opts,
        }) => {
            // An output that cannot be written (or would replace the instance) is found
            // before the job is sent.
            if let Some(path) = &output {
                tilekit::route::output::check_writable(path)?;
            }
            let email = resolve_email(opts.email.as_deref(), std::env::var("NEOS_EMAIL").ok())?;
            let inst = instance_of(&instance, &model)?;
            let path = instance.display().to_string();
            let job = job_of(&model, email);
            let limits = limits_of(&model)?;
            if model.dry_run {
                return Ok(NeosOutcome::text(route_neos::job_text(
                    &inst, &path, &job, &limits,
                )?));
            }
            let w = WaitOptions {
                max_wait: secs("wait", wait)?,
                poll: secs("poll", poll)?,
                follow,
            };
            let neos =
                route_neos::executor(&inst, &path, &job, client_of(&opts)?, jobs_path(&opts)?)?
                    .with_wait(w)
                    .with_progress(progress)
                    .reveal_password(opts.show_password);
            let rep = inst.solve(&neos, &limits, progress)?;
            if let (Some(path), Some(text)) = (&output, inst.solution_text(&rep)) {
                tilekit::route::output::write_to(Some(path), text.as_bytes())?;
            }
            Ok(report_outcome(rep, opts.json))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn email_comes_from_the_flag_then_the_environment() {
        // As `main` does: the library's messages name the flags.
        tilekit::field::name_fields_by(crate::args::flags::flag);
        assert_eq!(
            resolve_email(Some("a@b.org"), Some("c@d.org".into())).unwrap(),
            "a@b.org"
        );
        assert_eq!(
            resolve_email(None, Some(" c@d.org ".into())).unwrap(),
            "c@d.org"
        );
        let e = resolve_email(None, None).unwrap_err();
        assert_eq!(e.exit_code(), 2);
        assert!(
            e.to_string().contains("--email ADDRESS or set NEOS_EMAIL"),
            "{e}"
        );
    }

    #[test]
    fn solver_names_follow_neos_spelling() {
        assert_eq!(route_neos::neos_solver_name("cbc"), "Cbc");
        assert_eq!(route_neos::neos_solver_name("CPLEX"), "CPLEX");
        assert_eq!(route_neos::neos_solver_name("Bonmin"), "Bonmin");
    }
}
