//! The whole pipeline for one instance, as library calls the CLI (and anyone else) can make:
//! export a model file, solve through an engine or an external solver, decode and verify.

use crate::error::InputError;
use crate::format::solution::{cbc, glpk, highs, sat as sat_out};
use crate::format::{dimacs_cnf, gams, lp, mps};
use crate::formulate::{sliding_flow, sliding_neos, sliding_sat};
use crate::puzzle::sliding::{Goal, Move, SlidingPuzzle, moves_to_string};
use crate::search;
use crate::solve::milp_embedded::solve_microlp;
use crate::solve::registry::{Registry, SolverEntry};
use crate::solve::sat_embedded::solve_varisat_checked;
use crate::solve::{MilpSolution, Outcome, SatOutcome};
use crate::verify::{self, Verdict};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

pub mod edge;

/// Sliding-puzzle formulations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SlidingModel {
    /// The NEOS case study's model, faithful.
    Neos,
    /// The strengthened binary flow MILP.
    Flow,
    /// Planning-as-SAT CNF.
    Sat,
}

impl SlidingModel {
    /// Parse a `--model` value.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "neos" => Some(SlidingModel::Neos),
            "flow" => Some(SlidingModel::Flow),
            "sat" => Some(SlidingModel::Sat),
            _ => None,
        }
    }
    /// The CLI name.
    pub fn name(self) -> &'static str {
        match self {
            SlidingModel::Neos => "neos",
            SlidingModel::Flow => "flow",
            SlidingModel::Sat => "sat",
        }
    }
}

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// CPLEX LP.
    Lp,
    /// Free MPS.
    Mps,
    /// GAMS (algebraic, from a template).
    Gms,
    /// DIMACS CNF.
    Cnf,
}

impl Format {
    /// The CLI name.
    pub fn name(self) -> &'static str {
        match self {
            Format::Lp => "lp",
            Format::Mps => "mps",
            Format::Gms => "gms",
            Format::Cnf => "cnf",
        }
    }
    /// Parse a `--format` value or a file extension.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "lp" => Some(Format::Lp),
            "mps" => Some(Format::Mps),
            "gms" => Some(Format::Gms),
            "cnf" => Some(Format::Cnf),
            _ => None,
        }
    }
}

/// Everything that can go wrong in the pipeline that is not an answer.
#[derive(Debug, thiserror::Error)]
pub enum PipelineError {
    /// Bad input or usage (exit code 2).
    #[error("{0}")]
    Input(String),
    /// A solver or system failure (exit code 3).
    #[error("{0}")]
    Solver(String),
}

impl From<InputError> for PipelineError {
    fn from(e: InputError) -> Self {
        PipelineError::Input(e.to_string())
    }
}

fn sys(e: impl std::fmt::Display) -> PipelineError {
    PipelineError::Solver(e.to_string())
}

/// A built sliding MILP of either formulation.
#[derive(Debug, Clone)]
pub enum SlidingMilp {
    /// The faithful case-study model.
    Neos(sliding_neos::NeosModel),
    /// The strengthened flow model.
    Flow(sliding_flow::FlowModel),
}

impl SlidingMilp {
    /// Build `model` (neos or flow) for `p`.
    pub fn build(
        p: &SlidingPuzzle,
        goal: Goal,
        model: SlidingModel,
        horizon: usize,
    ) -> Result<Self, PipelineError> {
        match model {
            SlidingModel::Neos => Ok(SlidingMilp::Neos(
                sliding_neos::build(p, goal, horizon).map_err(sys)?,
            )),
            SlidingModel::Flow => Ok(SlidingMilp::Flow(
                sliding_flow::build(p, goal, horizon).map_err(sys)?,
            )),
            SlidingModel::Sat => Err(PipelineError::Input(
                "the sat model is a CNF, not a MILP".into(),
            )),
        }
    }
    /// The MILP.
    pub fn model(&self) -> &crate::model::milp::Model {
        match self {
            SlidingMilp::Neos(n) => &n.model,
            SlidingMilp::Flow(f) => &f.model,
        }
    }
    /// Decode solver values into moves.
    pub fn decode(&self, x: &[f64]) -> Result<Vec<Move>, String> {
        match self {
            SlidingMilp::Neos(n) => n.decode(x).map_err(|e| e.to_string()),
            SlidingMilp::Flow(f) => f.decode(x).map_err(|e| e.to_string()),
        }
    }
}

