//! The search constructors (`--construct beam|dfs`): on generated puzzles every
//! board they report passes the independent checker and the DFS never spends more mismatches
//! than its budget allows at any depth (property test); a run with one thread and a restart
//! count is a function of its seed; fixed pieces stay put; flags are checked; and a 5-second
//! run on the official Eternity II set gives a verified, positive score (no timed assertion:
//! the scores are the benchmark's business).

use crate::common::{self, json, tilekit};
use proptest::prelude::*;
use std::path::PathBuf;
use tilekit::edge_search::beam::beam;
use tilekit::edge_search::core::{Core, ScanOrder};
use tilekit::edge_search::dfs::{BreakSpec, DfsParams, dfs};
use tilekit::edge_search::lns::{LnsParams, lns};
use tilekit::edge_search::quota::QuotaSpec;
use tilekit::puzzle::edge::{Board, EdgePuzzle, generate};
use tilekit::verify::Checker;
use tilekit::verify::edge::BoardChecker;

/// The checker's verdict on `board`, claiming `matched` (as unmatched seams).
fn verified(p: &EdgePuzzle, board: &Board, matched: usize) -> bool {
    let v = BoardChecker.check(p, board, Some((p.max_score() - matched) as f64));
    v.valid && v.errors.is_empty()
}

/// Mismatched seams among the first `k` cells of `order` on `board`, counted from the board
/// with the puzzle's own colours (nothing of the core).
fn prefix_breaks(p: &EdgePuzzle, order: &[usize], board: &Board, k: usize) -> usize {
    let cols = board.cols;
    let mut placed = vec![false; board.cells.len()];
    for &c in &order[..k] {
        placed[c] = true;
    }
    let side = |cell: usize, s: usize| {
        let (id, rot) = board.cells[cell].expect("a placed cell");
        p.piece(id).unwrap().placed(rot)[s]
    };
    let mut breaks = 0;
    for &c in &order[..k] {
        if c % cols + 1 < cols && placed[c + 1] && side(c, 1) != side(c + 1, 3) {
            breaks += 1;
        }
        if c + cols < board.cells.len() && placed[c + cols] && side(c, 2) != side(c + cols, 0) {
            breaks += 1;
        }
    }
    breaks
}

const ORDERS: [ScanOrder; 4] = [
    ScanOrder::RowMajor,
    ScanOrder::ColMajor,
    ScanOrder::Comb(usize::MAX),
    ScanOrder::Diagonal,
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn search_boards_always_verify_and_the_budget_holds(
        rows in 3usize..9,
        cols in 3usize..9,
        frame in 1u16..4,
        inner in 2u16..9,
        seed in 1u64..1_000,
        order in 0usize..4,
        total in 0u16..5,
        width in 1usize..300,
        threads in 1usize..3,
    ) {
        let (p, planted) = generate(rows, cols, frame, inner, seed).unwrap();
        // Sometimes a fixed piece, taken from the planted board.
        let mut fixed = Board::empty(rows, cols);
        if seed % 3 == 0 {
            let cell = (seed as usize * 7) % (rows * cols);
            fixed.cells[cell] = planted.cells[cell];
        }
        let mut core = Core::new(&p, &fixed).unwrap();
        // Half the cases rank the beam's children with the look-ahead.
        core.set_lookahead(seed % 2 == 1);
        let core = core;
        let order = ORDERS[order];
        let b = beam(&core, order, width, seed, threads, None);
        let board = core.board(&b.cells);
        prop_assert!(verified(&p, &board, b.matched), "beam board fails the checker");
        for (c, f) in fixed.cells.iter().enumerate() {
            if f.is_some() {
                prop_assert_eq!(board.cells[c], *f);
            }
        }
        // The LNS from that board, by assignment only and by both repairs.
        for share in [1.0, 0.5] {
            let params = LnsParams {
                iterations: Some(60),
                seed,
                threads,
                assign_share: share,
                ..LnsParams::default()
            };
            let l = lns(&core, &b.cells, &params, None, &|_, _| {});
            let board = core.board(&l.cells);
            prop_assert!(l.matched >= b.matched, "the LNS lost seams");
            prop_assert!(verified(&p, &board, l.matched), "lns board fails the checker");
            for (c, f) in fixed.cells.iter().enumerate() {
                if f.is_some() {
                    prop_assert_eq!(board.cells[c], *f);
                }
            }
        }
        // The budget counts the cells the search places: the fixed one is there first.
        let n = rows * cols - fixed.cells.iter().flatten().count();
        let breaks = BreakSpec::Total(total).table(n);
        // Half the cases under a colour quota on the colours of a rim piece (frame and
        // inner colours the puzzle surely has).
        let (id, rot) = planted.cells[1].expect("a planted board is full");
        let mut colours: Vec<u16> = p.piece(id).unwrap().placed(rot).into_iter().filter(|&c| c != 0).collect();
        colours.sort_unstable();
        colours.dedup();
        let spec = QuotaSpec::new(colours);
        let quota = (seed % 4 < 2).then(|| spec.resolve(&core, order).unwrap());
        let params = DfsParams {
            order,
            breaks: breaks.clone(),
            alt_breaks: Some(BreakSpec::Total(total + 2).table(n)),
            quota: quota.clone(),
            // Sometimes several deep boards finished: each obeys the budget.
            finishes: 1 + (seed % 3) as usize,
            // Sometimes cells taken back and placed again by the finishing beam.
            finish_back: (seed % 2) as usize * 6,
            node_cap: 20_000,
            restarts: Some(3),
            seed,
            threads,
        };
        let r = dfs(&core, &params, None, None, &|_, _| {}, &|_| {});
        let board = core.board(&r.cells);
        prop_assert!(verified(&p, &board, r.matched), "dfs board fails the checker");
        let partial = core.board(&r.partial);
        let cells = order.cells(rows, cols);
        let budget = if r.budget == 0 { &breaks } else { params.alt_breaks.as_ref().unwrap() };
        prop_assert!(r.budget == 0 || threads > 1);
        // Walk the scan over the partial board: `seen` free cells placed among the first k.
        let placed_free = r.depth - (rows * cols - n);
        let mut seen = 0;
        // Sides in the quota's colours on the free cells placed so far, from the puzzle.
        let mut counted = 0u16;
        for k in 1..=cells.len() {
            let cell = cells[k - 1];
            if fixed.cells[cell].is_none() {
                seen += 1;
                if seen <= placed_free {
                    let (id, rot) = partial.cells[cell].expect("a placed cell");
                    counted += p.piece(id).unwrap().placed(rot).iter()
                        .filter(|c| spec.colours.contains(c))
                        .count() as u16;
                }
            }
            if seen > placed_free {
                break;
            }
            let allowed = if seen == 0 { 0 } else { budget.0[seen - 1] };
            prop_assert!(
                prefix_breaks(&p, &cells, &partial, k) <= allowed as usize,
                "more breaks than allowed among the first {} cells", k
            );
            if let (Some(q), true) = (&quota, seen > 0) {
                prop_assert!(
                    counted >= q.table[seen - 1],
                    "{} counted sides once {} cells are placed, below the quota's {}",
                    counted, seen, q.table[seen - 1]
                );
            }
        }
    }
}

