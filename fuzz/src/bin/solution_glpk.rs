//! `format::solution::glpk::parse`: a glpk solution file.
fn main() {
    afl::fuzz!(|data: &[u8]| {
        if let Ok(text) = std::str::from_utf8(data) {
            let _ = tilekit::format::solution::glpk::parse(text, "fuzz");
        }
    });
}
