//! Human and JSON renderings of what `solvers` found (solve reports and verdicts render
//! themselves: `Report::render`, `Verified::render`).

use tilekit::solve::registry::{self, Registry};

/// `tilekit solvers`: the embedded engines, then every registry entry probed.
pub(crate) fn solvers(reg: &Registry, json: bool) -> String {
    let rows = registry::list(reg);
    if json {
        return serde_json::to_string(&rows).unwrap_or_default();
    }
    let engines = tilekit::solve::resolve::embedded();
    // The name column fits the longest name (at least 10, the width it always had).
    let w = engines
        .iter()
        .map(|e| e.name.len())
        .chain(rows.iter().map(|r| r.name.len()))
        .fold(10, usize::max);
    // The input column fits the longest format name too (`wcnf-legacy`).
    let wi = rows.iter().map(|r| r.input.len()).fold(6, usize::max);
    let mut out = vec![format!(
        "{:<w$} {:<6} {:<wi$} {:<9} version",
        "name", "kind", "input", "installed"
    )];
    for e in engines {
        out.push(format!(
            "{:<w$} {:<6} {:<wi$} {:<9} {}",
            e.name,
            e.kind.as_str(),
            "-",
            "embedded",
            (e.version)()
        ));
    }
    for r in rows {
        out.push(format!(
            "{:<w$} {:<6} {:<wi$} {:<9} {}",
            r.name,
            r.kind,
            r.input,
            if r.found { "yes" } else { "no" },
            r.version.unwrap_or_else(|| "unknown".into())
        ));
    }
    out.join("\n")
}
