//! Solving a model file with an external solver from the registry: expand the arguments, run
//! the process, judge its exit code the way that solver means it, read and parse its answer.
//!
//! A time limit is an answer, not a failure: it gives [`Outcome::TimeLimit`] (or
//! [`SatOutcome::Unknown`]) unless the solver left a solution file with an incumbent. Every
//! other failure is a [`SolveError`] naming the solver and quoting the end of its output.

use crate::error::InputError;
use crate::format::solution;
use crate::model::answer::{ColumnValues, MilpSolution, Outcome, SatOutcome};
use crate::solve::SolveError;
use crate::solve::external::{self, RunOutput, RunSpec, StopFlag};
use crate::solve::registry::{Placeholders, SolutionFormat, SolverEntry, SolverKind};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How many lines of solver output an error message quotes.
const TAIL_LINES: usize = 3;

/// The wall-clock limit for the process: the solver's own limit (rounded up, as GLPK and the
/// SAT solvers take whole seconds) plus a grace period to stop and write its incumbent:
/// solvers check their clocks only now and then (CBC between nodes), later on a busy machine.
pub fn kill_limit(time_limit: Duration) -> Duration {
    let whole = Duration::from_secs(time_limit.as_secs_f64().ceil().max(1.0) as u64);
    whole + Duration::from_secs(2) + whole / 10
}

/// A note for the user when a run succeeded with a warning (HiGHS exit code 1), else `None`.
pub fn exit_warning(entry: &SolverEntry, run: &RunOutput) -> Option<String> {
    (entry.solution == SolutionFormat::Highs && run.status == Some(1) && !run.timed_out).then(
        || {
            format!(
                "solver '{}' exited with code 1, which HiGHS uses for a warning: {}",
                entry.name,
                tail(run)
            )
        },
    )
}

/// Solve the MILP in `model_path` with `entry`, working in `workdir` (the solution file goes
/// there, named after the model and the solver; a stale one is removed first).
pub fn solve_milp_file(
    entry: &SolverEntry,
    model_path: &Path,
    workdir: &Path,
    time_limit: Duration,
    threads: u32,
) -> Result<(MilpSolution, RunOutput), SolveError> {
    check_kind(entry, SolverKind::Milp)?;
    let (run, sol_path) = launch(entry, model_path, workdir, time_limit, threads, "sol", None)?;
    let exit = run.describe_exit();

    if !run.timed_out {
        // CBC exits 0 even when it rejected the model, so only the solution file tells.
        let ok = match entry.solution {
            SolutionFormat::Highs => matches!(run.status, Some(0 | 1)),
            _ => run.status == Some(0),
        };
        if !ok {
            return Err(SolveError::Failed {
                solver: entry.name.clone(),
                exit,
                tail: tail(&run),
            });
        }
    }
    let text = match std::fs::read_to_string(&sol_path) {
        Ok(t) => Some(t),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(source) => {
            return Err(SolveError::Io {
                solver: entry.name.clone(),
                path: sol_path,
                source,
            });
        }
    };
    let Some(text) = text else {
        if run.timed_out {
            return Ok((killed(&run), run));
        }
        return Err(SolveError::NoSolutionFile {
            solver: entry.name.clone(),
            path: sol_path,
            exit,
            tail: tail(&run),
        });
    };
    let source = sol_path.display().to_string();
    let parsed = match entry.solution {
        SolutionFormat::Cbc => solution::cbc::parse(&text, &source),
        SolutionFormat::Highs => solution::highs::parse(&text, &source),
        SolutionFormat::Glpk => solution::glpk::parse(&text, &source),
        SolutionFormat::Sol => solution::sol::parse(&text, &source),
        SolutionFormat::CplexXml => solution::cplex_xml::parse(&text, &source),
        other => unreachable!("registry validation ties {other:?} to a non-MILP kind"),
    };
    let mut sol = match parsed {
        Ok(s) => s,
        // Killed while writing: a half-written file is no answer.
        Err(_) if run.timed_out => return Ok((killed(&run), run)),
        Err(error) => {
            return Err(SolveError::BadSolution {
                solver: entry.name.clone(),
                error,
                tail: tail(&run),
            });
        }
    };
    // GLPK writes "undefined" both for a time-out without incumbent and for giving up; its log
    // says which.
    let glpk_timeout =
        entry.solution == SolutionFormat::Glpk && run.stdout.contains("TIME LIMIT EXCEEDED");
    if sol.outcome == Outcome::Unknown && (run.timed_out || glpk_timeout) {
        sol.outcome = Outcome::TimeLimit;
    }
    if run.timed_out && sol.outcome.has_solution() {
        sol.status_text.push_str(MilpSolution::KILLED);
    }
    Ok((sol, run))
}

/// Solve the CNF in `cnf_path` (with `num_vars` variables) with `entry`, working in `workdir`.
/// Exit codes: 10 SAT, 20 UNSAT, 0 no answer; anything else is a failure, and an exit code
/// that contradicts the printed answer is an error.
pub fn solve_sat_file(
    entry: &SolverEntry,
    cnf_path: &Path,
    workdir: &Path,
    time_limit: Duration,
    num_vars: usize,
) -> Result<(SatOutcome, RunOutput), SolveError> {
    solve_sat_file_until(entry, cnf_path, workdir, time_limit, num_vars, None)
}

