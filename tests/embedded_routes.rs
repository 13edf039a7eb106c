//! The routes that need nothing installed, on the case study: the embedded MILP engine on the
//! flow model and the embedded SAT engine, each returning 11 verified, optimal moves.

use std::time::Duration;
use tilekit::Goal;
use tilekit::route::method::{MilpMethod, SatMethod, SlidingMethod};
use tilekit::route::sliding::{self, Horizon, SlidingModel, SolvePlan, SolveRequest, load};
use tilekit::route::{ModelName, Route, quiet};
use tilekit::solve::Limits;

fn opts(via: Route, model: ModelName, solver: &str, horizon: Option<usize>) -> SolvePlan {
    let (solver, horizon) = (Some(solver.into()), horizon.map(Horizon::Steps));
    let method = match via {
        Route::Milp => SlidingMethod::Milp(MilpMethod {
            model: SlidingModel::of(model).unwrap().milp(),
            solver,
            horizon,
            ..MilpMethod::default()
        }),
        _ => {
            assert_eq!(model, ModelName::Sat);
            SlidingMethod::Sat(SatMethod {
                solver,
                horizon,
                ..SatMethod::default()
            })
        }
    };
    SolveRequest::new(method, Limits::new(Duration::from_secs(120), 1))
        .plan()
        .unwrap()
}

fn solve_sliding(
    p: &tilekit::SlidingPuzzle,
    goal: Goal,
    plan: &SolvePlan,
) -> Result<tilekit::route::Report, tilekit::Error> {
    sliding::solve(p, goal, plan, &quiet)
}

#[test]
fn case_study_through_the_embedded_engines() {
    let p = load(
        "models/sliding/neos_case_study.txt".as_ref(),
        Goal::BlankLast,
    )
    .unwrap();
    for o in [
        opts(Route::Milp, ModelName::Flow, "microlp", Some(11)),
        opts(Route::Milp, ModelName::Flow, "microlp", Some(12)),
        opts(Route::Sat, ModelName::Sat, "varisat", None),
    ] {
        let r = solve_sliding(&p, Goal::BlankLast, &o).unwrap();
        assert_eq!(r.status, "solved", "{o:?}: {r:?}");
        assert!(r.verified && r.optimal, "{o:?}: {r:?}");
        assert_eq!(r.objective, Some(11.0));
        assert_eq!(r.moves().map(str::len), Some(11));
    }
}

#[test]
fn embedded_milp_reports_an_infeasible_horizon_as_an_answer() {
    // 9 steps cannot solve an 11-move board: an outcome (exit 1), not an error.
    let p = load(
        "models/sliding/neos_case_study.txt".as_ref(),
        Goal::BlankLast,
    )
    .unwrap();
    let r = solve_sliding(
        &p,
        Goal::BlankLast,
        &opts(Route::Milp, ModelName::Flow, "microlp", Some(9)),
    )
    .unwrap();
    assert_eq!(r.status, "infeasible");
    assert!(!r.verified && r.moves().is_none());
}

#[test]
fn flow_model_exports_and_its_raw_solution_verifies() {
    use tilekit::format::Format;
    let p = load(
        "models/sliding/neos_case_study.txt".as_ref(),
        Goal::BlankLast,
    )
    .unwrap();
    for fmt in [Format::Lp, Format::Mps] {
        let mut out = Vec::new();
        sliding::export(
            &p,
            Goal::BlankLast,
            (SlidingModel::Flow, fmt),
            11,
            None,
            &mut out,
        )
        .unwrap();
        assert!(String::from_utf8(out).unwrap().contains("m_c14_d13_t1"));
    }
    // A GLPK-style raw answer for the flow model, built from the embedded engine's values,
    // goes through `verify` like any solver output.
    let built = sliding::build_milp(&p, Goal::BlankLast, SlidingModel::Flow, 11).unwrap();
    let sol = tilekit::solve::milp_embedded::solve_microlp(built.model(), Duration::from_secs(60))
        .unwrap();
    let x = sol.resolve(built.model()).unwrap();
    let mut raw = format!("s mip {} {} o 11\n", built.model().num_rows(), x.len());
    for (j, v) in x.iter().enumerate() {
        raw.push_str(&format!("j {} {}\n", j + 1, v));
    }
    raw.push_str("e o f\n");
    let v = sliding::verify(
        &p,
        Goal::BlankLast,
        &raw,
        "flow.sol",
        Some(SlidingModel::Flow),
        Some(11),
    )
    .unwrap();
    assert!(v.valid, "{:?}", v.errors);
    assert_eq!(v.objective, Some(11.0));
}

/// Through the front door, a method of the other family is refused before anything runs
/// (exit 2), whichever way round.
#[test]
fn a_method_of_the_other_family_is_refused() {
    use tilekit::route::families;
    use tilekit::route::family;
    use tilekit::route::method::{EdgeMethod, Method};
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let limits = Limits::new(Duration::from_secs(5), 1);
    let sliding = families::read(&root.join("models/sliding/neos_case_study.txt"), None).unwrap();
    let edge = families::read(
        &root.join("models/edge-matching/meta2010/pieces_03x03.txt"),
        None,
    )
    .unwrap();
    let err = families::solve(
        &sliding,
        &family::SolveRequest::new(Method::Edge(EdgeMethod::Auto), limits),
        &quiet,
    )
    .unwrap_err();
    assert_eq!(err.exit_code(), 2);
    assert!(
        err.to_string()
            .contains("an edge-matching method does not apply to sliding-tile puzzles"),
        "{err}"
    );
    let err = families::solve(
        &edge,
        &family::SolveRequest::new(
            Method::Sliding {
                goal: Goal::BlankLast,
                method: SlidingMethod::default(),
            },
            limits,
        ),
        &quiet,
    )
    .unwrap_err();
    assert_eq!(err.exit_code(), 2);
    assert!(
        err.to_string()
            .contains("a sliding-tile method does not apply to edge-matching puzzles"),
        "{err}"
    );
}