/// Read and parse a sliding instance file.
pub fn load_sliding(path: &Path, goal: Goal) -> Result<SlidingPuzzle, PipelineError> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        PipelineError::Input(format!("{}: cannot read the instance: {e}", path.display()))
    })?;
    Ok(SlidingPuzzle::parse(
        &text,
        &path.display().to_string(),
        goal,
    )?)
}

/// The horizon to use: the one given, or the model's default for this board.
pub fn resolve_horizon(p: &SlidingPuzzle, horizon: Option<usize>) -> Result<usize, PipelineError> {
    match horizon {
        Some(0) => Err(PipelineError::Input("--horizon must be at least 1".into())),
        Some(t) => Ok(t),
        None => sliding_neos::default_horizon(p.rows(), p.cols()).ok_or_else(|| {
            PipelineError::Input(format!(
                "no default horizon is known for a {}×{} board (its diameter is unknown): pass --horizon T",
                p.rows(),
                p.cols()
            ))
        }),
    }
}

/// The optimal length of `p`, found by the native solver within `limit`: what
/// `--horizon auto` means (the smallest horizon at which a time-indexed model is feasible).
pub fn auto_horizon(
    p: &SlidingPuzzle,
    goal: Goal,
    limit: Duration,
    progress: Option<fn(&str)>,
) -> Result<usize, PipelineError> {
    let say = |m: &str| {
        if let Some(cb) = progress {
            cb(m)
        }
    };
    let (r, _, _) = search::solve_one(
        p,
        goal,
        &search::NativeOptions::default(),
        Some(limit),
        &say,
    )
    .map_err(|e| PipelineError::Input(e.to_string()))?;
    match (r.status, r.moves) {
        (search::NativeStatus::Solved, Some(m)) => {
            // Never trust the search: the plan must replay before its length sets T.
            let v = verify_moves(p, goal, &m, Some(m.len() as f64));
            if !v.valid {
                return Err(PipelineError::Solver(format!(
                    "--horizon auto: the native plan failed verification: {}",
                    v.errors.join("; ")
                )));
            }
            Ok(m.len().max(1))
        }
        (search::NativeStatus::Unsolvable, _) => Err(PipelineError::Input(
            "--horizon auto: the board cannot reach the goal".into(),
        )),
        _ => Err(PipelineError::Solver(format!(
            "--horizon auto: the native solver found no optimum within {:.0} s (at least {} moves): pass --horizon T",
            limit.as_secs_f64(),
            r.lower_bound
        ))),
    }
}

/// Write the `model` of `p` in `format` to `out`.
pub fn export_sliding<W: Write>(
    p: &SlidingPuzzle,
    goal: Goal,
    model: SlidingModel,
    format: Format,
    horizon: usize,
    out: W,
) -> Result<(), PipelineError> {
    match (model, format) {
        (SlidingModel::Neos | SlidingModel::Flow, Format::Lp) => {
            lp::write_lp(SlidingMilp::build(p, goal, model, horizon)?.model(), out).map_err(sys)?;
        }
        (SlidingModel::Neos | SlidingModel::Flow, Format::Mps) => {
            mps::write_mps(SlidingMilp::build(p, goal, model, horizon)?.model(), out)
                .map_err(sys)?;
        }
        (SlidingModel::Neos, Format::Gms) => {
            gams::write_sliding_neos_gms(p, goal, horizon, &gams::GamsOptions::default(), out)
                .map_err(sys)?;
        }
        (SlidingModel::Sat, Format::Cnf) => {
            let enc = sliding_sat::build(p, goal, horizon);
            dimacs_cnf::write_cnf(enc.cnf(), out).map_err(sys)?;
        }
        (m, f) => {
            return Err(PipelineError::Input(format!(
                "model {} cannot be written as {}: neos goes to lp, mps or gms; flow to lp or mps; sat to cnf",
                m.name(),
                f.name()
            )));
        }
    }
    Ok(())
}

