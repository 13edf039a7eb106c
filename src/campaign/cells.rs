//! The cells of `tilekit run`: every file of an exported set × every solver that reads it.
//! Here are what every executor shares: the solvers resolved (`resolve_solvers`), the
//! matrix (`cells`), the checks before anything runs (`prepare`, `check_file`), one
//! cell run and stored as a row (`run_cell`), and the cross-check of the stored rows
//! ([`cross_check`]). The executors ([`super::run`] here, [`super::slurm`] as a job array,
//! [`super::neos`] on NEOS) decide where the cells run.
//!
//! A cell runs the solver on the manifest's own file. Before any cell runs, each file is
//! checked twice: its bytes must still hash to the manifest's SHA-256, and the model tilekit
//! builds now from the instance copy and the manifest's options must export to those same
//! bytes. The route then judges the answer against that model in memory, so what is verified
//! is exactly what the solver read. Embedded engines solve the same model in memory.

use super::crosscheck::{self, Conflict};
use super::db::{Db, RunOrigin, RunRow};
use super::export_set::{self, Compress, ExportSetRequest};
use super::manifest::{self, FileEntry, InstanceEntry, Manifest};
use crate::field::Field;
use crate::format::Format;
use crate::formulate::edge_milp::EdgeMilpOptions;
use crate::puzzle::edge::EdgePuzzle;
use crate::puzzle::sliding::{Goal, SlidingPuzzle};
use crate::route::family::Horizon;
use crate::route::sliding::SlidingModel;
use crate::route::{Error, ModelName, Progress, Report, edge, sliding};
use crate::solve::registry::{self, InputFormat, Registry, SolverEntry, SolverKind};
use crate::solve::resolve::{self, ExternalClique, ExternalMaxsat, ExternalMilp, ExternalSat};
use crate::solve::{CliqueSolver, Limits, MaxsatSolver, MilpSolver, SatSolver};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// `tilekit run`, as the flags say it.
#[derive(Debug, Clone)]
pub struct RunRequest {
    /// The manifest.
    pub manifest: PathBuf,
    /// The solvers, by name, in order.
    pub solvers: Vec<String>,
    /// The results database.
    pub db: PathBuf,
    /// The time limit per cell.
    pub limits: Limits,
    /// Cells run at the same time.
    pub jobs: usize,
    /// The solver registry file.
    pub solvers_file: Option<PathBuf>,
    /// Run cells stored as `error` again.
    pub retry_errors: bool,
    /// Seeds per cell: each cell runs with `{seed}` = 0, 1, … up to one below this (at
    /// least 1; 0 is the solvers' own default).
    pub seeds: u32,
}

/// What a run did.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct RunSummary {
    /// Cells in the matrix.
    pub cells: usize,
    /// Cells run now.
    pub ran: usize,
    /// Cells already in the database.
    pub done_before: usize,
    /// Cells run now that ended in a solver error.
    pub errors: usize,
    /// The disagreements found among all runs of the manifest's instances.
    #[serde(skip)]
    pub conflicts: Vec<Conflict>,
    /// How many.
    pub conflict_count: usize,
    /// What a user must know besides (a Slurm task that did not finish, cells still
    /// missing): printed whether or not progress is shown.
    pub notes: Vec<String>,
    /// The set's files whose bytes changed while this run's cells ran (a solver that writes
    /// to its input): the set must be exported again before it is run again.
    pub damaged: Vec<String>,
}

/// The manifest's files that no longer hold the bytes the manifest lists, among `files`
/// (indices into `m.files`), as their paths.
pub(crate) fn damaged_files(base: &Path, m: &Manifest, files: &[usize]) -> Vec<String> {
    let mut files = files.to_vec();
    files.sort_unstable();
    files.dedup();
    files
        .into_iter()
        .map(|i| &m.files[i])
        .filter(|f| {
            !matches!(manifest::sha256_file(&base.join(&f.path)),
                Ok((sha, bytes)) if sha == f.sha256 && bytes == f.bytes)
        })
        .map(|f| f.path.clone())
        .collect()
}

/// A solver of the matrix: a registry entry or an embedded engine.
#[derive(Debug, Clone)]
pub(crate) enum MatrixSolver {
    /// An external program.
    External {
        entry: SolverEntry,
        version: Option<String>,
    },
    /// An engine linked into tilekit.
    Embedded {
        name: String,
        kind: SolverKind,
        version: String,
    },
}

