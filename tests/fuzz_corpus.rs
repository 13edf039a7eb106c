//! Every fuzz target's body over its committed corpus, `fuzz/corpus/TARGET`: the seeds and the
//! inputs AFL++ kept for new coverage in the campaigns (`docs/results/fuzzing.md`), crashes
//! found and fixed among them. The bodies are the AFL++ binaries' own (`fuzz/src/targets`), so
//! a parser change that breaks on a known input fails here, in every `cargo test`, without the
//! instrumented build; `scripts/fuzz.sh` runs the same targets under AFL++ to find new ones.
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

#[path = "../fuzz/src/targets/mod.rs"]
mod targets;

fn names_in(dir: &Path, strip: &str) -> BTreeSet<String> {
    std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter_map(|n| n.strip_suffix(strip).map(str::to_owned))
        .collect()
}

#[test]
fn every_fuzz_target_runs_clean_over_its_corpus() {
    let fuzz = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let table: BTreeSet<String> = targets::ALL.iter().map(|(n, _)| n.to_string()).collect();
    // One table, one binary and one corpus per target: none is left out of this run.
    assert_eq!(names_in(&fuzz.join("src/bin"), ".rs"), table);
    assert_eq!(names_in(&fuzz.join("corpus"), ""), table);
    let mut failed = Vec::new();
    let mut inputs = 0;
    for (name, run) in targets::ALL {
        let dir = fuzz.join("corpus").join(name);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        assert!(!files.is_empty(), "{name}: an empty corpus");
        for f in files {
            let data = std::fs::read(&f).unwrap();
            inputs += 1;
            if std::panic::catch_unwind(|| run(&data)).is_err() {
                failed.push(f.display().to_string());
            }
        }
    }
    assert!(
        failed.is_empty(),
        "{} of {inputs} corpus inputs panicked (reproduce one with \
         `fuzz/target/release/TARGET < FILE` after `bash scripts/fuzz.sh 1 TARGET`):\n{}",
        failed.len(),
        failed.join("\n")
    );
    assert!(inputs >= targets::ALL.len());
}
