//! Pattern-database construction by breadth-first search over *blank regions*, for groups
//! too large for an abstract state per (placement, blank cell).
//!
//! In the abstract space a move of a non-pattern tile costs nothing, so the blank roams freely
//! within the connected region of free cells (cells without a pattern tile) it is in. The
//! search therefore works on (placement, region) pairs, where every move costs one: a pattern
//! tile next to the region slides into it, and the blank continues in the region of the cell
//! the tile left. Per placement the search keeps a bit mask of the free cells whose regions it
//! has reached; regions of one placement are disjoint, so a region is new exactly when none of
//! its cells is in the mask. This stores a few bytes per placement instead of one per
//! (placement, blank cell), needs no queue, and runs the levels in parallel: an 8-tile table
//! for the 15-puzzle (518.9 M placements) is built in minutes in about 3.6 GB.
//!
//! The table is the placement's BFS level: the fewest pattern-tile moves from any blank
//! position, the minimum over blank cells that [`super::pdb`] stores.

use super::rank::{MAX_CELLS, full_mask, perm_count, rank_cells, unrank_cells};
use std::sync::atomic::{
    AtomicBool, AtomicU8, AtomicU16, AtomicU32, AtomicU64, AtomicUsize, Ordering,
};
use std::time::Instant;

/// One placement's mask of reached cells, stored as narrowly as the board allows.
trait MaskSlot: Sync + Send + Sized {
    fn zeroed(len: usize) -> Vec<Self>;
    fn get(&self) -> u32;
    fn clear(&self);
    /// OR `v` in; the value before.
    fn or(&self, v: u32) -> u32;
}

macro_rules! mask_slot {
    ($atomic:ty, $int:ty) => {
        impl MaskSlot for $atomic {
            fn zeroed(len: usize) -> Vec<Self> {
                (0..len).map(|_| <$atomic>::new(0)).collect()
            }
            #[inline(always)]
            fn get(&self) -> u32 {
                self.load(Ordering::Relaxed) as u32
            }
            #[inline(always)]
            fn clear(&self) {
                self.store(0, Ordering::Relaxed)
            }
            #[inline(always)]
            fn or(&self, v: u32) -> u32 {
                self.fetch_or(v as $int, Ordering::Relaxed) as u32
            }
        }
    };
}
mask_slot!(AtomicU16, u16);
mask_slot!(AtomicU32, u32);

/// Bytes the region search allocates for `k` tiles on `n` cells: three masks and one
/// distance byte per placement.
pub fn build_bytes(n: usize, k: usize) -> u64 {
    let mask = if n <= 16 { 2 } else { 4 };
    perm_count(n, k) * (3 * mask + 1)
}

/// Bit-parallel moves on a `rows × cols` board (cells numbered row-major, bit c = cell c).
#[derive(Clone, Copy)]
struct Board {
    cols: u32,
    full: u64,
    /// Cells not in the first / last column: where a step right / left may land.
    not_first_col: u64,
    not_last_col: u64,
}

impl Board {
    fn new(rows: usize, cols: usize) -> Self {
        let n = rows * cols;
        let mut not_first = 0u64;
        let mut not_last = 0u64;
        for c in 0..n {
            if c % cols != 0 {
                not_first |= 1 << c;
            }
            if c % cols != cols - 1 {
                not_last |= 1 << c;
            }
        }
        Board {
            cols: cols as u32,
            full: (1u64 << n) - 1,
            not_first_col: not_first,
            not_last_col: not_last,
        }
    }

    /// The cells one step from any cell of `m`.
    #[inline(always)]
    fn around(&self, m: u32) -> u32 {
        let m = m as u64;
        (((m << self.cols)
            | (m >> self.cols)
            | ((m << 1) & self.not_first_col)
            | ((m >> 1) & self.not_last_col))
            & self.full) as u32
    }

    /// The connected part of `free` that contains the cells of `seed`.
    #[inline(always)]
    fn flood(&self, seed: u32, free: u32) -> u32 {
        let mut r = seed;
        loop {
            let nr = (r | self.around(r)) & free;
            if nr == r {
                return r;
            }
            r = nr;
        }
    }
}

/// Build the table of the group `tiles` (tile t's home is cell t, the blank's is cell 0) on a
/// `rows × cols` board: `table[rank_cells(cells of the tiles)]` = fewest pattern-tile moves
/// that bring them home, over every blank cell. Uses up to `threads` threads; `progress` gets
/// one line per level.
pub fn build(
    rows: usize,
    cols: usize,
    tiles: &[u8],
    threads: usize,
    progress: &(dyn Fn(&str) + Sync),
) -> Vec<u8> {
    build_towards(rows, cols, tiles, 0, threads, progress)
}

