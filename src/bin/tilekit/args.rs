//! The command line as clap types, and their conversion to the library's own vocabulary
//! (ripgrep's low-level arguments → validated requests). Every closed set of values is a
//! `ValueEnum`, so `--help` lists them and clap rejects the rest; the route rules themselves
//! are checked by the library (`route::sliding::SolveRequest::plan`,
//! `route::edge::SolveRequest::model`).

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use tilekit::format::Format;
use tilekit::format::neos_job::InputMethod;
use tilekit::formulate::sliding_sat::Encoding;
use tilekit::puzzle::sliding::Goal;
use tilekit::route::sliding::Horizon;
use tilekit::route::{FamilyName, ModelName, Route};
use tilekit::search::bench::BenchSet;

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
    #[arg(long, global = true)]
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
fn model_names() -> impl TypedValueParser<Value = ModelName> {
    PossibleValuesParser::new(ModelName::ALL.map(ModelName::name))
        .map(|s| ModelName::from_name(&s).expect("clap accepts only the listed names"))
}

/// `--via`: the library's routes.
fn route_names() -> impl TypedValueParser<Value = Route> {
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
pub enum EncodingArg {
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

/// Published benchmark sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum BenchSetArg {
    /// Korf's 100 random 15-puzzles.
    Korf100,
    /// Korf & Felner's 50 random 24-puzzles.
    #[value(name = "korf50-24")]
    Korf50x24,
    /// The DeepCubeA 24-puzzle test set, easiest first.
    Deepcubea24,
    /// The DeepCubeA 15-puzzle test set (500 boards).
    Deepcubea15,
    /// The 17 hardest 15-puzzle positions (80 moves).
    Hardest80,
    /// Edge-matching: Salassa et al.'s Table 3 (META 10x10 to 16x16 and Eternity II, greedy
    /// and backtracking, 1xn and 2xn, with and without the local search).
    Sal,
    /// Edge-matching: the search constructors (beam, dfs) on the same five instances for a
    /// budget, beside Salassa's Table 5, Wauters et al. and the open peer's best in 60 s.
    Edge,
    /// 15-puzzle best-first search (A*, weighted A*, focal; PDB and learned heuristics) on
    /// random boards (--count, --seed), labelled by the native solver, beside Cahlík &
    /// Surynek's figures.
    Astar,
    /// The same on Korf's 100.
    #[value(name = "astar-korf100")]
    AstarKorf100,
    /// The same on the DeepCubeA 15-puzzle test set (500 boards).
    #[value(name = "astar-deepcubea15")]
    AstarDeepcubea15,
}

impl BenchSetArg {
    /// The sliding set, `None` for `sal`.
    pub(crate) fn sliding(self) -> Option<BenchSet> {
        match self {
            BenchSetArg::Korf100 => Some(BenchSet::Korf100),
            BenchSetArg::Korf50x24 => Some(BenchSet::Korf50x24),
            BenchSetArg::Deepcubea24 => Some(BenchSet::DeepCubeA24),
            BenchSetArg::Deepcubea15 => Some(BenchSet::DeepCubeA15),
            BenchSetArg::Hardest80 => Some(BenchSet::Hardest80),
            _ => None,
        }
    }
}

/// `bench sal`'s own flags.
#[derive(clap::Args, Clone)]
pub(crate) struct SalArgs {
    /// bench sal and edge: the instances, comma-separated (10x10, 12x12, 14x14, 16x16, EII;
    /// default all). Sliding sets: the set's instance ids (e.g. 1,36 of korf50-24), run in
    /// the set's order.
    #[arg(long, value_delimiter = ',')]
    pub instances: Vec<String>,
    /// bench edge: the methods, comma-separated (beam, dfs, greedy; default beam,dfs).
    /// bench astar: pdb, manhattan, ann, ann-pdb (A*), wa:W (weighted A* on the databases),
    /// ann-wa:W, focal:EPS (focal search guided by the network).
    #[arg(long, value_delimiter = ',')]
    pub methods: Vec<String>,
    /// bench edge: seconds per run (default 60).
    #[arg(long)]
    pub budget: Option<f64>,
    /// bench edge: threads per run (default 2); the sliding sets: threads per instance
    /// (default 1).
    #[arg(long)]
    pub threads: Option<u32>,
    /// bench edge: keep each instance and method's best board here, with the command.
    #[arg(long, value_name = "DIR")]
    pub boards: Option<PathBuf>,
    /// bench edge: write one score-over-time SVG chart per instance here (a directory).
    /// bench astar: the optimality-against-nodes chart (a file).
    #[arg(long, value_name = "PATH")]
    pub svg: Option<PathBuf>,
    /// bench sal: the starts, comma-separated (default greedy).
    #[arg(long, value_enum, value_delimiter = ',')]
    pub starts: Vec<ConstructArg>,
    /// bench sal: region heights, comma-separated: 1 (1xn) and/or 2 (2xn) (default 1).
    #[arg(long, value_delimiter = ',')]
    pub regions: Vec<usize>,
    /// bench sal and edge: runs (seeds 1..N) per configuration.
    #[arg(long, default_value_t = 3)]
    pub runs: usize,
    /// bench sal: the local search's budget per run in seconds (0: none; the paper used the
    /// backtracking limit, 1200 to 3600 s).
    #[arg(long, default_value_t = 60.0)]
    pub ls_time: f64,
    /// bench sal: the backtracking heuristic's limit per run in seconds (paper: 1200 to 3600).
    #[arg(long, default_value_t = 60.0)]
    pub backtrack_time: f64,
    /// bench sal: a ceiling on each greedy construction in seconds.
    #[arg(long, default_value_t = 600.0)]
    pub construct_time: f64,
    /// bench sal: the MILP solver (default cbc).
    #[arg(long, default_value = "cbc")]
    pub solver: String,
}

/// `bench astar`'s own flags.
#[derive(clap::Args, Clone)]
pub(crate) struct AstarBenchArgs {
    /// bench astar: the network of the learned methods (default: the built-in one,
    /// models/sliding/ann-15/ann-15.safetensors).
    #[arg(long, value_name = "FILE")]
    pub weights: Option<PathBuf>,
    /// bench astar: random boards (default 1000).
    #[arg(long)]
    pub count: Option<usize>,
    /// bench astar: the random boards' seed (default 1001; the shipped network was trained
    /// on seed 1).
    #[arg(long)]
    pub seed: Option<u64>,
    /// bench astar: expansions per batch (default 1).
    #[arg(long)]
    pub batch: Option<usize>,
    /// bench astar: stored boards per search (default 30 million).
    #[arg(long)]
    pub max_states: Option<usize>,
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
    /// Puzzle family (detected from the content when omitted).
    #[arg(long, value_parser = family_names())]
    pub family: Option<FamilyName>,
    /// Sliding: goal convention, blank-last (the default; the case study's) or blank-first
    /// (Korf's).
    #[arg(long, value_enum)]
    pub goal: Option<GoalArg>,
    /// Sliding: time steps of the time-indexed models: a number, or `auto` (the native
    /// solver's optimum, the smallest feasible horizon). Default: the board's known diameter.
    #[arg(long, value_parser = parse_horizon)]
    pub horizon: Option<Horizon>,
    /// Edge milp: keep only placements with grey exactly on the rim (off: the paper's model).
    #[arg(long)]
    pub filter: bool,
    /// Edge milp, sat and maxsat: fix the first corner piece in the top-left corner (square
    /// boards for milp).
    #[arg(long)]
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
        /// The formulation: sliding neos (default; the case study's MILP), flow or sat (CNF);
        /// edge milp (default; Salassa et al.), clique, sat, maxsat (WCNF: a legal board, each
        /// matched seam a soft clause), or region (their region MILP of a rectangle of a
        /// partial board: --region, --partial).
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
        /// Store the model files gzip-compressed (for solvers that read .gz: see the README).
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
        /// The array task's index.
        #[arg(long)]
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
    Solve {
        /// The instance file.
        instance: PathBuf,
        /// Sliding: native (default; IDA* with pattern databases), milp or sat (CNF, horizon
        /// stepped to optimality). Edge: milp (default), clique, sat, maxsat, or heuristic
        /// (Salassa et al.'s region-MILP construction and local search, for boards too big
        /// for the rest).
        #[arg(long, value_parser = route_names())]
        via: Option<Route>,
        /// Sliding: neos (default), flow or tight for --via milp, sat for --via sat. Edge:
        /// milp, clique, sat or maxsat (default: the --via route's own model).
        #[arg(long, value_parser = model_names())]
        model: Option<ModelName>,
        /// An embedded engine (microlp, varisat, and highs-embedded when built with the
        /// `highs` feature) or a registry entry: cbc, highs, glpk, cadical, kissat, minisat,
        /// cliquer, rc2, clasp, evalmaxsat, uwrmaxsat, open-wbo (`tilekit solvers` lists
        /// them).
        #[arg(long)]
        solver: Option<String>,
        /// Wall-clock limit of the whole solve, in seconds: `--horizon auto`, every SAT
        /// horizon and the solver share it, each stage getting what is left. An external
        /// solver is told the rest and, should it overrun, killed with its process group 2 s
        /// plus 10 % later (time to write its best solution). The DRAT check of --certify has a
        /// limit of its own, the same number of seconds.
        #[arg(long, default_value_t = 60.0)]
        time_limit: f64,
        /// Threads for solvers that take them.
        #[arg(long, default_value_t = 1)]
        threads: u32,
        /// Write the verified solution here (moves; for edge puzzles the board).
        #[arg(short = 'o')]
        output: Option<PathBuf>,
        /// Solver registry file (else $TILEKIT_SOLVERS, ./solvers.toml, built-in).
        #[arg(long)]
        solvers: Option<PathBuf>,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
        /// SAT encoding for --via sat (default pruned; pdb when --certify has the plan
        /// already, from --plan or --via native).
        #[arg(long, value_enum)]
        encoding: Option<EncodingArg>,
        /// Sliding, --via milp: start from a plan of L moves (native: the IDA* plan; astar:
        /// weighted A*, w = 2, quick and not always optimal; or a move file). The plan is
        /// replayed, then the MILP decides whether a plan of at most L - 2 moves exists:
        /// infeasible proves the plan optimal, a solution is a shorter plan. The horizon
        /// defaults to L - 2 (a smaller --horizon is kept).
        #[arg(long, value_name = "native|astar|FILE")]
        incumbent: Option<String>,
        /// Sliding, --via milp: solve horizons B, B + 2, ... up to --horizon (B: the
        /// admissible bound at the plans' parity), each a question "a plan of at most h
        /// moves?"; the first with a plan gives the optimum. With --incumbent: B to L - 2.
        #[arg(long)]
        step: bool,
        #[command(flatten)]
        certify: CertifyArgs,
        #[command(flatten)]
        heuristic: Box<HeuristicArgs>,
        #[command(flatten)]
        astar: AstarArgs,
        #[command(flatten)]
        common: Common,
    },
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
    /// Solve a published benchmark set with the native solver. Checks every length against
    /// the published optimum and replays every plan.
    Bench {
        /// The set.
        #[arg(value_enum)]
        set: BenchSetArg,
        /// Only the first N instances.
        #[arg(long)]
        limit: Option<usize>,
        /// Per-instance limit in seconds (default: none).
        #[arg(long)]
        time_limit: Option<f64>,
        /// Instances solved in parallel.
        #[arg(long, default_value_t = 1)]
        jobs: usize,
        /// Pattern database cache directory (else $TILEKIT_CACHE, else ~/.cache/tilekit).
        #[arg(long)]
        cache_dir: Option<PathBuf>,
        /// Pattern databases (15-puzzle: 7-8, 7-8-cols, 7-7-1, 6-6-3; 24-puzzle: 6-6-6-6;
        /// none: Manhattan + linear conflict), built and cached when missing. Default: the
        /// strongest already cached, else 6-6-3 (15-puzzle) or none (24-puzzle).
        #[arg(long, value_enum)]
        pdb: Option<PdbArg>,
        /// Sliding sets: the maximum with a second partition's estimate (its reflection and,
        /// with --dual, its dual lookups too), e.g. `--pdb 7-8 --max-with 7-8-cols`: fewer
        /// nodes, more table reads per node, twice the memory.
        #[arg(long, value_enum, value_name = "PDB")]
        max_with: Option<PdbArg>,
        /// Print the summary as one JSON object after the table.
        #[arg(long)]
        json: bool,
        /// Sliding sets: add the dual lookups (and their reflection) to the pattern
        /// databases' maximum (their extra tables are built once and cached).
        #[arg(long)]
        dual: bool,
        /// Sliding sets: propagate inconsistent heuristic values by bidirectional pathmax.
        #[arg(long)]
        bpmx: bool,
        /// Sliding sets: prune move sequences of up to N moves that duplicate earlier ones
        /// (0: only undoing the last move; at most 20: the automaton's build grows about
        /// 2.2× per move, 79 s and 6.7 GB at 20 on the 15-puzzle).
        #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=20))]
        fsm: u8,
        /// Sliding sets: searches each job runs at once, interleaved node by node so that one
        /// search's table reads overlap the others' work (1: one at a time). Each instance
        /// keeps its plan and node count; its --time-limit is wall clock shared with the
        /// other searches. Not with --bpmx or --threads.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=64))]
        interleave: u8,
        #[command(flatten)]
        sal: SalArgs,
        #[command(flatten)]
        astar: AstarBenchArgs,
    },
    /// List the registered solvers (embedded and external), whether each is installed, and
    /// its version.
    Solvers {
        /// Solver registry file.
        #[arg(long)]
        solvers: Option<PathBuf>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
}

/// `--via astar` (sliding puzzles of at most 16 cells): best-first search.
#[derive(clap::Args, Clone)]
pub(crate) struct AstarArgs {
    /// With --via astar: the heuristic that orders the search: manhattan (+ linear conflict),
    /// pdb (the pattern databases; default), ann (a trained network's estimate, Cahlík &
    /// Surynek: inadmissible) or ann-pdb (the network floored at the databases' value). The
    /// report's bound always comes from the admissible estimate.
    #[arg(long, value_enum)]
    pub heuristic: Option<HeuristicArg>,
    /// With --heuristic ann or ann-pdb: the network (a tilekit safetensors file; default for
    /// the 15-puzzle: the built-in one, models/sliding/ann-15, which estimates the distance
    /// above the 7-8 databases: they are built once when missing, about 4 minutes and 3.6 GB).
    #[arg(long, value_name = "FILE")]
    pub weights: Option<PathBuf>,
    /// With --via astar: weighted A*, f = g + W·h (default 1, plain A*). Above 1 it trades
    /// optimality for speed; below 1 it makes the network's estimate more cautious (0.98:
    /// about 95 % optimal plans on random 15-puzzles, README).
    #[arg(long, value_name = "W")]
    pub weight: Option<f64>,
    /// With --via astar: focal search; the plan is at most (1 + EPS) times the optimum,
    /// whatever the heuristic (the open list is ordered by the admissible estimate and the
    /// heuristic chooses within the focal list).
    #[arg(long, value_name = "EPS")]
    pub suboptimality: Option<f64>,
    /// With --via astar: nodes expanded together before their children are estimated in one
    /// batch (default 1).
    #[arg(long, value_name = "K")]
    pub batch: Option<usize>,
    /// With --via astar: stop when this many boards are stored (default 30 million, about
    /// 1.2 GB).
    #[arg(long, value_name = "N")]
    pub max_states: Option<usize>,
}

/// `--heuristic` of `--via astar`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum HeuristicArg {
    /// Manhattan distance + linear conflict.
    Manhattan,
    /// The additive pattern databases with the reflection.
    Pdb,
    /// The network's estimate (inadmissible).
    Ann,
    /// The network floored at the databases' value.
    AnnPdb,
}

impl From<HeuristicArg> for tilekit::route::astar::AstarHeuristic {
    fn from(h: HeuristicArg) -> Self {
        use tilekit::route::astar::AstarHeuristic as H;
        match h {
            HeuristicArg::Manhattan => H::Manhattan,
            HeuristicArg::Pdb => H::Pdb,
            HeuristicArg::Ann => H::Ann,
            HeuristicArg::AnnPdb => H::AnnPdb,
        }
    }
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

/// `--via heuristic` (edge-matching): Salassa et al.'s construction and local search. The
/// local-search defaults are the paper's Table 2.
#[derive(clap::Args, Clone)]
pub(crate) struct HeuristicArgs {
    /// With --via heuristic: how the first board is built: greedy region MILPs (Algorithm 1),
    /// backtrack (Algorithm 2: perfect regions with no-good cuts, greedy at its time limit),
    /// random (each piece class shuffled into its cells), beam (beam search over a scan order)
    /// or dfs (depth-first search whose mismatch budget opens late in the scan, with restarts).
    #[arg(long, value_enum)]
    pub construct: Option<ConstructArg>,
    /// With --via heuristic: the construction's region shape ROWSxCOLS, in the paper's order
    /// (bands of rows from the top, blocks from the left); n is the board's width. Default 1xn.
    #[arg(long, value_parser = parse_region_shape, value_name = "RxC")]
    pub region: Option<tilekit::heuristic::construct::RegionShape>,
    /// With --via heuristic: the multi-neighbourhood local search (ls, the default after
    /// greedy, backtrack and random), large-neighbourhood search (lns: windows destroyed and
    /// rebuilt by a beam) or none (the default after beam and dfs).
    #[arg(long, value_enum)]
    pub improve: Option<ImproveArg>,
    /// With --via heuristic: the seed of every random choice (default 1). Same seed and
    /// solver, same board.
    #[arg(long)]
    pub seed: Option<u64>,
    /// With --via heuristic: fix a piece before anything is built, PIECE@ROW,COL,ROT (row and
    /// column from 0 as in board files; ROT in clockwise quarter turns): the Eternity II
    /// starter piece, or any clue. Repeatable.
    #[arg(long, value_parser = parse_fix, value_name = "PIECE@ROW,COL,ROT")]
    pub fix: Vec<tilekit::route::edge_heuristic::Fix>,
    /// With --construct backtrack: its own time limit in seconds, after which the deepest
    /// partial board is finished greedily (default: half of --time-limit).
    #[arg(long)]
    pub backtrack_time: Option<f64>,
    /// Tile Assignment: tiles freed per move (TA.K, default 16).
    #[arg(long)]
    pub ta_k: Option<usize>,
    /// Tile Assignment: moves per cycle (TA.N, default 1000).
    #[arg(long)]
    pub ta_n: Option<usize>,
    /// Region Optimisation: the max-clique window WxH (Clique.W x Clique.H, default 6x6).
    #[arg(long, value_parser = parse_window, value_name = "WxH")]
    pub clique_window: Option<(usize, usize)>,
    /// Region Optimisation: windows per cycle (Clique.N, default 10).
    #[arg(long)]
    pub clique_n: Option<usize>,
    /// Tiles Swap and Rotation: take the first improvement (default: the best).
    #[arg(long)]
    pub tsr_first: bool,
    /// Local-search cycles without gain before it stops (default 1: a local optimum with
    /// respect to every neighbourhood).
    #[arg(long)]
    pub patience: Option<usize>,
    /// With --construct beam: one pass of this width (default: passes of doubling width from
    /// 1024 while the time lasts).
    #[arg(long, value_name = "K")]
    pub beam_width: Option<usize>,
    /// With --construct beam or dfs: the order cells are filled in: rowmajor, colmajor,
    /// diagonal, comb (the last two rows column by column; the default) or comb:K (the first K
    /// rows as rows, the rest as columns).
    #[arg(long, value_parser = parse_scan, value_name = "ORDER")]
    pub scan: Option<tilekit::heuristic::core::ScanOrder>,
    /// With --construct dfs: the mismatch budget, a total N (opening from 75 % of the scan to
    /// 94 %; default 12 on a 256-cell board, in proportion elsewhere) or gates D:B,D:B,… (from
    /// D placed cells on, B mismatches in all). Seams between two rim cells never break.
    #[arg(long, value_parser = parse_breaks, value_name = "N|D:B,…")]
    pub breaks: Option<tilekit::heuristic::dfs::BreakSpec>,
    /// With --construct dfs: placements per restart (default 20000000).
    #[arg(long, value_name = "N")]
    pub node_cap: Option<u64>,
    /// With --construct dfs: restarts in all (default: until the time is up); with
    /// --threads 1 the board is then a function of the seed.
    #[arg(long, value_name = "N")]
    pub restarts: Option<u64>,
    /// With --construct beam or dfs: the construction's own budget in seconds (default: the
    /// whole time limit with --improve none, half of it otherwise).
    #[arg(long, value_name = "SECS")]
    pub construct_time: Option<f64>,
    /// With --improve lns: the beam width of each window's rebuild (default 128).
    #[arg(long, value_name = "K")]
    pub lns_width: Option<usize>,
    /// With --improve lns: rebuilds in all (default: until the time is up); with --threads 1
    /// the board is then a function of the seed.
    #[arg(long, value_name = "N")]
    pub lns_iterations: Option<u64>,
    /// With --improve lns: the share of repairs made by an exact assignment of pairwise
    /// non-adjacent cells (Kuhn–Munkres), the rest by window rebuilds; 0 to 1 (default 0.5).
    #[arg(long, value_name = "SHARE")]
    pub lns_assign: Option<f64>,
    /// With --construct beam or dfs: rank the beam's children by matched seams less a
    /// look-ahead penalty, the seams that must break because the open sides of some colour
    /// outnumber that colour's sides on the unused pieces.
    #[arg(long)]
    pub lookahead: bool,
    /// With --via heuristic: improve this complete board (a board file, e.g. an earlier -o or
    /// another solver's answer) instead of constructing one; --improve defaults to lns.
    #[arg(long, value_name = "BOARD")]
    pub start: Option<PathBuf>,
}

/// `--construct`.
#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum ConstructArg {
    /// Algorithm 1.
    Greedy,
    /// Algorithm 2.
    Backtrack,
    /// A random board.
    Random,
    /// Beam search.
    Beam,
    /// Late-break depth-first search.
    Dfs,
}

impl From<ConstructArg> for tilekit::route::edge_heuristic::Construct {
    fn from(c: ConstructArg) -> Self {
        use tilekit::route::edge_heuristic::Construct;
        match c {
            ConstructArg::Greedy => Construct::Greedy,
            ConstructArg::Backtrack => Construct::Backtrack,
            ConstructArg::Random => Construct::Random,
            ConstructArg::Beam => Construct::Beam,
            ConstructArg::Dfs => Construct::Dfs,
        }
    }
}

/// `--improve`.
#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum ImproveArg {
    /// The multi-neighbourhood local search.
    Ls,
    /// Large-neighbourhood search: windows destroyed and rebuilt by a beam.
    Lns,
    /// None.
    None,
}

