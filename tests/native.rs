//! The native optimal solver against published optima, exhaustive BFS on small boards and
//! the SAT route; pattern-database admissibility and consistency; the on-disk cache
//! (corruption is detected and the file rebuilt); both goal conventions.
//!
//! The 15-puzzle databases used here are the 6-6-3 ones (seconds to build), cached in
//! `CARGO_TARGET_TMPDIR/native-pdb-cache`, built once and shared with `tests/native_cli.rs`;
//! an opt-in test builds the 7-8 ones there (minutes; their groups go through the blank-region
//! search of src/search/pdb_regions.rs, which its unit tests check against the per-blank-cell one).

use std::collections::{HashMap, VecDeque};
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Duration;
use tilekit::puzzle::sliding::moves_to_string;
use tilekit::route::method::{SatMethod, SlidingMethod};
use tilekit::route::sliding::{self, Horizon, SolveRequest};
use tilekit::search::pdb::{AdditivePdb, DbSource, Partition};
use tilekit::search::{NativeOptions, NativeSolver, NativeStatus, to_blank_first};
use tilekit::solve::Limits;
use tilekit::{Goal, SlidingPuzzle};

fn quiet(_: &str) {}

fn shared_cache() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("native-pdb-cache")
}

/// One 15-puzzle solver per test run (the database is loaded or built once).
fn fifteen() -> &'static NativeSolver {
    static S: OnceLock<NativeSolver> = OnceLock::new();
    S.get_or_init(|| {
        let opts = NativeOptions {
            cache_dir: Some(shared_cache()),
            partition: Some(Partition::fifteen_663()),
            ..Default::default()
        };
        NativeSolver::new(4, 4, &opts, &quiet).expect("the 15-puzzle solver sets up")
    })
}

/// Lines `id optimal [extra…] tiles…` of a models/sliding file.
fn read_set(file: &str, tiles_from: usize) -> Vec<(u32, u32, Vec<u16>)> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("models/sliding")
        .join(file);
    std::fs::read_to_string(path)
        .expect("the data file is in the repository")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (
                f[0].parse().unwrap(),
                f[1].parse().unwrap(),
                f[tiles_from..].iter().map(|t| t.parse().unwrap()).collect(),
            )
        })
        .collect()
}

/// Solve, then check length and replay with the independent verifier.
fn assert_optimal(solver: &NativeSolver, p: &SlidingPuzzle, goal: Goal, expected: u32, what: &str) {
    let r = solver.solve(p, goal, None).unwrap();
    assert_eq!(r.status, NativeStatus::Solved, "{what}");
    let moves = r.moves.expect("a solved result has moves");
    assert_eq!(moves.len() as u32, expected, "{what}");
    assert_eq!(r.lower_bound, expected, "{what}");
    assert!(
        r.initial_h <= expected,
        "{what}: h {} > optimum",
        r.initial_h
    );
    let v = tilekit::verify::sliding::check_moves(
        p.rows(),
        p.cols(),
        p.tiles(),
        &goal.board(p.cells()),
        &moves_to_string(&moves),
        Some(expected as f64),
    );
    assert!(v.valid, "{what}: {:?}", v.errors);
}

#[test]
fn korf_instances_have_their_published_lengths() {
    let set = read_set("korf100_15puzzle.txt", 3);
    for id in [1, 9, 12, 30, 55, 71, 88, 93] {
        let (_, opt, tiles) = set.iter().find(|c| c.0 == id).unwrap().clone();
        let p = SlidingPuzzle::new(4, 4, tiles).unwrap();
        assert_optimal(fifteen(), &p, Goal::BlankFirst, opt, &format!("korf #{id}"));
        // The same position under the other convention (relabelled) has the same length.
        let q = to_blank_first(&p, Goal::BlankLast);
        assert_optimal(
            fifteen(),
            &q,
            Goal::BlankLast,
            opt,
            &format!("korf #{id} blank-last"),
        );
    }
}

