//! `format::solution::clique::{parse, parse_cliquer, parse_vertex_list}`: cliquer's result
//! lines and plain vertex lists. The input's first line is the graph's vertex count (capped),
//! the rest the answer.

use tilekit::format::solution::clique;

/// Largest vertex count tried (the harness's bound, not the library's).
const MAX_VERTICES: usize = 1 << 16;

/// One input, as AFL++ hands it over: a panic is a finding.
pub(crate) fn run(data: &[u8]) {
    if let Ok(input) = std::str::from_utf8(data) {
        let (head, text) = input.split_once('\n').unwrap_or((input, ""));
        let n = head.trim().parse::<usize>().unwrap_or(0).min(MAX_VERTICES);
        if let Ok(c) = clique::parse(text, "fuzz", n) {
            assert!(c.iter().all(|&v| v < n));
        }
        let _ = clique::parse_cliquer(text, "fuzz", n);
        let _ = clique::parse_vertex_list(text, "fuzz", n);
    }
}