impl MatrixSolver {
    pub(crate) fn name(&self) -> &str {
        match self {
            MatrixSolver::External { entry, .. } => &entry.name,
            MatrixSolver::Embedded { name, .. } => name,
        }
    }
    fn version(&self) -> Option<String> {
        match self {
            MatrixSolver::External { version, .. } => version.clone(),
            MatrixSolver::Embedded { version, .. } => Some(version.clone()),
        }
    }
    /// Does it run this file? An external program reads its input format; an embedded
    /// engine solves the model once, from its LP file (or MPS when no LP was exported) or
    /// its CNF.
    fn takes(&self, f: &FileEntry, files: &[FileEntry]) -> bool {
        let Some(format) = Format::from_name(&f.format) else {
            return false;
        };
        match self {
            MatrixSolver::External { entry, .. } => {
                let input = match format {
                    Format::Lp => InputFormat::Lp,
                    Format::Mps => InputFormat::Mps,
                    Format::Cnf => InputFormat::Cnf,
                    Format::Dimacs => InputFormat::Dimacs,
                    Format::Wcnf => InputFormat::Wcnf,
                    Format::WcnfLegacy => InputFormat::WcnfLegacy,
                    _ => return false,
                };
                entry.input == input
            }
            MatrixSolver::Embedded { kind, .. } => match (kind, format) {
                (SolverKind::Milp, Format::Lp) => true,
                (SolverKind::Milp, Format::Mps) => !files
                    .iter()
                    .any(|g| g.instance == f.instance && g.model == f.model && g.format == "lp"),
                (SolverKind::Sat, Format::Cnf) => true,
                _ => false,
            },
        }
    }
}

/// One cell: a file, a solver and a seed.
#[derive(Debug, Clone)]
pub(crate) struct Cell {
    pub file: usize,
    pub solver: usize,
    pub seed: u32,
}

/// Resolve `solvers`: every name an embedded engine or a registry entry whose program is
/// found. An unknown name or a missing program is refused before anything runs.
pub(crate) fn resolve_solvers(
    names: &[String],
    solvers_file: Option<&Path>,
) -> Result<Vec<MatrixSolver>, Error> {
    if names.is_empty() {
        return Err(Error::usage(format!(
            "{} needs at least one name",
            Field::Solvers
        )));
    }
    let reg = Registry::load(solvers_file)?;
    let mut out: Vec<MatrixSolver> = Vec::new();
    for name in names {
        if out.iter().any(|s| s.name() == name) {
            return Err(Error::Usage(format!(
                "{} names {name} twice",
                Field::Solvers
            )));
        }
        if let Some(e) = resolve::embedded().into_iter().find(|e| e.name == name) {
            out.push(MatrixSolver::Embedded {
                name: e.name.into(),
                kind: e.kind,
                version: (e.version)(),
            });
            continue;
        }
        let entry = reg.get(name).cloned().ok_or_else(|| {
            let mut known: Vec<String> = reg.entries().iter().map(|e| e.name.clone()).collect();
            known.extend(resolve::embedded().iter().map(|e| e.name.to_string()));
            Error::Usage(format!(
                "{f_solvers}: no solver called {name:?} (known: {})",
                known.join(", "),
                f_solvers = Field::Solvers
            ))
        })?;
        let status = registry::probe(&entry);
        if !status.found {
            return Err(Error::Usage(format!(
                "{f_solvers}: {name}: the program {:?} is not installed (not found on PATH); nothing was run",
                entry.command,
                f_solvers = Field::Solvers
            )));
        }
        out.push(MatrixSolver::External {
            entry,
            version: status.version,
        });
    }
    Ok(out)
}

