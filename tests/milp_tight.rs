//! The `tight` MILP against the faithful `neos` one, on the real HiGHS and CBC: on a batch of
//! short instances both must prove the same optimum (the one the instance files state), each
//! plan replayed by the checker and each point checked against its model, with idle steps in
//! the horizon (optimum + 2) so that the moves-first rows and the parity pairs are exercised;
//! the tight model also at a generous horizon (optimum + 10) and the case study at its own
//! horizon, 80. A missing solver FAILS; without the `solver-tests` feature the tests show as ignored.

use super::short_instances::require_solver;
use std::path::Path;
use std::time::Duration;
use tilekit::puzzle::sliding::Move;
use tilekit::route::method::{MilpMethod, SlidingMethod};
use tilekit::route::sliding::{self, Horizon, SlidingModel, SolveRequest};
use tilekit::route::{ModelName, quiet};
use tilekit::solve::Limits;
use tilekit::{Goal, SlidingPuzzle};

/// Instances `ids` of `fifteen_small_by_length.txt` (blank-first): the board and its optimum.
fn fifteen(ids: &[usize]) -> Vec<(String, SlidingPuzzle, usize)> {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("models/sliding/fifteen_small_by_length.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut out = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let nums: Vec<usize> = line
            .split_whitespace()
            .map(|t| t.parse().unwrap())
            .collect();
        if !ids.contains(&nums[0]) {
            continue;
        }
        let rows: Vec<String> = nums[3..]
            .chunks(4)
            .map(|r| r.iter().map(usize::to_string).collect::<Vec<_>>().join(" "))
            .collect();
        let name = format!("fifteen_small #{}", nums[0]);
        let p = SlidingPuzzle::parse(
            &format!("4 4\n{}\n", rows.join("\n")),
            &name,
            Goal::BlankFirst,
        )
        .unwrap();
        out.push((name, p, nums[1]));
    }
    assert_eq!(out.len(), ids.len(), "every id is in the file");
    out
}

/// Solve `p` with `model` by `solver` at `horizon`; the verified, proven-optimal length.
fn optimum(p: &SlidingPuzzle, goal: Goal, model: ModelName, solver: &str, horizon: usize) -> f64 {
    let plan = SolveRequest {
        method: SlidingMethod::Milp(MilpMethod {
            model: SlidingModel::of(model).unwrap().milp(),
            solver: Some(solver.into()),
            horizon: Some(Horizon::Steps(horizon)),
            ..MilpMethod::default()
        }),
        // Generous: each instance takes seconds; a slow machine must not fail the test.
        ..SolveRequest::new(
            SlidingMethod::default(),
            Limits::new(Duration::from_secs(300), 1),
        )
    }
    .plan()
    .expect("a valid request");
    let rep = sliding::solve(p, goal, &plan, &quiet)
        .unwrap_or_else(|e| panic!("{} by {solver} at {horizon}: {e}", model.name()));
    let what = format!("{} by {solver} at horizon {horizon}", model.name());
    assert_eq!(rep.status, "solved", "{what}: {rep:?}");
    assert!(rep.verified, "{what}: not verified: {rep:?}");
    assert!(rep.optimal, "{what}: not proven optimal: {rep:?}");
    assert_eq!(rep.bound, rep.objective, "{what}");
    rep.objective.expect("a solved report has an objective")
}

fn tight_agrees_with_the_faithful_model(solver: &str) {
    require_solver(solver);
    // Lengths 4 to 8 (ids 1, 4, 7, 10, 13, 14): seconds each for the faithful model.
    let mut batch = fifteen(&[1, 4, 7, 10, 13, 14]);
    batch.push((
        "neos_case_study".into(),
        sliding::load(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("models/sliding/neos_case_study.txt"),
            Goal::BlankLast,
        )
        .unwrap(),
        11,
    ));
    for (name, p, stated) in &batch {
        let goal = if name.starts_with("neos") {
            Goal::BlankLast
        } else {
            Goal::BlankFirst
        };
        let h = stated + 2;
        let faithful = optimum(p, goal, ModelName::Neos, solver, h);
        let tight = optimum(p, goal, ModelName::Tight, solver, h);
        eprintln!("{name}: neos {faithful}, tight {tight} by {solver} at {h}");
        assert_eq!(
            faithful, *stated as f64,
            "{name}: the faithful model by {solver}"
        );
        assert_eq!(
            tight, faithful,
            "{name}: tight and faithful differ by {solver}"
        );
        // A generous horizon: more idle steps, the same optimum.
        let wide = optimum(p, goal, ModelName::Tight, solver, stated + 10);
        assert_eq!(
            wide,
            faithful,
            "{name}: tight at {} by {solver}",
            stated + 10
        );
    }
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn tight_proves_the_faithful_optimum_with_highs() {
    tight_agrees_with_the_faithful_model("highs");
}

#[test]
#[cfg_attr(
    not(all(feature = "slow-tests", feature = "solver-tests")),
    ignore = "slow tier: CBC on the case study, minutes on 2 cores; the HiGHS variant runs in the quick tier (scripts/test.sh --full)"
)]
fn tight_proves_the_faithful_optimum_with_cbc() {
    tight_agrees_with_the_faithful_model("cbc");
}

