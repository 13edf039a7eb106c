//! The edge-matching family as a table over the generic routes: its models (Salassa et al.'s
//! `milp` [`crate::formulate::edge_milp`], the `clique` graph of their §2.2
//! [`crate::formulate::edge_clique`], the `sat` CNF [`crate::formulate::edge_sat`], the
//! `maxsat` WCNF [`crate::formulate::edge_maxsat`]), the
//! formats each is written in, the route and default solver of each, and the rules of which
//! flags go together. Every answer is decoded to a board and judged by the independent
//! [`BoardChecker`].

use super::family::{
    self, Detect, ExportRequest, Exported, Family, Instance, RenderRequest, Rendered, Solved,
    Verified, VerifyRequest,
};
use super::method::{EdgeMethod, ExactMethod, ExactModel, HeuristicMethod, Method};
use super::size::Counts;
use super::{
    Answer, Checked, Claim, Details, Error, FamilyName, ModelName, Progress, Report, Solution,
    Status,
};
use crate::field::Field;
use crate::format::gams::{self, GamsOptions};
use crate::format::solution::{
    clique as clique_answer, maxsat as maxsat_answer, sat as sat_answer,
};
use crate::format::wcnf::{Dialect, write_wcnf};
use crate::format::{Format, dimacs_cnf, dimacs_graph, lp, mps};
use crate::formulate::edge_clique::{self, CliqueOptions, EdgeClique};
use crate::formulate::edge_maxsat::{self, EdgeMaxsat};
use crate::formulate::edge_milp::{self, EdgeMilp, EdgeMilpOptions};
use crate::formulate::edge_region;
use crate::formulate::edge_sat::{self, EdgeSat, SatOptions};
use crate::model::algebraic::Algebraic;
use crate::model::answer::{MaxsatOutcome, MilpSolution, SatOutcome};
use crate::puzzle::edge::{Board, EdgePuzzle};
use crate::solve::registry::Registry;
use crate::solve::{CliqueSolver, Limits, MaxsatSolver, MilpSolver, SatSolver};
use crate::verify::edge::{BoardChecker, EdgeVerdict};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

pub use super::models::EdgeModel;

/// Read and parse an edge-matching instance file.
pub fn load(path: &Path) -> Result<EdgePuzzle, Error> {
    let text = super::read_text(path, "instance")?;
    Ok(EdgePuzzle::parse(&text, &path.display().to_string())?)
}

/// The MILP variant's tag, as reports name it.
fn sat_variant(opts: EdgeMilpOptions) -> &'static str {
    if opts.fix_first_corner {
        "fix"
    } else {
        "plain"
    }
}

/// Build the MILP, turning a refused option into a usage error.
pub fn build_milp(p: &EdgePuzzle, opts: EdgeMilpOptions) -> Result<EdgeMilp, Error> {
    check_size(p, EdgeModel::Milp, opts)?;
    edge_milp::build(p, opts).map_err(milp_error)
}

/// The MILP stated algebraically, for GAMS: refuses what [`build_milp`] refuses, with the
/// same error (`fix_corner` on a rectangular board is a usage error).
pub fn build_algebraic(p: &EdgePuzzle, opts: EdgeMilpOptions) -> Result<Algebraic, Error> {
    check_size(p, EdgeModel::Milp, opts)?;
    edge_milp::algebraic(p, opts).map_err(milp_error)
}

/// A formulation's refusal as the route reports it: `fix_corner` on a rectangular board is
/// the user's choice of options; anything else is a bug.
fn milp_error(e: edge_milp::EdgeMilpError) -> Error {
    match e {
        edge_milp::EdgeMilpError::NotSquare { .. } => Error::Usage(e.to_string()),
        other => Error::failure(other),
    }
}

/// The clique graph: always the paper's graph (R1 border filter and R2, the first corner
/// piece fixed in the top-left corner).
pub fn build_clique(p: &EdgePuzzle) -> Result<EdgeClique, Error> {
    check_size(p, EdgeModel::Clique, EdgeMilpOptions::default())?;
    Ok(edge_clique::build(p, &CliqueOptions::default()))
}

/// Refuse a model that would not fit in memory, with its estimate.
fn check_size(p: &EdgePuzzle, model: EdgeModel, opts: EdgeMilpOptions) -> Result<(), Error> {
    super::size::check(
        super::size::edge(p, model, opts.filter_feasible),
        &format!(
            "the {} model of this {}×{} puzzle",
            model.name(),
            p.rows(),
            p.cols()
        ),
    )
}

/// The CNF; `fix_corner` adds R2 (off by default, so every perfect board is a model).
pub fn build_sat(p: &EdgePuzzle, opts: EdgeMilpOptions) -> Result<EdgeSat, Error> {
    check_size(p, EdgeModel::Sat, opts)?;
    Ok(edge_sat::build(
        p,
        &SatOptions {
            fix_first_corner: opts.fix_first_corner,
        },
    ))
}

/// The WCNF: the CNF's hard part with a guard per inner seam, one soft clause per seam;
/// `fix_corner` adds R2 (the optimum stays the same: see [`edge_maxsat`]).
pub fn build_maxsat(p: &EdgePuzzle, opts: EdgeMilpOptions) -> Result<EdgeMaxsat, Error> {
    check_size(p, EdgeModel::Maxsat, opts)?;
    Ok(edge_maxsat::build(
        p,
        &SatOptions {
            fix_first_corner: opts.fix_first_corner,
        },
    ))
}

