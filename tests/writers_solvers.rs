//! The LP and MPS writers against the real solvers: CBC, HiGHS and GLPK must each read every
//! file without a warning or an error and report the optimum we know by hand.
//!
//! A missing solver fails the test (run `scripts/install-solvers.sh`); without the
//! `solver-tests` feature (`TILEKIT_SKIP_SOLVERS=1`) the tests show as ignored.

use std::path::Path;
use std::process::Command;

use tilekit::format::lp::write_lp;
use tilekit::format::mps::{mps_objective_sign, write_mps};
use tilekit::{Model, ObjSense, Sense, VarKind};

const INF: f64 = f64::INFINITY;

#[derive(Debug, Clone, Copy, PartialEq)]
enum Format {
    Lp,
    Mps,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Solver {
    Cbc,
    Highs,
    Glpk,
}

/// What a solver must conclude.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Expect {
    Optimal(f64),
    Infeasible,
}

/// What we read back from a solution file.
#[derive(Debug)]
struct Answer {
    optimal: bool,
    infeasible: bool,
    /// The objective as the solver reports it (for MPS: of the possibly negated objective).
    objective: Option<f64>,
    /// Column values in the order the solver lists them.
    columns: Vec<f64>,
}

/// Every bound shape and kind the writers handle; optimum −2.5 at the values in the comment.
fn feature_model() -> (Model, Vec<Option<f64>>) {
    let mut m = Model::new("features");
    let f = m.add_var("f", VarKind::Continuous, -INF, INF).unwrap();
    let n = m.add_var("n", VarKind::Continuous, -5.0, -1.5).unwrap();
    // Negative upper bound with lb = −∞: read as lb 0 it would make the model infeasible.
    let u = m.add_var("u", VarKind::Continuous, -INF, -2.0).unwrap();
    let i = m.add_var("i", VarKind::Integer, -2.0, 7.0).unwrap();
    // Unbounded integer: read as binary (the MPS trap) the optimum would be −1.5.
    let k = m.add_var("k", VarKind::Integer, 0.0, INF).unwrap();
    let b = m.add_var("b", VarKind::Binary, 0.0, 1.0).unwrap();
    let z = m.add_var("z", VarKind::Continuous, 3.0, 3.0).unwrap();
    let w = m.add_var("w", VarKind::Continuous, 0.0, 10.0).unwrap();
    // In no row and not in the objective: must still be a column, in its place.
    let _spare = m.add_var("spare", VarKind::Continuous, 0.0, 1.0).unwrap();
    m.set_objective(
        "cost",
        ObjSense::Minimize,
        &[
            (f, 1.0),
            (u, 0.5),
            (n, -2.0),
            (i, 3.0),
            (k, 1.0),
            (b, -1.0),
            (z, 2.0),
        ],
    )
    .unwrap();
    // Terms given twice merge to f − u.
    m.add_row("r1", &[(f, 0.5), (u, -1.0), (f, 0.5)], Sense::Ge, 4.0)
        .unwrap();
    m.add_row("r2", &[(u, 1.0)], Sense::Ge, -7.0).unwrap();
    m.add_row("r3", &[(i, 2.0), (k, 1.0)], Sense::Ge, -2.5)
        .unwrap();
    m.add_row("r4", &[(b, 1.0), (z, 1.0)], Sense::Le, 4.0)
        .unwrap();
    m.add_row("eq1", &[(k, 1.0), (b, 1.0), (w, -1.0)], Sense::Eq, 0.0)
        .unwrap();
    // f = 4 + u = −3 at u = −7 (−6.5); n = −1.5 (+3); i = −2, k = 2 (−4; the LP relaxation
    // would give −4.5); b = 1 (−1); z = 3 (+6); w = k + b = 3. Total −2.5.
    let x = vec![
        Some(-3.0),
        Some(-1.5),
        Some(-7.0),
        Some(-2.0),
        Some(2.0),
        Some(1.0),
        Some(3.0),
        Some(3.0),
        None,
    ];
    (m, x)
}

/// A small maximisation whose optimum is 10.
fn max_model() -> Model {
    let mut m = Model::new("tiny_max");
    let x = m.add_var("x", VarKind::Continuous, 0.0, 3.0).unwrap();
    let y = m.add_var("y", VarKind::Binary, 0.0, 1.0).unwrap();
    let z = m.add_var("z", VarKind::Integer, 0.0, INF).unwrap();
    let w = m.add_var("w", VarKind::Continuous, -2.0, 2.0).unwrap();
    m.set_objective("obj", ObjSense::Maximize, &[(x, 3.0), (y, 2.0), (z, 4.0)])
        .unwrap();
    m.add_row("c1", &[(x, 1.0), (y, 1.0), (z, 2.0)], Sense::Le, 4.0)
        .unwrap();
    m.add_row("c2", &[(x, 1.0), (y, 3.0), (z, 1.0)], Sense::Le, 5.5)
        .unwrap();
    m.add_row("c3", &[(x, 1.0), (y, -1.0), (w, 0.0)], Sense::Ge, -1.0)
        .unwrap();
    m
}