#[test]
fn eight_puzzle_by_depth_including_the_two_31_move_positions() {
    let solver = NativeSolver::new(3, 3, &NativeOptions::default(), &quiet).unwrap();
    let set = read_set("eightpuzzle_by_depth.txt", 2);
    assert_eq!(set.iter().filter(|c| c.1 == 31).count(), 2);
    for (id, opt, tiles) in set {
        let p = SlidingPuzzle::new(3, 3, tiles).unwrap();
        assert_optimal(
            &solver,
            &p,
            Goal::BlankFirst,
            opt,
            &format!("8-puzzle {id}"),
        );
    }
    // The blank-last antipodes (OEIS A089473).
    for tiles in [[6, 4, 7, 8, 5, 0, 3, 2, 1], [8, 6, 7, 2, 5, 4, 3, 0, 1]] {
        let p = SlidingPuzzle::new(3, 3, tiles.to_vec()).unwrap();
        assert_optimal(&solver, &p, Goal::BlankLast, 31, "8-puzzle blank-last 31");
    }
}

/// Exact distances to `goal` of every state of a small board, keyed by the tiles.
fn bfs(rows: usize, cols: usize, goal: Goal) -> HashMap<Vec<u16>, u32> {
    let start = goal.board(rows * cols);
    let mut dist = HashMap::from([(start.clone(), 0)]);
    let mut q = VecDeque::from([start]);
    while let Some(s) = q.pop_front() {
        let d = dist[&s];
        let b = s.iter().position(|&t| t == 0).unwrap();
        let (r, c) = (b / cols, b % cols);
        let mut next = Vec::new();
        if r > 0 {
            next.push(b - cols);
        }
        if r + 1 < rows {
            next.push(b + cols);
        }
        if c > 0 {
            next.push(b - 1);
        }
        if c + 1 < cols {
            next.push(b + 1);
        }
        for n in next {
            let mut t = s.clone();
            t.swap(b, n);
            if !dist.contains_key(&t) {
                dist.insert(t.clone(), d + 1);
                q.push_back(t);
            }
        }
    }
    dist
}

#[test]
fn rectangular_boards_match_exhaustive_bfs() {
    for (rows, cols, goal, stride) in [
        (2, 3, Goal::BlankLast, 1),
        (3, 2, Goal::BlankFirst, 1),
        (2, 4, Goal::BlankFirst, 7),
        (4, 2, Goal::BlankLast, 7),
        (3, 3, Goal::BlankLast, 401),
    ] {
        let solver = NativeSolver::new(rows, cols, &NativeOptions::default(), &quiet).unwrap();
        let dist = bfs(rows, cols, goal);
        assert_eq!(dist.len(), (1..=rows * cols).product::<usize>() / 2);
        let max = *dist.values().max().unwrap();
        let mut keys: Vec<_> = dist.keys().cloned().collect();
        keys.sort();
        for (i, tiles) in keys.into_iter().enumerate() {
            let d = dist[&tiles];
            if i % stride != 0 && d != max {
                continue;
            }
            let p = SlidingPuzzle::new(rows, cols, tiles).unwrap();
            assert_optimal(
                &solver,
                &p,
                goal,
                d,
                &format!("{rows}×{cols} {:?}", p.tiles()),
            );
        }
    }
}

#[test]
fn larger_rectangles_agree_with_the_sat_route() {
    for (rows, cols, len, seed) in [(3, 4, 18, 1), (2, 5, 20, 2), (4, 3, 16, 3), (2, 6, 14, 4)] {
        let (p, _) = SlidingPuzzle::random_walk(rows, cols, Goal::BlankLast, len, seed);
        let native = NativeSolver::new(rows, cols, &NativeOptions::default(), &quiet)
            .unwrap()
            .solve(&p, Goal::BlankLast, None)
            .unwrap();
        let plan = SolveRequest {
            method: SlidingMethod::Sat(SatMethod {
                horizon: Some(Horizon::Steps(len)),
                ..SatMethod::default()
            }),
            ..SolveRequest::new(
                SlidingMethod::default(),
                Limits::new(Duration::from_secs(60), 1),
            )
        }
        .plan()
        .unwrap();
        let sat = sliding::solve(&p, Goal::BlankLast, &plan, &quiet).unwrap();
        assert!(sat.optimal && sat.verified, "{rows}×{cols}: {sat:?}");
        let n = native.moves.unwrap().len();
        assert_eq!(Some(n as f64), sat.objective, "{rows}×{cols} seed {seed}");
    }
}

