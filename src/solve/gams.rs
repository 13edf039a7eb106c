//! The local GAMS, asked whether it will run. tilekit writes GAMS programs (exports in the
//! `gms` format, NEOS jobs whose input method is GAMS) but runs none itself; `tilekit solvers`
//! and the test script still want to know whether the GAMS on `PATH` can run them, because
//! the GAMS that PyPI ships (`gamspy-base`) carries a time-limited demo licence, and once that
//! licence has run out every run, a compile-only one included, stops with a licensing error.
//!
//! [`probe`] compiles a one-line program in a scratch directory (`action=c`: no solve, so no
//! model-size limit of a demo licence applies) and reads GAMS's log with
//! [`crate::format::gams_log::licence_problem`].

use crate::format::gams_log::licence_problem;
use crate::solve::external::{self, RunSpec};
use crate::solve::registry::{Licence, SolverListing, find_command};
use std::time::Duration;

/// The command `tilekit solvers` looks for.
pub const COMMAND: &str = "gams";

/// How long the compile check may take: GAMS starts in milliseconds, but a loaded machine
/// and a cold disk can stretch that, and a probe must never be what fails.
const PROBE_LIMIT: Duration = Duration::from_secs(60);

/// What a compile-only run of `command` said: its version (from the log's first line) and
/// what it said of its licence; `None` when `command` is not installed.
pub fn probe(command: &str) -> Option<(Option<String>, Licence)> {
    let path = find_command(command)?;
    let dir = match super::cleanup::tempdir() {
        Ok(d) => d,
        Err(e) => {
            return Some((
                None,
                Licence::Unknown {
                    reason: format!("no scratch directory for the check: {e}"),
                },
            ));
        }
    };
    let program = dir.path().join("tilekit_probe.gms");
    if let Err(e) = std::fs::write(&program, "Set i / 1 /;\n") {
        return Some((
            None,
            Licence::Unknown {
                reason: format!("cannot write {}: {e}", program.display()),
            },
        ));
    }
    let run = external::run(&RunSpec {
        program: path.display().to_string(),
        args: ["tilekit_probe.gms", "action=c", "lo=3"]
            .map(String::from)
            .to_vec(),
        time_limit: PROBE_LIMIT,
        cwd: Some(dir.path().to_path_buf()),
        stop: None,
    });
    let out = match run {
        Ok(out) => out,
        Err(e) => {
            return Some((
                None,
                Licence::Unknown {
                    reason: e.to_string(),
                },
            ));
        }
    };
    let listing = std::fs::read_to_string(dir.path().join("tilekit_probe.lst")).unwrap_or_default();
    let log = format!("{}\n{}\n{listing}", out.stdout, out.stderr);
    let licence = match licence_problem(&log) {
        Some(problem) => Licence::Invalid {
            problem: problem.to_string(),
        },
        None if out.status == Some(0) && !out.timed_out => Licence::Valid,
        None => Licence::Unknown {
            reason: format!(
                "a one-line program did not compile ({})",
                out.describe_exit()
            ),
        },
    };
    Some((version(&out.stdout), licence))
}

/// GAMS's version: the word after the time on the log's `--- Job NAME Start DATE TIME` line.
fn version(log: &str) -> Option<String> {
    log.lines().find_map(|l| {
        let mut words = l.strip_prefix("--- Job ")?.split_whitespace();
        words.find(|w| *w == "Start")?;
        words.nth(2).map(str::to_string)
    })
}

/// The `tilekit solvers` line for GAMS: a modelling system that reads `.gms` programs.
pub fn listing() -> SolverListing {
    let path = find_command(COMMAND);
    let (version, licence) = match probe(COMMAND) {
        Some((version, licence)) => (version, Some(licence)),
        None => (None, None),
    };
    SolverListing {
        name: COMMAND.to_string(),
        kind: "model",
        input: "gms",
        command: COMMAND.to_string(),
        found: path.is_some(),
        path,
        version,
        licence,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_version_is_read_off_the_job_line() {
        let log = "--- Job t.gms Start 11/27/26 08:08:49 54.6.1 20a39885 LEX-LEG x86 64bit/Linux\n";
        assert_eq!(version(log).as_deref(), Some("54.6.1"));
        assert_eq!(version("--- Job t.gms Stop 11/27/26 08:08:49\n"), None);
    }

    #[test]
    fn a_missing_command_is_not_probed() {
        assert_eq!(probe("/nonexistent/tilekit-test/gams"), None);
    }
}