/// Check that `model` can be written as the format called `name` (a format's name or a
/// file extension) and, with `complement`, that it is the clique graph, before any output
/// file is created.
pub fn check_format(model: EdgeModel, name: &str, complement: bool) -> Result<Format, Error> {
    if complement && model != EdgeModel::Clique {
        return Err(Error::usage(format!(
            "{f_complement} writes the conflict graph of {f_model} clique only",
            f_complement = Field::Complement,
            f_model = Field::Model
        )));
    }
    let (formats, allowed) = model.formats();
    Format::from_name(name)
        .filter(|f| formats.contains(f))
        .ok_or_else(|| {
            Error::Usage(format!(
                "the edge {} model cannot be written as {name:?}: use {allowed}",
                model.name()
            ))
        })
}

/// The format of an export: `format`, else the output file's extension, else the model's
/// default; checked against the model.
pub fn export_format(
    model: EdgeModel,
    explicit: Option<Format>,
    output: Option<&Path>,
    complement: bool,
) -> Result<Format, Error> {
    let name = match (explicit, output.filter(|o| *o != Path::new("-"))) {
        (Some(f), _) => f.name().to_string(),
        (None, Some(o)) => o
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("")
            .to_string(),
        _ => model.default_format().name().to_string(),
    };
    check_format(model, &name, complement)
}

/// What an edge export writes: a model, its options, and the file's format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EdgeExport<'a> {
    /// The model.
    pub model: EdgeModel,
    /// The MILP's options (the SAT and MaxSAT models read them too).
    pub opts: EdgeMilpOptions,
    /// The clique model: write the conflict graph, the clique graph's complement.
    pub complement: bool,
    /// The file's format.
    pub format: Format,
    /// An MPS file's `NAME` (`None`: the formulation's own name).
    pub name: Option<&'a str>,
}

/// Write `what` of `p` to `out`. The graph is streamed: memory stays proportional to its
/// nodes, not its edges. A NEOS job document is `route::neos`'s ([`super::neos::job_text`]).
pub fn export(p: &EdgePuzzle, what: EdgeExport<'_>, out: &mut dyn Write) -> Result<Counts, Error> {
    let EdgeExport {
        model,
        opts,
        complement,
        format,
        name,
    } = what;
    check_format(model, format.name(), complement)?;
    let counts = match (model, format) {
        (EdgeModel::Milp, Format::Lp) => {
            let milp = build_milp(p, opts)?;
            lp::write_lp(&milp.model, &mut *out).map_err(Error::failure)?;
            Counts::milp(&milp.model)
        }
        (EdgeModel::Milp, Format::Mps) => {
            let milp = build_milp(p, opts)?;
            let name = name.unwrap_or(milp.model.name());
            mps::write_mps_named(&milp.model, name, &mut *out).map_err(Error::failure)?;
            Counts::milp(&milp.model)
        }
        (EdgeModel::Milp, Format::Opb) => {
            let milp = build_milp(p, opts)?;
            crate::format::opb::write_opb(&milp.model, &mut *out).map_err(Error::failure)?;
            Counts::milp(&milp.model)
        }
        (EdgeModel::Milp, Format::Gms) => {
            let model = build_algebraic(p, opts)?;
            gams::write_gms(&model, &GamsOptions::default(), &mut *out).map_err(Error::failure)?;
            Counts::Algebraic
        }
        (EdgeModel::Milp, other) => {
            // Only `neos` gets here: a job document wraps the model (`route::neos`).
            return Err(Error::Usage(format!(
                "the edge milp model is not written as {} here: a NEOS job document comes from route::neos::job_text",
                other.name()
            )));
        }
        (EdgeModel::Clique, _) => {
            let graph = build_clique(p)?;
            dimacs_graph::write_graph(&graph, complement, true, &mut *out)
                .map_err(Error::failure)?;
            Counts::Graph {
                nodes: graph.num_nodes() as u64,
                edges: graph.count_edges(complement),
            }
        }
        (EdgeModel::Sat, _) => {
            let sat = build_sat(p, opts)?;
            dimacs_cnf::write_cnf(sat.cnf(), &mut *out).map_err(Error::failure)?;
            Counts::cnf(sat.cnf())
        }
        (EdgeModel::Maxsat, Format::Wbo) => {
            let built = build_maxsat(p, opts)?;
            let w = built.wcnf();
            crate::format::opb::write_wbo(w, &mut *out).map_err(Error::failure)?;
            Counts::Wcnf {
                variables: w.num_vars() as u64,
                hard: w.hard().num_clauses() as u64,
                soft: w.num_soft() as u64,
            }
        }
        (EdgeModel::Maxsat, f) => {
            let dialect = if f == Format::WcnfLegacy {
                Dialect::Legacy
            } else {
                Dialect::Mse2022
            };
            let built = build_maxsat(p, opts)?;
            let w = built.wcnf();
            write_wcnf(w, dialect, &mut *out).map_err(Error::failure)?;
            Counts::Wcnf {
                variables: w.num_vars() as u64,
                hard: w.hard().num_clauses() as u64,
                soft: w.num_soft() as u64,
            }
        }
    };
    out.flush().map_err(Error::failure)?;
    Ok(counts)
}

/// [`export`] to the file `path` (`-` or none: stdout), the way each model needs: the MILP is
/// built in memory first (a refused option leaves no output file behind), the graph and the
/// CNF, which run to gigabytes, are streamed; a file is written beside its target and renamed
/// into place only when complete ([`super::output`]).
pub fn export_to(
    p: &EdgePuzzle,
    what: EdgeExport<'_>,
    path: Option<&Path>,
    progress: Progress<'_>,
) -> Result<Counts, Error> {
    match what.model {
        EdgeModel::Milp => {
            let mut buf = Vec::new();
            let counts = export(p, what, &mut buf)?;
            super::output::write_to(path, &buf)?;
            Ok(counts)
        }
        EdgeModel::Clique => export_graph(p, what.complement, what.format, path, progress),
        EdgeModel::Sat | EdgeModel::Maxsat => {
            let mut counts = Counts::Algebraic;
            super::output::stream_to(path, |w| {
                counts = export(p, what, w)?;
                Ok(())
            })?;
            Ok(counts)
        }
    }
}

