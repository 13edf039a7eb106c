//! Large-neighbourhood search with two repairs, each keeping the result when the board
//! matches at least as many seams as before (sideways moves let the search cross plateaus,
//! which is where good boards sit):
//!
//! - **window**: destroy a window of the board (plus, half the time, a few cells at other
//!   mismatches) and rebuild it by a beam over its cells with everything else pinned
//!   ([`beam_cells`]). Windows are drawn around a random mismatched seam most of the time
//!   (that is where a gain can be), anywhere otherwise, in sizes between the bounds.
//! - **assignment** (exact): free a set of pairwise non-adjacent cells of one piece kind
//!   (inner, border or corner), drawn first from the cells at mismatches, and put their pieces
//!   back by a maximum-weight assignment, each piece in its best rotation. With no two freed
//!   cells adjacent, a piece's value in a cell depends only on the pinned neighbours, so the
//!   assignment is the best re-insertion there is (Salassa et al.'s Tile Assignment, and the
//!   repair of the VLNS of Schaus & Deville), found in O(k³) by Kuhn–Munkres. Ties between
//!   equally good assignments are broken at random, so that repeated moves wander over the
//!   plateau instead of giving back the same board.
//!
//! After `patience` repairs without a new best the worker goes back to the best board.
//!
//! Workers (`threads`) run from their own seeds and adopt the shared best board when it is
//! better than theirs; with one worker and an iteration count a run is a function of its
//! seed.

use super::Rng;
use super::assign::{Assignment, KuhnMunkres};
use super::beam::beam_cells;
use super::core::{Core, DOWN, RIGHT};
use std::sync::Mutex;
use std::time::Instant;

/// Knobs of a run.
#[derive(Debug, Clone)]
pub struct LnsParams {
    /// Smallest and largest window side.
    pub window: (usize, usize),
    /// Beam width of a rebuild.
    pub width: usize,
    /// Rebuilds without a new best before going back to the best board.
    pub patience: u64,
    /// Rebuilds in all (over all workers); `None`: until the deadline.
    pub iterations: Option<u64>,
    /// Share of the repairs made by assignment (the rest rebuild windows), 0 to 1.
    pub assign_share: f64,
    /// Fewest and most cells an assignment move frees.
    pub assign_cells: (usize, usize),
    /// Repair sets of at most this many cells go to the exact search first.
    pub exact_cells: usize,
    /// Seed.
    pub seed: u64,
    /// Workers.
    pub threads: usize,
}

impl Default for LnsParams {
    fn default() -> Self {
        LnsParams {
            window: (3, 6),
            width: 128,
            patience: 2_000,
            iterations: None,
            assign_share: 0.5,
            assign_cells: (12, 48),
            exact_cells: 12,
            seed: 1,
            threads: 1,
        }
    }
}

/// What a run reached.
#[derive(Debug, Clone)]
pub struct LnsResult {
    /// The best board (rotated-piece indices per cell).
    pub cells: Vec<u16>,
    /// Its matched seams.
    pub matched: usize,
    /// Rebuilds made, accepted (equal or better) and improving.
    pub iterations: u64,
    /// Rebuilds kept.
    pub accepted: u64,
    /// Rebuilds that found a new best.
    pub improved: u64,
    /// Assignment moves made, and those that gained seams.
    pub assignments: (u64, u64),
    /// Window repairs made by the exact search, and those it finished (the window proven
    /// optimal, or improved).
    pub exact: (u64, u64),
}

/// The mismatched seams of `cells`, each as its two cells (left and right, or upper and
/// lower).
fn mismatches(core: &Core, cells: &[u16]) -> Vec<(usize, usize)> {
    let (rows, cols) = (core.rows(), core.cols());
    let mut out = Vec::new();
    for (cell, &o) in cells.iter().enumerate() {
        let s = core.oriented(o).sides;
        let (r, c) = (cell / cols, cell % cols);
        if c + 1 < cols && core.oriented(cells[cell + 1]).sides[3] != s[RIGHT] {
            out.push((cell, cell + 1));
        }
        if r + 1 < rows && core.oriented(cells[cell + cols]).sides[0] != s[DOWN] {
            out.push((cell, cell + cols));
        }
    }
    out
}

/// The kind of piece `cell` takes, as an index of [`kind_groups`]: corner, border, inner.
fn kind_of(core: &Core, cell: usize) -> usize {
    match core.class(cell).count_ones() {
        0 => 2,
        1 => 1,
        _ => 0,
    }
}

