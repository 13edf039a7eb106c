//! Human and JSON renderings of what `solvers` found (solve reports and verdicts render
//! themselves: `Report::render`, `Verified::render`).

use tilekit::solve::registry::{self, Licence, Registry};

/// `tilekit solvers`: the embedded engines, then every registry entry probed, then GAMS (which
/// runs the `.gms` programs tilekit writes) with what it said of its licence.
pub(crate) fn solvers(reg: &Registry, json: bool) -> String {
    let mut rows = registry::list(reg);
    rows.push(tilekit::solve::gams::listing());
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
        "{:<w$} {:<6} {:<wi$} {:<10} version",
        "name", "kind", "input", "installed"
    )];
    for e in engines {
        out.push(format!(
            "{:<w$} {:<6} {:<wi$} {:<10} {}",
            e.name,
            e.kind.as_str(),
            "-",
            "embedded",
            (e.version)()
        ));
    }
    let mut notes = Vec::new();
    for r in rows {
        let installed = match (&r.licence, r.found) {
            (Some(Licence::Invalid { problem }), _) => {
                notes.push(format!("{}: {problem}", r.name));
                "unlicensed"
            }
            (Some(Licence::Unknown { reason }), _) => {
                notes.push(format!("{}: licence not checked: {reason}", r.name));
                "yes"
            }
            (_, true) => "yes",
            (_, false) => "no",
        };
        out.push(format!(
            "{:<w$} {:<6} {:<wi$} {:<10} {}",
            r.name,
            r.kind,
            r.input,
            installed,
            r.version.unwrap_or_else(|| "unknown".into())
        ));
    }
    out.extend(notes);
    out.join("\n")
}

/// `tilekit params`: each research parameter on one line (key, values, default), its sentence
/// beneath, grouped by the method it tunes; then the presets.
pub(crate) fn params() -> String {
    use tilekit::route::params::{PARAMS, Preset, group_words, preset_words};
    let mut out = Vec::new();
    let mut group = "";
    for p in PARAMS {
        let g = p.key.split('.').next().unwrap_or("");
        if g != group {
            if !group.is_empty() {
                out.push(String::new());
            }
            group = g;
            out.push(format!("{}:", group_words(p.key)));
        }
        out.push(format!(
            "  {}  ({}; default {})",
            p.key, p.values, p.default
        ));
        out.push(format!("      {}", p.doc));
    }
    out.push(String::new());
    out.push("presets (--preset NAME):".into());
    for p in Preset::ALL {
        out.push(format!("  {:<13} {}", p.name(), preset_words(p)));
    }
    out.push(String::new());
    out.push("Set with solve --set KEY=VALUE (repeatable) or --params FILE (TOML).".into());
    out.join("\n")
}
