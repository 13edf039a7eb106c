//! Iterative-deepening A* over a sliding board, generic over an incrementally updated
//! heuristic. The board is always solved towards the blank-first goal (tile `t` in cell `t`);
//! [`super`] converts blank-last instances before and after.

use super::fsm::{self, Fsm};
use std::time::Instant;

/// An admissible heuristic that is updated move by move instead of recomputed.
pub trait Heuristic {
    /// Whatever the heuristic carries from node to node (indices, partial sums).
    type Acc: Copy;
    /// The accumulator for a whole board (`tiles[c]` = tile in cell `c`, 0 = blank).
    fn init(&self, tiles: &[u8]) -> Self::Acc;
    /// `tile` slid from cell `from` into cell `to`; `tiles` is the board after the move.
    fn update(&self, acc: &Self::Acc, tiles: &[u8], tile: u8, from: usize, to: usize) -> Self::Acc;
    /// The estimate carried by `acc`.
    fn value(&self, acc: &Self::Acc) -> u32;
    /// A stronger admissible estimate (at least [`value`](Self::value)) that costs more:
    /// the search asks for it only where `value` alone does not cut the node off.
    fn refine(&self, acc: &Self::Acc) -> u32 {
        self.value(acc)
    }
    /// Whether [`refine`](Self::refine) can exceed [`value`](Self::value) (then the search
    /// asks for it, and may propagate inconsistent values by BPMX).
    fn refines(&self) -> bool {
        false
    }
    /// [`update`](Self::update) of `acc` into `into`, with its memory reads only requested
    /// (prefetched), to be finished by [`complete`](Self::complete) before the value is
    /// read: interleaved searches ([`Stepper`]) do other work while the reads are under
    /// way. Written in place: an accumulator can be a few hundred bytes.
    fn update_deferred(
        &self,
        acc: &Self::Acc,
        into: &mut Self::Acc,
        tiles: &[u8],
        (tile, from, to): (u8, usize, usize),
    ) {
        *into = self.update(acc, tiles, tile, from, to);
    }
    /// Finish an [`update_deferred`](Self::update_deferred).
    fn complete(&self, acc: &mut Self::Acc) {
        let _ = acc;
    }
    /// A lower bound on [`value`](Self::value) after a deferred update, from only part of
    /// its reads (the first): a node it already cuts off needs the rest only when its exact
    /// value matters.
    fn partial_value(&self, acc: &Self::Acc) -> u32 {
        let _ = acc;
        0
    }
    /// The table entries `acc` holds, packed into one word, where they fit: a stored
    /// frontier keeps the word beside each board, and [`restore`](Self::restore) rebuilds
    /// the accumulator from the board and the word without reading the tables again (a
    /// memory miss per table, which costs more than the arithmetic of the indices).
    /// `None`: they do not fit, or there are none to save. A search asks once, of its root:
    /// every accumulator [`init`](Self::init) and [`update`](Self::update) give must have
    /// the word, or none.
    fn entries(&self, acc: &Self::Acc) -> Option<u64> {
        let _ = acc;
        None
    }
    /// [`init`](Self::init) of `tiles`, taking the table entries from `entries`, a word that
    /// [`entries`](Self::entries) gave for an accumulator of the same board.
    fn restore(&self, tiles: &[u8], entries: u64) -> Self::Acc {
        let _ = entries;
        self.init(tiles)
    }
}

/// An admissible heuristic inflated by `num / den` (at least 1): IDA* over it is weighted
/// IDA*, whose first plan is at most `num / den` times the optimum (each estimate is at most
/// that factor of the true distance) and which finds one far sooner than the optimal search,
/// in fewer and smaller iterations. Its values are not admissible, so its iterations' bounds
/// prove nothing.
pub struct Inflated<'h, H> {
    inner: &'h H,
    num: u32,
    den: u32,
}

impl<'h, H: Heuristic> Inflated<'h, H> {
    /// `inner` times `num / den`; a ratio below 1 is taken as 1.
    pub fn new(inner: &'h H, num: u32, den: u32) -> Self {
        let den = den.max(1);
        Inflated {
            inner,
            num: num.max(den),
            den,
        }
    }

    fn scale(&self, h: u32) -> u32 {
        u32::try_from(u64::from(h) * u64::from(self.num) / u64::from(self.den)).unwrap_or(u32::MAX)
    }
}

impl<H: Heuristic> Heuristic for Inflated<'_, H> {
    type Acc = H::Acc;
    fn init(&self, tiles: &[u8]) -> Self::Acc {
        self.inner.init(tiles)
    }
    fn update(&self, acc: &Self::Acc, tiles: &[u8], tile: u8, from: usize, to: usize) -> Self::Acc {
        self.inner.update(acc, tiles, tile, from, to)
    }
    fn value(&self, acc: &Self::Acc) -> u32 {
        self.scale(self.inner.value(acc))
    }
    fn refine(&self, acc: &Self::Acc) -> u32 {
        self.scale(self.inner.refine(acc))
    }
    fn refines(&self) -> bool {
        self.inner.refines()
    }
    fn update_deferred(
        &self,
        acc: &Self::Acc,
        into: &mut Self::Acc,
        tiles: &[u8],
        step: (u8, usize, usize),
    ) {
        self.inner.update_deferred(acc, into, tiles, step);
    }
    fn complete(&self, acc: &mut Self::Acc) {
        self.inner.complete(acc);
    }
    fn partial_value(&self, acc: &Self::Acc) -> u32 {
        self.scale(self.inner.partial_value(acc))
    }
    fn entries(&self, acc: &Self::Acc) -> Option<u64> {
        self.inner.entries(acc)
    }
    fn restore(&self, tiles: &[u8], entries: u64) -> Self::Acc {
        self.inner.restore(tiles, entries)
    }
}

/// How IDA* treats the heuristic.
#[derive(Debug, Clone, Copy, Default)]
pub struct IdaOptions<'f> {
    /// Pathmax from the children (Felner et al. 2005's BPMX, the direction that prunes in
    /// IDA*): a node's children are evaluated before any is entered, and a child's value
    /// less one bounds the parent, which it may cut off; then the rest of the children are
    /// not generated. (The other direction, the parent's value less one raising each child,
    /// never cuts here: a node is entered only when `g + h` is within the bound, so
    /// `g + 1 + (h − 1)` is too.) Pays only for an inconsistent heuristic, such as one with
    /// dual lookups (or the min-over-blank tables themselves); with a consistent one it
    /// prunes nothing more, and the last iteration counts the goal's siblings too. Children
    /// are entered lowest estimate first, which shortens the last iteration.
    pub bpmx: bool,
    /// Prune move sequences that duplicate earlier ones ([`super::fsm`]).
    pub fsm: Option<&'f Fsm>,
    /// Stop, with this as the proven lower bound, before an iteration whose bound is at least
    /// this: a plan of this length is already known, which the bound then proves optimal, so
    /// the last and largest iteration is never needed.
    pub stop_at: Option<u32>,
    /// A lower bound an earlier search of the same board proved (its last finished
    /// iteration's next bound): the first iteration's bound is the larger of this and the
    /// estimate, so a resumed search skips the iterations already done. The node count of
    /// the iterations it runs is the one an unbroken search gives them.
    pub start_at: u32,
    /// Told after every iteration that ends without a plan: the bound that is now proven and
    /// the nodes counted so far (a checkpoint to resume from with `start_at`).
    pub on_iteration: Option<OnIteration<'f>>,
    /// Stop after an iteration, its bound proven, when the next is out of reach: forecast
    /// ([`out_of_reach`]) to need more than twice the time left before the deadline, and
    /// the bound now at most this. An iteration that starts and is cut off by the deadline
    /// proves nothing, so a caller with other work for the time (a wider search for a plan)
    /// stops here instead.
    pub give_up: Option<u32>,
    /// Store the frontier of one iteration, at most this many nodes (64 bytes each; 0:
    /// never), and run the later iterations from it ([`search_parallel`] only; not with
    /// BPMX or [`stop_at`](Self::stop_at); boards of at most 25 cells). The idea of Bu & Korf's A*+IDA* (IJCAI 2019), with
    /// an IDA* iteration in place of their A*: the nodes above the frontier are not walked
    /// again, a board the frontier reaches twice is searched once, and the frontier is
    /// searched lowest `f` first and, of equal `f`, lowest estimate first, so that the last
    /// iteration meets a plan after a small part of its tree.
    pub stored_frontier: usize,
}

/// Whether an iteration is out of reach: the last one took `took`, the next is expected to
/// grow by `growth` (the last one's nodes over the one's before), and more than twice that
/// would not fit in the `left` time. The factor two leaves room for a forecast that is too
/// high (growth varies from one iteration to the next), so an iteration that would likely
/// have finished is still run.
///
/// ```
/// use std::time::Duration;
/// use tilekit::search::ida::out_of_reach;
///
/// let s = Duration::from_secs;
/// assert!(out_of_reach(s(10), 7.0, s(30))); // 70 s expected, 30 s left
/// assert!(!out_of_reach(s(10), 7.0, s(40))); // 70 s of 40 s: within the factor two
/// ```
pub fn out_of_reach(took: std::time::Duration, growth: f64, left: std::time::Duration) -> bool {
    took.as_secs_f64() * growth > 2.0 * left.as_secs_f64()
}

/// [`IdaOptions::give_up`]'s bookkeeping: when the last iteration started and its nodes.
struct Reach {
    started: Instant,
    nodes: u64,
}

impl Reach {
    fn new() -> Reach {
        Reach {
            started: Instant::now(),
            nodes: 0,
        }
    }