/// A continuous maximisation with a free variable and fractional data: optimum 9.25.
fn lp_max_model() -> Model {
    let mut m = Model::new("lp_max");
    let a = m.add_var("a", VarKind::Continuous, -INF, INF).unwrap();
    let c = m.add_var("c", VarKind::Continuous, -4.0, INF).unwrap();
    m.set_objective("profit", ObjSense::Maximize, &[(a, 1.0), (c, -0.5)])
        .unwrap();
    m.add_row("cap", &[(a, 1.0), (c, 1.0)], Sense::Le, 3.25)
        .unwrap();
    // a = 3.25 − c at the optimum, so the objective is 3.25 − 1.5c, largest at c = −4.
    m
}

/// Integer infeasible: 2x + 2y = 3 has no integer solution (its LP relaxation has).
fn infeasible_model() -> Model {
    let mut m = Model::new("infeasible");
    let x = m.add_var("x", VarKind::Integer, 0.0, 5.0).unwrap();
    let y = m.add_var("y", VarKind::Integer, 0.0, 5.0).unwrap();
    m.set_objective("obj", ObjSense::Minimize, &[(x, 1.0), (y, 1.0)])
        .unwrap();
    m.add_row("odd", &[(x, 2.0), (y, 2.0)], Sense::Eq, 3.0)
        .unwrap();
    m
}

fn write(model: &Model, format: Format, path: &Path) {
    let file = std::fs::File::create(path).unwrap();
    let n = match format {
        Format::Lp => write_lp(model, file),
        Format::Mps => write_mps(model, file),
    }
    .unwrap();
    assert_eq!(n, std::fs::metadata(path).unwrap().len());
}

/// Output lines that contain "error" or "warning" but say that nothing went wrong.
fn benign(line: &str) -> bool {
    // CBC's MPS reader: "Coin0008I features read with 0 errors".
    line.contains("read with 0 errors")
        // HiGHS's LP summary: "P-D objective error :  0.0000000000e+00", a measurement.
        || line.starts_with("P-D objective error")
}

fn run(solver: Solver, format: Format, model_path: &Path, sol_path: &Path) -> String {
    // HiGHS writes `Highs.log` into its working directory; keep it in the temp dir.
    let cwd = model_path.parent().unwrap();
    let (bin, args): (&str, Vec<String>) = {
        let m = model_path.display().to_string();
        let s = sol_path.display().to_string();
        match (solver, format) {
            (Solver::Cbc, _) => ("cbc", vec![m, "-solve".into(), "-solu".into(), s]),
            (Solver::Highs, _) => (
                "highs",
                vec!["--model_file".into(), m, "--solution_file".into(), s],
            ),
            (Solver::Glpk, Format::Lp) => ("glpsol", vec!["--lp".into(), m, "-w".into(), s]),
            (Solver::Glpk, Format::Mps) => ("glpsol", vec!["--freemps".into(), m, "-w".into(), s]),
        }
    };
    let out = match Command::new(bin).args(&args).current_dir(cwd).output() {
        Ok(out) => out,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            panic!("solver {bin} not found: run scripts/install-solvers.sh")
        }
        Err(e) => panic!("cannot run {bin}: {e}"),
    };
    let log = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success(),
        "{bin} {args:?} exited with {}:\n{log}",
        out.status
    );
    for line in log.lines() {
        let l = line.to_ascii_lowercase();
        assert!(
            !(l.contains("warning") || l.contains("error")) || benign(line),
            "{bin} {args:?} complained: {line:?}\n{log}"
        );
    }
    assert!(sol_path.exists(), "{bin} wrote no solution file\n{log}");
    std::fs::read_to_string(sol_path).unwrap()
}

fn num(s: &str) -> f64 {
    s.trim()
        .parse()
        .unwrap_or_else(|_| panic!("not a number: {s:?}"))
}

