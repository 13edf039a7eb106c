//! The sliding-puzzle family as a table over the generic routes: its models (the case
//! study's `neos` MILP, the `flow` MILP, the `sat` CNF), the formats each is written in, the
//! routes that solve them (`native`, `milp`, `sat`), their default solvers, and the rules of
//! which flags go together, checked here once so that every front end gets the same answers.

use super::family::{
    self, Detect, ExportRequest, Exported, Family, Instance, RenderRequest, Rendered, Solved,
    Verified, VerifyRequest,
};
use super::method::{Method, MilpMethod, MilpModel, MoveFile, SatMethod, SlidingMethod};
use super::params::{self, ParamError, Preset, Settings};
use super::size::Counts;
use super::{
    Answer, Checked, Claim, Details, Error, FamilyName, ModelName, NativeStats, Progress, Report,
    Route, Solution, Status,
};
use crate::certify::{self, CertifyOptions, Producer};
use crate::field::Field;
use crate::format::solution::sat as sat_out;
use crate::format::{Format, dimacs_cnf, gams, lp, mps};
use crate::formulate::{
    MilpFormulation, sliding_case_study, sliding_flow, sliding_sat, sliding_tight,
};
use crate::model::algebraic::Algebraic;
use crate::model::answer::{ColumnValues, MilpSolution, SatOutcome};
use crate::puzzle::sliding::{Goal, Move, SlidingPuzzle, moves_to_string};
use crate::search::sat_horizon::{self, SatStep, StepResult};
use crate::search::{self, NativeOptions, NativeStatus};
use crate::solve::registry::Registry;
use crate::solve::{Limits, MilpSolver, SatSolver};
use crate::verify::sliding::PlanChecker;
use crate::verify::{Checker, Verdict};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

pub use super::models::SlidingModel;

/// Check that `model` can be written as `format`, before any output file is created.
pub fn check_format(model: SlidingModel, format: Format) -> Result<(), Error> {
    if model.writes(format) {
        return Ok(());
    }
    Err(Error::Usage(format!(
        "model {} cannot be written as {}: neos goes to lp, mps or gms; flow and tight to lp, mps or opb; sat to cnf",
        model.name(),
        format.name()
    )))
}

/// Read and parse a sliding instance file.
pub fn load(path: &Path, goal: Goal) -> Result<SlidingPuzzle, Error> {
    let text = super::read_text(path, "instance")?;
    Ok(SlidingPuzzle::parse(
        &text,
        &path.display().to_string(),
        goal,
    )?)
}

/// The format of an export: `format`, else the output file's extension, else the model's
/// default.
pub fn export_format(
    model: SlidingModel,
    explicit: Option<Format>,
    output: Option<&Path>,
) -> Result<Format, Error> {
    if let Some(f) = explicit {
        return Ok(f);
    }
    match output.filter(|o| *o != Path::new("-")) {
        Some(o) => {
            let ext = o.extension().and_then(|e| e.to_str()).unwrap_or("");
            Format::from_name(ext)
                .filter(|f| *f != Format::Dimacs)
                .ok_or_else(|| {
                    Error::Usage(format!(
                        "format {ext:?} is not known: use lp, mps, gms or cnf"
                    ))
                })
        }
        None => Ok(model.default_format()),
    }
}

/// The horizon to use: the one given, or the model's default for this board.
pub fn resolve_horizon(p: &SlidingPuzzle, horizon: Option<usize>) -> Result<usize, Error> {
    match horizon {
        Some(0) => Err(Error::usage(format!("{} must be at least 1", Field::Horizon))),
        Some(t) => Ok(t),
        None => sliding_case_study::default_horizon(p.rows(), p.cols()).ok_or_else(|| {
            Error::Usage(format!(
                "no default horizon is known for a {}×{} board (its diameter is unknown): pass {f_horizon} T",
                p.rows(),
                p.cols(), f_horizon = Field::Horizon
            ))
        }),
    }
}

pub use super::family::{Horizon, INCUMBENT_WEIGHT, Incumbent};

/// Seconds an `auto` horizon ([`Horizon::Auto`]) may spend finding the optimum when no time
/// limit applies.
pub const AUTO_HORIZON_SECONDS: f64 = 300.0;

/// A horizon as a number (`auto` runs the native solver on `p` within `limit`); `None` when
/// none was given.
pub fn horizon_of(
    h: Option<Horizon>,
    p: &SlidingPuzzle,
    goal: Goal,
    limit: Duration,
    progress: Progress<'_>,
) -> Result<Option<usize>, Error> {
    match h {
        None => Ok(None),
        Some(Horizon::Steps(t)) => Ok(Some(t)),
        Some(Horizon::Auto) => auto_horizon(p, goal, limit, progress).map(Some),
    }
}

/// The optimal length of `p`, found by the native solver within `limit`: what
/// [`Horizon::Auto`] means. Only a plan the search proves optimal, and that replays, sets T.
pub fn auto_horizon(
    p: &SlidingPuzzle,
    goal: Goal,
    limit: Duration,
    progress: Progress<'_>,
) -> Result<usize, Error> {
    let (r, _, _) = search::solve_one(
        p,
        goal,
        &search::NativeOptions::default(),
        Some(limit),
        progress,
    )
    .map_err(|e| Error::Usage(e.to_string()))?;
    match (r.status, r.moves) {
        (NativeStatus::Solved, Some(m)) if r.proven_optimal => {
            // Never trust the search: the plan must replay before its length sets T.
            let v = PlanChecker { goal }.check(p, &m, Some(m.len() as f64));
            if !v.valid {
                return Err(Error::Failure(format!(
                    "{f_horizon} auto: the native plan failed verification: {}",
                    v.errors.join("; "),
                    f_horizon = Field::Horizon
                )));
            }
            let t = m.len().max(1);
            super::notice(
                progress,
                &format!(
                    "{} auto: horizon {t} (the native optimum, proven)",
                    Field::Horizon
                ),
            );
            Ok(t)
        }
        (NativeStatus::Unsolvable, _) => Err(Error::usage(format!(
            "{} auto: the board cannot reach the goal",
            Field::Horizon
        ))),
        _ => Err(Error::Failure(format!(
            "{f_horizon} auto: the native solver found no optimum within {:.0} s (at least {} moves): pass {f_horizon} T",
            limit.as_secs_f64(),
            r.lower_bound,
            f_horizon = Field::Horizon
        ))),
    }
}

/// A built sliding MILP (either formulation), behind the formulation trait.
pub type SlidingMilp = Box<dyn MilpFormulation<Solution = Vec<Move>> + Send + Sync>;

/// Build the MILP `model` (neos, flow or tight) of `p` at `horizon`.
pub fn build_milp(
    p: &SlidingPuzzle,
    goal: Goal,
    model: SlidingModel,
    horizon: usize,
) -> Result<SlidingMilp, Error> {
    build_milp_from(p, goal, model, horizon, None)
}

/// [`build_milp`] with the `tight` model's admissible estimate already known (`estimate`,
/// from [`root_bound`]), so that a run over several horizons computes it once.
fn build_milp_from(
    p: &SlidingPuzzle,
    goal: Goal,
    model: SlidingModel,
    horizon: usize,
    estimate: Option<usize>,
) -> Result<SlidingMilp, Error> {
    if model != SlidingModel::Sat {
        check_size(p, goal, model, horizon)?;
    }
    Ok(match model {
        SlidingModel::Neos => {
            Box::new(sliding_case_study::build(p, goal, horizon).map_err(Error::failure)?)
        }
        SlidingModel::Flow => {
            Box::new(sliding_flow::build(p, goal, horizon).map_err(Error::failure)?)
        }
        SlidingModel::Tight => {
            let bound = tight_bound(p, goal, estimate)?;
            Box::new(sliding_tight::build(p, goal, horizon, bound).map_err(Error::failure)?)
        }
        SlidingModel::Sat => return Err(Error::usage("the sat model is a CNF, not a MILP")),
    })
}

/// The bound the `tight` model is built from: `estimate` when the caller has it, else
/// [`root_bound`]'s, computed with no deadline.
fn tight_bound(p: &SlidingPuzzle, goal: Goal, estimate: Option<usize>) -> Result<usize, Error> {
    match estimate {
        Some(e) => Ok(e),
        None => Ok(root_bound(p, goal, None)?
            .ok_or_else(|| Error::failure("no deadline, yet the bound was not computed"))?
            .0),
    }
}

/// The admissible lower bound the `tight` model starts from, and the heuristic that gave it:
/// the native solver's estimate of the start board. On the 15-puzzle the 6-6-3 additive
/// pattern databases with the reflection (fixed, not the strongest cached, so that an export
/// is the same file on every machine; built and cached on first use, seconds), at least
/// Manhattan distance + linear conflict; elsewhere Manhattan + linear conflict. Both never
/// overestimate the distance to the goal, which is what makes `root` a valid inequality.
/// The solver is never asked for a plan here: the bound is a heuristic value, not the
/// optimum, and the MILP has to prove the rest.
pub fn root_bound(
    p: &SlidingPuzzle,
    goal: Goal,
    deadline: Option<Instant>,
) -> Result<Option<(usize, String)>, Error> {
    let manhattan = search::NativeOptions {
        manhattan_only: true,
        ..Default::default()
    };
    // `None`: the deadline passed while a database was built for the first time.
    let estimate = |opts: &search::NativeOptions| -> Result<Option<(u32, String)>, Error> {
        let s = match search::NativeSolver::new(p.rows(), p.cols(), opts, &super::quiet) {
            Ok(s) => s,
            Err(search::SearchError::Pdb(search::pdb::PdbError::TimeLimit(_))) => {
                return Ok(None);
            }
            Err(e) => return Err(Error::Usage(e.to_string())),
        };
        let h = s
            .estimate(p, goal)
            .map_err(|e| Error::Usage(e.to_string()))?;
        Ok(Some((h, s.heuristic_name())))
    };
    // Boards larger than the native solver takes get the Manhattan distance alone.
    let (md, md_name) = match estimate(&manhattan) {
        Ok(Some(x)) => x,
        _ => return Ok(Some((p.manhattan(goal), "manhattan".into()))),
    };
    if (p.rows(), p.cols()) != (4, 4) {
        return Ok(Some((md as usize, md_name)));
    }
    let pdb = search::NativeOptions {
        partition: Some(crate::search::pdb::Partition::fifteen_663()),
        build_deadline: deadline,
        ..Default::default()
    };
    let Some((h, name)) = estimate(&pdb)? else {
        return Ok(None);
    };
    Ok(Some(if h >= md {
        (h as usize, name)
    } else {
        (md as usize, md_name)
    }))
}

/// The report of a MILP solve whose time limit passed before any solver ran (`why`), begun
/// at `started`.
fn stopped_before_the_solver(
    model: SlidingModel,
    solver: &str,
    horizon: usize,
    started: Instant,
    why: String,
) -> Report {
    let mut rep = sliding_report(model.name(), solver, horizon);
    rep.status = Status::TimeLimit;
    rep.solver_status = why;
    rep.seconds = started.elapsed().as_secs_f64();
    rep
}

/// Why a MILP solve stopped before its solver when the `tight` model's bound could not be
/// computed in time: the 6-6-3 database was being built for the first time.
fn bound_not_in_time() -> String {
    search::pdb::PdbError::TimeLimit(crate::search::pdb::Partition::fifteen_663().shape())
        .to_string()
}

/// Refuse a model that would not fit in memory, with its estimate.
fn check_size(
    p: &SlidingPuzzle,
    goal: Goal,
    model: SlidingModel,
    horizon: usize,
) -> Result<(), Error> {
    super::size::check(
        super::size::sliding(p, goal, model, horizon),
        &format!("the {} model at horizon {horizon}", model.name()),
    )
}