/// Refuse a clique solve the machine cannot hold: the graph file in the temporary directory
/// (external solvers read a file), and the solver's graph in memory, at least the smaller of
/// an n×n bit matrix (cliquer's) and an edge list of 8 bytes an edge.
fn check_clique_solve(p: &EdgePuzzle, solver: &str, n: usize, m: u64) -> Result<(), Error> {
    let what = format!(
        "the clique graph of this {}×{} puzzle ({n} nodes, {m} edges)",
        p.rows(),
        p.cols()
    );
    let bytes = dimacs_graph::edge_bytes_bound(n, m).saturating_add(64 * n as u64);
    super::output::check_space_in(&std::env::temp_dir(), bytes, &what)?;
    let held = f64::min((n as f64).powi(2) / 8.0, m as f64 * 8.0);
    let available = super::size::available_bytes();
    if held > available {
        return Err(Error::Usage(format!(
            "{solver} would hold {what} in memory: at least {:.1} GB, and this machine has {:.1} GB available",
            held / 1e9,
            available / 1e9
        )));
    }
    Ok(())
}

/// Stream the clique graph (its complement with `complement`) to `path`: refused first when
/// the file system has no room for it (the edge count is known before a line is written, and
/// a whole Eternity II graph runs to terabytes), with a bar over the edges while it is
/// written.
fn export_graph(
    p: &EdgePuzzle,
    complement: bool,
    format: Format,
    path: Option<&Path>,
    progress: Progress<'_>,
) -> Result<Counts, Error> {
    check_format(EdgeModel::Clique, format.name(), complement)?;
    let graph = build_clique(p)?;
    let (n, m) = (graph.num_nodes(), graph.count_edges(complement));
    // Each node's `c v` label line is well under 64 bytes.
    let bytes = dimacs_graph::edge_bytes_bound(n, m).saturating_add(64 * n as u64);
    let what = format!(
        "{} graph of this {}×{} puzzle ({n} nodes, {m} edges)",
        if complement { "conflict" } else { "clique" },
        p.rows(),
        p.cols()
    );
    super::output::check_space(path, bytes, &format!("the {what}"))?;
    let mut last: Option<Instant> = None;
    super::output::stream_to(path, |w| {
        dimacs_graph::write_graph_counted(&graph, complement, true, &mut *w, &mut |done| {
            // A buffer goes out every few milliseconds: a few updates a second are enough.
            if last.is_none_or(|t| t.elapsed() >= Duration::from_millis(200)) {
                last = Some(Instant::now());
                progress(&super::step(
                    done,
                    m,
                    &format!("writing the {what}: {done} edges written"),
                ));
            }
            Ok(())
        })
        .map_err(Error::failure)?;
        w.flush().map_err(Error::failure)
    })?;
    Ok(Counts::Graph {
        nodes: n as u64,
        edges: m,
    })
}

/// An exact edge `solve`: the model and solver, and the limits.
#[derive(Debug, Clone)]
pub struct SolveRequest {
    /// The model and the solver.
    pub method: ExactMethod,
    /// The time limit and the threads.
    pub limits: Limits,
    /// An explicit registry file (else `$TILEKIT_SOLVERS`, `./solvers.toml`, the built-in one).
    pub solvers_file: Option<PathBuf>,
}

impl SolveRequest {
    /// `method` under `limits` with the builtin registry.
    pub fn new(method: ExactMethod, limits: Limits) -> Self {
        SolveRequest {
            method,
            limits,
            solvers_file: None,
        }
    }
}

impl ExactModel {
    /// `model` with `options` (which the clique graph does not take).
    pub fn of(model: EdgeModel, options: EdgeMilpOptions) -> Self {
        match model {
            EdgeModel::Milp => ExactModel::Milp(options),
            EdgeModel::Clique => ExactModel::Clique,
            EdgeModel::Sat => ExactModel::Sat(options),
            EdgeModel::Maxsat => ExactModel::Maxsat(options),
        }
    }

    /// The edge model this is.
    pub fn model(self) -> EdgeModel {
        match self {
            ExactModel::Milp(_) => EdgeModel::Milp,
            ExactModel::Clique => EdgeModel::Clique,
            ExactModel::Sat(_) => EdgeModel::Sat,
            ExactModel::Maxsat(_) => EdgeModel::Maxsat,
        }
    }
}

fn edge_report(p: &EdgePuzzle, model: EdgeModel, variant: &str, solver: &str) -> Report {
    Report::new(
        FamilyName::Edge,
        model.name(),
        solver,
        Details::Edge {
            variant: variant.into(),
            matched: None,
            max: p.max_score(),
            size: [0; 3],
        },
    )
}

/// Fill the report's board fields from an answer.
fn fill(rep: &mut Report, a: Answer<Board>, size: [usize; 3]) {
    a.fill(rep);
    settle_claims(rep);
    if let Details::Edge {
        matched,
        max,
        size: s,
        ..
    } = &mut rep.details
    {
        *matched = a
            .objective
            .filter(|_| a.solution.is_some())
            .map(|o| max.saturating_sub(o as usize));
        *s = size;
    }
    rep.solution = a.solution.map(Solution::Board);
}

/// Keep a solver's word apart from tilekit's proof (see [`Claim`]). Tilekit proves a board
/// optimal only when it is perfect, since no seam is then left to match; it has no bound of
/// its own above zero unmatched seams, so a solver's "optimal" for a board with unmatched
/// seams, and its "no perfect board", are the solver's claims. The exception is tilekit's own
/// exhaustive max-clique search ([`crate::solve::clique_native`]), whose "no clique covers
/// every cell" is its own proof.
fn settle_claims(rep: &mut Report) {
    if rep.optimal && rep.objective != Some(0.0) {
        rep.optimal = false;
        rep.bound = None;
        rep.solver_claim = Some(Claim::Optimal);
    }
    if rep.status == Status::Infeasible && rep.solver != crate::solve::clique_native::NAME {
        rep.solver_claim = Some(Claim::Infeasible);
    }
}

