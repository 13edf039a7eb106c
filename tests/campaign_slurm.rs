//! `tilekit run --executor slurm` against a real single-node Slurm cluster
//! (scripts/slurm-cluster.sh, started by scripts/test.sh, found through `SLURM_CONF`): the same
//! matrix as a local run gives the same rows; a task that crashes half-way keeps what it
//! finished, is named, and a re-run completes exactly the missing cells.

use crate::common::tilekit;
use rusqlite::Connection;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Panics unless a cluster is there (scripts/test.sh starts one).
fn cluster() {
    let conf = std::env::var("SLURM_CONF").unwrap_or_else(|_| {
        panic!("SLURM_CONF is not set: start a cluster with scripts/slurm-cluster.sh start DIR (scripts/test.sh does)")
    });
    assert!(
        Path::new(&conf).is_file(),
        "SLURM_CONF={conf}: no such file"
    );
}

fn export(dir: &Path, args: &[&str]) -> PathBuf {
    let mut a = vec!["export-set"];
    a.extend_from_slice(args);
    a.extend(["-o", s(dir)]);
    let r = tilekit(Path::new("."), &a);
    assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
    dir.join("manifest.json")
}

/// A command with its numbers with a fraction (the time left to the solver, which differs
/// from run to run) replaced by `T`.
fn without_times(command: &str) -> String {
    command
        .split(' ')
        .map(|w| {
            let bare = w.trim_matches('\'');
            if bare.contains('.') && bare.parse::<f64>().is_ok() {
                "T"
            } else {
                w
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The rows of a database, without what differs between executors (host, times, executor,
/// shard), sorted.
fn rows(db: &Path) -> Vec<String> {
    let c = Connection::open(db).unwrap();
    let mut stmt = c
        .prepare(
            "SELECT file_sha256, solver, solver_version, time_limit, threads, status, objective, bound,
                    optimal, verified, errors, solver_status, command, tilekit_version FROM runs",
        )
        .unwrap();
    let mut out: Vec<String> = stmt
        .query_map([], |r| {
            let mut v = Vec::new();
            for i in 0..14 {
                let x: rusqlite::types::Value = r.get(i)?;
                v.push(match x {
                    rusqlite::types::Value::Text(c) if i == 12 => without_times(&c),
                    x => format!("{x:?}"),
                });
            }
            Ok(v.join(" | "))
        })
        .unwrap()
        .map(Result::unwrap)
        .collect();
    out.sort();
    out
}

fn count(db: &Path, sql: &str) -> i64 {
    Connection::open(db)
        .unwrap()
        .query_row(sql, [], |r| r.get(0))
        .unwrap()
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn the_slurm_executor_stores_the_rows_a_local_run_stores() {
    cluster();
    let dir = tempfile::tempdir_in("/tmp").unwrap();
    let d = dir.path();
    let sliding = export(
        &d.join("s"),
        &[
            "short15:1-3",
            "--models",
            "neos,flow,sat",
            "--formats",
            "lp,cnf",
        ],
    );
    let meta = export(
        &d.join("m"),
        &[
            "meta2010:3-4",
            "--models",
            "milp,clique,sat,maxsat",
            "--formats",
            "lp,cnf,dimacs,wcnf",
            "--filter",
        ],
    );
    // The local matrix of campaign_run's test, but for microlp: it runs the case study's
    // model into its time limit, and a cell at its limit may end either way on a loaded
    // machine. Every other cell takes well under a second here.
    let solvers = "highs,cbc,glpk,cadical,minisat,cliquer,rc2,varisat";
    let (local, remote) = (d.join("local.sqlite"), d.join("slurm.sqlite"));
    for m in [&sliding, &meta] {
        let r = tilekit(
            Path::new("."),
            &[
                "run",
                s(m),
                "--db",
                s(&local),
                "--solvers",
                solvers,
                "--time-limit",
                "30",
                "--jobs",
                "2",
            ],
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
        let r = tilekit(
            Path::new("."),
            &[
                "run",
                s(m),
                "--db",
                s(&remote),
                "--solvers",
                solvers,
                "--time-limit",
                "30",
                "--executor",
                "slurm",
                "--wait",
                "--cells-per-task",
                "3",
                "--json",
            ],
        );
        assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
        let v: Value = serde_json::from_str(r.stdout.trim()).unwrap();
        assert_eq!(v["ran"], v["cells"], "{v}");
    }
    let (a, b) = (rows(&local), rows(&remote));
    assert!(!a.is_empty());
    assert_eq!(a, b, "local and Slurm rows differ");
    // The batch script asks for the time its tasks need.
    let scripts: Vec<String> = std::fs::read_dir(remote.with_extension("sqlite.slurm"))
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".sh"))
        .map(|e| std::fs::read_to_string(e.path()).unwrap())
        .collect();
    assert!(
        !scripts.is_empty() && scripts.iter().all(|s| s.contains("#SBATCH --time=")),
        "{scripts:?}"
    );
    // The Slurm tasks measure their solvers and keep their logs beside the database too.
    let measured =
        "SELECT count(*) FROM runs WHERE solver_cpu_s IS NOT NULL AND log_dir IS NOT NULL";
    assert!(count(&local, measured) > 0);
    assert_eq!(count(&remote, measured), count(&local, measured));
    let dir: String = Connection::open(&remote)
        .unwrap()
        .query_row(
            "SELECT log_dir FROM runs WHERE log_dir IS NOT NULL",
            [],
            |r| r.get(0),
        )
        .unwrap();
    let logs = remote.parent().unwrap().join(dir);
    assert!(logs.join("command.sh").is_file(), "{}", logs.display());
    assert_eq!(
        count(
            &remote,
            "SELECT count(*) FROM runs WHERE executor = 'slurm' AND shard IS NOT NULL"
        ),
        a.len() as i64
    );
    // Collecting again adds nothing.
    let r = tilekit(
        Path::new("."),
        &[
            "run",
            s(&sliding),
            "--db",
            s(&remote),
            "--executor",
            "slurm",
            "--collect",
            "--json",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: Value = serde_json::from_str(r.stdout.trim()).unwrap();
    assert_eq!(v["ran"], 0, "{v}");
    assert_eq!(rows(&remote), b);
}

fn registry(dir: &Path, name: &str, crasher: &str) -> PathBuf {
    let text = format!(
        r#"[solver.highs]
kind = "milp"
command = "highs"
input = "lp"
args = ["--model_file", "{{model}}", "--solution_file", "{{solution}}", "--time_limit", "{{time_limit}}"]
solution = "highs"

[solver.crasher]
kind = "milp"
input = "lp"
solution = "cbc"
{crasher}
"#
    );
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn a_crashed_task_keeps_its_rows_and_a_rerun_completes_the_rest() {
    cluster();
    let dir = tempfile::tempdir_in("/tmp").unwrap();
    let d = dir.path();
    let m = export(
        &d.join("k"),
        &["short15:4-5", "--models", "neos", "--formats", "lp"],
    );
    // The crasher kills the tilekit task that runs it: the task dies half-way.
    let crashing = registry(
        d,
        "crashing.toml",
        r#"command = "sh"
args = ["-c", "kill -KILL $PPID", "{model}", "{solution}"]"#,
    );
    let db = d.join("r.sqlite");
    let args = |reg: &Path| {
        vec![
            "run".to_string(),
            s(&m).into(),
            "--db".into(),
            s(&db).into(),
            "--solvers".into(),
            "highs,crasher".into(),
            "--solvers-file".into(),
            s(reg).into(),
            "--time-limit".into(),
            "30".into(),
            "--executor".into(),
            "slurm".into(),
            "--wait".into(),
            "--cells-per-task".into(),
            "2".into(),
        ]
    };
    let a = args(&crashing);
    let r = tilekit(
        Path::new("."),
        &a.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    // Two tasks, each HiGHS then the crasher: HiGHS's rows are kept, the tasks are named.
    assert_eq!(count(&db, "SELECT count(*) FROM runs"), 2);
    assert_eq!(
        count(
            &db,
            "SELECT count(*) FROM runs WHERE solver = 'highs' AND verified = 1"
        ),
        2
    );
    assert!(
        r.stderr
            .contains("did not finish: its 1 finished cells are kept"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains("2 cells of the submitted plans have no result yet"),
        "{}",
        r.stderr
    );
    // The same entry name, now a working solver: the re-run runs exactly the two missing cells.
    let fixed = registry(
        d,
        "fixed.toml",
        r#"command = "cbc"
args = ["{model}", "-solve", "-solu", "{solution}"]"#,
    );
    let a = args(&fixed);
    let mut a: Vec<&str> = a.iter().map(String::as_str).collect();
    a.push("--json");
    let r = tilekit(Path::new("."), &a);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: Value = serde_json::from_str(r.stdout.trim()).unwrap();
    assert_eq!(
        (v["done_before"].as_u64(), v["ran"].as_u64()),
        (Some(2), Some(2)),
        "{v}"
    );
    assert_eq!(count(&db, "SELECT count(*) FROM runs"), 4);
    assert_eq!(
        count(
            &db,
            "SELECT count(*) FROM runs WHERE verified = 1 AND optimal = 1"
        ),
        4
    );
}

#[test]
fn slurm_flags_belong_to_the_slurm_executor() {
    let dir = tempfile::tempdir().unwrap();
    let r = tilekit(
        dir.path(),
        &["run", "m.json", "--db", "r.sqlite", "--collect"],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("belong to --executor slurm"),
        "{}",
        r.stderr
    );
}

/// `bench --executor slurm`: one array task per instance, the plans gathered from the
/// shared checkpoint directory and replayed by the submitting process, equal to a local
/// run's; the same command again finds every instance finished and submits nothing.
#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs on the test suite's Slurm cluster: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn a_benchmark_on_slurm_returns_the_plans_a_local_run_finds() {
    cluster();
    let dir = tempfile::tempdir_in("/tmp").unwrap();
    let ck = dir.path().join("ck");
    let bench = |extra: &[&str]| {
        let mut a = vec![
            "bench",
            "korf100",
            "--pdb",
            "none",
            "--instances",
            "1,2,4",
            "--json",
        ];
        a.extend_from_slice(extra);
        tilekit(dir.path(), &a)
    };
    let rows = |stdout: &str| -> Vec<(u64, u64, u64, bool)> {
        let v: Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
        v["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| {
                (
                    x["id"].as_u64().unwrap(),
                    x["found"].as_u64().unwrap(),
                    x["nodes"].as_u64().unwrap(),
                    x["ok"].as_bool().unwrap(),
                )
            })
            .collect()
    };
    let local = bench(&[]);
    assert_eq!(local.code, 0, "{}{}", local.stdout, local.stderr);
    let slurm = bench(&["--executor", "slurm", "--checkpoint", s(&ck)]);
    assert_eq!(slurm.code, 0, "{}{}", slurm.stdout, slurm.stderr);
    assert_eq!(rows(&slurm.stdout), rows(&local.stdout));
    assert!(rows(&slurm.stdout).iter().all(|r| r.3), "{}", slurm.stdout);
    // Three tasks ran, each with its own instance's table in its log.
    let logs: Vec<String> = std::fs::read_dir(ck.join("slurm/logs"))
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    assert_eq!(logs.len(), 3, "{logs:?}");
    assert!(
        logs.iter().all(|l| l.contains("1 of 1 solved optimally")),
        "{logs:?}"
    );
    let again = bench(&["--progress", "--executor", "slurm", "--checkpoint", s(&ck)]);
    assert_eq!(again.code, 0, "{}{}", again.stdout, again.stderr);
    assert!(
        again.stderr.contains("nothing to submit"),
        "{}",
        again.stderr
    );
    assert_eq!(rows(&again.stdout), rows(&local.stdout));
    assert!(!ck.join("slurm/job-2.id").exists());
}

/// A hunt across the cluster: `bench edge --executor slurm` runs four seeds of the
/// depth-first search as four array tasks. Killed with its job cancelled half-way, the same
/// command again continues the stopped runs from their checkpoints, and no run ends below
/// the board it had kept; the best board comes back, judged by the independent checker.
#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs on the test suite's Slurm cluster: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn an_edge_hunt_on_slurm_keeps_its_boards_through_a_kill_and_returns_the_best() {
    cluster();
    let dir = tempfile::tempdir_in("/tmp").unwrap();
    let (ck, boards) = (dir.path().join("ck"), dir.path().join("boards"));
    let args = [
        "bench",
        "edge",
        "--instances",
        "10x10",
        "--methods",
        "dfs",
        "--runs",
        "4",
        "--budget",
        "6",
        "--threads",
        "1",
        "--checkpoint",
        s(&ck),
        "--boards",
        s(&boards),
        "--executor",
        "slurm",
        "--json",
    ];
    let puzzle = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("models/edge-matching/meta2010/pieces_10x10.txt");
    // The matched seams of a board file, by the independent checker.
    let judge = |board: &Path| -> u64 {
        let r = tilekit(dir.path(), &["verify", s(&puzzle), s(board), "--json"]);
        assert_eq!(r.code, 0, "{}: {}{}", board.display(), r.stdout, r.stderr);
        let v: Value = serde_json::from_str(&r.stdout).unwrap();
        assert_eq!(v["valid"], true, "{v}");
        v["matched"].as_u64().unwrap()
    };
    let board = |seed: u64| ck.join(format!("10x10-dfs-seed{seed}.board.txt"));
    let checkpoint = |seed: u64| ck.join(format!("10x10-dfs-seed{seed}.board.txt.dfs.json"));

    // The first two tasks (the cluster has two CPUs) are stopped once both keep a board.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_tilekit"))
        .arg("--quiet")
        .args(args)
        .current_dir(dir.path())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    let has_board = |seed: u64| {
        std::fs::read_to_string(checkpoint(seed))
            .ok()
            .and_then(|t| serde_json::from_str::<Value>(&t).ok())
            .is_some_and(|v| !v["best"].is_null())
    };
    while !(has_board(1) && has_board(2)) {
        assert!(
            started.elapsed().as_secs() < 60,
            "no board from the first two tasks within 60 s"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let job = std::fs::read_to_string(ck.join("slurm/job-1.id")).unwrap();
    let job = job.trim();
    let cancel = std::process::Command::new("scancel")
        .arg(job)
        .status()
        .unwrap();
    assert!(cancel.success());
    let gone = std::time::Instant::now();
    loop {
        let q = std::process::Command::new("squeue")
            .args(["-h", "-j", job])
            .output()
            .unwrap();
        if !q.status.success() || String::from_utf8_lossy(&q.stdout).trim().is_empty() {
            break;
        }
        assert!(
            gone.elapsed().as_secs() < 60,
            "job {job} still listed after 60 s"
        );
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    // What the stopped runs kept, and which of them the next run continues.
    let kept: Vec<Option<u64>> = (1..=4)
        .map(|seed| board(seed).exists().then(|| judge(&board(seed))))
        .collect();
    assert!(kept[0].is_some() && kept[1].is_some(), "{kept:?}");
    let stopped = (1..=4)
        .filter(|&seed| {
            checkpoint(seed).exists() && !ck.join(format!("10x10-dfs-seed{seed}.json")).exists()
        })
        .count() as u64;
    assert!(
        stopped >= 2,
        "the first two runs were stopped before their budget"
    );

    let r = tilekit(dir.path(), &args);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let v: Value = serde_json::from_str(r.stdout.lines().last().unwrap()).unwrap();
    let row = &v["rows"][0];
    let matched: Vec<u64> = row["matched"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_u64().unwrap())
        .collect();
    assert_eq!(matched.len(), 4, "{row}");
    assert_eq!(row["resumed"], stopped, "{row}");
    for (seed, (m, k)) in matched.iter().zip(&kept).enumerate() {
        assert!(
            k.is_none_or(|k| *m >= k),
            "seed {}: {m} after the resume, {k:?} kept before",
            seed + 1
        );
        assert_eq!(*m, judge(&board(seed as u64 + 1)), "seed {}", seed + 1);
    }
    // The best board, kept with the command that rebuilds it.
    let best = *matched.iter().max().unwrap();
    assert_eq!(row["best"], best);
    assert_eq!(judge(&boards.join("10x10-dfs-6s.txt")), best);
    // Every run finished: the same command again submits nothing.
    let again = tilekit(dir.path(), &args);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert!(!ck.join("slurm/job-3.id").exists());
}
