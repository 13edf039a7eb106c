//! SAT solver answers: the SAT-competition output on stdout (CaDiCaL, Kissat, CryptoMiniSat,
//! varisat-cli) and MiniSat's result file (`minisat in.cnf out.txt`).
//!
//! Competition format: `c` comments, exactly one `s SATISFIABLE|UNSATISFIABLE|UNKNOWN`, and
//! for SAT one or more `v` lines of literals, the last ending in `0`. The model may be partial:
//! variables it leaves out come back `false` (the caller verifies the model against the CNF).
//! MiniSat's file holds `SAT` and one literal line ending in `0`, or `UNSAT`, or `INDET`.

use crate::error::InputError;
use crate::model::answer::SatOutcome;

/// Parse SAT-competition output; `num_vars` is the CNF's variable count.
pub fn parse(text: &str, source: &str, num_vars: usize) -> Result<SatOutcome, InputError> {
    let mut status: Option<(usize, &str)> = None;
    let mut model = Model::new(source, num_vars);
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
            if !matches!(s, "SATISFIABLE" | "UNSATISFIABLE" | "UNKNOWN") {
                return Err(InputError::at(
                    source,
                    no,
                    format!(
                        "expected `s SATISFIABLE`, `s UNSATISFIABLE` or `s UNKNOWN`, found `s {s}`"
                    ),
                ));
            }
            status = Some((no, s));
        } else if t == "v" || t.starts_with("v ") {
            model.add_line(&t[1..], no)?;
        } else {
            return Err(InputError::at(
                source,
                no,
                format!("expected a `c`, `s` or `v` line, found {:?}", shorten(t)),
            ));
        }
    }
    let Some((s_line, status)) = status else {
        return Err(InputError::whole(
            source,
            "no `s` line: the solver gave no answer (expected `s SATISFIABLE`, `s UNSATISFIABLE` or `s UNKNOWN`)",
        ));
    };
    match status {
        "SATISFIABLE" => model.finish(s_line),
        _ => match model.first_line {
            Some(v) => Err(InputError::at(
                source,
                v,
                format!("`v` line after `s {status}`"),
            )),
            None if status == "UNSATISFIABLE" => Ok(SatOutcome::Unsat),
            None => Ok(SatOutcome::Unknown),
        },
    }
}

/// Parse MiniSat's result file (`SAT` + literals, `UNSAT` or `INDET`).
pub fn parse_minisat(text: &str, source: &str, num_vars: usize) -> Result<SatOutcome, InputError> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty());
    let Some((no, first)) = lines.next() else {
        return Err(InputError::whole(
            source,
            "empty MiniSat result file: expected `SAT`, `UNSAT` or `INDET`",
        ));
    };
    let outcome = match first {
        "SAT" => {
            let mut model = Model::new(source, num_vars);
            for (no, l) in lines.by_ref() {
                model.add_line(l, no)?;
            }
            return model.finish(no);
        }
        "UNSAT" => SatOutcome::Unsat,
        "INDET" => SatOutcome::Unknown,
        other => {
            return Err(InputError::at(
                source,
                no,
                format!(
                    "expected `SAT`, `UNSAT` or `INDET`, found {:?}",
                    shorten(other)
                ),
            ));
        }
    };
    match lines.next() {
        Some((no, _)) => Err(InputError::at(
            source,
            no,
            format!("unexpected line after `{first}`"),
        )),
        None => Ok(outcome),
    }
}

/// A model being gathered from literal lines (shared with the MaxSAT parser, whose `v` lines
/// may be literals too).
pub(super) struct Model<'a> {
    source: &'a str,
    /// Per variable: `None` unassigned, else its value and the line that set it.
    values: Vec<Option<(bool, usize)>>,
    /// The first literal line.
    pub(super) first_line: Option<usize>,
    /// The line of the terminating 0, once read.
    pub(super) terminated: Option<usize>,
}

