//! The results database of `tilekit run` (SQLite through rusqlite, bundled). Its schema is
//! the guide's (`docs/src/campaigns.md#the-database`); `PRAGMA user_version` says which
//! version wrote it. The two previous versions are migrated in place (their runs keep empty
//! measurements and seed 0); any other is refused rather than half read.
//!
//! One row per cell (file × solver × time limit × threads × seed, a UNIQUE key), written in its own
//! transaction as the cell finishes, so a killed run keeps every finished cell and a re-run
//! runs only what is missing. A solver failure is stored (`status = 'error'`) and run again
//! only when asked (`retry_errors`).

use super::manifest::{FileEntry, InstanceEntry, Size};
use crate::field::Field;
use crate::route::Error;
use rusqlite::{Connection, OptionalExtension, params};
use std::path::Path;

/// The schema version this tilekit writes and reads.
pub const USER_VERSION: i64 = 4;

/// The runs table of version 4 (also what a migration copies an older one into).
const RUNS_V4: &str = "CREATE TABLE IF NOT EXISTS runs(
  id INTEGER PRIMARY KEY, file_sha256 TEXT NOT NULL REFERENCES files(sha256),
  solver TEXT NOT NULL, solver_version TEXT, time_limit REAL NOT NULL, threads INTEGER NOT NULL,
  status TEXT NOT NULL, objective REAL, bound REAL, optimal INTEGER NOT NULL, solver_claim TEXT,
  verified INTEGER NOT NULL, errors TEXT NOT NULL, solver_status TEXT NOT NULL,
  seconds REAL NOT NULL, host TEXT NOT NULL, command TEXT NOT NULL, executor TEXT NOT NULL,
  shard TEXT, tilekit_version TEXT NOT NULL, finished_at INTEGER NOT NULL,
  solver_wall_s REAL, solver_cpu_s REAL, solver_max_rss_kb INTEGER, log_dir TEXT,
  seed INTEGER NOT NULL DEFAULT 0, solver_bound REAL,
  UNIQUE(file_sha256, solver, time_limit, threads, seed))";

/// The columns a version 3 runs table shares with version 4.
const V3_COLUMNS: &str = "id, file_sha256, solver, solver_version, time_limit, threads, status, objective, bound, optimal, solver_claim, verified, errors, solver_status, seconds, host, command, executor, shard, tilekit_version, finished_at, solver_wall_s, solver_cpu_s, solver_max_rss_kb, log_dir";

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS instances(
  sha256 TEXT PRIMARY KEY, id TEXT NOT NULL, family TEXT NOT NULL, goal TEXT,
  known_optimum REAL, optimum_source TEXT, best_known REAL, best_source TEXT);
CREATE TABLE IF NOT EXISTS files(
  sha256 TEXT PRIMARY KEY, instance_sha256 TEXT NOT NULL REFERENCES instances(sha256),
  path TEXT NOT NULL, model TEXT NOT NULL, format TEXT NOT NULL, compressed TEXT,
  horizon INTEGER, filter INTEGER NOT NULL, fix_corner INTEGER NOT NULL,
  size_kind TEXT, size_a INTEGER, size_b INTEGER, size_c INTEGER);
CREATE TABLE IF NOT EXISTS remote_jobs(
  file_sha256 TEXT NOT NULL, solver TEXT NOT NULL, time_limit REAL NOT NULL,
  threads INTEGER NOT NULL, server TEXT NOT NULL, number INTEGER NOT NULL,
  submitted_at INTEGER NOT NULL, PRIMARY KEY(file_sha256, solver, time_limit, threads));
CREATE TABLE IF NOT EXISTS conflicts(
  id INTEGER PRIMARY KEY, instance_sha256 TEXT NOT NULL, run_a INTEGER, run_b INTEGER,
  kind TEXT NOT NULL, detail TEXT NOT NULL);
";