impl From<ImproveArg> for tilekit::route::edge_heuristic::Improve {
    fn from(c: ImproveArg) -> Self {
        use tilekit::route::edge_heuristic::Improve;
        match c {
            ImproveArg::Ls => Improve::Ls,
            ImproveArg::Lns => Improve::Lns,
            ImproveArg::None => Improve::None,
        }
    }
}

fn parse_region_shape(s: &str) -> Result<tilekit::heuristic::construct::RegionShape, String> {
    tilekit::heuristic::construct::RegionShape::parse(s)
}

fn parse_fix(s: &str) -> Result<tilekit::route::edge_heuristic::Fix, String> {
    tilekit::route::edge_heuristic::Fix::parse(s)
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

fn parse_scan(s: &str) -> Result<tilekit::heuristic::core::ScanOrder, String> {
    tilekit::heuristic::core::ScanOrder::parse(s)
}

fn parse_breaks(s: &str) -> Result<tilekit::heuristic::dfs::BreakSpec, String> {
    tilekit::heuristic::dfs::BreakSpec::parse(s)
}

fn parse_window(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("expected a window WxH such as 6x6, not {s:?}");
    let (w, h) = s.split_once(['x', '×']).ok_or_else(bad)?;
    let (w, h): (usize, usize) = (
        w.trim().parse().map_err(|_| bad())?,
        h.trim().parse().map_err(|_| bad())?,
    );
    if w == 0 || h == 0 {
        return Err(bad());
    }
    Ok((w, h))
}

/// `--certify` and its options (SAT route only).
#[derive(clap::Args, Clone)]
pub(crate) struct CertifyArgs {
    /// With --via sat: prove optimality with a DRAT proof of UNSAT at L-2, checked by --checker.
    #[arg(long)]
    pub certify: bool,
    /// Keep the refuted CNF and its proof in this directory (default: a temporary one, removed).
    #[arg(long, requires = "certify")]
    pub proof_dir: Option<PathBuf>,
    /// The DRAT checker program.
    #[arg(long, default_value = tilekit::certify::DEFAULT_CHECKER, requires = "certify")]
    pub checker: String,
    /// Certify this plan (a move file, e.g. from another solver) instead of searching: replay
    /// it and refute its length minus 2.
    #[arg(long, requires = "certify")]
    pub plan: Option<PathBuf>,
    /// Cube-and-conquer: split the refutation of L-2 on the blank's first and last DEPTH moves
    /// (steps 1, L-2, 2, ...); each leaf gets its own proof and check. 0 = one proof. Used
    /// where the certificate refutes L-2 itself (--plan, --via native); a SAT search that
    /// already refuted L-2 keeps that proof.
    #[arg(long, default_value_t = 0, value_name = "DEPTH", requires = "certify")]
    pub split: usize,
    /// With --split: leaves solved and checked at once.
    #[arg(long, default_value_t = 2, requires = "certify")]
    pub split_jobs: usize,
    /// Which way the refuted formula for L-2 runs: from the start (forward), from the goal
    /// back to the start (backward; the same question, often easier for the solver), or both
    /// at once on two producer runs, the first answer stopping the other (both). Used where
    /// the certificate refutes L-2 itself (--plan, --via native). Default: backward there
    /// with the pdb encoding (forward with --split), else forward.
    #[arg(long, value_enum, requires = "certify")]
    pub direction: Option<DirectionArg>,
}

/// Which way a SAT formula runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum DirectionArg {
    /// From the start to the goal.
    Forward,
    /// From the goal back to the start.
    Backward,
    /// Both at once; the first answer wins.
    Both,
}

impl DirectionArg {
    /// The one direction asked for (`None` for both).
    pub(crate) fn direction(self) -> Option<tilekit::formulate::sliding_sat::Direction> {
        use tilekit::formulate::sliding_sat::Direction;
        match self {
            DirectionArg::Forward => Some(Direction::Forward),
            DirectionArg::Backward => Some(Direction::Backward),
            DirectionArg::Both => None,
        }
    }
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
        for b in BenchSetArg::value_variants() {
            let name = b.to_possible_value().unwrap().get_name().to_string();
            match b.sliding() {
                Some(set) => assert_eq!(set.name(), name),
                None => assert!(
                    ["sal", "edge", "astar", "astar-korf100", "astar-deepcubea15"]
                        .contains(&name.as_str()),
                    "{name}"
                ),
            }
        }
        for c in ConstructArg::value_variants() {
            let name = c.to_possible_value().unwrap().get_name().to_string();
            let lib: tilekit::route::edge_heuristic::Construct = (*c).into();
            assert_eq!(lib.name(), name);
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
