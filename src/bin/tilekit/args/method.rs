//! `tilekit solve`'s flags turned into the library's typed method, once the instance's
//! family is known. This is where a flag that has no place in the method is refused, in the
//! flags' own words: the library's method types cannot hold it.

use super::solve::SolveArgs;
use std::time::Duration;
use tilekit::Error;
use tilekit::field::Field;
use tilekit::formulate::edge_milp::EdgeMilpOptions;
use tilekit::route::astar::AstarMethod;
use tilekit::route::edge_heuristic::HeuristicChoice;
use tilekit::route::method::{
    Certificate, EdgeMethod, ExactMethod, ExactModel, HeuristicMethod, Method, MilpMethod,
    MilpModel, MoveFile, NativeMethod, SatMethod, SlidingMethod,
};
use tilekit::route::params::Settings;
use tilekit::route::sliding::Incumbent;
use tilekit::route::{FamilyName, ModelName, Route};
use tilekit::solve::registry::{Registry, SolverKind};

/// The first of `given` that is on, as an error made by `why`.
fn refuse(given: &[(bool, Field)], why: impl Fn(Field) -> String) -> Result<(), Error> {
    match given.iter().find(|(on, _)| *on) {
        Some((_, f)) => Err(Error::Usage(why(*f))),
        None => Ok(()),
    }
}

/// Refuse the first of `given` that is on: an option of the other family, which `family`'s
/// instances have no place for.
pub(crate) fn refuse_for(family: FamilyName, given: &[(bool, Field)]) -> Result<(), Error> {
    let noun = tilekit::route::families::family(family).noun;
    refuse(given, |f| {
        format!("{f} does not apply to {noun}: leave it out")
    })
}

impl SolveArgs {
    /// The method for an instance of `family`, with the research parameters `settings`.
    /// `time` is the solve's time limit, which a DRAT check gets too.
    pub(crate) fn method(
        &self,
        family: FamilyName,
        settings: &Settings,
        time: Duration,
    ) -> Result<Method, Error> {
        match family {
            FamilyName::Sliding => self.sliding_method(time),
            FamilyName::Edge => self.edge_method(settings),
        }
    }

    /// The edge-matching flags, as (given, field).
    fn edge_flags(&self) -> [(bool, Field); 8] {
        [
            (self.common.filter, Field::Filter),
            (self.common.fix_corner, Field::FixCorner),
            (self.construct.is_some(), Field::Construct),
            (self.improve.is_some(), Field::Improve),
            (self.start.is_some(), Field::Start),
            (self.seed.is_some(), Field::Seed),
            (!self.fix.is_empty(), Field::Fix),
            (self.no_fix, Field::NoFix),
        ]
    }

    /// The best-first flags, as (given, field).
    fn astar_flags(&self) -> [(bool, Field); 4] {
        [
            (self.heuristic.is_some(), Field::Heuristic),
            (self.research.weights.is_some(), Field::Weights),
            (self.weight.is_some(), Field::Weight),
            (self.suboptimality.is_some(), Field::Suboptimality),
        ]
    }

    fn certify_options(&self, time: Duration) -> tilekit::certify::CertifyOptions {
        tilekit::certify::CertifyOptions {
            checker: self.research.checker.clone(),
            checker_time_limit: time,
            proof_dir: self.proof_dir.clone(),
            split: 0,
            jobs: 2,
            direction: None,
            race: false,
        }
    }

