//! `tilekit bench korf100` and the other published sliding sets: the native solver on every
//! instance, every length checked against the published optimum and every plan replayed by
//! the independent verifier.
//!
//! A run can keep each instance's progress in a checkpoint directory
//! ([`BenchOptions::checkpoint`]), one file per instance written after every finished IDA\*
//! iteration (the bound it proved and the nodes it counted) and at the end (the plan). The
//! same run again resumes: a solved instance is reported from its file (its plan replayed
//! again), and an unfinished one starts at its proven bound, so a kill loses at most the
//! iteration that was under way. Runs that share the directory (a Slurm job array's tasks)
//! each take their own instances.

use super::{Column, Outcome, Table};
use crate::field::Field;
use crate::puzzle::sliding::moves_to_string;
use crate::search::pdb::Partition;
use crate::search::sets::{BenchCase, BenchSet};
use crate::search::{NativeOptions, NativeResult, NativeSolver, NativeStatus, SearchError};
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
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
    /// Keep each instance's progress here and resume from it (see the module's comment).
    pub checkpoint: Option<PathBuf>,
    /// Report what the checkpoints hold without searching (the instances without a plan
    /// show their proven bound): how a Slurm job's results are gathered.
    pub report_only: bool,
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
    /// Nodes a second published run with the same databases expanded, when the set has
    /// one ([`BenchCase::published_expanded`]).
    pub published_expanded: Option<u64>,
    /// Search seconds.
    pub seconds: f64,
    /// Length matches and the replay reached the goal.
    pub ok: bool,
    /// Where the search began: the bound an earlier run's checkpoint had proven (nodes and
    /// seconds then add the earlier runs' to this one's), or `None` for a fresh start.
    pub resumed_from: Option<u32>,
    /// The row was read from the checkpoint, with no search now (its plan replayed again).
    pub from_checkpoint: bool,
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
    /// Instances a report read from the checkpoints without a plan and with time left (a
    /// Slurm task that did not finish): run the command again to resume them.
    pub unfinished: usize,
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

/// The schema of an instance's checkpoint file.
pub const CHECKPOINT_SCHEMA: &str = "tilekit-bench-progress/1";

/// One instance's progress, as its checkpoint file (`<set>-<id>.json` in
/// [`BenchOptions::checkpoint`]) holds it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InstanceProgress {
    /// [`CHECKPOINT_SCHEMA`].
    pub schema: String,
    /// The set.
    pub set: String,
    /// The instance's id in the set.
    pub id: u32,
    /// The heuristic's name, without the thread count: node counts under different
    /// heuristics do not add up.
    pub heuristic: String,
    /// The duplicate-pruning depth, for the same reason.
    pub fsm: usize,
    /// Bidirectional pathmax, for the same reason.
    pub bpmx: bool,
    /// The proven lower bound (the optimum when solved).
    pub lower_bound: u32,
    /// Nodes of the finished iterations (of the whole search when solved): what one unbroken
    /// search counts up to the same point.
    pub nodes: u64,
    /// Search seconds over every run, up to this record.
    pub seconds: f64,
    /// The plan (tilekit's move letters) when solved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plan: Option<String>,
    /// The board cannot reach the goal.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unsolvable: bool,
}

impl InstanceProgress {
    /// Nothing is left to search: solved, unsolvable, or its time limit spent.
    fn finished(&self, time_limit: Option<Duration>) -> bool {
        self.plan.is_some()
            || self.unsolvable
            || time_limit.is_some_and(|t| self.seconds >= t.as_secs_f64())
    }
}

/// Where `id`'s progress is kept.
fn checkpoint_file(dir: &Path, set: BenchSet, id: u32) -> PathBuf {
    dir.join(format!("{}-{id}.json", set.name()))
}

