//! Best-first search over boards of at most 16 cells: A*, weighted A* and focal search
//! (A*ε), with a real open list and a table of every state seen (duplicate detection), so
//! that a learned, inadmissible estimate can guide the search while an admissible one still
//! proves how far the answer can be from the optimum.
//!
//! Every node carries two numbers: `lower`, an admissible estimate (pattern databases or
//! Manhattan + linear conflict) used for bounds only, and `guide`, the estimate that orders
//! the search (the same number for plain A*; a network's output for the learned heuristic).
//! Guides are asked for in batches ([`Guide::guide`] sees every new child of a batch of
//! expansions at once), because a network evaluates 64 boards in about the time of four.
//!
//! Closed nodes are reopened whenever a shorter path to them turns up, whatever the
//! heuristic. That costs re-expansions under an inconsistent guide, but keeps the invariant
//! every bound below rests on: until the goal is expanded, some open node lies on an optimal
//! path with its optimal `g`, so `min over OPEN of (g + lower)` never exceeds the optimum
//! (Pearl 1984, §3.1). Hence the report's `bound`, and `optimal` only when the bound meets
//! the plan's length. (Cahlík & Surynek's A* never reopens; their node counts are therefore
//! not comparable to a reopening search with an inconsistent estimate, which the bench says.)

use super::ida::{DOWN, LEFT, RIGHT, UP, neighbours};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::time::Instant;

/// Most cells a board may have (4 bits per cell in a 64-bit key).
pub const MAX_CELLS: usize = 16;

/// A board in the search's convention: `tiles[c]` is the tile in cell `c`, 0 the blank,
/// blank-first goal (tile `t` in cell `t`); cells past the board's size are 0.
pub type Tiles = [u8; MAX_CELLS];

/// The 64-bit key of a board (4 bits per cell).
pub fn pack(t: &Tiles) -> u64 {
    t.iter()
        .enumerate()
        .fold(0u64, |k, (c, &v)| k | (v as u64) << (4 * c))
}

/// The board of a key.
pub fn unpack(k: u64) -> Tiles {
    let mut t = [0u8; MAX_CELLS];
    for (c, v) in t.iter_mut().enumerate() {
        *v = ((k >> (4 * c)) & 0xF) as u8;
    }
    t
}

/// An estimate that orders the search, asked for in batches. It may overestimate.
pub trait Guide {
    /// `out[i]` = the estimate of `boards[i]`, whose admissible estimate is `lower[i]`.
    fn guide(&self, boards: &[Tiles], lower: &[u32], out: &mut [f32]);
    /// What the estimate is (for reports).
    fn name(&self) -> String;
}

/// How the open list chooses the next node.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Order {
    /// Smallest `g + weight · guide` (A* at weight 1); ties go to the larger `g`.
    Weighted {
        /// The weight on the guide (at least 1 for the usual meaning).
        weight: f64,
    },
    /// Focal search (Pearl & Kim's A*ε): among the open nodes whose `g + lower` is at most
    /// `(1 + eps)` times the smallest, the one with the smallest `g + guide`. The first plan
    /// found is at most `(1 + eps)` times the optimum whatever the guide says.
    Focal {
        /// The allowed relative excess.
        eps: f64,
    },
}

/// Settings of [`search`].
#[derive(Debug, Clone)]
pub struct AstarOptions {
    /// Rows of the board.
    pub rows: usize,
    /// Columns of the board.
    pub cols: usize,
    /// How the open list chooses.
    pub order: Order,
    /// Nodes expanded together before their children are estimated in one batch (1: plain
    /// one-node-at-a-time A*; more changes the expansion order, as in batch A*).
    pub batch: usize,
    /// Stop here.
    pub deadline: Option<Instant>,
    /// Stop when this many states are stored (memory: about 40 bytes each).
    pub max_states: usize,
}

/// Why a search ended without a plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AstarStop {
    /// The deadline passed.
    TimeLimit,
    /// [`AstarOptions::max_states`] was reached.
    StateLimit,
    /// Memory for more boards could not be had (an allocation was refused, as under
    /// `ulimit -v`): the search stops with what it has rather than aborting.
    Memory,
    /// The open list ran dry (the board cannot reach the goal).
    Exhausted,
}

