//! `tilekit export-set`: the manifest is re-checked from the files by other programs
//! (coreutils `sha256sum`, GLPK's and HiGHS's own counts of the models they read, the CNF
//! headers counted here), the real solvers read and solve the files, and every answer goes
//! back through `tilekit verify`. Determinism, resuming and the refusals too.

use crate::common::tilekit;
use serde_json::Value;
use std::path::Path;
use std::process::Command;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn manifest(dir: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap()
}

fn export(dir: &Path, args: &[&str]) -> Value {
    let mut a = vec!["export-set"];
    a.extend_from_slice(args);
    a.extend(["-o", s(dir), "--jobs", "2"]);
    let r = tilekit(Path::new("."), &a);
    assert_eq!(r.code, 0, "{:?}: {}{}", args, r.stdout, r.stderr);
    manifest(dir)
}

/// The output of a command that must succeed.
fn run(cmd: &str, args: &[&str], dir: &Path) -> String {
    let out = Command::new(cmd)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("{cmd} is needed (scripts/install-solvers.sh): {e}"));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success() || matches!(out.status.code(), Some(10 | 20)),
        "{cmd} {args:?}: {}\n{text}",
        out.status
    );
    text
}

/// A number after `label` on a line of `text` (GLPK's `Number of rows = 5358`).
fn number_after(text: &str, label: &str) -> u64 {
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with(label))
        .unwrap_or_else(|| panic!("no {label:?} in:\n{text}"));
    line.rsplit(' ').next().unwrap().trim().parse().unwrap()
}

/// Variables, clauses and literals of a DIMACS CNF, counted here, and the header's numbers.
fn count_cnf(text: &str) -> ((u64, u64), (u64, u64, u64)) {
    let mut header = (0, 0);
    let (mut vars, mut clauses, mut lits) = (0u64, 0u64, 0u64);
    for line in text.lines() {
        if let Some(h) = line.strip_prefix("p cnf ") {
            let n: Vec<u64> = h.split_whitespace().map(|x| x.parse().unwrap()).collect();
            header = (n[0], n[1]);
        } else if !line.starts_with('c') && !line.trim().is_empty() {
            for t in line.split_whitespace() {
                let x: i64 = t.parse().unwrap();
                if x == 0 {
                    clauses += 1;
                } else {
                    lits += 1;
                    vars = vars.max(x.unsigned_abs());
                }
            }
        }
    }
    (header, (vars, clauses, lits))
}

/// Every file's hash and length by coreutils, every model's size by a program that reads it.
fn check_files(dir: &Path, m: &Value) {
    for f in m["files"].as_array().unwrap() {
        let path = f["path"].as_str().unwrap();
        let sum = run("sha256sum", &[path], dir);
        assert_eq!(sum.split(' ').next(), f["sha256"].as_str(), "{path}");
        let bytes = std::fs::metadata(dir.join(path)).unwrap().len();
        assert_eq!(Some(bytes), f["bytes"].as_u64(), "{path}");
        let size = &f["size"];
        match f["format"].as_str().unwrap() {
            format @ ("lp" | "mps") => {
                let flag = if format == "lp" { "--lp" } else { "--freemps" };
                let glpk = run("glpsol", &[flag, path, "--check"], dir);
                assert_eq!(size["kind"], "milp", "{path}");
                assert_eq!(
                    Some(number_after(&glpk, "Number of rows")),
                    size["rows"].as_u64(),
                    "{path}"
                );
                assert_eq!(
                    Some(number_after(&glpk, "Number of columns")),
                    size["variables"].as_u64(),
                    "{path}"
                );
                assert_eq!(
                    Some(number_after(&glpk, "Number of non-zeros (matrix)")),
                    size["nonzeros"].as_u64(),
                    "{path}"
                );
            }
            "cnf" => {
                let text = std::fs::read_to_string(dir.join(path)).unwrap();
                let ((hv, hc), (v, c, l)) = count_cnf(&text);
                assert_eq!(c, hc, "{path}: the header's clause count");
                assert!(v <= hv, "{path}");
                assert_eq!(size["kind"], "cnf", "{path}");
                assert_eq!(Some(hv), size["variables"].as_u64(), "{path}");
                assert_eq!(Some(c), size["clauses"].as_u64(), "{path}");
                assert_eq!(Some(l), size["literals"].as_u64(), "{path}");
            }
            "dimacs" => {
                let text = std::fs::read_to_string(dir.join(path)).unwrap();
                let header = text.lines().find(|l| l.starts_with("p ")).unwrap();
                let n: Vec<u64> = header
                    .split_whitespace()
                    .skip(2)
                    .map(|x| x.parse().unwrap())
                    .collect();
                let edges = text.lines().filter(|l| l.starts_with("e ")).count() as u64;
                assert_eq!(size["kind"], "graph", "{path}");
                assert_eq!(
                    (Some(n[0]), Some(n[1])),
                    (size["nodes"].as_u64(), size["edges"].as_u64()),
                    "{path}"
                );
                assert_eq!(edges, n[1], "{path}");
            }
            "wcnf" => {
                let text = std::fs::read_to_string(dir.join(path)).unwrap();
                let body: Vec<&str> = text
                    .lines()
                    .filter(|l| !l.starts_with('c') && !l.trim().is_empty())
                    .collect();
                let hard = body.iter().filter(|l| l.starts_with("h ")).count() as u64;
                let soft = body.len() as u64 - hard;
                let top = body
                    .iter()
                    .flat_map(|l| {
                        l.trim_start_matches("h ")
                            .split_whitespace()
                            .skip(usize::from(!l.starts_with("h ")))
                    })
                    .map(|t| t.parse::<i64>().unwrap().unsigned_abs())
                    .max()
                    .unwrap();
                assert_eq!(size["kind"], "wcnf", "{path}");
                assert_eq!(
                    (Some(hard), Some(soft)),
                    (size["hard"].as_u64(), size["soft"].as_u64()),
                    "{path}"
                );
                assert!(top <= size["variables"].as_u64().unwrap(), "{path}");
            }
            other => panic!("{path}: unexpected format {other}"),
        }
    }
}