    /// An iteration of `nodes` nodes just ended: whether the next is out of reach of
    /// `deadline` ([`out_of_reach`]; never without a deadline or the iteration before).
    fn next_out_of_reach(&mut self, nodes: u64, deadline: Option<Instant>) -> bool {
        let now = Instant::now();
        let took = now.saturating_duration_since(self.started);
        let growth = nodes as f64 / self.nodes.max(1) as f64;
        let known = self.nodes > 0;
        self.started = now;
        self.nodes = nodes;
        known
            && deadline
                .is_some_and(|d| out_of_reach(took, growth, d.saturating_duration_since(now)))
    }
}

/// A callback of [`IdaOptions::on_iteration`]: `(proven lower bound, nodes so far)`.
#[derive(Clone, Copy)]
pub struct OnIteration<'f>(pub &'f (dyn Fn(u32, u64) + Sync));

impl std::fmt::Debug for OnIteration<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("OnIteration")
    }
}

pub use super::moves::{DOWN, LEFT, RIGHT, UP, neighbours};
const NONE: u8 = 4;

/// How a search ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IdaOutcome {
    /// An optimal plan (move codes, blank directions).
    Solved(Vec<u8>),
    /// The deadline passed first; the bound reached is a proven lower bound.
    TimeLimit {
        /// Every plan has at least this many moves.
        lower_bound: u32,
    },
}

/// The result of [`search`].
#[derive(Debug, Clone)]
pub struct IdaResult {
    /// Solved or stopped.
    pub outcome: IdaOutcome,
    /// Nodes visited (heuristic evaluations), over all iterations.
    pub nodes: u64,
    /// The heuristic of the start board.
    pub initial_h: u32,
    /// Thresholds tried, in order.
    pub iterations: Vec<u32>,
}

struct Ida<'a, H: Heuristic> {
    heur: &'a H,
    tiles: Vec<u8>,
    /// `nbrs[c].0[..nbrs[c].1]` = the cells the blank can reach from `c`, with the move
    /// code (flat arrays: one indirection less per node than nested vectors).
    nbrs: Vec<([(usize, u8); 4], u8)>,
    path: Vec<u8>,
    nodes: u64,
    next_bound: u32,
    deadline: Option<Instant>,
    stopped: bool,
    /// [`collect`](Self::collect) stopped at its cap.
    overflow: bool,
    /// `heur.refines()`, read once.
    refines: bool,
    fsm: Option<&'a Fsm>,
}

impl<'a, H: Heuristic> Ida<'a, H> {
    /// A walker on `tiles` with no node counted and no path yet.
    fn new(
        heur: &'a H,
        tiles: &[u8],
        nbrs: Vec<([(usize, u8); 4], u8)>,
        deadline: Option<Instant>,
        fsm: Option<&'a Fsm>,
    ) -> Self {
        Ida {
            heur,
            tiles: tiles.to_vec(),
            nbrs,
            path: Vec::with_capacity(256),
            nodes: 0,
            next_bound: u32::MAX,
            deadline,
            stopped: false,
            overflow: false,
            refines: heur.refines(),
            fsm,
        }
    }
}

impl<H: Heuristic> Ida<'_, H> {
    /// One iteration from the root (blank in `blank`, estimate `h`) at `bound`, by the plain
    /// walk or the BPMX one; `next_bound` is the next iteration's bound afterwards.
    fn iterate(&mut self, blank: usize, bound: u32, acc: &H::Acc, h: u32, bpmx: bool) -> bool {
        self.next_bound = u32::MAX;
        if bpmx {
            self.nodes += 1; // the root, as the plain walk counts it
            self.dfs_bpmx(blank, 0, bound, acc, h, NONE, fsm::START)
        } else {
            self.dfs(blank, 0, bound, *acc, NONE, fsm::START)
        }
    }
}

/// [`neighbours`] in flat arrays: `[c].0[..[c].1]` (one indirection less per node than
/// nested vectors).
fn flat_neighbours(rows: usize, cols: usize) -> Vec<([(usize, u8); 4], u8)> {
    neighbours(rows, cols)
        .iter()
        .map(|l| {
            let mut a = [(0, 0); 4];
            a[..l.len()].copy_from_slice(l);
            (a, l.len() as u8)
        })
        .collect()
}

impl<H: Heuristic> Ida<'_, H> {
    fn dfs(&mut self, blank: usize, g: u32, bound: u32, acc: H::Acc, prev: u8, state: u32) -> bool {
        self.nodes += 1;
        let mut h = self.heur.value(&acc);
        if g + h <= bound && self.refines {
            h = self.heur.refine(&acc);
        }
        let f = g + h;
        if f > bound {
            if f < self.next_bound {
                self.next_bound = f;
            }
            return false;
        }
        if h == 0 && self.tiles.iter().enumerate().all(|(c, &t)| t as usize == c) {
            return true;
        }
        // Look at the clock rarely: it costs more than a node.
        if self.nodes & 0xF_FFFF == 0
            && let Some(d) = self.deadline
            && Instant::now() >= d
        {
            self.stopped = true;
            return false;
        }
        let (list, count) = self.nbrs[blank];
        for &(c, m) in &list[..count as usize] {
            if m ^ 1 == prev {
                continue; // never undo the previous move
            }
            let state = match self.fsm {
                Some(f) => match f.step(state, m, c) {
                    Some(s) => s,
                    None => continue, // a duplicate of an earlier sequence
                },
                None => state,
            };
            let tile = self.tiles[c];
            self.tiles[blank] = tile;
            self.tiles[c] = 0;
            let next = self.heur.update(&acc, &self.tiles, tile, c, blank);
            self.path.push(m);
            if self.dfs(c, g + 1, bound, next, m, state) {
                return true;
            }
            self.path.pop();
            self.tiles[c] = tile;
            self.tiles[blank] = 0;
            if self.stopped {
                return false;
            }
        }
        false
    }
}

/// A child generated by [`Ida::dfs_bpmx`] before any is entered.
#[derive(Clone, Copy)]
struct Kid<A> {
    cell: usize,
    code: u8,
    acc: A,
    h: u32,
    state: u32,
}

impl<H: Heuristic> Ida<'_, H> {
    /// [`dfs`](Self::dfs) with pathmax from the children ([`IdaOptions::bpmx`]). The node is
    /// entered with its value `h` and `g + h <= bound`.
    #[allow(
        clippy::too_many_arguments,
        reason = "the recursion's state, passed down"
    )]
    fn dfs_bpmx(
        &mut self,
        blank: usize,
        g: u32,
        bound: u32,
        acc: &H::Acc,
        h: u32,
        prev: u8,
        state: u32,
    ) -> bool {
        if h == 0 && self.tiles.iter().enumerate().all(|(c, &t)| t as usize == c) {
            return true;
        }
        // Children are counted up to four at a time, so a window of four cannot be jumped.
        if self.nodes & 0xF_FFFF < 4
            && let Some(d) = self.deadline
            && Instant::now() >= d
        {
            self.stopped = true;
            return false;
        }
        let (list, count) = self.nbrs[blank];
        let mut kids: [Option<Kid<H::Acc>>; 4] = [None; 4];
        // The generated children's slots in `kids`, in the order they are entered.
        let (mut order, mut len) = ([0u8; 4], 0);
        let mut best = 0;
        for (k, &(c, m)) in list[..count as usize].iter().enumerate() {
            if m ^ 1 == prev {
                continue;
            }
            let state = match self.fsm {
                Some(f) => match f.step(state, m, c) {
                    Some(s) => s,
                    None => continue,
                },
                None => state,
            };
            self.nodes += 1;
            let tile = self.tiles[c];
            self.tiles[blank] = tile;
            self.tiles[c] = 0;
            let next = self.heur.update(acc, &self.tiles, tile, c, blank);
            self.tiles[c] = tile;
            self.tiles[blank] = 0;
            let mut hc = self.heur.value(&next);
            // A child the cheap value already cuts off needs no refined one.
            if g + 1 + hc <= bound {
                hc = self.heur.refine(&next);
            }
            best = best.max(hc);
            // A child's value less one bounds the parent (one move away): once that cuts
            // the parent off (above the node's own `h`, which is within the bound), its
            // other children need not be generated.
            if g + best.saturating_sub(1) > bound {
                self.next_bound = self.next_bound.min(g + best - 1);
                return false;
            }
            kids[k] = Some(Kid {
                cell: c,
                code: m,
                acc: next,
                h: hc,
                state,
            });
            // Most promising first (lowest estimate; ties in the fixed move order): only
            // the last iteration, which stops at the first plan, is shortened by it.
            let mut i = len;
            while i > 0 && kids[order[i - 1] as usize].is_some_and(|o| o.h > hc) {
                order[i] = order[i - 1];
                i -= 1;
            }
            order[i] = k as u8;
            len += 1;
        }
        for &Kid {
            cell: c,
            code: m,
            acc: next,
            h: hc,
            state,
        } in order[..len]
            .iter()
            .filter_map(|&k| kids[k as usize].as_ref())
        {
            let f = g + 1 + hc;
            if f > bound {
                self.next_bound = self.next_bound.min(f);
                continue;
            }
            let tile = self.tiles[c];
            self.tiles[blank] = tile;
            self.tiles[c] = 0;
            self.path.push(m);
            if self.dfs_bpmx(c, g + 1, bound, &next, hc, m, state) {
                return true;
            }
            self.path.pop();
            self.tiles[c] = tile;
            self.tiles[blank] = 0;
            if self.stopped {
                return false;
            }
        }
        false
    }
}

/// Optimal search from `tiles` (blank-first goal) on a `rows × cols` board. The board must
/// be solvable (otherwise the search never ends before the deadline).
pub fn search<H: Heuristic>(
    heur: &H,
    rows: usize,
    cols: usize,
    tiles: &[u8],
    deadline: Option<Instant>,
) -> IdaResult {
    search_with(heur, rows, cols, tiles, deadline, IdaOptions::default())
}

