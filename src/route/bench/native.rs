//! `tilekit bench korf100` and the other published sliding sets: the native solver on every
//! instance, every length checked against the published optimum and every plan replayed by
//! the independent verifier.

use super::{Column, Outcome, Table};
use crate::field::Field;
use crate::puzzle::sliding::moves_to_string;
use crate::search::pdb::Partition;
use crate::search::sets::{BenchCase, BenchSet};
use crate::search::{NativeOptions, NativeResult, NativeSolver, NativeStatus, SearchError};
use std::io::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Settings of [`run`].
#[derive(Debug, Clone)]
pub struct BenchOptions {
    /// Only the first `limit` instances.
    pub limit: Option<usize>,
    /// Only the instances with these ids (all when empty), in the set's order; applied before
    /// `limit`.
    pub ids: Vec<u32>,
    /// Per-instance limit.
    pub time_limit: Option<Duration>,
    /// Instances solved at the same time (one thread each).
    pub jobs: usize,
    /// Searches each job interleaves node by node
    /// ([`NativeSolver::solve_interleaved`]); 1 = one at a time.
    pub interleave: usize,
    /// Solver settings (cache dir, partition).
    pub native: NativeOptions,
    /// A named partition for the set's board ([`Partition::named`]), or `none` for Manhattan
    /// distance + linear conflict; overrides `native.partition`.
    pub pdb: Option<String>,
    /// A second named partition whose estimate is maxed with the first's
    /// ([`NativeOptions::max_with`]); overrides `native.max_with`.
    pub max_with: Option<String>,
}

/// One instance's outcome.
#[derive(Debug, Clone, serde::Serialize)]
pub struct BenchRow {
    /// The set's id.
    pub id: u32,
    /// Published optimum.
    pub optimal: u32,
    /// Length found (None when stopped).
    pub found: Option<u32>,
    /// Lower bound proven when stopped.
    pub lower_bound: u32,
    /// Nodes visited.
    pub nodes: u64,
    /// Nodes the set's own solver reported, when published.
    pub published_nodes: Option<u64>,
    /// Search seconds.
    pub seconds: f64,
    /// Length matches and the replay reached the goal.
    pub ok: bool,
    /// What was wrong.
    pub error: Option<String>,
}

/// The whole run.
#[derive(Debug, Clone, serde::Serialize)]
pub struct BenchSummary {
    /// The set.
    pub set: String,
    /// The heuristic.
    pub heuristic: String,
    /// Seconds to load or build the databases.
    pub db_seconds: f64,
    /// `loaded` or `built`.
    pub db_source: String,
    /// Wall-clock seconds for all searches (after the databases were ready).
    pub wall_seconds: f64,
    /// Total nodes.
    pub nodes: u64,
    /// Instances whose length was wrong or whose plan did not replay.
    pub mismatches: usize,
    /// Instances stopped by the time limit.
    pub timeouts: usize,
    /// Solved instances whose node count equals the published one (sets that publish them).
    pub same_nodes_as_published: Option<usize>,
}

/// The table: one line per instance as it finishes.
const TABLE: Table = Table::new(&[
    Column::right("id", 4),
    Column::right("opt", 4),
    Column::right("found", 5),
    Column::right("nodes", 14),
    Column::right("seconds", 9),
    Column::left("check", 0),
]);

