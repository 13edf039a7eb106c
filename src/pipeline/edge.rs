//! The pipeline for edge-matching puzzles: export a model, solve it through a MILP solver,
//! decode the values to a board and verify it independently, and verify raw solver outputs.
//!
//! Models: [`EdgeModel::Milp`] (Salassa et al., [`crate::formulate::edge_milp`]) solved by a
//! MILP solver; [`EdgeModel::Clique`] (the paper's §2.2 graph, [`crate::formulate::edge_clique`])
//! solved by a max-clique solver (cliquer); [`EdgeModel::Sat`] (a CNF whose models are the
//! perfect boards, [`crate::formulate::edge_sat`]) solved by varisat or an external SAT solver.
//! Every answer is decoded to a board and checked by the independent verifier.

use super::{PipelineError, sys, with_heartbeat};
use crate::format::gams::{GamsOptions, write_edge_milp_gms};
use crate::format::solution::{clique as clique_answer, sat as sat_answer};
use crate::format::{dimacs_cnf, lp, mps};
use crate::formulate::edge_clique::{self, CliqueOptions, EdgeClique};
use crate::formulate::edge_milp::{self, EdgeMilp, EdgeMilpOptions};
use crate::formulate::edge_sat::{self, EdgeSat, SatOptions};
use crate::puzzle::edge::{Board, EdgePuzzle, verify_board};
use crate::solve::clique_external::{CliqueOutcome, solve_clique_file};
use crate::solve::milp_embedded::solve_microlp;
use crate::solve::registry::{Registry, SolverEntry, SolverKind};
use crate::solve::sat_embedded::solve_varisat;
use crate::solve::{MilpSolution, Outcome, SatOutcome};
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

/// The clique graph: always the paper's graph (R1 border filter and R2, the first corner
/// piece fixed in the top-left corner).
pub fn build_clique(p: &EdgePuzzle) -> EdgeClique {
    edge_clique::build(p, &CliqueOptions::default())
}

/// The CNF; `--fix-corner` adds R2 (off by default, so every perfect board is a model).
pub fn build_sat(p: &EdgePuzzle, opts: EdgeMilpOptions) -> EdgeSat {
    edge_sat::build(
        p,
        &SatOptions {
            fix_first_corner: opts.fix_first_corner,
        },
    )
}

/// Check that `model` can be written as `format` (and, with `complement`, that it is the
/// clique graph), before any output file is created.
pub fn check_format(model: EdgeModel, format: &str, complement: bool) -> Result<(), PipelineError> {
    if complement && model != EdgeModel::Clique {
        return Err(PipelineError::Input(
            "--complement writes the conflict graph of --model clique only".into(),
        ));
    }
    let ok = match model {
        EdgeModel::Milp => matches!(format, "lp" | "mps" | "gms"),
        EdgeModel::Clique => matches!(format, "dimacs" | "clq" | "col"),
        EdgeModel::Sat => format == "cnf",
    };
    if ok {
        return Ok(());
    }
    let allowed = match model {
        EdgeModel::Milp => "lp, mps or gms",
        EdgeModel::Clique => "dimacs (also .clq or .col)",
        EdgeModel::Sat => "cnf",
    };
    Err(PipelineError::Input(format!(
        "the edge {} model cannot be written as {format:?}: use {allowed}",
        model.name()
    )))
}

/// Write `model` of `p` in `format` (`lp`, `mps`, `gms` for the MILP; `dimacs` for the clique
/// graph, its complement, the conflict graph, with `complement`; `cnf` for the CNF) to `out`.
/// The graph is streamed: memory stays proportional to its nodes, not its edges.
pub fn export_edge<W: Write>(
    p: &EdgePuzzle,
    model: EdgeModel,
    opts: EdgeMilpOptions,
    complement: bool,
    format: &str,
    mut out: W,
) -> Result<(), PipelineError> {
    check_format(model, format, complement)?;
    match (model, format) {
        (EdgeModel::Milp, "lp") => {
            lp::write_lp(&build_milp(p, opts)?.model, &mut out).map_err(sys)?;
        }
        (EdgeModel::Milp, "mps") => {
            mps::write_mps(&build_milp(p, opts)?.model, &mut out).map_err(sys)?;
        }
        (EdgeModel::Milp, _) => {
            write_edge_milp_gms(p, opts, &GamsOptions::default(), &mut out).map_err(
                |e| match e {
                    crate::format::gams::GamsError::EdgeMilp(_) => {
                        PipelineError::Input(e.to_string())
                    }
                    other => sys(other),
                },
            )?;
        }
        (EdgeModel::Clique, _) => {
            build_clique(p)
                .write_dimacs(complement, &mut out)
                .map_err(sys)?;
        }
        (EdgeModel::Sat, _) => {
            dimacs_cnf::write_cnf(build_sat(p, opts).cnf(), &mut out).map_err(sys)?;
        }
    }
    out.flush().map_err(sys)?;
    Ok(())
}

