//! Property test over generated edge-matching puzzles: every puzzle `generate` makes has a
//! planted perfect board, so each model must come back perfect through a real solver —
//! the MILP through HiGHS, the clique graph through cliquer, the CNF through varisat — and
//! every decoded board must pass the independent verifier with all inner seams matched.
//!
//! The embedded route (varisat) is one test and the installed solvers another, which shows
//! as ignored without the `solver-tests` feature; with it, a missing solver fails.

use proptest::prelude::*;
use std::time::Duration;
use tilekit::formulate::edge_milp::EdgeMilpOptions;
use tilekit::puzzle::edge::generate;
use tilekit::route::edge::{EdgeModel, SolveRequest};
use tilekit::route::method::{ExactMethod, ExactModel};
use tilekit::route::{ModelName, Route, quiet};
use tilekit::solve::Limits;
use tilekit::verify::edge::BoardChecker;

fn options(via: Route, model: ModelName, solver: &str) -> SolveRequest {
    let model = EdgeModel::of(model).unwrap();
    assert_eq!(model.route(), via);
    SolveRequest::new(
        ExactMethod {
            // The filter keeps the MILP small (a variable only where grey faces out); the
            // planted board stays feasible, so the optimum is still 0.
            model: ExactModel::of(
                model,
                EdgeMilpOptions {
                    filter_feasible: true,
                    fix_first_corner: false,
                },
            ),
            solver: Some(solver.into()),
        },
        Limits::new(Duration::from_secs(60), 1),
    )
}

/// A generated puzzle through each of `routes`: verified, perfect, and its board passes the
/// verifier alone.
fn comes_back_perfect(
    (rows, cols, frame, inner, seed): (usize, usize, u16, u16, u64),
    routes: &[(Route, ModelName, &str)],
) -> Result<(), TestCaseError> {
    let (p, planted) = generate(rows, cols, frame, inner, seed).unwrap();
    prop_assert!(BoardChecker.verdict(&p, &planted, Some(0.0)).valid);
    for &(via, model, solver) in routes {
        let rep = tilekit::route::edge::solve(&p, &options(via, model, solver), &quiet).unwrap();
        prop_assert!(
            rep.verified && rep.objective == Some(0.0),
            "{rows}x{cols} f{frame} i{inner} seed {seed} via {via:?}/{solver}: {:?}",
            rep
        );
        // The board the route returns is checked again here, by the verifier alone.
        let board = rep.board().expect("a verified report carries its board");
        let v = BoardChecker.verdict(&p, board, Some(0.0));
        prop_assert!(v.valid, "{:?}", v.errors);
        prop_assert_eq!(v.matched, p.max_score());
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(10))]

    #[test]
    fn generated_puzzles_come_back_perfect_through_the_embedded_sat_solver(
        rows in 2usize..5, cols in 2usize..5, frame in 1u16..4, inner in 1u16..6,
        seed in any::<u64>()
    ) {
        comes_back_perfect((rows, cols, frame, inner, seed), &[(Route::Sat, ModelName::Sat, "varisat")])?;
    }

    #[cfg_attr(not(feature = "solver-tests"), ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on")]
    #[test]
    fn generated_puzzles_come_back_perfect_through_the_installed_solvers(
        rows in 2usize..5, cols in 2usize..5, frame in 1u16..4, inner in 1u16..6,
        seed in any::<u64>()
    ) {
        comes_back_perfect(
            (rows, cols, frame, inner, seed),
            &[
                (Route::Milp, ModelName::Milp, "highs"),
                (Route::Clique, ModelName::Clique, "cliquer"),
            ],
        )?;
    }
}
