//! The pipeline for edge-matching puzzles: export a model, solve it through a MILP solver,
//! decode the values to a board and verify it independently, and verify raw solver outputs.
//!
//! Models: [`EdgeModel::Milp`] (Salassa et al., [`crate::formulate::edge_milp`]) is built
//! here. The `clique` and `sat` models are built on another branch; their arms all go through
//! [`not_built`], the one place to wire them.

use super::{PipelineError, sys, with_heartbeat};
use crate::format::gams::{GamsOptions, write_edge_milp_gms};
use crate::format::{lp, mps};
use crate::formulate::edge_milp::{self, EdgeMilp, EdgeMilpOptions};
use crate::puzzle::edge::{Board, EdgePuzzle, verify_board};
use crate::solve::milp_embedded::solve_microlp;
use crate::solve::registry::{Registry, SolverEntry, SolverKind};
use crate::solve::{MilpSolution, Outcome};
use crate::verify;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Edge-matching formulations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EdgeModel {
    /// Salassa et al.'s MILP (1)–(14), faithful unless `--filter` / `--fix-corner`.
    Milp,
    /// The max-clique graph (DIMACS).
    Clique,
    /// A CNF.
    Sat,
}

impl EdgeModel {
    /// Parse a `--model` value.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "milp" => Some(EdgeModel::Milp),
            "clique" => Some(EdgeModel::Clique),
            "sat" => Some(EdgeModel::Sat),
            _ => None,
        }
    }
    /// The CLI name.
    pub fn name(self) -> &'static str {
        match self {
            EdgeModel::Milp => "milp",
            EdgeModel::Clique => "clique",
            EdgeModel::Sat => "sat",
        }
    }
    /// The format written when none is asked for.
    pub fn default_format(self) -> &'static str {
        match self {
            EdgeModel::Milp => "lp",
            EdgeModel::Clique => "dimacs",
            EdgeModel::Sat => "cnf",
        }
    }
}

/// The error for the models this version does not build (the only place they are refused).
pub fn not_built(model: EdgeModel) -> PipelineError {
    PipelineError::Input(format!(
        "the edge-matching {} model is not built in this version: use --model milp",
        model.name()
    ))
}

/// Parse `--model` for an edge puzzle.
pub fn model_of(s: &str) -> Result<EdgeModel, PipelineError> {
    EdgeModel::parse(s).ok_or_else(|| {
        PipelineError::Input(format!(
            "--model {s} is not known for edge-matching puzzles: use milp, clique or sat"
        ))
    })
}

/// Read and parse an edge-matching instance file.
pub fn load_edge(path: &Path) -> Result<EdgePuzzle, PipelineError> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        PipelineError::Input(format!("{}: cannot read the instance: {e}", path.display()))
    })?;
    Ok(EdgePuzzle::parse(&text, &path.display().to_string())?)
}

/// Build the MILP, turning a refused option into an input error.
pub fn build_milp(p: &EdgePuzzle, opts: EdgeMilpOptions) -> Result<EdgeMilp, PipelineError> {
    edge_milp::build(p, opts).map_err(|e| match e {
        edge_milp::EdgeMilpError::NotSquare { .. } => PipelineError::Input(e.to_string()),
        other => sys(other),
    })
}

/// Write `model` of `p` in `format` (`lp`, `mps`, `gms`; `dimacs`/`cnf` for the graph and
/// CNF models) to `out`.
pub fn export_edge<W: Write>(
    p: &EdgePuzzle,
    model: EdgeModel,
    opts: EdgeMilpOptions,
    format: &str,
    out: W,
) -> Result<(), PipelineError> {
    match (model, format) {
        (EdgeModel::Milp, "lp") => {
            lp::write_lp(&build_milp(p, opts)?.model, out).map_err(sys)?;
        }
        (EdgeModel::Milp, "mps") => {
            mps::write_mps(&build_milp(p, opts)?.model, out).map_err(sys)?;
        }
        (EdgeModel::Milp, "gms") => {
            write_edge_milp_gms(p, opts, &GamsOptions::default(), out).map_err(|e| match e {
                crate::format::gams::GamsError::EdgeMilp(_) => PipelineError::Input(e.to_string()),
                other => sys(other),
            })?;
        }
        (EdgeModel::Clique | EdgeModel::Sat, _) => return Err(not_built(model)),
        (EdgeModel::Milp, f) => {
            return Err(PipelineError::Input(format!(
                "the edge milp model cannot be written as {f:?}: use lp, mps or gms"
            )));
        }
    }
    Ok(())
}

/// Options of an edge solve.
#[derive(Debug, Clone)]
pub struct EdgeSolveOptions {
    /// The MILP variant.
    pub milp: EdgeMilpOptions,
    /// `microlp` or a registry entry (`cbc`, `highs`, `glpk`); default `cbc`.
    pub solver: Option<String>,
    /// Wall-clock limit of the solver run.
    pub time_limit: Duration,
    /// Threads for solvers that take them.
    pub threads: u32,
    /// Explicit registry file.
    pub solvers_file: Option<PathBuf>,
    /// Called with one line of progress at a time.
    pub progress: Option<fn(&str)>,
}

