//! `tilekit bench edge`: the search constructors (`beam` and `dfs`, and the Salassa
//! greedy start for reference) on the META 2010 10×10 to 16×16 instances and the official
//! Eternity II set (its starter piece fixed, as the puzzle requires; `EII-clues`, asked for
//! by name, fixes all five official clues), for a budget and a
//! number of runs (seeds 1..=runs); best, mean and worst beside the published anchors, the
//! score-over-time traces, and an SVG chart of score against time per instance with one line
//! per method. Every board is verified by the independent checker before it is counted, and
//! [`EdgeBenchOptions::boards`] keeps each instance's best board with the command that rebuilds it.

use super::sal::{SalInstance, pick};
use super::{Column, Outcome, Table};
use crate::field::Field;
use crate::puzzle::edge::{Board, EdgePuzzle};
use crate::route::edge_heuristic::{Construct, ConstructKind, HeuristicPlan, Improve, ImproveKind};
use crate::route::{Error, Progress};
use crate::solve::Limits;
use crate::solve::registry::Registry;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The published and measured anchors per instance: Salassa et al.'s Table 5, Wauters et
/// al. 2012, and the best 60-second single-core method of the open raphael-anjou/eternity2
/// solvers as measured on this project's machine (`docs/results/edge-heuristics.md`:
/// wide beam on META 10–14, its Verhaard-style DFS on META 16×16 and on EII with the starter
/// fixed).
pub const ANCHORS: [(&str, u32, u32, u32); 5] = [
    ("10x10", 172, 172, 172),
    ("12x12", 252, 254, 252),
    ("14x14", 344, 348, 347),
    ("16x16", 457, 460, 458),
    ("EII", 457, 461, 457),
];

/// The Eternity II starter: piece 139 at row 8, column 7, two quarter turns.
pub use crate::route::edge_heuristic::STARTER;

/// A method of `bench edge`: a constructor, optionally followed by the large-neighbourhood
/// search (`beam+lns`), which then gets [`EdgeMethod::LNS_SHARE`] of the budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EdgeMethod {
    /// How the first board is built.
    pub construct: ConstructKind,
    /// Whether the LNS improves it.
    pub lns: bool,
}

impl EdgeMethod {
    /// The share of the budget the LNS gets after a construction: the beam's wider passes
    /// are worth more than a long LNS on these boards
    /// (`docs/results/edge-heuristics.md#lns-on-beam-boards`), and the LNS finds what it
    /// finds in its first seconds.
    pub const LNS_SHARE: f64 = 0.1;

    /// `beam`, `dfs`, `greedy`, `backtrack`, `random`, each optionally `+lns`.
    pub fn parse(s: &str) -> Result<EdgeMethod, String> {
        let (base, lns) = match s.strip_suffix("+lns") {
            Some(b) => (b, true),
            None => (s, false),
        };
        let construct = [
            ConstructKind::Beam,
            ConstructKind::Dfs,
            ConstructKind::Greedy,
            ConstructKind::Backtrack,
            ConstructKind::Random,
        ]
        .into_iter()
        .find(|c| c.name() == base)
        .ok_or_else(|| {
            format!(
                "{} {s}: bench edge takes beam, dfs, greedy, backtrack or random, each optionally followed by +lns", Field::Methods
            )
        })?;
        Ok(EdgeMethod { construct, lns })
    }

    /// The name [`parse`](Self::parse) reads back.
    pub fn name(self) -> String {
        format!(
            "{}{}",
            self.construct.name(),
            if self.lns { "+lns" } else { "" }
        )
    }

    /// The plan of one run: the construction, and with `+lns` the LNS after it, the
    /// search constructions keeping all but [`Self::LNS_SHARE`] of the budget.
    fn plan(self, budget: f64, seed: u64) -> HeuristicPlan {
        let mut construct = Construct::new(self.construct);
        if self.lns
            && let Construct::Beam { search, .. } | Construct::Dfs { search, .. } = &mut construct
        {
            search.time = Some(Duration::from_secs_f64(budget * (1.0 - Self::LNS_SHARE)));
        }
        let mut plan = HeuristicPlan::paper().construct_with(construct);
        plan.improve = Improve::new(if self.lns {
            ImproveKind::Lns
        } else {
            ImproveKind::None
        });
        plan.seed = seed;
        plan
    }
}

