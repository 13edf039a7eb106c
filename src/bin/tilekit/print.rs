//! Human and JSON renderings of what `verify` and `solvers` found (solve reports render
//! themselves: `Report::render`, shared with `neos`).

use tilekit::route::edge::Verification;
use tilekit::solve::registry::{self, Registry};
use tilekit::verify::Verdict;

/// `verify` of a sliding solution.
pub(crate) fn sliding_verdict(v: &Verdict, json: bool) -> String {
    if json {
        serde_json::to_string(v).unwrap_or_default()
    } else if v.valid {
        format!("valid: {} moves reach the goal", v.objective.unwrap_or(0.0))
    } else {
        format!("invalid: {}", v.errors.join("; "))
    }
}

/// `verify` of an edge-matching board or raw solver output.
pub(crate) fn edge_verification(v: &Verification, json: bool) -> String {
    match v {
        Verification::Raw(v) if json => serde_json::to_string(v).unwrap_or_default(),
        Verification::Board(v) if json => serde_json::to_string(v).unwrap_or_default(),
        Verification::Raw(v) if v.valid => {
            let m = v.matched.unwrap_or(0);
            format!(
                "valid: {m} of {} inner edges matched ({} unmatched; {} output of the {} {})",
                v.max,
                v.max - m,
                v.solver,
                v.variant,
                v.model
            )
        }
        Verification::Board(v) if v.valid => format!(
            "valid: {} of {} inner edges matched ({} unmatched)",
            v.matched,
            v.max,
            v.max - v.matched
        ),
        Verification::Raw(v) => format!("invalid: {}", v.errors.join("; ")),
        Verification::Board(v) => format!("invalid: {}", v.errors.join("; ")),
    }
}

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
    let mut out = vec![format!(
        "{:<w$} {:<6} {:<6} {:<9} version",
        "name", "kind", "input", "installed"
    )];
    for e in engines {
        out.push(format!(
            "{:<w$} {:<6} {:<6} {:<9} {}",
            e.name,
            e.kind.as_str(),
            "-",
            "embedded",
            (e.version)()
        ));
    }
    for r in rows {
        out.push(format!(
            "{:<w$} {:<6} {:<6} {:<9} {}",
            r.name,
            r.kind,
            r.input,
            if r.found { "yes" } else { "no" },
            r.version.unwrap_or_default()
        ));
    }
    out.join("\n")
}
