//! `format::gams::parse_gams_solution`: the `tilekit_solution.txt` a generated GAMS model
//! writes.
fn main() {
    afl::fuzz!(|data: &[u8]| {
        if let Ok(text) = std::str::from_utf8(data) {
            let _ = tilekit::format::gams::parse_gams_solution(text, "fuzz");
        }
    });
}
