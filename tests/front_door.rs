//! The front door (`route::family`): the family found from the content or `--family`, flags
//! that do not apply to the family (or to the route) refused with exit 2 before any work, a
//! parse error on a detected family saying what the file was read as, an unwritable `-o`
//! refused before a solve, and instance reads bounded.

use crate::common::{Opts, Run, tilekit_with};
use std::path::{Path, PathBuf};
use tempfile::TempDir;

fn sliding() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("models/sliding/neos_case_study.txt")
}

fn edge() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("models/edge-matching/meta2010/pieces_04x04.txt")
}

fn s(p: &Path) -> &str {
    p.to_str().expect("paths are UTF-8")
}

fn run(dir: &Path, args: &[&str]) -> Run {
    tilekit_with(
        &Opts {
            dir: Some(dir),
            builtin_registry: true,
            exits_normally: true,
            ..Opts::default()
        },
        args,
    )
}

/// Exit 2, nothing on stdout, and `needle` in the one-line message.
fn refused(dir: &Path, args: &[&str], needle: &str) {
    let r = run(dir, args);
    assert_eq!(
        r.code, 2,
        "{args:?}\nstdout: {}\nstderr: {}",
        r.stdout, r.stderr
    );
    assert!(r.stdout.is_empty(), "{args:?}: stdout {}", r.stdout);
    assert!(
        r.stderr.starts_with("tilekit: ") && r.stderr.contains(needle),
        "{args:?}: {needle:?} not in {}",
        r.stderr
    );
}

#[test]
fn flags_that_do_not_apply_are_refused() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let (sl, ed) = (sliding(), edge());
    let (sl, ed) = (s(&sl), s(&ed));
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["solve", sl, "--filter"],
            "--filter does not apply to sliding-tile puzzles",
        ),
        (
            vec!["export", sl, "--fix-corner"],
            "--fix-corner does not apply to sliding-tile puzzles",
        ),
        (
            vec!["export", sl, "--complement"],
            "--complement does not apply to sliding-tile puzzles",
        ),
        (
            vec!["render", sl, "-o", "x.svg", "--ids"],
            "--ids does not apply to sliding-tile puzzles",
        ),
        (
            vec!["export", ed, "--horizon", "5"],
            "--horizon does not apply to edge-matching puzzles",
        ),
        (
            vec!["solve", ed, "--goal", "blank-first"],
            "--goal does not apply to edge-matching puzzles",
        ),
        (
            vec!["solve", ed, "--via", "sat", "--encoding", "strong"],
            "--encoding does not apply to edge-matching puzzles",
        ),
        (
            vec!["verify", ed, sl, "--horizon", "3"],
            "--horizon does not apply to edge-matching puzzles",
        ),
        (
            vec!["export", sl, "--input", "lp"],
            "--input belongs to --format neos",
        ),
        (
            vec!["export", ed, "--neos-solver", "cplex", "--format", "mps"],
            "--neos-solver belongs to --format neos",
        ),
        (
            vec!["solve", sl, "--horizon", "11"],
            "--via native finds the optimal length itself and takes no --horizon",
        ),
        (
            vec!["solve", sl, "--via", "native", "--solver", "cbc"],
            "--via native is tilekit's own search and takes no --solver",
        ),
    ];
    for (args, needle) in cases {
        refused(d, &args, needle);
    }
    // Nothing was written by any refused command.
    assert_eq!(std::fs::read_dir(d).unwrap().count(), 0);
}

#[test]
fn the_family_is_found_from_the_content_or_named() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    // The same solve with and without --family gives the same family in the report.
    for (inst, family) in [(sliding(), "sliding"), (edge(), "edge")] {
        for named in [false, true] {
            let mut args = vec!["solve", s(&inst), "--json"];
            if named {
                args.extend(["--family", family]);
            }
            let r = run(d, &args);
            assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
            let v: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap();
            assert_eq!(v["family"], family, "{args:?}");
            assert_eq!(v["verified"], true, "{args:?}");
        }
    }
}

