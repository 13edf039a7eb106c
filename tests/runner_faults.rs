//! Solver faults through the registry and the runner, against the real solvers: a missing
//! binary, failing exit codes, a hang past the limit, a missing or garbage solution file, and
//! exit codes that contradict the answer. Also one good run per solver, so that the fault
//! tests are not passing merely because nothing works.
//!
//! A missing solver fails these tests loudly; without the `solver-tests` feature (`TILEKIT_SKIP_SOLVERS=1`) they show as ignored.

use crate::common::builtin;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use tilekit::solve::SolveError;
use tilekit::solve::external::{self, RunError, RunSpec};
use tilekit::solve::milp_external::{exit_warning, solve_milp_file, solve_sat_file};
use tilekit::solve::registry::{Registry, SolverEntry};
use tilekit::{ColumnValues, Outcome, SatOutcome};

const FIXTURES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/solutions/models"
);

fn model(name: &str) -> PathBuf {
    Path::new(FIXTURES).join(name)
}

/// Write an executable shell script and a registry with one entry running it.
fn fake_solver(dir: &Path, kind: &str, solution: &str, args: &str, body: &str) -> SolverEntry {
    let script = dir.join("fake.sh");
    std::fs::write(&script, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let toml = dir.join("solvers.toml");
    // The registry ties each kind to the formats it reads.
    let input = match kind {
        "sat" => "cnf",
        "clique" => "dimacs",
        _ => "lp",
    };
    std::fs::write(
        &toml,
        format!(
            "[solver.fake]\nkind = \"{kind}\"\ncommand = \"{}\"\ninput = \"{input}\"\nargs = {args}\nsolution = \"{solution}\"\n",
            script.display()
        ),
    )
    .unwrap();
    Registry::load(Some(&toml))
        .unwrap()
        .get("fake")
        .unwrap()
        .clone()
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// An LP that GLPK, HiGHS and CBC all reject.
const MALFORMED_LP: &str =
    "Maximize\n obj: x\nSubject To\n c1: x <= 1 y z z <=\nBounds\n x >= foo\nEnd\n";

#[test]
fn a_missing_binary_is_not_found() {
    let dir = tempfile::tempdir().unwrap();
    let mut entry = Registry::builtin().get("cbc").unwrap().clone();
    entry.command = "tilekit-no-such-solver".into();
    let err = solve_milp_file(
        &entry,
        &model("tiny.lp"),
        dir.path(),
        Duration::from_secs(5),
        1,
    )
    .unwrap_err();
    assert!(
        matches!(err, SolveError::Run(RunError::NotFound { .. })),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        "solver 'tilekit-no-such-solver' not found on PATH: run scripts/install-solvers.sh or edit solvers.toml"
    );
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn glpk_exit_1_on_a_malformed_lp_is_a_failure() {
    let glpk = builtin("glpk");
    let dir = tempfile::tempdir().unwrap();
    let lp = write(dir.path(), "bad.lp", MALFORMED_LP);
    let err = solve_milp_file(&glpk, &lp, dir.path(), Duration::from_secs(5), 1).unwrap_err();
    let SolveError::Failed { exit, tail, .. } = &err else {
        panic!("{err:?}")
    };
    assert_eq!(exit, "exit code 1");
    assert!(tail.contains("processing error"), "{tail}");
    assert!(
        err.to_string()
            .starts_with("solver 'glpk' failed (exit code 1): "),
        "{err}"
    );
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn highs_exit_255_on_a_parse_error_is_a_failure() {
    let highs = builtin("highs");
    let dir = tempfile::tempdir().unwrap();
    let lp = write(dir.path(), "bad.lp", MALFORMED_LP);
    let err = solve_milp_file(&highs, &lp, dir.path(), Duration::from_secs(5), 1).unwrap_err();
    let SolveError::Failed { exit, tail, .. } = &err else {
        panic!("{err:?}")
    };
    assert_eq!(exit, "exit code 255");
    assert!(tail.contains("Error loading file"), "{tail}");
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn highs_exit_1_is_a_warning_and_the_answer_is_kept() {
    let highs = builtin("highs");
    let dir = tempfile::tempdir().unwrap();
    // No `Subject To` section: HiGHS solves it but exits 1.
    let lp = write(
        dir.path(),
        "nocons.lp",
        "Maximize\n obj: x\nBounds\n x <= 3\nEnd\n",
    );
    let (sol, run) = solve_milp_file(&highs, &lp, dir.path(), Duration::from_secs(5), 1).unwrap();
    assert_eq!(run.status, Some(1));
    assert_eq!(sol.outcome, Outcome::Optimal);
    assert_eq!(sol.objective, Some(3.0));
    let w = exit_warning(&highs, &run).expect("a warning");
    assert!(w.contains("'highs' exited with code 1"), "{w}");
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn cbc_exit_0_without_a_solution_file_is_detected() {
    let cbc = builtin("cbc");
    let dir = tempfile::tempdir().unwrap();
    let lp = write(dir.path(), "bad.lp", MALFORMED_LP);
    let err = solve_milp_file(&cbc, &lp, dir.path(), Duration::from_secs(5), 1).unwrap_err();
    let SolveError::NoSolutionFile { exit, tail, .. } = &err else {
        panic!("{err:?}")
    };
    assert_eq!(exit, "exit code 0");
    assert!(
        tail.contains("Current model not valid") || !tail.is_empty(),
        "{tail}"
    );
    assert!(err.to_string().contains("wrote no solution file"), "{err}");
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn a_stale_solution_file_is_never_read() {
    let cbc = builtin("cbc");
    let dir = tempfile::tempdir().unwrap();
    let lp = write(dir.path(), "bad.lp", MALFORMED_LP);
    // What a previous, successful run would have left.
    write(
        dir.path(),
        "bad.cbc.sol",
        "Optimal - objective value 1\n      0 x 1 0\n",
    );
    let err = solve_milp_file(&cbc, &lp, dir.path(), Duration::from_secs(5), 1).unwrap_err();
    assert!(matches!(err, SolveError::NoSolutionFile { .. }), "{err:?}");
}

#[test]
fn a_hang_is_killed_at_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let hang = fake_solver(
        dir.path(),
        "milp",
        "cbc",
        r#"["{model}", "{solution}"]"#,
        "sleep 30",
    );
    // The runner alone: killed at its 1 s limit.
    let t = Instant::now();
    let out = external::run(&RunSpec {
        program: hang.command.clone(),
        args: vec![],
        time_limit: Duration::from_secs(1),
        cwd: None,
        stop: None,
    })
    .unwrap();
    // Far below the 30 s sleep, with room for a loaded machine's process starts.
    assert!(out.timed_out && out.signal == Some(9), "{out:?}");
    assert!(t.elapsed() < Duration::from_secs(8), "{:?}", t.elapsed());

    // Through the registry: a time-out is an answer, TimeLimit, within limit + grace.
    let t = Instant::now();
    let (sol, run) = solve_milp_file(
        &hang,
        &model("tiny.lp"),
        dir.path(),
        Duration::from_secs(1),
        1,
    )
    .unwrap();
    assert!(t.elapsed() < Duration::from_secs(9), "{:?}", t.elapsed());
    assert!(run.timed_out);
    assert_eq!(sol.outcome, Outcome::TimeLimit);
    assert_eq!(sol.values, ColumnValues::None);

    let sat_hang = fake_solver(dir.path(), "sat", "sat", r#"["{model}"]"#, "sleep 30");
    let (ans, run) = solve_sat_file(
        &sat_hang,
        &model("sat.cnf"),
        dir.path(),
        Duration::from_secs(1),
        120,
    )
    .unwrap();
    assert!(run.timed_out);
    assert_eq!(ans, SatOutcome::Unknown);
}

#[test]
fn an_incumbent_written_before_the_kill_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let body = "printf 'Stopped on time - objective value 5\\n      0 x 5 0\\n' > \"$2\"; sleep 30";
    let slow = fake_solver(
        dir.path(),
        "milp",
        "cbc",
        r#"["{model}", "{solution}"]"#,
        body,
    );
    let (sol, run) = solve_milp_file(
        &slow,
        &model("tiny.lp"),
        dir.path(),
        Duration::from_secs(1),
        1,
    )
    .unwrap();
    assert!(run.timed_out);
    assert_eq!(sol.outcome, Outcome::Feasible);
    assert_eq!(sol.values, ColumnValues::ByName(vec![("x".into(), 5.0)]));
}

#[test]
fn a_garbage_solution_file_is_an_error_naming_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let body = "printf 'Optimal - objective value 1\\nthis is not a value line\\n' > \"$2\"";
    let fake = fake_solver(
        dir.path(),
        "milp",
        "cbc",
        r#"["{model}", "{solution}"]"#,
        body,
    );
    let err = solve_milp_file(
        &fake,
        &model("tiny.lp"),
        dir.path(),
        Duration::from_secs(5),
        1,
    )
    .unwrap_err();
    let SolveError::BadSolution { error, .. } = &err else {
        panic!("{err:?}")
    };
    assert!(error.source_name.ends_with("tiny.fake.sol"), "{error}");
    assert_eq!(error.line, Some(2));
    assert!(
        err.to_string()
            .starts_with("solver 'fake' gave an answer we cannot read: "),
        "{err}"
    );
}

#[test]
fn sat_exit_codes_must_agree_with_the_answer() {
    let dir = tempfile::tempdir().unwrap();
    let liar = fake_solver(
        dir.path(),
        "sat",
        "sat",
        r#"["{model}"]"#,
        "echo 's SATISFIABLE'; echo 'v 1 0'; exit 20",
    );
    let err = solve_sat_file(
        &liar,
        &model("sat.cnf"),
        dir.path(),
        Duration::from_secs(5),
        120,
    )
    .unwrap_err();
    assert!(matches!(err, SolveError::Inconsistent { .. }), "{err:?}");
    assert!(
        err.to_string()
            .contains("exit code 20 but answered SATISFIABLE"),
        "{err}"
    );

    let crash = fake_solver(
        dir.path(),
        "sat",
        "sat",
        r#"["{model}"]"#,
        "echo oops >&2; kill -SEGV $$",
    );
    let err = solve_sat_file(
        &crash,
        &model("sat.cnf"),
        dir.path(),
        Duration::from_secs(5),
        120,
    )
    .unwrap_err();
    assert!(
        err.to_string().contains("failed (signal 11): oops"),
        "{err}"
    );
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn sat_solvers_reject_a_malformed_cnf() {
    for name in ["cadical", "kissat", "minisat"] {
        let entry = builtin(name);
        let dir = tempfile::tempdir().unwrap();
        let err = solve_sat_file(
            &entry,
            &model("malformed.cnf"),
            dir.path(),
            Duration::from_secs(5),
            3,
        )
        .unwrap_err();
        assert!(matches!(err, SolveError::Failed { .. }), "{name}: {err:?}");
    }
}

#[test]
fn wrong_kind_is_refused() {
    let entry = Registry::builtin().get("cadical").unwrap().clone();
    let err = solve_milp_file(
        &entry,
        &model("tiny.lp"),
        Path::new("."),
        Duration::from_secs(1),
        1,
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "solver 'cadical' is a sat solver, not a milp solver"
    );
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn every_milp_solver_solves_the_tiny_model() {
    for name in ["cbc", "highs", "glpk"] {
        let entry = builtin(name);
        let dir = tempfile::tempdir().unwrap();
        let (sol, run) = solve_milp_file(
            &entry,
            &model("tiny.lp"),
            dir.path(),
            Duration::from_secs(10),
            1,
        )
        .unwrap();
        assert_eq!(sol.outcome, Outcome::Optimal, "{name}");
        assert_eq!(sol.objective, Some(10.0), "{name}");
        assert!(exit_warning(&entry, &run).is_none(), "{name}");
        let values = match &sol.values {
            ColumnValues::ByIndex(v) => v.clone(),
            ColumnValues::ByName(v) => v.iter().map(|(_, x)| *x).collect(),
            ColumnValues::None => panic!("{name}: no values"),
        };
        assert_eq!(values, [2.0, 0.0, 1.0, -2.0], "{name}");
    }
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn milp_time_limits_with_and_without_incumbent() {
    let limit = Duration::from_secs(1);
    let glpk = builtin("glpk");
    let dir = tempfile::tempdir().unwrap();
    // GLPK finds no point of the market-split model in 1 s; its log says TIME LIMIT.
    let (sol, run) =
        solve_milp_file(&glpk, &model("market_split.lp"), dir.path(), limit, 1).unwrap();
    assert!(!run.timed_out);
    assert_eq!(sol.outcome, Outcome::TimeLimit);
    let cbc = builtin("cbc");
    let dir = tempfile::tempdir().unwrap();
    let (sol, _) = solve_milp_file(&cbc, &model("market_split.lp"), dir.path(), limit, 1).unwrap();
    assert_eq!(sol.outcome, Outcome::TimeLimit);
    // CBC proves no optimum of this knapsack in any limit a test can wait for, but it must
    // find a point first: ten seconds, so that a loaded machine still gets that far.
    let (sol, _) = solve_milp_file(
        &cbc,
        &model("knapsack.lp"),
        dir.path(),
        Duration::from_secs(10),
        1,
    )
    .unwrap();
    assert_eq!(sol.outcome, Outcome::Feasible, "{}", sol.status_text);
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn every_sat_solver_answers_sat_and_unsat() {
    for name in ["cadical", "kissat", "minisat"] {
        let entry = builtin(name);
        let dir = tempfile::tempdir().unwrap();
        let (ans, _) = solve_sat_file(
            &entry,
            &model("sat.cnf"),
            dir.path(),
            Duration::from_secs(10),
            120,
        )
        .unwrap();
        assert!(
            matches!(&ans, SatOutcome::Sat(m) if m.len() == 120),
            "{name}: {ans:?}"
        );
        let (ans, _) = solve_sat_file(
            &entry,
            &model("unsat.cnf"),
            dir.path(),
            Duration::from_secs(10),
            12,
        )
        .unwrap();
        assert_eq!(ans, SatOutcome::Unsat, "{name}");
    }
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn sat_time_limits_give_unknown() {
    for name in ["cadical", "kissat", "minisat"] {
        let entry = builtin(name);
        let dir = tempfile::tempdir().unwrap();
        let (ans, _) = solve_sat_file(
            &entry,
            &model("hard.cnf"),
            dir.path(),
            Duration::from_secs(1),
            156,
        )
        .unwrap();
        assert_eq!(ans, SatOutcome::Unknown, "{name}");
    }
}
