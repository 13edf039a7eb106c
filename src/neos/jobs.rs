//! NEOS jobs from end to end: the local job file (job numbers and passwords, owner-only, and
//! the instance each job was built from), submitting a job document, following a job until
//! it is done, and reading the solution back out of the job's output, for the MILP route to
//! decode and verify. [`super::remote::NeosMilp`] strings these together behind the MILP
//! solver trait.

use super::NeosError;
use super::client::{Client, JobStatus};
use crate::field::Field;
use crate::format::neos_job::{InputMethod, JobSpec};
use crate::format::solution::cbc;
use crate::format::{gams, gams_log};
use crate::model::answer::{ColumnValues, MilpSolution, Outcome};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The puzzle family of a job's instance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum JobFamily {
    /// A sliding-tile puzzle (job files written before edge jobs existed say nothing, and
    /// mean this).
    #[default]
    Sliding,
    /// An edge-matching puzzle.
    Edge,
}

/// The instance a job was built from, kept so that `results` can decode and verify. Job files
/// written before edge jobs existed (no `family`, no edge options) read as sliding jobs.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct InstanceRef {
    /// The puzzle family.
    #[serde(default)]
    pub family: JobFamily,
    /// The instance file as given.
    pub path: String,
    /// The instance itself, as text (the file may move or change): the board of a sliding
    /// puzzle, the pieces of an edge-matching puzzle.
    pub board: String,
    /// Sliding: `blank-last` or `blank-first` (empty for edge jobs).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub goal: String,
    /// Sliding: the horizon of the model sent (0 for edge jobs).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub horizon: usize,
    /// The formulation (`neos` or `flow` for sliding puzzles, `milp` for edge-matching).
    pub model: String,
    /// Edge: the MILP keeps only placements with grey exactly on the rim (`filter`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub filter: bool,
    /// Edge: the first corner piece is fixed in the top-left corner (`fix_corner`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub fix_corner: bool,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// One submitted job, as the job file keeps it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct JobRecord {
    /// NEOS job number.
    pub number: i64,
    /// NEOS job password (never printed unless asked for).
    pub password: String,
    /// The server the job went to.
    pub server: String,
    /// Category, e.g. `milp`.
    pub category: String,
    /// Solver, e.g. `Cbc`.
    pub solver: String,
    /// Input method.
    pub input: InputMethod,
    /// Submission time, seconds since the Unix epoch.
    pub submitted: u64,
    /// The instance, when tilekit built the model.
    #[serde(default)]
    pub instance: Option<InstanceRef>,
}

impl JobRecord {
    /// `category:solver:INPUT`.
    pub fn solver_label(&self) -> String {
        format!(
            "neos:{}:{}:{}",
            self.category,
            self.solver,
            self.input.neos_name()
        )
    }
    /// The record as JSON, the password replaced by `"***"` unless `show_password`.
    pub fn to_json(&self, show_password: bool) -> serde_json::Value {
        let mut v = serde_json::to_value(self).unwrap_or(serde_json::Value::Null);
        if !show_password && let Some(obj) = v.as_object_mut() {
            obj.insert("password".into(), serde_json::Value::String("***".into()));
        }
        v
    }
}

#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
struct JobFileBody {
    jobs: Vec<JobRecord>,
}

/// The local job file: `$XDG_STATE_HOME/tilekit/neos-jobs.json` (else
/// `~/.local/state/tilekit/neos-jobs.json`), readable by its owner only.
#[derive(Debug)]
pub struct JobStore {
    path: PathBuf,
    jobs: Vec<JobRecord>,
}

impl JobStore {
    /// The default location.
    pub fn default_path() -> Result<PathBuf, NeosError> {
        let state = std::env::var_os("XDG_STATE_HOME")
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
            .or_else(|| {
                std::env::var_os("HOME")
                    .map(PathBuf::from)
                    .filter(|p| p.is_absolute())
                    .map(|h| h.join(".local").join("state"))
            })
            .ok_or_else(|| {
                NeosError::Usage(format!(
                    "neither XDG_STATE_HOME nor HOME is set: pass {} PATH",
                    Field::JobsFile
                ))
            })?;
        Ok(state.join("tilekit").join("neos-jobs.json"))
    }

