//! NEOS as a remote MILP executor behind the same trait as a local solver: [`NeosMilp`]
//! implements [`MilpSolver`], so the generic MILP route (`route::milp::run` and `judge`)
//! sends any formulation's model to NEOS and decodes and verifies the answer exactly as it
//! does a local run's.
//!
//! One [`MilpSolver::solve`] call writes the model in the job's input method (LP through
//! [`lp::write_lp`], MPS through [`mps::write_mps`], GAMS from the algebraic model the caller
//! supplied with [`NeosMilp::with_algebraic`]: a GAMS job carries the formulation's algebraic
//! model, which the scalar [`Model`] cannot give back), wraps it in a job document
//! ([`neos_job`]), submits it and records the job in the job file, waits for it, fetches its
//! output and parses the solution out of it ([`jobs::parse_results`]).
//!
//! # Limits on a remote run
//!
//! * [`Limits::time`] is the solver's limit on the remote machine. A GAMS job carries it as
//!   `reslim` and [`Limits::threads`] as `threads` (the algebraic model is written from the
//!   limits of the run). An LP or MPS job has no field tilekit can put a limit in: NEOS's own
//!   queue limits apply (5 minutes for `short` jobs). [`Solver::capabilities`] says which.
//! * How long `solve` waits is the executor's own setting ([`WaitOptions::max_wait`], polled
//!   every [`WaitOptions::poll`]), since a job may sit in NEOS's queue before its solver's
//!   limit starts to run. When the wait runs out, `solve` fails with
//!   [`NeosError::NotDone`]: the job goes on running on NEOS and stays in the job file, so
//!   that `tilekit neos results JOB` fetches it later. Nothing is killed.

use super::NeosError;
use super::client::Client;
use super::jobs::{self, InstanceRef, JobRecord, JobStore, WaitOptions};
use crate::field::Field;
use crate::format::neos_job::{self, InputMethod, JobSpec, Priority};
use crate::format::{lp, mps};
use crate::model::answer::MilpSolution;
use crate::model::milp::Model;
use crate::solve::{Capabilities, Limits, MilpSolver, SolveError, Solver};
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

/// What a job says besides its model: where it goes, who sends it, and what it was built
/// from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobSettings {
    /// NEOS category, e.g. `milp`.
    pub category: String,
    /// NEOS solver as NEOS spells it (`Cbc`, `CPLEX`, …).
    pub solver: String,
    /// How the model travels: LP, MPS or GAMS.
    pub input: InputMethod,
    /// Queue priority.
    pub priority: Priority,
    /// The submitter's e-mail address (NEOS requires one).
    pub email: String,
    /// Free text for the job's `<comments>`.
    pub comments: String,
    /// The instance, recorded in the job file so that `results` can decode and verify.
    pub instance: Option<InstanceRef>,
}

impl JobSettings {
    /// The name reports give the executor: `neos:CATEGORY:SOLVER:INPUT`.
    pub fn label(&self) -> String {
        format!(
            "neos:{}:{}:{}",
            self.category,
            self.solver,
            self.input.neos_name()
        )
    }
}

/// Writes a GAMS job's algebraic model under the limits of the run (`reslim`, `threads`), or
/// says why it cannot.
pub type AlgebraicModel = Box<dyn Fn(&Limits) -> Result<String, String> + Send + Sync>;

/// The model text of a job: `model` written as LP or MPS, or, for GAMS input, the algebraic
/// model written by `algebraic` under `limits`.
pub fn model_text(
    settings: &JobSettings,
    model: &Model,
    algebraic: Option<&AlgebraicModel>,
    limits: &Limits,
) -> Result<String, NeosError> {
    let mut buf = Vec::new();
    let written = match settings.input {
        InputMethod::Lp => lp::write_lp(model, &mut buf).map_err(|e| e.to_string()),
        InputMethod::Mps => mps::write_mps(model, &mut buf).map_err(|e| e.to_string()),
        InputMethod::Gams => {
            let write = algebraic.ok_or_else(|| {
                NeosError::Usage(format!(
                    "a GAMS job carries the algebraic model, and none was given: use {} mps or lp",
                    Field::NeosInput
                ))
            })?;
            return write(limits).map_err(NeosError::Usage);
        }
    };
    written.map_err(|e| NeosError::Usage(format!("cannot write the model: {e}")))?;
    String::from_utf8(buf).map_err(|e| NeosError::Usage(e.to_string()))
}