/// The CNF at `horizon`, after the size check.
fn build_sat(
    p: &SlidingPuzzle,
    goal: Goal,
    horizon: usize,
) -> Result<sliding_sat::SlidingSat, Error> {
    check_size(p, goal, SlidingModel::Sat, horizon)?;
    Ok(sliding_sat::build(p, goal, horizon))
}

/// The `neos` model stated algebraically, for GAMS (the only sliding model with a template).
/// A zero horizon or an unsolvable board is refused earlier, by the flags' checks and by
/// loading, so here either is a failure of the route, not of the input.
pub fn build_algebraic(p: &SlidingPuzzle, goal: Goal, horizon: usize) -> Result<Algebraic, Error> {
    check_size(p, goal, SlidingModel::Neos, horizon)?;
    sliding_case_study::algebraic(p, goal, horizon).map_err(Error::failure)
}

/// Write the `model` of `p` in `format` to `out` (a NEOS job document is [`super::neos::job_text`]'s),
/// an MPS file with `name` on its `NAME` line when one is given (else the formulation's).
pub fn export(
    p: &SlidingPuzzle,
    goal: Goal,
    (model, format): (SlidingModel, Format),
    horizon: usize,
    name: Option<&str>,
    out: &mut dyn Write,
) -> Result<Counts, Error> {
    check_format(model, format)?;
    if format == Format::Neos {
        return Err(Error::usage(
            "a NEOS job document is written by route::neos::job_text, not export",
        ));
    }
    Ok(match format {
        Format::Lp => {
            let milp = build_milp(p, goal, model, horizon)?;
            lp::write_lp(milp.model(), out).map_err(Error::failure)?;
            Counts::milp(milp.model())
        }
        Format::Mps => {
            let milp = build_milp(p, goal, model, horizon)?;
            let name = name.unwrap_or(milp.model().name());
            mps::write_mps_named(milp.model(), name, out).map_err(Error::failure)?;
            Counts::milp(milp.model())
        }
        Format::Opb => {
            // OPB holds 0/1 columns only: `flow` has no other, and `tight` is built with its
            // tail's columns binary, which its moves force to 0/1 anyway.
            let milp: SlidingMilp = match model {
                SlidingModel::Tight => {
                    check_size(p, goal, model, horizon)?;
                    let bound = tight_bound(p, goal, None)?;
                    Box::new(
                        sliding_tight::build_pure_binary(p, goal, horizon, bound)
                            .map_err(Error::failure)?,
                    )
                }
                _ => build_milp(p, goal, model, horizon)?,
            };
            crate::format::opb::write_opb(milp.model(), out).map_err(Error::failure)?;
            Counts::milp(milp.model())
        }
        Format::Gms => {
            let model = build_algebraic(p, goal, horizon)?;
            gams::write_gms(&model, &gams::GamsOptions::default(), out).map_err(Error::failure)?;
            Counts::Algebraic
        }
        _ => {
            let enc = build_sat(p, goal, horizon)?;
            dimacs_cnf::write_cnf(enc.cnf(), out).map_err(Error::failure)?;
            Counts::cnf(enc.cnf())
        }
    })
}

/// A sliding `solve`: the method and what every method shares (validated by
/// [`SolveRequest::plan`]).
#[derive(Debug, Clone)]
pub struct SolveRequest {
    /// How.
    pub method: SlidingMethod,
    /// The time limit and the threads.
    pub limits: Limits,
    /// An explicit registry file (else `$TILEKIT_SOLVERS`, `./solvers.toml`, the built-in one).
    pub solvers_file: Option<PathBuf>,
    /// The bundle of choices the run starts from.
    pub preset: Preset,
    /// Research parameters by key, one by one or from a file.
    pub settings: Settings,
}

/// A validated sliding solve: the request with its research parameters applied and every
/// default resolved, and the model it solves.
#[derive(Debug, Clone)]
pub struct SolvePlan {
    /// The formulation of the milp and sat routes.
    pub model: SlidingModel,
    /// The request.
    pub request: SolveRequest,
}

impl SolvePlan {
    /// The route.
    pub fn route(&self) -> Route {
        self.request.method.route()
    }
}

impl SolveRequest {
    /// `method` under `limits`, everything else left to its default (the builtin registry,
    /// the recommended preset, no research parameters).
    pub fn new(method: SlidingMethod, limits: Limits) -> Self {
        SolveRequest {
            method,
            limits,
            solvers_file: None,
            preset: Preset::default(),
            settings: Settings::default(),
        }
    }

    /// Check the numbers, apply the research parameters and resolve the defaults: the
    /// model each route solves, the MILP's stepping, the learned estimate's weight.
    pub fn plan(mut self) -> Result<SolvePlan, Error> {
        super::check_limits(&self.limits)?;
        if let SlidingMethod::Sat(m) = &self.method
            && m.plan.is_some()
            && m.certify.is_none()
        {
            return Err(Error::usage(format!(
                "{f_plan} gives a plan to certify: it needs {f_certify}",
                f_plan = Field::Plan,
                f_certify = Field::Certify
            )));
        }
        apply_settings(&mut self)?;
        let model = match &self.method {
            SlidingMethod::Milp(m) => match m.model.unwrap_or(if self.preset == Preset::Paper {
                MilpModel::Neos
            } else {
                MilpModel::Tight
            }) {
                MilpModel::Neos => SlidingModel::Neos,
                MilpModel::Flow => SlidingModel::Flow,
                MilpModel::Tight => SlidingModel::Tight,
            },
            SlidingMethod::Astar(a) => {
                a.order()?;
                a.batch()?;
                SlidingModel::Sat
            }
            _ => SlidingModel::Sat,
        };
        Ok(SolvePlan {
            model,
            request: self,
        })
    }
}

/// The research parameters of a sliding solve, applied where they belong: `milp.*` to the
/// MILP route, `certify.*` to a certificate, `astar.*` to best-first search; the native
/// search reads its own (`native.*`) when it builds its options ([`native_options`]). A key
/// of a method this run does not use is refused. Then the defaults that depend on the
/// preset: the MILP route steps (not under the paper preset, nor from an incumbent, which
/// has a start of its own), and a learned estimate gets its measured weight.
fn apply_settings(req: &mut SolveRequest) -> Result<(), Error> {
    let usage = |e: ParamError| Error::Usage(e.to_string());
    let route = req.method.route();
    let certify = match &mut req.method {
        SlidingMethod::Native(n) => n.certificate.as_mut().map(|c| &mut c.options),
        SlidingMethod::Sat(m) => m.certify.as_mut(),
        _ => None,
    };
    let certifying = certify.is_some();
    let mut groups: Vec<&str> = match route {
        Route::Native => vec!["native."],
        Route::Milp => vec!["milp."],
        Route::Astar => vec!["astar."],
        _ => vec![],
    };
    if certifying {
        groups.push("certify.");
    }
    let this = if certifying {
        format!(
            "{f_via} {} with a certificate",
            route.name(),
            f_via = Field::Via
        )
    } else {
        format!("{f_via} {}", route.name(), f_via = Field::Via)
    };
    req.settings.only(&groups, &this).map_err(usage)?;
    let settings = req.settings.clone();
    let mut certify = certify;
    for (key, value) in settings.iter() {
        if let Some(c) = certify.as_deref_mut()
            && key.starts_with("certify.")
        {
            apply_certify_key(c, key, value)?;
        }
    }
    let paper = req.preset == Preset::Paper;
    match &mut req.method {
        SlidingMethod::Milp(m) => {
            for (key, value) in settings.of(&["milp."]) {
                match key {
                    "milp.step" => m.step = Some(params::parse_bool(key, value).map_err(usage)?),
                    _ => return Err(usage(ParamError::Unknown { key: key.into() })),
                }
            }
            m.step = Some(m.step.unwrap_or(m.incumbent.is_none() && !paper));
        }
        SlidingMethod::Astar(a) => {
            if !paper && a.heuristic().learned() && a.weight.is_none() && a.suboptimality.is_none()
            {
                a.weight = Some(LEARNED_WEIGHT);
            }
            for (key, value) in settings.of(&["astar."]) {
                match key {
                    "astar.batch" => {
                        a.batch = Some(params::parse_count(key, value).map_err(usage)?)
                    }
                    "astar.max_states" => {
                        a.max_states = Some(params::parse_count(key, value).map_err(usage)?)
                    }
                    _ => return Err(usage(ParamError::Unknown { key: key.into() })),
                }
            }
        }
        _ => {} // native.*: read by native_options
    }
    Ok(())
}

/// One `certify.*` parameter.
fn apply_certify_key(c: &mut CertifyOptions, key: &str, value: &str) -> Result<(), Error> {
    let usage = |e: ParamError| Error::Usage(e.to_string());
    match key {
        "certify.split" => {
            let d: usize = params::parse(key, value).map_err(usage)?;
            if d > 8 {
                return Err(usage(ParamError::value(key, value)));
            }
            c.split = d;
        }
        "certify.split_jobs" => {
            let j: usize = params::parse_count(key, value).map_err(usage)?;
            if j > 256 {
                return Err(usage(ParamError::value(key, value)));
            }
            c.jobs = j;
        }
        "certify.direction" => {
            use crate::formulate::sliding_sat::Direction;
            (c.direction, c.race) = match value {
                "forward" => (Some(Direction::Forward), false),
                "backward" => (Some(Direction::Backward), false),
                "both" => (None, true),
                _ => return Err(usage(ParamError::value(key, value))),
            };
        }
        _ => return Err(usage(ParamError::Unknown { key: key.into() })),
    }
    if c.race && c.split > 0 {
        return Err(Error::usage(
            "certify.direction = both races two whole refutations; it does not combine with certify.split",
        ));
    }
    Ok(())
}

/// The weight of weighted A* with a learned estimate: 0.98 gave 94.7 % optimal plans at
/// 1,416 nodes a board on 1,000 held-out random 15-puzzles, where plain A* (1.0) gave
/// 89.2 % at 789 (`docs/results/learned.md#held-out-random-boards`).
pub const LEARNED_WEIGHT: f64 = 0.98;

/// The native search's options for `p`: the preset's, then the partition `pdb`, the threads, and the
/// `native.*` parameters. Duplicate pruning to 12 moves is the one option measured both
/// to cut nodes (by 27–30 %) and to run faster, on Korf's 100 0.397 s against 0.462 s
/// (`docs/results/native-search.md#duplicate-pruning-fsm`); the others cut nodes at the
/// price of time and memory.
pub fn native_options(
    p: &SlidingPuzzle,
    pdb: Option<&str>,
    req: &SolveRequest,
) -> Result<NativeOptions, Error> {
    let usage = |e: ParamError| Error::Usage(e.to_string());
    let (rows, cols) = (p.rows(), p.cols());
    let named = |name: &str| {
        crate::search::pdb::Partition::named(rows, cols, name)
            .map_err(|e| Error::Usage(e.to_string()))
    };
    let mut o = NativeOptions {
        fsm: 12,
        threads: req.limits.threads as usize,
        incumbent_share: crate::search::INCUMBENT_SHARE,
        frontier: crate::search::default_frontier(rows * cols),
        ..NativeOptions::default()
    };
    match req.preset {
        Preset::Recommended => {}
        Preset::Paper => {
            o.fsm = 0;
            o.frontier = 0;
        }
        Preset::FewestNodes => {
            o.fsm = 16;
            o.dual = true;
            o.bpmx = true;
            if (rows, cols) == (4, 4) {
                o.partition = Some(named("7-8")?);
                o.max_with = Some(named("7-8-cols")?);
            }
        }
    }
    match pdb {
        Some("none") => {
            o.manhattan_only = true;
            o.partition = None;
            o.max_with = None;
        }
        Some(name) => o.partition = Some(named(name)?),
        None => {}
    }
    for (key, value) in req.settings.of(&["native."]) {
        match key {
            "native.fsm" => {
                let n: usize = params::parse(key, value).map_err(usage)?;
                if n > crate::search::fsm::MAX_LEN {
                    return Err(usage(ParamError::value(key, value)));
                }
                o.fsm = n;
            }
            "native.dual" => o.dual = params::parse_bool(key, value).map_err(usage)?,
            "native.bpmx" => o.bpmx = params::parse_bool(key, value).map_err(usage)?,
            "native.frontier" => o.frontier = params::parse(key, value).map_err(usage)?,
            "native.max_with" => o.max_with = Some(named(value)?),
            "native.incumbent_share" => {
                let share: f64 = params::parse(key, value).map_err(usage)?;
                if !(0.0..=0.9).contains(&share) {
                    return Err(usage(ParamError::value(key, value)));
                }
                o.incumbent_share = share;
            }
            _ => return Err(usage(ParamError::Unknown { key: key.into() })),
        }
    }
    Ok(o)
}