    fn sliding_method(&self, time: Duration) -> Result<Method, Error> {
        refuse_for(FamilyName::Sliding, &self.edge_flags())?;
        let certify_or_encoding = self.certify || self.encoding.is_some();
        let route = self.via.unwrap_or(if certify_or_encoding {
            Route::Sat
        } else {
            Route::Native
        });
        let via = Field::Via;
        let name = route.name();
        if matches!(route, Route::Clique | Route::Maxsat | Route::Heuristic) {
            return Err(Error::Usage(format!(
                "{via} {name} is not available for sliding puzzles: use native, astar, milp or sat"
            )));
        }
        if self.plan.is_some() && route == Route::Milp {
            return Err(Error::Usage(format!(
                "{} gives the plan to certify ({via} sat); the MILP route starts from a plan with {}",
                Field::Plan,
                Field::Incumbent
            )));
        }
        if route != Route::Milp {
            refuse(&[(self.research.step, Field::Step)], |f| {
                format!(
                    "{f} steps the MILP route's horizon: it goes with {via} milp, not {via} {name}"
                )
            })?;
            refuse(&[(self.incumbent.is_some(), Field::Incumbent)], |f| {
                format!(
                    "{f} starts the MILP route from a plan: it goes with {via} milp, not {via} {name}"
                )
            })?;
        }
        if route != Route::Astar {
            refuse(&self.astar_flags(), |f| {
                format!("{f} belongs to {via} astar, not {via} {name}")
            })?;
        }
        if route != Route::Native {
            refuse(&[(self.pdb.is_some(), Field::Pdb)], |f| {
                format!(
                    "{f} picks the native search's pattern databases: it goes with {via} native, not {via} {name}"
                )
            })?;
        }
        let horizon = self.common.horizon;
        let model = self.model;
        Ok(Method::Sliding {
            goal: self.common.goal.map(Into::into).unwrap_or_default(),
            method: match route {
                Route::Astar => {
                    let takes_no = [
                        (horizon.is_some(), Field::Horizon.to_string()),
                        (self.solver.is_some(), Field::Solver.to_string()),
                        (model.is_some(), Field::Model.to_string()),
                        (
                            certify_or_encoding,
                            format!("{} and {}", Field::Certify, Field::Encoding),
                        ),
                    ];
                    if let Some((_, f)) = takes_no.iter().find(|(on, _)| *on) {
                        return Err(Error::Usage(format!(
                            "{via} astar is tilekit's own best-first search and takes no {f}"
                        )));
                    }
                    SlidingMethod::Astar(AstarMethod {
                        heuristic: self.heuristic.map(Into::into),
                        weights: self.research.weights.clone(),
                        weight: self.weight,
                        suboptimality: self.suboptimality,
                        batch: None,
                        max_states: None,
                    })
                }
                Route::Native => {
                    if self.encoding.is_some() && !self.certify {
                        return Err(certify_belongs(name));
                    }
                    if horizon.is_some() {
                        return Err(Error::Usage(format!(
                            "{via} native finds the optimal length itself and takes no {}",
                            Field::Horizon
                        )));
                    }
                    if self.solver.is_some() && !self.certify {
                        return Err(Error::Usage(format!(
                            "{via} native is tilekit's own search and takes no {f_solver} (with {f_certify}, {f_solver} names the SAT solver of the proof)",
                            f_solver = Field::Solver,
                            f_certify = Field::Certify
                        )));
                    }
                    if self.plan.is_some() {
                        return Err(Error::Usage(format!(
                            "{} gives the plan to certify, so it goes with {via} sat, not {via} native",
                            Field::Plan
                        )));
                    }
                    if let Some(m) = model {
                        return Err(Error::Usage(format!(
                            "{via} native searches the puzzle itself and takes no {} (got {})",
                            Field::Model,
                            m.name()
                        )));
                    }
                    SlidingMethod::Native(NativeMethod {
                        pdb: self.pdb.clone(),
                        certificate: self.certify.then(|| Certificate {
                            solver: self.solver.clone(),
                            encoding: self.encoding.map(Into::into),
                            options: self.certify_options(time),
                        }),
                    })
                }
                Route::Milp => {
                    if certify_or_encoding {
                        return Err(certify_belongs(name));
                    }
                    let model = match model.map(milp_model).transpose()? {
                        Some(Some(m)) => Some(m),
                        Some(None) => {
                            return Err(Error::Usage(format!(
                                "{via} milp solves {} neos, flow or tight, not sat",
                                Field::Model
                            )));
                        }
                        None => None,
                    };
                    SlidingMethod::Milp(MilpMethod {
                        model,
                        solver: self.solver.clone(),
                        horizon,
                        incumbent: self.incumbent.as_deref().map(Incumbent::parse),
                        step: self.research.step.then_some(true),
                    })
                }
                _ => {
                    if let Some(m) = model
                        && milp_model(m)?.is_some()
                    {
                        return Err(Error::Usage(format!(
                            "{via} {name} solves {} sat, not {}",
                            Field::Model,
                            m.name()
                        )));
                    }
                    // The plan file is read last: a refused combination reads nothing.
                    let plan = match &self.plan {
                        Some(path) => Some(MoveFile::read(path, "plan")?),
                        None => None,
                    };
                    SlidingMethod::Sat(SatMethod {
                        solver: self.solver.clone(),
                        horizon,
                        encoding: self.encoding.map(Into::into),
                        certify: self.certify.then(|| self.certify_options(time)),
                        plan,
                    })
                }
            },
        })
    }