#[test]
#[cfg_attr(
    not(feature = "slow-tests"),
    ignore = "slow tier: complete searches of two planted 7x7 boards, a minute or more on 2 cores; the smaller planted boards run in the quick tier (scripts/test.sh --full)"
)]
fn an_exact_dfs_finds_planted_seven_by_seven_boards() {
    // META-like colour counts scaled down: few frame colours, several inner ones.
    for (n, inner, seed) in [(7, 7, 1), (7, 8, 3)] {
        let (p, _) = generate(n, n, 3, inner, seed).unwrap();
        let core = Core::new(&p, &Board::empty(n, n)).unwrap();
        let params = DfsParams {
            order: ScanOrder::RowMajor,
            breaks: BreakSpec::Total(0).table(n * n),
            alt_breaks: None,
            quota: None,
            finishes: 1,
            finish_back: 0,
            node_cap: 50_000_000,
            restarts: Some(20),
            seed: 1,
            threads: 1,
        };
        let r = dfs(&core, &params, None, None, &|_, _| {}, &|_| {});
        assert_eq!(r.matched, p.max_score(), "{n}×{n}");
        assert!(r.searched_complete);
        assert!(verified(&p, &core.board(&r.cells), r.matched));
    }
}

fn run_board(d: &std::path::Path, args: &[&str], out: &str) -> (serde_json::Value, String) {
    let mut all = vec!["solve", "p.txt", "--via", "heuristic", "--json", "-o", out];
    all.extend_from_slice(args);
    let r = tilekit(d, &all);
    assert_eq!(r.code, 0, "{args:?}: {}{}", r.stdout, r.stderr);
    let board = std::fs::read_to_string(d.join(out)).unwrap();
    (json(&r), board)
}

#[test]
fn one_thread_and_a_restart_count_make_a_run_a_function_of_its_seed() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    common::meta(d, 8);
    let args = [
        "--construct",
        "dfs",
        "--improve",
        "none",
        "--restarts",
        "6",
        "--node-cap",
        "200000",
        "--threads",
        "1",
        "--seed",
        "5",
        "--time-limit",
        "600",
        // The exact search's first share is timed: without it the run is the seed's.
        "--set",
        "dfs.exact_share=0",
    ];
    let (j1, b1) = run_board(d, &args, "a.txt");
    let (_, b2) = run_board(d, &args, "b.txt");
    assert_eq!(b1, b2, "same seed, same board");
    assert_eq!(j1["verified"], true);
    assert!(
        j1["solver_status"].as_str().unwrap().contains("6 restarts"),
        "{j1}"
    );
    // The search's own rate leaves out the finishing between restarts, which the overall
    // rate counts: never below it.
    let overall = j1["placements_per_second"].as_f64().unwrap();
    let own = j1["search_placements_per_second"].as_f64().unwrap();
    assert!(overall > 0.0 && own >= overall, "{j1}");
    // So is a run under a colour quota, and the report says which colours it counts.
    let quota = [&args[..], &["--set", "dfs.quota=1,2"]].concat();
    let (jq, bq) = run_board(d, &quota, "q1.txt");
    let (_, bq2) = run_board(d, &quota, "q2.txt");
    assert_eq!(bq, bq2, "same seed and quota, same board");
    assert_eq!(jq["verified"], true);
    assert!(
        jq["solver_status"]
            .as_str()
            .unwrap()
            .contains("colour quota on 1,2 ("),
        "{jq}"
    );
    let beam_args = [
        "--construct",
        "beam",
        "--improve",
        "none",
        "--beam-width",
        "300",
        "--scan",
        "diagonal",
        "--seed",
        "2",
    ];
    let (j3, b3) = run_board(d, &beam_args, "c.txt");
    let (_, b4) = run_board(d, &beam_args, "d.txt");
    assert_eq!(b3, b4);
    assert_eq!(j3["verified"], true);
    assert_eq!(j3["variant"], "beam_diagonal", "{j3}");
}