/// The case study at its own horizon (80 steps, 69 of them idle), where `flow` needs about
/// two minutes with HiGHS: `tight` proves 11 in seconds (README, "generous horizon").
#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn tight_proves_the_case_study_at_horizon_80_with_highs() {
    require_solver("highs");
    let p = sliding::load(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("models/sliding/neos_case_study.txt"),
        Goal::BlankLast,
    )
    .unwrap();
    assert_eq!(
        optimum(&p, Goal::BlankLast, ModelName::Tight, "highs", 80),
        11.0
    );
}

/// A horizon below the optimum has no plan: the model says infeasible rather than a
/// shorter (wrong) plan, also when the heuristic's bound already exceeds the horizon.
#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn tight_below_the_optimum_is_infeasible_with_highs() {
    require_solver("highs");
    let (_, p, stated) = fifteen(&[13]).remove(0);
    for h in [stated - 2, stated - 1] {
        let plan = SolveRequest {
            method: SlidingMethod::Milp(MilpMethod {
                model: SlidingModel::of(ModelName::Tight).unwrap().milp(),
                solver: Some("highs".into()),
                horizon: Some(Horizon::Steps(h)),
                ..MilpMethod::default()
            }),
            ..SolveRequest::new(
                SlidingMethod::default(),
                Limits::new(Duration::from_secs(120), 1),
            )
        }
        .plan()
        .unwrap();
        let rep = sliding::solve(&p, Goal::BlankFirst, &plan, &quiet).unwrap();
        assert_eq!(rep.status, "infeasible", "horizon {h}: {rep:?}");
        assert!(!rep.verified && rep.moves().is_none());
    }
}

/// `--incumbent`: the MILP route from a plan of L moves. Run through `solve` with `source`;
/// the report.
fn from_incumbent(
    p: &SlidingPuzzle,
    source: sliding::Incumbent,
    solver: &str,
    horizon: Option<usize>,
) -> tilekit::route::Report {
    let plan = SolveRequest {
        method: SlidingMethod::Milp(MilpMethod {
            model: SlidingModel::of(ModelName::Tight).unwrap().milp(),
            solver: Some(solver.into()),
            horizon: horizon.map(Horizon::Steps),
            incumbent: Some(source),
            ..MilpMethod::default()
        }),
        ..SolveRequest::new(
            SlidingMethod::default(),
            Limits::new(Duration::from_secs(300), 1),
        )
    }
    .plan()
    .expect("a valid request");
    sliding::solve(p, Goal::BlankFirst, &plan, &quiet).unwrap()
}

/// Instances (17 and 18 moves) whose 6-6-3 bound lies at least 2 below the optimum.
const INCUMBENT_IDS: &[usize] = &[41, 43];

/// The native plan is optimal; the MILP must refute L − 2 itself (these instances' 6-6-3
/// bound lies at least 2 below the optimum, so a solver runs) and say which solver did. A
/// plan padded by a back-and-forth pair (L + 2 moves) makes the model at horizon L hold the
/// shorter plan: the MILP finds it, replayed and proven optimal.
fn incumbent_is_proven_or_beaten(solver: &str) {
    require_solver(solver);
    let dir = tempfile::tempdir().unwrap();
    for (name, p, stated) in fifteen(INCUMBENT_IDS) {
        let rep = from_incumbent(&p, sliding::Incumbent::Native, solver, None);
        assert_eq!(rep.status, "solved", "{name}: {rep:?}");
        assert!(rep.verified && rep.optimal, "{name}: {rep:?}");
        assert_eq!(rep.objective, Some(stated as f64), "{name}");
        assert_eq!(rep.solver, solver, "{name}: a solver proved it: {rep:?}");
        assert!(
            rep.solver_status
                .contains(&format!("horizon {} infeasible", stated - 2)),
            "{name}: {}",
            rep.solver_status
        );
        // Pad the optimal plan with a move and its inverse, both legal at the goal.
        let mut moves = rep.plan().unwrap().to_vec();
        let end = p.replay(&moves).unwrap();
        let m = [Move::Up, Move::Down, Move::Left, Move::Right]
            .into_iter()
            .find(|&m| end.target(m).is_some())
            .unwrap();
        moves.extend([m, m.inverse()]);
        let file = dir.path().join(format!("{}.moves", stated));
        std::fs::write(&file, tilekit::puzzle::sliding::moves_to_string(&moves)).unwrap();
        let rep = from_incumbent(&p, sliding::Incumbent::File(file), solver, None);
        assert_eq!(rep.status, "solved", "{name} padded: {rep:?}");
        assert!(rep.verified && rep.optimal, "{name} padded: {rep:?}");
        assert_eq!(rep.objective, Some(stated as f64), "{name} padded");
        assert_eq!(
            rep.horizon(),
            Some(stated),
            "{name}: the model at L + 2 − 2"
        );
        // A horizon below L − 2 refutes the lengths up to it only: a bound, not optimality.
        let rep = from_incumbent(&p, sliding::Incumbent::Native, solver, Some(stated - 3));
        assert_eq!(rep.status, "solved", "{name} low horizon: {rep:?}");
        assert!(rep.verified && !rep.optimal, "{name} low horizon: {rep:?}");
        assert_eq!(rep.bound, Some((stated - 2) as f64), "{name}: parity");
    }
}

