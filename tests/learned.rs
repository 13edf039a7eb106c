//! The learned heuristic and best-first search: on the 8-puzzle, where every distance is
//! known (all 181,440 by BFS here), a network trained by `tilekit learn train` (shipped in
//! `models/sliding/ann-8/` with its manifest) runs inside A*, weighted A* and focal search;
//! every plan replays, admissible searches are optimal, focal search stays within its
//! bound, and every stated bound is a true lower bound. Plus the data file (determinism,
//! resume, damage) and the weight-file errors of the command line.

use crate::common::tilekit;
use std::collections::{HashMap, VecDeque};
use std::path::Path;
use tilekit::search::ann::{AnnGuide, AnnUse, Mlp};
use tilekit::search::astar::{self, AstarOptions, MAX_CELLS, Order, Tiles, pack, replay};
use tilekit::search::ida::{Heuristic, neighbours};
use tilekit::search::manhattan::ManhattanLc;

const ANN8: &str = "models/sliding/ann-8/ann-8.safetensors";

fn goal9() -> Tiles {
    let mut g = [0u8; MAX_CELLS];
    for (c, t) in g.iter_mut().enumerate().take(9) {
        *t = c as u8;
    }
    g
}

/// Every 3×3 board's distance to the blank-first goal, by breadth-first search.
fn bfs_8() -> HashMap<u64, (Tiles, u8)> {
    let nb = neighbours(3, 3);
    let mut d = HashMap::new();
    d.insert(pack(&goal9()), (goal9(), 0u8));
    let mut q = VecDeque::from([goal9()]);
    while let Some(t) = q.pop_front() {
        let k = d[&pack(&t)].1;
        let b = t.iter().take(9).position(|&v| v == 0).unwrap();
        for &(c, _) in &nb[b] {
            let mut u = t;
            u[b] = u[c];
            u[c] = 0;
            d.entry(pack(&u)).or_insert_with(|| {
                q.push_back(u);
                (u, k + 1)
            });
        }
    }
    d
}

fn opts(order: Order, batch: usize) -> AstarOptions {
    AstarOptions {
        rows: 3,
        cols: 3,
        order,
        batch,
        deadline: None,
        max_states: usize::MAX,
    }
}

