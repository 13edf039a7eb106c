//! Optimality certificates for the sliding-puzzle SAT route: the plan at length L is replayed
//! by the independent verifier, and the formula for L − 2 is shown unsatisfiable by a DRAT
//! proof that an independent checker (`rate`) accepts.
//!
//! What a certificate proves, and what it trusts:
//! - **checked**: the CNF file for horizon L − 2, exactly as written to disk, is unsatisfiable
//!   (the checker reads that file and the proof, and shares no code with the solver);
//! - **argued in the encoder** (`formulate::sliding_sat`, module docs): every plan of exactly
//!   T moves is a model of the formula for T in every encoding, so UNSAT means no plan of
//!   exactly L − 2 moves; a shorter plan of the same parity would pad to exactly L − 2 moves
//!   by moving the blank back and forth, and plans of the other parity do not exist (each move
//!   flips the blank's checkerboard colour). Hence no plan shorter than L.
//!
//! When L is the parity-adjusted lower bound (`sliding_sat::lower_bound`: the larger of the
//! Manhattan sum and the blank's distance, at the blank's parity), the bound alone proves
//! optimality (recomputed here from the boards by [`parity_lower_bound`]); L − 2 is refuted and
//! checked anyway, so every certificate with L ≥ 2 carries a checked proof. For L < 2 the bound
//! is the whole certificate.
//!
//! A plan from elsewhere (`plan`) is certified the same way by [`certify_plan`].
//!
//! With a split depth ([`CertifyOptions::split`]) the refutation of L − 2 is done leaf by
//! leaf, each leaf with its own checked proof, and the certificate holds only if the verified
//! leaves' cubes cover every assignment ([`split`] argues and checks this).

use crate::field::Field;
use crate::format::dimacs_cnf::write_cnf;
use crate::formulate::sliding_sat::{self, Direction, Encoding};
use crate::model::answer::SatOutcome;
use crate::model::cnf::Cnf;
use crate::puzzle::sliding::{Goal, SlidingPuzzle};
use crate::search::sat_horizon::{self, SatPlan, SatPlanError, SatStep, StepResult};
use crate::solve::cleanup;
use crate::solve::external::{self, RunError, RunSpec, StopFlag};
use crate::solve::registry::find_command;
use crate::solve::{Limits, ProofSatSolver};
use std::path::{Path, PathBuf};
use std::time::Duration;

pub mod split;

/// The checker a certified solve runs unless told otherwise.
pub const DEFAULT_CHECKER: &str = "rate";

/// The encoding of a DRAT proof file, detected from its bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ProofFormat {
    /// Text DRAT: `lit … 0` lines, `d lit … 0` deletions.
    Drat,
    /// Binary DRAT: `a`/`d` bytes followed by variable-length literals.
    BinaryDrat,
}

impl ProofFormat {
    /// Detect the encoding: text DRAT uses only digits, `-`, `d`, `c`-comments and whitespace;
    /// anything else (binary DRAT's `a` byte, varint bytes ≥ 0x80) means binary.
    pub fn detect(bytes: &[u8]) -> ProofFormat {
        let mut in_comment = false;
        for &b in bytes {
            match b {
                b'\n' => in_comment = false,
                _ if in_comment => {}
                b'c' => in_comment = true,
                b'0'..=b'9' | b'-' | b'd' | b' ' | b'\t' | b'\r' => {}
                _ => return ProofFormat::BinaryDrat,
            }
        }
        ProofFormat::Drat
    }
    /// The label in human output ("DRAT", "binary DRAT").
    pub fn label(self) -> &'static str {
        match self {
            ProofFormat::Drat => "DRAT",
            ProofFormat::BinaryDrat => "binary DRAT",
        }
    }
}

/// How to run the DRAT checker.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckerSpec {
    /// The program: `rate`, or a path.
    pub program: String,
    /// Pass `--skip-unit-deletions` (drat-trim's semantics). varisat deletes unit and reason
    /// clauses, which drat-trim ignores and `rate` by default does not. Ignoring a deletion
    /// keeps a clause that was in the formula or derived from it, so the checked formula stays
    /// equisatisfiable with the input and the check stays sound.
    pub skip_unit_deletions: bool,
    /// Wall-clock limit; past it the checker is killed and the verdict is `TimeLimit`.
    pub time_limit: Duration,
}

/// The checker's answer, as data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckVerdict {
    /// `s VERIFIED`, exit code 0.
    Verified,
    /// `s NOT VERIFIED`, exit code 1: the proof does not refute the formula.
    Rejected,
    /// Killed at the time limit.
    TimeLimit,
}

/// One checker run.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckRun {
    /// The verdict.
    pub verdict: CheckVerdict,
    /// The checker's arguments before the two files.
    pub flags: Vec<String>,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// The checker's last lines of output (its reason, on rejection).
    pub tail: String,
}

