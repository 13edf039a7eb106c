//! The `name value` solution files most MILP solvers write, in their three dialects:
//!
//! - **MIPLIB** (`.sol`, what the MIPLIB checker reads, and what SCIP and others write on
//!   request): `=obj= VALUE` then one `name value` line per variable; `=infeas=` for a model
//!   with no solution.
//! - **SCIP** (`write solution`): `solution status: …`, `objective value: VALUE`, then
//!   `name value (obj:c)` lines; `no solution available` when there is none. Its best-solution
//!   file (`writeBestSol`) is the same without the status line.
//! - **Gurobi** (`ResultFile=x.sol`): `# Solution for model …`, `# Objective value = VALUE`,
//!   then `name value` lines.
//!
//! In all three a variable not listed is 0 (MIPLIB's convention: solvers leave zeros out). A
//! name listed twice is an error on its line; a name the model lacks is found when the values
//! are mapped onto the model ([`crate::model::answer::ResolveError::UnknownName`]). Only SCIP
//! says whether a solution is optimal; the others give a solution without a claim
//! ([`Outcome::Feasible`]).
//!
//! ```
//! use tilekit::format::solution::sol;
//! use tilekit::model::answer::{ColumnValues, Outcome};
//! let s = sol::parse("=obj= 3\nx 1\ny 2\n", "a.sol").unwrap();
//! assert_eq!(s.outcome, Outcome::Feasible);
//! assert_eq!(s.objective, Some(3.0));
//! assert_eq!(s.values, ColumnValues::ByName(vec![("x".into(), 1.0), ("y".into(), 2.0)]));
//! ```

use crate::error::InputError;
use crate::model::answer::{ColumnValues, MilpSolution, Outcome};

/// Which of the dialects a file is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// MIPLIB's `=obj=` form.
    Miplib,
    /// SCIP's `solution status:` form.
    Scip,
    /// Gurobi's `# Objective value =` form.
    Gurobi,
}

impl Dialect {
    /// The dialect whose header `text` starts with (its first non-blank line), if any.
    pub fn of(text: &str) -> Option<Dialect> {
        let first = text.lines().find(|l| !l.trim().is_empty())?.trim();
        if first.starts_with("=obj=") || first.starts_with("=infeas=") {
            Some(Dialect::Miplib)
        } else if first.starts_with("solution status:") || first.starts_with("objective value:") {
            Some(Dialect::Scip)
        } else if first.starts_with("# Solution for model")
            || first.starts_with("# Objective value")
        {
            Some(Dialect::Gurobi)
        } else {
            None
        }
    }

    /// The name reports give the file's writer.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::Miplib => "miplib",
            Dialect::Scip => "scip",
            Dialect::Gurobi => "gurobi",
        }
    }
}

/// Parse a `name value` solution file in any of the three dialects; `source` names it in
/// error messages.
pub fn parse(text: &str, source: &str) -> Result<MilpSolution, InputError> {
    let dialect = Dialect::of(text).ok_or_else(|| {
        InputError::whole(
            source,
            "not a name-value solution file: expected `=obj= VALUE` (MIPLIB), \
             `solution status:` (SCIP) or `# Objective value = VALUE` (Gurobi) first",
        )
    })?;
    let mut outcome = Outcome::Feasible;
    let mut status = String::new();
    let mut objective = None;
    let mut values: Vec<(String, f64)> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (i, line) in text.lines().enumerate() {
        let no = i + 1;
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        let number = |v: &str, what: &str| {
            parse_number(v)
                .ok_or_else(|| InputError::at(source, no, format!("{what} {v:?} is not a number")))
        };
        // The header lines of each dialect.
        match dialect {
            Dialect::Miplib => {
                if let Some(v) = t.strip_prefix("=obj=") {
                    objective = Some(number(v.trim(), "the objective value")?);
                    status = t.to_string();
                    continue;
                }
                if t.starts_with("=infeas=") {
                    outcome = Outcome::Infeasible;
                    status = t.to_string();
                    continue;
                }
            }
            Dialect::Scip => {
                if let Some(s) = t.strip_prefix("solution status:") {
                    status = s.trim().to_string();
                    outcome = scip_outcome(&status);
                    continue;
                }
                if let Some(v) = t.strip_prefix("objective value:") {
                    objective = Some(number(v.trim(), "the objective value")?);
                    continue;
                }
                if t == "no solution available" {
                    if outcome.has_solution() {
                        outcome = Outcome::Unknown;
                    }
                    continue;
                }
            }
            Dialect::Gurobi => {
                if let Some(v) = t.strip_prefix("# Objective value =") {
                    objective = Some(number(v.trim(), "the objective value")?);
                    status = t.trim_start_matches('#').trim().to_string();
                    continue;
                }
                if t.starts_with('#') {
                    continue;
                }
            }
        }
        let mut fields = t.split_whitespace();
        let (Some(name), Some(value)) = (fields.next(), fields.next()) else {
            return Err(InputError::at(
                source,
                no,
                format!("expected `name value`, found {t:?}"),
            ));
        };
        // SCIP adds the objective coefficient as `(obj:c)`; nothing else may follow.
        let rest: Vec<&str> = fields.collect();
        let extra_ok = match dialect {
            Dialect::Scip => rest.is_empty() || (rest.len() == 1 && rest[0].starts_with("(obj:")),
            _ => rest.is_empty(),
        };
        if !extra_ok {
            return Err(InputError::at(
                source,
                no,
                format!("expected `name value`, found more after the value: {t:?}"),
            ));
        }
        // The message is built only on a bad value: a file may hold millions of lines.
        let value = parse_number(value).ok_or_else(|| {
            InputError::at(
                source,
                no,
                format!("the value of {name} {value:?} is not a number"),
            )
        })?;
        if !seen.insert(name.to_string()) {
            return Err(InputError::at(
                source,
                no,
                format!("variable {name} is listed twice"),
            ));
        }
        values.push((name.to_string(), value));
    }
    if outcome == Outcome::Infeasible && !values.is_empty() {
        return Err(InputError::whole(
            source,
            "the file says the model is infeasible (`=infeas=`) and lists values too",
        ));
    }
    if dialect != Dialect::Scip && objective.is_none() && outcome != Outcome::Infeasible {
        return Err(InputError::whole(
            source,
            "no objective line: expected `=obj= VALUE` (MIPLIB) or `# Objective value = VALUE` \
             (Gurobi)",
        ));
    }
    let keep = outcome.has_solution();
    Ok(MilpSolution {
        outcome,
        status_text: if status.is_empty() {
            dialect.name().to_string()
        } else {
            status
        },
        objective: if keep { objective } else { None },
        values: if keep {
            ColumnValues::ByName(values)
        } else {
            ColumnValues::None
        },
    })
}