/// The manifest's directory (paths in it are relative to it).
pub(crate) fn base_dir(manifest: &Path) -> PathBuf {
    match manifest.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Check a manifest file before it is run: present, the same bytes, and the same bytes as
/// the model tilekit builds now (a model from another version or other flags would be judged
/// against the wrong model).
pub(crate) fn check_file(
    base: &Path,
    m: &Manifest,
    f: &FileEntry,
    manifest_path: &Path,
) -> Result<(), Error> {
    let path = base.join(&f.path);
    let where_ = format!("{}: {}", manifest_path.display(), f.path);
    let (sha, bytes) = manifest::sha256_file(&path)
        .map_err(|e| Error::Usage(format!("{where_}: cannot read the file: {e}")))?;
    if sha != f.sha256 || bytes != f.bytes {
        return Err(Error::Usage(format!(
            "{where_}: the file's SHA-256 is {sha} ({bytes} bytes), not the manifest's {} ({} bytes): it changed after the export; re-export the set",
            f.sha256, f.bytes
        )));
    }
    let inst = instance_of(m, f, manifest_path)?;
    let (isha, _) = manifest::sha256_file(&base.join(&inst.path)).map_err(|e| {
        Error::Usage(format!(
            "{}: {}: cannot read the instance: {e}",
            manifest_path.display(),
            inst.path
        ))
    })?;
    if isha != inst.sha256 {
        return Err(Error::Usage(format!(
            "{}: {}: the instance changed after the export (its SHA-256 differs): re-export the set",
            manifest_path.display(),
            inst.path
        )));
    }
    // The family decides how the instance is read and every answer judged: the manifest's
    // word must be what the content says, where the content says it plainly.
    if let Ok(found) = crate::route::families::read(&base.join(&inst.path), None)
        && found.family.name.name() != inst.family
    {
        return Err(Error::Usage(format!(
            "{}: {}: the manifest says family {:?}, but the instance is a {} puzzle",
            manifest_path.display(),
            inst.path,
            inst.family,
            found.family.name.name()
        )));
    }
    let scratch = crate::solve::cleanup::tempdir().map_err(Error::failure)?;
    let fresh = export_set::rebuild(
        &ExportSetRequest {
            set: String::new(),
            models: vec![model_of(f, manifest_path)?],
            formats: vec![format_of(f, manifest_path)?],
            horizon: f.horizon.map(|t| Horizon::Steps(t as usize)),
            goal: None,
            filter: m.options.filter,
            fix_corner: m.options.fix_corner,
            compress: Compress::of_manifest(f.compressed.as_deref()),
            jobs: 1,
            output: scratch.path().to_path_buf(),
            command: Vec::new(),
        },
        base,
        inst,
        f,
    )?;
    if fresh != f.sha256 {
        return Err(Error::Usage(format!(
            "{where_}: the model this tilekit builds from the instance differs from the file (SHA-256 {fresh}): it was exported by another version (the manifest says {}) or with other options; re-export the set",
            m.tilekit_version
        )));
    }
    Ok(())
}

fn instance_of<'a>(
    m: &'a Manifest,
    f: &FileEntry,
    manifest_path: &Path,
) -> Result<&'a InstanceEntry, Error> {
    m.instances
        .iter()
        .find(|i| i.id == f.instance)
        .ok_or_else(|| {
            Error::Usage(format!(
                "{}: the file {} names the instance {:?}, which the manifest does not list",
                manifest_path.display(),
                f.path,
                f.instance
            ))
        })
}

fn model_of(f: &FileEntry, manifest_path: &Path) -> Result<ModelName, Error> {
    ModelName::from_name(&f.model).ok_or_else(|| {
        Error::Usage(format!(
            "{}: {}: unknown model {:?}",
            manifest_path.display(),
            f.path,
            f.model
        ))
    })
}

fn format_of(f: &FileEntry, manifest_path: &Path) -> Result<Format, Error> {
    Format::from_name(&f.format).ok_or_else(|| {
        Error::Usage(format!(
            "{}: {}: unknown format {:?}",
            manifest_path.display(),
            f.path,
            f.format
        ))
    })
}

