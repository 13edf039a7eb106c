//! Short published-optimum instances from `models/sliding/`, solved end to end by every route
//! (SAT: varisat, cadical, kissat, minisat; MILP: cbc, highs, glpk, microlp) and verified: the
//! verified plan must be optimal and as long as the optimum the instance files state.
//!
//! The lengths per route come from the measurements in `models/sliding/REACH.md` (each instance
//! here takes at most a few seconds on one thread in release mode). A missing external solver
//! FAILS the test; the tests of external solvers show as ignored without the `solver-tests`
//! feature (`TILEKIT_SKIP_SOLVERS=1`).
//!
//! `every_listed_instance_parses_and_is_consistent` parses every instance of the multi-instance
//! files through `SlidingPuzzle::parse` with the file's goal convention and checks the stated
//! optima against the parity and Manhattan lower bounds.

use std::path::{Path, PathBuf};
use std::time::Duration;
use tilekit::route::method::{MilpMethod, MilpModel, SatMethod, SlidingMethod};
use tilekit::route::quiet;
use tilekit::route::sliding::{self, Horizon, SolveRequest, load};
use tilekit::solve::Limits;
use tilekit::solve::registry::Registry;
use tilekit::{Goal, SlidingPuzzle};

fn models() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("models/sliding")
}

fn read(name: &str) -> String {
    let path = models().join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// True when `command` (a path or a program name) can be run.
fn on_path(command: &str) -> bool {
    if command.contains('/') {
        return Path::new(command).is_file();
    }
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(command).is_file()))
}

/// Panics unless `solver` can run: embedded engines always can; an external one needs its
/// program installed (its tests carry the `solver-tests` gate, so a missing one is an
/// incomplete install).
pub(crate) fn require_solver(solver: &str) {
    if solver == "varisat" || solver == "microlp" {
        return;
    }
    let reg = Registry::load(None).expect("the solver registry loads");
    let entry = reg.get(solver).unwrap_or_else(|| {
        panic!(
            "no solver named {solver} in the registry ({})",
            reg.source()
        )
    });
    assert!(
        on_path(&entry.command),
        "solver {solver} not found: run scripts/install-solvers.sh"
    );
}

/// A single-instance file's published optimum and its claimed origin, from its comments
/// (`# optimal N, blank-first, from FILE line K`), cross-checked against that line of the set
/// file: same tiles, same optimum.
fn published(name: &str) -> (usize, Goal) {
    let text = read(name);
    let head = text
        .lines()
        .find(|l| l.starts_with("# optimal "))
        .unwrap_or_else(|| panic!("{name}: no '# optimal N, GOAL, from FILE line K' comment"));
    let fields: Vec<&str> = head
        .trim_start_matches("# optimal ")
        .split([',', ' '])
        .filter(|s| !s.is_empty())
        .collect();
    // [N, GOAL, "from", FILE, "line", K, ...]
    let optimal: usize = fields[0].parse().expect("the optimum is a number");
    let goal = Goal::parse(fields[1]).expect("the goal is blank-first or blank-last");
    assert_eq!((fields[2], fields[4]), ("from", "line"), "{name}: {head}");
    let set = fields[3];
    let line_no: usize = fields[5].parse().expect("the line is a number");
    let set_text = read(set);
    let line = set_text
        .lines()
        .nth(line_no - 1)
        .unwrap_or_else(|| panic!("{set} has no line {line_no}"));
    let nums: Vec<usize> = line
        .split_whitespace()
        .map(|t| t.parse().expect("set lines are numbers"))
        .collect();
    let p = SlidingPuzzle::parse(&text, name, goal).expect("the instance parses");
    let tiles: Vec<usize> = p.tiles().iter().map(|&t| t as usize).collect();
    assert_eq!(
        &nums[nums.len() - tiles.len()..],
        &tiles[..],
        "{name} differs from {set} line {line_no}"
    );
    assert_eq!(
        nums[1], optimal,
        "{name}: optimum differs from {set} line {line_no}"
    );
    (optimal, goal)
}