/// [`solve_sat_file`] that a raised `stop` ends early, with no answer.
pub fn solve_sat_file_until(
    entry: &SolverEntry,
    cnf_path: &Path,
    workdir: &Path,
    time_limit: Duration,
    num_vars: usize,
    stop: Option<&StopFlag>,
) -> Result<(SatOutcome, RunOutput), SolveError> {
    check_kind(entry, SolverKind::Sat)?;
    let (run, out_path) = launch(entry, cnf_path, workdir, time_limit, 1, "out", stop)?;
    if run.timed_out {
        // Whatever a killed solver printed is at best partial.
        return Ok((SatOutcome::Unknown, run));
    }
    let exit = run.describe_exit();
    if !matches!(run.status, Some(0 | 10 | 20)) {
        return Err(SolveError::Failed {
            solver: entry.name.clone(),
            exit,
            tail: tail(&run),
        });
    }
    let bad = |error: InputError| SolveError::BadSolution {
        solver: entry.name.clone(),
        error,
        tail: tail(&run),
    };
    let outcome = match entry.solution {
        SolutionFormat::Minisat => {
            let text = match std::fs::read_to_string(&out_path) {
                Ok(t) => t,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    return Err(SolveError::NoSolutionFile {
                        solver: entry.name.clone(),
                        path: out_path,
                        exit,
                        tail: tail(&run),
                    });
                }
                Err(source) => {
                    return Err(SolveError::Io {
                        solver: entry.name.clone(),
                        path: out_path,
                        source,
                    });
                }
            };
            solution::sat::parse_minisat(&text, &out_path.display().to_string(), num_vars)
                .map_err(bad)?
        }
        _ => {
            let has_s_line = run.stdout.lines().any(|l| l.trim_start().starts_with("s "));
            // CaDiCaL 1.5.3 ends a time-out with only `c UNKNOWN`; a solver that exits 0
            // at once saying nothing has failed, not run out of time.
            let said_unknown = run.stdout.to_ascii_uppercase().contains("UNKNOWN")
                || run.elapsed.as_secs_f64() >= 0.9 * time_limit.as_secs_f64();
            if !has_s_line && run.status == Some(0) && said_unknown {
                SatOutcome::Unknown
            } else if !has_s_line && run.status == Some(0) {
                return Err(SolveError::Failed {
                    solver: entry.name.clone(),
                    exit: format!(
                        "{exit} without an answer (no 's' line) well before the time limit"
                    ),
                    tail: tail(&run),
                });
            } else {
                solution::sat::parse(&run.stdout, &format!("{} stdout", entry.name), num_vars)
                    .map_err(bad)?
            }
        }
    };
    let agrees = matches!(
        (&outcome, run.status),
        (SatOutcome::Sat(_), Some(10))
            | (SatOutcome::Unsat, Some(20))
            | (SatOutcome::Unknown, Some(0))
    );
    if !agrees {
        let answer = match outcome {
            SatOutcome::Sat(_) => "SATISFIABLE",
            SatOutcome::Unsat => "UNSATISFIABLE",
            SatOutcome::Unknown => "UNKNOWN",
        };
        return Err(SolveError::Inconsistent {
            solver: entry.name.clone(),
            exit,
            answer: answer.into(),
        });
    }
    Ok((outcome, run))
}

pub(crate) fn check_kind(entry: &SolverEntry, wanted: SolverKind) -> Result<(), SolveError> {
    if entry.kind == wanted {
        Ok(())
    } else {
        Err(SolveError::WrongKind {
            solver: entry.name.clone(),
            kind: entry.kind,
            wanted,
        })
    }
}

/// Expand the arguments and run; returns the output and the `{solution}` path.
pub(crate) fn launch(
    entry: &SolverEntry,
    model_path: &Path,
    workdir: &Path,
    time_limit: Duration,
    threads: u32,
    ext: &str,
    stop: Option<&StopFlag>,
) -> Result<(RunOutput, PathBuf), SolveError> {
    let io = |path: &Path, source| SolveError::Io {
        solver: entry.name.clone(),
        path: path.to_path_buf(),
        source,
    };
    // The solver runs in `workdir`, so relative paths must be made absolute first.
    let model = std::path::absolute(model_path).map_err(|e| io(model_path, e))?;
    let workdir = std::path::absolute(workdir).map_err(|e| io(workdir, e))?;
    let stem = model
        .file_stem()
        .map_or("model".into(), |s| s.to_string_lossy().into_owned());
    let sol_path = workdir.join(format!("{stem}.{}.{ext}", entry.name));
    match std::fs::remove_file(&sol_path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(io(&sol_path, e)),
        _ => {}
    }
    let args = entry.expand_args(&Placeholders {
        model: &model,
        solution: &sol_path,
        time_limit,
        threads,
        seed: external::current_seed(),
    });
    let run = external::run(&RunSpec {
        program: entry.command.clone(),
        args,
        time_limit: kill_limit(time_limit),
        cwd: Some(workdir),
        stop: stop.cloned(),
    })?;
    external::record_solution(&sol_path);
    Ok((run, sol_path))
}

/// The answer when we had to kill the solver and it left nothing usable.
fn killed(run: &RunOutput) -> MilpSolution {
    MilpSolution {
        outcome: Outcome::TimeLimit,
        status_text: format!("{}; no usable solution file", run.describe_exit()),
        objective: None,
        values: ColumnValues::None,
    }
}

/// The end of the solver's output for messages, or a note that it printed nothing.
pub(crate) fn tail(run: &RunOutput) -> String {
    let t = run.output_tail(TAIL_LINES);
    if t.is_empty() {
        "it printed nothing".into()
    } else {
        t
    }
}
