//! Formulate a sliding puzzle as the NEOS case study's MILP and write it in CPLEX LP form, the
//! pipeline's first stages called one by one (what `tilekit export --model neos` does).
//!
//! ```sh
//! cargo run --release --example export_lp -- models/sliding/neos_case_study.txt 13 > case13.lp
//! ```

use std::error::Error;
use tilekit::formulate::sliding_case_study;
use tilekit::{Goal, SlidingPuzzle};

fn main() -> Result<(), Box<dyn Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or("usage: export_lp INSTANCE HORIZON")?;
    let horizon: usize = args
        .next()
        .ok_or("usage: export_lp INSTANCE HORIZON")?
        .parse()?;
    let text = std::fs::read_to_string(&path)?;
    // Parse errors name the file and the line.
    let puzzle = SlidingPuzzle::parse(&text, &path, Goal::BlankLast)?;
    let neos = sliding_case_study::build(&puzzle, Goal::BlankLast, horizon)?;
    eprintln!(
        "{} variables, {} rows",
        neos.model.num_vars(),
        neos.model.num_rows()
    );
    // The writer streams: the file never exists twice in memory.
    tilekit::format::lp::write_lp(&neos.model, std::io::stdout().lock())?;
    Ok(())
}
