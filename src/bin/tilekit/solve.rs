//! `tilekit solve`: map the options onto the library's typed method once the instance's
//! family is known (flag names end here, `args::method`), solve,
//! print the report, write the verified solution.

use crate::args::solve::SolveArgs;
use crate::{progress_line, say};
use std::process::ExitCode;
use tilekit::Error;
use tilekit::route::families;
use tilekit::route::family::SolveRequest;
use tilekit::route::output::{check_writable, write_to};

/// Run `tilekit solve`.
pub(crate) fn run(mut a: SolveArgs) -> Result<ExitCode, Error> {
    let lim = tilekit::route::limits(a.time_limit, a.threads)?;
    let settings = a.settings()?;
    let instance = crate::read_instance(&a.instance, a.common.family, &mut a.common.goal)?;
    let method = a
        .method(instance.family.name, &settings, lim.time)
        .map_err(|e| instance.hint(e))?;
    let req = SolveRequest {
        method,
        limits: lim,
        solvers_file: a.solvers_file.clone(),
        preset: a.preset.unwrap_or_default(),
        settings,
        best_so_far: a.output.clone(),
    };
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