/// Run one cell: the route's solve with a solver object that reads the manifest's file (or
/// the embedded engine), judged by the family's checker. A failure of the solver is a row
/// with status `error`, not an error of the run.
pub(crate) fn run_cell(
    base: &Path,
    m: &Manifest,
    (f, solver, seed): (&FileEntry, &MatrixSolver, u32),
    limits: &Limits,
    executor: &str,
    logs: Option<&Path>,
) -> RunRow {
    let started = Instant::now();
    let path = base.join(&f.path);
    let command = match solver {
        MatrixSolver::External { entry, .. } => {
            let args = entry.expand_args(&registry::Placeholders {
                model: &path,
                solution: Path::new("SOLUTION"),
                time_limit: limits.time,
                threads: limits.threads,
                seed,
            });
            format!("{} {}", entry.command, args.join(" "))
        }
        MatrixSolver::Embedded { name, version, .. } => format!("embedded:{name} {version}"),
    };
    // Solvers read gzip themselves, where they read it at all; an xz file, the SAT
    // communities' distribution format, is decompressed for them first.
    let plain = match (Compress::of_manifest(f.compressed.as_deref()), solver) {
        (Compress::Xz, MatrixSolver::External { .. }) => Some(decompressed(&path)),
        _ => None,
    };
    let run = |file: &Path| {
        use crate::solve::external::{recording, seeded, supervised};
        supervised(limits.memory, || {
            seeded(seed, || {
                recording(|| solve_cell(base, m, f, solver, file, limits))
            })
        })
    };
    let (result, processes) = match &plain {
        Some(Err(e)) => (Err(Error::Failure(e.to_string())), Vec::new()),
        Some(Ok((_dir, plain))) => run(plain),
        None => run(&path),
    };
    drop(plain);
    // A solver may write to the file it is given. The set is then damaged for every later
    // cell and run, so the cell that saw it happen says so, instead of the next run.
    let result = match manifest::sha256_file(&path) {
        Ok((sha, bytes)) if sha == f.sha256 && bytes == f.bytes => result,
        Ok((sha, bytes)) => Err(Error::Failure(format!(
            "{}: the file changed while {} ran (SHA-256 now {sha}, {bytes} bytes): the set must be exported again",
            f.path,
            solver.name()
        ))),
        Err(e) => Err(Error::Failure(format!(
            "{}: cannot read the file after {} ran: {e}",
            f.path,
            solver.name()
        ))),
    };
    let origin = RunOrigin {
        solver: solver.name().into(),
        solver_version: solver.version(),
        command,
        executor: executor.into(),
        shard: None,
    };
    let mut row = RunRow::of(
        &f.sha256,
        origin,
        limits,
        result,
        started.elapsed().as_secs_f64(),
    );
    row.seed = seed;
    // What the MILP solver's own log says of its bound: a claim, kept apart from the proofs.
    if matches!(solver, MatrixSolver::External { entry, .. } if entry.kind == SolverKind::Milp) {
        row.solver_bound = processes
            .last()
            .and_then(|p| crate::format::solver_log::dual_bound(&p.output.stdout));
    }
    // A solver killed for its memory has its own status, whatever its output made of it.
    if let Some(p) = processes.iter().find(|p| p.output.memory_out.is_some()) {
        row.status = "memory_limit".into();
        row.objective = None;
        row.bound = None;
        row.optimal = false;
        row.verified = false;
        row.solver_claim = None;
        row.errors = vec![format!("{}: {}", solver.name(), p.output.describe_exit())];
    }
    if !processes.is_empty() {
        let secs = |d: std::time::Duration| d.as_secs_f64();
        let m = &mut row.measured;
        m.solver_wall_s = Some(processes.iter().map(|p| secs(p.output.elapsed)).sum());
        m.solver_cpu_s = Some(processes.iter().map(|p| secs(p.output.cpu)).sum());
        m.solver_max_rss_kb = processes
            .iter()
            .map(|p| i64::try_from(p.output.max_rss_kb).unwrap_or(i64::MAX))
            .max();
        if let Some(root) = logs {
            let name = format!(
                "{}-{}.{}.{}s.{}t{}",
                Path::new(&f.path)
                    .file_name()
                    .map_or_else(|| "model".into(), |n| n.to_string_lossy()),
                &f.sha256[..f.sha256.len().min(10)],
                solver.name(),
                limits.time.as_secs_f64(),
                limits.threads,
                if seed == 0 {
                    String::new()
                } else {
                    format!(".seed{seed}")
                }
            );
            match write_logs(&root.join(&name), &row, &f.path, &processes) {
                Ok(command) => {
                    row.command = command;
                    row.measured.log_dir = Some(format!(
                        "{}/{name}",
                        root.file_name()
                            .map_or_else(|| "logs".into(), |n| n.to_string_lossy())
                    ));
                }
                // The answer is worth more than its logs: the row is kept and says why.
                Err(e) => row.errors.push(format!("the run's logs: {e}")),
            }
        }
    }
    row
}

/// The xz file at `path` decompressed into a temporary directory (removed when the first
/// value is dropped), under its name without `.xz`.
fn decompressed(path: &Path) -> Result<(crate::solve::cleanup::TempDir, PathBuf), Error> {
    let dir = crate::solve::cleanup::tempdir().map_err(Error::failure)?;
    let name = path
        .file_name()
        .map_or_else(|| "model".into(), |n| n.to_string_lossy().into_owned());
    let plain = dir.path().join(name.strip_suffix(".xz").unwrap_or(&name));
    export_set::decompress_file(Compress::Xz, path, &plain)
        .map_err(|e| Error::Failure(format!("{}: cannot decompress: {e}", path.display())))?;
    Ok((dir, plain))
}