/// Everything that is not an answer: the checker or the solver could not do its job.
#[derive(Debug, thiserror::Error)]
pub enum CertifyError {
    /// The checker program is not installed.
    #[error(
        "proof checker '{program}' not found on PATH: run scripts/install-solvers.sh (it installs rate) or pass {} PATH",
        Field::Checker
    )]
    CheckerNotFound {
        /// The program as given.
        program: String,
    },
    /// The checker was given as a path to a file that is not executable.
    #[error("proof checker '{program}' is not an executable file")]
    CheckerNotExecutable {
        /// The path as given.
        program: String,
    },
    /// The checker exists but could not be started (bad binary, missing interpreter).
    #[error("proof checker '{program}' could not be run: {error}")]
    CheckerRun {
        /// The program.
        program: String,
        /// The operating system's error.
        #[source]
        error: std::io::Error,
    },
    /// The checker ended without a verdict (a crash, an unknown exit code, no `s` line).
    #[error("proof checker '{program}' gave no verdict ({exit}): {tail}")]
    CheckerFailed {
        /// The program.
        program: String,
        /// How it ended.
        exit: String,
        /// The end of its output.
        tail: String,
    },
    /// The proof directory (`proof_dir`) could not be created (e.g. it names a regular file).
    #[error("{} {}: cannot create the directory: {source}", Field::ProofDir, path.display())]
    ProofDir {
        /// The directory as given.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// A working file could not be written or read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// The plan search failed (engine failure, bad model, unsolvable board).
    #[error("{0}")]
    Plan(String),
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> CertifyError + '_ {
    move |source| CertifyError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Run the checker on `cnf` and `proof`. `s VERIFIED` with exit 0 and `s NOT VERIFIED` with
/// exit 1 are verdicts, a time-out is a verdict; anything else is [`CertifyError`].
pub fn check_drat(spec: &CheckerSpec, cnf: &Path, proof: &Path) -> Result<CheckRun, CertifyError> {
    let mut flags = Vec::new();
    if spec.skip_unit_deletions {
        flags.push("--skip-unit-deletions".to_string());
    }
    let mut args = flags.clone();
    args.push(cnf.display().to_string());
    args.push(proof.display().to_string());
    let run = external::run(&RunSpec {
        program: spec.program.clone(),
        args,
        time_limit: spec.time_limit,
        cwd: None,
        stop: None,
    })
    .map_err(|error| {
        let program = spec.program.clone();
        match error {
            // The OS says "not found" both for a missing program and for an existing script
            // whose interpreter is missing: only the first is a missing checker.
            RunError::NotFound { .. } if find_command(&program).is_none() => {
                CertifyError::CheckerNotFound { program }
            }
            RunError::NotFound { .. } => CertifyError::CheckerRun {
                program,
                error: std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    "the file exists, but its interpreter or a library it needs does not",
                ),
            },
            RunError::Spawn { source, .. } | RunError::Wait { source, .. } => {
                CertifyError::CheckerRun {
                    program,
                    error: source,
                }
            }
        }
    })?;
    let s_line = run
        .stdout
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("s "))
        .map(str::to_string);
    let tail = {
        let lines: Vec<&str> = run
            .stdout
            .lines()
            .chain(run.stderr.lines())
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        lines[lines.len().saturating_sub(3)..].join(" | ")
    };
    let verdict = match (run.timed_out, run.status, s_line.as_deref()) {
        (true, _, _) => CheckVerdict::TimeLimit,
        (false, Some(0), Some("s VERIFIED")) => CheckVerdict::Verified,
        (false, Some(1), Some("s NOT VERIFIED")) => CheckVerdict::Rejected,
        _ => {
            return Err(CertifyError::CheckerFailed {
                program: spec.program.clone(),
                exit: run.describe_exit(),
                tail: if tail.is_empty() {
                    "it printed nothing".into()
                } else {
                    tail
                },
            });
        }
    };
    Ok(CheckRun {
        verdict,
        flags,
        seconds: run.elapsed.as_secs_f64(),
        tail,
    })
}

/// What kind of argument certifies optimality.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CertificateKind {
    /// A checked DRAT refutation of the formula for L − 2 (also when L is the lower bound,
    /// which alone would prove optimality: the proof is then a second, checked argument).
    Drat,
    /// L < 2: no horizon of L's parity lies below it, and L equals the lower bound.
    LowerBound,
}

/// An optimality certificate, as the JSON report carries it under `certificate`.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Certificate {
    /// True only when the argument holds: the checker verified the proof, or the plan's
    /// length equals the independently recomputed lower bound.
    pub certified: bool,
    /// `drat` or `lower_bound`.
    pub kind: CertificateKind,
    /// The length of the replayed plan whose optimality is claimed.
    pub plan_length: usize,
    /// The parity-adjusted lower bound, recomputed from the boards by
    /// [`parity_lower_bound`].
    pub lower_bound: Option<usize>,
    /// The horizon whose formula the proof refutes (L − 2), for `drat`.
    pub unsat_horizon: Option<usize>,
    /// What was proved, in words.
    pub statement: String,
    /// The encoding of the refuted formula.
    pub encoding: Encoding,
    /// Which way the refuted formula runs (from the start, or from the goal back to it).
    pub direction: Direction,
    /// Both directions were raced ([`CertifyOptions::race`]) and `direction` answered first.
    pub raced: bool,
    /// Variables of the refuted formula.
    pub cnf_vars: Option<usize>,
    /// Clauses of the refuted formula.
    pub cnf_clauses: Option<usize>,
    /// The engine that wrote the proof.
    pub producer: Option<String>,
    /// Seconds the producer took to refute the formula (proof writing included).
    pub solve_seconds: Option<f64>,
    /// The proof's encoding.
    pub proof_format: Option<ProofFormat>,
    /// The proof's size in bytes.
    pub proof_bytes: Option<u64>,
    /// Where the proof was kept (`proof_dir`), else `None` (it was deleted).
    pub proof_path: Option<String>,
    /// The checker program.
    pub checker: Option<String>,
    /// Its flags.
    pub checker_flags: Vec<String>,
    /// Its verdict.
    pub checker_verdict: Option<CheckVerdict>,
    /// Wall-clock seconds of the check.
    pub checker_seconds: Option<f64>,
    /// The checker's last output lines.
    pub checker_output: Option<String>,
    /// With `split`: every leaf, its proof and its check, and the covering verdict (the
    /// fields above then sum the leaves: seconds and bytes are totals).
    pub split: Option<split::SplitReport>,
}

