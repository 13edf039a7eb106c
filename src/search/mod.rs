//! The native optimal solver for sliding puzzles: IDA* with additive pattern databases
//! (the 15-puzzle: 7-8, 7-7-1 or 6-6-3; the 24-puzzle: 6-6-6-6; max with the diagonal
//! reflection) or Manhattan distance + linear conflict (every other board, and the 24-puzzle
//! until its databases are built). Plans come back as [`Move`]s for the caller's goal
//! convention and are meant to be replayed by the independent verifier, not trusted.
//!
//! The search itself always runs towards the blank-first goal. A blank-last instance is
//! relabelled first (cell `p → n−1−p`, tile `t → n−t`, a 180° rotation that preserves every
//! distance), and the plan is mapped back by reversing each direction.

pub mod ann;
pub mod astar;
pub mod beam;
pub mod fsm;
pub mod ida;
pub mod manhattan;
pub mod max;
pub mod moves;
pub mod pdb;
pub mod pdb_regions;
pub mod rank;
pub mod sat_horizon;
pub mod sets;

use crate::field::Field;
use crate::puzzle::sliding::{Goal, Move, SlidingPuzzle};
use ida::{DOWN, IdaOutcome, LEFT, RIGHT, UP};
use manhattan::ManhattanLc;
use pdb::{AdditivePdb, DbInfo, Partition, PdbError};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The prefix of a progress message worth keeping on screen (a database being built, the
/// horizon `auto` chose), not only as the latest status of a live line.
pub const NOTICE: &str = "notice: ";

/// Ask the memory system for `items[at]` without waiting for it (a hint: nothing happens
/// where the processor has no such instruction). The interleaved search requests its table
/// and automaton reads this way one step before it needs them.
#[inline(always)]
pub(crate) fn prefetch<T>(items: &[T], at: usize) {
    debug_assert!(at < items.len());
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: a prefetch never faults, and the address is computed without a dereference.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(items.as_ptr().wrapping_add(at) as *const i8) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (items, at);
}

/// The prefix of a progress message that reports work with a known total, written
/// `step: DONE/TOTAL text` by [`step`] and read back by [`Line::parse`].
pub const STEP: &str = "step: ";

/// A progress message for work with a known total: `done` of `total` units, and `text`
/// saying what they are. A front end draws a bar from it; `text` alone must still read well.
pub fn step(done: u64, total: u64, text: &str) -> String {
    format!("{STEP}{done}/{total} {text}")
}

/// A progress message, read back from the line the library sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line<'a> {
    /// The latest status of work under way.
    Status(&'a str),
    /// A message worth keeping on screen ([`NOTICE`]).
    Notice(&'a str),
    /// Work with a known total ([`step`]).
    Step {
        /// Units done.
        done: u64,
        /// Units in all (at least `done`).
        total: u64,
        /// What the work is, as a status line.
        text: &'a str,
    },
}

impl<'a> Line<'a> {
    /// Read a progress message. A `step:` line that does not parse is a plain status.
    pub fn parse(msg: &'a str) -> Line<'a> {
        if let Some(rest) = msg.strip_prefix(NOTICE) {
            return Line::Notice(rest);
        }
        let step = msg.strip_prefix(STEP).and_then(|rest| {
            let (count, text) = rest.split_once(' ')?;
            let (done, total) = count.split_once('/')?;
            let (done, total) = (done.parse().ok()?, total.parse().ok()?);
            Some(Line::Step {
                done: u64::min(done, total),
                total,
                text,
            })
        });
        step.unwrap_or(Line::Status(msg))
    }

    /// The text to show without a bar.
    pub fn text(self) -> &'a str {
        match self {
            Line::Status(t) | Line::Notice(t) | Line::Step { text: t, .. } => t,
        }
    }
}

/// Why the native solver cannot run.
#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    /// The board is outside what the solver handles.
    #[error(
        "the native solver handles boards with sides of at most {max} and at most 256 cells, not {rows}×{cols}"
    )]
    BoardTooLarge {
        /// Rows.
        rows: usize,
        /// Columns.
        cols: usize,
        /// Largest side.
        max: usize,
    },
    /// The solver was set up for another board size.
    #[error("this solver was set up for {0}, not for a {1}×{2} board")]
    WrongBoard(String, usize, usize),
    /// A bad pattern partition.
    #[error(transparent)]
    Pdb(#[from] PdbError),
    /// Options that cannot be run (a zero job count).
    #[error("{0}")]
    Options(String),
    /// The report could not be written.
    #[error("standard output: cannot write: {0}")]
    Output(std::io::Error),
    /// A checkpoint that cannot be read, belongs to another run, or cannot be written.
    #[error("{0}")]
    Checkpoint(String),
}

/// Settings of [`NativeSolver::new`]. The default partition: see
/// [`Partition::default_for`].
#[derive(Debug, Clone, Default)]
pub struct NativeOptions {
    /// Where pattern databases are cached (default: [`pdb::default_cache_dir`]).
    pub cache_dir: Option<PathBuf>,
    /// Use this partition instead of the default ([`Partition::default_for`]).
    pub partition: Option<Partition>,
    /// A second partition of the same board whose estimate (with its own reflection and,
    /// with `dual`, its own dual lookups) is maxed with the first's ([`max::Max`]). Refused
    /// with Manhattan + linear conflict and when it is the first partition.
    pub max_with: Option<Partition>,
    /// Skip pattern databases and use Manhattan distance + linear conflict.
    pub manhattan_only: bool,
    /// Add the dual lookups (and their reflection) to the pattern databases' maximum
    /// ([`AdditivePdb::with_dual`]); no effect on Manhattan + linear conflict (the
    /// heuristic's name says which lookups run).
    pub dual: bool,
    /// Propagate inconsistent values by bidirectional pathmax ([`ida::IdaOptions::bpmx`]).
    pub bpmx: bool,
    /// Prune move sequences of up to this many moves that duplicate earlier ones
    /// ([`fsm`]; 0: only undoing the last move is pruned; at most [`fsm::MAX_LEN`]; boards
    /// over [`fsm::MAX_CELLS`] cells have no automaton).
    pub fsm: usize,
    /// Threads per search ([`ida::search_parallel`]; 0 and 1: one).
    pub threads: usize,
    /// Give up building a pattern database once this passes ([`PdbError::TimeLimit`]);
    /// loading a cached one is never cut short. [`solve_one`] sets it from its time limit.
    pub build_deadline: Option<std::time::Instant>,
    /// [`solve_one`] under a time limit gives this share of it (at least [`INCUMBENT_LEAST`]
    /// when not 0) to the beam and weighted IDA* ([`incumbent`]) first: a plan beside the
    /// bound when the optimal search does not finish. 0 (the default): none. The route's
    /// default is [`INCUMBENT_SHARE`].
    pub incumbent_share: f64,
    /// Store one iteration's frontier, at most this many nodes (64 bytes each), and run the
    /// later iterations from it in Bu & Korf's order ([`ida::IdaOptions::stored_frontier`])
    /// when no plan is known yet ([`NativeSolver::solve_below`] without one); 0 (the
    /// default): never. The route's default is [`default_frontier`].
    pub frontier: usize,
}

/// The largest frontier the route stores unless told otherwise ([`NativeOptions::frontier`],
/// [`default_frontier`]): 16,777,216 nodes, 1 GiB.
pub const STORED_FRONTIER: usize = 1 << 24;

/// The frontier the route stores on a board of `cells` cells unless told otherwise:
/// [`STORED_FRONTIER`] from 25 cells, none below. A 15-puzzle search ends an iteration or
/// two after the one whose frontier would be stored, whose subtrees are then a few nodes
/// each: reading each one's board and table entries again cost more than the frontier saved
/// (Korf's 100 with 6-6-3 on two threads: 10.9 s against 3.9 s).
///
/// ```
/// use tilekit::search::{STORED_FRONTIER, default_frontier};
///
/// assert_eq!(default_frontier(16), 0);
/// assert_eq!(default_frontier(25), STORED_FRONTIER);
/// ```
pub fn default_frontier(cells: usize) -> usize {
    if cells >= 25 { STORED_FRONTIER } else { 0 }
}