/// What [`search`] found.
#[derive(Debug, Clone)]
pub struct AstarResult {
    /// The plan (move codes of [`super::ida`]: blank directions), when found.
    pub plan: Option<Vec<u8>>,
    /// Why no plan, when none.
    pub stop: Option<AstarStop>,
    /// A proven lower bound on the optimum (the plan's length when proven optimal).
    pub bound: u32,
    /// Nodes expanded (re-expansions of reopened nodes included).
    pub expanded: u64,
    /// Children generated.
    pub generated: u64,
    /// Boards handed to the guide.
    pub guided: u64,
    /// Closed boards put back on the open list because a shorter path to them turned up
    /// (none under a consistent estimate).
    pub reopened: u64,
    /// States stored at the end.
    pub stored: usize,
    /// The admissible estimate of the start.
    pub initial_lower: u32,
}

impl AstarResult {
    /// True when the plan is proven shortest: the bound meets its length.
    pub fn optimal(&self) -> bool {
        self.plan
            .as_ref()
            .is_some_and(|p| p.len() as u32 == self.bound)
    }
}

#[derive(Clone, Copy)]
struct Node {
    key: u64,
    parent: u32,
    g: u16,
    lower: u16,
    mv: u8,
    closed: bool,
    guide: f32,
}

/// An open-list entry; stale when the node's `g` changed or it was expanded since.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Entry {
    prio: u64,
    node: u32,
    g: u16,
}

fn prio(f: f32, g: u16) -> u64 {
    // f in 1/1024 moves (f is at most a few hundred), then the larger g first. Clamped to
    // the 48 bits above g's, so that a huge weight saturates instead of wrapping around.
    let q = ((f.max(0.0) as f64 * 1024.0).round() as u64).min((1 << 48) - 1);
    (q << 16) | (u16::MAX - g) as u64
}

enum Queue {
    Heap(BinaryHeap<Reverse<Entry>>),
    /// One heap per `g + lower`, each ordered by `g + guide`.
    Buckets(Vec<BinaryHeap<Reverse<Entry>>>),
}

struct Search<'a, L: Fn(&Tiles) -> u32, G: Guide + ?Sized> {
    lower: &'a L,
    guide: Option<&'a G>,
    opts: &'a AstarOptions,
    nodes: Vec<Node>,
    index: HashMap<u64, u32>,
    /// A bucket's heap could not grow: the search stops at the next round.
    out_of_memory: bool,
    /// The smallest `g + lower` of a child that could not be queued then: the bound may not
    /// pass it.
    dropped_f: u32,
    queue: Queue,
}