/// Solve `p` as `req` says and verify the board.
pub fn solve(p: &EdgePuzzle, req: &SolveRequest, progress: Progress<'_>) -> Result<Report, Error> {
    let started = Instant::now();
    super::check_limits(&req.limits)?;
    let model = req.method.model;
    let reg = Registry::load(req.solvers_file.as_deref())?;
    let chosen = model.model().default_solver(&reg);
    let name = req.method.solver.as_deref().unwrap_or(&chosen);
    let mut rep = match model {
        ExactModel::Milp(opts) => {
            let solver = reg.milp(name)?;
            solve_milp_with(p, opts, &*solver, &req.limits, progress)?
        }
        ExactModel::Clique => {
            let solver = reg.clique(name)?;
            solve_clique_with(p, &*solver, &req.limits, progress)?
        }
        ExactModel::Sat(opts) => {
            let solver = reg.sat(name)?;
            solve_sat_with(p, opts, &*solver, &req.limits, progress)?
        }
        ExactModel::Maxsat(opts) => {
            let solver = reg.maxsat(name)?;
            solve_maxsat_with(p, opts, &*solver, &req.limits, progress)?
        }
    };
    rep.seconds = started.elapsed().as_secs_f64();
    Ok(rep)
}

/// The clique route with any clique solver object: build the graph of `p`, check that the
/// machine can hold it, solve, decode the board and have the independent checker judge it.
pub fn solve_clique_with(
    p: &EdgePuzzle,
    solver: &dyn CliqueSolver,
    limits: &Limits,
    progress: Progress<'_>,
) -> Result<Report, Error> {
    let graph = build_clique(p)?;
    let (n, m) = (graph.num_nodes(), graph.count_edges(false));
    check_clique_solve(p, solver.name(), n, m)?;
    let size = [n, usize::try_from(m).unwrap_or(usize::MAX), 0];
    let a = super::clique::solve(&graph, &BoardChecker, p, solver, limits, progress)?;
    let mut rep = edge_report(p, EdgeModel::Clique, "r1_r2", solver.name());
    fill(&mut rep, a, size);
    Ok(rep)
}

/// The SAT route with any SAT solver object: build the CNF of `p` with `opts`, solve it once
/// (a model is a perfect board; UNSAT proves there is none), decode and judge the board.
pub fn solve_sat_with(
    p: &EdgePuzzle,
    opts: EdgeMilpOptions,
    solver: &dyn SatSolver,
    limits: &Limits,
    progress: Progress<'_>,
) -> Result<Report, Error> {
    let sat = build_sat(p, opts)?;
    let size = [sat.cnf().num_vars(), sat.cnf().num_clauses(), 0];
    let a = super::sat::solve(&sat, &BoardChecker, p, Some(0.0), solver, limits, progress)?;
    let mut rep = edge_report(p, EdgeModel::Sat, sat_variant(opts), solver.name());
    fill(&mut rep, a, size);
    Ok(rep)
}

/// The MaxSAT route with any MaxSAT solver object: build the WCNF of `p` with `opts`, solve
/// it once, check the model and its cost, decode the board and have the independent checker
/// judge it. Its size is [variables, hard clauses, soft clauses].
pub fn solve_maxsat_with(
    p: &EdgePuzzle,
    opts: EdgeMilpOptions,
    solver: &dyn MaxsatSolver,
    limits: &Limits,
    progress: Progress<'_>,
) -> Result<Report, Error> {
    let started = Instant::now();
    let built = build_maxsat(p, opts)?;
    let w = built.wcnf();
    let size = [w.num_vars(), w.hard().num_clauses(), w.num_soft()];
    let a = super::maxsat::solve(&built, &BoardChecker, p, solver, limits, progress)?;
    let mut rep = edge_report(p, EdgeModel::Maxsat, sat_variant(opts), solver.name());
    fill(&mut rep, a, size);
    rep.seconds = started.elapsed().as_secs_f64();
    Ok(rep)
}

/// The MILP route with any MILP solver object (a local solver, NEOS): build the MILP of `p`
/// with `opts`, solve it, decode the board and have the independent checker judge it.
/// A local solve by the MILP route and `neos solve` both come through here.
pub fn solve_milp_with(
    p: &EdgePuzzle,
    opts: EdgeMilpOptions,
    solver: &dyn MilpSolver,
    limits: &Limits,
    progress: Progress<'_>,
) -> Result<Report, Error> {
    let started = Instant::now();
    let built = build_milp(p, opts)?;
    let m = &built.model;
    let size = [m.num_vars(), m.num_rows(), m.num_nonzeros()];
    let sol = super::milp::run(&built, solver, limits, progress)?;
    let mut rep = edge_report(p, EdgeModel::Milp, opts.tag(), solver.name());
    fill(
        &mut rep,
        super::milp::judge(&built, &BoardChecker, p, &sol),
        size,
    );
    rep.seconds = started.elapsed().as_secs_f64();
    Ok(rep)
}

/// Judge a MILP answer (from any executor: a local solver, NEOS) of the edge MILP built with
/// `opts`, exactly as a local solve by the MILP route does.
pub fn judge_milp(
    p: &EdgePuzzle,
    opts: EdgeMilpOptions,
    solver: &str,
    sol: &MilpSolution,
) -> Result<Report, Error> {
    let built = build_milp(p, opts)?;
    let m = &built.model;
    let size = [m.num_vars(), m.num_rows(), m.num_nonzeros()];
    let mut rep = edge_report(p, EdgeModel::Milp, opts.tag(), solver);
    fill(
        &mut rep,
        super::milp::judge(&built, &BoardChecker, p, sol),
        size,
    );
    Ok(rep)
}