/// The neighbours of `cell` on the four sides (up, right, down, left), `None` off the board.
fn around(rows: usize, cols: usize, cell: usize) -> [Option<usize>; 4] {
    let (r, c) = (cell / cols, cell % cols);
    [
        (r > 0).then(|| cell - cols),
        (c + 1 < cols).then(|| cell + 1),
        (r + 1 < rows).then(|| cell + cols),
        (c > 0).then(|| cell - 1),
    ]
}

/// The movable cells by the kind of piece they take: corner, border, inner (a piece of one
/// kind fits every cell of that kind in exactly one rotation class, so an assignment moves
/// pieces within a kind only).
fn kind_groups(core: &Core, pinned: &[bool]) -> [Vec<usize>; 3] {
    let mut out: [Vec<usize>; 3] = Default::default();
    for cell in (0..core.cells()).filter(|&c| !pinned[c]) {
        out[kind_of(core, cell)].push(cell);
    }
    out
}

/// Scratch space of the assignment move, kept between moves.
#[derive(Default)]
struct AssignScratch {
    chosen: Vec<bool>,
    order: Vec<usize>,
    cells: Vec<usize>,
    weights: Vec<Vec<i64>>,
    best_rot: Vec<Vec<u16>>,
}

/// Ties are broken by noise below one seam: a seam is worth this much, and the noise added to
/// a weight stays under `TIE / k`, so the k noises of an assignment never sum to a seam.
const TIE: i64 = 1 << 24;

/// One assignment move on `cur` (matching `cur_m` seams): free up to `k` pairwise
/// non-adjacent cells of `group`, those in `hot` (cells at mismatches) first, and put their
/// pieces back by a maximum-weight assignment. Returns the new matched count; the board is
/// never made worse (the current placement is one of the assignments weighed).
fn assign_move(
    core: &Core,
    cur: &mut [u16],
    cur_m: usize,
    (group, hot): (&[usize], &[usize]),
    k: usize,
    rng: &mut Rng,
    sc: &mut AssignScratch,
) -> usize {
    let (rows, cols) = (core.rows(), core.cols());
    sc.chosen.clear();
    sc.chosen.resize(core.cells(), false);
    sc.cells.clear();
    // Candidates: the hot cells of this kind in random order, then the rest of the kind.
    sc.order.clear();
    sc.order.extend(
        hot.iter()
            .copied()
            .filter(|c| group.binary_search(c).is_ok()),
    );
    rng.shuffle(&mut sc.order);
    let hot_len = sc.order.len();
    sc.order.extend_from_slice(group);
    rng.shuffle(&mut sc.order[hot_len..]);
    for i in 0..sc.order.len() {
        if sc.cells.len() == k {
            break;
        }
        let cell = sc.order[i];
        if sc.chosen[cell]
            || around(rows, cols, cell)
                .iter()
                .flatten()
                .any(|&n| sc.chosen[n])
        {
            continue;
        }
        sc.chosen[cell] = true;
        sc.cells.push(cell);
    }
    let n = sc.cells.len();
    if n < 2 {
        return cur_m;
    }
    sc.weights.resize_with(n, Vec::new);
    sc.best_rot.resize_with(n, Vec::new);
    let noise_span = (TIE / n as i64).max(1) as u64;
    // A freed cell's value of piece j: its most matched seams over the rotations that fit
    // the cell's rim sides, against the pinned neighbours (none of them freed).
    let mut old = 0i64;
    for (i, &cell) in sc.cells.iter().enumerate() {
        let nbs = around(rows, cols, cell);
        let want: [Option<u8>; 4] =
            std::array::from_fn(|d| nbs[d].map(|nb| core.oriented(cur[nb]).sides[(d + 2) % 4]));
        let now = core.oriented(cur[cell]).sides;
        old += (0..4).filter(|&d| want[d] == Some(now[d])).count() as i64;
        sc.weights[i].clear();
        sc.best_rot[i].clear();
        for &from in &sc.cells {
            let piece = cur[from] / 4;
            let mut best = (i64::MIN, u16::MAX);
            for rot in 0..4u16 {
                let o = piece * 4 + rot;
                if !core.fits(o, cell) {
                    continue;
                }
                let s = core.oriented(o).sides;
                let m = (0..4).filter(|&d| want[d] == Some(s[d])).count() as i64;
                if m > best.0 {
                    best = (m, o);
                }
            }
            let w = if best.1 == u16::MAX {
                // A piece that fits no rotation of this cell (a corner of another
                // orientation cannot happen: every corner piece turns into every corner).
                -TIE * 8
            } else {
                best.0 * TIE + (rng.next_u64() % noise_span) as i64
            };
            sc.weights[i].push(w);
            sc.best_rot[i].push(best.1);
        }
    }
    let (_, to) = KuhnMunkres.max_weight(&sc.weights[..n]);
    let pieces: Vec<u16> = (0..n).map(|i| sc.best_rot[i][to[i]]).collect();
    let new: i64 = to
        .iter()
        .enumerate()
        .map(|(i, &j)| sc.weights[i][j] / TIE)
        .sum();
    if new < old || pieces.contains(&u16::MAX) {
        // Cannot happen with exact weights (the current placement is an assignment worth
        // `old`, and each piece's best rotation in its own cell at least that); a guard.
        return cur_m;
    }
    for (i, &cell) in sc.cells.iter().enumerate() {
        cur[cell] = pieces[i];
    }
    // Each freed cell's seams have exactly one freed end, so the count moves by the
    // difference of the two sums.
    cur_m + new as usize - old as usize
}