impl<L: Fn(&Tiles) -> u32, G: Guide + ?Sized> Search<'_, L, G> {
    fn stale(&self, e: &Entry) -> bool {
        let n = &self.nodes[e.node as usize];
        n.closed || n.g != e.g
    }

    fn push(&mut self, i: u32) {
        let n = self.nodes[i as usize];
        let g = n.g;
        match &mut self.queue {
            Queue::Heap(h) => {
                let Order::Weighted { weight } = self.opts.order else {
                    unreachable!("the heap serves the weighted order")
                };
                let f = g as f32 + weight as f32 * n.guide;
                h.push(Reverse(Entry {
                    prio: prio(f, g),
                    node: i,
                    g,
                }));
            }
            Queue::Buckets(b) => {
                let f = (g + n.lower) as usize;
                if b.len() <= f {
                    b.resize_with(f + 1, BinaryHeap::new);
                }
                let heap = &mut b[f];
                if heap.len() == heap.capacity() && heap.try_reserve(heap.len().max(64)).is_err() {
                    self.out_of_memory = true;
                    self.dropped_f = self.dropped_f.min(f as u32);
                    return;
                }
                b[f].push(Reverse(Entry {
                    prio: prio(g as f32 + n.guide, g),
                    node: i,
                    g,
                }));
            }
        }
    }

    /// The smallest `g + lower` over live open entries (bucket order only), dropping stale
    /// bucket tops on the way.
    fn f_min_bucket(&mut self) -> Option<usize> {
        let Queue::Buckets(b) = &mut self.queue else {
            return None;
        };
        for (f, heap) in b.iter_mut().enumerate() {
            while let Some(Reverse(e)) = heap.peek() {
                let n = &self.nodes[e.node as usize];
                if n.closed || n.g != e.g {
                    heap.pop();
                } else {
                    return Some(f);
                }
            }
        }
        None
    }

    /// Room for `more` new boards in every table a round can grow, asked for ahead so that
    /// a refused allocation is an answer, not an abort.
    fn reserve(&mut self, more: usize) -> Result<(), std::collections::TryReserveError> {
        self.nodes.try_reserve(more)?;
        self.index.try_reserve(more)?;
        match &mut self.queue {
            Queue::Heap(h) => h.try_reserve(more),
            // A bucket's heap is grown where a child is put in it (`push`), which notes a
            // refusal in `out_of_memory`.
            Queue::Buckets(b) => b.try_reserve(2),
        }
    }

    /// The next live node to expand, marked closed.
    fn pop(&mut self) -> Option<u32> {
        let found = match self.opts.order {
            Order::Weighted { .. } => loop {
                let Queue::Heap(h) = &mut self.queue else {
                    unreachable!()
                };
                let Reverse(e) = h.pop()?;
                if !self.stale(&e) {
                    break e.node;
                }
            },
            Order::Focal { eps } => {
                let fmin = self.f_min_bucket()?;
                // Saturating: a huge EPS makes every bucket eligible, never none.
                let top = ((1.0 + eps) * fmin as f64 + 1e-9).floor() as usize;
                let Queue::Buckets(b) = &mut self.queue else {
                    unreachable!()
                };
                let mut best: Option<(u64, usize)> = None;
                for (f, heap) in b
                    .iter_mut()
                    .enumerate()
                    .take(top.saturating_add(1))
                    .skip(fmin)
                {
                    while let Some(Reverse(e)) = heap.peek() {
                        let n = &self.nodes[e.node as usize];
                        if n.closed || n.g != e.g {
                            heap.pop();
                            continue;
                        }
                        if best.is_none_or(|(p, _)| e.prio < p) {
                            best = Some((e.prio, f));
                        }
                        break;
                    }
                }
                let (_, f) = best?;
                let Reverse(e) = b[f].pop().expect("a live top was seen");
                e.node
            }
        };
        self.nodes[found as usize].closed = true;
        Some(found)
    }

    /// The smallest `g + lower` over every live open entry: a lower bound on the optimum.
    fn open_bound(&mut self) -> Option<u32> {
        if let Some(f) = self.f_min_bucket() {
            return Some(f as u32);
        }
        let Queue::Heap(h) = &self.queue else {
            return None;
        };
        h.iter()
            .filter(|Reverse(e)| !self.stale(e))
            .map(|Reverse(e)| {
                let n = &self.nodes[e.node as usize];
                (n.g + n.lower) as u32
            })
            .min()
    }
}

