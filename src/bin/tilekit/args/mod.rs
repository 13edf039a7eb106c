//! The command line as clap types, and their conversion to the library's own vocabulary
//! (ripgrep's low-level arguments → validated requests). Every closed set of values is a
//! `ValueEnum`, so `--help` lists them and clap rejects the rest; the route rules themselves
//! are checked by the library (`route::sliding::SolveRequest::plan`,
//! `route::edge::SolveRequest::model`). Each subcommand has one `Args` struct, in the file
//! of its area (export, campaign, neos, solve, bench; the small ones here), and the value
//! types live in `values.rs`; `flags.rs` names the library's fields by their flags.

pub(crate) mod bench;
mod campaign;
mod export;
pub(crate) mod flags;
mod method;
pub(crate) use method::refuse_for;
mod neos;
pub(crate) mod solve;
mod values;

pub(crate) use campaign::*;
pub(crate) use export::*;
pub(crate) use neos::*;
pub(crate) use values::*;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use tilekit::route::sliding::Horizon;
use tilekit::route::{FamilyName, ModelName};

#[derive(Parser)]
#[command(
    name = "tilekit",
    version,
    about = "Tile puzzles as optimisation models: export, solve, verify"
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub cmd: Cmd,
    /// Show no progress on stderr.
    #[arg(long, global = true, conflicts_with = "progress")]
    pub quiet: bool,
    /// Show progress on stderr even when it is not a terminal (as plain lines).
    #[arg(long, global = true, hide_short_help = true)]
    pub progress: bool,
}

#[derive(clap::Args, Clone)]
pub(crate) struct Common {
    /// Puzzle family, sliding or edge [default: from the content]
    #[arg(long, value_parser = family_names(), hide_possible_values = true)]
    pub family: Option<FamilyName>,
    /// Goal: blank-last (the default) or blank-first (Korf's sets)
    ///
    /// blank-last is the NEOS case study's convention: 1, 2, … then the blank in the last
    /// cell. Korf's benchmark sets put the blank first.
    #[arg(
        long,
        value_enum,
        hide_possible_values = true,
        help_heading = "Sliding puzzles"
    )]
    pub goal: Option<GoalArg>,
    /// Steps of the time-indexed models: N or auto [default: the diameter]
    ///
    /// auto: the native solver's optimum, the smallest feasible horizon. Default: the
    /// board's known diameter (80 on the 15-puzzle). The MILP route steps up to it from the
    /// admissible bound, so a generous horizon costs little there.
    #[arg(long, value_parser = parse_horizon, help_heading = "Sliding puzzles")]
    pub horizon: Option<Horizon>,
    /// MILP: keep only placements with grey exactly on the rim
    ///
    /// Off by default: the paper's model.
    #[arg(long, help_heading = "Edge-matching puzzles")]
    pub filter: bool,
    /// MILP, SAT, MaxSAT: the first corner piece in the top-left corner
    #[arg(long, help_heading = "Edge-matching puzzles")]
    pub fix_corner: bool,
}

#[derive(Subcommand)]
pub(crate) enum Cmd {
    /// Write a model of an instance in a solver format.
    Export(ExportArgs),

    /// Write a whole instance set × models × formats into a directory, with a manifest
    /// (manifest.json, manifest.csv: every file's SHA-256, bytes, model, format, horizon,
    /// size and the instance's known optimum). Re-running keeps the files that still match.
    #[command(name = "export-set")]
    ExportSet(ExportSetArgs),

    /// Run every file of an exported set (export-set's manifest) with every solver that
    /// reads it, verify every answer, store the results in an SQLite database and
    /// cross-check them: proven optima must agree, no verified solution may beat a proven
    /// bound or the known optimum. Exit 1 on any disagreement. Re-running runs only the
    /// cells not yet in the database.
    Run(RunArgs),

    /// One Slurm array task of `run --executor slurm` (run by Slurm, not by hand).
    #[command(name = "run-task", hide = true)]
    RunTask(RunTaskArgs),

