//! `tilekit run`: a matrix of real solvers over exported sets, every answer verified and
//! stored, the cross-check quiet when they agree and loud when a solver lies; resuming, bad
//! manifests, missing solvers, and a run killed half-way.

use crate::common::tilekit;
use rusqlite::Connection;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn export(dir: &Path, args: &[&str]) -> PathBuf {
    let mut a = vec!["export-set"];
    a.extend_from_slice(args);
    a.extend(["-o", s(dir)]);
    let r = tilekit(Path::new("."), &a);
    assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
    dir.join("manifest.json")
}

fn run(manifest: &Path, db: &Path, extra: &[&str]) -> crate::common::Run {
    let mut a = vec!["run", s(manifest), "--db", s(db), "--json"];
    a.extend_from_slice(extra);
    tilekit(Path::new("."), &a)
}

fn summary(r: &crate::common::Run) -> Value {
    serde_json::from_str(r.stdout.trim())
        .unwrap_or_else(|e| panic!("{e}: {}\n{}", r.stdout, r.stderr))
}

fn count(db: &Path, sql: &str) -> i64 {
    Connection::open(db)
        .unwrap()
        .query_row(sql, [], |r| r.get(0))
        .unwrap()
}

/// The MILP solvers of the matrix: the external ones and every embedded MILP engine built in.
fn embedded() -> &'static str {
    if cfg!(feature = "highs") {
        "microlp,varisat,highs-embedded"
    } else {
        "microlp,varisat"
    }
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn a_matrix_of_real_solvers_is_verified_stored_and_agrees() {
    let dir = tempfile::tempdir().unwrap();
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
    let db = d.join("r.sqlite");
    let solvers = format!("highs,cbc,glpk,cadical,minisat,cliquer,rc2,{}", embedded());
    for m in [&sliding, &meta] {
        let r = run(
            m,
            &db,
            &["--solvers", &solvers, "--time-limit", "5", "--jobs", "2"],
        );
        assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
        let v = summary(&r);
        assert_eq!(v["conflict_count"], 0, "{v}");
        assert_eq!(v["errors"], 0, "{v}");
        assert_eq!(v["ran"], v["cells"], "{v}");
    }
    // Every row is verified, or a time limit (microlp is slow on the case study's model).
    let bad = count(
        &db,
        "SELECT count(*) FROM runs WHERE NOT (verified = 1 AND status = 'solved') AND status != 'time_limit'",
    );
    assert_eq!(bad, 0);
    // The proven optima are the known ones, whoever proved them.
    let wrong = count(
        &db,
        "SELECT count(*) FROM runs r JOIN files f ON f.sha256 = r.file_sha256 JOIN instances i ON i.sha256 = f.instance_sha256
         WHERE r.optimal = 1 AND i.known_optimum IS NOT NULL AND r.objective != i.known_optimum",
    );
    assert_eq!(wrong, 0);
    let meta_optimal = count(
        &db,
        "SELECT count(*) FROM runs r JOIN files f ON f.sha256 = r.file_sha256 WHERE f.model IN ('milp','clique','sat','maxsat') AND r.optimal = 1 AND r.objective = 0",
    );
    assert!(
        meta_optimal >= 2 * 6,
        "META 3 and 4: a perfect board from each solver"
    );
    // Every solver of the matrix has rows, with its version and the command it ran.
    for solver in solvers.split(',') {
        let n = count(
            &db,
            &format!("SELECT count(*) FROM runs WHERE solver = '{solver}' AND command != ''"),
        );
        assert!(n > 0, "{solver}");
    }
    let total = count(&db, "SELECT count(*) FROM runs");
    // Every MILP solver's log states the bound it stops with: at a proven optimum, the
    // optimum itself. The claim is stored apart from the bounds tilekit proves.
    let unclaimed = count(
        &db,
        "SELECT count(*) FROM runs r JOIN files f ON f.sha256 = r.file_sha256
         WHERE r.solver IN ('highs', 'cbc', 'glpk') AND r.optimal = 1
           AND (r.solver_bound IS NULL OR abs(r.solver_bound - r.objective) > 1e-6)",
    );
    assert_eq!(unclaimed, 0, "optimal MILP runs whose log gives no bound");
    assert_eq!(
        count(
            &db,
            "SELECT count(*) FROM runs WHERE solver NOT IN ('highs', 'cbc', 'glpk') AND solver_bound IS NOT NULL"
        ),
        0
    );

    // Every external run is measured apart from its cell and keeps its logs; an embedded
    // engine runs inside tilekit and has neither.
    let embedded_list = embedded()
        .split(',')
        .map(|e| format!("'{e}'"))
        .collect::<Vec<_>>()
        .join(",");
    let unmeasured = count(
        &db,
        &format!(
            "SELECT count(*) FROM runs WHERE solver NOT IN ({embedded_list}) AND (solver_wall_s IS NULL OR solver_cpu_s IS NULL OR solver_max_rss_kb IS NULL OR solver_max_rss_kb <= 0 OR log_dir IS NULL OR solver_wall_s > seconds + 0.01)"
        ),
    );
    assert_eq!(unmeasured, 0, "external runs without measurements or logs");
    assert_eq!(
        count(
            &db,
            &format!(
                "SELECT count(*) FROM runs WHERE solver IN ({embedded_list}) AND (solver_wall_s IS NOT NULL OR log_dir IS NOT NULL)"
            )
        ),
        0
    );
    let logs: Vec<(String, String, String)> = {
        let conn = Connection::open(&db).unwrap();
        let mut stmt = conn
            .prepare("SELECT solver, log_dir, command FROM runs WHERE log_dir IS NOT NULL")
            .unwrap();
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    };
    for (solver, dir, command) in &logs {
        let dir = d.join(dir);
        for f in ["command.sh", "stdout.txt", "stderr.txt"] {
            assert!(
                dir.join(f).is_file(),
                "{solver}: {} lacks {f}",
                dir.display()
            );
        }
        let script = std::fs::read_to_string(dir.join("command.sh")).unwrap();
        assert!(script.contains(command.as_str()), "{script}\n{command}");
        assert!(!command.contains("SOLUTION"), "{command}");
    }
    // CBC's command, run again from its logs, writes its solution there again, as it did.
    let (_, cbc_dir, _) = logs
        .iter()
        .find(|(s, _, c)| s == "cbc" && c.contains(".lp"))
        .expect("a CBC run on an LP file");
    let cbc_dir = d.join(cbc_dir);
    let kept: Vec<PathBuf> = std::fs::read_dir(&cbc_dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sol"))
        .collect();
    assert_eq!(
        kept.len(),
        1,
        "CBC's solution file kept in {}",
        cbc_dir.display()
    );
    let before = std::fs::read_to_string(&kept[0]).unwrap();
    std::fs::remove_file(&kept[0]).unwrap();
    let again = std::process::Command::new("sh")
        .arg(cbc_dir.join("command.sh"))
        .output()
        .unwrap();
    assert!(again.status.success(), "{again:?}");
    let after = std::fs::read_to_string(&kept[0]).unwrap();
    assert_eq!(
        before.lines().next(),
        after.lines().next(),
        "the rerun's status line"
    );

    // A re-run runs nothing; with three rows deleted it runs exactly those three.
    let r = run(
        &sliding,
        &db,
        &["--solvers", &solvers, "--time-limit", "5", "--jobs", "2"],
    );
    assert_eq!(summary(&r)["ran"], 0, "{}", r.stdout);
    Connection::open(&db)
        .unwrap()
        .execute(
            "DELETE FROM runs WHERE id IN (SELECT r.id FROM runs r JOIN files f ON f.sha256 = r.file_sha256 WHERE r.solver = 'cbc' AND f.model IN ('neos', 'flow') LIMIT 3)",
            [],
        )
        .unwrap();
    let r = run(
        &sliding,
        &db,
        &["--solvers", &solvers, "--time-limit", "5", "--jobs", "2"],
    );
    assert_eq!(summary(&r)["ran"], 3, "{}", r.stdout);
    assert_eq!(count(&db, "SELECT count(*) FROM runs"), total);

    // The report: its tables count every run, and its charts are SVG with a line for every
    // configuration.
    let rep = d.join("report");
    let r = tilekit(Path::new("."), &["report", s(&db), "-o", s(&rep)]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let csv = std::fs::read_to_string(rep.join("solved.csv")).unwrap();
    let rows: Vec<Vec<&str>> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    let runs: i64 = rows.iter().map(|r| r[2].parse::<i64>().unwrap()).sum();
    assert_eq!(runs, total);
    let solved: i64 = rows.iter().map(|r| r[3].parse::<i64>().unwrap()).sum();
    let decided = count(
        &db,
        "SELECT count(*) FROM runs r JOIN files f ON f.sha256 = r.file_sha256
         WHERE (r.status = 'solved' AND r.verified = 1 AND (r.optimal = 1 OR f.model IN ('sat', 'clique'))) OR r.status = 'infeasible'",
    );
    assert_eq!(solved, decided);
    for family in ["sliding", "edge"] {
        let configs = rows.iter().filter(|r| r[0] == family).count();
        for chart in ["profile", "cactus"] {
            let svg = std::fs::read_to_string(rep.join(format!("{chart}-{family}.svg"))).unwrap();
            let mut reader = quick_xml::Reader::from_str(&svg);
            let mut lines = 0;
            loop {
                match reader
                    .read_event()
                    .unwrap_or_else(|e| panic!("{chart}-{family}.svg: {e}"))
                {
                    quick_xml::events::Event::Eof => break,
                    quick_xml::events::Event::Empty(e) | quick_xml::events::Event::Start(e)
                        if e.name().as_ref() == "polyline" =>
                    {
                        lines += 1
                    }
                    _ => {}
                }
            }
            assert!(
                lines >= configs,
                "{chart}-{family}: {lines} lines for {configs} configurations"
            );
        }
    }
    let html = std::fs::read_to_string(rep.join("index.html")).unwrap();
    assert!(html.contains("profile-edge.svg") && html.contains("cactus-sliding.svg"));
    assert!(
        std::fs::read_to_string(rep.join("summary.md"))
            .unwrap()
            .contains("## Conflicts: 0")
    );

    // A database of schema version 2 (no measurements, no seeds, the cell's key without
    // the seed) opens, keeps its rows and takes new ones.
    {
        let conn = Connection::open(&db).unwrap();
        conn.execute_batch(&format!(
            "BEGIN;
             CREATE TABLE runs_v3(
               id INTEGER PRIMARY KEY, file_sha256 TEXT NOT NULL REFERENCES files(sha256),
               solver TEXT NOT NULL, solver_version TEXT, time_limit REAL NOT NULL, threads INTEGER NOT NULL,
               status TEXT NOT NULL, objective REAL, bound REAL, optimal INTEGER NOT NULL, solver_claim TEXT,
               verified INTEGER NOT NULL, errors TEXT NOT NULL, solver_status TEXT NOT NULL,
               seconds REAL NOT NULL, host TEXT NOT NULL, command TEXT NOT NULL, executor TEXT NOT NULL,
               shard TEXT, tilekit_version TEXT NOT NULL, finished_at INTEGER NOT NULL,
               solver_wall_s REAL, solver_cpu_s REAL, solver_max_rss_kb INTEGER, log_dir TEXT,
               UNIQUE(file_sha256, solver, time_limit, threads));
             INSERT INTO runs_v3 SELECT {V3} FROM runs;
             DROP TABLE runs;
             ALTER TABLE runs_v3 RENAME TO runs;
             COMMIT;"
        ))
        .unwrap();
        for c in [
            "solver_wall_s",
            "solver_cpu_s",
            "solver_max_rss_kb",
            "log_dir",
        ] {
            conn.execute(&format!("ALTER TABLE runs DROP COLUMN {c}"), [])
                .unwrap();
        }
        for c in ["best_known", "best_source"] {
            conn.execute(&format!("ALTER TABLE instances DROP COLUMN {c}"), [])
                .unwrap();
        }
        conn.pragma_update(None, "user_version", 2).unwrap();
        conn.execute(
            "DELETE FROM runs WHERE id = (SELECT max(id) FROM runs WHERE solver = 'cbc')",
            [],
        )
        .unwrap();
    }
    let r = run(
        &sliding,
        &db,
        &["--solvers", &solvers, "--time-limit", "5", "--jobs", "2"],
    );
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert_eq!(summary(&r)["ran"], 1, "{}", r.stdout);
    assert_eq!(count(&db, "PRAGMA user_version"), 4);
    assert_eq!(count(&db, "SELECT count(*) FROM runs WHERE seed != 0"), 0);
    assert_eq!(count(&db, "SELECT count(*) FROM runs"), total);
    assert_eq!(
        count(
            &db,
            "SELECT count(*) FROM runs WHERE solver = 'cbc' AND solver_cpu_s IS NOT NULL"
        ),
        1,
        "the new row is measured, the old ones are not"
    );
}

/// The columns of a version 3 runs table.
const V3: &str = "id, file_sha256, solver, solver_version, time_limit, threads, status, objective, bound, optimal, solver_claim, verified, errors, solver_status, seconds, host, command, executor, shard, tilekit_version, finished_at, solver_wall_s, solver_cpu_s, solver_max_rss_kb, log_dir";

/// A registry file with the real HiGHS and a lying CBC.
fn liar_registry(dir: &Path) -> PathBuf {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/liar_cbc.sh");
    let text = format!(
        r#"[solver.highs]
kind = "milp"
command = "highs"
input = "lp"
args = ["--model_file", "{{model}}", "--solution_file", "{{solution}}", "--time_limit", "{{time_limit}}"]
solution = "highs"
version = ["--version"]

[solver.liar-cbc]
kind = "milp"
command = "sh"
input = "lp"
args = ["{}", "7", "{{model}}", "{{solution}}"]
solution = "cbc"

[solver.missing]
kind = "milp"
command = "/nonexistent/tilekit-test-solver"
input = "lp"
args = ["{{model}}", "{{solution}}"]
solution = "cbc"

[solver.sleeper]
kind = "milp"
command = "sh"
input = "lp"
args = ["-c", "sleep 97", "{{model}}", "{{solution}}"]
solution = "cbc"
"#,
        script.display()
    );
    let path = dir.join("solvers.toml");
    std::fs::write(&path, text).unwrap();
    path
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn a_solver_claiming_a_worse_optimum_is_refuted_at_its_cell_and_by_the_cross_check() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Optimum 5 at a horizon of 9: room for the liar's 7-move plan, which verifies.
    let m = export(
        &d.join("h9"),
        &[
            "short15:4",
            "--models",
            "neos",
            "--formats",
            "lp",
            "--horizon",
            "9",
        ],
    );
    let reg = liar_registry(d);
    let db = d.join("r.sqlite");
    let r = run(
        &m,
        &db,
        &[
            "--solvers",
            "highs,liar-cbc",
            "--solvers-file",
            s(&reg),
            "--time-limit",
            "20",
        ],
    );
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    // The plan verifies, but tilekit's own search finds a shorter one at the cell: the
    // liar's "Optimal" is a solver failure there, and the cross-check names it.
    let conflict = r
        .stderr
        .lines()
        .find(|l| l.contains("CONFLICT") && l.contains("impossible_answer"))
        .unwrap_or_else(|| panic!("no impossible_answer conflict: {}", r.stderr));
    for word in [
        "liar-cbc",
        "objective 7",
        "claims its plan of 7 moves is optimal",
        "tilekit's own search found one of 5 moves",
    ] {
        assert!(conflict.contains(word), "{word}: {conflict}");
    }
    assert_eq!(
        count(
            &db,
            "SELECT count(*) FROM runs WHERE solver = 'liar-cbc' AND status = 'unverified' AND verified = 0 AND optimal = 0 AND objective = 7"
        ),
        1
    );
    // HiGHS's optimum is tilekit's too: its IDA* proves the 5-move plan.
    assert_eq!(
        count(
            &db,
            "SELECT count(*) FROM runs WHERE solver = 'highs' AND verified = 1 AND optimal = 1 AND objective = 5 AND solver_claim IS NULL"
        ),
        1
    );
    // The report lists the conflict, and says so by its exit code.
    let r = tilekit(Path::new("."), &["report", s(&db), "-o", s(&d.join("rep"))]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let md = std::fs::read_to_string(d.join("rep/summary.md")).unwrap();
    assert!(
        md.contains("## Conflicts: 1") && md.contains("impossible_answer"),
        "{md}"
    );
    // The liar's refuted claim counts as failed, not solved; HiGHS's as solved.
    let csv = std::fs::read_to_string(d.join("rep/solved.csv")).unwrap();
    assert!(
        csv.contains("sliding,liar-cbc: neos lp,1,0,0,1,0\n"),
        "{csv}"
    );
    assert!(csv.contains("sliding,highs: neos lp,1,1,0,0,0\n"), "{csv}");
    // Running again finds the same conflicts from the stored rows alone.
    let r = run(
        &m,
        &db,
        &[
            "--solvers",
            "highs,liar-cbc",
            "--solvers-file",
            s(&reg),
            "--time-limit",
            "20",
        ],
    );
    assert_eq!(r.code, 1);
    assert_eq!(summary(&r)["ran"], 0);
}

#[test]
fn bad_manifests_and_missing_solvers_are_refused_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let m = export(
        &d.join("e"),
        &["short15:4-5", "--models", "neos", "--formats", "lp"],
    );
    let reg = liar_registry(d);
    let db = d.join("r.sqlite");
    let text = std::fs::read_to_string(&m).unwrap();
    let mut cases: Vec<(PathBuf, Vec<&str>, &str)> = vec![
        (
            m.clone(),
            vec!["--solvers", "nosuch"],
            "no solver called \"nosuch\"",
        ),
        (
            m.clone(),
            vec!["--solvers", "microlp,missing", "--solvers-file", s(&reg)],
            "is not installed",
        ),
        (
            m.clone(),
            vec!["--solvers", "varisat"],
            "no solver of --solvers reads any file",
        ),
    ];
    // An edited hash, an unknown field, another schema: one message each.
    let edited = d.join("e/edited.json");
    let v: Value = serde_json::from_str(&text).unwrap();
    let sha = v["files"][0]["sha256"].as_str().unwrap();
    std::fs::write(&edited, text.replace(sha, &"0".repeat(64))).unwrap();
    cases.push((edited, vec!["--solvers", "microlp"], "not the manifest's"));
    let unknown = d.join("e/unknown.json");
    std::fs::write(
        &unknown,
        text.replacen("\"schema\"", "\"colour\": 1,\n  \"schema\"", 1),
    )
    .unwrap();
    cases.push((
        unknown,
        vec!["--solvers", "microlp"],
        "unknown field `colour`",
    ));
    let schema2 = d.join("e/schema2.json");
    std::fs::write(
        &schema2,
        text.replace("tilekit-manifest/1", "tilekit-manifest/2"),
    )
    .unwrap();
    cases.push((
        schema2,
        vec!["--solvers", "microlp"],
        "schema \"tilekit-manifest/2\"",
    ));
    cases.push((
        d.join("e/none.json"),
        vec!["--solvers", "microlp"],
        "cannot read the manifest",
    ));
    for (manifest, args, says) in &cases {
        let mut a = vec!["run", s(manifest), "--db", s(&db)];
        a.extend(args.iter().copied());
        let r = tilekit(Path::new("."), &a);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(says), "{args:?}: {}", r.stderr);
        assert_eq!(
            r.stderr
                .lines()
                .filter(|l| l.starts_with("tilekit:"))
                .count(),
            1,
            "{}",
            r.stderr
        );
    }
    // A file changed on disk after the export.
    let f = d.join("e/files/short15-004.neos.lp");
    let mut bytes = std::fs::read(&f).unwrap();
    bytes.extend_from_slice(b"\\ edited\n");
    std::fs::write(&f, bytes).unwrap();
    let r = tilekit(
        Path::new("."),
        &["run", s(&m), "--db", s(&db), "--solvers", "microlp"],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("changed after the export"),
        "{}",
        r.stderr
    );
    // Nothing reached the database.
    if db.exists() {
        assert_eq!(count(&db, "SELECT count(*) FROM runs"), 0);
    }
}

/// A manifest that lists a file twice, names a family tilekit does not know, gives a file
/// another family than its instance, or calls a sliding instance an edge one, is refused
/// before anything runs.
#[test]
fn a_manifest_must_describe_one_consistent_matrix() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let m = export(
        &d.join("e"),
        &["short15:4", "--models", "neos", "--formats", "lp"],
    );
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&m).unwrap()).unwrap();
    let edit = |name: &str, f: &dyn Fn(&mut Value)| {
        let mut w = v.clone();
        f(&mut w);
        let p = d.join("e").join(name);
        std::fs::write(&p, serde_json::to_string_pretty(&w).unwrap()).unwrap();
        p
    };
    let cases = [
        (
            edit("twice.json", &|w| {
                let f = w["files"][0].clone();
                w["files"].as_array_mut().unwrap().push(f);
            }),
            "files[1] lists files/short15-004.neos.lp again (files[0] lists it first)",
        ),
        (
            edit("unknown.json", &|w| {
                w["instances"][0]["family"] = "tiles".into();
                w["files"][0]["family"] = "tiles".into();
            }),
            "instances[0] (short15-004): unknown family \"tiles\" (sliding or edge)",
        ),
        (
            edit("mixed.json", &|w| w["files"][0]["family"] = "edge".into()),
            "files[0] (files/short15-004.neos.lp) says family \"edge\", but its instance short15-004 is \"sliding\"",
        ),
        (
            edit("edge.json", &|w| {
                w["instances"][0]["family"] = "edge".into();
                w["files"][0]["family"] = "edge".into();
            }),
            "instances/short15-004.txt: the manifest says family \"edge\", but the instance is a sliding puzzle",
        ),
    ];
    for (manifest, says) in cases {
        let r = run(&manifest, &d.join("r.sqlite"), &["--solvers", "microlp"]);
        assert_eq!(r.code, 2, "{says}: {}", r.stderr);
        assert!(r.stderr.contains(says), "{says}: {}", r.stderr);
    }
}

