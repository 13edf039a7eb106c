//! MaxSAT solver answers on stdout, in the MaxSAT Evaluation conventions: `c` comments, `o N`
//! lines (the cost of each better model found, so never rising), exactly one
//! `s OPTIMUM FOUND|SATISFIABLE|UNSATISFIABLE|UNKNOWN` line, and the model on `v` lines.
//!
//! The `v` line comes in two forms, both read:
//! - literals, as in SAT output (`v 1 -2 3`, over one or more lines), with or without a
//!   terminating `0` (clasp ends with `0`, RC2's `rc2.py` does not);
//! - the 2022 bit string, one character per variable (`v 101`: variable 1 true, 2 false,
//!   3 true), as the MaxSAT Evaluation 2022 rules ask for.
//!
//! A line is read as a bit string when it is one token of `0`s and `1`s, longer than one
//! character (or the formula has a single variable), and no literal line is open: a literal
//! model spread over lines that leaves a lone `10` on a line of its own would be misread, and
//! then fails the length check or the route's checks, never silently.
//!
//! Variables a model leaves out are `false` (as for SAT answers; the route checks the model
//! against every hard clause and recounts its cost, so nothing here is trusted). What is
//! refused: a second `s` line, a `v` or `o` line that contradicts the `s` line, an `o` that
//! rises, a second model, a model naming a variable the formula does not have, and a model
//! answer without a model or without an `o` line.

use super::sat::{Model, shorten};
use crate::error::InputError;
use crate::model::answer::MaxsatOutcome;

/// The `s` line's statuses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Status {
    Optimum,
    Satisfiable,
    Unsatisfiable,
    Unknown,
}

impl Status {
    fn parse(s: &str) -> Option<Status> {
        match s {
            "OPTIMUM FOUND" => Some(Status::Optimum),
            "SATISFIABLE" => Some(Status::Satisfiable),
            "UNSATISFIABLE" => Some(Status::Unsatisfiable),
            "UNKNOWN" => Some(Status::Unknown),
            _ => None,
        }
    }
    fn words(self) -> &'static str {
        match self {
            Status::Optimum => "OPTIMUM FOUND",
            Status::Satisfiable => "SATISFIABLE",
            Status::Unsatisfiable => "UNSATISFIABLE",
            Status::Unknown => "UNKNOWN",
        }
    }
}

/// The model as read so far.
enum Values<'a> {
    None,
    Literals(Model<'a>),
    /// The bit string's values and its line.
    Bits(Vec<bool>, usize),
}