    /// Open the job file at `path` (an empty store when it does not exist yet).
    pub fn open(path: &Path) -> Result<Self, NeosError> {
        let err = |d: String| NeosError::BadJobFile {
            path: path.display().to_string(),
            detail: d,
        };
        let jobs = match std::fs::read_to_string(path) {
            Ok(text) if text.trim().is_empty() => Vec::new(),
            Ok(text) => {
                serde_json::from_str::<JobFileBody>(&text)
                    .map_err(|e| err(format!("not a tilekit job file: {e}")))?
                    .jobs
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(err(format!("cannot read: {e}"))),
        };
        Ok(JobStore {
            path: path.to_path_buf(),
            jobs,
        })
    }

    /// Where the store lives.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The job with this number on this server (the latest, if submitted twice).
    pub fn get(&self, number: i64, server: &str) -> Option<&JobRecord> {
        self.jobs
            .iter()
            .rev()
            .find(|j| j.number == number && j.server == server)
    }

    /// All jobs, oldest first.
    pub fn jobs(&self) -> &[JobRecord] {
        &self.jobs
    }

    /// Add a job and write the file.
    pub fn add(&mut self, rec: JobRecord) -> Result<(), NeosError> {
        self.jobs
            .retain(|j| !(j.number == rec.number && j.server == rec.server));
        self.jobs.push(rec);
        self.save()
    }

    /// Write the file atomically with mode 0600 (its directory 0700 when created).
    pub fn save(&self) -> Result<(), NeosError> {
        let err = |d: String| NeosError::JobFile {
            path: self.path.display().to_string(),
            detail: d,
        };
        let dir = self
            .path
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        create_private_dir(dir).map_err(|e| err(format!("cannot create its directory: {e}")))?;
        let body = serde_json::to_string_pretty(&JobFileBody {
            jobs: self.jobs.clone(),
        })
        .map_err(|e| err(e.to_string()))?;
        let tmp = dir.join(format!(
            ".{}.tmp{}",
            self.path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or("neos-jobs.json"),
            std::process::id()
        ));
        write_private(&tmp, body.as_bytes()).map_err(|e| err(format!("cannot write: {e}")))?;
        std::fs::rename(&tmp, &self.path).map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            err(format!("cannot replace: {e}"))
        })?;
        Ok(())
    }
}

#[cfg(unix)]
fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    if dir.is_dir() {
        return Ok(());
    }
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
}

#[cfg(not(unix))]
fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)
}

#[cfg(unix)]
fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)?;
    // The mode above applies only to a new file; make sure of it either way.
    f.set_permissions(std::fs::Permissions::from_mode(0o600))?;
    f.write_all(bytes)?;
    f.sync_all()
}

#[cfg(not(unix))]
fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    std::fs::write(path, bytes)
}

/// Submit a job document and record the job in `store`.
pub fn submit(
    client: &Client,
    store: &mut JobStore,
    spec: &JobSpec,
    xml: &str,
    instance: Option<InstanceRef>,
) -> Result<JobRecord, NeosError> {
    let (number, password) = client.submit_job(xml)?;
    let rec = JobRecord {
        number,
        password,
        server: client.url().to_string(),
        category: spec.category.clone(),
        solver: spec.solver.clone(),
        input: spec.input,
        submitted: std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0),
        instance,
    };
    store.add(rec.clone())?;
    Ok(rec)
}

/// How to wait for a job.
#[derive(Debug, Clone)]
pub struct WaitOptions {
    /// Give up after this long.
    pub max_wait: Duration,
    /// Pause between status polls.
    pub poll: Duration,
    /// Stream the solver's intermediate output (short-priority jobs) to the progress sink.
    pub follow: bool,
}

