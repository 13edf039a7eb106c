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

/// A registry in `dir` whose one solver, `name`, is the shell script `body`: a `milp` solver
/// (LP in, CBC-style solution file as its second argument) or a `sat` one (CNF in,
/// SAT-competition output on stdout). Scripts run through /bin/sh: no freshly written
/// executable is exec'd (no ETXTBSY under parallel tests).
fn fake_solver(dir: &Path, name: &str, kind: &str, body: &str) -> PathBuf {
    let script = dir.join(format!("{name}.sh"));
    std::fs::write(&script, format!("#!/bin/sh\n{body}")).unwrap();
    let (input, args, solution) = match kind {
        "milp" => ("lp", r#""{model}", "{solution}""#, "cbc"),
        _ => ("cnf", r#""{model}""#, "sat"),
    };
    let reg = dir.join("solvers.toml");
    std::fs::write(
        &reg,
        format!(
            "[solver.{name}]\nkind = \"{kind}\"\ncommand = \"/bin/sh\"\ninput = \"{input}\"\nargs = [\"{}\", {args}]\nsolution = \"{solution}\"\n",
            script.display()
        ),
    )
    .unwrap();
    reg
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
    // The bench table stops at the first row nobody reads (the limit bounds a lost race).
    closed_pipe(&[
        "bench",
        "korf100",
        "--pdb",
        "none",
        "--limit",
        "2",
        "--time-limit",
        "2",
    ]);
    // A streamed model of several megabytes fills the pipe buffer and hits the closed end.
    closed_pipe(&["export", i, "--model", "sat", "--horizon", "60"]);
}

/// `tilekit ARGS` run by `sh -c SCRIPT`, where SCRIPT ends in `exec "$0" "$@"` (and its
/// redirections): a closed descriptor or a limit set the way a script or a batch system would.
fn through_shell(script: &str, args: &[&str]) -> std::process::Output {
    Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_tilekit"))
        .args(args)
        .env_remove("TILEKIT_SOLVERS")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// A run's stdout and stderr, for a message that may be on either.
fn both(out: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// A closed standard output (`>&-`) is an error, exit 2, not an answer lost without a word: the
/// runtime puts `/dev/null` there, which tilekit tells from a redirection to it by looking
/// before the runtime does. A redirection to `/dev/null` itself still succeeds.
#[test]
fn a_closed_stdout_is_an_error_not_a_silent_loss() {
    let i = sliding();
    let i = i.to_str().unwrap();
    for args in [
        vec!["export", i, "--horizon", "12", "-o", "-"],
        vec!["solve", i, "-o", "-"],
        vec!["solvers"],
    ] {
        let out = through_shell(r#"exec "$0" "$@" >/dev/null"#, &args);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        let out = through_shell(r#"exec "$0" "$@" >&-"#, &args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", both(&out));
        assert!(
            both(&out).contains("standard output is closed"),
            "{args:?}: {}",
            both(&out)
        );
    }
}

/// Under an address-space cap (`ulimit -v`, as a batch system sets), A* on an 80-move board
/// and a beam far wider than memory end with what they have and say so, never abort on a
/// refused allocation (exit 134).
#[test]
fn searches_under_a_memory_cap_end_with_their_bound_not_an_abort() {
    let dir = tempfile::tempdir().unwrap();
    let h80 = dir.path().join("h80.txt");
    std::fs::write(&h80, "4 4\n0 12 9 13\n15 11 10 14\n3 7 2 5\n4 8 6 1\n").unwrap();
    let e2 =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("models/edge-matching/eternity2/e2pieces.txt");
    let out = through_shell(
        r#"ulimit -v 1200000 && exec "$0" "$@""#,
        &[
            "solve",
            h80.to_str().unwrap(),
            "--via",
            "astar",
            "--heuristic",
            "manhattan",
            "--time-limit",
            "20",
        ],
    );
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{:?}: {}",
        out.status,
        both(&out)
    );
    assert!(
        both(&out).contains("at least"),
        "the bound is given: {}",
        both(&out)
    );
    let out = through_shell(
        r#"ulimit -v 700000 && exec "$0" "$@""#,
        &[
            "solve",
            e2.to_str().unwrap(),
            "--via",
            "heuristic",
            "--construct",
            "beam",
            "--set",
            "beam.width=99999999999",
            "--improve",
            "none",
            "--time-limit",
            "1",
        ],
    );
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{:?}: {}",
        out.status,
        both(&out)
    );
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
        let body = format!(
            "sleep 300 &\necho $! > {0}/sleep.pid\necho $$ > {0}/sh.pid\nwait\n",
            d.display()
        );
        let reg = fake_solver(d, "sleeper", "milp", &body);
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
                "--solvers-file",
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

/// SIGKILL, which no handler sees (the OOM killer, `timeout -s KILL`, a batch system's hard
/// kill): the solver and its own child still die with tilekit, and the temporary directory
/// left behind is removed by the next run.
#[test]
fn a_sigkilled_tilekit_leaves_no_solver_and_the_next_run_sweeps_its_files() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let tmp = d.join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let body = format!(
        "sleep 300 &\necho $! > {0}/sleep.pid\necho $$ > {0}/sh.pid\nwait\n",
        d.display()
    );
    let reg = fake_solver(d, "sleeper", "milp", &body);
    let inst = sliding();
    let solve = |reg: &Path, solver: &str| {
        let mut c = bin();
        c.args([
            "solve",
            inst.to_str().unwrap(),
            "--via",
            "milp",
            "--horizon",
            "11",
            "--solver",
            solver,
            "--solvers-file",
            reg.to_str().unwrap(),
            "--time-limit",
            "600",
        ])
        .env("TMPDIR", &tmp)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
        c
    };
    let mut child = solve(&reg, "sleeper").spawn().unwrap();
    let sh = wait_for(&d.join("sh.pid"));
    let sleep = wait_for(&d.join("sleep.pid"));
    assert!(alive(&sh) && alive(&sleep));
    child.kill().unwrap();
    let status = child.wait().unwrap();
    assert_eq!(
        std::os::unix::process::ExitStatusExt::signal(&status),
        Some(9)
    );
    let until = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while (alive(&sh) || alive(&sleep)) && std::time::Instant::now() < until {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(!alive(&sh), "the solver survived a SIGKILLed tilekit");
    assert!(
        !alive(&sleep),
        "the solver's child survived a SIGKILLed tilekit"
    );
    let left: Vec<_> = std::fs::read_dir(&tmp).unwrap().flatten().collect();
    assert_eq!(left.len(), 1, "the killed run's directory: {left:?}");
    assert!(
        left[0]
            .file_name()
            .to_string_lossy()
            .starts_with("tilekit-"),
        "{left:?}"
    );
    // The next run (here one whose solver fails at once) removes it, and its own.
    let quick = d.join("quick");
    std::fs::create_dir(&quick).unwrap();
    let reg = fake_solver(&quick, "quitter", "milp", "exit 1\n");
    let out = solve(&reg, "quitter").output().unwrap();
    assert_eq!(out.status.code(), Some(3), "{out:?}");
    let left: Vec<_> = std::fs::read_dir(&tmp).unwrap().flatten().collect();
    assert!(left.is_empty(), "left behind after the next run: {left:?}");
}

/// No command writes its output over one of its inputs, under whatever name it is given (the
/// same path, a symlink, a hard link): exit 2, the input unchanged, nothing written.
#[test]
fn no_output_replaces_an_input() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let case = d.join("case.txt");
    std::fs::copy(sliding(), &case).unwrap();
    let pieces = d.join("pieces.txt");
    std::fs::copy(
        root.join("models/edge-matching/brendan_set1/pieces_05x05.txt"),
        &pieces,
    )
    .unwrap();
    let link = d.join("link.txt");
    std::os::unix::fs::symlink(&case, &link).unwrap();
    // `export` takes the format from the output's extension.
    let link_lp = d.join("link.lp");
    std::os::unix::fs::symlink(&case, &link_lp).unwrap();
    let hard = d.join("hard.txt");
    std::fs::hard_link(&pieces, &hard).unwrap();
    let s = |p: &Path| p.to_str().unwrap().to_string();
    let cases: Vec<Vec<String>> = vec![
        vec!["solve".into(), s(&case), "-o".into(), s(&case)],
        vec!["solve".into(), s(&case), "-o".into(), s(&link)],
        vec!["render".into(), s(&case), "-o".into(), s(&case)],
        vec![
            "export".into(),
            s(&case),
            "--model".into(),
            "neos".into(),
            "--horizon".into(),
            "13".into(),
            "-o".into(),
            s(&link_lp),
        ],
        vec![
            "solve".into(),
            s(&pieces),
            "--via".into(),
            "heuristic".into(),
            "--time-limit".into(),
            "1".into(),
            "-o".into(),
            s(&pieces),
        ],
        vec![
            "solve".into(),
            s(&pieces),
            "--via".into(),
            "heuristic".into(),
            "--time-limit".into(),
            "1".into(),
            "-o".into(),
            s(&hard),
        ],
    ];
    let before = (
        std::fs::read(&case).unwrap(),
        std::fs::read(&pieces).unwrap(),
    );
    for args in &cases {
        let out = bin().args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("this command read") && err.contains("name another output file"),
            "{args:?}: {err}"
        );
        assert_eq!(
            (
                std::fs::read(&case).unwrap(),
                std::fs::read(&pieces).unwrap()
            ),
            before,
            "{args:?} changed an input"
        );
    }
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    let names: Vec<_> = std::fs::read_dir(d)
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(names.len(), 5, "nothing else written: {names:?}");
}

/// A model that would not fit in memory is refused before it is built, with its estimate:
/// exit 2, not an allocation abort.
#[test]
fn oversized_models_are_refused_with_their_estimate() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.txt");
    let g = bin()
        .args([
            "generate",
            "edge",
            "--rows",
            "100",
            "--cols",
            "100",
            "--frame-colours",
            "5",
            "--inner-colours",
            "20",
            "--seed",
            "1",
            "-o",
        ])
        .arg(&big)
        .output()
        .unwrap();
    assert!(g.status.success(), "{}", String::from_utf8_lossy(&g.stderr));
    let inst = sliding();
    let b = big.to_str().unwrap();
    let i = inst.to_str().unwrap();
    for (args, needle) in [
        (
            vec!["solve", b, "--via", "milp"],
            "the milp model of this 100×100 puzzle would have about 4.0e8 variables",
        ),
        (
            vec!["export", b, "--model", "sat"],
            "the sat model of this 100×100 puzzle would have about",
        ),
        (
            vec!["export", i, "--horizon", "99999999"],
            "the neos model at horizon 99999999 would have about 3.6e9 variables",
        ),
        (
            vec!["solve", i, "--via", "sat", "--horizon", "99999999"],
            "the sat model at horizon 99999999 would have about",
        ),
    ] {
        // The budget is pinned, so the test does not depend on this machine's memory.
        let out = bin()
            .args(&args)
            .env("TILEKIT_MAX_MEMORY_GB", "8")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
        assert!(
            stderr.contains("GB in memory, and this machine has 8.0 GB available"),
            "{args:?}: {stderr}"
        );
    }
}

/// `--time-limit` bounds the whole SAT horizon stepping, not each run: a solver that takes
/// 0.7 s to say UNSAT at every horizon would otherwise be run ~35 times for one 2 s limit.
#[test]
fn the_time_limit_bounds_the_whole_horizon_stepping() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let reg = fake_solver(
        d,
        "slow",
        "sat",
        "sleep 0.7\necho 's UNSATISFIABLE'\nexit 20\n",
    );
    let inst = sliding();
    let started = std::time::Instant::now();
    let out = bin()
        .args([
            "solve",
            inst.to_str().unwrap(),
            "--via",
            "sat",
            "--solver",
            "slow",
            "--solvers-file",
            reg.to_str().unwrap(),
            "--time-limit",
            "2",
            "--json",
        ])
        .output()
        .unwrap();
    let seconds = started.elapsed().as_secs_f64();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(v["status"], "time_limit", "{v}");
    // Whole seconds, with room for a loaded machine; the unbounded stepping takes ~25 s.
    assert!(seconds < 10.0, "took {seconds:.1} s for a 2 s limit");
}