#[test]
#[cfg_attr(
    not(all(feature = "slow-tests", feature = "solver-tests")),
    ignore = "slow tier: HiGHS on the case study's faithful model from an incumbent, a minute or more on 2 cores; incumbent_at_the_bound_runs_no_solver and cli::solve_milp_tight_stepped_and_from_an_incumbent run in the quick tier (scripts/test.sh --full)"
)]
fn incumbent_is_proven_or_beaten_with_highs() {
    incumbent_is_proven_or_beaten("highs");
}

#[test]
#[cfg_attr(
    not(all(feature = "slow-tests", feature = "solver-tests")),
    ignore = "slow tier: CBC on the case study's faithful model, minutes on 2 cores; the HiGHS variant runs in the quick tier (scripts/test.sh --full)"
)]
fn incumbent_is_proven_or_beaten_with_cbc() {
    incumbent_is_proven_or_beaten("cbc");
}

/// When the plan's length is the admissible bound nothing shorter can exist: no solver is
/// run, and the report credits the bound, not a solver (the case study: the native plan is
/// 11 moves, the 6-6-3 bound 11). A horizon below the bound leaves nothing to refute
/// either: the plan stands, unproven, at the bound.
#[test]
fn incumbent_at_the_bound_runs_no_solver() {
    let p = sliding::load(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("models/sliding/neos_case_study.txt"),
        Goal::BlankLast,
    )
    .unwrap();
    let plan = SolveRequest {
        method: SlidingMethod::Milp(MilpMethod {
            model: SlidingModel::of(ModelName::Tight).unwrap().milp(),
            solver: Some("highs".into()),
            horizon: Some(Horizon::Steps(80)),
            incumbent: Some(sliding::Incumbent::Native),
            ..MilpMethod::default()
        }),
        ..SolveRequest::new(
            SlidingMethod::default(),
            Limits::new(Duration::from_secs(300), 1),
        )
    }
    .plan()
    .unwrap();
    let rep = sliding::solve(&p, Goal::BlankLast, &plan, &quiet).unwrap();
    assert!(rep.verified && rep.optimal, "{rep:?}");
    assert_eq!(rep.objective, Some(11.0));
    assert_eq!(rep.solver, "none", "{rep:?}");
    assert!(rep.solver_status.contains("no MILP was needed"), "{rep:?}");
    let (_, p, stated) = fifteen(&[41]).remove(0);
    let (estimate, _) = sliding::root_bound(&p, Goal::BlankFirst, None)
        .unwrap()
        .unwrap();
    let bound = tilekit::formulate::sliding_tight::parity_bound(&p, Goal::BlankFirst, estimate);
    assert!(
        bound + 2 <= stated,
        "id 41's bound {bound} is below its optimum"
    );
    let rep = from_incumbent(&p, sliding::Incumbent::Native, "highs", Some(bound - 3));
    assert!(rep.verified && !rep.optimal, "{rep:?}");
    assert_eq!(rep.bound, Some(bound as f64), "{rep:?}");
    assert_eq!(rep.solver, "none", "{rep:?}");
}

/// `--step`: horizons B, B + 2, … from the admissible bound; the first with a plan is the
/// optimum. Run through `solve` at `horizon`; the report.
fn stepped(p: &SlidingPuzzle, goal: Goal, solver: &str, horizon: usize) -> tilekit::route::Report {
    let plan = SolveRequest {
        method: SlidingMethod::Milp(MilpMethod {
            model: SlidingModel::of(ModelName::Tight).unwrap().milp(),
            solver: Some(solver.into()),
            horizon: Some(Horizon::Steps(horizon)),
            step: Some(true),
            ..MilpMethod::default()
        }),
        ..SolveRequest::new(
            SlidingMethod::default(),
            Limits::new(Duration::from_secs(300), 1),
        )
    }
    .plan()
    .expect("a valid request");
    sliding::solve(p, goal, &plan, &quiet).unwrap()
}