#[test]
fn a_malformed_edge_file_read_as_a_board_says_so() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    // An edge piece file with one side missing on line 3: no longer "four colours a line",
    // so it is taken for a sliding board, and the message says so and how to override.
    let bad = d.join("pieces.txt");
    std::fs::write(&bad, "2 2\n0 0 1 2\n0 0 2\n0 0 1 1\n0 0 2 2\n").unwrap();
    refused(
        d,
        &["export", s(&bad)],
        "(read as a sliding-tile puzzle because no other family's file looks like it; it resembles an edge-matching puzzle: pass --family edge if it is one)",
    );
    // Named, the same file gets the edge parser's own message about its line.
    let r = run(d, &["export", s(&bad), "--family", "edge"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("pieces.txt:3:"), "{}", r.stderr);
    assert!(!r.stderr.contains("read as"), "{}", r.stderr);
    // Three pieces of a 2×2 set, too few grey sides to be detected: an edge-only route is
    // refused for the sliding family with the same hint, before any parse.
    let short = d.join("short.txt");
    std::fs::write(&short, "2 2\n0 1 1 0\n0 1 1 0\n0 1 1 0\n").unwrap();
    refused(
        d,
        &["solve", s(&short), "--via", "heuristic"],
        "pass --family edge if it is one)",
    );
}

#[test]
fn an_unwritable_output_is_refused_before_the_solve() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let out = d.join("no-such-dir").join("plan.txt");
    let r = run(d, &["solve", s(&sliding()), "-o", s(&out)]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stdout.is_empty(), "nothing was solved: {}", r.stdout);
    assert!(
        r.stderr.contains("plan.txt: cannot create the output file"),
        "{}",
        r.stderr
    );
    // A directory is not an output file either.
    let r = run(d, &["solve", s(&edge()), "-o", s(d)]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.ends_with("it is a directory\n"), "{}", r.stderr);
}

#[test]
fn instance_reads_are_bounded() {
    let dir = TempDir::new().unwrap();
    refused(
        dir.path(),
        &["export", "/dev/zero"],
        "/dev/zero: the instance is larger than 256 MiB",
    );
    let bin = dir.path().join("board.bin");
    std::fs::write(&bin, [0xff, 0xfe, b'1', b'\n']).unwrap();
    refused(dir.path(), &["solve", s(&bin)], "not UTF-8 text");
}

#[test]
fn generate_checks_both_outputs_before_writing_either() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let gen_args = |out: &str, sol: &str| -> Vec<String> {
        [
            "generate",
            "edge",
            "--rows",
            "3",
            "--cols",
            "3",
            "--frame-colours",
            "2",
            "--inner-colours",
            "2",
            "--seed",
            "1",
            "-o",
            out,
            "--solution",
            sol,
        ]
        .map(String::from)
        .to_vec()
    };
    let run_gen = |out: &str, sol: &str| {
        let args = gen_args(out, sol);
        run(d, &args.iter().map(String::as_str).collect::<Vec<_>>())
    };
    // The same file twice, also spelt differently: refused, nothing written.
    let r = run_gen("p.txt", "./p.txt");
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("name the same file"), "{}", r.stderr);
    assert_eq!(std::fs::read_dir(d).unwrap().count(), 0);
    // An unwritable board path: the instance is not written either.
    let r = run_gen("p.txt", "no-such-dir/p.sol");
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("p.sol: cannot create the output file"),
        "{}",
        r.stderr
    );
    assert_eq!(std::fs::read_dir(d).unwrap().count(), 0);
    // Both fine: both written, and the board verifies against the instance.
    let r = run_gen("p.txt", "p.sol");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = run(d, &["verify", "p.txt", "p.sol"]);
    assert_eq!(v.code, 0, "{}{}", v.stdout, v.stderr);
}

#[test]
fn time_limits_are_range_checked() {
    let dir = TempDir::new().unwrap();
    for t in ["1e20", "0", "-3", "NaN", "inf"] {
        let flag = format!("--time-limit={t}");
        refused(
            dir.path(),
            &["solve", s(&sliding()), &flag],
            "--time-limit must be a positive number of seconds below 10^9",
        );
    }
    refused(
        dir.path(),
        &["bench", "korf100", "--time-limit", "1e20"],
        "--time-limit must be a positive number of seconds below 10^9",
    );
}
