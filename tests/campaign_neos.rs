//! `tilekit run --executor neos` against the loopback NEOS server (the one allowed stand-in;
//! its solver is the real CBC): every MILP file one job, the job numbers kept, a re-run that
//! fetches instead of resubmitting, and the answers verified like a local run's.

use crate::common::neos_server::{Mode, start_counting_server};
use crate::common::tilekit;
use rusqlite::Connection;
use serde_json::Value;
use std::path::Path;
use std::sync::atomic::Ordering;

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
fn neos_jobs_are_submitted_once_fetched_on_a_rerun_and_verified() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let r = tilekit(
        d,
        &[
            "export-set",
            "short15:4-5",
            "--models",
            "neos,sat",
            "--formats",
            "lp,cnf",
            "-o",
            "set",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let (url, submitted) = start_counting_server(Mode::Normal);
    let run = |extra: &[&str]| neos_run(d, &url, extra);
    // Submit only: two LP files, two jobs, their numbers kept, no row yet.
    let r = run(&["--no-wait"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(submitted.load(Ordering::SeqCst), 2);
    let db = d.join("r.sqlite");
    assert_eq!(count(&db, "SELECT count(*) FROM remote_jobs"), 2);
    assert_eq!(count(&db, "SELECT count(*) FROM runs"), 0);
    // The passwords stay in the owner-only job file.
    let mode = std::os::unix::fs::PermissionsExt::mode(
        &std::fs::metadata(d.join("r.sqlite.neos-jobs.json"))
            .unwrap()
            .permissions(),
    );
    assert_eq!(mode & 0o077, 0, "{mode:o}");
    // The re-run fetches the two jobs (no new submission) and verifies the answers.
    let r = run(&[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: Value = serde_json::from_str(r.stdout.trim()).unwrap();
    assert_eq!(v["ran"], 2, "{v}");
    assert_eq!(submitted.load(Ordering::SeqCst), 2, "a job was sent twice");
    assert_eq!(
        count(
            &db,
            "SELECT count(*) FROM runs WHERE executor = 'neos' AND solver = 'neos:milp:Cbc:LP' AND verified = 1 AND optimal = 1"
        ),
        2
    );
    // The known optima (5 moves each), met.
    assert_eq!(
        count(&db, "SELECT count(*) FROM runs WHERE objective = 5"),
        2
    );
    // A third run has nothing to do.
    let r = run(&[]);
    let v: Value = serde_json::from_str(r.stdout.trim()).unwrap();
    assert_eq!(
        (v["ran"].as_u64(), v["done_before"].as_u64()),
        (Some(0), Some(2)),
        "{v}"
    );
    assert_eq!(submitted.load(Ordering::SeqCst), 2);
}

#[test]
fn neos_takes_milp_files_only_and_no_solver_list() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let r = tilekit(
        d,
        &[
            "export-set",
            "short15:4",
            "--models",
            "sat",
            "--formats",
            "cnf",
            "-o",
            "set",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let (url, _) = start_counting_server(Mode::Normal);
    let r = tilekit(
        d,
        &[
            "run",
            "set/manifest.json",
            "--db",
            "r.sqlite",
            "--executor",
            "neos",
            "--server",
            &url,
            "--email",
            "a@b.org",
        ],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("NEOS gets MILPs only"), "{}", r.stderr);
    let r = tilekit(
        d,
        &[
            "run",
            "set/manifest.json",
            "--db",
            "r.sqlite",
            "--executor",
            "neos",
            "--solvers",
            "cbc",
        ],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("leave --solvers out"), "{}", r.stderr);
}

/// NEOS's etiquette: never more than ten jobs out at once, however many files; the long
/// queue for a limit past the short queue's five minutes; an account's submission when
/// `$NEOS_USERNAME` and `$NEOS_PASSWORD` are set.
#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn a_neos_campaign_keeps_to_ten_jobs_out_and_the_right_queue() {
    use crate::common::neos_server::start_logging_server;
    use crate::common::{Opts, tilekit_with};
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let r = tilekit(
        d,
        &[
            "export-set",
            "short8:1-12",
            "--models",
            "neos",
            "--formats",
            "lp",
            "-o",
            "set",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let (url, log) = start_logging_server(Mode::Normal);
    let user = std::ffi::OsStr::new("ada");
    let password = std::ffi::OsStr::new("secret");
    let run = |db: &str, limit: &str, extra: &[&str]| {
        let mut a = vec![
            "run",
            "set/manifest.json",
            "--db",
            db,
            "--executor",
            "neos",
            "--server",
            &url,
            "--email",
            "campaign@example.org",
            "--neos-interval",
            "0",
            "--time-limit",
            limit,
            "--json",
        ];
        a.extend_from_slice(extra);
        tilekit_with(
            &Opts {
                dir: Some(d),
                env: &[("NEOS_USERNAME", user), ("NEOS_PASSWORD", password)],
                ..Opts::default()
            },
            &a,
        )
    };
    let r = run("r.sqlite", "60", &[]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let v: Value = serde_json::from_str(r.stdout.trim()).unwrap();
    assert_eq!(v["ran"], 12, "{v}");
    {
        let l = log.lock().unwrap();
        assert_eq!(l.max_outstanding, 10, "{l:?}");
        let submissions = l
            .methods
            .iter()
            .filter(|m| m.ends_with("ubmitJob"))
            .collect::<Vec<_>>();
        assert_eq!(submissions.len(), 12);
        assert!(
            submissions.iter().all(|m| *m == "authenticatedSubmitJob"),
            "{submissions:?}"
        );
        assert!(
            l.priorities.iter().all(|p| p == "short"),
            "{:?}",
            l.priorities
        );
    }
    // Submitting only: ten jobs go, the rest wait for a run that fetches those.
    let r = run("s.sqlite", "600", &["--no-wait"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert_eq!(
        count(&d.join("s.sqlite"), "SELECT count(*) FROM remote_jobs"),
        10
    );
    assert!(r.stdout.contains("2 cells left to send"), "{}", r.stdout);
    assert_eq!(
        log.lock().unwrap().priorities.last().map(String::as_str),
        Some("long"),
        "a 600 s limit goes to the long queue"
    );
    let r = run("s.sqlite", "600", &[]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert_eq!(count(&d.join("s.sqlite"), "SELECT count(*) FROM runs"), 12);
    // Half an account is refused before anything is sent.
    let r = tilekit_with(
        &Opts {
            dir: Some(d),
            env: &[("NEOS_USERNAME", user)],
            ..Opts::default()
        },
        &["neos", "ping", "--server", &url],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("NEOS_PASSWORD is not"), "{}", r.stderr);
    // The queue, as the server shows it.
    let r = tilekit(d, &["neos", "queue", "--server", &url]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.starts_with("Running:"), "{}", r.stdout);
}

/// A job's queue follows its time limit: NEOS's short queue stops a job at 5 minutes.
#[test]
fn a_job_past_five_minutes_asks_for_the_long_queue() {
    let case = Path::new(env!("CARGO_MANIFEST_DIR")).join("models/sliding/neos_case_study.txt");
    let case = case.to_str().unwrap();
    let dry = |extra: &[&str]| {
        let mut a = vec![
            "neos",
            "submit",
            case,
            "--email",
            "you@example.org",
            "--dry-run",
        ];
        a.extend_from_slice(extra);
        tilekit(Path::new("."), &a)
    };
    let r = dry(&["--time-limit", "120"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("<priority>short</priority>"),
        "{}",
        r.stdout
    );
    let r = dry(&["--time-limit", "600"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("<priority>long</priority>"),
        "{}",
        r.stdout
    );
    let r = dry(&["--time-limit", "600", "--priority", "short"]);
    assert_eq!(r.code, 2, "{}", r.stdout);
    assert!(
        r.stderr
            .contains("--priority short jobs run at most 300 s on NEOS"),
        "{}",
        r.stderr
    );
}

/// Export `set` as the case study's model in `format` into `d/set`.
fn neos_set(d: &Path, set: &str, format: &str) {
    let r = tilekit(
        d,
        &[
            "export-set",
            set,
            "--models",
            "neos",
            "--formats",
            format,
            "-o",
            "set",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
}

/// Run the set in `d` on the loopback NEOS at `url`, with `extra` arguments.
fn neos_run(d: &Path, url: &str, extra: &[&str]) -> crate::common::Run {
    let mut a = vec![
        "run",
        "set/manifest.json",
        "--db",
        "r.sqlite",
        "--executor",
        "neos",
        "--server",
        url,
        "--email",
        "campaign@example.org",
        "--neos-interval",
        "0.2",
        "--json",
    ];
    a.extend_from_slice(extra);
    tilekit(d, &a)
}

/// A GAMS set goes to any NEOS solver: its program prints its own solution, which tilekit
/// reads whoever solved it (here CPLEX, in the loopback server's real GAMS).
#[cfg_attr(not(feature = "test-gams"), ignore = "needs a licensed GAMS")]
#[test]
fn a_gams_set_goes_to_any_neos_solver_and_is_verified() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    neos_set(d, "short15:4-5", "gms");
    let (url, submitted) = start_counting_server(Mode::Normal);
    let r = neos_run(d, &url, &["--neos-solver", "cplex"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert_eq!(submitted.load(Ordering::SeqCst), 2);
    let db = d.join("r.sqlite");
    assert_eq!(
        count(
            &db,
            "SELECT count(*) FROM runs WHERE solver LIKE 'neos:milp:%:GAMS' AND verified = 1 AND objective = 5"
        ),
        2
    );
}

/// With GAMS's licence expired, the loopback server's real GAMS stops each job, and the
/// campaign stores that as the cell's error, in GAMS's own words, instead of a wrong answer.
#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[cfg_attr(
    feature = "test-gams",
    ignore = "GAMS is licensed here: a_gams_set_goes_to_any_neos_solver_and_is_verified runs instead"
)]
#[test]
fn an_unlicensed_gams_job_is_stored_as_the_licence_error() {
    crate::common::require("gams");
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    neos_set(d, "short15:4", "gms");
    let (url, submitted) = start_counting_server(Mode::Normal);
    let r = neos_run(d, &url, &["--neos-solver", "cplex"]);
    assert_eq!(submitted.load(Ordering::SeqCst), 1, "{}", r.stderr);
    let db = d.join("r.sqlite");
    let errors: String = Connection::open(&db)
        .unwrap()
        .query_row(
            "SELECT errors FROM runs WHERE status = 'error' AND solver LIKE 'neos:milp:%:GAMS'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(errors.contains("licen"), "{errors}");
}

/// An LP set cannot go to a solver whose listing tilekit does not read: refused before
/// anything is sent, with the way out.
#[test]
fn an_lp_set_for_another_neos_solver_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    neos_set(d, "short15:4", "lp");
    let (url, submitted) = start_counting_server(Mode::Normal);
    let r = neos_run(d, &url, &["--neos-solver", "cplex"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("--formats gms"), "{}", r.stderr);
    assert_eq!(submitted.load(Ordering::SeqCst), 0);
}