/// What `bench edge` runs.
#[derive(Debug, Clone)]
pub struct EdgeBenchOptions {
    /// Instances by name (`10x10`, …, `EII`, and `EII-clues`: Eternity II with its five
    /// official clues fixed); empty: the first five.
    pub instances: Vec<String>,
    /// Methods: beam, dfs, greedy, …, each optionally with the LNS after it.
    pub methods: Vec<EdgeMethod>,
    /// Seconds per run.
    pub budget: f64,
    /// Runs (seeds 1..=runs) per instance and method.
    pub runs: usize,
    /// Threads per run.
    pub threads: u32,
    /// Where each instance × method's best board goes (with the command).
    pub boards: Option<PathBuf>,
    /// Where the score-over-time charts go (one SVG per instance).
    pub svg: Option<PathBuf>,
    /// Where each run's result is kept (`INST-METHOD-seedS.json`), and a depth-first
    /// search's anytime board and checkpoint: the same benchmark again reports the finished
    /// runs from there (their boards judged again) and continues the others.
    pub checkpoint: Option<PathBuf>,
    /// Run nothing: report the runs finished in [`Self::checkpoint`] and count the others
    /// as unfinished.
    pub report_only: bool,
}

/// One instance × method: the runs' scores and traces.
#[derive(Debug, Clone, serde::Serialize)]
pub struct EdgeBenchRow {
    /// Instance.
    pub instance: String,
    /// Method.
    pub method: String,
    /// Seconds per run.
    pub budget: f64,
    /// Threads per run.
    pub threads: u32,
    /// Matched seams per run (seed order).
    pub matched: Vec<usize>,
    /// Best, mean and worst.
    pub best: usize,
    /// Mean.
    pub mean: f64,
    /// Worst.
    pub worst: usize,
    /// Per run: (seconds, matched) at each improvement.
    pub traces: Vec<Vec<(f64, usize)>>,
    /// Runs that continued a depth-first search from a checkpoint.
    pub resumed: usize,
    /// Runs reported from the checkpoint directory without running.
    pub from_checkpoint: usize,
    /// Salassa Table 5, Wauters 2012, the open peer's best in 60 s.
    pub anchors: Option<(u32, u32, u32)>,
}

/// Eternity II with all five official clues fixed: asked for by name only, beside `EII`.
const EII_CLUES: &str = "EII-clues";

/// The instances `names` asks for: those of Salassa et al.'s Table 3, and [`EII_CLUES`].
fn pick_edge(names: &[String]) -> Result<Vec<SalInstance>, Error> {
    let clues = |n: &String| n.eq_ignore_ascii_case(EII_CLUES);
    let mut chosen = Vec::new();
    for name in names {
        if clues(name) {
            let eii = pick(&["EII".to_string()], "edge")?[0];
            chosen.push(SalInstance {
                name: EII_CLUES,
                ..eii
            });
        } else {
            chosen.extend(pick(std::slice::from_ref(name), "edge").map_err(|_| {
                Error::Usage(format!(
                    "no instance {name:?} in bench edge: the instances are 10x10, 12x12, 14x14, 16x16, EII and EII-clues"
                ))
            })?);
        }
    }
    if names.is_empty() {
        chosen = pick(&[], "edge")?;
    }
    Ok(chosen)
}

/// The file an instance is read from in the repository (for the command kept with a board).
fn source_path(name: &str) -> String {
    match name {
        "EII" | EII_CLUES => "models/edge-matching/eternity2/e2pieces.txt".into(),
        n => format!("models/edge-matching/meta2010/pieces_{n}.txt"),
    }
}

/// The table: each instance × method over its runs, then the published anchors.
const TABLE: Table = Table::new(&[
    Column::left("inst", 9),
    Column::left("method", 8),
    Column::right("budget", 7),
    Column::right("cores", 5),
    Column::right("runs", 4),
    Column::right("best", 5),
    Column::right("mean", 7),
    Column::right("worst", 5),
    Column::right("Salassa", 7),
    Column::right("Wauters", 7),
    Column::right("peer 60s", 8),
]);