fn parse(solver: Solver, text: &str) -> Answer {
    let mut a = Answer {
        optimal: false,
        infeasible: false,
        objective: None,
        columns: Vec::new(),
    };
    match solver {
        // "Optimal - objective value 10.00000000", then "  idx name value reduced-cost".
        Solver::Cbc => {
            let mut lines = text.lines();
            let first = lines.next().unwrap_or_default();
            let (status, value) = first
                .split_once(" - objective value ")
                .unwrap_or_else(|| panic!("CBC status line {first:?}"));
            a.optimal = status == "Optimal";
            a.infeasible = status.contains("nfeasible");
            a.objective = Some(num(value));
            a.columns = lines
                .map(|l| num(l.split_whitespace().nth(2).unwrap()))
                .collect();
        }
        // "Model status" / status / ... "Objective v" / "# Columns n" / n × "name value".
        Solver::Highs => {
            let lines: Vec<&str> = text.lines().collect();
            a.optimal = lines.get(1) == Some(&"Optimal");
            a.infeasible = lines.get(1) == Some(&"Infeasible");
            if let Some(l) = lines.iter().find(|l| l.starts_with("Objective ")) {
                a.objective = Some(num(&l["Objective ".len()..]));
            }
            if let Some(at) = lines.iter().position(|l| l.starts_with("# Columns ")) {
                let n: usize = lines[at]["# Columns ".len()..].parse().unwrap();
                a.columns = lines[at + 1..at + 1 + n]
                    .iter()
                    .map(|l| num(l.rsplit(' ').next().unwrap()))
                    .collect();
            }
        }
        // "c Status:     INTEGER OPTIMAL", "c Objective:  obj = 10 (MAXimum)", then
        // "j col value" for a MIP or "j col status value dual" for a basic (LP) solution.
        Solver::Glpk => {
            let mut value_field = 1;
            for l in text.lines() {
                if l.starts_with("s bas ") {
                    value_field = 2;
                }
                if let Some(st) = l.strip_prefix("c Status:") {
                    a.optimal = st.trim().ends_with("OPTIMAL");
                    a.infeasible = st.contains("EMPTY") || st.contains("INFEASIBLE");
                } else if let Some(o) = l.strip_prefix("c Objective:") {
                    let v = o.split('=').nth(1).unwrap().split_whitespace().next();
                    a.objective = Some(num(v.unwrap()));
                } else if let Some(j) = l.strip_prefix("j ") {
                    a.columns
                        .push(num(j.split_whitespace().nth(value_field).unwrap()));
                }
            }
        }
    }
    a
}

/// Write `model` in both formats, run all three solvers, check their verdicts; returns the
/// answers so callers can check values.
fn check(model: &Model, expect: Expect) -> Vec<(Solver, Format, Answer)> {
    let dir = tempfile::tempdir().unwrap();
    let mut answers = Vec::new();
    for format in [Format::Lp, Format::Mps] {
        let ext = if format == Format::Lp { "lp" } else { "mps" };
        let path = dir.path().join(format!("{}.{ext}", model.name()));
        write(model, format, &path);
        for solver in [Solver::Cbc, Solver::Highs, Solver::Glpk] {
            let sol = dir
                .path()
                .join(format!("{}.{ext}.{solver:?}.sol", model.name()));
            let text = run(solver, format, &path, &sol);
            let a = parse(solver, &text);
            let ctx = format!("{solver:?} on {format:?} of {}:\n{text}", model.name());
            match expect {
                Expect::Optimal(v) => {
                    assert!(a.optimal, "not optimal: {ctx}");
                    let sign = if format == Format::Mps {
                        mps_objective_sign(model)
                    } else {
                        1.0
                    };
                    let got = sign * a.objective.expect("no objective");
                    assert!((got - v).abs() < 1e-6, "objective {got}, want {v}: {ctx}");
                    // Every model variable is a column, so positions line up (a model with
                    // no variables gets the writers' one `dummy_var` column).
                    let want = model.num_vars().max(1);
                    assert_eq!(a.columns.len(), want, "column count: {ctx}");
                }
                Expect::Infeasible => assert!(a.infeasible, "not infeasible: {ctx}"),
            }
            answers.push((solver, format, a));
        }
    }
    answers
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn every_feature_solves_to_the_known_optimum_with_columns_in_model_order() {
    let (m, x) = feature_model();
    for (solver, format, a) in check(&m, Expect::Optimal(-2.5)) {
        for (j, want) in x.iter().enumerate() {
            if let Some(want) = want {
                let got = a.columns[j];
                assert!(
                    (got - want).abs() < 1e-6,
                    "{solver:?}/{format:?}: column {j} = {got}, want {want}"
                );
            }
        }
    }
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn maximisation_reads_back_in_the_model_sense() {
    check(&max_model(), Expect::Optimal(10.0));
    check(&lp_max_model(), Expect::Optimal(9.25));
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn infeasible_model_is_reported_infeasible() {
    check(&infeasible_model(), Expect::Infeasible);
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn model_without_rows_is_still_readable() {
    let mut m = Model::new("norows");
    let x = m.add_var("x", VarKind::Integer, -3.0, 8.0).unwrap();
    let y = m.add_var("y", VarKind::Continuous, 1.5, 2.0).unwrap();
    m.set_objective("obj", ObjSense::Minimize, &[(x, 1.0), (y, 2.0)])
        .unwrap();
    check(&m, Expect::Optimal(0.0));
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn model_without_variables_is_still_readable() {
    check(&Model::new("empty"), Expect::Optimal(0.0));
}