impl<'a> Model<'a> {
    pub(super) fn new(source: &'a str, num_vars: usize) -> Self {
        Model {
            source,
            values: vec![None; num_vars],
            first_line: None,
            terminated: None,
        }
    }

    pub(super) fn add_line(&mut self, text: &str, no: usize) -> Result<(), InputError> {
        let err = |m: String| InputError::at(self.source, no, m);
        self.first_line.get_or_insert(no);
        for tok in text.split_whitespace() {
            if let Some(end) = self.terminated {
                return Err(err(format!(
                    "literal {tok:?} after the terminating 0 (line {end})"
                )));
            }
            let lit: i64 = tok
                .parse()
                .map_err(|_| err(format!("{tok:?} is not a literal (a non-zero integer)")))?;
            if lit == 0 {
                self.terminated = Some(no);
                continue;
            }
            let var = lit.unsigned_abs();
            let n = self.values.len();
            let slot = usize::try_from(var)
                .ok()
                .filter(|v| *v <= n)
                .and_then(|v| self.values.get_mut(v - 1))
                .ok_or_else(|| {
                    err(format!(
                        "literal {lit} names variable {var}, but the formula has {n} variables"
                    ))
                })?;
            let value = lit > 0;
            match *slot {
                Some((old, at)) if old != value => {
                    return Err(err(format!(
                        "literal {lit} contradicts literal {} on line {at}",
                        -lit
                    )));
                }
                _ => *slot = Some((value, no)),
            }
        }
        Ok(())
    }

    pub(super) fn finish(self, status_line: usize) -> Result<SatOutcome, InputError> {
        if self.terminated.is_none() {
            let at = self.first_line.unwrap_or(status_line);
            let what = if self.first_line.is_some() {
                "the model is not terminated by 0 (truncated output?)"
            } else {
                "a satisfiable answer without a model"
            };
            return Err(InputError::at(self.source, at, what.to_string()));
        }
        Ok(SatOutcome::Sat(self.values()))
    }

    /// The values read so far, unassigned variables false (terminated or not: a MaxSAT `v`
    /// line of literals need not end in 0).
    pub(super) fn values(self) -> Vec<bool> {
        self.values
            .into_iter()
            .map(|v| v.is_some_and(|(b, _)| b))
            .collect()
    }
}