/// A solver that writes to the file it is given damages the set: the cell that saw it is an
/// error row naming the new hash, and the run lists the file and exits 3 at once, instead of
/// the next run finding the set changed.
#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn a_solver_that_edits_its_input_is_caught_at_that_cell() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let m = export(
        &d.join("s"),
        &["short15:4", "--models", "neos", "--formats", "lp"],
    );
    let reg = d.join("solvers.toml");
    std::fs::write(
        &reg,
        r#"[solver.editor]
kind = "milp"
command = "sh"
input = "lp"
args = ['-c', 'echo "\ edited" >> "$0"; exec cbc "$0" -solve -solu "$1"', "{model}", "{solution}"]
solution = "cbc"
"#,
    )
    .unwrap();
    let db = d.join("r.sqlite");
    let r = run(
        &m,
        &db,
        &[
            "--solvers",
            "editor",
            "--solvers-file",
            s(&reg),
            "--time-limit",
            "30",
        ],
    );
    assert_eq!(r.code, 3, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains(
            "files/short15-004.neos.lp: a solver changed this file during the run: export the set again"
        ),
        "{}",
        r.stderr
    );
    assert_eq!(summary(&r)["damaged"][0], "files/short15-004.neos.lp");
    let error: String = Connection::open(&db)
        .unwrap()
        .query_row("SELECT errors FROM runs WHERE solver = 'editor'", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert!(
        error.contains("the file changed while editor ran (SHA-256 now"),
        "{error}"
    );
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn a_run_killed_half_way_keeps_its_rows_and_the_rerun_completes_them_once() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let m = export(
        &d.join("k"),
        &["short15:4-6", "--models", "neos", "--formats", "lp"],
    );
    let reg = liar_registry(d);
    let db = d.join("r.sqlite");
    // Per file: highs, then the sleeper, which holds the run until it is killed.
    let mut child = Command::new(env!("CARGO_BIN_EXE_tilekit"))
        .args([
            "run",
            s(&m),
            "--db",
            s(&db),
            "--solvers",
            "highs,sleeper",
            "--solvers-file",
            s(&reg),
            "--time-limit",
            "30",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let t = Instant::now();
    while !(db.exists() && count(&db, "SELECT count(*) FROM runs") >= 1) {
        assert!(t.elapsed() < Duration::from_secs(30), "no row was stored");
        std::thread::sleep(Duration::from_millis(100));
    }
    std::thread::sleep(Duration::from_millis(300));
    // While it writes the database, a second run on it is refused, and runs nothing.
    let second = run(&m, &db, &["--solvers", "highs", "--solvers-file", s(&reg)]);
    assert_eq!(second.code, 2, "{}", second.stderr);
    assert!(
        second
            .stderr
            .contains("another tilekit run is writing to this database"),
        "{}",
        second.stderr
    );
    // SAFETY: a plain kill(2) of our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(143), "{status}");
    let kept = count(&db, "SELECT count(*) FROM runs");
    assert!((1..6).contains(&kept), "{kept}");
    // No sleeper survives its run. The kill is sent before tilekit exits; give the kernel a
    // moment to finish it.
    let sleepers = || {
        Command::new("pgrep")
            .args(["-f", "sleep 97"])
            .output()
            .unwrap()
    };
    let until = std::time::Instant::now() + Duration::from_secs(5);
    let mut ps = sleepers();
    while !ps.stdout.is_empty() && std::time::Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
        ps = sleepers();
    }
    assert!(
        ps.stdout.is_empty(),
        "a solver outlived the run: {}",
        String::from_utf8_lossy(&ps.stdout)
    );
    // The re-run (HiGHS only) completes HiGHS's cells and stores none twice.
    let r = run(
        &m,
        &db,
        &[
            "--solvers",
            "highs",
            "--solvers-file",
            s(&reg),
            "--time-limit",
            "30",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        count(&db, "SELECT count(*) FROM runs WHERE solver = 'highs'"),
        3
    );
    assert_eq!(
        count(&db, "SELECT count(*) FROM runs"),
        count(
            &db,
            "SELECT count(*) FROM (SELECT DISTINCT file_sha256, solver, time_limit, threads FROM runs)"
        )
    );
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn a_solver_past_its_memory_limit_is_killed_and_stored_as_such() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let set = export(
        &d.join("s"),
        &["short15:1", "--models", "neos", "--formats", "lp"],
    );
    // A "solver" that takes 400 MB of resident memory and holds it, and real HiGHS.
    let reg = d.join("solvers.toml");
    std::fs::write(
        &reg,
        r#"[solver.hog]
kind = "milp"
command = "python3"
input = "lp"
args = ["-c", "import time; x = bytearray(400_000_000); time.sleep(20)", "{model}", "{solution}"]
solution = "highs"

[solver.highs]
kind = "milp"
command = "highs"
input = "lp"
args = ["--model_file", "{model}", "--solution_file", "{solution}", "--time_limit", "{time_limit}"]
solution = "highs"
"#,
    )
    .unwrap();
    let db = d.join("r.sqlite");
    let r = run(
        &set,
        &db,
        &[
            "--solvers",
            "hog,highs",
            "--solvers-file",
            s(&reg),
            "--time-limit",
            "30",
            "--memory-limit",
            "100",
        ],
    );
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let (status, wall, rss, errors): (String, f64, i64, String) = Connection::open(&db)
        .unwrap()
        .query_row(
            "SELECT status, solver_wall_s, solver_max_rss_kb, errors FROM runs WHERE solver = 'hog'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .unwrap();
    assert_eq!(status, "memory_limit", "{errors}");
    assert!(errors.contains("memory limit of 100 MB"), "{errors}");
    assert!(
        wall < 10.0,
        "killed when it passed the limit, not at the time limit: {wall} s"
    );
    assert!(rss >= 100_000, "its peak memory passed the limit: {rss} kB");
    // The real solver under the same limit is untouched.
    assert_eq!(
        count(
            &db,
            "SELECT count(*) FROM runs WHERE solver = 'highs' AND status = 'solved' AND verified = 1"
        ),
        1
    );
    // An embedded engine cannot be held to the limit: refused before anything runs.
    let r = run(
        &set,
        &d.join("other.sqlite"),
        &["--solvers", "microlp", "--memory-limit", "100"],
    );
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains("--memory-limit holds external solvers"),
        "{}",
        r.stderr
    );
    // A limit of nothing, and a limit NEOS would not keep, are refused too.
    for (extra, want) in [
        (
            &["--solvers", "hog", "--memory-limit", "0"][..],
            "--memory-limit must be at least 1",
        ),
        (
            &["--executor", "neos", "--memory-limit", "100"][..],
            "--memory-limit holds the solvers run here or on Slurm",
        ),
    ] {
        let mut args = vec!["--solvers-file", s(&reg)];
        args.extend_from_slice(extra);
        let r = run(&set, &d.join("third.sqlite"), &args);
        assert_eq!(r.code, 2, "{extra:?}: {}{}", r.stdout, r.stderr);
        assert!(r.stderr.contains(want), "{extra:?}: {}", r.stderr);
    }
}

/// On edge boards where not every run proves its optimum, the report measures quality: each
/// run's gap and anytime score against the instance's reference, per run (`runs.csv`), per
/// configuration (`quality.csv`), and as a Paver trace; the profile has a virtual-best line.
#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn the_report_scores_answers_that_nobody_proved() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let set = export(
        &d.join("m"),
        &[
            "meta2010:5-6",
            "--models",
            "milp,maxsat",
            "--formats",
            "lp,wcnf",
        ],
    );
    let db = d.join("r.sqlite");
    let r = run(
        &set,
        &db,
        &[
            "--solvers",
            "highs,open-wbo",
            "--time-limit",
            "5",
            "--jobs",
            "2",
        ],
    );
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let rep = d.join("rep");
    let r = tilekit(Path::new("."), &["report", s(&db), "-o", s(&rep)]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let runs = std::fs::read_to_string(rep.join("runs.csv")).unwrap();
    let mut lines = runs.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 4);
    let mut scored = 0;
    for row in &rows {
        let num = |name: &str| row[col(name)].parse::<f64>().ok();
        let score = num("score").expect("every run of an instance with a reference is scored");
        assert!((0.0..=1.0).contains(&score), "{row:?}");
        match (row[col("status")], num("objective"), num("reference")) {
            ("solved", Some(o), Some(reference)) => {
                scored += 1;
                assert!(reference <= o, "the reference is the best: {row:?}");
                assert!(
                    (score - (reference + 1.0) / (o + 1.0)).abs() < 1e-3,
                    "{row:?}"
                );
                let gap = num("gap").expect("a solved run has a gap");
                let want = if o == reference {
                    0.0
                } else {
                    (o - reference) / o
                };
                assert!((gap - want).abs() < 1e-3, "{row:?}");
            }
            _ => assert_eq!(score, 0.0, "no verified answer scores 0: {row:?}"),
        }
        assert!(num("solver_wall_s").is_some(), "{row:?}");
    }
    assert!(scored >= 2, "open-wbo proves both boards perfect: {runs}");
    let quality = std::fs::read_to_string(rep.join("quality.csv")).unwrap();
    assert!(quality.starts_with("family,configuration,runs,mean_score,mean_gap\n"));
    assert!(
        quality.contains("edge,open-wbo: maxsat wcnf,2,1.0000,0.0000\n"),
        "{quality}"
    );
    // Paver's trace: a header, then one record per run; open-wbo's are proven optimal.
    let trace = std::fs::read_to_string(rep.join("paver.trc")).unwrap();
    assert!(trace.starts_with("* Trace Record Definition\n"));
    let records: Vec<&str> = trace.lines().filter(|l| !l.starts_with('*')).collect();
    assert_eq!(records.len(), 4, "{trace}");
    for r in records.iter().filter(|r| r.contains(",open-wbo,")) {
        assert!(r.contains(",MAXSAT,open-wbo,0,1,1,0,"), "{r}");
    }
    let profile = std::fs::read_to_string(rep.join("profile-edge.svg")).unwrap();
    assert!(
        profile.contains("virtual best"),
        "the profile's legend names it"
    );
}