/// Solve `name` by `via`/`solver` (MILP horizon: the optimum plus `slack`) and check the verified
/// optimal length.
fn solves(name: &str, via: &str, solver: &str, slack: usize) {
    require_solver(solver);
    let (optimal, goal) = published(name);
    let p = load(&models().join(name), goal).expect("the instance loads");
    let name_of_solver = Some(solver.to_string());
    let method = if via == "milp" {
        // The NEOS case study's model (the one REACH.md measured), at the optimum plus
        // `slack`.
        SlidingMethod::Milp(MilpMethod {
            model: Some(MilpModel::Neos),
            solver: name_of_solver,
            horizon: Some(Horizon::Steps(optimal + slack)),
            ..MilpMethod::default()
        })
    } else {
        // The CNF, up to the optimum plus 4 (the largest horizon tried).
        SlidingMethod::Sat(SatMethod {
            solver: name_of_solver,
            horizon: Some(Horizon::Steps(optimal + 4)),
            ..SatMethod::default()
        })
    };
    // Generous per call: the instances take a few seconds; a slow machine must not fail.
    let opts = SolveRequest::new(method, Limits::new(Duration::from_secs(120), 1))
        .plan()
        .expect("a valid request");
    let rep = match sliding::solve(&p, goal, &opts, &quiet) {
        Ok(rep) => rep,
        Err(e) if e.to_string().contains("not found") => {
            panic!("solver {solver} not found: run scripts/install-solvers.sh ({e})")
        }
        Err(e) => panic!("{name} by {via}/{solver}: {e}"),
    };
    eprintln!(
        "{name} by {via}/{solver}: {} {:?} in {:.2} s ({})",
        rep.status, rep.objective, rep.seconds, rep.solver_status
    );
    assert_eq!(rep.status, "solved", "{name} by {via}/{solver}: {rep:?}");
    assert!(
        rep.verified,
        "{name} by {via}/{solver}: not verified: {rep:?}"
    );
    assert!(
        rep.optimal,
        "{name} by {via}/{solver}: not proven optimal: {rep:?}"
    );
    assert_eq!(
        rep.objective,
        Some(optimal as f64),
        "{name} by {via}/{solver}: wrong length: {rep:?}"
    );
    assert_eq!(
        rep.moves().map(str::len),
        Some(optimal),
        "{name} by {via}/{solver}: {rep:?}"
    );
    assert_eq!(rep.bound, Some(optimal as f64), "{name} by {via}/{solver}");
}

/// SAT by varisat: 15-puzzle 20 moves ≈0.5 s, 8-puzzle 24 moves ≈0.5 s (REACH.md: 32 in 37 s).
#[test]
fn sat_varisat_solves_short_instances_optimally() {
    solves("fifteen_len20.txt", "sat", "varisat", 0);
    solves("eight_len24.txt", "sat", "varisat", 0);
}

/// SAT by cadical: ≈2.6 s and ≈1 s (REACH.md: 36 in 55 s).
#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn sat_cadical_solves_short_instances_optimally() {
    solves("fifteen_len24.txt", "sat", "cadical", 0);
    solves("eight_len24.txt", "sat", "cadical", 0);
}

/// SAT by kissat: ≈2.2 s and ≈1.1 s (REACH.md: 36 in 57 s).
#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn sat_kissat_solves_short_instances_optimally() {
    solves("fifteen_len24.txt", "sat", "kissat", 0);
    solves("eight_len24.txt", "sat", "kissat", 0);
}

/// SAT by minisat: ≈1 s and ≈1.6 s (REACH.md: 36 in 33 s).
#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn sat_minisat_solves_short_instances_optimally() {
    solves("fifteen_len24.txt", "sat", "minisat", 0);
    solves("eight_len24.txt", "sat", "minisat", 0);
}

/// MILP by cbc: ≈2.7 s, ≈1.7 s, ≈2.6 s at horizon optimum+2 (REACH.md: 8 moves; 12 times out unproven).
#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn milp_cbc_solves_short_instances_optimally() {
    solves("fifteen_len8.txt", "milp", "cbc", 0);
    solves("eight_len8.txt", "milp", "cbc", 0);
    solves("fifteen_len8.txt", "milp", "cbc", 2);
}

/// MILP by highs: ≈0.2 s each (REACH.md: 12 moves in 6–10 s).
#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn milp_highs_solves_short_instances_optimally() {
    solves("fifteen_len8.txt", "milp", "highs", 0);
    solves("eight_len8.txt", "milp", "highs", 0);
    solves("fifteen_len8.txt", "milp", "highs", 2);
}