/// The report of a solve, printed as JSON by `--json`.
#[derive(Debug, Clone, serde::Serialize)]
pub struct SolveReport {
    /// `solved`, `infeasible`, `time_limit`, `no_solution`, `unverified`.
    pub status: String,
    /// Always `sliding` here.
    pub family: String,
    /// The formulation.
    pub model: String,
    /// The engine or solver used.
    pub solver: String,
    /// Moves in the plan.
    pub objective: Option<f64>,
    /// A proven lower bound, where known.
    pub bound: Option<f64>,
    /// True when the plan is proven shortest.
    pub optimal: bool,
    /// Wall-clock seconds, end to end.
    pub seconds: f64,
    /// True when the plan was replayed to the goal (and, for MILP, the point checked).
    pub verified: bool,
    /// The horizon of the model solved.
    pub horizon: usize,
    /// The plan as letters.
    pub moves: Option<String>,
    /// What the checks found wrong.
    pub errors: Vec<String>,
    /// The solver's own status text.
    pub solver_status: String,
    /// Search figures of `--via native` (flattened into the JSON; absent for other routes).
    #[serde(flatten)]
    pub native: Option<NativeStats>,
}

/// Extra report fields of the native solver.
#[derive(Debug, Clone, serde::Serialize)]
pub struct NativeStats {
    /// The heuristic, e.g. `pdb 6-6-3 + reflection`.
    pub heuristic: String,
    /// IDA* nodes over all iterations.
    pub nodes: u64,
    /// Heuristic value of the start board.
    pub initial_h: u32,
    /// Seconds spent loading or building pattern databases.
    pub db_seconds: f64,
    /// `loaded`, `built` or `none`.
    pub db_source: String,
    /// Search seconds after the databases were ready.
    pub search_seconds: f64,
}

impl SolveReport {
    /// The report as `tilekit solve` prints it: one JSON object, or one line of text.
    pub fn render(&self, json: bool) -> String {
        if json {
            return serde_json::to_string(self).unwrap_or_default();
        }
        match &self.moves {
            Some(m) if self.verified => format!(
                "{} moves{} ({} via {}, {:.2} s, verified by replay): {m}",
                m.len(),
                if self.optimal { ", optimal" } else { "" },
                self.model,
                self.solver,
                self.seconds
            ),
            _ => format!(
                "{}: {} ({})",
                self.status,
                self.errors.join("; "),
                self.solver_status
            ),
        }
    }
}

/// Options of a solve.
#[derive(Debug, Clone)]
pub struct SolveOptions {
    /// `native`, `milp` or `sat`.
    pub via: String,
    /// The MILP formulation for `--via milp` (neos or flow).
    pub model: SlidingModel,
    /// Solver name (`microlp`, `varisat` or a registry entry).
    pub solver: Option<String>,
    /// Horizon (MILP) or maximum horizon (SAT).
    pub horizon: Option<usize>,
    /// Wall-clock limit for each external solver run.
    pub time_limit: Duration,
    /// Threads for solvers that take them.
    pub threads: u32,
    /// Explicit registry file.
    pub solvers_file: Option<PathBuf>,
    /// Called with one line of progress at a time.
    pub progress: Option<fn(&str)>,
}

fn report(model: &str, solver: &str, horizon: usize, started: Instant) -> SolveReport {
    SolveReport {
        status: "no_solution".into(),
        family: "sliding".into(),
        model: model.into(),
        solver: solver.into(),
        objective: None,
        bound: None,
        optimal: false,
        seconds: started.elapsed().as_secs_f64(),
        verified: false,
        horizon,
        moves: None,
        errors: Vec::new(),
        solver_status: String::new(),
        native: None,
    }
}

/// Solve a sliding puzzle end to end and verify the answer independently.
pub fn solve_sliding(
    p: &SlidingPuzzle,
    goal: Goal,
    opts: &SolveOptions,
) -> Result<SolveReport, PipelineError> {
    match opts.via.as_str() {
        "milp" => solve_milp(p, goal, opts),
        "sat" => solve_sat(p, goal, opts),
        "native" => solve_native(p, goal, opts),
        other => Err(PipelineError::Input(format!(
            "--via {other} is not available for sliding puzzles: use native, milp or sat"
        ))),
    }
}

