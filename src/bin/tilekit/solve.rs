//! `tilekit solve`: map the options onto the library's request (flag names end here), solve,
//! print the report, write the verified solution.

use crate::args::solve::SolveArgs;
use crate::{family_options, progress_line, say};
use std::process::ExitCode;
use tilekit::Error;
use tilekit::route::edge_heuristic::HeuristicChoice;
use tilekit::route::families::{self, read};
use tilekit::route::family::SolveRequest;
use tilekit::route::output::{check_writable, write_to};

/// Run `tilekit solve`.
pub(crate) fn run(a: SolveArgs) -> Result<ExitCode, Error> {
    let lim = tilekit::route::limits(a.time_limit, a.threads)?;
    let settings = a.settings()?;
    let req = SolveRequest {
        via: a.via,
        model: a.model,
        solver: a.solver.clone(),
        limits: lim,
        solvers_file: a.solvers_file.clone(),
        encoding: a.encoding.map(Into::into),
        certify: a.certify.then(|| tilekit::certify::CertifyOptions {
            checker: a.research.checker.clone(),
            checker_time_limit: lim.time,
            proof_dir: a.proof_dir.clone(),
            split: 0,
            jobs: 2,
            direction: None,
            race: false,
        }),
        plan: a.plan.clone(),
        incumbent: a
            .incumbent
            .as_deref()
            .map(tilekit::route::sliding::Incumbent::parse),
        step: a.research.step,
        pdb: a.pdb.clone(),
        heuristic: HeuristicChoice {
            construct: a.construct,
            improve: a.improve,
            start: a.start.clone(),
            seed: a.seed,
            fixes: a.fix.clone(),
            starter: a.no_fix.then_some(false),
            best_so_far: a.output.clone(),
        },
        astar: tilekit::route::astar::AstarFlags {
            heuristic: a.heuristic.map(Into::into),
            weights: a.research.weights.clone(),
            weight: a.weight,
            suboptimality: a.suboptimality,
            batch: None,
            max_states: None,
        },
        preset: a.preset.unwrap_or_default(),
        settings,
        options: family_options(&a.common),
    };
    let instance = read(&a.instance, a.common.family)?;
    // An output that cannot be written (or would replace an input) is found before the
    // solve, not after it.
    if let Some(path) = &a.output {
        check_writable(path)?;
    }
    let solved = families::solve(&instance, &req, &progress_line)?;
    // The answer is printed first: a file that fails now still leaves it on screen.
    say(&solved.report.render(a.json))?;
    if let (Some(path), Some(text)) = (&a.output, &solved.solution_text) {
        write_to(Some(path), text.as_bytes())?;
    }
    Ok(ExitCode::from(solved.report.exit_code()))
}