/// The run's settings, and the best method on each instance.
#[derive(Debug, Clone, serde::Serialize)]
pub struct EdgeBenchSummary {
    /// Seconds per run.
    pub budget: f64,
    /// Runs per instance and method.
    pub runs: usize,
    /// Threads per run.
    pub threads: u32,
    /// Per instance, the method with the best board (the first listed on a tie).
    pub best: Vec<EdgeBest>,
    /// Runs not finished in the checkpoint directory (a report-only run's, or a Slurm
    /// task's that did not end).
    pub unfinished: usize,
}

/// The best board on one instance, and which method found it.
#[derive(Debug, Clone, serde::Serialize)]
pub struct EdgeBest {
    /// Instance.
    pub instance: String,
    /// Method.
    pub method: String,
    /// Matched seams.
    pub best: usize,
}

/// The schema of one finished run's file in a checkpoint directory.
pub const EDGE_RUN_SCHEMA: &str = "tilekit-edge-run/1";

/// One finished run, as a checkpoint directory keeps it (`DIR/INST-METHOD-seedS.json`).
/// Read back, its board is judged again by the independent checker: the file is never
/// trusted for a score.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EdgeRun {
    /// [`EDGE_RUN_SCHEMA`].
    pub schema: String,
    /// Instance.
    pub instance: String,
    /// Method.
    pub method: String,
    /// Seconds the run was given.
    pub budget: f64,
    /// Threads.
    pub threads: u32,
    /// Seed.
    pub seed: u64,
    /// Seconds it ran, over every part when it was resumed.
    pub seconds: f64,
    /// Whether it continued a depth-first search an earlier, stopped run had checkpointed.
    pub resumed: bool,
    /// (seconds, matched) at each improvement; a resumed run's trace starts where its
    /// checkpoint left off.
    pub trace: Vec<(f64, usize)>,
    /// The board, in the board file format.
    pub board: String,
}

/// The file stem of one run in a checkpoint directory.
fn run_key(instance: &str, method: EdgeMethod, seed: u64) -> String {
    format!("{instance}-{}-seed{seed}", method.name())
}

/// One run of `method` on an instance: its verified board and score, and how it went.
struct RunResult {
    matched: usize,
    board: Board,
    trace: Vec<(f64, usize)>,
    resumed: bool,
    from_checkpoint: bool,
}

/// An instance of the benchmark, read: the puzzle and the pieces it fixes.
struct Instance {
    name: &'static str,
    puzzle: EdgePuzzle,
    fixes: Vec<crate::route::edge_heuristic::Fix>,
}

impl Instance {
    fn read(inst: &super::sal::SalInstance) -> Result<Instance, Error> {
        Ok(Instance {
            name: inst.name,
            puzzle: EdgePuzzle::parse(inst.text, inst.name)?,
            fixes: match inst.name {
                "EII" => vec![STARTER],
                EII_CLUES => crate::route::edge_heuristic::CLUES.to_vec(),
                _ => Vec::new(),
            },
        })
    }

    /// Judge `board` by the independent checker: its matched seams, or why it fails
    /// (a broken board, or a fixed piece out of its place).
    fn judge(&self, board: &Board) -> Result<usize, String> {
        let v = crate::verify::edge::BoardChecker.verdict(&self.puzzle, board, None);
        if !v.valid {
            return Err(v.errors.join("; "));
        }
        for f in &self.fixes {
            if !f.holds_on(board) {
                return Err(format!(
                    "piece {} is not at row {}, column {}, turned {}, where the benchmark fixes it",
                    f.piece, f.row, f.col, f.rot
                ));
            }
        }
        Ok(v.matched)
    }
}