    /// Tables and charts from a results database (tilekit run --db): solved counts and
    /// shifted geometric means (summary.md, solved.csv, sgm.csv), performance profiles and
    /// cactus plots per family (SVG), index.html to view them, and the cross-check's
    /// conflicts (exit 1 when there are any).
    Report(ReportArgs),

    /// Solve an instance and verify the answer.
    Solve(Box<solve::SolveArgs>),

    /// Learn a distance heuristic for sliding puzzles: labelled data from the native solver,
    /// and (built with `--features train`) a network trained on it.
    #[command(subcommand)]
    Learn(LearnCmd),

    /// Check a solution (tilekit moves or board, or a raw solver output: CBC, HiGHS, GLPK,
    /// MIPLIB/SCIP/Gurobi .sol, CPLEX XML, SAT, MaxSAT, cliquer) against an instance.
    Verify(VerifyArgs),

    /// Generate instances with a planted solution.
    #[command(subcommand)]
    Generate(GenerateCmd),

    /// Draw an instance, and a solution if given, as SVG.
    Render(RenderArgs),

    /// NEOS-style services: job documents, submit, follow, fetch, solve and verify.
    #[command(subcommand)]
    Neos(NeosCmd),

    /// Run a published benchmark: the native solver's sets (every length checked against the
    /// published optimum, every plan replayed), Salassa et al.'s edge-matching table, the
    /// edge searches against the anchors, and best-first search with the learned heuristic.
    #[command(subcommand)]
    Bench(bench::BenchCmd),

    /// List the research parameters that `solve --set KEY=VALUE` takes, with their values,
    /// defaults and what each does.
    Params(ParamsArgs),

    /// List the registered solvers (embedded and external), whether each is installed, and
    /// its version.
    Solvers(SolversArgs),
}

/// `tilekit learn …`.
#[derive(Subcommand)]
pub(crate) enum LearnCmd {
    /// Random solvable boards (seeded), each solved optimally by the native solver; every
    /// board on each optimal path is a labelled sample. Resumable: run the same command
    /// again after a stop, or with a larger --count to extend the file.
    Data(LearnDataArgs),

    /// Train a network on a data file (needs a build with `--features train`).
    #[cfg(feature = "train")]
    Train(Box<crate::train::TrainArgs>),
}

#[derive(Subcommand)]
pub(crate) enum GenerateCmd {
    /// An edge-matching puzzle: a random perfect board (grey frame), shuffled and rotated.
    Edge(GenerateEdgeArgs),
}

/// The arguments of `verify`.
#[derive(clap::Args)]
pub(crate) struct VerifyArgs {
    /// The instance file, or a member of a built-in set (korf100:7, meta2010:5); with
    /// --manifest, the model file of the set the solver read.
    pub(crate) instance: PathBuf,
    /// The solution file.
    pub(crate) solution: PathBuf,
    /// The manifest of an exported set: the model, horizon and options come from it, and
    /// the model file must still hash to its SHA-256.
    #[arg(long, value_name = "MANIFEST")]
    pub(crate) manifest: Option<PathBuf>,
    /// The model a raw solver output belongs to (sliding: neos, flow, tight or sat; edge: milp,
    /// clique, sat or maxsat).
    #[arg(long, value_parser = model_names())]
    pub(crate) model: Option<ModelName>,
    /// Print one JSON object.
    #[arg(long)]
    pub(crate) json: bool,
    #[command(flatten)]
    pub(crate) common: Common,
}

/// The arguments of `render`.
#[derive(clap::Args)]
pub(crate) struct RenderArgs {
    /// The instance file, or a member of a built-in set (korf100:7, meta2010:5).
    pub(crate) instance: PathBuf,
    /// A solution: an edge-matching board, or a sliding move file.
    pub(crate) solution: Option<PathBuf>,
    /// The SVG file to write (`-` for stdout).
    #[arg(short = 'o')]
    pub(crate) output: PathBuf,
    /// Write piece ids on edge-matching boards.
    #[arg(long)]
    pub(crate) ids: bool,
    /// Puzzle family (detected from the content when omitted).
    #[arg(long, value_parser = family_names())]
    pub(crate) family: Option<FamilyName>,
    /// Sliding: goal convention, blank-last (the default) or blank-first.
    #[arg(long, value_enum)]
    pub(crate) goal: Option<GoalArg>,
}