/// SCIP's status line, as SCIP 8 and 9 word it.
fn scip_outcome(status: &str) -> Outcome {
    let s = status.to_ascii_lowercase();
    if s.starts_with("optimal") {
        Outcome::Optimal
    } else if s.starts_with("infeasible") {
        Outcome::Infeasible
    } else if s.starts_with("unbounded") || s.contains("infeasible or unbounded") {
        Outcome::Unbounded
    } else {
        // A limit (time, nodes, gap, solutions) or an interrupt: the solution listed, if any,
        // is a solution without a claim.
        Outcome::Feasible
    }
}

/// A number as solvers print them (`1`, `-0`, `1e-09`, `inf` is not one).
fn parse_number(s: &str) -> Option<f64> {
    s.parse::<f64>().ok().filter(|v| v.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_dialect_is_read() {
        let m = parse("=obj= 11\nx#1 1\nu#2#3   1\n", "m.sol").unwrap();
        assert_eq!((m.outcome, m.objective), (Outcome::Feasible, Some(11.0)));
        assert_eq!(
            m.values,
            ColumnValues::ByName(vec![("x#1".into(), 1.0), ("u#2#3".into(), 1.0)])
        );
        let s = parse(
            "solution status: optimal solution found\nobjective value:            11\nx#1     1 \t(obj:1)\ny  0.5 (obj:0)\n",
            "s.sol",
        )
        .unwrap();
        assert_eq!((s.outcome, s.objective), (Outcome::Optimal, Some(11.0)));
        assert_eq!(s.status_text, "optimal solution found");
        let g = parse(
            "# Solution for model neos\n# Objective value = 1.1000000000000000e+01\nx#1 1\n",
            "g.sol",
        )
        .unwrap();
        assert_eq!((g.outcome, g.objective), (Outcome::Feasible, Some(11.0)));
        let inf = parse("=infeas=\n", "i.sol").unwrap();
        assert_eq!(inf.outcome, Outcome::Infeasible);
        assert_eq!(inf.values, ColumnValues::None);
        let none = parse(
            "solution status: infeasible\nno solution available\n",
            "n.sol",
        )
        .unwrap();
        assert_eq!(none.outcome, Outcome::Infeasible);
        let limit = parse(
            "solution status: time limit reached\nno solution available\n",
            "t.sol",
        )
        .unwrap();
        assert_eq!(limit.outcome, Outcome::Unknown);
    }

    #[test]
    fn bad_files_get_one_message_with_the_line() {
        let e = parse("=obj= 3\nx 1\nx 2\n", "d.sol")
            .unwrap_err()
            .to_string();
        assert_eq!(e, "d.sol:3: variable x is listed twice");
        let e = parse("=obj= 3\nx one\n", "v.sol").unwrap_err().to_string();
        assert_eq!(e, "v.sol:2: the value of x \"one\" is not a number");
        let e = parse("=obj= 3\nx 1 2\n", "f.sol").unwrap_err().to_string();
        assert!(
            e.starts_with("f.sol:2: expected `name value`, found more"),
            "{e}"
        );
        let e = parse("=infeas=\nx 1\n", "i.sol").unwrap_err().to_string();
        assert!(e.contains("infeasible"), "{e}");
        assert!(parse("x 1\n", "n.sol").is_err());
        let e = parse("# Solution for model m\nx 1\n", "g.sol")
            .unwrap_err()
            .to_string();
        assert!(e.contains("no objective line"), "{e}");
    }
}
