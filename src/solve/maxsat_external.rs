//! Solving a WCNF file with an external MaxSAT solver from the registry (`kind = "maxsat"`):
//! run it through the hardened runner, judge its exit code, read its `o`/`s`/`v` answer on
//! stdout ([`crate::format::solution::maxsat`]).
//!
//! Exit codes follow the MaxSAT Evaluation convention (30 optimum, 20 unsatisfiable, 10 a
//! model, 0 nothing claimed) and clasp's bit set (1 interrupted, 10 a model, 20 search space
//! exhausted: 11 is a model found before the time limit, 30 an optimum). RC2's `rc2.py`
//! always exits 0, so 0 claims nothing and the `s` line decides; any other code is a failure,
//! and a code that contradicts the `s` line is [`SolveError::Inconsistent`].
//!
//! A time limit is an answer: a solver killed at it, or one that stopped at its own limit
//! without an `s` line (RC2 with `-T` prints none), is [`MaxsatOutcome::Unknown`]. Whatever
//! a killed solver printed is at best partial and is not read.

use crate::format::solution;
use crate::model::answer::MaxsatOutcome;
use crate::solve::SolveError;
use crate::solve::external::RunOutput;
use crate::solve::milp_external::{check_kind, launch, tail};
use crate::solve::registry::{SolutionFormat, SolverEntry, SolverKind};
use std::path::Path;
use std::time::Duration;

/// The exit codes an answer may come with, by `s` line: 0 claims nothing.
fn agrees(outcome: &MaxsatOutcome, code: i32) -> bool {
    matches!(
        (outcome, code),
        (_, 0)
            | (MaxsatOutcome::Optimum { .. }, 30)
            | (MaxsatOutcome::Feasible { .. }, 10 | 11)
            | (MaxsatOutcome::Unsat, 20)
            | (MaxsatOutcome::Unknown, 1)
    )
}

