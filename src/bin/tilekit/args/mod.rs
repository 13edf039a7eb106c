//! The command line as clap types, and their conversion to the library's own vocabulary
//! (ripgrep's low-level arguments → validated requests). Every closed set of values is a
//! `ValueEnum`, so `--help` lists them and clap rejects the rest; the route rules themselves
//! are checked by the library (`route::sliding::SolveRequest::plan`,
//! `route::edge::SolveRequest::model`).

pub(crate) mod bench;
pub(crate) mod flags;
pub(crate) mod solve;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use tilekit::format::Format;
use tilekit::format::neos_job::InputMethod;
use tilekit::formulate::sliding_sat::Encoding;
use tilekit::puzzle::sliding::Goal;
use tilekit::route::sliding::Horizon;
use tilekit::route::{FamilyName, ModelName, Route};

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

/// `--family`: the library's families (a new family adds its name there, not here).
fn family_names() -> impl TypedValueParser<Value = FamilyName> {
    PossibleValuesParser::new(FamilyName::ALL.map(FamilyName::name))
        .map(|s| FamilyName::from_name(&s).expect("clap accepts only the listed names"))
}

/// Goal conventions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GoalArg {
    /// Tiles 1..n in order, blank last (the case study's).
    BlankLast,
    /// Blank first, then tiles 1..n (Korf's).
    BlankFirst,
}

impl From<GoalArg> for Goal {
    fn from(g: GoalArg) -> Goal {
        match g {
            GoalArg::BlankLast => Goal::BlankLast,
            GoalArg::BlankFirst => Goal::BlankFirst,
        }
    }
}

/// `--model`: the library's model names (a new formulation adds its name there, not here).
pub(crate) fn model_names() -> impl TypedValueParser<Value = ModelName> {
    PossibleValuesParser::new(ModelName::ALL.map(ModelName::name))
        .map(|s| ModelName::from_name(&s).expect("clap accepts only the listed names"))
}

/// `--via`: the library's routes.
pub(crate) fn route_names() -> impl TypedValueParser<Value = Route> {
    PossibleValuesParser::new(Route::ALL.map(Route::name))
        .map(|s| Route::from_name(&s).expect("clap accepts only the listed names"))
}

/// `--format`: the library's formats, with their aliases (`clq`, `col`, `xml`).
fn format_names() -> impl TypedValueParser<Value = Format> {
    PossibleValuesParser::new(
        Format::ALL.map(|f| PossibleValue::new(f.name()).aliases(f.aliases().iter().copied())),
    )
    .map(|s| Format::from_name(&s).expect("clap accepts only the listed names"))
}

/// How a NEOS job carries its model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum InputArg {
    /// Free MPS.
    Mps,
    /// CPLEX LP.
    Lp,
    /// GAMS (the algebraic model).
    #[value(alias = "gms")]
    Gams,
}

impl From<InputArg> for InputMethod {
    fn from(i: InputArg) -> InputMethod {
        match i {
            InputArg::Mps => InputMethod::Mps,
            InputArg::Lp => InputMethod::Lp,
            InputArg::Gams => InputMethod::Gams,
        }
    }
}

/// SAT encodings of the sliding puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum EncodingArg {
    /// Every position variable.
    Plain,
    /// Unreachable positions left out.
    Pruned,
    /// Pruned, plus a redundant Manhattan cardinality constraint.
    Strong,
    /// Strong, plus lower-bound clauses from small pattern databases (tile + blank, two tiles
    /// of a goal line + blank) and linear conflicts on the Manhattan counter.
    Pdb,
}

impl From<EncodingArg> for Encoding {
    fn from(e: EncodingArg) -> Encoding {
        match e {
            EncodingArg::Plain => Encoding::Plain,
            EncodingArg::Pruned => Encoding::Pruned,
            EncodingArg::Strong => Encoding::Strong,
            EncodingArg::Pdb => Encoding::Pdb,
        }
    }
}

/// Pattern-database partitions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum PdbArg {
    /// 15-puzzle, Korf & Felner's 7-8.
    #[value(name = "7-8")]
    P78,
    /// 15-puzzle, the 7-8 split by columns (outer 7, middle 8).
    #[value(name = "7-8-cols")]
    P78Cols,
    /// 15-puzzle, 7-7-1.
    #[value(name = "7-7-1")]
    P771,
    /// 15-puzzle, 6-6-3.
    #[value(name = "6-6-3")]
    P663,
    /// 24-puzzle, 6-6-6-6.
    #[value(name = "6-6-6-6")]
    P6666,
    /// Manhattan distance + linear conflict.
    None,
}

