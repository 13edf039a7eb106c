//! NEOS for both families: an instance's MILP goes to NEOS through the remote executor
//! [`NeosMilp`], behind the same [`MilpSolver`] trait as a local solver, and comes back
//! through the same MILP route as a local solve ([`sliding::solve_milp_with`],
//! [`edge::solve_milp_with`]): decoded, checked against every row, and judged by the family's
//! independent checker.
//!
//! [`NeosInstance`] is what a job carries: a sliding board with its formulation (`neos`, or
//! `flow` for LP/MPS input) and horizon, or an edge-matching puzzle with its MILP options
//! (`filter`, `fix_corner`). It is recorded in the job file ([`InstanceRef`]), so that
//! `neos results JOB` can rebuild the model and judge a job fetched later
//! ([`judge_results`]).

use super::edge;
use super::family::Instance;
use super::sliding::{self, SlidingModel};
use super::{Error, FamilyName, ModelName, Progress, Report};
use crate::field::Field;
use crate::format::gams::{self, GamsOptions};
use crate::format::neos_job::{InputMethod, Priority};
use crate::formulate::edge_milp::EdgeMilpOptions;
use crate::model::answer::MilpSolution;
use crate::model::milp::Model;
use crate::neos::NeosError;
use crate::neos::client::Client;
use crate::neos::jobs::{InstanceRef, JobFamily, JobRecord, parse_results};
use crate::neos::remote::{AlgebraicModel, JobSettings, NeosMilp, job_document};
use crate::puzzle::edge::EdgePuzzle;
use crate::puzzle::sliding::{Goal, SlidingPuzzle};
use crate::solve::{Limits, MilpSolver};
use std::path::PathBuf;
use std::time::Instant;

/// What the model flags of a NEOS job say (`neos submit`, `neos solve`; checked by
/// [`NeosInstance::of`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelRequest {
    /// The model; `None`: `neos` for a sliding puzzle, `milp` for an edge-matching one.
    pub model: Option<ModelName>,
    /// Sliding: the number of steps (default: the board's known diameter).
    pub horizon: Option<usize>,
    /// Sliding: the goal convention.
    pub goal: Goal,
    /// Edge: the MILP's options, `filter` and `fix_corner`.
    pub edge: EdgeMilpOptions,
}

/// The solver name as NEOS spells it (`cbc` → `Cbc`, `cplex` → `CPLEX`); other names pass
/// through as given.
pub fn neos_solver_name(s: &str) -> String {
    match s.to_ascii_lowercase().as_str() {
        "cbc" => "Cbc".into(),
        "cplex" => "CPLEX".into(),
        "scip" => "scip".into(),
        "mosek" => "MOSEK".into(),
        "xpress" | "fico-xpress" => "FICO-Xpress".into(),
        "gurobi" => "Gurobi".into(),
        "symphony" => "SYMPHONY".into(),
        _ => s.to_string(),
    }
}

/// Where a job goes and who sends it; the model text and the comments come from the
/// instance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobRequest {
    /// NEOS category, e.g. `milp`.
    pub category: String,
    /// NEOS solver as NEOS spells it (`Cbc`, `CPLEX`, …).
    pub solver: String,
    /// How the model travels: LP, MPS or GAMS.
    pub input: InputMethod,
    /// Queue priority.
    pub priority: Priority,
    /// The submitter's e-mail address.
    pub email: String,
}

/// The instance and the MILP a NEOS job carries.
#[derive(Debug, Clone)]
pub enum NeosInstance {
    /// A sliding board, solved by the `neos` or `flow` MILP at a horizon.
    Sliding {
        /// The board.
        puzzle: SlidingPuzzle,
        /// The goal convention.
        goal: Goal,
        /// The formulation (`neos` or `flow`).
        model: SlidingModel,
        /// Time steps of the model.
        horizon: usize,
    },
    /// An edge-matching puzzle, solved by Salassa et al.'s MILP.
    Edge {
        /// The pieces.
        puzzle: EdgePuzzle,
        /// The MILP's options, `filter` and `fix_corner`.
        options: EdgeMilpOptions,
    },
}

