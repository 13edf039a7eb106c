//! Beam search for a short sliding plan: layer by layer from the start board, every board's
//! children are estimated with the admissible heuristic of the optimal search and only the
//! `width` lowest estimates go on; a board met before in the same pass is dropped. All boards
//! of a layer lie at the same depth, so ranking them by the estimate alone is ranking them by
//! `g + h`. The first layer that holds the goal gives the plan.
//!
//! The beam proves nothing: its plan is an incumbent beside the bound that IDA* proves. It
//! is used because on the 24-puzzle, with the 6-6-6-6 tables, a wide beam finds plans much
//! closer to the optimum than weighted IDA* does in the same seconds (weighted IDA* re-walks
//! its tree every iteration and cannot see that two paths reach one board). Its memory is
//! the boards met in the pass, 16 bytes each in a hash set, and the current layer.

use super::ida::Heuristic;
use super::moves::neighbours;
use rustc_hash::FxHashSet;
use std::time::Instant;

/// What one pass of [`beam`] gave.
#[derive(Debug, Clone)]
pub struct BeamOutcome {
    /// The plan (move codes of the blank, as [`super::ida`] writes them), or `None` when the
    /// deadline came first or every board of a layer had been met before.
    pub codes: Option<Vec<u8>>,
    /// Boards estimated.
    pub nodes: u64,
}

/// The most cells [`beam`] takes: a board is kept as one 128-bit key of 5 bits per cell.
pub const MAX_CELLS: usize = 25;

fn key(tiles: &[u8]) -> u128 {
    tiles
        .iter()
        .fold(0u128, |k, &t| (k << 5) | u128::from(t & 31))
}

/// A child waiting to be ranked: its estimate, key, parent (index in the layer) and move.
#[derive(Clone, Copy)]
struct Child {
    h: u32,
    key: u128,
    parent: u32,
    /// Where its accumulator is: which worker's list, and where in it.
    part: u32,
    acc: u32,
    code: u8,
    /// The cell the blank moved to.
    to: u8,
}