/// Options of an edge solve.
#[derive(Debug, Clone)]
pub struct EdgeSolveOptions {
    /// The MILP variant.
    pub milp: EdgeMilpOptions,
    /// `microlp` or a MILP registry entry (default `cbc`) for `--via milp`; a clique entry
    /// (default `cliquer`) for `--via clique`; `varisat` or a SAT entry (default `varisat`)
    /// for `--via sat`.
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
    /// The formulation (`milp`, `clique` or `sat`).
    pub model: String,
    /// milp: `faithful`, `filter`, `fix` or `filter_fix`; clique: `r1_r2`; sat: `plain` or
    /// `fix`.
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
                "{m} of {} inner edges matched ({} unmatched{}; {} {} via {}, {:.2} s, verified)",
                self.max,
                self.max - m,
                if self.optimal { ", optimal" } else { "" },
                self.model,
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

fn registry_entry(
    solvers_file: Option<&Path>,
    name: &str,
    kind: SolverKind,
) -> Result<SolverEntry, PipelineError> {
    let reg = Registry::load(solvers_file).map_err(|e| PipelineError::Input(e.to_string()))?;
    let entry = reg.get(name).ok_or_else(|| {
        PipelineError::Input(format!(
            "no solver named {name:?} in the registry ({}); known: {}",
            reg.source(),
            reg.names().join(", ")
        ))
    })?;
    if entry.kind != kind {
        return Err(PipelineError::Input(format!(
            "solver {name:?} is a {} solver, not a {} one",
            entry.kind.as_str(),
            kind.as_str()
        )));
    }
    Ok(entry.clone())
}

/// Solve `p` through `model` (`--via` names the route and must agree with the model) and
/// verify the board.
pub fn solve_edge(
    p: &EdgePuzzle,
    via: &str,
    model: EdgeModel,
    opts: &EdgeSolveOptions,
) -> Result<EdgeSolveReport, PipelineError> {
    match (via, model) {
        ("milp", EdgeModel::Milp) => solve_milp(p, opts),
        ("clique", EdgeModel::Clique) => solve_clique(p, opts),
        ("sat", EdgeModel::Sat) => solve_sat(p, opts),
        (v @ ("milp" | "clique" | "sat"), m) => Err(PipelineError::Input(format!(
            "--via {v} solves --model {v}, not {}",
            m.name()
        ))),
        (other, _) => Err(PipelineError::Input(format!(
            "--via {other} is not available for edge-matching puzzles: use milp, clique or sat"
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
        let entry = registry_entry(opts.solvers_file.as_deref(), &solver, SolverKind::Milp)?;
        super::run_milp_entry(model, &entry, opts.time_limit, opts.threads)
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

/// A report with nothing found yet.
fn empty_report(p: &EdgePuzzle, model: EdgeModel, variant: &str, solver: &str) -> EdgeSolveReport {
    EdgeSolveReport {
        status: "no_solution".into(),
        family: "edge".into(),
        model: model.name().into(),
        variant: variant.into(),
        solver: solver.into(),
        objective: None,
        bound: None,
        optimal: false,
        seconds: 0.0,
        verified: false,
        matched: None,
        max: p.max_score(),
        size: [0; 3],
        errors: Vec::new(),
        solver_status: String::new(),
        board: None,
    }
}

/// Finish a clique or sat report from its decoded answer: a board goes to [`finish_perfect`],
/// a decode error leaves the answer unverified.
fn finish_decoded<E: std::fmt::Display>(
    rep: &mut EdgeSolveReport,
    p: &EdgePuzzle,
    decoded: Result<Board, E>,
) {
    match decoded {
        Ok(board) => finish_perfect(rep, p, board),
        Err(e) => {
            rep.status = "unverified".into();
            rep.errors.push(e.to_string());
        }
    }
}

/// Verify a decoded board of a route whose models are perfect boards only (clique, sat): the
/// board must pass the independent verifier with every inner seam matched.
fn finish_perfect(rep: &mut EdgeSolveReport, p: &EdgePuzzle, board: Board) {
    let v = verify_board(p, &board, Some(0.0));
    rep.errors = v.errors;
    rep.matched = Some(v.matched);
    rep.objective = Some(v.objective);
    rep.board = Some(board);
    rep.verified = rep.errors.is_empty();
    rep.status = if rep.verified { "solved" } else { "unverified" }.into();
    // A perfect board cannot be beaten.
    rep.optimal = rep.verified;
    rep.bound = rep.verified.then_some(0.0);
}

fn solve_clique(p: &EdgePuzzle, opts: &EdgeSolveOptions) -> Result<EdgeSolveReport, PipelineError> {
    let started = Instant::now();
    let solver = opts.solver.clone().unwrap_or_else(|| "cliquer".into());
    let entry = registry_entry(opts.solvers_file.as_deref(), &solver, SolverKind::Clique)?;
    let graph = build_clique(p);
    let mut rep = empty_report(p, EdgeModel::Clique, "r1_r2", &solver);
    rep.size = [
        graph.num_nodes(),
        usize::try_from(graph.count_edges(false)).unwrap_or(usize::MAX),
        0,
    ];
    if let Some(cb) = opts.progress {
        cb(&format!(
            "clique graph: {} nodes, {} edges; solving with {solver}",
            graph.num_nodes(),
            graph.count_edges(false)
        ));
    }
    let outcome = with_heartbeat(opts.progress, &solver, opts.time_limit, || {
        let dir = tempfile::tempdir().map_err(sys)?;
        let path = dir.path().join("graph.dimacs");
        let mut file = std::io::BufWriter::new(std::fs::File::create(&path).map_err(sys)?);
        graph.write_dimacs(false, &mut file).map_err(sys)?;
        file.flush().map_err(sys)?;
        drop(file);
        let (outcome, _run) = solve_clique_file(
            &entry,
            &path,
            dir.path(),
            opts.time_limit,
            graph.num_nodes(),
        )
        .map_err(|e| PipelineError::Solver(e.to_string()))?;
        Ok::<_, PipelineError>(outcome)
    })?;
    match outcome {
        CliqueOutcome::TimeLimit => {
            rep.status = "time_limit".into();
            rep.solver_status = "killed at the time limit".into();
        }
        CliqueOutcome::Found(ids) => {
            rep.solver_status = format!("maximum clique of {} vertices", ids.len());
            let target = graph.target_size();
            if ids.len() < target {
                // cliquer proves its clique maximum: no clique covers every cell.
                rep.status = "infeasible".into();
                rep.errors.push(format!(
                    "no perfect board: the maximum clique has {} of the {target} vertices a board needs",
                    ids.len()
                ));
            } else {
                finish_decoded(&mut rep, p, graph.decode(&ids));
            }
        }
    }
    rep.seconds = started.elapsed().as_secs_f64();
    Ok(rep)
}

fn solve_sat(p: &EdgePuzzle, opts: &EdgeSolveOptions) -> Result<EdgeSolveReport, PipelineError> {
    let started = Instant::now();
    let solver = opts.solver.clone().unwrap_or_else(|| "varisat".into());
    let entry = if solver == "varisat" {
        None
    } else {
        Some(registry_entry(
            opts.solvers_file.as_deref(),
            &solver,
            SolverKind::Sat,
        )?)
    };
    let sat = build_sat(p, opts.milp);
    let cnf = sat.cnf();
    let variant = if opts.milp.fix_first_corner {
        "fix"
    } else {
        "plain"
    };
    let mut rep = empty_report(p, EdgeModel::Sat, variant, &solver);
    rep.size = [cnf.num_vars(), cnf.num_clauses(), 0];
    if let Some(cb) = opts.progress {
        cb(&format!(
            "CNF: {} variables, {} clauses; solving with {solver}",
            cnf.num_vars(),
            cnf.num_clauses()
        ));
    }
    let outcome = with_heartbeat(opts.progress, &solver, opts.time_limit, || {
        let Some(entry) = &entry else {
            return Ok::<_, PipelineError>(solve_varisat(cnf));
        };
        let dir = tempfile::tempdir().map_err(sys)?;
        let path = dir.path().join("model.cnf");
        let mut file = std::io::BufWriter::new(std::fs::File::create(&path).map_err(sys)?);
        dimacs_cnf::write_cnf(cnf, &mut file).map_err(sys)?;
        file.flush().map_err(sys)?;
        drop(file);
        let (outcome, _run) = crate::solve::milp_external::solve_sat_file(
            entry,
            &path,
            dir.path(),
            opts.time_limit,
            cnf.num_vars(),
        )
        .map_err(|e| PipelineError::Solver(e.to_string()))?;
        Ok(outcome)
    })?;
    match outcome {
        SatOutcome::Unknown => {
            rep.status = "time_limit".into();
            rep.solver_status = "UNKNOWN".into();
        }
        SatOutcome::Unsat => {
            rep.status = "infeasible".into();
            rep.solver_status = "UNSATISFIABLE".into();
            rep.errors
                .push("no perfect board: the solver proved the CNF unsatisfiable".into());
        }
        SatOutcome::Sat(model) => {
            rep.solver_status = "SATISFIABLE".into();
            if let Some(i) = cnf.first_violated(&model) {
                rep.status = "unverified".into();
                rep.errors
                    .push(format!("the model violates clause {} of the CNF", i + 1));
            } else {
                finish_decoded(&mut rep, p, sat.decode(&model));
            }
        }
    }
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
    /// Which parser read the file (`cbc`, `highs`, `glpk`, `cliquer`, `sat`).
    pub solver: String,
    /// The solver's status text.
    pub solver_status: String,
    /// The model the output was decoded through (`milp`, `clique`, `sat`).
    pub model: String,
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
        model: "milp".into(),
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

/// Verify a raw clique answer (cliquer's output or a plain 1-based vertex list) or a raw SAT
/// answer (SAT-competition `s`/`v` lines) through the clique graph or the CNF rebuilt as at
/// export (`opts.fix_first_corner` for the CNF), at both levels: the answer must be a clique
/// of the graph / a model of every clause, and its board must pass the independent verifier
/// as a perfect board.
pub fn verify_edge_raw_model(
    p: &EdgePuzzle,
    model: EdgeModel,
    text: &str,
    source: &str,
    opts: EdgeMilpOptions,
) -> Result<EdgeRawVerdict, PipelineError> {
    let mut v = EdgeRawVerdict {
        valid: false,
        objective: None,
        matched: None,
        max: p.max_score(),
        solver: String::new(),
        solver_status: String::new(),
        model: model.name().into(),
        variant: String::new(),
        errors: Vec::new(),
    };
    let board = match model {
        EdgeModel::Milp => {
            return verify_edge_raw(p, text, source, opts)?.ok_or_else(|| {
                PipelineError::Input(format!(
                    "{source}: not a CBC, HiGHS or GLPK solution file; --model milp verifies raw solver outputs (a board needs no --model)"
                ))
            });
        }
        EdgeModel::Clique => {
            let graph = build_clique(p);
            v.solver = "cliquer".into();
            v.variant = "r1_r2".into();
            let ids = clique_answer::parse(text, source, graph.num_nodes())?;
            v.solver_status = format!("clique of {} vertices", ids.len());
            if let Some((a, b)) = crate::model::graph::first_non_adjacent(&graph, &ids) {
                v.errors.push(format!(
                    "vertices {} and {} are not adjacent in the graph, so the answer is not a clique",
                    a + 1,
                    b + 1
                ));
            }
            match graph.decode(&ids) {
                Ok(b) => b,
                Err(e) => {
                    v.errors.push(e.to_string());
                    return Ok(v);
                }
            }
        }
        EdgeModel::Sat => {
            let sat = build_sat(p, opts);
            v.solver = "sat".into();
            v.variant = if opts.fix_first_corner {
                "fix"
            } else {
                "plain"
            }
            .into();
            let assignment = match sat_answer::parse(text, source, sat.cnf().num_vars())? {
                SatOutcome::Sat(m) => m,
                other => {
                    v.solver_status = format!("{other:?}");
                    v.errors
                        .push("the solver output has no model (UNSAT or UNKNOWN)".into());
                    return Ok(v);
                }
            };
            v.solver_status = "SATISFIABLE".into();
            if let Some(i) = sat.cnf().first_violated(&assignment) {
                v.errors
                    .push(format!("the model violates clause {} of the CNF", i + 1));
            }
            match sat.decode(&assignment) {
                Ok(b) => b,
                Err(e) => {
                    v.errors.push(e.to_string());
                    return Ok(v);
                }
            }
        }
    };
    let bv = verify_board(p, &board, Some(0.0));
    v.errors.extend(bv.errors);
    v.matched = Some(bv.matched);
    v.objective = Some(bv.objective);
    v.valid = v.errors.is_empty();
    Ok(v)
}
