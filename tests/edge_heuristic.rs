//! `solve --via heuristic` and `export --model region` (Salassa et al. §3): region MILPs
//! written by tilekit and solved by the real CBC, HiGHS and GAMS (only with the `test-gams`
//! feature: see `crate::common::gams`) agree with the in-process solve;
//! the construction reaches the paper's range on META 10×10; runs are deterministic and
//! anytime; flags are checked.

use crate::common::{self, json, tilekit};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};
use tilekit::edge_search::{Ctx, RegionOutcome, Rng, solve_region};
use tilekit::formulate::edge_region::RegionSpec;
use tilekit::puzzle::edge::{Board, EdgePuzzle, parse_any_board};

fn quiet(_: &str) {}

/// The board file `path` with rows `rows` emptied, as a partial board file (`R C`, then
/// `row col piece rot` per kept cell).
fn partial_without_rows(path: &Path, rows: std::ops::RangeInclusive<usize>) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty());
    let mut out = format!("{}\n", lines.next().unwrap());
    for l in lines {
        let f: Vec<&str> = l.split_whitespace().collect();
        let r: usize = f[0].parse().unwrap();
        if !rows.contains(&r) {
            out.push_str(&format!("{} {} {} {}\n", f[0], f[1], f[2], f[3]));
        }
    }
    out
}

/// The objective of the exported region model solved in process by `solver` (through
/// tilekit's checked `solve_region`).
fn in_process(
    p: &EdgePuzzle,
    partial: &Board,
    solver: &dyn tilekit::solve::MilpSolver,
    rows: (usize, usize),
) -> usize {
    let ctx = Ctx {
        puzzle: p,
        milp: solver,
        rng: Rng::new(1),
        deadline: Instant::now() + Duration::from_secs(120),
        threads: 1,
        progress: &quiet,
        frozen: Vec::new(),
    };
    let spec = RegionSpec::rectangle(p, partial, (rows.0, 0), (rows.1, p.cols() - 1));
    match solve_region(&ctx, partial, &spec).unwrap() {
        RegionOutcome::Filled {
            unmatched, optimal, ..
        } => {
            assert!(optimal, "{} proves its region optimal", solver.name());
            unmatched
        }
        other => panic!("{}: {other:?}", solver.name()),
    }
}

/// META 7×7 as the heuristic fills it, rows 3 and 4 emptied: the instance's file name in `d`,
/// the puzzle, the partial board (`d/partial.txt`) and the region's optimum solved in
/// process by microlp.
fn emptied_rows(d: &Path) -> (&'static str, EdgePuzzle, Board, usize) {
    let inst = common::meta(d, 7);
    let r = tilekit(
        d,
        &[
            "solve",
            inst,
            "--via",
            "heuristic",
            "--construct",
            "greedy",
            "--improve",
            "none",
            "-o",
            "board.txt",
        ],
    );
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    std::fs::write(
        d.join("partial.txt"),
        partial_without_rows(&d.join("board.txt"), 3..=4),
    )
    .unwrap();
    let text = std::fs::read_to_string(d.join(inst)).unwrap();
    let p = EdgePuzzle::parse(&text, inst).unwrap();
    let partial = parse_any_board(
        &std::fs::read_to_string(d.join("partial.txt")).unwrap(),
        "partial.txt",
        &p,
    )
    .unwrap();
    let microlp = in_process(
        &p,
        &partial,
        &tilekit::solve::milp_embedded::Microlp,
        (3, 4),
    );
    (inst, p, partial, microlp)
}