/// Solve `p` as `plan` says and verify the answer independently. An `auto` horizon is
/// resolved here (the native route needs no horizon).
pub fn solve(
    p: &SlidingPuzzle,
    goal: Goal,
    plan: &SolvePlan,
    progress: Progress<'_>,
) -> Result<Report, Error> {
    // The time limit bounds the whole command: each stage gets what the ones before it left.
    let started = Instant::now();
    let spent = || {
        Error::Failure(format!(
            "the time limit ({:.0} s) was spent before the solver could start",
            plan.request.limits.time.as_secs_f64()
        ))
    };
    let mut req = plan.request.clone();
    let asked = match &req.method {
        SlidingMethod::Milp(m) => m.horizon,
        SlidingMethod::Sat(m) => m.horizon,
        // The searches need no horizon.
        SlidingMethod::Native(_) | SlidingMethod::Astar(_) => None,
    };
    let horizon = match &req.method {
        SlidingMethod::Milp(_) | SlidingMethod::Sat(_) => {
            horizon_of(asked, p, goal, req.limits.time, progress)?
        }
        _ => None,
    };
    // An `auto` horizon is the native search's proven optimum, whose plan
    // replayed: a plan of exactly that length exists.
    let known = horizon.filter(|_| matches!(asked, Some(Horizon::Auto)));
    req.limits = plan.request.limits.remaining(started).ok_or_else(spent)?;
    let req = &req;
    let mut rep = match &req.method {
        SlidingMethod::Native(n) => {
            let native = solve_native(p, goal, n.pdb.as_deref(), req, progress)?;
            match (&n.certificate, native.plan()) {
                (Some(cert), Some(moves)) => {
                    let moves = moves.to_vec();
                    let mut req = req.clone();
                    req.limits = plan.request.limits.remaining(started).ok_or_else(spent)?;
                    let sat = SatMethod {
                        solver: cert.solver.clone(),
                        encoding: cert.encoding,
                        certify: Some(cert.options.clone()),
                        ..SatMethod::default()
                    };
                    let mut rep = solve_sat(p, goal, &sat, &req, horizon, Some(&moves), progress)?;
                    rep.solver_status =
                        "plan from the native solver (IDA*); SAT used for the proof only".into();
                    Ok(rep)
                }
                _ => Ok(native),
            }
        }
        SlidingMethod::Astar(a) => super::astar::solve(p, goal, a, req.limits.time, progress),
        SlidingMethod::Milp(m) => match &m.incumbent {
            Some(source) => solve_milp_from(p, goal, plan.model, m, req, horizon, source, progress),
            None => solve_milp(p, goal, plan.model, m, req, horizon, progress),
        },
        SlidingMethod::Sat(m) => {
            let given = m.plan.as_ref().map(|f| f.moves.as_slice());
            solve_sat(p, goal, m, req, horizon, given, progress)
        }
    }?;
    refute_claims(&mut rep, known);
    let budget = plan
        .request
        .limits
        .remaining(started)
        .map_or(Duration::ZERO, |l| l.time);
    settle_claims(&mut rep, p, goal, budget);
    Ok(rep)
}

/// The longest tilekit's own search spends proving or refuting one solver's claim: the check
/// is a plain IDA* (no pattern database to build) and most claims it can settle, it settles
/// in milliseconds (short plans); a longer one leaves the claim a claim.
pub const PROOF_BUDGET: Duration = Duration::from_secs(5);

/// Settle a solver's "optimal" and "infeasible" by tilekit's own means, within `budget` (at
/// most [`PROOF_BUDGET`]): an IDA* on the Manhattan distance with linear conflicts, which
/// shares nothing with the models and the solvers.
///
/// - A verified plan of n moves that the solver calls optimal: the search's proven bound
///   reaching n proves it (the report keeps `optimal`); a shorter plan refutes it (a solver
///   failure, exit 3); otherwise `optimal` becomes the solver's claim ([`Claim::Optimal`])
///   and `bound` what the search proved.
/// - "Infeasible" at horizon T: a plan of at most T moves refutes it; a proven bound above T
///   proves it; otherwise it stays the solver's claim ([`Claim::Infeasible`]).
///
/// Reports whose optimality tilekit proved already (the native and A* routes, a checked
/// certificate) are left as they are.
pub fn settle_claims(rep: &mut Report, p: &SlidingPuzzle, goal: Goal, budget: Duration) {
    // `none`: an incumbent plan at the admissible bound, which proved it without a solver.
    let own_proof = rep.native.is_some()
        || rep.astar.is_some()
        || rep.solver == "none"
        || rep.certificate.as_ref().is_some_and(|c| c.certified);
    if own_proof {
        return;
    }
    // The solver's word: its plan of n moves is optimal, or no plan of at most t moves exists.
    let (claimed, n, t) = match (rep.status, rep.plan().map(<[Move]>::len), rep.horizon()) {
        (Status::Solved, Some(n), _) if rep.optimal => (Claim::Optimal, n, None),
        (Status::Infeasible, _, Some(t)) => (Claim::Infeasible, 0, Some(t)),
        _ => return,
    };
    // The parity-corrected Manhattan distance proves many "infeasible"s without a search,
    // which would otherwise run on to the optimum, far past the horizon. (Where it meets an
    // "optimal" plan's length, the search's first iteration finds that plan at once.)
    let manhattan = sliding_tight::parity_bound(p, goal, p.manhattan(goal));
    let settled =
        claimed == Claim::Infeasible && (t.is_some_and(|t| manhattan > t) || !p.is_solvable(goal));
    let budget = if settled {
        Duration::ZERO
    } else {
        budget.min(PROOF_BUDGET)
    };
    let (found, proven) = own_search(p, goal, manhattan, budget);
    let refuted = match (claimed, found, t) {
        (Claim::Optimal, Some(m), _) if m < n => Some(format!(
            "the solver claims its plan of {n} moves is optimal, but tilekit's own search \
             found one of {m} moves (replayed)"
        )),
        (Claim::Infeasible, Some(m), Some(t)) if m <= t => Some(format!(
            "the solver says no plan of at most {t} moves exists, but tilekit's own search \
             found one of {m} moves (replayed)"
        )),
        _ => None,
    };
    if let Some(why) = refuted {
        return refuted_by(rep, why);
    }
    match claimed {
        Claim::Optimal if proven >= n => {
            let how = if found.is_some() {
                "tilekit's IDA* proves it optimal"
            } else {
                "the Manhattan distance proves it optimal"
            };
            rep.solver_status = join_words(&rep.solver_status, how);
        }
        Claim::Optimal => {
            rep.optimal = false;
            rep.solver_claim = Some(Claim::Optimal);
            rep.bound = Some(proven as f64);
        }
        Claim::Infeasible if t.is_some_and(|t| proven > t) => {
            let how = if p.is_solvable(goal) {
                format!("tilekit's own bound: every plan has at least {proven} moves")
            } else {
                "tilekit's own check: the board cannot reach the goal (permutation parity)".into()
            };
            rep.solver_status = join_words(&rep.solver_status, &how);
        }
        Claim::Infeasible => rep.solver_claim = Some(Claim::Infeasible),
    }
}

/// `words` and `more`, joined by "; " (just `more` when there are no words).
fn join_words(words: &str, more: &str) -> String {
    if words.is_empty() {
        more.into()
    } else {
        format!("{words}; {more}")
    }
}

/// Tilekit's own search for a claim check, within `budget`: the length of a plan it found and
/// replayed (the optimum), and the lower bound it proved (the optimum when it found one;
/// `usize::MAX` for a board that cannot reach the goal). Without time, or on a board the
/// native search does not take, the bound is `manhattan` (the parity-corrected Manhattan
/// distance).
fn own_search(
    p: &SlidingPuzzle,
    goal: Goal,
    manhattan: usize,
    budget: Duration,
) -> (Option<usize>, usize) {
    if !p.is_solvable(goal) {
        return (None, usize::MAX);
    }
    if budget.is_zero() {
        return (None, manhattan);
    }
    let opts = NativeOptions {
        manhattan_only: true,
        ..Default::default()
    };
    let Ok((r, _, _)) = search::solve_one(p, goal, &opts, Some(budget), &super::quiet) else {
        return (None, manhattan);
    };
    let found = r.moves.filter(|m| {
        r.proven_optimal && PlanChecker { goal }.check(p, m, Some(m.len() as f64)).valid
    });
    match found {
        Some(m) => (Some(m.len()), m.len()),
        None => (None, (r.lower_bound as usize).max(manhattan)),
    }
}

/// A verified plan as `solve -o` writes it: a comment line, then the moves.
pub fn plan_text(moves: &[Move]) -> String {
    format!(
        "# {} moves, verified by replay\n{}\n",
        moves.len(),
        moves_to_string(moves)
    )
}

/// Two consecutive moves that undo each other, if the plan has them (the index of the
/// first): such a plan is never the shortest, as leaving both out reaches the same board.
pub fn undo_pair(moves: &[Move]) -> Option<usize> {
    moves.windows(2).position(|w| w[1] == w[0].inverse())
}

/// Check a solver's claims of optimality and infeasibility against what tilekit knows by
/// itself: a plan with a move and its undo is never optimal, and with a plan of `known`
/// moves in hand (an `auto` horizon's), no model at that horizon is infeasible and no longer
/// plan optimal. A refuted claim makes the answer a solver failure (exit 3), never an
/// answer; the plan's own checks have already run.
fn refute_claims(rep: &mut Report, known: Option<usize>) {
    let len = rep.plan().map(<[Move]>::len);
    let refuted = match (rep.status, len, known) {
        (Status::Infeasible, _, Some(t)) => Some(format!(
            "the solver says no plan of at most {t} moves exists, but tilekit's own search \
             found one of {t} moves (replayed)"
        )),
        (Status::Solved, Some(n), Some(t)) if rep.optimal && n > t => Some(format!(
            "the solver claims its plan of {n} moves is optimal, but tilekit's own search \
             found one of {t} moves (replayed)"
        )),
        (Status::Solved, Some(n), _) if rep.optimal => rep.plan().and_then(undo_pair).map(|i| {
            format!(
                "the solver claims its plan of {n} moves is optimal, but moves {} and {} undo \
                 each other, so one of {} moves reaches the goal too",
                i + 1,
                i + 2,
                n - 2
            )
        }),
        _ => None,
    };
    if let Some(why) = refuted {
        refuted_by(rep, why);
    }
}