/// A finished run read back from `dir`, its board judged again; `None` when the run has not
/// finished there. A file of another benchmark (budget, threads) or a damaged one is an
/// error, and is left as it is.
fn read_run(
    dir: &Path,
    inst: &Instance,
    method: EdgeMethod,
    seed: u64,
    opts: &EdgeBenchOptions,
) -> Result<Option<RunResult>, Error> {
    let path = dir.join(format!("{}.json", run_key(inst.name, method, seed)));
    if !path.exists() {
        return Ok(None);
    }
    let text = crate::route::read_text(&path, "benchmark run")?;
    let run: EdgeRun = serde_json::from_str(&text).map_err(|e| {
        Error::Usage(format!(
            "{}: not a run of bench edge ({e}); remove it to run it again",
            path.display()
        ))
    })?;
    if run.schema != EDGE_RUN_SCHEMA
        || run.instance != inst.name
        || run.method != method.name()
        || run.seed != seed
        || run.budget != opts.budget
        || run.threads != opts.threads
    {
        return Err(Error::Usage(format!(
            "{}: a run of another benchmark ({} s on {} thread(s), not {} s on {}); use another checkpoint directory",
            path.display(),
            run.budget,
            run.threads,
            opts.budget,
            opts.threads
        )));
    }
    let board = crate::puzzle::edge::parse_board(
        &run.board,
        &path.display().to_string(),
        Some(&inst.puzzle),
    )?;
    let matched = inst.judge(&board).map_err(|why| {
        Error::Usage(format!(
            "{}: the board fails the independent checker: {why}; remove the file to run it again",
            path.display()
        ))
    })?;
    Ok(Some(RunResult {
        matched,
        board,
        trace: run.trace,
        resumed: run.resumed,
        from_checkpoint: true,
    }))
}

/// Run `method` on `inst` with `seed`, or report it from the checkpoint directory when it
/// finished there. With a directory, a depth-first search keeps its anytime board and
/// checkpoint there (`KEY.board.txt`, `KEY.board.txt.dfs.json`) and continues a stopped one
/// for what is left of the budget; the finished run is written as `KEY.json`. `None`: not
/// finished, and [`EdgeBenchOptions::report_only`] forbids running it.
fn one_run(
    inst: &Instance,
    method: EdgeMethod,
    seed: u64,
    opts: &EdgeBenchOptions,
    registry: &Registry,
    progress: Progress<'_>,
) -> Result<Option<RunResult>, Error> {
    if let Some(dir) = &opts.checkpoint {
        if let Some(done) = read_run(dir, inst, method, seed, opts)? {
            return Ok(Some(done));
        }
        if opts.report_only {
            return Ok(None);
        }
    }
    let key = run_key(inst.name, method, seed);
    let mut plan = method.plan(opts.budget, seed);
    plan.fixes = inst.fixes.clone();
    // Seconds an earlier, stopped run of this depth-first search spent.
    let mut earlier = None;
    if let (Some(dir), ConstructKind::Dfs) = (&opts.checkpoint, method.construct) {
        let board = dir.join(format!("{key}.board.txt"));
        let ck = crate::route::edge_heuristic::checkpoint_path(&board, "dfs");
        earlier = crate::route::edge_heuristic::read_checkpoint::<
            crate::edge_search::dfs::DfsCheckpoint,
        >(Some(&ck), "depth-first search")?
        .map(|c| (c.elapsed_ms as f64 / 1000.0, c.best.map(|b| b.0)));
        plan.best_so_far = Some(board);
    }
    let before = earlier.map_or(0.0, |e| e.0);
    // A run stopped after its budget still gets a moment to finish its board.
    let left = Duration::from_secs_f64((opts.budget - before).max(0.5));
    let limits = Limits::new(left, opts.threads);
    let t0 = std::time::Instant::now();
    let rep = crate::route::edge_heuristic::solve(
        &inst.puzzle,
        &plan,
        "microlp",
        registry,
        &limits,
        progress,
    )?;
    let seconds = before + t0.elapsed().as_secs_f64();
    let Some(crate::route::Solution::Board(board)) = rep.solution.clone() else {
        return Err(Error::Failure(format!(
            "{} {} seed {seed}: no board: {}",
            inst.name,
            method.name(),
            rep.errors.join("; ")
        )));
    };
    // Judged here, apart from the route's own verification.
    let matched = inst.judge(&board).map_err(|why| {
        Error::Failure(format!(
            "{} {} seed {seed}: the board fails the independent checker: {why}",
            inst.name,
            method.name()
        ))
    })?;
    if !rep.verified || rep.matched() != Some(matched) {
        return Err(Error::Failure(format!(
            "{} {} seed {seed}: the board failed verification: {}",
            inst.name,
            method.name(),
            rep.errors.join("; ")
        )));
    }
    // A resumed run's trace starts with the board its checkpoint kept.
    let trace: Vec<(f64, usize)> = earlier
        .and_then(|e| Some((e.0, e.1?)))
        .into_iter()
        .chain(
            rep.heuristic
                .iter()
                .flat_map(|h| h.trace.iter().map(|t| (before + t.seconds, t.matched))),
        )
        .collect();
    if let Some(dir) = &opts.checkpoint {
        let run = EdgeRun {
            schema: EDGE_RUN_SCHEMA.into(),
            instance: inst.name.into(),
            method: method.name(),
            budget: opts.budget,
            threads: opts.threads,
            seed,
            seconds,
            resumed: earlier.is_some(),
            trace: trace.clone(),
            board: board.to_text_with_colours(&inst.puzzle),
        };
        let json = serde_json::to_string(&run).map_err(Error::failure)?;
        crate::route::output::write_to(Some(&dir.join(format!("{key}.json"))), json.as_bytes())?;
    }
    Ok(Some(RunResult {
        matched,
        board,
        trace,
        resumed: earlier.is_some(),
        from_checkpoint: false,
    }))
}