/// Why a second partition needs a first: [`NativeOptions::max_with`] without pattern
/// databases.
pub fn max_with_none() -> String {
    format!(
        "{} maxes the estimates of two pattern partitions: not with none (Manhattan + linear conflict)",
        Field::MaxWith
    )
}

/// How a native solve ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NativeStatus {
    /// An optimal plan was found.
    Solved,
    /// The time limit passed first.
    TimeLimit,
    /// The board cannot reach the goal (wrong permutation parity).
    Unsolvable,
}

/// Where [`NativeSolver::solve_resumed`] starts and whom it tells of its progress.
#[derive(Clone, Copy, Default)]
pub struct Resume<'a> {
    /// A lower bound an earlier search of the same board and goal proved (0: none).
    pub from: u32,
    /// Told after every finished iteration: the bound now proven and the nodes this search
    /// has counted.
    pub on_iteration: Option<&'a (dyn Fn(u32, u64) + Sync)>,
}

/// The result of one native solve.
#[derive(Debug, Clone)]
pub struct NativeResult {
    /// Solved, stopped or unsolvable.
    pub status: NativeStatus,
    /// The optimal plan for the caller's goal (when solved).
    pub moves: Option<Vec<Move>>,
    /// Proven lower bound on the optimum (equal to it when solved).
    pub lower_bound: u32,
    /// Nodes visited over all IDA* iterations.
    pub nodes: u64,
    /// Heuristic of the start board.
    pub initial_h: u32,
    /// Search seconds (excluding database loading).
    pub seconds: f64,
    /// True when the plan is proven shortest: IDA* with an admissible heuristic exhausted
    /// every shorter bound. A search with an inadmissible heuristic must say `false`, and the
    /// routes then claim only a plan and a lower bound.
    pub proven_optimal: bool,
}

enum Engine {
    Pdb(Box<AdditivePdb>),
    /// Two partitions' estimates, maxed.
    Pdbs(Box<max::Max<AdditivePdb, AdditivePdb>>),
    Md(ManhattanLc),
}