fn solve_native(
    p: &SlidingPuzzle,
    goal: Goal,
    opts: &SolveOptions,
) -> Result<SolveReport, PipelineError> {
    let started = Instant::now();
    let say = |m: &str| {
        if let Some(cb) = opts.progress {
            cb(m)
        }
    };
    let (r, db, heuristic) = search::solve_one(
        p,
        goal,
        &search::NativeOptions::default(),
        Some(opts.time_limit),
        &say,
    )
    .map_err(|e| PipelineError::Input(e.to_string()))?;
    let mut rep = report("native", "ida*", r.lower_bound as usize, started);
    rep.bound = Some(r.lower_bound as f64);
    rep.native = Some(NativeStats {
        heuristic,
        nodes: r.nodes,
        initial_h: r.initial_h,
        db_seconds: db.as_ref().map_or(0.0, |d| d.seconds),
        db_source: match db.map(|d| d.source) {
            Some(search::pdb::DbSource::Loaded) => "loaded".into(),
            Some(search::pdb::DbSource::Built(_)) => "built".into(),
            None => "none".into(),
        },
        search_seconds: r.seconds,
    });
    match (r.status, &r.moves) {
        (search::NativeStatus::Solved, Some(moves)) => {
            let v = verify_moves(p, goal, moves, Some(moves.len() as f64));
            rep.errors = v.errors;
            rep.objective = v.objective;
            rep.verified = rep.errors.is_empty();
            rep.optimal = rep.verified;
            rep.moves = Some(moves_to_string(moves));
            rep.status = if rep.verified { "solved" } else { "unverified" }.into();
            rep.solver_status = "optimal: IDA* exhausted every shorter bound".into();
        }
        (search::NativeStatus::Unsolvable, _) => {
            rep.status = "infeasible".into();
            rep.solver_status = "the board cannot reach the goal (permutation parity)".into();
        }
        _ => {
            rep.status = "time_limit".into();
            rep.solver_status = format!("stopped; at least {} moves", r.lower_bound);
        }
    }
    rep.seconds = started.elapsed().as_secs_f64();
    Ok(rep)
}

fn registry_entry(
    opts: &SolveOptions,
    name: &str,
    kind: &str,
) -> Result<SolverEntry, PipelineError> {
    let reg = Registry::load(opts.solvers_file.as_deref())
        .map_err(|e| PipelineError::Input(e.to_string()))?;
    let entry = reg.get(name).ok_or_else(|| {
        PipelineError::Input(format!(
            "no solver named {name:?} in the registry ({}); known: {}",
            reg.source(),
            reg.names().join(", ")
        ))
    })?;
    if entry.kind.as_str() != kind {
        return Err(PipelineError::Input(format!(
            "solver {name:?} is a {} solver, not a {kind} one",
            entry.kind.as_str()
        )));
    }
    Ok(entry.clone())
}

/// Write `model` in `entry`'s input format (LP or MPS) to a temporary directory and solve it
/// with that external solver; the directory and its files are removed afterwards.
pub(crate) fn run_milp_entry(
    model: &crate::model::milp::Model,
    entry: &crate::solve::registry::SolverEntry,
    time_limit: Duration,
    threads: u32,
) -> Result<MilpSolution, PipelineError> {
    let dir = tempfile::tempdir().map_err(sys)?;
    let path = dir.path().join(format!("model.{}", entry.input.as_str()));
    let mut file = std::io::BufWriter::new(std::fs::File::create(&path).map_err(sys)?);
    match entry.input.as_str() {
        "mps" => mps::write_mps(model, &mut file).map(|_| ()),
        _ => lp::write_lp(model, &mut file).map(|_| ()),
    }
    .map_err(sys)?;
    // Flush explicitly: a BufWriter dropped with an error would lose it silently.
    file.flush().map_err(sys)?;
    drop(file);
    let (sol, _run) =
        crate::solve::milp_external::solve_milp_file(entry, &path, dir.path(), time_limit, threads)
            .map_err(|e| PipelineError::Solver(e.to_string()))?;
    Ok(sol)
}

