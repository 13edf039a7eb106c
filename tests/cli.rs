//! End-to-end tests of the `tilekit` binary: export, solve (every route), verify (tilekit
//! move files and raw CBC / HiGHS / GLPK / SAT outputs, plus mutations of each), input errors
//! (snapshotted stderr), solver faults through a custom registry, and `solvers --json`.
//!
//! Every command runs in a fresh temp dir with `$TILEKIT_SOLVERS` removed, so the built-in
//! registry is used unless `--solvers` is given. A missing real solver fails the test;
//! without the `solver-tests` feature (`TILEKIT_SKIP_SOLVERS=1`) they show as ignored.

use crate::common::require;
use crate::common::{Opts, Run, json, tilekit_with};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use tempfile::TempDir;
/// The case study's start board (row-major, 0 = blank) and its optimum.
const CASE: [u16; 16] = [5, 1, 2, 3, 9, 6, 7, 4, 13, 10, 11, 8, 14, 15, 0, 12];
const OPT_LEN: usize = 11;
const OPT: &str = "LLUUURRRDDD";

/// An export case: file name, extra arguments, a check that the content is that format.
type ExportCase = (&'static str, &'static [&'static str], fn(&str) -> bool);

fn instance() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("models/sliding/neos_case_study.txt")
}

fn s(p: &Path) -> &str {
    p.to_str().expect("temp paths are UTF-8")
}

/// Run the binary in `dir` with the built-in registry.
fn tilekit(dir: &Path, args: &[&str]) -> Run {
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

/// Independent replay (not tilekit's): does `moves` take the case study to the goal?
fn replays_to_goal(moves: &str) -> bool {
    let mut b = CASE;
    let mut blank = b.iter().position(|&t| t == 0).unwrap();
    for m in moves.chars() {
        let (r, c) = (blank / 4, blank % 4);
        let next = match m {
            'U' if r > 0 => blank - 4,
            'D' if r < 3 => blank + 4,
            'L' if c > 0 => blank - 1,
            'R' if c < 3 => blank + 1,
            _ => return false,
        };
        b.swap(blank, next);
        blank = next;
    }
    b.iter().copied().eq((1..16).chain([0]))
}

fn errors_of(v: &Value) -> Vec<String> {
    v["errors"]
        .as_array()
        .expect("errors is an array")
        .iter()
        .map(|e| e.as_str().expect("errors are strings").to_string())
        .collect()
}

/// `verify INSTANCE sol extra… --json` must accept: exit 0, valid, objective 11, no errors.
fn assert_verifies(dir: &Path, sol: &Path, extra: &[&str]) {
    let inst = instance();
    let mut args = vec!["verify", s(&inst), s(sol), "--json"];
    args.extend_from_slice(extra);
    let r = tilekit(dir, &args);
    assert_eq!(
        r.code,
        0,
        "verify rejected {}: {}{}",
        sol.display(),
        r.stdout,
        r.stderr
    );
    let v = json(&r);
    assert_eq!(v["valid"], true, "{v}");
    assert_eq!(v["objective"].as_f64(), Some(OPT_LEN as f64), "{v}");
    assert_eq!(v["errors"], serde_json::json!([]), "{v}");
}

/// Write `text` to `dir/name` and `verify` it: exit 1, invalid, and some error contains
/// `needle`. Returns the errors.
fn assert_rejected(
    dir: &Path,
    name: &str,
    text: &str,
    extra: &[&str],
    needle: &str,
) -> Vec<String> {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    let inst = instance();
    let mut args = vec!["verify", s(&inst), s(&path), "--json"];
    args.extend_from_slice(extra);
    let r = tilekit(dir, &args);
    assert_eq!(
        r.code, 1,
        "{name} not rejected with exit 1: {}{}",
        r.stdout, r.stderr
    );
    let v = json(&r);
    assert_eq!(v["valid"], false, "{name}: {v}");
    let errors = errors_of(&v);
    assert!(
        errors.iter().any(|e| e.contains(needle)),
        "{name}: no error mentions {needle:?}: {errors:?}"
    );
    errors
}

// ---------------------------------------------------------------------------------------
// 1. export
// ---------------------------------------------------------------------------------------

#[test]
fn export_formats_follow_the_extension_and_are_deterministic() {
    let dir = TempDir::new().unwrap();
    let inst = instance();
    // (file, extra args, a check that the content really is that format)
    let cases: [ExportCase; 4] = [
        ("case.lp", &["--horizon", "13"], |t| {
            t.starts_with("\\ tilekit LP") && t.contains("T13") && t.trim_end().ends_with("End")
        }),
        ("case.mps", &["--horizon", "13"], |t| {
            t.contains("\nROWS\n") && t.contains("\nCOLUMNS\n") && t.ends_with("ENDATA\n")
        }),
        ("case.gms", &["--horizon", "13"], |t| {
            t.contains("Solve puzzle using mip minimizing moves")
        }),
        ("case.cnf", &["--model", "sat", "--horizon", "11"], |t| {
            t.starts_with("c ") && t.lines().any(|l| l.starts_with("p cnf "))
        }),
    ];
    for (name, extra, looks_right) in cases {
        let mut bytes = Vec::new();
        for run in 0..2 {
            let out = dir.path().join(format!("{run}-{name}"));
            let mut args = vec!["export", s(&inst), "-o", s(&out)];
            args.extend_from_slice(extra);
            let r = tilekit(dir.path(), &args);
            assert_eq!(r.code, 0, "export {name}: {}", r.stderr);
            assert!(r.stdout.is_empty(), "export -o {name} printed to stdout");
            bytes.push(std::fs::read(&out).unwrap());
        }
        let text = String::from_utf8(bytes[0].clone()).unwrap();
        assert!(
            looks_right(&text),
            "{name} does not look like its format:\n{}",
            &text[..text.len().min(400)]
        );
        assert!(bytes[0] == bytes[1], "{name} differs between two runs");
    }
    let file = |n: &str| std::fs::read_to_string(dir.path().join(format!("0-{n}"))).unwrap();
    // No -o (or -o -): stdout, LP for neos and CNF for sat, identical to the file.
    let r = tilekit(dir.path(), &["export", s(&inst), "--horizon", "13"]);
    assert_eq!((r.code, r.stdout.as_str()), (0, file("case.lp").as_str()));
    let r = tilekit(
        dir.path(),
        &["export", s(&inst), "-o", "-", "--horizon", "13"],
    );
    assert_eq!((r.code, r.stdout.as_str()), (0, file("case.lp").as_str()));
    let r = tilekit(
        dir.path(),
        &["export", s(&inst), "--model", "sat", "--horizon", "11"],
    );
    assert_eq!((r.code, r.stdout.as_str()), (0, file("case.cnf").as_str()));
    // --format wins over the extension.
    let out = dir.path().join("model.txt");
    let r = tilekit(
        dir.path(),
        &[
            "export",
            s(&inst),
            "--format",
            "mps",
            "-o",
            s(&out),
            "--horizon",
            "13",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), file("case.mps"));
    // The horizon changes the model.
    let r = tilekit(dir.path(), &["export", s(&inst), "--horizon", "12"]);
    assert_eq!(r.code, 0);
    assert_ne!(
        r.stdout,
        file("case.lp"),
        "--horizon 12 wrote the T13 model"
    );
}

// ---------------------------------------------------------------------------------------
// 2. solve routes
// ---------------------------------------------------------------------------------------

/// `solve` with `args` must find and verify an optimal 11-move plan; `-o` writes a move file
/// that `verify` accepts.
fn assert_solve_route(model: &str, solver: &str, args: &[&str]) {
    let dir = TempDir::new().unwrap();
    let inst = instance();
    let sol = dir.path().join("sol.txt");
    let mut all = vec![
        "solve",
        s(&inst),
        "--solver",
        solver,
        "--json",
        "-o",
        s(&sol),
    ];
    all.extend_from_slice(args);
    let r = tilekit(dir.path(), &all);
    assert_eq!(r.code, 0, "{solver}: {}{}", r.stdout, r.stderr);
    let v = json(&r);
    assert_eq!(v["status"], "solved", "{v}");
    assert_eq!(v["objective"].as_f64(), Some(OPT_LEN as f64), "{v}");
    assert_eq!(v["verified"], true, "{v}");
    assert_eq!(v["optimal"], true, "{v}");
    assert_eq!(v["family"], "sliding", "{v}");
    assert_eq!(v["model"], model, "{v}");
    assert_eq!(v["solver"], solver, "{v}");
    assert!(v["seconds"].as_f64().is_some_and(|t| t >= 0.0), "{v}");
    let moves = v["moves"].as_str().expect("moves is a string");
    assert_eq!(moves.len(), OPT_LEN, "{v}");
    assert!(
        replays_to_goal(moves),
        "{solver}'s plan {moves} does not solve the board"
    );
    let written = std::fs::read_to_string(&sol).expect("-o wrote the plan");
    assert!(written.contains(moves), "{written}");
    assert_verifies(dir.path(), &sol, &[]);
}

#[test]
fn solve_sat_varisat_text_and_json() {
    let dir = TempDir::new().unwrap();
    let inst = instance();
    let r = tilekit(dir.path(), &["solve", s(&inst), "--via", "sat"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.starts_with("11 moves, optimal (sat via varisat,")
            && r.stdout.contains("verified by replay): "),
        "{}",
        r.stdout
    );
    assert_solve_route("sat", "varisat", &["--via", "sat"]);
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn solve_sat_external_solvers() {
    for (solver, cmd) in [
        ("cadical", "cadical"),
        ("kissat", "kissat"),
        ("minisat", "minisat"),
    ] {
        require(cmd);
        assert_solve_route("sat", solver, &["--via", "sat"]);
    }
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn solve_milp_cbc() {
    require("cbc");
    // A generous limit: a loaded machine slows the solve, which must still finish.
    assert_solve_route(
        "neos",
        "cbc",
        &[
            "--via",
            "milp",
            "--model",
            "neos",
            "--horizon",
            "13",
            "--time-limit",
            "300",
        ],
    );
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn solve_milp_highs() {
    require("highs");
    assert_solve_route(
        "neos",
        "highs",
        &["--via", "milp", "--model", "neos", "--horizon", "13"],
    );
}

/// `--step` and `--incumbent` through the command line: the case study at its own horizon
/// 80, stepped from the bound (the run stops at horizon 11, which has the plan; a one-shot
/// solve reports 80); and from the native plan, with no solver run since the plan meets the
/// bound (the solver's name is still checked first).
#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn solve_milp_tight_stepped_and_from_an_incumbent() {
    let inst = instance();
    require("highs");
    let stepped = [
        "--via",
        "milp",
        "--model",
        "tight",
        "--horizon",
        "80",
        "--step",
    ];
    assert_solve_route("tight", "highs", &stepped);
    let dir = TempDir::new().unwrap();
    let mut args = vec!["solve", s(&inst), "--solver", "highs", "--json"];
    args.extend_from_slice(&stepped);
    let v = json(&tilekit(dir.path(), &args));
    assert_eq!(v["horizon"].as_u64(), Some(OPT_LEN as u64), "{v}");
    let dir = TempDir::new().unwrap();
    let from = |solver: &str| {
        let args = [
            "solve",
            s(&inst),
            "--via",
            "milp",
            "--model",
            "tight",
            "--json",
        ];
        let mut args = args.to_vec();
        args.extend_from_slice(&["--solver", solver, "--incumbent", "native"]);
        tilekit(dir.path(), &args)
    };
    let r = from("highs");
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let v = json(&r);
    let proof = (v["optimal"].as_bool(), v["solver"].as_str());
    assert_eq!(proof, (Some(true), Some("none")), "{v}");
    assert_eq!(v["objective"].as_f64(), Some(OPT_LEN as f64), "{v}");
    let r = from("no-such-solver");
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("no-such-solver"), "{}", r.stderr);
}

#[test]
#[cfg_attr(
    not(all(feature = "slow-tests", feature = "solver-tests")),
    ignore = "slow tier: GLPK on the case study's faithful model, a minute on 2 cores; short_instances::milp_glpk_solves_short_instances_optimally runs in the quick tier (scripts/test.sh --full)"
)]
fn solve_milp_glpk() {
    // GLPK needs minutes at horizon 13; at 11 it takes seconds.
    require("glpsol");
    assert_solve_route(
        "neos",
        "glpk",
        &[
            "--via",
            "milp",
            "--model",
            "neos",
            "--horizon",
            "11",
            "--time-limit",
            "300",
        ],
    );
}

// ---------------------------------------------------------------------------------------
// 3. verify: move files, raw solver outputs, and mutations
// ---------------------------------------------------------------------------------------

#[test]
fn verify_move_file_and_its_mutations() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let good = d.join("good.txt");
    std::fs::write(&good, format!("# the optimum\n{OPT}\n")).unwrap();
    assert_verifies(d, &good, &[]);
    let inst = instance();
    let r = tilekit(d, &["verify", s(&inst), s(&good)]);
    assert_eq!(
        (r.code, r.stdout.trim()),
        (0, "valid: 11 moves reach the goal")
    );

    // Two moves swapped (still legal), one dropped, one off the board.
    let swapped = format!("{}{}{}{}", &OPT[..4], &OPT[5..6], &OPT[4..5], &OPT[6..]);
    assert!(replays_to_goal(OPT) && !replays_to_goal(&swapped));
    assert_rejected(
        d,
        "swapped.txt",
        &swapped,
        &[],
        "after 11 moves the board is not the goal",
    );
    assert_rejected(
        d,
        "dropped.txt",
        &OPT[..10],
        &[],
        "after 10 moves the board is not the goal",
    );
    // The blank reaches row 0 after LLUUU; a fourth U leaves the board.
    assert_rejected(
        d,
        "offboard.txt",
        "LLUUUURRRDDD",
        &[],
        "move 6 (U) is illegal",
    );
    let r = tilekit(d, &["verify", s(&inst), s(&d.join("offboard.txt"))]);
    assert_eq!(r.code, 1);
    assert!(r.stdout.starts_with("invalid: move 6 (U)"), "{}", r.stdout);

    // A non-letter is an input error, not a "no".
    let bad = d.join("letter.txt");
    std::fs::write(&bad, format!("# comment\n{}X{}\n", &OPT[..4], &OPT[4..])).unwrap();
    let r = tilekit(d, &["verify", s(&inst), s(&bad), "--json"]);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    // With --json, stdout holds the error as JSON (and nothing else).
    assert_eq!(json(&r)["exit_code"], 2, "{}", r.stdout);
    assert!(
        r.stderr
            .contains(&format!("{}:2: column 5: 'X' is not a move", bad.display())),
        "{}",
        r.stderr
    );
}

/// Export the neos LP at `horizon` into `dir`.
fn export_lp(dir: &Path, horizon: &str) -> PathBuf {
    let lp = dir.join("case.lp");
    let inst = instance();
    let r = tilekit(
        dir,
        &["export", s(&inst), "-o", s(&lp), "--horizon", horizon],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    lp
}

/// Run a real solver to completion (no time limit: these instances take seconds).
fn run_solver(dir: &Path, cmd: &str, args: &[&str]) -> std::process::Output {
    let out = Command::new(cmd)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.code().is_some(),
        "{cmd} died: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Rebuild the first line whose fields satisfy `pick`, with field `name + 1` (the value
/// after the variable's name) replaced by `f(old)`. Returns the text and the variable's name.
fn mutate(
    text: &str,
    name: usize,
    pick: impl Fn(&[&str]) -> bool,
    f: impl Fn(&str) -> String,
) -> (String, String) {
    let mut var = None;
    let mut out = String::new();
    for l in text.lines() {
        let mut w: Vec<String> = l.split_whitespace().map(String::from).collect();
        let refs: Vec<&str> = w.iter().map(String::as_str).collect();
        if var.is_none() && w.len() > name + 1 && pick(&refs) {
            var = Some(w[name].clone());
            w[name + 1] = f(&w[name + 1]);
            out.push_str(&w.join(" "));
        } else {
            out.push_str(l);
        }
        out.push('\n');
    }
    (out, var.expect("no line to mutate"))
}

const NEOS13: [&str; 4] = ["--model", "neos", "--horizon", "13"];

/// Mutations of a raw CBC / HiGHS output: a mid-plan `p` value +1, a `u` at 1 set to 0.5.
/// `name` is the field holding the variable's name (CBC: `index name value dj`; HiGHS:
/// `name value`).
fn assert_raw_milp_mutations(d: &Path, text: &str, name: usize, tag: &str) {
    let is_p5 = |w: &[&str]| w[name].starts_with("p_i") && w[name].ends_with("_t5");
    let plus_one = |v: &str| format!("{}", v.parse::<f64>().unwrap() + 1.0);
    let (p, pname) = mutate(text, name, is_p5, plus_one);
    let errs = assert_rejected(d, &format!("{tag}-p.sol"), &p, &NEOS13, "");
    assert!(
        errs.iter()
            .any(|e| e.contains("is violated") || e.contains(&pname)),
        "{tag}: {pname} + 1 not caught: {errs:?}"
    );
    let is_u1 = |w: &[&str]| w[name].starts_with("u_t") && w[name + 1] == "1";
    let (u, uname) = mutate(text, name, is_u1, |_| "0.5".into());
    assert_rejected(
        d,
        &format!("{tag}-u.sol"),
        &u,
        &NEOS13,
        &format!("integer variable {uname} = 0.5 is not integral"),
    );
}

#[test]
#[cfg_attr(
    not(all(feature = "slow-tests", feature = "solver-tests")),
    ignore = "slow tier: CBC on the case study's faithful model, minutes on 2 cores; verify_raw_glpk_output runs in the quick tier (scripts/test.sh --full)"
)]
fn verify_raw_cbc_output() {
    require("cbc");
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let lp = export_lp(d, "13");
    let sol = d.join("out.sol");
    run_solver(d, "cbc", &[s(&lp), "-solve", "-solu", s(&sol)]);
    assert_verifies(d, &sol, &NEOS13);
    let text = std::fs::read_to_string(&sol).unwrap();
    assert_raw_milp_mutations(d, &text, 1, "cbc");
    // The objective line claims 12.
    assert!(text.starts_with("Optimal - objective value 11"), "{text}");
    let obj = text.replacen("objective value 11", "objective value 12", 1);
    assert_rejected(
        d,
        "cbc-obj.sol",
        &obj,
        &NEOS13,
        "the solver reported objective 12 but the values give 11",
    );
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn verify_raw_highs_output() {
    require("highs");
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let lp = export_lp(d, "13");
    let sol = d.join("out.sol");
    run_solver(
        d,
        "highs",
        &["--model_file", s(&lp), "--solution_file", s(&sol)],
    );
    assert_verifies(d, &sol, &NEOS13);
    let text = std::fs::read_to_string(&sol).unwrap();
    assert_raw_milp_mutations(d, &text, 0, "highs");
    assert!(text.contains("\nObjective 11\n"), "{text}");
    let obj = text.replacen("\nObjective 11\n", "\nObjective 10\n", 1);
    assert_rejected(
        d,
        "highs-obj.sol",
        &obj,
        &NEOS13,
        "the solver reported objective 10 but the values give 11",
    );
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn verify_raw_glpk_output() {
    // Horizon 11: glpsol needs minutes at 13.
    require("glpsol");
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let lp = export_lp(d, "11");
    let sol = d.join("out.sol");
    run_solver(d, "glpsol", &["--lp", s(&lp), "-w", s(&sol)]);
    let neos11 = ["--model", "neos", "--horizon", "11"];
    assert_verifies(d, &sol, &neos11);
    // The `s mip ROWS COLS o OBJ` line claims 12.
    let text = std::fs::read_to_string(&sol).unwrap();
    let line = text
        .lines()
        .find(|l| l.starts_with("s mip "))
        .expect("an s mip line");
    assert!(line.ends_with(" o 11"), "{line}");
    let obj = text.replacen(line, &line.replace(" o 11", " o 12"), 1);
    assert_rejected(d, "glpk-obj.sol", &obj, &neos11, "reported objective 12");
    // Verifying against the wrong horizon is caught (wrong number of columns).
    let r = tilekit(
        d,
        &[
            "verify",
            s(&instance()),
            s(&sol),
            "--model",
            "neos",
            "--horizon",
            "13",
        ],
    );
    assert_ne!(r.code, 0, "a T11 solution verified as T13: {}", r.stdout);
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn verify_raw_sat_output() {
    require("cadical");
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let cnf = d.join("case.cnf");
    let inst = instance();
    let r = tilekit(
        d,
        &[
            "export",
            s(&inst),
            "--model",
            "sat",
            "--horizon",
            "11",
            "-o",
            s(&cnf),
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = run_solver(d, "cadical", &[s(&cnf)]);
    assert_eq!(
        out.status.code(),
        Some(10),
        "cadical: horizon 11 must be SAT"
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let sol = d.join("out.txt");
    std::fs::write(&sol, &text).unwrap();
    let sat11 = ["--model", "sat", "--horizon", "11"];
    assert_verifies(d, &sol, &sat11);

    // Flip a true literal of a mid-plan state variable (named in the CNF's `c var` lines).
    let cnf_text = std::fs::read_to_string(&cnf).unwrap();
    let var: i64 = cnf_text
        .lines()
        .filter_map(|l| l.strip_prefix("c var "))
        .filter_map(|l| l.split_once(' '))
        .filter(|(_, name)| name.starts_with("a_i") && name.ends_with("_t5"))
        .map(|(n, _)| n.parse().unwrap())
        .find(|&n: &i64| {
            text.lines()
                .filter_map(|l| l.strip_prefix("v "))
                .flat_map(str::split_whitespace)
                .any(|t| t == n.to_string())
        })
        .expect("some a_i*_c*_t5 variable is true in the model");
    let flipped: String = text
        .lines()
        .map(|l| match l.strip_prefix("v ") {
            Some(rest) => {
                let toks: Vec<String> = rest
                    .split_whitespace()
                    .map(|t| {
                        if t == var.to_string() {
                            (-var).to_string()
                        } else {
                            t.to_string()
                        }
                    })
                    .collect();
                format!("v {}\n", toks.join(" "))
            }
            None => format!("{l}\n"),
        })
        .collect();
    assert_ne!(flipped.trim_end(), text.trim_end());
    assert_rejected(d, "flipped.txt", &flipped, &sat11, "violates clause");
    // A SAT output without --model sat/--horizon is an input error.
    let r = tilekit(d, &["verify", s(&inst), s(&sol)]);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains("a SAT solver output: pass --model sat"),
        "{}",
        r.stderr
    );
}

// ---------------------------------------------------------------------------------------
// 4. input errors: exit 2, `tilekit: FILE:LINE: sentence` on stderr (snapshotted)
// ---------------------------------------------------------------------------------------

/// Run, require exit 2 with nothing on stdout and `needle` on stderr; snapshot stderr with
/// the temp dir replaced by `[TMP]`.
fn assert_input_error(dir: &Path, snap: &str, args: &[&str], needle: &str) {
    let r = tilekit(dir, args);
    assert_eq!(
        r.code, 2,
        "{snap}: {args:?}\nstdout: {}\nstderr: {}",
        r.stdout, r.stderr
    );
    assert!(r.stdout.is_empty(), "{snap}: stdout {}", r.stdout);
    // Paths differ per machine and checkout: replace them before snapshotting.
    let stderr = r
        .stderr
        .replace(s(dir), "[TMP]")
        .replace(env!("CARGO_MANIFEST_DIR"), "[REPO]");
    assert!(stderr.starts_with("tilekit: "), "{snap}: {stderr}");
    assert!(
        stderr.contains(needle),
        "{snap}: {needle:?} not in {stderr}"
    );
    insta::assert_snapshot!(snap, stderr);
}

#[test]
fn instance_parse_errors_name_file_and_line() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let cases: [(&str, &str, &str); 7] = [
        // header 4×4 but one tile short
        (
            "tile_count",
            "4 4\n5 1 2 3\n9 6 7 4\n13 10 11 8\n14 15 0\n",
            "count.txt:1: header says 4×4 = 16 tiles but 15 follow",
        ),
        // no header, 15 tiles: a whole-file error (no single line is at fault)
        (
            "missing_tile",
            "5 1 2 3\n9 6 7 4\n13 10 11 8\n14 15 0\n",
            "missing_tile.txt: found 15 tiles, which is not a square board",
        ),
        (
            "duplicate_tile",
            "5 1 2 3\n9 6 7 4\n13 10 11 8\n14 15 0 5\n",
            "duplicate_tile.txt:4: tile 5 appears twice (first on line 1)",
        ),
        (
            "out_of_range",
            "5 1 2 3\n9 6 7 4\n13 10 11 8\n14 15 0 16\n",
            "out_of_range.txt:4: tile 16 is out of range: a 4×4 board has tiles 0 to 15",
        ),
        (
            "non_numeric",
            "# c\n5 1 2 3\n9 6 7 4\n13 ten 11 8\n14 15 0 12\n",
            "non_numeric.txt:4: \"ten\" is not a tile number",
        ),
        // tiles 5 and 1 swapped: odd permutation, blank distance 1 → unsolvable (whole file)
        (
            "parity",
            "1 5 2 3\n9 6 7 4\n13 10 11 8\n14 15 0 12\n",
            "parity.txt: this board cannot reach the blank-last goal",
        ),
        ("empty", "# nothing\n", "empty.txt: no tiles found"),
    ];
    for (name, text, needle) in cases {
        let file = match name {
            "tile_count" => d.join("count.txt"),
            _ => d.join(format!("{name}.txt")),
        };
        std::fs::write(&file, text).unwrap();
        assert_input_error(
            d,
            &format!("instance_{name}"),
            &["export", s(&file)],
            needle,
        );
    }
    let missing = d.join("nope.txt");
    assert_input_error(
        d,
        "instance_unreadable",
        &["export", s(&missing)],
        "nope.txt: cannot read the instance",
    );
}

#[test]
fn usage_errors_exit_2_with_a_clear_message() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let inst = instance();
    let i = s(&inst);
    let bad_sol = d.join("bad.sol");
    std::fs::write(&bad_sol, "LLUU\nUR?RDDD\n").unwrap();
    let txt = d.join("out.txt");
    let cases: Vec<(&str, Vec<&str>, &str)> = vec![
        (
            "solution_bad_letter",
            vec!["verify", i, s(&bad_sol)],
            "bad.sol:2: column 3: '?' is not a move",
        ),
        (
            "goal_unknown",
            vec!["export", i, "--goal", "blank-middle"],
            "invalid value 'blank-middle' for '--goal <GOAL>'",
        ),
        (
            "model_unknown",
            vec!["export", i, "--model", "cp"],
            "invalid value 'cp' for '--model <MODEL>'",
        ),
        (
            "verify_model_unknown",
            vec!["verify", i, s(&bad_sol), "--model", "cp"],
            "invalid value 'cp' for '--model <MODEL>'",
        ),
        (
            "format_unknown",
            vec!["export", i, "--format", "xls"],
            "invalid value 'xls' for '--format <FORMAT>'",
        ),
        (
            "format_from_extension",
            vec!["export", i, "-o", s(&txt)],
            "format \"txt\" is not known",
        ),
        (
            "format_model_mismatch",
            vec!["export", i, "--model", "sat", "--format", "lp"],
            "model sat cannot be written as",
        ),
        (
            "via_unknown",
            vec!["solve", i, "--via", "cp"],
            "invalid value 'cp' for '--via <VIA>'",
        ),
        (
            "solve_model_mismatch",
            vec!["solve", i, "--via", "milp", "--model", "sat"],
            "--via milp solves --model neos",
        ),
        (
            "solver_unknown_sat",
            vec!["solve", i, "--via", "sat", "--solver", "nosuch"],
            "no solver named \"nosuch\"",
        ),
        (
            "solver_unknown_milp",
            vec![
                "solve",
                i,
                "--via",
                "milp",
                "--solver",
                "nosuch",
                "--horizon",
                "11",
            ],
            "no solver named \"nosuch\"",
        ),
        (
            "solver_wrong_kind",
            vec![
                "solve",
                i,
                "--via",
                "milp",
                "--solver",
                "cadical",
                "--horizon",
                "11",
            ],
            "solver \"cadical\" is a sat solver",
        ),
        (
            "horizon_zero_export",
            vec!["export", i, "--horizon", "0"],
            "--horizon must be at least 1",
        ),
        (
            "horizon_zero_solve_milp",
            vec!["solve", i, "--via", "milp", "--horizon", "0"],
            "--horizon must be at least 1",
        ),
        (
            "time_limit_zero",
            vec!["solve", i, "--time-limit", "0"],
            "--time-limit must be a positive number",
        ),
        (
            "family_edge_export",
            vec!["export", i, "--family", "edge"],
            "header says 4×4 = 16 pieces but 4 follow",
        ),
        (
            "family_edge_solve",
            vec!["solve", i, "--family", "edge"],
            "header says 4×4 = 16 pieces but 4 follow",
        ),
        (
            "family_edge_verify",
            vec!["verify", i, s(&bad_sol), "--family", "edge"],
            "header says 4×4 = 16 pieces but 4 follow",
        ),
        (
            "family_unknown",
            vec!["export", i, "--family", "jigsaw"],
            "invalid value 'jigsaw' for '--family <FAMILY>'",
        ),
    ];
    for (name, args, needle) in cases {
        assert_input_error(d, name, &args, needle);
    }
}

/// BUG (src/pipeline.rs, solve_sat): `--horizon 0` is not checked on the SAT route; it
/// reports `no_solution` with exit 1 instead of the input error the MILP route gives.
#[test]
fn horizon_zero_on_the_sat_route_is_an_input_error() {
    let dir = TempDir::new().unwrap();
    let inst = instance();
    let r = tilekit(
        dir.path(),
        &["solve", s(&inst), "--via", "sat", "--horizon", "0"],
    );
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains("--horizon must be at least 1"),
        "{}",
        r.stderr
    );
}

// ---------------------------------------------------------------------------------------
// 5. solver faults through a custom registry
// ---------------------------------------------------------------------------------------

/// A registry in `dir` with the given `[solver.NAME]` bodies; scripts run through /bin/sh
/// (no freshly written executable is exec'd, so no ETXTBSY under parallel tests).
fn registry(dir: &Path, entries: &[(&str, &str)]) -> PathBuf {
    let text: String = entries
        .iter()
        .map(|(name, body)| format!("[solver.{name}]\n{body}\n"))
        .collect();
    let path = dir.join("custom.toml");
    std::fs::write(&path, text).unwrap();
    path
}

fn script(dir: &Path, name: &str, body: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).unwrap();
    s(&p).to_string()
}

#[test]
fn missing_solver_command_exits_3() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let reg = registry(
        d,
        &[
            (
                "ghost",
                "kind = \"milp\"\ncommand = \"tilekit-no-such-solver\"\ninput = \"lp\"\nargs = [\"{model}\", \"{solution}\"]\nsolution = \"cbc\"",
            ),
            (
                "ghostsat",
                "kind = \"sat\"\ncommand = \"/nonexistent/ghostsat\"\ninput = \"cnf\"\nargs = [\"{model}\"]\nsolution = \"sat\"",
            ),
        ],
    );
    let inst = instance();
    for (via, solver, command) in [
        ("milp", "ghost", "tilekit-no-such-solver"),
        ("sat", "ghostsat", "/nonexistent/ghostsat"),
    ] {
        let r = tilekit(
            d,
            &[
                "solve",
                s(&inst),
                "--via",
                via,
                "--horizon",
                "11",
                "--solver",
                solver,
                "--solvers-file",
                s(&reg),
            ],
        );
        assert_eq!(r.code, 3, "{solver}: {}{}", r.stdout, r.stderr);
        assert!(
            r.stderr.contains(&format!("solver '{command}' not found")),
            "{solver}: {}",
            r.stderr
        );
    }
}

/// A solver that sleeps 30 s under `--time-limit 1`: killed, status time_limit, exit 1.
///
/// On an 8-puzzle: a 15-puzzle's admissible bound reads the 6-6-3 pattern database, which
/// the first run on a machine builds (seconds, or more under load): that is no part of the
/// solver's time.
fn assert_time_limit(via: &str, entry: &str) {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let sleeper = script(d, "sleeper.sh", "sleep 30");
    let body = entry.replace("SCRIPT", &sleeper);
    let reg = registry(d, &[("sleeper", &body)]);
    let inst = d.join("eight.txt");
    std::fs::write(&inst, "1 2 3\n4 5 6\n0 7 8\n").unwrap();
    let r = tilekit(
        d,
        &[
            "solve",
            s(&inst),
            "--via",
            via,
            "--horizon",
            "11",
            "--solver",
            "sleeper",
            "--solvers-file",
            s(&reg),
            "--time-limit",
            "1",
            "--json",
        ],
    );
    assert_eq!(r.code, 1, "{via}: {}{}", r.stdout, r.stderr);
    let v = json(&r);
    assert_eq!(v["status"], "time_limit", "{v}");
    assert_eq!(v["verified"], false, "{v}");
    assert!(v["moves"].is_null(), "{v}");
    assert!(
        r.seconds < 8.0,
        "{via}: took {:.1} s for a 1 s limit",
        r.seconds
    );
}

#[test]
fn sleeping_milp_solver_hits_the_time_limit() {
    assert_time_limit(
        "milp",
        "kind = \"milp\"\ncommand = \"/bin/sh\"\ninput = \"lp\"\nargs = [\"SCRIPT\", \"{model}\", \"{solution}\"]\nsolution = \"cbc\"",
    );
}

#[test]
fn sleeping_sat_solver_hits_the_time_limit() {
    assert_time_limit(
        "sat",
        "kind = \"sat\"\ncommand = \"/bin/sh\"\ninput = \"cnf\"\nargs = [\"SCRIPT\", \"{model}\"]\nsolution = \"sat\"",
    );
}

#[test]
fn solver_exiting_0_without_a_solution_file_exits_3() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let quiet = script(d, "quiet.sh", "exit 0");
    let reg = registry(
        d,
        &[
            (
                "quiet",
                &format!(
                    "kind = \"milp\"\ncommand = \"/bin/sh\"\ninput = \"lp\"\nargs = [\"{quiet}\", \"{{model}}\", \"{{solution}}\"]\nsolution = \"cbc\""
                ),
            ),
            (
                "quietmini",
                &format!(
                    "kind = \"sat\"\ncommand = \"/bin/sh\"\ninput = \"cnf\"\nargs = [\"{quiet}\", \"{{model}}\", \"{{solution}}\"]\nsolution = \"minisat\""
                ),
            ),
        ],
    );
    let inst = instance();
    for (via, solver) in [("milp", "quiet"), ("sat", "quietmini")] {
        let r = tilekit(
            d,
            &[
                "solve",
                s(&inst),
                "--via",
                via,
                "--horizon",
                "11",
                "--solver",
                solver,
                "--solvers-file",
                s(&reg),
            ],
        );
        assert_eq!(r.code, 3, "{solver}: {}{}", r.stdout, r.stderr);
        assert!(
            r.stderr.contains(&format!(
                "solver '{solver}' finished (exit code 0) but wrote no solution file"
            )),
            "{solver}: {}",
            r.stderr
        );
    }
}