/// A solver's claim that tilekit refuted (`why`): the answer is a solver failure (exit 3),
/// never an answer.
fn refuted_by(rep: &mut Report, why: String) {
    rep.status = Status::Unverified;
    rep.optimal = false;
    rep.verified = false;
    rep.bound = None;
    rep.errors.push(why);
}

fn sliding_report(model: &str, solver: &str, horizon: usize) -> Report {
    Report::new(
        FamilyName::Sliding,
        model,
        solver,
        Details::Sliding {
            horizon,
            moves: None,
        },
    )
}

/// Fill the report's plan fields from an answer.
fn fill(rep: &mut Report, a: Answer<Vec<Move>>) {
    a.fill(rep);
    if let Details::Sliding { moves, .. } = &mut rep.details {
        *moves = a.solution.as_deref().map(moves_to_string);
    }
    rep.solution = a.solution.map(Solution::Plan);
}

fn solve_native(
    p: &SlidingPuzzle,
    goal: Goal,
    pdb: Option<&str>,
    req: &SolveRequest,
    progress: Progress<'_>,
) -> Result<Report, Error> {
    let started = Instant::now();
    let opts = native_options(p, pdb, req)?;
    let (r, db, heuristic) = search::solve_one(p, goal, &opts, Some(req.limits.time), progress)
        .map_err(|e| Error::Usage(e.to_string()))?;
    let mut rep = sliding_report("native", "ida*", r.lower_bound as usize);
    rep.bound = Some(r.lower_bound as f64);
    rep.native = Some(NativeStats {
        heuristic,
        nodes: r.nodes,
        initial_h: r.initial_h,
        db_seconds: db.as_ref().map_or(0.0, |d| d.seconds),
        db_source: db.map_or("none", |d| d.source.name()).into(),
        search_seconds: r.seconds,
    });
    match (r.status, r.moves) {
        (NativeStatus::Solved, Some(moves)) => {
            let claimed = Some(moves.len() as f64);
            let v = PlanChecker { goal }.check(p, &moves, claimed);
            let words = if r.proven_optimal {
                "optimal: IDA* exhausted every shorter bound".to_string()
            } else {
                format!(
                    "a plan; optimality not proven (at least {} moves)",
                    r.lower_bound
                )
            };
            let checked = Checked {
                solution: Some(moves),
                objective: v.objective,
                errors: v.errors,
            };
            let mut a = Answer::judged(checked, r.proven_optimal, None, words);
            if !a.optimal {
                // What the search proved stays the bound.
                a.bound = Some(r.lower_bound as f64);
            }
            fill(&mut rep, a);
        }
        (NativeStatus::Unsolvable, _) => {
            rep.status = Status::Infeasible;
            rep.solver_status = "the board cannot reach the goal (permutation parity)".into();
        }
        _ => {
            rep.status = Status::TimeLimit;
            rep.solver_status = format!("stopped; at least {} moves", r.lower_bound);
        }
    }
    rep.seconds = started.elapsed().as_secs_f64();
    Ok(rep)
}

fn registry(req: &SolveRequest) -> Result<Registry, Error> {
    Ok(Registry::load(req.solvers_file.as_deref())?)
}

fn solve_milp(
    p: &SlidingPuzzle,
    goal: Goal,
    model: SlidingModel,
    m: &MilpMethod,
    req: &SolveRequest,
    horizon: Option<usize>,
    progress: Progress<'_>,
) -> Result<Report, Error> {
    let horizon = resolve_horizon(p, horizon)?;
    if m.step == Some(true) {
        return solve_milp_stepped(p, goal, model, m, req, horizon, progress);
    }
    let reg = registry(req)?;
    let chosen = reg.choose_milp();
    let name = m.solver.as_deref().unwrap_or(&chosen);
    let solver = reg.milp(name)?;
    solve_milp_with(p, goal, model, horizon, &*solver, &req.limits, progress)
}

/// The plan `incumbent` names, replayed by the independent checker. `Ok(Err(report))`
/// when the native search or A* found none (time limit, or an unsolvable board): that
/// run's report, which the command returns. A plan that does not reach the goal is the
/// user's input error (exit 2).
fn incumbent_plan(
    p: &SlidingPuzzle,
    goal: Goal,
    source: &Incumbent,
    req: &SolveRequest,
    progress: Progress<'_>,
) -> Result<Result<Vec<Move>, Box<Report>>, Error> {
    let limit = req.limits.time;
    let found = |mut rep: Report| match rep.plan() {
        Some(m) => Ok(m.to_vec()),
        None => {
            rep.solver_status = format!(
                "{f_incumbent} {}: no plan ({})",
                source.describe(),
                rep.solver_status,
                f_incumbent = Field::Incumbent
            );
            Err(Box::new(rep))
        }
    };
    let moves = match source {
        Incumbent::Native => found(solve_native(p, goal, None, req, progress)?),
        Incumbent::Astar => {
            let flags = super::astar::AstarMethod {
                weight: Some(INCUMBENT_WEIGHT),
                ..Default::default()
            };
            found(super::astar::solve(p, goal, &flags, limit, progress)?)
        }
        Incumbent::File(path) => Ok(read_incumbent(path)?),
        Incumbent::Moves { moves, .. } => Ok(moves.clone()),
    };
    if let Ok(m) = &moves {
        let v = PlanChecker { goal }.check(p, m, None);
        if !v.errors.is_empty() {
            return Err(Error::Usage(format!(
                "{f_incumbent}: {} does not solve the board: {}",
                source.describe(),
                v.errors.join("; "),
                f_incumbent = Field::Incumbent
            )));
        }
    }
    Ok(moves)
}

/// The moves of an incumbent file (input errors name the file and line: exit 2).
fn read_incumbent(path: &Path) -> Result<Vec<Move>, Error> {
    Ok(crate::puzzle::sliding::parse_moves(
        &super::read_text(path, "incumbent plan")?,
        &path.display().to_string(),
    )?)
}

/// The MILP route from an incumbent plan of L moves (`incumbent`, see [`Incumbent`]): the
/// model at horizon L − 2 (or the `horizon` given, if smaller) decides whether a shorter
/// plan exists. Infeasible: the incumbent is optimal, proven by the MILP solver (given the
/// admissible bound the `tight` model embeds; `neos` and `flow` embed none). A solution: a
/// shorter plan, decoded and replayed, optimal when the solver proves its optimum (every plan
/// of at most L − 2 moves is in the model). When L − 2 is below the admissible bound B no
/// MILP is run: the heuristic alone proves the plan optimal, and the report says so rather
/// than crediting a solver; likewise a `horizon` below B leaves nothing to refute.
#[allow(
    clippy::too_many_arguments,
    reason = "the board, its goal and model, the method and the request it came in, the horizon, the plan's source and the progress line are all distinct inputs"
)]
fn solve_milp_from(
    p: &SlidingPuzzle,
    goal: Goal,
    model: SlidingModel,
    m: &MilpMethod,
    req: &SolveRequest,
    horizon: Option<usize>,
    source: &Incumbent,
    progress: Progress<'_>,
) -> Result<Report, Error> {
    let started = Instant::now();
    // The flags first: a bad solver name or horizon must not wait for the incumbent.
    if let Some(t) = horizon {
        resolve_horizon(p, Some(t))?;
    }
    let reg = registry(req)?;
    let chosen = reg.choose_milp();
    let name = m.solver.as_deref().unwrap_or(&chosen);
    let solver = reg.milp(name)?;
    let moves = match incumbent_plan(p, goal, source, req, progress)? {
        Ok(m) => m,
        Err(rep) => return Ok(*rep),
    };
    let l = moves.len();
    let Some((estimate, heuristic)) = root_bound(p, goal, Some(started + req.limits.time))? else {
        let why = bound_not_in_time();
        return Ok(stopped_before_the_solver(
            model,
            solver.name(),
            l,
            started,
            why,
        ));
    };
    let bound = sliding_tight::parity_bound(p, goal, estimate);
    if bound > l {
        return Err(Error::Failure(format!(
            "the admissible bound {bound} ({heuristic}) exceeds a verified plan of {l} moves: a heuristic bug"
        )));
    }
    // Plan lengths share the blank's parity: a plan shorter than L has at most L − 2 moves.
    let shorter = l.saturating_sub(2);
    let h = horizon.map_or(shorter, |t| t.min(shorter));
    let incumbent_answer = |proven: bool, floor: usize, words: String| {
        let mut a = Answer::judged(
            Checked {
                solution: Some(moves.clone()),
                objective: Some(l as f64),
                errors: Vec::new(),
            },
            proven,
            None,
            words,
        );
        if !proven {
            a.bound = Some(floor as f64);
        }
        a
    };
    let origin = source.describe();
    if l < bound + 2 || h < bound {
        // Nothing to refute: the plan's length is the admissible bound (optimal), or the
        // horizon lies below it (the bound is all that is known).
        let proven = l < bound + 2;
        let mut rep = sliding_report(model.name(), "none", if proven { l } else { h });
        fill(
            &mut rep,
            incumbent_answer(
                proven,
                bound,
                if proven {
                    format!(
                        "optimal: {origin} has {l} moves, the admissible lower bound ({heuristic}); no MILP was needed"
                    )
                } else {
                    format!(
                        "{origin} has {l} moves; horizon {h} lies below the admissible bound {bound} ({heuristic}), so no MILP was run"
                    )
                },
            ),
        );
        rep.seconds = started.elapsed().as_secs_f64();
        return Ok(rep);
    }
    // With `step`: horizons B, B + 2, …, h; else h alone (every plan of at most h moves).
    let from = if m.step == Some(true) { bound } else { h };
    progress(&format!(
        "incumbent: {origin}, {l} moves; asking the MILP for a plan of at most {h}"
    ));
    let job = StepJob {
        p,
        goal,
        model,
        solver: &*solver,
        limits: &req.limits,
        started,
        estimate,
    };
    let steps = step_horizons(&job, (from, h), bound, progress)?;
    let mut rep = sliding_report(model.name(), solver.name(), steps.horizon);
    let a = match steps.end {
        // No plan of at most h moves: lengths up to h are refuted, the next of the plans'
        // parity (L's; h may have the other) and at least B is the bound, and at h = L − 2
        // that is L itself.
        StepEnd::Refuted => {
            let floor = (h + 1 + (l - h - 1) % 2).min(l).max(bound);
            let proven = floor >= l;
            incumbent_answer(
                proven,
                floor,
                if proven {
                    format!(
                        "optimal: {origin} has {l} moves and {} proved {} infeasible ({})",
                        solver.name(),
                        steps.horizons(),
                        steps.status_text
                    )
                } else {
                    format!(
                        "{origin} has {l} moves; {} proved {} infeasible ({}): at least {floor} moves",
                        solver.name(),
                        steps.horizons(),
                        steps.status_text
                    )
                },
            )
        }
        // A shorter plan, verified (see [`step_horizons`] for when it is optimal).
        StepEnd::Found(mut a) => {
            a.solver_status = format!("{}: beats {origin} ({l} moves)", a.solver_status);
            a
        }
        // No answer within the limit: the incumbent stands, unproven, above the floor.
        StepEnd::Stopped(a) if matches!(a.status, Status::TimeLimit | Status::NoSolution) => {
            let floor = steps.floor;
            incumbent_answer(
                false,
                floor,
                format!(
                    "{origin} has {l} moves; {} did not decide horizon {} ({}): at least {floor} moves",
                    solver.name(),
                    steps.horizon,
                    steps.status_text
                ),
            )
        }
        // A solution that fails the checks, or an unbounded claim: a solver failure, reported
        // as such (the incumbent is not claimed optimal on its word).
        StepEnd::Stopped(a) => a,
    };
    fill(&mut rep, a);
    rep.seconds = started.elapsed().as_secs_f64();
    Ok(rep)
}