/// [`search`] with options.
pub fn search_with<H: Heuristic>(
    heur: &H,
    rows: usize,
    cols: usize,
    tiles: &[u8],
    deadline: Option<Instant>,
    opts: IdaOptions,
) -> IdaResult {
    let acc = heur.init(tiles);
    let initial_h = heur.refine(&acc);
    let blank = tiles.iter().position(|&t| t == 0).unwrap_or(0);
    let nbrs = flat_neighbours(rows, cols);
    let mut ida = Ida::new(heur, tiles, nbrs, deadline, opts.fsm);
    let mut bound = initial_h.max(opts.start_at);
    let mut iterations = Vec::new();
    let mut reach = Reach::new();
    loop {
        if opts.stop_at.is_some_and(|s| bound >= s) {
            return IdaResult {
                outcome: IdaOutcome::TimeLimit { lower_bound: bound },
                nodes: ida.nodes,
                initial_h,
                iterations,
            };
        }
        iterations.push(bound);
        let before = ida.nodes;
        if ida.iterate(blank, bound, &acc, initial_h, opts.bpmx) {
            return IdaResult {
                outcome: IdaOutcome::Solved(ida.path),
                nodes: ida.nodes,
                initial_h,
                iterations,
            };
        }
        if ida.stopped || ida.next_bound == u32::MAX {
            return IdaResult {
                outcome: IdaOutcome::TimeLimit { lower_bound: bound },
                nodes: ida.nodes,
                initial_h,
                iterations,
            };
        }
        bound = ida.next_bound;
        if let Some(OnIteration(f)) = opts.on_iteration {
            f(bound, ida.nodes);
        }
        if opts.give_up.is_some_and(|g| bound <= g)
            && reach.next_out_of_reach(ida.nodes - before, deadline)
        {
            return IdaResult {
                outcome: IdaOutcome::TimeLimit { lower_bound: bound },
                nodes: ida.nodes,
                initial_h,
                iterations,
            };
        }
    }
}

/// A node of [`Stepper`]'s path: entered, or (one above the top) generated and waiting
/// for its table reads.
#[derive(Clone, Copy)]
struct Frame<A> {
    blank: u8,
    /// The move that led here (`NONE` at the root).
    code: u8,
    /// The tile that move slid (into the parent's blank cell).
    tile: u8,
    /// The next neighbour to try.
    next: u8,
    state: u32,
    acc: A,
}

/// IDA* ([`search_with`] without BPMX) as a machine that evaluates one node per
/// [`step`](Self::step), so that one thread can interleave several searches: a step
/// requests the next child's table entries ([`Heuristic::update_deferred`]) and returns, and
/// the search's next step reads them, by when the other searches' steps have hidden the
/// memory latency. The nodes are visited in [`search_with`]'s order, so the node count,
/// iterations and plan are the same.
pub struct Stepper<'a, H: Heuristic> {
    heur: &'a H,
    nbrs: &'a [([(usize, u8); 4], u8)],
    fsm: Option<&'a Fsm>,
    deadline: Option<Instant>,
    refines: bool,
    tiles: Vec<u8>,
    /// The path: `frames[..depth]` entered, `frames[depth]` the pending child when
    /// `pending`. Frames are written in place: an accumulator is a few hundred bytes, and
    /// moving it per node costs more than the search's arithmetic.
    frames: Vec<Frame<H::Acc>>,
    depth: usize,
    pending: bool,
    bound: u32,
    next_bound: u32,
    nodes: u64,
    initial_h: u32,
    iterations: Vec<u32>,
    result: Option<IdaOutcome>,
}

/// The blank's neighbours of every cell, as [`Stepper::new`] takes them (build once, share
/// between steppers).
pub fn stepper_neighbours(rows: usize, cols: usize) -> Vec<([(usize, u8); 4], u8)> {
    flat_neighbours(rows, cols)
}

impl<'a, H: Heuristic> Stepper<'a, H> {
    /// A search of `tiles` (blank-first goal; the board must be solvable), its first
    /// iteration begun. `nbrs` comes from [`stepper_neighbours`] for the board.
    pub fn new(
        heur: &'a H,
        nbrs: &'a [([(usize, u8); 4], u8)],
        tiles: &[u8],
        deadline: Option<Instant>,
        fsm: Option<&'a Fsm>,
    ) -> Self {
        let acc = heur.init(tiles);
        let initial_h = heur.refine(&acc);
        let blank = tiles.iter().position(|&t| t == 0).unwrap_or(0) as u8;
        let root = Frame {
            blank,
            code: NONE,
            tile: 0,
            next: 0,
            state: fsm::START,
            acc,
        };
        let mut s = Stepper {
            heur,
            nbrs,
            fsm,
            deadline,
            refines: heur.refines(),
            tiles: tiles.to_vec(),
            // Frame 0 is the root, kept for every iteration; the others are overwritten.
            frames: vec![root; 128],
            depth: 0,
            pending: false,
            bound: initial_h,
            next_bound: u32::MAX,
            nodes: 0,
            initial_h,
            iterations: Vec::new(),
            result: None,
        };
        s.begin_iteration();
        s
    }

    /// Enter the root at the current bound (counted as a node, as [`search_with`] does).
    fn begin_iteration(&mut self) {
        self.iterations.push(self.bound);
        self.next_bound = u32::MAX;
        self.nodes += 1;
        // The root's estimate never exceeds the bound: the first is its estimate, and
        // every later one is an f-value above it.
        if self.initial_h == 0 && self.solved() {
            self.result = Some(IdaOutcome::Solved(Vec::new()));
            return;
        }
        // The clock as the recursive search reads it at the root.
        if self.out_of_time() {
            return;
        }
        self.frames[0].next = 0;
        self.depth = 1;
    }

    fn solved(&self) -> bool {
        self.tiles.iter().enumerate().all(|(c, &t)| t as usize == c)
    }

    /// Whether the deadline has passed (then the search ends with the current bound). The
    /// clock is read once every 2^20 nodes, where the recursive search reads it: it costs
    /// more than a node.
    #[inline]
    fn out_of_time(&mut self) -> bool {
        if self.nodes & 0xF_FFFF == 0
            && let Some(dl) = self.deadline
            && Instant::now() >= dl
        {
            self.result = Some(IdaOutcome::TimeLimit {
                lower_bound: self.bound,
            });
            return true;
        }
        false
    }

    /// Advance by one node; `true` once the search has ended ([`result`](Self::result)).
    #[inline]
    pub fn step(&mut self) -> bool {
        if self.result.is_some() {
            return true;
        }
        if self.pending {
            self.pending = false;
            self.evaluate();
            if self.result.is_some() {
                return true;
            }
        }
        self.generate();
        self.result.is_some()
    }

    /// Evaluate the pending child `frames[depth]`: cut it off, or enter it.
    #[inline]
    fn evaluate(&mut self) {
        self.nodes += 1;
        let d = self.depth;
        let g = d as u32;
        let parent_blank = self.frames[d - 1].blank as usize;
        let (blank, tile) = (self.frames[d].blank as usize, self.frames[d].tile);
        // Cut off on part of the reads when the rest could not lower the next bound (the
        // cut-off nodes' minimum f): the node count and the iterations stay the same.
        let lower = g + self.heur.partial_value(&self.frames[d].acc);
        if lower > self.bound && lower >= self.next_bound {
            self.tiles[blank] = tile;
            self.tiles[parent_blank] = 0;
            return;
        }
        let acc = &mut self.frames[d].acc;
        self.heur.complete(acc);
        let mut h = self.heur.value(acc);
        if g + h <= self.bound && self.refines {
            h = self.heur.refine(acc);
        }
        if g + h > self.bound {
            self.next_bound = self.next_bound.min(g + h);
            self.tiles[blank] = tile;
            self.tiles[parent_blank] = 0;
            return;
        }
        if h == 0 && self.solved() {
            let path: Vec<u8> = self.frames[1..=d].iter().map(|f| f.code).collect();
            self.result = Some(IdaOutcome::Solved(path));
            return;
        }
        if self.out_of_time() {
            return;
        }
        self.frames[d].next = 0;
        self.depth = d + 1;
        if self.frames.len() == self.depth {
            let spare = self.frames[0];
            self.frames.push(spare);
        }
    }

    /// Generate the next child in depth-first order into `frames[depth]` (pending), backing
    /// up out of finished nodes, and starting the next iteration when one ends.
    #[inline]
    fn generate(&mut self) {
        loop {
            if self.depth == 0 {
                if self.next_bound == u32::MAX {
                    self.result = Some(IdaOutcome::TimeLimit {
                        lower_bound: self.bound,
                    });
                    return;
                }
                self.bound = self.next_bound;
                self.begin_iteration();
                if self.result.is_some() {
                    return;
                }
                continue;
            }
            let d = self.depth;
            let (top, rest) = self.frames[d - 1..].split_at_mut(1);
            let top = &mut top[0];
            let (list, count) = self.nbrs[top.blank as usize];
            while top.next < count {
                let (c, m) = list[top.next as usize];
                top.next += 1;
                if m ^ 1 == top.code {
                    continue; // never undo the previous move
                }
                let state = match self.fsm {
                    Some(f) => match f.step(top.state, m, c) {
                        Some(s) => {
                            // The child's own children are generated from this state.
                            f.prefetch(s);
                            s
                        }
                        None => continue, // a duplicate of an earlier sequence
                    },
                    None => top.state,
                };
                let blank = top.blank as usize;
                let tile = self.tiles[c];
                self.tiles[blank] = tile;
                self.tiles[c] = 0;
                let child = &mut rest[0];
                self.heur
                    .update_deferred(&top.acc, &mut child.acc, &self.tiles, (tile, c, blank));
                child.blank = c as u8;
                child.code = m;
                child.tile = tile;
                child.state = state;
                self.pending = true;
                return;
            }
            // Every child done: back to the parent, undoing the move into this node.
            let (blank, tile) = (top.blank as usize, top.tile);
            self.depth = d - 1;
            if d >= 2 {
                let parent_blank = self.frames[d - 2].blank as usize;
                self.tiles[blank] = tile;
                self.tiles[parent_blank] = 0;
            }
        }
    }