#[test]
fn search_flags_are_checked() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    common::meta(d, 5);
    let cases: [(&[&str], &str); 9] = [
        (
            &["--construct", "dfs", "--set", "dfs.quota=99"],
            "dfs.quota: colour 99 of the quota is on no piece of this puzzle",
        ),
        (
            &["--construct", "dfs", "--set", "dfs.quota=1,x"],
            "dfs.quota takes off, or colours C,C,… as the puzzle numbers them, not \"1,x\"",
        ),
        (
            &["--construct", "dfs", "--beam-width", "10"],
            "beam.width tunes the beam construction, which this run does not use (it runs the dfs construction)",
        ),
        (
            &["--construct", "beam", "--breaks", "3"],
            "dfs.breaks tunes the DFS construction, which this run does not use (it runs the beam construction)",
        ),
        (
            &["--construct", "greedy", "--scan", "comb"],
            "search.scan tunes the beam, DFS and exact search constructions, which this run does not use (it runs the greedy construction)",
        ),
        (
            &["--construct", "beam", "--scan", "spiral"],
            "search.scan takes rowmajor, colmajor, diagonal, comb or comb:K, not \"spiral\"",
        ),
        (
            &["--construct", "dfs", "--breaks", "8:1,5:2"],
            "dfs.breaks takes chain:N (N breaks where the board's fit chain places them), N",
        ),
        (
            &["--construct", "beam", "--region", "2xn"],
            "greedy.region tunes the greedy and backtracking constructions, which this run does not use (it runs the beam construction)",
        ),
        (
            &["--construct", "greedy", "--lookahead"],
            "search.lookahead tunes the beam, DFS and exact search constructions, which this run does not use (it runs the greedy construction)",
        ),
    ];
    for (flags, want) in cases {
        let mut args = vec!["solve", "p.txt", "--via", "heuristic"];
        args.extend_from_slice(flags);
        let r = tilekit(d, &args);
        assert_eq!(r.code, 2, "{flags:?}: {}{}", r.stdout, r.stderr);
        assert!(r.stderr.contains(want), "{flags:?}: {}", r.stderr);
    }
}

#[test]
fn five_seconds_on_eternity_ii_give_a_verified_positive_board() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("models/edge-matching/eternity2/e2pieces.txt");
    std::fs::copy(src, d.join("p.txt")).unwrap();
    for construct in ["beam", "dfs"] {
        let (j, board) = run_board(
            d,
            &[
                "--construct",
                construct,
                "--improve",
                "none",
                "--fix",
                "139@8,7,2",
                "--time-limit",
                "5",
            ],
            "e2.txt",
        );
        assert_eq!(j["verified"], true, "{construct}: {j}");
        assert!(j["matched"].as_u64().unwrap() > 0, "{construct}: {j}");
        assert!(board.lines().any(|l| l.starts_with("8 7 139 2")), "{board}");
        let v = tilekit(d, &["verify", "p.txt", "e2.txt", "--json"]);
        assert_eq!(v.code, 0, "{}{}", v.stdout, v.stderr);
        // The starter is one of the five clues; the search kept it.
        assert!(
            json(&v)["official_clues_kept"].as_u64() >= Some(1),
            "{}",
            v.stdout
        );
    }
}

#[test]
fn lns_keeps_the_board_legal_and_is_a_function_of_its_seed() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    common::meta(d, 8);
    let args = [
        "--construct",
        "beam",
        "--beam-width",
        "4",
        "--improve",
        "lns",
        "--lns-iterations",
        "300",
        "--threads",
        "1",
        "--seed",
        "4",
        "--time-limit",
        "600",
    ];
    let (j1, b1) = run_board(d, &args, "a.txt");
    let (_, b2) = run_board(d, &args, "b.txt");
    assert_eq!(b1, b2, "same seed, same board");
    assert_eq!(j1["verified"], true);
    let constructed = j1["constructed"].as_u64().unwrap();
    assert!(j1["matched"].as_u64().unwrap() >= constructed, "{j1}");
    assert!(
        j1["solver_status"]
            .as_str()
            .unwrap()
            .contains("lns: 300 repairs"),
        "{j1}"
    );
    let r = tilekit(
        d,
        &["solve", "p.txt", "--via", "heuristic", "--lns-width", "8"],
    );
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains(
            "lns.width tunes the large-neighbourhood search, which this run does not use"
        ),
        "{}",
        r.stderr
    );
}

/// `bench edge` with one run on one thread, and `args`.
fn bench_edge_once(d: &std::path::Path, args: &[&str]) -> common::Run {
    let mut all = vec!["bench", "edge", "--runs", "1", "--threads", "1"];
    all.extend_from_slice(args);
    tilekit(d, &all)
}