/// `export --model region` of rows 3 and 4 into `d/file`.
fn export_region(d: &Path, inst: &str, file: &str) {
    let r = tilekit(
        d,
        &[
            "export",
            inst,
            "--model",
            "region",
            "--region",
            "3,0,4,6",
            "--partial",
            "partial.txt",
            "-o",
            file,
        ],
    );
    assert_eq!(r.code, 0, "{file}: {}", r.stderr);
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn region_models_solved_by_cbc_and_highs_agree_with_the_in_process_solve() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (inst, p, partial, microlp) = emptied_rows(d);
    export_region(d, inst, "r.lp");
    export_region(d, inst, "r.mps");
    let lp = std::fs::read_to_string(d.join("r.lp")).unwrap();
    assert!(
        lp.contains("model edge_region_7x7_14cells"),
        "{}",
        &lp[..200]
    );
    // CBC on the LP file, HiGHS on the MPS file, their answers read by tilekit's parsers.
    let cbc = Command::new("cbc")
        .current_dir(d)
        .args(["r.lp", "-solve", "-solu", "cbc.sol"])
        .output()
        .expect("cbc runs");
    assert!(cbc.status.success());
    let cbc = tilekit::format::solution::cbc::parse(
        &std::fs::read_to_string(d.join("cbc.sol")).unwrap(),
        "cbc.sol",
    )
    .unwrap();
    let highs = Command::new("highs")
        .current_dir(d)
        .args(["--model_file", "r.mps", "--solution_file", "highs.sol"])
        .output()
        .expect("highs runs");
    assert!(highs.status.success());
    let highs = tilekit::format::solution::highs::parse(
        &std::fs::read_to_string(d.join("highs.sol")).unwrap(),
        "highs.sol",
    )
    .unwrap();
    assert_eq!(
        cbc.objective.map(|o| o.round() as usize),
        Some(microlp),
        "CBC vs microlp"
    );
    assert_eq!(
        highs.objective.map(|o| o.round() as usize),
        Some(microlp),
        "HiGHS vs microlp"
    );
    // The registry's CBC and HiGHS, run on the model tilekit writes for them, agree too.
    let reg = tilekit::solve::registry::Registry::load(None).unwrap();
    for name in ["cbc", "highs"] {
        let solver = reg.milp(name).unwrap();
        assert_eq!(
            in_process(&p, &partial, &*solver, (3, 4)),
            microlp,
            "{name}"
        );
    }
}