/// The job document (its content and its XML) for `model` under `settings`.
pub fn job_document(
    settings: &JobSettings,
    model: &Model,
    algebraic: Option<&AlgebraicModel>,
    limits: &Limits,
) -> Result<(JobSpec, String), NeosError> {
    let spec = JobSpec {
        category: settings.category.clone(),
        solver: settings.solver.clone(),
        input: settings.input,
        priority: settings.priority,
        email: settings.email.clone(),
        model: model_text(settings, model, algebraic, limits)?,
        comments: settings.comments.clone(),
    };
    let xml = neos_job::job_to_string(&spec)?;
    Ok((spec, xml))
}

fn silent(_: &str) {}

/// NEOS as a [`MilpSolver`]: one `solve` is one job, submitted, recorded in the job file,
/// waited for, fetched and parsed (the module documentation says what the limits mean).
pub struct NeosMilp<'p> {
    client: Client,
    store: PathBuf,
    settings: JobSettings,
    wait: WaitOptions,
    algebraic: Option<AlgebraicModel>,
    progress: &'p (dyn Fn(&str) + Sync),
    reveal_password: bool,
    name: String,
    last: Mutex<Option<JobRecord>>,
}

impl<'p> NeosMilp<'p> {
    /// An executor that sends jobs through `client` and records them in the job file at
    /// `store`. It waits up to 600 s, polling every 5 s, without following the output, and
    /// says nothing until given [`NeosMilp::with_progress`].
    pub fn new(client: Client, store: PathBuf, settings: JobSettings) -> Self {
        let name = settings.label();
        NeosMilp {
            client,
            store,
            settings,
            wait: WaitOptions {
                max_wait: Duration::from_secs(600),
                poll: Duration::from_secs(5),
                follow: false,
            },
            algebraic: None,
            progress: &silent,
            reveal_password: false,
            name,
            last: Mutex::new(None),
        }
    }

    /// How long to wait for a job, how often to ask, and whether to stream its output.
    pub fn with_wait(mut self, wait: WaitOptions) -> Self {
        self.wait = wait;
        self
    }

    /// The algebraic model a GAMS job carries, written under the limits of each run.
    pub fn with_algebraic(mut self, write: AlgebraicModel) -> Self {
        self.algebraic = Some(write);
        self
    }

    /// Where progress lines go: `submitted job …`, status changes, the streamed output
    /// (with `follow`), `fetched … bytes of output`.
    pub fn with_progress(mut self, progress: &'p (dyn Fn(&str) + Sync)) -> Self {
        self.progress = progress;
        self
    }

    /// Show the job password in the `submitted job …` progress line.
    pub fn reveal_password(mut self, reveal: bool) -> Self {
        self.reveal_password = reveal;
        self
    }

    /// The job settings.
    pub fn settings(&self) -> &JobSettings {
        &self.settings
    }

    /// The server's endpoint.
    pub fn server(&self) -> &str {
        self.client.url()
    }

    /// The job file the executor records its jobs in.
    pub fn job_file(&self) -> &std::path::Path {
        &self.store
    }

    /// The job document `model` becomes under `limits`, without sending it.
    pub fn document(&self, model: &Model, limits: &Limits) -> Result<(JobSpec, String), NeosError> {
        job_document(&self.settings, model, self.algebraic.as_ref(), limits)
    }

    /// Submit `model` as a job and record it in the job file, without waiting for it.
    pub fn submit(&self, model: &Model, limits: &Limits) -> Result<JobRecord, NeosError> {
        let (spec, xml) = self.document(model, limits)?;
        let mut store = JobStore::open(&self.store)?;
        let rec = jobs::submit(
            &self.client,
            &mut store,
            &spec,
            &xml,
            self.settings.instance.clone(),
        )?;
        let pw = if self.reveal_password {
            format!(" password {}", rec.password)
        } else {
            String::new()
        };
        (self.progress)(&format!(
            "submitted job {}{pw} ({}) to {}",
            rec.number,
            rec.solver_label(),
            self.client.url()
        ));
        if let Ok(mut last) = self.last.lock() {
            *last = Some(rec.clone());
        }
        Ok(rec)
    }