#[test]
fn the_8_puzzle_network_guides_a_star_and_every_bound_holds() {
    let dist = bfs_8();
    assert_eq!(dist.len(), 181_440);
    let mlp = Mlp::load(Path::new(ANN8)).unwrap();
    assert_eq!((mlp.rows(), mlp.cols()), (3, 3));
    let md = ManhattanLc::new(3, 3);
    let lower = |t: &Tiles| md.value(&md.init(&t[..9]));

    // The network is worth using: over all 181,440 boards its estimate is several times
    // closer to the distance than Manhattan + linear conflict (1.4 moves against 6.9 for the
    // shipped one).
    let mut boards: Vec<(Tiles, u8)> = dist.values().copied().collect();
    boards.sort_by_key(|b| pack(&b.0));
    let guide = AnnGuide {
        mlp: &mlp,
        how: AnnUse { floor: false },
    };
    let (mut err_ann, mut err_md) = (0.0f64, 0.0f64);
    for chunk in boards.chunks(256) {
        let tiles: Vec<Tiles> = chunk.iter().map(|b| b.0).collect();
        let lows: Vec<u32> = tiles.iter().map(&lower).collect();
        let mut out = vec![0f32; chunk.len()];
        astar::Guide::guide(&guide, &tiles, &lows, &mut out);
        for ((b, o), l) in chunk.iter().zip(&out).zip(&lows) {
            err_ann += (*o as f64 - b.1 as f64).abs();
            err_md += b.1 as f64 - *l as f64;
        }
    }
    let n = boards.len() as f64;
    assert!(
        err_ann / n < 2.0 && err_ann < err_md / 3.0,
        "mean |error| {:.3} (network) against {:.3} (Manhattan + LC)",
        err_ann / n,
        err_md / n
    );

    // A batch of boards at every depth.
    let mut by_depth: Vec<Vec<Tiles>> = vec![Vec::new(); 32];
    for (t, d) in &boards {
        if by_depth[*d as usize].len() < 4 {
            by_depth[*d as usize].push(*t);
        }
    }
    let floored = AnnGuide {
        mlp: &mlp,
        how: AnnUse { floor: true },
    };
    let mut learned_optimal = 0;
    let mut total = 0;
    for start in by_depth.iter().flatten() {
        let opt = dist[&pack(start)].1 as u32;
        let check = |r: &astar::AstarResult, what: &str| -> u32 {
            let plan = r.plan.as_ref().unwrap_or_else(|| panic!("{what}: no plan"));
            assert_eq!(
                replay(start, 3, 3, plan),
                Some(goal9()),
                "{what}: the plan does not reach the goal"
            );
            let len = plan.len() as u32;
            assert!(len >= opt, "{what}: shorter than the optimum?");
            assert!(
                r.bound <= opt,
                "{what}: bound {} above the optimum {opt}",
                r.bound
            );
            assert_eq!(r.optimal(), len == r.bound, "{what}");
            if r.optimal() {
                assert_eq!(len, opt, "{what}: claimed optimal");
            }
            len
        };
        for batch in [1, 8] {
            let r = astar::search(
                start,
                &lower,
                None::<&AnnGuide>,
                &opts(Order::Weighted { weight: 1.0 }, batch),
            );
            assert_eq!(check(&r, "A* + MD/LC"), opt);
            assert!(r.optimal(), "an admissible A* proves its plan");
        }
        for g in [&guide, &floored] {
            let r = astar::search(
                start,
                &lower,
                Some(g),
                &opts(Order::Weighted { weight: 1.0 }, 1),
            );
            total += 1;
            if check(&r, "A* + network") == opt {
                learned_optimal += 1;
            }
            check(
                &astar::search(
                    start,
                    &lower,
                    Some(g),
                    &opts(Order::Weighted { weight: 1.5 }, 4),
                ),
                "weighted A* + network",
            );
        }
        for eps in [0.0, 0.1, 0.3] {
            let r = astar::search(
                start,
                &lower,
                Some(&floored),
                &opts(Order::Focal { eps }, 2),
            );
            let len = check(&r, "focal");
            assert!(
                len as f64 <= (1.0 + eps) * opt as f64 + 1e-9,
                "focal eps {eps}: {len} moves, optimum {opt}"
            );
        }
    }
    // Usually optimal (not always: it is not admissible).
    assert!(
        learned_optimal * 10 >= total * 7,
        "{learned_optimal} of {total} optimal"
    );
}

#[test]
fn solve_via_astar_reports_verified_plans_and_proven_bounds() {
    let i = "models/sliding/eight_len24.txt";
    let json = |args: &[&str]| -> serde_json::Value {
        let r = tilekit(Path::new("."), args);
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
        serde_json::from_str(&r.stdout).unwrap()
    };
    let common = [
        "solve",
        i,
        "--goal",
        "blank-first",
        "--via",
        "astar",
        "--json",
    ];
    let with = |extra: &[&str]| {
        let mut a = common.to_vec();
        a.extend(extra);
        json(&a)
    };
    let pdb = with(&[]);
    assert_eq!(
        (
            pdb["objective"].as_f64(),
            pdb["optimal"].as_bool(),
            pdb["verified"].as_bool()
        ),
        (Some(24.0), Some(true), Some(true))
    );
    for extra in [
        &["--heuristic", "ann", "--weights", ANN8][..],
        &["--heuristic", "ann-pdb", "--weights", ANN8, "--batch", "4"],
        &["--heuristic", "ann-pdb", "--weights", ANN8, "--weight", "2"],
        &["--heuristic", "manhattan", "--weight", "3"],
    ] {
        let v = with(extra);
        assert_eq!(v["verified"], true, "{extra:?}");
        let (obj, bound) = (
            v["objective"].as_f64().unwrap(),
            v["bound"].as_f64().unwrap(),
        );
        assert!(obj >= 24.0 && bound <= 24.0, "{extra:?}: {obj} / {bound}");
        assert_eq!(v["optimal"].as_bool().unwrap(), obj == bound, "{extra:?}");
        assert!(v["nodes"].as_u64().unwrap() > 0);
    }
    let f = with(&[
        "--heuristic",
        "ann-pdb",
        "--weights",
        ANN8,
        "--suboptimality",
        "0.25",
    ]);
    assert!(f["objective"].as_f64().unwrap() <= 30.0);
    assert_eq!(f["order"], "focal (eps = 0.25)");
}