/// The logs directory of the results database `db`: `DB.logs` beside it.
pub(crate) fn logs_dir(db: &Path) -> PathBuf {
    let mut p = db.as_os_str().to_owned();
    p.push(".logs");
    PathBuf::from(p)
}

/// Keep what a cell's solver processes left in `dir` (replaced if it exists): for each
/// process `command.sh` (rerunnable: it runs the solver in this directory on the set's file,
/// and the solution lands here again), `stdout.txt`, `stderr.txt` and the solution file it
/// wrote, under the name it had. A second process of the same cell gets the suffix `.2`, and
/// so on. Returns the first command as the row stores it.
fn write_logs(
    dir: &Path,
    row: &RunRow,
    file: &str,
    processes: &[crate::solve::external::ProcessRecord],
) -> std::io::Result<String> {
    use super::slurm::shell_quote;
    if dir.exists() {
        std::fs::remove_dir_all(dir)?;
    }
    std::fs::create_dir_all(dir)?;
    let mut first = None;
    for (k, p) in processes.iter().enumerate() {
        let suffix = if k == 0 {
            String::new()
        } else {
            format!(".{}", k + 1)
        };
        // The solver ran in a temporary directory that is gone: paths into it now point
        // here, where the script runs.
        let here = |a: &str| match &p.cwd {
            Some(cwd) => a.replace(&*cwd.to_string_lossy(), "."),
            None => a.to_string(),
        };
        let command: Vec<String> = p.command.iter().map(|a| shell_quote(&here(a))).collect();
        let command = command.join(" ");
        let o = &p.output;
        let script = format!(
            "#!/bin/sh\n# {solver} on {file} (time limit {limit} s, threads {threads}): {exit}\n# solver wall {wall:.3} s, CPU {cpu:.3} s, peak memory {rss} kB; row status {status}\ncd \"$(dirname \"$0\")\" && exec {command}\n",
            solver = row.solver,
            limit = row.time_limit,
            threads = row.threads,
            exit = o.describe_exit(),
            wall = o.elapsed.as_secs_f64(),
            cpu = o.cpu.as_secs_f64(),
            rss = o.max_rss_kb,
            status = row.status,
        );
        let script_path = dir.join(format!("command{suffix}.sh"));
        std::fs::write(&script_path, script)?;
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&script_path, std::fs::Permissions::from_mode(0o755))?;
        }
        std::fs::write(dir.join(format!("stdout{suffix}.txt")), &o.stdout)?;
        std::fs::write(dir.join(format!("stderr{suffix}.txt")), &o.stderr)?;
        if let Some((path, bytes)) = &p.solution {
            let name = path
                .file_name()
                .map_or_else(|| "solution".into(), |n| n.to_string_lossy().into_owned());
            std::fs::write(dir.join(format!("{name}{suffix}")), bytes)?;
        }
        first.get_or_insert(command);
    }
    Ok(first.unwrap_or_default())
}