/// One beam pass of `width` boards per layer from `tiles` (a blank-first board: tile `t`
/// belongs in cell `t`, 0 is the blank) towards the goal, estimating with `h` on `threads`
/// threads; it stops at `deadline`. The plan is not checked here; the caller replays it.
///
/// Deterministic, whatever the thread count: ties in the estimate are broken by the board's
/// key, and the children are gathered in the order of their parents.
///
/// ```
/// use tilekit::search::{beam::beam, manhattan::ManhattanLc};
/// // The 8-puzzle, two moves from the goal: the blank is in cell 2.
/// let tiles = [1, 2, 0, 3, 4, 5, 6, 7, 8];
/// let h = ManhattanLc::new(3, 3);
/// let out = beam(&h, (3, 3), &tiles, 16, None, 1);
/// assert_eq!(out.codes.map(|c| c.len()), Some(2));
/// ```
pub fn beam<H>(
    h: &H,
    (rows, cols): (usize, usize),
    tiles: &[u8],
    width: usize,
    deadline: Option<Instant>,
    threads: usize,
) -> BeamOutcome
where
    H: Heuristic + Sync,
    H::Acc: Send + Sync,
{
    let n = rows * cols;
    assert!(
        n <= MAX_CELLS && tiles.len() == n,
        "boards of at most 25 cells"
    );
    let width = width.max(1);
    let threads = threads.max(1);
    let nbrs = neighbours(rows, cols);
    let mut nodes = 0u64;
    if is_goal(tiles) {
        return BeamOutcome {
            codes: Some(Vec::new()),
            nodes,
        };
    }
    // The current layer: its boards (flat, `n` bytes each), their accumulators, the move
    // that led to each (4: none) and where its blank is.
    let mut layer = Layer {
        boards: tiles.to_vec(),
        accs: vec![h.init(tiles)],
        last: vec![4u8],
        blanks: vec![
            tiles
                .iter()
                .position(|&t| t == 0)
                .expect("a board has a blank") as u8,
        ],
    };
    // Per layer after the first, each kept board's parent index and move.
    let mut links: Vec<Vec<(u32, u8)>> = Vec::new();
    // Every board met so far, kept or cut: one met again by a longer path is dropped. (Cut
    // boards stay out too: letting them back in by other paths measured worse plans, the
    // layers filling with the near-copies of the boards just cut.)
    let mut seen: FxHashSet<u128> = FxHashSet::default();
    seen.insert(key(tiles));
    // Buffers kept from layer to layer: allocating them afresh costs page faults.
    let mut parts: Vec<Expanded<H::Acc>> = (0..threads).map(|_| Expanded::default()).collect();
    let mut children: Vec<Child> = Vec::new();
    let mut next = Layer {
        boards: Vec::new(),
        accs: Vec::new(),
        last: Vec::new(),
        blanks: Vec::new(),
    };
    loop {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return BeamOutcome { codes: None, nodes };
        }
        let parents = layer.last.len();
        let chunk = if parents < 2 * threads {
            parents
        } else {
            parents.div_ceil(threads)
        };
        let used = parents.div_ceil(chunk);
        {
            let (layer, seen, nbrs) = (&layer, &seen, &nbrs[..]);
            let work = |(k, part): (usize, &mut Expanded<H::Acc>)| {
                expand(
                    h,
                    nbrs,
                    n,
                    layer,
                    seen,
                    k * chunk..((k + 1) * chunk).min(parents),
                    part,
                )
            };
            if used == 1 {
                work((0, &mut parts[0]));
            } else {
                std::thread::scope(|s| {
                    for job in parts[..used].iter_mut().enumerate() {
                        s.spawn(move || work(job));
                    }
                });
            }
        }
        children.clear();
        for (k, part) in parts[..used].iter().enumerate() {
            if let Some((parent, code)) = part.goal {
                let mut codes = vec![code];
                let mut at = parent as usize;
                for link in links.iter().rev() {
                    let (p, c) = link[at];
                    codes.push(c);
                    at = p as usize;
                }
                codes.reverse();
                return BeamOutcome {
                    codes: Some(codes),
                    nodes,
                };
            }
            // In the parents' order, the first of a board's paths wins (whichever thread
            // found it), and a board met in this layer is not met again in a later one.
            children.extend(
                part.children
                    .iter()
                    .filter(|c| seen.insert(c.key))
                    .map(|&c| Child {
                        part: k as u32,
                        ..c
                    }),
            );
        }
        nodes += children.len() as u64;
        let by = |a: &Child, b: &Child| (a.h, a.key).cmp(&(b.h, b.key));
        if children.len() > width {
            children.select_nth_unstable_by(width - 1, by);
            children.truncate(width);
        }
        // Sorted, so that the layer's order does not depend on how the selection left the
        // kept children.
        children.sort_unstable_by(by);
        if children.is_empty() {
            return BeamOutcome { codes: None, nodes };
        }
        next.boards.clear();
        next.accs.clear();
        next.last.clear();
        next.blanks.clear();
        let mut link = Vec::with_capacity(children.len());
        for c in &children {
            let parent = c.parent as usize;
            let from = parent * n;
            next.boards.extend_from_slice(&layer.boards[from..from + n]);
            let end = next.boards.len();
            next.boards[end - n..].swap(usize::from(layer.blanks[parent]), usize::from(c.to));
            next.accs.push(parts[c.part as usize].accs[c.acc as usize]);
            next.last.push(c.code);
            next.blanks.push(c.to);
            link.push((c.parent, c.code));
        }
        std::mem::swap(&mut layer, &mut next);
        links.push(link);
    }
}

/// A layer of the beam.
struct Layer<A> {
    boards: Vec<u8>,
    accs: Vec<A>,
    last: Vec<u8>,
    blanks: Vec<u8>,
}

/// The children of some of a layer's boards.
struct Expanded<A> {
    children: Vec<Child>,
    accs: Vec<A>,
    /// The first child that is the goal: its parent and move.
    goal: Option<(u32, u8)>,
}

impl<A> Default for Expanded<A> {
    fn default() -> Self {
        Expanded {
            children: Vec::new(),
            accs: Vec::new(),
            goal: None,
        }
    }
}

fn is_goal(t: &[u8]) -> bool {
    t.iter().enumerate().all(|(c, &v)| usize::from(v) == c)
}