// ---------------------------------------------------------------------------------------
// 6. solvers --json
// ---------------------------------------------------------------------------------------

fn solvers_listing() -> Vec<Value> {
    let dir = TempDir::new().unwrap();
    let r = tilekit(dir.path(), &["solvers", "--json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    json(&r).as_array().expect("a JSON array").clone()
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn solvers_json_lists_the_installed_solvers() {
    let rows = solvers_listing();
    for (name, kind, cmd) in [
        ("cbc", "milp", "cbc"),
        ("highs", "milp", "highs"),
        ("glpk", "milp", "glpsol"),
        ("cadical", "sat", "cadical"),
        ("kissat", "sat", "kissat"),
        ("minisat", "sat", "minisat"),
        ("rc2", "maxsat", "rc2.py"),
        ("clasp", "maxsat", "clasp"),
        ("evalmaxsat", "maxsat", "tilekit-hermax"),
        ("uwrmaxsat", "maxsat", "tilekit-hermax"),
        ("open-wbo", "maxsat", "tilekit-hermax"),
    ] {
        let row = rows
            .iter()
            .find(|r| r["name"] == name)
            .unwrap_or_else(|| panic!("{name} missing from solvers --json"));
        assert_eq!(row["kind"], kind, "{row}");
        assert_eq!(row["command"], cmd, "{row}");
        require(cmd);
        assert_eq!(row["found"], true, "{row}");
        let path = row["path"].as_str().expect("a found solver has a path");
        assert!(Path::new(path).is_file(), "{row}");
    }
}

/// GAMS is listed with what it said of its licence: a `gams` on `PATH` whose licence has run
/// out (one that replays GAMS's own output of such a run) is installed but unlicensed, with
/// the one sentence naming the day the licence ran out; no `gams` at all is not installed.
#[test]
fn solvers_shows_a_gams_whose_licence_ran_out_as_unlicensed() {
    let dir = TempDir::new().unwrap();
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    crate::common::expired_gams(&bin);
    let path = std::env::join_paths(
        std::iter::once(bin.clone())
            .chain(std::env::split_paths(&std::env::var_os("PATH").unwrap())),
    )
    .unwrap();
    let run = |args: &[&str], path: &std::ffi::OsStr| {
        let r = tilekit_with(
            &Opts {
                dir: Some(dir.path()),
                env: &[("PATH", path)],
                ..Default::default()
            },
            args,
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
        r
    };
    let problem = "GAMS stopped with a licensing error: its time-limited licence expired on \
                   2026-11-26 (\"Time-limited license expired 1 days ago\"); licence file \
                   /opt/solvers/lib/python3.11/site-packages/gamspy_base/gamslice.txt";
    let r = run(&["solvers", "--json"], &path);
    let rows = json(&r);
    let gams = rows
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "gams")
        .expect("a gams row");
    assert_eq!(gams["found"], true, "{gams}");
    assert_eq!(gams["version"], "54.6.1", "{gams}");
    assert_eq!(
        gams["licence"],
        serde_json::json!({"state": "invalid", "problem": problem})
    );
    // Other rows carry no licence field.
    assert!(rows[0].get("licence").is_none(), "{}", rows[0]);
    let r = run(&["solvers"], &path);
    let line = r
        .stdout
        .lines()
        .find(|l| l.starts_with("gams "))
        .expect("a gams line");
    assert_eq!(
        line.split_whitespace().collect::<Vec<_>>(),
        ["gams", "model", "gms", "unlicensed", "54.6.1"]
    );
    assert!(
        r.stdout.lines().any(|l| l == format!("gams: {problem}")),
        "{}",
        r.stdout
    );
    // With nothing on PATH, GAMS is not installed and its licence is not asked.
    let r = run(&["solvers", "--json"], std::ffi::OsStr::new("/nonexistent"));
    let rows = json(&r);
    let gams = rows
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "gams")
        .unwrap();
    assert_eq!(gams["found"], false, "{gams}");
    assert!(gams.get("licence").is_none(), "{gams}");
}

/// BUG (src/solve/registry.rs, extract_version): `glpsol --version` prints
/// "GLPSOL--GLPK LP/MIP Solver 5.0" first, but a later licence line "... version 3 or
/// later" wins, so glpk's version is reported as "3".
#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn solvers_json_reports_glpk_version_from_its_banner() {
    require("glpsol");
    let out = Command::new("glpsol").arg("--version").output().unwrap();
    let banner = String::from_utf8_lossy(&out.stdout);
    let want = banner
        .lines()
        .next()
        .unwrap()
        .split_whitespace()
        .last()
        .unwrap()
        .to_string();
    let rows = solvers_listing();
    let glpk = rows.iter().find(|r| r["name"] == "glpk").unwrap();
    assert_eq!(glpk["version"], want.as_str(), "{glpk}");
}

/// Outputs go to a temporary file beside the target and are renamed into place: an output
/// that cannot be created is a usage error naming the file (exit 2, nothing written, the old
/// file intact), and a file that is written replaces the old one whole.
#[test]
fn outputs_replace_the_old_file_whole_or_not_at_all() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let inst = instance();
    let missing = d.join("no-such-dir").join("case.lp");
    let r = tilekit(d, &["export", s(&inst), "-o", s(&missing)]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert_eq!(
        r.stderr.trim_end(),
        format!(
            "tilekit: {}: cannot create the output file: No such file or directory (os error 2)",
            missing.display()
        )
    );
    let out = d.join("case.lp");
    std::fs::write(&out, "old").unwrap();
    // A refused combination leaves the old file as it was.
    let r = tilekit(d, &["export", s(&inst), "--model", "sat", "-o", s(&out)]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "old");
    let r = tilekit(d, &["export", s(&inst), "--horizon", "12", "-o", s(&out)]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        std::fs::read_to_string(&out)
            .unwrap()
            .starts_with("\\ tilekit LP")
    );
    // No temporary file is left beside it.
    let names: Vec<_> = std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names, vec!["case.lp".to_string()], "{names:?}");
}