fn solve_cell(
    base: &Path,
    m: &Manifest,
    f: &FileEntry,
    solver: &MatrixSolver,
    path: &Path,
    limits: &Limits,
) -> Result<Report, Error> {
    let quiet = |_: &str| {};
    let progress: Progress<'_> = &quiet;
    let inst = m
        .instances
        .iter()
        .find(|i| i.id == f.instance)
        .ok_or_else(|| Error::usage("the file's instance is not in the manifest"))?;
    let text = crate::route::read_text(&base.join(&inst.path), "instance")?;
    let source = base.join(&inst.path).display().to_string();
    let model = ModelName::from_name(&f.model)
        .ok_or_else(|| Error::Usage(format!("unknown model {:?}", f.model)))?;
    let reg = Registry::load(None)?;
    let milp = || -> Result<Box<dyn MilpSolver>, Error> {
        Ok(match solver {
            MatrixSolver::External { entry, .. } => Box::new(
                ExternalMilp::on_file(entry.clone(), path.to_path_buf()).map_err(Error::from)?,
            ),
            MatrixSolver::Embedded { name, .. } => reg.milp(name)?,
        })
    };
    let sat = || -> Result<Box<dyn SatSolver>, Error> {
        Ok(match solver {
            MatrixSolver::External { entry, .. } => Box::new(
                ExternalSat::on_file(entry.clone(), path.to_path_buf()).map_err(Error::from)?,
            ),
            MatrixSolver::Embedded { name, .. } => reg.sat(name)?,
        })
    };
    let clique = || -> Result<Box<dyn CliqueSolver>, Error> {
        match solver {
            MatrixSolver::External { entry, .. } => Ok(Box::new(
                ExternalClique::on_file(entry.clone(), path.to_path_buf()).map_err(Error::from)?,
            )),
            MatrixSolver::Embedded { name, .. } => {
                Err(Error::Usage(format!("{name} is not a clique solver")))
            }
        }
    };
    let maxsat = || -> Result<Box<dyn MaxsatSolver>, Error> {
        match solver {
            MatrixSolver::External { entry, .. } => Ok(Box::new(
                ExternalMaxsat::on_file(entry.clone(), path.to_path_buf()).map_err(Error::from)?,
            )),
            MatrixSolver::Embedded { name, .. } => {
                Err(Error::Usage(format!("{name} is not a MaxSAT solver")))
            }
        }
    };
    match inst.family.as_str() {
        "sliding" => {
            let goal = inst
                .goal
                .as_deref()
                .and_then(Goal::parse)
                .unwrap_or_default();
            let p = SlidingPuzzle::parse(&text, &source, goal)?;
            let horizon = f
                .horizon
                .ok_or_else(|| Error::usage("a sliding model file without a horizon"))?
                as usize;
            let started = std::time::Instant::now();
            let mut rep = match SlidingModel::of(model)? {
                SlidingModel::Sat => {
                    sliding::solve_sat_at(&p, goal, horizon, &*sat()?, limits, progress)
                }
                m => sliding::solve_milp_with(&p, goal, m, horizon, &*milp()?, limits, progress),
            }?;
            // As `solve` does: the solver's "optimal" and "infeasible" proven, refuted or kept
            // as claims, within what is left of the cell's time.
            let left = limits.time.saturating_sub(started.elapsed());
            sliding::settle_claims(&mut rep, &p, goal, left);
            Ok(rep)
        }
        _ => {
            let p = EdgePuzzle::parse(&text, &source)?;
            let opts = EdgeMilpOptions {
                filter_feasible: m.options.filter,
                fix_first_corner: m.options.fix_corner,
            };
            match edge::EdgeModel::of(model)? {
                edge::EdgeModel::Milp => {
                    edge::solve_milp_with(&p, opts, &*milp()?, limits, progress)
                }
                edge::EdgeModel::Sat => edge::solve_sat_with(&p, opts, &*sat()?, limits, progress),
                edge::EdgeModel::Clique => {
                    edge::solve_clique_with(&p, &*clique()?, limits, progress)
                }
                edge::EdgeModel::Maxsat => {
                    edge::solve_maxsat_with(&p, opts, &*maxsat()?, limits, progress)
                }
            }
        }
    }
}

/// The matrix of a manifest: every file × every solver that takes it.
pub(crate) fn cells(m: &Manifest, solvers: &[MatrixSolver], seeds: u32) -> Vec<Cell> {
    let mut out = Vec::new();
    for (i, f) in m.files.iter().enumerate() {
        for (s, solver) in solvers.iter().enumerate() {
            if solver.takes(f, &m.files) {
                out.extend((0..seeds.max(1)).map(|seed| Cell {
                    file: i,
                    solver: s,
                    seed,
                }));
            }
        }
    }
    out
}

/// Refuse several seeds for a solver that would run the same way under each: an embedded
/// engine, or an entry whose arguments never mention `{seed}`.
pub(crate) fn check_seeds(seeds: u32, solvers: &[MatrixSolver]) -> Result<(), Error> {
    if seeds == 0 {
        return Err(Error::usage(format!("{} must be at least 1", Field::Seeds)));
    }
    if seeds == 1 {
        return Ok(());
    }
    for s in solvers {
        let why = match s {
            MatrixSolver::Embedded { .. } => "is an embedded engine, which takes no seed",
            MatrixSolver::External { entry, .. }
                if !entry.args.iter().any(|a| a.contains("{seed}")) =>
            {
                "has no {seed} in its registry arguments (add the solver's seed option with {seed} to its entry)"
            }
            MatrixSolver::External { .. } => continue,
        };
        return Err(Error::Usage(format!(
            "{} {seeds}: {} {why}, so its runs would repeat one another",
            Field::Seeds,
            s.name()
        )));
    }
    Ok(())
}