/// Placements an exact window repair may try before it gives up (and the beam rebuilds the
/// window instead).
const EXACT_NODES: u64 = 200_000;

/// The exact repair of a small set of cells: a depth-first branch and bound over `cells`
/// (row-major, so each cell's upper and left neighbours are placed or pinned before it) that
/// re-places the cells' own pieces, each in every rotation that fits, minimising the broken
/// seams that touch the cells. Candidates are tried in a seeded random order, so that among
/// equally good fillings a different one may come first. Returns the best filling found,
/// its broken seams (never more than the current filling's), the current filling's, and
/// whether the search finished (then no filling breaks fewer: the window is optimal), or
/// `None` when the node cap came before any filling.
fn exact_window(
    core: &Core,
    cur: &[u16],
    cells: &[usize],
    rng: &mut Rng,
) -> Option<(Vec<u16>, usize, usize, bool)> {
    let (rows, cols) = (core.rows(), core.cols());
    let n = cells.len();
    let mut inset = vec![usize::MAX; core.cells()];
    for (i, &c) in cells.iter().enumerate() {
        inset[c] = i;
    }
    // Seams broken now around the set, each counted once: a seam inside the set by its later
    // cell, as the search counts them.
    let current: usize = cells
        .iter()
        .map(|&cell| {
            let sd = core.oriented(cur[cell]).sides;
            around(rows, cols, cell)
                .into_iter()
                .enumerate()
                .filter(|&(_, nb)| {
                    nb.is_some_and(|nb| inset[nb] == usize::MAX || inset[nb] < inset[cell])
                })
                .filter(|&(d, nb)| {
                    core.oriented(cur[nb.expect("filtered")]).sides[(d + 2) % 4] != sd[d]
                })
                .count()
        })
        .sum();
    let mut pieces: Vec<u16> = cells.iter().map(|&c| cur[c] / 4).collect();
    rng.shuffle(&mut pieces);
    /// The search's state: the board around the set, the set, its pieces, and the best
    /// filling so far.
    struct Search<'a> {
        cur: &'a [u16],
        cells: &'a [usize],
        inset: &'a [usize],
        pieces: &'a [u16],
        best: Option<(Vec<u16>, usize)>,
        bound: usize,
        nodes: u64,
        place: Vec<u16>,
        used: Vec<bool>,
        rots: &'a [[u8; 4]],
    }
    let rots: Vec<[u8; 4]> = (0..n)
        .map(|_| {
            let mut r = [0u8, 1, 2, 3];
            rng.shuffle(&mut r);
            r
        })
        .collect();
    let mut st = Search {
        cur,
        cells,
        inset: &inset,
        pieces: &pieces,
        best: None,
        bound: current,
        nodes: 0,
        place: vec![u16::MAX; n],
        used: vec![false; n],
        rots: &rots,
    };
    fn go(core: &Core, st: &mut Search<'_>, depth: usize, broken: usize) -> bool {
        let (cur, cells, inset, pieces) = (st.cur, st.cells, st.inset, st.pieces);
        if depth == cells.len() {
            st.best = Some((st.place.clone(), broken));
            // Look for strictly fewer from here on; none is possible below zero.
            if broken == 0 {
                return true;
            }
            st.bound = broken - 1;
            return false;
        }
        let (rows, cols) = (core.rows(), core.cols());
        let cell = cells[depth];
        let nbs = around(rows, cols, cell);
        // The colours the known neighbours show towards this cell: earlier cells of the set
        // and pinned cells (later cells of the set are not known yet).
        let want: [Option<u8>; 4] = std::array::from_fn(|d| {
            let nb = nbs[d]?;
            let o = match inset[nb] {
                usize::MAX => cur[nb],
                i if i < depth => st.place[i],
                _ => return None,
            };
            Some(core.oriented(o).sides[(d + 2) % 4])
        });
        for (i, &piece) in pieces.iter().enumerate() {
            if st.used[i] {
                continue;
            }
            for &rot in &st.rots[depth] {
                let o = piece * 4 + rot as u16;
                if !core.fits(o, cell) {
                    continue;
                }
                let sd = core.oriented(o).sides;
                st.nodes += 1;
                if st.nodes > EXACT_NODES {
                    return true;
                }
                let b = broken
                    + (0..4)
                        .filter(|&d| want[d].is_some_and(|w| w != sd[d]))
                        .count();
                if b > st.bound {
                    continue;
                }
                st.used[i] = true;
                st.place[depth] = o;
                let stop = go(core, st, depth + 1, b);
                st.used[i] = false;
                if stop {
                    return true;
                }
            }
        }
        false
    }
    go(core, &mut st, 0, 0);
    let finished = st.nodes <= EXACT_NODES;
    st.best
        .map(|(place, broken)| (place, broken, current, finished))
}