/// Run one run of the benchmark (an instance, a method and a seed) into the checkpoint
/// directory: what each array task of a Slurm run does. Its matched seams.
pub fn run_one(
    opts: &EdgeBenchOptions,
    instance: &str,
    method: EdgeMethod,
    seed: u64,
    progress: Progress<'_>,
) -> Result<usize, Error> {
    let chosen = pick_edge(&[instance.to_string()])?;
    let inst = Instance::read(&chosen[0])?;
    let registry = Registry::load(None)?;
    let r = one_run(&inst, method, seed, opts, &registry, progress)?
        .ok_or_else(|| Error::Usage("a report-only run runs nothing".into()))?;
    Ok(r.matched)
}

/// The runs of a benchmark still to do in its checkpoint directory: (instance, method,
/// seed) of each run without a finished file there.
pub fn pending(opts: &EdgeBenchOptions) -> Result<Vec<(String, EdgeMethod, u64)>, Error> {
    let chosen = pick_edge(&opts.instances)?;
    let Some(dir) = &opts.checkpoint else {
        return Err(Error::Usage(format!(
            "the pending runs are those of a {} directory",
            Field::Checkpoint
        )));
    };
    let mut todo = Vec::new();
    for inst in &chosen {
        for &method in &opts.methods {
            for seed in 1..=opts.runs as u64 {
                if !dir
                    .join(format!("{}.json", run_key(inst.name, method, seed)))
                    .exists()
                {
                    todo.push((inst.name.to_string(), method, seed));
                }
            }
        }
    }
    Ok(todo)
}