/// Stepping proves the stated optima: on instances whose bound lies below the optimum the
/// solver refutes the horizons between (and says so), and the case study at its own horizon
/// 80 stops at 11, the bound; a horizon below the bound is infeasible without a solver.
fn stepping_proves_the_optimum(solver: &str) {
    require_solver(solver);
    for (name, p, stated) in fifteen(INCUMBENT_IDS) {
        let rep = stepped(&p, Goal::BlankFirst, solver, stated + 10);
        assert!(rep.verified && rep.optimal, "{name}: {rep:?}");
        assert_eq!(rep.objective, Some(stated as f64), "{name}");
        assert_eq!(rep.horizon(), Some(stated), "{name}: stops at the optimum");
        assert!(
            rep.solver_status
                .contains(&format!("{} proven infeasible", stated - 2)),
            "{name}: {}",
            rep.solver_status
        );
    }
    let p = sliding::load(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("models/sliding/neos_case_study.txt"),
        Goal::BlankLast,
    )
    .unwrap();
    let rep = stepped(&p, Goal::BlankLast, solver, 80);
    assert!(rep.verified && rep.optimal, "{rep:?}");
    assert_eq!((rep.objective, rep.horizon()), (Some(11.0), Some(11)));
    assert!(
        rep.solver_status.contains("the admissible bound"),
        "{rep:?}"
    );
    let rep = stepped(&p, Goal::BlankLast, solver, 9);
    assert_eq!(rep.status, "infeasible", "{rep:?}");
    assert_eq!(rep.solver, "none", "{rep:?}");
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn stepping_proves_the_optimum_with_highs() {
    stepping_proves_the_optimum("highs");
}

#[test]
#[cfg_attr(
    not(all(feature = "slow-tests", feature = "solver-tests")),
    ignore = "slow tier: CBC on the case study's faithful model at several horizons, minutes on 2 cores; the HiGHS variant runs in the quick tier (scripts/test.sh --full)"
)]
fn stepping_proves_the_optimum_with_cbc() {
    stepping_proves_the_optimum("cbc");
}

/// A solver that contradicts itself is caught: HiGHS behind a wrapper that calls horizon 17
/// of instance 41 (17 moves) infeasible. Stepping goes on to 19, where HiGHS finds a 17-move plan:
/// shorter than the refutations allow, so the answer is unverified (a solver failure), not
/// an optimum, although the plan itself replays.
#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn stepping_reports_a_solver_that_contradicts_its_refutations() {
    use std::os::unix::fs::PermissionsExt;
    require_solver("highs");
    let dir = tempfile::tempdir().unwrap();
    let liar = dir.path().join("liar.sh");
    std::fs::write(
        &liar,
        "#!/bin/sh\n\
         if head -1 \"$2\" | grep -q '_T17,'; then\n\
           printf 'Model status\\nInfeasible\\n\\n# Primal solution values\\nNone\\n' > \"$4\"; exit 0\n\
         fi\n\
         exec highs \"$@\"\n",
    )
    .unwrap();
    std::fs::set_permissions(&liar, std::fs::Permissions::from_mode(0o755)).unwrap();
    let reg = dir.path().join("reg.toml");
    std::fs::write(
        &reg,
        format!(
            "[solver.liar]\nkind = \"milp\"\ncommand = \"{}\"\ninput = \"lp\"\nargs = [\"--model_file\", \"{{model}}\", \"--solution_file\", \"{{solution}}\", \"--time_limit\", \"{{time_limit}}\"]\nsolution = \"highs\"\n",
            liar.display()
        ),
    )
    .unwrap();
    let (_, p, stated) = fifteen(&[41]).remove(0);
    assert_eq!(stated, 17);
    let plan = SolveRequest {
        method: SlidingMethod::Milp(MilpMethod {
            model: SlidingModel::of(ModelName::Tight).unwrap().milp(),
            solver: Some("liar".into()),
            horizon: Some(Horizon::Steps(30)),
            step: Some(true),
            ..MilpMethod::default()
        }),
        solvers_file: Some(reg),
        ..SolveRequest::new(
            SlidingMethod::default(),
            Limits::new(Duration::from_secs(300), 1),
        )
    }
    .plan()
    .unwrap();
    let rep = sliding::solve(&p, Goal::BlankFirst, &plan, &quiet).unwrap();
    assert_eq!(rep.status, "unverified", "{rep:?}");
    assert!(!rep.optimal && !rep.verified, "{rep:?}");
    assert_eq!(rep.horizon(), Some(19), "{rep:?}");
    assert!(
        rep.errors.iter().any(|e| e.contains("contradicts")),
        "{rep:?}"
    );
}