#[test]
fn fifteen_puzzle_heuristic_is_admissible_along_optimal_plans() {
    let solver = fifteen();
    for seed in 1..=6u64 {
        let (p, walk) =
            SlidingPuzzle::random_walk(4, 4, Goal::BlankFirst, 40 + seed as usize, seed);
        let opt = solver
            .solve(&p, Goal::BlankFirst, None)
            .unwrap()
            .lower_bound;
        assert!(opt as usize <= walk.len());
        // Every suffix of an optimal plan is optimal, so the board after i moves is exactly
        // opt − i from the goal: h must never exceed that. (h is not consistent: taking the
        // minimum over blank cells lets it drop by more than 1 in one move, measured here
        // e.g. 32 → 29; IDA* does not need consistency.)
        let plan = solver
            .solve(&p, Goal::BlankFirst, None)
            .unwrap()
            .moves
            .unwrap();
        let mut board = p.clone();
        for (i, &m) in plan.iter().enumerate() {
            let h = solver.estimate(&board, Goal::BlankFirst).unwrap();
            assert!(h <= opt - i as u32, "seed {seed} step {i}: h {h}");
            assert!(board.apply(m));
        }
        assert_eq!(solver.estimate(&board, Goal::BlankFirst).unwrap(), 0);
        assert!(board.is_goal(Goal::BlankFirst));
    }
}

#[test]
fn pattern_database_values_against_bfs_on_a_2x4_board() {
    let dir = tempfile::tempdir().unwrap();
    let goal_dist = bfs(2, 4, Goal::BlankFirst);
    let exact = Partition {
        rows: 2,
        cols: 4,
        groups: vec![(1..8).collect()],
    };
    let split = Partition {
        groups: vec![vec![1, 2, 5], vec![3, 4, 6, 7]],
        ..exact.clone()
    };
    let (db, _) = AdditivePdb::load_or_build(&exact, Some(dir.path()), &quiet).unwrap();
    let opts = NativeOptions {
        cache_dir: Some(dir.path().to_path_buf()),
        partition: Some(split),
        ..Default::default()
    };
    let additive = NativeSolver::new(2, 4, &opts, &quiet).unwrap();
    for (tiles, &d) in &goal_dist {
        let t8: Vec<u8> = tiles.iter().map(|&t| t as u8).collect();
        assert_eq!(db.lookup(&t8), d, "{tiles:?}");
        let p = SlidingPuzzle::new(2, 4, tiles.clone()).unwrap();
        assert!(
            additive.estimate(&p, Goal::BlankFirst).unwrap() <= d,
            "{tiles:?}"
        );
    }
}

#[test]
fn corrupt_cache_file_is_detected_and_rebuilt() {
    let dir = tempfile::tempdir().unwrap();
    let p = Partition {
        rows: 3,
        cols: 3,
        groups: vec![vec![1, 2, 3, 4], vec![5, 6, 7, 8]],
    };
    let (first, info) = AdditivePdb::load_or_build(&p, Some(dir.path()), &quiet).unwrap();
    assert_eq!(info.source, DbSource::Built(None));
    let path = info.path.expect("the file was written");
    let (_, info) = AdditivePdb::load_or_build(&p, Some(dir.path()), &quiet).unwrap();
    assert_eq!(info.source, DbSource::Loaded);
    let good = std::fs::read(&path).unwrap();
    // One flipped byte in the middle of a table.
    let mut bad = good.clone();
    let mid = bad.len() / 2;
    bad[mid] ^= 0x01;
    std::fs::write(&path, &bad).unwrap();
    let (rebuilt, info) = AdditivePdb::load_or_build(&p, Some(dir.path()), &quiet).unwrap();
    assert_eq!(
        info.source,
        DbSource::Built(Some("checksum mismatch (corrupt file)".into()))
    );
    assert_eq!(rebuilt.tables(), first.tables());
    assert_eq!(
        std::fs::read(&path).unwrap(),
        good,
        "the file was rewritten"
    );
    // A truncated file and a foreign file are rebuilt too.
    std::fs::write(&path, &good[..good.len() - 100]).unwrap();
    let (_, info) = AdditivePdb::load_or_build(&p, Some(dir.path()), &quiet).unwrap();
    assert!(matches!(info.source, DbSource::Built(Some(_))), "{info:?}");
    std::fs::write(&path, b"hello").unwrap();
    let (_, info) = AdditivePdb::load_or_build(&p, Some(dir.path()), &quiet).unwrap();
    assert!(matches!(info.source, DbSource::Built(Some(_))), "{info:?}");
    let (_, info) = AdditivePdb::load_or_build(&p, Some(dir.path()), &quiet).unwrap();
    assert_eq!(info.source, DbSource::Loaded);
}