impl Certificate {
    /// One phrase for human output, e.g. "certified: UNSAT at 9 checked by rate (binary
    /// DRAT, 12 kB)".
    pub fn summary(&self) -> String {
        match self.kind {
            CertificateKind::LowerBound if self.certified => format!(
                "certified: {} is the parity-adjusted lower bound (no proof needed)",
                self.plan_length
            ),
            CertificateKind::LowerBound => format!("certificate FAILED: {}", self.statement),
            CertificateKind::Drat if self.checker_verdict.is_none() => {
                format!("certificate FAILED: {}", self.statement)
            }
            CertificateKind::Drat if self.split.is_some() && !self.certified => {
                format!("certificate FAILED: {}", self.statement)
            }
            CertificateKind::Drat => {
                let what = match self.checker_verdict {
                    Some(CheckVerdict::Verified) => "checked by",
                    Some(CheckVerdict::Rejected) => "REJECTED by",
                    Some(CheckVerdict::TimeLimit) => "not checked in time by",
                    None => "not checked by",
                };
                let leaves = self
                    .split
                    .as_ref()
                    .map_or(String::new(), |s| format!(", {} leaves", s.leaves.len()));
                format!(
                    "{}: UNSAT at {} {what} {} ({}, {}{leaves})",
                    if self.certified {
                        "certified"
                    } else {
                        "certificate FAILED"
                    },
                    self.unsat_horizon.unwrap_or(0),
                    self.checker.as_deref().unwrap_or("?"),
                    self.proof_format.map_or("?", ProofFormat::label),
                    human_bytes(self.proof_bytes.unwrap_or(0))
                )
            }
        }
    }
}

/// "812 B", "12 kB", "3.4 MB".
pub fn human_bytes(b: u64) -> String {
    match b {
        0..1_000 => format!("{b} B"),
        1_000..1_000_000 => format!("{} kB", (b + 500) / 1_000),
        _ => format!("{:.1} MB", b as f64 / 1e6),
    }
}

/// The proof-producing engine: any solver with the proof capability, and the limits of each
/// of its runs.
#[derive(Clone, Copy)]
pub struct Producer<'a> {
    /// The solver (varisat, CaDiCaL, Kissat, ...).
    pub solver: &'a dyn ProofSatSolver,
    /// The limits of each run.
    pub limits: Limits,
}

impl std::fmt::Debug for Producer<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Producer")
            .field("solver", &self.solver.name())
            .field("limits", &self.limits)
            .finish()
    }
}

impl Producer<'_> {
    /// The name for reports.
    pub fn name(&self) -> &str {
        self.solver.name()
    }
}

/// Options of a certified solve.
#[derive(Debug, Clone, PartialEq)]
pub struct CertifyOptions {
    /// The checker program (`rate` unless given).
    pub checker: String,
    /// The checker's wall-clock limit.
    pub checker_time_limit: Duration,
    /// Keep the refuted CNF and its proof here (created if needed); else a temporary
    /// directory, removed afterwards.
    pub proof_dir: Option<PathBuf>,
    /// Cube-and-conquer: split L − 2 on the blank's first and last `split` moves
    /// ([`split`]); 0 = one proof for the whole formula. Applies where the certificate
    /// refutes L − 2 itself (`plan`, the native route, a search that began at L).
    pub split: usize,
    /// Leaves run at once.
    pub jobs: usize,
    /// Which way the formula for L − 2 runs where the certificate refutes it itself
    /// (`None`: forward); a SAT search's own refutation runs forward.
    pub direction: Option<Direction>,
    /// Refute L − 2 both ways at once and keep the first answer (the other
    /// producer is stopped); overrides `direction`. Not with `split`.
    pub race: bool,
}

/// The encoding of the proof file at `path`, from its first 64 kB (proofs can be gigabytes).
fn detect_file_format(path: &Path) -> Result<ProofFormat, CertifyError> {
    use std::io::Read;
    let mut head = Vec::with_capacity(1 << 16);
    std::fs::File::open(path)
        .and_then(|f| f.take(1 << 16).read_to_end(&mut head))
        .map_err(io_err(path))?;
    Ok(ProofFormat::detect(&head))
}

/// The files of horizon `t` in the working directory.
fn files(dir: &Path, t: usize) -> (PathBuf, PathBuf) {
    (
        dir.join(format!("sliding_T{t}.cnf")),
        dir.join(format!("sliding_T{t}.drat")),
    )
}

fn remove_quietly(paths: &[PathBuf]) {
    for p in paths {
        // Leftovers of horizons that certify nothing; failing to delete one harms nothing.
        let _ = std::fs::remove_file(p);
    }
}

/// Write `cnf` to `path` in DIMACS.
pub fn write_cnf_file(cnf: &Cnf, path: &Path) -> Result<(), CertifyError> {
    let f = std::fs::File::create(path).map_err(io_err(path))?;
    // write_cnf flushes the buffer itself.
    write_cnf(cnf, std::io::BufWriter::new(f)).map_err(io_err(path))?;
    Ok(())
}