/// A matrix ready to run: the manifest, its solvers, the cells, which of them are still to
/// run, and the open database (the files of the pending cells checked, the manifest's
/// instances and files recorded).
pub(crate) struct Prepared {
    pub m: Manifest,
    pub base: PathBuf,
    pub solvers: Vec<MatrixSolver>,
    pub all: Vec<Cell>,
    pub pending: Vec<Cell>,
    pub done_before: usize,
    pub db: Db,
}

/// Read the manifest, resolve the solvers, find the cells not yet in the database and check
/// the files they read: everything that can be refused is refused here, before any solver
/// runs or any row is written.
pub(crate) fn prepare(req: &RunRequest, progress: Progress<'_>) -> Result<Prepared, Error> {
    if req.jobs == 0 {
        return Err(Error::usage(format!("{} must be at least 1", Field::Jobs)));
    }
    let m = Manifest::read(&req.manifest)?;
    let base = base_dir(&req.manifest);
    let solvers = resolve_solvers(&req.solvers, req.solvers_file.as_deref())?;
    if req.limits.memory.is_some()
        && let Some(e) = solvers
            .iter()
            .find(|s| matches!(s, MatrixSolver::Embedded { .. }))
    {
        return Err(Error::Usage(format!(
            "{} holds external solvers; {} runs inside tilekit and cannot be held to it: run it without the limit",
            Field::MemoryLimit,
            e.name()
        )));
    }
    check_seeds(req.seeds, &solvers)?;
    let all = cells(&m, &solvers, req.seeds);
    if all.is_empty() {
        return Err(Error::Usage(format!(
            "no solver of {f_solvers} reads any file of {} (its formats: {})",
            req.manifest.display(),
            m.options.formats.join(", "),
            f_solvers = Field::Solvers
        )));
    }
    for s in &solvers {
        if !all.iter().any(|c| solvers[c.solver].name() == s.name()) {
            crate::route::notice(
                progress,
                &format!("{} reads none of the manifest's files", s.name()),
            );
        }
    }
    let mut db = Db::open_writer(&req.db)?;
    let time_limit = req.limits.time.as_secs_f64();
    let mut pending = Vec::new();
    let mut done_before = 0;
    for c in &all {
        let f = &m.files[c.file];
        let status = db.status_of(
            &f.sha256,
            solvers[c.solver].name(),
            time_limit,
            req.limits.threads,
            c.seed,
        )?;
        match status {
            Some(s) if s != "error" || !req.retry_errors => done_before += 1,
            _ => pending.push(c.clone()),
        }
    }
    // Every file a pending cell reads is checked before the first solver runs.
    let mut checked: Vec<usize> = pending.iter().map(|c| c.file).collect();
    checked.sort_unstable();
    checked.dedup();
    for &i in &checked {
        check_file(&base, &m, &m.files[i], &req.manifest)?;
    }
    record_files(&mut db, &m)?;
    Ok(Prepared {
        m,
        base,
        solvers,
        all,
        pending,
        done_before,
        db,
    })
}

/// Record the manifest's instances and files in the database (runs refer to them).
pub(crate) fn record_files(db: &mut Db, m: &Manifest) -> Result<(), Error> {
    let flagged: Vec<(&FileEntry, bool, bool)> = m
        .files
        .iter()
        .map(|f| (f, m.options.filter, m.options.fix_corner))
        .collect();
    db.add_files(&m.instances, &flagged)
}

/// Cross-check every stored run of the manifest's instances, and store the conflicts.
pub fn cross_check(db: &mut Db, m: &Manifest) -> Result<Vec<Conflict>, Error> {
    let runs: Vec<_> = db
        .runs()?
        .into_iter()
        .filter(|r| m.instances.iter().any(|i| i.sha256 == r.instance_sha256))
        .collect();
    let conflicts = crosscheck::check(&runs);
    let rows: Vec<_> = conflicts
        .iter()
        .map(|c| {
            (
                c.instance_sha256.clone(),
                c.run_a,
                c.run_b,
                c.kind.as_str().to_string(),
                c.detail.clone(),
            )
        })
        .collect();
    db.set_conflicts(&rows)?;
    Ok(conflicts)
}
