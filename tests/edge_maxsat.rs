//! The edge MaxSAT route with the real MaxSAT solvers: the WCNF of META 3×3 in both dialects
//! (snapshots, written through `tilekit export`), `solve --via maxsat` on META 3×3 to 5×5
//! with RC2, clasp, EvalMaxSAT, UWrMaxSat and Open-WBO, a puzzle without a perfect board
//! solved to the MILP's optimum, raw outputs of the solvers (both `v` forms) checked by
//! `verify --model maxsat` and tampered ones refused, lying solvers (a lower `o`, a flipped
//! model bit, an exit code against the `s` line) reported as solver failures (exit 3), clasp
//! on the 2022 format failing with its own words, a time limit, and a property test: on
//! generated 3×3 and 3×4 puzzles without a perfect board, the MaxSAT optimum (RC2) equals the
//! MILP optimum (HiGHS) and the least number of unmatched seams found by exhaustive search.
//!
//! A missing solver fails these tests; without the `solver-tests` feature they show as ignored.

use crate::common::{Run, json, meta, tilekit};
use proptest::prelude::*;
use std::path::Path;
use std::process::Command;
use std::time::Duration;
use tilekit::formulate::edge_milp::EdgeMilpOptions;
use tilekit::puzzle::edge::{EdgePuzzle, Rotation, generate};
use tilekit::route::edge::{EdgeModel, SolveRequest};
use tilekit::route::method::{ExactMethod, ExactModel};
use tilekit::route::{Claim, ModelName, Route, quiet};
use tilekit::solve::Limits;

/// The MaxSAT entries of the built-in registry, with the program each runs.
const SOLVERS: [(&str, &str); 5] = [
    ("rc2", "rc2.py"),
    ("clasp", "clasp"),
    ("evalmaxsat", "tilekit-hermax"),
    ("uwrmaxsat", "tilekit-hermax"),
    ("open-wbo", "tilekit-hermax"),
];

/// Run a real solver in `dir`, returning its stdout; panics when it cannot run.
fn solver_stdout(dir: &Path, program: &str, args: &[&str]) -> String {
    let out = Command::new(program)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| {
            panic!("solver {program} could not run ({e}): run scripts/install-solvers.sh")
        });
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `p` with two sides of each piece `mask` selects swapped, two of the same class so that
/// the colour parity of rim-running and inward sides holds (a corner's two non-grey sides,
/// an edge piece's two sides beside its grey one, an inner piece's first two): the file stays
/// valid, but the planted board is usually broken.
fn scrambled(p: &EdgePuzzle, mask: u64) -> EdgePuzzle {
    let mut colours = p.colours();
    for (i, c) in colours.iter_mut().enumerate() {
        if mask >> (i % 64) & 1 == 0 {
            continue;
        }
        let greys: Vec<usize> = (0..4).filter(|&k| c[k] == 0).collect();
        match greys.as_slice() {
            [] => c.swap(0, 1),
            [g] => c.swap((g + 1) % 4, (g + 3) % 4),
            _ => {
                let rest: Vec<usize> = (0..4).filter(|&k| c[k] != 0).collect();
                c.swap(rest[0], rest[1]);
            }
        }
    }
    EdgePuzzle::new(p.rows(), p.cols(), colours).expect("scrambling keeps a puzzle valid")
}

/// The instance file of `p` (bottom, left, top, right per piece).
fn text(p: &EdgePuzzle) -> String {
    let mut s = format!("{} {}\n", p.rows(), p.cols());
    for c in p.colours() {
        s.push_str(&format!("{} {} {} {}\n", c[0], c[1], c[2], c[3]));
    }
    s
}