    /// Wait for a submitted job, fetch its output and parse the solution out of it.
    pub fn collect(&self, rec: &JobRecord) -> Result<MilpSolution, NeosError> {
        jobs::wait_done(&self.client, rec, &self.wait, &mut |m| (self.progress)(m))?;
        let output = jobs::fetch(&self.client, rec)?;
        (self.progress)(&format!("fetched {} bytes of output", output.len()));
        jobs::parse_results(&output, rec.input, rec.number)
    }

    /// The last job this executor submitted.
    pub fn last_job(&self) -> Option<JobRecord> {
        self.last.lock().ok().and_then(|l| l.clone())
    }

    fn run(&self, model: &Model, limits: &Limits) -> Result<MilpSolution, NeosError> {
        let rec = self.submit(model, limits)?;
        if self.settings.input == InputMethod::Gams && self.wait.max_wait < limits.time {
            (self.progress)(&format!(
                "waiting at most {:.0} s for job {}, less than its solver's limit of {:.0} s",
                self.wait.max_wait.as_secs_f64(),
                rec.number,
                limits.time.as_secs_f64()
            ));
        }
        self.collect(&rec)
    }
}

impl Solver for NeosMilp<'_> {
    fn name(&self) -> &str {
        &self.name
    }
    /// A GAMS job carries the time limit and the thread count in its model; an LP or MPS job
    /// carries neither. Nothing runs here, and NEOS writes no proofs.
    fn capabilities(&self) -> Capabilities {
        let gams = self.settings.input == InputMethod::Gams;
        Capabilities {
            time_limit: gams,
            threads: gams,
            proofs: false,
            embedded: false,
        }
    }
    /// The wait setting: a job may queue before its solver's limit starts.
    fn wait_bound(&self, _limits: &Limits) -> Duration {
        self.wait.max_wait
    }
}

