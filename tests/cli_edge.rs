//! The edge-matching commands of the CLI: generate → verify (and its rejections), render,
//! and a generated puzzle exported and solved through the clique and sat models.

use crate::common::{Run, tilekit};
use std::path::Path;

fn generate(dir: &Path, name: &str, seed: &str) {
    let Run {
        code, stderr: err, ..
    } = tilekit(
        dir,
        &[
            "generate",
            "edge",
            "--rows",
            "5",
            "--cols",
            "6",
            "--frame-colours",
            "3",
            "--inner-colours",
            "4",
            "--seed",
            seed,
            "-o",
            name,
        ],
    );
    assert_eq!(code, 0, "{err}");
}

#[test]
fn generated_puzzles_verify_and_mutations_are_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    generate(d, "p.txt", "11");
    let Run {
        code,
        stdout: out,
        stderr: err,
        ..
    } = tilekit(d, &["verify", "p.txt", "p.txt.solution", "--json"]);
    assert_eq!(code, 0, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["valid"], true);
    assert_eq!(v["matched"], v["max"]);
    assert_eq!(v["max"], 2 * 5 * 6 - 5 - 6);

    // Same seed, same bytes; another seed, another puzzle.
    generate(d, "q.txt", "11");
    generate(d, "r.txt", "12");
    let read = |f: &str| std::fs::read(d.join(f)).unwrap();
    assert_eq!(read("p.txt"), read("q.txt"));
    assert_eq!(read("p.txt.solution"), read("q.txt.solution"));
    assert_ne!(read("p.txt"), read("r.txt"));

    // Drop the optional colours so each board line is `row col piece rot`, then mutate.
    let sol = String::from_utf8(read("p.txt.solution")).unwrap();
    let mut lines: Vec<String> = sol
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split_whitespace().take(4).collect::<Vec<_>>().join(" "))
        .collect();
    let header = lines.remove(0);
    let board = |ls: &[String]| format!("{header}\n{}\n", ls.join("\n"));
    let check = |name: &str, text: String| -> serde_json::Value {
        std::fs::write(d.join(name), text).unwrap();
        let Run {
            code,
            stdout: out,
            stderr: err,
            ..
        } = tilekit(d, &["verify", "p.txt", name, "--json"]);
        assert!(code == 1 || code == 0, "{name}: {code} {err}");
        serde_json::from_str(&out).unwrap_or_else(|_| panic!("{name}: {out}{err}"))
    };
    let piece = |l: &String| l.split_whitespace().nth(2).unwrap().to_string();
    // (a) a piece used twice: cell 1 gets cell 0's piece.
    let mut twice = lines.clone();
    let p0 = piece(&twice[0]);
    let f: Vec<&str> = twice[1].split_whitespace().collect();
    twice[1] = format!("{} {} {} {}", f[0], f[1], p0, f[3]);
    let v = check("twice.txt", board(&twice));
    assert_eq!(v["valid"], false);
    // (b) a piece rotated: an inner cell turned by one quarter.
    let inner = lines.iter().position(|l| l.starts_with("2 2 ")).unwrap();
    let mut turned = lines.clone();
    let f: Vec<&str> = turned[inner].split_whitespace().collect();
    let rot = (f[3].parse::<u8>().unwrap() + 1) % 4;
    turned[inner] = format!("{} {} {} {rot}", f[0], f[1], f[2]);
    let v = check("turned.txt", board(&turned));
    assert!(
        v["valid"] == false || v["matched"].as_u64() < v["max"].as_u64(),
        "{v}"
    );
    // (c) a missing cell.
    let v = check("missing.txt", board(&lines[1..]));
    assert_eq!(v["valid"], false);
    assert!(!v["errors"].as_array().unwrap().is_empty());
}

#[test]
fn render_writes_svg_for_both_families() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    generate(d, "p.txt", "3");
    let Run {
        code, stderr: err, ..
    } = tilekit(
        d,
        &["render", "p.txt", "p.txt.solution", "-o", "p.svg", "--ids"],
    );
    assert_eq!(code, 0, "{err}");
    let svg = std::fs::read_to_string(d.join("p.svg")).unwrap();
    assert!(
        svg.starts_with("<svg") || svg.starts_with("<?xml"),
        "{}",
        &svg[..40]
    );
    std::fs::write(d.join("m.txt"), "LLUUURRRDDD\n").unwrap();
    let case = Path::new(env!("CARGO_MANIFEST_DIR")).join("models/sliding/neos_case_study.txt");
    let Run {
        code, stderr: err, ..
    } = tilekit(
        d,
        &["render", case.to_str().unwrap(), "m.txt", "-o", "s.svg"],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(err, "", "a plan that solves the board needs no word");
    assert!(
        std::fs::read_to_string(d.join("s.svg"))
            .unwrap()
            .contains("</svg>")
    );
    // A plan that stops short, or walks off the board, is drawn all the same, and said.
    for (plan, want) in [
        (
            "LLU",
            "m.txt: the plan's 3 moves do not reach the goal (blank-last)",
        ),
        (
            "DDDD",
            "m.txt: move 1 leaves the board: the drawing stops after 0 moves",
        ),
    ] {
        std::fs::write(d.join("m.txt"), format!("{plan}\n")).unwrap();
        let r = tilekit(
            d,
            &["render", case.to_str().unwrap(), "m.txt", "-o", "s.svg"],
        );
        assert_eq!(r.code, 0, "{plan}: {}", r.stderr);
        assert!(r.stderr.contains(want), "{plan}: {}", r.stderr);
        assert!(
            std::fs::read_to_string(d.join("s.svg"))
                .unwrap()
                .contains("</svg>")
        );
    }
}

#[test]
fn clique_and_sat_models_export_and_solve_a_generated_puzzle() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    generate(d, "p.txt", "5");
    for args in [
        ["export", "p.txt", "--model", "clique"],
        ["export", "p.txt", "--model", "sat"],
    ] {
        let Run {
            code,
            stdout: out,
            stderr: err,
            ..
        } = tilekit(d, &args);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(
            out.contains("p edge ") || out.contains("p cnf "),
            "{args:?}"
        );
    }
    // The embedded engines: varisat and the native max-clique search.
    solves_perfect(d, &["solve", "p.txt", "--via", "sat"]);
    solves_perfect(d, &["solve", "p.txt", "--via", "clique"]);
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn the_real_cliquer_solves_a_generated_puzzle() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    generate(d, "p.txt", "5");
    solves_perfect(
        d,
        &["solve", "p.txt", "--via", "clique", "--solver", "cliquer"],
    );
}

/// `args` (a solve in `d`) succeeds with a verified perfect board.
fn solves_perfect(d: &std::path::Path, args: &[&str]) {
    let Run {
        code,
        stdout: out,
        stderr: err,
        ..
    } = tilekit(d, args);
    assert_eq!(code, 0, "{args:?}: {err}");
    assert!(out.contains("(0 unmatched, optimal;"), "{args:?}: {out}");
    assert!(out.contains("verified"), "{args:?}: {out}");
}
