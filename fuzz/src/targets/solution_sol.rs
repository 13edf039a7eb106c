//! `format::solution::sol::parse`: a MIPLIB, SCIP or Gurobi name-value solution file.

/// One input, as AFL++ hands it over: a panic is a finding.
pub(crate) fn run(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = tilekit::format::solution::sol::parse(text, "fuzz");
    }
}