/// `--incumbent` input errors exit 2 with the file and what is wrong, before any solver
/// runs: a missing file, a file that is not moves, a plan that does not reach the goal, and
/// the flag on a route other than milp.
#[test]
fn incumbent_input_errors_exit_2() {
    let d = tempfile::tempdir().unwrap();
    let inst = instance();
    let short = d.path().join("short.moves");
    std::fs::write(&short, "LU\n").unwrap();
    let garbage = d.path().join("garbage.moves");
    std::fs::write(&garbage, "LUX\n").unwrap();
    let missing = d.path().join("missing.moves");
    let cases: [(&[&str], &str); 4] = [
        (
            &["--via", "milp", "--incumbent", s(&missing)],
            "missing.moves",
        ),
        (
            &["--via", "milp", "--incumbent", s(&garbage)],
            "garbage.moves",
        ),
        (
            &["--via", "milp", "--incumbent", s(&short)],
            "does not solve the board",
        ),
        (
            &["--via", "sat", "--incumbent", "native"],
            "goes with --via milp",
        ),
    ];
    for (extra, want) in cases {
        let mut args = vec!["solve", s(&inst), "--model", "tight", "--solver", "highs"];
        if extra[1] == "sat" {
            args.truncate(2);
        }
        args.extend_from_slice(extra);
        let r = tilekit(d.path(), &args);
        assert_eq!(r.code, 2, "{extra:?}: {}{}", r.stdout, r.stderr);
        assert!(r.stderr.contains(want), "{extra:?}: {}", r.stderr);
    }
}