/// `--seeds N`: every cell runs under seeds 0 to N−1, `{seed}` in the solver's arguments, one
/// row and one log each; a solver whose entry takes no seed is refused, and the report shows
/// each seed as its own configuration.
#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn several_seeds_run_each_cell_once_per_seed() {
    crate::common::require("highs");
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let m = export(
        &d.join("s"),
        &["short8:1-2", "--models", "neos", "--formats", "lp"],
    );
    let db = d.join("r.sqlite");
    let r = run(&m, &db, &["--solvers", "highs,cbc", "--seeds", "3"]);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("cbc has no {seed}"), "{}", r.stderr);
    let r = run(&m, &db, &["--solvers", "highs", "--seeds", "0"]);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains("--seeds must be at least 1"),
        "{}",
        r.stderr
    );
    let r = run(&m, &db, &["--executor", "neos", "--seeds", "2"]);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr
            .contains("--seeds runs the solvers here or on Slurm"),
        "{}",
        r.stderr
    );
    assert!(!db.exists() || count(&db, "SELECT count(*) FROM runs") == 0);
    let r = run(
        &m,
        &db,
        &["--solvers", "highs", "--seeds", "3", "--time-limit", "20"],
    );
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert_eq!(summary(&r)["ran"], 6, "{}", r.stdout);
    assert_eq!(
        count(
            &db,
            "SELECT count(DISTINCT seed) FROM runs WHERE verified = 1 AND optimal = 1"
        ),
        3
    );
    let conn = Connection::open(&db).unwrap();
    let logs: Vec<(u32, String)> = conn
        .prepare("SELECT seed, log_dir FROM runs")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    for (seed, log) in &logs {
        let command = std::fs::read_to_string(d.join(log).join("command.sh")).unwrap();
        assert!(
            command.contains(&format!("'--random_seed' '{seed}'")),
            "{command}"
        );
    }
    // Run again: every seed's cell is done.
    let r = run(
        &m,
        &db,
        &["--solvers", "highs", "--seeds", "3", "--time-limit", "20"],
    );
    assert_eq!(summary(&r)["ran"], 0, "{}", r.stdout);
    let rep = d.join("rep");
    let out = tilekit(Path::new("."), &["report", s(&db), "-o", s(&rep)]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let csv = std::fs::read_to_string(rep.join("runs.csv")).unwrap();
    assert!(
        csv.lines().next().unwrap().contains(",threads,seed,"),
        "{csv}"
    );
    let summary_md = std::fs::read_to_string(rep.join("summary.md")).unwrap();
    assert!(
        summary_md.contains("highs seed 2: neos lp") && summary_md.contains("highs: neos lp"),
        "{summary_md}"
    );
}
