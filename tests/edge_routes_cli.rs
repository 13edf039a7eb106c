//! The edge clique and SAT routes through the `tilekit` binary: export (DIMACS graph and its
//! complement, CNF; deterministic), solve --via clique (real cliquer) and --via sat (varisat
//! and the real CaDiCaL, Kissat and MiniSat), verify of raw cliquer and SAT-competition
//! answers of files we exported, mutated answers rejected, a puzzle without a perfect board
//! answered "no", and the new error messages (snapshotted) with their exit codes.
//!
//! A missing solver fails these tests; without the `solver-tests` feature (`TILEKIT_SKIP_SOLVERS=1`) they show as ignored.

use crate::common::{Run, json, meta, tilekit};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Run a real solver in `dir`, returning its stdout; panics when it cannot run.
fn solver_stdout(dir: &Path, program: &str, args: &[&str]) -> String {
    let out = Command::new(program)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| {
            panic!("solver {program} could not run ({e}): run scripts/install-solvers.sh")
        });
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn assert_solved(r: &Run, model: &str, solver: &str, n: usize) {
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let v = json(r);
    assert_eq!(v["status"], "solved", "{v}");
    assert_eq!(v["family"], "edge");
    assert_eq!(v["model"], model);
    assert_eq!(v["solver"], solver);
    assert_eq!(v["verified"], true);
    assert_eq!(v["optimal"], true);
    assert_eq!(v["objective"], 0.0);
    assert_eq!(v["matched"], serde_json::json!(2 * n * n - 2 * n));
    assert_eq!(v["max"], serde_json::json!(2 * n * n - 2 * n));
}