#[test]
fn bench_edge_prints_rows_keeps_verified_boards_and_draws_the_chart() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let r = bench_edge_once(
        d,
        &[
            "--instances",
            "10x10",
            "--methods",
            "beam,dfs+lns",
            "--budget",
            "2",
            "--boards",
            "boards",
            "--svg",
            "svg",
            "--json",
        ],
    );
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let row = |method: &str| {
        r.stdout
            .lines()
            .any(|l| l.split_whitespace().take(2).eq(["10x10", method]))
    };
    assert!(row("beam") && row("dfs+lns"), "{}", r.stdout);
    let rows: serde_json::Value = serde_json::from_str(r.stdout.lines().last().unwrap()).unwrap();
    assert_eq!(rows["rows"].as_array().unwrap().len(), 2);
    assert_eq!(rows["benchmark"], "edge");
    assert_eq!(rows["summary"]["best"][0]["instance"], "10x10");
    let svg = std::fs::read_to_string(d.join("svg/bench-edge-10x10.svg")).unwrap();
    assert!(svg.contains("<svg") && svg.contains("beam (best"), "{svg}");
    let inst = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("models/edge-matching/meta2010/pieces_10x10.txt");
    for method in ["beam", "dfs+lns"] {
        let board = d.join(format!("boards/10x10-{method}-2s.txt"));
        let text = std::fs::read_to_string(&board).unwrap();
        assert!(text.contains("# built by: tilekit solve"), "{text}");
        if method == "dfs+lns" {
            assert!(
                text.contains(
                    "--improve lns --time-limit 2 --threads 1 --seed 1 --set search.time=1.8"
                ),
                "{text}"
            );
        }
        let v = tilekit(
            d,
            &["verify", inst.to_str().unwrap(), board.to_str().unwrap()],
        );
        assert_eq!(v.code, 0, "{}{}", v.stdout, v.stderr);
        assert!(v.stdout.contains("valid"), "{}", v.stdout);
    }
    let r = tilekit(d, &["bench", "edge", "--methods", "beam+ls"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("optionally followed by +lns"),
        "{}",
        r.stderr
    );
    let r = tilekit(d, &["bench", "edge", "--instances", "9x9"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("no instance \"9x9\""), "{}", r.stderr);
    assert!(r.stderr.contains("EII and EII-clues"), "{}", r.stderr);
    let r = tilekit(d, &["bench", "sal", "--budget", "3"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("unexpected argument '--budget' found"),
        "{}",
        r.stderr
    );
}

#[test]
fn a_start_board_is_improved_and_a_bad_one_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    common::meta(d, 8);
    // A weak first board (a narrow beam), improved from the file: never worse, verified.
    let (j0, _) = run_board(
        d,
        &[
            "--construct",
            "beam",
            "--beam-width",
            "1",
            "--improve",
            "none",
            "--time-limit",
            "60",
        ],
        "first.txt",
    );
    let first = j0["matched"].as_u64().unwrap();
    let args = [
        "--start",
        "first.txt",
        "--lns-iterations",
        "400",
        "--threads",
        "1",
        "--time-limit",
        "600",
    ];
    let (j1, b1) = run_board(d, &args, "better.txt");
    assert_eq!(j1["verified"], true, "{j1}");
    assert_eq!(j1["constructed"].as_u64().unwrap(), first, "{j1}");
    assert!(j1["matched"].as_u64().unwrap() >= first, "{j1}");
    assert_eq!(j1["construct"], "start", "{j1}");
    let (_, b2) = run_board(d, &args, "again.txt");
    assert_eq!(
        b1, b2,
        "one thread and an iteration count: a function of the seed"
    );
    // Refusals: a board with a hole, one with a piece twice, a construction flag beside
    // --start, and a --fix piece the board does not hold. Each exits 2 naming the file.
    let text = std::fs::read_to_string(d.join("first.txt")).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    let last = lines.pop().unwrap();
    std::fs::write(d.join("holed.txt"), lines.join("\n") + "\n").unwrap();
    let dup_line = {
        let f: Vec<&str> = last.split_whitespace().collect();
        let other = lines
            .iter()
            .rev()
            .find(|l| l.split_whitespace().count() >= 4 && !l.starts_with('#'))
            .unwrap();
        let g: Vec<&str> = other.split_whitespace().collect();
        format!("{} {} {} {}", f[0], f[1], g[2], f[3])
    };
    std::fs::write(
        d.join("twice.txt"),
        lines.join("\n") + "\n" + &dup_line + "\n",
    )
    .unwrap();
    // An inner cell's piece in another rotation: legal there, but not what the board holds.
    let inner = lines
        .iter()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .find(|f| f.len() >= 4 && f[0] == "3" && f[1] == "3")
        .unwrap();
    let turned = format!(
        "{}@3,3,{}",
        inner[2],
        (inner[3].parse::<u8>().unwrap() + 1) % 4
    );
    for (file, extra, want) in [
        (
            "holed.txt",
            &[][..],
            "holed.txt: the start board must be complete and legal; this one has 1 empty cell(s)",
        ),
        ("twice.txt", &[][..], "twice.txt"),
        (
            "first.txt",
            &["--construct", "beam"][..],
            "the beam construction builds a first board, and the start board first.txt is one",
        ),
        (
            "first.txt",
            &["--region", "2xn"][..],
            "greedy.region tunes the greedy and backtracking constructions, which this run does not use",
        ),
        (
            "first.txt",
            &["--fix", &turned][..],
            "is not on the start board",
        ),
        (
            "first.txt",
            &["--lns-assign", "1.5"][..],
            "lns.assign takes 0 to 1, not \"1.5\"",
        ),
        (
            "missing.txt",
            &[][..],
            "missing.txt: cannot read the start board",
        ),
    ] {
        let mut all = vec!["solve", "p.txt", "--via", "heuristic", "--start", file];
        all.extend_from_slice(extra);
        let r = tilekit(d, &all);
        assert_eq!(r.code, 2, "{file} {extra:?}: {}{}", r.stdout, r.stderr);
        assert!(r.stderr.contains(want), "{file} {extra:?}: {}", r.stderr);
    }
}

/// Brendan Owen's 6×6 puzzle of set 1 into `d/p.txt`.
fn brendan_six(d: &std::path::Path) {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("models/edge-matching/brendan_set1/pieces_06x06.txt");
    std::fs::copy(src, d.join("p.txt")).unwrap();
}

#[test]
fn the_exact_search_counts_brendans_six_by_six_boards_as_published() {
    // The edge-matching community's count for this puzzle is 65 solutions (see the project
    // notes); with one corner piece fixed each is met once, in one of its quarter turns.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    brendan_six(d);
    let mut boards = Vec::new();
    for threads in ["1", "2"] {
        let (j, board) = run_board(
            d,
            &[
                "--construct",
                "exact",
                "--set",
                "exact.all=true",
                "--threads",
                threads,
                "--time-limit",
                "600",
            ],
            &format!("b{threads}.txt"),
        );
        let status = j["solver_status"].as_str().unwrap();
        assert!(status.contains("65 perfect boards in all"), "{j}");
        assert_eq!(
            (j["verified"].as_bool(), j["optimal"].as_bool()),
            (Some(true), Some(true)),
            "{j}"
        );
        assert_eq!(j["matched"], j["max"], "{j}");
        assert!(j["placements_per_second"].as_f64().unwrap() > 0.0, "{j}");
        boards.push(board);
    }
    // The first board in scan order, whatever the thread count.
    assert_eq!(boards[0], boards[1]);
}

#[test]
fn an_exact_search_without_a_perfect_board_proves_one_seam_must_break() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    common::meta(d, 4);
    // Two inner pieces fixed side by side: in these turns no perfect board has them.
    for (turn, clash) in [("0", true), ("3", false)] {
        let fix = format!("14@1,2,{turn}");
        let (j, _) = run_board(
            d,
            &[
                "--construct",
                "exact",
                "--fix",
                "13@1,1,0",
                "--fix",
                &fix,
                "--threads",
                "2",
            ],
            "b.txt",
        );
        let status = j["solver_status"].as_str().unwrap();
        assert!(
            status.contains("no perfect board exists (the whole tree was searched)"),
            "{j}"
        );
        assert_eq!(j["bound"], 1.0, "{j}");
        assert_eq!(j["verified"], true, "{j}");
        assert!(j["objective"].as_f64().unwrap() >= 1.0, "{j}");
        // The fixed pieces themselves clash in turn 0; in turn 3 the search goes deeper.
        assert_eq!(status.contains("(2 of 16 cells)"), clash, "{j}");
    }
}