/// A pattern database built for the first time is built within the time limit too: with an
/// empty cache, the 15-puzzle's `tight` MILP (whose bound reads 6-6-3) and the native search
/// on 6-6-3 end near `--time-limit 1`, whatever the build would have taken. The database is
/// then not saved, and the MILP's solver never starts.
#[test]
fn a_pattern_database_built_for_the_first_time_keeps_to_the_time_limit() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let cache = d.join("cache");
    std::fs::create_dir(&cache).unwrap();
    let reg = fake_solver(d, "sleeper", "milp", "sleep 30\n");
    let inst = sliding();
    let run = |args: &[&str]| {
        let started = std::time::Instant::now();
        let out = bin()
            .env("TILEKIT_CACHE", &cache)
            .args(args)
            .output()
            .unwrap();
        let seconds = started.elapsed().as_secs_f64();
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let v: serde_json::Value = serde_json::from_str(stdout.trim())
            .unwrap_or_else(|e| panic!("{e}: {stdout}{}", String::from_utf8_lossy(&out.stderr)));
        (out.status.code(), v, seconds)
    };
    let (code, v, seconds) = run(&[
        "solve",
        inst.to_str().unwrap(),
        "--via",
        "milp",
        "--solver",
        "sleeper",
        "--solvers-file",
        reg.to_str().unwrap(),
        "--time-limit",
        "1",
        "--json",
    ]);
    assert_eq!((code, &v["status"]), (Some(1), &"time_limit".into()), "{v}");
    // Room for a loaded machine and the solver's kill margin; building 6-6-3 took 18 s on the
    // VM under CI's load.
    assert!(seconds < 8.0, "took {seconds:.1} s for a 1 s limit: {v}");
    let (code, v, seconds) = run(&[
        "solve",
        inst.to_str().unwrap(),
        "--pdb",
        "6-6-3",
        "--time-limit",
        "1",
        "--json",
    ]);
    // A fast machine may build the database and solve the board within the second.
    assert!(
        matches!(
            (code, v["status"].as_str()),
            (Some(0), Some("solved")) | (Some(1), Some("time_limit"))
        ),
        "{v}"
    );
    assert!(seconds < 8.0, "took {seconds:.1} s for a 1 s limit: {v}");
}

