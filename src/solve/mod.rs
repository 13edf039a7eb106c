//! Running solvers, behind small traits (good_lp / rustsat shape): [`MilpSolver`],
//! [`SatSolver`] (with [`ProofSatSolver`] for DRAT proofs), [`MaxsatSolver`] and
//! [`CliqueSolver`], each told its [`Limits`] and saying what it can honour through
//! [`Capabilities`].
//!
//! The backends: embedded engines linked into tilekit ([`milp_embedded`] microlp,
//! [`sat_embedded`] varisat, `milp_highs` HiGHS with the `highs` feature), external programs
//! described as data in `solvers.toml` ([`registry`], run by [`external`]'s hardened runner
//! through the drivers in [`milp_external`], [`maxsat_external`], [`clique_external`] and
//! [`sat_proof`]), and NEOS as a remote MILP executor ([`crate::neos::remote`]).
//! [`registry::Registry`] resolves a name to a solver object; nothing above this module
//! compares engine names.

pub mod cleanup;
pub mod clique_external;
pub mod clique_native;
pub mod external;
pub mod gams;
pub mod maxsat_external;
pub mod milp_embedded;
pub mod milp_external;
#[cfg(feature = "highs")]
pub mod milp_highs;
pub mod registry;
pub mod resolve;
pub mod sat_embedded;
pub mod sat_proof;

pub use crate::model::answer::{
    CliqueOutcome, ColumnValues, MaxsatOutcome, MilpSolution, Outcome, ResolveError, SatOutcome,
};

use crate::error::InputError;
use crate::model::cnf::Cnf;
use crate::model::graph::StreamedGraph;
use crate::model::milp::Model;
use crate::model::wcnf::Wcnf;
use crate::solve::external::RunError;
use crate::solve::registry::SolverKind;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The limits one solver run works under.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// Wall-clock limit of the run. External solvers are killed (process group) shortly
    /// after it; embedded engines stop or are abandoned at it.
    pub time: Duration,
    /// Threads, for solvers that take them ([`Capabilities::threads`]).
    pub threads: u32,
    /// Resident memory, in bytes, that an external solver's processes may hold together
    /// before they are killed (`None`: no limit). Enforced on the processes a
    /// [`external::supervised`] call starts; an embedded engine runs inside tilekit and
    /// cannot be held to it.
    pub memory: Option<u64>,
}

impl Limits {
    /// A run of at most `time` on `threads` threads, with no memory limit.
    pub fn new(time: Duration, threads: u32) -> Self {
        Limits {
            time,
            threads,
            memory: None,
        }
    }

    /// What is left of these limits `since` work began (`None`: nothing): a command's limit
    /// is its whole wall-clock time, so each later run gets only the rest.
    pub fn remaining(&self, since: std::time::Instant) -> Option<Limits> {
        self.time
            .checked_sub(since.elapsed())
            .filter(|t| !t.is_zero())
            .map(|time| Limits { time, ..*self })
    }
}

/// What a solver can honour or produce. A route reads these instead of comparing names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Capabilities {
    /// It stops at [`Limits::time`] (by itself, by being killed, or by being abandoned).
    pub time_limit: bool,
    /// It uses [`Limits::threads`].
    pub threads: bool,
    /// It can write DRAT proofs of unsatisfiability ([`SatSolver::proofs`] is `Some`).
    pub proofs: bool,
    /// It runs inside tilekit (no program, no files).
    pub embedded: bool,
}

/// Every solver has a name (for reports) and capabilities.
pub trait Solver: Send + Sync {
    /// The name reports show (`cbc`, `varisat`, `highs-embedded`, `neos:Cbc`, ...).
    fn name(&self) -> &str;
    /// What it can honour.
    fn capabilities(&self) -> Capabilities;
    /// How long a run under `limits` may keep its caller waiting, as progress lines report
    /// it: `limits.time` for a solver that stops at it; a remote executor, whose job can sit
    /// in a queue before its solver's limit starts, says its own wait bound.
    fn wait_bound(&self, limits: &Limits) -> Duration {
        limits.time
    }
}

/// A solver of mixed-integer linear programs.
pub trait MilpSolver: Solver {
    /// Solve `model`. A time limit, infeasibility or unboundedness is an answer
    /// ([`Outcome`]), not an error.
    fn solve(&self, model: &Model, limits: &Limits) -> Result<MilpSolution, SolveError>;
}

/// A SAT solver.
pub trait SatSolver: Solver {
    /// Solve `cnf`. A model is returned only after it was checked against every clause by
    /// the driver or the caller; no answer within the limit is [`SatOutcome::Unknown`].
    fn solve(&self, cnf: &Cnf, limits: &Limits) -> Result<SatOutcome, SolveError>;
    /// The same solver as a proof producer, when it can write DRAT proofs.
    fn proofs(&self) -> Option<&dyn ProofSatSolver> {
        None
    }
}

