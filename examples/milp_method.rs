//! Name a method instead of taking the recommended one: the NEOS case study's MILP route on
//! the embedded microlp engine, so nothing needs to be installed. The method is a typed
//! value: its variant carries only the options the MILP route takes (model, solver, horizon,
//! incumbent, stepping), and whatever is left out is the route's measured default (the
//! `tight` model, stepped up from the admissible bound).
//!
//! ```sh
//! cargo run --release --example milp_method
//! cargo run --release --example milp_method -- models/sliding/neos_case_study.txt highs
//! ```

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;
use tilekit::puzzle::sliding::Goal;
use tilekit::route::method::{Method, MilpMethod, SlidingMethod};
use tilekit::route::{families, family::SolveRequest};
use tilekit::solve::Limits;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let path = args.next().map_or_else(
        || PathBuf::from("models/sliding/neos_case_study.txt"),
        PathBuf::from,
    );
    let solver = args.next().unwrap_or_else(|| "microlp".into());
    let method = Method::Sliding {
        goal: Goal::BlankLast,
        method: SlidingMethod::Milp(MilpMethod {
            solver: Some(solver),
            ..MilpMethod::default()
        }),
    };
    let run = || -> Result<u8, tilekit::Error> {
        let inst = families::read(&path, None)?;
        let req = SolveRequest::new(method, Limits::new(Duration::from_secs(60), 1));
        let solved = families::solve(&inst, &req, &|line| eprintln!("{line}"))?;
        println!("{}", solved.report.render(false));
        Ok(solved.report.exit_code())
    };
    match run() {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("milp_method: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}
