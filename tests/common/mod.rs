//! Helpers shared by the edge-matching CLI tests: run the `tilekit` binary in a directory,
//! read its JSON, honour `TILEKIT_SKIP_SOLVERS=1`, and copy a META instance in.
#![allow(dead_code, reason = "each test module uses its own subset")]

use std::path::{Path, PathBuf};
use std::process::Command;

/// What one `tilekit` run printed and how it ended.
pub(crate) struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Run the binary under test with `args` in `dir`.
pub(crate) fn tilekit(dir: &Path, args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_tilekit"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the tilekit binary runs");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// True when the solver runs are explicitly opted out of (`TILEKIT_SKIP_SOLVERS=1`).
pub(crate) fn skip() -> bool {
    let s = std::env::var("TILEKIT_SKIP_SOLVERS").is_ok_and(|v| v == "1");
    if s {
        eprintln!("TILEKIT_SKIP_SOLVERS=1: skipping solver runs");
    }
    s
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
    serde_json::from_str(r.stdout.trim())
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}{}", r.stdout, r.stderr))
}
