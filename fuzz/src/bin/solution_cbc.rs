//! `format::solution::cbc::parse`: a cbc solution file.
fn main() {
    afl::fuzz!(|data: &[u8]| {
        if let Ok(text) = std::str::from_utf8(data) {
            let _ = tilekit::format::solution::cbc::parse(text, "fuzz");
        }
    });
}
