//! Ranking placements of k distinct tiles on n cells: the one bijection between a placement
//! and its index in a pattern-database table, shared by the builders ([`super::pdb_regions`],
//! [`super::pdb`]) and the lookups.

/// Largest board (cells) the region search handles: masks are `u32`.
pub const MAX_CELLS: usize = 32;

/// Placements of `k` distinct tiles on `n` cells: n!/(n−k)!.
pub fn perm_count(n: usize, k: usize) -> u64 {
    (0..k).map(|i| (n - i) as u64).product()
}

/// Lexicographic rank of the placement `cells` (cell of each tile) among the n!/(n−k)!
/// placements of `cells.len()` tiles (see [`rank`]).
#[inline(always)]
pub fn rank_cells(cells: &[u8], n: usize) -> u32 {
    rank(cells.iter().map(|&c| c as u32), n)
}

/// Lexicographic rank of a placement given as the cells of its tiles in order: digit i is
/// the i-th cell's position among the cells still free. The one ranking used by builders
/// and lookups ([`super::pdb::rank_packed`] feeds it packed cells).
#[inline(always)]
pub fn rank(cells: impl Iterator<Item = u32>, n: usize) -> u32 {
    let mut used = 0u32;
    let mut r = 0u32;
    for (i, p) in cells.enumerate() {
        let d = p - (used & ((1u32 << p) - 1)).count_ones();
        r = r * (n - i) as u32 + d;
        used |= 1 << p;
    }
    r
}

/// The cells of the placement of rank `r` (inverse of [`rank_cells`]) for `k` tiles.
#[inline(always)]
pub fn unrank_cells(mut r: u32, k: usize, n: usize) -> [u8; MAX_CELLS] {
    let mut digits = [0u8; MAX_CELLS];
    for i in (0..k).rev() {
        let radix = (n - i) as u32;
        digits[i] = (r % radix) as u8;
        r /= radix;
    }
    let mut cells = [0u8; MAX_CELLS];
    let mut free = full_mask(n);
    for i in 0..k {
        // The digit-th free cell: drop the lowest free cells, take the next.
        let mut f = free;
        for _ in 0..digits[i] {
            f &= f - 1;
        }
        let c = f.trailing_zeros();
        cells[i] = c as u8;
        free &= !(1 << c);
    }
    cells
}

/// The bit mask of all `n` cells.
pub(crate) fn full_mask(n: usize) -> u32 {
    if n >= 32 { u32::MAX } else { (1u32 << n) - 1 }
}
