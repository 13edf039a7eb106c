//! The house's one-way rule, enforced: every production import in `src/` (the library; the
//! binary may use anything) must point at a module of a lower level than its own. Test modules
//! (`#[cfg(test)]` and below) may reach anywhere.
//!
//! Levels, from the ground up (ARCHITECTURE.md draws them):
//! 0 `error`, `field` · 1 `model`, `puzzle` · 2 `formulate`, `verify` · 3 `format` · 4 `solve` ·
//! 5 `neos`, `search`, `heuristic`, `render` · 6 `certify`, `learn` · 7 `route` ·
//! 8 `campaign`. `verify` is
//! stricter still: it reads only `puzzle`, `model` and `error`, so that no encoder code can
//! vouch for itself. `format` reads only `model`, `error` and `field`: a writer lays out a model it is
//! handed, and a puzzle reaches it only through a formulation's model (for GAMS,
//! `model::algebraic`).

use std::path::{Path, PathBuf};

fn level(module: &str) -> Option<u8> {
    Some(match module {
        "error" | "field" | "rng" | "work" => 0,
        "model" | "puzzle" => 1,
        "formulate" | "verify" => 2,
        "format" => 3,
        "solve" => 4,
        "neos" | "search" | "render" | "edge_search" => 5,
        "certify" | "learn" => 6,
        "route" => 7,
        "campaign" => 8,
        _ => return None,
    })
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The `crate::<module>` names a line refers to.
fn crate_refs(line: &str) -> Vec<&str> {
    let mut refs = Vec::new();
    let mut rest = line;
    while let Some(i) = rest.find("crate::") {
        let after = &rest[i + "crate::".len()..];
        let end = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(after.len());
        refs.push(&after[..end]);
        rest = &after[end..];
    }
    refs
}

/// Every import of `src/` (outside test modules) that runs against the levels.
fn violations(root: &Path) -> Vec<String> {
    let src = root.join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut bad = Vec::new();
    for file in files {
        let rel = file.strip_prefix(&src).unwrap();
        let module = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_string();
        if module == "bin" || module == "lib" || module == "main" {
            continue;
        }
        let Some(own) = level(&module) else {
            bad.push(format!(
                "{}: module {module} has no level: add it to this test and to ARCHITECTURE.md",
                rel.display()
            ));
            continue;
        };
        let text = std::fs::read_to_string(&file).unwrap();
        for (n, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("#[cfg(test)]") {
                break;
            }
            let code = line.split("//").next().unwrap_or("");
            for target in crate_refs(code) {
                if target == module {
                    continue;
                }
                let ok = match level(target) {
                    // Re-exports at the crate root (`crate::Goal`) are not modules.
                    None => target.chars().next().is_some_and(char::is_uppercase),
                    Some(l) if module == "verify" => {
                        matches!(target, "puzzle" | "model" | "error") && l < own
                    }
                    Some(l) if module == "format" => {
                        matches!(target, "model" | "error" | "field") && l < own
                    }
                    Some(l) => l < own,
                };
                if !ok {
                    bad.push(format!(
                        "{}:{}: {module} (level {own}) imports {target}: {}",
                        rel.display(),
                        n + 1,
                        line.trim()
                    ));
                }
            }
        }
    }
    bad
}

#[test]
fn imports_run_one_way() {
    let bad = violations(Path::new(env!("CARGO_MANIFEST_DIR")));
    assert!(
        bad.is_empty(),
        "imports against the levels:\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_check_sees_a_backward_import() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src/model");
    std::fs::create_dir_all(&src).unwrap();
    std::fs::write(
        src.join("milp.rs"),
        "use crate::route::Report;\n#[cfg(test)]\nmod tests { use crate::route::Error; }\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("src/verify.rs"),
        "use crate::formulate::x;\n",
    )
    .unwrap();
    std::fs::create_dir_all(dir.path().join("src/format")).unwrap();
    std::fs::write(
        dir.path().join("src/format/gams.rs"),
        "use crate::model::x;\nuse crate::puzzle::y;\n",
    )
    .unwrap();
    let bad = violations(dir.path());
    assert_eq!(bad.len(), 3, "{bad:?}");
    assert!(
        bad[0].starts_with("format/gams.rs:2: format (level 3) imports puzzle"),
        "{bad:?}"
    );
    assert!(
        bad[1].starts_with("model/milp.rs:1: model (level 1) imports route"),
        "{bad:?}"
    );
    assert!(
        bad[2].starts_with("verify.rs:1: verify (level 2) imports formulate"),
        "{bad:?}"
    );
}

/// The only `--name` words a library string may hold, by file: other programs' flags that the
/// library passes or writes (sbatch's, the proof checker's, a registry entry's), and the
/// provenance lines of files tilekit writes.
const OTHER_PROGRAMS: &[(&str, &[&str])] = &[
    (
        "campaign/slurm.rs",
        &[
            "--parsable",
            "--partition",
            "--job-name",
            "--array",
            "--cpus-per-task",
            "--output",
            "--time",
            "--mem",
        ],
    ),
    ("certify/mod.rs", &["--skip-unit-deletions"]),
    // Provenance written into files, whose bytes must not depend on the front end: the
    // GAMS header's model options, and a generated instance's command.
    ("formulate/edge_milp.rs", &["--filter", "--fix-corner"]),
    (
        "puzzle/edge.rs",
        &[
            "--rows",
            "--cols",
            "--frame-colours",
            "--inner-colours",
            "--seed",
        ],
    ),
    // The built-in registry's own solvers' flags, in its tests.
    ("solve/registry.rs", &["--time", "--seed", "--random"]),
];

/// The string literals of Rust source `text` (comments skipped), with their lines.
fn string_literals(text: &str) -> Vec<(usize, String)> {
    let b = text.as_bytes();
    let (mut i, mut line, mut out) = (0, 1, Vec::new());
    while i < b.len() {
        match b[i] {
            b'\n' => line += 1,
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            // A character literal ('"' among them); a lifetime's quote is passed over.
            b'\'' if b.get(i + 2) == Some(&b'\'') && b[i + 1] != b'\\' => i += 2,
            b'\'' if b.get(i + 1) == Some(&b'\\') && b.get(i + 3) == Some(&b'\'') => i += 3,
            b'"' => {
                let (start, at) = (i + 1, line);
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    if b[i] == b'\n' {
                        line += 1;
                    }
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                out.push((at, text[start..i.min(b.len())].to_string()));
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// `--name` words in `s` (not `---`, not inside a longer word).
fn flag_words(s: &str) -> Vec<String> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    for i in 0..b.len().saturating_sub(2) {
        let before_ok = i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'-');
        if before_ok && b[i] == b'-' && b[i + 1] == b'-' && b[i + 2].is_ascii_lowercase() {
            let end = (i + 2..b.len())
                .find(|&j| !(b[j].is_ascii_lowercase() || b[j] == b'-'))
                .unwrap_or(b.len());
            out.push(s[i..end].trim_end_matches('-').to_string());
        }
    }
    out
}

/// Every string literal of the library that names a command-line flag.
fn flag_literals(root: &Path) -> Vec<String> {
    let src = root.join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut bad = Vec::new();
    for file in files {
        let rel = file
            .strip_prefix(&src)
            .unwrap()
            .to_string_lossy()
            .to_string();
        if rel.starts_with("bin/") {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        let others = OTHER_PROGRAMS
            .iter()
            .find(|(f, _)| *f == rel)
            .map_or(&[][..], |(_, flags)| flags);
        for (line, lit) in string_literals(&text) {
            for word in flag_words(&lit) {
                if !others.contains(&word.as_str()) {
                    bad.push(format!("{rel}:{line}: {word}"));
                }
            }
        }
    }
    bad
}

/// Flag names live in the binary (`src/bin/tilekit/args/flags.rs` maps each field to its
/// flag); the library names fields (`tilekit::field::Field`), so that its messages say what
/// the front end in use calls them.
#[test]
fn the_library_names_fields_not_flags() {
    let bad = flag_literals(Path::new(env!("CARGO_MANIFEST_DIR")));
    assert!(
        bad.is_empty(),
        "flag names in library strings (name the field: tilekit::field::Field):\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_flag_check_sees_a_flag_in_a_string() {
    let text = "// \"--in-a-comment\"\nlet c = '\"';\nlet s = format!(\"pass --horizon T\");\nlet t = \"a\\\"--b\";\n";
    let lits = string_literals(text);
    assert_eq!(lits.len(), 2, "{lits:?}");
    assert_eq!(lits[0].0, 3);
    assert_eq!(flag_words(&lits[0].1), vec!["--horizon"]);
    assert_eq!(flag_words("a---b x--y ok"), Vec::<String>::new());
}
