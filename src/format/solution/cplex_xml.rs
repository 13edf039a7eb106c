//! CPLEX's XML solution files (`write x.sol`, the `CPLEXSolution` document, version 1.2):
//! a `<header>` whose attributes give the objective and the status, then
//! `<variable name="…" value="…"/>` elements under `<variables>`. Status codes are CPLEX's
//! (`CPXMIP_OPTIMAL` 101 and `CPXMIP_OPTIMAL_TOL` 102 optimal, 103 infeasible, 118 and 119
//! unbounded, and the limits that keep a solution: 104 to 113, 128 to 131). A variable not
//! listed is 0, as in the other name-value files.
//!
//! ```
//! use tilekit::format::solution::cplex_xml;
//! use tilekit::model::answer::Outcome;
//! let xml = r#"<?xml version="1.0"?><CPLEXSolution version="1.2">
//!  <header objectiveValue="3" solutionStatusValue="101"
//!          solutionStatusString="integer optimal solution"/>
//!  <variables><variable name="x" index="0" value="1"/></variables></CPLEXSolution>"#;
//! let s = cplex_xml::parse(xml, "a.sol").unwrap();
//! assert_eq!((s.outcome, s.objective), (Outcome::Optimal, Some(3.0)));
//! ```

use crate::error::InputError;
use crate::model::answer::{ColumnValues, MilpSolution, Outcome};
use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};

/// True when `text` is a CPLEX solution document (its root element is `CPLEXSolution`).
pub fn looks_like(text: &str) -> bool {
    let t = text.trim_start();
    (t.starts_with("<?xml") || t.starts_with("<CPLEXSolution")) && t.contains("<CPLEXSolution")
}

/// Parse a CPLEX XML solution; `source` names it in error messages.
pub fn parse(text: &str, source: &str) -> Result<MilpSolution, InputError> {
    let mut reader = Reader::from_str(text);
    let mut status: Option<(i64, String)> = None;
    let mut objective = None;
    let mut values: Vec<(String, f64)> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut root = false;
    // The 1-based line of a byte offset, for messages.
    let line_of = |pos: u64| {
        let end = usize::try_from(pos).unwrap_or(text.len()).min(text.len());
        text.as_bytes()[..end]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1
    };
    loop {
        // Errors name the line where the element ends (the line of a one-line element).
        let ev = reader.read_event().map_err(|e| {
            let at = reader.error_position();
            InputError::at(source, line_of(at), format!("not well-formed XML: {e}"))
        })?;
        let at = reader.buffer_position();
        let element = match &ev {
            Event::Start(s) | Event::Empty(s) => s,
            Event::Eof => break,
            _ => continue,
        };
        let name = String::from_utf8_lossy(element.name().as_ref().as_bytes()).to_string();
        let err = |msg: String| InputError::at(source, line_of(at), msg);
        match name.as_str() {
            "CPLEXSolution" => root = true,
            "header" => {
                let value = attribute(element, "solutionStatusValue", &err)?;
                let code = value
                    .as_deref()
                    .map(|v| {
                        v.parse::<i64>().map_err(|_| {
                            err(format!("solutionStatusValue {v:?} is not a whole number"))
                        })
                    })
                    .transpose()?;
                let words = attribute(element, "solutionStatusString", &err)?.unwrap_or_default();
                status = code.map(|c| (c, words));
                if let Some(v) = attribute(element, "objectiveValue", &err)? {
                    objective = Some(
                        number(&v)
                            .ok_or_else(|| err(format!("objectiveValue {v:?} is not a number")))?,
                    );
                }
            }
            "variable" => {
                let var = attribute(element, "name", &err)?
                    .ok_or_else(|| err("a <variable> without a name".into()))?;
                let v = attribute(element, "value", &err)?
                    .ok_or_else(|| err(format!("variable {var} has no value")))?;
                let value = number(&v)
                    .ok_or_else(|| err(format!("the value of {var} {v:?} is not a number")))?;
                if !seen.insert(var.clone()) {
                    return Err(err(format!("variable {var} is listed twice")));
                }
                values.push((var, value));
            }
            _ => {}
        }
    }
    if !root {
        return Err(InputError::whole(
            source,
            "not a CPLEX solution: expected a <CPLEXSolution> document",
        ));
    }
    let (code, words) = status.ok_or_else(|| {
        InputError::whole(
            source,
            "the <header> gives no solutionStatusValue: CPLEX writes one with every solution",
        )
    })?;
    let outcome = match code {
        1 | 101 | 102 => Outcome::Optimal,
        3 | 103 => Outcome::Infeasible,
        2 | 4 | 118 | 119 => Outcome::Unbounded,
        _ if !values.is_empty() => Outcome::Feasible,
        107 | 108 | 11 => Outcome::TimeLimit,
        _ => Outcome::Unknown,
    };
    let keep = outcome.has_solution();
    Ok(MilpSolution {
        outcome,
        status_text: if words.is_empty() {
            format!("CPLEX status {code}")
        } else {
            words
        },
        objective: if keep { objective } else { None },
        values: if keep {
            ColumnValues::ByName(values)
        } else {
            ColumnValues::None
        },
    })
}