/// The least number of unmatched inner seams over every legal board (grey exactly on the
/// rim), by depth-first search with the seams counted from the rules alone (no encoding).
fn least_unmatched(p: &EdgePuzzle) -> usize {
    struct S<'a> {
        p: &'a EdgePuzzle,
        shown: Vec<[u16; 4]>,
        used: Vec<bool>,
        best: usize,
    }
    fn rec(s: &mut S, cell: usize, cost: usize) {
        let (rows, cols) = (s.p.rows(), s.p.cols());
        if cost >= s.best {
            return;
        }
        if cell == rows * cols {
            s.best = cost;
            return;
        }
        let (r, c) = (cell / cols, cell % cols);
        let out = [r == 0, c + 1 == cols, r + 1 == rows, c == 0];
        for i in 0..s.p.pieces().len() {
            if s.used[i] {
                continue;
            }
            let piece = &s.p.pieces()[i];
            let mut seen = Vec::new();
            for rot in Rotation::ALL {
                let sh = piece.placed(rot);
                if seen.contains(&sh) || (0..4).any(|d| (sh[d] == 0) != out[d]) {
                    continue;
                }
                seen.push(sh);
                let mut more = 0;
                if c > 0 && s.shown[cell - 1][1] != sh[3] {
                    more += 1;
                }
                if r > 0 && s.shown[cell - cols][2] != sh[0] {
                    more += 1;
                }
                s.used[i] = true;
                s.shown.push(sh);
                rec(s, cell + 1, cost + more);
                s.shown.pop();
                s.used[i] = false;
            }
        }
    }
    let n = p.rows() * p.cols();
    let mut s = S {
        p,
        shown: Vec::with_capacity(n),
        used: vec![false; n],
        best: usize::MAX,
    };
    rec(&mut s, 0, 0);
    s.best
}

/// A puzzle without a perfect board: generated 3×4, scrambled, its optimum found by
/// exhaustive search (2 unmatched seams for this seed and mask).
fn imperfect() -> (EdgePuzzle, usize) {
    let (p, _) = generate(3, 4, 2, 3, 11).unwrap();
    let q = scrambled(&p, 0b1010_0110_0101);
    let best = least_unmatched(&q);
    assert!(best >= 1, "the scrambled puzzle still has a perfect board");
    (q, best)
}

fn assert_solved(r: &Run, solver: &str, objective: f64, max: usize) {
    assert_eq!(r.code, 0, "{solver}: {}{}", r.stdout, r.stderr);
    let v = json(r);
    assert_eq!(v["status"], "solved", "{v}");
    assert_eq!(v["model"], "maxsat");
    assert_eq!(v["solver"], solver);
    assert_eq!(v["verified"], true, "{v}");
    // A perfect board is optimal by tilekit's own count; a board with unmatched seams is
    // optimal by the solver's claim only (the tests' exhaustive search is what checks it).
    if objective == 0.0 {
        assert_eq!(
            (&v["optimal"], &v["solver_claim"]),
            (&true.into(), &serde_json::Value::Null),
            "{v}"
        );
    } else {
        assert_eq!(
            (&v["optimal"], &v["solver_claim"]),
            (&false.into(), &"optimal".into()),
            "{v}"
        );
    }
    assert_eq!(v["objective"], objective, "{v}");
    assert_eq!(v["max"], serde_json::json!(max));
    // Size: variables, hard clauses, soft clauses (one per inner seam).
    assert_eq!(v["size"][2], serde_json::json!(max), "{v}");
}