/// One cell's result, as stored.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RunRow {
    /// The model file's SHA-256.
    pub file_sha256: String,
    /// The solver's name (a registry entry or an embedded engine).
    pub solver: String,
    /// Its version, as probed.
    pub solver_version: Option<String>,
    /// Seconds allowed.
    pub time_limit: f64,
    /// Threads allowed.
    pub threads: u32,
    /// `solved`, `infeasible`, `unbounded`, `time_limit`, `no_solution`, `unverified`, or
    /// `error` (the solver failed: crashed, garbage output).
    pub status: String,
    /// The verified objective (moves; unmatched inner seams).
    pub objective: Option<f64>,
    /// A proven lower bound, from a proof only.
    pub bound: Option<f64>,
    /// Verified and proven optimal by tilekit (see [`crate::route::Claim`]).
    pub optimal: bool,
    /// What the solver claimed beyond tilekit's proof (`optimal`, `infeasible`).
    #[serde(default)]
    pub solver_claim: Option<crate::route::Claim>,
    /// The dual bound the solver's log claims ([`crate::format::solver_log`]): kept apart
    /// from `bound`, which only a proof sets, and never used by the cross-check.
    #[serde(default)]
    pub solver_bound: Option<f64>,
    /// The seed the solver ran with (`{seed}`; 0 unless the run asked for several).
    #[serde(default)]
    pub seed: u32,
    /// The answer passed every check.
    pub verified: bool,
    /// What the checks found, or the failure.
    pub errors: Vec<String>,
    /// The solver's own status words.
    pub solver_status: String,
    /// Wall seconds of the cell.
    pub seconds: f64,
    /// The machine it ran on.
    pub host: String,
    /// The command run (`embedded:<engine> <version>` for an engine).
    pub command: String,
    /// `local`, `slurm` or `neos`.
    pub executor: String,
    /// The Slurm shard or NEOS job it came from.
    pub shard: Option<String>,
    /// The tilekit that ran it.
    pub tilekit_version: String,
    /// When it finished (Unix seconds).
    pub finished_at: i64,
    /// What the solver's processes used, and where their logs are.
    #[serde(default, flatten)]
    pub measured: Measured,
}

/// What a cell's solver processes used, measured by the kernel apart from the cell's own
/// work (model checks, decoding, verification), and where their logs are kept. Empty for an
/// embedded engine, which runs inside tilekit.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Measured {
    /// Wall seconds of the solver's processes, spawn to exit.
    pub solver_wall_s: Option<f64>,
    /// Their user and system CPU seconds, the children they waited for included.
    pub solver_cpu_s: Option<f64>,
    /// The peak resident memory of the largest of them, in kilobytes.
    pub solver_max_rss_kb: Option<i64>,
    /// The directory of the run's logs (command, stdout, stderr, solution file), relative to
    /// the database's directory.
    pub log_dir: Option<String>,
}

/// Who ran a cell and how: the parts of a row that do not come from the answer.
#[derive(Debug, Clone, PartialEq)]
pub struct RunOrigin {
    /// The solver's name.
    pub solver: String,
    /// Its version.
    pub solver_version: Option<String>,
    /// The command run.
    pub command: String,
    /// `local`, `slurm` or `neos`.
    pub executor: String,
    /// The Slurm shard or NEOS job.
    pub shard: Option<String>,
}

impl RunRow {
    /// The row of a cell that ran for `seconds` under `limits`: the route's report, or the
    /// failure (status `error`) that kept it from one.
    pub fn of(
        file_sha256: &str,
        origin: RunOrigin,
        limits: &crate::solve::Limits,
        result: Result<crate::route::Report, Error>,
        seconds: f64,
    ) -> RunRow {
        let mut row = RunRow {
            file_sha256: file_sha256.into(),
            solver: origin.solver,
            solver_version: origin.solver_version,
            time_limit: limits.time.as_secs_f64(),
            threads: limits.threads,
            status: "error".into(),
            objective: None,
            bound: None,
            optimal: false,
            solver_claim: None,
            solver_bound: None,
            seed: 0,
            verified: false,
            errors: Vec::new(),
            solver_status: String::new(),
            seconds,
            host: host_name(),
            command: origin.command,
            executor: origin.executor,
            shard: origin.shard,
            tilekit_version: env!("CARGO_PKG_VERSION").into(),
            finished_at: unix_now(),
            measured: Measured::default(),
        };
        match result {
            Ok(rep) => {
                row.status = rep.status.as_str().into();
                row.objective = rep.objective;
                row.bound = rep.bound;
                row.optimal = rep.optimal;
                row.solver_claim = rep.solver_claim;
                row.verified = rep.verified;
                row.errors = rep.errors;
                row.solver_status = rep.solver_status;
            }
            Err(e) => row.errors = vec![e.to_string()],
        }
        row
    }
}

