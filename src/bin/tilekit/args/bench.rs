//! `tilekit bench …`: one subcommand per benchmark, each with the flags it reads and no
//! others, so that clap refuses a flag that does not belong (no table of which flag applies
//! where).

use super::PdbArg;
use clap::Subcommand;
use std::path::PathBuf;

/// The benchmarks.
#[derive(Subcommand)]
pub(crate) enum BenchCmd {
    /// Korf's 100 random 15-puzzles, by the native solver.
    Korf100(NativeBenchArgs),
    /// Korf & Felner's 50 random 24-puzzles, by the native solver.
    #[command(name = "korf50-24")]
    Korf50x24(NativeBenchArgs),
    /// The DeepCubeA 24-puzzle test set, easiest first, by the native solver.
    Deepcubea24(NativeBenchArgs),
    /// The DeepCubeA 15-puzzle test set (500 boards), by the native solver.
    Deepcubea15(NativeBenchArgs),
    /// The 17 hardest 15-puzzle positions (80 moves), by the native solver.
    Hardest80(NativeBenchArgs),
    /// Edge-matching: Salassa et al.'s Table 3 (META 10x10 to 16x16 and Eternity II, greedy
    /// and backtracking, 1xn and 2xn, with and without the local search).
    Sal(SalBenchArgs),
    /// Edge-matching: the search constructors (beam, dfs) on the same five instances for a
    /// budget, beside Salassa's Table 5, Wauters et al. and the open peer's best in 60 s.
    Edge(EdgeBenchArgs),
    /// 15-puzzle best-first search (A*, weighted A*, focal; PDB and learned heuristics) on
    /// random boards, labelled by the native solver, beside Cahlík & Surynek's figures.
    Astar {
        #[command(flatten)]
        args: AstarBenchArgs,
        /// Random boards.
        #[arg(long, default_value_t = 1000)]
        count: usize,
        /// The random boards' seed (the shipped network was trained on seed 1).
        #[arg(long, default_value_t = 1001)]
        seed: u64,
    },
    /// `bench astar` on Korf's 100.
    #[command(name = "astar-korf100")]
    AstarKorf100(AstarBenchArgs),
    /// `bench astar` on the DeepCubeA 15-puzzle test set (500 boards).
    #[command(name = "astar-deepcubea15")]
    AstarDeepcubea15(AstarBenchArgs),
}

/// The native solver's sets.
#[derive(clap::Args, Clone)]
pub(crate) struct NativeBenchArgs {
    /// Only the first N instances.
    #[arg(long)]
    pub limit: Option<usize>,
    /// The set's instance ids, comma-separated (e.g. 1,36 of korf50-24), run in the set's
    /// order.
    #[arg(long, value_delimiter = ',')]
    pub instances: Vec<u32>,
    /// Per-instance limit in seconds (default: none).
    #[arg(long)]
    pub time_limit: Option<f64>,
    /// Instances solved in parallel.
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Threads per instance.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: u16,
    /// Pattern database cache directory (else $TILEKIT_CACHE, else ~/.cache/tilekit).
    #[arg(long)]
    pub cache_dir: Option<PathBuf>,
    /// Pattern databases (15-puzzle: 7-8, 7-8-cols, 7-7-1, 6-6-3; 24-puzzle: 6-6-6-6;
    /// none: Manhattan + linear conflict), built and cached when missing. Default: the
    /// strongest already cached, else 6-6-3 (15-puzzle) or none (24-puzzle).
    #[arg(long, value_enum)]
    pub pdb: Option<PdbArg>,
    /// The maximum with a second partition's estimate (its reflection and, with --dual, its
    /// dual lookups too), e.g. `--pdb 7-8 --max-with 7-8-cols`: fewer nodes, more table
    /// reads per node, twice the memory.
    #[arg(long, value_enum, value_name = "PDB")]
    pub max_with: Option<PdbArg>,
    /// Add the dual lookups (and their reflection) to the pattern databases' maximum (their
    /// extra tables are built once and cached).
    #[arg(long)]
    pub dual: bool,
    /// Propagate inconsistent heuristic values by bidirectional pathmax.
    #[arg(long)]
    pub bpmx: bool,
    /// Prune move sequences of up to N moves that duplicate earlier ones
    /// [default: 12; 0 with --preset paper, 16 with fewest-nodes]
    ///
    /// 0: only undoing the last move; at most 20: the automaton's build grows about 2.2×
    /// per move, 79 s and 6.7 GB at 20 on the 15-puzzle. 12 is the fastest measured
    /// (docs/results/native-search.md#best-settings).
    #[arg(long, value_parser = clap::value_parser!(u8).range(0..=20))]
    pub fsm: Option<u8>,
    /// recommended (the default), paper (Korf & Felner's search: no duplicate pruning, no
    /// stored frontier) or
    /// fewest-nodes (7-8 with 7-8-cols, dual lookups, BPMX, --fsm 16)
    #[arg(long, value_parser = super::solve::preset_names())]
    pub preset: Option<tilekit::route::params::Preset>,
    /// Searches each job runs at once, interleaved node by node so that one search's table
    /// reads overlap the others' work (1: one at a time). Each instance keeps its plan and
    /// node count; its --time-limit is wall clock shared with the other searches. Not with
    /// --bpmx or --threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=64))]
    pub interleave: u8,
    /// Keep each instance's progress in DIR (one file per instance, written after every
    /// finished iteration and at the end) and resume from it: the same command again
    /// reports the finished instances (their plans replayed again) and continues the others
    /// from the bounds they proved. Not with --interleave.
    #[arg(long, value_name = "DIR")]
    pub checkpoint: Option<PathBuf>,
    /// Where the searches run: here (local), or as a Slurm job array (slurm: one task per
    /// unfinished instance, sharing the --checkpoint directory, which the nodes must see;
    /// sbatch's own SBATCH_PARTITION and other SBATCH_* variables apply). The command waits
    /// for the job, then reports; run again after a kill, it waits for a job still running
    /// instead of submitting its instances twice.
    #[arg(long, value_enum, default_value_t = BenchExecutor::Local)]
    pub executor: BenchExecutor,
    /// Print the summary as one JSON object after the table.
    #[arg(long)]
    pub json: bool,
}

