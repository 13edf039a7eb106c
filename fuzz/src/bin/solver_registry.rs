//! `solve::registry::Registry::from_toml`: the solver registry, `solvers.toml`.
fn main() {
    afl::fuzz!(|data: &[u8]| {
        if let Ok(text) = std::str::from_utf8(data) {
            let _ = tilekit::solve::registry::Registry::from_toml(text, "fuzz");
        }
    });
}
