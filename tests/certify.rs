//! Optimality certificates of the SAT route, end to end with the real producers (varisat,
//! CaDiCaL, Kissat) and the real checker (`rate`): certified optima on the case study and short
//! instances, tampered proofs rejected (and reported as a failed certificate, exit code 1),
//! a missing checker failing loudly, the pruned and strong encodings giving the same optima
//! as the plain one, and the certificate's JSON fields.
//!
//! A missing `rate`, `cadical` or `kissat` FAILS these tests; without the `solver-tests` feature (`TILEKIT_SKIP_SOLVERS=1`) they show as ignored.

use crate::common::require;
use crate::common::{Opts, Run, json, tilekit_with};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;
use tilekit::certify::{self, CheckVerdict, CheckerSpec, ProofFormat};
use tilekit::format::dimacs_cnf::write_cnf;
use tilekit::formulate::sliding_sat::{self, Direction, Encoding};
use tilekit::route::method::{SatMethod, SlidingMethod};
use tilekit::route::sliding::{self, SolveRequest, load as load_sliding};
use tilekit::route::{Report, quiet};
use tilekit::solve::Limits;
use tilekit::{Goal, SlidingPuzzle};

fn models() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("models/sliding")
}

fn s(p: &Path) -> &str {
    p.to_str().expect("paths are UTF-8")
}

/// True when `cmd` is on PATH; panics when it is not, unless skipping was asked for.
/// An executable shell script `name` in `dir` with `body`.
fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, body).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// A registry file in `dir` naming one SAT solver `name` run as `command MODEL`.
fn sat_registry(dir: &Path, name: &str, command: &Path) -> PathBuf {
    let reg = dir.join("reg.toml");
    std::fs::write(
        &reg,
        format!(
            "[solver.{name}]\nkind = \"sat\"\ncommand = \"{}\"\ninput = \"cnf\"\nargs = [\"{{model}}\"]\nsolution = \"sat\"\n",
            s(command)
        ),
    )
    .unwrap();
    reg
}

/// A certified SAT solve with `solver` (pruned encoding, one proof, checked by rate).
fn certified(solver: &str, proof_dir: Option<PathBuf>) -> SolveRequest {
    SolveRequest::new(
        SlidingMethod::Sat(SatMethod {
            solver: Some(solver.into()),
            encoding: Some(Encoding::Pruned),
            certify: Some(certify::CertifyOptions {
                checker: "rate".into(),
                checker_time_limit: Duration::from_secs(60),
                proof_dir,
                split: 0,
                jobs: 1,
                direction: Default::default(),
                race: false,
            }),
            ..SatMethod::default()
        }),
        Limits::new(Duration::from_secs(60), 1),
    )
}

/// The embedded proof producer, with room enough for any formula of these tests.
fn varisat_producer() -> certify::Producer<'static> {
    certify::Producer {
        solver: &tilekit::solve::sat_embedded::Varisat,
        limits: Limits::new(Duration::from_secs(600), 1),
    }
}

fn solve_sliding_sat(p: &SlidingPuzzle, goal: Goal, req: SolveRequest) -> Report {
    sliding::solve(p, goal, &req.plan().unwrap(), &quiet).unwrap()
}

/// Solve `file` certified with `solver` and check everything the certificate claims.
fn assert_certified(file: &str, goal: Goal, solver: &str, optimum: usize) {
    let p = load_sliding(&models().join(file), goal).unwrap();
    let rep = solve_sliding_sat(&p, goal, certified(solver, None));
    assert!(rep.success(), "{file} {solver}: {}", rep.render(false));
    assert_eq!(rep.objective, Some(optimum as f64), "{file} {solver}");
    assert!(rep.optimal && rep.verified);
    let c = rep.certificate.expect("a certificate");
    assert!(c.certified, "{c:?}");
    assert_eq!(c.plan_length, optimum);
    assert_eq!(c.unsat_horizon, Some(optimum - 2));
    assert_eq!(c.checker_verdict, Some(CheckVerdict::Verified));
    assert_eq!(c.producer.as_deref(), Some(solver));
    assert_eq!(c.proof_format, Some(ProofFormat::BinaryDrat));
    assert!(c.proof_bytes.unwrap() > 0);
    // The lower bound can never exceed a verified plan's length.
    assert!(c.lower_bound.unwrap() <= optimum);
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn case_study_certified_by_varisat_and_cadical() {
    require("rate");
    assert_certified("neos_case_study.txt", Goal::BlankLast, "varisat", 11);
    require("cadical");
    assert_certified("neos_case_study.txt", Goal::BlankLast, "cadical", 11);
}

/// The single-instance files' stated optima; the search must step through UNSAT horizons
/// (their lower bounds are below the optimum), so the refutation comes from the plan loop.
#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn short_instances_certified() {
    require("rate");
    for (file, optimum) in [
        ("eight_len8.txt", 8),
        ("fifteen_len8.txt", 8),
        ("fifteen_len20.txt", 20),
        ("eight_len24.txt", 24),
    ] {
        assert_certified(file, Goal::BlankFirst, "varisat", optimum);
    }
    require("cadical");
    for (file, optimum) in [("fifteen_len20.txt", 20), ("fifteen_len24.txt", 24)] {
        assert_certified(file, Goal::BlankFirst, "cadical", optimum);
    }
    require("kissat");
    assert_certified("fifteen_len20.txt", Goal::BlankFirst, "kissat", 20);
}