#[test]
fn the_dfs_starts_with_the_exact_search_on_small_boards() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    common::meta(d, 4);
    // Clashing clues: the exact search's proof ends the run, with the bound it proved.
    let (j, _) = run_board(
        d,
        &["--fix", "13@1,1,0", "--fix", "14@1,2,3", "--threads", "2"],
        "b.txt",
    );
    let status = j["solver_status"].as_str().unwrap();
    assert_eq!(j["construct"], "dfs", "{j}");
    assert!(
        status
            .contains("exact search (the DFS's first part) over rowmajor: no perfect board exists"),
        "{j}"
    );
    assert_eq!(j["bound"], 1.0, "{j}");
    // Without the exact search the DFS runs its restarts and proves nothing.
    let (j, _) = run_board(
        d,
        &[
            "--fix",
            "13@1,1,0",
            "--fix",
            "14@1,2,3",
            "--set",
            "dfs.exact_share=0",
            "--set",
            "dfs.restarts=3",
            "--threads",
            "1",
        ],
        "c.txt",
    );
    assert_eq!(j["bound"], 0.0, "{j}");
    assert!(
        !j["solver_status"]
            .as_str()
            .unwrap()
            .contains("exact search"),
        "{j}"
    );
    // A share outside 0..1 is refused.
    let r = tilekit(
        d,
        &[
            "solve",
            "p.txt",
            "--via",
            "heuristic",
            "--set",
            "dfs.exact_share=2",
        ],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
}