/// GAMS (its bundled solver) on the algebraic form: the same optimum, and its solution file
/// names the LP model's variables, so it maps back onto that model and passes its checks.
#[test]
#[cfg_attr(not(feature = "test-gams"), ignore = "needs a licensed GAMS")]
fn region_model_solved_by_gams_agrees_with_the_in_process_solve() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (inst, p, partial, microlp) = emptied_rows(d);
    export_region(d, inst, "r.gms");
    let gams = common::gams(d, "r.gms", &["lo=0"]);
    assert!(
        gams.status.success(),
        "{}",
        String::from_utf8_lossy(&gams.stdout)
    );
    let gams = tilekit::format::gams::parse_gams_solution(
        &std::fs::read_to_string(d.join(tilekit::format::gams::SOLUTION_FILE)).unwrap(),
        "tilekit_solution.txt",
    )
    .unwrap();
    assert_eq!(
        gams.objective.map(|o| o.round() as usize),
        Some(microlp),
        "GAMS vs microlp"
    );
    let spec = RegionSpec::rectangle(&p, &partial, (3, 0), (4, 6));
    let region = tilekit::formulate::edge_region::build(&p, &partial, &spec).unwrap();
    let x = gams.resolve(&region.model).unwrap();
    let verdict = tilekit::verify::milp::check_point(&region.model, &x, gams.objective);
    assert!(verdict.errors.is_empty(), "{:?}", verdict.errors);
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn greedy_1xn_on_meta_10x10_reaches_the_papers_range_and_is_deterministic() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let inst = common::meta(d, 10);
    let run = |seed: &str| {
        let r = tilekit(
            d,
            &[
                "solve",
                inst,
                "--via",
                "heuristic",
                "--construct",
                "greedy",
                "--improve",
                "none",
                "--seed",
                seed,
                "--json",
                "-o",
                &format!("b{seed}.txt"),
            ],
        );
        assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
        json(&r)
    };
    let a = run("3");
    // Salassa et al.'s Table 3: greedy 1 x 10 gave 158 to 165 over 20 runs.
    let matched = a["matched"].as_u64().unwrap();
    assert!(matched >= 158, "{a}");
    assert_eq!(a["verified"], true);
    assert_eq!(a["max"], 180);
    assert_eq!(a["optimal"], false);
    assert_eq!(a["trace"][0][1], matched);
    assert_eq!(a["trace"][0][2], "greedy");
    // The same seed and solver give the same board, byte for byte.
    let b = run("3");
    assert_eq!(b["matched"], a["matched"]);
    let bytes = |f: &str| std::fs::read(d.join(f)).unwrap();
    std::fs::rename(d.join("b3.txt"), d.join("again.txt")).unwrap();
    run("3");
    assert_eq!(bytes("b3.txt"), bytes("again.txt"));
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn backtracking_finds_a_planted_board_and_fixes_are_honoured() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let r = tilekit(
        d,
        &[
            "generate",
            "edge",
            "--rows",
            "4",
            "--cols",
            "4",
            "--frame-colours",
            "2",
            "--inner-colours",
            "3",
            "--seed",
            "5",
            "-o",
            "p.txt",
            "--solution",
            "planted.txt",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    // Fix the planted piece of cell (1, 1) where the planted board has it.
    let planted = std::fs::read_to_string(d.join("planted.txt")).unwrap();
    let cell = planted
        .lines()
        .find(|l| l.starts_with("1 1 "))
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .unwrap();
    let fix = format!("{}@1,1,{}", cell[2], cell[3]);
    let r = tilekit(
        d,
        &[
            "solve",
            "p.txt",
            "--via",
            "heuristic",
            "--construct",
            "backtrack",
            "--improve",
            "none",
            "--fix",
            &fix,
            "--json",
            "-o",
            "b.txt",
        ],
    );
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let v = json(&r);
    assert_eq!(v["matched"], 24, "{v}");
    assert_eq!(v["optimal"], true);
    let board = std::fs::read_to_string(d.join("b.txt")).unwrap();
    assert!(
        board
            .lines()
            .any(|l| l.starts_with(&format!("1 1 {} {}", cell[2], cell[3]))),
        "{board}"
    );
}

#[test]
fn heuristic_flags_are_checked() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let inst = common::meta(d, 5);
    let cases: [(&[&str], &str); 8] = [
        (
            &[
                "--via",
                "heuristic",
                "--construct",
                "backtrack",
                "--backtrack-time",
                "0",
            ],
            "backtrack.time takes seconds, not \"0\"",
        ),
        (
            &["--via", "heuristic", "--fix", "999@0,0,0"],
            "the puzzle has no piece 999",
        ),
        (
            &["--via", "heuristic", "--fix", "1@9,0,0"],
            "the cell is off the 5×5 board",
        ),
        (
            &[
                "--via",
                "heuristic",
                "--construct",
                "greedy",
                "--region",
                "0x2",
            ],
            "greedy.region takes RxC, e.g. 1xn, 2xn, 3x3 (n: the board's width), not \"0x2\"",
        ),
        (
            &[
                "--via",
                "heuristic",
                "--construct",
                "greedy",
                "--region",
                "9x9",
            ],
            "the region 9x9 (greedy.region) does not fit the 5×5 board: at most 5 rows and 5 columns",
        ),
        (
            &["--via", "heuristic", "--model", "milp"],
            "--model milp does not apply to --via heuristic",
        ),
        (
            &["--via", "milp", "--construct", "greedy"],
            "--construct belongs to --via heuristic",
        ),
        (
            &["--via", "heuristic", "--filter"],
            "--filter does not apply",
        ),
    ];
    for (flags, want) in cases {
        let args: Vec<&str> = ["solve", inst].iter().chain(flags).copied().collect();
        let r = tilekit(d, &args);
        assert_eq!(r.code, 2, "{flags:?}: {}{}", r.stdout, r.stderr);
        assert!(r.stderr.contains(want), "{flags:?}: {}", r.stderr);
    }
    let r = tilekit(
        d,
        &[
            "export", inst, "--model", "region", "--region", "0,0,0,4", "-o", "x.lp",
        ],
    );
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("--model region needs --region"),
        "{}",
        r.stderr
    );
    std::fs::write(d.join("empty.txt"), "5 5\n").unwrap();
    let r = tilekit(
        d,
        &[
            "export",
            inst,
            "--model",
            "region",
            "--region",
            "0,0,0,4",
            "--partial",
            "empty.txt",
            "-o",
            "x.cnf",
        ],
    );
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("--model region is written as lp, mps or gms"),
        "{}",
        r.stderr
    );
    let r = tilekit(
        d,
        &[
            "export",
            inst,
            "--model",
            "region",
            "--region",
            "0,0,5,4",
            "--partial",
            "empty.txt",
            "-o",
            "x.lp",
        ],
    );
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("cell (5, 0) of the region is off the 5×5 board"),
        "{}",
        r.stderr
    );
}