#[test]
fn meta_3x3_wcnf_in_both_dialects_and_as_wbo() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let p = meta(d, 3);
    for (format, file, snapshot) in [
        ("wcnf", "m.wcnf", "meta_3x3_wcnf"),
        ("wcnf-legacy", "old.wcnf", "meta_3x3_wcnf_legacy"),
        ("wbo", "m.wbo", "meta_3x3_wbo"),
    ] {
        let args = [
            "export", p, "--model", "maxsat", "--format", format, "-o", file,
        ];
        let r = tilekit(d, &args);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let first = std::fs::read_to_string(d.join(file)).unwrap();
        assert_eq!(tilekit(d, &args).code, 0);
        assert_eq!(first, std::fs::read_to_string(d.join(file)).unwrap());
        insta::assert_snapshot!(snapshot, first);
    }
    // The 2022 file is the default, also by the extension; the 12 inner seams are its soft
    // clauses, weight 1 each; the legacy header's TOP is their sum plus one.
    let r = tilekit(d, &["export", p, "--model", "maxsat", "-o", "x.wcnf"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let x = std::fs::read_to_string(d.join("x.wcnf")).unwrap();
    assert_eq!(x, std::fs::read_to_string(d.join("m.wcnf")).unwrap());
    let soft: Vec<&str> = x
        .lines()
        .filter(|l| !l.starts_with('c') && !l.starts_with('h'))
        .collect();
    assert_eq!(soft.len(), 12);
    assert!(soft.iter().all(|l| l.starts_with("1 ")), "{soft:?}");
    let old = std::fs::read_to_string(d.join("old.wcnf")).unwrap();
    assert!(
        old.lines()
            .any(|l| l.starts_with("p wcnf ") && l.ends_with(" 13"))
    );
    // The CNF's formats are not the WCNF's.
    let r = tilekit(d, &["export", p, "--model", "maxsat", "--format", "cnf"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("use wcnf"), "{}", r.stderr);
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn meta_3_to_5_through_every_maxsat_solver() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for n in [3, 4, 5] {
        let p = meta(d, n);
        for (solver, _) in SOLVERS {
            let r = tilekit(
                d,
                &["solve", p, "--via", "maxsat", "--solver", solver, "--json"],
            );
            assert_solved(&r, solver, 0.0, 2 * n * n - 2 * n);
        }
    }
    // The default solver is RC2; --model maxsat alone picks the route's model, and
    // --fix-corner keeps the optimum.
    let p = meta(d, 4);
    let r = tilekit(
        d,
        &["solve", p, "--via", "maxsat", "--fix-corner", "--json"],
    );
    assert_solved(&r, "rc2", 0.0, 24);
    assert_eq!(json(&r)["variant"], "fix");
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn a_puzzle_without_a_perfect_board_costs_its_least_unmatched_seams() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (q, best) = imperfect();
    std::fs::write(d.join("q.txt"), text(&q)).unwrap();
    let max = q.max_score();
    for (solver, _) in SOLVERS {
        let r = tilekit(
            d,
            &[
                "solve", "q.txt", "--via", "maxsat", "--solver", solver, "--json",
            ],
        );
        assert_solved(&r, solver, best as f64, max);
        assert_eq!(json(&r)["matched"], serde_json::json!(max - best));
    }
    // The MILP says the same.
    let r = tilekit(
        d,
        &[
            "solve", "q.txt", "--via", "milp", "--solver", "highs", "--json",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(json(&r)["objective"], best as f64);
    assert_eq!(json(&r)["optimal"], false);
    assert_eq!(json(&r)["solver_claim"], "optimal");
    // In words: the solver's claim, said as one.
    let r = tilekit(d, &["solve", "q.txt", "--via", "milp", "--solver", "highs"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains(&format!(
            "({best} unmatched, optimal by the solver's claim;"
        )),
        "{}",
        r.stdout
    );
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn raw_outputs_verify_and_tampered_ones_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (q, best) = imperfect();
    std::fs::write(d.join("q.txt"), text(&q)).unwrap();
    let max = q.max_score();
    for (args, file) in [
        (vec!["--format", "wcnf", "-o", "q.wcnf"], "q.wcnf"),
        (
            vec!["--format", "wcnf-legacy", "-o", "old.wcnf"],
            "old.wcnf",
        ),
    ] {
        let mut all = vec!["export", "q.txt", "--model", "maxsat"];
        all.extend(args);
        let r = tilekit(d, &all);
        assert_eq!(r.code, 0, "{file}: {}", r.stderr);
    }
    // RC2's literals (no terminating 0), clasp's terminated literals on the old format,
    // hermax's bit string.
    let outputs = [
        ("rc2.out", solver_stdout(d, "rc2.py", &["-vv", "q.wcnf"])),
        (
            "clasp.out",
            solver_stdout(d, "clasp", &["--quiet=1", "old.wcnf"]),
        ),
        (
            "uwr.out",
            solver_stdout(d, "tilekit-hermax", &["uwrmaxsat", "q.wcnf"]),
        ),
    ];
    for (file, out) in &outputs {
        assert!(out.contains("s OPTIMUM FOUND"), "{file}: {out}");
        std::fs::write(d.join(file), out).unwrap();
        let r = tilekit(d, &["verify", "q.txt", file, "--model", "maxsat", "--json"]);
        assert_eq!(r.code, 0, "{file}: {}{}", r.stdout, r.stderr);
        let v = json(&r);
        assert_eq!(v["valid"], true, "{v}");
        assert_eq!(v["objective"], best as f64, "{v}");
        assert_eq!(v["matched"], serde_json::json!(max - best));
        assert_eq!(v["solver_status"], "OPTIMUM FOUND");
    }
    let verify = |name: &str, text: &str| {
        std::fs::write(d.join(name), text).unwrap();
        let r = tilekit(d, &["verify", "q.txt", name, "--model", "maxsat", "--json"]);
        assert_eq!(r.code, 1, "{name}: {}{}", r.stdout, r.stderr);
        let v = json(&r);
        assert_eq!(v["valid"], false, "{v}");
        v["errors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e.as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    let rc2 = &outputs[0].1;
    // A lower `o`: the recount says otherwise.
    let lower = rc2.replace(&format!("o {best}\n"), &format!("o {}\n", best - 1));
    assert_ne!(&lower, rc2);
    let errors = verify("lower.out", &lower);
    assert!(
        errors.iter().any(|e| e.contains(&format!(
            "`o {}` is not the cost of its model: the soft clauses it falsifies weigh {best}",
            best - 1
        ))),
        "{errors:?}"
    );
    // The bit string with its first placement bit flipped: a hard clause breaks (a cell
    // left empty or filled twice).
    let uwr = &outputs[2].1;
    let flipped: String = uwr
        .lines()
        .map(|l| match l.strip_prefix("v ") {
            Some(bits) => {
                let first = if bits.starts_with('1') { '0' } else { '1' };
                format!("v {first}{}\n", &bits[1..])
            }
            None => format!("{l}\n"),
        })
        .collect();
    let errors = verify("flipped.out", &flipped);
    assert!(
        errors
            .iter()
            .any(|e| e.starts_with("the model violates hard clause")),
        "{errors:?}"
    );
    // A second `s` line is not an answer: exit 2, the line named.
    std::fs::write(d.join("two.out"), format!("{rc2}s UNKNOWN\n")).unwrap();
    let r = tilekit(d, &["verify", "q.txt", "two.out", "--model", "maxsat"]);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("a second `s` line"), "{}", r.stderr);
}

/// A registry with one entry `name` running the shell script `script` (`$1` is the model),
/// written beside it (a script, since the registry reads `{…}` in arguments as placeholders).
fn liar_registry(dir: &Path, name: &str, script: &str) -> String {
    let sh = dir.join(format!("{name}.sh"));
    std::fs::write(&sh, script).unwrap();
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(
        &path,
        format!(
            "[solver.{name}]\nkind = \"maxsat\"\ncommand = \"sh\"\ninput = \"wcnf\"\nargs = [{:?}, \"{{model}}\"]\nsolution = \"maxsat\"\n",
            sh.display().to_string()
        ),
    )
    .unwrap();
    path.display().to_string()
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn lying_solvers_are_solver_failures() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (q, best) = imperfect();
    std::fs::write(d.join("q.txt"), text(&q)).unwrap();
    // The real RC2, its answer edited on the way out.
    let cases = [
        (
            "lower",
            r#"rc2.py -vv "$1" | awk '/^o /{print "o " ($2-1); next} {print}'"#,
            "is not the cost of its model",
        ),
        (
            "flip",
            r#"rc2.py -vv "$1" | awk '/^v /{for(i=2;i<=NF;i++) if($i>0){$i=-$i; break}} {print}'"#,
            "the model violates hard clause",
        ),
        (
            "exit20",
            r#"rc2.py -vv "$1"; exit 20"#,
            "exited with exit code 20 but answered OPTIMUM FOUND; not trusting either",
        ),
    ];
    for (name, script, words) in cases {
        let reg = liar_registry(d, name, script);
        let r = tilekit(
            d,
            &[
                "solve",
                "q.txt",
                "--via",
                "maxsat",
                "--solver",
                name,
                "--solvers-file",
                &reg,
                "--json",
            ],
        );
        assert_eq!(r.code, 3, "{name}: {}{}", r.stdout, r.stderr);
        let all = format!("{}{}", r.stdout, r.stderr);
        assert!(all.contains(words), "{name}: {all}");
        if name != "exit20" {
            let v = json(&r);
            assert_eq!(v["status"], "unverified", "{v}");
            assert_eq!(v["verified"], false);
            assert_eq!(v["optimal"], false);
        }
    }
    // Unedited, the same wrapper is believed.
    let reg = liar_registry(d, "honest", r#"rc2.py -vv "$1""#);
    let r = tilekit(
        d,
        &[
            "solve",
            "q.txt",
            "--via",
            "maxsat",
            "--solver",
            "honest",
            "--solvers-file",
            &reg,
            "--json",
        ],
    );
    assert_solved(&r, "honest", best as f64, q.max_score());
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn clasp_refuses_the_2022_format_in_its_own_words() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let p = meta(d, 3);
    let reg = d.join("clasp2022.toml");
    std::fs::write(
        &reg,
        "[solver.clasp2022]\nkind = \"maxsat\"\ncommand = \"clasp\"\ninput = \"wcnf\"\nargs = [\"--quiet=1\", \"{model}\"]\nsolution = \"maxsat\"\n",
    )
    .unwrap();
    let r = tilekit(
        d,
        &[
            "solve",
            p,
            "--via",
            "maxsat",
            "--solver",
            "clasp2022",
            "--solvers-file",
            reg.to_str().unwrap(),
        ],
    );
    assert_eq!(r.code, 3, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr
            .contains("solver 'clasp2022' failed (exit code 65)")
            && r.stderr.contains("missing problem line"),
        "{}",
        r.stderr
    );
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn a_time_limit_is_no_answer() {
    // META 10×10 in one second: RC2 stops itself (-T) without an `s` line, EvalMaxSAT is
    // killed by the runner; neither is an error.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let p = meta(d, 10);
    for solver in ["rc2", "evalmaxsat"] {
        let r = tilekit(
            d,
            &[
                "solve",
                p,
                "--via",
                "maxsat",
                "--solver",
                solver,
                "--time-limit",
                "1",
                "--json",
            ],
        );
        assert_eq!(r.code, 1, "{solver}: {}{}", r.stdout, r.stderr);
        let v = json(&r);
        assert_eq!(v["status"], "time_limit", "{v}");
        assert_eq!(v["solver_status"], "UNKNOWN", "{v}");
        assert!(r.seconds < 15.0, "{solver}: {} s", r.seconds);
    }
}

fn request(via: Route, model: ModelName, solver: &str, fix: bool) -> SolveRequest {
    let model = EdgeModel::of(model).unwrap();
    assert_eq!(model.route(), via);
    SolveRequest {
        method: ExactMethod {
            model: ExactModel::of(
                model,
                EdgeMilpOptions {
                    filter_feasible: true,
                    fix_first_corner: fix,
                },
            ),
            solver: Some(solver.into()),
        },
        limits: Limits::new(Duration::from_secs(60), 1),
        solvers_file: None,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// Generated puzzles, scrambled so that many have no perfect board (about half, with
    /// up to 6 unmatched seams): RC2's optimum of the WCNF (with or without R2) is the
    /// exhaustive search's least number of unmatched seams, and so is HiGHS's optimum of the
    /// MILP.
    #[cfg_attr(not(feature = "solver-tests"), ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on")]
    #[test]
    fn the_maxsat_optimum_is_the_milp_optimum(
        cols in 3usize..5, frame in 2u16..4, inner in 3u16..7, seed in any::<u64>(),
        mask in any::<u64>(), fix in any::<bool>()
    ) {
        let (p, _) = generate(3, cols, frame, inner, seed).unwrap();
        let q = scrambled(&p, mask);
        let best = least_unmatched(&q) as f64;
        let what = format!("3x{cols} f{frame} i{inner} seed {seed} mask {mask:#x} fix {fix}");
        for (via, model, solver) in [
            (Route::Maxsat, ModelName::Maxsat, "rc2"),
            (Route::Milp, ModelName::Milp, "highs"),
        ] {
            // R2 is the MaxSAT model's here: the MILP refuses it on rectangular boards.
            let r2 = fix && via == Route::Maxsat;
            let rep = tilekit::route::edge::solve(&q, &request(via, model, solver, r2), &quiet)
                .unwrap();
            // Tilekit proves only perfect boards optimal; the solver's optimum of an imperfect
            // one is its claim, which the exhaustive search here checks.
            let claim = if best == 0.0 { None } else { Some(Claim::Optimal) };
            prop_assert!(
                rep.verified
                    && rep.optimal == (best == 0.0)
                    && rep.solver_claim == claim
                    && rep.objective == Some(best),
                "{what} via {solver}: want {best}, got {:?}",
                rep
            );
        }
    }
}

/// The META 7×7 board Open-WBO found through `--via maxsat` (README), shipped in
/// `models/edge-matching/boards/`: the independent checker calls it perfect.
#[test]
fn the_shipped_meta_7x7_board_is_perfect() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("models/edge-matching");
    let read = |rel: &str| std::fs::read_to_string(root.join(rel)).unwrap();
    let p = EdgePuzzle::parse(&read("meta2010/pieces_07x07.txt"), "meta 7").unwrap();
    let rel = "boards/07x07-maxsat-openwbo.txt";
    let board = tilekit::puzzle::edge::parse_any_board(&read(rel), rel, &p).unwrap();
    let v = tilekit::verify::edge::BoardChecker.verdict(&p, &board, Some(0.0));
    assert!(v.valid, "{:?}", v.errors);
    assert_eq!((v.matched, v.max), (84, 84));
}
