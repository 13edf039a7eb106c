//! `format::dimacs_cnf::parse_cnf`: DIMACS CNF.
fn main() {
    afl::fuzz!(|data: &[u8]| {
        if let Ok(text) = std::str::from_utf8(data) {
            let _ = tilekit::format::dimacs_cnf::parse_cnf(text, "fuzz");
        }
    });
}