/// Greedy construction and the local search reach a perfect board on generated puzzles with a
/// planted solution: 5×5 and 6×6, generator seeds 1 to 5 (each within a few seconds here).
#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn greedy_and_local_search_reach_planted_boards() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for (n, seed) in [5, 6]
        .into_iter()
        .flat_map(|n| (1..=5).map(move |seed| (n, seed)))
    {
        let (n, seed) = (n.to_string(), seed.to_string());
        let r = tilekit(
            d,
            &[
                "generate",
                "edge",
                "--rows",
                &n,
                "--cols",
                &n,
                "--frame-colours",
                "3",
                "--inner-colours",
                "4",
                "--seed",
                &seed,
                "-o",
                "g.txt",
                "--solution",
                "gs.txt",
            ],
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
        let r = tilekit(
            d,
            &[
                "solve",
                "g.txt",
                "--via",
                "heuristic",
                "--construct",
                "greedy",
                "--seed",
                &seed,
                // The search stops once the board is perfect: the limit only guards a loaded
                // machine, so it is generous.
                "--time-limit",
                "300",
                "--json",
            ],
        );
        assert_eq!(r.code, 0, "{n}x{n} seed {seed}: {}{}", r.stdout, r.stderr);
        let v = json(&r);
        assert_eq!(v["matched"], v["max"], "{n}x{n} seed {seed}: {v}");
        assert_eq!(v["optimal"], true);
        assert_eq!(v["verified"], true);
    }
}

/// On META 10×10 the local search improves on its own construction, and the trace says which
/// neighbourhood gained what, in time order.
#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn local_search_improves_the_greedy_board_on_meta_10x10() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let inst = common::meta(d, 10);
    let r = tilekit(
        d,
        &[
            "solve",
            inst,
            "--via",
            "heuristic",
            "--construct",
            "greedy",
            "--seed",
            "2",
            "--time-limit",
            "40",
            "--json",
            "-o",
            "best.txt",
        ],
    );
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let v = json(&r);
    let trace = v["trace"].as_array().unwrap();
    assert_eq!(trace[0][2], "greedy");
    let constructed = v["constructed"].as_u64().unwrap();
    let matched = v["matched"].as_u64().unwrap();
    assert!(matched > constructed, "{v}");
    assert!(trace.len() >= 2, "{v}");
    for w in trace.windows(2) {
        assert!(
            w[1][0].as_f64() >= w[0][0].as_f64() && w[1][1].as_u64() > w[0][1].as_u64(),
            "{v}"
        );
    }
    assert_eq!(trace.last().unwrap()[1].as_u64(), Some(matched));
    // The anytime output holds the best board, and it is the one reported.
    let best = std::fs::read_to_string(d.join("best.txt")).unwrap();
    assert!(
        best.contains(&format!("# matched {matched} of 180")),
        "{}",
        &best[..120]
    );
}

/// The region model of a 3×3 planted board with its middle row emptied, restricted to a
/// perfect filling and with the planted filling cut off: LP, MPS and GAMS, byte for byte.
#[test]
fn region_model_snapshots() {
    use tilekit::format::gams::{GamsOptions, write_gms};
    use tilekit::format::{lp::write_lp, mps::write_mps};
    use tilekit::formulate::edge_region::{algebraic, build};
    let (p, planted) = tilekit::puzzle::edge::generate(3, 3, 2, 2, 3).unwrap();
    let mut partial = planted.clone();
    for c in 0..3 {
        partial.cells[3 + c] = None;
    }
    let mut spec = RegionSpec::rectangle(&p, &partial, (1, 0), (1, 2));
    spec.perfect = true;
    let first = build(&p, &partial, &spec).unwrap();
    spec.cuts.push(
        first
            .decode_placements(&first.point_of(&p, &planted))
            .unwrap(),
    );
    let files = || {
        let region = build(&p, &partial, &spec).unwrap();
        let (mut lp, mut mps, mut gms) = (Vec::new(), Vec::new(), Vec::new());
        write_lp(&region.model, &mut lp).unwrap();
        write_mps(&region.model, &mut mps).unwrap();
        write_gms(
            &algebraic(&p, &partial, &spec).unwrap(),
            &GamsOptions::default(),
            &mut gms,
        )
        .unwrap();
        let s = |b: Vec<u8>| String::from_utf8(b).unwrap();
        (s(lp), s(mps), s(gms))
    };
    let (lp, mps, gms) = files();
    insta::assert_snapshot!("edge_region_3x3_row1_perfect_cut_lp", lp);
    insta::assert_snapshot!("edge_region_3x3_row1_perfect_cut_mps", mps);
    insta::assert_snapshot!("edge_region_3x3_row1_perfect_cut_gms", gms);
    assert_eq!(files(), files(), "deterministic output");
}
