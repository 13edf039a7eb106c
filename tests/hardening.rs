//! Scripts, pipelines and batch systems: a closed or full stdout, `--json` errors, signals.
//! Each test runs the real binary the way a shell would.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn sliding() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("models/sliding/neos_case_study.txt")
}

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_tilekit"));
    c.env_remove("TILEKIT_SOLVERS").stdin(Stdio::null());
    c
}

/// Run with stdout a pipe whose reader is gone before anything is written: the command must
/// end quietly (no panic, no message) with the shell's SIGPIPE code, as `cat` does.
fn closed_pipe(args: &[&str]) {
    // Another test's child, forked between our spawn and its own exec, briefly holds a copy
    // of the read end; a write in that window succeeds and the run exits 0. Such a run says
    // nothing about tilekit, so it is tried again (a panic or a message never is).
    let mut out;
    let mut tries = 0;
    loop {
        let mut child = bin()
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        out = child.wait_with_output().unwrap();
        tries += 1;
        if out.status.code() != Some(0) || !out.stderr.is_empty() || tries == 5 {
            break;
        }
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(141),
        "{args:?}: {:?} {stderr}",
        out.status
    );
    assert!(stderr.is_empty(), "{args:?}: {stderr}");
}

#[test]
fn a_closed_stdout_ends_quietly() {
    let inst = sliding();
    let i = inst.to_str().unwrap();
    closed_pipe(&["solve", i, "--json"]);
    let dir = tempfile::tempdir().unwrap();
    let plan = dir.path().join("plan.txt");
    std::fs::write(&plan, "LLUUURRRDDD\n").unwrap();
    closed_pipe(&["verify", i, plan.to_str().unwrap()]);
    closed_pipe(&["solvers"]);
    // A streamed model of several megabytes fills the pipe buffer and hits the closed end.
    closed_pipe(&["export", i, "--model", "sat", "--horizon", "60"]);
}

/// Run with stdout on /dev/full.
fn full_disk(args: &[&str]) -> (Option<i32>, String) {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = bin()
        .args(args)
        .stdout(Stdio::from(full))
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn a_full_stdout_is_exit_3_naming_it() {
    let inst = sliding();
    let i = inst.to_str().unwrap();
    for args in [
        vec!["solve", i],
        vec!["export", i, "--horizon", "12"],
        vec!["solvers", "--json"],
    ] {
        let (code, stderr) = full_disk(&args);
        assert_eq!(code, Some(3), "{args:?}: {stderr}");
        assert!(
            stderr.starts_with("tilekit: standard output: cannot write: No space left on device"),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

#[test]
fn json_errors_are_json() {
    for (args, code) in [
        (vec!["solve", "no-such-file.txt", "--json"], 2),
        (vec!["solve", "x.txt", "--json", "--via", "cp"], 2),
        (vec!["verify", "no-such.txt", "x.sol", "--json"], 2),
    ] {
        let out = bin().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(code), "{args:?}");
        let stdout = String::from_utf8(out.stdout).unwrap();
        let v: serde_json::Value = serde_json::from_str(stdout.trim())
            .unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {stdout}"));
        assert_eq!(v["exit_code"], code, "{args:?}");
        let msg = v["error"].as_str().unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(!msg.is_empty() && stderr.contains(msg), "{msg} / {stderr}");
    }
}