/// Rows `id optimal …tiles` of a multi-instance file as puzzles with their optima.
fn rows(file: &str, side: usize, lengths: &[usize]) -> Vec<(SlidingPuzzle, usize)> {
    let text = std::fs::read_to_string(models().join(file)).unwrap();
    let mut out = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<usize> = line
            .split_whitespace()
            .map(|x| x.parse().unwrap())
            .collect();
        if !lengths.contains(&f[1]) {
            continue;
        }
        let tiles: Vec<u16> = f[f.len() - side * side..]
            .iter()
            .map(|&t| t as u16)
            .collect();
        out.push((SlidingPuzzle::new(side, side, tiles).unwrap(), f[1]));
    }
    out
}

#[test]
fn every_encoding_finds_the_stated_optima() {
    let mut batch = rows("eightpuzzle_by_depth.txt", 3, &[3, 7, 12, 16, 20]);
    // fifteen_small_by_length.txt: id optimal walk_length tiles…
    batch.extend(rows("fifteen_small_by_length.txt", 4, &[6, 10, 14]));
    assert!(batch.len() >= 20, "{}", batch.len());
    for (p, optimum) in batch {
        for e in [
            Encoding::Plain,
            Encoding::Pruned,
            Encoding::Strong,
            Encoding::Pdb,
        ] {
            let plan = tilekit::search::sat_horizon::solve_optimal_with(
                &p,
                Goal::BlankFirst,
                40,
                e,
                |cnf, _| Ok::<_, String>(tilekit::solve::sat_embedded::solve_varisat(cnf)),
                |_, _| {},
            )
            .unwrap();
            assert_eq!(plan.horizon, Some(optimum), "{e:?} {:?}", p.tiles());
            assert!(plan.optimal, "{e:?}");
        }
    }
}

/// The case study's UNSAT formula at horizon 9 as a file, and a text DRAT proof of it by
/// CaDiCaL (`--no-binary`), both in `dir`.
fn text_proof(dir: &Path, p: &SlidingPuzzle) -> (PathBuf, PathBuf) {
    let enc = sliding_sat::build_encoding(p, Goal::BlankLast, 9, Encoding::Plain);
    let cnf = dir.join("case_T9.cnf");
    write_cnf(enc.cnf(), std::fs::File::create(&cnf).unwrap()).unwrap();
    let proof = dir.join("case_T9.drat");
    let out = Command::new("cadical")
        .args(["--no-binary", s(&cnf), s(&proof)])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(20), "cadical says UNSAT at 9");
    (cnf, proof)
}

