//! The NEOS client against a loopback XML-RPC server that plays NEOS on 127.0.0.1.
//!
//! The server ([`crate::common::neos_server`]) answers the documented forms and "runs" a job
//! by really solving it: LP/MPS jobs with the real `cbc`, GAMS jobs with the real `gams`
//! under `execMode=4` (NEOS forbids GAMS jobs to write files). So the whole chain, export →
//! job document → submit → wait → fetch → parse → decode → verify, runs on real solver
//! output.
//!
//! A missing `cbc` fails these tests; without the `solver-tests` feature (`TILEKIT_SKIP_SOLVERS=1`) they show as ignored. The GAMS
//! jobs need a licensed GAMS and are ignored unless the `test-gams` feature is on (see
//! `crate::common::gams`); one job goes to a `gams` whose licence has run out, everywhere.

use crate::common::neos_server::{Mode, SOLVERS, start_server};
use crate::common::require;
use quick_xml::Reader;
use quick_xml::events::Event;
use std::net::TcpListener;
use std::path::Path;
use tilekit::format::neos_job::{self, InputMethod};

const CASE_STUDY: &str = "5 1 2 3\n9 6 7 4\n13 10 11 8\n14 15 0 12\n";

struct Run {
    code: i32,
    /// stdout, or the error message (stderr without the `tilekit: ` prefix).
    text: String,
    /// stdout parsed as JSON, when it is JSON.
    json: Option<serde_json::Value>,
    seconds: f64,
}

/// Run `tilekit neos ARGS…` as the user does, a process of the real binary.
fn neos(args: &[&str]) -> Run {
    let mut all = vec!["neos"];
    all.extend_from_slice(args);
    let r = crate::common::tilekit_with(&crate::common::Opts::default(), &all);
    // The binary ends its output with one newline, as `println!` does. A failure's message
    // is on stderr (with --json, stdout holds it as `{"error": …}`); a report that failed
    // verification (exit 3) is on stdout.
    let error_only = r.stdout.trim().is_empty() || r.stdout.starts_with("{\"error\":");
    let text = if r.code >= 2 && error_only {
        r.stderr
            .lines()
            .last()
            .unwrap_or("")
            .trim_start_matches("tilekit: ")
            .to_string()
    } else {
        r.stdout.trim_end().to_string()
    };
    Run {
        code: r.code,
        json: serde_json::from_str(&text).ok(),
        text,
        seconds: r.seconds,
    }
}

struct Fixture {
    _dir: tempfile::TempDir,
    instance: String,
    jobs: String,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let instance = dir.path().join("case.txt");
    std::fs::write(&instance, CASE_STUDY).unwrap();
    let jobs = dir.path().join("state").join("neos-jobs.json");
    Fixture {
        instance: instance.display().to_string(),
        jobs: jobs.display().to_string(),
        _dir: dir,
    }
}

/// A fixture whose instance is the META 2010 4×4 edge-matching puzzle (24 inner seams, a
/// perfect board exists).
fn edge_fixture() -> Fixture {
    let f = fixture();
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("models/edge-matching/meta2010/pieces_04x04.txt");
    let instance = Path::new(&f.instance).with_file_name("meta4.txt");
    std::fs::copy(src, &instance).unwrap();
    Fixture {
        instance: instance.display().to_string(),
        ..f
    }
}

/// Options every call against a loopback server takes: short timeouts, few retries.
fn common<'a>(url: &'a str, f: &'a Fixture) -> Vec<&'a str> {
    vec![
        "--server",
        url,
        "--email",
        "tester@example.org",
        "--jobs-file",
        &f.jobs,
        "--timeout",
        "5",
        "--retries",
        "1",
        "--backoff",
        "0.1",
    ]
}

