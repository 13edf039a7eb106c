//! `tilekit run`, its Slurm task and `tilekit report`: campaigns over an exported set.

use std::path::PathBuf;

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

/// The arguments of `run`.
#[derive(clap::Args)]
pub(crate) struct RunArgs {
    /// The manifest.json export-set wrote.
    pub(crate) manifest: PathBuf,
    /// The solvers, comma-separated: registry entries (cbc, highs, glpk, cadical,
    /// kissat, minisat, cliquer, …) and embedded engines (microlp, varisat,
    /// highs-embedded).
    #[arg(long, value_delimiter = ',', required_unless_present_any = ["collect", "executor"])]
    pub(crate) solvers: Vec<String>,
    /// The results database (created if missing).
    #[arg(long, required = true)]
    pub(crate) db: PathBuf,
    /// Wall-clock limit of each cell, in seconds.
    #[arg(long, default_value_t = 60.0)]
    pub(crate) time_limit: f64,
    /// Threads for solvers that take them.
    #[arg(long, default_value_t = 1)]
    pub(crate) threads: u32,
    /// Cells run at the same time.
    #[arg(long, default_value_t = 1)]
    pub(crate) jobs: usize,
    /// Resident memory each external solver may hold, in MB; past it the run is killed
    /// and stored as `memory_limit`.
    #[arg(long, value_name = "MB")]
    pub(crate) memory_limit: Option<u64>,
    /// Solver registry file (else $TILEKIT_SOLVERS, ./solvers.toml, built-in).
    #[arg(long)]
    pub(crate) solvers_file: Option<PathBuf>,
    /// Run again the cells stored as solver errors.
    #[arg(long)]
    pub(crate) retry_errors: bool,
    /// Run each cell under N seeds, {seed} = 0 to N-1 in the solvers' registry arguments
    /// (0 is their own default), for performance variability.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub(crate) seeds: u32,
    /// Where the cells run: here (local), or as a Slurm job array (slurm: each task
    /// writes a shard of results; --collect merges them).
    #[arg(long, value_enum, default_value_t = ExecutorArg::Local)]
    pub(crate) executor: ExecutorArg,
    /// Slurm: merge the work directory's result shards into the database (no solver runs).
    #[arg(long, conflicts_with_all = ["solvers", "jobs", "retry_errors"])]
    pub(crate) collect: bool,
    /// Slurm: the work directory (plans, batch scripts, logs, shards; default: the
    /// database's path + .slurm).
    #[arg(long)]
    pub(crate) work: Option<PathBuf>,
    /// Slurm: cells each array task runs.
    #[arg(long, default_value_t = 4)]
    pub(crate) cells_per_task: usize,
    /// Slurm: the partition.
    #[arg(long)]
    pub(crate) partition: Option<String>,
    /// Slurm: one more argument for sbatch (repeatable).
    #[arg(long, allow_hyphen_values = true)]
    pub(crate) sbatch_arg: Vec<String>,
    /// Slurm: wait for the job to end, then collect its shards.
    #[arg(long)]
    pub(crate) wait: bool,
    /// NEOS: the NEOS solver the MILP files go to: cbc takes the LP, MPS and GAMS files,
    /// any other (cplex, gurobi, scip, …) the GAMS files.
    #[arg(long, default_value = "cbc")]
    pub(crate) neos_solver: String,
    /// NEOS: the XML-RPC endpoint.
    #[arg(long, default_value = tilekit::neos::DEFAULT_SERVER)]
    pub(crate) server: String,
    /// NEOS: the e-mail address NEOS requires with each job (else $NEOS_EMAIL).
    #[arg(long)]
    pub(crate) email: Option<String>,
    /// NEOS: the least time between two submissions, in seconds.
    #[arg(long, default_value_t = 10.0)]
    pub(crate) neos_interval: f64,
    /// NEOS: the longest wait for one job, in seconds.
    #[arg(long, default_value_t = 600.0)]
    pub(crate) neos_max_wait: f64,
    /// NEOS: submit the jobs and return; the same command again fetches and verifies them.
    #[arg(long)]
    pub(crate) no_wait: bool,
    /// NEOS: the job file keeping the jobs' passwords (default: the database's path +
    /// .neos-jobs.json; readable by its owner only).
    #[arg(long)]
    pub(crate) jobs_file: Option<PathBuf>,
    /// Print the summary as one JSON object.
    #[arg(long)]
    pub(crate) json: bool,
}

/// The arguments of `run-task`.
#[derive(clap::Args)]
pub(crate) struct RunTaskArgs {
    /// The plan file.
    pub(crate) plan: PathBuf,
    /// The array task's index (Slurm's `$SLURM_ARRAY_TASK_ID`).
    pub(crate) task: usize,
}

/// The arguments of `report`.
#[derive(clap::Args)]
pub(crate) struct ReportArgs {
    /// The results database.
    pub(crate) db: PathBuf,
    /// The directory to write (created if missing).
    #[arg(short = 'o', required = true)]
    pub(crate) output: PathBuf,
    /// Shift of the geometric mean, in seconds.
    #[arg(long, default_value_t = 10.0)]
    pub(crate) shift: f64,
    /// Print the summary as one JSON object.
    #[arg(long)]
    pub(crate) json: bool,
}