/// `step` without an incumbent: the MILP at horizons B, B + 2, …, T, where B is the
/// admissible bound rounded to the plans' parity. Each model asks whether a plan of at most
/// that many moves exists; the first that has one gives the optimum (every shorter length is
/// refuted by the solver or by the bound), so a generous T costs nothing past the optimum.
fn solve_milp_stepped(
    p: &SlidingPuzzle,
    goal: Goal,
    model: SlidingModel,
    m: &MilpMethod,
    req: &SolveRequest,
    horizon: usize,
    progress: Progress<'_>,
) -> Result<Report, Error> {
    let started = Instant::now();
    let reg = registry(req)?;
    let chosen = reg.choose_milp();
    let name = m.solver.as_deref().unwrap_or(&chosen);
    let solver = reg.milp(name)?;
    let Some((estimate, heuristic)) = root_bound(p, goal, Some(started + req.limits.time))? else {
        let why = bound_not_in_time();
        return Ok(stopped_before_the_solver(
            model,
            solver.name(),
            horizon,
            started,
            why,
        ));
    };
    let bound = sliding_tight::parity_bound(p, goal, estimate);
    progress(&format!(
        "stepping the horizon from {bound} ({heuristic}) by 2 up to {horizon}"
    ));
    let no_plan = |words: String, floor: usize| {
        let mut a = Answer::without(Status::Infeasible, words);
        a.errors.push(format!("no plan of at most {horizon} moves"));
        a.bound = Some(floor as f64);
        a
    };
    let mut rep;
    if bound > horizon {
        rep = sliding_report(model.name(), "none", horizon);
        fill(
            &mut rep,
            no_plan(
                format!(
                    "the admissible bound {bound} ({heuristic}) exceeds the horizon; no MILP was needed"
                ),
                bound,
            ),
        );
    } else {
        let job = StepJob {
            p,
            goal,
            model,
            solver: &*solver,
            limits: &req.limits,
            started,
            estimate,
        };
        let steps = step_horizons(&job, (bound, horizon), bound, progress)?;
        rep = sliding_report(model.name(), solver.name(), steps.horizon);
        let a = match steps.end {
            StepEnd::Refuted => no_plan(
                format!("{} infeasible ({})", steps.horizons(), steps.status_text),
                steps.horizon + 2,
            ),
            StepEnd::Found(mut a) => {
                // Say what proved the length: the bound alone, or the refuted horizons.
                a.solver_status = if steps.horizon == bound {
                    format!(
                        "{}: a plan at horizon {bound}, the admissible bound ({heuristic})",
                        a.solver_status
                    )
                } else {
                    format!(
                        "{}: a plan at horizon {}; {} proven infeasible",
                        a.solver_status,
                        steps.horizon,
                        horizons_text(bound, steps.horizon - 2)
                    )
                };
                a
            }
            StepEnd::Stopped(mut a) => {
                if a.status != Status::Unverified {
                    a.bound = Some(a.bound.unwrap_or(0.0).max(steps.floor as f64));
                }
                a
            }
        };
        fill(&mut rep, a);
    }
    rep.seconds = started.elapsed().as_secs_f64();
    Ok(rep)
}

/// How a run of MILP solves at several horizons ended.
enum StepEnd {
    /// Every horizon was proven infeasible.
    Refuted,
    /// A verified plan at the last horizon.
    Found(Answer<Vec<Move>>),
    /// The last horizon was not decided (time limit, no answer), or its answer failed the
    /// checks: that answer.
    Stopped(Answer<Vec<Move>>),
}

/// [`step_horizons`]' result.
struct Steps {
    /// How it ended.
    end: StepEnd,
    /// The first horizon solved.
    first: usize,
    /// The last horizon solved (or due, when the time ran out before it).
    horizon: usize,
    /// Plans are at least this long: every shorter horizon refuted, or the bound.
    floor: usize,
    /// The solver's words at the last horizon.
    status_text: String,
}

impl Steps {
    /// The horizons solved, in words.
    fn horizons(&self) -> String {
        horizons_text(self.first, self.horizon)
    }
}

/// "the model at horizon a", "the models at horizons a and b" or "… a, a + 2, …, b".
fn horizons_text(first: usize, last: usize) -> String {
    if first == last {
        format!("the model at horizon {first}")
    } else if first + 2 == last {
        format!("the models at horizons {first} and {last}")
    } else {
        format!("the models at horizons {first}, {}, …, {last}", first + 2)
    }
}

/// What every horizon of [`step_horizons`] is solved with.
struct StepJob<'a> {
    p: &'a SlidingPuzzle,
    goal: Goal,
    model: SlidingModel,
    solver: &'a dyn MilpSolver,
    limits: &'a Limits,
    /// The whole command's start: the time limit counts from it.
    started: Instant,
    /// [`root_bound`]'s estimate, computed once for every horizon.
    estimate: usize,
}

/// Solve the sliding MILP `model` at horizons `from`, `from + 2`, …, `to` (one solve when
/// they are equal) until one is not infeasible, under `limits` counted from `started`.
/// `bound` is the admissible bound at the plans' parity: below it no plan exists, so when
/// the run starts at it (or has refuted a horizon) every length below the current horizon is
/// refuted, and a verified plan there that reaches that floor is optimal whatever the solver
/// proved. A verified plan shorter than that floor contradicts the refutations (or the
/// bound): a solver or heuristic failure, reported as unverified. Each answer is judged as a
/// one-shot solve's is (point and plan checked). A time limit spent between horizons ends
/// the run as not decided, keeping what the refuted horizons proved; a solver that fails to
/// run is the command's error, as in a one-shot solve.
fn step_horizons(
    job: &StepJob<'_>,
    (from, to): (usize, usize),
    bound: usize,
    progress: Progress<'_>,
) -> Result<Steps, Error> {
    let mut h = from;
    loop {
        // Plans shorter than h: refuted by the steps before, or below the bound.
        let floor = if h > from || from == bound {
            h.max(bound)
        } else {
            bound
        };
        let steps = |end, status_text: String| Steps {
            end,
            first: from,
            horizon: h,
            floor,
            status_text,
        };
        let stopped = |why: String| {
            steps(
                StepEnd::Stopped(Answer::without(Status::TimeLimit, why.clone())),
                why,
            )
        };
        let Some(left) = job.limits.remaining(job.started) else {
            return Ok(stopped(format!(
                "the time limit ({:.0} s) was spent before horizon {h}",
                job.limits.time.as_secs_f64()
            )));
        };
        // A model too large or a solver that fails to run is an error of the command, as
        // in a one-shot solve (a missing solver must fail loudly, not read as "undecided").
        let built = build_milp_from(job.p, job.goal, job.model, h, Some(job.estimate))?;
        let sol = super::milp::run(&*built, job.solver, &left, progress)?;
        let mut a = super::milp::judge(&*built, &PlanChecker { goal: job.goal }, job.p, &sol);
        match a.status {
            Status::Infeasible if h + 2 <= to => {
                progress(&format!("horizon {h}: infeasible ({})", job.solver.name()));
                h += 2;
            }
            Status::Infeasible => return Ok(steps(StepEnd::Refuted, sol.status_text)),
            Status::Solved if a.objective.is_some_and(|o| o < floor as f64) => {
                a.status = Status::Unverified;
                a.optimal = false;
                a.verified = false;
                a.bound = None;
                a.errors.push(format!(
                    "a plan of {} moves contradicts the proof that none is shorter than {floor} (horizons refuted by {}, or the admissible bound {bound})",
                    a.objective.unwrap_or(0.0),
                    job.solver.name()
                ));
                return Ok(steps(StepEnd::Stopped(a), sol.status_text));
            }
            Status::Solved => {
                if a.objective == Some(floor as f64) {
                    a.optimal = true;
                }
                a.bound = Some(if a.optimal {
                    a.objective.unwrap_or(floor as f64)
                } else {
                    floor as f64
                });
                return Ok(steps(StepEnd::Found(a), sol.status_text));
            }
            _ => return Ok(steps(StepEnd::Stopped(a), sol.status_text)),
        }
    }
}

/// The MILP route with any MILP solver object (a local solver, NEOS): build the `model` of
/// `p` at `horizon`, solve it, decode the plan and have the independent checker replay it.
/// A local solve by the MILP route and `neos solve` both come through here.
pub fn solve_milp_with(
    p: &SlidingPuzzle,
    goal: Goal,
    model: SlidingModel,
    horizon: usize,
    solver: &dyn MilpSolver,
    limits: &Limits,
    progress: Progress<'_>,
) -> Result<Report, Error> {
    let started = Instant::now();
    // The tight model's bound may need a pattern database built for the first time: within
    // the time limit, like the rest.
    let estimate = match model {
        SlidingModel::Tight => match root_bound(p, goal, Some(started + limits.time))? {
            Some((e, _)) => Some(e),
            None => {
                let why = bound_not_in_time();
                return Ok(stopped_before_the_solver(
                    model,
                    solver.name(),
                    horizon,
                    started,
                    why,
                ));
            }
        },
        _ => None,
    };
    let built = build_milp_from(p, goal, model, horizon, estimate)?;
    // The solver gets what the bound and the model's build left of the limit.
    let Some(left) = limits.remaining(started) else {
        let why = "the time limit passed while the model was built".to_string();
        return Ok(stopped_before_the_solver(
            model,
            solver.name(),
            horizon,
            started,
            why,
        ));
    };
    let sol = super::milp::run(&*built, solver, &left, progress)?;
    let mut rep = sliding_report(model.name(), solver.name(), horizon);
    fill(
        &mut rep,
        super::milp::judge(&*built, &PlanChecker { goal }, p, &sol),
    );
    rep.seconds = started.elapsed().as_secs_f64();
    Ok(rep)
}

/// The CNF at one `horizon`, solved once with any SAT solver object: a model decodes to a plan
/// of at most `horizon` moves, replayed by the checker (no claim of optimality: that takes
/// the horizon below, `solve_sat`'s stepping); UNSAT proves that no plan is that short.
/// What a campaign runs on an exported CNF.
pub fn solve_sat_at(
    p: &SlidingPuzzle,
    goal: Goal,
    horizon: usize,
    solver: &dyn SatSolver,
    limits: &Limits,
    progress: Progress<'_>,
) -> Result<Report, Error> {
    let started = Instant::now();
    let enc = build_sat(p, goal, horizon)?;
    let cnf = enc.cnf();
    let outcome = super::with_heartbeat(progress, solver.name(), limits.time, || {
        solver.solve(cnf, limits)
    })?;
    let a = match outcome {
        SatOutcome::Unknown => Answer::without(Status::TimeLimit, "UNKNOWN"),
        SatOutcome::Unsat => {
            let mut a = Answer::without(Status::Infeasible, "UNSATISFIABLE");
            a.errors.push(format!(
                "no plan of at most {horizon} moves: the solver proved the CNF unsatisfiable"
            ));
            a
        }
        SatOutcome::Sat(mut model) => {
            // Variables a solver leaves out are false (SatOutcome's contract).
            model.resize(cnf.num_vars().max(model.len()), false);
            let checked = super::sat::check(&enc, &PlanChecker { goal }, p, &model, None);
            Answer::judged(checked, false, None, "SATISFIABLE")
        }
    };
    let mut rep = sliding_report("sat", solver.name(), horizon);
    fill(&mut rep, a);
    rep.seconds = started.elapsed().as_secs_f64();
    Ok(rep)
}