/// The databases of one partition, with its dual tables when `opts.dual` asks for them.
fn load_partition(
    p: &Partition,
    opts: &NativeOptions,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<(AdditivePdb, DbInfo), SearchError> {
    let (db, mut info) = AdditivePdb::load_or_build_until(
        p,
        opts.cache_dir.as_deref(),
        progress,
        opts.build_deadline,
    )?;
    if !opts.dual {
        return Ok((db, info));
    }
    let (db, dual) = db.with_dual_cached(opts.cache_dir.as_deref(), progress);
    merge_info(&mut info, dual);
    Ok((db, info))
}

/// One report for several files: their seconds and bytes added, built if any was.
fn merge_info(info: &mut DbInfo, more: DbInfo) {
    info.seconds += more.seconds;
    info.bytes += more.bytes;
    if let pdb::DbSource::Built(_) = more.source {
        info.source = more.source;
    }
}

/// A solver for one board size, holding its heuristic (and loaded databases) for reuse.
pub struct NativeSolver {
    rows: usize,
    cols: usize,
    engine: Engine,
    db_info: Option<DbInfo>,
    bpmx: bool,
    fsm: Option<fsm::Fsm>,
    threads: usize,
    frontier: usize,
}

impl NativeSolver {
    /// Set up for `rows × cols` boards: the 15-puzzle loads (or builds) its pattern
    /// databases, any board takes a given partition, other boards use Manhattan + LC.
    pub fn new(
        rows: usize,
        cols: usize,
        opts: &NativeOptions,
        progress: &(dyn Fn(&str) + Sync),
    ) -> Result<Self, SearchError> {
        if rows > manhattan::MAX_SIDE || cols > manhattan::MAX_SIDE || rows * cols > 256 {
            return Err(SearchError::BoardTooLarge {
                rows,
                cols,
                max: manhattan::MAX_SIDE,
            });
        }
        let partition = match &opts.partition {
            _ if opts.manhattan_only => None,
            Some(p) => Some(p.clone()),
            None => Partition::default_for(
                rows,
                cols,
                &opts
                    .cache_dir
                    .clone()
                    .unwrap_or_else(pdb::default_cache_dir),
            )?,
        };
        let (engine, db_info) = match partition {
            Some(p) => {
                if (p.rows, p.cols) != (rows, cols) {
                    return Err(SearchError::WrongBoard(
                        format!("a {}×{} partition", p.rows, p.cols),
                        rows,
                        cols,
                    ));
                }
                if let Some(q) = &opts.max_with {
                    if (q.rows, q.cols) != (rows, cols) {
                        return Err(SearchError::WrongBoard(
                            format!("a {}×{} partition", q.rows, q.cols),
                            rows,
                            cols,
                        ));
                    }
                    if q == &p {
                        return Err(SearchError::Options(format!(
                            "{f_max_with}: the second partition ({}) is the one already in use",
                            q.label(),
                            f_max_with = Field::MaxWith
                        )));
                    }
                }
                let (db, mut info) = load_partition(&p, opts, progress)?;
                match &opts.max_with {
                    Some(q) => {
                        let (b, more) = load_partition(q, opts, progress)?;
                        merge_info(&mut info, more);
                        (Engine::Pdbs(Box::new(max::Max { a: db, b })), Some(info))
                    }
                    None => (Engine::Pdb(Box::new(db)), Some(info)),
                }
            }
            None if opts.max_with.is_some() => {
                return Err(SearchError::Options(max_with_none()));
            }
            None => (Engine::Md(ManhattanLc::new(rows, cols)), None),
        };
        Ok(NativeSolver {
            rows,
            cols,
            engine,
            db_info,
            bpmx: opts.bpmx,
            threads: opts.threads,
            frontier: opts.frontier,
            fsm: (opts.fsm > 0)
                .then(|| fsm::Fsm::build(rows, cols, opts.fsm))
                .flatten(),
        })
    }

    /// What the heuristic is, e.g. `pdb 6-6-3 + reflection`.
    pub fn heuristic_name(&self) -> String {
        let mut name = self.search_name();
        if self.threads > 1 {
            name += &format!(", {} threads", self.threads);
        }
        name
    }

    /// [`heuristic_name`](Self::heuristic_name) without the thread count: what decides the
    /// bounds and (but for the last iteration's order) the node counts.
    pub fn search_name(&self) -> String {
        let pdb = |db: &AdditivePdb| {
            format!(
                "pdb {}{}{}",
                db.partition().label(),
                if db.reflects() { " + reflection" } else { "" },
                match (db.duals(), db.reflects()) {
                    (true, true) => " + dual + dual reflection",
                    (true, false) => " + dual",
                    _ => "",
                }
            )
        };
        let name = match &self.engine {
            Engine::Pdb(db) => pdb(db),
            Engine::Pdbs(m) => format!("max of {} and {}", pdb(&m.a), pdb(&m.b)),
            Engine::Md(_) => "manhattan + linear conflict".into(),
        };
        let mut name = name + if self.bpmx { ", BPMX" } else { "" };
        if let Some(f) = &self.fsm {
            name += &format!(", FSM {} moves", f.max_len());
        }
        name
    }

    /// How the pattern databases were obtained (None for Manhattan + LC).
    pub fn db_info(&self) -> Option<&DbInfo> {
        self.db_info.as_ref()
    }

    /// The heuristic's estimate for `p` under `goal` (a lower bound on the optimum).
    pub fn estimate(&self, p: &SlidingPuzzle, goal: Goal) -> Result<u32, SearchError> {
        self.check_board(p)?;
        Ok(self.estimate_tiles(&blank_first_tiles(p, goal)))
    }

    /// The heuristic's estimate of a board in the search's convention (blank-first goal,
    /// one byte per cell): what best-first search keeps as its admissible bound.
    pub fn estimate_tiles(&self, tiles: &[u8]) -> u32 {
        use ida::Heuristic;
        match &self.engine {
            Engine::Pdb(h) => h.refine(&h.init(tiles)),
            Engine::Pdbs(h) => h.refine(&h.init(tiles)),
            Engine::Md(h) => h.refine(&h.init(tiles)),
        }
    }

    /// Rows and columns of the boards it is set up for.
    pub fn board(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    fn check_board(&self, p: &SlidingPuzzle) -> Result<(), SearchError> {
        if (p.rows(), p.cols()) != (self.rows, self.cols) {
            return Err(SearchError::WrongBoard(
                format!("{}×{} boards", self.rows, self.cols),
                p.rows(),
                p.cols(),
            ));
        }
        Ok(())
    }

    /// Solve `p` optimally for `goal`, giving up after `time_limit`.
    pub fn solve(
        &self,
        p: &SlidingPuzzle,
        goal: Goal,
        time_limit: Option<Duration>,
    ) -> Result<NativeResult, SearchError> {
        self.solve_below(p, goal, time_limit, None)
    }

    /// [`solve`](Self::solve) knowing a plan of `known` moves: the search stops with the
    /// time limit's status once its bound reaches `known`, which proves that plan optimal
    /// ([`ida::IdaOptions::stop_at`]), instead of searching the last iteration for another.
    pub fn solve_below(
        &self,
        p: &SlidingPuzzle,
        goal: Goal,
        time_limit: Option<Duration>,
        known: Option<u32>,
    ) -> Result<NativeResult, SearchError> {
        self.solve_with(p, goal, time_limit, known, Resume::default(), None)
    }

    /// [`solve_below`](Self::solve_below) that also stops, its bound proven, after an
    /// iteration when the next one is out of reach ([`ida::IdaOptions::give_up`]): forecast
    /// to need more than twice the time left, and the plan of length `known` at least `gap`
    /// moves above the bound (without a plan, never). The result then ends before the time
    /// limit, with the time that iteration would have wasted left to the caller.
    pub fn solve_below_within(
        &self,
        p: &SlidingPuzzle,
        goal: Goal,
        time_limit: Duration,
        known: Option<u32>,
        gap: u32,
    ) -> Result<NativeResult, SearchError> {
        // Without a plan there is nothing for the time to go to, so no stop.
        let give_up = known.map(|k| k.saturating_sub(gap));
        self.solve_with(p, goal, Some(time_limit), known, Resume::default(), give_up)
    }

    /// [`solve`](Self::solve) resumed: the search starts at `resume.from`, a lower bound an
    /// earlier search of the board proved, and tells `resume.on_iteration` each bound it
    /// proves with the nodes counted so far (a checkpoint to resume from after a kill).
    /// The result counts only this search's nodes and seconds.
    ///
    /// ```
    /// use std::sync::Mutex;
    /// use tilekit::puzzle::sliding::{Goal, SlidingPuzzle};
    /// use tilekit::search::{NativeOptions, NativeSolver, Resume};
    ///
    /// let p = SlidingPuzzle::parse("8 6 7\n2 5 4\n3 0 1\n", "p.txt", Goal::BlankLast).unwrap();
    /// let opts = NativeOptions { manhattan_only: true, ..Default::default() };
    /// let solver = NativeSolver::new(3, 3, &opts, &|_| {}).unwrap();
    /// let whole = solver.solve(&p, Goal::BlankLast, None).unwrap();
    /// // Prove a bound part of the way, then resume from it.
    /// let seen = Mutex::new(Vec::new());
    /// let note = |bound: u32, nodes: u64| seen.lock().unwrap().push((bound, nodes));
    /// solver.solve_resumed(&p, Goal::BlankLast, None, Resume { from: 0, on_iteration: Some(&note) }).unwrap();
    /// let (bound, nodes) = seen.lock().unwrap()[2];
    /// let rest = solver
    ///     .solve_resumed(&p, Goal::BlankLast, None, Resume { from: bound, on_iteration: None })
    ///     .unwrap();
    /// assert_eq!(rest.moves.as_ref().map(Vec::len), whole.moves.as_ref().map(Vec::len));
    /// assert_eq!(nodes + rest.nodes, whole.nodes);
    /// ```
    pub fn solve_resumed(
        &self,
        p: &SlidingPuzzle,
        goal: Goal,
        time_limit: Option<Duration>,
        resume: Resume<'_>,
    ) -> Result<NativeResult, SearchError> {
        self.solve_with(p, goal, time_limit, None, resume, None)
    }

    fn solve_with(
        &self,
        p: &SlidingPuzzle,
        goal: Goal,
        time_limit: Option<Duration>,
        known: Option<u32>,
        resume: Resume<'_>,
        give_up: Option<u32>,
    ) -> Result<NativeResult, SearchError> {
        self.check_board(p)?;
        let started = Instant::now();
        if !p.is_solvable(goal) {
            return Ok(NativeResult {
                status: NativeStatus::Unsolvable,
                moves: None,
                lower_bound: 0,
                nodes: 0,
                initial_h: 0,
                seconds: 0.0,
                proven_optimal: false,
            });
        }
        let tiles = blank_first_tiles(p, goal);
        let deadline = time_limit.map(|t| started + t);
        let ida = ida::IdaOptions {
            bpmx: self.bpmx,
            fsm: self.fsm.as_ref(),
            stop_at: known,
            start_at: resume.from,
            on_iteration: resume.on_iteration.map(ida::OnIteration),
            give_up,
            // Unused with `known` (two Korf–Felner boards solved within 60 s took 29.1 s and
            // 40.3 s with it, 23.6 s and 37.2 s without).
            stored_frontier: self.frontier,
        };
        let r = match &self.engine {
            Engine::Pdb(h) => {
                let h = &**h;
                ida::search_parallel(h, self.rows, self.cols, &tiles, deadline, ida, self.threads)
            }
            Engine::Pdbs(h) => {
                let h = &**h;
                ida::search_parallel(h, self.rows, self.cols, &tiles, deadline, ida, self.threads)
            }
            Engine::Md(h) => {
                ida::search_parallel(h, self.rows, self.cols, &tiles, deadline, ida, self.threads)
            }
        };
        Ok(native_result(r, goal, started))
    }

    /// A plan of at most `num / den` times the optimum, by weighted IDA* (the heuristic
    /// inflated by that ratio, [`ida::Inflated`]), far sooner than [`solve`](Self::solve)
    /// proves one: a result with [`NativeStatus::Solved`] and `proven_optimal` false, or the
    /// time limit with no bound worth keeping (0: an inflated search proves none).
    pub fn solve_weighted(
        &self,
        p: &SlidingPuzzle,
        goal: Goal,
        (num, den): (u32, u32),
        time_limit: Option<Duration>,
    ) -> Result<NativeResult, SearchError> {
        self.check_board(p)?;
        let started = Instant::now();
        if !p.is_solvable(goal) {
            return self.solve(p, goal, time_limit);
        }
        let tiles = blank_first_tiles(p, goal);
        let deadline = time_limit.map(|t| started + t);
        let ida = ida::IdaOptions {
            bpmx: self.bpmx,
            fsm: self.fsm.as_ref(),
            ..Default::default()
        };
        /// `solve`'s parallel search over `h` inflated by `w`.
        fn weighted<H>(
            h: &H,
            (num, den): (u32, u32),
            (rows, cols, tiles): (usize, usize, &[u8]),
            deadline: Option<Instant>,
            ida: ida::IdaOptions<'_>,
            threads: usize,
        ) -> ida::IdaResult
        where
            H: ida::Heuristic + Sync,
            H::Acc: Send + Sync,
        {
            let h = ida::Inflated::new(h, num, den);
            ida::search_parallel(&h, rows, cols, tiles, deadline, ida, threads)
        }
        let board = (self.rows, self.cols, &tiles[..]);
        let w = (num, den);
        let r = match &self.engine {
            Engine::Pdb(h) => weighted(&**h, w, board, deadline, ida, self.threads),
            Engine::Pdbs(h) => weighted(&**h, w, board, deadline, ida, self.threads),
            Engine::Md(h) => weighted(h, w, board, deadline, ida, self.threads),
        };
        let mut r = native_result(r, goal, started);
        r.proven_optimal = false;
        if r.status != NativeStatus::Solved {
            r.lower_bound = 0;
        }
        r.initial_h = 0;
        Ok(r)
    }

    /// A plan by one [`beam::beam`] pass of `width` boards per layer over this solver's
    /// estimate: no proof (its `lower_bound` is 0 and it is never called optimal), `None`
    /// for the plan when the limit came first, the board is unsolvable, or it has more than
    /// [`beam::MAX_CELLS`] cells.
    pub fn solve_beam(
        &self,
        p: &SlidingPuzzle,
        goal: Goal,
        width: usize,
        time_limit: Option<Duration>,
    ) -> Result<NativeResult, SearchError> {
        self.check_board(p)?;
        let started = Instant::now();
        let deadline = time_limit.map(|t| started + t);
        let tiles = blank_first_tiles(p, goal);
        let out = if !p.is_solvable(goal) || tiles.len() > beam::MAX_CELLS {
            beam::BeamOutcome {
                codes: None,
                nodes: 0,
            }
        } else {
            let (dims, t) = ((self.rows, self.cols), self.threads);
            match &self.engine {
                Engine::Pdb(h) => beam::beam(&**h, dims, &tiles, width, deadline, t),
                Engine::Pdbs(h) => beam::beam(&**h, dims, &tiles, width, deadline, t),
                Engine::Md(h) => beam::beam(h, dims, &tiles, width, deadline, t),
            }
        };
        Ok(NativeResult {
            status: if out.codes.is_some() {
                NativeStatus::Solved
            } else {
                NativeStatus::TimeLimit
            },
            moves: out.codes.map(|c| codes_to_moves(&c, goal)),
            lower_bound: 0,
            nodes: out.nodes,
            initial_h: 0,
            seconds: started.elapsed().as_secs_f64(),
            proven_optimal: false,
        })
    }

    /// Solve the boards `next` hands out on this thread, `width` searches at a time
    /// interleaved node by node ([`ida::Stepper`]): while one search waits for a table entry
    /// the others work, so the memory latency that bounds a single search is shared out.
    /// Each board gets the plan, node count and iterations [`solve`](Self::solve) gives it
    /// (its `seconds` run from its start to its end, overlapping the others'). A board's time
    /// limit is wall clock from its start, shared with the other searches of the thread, so
    /// a limited board gets less search than alone and may stop with a lower bound where
    /// `solve` would not. `done` gets each board's key and result as it ends, and stops the
    /// run by returning `false`. With BPMX or several threads per search the boards are
    /// solved one at a time.
    pub fn solve_interleaved<K>(
        &self,
        width: usize,
        next: &mut dyn FnMut() -> Option<(K, SlidingPuzzle, Goal, Option<Duration>)>,
        done: &mut dyn FnMut(K, Result<NativeResult, SearchError>) -> bool,
    ) {
        if self.bpmx || self.threads > 1 || width <= 1 {
            while let Some((key, p, goal, limit)) = next() {
                if !done(key, self.solve(&p, goal, limit)) {
                    return;
                }
            }
            return;
        }
        match &self.engine {
            Engine::Pdb(h) => self.interleave(&**h, width, next, done),
            Engine::Pdbs(h) => self.interleave(&**h, width, next, done),
            Engine::Md(h) => self.interleave(h, width, next, done),
        }
    }

    fn interleave<H: ida::Heuristic, K>(
        &self,
        heur: &H,
        width: usize,
        next: &mut dyn FnMut() -> Option<(K, SlidingPuzzle, Goal, Option<Duration>)>,
        done: &mut dyn FnMut(K, Result<NativeResult, SearchError>) -> bool,
    ) {
        struct Slot<'a, H: ida::Heuristic, K> {
            key: K,
            goal: Goal,
            started: Instant,
            search: ida::Stepper<'a, H>,
        }
        let nbrs = ida::stepper_neighbours(self.rows, self.cols);
        let mut slots: Vec<Slot<'_, H, K>> = Vec::with_capacity(width);
        let mut exhausted = false;
        loop {
            // Fill the free slots; boards that need no search are answered at once.
            while slots.len() < width && !exhausted {
                let Some((key, p, goal, limit)) = next() else {
                    exhausted = true;
                    break;
                };
                let started = Instant::now();
                if let Err(e) = self.check_board(&p) {
                    if !done(key, Err(e)) {
                        return;
                    }
                    continue;
                }
                if !p.is_solvable(goal) {
                    if !done(key, self.solve(&p, goal, limit)) {
                        return;
                    }
                    continue;
                }
                let tiles = blank_first_tiles(&p, goal);
                let deadline = limit.map(|t| started + t);
                let search = ida::Stepper::new(heur, &nbrs, &tiles, deadline, self.fsm.as_ref());
                slots.push(Slot {
                    key,
                    goal,
                    started,
                    search,
                });
            }
            if slots.is_empty() {
                return;
            }
            // Round robin until a search ends; then refill.
            let mut i = 0;
            let ended = loop {
                if slots[i].search.step() {
                    break i;
                }
                i += 1;
                if i == slots.len() {
                    i = 0;
                }
            };
            let slot = slots.swap_remove(ended);
            let r = slot.search.result().expect("an ended search has a result");
            if !done(slot.key, Ok(native_result(r, slot.goal, slot.started))) {
                return;
            }
        }
    }
}

/// A search's outcome for the caller's goal.
fn native_result(r: ida::IdaResult, goal: Goal, started: Instant) -> NativeResult {
    let (status, moves, lower_bound) = match r.outcome {
        IdaOutcome::Solved(codes) => {
            let len = codes.len() as u32;
            (
                NativeStatus::Solved,
                Some(codes_to_moves(&codes, goal)),
                len,
            )
        }
        IdaOutcome::TimeLimit { lower_bound } => (NativeStatus::TimeLimit, None, lower_bound),
    };
    NativeResult {
        status,
        moves,
        lower_bound,
        nodes: r.nodes,
        initial_h: r.initial_h,
        seconds: started.elapsed().as_secs_f64(),
        // Every estimate (additive pattern databases with the reflection and dual
        // lookups; Manhattan plus linear conflict) is admissible, BPMX keeps it so, and
        // duplicate pruning keeps the earliest optimal plan: IDA*'s first plan is optimal.
        proven_optimal: status == NativeStatus::Solved,
    }
}

/// A plan found on the blank-first board (search move codes) as moves for `goal`.
pub fn codes_to_moves(codes: &[u8], goal: Goal) -> Vec<Move> {
    codes
        .iter()
        .map(|&c| {
            // The blank-last board was rotated by 180°: every direction reverses.
            let c = if goal == Goal::BlankLast { c ^ 1 } else { c };
            match c {
                UP => Move::Up,
                DOWN => Move::Down,
                LEFT => Move::Left,
                RIGHT => Move::Right,
                _ => unreachable!("move codes are 0..4"),
            }
        })
        .collect()
}

/// `p` relabelled for the blank-first goal (unchanged when `goal` is blank-first).
pub fn to_blank_first(p: &SlidingPuzzle, goal: Goal) -> SlidingPuzzle {
    let n = p.cells();
    match goal {
        Goal::BlankFirst => p.clone(),
        Goal::BlankLast => {
            let mut t = vec![0u16; n];
            for (c, &tile) in p.tiles().iter().enumerate() {
                t[n - 1 - c] = if tile == 0 { 0 } else { n as u16 - tile };
            }
            SlidingPuzzle::new(p.rows(), p.cols(), t).expect("a relabelled board is a board")
        }
    }
}

/// `p`'s tiles in the search's convention (blank-first goal), one byte per cell.
pub fn blank_first_tiles(p: &SlidingPuzzle, goal: Goal) -> Vec<u8> {
    to_blank_first(p, goal)
        .tiles()
        .iter()
        .map(|&t| t as u8)
        .collect()
}

/// How long the cheap first pass of [`solve_one`] may search before the pattern databases
/// are loaded: short plans (the case study's 11 moves) are proven optimal well within it,
/// long ones lose at most this much.
pub const QUICK_PASS: Duration = Duration::from_millis(200);

/// Set up a solver for `p`'s board and solve it (one-off use; reuse [`NativeSolver`] for many).
///
/// With the default heuristic, a cheap pass with Manhattan distance + linear conflict comes
/// first, for at most [`QUICK_PASS`]: loading the 15-puzzle's databases takes seconds, more
/// than a short plan needs. IDA* with either admissible heuristic proves its plan optimal,
/// so the pass's answer is as good as the databases' would be. Only when it runs out of time
/// are the databases loaded (or built), and the search starts again with the time left.
/// With [`NativeOptions::incumbent_share`] and a time limit, a beam search and weighted IDA*
/// get a share of the time first ([`incumbent`]), so that a search that does not finish
/// still returns a plan beside its proven bound, and the optimal search stops once its bound
/// meets that plan.
pub fn solve_one(
    p: &SlidingPuzzle,
    goal: Goal,
    opts: &NativeOptions,
    time_limit: Option<Duration>,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<(NativeResult, Option<DbInfo>, String), SearchError> {
    let started = std::time::Instant::now();
    // What is proven before the databases: the quick pass's bound, else the Manhattan distance.
    let mut known_bound = u32::try_from(p.manhattan(goal)).unwrap_or(u32::MAX);
    let default_heuristic = opts.partition.is_none() && !opts.manhattan_only;
    if default_heuristic && p.is_solvable(goal) {
        let quick = NativeSolver::new(
            p.rows(),
            p.cols(),
            &NativeOptions {
                manhattan_only: true,
                max_with: None,
                ..opts.clone()
            },
            progress,
        )?;
        let limit = time_limit.map_or(QUICK_PASS, |t| t.min(QUICK_PASS));
        let r = quick.solve(p, goal, Some(limit))?;
        // Solved, or no time left to load anything in: the pass's answer is the answer.
        let spent = time_limit.is_some_and(|t| started.elapsed() >= t);
        if r.status == NativeStatus::Solved || spent {
            return Ok((r, None, quick.heuristic_name()));
        }
        progress(&format!(
            "no plan within {:.1} s with Manhattan + linear conflict (at least {} moves): loading the pattern databases",
            limit.as_secs_f64(),
            r.lower_bound
        ));
        known_bound = known_bound.max(r.lower_bound);
    }
    // A database built for the first time is built within the time limit too.
    let bounded = NativeOptions {
        build_deadline: time_limit.map(|t| started + t).or(opts.build_deadline),
        ..opts.clone()
    };
    let solver = match NativeSolver::new(p.rows(), p.cols(), &bounded, progress) {
        Err(SearchError::Pdb(e @ PdbError::TimeLimit(_))) => {
            progress(&format!("{NOTICE}{e}"));
            let r = NativeResult {
                status: NativeStatus::TimeLimit,
                moves: None,
                lower_bound: known_bound,
                nodes: 0,
                initial_h: known_bound,
                seconds: started.elapsed().as_secs_f64(),
                proven_optimal: false,
            };
            return Ok((r, None, format!("none ({e})")));
        }
        other => other?,
    };
    let Some(limit) = time_limit.filter(|_| opts.incumbent_share > 0.0) else {
        let rest = time_limit.map(|t| t.saturating_sub(started.elapsed()));
        let r = solver.solve(p, goal, rest)?;
        return Ok((r, solver.db_info().cloned(), solver.heuristic_name()));
    };
    // Beam search and weighted IDA* first, for a share of what is left: a plan found in
    // seconds where the optimal search takes hours, so that a limit always ends with a plan
    // beside the bound. The optimal search then gets the rest and stops as soon as its bound
    // reaches that plan's length, which proves it optimal without the last iteration.
    let rest = limit.saturating_sub(started.elapsed());
    let kept = rest
        .mul_f64(opts.incumbent_share.min(0.9))
        .max(rest.min(INCUMBENT_LEAST) / 2);
    let weighted_from = Instant::now();
    let mut ladder = Ladder::new();
    let (mut plan, mut weighted_nodes) =
        incumbent_on(&solver, p, goal, weighted_from + kept, &mut ladder)?;
    let mut weighted_seconds = weighted_from.elapsed().as_secs_f64();
    if let Some(m) = &plan {
        progress(&format!(
            "beam and weighted IDA*: a plan of {} moves; proving a bound with IDA*",
            m.len()
        ));
    }
    let rest = limit.saturating_sub(started.elapsed());
    let known = plan.as_ref().map(|m| m.len() as u32);
    let mut r = solver.solve_below_within(p, goal, rest, known, GIVE_UP_GAP)?;
    // IDA* stopped before an iteration it could not finish: what it would have spent in
    // vain goes to wider beam passes, for a shorter plan beside the bound it proved.
    let deadline = started + limit;
    let unproven = plan.as_ref().is_none_or(|m| m.len() as u32 > r.lower_bound);
    if r.status == NativeStatus::TimeLimit && unproven && Instant::now() < deadline {
        progress(&format!(
            "IDA*: at least {} moves; its next iteration cannot finish in the time left, so wider beam passes get it",
            r.lower_bound
        ));
        let wider = Instant::now();
        ladder.climb(
            &solver,
            (p, goal),
            deadline,
            deadline,
            &mut plan,
            &mut weighted_nodes,
        )?;
        weighted_seconds += wider.elapsed().as_secs_f64();
    }
    r.nodes += weighted_nodes;
    r.seconds += weighted_seconds;
    let r = with_plan(r, plan);
    Ok((r, solver.db_info().cloned(), solver.heuristic_name()))
}

/// The part of a time-limited solve's search time the route gives the beam and weighted
/// IDA* ([`incumbent`]) unless told otherwise: this share, but at least [`INCUMBENT_LEAST`]
/// (half the time, below twice that).
pub const INCUMBENT_SHARE: f64 = 0.2;

/// The least time kept for the plan ([`INCUMBENT_SHARE`]): the first beam pass and weighted
/// IDA*'s heaviest weight each find a 24-puzzle plan in well under this even on a loaded
/// machine.
pub const INCUMBENT_LEAST: Duration = Duration::from_secs(1);

/// The weights [`incumbent`] tries, each plan at most that factor of the optimum: the
/// first finds one soonest, the later ones shorter ones while time lasts.
pub const INCUMBENT_WEIGHTS: [(u32, u32); 5] = [(2, 1), (3, 2), (5, 4), (9, 8), (17, 16)];

/// The first beam width [`incumbent`] tries; each next pass is four times as wide.
pub const BEAM_FIRST_WIDTH: usize = 4096;

/// How far a time-limited solve's plan must be above IDA*'s bound for IDA* to stop before
/// an iteration out of reach ([`NativeSolver::solve_below_within`]). With the plan only two
/// above, the next iteration ends the gap whichever way it goes (it finds a plan of the
/// bound's length, or proves the plan optimal), and one found part-way is common enough
/// (on Korf & Felner's fifth board, stopping there cost the optimum), so IDA* goes on.
pub const GIVE_UP_GAP: u32 = 4;

/// The widest beam pass [`incumbent`] starts: on the 24-puzzle a pass keeps every board it
/// meets, about 5 GB at this width over a hundred layers.
pub const BEAM_MAX_WIDTH: usize = 1 << 20;

/// The share of [`incumbent`]'s time its beam passes may start in (the rest is weighted
/// IDA*'s): a pass is started only when it is expected to end within it.
pub const BEAM_SHARE: f64 = 2.0 / 3.0;

/// The shortest plan found before `deadline` by beam passes ([`NativeSolver::solve_beam`],
/// widths from [`BEAM_FIRST_WIDTH`] growing fourfold while the next pass is expected to end
/// within [`BEAM_SHARE`] of the time) and then weighted IDA* ([`INCUMBENT_WEIGHTS`],
/// heaviest first, stopping at the first weight that finds none in time), with the nodes
/// both visited. Unchecked: the caller's checker replays it.
///
/// The two find different plans: on Korf & Felner's 24-puzzles the beam's is the shorter on
/// some boards by up to 4 moves, weighted IDA*'s on others by up to 4
/// (`docs/results/native-search.md#a-beam-search-beside-weighted-ida`), so both run. A board
/// the beam does not take ([`beam::MAX_CELLS`]) gets no beam plan and goes on to weighted
/// IDA* at once.
pub fn incumbent(
    solver: &NativeSolver,
    p: &SlidingPuzzle,
    goal: Goal,
    deadline: Instant,
) -> Result<(Option<Vec<Move>>, u64), SearchError> {
    incumbent_on(solver, p, goal, deadline, &mut Ladder::new())
}

/// [`incumbent`] from `ladder`'s width, which it leaves at the next pass's.
fn incumbent_on(
    solver: &NativeSolver,
    p: &SlidingPuzzle,
    goal: Goal,
    deadline: Instant,
    ladder: &mut Ladder,
) -> Result<(Option<Vec<Move>>, u64), SearchError> {
    let mut best: Option<Vec<Move>> = None;
    let mut nodes = 0;
    let started = Instant::now();
    let beam_until = started
        + deadline
            .saturating_duration_since(started)
            .mul_f64(BEAM_SHARE);
    ladder.climb(
        solver,
        (p, goal),
        beam_until,
        deadline,
        &mut best,
        &mut nodes,
    )?;
    for w in INCUMBENT_WEIGHTS {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            break;
        }
        let found = solver.solve_weighted(p, goal, w, Some(left))?;
        nodes += found.nodes;
        match found.moves {
            Some(m) => keep_shorter(m, &mut best),
            None => break,
        }
    }
    Ok((best, nodes))
}

/// `m` in `best` when it is shorter (or the first).
fn keep_shorter(m: Vec<Move>, best: &mut Option<Vec<Move>>) {
    if best.as_ref().is_none_or(|b| m.len() < b.len()) {
        *best = Some(m);
    }
}

/// The beam passes of one solve: the next width, and how long that pass is expected to take.
#[derive(Debug, Clone, Copy)]
struct Ladder {
    width: usize,
    expected: Duration,
}

impl Ladder {
    /// Before the first pass nothing is known: it is short.
    fn new() -> Ladder {
        Ladder {
            width: BEAM_FIRST_WIDTH,
            expected: Duration::ZERO,
        }
    }

    /// Beam passes, each four times as wide as the last (up to [`BEAM_MAX_WIDTH`]), while
    /// the next is expected to end by `until`, each stopped at `deadline`; the shortest plan
    /// goes to `best` and the nodes to `nodes`. A pass that finds no plan (stopped, or the
    /// board is too large for the beam) ends them.
    fn climb(
        &mut self,
        solver: &NativeSolver,
        (p, goal): (&SlidingPuzzle, Goal),
        until: Instant,
        deadline: Instant,
        best: &mut Option<Vec<Move>>,
        nodes: &mut u64,
    ) -> Result<(), SearchError> {
        while self.width <= BEAM_MAX_WIDTH && Instant::now() + self.expected <= until {
            let left = deadline.saturating_duration_since(Instant::now());
            let pass = Instant::now();
            let found = solver.solve_beam(p, goal, self.width, Some(left))?;
            *nodes += found.nodes;
            match found.moves {
                Some(m) => keep_shorter(m, best),
                None => break,
            }
            // A pass four times as wide takes about four and a half times as long (more of
            // its table reads miss the cache).
            self.expected = pass.elapsed().mul_f64(4.5);
            self.width *= 4;
        }
        Ok(())
    }
}

/// `r`, the optimal search's result, with `plan` (the incumbent) where the search found
/// none: a plan beside the proven bound, optimal exactly when its length meets the bound.
pub fn with_plan(mut r: NativeResult, plan: Option<Vec<Move>>) -> NativeResult {
    if r.status == NativeStatus::TimeLimit
        && let Some(m) = plan
    {
        r.proven_optimal = m.len() as u32 <= r.lower_bound;
        r.status = NativeStatus::Solved;
        r.moves = Some(m);
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{HashMap, VecDeque};

    fn quiet(_: &str) {}

    /// A search stopped at its bound gets the shortest plan weighted IDA* finds: one that
    /// replays, no shorter than the optimum, at most twice it, and called optimal exactly
    /// when it meets the bound.
    #[test]
    fn an_unfinished_search_gets_a_plan_beside_its_bound() {
        let set = crate::campaign::sets::resolve("short15:40", None).unwrap();
        let i = &set.instances[0];
        let goal = i.goal.unwrap();
        let p = SlidingPuzzle::parse(&i.text, "short15", goal).unwrap();
        let opt = i.known_optimum.unwrap() as u32;
        let solver = NativeSolver::new(
            4,
            4,
            &NativeOptions {
                manhattan_only: true,
                ..Default::default()
            },
            &quiet,
        )
        .unwrap();
        for bound in [opt - 6, opt] {
            let stopped = NativeResult {
                status: NativeStatus::TimeLimit,
                moves: None,
                lower_bound: bound,
                nodes: 0,
                initial_h: 0,
                seconds: 0.0,
                proven_optimal: false,
            };
            let deadline = Instant::now() + Duration::from_secs(30);
            let (plan, nodes) = incumbent(&solver, &p, goal, deadline).unwrap();
            assert!(nodes > 0);
            let r = with_plan(stopped, plan);
            assert_eq!(r.status, NativeStatus::Solved);
            let m = r.moves.unwrap();
            let len = m.len() as u32;
            assert!(p.replay(&m).is_ok_and(|b| b.is_goal(goal)), "{m:?}");
            assert!(len >= opt && len <= 2 * opt, "{len} against {opt}");
            assert_eq!(r.lower_bound, bound);
            assert_eq!(r.proven_optimal, len == bound);
        }
    }

    /// Giving up on an iteration out of reach changes nothing when there is time to spare,
    /// and a search that gives up still proves only what it searched: its bound is at most
    /// the optimum, and it ends by the deadline.
    #[test]
    fn giving_up_keeps_the_bound_honest() {
        let board = |name: &str| {
            let set = crate::campaign::sets::resolve(name, None).unwrap();
            let i = set.instances[0].clone();
            let goal = i.goal.unwrap();
            let p = SlidingPuzzle::parse(&i.text, name, goal).unwrap();
            (p, goal, i.known_optimum.unwrap() as u32)
        };
        for threads in [1, 2] {
            let solver = NativeSolver::new(
                4,
                4,
                &NativeOptions {
                    manhattan_only: true,
                    threads,
                    ..Default::default()
                },
                &quiet,
            )
            .unwrap();
            let (p, goal, opt) = board("short15:40");
            let hour = Duration::from_secs(3600);
            let plain = solver.solve(&p, goal, None).unwrap();
            // A plan 10 above the optimum leaves the stop armed for every bound.
            let within = solver
                .solve_below_within(&p, goal, hour, Some(opt + 10), 4)
                .unwrap();
            assert_eq!(within.moves, plain.moves);
            assert_eq!(within.nodes, plain.nodes);
            assert_eq!(within.moves.map(|m| m.len() as u32), Some(opt));
            // Korf's first board (57 moves) takes Manhattan distance far longer than this.
            let (p, goal, opt) = board("korf100:1");
            let limit = Duration::from_millis(400);
            // As if a plan of 80 moves were known: far above any bound reached here.
            let r = solver
                .solve_below_within(&p, goal, limit, Some(80), 4)
                .unwrap();
            assert_eq!(r.status, NativeStatus::TimeLimit);
            assert!(r.lower_bound <= opt && r.lower_bound >= r.initial_h);
            assert!(r.seconds < 1.0, "{} s", r.seconds);
        }
    }

    #[test]
    fn progress_lines_read_back_as_sent() {
        let sent = step(3, 10, "pattern [1, 2]: depth 4 done");
        assert_eq!(
            Line::parse(&sent),
            Line::Step {
                done: 3,
                total: 10,
                text: "pattern [1, 2]: depth 4 done"
            }
        );
        assert_eq!(
            Line::parse("notice: horizon 11"),
            Line::Notice("horizon 11")
        );
        assert_eq!(Line::parse("searching"), Line::Status("searching"));
        // A step past its total is clamped; a malformed one is shown as it came.
        assert_eq!(
            Line::parse(&step(12, 10, "x")),
            Line::Step {
                done: 10,
                total: 10,
                text: "x"
            }
        );
        assert_eq!(
            Line::parse("step: many things"),
            Line::Status("step: many things")
        );
        assert_eq!(Line::parse(&sent).text(), "pattern [1, 2]: depth 4 done");
    }

    /// Exact distances to the blank-first goal of every state of a small board.
    fn bfs(rows: usize, cols: usize) -> HashMap<Vec<u8>, u32> {
        let goal: Vec<u8> = (0..(rows * cols) as u8).collect();
        let nb = ida::neighbours(rows, cols);
        let mut dist = HashMap::from([(goal.clone(), 0)]);
        let mut q = VecDeque::from([goal]);
        while let Some(s) = q.pop_front() {
            let d = dist[&s];
            let b = s.iter().position(|&t| t == 0).unwrap();
            for &(c, _) in &nb[b] {
                let mut t = s.clone();
                t.swap(b, c);
                if !dist.contains_key(&t) {
                    dist.insert(t.clone(), d + 1);
                    q.push_back(t);
                }
            }
        }
        dist
    }

    #[test]
    fn single_group_pdb_is_exact_and_mdlc_admissible_on_2x3() {
        let all = Partition {
            rows: 2,
            cols: 3,
            groups: vec![vec![1, 2, 3, 4, 5]],
        };
        let db = AdditivePdb::build(&all, &quiet)
            .unwrap()
            .without_reflection();
        let split = AdditivePdb::build(
            &Partition {
                groups: vec![vec![1, 2], vec![3, 4, 5]],
                ..all.clone()
            },
            &quiet,
        )
        .unwrap();
        let md = ManhattanLc::new(2, 3);
        use ida::Heuristic;
        let dist = bfs(2, 3);
        assert_eq!(dist.len(), 360);
        for (s, &d) in &dist {
            assert_eq!(db.lookup(s), d, "{s:?}");
            assert!(split.value(&split.init(s)) <= d, "{s:?}");
            assert!(md.value(&md.init(s)) <= d, "{s:?}");
        }
    }

    /// The naive dual lookup: each group looked up at the cells `tiles[x]` of its objects,
    /// whatever the blank (what the dual lookup is when the blank is home).
    fn naive_dual(db: &AdditivePdb, tiles: &[u8]) -> u32 {
        let mut dual = vec![0u8; tiles.len()];
        for (x, &c) in tiles.iter().enumerate() {
            dual[c as usize] = x as u8;
        }
        db.lookup(&dual)
    }

    #[test]
    fn dual_lookups_never_exceed_the_distance() {
        use ida::Heuristic;
        // Every board of the 8-puzzle and of the 2×4 puzzle against its exact distance, with
        // packed groups, a ranked (7-tile) group, and groups whose home cells cut cell 0 off
        // (1 and 3 around it), where the table's goal region is not the dual board's.
        let cases = [
            (3, 3, vec![vec![1, 2, 3, 4], vec![5, 6, 7, 8]]),
            (3, 3, vec![vec![1, 3], vec![2, 4, 5], vec![6, 7, 8]]),
            (3, 3, vec![(1..8).collect(), vec![8]]),
            (2, 4, vec![vec![1, 2, 4], vec![3, 5, 6, 7]]),
        ];
        for (rows, cols, groups) in cases {
            let p = Partition { rows, cols, groups };
            let plain = AdditivePdb::build(&p, &quiet).unwrap();
            let db = plain.clone().with_dual(&quiet);
            let dist = bfs(rows, cols);
            let (mut raised, mut naive_over) = (0, 0usize);
            for (s, &d) in &dist {
                let acc = db.init(s);
                let (h, strong) = (db.value(&acc), db.refine(&acc));
                assert!(
                    strong <= d,
                    "{p:?} {s:?}: dual bound {strong} > distance {d}"
                );
                raised += usize::from(strong > h);
                // The plain inverse is exact in distance when the blank is home...
                let blank_home = s[0] == 0;
                let naive = naive_dual(&plain, s);
                if blank_home {
                    assert!(naive <= d, "{p:?} {s:?}");
                    assert!(strong >= naive, "{p:?} {s:?}: the full dual applies");
                }
                naive_over += usize::from(naive > d);
            }
            // The test can fail: the dual raises many boards' estimates...
            assert!(raised > dist.len() / 100, "{p:?}: raised {raised}");
            // ...and the naive dual, which ignores where the blank is, overestimates some
            // (the count `with_dual`'s doc quotes, for the first partition).
            assert!(naive_over > 0, "{p:?}");
            if p.groups.len() == 2 && p.groups[0] == [1, 2, 3, 4] {
                assert_eq!(naive_over, 17_105);
                // With a table for every (group, dual blank) the dual raises 16,451 boards;
                // the earlier rule, which fell back to Manhattan distances for the group
                // holding the dual blank and for groups walling its cell off, raised 6,688.
                assert_eq!(raised, 16_451);
            }
        }
    }

    #[test]
    fn dual_and_bpmx_searches_stay_optimal() {
        let dist = bfs(3, 3);
        let p = Partition {
            rows: 3,
            cols: 3,
            groups: vec![vec![1, 2, 3, 4], vec![5, 6, 7, 8]],
        };
        let dir = tempfile::tempdir().unwrap();
        let mk = |dual, bpmx, fsm, threads| {
            NativeSolver::new(
                3,
                3,
                &NativeOptions {
                    cache_dir: Some(dir.path().to_path_buf()),
                    partition: Some(p.clone()),
                    dual,
                    bpmx,
                    fsm,
                    threads,
                    ..NativeOptions::default()
                },
                &quiet,
            )
            .unwrap()
        };
        let solvers = [
            mk(false, false, 0, 1),
            mk(true, false, 0, 1),
            mk(false, true, 0, 1),
            mk(true, true, 0, 1),
            mk(false, false, 12, 1),
            mk(true, true, 14, 1),
            mk(false, false, 12, 2),
            mk(true, true, 14, 3),
        ];
        let mut nodes = [0u64; 8];
        for (i, (s, &d)) in dist.iter().enumerate() {
            if i % 211 != 0 && d < 30 {
                continue;
            }
            let tiles: Vec<u16> = s.iter().map(|&t| t as u16).collect();
            let p = SlidingPuzzle::new(3, 3, tiles).unwrap();
            let mut plans = Vec::new();
            for (k, solver) in solvers.iter().enumerate() {
                let r = solver.solve(&p, Goal::BlankFirst, None).unwrap();
                let moves = r.moves.unwrap();
                assert_eq!(moves.len() as u32, d, "{s:?} with solver {k}");
                assert!(p.replay(&moves).unwrap().is_goal(Goal::BlankFirst));
                nodes[k] += r.nodes;
                plans.push(moves);
            }
            // More threads, the same plan: the first in depth-first order. (These small
            // searches stay on one thread; `ida`'s own test makes every iteration parallel.)
            assert_eq!(plans[6], plans[4], "{s:?}");
            assert_eq!(plans[7], plans[5], "{s:?}");
        }
        // The dual lookups cut nodes, with BPMX and without. (BPMX evaluates a node's
        // children before entering any, so its counts are not comparable with the plain
        // search's: the last iteration counts the goal's siblings too.)
        assert!(nodes[1] < nodes[0], "{nodes:?}");
        assert!(nodes[3] < nodes[2], "{nodes:?}");
        // Duplicate pruning cuts nodes too.
        assert!(nodes[4] < nodes[0], "{nodes:?}");
        assert!(nodes[5] < nodes[3], "{nodes:?}");
    }

    #[test]
    fn the_maximum_of_two_partitions_is_admissible_and_prunes_more() {
        use ida::Heuristic;
        let dist = bfs(3, 3);
        let rows = Partition {
            rows: 3,
            cols: 3,
            groups: vec![vec![1, 2, 3, 4], vec![5, 6, 7, 8]],
        };
        let columns = Partition {
            groups: vec![vec![3, 6], vec![1, 4, 7], vec![2, 5, 8]],
            ..rows.clone()
        };
        let a = AdditivePdb::build(&rows, &quiet).unwrap().with_dual(&quiet);
        let b = AdditivePdb::build(&columns, &quiet)
            .unwrap()
            .with_dual(&quiet);
        let both = max::Max { a, b };
        // Boards where b's estimate is above a's, and the other way round.
        let (mut b_above, mut a_above) = (0, 0);
        for (s, &d) in &dist {
            let acc = both.init(s);
            let (ha, hb) = (both.a.refine(&acc.0), both.b.refine(&acc.1));
            assert_eq!(both.refine(&acc), ha.max(hb), "{s:?}");
            assert_eq!(
                both.value(&acc),
                both.a.value(&acc.0).max(both.b.value(&acc.1))
            );
            assert!(both.refine(&acc) <= d, "{s:?}: {ha}, {hb} against {d}");
            b_above += usize::from(hb > ha);
            a_above += usize::from(ha > hb);
        }
        // Each partition raises boards the other leaves lower.
        assert!(b_above > 1000 && a_above > 1000, "{b_above} {a_above}");

        let dir = tempfile::tempdir().unwrap();
        let mk = |max_with: Option<&Partition>, dual, bpmx, threads| {
            NativeSolver::new(
                3,
                3,
                &NativeOptions {
                    cache_dir: Some(dir.path().to_path_buf()),
                    partition: Some(rows.clone()),
                    max_with: max_with.cloned(),
                    dual,
                    bpmx,
                    fsm: 12,
                    threads,
                    ..NativeOptions::default()
                },
                &quiet,
            )
            .unwrap()
        };
        let (one, two) = (mk(None, true, true, 1), mk(Some(&columns), true, true, 1));
        let threaded = mk(Some(&columns), true, true, 2);
        assert!(
            two.heuristic_name()
                .starts_with("max of pdb 4-4 + reflection + dual"),
            "{}",
            two.heuristic_name()
        );
        let plain_two = mk(Some(&columns), false, false, 1);
        let (mut n1, mut n2) = (0, 0);
        let mut boards = Vec::new();
        for (i, (s, &d)) in dist.iter().enumerate() {
            if i % 401 != 0 && d < 30 {
                continue;
            }
            let tiles: Vec<u16> = s.iter().map(|&t| t as u16).collect();
            let p = SlidingPuzzle::new(3, 3, tiles).unwrap();
            let r1 = one.solve(&p, Goal::BlankFirst, None).unwrap();
            let r2 = two.solve(&p, Goal::BlankFirst, None).unwrap();
            for r in [&r1, &r2] {
                let moves = r.moves.as_ref().unwrap();
                assert_eq!(moves.len() as u32, d, "{s:?}");
                assert!(p.replay(moves).unwrap().is_goal(Goal::BlankFirst));
            }
            n1 += r1.nodes;
            n2 += r2.nodes;
            let r3 = threaded.solve(&p, Goal::BlankFirst, None).unwrap();
            assert_eq!(r3.moves, r2.moves, "{s:?}: two threads, another plan");
            boards.push((p, d));
        }
        assert!(n2 < n1, "two partitions {n2} nodes, one {n1}");
        // Interleaved searches with both partitions' deferred reads give each board the
        // plan and node count of its search alone.
        let mut queue = boards.iter().enumerate();
        let mut seen = 0;
        plain_two.solve_interleaved(
            3,
            &mut || {
                queue
                    .next()
                    .map(|(k, (p, _))| (k, p.clone(), Goal::BlankFirst, None))
            },
            &mut |k, r| {
                let r = r.unwrap();
                let (p, d) = &boards[k];
                let alone = plain_two.solve(p, Goal::BlankFirst, None).unwrap();
                assert_eq!(r.moves.as_ref().map(Vec::len), Some(*d as usize));
                assert_eq!((r.moves, r.nodes), (alone.moves, alone.nodes), "board {k}");
                seen += 1;
                true
            },
        );
        assert_eq!(seen, boards.len());
        // A second partition must be of the same board.
        let wrong = NativeSolver::new(
            3,
            3,
            &NativeOptions {
                cache_dir: Some(dir.path().to_path_buf()),
                partition: Some(rows.clone()),
                max_with: Some(Partition::fifteen_663()),
                ..NativeOptions::default()
            },
            &quiet,
        );
        assert!(matches!(wrong, Err(SearchError::WrongBoard(..))));
        // Nor the first one again, nor a second with no first.
        for (partition, manhattan_only) in [(Some(columns.clone()), false), (None, true)] {
            let refused = NativeSolver::new(
                3,
                3,
                &NativeOptions {
                    cache_dir: Some(dir.path().to_path_buf()),
                    partition,
                    manhattan_only,
                    max_with: Some(columns.clone()),
                    ..NativeOptions::default()
                },
                &quiet,
            );
            assert!(matches!(refused, Err(SearchError::Options(_))));
        }
    }

    #[test]
    fn solves_every_3x3_state_sample_optimally_for_both_goals() {
        let dist = bfs(3, 3);
        assert_eq!(dist.len(), 181_440);
        assert_eq!(dist.values().max(), Some(&31));
        let solver = NativeSolver::new(3, 3, &NativeOptions::default(), &quiet).unwrap();
        for (i, (s, &d)) in dist.iter().enumerate() {
            if i % 997 != 0 && d < 31 {
                continue;
            }
            let tiles: Vec<u16> = s.iter().map(|&t| t as u16).collect();
            let p = SlidingPuzzle::new(3, 3, tiles).unwrap();
            let r = solver.solve(&p, Goal::BlankFirst, None).unwrap();
            let moves = r.moves.unwrap();
            assert_eq!(moves.len() as u32, d);
            assert!(p.replay(&moves).unwrap().is_goal(Goal::BlankFirst));
            // The same position relabelled for the blank-last goal has the same distance.
            let q = to_blank_first(&p, Goal::BlankLast); // the map is its own inverse
            let r = solver.solve(&q, Goal::BlankLast, None).unwrap();
            let moves = r.moves.unwrap();
            assert_eq!(moves.len() as u32, d);
            assert!(q.replay(&moves).unwrap().is_goal(Goal::BlankLast));
        }
    }

    #[test]
    fn the_frontier_is_stored_only_while_no_plan_is_known() {
        // Korf's twelfth board (45 moves) with Manhattan + LC: iterations of up to some 10^5 nodes.
        let tiles = vec![14, 1, 9, 6, 4, 8, 12, 5, 7, 2, 3, 0, 10, 11, 13, 15];
        let p = SlidingPuzzle::new(4, 4, tiles).unwrap();
        let solver = |frontier| {
            let opts = NativeOptions {
                manhattan_only: true,
                frontier,
                threads: 1,
                ..NativeOptions::default()
            };
            NativeSolver::new(4, 4, &opts, &quiet).unwrap()
        };
        let (with, without) = (solver(1 << 14), solver(0));
        let goal = Goal::BlankFirst;
        let stored = with.solve(&p, goal, None).unwrap();
        let plain = without.solve(&p, goal, None).unwrap();
        assert_eq!(stored.moves.as_ref().map(Vec::len), Some(45));
        assert!(stored.proven_optimal && plain.proven_optimal);
        // The frontier was stored and searched from: not the plain search's nodes.
        assert_ne!(stored.nodes, plain.nodes);
        // Knowing a plan of 45, the search only proves: the plain search's nodes.
        let known = |s: &NativeSolver| s.solve_below(&p, goal, None, Some(45)).unwrap().nodes;
        assert_eq!(known(&with), known(&without));
    }

    #[test]
    fn a_short_plan_needs_no_pattern_database() {
        // The case study (11 moves) is proven optimal by the cheap first pass: nothing is
        // loaded or built, even with a cache directory that holds nothing.
        let dir = tempfile::tempdir().unwrap();
        let p = SlidingPuzzle::new(
            4,
            4,
            vec![5, 1, 2, 3, 9, 6, 7, 4, 13, 10, 11, 8, 14, 15, 0, 12],
        )
        .unwrap();
        let opts = NativeOptions {
            cache_dir: Some(dir.path().to_path_buf()),
            ..NativeOptions::default()
        };
        let (r, db, name) = solve_one(&p, Goal::BlankLast, &opts, None, &quiet).unwrap();
        assert_eq!(r.moves.map(|m| m.len()), Some(11));
        assert!(r.proven_optimal);
        assert!(db.is_none() && name.starts_with("manhattan"), "{name}");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        // Korf's first instance (57 moves) with a limit spent in the first pass: the answer
        // is the pass's time limit and its bound, and no database is built for nothing.
        let k = SlidingPuzzle::new(
            4,
            4,
            vec![14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3],
        )
        .unwrap();
        let (r, db, _) = solve_one(
            &k,
            Goal::BlankFirst,
            &opts,
            Some(Duration::from_millis(50)),
            &quiet,
        )
        .unwrap();
        assert_eq!(r.status, NativeStatus::TimeLimit);
        assert!(db.is_none() && r.lower_bound >= 41);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn unsolvable_and_wrong_board() {
        let solver = NativeSolver::new(2, 2, &NativeOptions::default(), &quiet).unwrap();
        let p = SlidingPuzzle::new(2, 2, vec![0, 2, 1, 3]).unwrap();
        let r = solver.solve(&p, Goal::BlankFirst, None).unwrap();
        assert_eq!(r.status, NativeStatus::Unsolvable);
        let q = SlidingPuzzle::new(2, 3, vec![0, 1, 2, 3, 4, 5]).unwrap();
        assert!(matches!(
            solver.solve(&q, Goal::BlankFirst, None),
            Err(SearchError::WrongBoard(..))
        ));
        assert!(NativeSolver::new(17, 2, &NativeOptions::default(), &quiet).is_err());
    }
}