/// The name-value solution files of MIPLIB, SCIP and Gurobi and CPLEX's XML, from fixtures
/// (the case study at horizon 11, CBC's values in each solver's layout: make.sh beside them):
/// each verifies; the same file with one move variable changed is rejected, exit 1; a name
/// the model lacks and a name listed twice are input errors, exit 2, with the file and line.
#[test]
fn verify_reads_miplib_scip_gurobi_and_cplex_solutions() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let fixtures =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/solutions/name-value");
    let neos = ["--model", "neos"];
    // The line of the first move variable, and its value as each form writes it.
    for (form, line, old, new) in [
        ("miplib", "l_t1 ", " 1", " 0"),
        ("scip", "l_t1 ", " 1 \t", " 0 \t"),
        ("gurobi", "l_t1 ", " 1", " 0"),
        (
            "cplex",
            "<variable name=\"l_t1\"",
            "value=\"1\"",
            "value=\"0\"",
        ),
    ] {
        let sol = fixtures.join(format!("case11.{form}.sol"));
        assert_verifies(d, &sol, &neos);
        let text = std::fs::read_to_string(&sol).unwrap();
        let bad: Vec<String> = text
            .lines()
            .map(|l| {
                if l.trim_start().starts_with(line) {
                    l.replacen(old, new, 1)
                } else {
                    l.to_string()
                }
            })
            .collect();
        let bad = bad.join("\n") + "\n";
        assert_ne!(bad, text, "{form}: the value was not changed");
        assert_rejected(d, &format!("bad.{form}.sol"), &bad, &neos, "violated");
    }
    let miplib = std::fs::read_to_string(fixtures.join("case11.miplib.sol")).unwrap();
    for (extra, want) in [
        ("nosuch 1\n", "the solution names variable \"nosuch\""),
        ("l_t1 1\n", ":228: variable l_t1 is listed twice"),
    ] {
        let path = d.join("extra.sol");
        std::fs::write(&path, format!("{miplib}{extra}")).unwrap();
        let inst = instance();
        let r = tilekit(d, &["verify", s(&inst), s(&path), "--model", "neos"]);
        assert_eq!(r.code, 2, "{extra:?}: {}{}", r.stdout, r.stderr);
        assert!(r.stderr.contains(want), "{extra:?}: {}", r.stderr);
    }
}