/// Poll until the job is `Done` or `max_wait` passes, telling `progress` about status
/// changes (and, with `follow`, the solver's output as it streams).
pub fn wait_done(
    client: &Client,
    rec: &JobRecord,
    opts: &WaitOptions,
    progress: &mut dyn FnMut(&str),
) -> Result<(), NeosError> {
    let started = Instant::now();
    let mut last: Option<JobStatus> = None;
    let mut offset = 0i64;
    // Bounded in count as well as in time.
    let max_polls =
        (opts.max_wait.as_secs_f64() / opts.poll.as_secs_f64().max(0.01)).ceil() as u64 + 2;
    for _ in 0..max_polls {
        let status = client.get_job_status(rec.number, &rec.password)?;
        if last != Some(status) {
            progress(&format!(
                "job {} {} ({:.0} s)",
                rec.number,
                status.as_str(),
                started.elapsed().as_secs_f64()
            ));
            last = Some(status);
        }
        if opts.follow && status != JobStatus::Waiting {
            match client.get_intermediate_results(rec.number, &rec.password, offset) {
                Ok((chunk, next)) => {
                    if !chunk.is_empty() {
                        for line in String::from_utf8_lossy(&chunk).lines() {
                            progress(&format!("| {line}"));
                        }
                    }
                    offset = next.max(offset);
                }
                // NEOS blocks this call until more output comes: no news is not a failure.
                Err(NeosError::Timeout { .. }) => {}
                Err(e) => return Err(e),
            }
        }
        if status == JobStatus::Done {
            return Ok(());
        }
        let left = opts.max_wait.saturating_sub(started.elapsed());
        if left.is_zero() {
            break;
        }
        std::thread::sleep(opts.poll.min(left));
    }
    Err(NeosError::NotDone {
        job: rec.number,
        status: last.map(|s| s.as_str()).unwrap_or("unknown").to_string(),
        secs: started.elapsed().as_secs_f64(),
    })
}

/// The marker the GAMS template puts before each solution line in the log and listing.
pub const GAMS_MARKER: &str = "tilekit-solution:";

/// Read the solution out of a finished job's output: for GAMS jobs the `tilekit-solution:`
/// block of the log or listing; for LP/MPS jobs CBC's solution (status line, then
/// `index name value reduced-cost` lines), or its log's verdict when it printed none.
pub fn parse_results(text: &str, input: InputMethod, job: i64) -> Result<MilpSolution, NeosError> {
    let source = format!("job {job} output");
    let bad = |detail: String| NeosError::Results { job, detail };
    match input {
        InputMethod::Gams => {
            // A licence that stops GAMS leaves no block; say so rather than that it is missing.
            if let Some(problem) = gams_log::licence_problem(text) {
                return Err(NeosError::Licence { job, problem });
            }
            let block = gams_block(text).ok_or_else(|| {
                bad(format!(
                    "no complete '{GAMS_MARKER} begin' … '{GAMS_MARKER} end' block in the output \
                     (was the model written by tilekit, and did GAMS run it?); it ends with: {}",
                    tail(text)
                ))
            })?;
            gams::parse_gams_solution(&block, &source).map_err(|e| bad(e.to_string()))
        }
        InputMethod::Lp | InputMethod::Mps => match cbc_block(text) {
            Some(block) => cbc::parse(&block, &source).map_err(|e| bad(e.to_string())),
            None => {
                let verdict = text.lines().map(str::trim).find_map(|l| {
                    let r = l.strip_prefix("Result - ")?;
                    if r.contains("infeasible") {
                        Some(Outcome::Infeasible)
                    } else if r.contains("unbounded") {
                        Some(Outcome::Unbounded)
                    } else {
                        None
                    }
                });
                match verdict {
                    Some(outcome) => Ok(MilpSolution {
                        outcome,
                        status_text: format!("{outcome:?} (from CBC's log; no solution listed)"),
                        objective: None,
                        values: ColumnValues::None,
                    }),
                    None => Err(bad(format!(
                        "no CBC solution in the output; it ends with: {}",
                        tail(text)
                    ))),
                }
            }
        },
    }
}

