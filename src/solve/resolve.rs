//! Names to solver objects: the external entries of the registry wrapped as [`MilpSolver`],
//! [`SatSolver`], [`MaxsatSolver`] and [`CliqueSolver`] (the model written to a temporary
//! directory, run by the drivers of [`super::milp_external`], [`super::sat_proof`],
//! [`super::maxsat_external`] and [`super::clique_external`]),
//! the embedded engines as a table beside them ([`embedded`]), and [`Registry`]'s lookups that
//! return either.

use crate::model::answer::{CliqueOutcome, MaxsatOutcome, MilpSolution, SatOutcome};
use crate::model::cnf::Cnf;
use crate::model::graph::StreamedGraph;
use crate::model::milp::Model;
use crate::model::wcnf::Wcnf;
use crate::solve::clique_external::solve_clique_file;
use crate::solve::external::StopFlag;
use crate::solve::maxsat_external::solve_maxsat_file;
use crate::solve::milp_external::{check_kind, solve_milp_file, solve_sat_file};
use crate::solve::registry::{InputFormat, Registry, RegistryError, SolverEntry, SolverKind};
use crate::solve::{
    Capabilities, CliqueSolver, Limits, MaxsatSolver, MilpSolver, ProofSatSolver, SatSolver,
    SolveError, Solver,
};
use std::path::{Path, PathBuf};

impl Registry {
    /// True when the registry has an entry `name` of `kind` whose program is installed.
    fn installed(&self, name: &str, kind: SolverKind) -> bool {
        self.entries().iter().any(|e| {
            e.name == name
                && e.kind == kind
                && crate::solve::registry::find_command(&e.command).is_some()
        })
    }

    /// The MILP solver a route takes when none is named (HiGHS's `choose`): the embedded
    /// HiGHS when tilekit is built with it, else an installed HiGHS, else an installed CBC,
    /// else microlp, which needs nothing. HiGHS was the fastest solver on every sliding and
    /// edge MILP tilekit measured, CBC next, microlp far behind
    /// (`docs/results/sliding-routes.md`, `docs/results/edge-exact.md`).
    pub fn choose_milp(&self) -> String {
        if embedded().iter().any(|e| e.name == "highs-embedded") {
            return "highs-embedded".into();
        }
        ["highs", "cbc"]
            .into_iter()
            .find(|n| self.installed(n, SolverKind::Milp))
            .unwrap_or("microlp")
            .into()
    }

    /// What the solver called `name` solves, embedded or registered; `None` for an unknown
    /// name (the route that resolves it then says so).
    pub fn kind_of(&self, name: &str) -> Option<SolverKind> {
        embedded()
            .iter()
            .find(|e| e.name == name)
            .map(|e| e.kind)
            .or_else(|| self.get(name).map(|e| e.kind))
    }

    /// The MILP solver called `name`: an embedded engine ([`embedded`]) or a registry entry.
    pub fn milp(&self, name: &str) -> Result<Box<dyn MilpSolver>, RegistryError> {
        match embedded().into_iter().find(|e| e.name == name) {
            Some(EmbeddedEngine {
                make: Engine::Milp(make),
                ..
            }) => Ok(make()),
            Some(e) => Err(e.wrong_kind(SolverKind::Milp)),
            None => Ok(Box::new(
                ExternalMilp::new(self.entry_of(name, SolverKind::Milp)?)
                    .expect("entry_of checked the kind"),
            )),
        }
    }

    /// The SAT solver called `name`: an embedded engine or a registry entry.
    pub fn sat(&self, name: &str) -> Result<Box<dyn SatSolver>, RegistryError> {
        match embedded().into_iter().find(|e| e.name == name) {
            Some(EmbeddedEngine {
                make: Engine::Sat(make),
                ..
            }) => Ok(make()),
            Some(e) => Err(e.wrong_kind(SolverKind::Sat)),
            None => Ok(Box::new(
                ExternalSat::new(self.entry_of(name, SolverKind::Sat)?)
                    .expect("entry_of checked the kind"),
            )),
        }
    }