/// `id`'s progress from its file, if there is one.
fn read_progress(
    dir: &Path,
    set: BenchSet,
    id: u32,
) -> Result<Option<InstanceProgress>, SearchError> {
    let path = checkpoint_file(dir, set, id);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(SearchError::Checkpoint(format!(
                "{}: cannot read the checkpoint: {e}",
                path.display()
            )));
        }
    };
    let p: InstanceProgress = serde_json::from_str(&text).map_err(|e| {
        SearchError::Checkpoint(format!(
            "{}: not a benchmark checkpoint ({e}); remove it to start the instance again",
            path.display()
        ))
    })?;
    if p.schema != CHECKPOINT_SCHEMA || p.set != set.name() || p.id != id {
        return Err(SearchError::Checkpoint(format!(
            "{}: holds {} instance {} ({}), not {} instance {id} ({CHECKPOINT_SCHEMA})",
            path.display(),
            p.set,
            p.id,
            p.schema,
            set.name()
        )));
    }
    Ok(Some(p))
}

/// Write `p` to its file, whole or not at all.
fn write_progress(dir: &Path, set: BenchSet, p: &InstanceProgress) -> Result<(), SearchError> {
    let path = checkpoint_file(dir, set, p.id);
    let text = serde_json::to_string_pretty(p).expect("progress serialises") + "\n";
    crate::route::output::write_to(Some(&path), text.as_bytes())
        .map_err(|e| SearchError::Checkpoint(format!("{}: {e}", path.display())))
}

/// The ids of `opts`'s instances that its checkpoint directory does not hold finished (all
/// of them without one), in the set's order.
pub fn pending(set: BenchSet, opts: &BenchOptions) -> Result<Vec<u32>, SearchError> {
    let cases = select(set, opts)?;
    let Some(dir) = opts.checkpoint.as_deref() else {
        return Ok(cases.iter().map(|c| c.id).collect());
    };
    let mut ids = Vec::new();
    for c in &cases {
        if !read_progress(dir, set, c.id)?.is_some_and(|p| p.finished(opts.time_limit)) {
            ids.push(c.id);
        }
    }
    Ok(ids)
}

/// The cases `opts` selects, in the set's order.
fn select(set: BenchSet, opts: &BenchOptions) -> Result<Vec<BenchCase>, SearchError> {
    let mut cases = set.cases();
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
    Ok(cases)
}