    fn edge_method(&self, settings: &Settings) -> Result<Method, Error> {
        let sliding_flags = [
            (self.common.goal.is_some(), Field::Goal),
            (self.common.horizon.is_some(), Field::Horizon),
            (self.encoding.is_some(), Field::Encoding),
            (self.certify, Field::Certify),
            (self.incumbent.is_some(), Field::Incumbent),
            (self.research.step, Field::Step),
            (self.pdb.is_some(), Field::Pdb),
        ];
        refuse_for(FamilyName::Edge, &sliding_flags)?;
        refuse_for(FamilyName::Edge, &self.astar_flags())?;
        let via = Field::Via;
        let choice = HeuristicChoice {
            construct: self.construct,
            improve: self.improve,
            start: self.start.clone(),
            seed: self.seed,
            fixes: self.fix.clone(),
            starter: self.no_fix.then_some(false),
        };
        let heuristic_given = choice != HeuristicChoice::default() || !settings.is_empty();
        let route = match (self.via, self.model, &self.solver) {
            (Some(r), _, _) => r,
            // A model names its route, and so does a solver of one kind of model.
            (None, Some(m), _) => edge_model(m)?.route(),
            (None, None, Some(name)) => {
                let reg = Registry::load(self.solvers_file.as_deref())?;
                match reg.kind_of(name) {
                    Some(SolverKind::Milp) if !heuristic_given => Route::Milp,
                    Some(SolverKind::Milp) => Route::Heuristic,
                    Some(SolverKind::Sat) => Route::Sat,
                    Some(SolverKind::Maxsat) => Route::Maxsat,
                    // A name the registry lacks: the clique route says so, by name.
                    _ => Route::Clique,
                }
            }
            (None, None, None) if heuristic_given => Route::Heuristic,
            (None, None, None) if self.common.filter || self.common.fix_corner => Route::Milp,
            (None, None, None) => return Ok(Method::Edge(EdgeMethod::Auto)),
        };
        let name = route.name();
        if matches!(route, Route::Native | Route::Astar) {
            return Err(Error::Usage(format!(
                "{via} {name} is not available for edge-matching puzzles: use milp, clique, sat, maxsat or heuristic"
            )));
        }
        if route == Route::Heuristic {
            if let Some(m) = self.model {
                return Err(Error::Usage(format!(
                    "{} {} does not apply to {via} heuristic: its regions are MILPs of their own",
                    Field::Model,
                    m.name()
                )));
            }
            refuse(
                &[
                    (self.common.filter, Field::Filter),
                    (self.common.fix_corner, Field::FixCorner),
                ],
                |f| {
                    format!(
                        "{f} does not apply to {via} heuristic: it is an option of the exact models"
                    )
                },
            )?;
            return Ok(Method::Edge(EdgeMethod::Heuristic(HeuristicMethod {
                choice,
                solver: self.solver.clone(),
            })));
        }
        refuse(&self.edge_flags()[2..], |f| {
            format!("{f} belongs to {via} heuristic")
        })?;
        if let Some(m) = self.model {
            let model = edge_model(m)?;
            if model.route() != route {
                return Err(Error::Usage(format!(
                    "{via} {name} solves {} {name}, not {}",
                    Field::Model,
                    model.name()
                )));
            }
        }
        let options = EdgeMilpOptions {
            filter_feasible: self.common.filter,
            fix_first_corner: self.common.fix_corner,
        };
        let model = match route {
            Route::Milp => ExactModel::Milp(options),
            Route::Sat => ExactModel::Sat(options),
            Route::Maxsat => ExactModel::Maxsat(options),
            _ => {
                refuse(&self.edge_flags()[..2], |f| {
                    format!(
                        "{f} is an option of the MILP, SAT and MaxSAT models, not of {via} clique"
                    )
                })?;
                ExactModel::Clique
            }
        };
        Ok(Method::Edge(EdgeMethod::Exact(ExactMethod {
            model,
            solver: self.solver.clone(),
        })))
    }
}

