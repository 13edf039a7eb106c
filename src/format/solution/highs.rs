//! HiGHS solution files in the default "raw" style (`write_solution_style = 0`), as written by
//! `highs --model_file M --solution_file FILE`, and the sparse style 4 (`# Columns -k` with
//! `name value index` lines for the non-zeros only).
//!
//! Only the model status and the primal block are read: `Model status`, the status string, a
//! blank line, `# Primal solution values`, then `None` or `Feasible`/`Infeasible`,
//! `Objective v`, `# Columns n` and n value lines. Duals and the basis are ignored.
//!
//! Status mapping (strings from HiGHS's `utilModelStatusToString`):
//! * `Optimal` → [`Outcome::Optimal`] when the primal point is `Feasible`.
//! * `Infeasible` → [`Outcome::Infeasible`].
//! * `Unbounded` and `Primal infeasible or unbounded` → [`Outcome::Unbounded`] (our
//!   `Unbounded` means "unbounded, or infeasible-or-unbounded"; HiGHS gives the latter for an
//!   unbounded integer model).
//! * A limit or interruption (`Time limit reached`, `Iteration limit reached`,
//!   `Solution limit reached`, `Bound on objective reached`, `Target for objective reached`,
//!   `Interrupted by user`, `Interrupted by HiGHS`, `Memory limit reached`) with a `Feasible`
//!   primal point → [`Outcome::Feasible`]; without one, `Time limit reached` →
//!   [`Outcome::TimeLimit`] and the others → [`Outcome::Unknown`].
//! * `Empty` → [`Outcome::Unknown`]: HiGHS reports it when it read no columns at all, which for
//!   us means it misread the model; calling it optimal would turn "no values" into all-zeros.
//! * Errors (`Load error`, `Model error`, `Presolve error`, `Solve error`, `Postsolve error`),
//!   `Not Set`, `Unknown` and strings we have never seen → [`Outcome::Unknown`]. The fixed
//!   `Model status` header already identifies the file, so a new status string is not a
//!   format error.

use crate::error::InputError;
use crate::model::answer::{ColumnValues, MilpSolution, Outcome};

/// Parse the text of a HiGHS raw-style solution file; `source` names it in error messages.
pub fn parse(text: &str, source: &str) -> Result<MilpSolution, InputError> {
    let mut r = Lines {
        it: text.lines().enumerate(),
        source,
        last: 0,
    };
    let (no, first) = r.next_line("`Model status`")?;
    if first.trim() != "Model status" {
        return Err(InputError::at(
            source,
            no,
            format!(
                "expected `Model status` (the first line of a HiGHS solution file), found {:?}",
                first.trim()
            ),
        ));
    }
    let (_, status) = r.next_line("the model status string")?;
    let status = status.trim().to_string();
    let (no, header) = r.next_nonblank("`# Primal solution values`")?;
    if header.trim() != "# Primal solution values" {
        return Err(InputError::at(
            source,
            no,
            format!(
                "expected `# Primal solution values`, found {:?}",
                header.trim()
            ),
        ));
    }
    let (no, primal) = r.next_nonblank("`None`, `Feasible` or `Infeasible`")?;
    let primal_feasible = match primal.trim() {
        "None" => None,
        "Feasible" => Some(true),
        "Infeasible" => Some(false),
        other => {
            return Err(InputError::at(
                source,
                no,
                format!(
                    "expected the primal solution status `None`, `Feasible` or `Infeasible`, found {other:?}"
                ),
            ));
        }
    };
    let mut objective = None;
    let mut pairs = Vec::new();
    if primal_feasible.is_some() {
        let (no, line) = r.next_line("`Objective <value>`")?;
        objective = Some(
            line.trim()
                .strip_prefix("Objective ")
                .and_then(|v| parse_number(v.trim()))
                .ok_or_else(|| {
                    InputError::at(
                        source,
                        no,
                        format!("expected `Objective <number>`, found {:?}", line.trim()),
                    )
                })?,
        );
        let (no, line) = r.next_line("`# Columns <n>`")?;
        let count: i64 = line
            .trim()
            .strip_prefix("# Columns ")
            .and_then(|v| v.trim().parse().ok())
            .ok_or_else(|| {
                InputError::at(
                    source,
                    no,
                    format!("expected `# Columns <count>`, found {:?}", line.trim()),
                )
            })?;
        // A negative count is the sparse style: that many non-zeros as `name value index`.
        let sparse = count < 0;
        let n = count.unsigned_abs();
        let mut seen = std::collections::HashSet::new();
        for k in 0..n {
            let (no, line) = r.next_line(&format!("value line {} of {n}", k + 1))?;
            let fields: Vec<&str> = line.split_whitespace().collect();
            let want = if sparse { 3 } else { 2 };
            if fields.len() != want {
                let shape = if sparse {
                    "`name value index`"
                } else {
                    "`name value`"
                };
                return Err(InputError::at(
                    source,
                    no,
                    format!(
                        "expected {shape} (column {} of {n}), found {} field(s)",
                        k + 1,
                        fields.len()
                    ),
                ));
            }
            let value = parse_number(fields[1]).ok_or_else(|| {
                InputError::at(
                    source,
                    no,
                    format!("value {:?} of {} is not a number", fields[1], fields[0]),
                )
            })?;
            if sparse && fields[2].parse::<u64>().is_err() {
                return Err(InputError::at(
                    source,
                    no,
                    format!("column index {:?} is not a whole number", fields[2]),
                ));
            }
            if !seen.insert(fields[0]) {
                return Err(InputError::at(
                    source,
                    no,
                    format!("column {} is listed twice", fields[0]),
                ));
            }
            pairs.push((fields[0].to_string(), value));
        }
        // HiGHS follows the values with `# Rows` (or nothing): one more value line means the
        // count and the list disagree, and either could be the truncated one.
        if let Some((i, line)) = r.it.next() {
            let extra = line.trim();
            if !extra.is_empty() && !extra.starts_with('#') {
                return Err(InputError::at(
                    source,
                    i + 1,
                    format!(
                        "a value line after the {n} that `# Columns {count}` announces: {extra:?}"
                    ),
                ));
            }
        }
    }

    let outcome = classify(&status, primal_feasible == Some(true));
    let keep = outcome.has_solution();
    Ok(MilpSolution {
        outcome,
        status_text: status,
        objective: if keep { objective } else { None },
        values: if keep {
            ColumnValues::ByName(pairs)
        } else {
            ColumnValues::None
        },
    })
}