    /// The outcome once [`step`](Self::step) has returned `true`.
    pub fn result(&self) -> Option<IdaResult> {
        self.result.as_ref().map(|outcome| IdaResult {
            outcome: outcome.clone(),
            nodes: self.nodes,
            initial_h: self.initial_h,
            iterations: self.iterations.clone(),
        })
    }
}

/// A node of a stored frontier: the board and the path to it packed (5 bits a cell, 2 bits
/// a move), with what the walk needs to go on below it: the heuristic's table entries too,
/// where they fit in a word ([`Heuristic::entries`]), in the 8 bytes the alignment left.
#[derive(Clone, Copy)]
struct Stored {
    tiles: u128,
    path: [u64; 4],
    entries: u64,
    g: u8,
    h: u8,
    blank: u8,
    prev: u8,
    state: u32,
}

impl Stored {
    /// The longest path a stored node can hold.
    const MAX_G: usize = 128;

    fn pack(
        tiles: &[u8],
        path: &[u8],
        h: u32,
        blank: usize,
        prev: u8,
        state: u32,
        entries: u64,
    ) -> Stored {
        let mut t = 0u128;
        for (c, &x) in tiles.iter().enumerate() {
            t |= (x as u128) << (5 * c);
        }
        let mut p = [0u64; 4];
        for (i, &m) in path.iter().enumerate() {
            p[i / 32] |= (m as u64) << (2 * (i % 32));
        }
        Stored {
            tiles: t,
            path: p,
            entries,
            g: path.len() as u8,
            h: h.min(255) as u8,
            blank: blank as u8,
            prev,
            state,
        }
    }

    fn f(&self) -> u32 {
        self.g as u32 + self.h as u32
    }

    fn unpack(&self, tiles: &mut Vec<u8>, cells: usize, path: &mut Vec<u8>) {
        tiles.clear();
        tiles.extend((0..cells).map(|c| ((self.tiles >> (5 * c)) & 31) as u8));
        path.clear();
        path.extend(
            (0..self.g as usize).map(|i| ((self.path[i / 32] >> (2 * (i % 32))) & 3) as u8),
        );
    }
}

impl<H: Heuristic> Ida<'_, H> {
    /// [`dfs`](Self::dfs) that stores the nodes cut off (`g + h > bound`, `h` refined) in
    /// `out` instead of only counting them; stops (`stopped`, `overflow`) past `cap` nodes.
    #[allow(
        clippy::too_many_arguments,
        reason = "the recursion's state, passed down"
    )]
    fn collect(
        &mut self,
        blank: usize,
        g: u32,
        bound: u32,
        acc: H::Acc,
        prev: u8,
        state: u32,
        out: &mut Vec<Stored>,
        cap: usize,
    ) -> bool {
        self.nodes += 1;
        let mut h = self.heur.value(&acc);
        // Refined also where the cheap value already cuts: a stored node is sorted by it.
        if self.refines {
            h = self.heur.refine(&acc);
        }
        let f = g + h;
        if f > bound {
            if f < self.next_bound {
                self.next_bound = f;
            }
            if out.len() >= cap || self.path.len() >= Stored::MAX_G {
                self.overflow = true;
                self.stopped = true;
                return false;
            }
            let entries = self.heur.entries(&acc).unwrap_or(0);
            out.push(Stored::pack(
                &self.tiles,
                &self.path,
                h,
                blank,
                prev,
                state,
                entries,
            ));
            return false;
        }
        if h == 0 && self.tiles.iter().enumerate().all(|(c, &t)| t as usize == c) {
            return true;
        }
        if self.nodes & 0xF_FFFF == 0
            && let Some(d) = self.deadline
            && Instant::now() >= d
        {
            self.stopped = true;
            return false;
        }
        let (list, count) = self.nbrs[blank];
        for &(c, m) in &list[..count as usize] {
            if m ^ 1 == prev {
                continue;
            }
            let state = match self.fsm {
                Some(f) => match f.step(state, m, c) {
                    Some(s) => s,
                    None => continue,
                },
                None => state,
            };
            let tile = self.tiles[c];
            self.tiles[blank] = tile;
            self.tiles[c] = 0;
            let next = self.heur.update(&acc, &self.tiles, tile, c, blank);
            self.path.push(m);
            if self.collect(c, g + 1, bound, next, m, state, out, cap) {
                return true;
            }
            self.path.pop();
            self.tiles[c] = tile;
            self.tiles[blank] = 0;
            if self.stopped {
                return false;
            }
        }
        false
    }
}

/// `nodes` (in depth-first order) without the repeated boards: of the nodes with one board,
/// only the first in shortlex order (fewest moves, then move-code order) is kept. Dropping the
/// others loses no plan the search needs: the earliest optimal plan in that order passes
/// the stored frontier at a node whose path is the earliest to its board (an earlier one,
/// followed by the rest of the plan, would be an earlier optimal plan), so that node is
/// kept, and the duplicate-pruning automaton, whose forbidden words are the ones that are
/// not earliest in the same order, never cuts that plan below it.
fn shortest_first(nodes: Vec<Stored>) -> Vec<Stored> {
    // Sorting 32-byte keys, not the 64-byte nodes, then gathering the kept ones.
    let mut keys: Vec<(u128, u64)> = nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.tiles, (n.g as u64) << 32 | i as u64))
        .collect();
    keys.sort_unstable();
    keys.dedup_by_key(|k| k.0);
    let mut kept: Vec<u32> = keys.iter().map(|k| k.1 as u32).collect();
    kept.sort_unstable();
    kept.iter().map(|&i| nodes[i as usize]).collect()
}

/// `nodes` in the order the stored frontier is searched: lowest `f` first, then lowest
/// estimate, then depth-first.
fn search_order(nodes: Vec<Stored>) -> Vec<Stored> {
    let mut keys: Vec<u64> = nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.f() as u64) << 48 | (n.h as u64) << 40 | i as u64)
        .collect();
    keys.sort_unstable();
    keys.iter()
        .map(|&k| nodes[(k & 0xFF_FFFF_FFFF) as usize])
        .collect()
}

/// Whether to store the next iteration's frontier ([`IdaOptions::stored_frontier`] = `cap`),
/// the last two iterations having visited `prev_last` and `last` nodes: when the next one is
/// forecast (`last` × its growth) within the cap and the one after it beyond: the largest
/// iteration whose frontier (about half its nodes) fits with room for a forecast twice too
/// low. Iterations grow by a steady factor, so one iteration in the run meets this.
fn collect_now(cap: usize, last: u64, prev_last: u64) -> bool {
    if prev_last == 0 {
        return false;
    }
    let cap = cap as u64;
    let growth = (last / prev_last).max(1);
    let next = last.saturating_mul(growth);
    next <= cap && next.saturating_mul(growth) > cap
}

#[cfg(test)]
thread_local! {
    /// Frontiers stored and given up as too large on this thread ([`Ida::collect_iteration`]
    /// runs on the caller's thread), so that tests can see which way a search went.
    static COLLECTED: std::cell::Cell<(usize, usize)> = const { std::cell::Cell::new((0, 0)) };
}

/// How [`Ida::collect_iteration`] ended.
enum Collected {
    /// A plan, on the walk's path.
    Found,
    /// More nodes than the cap: nothing stored, the iteration unfinished.
    Overflow,
    /// The deadline passed.
    Stopped,
    /// The iteration is finished: its frontier sorted for the next ones, and their bound.
    Done(Vec<Stored>, u32),
}

impl<H: Heuristic> Ida<'_, H> {
    /// One iteration at `bound` from the root that stores its frontier: the nodes it cuts
    /// off, the repeated boards dropped ([`shortest_first`]), ordered lowest `f` first and,
    /// of equal `f`, lowest estimate (the deepest, nearest the goal by the estimate) first,
    /// then depth-first (Bu & Korf's order for the iterations of A*+IDA*).
    fn collect_iteration(
        &mut self,
        blank: usize,
        bound: u32,
        acc: H::Acc,
        cap: usize,
    ) -> Collected {
        let mut out = Vec::new();
        self.next_bound = u32::MAX;
        self.overflow = false;
        let found = self.collect(blank, 0, bound, acc, NONE, fsm::START, &mut out, cap);
        if found {
            return Collected::Found;
        }
        if self.overflow {
            self.overflow = false;
            self.stopped = false;
            #[cfg(test)]
            COLLECTED.with(|c| c.set((c.get().0, c.get().1 + 1)));
            return Collected::Overflow;
        }
        if self.stopped || self.next_bound == u32::MAX {
            return Collected::Stopped;
        }
        let out = search_order(shortest_first(out));
        #[cfg(test)]
        COLLECTED.with(|c| c.set((c.get().0 + 1, c.get().1)));
        Collected::Done(out, self.next_bound)
    }
}

/// A node where [`search_parallel`] cuts an iteration's tree: the threads search below it.
#[derive(Clone)]
struct Frontier<A> {
    tiles: Vec<u8>,
    blank: usize,
    acc: A,
    h: u32,
    prev: u8,
    state: u32,
    path: Vec<u8>,
}

/// Frontier nodes per thread: enough that an unlucky split still keeps every thread busy.
const FRONTIER_PER_THREAD: usize = 256;

/// [`search_parallel`] runs an iteration on several threads only once the previous one
/// visited at least this many nodes (IDA*'s iterations grow by a factor of several).
const PARALLEL_FROM: u64 = 1 << 18;