/// A SAT solver that refutes every horizon up to the board's known diameter contradicts what
/// tilekit can prove (the board is solvable, so a plan exists within the diameter): a solver
/// failure, exit 3, as a bogus model is on either family.
#[test]
fn a_solver_refuting_every_horizon_of_a_solvable_board_is_a_failure() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let reg = fake_solver(d, "liar", "sat", "echo 's UNSATISFIABLE'\nexit 20\n");
    let inst = sliding();
    let run = |extra: &[&str]| {
        let mut args = vec![
            "solve",
            inst.to_str().unwrap(),
            "--via",
            "sat",
            "--solver",
            "liar",
            "--solvers-file",
            reg.to_str().unwrap(),
            "--json",
        ];
        args.extend_from_slice(extra);
        let out = bin().args(&args).output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).to_string();
        let v: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
        (out.status.code(), v)
    };
    let (code, v) = run(&[]);
    assert_eq!(code, Some(3), "{v}");
    assert_eq!(v["status"], "unverified", "{v}");
    assert!(
        v["errors"][0].as_str().unwrap().contains("a wrong UNSAT"),
        "{v}"
    );
    // Below the optimum (11), UNSAT is believable: a "no" for that horizon, exit 1.
    let (code, v) = run(&["--horizon", "9"]);
    assert_eq!(code, Some(1), "{v}");
    assert_eq!(v["status"], "no_solution", "{v}");
}

