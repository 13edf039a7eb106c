//! `format::solution::sat::{parse, parse_minisat}`: SAT-competition output and MiniSat's
//! result file. The input's first line is the CNF's variable count (capped: the real caller
//! takes it from a CNF header, which `parse_cnf` bounds), the rest the solver's answer.

use tilekit::format::solution::sat;

/// Largest variable count tried (the harness's bound, not the library's).
const MAX_VARS: usize = 1 << 16;

/// One input, as AFL++ hands it over: a panic is a finding.
pub(crate) fn run(data: &[u8]) {
    if let Ok(input) = std::str::from_utf8(data) {
        let (head, text) = input.split_once('\n').unwrap_or((input, ""));
        let num_vars = head.trim().parse::<usize>().unwrap_or(0).min(MAX_VARS);
        let _ = sat::parse(text, "fuzz", num_vars);
        let _ = sat::parse_minisat(text, "fuzz", num_vars);
    }
}