/// [`build`], given up (`None`) once `deadline` has passed: each thread looks at the clock
/// between its chunks of placements.
pub fn build_until(
    rows: usize,
    cols: usize,
    tiles: &[u8],
    threads: usize,
    progress: &(dyn Fn(&str) + Sync),
    deadline: Option<Instant>,
) -> Option<Vec<u8>> {
    towards_until(rows, cols, tiles, 0, threads, progress, deadline)
}

/// The connected part of the `free` cells (a mask) of a `rows × cols` board that holds cell
/// `seed` (itself free).
pub(crate) fn region_of(rows: usize, cols: usize, seed: u8, free: u32) -> u32 {
    Board::new(rows, cols).flood(1 << seed, free)
}

/// [`build`] for a goal whose blank is in cell `goal` (a cell none of `tiles` calls home):
/// the fewest pattern-tile moves that bring the tiles home with the blank in `goal`'s
/// region. The dual lookups need these ([`super::pdb::AdditivePdb::with_dual`]): a dual
/// board's goal has its blank wherever the board's blank is.
pub fn build_towards(
    rows: usize,
    cols: usize,
    tiles: &[u8],
    goal: u8,
    threads: usize,
    progress: &(dyn Fn(&str) + Sync),
) -> Vec<u8> {
    towards_until(rows, cols, tiles, goal, threads, progress, None).expect("no deadline, no stop")
}

fn towards_until(
    rows: usize,
    cols: usize,
    tiles: &[u8],
    goal: u8,
    threads: usize,
    progress: &(dyn Fn(&str) + Sync),
    deadline: Option<Instant>,
) -> Option<Vec<u8>> {
    assert!(
        (goal as usize) < rows * cols && !tiles.contains(&goal),
        "the goal's blank cell must be free"
    );
    let args = (rows, cols, tiles, goal, threads, progress, deadline);
    // With the cell count a constant, the divisions of unrank become multiplications.
    match rows * cols {
        16 => run::<16, AtomicU16>(args),
        n if n <= 16 => run::<0, AtomicU16>(args),
        25 => run::<25, AtomicU32>(args),
        _ => run::<0, AtomicU32>(args),
    }
}

/// What [`run`] builds: rows, columns, tiles, the goal's blank cell, threads, progress and the
/// deadline.
type RunArgs<'a> = (
    usize,
    usize,
    &'a [u8],
    u8,
    usize,
    &'a (dyn Fn(&str) + Sync),
    Option<Instant>,
);

/// Placements handed to a thread at a time.
const CHUNK: usize = 1 << 14;

