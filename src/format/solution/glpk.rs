//! GLPK solution files in the machine-readable format of `glpsol -w FILE` (GLPK manual
//! §3.2–3.3): `c` comments, one solution line, `i` row lines, `j` column lines, `e` at the end.
//!
//! * MIP: `s mip ROWS COLS SST OBJ`, SST `o` optimal, `f` feasible, `n` no integer solution,
//!   `u` undefined; columns `j COL VAL`.
//! * Basic (simplex): `s bas ROWS COLS PST DST OBJ`, with primal/dual status `u` undefined,
//!   `f` feasible, `i` infeasible, `n` no feasible; columns `j COL ST PRIM DUAL`.
//! * Interior point: `s ipt ROWS COLS SST OBJ` (`o`, `f`, `i`, `n`, `u`); columns
//!   `j COL PRIM DUAL`.
//!
//! The file has no names, so values come back [`ColumnValues::ByIndex`] in column order.
//! `u` (undefined) is [`Outcome::Unknown`]: GLPK writes it both for a time limit without an
//! incumbent and for a model it gave up on; only the log tells them apart (the caller in
//! `solve` looks for `TIME LIMIT EXCEEDED`). The `e` line is required, so a truncated file
//! is an error rather than a short solution.

use crate::error::InputError;
use crate::model::answer::{ColumnValues, MilpSolution, Outcome};
use std::collections::{BTreeMap, HashSet};

/// Which solution the file holds (the word after `s`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Mip,
    Basic,
    Interior,
}

/// Parse the text of a `glpsol -w` file; `source` names it in error messages.
pub fn parse(text: &str, source: &str) -> Result<MilpSolution, InputError> {
    let mut status_comment: Option<String> = None;
    let mut header: Option<(Kind, usize, usize, Outcome, f64, String)> = None;
    // Keyed by the 1-based number, so that memory grows with the lines read, not with the
    // counts the `s` line claims (untrusted: `s mip 1 99999999999 o 0` is 20 bytes).
    let mut values: BTreeMap<usize, f64> = BTreeMap::new();
    let mut rows_seen: HashSet<usize> = HashSet::new();
    let mut ended = false;
    let mut last_line = 0;

    for (i, line) in text.lines().enumerate() {
        let no = i + 1;
        last_line = no;
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        let fields: Vec<&str> = t.split_whitespace().collect();
        match fields[0] {
            "c" => {
                if let Some(s) = t
                    .strip_prefix('c')
                    .map(str::trim)
                    .and_then(|r| r.strip_prefix("Status:"))
                {
                    status_comment = Some(s.trim().to_string());
                }
            }
            "s" => {
                if header.is_some() {
                    return Err(InputError::at(source, no, "a second solution (`s`) line"));
                }
                header = Some(parse_header(&fields, source, no)?);
            }
            "i" | "j" => {
                let Some((kind, rows, cols, _, _, _)) = &header else {
                    return Err(InputError::at(
                        source,
                        no,
                        format!("`{}` line before the solution (`s`) line", fields[0]),
                    ));
                };
                let want = match kind {
                    Kind::Mip => 3,
                    Kind::Basic => 5,
                    Kind::Interior => 4,
                };
                if fields.len() != want {
                    let shape = match (fields[0], kind) {
                        ("i", Kind::Mip) => "`i ROW VALUE`",
                        ("j", Kind::Mip) => "`j COL VALUE`",
                        ("i", Kind::Basic) => "`i ROW STATUS PRIMAL DUAL`",
                        ("j", Kind::Basic) => "`j COL STATUS PRIMAL DUAL`",
                        ("i", _) => "`i ROW PRIMAL DUAL`",
                        _ => "`j COL PRIMAL DUAL`",
                    };
                    return Err(InputError::at(
                        source,
                        no,
                        format!("expected {shape}, found {} field(s)", fields.len()),
                    ));
                }
                let is_row = fields[0] == "i";
                let seen_len = if is_row { *rows } else { *cols };
                let what = if is_row { "row" } else { "column" };
                let k: usize = fields[1]
                    .parse()
                    .ok()
                    .filter(|k| (1..=seen_len).contains(k))
                    .ok_or_else(|| {
                        InputError::at(
                            source,
                            no,
                            format!(
                                "{what} number {:?} is not between 1 and {seen_len}",
                                fields[1]
                            ),
                        )
                    })?;
                if *kind == Kind::Basic && !matches!(fields[2], "b" | "l" | "u" | "f" | "s") {
                    return Err(InputError::at(
                        source,
                        no,
                        format!("basis status {:?} is not one of b, l, u, f, s", fields[2]),
                    ));
                }
                let prim_at = if *kind == Kind::Basic { 3 } else { 2 };
                let mut numbers = fields[prim_at..].iter().map(|f| (f, parse_number(f)));
                let (pf, prim) = numbers.next().expect("field count checked above");
                let prim = prim.ok_or_else(|| {
                    InputError::at(source, no, format!("value {pf:?} is not a number"))
                })?;
                if let Some((f, None)) = numbers.find(|(_, v)| v.is_none()) {
                    return Err(InputError::at(
                        source,
                        no,
                        format!("value {f:?} is not a number"),
                    ));
                }
                let dup = if is_row {
                    !rows_seen.insert(k)
                } else {
                    values.insert(k, prim).is_some()
                };
                if dup {
                    return Err(InputError::at(
                        source,
                        no,
                        format!("{what} {k} is listed twice"),
                    ));
                }
            }
            "e" => {
                ended = true;
                break;
            }
            other => {
                return Err(InputError::at(
                    source,
                    no,
                    format!(
                        "expected a line starting with `c`, `s`, `i`, `j` or `e`, found {other:?}"
                    ),
                ));
            }
        }
    }

    let Some((_, _, cols, outcome, objective, s_line)) = header else {
        return Err(InputError::whole(
            source,
            "no solution line (`s mip|bas|ipt ...`): not a `glpsol -w` file",
        ));
    };
    if !ended {
        return Err(InputError::at(
            source,
            last_line + 1,
            "the file ends early: expected the end line `e o f`",
        ));
    }
    let keep = outcome.has_solution();
    let values = if keep {
        // Every key is in 1..=cols, so the first gap is at most values.len() + 1.
        if let Some(k) = (1..=cols).find(|k| !values.contains_key(k)) {
            return Err(InputError::whole(
                source,
                format!("column {k} of {cols} has no `j` line"),
            ));
        }
        ColumnValues::ByIndex(values.into_values().collect())
    } else {
        ColumnValues::None
    };
    Ok(MilpSolution {
        outcome,
        status_text: status_comment.unwrap_or(s_line),
        objective: if keep { Some(objective) } else { None },
        values,
    })
}