/// The report of an edge solve, printed as JSON by `--json`.
#[derive(Debug, Clone, serde::Serialize)]
pub struct EdgeSolveReport {
    /// `solved`, `infeasible`, `time_limit`, `no_solution`, `unverified`.
    pub status: String,
    /// Always `edge`.
    pub family: String,
    /// The formulation (`milp`).
    pub model: String,
    /// `faithful`, `filter`, `fix` or `filter_fix`.
    pub variant: String,
    /// The engine or solver used.
    pub solver: String,
    /// Unmatched inner seams of the decoded board, recounted by the verifier.
    pub objective: Option<f64>,
    /// A proven lower bound on the unmatched seams, where known (= objective when optimal).
    pub bound: Option<f64>,
    /// True when the solver proved optimality and the board verified.
    pub optimal: bool,
    /// Wall-clock seconds, end to end.
    pub seconds: f64,
    /// True when the board passed the independent verifier and the point the model check.
    pub verified: bool,
    /// Matched inner seams of the decoded board.
    pub matched: Option<usize>,
    /// Inner seams, `2RC − R − C`.
    pub max: usize,
    /// Variables, rows and nonzeros of the model solved.
    pub size: [usize; 3],
    /// What the checks found wrong.
    pub errors: Vec<String>,
    /// The solver's own status text.
    pub solver_status: String,
    /// The decoded board (design §4 format with colours), when there is one.
    #[serde(skip)]
    pub board: Option<Board>,
}