/// `tilekit verify` on a raw solver output: valid, and the objective it reports.
fn verify(dir: &Path, m: &Value, file: &Value, output: &str) -> f64 {
    let inst = m["instances"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["id"] == file["instance"])
        .unwrap();
    let mut args = vec![
        "verify",
        inst["path"].as_str().unwrap(),
        output,
        "--model",
        file["model"].as_str().unwrap(),
        "--json",
    ];
    if let Some(g) = inst["goal"].as_str() {
        args.extend(["--goal", g]);
    }
    // A GLPK solution file carries no names to read the horizon from.
    let horizon = file["horizon"].as_u64().map(|t| t.to_string());
    if let Some(t) = &horizon {
        args.extend(["--horizon", t]);
    }
    let r = tilekit(dir, &args);
    assert_eq!(
        r.code, 0,
        "verify {output} of {}: {}{}",
        file["path"], r.stdout, r.stderr
    );
    let v: Value = serde_json::from_str(r.stdout.trim()).unwrap();
    assert_eq!(v["valid"], true, "{v}");
    v["objective"].as_f64().unwrap()
}

/// Solve every file of the manifest with each solver that reads its format, and verify.
fn solve_and_verify(dir: &Path, m: &Value, glpk: bool) {
    for (k, f) in m["files"].as_array().unwrap().iter().enumerate() {
        let path = f["path"].as_str().unwrap();
        let known = f["known_optimum"].as_f64();
        let mut outputs = Vec::new();
        match f["format"].as_str().unwrap() {
            "lp" | "mps" => {
                let sol = format!("cbc-{k}.sol");
                run("cbc", &[path, "-solve", "-solu", &sol], dir);
                outputs.push(sol);
                let sol = format!("highs-{k}.sol");
                run(
                    "highs",
                    &["--model_file", path, "--solution_file", &sol],
                    dir,
                );
                outputs.push(sol);
                if glpk && f["format"] == "lp" {
                    let sol = format!("glpk-{k}.sol");
                    run("glpsol", &["--lp", path, "-w", &sol], dir);
                    outputs.push(sol);
                }
            }
            "cnf" => {
                let out = Command::new("cadical")
                    .arg(path)
                    .current_dir(dir)
                    .output()
                    .unwrap();
                assert_eq!(out.status.code(), Some(10), "{path}: cadical finds a model");
                let sol = format!("cadical-{k}.out");
                std::fs::write(dir.join(&sol), &out.stdout).unwrap();
                outputs.push(sol);
            }
            "wcnf" => {
                let out = Command::new("rc2.py")
                    .args(["-vv", path])
                    .current_dir(dir)
                    .output()
                    .unwrap();
                assert!(out.status.success(), "{path}: rc2");
                let sol = format!("rc2-{k}.out");
                std::fs::write(dir.join(&sol), &out.stdout).unwrap();
                outputs.push(sol);
            }
            "dimacs" => {
                let out = Command::new("cliquer")
                    .args(["-q", "-q", "-r", "none", path])
                    .current_dir(dir)
                    .output()
                    .unwrap();
                assert!(out.status.success(), "{path}: cliquer");
                let sol = format!("cliquer-{k}.out");
                std::fs::write(dir.join(&sol), &out.stdout).unwrap();
                outputs.push(sol);
            }
            other => panic!("{other}"),
        }
        for o in outputs {
            let objective = verify(dir, m, f, &o);
            if let Some(known) = known {
                assert_eq!(objective, known, "{path} by {o}");
            }
        }
    }
}

