//! GAMS: algebraic models ([`Algebraic`]: a template and its instance data) written as GAMS
//! programs that solve themselves, and the parser for the `tilekit_solution.txt` file that
//! every template's `put` block writes after the solve.
//!
//! The writer knows no puzzle: a formulation (`formulate::sliding_case_study::algebraic`,
//! `formulate::edge_milp::algebraic`) validates its instance and hands over plain data; this
//! module lays the data out as GAMS reads it (tables in aligned columns, set members as
//! dotted tuples), adds the solver options and renders the template. Each template states the
//! same model as its formulation builds for LP/MPS, and its solution file names values after
//! that model's variables (`p_i3_t7 9`), so [`MilpSolution::resolve`] maps it back by name.

use crate::error::InputError;
use crate::model::algebraic::{Algebraic, Table, Template};
use crate::model::answer::{ColumnValues, MilpSolution, Outcome};
use std::collections::HashSet;
use std::io::Write;
use std::time::Duration;

/// The NEOS "15 Puzzle" template, embedded so the binary works from any directory.
const SLIDING_NEOS_TEMPLATE: &str = include_str!("../../templates/sliding_neos.gms.tera");
/// The edge-matching MILP template (Salassa et al.), embedded likewise.
const EDGE_MILP_TEMPLATE: &str = include_str!("../../templates/edge_milp.gms.tera");
/// The region MILP template (Salassa et al. (15)–(17)), embedded likewise.
const EDGE_REGION_TEMPLATE: &str = include_str!("../../templates/edge_region.gms.tera");

/// The template's text.
fn template_text(template: Template) -> &'static str {
    match template {
        Template::SlidingNeos => SLIDING_NEOS_TEMPLATE,
        Template::EdgeMilp => EDGE_MILP_TEMPLATE,
        Template::EdgeRegion => EDGE_REGION_TEMPLATE,
    }
}

/// The placeholders every template takes from [`GamsOptions`]; model data may not use them.
const OPTION_NAMES: [&str; 4] = ["solver", "optcr", "time_limit", "threads"];

/// The file the generated model's `put` block writes, in GAMS's working directory.
pub const SOLUTION_FILE: &str = "tilekit_solution.txt";

/// Solver settings written into the model's `option` statement.
#[derive(Debug, Clone, PartialEq)]
pub struct GamsOptions {
    /// GAMS solver for the `mip` model type (`cplex` is bundled with the demo licence).
    pub solver: String,
    /// `reslim`: wall-clock limit for the solve.
    pub time_limit: Duration,
    /// `threads`: solver threads (1 keeps runs reproducible).
    pub threads: u32,
    /// `optcr`: relative optimality gap at which the solver may stop (0 = prove optimality).
    pub optcr: f64,
}

impl Default for GamsOptions {
    fn default() -> Self {
        GamsOptions {
            solver: "cplex".to_string(),
            time_limit: Duration::from_secs(300),
            threads: 1,
            optcr: 0.0,
        }
    }
}

