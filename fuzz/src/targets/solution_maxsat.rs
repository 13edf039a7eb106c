//! `format::solution::maxsat::parse`: a MaxSAT solver's stdout (`o`, `s` and `v` lines, the
//! model as literals or as the 2022 bit string). The input's first line is the formula's
//! variable count (capped: the real caller takes it from the WCNF it built), the rest the
//! solver's answer.

use tilekit::format::solution::maxsat;

/// Largest variable count tried (the harness's bound, not the library's).
const MAX_VARS: usize = 1 << 16;

/// One input, as AFL++ hands it over: a panic is a finding.
pub(crate) fn run(data: &[u8]) {
    if let Ok(input) = std::str::from_utf8(data) {
        let (head, text) = input.split_once('\n').unwrap_or((input, ""));
        let num_vars = head.trim().parse::<usize>().unwrap_or(0).min(MAX_VARS);
        let _ = maxsat::parse(text, "fuzz", num_vars);
    }
}