/// Judge a MILP answer (from any executor: a local solver, NEOS) of the sliding `model` at
/// `horizon`, exactly as a local solve by the MILP route does.
pub fn judge_milp(
    p: &SlidingPuzzle,
    goal: Goal,
    model: SlidingModel,
    horizon: usize,
    solver: &str,
    sol: &MilpSolution,
) -> Result<Report, Error> {
    let built = build_milp(p, goal, model, horizon)?;
    let mut rep = sliding_report(model.name(), solver, horizon);
    fill(
        &mut rep,
        super::milp::judge(&*built, &PlanChecker { goal }, p, sol),
    );
    Ok(rep)
}

/// The SAT route: horizon stepping to a proven optimum, or, with `given`, a plan from
/// elsewhere to replay and certify; `certify` makes a checked DRAT certificate.
fn solve_sat(
    p: &SlidingPuzzle,
    goal: Goal,
    m: &SatMethod,
    req: &SolveRequest,
    horizon: Option<usize>,
    given: Option<&[Move]>,
    progress: Progress<'_>,
) -> Result<Report, Error> {
    let started = Instant::now();
    let name = m.solver.as_deref().unwrap_or("varisat");
    if horizon == Some(0) {
        return Err(Error::usage(format!(
            "{} must be at least 1",
            Field::Horizon
        )));
    }
    // The SAT route steps up to this horizon; without a known diameter, a generous cap.
    let max_h = horizon
        .or_else(|| sliding_case_study::default_horizon(p.rows(), p.cols()))
        .unwrap_or(200);
    check_size(p, goal, SlidingModel::Sat, max_h)?;
    let say = |_: usize, s: &SatStep| {
        progress(&format!(
            "horizon {}: {:?} in {:.2} s ({} vars, {} clauses)",
            s.horizon, s.result, s.seconds, s.vars, s.clauses
        ))
    };
    // With the plan in hand (`plan`, the native route) only the refutation of L − 2 is
    // left, and the pattern-database clauses make that 3–4× faster end to end (README,
    // "Lower-bound clauses"); the horizon search keeps its old default, `pruned`, so that its
    // formulas and figures stay as they were (the `pdb` encoding is faster there too).
    let encoding = m
        .encoding
        .unwrap_or(if given.is_some() && m.certify.is_some() {
            sliding_sat::Encoding::Pdb
        } else {
            sliding_sat::Encoding::default()
        });
    let reg = registry(req)?;
    let solver = reg.sat(name)?;
    let checker = PlanChecker { goal };
    let proof = || {
        solver.proofs().ok_or_else(|| {
            Error::Usage(format!(
                "solver {name:?} cannot write DRAT proofs: certify with varisat, cadical or kissat"
            ))
        })
    };
    let mut rep;
    if let (Some(cert_opts), Some(moves)) = (&m.certify, given) {
        let producer = Producer {
            solver: proof()?,
            limits: req.limits,
        };
        rep = sliding_report("sat", name, moves.len());
        let v = checker.check(p, moves, None);
        let checked = Checked {
            solution: Some(moves.to_vec()),
            objective: v.objective,
            errors: v.errors,
        };
        fill(
            &mut rep,
            Answer::judged(checked, false, None, "plan given; search skipped"),
        );
        // A plan the user gave (`plan`) that fails is the user's "no", not a solver
        // failure: no solver claimed it. (The native search's plan failing stays a failure.)
        if m.plan.is_some() && rep.status == Status::Unverified {
            rep.status = Status::NoSolution;
        }
        if rep.verified {
            // The pdb formula running backward refutes fastest (README, "Lower-bound clauses");
            // a split keeps forward, the way its cubes (the blank's first moves) are chosen.
            let backward = encoding == sliding_sat::Encoding::Pdb && cert_opts.split == 0;
            let cert_opts = &CertifyOptions {
                direction: cert_opts
                    .direction
                    .or(backward.then_some(sliding_sat::Direction::Backward)),
                ..cert_opts.clone()
            };
            let cert = certify::certify_plan(p, goal, moves.len(), encoding, &producer, cert_opts)?;
            rep.optimal = cert.certified;
            if rep.optimal {
                rep.bound = rep.objective;
            }
            rep.certificate = Some(cert);
        }
    } else {
        let (plan, certificate) = if let Some(cert_opts) = &m.certify {
            if !p.is_solvable(goal) {
                return Err(Error::Failure(
                    sat_horizon::SatPlanError::<String>::Unsolvable(goal).to_string(),
                ));
            }
            let producer = Producer {
                solver: proof()?,
                limits: req.limits,
            };
            certify::solve_certified(p, goal, max_h, encoding, &producer, cert_opts, say)?
        } else {
            let plan = sat_horizon::solve_with_solver(
                p,
                goal,
                max_h,
                encoding,
                &*solver,
                &req.limits,
                say,
            )
            .map_err(Error::failure)?;
            (plan, None)
        };
        rep = sliding_report("sat", name, plan.horizon.unwrap_or(max_h));
        rep.bound = Some(plan.lower_bound as f64);
        match &plan.moves {
            Some(moves) => {
                let v = checker.check(p, moves, plan.horizon.map(|h| h as f64));
                let checked = Checked {
                    solution: Some(moves.clone()),
                    objective: v.objective,
                    errors: v.errors,
                };
                let lower = rep.bound;
                fill(&mut rep, Answer::judged(checked, plan.optimal, None, ""));
                if !rep.optimal {
                    rep.bound = lower;
                }
            }
            None => {
                rep.status = match plan.steps.last().map(|s| s.result) {
                    Some(StepResult::Unknown) => Status::TimeLimit,
                    _ => Status::NoSolution,
                };
                // The board is solvable (checked before stepping), and every solvable board
                // of a size whose diameter is known is solved within it: a solver that
                // refuted every horizon up to that is wrong, not the board.
                let diameter = sliding_case_study::default_horizon(p.rows(), p.cols());
                let refuted_all = plan.steps.last().map(|s| s.result) == Some(StepResult::Unsat);
                if let Some(d) = diameter.filter(|&d| refuted_all && plan.lower_bound > d) {
                    rep.status = Status::Unverified;
                    rep.errors.push(format!(
                        "the solver refuted every horizon up to {max_h}, but every solvable {}×{} board is solved in at most {d} moves: a wrong UNSAT",
                        p.rows(),
                        p.cols()
                    ));
                }
            }
        }
        rep.solver_status = plan
            .steps
            .iter()
            .map(|s| format!("T={}:{:?}", s.horizon, s.result))
            .collect::<Vec<_>>()
            .join(" ");
        rep.certificate = certificate;
    }
    rep.encoding = Some(encoding);
    rep.certificate_wanted = m.certify.is_some();
    rep.seconds = started.elapsed().as_secs_f64();
    Ok(rep)
}

/// A raw MILP solver output ([`crate::format::solution::parse_milp`]); `None` for anything
/// else.
pub fn parse_milp_output(
    text: &str,
    source: &str,
) -> Result<Option<(MilpSolution, &'static str)>, Error> {
    Ok(crate::format::solution::parse_milp(text, source)?)
}

/// True when `text` reads as a SAT-competition output (`s` or `v` lines).
fn looks_like_sat_output(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .any(|t| t.starts_with("s ") || t == "v" || t.starts_with("v "))
}

/// The horizon a raw MILP output was solved at, read from its variable names (`…_t13`: the
/// time index; both MILPs have variables at every step up to T, and at T some are nonzero).
fn milp_output_horizon(sol: &MilpSolution) -> Option<usize> {
    let ColumnValues::ByName(pairs) = &sol.values else {
        return None;
    };
    pairs
        .iter()
        .filter(|(_, v)| *v != 0.0)
        .filter_map(|(name, _)| name.rsplit_once("_t").and_then(|(_, t)| t.parse().ok()))
        .max()
}

/// The horizon whose CNF has exactly `num_vars` variables (solvers list every variable), by
/// building the encoding at each horizon up to `max`.
fn sat_output_horizon(p: &SlidingPuzzle, goal: Goal, num_vars: usize, max: usize) -> Option<usize> {
    (1..=max).find(|&t| sliding_sat::build(p, goal, t).cnf().num_vars() == num_vars)
}

/// The largest variable a SAT output's `v` lines name.
fn sat_output_vars(text: &str) -> usize {
    text.lines()
        .map(str::trim)
        .filter_map(|t| t.strip_prefix('v'))
        .flat_map(str::split_whitespace)
        .filter_map(|x| x.parse::<i64>().ok())
        .map(|x| x.unsigned_abs() as usize)
        .max()
        .unwrap_or(0)
}

/// The horizon to rebuild a raw output's model at: the one detected in the output, which a
/// given `horizon` must agree with (an output verified against a model exported with other
/// options is a usage error, not an invalid answer).
fn agreed_horizon(
    detected: Option<usize>,
    given: Option<usize>,
    source: &str,
) -> Result<Option<usize>, Error> {
    match (detected, given) {
        (Some(d), Some(g)) if d != g => Err(Error::Usage(format!(
            "{source}: this output is for horizon {d}, not {g}: it was exported with other flags (pass {} {d})",
            Field::Horizon
        ))),
        (Some(d), _) => Ok(Some(d)),
        (None, g) => Ok(g),
    }
}

/// Verify a solution file against an instance: a move file, or (with `model`, or
/// recognised by its first lines) a raw CBC, HiGHS, GLPK or SAT output, decoded through the
/// model rebuilt at the horizon the output was solved at (read from it where it can be: the
/// variable names of a MILP output, the variable count of a SAT one).
pub fn verify(
    p: &SlidingPuzzle,
    goal: Goal,
    text: &str,
    source: &str,
    model: Option<SlidingModel>,
    horizon: Option<usize>,
) -> Result<Verdict, Error> {
    let checker = PlanChecker { goal };
    let verdict = |c: Checked<Vec<Move>>| Verdict {
        valid: c.errors.is_empty() && c.solution.is_some(),
        objective: c.objective,
        errors: c.errors,
    };
    let no_answer = |why: String| Verdict {
        valid: false,
        objective: None,
        errors: vec![why],
    };
    let milp = parse_milp_output(text, source)?;
    let sat = looks_like_sat_output(text);
    match (model, milp) {
        (Some(SlidingModel::Sat), Some(_)) => Err(Error::usage(format!(
            "a MILP solver output cannot belong to {} sat",
            Field::Model
        ))),
        (m, Some((sol, _))) => {
            let h = agreed_horizon(milp_output_horizon(&sol), horizon, source)?;
            let h = resolve_horizon(p, h)?;
            let built = build_milp(p, goal, m.unwrap_or(SlidingModel::Neos), h)?;
            if !sol.outcome.has_solution() {
                return Ok(no_answer(format!(
                    "the solver output has no solution (status: {})",
                    sol.status_text
                )));
            }
            // Values that do not fit the rebuilt model are bad input, not a bad answer.
            sol.resolve(built.model()).map_err(|e| {
                Error::Usage(format!("{source}: {e}: was it exported with other flags?"))
            })?;
            let mut c = super::milp::check(&*built, &checker, p, &sol);
            if c.solution.is_none() {
                c.objective = None;
            }
            Ok(verdict(c))
        }
        (Some(m @ (SlidingModel::Neos | SlidingModel::Flow | SlidingModel::Tight)), None) => {
            Err(Error::Usage(format!(
                "{source}: not a MILP solution file tilekit reads (CBC, HiGHS, GLPK, MIPLIB, SCIP, Gurobi, CPLEX XML): {f_model} {} verifies raw MILP solver outputs (a move file needs no {f_model})",
                m.name(),
                f_model = Field::Model
            )))
        }
        (Some(SlidingModel::Sat), None) if !sat => Err(Error::Usage(format!(
            "{source}: not a SAT solver output (`s` and `v` lines): {f_model} sat verifies raw SAT outputs (a move file needs no {f_model})",
            f_model = Field::Model
        ))),
        (None, None) if sat => Err(Error::Usage(format!(
            "{source}: a SAT solver output: pass {} sat to verify it against the CNF",
            Field::Model
        ))),
        (Some(SlidingModel::Sat), None) => {
            let max = resolve_horizon(p, None)
                .unwrap_or(200)
                .max(horizon.unwrap_or(0));
            let vars = sat_output_vars(text);
            let detected = (vars > 0)
                .then(|| sat_output_horizon(p, goal, vars, max))
                .flatten();
            let h = agreed_horizon(detected, horizon, source)?.ok_or_else(|| {
                Error::usage(format!(
                    "this SAT output names no variables to tell its horizon by: pass {}",
                    Field::Horizon
                ))
            })?;
            let enc = build_sat(p, goal, h)?;
            match sat_out::parse(text, source, enc.cnf().num_vars())? {
                SatOutcome::Sat(assignment) => Ok(verdict(super::sat::check(
                    &enc,
                    &checker,
                    p,
                    &assignment,
                    Some(h as f64),
                ))),
                SatOutcome::Unsat => Ok(no_answer(
                    "the SAT output says UNSATISFIABLE: no plan at this horizon".into(),
                )),
                SatOutcome::Unknown => {
                    Ok(no_answer("the SAT output has no answer (s UNKNOWN)".into()))
                }
            }
        }
        (None, None) => {
            Ok(checker.check(p, &crate::puzzle::sliding::parse_moves(text, source)?, None))
        }
    }
}