const NOT_A_MILP: &str = "cannot go to NEOS: a NEOS job carries a MILP";

impl NeosInstance {
    /// The MILP job of an instance read through the front door
    /// ([`super::families::read`]), after checking the model flags: the family's MILP
    /// (sliding `neos` or `flow`, edge `milp`), the horizon.
    pub fn of(inst: &Instance, req: &ModelRequest) -> Result<Self, Error> {
        match inst.family.name {
            FamilyName::Sliding => Self::sliding(
                inst.parse(|t, s| SlidingPuzzle::parse(t, s, req.goal))?,
                req.goal,
                req.model,
                req.horizon,
            ),
            FamilyName::Edge => Self::edge(inst.parse(EdgePuzzle::parse)?, req.model, req.edge),
        }
    }

    /// A sliding board's job: `model` `neos` (default) or `flow`, at `horizon` (default: the
    /// board's known diameter).
    pub fn sliding(
        puzzle: SlidingPuzzle,
        goal: Goal,
        model: Option<ModelName>,
        horizon: Option<usize>,
    ) -> Result<Self, Error> {
        let model = match SlidingModel::of(model.unwrap_or(ModelName::Neos))? {
            SlidingModel::Sat => {
                return Err(Error::Usage(format!(
                    "{f_model} sat {NOT_A_MILP}: use neos, or flow with {f_input} lp or mps",
                    f_model = Field::Model,
                    f_input = Field::NeosInput
                )));
            }
            m => m,
        };
        let horizon = sliding::resolve_horizon(&puzzle, horizon)?;
        Ok(NeosInstance::Sliding {
            puzzle,
            goal,
            model,
            horizon,
        })
    }

    /// An edge-matching puzzle's job: `model` `milp` (the default and the only MILP), built
    /// with `options`.
    pub fn edge(
        puzzle: EdgePuzzle,
        model: Option<ModelName>,
        options: EdgeMilpOptions,
    ) -> Result<Self, Error> {
        let m = edge::EdgeModel::of(model.unwrap_or(ModelName::Milp))?;
        if m != edge::EdgeModel::Milp {
            return Err(Error::Usage(format!(
                "{f_model} {} {NOT_A_MILP}: use {f_model} milp for edge-matching puzzles",
                m.name(),
                f_model = Field::Model
            )));
        }
        Ok(NeosInstance::Edge { puzzle, options })
    }

    /// The instance a job-file record describes (what `neos results` decodes against).
    pub fn from_ref(r: &InstanceRef) -> Result<Self, Error> {
        let bad = |what: String| Error::Usage(format!("job file: {what}"));
        match r.family {
            JobFamily::Sliding => {
                let goal = Goal::parse(&r.goal)
                    .ok_or_else(|| bad(format!("unknown goal {:?}", r.goal)))?;
                let puzzle = SlidingPuzzle::parse(&r.board, &r.path, goal)
                    .map_err(|e| bad(e.to_string()))?;
                let model = match r.model.as_str() {
                    "neos" => SlidingModel::Neos,
                    "flow" => SlidingModel::Flow,
                    "tight" => SlidingModel::Tight,
                    other => {
                        return Err(bad(format!(
                            "model {other:?} is not a sliding MILP formulation"
                        )));
                    }
                };
                if r.horizon == 0 {
                    return Err(bad("a sliding job without a horizon".into()));
                }
                Ok(NeosInstance::Sliding {
                    puzzle,
                    goal,
                    model,
                    horizon: r.horizon,
                })
            }
            JobFamily::Edge => {
                if r.model != "milp" {
                    return Err(bad(format!(
                        "model {:?} is not the edge-matching MILP",
                        r.model
                    )));
                }
                let puzzle =
                    EdgePuzzle::parse(&r.board, &r.path).map_err(|e| bad(e.to_string()))?;
                Ok(NeosInstance::Edge {
                    puzzle,
                    options: EdgeMilpOptions {
                        filter_feasible: r.filter,
                        fix_first_corner: r.fix_corner,
                    },
                })
            }
        }
    }