/// Solve every instance of `set`, printing one line per instance (as they finish) and the
/// totals to `out`; the rows come back in id order.
pub fn run(
    set: BenchSet,
    opts: &BenchOptions,
    out: &mut (dyn Write + Send),
    progress: &(dyn Fn(&str) + Sync),
) -> Result<Outcome<BenchRow, BenchSummary>, SearchError> {
    if opts.jobs == 0 || opts.limit == Some(0) {
        return Err(SearchError::Options(format!(
            "{f_jobs} and {f_limit} must be at least 1",
            f_jobs = Field::Jobs,
            f_limit = Field::Limit
        )));
    }
    let mut cases = set.cases();
    // Read before truncating: a limit of 0 leaves no case to read the side from.
    let side = cases[0].puzzle.rows();
    if let Some(&id) = opts
        .ids
        .iter()
        .find(|&&id| cases.iter().all(|c| c.id != id))
    {
        return Err(SearchError::Options(format!(
            "{}: the set has no instance {id}",
            Field::Instances
        )));
    }
    if !opts.ids.is_empty() {
        cases.retain(|c| opts.ids.contains(&c.id));
    }
    if let Some(l) = opts.limit {
        cases.truncate(l);
    }
    let mut native = opts.native.clone();
    match opts.pdb.as_deref() {
        None => {}
        Some("none") => native.manhattan_only = true,
        Some(name) => native.partition = Some(Partition::named(side, side, name)?),
    }
    match opts.max_with.as_deref() {
        None => {}
        // `NativeSolver::new` refuses it with Manhattan + LC, and a second partition equal
        // to the first.
        Some("none") => return Err(SearchError::Options(crate::search::max_with_none())),
        Some(name) => native.max_with = Some(Partition::named(side, side, name)?),
    }
    let solver = NativeSolver::new(side, side, &native, progress)?;
    let (db_seconds, db_source) = match solver.db_info() {
        Some(i) => (
            i.seconds,
            match &i.source {
                crate::search::pdb::DbSource::Loaded => "loaded".to_string(),
                crate::search::pdb::DbSource::Built(_) => "built".to_string(),
            },
        ),
        None => (0.0, "none".to_string()),
    };
    writeln!(
        out,
        "{}: {} instances, heuristic {}, databases {db_source} in {db_seconds:.2} s, {} job(s){}",
        set.name(),
        cases.len(),
        solver.heuristic_name(),
        opts.jobs.max(1),
        if opts.interleave > 1 {
            // Instance seconds then overlap, and a time limit is wall clock shared with the
            // other searches of the job.
            format!(", {} searches interleaved per job", opts.interleave)
        } else {
            String::new()
        }
    )
    .map_err(SearchError::Output)?;
    writeln!(out, "{}", TABLE.header()).map_err(SearchError::Output)?;
    let started = Instant::now();
    let next = AtomicUsize::new(0);
    let rows: Mutex<Vec<BenchRow>> = Mutex::new(Vec::new());
    let out = Mutex::new(out);
    let failure: Mutex<Option<SearchError>> = Mutex::new(None);
    std::thread::scope(|s| {
        for _ in 0..opts.jobs.max(1) {
            s.spawn(|| {
                let mut next_case = || {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    cases
                        .get(i)
                        .map(|c| (i, c.puzzle.clone(), c.goal, opts.time_limit))
                };
                let mut finish = |i: usize, r: Result<NativeResult, SearchError>| -> bool {
                    let row = match r {
                        Ok(r) => row_of(&cases[i], r),
                        Err(e) => {
                            *failure.lock().expect("not poisoned") = Some(e);
                            return false;
                        }
                    };
                    let mut o = out.lock().expect("not poisoned");
                    let check = match (&row.error, row.found) {
                        (Some(e), _) => format!("MISMATCH: {e}"),
                        (None, Some(_)) => "ok, replayed".to_string(),
                        (None, None) => format!("time limit (lower bound {})", row.lower_bound),
                    } + &row.published_nodes.map_or(String::new(), |n| {
                        let same = if n == row.nodes {
                            ", the same".to_string()
                        } else if row.found.is_some() && n > 0 {
                            format!(", ours {:.2}×", row.nodes as f64 / n as f64)
                        } else {
                            String::new()
                        };
                        format!("; published solver: {n} nodes{same}")
                    });
                    let written = writeln!(
                        o,
                        "{}",
                        TABLE.row(&[
                            row.id.to_string(),
                            row.optimal.to_string(),
                            row.found.map_or("-".to_string(), |f| f.to_string()),
                            row.nodes.to_string(),
                            format!("{:.3}", row.seconds),
                            check,
                        ])
                    );
                    drop(o);
                    rows.lock().expect("not poisoned").push(row);
                    // Nobody reads the table any more (`bench … | head`): stop, say why.
                    if let Err(e) = written {
                        *failure.lock().expect("not poisoned") = Some(SearchError::Output(e));
                        return false;
                    }
                    true
                };
                solver.solve_interleaved(opts.interleave.max(1), &mut next_case, &mut finish);
            });
        }
    });
    if let Some(e) = failure.into_inner().expect("not poisoned") {
        return Err(e);
    }
    let wall_seconds = started.elapsed().as_secs_f64();
    let mut rows = rows.into_inner().expect("not poisoned");
    rows.sort_by_key(|r| r.id);
    let summary = BenchSummary {
        set: set.name().into(),
        heuristic: solver.heuristic_name(),
        db_seconds,
        db_source,
        nodes: rows.iter().map(|r| r.nodes).sum(),
        mismatches: rows.iter().filter(|r| r.error.is_some()).count(),
        timeouts: rows
            .iter()
            .filter(|r| r.found.is_none() && r.error.is_none())
            .count(),
        same_nodes_as_published: rows.iter().any(|r| r.published_nodes.is_some()).then(|| {
            rows.iter()
                .filter(|r| r.ok && r.published_nodes == Some(r.nodes))
                .count()
        }),
        wall_seconds,
    };
    let out = out.into_inner().expect("not poisoned");
    let solved = rows.iter().filter(|r| r.ok).count();
    writeln!(
        out,
        "total: {solved} of {} solved optimally and replayed, {} mismatches, {} time limits; {} nodes; {:.3} s search wall clock (+ {:.2} s databases {})",
        rows.len(),
        summary.mismatches,
        summary.timeouts,
        summary.nodes,
        summary.wall_seconds,
        summary.db_seconds,
        summary.db_source
    )
    .map_err(SearchError::Output)?;
    if let Some(same) = summary.same_nodes_as_published {
        writeln!(
            out,
            "{same} of {solved} solved with the same node count as the published solver"
        )
        .map_err(SearchError::Output)?;
    }
    Ok(Outcome {
        benchmark: set.name().into(),
        rows,
        summary,
    })
}

/// One instance's row from the solver's result: the plan replayed and its length checked
/// against the published optimum.
fn row_of(case: &BenchCase, r: NativeResult) -> BenchRow {
    let mut row = BenchRow {
        id: case.id,
        optimal: case.optimal,
        found: None,
        lower_bound: r.lower_bound,
        nodes: r.nodes,
        published_nodes: case.published_nodes,
        seconds: r.seconds,
        ok: false,
        error: None,
    };
    match (r.status, &r.moves) {
        (NativeStatus::Solved, Some(moves)) => {
            row.found = Some(moves.len() as u32);
            let goal_board = case.goal.board(case.puzzle.cells());
            let v = crate::verify::sliding::check_moves(
                case.puzzle.rows(),
                case.puzzle.cols(),
                case.puzzle.tiles(),
                &goal_board,
                &moves_to_string(moves),
                Some(case.optimal as f64),
            );
            if !v.valid {
                row.error = Some(v.errors.join("; "));
            }
        }
        (NativeStatus::Unsolvable, _) => row.error = Some("reported unsolvable".into()),
        _ => {
            if r.lower_bound > case.optimal {
                row.error = Some(format!(
                    "lower bound {} exceeds the published optimum",
                    r.lower_bound
                ));
            }
        }
    }
    row.ok = row.error.is_none() && row.found.is_some();
    row
}
