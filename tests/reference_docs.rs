//! The book's generated reference pages stay what the binary prints, and `solve -h` stays a
//! page a person can read.
//!
//! `docs/src/reference/cli.md` is every command's `--help`, `docs/src/reference/parameters.md`
//! is `tilekit params --markdown`. After a change to either, regenerate them with
//! `TILEKIT_BLESS=1 cargo test --release --test tests -- reference_docs::` and commit the pages.

use crate::common::tilekit;
use std::path::Path;

/// Compare `page` (relative to the package root) with `generated`; with `TILEKIT_BLESS=1`,
/// write it instead.
fn keep_current(page: &str, generated: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(page);
    if std::env::var("TILEKIT_BLESS").is_ok_and(|v| v == "1") {
        std::fs::write(&path, generated).unwrap();
        return;
    }
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    if on_disk != generated {
        let line = on_disk
            .lines()
            .zip(generated.lines())
            .position(|(a, b)| a != b)
            .map_or_else(
                || on_disk.lines().count().min(generated.lines().count()) + 1,
                |i| i + 1,
            );
        panic!(
            "{page} is out of date (first difference at line {line}): regenerate it with \
             TILEKIT_BLESS=1 cargo test --release --test tests -- reference_docs::"
        );
    }
}

/// `tilekit ARGS… --help`, which must succeed.
fn help(args: &[&str]) -> String {
    let mut all: Vec<&str> = args.to_vec();
    all.push("--help");
    let r = tilekit(Path::new(env!("CARGO_MANIFEST_DIR")), &all);
    assert_eq!(r.code, 0, "{all:?}: {}", r.stderr);
    r.stdout
}

/// The subcommands a help text lists under `Commands:` (`help` left out).
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| l.trim() != "Commands:")
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect()
}

/// Every command's help, depth first, as one Markdown page.
fn cli_page() -> String {
    let mut out = String::from(
        "# Command line\n\n<!-- Generated from the binary's --help by tests/reference_docs.rs; \
         a test keeps it current. -->\n\nEvery command's `--help`, as `tilekit` prints it. \
         `-h` prints the shorter form.\n",
    );
    let mut stack: Vec<Vec<String>> = vec![Vec::new()];
    while let Some(path) = stack.pop() {
        let args: Vec<&str> = path.iter().map(String::as_str).collect();
        let text = help(&args);
        let title = if path.is_empty() {
            "tilekit".to_string()
        } else {
            format!("tilekit {}", path.join(" "))
        };
        let level = "#".repeat((path.len() + 2).min(4));
        out.push_str(&format!(
            "\n{level} `{title}`\n\n```text\n{}\n```\n",
            text.trim_end()
        ));
        // Pushed in reverse so that the page follows the help's own order.
        for sub in subcommands(&text).into_iter().rev() {
            let mut p = path.clone();
            p.push(sub);
            stack.push(p);
        }
    }
    out
}

#[test]
fn the_command_line_reference_is_what_the_binary_prints() {
    keep_current("docs/src/reference/cli.md", &cli_page());
}

#[test]
fn the_parameter_reference_is_what_the_binary_prints() {
    let r = tilekit(
        Path::new(env!("CARGO_MANIFEST_DIR")),
        &["params", "--markdown"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    keep_current("docs/src/reference/parameters.md", &r.stdout);
}

#[test]
fn solve_short_help_fits_a_screen() {
    let r = tilekit(Path::new(env!("CARGO_MANIFEST_DIR")), &["solve", "-h"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert!(
        lines.len() <= 50,
        "solve -h is {} lines:\n{}",
        lines.len(),
        r.stdout
    );
    for l in &lines {
        assert!(l.chars().count() <= 100, "a line over 100 columns: {l:?}");
    }
    // The research knobs are keys now, not flags.
    for hidden in [
        "--beam-width",
        "--split",
        "--ta-k",
        "--lookahead",
        "--lns-width",
    ] {
        assert!(!r.stdout.contains(hidden), "{hidden} is in solve -h");
    }
    assert!(r.stdout.contains("--set"), "{}", r.stdout);
}

#[test]
fn every_parameter_is_listed_with_its_default() {
    let r = tilekit(Path::new(env!("CARGO_MANIFEST_DIR")), &["params"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    for key in [
        "native.fsm",
        "beam.width",
        "lns.width",
        "certify.split",
        "milp.step",
    ] {
        assert!(r.stdout.contains(key), "{key} missing from tilekit params");
    }
    assert!(r.stdout.contains("recommended"), "{}", r.stdout);
}

/// A heading's anchor as GitHub and mdBook make it: an explicit `{#id}`, else the text in
/// lower case, spaces as `-`, punctuation other than `-` and `_` dropped.
fn anchor(heading: &str) -> String {
    let h = heading.trim();
    if let (Some(open), true) = (h.rfind("{#"), h.ends_with('}')) {
        return h[open + 2..h.len() - 1].to_string();
    }
    h.chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c.to_lowercase().next()?),
            _ => None,
        })
        .collect()
}

/// The anchors of a Markdown page's headings (outside code blocks).
fn anchors(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced && line.starts_with('#') {
            out.push(anchor(line.trim_start_matches('#')));
        }
    }
    out
}

/// Every `](target)` link of a Markdown page outside code blocks and inline code.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // Inline code spans may hold `](` that is no link.
        let prose: String = line.split('`').step_by(2).collect::<Vec<_>>().join(" ");
        let mut rest = prose.as_str();
        while let Some(i) = rest.find("](") {
            rest = &rest[i + 2..];
            if let Some(end) = rest.find(')') {
                out.push(rest[..end].to_string());
                rest = &rest[end..];
            }
        }
    }
    out
}

#[test]
fn the_documentation_links_point_at_files_and_headings_that_exist() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages = vec![
        root.join("README.md"),
        root.join("CONTRIBUTING.md"),
        root.join("CHANGELOG.md"),
        root.join("ARCHITECTURE.md"),
    ];
    for dir in ["docs/src", "docs/src/reference", "docs/results"] {
        for e in std::fs::read_dir(root.join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "md") {
                pages.push(p);
            }
        }
    }
    pages.sort();
    let mut broken = Vec::new();
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        for link in links(&text) {
            if link.contains("://") || link.starts_with("mailto:") {
                continue;
            }
            let (file, frag) = link.split_once('#').unwrap_or((link.as_str(), ""));
            let target = if file.is_empty() {
                page.clone()
            } else {
                page.parent().unwrap().join(file)
            };
            if !target.exists() {
                broken.push(format!("{}: {link}: no such file", page.display()));
                continue;
            }
            if !frag.is_empty() && target.extension().is_some_and(|x| x == "md") {
                let t = std::fs::read_to_string(&target).unwrap();
                if !anchors(&t).iter().any(|a| a == frag) {
                    broken.push(format!("{}: {link}: no such heading", page.display()));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
    // The book's table of contents names at least the guide's task pages and the reference.
    let summary = std::fs::read_to_string(root.join("docs/src/SUMMARY.md")).unwrap();
    assert!(links(&summary).len() >= 8, "{summary}");
}