fn run<const N: usize, M: MaskSlot>(
    (rows, cols, tiles, goal, threads, progress, deadline): RunArgs<'_>,
) -> Option<Vec<u8>> {
    let n = if N == 0 { rows * cols } else { N };
    assert!(
        n <= MAX_CELLS && tiles.len() < n,
        "board or group too large"
    );
    let k = tiles.len();
    let board = Board::new(rows, cols);
    let size = perm_count(n, k) as usize;
    let seen = M::zeroed(size);
    let mut cur = M::zeroed(size);
    let mut next = M::zeroed(size);
    let dist: Vec<AtomicU8> = (0..size).map(|_| AtomicU8::new(u8::MAX)).collect();

    let home = rank_cells(tiles, n) as usize;
    let occupied = tiles.iter().fold(0u32, |m, &t| m | 1 << t);
    let region = board.flood(1 << goal, full_mask(n) & !occupied);
    seen[home].or(region);
    cur[home].or(region);
    dist[home].store(0, Ordering::Relaxed);

    let threads = threads.max(1);
    let mut d: u8 = 0;
    let (mut total, mut reached) = (0u64, 1u64);
    let stopped = AtomicBool::new(false);
    loop {
        let claimed = AtomicUsize::new(0);
        let expanded = AtomicU64::new(0);
        let found = AtomicU64::new(0);
        let placed = AtomicU64::new(0);
        std::thread::scope(|s| {
            for _ in 0..threads {
                s.spawn(|| {
                    let (mut done, mut new, mut first) = (0u64, 0u64, 0u64);
                    loop {
                        let lo = claimed.fetch_add(CHUNK, Ordering::Relaxed);
                        if lo >= size {
                            break;
                        }
                        if deadline.is_some_and(|d| Instant::now() >= d) {
                            stopped.store(true, Ordering::Relaxed);
                            break;
                        }
                        let hi = (lo + CHUNK).min(size);
                        for (r, slot) in (lo..hi).zip(&cur[lo..hi]) {
                            let mut pending = slot.get();
                            if pending == 0 {
                                continue;
                            }
                            // Only this thread touches `cur[r]` in this level.
                            slot.clear();
                            let mut cells = unrank_cells(r as u32, k, n);
                            let mut at = [u8::MAX; MAX_CELLS];
                            let mut occ = 0u32;
                            for (j, &c) in cells[..k].iter().enumerate() {
                                at[c as usize] = j as u8;
                                occ |= 1 << c;
                            }
                            let free = full_mask(n) & !occ;
                            while pending != 0 {
                                let region = board.flood(pending & pending.wrapping_neg(), free);
                                pending &= !region;
                                done += 1;
                                // Pattern tiles next to the region, each slid into each
                                // neighbouring region cell.
                                let mut movers = board.around(region) & occ;
                                while movers != 0 {
                                    let c = movers.trailing_zeros();
                                    movers &= movers - 1;
                                    let j = at[c as usize] as usize;
                                    let mut into = board.around(1 << c) & region;
                                    while into != 0 {
                                        let b = into.trailing_zeros();
                                        into &= into - 1;
                                        cells[j] = b as u8;
                                        let nr = rank_cells(&cells[..k], n) as usize;
                                        let nfree = (free | 1 << c) & !(1 << b);
                                        let nregion = board.flood(1 << c, nfree);
                                        let old = seen[nr].or(nregion);
                                        if old & nregion == 0 {
                                            next[nr].or(nregion);
                                            new += 1;
                                            if old == 0 {
                                                dist[nr].store(d + 1, Ordering::Relaxed);
                                                first += 1;
                                            }
                                        }
                                    }
                                    cells[j] = c as u8;
                                }
                            }
                        }
                    }
                    expanded.fetch_add(done, Ordering::Relaxed);
                    found.fetch_add(new, Ordering::Relaxed);
                    placed.fetch_add(first, Ordering::Relaxed);
                });
            }
        });
        if stopped.load(Ordering::Relaxed) {
            return None;
        }
        total += expanded.load(Ordering::Relaxed);
        reached += placed.load(Ordering::Relaxed);
        // Every placement is reached in the end (the tiles outside the pattern are
        // indistinguishable, so no parity splits them): `size` is the known total.
        progress(&super::step(
            reached,
            size as u64,
            &format!(
                "pattern {tiles:?}: depth {d} done, {total} (placement, blank region) states \
                 settled, {reached} of {size} placements reached ({:.1} %)",
                100.0 * reached as f64 / size as f64
            ),
        ));
        if found.load(Ordering::Relaxed) == 0 {
            break;
        }
        // `cur` was emptied while it was read, so it is the next level's empty target.
        std::mem::swap(&mut cur, &mut next);
        d += 1;
    }
    drop((seen, cur, next));
    Some(dist.into_iter().map(AtomicU8::into_inner).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::pdb::{build_group, rank_packed};

    fn quiet(_: &str) {}

    #[test]
    fn rank_and_unrank_are_inverse_dense_and_match_packed_ranks() {
        for (n, k) in [(6usize, 4usize), (9, 3), (25, 2)] {
            let bits = usize::BITS - (n - 1usize).leading_zeros();
            let total = perm_count(n, k) as u32;
            let mut seen = vec![false; total as usize];
            for r in 0..total {
                let cells = unrank_cells(r, k, n);
                assert_eq!(rank_cells(&cells[..k], n), r);
                let packed = (0..k).fold(0u32, |a, i| a | (cells[i] as u32) << (bits * i as u32));
                assert_eq!(rank_packed(packed, bits, k, n), r);
                assert!(!std::mem::replace(&mut seen[r as usize], true));
            }
        }
    }

    #[test]
    fn flood_fills_the_connected_free_cells() {
        // 3×3 with a wall down the middle column: the left column is cut off from the right.
        let b = Board::new(3, 3);
        let wall = (1 << 1) | (1 << 4) | (1 << 7);
        let free = 0x1FF & !wall;
        assert_eq!(b.flood(1, free), (1 << 0) | (1 << 3) | (1 << 6));
        assert_eq!(b.flood(1 << 8, free), (1 << 2) | (1 << 5) | (1 << 8));
        // No wrap-around between the end of one row and the start of the next.
        assert_eq!(b.around(1 << 2), (1 << 1) | (1 << 5));
        assert_eq!(b.around(1 << 3), (1 << 0) | (1 << 4) | (1 << 6));
    }

    /// The region search must give exactly the tables of the per-blank-cell 0-1 BFS.
    #[test]
    fn agrees_with_the_per_blank_cell_search() {
        for (rows, cols, tiles, threads) in [
            (2, 4, (1..8).collect::<Vec<u8>>(), 1),
            (3, 3, vec![1, 2, 3, 4, 5], 2),
            (3, 3, vec![8, 4, 6], 2),
            (3, 4, vec![1, 5, 6, 11], 2),
            (2, 5, vec![3, 4, 8, 9, 7, 2], 3),
            (5, 5, vec![1, 7, 13], 2),
            (3, 6, vec![17, 16, 11], 2),
        ] {
            let n = rows * cols;
            let bits = usize::BITS - (n - 1usize).leading_zeros();
            let k = tiles.len();
            let by_region = build(rows, cols, &tiles, threads, &quiet);
            let direct = build_group(rows, cols, &tiles, &quiet);
            assert_eq!(by_region.len() as u64, perm_count(n, k));
            for (r, &v) in by_region.iter().enumerate() {
                let cells = unrank_cells(r as u32, k, n);
                let packed =
                    (0..k).fold(0usize, |a, i| a | (cells[i] as usize) << (bits * i as u32));
                assert_eq!(direct[packed], v, "{rows}×{cols} {tiles:?} rank {r}");
            }
            if k + 1 < n {
                // With two free cells, parity no longer splits the placements.
                assert!(by_region.iter().all(|&v| v != u8::MAX), "all reachable");
            }
        }
    }

    /// [`build_towards`] against a plain search written here: Dijkstra over (cells of the
    /// tiles, blank cell) from the home placement with the blank in `goal`, pattern moves
    /// costing one and blank moves among free cells nothing.
    #[test]
    fn towards_another_blank_cell_agrees_with_a_direct_search() {
        use std::collections::{BTreeSet, HashMap};
        for (rows, cols, tiles, goal) in [
            (3, 3, vec![1u8, 3], 4u8),
            (3, 3, vec![1, 3], 0),
            (3, 3, vec![2, 4, 5], 8),
            (2, 4, vec![1, 2, 4], 7),
            (2, 3, vec![1, 2, 3, 4], 5),
            (3, 3, vec![5, 6, 7, 8], 2),
        ] {
            let n = rows * cols;
            let k = tiles.len();
            let near = crate::search::moves::neighbours(rows, cols);
            let start = (tiles.clone(), goal);
            let mut dist: HashMap<(Vec<u8>, u8), u32> = HashMap::from([(start.clone(), 0)]);
            let mut open = BTreeSet::from([(0u32, start)]);
            while let Some((d, (cells, blank))) = open.pop_first() {
                if dist[&(cells.clone(), blank)] < d {
                    continue;
                }
                for &(c, _) in &near[blank as usize] {
                    let mut next = cells.clone();
                    let cost = match cells.iter().position(|&x| x as usize == c) {
                        Some(j) => {
                            next[j] = blank;
                            1
                        }
                        None => 0,
                    };
                    let key = (next, c as u8);
                    if dist.get(&key).is_none_or(|&old| d + cost < old) {
                        dist.insert(key.clone(), d + cost);
                        open.insert((d + cost, key));
                    }
                }
            }
            let mut best: HashMap<Vec<u8>, u32> = HashMap::new();
            for ((cells, _), d) in dist {
                let e = best.entry(cells).or_insert(d);
                *e = (*e).min(d);
            }
            let table = build_towards(rows, cols, &tiles, goal, 2, &quiet);
            assert_eq!(table.len() as u64, perm_count(n, k));
            // With only two free cells parity leaves some placements unreachable (u8::MAX).
            for (r, &v) in table.iter().enumerate() {
                let cells = unrank_cells(r as u32, k, n)[..k].to_vec();
                let d = best.get(&cells).map_or(u8::MAX as u32, |&d| d);
                assert_eq!(
                    v as u32, d,
                    "{rows}×{cols} {tiles:?} goal {goal} at {cells:?}"
                );
            }
        }
    }

    #[test]
    fn progress_reports_every_level_and_all_placements() {
        let lines = std::sync::Mutex::new(Vec::new());
        let table = build(3, 3, &[1, 2, 3], 2, &|l: &str| {
            lines.lock().unwrap().push(l.to_string())
        });
        let lines = lines.into_inner().unwrap();
        let deepest = *table.iter().max().unwrap() as usize;
        // One line per level; regions of placements already reached may still be found
        // after the deepest placement, so there can be more levels than table values.
        assert!(lines.len() > deepest, "{lines:?}");
        for (d, l) in lines.iter().enumerate() {
            assert!(l.contains(&format!("depth {d} done")), "{l}");
        }
        let last = lines.last().unwrap();
        assert!(
            last.contains("504 of 504 placements reached (100.0 %)"),
            "{last}"
        );
    }
}