/// Check that the checker exists (before a long solve, not after it) and pick the working
/// directory: `proof_dir`, or a temporary one removed when the returned guard drops.
fn workdir(opts: &CertifyOptions) -> Result<(Option<cleanup::TempDir>, PathBuf), CertifyError> {
    if find_command(&opts.checker).is_none() {
        let program = opts.checker.clone();
        // A path to an existing file that lacks the executable bits deserves its own words.
        return Err(if program.contains('/') && Path::new(&program).is_file() {
            CertifyError::CheckerNotExecutable { program }
        } else {
            CertifyError::CheckerNotFound { program }
        });
    }
    match &opts.proof_dir {
        Some(d) => {
            std::fs::create_dir_all(d).map_err(|source| CertifyError::ProofDir {
                path: d.clone(),
                source,
            })?;
            Ok((None, d.clone()))
        }
        None => {
            let temp = cleanup::tempdir().map_err(io_err(Path::new("temporary directory")))?;
            let path = temp.path().to_path_buf();
            Ok((Some(temp), path))
        }
    }
}

/// An engine that writes the formula for horizon `t` and solves it with a proof, keeping the
/// files of the latest UNSAT horizon only (it alone can be the certificate).
fn proof_engine<'a>(
    producer: &'a Producer<'a>,
    dir: &'a Path,
) -> impl FnMut(&Cnf, usize) -> Result<(SatOutcome, f64), String> + 'a {
    let mut last_unsat: Option<usize> = None;
    move |cnf: &Cnf, t: usize| {
        let (cnf_path, proof_path) = files(dir, t);
        write_cnf_file(cnf, &cnf_path).map_err(|e| e.to_string())?;
        let started = std::time::Instant::now();
        let outcome = producer
            .solver
            .solve_with_proof(cnf, &cnf_path, &proof_path, &producer.limits)
            .map_err(|e| e.to_string())?;
        let seconds = started.elapsed().as_secs_f64();
        if outcome == SatOutcome::Unsat {
            if let Some(prev) = last_unsat.replace(t)
                && prev != t
            {
                let (c, p) = files(dir, prev);
                remove_quietly(&[c, p]);
            }
        } else {
            remove_quietly(&[cnf_path, proof_path]);
        }
        Ok((outcome, seconds))
    }
}

/// Certify a plan found elsewhere (a file, another solver): the caller replays it; this
/// refutes `plan_len − 2` with a proof and checks it. A SAT answer there is news, not an
/// error: the certificate then says the plan is not optimal.
pub fn certify_plan(
    puzzle: &SlidingPuzzle,
    goal: Goal,
    plan_len: usize,
    encoding: Encoding,
    producer: &Producer<'_>,
    opts: &CertifyOptions,
) -> Result<Certificate, CertifyError> {
    let (_temp, dir) = workdir(opts)?;
    let mut engine = proof_engine(producer, &dir);
    certify_length(
        puzzle,
        goal,
        plan_len,
        encoding,
        producer,
        opts,
        &dir,
        None,
        false,
        &mut engine,
    )
}

/// Find a shortest plan like [`sat_horizon::solve_optimal_with`], with every horizon solved
/// by a proof-producing engine, then certify the plan's optimality: check the proof of the
/// last UNSAT horizon (L − 2) with the checker, or note that L is the lower bound.
///
/// Returns the plan and, when a plan was found and claimed optimal, its certificate (which
/// may say `certified: false` — a rejected proof or a checker time-out is an answer).
pub fn solve_certified(
    puzzle: &SlidingPuzzle,
    goal: Goal,
    max_horizon: usize,
    encoding: Encoding,
    producer: &Producer<'_>,
    opts: &CertifyOptions,
    progress: impl FnMut(usize, &SatStep),
) -> Result<(SatPlan, Option<Certificate>), CertifyError> {
    let (_temp, dir) = workdir(opts)?;
    let dir: &Path = &dir;
    let mut engine = proof_engine(producer, dir);
    let plan = sat_horizon::solve_optimal_with(
        puzzle,
        goal,
        max_horizon,
        encoding,
        |cnf, t| engine(cnf, t).map(|(o, _)| o),
        progress,
    )
    .map_err(|e: SatPlanError<String>| CertifyError::Plan(e.to_string()))?;
    let (Some(len), true) = (plan.horizon, plan.optimal) else {
        return Ok((plan, None));
    };
    let prior = plan
        .steps
        .iter()
        .find(|s| len >= 2 && s.horizon == len - 2 && s.result == StepResult::Unsat)
        .map(|s| (s.vars, s.clauses, s.seconds));
    let cert = certify_length(
        puzzle,
        goal,
        len,
        encoding,
        producer,
        opts,
        dir,
        prior,
        true,
        &mut engine,
    )?;
    Ok((plan, Some(cert)))
}