/// Where a benchmark's searches run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum BenchExecutor {
    /// Here.
    Local,
    /// A Slurm job array, one task per instance or run.
    Slurm,
}

/// `bench sal`.
#[derive(clap::Args, Clone)]
pub(crate) struct SalBenchArgs {
    /// The instances, comma-separated (10x10, 12x12, 14x14, 16x16, EII; default all).
    #[arg(long, value_delimiter = ',')]
    pub instances: Vec<String>,
    /// The starts, comma-separated (default greedy).
    #[arg(long, value_parser = super::solve::construct_names(), value_delimiter = ',')]
    pub starts: Vec<tilekit::route::edge_heuristic::ConstructKind>,
    /// Region heights, comma-separated: 1 (1xn) and/or 2 (2xn) (default 1).
    #[arg(long, value_delimiter = ',')]
    pub regions: Vec<usize>,
    /// Runs (seeds 1..N) per configuration.
    #[arg(long, default_value_t = 3)]
    pub runs: usize,
    /// The local search's budget per run in seconds (0: none; the paper used the
    /// backtracking limit, 1200 to 3600 s).
    #[arg(long, default_value_t = 60.0)]
    pub ls_time: f64,
    /// The backtracking heuristic's limit per run in seconds (paper: 1200 to 3600).
    #[arg(long, default_value_t = 60.0)]
    pub backtrack_time: f64,
    /// A ceiling on each greedy construction in seconds.
    #[arg(long, default_value_t = 600.0)]
    pub construct_time: f64,
    /// The MILP solver.
    #[arg(long, default_value = "cbc")]
    pub solver: String,
    /// Print the rows as JSON after the table.
    #[arg(long)]
    pub json: bool,
}

/// `bench edge`.
#[derive(clap::Args, Clone)]
pub(crate) struct EdgeBenchArgs {
    /// The instances, comma-separated (10x10, 12x12, 14x14, 16x16, EII; default all), and
    /// EII-clues (Eternity II with its five official clues fixed).
    #[arg(long, value_delimiter = ',')]
    pub instances: Vec<String>,
    /// The methods, comma-separated: beam, dfs, greedy, each optionally +lns (default
    /// beam,dfs).
    #[arg(long, value_delimiter = ',')]
    pub methods: Vec<String>,
    /// Seconds per run.
    #[arg(long, default_value_t = 60.0)]
    pub budget: f64,
    /// Threads per run.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: u16,
    /// Runs (seeds 1..N) per configuration.
    #[arg(long, default_value_t = 3)]
    pub runs: usize,
    /// Keep each instance and method's best board here, with the command.
    #[arg(long, value_name = "DIR")]
    pub boards: Option<PathBuf>,
    /// Write one score-over-time SVG chart per instance into this directory.
    #[arg(long, value_name = "DIR")]
    pub svg: Option<PathBuf>,
    /// Keep each run's result in DIR, and each depth-first search's best board and
    /// checkpoint as it goes: the same command again reports the finished runs (their
    /// boards judged again) and continues the others for what is left of their budgets.
    #[arg(long, value_name = "DIR")]
    pub checkpoint: Option<PathBuf>,
    /// Where the runs go: here (local), or as a Slurm job array (slurm: one task per
    /// unfinished run, sharing the --checkpoint directory, which the nodes must see). The
    /// command waits for the job, then reports; run again after a kill, it waits for a job
    /// still running, or continues the runs it left unfinished.
    #[arg(long, value_enum, default_value_t = BenchExecutor::Local)]
    pub executor: BenchExecutor,
    /// Print the rows as JSON after the table.
    #[arg(long)]
    pub json: bool,
}

/// The `bench astar` family.
#[derive(clap::Args, Clone)]
pub(crate) struct AstarBenchArgs {
    /// The methods, comma-separated: pdb, manhattan, ann, ann-pdb (A*), wa:W (weighted A* on
    /// the databases), ann-wa:W, focal:EPS (focal search guided by the network).
    #[arg(long, value_delimiter = ',')]
    pub methods: Vec<String>,
    /// Only the first N boards.
    #[arg(long)]
    pub limit: Option<usize>,
    /// Per-board limit in seconds.
    #[arg(long, default_value_t = 60.0)]
    pub time_limit: f64,
    /// Boards solved in parallel.
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// The network of the learned methods (default: the built-in one,
    /// models/sliding/ann-15/ann-15.safetensors).
    #[arg(long, value_name = "FILE")]
    pub weights: Option<PathBuf>,
    /// Expansions per batch (default 1).
    #[arg(long)]
    pub batch: Option<usize>,
    /// Stored boards per search (default 30 million).
    #[arg(long)]
    pub max_states: Option<usize>,
    /// Write the optimality-against-nodes chart to this SVG file.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Print the summary as one JSON object after the table.
    #[arg(long)]
    pub json: bool,
}