fn check(cnf: &Path, proof: &Path) -> CheckVerdict {
    let spec = CheckerSpec {
        program: "rate".into(),
        skip_unit_deletions: false,
        time_limit: Duration::from_secs(60),
    };
    certify::check_drat(&spec, cnf, proof).unwrap().verdict
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn tampered_proofs_are_rejected() {
    require("rate");
    require("cadical");
    let dir = tempfile::tempdir().unwrap();
    let p = load_sliding(&models().join("neos_case_study.txt"), Goal::BlankLast).unwrap();
    let (cnf, proof) = text_proof(dir.path(), &p);
    let text = std::fs::read_to_string(&proof).unwrap();
    assert_eq!(ProofFormat::detect(text.as_bytes()), ProofFormat::Drat);
    assert_eq!(check(&cnf, &proof), CheckVerdict::Verified);
    let lines: Vec<&str> = text.lines().collect();
    let lemmas = lines.iter().filter(|l| !l.starts_with('d')).count();
    assert!(lemmas > 10, "the proof has only {lemmas} lemmas");

    let tampered = dir.path().join("tampered.drat");
    let verdict = |name: &str, body: String| {
        std::fs::write(&tampered, body).unwrap();
        let v = check(&cnf, &tampered);
        assert_eq!(v, CheckVerdict::Rejected, "{name}");
    };
    // Unit propagation alone does not refute the formula: an empty proof is rejected, so
    // the refutation needs the proof's lemmas.
    verdict("empty", String::new());
    // Truncated: the first half of the lines, without the final empty clause.
    verdict("truncated", lines[..lines.len() / 2].join("\n") + "\n");
    // Every added lemma with its literals negated.
    let negated: Vec<String> = lines
        .iter()
        .map(|l| {
            if l.starts_with('d') || l.trim() == "0" {
                l.to_string()
            } else {
                l.split_whitespace()
                    .map(|x| match x {
                        "0" => "0".to_string(),
                        _ => (-x.parse::<i64>().unwrap()).to_string(),
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            }
        })
        .collect();
    verdict("negated", negated.join("\n") + "\n");
    // A bogus first lemma: the negation of the blank's start position (a unit of the formula),
    // neither RUP nor RAT; with it, every later lemma would follow trivially.
    let start = sliding_sat::build_encoding(&p, Goal::BlankLast, 9, Encoding::Plain)
        .at_var(0, p.blank_cell(), 0)
        .unwrap();
    verdict("bogus unit", format!("-{} 0\n{text}", start.index() + 1));
    // Binary DRAT from varisat, cut in half. (The pruned case-study formula at 9 is refuted
    // by unit propagation alone, so this uses a 20-move instance's formula at 18, which is
    // not: an empty proof is rejected.)
    let goal = Goal::BlankFirst;
    let p20 = load_sliding(&models().join("fifteen_len20.txt"), goal).unwrap();
    let bin = dir.path().join("varisat.drat");
    let enc = sliding_sat::build_encoding(&p20, goal, 18, Encoding::Pruned);
    let out = tilekit::solve::sat_embedded::solve_varisat_with_proof(enc.cnf(), &bin).unwrap();
    assert_eq!(out, tilekit::SatOutcome::Unsat);
    let spec = CheckerSpec {
        program: "rate".into(),
        skip_unit_deletions: true,
        time_limit: Duration::from_secs(60),
    };
    let recheck = |t: usize, proof: &Path| {
        certify::recheck(
            &p20,
            goal,
            t,
            (Encoding::Pruned, Direction::Forward),
            proof,
            &spec,
        )
        .unwrap()
        .verdict
    };
    assert_eq!(recheck(18, &bin), CheckVerdict::Verified);
    std::fs::write(&tampered, b"").unwrap();
    assert_eq!(recheck(18, &tampered), CheckVerdict::Rejected, "empty");
    let bytes = std::fs::read(&bin).unwrap();
    std::fs::write(&tampered, &bytes[..bytes.len() / 2]).unwrap();
    assert_eq!(recheck(18, &tampered), CheckVerdict::Rejected, "binary cut");
    // The proof does not refute a different formula (horizon 20, which is satisfiable).
    assert_eq!(recheck(20, &bin), CheckVerdict::Rejected, "other formula");
}

/// Run the binary in the package root with the built-in registry.
fn tilekit(args: &[&str]) -> Run {
    tilekit_with(
        &Opts {
            builtin_registry: true,
            exits_normally: true,
            ..Opts::default()
        },
        args,
    )
}

/// The certificate with its timings, sizes and output blanked (they vary run to run).
fn stable(cert: &Value) -> Value {
    let mut c = cert.clone();
    for k in [
        "solve_seconds",
        "checker_seconds",
        "checker_output",
        "proof_bytes",
    ] {
        assert!(c.get(k).is_some(), "certificate lacks {k}");
        c[k] = Value::String("<varies>".into());
    }
    c
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn cli_certificate_fields_and_text() {
    require("rate");
    let case = models().join("neos_case_study.txt");
    let r = tilekit(&["solve", s(&case), "--via", "sat", "--certify", "--json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = json(&r);
    assert_eq!(v["encoding"], "pruned");
    assert_eq!(v["objective"], 11.0);
    assert!(v["certificate"]["proof_bytes"].as_u64().unwrap() > 0);
    insta::assert_snapshot!(
        "case_study_certificate_varisat",
        serde_json::to_string_pretty(&stable(&v["certificate"])).unwrap()
    );

    let r = tilekit(&["solve", s(&case), "--certify"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let second = r.stdout.lines().nth(1).unwrap_or_default();
    assert!(
        second.starts_with("certified: UNSAT at 9 checked by rate (binary DRAT, "),
        "{}",
        r.stdout
    );

    // Kept proofs: --proof-dir leaves the refuted CNF and its proof, which re-check.
    let dir = tempfile::tempdir().unwrap();
    let kept = dir.path().join("proofs");
    let r = tilekit(&[
        "solve",
        s(&case),
        "--certify",
        "--encoding",
        "strong",
        "--proof-dir",
        s(&kept),
        "--json",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = json(&r);
    assert_eq!(v["certificate"]["encoding"], "strong");
    let proof = PathBuf::from(v["certificate"]["proof_path"].as_str().unwrap());
    assert_eq!(proof, kept.join("sliding_T9.drat"));
    assert!(kept.join("sliding_T9.cnf").is_file());
    let p = load_sliding(&case, Goal::BlankLast).unwrap();
    let spec = CheckerSpec {
        program: "rate".into(),
        skip_unit_deletions: true,
        time_limit: Duration::from_secs(60),
    };
    let again = certify::recheck(
        &p,
        Goal::BlankLast,
        9,
        (Encoding::Strong, Direction::Forward),
        &proof,
        &spec,
    )
    .unwrap();
    assert_eq!(again.verdict, CheckVerdict::Verified);

    require("cadical");
    let f20 = models().join("fifteen_len20.txt");
    let r = tilekit(&[
        "solve",
        s(&f20),
        "--goal",
        "blank-first",
        "--solver",
        "cadical",
        "--certify",
        "--json",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    insta::assert_snapshot!(
        "fifteen_len20_certificate_cadical",
        serde_json::to_string_pretty(&stable(&json(&r)["certificate"])).unwrap()
    );
}

/// A checker that cuts the proof in half before running rate: the CLI must report the failed
/// certificate and exit 1 even though the plan itself is fine.
#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn cli_reports_a_rejected_certificate_with_exit_1() {
    require("rate");
    let dir = tempfile::tempdir().unwrap();
    let wrapper = script(
        dir.path(),
        "tamper-then-rate.sh",
        "#!/bin/sh\n# the last argument is the proof\nfor a; do proof=$a; done\n\
         size=$(wc -c < \"$proof\")\ntruncate -s $((size / 2)) \"$proof\"\nexec rate \"$@\"\n",
    );
    let f20 = models().join("fifteen_len20.txt");
    let args = [
        "solve",
        s(&f20),
        "--goal",
        "blank-first",
        "--certify",
        "--checker",
        s(&wrapper),
    ];
    let r = tilekit(&[&args[..], &["--json"]].concat());
    assert_eq!(r.code, 1, "{}\n{}", r.stdout, r.stderr);
    let v = json(&r);
    assert_eq!(v["verified"], true, "the plan itself still replays");
    assert_eq!(v["certificate"]["certified"], false);
    assert_eq!(v["certificate"]["checker_verdict"], "rejected");
    let r = tilekit(&args);
    assert_eq!(r.code, 1);
    assert!(
        r.stdout
            .contains("certificate FAILED: UNSAT at 18 REJECTED by "),
        "{}",
        r.stdout
    );
}

#[test]
fn cli_missing_checker_fails_loudly() {
    let case = models().join("neos_case_study.txt");
    let r = tilekit(&[
        "solve",
        s(&case),
        "--certify",
        "--checker",
        "tilekit-no-such-checker",
    ]);
    assert_eq!(r.code, 3, "{}", r.stdout);
    insta::assert_snapshot!("missing_checker_message", r.stderr.trim());
    // Options that make no sense are usage errors.
    let r = tilekit(&["solve", s(&case), "--via", "milp", "--certify"]);
    assert_eq!(r.code, 2);
    insta::assert_snapshot!("certify_needs_sat_message", r.stderr.trim());
    let r = tilekit(&["solve", s(&case), "--encoding", "tight"]);
    assert_eq!(r.code, 2);
    insta::assert_snapshot!("unknown_encoding_message", r.stderr.trim());
    let r = tilekit(&["solve", s(&case), "--certify", "--solver", "minisat"]);
    assert_eq!(r.code, 2);
    insta::assert_snapshot!("minisat_cannot_certify_message", r.stderr.trim());
}

/// `--plan FILE`: a plan from elsewhere is replayed and certified by refuting its length − 2;
/// a padded (non-optimal) plan gets a failed certificate saying a shorter plan exists.
#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn cli_certifies_a_given_plan() {
    require("rate");
    let dir = tempfile::tempdir().unwrap();
    let f20 = models().join("fifteen_len20.txt");
    let base = ["solve", s(&f20), "--goal", "blank-first"];
    let plan = dir.path().join("plan.txt");
    let r = tilekit(&[&base[..], &["-o", s(&plan)]].concat());
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = tilekit(&[&base[..], &["--certify", "--plan", s(&plan), "--json"]].concat());
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = json(&r);
    assert_eq!(v["optimal"], true);
    assert_eq!(v["certificate"]["unsat_horizon"], 18);
    assert_eq!(v["certificate"]["checker_verdict"], "verified");
    // Padded by a back-and-forth at the goal (blank top-left: down, then up).
    let text = std::fs::read_to_string(&plan).unwrap();
    let padded = dir.path().join("padded.txt");
    std::fs::write(&padded, format!("{text}DU\n")).unwrap();
    // Both ways (backward is the default with the pdb encoding a given plan gets): a model
    // of the backward formula is turned into a forward plan before it is replayed.
    for direction in ["forward", "backward", "both"] {
        let r = tilekit(
            &[
                &base[..],
                &["--certify", "--plan", s(&padded), "--direction", direction],
            ]
            .concat(),
        );
        assert_eq!(r.code, 1, "{}", r.stdout);
        // The shorter plan is named, and it really is one (replayed here again).
        let line = r.stdout.lines().nth(1).unwrap_or_default();
        let shorter = line
            .strip_prefix("certificate FAILED: varisat found a plan of exactly 20 moves (")
            .and_then(|rest| {
                rest.strip_suffix(", verified by replay): the given plan of 22 is NOT optimal")
            })
            .unwrap_or_else(|| panic!("{direction}: {}", r.stdout));
        assert_eq!(shorter.len(), 20);
        let moves = tilekit::puzzle::sliding::parse_moves(shorter, "shorter").unwrap();
        let p = load_sliding(&f20, Goal::BlankFirst).unwrap();
        assert!(
            p.replay(&moves).unwrap().is_goal(Goal::BlankFirst),
            "{direction}"
        );
    }
    // A plan that does not solve the board is the user's input error (exit 2, as the same
    // plan given as an incumbent), named with its file, and nothing is certified.
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "UUUU\n").unwrap();
    let r = tilekit(&[&base[..], &["--certify", "--plan", s(&bad), "--json"]].concat());
    assert_eq!(r.code, 2, "{}", r.stdout);
    let v = json(&r);
    assert_eq!(v["exit_code"], 2);
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("bad.txt: the plan does not solve the board"),
        "{v}"
    );
}

/// `--via native --certify`: the native plan (no SAT horizon search) is replayed and
/// certified by refuting its length − 2; `--plan` with `--via native` is a usage error.
#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn cli_certifies_the_native_plan() {
    require("rate");
    let f24 = models().join("fifteen_len24.txt");
    for solver in ["varisat", "cadical"] {
        let r = tilekit(&[
            "solve",
            s(&f24),
            "--goal",
            "blank-first",
            "--via",
            "native",
            "--certify",
            "--solver",
            solver,
            "--json",
        ]);
        assert_eq!(r.code, 0, "{solver}: {}{}", r.stdout, r.stderr);
        let v = json(&r);
        assert_eq!(v["objective"], 24.0);
        assert_eq!(v["optimal"], true);
        assert!(
            v["solver_status"].as_str().unwrap().contains("native"),
            "{v}"
        );
        assert_eq!(v["certificate"]["certified"], true);
        assert_eq!(v["certificate"]["unsat_horizon"], 22);
        // Only the refutation is left, so the default is the pattern-database encoding,
        // running backward.
        assert_eq!(v["certificate"]["encoding"], "pdb");
        assert_eq!(v["certificate"]["direction"], "backward");
        let statement = v["certificate"]["statement"].as_str().unwrap();
        assert!(
            statement.starts_with(
                "the pdb formula for exactly 22 moves from the goal back to the start is unsatisfiable (proof checked)"
            ),
            "{statement}"
        );
        assert_eq!(v["certificate"]["producer"], solver);
        assert_eq!(v["certificate"]["checker_verdict"], "verified");
    }
    let cs = models().join("neos_case_study.txt");
    let r = tilekit(&[
        "solve",
        s(&cs),
        "--via",
        "native",
        "--certify",
        "--plan",
        s(&cs),
    ]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("--plan gives the plan"), "{}", r.stderr);
}

/// A kept proof of the pdb formula (`--proof-dir`) re-checks against the formula rebuilt in
/// its own direction and is rejected against the other direction's formula: the two are
/// different files, and the certificate names which one was refuted.
#[test]
#[cfg_attr(
    not(all(feature = "slow-tests", feature = "solver-tests")),
    ignore = "slow tier: several certificates with the pdb encoding, a minute or more on 2 cores; the other certificate tests run in the quick tier (scripts/test.sh --full)"
)]
fn pdb_proofs_recheck_only_in_their_own_direction() {
    require("rate");
    require("cadical");
    let f20 = models().join("fifteen_len20.txt");
    let p = load_sliding(&f20, Goal::BlankFirst).unwrap();
    let spec = CheckerSpec {
        program: "rate".into(),
        skip_unit_deletions: false,
        time_limit: Duration::from_secs(60),
    };
    for (name, direction, other) in [
        ("forward", Direction::Forward, Direction::Backward),
        ("backward", Direction::Backward, Direction::Forward),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let kept = dir.path().join("proofs");
        let r = tilekit(&[
            "solve",
            s(&f20),
            "--goal",
            "blank-first",
            "--via",
            "native",
            "--certify",
            "--solver",
            "cadical",
            "--encoding",
            "pdb",
            "--direction",
            name,
            "--proof-dir",
            s(&kept),
            "--json",
        ]);
        assert_eq!(r.code, 0, "{name}: {}{}", r.stdout, r.stderr);
        let v = json(&r);
        assert_eq!(v["certificate"]["certified"], true, "{name}");
        assert_eq!(v["certificate"]["direction"], name);
        let proof = kept.join("sliding_T18.drat");
        let again = certify::recheck(
            &p,
            Goal::BlankFirst,
            18,
            (Encoding::Pdb, direction),
            &proof,
            &spec,
        )
        .unwrap();
        assert_eq!(again.verdict, CheckVerdict::Verified, "{name}");
        let wrong = certify::recheck(
            &p,
            Goal::BlankFirst,
            18,
            (Encoding::Pdb, other),
            &proof,
            &spec,
        )
        .unwrap();
        assert_eq!(
            wrong.verdict,
            CheckVerdict::Rejected,
            "{name} against the other way"
        );
    }
}

/// `--direction both`: the two formulas are refuted at once, the first answer stops the other
/// run, and the certificate names the winner; only the winner's files are kept, and its proof
/// re-checks against the formula rebuilt in that direction.
#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn racing_both_directions_keeps_the_winner() {
    require("rate");
    require("cadical");
    let f24 = models().join("fifteen_len24.txt");
    let p = load_sliding(&f24, Goal::BlankFirst).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let kept = dir.path().join("proofs");
    let r = tilekit(&[
        "solve",
        s(&f24),
        "--goal",
        "blank-first",
        "--via",
        "native",
        "--certify",
        "--solver",
        "cadical",
        "--direction",
        "both",
        "--proof-dir",
        s(&kept),
        "--json",
    ]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let v = json(&r);
    let c = &v["certificate"];
    assert_eq!(c["certified"], true, "{c}");
    assert_eq!(c["raced"], true);
    assert_eq!(c["encoding"], "pdb");
    let direction = match c["direction"].as_str().unwrap() {
        "forward" => Direction::Forward,
        "backward" => Direction::Backward,
        other => panic!("direction {other}"),
    };
    assert!(
        c["statement"]
            .as_str()
            .unwrap()
            .contains("(both directions raced; this one answered first)"),
        "{c}"
    );
    let mut names: Vec<String> = std::fs::read_dir(&kept)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["sliding_T22.cnf", "sliding_T22.drat"]);
    let spec = CheckerSpec {
        program: "rate".into(),
        skip_unit_deletions: false,
        time_limit: Duration::from_secs(60),
    };
    let proof = kept.join("sliding_T22.drat");
    let again = certify::recheck(
        &p,
        Goal::BlankFirst,
        22,
        (Encoding::Pdb, direction),
        &proof,
        &spec,
    )
    .unwrap();
    assert_eq!(again.verdict, CheckVerdict::Verified);
    // Racing splits nothing: with --split it is a usage error.
    let r = tilekit(&[
        "solve",
        s(&f24),
        "--goal",
        "blank-first",
        "--via",
        "native",
        "--certify",
        "--direction",
        "both",
        "--split",
        "1",
    ]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("does not combine with certify.split"),
        "{}",
        r.stderr
    );
}

/// `--direction both` with a producer that fails one way (a wrapper around CaDiCaL that exits
/// 7 on the backward file): the other direction's answer does not hide the failure; it is a
/// solver failure (exit 3) in one sentence, and the temporary files are gone.
#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn racing_reports_a_failure_of_either_direction() {
    require("cadical");
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let half = script(
        d,
        "half.sh",
        "#!/bin/sh\ncase \"$1\" in *backward*) echo broken >&2; exit 7;; esac\nexec cadical \"$@\"\n",
    );
    let reg = sat_registry(d, "half", &half);
    let kept = d.join("proofs");
    let f20 = models().join("fifteen_len20.txt");
    let r = tilekit(&[
        "solve",
        s(&f20),
        "--goal",
        "blank-first",
        "--via",
        "native",
        "--certify",
        "--direction",
        "both",
        "--solver",
        "half",
        "--solvers-file",
        s(&reg),
        "--proof-dir",
        s(&kept),
    ]);
    assert_eq!(r.code, 3, "{}{}", r.stdout, r.stderr);
    assert_eq!(r.stderr.trim().lines().count(), 1, "{}", r.stderr);
    assert!(r.stderr.contains("exit code 7"), "{}", r.stderr);
    let left: Vec<_> = std::fs::read_dir(&kept).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
}

/// A proof producer that gives no answer for L − 2 within the limit: the plan still replays,
/// but optimality is reported as NOT certified, with exit code 1.
#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn cli_producer_without_an_answer_is_not_a_certificate() {
    require("rate");
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let slow = script(d, "slow.sh", "#!/bin/sh\nsleep 30\n");
    let reg = sat_registry(d, "slow", &slow);
    let f20 = models().join("fifteen_len20.txt");
    let plan = d.join("plan.txt");
    let r = tilekit(&["solve", s(&f20), "--goal", "blank-first", "-o", s(&plan)]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = tilekit(&[
        "solve",
        s(&f20),
        "--goal",
        "blank-first",
        "--via",
        "sat",
        "--certify",
        "--plan",
        s(&plan),
        "--solver",
        "slow",
        "--solvers-file",
        s(&reg),
        "--time-limit",
        "1",
    ]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout
            .contains("certificate FAILED: slow gave no answer at horizon 18"),
        "{}",
        r.stdout
    );
}

/// `stderr` with the temporary directory's path replaced, for snapshots.
fn redact(text: &str, dir: &Path) -> String {
    text.trim().replace(s(dir), "<tmp>")
}

/// A checker that exists but cannot be started, and file-system errors on `--proof-dir` and
/// the proof file: each is a failure (exit code 3) with one clear sentence, not a verdict.
#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn cli_checker_and_file_system_failures() {
    require("rate");
    require("cadical");
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let case = models().join("neos_case_study.txt");
    let run = |extra: &[&str]| tilekit(&[&["solve", s(&case), "--certify"], extra].concat());
    let mut messages = Vec::new();
    // A regular file without the executable bits.
    let noexec = d.join("noexec");
    std::fs::write(&noexec, "#!/bin/sh\nexec rate \"$@\"\n").unwrap();
    // Executable, but not a program the kernel can load.
    let garbage = d.join("garbage");
    std::fs::write(&garbage, b"\x7fELF\x01garbage").unwrap();
    // Executable, but its interpreter does not exist.
    let shebang = d.join("shebang");
    std::fs::write(&shebang, "#!/nonexistent/interpreter\n").unwrap();
    for f in [&garbage, &shebang] {
        std::fs::set_permissions(f, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    for checker in [&noexec, &garbage, &shebang] {
        let r = run(&["--checker", s(checker)]);
        assert_eq!(r.code, 3, "{}{}", r.stdout, r.stderr);
        assert!(r.stdout.is_empty(), "no answer is printed: {}", r.stdout);
        messages.push(redact(&r.stderr, d));
    }
    // --proof-dir naming a regular file, or a path below one.
    let file = d.join("a-file");
    std::fs::write(&file, "").unwrap();
    for pd in [file.clone(), file.join("sub")] {
        let r = run(&["--proof-dir", s(&pd)]);
        assert_eq!(r.code, 3, "{}{}", r.stdout, r.stderr);
        messages.push(redact(&r.stderr, d));
    }
    // The proof file (varisat, CaDiCaL) or the CNF of horizon 9 cannot be written: a
    // directory is in the way.
    for (name, solver, blocked) in [
        ("p1", "varisat", "sliding_T9.drat"),
        ("p2", "cadical", "sliding_T9.drat"),
        ("p3", "cadical", "sliding_T9.cnf"),
    ] {
        let pd = d.join(name);
        std::fs::create_dir_all(pd.join(blocked)).unwrap();
        let r = run(&["--proof-dir", s(&pd), "--solver", solver]);
        assert_eq!(r.code, 3, "{name}: {}{}", r.stdout, r.stderr);
        messages.push(redact(&r.stderr, d));
    }
    insta::assert_snapshot!("certify_system_failure_messages", messages.join("\n"));
}

/// The search starts at the lower bound (11 for the case study), so it never solves 9; the
/// certificate then refutes 9 itself, and an engine claiming 9 satisfiable contradicts the
/// bound: that is reported as an engine bug (exit code 3), not as a non-optimal plan. The
/// engine here is CaDiCaL behind a wrapper that lies about the formula for 9 only.
#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn cli_engine_claiming_sat_below_the_bound_is_a_bug() {
    require("rate");
    require("cadical");
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let liar = script(
        d,
        "liar.sh",
        "#!/bin/sh\ncase \"$1\" in *_T9.cnf|*_T9_leaf0.cnf) echo 's SATISFIABLE'; echo 'v 0'; exit 10;; esac\n\
         exec cadical \"$@\"\n",
    );
    let reg = sat_registry(d, "liar", &liar);
    let case = models().join("neos_case_study.txt");
    let args = ["solve", s(&case), "--certify", "--solver", "liar"];
    let r = tilekit(&[&args[..], &["--solvers-file", s(&reg)]].concat());
    assert_eq!(r.code, 3, "{}{}", r.stdout, r.stderr);
    insta::assert_snapshot!("certify_engine_bug_message", r.stderr.trim());
    // The same engine, given the plan: a SAT answer at 9 would be news about the plan, but
    // its model must be a plan of 9 moves that replays; this one is not (exit code 3), with
    // one proof or split into leaves.
    let plan = d.join("plan.txt");
    std::fs::write(&plan, "LLUUURRRDDD\n").unwrap();
    let with_plan = [&args[..], &["--solvers-file", s(&reg), "--plan", s(&plan)]].concat();
    for extra in [&[][..], &["--split", "1"][..]] {
        let r = tilekit(&[&with_plan[..], extra].concat());
        assert_eq!(r.code, 3, "{extra:?}: {}{}", r.stdout, r.stderr);
        assert_eq!(
            r.stderr.trim(),
            "tilekit: the engine's model at horizon 9 is not a plan (step 0 has no true move literal): an encoding or engine bug",
            "{extra:?}"
        );
    }
}

/// `--split`: the certificate of a 24-move plan is split over the blank's first and last
/// moves; every leaf is refuted, checked, and listed, and the leaves' cubes cover the tree.
#[test]
#[cfg_attr(
    not(all(feature = "slow-tests", feature = "solver-tests")),
    ignore = "slow tier: minutes of SAT calls on 2 cores; the other split certificates run in the quick tier (scripts/test.sh --full)"
)]
fn cli_split_certificate_lists_every_checked_leaf() {
    require("rate");
    require("cadical");
    let f24 = models().join("fifteen_len24.txt");
    let p = load_sliding(&f24, Goal::BlankFirst).unwrap();
    for (solver, depth) in [("varisat", 1), ("cadical", 2), ("cadical", 3)] {
        let r = tilekit(&[
            "solve",
            s(&f24),
            "--goal",
            "blank-first",
            "--via",
            "native",
            "--certify",
            "--solver",
            solver,
            "--split",
            &depth.to_string(),
            // A bound for a loaded machine only: each run stops when its proof is checked.
            "--time-limit",
            "600",
            "--json",
        ]);
        assert_eq!(r.code, 0, "{solver} {depth}: {}{}", r.stdout, r.stderr);
        let v = json(&r);
        let c = &v["certificate"];
        assert_eq!(c["certified"], true, "{c}");
        assert_eq!(c["unsat_horizon"], 22);
        let split = &c["split"];
        assert_eq!(split["depth"], depth);
        assert_eq!(split["covered"], true);
        let leaves = split["leaves"].as_array().unwrap();
        // The cubes the encoder makes for this depth, one leaf each, in order.
        let enc = sliding_sat::build_encoding(&p, Goal::BlankFirst, 22, Encoding::Pruned);
        let cubes = certify::split::move_cubes(&enc, &p, Goal::BlankFirst, depth);
        assert!(cubes.len() > 1, "{depth}");
        assert_eq!(leaves.len(), cubes.len(), "{solver} {depth}");
        for (leaf, cube) in leaves.iter().zip(&cubes) {
            assert_eq!(leaf["outcome"], "unsat", "{leaf}");
            assert_eq!(leaf["checker_verdict"], "verified", "{leaf}");
            assert_eq!(leaf["description"], cube.description.as_str());
            let lits: Vec<i64> = leaf["cube"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_i64().unwrap())
                .collect();
            assert_eq!(lits, cube.lits);
        }
        let sum: u64 = leaves
            .iter()
            .map(|l| l["proof_bytes"].as_u64().unwrap())
            .sum();
        assert_eq!(c["proof_bytes"].as_u64(), Some(sum));
    }
    let r = tilekit(&[
        "solve",
        s(&f24),
        "--goal",
        "blank-first",
        "--via",
        "native",
        "--certify",
        "--split",
        "2",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let second = r.stdout.lines().nth(1).unwrap_or_default();
    assert!(
        second.starts_with("certified: UNSAT at 22 checked by rate (binary DRAT, ")
            && second.ends_with(", 6 leaves)"),
        "{}",
        r.stdout
    );
}

/// A checker wrapper that cuts one leaf's proof in half: that leaf is rejected, the verified
/// leaves no longer cover the tree, and the certificate fails (exit code 1).
#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn cli_split_with_a_tampered_leaf_is_not_certified() {
    require("rate");
    require("cadical");
    let dir = tempfile::tempdir().unwrap();
    let wrapper = script(
        dir.path(),
        "tamper-leaf1.sh",
        "#!/bin/sh\nfor a; do proof=$a; done\ncase \"$proof\" in *_leaf1.drat)\n\
         size=$(wc -c < \"$proof\"); truncate -s $((size / 2)) \"$proof\";; esac\nexec rate \"$@\"\n",
    );
    let f24 = models().join("fifteen_len24.txt");
    let args = [
        "solve",
        s(&f24),
        "--goal",
        "blank-first",
        "--via",
        "native",
        "--certify",
        "--solver",
        "cadical",
        "--split",
        "1",
        // The pruned encoding: a pdb leaf is so easy that half of its proof still refutes
        // it (rate verifies the cut proof, rightly), which would leave nothing tampered.
        "--encoding",
        "pruned",
        "--checker",
        s(&wrapper),
    ];
    let r = tilekit(&[&args[..], &["--json"]].concat());
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    let v = json(&r);
    assert_eq!(v["verified"], true, "the plan itself still replays");
    let c = &v["certificate"];
    assert_eq!(c["certified"], false);
    assert_eq!(c["checker_verdict"], "rejected");
    let leaves = c["split"]["leaves"].as_array().unwrap();
    assert_eq!(leaves.len(), 3);
    for (i, leaf) in leaves.iter().enumerate() {
        let want = if i == 1 { "rejected" } else { "verified" };
        assert_eq!(leaf["checker_verdict"], want, "leaf {i}: {leaf}");
    }
    assert_eq!(c["split"]["covered"], false);
    assert_eq!(
        c["split"]["covering"],
        "2 of 3 leaves verified; the cubes' weights 2^-|c| do not sum to 1: some assignments are covered by no leaf"
    );
    let r = tilekit(&args);
    assert_eq!(r.code, 1);
    assert!(
        r.stdout.contains(
            "certificate FAILED: the split refutation of horizon 22 is incomplete (2 of 3 leaves verified;"
        ),
        "{}",
        r.stdout
    );
}

/// Checker side: a split certificate with one leaf left out, or with a leaf's cube changed,
/// does not cover the tree; a padded plan's split finds the shorter plan in some leaf.
#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn split_leaves_missing_or_altered_are_not_a_covering() {
    require("rate");
    let f20 = models().join("fifteen_len20.txt");
    let p = load_sliding(&f20, Goal::BlankFirst).unwrap();
    let opts = certify::CertifyOptions {
        checker: "rate".into(),
        checker_time_limit: Duration::from_secs(60),
        proof_dir: None,
        split: 2,
        jobs: 2,
        direction: Default::default(),
        race: false,
    };
    let c = certify::certify_plan(
        &p,
        Goal::BlankFirst,
        20,
        Encoding::Pruned,
        &varisat_producer(),
        &opts,
    )
    .unwrap();
    assert!(c.certified, "{c:?}");
    let split = c.split.expect("a split report");
    assert!(split.leaves.len() >= 4);
    assert_eq!(certify::split::assess(&split.leaves), Ok(()));
    for i in 0..split.leaves.len() {
        let mut missing = split.leaves.clone();
        missing.remove(i);
        let e = certify::split::assess(&missing).unwrap_err();
        assert!(e.contains("do not sum to 1"), "{e}");
        let mut unchecked = split.leaves.clone();
        unchecked[i].checker_verdict = Some(CheckVerdict::TimeLimit);
        assert!(certify::split::assess(&unchecked).is_err(), "leaf {i}");
    }
    // A leaf whose cube was widened (a literal dropped) overlaps its neighbours.
    let mut altered = split.leaves.clone();
    let last = altered.iter().rposition(|l| l.cube.len() > 1).unwrap();
    altered[last].cube.pop();
    assert!(certify::split::assess(&altered).is_err());

    // A padded plan of 22 moves: some leaf of 20 is satisfiable, the others need not run.
    let c = certify::certify_plan(
        &p,
        Goal::BlankFirst,
        22,
        Encoding::Pruned,
        &varisat_producer(),
        &opts,
    )
    .unwrap();
    assert!(!c.certified);
    assert!(
        c.statement
            .starts_with("varisat found a plan of exactly 20 moves ("),
        "{}",
        c.statement
    );
    assert!(
        c.statement
            .contains(", verified by replay; leaf \"move 1 = "),
        "{}",
        c.statement
    );
    let leaf = c
        .split
        .unwrap()
        .leaves
        .into_iter()
        .find(|l| l.plan.is_some())
        .unwrap();
    let moves =
        tilekit::puzzle::sliding::parse_moves(leaf.plan.as_deref().unwrap(), "leaf").unwrap();
    assert_eq!(moves.len(), 20);
    assert!(p.replay(&moves).unwrap().is_goal(Goal::BlankFirst));
}

/// The split shares one deadline: with a producer that never answers and a 3 s limit, the
/// leaves that started give no answer, the rest never start, and nothing is certified. (Three
/// seconds, not one: the first leaves must start before the deadline even on a loaded machine,
/// after the formula and the cubes are written; the two that run are killed after it.)
#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn cli_split_respects_one_deadline() {
    require("rate");
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let slow = script(d, "slow.sh", "#!/bin/sh\nsleep 30\n");
    let reg = sat_registry(d, "slow", &slow);
    let f24 = models().join("fifteen_len24.txt");
    let started = std::time::Instant::now();
    let r = tilekit(&[
        "solve",
        s(&f24),
        "--goal",
        "blank-first",
        "--via",
        "native",
        "--certify",
        "--split",
        "1",
        "--solver",
        "slow",
        "--solvers-file",
        s(&reg),
        "--time-limit",
        "3",
        "--json",
    ]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    // Far below the 3 × 30 s the leaves would take if each had its own limit.
    assert!(started.elapsed() < Duration::from_secs(20));
    let v = json(&r);
    let leaves = v["certificate"]["split"]["leaves"].as_array().unwrap();
    assert_eq!(leaves.len(), 3);
    assert!(leaves.iter().all(|l| l["checker_verdict"].is_null()));
    assert_eq!(leaves[0]["outcome"], "unknown");
    assert_eq!(leaves[2]["outcome"], "not_run");
    assert_eq!(v["certificate"]["certified"], false);
}

/// The SAT search on the case study begins at its lower bound (11), so the certificate
/// refutes 9 itself, and `--split` applies there too; every leaf proof is binary DRAT.
#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn cli_split_after_a_search_that_began_at_the_bound() {
    require("rate");
    let case = models().join("neos_case_study.txt");
    let r = tilekit(&["solve", s(&case), "--certify", "--split", "2", "--json"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let c = &json(&r)["certificate"];
    assert_eq!(c["certified"], true, "{c}");
    assert_eq!(c["unsat_horizon"], 9);
    assert_eq!(c["proof_format"], "binary_drat");
    let leaves = c["split"]["leaves"].as_array().unwrap();
    assert!(leaves.len() >= 4, "{}", leaves.len());
    for leaf in leaves {
        assert_eq!(leaf["checker_verdict"], "verified", "{leaf}");
        assert_eq!(leaf["proof_format"], "binary_drat", "{leaf}");
    }
}
