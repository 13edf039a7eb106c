//! The pipeline by hand on the NEOS case study: parse the instance, build the faithful MILP
//! and write it as LP, then solve the SAT formulation with the embedded varisat engine,
//! stepping the horizon to optimality, and verify the plan with the independent replayer.
//!
//! Run: `cargo run --release --example case_study`

use tilekit::format::lp::write_lp;
use tilekit::formulate::sliding_neos;
use tilekit::solve::sat_embedded::solve_varisat_checked;
use tilekit::{Goal, SlidingPuzzle, verify};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let text = "4 4\n5 1 2 3\n9 6 7 4\n13 10 11 8\n14 15 0 12\n";
    let puzzle = SlidingPuzzle::parse(text, "case-study", Goal::BlankLast)?;

    // The case study's model at its own horizon of 80 steps.
    let neos = sliding_neos::build(&puzzle, Goal::BlankLast, 80)?;
    let mut lp = Vec::new();
    let bytes = write_lp(&neos.model, &mut lp)?;
    println!("{}; LP file: {bytes} bytes", neos.model);

    // Planning as SAT: horizons L, L+2, … until satisfiable; every UNSAT below proves optimality.
    let plan = tilekit::search::sat_horizon::solve_optimal(
        &puzzle,
        Goal::BlankLast,
        80,
        true,
        solve_varisat_checked,
        |_, step| {
            println!(
                "  horizon {:>2}: {:?} ({} vars, {} clauses)",
                step.horizon, step.result, step.vars, step.clauses
            )
        },
    )?;
    let moves = plan.moves.ok_or("no plan within 80 moves")?;
    let letters: String = moves.iter().map(|m| m.letter()).collect();

    // Verification shares no code with the encoder: it replays the letters on a fresh board.
    let goal = Goal::BlankLast.board(puzzle.cells());
    let verdict = verify::sliding::check_moves(4, 4, puzzle.tiles(), &goal, &letters, None);
    println!(
        "plan {letters}: {} moves, optimal: {}, verified: {}",
        moves.len(),
        plan.optimal,
        verdict.valid
    );
    Ok(())
}
