//! `format::solution::highs::parse`: a highs solution file.
fn main() {
    afl::fuzz!(|data: &[u8]| {
        if let Ok(text) = std::str::from_utf8(data) {
            let _ = tilekit::format::solution::highs::parse(text, "fuzz");
        }
    });
}