/// The last lines of an output, for error messages.
fn tail(text: &str) -> String {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    if lines.is_empty() {
        return "(nothing: the output is empty)".into();
    }
    lines[lines.len().saturating_sub(4)..].join(" | ")
}

/// The first complete marker block, markers stripped.
fn gams_block(text: &str) -> Option<String> {
    let mut block: Option<String> = None;
    for line in text.lines() {
        let Some(rest) = line.trim_start().strip_prefix(GAMS_MARKER) else {
            continue;
        };
        let rest = rest.trim();
        match (&mut block, rest) {
            (_, "begin") => block = Some(String::new()),
            (Some(b), "end") => return Some(std::mem::take(b)),
            (Some(b), l) => {
                b.push_str(l);
                b.push('\n');
            }
            (None, _) => {}
        }
    }
    None
}

/// CBC status words that begin a solution listing.
const CBC_STATUS: [&str; 6] = [
    "Optimal",
    "Infeasible",
    "Integer infeasible",
    "Unbounded",
    "Stopped on",
    "Status unknown",
];

fn is_cbc_value_line(line: &str) -> bool {
    let t = line.trim();
    let t = t.strip_prefix("**").map(str::trim_start).unwrap_or(t);
    let f: Vec<&str> = t.split_whitespace().collect();
    f.len() == 4 && f[0].parse::<u64>().is_ok() && f[2].parse::<f64>().is_ok()
}

/// The last CBC solution listing in the output: its status line and the value lines after it.
fn cbc_block(text: &str) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let start = lines.iter().rposition(|l| {
        let t = l.trim();
        CBC_STATUS.iter().any(|s| t.starts_with(s))
            && (t.contains(" - objective value ") || CBC_STATUS.contains(&t))
    })?;
    let mut block = String::from(lines[start].trim());
    block.push('\n');
    for l in &lines[start + 1..] {
        if !is_cbc_value_line(l) {
            break;
        }
        block.push_str(l);
        block.push('\n');
    }
    Some(block)
}