impl EdgeSolveReport {
    /// One JSON object, or one line of text.
    pub fn render(&self, json: bool) -> String {
        if json {
            return serde_json::to_string(self).unwrap_or_default();
        }
        match (self.verified, self.matched) {
            (true, Some(m)) => format!(
                "{m} of {} inner edges matched ({} unmatched{}; milp {} via {}, {:.2} s, verified)",
                self.max,
                self.max - m,
                if self.optimal { ", optimal" } else { "" },
                self.variant,
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

fn registry_entry(solvers_file: Option<&Path>, name: &str) -> Result<SolverEntry, PipelineError> {
    let reg = Registry::load(solvers_file).map_err(|e| PipelineError::Input(e.to_string()))?;
    let entry = reg.get(name).ok_or_else(|| {
        PipelineError::Input(format!(
            "no solver named {name:?} in the registry ({}); known: {}",
            reg.source(),
            reg.names().join(", ")
        ))
    })?;
    if entry.kind != SolverKind::Milp {
        return Err(PipelineError::Input(format!(
            "solver {name:?} is a {} solver, not a milp one",
            entry.kind.as_str()
        )));
    }
    Ok(entry.clone())
}

/// Solve `p` through `model` (only `milp` in this version) and verify the board.
pub fn solve_edge(
    p: &EdgePuzzle,
    via: &str,
    model: EdgeModel,
    opts: &EdgeSolveOptions,
) -> Result<EdgeSolveReport, PipelineError> {
    match (via, model) {
        ("milp", EdgeModel::Milp) => solve_milp(p, opts),
        ("milp", m) => Err(PipelineError::Input(format!(
            "--via milp solves --model milp, not {}",
            m.name()
        ))),
        ("clique", _) => Err(not_built(EdgeModel::Clique)),
        ("sat", _) => Err(not_built(EdgeModel::Sat)),
        (other, _) => Err(PipelineError::Input(format!(
            "--via {other} is not available for edge-matching puzzles: use milp"
        ))),
    }
}

fn solve_milp(p: &EdgePuzzle, opts: &EdgeSolveOptions) -> Result<EdgeSolveReport, PipelineError> {
    let started = Instant::now();
    let solver = opts.solver.clone().unwrap_or_else(|| "cbc".into());
    let built = build_milp(p, opts.milp)?;
    let model = &built.model;
    if let Some(cb) = opts.progress {
        cb(&format!("built {model}; solving with {solver}"));
    }
    let sol: MilpSolution = with_heartbeat(opts.progress, &solver, opts.time_limit, || {
        if solver == "microlp" {
            return solve_microlp(model, opts.time_limit).map_err(sys);
        }
        let entry = registry_entry(opts.solvers_file.as_deref(), &solver)?;
        let dir = tempfile::tempdir().map_err(sys)?;
        let path = dir.path().join(format!("model.{}", entry.input.as_str()));
        let mut file = std::io::BufWriter::new(std::fs::File::create(&path).map_err(sys)?);
        match entry.input.as_str() {
            "mps" => mps::write_mps(model, &mut file).map(|_| ()),
            _ => lp::write_lp(model, &mut file).map(|_| ()),
        }
        .map_err(sys)?;
        file.flush().map_err(sys)?;
        drop(file);
        let (sol, _run) = crate::solve::milp_external::solve_milp_file(
            &entry,
            &path,
            dir.path(),
            opts.time_limit,
            opts.threads,
        )
        .map_err(|e| PipelineError::Solver(e.to_string()))?;
        Ok(sol)
    })?;
    let mut rep = EdgeSolveReport {
        status: "no_solution".into(),
        family: "edge".into(),
        model: "milp".into(),
        variant: opts.milp.tag().into(),
        solver,
        objective: None,
        bound: None,
        optimal: false,
        seconds: 0.0,
        verified: false,
        matched: None,
        max: p.max_score(),
        size: [model.num_vars(), model.num_rows(), model.num_nonzeros()],
        errors: Vec::new(),
        solver_status: sol.status_text.clone(),
        board: None,
    };
    finish_milp(&mut rep, &built, p, &sol);
    rep.seconds = started.elapsed().as_secs_f64();
    Ok(rep)
}

/// What the checks of one MILP answer found.
struct Checked {
    board: Option<Board>,
    matched: Option<usize>,
    objective: Option<f64>,
    errors: Vec<String>,
}

/// Resolve the values onto the model, check the point against every row and bound
/// (objective compared with the solver's), decode to a board and verify the board with the
/// independent checker (unmatched seams recounted and compared with the solver's objective).
fn check_answer(built: &EdgeMilp, p: &EdgePuzzle, sol: &MilpSolution) -> Checked {
    let mut out = Checked {
        board: None,
        matched: None,
        objective: None,
        errors: Vec::new(),
    };
    let x = match sol.resolve(&built.model) {
        Ok(x) => x,
        Err(e) => {
            out.errors.push(e.to_string());
            return out;
        }
    };
    let model_check = verify::milp::check_point(&built.model, &x, sol.objective);
    out.errors.extend(model_check.errors);
    match built.decode(&x) {
        Ok(board) => {
            let v = verify_board(p, &board, sol.objective);
            out.errors.extend(v.errors);
            out.matched = Some(v.matched);
            out.objective = Some(v.objective);
            out.board = Some(board);
        }
        Err(e) => out.errors.push(e.to_string()),
    }
    out
}

fn finish_milp(rep: &mut EdgeSolveReport, built: &EdgeMilp, p: &EdgePuzzle, sol: &MilpSolution) {
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
    let c = check_answer(built, p, sol);
    rep.errors = c.errors;
    rep.matched = c.matched;
    rep.objective = c.objective;
    rep.board = c.board;
    rep.verified = rep.errors.is_empty();
    if !rep.verified {
        rep.status = "unverified".into();
        rep.optimal = false;
    }
    if rep.optimal {
        rep.bound = rep.objective;
    } else if rep.objective == Some(0.0) {
        // Zero unmatched seams cannot be beaten.
        rep.optimal = true;
        rep.bound = Some(0.0);
    }
}

/// The verdict on a raw solver output, printed as JSON by `verify --json`.
#[derive(Debug, Clone, serde::Serialize)]
pub struct EdgeRawVerdict {
    /// True when the point passes the model check and the board the independent verifier.
    pub valid: bool,
    /// Unmatched inner seams of the decoded board.
    pub objective: Option<f64>,
    /// Matched inner seams of the decoded board.
    pub matched: Option<usize>,
    /// Inner seams.
    pub max: usize,
    /// Which parser read the file (`cbc`, `highs`, `glpk`).
    pub solver: String,
    /// The solver's status text.
    pub solver_status: String,
    /// The variant the model was rebuilt as.
    pub variant: String,
    /// What the checks found wrong.
    pub errors: Vec<String>,
}

/// If `text` is a raw CBC/HiGHS/GLPK output, decode it through the MILP rebuilt with `opts`
/// and verify it at both levels; `Ok(None)` when it is not a raw MILP output.
pub fn verify_edge_raw(
    p: &EdgePuzzle,
    text: &str,
    source: &str,
    opts: EdgeMilpOptions,
) -> Result<Option<EdgeRawVerdict>, PipelineError> {
    let (sol, solver) = match super::parse_any_solution(text, source, None) {
        Ok(super::AnySolution::Milp(sol, solver)) => (sol, solver),
        _ => return Ok(None),
    };
    let built = build_milp(p, opts)?;
    let mut v = EdgeRawVerdict {
        valid: false,
        objective: None,
        matched: None,
        max: p.max_score(),
        solver: solver.into(),
        solver_status: sol.status_text.clone(),
        variant: opts.tag().into(),
        errors: Vec::new(),
    };
    if !sol.outcome.has_solution() {
        v.errors.push(format!(
            "the solver output has no solution (status: {})",
            sol.status_text
        ));
        return Ok(Some(v));
    }
    let c = check_answer(&built, p, &sol);
    v.errors = c.errors;
    v.matched = c.matched;
    v.objective = c.objective;
    v.valid = v.errors.is_empty();
    Ok(Some(v))
}