/// Interleaved solving gives every board what solving it alone gives (plan, nodes, bound),
/// answers each board once, in any order, and reports boards that need no search (an
/// unsolvable one, one of another size) without holding the others up.
#[test]
fn interleaved_solving_matches_one_at_a_time() {
    let solver = fifteen();
    // Random walks from the goal (seconds for all, unlike Korf's positions on 6-6-3).
    let mut seed = 0x5DEE_CE66_u64;
    let mut boards: Vec<(SlidingPuzzle, Goal)> = (0..6)
        .map(|i| {
            let mut t: Vec<u16> = (0..16).collect();
            let mut b = 0usize;
            for _ in 0..30 + 5 * i {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let near: Vec<usize> = [b.wrapping_sub(4), b + 4, b.wrapping_sub(1), b + 1]
                    .into_iter()
                    .filter(|&c| c < 16 && (c / 4 == b / 4 || c % 4 == b % 4))
                    .collect();
                let c = near[seed as usize % near.len()];
                t.swap(b, c);
                b = c;
            }
            let goal = if i % 2 == 0 {
                Goal::BlankFirst
            } else {
                Goal::BlankLast
            };
            let p = SlidingPuzzle::new(4, 4, t).unwrap();
            (to_blank_first(&p, goal), goal)
        })
        .collect();
    // Unsolvable (two tiles swapped) and of another size.
    let mut swapped: Vec<u16> = (0..16).collect();
    swapped.swap(1, 2);
    boards.insert(
        2,
        (SlidingPuzzle::new(4, 4, swapped).unwrap(), Goal::BlankFirst),
    );
    let small = SlidingPuzzle::new(3, 3, vec![1, 2, 3, 4, 5, 6, 7, 0, 8]).unwrap();
    boards.insert(4, (small, Goal::BlankLast));
    for width in [1, 3, 8] {
        let mut queue = boards.iter().cloned().enumerate();
        let mut next = || queue.next().map(|(i, (p, g))| (i, p, g, None));
        let mut got: Vec<Option<Result<tilekit::search::NativeResult, String>>> =
            vec![None; boards.len()];
        let mut done = |i: usize, r: Result<tilekit::search::NativeResult, _>| {
            assert!(got[i].is_none(), "board {i} answered twice");
            got[i] = Some(r.map_err(|e: tilekit::search::SearchError| e.to_string()));
            true
        };
        solver.solve_interleaved(width, &mut next, &mut done);
        for (i, (p, goal)) in boards.iter().enumerate() {
            let alone = solver.solve(p, *goal, None).map_err(|e| e.to_string());
            let mixed = got[i]
                .clone()
                .unwrap_or_else(|| panic!("board {i} not answered"));
            match (&alone, &mixed) {
                (Ok(a), Ok(m)) => {
                    assert_eq!(a.status, m.status, "board {i}, width {width}");
                    assert_eq!(a.moves, m.moves, "board {i}, width {width}");
                    assert_eq!(a.nodes, m.nodes, "board {i}, width {width}");
                    assert_eq!(a.lower_bound, m.lower_bound, "board {i}, width {width}");
                }
                (Err(a), Err(m)) => assert_eq!(a, m, "board {i}"),
                _ => panic!("board {i}, width {width}: {alone:?} against {mixed:?}"),
            }
        }
        assert!(matches!(got[2], Some(Ok(ref r)) if r.status == NativeStatus::Unsolvable));
        for i in [0, 1, 3, 5, 6, 7] {
            assert!(
                matches!(got[i], Some(Ok(ref r)) if r.status == NativeStatus::Solved),
                "board {i}"
            );
        }
        assert!(
            matches!(got[4], Some(Err(_))),
            "a 3×3 board for a 4×4 solver"
        );
    }
    // `done` returning false stops the run: nothing more is answered.
    let mut queue = boards.iter().cloned().enumerate();
    let mut next = || queue.next().map(|(i, (p, g))| (i, p, g, None));
    let mut answered = 0;
    solver.solve_interleaved(4, &mut next, &mut |_, _| {
        answered += 1;
        false
    });
    assert_eq!(answered, 1);
}