/// Search from `start` (blank-first goal, `rows × cols ≤ 16` cells) towards the goal.
/// `lower` must be admissible; `guide` (None: `lower` itself) may be anything. The board
/// should be solvable: otherwise the search runs until a limit or exhausts the half of the
/// state space it can reach.
pub fn search<L, G>(start: &Tiles, lower: &L, guide: Option<&G>, opts: &AstarOptions) -> AstarResult
where
    L: Fn(&Tiles) -> u32,
    G: Guide + ?Sized,
{
    let n = opts.rows * opts.cols;
    assert!(n <= MAX_CELLS, "boards of at most 16 cells");
    let nbrs = neighbours(opts.rows, opts.cols);
    let mut goal = [0u8; MAX_CELLS];
    for (c, t) in goal.iter_mut().enumerate().take(n) {
        *t = c as u8;
    }
    let goal_key = pack(&goal);
    // Every plan's length has the parity of the blank's taxicab distance to its goal cell
    // (each move shifts the blank by one cell), so a bound rounds up to that parity.
    let blank = start.iter().take(n).position(|&t| t == 0).unwrap_or(0);
    let parity = ((blank / opts.cols) + (blank % opts.cols)) as u32 & 1;
    let round = |b: u32| b + ((b ^ parity) & 1);

    let queue = match opts.order {
        Order::Weighted { .. } => Queue::Heap(BinaryHeap::new()),
        Order::Focal { .. } => Queue::Buckets(Vec::new()),
    };
    let mut s = Search {
        lower,
        guide,
        opts,
        nodes: Vec::new(),
        index: HashMap::new(),
        queue,
        out_of_memory: false,
        dropped_f: u32::MAX,
    };
    let l0 = (s.lower)(start);
    let g0 = match s.guide {
        Some(gd) => {
            let mut out = [0f32];
            gd.guide(std::slice::from_ref(start), &[l0], &mut out);
            out[0]
        }
        None => l0 as f32,
    };
    s.nodes.push(Node {
        key: pack(start),
        parent: u32::MAX,
        g: 0,
        lower: l0 as u16,
        mv: u8::MAX,
        closed: false,
        guide: g0,
    });
    s.index.insert(s.nodes[0].key, 0);
    s.push(0);

    let mut res = AstarResult {
        plan: None,
        stop: None,
        bound: round(l0),
        expanded: 0,
        generated: 0,
        guided: 1,
        reopened: 0,
        stored: 0,
        initial_lower: l0,
    };
    let batch = opts.batch.max(1);
    let mut popped: Vec<u32> = Vec::with_capacity(batch);
    let mut fresh: Vec<u32> = Vec::new();
    let mut repush: Vec<u32> = Vec::new();
    let mut boards: Vec<Tiles> = Vec::new();
    let mut lowers: Vec<u32> = Vec::new();
    let mut out: Vec<f32> = Vec::new();
    let mut rounds = 0u64;
    loop {
        rounds += 1;
        if rounds & 0xFF == 0
            && let Some(d) = opts.deadline
            && Instant::now() >= d
        {
            res.stop = Some(AstarStop::TimeLimit);
            break;
        }
        if s.nodes.len() >= opts.max_states {
            res.stop = Some(AstarStop::StateLimit);
            break;
        }
        if s.out_of_memory || s.reserve(batch * 4).is_err() {
            res.stop = Some(AstarStop::Memory);
            break;
        }
        popped.clear();
        let mut goal_at = None;
        while popped.len() < batch {
            let Some(i) = s.pop() else { break };
            if s.nodes[i as usize].key == goal_key {
                if popped.is_empty() {
                    goal_at = Some(i);
                } else {
                    // Only the first node of a batch may end the search: the goal waits
                    // until the nodes before it (possibly on a shorter path) are expanded.
                    s.nodes[i as usize].closed = false;
                    s.push(i);
                }
                break;
            }
            popped.push(i);
        }
        if let Some(i) = goal_at {
            let mut plan = Vec::new();
            let mut at = i;
            while s.nodes[at as usize].parent != u32::MAX {
                plan.push(s.nodes[at as usize].mv);
                at = s.nodes[at as usize].parent;
            }
            plan.reverse();
            let len = plan.len() as u32;
            let open = s.open_bound().map_or(len, |b| b.min(len));
            res.bound = round(res.bound.max(open)).min(len);
            res.plan = Some(plan);
            break;
        }
        if popped.is_empty() {
            res.stop = Some(AstarStop::Exhausted);
            break;
        }
        fresh.clear();
        repush.clear();
        for &p in &popped {
            res.expanded += 1;
            let parent = s.nodes[p as usize];
            let tiles = unpack(parent.key);
            let b = tiles.iter().take(n).position(|&t| t == 0).unwrap_or(0);
            for &(c, m) in &nbrs[b] {
                if m ^ 1 == parent.mv {
                    continue; // the parent itself
                }
                let mut t = tiles;
                t[b] = t[c];
                t[c] = 0;
                let key = pack(&t);
                let g = parent.g + 1;
                res.generated += 1;
                match s.index.get(&key) {
                    Some(&j) => {
                        let node = &mut s.nodes[j as usize];
                        if g < node.g {
                            if node.closed {
                                res.reopened += 1;
                            }
                            node.g = g;
                            node.parent = p;
                            node.mv = m;
                            node.closed = false;
                            repush.push(j);
                        }
                    }
                    None => {
                        let j = s.nodes.len() as u32;
                        s.nodes.push(Node {
                            key,
                            parent: p,
                            g,
                            lower: 0,
                            mv: m,
                            closed: false,
                            guide: 0.0,
                        });
                        s.index.insert(key, j);
                        fresh.push(j);
                    }
                }
            }
        }
        boards.clear();
        lowers.clear();
        for &j in &fresh {
            let t = unpack(s.nodes[j as usize].key);
            let l = (s.lower)(&t);
            s.nodes[j as usize].lower = l as u16;
            boards.push(t);
            lowers.push(l);
        }
        out.clear();
        out.resize(fresh.len(), 0.0);
        match s.guide {
            Some(gd) if !fresh.is_empty() => {
                gd.guide(&boards, &lowers, &mut out);
                res.guided += fresh.len() as u64;
            }
            _ => {
                for (o, &l) in out.iter_mut().zip(&lowers) {
                    *o = l as f32;
                }
            }
        }
        for (k, &j) in fresh.iter().enumerate() {
            s.nodes[j as usize].guide = out[k];
            s.push(j);
        }
        for &j in &repush {
            s.push(j);
        }
    }
    if res.plan.is_none()
        && res.stop != Some(AstarStop::Exhausted)
        && let Some(b) = s.open_bound()
    {
        res.bound = round(res.bound.max(b.min(s.dropped_f)));
    }
    res.stored = s.nodes.len();
    res
}