/// The verdict on a raw solver output, as `verify` prints it in JSON.
#[derive(Debug, Clone, serde::Serialize)]
pub struct RawVerdict {
    /// True when the answer passes the model check and the board the independent verifier.
    pub valid: bool,
    /// Unmatched inner seams of the decoded board.
    pub objective: Option<f64>,
    /// Matched inner seams of the decoded board.
    pub matched: Option<usize>,
    /// Inner seams.
    pub max: usize,
    /// Which parser read the file (`cbc`, `highs`, `glpk`, `cliquer`, `sat`, `maxsat`).
    pub solver: String,
    /// The solver's status text.
    pub solver_status: String,
    /// The model the output was decoded through (`milp`, `clique`, `sat`, `maxsat`).
    pub model: String,
    /// The variant the model was rebuilt as.
    pub variant: String,
    /// What the checks found wrong.
    pub errors: Vec<String>,
}

/// What `verify` found: a raw solver output decoded through a model, or a board.
#[derive(Debug, Clone)]
pub enum Verification {
    /// A raw MILP solver output (CBC, HiGHS, GLPK, a MIPLIB, SCIP or Gurobi `.sol`, CPLEX XML), or a cliquer, SAT or MaxSAT one.
    Raw(RawVerdict),
    /// A board file.
    Board(EdgeVerdict),
}

impl Verification {
    /// True when the solution passed every check.
    pub fn valid(&self) -> bool {
        match self {
            Verification::Raw(v) => v.valid,
            Verification::Board(v) => v.valid,
        }
    }
}

/// Verify a solution file against `p`: a raw solver output is decoded through the model
/// rebuilt with the export's options (a MILP solver output is recognised without a
/// `model` and read as the MILP's; the `clique`, `sat` or `maxsat` model reads cliquer, SAT
/// or MaxSAT output), anything else is read as a board.
pub fn verify(
    p: &EdgePuzzle,
    text: &str,
    source: &str,
    model: Option<EdgeModel>,
    opts: EdgeMilpOptions,
) -> Result<Verification, Error> {
    let not_milp = || {
        Error::Usage(format!(
            "{source}: not a MILP solution file tilekit reads (CBC, HiGHS, GLPK, MIPLIB, SCIP, Gurobi, CPLEX XML); {f_model} milp verifies raw solver outputs (a board needs no {f_model})",
            f_model = Field::Model
        ))
    };
    if let Some(m @ (EdgeModel::Clique | EdgeModel::Sat | EdgeModel::Maxsat)) = model {
        return Ok(Verification::Raw(verify_raw_model(
            p, m, text, source, opts,
        )?));
    }
    if let Some(v) = verify_raw_milp(p, text, source, opts)? {
        return Ok(Verification::Raw(v));
    }
    if model.is_some() {
        return Err(not_milp());
    }
    let board = crate::puzzle::edge::parse_any_board(text, source, p)?;
    Ok(Verification::Board(BoardChecker.verdict(p, &board, None)))
}

fn raw_verdict(p: &EdgePuzzle, model: EdgeModel, solver: &str, variant: &str) -> RawVerdict {
    RawVerdict {
        valid: false,
        objective: None,
        matched: None,
        max: p.max_score(),
        solver: solver.into(),
        solver_status: String::new(),
        model: model.name().into(),
        variant: variant.into(),
        errors: Vec::new(),
    }
}

/// Record what the checks of a decoded answer found.
fn record(v: &mut RawVerdict, c: Checked<Board>) {
    v.matched = c
        .objective
        .filter(|_| c.solution.is_some())
        .map(|o| v.max.saturating_sub(o as usize));
    v.objective = c.objective.filter(|_| c.solution.is_some());
    v.valid = c.errors.is_empty() && c.solution.is_some();
    v.errors.extend(c.errors);
}

/// If `text` is a raw MILP solver output, decode it through the MILP rebuilt with `opts`
/// and verify it at both levels; `Ok(None)` when it is not a raw MILP output.
pub fn verify_raw_milp(
    p: &EdgePuzzle,
    text: &str,
    source: &str,
    opts: EdgeMilpOptions,
) -> Result<Option<RawVerdict>, Error> {
    let Ok(Some((sol, solver))) = super::sliding::parse_milp_output(text, source) else {
        return Ok(None);
    };
    let built = build_milp(p, opts)?;
    let mut v = raw_verdict(p, EdgeModel::Milp, solver, opts.tag());
    v.solver_status = sol.status_text.clone();
    if !sol.outcome.has_solution() {
        v.errors.push(format!(
            "the solver output has no solution (status: {})",
            sol.status_text
        ));
        return Ok(Some(v));
    }
    record(&mut v, super::milp::check(&built, &BoardChecker, p, &sol));
    Ok(Some(v))
}

