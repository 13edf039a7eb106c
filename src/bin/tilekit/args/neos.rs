//! `tilekit neos …`: the NEOS client's subcommands and the options they share.

use super::*;
use std::path::PathBuf;
use tilekit::route::{FamilyName, ModelName};

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
    /// short (≤ 5 min, output streams) or long [default: short up to --time-limit 300]
    #[arg(long, value_enum)]
    pub priority: Option<PriorityArg>,
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
    Ping(NeosPingArgs),

    /// Show the server's queue: the jobs running and waiting.
    Queue(NeosPingArgs),

    /// List the server's solvers (all, or those of one category as `solver:input`).
    Solvers(NeosSolversArgs),

    /// Submit a job: a job document (.xml) as it is, or a model built from an instance.
    Submit(NeosSubmitArgs),

    /// Show a job's status.
    Status(NeosStatusArgs),

    /// Fetch a job's results; decode and verify them when tilekit built the job (from the
    /// instance the job file keeps).
    Results(NeosResultsArgs),

    /// Kill a job.
    Kill(NeosKillArgs),

    /// Export, submit, wait, fetch, decode and verify, like `tilekit solve --via milp` but on
    /// NEOS (sliding and edge-matching instances).
    Solve(NeosSolveArgs),
}

/// The arguments of neos `ping`.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct NeosPingArgs {
    #[command(flatten)]
    pub(crate) opts: NeosOpts,
}

/// The arguments of neos `solvers`.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct NeosSolversArgs {
    /// A category such as milp.
    #[arg(long)]
    pub(crate) category: Option<String>,
    #[command(flatten)]
    pub(crate) opts: NeosOpts,
}

/// The arguments of neos `submit`.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct NeosSubmitArgs {
    /// A NEOS job document (*.xml), or an instance file (sliding or edge-matching).
    pub(crate) job_or_instance: PathBuf,
    #[command(flatten)]
    pub(crate) model: ModelOpts,
    #[command(flatten)]
    pub(crate) opts: NeosOpts,
}

/// A job by number, and its password when the job file does not keep it.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct JobRef {
    /// Job number.
    pub(crate) job: i64,
    /// Password (needed only for jobs not in the job file).
    #[arg(long)]
    pub(crate) password: Option<String>,
}

/// The arguments of neos `status`.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct NeosStatusArgs {
    #[command(flatten)]
    pub(crate) job: JobRef,
    #[command(flatten)]
    pub(crate) opts: NeosOpts,
}

/// The arguments of neos `results`.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct NeosResultsArgs {
    #[command(flatten)]
    pub(crate) job: JobRef,
    /// Wait up to this many seconds for the job to finish.
    #[arg(long)]
    pub(crate) wait: Option<f64>,
    /// Seconds between status polls while waiting.
    #[arg(long, default_value_t = 5.0)]
    pub(crate) poll: f64,
    /// Print the raw output instead of decoding it.
    #[arg(long)]
    pub(crate) raw: bool,
    #[command(flatten)]
    pub(crate) opts: NeosOpts,
}

/// The arguments of neos `kill`.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct NeosKillArgs {
    #[command(flatten)]
    pub(crate) job: JobRef,
    #[command(flatten)]
    pub(crate) opts: NeosOpts,
}

/// The arguments of neos `solve`.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct NeosSolveArgs {
    /// The instance file (sliding or edge-matching).
    pub(crate) instance: PathBuf,
    #[command(flatten)]
    pub(crate) model: ModelOpts,
    /// Give up waiting after this many seconds.
    #[arg(long, default_value_t = 600.0)]
    pub(crate) wait: f64,
    /// Seconds between status polls.
    #[arg(long, default_value_t = 5.0)]
    pub(crate) poll: f64,
    /// Echo the solver's output to stderr as it streams.
    #[arg(long)]
    pub(crate) follow: bool,
    /// Write the verified solution here (moves, or a board), as `solve -o` does.
    #[arg(short = 'o', value_name = "FILE", conflicts_with = "dry_run")]
    pub(crate) output: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) opts: NeosOpts,
}