/// Parse `s mip|bas|ipt ROWS COLS STATUS.. OBJ` into (kind, rows, cols, outcome, obj, line).
fn parse_header(
    f: &[&str],
    source: &str,
    no: usize,
) -> Result<(Kind, usize, usize, Outcome, f64, String), InputError> {
    let err = |m: String| InputError::at(source, no, m);
    let kind = match f.get(1) {
        Some(&"mip") => Kind::Mip,
        Some(&"bas") => Kind::Basic,
        Some(&"ipt") => Kind::Interior,
        other => {
            return Err(err(format!(
                "expected `s mip`, `s bas` or `s ipt`, found solution kind {:?}",
                other.unwrap_or(&"")
            )));
        }
    };
    let want = if kind == Kind::Basic { 7 } else { 6 };
    if f.len() != want {
        let shape = if kind == Kind::Basic {
            "`s bas ROWS COLS PRIMAL_ST DUAL_ST OBJ`"
        } else {
            "`s mip|ipt ROWS COLS STATUS OBJ`"
        };
        return Err(err(format!("expected {shape}, found {} field(s)", f.len())));
    }
    let count = |s: &str, what: &str| {
        s.parse::<usize>()
            .map_err(|_| err(format!("{what} count {s:?} is not a whole number")))
    };
    let rows = count(f[2], "row")?;
    let cols = count(f[3], "column")?;
    let status = |s: &str| match s {
        "o" | "f" | "i" | "n" | "u" => Ok(s.chars().next().unwrap_or('u')),
        _ => Err(err(format!(
            "solution status {s:?} is not one of o, f, i, n, u"
        ))),
    };
    let outcome = match kind {
        Kind::Mip | Kind::Interior => match status(f[4])? {
            'o' => Outcome::Optimal,
            'f' => Outcome::Feasible,
            'n' => Outcome::Infeasible,
            _ => Outcome::Unknown,
        },
        Kind::Basic => match (status(f[4])?, status(f[5])?) {
            ('f', 'f') => Outcome::Optimal,
            // Primal feasible with no dual feasible solution: the primal is unbounded.
            ('f', 'n') => Outcome::Unbounded,
            ('f', _) => Outcome::Feasible,
            ('n', _) => Outcome::Infeasible,
            _ => Outcome::Unknown,
        },
    };
    let obj_field = f[want - 1];
    let objective = parse_number(obj_field)
        .ok_or_else(|| err(format!("objective {obj_field:?} is not a number")))?;
    Ok((kind, rows, cols, outcome, objective, f.join(" ")))
}