/// A stored run with what the cross-check needs of its file and instance.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredRun {
    /// The row id.
    pub id: i64,
    /// The row.
    pub row: RunRow,
    /// The instance's SHA-256 and id.
    pub instance_sha256: String,
    /// The instance's id.
    pub instance: String,
    /// `sliding` or `edge`.
    pub family: String,
    /// The model.
    pub model: String,
    /// The format.
    pub format: String,
    /// The file's path in its manifest.
    pub path: String,
    /// The horizon of a time-indexed model.
    pub horizon: Option<u64>,
    /// The instance's known optimum and its source.
    pub known_optimum: Option<f64>,
    /// Where it comes from.
    pub optimum_source: Option<String>,
    /// Without a known optimum, the best objective known (a shipped board, a published score).
    pub best_known: Option<f64>,
}

/// This machine's name.
pub fn host_name() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: the buffer is valid for its whole length, which is what gethostname is told.
    let rc = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) };
    if rc != 0 {
        return "unknown".into();
    }
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    String::from_utf8_lossy(&buf[..end]).into_owned()
}

/// Now, in Unix seconds.
pub fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// A cell's key: what makes a run the same run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CellKey<'a> {
    /// The model file's SHA-256.
    pub file_sha256: &'a str,
    /// The solver.
    pub solver: &'a str,
    /// Seconds allowed.
    pub time_limit: f64,
    /// Threads allowed.
    pub threads: u32,
}

/// The results database.
pub struct Db {
    conn: Connection,
    path: String,
    /// The writer's lock ([`Db::open_writer`]), held while the database is open.
    _lock: Option<std::fs::File>,
}

fn db_error(path: &str, e: rusqlite::Error) -> Error {
    Error::Failure(format!("{path}: the results database: {e}"))
}

