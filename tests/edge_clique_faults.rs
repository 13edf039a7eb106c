//! Clique-solver faults through the registry and the runner: a missing binary, the real
//! cliquer rejecting a malformed graph (exit 1), fake solvers that print garbage or nothing or
//! hang past the limit, and a solver of the wrong kind. Plus one good fake and one good real
//! run, so that the fault tests do not pass merely because nothing works.
//!
//! A missing cliquer fails these tests loudly; without the `solver-tests` feature (`TILEKIT_SKIP_SOLVERS=1`) they show as ignored.

use crate::common::builtin;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use tilekit::solve::SolveError;
use tilekit::solve::clique_external::{CliqueOutcome, solve_clique_file};
use tilekit::solve::external::RunError;
use tilekit::solve::registry::{Registry, SolverEntry};

/// A registry whose `fake` clique solver is a shell script with `body`.
fn fake(dir: &Path, body: &str) -> SolverEntry {
    let script = dir.join("fake.sh");
    std::fs::write(&script, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let toml = dir.join("solvers.toml");
    std::fs::write(
        &toml,
        format!(
            "[solver.fake]\nkind = \"clique\"\ncommand = \"{}\"\ninput = \"dimacs\"\nargs = [\"{{model}}\"]\nsolution = \"cliquer\"\n",
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

/// A triangle 1 2 3 plus vertex 4 joined to 3.
fn graph(dir: &Path, text: &str) -> PathBuf {
    let p = dir.join("g.dimacs");
    std::fs::write(&p, text).unwrap();
    p
}

const TRIANGLE: &str = "c test\np edge 4 4\ne 1 2\ne 1 3\ne 2 3\ne 3 4\n";

fn solve(entry: &SolverEntry, dir: &Path, limit: Duration) -> Result<CliqueOutcome, SolveError> {
    let g = graph(dir, TRIANGLE);
    solve_clique_file(entry, &g, dir, limit, 4).map(|(o, _)| o)
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn real_cliquer_finds_the_triangle_and_rejects_a_malformed_graph() {
    let entry = builtin("cliquer");
    let dir = tempfile::tempdir().unwrap();
    let found = solve(&entry, dir.path(), Duration::from_secs(10)).unwrap();
    let CliqueOutcome::Found(mut c) = found else {
        panic!("{found:?}")
    };
    c.sort();
    assert_eq!(c, [0, 1, 2]);
    // A vertex beyond the header: cliquer says "Malformed input" and exits 1.
    let g = graph(dir.path(), "p edge 3 1\ne 1 9\n");
    let err = solve_clique_file(&entry, &g, dir.path(), Duration::from_secs(10), 3).unwrap_err();
    let SolveError::Failed { exit, .. } = &err else {
        panic!("{err:?}")
    };
    assert_eq!(exit, "exit code 1");
    assert!(
        err.to_string()
            .starts_with("solver 'cliquer' failed (exit code 1): "),
        "{err}"
    );
}

#[test]
fn a_missing_binary_is_not_found() {
    let dir = tempfile::tempdir().unwrap();
    let mut entry = Registry::builtin().get("cliquer").unwrap().clone();
    entry.command = "tilekit-no-such-cliquer".into();
    let err = solve(&entry, dir.path(), Duration::from_secs(5)).unwrap_err();
    assert!(
        matches!(err, SolveError::Run(RunError::NotFound { .. })),
        "{err:?}"
    );
}

#[test]
fn fake_solver_faults_and_a_good_fake() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let limit = Duration::from_secs(5);
    let good = fake(d, "echo 'size=3, weight=3:   3 1 2'");
    assert_eq!(
        solve(&good, d, limit).unwrap(),
        CliqueOutcome::Found(vec![2, 0, 1])
    );
    let mut messages = Vec::new();
    for body in [
        "echo 'Segmentation fault' >&2; exit 139",
        "echo 'size=3, weight=3: 1 2 3'; echo 'garbage here'",
        "echo 'size=2, weight=2: 1 7'",
        "exit 0",
    ] {
        let entry = fake(d, body);
        let err = solve(&entry, d, limit).unwrap_err();
        assert!(
            matches!(
                err,
                SolveError::Failed { .. } | SolveError::BadSolution { .. }
            ),
            "{err:?}"
        );
        messages.push(err.to_string());
    }
    // Wrong kind: a SAT entry is refused before anything runs.
    let cadical = Registry::builtin().get("cadical").unwrap().clone();
    messages.push(solve(&cadical, d, limit).unwrap_err().to_string());
    insta::assert_snapshot!("clique_solver_faults", messages.join("\n"));
}

#[test]
fn a_hang_is_a_time_limit_not_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let entry = fake(dir.path(), "sleep 30; echo 'size=1, weight=1: 1'");
    let t = Instant::now();
    let outcome = solve(&entry, dir.path(), Duration::from_secs(1)).unwrap();
    assert_eq!(outcome, CliqueOutcome::TimeLimit);
    assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
}