/// The sliding family's row in [`super::families::FAMILIES`]: the catch-all of detection.
pub const FAMILY: Family = Family {
    name: FamilyName::Sliding,
    noun: "sliding-tile puzzles",
    one: "a sliding-tile puzzle",
    detect,
    export: export_command,
    solve: solve_command,
    verify: verify_command,
    render: render_command,
};

/// The catch-all: anything no other family claims is read as a board, so that the board
/// parser's message says what does not fit.
fn detect(_: &str) -> Detect {
    Detect::Yes("no other family's file looks like it")
}

fn parse(inst: &Instance, goal: Goal) -> Result<SlidingPuzzle, Error> {
    inst.parse(|t, s| SlidingPuzzle::parse(t, s, goal))
}

fn export_command(
    inst: &Instance,
    req: &ExportRequest,
    progress: Progress<'_>,
) -> Result<Exported, Error> {
    req.refuse_edge_options(&FAMILY)?;
    let opts = req.options.sliding().map_err(|e| inst.hint(e))?;
    let goal = opts.goal;
    let out = req.output.as_deref();
    let name = req.model.unwrap_or(ModelName::Neos);
    let m = SlidingModel::of(name)?;
    let fmt = export_format(m, req.format, out)?;
    req.check_neos_flags(fmt)?;
    if fmt == Format::Neos && m == SlidingModel::Sat {
        return Err(Error::usage(format!(
            "a NEOS job carries a MILP: use {} neos, flow or tight",
            Field::Model
        )));
    }
    if fmt != Format::Neos {
        check_format(m, fmt)?;
    }
    let p = parse(inst, goal)?;
    let limit = Duration::from_secs_f64(AUTO_HORIZON_SECONDS);
    let t = horizon_of(opts.horizon, &p, goal, limit, progress)?;
    if fmt == Format::Neos {
        return Ok(Exported::NeosJob {
            model: name,
            horizon: t,
        });
    }
    let h = resolve_horizon(&p, t)?;
    let mut counts = Counts::Algebraic;
    super::output::stream_to(out, |w| {
        counts = export(&p, goal, (m, fmt), h, req.name.as_deref(), w)?;
        Ok(())
    })?;
    Ok(Exported::Written(counts))
}

fn solve_command(
    inst: &Instance,
    req: &family::SolveRequest,
    progress: Progress<'_>,
) -> Result<Solved, Error> {
    let (goal, method) = match &req.method {
        Method::Recommended => (Goal::default(), SlidingMethod::default()),
        Method::Sliding { goal, method } => (*goal, method.clone()),
        Method::Edge(_) => {
            return Err(inst.hint(Error::usage(
                "an edge-matching method does not apply to sliding-tile puzzles",
            )));
        }
    };
    let mut plan = SolveRequest {
        method,
        limits: req.limits,
        solvers_file: req.solvers_file.clone(),
        preset: req.preset,
        settings: req.settings.clone(),
    }
    .plan()
    .map_err(|e| inst.hint(e))?;
    // An incumbent file is read now: its errors come before any search.
    if let SlidingMethod::Milp(m) = &mut plan.request.method
        && let Some(Incumbent::File(path)) = &m.incumbent
    {
        m.incumbent = Some(Incumbent::Moves {
            moves: read_incumbent(path)?,
            from: path.clone(),
        });
    }
    let p = parse(inst, goal)?;
    // A plan to certify that does not solve the board is the user's input error, like a bad
    // incumbent: said before any solver runs.
    if let SlidingMethod::Sat(SatMethod {
        plan: Some(MoveFile { moves, path }),
        ..
    }) = &plan.request.method
    {
        let v = PlanChecker { goal }.check(&p, moves, None);
        if !v.errors.is_empty() {
            return Err(Error::Usage(format!(
                "{}: the plan does not solve the board: {}",
                path.display(),
                v.errors.join("; ")
            )));
        }
    }
    let report = solve(&p, goal, &plan, progress)?;
    let solution_text = report.plan().map(plan_text);
    Ok(Solved {
        report,
        solution_text,
    })
}

fn verify_command(
    inst: &Instance,
    req: &VerifyRequest,
    progress: Progress<'_>,
) -> Result<Verified, Error> {
    let opts = req.options.sliding().map_err(|e| inst.hint(e))?;
    let goal = opts.goal;
    let m = req.model.map(SlidingModel::of).transpose()?;
    let p = parse(inst, goal)?;
    let limit = Duration::from_secs_f64(AUTO_HORIZON_SECONDS);
    let t = horizon_of(opts.horizon, &p, goal, limit, progress)?;
    let text = super::read_text(&req.solution, "solution")?;
    let v = verify(&p, goal, &text, &req.solution.display().to_string(), m, t)?;
    Ok(Verified {
        valid: v.valid,
        text: if v.valid {
            format!("valid: {} moves reach the goal", v.objective.unwrap_or(0.0))
        } else {
            format!("invalid: {}", v.errors.join("; "))
        },
        json: serde_json::to_string(&v).map_err(Error::failure)?,
    })
}