#[test]
fn bad_networks_and_flags_are_refused_with_one_message() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = std::fs::read(ANN8).unwrap();
    let cut = dir.path().join("cut.safetensors");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let flip = dir.path().join("flip.safetensors");
    let mut f = bytes.clone();
    let at = f.len() - 100;
    f[at] ^= 0x20;
    std::fs::write(&flip, &f).unwrap();
    let cut = cut.to_str().unwrap();
    let flip = flip.to_str().unwrap();
    let eight = "models/sliding/eight_len24.txt";
    let fifteen = "models/sliding/fifteen_len20.txt";
    for (args, want) in [
        (
            vec![fifteen, "--heuristic", "ann", "--weights", ANN8],
            "is for 3×3 boards, not 4×4",
        ),
        (
            vec![eight, "--heuristic", "ann", "--weights", cut],
            "not a usable tilekit network",
        ),
        (
            vec![eight, "--heuristic", "ann", "--weights", flip],
            "checksum mismatch",
        ),
        (
            vec![
                eight,
                "--heuristic",
                "ann",
                "--weights",
                "no/such.safetensors",
            ],
            "cannot read the network",
        ),
        (vec![eight, "--heuristic", "ann"], "needs a network"),
        (
            vec![eight, "--heuristic", "pdb", "--weights", ANN8],
            "--weights belongs to --heuristic ann",
        ),
        (
            vec![eight, "--weight", "1.5", "--suboptimality", "0.1"],
            "give one",
        ),
    ] {
        let mut a = vec!["solve", "--goal", "blank-first", "--via", "astar"];
        a.extend(args.iter());
        let r = tilekit(Path::new("."), &a);
        assert_eq!(r.code, 2, "{a:?}: {}", r.stderr);
        assert!(r.stderr.contains(want), "{a:?}: {}", r.stderr);
        assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
        assert_eq!(r.stderr.trim().lines().count(), 1, "{}", r.stderr);
    }
    let r = tilekit(
        Path::new("."),
        &["solve", eight, "--weight", "1.5", "--goal", "blank-first"],
    );
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("--weight belongs to --via astar"),
        "{}",
        r.stderr
    );
    let r = tilekit(
        Path::new("."),
        &[
            "solve",
            "models/edge-matching/meta2010/pieces_03x03.txt",
            "--via",
            "astar",
        ],
    );
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("--via astar is not available for edge-matching"),
        "{}",
        r.stderr
    );
}