/// The children of `layer`'s boards `parents` not met before, estimated, into `out`.
fn expand<H: Heuristic>(
    h: &H,
    nbrs: &[Vec<(usize, u8)>],
    n: usize,
    layer: &Layer<H::Acc>,
    seen: &FxHashSet<u128>,
    parents: std::ops::Range<usize>,
    out: &mut Expanded<H::Acc>,
) {
    out.children.clear();
    out.accs.clear();
    out.goal = None;
    let mut board = vec![0u8; n];
    for i in parents {
        let parent = &layer.boards[i * n..(i + 1) * n];
        let blank = usize::from(layer.blanks[i]);
        for &(to, code) in &nbrs[blank] {
            if code ^ 1 == layer.last[i] {
                continue;
            }
            board.copy_from_slice(parent);
            let tile = board[to];
            board.swap(blank, to);
            let k = key(&board);
            if seen.contains(&k) {
                continue;
            }
            if is_goal(&board) {
                out.goal = Some((i as u32, code));
                return;
            }
            let acc = h.update(&layer.accs[i], &board, tile, to, blank);
            out.children.push(Child {
                h: h.refine(&acc),
                key: k,
                parent: i as u32,
                part: 0,
                acc: out.accs.len() as u32,
                code,
                to: to as u8,
            });
            out.accs.push(acc);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::sliding::{Goal, SlidingPuzzle};
    use crate::search::ida::{self, IdaOutcome};
    use crate::search::manhattan::ManhattanLc;
    use crate::search::{blank_first_tiles, codes_to_moves};

    /// A board `steps` moves from the blank-first goal (the puzzle's own random walk), with
    /// the puzzle itself to replay plans on.
    fn scrambled(rows: usize, cols: usize, steps: usize, seed: u64) -> (SlidingPuzzle, Vec<u8>) {
        let (p, _) = SlidingPuzzle::random_walk(rows, cols, Goal::BlankFirst, steps, seed);
        let tiles = blank_first_tiles(&p, Goal::BlankFirst);
        (p, tiles)
    }

    /// Whether `codes` solves `p` by the puzzle's own rules, not by the beam's tables.
    fn solves(p: &SlidingPuzzle, codes: &[u8]) -> bool {
        let moves = codes_to_moves(codes, Goal::BlankFirst);
        p.replay(&moves).is_ok_and(|b| b.is_goal(Goal::BlankFirst))
    }

    /// Every plan reaches the goal and is no shorter than IDA*'s optimum; on the 8-puzzle a
    /// beam wider than its 181,440 boards is a breadth-first search and finds the optimum.
    #[test]
    fn plans_solve_and_are_never_below_the_optimum() {
        for (rows, cols, width) in [(3, 3, 1 << 18), (4, 4, 64), (4, 4, 1024)] {
            let h = ManhattanLc::new(rows, cols);
            for seed in 0..12 {
                let (p, t) = scrambled(rows, cols, 200, seed);
                let out = beam(&h, (rows, cols), &t, width, None, 1);
                let codes = out.codes.expect("the beam keeps a plan");
                assert!(solves(&p, &codes), "seed {seed}");
                let IdaOutcome::Solved(opt) = ida::search(&h, rows, cols, &t, None).outcome else {
                    panic!("no deadline");
                };
                assert!(codes.len() >= opt.len(), "seed {seed}");
                if rows == 3 {
                    assert_eq!(codes.len(), opt.len(), "seed {seed}");
                }
            }
        }
    }

    /// The same plan and node count whatever the number of threads.
    #[test]
    fn threads_do_not_change_the_plan() {
        let h = ManhattanLc::new(4, 4);
        for seed in 0..6 {
            let (_, t) = scrambled(4, 4, 300, 100 + seed);
            let one = beam(&h, (4, 4), &t, 500, None, 1);
            for threads in [2, 3] {
                let more = beam(&h, (4, 4), &t, 500, None, threads);
                assert_eq!(more.codes, one.codes, "seed {seed}, {threads} threads");
                assert_eq!(more.nodes, one.nodes, "seed {seed}, {threads} threads");
            }
        }
    }

    /// The goal itself needs no move, and a deadline already past gives no plan.
    #[test]
    fn the_goal_and_a_past_deadline() {
        let h = ManhattanLc::new(3, 3);
        let goal: Vec<u8> = (0..9).collect();
        assert_eq!(beam(&h, (3, 3), &goal, 8, None, 2).codes, Some(Vec::new()));
        let (_, t) = scrambled(3, 3, 50, 7);
        let past = Some(Instant::now());
        assert_eq!(beam(&h, (3, 3), &t, 8, past, 2).codes, None);
    }
}