fn solve_milp(
    p: &SlidingPuzzle,
    goal: Goal,
    opts: &SolveOptions,
) -> Result<SolveReport, PipelineError> {
    let started = Instant::now();
    let horizon = resolve_horizon(p, opts.horizon)?;
    let solver = opts.solver.clone().unwrap_or_else(|| "microlp".into());
    let built = SlidingMilp::build(p, goal, opts.model, horizon)?;
    let model = built.model();
    if let Some(cb) = opts.progress {
        cb(&format!("built {model}; solving with {solver}"));
    }
    let sol: MilpSolution = with_heartbeat(opts.progress, &solver, opts.time_limit, || {
        if solver == "microlp" {
            return solve_microlp(model, opts.time_limit).map_err(sys);
        }
        let entry = registry_entry(opts, &solver, "milp")?;
        run_milp_entry(model, &entry, opts.time_limit, opts.threads)
    })?;
    let mut rep = report(opts.model.name(), &solver, horizon, started);
    rep.solver_status = sol.status_text.clone();
    finish_milp(&mut rep, &built, p, goal, &sol);
    rep.seconds = started.elapsed().as_secs_f64();
    Ok(rep)
}

/// Run `work` while a background thread reports the elapsed time every 5 s through
/// `progress` (so a long solver run shows it is alive); silent when `progress` is `None`.
fn with_heartbeat<T>(
    progress: Option<fn(&str)>,
    solver: &str,
    limit: Duration,
    work: impl FnOnce() -> T,
) -> T {
    let Some(cb) = progress else {
        return work();
    };
    let done = std::sync::atomic::AtomicBool::new(false);
    let started = Instant::now();
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let mut next = 5;
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(100));
                let secs = started.elapsed().as_secs();
                if secs >= next {
                    cb(&format!(
                        "{solver} running: {secs} s of at most {:.0} s",
                        limit.as_secs_f64()
                    ));
                    next += 5;
                }
            }
        });
        let out = work();
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        out
    })
}

/// Decode a MILP solution of a sliding model and verify it at both levels.
pub fn finish_milp(
    rep: &mut SolveReport,
    built: &SlidingMilp,
    p: &SlidingPuzzle,
    goal: Goal,
    sol: &MilpSolution,
) {
    rep.status = match sol.outcome {
        Outcome::Optimal | Outcome::Feasible => "solved",
        Outcome::Infeasible => "infeasible",
        Outcome::Unbounded => "unbounded",
        Outcome::TimeLimit => "time_limit",
        Outcome::Unknown => "no_solution",
    }
    .into();
    rep.optimal = sol.outcome == Outcome::Optimal;
    if !sol.outcome.has_solution() {
        return;
    }
    let x = match sol.resolve(built.model()) {
        Ok(x) => x,
        Err(e) => {
            rep.status = "unverified".into();
            rep.errors.push(e.to_string());
            return;
        }
    };
    let model_check = verify::milp::check_point(built.model(), &x, sol.objective);
    rep.errors.extend(model_check.errors);
    match built.decode(&x) {
        Ok(moves) => {
            let v = verify_moves(p, goal, &moves, sol.objective);
            rep.errors.extend(v.errors);
            rep.objective = v.objective;
            rep.moves = Some(moves_to_string(&moves));
        }
        Err(e) => rep.errors.push(e),
    }
    rep.verified = rep.errors.is_empty();
    if !rep.verified {
        rep.status = "unverified".into();
        rep.optimal = false;
    }
    if rep.optimal {
        rep.bound = rep.objective;
    }
}

/// Puzzle-level verification of a plan by the independent replayer.
pub fn verify_moves(
    p: &SlidingPuzzle,
    goal: Goal,
    moves: &[Move],
    claimed: Option<f64>,
) -> Verdict {
    let goal_board = goal.board(p.cells());
    verify::sliding::check_moves(
        p.rows(),
        p.cols(),
        p.tiles(),
        &goal_board,
        &moves_to_string(moves),
        claimed,
    )
}

fn solve_sat(
    p: &SlidingPuzzle,
    goal: Goal,
    opts: &SolveOptions,
) -> Result<SolveReport, PipelineError> {
    solve_sliding_sat(p, goal, opts, &SatOptions::default()).map(|r| r.report)
}