/// Solve every instance of `set`, printing one line per instance (as they finish) and the
/// totals to `out`; the rows come back in id order. With a checkpoint directory, the
/// instances it holds finished are reported from it, and the others resume from it.
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
    let dir = opts.checkpoint.as_deref();
    if dir.is_none() && opts.report_only {
        return Err(SearchError::Options(format!(
            "a report without a search reads a {}",
            Field::Checkpoint
        )));
    }
    if dir.is_some() && opts.interleave > 1 {
        return Err(SearchError::Options(format!(
            "{} and {} do not combine: an interleaved search does not stop at each bound to record it",
            Field::Checkpoint,
            Field::Interleave
        )));
    }
    let side = set.cases()[0].puzzle.rows();
    let cases = select(set, opts)?;
    let saved: Vec<Option<InstanceProgress>> = match dir {
        Some(d) => {
            std::fs::create_dir_all(d).map_err(|e| {
                SearchError::Checkpoint(format!(
                    "{}: cannot create the directory: {e}",
                    d.display()
                ))
            })?;
            cases
                .iter()
                .map(|c| read_progress(d, set, c.id))
                .collect::<Result<_, _>>()?
        }
        None => vec![None; cases.len()],
    };
    let pending: Vec<usize> = (0..cases.len())
        .filter(|&i| {
            !opts.report_only
                && !saved[i]
                    .as_ref()
                    .is_some_and(|p| p.finished(opts.time_limit))
        })
        .collect();
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
    // The tables are loaded only when there is something to search.
    let solver = if pending.is_empty() {
        None
    } else {
        Some(NativeSolver::new(side, side, &native, progress)?)
    };
    let (db_seconds, db_source) = match solver.as_ref().and_then(|s| s.db_info()) {
        Some(i) => (
            i.seconds,
            match &i.source {
                crate::search::pdb::DbSource::Loaded => "loaded".to_string(),
                crate::search::pdb::DbSource::Built(_) => "built".to_string(),
            },
        ),
        None => (0.0, "none".to_string()),
    };
    // Node counts of one instance add up only under one heuristic (on any thread count).
    let heuristic = match &solver {
        Some(s) => s.search_name(),
        None => saved
            .iter()
            .flatten()
            .map(|p| p.heuristic.clone())
            .next()
            .unwrap_or_else(|| "none recorded".into()),
    };
    // As the table's header and the summary show it: with the thread count.
    let shown = solver
        .as_ref()
        .map_or_else(|| heuristic.clone(), NativeSolver::heuristic_name);
    for (case, p) in cases.iter().zip(&saved) {
        if let Some(p) = p
            && (p.heuristic != heuristic || p.fsm != native.fsm || p.bpmx != native.bpmx)
        {
            return Err(SearchError::Checkpoint(format!(
                "{}: was written by a search with {} (duplicate pruning {}, pathmax {}), and this one runs {heuristic} (duplicate pruning {}, pathmax {}): give the same options or another {}",
                checkpoint_file(dir.expect("saved progress has a directory"), set, case.id)
                    .display(),
                p.heuristic,
                p.fsm,
                p.bpmx,
                native.fsm,
                native.bpmx,
                Field::Checkpoint
            )));
        }
    }
    writeln!(
        out,
        "{}: {} instances, heuristic {shown}, databases {db_source} in {db_seconds:.2} s, {} job(s){}{}",
        set.name(),
        cases.len(),
        opts.jobs.max(1),
        if opts.interleave > 1 {
            // Instance seconds then overlap, and a time limit is wall clock shared with the
            // other searches of the job.
            format!(", {} searches interleaved per job", opts.interleave)
        } else {
            String::new()
        },
        match dir {
            Some(d) => format!(
                ", {} of them finished in {}",
                cases.len() - pending.len(),
                d.display()
            ),
            None => String::new(),
        }
    )
    .map_err(SearchError::Output)?;
    writeln!(out, "{}", TABLE.header()).map_err(SearchError::Output)?;
    let started = Instant::now();
    let rows: Mutex<Vec<BenchRow>> = Mutex::new(Vec::new());
    let out = Mutex::new(out);
    let failure: Mutex<Option<SearchError>> = Mutex::new(None);
    // One line of the table, and the row kept; false when the table cannot be written.
    let finish = |row: BenchRow| -> bool {
        let mut o = out.lock().expect("not poisoned");
        let check = match (&row.error, row.found) {
            (Some(e), _) => format!("MISMATCH: {e}"),
            (None, Some(_)) => "ok, replayed".to_string(),
            (None, None)
                if opts.report_only
                    && !opts
                        .time_limit
                        .is_some_and(|t| row.seconds >= t.as_secs_f64()) =>
            {
                format!("unfinished (lower bound {})", row.lower_bound)
            }
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
        }) + &row.published_expanded.map_or(String::new(), |n| {
            // Only Korf & Felner's 50 have one: Döbbelin et al.'s re-run.
            format!("; Döbbelin et al.'s 6-6-6-6: {n} expanded")
        }) + &match (row.from_checkpoint, row.resumed_from) {
            (true, _) => "; from the checkpoint".to_string(),
            (false, Some(b)) => format!("; resumed at bound {b}"),
            (false, None) => String::new(),
        };
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
    // The instances the checkpoints hold finished (or, reporting only, as far as they got).
    for (i, p) in saved.iter().enumerate() {
        if pending.contains(&i) {
            continue;
        }
        let row = match p {
            Some(p) => row_of_progress(&cases[i], p)?,
            None => BenchRow {
                id: cases[i].id,
                optimal: cases[i].optimal,
                found: None,
                lower_bound: 0,
                nodes: 0,
                published_nodes: cases[i].published_nodes,
                published_expanded: cases[i].published_expanded,
                seconds: 0.0,
                ok: false,
                error: None,
                resumed_from: None,
                from_checkpoint: false,
            },
        };
        if !finish(row) {
            break;
        }
    }
    if let Some(solver) = &solver
        && failure.lock().expect("not poisoned").is_none()
    {
        let next = AtomicUsize::new(0);
        std::thread::scope(|s| {
            for _ in 0..opts.jobs.max(1) {
                s.spawn(|| {
                    if opts.interleave > 1 {
                        let mut next_case = || {
                            let k = next.fetch_add(1, Ordering::Relaxed);
                            pending.get(k).map(|&i| {
                                (i, cases[i].puzzle.clone(), cases[i].goal, opts.time_limit)
                            })
                        };
                        let mut done = |i: usize, r: Result<NativeResult, SearchError>| match r {
                            Ok(r) => finish(row_of(&cases[i], r)),
                            Err(e) => {
                                *failure.lock().expect("not poisoned") = Some(e);
                                false
                            }
                        };
                        solver.solve_interleaved(opts.interleave, &mut next_case, &mut done);
                        return;
                    }
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&i) = pending.get(k) else { break };
                        if failure.lock().expect("not poisoned").is_some() {
                            break;
                        }
                        let r = solve_case(solver, set, &cases[i], saved[i].as_ref(), opts, dir);
                        let keep_going = match r {
                            Ok(row) => finish(row),
                            Err(e) => {
                                *failure.lock().expect("not poisoned") = Some(e);
                                false
                            }
                        };
                        if !keep_going {
                            break;
                        }
                    }
                });
            }
        });
    }
    if let Some(e) = failure.into_inner().expect("not poisoned") {
        return Err(e);
    }
    let wall_seconds = started.elapsed().as_secs_f64();
    let mut rows = rows.into_inner().expect("not poisoned");
    rows.sort_by_key(|r| r.id);
    // A report that searched nothing, of an instance without a plan whose limit is not spent.
    let unfinished = |r: &BenchRow| {
        opts.report_only
            && r.found.is_none()
            && r.error.is_none()
            && !opts
                .time_limit
                .is_some_and(|t| r.seconds >= t.as_secs_f64())
    };
    let summary = BenchSummary {
        set: set.name().into(),
        heuristic: shown,
        db_seconds,
        db_source,
        nodes: rows.iter().map(|r| r.nodes).sum(),
        mismatches: rows.iter().filter(|r| r.error.is_some()).count(),
        timeouts: rows
            .iter()
            .filter(|r| r.found.is_none() && r.error.is_none() && !unfinished(r))
            .count(),
        unfinished: rows.iter().filter(|r| unfinished(r)).count(),
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
        "total: {solved} of {} solved optimally and replayed, {} mismatches, {} time limits{}; {} nodes; {:.3} s search wall clock (+ {:.2} s databases {})",
        rows.len(),
        summary.mismatches,
        summary.timeouts,
        if summary.unfinished > 0 {
            format!(
                ", {} unfinished (the same command resumes them)",
                summary.unfinished
            )
        } else {
            String::new()
        },
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

/// One instance searched, from its saved progress when there is some, recording each proven
/// bound and the end in `dir` when given.
fn solve_case(
    solver: &NativeSolver,
    set: BenchSet,
    case: &BenchCase,
    saved: Option<&InstanceProgress>,
    opts: &BenchOptions,
    dir: Option<&Path>,
) -> Result<BenchRow, SearchError> {
    let (from, nodes_before, seconds_before) =
        saved.map_or((0, 0, 0.0), |p| (p.lower_bound, p.nodes, p.seconds));
    let limit = opts
        .time_limit
        .map(|t| t.saturating_sub(Duration::from_secs_f64(seconds_before)));
    let record = |lower_bound: u32, nodes: u64, seconds: f64| InstanceProgress {
        schema: CHECKPOINT_SCHEMA.into(),
        set: set.name().into(),
        id: case.id,
        heuristic: solver.search_name(),
        fsm: opts.native.fsm,
        bpmx: opts.native.bpmx,
        lower_bound,
        nodes: nodes_before + nodes,
        seconds: seconds_before + seconds,
        plan: None,
        unsolvable: false,
    };
    let started = Instant::now();
    let failed: Mutex<Option<SearchError>> = Mutex::new(None);
    // The nodes of the iterations finished: a search stopped inside one resumes by
    // running it again, so only these may be recorded.
    let finished_nodes = AtomicU64::new(0);
    let note = |bound: u32, nodes: u64| {
        finished_nodes.store(nodes, Ordering::Relaxed);
        if let Some(d) = dir
            && let Err(e) = write_progress(
                d,
                set,
                &record(bound, nodes, started.elapsed().as_secs_f64()),
            )
        {
            failed.lock().expect("not poisoned").get_or_insert(e);
        }
    };
    let mut r = solver.solve_resumed(
        &case.puzzle,
        case.goal,
        limit,
        crate::search::Resume {
            from,
            on_iteration: dir.is_some().then_some(&note as &(dyn Fn(u32, u64) + Sync)),
        },
    )?;
    if let Some(e) = failed.into_inner().expect("not poisoned") {
        return Err(e);
    }
    if let Some(d) = dir {
        let nodes = if r.status == NativeStatus::TimeLimit {
            finished_nodes.load(Ordering::Relaxed)
        } else {
            r.nodes
        };
        let mut p = record(r.lower_bound, nodes, r.seconds);
        p.plan = r.moves.as_deref().map(moves_to_string);
        p.unsolvable = r.status == NativeStatus::Unsolvable;
        write_progress(d, set, &p)?;
    }
    r.nodes += nodes_before;
    r.seconds += seconds_before;
    let mut row = row_of(case, r);
    row.resumed_from = saved.map(|p| p.lower_bound);
    Ok(row)
}

/// An instance's row from its checkpoint: its plan replayed again, never trusted.
fn row_of_progress(case: &BenchCase, p: &InstanceProgress) -> Result<BenchRow, SearchError> {
    let moves = p
        .plan
        .as_deref()
        .map(|plan| crate::puzzle::sliding::parse_moves(plan, "checkpoint plan"))
        .transpose()
        .map_err(|e| SearchError::Checkpoint(format!("{} instance {}: {e}", p.set, p.id)))?;
    let status = if moves.is_some() {
        NativeStatus::Solved
    } else if p.unsolvable {
        NativeStatus::Unsolvable
    } else {
        NativeStatus::TimeLimit
    };
    let mut row = row_of(
        case,
        NativeResult {
            status,
            proven_optimal: status == NativeStatus::Solved,
            moves,
            lower_bound: p.lower_bound,
            nodes: p.nodes,
            initial_h: 0,
            seconds: p.seconds,
        },
    );
    row.from_checkpoint = true;
    Ok(row)
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
        published_expanded: case.published_expanded,
        seconds: r.seconds,
        ok: false,
        error: None,
        resumed_from: None,
        from_checkpoint: false,
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A report that searches nothing shows an instance whose checkpoint has a bound but no
    /// plan, with time left, as unfinished (not as a time limit), and one whose limit is
    /// spent as a time limit.
    #[test]
    fn a_report_tells_unfinished_instances_from_spent_limits() {
        let dir = tempfile::tempdir().unwrap();
        let set = BenchSet::Korf100;
        let progress = |id: u32, seconds: f64| InstanceProgress {
            schema: CHECKPOINT_SCHEMA.into(),
            set: set.name().into(),
            id,
            heuristic: "manhattan + linear conflict".into(),
            fsm: 0,
            bpmx: false,
            lower_bound: 41,
            nodes: 1000,
            seconds,
            plan: None,
            unsolvable: false,
        };
        write_progress(dir.path(), set, &progress(1, 0.5)).unwrap();
        write_progress(dir.path(), set, &progress(2, 9.0)).unwrap();
        let opts = BenchOptions {
            limit: None,
            ids: vec![1, 2],
            time_limit: Some(Duration::from_secs(5)),
            jobs: 1,
            interleave: 1,
            native: NativeOptions {
                manhattan_only: true,
                ..Default::default()
            },
            pdb: None,
            max_with: None,
            checkpoint: Some(dir.path().to_path_buf()),
            report_only: true,
        };
        let mut out = Vec::new();
        let o = run(set, &opts, &mut out, &|_| {}).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!((o.summary.unfinished, o.summary.timeouts), (1, 1), "{text}");
        assert!(text.contains("unfinished (lower bound 41)"), "{text}");
        assert!(text.contains("time limit (lower bound 41)"), "{text}");
        assert!(
            o.rows
                .iter()
                .all(|r| r.from_checkpoint && r.found.is_none())
        );
        // Reporting only never searches, so it never loads the tables.
        assert!(text.contains("databases none"), "{text}");
    }
}