/// Why a GAMS model could not be written. Whether the instance can be modelled at all is the
/// formulation's question, answered before any [`Algebraic`] exists.
#[derive(Debug, thiserror::Error)]
pub enum GamsError {
    /// A solver name GAMS would not read as one identifier.
    #[error(
        "{0:?} is not a GAMS solver name: expected letters, digits and '_', starting with a letter"
    )]
    Solver(String),
    /// An option value GAMS cannot take.
    #[error("option {name} = {value} is out of range: {expected}")]
    Option {
        /// The GAMS option.
        name: &'static str,
        /// The rejected value, as text.
        value: String,
        /// What is accepted.
        expected: &'static str,
    },
    /// The model's data cannot be laid out for its template (a bug in the formulation, not
    /// in the input).
    #[error("the {template} model's data cannot be written: {problem}")]
    Data {
        /// The template's name.
        template: &'static str,
        /// What is wrong.
        problem: String,
    },
    /// The template failed to render (a bug in the template, not in the input).
    #[error("the GAMS template failed to render: {0}")]
    Template(#[from] tera::Error),
    /// Writing the output failed.
    #[error("writing the GAMS model failed: {0}")]
    Io(#[from] std::io::Error),
}

/// Write `model` as a GAMS program that solves itself under `opts` and writes
/// [`SOLUTION_FILE`]. Output is deterministic: the same data and options give the same bytes.
pub fn write_gms<W: Write>(
    model: &Algebraic,
    opts: &GamsOptions,
    mut out: W,
) -> Result<(), GamsError> {
    check_options(opts)?;
    let template = model.template.name();
    let bad = |problem: String| GamsError::Data { template, problem };
    // One name, one placeholder: a repeated name would silently overwrite the first value.
    let mut seen = HashSet::new();
    for name in model.names() {
        if OPTION_NAMES.contains(&name) {
            return Err(bad(format!("{name:?} is the name of a solver option")));
        }
        if !seen.insert(name) {
            return Err(bad(format!("{name:?} is given twice")));
        }
    }
    let mut ctx = tera::Context::new();
    for (name, value) in &model.scalars {
        ctx.insert(name.clone(), value);
    }
    for (name, text) in &model.texts {
        ctx.insert(name.clone(), text);
    }
    for (name, lines) in &model.blocks {
        ctx.insert(name.clone(), lines);
    }
    for (name, members) in &model.sets {
        ctx.insert(name.clone(), &set_lines(members));
    }
    for (name, table) in &model.tables {
        let text = table_text(table).map_err(|e| bad(format!("table {name}: {e}")))?;
        ctx.insert(name.clone(), &text);
    }
    ctx.insert("solver", &opts.solver);
    // Rust's shortest round-trip Display gives plain decimals ("0", "0.05", "300") that GAMS reads.
    ctx.insert("optcr", &opts.optcr.to_string());
    ctx.insert("time_limit", &opts.time_limit.as_secs_f64().to_string());
    ctx.insert("threads", &opts.threads.to_string());

    let mut tera = tera::Tera::default();
    // GAMS text, not HTML: never escape quotes or '<'.
    tera.autoescape_on(Vec::<&str>::new());
    tera.add_raw_template(template, template_text(model.template))?;
    let text = tera.render(template, &ctx)?;
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}

/// Refuse option values GAMS would misread.
fn check_options(opts: &GamsOptions) -> Result<(), GamsError> {
    let solver = &opts.solver;
    let mut chars = solver.chars();
    let ident = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && solver.len() <= 63;
    if !ident {
        return Err(GamsError::Solver(solver.clone()));
    }
    if !(opts.optcr.is_finite() && opts.optcr >= 0.0) {
        return Err(GamsError::Option {
            name: "optcr",
            value: opts.optcr.to_string(),
            expected: "a finite number ≥ 0",
        });
    }
    let secs = opts.time_limit.as_secs_f64();
    if secs <= 0.0 {
        return Err(GamsError::Option {
            name: "reslim",
            value: secs.to_string(),
            expected: "a positive number of seconds",
        });
    }
    if opts.threads == 0 {
        return Err(GamsError::Option {
            name: "threads",
            value: "0".to_string(),
            expected: "at least 1 (GAMS reads 0 as 'all cores', which is not reproducible)",
        });
    }

    Ok(())
}

/// A table's body as GAMS reads it: the header line of column labels, then one line per row
/// (its label, then its values), every entry right-aligned in a column of the table's width
/// (row labels left-aligned), as GAMS matches each value to the column label it overlaps.
/// Lines are joined by newlines, with no final one: the template closes the statement.
fn table_text(t: &Table) -> Result<String, String> {
    let w = t.width;
    if t.values.len() != t.rows.len() {
        return Err(format!(
            "{} rows of values for {} row labels",
            t.values.len(),
            t.rows.len()
        ));
    }
    if let Some((i, row)) = t
        .values
        .iter()
        .enumerate()
        .find(|(_, row)| row.len() != t.cols.len())
    {
        return Err(format!(
            "row {} has {} values for {} column labels",
            t.rows[i],
            row.len(),
            t.cols.len()
        ));
    }
    // An entry as wide as its column would touch its neighbour, and GAMS could no longer
    // tell which label a value belongs to.
    let values = t.values.iter().flatten().map(i64::to_string);
    if let Some(wide) = t
        .rows
        .iter()
        .chain(&t.cols)
        .cloned()
        .chain(values)
        .find(|e| e.chars().count() >= w)
    {
        return Err(format!(
            "{wide:?} does not fit a column {w} characters wide"
        ));
    }
    let mut s = " ".repeat(w);
    for c in &t.cols {
        s.push_str(&format!("{c:>w$}"));
    }
    for (label, row) in t.rows.iter().zip(&t.values) {
        s.push('\n');
        s.push_str(&format!("{label:<w$}"));
        for v in row {
            s.push_str(&format!("{v:>w$}"));
        }
    }
    Ok(s)
}

/// A set's members as GAMS lists them: each tuple's labels joined by dots (`a1.up.left`),
/// one line per leading label with its members separated by commas, so that a relation reads
/// as one line per element of its first index.
fn set_lines(members: &[Vec<String>]) -> Vec<String> {
    let mut lines: Vec<(Option<&String>, Vec<String>)> = Vec::new();
    for m in members {
        let lead = m.first();
        match lines.last_mut() {
            Some((l, items)) if *l == lead => items.push(m.join(".")),
            _ => lines.push((lead, vec![m.join(".")])),
        }
    }
    lines
        .into_iter()
        .map(|(_, items)| items.join(", "))
        .collect()
}

/// Parse the `tilekit_solution.txt` written by the generated model: `modelstat M`,
/// `solvestat S`, optionally `objective V`, then `name value` for every nonzero level.
/// Variables not listed are 0. `source` names the file in errors.
pub fn parse_gams_solution(text: &str, source: &str) -> Result<MilpSolution, InputError> {
    let mut modelstat: Option<u32> = None;
    let mut solvestat: Option<u32> = None;
    let mut objective: Option<f64> = None;
    let mut values: Vec<(String, f64)> = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    for (idx, raw) in text.lines().enumerate() {
        let line = idx + 1;
        let toks: Vec<&str> = raw.split_whitespace().collect();
        match toks.as_slice() {
            [] => continue,
            [key, value] => {
                let number = |what: &str| -> Result<f64, InputError> {
                    value
                        .parse::<f64>()
                        .ok()
                        .filter(|v| v.is_finite())
                        .ok_or_else(|| {
                            InputError::at(
                                source,
                                line,
                                format!("{value:?} is not a finite number ({what})"),
                            )
                        })
                };
                let status = |what: &str| -> Result<u32, InputError> {
                    value.parse::<u32>().map_err(|_| {
                        InputError::at(
                            source,
                            line,
                            format!("{value:?} is not a GAMS {what} code: expected a whole number"),
                        )
                    })
                };
                let slot_taken =
                    |name: &str| InputError::at(source, line, format!("{name} is given twice"));
                match *key {
                    "modelstat" => {
                        if modelstat.replace(status("model status")?).is_some() {
                            return Err(slot_taken("modelstat"));
                        }
                    }
                    "solvestat" => {
                        if solvestat.replace(status("solver status")?).is_some() {
                            return Err(slot_taken("solvestat"));
                        }
                    }
                    "objective" => {
                        if objective.replace(number("the objective")?).is_some() {
                            return Err(slot_taken("objective"));
                        }
                    }
                    name => {
                        let v = number(&format!("the level of {name}"))?;
                        if !seen.insert(name.to_string()) {
                            return Err(slot_taken(&format!("variable {name}")));
                        }
                        values.push((name.to_string(), v));
                    }
                }
            }
            _ => {
                return Err(InputError::at(
                    source,
                    line,
                    format!(
                        "expected 'name value' (two fields), found {} fields",
                        toks.len()
                    ),
                ));
            }
        }
    }
    let modelstat = modelstat.ok_or_else(|| {
        InputError::whole(
            source,
            "no 'modelstat' line: this is not a tilekit GAMS solution file (did the solve run?)",
        )
    })?;
    let solvestat = solvestat
        .ok_or_else(|| InputError::whole(source, "no 'solvestat' line: the file is incomplete"))?;
    let outcome = match modelstat {
        1 | 2 => Outcome::Optimal,
        7 | 8 => Outcome::Feasible,
        4 | 5 | 10 | 19 => Outcome::Infeasible,
        3 | 18 => Outcome::Unbounded,
        _ if solvestat == 3 => Outcome::TimeLimit,
        _ => Outcome::Unknown,
    };
    if outcome.has_solution() && objective.is_none() {
        return Err(InputError::whole(
            source,
            format!("model status {modelstat} reports a solution but there is no 'objective' line"),
        ));
    }
    let values = if outcome.has_solution() {
        ColumnValues::ByName(values)
    } else {
        ColumnValues::None
    };
    Ok(MilpSolution {
        outcome,
        status_text: format!(
            "modelstat {modelstat} ({}), solvestat {solvestat} ({})",
            model_status_name(modelstat),
            solve_status_name(solvestat)
        ),
        objective,
        values,
    })
}

/// GAMS's name for a model status code.
fn model_status_name(code: u32) -> &'static str {
    match code {
        1 => "Optimal",
        2 => "Locally Optimal",
        3 => "Unbounded",
        4 => "Infeasible",
        5 => "Locally Infeasible",
        6 => "Intermediate Infeasible",
        7 => "Feasible Solution",
        8 => "Integer Solution",
        9 => "Intermediate Non-Integer",
        10 => "Integer Infeasible",
        11 => "Licensing Problem",
        12 => "Error Unknown",
        13 => "Error No Solution",
        14 => "No Solution Returned",
        15 => "Solved Unique",
        16 => "Solved",
        17 => "Solved Singular",
        18 => "Unbounded - No Solution",
        19 => "Infeasible - No Solution",
        _ => "unknown code",
    }
}

