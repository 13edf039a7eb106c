//! The CNF of edge-matching puzzles: META 2010 3×3 to 5×5 solved by the embedded varisat and
//! by the external CaDiCaL, Kissat and MiniSat through the registry; generated puzzles round
//! trip; a valid puzzle without a perfect board is unsatisfiable (cross-checked by exhaustive
//! search); a snapshot of a tiny CNF. Every model is checked against the formula, decoded and
//! verified by the independent checker.
//!
//! A missing solver fails these tests loudly; without the `solver-tests` feature (`TILEKIT_SKIP_SOLVERS=1`) they show as ignored.

use crate::common::builtin;
use std::path::{Path, PathBuf};
use std::time::Duration;
use tilekit::SatOutcome;
use tilekit::format::dimacs_cnf::write_cnf;
use tilekit::formulate::edge_sat::{self, DecodeError, EdgeSat, SatOptions};
use tilekit::puzzle::edge::{EdgePuzzle, generate};
use tilekit::solve::milp_external::solve_sat_file;
use tilekit::solve::registry::SolverEntry;
use tilekit::solve::sat_embedded::solve_varisat_checked;
use tilekit::verify::edge::BoardChecker;

fn meta(n: usize) -> EdgePuzzle {
    let rel = format!("models/edge-matching/meta2010/pieces_{n:02}x{n:02}.txt");
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(&rel);
    EdgePuzzle::parse(&std::fs::read_to_string(path).unwrap(), &rel).unwrap()
}

fn write(enc: &EdgeSat, dir: &Path, name: &str) -> PathBuf {
    let path = dir.join(name);
    let f = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    write_cnf(enc.cnf(), f).unwrap();
    path
}

/// A SAT answer must satisfy the formula, decode, and verify perfect.
fn check_perfect(p: &EdgePuzzle, enc: &EdgeSat, outcome: SatOutcome, what: &str) {
    let SatOutcome::Sat(model) = outcome else {
        panic!("{what}: {outcome:?}")
    };
    assert_eq!(enc.cnf().first_violated(&model), None, "{what}");
    let board = enc.decode(&model).unwrap();
    let v = BoardChecker.verdict(p, &board, Some(0.0));
    assert!(v.valid && v.matched == v.max, "{what}: {v:?}");
}

fn external(entry: &SolverEntry, enc: &EdgeSat, dir: &Path, name: &str) -> SatOutcome {
    let path = write(enc, dir, name);
    let (outcome, run) = solve_sat_file(
        entry,
        &path,
        dir,
        Duration::from_secs(60),
        enc.cnf().num_vars(),
    )
    .unwrap();
    assert!(!run.timed_out, "{}: {name} timed out", entry.name);
    outcome
}

#[test]
fn meta_3x3_to_5x5_with_varisat() {
    for n in 3..=5 {
        let p = meta(n);
        for fix in [false, true] {
            let enc = edge_sat::build(
                &p,
                &SatOptions {
                    fix_first_corner: fix,
                },
            );
            let outcome = solve_varisat_checked(enc.cnf()).unwrap();
            check_perfect(&p, &enc, outcome, &format!("varisat {n}x{n} fix {fix}"));
        }
    }
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn meta_3x3_to_5x5_with_external_solvers() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["cadical", "kissat", "minisat"] {
        let entry = builtin(name);
        for n in 3..=5 {
            let p = meta(n);
            let enc = edge_sat::build(&p, &SatOptions::default());
            let outcome = external(&entry, &enc, dir.path(), &format!("meta{n}.cnf"));
            check_perfect(&p, &enc, outcome, &format!("{name} {n}x{n}"));
        }
    }
}

#[test]
fn generated_puzzles_round_trip_through_varisat() {
    for seed in 0..12u64 {
        let (rows, cols) = [(2, 2), (2, 4), (3, 3), (3, 5), (4, 4), (5, 4)][seed as usize % 6];
        let (p, planted) = generate(rows, cols, 2, 3, seed).unwrap();
        let enc = edge_sat::build(&p, &SatOptions::default());
        let outcome = solve_varisat_checked(enc.cnf()).unwrap();
        check_perfect(&p, &enc, outcome, &format!("{rows}x{cols} seed {seed}"));
        // The planted board's placements are variables of the formula.
        for (cell, c) in planted.cells.iter().enumerate() {
            let (piece, rot) = c.unwrap();
            assert!(
                enc.placement_var(piece, cell / cols, cell % cols, rot)
                    .is_some(),
                "seed {seed}"
            );
        }
    }
}

/// META 3×3 with one piece's sides permuted (not rotated): the same colours, so the file
/// stays valid (kinds, parity), but no perfect board is left. The first such variant in a
/// fixed order of pieces and permutations.
fn broken_3x3() -> EdgePuzzle {
    let p = meta(3);
    let perms = [
        [1, 0, 2, 3],
        [0, 2, 1, 3],
        [0, 1, 3, 2],
        [2, 1, 0, 3],
        [0, 3, 2, 1],
    ];
    for piece in 0..9 {
        for perm in perms {
            let mut colours = p.colours();
            let c = colours[piece];
            colours[piece] = perm.map(|i| c[i]);
            if let Ok(q) = EdgePuzzle::new(3, 3, colours)
                && count_perfect(&q) == 0
            {
                return q;
            }
        }
    }
    panic!("no single-piece permutation of META 3x3 leaves it without a perfect board");
}