/// Improve the complete board `start` (every cell filled; `core`'s fixed pieces in place and
/// kept) until `params.iterations` or `deadline`; `on_best` hears every new best board.
pub fn lns(
    core: &Core,
    start: &[u16],
    params: &LnsParams,
    deadline: Option<Instant>,
    on_best: &(dyn Fn(usize, &[u16]) + Sync),
) -> LnsResult {
    let pinned: Vec<bool> = (0..core.cells()).map(|c| core.fixed(c).is_some()).collect();
    struct Shared {
        best: Vec<u16>,
        matched: usize,
        iterations: u64,
        accepted: u64,
        improved: u64,
        assignments: (u64, u64),
        exact: (u64, u64),
    }
    let shared = Mutex::new(Shared {
        best: start.to_vec(),
        matched: core.matched(start),
        iterations: 0,
        accepted: 0,
        improved: 0,
        assignments: (0, 0),
        exact: (0, 0),
    });
    let groups = kind_groups(core, &pinned);
    let worker = |w: usize| {
        let mut rng = Rng::new(params.seed.wrapping_add((w as u64) << 32));
        let mut work = core.clone();
        let (mut cur, mut cur_m) = {
            let s = shared.lock().expect("an LNS worker panicked");
            (s.best.clone(), s.matched)
        };
        let mut since_best = 0u64;
        let (rows, cols) = (core.rows(), core.cols());
        let (lo, hi) = (
            params.window.0.max(1),
            params.window.1.max(params.window.0.max(1)),
        );
        let mut pins = vec![u16::MAX; core.cells()];
        let mut hot = Vec::new();
        let mut scratch = AssignScratch::default();
        let (mut assigns, mut gains) = (0u64, 0u64);
        // Windows repaired by the exact search, and those of them it finished (proved).
        let mut exact = (0u64, 0u64);
        loop {
            {
                let mut s = shared.lock().expect("an LNS worker panicked");
                if params.iterations.is_some_and(|n| s.iterations >= n)
                    || deadline.is_some_and(|d| Instant::now() >= d)
                    || s.matched == core.max_score()
                {
                    s.assignments.0 += assigns;
                    s.assignments.1 += gains;
                    s.exact.0 += exact.0;
                    s.exact.1 += exact.1;
                    return;
                }
                s.iterations += 1;
                // Adopt a better board another worker found, or go back to the best.
                if s.matched > cur_m || since_best >= params.patience {
                    cur.clone_from(&s.best);
                    cur_m = s.matched;
                    since_best = 0;
                }
            }
            let bad = mismatches(core, &cur);
            let before = cur_m;
            if rng.unit() < params.assign_share {
                // Both ends of every mismatched seam are hot.
                hot.clear();
                hot.extend(
                    bad.iter()
                        .flat_map(|&(a, b)| [a, b])
                        .filter(|&c| !pinned[c]),
                );
                // The kind of a random hot cell (inner when nothing is hot).
                let kind = hot
                    .get(rng.below(hot.len().max(1)))
                    .map_or(2, |&c| kind_of(core, c));
                let (klo, khi) = (
                    params.assign_cells.0.max(2),
                    params.assign_cells.1.max(params.assign_cells.0.max(2)),
                );
                let k = klo + rng.below(khi - klo + 1);
                let m = assign_move(
                    core,
                    &mut cur,
                    cur_m,
                    (&groups[kind], &hot),
                    k,
                    &mut rng,
                    &mut scratch,
                );
                since_best += 1;
                assigns += 1;
                if m > cur_m {
                    gains += 1;
                }
                cur_m = m;
            } else {
                let (h, wd) = (
                    (lo + rng.below(hi - lo + 1)).min(rows),
                    (lo + rng.below(hi - lo + 1)).min(cols),
                );
                let (cr, cc) = if !bad.is_empty() && rng.below(5) != 0 {
                    let cell = bad[rng.below(bad.len())].0;
                    (cell / cols, cell % cols)
                } else {
                    (rng.below(rows), rng.below(cols))
                };
                let r0 = cr.saturating_sub(rng.below(h)).min(rows - h);
                let c0 = cc.saturating_sub(rng.below(wd)).min(cols - wd);
                pins.copy_from_slice(&cur);
                let mut cells = Vec::with_capacity(h * wd);
                for r in r0..r0 + h {
                    for c in c0..c0 + wd {
                        let cell = r * cols + c;
                        if !pinned[cell] {
                            pins[cell] = u16::MAX;
                            cells.push(cell);
                        }
                    }
                }
                // Half the time, cells at other mismatches join the window, so that pieces can
                // travel between the two places (a window alone only rearranges its own).
                if !bad.is_empty() && rng.below(2) == 0 {
                    for _ in 0..2 + rng.below(10) {
                        let (a, b) = bad[rng.below(bad.len())];
                        let cell = if rng.below(2) == 0 { a } else { b };
                        if !pinned[cell] && pins[cell] != u16::MAX {
                            pins[cell] = u16::MAX;
                            cells.push(cell);
                        }
                    }
                    cells.sort_unstable();
                }
                if cells.is_empty() {
                    continue;
                }
                since_best += 1;
                // Small sets first by the exact search; the beam when that runs out of nodes.
                if cells.len() <= params.exact_cells
                    && let Some((place, broken, current, finished)) =
                        exact_window(core, &cur, &cells, &mut rng)
                    && (finished || broken < current)
                {
                    exact.0 += 1;
                    exact.1 += finished as u64;
                    for (i, &c) in cells.iter().enumerate() {
                        cur[c] = place[i];
                    }
                    cur_m = cur_m + current - broken;
                } else {
                    work.set_fixed(&pins);
                    // The deadline reaches into the rebuild: a wide one takes long.
                    let res = beam_cells(&work, &cells, params.width, rng.next_u64(), 1, deadline);
                    if res.matched < cur_m || res.cells.contains(&u16::MAX) {
                        continue;
                    }
                    cur = res.cells;
                    cur_m = res.matched;
                }
            }
            let gained = cur_m > before;
            let mut s = shared.lock().expect("an LNS worker panicked");
            s.accepted += 1;
            if cur_m > s.matched {
                s.matched = cur_m;
                s.best.clone_from(&cur);
                s.improved += 1;
                since_best = 0;
                on_best(cur_m, &cur);
            } else if gained {
                since_best = 0;
            }
        }
    };
    if params.threads <= 1 {
        worker(0);
    } else {
        std::thread::scope(|s| {
            for w in 0..params.threads {
                let worker = &worker;
                s.spawn(move || worker(w));
            }
        });
    }
    let s = shared.into_inner().expect("an LNS worker panicked");
    LnsResult {
        cells: s.best,
        matched: s.matched,
        iterations: s.iterations,
        accepted: s.accepted,
        improved: s.improved,
        assignments: s.assignments,
        exact: s.exact,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edge_search::beam::beam;
    use crate::edge_search::core::ScanOrder;
    use crate::puzzle::edge::{Board, generate, score};

    #[test]
    fn lns_never_loses_seams_keeps_fixed_pieces_and_is_deterministic() {
        let (p, planted) = generate(8, 8, 3, 6, 21).unwrap();
        let mut fixed = Board::empty(8, 8);
        fixed.cells[27] = planted.cells[27];
        let core = Core::new(&p, &fixed).unwrap();
        let start = beam(&core, ScanOrder::RowMajor, 8, 1, 1, None);
        let params = LnsParams {
            iterations: Some(400),
            seed: 3,
            ..LnsParams::default()
        };
        let a = lns(&core, &start.cells, &params, None, &|_, _| {});
        assert!(a.matched >= start.matched);
        let b = core.board(&a.cells);
        let sc = score(&p, &b);
        assert_eq!((sc.empty, sc.rim_faults, sc.repeats), (0, 0, 0));
        assert_eq!(sc.matched, a.matched);
        assert_eq!(b.cells[27], planted.cells[27]);
        let again = lns(&core, &start.cells, &params, None, &|_, _| {});
        assert_eq!(again.cells, a.cells);
    }
}

#[cfg(test)]
mod assign_tests {
    use super::*;
    use crate::puzzle::edge::{Board, generate, score};

    #[test]
    fn scrambled_non_adjacent_cells_of_a_perfect_board_are_put_back_exactly() {
        for seed in 1..=6 {
            let (p, planted) = generate(8, 8, 3, 7, seed).unwrap();
            let core = Core::new(&p, &Board::empty(8, 8)).unwrap();
            let pinned = vec![false; 64];
            let groups = kind_groups(&core, &pinned);
            let mut rng = Rng::new(seed);
            let mut cells = Core::indices(&planted);
            // Inner cells of one colour of the chequerboard: pairwise non-adjacent.
            let set: Vec<usize> = groups[2]
                .iter()
                .copied()
                .filter(|c| (c / 8 + c % 8) % 2 == 0)
                .collect();
            let mut pieces: Vec<u16> = set.iter().map(|&c| cells[c] / 4).collect();
            rng.shuffle(&mut pieces);
            for (i, &c) in set.iter().enumerate() {
                cells[c] = pieces[i] * 4 + rng.below(4) as u16;
            }
            let before = core.matched(&cells);
            assert!(
                before < core.max_score(),
                "seed {seed}: the scramble changed nothing"
            );
            let mut sc = AssignScratch::default();
            let m = assign_move(
                &core,
                &mut cells,
                before,
                (&groups[2], &set),
                set.len(),
                &mut rng,
                &mut sc,
            );
            assert_eq!(m, core.matched(&cells), "seed {seed}: the move's own count");
            assert_eq!(m, core.max_score(), "seed {seed}: not put back perfectly");
        }
    }

    #[test]
    fn assignment_moves_never_lose_seams_keep_the_rules_and_pinned_cells() {
        let (p, planted) = generate(7, 9, 2, 5, 11).unwrap();
        let mut fixed = Board::empty(7, 9);
        fixed.cells[20] = planted.cells[20];
        let core = Core::new(&p, &fixed).unwrap();
        let pinned: Vec<bool> = (0..63).map(|c| core.fixed(c).is_some()).collect();
        let groups = kind_groups(&core, &pinned);
        assert!(groups.iter().all(|g| !g.contains(&20)));
        let mut rng = Rng::new(5);
        // A random legal start: each kind's pieces shuffled into its cells.
        let start = crate::edge_search::beam::beam(
            &core,
            crate::edge_search::core::ScanOrder::RowMajor,
            1,
            3,
            1,
            None,
        );
        let mut cells = start.cells;
        let mut m = core.matched(&cells);
        let mut sc = AssignScratch::default();
        for i in 0..300 {
            let kind = i % 3;
            let hot: Vec<usize> = mismatches(&core, &cells)
                .into_iter()
                .flat_map(|(a, b)| [a, b])
                .collect();
            let next = assign_move(
                &core,
                &mut cells,
                m,
                (&groups[kind], &hot),
                2 + i % 20,
                &mut rng,
                &mut sc,
            );
            assert!(next >= m, "move {i} lost seams");
            assert_eq!(next, core.matched(&cells), "move {i}: the move's own count");
            m = next;
        }
        let b = core.board(&cells);
        let sc = score(&p, &b);
        assert_eq!(
            (sc.empty, sc.rim_faults, sc.repeats, sc.matched),
            (0, 0, 0, m)
        );
        assert_eq!(b.cells[20], planted.cells[20]);
    }
}

#[cfg(test)]
mod exact_tests {
    use super::*;
    use crate::puzzle::edge::{Board, generate};

    /// The best filling of `cells` by brute force over every placement of their pieces, each
    /// in every rotation that fits: the fewest broken seams of the whole board.
    fn brute(core: &Core, cur: &[u16], cells: &[usize]) -> usize {
        fn rec(
            core: &Core,
            board: &mut Vec<u16>,
            cells: &[usize],
            free: &mut Vec<u16>,
            best: &mut usize,
        ) {
            if free.is_empty() {
                let broken = core.max_score() - core.matched(board);
                *best = (*best).min(broken);
                return;
            }
            let cell = cells[cells.len() - free.len()];
            for i in 0..free.len() {
                let p = free.swap_remove(i);
                for rot in 0..4 {
                    let o = p * 4 + rot;
                    let sd = core.oriented(o).sides;
                    let class = core.class(cell);
                    if (0..4).all(|d| (sd[d] == 0) == (class & (1 << d) != 0)) {
                        board[cell] = o;
                        rec(core, board, cells, free, best);
                    }
                }
                free.push(p);
                let last = free.len() - 1;
                free.swap(i, last);
            }
        }
        let mut board = cur.to_vec();
        let mut free: Vec<u16> = cells.iter().map(|&c| cur[c] / 4).collect();
        let mut best = usize::MAX;
        rec(core, &mut board, cells, &mut free, &mut best);
        best
    }

    #[test]
    fn the_exact_window_search_agrees_with_brute_force() {
        for seed in 1..=12u64 {
            let (p, _) = generate(5, 6, 2, 3, seed).unwrap();
            let core = Core::new(&p, &Board::empty(5, 6)).unwrap();
            let start = crate::edge_search::beam::beam(
                &core,
                crate::edge_search::core::ScanOrder::RowMajor,
                1,
                seed,
                1,
                None,
            );
            let mut rng = Rng::new(seed);
            // A 2×2 inner window, plus (on odd seeds) a scattered inner cell.
            let (r0, c0) = (1 + rng.below(2), 1 + rng.below(2));
            let w = 2;
            let mut cells: Vec<usize> = (r0..r0 + 2)
                .flat_map(|r| (c0..c0 + w).map(move |c| r * 6 + c))
                .collect();
            if seed % 2 == 1 && !cells.contains(&(3 * 6 + 4)) {
                cells.push(3 * 6 + 4);
            }
            cells.sort_unstable();
            let whole_now = core.max_score() - core.matched(&start.cells);
            let (place, broken, current, finished) =
                exact_window(&core, &start.cells, &cells, &mut rng).expect("a filling");
            assert!(finished, "seed {seed}: small windows finish");
            let mut after = start.cells.clone();
            for (i, &c) in cells.iter().enumerate() {
                after[c] = place[i];
            }
            let whole_after = core.max_score() - core.matched(&after);
            assert_eq!(
                whole_now - whole_after,
                current - broken,
                "seed {seed}: its counts"
            );
            let best_whole = brute(&core, &start.cells, &cells);
            assert_eq!(whole_after, best_whole, "seed {seed}: not the best filling");
        }
    }
}

#[cfg(test)]
mod window_tests {
    use crate::edge_search::beam::beam_cells;
    use crate::edge_search::core::Core;
    use crate::puzzle::edge::{Board, generate};

    #[test]
    fn a_window_of_a_planted_board_is_rebuilt_perfectly() {
        for seed in 1..=5 {
            let (p, planted) = generate(9, 9, 3, 6, seed).unwrap();
            let all = Core::indices(&planted);
            let mut core = Core::new(&p, &Board::empty(9, 9)).unwrap();
            for (r0, c0, h, w) in [(2, 3, 4, 4), (0, 0, 3, 5), (5, 4, 4, 5), (3, 0, 6, 2)] {
                let mut pins = all.clone();
                let mut cells = Vec::new();
                for r in r0..r0 + h {
                    for c in c0..c0 + w {
                        pins[r * 9 + c] = u16::MAX;
                        cells.push(r * 9 + c);
                    }
                }
                core.set_fixed(&pins);
                let res = beam_cells(&core, &cells, 2000, 1, 1, None);
                assert_eq!(
                    res.matched,
                    p.max_score(),
                    "seed {seed} window {r0},{c0} {h}x{w}"
                );
            }
        }
    }
}
