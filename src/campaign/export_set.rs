//! `tilekit export-set`: a whole instance set × models × formats written for other solvers,
//! with a manifest ([`super::manifest`]) that says what each file is and lets anyone check it.
//!
//! Every file goes through the route layer's own export ([`families::export`]), so a file
//! here is byte for byte what `tilekit export` writes for the same instance and flags. The
//! instance is copied under `instances/` first and the models are built from that copy, so
//! the manifest's instance is exactly the one the models encode.
//!
//! Resumable: each file written is recorded in `.journal.jsonl` (one synced line per file,
//! with a key naming everything that decides its bytes); a re-run keeps a file whose key and
//! on-disk SHA-256 still match and rewrites the rest. Files are written beside their target
//! and renamed ([`crate::route::output`]), so a killed export leaves no half file under a
//! final name. The manifest is written last, sorted by the set's order whatever the order
//! the `jobs` threads finished in.

use super::manifest::{
    self, ExportOptions, FileEntry, InstanceEntry, Manifest, SetInfo, Size, Skipped,
};
use super::sets::{self, SetInstance};
use crate::field::Field;
use crate::format::Format;
use crate::puzzle::sliding::{Goal, SlidingPuzzle};
use crate::route::edge::EdgeModel;
use crate::route::family::{ExportRequest, Horizon};
use crate::route::sliding::{self, SlidingModel};
use crate::route::{Error, FamilyName, ModelName, Progress, families, output};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// How model files are stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Compress {
    /// Plain files.
    #[default]
    None,
    /// gzip (fixed header: no name, no time), for solvers that read it.
    Gz,
    /// xz (level 6, CRC-64), the SAT and MaxSAT communities' choice for distributing
    /// benchmarks; `run` decompresses a file for its solver.
    Xz,
}

impl Compress {
    /// The compression's name, as `compress` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Compress::None => "none",
            Compress::Gz => "gz",
            Compress::Xz => "xz",
        }
    }

    /// The compression a manifest's `compressed` field names (`None`: plain).
    pub fn of_manifest(compressed: Option<&str>) -> Self {
        match compressed {
            Some("xz") => Compress::Xz,
            Some(_) => Compress::Gz,
            None => Compress::None,
        }
    }

    /// The file name's suffix.
    fn suffix(self) -> &'static str {
        match self {
            Compress::None => "",
            Compress::Gz => ".gz",
            Compress::Xz => ".xz",
        }
    }
}

/// `tilekit export-set`, as the flags say it.
#[derive(Debug, Clone)]
pub struct ExportSetRequest {
    /// The SET argument ([`sets::resolve`]).
    pub set: String,
    /// The models, in order.
    pub models: Vec<ModelName>,
    /// The formats, in order.
    pub formats: Vec<Format>,
    /// The time-indexed sliding models' number of steps (`None`: `auto`).
    pub horizon: Option<Horizon>,
    /// The goal convention of sliding instances read from files.
    pub goal: Option<Goal>,
    /// Edge: the MILP's grey-on-the-rim filter.
    pub filter: bool,
    /// Edge: the MILP's first corner tile fixed in the top-left cell.
    pub fix_corner: bool,
    /// How the model files are stored.
    pub compress: Compress,
    /// Files written at the same time.
    pub jobs: usize,
    /// The output directory.
    pub output: PathBuf,
    /// The command line, for the manifest.
    pub command: Vec<String>,
}

/// What an export did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportSummary {
    /// Files written now.
    pub written: usize,
    /// Files kept from an earlier run (key and hash matched).
    pub kept: usize,
    /// Combinations skipped (listed in the manifest).
    pub skipped: usize,
    /// Files an earlier export wrote that this one no longer lists, removed.
    pub removed: usize,
    /// The manifest's path.
    pub manifest: PathBuf,
}