/// [`search_with`] on `threads` threads. Each large iteration's tree is cut at the first depth
/// with at least `FRONTIER_PER_THREAD` nodes per thread; the threads take the subtrees
/// below the cut in depth-first order. The plan returned is the first in that order, the
/// one the one-thread search returns (unless the deadline stopped an earlier subtree: then
/// a later subtree's plan, as short, may come back); the node count includes the subtrees
/// that threads finished after another had found the plan, so it differs from the
/// one-thread count. The cut does no pathmax, so with BPMX the bounds tried may differ
/// from the one-thread search's; the plan does not.
///
/// With [`IdaOptions::stored_frontier`], the iteration forecast to be the largest whose
/// frontier fits is walked on one thread, storing its frontier; the later iterations are
/// the frontier's subtrees in the frontier's order, taken by the threads (from one thread
/// on). The plan is then the first in that order, whatever the thread count; it is as short
/// as the plain search's, whose bounds these iterations try (each the least `f` cut off,
/// two more on the sliding boards, whose parity fixes every path's), and the nodes above
/// the frontier are not counted again.
pub fn search_parallel<H>(
    heur: &H,
    rows: usize,
    cols: usize,
    tiles: &[u8],
    deadline: Option<Instant>,
    opts: IdaOptions,
    threads: usize,
) -> IdaResult
where
    H: Heuristic + Sync,
    H::Acc: Send + Sync,
{
    let board = (rows, cols, tiles);
    search_parallel_from(heur, board, deadline, opts, threads, PARALLEL_FROM)
}

/// [`search_parallel`] with the iteration size from which threads are used.
fn search_parallel_from<H>(
    heur: &H,
    (rows, cols, tiles): (usize, usize, &[u8]),
    deadline: Option<Instant>,
    opts: IdaOptions,
    threads: usize,
    parallel_from: u64,
) -> IdaResult
where
    H: Heuristic + Sync,
    H::Acc: Send + Sync,
{
    // With a stored frontier, one thread takes the frontier's order too, so that the plan
    // does not depend on the thread count.
    if threads <= 1 && opts.stored_frontier == 0 {
        return search_with(heur, rows, cols, tiles, deadline, opts);
    }
    let threads = threads.max(1);
    let acc = heur.init(tiles);
    let initial_h = heur.refine(&acc);
    // Whether stored boards carry their table entries (then a frontier iteration starts
    // each board's subtree without reading the tables again).
    let restorable = heur.entries(&acc).is_some();
    let blank = tiles.iter().position(|&t| t == 0).unwrap_or(0);
    let nbrs = flat_neighbours(rows, cols);
    let is_goal = |t: &[u8]| t.iter().enumerate().all(|(c, &x)| x as usize == c);
    let mut nodes = 0u64;
    let mut bound = initial_h.max(opts.start_at);
    let mut iterations = Vec::new();
    let solved = |path: Vec<u8>, nodes, iterations| IdaResult {
        outcome: IdaOutcome::Solved(path),
        nodes,
        initial_h,
        iterations,
    };
    if is_goal(tiles) {
        return solved(Vec::new(), 1, vec![bound]);
    }
    // Small iterations run on this thread: starting threads and cutting the tree cost more
    // than they save below a few hundred thousand nodes (Korf's 100 took three times longer
    // with every iteration cut).
    let mut seq = Ida::new(heur, tiles, nbrs.clone(), deadline, opts.fsm);
    let mut last = 0u64;
    let mut prev_last = 0u64;
    let mut frontier: Option<Vec<Stored>> = None;
    // Not once a plan is known (`stop_at`): the iterations left then only prove it, and gain
    // from a frontier only its repeated boards, which reading each stored board's table
    // entries again outweighs. The frontier pays where the search finds the plan itself.
    // Boards are packed 5 bits a cell, as the automaton's are.
    let mut wants_frontier = opts.stored_frontier > 0
        && opts.stop_at.is_none()
        && !opts.bpmx
        && tiles.len() <= fsm::MAX_CELLS;
    let mut reach = Reach::new();
    let mut jumped = opts.start_at > initial_h;
    let gave_up = |bound, nodes, iterations| IdaResult {
        outcome: IdaOutcome::TimeLimit { lower_bound: bound },
        nodes,
        initial_h,
        iterations,
    };
    // A resumed search stores the frontier an unbroken one would: the iterations below the
    // bound it resumes from run again, uncounted, until it is stored (or would no longer
    // fit), so the iterations after it visit the unbroken search's nodes.
    if wants_frontier && opts.start_at > initial_h {
        let cap = opts.stored_frontier;
        let mut b = initial_h;
        while b < opts.start_at && last <= cap as u64 {
            if collect_now(cap, last, prev_last) {
                wants_frontier = false;
                match seq.collect_iteration(blank, b, acc, cap) {
                    Collected::Found => {
                        return solved(std::mem::take(&mut seq.path), seq.nodes, vec![b]);
                    }
                    Collected::Overflow => {}
                    Collected::Stopped => return gave_up(opts.start_at, 0, Vec::new()),
                    Collected::Done(out, _) => frontier = Some(out),
                }
                break;
            }
            let before = seq.nodes;
            if seq.iterate(blank, b, &acc, initial_h, false) {
                return solved(std::mem::take(&mut seq.path), seq.nodes, vec![b]);
            }
            if seq.stopped || seq.next_bound == u32::MAX {
                return gave_up(opts.start_at, 0, Vec::new());
            }
            prev_last = last;
            last = seq.nodes - before;
            b = seq.next_bound;
        }
        seq.nodes = 0;
    }
    loop {
        if opts.stop_at.is_some_and(|s| bound >= s) {
            return IdaResult {
                outcome: IdaOutcome::TimeLimit { lower_bound: bound },
                nodes,
                initial_h,
                iterations,
            };
        }
        iterations.push(bound);
        if wants_frontier
            && frontier.is_none()
            && collect_now(opts.stored_frontier, last, prev_last)
        {
            wants_frontier = false;
            let before = seq.nodes;
            let collected = seq.collect_iteration(blank, bound, acc, opts.stored_frontier);
            nodes += seq.nodes - before;
            match collected {
                Collected::Found => {
                    return solved(std::mem::take(&mut seq.path), nodes, iterations);
                }
                // Too large to store: this iteration again, without.
                Collected::Overflow => {
                    iterations.pop();
                    continue;
                }
                Collected::Stopped => {
                    return IdaResult {
                        outcome: IdaOutcome::TimeLimit { lower_bound: bound },
                        nodes,
                        initial_h,
                        iterations,
                    };
                }
                Collected::Done(out, next_bound) => {
                    frontier = Some(out);
                    prev_last = last;
                    last = seq.nodes - before;
                    bound = next_bound;
                }
            }
            if let Some(OnIteration(f)) = opts.on_iteration {
                f(bound, nodes);
            }
            if opts.give_up.is_some_and(|g| bound <= g) && reach.next_out_of_reach(last, deadline) {
                return gave_up(bound, nodes, iterations);
            }
            continue;
        }
        if let Some(front) = &frontier {
            let iteration_start = nodes;
            let walkers = (heur, &nbrs[..], deadline, opts.fsm);
            let (ended, walked) =
                share_subtrees(walkers, threads, front.len(), 16, u32::MAX, |ida, i| {
                    let node = &front[i];
                    if node.f() > bound {
                        // Sorted by f: so is every later one.
                        ida.next_bound = ida.next_bound.min(node.f());
                        return Subtree::Past;
                    }
                    node.unpack(&mut ida.tiles, tiles.len(), &mut ida.path);
                    let a = if restorable {
                        heur.restore(&ida.tiles, node.entries)
                    } else {
                        heur.init(&ida.tiles)
                    };
                    Subtree::Searched(ida.dfs(
                        node.blank as usize,
                        node.g as u32,
                        bound,
                        a,
                        node.prev,
                        node.state,
                    ))
                });
            nodes += walked;
            prev_last = last;
            last = nodes - iteration_start;
            match ended.next(
                (bound, initial_h),
                (nodes, last),
                &mut iterations,
                &opts,
                (&mut reach, deadline),
            ) {
                Ok(next) => bound = next,
                Err(result) => return result,
            }
            continue;
        }
        // A resumed search's first iteration is as large as the unbroken one's there.
        if last < parallel_from && !jumped {
            let before = seq.nodes;
            let found = seq.iterate(blank, bound, &acc, initial_h, opts.bpmx);
            prev_last = last;
            last = seq.nodes - before;
            nodes += last;
            if found {
                return solved(std::mem::take(&mut seq.path), nodes, iterations);
            }
            if seq.stopped || seq.next_bound == u32::MAX {
                return IdaResult {
                    outcome: IdaOutcome::TimeLimit { lower_bound: bound },
                    nodes,
                    initial_h,
                    iterations,
                };
            }
            bound = seq.next_bound;
            if let Some(OnIteration(f)) = opts.on_iteration {
                f(bound, nodes);
            }
            if opts.give_up.is_some_and(|g| bound <= g) && reach.next_out_of_reach(last, deadline) {
                return gave_up(bound, nodes, iterations);
            }
            continue;
        }
        jumped = false;
        let iteration_start = nodes;
        nodes += 1; // the root
        let mut next_bound = u32::MAX;
        // Cut the tree: expand level by level (children in the order the walk enters them,
        // so the list stays in depth-first order) until it is wide enough.
        let mut level = vec![Frontier {
            tiles: tiles.to_vec(),
            blank,
            acc,
            h: initial_h,
            prev: NONE,
            state: fsm::START,
            path: Vec::new(),
        }];
        let mut depth = 0u32;
        while level.len() < FRONTIER_PER_THREAD * threads && depth < bound && !level.is_empty() {
            let mut next = Vec::with_capacity(level.len() * 3);
            for node in &level {
                let first = next.len();
                let (list, count) = nbrs[node.blank];
                for &(c, m) in &list[..count as usize] {
                    if m ^ 1 == node.prev {
                        continue;
                    }
                    let state = match opts.fsm {
                        Some(f) => match f.step(node.state, m, c) {
                            Some(s) => s,
                            None => continue,
                        },
                        None => node.state,
                    };
                    nodes += 1;
                    let mut t = node.tiles.clone();
                    let tile = t[c];
                    t[node.blank] = tile;
                    t[c] = 0;
                    let a = heur.update(&node.acc, &t, tile, c, node.blank);
                    let mut h = heur.value(&a);
                    if depth + 1 + h <= bound {
                        h = heur.refine(&a);
                    }
                    let f = depth + 1 + h;
                    if f > bound {
                        next_bound = next_bound.min(f);
                        continue;
                    }
                    let mut path = node.path.clone();
                    path.push(m);
                    if h == 0 && is_goal(&t) {
                        return solved(path, nodes, iterations);
                    }
                    next.push(Frontier {
                        tiles: t,
                        blank: c,
                        acc: a,
                        h,
                        prev: m,
                        state,
                        path,
                    });
                }
                if opts.bpmx {
                    // The BPMX walk enters children lowest estimate first (stable).
                    next[first..].sort_by_key(|f| f.h);
                }
            }
            level = next;
            depth += 1;
        }
        let walkers = (heur, &nbrs[..], deadline, opts.fsm);
        let (ended, walked) =
            share_subtrees(walkers, threads, level.len(), 1, next_bound, |ida, i| {
                let node = &level[i];
                ida.tiles.clone_from(&node.tiles);
                ida.path.clone_from(&node.path);
                Subtree::Searched(if opts.bpmx {
                    ida.dfs_bpmx(
                        node.blank, depth, bound, &node.acc, node.h, node.prev, node.state,
                    )
                } else {
                    let found = ida.dfs(node.blank, depth, bound, node.acc, node.prev, node.state);
                    // `dfs` counts the node it enters, already counted by the cut.
                    ida.nodes -= 1;
                    found
                })
            });
        nodes += walked;
        prev_last = last;
        last = nodes - iteration_start;
        match ended.next(
            (bound, initial_h),
            (nodes, last),
            &mut iterations,
            &opts,
            (&mut reach, deadline),
        ) {
            Ok(next) => bound = next,
            Err(result) => return result,
        }
    }
}