impl Db {
    /// Open (or create) the database at `path`, checking its schema version.
    pub fn open(path: &Path) -> Result<Db, Error> {
        let name = path.display().to_string();
        if path.exists() && !path.is_file() {
            return Err(Error::Usage(format!(
                "{name}: {} must name a file",
                Field::Db
            )));
        }
        let conn = Connection::open(path)
            .map_err(|e| Error::Usage(format!("{name}: cannot open the results database: {e}")))?;
        let version: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(|e| Error::Usage(format!("{name}: not an SQLite database: {e}")))?;
        let tables: i64 = conn
            .query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))
            .map_err(|e| db_error(&name, e))?;
        // Version 2 lacks the solver's measurements, the log directory and the best known
        // values: added, empty. Version 3 lacks the seed, which joins the cell's key (SQLite
        // cannot change a table's UNIQUE constraint in place, so the table is copied), and
        // the solver's claimed bound.
        if version == 2 {
            conn.execute_batch(
                "BEGIN;
                 ALTER TABLE runs ADD COLUMN solver_wall_s REAL;
                 ALTER TABLE runs ADD COLUMN solver_cpu_s REAL;
                 ALTER TABLE runs ADD COLUMN solver_max_rss_kb INTEGER;
                 ALTER TABLE runs ADD COLUMN log_dir TEXT;
                 ALTER TABLE instances ADD COLUMN best_known REAL;
                 ALTER TABLE instances ADD COLUMN best_source TEXT;
                 PRAGMA user_version = 3;
                 COMMIT;",
            )
            .map_err(|e| db_error(&name, e))?;
        }
        if version == 2 || version == 3 {
            conn.execute_batch(&format!(
                "BEGIN;
                 ALTER TABLE runs RENAME TO runs_v3;
                 {RUNS_V4};
                 INSERT INTO runs({V3_COLUMNS}) SELECT {V3_COLUMNS} FROM runs_v3;
                 DROP TABLE runs_v3;
                 PRAGMA user_version = 4;
                 COMMIT;"
            ))
            .map_err(|e| db_error(&name, e))?;
        } else if version != USER_VERSION && !(version == 0 && tables == 0) {
            return Err(Error::Usage(format!(
                "{name}: a results database of schema version {version}; this tilekit writes version {USER_VERSION}: use another {}",
                Field::Db
            )));
        }
        conn.busy_timeout(std::time::Duration::from_secs(30))
            .map_err(|e| db_error(&name, e))?;
        // WAL: readers (`report`) never block the writer, and a kill loses at most the open
        // transaction.
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(|e| db_error(&name, e))?;
        conn.execute_batch(SCHEMA).map_err(|e| db_error(&name, e))?;
        conn.execute_batch(RUNS_V4)
            .map_err(|e| db_error(&name, e))?;
        conn.pragma_update(None, "user_version", USER_VERSION)
            .map_err(|e| db_error(&name, e))?;
        Ok(Db {
            conn,
            path: name,
            _lock: None,
        })
    }

    /// Open the database as the one run that writes to it: an exclusive lock on
    /// `PATH.lock`, taken before the database is touched and held until the [`Db`] is
    /// dropped (the system releases it when the process ends, however it ends). A second
    /// run on the same database would run every cell again and claim the same rows, so it
    /// is refused. The lock is on a file of its own, not on the database, so that readers
    /// (`report`) are never blocked, on network file systems too.
    pub fn open_writer(path: &Path) -> Result<Db, Error> {
        let name = path.display().to_string();
        if path.exists() && !path.is_file() {
            return Err(Error::Usage(format!(
                "{name}: {} must name a file",
                Field::Db
            )));
        }
        let mut lock_path = path.as_os_str().to_owned();
        lock_path.push(".lock");
        let lock_path = std::path::PathBuf::from(lock_path);
        let lock = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .map_err(|e| {
                Error::Usage(format!(
                    "{}: cannot create the database's lock file: {e}",
                    lock_path.display()
                ))
            })?;
        match lock.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(Error::Usage(format!(
                    "{name}: another tilekit run is writing to this database (it holds {}): let it finish, or give this run another {f_db}",
                    lock_path.display(),
                    f_db = Field::Db
                )));
            }
            Err(std::fs::TryLockError::Error(e)) => {
                return Err(Error::Failure(format!(
                    "{}: cannot lock the database: {e}",
                    lock_path.display()
                )));
            }
        }
        let mut db = Db::open(path)?;
        db._lock = Some(lock);
        Ok(db)
    }

    fn err(&self, e: rusqlite::Error) -> Error {
        db_error(&self.path, e)
    }

    /// Record a manifest's instances and files (kept when already there).
    pub fn add_files(
        &mut self,
        instances: &[InstanceEntry],
        files: &[(&FileEntry, bool, bool)],
    ) -> Result<(), Error> {
        let tx = self
            .conn
            .transaction()
            .map_err(|e| db_error(&self.path, e))?;
        for i in instances {
            tx.execute(
                // A later manifest may know a better board: the best known value follows it.
                "INSERT INTO instances(sha256, id, family, goal, known_optimum, optimum_source, best_known, best_source) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
                 ON CONFLICT(sha256) DO UPDATE SET best_known = excluded.best_known, best_source = excluded.best_source",
                params![i.sha256, i.id, i.family, i.goal, i.known_optimum.map(|x| x as f64), i.optimum_source, i.best_known.map(|x| x as f64), i.best_source],
            )
            .map_err(|e| db_error(&self.path, e))?;
        }
        for (f, filter, fix_corner) in files {
            let inst = instances
                .iter()
                .find(|i| i.id == f.instance)
                .map(|i| i.sha256.clone())
                .unwrap_or_default();
            let (kind, a, b, c) = match f.size {
                Some(Size::Milp {
                    variables,
                    rows,
                    nonzeros,
                }) => (Some("milp"), Some(variables), Some(rows), Some(nonzeros)),
                Some(Size::Cnf {
                    variables,
                    clauses,
                    literals,
                }) => (Some("cnf"), Some(variables), Some(clauses), Some(literals)),
                Some(Size::Graph { nodes, edges }) => {
                    (Some("graph"), Some(nodes), Some(edges), None)
                }
                Some(Size::Wcnf {
                    variables,
                    hard,
                    soft,
                }) => (Some("wcnf"), Some(variables), Some(hard), Some(soft)),
                None => (None, None, None, None),
            };
            let n = |x: Option<u64>| x.map(|x| x as i64);
            tx.execute(
                "INSERT OR IGNORE INTO files(sha256, instance_sha256, path, model, format, compressed, horizon, filter, fix_corner, size_kind, size_a, size_b, size_c) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
                params![f.sha256, inst, f.path, f.model, f.format, f.compressed, n(f.horizon), filter, fix_corner, kind, n(a), n(b), n(c)],
            )
            .map_err(|e| db_error(&self.path, e))?;
        }
        tx.commit().map_err(|e| db_error(&self.path, e))
    }

    /// The status of the cell's stored run, if any.
    pub fn status_of(
        &self,
        file_sha256: &str,
        solver: &str,
        time_limit: f64,
        threads: u32,
        seed: u32,
    ) -> Result<Option<String>, Error> {
        self.conn
            .query_row(
                "SELECT status FROM runs WHERE file_sha256 = ?1 AND solver = ?2 AND time_limit = ?3 AND threads = ?4 AND seed = ?5",
                params![file_sha256, solver, time_limit, threads, seed],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| self.err(e))
    }

    /// Store a run. With `replace`, a stored row of the same cell (an error being retried)
    /// is replaced; otherwise an existing row wins, so that a cell is never counted twice.
    /// True when the row was stored.
    pub fn insert(&mut self, r: &RunRow, replace: bool) -> Result<bool, Error> {
        let verb = if replace {
            "INSERT OR REPLACE"
        } else {
            "INSERT OR IGNORE"
        };
        let errors = serde_json::to_string(&r.errors).expect("strings serialise");
        let n = self
            .conn
            .execute(
                &format!("{verb} INTO runs(file_sha256, solver, solver_version, time_limit, threads, status, objective, bound, optimal, verified, errors, solver_status, seconds, host, command, executor, shard, tilekit_version, finished_at, solver_claim, solver_wall_s, solver_cpu_s, solver_max_rss_kb, log_dir, seed, solver_bound) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26)"),
                params![
                    r.file_sha256, r.solver, r.solver_version, r.time_limit, r.threads, r.status,
                    r.objective, r.bound, r.optimal, r.verified, errors, r.solver_status,
                    r.seconds, r.host, r.command, r.executor, r.shard, r.tilekit_version,
                    r.finished_at, r.solver_claim.map(crate::route::Claim::as_str),
                    r.measured.solver_wall_s, r.measured.solver_cpu_s,
                    r.measured.solver_max_rss_kb, r.measured.log_dir, r.seed, r.solver_bound
                ],
            )
            .map_err(|e| self.err(e))?;
        Ok(n > 0)
    }

    /// Every stored run, with its file and instance (ordered by instance, then row id).
    pub fn runs(&self) -> Result<Vec<StoredRun>, Error> {
        let mut stmt = self
            .conn
            .prepare(
                "SELECT r.id, r.file_sha256, r.solver, r.solver_version, r.time_limit, r.threads, r.status,
                        r.objective, r.bound, r.optimal, r.verified, r.errors, r.solver_status, r.seconds,
                        r.host, r.command, r.executor, r.shard, r.tilekit_version, r.finished_at,
                        i.sha256, i.id, i.family, f.model, f.format, f.path, f.horizon, i.known_optimum, i.optimum_source,
                        r.solver_claim, r.solver_wall_s, r.solver_cpu_s, r.solver_max_rss_kb, r.log_dir,
                        i.best_known, r.seed, r.solver_bound
                 FROM runs r JOIN files f ON f.sha256 = r.file_sha256 JOIN instances i ON i.sha256 = f.instance_sha256
                 ORDER BY i.id, r.id",
            )
            .map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map([], |r| {
                let errors: String = r.get(11)?;
                Ok(StoredRun {
                    id: r.get(0)?,
                    row: RunRow {
                        file_sha256: r.get(1)?,
                        solver: r.get(2)?,
                        solver_version: r.get(3)?,
                        time_limit: r.get(4)?,
                        threads: r.get(5)?,
                        status: r.get(6)?,
                        objective: r.get(7)?,
                        bound: r.get(8)?,
                        optimal: r.get(9)?,
                        solver_claim: r
                            .get::<_, Option<String>>(29)?
                            .as_deref()
                            .and_then(crate::route::Claim::from_name),
                        solver_bound: r.get(36)?,
                        seed: r.get(35)?,
                        verified: r.get(10)?,
                        errors: serde_json::from_str(&errors).unwrap_or_else(|_| vec![errors]),
                        solver_status: r.get(12)?,
                        seconds: r.get(13)?,
                        host: r.get(14)?,
                        command: r.get(15)?,
                        executor: r.get(16)?,
                        shard: r.get(17)?,
                        tilekit_version: r.get(18)?,
                        finished_at: r.get(19)?,
                        measured: Measured {
                            solver_wall_s: r.get(30)?,
                            solver_cpu_s: r.get(31)?,
                            solver_max_rss_kb: r.get(32)?,
                            log_dir: r.get(33)?,
                        },
                    },
                    instance_sha256: r.get(20)?,
                    instance: r.get(21)?,
                    family: r.get(22)?,
                    model: r.get(23)?,
                    format: r.get(24)?,
                    path: r.get(25)?,
                    horizon: r.get::<_, Option<i64>>(26)?.map(|h| h as u64),
                    known_optimum: r.get(27)?,
                    optimum_source: r.get(28)?,
                    best_known: r.get(34)?,
                })
            })
            .map_err(|e| self.err(e))?;
        rows.collect::<Result<Vec<_>, _>>().map_err(|e| self.err(e))
    }

    /// Replace the stored conflicts with `found` (instance sha, run a, run b, kind, detail).
    pub fn set_conflicts(
        &mut self,
        found: &[(String, i64, Option<i64>, String, String)],
    ) -> Result<(), Error> {
        let tx = self
            .conn
            .transaction()
            .map_err(|e| db_error(&self.path, e))?;
        tx.execute("DELETE FROM conflicts", [])
            .map_err(|e| db_error(&self.path, e))?;
        for (inst, a, b, kind, detail) in found {
            tx.execute(
                "INSERT INTO conflicts(instance_sha256, run_a, run_b, kind, detail) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![inst, a, b, kind, detail],
            )
            .map_err(|e| db_error(&self.path, e))?;
        }
        tx.commit().map_err(|e| db_error(&self.path, e))
    }

    /// The NEOS job a cell was sent as: its server and number.
    pub fn remote_job(&self, cell: &CellKey<'_>) -> Result<Option<(String, i64)>, Error> {
        self.conn
            .query_row(
                "SELECT server, number FROM remote_jobs WHERE file_sha256 = ?1 AND solver = ?2 AND time_limit = ?3 AND threads = ?4",
                params![cell.file_sha256, cell.solver, cell.time_limit, cell.threads],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
            .map_err(|e| self.err(e))
    }

    /// Record the NEOS job a cell was sent as (the password stays in the job file).
    pub fn add_remote_job(
        &mut self,
        cell: &CellKey<'_>,
        server: &str,
        number: i64,
        submitted_at: i64,
    ) -> Result<(), Error> {
        self.conn
            .execute(
                "INSERT OR REPLACE INTO remote_jobs(file_sha256, solver, time_limit, threads, server, number, submitted_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![cell.file_sha256, cell.solver, cell.time_limit, cell.threads, server, number, submitted_at],
            )
            .map(|_| ())
            .map_err(|e| self.err(e))
    }

    /// Forget the NEOS job of a cell (its run is retried as a new job).
    pub fn remove_remote_job(&mut self, cell: &CellKey<'_>) -> Result<(), Error> {
        self.conn
            .execute(
                "DELETE FROM remote_jobs WHERE file_sha256 = ?1 AND solver = ?2 AND time_limit = ?3 AND threads = ?4",
                params![cell.file_sha256, cell.solver, cell.time_limit, cell.threads],
            )
            .map(|_| ())
            .map_err(|e| self.err(e))
    }

    /// The number of stored runs.
    pub fn count_runs(&self) -> Result<u64, Error> {
        self.conn
            .query_row("SELECT count(*) FROM runs", [], |r| r.get::<_, i64>(0))
            .map(|n| n as u64)
            .map_err(|e| self.err(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn row(file: &str, solver: &str, status: &str) -> RunRow {
        RunRow {
            file_sha256: file.into(),
            solver: solver.into(),
            solver_version: Some("1".into()),
            time_limit: 10.0,
            threads: 1,
            status: status.into(),
            objective: Some(5.0),
            bound: None,
            optimal: false,
            solver_claim: None,
            solver_bound: None,
            seed: 0,
            verified: true,
            errors: vec![],
            solver_status: "x".into(),
            seconds: 0.5,
            host: "h".into(),
            command: "c".into(),
            executor: "local".into(),
            shard: None,
            tilekit_version: "0".into(),
            finished_at: 0,
            measured: Default::default(),
        }
    }

    #[test]
    fn a_cell_is_stored_once_and_an_error_is_replaced_only_when_asked() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("r.sqlite");
        let mut db = Db::open(&p).unwrap();
        // Runs refer to a file, which refers to an instance (foreign keys are enforced).
        db.conn
            .execute_batch(
                "INSERT INTO instances(sha256, id, family) VALUES ('i', 'x', 'sliding');
                 INSERT INTO files(sha256, instance_sha256, path, model, format, filter, fix_corner)
                 VALUES ('f', 'i', 'files/x.lp', 'neos', 'lp', 0, 0);",
            )
            .unwrap();
        assert!(db.insert(&row("g", "cbc", "error"), false).is_err());
        assert!(db.insert(&row("f", "cbc", "error"), false).unwrap());
        assert!(!db.insert(&row("f", "cbc", "solved"), false).unwrap());
        assert_eq!(
            db.status_of("f", "cbc", 10.0, 1, 0).unwrap().as_deref(),
            Some("error")
        );
        assert!(db.insert(&row("f", "cbc", "solved"), true).unwrap());
        assert_eq!(
            db.status_of("f", "cbc", 10.0, 1, 0).unwrap().as_deref(),
            Some("solved")
        );
        assert_eq!(db.count_runs().unwrap(), 1);
        drop(db);
        // Reopened: the schema is there and accepted.
        let db = Db::open(&p).unwrap();
        assert_eq!(db.count_runs().unwrap(), 1);
    }

    #[test]
    fn one_writer_at_a_time_and_readers_beside_it() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("r.sqlite");
        let w = Db::open_writer(&p).unwrap();
        let e = Db::open_writer(&p).err().unwrap();
        assert_eq!(e.exit_code(), 2);
        assert!(
            e.to_string()
                .contains("another tilekit run is writing to this database"),
            "{e}"
        );
        // A reader is not blocked.
        assert_eq!(Db::open(&p).unwrap().count_runs().unwrap(), 0);
        drop(w);
        // The lock goes with the writer.
        assert!(Db::open_writer(&p).is_ok());
    }

    #[test]
    fn another_schema_version_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("r.sqlite");
        let c = Connection::open(&p).unwrap();
        // Version 1 had no solver_claim column: its `optimal` mixed proofs and claims.
        c.execute_batch("CREATE TABLE x(a); PRAGMA user_version = 1;")
            .unwrap();
        drop(c);
        let e = Db::open(&p).err().unwrap().to_string();
        assert!(e.contains("schema version 1"), "{e}");
        std::fs::write(
            dir.path().join("t"),
            "not a database at all, just text\n".repeat(100),
        )
        .unwrap();
        let e = Db::open(&dir.path().join("t")).err().unwrap().to_string();
        assert!(e.contains("not an SQLite database"), "{e}");
    }
}