fn certify_belongs(route: &str) -> Error {
    Error::Usage(format!(
        "{f_certify} and {f_encoding} belong to {f_via} sat (or {f_via} native {f_certify}), not {f_via} {route}",
        f_certify = Field::Certify,
        f_encoding = Field::Encoding,
        f_via = Field::Via
    ))
}

/// The sliding MILP model `m` names: `Some(None)` for the SAT model, an error for another
/// family's.
fn milp_model(m: ModelName) -> Result<Option<MilpModel>, Error> {
    Ok(tilekit::route::sliding::SlidingModel::of(m)?.milp())
}

fn edge_model(m: ModelName) -> Result<tilekit::route::edge::EdgeModel, Error> {
    tilekit::route::edge::EdgeModel::of(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::{Cli, Cmd};
    use clap::Parser;

    /// `tilekit solve x.txt ARGS…` for an instance of `family`: the method, or the message.
    fn method(family: FamilyName, args: &[&str]) -> Result<Method, String> {
        tilekit::field::name_fields_by(crate::args::flags::flag);
        let argv = ["tilekit", "solve", "x.txt"].iter().chain(args);
        let Cmd::Solve(a) = Cli::try_parse_from(argv).map_err(|e| e.to_string())?.cmd else {
            unreachable!("a solve command")
        };
        let settings = a.settings().map_err(|e| e.to_string())?;
        a.method(family, &settings, Duration::from_secs(10))
            .map_err(|e| e.to_string())
    }

    fn sliding(args: &[&str]) -> Result<SlidingMethod, String> {
        match method(FamilyName::Sliding, args)? {
            Method::Sliding { method, .. } => Ok(method),
            other => panic!("{other:?}"),
        }
    }

    fn edge(args: &[&str]) -> Result<EdgeMethod, String> {
        match method(FamilyName::Edge, args)? {
            Method::Edge(m) => Ok(m),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn sliding_routes_default_and_imply() {
        assert_eq!(sliding(&[]).unwrap(), SlidingMethod::default());
        assert_eq!(
            sliding(&["--encoding", "strong"]).unwrap().route(),
            Route::Sat
        );
        assert_eq!(sliding(&["--certify"]).unwrap().route(), Route::Sat);
        match sliding(&["--via", "native", "--certify", "--solver", "cadical"]).unwrap() {
            SlidingMethod::Native(NativeMethod {
                certificate: Some(c),
                ..
            }) => assert_eq!(c.solver.as_deref(), Some("cadical")),
            other => panic!("{other:?}"),
        }
        match sliding(&["--via", "milp", "--model", "flow", "--incumbent", "astar"]).unwrap() {
            SlidingMethod::Milp(m) => {
                assert_eq!(m.model, Some(MilpModel::Flow));
                assert_eq!(m.incumbent, Some(Incumbent::Astar));
                assert_eq!(m.step, None, "the plan decides");
            }
            other => panic!("{other:?}"),
        }
        match sliding(&["--via", "astar", "--weight", "1.5"]).unwrap() {
            SlidingMethod::Astar(a) => assert_eq!(a.weight, Some(1.5)),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn sliding_flags_belong_to_their_route() {
        let err = |args: &[&str]| sliding(args).unwrap_err();
        assert_eq!(
            err(&["--weight", "1.2"]),
            "--weight belongs to --via astar, not --via native"
        );
        assert_eq!(
            err(&["--via", "astar", "--horizon", "20"]),
            "--via astar is tilekit's own best-first search and takes no --horizon"
        );
        assert_eq!(
            err(&["--via", "milp", "--certify"]),
            "--certify and --encoding belong to --via sat (or --via native --certify), not --via milp"
        );
        assert_eq!(
            err(&["--via", "native", "--certify", "--plan", "p.txt"]),
            "--plan gives the plan to certify, so it goes with --via sat, not --via native"
        );
        assert_eq!(
            err(&["--via", "milp", "--certify", "--plan", "p.txt"]),
            "--plan gives the plan to certify (--via sat); the MILP route starts from a plan with --incumbent"
        );
        for via in ["native", "sat", "astar"] {
            assert_eq!(
                err(&["--via", via, "--step"]),
                format!(
                    "--step steps the MILP route's horizon: it goes with --via milp, not --via {via}"
                )
            );
            assert_eq!(
                err(&["--via", via, "--incumbent", "native"]),
                format!(
                    "--incumbent starts the MILP route from a plan: it goes with --via milp, not --via {via}"
                )
            );
        }
        assert_eq!(
            err(&["--via", "sat", "--pdb", "6-6-3"]),
            "--pdb picks the native search's pattern databases: it goes with --via native, not --via sat"
        );
        assert_eq!(
            err(&["--via", "milp", "--model", "sat"]),
            "--via milp solves --model neos, flow or tight, not sat"
        );
        assert_eq!(
            err(&["--via", "native", "--model", "flow"]),
            "--via native searches the puzzle itself and takes no --model (got flow)"
        );
        assert_eq!(
            err(&["--via", "sat", "--model", "neos"]),
            "--via sat solves --model sat, not neos"
        );
        assert_eq!(
            err(&["--via", "milp", "--model", "clique"]),
            "--model clique is not known for sliding puzzles: use neos, flow, tight or sat"
        );
        assert_eq!(
            err(&["--via", "heuristic"]),
            "--via heuristic is not available for sliding puzzles: use native, astar, milp or sat"
        );
        assert_eq!(
            err(&["--seed", "3"]),
            "--seed does not apply to sliding-tile puzzles: leave it out"
        );
        assert_eq!(
            err(&["--encoding", "pdb", "--via", "native"]),
            "--certify and --encoding belong to --via sat (or --via native --certify), not --via native"
        );
    }

    #[test]
    fn edge_routes_follow_the_model_the_solver_and_the_choices() {
        assert_eq!(edge(&[]).unwrap(), EdgeMethod::Auto);
        let exact = |args: &[&str]| match edge(args).unwrap() {
            EdgeMethod::Exact(e) => e,
            other => panic!("{other:?}"),
        };
        assert_eq!(exact(&["--model", "sat"]).model.route(), Route::Sat);
        assert_eq!(exact(&["--solver", "rc2"]).model.route(), Route::Maxsat);
        assert_eq!(exact(&["--solver", "mcq"]).model, ExactModel::Clique);
        assert_eq!(
            exact(&["--filter"]).model,
            ExactModel::Milp(EdgeMilpOptions {
                filter_feasible: true,
                fix_first_corner: false
            })
        );
        let heuristic = |args: &[&str]| match edge(args).unwrap() {
            EdgeMethod::Heuristic(h) => h,
            other => panic!("{other:?}"),
        };
        assert_eq!(heuristic(&["--seed", "4"]).choice.seed, Some(4));
        assert_eq!(
            heuristic(&["--set", "beam.width=64"]).choice,
            HeuristicChoice::default()
        );
        // A MILP solver with heuristic choices is the regions' solver.
        assert_eq!(
            heuristic(&["--solver", "microlp", "--construct", "greedy"])
                .solver
                .as_deref(),
            Some("microlp")
        );
    }

    #[test]
    fn edge_flags_belong_to_their_route() {
        let err = |args: &[&str]| edge(args).unwrap_err();
        assert_eq!(
            err(&["--via", "sat", "--model", "milp"]),
            "--via sat solves --model sat, not milp"
        );
        assert_eq!(
            err(&["--via", "native"]),
            "--via native is not available for edge-matching puzzles: use milp, clique, sat, maxsat or heuristic"
        );
        assert_eq!(
            err(&["--via", "milp", "--construct", "greedy"]),
            "--construct belongs to --via heuristic"
        );
        assert_eq!(
            err(&["--via", "heuristic", "--model", "milp"]),
            "--model milp does not apply to --via heuristic: its regions are MILPs of their own"
        );
        assert_eq!(
            err(&["--via", "heuristic", "--filter"]),
            "--filter does not apply to --via heuristic: it is an option of the exact models"
        );
        // The clique graph has no model options: a filter there would be silently ignored.
        assert_eq!(
            err(&["--via", "clique", "--fix-corner"]),
            "--fix-corner is an option of the MILP, SAT and MaxSAT models, not of --via clique"
        );
        assert_eq!(
            err(&["--via", "sat", "--encoding", "strong"]),
            "--encoding does not apply to edge-matching puzzles: leave it out"
        );
        assert_eq!(
            err(&["--weight", "2"]),
            "--weight does not apply to edge-matching puzzles: leave it out"
        );
        assert_eq!(
            err(&["--model", "neos"]),
            "--model neos is not known for edge-matching puzzles: use milp, clique, sat or maxsat"
        );
    }
}