/// Perfect boards of a puzzle by exhaustive search from the rules alone (no encoding).
fn count_perfect(p: &EdgePuzzle) -> usize {
    let (rows, cols) = (p.rows(), p.cols());
    let n = rows * cols;
    fn rec(p: &EdgePuzzle, cell: usize, placed: &mut Vec<[u16; 4]>, used: &mut [bool]) -> usize {
        let (rows, cols) = (p.rows(), p.cols());
        if cell == rows * cols {
            return 1;
        }
        let (r, c) = (cell / cols, cell % cols);
        let mut total = 0;
        for (i, piece) in p.pieces().iter().enumerate() {
            if used[i] {
                continue;
            }
            let mut seen = Vec::new();
            for rot in tilekit::puzzle::edge::Rotation::ALL {
                let s = piece.placed(rot);
                if seen.contains(&s) {
                    continue;
                }
                seen.push(s);
                let out = [r == 0, c + 1 == cols, r + 1 == rows, c == 0];
                if (0..4).any(|d| (s[d] == 0) != out[d]) {
                    continue;
                }
                if c > 0 && placed[cell - 1][1] != s[3] {
                    continue;
                }
                if r > 0 && placed[cell - cols][2] != s[0] {
                    continue;
                }
                used[i] = true;
                placed.push(s);
                total += rec(p, cell + 1, placed, used);
                placed.pop();
                used[i] = false;
            }
        }
        total
    }
    rec(p, 0, &mut Vec::with_capacity(n), &mut vec![false; n])
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn a_puzzle_without_a_perfect_board_is_unsat() {
    let p = broken_3x3();
    assert_eq!(count_perfect(&p), 0);
    assert!(count_perfect(&meta(3)) > 0);
    for fix in [false, true] {
        let enc = edge_sat::build(
            &p,
            &SatOptions {
                fix_first_corner: fix,
            },
        );
        assert_eq!(
            solve_varisat_checked(enc.cnf()).unwrap(),
            SatOutcome::Unsat,
            "fix {fix}"
        );
    }
    let cadical = builtin("cadical");
    let dir = tempfile::tempdir().unwrap();
    let enc = edge_sat::build(&p, &SatOptions::default());
    assert_eq!(
        external(&cadical, &enc, dir.path(), "broken.cnf"),
        SatOutcome::Unsat
    );
}

#[test]
fn model_counts_equal_perfect_board_counts() {
    // Block each model's placements until UNSAT: the number of models (projected on the
    // placement variables) must equal the exhaustive count of perfect boards.
    for (rows, cols, seed) in [(3, 3, 1), (2, 4, 2), (3, 4, 3)] {
        let (p, _) = generate(rows, cols, 2, 2, seed).unwrap();
        let want = count_perfect(&p);
        let enc = edge_sat::build(&p, &SatOptions::default());
        let mut cnf = enc.cnf().clone();
        let placements = enc.placements().nodes().len();
        let mut found = 0;
        loop {
            match solve_varisat_checked(&cnf).unwrap() {
                SatOutcome::Sat(model) => {
                    found += 1;
                    assert!(found <= want, "{rows}x{cols}: more models than boards");
                    let block: Vec<_> = (0..placements)
                        .filter(|&v| model[v])
                        .map(|v| tilekit::BoolVar(v as u32).negative())
                        .collect();
                    cnf.add_clause(&block);
                }
                SatOutcome::Unsat => break,
                SatOutcome::Unknown => panic!("varisat gave up"),
            }
        }
        assert_eq!(found, want, "{rows}x{cols} seed {seed}");
        assert!(want > 0);
    }
}

#[test]
fn tiny_cnf_snapshot() {
    let (p, _) = generate(2, 3, 2, 1, 4).unwrap();
    let enc = edge_sat::build(&p, &SatOptions::default());
    let mut out = Vec::new();
    write_cnf(enc.cnf(), &mut out).unwrap();
    insta::assert_snapshot!("tiny_2x3_cnf", String::from_utf8(out).unwrap());
}

#[test]
fn decode_errors() {
    let (p, _) = generate(2, 2, 2, 0, 1).unwrap();
    let enc = edge_sat::build(&p, &SatOptions::default());
    let n = enc.cnf().num_vars();
    let msgs = [
        enc.decode(&[true]).unwrap_err(),
        enc.decode(&vec![false; n]).unwrap_err(),
        enc.decode(&vec![true; n]).unwrap_err(),
    ];
    assert_eq!(msgs[0], DecodeError::ModelTooShort { got: 1, want: n });
    insta::assert_snapshot!(
        "sat_decode_errors",
        msgs.iter()
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
            .join("\n")
    );
}