#[test]
fn a_stopped_exact_search_resumes_from_its_checkpoint() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    brendan_six(d);
    let args = |limit: &'static str| {
        [
            "--construct",
            "exact",
            "--set",
            "exact.all=true",
            "--threads",
            "2",
            "--time-limit",
            limit,
        ]
    };
    // The whole count in one run, to compare with.
    let (whole, _) = run_board(d, &args("600"), "whole.txt");
    let ck: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("whole.txt.exact.json")).unwrap())
            .unwrap();
    // A run stopped by its time limit, then resumed with the same output file.
    let (first, _) = run_board(d, &args("0.1"), "part.txt");
    let (second, _) = run_board(d, &args("600"), "part.txt");
    let status = second["solver_status"].as_str().unwrap();
    assert!(status.contains("resumed from"), "{second}");
    assert!(status.contains("65 perfect boards in all"), "{second}");
    let resumed: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("part.txt.exact.json")).unwrap())
            .unwrap();
    // Placements of finished prefixes only, so the two runs add up to the one.
    assert_eq!(resumed["nodes"], ck["nodes"], "{first}");
    assert_eq!(resumed["solutions"], 65);
    assert_eq!(whole["matched"], second["matched"]);
    let mut all = vec!["solve", "p.txt", "--via", "heuristic", "-o", "part.txt"];
    all.extend_from_slice(&args("600"));
    // The checkpoint of another puzzle is refused with exit 2, and left as it is.
    let kept = std::fs::read_to_string(d.join("part.txt.exact.json")).unwrap();
    common::meta(d, 6);
    let r = tilekit(d, &all);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("part.txt.exact.json: the checkpoint belongs to another search"),
        "{}",
        r.stderr
    );
    assert_eq!(
        std::fs::read_to_string(d.join("part.txt.exact.json")).unwrap(),
        kept
    );
    // A damaged checkpoint is refused with exit 2, and left as it is.
    std::fs::write(d.join("part.txt.exact.json"), "{").unwrap();
    let r = tilekit(d, &all);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("not a checkpoint of the exact search"),
        "{}",
        r.stderr
    );
    assert_eq!(
        std::fs::read_to_string(d.join("part.txt.exact.json")).unwrap(),
        "{"
    );
}

#[test]
fn the_exact_search_scans_a_wide_board_by_columns_and_solves_the_official_clue_puzzle() {
    // The official 6×12 clue puzzle (duplicate pieces, 4 + 4 colours): a scan along the
    // short side finds a perfect board in seconds.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let src =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("models/edge-matching/eternity2/clue2.txt");
    std::fs::copy(src, d.join("p.txt")).unwrap();
    let (j, _) = run_board(
        d,
        &[
            "--construct",
            "exact",
            "--threads",
            "2",
            "--time-limit",
            "600",
        ],
        "b.txt",
    );
    assert_eq!(j["variant"], "exact_colmajor", "{j}");
    assert_eq!(
        (j["verified"].as_bool(), j["optimal"].as_bool()),
        (Some(true), Some(true)),
        "{j}"
    );
    // A scan given by the user is kept.
    let (j, _) = run_board(
        d,
        &[
            "--construct",
            "exact",
            "--set",
            "search.scan=rowmajor",
            "--time-limit",
            "1",
        ],
        "c.txt",
    );
    assert_eq!(j["variant"], "exact_rowmajor", "{j}");
}