/// What every worker of a threaded iteration builds its walker from: the heuristic, the
/// blank's moves per cell, the deadline and the duplicate-pruning automaton.
type Walkers<'a, 'n, H> = (
    &'a H,
    &'n [([(usize, u8); 4], u8)],
    Option<Instant>,
    Option<&'a Fsm>,
);

/// What a worker of a threaded iteration did with one subtree.
enum Subtree {
    /// Searched it; whether it holds a plan.
    Searched(bool),
    /// It lies past the bound, and so does every later one (the subtrees are sorted by `f`).
    Past,
}

/// One iteration on `threads` workers over `count` subtrees taken in order, `chunk` at a
/// time, each searched by `search` on the worker's own walker: the plan of the earliest
/// subtree that holds one (later subtrees are not started once it is known), a stop at the
/// deadline, or the least `f` cut off (from `next_bound` down). Returns how it ended and the
/// nodes the walkers counted. The order, not the thread count, decides the plan.
fn share_subtrees<'a, H, F>(
    (heur, nbrs, deadline, fsm): Walkers<'a, '_, H>,
    threads: usize,
    count: usize,
    chunk: usize,
    next_bound: u32,
    search: F,
) -> (Ended, u64)
where
    H: Heuristic + Sync,
    F: Fn(&mut Ida<'a, H>, usize) -> Subtree + Sync,
{
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
    let taken = AtomicUsize::new(0);
    let best = AtomicUsize::new(usize::MAX);
    let plan: Mutex<Option<Vec<u8>>> = Mutex::new(None);
    let shared_next = AtomicU32::new(next_bound);
    let shared_nodes = AtomicU64::new(0);
    let stopped = AtomicBool::new(false);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                let mut ida = Ida::new(heur, &[], nbrs.to_vec(), deadline, fsm);
                'subtrees: loop {
                    let first = taken.fetch_add(chunk, Ordering::Relaxed);
                    if first >= count {
                        break;
                    }
                    for i in first..(first + chunk).min(count) {
                        // After a subtree earlier in order found a plan, or after another
                        // thread ran out of time.
                        if i > best.load(Ordering::Relaxed) || stopped.load(Ordering::Relaxed) {
                            break 'subtrees;
                        }
                        match search(&mut ida, i) {
                            Subtree::Past => {
                                taken.fetch_max(count, Ordering::Relaxed);
                                break 'subtrees;
                            }
                            Subtree::Searched(found) => {
                                if found {
                                    best.fetch_min(i, Ordering::Relaxed);
                                    let mut p = plan.lock().expect("not poisoned");
                                    // Keep the plan of the earliest subtree.
                                    if best.load(Ordering::Relaxed) == i {
                                        *p = Some(std::mem::take(&mut ida.path));
                                    }
                                }
                                if ida.stopped {
                                    stopped.store(true, Ordering::Relaxed);
                                    break 'subtrees;
                                }
                            }
                        }
                    }
                }
                shared_next.fetch_min(ida.next_bound, Ordering::Relaxed);
                shared_nodes.fetch_add(ida.nodes, Ordering::Relaxed);
            });
        }
    });
    let ended = Ended {
        plan: plan.into_inner().expect("not poisoned"),
        stopped: stopped.into_inner(),
        next_bound: shared_next.into_inner(),
    };
    (ended, shared_nodes.into_inner())
}

/// How an iteration on threads ended: a plan, the deadline, or the least `f` cut off.
struct Ended {
    plan: Option<Vec<u8>>,
    stopped: bool,
    next_bound: u32,
}