#[test]
fn data_files_are_deterministic_resumable_and_checked() {
    use tilekit::learn::data;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let make = |name: &str, count: &str, jobs: &str| {
        let r = tilekit(
            d,
            &[
                "learn", "data", "-o", name, "--rows", "3", "--cols", "3", "--count", count,
                "--seed", "5", "--jobs", jobs,
            ],
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
    };
    make("a.tkd", "600", "2");
    make("b.tkd", "600", "1");
    let a = std::fs::read(d.join("a.tkd")).unwrap();
    assert_eq!(
        a,
        std::fs::read(d.join("b.tkd")).unwrap(),
        "threads change nothing"
    );
    // A run stopped half-way through a chunk resumes after the last whole one.
    std::fs::write(d.join("c.tkd.partial"), &a[..a.len() - 1000]).unwrap();
    make("c.tkd", "600", "2");
    assert_eq!(a, std::fs::read(d.join("c.tkd")).unwrap());
    assert!(!d.join("c.tkd.partial").exists());
    // Extending keeps the first boards.
    make("c.tkd", "700", "2");
    let df = data::read(&d.join("c.tkd")).unwrap();
    assert_eq!(df.solves.len(), 700);
    let dist = bfs_8();
    for s in &df.solves {
        let plan = s.plan.as_ref().expect("every 3×3 board is solved");
        assert_eq!(plan.len() as u8, dist[&pack(&s.start)].1, "optimal labels");
        assert_eq!(replay(&s.start, 3, 3, plan), Some(goal9()));
    }
    let samples = data::samples(&df, true);
    for s in samples.iter().step_by(97) {
        assert_eq!(dist[&pack(&s.tiles)].1, s.distance, "path labels are exact");
    }
    // Damage is found and located; another seed is refused.
    let mut bad = a.clone();
    bad[200] ^= 1;
    std::fs::write(d.join("bad.tkd"), &bad).unwrap();
    let e = data::read(&d.join("bad.tkd")).unwrap_err().to_string();
    assert!(e.contains("checksum") && e.contains("bad.tkd"), "{e}");
    let r = tilekit(
        d,
        &[
            "learn", "data", "-o", "a.tkd", "--rows", "3", "--cols", "3", "--count", "900",
            "--seed", "6",
        ],
    );
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("seed 5"), "{}", r.stderr);
    for (args, want) in [
        (
            vec!["--rows", "5", "--cols", "5"],
            "learning data is for boards of 4 to 16 cells, not 5×5",
        ),
        (vec!["--jobs", "0"], "--jobs must be at least 1"),
        (vec!["--board-limit=-1"], "--board-limit"),
    ] {
        let mut a = vec!["learn", "data", "-o", "e.tkd", "--count", "5"];
        a.extend(args);
        let r = tilekit(d, &a);
        assert_eq!(r.code, 2, "{a:?}: {}", r.stderr);
        assert!(r.stderr.contains(want), "{a:?}: {}", r.stderr);
        assert_eq!(r.stderr.trim().lines().count(), 1, "{}", r.stderr);
    }
    assert!(!d.join("e.tkd").exists() && !d.join("e.tkd.partial").exists());
}

#[test]
fn the_shipped_15_puzzle_network_is_the_one_its_manifest_describes() {
    let dir = Path::new("models/sliding/ann-15");
    let bytes = std::fs::read(dir.join("ann-15.safetensors")).unwrap();
    assert_eq!(
        bytes,
        tilekit::route::astar::SHIPPED_15,
        "the built-in network is the shipped file"
    );
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("ann-15.json")).unwrap()).unwrap();
    let mlp = Mlp::from_bytes(&bytes).unwrap();
    assert_eq!(manifest["checksum"], format!("{:016x}", mlp.checksum()));
    assert_eq!(mlp.hidden(), [256, 256, 128]);
    assert_eq!(mlp.base(), "pdb 7-8 + reflection");
    assert_eq!(manifest["network"]["parameters"], mlp.params());
    // Its training data is shipped too, and is what the manifest names.
    let df = tilekit::learn::data::read(&dir.join("train-s1.tkd")).unwrap();
    assert_eq!(manifest["data"]["solves"], df.solves.len());
    assert_eq!(manifest["data"]["seed"], df.header.seed);
    // A few predictions (the residual above the 7-8 databases): none at the goal, and the
    // outputs recorded when the network was shipped, to the last few bits.
    let goal: Tiles = core::array::from_fn(|c| if c < 16 { c as u8 } else { 0 });
    let boards: Vec<Tiles> = (0..3)
        .map(|i| tilekit::learn::data::board(4, 4, 1001, i))
        .collect();
    let mut out = [0f32; 1];
    mlp.forward(&[goal], &mut out);
    assert!(out[0].abs() < 0.5, "goal: {}", out[0]);
    let mut out = [0f32; 3];
    mlp.forward(&boards, &mut out);
    for (got, want) in out.iter().zip(RECORDED) {
        assert!((got - want).abs() < 1e-3, "{out:?} against {RECORDED:?}");
    }
}