/// A DFS with an output file keeps a checkpoint beside it: stopped after some restarts and
/// resumed, it ends with the board of one unbroken run; killed, it leaves its best board
/// in place, and the resumed run starts from it and never writes a worse one; a checkpoint
/// of another seed is refused and kept.
#[test]
fn a_stopped_or_killed_dfs_resumes_from_its_checkpoint_with_its_best_board() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    common::meta(d, 8);
    let args = |restarts: &'static str, seed: &'static str| {
        [
            "--construct",
            "dfs",
            "--improve",
            "none",
            "--restarts",
            restarts,
            "--node-cap",
            "200000",
            "--threads",
            "1",
            "--seed",
            seed,
            "--time-limit",
            "600",
            "--set",
            "dfs.exact_share=0",
        ]
    };
    let (_, whole) = run_board(d, &args("8", "5"), "whole.txt");
    run_board(d, &args("3", "5"), "part.txt");
    let (resumed, part) = run_board(d, &args("8", "5"), "part.txt");
    assert_eq!(part, whole, "{resumed}");
    let status = resumed["solver_status"].as_str().unwrap();
    assert!(status.contains("resumed after 3 restarts"), "{status}");
    assert!(status.contains("8 restarts"), "{status}");

    // Killed once its checkpoint holds a board.
    let p = EdgePuzzle::parse(&std::fs::read_to_string(d.join("p.txt")).unwrap(), "p.txt").unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_tilekit"))
        .current_dir(d)
        .args([
            "--quiet",
            "solve",
            "p.txt",
            "--via",
            "heuristic",
            "-o",
            "kill.txt",
        ])
        .args(args("1000000", "7"))
        .spawn()
        .unwrap();
    let ck = d.join("kill.txt.dfs.json");
    let started = std::time::Instant::now();
    while !ck.exists() {
        assert!(
            started.elapsed().as_secs() < 60,
            "no checkpoint within 60 s"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::thread::sleep(std::time::Duration::from_millis(1500));
    child.kill().unwrap();
    child.wait().unwrap();
    let score_of = |text: &str| {
        let b = tilekit::puzzle::edge::parse_board(text, "kill.txt", Some(&p)).unwrap();
        tilekit::puzzle::edge::score(&p, &b).matched
    };
    let before = score_of(&std::fs::read_to_string(d.join("kill.txt")).unwrap());
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&ck).unwrap()).unwrap();
    assert!(
        saved["best"][0].as_u64().unwrap() as usize <= before,
        "{saved}"
    );
    let mut again = args("1000000", "7");
    again[13] = "1";
    let (j, after) = run_board(d, &again, "kill.txt");
    assert!(
        j["solver_status"]
            .as_str()
            .unwrap()
            .contains("resumed after"),
        "{j}"
    );
    assert!(j["matched"].as_u64().unwrap() as usize >= before, "{j}");
    assert!(score_of(&after) >= before);

    // Another seed's search is not this checkpoint's: exit 2, the file kept.
    let kept = std::fs::read_to_string(d.join("part.txt.dfs.json")).unwrap();
    let mut all = vec!["solve", "p.txt", "--via", "heuristic", "-o", "part.txt"];
    all.extend_from_slice(&args("8", "6"));
    let r = tilekit(d, &all);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("part.txt.dfs.json: the checkpoint belongs to another search"),
        "{}",
        r.stderr
    );
    assert_eq!(
        std::fs::read_to_string(d.join("part.txt.dfs.json")).unwrap(),
        kept
    );
    // So is one of another number of finishes or cells taken back, or under a colour quota.
    for extra in ["dfs.finishes=3", "dfs.finish_back=1", "dfs.quota=1,2"] {
        let mut other = vec!["solve", "p.txt", "--via", "heuristic", "-o", "part.txt"];
        other.extend_from_slice(&args("8", "5"));
        other.extend_from_slice(&["--set", extra]);
        let r = tilekit(d, &other);
        assert_eq!(r.code, 2, "{extra}: {}", r.stderr);
        assert!(
            r.stderr
                .contains("quota, number of finishes or cells taken back"),
            "{extra}: {}",
            r.stderr
        );
    }
    assert_eq!(
        std::fs::read_to_string(d.join("part.txt.dfs.json")).unwrap(),
        kept
    );
    // A damaged checkpoint is refused with exit 2, and left as it is.
    std::fs::write(d.join("part.txt.dfs.json"), "{").unwrap();
    let r = tilekit(d, &all);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("part.txt.dfs.json: not a checkpoint of the depth-first search"),
        "{}",
        r.stderr
    );
    assert_eq!(
        std::fs::read_to_string(d.join("part.txt.dfs.json")).unwrap(),
        "{"
    );
}

/// `bench edge --checkpoint`: the same command again reports every finished run from its
/// file without running it, each board judged again; a board that fails the checker, a run
/// of another budget and a damaged file are refused with exit 2 and left as they are.
#[test]
fn bench_edge_reports_finished_runs_from_its_checkpoint_and_refuses_foreign_files() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let bench = |budget: &str| {
        tilekit(
            d,
            &[
                "bench",
                "edge",
                "--instances",
                "10x10",
                "--methods",
                "beam,dfs",
                "--budget",
                budget,
                "--runs",
                "1",
                "--threads",
                "1",
                "--checkpoint",
                "ck",
                "--json",
            ],
        )
    };
    let rows = |stdout: &str| -> Vec<(u64, u64, u64)> {
        let v: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
        v["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                (
                    r["best"].as_u64().unwrap(),
                    r["from_checkpoint"].as_u64().unwrap(),
                    r["resumed"].as_u64().unwrap(),
                )
            })
            .collect()
    };
    let first = bench("2");
    assert_eq!(first.code, 0, "{}{}", first.stdout, first.stderr);
    let ran = rows(&first.stdout);
    assert!(ran.iter().all(|r| r.1 == 0 && r.2 == 0), "{ran:?}");
    let started = std::time::Instant::now();
    let again = bench("2");
    assert_eq!(again.code, 0, "{}{}", again.stdout, again.stderr);
    assert!(
        started.elapsed().as_secs_f64() < 2.0,
        "the finished runs ran again"
    );
    let reported = rows(&again.stdout);
    assert_eq!(
        reported.iter().map(|r| (r.0, r.1)).collect::<Vec<_>>(),
        ran.iter().map(|r| (r.0, 1)).collect::<Vec<_>>()
    );

    let r = bench("3");
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains("a run of another benchmark"),
        "{}",
        r.stderr
    );

    // The beam's board with its first two cells' pieces swapped breaks the rim.
    let file = d.join("ck/10x10-beam-seed1.json");
    let text = std::fs::read_to_string(&file).unwrap();
    let mut run: serde_json::Value = serde_json::from_str(&text).unwrap();
    let board = run["board"].as_str().unwrap().to_string();
    let mut lines: Vec<String> = board.lines().map(String::from).collect();
    let cells: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && l.split_whitespace().count() >= 4)
        .map(|(i, _)| i)
        .take(2)
        .collect();
    let piece = |l: &str| l.split_whitespace().nth(2).unwrap().to_string();
    let (a, b) = (piece(&lines[cells[0]]), piece(&lines[cells[1]]));
    let swap = |l: &str, p: &str| {
        let mut w: Vec<&str> = l.split_whitespace().take(4).collect();
        w[2] = p;
        w.join(" ")
    };
    lines[cells[0]] = swap(&lines[cells[0]].clone(), &b);
    lines[cells[1]] = swap(&lines[cells[1]].clone(), &a);
    run["board"] = serde_json::Value::String(lines.join("\n") + "\n");
    std::fs::write(&file, run.to_string()).unwrap();
    let r = bench("2");
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains("fails the independent checker"),
        "{}",
        r.stderr
    );

    std::fs::write(&file, "{\"schema\":").unwrap();
    let r = bench("2");
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("not a run of bench edge"), "{}", r.stderr);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "{\"schema\":");

    // On Slurm the runs' files are where the tasks meet: a directory is needed.
    let r = tilekit(d, &["bench", "edge", "--executor", "slurm"]);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("give one"), "{}", r.stderr);
}