/// Map a HiGHS model status string and "the primal point is feasible" to an outcome. Shared
/// with the embedded HiGHS engine, so that both HiGHS routes read a status the same way.
pub(crate) fn classify(status: &str, feasible: bool) -> Outcome {
    match status {
        "Optimal" if feasible => Outcome::Optimal,
        "Infeasible" => Outcome::Infeasible,
        "Unbounded" | "Primal infeasible or unbounded" => Outcome::Unbounded,
        "Time limit reached"
        | "Iteration limit reached"
        | "Solution limit reached"
        | "Bound on objective reached"
        | "Target for objective reached"
        | "Interrupted by user"
        | "Interrupted by HiGHS"
        | "Memory limit reached"
            if feasible =>
        {
            Outcome::Feasible
        }
        "Time limit reached" => Outcome::TimeLimit,
        _ => Outcome::Unknown,
    }
}

/// A finite number or an infinity, never NaN.
fn parse_number(s: &str) -> Option<f64> {
    s.parse::<f64>().ok().filter(|v| !v.is_nan())
}

/// Numbered lines with "expected X" errors at the end of the file.
struct Lines<'a, I> {
    it: I,
    source: &'a str,
    last: usize,
}

impl<'a, I: Iterator<Item = (usize, &'a str)>> Lines<'a, I> {
    fn next_line(&mut self, expected: &str) -> Result<(usize, &'a str), InputError> {
        match self.it.next() {
            Some((i, l)) => {
                self.last = i + 1;
                Ok((i + 1, l))
            }
            None => Err(InputError::at(
                self.source,
                self.last + 1,
                format!("the file ends early: expected {expected}"),
            )),
        }
    }
    fn next_nonblank(&mut self, expected: &str) -> Result<(usize, &'a str), InputError> {
        loop {
            let (no, l) = self.next_line(expected)?;
            if !l.trim().is_empty() {
                return Ok((no, l));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    macro_rules! fixture {
        ($name:literal) => {
            include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/fixtures/solutions/highs/",
                $name
            ))
        };
    }

    fn names(s: &MilpSolution) -> Vec<(&str, f64)> {
        match &s.values {
            ColumnValues::ByName(v) => v.iter().map(|(n, x)| (n.as_str(), *x)).collect(),
            other => panic!("expected values by name, got {other:?}"),
        }
    }

    #[test]
    fn optimal_dense_and_sparse() {
        let s = parse(fixture!("optimal.sol"), "o.sol").unwrap();
        assert_eq!(s.outcome, Outcome::Optimal);
        assert_eq!(s.objective, Some(10.0));
        assert_eq!(names(&s), [("x", 2.0), ("y", 0.0), ("z", 1.0), ("w", -2.0)]);
        let s = parse(fixture!("optimal_sparse.sol"), "o.sol").unwrap();
        assert_eq!(s.outcome, Outcome::Optimal);
        assert_eq!(names(&s), [("x", 2.0), ("z", 1.0), ("w", -2.0)]);
    }

    #[test]
    fn no_solution_statuses() {
        for (file, text, want) in [
            (
                "infeasible.sol",
                fixture!("infeasible.sol"),
                Outcome::Infeasible,
            ),
            (
                "infeasible_lp.sol",
                fixture!("infeasible_lp.sol"),
                Outcome::Infeasible,
            ),
            (
                "ior.sol",
                fixture!("infeasible_or_unbounded.sol"),
                Outcome::Unbounded,
            ),
            // An unbounded LP comes with a feasible point; it is still no answer.
            (
                "unbounded_lp.sol",
                fixture!("unbounded_lp.sol"),
                Outcome::Unbounded,
            ),
            (
                "tl.sol",
                fixture!("time_limit_none.sol"),
                Outcome::TimeLimit,
            ),
        ] {
            let s = parse(text, file).unwrap();
            assert_eq!(s.outcome, want, "{file}");
            assert_eq!(s.values, ColumnValues::None, "{file}");
            assert_eq!(s.objective, None, "{file}");
        }
    }

    #[test]
    fn time_limit_with_incumbent_is_feasible() {
        let s = parse(fixture!("time_limit_feasible.sol"), "t.sol").unwrap();
        assert_eq!(s.outcome, Outcome::Feasible);
        assert_eq!(s.status_text, "Time limit reached");
        assert_eq!(s.objective, Some(62463.0));
        assert_eq!(names(&s).len(), 300);
    }

    #[test]
    fn every_status_string_maps() {
        let with = |status: &str, primal: &str| {
            let body = if primal == "None" {
                "None\n".to_string()
            } else {
                format!("{primal}\nObjective 1\n# Columns 1\nx 1\n")
            };
            parse(
                &format!("Model status\n{status}\n\n# Primal solution values\n{body}"),
                "s",
            )
            .unwrap()
            .outcome
        };
        for s in [
            "Iteration limit reached",
            "Solution limit reached",
            "Bound on objective reached",
            "Target for objective reached",
            "Interrupted by user",
            "Interrupted by HiGHS",
            "Memory limit reached",
        ] {
            assert_eq!(with(s, "Feasible"), Outcome::Feasible, "{s}");
            assert_eq!(with(s, "None"), Outcome::Unknown, "{s}");
        }
        for s in [
            "Not Set",
            "Load error",
            "Model error",
            "Presolve error",
            "Solve error",
            "Postsolve error",
            "Empty",
            "Unknown",
            "Unrecognised HiGHS model status",
        ] {
            assert_eq!(with(s, "Feasible"), Outcome::Unknown, "{s}");
        }
        assert_eq!(with("Optimal", "Infeasible"), Outcome::Unknown);
        assert_eq!(with("Time limit reached", "Infeasible"), Outcome::TimeLimit);
    }

    #[test]
    fn garbage_is_rejected_with_file_and_line() {
        let head = "Model status\nOptimal\n\n# Primal solution values\n";
        let cases: Vec<(String, usize, &str)> = vec![
            (String::new(), 1, "ends early"),
            ("Optimal - objective value 10\n".into(), 1, "Model status"),
            ("Model status\n".into(), 2, "ends early"),
            (
                "Model status\nOptimal\n\n# Dual\n".into(),
                4,
                "Primal solution values",
            ),
            (format!("{head}Maybe\n"), 5, "None"),
            (format!("{head}Feasible\nObjective x\n"), 6, "Objective"),
            (
                format!("{head}Feasible\nObjective 1\n# Cols 2\n"),
                7,
                "Columns",
            ),
            (
                format!("{head}Feasible\nObjective 1\n# Columns 2\nx 1\n"),
                9,
                "ends early",
            ),
            (
                format!("{head}Feasible\nObjective 1\n# Columns 1\nx one\n"),
                8,
                "not a number",
            ),
            (
                format!("{head}Feasible\nObjective 1\n# Columns 1\nx 1 2\n"),
                8,
                "field",
            ),
            (
                format!("{head}Feasible\nObjective 1\n# Columns 2\nx 1\nx 2\n"),
                9,
                "twice",
            ),
            (
                format!("{head}Feasible\nObjective 1\n# Columns -1\nx 1 a\n"),
                8,
                "index",
            ),
            (
                format!("{head}Feasible\nObjective 1\n# Columns 1\nx 1\ny 2\n# Rows 0\n"),
                9,
                "after the 1 that `# Columns 1` announces",
            ),
        ];
        for (text, line, words) in cases {
            let e = parse(&text, "bad.sol").unwrap_err();
            assert_eq!(e.source_name, "bad.sol");
            assert_eq!(e.line, Some(line), "{text:?}: {e}");
            assert!(e.message.contains(words), "{text:?}: {e}");
        }
    }
}
