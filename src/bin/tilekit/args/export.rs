//! `tilekit export` and `tilekit export-set`: one model file, or a whole set with its manifest.

use super::*;
use std::path::PathBuf;
use tilekit::format::Format;
use tilekit::route::ModelName;
use tilekit::route::sliding::Horizon;

pub(crate) fn parse_rectangle(s: &str) -> Result<[usize; 4], String> {
    let bad =
        || format!("expected R0,C0,R1,C1 (four whole numbers, rows and columns from 0), not {s:?}");
    let v: Vec<usize> = s
        .split(',')
        .map(|x| x.trim().parse().map_err(|_| bad()))
        .collect::<Result<_, _>>()?;
    <[usize; 4]>::try_from(v).map_err(|_| bad())
}

/// How `export-set` stores model files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum CompressArg {
    /// Plain files.
    None,
    /// gzip.
    Gz,
    /// xz.
    Xz,
}

impl From<CompressArg> for tilekit::campaign::export_set::Compress {
    fn from(c: CompressArg) -> Self {
        match c {
            CompressArg::None => Self::None,
            CompressArg::Gz => Self::Gz,
            CompressArg::Xz => Self::Xz,
        }
    }
}

/// The arguments of `export`.
#[derive(clap::Args)]
pub(crate) struct ExportArgs {
    /// The instance file, or a member of a built-in set (korf100:7, meta2010:5).
    pub(crate) instance: PathBuf,
    /// The formulation: sliding neos (default; the case study's MILP), tight (the flow
    /// model, moves first, with an admissible bound: the fastest to solve), flow or sat (CNF); edge milp
    /// (default; Salassa et al.), clique, sat, maxsat (WCNF: a legal board, each matched
    /// seam a soft clause), or region (their region MILP of a rectangle of a partial board:
    /// --region, --partial).
    #[arg(long, value_parser = model_names())]
    pub(crate) model: Option<ModelName>,
    /// The file format (default: from -o's extension, else the model's own: lp, cnf, wcnf
    /// or dimacs; wcnf-legacy is the old `p wcnf` format; opb and wbo, pseudo-Boolean, for
    /// the edge milp and maxsat models); neos writes a NEOS job document.
    #[arg(long, value_parser = format_names())]
    pub(crate) format: Option<Format>,
    /// For --format neos: the model's input method inside the job (default mps).
    #[arg(long, value_enum)]
    pub(crate) input: Option<InputArg>,
    /// For --format neos: the NEOS solver (default cbc; cplex, ...).
    #[arg(long)]
    pub(crate) neos_solver: Option<String>,
    /// For --format neos: the e-mail address NEOS requires (else $NEOS_EMAIL).
    #[arg(long)]
    pub(crate) email: Option<String>,
    /// Output file (`-` or omitted: stdout).
    #[arg(short = 'o')]
    pub(crate) output: Option<PathBuf>,
    /// Edge clique model: write the complement (the conflict graph; far smaller on big boards).
    #[arg(long)]
    pub(crate) complement: bool,
    /// Edge region model: the rectangle to fill, R0,C0,R1,C1 (its corners; rows and
    /// columns from 0 as in board files, inclusive). Its cells must be empty on --partial.
    #[arg(long, value_parser = parse_rectangle, value_name = "R0,C0,R1,C1")]
    pub(crate) region: Option<[usize; 4]>,
    /// Edge region model: the partial board the region is cut from (a board file; `R C`
    /// alone for an empty board). Every piece not on it may fill the region.
    #[arg(long, value_name = "BOARD")]
    pub(crate) partial: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) common: Common,
}

/// The arguments of `export-set`.
#[derive(clap::Args)]
pub(crate) struct ExportSetArgs {
    /// The set: korf100, korf50-24, hardest80, deepcubea15, deepcubea24, short15, short8,
    /// meta2010, brendan1, eii, eii-clues (built-in sets take :FIRST-LAST, e.g.
    /// korf100:1-3, meta2010:3-5 by side); generate:edge:rows=R,cols=C,frame=F,inner=I,
    /// count=N,seed=S; generate:sliding:rows=R,cols=C,walk=L,count=N,seed=S; or a
    /// directory or list file of instance files.
    pub(crate) set: String,
    /// The models, comma-separated (those that do not apply to an instance are listed as
    /// skipped in the manifest).
    #[arg(long, value_parser = model_names(), value_delimiter = ',', required = true)]
    pub(crate) models: Vec<ModelName>,
    /// The formats, comma-separated.
    #[arg(long, value_parser = format_names(), value_delimiter = ',', required = true)]
    pub(crate) formats: Vec<Format>,
    /// Sliding: the horizon of the time-indexed models, a number or `auto` (the default:
    /// the set's stated optimum where it has one, else the native solver's).
    #[arg(long, value_parser = parse_horizon)]
    pub(crate) horizon: Option<Horizon>,
    /// Sliding instances read from files: their goal convention (built-in sets have
    /// their own).
    #[arg(long, value_enum)]
    pub(crate) goal: Option<GoalArg>,
    /// Edge milp and sat: keep only placements with grey exactly on the rim.
    #[arg(long)]
    pub(crate) filter: bool,
    /// Edge milp and sat: fix the first corner piece in the top-left corner.
    #[arg(long)]
    pub(crate) fix_corner: bool,
    /// Store the model files compressed: gz (read by the solvers listed in
    /// docs/src/export.md) or xz (decompressed by `run` for its solvers).
    #[arg(long, value_enum, default_value_t = CompressArg::None)]
    pub(crate) compress: CompressArg,
    /// Files written at the same time.
    #[arg(long, default_value_t = 1)]
    pub(crate) jobs: usize,
    /// The directory to write (created if missing).
    #[arg(short = 'o', required = true)]
    pub(crate) output: PathBuf,
    /// Print the summary as one JSON object.
    #[arg(long)]
    pub(crate) json: bool,
}