/// One file to write.
#[derive(Debug, Clone)]
struct Cell {
    instance: usize,
    model: ModelName,
    format: Format,
    horizon: Option<(usize, &'static str)>,
    /// The file, relative to the directory.
    path: String,
    /// Everything that decides the file's bytes.
    key: String,
}

/// One line of `.journal.jsonl`.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Record {
    path: String,
    key: String,
    sha256: String,
    bytes: u64,
    size: Option<Size>,
    /// A CNF's GBD identifier, hashed once when the file is written (absent in journals of
    /// earlier versions: hashed again then).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    gbd: Option<String>,
}

const JOURNAL: &str = ".journal.jsonl";

/// Seconds the native solver may spend finding one instance's horizon when it is `auto`.
const AUTO_SECONDS: f64 = sliding::AUTO_HORIZON_SECONDS;

/// Export the set. Progress goes to `progress` as `step` lines (one per file).
pub fn export_set(req: &ExportSetRequest, progress: Progress<'_>) -> Result<ExportSummary, Error> {
    check_request(req)?;
    let set = sets::resolve(&req.set, req.goal)?;
    check_family_options(req, &set.instances)?;
    let dir = &req.output;
    prepare_dir(dir)?;

    // The instances first: every model is built from the copy the manifest names.
    let mut instances = Vec::with_capacity(set.instances.len());
    for inst in &set.instances {
        instances.push(write_instance(dir, inst)?);
    }

    let mut cells = Vec::new();
    let mut skipped = Vec::new();
    for (k, inst) in set.instances.iter().enumerate() {
        let horizon = horizon_for(req, inst, dir, progress)?;
        for &model in &req.models {
            for &format in &req.formats {
                match applies(inst.family, model, format) {
                    Err(reason) => skipped.push(Skipped {
                        instance: inst.id.clone(),
                        model: model.name().into(),
                        format: format.name().into(),
                        reason,
                    }),
                    Ok(()) => {
                        let h = (inst.family == FamilyName::Sliding)
                            .then_some(horizon)
                            .flatten();
                        cells.push(cell(req, k, &instances[k], model, format, h));
                    }
                }
            }
        }
    }
    if cells.is_empty() {
        let why: Vec<String> = skipped.iter().take(3).map(|s| s.reason.clone()).collect();
        return Err(Error::Usage(format!(
            "nothing to export: no model and format asked for applies to the set's instances ({})",
            why.join("; ")
        )));
    }

    let journal = read_journal(dir);
    // What an earlier export wrote here: its manifest's files and instances, and what its
    // journal recorded (a run killed before its manifest). Whatever of it this export does
    // not list is removed once the new manifest is in place, so the directory holds the set
    // the manifest describes; files tilekit did not write are never touched.
    // (Read as plain bytes, not as one of the command's inputs: the new manifest replaces it.)
    let earlier: Vec<String> = std::fs::read_to_string(dir.join("manifest.json"))
        .ok()
        .and_then(|text| serde_json::from_str::<Manifest>(&text).ok())
        .map(|m| {
            m.files
                .into_iter()
                .map(|f| f.path)
                .chain(m.instances.into_iter().map(|i| i.path))
                .collect::<Vec<_>>()
        })
        .unwrap_or_default()
        .into_iter()
        .chain(journal.keys().cloned())
        .filter(|p| manifest::is_inside(p))
        .collect();
    let journal_file = Mutex::new(
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(dir.join(JOURNAL))
            .map_err(|e| {
                Error::Usage(format!(
                    "{}: cannot write: {e}",
                    dir.join(JOURNAL).display()
                ))
            })?,
    );
    // A failure stops the files not yet started; the first failure in the set's order is
    // the one reported.
    let failed = std::sync::atomic::AtomicBool::new(false);
    let done = AtomicUsize::new(0);
    let total = cells.len() as u64;
    let quiet = |_: &str| {};
    let outcomes = crate::work::par_map(
        cells.len(),
        req.jobs,
        |i| {
            if failed.load(Ordering::SeqCst) {
                return None;
            }
            let c = &cells[i];
            let kept = journal
                .get(&c.path)
                .filter(|r| r.key == c.key)
                .filter(|r| {
                    manifest::sha256_file(&dir.join(&c.path))
                        .is_ok_and(|(sha, n)| sha == r.sha256 && n == r.bytes)
                })
                .cloned();
            let outcome = match kept {
                Some(r) if r.gbd.is_none() && gbd_hashed(c.format) => {
                    // Hashed once, and journalled so that the next run need not.
                    gbd_of(&dir.join(&c.path), c.format, req.compress)
                        .map(|gbd| Record {
                            gbd: Some(gbd),
                            ..r
                        })
                        .and_then(|r| append(&journal_file, &r, dir).map(|()| (r, true)))
                }
                Some(r) => Ok((r, true)),
                None => write_cell(req, dir, &instances[c.instance], c, &quiet)
                    .and_then(|r| append(&journal_file, &r, dir).map(|()| (r, false))),
            };
            match &outcome {
                Ok(_) => {
                    let d = done.fetch_add(1, Ordering::SeqCst) + 1;
                    progress(&crate::route::step(
                        d as u64,
                        total,
                        &format!("export-set: {d} of {total} files ({})", c.path),
                    ));
                }
                Err(_) => failed.store(true, Ordering::SeqCst),
            }
            Some(outcome)
        },
        |_| {},
    );
    let mut results: HashMap<String, (Record, bool)> = HashMap::new();
    for (c, o) in cells.iter().zip(outcomes) {
        match o {
            Some(Ok(r)) => {
                results.insert(c.path.clone(), r);
            }
            Some(Err(e)) => return Err(e),
            None => {}
        }
    }

    let mut files = Vec::with_capacity(cells.len());
    let (mut written, mut kept) = (0, 0);
    for c in &cells {
        let (r, was_kept) = &results[&c.path];
        if *was_kept {
            kept += 1;
        } else {
            written += 1;
        }
        let inst = &set.instances[c.instance];
        let mut file = FileEntry {
            path: c.path.clone(),
            sha256: r.sha256.clone(),
            bytes: r.bytes,
            instance: inst.id.clone(),
            family: inst.family.name().into(),
            model: c.model.name().into(),
            format: c.format.name().into(),
            compressed: (req.compress != Compress::None).then(|| req.compress.name().into()),
            horizon: c.horizon.map(|(t, _)| t as u64),
            horizon_source: c.horizon.map(|(_, s)| s.into()),
            size: r.size,
            known_optimum: inst.known_optimum,
            optimum_source: inst.optimum_source.clone(),
            expected: None,
            gbd: None,
            best_known: inst.best_known.as_ref().map(|b| b.0),
            best_source: inst.best_known.as_ref().map(|b| b.1.clone()),
        };
        file.expected = file.expected_answer().map(String::from);
        file.gbd = r.gbd.clone();
        files.push(file);
    }
    let m = Manifest {
        schema: manifest::SCHEMA.into(),
        tilekit_version: env!("CARGO_PKG_VERSION").into(),
        command: req.command.clone(),
        set: SetInfo {
            spec: set.spec.clone(),
            provenance: set.provenance.clone(),
        },
        options: ExportOptions {
            models: req.models.iter().map(|m| m.name().into()).collect(),
            formats: req.formats.iter().map(|f| f.name().into()).collect(),
            horizon: match req.horizon {
                None | Some(Horizon::Auto) => "auto".into(),
                Some(Horizon::Steps(t)) => t.to_string(),
            },
            filter: req.filter,
            fix_corner: req.fix_corner,
            compress: req.compress.name().into(),
        },
        instances,
        files,
        skipped,
    };
    output::write_to(Some(&dir.join("manifest.json")), m.to_json().as_bytes())?;
    output::write_to(Some(&dir.join("manifest.csv")), m.to_csv().as_bytes())?;
    // MIPLIB's answer file, for whoever runs the MILP files with MIPLIB's tools.
    output::write_to(Some(&dir.join("solutions.solu")), m.solu().as_bytes())?;
    let listed: HashSet<&str> = m
        .files
        .iter()
        .map(|f| f.path.as_str())
        .chain(m.instances.iter().map(|i| i.path.as_str()))
        .collect();
    let mut removed = 0;
    let mut stale: Vec<&String> = earlier
        .iter()
        .filter(|p| !listed.contains(p.as_str()))
        .collect();
    stale.sort_unstable();
    stale.dedup();
    for p in stale {
        match std::fs::remove_file(dir.join(p)) {
            Ok(()) => removed += 1,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => {
                return Err(Error::Failure(format!(
                    "{}: cannot remove this file of an earlier export: {e}",
                    dir.join(p).display()
                )));
            }
        }
    }
    // The journal keeps this export's records only, so that it names what is on disk.
    drop(journal_file);
    let mut lines = String::new();
    for c in &cells {
        lines.push_str(&serde_json::to_string(&results[&c.path].0).expect("a record serialises"));
        lines.push('\n');
    }
    output::write_to(Some(&dir.join(JOURNAL)), lines.as_bytes())?;
    Ok(ExportSummary {
        written,
        kept,
        skipped: m.skipped.len(),
        removed,
        manifest: dir.join("manifest.json"),
    })
}

