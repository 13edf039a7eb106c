//! The edge MILP through the `tilekit` binary: export (LP, MPS, GMS; format from the
//! extension), solve --via milp with CBC, HiGHS and GLPK (JSON report, board written with
//! -o and verified again), verify of raw CBC/HiGHS/GLPK outputs of files we exported
//! (valid, corrupted, mismatched options), every new error message (snapshotted) and the
//! exit codes 0/1/2/3.
//!
//! A missing solver fails these tests; without the `solver-tests` feature (`TILEKIT_SKIP_SOLVERS=1`) they show as ignored.

use crate::common::{json, meta, tilekit};
use std::path::Path;
use std::process::Command;

/// Run a real solver on a file we wrote; panics when it is missing.
fn run_solver(dir: &Path, program: &str, args: &[&str]) {
    let out = Command::new(program)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| {
            panic!("solver {program} could not run ({e}): run scripts/install-solvers.sh")
        });
    assert!(
        out.status.success() || program == "highs",
        "{program} failed: {}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn export_writes_lp_mps_and_gms() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let p = meta(d, 3);
    let r = tilekit(d, &["export", p, "-o", "m.lp"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lp = std::fs::read_to_string(d.join("m.lp")).unwrap();
    assert!(lp.starts_with(
        "\\ tilekit LP: model edge_milp_3x3_faithful, 336 variables, 126 rows, 2040 non-zeros\n"
    ));
    let r = tilekit(
        d,
        &[
            "export",
            p,
            "--model",
            "milp",
            "--format",
            "mps",
            "--filter",
            "--fix-corner",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("\nNAME edge_milp_3x3_filter_fix FREE\n"),
        "{}",
        &r.stdout[..200]
    );
    assert!(r.stdout.contains(" x_t1_r0_c0_a1 "));
    let r = tilekit(d, &["export", p, "--filter", "-o", "m.gms"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let gms = std::fs::read_to_string(d.join("m.gms")).unwrap();
    assert!(gms.contains("Variant: --filter (grey exactly on the rim)."));
    // Same input, same bytes.
    tilekit(d, &["export", p, "-o", "again.lp"]);
    assert_eq!(lp, std::fs::read_to_string(d.join("again.lp")).unwrap());
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn solve_reports_json_and_writes_a_board_that_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let p = meta(d, 4);
    for solver in ["cbc", "highs", "glpk"] {
        let board = format!("{solver}.board");
        let r = tilekit(
            d,
            &[
                "solve",
                p,
                "--via",
                "milp",
                "--solver",
                solver,
                "--filter",
                "--fix-corner",
                "--time-limit",
                "60",
                "--json",
                "-o",
                &board,
            ],
        );
        assert_eq!(r.code, 0, "{solver}: {}{}", r.stdout, r.stderr);
        let v = json(&r);
        assert_eq!(v["status"], "solved");
        assert_eq!(v["family"], "edge");
        assert_eq!(v["model"], "milp");
        assert_eq!(v["variant"], "filter_fix");
        assert_eq!(v["solver"], solver);
        assert_eq!(v["objective"], 0.0);
        assert_eq!(v["bound"], 0.0);
        assert_eq!(v["optimal"], true);
        assert_eq!(v["verified"], true);
        assert_eq!(v["matched"], 24);
        assert_eq!(v["max"], 24);
        assert!(v["seconds"].as_f64().unwrap() > 0.0);
        let r = tilekit(d, &["verify", p, &board, "--json"]);
        assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
        assert_eq!(json(&r)["valid"], true);
    }
    // Text report, the faithful model by default.
    let r = tilekit(d, &["solve", p, "--solver", "highs"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.starts_with(
            "24 of 24 inner edges matched (0 unmatched, optimal; milp faithful via highs,"
        ),
        "{}",
        r.stdout
    );
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn verify_reads_raw_solver_outputs() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let p = meta(d, 3);
    assert_eq!(tilekit(d, &["export", p, "-o", "f.lp"]).code, 0);
    assert_eq!(
        tilekit(d, &["export", p, "--filter", "--fix-corner", "-o", "ff.lp"]).code,
        0
    );
    run_solver(d, "cbc", &["f.lp", "solve", "solu", "cbc.sol"]);
    run_solver(
        d,
        "highs",
        &["--model_file", "ff.lp", "--solution_file", "highs.sol"],
    );
    run_solver(d, "glpsol", &["--lp", "ff.lp", "-w", "glpk.sol"]);
    let verify = |file: &str, flags: &[&str]| {
        let mut args = vec!["verify", p, file, "--model", "milp", "--json"];
        args.extend_from_slice(flags);
        tilekit(d, &args)
    };
    let ok = verify("cbc.sol", &[]);
    assert_eq!(ok.code, 0, "{}{}", ok.stdout, ok.stderr);
    let v = json(&ok);
    assert_eq!(v["valid"], true);
    assert_eq!(v["objective"], 0.0);
    assert_eq!(v["matched"], 12);
    assert_eq!(v["solver"], "cbc");
    for file in ["highs.sol", "glpk.sol"] {
        let r = verify(file, &["--filter", "--fix-corner"]);
        assert_eq!(r.code, 0, "{file}: {}{}", r.stdout, r.stderr);
        assert_eq!(json(&r)["valid"], true);
        assert_eq!(json(&r)["variant"], "filter_fix");
    }
    // Without --model the raw output is still recognised (and read as the faithful model).
    let r = tilekit(d, &["verify", p, "cbc.sol"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.starts_with("valid: 12 of 12 inner edges matched"),
        "{}",
        r.stdout
    );

    // GLPK lists values by column: read against the faithful model the count is wrong.
    let r = verify("glpk.sol", &[]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    let v = json(&r);
    assert_eq!(v["valid"], false);
    assert_eq!(
        v["errors"][0],
        "the solution has 42 column values but the model has 336 variables"
    );

    // A corrupted CBC output: one placement moved to another rotation. The model check and
    // the decoder both notice; exit 1.
    let text = std::fs::read_to_string(d.join("cbc.sol")).unwrap();
    let line = text
        .lines()
        .find(|l| l.contains(" x_t1_") && l.split_whitespace().nth(2) == Some("1"))
        .expect("piece 1 is placed")
        .to_string();
    let name = line.split_whitespace().nth(1).unwrap().to_string();
    let turned = format!(
        "{}{}",
        &name[..name.len() - 1],
        (name.as_bytes()[name.len() - 1] - b'0' + 1) % 4
    );
    std::fs::write(d.join("bad.sol"), text.replace(&name, &turned)).unwrap();
    let r = verify("bad.sol", &[]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    let v = json(&r);
    assert_eq!(v["valid"], false);
    assert!(!v["errors"].as_array().unwrap().is_empty());

    // A missing solver entry is a system failure: exit 3.
    std::fs::write(
        d.join("solvers.toml"),
        "[solver.cbc]\nkind = \"milp\"\ncommand = \"/nonexistent/cbc\"\ninput = \"lp\"\nargs = [\"{model}\", \"-solve\", \"-solu\", \"{solution}\"]\nsolution = \"cbc\"\n",
    )
    .unwrap();
    let r = tilekit(
        d,
        &[
            "solve",
            p,
            "--solver",
            "cbc",
            "--solvers-file",
            "solvers.toml",
        ],
    );
    assert_eq!(r.code, 3, "{}{}", r.stdout, r.stderr);
}

fn assert_input_error(dir: &Path, snap: &str, args: &[&str], needle: &str) {
    let r = tilekit(dir, args);
    assert_eq!(r.code, 2, "{snap}: {args:?}\n{}{}", r.stdout, r.stderr);
    assert!(r.stdout.is_empty(), "{snap}: stdout {}", r.stdout);
    assert!(
        r.stderr.contains(needle),
        "{snap}: {needle:?} not in {}",
        r.stderr
    );
    insta::assert_snapshot!(snap, r.stderr);
}

#[test]
fn error_messages() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let p = meta(d, 3);
    // A rectangular generated instance for --fix-corner.
    let r = tilekit(
        d,
        &[
            "generate",
            "edge",
            "--rows",
            "3",
            "--cols",
            "4",
            "--frame-colours",
            "2",
            "--inner-colours",
            "2",
            "-o",
            "rect.txt",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    std::fs::write(d.join("board.txt"), "3 3\n0 0 1 0\n").unwrap();
    let cases: &[(&str, &[&str], &str)] = &[
        (
            "edge_model_unknown",
            &["export", p, "--model", "neos"],
            "is not known for edge-matching",
        ),
        (
            "edge_format_mismatch",
            &["export", p, "--format", "cnf"],
            "cannot be written as",
        ),
        (
            "edge_via_unknown",
            &["solve", p, "--via", "native"],
            "is not available for edge-matching",
        ),
        (
            "edge_via_model_mismatch",
            &["solve", p, "--via", "milp", "--model", "sat"],
            "--via milp solves --model milp",
        ),
        (
            "edge_fix_corner_rectangular",
            &["export", "rect.txt", "--fix-corner"],
            "needs a square board",
        ),
        (
            "edge_fix_corner_rectangular_gms",
            &["export", "rect.txt", "--fix-corner", "--format", "gms"],
            "needs a square board",
        ),
        (
            "edge_time_limit_zero",
            &["solve", p, "--time-limit", "0"],
            "--time-limit must be",
        ),
        (
            "edge_solver_unknown",
            &["solve", p, "--solver", "gurobi"],
            "no solver named",
        ),
        (
            "edge_solver_wrong_kind",
            &["solve", p, "--via", "milp", "--solver", "kissat"],
            "not a milp one",
        ),
        (
            "edge_verify_board_with_model",
            &["verify", p, "board.txt", "--model", "milp"],
            "not a MILP solution file tilekit reads (CBC, HiGHS, GLPK, MIPLIB, SCIP, Gurobi, CPLEX XML)",
        ),
    ];
    for (snap, args, needle) in cases {
        assert_input_error(d, snap, args, needle);
    }
    // No output file is left behind by a refused export.
    assert!(!d.join("never.lp").exists());
    let r = tilekit(d, &["export", "rect.txt", "--fix-corner", "-o", "never.lp"]);
    assert_eq!(r.code, 2);
    assert!(!d.join("never.lp").exists());
}