impl Ended {
    /// The search's result if it ends after this iteration at `bound` (`nodes` so far,
    /// `last` in this iteration), else the next iteration's bound, told to
    /// [`IdaOptions::on_iteration`] and checked against [`IdaOptions::give_up`].
    fn next(
        self,
        (bound, initial_h): (u32, u32),
        (nodes, last): (u64, u64),
        iterations: &mut Vec<u32>,
        opts: &IdaOptions,
        (reach, deadline): (&mut Reach, Option<Instant>),
    ) -> Result<u32, IdaResult> {
        let mut result = |outcome| IdaResult {
            outcome,
            nodes,
            initial_h,
            iterations: std::mem::take(iterations),
        };
        if let Some(path) = self.plan {
            return Err(result(IdaOutcome::Solved(path)));
        }
        if self.stopped || self.next_bound == u32::MAX {
            return Err(result(IdaOutcome::TimeLimit { lower_bound: bound }));
        }
        let bound = self.next_bound;
        if let Some(OnIteration(f)) = opts.on_iteration {
            f(bound, nodes);
        }
        if opts.give_up.is_some_and(|g| bound <= g) && reach.next_out_of_reach(last, deadline) {
            return Err(result(IdaOutcome::TimeLimit { lower_bound: bound }));
        }
        Ok(bound)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::manhattan::ManhattanLc;
    use crate::search::pdb::{AdditivePdb, Partition};

    /// The board `len` random blank moves (xorshift on `seed`) away from the goal.
    fn random_walk(rows: usize, cols: usize, len: usize, seed: &mut u64) -> Vec<u8> {
        let nb = neighbours(rows, cols);
        let mut tiles: Vec<u8> = (0..(rows * cols) as u8).collect();
        let mut b = 0;
        for _ in 0..len {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            let (c, _) = nb[b][*seed as usize % nb[b].len()];
            tiles.swap(b, c);
            b = c;
        }
        tiles
    }

    /// A stepped search to its end.
    fn stepped<H: Heuristic>(
        h: &H,
        (rows, cols): (usize, usize),
        tiles: &[u8],
        fsm: Option<&Fsm>,
        deadline: Option<Instant>,
    ) -> IdaResult {
        let nbrs = stepper_neighbours(rows, cols);
        let mut s = Stepper::new(h, &nbrs, tiles, deadline, fsm);
        while !s.step() {}
        s.result().expect("ended")
    }

    /// The forecast stops only after an iteration with one before it, only with a deadline,
    /// and only when the next would not fit: here the deadline has passed.
    #[test]
    fn the_stop_needs_a_forecast_and_a_deadline() {
        let past = Some(Instant::now());
        let mut reach = Reach::new();
        assert!(
            !reach.next_out_of_reach(1_000, past),
            "no iteration before it"
        );
        assert!(!reach.next_out_of_reach(7_000, None), "no deadline");
        // The next iteration takes some time, so its forecast is more than nothing.
        std::thread::sleep(std::time::Duration::from_millis(1));
        assert!(reach.next_out_of_reach(49_000, past));
        let far = Some(Instant::now() + std::time::Duration::from_secs(3600));
        assert!(!reach.next_out_of_reach(50_000, far));
    }

    /// The stepper (what the benchmark's interleaved mode runs) visits the recursive search's
    /// nodes in its order: the same plan, node count, iterations and first estimate, with
    /// Manhattan distance, pattern databases, their dual lookups and duplicate pruning.
    #[test]
    fn the_stepper_visits_the_recursive_searchs_nodes() {
        let mut seed = 0x2545_F491_u64;
        let mut walk = |rows, cols, len| random_walk(rows, cols, len, &mut seed);
        let same = |a: &IdaResult, b: &IdaResult, what: &str| {
            assert_eq!(a.outcome, b.outcome, "{what}");
            assert_eq!(a.nodes, b.nodes, "{what}");
            assert_eq!(a.iterations, b.iterations, "{what}");
            assert_eq!(a.initial_h, b.initial_h, "{what}");
        };
        let md4 = ManhattanLc::new(4, 4);
        let f4 = Fsm::build(4, 4, 8).unwrap();
        for len in [0, 1, 20, 40, 60] {
            let tiles = walk(4, 4, len);
            for fsm in [None, Some(&f4)] {
                let opts = IdaOptions {
                    bpmx: false,
                    fsm,
                    ..Default::default()
                };
                let one = search_with(&md4, 4, 4, &tiles, None, opts);
                let st = stepped(&md4, (4, 4), &tiles, fsm, None);
                same(&st, &one, &format!("4×4 {tiles:?}, FSM {}", fsm.is_some()));
            }
        }
        let f3 = Fsm::build(3, 3, 12).unwrap();
        for groups in [
            vec![vec![1, 2, 3, 4], vec![5, 6, 7, 8]],
            vec![(1..8).collect(), vec![8]],
        ] {
            let p = Partition {
                rows: 3,
                cols: 3,
                groups,
            };
            let plain = AdditivePdb::build(&p, &|_: &str| {}).unwrap();
            let dual = plain.clone().with_dual(&|_: &str| {});
            for len in [3, 25, 50] {
                let tiles = walk(3, 3, len);
                for (db, name) in [(&plain, "plain"), (&dual, "dual")] {
                    for fsm in [None, Some(&f3)] {
                        let opts = IdaOptions {
                            bpmx: false,
                            fsm,
                            ..Default::default()
                        };
                        let one = search_with(db, 3, 3, &tiles, None, opts);
                        let st = stepped(db, (3, 3), &tiles, fsm, None);
                        same(&st, &one, &format!("{:?} {name} {tiles:?}", p.groups));
                    }
                }
            }
        }
    }

    /// A stepped search past its deadline stops with a proven bound, as the recursive one
    /// does: the bound of the iteration it was in.
    #[test]
    fn the_stepper_stops_at_its_deadline_with_a_bound() {
        // Korf's first instance (57 moves) with Manhattan distance: far more than the 2^20 nodes after
        // which the clock is read.
        let tiles = [14u8, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3];
        let md = ManhattanLc::new(4, 4);
        let r = stepped(&md, (4, 4), &tiles, None, Some(Instant::now()));
        let IdaOutcome::TimeLimit { lower_bound } = r.outcome else {
            panic!("{r:?}")
        };
        assert!(r.nodes > 1 << 20 && r.nodes < 1 << 22, "{}", r.nodes);
        assert_eq!(lower_bound, *r.iterations.last().unwrap());
        assert!(lower_bound >= r.initial_h && lower_bound <= 57);
    }

    #[test]
    fn every_iteration_on_threads_finds_the_one_thread_plan() {
        // Random walks from the 3×3 and 4×4 goals; threads from the first iteration on.
        let mut seed = 0x9E37_79B9_u64;
        let (mut boards, mut boards16) = (Vec::new(), Vec::new());
        for (rows, cols, walk) in [(3, 3, 40), (4, 4, 36)] {
            let h = ManhattanLc::new(rows, cols);
            for _ in 0..12 {
                let tiles = random_walk(rows, cols, walk, &mut seed);
                let one = search(&h, rows, cols, &tiles, None);
                for threads in [2, 3] {
                    let opts = IdaOptions::default();
                    let many =
                        search_parallel_from(&h, (rows, cols, &tiles), None, opts, threads, 0);
                    assert_eq!(many.outcome, one.outcome, "{tiles:?} on {threads} threads");
                    assert_eq!(many.iterations, one.iterations, "{tiles:?}");
                }
                if rows == 3 {
                    boards.push(tiles);
                } else {
                    boards16.push(tiles);
                }
            }
        }
        // The same with the pattern databases, their dual lookups, BPMX and duplicate
        // pruning: the plan is the same; with BPMX the bounds tried may differ (the cut does
        // no pathmax).
        let p = Partition {
            rows: 3,
            cols: 3,
            groups: vec![vec![1, 2, 3, 4], vec![5, 6, 7, 8]],
        };
        let db = AdditivePdb::build(&p, &|_: &str| {})
            .unwrap()
            .with_dual(&|_: &str| {});
        let f = Fsm::build(3, 3, 12).unwrap();
        for tiles in &boards {
            for bpmx in [false, true] {
                let opts = IdaOptions {
                    bpmx,
                    fsm: Some(&f),
                    ..Default::default()
                };
                let one = search_with(&db, 3, 3, tiles, None, opts);
                let many = search_parallel_from(&db, (3, 3, tiles), None, opts, 2, 0);
                assert_eq!(many.outcome, one.outcome, "{tiles:?}, BPMX {bpmx}");
                if !bpmx {
                    assert_eq!(many.iterations, one.iterations, "{tiles:?}");
                }
            }
        }
        // On the 15-puzzle, where the frontier stops short of the bound: the BPMX walk
        // enters children lowest estimate first, and so must the frontier's order. (The
        // boards above pass with the frontier's ordering removed; these, with 6-6-3 and its
        // dual lookups on near-random boards, do not.)
        let db = AdditivePdb::build(&Partition::fifteen_663(), &|_: &str| {})
            .unwrap()
            .with_dual(&|_: &str| {});
        let opts = IdaOptions {
            bpmx: true,
            fsm: None,
            ..Default::default()
        };
        for _ in 0..8 {
            boards16.push(random_walk(4, 4, 200, &mut seed));
        }
        for tiles in &boards16 {
            let one = search_with(&db, 4, 4, tiles, None, opts);
            let many = search_parallel_from(&db, (4, 4, tiles), None, opts, 2, 0);
            assert_eq!(many.outcome, one.outcome, "{tiles:?}, BPMX, two threads");
        }
    }

    /// A known plan's length as `stop_at`: the search stops before that iteration with the
    /// length as its proven bound, having visited fewer nodes than the search that finds a
    /// plan at it.
    #[test]
    fn stop_at_a_known_length_proves_it_without_the_last_iteration() {
        let md3 = super::super::manhattan::ManhattanLc::new(3, 3);
        // An 8-puzzle at the board's diameter, 31 moves (blank-first goal).
        let tiles: [u8; 9] = [8, 6, 7, 2, 5, 4, 3, 0, 1];
        let full = search_with(&md3, 3, 3, &tiles, None, IdaOptions::default());
        let IdaOutcome::Solved(plan) = &full.outcome else {
            panic!("{:?}", full.outcome)
        };
        let opt = plan.len() as u32;
        let stopped = search_with(
            &md3,
            3,
            3,
            &tiles,
            None,
            IdaOptions {
                stop_at: Some(opt),
                ..Default::default()
            },
        );
        assert_eq!(stopped.outcome, IdaOutcome::TimeLimit { lower_bound: opt });
        assert!(
            stopped.nodes < full.nodes,
            "{} {}",
            stopped.nodes,
            full.nodes
        );
        assert_eq!(
            stopped.iterations,
            full.iterations[..full.iterations.len() - 1]
        );
    }

    /// A search resumed from any bound an earlier search reported (`on_iteration`) runs
    /// the rest of that search's iterations: the same plan, the same remaining iterations,
    /// and (on one thread) the nodes the earlier search had left to count; on two threads
    /// the same plan length and iterations.
    #[test]
    fn a_search_resumed_from_a_reported_bound_finishes_the_unbroken_one() {
        use std::sync::Mutex;
        let md4 = ManhattanLc::new(4, 4);
        let mut seed = 0x2545_f491_4f6c_dd1d;
        for len in [30, 60, 90] {
            let tiles = random_walk(4, 4, len, &mut seed);
            let seen = Mutex::new(Vec::new());
            let note = |bound: u32, nodes: u64| seen.lock().unwrap().push((bound, nodes));
            let opts = IdaOptions {
                on_iteration: Some(OnIteration(&note)),
                ..Default::default()
            };
            let whole = search_with(&md4, 4, 4, &tiles, None, opts);
            let seen = seen.into_inner().unwrap();
            assert_eq!(seen.len() + 1, whole.iterations.len(), "{tiles:?}");
            for (k, &(bound, nodes)) in seen.iter().enumerate() {
                assert_eq!(bound, whole.iterations[k + 1], "{tiles:?}");
                let opts = IdaOptions {
                    start_at: bound,
                    ..Default::default()
                };
                let rest = search_with(&md4, 4, 4, &tiles, None, opts);
                assert_eq!(rest.outcome, whole.outcome, "{tiles:?} from {bound}");
                assert_eq!(rest.iterations, whole.iterations[k + 1..], "{tiles:?}");
                assert_eq!(nodes + rest.nodes, whole.nodes, "{tiles:?} from {bound}");
                let two = search_parallel_from(&md4, (4, 4, &tiles), None, opts, 2, 0);
                let (IdaOutcome::Solved(a), IdaOutcome::Solved(b)) = (&two.outcome, &whole.outcome)
                else {
                    panic!("{:?}", two.outcome)
                };
                assert_eq!(a.len(), b.len(), "{tiles:?} from {bound}, two threads");
                assert_eq!(two.iterations, whole.iterations[k + 1..], "{tiles:?}");
            }
        }
    }

    /// Replays `plan` on `tiles`: whether it ends at the blank-first goal.
    fn reaches_goal(rows: usize, cols: usize, tiles: &[u8], plan: &[u8]) -> bool {
        let nbrs = neighbours(rows, cols);
        let mut t = tiles.to_vec();
        let mut blank = t.iter().position(|&x| x == 0).unwrap();
        for &m in plan {
            let Some(&(c, _)) = nbrs[blank].iter().find(|&&(_, code)| code == m) else {
                return false;
            };
            t.swap(blank, c);
            blank = c;
        }
        t.iter().enumerate().all(|(c, &x)| x as usize == c)
    }

    #[test]
    fn a_stored_frontier_keeps_the_plans_optimal_and_the_bounds_of_the_plain_search() {
        // Caps from one that overflows (the iteration is run again without) to one that
        // stores a frontier early and runs most iterations from it; with and without the
        // duplicate pruning, whose words straddle the frontier.
        let mut seed = 0x51_7cc1_b727_220a_u64;
        let md = ManhattanLc::new(4, 4);
        let f = Fsm::build(4, 4, 10).unwrap();
        let mut stored = 0;
        let mut runs = 0;
        for len in [120, 140, 160, 180, 200, 220, 240, 260] {
            let tiles = random_walk(4, 4, len, &mut seed);
            if [120, 140, 200].contains(&len) {
                continue; // a few thousand nodes: too few to store a frontier
            }
            for fsm in [None, Some(&f)] {
                let plain = IdaOptions {
                    fsm,
                    ..Default::default()
                };
                let one = search_with(&md, 4, 4, &tiles, None, plain);
                let IdaOutcome::Solved(best) = &one.outcome else {
                    panic!("{one:?}")
                };
                for cap in [1 << 10, 1 << 14, 1 << 18] {
                    let before = COLLECTED.get().0;
                    let opts = IdaOptions {
                        stored_frontier: cap,
                        ..plain
                    };
                    let mut plans = Vec::new();
                    for threads in [1, 2, 3] {
                        let r = search_parallel_from(&md, (4, 4, &tiles), None, opts, threads, 0);
                        let what = format!(
                            "{tiles:?}, FSM {}, cap {cap}, {threads} threads",
                            fsm.is_some()
                        );
                        let IdaOutcome::Solved(plan) = r.outcome else {
                            panic!("{what}: {r:?}")
                        };
                        assert_eq!(plan.len(), best.len(), "{what}");
                        assert!(reaches_goal(4, 4, &tiles, &plan), "{what}");
                        assert_eq!(r.iterations, one.iterations, "{what}");
                        plans.push(plan);
                    }
                    // The first plan in the frontier's order, whatever the thread count.
                    assert!(plans.iter().all(|p| *p == plans[0]), "{tiles:?}, cap {cap}");
                    stored += COLLECTED.get().0 - before;
                    runs += 3;
                }
            }
        }
        // Most searches stored a frontier (the iterations of some skip past a cap's window).
        assert!(
            2 * stored >= runs,
            "{stored} of {runs} searches stored a frontier"
        );
    }

    /// A heuristic with the table entries of its accumulators hidden: boards of a stored
    /// frontier are then set up by reading the tables again.
    struct NoEntries<'a, H>(&'a H);

