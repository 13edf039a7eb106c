//! The options a request carries, by name, for messages. The library names an option by its
//! field ([`Field`]) and never by a command-line flag: an error says which field is wrong, and
//! the front end that built the request says it in its own words. The command line installs
//! its flag names once at start ([`name_fields_by`]), so that its users read `--horizon`; a
//! library caller who installs nothing reads the field's path (`` `horizon` ``), and another
//! front end (a Python binding, say) can install its keyword names. Flag names thus live in
//! one place, the binary, as ripgrep keeps them in its `flags` module.
//!
//! ```
//! use tilekit::field::Field;
//! // With no names installed, a field is named by its path in the request types.
//! assert_eq!(Field::Horizon.to_string(), "`horizon`");
//! assert_eq!(Field::Weight.path(), "astar.weight");
//! ```

use std::fmt;
use std::sync::OnceLock;

/// Declares [`Field`] with its paths, so that [`Field::ALL`] cannot miss a variant.
macro_rules! fields {
    ($($(#[$doc:meta])* $variant:ident => $path:literal,)*) => {
        /// One option of a request, as messages name it.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Field {
            $($(#[$doc])* $variant,)*
        }

        impl Field {
            /// Every field, in declaration order.
            pub const ALL: &'static [Field] = &[$(Field::$variant,)*];

            /// The field's path in the library's request types (`horizon`,
            /// `heuristic.construct`): how a message names it when no front end installed
            /// its own names.
            pub fn path(self) -> &'static str {
                match self {
                    $(Field::$variant => $path,)*
                }
            }
        }
    };
}

fields! {
    // The instance and the command.
    /// The puzzle family, when the content is not enough to tell.
    Family => "family",
    /// The route (native, astar, milp, sat; milp, clique, sat, maxsat, heuristic).
    Via => "via",
    /// The model a route solves or a file holds.
    Model => "model",
    /// The file format of an export.
    Format => "format",
    /// Where the verified answer (or the export) is written.
    Output => "output",
    /// The solution file `verify` or `render` reads.
    Solution => "solution",
    /// A solver by name (an embedded engine or a registry entry).
    Solver => "solver",
    /// The solver registry file.
    SolversFile => "solvers_file",
    /// The wall-clock limit.
    TimeLimit => "limits.time_limit",
    /// The threads a method or a solver may use.
    Threads => "limits.threads",
    /// The resident memory an external solver may hold.
    MemoryLimit => "limits.memory",
    /// The bundle of choices a run starts from.
    Preset => "preset",
    /// A research parameter by key.
    Set => "settings",
    /// A file of research parameters.
    Params => "params_file",
    // Sliding puzzles.
    /// The goal convention.
    Goal => "goal",
    /// The time-indexed models' number of steps.
    Horizon => "horizon",
    /// The SAT encoding.
    Encoding => "encoding",
    /// A DRAT certificate of optimality.
    Certify => "certify",
    /// A move file to certify.
    Plan => "plan",
    /// The plan the MILP route starts from.
    Incumbent => "incumbent",
    /// The MILP route's horizon stepped up from the bound.
    Step => "step",
    /// The native search's pattern partition.
    Pdb => "pdb",
    /// The native search's second partition, maxed with the first.
    MaxWith => "native.max_with",
    /// A* on sliding puzzles: the estimate.
    Heuristic => "astar.heuristic",
    /// A* on sliding puzzles: the learned estimate's weight file.
    Weights => "astar.weights",
    /// Weighted A*'s weight.
    Weight => "astar.weight",
    /// Focal search's suboptimality bound.
    Suboptimality => "astar.suboptimality",
    /// A* on sliding puzzles: expansions whose children are estimated together.
    Batch => "astar.batch",
    /// A* on sliding puzzles: the most boards stored.
    MaxStates => "astar.max_states",
    // Edge-matching puzzles.
    /// The MILP's grey-on-the-rim filter.
    Filter => "filter",
    /// The MILP's first corner tile fixed in the top-left cell.
    FixCorner => "fix_corner",
    /// The clique model written as its conflict graph.
    Complement => "complement",
    /// The region model's rectangle.
    Region => "region",
    /// The board a region is cut from.
    Partial => "partial",
    /// Piece numbers drawn on the board.
    Ids => "ids",
    /// The heuristic's construction.
    Construct => "heuristic.construct",
    /// The heuristic's improvement.
    Improve => "heuristic.improve",
    /// A board the heuristic starts from.
    Start => "heuristic.start",
    /// The seed of the randomised methods.
    Seed => "heuristic.seed",
    /// Pieces fixed in place.
    Fix => "heuristic.fixes",
    /// The official starter piece left free.
    NoFix => "heuristic.starter",
    // NEOS.
    /// How a NEOS job carries the model.
    NeosInput => "neos.input",
    /// The NEOS solver.
    NeosSolver => "neos.solver",
    /// The e-mail address NEOS requires.
    Email => "neos.email",
    /// The NEOS server.
    Server => "server",
    /// How long a NEOS call waits.
    Timeout => "timeout",
    /// The file of submitted NEOS jobs.
    JobsFile => "jobs_file",
    /// A NEOS job's output as the server sent it.
    Raw => "raw",
    // Campaigns and benchmarks.
    /// Cells or files worked at once.
    Jobs => "jobs",
    /// The solvers of a campaign, by name.
    Solvers => "solvers",
    /// The seeds each cell of a campaign runs with.
    Seeds => "seeds",
    /// The models of an exported set.
    Models => "models",
    /// The formats of an exported set.
    Formats => "formats",
    /// Compression of an exported set.
    Compress => "compress",
    /// The results database.
    Db => "db",
    /// The shift of the shifted geometric mean.
    Shift => "shift",
    /// Where a campaign's cells run (local, slurm, neos).
    Executor => "executor",
    /// A Slurm campaign's work directory.
    Work => "work",
    /// Collect a Slurm campaign's results.
    Collect => "collect",
    /// Submit NEOS jobs without waiting for them.
    NoWait => "no_wait",
    /// A benchmark's methods.
    Methods => "methods",
    /// A benchmark's runs per configuration.
    Runs => "runs",
    /// A benchmark's time per run.
    Budget => "budget",
    /// A benchmark's instances, by number.
    Instances => "instances",
    /// A benchmark's node limit per instance.
    Limit => "limit",
    /// Where a benchmark keeps each instance's progress, to resume from.
    Checkpoint => "checkpoint",
    /// Searches a benchmark's job interleaves.
    Interleave => "interleave",
    // Proofs and training.
    /// The DRAT proof checker.
    Checker => "checker",
    /// Where DRAT proofs are kept.
    ProofDir => "proof_dir",
    /// Training: samples per gradient step.
    TrainBatch => "train.batch",
    /// Training: the epochs.
    Epochs => "epochs",
    /// Training: the share of the data held out for validation.
    ValPercent => "val_percent",
}

static NAMES: OnceLock<fn(Field) -> &'static str> = OnceLock::new();

/// Name every field in messages as `names` does, from now on: the command line passes its
/// flag names. Only the first call counts (a process has one front end); it says whether
/// this one did.
pub fn name_fields_by(names: fn(Field) -> &'static str) -> bool {
    NAMES.set(names).is_ok()
}

impl fmt::Display for Field {
    /// The front end's name for the field when one is installed, else its path in backticks.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match NAMES.get() {
            Some(names) => f.write_str(names(*self)),
            None => write!(f, "`{}`", self.path()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_is_listed_once_with_its_own_path() {
        let mut paths: Vec<&str> = Field::ALL.iter().map(|f| f.path()).collect();
        let n = paths.len();
        paths.sort();
        paths.dedup();
        assert_eq!(paths.len(), n, "two fields share a path");
    }
}