fn solve_case_study(solver: &str, input: &str) {
    let url = start_server(Mode::Normal);
    let f = fixture();
    let mut args = vec![
        "solve",
        &f.instance,
        "--horizon",
        "13",
        "--solver",
        solver,
        "--input",
        input,
        "--poll",
        "0.3",
        "--wait",
        "400",
        "--follow",
        "--json",
    ];
    args.extend(common(&url, &f));
    let r = neos(&args);
    assert_eq!(r.code, 0, "{}", r.text);
    let rep = r.json.clone().expect("a JSON solve report");
    assert_eq!(rep["verified"], true, "{}", rep["errors"]);
    assert_eq!(rep["status"], "solved");
    assert_eq!(rep["optimal"], true);
    assert_eq!(rep["objective"], 11.0);
    assert_eq!(rep["moves"].as_str().map(str::len), Some(11));
    assert_eq!(rep["horizon"], 13);
    let want = format!(
        "neos:milp:{}:{}",
        if solver == "cbc" { "Cbc" } else { solver },
        input.to_uppercase()
    );
    assert_eq!(rep["solver"], want.as_str());
    // The JSON line is the report; it never carries the job password.
    let json: serde_json::Value = serde_json::from_str(&r.text).unwrap();
    assert_eq!(json["moves"].as_str().map(str::len), Some(11));
    assert!(!r.text.contains("pw1"), "{}", r.text);
    // The job file keeps the password, privately.
    let jobs = std::fs::read_to_string(&f.jobs).unwrap();
    assert!(jobs.contains("\"password\": \"pw1000x\""), "{jobs}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&f.jobs).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    // `results` needs only the job number, and verifies again from the job file.
    let mut args = vec!["results", "1000"];
    args.extend(common(&url, &f));
    let again = neos(&args);
    assert_eq!(again.code, 0, "{}", again.text);
    assert!(
        again
            .text
            .starts_with("11 moves, optimal (neos via neos:milp:"),
        "{}",
        again.text
    );
}

#[test]
#[cfg_attr(
    not(all(feature = "slow-tests", feature = "solver-tests")),
    ignore = "slow tier: CBC on the case study's faithful model, minutes on 2 cores; the edge jobs run CBC through the server in the quick tier (scripts/test.sh --full)"
)]
fn mps_job_of_the_case_study_is_solved_by_cbc_and_verified() {
    require("cbc");
    solve_case_study("cbc", "mps");
}

#[test]
#[cfg_attr(
    not(all(feature = "slow-tests", feature = "solver-tests")),
    ignore = "slow tier: CBC on the case study's faithful model, minutes on 2 cores; the edge jobs run CBC through the server in the quick tier (scripts/test.sh --full)"
)]
fn lp_job_of_the_case_study_is_solved_by_cbc_and_verified() {
    require("cbc");
    solve_case_study("cbc", "lp");
}

/// The local GAMS (demo licence) bundles CPLEX, not CBC, so the GAMS job goes to
/// `milp:CPLEX:GAMS` (which NEOS also offers).
#[test]
#[cfg_attr(not(feature = "test-gams"), ignore = "needs a licensed GAMS")]
fn gams_job_of_the_case_study_is_solved_by_real_gams_and_verified() {
    solve_case_study("CPLEX", "gams");
}