/// A time limit under interleaving stops only the searches that reach it, each with a
/// proven bound; the others still finish with their plans.
#[test]
fn interleaved_time_limits_stop_with_bounds() {
    let solver = fifteen();
    let set = read_set("korf100_15puzzle.txt", 3);
    // Korf's first and third boards need millions of nodes with 6-6-3; the clock is read
    // every 2^20.
    let hard: Vec<(u32, SlidingPuzzle)> = [1u32, 3]
        .iter()
        .map(|id| {
            let (_, opt, tiles) = set.iter().find(|c| c.0 == *id).unwrap().clone();
            (opt, SlidingPuzzle::new(4, 4, tiles).unwrap())
        })
        .collect();
    let easy = SlidingPuzzle::new(
        4,
        4,
        vec![1, 2, 3, 0, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
    )
    .unwrap();
    let mut boards: Vec<(SlidingPuzzle, Option<Duration>)> = hard
        .iter()
        .map(|(_, p)| (p.clone(), Some(Duration::ZERO)))
        .collect();
    boards.push((easy, Some(Duration::ZERO)));
    let mut queue = boards.into_iter().enumerate();
    let mut next = || queue.next().map(|(i, (p, t))| (i, p, Goal::BlankFirst, t));
    let mut got = vec![None; 3];
    solver.solve_interleaved(3, &mut next, &mut |i, r| {
        got[i] = Some(r.unwrap());
        true
    });
    for (i, (opt, _)) in hard.iter().enumerate() {
        let r = got[i].as_ref().unwrap();
        assert_eq!(r.status, NativeStatus::TimeLimit, "board {i}");
        assert!(r.moves.is_none());
        assert!(
            r.lower_bound >= r.initial_h && r.lower_bound <= *opt,
            "{r:?}"
        );
        assert!(r.nodes >= 1 << 20, "{}", r.nodes);
    }
    // Three moves: solved long before any clock is read.
    let r = got[2].as_ref().unwrap();
    assert_eq!(r.status, NativeStatus::Solved);
    assert_eq!(r.moves.as_ref().map(Vec::len), Some(3));
}

/// The dual lookups' extra tables are cached like the partition's: written once, loaded
/// after, rebuilt when corrupt, and the loaded copy gives the same estimates.
#[test]
fn dual_tables_are_cached_checked_and_rebuilt() {
    use tilekit::search::ida::Heuristic;
    let dir = tempfile::tempdir().unwrap();
    let p = Partition {
        rows: 3,
        cols: 3,
        groups: vec![vec![1, 2, 3, 4], vec![5, 6, 7, 8]],
    };
    let plain = AdditivePdb::build(&p, &quiet).unwrap();
    let (built, info) = plain.clone().with_dual_cached(Some(dir.path()), &quiet);
    assert_eq!(info.source, DbSource::Built(None));
    let path = info.path.expect("the file was written");
    assert_eq!(path, tilekit::search::pdb::dual_cache_path(dir.path(), &p));
    let (loaded, info) = plain.clone().with_dual_cached(Some(dir.path()), &quiet);
    assert_eq!(info.source, DbSource::Loaded);
    let boards: [&[u8]; 3] = [
        &[8, 7, 6, 5, 4, 3, 2, 1, 0],
        &[1, 2, 3, 0, 4, 5, 6, 7, 8],
        &[4, 1, 2, 3, 0, 5, 6, 7, 8],
    ];
    for b in boards {
        let (x, y) = (built.refine(&built.init(b)), loaded.refine(&loaded.init(b)));
        assert_eq!(x, y, "{b:?}");
    }
    let good = std::fs::read(&path).unwrap();
    let mut bad = good.clone();
    let mid = bad.len() / 2;
    bad[mid] ^= 0x01;
    std::fs::write(&path, &bad).unwrap();
    let (_, info) = plain.clone().with_dual_cached(Some(dir.path()), &quiet);
    assert_eq!(
        info.source,
        DbSource::Built(Some("checksum mismatch (corrupt file)".into()))
    );
    assert_eq!(
        std::fs::read(&path).unwrap(),
        good,
        "the file was rewritten"
    );
    // The partition's own file is no dual file: its header differs.
    let (_, own) = AdditivePdb::load_or_build(&p, Some(dir.path()), &quiet).unwrap();
    std::fs::copy(own.path.unwrap(), &path).unwrap();
    let (_, info) = plain.with_dual_cached(Some(dir.path()), &quiet);
    assert!(matches!(info.source, DbSource::Built(Some(_))), "{info:?}");
}

#[test]
fn time_limit_and_unsolvable_are_outcomes() {
    // The 24-puzzle with Manhattan + LC cannot finish Korf-Felner's first board in 0.2 s.
    let set = read_set("korf50_24puzzle.txt", 2);
    let p = SlidingPuzzle::new(5, 5, set[0].2.clone()).unwrap();
    let md = NativeOptions {
        manhattan_only: true,
        ..Default::default()
    };
    let solver = NativeSolver::new(5, 5, &md, &quiet).unwrap();
    let r = solver
        .solve(&p, Goal::BlankFirst, Some(Duration::from_millis(200)))
        .unwrap();
    assert_eq!(r.status, NativeStatus::TimeLimit);
    assert!(r.lower_bound <= set[0].1 && r.lower_bound >= r.initial_h);
    let mut tiles = SlidingPuzzle::solved(4, 4, Goal::BlankFirst)
        .tiles()
        .to_vec();
    tiles.swap(1, 2);
    let bad = SlidingPuzzle::new(4, 4, tiles).unwrap();
    let r = fifteen().solve(&bad, Goal::BlankFirst, None).unwrap();
    assert_eq!(r.status, NativeStatus::Unsolvable);
}

/// Builds (or loads, when an earlier run left the file in the shared cache) the 7-8
/// databases of Korf and Felner — 4 minutes and 3.6 GB on 2 idle cores, half an hour on a
/// slow one — and solves the hardest Korf instances and a few others with them; every plan
/// is replayed. In the slow tier (`scripts/test.sh --full`) with the other large builds: the
/// 6-6-3 tests run the same construction, ranking and lookups on every run.
#[test]
#[cfg_attr(
    not(feature = "slow-tests"),
    ignore = "slow tier: builds the 3.6 GB 7-8 databases (scripts/test.sh --full)"
)]
fn seven_eight_databases_solve_korf_instances() {
    let opts = NativeOptions {
        cache_dir: Some(shared_cache()),
        partition: Some(Partition::fifteen_78()),
        ..Default::default()
    };
    let solver = NativeSolver::new(4, 4, &opts, &quiet).unwrap();
    assert_eq!(solver.heuristic_name(), "pdb 7-8 + reflection");
    assert_eq!(solver.db_info().unwrap().bytes, 57_657_600 + 518_918_400);
    let set = read_set("korf100_15puzzle.txt", 3);
    for id in [1, 17, 60, 82, 88] {
        let (_, opt, tiles) = set.iter().find(|c| c.0 == id).unwrap().clone();
        let p = SlidingPuzzle::new(4, 4, tiles).unwrap();
        assert_optimal(&solver, &p, Goal::BlankFirst, opt, &format!("korf #{id}"));
        // Along the optimal plan the board after i moves is exactly opt − i from the goal:
        // the 7-8 estimate may never exceed it, and is 0 only at the goal.
        let plan = solver
            .solve(&p, Goal::BlankFirst, None)
            .unwrap()
            .moves
            .unwrap();
        let mut board = p.clone();
        for (i, &m) in plan.iter().enumerate() {
            let h = solver.estimate(&board, Goal::BlankFirst).unwrap();
            assert!(h <= opt - i as u32 && h > 0, "korf #{id} step {i}: h {h}");
            assert!(board.apply(m));
        }
        assert_eq!(solver.estimate(&board, Goal::BlankFirst).unwrap(), 0);
    }
    drop(solver);
    shipped_network_over_the_seven_eight_databases();
}