    /// What the job file keeps about the instance (`path` as the user gave it).
    pub fn instance_ref(&self, path: &str) -> InstanceRef {
        match self {
            NeosInstance::Sliding {
                puzzle,
                goal,
                model,
                horizon,
            } => InstanceRef {
                family: JobFamily::Sliding,
                path: path.to_string(),
                board: puzzle.to_text(),
                goal: goal.to_string(),
                horizon: *horizon,
                model: model.name().to_string(),
                filter: false,
                fix_corner: false,
            },
            NeosInstance::Edge { puzzle, options } => InstanceRef {
                family: JobFamily::Edge,
                path: path.to_string(),
                board: puzzle.to_text(),
                goal: String::new(),
                horizon: 0,
                model: "milp".to_string(),
                filter: options.filter_feasible,
                fix_corner: options.fix_first_corner,
            },
        }
    }

    /// The job's `<comments>`.
    fn comments(&self, path: &str) -> String {
        match self {
            NeosInstance::Sliding {
                goal,
                model,
                horizon,
                ..
            } => format!(
                "tilekit: sliding puzzle {path}, model {}, horizon {horizon}, goal {goal}",
                model.name()
            ),
            NeosInstance::Edge { puzzle, options } => format!(
                "tilekit: edge-matching puzzle {path} ({}x{}), model milp {}",
                puzzle.rows(),
                puzzle.cols(),
                options.tag()
            ),
        }
    }

    /// The job settings of this instance's job as `job` says.
    pub fn settings(&self, path: &str, job: &JobRequest) -> JobSettings {
        JobSettings {
            category: job.category.clone(),
            solver: job.solver.clone(),
            input: job.input,
            priority: job.priority,
            email: job.email.clone(),
            comments: self.comments(path),
            instance: Some(self.instance_ref(path)),
        }
    }

    /// For GAMS input, the writer of the algebraic model, with the NEOS solver (as GAMS
    /// names it: lower case) and each run's time limit and threads written in; `None` for
    /// LP and MPS. A formulation without a GAMS template, or an instance the formulation
    /// refuses, is an error here, before anything is sent.
    pub fn algebraic(
        &self,
        input: InputMethod,
        solver: &str,
    ) -> Result<Option<AlgebraicModel>, Error> {
        if input != InputMethod::Gams {
            return Ok(None);
        }
        let solver = solver.to_ascii_lowercase();
        let options = move |limits: &Limits| GamsOptions {
            solver: solver.clone(),
            time_limit: limits.time,
            threads: limits.threads.max(1),
            ..GamsOptions::default()
        };
        // The data is built once, here, so that a refused instance is an error before
        // anything is sent; each run only renders it under its own limits.
        let model = match self {
            NeosInstance::Sliding {
                puzzle,
                goal,
                model,
                horizon,
            } => {
                if *model != SlidingModel::Neos {
                    return Err(Error::Usage(format!(
                        "{f_model} {} has no GAMS writer: use {f_input} mps or lp, or {f_model} neos",
                        model.name(),
                        f_model = Field::Model,
                        f_input = Field::NeosInput
                    )));
                }
                sliding::build_algebraic(puzzle, *goal, *horizon)?
            }
            NeosInstance::Edge { puzzle, options: o } => edge::build_algebraic(puzzle, *o)?,
        };
        let write: AlgebraicModel = Box::new(move |limits: &Limits| {
            let mut buf = Vec::new();
            gams::write_gms(&model, &options(limits), &mut buf).map_err(|e| e.to_string())?;
            String::from_utf8(buf).map_err(|e| e.to_string())
        });
        Ok(Some(write))
    }

