//! Helpers shared by the integration tests: run the `tilekit` binary (the one place that
//! does), read its JSON, insist on the installed solvers, and copy a META instance in;
//! [`neos_server`] is a fake NEOS on 127.0.0.1.

pub(crate) mod neos_server;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// What one `tilekit` run printed, how it ended and how long it took.
pub(crate) struct Run {
    /// The exit code; -1 when a signal ended it (only without [`Opts::exits_normally`]).
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
    /// Wall time of the run, start to exit.
    pub seconds: f64,
}

/// How [`tilekit_with`] runs the binary. `Opts::default()` runs it in the test's own working
/// directory (the package root) with the test's environment; stdin is always closed.
#[derive(Clone, Copy, Default)]
pub(crate) struct Opts<'a> {
    /// The working directory; `None` keeps the test's.
    pub dir: Option<&'a Path>,
    /// Remove `$TILEKIT_SOLVERS`, so that the built-in registry is used.
    pub builtin_registry: bool,
    /// Variables set for the run (after the removal above).
    pub env: &'a [(&'a str, &'a OsStr)],
    /// Panic when a signal ends the binary, instead of reporting exit code -1.
    pub exits_normally: bool,
}

/// Run the binary under test with `args` in `dir` (environment inherited; a signal is
/// reported as exit code -1).
pub(crate) fn tilekit(dir: &Path, args: &[&str]) -> Run {
    tilekit_with(
        &Opts {
            dir: Some(dir),
            ..Opts::default()
        },
        args,
    )
}

/// Run the binary under test with `args` as `opts` say.
pub(crate) fn tilekit_with(opts: &Opts, args: &[&str]) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tilekit"));
    cmd.args(args);
    if let Some(dir) = opts.dir {
        cmd.current_dir(dir);
    }
    if opts.builtin_registry {
        cmd.env_remove("TILEKIT_SOLVERS");
    }
    for (key, value) in opts.env {
        cmd.env(key, value);
    }
    let t = Instant::now();
    let out = cmd.output().expect("the tilekit binary runs");
    let seconds = t.elapsed().as_secs_f64();
    let code = match out.status.code() {
        Some(code) => code,
        None if opts.exits_normally => panic!("tilekit was ended by a signal: {}", out.status),
        None => -1,
    };
    Run {
        code,
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        seconds,
    }
}

/// Panics unless `cmd` is on PATH. Every test that runs an installed solver carries
/// `#[cfg_attr(not(feature = "solver-tests"), ignore = ...)]`, so it shows as ignored when the
/// solvers are opted out of (`TILEKIT_SKIP_SOLVERS=1` builds without the feature); with the
/// feature on, a missing solver is an incomplete install and fails the test here.
pub(crate) fn require(cmd: &str) {
    let found = std::env::var_os("PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(cmd).is_file()));
    assert!(found, "{cmd} not found: run scripts/install-solvers.sh");
}

/// The built-in registry's entry `name`, whose command must be installed (see [`require`]).
pub(crate) fn builtin(name: &str) -> tilekit::solve::registry::SolverEntry {
    use tilekit::solve::registry::{Registry, find_command};
    let entry = Registry::builtin()
        .get(name)
        .unwrap_or_else(|| panic!("{name}: no such built-in solver"))
        .clone();
    assert!(
        find_command(&entry.command).is_some(),
        "solver {} not found: run scripts/install-solvers.sh",
        entry.command
    );
    entry
}

/// Copy META `n`×`n` into `dir` as `p.txt` (so messages name a stable relative path).
pub(crate) fn meta(dir: &Path, n: usize) -> &'static str {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!(
        "models/edge-matching/meta2010/pieces_{n:02}x{n:02}.txt"
    ));
    std::fs::copy(src, dir.join("p.txt")).unwrap();
    "p.txt"
}

/// The run's stdout as one JSON value.
pub(crate) fn json(r: &Run) -> serde_json::Value {
    serde_json::from_str(r.stdout.trim()).unwrap_or_else(|e| {
        panic!(
            "stdout is not one JSON object ({e}):\n{}\nstderr: {}",
            r.stdout, r.stderr
        )
    })
}

/// Run the real `gams FILE ARGS…` in `dir` (GAMS writes its listing and scratch folders
/// there). Only the tests that need a licensed GAMS call it, and they are ignored unless the
/// `test-gams` feature is on: `scripts/test.sh` checks GAMS's licence once and turns it on
/// when the licence is valid. So a run that GAMS stops for its licence is a failure here,
/// named in GAMS's own words, as is a missing `gams`.
pub(crate) fn gams(dir: &Path, file: &str, args: &[&str]) -> std::process::Output {
    let out = match Command::new("gams")
        .arg(file)
        .args(args)
        .current_dir(dir)
        .output()
    {
        Ok(out) => out,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            panic!("solver gams not found: run scripts/install-solvers.sh")
        }
        Err(e) => panic!("could not run gams: {e}"),
    };
    let listing = Path::new(file).with_extension("lst");
    let text = format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        std::fs::read_to_string(dir.join(listing)).unwrap_or_default()
    );
    if let Some(problem) = tilekit::format::gams_log::licence_problem(&text) {
        panic!("{problem}: scripts/test.sh runs these tests only when the licence is valid");
    }
    out
}

/// A `gams` whose licence has run out (`tests/fixtures/gams/expired-gams.sh`, which replays
/// GAMS's own output of such a run), linked into `dir` as `dir/gams`; returns its path.
pub(crate) fn expired_gams(dir: &Path) -> PathBuf {
    let script =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/gams/expired-gams.sh");
    let gams = dir.join("gams");
    std::os::unix::fs::symlink(script, &gams).unwrap();
    gams
}