    /// The MaxSAT solver called `name` (a registry entry: no MaxSAT engine is embedded).
    pub fn maxsat(&self, name: &str) -> Result<Box<dyn MaxsatSolver>, RegistryError> {
        if let Some(e) = embedded().into_iter().find(|e| e.name == name) {
            return Err(e.wrong_kind(SolverKind::Maxsat));
        }
        Ok(Box::new(
            ExternalMaxsat::new(self.entry_of(name, SolverKind::Maxsat)?)
                .expect("entry_of checked the kind"),
        ))
    }

    /// The clique solver called `name`: the embedded engine or a registry entry.
    pub fn clique(&self, name: &str) -> Result<Box<dyn CliqueSolver>, RegistryError> {
        match embedded().into_iter().find(|e| e.name == name) {
            Some(EmbeddedEngine {
                make: Engine::Clique(make),
                ..
            }) => return Ok(make()),
            Some(e) => return Err(e.wrong_kind(SolverKind::Clique)),
            None => {}
        }
        Ok(Box::new(
            ExternalClique::new(self.entry_of(name, SolverKind::Clique)?)
                .expect("entry_of checked the kind"),
        ))
    }
}

/// How to make an embedded engine, by kind.
#[derive(Clone, Copy)]
pub enum Engine {
    /// A MILP engine.
    Milp(fn() -> Box<dyn MilpSolver>),
    /// A SAT engine.
    Sat(fn() -> Box<dyn SatSolver>),
    /// A maximum-clique engine.
    Clique(fn() -> Box<dyn CliqueSolver>),
}

/// An engine linked into tilekit: registered beside the external entries, resolved by the
/// same name lookup, listed by `tilekit solvers`.
#[derive(Clone, Copy)]
pub struct EmbeddedEngine {
    /// The engine's name, as `solver` takes it.
    pub name: &'static str,
    /// What it solves.
    pub kind: SolverKind,
    /// The linked library's version.
    pub version: fn() -> String,
    /// Its constructor.
    pub make: Engine,
}

impl EmbeddedEngine {
    fn wrong_kind(&self, wanted: SolverKind) -> RegistryError {
        RegistryError::WrongKind {
            name: self.name.to_string(),
            kind: self.kind,
            wanted,
        }
    }
}

/// The embedded engines, one row each (a new engine is one file in `solve/` and one row here).
pub fn embedded() -> Vec<EmbeddedEngine> {
    #[allow(unused_mut, reason = "the `highs` feature adds a row")]
    let mut engines = vec![
        EmbeddedEngine {
            name: "microlp",
            kind: SolverKind::Milp,
            version: || crate::solve::milp_embedded::VERSION.into(),
            make: Engine::Milp(|| Box::new(crate::solve::milp_embedded::Microlp)),
        },
        EmbeddedEngine {
            name: "varisat",
            kind: SolverKind::Sat,
            version: || crate::solve::sat_embedded::VERSION.into(),
            make: Engine::Sat(|| Box::new(crate::solve::sat_embedded::Varisat)),
        },
        EmbeddedEngine {
            name: "mcq",
            kind: SolverKind::Clique,
            version: crate::solve::clique_native::version,
            make: Engine::Clique(|| Box::new(crate::solve::clique_native::Mcq)),
        },
    ];
    #[cfg(feature = "highs")]
    engines.push(EmbeddedEngine {
        name: "highs-embedded",
        kind: SolverKind::Milp,
        version: crate::solve::milp_highs::version,
        make: Engine::Milp(|| Box::new(crate::solve::milp_highs::HighsEmbedded)),
    });
    engines
}

/// An external MILP solver of the registry as a [`MilpSolver`]: the model is written in the
/// entry's input format (LP or MPS) to a temporary directory, solved there and the directory
/// removed.
#[derive(Debug, Clone)]
pub struct ExternalMilp {
    entry: SolverEntry,
    /// A file already holding the model ([`ExternalMilp::on_file`]).
    prepared: Option<PathBuf>,
}

/// An external SAT solver of the registry as a [`SatSolver`] (and a [`ProofSatSolver`] when it
/// follows the SAT-competition convention, [`crate::solve::sat_proof::writes_proofs`]).
#[derive(Debug, Clone)]
pub struct ExternalSat {
    entry: SolverEntry,
    /// A file already holding the model ([`ExternalSat::on_file`]).
    prepared: Option<PathBuf>,
}