#[test]
fn exports_are_deterministic_and_well_formed() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let p = meta(d, 4);
    for (args, file) in [
        (
            vec!["export", p, "--model", "clique", "-o", "a.dimacs"],
            "a.dimacs",
        ),
        (
            vec![
                "export",
                p,
                "--model",
                "clique",
                "--complement",
                "-o",
                "c.clq",
            ],
            "c.clq",
        ),
        (vec!["export", p, "--model", "sat", "-o", "a.cnf"], "a.cnf"),
        (
            vec!["export", p, "--model", "sat", "--fix-corner", "-o", "f.cnf"],
            "f.cnf",
        ),
    ] {
        let r = tilekit(d, &args);
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
        let first = std::fs::read(d.join(file)).unwrap();
        let r = tilekit(d, &args);
        assert_eq!(r.code, 0);
        assert_eq!(
            first,
            std::fs::read(d.join(file)).unwrap(),
            "{file} differs"
        );
    }
    // META 4×4: the paper's Table 1 graph, 138 nodes and 6707 edges; the complement has the
    // remaining pairs.
    let g = std::fs::read_to_string(d.join("a.dimacs")).unwrap();
    assert!(g.lines().any(|l| l == "p edge 138 6707"), "{}", &g[..300]);
    assert_eq!(g.lines().filter(|l| l.starts_with("e ")).count(), 6707);
    let c = std::fs::read_to_string(d.join("c.clq")).unwrap();
    assert!(
        c.lines()
            .any(|l| l == format!("p edge 138 {}", 138 * 137 / 2 - 6707))
    );
    // The format follows the model when no -o is given (stdout).
    let r = tilekit(d, &["export", p, "--model", "sat"]);
    assert!(r.stdout.contains("p cnf "), "{}", r.stderr);
    // Fixing the corner only adds unit clauses or removes placements: never a larger formula.
    let header = |f: &str| {
        let t = std::fs::read_to_string(d.join(f)).unwrap();
        let l = t
            .lines()
            .find(|l| l.starts_with("p cnf"))
            .unwrap()
            .to_string();
        l.split_whitespace()
            .nth(2)
            .unwrap()
            .parse::<usize>()
            .unwrap()
    };
    assert!(header("f.cnf") <= header("a.cnf"));
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn every_route_solves_meta_3_to_5_and_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for n in [3, 4, 5] {
        let p = meta(d, n);
        // The embedded search by default, and the real cliquer by name.
        let r = tilekit(d, &["solve", p, "--via", "clique", "--json"]);
        assert_solved(&r, "clique", "mcq", n);
        let r = tilekit(
            d,
            &[
                "solve", p, "--via", "clique", "--solver", "cliquer", "--json",
            ],
        );
        assert_solved(&r, "clique", "cliquer", n);
        for solver in ["varisat", "cadical", "kissat", "minisat"] {
            let r = tilekit(
                d,
                &["solve", p, "--via", "sat", "--solver", solver, "--json"],
            );
            assert_solved(&r, "sat", solver, n);
        }
    }
    // The board written with -o passes verify on its own.
    let p = meta(d, 5);
    let r = tilekit(d, &["solve", p, "--via", "clique", "-o", "b.txt"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("40 of 40 inner edges matched"),
        "{}",
        r.stdout
    );
    let r = tilekit(d, &["verify", p, "b.txt"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn generated_puzzles_round_trip_through_both_routes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for (rows, cols, seed) in [(3, 3, 1), (3, 4, 2), (4, 4, 3), (4, 5, 4)] {
        let (r_s, c_s, s_s) = (rows.to_string(), cols.to_string(), seed.to_string());
        let r = tilekit(
            d,
            &[
                "generate",
                "edge",
                "--rows",
                &r_s,
                "--cols",
                &c_s,
                "--frame-colours",
                "2",
                "--inner-colours",
                "4",
                "--seed",
                &s_s,
                "-o",
                "g.txt",
            ],
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
        for via in ["clique", "sat"] {
            let r = tilekit(d, &["solve", "g.txt", "--via", via, "--json"]);
            assert_eq!(
                r.code, 0,
                "{rows}x{cols} seed {seed} via {via}: {}",
                r.stderr
            );
            let v = json(&r);
            assert_eq!(v["verified"], true, "{v}");
            assert_eq!(v["objective"], 0.0, "{v}");
        }
    }
}

/// META 3×3 with one piece's sides permuted (not rotated): the same colours, so the file stays
/// valid, but possibly no perfect board. Returns the first variant (in a fixed order) whose
/// MILP optimum, proved by HiGHS on the faithful model, is at least one unmatched seam: the
/// ground truth comes from a different model than the routes under test.
fn no_perfect_board(dir: &Path) -> &'static str {
    let text = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("models/edge-matching/meta2010/pieces_03x03.txt"),
    )
    .unwrap();
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    // Mirror images: a rotation never reproduces them unless the piece is symmetric.
    let perms: [[usize; 4]; 2] = [[2, 1, 0, 3], [0, 3, 2, 1]];
    for i in 1..lines.len() {
        let c: Vec<&str> = lines[i].split_whitespace().collect();
        if c.len() != 4 {
            continue;
        }
        for perm in perms {
            let mut l = lines.clone();
            l[i] = perm.map(|k| c[k]).join(" ");
            std::fs::write(dir.join("nope.txt"), l.join("\n") + "\n").unwrap();
            let r = tilekit(
                dir,
                &[
                    "solve", "nope.txt", "--via", "milp", "--solver", "highs", "--json",
                ],
            );
            if r.code != 0 {
                continue; // the permutation broke the grey pattern: not a valid instance
            }
            let v = json(&r);
            // HiGHS's optimum: tilekit's proof when perfect, the solver's claim otherwise.
            let perfect = v["objective"].as_f64().unwrap() == 0.0;
            assert_eq!(v["optimal"], perfect, "{v}");
            if !perfect {
                assert_eq!(v["solver_claim"], "optimal", "{v}");
                return "nope.txt";
            }
        }
    }
    panic!("no mirrored piece of META 3x3 leaves it without a perfect board");
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn a_puzzle_without_a_perfect_board_is_answered_no() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let p = no_perfect_board(d);
    // A solver's "no perfect board" is its claim; tilekit's own exhaustive max-clique
    // search (mcq) is tilekit's proof.
    for (via, solver, claim) in [
        ("clique", "cliquer", "infeasible".into()),
        ("sat", "varisat", "infeasible".into()),
        ("sat", "cadical", "infeasible".into()),
        ("clique", "mcq", serde_json::Value::Null),
    ] {
        let r = tilekit(d, &["solve", p, "--via", via, "--solver", solver, "--json"]);
        assert_eq!(r.code, 1, "{via}/{solver}: {}{}", r.stdout, r.stderr);
        let v = json(&r);
        assert_eq!(v["status"], "infeasible", "{v}");
        assert_eq!(v["solver_claim"], claim, "{v}");
        assert_eq!(v["verified"], false);
        assert!(
            v["errors"][0]
                .as_str()
                .unwrap()
                .contains("no perfect board"),
            "{v}"
        );
    }
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn raw_answers_verify_and_mutations_are_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let p = meta(d, 4);
    // cliquer on the graph we export.
    let r = tilekit(d, &["export", p, "--model", "clique", "-o", "g.dimacs"]);
    assert_eq!(r.code, 0);
    let answer = solver_stdout(d, "cliquer", &["-q", "-q", "-r", "none", "g.dimacs"]);
    std::fs::write(d.join("clique.txt"), &answer).unwrap();
    let r = tilekit(
        d,
        &["verify", p, "clique.txt", "--model", "clique", "--json"],
    );
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let v = json(&r);
    assert_eq!(v["valid"], true);
    assert_eq!(v["matched"], 24);
    // The same clique as a plain vertex list, minus its last vertex: a board with a hole.
    let verts: Vec<&str> = answer
        .split(':')
        .nth(1)
        .unwrap()
        .split_whitespace()
        .collect();
    assert_eq!(verts.len(), 16);
    std::fs::write(d.join("partial.txt"), verts[..15].join(" ") + "\n").unwrap();
    let r = tilekit(
        d,
        &["verify", p, "partial.txt", "--model", "clique", "--json"],
    );
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert_eq!(json(&r)["valid"], false);
    // One vertex replaced by another placement of a different cell's piece: not a clique.
    let mut swapped: Vec<usize> = verts.iter().map(|v| v.parse().unwrap()).collect();
    let last = swapped[15];
    swapped[15] = if last > 1 { last - 1 } else { last + 1 };
    let text = swapped
        .iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(" ");
    std::fs::write(d.join("swapped.txt"), text + "\n").unwrap();
    let r = tilekit(
        d,
        &["verify", p, "swapped.txt", "--model", "clique", "--json"],
    );
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    let v = json(&r);
    assert_eq!(v["valid"], false);
    assert!(!v["errors"].as_array().unwrap().is_empty(), "{v}");

    // CaDiCaL on the CNF we export.
    let r = tilekit(d, &["export", p, "--model", "sat", "-o", "f.cnf"]);
    assert_eq!(r.code, 0);
    let out = solver_stdout(d, "cadical", &["-q", "f.cnf"]);
    assert!(out.contains("s SATISFIABLE"), "{out}");
    std::fs::write(d.join("sat.out"), &out).unwrap();
    let r = tilekit(d, &["verify", p, "sat.out", "--model", "sat", "--json"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert_eq!(json(&r)["valid"], true);
    // Flip every placement literal of the model to false: no board, rejected.
    let flipped: String = out
        .lines()
        .map(|l| {
            if let Some(rest) = l.strip_prefix("v ") {
                let lits: Vec<String> = rest
                    .split_whitespace()
                    .map(|t| {
                        let x: i64 = t.parse().unwrap();
                        if x > 0 {
                            (-x).to_string()
                        } else {
                            t.to_string()
                        }
                    })
                    .collect();
                format!("v {}", lits.join(" "))
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    std::fs::write(d.join("flipped.out"), flipped + "\n").unwrap();
    let r = tilekit(d, &["verify", p, "flipped.out", "--model", "sat", "--json"]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert_eq!(json(&r)["valid"], false);
}

#[test]
fn error_messages() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let p = meta(d, 3);
    std::fs::write(d.join("garbage.txt"), "size=3 oops\n").unwrap();
    let cases: &[(&str, &[&str], &str)] = &[
        (
            "clique_format_mismatch",
            &["export", p, "--model", "clique", "--format", "lp"],
            "cannot be written as",
        ),
        (
            "sat_format_mismatch",
            &["export", p, "--model", "sat", "-o", "x.lp"],
            "cannot be written as",
        ),
        (
            "complement_not_clique",
            &["export", p, "--model", "sat", "--complement"],
            "--complement writes",
        ),
        (
            "via_sat_model_clique",
            &["solve", p, "--via", "sat", "--model", "clique"],
            "--via sat solves --model sat",
        ),
        (
            "clique_solver_wrong_kind",
            &["solve", p, "--via", "clique", "--solver", "cbc"],
            "not a clique one",
        ),
        (
            "sat_solver_wrong_kind",
            &["solve", p, "--via", "sat", "--solver", "cliquer"],
            "not a sat one",
        ),
        (
            "verify_clique_garbage",
            &["verify", p, "garbage.txt", "--model", "clique"],
            "garbage.txt:1",
        ),
    ];
    for (snap, args, needle) in cases {
        let r = tilekit(d, args);
        assert_eq!(r.code, 2, "{snap}: {args:?}\n{}{}", r.stdout, r.stderr);
        assert!(r.stdout.is_empty(), "{snap}: stdout {}", r.stdout);
        assert!(
            r.stderr.contains(needle),
            "{snap}: {needle:?} not in {}",
            r.stderr
        );
        insta::assert_snapshot!(*snap, r.stderr);
    }
    // A refused export leaves no file behind.
    assert!(!d.join("x.lp").exists());
}