/// Refuse what no instance could take, before anything is written.
fn check_request(req: &ExportSetRequest) -> Result<(), Error> {
    if req.jobs == 0 {
        return Err(Error::usage(format!("{} must be at least 1", Field::Jobs)));
    }
    if req.models.is_empty() || req.formats.is_empty() {
        return Err(Error::usage(format!(
            "{f_models} and {f_formats} each need at least one name",
            f_models = Field::Models,
            f_formats = Field::Formats
        )));
    }
    if req.models.contains(&ModelName::Region) {
        return Err(Error::usage(format!(
            "{f_models} region: a region MILP is cut from a partial board (tilekit export {f_model} region); a set exports whole-puzzle models",
            f_models = Field::Models,
            f_model = Field::Model
        )));
    }
    if req.formats.contains(&Format::Neos) {
        return Err(Error::usage(format!(
            "{f_formats} neos: a NEOS job document carries an e-mail and a solver; write one with tilekit export {f_format} neos, or send a campaign's MILPs with tilekit run {f_executor} neos",
            f_formats = Field::Formats,
            f_format = Field::Format,
            f_executor = Field::Executor
        )));
    }
    // Measured (docs/results/campaigns.md#compressed-files): CBC, HiGHS and GLPK read .lp.gz and .mps.gz, CaDiCaL, Kissat and
    // MiniSat read .cnf.gz; cliquer reads no compressed graph, GAMS no compressed model, and
    // the MaxSAT solvers' compressed input is not tested here.
    if req.compress == Compress::Gz
        && let Some(f) = req.formats.iter().find(|f| {
            matches!(
                f,
                Format::Gms | Format::Dimacs | Format::Wcnf | Format::WcnfLegacy
            )
        })
    {
        return Err(Error::Usage(format!(
            "{f_compress} gz: {} files are not read compressed by their solvers (GAMS, cliquer; the MaxSAT solvers untested): export them uncompressed, apart from the rest",
            f.name(),
            f_compress = Field::Compress
        )));
    }
    if let Some(Horizon::Steps(0)) = req.horizon {
        return Err(Error::usage(format!(
            "{} must be at least 1",
            Field::Horizon
        )));
    }
    Ok(())
}