/// A member of a built-in set stands for an instance file wherever one is taken, with the
/// set's goal convention; a range, an unknown set or a contradicting goal is refused.
#[test]
fn set_members_stand_for_instance_files() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let r = tilekit(d, &["solve", "short8:5", "--json", "-o", "plan.txt"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = json(&r);
    assert_eq!(v["verified"], true, "{v}");
    assert_eq!(v["optimal"], true, "{v}");
    // The same plan verifies against the member, under the set's blank-first goal.
    let r = tilekit(d, &["verify", "short8:5", "plan.txt"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let r = tilekit(
        d,
        &["verify", "short8:5", "plan.txt", "--goal", "blank-first"],
    );
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let r = tilekit(
        d,
        &["verify", "short8:5", "plan.txt", "--goal", "blank-last"],
    );
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("own goal convention"), "{}", r.stderr);
    // An edge member exports as its file would.
    let r = tilekit(
        d,
        &["export", "meta2010:3", "--model", "milp", "-o", "m.lp"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        std::fs::read_to_string(d.join("m.lp"))
            .unwrap()
            .contains("Minimize")
    );
    for (arg, says) in [
        ("korf100:1-2", "names 2 instances"),
        ("nosuch:1", "nor a member of a set"),
        ("korf100:101", "nor a member of a set"),
    ] {
        let r = tilekit(d, &["solve", arg]);
        assert_eq!(r.code, 2, "{arg}");
        assert!(r.stderr.contains(says), "{arg}: {}", r.stderr);
    }
    let r = tilekit(d, &["solve", "meta2010:3", "--family", "sliding"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("of the edge family, not sliding"),
        "{}",
        r.stderr
    );
}

/// A time limit the optimal search cannot meet still ends with a verified plan, beside the
/// bound the search proved and the gap between them (Manhattan distance alone on one of
/// Korf's hardest boards: its optimal search takes minutes).
#[test]
fn a_search_stopped_by_its_limit_returns_a_plan_and_its_gap() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let r = tilekit(
        d,
        &[
            "solve",
            "korf100:88",
            "--pdb",
            "none",
            "--time-limit",
            "3",
            "--json",
        ],
    );
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let v = json(&r);
    assert_eq!(v["status"], "solved", "{v}");
    assert_eq!(v["verified"], true, "{v}");
    let (objective, bound) = (
        v["objective"].as_f64().unwrap(),
        v["bound"].as_f64().unwrap(),
    );
    assert!(bound >= 40.0 && bound <= objective, "{v}");
    assert_eq!(v["optimal"], objective == bound, "{v}");
    if objective > bound {
        let r = tilekit(
            d,
            &["solve", "korf100:88", "--pdb", "none", "--time-limit", "3"],
        );
        assert!(r.stdout.contains(", proven at least "), "{}", r.stdout);
        assert!(r.stdout.contains(", gap "), "{}", r.stdout);
    }
    // With no share for the weighted search, the limit ends with the bound alone.
    let args = ["solve", "korf100:88", "--pdb", "none", "--time-limit", "2"];
    let r = tilekit(
        d,
        &[&args[..], &["--set", "native.incumbent_share=0", "--json"]].concat(),
    );
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert_eq!(json(&r)["status"], "time_limit");
    let r = tilekit(
        d,
        &[&args[..], &["--set", "native.incumbent_share=1.5"]].concat(),
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("native.incumbent_share"), "{}", r.stderr);
}
