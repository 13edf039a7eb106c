//! The MILP solvers tilekit runs through small Python commands (installed by
//! `scripts/install-solvers.sh`): SCIP (`tilekit-scip`, PySCIPOpt) and CP-SAT
//! (`tilekit-cpsat`, OR-Tools), registry entries like any other. tilekit's LP, MPS and OPB
//! files must read into them, the sliding and edge MILP routes must solve and verify through
//! them, and the solution file SCIP itself writes must pass `verify`, with one value changed
//! failing it.

use crate::common::{json, require, tilekit};
use std::path::{Path, PathBuf};
use std::process::Command;
use tempfile::TempDir;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// SCIP's answer on `model` (written to `sol`), which must be a proven optimum.
fn scip_optimum(model: &Path, sol: &Path) -> tilekit::model::answer::MilpSolution {
    let out = Command::new("tilekit-scip")
        .args([s(model), s(sol), "60"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let answer = std::fs::read_to_string(sol).unwrap();
    let parsed = tilekit::format::solution::sol::parse(&answer, "scip").unwrap();
    assert_eq!(
        parsed.outcome,
        tilekit::model::answer::Outcome::Optimal,
        "{answer:.300}"
    );
    parsed
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn the_milp_routes_solve_and_verify_through_scip_and_cpsat() {
    require("tilekit-scip");
    require("tilekit-cpsat");
    for solver in ["scip", "cpsat"] {
        routes_through(solver);
    }
}

/// The case study by the MILP route (the tight model, stepped) and META 4×4 by the edge MILP,
/// each verified and proven optimal by tilekit, through `solver`.
fn routes_through(solver: &str) {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let case = root().join("models/sliding/neos_case_study.txt");
    let r = tilekit(
        d,
        &[
            "solve",
            s(&case),
            "--via",
            "milp",
            "--solver",
            solver,
            "--json",
        ],
    );
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let v = json(&r);
    assert_eq!(v["solver"], solver, "{v}");
    assert_eq!(v["objective"].as_f64(), Some(11.0), "{v}");
    assert_eq!(
        (v["verified"].clone(), v["optimal"].clone()),
        (true.into(), true.into()),
        "{v}"
    );
    let meta = root().join("models/edge-matching/meta2010/pieces_04x04.txt");
    let r = tilekit(
        d,
        &[
            "solve",
            s(&meta),
            "--via",
            "milp",
            "--solver",
            solver,
            "--json",
        ],
    );
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let v = json(&r);
    assert_eq!(v["verified"], true, "{v}");
    assert_eq!(
        (v["matched"].as_u64(), v["max"].as_u64()),
        (Some(24), Some(24)),
        "{v}"
    );
    assert_eq!(v["optimal"], true, "{v}");
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn scips_own_solution_files_of_lp_and_mps_models_verify() {
    require("tilekit-scip");
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let case = root().join("models/sliding/neos_case_study.txt");
    for ext in ["lp", "mps"] {
        let model = d.join(format!("case.{ext}"));
        let r = tilekit(
            d,
            &[
                "export",
                s(&case),
                "--model",
                "neos",
                "--horizon",
                "11",
                "-o",
                s(&model),
            ],
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
        let sol = d.join(format!("case.{ext}.sol"));
        let out = Command::new("tilekit-scip")
            .args([s(&model), s(&sol), "60"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = std::fs::read_to_string(&sol).unwrap();
        assert!(
            text.starts_with("solution status: optimal solution found\n"),
            "{text}"
        );
        let r = tilekit(
            d,
            &["verify", s(&case), s(&sol), "--model", "neos", "--json"],
        );
        assert_eq!(r.code, 0, "{ext}: {}{}", r.stdout, r.stderr);
        assert_eq!(json(&r)["objective"].as_f64(), Some(11.0));
        // One move variable set: no longer a plan of 11 moves.
        let first_move = text
            .lines()
            .find(|l| {
                l.split_whitespace().nth(1) == Some("1") && l.starts_with(['u', 'd', 'l', 'r'])
            })
            .expect("a move variable at 1");
        let bad = text.replacen(first_move, &first_move.replacen(" 1 ", " 0 ", 1), 1);
        assert_ne!(bad, text);
        let bad_path = d.join(format!("bad.{ext}.sol"));
        std::fs::write(&bad_path, bad).unwrap();
        let r = tilekit(d, &["verify", s(&case), s(&bad_path), "--model", "neos"]);
        assert_eq!(r.code, 1, "{ext}: {}{}", r.stdout, r.stderr);
    }
}

/// The edge MILP and the sliding `flow` and `tight` models as OPB (pseudo-Boolean), read by
/// SCIP: the same optimum as tilekit's own MILP route.
#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn the_edge_milp_as_opb_solves_in_scip_to_the_milp_routes_optimum() {
    require("tilekit-scip");
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    for n in [3, 4] {
        let meta = root().join(format!(
            "models/edge-matching/meta2010/pieces_{n:02}x{n:02}.txt"
        ));
        let opb = d.join(format!("m{n}.opb"));
        let r = tilekit(d, &["export", s(&meta), "-o", s(&opb)]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let text = std::fs::read_to_string(&opb).unwrap();
        assert!(text.starts_with("* #variable= "), "{text:.200}");
        let sol = d.join(format!("m{n}.opb.sol"));
        let parsed = scip_optimum(&opb, &sol);
        let r = tilekit(d, &["solve", s(&meta), "--via", "milp", "--json"]);
        assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
        let v = json(&r);
        assert_eq!(v["optimal"], true, "{v}");
        assert_eq!(parsed.objective, v["objective"].as_f64(), "{n}x{n}: {v}");
    }
    // The sliding models that are 0/1: SCIP proves the case study's 11 moves on each, past
    // the optimum's horizon (where `tight` has binary columns in place of continuous ones).
    let case = root().join("models/sliding/neos_case_study.txt");
    for model in ["flow", "tight"] {
        let opb = d.join(format!("{model}.opb"));
        let r = tilekit(
            d,
            &[
                "export",
                s(&case),
                "--model",
                model,
                "--horizon",
                "13",
                "-o",
                s(&opb),
            ],
        );
        assert_eq!(r.code, 0, "{model}: {}", r.stderr);
        let sol = d.join(format!("{model}.opb.sol"));
        assert_eq!(scip_optimum(&opb, &sol).objective, Some(11.0), "{model}");
    }
    // The faithful model is not 0/1 and is refused.
    let r = tilekit(
        d,
        &[
            "export",
            s(&case),
            "--model",
            "neos",
            "--horizon",
            "13",
            "--format",
            "opb",
        ],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("flow and tight to lp, mps or opb"),
        "{}",
        r.stderr
    );
}

/// The edge MaxSAT model as WBO (weighted Boolean optimisation), read by SCIP: the same
/// optimum cost as tilekit's MaxSAT route.
#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn the_edge_maxsat_model_as_wbo_solves_in_scip_to_the_maxsat_routes_optimum() {
    require("tilekit-scip");
    require("rc2.py");
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    for n in [3, 4] {
        let meta = root().join(format!(
            "models/edge-matching/meta2010/pieces_{n:02}x{n:02}.txt"
        ));
        let wbo = d.join(format!("m{n}.wbo"));
        let r = tilekit(d, &["export", s(&meta), "--model", "maxsat", "-o", s(&wbo)]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let sol = d.join(format!("m{n}.wbo.sol"));
        let parsed = scip_optimum(&wbo, &sol);
        let r = tilekit(d, &["solve", s(&meta), "--via", "maxsat", "--json"]);
        assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
        let v = json(&r);
        assert_eq!(v["verified"], true, "{v}");
        let unmatched = v["max"].as_f64().unwrap() - v["matched"].as_f64().unwrap();
        assert_eq!(parsed.objective, Some(unmatched), "{n}x{n}: {v}");
    }
}