/// The family options must apply to every instance of the set (the families' rule,
/// checked before anything is written rather than at the first file).
fn check_family_options(req: &ExportSetRequest, instances: &[SetInstance]) -> Result<(), Error> {
    for (name, given) in [
        (
            FamilyName::Sliding,
            [
                (req.filter, Field::Filter),
                (req.fix_corner, Field::FixCorner),
            ],
        ),
        (
            FamilyName::Edge,
            [
                (req.goal.is_some(), Field::Goal),
                (req.horizon.is_some(), Field::Horizon),
            ],
        ),
    ] {
        if !instances.iter().any(|i| i.family == name) {
            continue;
        }
        if let Some((_, f)) = given.iter().find(|(on, _)| *on) {
            return Err(Error::Usage(format!(
                "{f} does not apply to {}: leave it out",
                families::family(name).noun
            )));
        }
    }
    Ok(())
}

/// Create the directory and its `instances/` and `files/`.
fn prepare_dir(dir: &Path) -> Result<(), Error> {
    if dir.exists() && !dir.is_dir() {
        return Err(Error::Usage(format!(
            "{}: -o must name a directory, and this is a file",
            dir.display()
        )));
    }
    for d in [dir.to_path_buf(), dir.join("instances"), dir.join("files")] {
        std::fs::create_dir_all(&d).map_err(|e| {
            Error::Usage(format!("{}: cannot create the directory: {e}", d.display()))
        })?;
    }
    output::check_writable(&dir.join("manifest.json"))
}