impl PdbArg {
    /// The library's name for the partition.
    pub(crate) fn name(self) -> &'static str {
        match self {
            PdbArg::P78 => "7-8",
            PdbArg::P78Cols => "7-8-cols",
            PdbArg::P771 => "7-7-1",
            PdbArg::P663 => "6-6-3",
            PdbArg::P6666 => "6-6-6-6",
            PdbArg::None => "none",
        }
    }
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

fn parse_horizon(s: &str) -> Result<Horizon, String> {
    if s == "auto" {
        return Ok(Horizon::Auto);
    }
    s.parse().map(Horizon::Steps).map_err(|_| {
        "expected a whole number of time steps or `auto` (the native solver's optimum)".to_string()
    })
}

#[derive(Subcommand)]
pub(crate) enum Cmd {
    /// Write a model of an instance in a solver format.
    Export {
        /// The instance file.
        instance: PathBuf,
        /// The formulation: sliding neos (default; the case study's MILP), tight (the flow
        /// model, moves first, with an admissible bound: the fastest to solve), flow or sat (CNF); edge milp
        /// (default; Salassa et al.), clique, sat, maxsat (WCNF: a legal board, each matched
        /// seam a soft clause), or region (their region MILP of a rectangle of a partial board:
        /// --region, --partial).
        #[arg(long, value_parser = model_names())]
        model: Option<ModelName>,
        /// The file format (default: from -o's extension, else the model's own: lp, cnf, wcnf
        /// or dimacs; wcnf-legacy is the old `p wcnf` format); neos writes a NEOS job
        /// document.
        #[arg(long, value_parser = format_names())]
        format: Option<Format>,
        /// For --format neos: the model's input method inside the job (default mps).
        #[arg(long, value_enum)]
        input: Option<InputArg>,
        /// For --format neos: the NEOS solver (default cbc; cplex, ...).
        #[arg(long)]
        neos_solver: Option<String>,
        /// For --format neos: the e-mail address NEOS requires (else $NEOS_EMAIL).
        #[arg(long)]
        email: Option<String>,
        /// Output file (`-` or omitted: stdout).
        #[arg(short = 'o')]
        output: Option<PathBuf>,
        /// Edge clique model: write the complement (the conflict graph; far smaller on big boards).
        #[arg(long)]
        complement: bool,
        /// Edge region model: the rectangle to fill, R0,C0,R1,C1 (its corners; rows and
        /// columns from 0 as in board files, inclusive). Its cells must be empty on --partial.
        #[arg(long, value_parser = parse_rectangle, value_name = "R0,C0,R1,C1")]
        region: Option<[usize; 4]>,
        /// Edge region model: the partial board the region is cut from (a board file; `R C`
        /// alone for an empty board). Every piece not on it may fill the region.
        #[arg(long, value_name = "BOARD")]
        partial: Option<PathBuf>,
        #[command(flatten)]
        common: Common,
    },
    /// Write a whole instance set × models × formats into a directory, with a manifest
    /// (manifest.json, manifest.csv: every file's SHA-256, bytes, model, format, horizon,
    /// size and the instance's known optimum). Re-running keeps the files that still match.
    #[command(name = "export-set")]
    ExportSet {
        /// The set: korf100, korf50-24, hardest80, deepcubea15, deepcubea24, short15, short8,
        /// meta2010, brendan1, eii, eii-clues (built-in sets take :FIRST-LAST, e.g.
        /// korf100:1-3, meta2010:3-5 by side); generate:edge:rows=R,cols=C,frame=F,inner=I,
        /// count=N,seed=S; generate:sliding:rows=R,cols=C,walk=L,count=N,seed=S; or a
        /// directory or list file of instance files.
        set: String,
        /// The models, comma-separated (those that do not apply to an instance are listed as
        /// skipped in the manifest).
        #[arg(long, value_parser = model_names(), value_delimiter = ',', required = true)]
        models: Vec<ModelName>,
        /// The formats, comma-separated.
        #[arg(long, value_parser = format_names(), value_delimiter = ',', required = true)]
        formats: Vec<Format>,
        /// Sliding: the horizon of the time-indexed models, a number or `auto` (the default:
        /// the set's stated optimum where it has one, else the native solver's).
        #[arg(long, value_parser = parse_horizon)]
        horizon: Option<Horizon>,
        /// Sliding instances read from files: their goal convention (built-in sets have
        /// their own).
        #[arg(long, value_enum)]
        goal: Option<GoalArg>,
        /// Edge milp and sat: keep only placements with grey exactly on the rim.
        #[arg(long)]
        filter: bool,
        /// Edge milp and sat: fix the first corner piece in the top-left corner.
        #[arg(long)]
        fix_corner: bool,
        /// Store the model files gzip-compressed (the solvers that read .gz: docs/src/export.md).
        #[arg(long, value_enum, default_value_t = CompressArg::None)]
        compress: CompressArg,
        /// Files written at the same time.
        #[arg(long, default_value_t = 1)]
        jobs: usize,
        /// The directory to write (created if missing).
        #[arg(short = 'o', required = true)]
        output: PathBuf,
        /// Print the summary as one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Run every file of an exported set (export-set's manifest) with every solver that
    /// reads it, verify every answer, store the results in an SQLite database and
    /// cross-check them: proven optima must agree, no verified solution may beat a proven
    /// bound or the known optimum. Exit 1 on any disagreement. Re-running runs only the
    /// cells not yet in the database.
    Run {
        /// The manifest.json export-set wrote.
        manifest: PathBuf,
        /// The solvers, comma-separated: registry entries (cbc, highs, glpk, cadical,
        /// kissat, minisat, cliquer, …) and embedded engines (microlp, varisat,
        /// highs-embedded).
        #[arg(long, value_delimiter = ',', required_unless_present_any = ["collect", "executor"])]
        solvers: Vec<String>,
        /// The results database (created if missing).
        #[arg(long, required = true)]
        db: PathBuf,
        /// Wall-clock limit of each cell, in seconds.
        #[arg(long, default_value_t = 60.0)]
        time_limit: f64,
        /// Threads for solvers that take them.
        #[arg(long, default_value_t = 1)]
        threads: u32,
        /// Cells run at the same time.
        #[arg(long, default_value_t = 1)]
        jobs: usize,
        /// Solver registry file (else $TILEKIT_SOLVERS, ./solvers.toml, built-in).
        #[arg(long)]
        solvers_file: Option<PathBuf>,
        /// Run again the cells stored as solver errors.
        #[arg(long)]
        retry_errors: bool,
        /// Where the cells run: here (local), or as a Slurm job array (slurm: each task
        /// writes a shard of results; --collect merges them).
        #[arg(long, value_enum, default_value_t = ExecutorArg::Local)]
        executor: ExecutorArg,
        /// Slurm: merge the work directory's result shards into the database (no solver runs).
        #[arg(long, conflicts_with_all = ["solvers", "jobs", "retry_errors"])]
        collect: bool,
        /// Slurm: the work directory (plans, batch scripts, logs, shards; default: the
        /// database's path + .slurm).
        #[arg(long)]
        work: Option<PathBuf>,
        /// Slurm: cells each array task runs.
        #[arg(long, default_value_t = 4)]
        cells_per_task: usize,
        /// Slurm: the partition.
        #[arg(long)]
        partition: Option<String>,
        /// Slurm: one more argument for sbatch (repeatable).
        #[arg(long, allow_hyphen_values = true)]
        sbatch_arg: Vec<String>,
        /// Slurm: wait for the job to end, then collect its shards.
        #[arg(long)]
        wait: bool,
        /// NEOS: the NEOS solver every LP and MPS file goes to (cbc, cplex, scip, …).
        #[arg(long, default_value = "cbc")]
        neos_solver: String,
        /// NEOS: the XML-RPC endpoint.
        #[arg(long, default_value = tilekit::neos::DEFAULT_SERVER)]
        server: String,
        /// NEOS: the e-mail address NEOS requires with each job (else $NEOS_EMAIL).
        #[arg(long)]
        email: Option<String>,
        /// NEOS: the least time between two submissions, in seconds.
        #[arg(long, default_value_t = 10.0)]
        neos_interval: f64,
        /// NEOS: the longest wait for one job, in seconds.
        #[arg(long, default_value_t = 600.0)]
        neos_max_wait: f64,
        /// NEOS: submit the jobs and return; the same command again fetches and verifies them.
        #[arg(long)]
        no_wait: bool,
        /// NEOS: the job file keeping the jobs' passwords (default: the database's path +
        /// .neos-jobs.json; readable by its owner only).
        #[arg(long)]
        jobs_file: Option<PathBuf>,
        /// Print the summary as one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// One Slurm array task of `run --executor slurm` (run by Slurm, not by hand).
    #[command(name = "run-task", hide = true)]
    RunTask {
        /// The plan file.
        plan: PathBuf,
        /// The array task's index (Slurm's `$SLURM_ARRAY_TASK_ID`).
        task: usize,
    },
    /// Tables and charts from a results database (tilekit run --db): solved counts and
    /// shifted geometric means (summary.md, solved.csv, sgm.csv), performance profiles and
    /// cactus plots per family (SVG), index.html to view them, and the cross-check's
    /// conflicts (exit 1 when there are any).
    Report {
        /// The results database.
        db: PathBuf,
        /// The directory to write (created if missing).
        #[arg(short = 'o', required = true)]
        output: PathBuf,
        /// Shift of the geometric mean, in seconds.
        #[arg(long, default_value_t = 10.0)]
        shift: f64,
        /// Print the summary as one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Solve an instance and verify the answer.
    Solve(Box<solve::SolveArgs>),
    /// Learn a distance heuristic for sliding puzzles: labelled data from the native solver,
    /// and (built with `--features train`) a network trained on it.
    Learn {
        #[command(subcommand)]
        cmd: LearnCmd,
    },
    /// Check a solution (tilekit moves or board, or a raw CBC/HiGHS/GLPK/SAT/MaxSAT/cliquer
    /// output) against an instance.
    Verify {
        /// The instance file.
        instance: PathBuf,
        /// The solution file.
        solution: PathBuf,
        /// The model a raw solver output belongs to (sliding: neos, flow, tight or sat; edge: milp,
        /// clique, sat or maxsat).
        #[arg(long, value_parser = model_names())]
        model: Option<ModelName>,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        common: Common,
    },
    /// Generate instances with a planted solution.
    Generate {
        #[command(subcommand)]
        what: GenerateCmd,
    },
    /// Draw an instance, and a solution if given, as SVG.
    Render {
        /// The instance file.
        instance: PathBuf,
        /// A solution: an edge-matching board, or a sliding move file.
        solution: Option<PathBuf>,
        /// The SVG file to write (`-` for stdout).
        #[arg(short = 'o')]
        output: PathBuf,
        /// Write piece ids on edge-matching boards.
        #[arg(long)]
        ids: bool,
        /// Puzzle family (detected from the content when omitted).
        #[arg(long, value_parser = family_names())]
        family: Option<FamilyName>,
        /// Sliding: goal convention, blank-last (the default) or blank-first.
        #[arg(long, value_enum)]
        goal: Option<GoalArg>,
    },
    /// NEOS-style services: job documents, submit, follow, fetch, solve and verify.
    Neos {
        #[command(subcommand)]
        cmd: NeosCmd,
    },
    /// Run a published benchmark: the native solver's sets (every length checked against the
    /// published optimum, every plan replayed), Salassa et al.'s edge-matching table, the
    /// edge searches against the anchors, and best-first search with the learned heuristic.
    Bench {
        #[command(subcommand)]
        cmd: bench::BenchCmd,
    },
    /// List the research parameters that `solve --set KEY=VALUE` takes, with their values,
    /// defaults and what each does.
    Params {
        /// Print the reference page in Markdown (the book's reference/parameters.md).
        #[arg(long)]
        markdown: bool,
    },
    /// List the registered solvers (embedded and external), whether each is installed, and
    /// its version.
    Solvers {
        /// Solver registry file.
        #[arg(long)]
        solvers_file: Option<PathBuf>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
}

/// `tilekit learn …`.
#[derive(Subcommand)]
pub(crate) enum LearnCmd {
    /// Random solvable boards (seeded), each solved optimally by the native solver; every
    /// board on each optimal path is a labelled sample. Resumable: run the same command
    /// again after a stop, or with a larger --count to extend the file.
    Data {
        /// The data file to write (`FILE.partial` until it is complete).
        #[arg(short = 'o')]
        output: PathBuf,
        /// Boards to solve.
        #[arg(long)]
        count: usize,
        /// Board rows.
        #[arg(long, default_value_t = 4)]
        rows: usize,
        /// Board columns.
        #[arg(long, default_value_t = 4)]
        cols: usize,
        /// Seed of the board stream (board i depends only on the seed and i).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Worker threads.
        #[arg(long, default_value_t = 2)]
        jobs: usize,
        /// Seconds per board; a board over it is recorded as unsolved and left out of
        /// training.
        #[arg(long, default_value_t = 60.0)]
        board_limit: f64,
        /// Print the summary as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Train a network on a data file (needs a build with `--features train`).
    #[cfg(feature = "train")]
    Train(Box<crate::train::TrainArgs>),
}

fn parse_rectangle(s: &str) -> Result<[usize; 4], String> {
    let bad =
        || format!("expected R0,C0,R1,C1 (four whole numbers, rows and columns from 0), not {s:?}");
    let v: Vec<usize> = s
        .split(',')
        .map(|x| x.trim().parse().map_err(|_| bad()))
        .collect::<Result<_, _>>()?;
    <[usize; 4]>::try_from(v).map_err(|_| bad())
}

#[derive(Subcommand)]
pub(crate) enum GenerateCmd {
    /// An edge-matching puzzle: a random perfect board (grey frame), shuffled and rotated.
    Edge {
        /// Board rows.
        #[arg(long)]
        rows: usize,
        /// Board columns.
        #[arg(long)]
        cols: usize,
        /// Colours used on frame (border-to-border) edges.
        #[arg(long)]
        frame_colours: u16,
        /// Colours used on inner edges.
        #[arg(long)]
        inner_colours: u16,
        /// Random seed (the same seed gives the same files).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Instance file (`-` or omitted: stdout).
        #[arg(short = 'o')]
        output: Option<PathBuf>,
        /// Where to write the planted solution board (default: OUTPUT.solution when -o is a file).
        #[arg(long)]
        solution: Option<PathBuf>,
    },
}

/// Where `run` runs its cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ExecutorArg {
    /// Here.
    Local,
    /// A Slurm job array.
    Slurm,
    /// NEOS (MILP files only), through the NEOS client.
    Neos,
}

/// How `export-set` stores model files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum CompressArg {
    /// Plain files.
    None,
    /// gzip.
    Gz,
}

impl From<CompressArg> for tilekit::campaign::export_set::Compress {
    fn from(c: CompressArg) -> Self {
        match c {
            CompressArg::None => Self::None,
            CompressArg::Gz => Self::Gz,
        }
    }
}

/// NEOS queue priorities.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum PriorityArg {
    /// At most 5 minutes; the output streams while the job runs.
    Short,
    /// Longer jobs.
    Long,
}

/// Options every `neos` subcommand takes.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct NeosOpts {
    /// XML-RPC endpoint of the NEOS server.
    #[arg(long, default_value = tilekit::neos::DEFAULT_SERVER)]
    pub server: String,
    /// E-mail address NEOS requires with each job (else $NEOS_EMAIL).
    #[arg(long)]
    pub email: Option<String>,
    /// Job file (default $XDG_STATE_HOME/tilekit/neos-jobs.json).
    #[arg(long)]
    pub jobs_file: Option<PathBuf>,
    /// Seconds allowed for one request to the server.
    #[arg(long, default_value_t = 60.0)]
    pub timeout: f64,
    /// Extra attempts after a transient failure (connection refused or reset, time-out, 5xx).
    #[arg(long, default_value_t = 3)]
    pub retries: u32,
    /// Seconds before the first retry (doubled for each further one).
    #[arg(long, default_value_t = 1.0)]
    pub backoff: f64,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    /// Show job passwords in the output.
    #[arg(long)]
    pub show_password: bool,
}

/// What a model job is made of (shared by `submit` and `solve`).
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct ModelOpts {
    /// Puzzle family (detected from the content when omitted).
    #[arg(long, value_parser = family_names())]
    pub family: Option<FamilyName>,
    /// The MILP formulation: sliding neos (default; the case study's) or flow (LP/MPS input
    /// only); edge milp (default; Salassa et al.).
    #[arg(long, value_parser = model_names())]
    pub model: Option<ModelName>,
    /// Sliding: time steps of the model (default: the board's known diameter).
    #[arg(long)]
    pub horizon: Option<usize>,
    /// Sliding: goal convention, blank-last or blank-first.
    #[arg(long, value_enum, default_value = "blank-last")]
    pub goal: GoalArg,
    /// Edge milp: keep only placements with grey exactly on the rim (off: the paper's model).
    #[arg(long)]
    pub filter: bool,
    /// Edge milp: fix the first corner piece in the top-left corner (square boards).
    #[arg(long)]
    pub fix_corner: bool,
    /// NEOS solver (as NEOS spells it: Cbc, CPLEX, …; any case).
    #[arg(long, default_value = "Cbc")]
    pub solver: String,
    /// Input method.
    #[arg(long, value_enum, default_value = "mps")]
    pub input: InputArg,
    /// NEOS category.
    #[arg(long, default_value = "milp")]
    pub category: String,
    /// short (≤ 5 min, output streams) or long.
    #[arg(long, value_enum, default_value = "short")]
    pub priority: PriorityArg,
    /// The remote solver's time limit in seconds: written into GAMS models (`reslim`); LP and
    /// MPS jobs cannot carry one (NEOS's queue limits apply).
    #[arg(long, default_value_t = 280.0)]
    pub time_limit: f64,
    /// Print the job document instead of submitting it.
    #[arg(long)]
    pub dry_run: bool,
}

/// The `tilekit neos` subcommands.
#[derive(Debug, Clone, clap::Subcommand)]
pub(crate) enum NeosCmd {
    /// Check that the server answers.
    Ping {
        #[command(flatten)]
        opts: NeosOpts,
    },
    /// List the server's solvers (all, or those of one category as `solver:input`).
    Solvers {
        /// A category such as milp.
        #[arg(long)]
        category: Option<String>,
        #[command(flatten)]
        opts: NeosOpts,
    },
    /// Submit a job: a job document (.xml) as it is, or a model built from an instance.
    Submit {
        /// A NEOS job document (*.xml), or an instance file (sliding or edge-matching).
        job_or_instance: PathBuf,
        #[command(flatten)]
        model: ModelOpts,
        #[command(flatten)]
        opts: NeosOpts,
    },
    /// Show a job's status.
    Status {
        /// Job number.
        job: i64,
        /// Password (needed only for jobs not in the job file).
        #[arg(long)]
        password: Option<String>,
        #[command(flatten)]
        opts: NeosOpts,
    },
    /// Fetch a job's results; decode and verify them when tilekit built the job (from the
    /// instance the job file keeps).
    Results {
        /// Job number.
        job: i64,
        /// Wait up to this many seconds for the job to finish.
        #[arg(long)]
        wait: Option<f64>,
        /// Seconds between status polls while waiting.
        #[arg(long, default_value_t = 5.0)]
        poll: f64,
        /// Password (needed only for jobs not in the job file).
        #[arg(long)]
        password: Option<String>,
        /// Print the raw output instead of decoding it.
        #[arg(long)]
        raw: bool,
        #[command(flatten)]
        opts: NeosOpts,
    },
    /// Kill a job.
    Kill {
        /// Job number.
        job: i64,
        /// Password (needed only for jobs not in the job file).
        #[arg(long)]
        password: Option<String>,
        #[command(flatten)]
        opts: NeosOpts,
    },
    /// Export, submit, wait, fetch, decode and verify, like `tilekit solve --via milp` but on
    /// NEOS (sliding and edge-matching instances).
    Solve {
        /// The instance file (sliding or edge-matching).
        instance: PathBuf,
        #[command(flatten)]
        model: ModelOpts,
        /// Give up waiting after this many seconds.
        #[arg(long, default_value_t = 600.0)]
        wait: f64,
        /// Seconds between status polls.
        #[arg(long, default_value_t = 5.0)]
        poll: f64,
        /// Echo the solver's output to stderr as it streams.
        #[arg(long)]
        follow: bool,
        /// Write the verified solution here (moves, or a board), as `solve -o` does.
        #[arg(short = 'o', value_name = "FILE", conflicts_with = "dry_run")]
        output: Option<PathBuf>,
        #[command(flatten)]
        opts: NeosOpts,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

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
            let set = tilekit::search::bench::BenchSet::parse(name).unwrap();
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