fn external_capabilities(entry: &SolverEntry, proofs: bool) -> Capabilities {
    Capabilities {
        // The runner kills the process group at the limit (plus a grace period).
        time_limit: true,
        threads: entry.args.iter().any(|a| a.contains("{threads}")),
        proofs,
        embedded: false,
    }
}

/// A temporary directory for one run (removed on drop, and by the signal handler).
fn work_dir(entry: &SolverEntry) -> Result<super::cleanup::TempDir, SolveError> {
    super::cleanup::tempdir().map_err(|source| SolveError::Io {
        solver: entry.name.clone(),
        path: std::env::temp_dir(),
        source,
    })
}

fn temp_model_path(entry: &SolverEntry) -> Result<(super::cleanup::TempDir, PathBuf), SolveError> {
    let dir = work_dir(entry)?;
    let path = dir
        .path()
        .join(format!("model.{}", entry.input.extension()));
    Ok((dir, path))
}

/// Write a model file through a buffer, flushed explicitly: a `BufWriter` dropped with an
/// error would lose it silently.
pub(crate) fn write_model_file(
    entry: &SolverEntry,
    path: &Path,
    write: impl FnOnce(&mut std::io::BufWriter<std::fs::File>) -> std::io::Result<u64>,
) -> Result<(), SolveError> {
    let io = |source| SolveError::Io {
        solver: entry.name.clone(),
        path: path.to_path_buf(),
        source,
    };
    let mut file = std::io::BufWriter::new(std::fs::File::create(path).map_err(io)?);
    write(&mut file).map_err(io)?;
    std::io::Write::flush(&mut file).map_err(io)?;
    Ok(())
}

impl ExternalMilp {
    /// The entry run on `path`, a file that already holds the MILP each `solve` is handed,
    /// in the entry's input format: nothing is written. The caller vouches for the file (a
    /// campaign re-exports the model and compares hashes first); the answer is still judged
    /// against the model in memory.
    pub fn on_file(entry: SolverEntry, path: PathBuf) -> Result<Self, SolveError> {
        let mut s = Self::new(entry)?;
        s.prepared = Some(path);
        Ok(s)
    }
    /// Wrap a registry entry, which must be a MILP solver reading LP or MPS.
    pub fn new(entry: SolverEntry) -> Result<Self, SolveError> {
        check_kind(&entry, SolverKind::Milp)?;
        Ok(ExternalMilp {
            entry,
            prepared: None,
        })
    }
    /// The registry entry.
    pub fn entry(&self) -> &SolverEntry {
        &self.entry
    }
}

impl Solver for ExternalMilp {
    fn name(&self) -> &str {
        &self.entry.name
    }
    fn capabilities(&self) -> Capabilities {
        external_capabilities(&self.entry, false)
    }
}

impl MilpSolver for ExternalMilp {
    fn solve(&self, model: &Model, limits: &Limits) -> Result<MilpSolution, SolveError> {
        if let Some(file) = &self.prepared {
            let dir = work_dir(&self.entry)?;
            let (sol, _run) =
                solve_milp_file(&self.entry, file, dir.path(), limits.time, limits.threads)?;
            return Ok(sol);
        }
        let (dir, path) = temp_model_path(&self.entry)?;
        write_model_file(&self.entry, &path, |w| match self.entry.input {
            InputFormat::Mps => crate::format::mps::write_mps(model, w),
            // The registry ties MILP entries to LP or MPS when it loads them.
            _ => crate::format::lp::write_lp(model, w),
        })?;
        let (sol, _run) =
            solve_milp_file(&self.entry, &path, dir.path(), limits.time, limits.threads)?;
        Ok(sol)
    }
}