/// Copy an instance under `instances/` (rewritten only when its bytes differ).
fn write_instance(dir: &Path, inst: &SetInstance) -> Result<InstanceEntry, Error> {
    let rel = format!("instances/{}.txt", inst.id);
    let path = dir.join(&rel);
    if std::fs::read(&path).ok().as_deref() != Some(inst.text.as_bytes()) {
        output::write_to(Some(&path), inst.text.as_bytes())?;
    }
    Ok(InstanceEntry {
        id: inst.id.clone(),
        path: rel,
        sha256: manifest::sha256_bytes(inst.text.as_bytes()),
        bytes: inst.text.len() as u64,
        family: inst.family.name().into(),
        goal: inst.goal.map(|g| g.to_string()),
        known_optimum: inst.known_optimum,
        optimum_source: inst.optimum_source.clone(),
        best_known: inst.best_known.as_ref().map(|b| b.0),
        best_source: inst.best_known.as_ref().map(|b| b.1.clone()),
    })
}

/// Whether `model` in `format` exists for the family, or why not (the family tables' own
/// rules).
fn applies(family: FamilyName, model: ModelName, format: Format) -> Result<(), String> {
    match family {
        FamilyName::Sliding => {
            let m = SlidingModel::of(model).map_err(|e| e.to_string())?;
            if m.writes(format) {
                Ok(())
            } else {
                Err(format!(
                    "the sliding {} model is not written as {}",
                    m.name(),
                    format.name()
                ))
            }
        }
        FamilyName::Edge => {
            let m = EdgeModel::of(model).map_err(|e| e.to_string())?;
            crate::route::edge::check_format(m, format.name(), false)
                .map(|_| ())
                .map_err(|e| e.to_string())
        }
    }
}

/// The horizon of a sliding instance's time-indexed models, and where it comes from.
fn horizon_for(
    req: &ExportSetRequest,
    inst: &SetInstance,
    dir: &Path,
    progress: Progress<'_>,
) -> Result<Option<(usize, &'static str)>, Error> {
    if inst.family != FamilyName::Sliding {
        return Ok(None);
    }
    let goal = inst.goal.unwrap_or_default();
    let source = format!("{}/instances/{}.txt", dir.display(), inst.id);
    let p = SlidingPuzzle::parse(&inst.text, &source, goal)?;
    match req.horizon {
        Some(Horizon::Steps(t)) => Ok(Some((t, "given"))),
        None | Some(Horizon::Auto) => match inst.known_optimum {
            Some(opt) => {
                let t = usize::try_from(opt).unwrap_or(usize::MAX);
                // A stated optimum must at least be possible: not below the Manhattan
                // distance, and of its parity (every move changes it by one).
                let md = p.manhattan(goal);
                if t < md || (t - md) % 2 != 0 {
                    return Err(Error::Failure(format!(
                        "{}: the set states an optimum of {t} moves, which cannot be (Manhattan distance {md})",
                        inst.id
                    )));
                }
                Ok(Some((t.max(1), "set")))
            }
            None => {
                let t = sliding::auto_horizon(
                    &p,
                    goal,
                    Duration::from_secs_f64(AUTO_SECONDS),
                    progress,
                )?;
                Ok(Some((t, "native")))
            }
        },
    }
}