/// Solve the WCNF in `wcnf_path` (with `num_vars` variables) with `entry`, working in
/// `workdir`, killed after `time_limit` plus a grace period.
pub fn solve_maxsat_file(
    entry: &SolverEntry,
    wcnf_path: &Path,
    workdir: &Path,
    time_limit: Duration,
    threads: u32,
    num_vars: usize,
) -> Result<(MaxsatOutcome, RunOutput), SolveError> {
    check_kind(entry, SolverKind::Maxsat)?;
    let (run, _) = launch(entry, wcnf_path, workdir, time_limit, threads, "out", None)?;
    if run.timed_out {
        return Ok((MaxsatOutcome::Unknown, run));
    }
    let exit = run.describe_exit();
    let code = match run.status {
        Some(c @ (0 | 1 | 10 | 11 | 20 | 30)) => c,
        _ => {
            return Err(SolveError::Failed {
                solver: entry.name.clone(),
                exit,
                tail: tail(&run),
            });
        }
    };
    let has_s_line = run.stdout.lines().any(|l| l.trim_start().starts_with("s "));
    if !has_s_line {
        // RC2 stopped by its own -T prints no `s` line and exits 0; so would a solver that
        // failed at once, which is told apart by the clock.
        let near_limit = run.elapsed.as_secs_f64() >= 0.9 * time_limit.as_secs_f64();
        if matches!(code, 0 | 1) && near_limit {
            return Ok((MaxsatOutcome::Unknown, run));
        }
        return Err(SolveError::Failed {
            solver: entry.name.clone(),
            exit: format!("{exit} without an answer (no 's' line) well before the time limit"),
            tail: tail(&run),
        });
    }
    let outcome = match entry.solution {
        SolutionFormat::Maxsat => {
            solution::maxsat::parse(&run.stdout, &format!("{} stdout", entry.name), num_vars)
        }
        other => unreachable!("registry validation ties {other:?} to a non-MaxSAT kind"),
    }
    .map_err(|error| SolveError::BadSolution {
        solver: entry.name.clone(),
        error,
        tail: tail(&run),
    })?;
    if !agrees(&outcome, code) {
        return Err(SolveError::Inconsistent {
            solver: entry.name.clone(),
            exit,
            answer: outcome.status_text().into(),
        });
    }
    Ok((outcome, run))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::registry::Registry;

    /// A registry entry running `script` under `sh` (the model path is `$0`).
    fn fake(script: &str) -> SolverEntry {
        let toml = format!(
            "[solver.fake]\nkind = \"maxsat\"\ncommand = \"sh\"\ninput = \"wcnf\"\nargs = [\"-c\", {script:?}, \"{{model}}\"]\nsolution = \"maxsat\"\n"
        );
        Registry::from_toml(&toml, "test.toml")
            .unwrap()
            .get("fake")
            .unwrap()
            .clone()
    }

    fn run(script: &str, limit_ms: u64) -> Result<MaxsatOutcome, SolveError> {
        let dir = tempfile::tempdir().unwrap();
        let model = dir.path().join("m.wcnf");
        std::fs::write(&model, "h 1 2 0\n1 -1 0\n").unwrap();
        solve_maxsat_file(
            &fake(script),
            &model,
            dir.path(),
            Duration::from_millis(limit_ms),
            1,
            2,
        )
        .map(|(o, _)| o)
    }

    #[test]
    fn answers_and_their_exit_codes() {
        let opt = MaxsatOutcome::Optimum {
            cost: 1,
            model: vec![true, false],
        };
        // RC2: exit 0, literals; clasp: exit 30; the 2022 bit string.
        assert_eq!(
            run("printf 's OPTIMUM FOUND\\no 1\\nv 1 -2\\n'", 5000).unwrap(),
            opt
        );
        assert_eq!(
            run(
                "printf 'v 1 -2 0\\no 1\\ns OPTIMUM FOUND\\n'; exit 30",
                5000
            )
            .unwrap(),
            opt
        );
        assert_eq!(
            run("printf 'o 1\\ns OPTIMUM FOUND\\nv 10\\n'; exit 30", 5000).unwrap(),
            opt
        );
        // clasp interrupted by its own limit with a model: 11.
        assert!(matches!(
            run("printf 'v 1 2 0\\no 1\\ns SATISFIABLE\\n'; exit 11", 5000).unwrap(),
            MaxsatOutcome::Feasible { cost: 1, .. }
        ));
        assert_eq!(
            run("echo 's UNSATISFIABLE'; exit 20", 5000).unwrap(),
            MaxsatOutcome::Unsat
        );
        assert_eq!(
            run("echo 's UNKNOWN'; exit 1", 5000).unwrap(),
            MaxsatOutcome::Unknown
        );
    }

    #[test]
    fn an_exit_code_contradicting_the_answer_is_not_trusted() {
        let e = run("printf 'o 1\\ns OPTIMUM FOUND\\nv 10\\n'; exit 20", 5000).unwrap_err();
        assert!(matches!(e, SolveError::Inconsistent { .. }), "{e}");
        assert_eq!(
            e.to_string(),
            "solver 'fake' exited with exit code 20 but answered OPTIMUM FOUND; not trusting either"
        );
        let e = run("echo 's UNSATISFIABLE'; exit 30", 5000).unwrap_err();
        assert!(matches!(e, SolveError::Inconsistent { .. }), "{e}");
    }

    #[test]
    fn failures_and_time_limits() {
        // An error exit code, whatever it printed.
        let e = run("echo 's OPTIMUM FOUND'; echo boom >&2; exit 65", 5000).unwrap_err();
        assert!(matches!(e, SolveError::Failed { .. }), "{e}");
        assert!(e.to_string().contains("boom"), "{e}");
        // Exit 0 at once without an answer is a failure, not a time limit.
        let e = run("echo 'c nothing'", 5000).unwrap_err();
        assert!(e.to_string().contains("no 's' line"), "{e}");
        // A garbled answer names the line.
        let e = run("printf 's OPTIMUM FOUND\\nv 1 -2\\n'", 5000).unwrap_err();
        assert!(matches!(e, SolveError::BadSolution { .. }), "{e}");
        assert!(e.to_string().contains("without an `o` line"), "{e}");
        // Stopped by its own limit without an `s` line (RC2 -T), and killed by ours.
        assert_eq!(
            run("sleep 0.5; echo 'c interrupted'", 500).unwrap(),
            MaxsatOutcome::Unknown
        );
        assert_eq!(
            run("echo 'o 3'; sleep 30", 100).unwrap(),
            MaxsatOutcome::Unknown
        );
    }
}