/// Verify a raw clique answer (cliquer's output or a plain 1-based vertex list), a raw SAT
/// answer (SAT-competition `s`/`v` lines) or a raw MaxSAT answer (`o`/`s`/`v` lines, either
/// `v` form) through the clique graph, the CNF or the WCNF rebuilt as at export, at both
/// levels: the answer must be a clique of the graph / a model of every (hard) clause, a MaxSAT
/// model must cost what its `o` line says, and its board must pass the independent verifier
/// (as a perfect board for a clique or a SAT model, at the model's cost for a MaxSAT
/// optimum).
pub fn verify_raw_model(
    p: &EdgePuzzle,
    model: EdgeModel,
    text: &str,
    source: &str,
    opts: EdgeMilpOptions,
) -> Result<RawVerdict, Error> {
    match model {
        EdgeModel::Milp => verify_raw_milp(p, text, source, opts)?.ok_or_else(|| {
            Error::Usage(format!(
                "{source}: not a MILP solution file tilekit reads (CBC, HiGHS, GLPK, MIPLIB, SCIP, Gurobi, CPLEX XML); {f_model} milp verifies raw solver outputs (a board needs no {f_model})", f_model = Field::Model
            ))
        }),
        EdgeModel::Clique => {
            let graph = build_clique(p)?;
            let mut v = raw_verdict(p, model, "cliquer", "r1_r2");
            let ids = clique_answer::parse(text, source, graph.num_nodes())?;
            v.solver_status = format!("clique of {} vertices", ids.len());
            record(&mut v, super::clique::check(&graph, &BoardChecker, p, &ids));
            Ok(v)
        }
        EdgeModel::Sat => {
            let sat = build_sat(p, opts)?;
            let mut v = raw_verdict(p, model, "sat", sat_variant(opts));
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
            record(
                &mut v,
                super::sat::check(&sat, &BoardChecker, p, &assignment, Some(0.0)),
            );
            Ok(v)
        }
        EdgeModel::Maxsat => {
            let built = build_maxsat(p, opts)?;
            let mut v = raw_verdict(p, model, "maxsat", sat_variant(opts));
            let outcome = maxsat_answer::parse(text, source, built.wcnf().num_vars())?;
            v.solver_status = outcome.status_text().into();
            let (cost, mut assignment, optimum) = match outcome {
                MaxsatOutcome::Optimum { cost, model } => (cost, model, true),
                MaxsatOutcome::Feasible { cost, model } => (cost, model, false),
                MaxsatOutcome::Unsat | MaxsatOutcome::Unknown => {
                    v.errors
                        .push("the solver output has no model (UNSATISFIABLE or UNKNOWN)".into());
                    return Ok(v);
                }
            };
            assignment.resize(built.wcnf().num_vars().max(assignment.len()), false);
            record(
                &mut v,
                super::maxsat::check(&built, &BoardChecker, p, &assignment, cost, optimum),
            );
            Ok(v)
        }
    }
}

/// `tilekit generate edge`: a random puzzle with a planted perfect board. The instance goes
/// to `output` (`-` or none: stdout); the board to `solution`, else beside a file output as
/// `<output>.solution`. Both paths are checked before anything is written, and may not be
/// the same file. Returns where the board went.
pub fn generate_files(
    rows: usize,
    cols: usize,
    frame_colours: u16,
    inner_colours: u16,
    seed: u64,
    output: Option<&Path>,
    solution: Option<&Path>,
) -> Result<Option<PathBuf>, Error> {
    let to_file = output.filter(|o| !super::output::is_stdout(Some(o)));
    let sol_path = solution.map(Path::to_path_buf).or_else(|| {
        to_file.map(|o| {
            let mut p = o.as_os_str().to_owned();
            p.push(".solution");
            PathBuf::from(p)
        })
    });
    if let (Some(o), Some(s)) = (to_file, &sol_path) {
        let same = match (std::path::absolute(o), std::path::absolute(s)) {
            (Ok(a), Ok(b)) => a == b,
            _ => o == s.as_path(),
        } || std::fs::canonicalize(o)
            .ok()
            .is_some_and(|a| std::fs::canonicalize(s).ok() == Some(a));
        if same {
            return Err(Error::Usage(format!(
                "{f_solution} and -o name the same file ({}): the board would overwrite the instance",
                o.display(),
                f_solution = Field::Solution
            )));
        }
    }
    for p in to_file.into_iter().chain(sol_path.as_deref()) {
        super::output::check_writable(p)?;
    }
    let (inst, sol) =
        crate::puzzle::edge::generate_texts(rows, cols, frame_colours, inner_colours, seed)
            .map_err(Error::Usage)?;
    super::output::write_to(output, inst.as_bytes())?;
    if let Some(sp) = &sol_path {
        super::output::write_to(Some(sp), sol.as_bytes())?;
    }
    Ok(sol_path.filter(|_| to_file.is_some()))
}

/// The edge-matching family's row in [`super::families::FAMILIES`].
pub const FAMILY: Family = Family {
    name: FamilyName::Edge,
    noun: "edge-matching puzzles",
    one: "an edge-matching puzzle",
    detect,
    export: export_command,
    solve: solve_command,
    verify: verify_command,
    render: render_command,
};

fn detect(text: &str) -> Detect {
    if crate::puzzle::edge::looks_like_edge_instance(text) {
        Detect::Yes("its lines hold four colours, many of them grey (0)")
    } else if crate::puzzle::edge::resembles_edge_instance(text) {
        Detect::Resembles
    } else {
        Detect::No
    }
}

fn export_command(
    inst: &Instance,
    req: &ExportRequest,
    progress: Progress<'_>,
) -> Result<Exported, Error> {
    if req.model == Some(ModelName::Region) {
        return export_region(inst, req);
    }
    let opts = req.options.edge().map_err(|e| inst.hint(e))?;
    if req.region.is_some() || req.partial.is_some() {
        return Err(Error::usage(format!(
            "{f_region} and {f_partial} belong to {f_model} region",
            f_region = Field::Region,
            f_partial = Field::Partial,
            f_model = Field::Model
        )));
    }
    let out = req.output.as_deref();
    let m = EdgeModel::of(req.model.unwrap_or(ModelName::Milp))?;
    let fmt = export_format(m, req.format, out, req.complement)?;
    req.check_neos_flags(fmt)?;
    let p = inst.parse(EdgePuzzle::parse)?;
    if fmt == Format::Neos {
        return Ok(Exported::NeosJob {
            model: ModelName::Milp,
            horizon: None,
        });
    }
    let what = EdgeExport {
        model: m,
        opts,
        complement: req.complement,
        format: fmt,
        name: req.name.as_deref(),
    };
    let counts = export_to(&p, what, out, progress)?;
    Ok(Exported::Written(counts))
}