/// MILP by glpk: ≈0.9 s and ≈1.4 s (REACH.md: 8 moves; 12 times out).
#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn milp_glpk_solves_short_instances_optimally() {
    solves("fifteen_len8.txt", "milp", "glpk", 0);
    solves("eight_len8.txt", "milp", "glpk", 0);
}

/// MILP by microlp: ≈0.01 s (REACH.md: 4 moves takes 23 s, 8 times out).
#[test]
fn milp_microlp_solves_short_instances_optimally() {
    solves("eight_len3.txt", "milp", "microlp", 0);
}

// ---------------------------------------------------------------------------------------------
// Every instance of the multi-instance files.

/// One line of a set file: id, optimum and the tiles.
struct Listed {
    id: usize,
    optimal: usize,
    tiles: Vec<u16>,
    extra: Vec<f64>,
}

/// The data lines of `name`: `id optimal [extra…] t0 … t(cells-1)` (extras may be decimals).
fn listed(name: &str, cells: usize) -> Vec<Listed> {
    let mut out = Vec::new();
    for (i, line) in read(name).lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let nums: Vec<f64> = line
            .split_whitespace()
            .map(|t| {
                t.parse()
                    .unwrap_or_else(|_| panic!("{name}:{}: {t:?} is not a number", i + 1))
            })
            .collect();
        assert!(
            nums.len() >= 2 + cells,
            "{name}:{}: {} fields, expected at least {}",
            i + 1,
            nums.len(),
            2 + cells
        );
        let int = |x: f64| {
            assert!(
                x >= 0.0 && x.fract() == 0.0,
                "{name}:{}: {x} is not a count",
                i + 1
            );
            x as usize
        };
        let split = nums.len() - cells;
        out.push(Listed {
            id: int(nums[0]),
            optimal: int(nums[1]),
            tiles: nums[split..].iter().map(|&t| int(t) as u16).collect(),
            extra: nums[2..split].to_vec(),
        });
    }
    out
}

/// Parse every instance of `name` with `goal` and check what can be checked of its optimum.
/// Returns the instances for file-specific checks.
fn check_set(name: &str, side: usize, goal: Goal, count: usize, extra: usize) -> Vec<Listed> {
    let all = listed(name, side * side);
    assert_eq!(all.len(), count, "{name}: number of instances");
    for (k, inst) in all.iter().enumerate() {
        if name.starts_with("deepcubea") {
            // Ids as in the source pickle: from 0, four missing.
            assert!(k == 0 || inst.id > all[k - 1].id, "{name}: ids increase");
        } else {
            assert_eq!(inst.id, k + 1, "{name}: ids run 1, 2, …");
        }
        assert_eq!(inst.extra.len(), extra, "{name} #{}: fields", inst.id);
        let rows: Vec<String> = inst
            .tiles
            .chunks(side)
            .map(|r| r.iter().map(u16::to_string).collect::<Vec<_>>().join(" "))
            .collect();
        let text = format!(
            "# {name} #{}, optimal {}\n{side} {side}\n{}\n",
            inst.id,
            inst.optimal,
            rows.join("\n")
        );
        let source = format!("{name}#{}", inst.id);
        let p = SlidingPuzzle::parse(&text, &source, goal)
            .unwrap_or_else(|e| panic!("{source} does not parse with the {goal} goal: {e}"));
        assert_eq!(p.tiles(), &inst.tiles[..]);
        assert!(p.is_solvable(goal), "{source}");
        let (blank, manhattan) = (p.blank_distance(goal), p.manhattan(goal));
        assert_eq!(
            inst.optimal % 2,
            blank % 2,
            "{source}: optimum {} and blank distance {blank} differ in parity",
            inst.optimal
        );
        assert!(
            inst.optimal >= manhattan,
            "{source}: optimum {} is below the Manhattan bound {manhattan}",
            inst.optimal
        );
        assert_eq!(p.is_goal(goal), inst.optimal == 0, "{source}");
        if side.is_multiple_of(2) {
            // On an even-width board the two goals have opposite solvability: the file's
            // convention is the only one that parses.
            let other = match goal {
                Goal::BlankFirst => Goal::BlankLast,
                Goal::BlankLast => Goal::BlankFirst,
            };
            assert!(
                SlidingPuzzle::parse(&text, &source, other).is_err(),
                "{source} also parses with the {other} goal"
            );
        }
    }
    all
}