/// The certificate for a replayed plan of `len` moves: refute `len − 2` with a proof (reusing
/// the search's files when `prior` gives that horizon's size and time) and check it.
/// `from_search`: the plan came from the SAT search, so a SAT answer at `len − 2` would be a
/// bug rather than news.
#[allow(
    clippy::too_many_arguments,
    reason = "one certificate step needs the whole run context; a context struct is planned"
)]
fn certify_length(
    puzzle: &SlidingPuzzle,
    goal: Goal,
    len: usize,
    encoding: Encoding,
    producer: &Producer<'_>,
    opts: &CertifyOptions,
    dir: &Path,
    prior: Option<(usize, usize, f64)>,
    from_search: bool,
    engine: &mut impl FnMut(&Cnf, usize) -> Result<(SatOutcome, f64), String>,
) -> Result<Certificate, CertifyError> {
    // Recomputed with the verifier-side arithmetic, not the encoder's.
    let bound = parity_lower_bound(puzzle.cols(), puzzle.tiles(), &goal.board(puzzle.cells()));
    let mut cert = Certificate {
        certified: false,
        kind: CertificateKind::Drat,
        plan_length: len,
        lower_bound: bound,
        unsat_horizon: None,
        statement: String::new(),
        encoding,
        direction: Direction::Forward,
        raced: false,
        cnf_vars: None,
        cnf_clauses: None,
        producer: None,
        solve_seconds: None,
        proof_format: None,
        proof_bytes: None,
        proof_path: None,
        checker: None,
        checker_flags: Vec::new(),
        checker_verdict: None,
        checker_seconds: None,
        checker_output: None,
        split: None,
    };
    if len < 2 {
        // No horizon of the same parity below: parity and the bound are the whole argument.
        cert.kind = CertificateKind::LowerBound;
        cert.certified = bound == Some(len);
        cert.statement = if cert.certified {
            format!("{len} equals the parity-adjusted lower bound, so no plan is shorter")
        } else {
            format!("the lower bound is {bound:?}, not {len}: optimality NOT certified")
        };
        return Ok(cert);
    }
    let t = len - 2;
    let (vars, clauses, solve_seconds) = match prior {
        Some(known) => known,
        None => {
            // Either the plan came from elsewhere, or the search began at L (the lower
            // bound) and never solved L − 2; the bound then already proves optimality, but
            // refute L − 2 anyway so that every certificate carries a checked proof.
            let (enc, outcome, seconds) = if opts.race && opts.split == 0 {
                cert.raced = true;
                race_directions(puzzle, goal, t, encoding, producer, dir)?
            } else {
                let way = opts.direction.unwrap_or_default();
                let enc = sliding_sat::build_directed(puzzle, goal, t, encoding, way);
                if opts.split > 0 {
                    cert.direction = way;
                    let cert = certify_split(puzzle, goal, &enc, producer, opts, dir, cert)?;
                    let sat_leaf = cert.split.as_ref().is_some_and(|s| {
                        s.leaves
                            .iter()
                            .any(|l| l.outcome == split::LeafOutcome::Sat)
                    });
                    if sat_leaf && from_search {
                        return Err(CertifyError::Plan(format!(
                            "the engine found horizon {t} satisfiable below the lower bound {len}: an encoding or engine bug"
                        )));
                    }
                    return Ok(cert);
                }
                let (outcome, seconds) = engine(enc.cnf(), t).map_err(CertifyError::Plan)?;
                (enc, outcome, seconds)
            };
            cert.direction = enc.direction();
            match outcome {
                SatOutcome::Unsat => {}
                SatOutcome::Sat(_) if from_search => {
                    return Err(CertifyError::Plan(format!(
                        "the engine found horizon {t} satisfiable below the lower bound {len}: an encoding or engine bug"
                    )));
                }
                SatOutcome::Sat(model) => {
                    let plan = replay_model(puzzle, goal, &enc, &model)?;
                    cert.statement = format!(
                        "{} found a plan of exactly {t} moves ({plan}, verified by replay): the given plan of {len} is NOT optimal",
                        producer.name()
                    );
                    return Ok(cert);
                }
                SatOutcome::Unknown => {
                    let either = if cert.raced { " either way" } else { "" };
                    cert.statement = format!(
                        "{} gave no answer at horizon {t}{either}: optimality NOT certified by proof",
                        producer.name()
                    );
                    return Ok(cert);
                }
            }
            (enc.cnf().num_vars(), enc.cnf().num_clauses(), seconds)
        }
    };
    let (cnf_path, proof_path) = files(dir, t);
    // Proofs can be gigabytes: the size from the metadata, the format from the first 64 kB.
    let size = match std::fs::metadata(&proof_path) {
        Ok(m) => m.len(),
        // An UNSAT answer with no proof is a claim nobody can check: said as such.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            cert.statement = format!(
                "{} answered UNSAT at horizon {t} but wrote no proof ({} is missing): its \
                 refutation cannot be checked, so optimality is NOT certified by proof",
                producer.name(),
                proof_path.display()
            );
            return Ok(cert);
        }
        Err(e) => return Err(io_err(&proof_path)(e)),
    };
    cert.unsat_horizon = Some(t);
    cert.cnf_vars = Some(vars);
    cert.cnf_clauses = Some(clauses);
    cert.producer = Some(producer.name().to_string());
    cert.solve_seconds = Some(solve_seconds);
    cert.proof_format = Some(detect_file_format(&proof_path)?);
    cert.proof_bytes = Some(size);
    let spec = CheckerSpec {
        program: opts.checker.clone(),
        skip_unit_deletions: producer.solver.deletes_units(),
        time_limit: opts.checker_time_limit,
    };
    let run = check_drat(&spec, &cnf_path, &proof_path)?;
    cert.checker = Some(opts.checker.clone());
    cert.checker_flags = run.flags;
    cert.checker_verdict = Some(run.verdict);
    cert.checker_seconds = Some(run.seconds);
    cert.checker_output = Some(run.tail);
    cert.certified = run.verdict == CheckVerdict::Verified;
    cert.statement = if cert.certified {
        let also = if bound == Some(len) {
            " (it is also the lower bound, which alone proves this)"
        } else {
            ""
        };
        let way = match cert.direction {
            Direction::Forward => "",
            // A plan one way, reversed with each move inverted, is a plan the other way.
            Direction::Backward => " from the goal back to the start",
        };
        let raced = if cert.raced {
            " (both directions raced; this one answered first)"
        } else {
            ""
        };
        format!(
            "the {} formula for exactly {t} moves{way}{raced} is unsatisfiable (proof checked), so no plan of {t} moves exists, none shorter of the same parity (padding with back-and-forth moves), none of the other parity; the replayed plan of {len} is optimal{also}",
            encoding.name()
        )
    } else {
        format!("the refutation of horizon {t} was not verified: optimality NOT certified")
    };
    if opts.proof_dir.is_some() {
        cert.proof_path = Some(proof_path.display().to_string());
    }
    Ok(cert)
}

