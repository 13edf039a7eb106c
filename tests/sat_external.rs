//! The NEOS case-study board through real SAT solvers: our DIMACS writer → cadical / kissat /
//! minisat processes → their output (parsed minimally here) → model checked against the CNF →
//! decoded → replayed. Horizon 11 (the optimum) must be SAT, horizon 9 UNSAT.
//!
//! A missing solver fails the test; without the `solver-tests` feature they show as ignored.

use std::path::Path;
use std::process::Command;
use tilekit::format::dimacs_cnf::write_cnf;
use tilekit::formulate::sliding_sat;
use tilekit::{Cnf, Goal, SlidingPuzzle};

const CASE: [u16; 16] = [5, 1, 2, 3, 9, 6, 7, 4, 13, 10, 11, 8, 14, 15, 0, 12];

/// What a solver said, with the model (one bool per variable) when SAT.
#[derive(Debug)]
enum Answer {
    Sat(Vec<bool>),
    Unsat,
}

/// Run `solver args…`; a missing solver is an incomplete install.
fn run(solver: &str, args: &[&Path]) -> std::process::Output {
    match Command::new(solver).args(args).output() {
        Ok(out) => out,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            panic!("solver {solver} not found: run scripts/install-solvers.sh")
        }
        Err(e) => panic!("could not start {solver}: {e}"),
    }
}

/// Literals as a model; missing variables stay false.
fn model_from(tokens: &[i64], vars: usize) -> Vec<bool> {
    let mut model = vec![false; vars];
    for &x in tokens {
        let v = x.unsigned_abs() as usize;
        assert!(v >= 1 && v <= vars, "literal {x} out of range");
        model[v - 1] = x > 0;
    }
    model
}

/// SAT-competition output: one `s` line, `v` lines up to the closing 0, exit 10 / 20.
fn competition(solver: &str, cnf_path: &Path, vars: usize) -> Answer {
    let out = run(solver, &[cnf_path]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let status: Vec<&str> = stdout.lines().filter(|l| l.starts_with("s ")).collect();
    let values: Vec<i64> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("v "))
        .flat_map(str::split_whitespace)
        .map(|t| t.parse().expect("v lines hold integers"))
        .take_while(|&x| x != 0)
        .collect();
    let code = out.status.code();
    match status.as_slice() {
        ["s SATISFIABLE"] => {
            assert_eq!(code, Some(10), "{solver}: exit code for SAT");
            Answer::Sat(model_from(&values, vars))
        }
        ["s UNSATISFIABLE"] => {
            assert_eq!(code, Some(20), "{solver}: exit code for UNSAT");
            Answer::Unsat
        }
        other => panic!("{solver}: unexpected status lines {other:?}, exit {code:?}\n{stdout}"),
    }
}

/// MiniSat: `minisat in out`, the result file holds `SAT` and a literal line, or `UNSAT`.
fn minisat(cnf_path: &Path, vars: usize) -> Answer {
    let dir = cnf_path.parent().expect("temp file has a directory");
    let result = dir.join("minisat.out");
    let out = run("minisat", &[cnf_path, &result]);
    let text = std::fs::read_to_string(&result).expect("minisat writes its result file");
    let mut lines = text.lines();
    let code = out.status.code();
    match lines.next() {
        Some("SAT") => {
            assert_eq!(code, Some(10), "minisat: exit code for SAT");
            let values: Vec<i64> = lines
                .flat_map(str::split_whitespace)
                .map(|t| t.parse().expect("minisat literals are integers"))
                .take_while(|&x| x != 0)
                .collect();
            Answer::Sat(model_from(&values, vars))
        }
        Some("UNSAT") => {
            assert_eq!(code, Some(20), "minisat: exit code for UNSAT");
            Answer::Unsat
        }
        other => panic!("minisat: unexpected result {other:?}, exit {code:?}"),
    }
}

fn write(cnf: &Cnf, dir: &Path, name: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    let file = std::fs::File::create(&path).expect("create CNF file");
    write_cnf(cnf, std::io::BufWriter::new(file)).expect("write CNF");
    path
}

fn check_solver(solver: &str) {
    let p = SlidingPuzzle::new(4, 4, CASE.to_vec()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let ask = |cnf: &Cnf, name: &str| {
        let path = write(cnf, dir.path(), name);
        if solver == "minisat" {
            minisat(&path, cnf.num_vars())
        } else {
            competition(solver, &path, cnf.num_vars())
        }
    };
    for prune in [false, true] {
        let at11 = sliding_sat::build_with(&p, Goal::BlankLast, 11, prune);
        let Answer::Sat(model) = ask(at11.cnf(), "t11.cnf") else {
            panic!("{solver}: horizon 11 should be SAT (prune={prune})");
        };
        assert!(
            at11.cnf().is_satisfied_by(&model),
            "{solver}: model violates clause {:?}",
            at11.cnf().first_violated(&model)
        );
        let moves = at11.decode(&model).expect("model decodes to moves");
        assert_eq!(moves.len(), 11);
        let end = p.replay(&moves).expect("moves stay on the board");
        assert!(
            end.is_goal(Goal::BlankLast),
            "{solver}: plan misses the goal"
        );

        let at9 = sliding_sat::build_with(&p, Goal::BlankLast, 9, prune);
        let answer = ask(at9.cnf(), "t9.cnf");
        assert!(
            matches!(answer, Answer::Unsat),
            "{solver}: horizon 9 should be UNSAT (prune={prune})"
        );
    }
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn cadical_solves_case_study() {
    check_solver("cadical");
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn kissat_solves_case_study() {
    check_solver("kissat");
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn minisat_solves_case_study() {
    check_solver("minisat");
}