impl ExternalSat {
    /// The entry run on `path`, a file that already holds the CNF each `solve` is handed,
    /// in the entry's input format: nothing is written. The caller vouches for the file (a
    /// campaign re-exports the model and compares hashes first); the answer is still judged
    /// against the model in memory.
    pub fn on_file(entry: SolverEntry, path: PathBuf) -> Result<Self, SolveError> {
        let mut s = Self::new(entry)?;
        s.prepared = Some(path);
        Ok(s)
    }
    /// Wrap a registry entry, which must be a SAT solver.
    pub fn new(entry: SolverEntry) -> Result<Self, SolveError> {
        check_kind(&entry, SolverKind::Sat)?;
        Ok(ExternalSat {
            entry,
            prepared: None,
        })
    }
    /// The registry entry.
    pub fn entry(&self) -> &SolverEntry {
        &self.entry
    }
}

impl Solver for ExternalSat {
    fn name(&self) -> &str {
        &self.entry.name
    }
    fn capabilities(&self) -> Capabilities {
        external_capabilities(
            &self.entry,
            crate::solve::sat_proof::writes_proofs(&self.entry),
        )
    }
}

impl SatSolver for ExternalSat {
    fn solve(&self, cnf: &Cnf, limits: &Limits) -> Result<SatOutcome, SolveError> {
        if let Some(file) = &self.prepared {
            let dir = work_dir(&self.entry)?;
            let (outcome, _run) =
                solve_sat_file(&self.entry, file, dir.path(), limits.time, cnf.num_vars())?;
            return Ok(outcome);
        }
        let (dir, path) = temp_model_path(&self.entry)?;
        write_model_file(&self.entry, &path, |w| {
            crate::format::dimacs_cnf::write_cnf(cnf, w)
        })?;
        let (outcome, _run) =
            solve_sat_file(&self.entry, &path, dir.path(), limits.time, cnf.num_vars())?;
        Ok(outcome)
    }
    fn proofs(&self) -> Option<&dyn ProofSatSolver> {
        crate::solve::sat_proof::writes_proofs(&self.entry).then_some(self as &dyn ProofSatSolver)
    }
}

impl ProofSatSolver for ExternalSat {
    fn solve_with_proof(
        &self,
        cnf: &Cnf,
        cnf_file: &Path,
        proof: &Path,
        limits: &Limits,
    ) -> Result<SatOutcome, SolveError> {
        self.solve_with_proof_until(cnf, cnf_file, proof, limits, &StopFlag::new())
    }
    fn solve_with_proof_until(
        &self,
        cnf: &Cnf,
        cnf_file: &Path,
        proof: &Path,
        limits: &Limits,
        stop: &StopFlag,
    ) -> Result<SatOutcome, SolveError> {
        // The solver works beside the formula, where its certificate files live.
        let workdir = cnf_file.parent().unwrap_or(Path::new("."));
        let (outcome, _run) = crate::solve::sat_proof::solve_sat_file_with_proof(
            &self.entry,
            cnf_file,
            workdir,
            limits.time,
            cnf.num_vars(),
            proof,
            Some(stop),
        )?;
        Ok(outcome)
    }
}

/// An external MaxSAT solver of the registry as a [`MaxsatSolver`]: the formula is written in
/// the entry's dialect (`wcnf`: the 2022 format; `wcnf-legacy`: `p wcnf`) to a temporary
/// directory and solved there.
#[derive(Debug, Clone)]
pub struct ExternalMaxsat {
    entry: SolverEntry,
    /// A file already holding the formula ([`ExternalMaxsat::on_file`]).
    prepared: Option<PathBuf>,
}

impl ExternalMaxsat {
    /// The entry run on `path`, a file that already holds the WCNF each `solve` is handed,
    /// in the entry's dialect: nothing is written. The caller vouches for the file (a
    /// campaign re-exports the model and compares hashes first); the answer is still judged
    /// against the formula in memory.
    pub fn on_file(entry: SolverEntry, path: PathBuf) -> Result<Self, SolveError> {
        let mut s = Self::new(entry)?;
        s.prepared = Some(path);
        Ok(s)
    }
    /// Wrap a registry entry, which must be a MaxSAT solver.
    pub fn new(entry: SolverEntry) -> Result<Self, SolveError> {
        check_kind(&entry, SolverKind::Maxsat)?;
        Ok(ExternalMaxsat {
            entry,
            prepared: None,
        })
    }
    /// The registry entry.
    pub fn entry(&self) -> &SolverEntry {
        &self.entry
    }
}