    impl<H: Heuristic> Heuristic for NoEntries<'_, H> {
        type Acc = H::Acc;
        fn init(&self, tiles: &[u8]) -> Self::Acc {
            self.0.init(tiles)
        }
        fn update(
            &self,
            acc: &Self::Acc,
            tiles: &[u8],
            t: u8,
            from: usize,
            to: usize,
        ) -> Self::Acc {
            self.0.update(acc, tiles, t, from, to)
        }
        fn value(&self, acc: &Self::Acc) -> u32 {
            self.0.value(acc)
        }
        fn refine(&self, acc: &Self::Acc) -> u32 {
            self.0.refine(acc)
        }
        fn refines(&self) -> bool {
            self.0.refines()
        }
    }

    #[test]
    fn boards_stored_with_their_table_entries_search_as_boards_read_again() {
        let db = AdditivePdb::build(&Partition::fifteen_663(), &|_: &str| {}).unwrap();
        let tiles16: Vec<u8> = (0..16).collect();
        assert!(
            db.entries(&db.init(&tiles16)).is_some(),
            "6-6-3 and its reflection fit"
        );
        let f = Fsm::build(4, 4, 10).unwrap();
        let mut seed = 0x2f1d_7e0a_55c3_9b41_u64;
        let mut stored = 0;
        for len in [160, 200, 240, 280] {
            let tiles = random_walk(4, 4, len, &mut seed);
            for fsm in [None, Some(&f)] {
                for cap in [1 << 8, 1 << 12] {
                    let opts = IdaOptions {
                        fsm,
                        stored_frontier: cap,
                        ..Default::default()
                    };
                    let before = COLLECTED.get().0;
                    let carried = search_parallel_from(&db, (4, 4, &tiles), None, opts, 1, 0);
                    stored += COLLECTED.get().0 - before;
                    let read =
                        search_parallel_from(&NoEntries(&db), (4, 4, &tiles), None, opts, 1, 0);
                    let what = format!("{tiles:?}, FSM {}, cap {cap}", fsm.is_some());
                    assert_eq!(carried.outcome, read.outcome, "{what}");
                    assert_eq!(carried.nodes, read.nodes, "{what}");
                    assert_eq!(carried.iterations, read.iterations, "{what}");
                }
            }
        }
        assert!(stored > 0, "no search stored a frontier");
    }

    #[test]
    fn a_frontier_too_large_to_store_leaves_the_walker_as_it_was() {
        let md = ManhattanLc::new(4, 4);
        let tiles = random_walk(4, 4, 80, &mut 7);
        let nbrs = flat_neighbours(4, 4);
        let acc = md.init(&tiles);
        let h = md.refine(&acc);
        let blank = tiles.iter().position(|&t| t == 0).unwrap();
        let mut ida = Ida::new(&md, &tiles, nbrs.clone(), None, None);
        let overflows = COLLECTED.get().1;
        assert!(matches!(
            ida.collect_iteration(blank, h + 10, acc, 100),
            Collected::Overflow
        ));
        assert_eq!(COLLECTED.get().1, overflows + 1);
        assert_eq!(
            (&ida.tiles[..], ida.path.len(), ida.stopped),
            (&tiles[..], 0, false)
        );
        // The iteration again, plain: the nodes and next bound of a fresh walker's.
        let mut fresh = Ida::new(&md, &tiles, nbrs, None, None);
        let (a, b) = (ida.nodes, fresh.nodes);
        let found = ida.iterate(blank, h + 10, &acc, h, false);
        assert_eq!(found, fresh.iterate(blank, h + 10, &acc, h, false));
        assert_eq!(
            (ida.nodes - a, ida.next_bound),
            (fresh.nodes - b, fresh.next_bound)
        );
    }

    #[test]
    fn a_stored_frontier_keeps_one_node_per_board_the_earliest() {
        let tiles: Vec<u8> = (0..16).collect();
        let node = |path: &[u8]| Stored::pack(&tiles, path, 3, 0, NONE, 0, 0);
        let mut other = node(&[1, 1]);
        other.tiles ^= 1 << 5;
        // In depth-first order; all but `other` reach one board.
        let kept = shortest_first(vec![
            node(&[0, 1, 2]),
            other,
            node(&[2, 3]),
            node(&[3, 2]),
            node(&[0]),
        ]);
        let paths: Vec<Vec<u8>> = kept
            .iter()
            .map(|n| {
                let (mut t, mut p) = (Vec::new(), Vec::new());
                n.unpack(&mut t, 16, &mut p);
                p
            })
            .collect();
        // The other board's own, then the shortest of the four ([0]), in depth-first order.
        assert_eq!(paths, [vec![1, 1], vec![0]]);
        let (mut t, mut p) = (Vec::new(), Vec::new());
        kept[1].unpack(&mut t, 16, &mut p);
        assert_eq!(t, tiles);
        // Lowest f first, then lowest estimate, then depth-first.
        let with = |path: &[u8], h| Stored::pack(&tiles, path, h, 0, NONE, 0, 0);
        let ordered = search_order(vec![with(&[0; 5], 9), with(&[1; 8], 6), with(&[2; 7], 6)]);
        let key: Vec<(u32, u8)> = ordered.iter().map(|n| (n.f(), n.h)).collect();
        assert_eq!(key, [(13, 6), (14, 6), (14, 9)]);
    }

    #[test]
    fn a_search_resumed_with_a_stored_frontier_stores_the_same_one() {
        use std::sync::Mutex;
        let md = ManhattanLc::new(4, 4);
        let mut seed = 0x51_7cc1_b727_220a_u64;
        for len in [120, 140, 160, 180, 200, 220, 240, 260] {
            let tiles = random_walk(4, 4, len, &mut seed);
            if [120, 140, 200].contains(&len) {
                continue;
            }
            let seen = Mutex::new(Vec::new());
            let note = |bound: u32, nodes: u64| seen.lock().unwrap().push((bound, nodes));
            let opts = IdaOptions {
                on_iteration: Some(OnIteration(&note)),
                stored_frontier: 1 << 14,
                ..Default::default()
            };
            // One thread: the last iteration's count does not depend on the threads' race.
            let stored = COLLECTED.get().0;
            let whole = search_parallel_from(&md, (4, 4, &tiles), None, opts, 1, 0);
            assert_eq!(COLLECTED.get().0, stored + 1, "{tiles:?}");
            let seen = seen.into_inner().unwrap();
            for &(bound, nodes) in &seen {
                let opts = IdaOptions {
                    start_at: bound,
                    stored_frontier: 1 << 14,
                    ..Default::default()
                };
                let stored = COLLECTED.get().0;
                let rest = search_parallel_from(&md, (4, 4, &tiles), None, opts, 1, 0);
                assert_eq!(COLLECTED.get().0, stored + 1, "{tiles:?} from {bound}");
                assert_eq!(rest.outcome, whole.outcome, "{tiles:?} from {bound}");
                assert_eq!(nodes + rest.nodes, whole.nodes, "{tiles:?} from {bound}");
            }
        }
    }
}