    /// Build the scalar MILP (what LP and MPS jobs carry) and hand it to `f`.
    pub fn with_model<T>(&self, f: impl FnOnce(&Model) -> T) -> Result<T, Error> {
        Ok(match self {
            NeosInstance::Sliding {
                puzzle,
                goal,
                model,
                horizon,
            } => f(sliding::build_milp(puzzle, *goal, *model, *horizon)?.model()),
            NeosInstance::Edge { puzzle, options } => f(&edge::build_milp(puzzle, *options)?.model),
        })
    }

    /// Solve with any MILP solver object through the family's MILP route, exactly as
    /// a local solve does; with a [`NeosMilp`], the job goes to NEOS.
    pub fn solve(
        &self,
        solver: &dyn MilpSolver,
        limits: &Limits,
        progress: Progress<'_>,
    ) -> Result<Report, Error> {
        match self {
            NeosInstance::Sliding {
                puzzle,
                goal,
                model,
                horizon,
            } => {
                let started = std::time::Instant::now();
                let mut rep = sliding::solve_milp_with(
                    puzzle, *goal, *model, *horizon, solver, limits, progress,
                )?;
                let left = limits.time.saturating_sub(started.elapsed());
                sliding::settle_claims(&mut rep, puzzle, *goal, left);
                Ok(rep)
            }
            NeosInstance::Edge { puzzle, options } => {
                edge::solve_milp_with(puzzle, *options, solver, limits, progress)
            }
        }
    }

    /// The verified solution of `rep` as `solve -o` writes it (the plan, or the board with
    /// its colours), if `rep` has one.
    pub fn solution_text(&self, rep: &Report) -> Option<String> {
        match self {
            NeosInstance::Sliding { .. } => rep.plan().map(sliding::plan_text),
            NeosInstance::Edge { puzzle, .. } => {
                rep.board().map(|b| b.to_text_with_colours(puzzle))
            }
        }
    }

    /// Judge an answer that came back some other way (a job fetched later), as the MILP
    /// route judges one: decoded, checked against every row, replayed by the checker.
    pub fn judge(&self, solver: &str, sol: &MilpSolution) -> Result<Report, Error> {
        match self {
            NeosInstance::Sliding {
                puzzle,
                goal,
                model,
                horizon,
            } => {
                // A job fetched later has no time left of its own: the check gets its budget.
                let mut rep = sliding::judge_milp(puzzle, *goal, *model, *horizon, solver, sol)?;
                sliding::settle_claims(&mut rep, puzzle, *goal, sliding::PROOF_BUDGET);
                Ok(rep)
            }
            NeosInstance::Edge { puzzle, options } => {
                edge::judge_milp(puzzle, *options, solver, sol)
            }
        }
    }
}

/// The job document of `inst` (read from `path`), as an export in the `neos` format and a
/// dry run of `neos submit` print it; `limits` are written into a GAMS model.
pub fn job_text(
    inst: &NeosInstance,
    path: &str,
    job: &JobRequest,
    limits: &Limits,
) -> Result<String, Error> {
    let settings = inst.settings(path, job);
    let algebraic = inst.algebraic(job.input, &job.solver)?;
    let (_, xml) =
        inst.with_model(|m| job_document(&settings, m, algebraic.as_ref(), limits))??;
    Ok(xml)
}

/// The remote executor for `inst`'s jobs: sent through `client`, recorded in the job file at
/// `job_file` (with the instance, for `neos results`). It waits as [`NeosMilp::new`] says
/// until given [`NeosMilp::with_wait`].
pub fn executor<'p>(
    inst: &NeosInstance,
    path: &str,
    job: &JobRequest,
    client: Client,
    job_file: PathBuf,
) -> Result<NeosMilp<'p>, Error> {
    let neos = NeosMilp::new(client, job_file, inst.settings(path, job));
    Ok(match inst.algebraic(job.input, &job.solver)? {
        Some(write) => neos.with_algebraic(write),
        None => neos,
    })
}