/// GAMS's name for a solver status code.
fn solve_status_name(code: u32) -> &'static str {
    match code {
        1 => "Normal Completion",
        2 => "Iteration Interrupt",
        3 => "Resource Interrupt",
        4 => "Terminated By Solver",
        5 => "Evaluation Interrupt",
        6 => "Capability Problems",
        7 => "Licensing Problems",
        8 => "User Interrupt",
        9 => "Setup Failure",
        10 => "Solver Failure",
        11 => "Internal Solver Failure",
        12 => "Solve Processing Skipped",
        13 => "System Failure",
        _ => "unknown code",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formulate::sliding_case_study;
    use crate::puzzle::sliding::{Goal, SlidingPuzzle};

    fn render(p: &SlidingPuzzle, goal: Goal, horizon: usize, opts: &GamsOptions) -> String {
        let model = sliding_case_study::algebraic(p, goal, horizon).unwrap();
        let mut buf = Vec::new();
        write_gms(&model, opts, &mut buf).unwrap();
        String::from_utf8(buf).unwrap()
    }

    #[test]
    fn snapshot_2x2_horizon_3() {
        let p = SlidingPuzzle::new(2, 2, vec![1, 2, 0, 3]).unwrap();
        let text = render(&p, Goal::BlankLast, 3, &GamsOptions::default());
        insta::assert_snapshot!(text);
        // Deterministic: a second render is byte-identical.
        assert_eq!(
            text,
            render(&p, Goal::BlankLast, 3, &GamsOptions::default())
        );
    }

    #[test]
    fn options_and_goal_reach_the_text() {
        let p = SlidingPuzzle::new(2, 3, vec![1, 2, 3, 4, 0, 5]).unwrap();
        let opts = GamsOptions {
            solver: "highs".into(),
            time_limit: Duration::from_millis(2500),
            threads: 4,
            optcr: 0.05,
        };
        let text = render(&p, Goal::BlankLast, 7, &opts);
        assert!(
            text.contains("option mip = highs, optcr = 0.05, reslim = 2.5, threads = 4;"),
            "{text}"
        );
        assert!(text.contains("t   'periods (0 = initial board)'    / 0*7 /"));
        assert!(text.contains("i   'tiles'                          / 1*5 /"));
        // Blank-first goal: tile 0 in the goal table's first cell.
        let q = SlidingPuzzle::new(2, 2, vec![1, 0, 2, 3]).unwrap();
        let text = render(&q, Goal::BlankFirst, 3, &GamsOptions::default());
        assert!(text.contains("Table boardT(row,col)"));
        assert!(
            text.contains("\n1          0     1\n2          2     3 ;"),
            "{text}"
        );
    }

    #[test]
    fn bad_options_are_an_error_not_a_panic() {
        let p = SlidingPuzzle::new(2, 2, vec![1, 2, 0, 3]).unwrap();
        let model = sliding_case_study::algebraic(&p, Goal::BlankLast, 3).unwrap();
        let bad = |f: fn(&mut GamsOptions)| {
            let mut o = GamsOptions::default();
            f(&mut o);
            write_gms(&model, &o, Vec::new()).unwrap_err().to_string()
        };
        assert!(bad(|o| o.solver = "cplex; abort".into()).contains("not a GAMS solver name"));
        assert!(bad(|o| o.solver = String::new()).contains("not a GAMS solver name"));
        assert!(bad(|o| o.optcr = f64::NAN).contains("optcr"));
        assert!(bad(|o| o.optcr = -0.1).contains("optcr"));
        assert!(bad(|o| o.time_limit = Duration::ZERO).contains("reslim"));
        assert!(bad(|o| o.threads = 0).contains("threads"));
    }

    #[test]
    fn tables_and_sets_are_laid_out_in_columns_and_lines() {
        let t = Table {
            rows: vec!["t1".into(), "t12".into()],
            cols: vec!["up".into(), "left".into()],
            values: vec![vec![0, 7], vec![12, 3]],
            width: 6,
        };
        assert_eq!(
            table_text(&t).unwrap(),
            "          up  left\nt1         0     7\nt12       12     3"
        );
        let m = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            set_lines(&[m(&["a0", "up"]), m(&["a0", "down"]), m(&["a1", "up"])]),
            ["a0.up, a0.down", "a1.up"]
        );
    }

    #[test]
    fn malformed_data_is_refused() {
        let table = |values: Vec<Vec<i64>>, width| Table {
            rows: vec!["1".into()],
            cols: vec!["1".into(), "2".into()],
            values,
            width,
        };
        let err = |model: Algebraic| {
            write_gms(&model, &GamsOptions::default(), Vec::new())
                .unwrap_err()
                .to_string()
        };
        let new = || Algebraic::new(Template::SlidingNeos);
        assert_eq!(
            err(new().table("board0", table(vec![vec![1, 123456]], 6))),
            "the sliding_neos model's data cannot be written: table board0: \"123456\" does not fit a column 6 characters wide"
        );
        assert!(err(new().table("board0", table(vec![vec![1]], 6))).contains("row 1 has 1 values"));
        assert!(err(new().table("board0", table(vec![], 6))).contains("0 rows of values"));
        assert!(err(new().scalar("n", 1).text("n", "x")).contains("\"n\" is given twice"));
        assert!(err(new().scalar("threads", 1)).contains("name of a solver option"));
    }

    #[test]
    fn parses_an_optimal_solution() {
        let s = parse_gams_solution(
            "modelstat 1\nsolvestat 1\nobjective 2\np_i1_t0 1\nu_t1 1\nz_i3_t2 1\n",
            "sol.txt",
        )
        .unwrap();
        assert_eq!(s.outcome, Outcome::Optimal);
        assert_eq!(s.objective, Some(2.0));
        assert_eq!(
            s.status_text,
            "modelstat 1 (Optimal), solvestat 1 (Normal Completion)"
        );
        assert_eq!(
            s.values,
            ColumnValues::ByName(vec![
                ("p_i1_t0".into(), 1.0),
                ("u_t1".into(), 1.0),
                ("z_i3_t2".into(), 1.0)
            ])
        );
    }

    #[test]
    fn maps_statuses() {
        let outcome = |m: u32, s: u32| {
            let obj = if matches!(m, 1 | 2 | 7 | 8) {
                "objective 3\n"
            } else {
                ""
            };
            parse_gams_solution(&format!("modelstat {m}\nsolvestat {s}\n{obj}"), "f")
                .unwrap()
                .outcome
        };
        assert_eq!(outcome(8, 3), Outcome::Feasible);
        assert_eq!(outcome(10, 1), Outcome::Infeasible);
        assert_eq!(outcome(4, 1), Outcome::Infeasible);
        assert_eq!(outcome(19, 1), Outcome::Infeasible);
        assert_eq!(outcome(18, 1), Outcome::Unbounded);
        assert_eq!(outcome(3, 1), Outcome::Unbounded);
        assert_eq!(outcome(14, 3), Outcome::TimeLimit);
        assert_eq!(outcome(13, 10), Outcome::Unknown);
        let s = parse_gams_solution("modelstat 10\nsolvestat 1\n", "f").unwrap();
        assert_eq!(s.values, ColumnValues::None);
    }

    #[test]
    fn rejects_malformed_files_with_line_numbers() {
        let err = |t: &str| parse_gams_solution(t, "sol.txt").unwrap_err().to_string();
        assert_eq!(
            err("modelstat 1\nsolvestat 1\nobjective 1\nu_t1 x\n"),
            "sol.txt:4: \"x\" is not a finite number (the level of u_t1)"
        );
        assert_eq!(
            err("modelstat one\n"),
            "sol.txt:1: \"one\" is not a GAMS model status code: expected a whole number"
        );
        assert_eq!(
            err("modelstat 1 2\n"),
            "sol.txt:1: expected 'name value' (two fields), found 3 fields"
        );
        assert_eq!(
            err("modelstat 1\nsolvestat 1\nobjective 1\nu_t1 1\nu_t1 1\n"),
            "sol.txt:5: variable u_t1 is given twice"
        );
        assert!(err("").contains("no 'modelstat' line"));
        assert!(err("modelstat 1\n").contains("no 'solvestat' line"));
        assert!(err("modelstat 1\nsolvestat 1\n").contains("no 'objective' line"));
        assert!(err("modelstat 1\nsolvestat 1\nobjective inf\n").contains("not a finite number"));
    }
}