/// A finite number or an infinity, never NaN.
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
                "/tests/fixtures/solutions/glpk/",
                $name
            ))
        };
    }

    #[test]
    fn optimal_mip_basic_and_interior() {
        let s = parse(fixture!("mip_optimal.sol"), "m.sol").unwrap();
        assert_eq!(s.outcome, Outcome::Optimal);
        assert_eq!(s.status_text, "INTEGER OPTIMAL");
        assert_eq!(s.objective, Some(10.0));
        assert_eq!(s.values, ColumnValues::ByIndex(vec![2.0, 0.0, 1.0, -2.0]));

        let s = parse(fixture!("bas_optimal.sol"), "b.sol").unwrap();
        assert_eq!(s.outcome, Outcome::Optimal);
        assert_eq!(s.objective, Some(11.0));
        assert_eq!(s.values, ColumnValues::ByIndex(vec![3.0, 0.0, 0.5, -2.0]));

        let s = parse(fixture!("ipt_optimal.sol"), "i.sol").unwrap();
        assert_eq!(s.outcome, Outcome::Optimal);
        let ColumnValues::ByIndex(v) = &s.values else {
            panic!("{:?}", s.values)
        };
        assert_eq!(v.len(), 4);
        // The interior point lands inside the optimal face; its objective is still 11.
        assert!(
            (3.0 * v[0] + 2.0 * v[1] + 4.0 * v[2] - 11.0).abs() < 1e-6,
            "{v:?}"
        );
    }

    #[test]
    fn time_limit_with_incumbent_is_feasible() {
        let s = parse(fixture!("mip_feasible.sol"), "f.sol").unwrap();
        assert_eq!(s.outcome, Outcome::Feasible);
        assert_eq!(s.status_text, "INTEGER NON-OPTIMAL");
        assert_eq!(s.objective, Some(62519.0));
        let ColumnValues::ByIndex(v) = &s.values else {
            panic!("{:?}", s.values)
        };
        assert_eq!(v.len(), 300);
    }

    #[test]
    fn no_solution_statuses() {
        for (file, text, want) in [
            (
                "mip_empty.sol",
                fixture!("mip_empty.sol"),
                Outcome::Infeasible,
            ),
            (
                "mip_undefined.sol",
                fixture!("mip_undefined.sol"),
                Outcome::Unknown,
            ),
            (
                "bas_undefined.sol",
                fixture!("bas_undefined.sol"),
                Outcome::Unknown,
            ),
            (
                "bas_infeasible.sol",
                fixture!("bas_infeasible.sol"),
                Outcome::Infeasible,
            ),
            (
                "bas_unbounded.sol",
                fixture!("bas_unbounded.sol"),
                Outcome::Unbounded,
            ),
            (
                "ipt_infeasible.sol",
                fixture!("ipt_infeasible.sol"),
                Outcome::Infeasible,
            ),
        ] {
            let s = parse(text, file).unwrap();
            assert_eq!(s.outcome, want, "{file}");
            assert_eq!(s.values, ColumnValues::None, "{file}");
            assert_eq!(s.objective, None, "{file}");
        }
    }

    #[test]
    fn garbage_is_rejected_with_file_and_line() {
        let cases: [(&str, Option<usize>, &str); 13] = [
            ("", None, "no solution line"),
            ("c only a comment\n", None, "no solution line"),
            (
                "Optimal - objective value 1\n",
                Some(1),
                "expected a line starting",
            ),
            ("s lp 1 1 o 1\n", Some(1), "s mip"),
            ("s mip 1 1 o\n", Some(1), "field"),
            ("s mip 1 1 x 1\n", Some(1), "status"),
            ("s mip 1 one o 1\n", Some(1), "column count"),
            ("s mip 0 1 o 1\nj 1 2\n", Some(3), "ends early"),
            ("s mip 0 1 o 1\nj 2 2\ne o f\n", Some(2), "between 1 and 1"),
            ("s mip 0 1 o 1\nj 1 2\nj 1 2\ne o f\n", Some(3), "twice"),
            ("s mip 0 2 o 1\nj 1 2\ne o f\n", None, "column 2 of 2"),
            (
                "s bas 0 1 f f 1\nj 1 q 2 0\ne o f\n",
                Some(2),
                "basis status",
            ),
            ("j 1 2\n", Some(1), "before the solution"),
        ];
        for (text, line, words) in cases {
            let e = parse(text, "bad.sol").unwrap_err();
            assert_eq!(e.source_name, "bad.sol");
            assert_eq!(e.line, line, "{text:?}: {e}");
            assert!(e.message.contains(words), "{text:?}: {e}");
        }
    }

    #[test]
    fn huge_counts_in_the_solution_line_allocate_nothing() {
        // Found by fuzzing (fuzz/src/bin/solution_glpk.rs): the ROWS and COLS of the `s` line
        // sized two vectors up front, so a 20-byte header asked for petabytes and aborted.
        let huge = usize::MAX;
        let e = parse(&format!("s mip {huge} {huge} o 1\nj 1 2\ne o f\n"), "h.sol").unwrap_err();
        assert!(e.message.contains(&format!("column 2 of {huge}")), "{e}");
        let e = parse(
            &format!("s mip {huge} 1 o 1\ni {huge} 0\nj 1 2\ni {huge} 0\ne o f\n"),
            "h.sol",
        )
        .unwrap_err();
        assert_eq!(e.line, Some(4), "{e}");
        assert!(e.message.contains("listed twice"), "{e}");
        // A huge row count is no obstacle when every column has its line.
        let s = parse(
            &format!("s mip {huge} 2 o 1\nj 2 5\nj 1 4\ne o f\n"),
            "h.sol",
        )
        .unwrap();
        assert_eq!(s.values, ColumnValues::ByIndex(vec![4.0, 5.0]));
    }
}