/// Parse a MaxSAT solver's stdout; `num_vars` is the formula's variable count.
pub fn parse(text: &str, source: &str, num_vars: usize) -> Result<MaxsatOutcome, InputError> {
    let mut status: Option<(usize, Status)> = None;
    // The last `o` line: (line, cost).
    let mut cost: Option<(usize, u64)> = None;
    let mut values = Values::None;
    // The first `v` line, for messages.
    let mut first_v: Option<usize> = None;
    for (i, line) in text.lines().enumerate() {
        let no = i + 1;
        let t = line.trim();
        if t.is_empty() || t == "c" || t.starts_with("c ") || t.starts_with("c\t") {
            continue;
        }
        if let Some(rest) = t.strip_prefix("s ") {
            if let Some((first, _)) = status {
                return Err(InputError::at(
                    source,
                    no,
                    format!("a second `s` line (the first is on line {first})"),
                ));
            }
            let s = rest.trim();
            let Some(st) = Status::parse(s) else {
                return Err(InputError::at(
                    source,
                    no,
                    format!(
                        "expected `s OPTIMUM FOUND`, `s SATISFIABLE`, `s UNSATISFIABLE` or `s UNKNOWN`, found `s {}`",
                        shorten(s)
                    ),
                ));
            };
            status = Some((no, st));
        } else if let Some(rest) = t.strip_prefix("o ") {
            let r = rest.trim();
            let c: u64 = r.parse().map_err(|_| {
                InputError::at(
                    source,
                    no,
                    format!(
                        "{:?} is not a cost (a whole number of at least 0)",
                        shorten(r)
                    ),
                )
            })?;
            if let Some((at, before)) = cost
                && c > before
            {
                return Err(InputError::at(
                    source,
                    no,
                    format!(
                        "`o {c}` rises above `o {before}` on line {at}: each `o` line reports a better model"
                    ),
                ));
            }
            cost = Some((no, c));
        } else if t == "v" || t.starts_with("v ") {
            first_v.get_or_insert(no);
            let payload = t[1..].trim();
            let open_literals = matches!(&values, Values::Literals(m) if m.terminated.is_none());
            let is_bits = !payload.is_empty()
                && !payload.contains(char::is_whitespace)
                && payload.bytes().all(|b| b == b'0' || b == b'1')
                && (payload.len() > 1 || num_vars == 1)
                && !open_literals;
            let second = |at: usize| {
                InputError::at(
                    source,
                    no,
                    format!("a second model (the first ends on line {at})"),
                )
            };
            if is_bits {
                match &values {
                    Values::None => {}
                    Values::Bits(_, at) => return Err(second(*at)),
                    Values::Literals(m) => {
                        return Err(second(m.terminated.or(m.first_line).unwrap_or(no)));
                    }
                }
                if payload.len() > num_vars {
                    return Err(InputError::at(
                        source,
                        no,
                        format!(
                            "the `v` bit string has {} values, but the formula has {num_vars} variables",
                            payload.len()
                        ),
                    ));
                }
                let mut bits: Vec<bool> = payload.bytes().map(|b| b == b'1').collect();
                bits.resize(num_vars, false);
                values = Values::Bits(bits, no);
            } else {
                if let Values::Bits(_, at) = values {
                    return Err(second(at));
                }
                if matches!(values, Values::None) {
                    values = Values::Literals(Model::new(source, num_vars));
                }
                if let Values::Literals(m) = &mut values {
                    m.add_line(payload, no)?;
                }
            }
        } else {
            return Err(InputError::at(
                source,
                no,
                format!(
                    "expected a `c`, `o`, `s` or `v` line, found {:?}",
                    shorten(t)
                ),
            ));
        }
    }
    let Some((s_line, status)) = status else {
        return Err(InputError::whole(
            source,
            "no `s` line: the solver gave no answer (expected `s OPTIMUM FOUND`, `s SATISFIABLE`, `s UNSATISFIABLE` or `s UNKNOWN`)",
        ));
    };
    let model = match values {
        Values::None => None,
        Values::Bits(b, _) => Some(b),
        Values::Literals(m) => Some(m.values()),
    };
    match status {
        Status::Optimum | Status::Satisfiable => {
            let Some(model) = model else {
                return Err(InputError::at(
                    source,
                    s_line,
                    format!("`s {}` without a model (no `v` line)", status.words()),
                ));
            };
            let Some((_, cost)) = cost else {
                return Err(InputError::at(
                    source,
                    s_line,
                    format!(
                        "`s {}` without an `o` line giving the model's cost",
                        status.words()
                    ),
                ));
            };
            Ok(if status == Status::Optimum {
                MaxsatOutcome::Optimum { cost, model }
            } else {
                MaxsatOutcome::Feasible { cost, model }
            })
        }
        Status::Unsatisfiable | Status::Unknown => {
            if let Some(v) = first_v {
                return Err(InputError::at(
                    source,
                    v,
                    format!("`v` line with `s {}`", status.words()),
                ));
            }
            match (status, cost) {
                (Status::Unsatisfiable, Some((at, c))) => Err(InputError::at(
                    source,
                    at,
                    format!(
                        "`o {c}` with `s UNSATISFIABLE`: the cost of a model the solver says does not exist"
                    ),
                )),
                (Status::Unsatisfiable, None) => Ok(MaxsatOutcome::Unsat),
                // `o` lines without a model prove nothing: no answer.
                _ => Ok(MaxsatOutcome::Unknown),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(text: &str, n: usize) -> MaxsatOutcome {
        parse(text, "out", n).unwrap()
    }
    fn err(text: &str, n: usize) -> String {
        parse(text, "out", n).unwrap_err().to_string()
    }

    #[test]
    fn literal_lines_with_and_without_the_terminating_zero() {
        // RC2 (rc2.py -vv): no terminating 0.
        let rc2 = "c formula: 3 vars, 2 hard, 3 soft\nc cost: 1; core sz: 2\ns OPTIMUM FOUND\no 1\nv 1 -2 3\nc oracle time: 0.0000\n";
        assert_eq!(
            ok(rc2, 3),
            MaxsatOutcome::Optimum {
                cost: 1,
                model: vec![true, false, true]
            }
        );
        // clasp: the model first, over two lines, ending in 0; variables left out are false.
        let clasp = "c clasp version 3.3.5\nc Answer: 1\nv -1 2\nv 0\no 1\ns OPTIMUM FOUND\n";
        assert_eq!(
            ok(clasp, 3),
            MaxsatOutcome::Optimum {
                cost: 1,
                model: vec![false, true, false]
            }
        );
    }

    #[test]
    fn the_2022_bit_string() {
        assert_eq!(
            ok("o 5\no 2\ns SATISFIABLE\nv 0110\n", 4),
            MaxsatOutcome::Feasible {
                cost: 2,
                model: vec![false, true, true, false]
            }
        );
        // Shorter than the formula: the rest false (the route checks every hard clause).
        assert_eq!(
            ok("s OPTIMUM FOUND\no 0\nv 11\n", 4),
            MaxsatOutcome::Optimum {
                cost: 0,
                model: vec![true, true, false, false]
            }
        );
        // One variable: `v 1` is both forms, and means the same.
        for text in [
            "s OPTIMUM FOUND\no 0\nv 1\n",
            "s OPTIMUM FOUND\no 0\nv 1 0\n",
        ] {
            assert_eq!(
                ok(text, 1),
                MaxsatOutcome::Optimum {
                    cost: 0,
                    model: vec![true]
                }
            );
        }
        assert!(
            err("s OPTIMUM FOUND\no 0\nv 10110\n", 4)
                .contains("bit string has 5 values, but the formula has 4 variables")
        );
    }

    #[test]
    fn a_second_s_line_is_refused() {
        let e = err("s OPTIMUM FOUND\no 0\nv 11\ns UNKNOWN\n", 2);
        assert_eq!(e, "out:4: a second `s` line (the first is on line 1)");
    }

    #[test]
    fn a_v_line_after_unsat_is_refused() {
        assert_eq!(
            err("s UNSATISFIABLE\nv 1 -2 0\n", 2),
            "out:2: `v` line with `s UNSATISFIABLE`"
        );
        assert_eq!(
            err("v 01\ns UNKNOWN\n", 2),
            "out:1: `v` line with `s UNKNOWN`"
        );
        assert_eq!(
            err("o 3\ns UNSATISFIABLE\n", 2),
            "out:1: `o 3` with `s UNSATISFIABLE`: the cost of a model the solver says does not exist"
        );
        assert_eq!(ok("c x\ns UNSATISFIABLE\n", 2), MaxsatOutcome::Unsat);
        // Costs without a model are no answer.
        assert_eq!(ok("o 4\no 3\ns UNKNOWN\n", 2), MaxsatOutcome::Unknown);
    }

    #[test]
    fn malformed_answers_name_the_line() {
        let cases = [
            ("", "no `s` line"),
            ("s OPTIMUM\n", "out:1: expected `s OPTIMUM FOUND`"),
            (
                "s OPTIMUM FOUND\nv 11\n",
                "out:1: `s OPTIMUM FOUND` without an `o` line",
            ),
            (
                "s SATISFIABLE\no 1\n",
                "out:1: `s SATISFIABLE` without a model (no `v` line)",
            ),
            ("o 1\no 2\n", "out:2: `o 2` rises above `o 1` on line 1"),
            ("o -1\n", "out:1: \"-1\" is not a cost"),
            (
                "o 1\ns OPTIMUM FOUND\nv 1 -2 0\nv 11\n",
                "out:4: a second model (the first ends on line 3)",
            ),
            (
                "o 1\ns OPTIMUM FOUND\nv 11\nv 1 2\n",
                "out:4: a second model (the first ends on line 3)",
            ),
            (
                "o 1\ns OPTIMUM FOUND\nv 1 -2 0\nv 1\n",
                "out:4: literal \"1\" after the terminating 0",
            ),
            (
                "o 1\ns OPTIMUM FOUND\nv 3 0\n",
                "out:3: literal 3 names variable 3, but the formula has 2 variables",
            ),
            (
                "o 1\ns OPTIMUM FOUND\nv 1 -1 0\n",
                "out:3: literal -1 contradicts literal 1",
            ),
            (
                "o 1\ns OPTIMUM FOUND\nv x\n",
                "out:3: \"x\" is not a literal",
            ),
            (
                "hello\n",
                "out:1: expected a `c`, `o`, `s` or `v` line, found \"hello\"",
            ),
        ];
        for (text, want) in cases {
            let e = err(text, 2);
            assert!(e.contains(want), "{text:?}: {e}");
        }
    }

    #[test]
    fn an_open_literal_line_continues_with_a_zero_one_token() {
        // `v 1 -2`, then a lone `v 10`: it continues the literals (variable 10), it is no
        // bit string, because the first line is not terminated yet.
        assert_eq!(
            ok("o 0\ns OPTIMUM FOUND\nv 1 -2\nv 10\nv 0\n", 10),
            MaxsatOutcome::Optimum {
                cost: 0,
                model: (1..=10).map(|v| v == 1 || v == 10).collect()
            }
        );
    }
}