/// Run the benchmark, writing each row to `out` as it completes; returns every row.
pub fn run(
    opts: &EdgeBenchOptions,
    out: &mut dyn Write,
    progress: Progress<'_>,
) -> Result<Outcome<EdgeBenchRow, EdgeBenchSummary>, Error> {
    let chosen = pick_edge(&opts.instances)?;
    if opts.runs == 0 {
        return Err(Error::usage(format!("{} must be at least 1", Field::Runs)));
    }
    crate::route::seconds(Field::Budget, opts.budget)?;
    if opts.methods.is_empty() {
        return Err(Error::usage(format!(
            "{} needs at least one of beam, dfs, greedy",
            Field::Methods
        )));
    }
    for dir in [&opts.boards, &opts.svg, &opts.checkpoint]
        .into_iter()
        .flatten()
    {
        std::fs::create_dir_all(dir)
            .map_err(|e| Error::Failure(format!("cannot create {}: {e}", dir.display())))?;
    }
    let registry = Registry::load(None)?;
    let io = crate::route::output::stdout_write_error;
    writeln!(out, "{}", TABLE.header()).map_err(io)?;
    let mut rows = Vec::new();
    let mut unfinished = 0;
    for inst in &chosen {
        let inst = Instance::read(inst)?;
        let p = &inst.puzzle;
        let mut inst_rows = Vec::new();
        for &method in &opts.methods {
            let mut scores = Vec::new();
            let mut traces = Vec::new();
            let (mut resumed, mut from_checkpoint) = (0, 0);
            let mut best: Option<(usize, Board, u64)> = None;
            for seed in 1..=opts.runs as u64 {
                progress(&format!(
                    "bench edge: {} {}, run {seed} of {}",
                    inst.name,
                    method.name(),
                    opts.runs
                ));
                let Some(r) = one_run(&inst, method, seed, opts, &registry, progress)? else {
                    unfinished += 1;
                    continue;
                };
                scores.push(r.matched);
                traces.push(r.trace);
                resumed += usize::from(r.resumed);
                from_checkpoint += usize::from(r.from_checkpoint);
                if best.as_ref().is_none_or(|b| r.matched > b.0) {
                    best = Some((r.matched, r.board, seed));
                }
            }
            let n = scores.len().max(1) as f64;
            let row = EdgeBenchRow {
                instance: inst.name.to_string(),
                method: method.name(),
                budget: opts.budget,
                threads: opts.threads,
                best: scores.iter().copied().max().unwrap_or(0),
                worst: scores.iter().copied().min().unwrap_or(0),
                mean: scores.iter().sum::<usize>() as f64 / n,
                matched: scores,
                traces,
                resumed,
                from_checkpoint,
                anchors: ANCHORS
                    .iter()
                    .find(|a| a.0 == inst.name)
                    .map(|a| (a.1, a.2, a.3)),
            };
            let [salassa, wauters, peer] = row.anchors.map_or_else(
                || ["-".to_string(), "-".into(), "-".into()],
                |(a, b, c)| [a.to_string(), b.to_string(), c.to_string()],
            );
            let none = row.matched.is_empty();
            let or_dash = |s: String| if none { "-".to_string() } else { s };
            let cells = [
                row.instance.clone(),
                row.method.clone(),
                format!("{:.0}s", row.budget),
                row.threads.to_string(),
                row.matched.len().to_string(),
                or_dash(row.best.to_string()),
                or_dash(format!("{:.2}", row.mean)),
                or_dash(row.worst.to_string()),
                salassa,
                wauters,
                peer,
            ];
            writeln!(out, "{}", TABLE.row(&cells)).map_err(io)?;
            if let (Some(dir), Some((m, board, seed))) = (&opts.boards, &best) {
                keep_board(dir, inst.name, p, board, *m, method, *seed, opts)?;
            }
            inst_rows.push(row);
        }
        if let Some(dir) = &opts.svg {
            let path = dir.join(format!("bench-edge-{}.svg", inst.name));
            let svg = chart(inst.name, p.max_score(), &inst_rows)?;
            crate::route::output::write_to(Some(&path), svg.as_bytes())?;
        }
        rows.extend(inst_rows);
    }
    if unfinished > 0 {
        writeln!(
            out,
            "{unfinished} run(s) unfinished in the checkpoint directory: run the same command again to finish them"
        )
        .map_err(io)?;
    }
    let best = rows
        .iter()
        .filter(|r| !r.matched.is_empty())
        .map(|r| (r.instance.clone(), r.method.clone(), r.best))
        .fold(
            Vec::<EdgeBest>::new(),
            |mut acc, (instance, method, best)| {
                match acc.iter_mut().find(|b| b.instance == instance) {
                    Some(b) if b.best >= best => {}
                    Some(b) => (b.method, b.best) = (method, best),
                    None => acc.push(EdgeBest {
                        instance,
                        method,
                        best,
                    }),
                }
                acc
            },
        );
    Ok(Outcome {
        benchmark: "edge".into(),
        rows,
        summary: EdgeBenchSummary {
            budget: opts.budget,
            runs: opts.runs,
            threads: opts.threads,
            best,
            unfinished,
        },
    })
}

