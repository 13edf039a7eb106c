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

/// True while `pid` is a live process (a zombie waiting for its reaper counts as gone).
fn alive(pid: &str) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => !stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
        Err(_) => false,
    }
}

fn wait_for(path: &Path) -> String {
    let until = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        if let Ok(s) = std::fs::read_to_string(path)
            && s.ends_with('\n')
        {
            return s.trim().to_string();
        }
        assert!(
            std::time::Instant::now() < until,
            "{} never appeared",
            path.display()
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// SIGTERM or SIGINT in the middle of an external solve: the solver's whole process group
/// dies with tilekit, the temporary directory is removed, and the exit code is the shell's.
#[test]
fn a_signal_ends_the_solver_and_removes_the_temporary_files() {
    for (signal, code) in [("TERM", 143), ("INT", 130)] {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let tmp = d.join("tmp");
        std::fs::create_dir(&tmp).unwrap();
        // The solver: a shell that starts a long sleep (a grandchild of tilekit) and waits.
        let script = d.join("sleeper.sh");
        std::fs::write(
            &script,
            format!(
                "#!/bin/sh\nsleep 300 &\necho $! > {0}/sleep.pid\necho $$ > {0}/sh.pid\nwait\n",
                d.display()
            ),
        )
        .unwrap();
        let reg = d.join("solvers.toml");
        std::fs::write(
            &reg,
            format!(
                "[solver.sleeper]\nkind = \"milp\"\ncommand = \"/bin/sh\"\ninput = \"lp\"\nargs = [\"{}\", \"{{model}}\", \"{{solution}}\"]\nsolution = \"cbc\"\n",
                script.display()
            ),
        )
        .unwrap();
        let inst = sliding();
        let child = bin()
            .args([
                "solve",
                inst.to_str().unwrap(),
                "--via",
                "milp",
                "--horizon",
                "11",
                "--solver",
                "sleeper",
                "--solvers",
                reg.to_str().unwrap(),
                "--time-limit",
                "600",
            ])
            .env("TMPDIR", &tmp)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let sh = wait_for(&d.join("sh.pid"));
        let sleep = wait_for(&d.join("sleep.pid"));
        assert!(alive(&sh) && alive(&sleep));
        assert_eq!(
            std::fs::read_dir(&tmp).unwrap().count(),
            1,
            "the model's temporary directory exists while the solver runs"
        );
        let k = Command::new("kill")
            .args([format!("-{signal}"), child.id().to_string()])
            .status()
            .unwrap();
        assert!(k.success());
        let out = child.wait_with_output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(code),
            "SIG{signal}: {:?}",
            out.status
        );
        // The kill is sent before tilekit exits; give the kernel a moment to finish it.
        let until = std::time::Instant::now() + std::time::Duration::from_secs(5);
        while (alive(&sh) || alive(&sleep)) && std::time::Instant::now() < until {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        assert!(!alive(&sh), "SIG{signal}: the solver survived");
        assert!(!alive(&sleep), "SIG{signal}: the solver's child survived");
        let left: Vec<_> = std::fs::read_dir(&tmp).unwrap().collect();
        assert!(left.is_empty(), "SIG{signal}: left behind {left:?}");
    }
}