/// Options only the SAT route has (kept out of [`SolveOptions`] so its other users need not
/// change).
#[derive(Debug, Clone, Default)]
pub struct SatOptions {
    /// The CNF encoding (default: pruned).
    pub encoding: sliding_sat::Encoding,
    /// Certify optimality with a checked proof (`--certify`).
    pub certify: Option<crate::certify::CertifyOptions>,
    /// With `certify`: a plan from elsewhere (`--plan FILE`) to replay and certify instead of
    /// searching; only its length − 2 is refuted.
    pub plan: Option<Vec<Move>>,
}

/// A SAT-route report: the common report plus the encoding and, with `--certify`, the
/// optimality certificate (`certificate` in JSON).
#[derive(Debug, Clone, serde::Serialize)]
pub struct SatReport {
    /// The common fields.
    #[serde(flatten)]
    pub report: SolveReport,
    /// The CNF encoding used.
    pub encoding: sliding_sat::Encoding,
    /// The certificate, when one was asked for and a plan was claimed optimal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub certificate: Option<crate::certify::Certificate>,
}

impl SatReport {
    /// True when the answer is a full "yes": a verified plan and, when a certificate was
    /// asked for, a certified one.
    pub fn success(&self, certify: bool) -> bool {
        self.report.verified && (!certify || self.certificate.as_ref().is_some_and(|c| c.certified))
    }
    /// As [`SolveReport::render`], with the certificate's summary in text mode.
    pub fn render(&self, json: bool) -> String {
        if json {
            return serde_json::to_string(self).unwrap_or_default();
        }
        let line = self.report.render(false);
        match &self.certificate {
            Some(c) => format!("{line}\n{}", c.summary()),
            None => line,
        }
    }
}

/// The proof-producing engine for `--certify --solver NAME`.
fn proof_producer(
    opts: &SolveOptions,
    solver: &str,
) -> Result<crate::certify::Producer, PipelineError> {
    if solver == "varisat" {
        return Ok(crate::certify::Producer::Varisat);
    }
    let entry = registry_entry(opts, solver, "sat")?;
    if !crate::solve::sat_proof::writes_proofs(&entry) {
        return Err(PipelineError::Input(format!(
            "solver {solver:?} cannot write DRAT proofs: certify with varisat, cadical or kissat"
        )));
    }
    Ok(crate::certify::Producer::External(entry, opts.time_limit))
}

