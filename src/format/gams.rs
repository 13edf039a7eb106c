//! GAMS: the NEOS "15 Puzzle" model written algebraically (sets, tables, indexed equations)
//! from `templates/sliding_neos.gms.tera`, and the parser for the `tilekit_solution.txt` file
//! that the model's `put` block writes after the solve.
//!
//! The GAMS model is the same model as [`crate::formulate::sliding_neos`] builds for LP/MPS:
//! same rows and columns, plus GAMS's objective row and free objective variable `moves`. The
//! solution file names values after the LP model's variables (`p_i3_t7 9`), so
//! [`MilpSolution::resolve`] maps it onto that model by name.

use crate::error::InputError;
use crate::model::answer::{ColumnValues, MilpSolution, Outcome};
use crate::puzzle::sliding::{Goal, SlidingPuzzle};
use std::collections::HashSet;
use std::io::Write;
use std::time::Duration;

/// The template, embedded so the binary works from any directory.
const SLIDING_NEOS_TEMPLATE: &str = include_str!("../../templates/sliding_neos.gms.tera");
/// The edge-matching MILP template (Salassa et al.), embedded likewise.
const EDGE_MILP_TEMPLATE: &str = include_str!("../../templates/edge_milp.gms.tera");

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

/// Why a GAMS model could not be written.
#[derive(Debug, thiserror::Error)]
pub enum GamsError {
    /// The horizon allows no move: periods 0 and T would be the same period.
    #[error("the horizon must be at least 1 step, not {0}")]
    Horizon(usize),
    /// The puzzle cannot reach the goal, so the model would only prove infeasibility.
    #[error(
        "this board cannot reach the {0} goal: its permutation parity differs from the blank's distance parity"
    )]
    Unsolvable(Goal),
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
    /// The edge MILP cannot be built with these options.
    #[error(transparent)]
    EdgeMilp(#[from] crate::formulate::edge_milp::EdgeMilpError),
    /// The template failed to render (a bug in the template, not in the input).
    #[error("the GAMS template failed to render: {0}")]
    Template(#[from] tera::Error),
    /// Writing the output failed.
    #[error("writing the GAMS model failed: {0}")]
    Io(#[from] std::io::Error),
}

/// Write the NEOS case study's model for `puzzle` → `goal` with `horizon` steps as a GAMS
/// program that solves itself and writes [`SOLUTION_FILE`]. Output is deterministic.
pub fn write_sliding_neos_gms<W: Write>(
    puzzle: &SlidingPuzzle,
    goal: Goal,
    horizon: usize,
    opts: &GamsOptions,
    mut out: W,
) -> Result<(), GamsError> {
    if horizon == 0 {
        return Err(GamsError::Horizon(horizon));
    }
    if !puzzle.is_solvable(goal) {
        return Err(GamsError::Unsolvable(goal));
    }
    check_options(opts)?;
    let solver = &opts.solver;
    let (rows, cols, n) = (puzzle.rows(), puzzle.cols(), puzzle.cells());
    let goal_board = SlidingPuzzle::solved(rows, cols, goal);
    let mut ctx = tera::Context::new();
    ctx.insert("nrow", &rows);
    ctx.insert("ncol", &cols);
    ctx.insert("n", &n);
    ctx.insert("tiles", &(n - 1));
    ctx.insert("horizon", &horizon);
    ctx.insert("goal", &goal.to_string());
    ctx.insert(
        "goal_text",
        match goal {
            Goal::BlankLast => "tiles 1..n-1 row-major, blank in the last cell",
            Goal::BlankFirst => "blank in the first cell, then tiles 1..n-1 row-major",
        },
    );
    ctx.insert("start_lines", &board_lines(puzzle));
    ctx.insert("col_header", &table_header(cols));
    ctx.insert("start_rows", &table_rows(puzzle));
    ctx.insert("goal_rows", &table_rows(&goal_board));
    ctx.insert("solver", solver);
    // Rust's shortest round-trip Display gives plain decimals ("0", "0.05", "300") that GAMS reads.
    ctx.insert("optcr", &opts.optcr.to_string());
    ctx.insert("time_limit", &opts.time_limit.as_secs_f64().to_string());
    ctx.insert("threads", &opts.threads.to_string());

    let mut tera = tera::Tera::default();
    // GAMS text, not HTML: never escape quotes or '<'.
    tera.autoescape_on(Vec::<&str>::new());
    tera.add_raw_template("sliding_neos.gms", SLIDING_NEOS_TEMPLATE)?;
    let text = tera.render("sliding_neos.gms", &ctx)?;
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}

/// Refuse option values GAMS would misread (shared by every GAMS writer).
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

/// Write the edge-matching MILP of Salassa et al. ([`crate::formulate::edge_milp`]) for
/// `puzzle` under `model_opts` as an algebraic GAMS program (sets t, r, c, a, l; the pieces as
/// a table; equations (1)–(11) over the sets) that solves itself and writes
/// [`SOLUTION_FILE`] under the LP model's variable names. GAMS counts the same rows and
/// columns as the LP model, plus its objective row and the free variable `unmatched`.
pub fn write_edge_milp_gms<W: Write>(
    puzzle: &crate::puzzle::edge::EdgePuzzle,
    model_opts: crate::formulate::edge_milp::EdgeMilpOptions,
    opts: &GamsOptions,
    mut out: W,
) -> Result<(), GamsError> {
    use crate::formulate::edge_milp::{EdgeMilpError, first_corner};
    use crate::puzzle::edge::{Rotation, placed_colours};
    check_options(opts)?;
    let (rows, cols) = (puzzle.rows(), puzzle.cols());
    let fixed = if model_opts.fix_first_corner {
        if rows != cols {
            return Err(EdgeMilpError::NotSquare { rows, cols }.into());
        }
        first_corner(puzzle)
    } else {
        None
    };
    const W: usize = 8;
    let sides = ["bottom", "left", "top", "right"];
    let mut header = " ".repeat(W);
    for k in sides {
        header.push_str(&format!("{k:>W$}"));
    }
    let colour_rows: Vec<String> = puzzle
        .pieces()
        .iter()
        .map(|pc| {
            let mut line = format!("{:<W$}", format!("t{}", pc.id));
            for c in pc.colours {
                line.push_str(&format!("{c:>W$}"));
            }
            line
        })
        .collect();
    // The rotation convention, from the one function that defines it: placed side d of a
    // piece listed [0, 1, 2, 3] at rotation a shows listed side placed_colours(..)[d].
    let placed_names = ["up", "right", "down", "left"];
    let mut turn_lines = Vec::new();
    for rot in Rotation::ALL {
        let shown = placed_colours([0, 1, 2, 3], rot);
        let items: Vec<String> = (0..4)
            .map(|d| {
                format!(
                    "a{}.{}.{}",
                    rot.turns(),
                    placed_names[d],
                    sides[shown[d] as usize]
                )
            })
            .collect();
        turn_lines.push(items.join(", "));
    }
    let variant = match (model_opts.filter_feasible, model_opts.fix_first_corner) {
        (false, false) => "faithful (every tile in every cell with every rotation)".to_string(),
        (f, x) => format!(
            "{}{}{}",
            if f {
                "--filter (grey exactly on the rim)"
            } else {
                ""
            },
            if f && x { " and " } else { "" },
            if x {
                "--fix-corner (first corner tile in the top-left cell)"
            } else {
                ""
            }
        ),
    };
    let mut ctx = tera::Context::new();
    ctx.insert("nrow", &rows);
    ctx.insert("ncol", &cols);
    ctx.insert("ntiles", &puzzle.pieces().len());
    ctx.insert("ncolours", &puzzle.max_colour().max(1));
    ctx.insert("variant", &variant);
    ctx.insert("colour_header", &header);
    ctx.insert("colour_rows", &colour_rows);
    ctx.insert("turn_lines", &turn_lines);
    ctx.insert("filter", &u8::from(model_opts.filter_feasible));
    ctx.insert("fix", &u8::from(fixed.is_some()));
    if let Some((t, a)) = fixed {
        ctx.insert("fix_tile", &format!("t{t}"));
        ctx.insert("fix_rot", &format!("a{}", a.turns()));
    }
    ctx.insert("solver", &opts.solver);
    ctx.insert("optcr", &opts.optcr.to_string());
    ctx.insert("time_limit", &opts.time_limit.as_secs_f64().to_string());
    ctx.insert("threads", &opts.threads.to_string());
    let mut tera = tera::Tera::default();
    tera.autoescape_on(Vec::<&str>::new());
    tera.add_raw_template("edge_milp.gms", EDGE_MILP_TEMPLATE)?;
    let text = tera.render("edge_milp.gms", &ctx)?;
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}

/// Width of one GAMS table column: wide enough for the largest tile on a 64×64 board.
const TABLE_WIDTH: usize = 6;

/// The table's header line: column labels right-aligned, as GAMS matches values to labels
/// by the columns they overlap.
fn table_header(cols: usize) -> String {
    let mut s = " ".repeat(TABLE_WIDTH);
    for c in 1..=cols {
        s.push_str(&format!("{c:>TABLE_WIDTH$}"));
    }
    s
}

/// One table line per board row: the row label, then each cell's tile right-aligned under
/// its column label.
fn table_rows(p: &SlidingPuzzle) -> Vec<String> {
    (0..p.rows())
        .map(|r| {
            let mut s = format!("{:<TABLE_WIDTH$}", r + 1);
            for c in 0..p.cols() {
                s.push_str(&format!("{:>TABLE_WIDTH$}", p.tile_at(r * p.cols() + c)));
            }
            s
        })
        .collect()
}

/// The board in the header comment, one row per line.
fn board_lines(p: &SlidingPuzzle) -> Vec<String> {
    p.to_text().lines().skip(1).map(str::to_string).collect()
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

    fn render(p: &SlidingPuzzle, goal: Goal, horizon: usize, opts: &GamsOptions) -> String {
        let mut buf = Vec::new();
        write_sliding_neos_gms(p, goal, horizon, opts, &mut buf).unwrap();
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
    fn bad_input_is_an_error_not_a_panic() {
        let p = SlidingPuzzle::new(2, 2, vec![1, 2, 0, 3]).unwrap();
        let w = |h: usize, o: &GamsOptions| {
            write_sliding_neos_gms(&p, Goal::BlankLast, h, o, Vec::new())
        };
        assert!(matches!(
            w(0, &GamsOptions::default()),
            Err(GamsError::Horizon(0))
        ));
        let bad = |f: fn(&mut GamsOptions)| {
            let mut o = GamsOptions::default();
            f(&mut o);
            w(3, &o).unwrap_err().to_string()
        };
        assert!(bad(|o| o.solver = "cplex; abort".into()).contains("not a GAMS solver name"));
        assert!(bad(|o| o.solver = String::new()).contains("not a GAMS solver name"));
        assert!(bad(|o| o.optcr = f64::NAN).contains("optcr"));
        assert!(bad(|o| o.optcr = -0.1).contains("optcr"));
        assert!(bad(|o| o.time_limit = Duration::ZERO).contains("reslim"));
        assert!(bad(|o| o.threads = 0).contains("threads"));
        let unsolvable = SlidingPuzzle::new(2, 2, vec![2, 1, 3, 0]).unwrap();
        assert!(matches!(
            write_sliding_neos_gms(
                &unsolvable,
                Goal::BlankLast,
                3,
                &GamsOptions::default(),
                Vec::new()
            ),
            Err(GamsError::Unsolvable(Goal::BlankLast))
        ));
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