/// A SAT solver that writes DRAT proofs of unsatisfiability (capability trait).
pub trait ProofSatSolver: SatSolver {
    /// Solve `cnf` (already written as DIMACS to `cnf_file`, the file the checker reads)
    /// while writing a proof to `proof`, which is complete only for an `Unsat` answer.
    fn solve_with_proof(
        &self,
        cnf: &Cnf,
        cnf_file: &Path,
        proof: &Path,
        limits: &Limits,
    ) -> Result<SatOutcome, SolveError>;
    /// [`ProofSatSolver::solve_with_proof`] that ends early, with no answer, once `stop` is
    /// raised (external solvers: the process group is killed). The default cannot be stopped
    /// and runs to its answer or its limit (the embedded varisat).
    fn solve_with_proof_until(
        &self,
        cnf: &Cnf,
        cnf_file: &Path,
        proof: &Path,
        limits: &Limits,
        stop: &external::StopFlag,
    ) -> Result<SatOutcome, SolveError> {
        let _ = stop;
        self.solve_with_proof(cnf, cnf_file, proof, limits)
    }
    /// True when its proofs delete unit clauses, which the checker must be told to skip
    /// (varisat's binary DRAT does; CaDiCaL's and Kissat's do not).
    fn deletes_units(&self) -> bool {
        false
    }
}

/// A weighted partial MaxSAT solver.
pub trait MaxsatSolver: Solver {
    /// Solve `wcnf`: a model of the hard clauses of least soft cost. The answer is the
    /// solver's word ([`MaxsatOutcome`]); the caller checks the hard clauses and recounts
    /// the cost. No answer within the limit is [`MaxsatOutcome::Unknown`].
    fn solve(&self, wcnf: &Wcnf, limits: &Limits) -> Result<MaxsatOutcome, SolveError>;
}

/// A maximum-clique solver.
pub trait CliqueSolver: Solver {
    /// Find a maximum clique of `graph` (nodes numbered from 0).
    fn solve(
        &self,
        graph: &dyn StreamedGraph,
        limits: &Limits,
    ) -> Result<CliqueOutcome, SolveError>;
}

/// A solver failure: the solver could not be run, or it did not give a readable answer.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    /// The solver could not be started.
    #[error(transparent)]
    Run(#[from] RunError),
    /// The entry solves something else.
    #[error("solver '{solver}' is a {} solver, not a {} solver", kind.as_str(), wanted.as_str())]
    WrongKind {
        /// The entry's name.
        solver: String,
        /// What it solves.
        kind: SolverKind,
        /// What the caller needed.
        wanted: SolverKind,
    },
    /// The solver exited with a code that means failure.
    #[error("solver '{solver}' failed ({exit}): {tail}")]
    Failed {
        /// The entry's name.
        solver: String,
        /// How it ended ("exit code 1", "signal 11").
        exit: String,
        /// The end of its output.
        tail: String,
    },
    /// The solver reported success but left no solution file.
    #[error("solver '{solver}' finished ({exit}) but wrote no solution file {}: {tail}", path.display())]
    NoSolutionFile {
        /// The entry's name.
        solver: String,
        /// The file we asked for.
        path: PathBuf,
        /// How it ended.
        exit: String,
        /// The end of its output.
        tail: String,
    },
    /// The answer exists but cannot be parsed.
    #[error("solver '{solver}' gave an answer we cannot read: {error} (solver output: {tail})")]
    BadSolution {
        /// The entry's name.
        solver: String,
        /// The parser's complaint, with file and line.
        error: InputError,
        /// The end of its output.
        tail: String,
    },
    /// The exit code and the answer disagree (e.g. exit 10 "SAT" with `s UNSATISFIABLE`).
    #[error("solver '{solver}' exited with {exit} but answered {answer}; not trusting either")]
    Inconsistent {
        /// The entry's name.
        solver: String,
        /// How it ended.
        exit: String,
        /// What its output said.
        answer: String,
    },
    /// A file in the working directory could not be handled.
    #[error("solver '{solver}': cannot use {}: {source}", path.display())]
    Io {
        /// The entry's name.
        solver: String,
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// A remote executor (NEOS) failed: the service, the job or its output. The executor's
    /// own error is kept whole, so that a caller that knows the executor can tell its kinds
    /// apart (`tilekit::Error` turns a NEOS error back into `Error::Neos`, exit codes and all).
    #[error(transparent)]
    Remote(Box<dyn std::error::Error + Send + Sync + 'static>),
    /// An embedded engine failed (not an answer about the model).
    #[error("{solver} failed: {message}")]
    Engine {
        /// The engine's name.
        solver: String,
        /// What went wrong.
        message: String,
    },
}