/// The shipped 15-puzzle network estimates the distance above the 7-8 databases, so it runs
/// here, once they exist: `solve --via astar` with it on Korf's instances, and `bench
/// astar-korf100` on a few of them (every plan replayed; A* with the databases optimal; the
/// learned searches' bounds never above the published optimum).
fn shipped_network_over_the_seven_eight_databases() {
    use crate::common::{Opts, tilekit_with};
    let cache = shared_cache();
    let env = [("TILEKIT_CACHE", cache.as_os_str())];
    let run = |args: &[&str]| {
        let r = tilekit_with(
            &Opts {
                env: &env,
                exits_normally: true,
                ..Opts::default()
            },
            args,
        );
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
        serde_json::from_str::<serde_json::Value>(r.stdout.lines().last().unwrap()).unwrap()
    };
    let dir = tempfile::tempdir().unwrap();
    let set = read_set("korf100_15puzzle.txt", 3);
    for id in [2, 9] {
        let (_, opt, tiles) = set.iter().find(|c| c.0 == id).unwrap().clone();
        let file = dir.path().join(format!("korf{id}.txt"));
        let text: Vec<String> = tiles.iter().map(|t| t.to_string()).collect();
        std::fs::write(&file, format!("4 4\n{}\n", text.join(" "))).unwrap();
        let f = file.to_str().unwrap();
        for extra in [&["--heuristic", "ann"][..], &["--suboptimality", "0.1"]] {
            let mut a = vec![
                "solve",
                f,
                "--goal",
                "blank-first",
                "--via",
                "astar",
                "--json",
            ];
            a.extend(extra);
            let v = run(&a);
            assert_eq!(v["verified"], true, "{a:?}");
            let obj = v["objective"].as_f64().unwrap();
            let bound = v["bound"].as_f64().unwrap();
            assert!(
                obj >= opt as f64 && bound <= opt as f64,
                "{a:?}: {obj} {bound}"
            );
            assert!(
                obj <= 1.1 * opt as f64 || extra[0] == "--heuristic",
                "{a:?}"
            );
            let want = if extra[0] == "--heuristic" {
                "ann"
            } else {
                "pdb"
            };
            assert_eq!(v["astar_heuristic"], want);
        }
    }
    let v = run(&[
        "bench",
        "astar-korf100",
        "--limit",
        "6",
        "--methods",
        "pdb,ann,ann-wa:0.98,focal:0.1",
        "--json",
    ]);
    let methods = v["rows"].as_array().unwrap();
    assert_eq!(methods.len(), 4);
    for m in methods {
        assert_eq!(m["bad_plans"], 0);
        assert_eq!(m["solved"], 6);
    }
    assert_eq!(methods[0]["optimal_percent"], 100.0);
    assert_eq!(v["summary"]["lower"], "pdb 7-8 + reflection");
}

