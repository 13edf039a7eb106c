//! `format::dimacs_cnf::parse_cnf`: DIMACS CNF.

/// One input, as AFL++ hands it over: a panic is a finding.
pub(crate) fn run(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = tilekit::format::dimacs_cnf::parse_cnf(text, "fuzz");
    }
}