/// Claims tilekit can refute by itself are solver failures (exit 3), whatever the solver
/// says: an "optimal" plan that makes a move and undoes it (a SAT solver that lies UNSAT
/// below 13 moves), and "infeasible" at the horizon `--horizon auto` set from a plan in hand.
#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn optimality_and_infeasibility_claims_tilekit_can_refute_are_failures() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let inst = sliding();
    let run = |args: &[&str]| {
        let out = bin().args(args).arg("--json").output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).to_string();
        let v: serde_json::Value = serde_json::from_str(stdout.trim())
            .unwrap_or_else(|e| panic!("{e}: {stdout}{}", String::from_utf8_lossy(&out.stderr)));
        (out.status.code(), v)
    };
    let milp = d.join("milp");
    std::fs::create_dir(&milp).unwrap();
    let reg = fake_solver(
        &milp,
        "liar",
        "milp",
        "echo 'Infeasible - objective value 0.00000000' > \"$2\"\n",
    );
    let (code, v) = run(&[
        "solve",
        inst.to_str().unwrap(),
        "--via",
        "milp",
        "--horizon",
        "auto",
        "--solver",
        "liar",
        "--solvers-file",
        reg.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(3), "{v}");
    assert_eq!(v["status"], "unverified", "{v}");
    assert!(
        v["errors"]
            .to_string()
            .contains("tilekit's own search found one of 11 moves"),
        "{v}"
    );
    // UNSAT below 13, the truth (CaDiCaL) at 13: the plan it finds there has a detour.
    let sat = d.join("sat");
    std::fs::create_dir(&sat).unwrap();
    let reg = fake_solver(
        &sat,
        "liar",
        "sat",
        "if grep -q '_t13$' \"$1\"; then exec cadical -q \"$1\"; fi\necho 's UNSATISFIABLE'\nexit 20\n",
    );
    let (code, v) = run(&[
        "solve",
        inst.to_str().unwrap(),
        "--via",
        "sat",
        "--solver",
        "liar",
        "--solvers-file",
        reg.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(3), "{v}");
    assert_eq!(v["optimal"], false, "{v}");
    assert!(v["errors"].to_string().contains("undo each other"), "{v}");
}

/// Numbers past what the arithmetic behind them carries are refused with a short message
/// (not a wrong "infeasible", not a 300-digit echo); widths past the memory available are
/// lowered, and the time limit holds however wide a rebuild is asked to be.
#[test]
fn numbers_get_ranges_and_widths_fit_the_memory_and_the_clock() {
    let inst = sliding();
    let i = inst.to_str().unwrap();
    for (args, needle) in [
        (
            vec!["solve", i, "--via", "astar", "--suboptimality", "1e19"],
            "--suboptimality must be a number from 0 to 10^6, not 1e19",
        ),
        (
            vec!["solve", i, "--via", "astar", "--weight", "1e300"],
            "--weight must be a positive number of at most 10^6, not 1e300",
        ),
        (
            vec!["solve", i, "--threads", "0"],
            "--threads must be from 1 to 256, not 0",
        ),
        (
            vec!["solve", i, "--threads", "100000"],
            "--threads must be from 1 to 256, not 100000",
        ),
        (
            vec!["solve", i, "--time-limit", "1e300"],
            "below 10^9, not 1e300",
        ),
        (
            vec![
                "export-set",
                "korf100:0-5",
                "--models",
                "neos",
                "--formats",
                "lp",
                "-o",
                "/nonexistent/set",
            ],
            "instances are numbered from 1",
        ),
        (
            vec![
                "export-set",
                "korf100:1",
                "--models",
                "neos",
                "--formats",
                "lp",
                "--jobs",
                "0",
                "-o",
                "/nonexistent/set",
            ],
            "--jobs must be at least 1",
        ),
    ] {
        let out = bin().args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    // The largest focal bound allowed still finds the plan.
    let out = bin()
        .args([
            "solve",
            i,
            "--via",
            "astar",
            "--suboptimality",
            "1e6",
            "--heuristic",
            "manhattan",
        ])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A rebuild width no memory holds: lowered, said, and the limit kept.
    let e2 =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("models/edge-matching/eternity2/e2pieces.txt");
    let started = std::time::Instant::now();
    let out = bin()
        .args([
            "solve",
            e2.to_str().unwrap(),
            "--via",
            "heuristic",
            "--construct",
            "dfs",
            "--improve",
            "lns",
            "--set",
            "lns.width=99999999999",
            "--time-limit",
            "2",
            "--json",
        ])
        .env("TILEKIT_MAX_MEMORY_GB", "2")
        .output()
        .unwrap();
    let seconds = started.elapsed().as_secs_f64();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(v["verified"], true, "{v}");
    assert!(
        v["solver_status"]
            .as_str()
            .unwrap()
            .contains("lns.width 99999999999 lowered to"),
        "{v}"
    );
    // Room for a loaded machine; unbounded, this ran past 20 s and 3.8 GB.
    assert!(seconds < 8.0, "took {seconds:.1} s for a 2 s limit");
}

/// A bogus model (every variable false) for an edge-matching CNF: exit 3, as on the sliding
/// SAT route, not a "no".
#[test]
fn a_bogus_sat_model_is_a_solver_failure_on_edge_puzzles_too() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let reg = fake_solver(
        d,
        "bogus",
        "sat",
        "echo 's SATISFIABLE'\necho 'v 0'\nexit 10\n",
    );
    let inst = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("models/edge-matching/meta2010/pieces_04x04.txt");
    let out = bin()
        .args([
            "solve",
            inst.to_str().unwrap(),
            "--via",
            "sat",
            "--solver",
            "bogus",
        ])
        .arg("--solvers-file")
        .arg(&reg)
        .arg("--json")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(3),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(v["status"], "unverified", "{v}");
}

fn tilekit_in(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = bin().current_dir(dir).args(args).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

/// `verify` reads a raw output as `--model` says, and takes the horizon from the output:
/// the variable names of a MILP output, the variable count of a SAT one. An output checked
/// against a model exported with other flags is a usage error naming the right horizon,
/// not an "invalid" answer.
#[test]
#[cfg_attr(
    not(feature = "slow-tests"),
    ignore = "slow tier: CBC on the case study's faithful model, minutes on 2 cores; cli::verify_raw_glpk_output reads a raw output in the quick tier (scripts/test.sh --full)"
)]
fn verify_reads_raw_outputs_as_the_model_says_and_finds_their_horizon() {
    for cmd in ["cbc", "cadical"] {
        assert!(
            Command::new("sh")
                .args(["-c", &format!("command -v {cmd}")])
                .output()
                .unwrap()
                .status
                .success(),
            "{cmd} is needed (scripts/install-solvers.sh installs it)"
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let inst = sliding();
    let i = inst.to_str().unwrap();
    // CBC at horizon 13.
    let (code, _, err) = tilekit_in(d, &["export", i, "--horizon", "13", "-o", "case.lp"]);
    assert_eq!(code, Some(0), "{err}");
    let cbc = Command::new("cbc")
        .current_dir(d)
        .args(["case.lp", "-solve", "-solu", "case.sol"])
        .output()
        .unwrap();
    assert!(cbc.status.success());
    let (code, out, err) = tilekit_in(d, &["verify", i, "case.sol"]);
    assert_eq!(
        code,
        Some(0),
        "no --horizon: read from the output\n{out}{err}"
    );
    let (code, _, err) = tilekit_in(d, &["verify", i, "case.sol", "--horizon", "12"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("this output is for horizon 13, not 12") && err.contains("--horizon 13"),
        "{err}"
    );
    // Garbage given as a CBC output, and an empty file.
    std::fs::write(d.join("garbage.sol"), "hello\n").unwrap();
    std::fs::write(d.join("empty.sol"), "").unwrap();
    for f in ["garbage.sol", "empty.sol"] {
        let (code, _, err) = tilekit_in(d, &["verify", i, f, "--model", "neos"]);
        assert_eq!(code, Some(2), "{f}: {err}");
        assert!(
            err.contains("not a MILP solution file tilekit reads (CBC, HiGHS, GLPK, MIPLIB, SCIP, Gurobi, CPLEX XML)"),
            "{f}: {err}"
        );
    }
    // CaDiCaL on the CNF at horizon 11: its horizon is found from the variable count.
    let (code, _, err) = tilekit_in(
        d,
        &[
            "export",
            i,
            "--model",
            "sat",
            "--horizon",
            "11",
            "-o",
            "case.cnf",
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    let cad = Command::new("cadical")
        .current_dir(d)
        .arg("case.cnf")
        .output()
        .unwrap();
    assert_eq!(cad.status.code(), Some(10));
    std::fs::write(d.join("cad.out"), &cad.stdout).unwrap();
    let (code, out, err) = tilekit_in(d, &["verify", i, "cad.out", "--model", "sat"]);
    assert_eq!(code, Some(0), "{out}{err}");
    let (code, _, err) = tilekit_in(
        d,
        &["verify", i, "cad.out", "--model", "sat", "--horizon", "13"],
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("this output is for horizon 11, not 13"),
        "{err}"
    );
    // A SAT output without --model is named as such; `s UNKNOWN` is an output without an
    // answer, not a move file.
    let (code, _, err) = tilekit_in(d, &["verify", i, "cad.out"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("a SAT solver output: pass --model sat"),
        "{err}"
    );
    std::fs::write(d.join("unknown.out"), "c interrupted\ns UNKNOWN\n").unwrap();
    let (code, out, err) = tilekit_in(
        d,
        &[
            "verify",
            i,
            "unknown.out",
            "--model",
            "sat",
            "--horizon",
            "11",
        ],
    );
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.contains("no answer (s UNKNOWN)"), "{out}");
}

/// Messages that say what to do: a byte-order mark is not a tile, a board of the other goal
/// convention is told to pass it, a too-small header is named as such, and move errors
/// count rows and columns from 1.
#[test]
fn messages_say_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // The case study with a BOM: reads as the case study.
    let case = std::fs::read(sliding()).unwrap();
    let mut bom = b"\xef\xbb\xbf".to_vec();
    bom.extend_from_slice(&case);
    std::fs::write(d.join("bom.txt"), bom).unwrap();
    let (code, out, err) = tilekit_in(d, &["solve", "bom.txt"]);
    assert_eq!(code, Some(0), "{out}{err}");
    // Korf's goal convention without --goal blank-first.
    std::fs::write(
        d.join("korf.txt"),
        "1 0 2 3\n4 5 6 7\n8 9 10 11\n12 13 14 15\n",
    )
    .unwrap();
    let (code, _, err) = tilekit_in(d, &["solve", "korf.txt"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("it can reach the blank-first goal: pass --goal blank-first"),
        "{err}"
    );
    let (code, out, err) = tilekit_in(d, &["solve", "korf.txt", "--goal", "blank-first"]);
    assert_eq!(code, Some(0), "{out}{err}");
    // A 1×4 header over four tiles: the size is wrong, not the count.
    std::fs::write(d.join("thin.txt"), "1 4\n1 2 3 0\n").unwrap();
    let (code, _, err) = tilekit_in(d, &["solve", "thin.txt"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("header says 1×4: a board needs at least 2 rows and 2 columns"),
        "{err}"
    );
    // The case study's blank is in row 4, column 3: it cannot go down.
    std::fs::write(d.join("down.txt"), "D\n").unwrap();
    let inst = sliding();
    let (code, out, _) = tilekit_in(d, &["verify", inst.to_str().unwrap(), "down.txt"]);
    assert_eq!(code, Some(1));
    assert!(
        out.contains("the blank at row 4, column 3 cannot go there (counting from 1)"),
        "{out}"
    );
}

/// Progress goes to stderr only when asked for off a terminal (`--progress`, as plain lines),
/// never with `--quiet`; `--horizon auto` says which horizon it chose.
#[test]
fn progress_is_shown_when_asked_and_says_the_chosen_horizon() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let inst = sliding();
    let i = inst.to_str().unwrap();
    let args = ["export", i, "--horizon", "auto", "-o", "case.lp"];
    let (code, _, err) = tilekit_in(d, &args);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.is_empty(),
        "stderr is no terminal here: nothing unasked for\n{err}"
    );
    let (code, _, err) = tilekit_in(d, &[&args[..], &["--progress"]].concat());
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("tilekit: --horizon auto: horizon 11 (the native optimum, proven)"),
        "{err}"
    );
    let (code, _, err) = tilekit_in(d, &[&args[..], &["--quiet"]].concat());
    assert_eq!(code, Some(0), "{err}");
    assert!(err.is_empty(), "{err}");
}

/// A solver killed at the limit while its solution file was half written: the run ended at
/// the time limit (exit 1, the file's failure noted); it is not reported as a wrong answer.
#[test]
fn a_partial_file_from_a_killed_solver_is_a_time_limit() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // A CBC-style file cut short after one value, then a hang past the kill.
    let reg = fake_solver(
        d,
        "half",
        "milp",
        "printf 'Stopped on time - objective value 11.00000000\\n      0 x_t0 3 0\\n' > \"$2\"\nsleep 30\n",
    );
    let inst = sliding();
    let out = bin()
        .args([
            "solve",
            inst.to_str().unwrap(),
            "--via",
            "milp",
            "--model",
            "neos",
            "--horizon",
            "11",
            "--solver",
            "half",
            "--solvers-file",
            reg.to_str().unwrap(),
            // Room for a loaded machine to build the model and start the solver, which
            // writes its partial file at once and then hangs (3 s were too few beside two
            // builds on two cores).
            "--time-limit",
            "10",
            "--json",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(v["status"], "time_limit", "{v}");
    assert!(
        v["errors"][0]
            .as_str()
            .is_some_and(|e| e.contains("(partial?)")),
        "{v}"
    );
    assert!(
        v["solver_status"]
            .as_str()
            .unwrap()
            .ends_with("(killed at the time limit)"),
        "{v}"
    );
}

/// On a terminal, work with a known total draws a bar: an external solver's run against its
/// time limit fills it (the heartbeat comes every 5 s). Run under `script`, which gives
/// tilekit a pseudo-terminal.
#[test]
fn a_solver_run_on_a_terminal_draws_a_bar_against_its_limit() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // 7 s: the heartbeat at 5 s has two seconds to be drawn before the solver exits.
    let reg = fake_solver(d, "slow", "milp", "sleep 7\n");
    let inst = sliding();
    let cmd = format!(
        "{} solve {} --via milp --model neos --set milp.step=false --horizon 11 --solver slow --solvers-file {} --time-limit 8",
        env!("CARGO_BIN_EXE_tilekit"),
        inst.display(),
        reg.display()
    );
    let out = Command::new("script")
        .args(["-qfec", &cmd, "/dev/null"])
        .current_dir(d)
        .output()
        .expect("util-linux `script` runs tilekit on a pseudo-terminal for this test");
    let screen = String::from_utf8_lossy(&out.stdout);
    assert!(
        screen.contains("slow running: 5 s of at most 8 s"),
        "{screen}"
    );
    // 5 of 8 seconds: 62 %, and the bar drawn in `=`.
    assert!(screen.contains("62%"), "{screen}");
    assert!(screen.contains("[==============="), "{screen}");
    assert!(
        screen.contains("wrote no solution file"),
        "the run still ends with its answer: {screen}"
    );
}

fn meta(n: usize) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!(
        "models/edge-matching/meta2010/pieces_{n:02}x{n:02}.txt"
    ))
}

/// A clique graph is counted before a line of it is written: one the disk has no room for
/// (Eternity II's is about 190 GB) is refused with exit 2, the count and the space, and no
/// file is left; `$TILEKIT_MAX_DISK_GB` stands for a quota that `statvfs` cannot see. A graph
/// that fits is written as before.
#[test]
fn a_clique_graph_the_disk_cannot_hold_is_refused_before_it_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let e2 =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("models/edge-matching/eternity2/e2pieces.txt");
    let out = bin()
        .current_dir(d)
        .env("TILEKIT_MAX_DISK_GB", "1")
        .args([
            "export",
            e2.to_str().unwrap(),
            "--model",
            "clique",
            "-o",
            "e2.clq",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("the clique graph of this 16×16 puzzle (156810 nodes, 11962152255 edges) would take about 191.4 GB on disk"),
        "{err}"
    );
    assert!(err.contains("1.0 GB free"), "{err}");
    assert_eq!(std::fs::read_dir(d).unwrap().count(), 0, "nothing written");
    // META 6×6's graph (about 7 MB) fits the same quota.
    let m6 = meta(6);
    let out = bin()
        .current_dir(d)
        .env("TILEKIT_MAX_DISK_GB", "1")
        .args([
            "export",
            m6.to_str().unwrap(),
            "--model",
            "clique",
            "-o",
            "m6.clq",
        ])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(d.join("m6.clq")).unwrap();
    assert!(text.contains("\np edge 1290 674511\n"), "{}", &text[..300]);
    // A clique solve writes the graph to the temporary directory: refused the same way.
    let out = bin()
        .current_dir(d)
        .env("TILEKIT_MAX_DISK_GB", "0.001")
        .args(["solve", m6.to_str().unwrap(), "--via", "clique"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("(1290 nodes, 674511 edges) would take about"),
        "{err}"
    );
}

/// The time limit covers writing the graph a clique solver reads: META 12×12's is 11 GB,
/// about 35 s of writing here, and a 1 s limit ends the run at the limit rather than after
/// the file is complete.
#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn the_time_limit_covers_writing_the_clique_graph() {
    let started = std::time::Instant::now();
    let out = bin()
        .args([
            "solve",
            meta(12).to_str().unwrap(),
            "--via",
            "clique",
            "--solver",
            "cliquer",
            "--time-limit",
            "1",
        ])
        .output()
        .unwrap();
    let secs = started.elapsed().as_secs_f64();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.starts_with("time_limit"), "{stdout}");
    // Far from the whole file's time, however loaded the machine.
    assert!(secs < 15.0, "the run took {secs:.1} s");
}