/// Builds the 7-7-1 databases (about a minute) into a fresh directory. In the slow tier,
/// like the 7-8 test above.
#[test]
#[cfg_attr(
    not(feature = "slow-tests"),
    ignore = "slow tier: builds the 7-7-1 databases (scripts/test.sh --full)"
)]
fn seven_seven_one_databases_solve_korf_instances() {
    let dir = tempfile::tempdir().unwrap();
    let opts = NativeOptions {
        cache_dir: Some(dir.path().to_path_buf()),
        partition: Some(Partition::fifteen_771()),
        ..Default::default()
    };
    let solver = NativeSolver::new(4, 4, &opts, &quiet).unwrap();
    assert_eq!(solver.heuristic_name(), "pdb 7-7-1 + reflection");
    let set = read_set("korf100_15puzzle.txt", 3);
    for id in [1, 60, 88] {
        let (_, opt, tiles) = set.iter().find(|c| c.0 == id).unwrap().clone();
        let p = SlidingPuzzle::new(4, 4, tiles).unwrap();
        assert_optimal(&solver, &p, Goal::BlankFirst, opt, &format!("korf #{id}"));
    }
}

#[test]
fn default_partition_is_the_strongest_cached_one() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let name = |p: Option<Partition>| p.map(|p| p.shape());
    // Only the presence of a file decides; loading checks its contents later.
    assert_eq!(
        name(Partition::default_for(4, 4, d).unwrap()),
        Some("6-6-3".into())
    );
    assert_eq!(name(Partition::default_for(5, 5, d).unwrap()), None);
    assert_eq!(name(Partition::default_for(3, 3, d).unwrap()), None);
    for (rows, shape) in [(4, "7-7-1"), (4, "7-8"), (5, "6-6-6-6")] {
        let p = Partition::named(rows, rows, shape).unwrap();
        std::fs::write(tilekit::search::pdb::cache_path(d, &p), b"x").unwrap();
        assert_eq!(
            name(Partition::default_for(rows, rows, d).unwrap()),
            Some(shape.into())
        );
    }
    let e = Partition::named(4, 4, "6-6-6-6").unwrap_err().to_string();
    assert!(
        e.contains("not known for a 4×4 board: use 7-8, 7-8-cols, 7-7-1, 6-6-3"),
        "{e}"
    );
    let e = Partition::named(3, 3, "7-8").unwrap_err().to_string();
    assert!(e.contains("only for 4×4 and 5×5"), "{e}");
}