/// A file to write, with its path and key.
fn cell(
    req: &ExportSetRequest,
    k: usize,
    inst: &InstanceEntry,
    model: ModelName,
    format: Format,
    horizon: Option<(usize, &'static str)>,
) -> Cell {
    let ext = format.aliases().first().copied().unwrap_or(format.name());
    let path = format!(
        "files/{}.{}.{ext}{}",
        inst.id,
        model.name(),
        req.compress.suffix()
    );
    let key = format!(
        "tilekit {} · instance {} · model {} · format {} · horizon {} · filter {} · fix-corner {} · compress {}",
        env!("CARGO_PKG_VERSION"),
        inst.sha256,
        model.name(),
        format.name(),
        horizon.map_or("-".into(), |(t, _)| t.to_string()),
        req.filter,
        req.fix_corner,
        req.compress.name()
    );
    Cell {
        instance: k,
        model,
        format,
        horizon,
        path,
        key,
    }
}

/// Does the Global Benchmark Database identify files of `format`? It files CNF and WCNF
/// instances (in either WCNF dialect) by hash.
fn gbd_hashed(format: Format) -> bool {
    matches!(format, Format::Cnf | Format::Wcnf | Format::WcnfLegacy)
}

/// The GBD identifier of the CNF or WCNF file at `path`, read through its decompressor when
/// it is compressed.
fn gbd_of(path: &Path, format: Format, compress: Compress) -> Result<String, Error> {
    let failed =
        |e: std::io::Error| Error::Failure(format!("{}: cannot read back: {e}", path.display()));
    let file = std::fs::File::open(path).map_err(failed)?;
    let reader: Box<dyn std::io::Read> = match compress {
        Compress::None => Box::new(file),
        Compress::Gz => Box::new(flate2::read::GzDecoder::new(file)),
        Compress::Xz => Box::new(liblzma::read::XzDecoder::new(file)),
    };
    match format {
        Format::Cnf => crate::format::dimacs_cnf::gbd_hash(reader),
        _ => crate::format::wcnf::gbd_hash(reader),
    }
    .map_err(failed)
}

/// Write one file through the family's export, compress it if asked, and hash it.
fn write_cell(
    req: &ExportSetRequest,
    dir: &Path,
    inst: &InstanceEntry,
    c: &Cell,
    progress: Progress<'_>,
) -> Result<Record, Error> {
    let (sha256, bytes, size) = write_file(
        req,
        &dir.join(&inst.path),
        inst,
        (c.model, c.format, c.horizon.map(|(t, _)| t)),
        &dir.join(&c.path),
        progress,
    )?;
    let gbd = if gbd_hashed(c.format) {
        Some(gbd_of(&dir.join(&c.path), c.format, req.compress)?)
    } else {
        None
    };
    Ok(Record {
        path: c.path.clone(),
        key: c.key.clone(),
        sha256,
        bytes,
        size,
        gbd,
    })
}

/// Export the model of `instance_file` (read as `inst`'s family and goal) to `target`, gzip
/// it when `req` says so, and return the SHA-256, bytes and size of what is on disk.
fn write_file(
    req: &ExportSetRequest,
    instance_file: &Path,
    inst: &InstanceEntry,
    (model, format, horizon): (ModelName, Format, Option<usize>),
    target: &Path,
    progress: Progress<'_>,
) -> Result<(String, u64, Option<Size>), Error> {
    let instance = families::read(instance_file, Some(inst.family_name()))?;
    let plain = match req.compress {
        Compress::None => target.to_path_buf(),
        Compress::Gz | Compress::Xz => {
            let name = target
                .file_name()
                .map_or("model".into(), |n| n.to_string_lossy());
            target.with_file_name(format!(".{name}.plain"))
        }
    };
    let name = target
        .file_name()
        .map(|n| manifest::model_name(&n.to_string_lossy(), format.name()).to_string());
    let export = ExportRequest {
        model: Some(model),
        format: Some(format),
        output: Some(plain.clone()),
        options: inst.options(horizon, req.filter, req.fix_corner),
        name,
        ..Default::default()
    };
    let counts = families::export(&instance, &export, progress)?;
    if req.compress != Compress::None {
        let _record = crate::solve::cleanup::track_path(&plain);
        let result = compress_file(req.compress, &plain, target);
        let _ = std::fs::remove_file(&plain);
        result?;
    }
    let (sha256, bytes) = manifest::sha256_file(target)
        .map_err(|e| Error::Failure(format!("{}: cannot read back: {e}", target.display())))?;
    Ok((sha256, bytes, counts.and_then(Size::of)))
}

/// The model of one manifest file exported afresh into `req.output` (a scratch directory)
/// from the instance copy under `base`, with `req`'s options: its SHA-256, which equals the
/// manifest's when this tilekit builds the same model the file holds.
pub fn rebuild(
    req: &ExportSetRequest,
    base: &Path,
    inst: &InstanceEntry,
    file: &FileEntry,
) -> Result<String, Error> {
    let (model, format) = (req.models[0], req.formats[0]);
    let name = Path::new(&file.path)
        .file_name()
        .map_or("model".into(), |n| n.to_string_lossy().into_owned());
    let horizon = file.horizon.map(|t| t as usize);
    let quiet = |_: &str| {};
    let (sha, _, _) = write_file(
        req,
        &base.join(&inst.path),
        inst,
        (model, format, horizon),
        &req.output.join(name),
        &quiet,
    )?;
    Ok(sha)
}

/// Compress `from` into `to`, so that the same input gives the same bytes: gzip with a fixed
/// header (no file name, time 0) and level; xz at level 6 with one thread (the multi-threaded
/// encoder's blocks depend on the machine).
fn compress_file(how: Compress, from: &Path, to: &Path) -> Result<(), Error> {
    let mut input = std::fs::File::open(from)
        .map_err(|e| Error::Failure(format!("{}: cannot read: {e}", from.display())))?;
    output::stream_to(Some(to), |w| {
        match how {
            Compress::Xz => {
                let mut xz = liblzma::write::XzEncoder::new(w, 6);
                std::io::copy(&mut input, &mut xz).map_err(Error::failure)?;
                xz.finish().map_err(Error::failure)?;
            }
            _ => {
                let mut gz = flate2::GzBuilder::new()
                    .mtime(0)
                    .write(w, flate2::Compression::new(6));
                std::io::copy(&mut input, &mut gz).map_err(Error::failure)?;
                gz.finish().map_err(Error::failure)?;
            }
        }
        Ok(())
    })
}

/// Decompress the model file `from` (compressed `how`) into `to`, for a solver that reads
/// only plain files.
pub(crate) fn decompress_file(how: Compress, from: &Path, to: &Path) -> std::io::Result<()> {
    let input = std::fs::File::open(from)?;
    let mut out = std::io::BufWriter::new(std::fs::File::create(to)?);
    match how {
        Compress::Xz => std::io::copy(&mut liblzma::read::XzDecoder::new(input), &mut out)?,
        Compress::Gz => std::io::copy(&mut flate2::read::GzDecoder::new(input), &mut out)?,
        Compress::None => std::io::copy(&mut std::io::BufReader::new(input), &mut out)?,
    };
    std::io::Write::flush(&mut out)
}

/// The journal's records by path (the last record of a path wins; a torn last line, from a
/// killed run, is ignored).
fn read_journal(dir: &Path) -> HashMap<String, Record> {
    let text = std::fs::read_to_string(dir.join(JOURNAL)).unwrap_or_default();
    text.lines()
        .filter_map(|l| serde_json::from_str::<Record>(l).ok())
        .map(|r| (r.path.clone(), r))
        .collect()
}

/// Append a record and sync it, so a killed run keeps what it finished.
fn append(journal: &Mutex<std::fs::File>, r: &Record, dir: &Path) -> Result<(), Error> {
    let mut line = serde_json::to_string(r).expect("a record serialises");
    line.push('\n');
    let mut f = journal.lock().unwrap_or_else(|e| e.into_inner());
    f.write_all(line.as_bytes())
        .and_then(|()| f.sync_data())
        .map_err(|e| {
            Error::Failure(format!(
                "{}: cannot write: {e}",
                dir.join(JOURNAL).display()
            ))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(set: &str, dir: &Path) -> ExportSetRequest {
        ExportSetRequest {
            set: set.into(),
            models: vec![
                ModelName::Neos,
                ModelName::Sat,
                ModelName::Milp,
                ModelName::Clique,
            ],
            formats: vec![Format::Lp, Format::Cnf, Format::Dimacs],
            horizon: None,
            goal: None,
            filter: false,
            fix_corner: false,
            compress: Compress::None,
            jobs: 2,
            output: dir.to_path_buf(),
            command: vec!["test".into()],
        }
    }

    #[test]
    fn a_mixed_request_writes_what_applies_and_lists_the_rest() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("o");
        let s = export_set(&request("short8:5-6", &out), &|_| {}).unwrap();
        // Two 8-puzzles: neos lp and sat cnf apply; the other 10 pairs each are skipped.
        assert_eq!((s.written, s.kept), (4, 0));
        let m = Manifest::read(&s.manifest).unwrap();
        assert_eq!(m.files.len(), 4);
        assert_eq!(m.skipped.len(), 2 * 12 - 4);
        assert!(
            m.files
                .iter()
                .all(|f| f.horizon_source.as_deref() == Some("set"))
        );
        for f in &m.files {
            let (sha, n) = manifest::sha256_file(&out.join(&f.path)).unwrap();
            assert_eq!((sha.as_str(), n), (f.sha256.as_str(), f.bytes));
        }
        // A second run keeps every file.
        let again = export_set(&request("short8:5-6", &out), &|_| {}).unwrap();
        assert_eq!((again.written, again.kept, again.removed), (0, 4, 0));
        assert_eq!(Manifest::read(&again.manifest).unwrap(), m);
        // Fewer models and one instance fewer: what the new manifest does not list goes, and
        // a file tilekit did not write stays.
        std::fs::write(out.join("files/mine.txt"), "a user's notes\n").unwrap();
        let mut fewer = request("short8:5", &out);
        fewer.models = vec![ModelName::Neos];
        let s = export_set(&fewer, &|_| {}).unwrap();
        assert_eq!((s.written, s.kept, s.removed), (0, 1, 4));
        let m = Manifest::read(&s.manifest).unwrap();
        let mut on_disk: Vec<String> = ["files", "instances"]
            .iter()
            .flat_map(|d| std::fs::read_dir(out.join(d)).unwrap())
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        on_disk.sort();
        let mut want: Vec<String> = m
            .files
            .iter()
            .map(|f| f.path.as_str())
            .chain(m.instances.iter().map(|i| i.path.as_str()))
            .map(|p| p.rsplit('/').next().unwrap().to_string())
            .chain(["mine.txt".to_string()])
            .collect();
        want.sort();
        assert_eq!(on_disk, want);
    }

    #[test]
    fn a_journal_without_gbd_hashes_gets_them_on_the_next_run() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("o");
        let mut r = request("short8:5", &out);
        r.models = vec![ModelName::Sat];
        r.formats = vec![Format::Cnf];
        let first = export_set(&r, &|_| {}).unwrap();
        let m = Manifest::read(&first.manifest).unwrap();
        let gbd = m.files[0].gbd.clone().expect("a CNF's hash");
        // The journal of an earlier version: no hashes.
        let journal = out.join(JOURNAL);
        let text = std::fs::read_to_string(&journal).unwrap();
        let old: Vec<String> = text
            .lines()
            .map(|l| {
                let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
                v.as_object_mut().unwrap().remove("gbd");
                v.to_string()
            })
            .collect();
        std::fs::write(&journal, old.join("\n") + "\n").unwrap();
        assert!(!std::fs::read_to_string(&journal).unwrap().contains("gbd"));
        let again = export_set(&r, &|_| {}).unwrap();
        assert_eq!((again.written, again.kept), (0, 1));
        let m = Manifest::read(&again.manifest).unwrap();
        assert_eq!(m.files[0].gbd.as_deref(), Some(gbd.as_str()));
        // and the journal has it again.
        assert!(std::fs::read_to_string(&journal).unwrap().contains(&gbd));
    }

    #[test]
    fn nothing_that_applies_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let mut r = request("meta2010:3", dir.path());
        r.models = vec![ModelName::Neos];
        let e = export_set(&r, &|_| {}).unwrap_err().to_string();
        assert!(e.contains("nothing to export"), "{e}");
    }
}
