//! Solve an instance of either family with tilekit's recommended method, as `tilekit solve`
//! does, and print the verified report.
//!
//! ```sh
//! cargo run --release --example solve -- models/sliding/neos_case_study.txt
//! cargo run --release --example solve -- models/edge-matching/meta2010/pieces_05x05.txt 10
//! ```

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;
use tilekit::route::method::Method;
use tilekit::route::{families, family::SolveRequest};
use tilekit::solve::Limits;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next().map(PathBuf::from) else {
        eprintln!("usage: solve INSTANCE [SECONDS]");
        return ExitCode::from(2);
    };
    let seconds: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(60);
    match run(&path, seconds) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("solve: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}

fn run(path: &std::path::Path, seconds: u64) -> Result<u8, tilekit::Error> {
    // The family (sliding or edge-matching) is found from the file's content.
    let inst = families::read(path, None)?;
    // No route named: the method tilekit measured best for this instance.
    let req = SolveRequest::new(
        Method::Recommended,
        Limits::new(Duration::from_secs(seconds), 1),
    );
    let solved = families::solve(&inst, &req, &|line| eprintln!("{line}"))?;
    println!("{}", solved.report.render(false));
    if let Some(text) = solved.solution_text {
        print!("{text}");
    }
    Ok(solved.report.exit_code())
}