/// A GAMS that its licence stops (one that replays GAMS's own output of such a run): the job
/// answers with the licensing error, and `neos solve` and `neos results` say it in one
/// sentence with the day the licence ran out, exit 3, instead of missing a solution block.
#[test]
fn a_gams_job_stopped_by_its_licence_is_reported_in_one_sentence() {
    let f = fixture();
    let gams = crate::common::expired_gams(Path::new(&f.instance).parent().unwrap());
    let url = crate::common::neos_server::start_server_with_gams(Mode::Normal, &gams);
    let mut args = vec![
        "solve",
        &f.instance,
        "--horizon",
        "13",
        "--solver",
        "CPLEX",
        "--input",
        "gams",
        "--poll",
        "0.2",
        "--wait",
        "60",
    ];
    args.extend(common(&url, &f));
    let want = "job 1000: GAMS stopped with a licensing error: its time-limited licence expired \
                on 2026-11-26 (\"Time-limited license expired 1 days ago\"); licence file \
                /opt/solvers/lib/python3.11/site-packages/gamspy_base/gamslice.txt";
    let r = neos(&args);
    assert_eq!((r.code, r.text.as_str()), (3, want));
    let mut args = vec!["results", "1000"];
    args.extend(common(&url, &f));
    let again = neos(&args);
    assert_eq!((again.code, again.text.as_str()), (3, want));
    // The raw output starts with the server's one-sentence answer, then GAMS's own log.
    let mut args = vec!["results", "1000", "--raw"];
    args.extend(common(&url, &f));
    let raw = neos(&args);
    assert!(
        raw.text
            .starts_with("Error: GAMS stopped with a licensing error: its time-limited"),
        "{}",
        raw.text
    );
    assert!(
        raw.text
            .contains("*** Status: Terminated due to a licensing error")
    );
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn infeasible_horizon_ends_with_exit_code_1() {
    require("cbc");
    let url = start_server(Mode::Normal);
    let f = fixture();
    let mut args = vec![
        "solve",
        &f.instance,
        "--horizon",
        "9",
        "--poll",
        "0.2",
        "--wait",
        "120",
    ];
    args.extend(common(&url, &f));
    let r = neos(&args);
    assert_eq!(r.code, 1, "{}", r.text);
    assert!(
        r.text.starts_with("infeasible (Integer infeasible"),
        "{}",
        r.text
    );
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn job_references_status_bad_password_and_unknown_job() {
    require("cbc");
    let url = start_server(Mode::Normal);
    let f = fixture();
    let mut args = vec!["submit", &f.instance, "--horizon", "9", "--json"];
    args.extend(common(&url, &f));
    let r = neos(&args);
    assert_eq!(r.code, 0, "{}", r.text);
    let rec: serde_json::Value = serde_json::from_str(&r.text).unwrap();
    assert_eq!(rec["number"], 1000);
    assert_eq!(rec["password"], "***", "passwords stay out of JSON");
    assert_eq!(rec["input"], "mps");

    let mut args = vec!["status", "1000"];
    args.extend(common(&url, &f));
    let r = neos(&args);
    assert_eq!(r.code, 0, "{}", r.text);
    assert!(
        ["job 1000: Waiting", "job 1000: Running", "job 1000: Done"].contains(&r.text.as_str()),
        "{}",
        r.text
    );

    let mut args = vec!["status", "1000", "--password", "wrong"];
    args.extend(common(&url, &f));
    let r = neos(&args);
    assert_eq!(r.code, 2, "{}", r.text);
    assert_eq!(
        r.text,
        "the NEOS server rejected the password of job 1000 (\"Bad Password\")"
    );

    let mut args = vec!["results", "424242", "--password", "x"];
    args.extend(common(&url, &f));
    let r = neos(&args);
    assert_eq!(r.code, 2, "{}", r.text);
    assert_eq!(
        r.text,
        "the NEOS server does not know job 424242 (\"Unknown Job\")"
    );

    let mut args = vec!["status", "7"];
    args.extend(common(&url, &f));
    let r = neos(&args);
    assert_eq!(r.code, 2, "{}", r.text);
    assert!(r.text.contains("not in the job file"), "{}", r.text);

    // The job ends infeasible: results with --wait gives the "no" answer.
    let mut args = vec!["results", "1000", "--wait", "120", "--poll", "0.2"];
    args.extend(common(&url, &f));
    let r = neos(&args);
    assert_eq!(r.code, 1, "{}", r.text);
    let mut args = vec!["kill", "1000"];
    args.extend(common(&url, &f));
    assert_eq!(neos(&args).code, 0);
}

#[test]
fn solvers_and_ping() {
    let url = start_server(Mode::Normal);
    let f = fixture();
    let mut args = vec!["solvers", "--category", "milp"];
    args.extend(common(&url, &f));
    let r = neos(&args);
    assert_eq!(
        (r.code, r.text.as_str()),
        (0, "Cbc:MPS\nCbc:LP\nCbc:GAMS\nCPLEX:GAMS")
    );
    let mut args = vec!["solvers", "--json"];
    args.extend(common(&url, &f));
    let r = neos(&args);
    let all: Vec<String> = serde_json::from_str(&r.text).unwrap();
    assert_eq!(all, SOLVERS);
    let mut args = vec!["ping"];
    args.extend(common(&url, &f));
    assert_eq!(neos(&args).text, "NeosServer is alive");
}

#[test]
fn server_fault_is_a_clear_error_with_exit_code_3() {
    let url = start_server(Mode::Fault);
    let f = fixture();
    let mut args = vec!["solve", &f.instance, "--horizon", "13"];
    args.extend(common(&url, &f));
    let r = neos(&args);
    assert_eq!(r.code, 3, "{}", r.text);
    assert_eq!(
        r.text,
        "the NEOS server reported a fault for submitJob: NEOS is down for maintenance (fault code 1)"
    );
}

#[test]
fn malformed_response_is_a_clear_error_with_exit_code_3() {
    let url = start_server(Mode::Malformed);
    let f = fixture();
    let mut args = vec!["ping"];
    args.extend(common(&url, &f));
    let r = neos(&args);
    assert_eq!(r.code, 3, "{}", r.text);
    assert!(
        r.text.starts_with("malformed response to ping: "),
        "{}",
        r.text
    );
}

/// A server that answers with bytes that are not text, or not HTTP, answered: its reply is
/// malformed (exit 3), not a connection that failed.
#[test]
fn a_garbage_reply_is_malformed_not_a_failed_connection() {
    for (mode, what) in [
        (Mode::Binary, "the body is not UTF-8 text"),
        (Mode::NotHttp, "not an HTTP reply"),
    ] {
        let url = start_server(mode);
        let f = fixture();
        let mut args = vec!["ping"];
        args.extend(common(&url, &f));
        let r = neos(&args);
        assert_eq!(r.code, 3, "{}", r.text);
        let want = format!(
            "malformed response to ping: the server at {url} answered, but not with an XML-RPC reply: {what}"
        );
        assert!(r.text.starts_with(&want), "{}", r.text);
        assert!(!r.text.contains("cannot connect"), "{}", r.text);
    }
}

#[test]
fn connection_refused_is_retried_then_exit_code_3() {
    // A port that was just free: nothing listens there.
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("http://127.0.0.1:{port}");
    let f = fixture();
    let mut args = vec!["status", "5", "--password", "x"];
    args.extend(common(&url, &f));
    let r = neos(&args);
    assert_eq!(r.code, 3, "{}", r.text);
    assert!(r.text.contains("connection refused"), "{}", r.text);
    assert!(r.text.contains("(tried 2 times)"), "{}", r.text);
    assert!(r.seconds < 5.0, "took {} s", r.seconds);
}

#[test]
fn a_hanging_server_times_out_within_the_bound() {
    let url = start_server(Mode::Hang);
    let f = fixture();
    let mut args = vec!["status", "5", "--password", "x"];
    args.extend(common(&url, &f));
    let t = args.iter().position(|a| *a == "--timeout").unwrap();
    args[t + 1] = "1";
    let r = neos(&args);
    assert_eq!(r.code, 3, "{}", r.text);
    assert!(
        r.text
            .contains("did not answer getJobStatus within 1 s (tried 2 times)"),
        "{}",
        r.text
    );
    // Two attempts of 1 s plus a 0.1 s backoff, with slack; never the server's 20 s.
    assert!(r.seconds >= 2.0 && r.seconds < 6.0, "took {} s", r.seconds);
}

#[test]
fn missing_email_is_a_usage_error() {
    if std::env::var_os("NEOS_EMAIL").is_some() {
        eprintln!("NEOS_EMAIL is set: the missing-email case cannot be run here");
        return;
    }
    let f = fixture();
    let r = neos(&[
        "solve",
        &f.instance,
        "--horizon",
        "13",
        "--dry-run",
        "--jobs-file",
        &f.jobs,
    ]);
    assert_eq!(r.code, 2, "{}", r.text);
    assert!(
        r.text.contains("pass --email ADDRESS or set NEOS_EMAIL"),
        "{}",
        r.text
    );
}

/// Check well-formedness independently of tilekit's reader: every start tag closed in order.
fn assert_well_formed(xml: &str) {
    let mut r = Reader::from_str(xml);
    let mut depth = 0i32;
    loop {
        match r
            .read_event()
            .unwrap_or_else(|e| panic!("not well-formed: {e}\n{xml}"))
        {
            Event::Start(_) => depth += 1,
            Event::End(_) => depth -= 1,
            Event::Eof => break,
            _ => {}
        }
        assert!(depth >= 0);
    }
    assert_eq!(depth, 0);
}

#[test]
fn job_documents_of_every_input_method_are_valid_and_round_trip() {
    let f = fixture();
    for input in ["lp", "mps", "gams"] {
        let solver = if input == "gams" { "CPLEX" } else { "cbc" };
        let r = neos(&[
            "submit",
            &f.instance,
            "--horizon",
            "13",
            "--input",
            input,
            "--solver",
            solver,
            "--dry-run",
            "--email",
            "tester@example.org",
            "--jobs-file",
            &f.jobs,
        ]);
        assert_eq!(r.code, 0, "{}", r.text);
        let xml = r.text;
        assert_well_formed(&xml);
        let spec = neos_job::parse_job(&xml).unwrap();
        assert_eq!(spec.input.neos_name(), input.to_uppercase());
        assert_eq!(spec.email, "tester@example.org");
        // `neos()` trims the output's final newline; the document ends with one.
        assert_eq!(neos_job::job_to_string(&spec).unwrap().trim_end(), xml);
        match spec.input {
            InputMethod::Gams => {
                assert!(spec.model.contains("option mip = cplex"));
                assert!(spec.model.contains("tilekit-solution: begin"));
                assert!(xml.contains("<wantlog><![CDATA[yes]]></wantlog>"));
            }
            InputMethod::Mps => assert!(spec.model.contains("\nROWS")),
            InputMethod::Lp => assert!(spec.model.contains("Subject To")),
        }
    }
    // Nothing was submitted, so no job file was written.
    assert!(!Path::new(&f.jobs).exists());
}

/// The checks every verified edge report passes: a perfect board of the META 4×4, proven.
fn assert_perfect_edge_board(rep: &serde_json::Value, solver: &str, variant: &str) {
    assert_eq!(rep["status"], "solved", "{rep}");
    assert_eq!(rep["verified"], true, "{}", rep["errors"]);
    assert_eq!(rep["family"], "edge");
    assert_eq!(rep["model"], "milp");
    assert_eq!(rep["variant"], variant);
    assert_eq!(rep["solver"], solver);
    assert_eq!(rep["objective"], 0.0);
    assert_eq!(rep["optimal"], true);
    assert_eq!(rep["matched"], 24);
    assert_eq!(rep["max"], 24);
    assert_eq!(rep["errors"], serde_json::json!([]));
}

/// `neos solve` on an edge-matching instance: the edge MILP goes to NEOS as `input`, comes
/// back, is decoded to a board and verified; `neos results` verifies it again from the job
/// file alone.
fn solve_edge(solver: &str, input: &str, flags: &[&str], variant: &str) {
    let url = start_server(Mode::Normal);
    let f = edge_fixture();
    let board = Path::new(&f.instance).with_file_name("board.txt");
    let board = board.to_str().unwrap();
    let mut args = vec![
        "solve",
        &f.instance,
        "--solver",
        solver,
        "--input",
        input,
        "--poll",
        "0.2",
        "--wait",
        "300",
        "--follow",
        "--json",
        "-o",
        board,
    ];
    args.extend(flags);
    args.extend(common(&url, &f));
    let r = neos(&args);
    assert_eq!(r.code, 0, "{}", r.text);
    let label = format!(
        "neos:milp:{}:{}",
        if solver == "cbc" { "Cbc" } else { solver },
        input.to_uppercase()
    );
    assert_perfect_edge_board(r.json.as_ref().expect("a JSON report"), &label, variant);
    // `-o` wrote the verified board, as `solve -o` does: the checker alone accepts it.
    let v = crate::common::tilekit_with(
        &crate::common::Opts::default(),
        &["verify", &f.instance, board],
    );
    assert_eq!(v.code, 0, "{}{}", v.stdout, v.stderr);
    assert!(v.stdout.contains("valid"), "{}", v.stdout);
    // The job file says which family and options the job was built with.
    let jobs: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&f.jobs).unwrap()).unwrap();
    let inst = &jobs["jobs"][0]["instance"];
    assert_eq!(inst["family"], "edge", "{jobs}");
    assert_eq!(inst["model"], "milp");
    assert_eq!(inst["path"], f.instance.as_str());
    // `results` rebuilds the model from the job file (the instance file may be gone).
    std::fs::remove_file(&f.instance).unwrap();
    let mut args = vec!["results", "1000", "--json"];
    args.extend(common(&url, &f));
    let again = neos(&args);
    assert_eq!(again.code, 0, "{}", again.text);
    assert_perfect_edge_board(again.json.as_ref().expect("a JSON report"), &label, variant);
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn mps_job_of_an_edge_instance_is_solved_by_cbc_and_verified() {
    require("cbc");
    solve_edge("cbc", "mps", &[], "faithful");
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn lp_job_of_an_edge_instance_keeps_its_options_and_is_verified() {
    require("cbc");
    solve_edge("cbc", "lp", &["--filter", "--fix-corner"], "filter_fix");
}

/// The algebraic edge model (`templates/edge_milp.gms.tera`) run by the real GAMS, which
/// may not write files here, as on NEOS: the answer comes back through the log.
#[test]
#[cfg_attr(not(feature = "test-gams"), ignore = "needs a licensed GAMS")]
fn gams_job_of_an_edge_instance_is_solved_by_real_gams_and_verified() {
    solve_edge("CPLEX", "gams", &[], "faithful");
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn edge_job_submitted_now_is_verified_when_fetched_later() {
    require("cbc");
    let url = start_server(Mode::Normal);
    let f = edge_fixture();
    let mut args = vec!["submit", &f.instance, "--filter", "--json"];
    args.extend(common(&url, &f));
    let r = neos(&args);
    assert_eq!(r.code, 0, "{}", r.text);
    let rec = r.json.expect("a JSON job record");
    assert_eq!(rec["number"], 1000);
    assert_eq!(rec["instance"]["family"], "edge");
    assert_eq!(rec["instance"]["filter"], true);
    let mut args = vec!["results", "1000", "--wait", "120", "--poll", "0.2"];
    args.extend(common(&url, &f));
    let r = neos(&args);
    assert_eq!(r.code, 0, "{}", r.text);
    assert!(
        r.text.starts_with(
            "24 of 24 inner edges matched (0 unmatched, optimal; milp filter via neos:milp:Cbc:MPS,"
        ),
        "{}",
        r.text
    );
    // --raw prints CBC's own output, as the server returned it.
    let mut args = vec!["results", "1000", "--raw"];
    args.extend(common(&url, &f));
    let raw = neos(&args);
    assert_eq!(raw.code, 0, "{}", raw.text);
    assert!(
        raw.text.contains("Optimal - objective value 0"),
        "{}",
        raw.text
    );
}

/// `-o` writes a verified answer: a dry run, which has none, refuses it.
#[test]
fn a_dry_run_refuses_an_output_file() {
    let f = fixture();
    let out = Path::new(&f.instance).with_file_name("plan.txt");
    let r = neos(&[
        "solve",
        &f.instance,
        "--dry-run",
        "--email",
        "a@b.org",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 2, "{}", r.text);
    assert!(!out.exists());
}

/// A server whose answer is wrong (a placement turned after the solve): the board fails the
/// checks, the report says unverified, and a solver that contradicts the checks is a solver
/// failure: exit code 3; `results` judges it the same.
#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn a_wrong_edge_answer_from_the_server_is_unverified_with_exit_code_3() {
    require("cbc");
    let url = start_server(Mode::Tamper);
    let f = edge_fixture();
    let mut args = vec![
        "solve",
        &f.instance,
        "--poll",
        "0.2",
        "--wait",
        "120",
        "--json",
    ];
    args.extend(common(&url, &f));
    let r = neos(&args);
    assert_eq!(r.code, 3, "{}", r.text);
    let rep = r.json.expect("a JSON report");
    assert_eq!(rep["status"], "unverified", "{rep}");
    assert_eq!(rep["verified"], false);
    assert_eq!(rep["optimal"], false);
    let errors = rep["errors"].as_array().unwrap();
    assert!(!errors.is_empty(), "{rep}");
    let mut args = vec!["results", "1000"];
    args.extend(common(&url, &f));
    let again = neos(&args);
    assert_eq!(again.code, 3, "{}", again.text);
    assert!(again.text.starts_with("unverified"), "{}", again.text);
}

/// GAMS too: the tampered line is in the log's `tilekit-solution:` block.
#[test]
#[cfg_attr(not(feature = "test-gams"), ignore = "needs a licensed GAMS")]
fn a_wrong_gams_answer_from_the_server_is_unverified_with_exit_code_3() {
    let url = start_server(Mode::Tamper);
    let f = edge_fixture();
    let mut args = vec![
        "solve",
        &f.instance,
        "--solver",
        "CPLEX",
        "--input",
        "gams",
        "--poll",
        "0.2",
        "--wait",
        "120",
        "--json",
    ];
    args.extend(common(&url, &f));
    let r = neos(&args);
    assert_eq!(r.code, 3, "{}", r.text);
    let rep = r.json.expect("a JSON report");
    assert_eq!(rep["status"], "unverified", "{rep}");
    assert_eq!(rep["verified"], false);
}

#[test]
fn edge_job_documents_of_every_input_method_carry_the_edge_milp() {
    let f = edge_fixture();
    for input in ["lp", "mps", "gams"] {
        let solver = if input == "gams" { "CPLEX" } else { "cbc" };
        let r = neos(&[
            "submit",
            &f.instance,
            "--input",
            input,
            "--solver",
            solver,
            "--fix-corner",
            "--dry-run",
            "--email",
            "tester@example.org",
            "--jobs-file",
            &f.jobs,
        ]);
        assert_eq!(r.code, 0, "{}", r.text);
        let xml = r.text;
        assert_well_formed(&xml);
        let spec = neos_job::parse_job(&xml).unwrap();
        assert_eq!(spec.input.neos_name(), input.to_uppercase());
        assert!(
            spec.comments.contains("edge-matching puzzle") && spec.comments.contains("milp fix"),
            "{}",
            spec.comments
        );
        match spec.input {
            InputMethod::Gams => {
                assert!(
                    spec.model
                        .contains("Solve eternity using mip minimizing unmatched")
                );
                assert!(spec.model.contains("option mip = cplex"));
                assert!(spec.model.contains("tilekit-solution: begin"));
                assert!(spec.model.contains("--fix-corner"));
            }
            InputMethod::Mps => assert!(spec.model.contains("x_t1_r0_c0_a1"), "{}", spec.model),
            InputMethod::Lp => assert!(spec.model.contains("Subject To")),
        }
    }
    // `export --format neos` writes the same kind of document for an edge instance.
    let out = Path::new(&f.instance).with_file_name("job.xml");
    let r = crate::common::tilekit_with(
        &crate::common::Opts::default(),
        &[
            "export",
            &f.instance,
            "--format",
            "neos",
            "--input",
            "lp",
            "--email",
            "tester@example.org",
            "-o",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let spec = neos_job::parse_job(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(spec.input, InputMethod::Lp);
    assert!(spec.model.contains("x_t1_r0_c0_a0"), "{}", spec.model);
    // Models that are not MILPs do not go to NEOS.
    let r = neos(&[
        "submit",
        &f.instance,
        "--model",
        "sat",
        "--dry-run",
        "--email",
        "tester@example.org",
    ]);
    assert_eq!(r.code, 2, "{}", r.text);
    assert!(r.text.contains("a NEOS job carries a MILP"), "{}", r.text);
    assert!(!Path::new(&f.jobs).exists());
}

/// A job file written before edge jobs existed (no `family`, no edge options) still works.
#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn an_old_job_file_still_decodes_sliding_results() {
    require("cbc");
    let url = start_server(Mode::Normal);
    let f = fixture();
    let mut args = vec!["submit", &f.instance, "--horizon", "9"];
    args.extend(common(&url, &f));
    assert_eq!(neos(&args).code, 0);
    let mut jobs: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&f.jobs).unwrap()).unwrap();
    let inst = jobs["jobs"][0]["instance"].as_object_mut().unwrap();
    assert_eq!(inst.remove("family"), Some(serde_json::json!("sliding")));
    std::fs::write(&f.jobs, serde_json::to_string_pretty(&jobs).unwrap()).unwrap();
    let mut args = vec!["results", "1000", "--wait", "120", "--poll", "0.2"];
    args.extend(common(&url, &f));
    let r = neos(&args);
    assert_eq!(r.code, 1, "{}", r.text);
    assert!(
        r.text.starts_with("infeasible (Integer infeasible"),
        "{}",
        r.text
    );
}
