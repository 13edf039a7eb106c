//! The native route through the `tilekit` binary: `solve` defaults to it (JSON fields),
//! `--horizon auto` for export and the SAT/MILP routes, bad `--horizon` values (snapshotted),
//! and `bench`. The 15-puzzle databases come from `CARGO_TARGET_TMPDIR/native-pdb-cache`
//! (shared with tests/native.rs; built on first use).

use crate::common::{Opts, Run, tilekit_with};
use serde_json::Value;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use tempfile::TempDir;

fn case_study() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("models/sliding/neos_case_study.txt")
}

fn tilekit(dir: &Path, args: &[&str]) -> Run {
    let cache = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("native-pdb-cache");
    let env = [
        ("TILEKIT_CACHE", cache.as_os_str()),
        // Not the strongest cached file: tests/native.rs may have put the 7-8 one here, which
        // takes most of a second to load in every run.
        ("TILEKIT_PDB", OsStr::new("6-6-3")),
    ];
    tilekit_with(
        &Opts {
            dir: Some(dir),
            builtin_registry: true,
            env: &env,
            exits_normally: true,
        },
        args,
    )
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn solve_defaults_to_native_and_reports_search_figures() {
    let dir = TempDir::new().unwrap();
    let inst = case_study();
    let r = tilekit(dir.path(), &["solve", s(&inst), "--json"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let v: Value = serde_json::from_str(r.stdout.trim()).unwrap();
    assert_eq!(v["status"], "solved", "{v}");
    assert_eq!(v["model"], "native", "{v}");
    assert_eq!(v["solver"], "ida*", "{v}");
    assert_eq!(v["objective"].as_f64(), Some(11.0), "{v}");
    assert_eq!(v["bound"].as_f64(), Some(11.0), "{v}");
    assert_eq!(v["optimal"], true, "{v}");
    assert_eq!(v["verified"], true, "{v}");
    assert_eq!(v["horizon"], 11, "{v}");
    // 11 moves: the cheap first pass proves it before any database is loaded.
    assert_eq!(
        v["heuristic"], "manhattan + linear conflict, FSM 12 moves",
        "{v}"
    );
    assert_eq!(v["db_source"], "none", "{v}");
    assert!(v["nodes"].as_u64().is_some_and(|n| n >= 11), "{v}");
    assert!(v["initial_h"].as_u64().is_some_and(|h| h <= 11), "{v}");
    assert!(v["db_seconds"].as_f64().is_some(), "{v}");
    let moves = v["moves"].as_str().unwrap();
    assert_eq!(moves.len(), 11);
    // The plan is accepted by `verify` (independent replay).
    let sol = dir.path().join("plan.txt");
    std::fs::write(&sol, moves).unwrap();
    let r = tilekit(dir.path(), &["verify", s(&inst), s(&sol)]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    // Text output names the route.
    let r = tilekit(dir.path(), &["solve", s(&inst)]);
    assert!(
        r.stdout.starts_with("11 moves, optimal (native via ida*,"),
        "{}",
        r.stdout
    );
}

#[test]
fn horizon_auto_exports_the_smallest_feasible_model() {
    let dir = TempDir::new().unwrap();
    let inst = case_study();
    for (model, ext) in [("sat", "cnf"), ("neos", "lp"), ("flow", "mps")] {
        let auto = dir.path().join(format!("auto.{ext}"));
        let fixed = dir.path().join(format!("fixed.{ext}"));
        let r = tilekit(
            dir.path(),
            &[
                "export",
                s(&inst),
                "--model",
                model,
                "--horizon",
                "auto",
                "-o",
                s(&auto),
            ],
        );
        assert_eq!(r.code, 0, "{model}: {}", r.stderr);
        let r = tilekit(
            dir.path(),
            &[
                "export",
                s(&inst),
                "--model",
                model,
                "--horizon",
                "11",
                "-o",
                s(&fixed),
            ],
        );
        assert_eq!(r.code, 0, "{model}: {}", r.stderr);
        assert_eq!(
            std::fs::read(&auto).unwrap(),
            std::fs::read(&fixed).unwrap(),
            "{model}: --horizon auto must equal --horizon 11 (the optimum)"
        );
    }
}

#[test]
fn horizon_auto_on_the_sat_and_milp_routes() {
    let dir = TempDir::new().unwrap();
    // An 8-puzzle at depth 12 (models/sliding/eight_len*.txt are blank-last, so plant one).
    let (p, _) = tilekit::SlidingPuzzle::random_walk(3, 3, tilekit::Goal::BlankLast, 14, 7);
    let inst = dir.path().join("eight.txt");
    std::fs::write(&inst, p.to_text()).unwrap();
    let opt = tilekit::search::solve_one(
        &p,
        tilekit::Goal::BlankLast,
        &Default::default(),
        None,
        &|_| {},
    )
    .unwrap()
    .0
    .moves
    .unwrap()
    .len();
    for extra in [
        &["--via", "sat"][..],
        &["--via", "milp", "--model", "flow", "--solver", "microlp"][..],
    ] {
        let mut args = vec!["solve", s(&inst), "--horizon", "auto", "--json"];
        args.extend_from_slice(extra);
        let r = tilekit(dir.path(), &args);
        assert_eq!(r.code, 0, "{extra:?}: {}{}", r.stdout, r.stderr);
        let v: Value = serde_json::from_str(r.stdout.trim()).unwrap();
        assert_eq!(v["horizon"].as_u64(), Some(opt as u64), "{v}");
        assert_eq!(v["objective"].as_f64(), Some(opt as f64), "{v}");
        assert_eq!(v["verified"], true, "{v}");
    }
}

#[test]
fn bad_horizon_values_exit_2() {
    let dir = TempDir::new().unwrap();
    let inst = case_study();
    for (name, value) in [("horizon_word", "soon"), ("horizon_negative", "-3")] {
        let arg = format!("--horizon={value}");
        let r = tilekit(dir.path(), &["export", s(&inst), &arg]);
        assert_eq!(r.code, 2, "{value}: {}", r.stderr);
        assert!(r.stdout.is_empty());
        insta::assert_snapshot!(name, r.stderr);
    }
    let r = tilekit(
        dir.path(),
        &["solve", s(&inst), "--via", "native", "--model", "flow"],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    insta::assert_snapshot!("native_with_model", r.stderr);
    let r = tilekit(dir.path(), &["bench", "korf1000"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    insta::assert_snapshot!("bench_unknown_set", r.stderr);
}

#[test]
#[cfg_attr(
    not(feature = "slow-tests"),
    ignore = "slow tier: a benchmark set's searches, a minute on 2 cores; the other bench tests run in the quick tier (scripts/test.sh --full)"
)]
fn bench_checks_lengths_and_replays() {
    let dir = TempDir::new().unwrap();
    let r = tilekit(dir.path(), &["bench", "korf100", "--limit", "3", "--json"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout
            .contains("total: 3 of 3 solved optimally and replayed, 0 mismatches"),
        "{}",
        r.stdout
    );
    let summary: Value = serde_json::from_str(r.stdout.lines().last().unwrap()).unwrap();
    let rows = summary["rows"].as_array().unwrap();
    let found: Vec<u64> = rows.iter().map(|r| r["found"].as_u64().unwrap()).collect();
    assert_eq!(found, [57, 55, 59]);
    // The 24-puzzle with a tiny limit: stopped, not a mismatch, exit 1 (nothing found). An
    // empty cache, so that no 6-6-6-6 file left by an opt-in test is the default.
    let empty = TempDir::new().unwrap();
    let r = tilekit(
        dir.path(),
        &[
            "bench",
            "korf50-24",
            "--limit",
            "1",
            "--time-limit",
            "0.2",
            "--cache-dir",
            s(empty.path()),
        ],
    );
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("0 mismatches, 1 time limits"),
        "{}",
        r.stdout
    );
    // TILEKIT_PDB=6-6-3 (set by `tilekit`) is a 15-puzzle partition: the 24-puzzle ran with
    // Manhattan + linear conflict.
    assert!(
        r.stdout.contains("heuristic manhattan + linear conflict"),
        "{}",
        r.stdout
    );
    // DeepCubeA's set runs easiest first and shows the published node count.
    let r = tilekit(
        dir.path(),
        &[
            "bench",
            "deepcubea24",
            "--pdb",
            "none",
            "--limit",
            "1",
            "--time-limit",
            "0.2",
        ],
    );
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("published solver: 362615 nodes"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .lines()
            .nth(2)
            .unwrap()
            .trim_start()
            .starts_with("25 ")
    );
}

#[test]
fn unknown_or_misfitting_partitions_exit_2() {
    let dir = TempDir::new().unwrap();
    let r = tilekit(dir.path(), &["bench", "korf50-24", "--pdb", "7-8"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    insta::assert_snapshot!("bench_pdb_wrong_board", r.stderr);
    // Neither the cache nor the registry of the helper above: only the unknown partition.
    let r = tilekit_with(
        &Opts {
            dir: Some(dir.path()),
            env: &[("TILEKIT_PDB", OsStr::new("8-7"))],
            exits_normally: true,
            ..Opts::default()
        },
        &["bench", "korf100", "--limit", "1"],
    );
    assert_eq!(r.code, 2);
    insta::assert_snapshot!("tilekit_pdb_unknown", r.stderr);
}

/// The search options through `bench`: the plans still replay at the published lengths, and
/// the flags refuse what they cannot do with one clear sentence and exit 2.
#[test]
#[cfg_attr(
    not(feature = "slow-tests"),
    ignore = "slow tier: every search option over a benchmark set, a minute or more on 2 cores; bench_runs_the_recommended_search_and_the_papers_on_request runs in the quick tier (scripts/test.sh --full)"
)]
fn bench_search_options_solve_and_refuse_what_they_cannot() {
    let dir = TempDir::new().unwrap();
    let r = tilekit(
        dir.path(),
        &[
            "bench",
            "korf100",
            "--limit",
            "3",
            "--dual",
            "--bpmx",
            "--fsm",
            "12",
            "--threads",
            "2",
        ],
    );
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout
            .contains("total: 3 of 3 solved optimally and replayed, 0 mismatches"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("dual reflection, BPMX, FSM 12 moves, 2 threads")
    );
    // Each benchmark takes its own flags: clap refuses the others, and out-of-range values.
    for (args, says) in [
        (
            &["bench", "edge", "--dual"][..],
            "unexpected argument '--dual' found",
        ),
        (
            &["bench", "edge", "--max-with", "7-8"],
            "unexpected argument '--max-with' found",
        ),
        (
            &["bench", "korf100", "--threads", "0"],
            "0 is not in 1..=256",
        ),
        (&["bench", "korf100", "--fsm", "21"], "21 is not in 0..=20"),
        (
            &["bench", "korf100", "--interleave", "0"],
            "0 is not in 1..=64",
        ),
    ] {
        let r = tilekit(dir.path(), args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(says), "{args:?}: {}", r.stderr);
    }
    // What only the values together say wrong, tilekit says in one line.
    for (args, says) in [
        (
            &["bench", "korf100", "--interleave", "4", "--bpmx"][..],
            "does not combine with --bpmx or --threads",
        ),
        (
            &["bench", "korf100", "--pdb", "none", "--max-with", "6-6-3"],
            "not with none",
        ),
        (&["bench", "korf100", "--max-with", "none"], "not with none"),
        (
            &["bench", "korf100", "--pdb", "6-6-3", "--max-with", "6-6-3"],
            "is the one already in use",
        ),
        (
            &["bench", "korf100", "--max-with", "6-6-3"],
            "is the one already in use",
        ),
        (
            &["bench", "korf100", "--max-with", "6-6-6-6"],
            "\"6-6-6-6\" is not known for a 4×4 board",
        ),
    ] {
        let r = tilekit(dir.path(), args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(says), "{args:?}: {}", r.stderr);
        assert_eq!(r.stderr.trim().lines().count(), 1, "{}", r.stderr);
    }
    // Interleaved searches give each instance its one-at-a-time node count.
    let nodes = |extra: &[&str]| {
        let mut args = vec!["bench", "korf100", "--limit", "4", "--fsm", "12", "--json"];
        args.extend_from_slice(extra);
        let r = tilekit(dir.path(), &args);
        assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
        let json: serde_json::Value =
            serde_json::from_str(r.stdout.trim().lines().last().unwrap()).unwrap();
        assert_eq!(json["summary"]["mismatches"], 0);
        json["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|row| (row["id"].as_u64().unwrap(), row["nodes"].as_u64().unwrap()))
            .collect::<Vec<_>>()
    };
    let alone = nodes(&[]);
    assert_eq!(alone.len(), 4);
    assert_eq!(nodes(&["--interleave", "3", "--jobs", "2"]), alone);
}

/// `bench … --instances` on a sliding set: only those ids, in the set's order; an id the set
/// does not have, or one that is not a number, is a usage error (exit 2, one sentence).
#[test]
fn bench_instances_picks_ids_and_refuses_unknown_ones() {
    let dir = TempDir::new().unwrap();
    let r = tilekit(
        dir.path(),
        &["bench", "korf100", "--instances", "3,1", "--json"],
    );
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let last = r.stdout.trim().lines().last().unwrap();
    let v: serde_json::Value = serde_json::from_str(last).unwrap();
    let ids: Vec<u64> = v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["id"].as_u64().unwrap())
        .collect();
    assert_eq!(ids, [1, 3], "the set's order, only these");
    let r = tilekit(dir.path(), &["bench", "korf100", "--instances", "101"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("the set has no instance 101"),
        "{}",
        r.stderr
    );
    assert_eq!(r.stderr.trim().lines().count(), 1, "{}", r.stderr);
    let r = tilekit(dir.path(), &["bench", "korf100", "--instances", "x"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("invalid value 'x' for '--instances <INSTANCES>'"),
        "{}",
        r.stderr
    );
}

/// `bench` runs the recommended configuration (duplicate pruning to 12 moves, the fastest
/// measured); `--preset paper` is the plain search the published node counts come from.
#[test]
fn bench_runs_the_recommended_search_and_the_papers_on_request() {
    let dir = TempDir::new().unwrap();
    let run = |extra: &[&str]| -> (String, Vec<u64>) {
        let mut args = vec!["bench", "korf100", "--limit", "2", "--json"];
        args.extend_from_slice(extra);
        let r = tilekit(dir.path(), &args);
        assert_eq!(r.code, 0, "{extra:?}: {}{}", r.stdout, r.stderr);
        let json: Value = serde_json::from_str(r.stdout.trim().lines().last().unwrap()).unwrap();
        assert_eq!(json["summary"]["mismatches"], 0);
        let nodes = json["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|row| row["nodes"].as_u64().unwrap())
            .collect();
        (r.stdout, nodes)
    };
    let (out, recommended) = run(&[]);
    assert!(out.contains("FSM 12 moves"), "{out}");
    assert_eq!(run(&["--fsm", "12"]).1, recommended);
    let (out, paper) = run(&["--preset", "paper"]);
    assert!(!out.contains("FSM"), "{out}");
    assert_eq!(run(&["--fsm", "0"]).1, paper);
    assert!(
        recommended.iter().sum::<u64>() < paper.iter().sum::<u64>(),
        "{recommended:?} against {paper:?}"
    );
    // A preset is the native sets' own.
    let r = tilekit(dir.path(), &["bench", "edge", "--preset", "paper"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("unexpected argument '--preset' found"),
        "{}",
        r.stderr
    );
}

/// `bench korf100` on Manhattan distance for the instances `ids`, with checkpoint `ck`.
fn md_bench<'a>(ids: &'a str, ck: &'a Path) -> Vec<&'a str> {
    vec![
        "bench",
        "korf100",
        "--pdb",
        "none",
        "--instances",
        ids,
        "--checkpoint",
        s(ck),
    ]
}

/// A `bench` row: (id, found, lower bound, nodes, from the checkpoint, resumed at).
type BenchRow = (u64, Option<u64>, u64, u64, bool, Option<u64>);

/// `bench`'s rows, in id order.
fn bench_rows(r: &Run) -> Vec<BenchRow> {
    let v: Value = serde_json::from_str(r.stdout.lines().last().unwrap()).unwrap();
    v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| {
            (
                x["id"].as_u64().unwrap(),
                x["found"].as_u64(),
                x["lower_bound"].as_u64().unwrap(),
                x["nodes"].as_u64().unwrap(),
                x["from_checkpoint"].as_bool().unwrap(),
                x["resumed_from"].as_u64(),
            )
        })
        .collect()
}

/// A benchmark with a checkpoint directory: an instance stopped by its time limit is
/// reported from its file, and continues from its proven bound under a longer limit; a run
/// killed half-way through an instance resumes it from the last bound it recorded and
/// redoes no finished instance; both count the nodes one unbroken search counts.
#[test]
fn bench_checkpoints_resume_after_a_limit_and_after_a_kill() {
    let dir = TempDir::new().unwrap();
    let (limited, killed) = (dir.path().join("limited"), dir.path().join("killed"));
    // Korf's second board takes a tenth of a second on Manhattan + linear conflict, the third
    // three seconds.
    let bench = |ck: &Path, extra: &[&str]| {
        let mut a = md_bench("2,3", ck);
        a.push("--json");
        a.extend_from_slice(extra);
        tilekit(dir.path(), &a)
    };
    let r = bench(&limited, &["--time-limit", "1"]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    let first = bench_rows(&r);
    assert_eq!(first[0].1, Some(55), "{}", r.stdout);
    let (_, found, stopped_at, ..) = first[1];
    assert_eq!(found, None, "{}", r.stdout);
    // The same limit again: nothing is left to search.
    let r = bench(&limited, &["--time-limit", "1"]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(bench_rows(&r).iter().all(|row| row.4), "{}", r.stdout);
    assert!(r.stdout.contains("databases none"), "{}", r.stdout);
    // No limit: the third board continues from the bound it proved.
    let r = bench(&limited, &[]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let whole = bench_rows(&r);
    assert_eq!(whole[1].1, Some(59), "{}", r.stdout);
    assert_eq!(whole[1].5, Some(stopped_at), "{}", r.stdout);

    // Killed while the third board runs, once its file holds a bound but no plan.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_tilekit"))
        .arg("--quiet")
        .args(md_bench("2,3", &killed))
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let third = killed.join("korf100-3.json");
    let started = std::time::Instant::now();
    loop {
        if let Ok(t) = std::fs::read_to_string(&third)
            && serde_json::from_str::<Value>(&t).is_ok()
        {
            break;
        }
        assert!(
            started.elapsed().as_secs() < 60,
            "no checkpoint of #3 within 60 s"
        );
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    // What the killed run recorded last (it may have gone on between the read and the kill).
    let partial: Value = serde_json::from_str(&std::fs::read_to_string(&third).unwrap()).unwrap();
    assert!(partial.get("plan").is_none(), "{partial}");
    let r = bench(&killed, &[]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let resumed = bench_rows(&r);
    assert!(
        resumed[0].4,
        "#2 was finished before the kill: {}",
        r.stdout
    );
    assert_eq!(
        resumed[1].5,
        partial["lower_bound"].as_u64(),
        "{}",
        r.stdout
    );
    // Plans, bounds and node counts are those of the runs that were not killed.
    let key = |rows: &[BenchRow]| {
        rows.iter()
            .map(|r| (r.0, r.1, r.2, r.3))
            .collect::<Vec<_>>()
    };
    assert_eq!(key(&resumed), key(&whole));
}

/// A checkpoint of other search options, or a damaged one, is refused (exit 2) and kept.
#[test]
fn bench_refuses_a_checkpoint_it_did_not_write() {
    let dir = TempDir::new().unwrap();
    let ck = dir.path().join("ck");
    let run = |extra: &[&str]| {
        let mut a = md_bench("2", &ck);
        a.extend_from_slice(extra);
        tilekit(dir.path(), &a)
    };
    assert_eq!(run(&[]).code, 0);
    let file = ck.join("korf100-2.json");
    let kept = std::fs::read(&file).unwrap();
    let r = run(&["--fsm", "10"]);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains("korf100-2.json") && r.stderr.contains("--checkpoint"),
        "{}",
        r.stderr
    );
    assert_eq!(std::fs::read(&file).unwrap(), kept);
    std::fs::write(&file, "{\"schema\": \"tilekit-bench-progress/1\",").unwrap();
    let r = run(&[]);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains("not a benchmark checkpoint"),
        "{}",
        r.stderr
    );
    let r = run(&["--interleave", "2"]);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    // On Slurm the results live in the checkpoint directory, and each task is one instance.
    let r = tilekit(
        dir.path(),
        &["bench", "korf100", "--pdb", "none", "--executor", "slurm"],
    );
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("--checkpoint"), "{}", r.stderr);
    let r = run(&["--executor", "slurm", "--jobs", "2"]);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("--jobs"), "{}", r.stderr);
}