/// Racing both directions: the formula for `t` written both ways and refuted at once, each by its
/// own producer run on its own thread; the first definite answer (UNSAT or SAT) stops the
/// other run. The winner's files take the usual names (`files(dir, t)`) and the loser's are
/// removed. Returns the winner's formula, its answer and its seconds; with no answer either
/// way, the forward formula and `Unknown`. An embedded producer cannot be stopped, so there
/// the loser runs to its own end first.
fn race_directions(
    puzzle: &SlidingPuzzle,
    goal: Goal,
    t: usize,
    encoding: Encoding,
    producer: &Producer<'_>,
    dir: &Path,
) -> Result<(sliding_sat::SlidingSat, SatOutcome, f64), CertifyError> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let ways = [Direction::Forward, Direction::Backward];
    let mut encs = Vec::with_capacity(2);
    let mut paths = Vec::with_capacity(2);
    for (way, tag) in ways.into_iter().zip(["forward", "backward"]) {
        let enc = sliding_sat::build_directed(puzzle, goal, t, encoding, way);
        let cnf = dir.join(format!("sliding_T{t}.{tag}.cnf"));
        let proof = dir.join(format!("sliding_T{t}.{tag}.drat"));
        write_cnf_file(enc.cnf(), &cnf)?;
        encs.push(enc);
        paths.push((cnf, proof));
    }
    let stop = StopFlag::new();
    let finished = AtomicUsize::new(0);
    let started = std::time::Instant::now();
    let runs: Vec<_> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..2)
            .map(|k| {
                let (enc, (cnf, proof)) = (&encs[k], &paths[k]);
                let (stop, finished) = (&stop, &finished);
                scope.spawn(move || {
                    let r = producer.solver.solve_with_proof_until(
                        enc.cnf(),
                        cnf,
                        proof,
                        &producer.limits,
                        stop,
                    );
                    let seconds = started.elapsed().as_secs_f64();
                    // Rank before raising the flag, so that the winner ranks first.
                    let rank = finished.fetch_add(1, Ordering::SeqCst);
                    if matches!(r, Ok(SatOutcome::Unsat | SatOutcome::Sat(_))) {
                        stop.raise();
                    }
                    (r, seconds, rank)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a producer thread does not panic"))
            .collect()
    });
    let all: Vec<PathBuf> = paths
        .iter()
        .flat_map(|(c, p)| [c.clone(), p.clone()])
        .collect();
    // A stopped run comes back as no answer, so an error is a real failure of that run
    // (crash, garbage output): report it even when the other direction answered.
    for (r, ..) in &runs {
        if let Err(e) = r {
            remove_quietly(&all);
            return Err(CertifyError::Plan(e.to_string()));
        }
    }
    let answer = |k: usize| match &runs[k].0 {
        Ok(SatOutcome::Unsat) => Some(false),
        Ok(SatOutcome::Sat(_)) => Some(true),
        _ => None,
    };
    // Both answered (at nearly the same time, or an embedded producer that cannot be
    // stopped): the two formulas are equisatisfiable, so a disagreement is a bug.
    if let (Some(x), Some(y)) = (answer(0), answer(1))
        && x != y
    {
        remove_quietly(&all);
        return Err(CertifyError::Plan(format!(
            "the producer called horizon {t} {} forward and {} backward: an encoding or engine bug",
            if x { "satisfiable" } else { "unsatisfiable" },
            if y { "satisfiable" } else { "unsatisfiable" },
        )));
    }
    let winner = (0..2)
        .filter(|&k| answer(k).is_some())
        .min_by_key(|&k| runs[k].2);
    let mut runs = runs;
    let Some(w) = winner else {
        remove_quietly(&all);
        let seconds = runs[0].1.max(runs[1].1);
        return Ok((encs.swap_remove(0), SatOutcome::Unknown, seconds));
    };
    let (outcome, seconds, _) = runs.swap_remove(w);
    let outcome = outcome.map_err(|e| CertifyError::Plan(e.to_string()))?;
    if outcome == SatOutcome::Unsat {
        // The certificate's files: the winner's, under the usual names.
        let loser = 1 - w;
        remove_quietly(&[paths[loser].0.clone(), paths[loser].1.clone()]);
        let (cnf, proof) = files(dir, t);
        for (from, to) in [(&paths[w].0, &cnf), (&paths[w].1, &proof)] {
            std::fs::rename(from, to).map_err(io_err(from))?;
        }
    } else {
        // A shorter plan: nothing to keep (as for a single run).
        remove_quietly(&all);
    }
    Ok((encs.swap_remove(w), outcome, seconds))
}

/// A producer's model of the formula for horizon `t`, decoded and replayed by the independent
/// verifier: the shorter plan it claims. A model that is not such a plan is an engine (or
/// encoding) failure, not news about the given plan.
pub fn replay_model(
    puzzle: &SlidingPuzzle,
    goal: Goal,
    enc: &sliding_sat::SlidingSat,
    model: &[bool],
) -> Result<String, CertifyError> {
    let t = enc.horizon();
    let moves = enc.decode(model).map_err(|e| {
        CertifyError::Plan(format!(
            "the engine's model at horizon {t} is not a plan ({e}): an encoding or engine bug"
        ))
    })?;
    let text = crate::puzzle::sliding::moves_to_string(&moves);
    let v = crate::verify::sliding::check_moves(
        puzzle.rows(),
        puzzle.cols(),
        puzzle.tiles(),
        &goal.board(puzzle.cells()),
        &text,
        Some(t as f64),
    );
    if !v.valid {
        return Err(CertifyError::Plan(format!(
            "the engine's model at horizon {t} does not replay ({}): an encoding or engine bug",
            v.errors.join("; ")
        )));
    }
    Ok(text)
}

/// The split certificate of `cert.plan_length` ([`split`]): the leaves of `enc` (horizon
/// L − 2) refuted and checked in parallel under one deadline (the checker's time limit,
/// counted from here), then [`split::assess`] on the verified leaves.
fn certify_split(
    puzzle: &SlidingPuzzle,
    goal: Goal,
    enc: &sliding_sat::SlidingSat,
    producer: &Producer<'_>,
    opts: &CertifyOptions,
    dir: &Path,
    mut cert: Certificate,
) -> Result<Certificate, CertifyError> {
    let started = std::time::Instant::now();
    let deadline = started + opts.checker_time_limit;
    let (t, len) = (enc.horizon(), cert.plan_length);
    let (base_path, _) = files(dir, t);
    write_cnf_file(enc.cnf(), &base_path)?;
    let cubes = split::move_cubes(enc, puzzle, goal, opts.split);
    let checker = CheckerSpec {
        program: opts.checker.clone(),
        skip_unit_deletions: producer.solver.deletes_units(),
        time_limit: opts.checker_time_limit,
    };
    let replay = |model: &[bool]| replay_model(puzzle, goal, enc, model);
    let leaves = split::run_leaves(
        enc.cnf(),
        &base_path,
        &cubes,
        producer,
        &checker,
        &replay,
        dir,
        t,
        opts.jobs,
        deadline,
    )?;
    let verdict = split::assess(&leaves);
    cert.unsat_horizon = Some(t);
    cert.cnf_vars = Some(enc.cnf().num_vars());
    cert.cnf_clauses = Some(enc.cnf().num_clauses());
    cert.producer = Some(producer.name().to_string());
    cert.solve_seconds = Some(leaves.iter().map(|l| l.solve_seconds).sum());
    cert.proof_format = leaves.iter().find_map(|l| l.proof_format);
    cert.proof_bytes = Some(leaves.iter().map(|l| l.proof_bytes).sum());
    cert.checker = Some(opts.checker.clone());
    cert.checker_flags = checker
        .skip_unit_deletions
        .then(|| "--skip-unit-deletions".to_string())
        .into_iter()
        .collect();
    cert.checker_seconds = Some(leaves.iter().map(|l| l.checker_seconds).sum());
    let worst = |v: CheckVerdict| {
        leaves
            .iter()
            .any(|l| l.checker_verdict == Some(v))
            .then_some(v)
    };
    cert.checker_verdict = if verdict.is_ok() {
        Some(CheckVerdict::Verified)
    } else {
        worst(CheckVerdict::Rejected).or(worst(CheckVerdict::TimeLimit))
    };
    cert.certified = verdict.is_ok();
    let sat_leaf = leaves.iter().find(|l| l.outcome == split::LeafOutcome::Sat);
    cert.statement = match (&verdict, sat_leaf) {
        (Ok(()), _) => format!(
            "the {} formula for exactly {t} moves is unsatisfiable: each of its {} leaves (the formula plus one cube over the blank's first and last moves) has a checked proof, and the cubes cover every assignment (pairwise clashing, weights 2^-|c| summing to 1); so no plan of {t} moves exists, none shorter of the same parity, none of the other parity: the replayed plan of {len} is optimal",
            cert.encoding.name(),
            leaves.len()
        ),
        (Err(_), Some(l)) => format!(
            "{} found a plan of exactly {t} moves ({}, verified by replay; leaf \"{}\"): the given plan of {len} is NOT optimal",
            producer.name(),
            l.plan.as_deref().unwrap_or("?"),
            l.description
        ),
        (Err(why), None) => {
            format!(
                "the split refutation of horizon {t} is incomplete ({why}): optimality NOT certified"
            )
        }
    };
    if let Some(keep) = &opts.proof_dir {
        cert.proof_path = Some(keep.display().to_string());
    }
    cert.split = Some(split::SplitReport {
        depth: opts.split,
        jobs: opts.jobs,
        covering: match &verdict {
            Ok(()) => "ok".into(),
            Err(e) => e.clone(),
        },
        covered: verdict.is_ok(),
        leaves,
        wall_seconds: started.elapsed().as_secs_f64(),
    });
    Ok(cert)
}

/// The lower bound on any plan from `start` to `goal` (row-major boards, 0 = blank, `cols`
/// wide): the larger of the tiles' Manhattan sum (each move shifts one tile one cell) and the
/// blank's distance (each move shifts the blank one cell), raised by one if needed to the
/// parity of the blank's distance (each move flips the blank's checkerboard colour).
/// Computed from the boards alone, sharing no code with the encoder. `None` for boards that
/// are not permutations of each other.
pub fn parity_lower_bound(cols: usize, start: &[u16], goal: &[u16]) -> Option<usize> {
    if start.len() != goal.len() || cols == 0 {
        return None;
    }
    let mut home = vec![usize::MAX; goal.len()];
    for (cell, &t) in goal.iter().enumerate() {
        *home.get_mut(t as usize)? = cell;
    }
    let (mut tiles, mut blank) = (0usize, 0usize);
    let mut seen = vec![false; goal.len()];
    for (cell, &t) in start.iter().enumerate() {
        let h = *home.get(t as usize)?;
        if h == usize::MAX || std::mem::replace(&mut seen[t as usize], true) {
            return None;
        }
        let d = (cell / cols).abs_diff(h / cols) + (cell % cols).abs_diff(h % cols);
        if t == 0 {
            blank = d;
        } else {
            tiles += d;
        }
    }
    let l = tiles.max(blank);
    Some(l + (l % 2 != blank % 2) as usize)
}

/// Check a kept proof (`proof_dir`) again, from the puzzle: rebuild the formula for
/// `horizon` in `encoding` running `direction`, write it to a fresh temporary file, and run the
/// checker on it and `proof`. Used to re-check (or test tampering with) a certificate.
pub fn recheck(
    puzzle: &SlidingPuzzle,
    goal: Goal,
    horizon: usize,
    (encoding, direction): (Encoding, Direction),
    proof: &Path,
    spec: &CheckerSpec,
) -> Result<CheckRun, CertifyError> {
    let dir = cleanup::tempdir().map_err(io_err(Path::new("temporary directory")))?;
    let cnf_path = dir.path().join("recheck.cnf");
    let enc = sliding_sat::build_directed(puzzle, goal, horizon, encoding, direction);
    write_cnf_file(enc.cnf(), &cnf_path)?;
    check_drat(spec, &cnf_path, proof)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proof_formats_are_detected() {
        assert_eq!(
            ProofFormat::detect(b"1 -2 0\nd 3 0\n0\n"),
            ProofFormat::Drat
        );
        assert_eq!(
            ProofFormat::detect(b"c comment abc\n0\n"),
            ProofFormat::Drat
        );
        assert_eq!(ProofFormat::detect(b""), ProofFormat::Drat);
        assert_eq!(
            ProofFormat::detect(&[b'a', 2, 5, 0]),
            ProofFormat::BinaryDrat
        );
        assert_eq!(
            ProofFormat::detect(&[b'd', 0x81, 1, 0]),
            ProofFormat::BinaryDrat
        );
    }

    #[test]
    fn lower_bound_matches_by_hand() {
        // 2×2, blank-last goal 1 2 / 3 0; start 0 1 / 3 2: blank 2 away, tiles 1+1+0.
        assert_eq!(parity_lower_bound(2, &[0, 1, 3, 2], &[1, 2, 3, 0]), Some(2));
        // Blank 0 away, tiles 2: parity of 0 keeps 2.
        assert_eq!(parity_lower_bound(2, &[2, 1, 3, 0], &[1, 2, 3, 0]), Some(2));
        // Tiles 1, blank 1 away: 1.
        assert_eq!(parity_lower_bound(2, &[1, 2, 0, 3], &[1, 2, 3, 0]), Some(1));
        assert_eq!(parity_lower_bound(2, &[1, 1, 0, 3], &[1, 2, 3, 0]), None);
    }

    #[test]
    fn sizes_read_well() {
        assert_eq!(human_bytes(812), "812 B");
        assert_eq!(human_bytes(12_400), "12 kB");
        assert_eq!(human_bytes(3_400_000), "3.4 MB");
    }

    #[test]
    fn a_missing_checker_is_an_error_not_a_verdict() {
        let dir = tempfile::tempdir().unwrap();
        let spec = CheckerSpec {
            program: "tilekit-no-such-checker".into(),
            skip_unit_deletions: false,
            time_limit: Duration::from_secs(5),
        };
        let e =
            check_drat(&spec, &dir.path().join("a.cnf"), &dir.path().join("a.drat")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "proof checker 'tilekit-no-such-checker' not found on PATH: run scripts/install-solvers.sh (it installs rate) or pass `checker` PATH"
        );
    }

    #[test]
    fn a_checker_without_a_verdict_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("crash.sh");
        std::fs::write(&script, "#!/bin/sh\necho 'c oops' ; exit 7\n").unwrap();
        let spec = CheckerSpec {
            program: "sh".into(),
            skip_unit_deletions: false,
            time_limit: Duration::from_secs(5),
        };
        let e = check_drat(&spec, &script, &dir.path().join("a.drat")).unwrap_err();
        assert!(matches!(e, CertifyError::CheckerFailed { .. }), "{e}");
        assert_eq!(
            e.to_string(),
            "proof checker 'sh' gave no verdict (exit code 7): c oops"
        );
    }
}