/// The 24-puzzle through ranked pattern databases (every group on a 25-cell board is ranked
/// and built by the blank-region search): six groups of four tiles, so the build takes
/// seconds. Optimal lengths must agree with the Manhattan + linear-conflict search.
#[test]
fn twentyfour_puzzle_pattern_databases_agree_with_manhattan_search() {
    let dir = tempfile::tempdir().unwrap();
    let groups = vec![
        vec![1, 2, 5, 6],
        vec![3, 4, 8, 9],
        vec![7, 12, 13, 14],
        vec![10, 11, 15, 16],
        vec![17, 20, 21, 22],
        vec![18, 19, 23, 24],
    ];
    let opts = NativeOptions {
        cache_dir: Some(dir.path().to_path_buf()),
        partition: Some(Partition {
            rows: 5,
            cols: 5,
            groups,
        }),
        ..Default::default()
    };
    let pdb = NativeSolver::new(5, 5, &opts, &quiet).unwrap();
    assert_eq!(pdb.heuristic_name(), "pdb 4-4-4-4-4-4 + reflection");
    let md_opts = NativeOptions {
        manhattan_only: true,
        ..Default::default()
    };
    let md = NativeSolver::new(5, 5, &md_opts, &quiet).unwrap();
    for seed in 1..=6u64 {
        for goal in [Goal::BlankFirst, Goal::BlankLast] {
            let (p, _) = SlidingPuzzle::random_walk(5, 5, goal, 36 + 2 * seed as usize, seed);
            let reference = md.solve(&p, goal, None).unwrap().lower_bound;
            let what = format!("seed {seed} {goal:?}");
            assert_optimal(&pdb, &p, goal, reference, &what);
            let h_pdb = pdb.estimate(&p, goal).unwrap();
            assert!(h_pdb <= reference, "{what}: {h_pdb} > {reference}");
        }
    }
}

/// Builds the 6-6-6-6 databases of Korf and Felner (about 6 minutes and 1.7 GB on 2 cores)
/// and solves two DeepCubeA 24-puzzle instances with their published lengths. In the slow
/// tier; `tilekit bench deepcubea24 --pdb 6-6-6-6` runs the set.
#[test]
#[cfg_attr(
    not(feature = "slow-tests"),
    ignore = "slow tier: builds the 24-puzzle's 6-6-6-6 databases (scripts/test.sh --full)"
)]
fn six_six_six_six_databases_solve_deepcubea_instances() {
    let opts = NativeOptions {
        cache_dir: Some(shared_cache()),
        partition: Some(Partition::twentyfour_6666()),
        ..Default::default()
    };
    let solver = NativeSolver::new(5, 5, &opts, &quiet).unwrap();
    let set = read_set("deepcubea_test_24puzzle.txt", 4);
    for id in [25, 434, 157] {
        let (_, opt, tiles) = set.iter().find(|c| c.0 == id).unwrap().clone();
        let p = SlidingPuzzle::new(5, 5, tiles).unwrap();
        assert_optimal(
            &solver,
            &p,
            Goal::BlankLast,
            opt,
            &format!("deepcubea #{id}"),
        );
    }
}
