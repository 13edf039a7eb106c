//! `format::gams::parse_gams_solution`: the `tilekit_solution.txt` a generated GAMS model
//! writes.

/// One input, as AFL++ hands it over: a panic is a finding.
pub(crate) fn run(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = tilekit::format::gams::parse_gams_solution(text, "fuzz");
    }
}