/// The arguments of `params`.
#[derive(clap::Args)]
pub(crate) struct ParamsArgs {
    /// Print the reference page in Markdown (the book's reference/parameters.md).
    #[arg(long)]
    pub(crate) markdown: bool,
}

/// The arguments of `solvers`.
#[derive(clap::Args)]
pub(crate) struct SolversArgs {
    /// Solver registry file.
    #[arg(long)]
    pub(crate) solvers_file: Option<PathBuf>,
    /// Print JSON.
    #[arg(long)]
    pub(crate) json: bool,
}

/// The arguments of learn `data`.
#[derive(clap::Args)]
pub(crate) struct LearnDataArgs {
    /// The data file to write (`FILE.partial` until it is complete).
    #[arg(short = 'o')]
    pub(crate) output: PathBuf,
    /// Boards to solve.
    #[arg(long)]
    pub(crate) count: usize,
    /// Board rows.
    #[arg(long, default_value_t = 4)]
    pub(crate) rows: usize,
    /// Board columns.
    #[arg(long, default_value_t = 4)]
    pub(crate) cols: usize,
    /// Seed of the board stream (board i depends only on the seed and i).
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// Worker threads.
    #[arg(long, default_value_t = 2)]
    pub(crate) jobs: usize,
    /// Seconds per board; a board over it is recorded as unsolved and left out of
    /// training.
    #[arg(long, default_value_t = 60.0)]
    pub(crate) board_limit: f64,
    /// Print the summary as JSON.
    #[arg(long)]
    pub(crate) json: bool,
}

/// The arguments of generate `edge`.
#[derive(clap::Args)]
pub(crate) struct GenerateEdgeArgs {
    /// Board rows.
    #[arg(long)]
    pub(crate) rows: usize,
    /// Board columns.
    #[arg(long)]
    pub(crate) cols: usize,
    /// Colours used on frame (border-to-border) edges.
    #[arg(long)]
    pub(crate) frame_colours: u16,
    /// Colours used on inner edges.
    #[arg(long)]
    pub(crate) inner_colours: u16,
    /// Random seed (the same seed gives the same files).
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// Instance file (`-` or omitted: stdout).
    #[arg(short = 'o')]
    pub(crate) output: Option<PathBuf>,
    /// Where to write the planted solution board (default: OUTPUT.solution when -o is a file).
    #[arg(long)]
    pub(crate) solution: Option<PathBuf>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use tilekit::format::Format;
    use tilekit::route::Route;

    #[test]
    fn the_command_line_is_well_formed() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }

    #[test]
    fn value_enums_cover_the_library_names() {
        // The native sets' subcommands are the library's set names.
        use clap::CommandFactory;
        let cli = Cli::command();
        let bench = cli.find_subcommand("bench").unwrap();
        let names: Vec<&str> = bench.get_subcommands().map(|c| c.get_name()).collect();
        for name in [
            "korf100",
            "korf50-24",
            "deepcubea24",
            "deepcubea15",
            "hardest80",
        ] {
            assert!(names.contains(&name), "{name} in {names:?}");
            let set = tilekit::search::sets::BenchSet::parse(name).unwrap();
            assert_eq!(set.name(), name);
        }
        for m in ModelName::ALL {
            assert_eq!(ModelName::from_name(m.name()), Some(m));
        }
        for r in Route::ALL {
            assert_eq!(Route::from_name(r.name()), Some(r));
        }
        for f in Format::ALL {
            for alias in f.aliases() {
                assert_eq!(Format::from_name(alias), Some(f));
            }
        }
    }
}
