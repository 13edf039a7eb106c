//! The embedded HiGHS engine (`--features highs`), end to end through the binary: in-process,
//! no files, no solver installed, answers decoded and verified like every other route.

use crate::common::{json, meta, tilekit};
use std::path::Path;

fn case_study() -> &'static str {
    concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/models/sliding/neos_case_study.txt"
    )
}

/// The case study's faithful model at horizon 12 (the one microlp cannot solve) reaches 11
/// verified moves, proven optimal, in-process.
#[test]
#[cfg_attr(
    not(feature = "highs"),
    ignore = "needs the embedded HiGHS (--features highs: scripts/test.sh --full)"
)]
fn faithful_case_study_at_horizon_12_in_process() {
    let dir = tempfile::tempdir().unwrap();
    let r = tilekit(
        dir.path(),
        &[
            "solve",
            case_study(),
            "--via",
            "milp",
            "--model",
            "neos",
            // One model at horizon 12, not horizons stepped up to it.
            "--set",
            "milp.step=false",
            "--solver",
            "highs-embedded",
            "--horizon",
            "12",
            "--json",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = json(&r);
    assert_eq!(v["status"], "solved");
    assert_eq!(v["model"], "neos");
    assert_eq!(v["solver"], "highs-embedded");
    assert_eq!(v["verified"], true);
    assert_eq!(v["optimal"], true);
    assert_eq!(v["objective"], 11.0);
    assert_eq!(v["horizon"], 12);
    assert_eq!(v["moves"].as_str().map(str::len), Some(11));
    // Nothing was written beside the run: the model never left the process.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// An infeasible horizon is an answer (exit 1), not an error.
#[test]
#[cfg_attr(
    not(feature = "highs"),
    ignore = "needs the embedded HiGHS (--features highs: scripts/test.sh --full)"
)]
fn an_infeasible_horizon_is_an_answer() {
    let dir = tempfile::tempdir().unwrap();
    let r = tilekit(
        dir.path(),
        &[
            "solve",
            case_study(),
            "--via",
            "milp",
            "--solver",
            "highs-embedded",
            "--horizon",
            "9",
            "--json",
        ],
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(json(&r)["status"], "infeasible");
}

/// META 4×4 through Salassa et al.'s MILP: a perfect board, verified by the independent
/// checker, written with `-o` and verified again from the file.
#[test]
#[cfg_attr(
    not(feature = "highs"),
    ignore = "needs the embedded HiGHS (--features highs: scripts/test.sh --full)"
)]
fn meta_4x4_edge_milp_to_a_perfect_board() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let inst = meta(d, 4);
    let board = d.join("board.txt");
    let r = tilekit(
        d,
        &[
            "solve",
            inst,
            "--solver",
            "highs-embedded",
            "-o",
            board.to_str().unwrap(),
            "--json",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = json(&r);
    assert_eq!(v["verified"], true);
    assert_eq!(v["objective"], 0.0);
    assert_eq!(v["matched"], v["max"]);
    assert_eq!(v["optimal"], true);
    let again = tilekit(d, &["verify", inst, board.to_str().unwrap()]);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert!(
        again.stdout.starts_with("valid: 24 of 24"),
        "{}",
        again.stdout
    );
}

/// The engine is listed with the version the library reports.
#[test]
#[cfg_attr(
    not(feature = "highs"),
    ignore = "needs the embedded HiGHS (--features highs: scripts/test.sh --full)"
)]
fn listed_as_an_embedded_engine() {
    let r = tilekit(Path::new("."), &["solvers"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let line = r
        .stdout
        .lines()
        .find(|l| l.starts_with("highs-embedded "))
        .unwrap_or_else(|| panic!("no highs-embedded row in {}", r.stdout));
    assert!(
        line.contains(" milp ") && line.contains("embedded"),
        "{line}"
    );
    assert!(
        line.split_whitespace().last().unwrap().starts_with("1."),
        "{line}"
    );
}