/// Solve a sliding puzzle by SAT (horizon stepped to optimality) in the chosen encoding,
/// optionally certifying optimality with a checked DRAT proof.
pub fn solve_sliding_sat(
    p: &SlidingPuzzle,
    goal: Goal,
    opts: &SolveOptions,
    sat: &SatOptions,
) -> Result<SatReport, PipelineError> {
    let started = Instant::now();
    let solver = opts.solver.clone().unwrap_or_else(|| "varisat".into());
    if opts.horizon == Some(0) {
        return Err(PipelineError::Input("--horizon must be at least 1".into()));
    }
    // The SAT route steps up to this horizon; without a known diameter, a generous cap.
    let max_h = opts
        .horizon
        .or_else(|| sliding_neos::default_horizon(p.rows(), p.cols()))
        .unwrap_or(200);
    let progress = |_: usize, s: &sliding_sat::SatStep| {
        if let Some(cb) = opts.progress {
            cb(&format!(
                "horizon {}: {:?} in {:.2} s ({} vars, {} clauses)",
                s.horizon, s.result, s.seconds, s.vars, s.clauses
            ));
        }
    };
    let encoding = sat.encoding;
    let mut certificate = None;
    if let (Some(cert_opts), Some(moves)) = (&sat.certify, &sat.plan) {
        let producer = proof_producer(opts, &solver)?;
        let mut rep = report("sat", &solver, moves.len(), started);
        let v = verify_moves(p, goal, moves, None);
        rep.moves = Some(moves_to_string(moves));
        rep.objective = v.objective;
        rep.errors = v.errors;
        rep.verified = rep.errors.is_empty();
        rep.status = if rep.verified { "solved" } else { "unverified" }.into();
        rep.solver_status = "plan given; search skipped".into();
        if rep.verified {
            let cert =
                crate::certify::certify_plan(p, goal, moves.len(), encoding, &producer, cert_opts)
                    .map_err(|e| PipelineError::Solver(e.to_string()))?;
            rep.optimal = cert.certified;
            if rep.optimal {
                rep.bound = rep.objective;
            }
            certificate = Some(cert);
        }
        rep.seconds = started.elapsed().as_secs_f64();
        return Ok(SatReport {
            report: rep,
            encoding,
            certificate,
        });
    }
    let plan = if let Some(cert_opts) = &sat.certify {
        if !p.is_solvable(goal) {
            return Err(PipelineError::Solver(
                sliding_sat::SatPlanError::<String>::Unsolvable(goal).to_string(),
            ));
        }
        let producer = proof_producer(opts, &solver)?;
        let (plan, cert) = crate::certify::solve_certified(
            p, goal, max_h, encoding, &producer, cert_opts, progress,
        )
        .map_err(|e| PipelineError::Solver(e.to_string()))?;
        certificate = cert;
        plan
    } else if solver == "varisat" {
        sliding_sat::solve_optimal_with(
            p,
            goal,
            max_h,
            encoding,
            |cnf, _| solve_varisat_checked(cnf),
            progress,
        )
        .map_err(|e| PipelineError::Solver(e.to_string()))?
    } else {
        let entry = registry_entry(opts, &solver, "sat")?;
        let dir = tempfile::tempdir().map_err(sys)?;
        let path = dir.path().join("model.cnf");
        sliding_sat::solve_optimal_with(
            p,
            goal,
            max_h,
            encoding,
            |cnf, _| -> Result<SatOutcome, String> {
                let f = std::io::BufWriter::new(
                    std::fs::File::create(&path).map_err(|e| e.to_string())?,
                );
                dimacs_cnf::write_cnf(cnf, f).map_err(|e| e.to_string())?;
                crate::solve::milp_external::solve_sat_file(
                    &entry,
                    &path,
                    dir.path(),
                    opts.time_limit,
                    cnf.num_vars(),
                )
                .map(|(o, _)| o)
                .map_err(|e| e.to_string())
            },
            progress,
        )
        .map_err(|e| PipelineError::Solver(e.to_string()))?
    };
    let mut rep = report("sat", &solver, plan.horizon.unwrap_or(max_h), started);
    rep.bound = Some(plan.lower_bound as f64);
    match &plan.moves {
        Some(moves) => {
            let v = verify_moves(p, goal, moves, plan.horizon.map(|h| h as f64));
            rep.errors = v.errors;
            rep.objective = v.objective;
            rep.verified = rep.errors.is_empty();
            rep.optimal = plan.optimal && rep.verified;
            if rep.optimal {
                rep.bound = rep.objective;
            }
            rep.moves = Some(moves_to_string(moves));
            rep.status = if rep.verified { "solved" } else { "unverified" }.into();
        }
        None => {
            let last = plan.steps.last().map(|s| s.result);
            rep.status = match last {
                Some(sliding_sat::StepResult::Unknown) => "time_limit".into(),
                _ => "no_solution".into(),
            };
        }
    }
    rep.solver_status = plan
        .steps
        .iter()
        .map(|s| format!("T={}:{:?}", s.horizon, s.result))
        .collect::<Vec<_>>()
        .join(" ");
    rep.seconds = started.elapsed().as_secs_f64();
    Ok(SatReport {
        report: rep,
        encoding,
        certificate,
    })
}