/// Keep `board` (verified) as `DIR/INST-METHOD-BUDGETs.txt`, headed by the command that
/// rebuilds it (with one thread the board is a function of the seed only when the DFS is
/// also given a restart count; a timed run is reproduced in score, not bit for bit).
#[allow(
    clippy::too_many_arguments,
    reason = "the board and everything its header names"
)]
fn keep_board(
    dir: &Path,
    name: &str,
    p: &EdgePuzzle,
    board: &Board,
    matched: usize,
    method: EdgeMethod,
    seed: u64,
    opts: &EdgeBenchOptions,
) -> Result<(), Error> {
    let plan = method.plan(opts.budget, seed);
    let mut cmd = format!(
        "tilekit solve {} {f_via} heuristic {f_construct} {} {f_improve} {} {f_time_limit} {} {f_threads} {} {f_seed} {seed}",
        source_path(name),
        method.construct.name(),
        plan.improve.name(),
        opts.budget,
        opts.threads,
        f_via = Field::Via,
        f_construct = Field::Construct,
        f_improve = Field::Improve,
        f_time_limit = Field::TimeLimit,
        f_threads = Field::Threads,
        f_seed = Field::Seed
    );
    if let Construct::Beam { search, .. } | Construct::Dfs { search, .. } = &plan.construct
        && let Some(t) = search.time
    {
        cmd.push_str(&format!(
            " {f_set} search.time={}",
            t.as_secs_f64(),
            f_set = Field::Set
        ));
    }
    match name {
        "EII" => cmd.push_str(&format!(" {} 139@8,7,2", Field::Fix)),
        EII_CLUES => cmd.push_str(&format!(" {} clues", Field::Fix)),
        _ => {}
    }
    let text = format!(
        "# {name}: {matched} of {} matched, verified by tilekit's independent checker\n# built by: {cmd}\n# (tilekit bench edge, {} s, {} thread(s), seed {seed}; a timed run reproduces the score's range, not the exact board)\n{}",
        p.max_score(),
        opts.budget,
        opts.threads,
        board.to_text_with_colours(p)
    );
    let path = dir.join(format!("{name}-{}-{}s.txt", method.name(), opts.budget));
    crate::route::output::write_to(Some(&path), text.as_bytes())
}

/// Score against time for every method on one instance: each run's trace as a step line.
pub fn chart(name: &str, max: usize, rows: &[EdgeBenchRow]) -> Result<String, Error> {
    use plotters::prelude::*;
    let t_max = rows.iter().map(|r| r.budget).fold(1.0f64, f64::max);
    let lo = rows
        .iter()
        .flat_map(|r| r.traces.iter().flatten().map(|t| t.1))
        .min()
        .unwrap_or(0);
    let hi = rows
        .iter()
        .flat_map(|r| r.traces.iter().flatten().map(|t| t.1))
        .max()
        .unwrap_or(max)
        .max(lo + 1);
    super::svg((720, 420), |root| {
        let mut ch = ChartBuilder::on(root)
            .caption(
                format!("{name}: matched seams (of {max}) against time"),
                ("sans-serif", 18),
            )
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(48)
            .build_cartesian_2d(
                0f64..t_max * 1.02,
                (lo.saturating_sub(2)) as f64..(hi + 1) as f64,
            )
            .map_err(|e| e.to_string())?;
        ch.configure_mesh()
            .x_desc("seconds")
            .y_desc("matched")
            .draw()
            .map_err(|e| e.to_string())?;
        let palette = [&BLUE, &RED, &GREEN, &MAGENTA, &CYAN, &BLACK];
        for (i, row) in rows.iter().enumerate() {
            let colour = palette[i % palette.len()];
            for (k, trace) in row.traces.iter().enumerate() {
                // A step line: a score holds until the next improvement, then to the budget.
                let mut pts = Vec::new();
                for w in trace.windows(2) {
                    pts.push((w[0].0, w[0].1 as f64));
                    pts.push((w[1].0, w[0].1 as f64));
                }
                if let Some(last) = trace.last() {
                    pts.push((last.0, last.1 as f64));
                    pts.push((row.budget, last.1 as f64));
                }
                let series = ch
                    .draw_series(LineSeries::new(pts, colour.stroke_width(2)))
                    .map_err(|e| e.to_string())?;
                if k == 0 {
                    let label = format!("{} (best {})", row.method, row.best);
                    series.label(label).legend(move |(x, y)| {
                        PathElement::new(vec![(x, y), (x + 16, y)], colour.stroke_width(2))
                    });
                }
            }
        }
        super::legend(&mut ch)?;
        Ok(())
    })
}