#[test]
fn the_official_clues_stay_put_in_any_numbering_and_only_on_the_official_set() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("models/edge-matching/eternity2/e2pieces.txt");
    let official = std::fs::read_to_string(src).unwrap();
    // The same set, its pieces listed last to first and each turned a quarter.
    let shuffled: String = official
        .lines()
        .rev()
        .map(|l| {
            let mut c: Vec<&str> = l.split_whitespace().collect();
            c.rotate_left(1);
            format!("{}\n", c.join(" "))
        })
        .collect();
    let clue_cells = |board: &str| -> Vec<(String, String)> {
        ["8 7 ", "13 2 ", "2 13 ", "13 13 ", "2 2 "]
            .iter()
            .map(|cell| {
                let line = board
                    .lines()
                    .find(|l| l.starts_with(cell))
                    .unwrap_or_else(|| panic!("no cell {cell:?} in {board}"));
                let f: Vec<&str> = line.split_whitespace().collect();
                (f[2..4].join(" "), f[4..8].join(" "))
            })
            .collect()
    };
    let mut shown = Vec::new();
    for (name, text) in [("official", official.as_str()), ("shuffled", &shuffled)] {
        std::fs::write(d.join("p.txt"), text).unwrap();
        let (j, board) = run_board(
            d,
            &[
                "--construct",
                "dfs",
                "--fix",
                "clues",
                "--time-limit",
                "3",
                "--threads",
                "1",
            ],
            &format!("clues-{name}.txt"),
        );
        assert_eq!(j["verified"], true, "{name}: {j}");
        assert!(
            j["solver_status"]
                .as_str()
                .unwrap()
                .contains("the five official Eternity II clues fixed"),
            "{name}: {j}"
        );
        shown.push(clue_cells(&board));
    }
    // The official numbering: the starter and the four hint pieces, as published.
    let pieces: Vec<&str> = shown[0].iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(pieces, ["139 2", "181 3", "255 3", "249 0", "208 3"]);
    // The copy: other numbers and turns, the same colours in the same cells.
    let colours = |s: &[(String, String)]| s.iter().map(|(_, c)| c.clone()).collect::<Vec<_>>();
    assert_eq!(colours(&shown[0]), colours(&shown[1]));
    assert_ne!(shown[0], shown[1]);
    // The checker counts the clues a board keeps (here the copy's own board, on the copy).
    let v = tilekit(d, &["verify", "p.txt", "clues-shuffled.txt", "--json"]);
    assert_eq!(v.code, 0, "{}{}", v.stdout, v.stderr);
    assert_eq!(json(&v)["official_clues_kept"], 5, "{}", v.stdout);
    let v = tilekit(d, &["verify", "p.txt", "clues-shuffled.txt"]);
    assert!(
        v.stdout
            .contains("official Eternity II clues in place: 5 of 5"),
        "{}",
        v.stdout
    );
    // Another puzzle has no official clues.
    common::meta(d, 8);
    let r = tilekit(
        d,
        &["solve", "p.txt", "--fix", "clues", "--time-limit", "1"],
    );
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains("this 8×8 puzzle is not that set"),
        "{}",
        r.stderr
    );
    // A misspelt value says both forms it takes.
    let r = tilekit(d, &["solve", "p.txt", "--fix", "clu", "--time-limit", "1"]);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains("expected PIECE@ROW,COL,ROT")
            && r.stderr
                .contains("or clues (the official Eternity II clues)"),
        "{}",
        r.stderr
    );
}

#[test]
fn bench_edge_runs_eternity_ii_with_its_clues_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let r = bench_edge_once(
        d,
        &[
            "--instances",
            "EII-clues",
            "--methods",
            "dfs",
            "--budget",
            "1",
            "--boards",
            "boards",
        ],
    );
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout
            .lines()
            .any(|l| l.split_whitespace().take(2).eq(["EII-clues", "dfs"])),
        "{}",
        r.stdout
    );
    let board = std::fs::read_to_string(d.join("boards/EII-clues-dfs-1s.txt")).unwrap();
    assert!(board.contains(" --fix clues"), "{board}");
    for cell in [
        "8 7 139 2 ",
        "13 2 181 3 ",
        "2 13 255 3 ",
        "13 13 249 0 ",
        "2 2 208 3 ",
    ] {
        assert!(
            board.lines().any(|l| l.starts_with(cell)),
            "{cell}: {board}"
        );
    }
}