fn render_command(inst: &Instance, req: &RenderRequest) -> Result<Rendered, Error> {
    let goal = req.options.sliding().map_err(|e| inst.hint(e))?.goal;
    if req.ids {
        return Err(inst.hint(Error::Usage(format!(
            "{} does not apply to sliding-tile puzzles: leave it out",
            Field::Ids
        ))));
    }
    let p = parse(inst, goal)?;
    let mut notes = Vec::new();
    let moves = match &req.solution {
        Some(path) => {
            let moves = crate::puzzle::sliding::parse_moves(
                &super::read_text(path, "solution")?,
                &path.display().to_string(),
            )?;
            // The drawing shows where the plan ends; a plan that is not a solution is drawn
            // all the same (a prefix is worth seeing), but said to be one.
            let mut board = p.clone();
            let stopped = moves.iter().position(|&m| !board.apply(m));
            match stopped {
                Some(k) => notes.push(format!(
                    "{}: move {} leaves the board: the drawing stops after {k} moves",
                    path.display(),
                    k + 1
                )),
                None if !board.is_goal(goal) => notes.push(format!(
                    "{}: the plan's {} moves do not reach the goal ({goal}): the drawing shows where they end",
                    path.display(),
                    moves.len()
                )),
                None => {}
            }
            Some(moves)
        }
        None => None,
    };
    Ok(Rendered {
        svg: crate::render::render_sliding(&p, moves.as_deref()),
        notes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::route::astar::AstarMethod;
    use crate::route::method::NativeMethod;

    fn req(method: SlidingMethod) -> SolveRequest {
        SolveRequest::new(method, Limits::new(Duration::from_secs(10), 1))
    }

    fn err(r: SolveRequest) -> String {
        r.plan().unwrap_err().to_string()
    }

    fn astar(a: AstarMethod) -> SlidingMethod {
        SlidingMethod::Astar(a)
    }

    #[test]
    fn the_stored_frontier_is_on_from_25_cells_off_in_the_paper_preset_and_settable() {
        let native = SlidingMethod::Native(NativeMethod::default());
        let board = |n: usize| {
            let tiles: Vec<u16> = (0..(n * n) as u16).collect();
            SlidingPuzzle::new(n, n, tiles).unwrap()
        };
        let frontier = |r: &SolveRequest, n| native_options(&board(n), None, r).map(|o| o.frontier);
        let r = req(native.clone());
        assert_eq!(frontier(&r, 5).unwrap(), crate::search::STORED_FRONTIER);
        assert_eq!(frontier(&r, 4).unwrap(), 0);
        let mut paper = req(native.clone());
        paper.preset = Preset::Paper;
        assert_eq!(frontier(&paper, 5).unwrap(), 0);
        let mut set = req(native.clone());
        set.settings.push("native.frontier", "4096").unwrap();
        assert_eq!(frontier(&set, 4).unwrap(), 4096);
        let mut bad = req(native);
        bad.settings.push("native.frontier", "-1").unwrap();
        assert!(
            frontier(&bad, 5)
                .unwrap_err()
                .to_string()
                .contains("native.frontier")
        );
    }

    #[test]
    fn astar_numbers_are_checked_and_the_learned_weight_applied() {
        let weighted = AstarMethod {
            weight: Some(1.2),
            ..Default::default()
        };
        let p = req(astar(weighted.clone())).plan().unwrap();
        assert_eq!(p.route(), Route::Astar);
        assert!(
            err(req(astar(AstarMethod {
                suboptimality: Some(0.1),
                ..weighted
            })))
            .contains("give one")
        );
        assert!(
            err(req(astar(AstarMethod {
                weight: Some(-0.5),
                ..Default::default()
            })))
            .contains("positive")
        );
        let mut r = req(astar(AstarMethod::default()));
        r.settings.push("astar.batch", "0").unwrap();
        assert!(err(r).contains("astar.batch"));
        assert!(
            err(req(astar(AstarMethod {
                batch: Some(0),
                ..Default::default()
            })))
            .contains("`astar.batch` must be at least 1")
        );
        // A learned estimate gets the measured weight unless a weight or a bound is given,
        // and the paper preset keeps plain A*.
        let learned = AstarMethod {
            heuristic: Some(super::super::astar::AstarHeuristic::Ann),
            ..Default::default()
        };
        let weight = |r: SolveRequest| match r.plan().unwrap().request.method {
            SlidingMethod::Astar(a) => a.weight,
            _ => unreachable!(),
        };
        assert_eq!(weight(req(astar(learned.clone()))), Some(LEARNED_WEIGHT));
        let mut paper = req(astar(learned));
        paper.preset = Preset::Paper;
        assert_eq!(weight(paper), None);
    }

    fn cert() -> CertifyOptions {
        CertifyOptions {
            checker: "rate".into(),
            checker_time_limit: Duration::from_secs(1),
            proof_dir: None,
            split: 0,
            jobs: 1,
            direction: Default::default(),
            race: false,
        }
    }

    #[test]
    fn defaults_are_resolved_by_the_plan() {
        let p = req(SlidingMethod::default()).plan().unwrap();
        assert_eq!(p.route(), Route::Native);
        let milp = |preset: Preset, m: MilpMethod| {
            let mut r = req(SlidingMethod::Milp(m));
            r.preset = preset;
            let p = r.plan().unwrap();
            match p.request.method {
                SlidingMethod::Milp(m) => (p.model, m.step),
                _ => unreachable!(),
            }
        };
        // The strengthened model, stepped up from the bound, unless the paper's is asked for.
        assert_eq!(
            milp(Preset::Recommended, MilpMethod::default()),
            (SlidingModel::Tight, Some(true))
        );
        assert_eq!(
            milp(Preset::Paper, MilpMethod::default()),
            (SlidingModel::Neos, Some(false))
        );
        // An incumbent has a start of its own.
        let from = MilpMethod {
            incumbent: Some(Incumbent::Native),
            model: Some(MilpModel::Flow),
            ..Default::default()
        };
        assert_eq!(
            milp(Preset::Recommended, from),
            (SlidingModel::Flow, Some(false))
        );
    }

    #[test]
    fn parameters_of_other_methods_and_bad_limits_are_refused() {
        let mut r = req(SlidingMethod::Milp(MilpMethod::default()));
        r.settings.push("certify.split", "2").unwrap();
        assert!(
            err(r).contains("certify.split"),
            "certify keys need a certificate"
        );
        let mut r = req(SlidingMethod::Sat(SatMethod {
            certify: Some(cert()),
            ..Default::default()
        }));
        r.settings.push("certify.split", "9").unwrap();
        assert!(err(r).contains("certify.split"));
        let mut r = req(SlidingMethod::Native(NativeMethod {
            pdb: None,
            certificate: Some(super::super::method::Certificate {
                solver: None,
                encoding: None,
                options: cert(),
            }),
        }));
        r.settings.push("certify.direction", "both").unwrap();
        r.settings.push("certify.split", "2").unwrap();
        assert!(err(r).contains("does not combine"));
        assert_eq!(
            err(req(SlidingMethod::Sat(SatMethod {
                plan: Some(MoveFile {
                    moves: vec![],
                    path: "p.txt".into()
                }),
                ..Default::default()
            }))),
            "`plan` gives a plan to certify: it needs `certify`"
        );
        assert_eq!(
            err(SolveRequest::new(
                SlidingMethod::default(),
                Limits::new(Duration::ZERO, 1)
            )),
            "`limits.time_limit` must be a positive number of seconds"
        );
    }

    #[test]
    fn formats_follow_the_model() {
        assert!(SlidingModel::Neos.writes(Format::Gms));
        assert!(!SlidingModel::Flow.writes(Format::Gms));
        assert!(!SlidingModel::Sat.writes(Format::Lp));
        assert_eq!(
            export_format(SlidingModel::Sat, None, None).unwrap(),
            Format::Cnf
        );
        assert_eq!(
            export_format(SlidingModel::Neos, None, Some(Path::new("a/b.mps"))).unwrap(),
            Format::Mps
        );
        assert_eq!(
            export_format(SlidingModel::Neos, None, Some(Path::new("b.txt")))
                .unwrap_err()
                .to_string(),
            "format \"txt\" is not known: use lp, mps, gms or cnf"
        );
    }

    fn case_study() -> SlidingPuzzle {
        SlidingPuzzle::new(
            4,
            4,
            vec![5, 1, 2, 3, 9, 6, 7, 4, 13, 10, 11, 8, 14, 15, 0, 12],
        )
        .unwrap()
    }

    /// An 8-puzzle whose optimum (8) is twice its Manhattan distance (4).
    fn eight() -> SlidingPuzzle {
        SlidingPuzzle::new(3, 3, vec![4, 1, 3, 2, 5, 6, 7, 8, 0]).unwrap()
    }

    /// A verified plan of `moves` for `p` that a solver called optimal, as a MILP route
    /// reports it before [`settle_claims`].
    fn claimed(p: &SlidingPuzzle, moves: &[Move]) -> Report {
        let checked = Checked {
            solution: Some(moves.to_vec()),
            objective: PlanChecker {
                goal: Goal::BlankLast,
            }
            .check(p, moves, Some(moves.len() as f64))
            .objective,
            errors: Vec::new(),
        };
        let mut rep = sliding_report("tight", "liar", moves.len());
        fill(&mut rep, Answer::judged(checked, true, None, "Optimal"));
        assert!(rep.verified && rep.optimal, "{rep:?}");
        rep
    }

    /// A solver's "infeasible" at horizon `t`.
    fn infeasible(t: usize) -> Report {
        let mut rep = sliding_report("tight", "liar", t);
        fill(&mut rep, Answer::without(Status::Infeasible, "Infeasible"));
        rep
    }

    fn plan(letters: &str) -> Vec<Move> {
        crate::puzzle::sliding::parse_moves(letters, "test").unwrap()
    }

    /// The case study's optimal plan and a detour of 12 moves with no move and its undo: the
    /// blank goes three times round the 2×2 block in the corner, which puts its tiles back.
    fn detour(p: &SlidingPuzzle) -> Vec<Move> {
        let moves = plan("LLUUURRRDDD");
        let end = p.replay(&moves).unwrap();
        ["ULDR", "LURD", "DRUL", "RDLU"]
            .into_iter()
            .map(|r| [moves.clone(), plan(&r.repeat(3))].concat())
            .find(|m| undo_pair(m).is_none() && p.replay(m).is_ok_and(|b| b == end))
            .expect("one way round the corner block stays on the board")
    }

    #[test]
    fn a_claimed_optimum_tilekit_beats_is_a_solver_failure() {
        let p = case_study();
        let mut rep = claimed(&p, &detour(&p));
        settle_claims(&mut rep, &p, Goal::BlankLast, Duration::from_secs(5));
        assert_eq!(rep.status, Status::Unverified, "{rep:?}");
        assert_eq!(rep.exit_code(), 3);
        assert!(!rep.optimal && !rep.verified);
        assert!(
            rep.errors
                .iter()
                .any(|e| e.contains("claims its plan of 23 moves is optimal")
                    && e.contains("found one of 11 moves")),
            "{:?}",
            rep.errors
        );
    }

    #[test]
    fn a_claimed_optimum_is_proven_by_tilekit_or_stays_a_claim() {
        let p = case_study();
        let mut rep = claimed(&p, &plan("LLUUURRRDDD"));
        settle_claims(&mut rep, &p, Goal::BlankLast, Duration::from_secs(5));
        assert!(rep.optimal && rep.solver_claim.is_none(), "{rep:?}");
        assert!(
            rep.solver_status
                .contains("tilekit's IDA* proves it optimal")
        );
        assert_eq!(rep.exit_code(), 0);
        // Without time for a search, the Manhattan distance (4) does not meet the plan (8):
        // the optimum stays the solver's claim, above the bound tilekit proves.
        let p = eight();
        let opts = NativeOptions::default();
        let (r, _, _) =
            search::solve_one(&p, Goal::BlankLast, &opts, None, &super::super::quiet).unwrap();
        let moves = r.moves.unwrap();
        assert_eq!((moves.len(), p.manhattan(Goal::BlankLast)), (8, 4));
        let mut rep = claimed(&p, &moves);
        settle_claims(&mut rep, &p, Goal::BlankLast, Duration::ZERO);
        assert!(!rep.optimal, "{rep:?}");
        assert_eq!(rep.solver_claim, Some(Claim::Optimal));
        assert_eq!(rep.bound, Some(4.0));
        assert!(rep.verified && rep.exit_code() == 0);
        let text = rep.render(false);
        assert!(
            text.starts_with("8 moves, optimal by the solver's claim; tilekit proves at least 4 ("),
            "{text}"
        );
        let json: serde_json::Value = serde_json::from_str(&rep.render(true)).unwrap();
        assert_eq!(
            (&json["solver_claim"], &json["optimal"]),
            (&"optimal".into(), &false.into())
        );
        // With time, the search proves it.
        let mut rep = claimed(&p, &moves);
        settle_claims(&mut rep, &p, Goal::BlankLast, Duration::from_secs(5));
        assert!(rep.optimal && rep.solver_claim.is_none(), "{rep:?}");
    }

    /// A time limit spent before the solver could start (here by the model's build) is a
    /// time_limit report that says so; no solver runs.
    #[test]
    fn a_limit_spent_on_the_model_stops_before_the_solver() {
        let reg = crate::solve::registry::Registry::builtin();
        let solver = reg.milp("microlp").unwrap();
        let limits = Limits::new(Duration::from_nanos(1), 1);
        let rep = solve_milp_with(
            &case_study(),
            Goal::BlankLast,
            SlidingModel::Neos,
            13,
            &*solver,
            &limits,
            &super::super::quiet,
        )
        .unwrap();
        assert_eq!(rep.status, Status::TimeLimit, "{rep:?}");
        assert_eq!(
            rep.solver_status,
            "the time limit passed while the model was built"
        );
        assert_eq!(rep.exit_code(), 1);
    }

    /// A board of the wrong permutation parity reaches no goal: its "infeasible" is
    /// tilekit's own, said as such, without a search.
    #[test]
    fn an_unreachable_goal_proves_infeasibility_without_a_search() {
        let p = SlidingPuzzle::new(3, 3, vec![2, 1, 3, 4, 5, 6, 7, 8, 0]).unwrap();
        assert!(!p.is_solvable(Goal::BlankLast));
        let mut rep = infeasible(6);
        settle_claims(&mut rep, &p, Goal::BlankLast, Duration::ZERO);
        assert_eq!(
            (rep.status, rep.solver_claim),
            (Status::Infeasible, None),
            "{rep:?}"
        );
        assert!(
            rep.solver_status
                .ends_with("the board cannot reach the goal (permutation parity)"),
            "{}",
            rep.solver_status
        );
    }

    #[test]
    fn a_claimed_infeasibility_is_refuted_proven_or_kept_as_a_claim() {
        let p = case_study();
        // A plan of 11 moves exists: "none of at most 12" is a lie.
        let mut rep = infeasible(12);
        settle_claims(&mut rep, &p, Goal::BlankLast, Duration::from_secs(5));
        assert_eq!(rep.status, Status::Unverified, "{rep:?}");
        assert_eq!(rep.exit_code(), 3);
        assert!(rep.errors[0].contains("found one of 11 moves"), "{rep:?}");
        // None of at most 9 moves: true, and the case study's Manhattan distance (11) shows it
        // without a search.
        let mut rep = infeasible(9);
        settle_claims(&mut rep, &p, Goal::BlankLast, Duration::ZERO);
        assert_eq!(
            (rep.status, rep.solver_claim),
            (Status::Infeasible, None),
            "{rep:?}"
        );
        assert!(rep.solver_status.contains("at least 11 moves"), "{rep:?}");
        // The 8-puzzle at 6 moves: true, beyond the Manhattan distance (4); the search proves
        // it, and without time it stays a claim.
        let p = eight();
        let mut rep = infeasible(6);
        settle_claims(&mut rep, &p, Goal::BlankLast, Duration::from_secs(5));
        assert_eq!(
            (rep.status, rep.solver_claim),
            (Status::Infeasible, None),
            "{rep:?}"
        );
        let mut rep = infeasible(6);
        settle_claims(&mut rep, &p, Goal::BlankLast, Duration::ZERO);
        assert_eq!(rep.solver_claim, Some(Claim::Infeasible), "{rep:?}");
        assert!(
            rep.render(false)
                .starts_with("infeasible by the solver's claim")
        );
    }
}
