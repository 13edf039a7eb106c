//! CBC solution files, as written by `cbc model.lp -solve -solu FILE` (2.10.8 and devel).
//!
//! Line 1 is `<status> - objective value <obj>`; every other line is
//! `[**] index name value reduced_cost`, where `**` flags an infeasible column. With 50 or
//! more columns CBC prints only the non-zero values, so names are all we can rely on and a
//! missing column means 0 ([`ColumnValues::ByName`]).
//!
//! Values are kept only for outcomes that carry an integer-feasible point (`Optimal`,
//! `Stopped on time` with an incumbent). In particular
//! `Stopped on time (no integer solution - continuous used)` lists the LP relaxation, which is
//! no solution at all, and `Stopped on iterations` is printed both for a node limit with an
//! incumbent and for a simplex iteration limit with a fractional, even bound-violating point
//! (see the fixtures), so it is reported as [`Outcome::Unknown`].

use crate::error::InputError;
use crate::model::answer::{ColumnValues, MilpSolution, Outcome};

/// The separator between CBC's status text and its objective value.
const OBJ_SEP: &str = " - objective value ";
/// The suffix CBC adds when the values are the LP relaxation.
const NO_INTEGER: &str = "(no integer solution - continuous used)";

/// Parse the text of a CBC `-solu` file; `source` names it in error messages.
pub fn parse(text: &str, source: &str) -> Result<MilpSolution, InputError> {
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
    let (status_line_no, status_line) = lines
        .by_ref()
        .find(|(_, l)| !l.trim().is_empty())
        .ok_or_else(|| InputError::whole(source, "empty CBC solution file: expected a status line such as `Optimal - objective value 10`"))?;
    if status_line_no != 1 {
        return Err(InputError::at(
            source,
            1,
            "empty first line: a CBC solution file starts with its status line",
        ));
    }
    let status_line = status_line.trim();
    let (status_text, objective) = match status_line.split_once(OBJ_SEP) {
        Some((s, v)) => {
            let obj = parse_number(v.trim()).ok_or_else(|| {
                InputError::at(
                    source,
                    1,
                    format!("objective value {:?} is not a number", v.trim()),
                )
            })?;
            (s.trim(), Some(obj))
        }
        None => (status_line, None),
    };
    let outcome = classify(status_text).ok_or_else(|| {
        InputError::at(
            source,
            1,
            format!(
                "unrecognised CBC status {status_text:?}: expected `Optimal`, `Infeasible`, \
                 `Integer infeasible`, `Unbounded`, `Stopped on ...` or `Status unknown`"
            ),
        )
    })?;

    // Parse every value line even when the values are dropped, so that a corrupt file is
    // reported as corrupt whatever its status says.
    let mut pairs = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut last_index: Option<u64> = None;
    for (no, line) in lines {
        let mut t = line.trim();
        if t.is_empty() {
            continue;
        }
        if let Some(rest) = t.strip_prefix("**") {
            t = rest.trim_start();
        }
        let fields: Vec<&str> = t.split_whitespace().collect();
        if fields.len() != 4 {
            return Err(InputError::at(
                source,
                no,
                format!(
                    "expected `index name value reduced_cost`, found {} field(s)",
                    fields.len()
                ),
            ));
        }
        let index: u64 = fields[0].parse().map_err(|_| {
            InputError::at(
                source,
                no,
                format!("column index {:?} is not a whole number", fields[0]),
            )
        })?;
        // Rows and columns both count from 0 under `-printingOptions all`; we cannot tell
        // them apart, so insist on the default layout (columns only, increasing).
        if last_index.is_some_and(|l| index <= l) {
            return Err(InputError::at(
                source,
                no,
                format!(
                    "column index {index} does not increase: rows and columns mixed \
                     (`-printingOptions all`?) are not supported"
                ),
            ));
        }
        last_index = Some(index);
        let name = fields[1];
        let value = parse_number(fields[2]).ok_or_else(|| {
            InputError::at(
                source,
                no,
                format!("value {:?} of {name} is not a number", fields[2]),
            )
        })?;
        parse_number(fields[3]).ok_or_else(|| {
            InputError::at(
                source,
                no,
                format!("reduced cost {:?} of {name} is not a number", fields[3]),
            )
        })?;
        if !seen.insert(name) {
            return Err(InputError::at(
                source,
                no,
                format!("column {name} is listed twice"),
            ));
        }
        pairs.push((name.to_string(), value));
    }

    let keep = outcome.has_solution();
    Ok(MilpSolution {
        outcome,
        status_text: status_line.to_string(),
        objective: if keep { objective } else { None },
        values: if keep {
            ColumnValues::ByName(pairs)
        } else {
            ColumnValues::None
        },
    })
}

/// Map CBC's status text (without the objective part) to an outcome.
fn classify(status: &str) -> Option<Outcome> {
    if status.ends_with(NO_INTEGER) {
        // Only a limit can end without an integer solution.
        return Some(if status.starts_with("Stopped on time") {
            Outcome::TimeLimit
        } else {
            Outcome::Unknown
        });
    }
    let outcome = match status {
        // devel prints "Optimal (within gap tolerance)" even with -ratioGap 0.
        s if s == "Optimal" || s.starts_with("Optimal (") => Outcome::Optimal,
        "Infeasible" | "Integer infeasible" => Outcome::Infeasible,
        "Unbounded" => Outcome::Unbounded,
        "Stopped on time" => Outcome::Feasible,
        "Status unknown" => Outcome::Unknown,
        // Stopped on iterations / difficulties / ctrl-c and any future "Stopped on ...".
        s if s.starts_with("Stopped on ") => Outcome::Unknown,
        _ => return None,
    };
    Some(outcome)
}