#[test]
#[cfg_attr(
    not(all(feature = "slow-tests", feature = "solver-tests")),
    ignore = "slow tier: a 15-puzzle MILP read and run by every solver, minutes on 2 cores; the short and META manifests run in the quick tier (scripts/test.sh --full)"
)]
fn korf100_manifest_is_rechecked_from_the_files_and_the_solvers_read_them() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().join("korf");
    // One instance: every check here is per file, and the 57-move models of three instances
    // took eleven minutes on a slow 2-core machine (the other tests here export several).
    let m = export(
        &d,
        &[
            "korf100:1",
            "--models",
            "neos,flow,sat",
            "--formats",
            "lp,mps,cnf",
            "--horizon",
            "auto",
        ],
    );
    assert_eq!(m["schema"], "tilekit-manifest/1");
    let files = m["files"].as_array().unwrap();
    assert_eq!(files.len(), 5, "neos lp/mps, flow lp/mps, sat cnf");
    let skipped = m["skipped"].as_array().unwrap();
    assert_eq!(skipped.len(), 4);
    assert!(
        skipped
            .iter()
            .any(|s| s["model"] == "sat" && s["format"] == "lp")
    );
    // The published optima set the horizons.
    let horizons: Vec<u64> = files
        .iter()
        .map(|f| f["horizon"].as_u64().unwrap())
        .collect();
    assert_eq!(&horizons[..5], &[57; 5]);
    assert!(files.iter().all(|f| f["horizon_source"] == "set"));
    assert!(
        files
            .iter()
            .all(|f| f["optimum_source"] == "published: Korf 1985")
    );
    check_files(&d, &m);
    // The instance copies are what the manifest says.
    for i in m["instances"].as_array().unwrap() {
        let sum = run("sha256sum", &[i["path"].as_str().unwrap()], &d);
        assert_eq!(sum.split(' ').next(), i["sha256"].as_str());
    }
    // The solvers read every file without an error (solving a 57-move MILP is not the point
    // here). HiGHS reads the whole file and stops at once: a zero time limit, which its reader
    // does not race (with any positive limit a loaded machine can stop it mid-file).
    for f in files {
        let path = f["path"].as_str().unwrap();
        match f["format"].as_str().unwrap() {
            "lp" | "mps" => {
                let cbc = run("cbc", &[path, "-quit"], &d);
                assert!(
                    !cbc.to_lowercase().contains("error") || cbc.contains("with 0 errors"),
                    "{path}: {cbc}"
                );
                // HiGHS exits 1 when its time limit ends the search: read its output only.
                let out = Command::new("highs")
                    .args([
                        "--model_file",
                        path,
                        "--time_limit",
                        "0",
                        "--presolve",
                        "off",
                    ])
                    .current_dir(&d)
                    .output()
                    .unwrap();
                let highs = String::from_utf8_lossy(&out.stdout);
                let rows = f["size"]["rows"].as_u64().unwrap();
                assert!(
                    highs.contains(&format!("has {rows} rows;")),
                    "{path}: {highs}"
                );
            }
            _ => {
                let out = Command::new("cadical")
                    .args(["-t", "1", path])
                    .current_dir(&d)
                    .output()
                    .unwrap();
                let text = String::from_utf8_lossy(&out.stdout);
                let v = f["size"]["variables"].as_u64().unwrap();
                let c = f["size"]["clauses"].as_u64().unwrap();
                assert!(
                    text.contains(&format!("found 'p cnf {v} {c}' header")),
                    "{path}: {text}"
                );
            }
        }
    }

    // The same export elsewhere: the same bytes, and a manifest that differs in the command.
    let again = dir.path().join("again");
    let m2 = export(
        &again,
        &[
            "korf100:1",
            "--models",
            "neos,flow,sat",
            "--formats",
            "lp,mps,cnf",
            "--horizon",
            "auto",
        ],
    );
    for f in files {
        let p = f["path"].as_str().unwrap();
        assert!(
            std::fs::read(d.join(p)).unwrap() == std::fs::read(again.join(p)).unwrap(),
            "{p}"
        );
    }
    let strip = |mut m: Value| {
        m["command"] = Value::Null;
        m
    };
    assert_eq!(strip(m.clone()), strip(m2));
    let csv = |dir: &Path| std::fs::read_to_string(dir.join("manifest.csv")).unwrap();
    assert_eq!(csv(&d), csv(&again));

    // Resume: one file deleted and one corrupted are rewritten; the rest are kept untouched.
    let mtime = |p: &str| std::fs::metadata(d.join(p)).unwrap().modified().unwrap();
    let before: Vec<_> = files
        .iter()
        .map(|f| mtime(f["path"].as_str().unwrap()))
        .collect();
    let gone = files[1]["path"].as_str().unwrap();
    let bad = files[3]["path"].as_str().unwrap();
    std::fs::remove_file(d.join(gone)).unwrap();
    std::fs::write(d.join(bad), "corrupted\n").unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    let r = tilekit(
        Path::new("."),
        &[
            "export-set",
            "korf100:1",
            "--models",
            "neos,flow,sat",
            "--formats",
            "lp,mps,cnf",
            "--horizon",
            "auto",
            "-o",
            s(&d),
            "--json",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let summary: Value = serde_json::from_str(r.stdout.trim()).unwrap();
    assert_eq!(
        (summary["written"].as_u64(), summary["kept"].as_u64()),
        (Some(2), Some(3)),
        "{summary}"
    );
    for (f, t) in files.iter().zip(&before) {
        let p = f["path"].as_str().unwrap();
        if p != gone && p != bad {
            assert_eq!(mtime(p), *t, "{p} was rewritten");
        }
    }
    let m3 = manifest(&d);
    assert_eq!(strip(m3.clone()), strip(m.clone()));
    check_files(&d, &m3);
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn short_sliding_files_solve_to_the_known_optimum_with_every_solver() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let m = export(
        d,
        &[
            "short15:5-6",
            "--models",
            "neos,flow,sat",
            "--formats",
            "lp,mps,cnf",
        ],
    );
    assert_eq!(m["files"].as_array().unwrap().len(), 10);
    check_files(d, &m);
    solve_and_verify(d, &m, true);
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn meta_files_solve_and_verify_with_every_solver() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let m = export(
        d,
        &[
            "meta2010:3-4",
            "--models",
            "milp,clique,sat,maxsat",
            "--formats",
            "lp,mps,cnf,dimacs,wcnf",
        ],
    );
    // milp lp/mps, sat cnf, clique dimacs, maxsat wcnf per instance.
    assert_eq!(m["files"].as_array().unwrap().len(), 2 * 5);
    assert!(
        m["files"]
            .as_array()
            .unwrap()
            .iter()
            .all(|f| f["horizon"].is_null())
    );
    check_files(d, &m);
    solve_and_verify(d, &m, false);
    // Brendan's set 1 ships perfect boards: the optimum 0 is stated and met.
    let b = dir.path().join("b");
    let mb = export(&b, &["brendan1:3", "--models", "milp", "--formats", "lp"]);
    assert_eq!(mb["files"][0]["known_optimum"], 0);
    solve_and_verify(&b, &mb, true);
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn compressed_files_are_the_plain_ones_gzipped_and_the_solvers_read_them() {
    let dir = tempfile::tempdir().unwrap();
    let (plain, gz) = (dir.path().join("plain"), dir.path().join("gz"));
    // One instance: each file is solved by three or four solvers.
    let args = [
        "short8:20",
        "--models",
        "neos,sat",
        "--formats",
        "lp,mps,cnf",
    ];
    let mp = export(&plain, &args);
    let mut a = args.to_vec();
    a.extend(["--compress", "gz"]);
    let mg = export(&gz, &a);
    let (fp, fg) = (
        mp["files"].as_array().unwrap(),
        mg["files"].as_array().unwrap(),
    );
    assert_eq!(fp.len(), fg.len());
    for (p, g) in fp.iter().zip(fg) {
        let gpath = g["path"].as_str().unwrap();
        assert_eq!(format!("{}.gz", p["path"].as_str().unwrap()), gpath);
        assert_eq!(g["compressed"], "gz");
        assert_eq!(p["size"], g["size"]);
        let out = Command::new("gzip")
            .args(["-dc", gpath])
            .current_dir(&gz)
            .output()
            .unwrap();
        assert!(out.status.success());
        assert!(
            out.stdout == std::fs::read(plain.join(p["path"].as_str().unwrap())).unwrap(),
            "{gpath}"
        );
        let sum = run("sha256sum", &[gpath], &gz);
        assert_eq!(sum.split(' ').next(), g["sha256"].as_str());
    }
    // Each solver the README says reads gz solves the compressed files to the same optimum.
    for (k, g) in fg.iter().enumerate() {
        let path = g["path"].as_str().unwrap();
        if path.ends_with(".cnf.gz") {
            for solver in ["cadical", "kissat", "minisat"] {
                let out = Command::new(solver)
                    .arg(path)
                    .current_dir(&gz)
                    .output()
                    .unwrap();
                assert_eq!(out.status.code(), Some(10), "{solver} on {path}");
            }
            let out = Command::new("cadical")
                .arg(path)
                .current_dir(&gz)
                .output()
                .unwrap();
            std::fs::write(gz.join(format!("cad-{k}.out")), &out.stdout).unwrap();
            assert_eq!(
                verify(&gz, &mg, g, &format!("cad-{k}.out")),
                g["known_optimum"].as_f64().unwrap()
            );
        } else {
            let sol = format!("cbc-{k}.sol");
            run("cbc", &[path, "-solve", "-solu", &sol], &gz);
            assert_eq!(
                verify(&gz, &mg, g, &sol),
                g["known_optimum"].as_f64().unwrap()
            );
            let sol = format!("highs-{k}.sol");
            run(
                "highs",
                &["--model_file", path, "--solution_file", &sol],
                &gz,
            );
            assert_eq!(
                verify(&gz, &mg, g, &sol),
                g["known_optimum"].as_f64().unwrap()
            );
            let flag = if path.ends_with(".lp.gz") {
                "--lp"
            } else {
                "--freemps"
            };
            let sol = format!("glpk-{k}.sol");
            run("glpsol", &[flag, path, "-w", &sol], &gz);
            assert_eq!(
                verify(&gz, &mg, g, &sol),
                g["known_optimum"].as_f64().unwrap()
            );
        }
    }
}

#[test]
fn bad_requests_get_one_clear_message_each() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = d.join("o");
    let o = s(&out);
    let file = d.join("a-file");
    std::fs::write(&file, "x").unwrap();
    let cases: [(&[&str], &str); 7] = [
        (
            &["korf101", "--models", "neos", "--formats", "lp", "-o", o],
            "korf101: not a set tilekit knows",
        ),
        (
            &[
                "meta2010:3",
                "--models",
                "milp",
                "--formats",
                "lp",
                "--horizon",
                "10",
                "-o",
                o,
            ],
            "--horizon does not apply to edge-matching puzzles",
        ),
        (
            &[
                "korf100:1",
                "--models",
                "neos",
                "--formats",
                "lp",
                "--filter",
                "-o",
                o,
            ],
            "--filter does not apply to sliding-tile puzzles",
        ),
        (
            &[
                "korf100:1",
                "--models",
                "neos",
                "--formats",
                "lp",
                "-o",
                s(&file),
            ],
            "must name a directory",
        ),
        (
            &[
                "korf100:1",
                "--models",
                "neos",
                "--formats",
                "lp",
                "-o",
                "/proc/tilekit-no/x",
            ],
            "cannot create the directory",
        ),
        (
            &[
                "meta2010:3",
                "--models",
                "clique",
                "--formats",
                "dimacs",
                "--compress",
                "gz",
                "-o",
                o,
            ],
            "not read compressed",
        ),
        (
            &["meta2010:3", "--models", "neos", "--formats", "lp", "-o", o],
            "nothing to export",
        ),
    ];
    for (args, says) in cases {
        let mut a = vec!["export-set"];
        a.extend_from_slice(args);
        let r = tilekit(d, &a);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(says), "{args:?}: {}", r.stderr);
        assert_eq!(
            r.stderr
                .trim()
                .lines()
                .filter(|l| l.starts_with("tilekit:"))
                .count(),
            1,
            "{}",
            r.stderr
        );
    }
    // A directory of instance files is a set too; a bad file in it is named.
    let files = d.join("files");
    std::fs::create_dir(&files).unwrap();
    std::fs::write(files.join("a.txt"), "1 2 3\n4 0 5\n7 8 6\n").unwrap();
    let r = tilekit(
        d,
        &[
            "export-set",
            s(&files),
            "--models",
            "sat",
            "--formats",
            "cnf",
            "-o",
            o,
            "--json",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let m = manifest(&out);
    assert_eq!(m["files"][0]["horizon_source"], "native");
    assert_eq!(m["files"][0]["horizon"], 2);
    std::fs::write(files.join("b.txt"), "1 2 3\n4 0 5\n7 8\n").unwrap();
    let r = tilekit(
        d,
        &[
            "export-set",
            s(&files),
            "--models",
            "sat",
            "--formats",
            "cnf",
            "-o",
            o,
        ],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("b.txt"), "{}", r.stderr);
}

/// MIPLIB's `solutions.solu` beside the manifest, and each CNF's expected answer, against the
/// real solvers: at the optimum's horizon every MILP's `=opt=` is the known optimum (CBC
/// agrees) and every CNF is `sat`; one horizon short of it the MILP is `=inf=` and the CNF
/// `unsat`; one horizon past it the CNF (exactly T moves) is `unsat` by parity while the
/// MILP (at most one move a step) keeps its optimum. CaDiCaL must agree with every `expected`.
#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn the_solu_file_and_the_expected_answers_agree_with_the_solvers() {
    crate::common::require("cadical");
    crate::common::require("cbc");
    for (horizon, solu, answer) in [
        ("auto", "=opt= short8-003.neos 2", "sat"),
        ("1", "=inf= short8-003.neos", "unsat"),
        ("3", "=opt= short8-003.neos 2", "unsat"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let m = export(
            d,
            &[
                "short8:3",
                "--models",
                "neos,sat",
                "--formats",
                "mps,cnf",
                "--horizon",
                horizon,
            ],
        );
        let text = std::fs::read_to_string(d.join("solutions.solu")).unwrap();
        assert_eq!(text, format!("{solu}\n"), "horizon {horizon}");
        let files = m["files"].as_array().unwrap();
        let cnf = files.iter().find(|f| f["format"] == "cnf").unwrap();
        assert_eq!(cnf["expected"], answer, "horizon {horizon}: {cnf}");
        let out = run(
            "cadical",
            &["-q", s(&d.join(cnf["path"].as_str().unwrap()))],
            d,
        );
        let said = if out.contains("s SATISFIABLE") {
            "sat"
        } else {
            "unsat"
        };
        assert!(
            out.contains("s SATISFIABLE") || out.contains("s UNSATISFIABLE"),
            "{out}"
        );
        assert_eq!(said, answer, "horizon {horizon}: CaDiCaL says {said}");
        let mps = files.iter().find(|f| f["format"] == "mps").unwrap();
        let sol = d.join("cbc.sol");
        run(
            "cbc",
            &[
                s(&d.join(mps["path"].as_str().unwrap())),
                "-solve",
                "-solu",
                s(&sol),
            ],
            d,
        );
        let first = std::fs::read_to_string(&sol).unwrap();
        let first = first.lines().next().unwrap().to_string();
        if solu.starts_with("=inf=") {
            assert!(
                first.starts_with("Infeasible"),
                "horizon {horizon}: {first}"
            );
        } else {
            assert!(
                first.starts_with("Optimal - objective value 2"),
                "horizon {horizon}: {first}"
            );
        }
    }
    // The CSV carries the answer too.
    let dir = tempfile::tempdir().unwrap();
    export(
        dir.path(),
        &["short8:3", "--models", "sat", "--formats", "cnf"],
    );
    let csv = std::fs::read_to_string(dir.path().join("manifest.csv")).unwrap();
    assert!(
        csv.lines().next().unwrap().ends_with(",expected,gbd"),
        "{csv}"
    );
    assert!(csv.lines().nth(1).unwrap().contains(",sat,"), "{csv}");
}

/// Every CNF's and WCNF's `gbd` in the manifest is gbd-tools' own identifier of the file
/// (`gbdc identify`), plain and compressed alike, for sliding and edge formulas and both WCNF
/// dialects.
#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn the_gbd_hashes_are_gbd_tools_own() {
    crate::common::require("gbdc");
    for (set, model, formats, compress) in [
        ("short8:1-3", "sat", "cnf", "none"),
        ("meta2010:3-4", "sat", "cnf", "gz"),
        ("short8:1-2", "sat", "cnf", "xz"),
        ("meta2010:3-4", "maxsat", "wcnf,wcnf-legacy", "none"),
        ("meta2010:3", "maxsat", "wcnf,wcnf-legacy", "xz"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let m = export(
            d,
            &[
                set,
                "--models",
                model,
                "--formats",
                formats,
                "--compress",
                compress,
            ],
        );
        let files = m["files"].as_array().unwrap();
        assert!(!files.is_empty());
        for f in files {
            let mut path = d.join(f["path"].as_str().unwrap());
            // gbdc tells formats by extension and knows the legacy WCNF dialect as `.wcnf`.
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if name.contains(".wcnf-legacy") {
                let copy = d.join(name.replace(".wcnf-legacy", ".legacy.wcnf"));
                std::fs::copy(&path, &copy).unwrap();
                path = copy;
            }
            let out = run("gbdc", &["identify", s(&path)], d);
            let theirs = out
                .lines()
                .map(str::trim)
                .find(|l| l.len() == 32 && l.bytes().all(|b| b.is_ascii_hexdigit()))
                .unwrap_or_else(|| panic!("no hash from gbdc: {out}"));
            assert_eq!(f["gbd"].as_str(), Some(theirs.trim()), "{}", path.display());
        }
    }
}

/// The issue's own example: an xz set of MPS and CNF files, each passing `xz -t`, with its
/// `.solu` optima and CNF answers, and `run` reading the xz files through their solvers.
#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn an_xz_set_passes_xz_and_its_solvers_run_on_it() {
    crate::common::require("xz");
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let set = d.join("set");
    let m = export(
        &set,
        &[
            "short8:1-4",
            "--models",
            "neos,sat",
            "--formats",
            "mps,cnf",
            "--horizon",
            "auto",
            "--compress",
            "xz",
        ],
    );
    let files = m["files"].as_array().unwrap();
    assert_eq!(files.len(), 8);
    for f in files {
        let path = set.join(f["path"].as_str().unwrap());
        assert!(
            path.to_string_lossy().ends_with(".xz"),
            "{}",
            path.display()
        );
        assert_eq!(f["compressed"], "xz");
        run("xz", &["-t", s(&path)], d);
        if f["format"] == "cnf" {
            assert_eq!(f["expected"], "sat", "{f}");
            assert!(f["gbd"].as_str().is_some_and(|g| g.len() == 32), "{f}");
        }
    }
    let solu = std::fs::read_to_string(set.join("solutions.solu")).unwrap();
    for inst in m["instances"].as_array().unwrap() {
        let line = format!(
            "=opt= {}.neos {}",
            inst["id"].as_str().unwrap(),
            inst["known_optimum"]
        );
        assert!(solu.lines().any(|l| l == line), "{line} in {solu}");
    }
    // The same bytes again: xz is written with one thread at a fixed level.
    let again = export(
        &d.join("again"),
        &[
            "short8:1-4",
            "--models",
            "neos,sat",
            "--formats",
            "mps,cnf",
            "--horizon",
            "auto",
            "--compress",
            "xz",
        ],
    );
    let hashes = |m: &Value| -> Vec<String> {
        m["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["sha256"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(hashes(&m), hashes(&again));
    // `run` hands each solver the decompressed file (CP-SAT reads the MPS files, CaDiCaL the
    // CNF); every answer verifies.
    let db = d.join("r.sqlite");
    let r = tilekit(
        Path::new("."),
        &[
            "run",
            s(&set.join("manifest.json")),
            "--solvers",
            "cpsat,cadical",
            "--db",
            s(&db),
            "--time-limit",
            "30",
            "--json",
        ],
    );
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let v: Value = serde_json::from_str(r.stdout.trim()).unwrap();
    assert_eq!(v["cells"], 8, "{v}");
    assert_eq!(v["errors"], 0, "{v}");
    assert_eq!(v["conflict_count"], 0, "{v}");
}

/// Without a known optimum, an edge board's best known value goes into the `.solu` as
/// `=best=`, from tilekit's own shipped board (re-checked) or a published score.
#[test]
fn best_known_boards_give_best_lines() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let m = export(d, &["meta2010:10", "--models", "milp", "--formats", "lp"]);
    let inst = &m["instances"][0];
    assert!(inst["known_optimum"].is_null());
    let best = inst["best_known"].as_u64().expect("a best known value");
    // META 10×10 has 180 inner seams; tilekit's boards match at least 174.
    assert!(best <= 6, "{inst}");
    assert!(
        inst["best_source"]
            .as_str()
            .is_some_and(|s| s.contains("models/edge-matching/boards/10x10")),
        "{inst}"
    );
    let solu = std::fs::read_to_string(d.join("solutions.solu")).unwrap();
    assert_eq!(solu, format!("=best= meta2010-10x10.milp {best}\n"));
    // Eternity II: the published 470 is better than any board shipped here, and says so.
    let e = tempfile::tempdir().unwrap();
    let m = export(e.path(), &["eii", "--models", "milp", "--formats", "lp"]);
    assert_eq!(m["instances"][0]["best_known"], 10);
    assert!(
        m["instances"][0]["best_source"]
            .as_str()
            .is_some_and(|s| s.contains("no board checked here"))
    );
}

/// Every MPS file of a set carries its own name on its `NAME` line, the name its `.solu` line
/// gives (MIPLIB's convention), although the boards share one size, model and horizon; the
/// files still pass the run's rebuild check and CBC reads them.
#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn mps_names_are_unique_and_match_the_solu() {
    crate::common::require("cbc");
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let m = export(
        d,
        &[
            "meta2010:3-5",
            "--models",
            "milp",
            "--formats",
            "mps,lp",
            "--compress",
            "xz",
        ],
    );
    let solu = std::fs::read_to_string(d.join("solutions.solu")).unwrap();
    let mut names = Vec::new();
    for f in m["files"].as_array().unwrap() {
        if f["format"] != "mps" {
            continue;
        }
        let path = d.join(f["path"].as_str().unwrap());
        let mut text = String::new();
        std::io::Read::read_to_string(
            &mut liblzma::read::XzDecoder::new(std::fs::File::open(&path).unwrap()),
            &mut text,
        )
        .unwrap();
        let name = text
            .lines()
            .find_map(|l| l.strip_prefix("NAME "))
            .and_then(|l| l.strip_suffix(" FREE"))
            .unwrap_or_else(|| panic!("no NAME line in {}", path.display()))
            .to_string();
        assert!(
            solu.lines()
                .any(|l| l.split_whitespace().nth(1) == Some(name.as_str())),
            "{name} is not a .solu name:\n{solu}"
        );
        names.push(name);
    }
    assert_eq!(names.len(), 3, "{names:?}");
    let mut unique = names.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), 3, "{names:?}");
    // The rebuild check of `run` makes the same file, NAME included.
    let db = d.join("r.sqlite");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tilekit"))
        .args([
            "run",
            s(&d.join("manifest.json")),
            "--solvers",
            "cbc",
            "--db",
        ])
        .arg(&db)
        .args(["--time-limit", "20"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `verify --manifest`: the model, horizon and options come from the manifest, and the file
/// must still be the one exported.
#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn verify_takes_the_model_and_options_from_the_manifest() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let m = export(
        d,
        &[
            "short8:2",
            "--models",
            "flow",
            "--formats",
            "lp",
            "--horizon",
            "auto",
        ],
    );
    let file = d.join(m["files"][0]["path"].as_str().unwrap());
    let sol = d.join("cbc.sol");
    run("cbc", &[s(&file), "-solve", "-solu", s(&sol)], d);
    let manifest = d.join("manifest.json");
    let ok = tilekit(
        Path::new("."),
        &["verify", s(&file), s(&sol), "--manifest", s(&manifest)],
    );
    assert_eq!(ok.code, 0, "{}{}", ok.stdout, ok.stderr);
    assert!(ok.stdout.starts_with("valid:"), "{}", ok.stdout);
    // Options the manifest gives are not given twice.
    let twice = tilekit(
        Path::new("."),
        &[
            "verify",
            s(&file),
            s(&sol),
            "--manifest",
            s(&manifest),
            "--horizon",
            "9",
        ],
    );
    assert_eq!(twice.code, 2);
    assert!(
        twice.stderr.contains("--horizon comes from the manifest"),
        "{}",
        twice.stderr
    );
    // A file that is not the set's, or no longer the one exported, is refused.
    let other = tilekit(
        Path::new("."),
        &["verify", s(&sol), s(&sol), "--manifest", s(&manifest)],
    );
    assert_eq!(other.code, 2);
    assert!(other.stderr.contains("not a file of"), "{}", other.stderr);
    let mut text = std::fs::read_to_string(&file).unwrap();
    text.push_str("\\ edited\n");
    std::fs::write(&file, text).unwrap();
    let changed = tilekit(
        Path::new("."),
        &["verify", s(&file), s(&sol), "--manifest", s(&manifest)],
    );
    assert_eq!(changed.code, 2);
    assert!(
        changed.stderr.contains("changed since it was exported"),
        "{}",
        changed.stderr
    );
}
