//! `solve::registry::Registry::from_toml`: the solver registry, `solvers.toml`.

/// One input, as AFL++ hands it over: a panic is a finding.
pub(crate) fn run(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = tilekit::solve::registry::Registry::from_toml(text, "fuzz");
    }
}
