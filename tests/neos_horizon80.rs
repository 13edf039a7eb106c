//! The case study's own setting: the faithful model at horizon 80, written as LP and MPS,
//! must be read by the real CBC, HiGHS and GLPK without a warning or an error. (Solving it is
//! hard; the solve tests use short horizons.)

use std::path::Path;
use std::process::Command;
use tilekit::format::{lp, mps};
use tilekit::formulate::sliding_case_study;
use tilekit::{Goal, SlidingPuzzle};

fn run(dir: &Path, program: &str, args: &[&str]) -> String {
    let out = Command::new(program)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| {
            panic!("solver {program} not found: run scripts/install-solvers.sh ({e})")
        });
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    // HiGHS exits 1 ("warning") when it stops at its time limit, which is how we stop it
    // right after reading; any other non-zero exit is a failure.
    let stopped_on_time =
        program == "highs" && out.status.code() == Some(1) && text.contains("Time limit reached");
    assert!(
        out.status.success() || stopped_on_time,
        "{program} {args:?} failed: {text}"
    );
    text
}

/// Lines mentioning a warning or an error, less the two known benign ones.
fn complaints(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| {
            let l = l.to_ascii_lowercase();
            (l.contains("warning") || l.contains("error"))
                && !l.contains("read with 0 errors")
                && !l.contains("p-d objective error")
        })
        .collect()
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn case_study_at_horizon_80_is_read_cleanly_by_cbc_highs_and_glpk() {
    let p = SlidingPuzzle::parse(
        "5 1 2 3\n9 6 7 4\n13 10 11 8\n14 15 0 12\n",
        "case",
        Goal::BlankLast,
    )
    .unwrap();
    let nm = sliding_case_study::build(&p, Goal::BlankLast, 80).unwrap();
    let (vars, rows) = (nm.model.num_vars(), nm.model.num_rows());
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    lp::write_lp(&nm.model, std::fs::File::create(d.join("m.lp")).unwrap()).unwrap();
    mps::write_mps(&nm.model, std::fs::File::create(d.join("m.mps")).unwrap()).unwrap();

    // CBC: read and stop (it prints the counts for MPS only; -stat reads the LP fully).
    let t = run(d, "cbc", &["m.lp", "-stat", "-quit"]);
    assert!(complaints(&t).is_empty(), "cbc lp: {:?}", complaints(&t));
    let t = run(d, "cbc", &["m.mps", "-quit"]);
    assert!(complaints(&t).is_empty(), "cbc mps: {:?}", complaints(&t));
    assert!(
        t.contains(&format!("has {rows} rows, {vars} columns")),
        "cbc mps counts: {t}"
    );
    // GLPK: --check reads and validates without solving.
    let number = |t: &str, what: &str| -> Option<usize> {
        let l = t
            .lines()
            .find(|l| l.starts_with(&format!("Number of {what} ")))?;
        l.rsplit('=').next()?.trim().parse().ok()
    };
    for args in [
        ["--lp", "m.lp", "--check"],
        ["--freemps", "m.mps", "--check"],
    ] {
        let t = run(d, "glpsol", &args);
        assert!(
            complaints(&t).is_empty(),
            "glpsol {args:?}: {:?}",
            complaints(&t)
        );
        assert_eq!(number(&t, "columns"), Some(vars), "glpsol {args:?}: {t}");
        if args[0] == "--lp" {
            assert_eq!(number(&t, "rows"), Some(rows), "glpsol {args:?}: {t}");
        }
    }
    // HiGHS: read, then stop at once (a zero time limit).
    for f in ["m.lp", "m.mps"] {
        let t = run(
            d,
            "highs",
            &["--model_file", f, "--time_limit", "0", "--presolve", "off"],
        );
        assert!(complaints(&t).is_empty(), "highs {f}: {:?}", complaints(&t));
        assert!(
            t.contains(&format!("{rows} rows; {vars} cols")),
            "highs {f} counts: {t}"
        );
    }
}