/// Boards of at most this many cells go to the exact max-clique search when no route is
/// named: the embedded mcq proves META 6×6 in 0.7 s, where 7×7 boards take 100 s or more
/// and the search finds their perfect boards in seconds
/// (`docs/results/edge-exact.md#the-embedded-clique-search`).
pub const EXACT_CELLS: usize = 36;

fn solve_command(
    inst: &Instance,
    req: &family::SolveRequest,
    progress: Progress<'_>,
) -> Result<Solved, Error> {
    let method = match &req.method {
        Method::Recommended => EdgeMethod::Auto,
        Method::Edge(m) => m.clone(),
        Method::Sliding { .. } => {
            return Err(inst.hint(Error::usage(
                "a sliding-tile method does not apply to edge-matching puzzles",
            )));
        }
    };
    let p = inst.parse(EdgePuzzle::parse)?;
    let exact = match method {
        EdgeMethod::Heuristic(h) => return solve_heuristic(&p, &h, req, progress),
        EdgeMethod::Auto if p.rows() * p.cols() > EXACT_CELLS => {
            return solve_heuristic(&p, &HeuristicMethod::default(), req, progress);
        }
        EdgeMethod::Auto => ExactMethod {
            model: ExactModel::Clique,
            solver: None,
        },
        EdgeMethod::Exact(e) => e,
    };
    // The exact routes have no research parameters.
    req.settings
        .only(&[], &format!("the {} route", exact.model.route().name()))
        .map_err(|e| Error::Usage(e.to_string()))?;
    let req = SolveRequest {
        method: exact,
        limits: req.limits,
        solvers_file: req.solvers_file.clone(),
    };
    let report = solve(&p, &req, progress)?;
    let solution_text = report.board().map(|b| b.to_text_with_colours(&p));
    Ok(Solved {
        report,
        solution_text,
    })
}

/// An export of the `region` model: the region MILP of a rectangle of a partial board, as
/// LP, MPS or GAMS (format from `format` or the output file's extension; LP by default),
/// every piece not on the board free to fill it.
fn export_region(inst: &Instance, req: &ExportRequest) -> Result<Exported, Error> {
    let opts = req.options.edge().map_err(|e| inst.hint(e))?;
    if opts != EdgeMilpOptions::default() || req.complement {
        return Err(Error::usage(format!(
            "{f_model} region writes the region MILP as it is: {f_filter}, {f_fix} and {f_complement} do not apply",
            f_model = Field::Model,
            f_filter = Field::Filter,
            f_fix = Field::FixCorner,
            f_complement = Field::Complement
        )));
    }
    let (Some([r0, c0, r1, c1]), Some(partial)) = (req.region, req.partial.as_deref()) else {
        return Err(Error::usage(format!(
            "{f_model} region needs {f_region} R0,C0,R1,C1 (the rectangle's corners, rows and columns from 0) and {f_partial} BOARD (the board it is cut from; an empty board file `R C` for none)",
            f_model = Field::Model,
            f_region = Field::Region,
            f_partial = Field::Partial
        )));
    };
    let out = req.output.as_deref();
    let name = match (req.format, out.filter(|o| *o != Path::new("-"))) {
        (Some(f), _) => f.name().to_string(),
        (None, Some(o)) => o
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("")
            .to_string(),
        _ => "lp".to_string(),
    };
    let format = match Format::from_name(&name) {
        Some(f @ (Format::Lp | Format::Mps | Format::Gms)) => f,
        _ => {
            return Err(Error::Usage(format!(
                "{f_model} region is written as lp, mps or gms, not {:?}",
                if name.is_empty() {
                    "a file without an extension"
                } else {
                    &name
                },
                f_model = Field::Model
            )));
        }
    };
    let p = inst.parse(EdgePuzzle::parse)?;
    let text = super::read_text(partial, "partial board")?;
    let board = crate::puzzle::edge::parse_any_board(&text, &partial.display().to_string(), &p)?;
    if r0 > r1 || c0 > c1 {
        return Err(Error::Usage(format!(
            "{} {r0},{c0},{r1},{c1}: the first corner must be above and left of the second",
            Field::Region
        )));
    }
    let spec = edge_region::RegionSpec::rectangle(&p, &board, (r0, c0), (r1, c1));
    let region = edge_region::build(&p, &board, &spec).map_err(|e| match e {
        edge_region::RegionError::Model(m) => Error::failure(m),
        e => Error::Usage(format!("{} {r0},{c0},{r1},{c1}: {e}", Field::Region)),
    })?;
    let mut buf = Vec::new();
    let counts = match format {
        Format::Mps => {
            mps::write_mps(&region.model, &mut buf).map_err(Error::failure)?;
            Counts::milp(&region.model)
        }
        Format::Gms => {
            let model = edge_region::algebraic(&p, &board, &spec).map_err(Error::failure)?;
            gams::write_gms(&model, &GamsOptions::default(), &mut buf).map_err(Error::failure)?;
            Counts::Algebraic
        }
        _ => {
            lp::write_lp(&region.model, &mut buf).map_err(Error::failure)?;
            Counts::milp(&region.model)
        }
    };
    super::output::write_to(out, &buf)?;
    Ok(Exported::Written(counts))
}

/// The heuristic route: its own options only, and no `model`.
fn solve_heuristic(
    p: &EdgePuzzle,
    h: &HeuristicMethod,
    req: &family::SolveRequest,
    progress: Progress<'_>,
) -> Result<Solved, Error> {
    super::check_limits(&req.limits)?;
    let reg = Registry::load(req.solvers_file.as_deref())?;
    let chosen = EdgeModel::Milp.default_solver(&reg);
    let name = h.solver.as_deref().unwrap_or(&chosen);
    let mut plan = h.choice.plan(p, req.preset, &req.settings)?;
    plan.best_so_far = req.best_so_far.clone();
    let report = super::edge_heuristic::solve(p, &plan, name, &reg, &req.limits, progress)?;
    let solution_text = report.board().map(|b| b.to_text_with_colours(p));
    Ok(Solved {
        report,
        solution_text,
    })
}

