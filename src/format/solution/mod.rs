//! Parsers for solver output files, and [`parse_milp`], which tells a MILP solver's file by
//! its first line and reads it.

pub mod cbc;
pub mod clique;
pub mod cplex_xml;
pub mod glpk;
pub mod highs;
pub mod maxsat;
pub mod sat;
pub mod sol;

use crate::error::InputError;
use crate::model::answer::MilpSolution;

/// A MILP solution file of any form tilekit reads, recognised by its first line: CBC's, HiGHS's
/// and GLPK's own, the `name value` files of MIPLIB, SCIP and Gurobi ([`sol`]) and CPLEX's
/// XML ([`cplex_xml`]). The solution and the name of its form; `None` when the text is none
/// of them.
pub fn parse_milp(
    text: &str,
    source: &str,
) -> Result<Option<(MilpSolution, &'static str)>, InputError> {
    let first = text
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim();
    if first.starts_with("Model status") {
        return Ok(Some((highs::parse(text, source)?, "highs")));
    }
    if first.starts_with("c Problem:") || first.starts_with("s mip") || first.starts_with("s bas") {
        return Ok(Some((glpk::parse(text, source)?, "glpk")));
    }
    if let Some(dialect) = sol::Dialect::of(text) {
        return Ok(Some((sol::parse(text, source)?, dialect.name())));
    }
    if cplex_xml::looks_like(text) {
        return Ok(Some((cplex_xml::parse(text, source)?, "cplex")));
    }
    if first.contains("objective value")
        || first.starts_with("Infeasible")
        || first.starts_with("Integer infeasible")
        || first.starts_with("Unbounded")
        || first.starts_with("Stopped on")
    {
        return Ok(Some((cbc::parse(text, source)?, "cbc")));
    }
    Ok(None)
}