/// Submit `inst`'s job through `neos` without waiting (`neos submit`): the job file records
/// it for `neos status`, `neos results`.
pub fn submit(
    inst: &NeosInstance,
    neos: &NeosMilp<'_>,
    limits: &Limits,
) -> Result<JobRecord, Error> {
    Ok(inst.with_model(|m| neos.submit(m, limits))??)
}

/// Decode and verify a finished job's output against the instance its record keeps, exactly
/// as a local solve by the MILP route does (`neos results`).
pub fn judge_results(rec: &JobRecord, output: &str, started: Instant) -> Result<Report, Error> {
    let inst_ref = rec.instance.as_ref().ok_or_else(|| {
        Error::Usage(format!(
            "job {}: the job file does not say which instance it was built from: fetch it with {f_raw}",
            rec.number, f_raw = Field::Raw
        ))
    })?;
    let inst = NeosInstance::from_ref(inst_ref)?;
    let sol = parse_results(output, rec.input, rec.number)?;
    let mut rep = inst.judge(&rec.solver_label(), &sol).map_err(|e| {
        Error::Neos(NeosError::Results {
            job: rec.number,
            detail: format!("cannot rebuild the model: {e}"),
        })
    })?;
    rep.seconds = started.elapsed().as_secs_f64();
    Ok(rep)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::neos::client::ClientOptions;
    use crate::neos::jobs::WaitOptions;
    use std::time::Duration;

    const META4: &str = "4 4\n0 0 1 1\n0 0 1 2\n0 0 2 1\n0 0 2 2\n0 1 3 2\n0 1 4 2\n0 1 5 1\n\
                         0 1 5 2\n0 2 3 1\n0 2 4 1\n0 2 4 2\n0 2 5 1\n3 3 4 4\n3 3 4 5\n3 4 5 4\n\
                         3 5 5 5\n";
    const CASE: &str = "5 1 2 3\n9 6 7 4\n13 10 11 8\n14 15 0 12\n";

    /// An instance of `family` as the front door would hand it over.
    fn inst(text: &str, family: &'static super::super::family::Family) -> Instance {
        Instance {
            path: PathBuf::from("i.txt"),
            text: text.into(),
            family,
            detected: None,
            resembles: Vec::new(),
        }
    }

    fn req() -> ModelRequest {
        ModelRequest {
            model: None,
            horizon: None,
            goal: Goal::BlankLast,
            edge: EdgeMilpOptions::default(),
        }
    }

    fn job(input: InputMethod) -> JobRequest {
        JobRequest {
            category: "milp".into(),
            solver: "Cbc".into(),
            input,
            priority: Priority::Short,
            email: "tester@example.org".into(),
        }
    }

    fn limits() -> Limits {
        Limits::new(Duration::from_secs(77), 1)
    }

    #[test]
    fn the_model_flags_are_checked_per_family() {
        let edge_path = inst(META4, &super::super::edge::FAMILY);
        let case = inst(CASE, &super::super::sliding::FAMILY);
        let opts = EdgeMilpOptions {
            filter_feasible: true,
            fix_first_corner: false,
        };
        let e = NeosInstance::of(
            &edge_path,
            &ModelRequest {
                edge: opts,
                ..req()
            },
        )
        .unwrap();
        assert!(matches!(e, NeosInstance::Edge { options, .. } if options == opts));
        let s = NeosInstance::of(
            &case,
            &ModelRequest {
                horizon: Some(13),
                ..req()
            },
        )
        .unwrap();
        assert!(matches!(
            s,
            NeosInstance::Sliding {
                model: SlidingModel::Neos,
                horizon: 13,
                ..
            }
        ));
        let err = |i: &Instance, r: ModelRequest| NeosInstance::of(i, &r).unwrap_err().to_string();
        assert_eq!(
            err(
                &edge_path,
                ModelRequest {
                    model: Some(ModelName::Sat),
                    ..req()
                }
            ),
            "`model` sat cannot go to NEOS: a NEOS job carries a MILP: use `model` milp for edge-matching puzzles"
        );
        assert_eq!(
            err(
                &edge_path,
                ModelRequest {
                    model: Some(ModelName::Neos),
                    ..req()
                }
            ),
            "`model` neos is not known for edge-matching puzzles: use milp, clique, sat or maxsat"
        );
        assert_eq!(
            err(
                &case,
                ModelRequest {
                    model: Some(ModelName::Sat),
                    ..req()
                }
            ),
            "`model` sat cannot go to NEOS: a NEOS job carries a MILP: use neos, or flow with `neos.input` lp or mps"
        );
        // The family given overrides detection: the case study is no edge instance.
        let e = NeosInstance::of(&inst(CASE, &super::super::edge::FAMILY), &req());
        assert!(e.is_err());
        // The flow model has no GAMS template.
        let flow = NeosInstance::of(
            &case,
            &ModelRequest {
                model: Some(ModelName::Flow),
                horizon: Some(13),
                ..req()
            },
        )
        .unwrap();
        assert_eq!(
            flow.algebraic(InputMethod::Gams, "Cbc")
                .err()
                .unwrap()
                .to_string(),
            "`model` flow has no GAMS writer: use `neos.input` mps or lp, or `model` neos"
        );
        assert!(flow.algebraic(InputMethod::Mps, "Cbc").unwrap().is_none());
    }

    #[test]
    fn edge_jobs_round_trip_through_the_job_file() {
        let p = EdgePuzzle::parse(META4, "meta4").unwrap();
        let options = EdgeMilpOptions {
            filter_feasible: false,
            fix_first_corner: true,
        };
        let inst = NeosInstance::edge(p.clone(), None, options).unwrap();
        let r = inst.instance_ref("models/p.txt");
        assert_eq!(
            (r.family, r.model.as_str(), r.fix_corner),
            (JobFamily::Edge, "milp", true)
        );
        // Through JSON, as the job file keeps it: no sliding fields for an edge job.
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(json["family"], "edge");
        assert!(json.get("goal").is_none() && json.get("horizon").is_none());
        assert!(json.get("filter").is_none(), "false options are left out");
        let back: InstanceRef = serde_json::from_value(json).unwrap();
        assert_eq!(back, r);
        match NeosInstance::from_ref(&back).unwrap() {
            NeosInstance::Edge { puzzle, options: o } => {
                assert_eq!(puzzle, p);
                assert_eq!(o, options);
            }
            other => panic!("not an edge instance: {other:?}"),
        }
        // A record that names another model is refused, not guessed.
        let mut wrong = r.clone();
        wrong.model = "clique".into();
        assert!(
            NeosInstance::from_ref(&wrong)
                .unwrap_err()
                .to_string()
                .starts_with("job file: ")
        );
    }

    #[test]
    fn old_sliding_records_still_decode() {
        // A record written before edge jobs existed: no family, no edge options.
        let old = r#"{"path":"case.txt","board":"4 4\n5 1 2 3\n9 6 7 4\n13 10 11 8\n14 15 0 12\n","goal":"blank-last","horizon":13,"model":"neos"}"#;
        let r: InstanceRef = serde_json::from_str(old).unwrap();
        assert_eq!(r.family, JobFamily::Sliding);
        match NeosInstance::from_ref(&r).unwrap() {
            NeosInstance::Sliding { horizon, model, .. } => {
                assert_eq!((horizon, model), (13, SlidingModel::Neos));
            }
            other => panic!("not a sliding instance: {other:?}"),
        }
        // And a sliding record keeps its fields when written again.
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(json["goal"], "blank-last");
        assert_eq!(json["horizon"], 13);
        assert_eq!(json["family"], "sliding");
    }

    #[test]
    fn edge_job_documents_carry_the_edge_milp_in_every_input_method() {
        let p = EdgePuzzle::parse(META4, "meta4").unwrap();
        let inst = NeosInstance::edge(p, None, EdgeMilpOptions::default()).unwrap();
        let lp = job_text(&inst, "p.txt", &job(InputMethod::Lp), &limits()).unwrap();
        assert!(lp.contains("x_t1_r0_c0_a0"), "{lp}");
        assert!(lp.contains("<comments><![CDATA[tilekit: edge-matching puzzle p.txt (4x4), model milp faithful]]>"), "{lp}");
        let mps = job_text(&inst, "p.txt", &job(InputMethod::Mps), &limits()).unwrap();
        assert!(mps.contains("\nROWS"), "{mps}");
        let mut g = job(InputMethod::Gams);
        g.solver = "CPLEX".into();
        let gms = job_text(&inst, "p.txt", &g, &limits()).unwrap();
        assert!(
            gms.contains("option mip = cplex, optcr = 0, reslim = 77, threads = 1;"),
            "{gms}"
        );
        assert!(gms.contains("tilekit-solution: begin"), "{gms}");
        assert!(gms.contains("<inputMethod>GAMS</inputMethod>"), "{gms}");
    }

    #[test]
    fn judging_a_job_needs_its_instance_and_readable_output() {
        let p = EdgePuzzle::parse(META4, "meta4").unwrap();
        let inst = NeosInstance::edge(p, None, EdgeMilpOptions::default()).unwrap();
        let mut rec = JobRecord {
            number: 7,
            password: "pw".into(),
            server: "http://127.0.0.1:1".into(),
            category: "milp".into(),
            solver: "Cbc".into(),
            input: InputMethod::Gams,
            submitted: 0,
            instance: None,
        };
        let e = judge_results(&rec, "", Instant::now()).unwrap_err();
        assert_eq!(e.exit_code(), 2, "{e}");
        rec.instance = Some(inst.instance_ref("p.txt"));
        let e = judge_results(&rec, "no marker here", Instant::now()).unwrap_err();
        assert!(e.to_string().starts_with("job 7: no complete"), "{e}");
        // A claimed perfect board that is not one: judged unverified, never solved.
        let out = "tilekit-solution: begin\ntilekit-solution: modelstat 1\n\
                   tilekit-solution: solvestat 1\ntilekit-solution: objective 0\n\
                   tilekit-solution: x_t1_r0_c0_a0 1\ntilekit-solution: end\n";
        let rep = judge_results(&rec, out, Instant::now()).unwrap();
        assert_eq!(rep.status, "unverified");
        assert!(!rep.verified && !rep.errors.is_empty());
        assert_eq!(rep.solver, "neos:milp:Cbc:GAMS");
    }

    #[test]
    fn an_unreachable_server_keeps_its_neos_error_through_the_route() {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let client = Client::new(
            &format!("http://127.0.0.1:{port}"),
            ClientOptions {
                timeout: Duration::from_secs(2),
                retries: 0,
                backoff: Duration::ZERO,
                credentials: None,
            },
        )
        .unwrap();
        let dir = tempfile::tempdir().unwrap();
        let p = EdgePuzzle::parse(META4, "meta4").unwrap();
        let inst = NeosInstance::edge(p, None, EdgeMilpOptions::default()).unwrap();
        let wait = WaitOptions {
            max_wait: Duration::from_secs(5),
            poll: Duration::from_millis(100),
            follow: false,
        };
        let neos = executor(
            &inst,
            "p.txt",
            &job(InputMethod::Mps),
            client,
            dir.path().join("j.json"),
        )
        .unwrap()
        .with_wait(wait);
        let e = inst
            .solve(&neos, &limits(), &super::super::quiet)
            .unwrap_err();
        assert!(matches!(e, Error::Neos(NeosError::Connect { .. })), "{e:?}");
        assert_eq!(e.exit_code(), 3);
    }
}