impl Solver for ExternalMaxsat {
    fn name(&self) -> &str {
        &self.entry.name
    }
    fn capabilities(&self) -> Capabilities {
        external_capabilities(&self.entry, false)
    }
}

impl MaxsatSolver for ExternalMaxsat {
    fn solve(&self, wcnf: &Wcnf, limits: &Limits) -> Result<MaxsatOutcome, SolveError> {
        use crate::format::wcnf::{Dialect, write_wcnf};
        if let Some(file) = &self.prepared {
            let dir = work_dir(&self.entry)?;
            let (outcome, _run) = solve_maxsat_file(
                &self.entry,
                file,
                dir.path(),
                limits.time,
                limits.threads,
                wcnf.num_vars(),
            )?;
            return Ok(outcome);
        }
        let (dir, path) = temp_model_path(&self.entry)?;
        let dialect = match self.entry.input {
            InputFormat::WcnfLegacy => Dialect::Legacy,
            // The registry ties MaxSAT entries to the two WCNF dialects when it loads them.
            _ => Dialect::Mse2022,
        };
        write_model_file(&self.entry, &path, |w| write_wcnf(wcnf, dialect, w))?;
        let (outcome, _run) = solve_maxsat_file(
            &self.entry,
            &path,
            dir.path(),
            limits.time,
            limits.threads,
            wcnf.num_vars(),
        )?;
        Ok(outcome)
    }
}

/// An external max-clique solver of the registry as a [`CliqueSolver`]: the graph is streamed
/// as DIMACS (with a label comment per vertex) to a temporary directory and solved there.
#[derive(Debug, Clone)]
pub struct ExternalClique {
    entry: SolverEntry,
    /// A file already holding the model ([`ExternalClique::on_file`]).
    prepared: Option<PathBuf>,
}

impl ExternalClique {
    /// The entry run on `path`, a file that already holds the graph each `solve` is handed,
    /// in the entry's input format: nothing is written. The caller vouches for the file (a
    /// campaign re-exports the model and compares hashes first); the answer is still judged
    /// against the model in memory.
    pub fn on_file(entry: SolverEntry, path: PathBuf) -> Result<Self, SolveError> {
        let mut s = Self::new(entry)?;
        s.prepared = Some(path);
        Ok(s)
    }
    /// Wrap a registry entry, which must be a clique solver.
    pub fn new(entry: SolverEntry) -> Result<Self, SolveError> {
        check_kind(&entry, SolverKind::Clique)?;
        Ok(ExternalClique {
            entry,
            prepared: None,
        })
    }
}

impl Solver for ExternalClique {
    fn name(&self) -> &str {
        &self.entry.name
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities {
            time_limit: true,
            threads: false,
            proofs: false,
            embedded: false,
        }
    }
}

impl CliqueSolver for ExternalClique {
    fn solve(
        &self,
        graph: &dyn StreamedGraph,
        limits: &Limits,
    ) -> Result<CliqueOutcome, SolveError> {
        let dir = work_dir(&self.entry)?;
        if let Some(file) = &self.prepared {
            let (outcome, _run) = solve_clique_file(
                &self.entry,
                file,
                dir.path(),
                limits.time,
                graph.num_nodes(),
            )?;
            return Ok(outcome);
        }
        let path = dir.path().join("graph.dimacs");
        // The file can take longer to write than the limit allows (tens of gigabytes): the
        // limit covers the writing too, and a write past it is a run out of time.
        let started = std::time::Instant::now();
        let mut late = false;
        let written = write_model_file(&self.entry, &path, |w| {
            crate::format::dimacs_graph::write_graph_counted(graph, false, true, w, &mut |_| {
                late = started.elapsed() >= limits.time;
                if late {
                    return Err(std::io::Error::new(
                        std::io::ErrorKind::TimedOut,
                        "the time limit passed while the graph was written",
                    ));
                }
                Ok(())
            })
        });
        if late {
            return Ok(CliqueOutcome::TimeLimit);
        }
        written?;
        let (outcome, _run) = solve_clique_file(
            &self.entry,
            &path,
            dir.path(),
            limits.time.saturating_sub(started.elapsed()),
            graph.num_nodes(),
        )?;
        Ok(outcome)
    }
}