/// At most 40 characters of a line, for messages.
pub(super) fn shorten(s: &str) -> String {
    match s.char_indices().nth(40) {
        Some((i, _)) => format!("{}...", &s[..i]),
        None => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    macro_rules! fixture {
        ($name:literal) => {
            include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/fixtures/solutions/",
                $name
            ))
        };
    }

    /// Check a model against the fixture CNF, so a parser that scrambles literals fails.
    fn satisfies(cnf: &str, model: &[bool]) -> bool {
        cnf.lines()
            .filter(|l| !l.starts_with('c') && !l.starts_with('p') && !l.trim().is_empty())
            .all(|l| {
                l.split_whitespace()
                    .map(|t| t.parse::<i64>().unwrap())
                    .take_while(|&x| x != 0)
                    .any(|x| model[x.unsigned_abs() as usize - 1] == (x > 0))
            })
    }

    #[test]
    fn competition_sat_answers_satisfy_the_formula() {
        let cnf = fixture!("models/sat.cnf");
        for (file, text) in [
            ("cadical_sat.out", fixture!("sat/cadical_sat.out")),
            ("kissat_sat.out", fixture!("sat/kissat_sat.out")),
        ] {
            // Several `v` lines in both fixtures.
            assert!(text.lines().filter(|l| l.starts_with("v ")).count() > 1);
            let SatOutcome::Sat(m) = parse(text, file, 120).unwrap() else {
                panic!("{file}")
            };
            assert_eq!(m.len(), 120);
            assert!(satisfies(cnf, &m), "{file}");
        }
    }

    #[test]
    fn competition_unsat_and_unknown() {
        assert_eq!(
            parse(fixture!("sat/cadical_unsat.out"), "c", 12).unwrap(),
            SatOutcome::Unsat
        );
        assert_eq!(
            parse(fixture!("sat/kissat_unsat.out"), "k", 12).unwrap(),
            SatOutcome::Unsat
        );
        assert_eq!(
            parse(fixture!("sat/kissat_unknown.out"), "k", 156).unwrap(),
            SatOutcome::Unknown
        );
        // CaDiCaL 1.5.3 prints only `c UNKNOWN` at its time limit: no answer, so an error here;
        // the solve layer turns "exit 0 and no `s` line" into Unknown.
        let e = parse(fixture!("sat/cadical_unknown.out"), "c.out", 156).unwrap_err();
        assert!(e.message.contains("no `s` line"), "{e}");
    }

    #[test]
    fn minisat_result_files() {
        let SatOutcome::Sat(m) = parse_minisat(fixture!("sat/minisat_sat.txt"), "m", 120).unwrap()
        else {
            panic!("expected SAT")
        };
        assert!(satisfies(fixture!("models/sat.cnf"), &m));
        assert_eq!(
            parse_minisat(fixture!("sat/minisat_unsat.txt"), "m", 12).unwrap(),
            SatOutcome::Unsat
        );
        assert_eq!(
            parse_minisat(fixture!("sat/minisat_indet.txt"), "m", 156).unwrap(),
            SatOutcome::Unknown
        );
    }

    #[test]
    fn partial_models_leave_variables_false() {
        assert_eq!(
            parse("s SATISFIABLE\nv 2\nv -3 0\n", "p", 4).unwrap(),
            SatOutcome::Sat(vec![false, true, false, false])
        );
    }

    #[test]
    fn bad_competition_output_is_rejected() {
        let cases: [(&str, Option<usize>, &str); 10] = [
            ("", None, "no `s` line"),
            ("c hello\nv 1 0\n", None, "no `s` line"),
            ("s SATISFIABLE\ns SATISFIABLE\n", Some(2), "second `s` line"),
            ("s MAYBE\n", Some(1), "expected `s SATISFIABLE`"),
            ("s SATISFIABLE\nv 1 -2\n", Some(2), "not terminated"),
            ("s SATISFIABLE\n", Some(1), "without a model"),
            ("s SATISFIABLE\nv 1 -1 0\n", Some(2), "contradicts"),
            ("s SATISFIABLE\nv 1 4 0\n", Some(2), "3 variables"),
            (
                "s SATISFIABLE\nv 1 0\nv 2 0\n",
                Some(3),
                "after the terminating 0",
            ),
            (
                "s UNSATISFIABLE\nv 1 0\n",
                Some(2),
                "after `s UNSATISFIABLE`",
            ),
        ];
        for (text, line, words) in cases {
            let e = parse(text, "out.txt", 3).unwrap_err();
            assert_eq!(e.source_name, "out.txt");
            assert_eq!(e.line, line, "{text:?}: {e}");
            assert!(e.message.contains(words), "{text:?}: {e}");
        }
        let e = parse("s SATISFIABLE\nv 1 x 0\n", "o", 3).unwrap_err();
        assert!(e.message.contains("not a literal"), "{e}");
        let e = parse("Segmentation fault\n", "o", 3).unwrap_err();
        assert_eq!(e.line, Some(1));
    }

    #[test]
    fn bad_minisat_files_are_rejected() {
        let cases: [(&str, Option<usize>, &str); 5] = [
            ("", None, "empty"),
            ("SATISFIABLE\n", Some(1), "expected `SAT`"),
            ("SAT\n1 -2\n", Some(2), "not terminated"),
            ("SAT\n1 -1 0\n", Some(2), "contradicts"),
            ("UNSAT\n1 0\n", Some(2), "unexpected line"),
        ];
        for (text, line, words) in cases {
            let e = parse_minisat(text, "r.txt", 3).unwrap_err();
            assert_eq!(e.line, line, "{text:?}: {e}");
            assert!(e.message.contains(words), "{text:?}: {e}");
        }
    }
}