/// Fetch a finished job's output (decoded to text).
pub fn fetch(client: &Client, rec: &JobRecord) -> Result<String, NeosError> {
    let bytes = client.get_final_results(rec.number, &rec.password)?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_cbc_listing_after_the_log() {
        let out = "Welcome to the CBC MILP Solver\nClp0006I 0  Obj 0\n\
                   Result - Optimal solution found\n\nObjective value: 2.00000000\n\
                   Optimal - objective value 2.00000000\n      0 u_t1  1  0\n      7 z_i3_t2 1 0\n\
                   \nNEOS footer line\n";
        let s = parse_results(out, InputMethod::Mps, 5).unwrap();
        assert_eq!(s.outcome, Outcome::Optimal);
        assert_eq!(s.objective, Some(2.0));
        assert_eq!(
            s.values,
            ColumnValues::ByName(vec![("u_t1".into(), 1.0), ("z_i3_t2".into(), 1.0)])
        );
        let inf = parse_results(
            "Problem is infeasible - 0.01 seconds\nResult - Problem proven infeasible\n",
            InputMethod::Lp,
            5,
        )
        .unwrap();
        assert_eq!(inf.outcome, Outcome::Infeasible);
        let e = parse_results("Error: model file is empty\n", InputMethod::Mps, 5).unwrap_err();
        assert_eq!(
            e.to_string(),
            "job 5: no CBC solution in the output; it ends with: Error: model file is empty"
        );
    }

    #[test]
    fn finds_the_gams_block() {
        let out = "--- log\n    tilekit-solution: begin\n    tilekit-solution: modelstat 1\n\
                   tilekit-solution: solvestat 1\n  tilekit-solution: objective 1\n\
                   tilekit-solution: u_t1 1\ntilekit-solution: end\n\
                   tilekit-solution: begin\ntilekit-solution: modelstat 99\n";
        let s = parse_results(out, InputMethod::Gams, 9).unwrap();
        assert_eq!(s.outcome, Outcome::Optimal);
        assert_eq!(s.values, ColumnValues::ByName(vec![("u_t1".into(), 1.0)]));
        let e = parse_results(
            "tilekit-solution: begin\ntilekit-solution: modelstat 1\n",
            InputMethod::Gams,
            9,
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("no complete"), "{e}");
    }

    #[test]
    fn a_gams_job_stopped_by_its_licence_says_so() {
        let out = "--- Job job.gms Start 11/27/26 08:08:49 54.6.1 20a39885 LEX-LEG x86 64bit/Linux\n\
                   *** Time-limited license expired 1 days ago\n\
                   *** Status: Terminated due to a licensing error\n";
        let e = parse_results(out, InputMethod::Gams, 9).unwrap_err();
        assert!(matches!(e, NeosError::Licence { job: 9, .. }), "{e:?}");
        assert_eq!(e.exit_code(), 3);
        assert_eq!(
            e.to_string(),
            "job 9: GAMS stopped with a licensing error: its time-limited licence expired on \
             2026-11-26 (\"Time-limited license expired 1 days ago\")"
        );
    }

    #[test]
    fn job_files_written_before_edge_jobs_still_open() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("jobs.json");
        std::fs::write(
            &path,
            r#"{"jobs":[{"number":7,"password":"pw","server":"http://127.0.0.1:1",
                "category":"milp","solver":"Cbc","input":"mps","submitted":1,
                "instance":{"path":"case.txt","board":"2 2\n1 2\n3 0\n",
                "goal":"blank-last","horizon":3,"model":"neos"}}]}"#,
        )
        .unwrap();
        let store = JobStore::open(&path).unwrap();
        let inst = store
            .get(7, "http://127.0.0.1:1")
            .unwrap()
            .instance
            .clone()
            .unwrap();
        assert_eq!(inst.family, JobFamily::Sliding);
        assert_eq!((inst.horizon, inst.goal.as_str()), (3, "blank-last"));
        assert!(!inst.filter && !inst.fix_corner);
        // An edge record leaves the sliding fields out, and reads back the same.
        let edge = InstanceRef {
            family: JobFamily::Edge,
            path: "p.txt".into(),
            board: "2 2\n0 0 1 1\n".into(),
            goal: String::new(),
            horizon: 0,
            model: "milp".into(),
            filter: true,
            fix_corner: false,
        };
        let json = serde_json::to_string(&edge).unwrap();
        assert!(
            !json.contains("goal") && !json.contains("horizon") && !json.contains("fix_corner"),
            "{json}"
        );
        assert_eq!(serde_json::from_str::<InstanceRef>(&json).unwrap(), edge);
    }

    #[test]
    fn job_file_is_private_and_round_trips() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state/tilekit/jobs.json");
        let mut store = JobStore::open(&path).unwrap();
        let rec = JobRecord {
            number: 42,
            password: "s3cret".into(),
            server: "http://127.0.0.1:1".into(),
            category: "milp".into(),
            solver: "Cbc".into(),
            input: InputMethod::Mps,
            submitted: 1,
            instance: None,
        };
        store.add(rec.clone()).unwrap();
        let again = JobStore::open(&path).unwrap();
        assert_eq!(again.get(42, "http://127.0.0.1:1"), Some(&rec));
        assert_eq!(again.get(42, "https://elsewhere"), None);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        assert_eq!(rec.to_json(false)["password"], "***");
        assert_eq!(rec.to_json(true)["password"], "s3cret");
        std::fs::write(&path, "{not json").unwrap();
        let e = JobStore::open(&path).unwrap_err();
        assert!(e.to_string().contains("not a tilekit job file"), "{e}");
        // A corrupt job file is the user's input, like a bad flag: exit 2, not a failure.
        assert_eq!(e.exit_code(), 2);
    }
}