/// An attribute's value, unescaped; `None` when the element lacks it.
fn attribute(
    element: &BytesStart<'_>,
    key: &str,
    err: &dyn Fn(String) -> InputError,
) -> Result<Option<String>, InputError> {
    for a in element.attributes() {
        let a = a.map_err(|e| err(format!("a malformed attribute: {e}")))?;
        if a.key.as_ref().as_bytes() == key.as_bytes() {
            let v = a
                .normalized_value(quick_xml::XmlVersion::Implicit1_0)
                .map_err(|e| err(format!("attribute {key}: {e}")))?;
            return Ok(Some(v.into_owned()));
        }
    }
    Ok(None)
}

fn number(s: &str) -> Option<f64> {
    s.trim().parse::<f64>().ok().filter(|v| v.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;

    const OPTIMAL: &str = r#"<?xml version = "1.0" encoding="UTF-8" standalone="yes"?>
<CPLEXSolution version="1.2">
 <header
   problemName="m.lp"
   objectiveValue="11"
   solutionTypeValue="3"
   solutionStatusValue="101"
   solutionStatusString="integer optimal solution"/>
 <linearConstraints>
  <constraint name="c1" index="0" slack="0"/>
 </linearConstraints>
 <variables>
  <variable name="x#1" index="0" value="1"/>
  <variable name="y" index="1" value="-0"/>
 </variables>
</CPLEXSolution>
"#;

    #[test]
    fn an_optimal_solution_is_read() {
        let s = parse(OPTIMAL, "c.sol").unwrap();
        assert!(looks_like(OPTIMAL));
        assert_eq!((s.outcome, s.objective), (Outcome::Optimal, Some(11.0)));
        assert_eq!(s.status_text, "integer optimal solution");
        assert_eq!(
            s.values,
            ColumnValues::ByName(vec![("x#1".into(), 1.0), ("y".into(), -0.0)])
        );
    }

    #[test]
    fn statuses_and_bad_files() {
        let inf = OPTIMAL
            .replace("101", "103")
            .replace("<variable name=\"x#1\" index=\"0\" value=\"1\"/>", "")
            .replace("<variable name=\"y\" index=\"1\" value=\"-0\"/>", "");
        assert_eq!(parse(&inf, "i.sol").unwrap().outcome, Outcome::Infeasible);
        let limit = OPTIMAL.replace("101", "107");
        assert_eq!(parse(&limit, "t.sol").unwrap().outcome, Outcome::Feasible);
        let twice = OPTIMAL.replace("name=\"y\"", "name=\"x#1\"");
        let e = parse(&twice, "d.sol").unwrap_err().to_string();
        assert_eq!(e, "d.sol:14: variable x#1 is listed twice");
        let bad = OPTIMAL.replace("value=\"1\"", "value=\"one\"");
        let e = parse(&bad, "v.sol").unwrap_err().to_string();
        assert!(e.starts_with("v.sol:13: the value of x#1"), "{e}");
        assert!(parse("<other/>", "o.xml").is_err());
        assert!(!looks_like("=obj= 3"));
    }
}