/// Blank-last ↔ blank-first: cell p → n−1−p, tile t → n−t (the blank stays 0).
fn convert(tiles: &[u16]) -> Vec<u16> {
    let n = tiles.len() as u16;
    tiles
        .iter()
        .rev()
        .map(|&t| if t == 0 { 0 } else { n - t })
        .collect()
}

#[test]
fn every_listed_instance_parses_and_is_consistent() {
    let sum = |v: &[Listed]| v.iter().map(|i| i.optimal).sum::<usize>();

    let korf100 = check_set("korf100_15puzzle.txt", 4, Goal::BlankFirst, 100, 1);
    assert_eq!(sum(&korf100), 5305, "Korf 100: sum of optima");
    assert_eq!(korf100[87].optimal, 65, "Korf #88 is 65, not 66");
    assert_eq!(
        korf100[69].tiles,
        [15, 1, 3, 12, 4, 0, 6, 5, 2, 8, 14, 9, 13, 10, 7, 11],
        "Korf #70 (not a copy of #7)"
    );
    assert_eq!(korf100.iter().map(|i| i.optimal).max(), Some(66));
    assert_eq!(korf100.iter().map(|i| i.optimal).min(), Some(41));

    let korf50 = check_set("korf50_24puzzle.txt", 5, Goal::BlankFirst, 50, 0);
    assert_eq!(sum(&korf50), 5039, "Korf–Felner 50: sum of optima");
    assert_eq!(korf50.iter().map(|i| i.optimal).min(), Some(81));
    assert_eq!(korf50.iter().map(|i| i.optimal).max(), Some(114));

    let hardest = check_set("hardest80_15puzzle.txt", 4, Goal::BlankLast, 17, 0);
    for inst in &hardest {
        assert_eq!(inst.optimal, 80, "hardest #{}", inst.id);
        // The same position in Korf's convention: still solvable, same Manhattan distance.
        let rows: Vec<String> = convert(&inst.tiles)
            .chunks(4)
            .map(|r| r.iter().map(u16::to_string).collect::<Vec<_>>().join(" "))
            .collect();
        let q = SlidingPuzzle::parse(&rows.join("\n"), "converted", Goal::BlankFirst)
            .expect("the blank-first conversion parses");
        let p = SlidingPuzzle::new(4, 4, inst.tiles.clone()).expect("a board");
        assert_eq!(q.manhattan(Goal::BlankFirst), p.manhattan(Goal::BlankLast));
        assert_eq!(
            q.blank_distance(Goal::BlankFirst),
            p.blank_distance(Goal::BlankLast)
        );
    }

    let deep = check_set("deepcubea_test_24puzzle.txt", 5, Goal::BlankLast, 496, 2);
    assert_eq!(sum(&deep), 44348, "DeepCubeA 24: sum of optima");

    let eight = check_set("eightpuzzle_by_depth.txt", 3, Goal::BlankFirst, 91, 0);
    for d in 1..=31 {
        let n = eight.iter().filter(|i| i.optimal == d).count();
        // Only 2 states lie at depth 1 and at depth 31 (OEIS A089473).
        let expected = if d == 1 || d == 31 { 2 } else { 3 };
        assert_eq!(n, expected, "8-puzzle: instances at depth {d}");
    }
    // The two 31-move positions (blank-first; OEIS A089473 gives 2 states at depth 31).
    let mut deepest: Vec<&[u16]> = eight
        .iter()
        .filter(|i| i.optimal == 31)
        .map(|i| &i.tiles[..])
        .collect();
    deepest.sort();
    assert_eq!(
        deepest,
        [
            &[8, 0, 6, 5, 4, 7, 2, 3, 1][..],
            &[8, 7, 6, 0, 4, 1, 2, 5, 3][..]
        ]
    );

    let fifteen = check_set("fifteen_small_by_length.txt", 4, Goal::BlankFirst, 145, 1);
    for inst in &fifteen {
        let walk = inst.extra[0] as usize;
        assert!(
            walk >= inst.optimal && (walk - inst.optimal).is_multiple_of(2),
            "fifteen_small #{}: walk {walk} vs optimal {}",
            inst.id,
            inst.optimal
        );
    }
    let lengths: std::collections::BTreeSet<usize> = fifteen.iter().map(|i| i.optimal).collect();
    assert_eq!(lengths.first(), Some(&4));
    assert_eq!(lengths.last(), Some(&54));
}