/// The shipped network's raw outputs on boards 0, 1, 2 of the random stream 1001.
const RECORDED: [f32; 3] = [4.128336, 4.8500032, 4.517206];

#[test]
fn bench_astar_runs_admissible_methods_and_refuses_bad_ones() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("astar.svg");
    // The 6-6-3 databases in the tests' shared cache (seconds to build), not the strongest
    // one a developer's own cache may hold.
    let cache = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("native-pdb-cache");
    let env = [
        ("TILEKIT_CACHE", cache.as_os_str()),
        ("TILEKIT_PDB", std::ffi::OsStr::new("6-6-3")),
    ];
    let bench = |args: &[&str]| {
        crate::common::tilekit_with(
            &crate::common::Opts {
                env: &env,
                exits_normally: true,
                ..Default::default()
            },
            args,
        )
    };
    // Optimality is the point, not speed: the stream's first three boards take A* on the
    // 6-6-3 databases about 10,000 expansions each (the fourth takes 4.3 million, minutes on a
    // slow machine), and the limit is a ceiling for a slow machine, not a race.
    let r = bench(&[
        "bench",
        "astar",
        "--count",
        "3",
        "--time-limit",
        "600",
        "--methods",
        "pdb,wa:1.5",
        "--svg",
        svg.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(r.stdout.lines().last().unwrap()).unwrap();
    assert_eq!(v["summary"]["boards"], 3);
    let m = v["rows"].as_array().unwrap();
    assert_eq!(m[0]["optimal_percent"], 100.0);
    assert_eq!(m[0]["proven_percent"], 100.0);
    assert!(m[1]["nodes"][0].as_f64().unwrap() <= m[0]["nodes"][0].as_f64().unwrap());
    let chart = std::fs::read_to_string(&svg).unwrap();
    assert!(chart.contains("<svg") && chart.contains("wa:1.5"));
    for (args, want) in [
        (vec!["--methods", "idastar"], "unknown method"),
        (vec!["--methods", "wa:0.5"], "at least 1"),
        (
            vec!["--instances", "EII"],
            "unexpected argument '--instances' found",
        ),
        (vec!["--batch", "0"], "--batch must be at least 1"),
        (vec!["--jobs", "0"], "--jobs must be at least 1"),
    ] {
        let mut a = vec!["bench", "astar", "--count", "2"];
        a.extend(args);
        let r = bench(&a);
        assert_eq!(r.code, 2, "{a:?}");
        assert!(r.stderr.contains(want), "{a:?}: {}", r.stderr);
    }
}

/// The benchmark's held-out boards (`bench astar`: seed 1001) appear nowhere in the shipped
/// network's training data, neither as a start nor on a path nor as a reflection of one.
#[test]
#[cfg_attr(
    not(feature = "slow-tests"),
    ignore = "slow tier: reads the 5-million-sample training data and expands every path, a minute or more on 2 cores (scripts/test.sh --full)"
)]
fn the_held_out_boards_are_not_in_the_training_data() {
    use tilekit::learn::data;
    let df = data::read(Path::new("models/sliding/ann-15/train-s1.tkd")).unwrap();
    let seen: std::collections::HashSet<u64> = data::samples(&df, true)
        .iter()
        .map(|s| pack(&s.tiles))
        .collect();
    assert!(seen.len() > 5_000_000);
    for i in 0..1000 {
        let b = data::board(4, 4, 1001, i);
        assert!(
            !seen.contains(&pack(&b)),
            "held-out board {i} was trained on"
        );
    }
}