fn verify_command(
    inst: &Instance,
    req: &VerifyRequest,
    _: Progress<'_>,
) -> Result<Verified, Error> {
    let opts = req.options.edge().map_err(|e| inst.hint(e))?;
    let m = req.model.map(EdgeModel::of).transpose()?;
    let p = inst.parse(EdgePuzzle::parse)?;
    let text = super::read_text(&req.solution, "solution")?;
    let source = req.solution.display().to_string();
    let v = verify(&p, &text, &source, m, opts)?;
    // On the official Eternity II set, how many of its five clues the board keeps (the
    // community's "n/5"): a board is valid without them, so this is told, not judged.
    let clues = match &v {
        Verification::Board(_) => super::edge_heuristic::official_clues(&p).and_then(|clues| {
            let board = crate::puzzle::edge::parse_any_board(&text, &source, &p).ok()?;
            let kept = clues.iter().filter(|f| f.holds_on(&board)).count();
            Some((kept, clues.len()))
        }),
        Verification::Raw(_) => None,
    };
    /// The verdict's fields, then the clues kept where counted.
    #[derive(serde::Serialize)]
    struct WithClues<'a, T: serde::Serialize> {
        #[serde(flatten)]
        verdict: &'a T,
        #[serde(skip_serializing_if = "Option::is_none")]
        official_clues_kept: Option<usize>,
    }
    let official_clues_kept = clues.map(|(kept, _)| kept);
    let json = match &v {
        Verification::Raw(v) => serde_json::to_string(v),
        Verification::Board(v) => serde_json::to_string(&WithClues {
            verdict: v,
            official_clues_kept,
        }),
    }
    .map_err(Error::failure)?;
    let clue_text = clues
        .map(|(kept, of)| format!("; official Eternity II clues in place: {kept} of {of}"))
        .unwrap_or_default();
    let text = match &v {
        Verification::Raw(v) if v.valid => {
            let m = v.matched.unwrap_or(0);
            format!(
                "valid: {m} of {} inner edges matched ({} unmatched; {} output of the {} {})",
                v.max,
                v.max - m,
                v.solver,
                v.variant,
                v.model
            )
        }
        Verification::Board(v) if v.valid => format!(
            "valid: {} of {} inner edges matched ({} unmatched){clue_text}",
            v.matched,
            v.max,
            v.max - v.matched
        ),
        Verification::Raw(v) => format!("invalid: {}", v.errors.join("; ")),
        Verification::Board(v) => format!("invalid: {}", v.errors.join("; ")),
    };
    Ok(Verified {
        valid: v.valid(),
        text,
        json,
    })
}

fn render_command(inst: &Instance, req: &RenderRequest) -> Result<Rendered, Error> {
    req.options.edge().map_err(|e| inst.hint(e))?;
    let p = inst.parse(EdgePuzzle::parse)?;
    let board = match &req.solution {
        Some(path) => Some(crate::puzzle::edge::parse_any_board(
            &super::read_text(path, "solution")?,
            &path.display().to_string(),
            &p,
        )?),
        None => None,
    };
    let opts = crate::render::EdgeRenderOptions {
        show_ids: req.ids,
        ..Default::default()
    };
    Ok(Rendered {
        svg: crate::render::render_edge(&p, board.as_ref(), &opts),
        notes: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::route::Route;
    use std::time::Duration;

    #[test]
    fn exact_models_name_their_route_and_model() {
        let o = EdgeMilpOptions::default();
        for (m, route, model) in [
            (ExactModel::Milp(o), Route::Milp, EdgeModel::Milp),
            (ExactModel::Clique, Route::Clique, EdgeModel::Clique),
            (ExactModel::Sat(o), Route::Sat, EdgeModel::Sat),
            (ExactModel::Maxsat(o), Route::Maxsat, EdgeModel::Maxsat),
        ] {
            assert_eq!((m.route(), m.model()), (route, model));
            assert_eq!(model.route(), route);
        }
        assert_eq!(
            EdgeModel::of(ModelName::Neos).unwrap_err().to_string(),
            "`model` neos is not known for edge-matching puzzles: use milp, clique, sat or maxsat"
        );
    }

    #[test]
    fn a_zero_time_limit_is_refused_before_anything_runs() {
        let p = EdgePuzzle::parse("2 2\n0 0 1 1\n0 1 1 0\n1 1 0 0\n1 0 0 1\n", "t").unwrap();
        let req = SolveRequest::new(
            ExactMethod {
                model: ExactModel::Clique,
                solver: None,
            },
            Limits::new(Duration::ZERO, 1),
        );
        let err = solve(&p, &req, &|_| {}).unwrap_err();
        assert_eq!(err.exit_code(), 2);
    }

    #[test]
    fn formats_follow_the_model() {
        assert_eq!(
            check_format(EdgeModel::Clique, "clq", false).unwrap(),
            Format::Dimacs
        );
        assert_eq!(
            check_format(EdgeModel::Milp, "txt", false)
                .unwrap_err()
                .to_string(),
            "the edge milp model cannot be written as \"txt\": use lp, mps, gms or opb"
        );
        assert_eq!(
            check_format(EdgeModel::Sat, "cnf", true)
                .unwrap_err()
                .to_string(),
            "`complement` writes the conflict graph of `model` clique only"
        );
        assert_eq!(
            export_format(EdgeModel::Clique, None, None, false).unwrap(),
            Format::Dimacs
        );
    }
}