/// Apply move codes to a board (for tests and callers that want the end state).
pub fn replay(start: &Tiles, rows: usize, cols: usize, plan: &[u8]) -> Option<Tiles> {
    let mut t = *start;
    let n = rows * cols;
    let mut b = t.iter().take(n).position(|&v| v == 0)?;
    for &m in plan {
        let (r, c) = (b / cols, b % cols);
        let to = match m {
            UP if r > 0 => b - cols,
            DOWN if r + 1 < rows => b + cols,
            LEFT if c > 0 => b - 1,
            RIGHT if c + 1 < cols => b + 1,
            _ => return None,
        };
        t[b] = t[to];
        t[to] = 0;
        b = to;
    }
    Some(t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::ida::Heuristic;
    use crate::search::manhattan::ManhattanLc;
    use std::collections::VecDeque;

    /// Exact distances of every 3×3 board (blank-first goal), by BFS from the goal.
    pub(crate) fn bfs_8() -> HashMap<u64, u8> {
        let nb = neighbours(3, 3);
        let mut goal = [0u8; MAX_CELLS];
        for (c, t) in goal.iter_mut().enumerate().take(9) {
            *t = c as u8;
        }
        let mut d = HashMap::new();
        d.insert(pack(&goal), 0u8);
        let mut q = VecDeque::from([goal]);
        while let Some(t) = q.pop_front() {
            let k = d[&pack(&t)];
            let b = t.iter().take(9).position(|&v| v == 0).unwrap();
            for &(c, _) in &nb[b] {
                let mut u = t;
                u[b] = u[c];
                u[c] = 0;
                let key = pack(&u);
                if let std::collections::hash_map::Entry::Vacant(e) = d.entry(key) {
                    e.insert(k + 1);
                    q.push_back(u);
                }
            }
        }
        d
    }

    struct Noisy<'a>(&'a HashMap<u64, u8>);
    impl Guide for Noisy<'_> {
        fn guide(&self, boards: &[Tiles], _lower: &[u32], out: &mut [f32]) {
            // The true distance, wrong by up to ±3 depending on the board: inadmissible.
            for (o, b) in out.iter_mut().zip(boards) {
                let k = pack(b);
                *o = self.0[&k] as f32 + ((k % 7) as f32 - 3.0);
            }
        }
        fn name(&self) -> String {
            "noisy".into()
        }
    }

    fn opts(order: Order, batch: usize) -> AstarOptions {
        AstarOptions {
            rows: 3,
            cols: 3,
            order,
            batch,
            deadline: None,
            max_states: usize::MAX,
        }
    }

    #[test]
    fn admissible_a_star_is_optimal_and_bounds_hold_on_the_8_puzzle() {
        let dist = bfs_8();
        assert_eq!(dist.len(), 181_440);
        let md = ManhattanLc::new(3, 3);
        let lower = |t: &Tiles| md.value(&md.init(&t[..9]));
        let noisy = Noisy(&dist);
        let mut keys: Vec<u64> = dist.keys().copied().collect();
        keys.sort_unstable();
        for (i, &k) in keys.iter().step_by(911).enumerate() {
            let start = unpack(k);
            let opt = dist[&k] as u32;
            for (order, batch) in [
                (Order::Weighted { weight: 1.0 }, 1),
                (Order::Weighted { weight: 1.0 }, 8),
                (Order::Focal { eps: 0.0 }, 1),
            ] {
                let r = search(&start, &lower, None::<&Noisy>, &opts(order, batch));
                assert!(
                    r.optimal(),
                    "{:?} {} {} {order:?} {batch}",
                    r.plan,
                    r.bound,
                    opt
                );
                let plan = r.plan.expect("solvable");
                assert_eq!(plan.len() as u32, opt, "board {i} {order:?}");
                let end = replay(&start, 3, 3, &plan).unwrap();
                assert_eq!(dist[&pack(&end)], 0);
            }
            for eps in [0.1, 0.25, 0.5] {
                let r = search(&start, &lower, Some(&noisy), &opts(Order::Focal { eps }, 4));
                let plan = r.plan.expect("solvable");
                let len = plan.len() as u32;
                assert!(len as f64 <= (1.0 + eps) * opt as f64 + 1e-9, "eps {eps}");
                assert!(
                    r.bound <= opt && r.bound <= len,
                    "bound {} opt {opt}",
                    r.bound
                );
                assert_eq!(dist[&pack(&replay(&start, 3, 3, &plan).unwrap())], 0);
            }
            let r = search(
                &start,
                &lower,
                Some(&noisy),
                &opts(Order::Weighted { weight: 1.0 }, 1),
            );
            let len = r.plan.as_ref().unwrap().len() as u32;
            assert!(len >= opt && r.bound <= opt);
            assert_eq!(r.optimal(), len == r.bound);
        }
    }

    #[test]
    fn huge_weights_and_suboptimality_still_find_a_plan() {
        // A (1 + EPS) · f past usize, or a weight past the priority's bits, once wrapped
        // around: no bucket was eligible and a solvable board was "exhausted".
        let dist = bfs_8();
        let md = ManhattanLc::new(3, 3);
        let lower = |t: &Tiles| md.value(&md.init(&t[..9]));
        let noisy = Noisy(&dist);
        let (&k, &opt) = dist.iter().max_by_key(|(k, d)| (**d, **k)).unwrap();
        let start = unpack(k);
        for order in [
            Order::Focal { eps: 1e19 },
            Order::Focal { eps: 1e300 },
            Order::Weighted { weight: 1e30 },
        ] {
            let r = search(&start, &lower, Some(&noisy), &opts(order, 1));
            let plan = r.plan.unwrap_or_else(|| panic!("{order:?}: {:?}", r.stop));
            assert!(plan.len() as u32 >= opt as u32, "{order:?}");
            assert_eq!(dist[&pack(&replay(&start, 3, 3, &plan).unwrap())], 0);
        }
    }

    #[test]
    fn unsolvable_boards_exhaust_and_limits_stop() {
        let md = ManhattanLc::new(2, 3);
        let lower = |t: &Tiles| md.value(&md.init(&t[..6]));
        let mut t = [0u8; MAX_CELLS];
        t[..6].copy_from_slice(&[0, 2, 1, 3, 4, 5]);
        let o = AstarOptions {
            rows: 2,
            cols: 3,
            ..opts(Order::Weighted { weight: 1.0 }, 1)
        };
        let r = search(&t, &lower, None::<&Noisy>, &o);
        assert_eq!(r.stop, Some(AstarStop::Exhausted));
        assert_eq!(r.stored, 360);
        let r = search(
            &t,
            &lower,
            None::<&Noisy>,
            &AstarOptions {
                max_states: 50,
                ..o
            },
        );
        assert_eq!(r.stop, Some(AstarStop::StateLimit));
    }

    #[test]
    fn keys_round_trip() {
        let mut t = [0u8; MAX_CELLS];
        for (c, v) in t.iter_mut().enumerate() {
            *v = (15 - c) as u8;
        }
        assert_eq!(unpack(pack(&t)), t);
    }
}
