//! Manhattan distance plus linear conflict, for any board up to 16×16, updated move by move.
//!
//! Linear conflict per line (row or column): among the tiles that sit in the line and
//! belong in it, all but a longest in-order subsequence must leave the line and come back,
//! which costs 2 extra moves each (Hansson, Mayer & Yung 1992). Counting the removals with
//! the longest increasing subsequence keeps the bound admissible (a greedy count can overshoot).

use super::ida::Heuristic;

/// Largest side the incremental accumulator holds.
pub const MAX_SIDE: usize = 16;

/// Manhattan distance + linear conflict towards the blank-first goal.
#[derive(Debug, Clone)]
pub struct ManhattanLc {
    rows: usize,
    cols: usize,
}

/// Per-node state: Manhattan sum and the conflict count of every row and column.
#[derive(Debug, Clone, Copy)]
pub struct MdAcc {
    md: u32,
    conflicts: u32,
    row_lc: [u8; MAX_SIDE],
    col_lc: [u8; MAX_SIDE],
}

impl ManhattanLc {
    /// The heuristic for a `rows × cols` board (each side at most [`MAX_SIDE`]).
    pub fn new(rows: usize, cols: usize) -> Self {
        assert!(rows <= MAX_SIDE && cols <= MAX_SIDE);
        ManhattanLc { rows, cols }
    }

    fn dist(&self, tile: u8, cell: usize) -> u32 {
        let g = tile as usize;
        ((g / self.cols).abs_diff(cell / self.cols) + (g % self.cols).abs_diff(cell % self.cols))
            as u32
    }

    /// Tiles to remove from row `r` so that the rest are in goal order.
    fn row_conflicts(&self, tiles: &[u8], r: usize) -> u8 {
        let mut seq = [0u8; MAX_SIDE];
        let mut k = 0;
        for c in 0..self.cols {
            let t = tiles[r * self.cols + c] as usize;
            if t != 0 && t / self.cols == r {
                seq[k] = (t % self.cols) as u8;
                k += 1;
            }
        }
        (k - lis(&seq[..k])) as u8
    }

    /// Tiles to remove from column `c` so that the rest are in goal order.
    fn col_conflicts(&self, tiles: &[u8], c: usize) -> u8 {
        let mut seq = [0u8; MAX_SIDE];
        let mut k = 0;
        for r in 0..self.rows {
            let t = tiles[r * self.cols + c] as usize;
            if t != 0 && t % self.cols == c {
                seq[k] = (t / self.cols) as u8;
                k += 1;
            }
        }
        (k - lis(&seq[..k])) as u8
    }
}

/// Length of a longest strictly increasing subsequence (lines are short: quadratic is fine).
fn lis(seq: &[u8]) -> usize {
    let mut best = [0u8; MAX_SIDE];
    let mut longest = 0;
    for i in 0..seq.len() {
        let mut b = 1;
        for j in 0..i {
            if seq[j] < seq[i] && best[j] + 1 > b {
                b = best[j] + 1;
            }
        }
        best[i] = b;
        longest = longest.max(b as usize);
    }
    longest
}

impl Heuristic for ManhattanLc {
    type Acc = MdAcc;

    fn init(&self, tiles: &[u8]) -> MdAcc {
        let mut acc = MdAcc {
            md: 0,
            conflicts: 0,
            row_lc: [0; MAX_SIDE],
            col_lc: [0; MAX_SIDE],
        };
        for (c, &t) in tiles.iter().enumerate() {
            if t != 0 {
                acc.md += self.dist(t, c);
            }
        }
        for r in 0..self.rows {
            acc.row_lc[r] = self.row_conflicts(tiles, r);
            acc.conflicts += acc.row_lc[r] as u32;
        }
        for c in 0..self.cols {
            acc.col_lc[c] = self.col_conflicts(tiles, c);
            acc.conflicts += acc.col_lc[c] as u32;
        }
        acc
    }

    fn update(&self, acc: &MdAcc, tiles: &[u8], tile: u8, from: usize, to: usize) -> MdAcc {
        let mut a = *acc;
        a.md = a.md + self.dist(tile, to) - self.dist(tile, from);
        if from / self.cols == to / self.cols {
            // Horizontal slide: the tile changed column; row order is unchanged.
            for c in [from % self.cols, to % self.cols] {
                let v = self.col_conflicts(tiles, c);
                a.conflicts = a.conflicts + v as u32 - a.col_lc[c] as u32;
                a.col_lc[c] = v;
            }
        } else {
            for r in [from / self.cols, to / self.cols] {
                let v = self.row_conflicts(tiles, r);
                a.conflicts = a.conflicts + v as u32 - a.row_lc[r] as u32;
                a.row_lc[r] = v;
            }
        }
        a
    }

    fn value(&self, acc: &MdAcc) -> u32 {
        acc.md + 2 * acc.conflicts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lis_counts() {
        assert_eq!(lis(&[]), 0);
        assert_eq!(lis(&[3, 2, 1, 0]), 1);
        assert_eq!(lis(&[0, 2, 1, 3]), 3);
    }

    #[test]
    fn incremental_matches_recomputed() {
        let h = ManhattanLc::new(3, 4);
        let mut tiles: Vec<u8> = vec![5, 1, 11, 3, 0, 9, 6, 7, 8, 4, 10, 2];
        let mut acc = h.init(&tiles);
        let nb = super::super::ida::neighbours(3, 4);
        let mut blank = 4;
        for step in 0..200usize {
            let (c, _) = nb[blank][step * 7 % nb[blank].len()];
            let t = tiles[c];
            tiles[blank] = t;
            tiles[c] = 0;
            acc = h.update(&acc, &tiles, t, c, blank);
            blank = c;
            assert_eq!(h.value(&acc), h.value(&h.init(&tiles)), "step {step}");
        }
    }

    #[test]
    fn known_values() {
        // 8-puzzle, blank-first goal: tiles 2 and 1 swapped in row 0 → MD 2 + LC 2.
        let h = ManhattanLc::new(3, 3);
        let t = [0u8, 2, 1, 3, 4, 5, 6, 7, 8];
        assert_eq!(h.value(&h.init(&t)), 4);
    }
}