/// A solution file of any kind `verify` accepts, detected from its content.
#[derive(Debug)]
pub enum AnySolution {
    /// A tilekit move list.
    Moves(Vec<Move>),
    /// A raw MILP solver output.
    Milp(MilpSolution, &'static str),
    /// A raw SAT solver output.
    Sat(SatOutcome),
}

/// Detect and parse a solution file. `num_vars` is needed for SAT outputs.
pub fn parse_any_solution(
    text: &str,
    source: &str,
    num_vars: Option<usize>,
) -> Result<AnySolution, PipelineError> {
    let first = text
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim();
    if first.starts_with("Model status") {
        return Ok(AnySolution::Milp(highs::parse(text, source)?, "highs"));
    }
    if first.starts_with("c Problem:") || first.starts_with("s mip") || first.starts_with("s bas") {
        return Ok(AnySolution::Milp(glpk::parse(text, source)?, "glpk"));
    }
    if first.contains("objective value")
        || first.starts_with("Infeasible")
        || first.starts_with("Integer infeasible")
        || first.starts_with("Unbounded")
        || first.starts_with("Stopped on")
    {
        return Ok(AnySolution::Milp(cbc::parse(text, source)?, "cbc"));
    }
    if text
        .lines()
        .any(|l| l.starts_with("s SATISFIABLE") || l.starts_with("s UNSATISFIABLE"))
    {
        let n = num_vars.ok_or_else(|| {
            PipelineError::Input("a SAT output needs --model sat and --horizon".into())
        })?;
        return Ok(AnySolution::Sat(sat_out::parse(text, source, n)?));
    }
    Ok(AnySolution::Moves(crate::puzzle::sliding::parse_moves(
        text, source,
    )?))
}

/// Verify a solution file against an instance. Raw solver outputs are decoded through the
/// model rebuilt with the same `model` and `horizon` as at export.
pub fn verify_sliding(
    p: &SlidingPuzzle,
    goal: Goal,
    text: &str,
    source: &str,
    model: Option<SlidingModel>,
    horizon: Option<usize>,
) -> Result<Verdict, PipelineError> {
    let sat_vars = match (model, horizon) {
        (Some(SlidingModel::Sat), Some(h)) => Some(sliding_sat::build(p, goal, h).cnf().num_vars()),
        _ => None,
    };
    match parse_any_solution(text, source, sat_vars)? {
        AnySolution::Moves(moves) => Ok(verify_moves(p, goal, &moves, None)),
        AnySolution::Milp(sol, _) => {
            if model == Some(SlidingModel::Sat) {
                return Err(PipelineError::Input(
                    "a MILP solver output cannot belong to --model sat".into(),
                ));
            }
            let h = resolve_horizon(p, horizon)?;
            let built = SlidingMilp::build(p, goal, model.unwrap_or(SlidingModel::Neos), h)?;
            if !sol.outcome.has_solution() {
                return Ok(Verdict {
                    valid: false,
                    objective: None,
                    errors: vec![format!(
                        "the solver output has no solution (status: {})",
                        sol.status_text
                    )],
                });
            }
            let x = sol
                .resolve(built.model())
                .map_err(|e| PipelineError::Input(format!("{source}: {e}")))?;
            let mut v = verify::milp::check_point(built.model(), &x, sol.objective);
            match built.decode(&x) {
                Ok(moves) => {
                    let pv = verify_moves(p, goal, &moves, sol.objective);
                    v.errors.extend(pv.errors);
                    v.objective = pv.objective;
                }
                Err(e) => v.errors.push(e),
            }
            v.valid = v.errors.is_empty();
            Ok(v)
        }
        AnySolution::Sat(out) => {
            let h = horizon
                .ok_or_else(|| PipelineError::Input("a SAT output needs --horizon".into()))?;
            let enc = sliding_sat::build(p, goal, h);
            match out {
                SatOutcome::Sat(model) => {
                    let mut errors = Vec::new();
                    if let Some(c) = enc.cnf().first_violated(&model) {
                        errors.push(format!(
                            "the assignment violates clause {} of the CNF",
                            c + 1
                        ));
                    }
                    match enc.decode(&model) {
                        Ok(moves) => {
                            let pv = verify_moves(p, goal, &moves, Some(h as f64));
                            errors.extend(pv.errors);
                            Ok(Verdict {
                                valid: errors.is_empty(),
                                objective: pv.objective,
                                errors,
                            })
                        }
                        Err(e) => {
                            errors.push(e.to_string());
                            Ok(Verdict {
                                valid: false,
                                objective: None,
                                errors,
                            })
                        }
                    }
                }
                other => Ok(Verdict {
                    valid: false,
                    objective: None,
                    errors: vec![format!("the SAT output carries no model ({other:?})")],
                }),
            }
        }
    }
}