impl MilpSolver for NeosMilp<'_> {
    /// Submit, record, wait, fetch and parse. A NEOS failure (the server, the job, its
    /// output, a wait that ran out) is [`SolveError::Remote`] holding the [`NeosError`].
    fn solve(&self, model: &Model, limits: &Limits) -> Result<MilpSolution, SolveError> {
        self.run(model, limits)
            .map_err(|e| SolveError::Remote(Box::new(e)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::milp::{Model, ObjSense, Sense, VarKind};
    use crate::neos::client::ClientOptions;

    fn model() -> Model {
        let mut m = Model::new("tiny");
        let x = m.add_var("x", VarKind::Binary, 0.0, 1.0).unwrap();
        let y = m.add_var("y", VarKind::Binary, 0.0, 1.0).unwrap();
        m.add_row("cover", &[(x, 1.0), (y, 1.0)], Sense::Ge, 1.0)
            .unwrap();
        m.set_objective("obj", ObjSense::Minimize, &[(x, 1.0), (y, 1.0)])
            .unwrap();
        m
    }

    fn settings(input: InputMethod) -> JobSettings {
        JobSettings {
            category: "milp".into(),
            solver: "Cbc".into(),
            input,
            priority: Priority::Short,
            email: "tester@example.org".into(),
            comments: "tilekit unit test".into(),
            instance: None,
        }
    }

    fn limits() -> Limits {
        Limits::new(Duration::from_secs(42), 2)
    }

    /// A port nothing listens on.
    fn closed_port() -> String {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        format!("http://127.0.0.1:{port}")
    }

    fn client(url: &str) -> Client {
        Client::new(
            url,
            ClientOptions {
                timeout: Duration::from_secs(2),
                retries: 0,
                backoff: Duration::ZERO,
                credentials: None,
            },
        )
        .unwrap()
    }

    #[test]
    fn documents_carry_the_model_in_the_input_method() {
        let m = model();
        let (spec, xml) = job_document(&settings(InputMethod::Lp), &m, None, &limits()).unwrap();
        assert!(spec.model.contains("Subject To"), "{}", spec.model);
        assert!(xml.contains("<LP><![CDATA["), "{xml}");
        let (spec, _) = job_document(&settings(InputMethod::Mps), &m, None, &limits()).unwrap();
        assert!(spec.model.contains("\nROWS"), "{}", spec.model);
        assert_eq!(spec.comments, "tilekit unit test");
        // GAMS: the algebraic model, written under the run's limits.
        let write: AlgebraicModel = Box::new(|l: &Limits| {
            Ok(format!(
                "reslim = {}, threads = {}",
                l.time.as_secs(),
                l.threads
            ))
        });
        let (spec, xml) =
            job_document(&settings(InputMethod::Gams), &m, Some(&write), &limits()).unwrap();
        assert_eq!(spec.model, "reslim = 42, threads = 2");
        assert!(xml.contains("<wantlog><![CDATA[yes]]></wantlog>"), "{xml}");
        // No algebraic model: a usage error, not a guess.
        let e = job_document(&settings(InputMethod::Gams), &m, None, &limits()).unwrap_err();
        assert_eq!(e.exit_code(), 2);
        assert!(e.to_string().contains("algebraic model"), "{e}");
        // The writer's refusal is the message.
        let refuse: AlgebraicModel = Box::new(|_| Err("no GAMS writer for flow".into()));
        let e =
            job_document(&settings(InputMethod::Gams), &m, Some(&refuse), &limits()).unwrap_err();
        assert_eq!(e.to_string(), "no GAMS writer for flow");
        // A bad e-mail address is refused before anything is sent.
        let mut s = settings(InputMethod::Mps);
        s.email = "nobody".into();
        assert_eq!(
            job_document(&s, &m, None, &limits())
                .unwrap_err()
                .exit_code(),
            2
        );
    }

    #[test]
    fn name_and_capabilities_follow_the_input_method() {
        let url = closed_port();
        let dir = tempfile::tempdir().unwrap();
        let jobs = dir.path().join("jobs.json");
        let mps = NeosMilp::new(client(&url), jobs.clone(), settings(InputMethod::Mps));
        assert_eq!(mps.name(), "neos:milp:Cbc:MPS");
        assert_eq!(
            mps.capabilities(),
            Capabilities {
                time_limit: false,
                threads: false,
                proofs: false,
                embedded: false
            }
        );
        let gams =
            NeosMilp::new(client(&url), jobs, settings(InputMethod::Gams)).with_wait(WaitOptions {
                max_wait: Duration::from_secs(7),
                poll: Duration::from_secs(1),
                follow: false,
            });
        assert_eq!(gams.name(), "neos:milp:Cbc:GAMS");
        assert!(gams.capabilities().time_limit && gams.capabilities().threads);
        assert_eq!(gams.wait_bound(&limits()), Duration::from_secs(7));
    }

    #[test]
    fn a_failed_submission_is_a_remote_solve_error_and_records_nothing() {
        let url = closed_port();
        let dir = tempfile::tempdir().unwrap();
        let jobs = dir.path().join("jobs.json");
        let lines = Mutex::new(Vec::<String>::new());
        let say = |m: &str| lines.lock().unwrap().push(m.to_string());
        let neos = NeosMilp::new(client(&url), jobs.clone(), settings(InputMethod::Mps))
            .with_progress(&say);
        let e = neos.solve(&model(), &limits()).unwrap_err();
        let SolveError::Remote(inner) = e else {
            panic!("not a remote error: {e}");
        };
        let neos_err = inner.downcast::<NeosError>().expect("a NeosError inside");
        assert!(
            matches!(*neos_err, NeosError::Connect { attempts: 1, .. }),
            "{neos_err}"
        );
        assert!(neos.last_job().is_none());
        assert!(lines.lock().unwrap().is_empty());
        assert!(
            !jobs.exists(),
            "nothing was submitted, so nothing was recorded"
        );
    }
}