/// A finite number (CBC prints `-0`, exponents, and never NaN in a good file).
fn parse_number(s: &str) -> Option<f64> {
    s.parse::<f64>().ok().filter(|v| !v.is_nan())
}

#[cfg(test)]
mod tests {
    use super::*;

    macro_rules! fixture {
        ($name:literal) => {
            include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/fixtures/solutions/cbc/",
                $name
            ))
        };
    }

    fn by_name(s: &MilpSolution) -> &[(String, f64)] {
        match &s.values {
            ColumnValues::ByName(v) => v,
            other => panic!("expected values by name, got {other:?}"),
        }
    }

    #[test]
    fn optimal_lists_every_column_of_a_small_model() {
        let s = parse(fixture!("optimal.sol"), "optimal.sol").unwrap();
        assert_eq!(s.outcome, Outcome::Optimal);
        assert_eq!(s.objective, Some(10.0));
        let want = [("x", 2.0), ("y", 0.0), ("z", 1.0), ("w", -2.0)];
        let got: Vec<(&str, f64)> = by_name(&s).iter().map(|(n, v)| (n.as_str(), *v)).collect();
        assert_eq!(got, want);
    }

    #[test]
    fn infeasible_and_unbounded_drop_their_meaningless_values() {
        for (file, text, want) in [
            (
                "infeasible.sol",
                fixture!("infeasible.sol"),
                Outcome::Infeasible,
            ),
            (
                "unbounded.sol",
                fixture!("unbounded.sol"),
                Outcome::Unbounded,
            ),
        ] {
            let s = parse(text, file).unwrap();
            assert_eq!(s.outcome, want, "{file}");
            assert_eq!(s.values, ColumnValues::None, "{file}");
            assert_eq!(s.objective, None, "{file}");
        }
    }

    #[test]
    fn time_limit_with_incumbent_is_feasible_and_sparse() {
        let s = parse(fixture!("time_limit_feasible.sol"), "t.sol").unwrap();
        assert_eq!(s.outcome, Outcome::Feasible);
        assert_eq!(s.objective, Some(62503.0));
        let v = by_name(&s);
        // 300 columns, so CBC printed only the non-zeros.
        assert!(v.len() < 300 && !v.is_empty());
        assert!(v.iter().all(|(_, x)| *x == 1.0));
    }

    #[test]
    fn time_limit_without_incumbent_discards_the_relaxation() {
        let s = parse(fixture!("time_limit_no_integer.sol"), "t.sol").unwrap();
        assert_eq!(s.outcome, Outcome::TimeLimit);
        assert_eq!(s.values, ColumnValues::None);
        assert_eq!(s.objective, None);
        assert!(s.status_text.contains("continuous used"));
    }

    #[test]
    fn stopped_on_iterations_is_unknown_even_with_an_incumbent() {
        for text in [
            fixture!("node_limit.sol"),
            fixture!("iteration_limit_fractional.sol"),
        ] {
            let s = parse(text, "i.sol").unwrap();
            assert_eq!(s.outcome, Outcome::Unknown);
            assert_eq!(s.values, ColumnValues::None);
        }
    }

    #[test]
    fn other_statuses() {
        let cases = [
            (
                "Optimal (within gap tolerance) - objective value 3",
                Outcome::Optimal,
            ),
            (
                "Integer infeasible - objective value 3",
                Outcome::Infeasible,
            ),
            (
                "Stopped on difficulties - objective value 3",
                Outcome::Unknown,
            ),
            ("Stopped on ctrl-c - objective value 3", Outcome::Unknown),
            ("Status unknown - objective value 3", Outcome::Unknown),
            (
                "Stopped on iterations (no integer solution - continuous used) - objective value 1",
                Outcome::Unknown,
            ),
        ];
        for (line, want) in cases {
            assert_eq!(
                parse(&format!("{line}\n      0 x 1 0\n"), "s")
                    .unwrap()
                    .outcome,
                want,
                "{line}"
            );
        }
    }

    #[test]
    fn flagged_lines_are_read() {
        let s = parse(
            "Optimal - objective value 1\n**       0 a   2   0\n      1 b -0 -0\n",
            "f",
        )
        .unwrap();
        assert_eq!(
            by_name(&s),
            &[("a".to_string(), 2.0), ("b".to_string(), -0.0)]
        );
    }

    #[test]
    fn garbage_is_rejected_with_file_and_line() {
        let cases: [(&str, Option<usize>, &str); 9] = [
            ("", None, "empty"),
            ("\n\n", None, "empty"),
            ("hello world\n", Some(1), "unrecognised CBC status"),
            (
                "Model status\nOptimal\n",
                Some(1),
                "unrecognised CBC status",
            ),
            ("Optimal - objective value ten\n", Some(1), "not a number"),
            ("Optimal - objective value 1\n 0 x 1\n", Some(2), "field"),
            (
                "Optimal - objective value 1\n 0 x one 0\n",
                Some(2),
                "not a number",
            ),
            (
                "Optimal - objective value 1\n 0 x 1 0\n 1 x 1 0\n",
                Some(3),
                "twice",
            ),
            (
                "Optimal - objective value 1\n 1 x 1 0\n 0 y 1 0\n",
                Some(3),
                "does not increase",
            ),
        ];
        for (text, line, words) in cases {
            let e = parse(text, "bad.sol").unwrap_err();
            assert_eq!(e.source_name, "bad.sol");
            assert_eq!(e.line, line, "{text:?}: {e}");
            assert!(e.message.contains(words), "{text:?}: {e}");
        }
    }
}
