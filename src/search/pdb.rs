//! Additive disjoint pattern databases (Korf & Felner 2002) for boards of up to 16 cells:
//! build by 0-1 breadth-first search over abstract states, cache on disk in a versioned,
//! checksummed file, and look up incrementally with the maximum over the diagonal reflection.
//!
//! Abstract state: the cells of the pattern's `k` tiles plus the blank's cell. Moving a
//! pattern tile costs 1; moving any other tile (the blank wanders) costs 0, so the values of
//! disjoint patterns add up to an admissible estimate. The table keeps, for each placement of
//! the pattern tiles, the minimum over blank cells. Tables are indexed directly by the tile
//! cells packed in `bits` bits each, so a move changes an index by one shifted difference.
//! Goal: blank-first (tile `t` in cell `t`).

use super::ida::{Heuristic, neighbours};
use super::pdb_regions;
use super::rank::{self, MAX_CELLS, perm_count};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Most groups a partition may have.
pub const MAX_GROUPS: usize = 8;
/// Largest abstract search space a build may allocate, as a power of two (2^28 bytes).
pub const MAX_BUILD_BITS: u32 = 28;
/// Groups of at least this many tiles, and every group on a board of more than 16 cells, are
/// stored densely by permutation rank (a 7-tile table is 57.7 M bytes instead of 268 M) and
/// built by the blank-region search of [`super::pdb_regions`].
pub const RANKED_FROM: usize = 7;
/// Most memory a ranked build may allocate, in bytes ([`super::pdb_regions::build_bytes`]); the
/// 8-tile group of the 15-puzzle's 7-8 partition needs 3.6 GB.
pub const MAX_RANKED_BYTES: u64 = 1 << 33;
const MAGIC: &[u8; 8] = b"TILEKPDB";
/// Version of the cache file layout and of the construction; bump to invalidate old files.
pub const FILE_VERSION: u32 = 2;

/// Problems with a partition (cache trouble is not an error: the tables are rebuilt).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PdbError {
    /// The partition does not fit the board or the limits.
    #[error("invalid pattern partition: {0}")]
    Partition(String),
    /// The time limit passed before the database was built (nothing was saved).
    #[error(
        "the time limit passed while the {0} pattern database was being built for the first time (nothing was saved; a run with time for it builds and caches it)"
    )]
    TimeLimit(String),
}

/// A board and disjoint groups of tiles (blank excluded).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Partition {
    /// Board rows.
    pub rows: usize,
    /// Board columns.
    pub cols: usize,
    /// Disjoint tile groups; tiles outside every group contribute nothing.
    pub groups: Vec<Vec<u8>>,
}

impl Partition {
    /// The 6-6-3 partition used for the 15-puzzle.
    pub fn fifteen_663() -> Self {
        Partition {
            rows: 4,
            cols: 4,
            groups: vec![
                vec![1, 2, 3, 5, 6, 7],
                vec![4, 8, 9, 12, 13, 14],
                vec![10, 11, 15],
            ],
        }
    }

    /// The 7-7-1 partition for the 15-puzzle: the two top rows, the two bottom rows (less
    /// tile 15), and tile 15 (its Manhattan distance). About 115 MB of tables.
    pub fn fifteen_771() -> Self {
        Partition {
            rows: 4,
            cols: 4,
            groups: vec![(1..8).collect(), (8..15).collect(), vec![15]],
        }
    }

    /// The 7-8 partition of Korf and Felner for the 15-puzzle: the two top rows and the two
    /// bottom rows. About 577 MB of tables.
    pub fn fifteen_78() -> Self {
        Partition {
            rows: 4,
            cols: 4,
            groups: vec![(1..8).collect(), (8..16).collect()],
        }
    }

    /// Korf and Felner's 7-8 turned by columns: the two outer columns (7 tiles) and the two
    /// middle ones (8 tiles). As strong as the rows on its own; its lookups catch conflicts
    /// across the rows' split, so the maximum with the 7-8 rows ([`super::max::Max`])
    /// prunes more than either. About 577 MB of tables.
    pub fn fifteen_78_columns() -> Self {
        Partition {
            rows: 4,
            cols: 4,
            groups: vec![
                vec![3, 4, 7, 8, 11, 12, 15],
                vec![1, 2, 5, 6, 9, 10, 13, 14],
            ],
        }
    }

    /// The 6-6-6-6 partition of Korf and Felner (2002, Figure 5) for the 24-puzzle: the four
    /// corner blocks of six tiles. About 510 MB of tables.
    pub fn twentyfour_6666() -> Self {
        Partition {
            rows: 5,
            cols: 5,
            groups: vec![
                vec![1, 5, 6, 10, 11, 12],
                vec![2, 3, 4, 7, 8, 9],
                vec![15, 16, 17, 20, 21, 22],
                vec![13, 14, 18, 19, 23, 24],
            ],
        }
    }

    /// The named partitions as (rows, cols, name), strongest first for each board.
    pub const NAMED: [(usize, usize, &'static str); 5] = [
        (4, 4, "7-8"),
        (4, 4, "7-8-cols"),
        (4, 4, "7-7-1"),
        (4, 4, "6-6-3"),
        (5, 5, "6-6-6-6"),
    ];

    /// The names of the partitions for a `rows × cols` board, strongest first.
    pub fn names_for(rows: usize, cols: usize) -> Vec<&'static str> {
        Self::NAMED
            .iter()
            .filter(|&&(r, c, _)| (r, c) == (rows, cols))
            .map(|&(_, _, name)| name)
            .collect()
    }

    /// A named partition for a `rows × cols` board: `7-8`, `7-8-cols`, `7-7-1` or `6-6-3` (4×4),
    /// `6-6-6-6` (5×5).
    pub fn named(rows: usize, cols: usize, name: &str) -> Result<Self, PdbError> {
        let p = match name {
            "7-8" => Some(Self::fifteen_78()),
            "7-8-cols" => Some(Self::fifteen_78_columns()),
            "7-7-1" => Some(Self::fifteen_771()),
            "6-6-3" => Some(Self::fifteen_663()),
            "6-6-6-6" => Some(Self::twentyfour_6666()),
            _ => None,
        };
        if let Some(p) = p.filter(|p| (p.rows, p.cols) == (rows, cols)) {
            return Ok(p);
        }
        let names = Self::names_for(rows, cols);
        Err(PdbError::Partition(if names.is_empty() {
            format!("no pattern partition is known for a {rows}×{cols} board, only for 4×4 and 5×5")
        } else {
            format!(
                "the partition {name:?} is not known for a {rows}×{cols} board: use {}",
                names.join(", ")
            )
        }))
    }

    /// The default partition of a `rows × cols` board. `$TILEKIT_PDB` names one (it applies
    /// to the board it is made for); otherwise the strongest whose file is already in
    /// `cache_dir` is used, else 6-6-3 on the 15-puzzle (seconds to build) and none
    /// (Manhattan + linear conflict) elsewhere: the 7-7-1 build takes about a minute, the 7-8 and 6-6-6-6 ones several,
    /// and gigabytes of memory.
    pub fn default_for(
        rows: usize,
        cols: usize,
        cache_dir: &Path,
    ) -> Result<Option<Self>, PdbError> {
        let names = Self::names_for(rows, cols);
        if names.is_empty() {
            return Ok(None);
        }
        if let Some(name) = std::env::var("TILEKIT_PDB").ok().filter(|v| !v.is_empty()) {
            if !Self::NAMED.iter().any(|&(_, _, n)| n == name) {
                return Err(PdbError::Partition(format!(
                    "TILEKIT_PDB={name} is not known: use 7-8, 7-8-cols, 7-7-1, 6-6-3 (4×4) or 6-6-6-6 (5×5)"
                )));
            }
            // A partition of another board leaves this board with its default.
            if let Ok(p) = Self::named(rows, cols, &name) {
                return Ok(Some(p));
            }
        }
        let cached = names
            .iter()
            .map(|name| Self::named(rows, cols, name).expect("a listed partition"))
            .find(|p| cache_path(cache_dir, p).is_file());
        Ok(cached.or_else(|| ((rows, cols) == (4, 4)).then(Self::fifteen_663)))
    }

    /// Bits per cell in the table index.
    pub fn bits(&self) -> u32 {
        cell_bits(self.rows * self.cols)
    }

    /// A short name such as `4x4-1.2.3.5.6.7_4.8.9.12.13.14_10.11.15`.
    pub fn name(&self) -> String {
        let groups: Vec<String> = self
            .groups
            .iter()
            .map(|g| {
                g.iter()
                    .map(|t| t.to_string())
                    .collect::<Vec<_>>()
                    .join(".")
            })
            .collect();
        format!("{}x{}-{}", self.rows, self.cols, groups.join("_"))
    }

    /// Its name among [`NAMED`](Self::NAMED) (`7-8-cols`), else its [`shape`](Self::shape).
    pub fn label(&self) -> String {
        Self::NAMED
            .iter()
            .find(|&&(r, c, n)| Self::named(r, c, n).is_ok_and(|p| &p == self))
            .map_or_else(|| self.shape(), |&(_, _, n)| n.to_string())
    }

    /// The sizes of the groups, e.g. `6-6-3`.
    pub fn shape(&self) -> String {
        self.groups
            .iter()
            .map(|g| g.len().to_string())
            .collect::<Vec<_>>()
            .join("-")
    }

    fn validate(&self) -> Result<(), PdbError> {
        let n = self.rows * self.cols;
        let bad = |m: String| Err(PdbError::Partition(m));
        if !(4..=MAX_CELLS).contains(&n) || self.rows < 2 || self.cols < 2 {
            return bad(format!(
                "pattern databases need a board of 4 to {} cells, not {}×{}",
                MAX_CELLS, self.rows, self.cols
            ));
        }
        if self.groups.is_empty() || self.groups.len() > MAX_GROUPS {
            return bad(format!("1 to {MAX_GROUPS} groups are needed"));
        }
        let mut seen = vec![false; n];
        for g in &self.groups {
            if g.is_empty() {
                return bad("a group is empty".into());
            }
            let k = g.len();
            // Lookups keep a group's cells packed in a u32.
            let too_large = self.bits() * k as u32 > 32
                || if is_ranked(n, k) {
                    pdb_regions::build_bytes(n, k) > MAX_RANKED_BYTES
                } else {
                    self.bits() * (k as u32 + 1) > MAX_BUILD_BITS
                };
            if too_large {
                return bad(format!(
                    "a group of {k} tiles is too large to build on a {n}-cell board"
                ));
            }
            for &t in g {
                if t == 0 || t as usize >= n || seen[t as usize] {
                    return bad(format!("tile {t} is the blank, off the board or repeated"));
                }
                seen[t as usize] = true;
            }
        }
        Ok(())
    }
}

/// Whether a group of `k` tiles on `n` cells is stored by permutation rank (else by packed
/// cells).
pub fn is_ranked(n: usize, k: usize) -> bool {
    k >= RANKED_FROM || n > 16
}

/// Bits that hold a cell number of an `n`-cell board.
fn cell_bits(n: usize) -> u32 {
    usize::BITS - (n - 1).leading_zeros()
}

/// Table length of a group of `k` tiles.
fn table_len(n: usize, bits: u32, k: usize) -> u64 {
    if is_ranked(n, k) {
        perm_count(n, k)
    } else {
        1u64 << (bits * k as u32)
    }
}

/// Lexicographic rank of the placement `packed` (cells of `k` tiles, `bits` bits each) among
/// the n!/(n−k)! placements: digit i is the cell's position among the cells still free.
#[inline(always)]
pub fn rank_packed(packed: u32, bits: u32, k: usize, n: usize) -> u32 {
    let mask = (1u32 << bits) - 1;
    rank::rank((0..k).map(|i| (packed >> (bits * i as u32)) & mask), n)
}

/// Build one group's table: `table[index(cells of the tiles)]` = fewest moves of pattern
/// tiles that bring them home, over every blank cell. `progress` gets one line per BFS level.
pub fn build_group(
    rows: usize,
    cols: usize,
    tiles: &[u8],
    progress: &(dyn Fn(&str) + Sync),
) -> Vec<u8> {
    build_group_until(rows, cols, tiles, progress, None).expect("no deadline, no stop")
}

/// [`build_group`], given up (`None`) once `deadline` has passed.
pub fn build_group_until(
    rows: usize,
    cols: usize,
    tiles: &[u8],
    progress: &(dyn Fn(&str) + Sync),
    deadline: Option<Instant>,
) -> Option<Vec<u8>> {
    let n = rows * cols;
    let b = cell_bits(n);
    let k = tiles.len() as u32;
    let cell_mask = (1u32 << b) - 1;
    let pbits = b * k;
    let pmask = (1u32 << pbits) - 1;
    let nbrs = neighbours(rows, cols);
    let mut dist = vec![u8::MAX; 1usize << (pbits + b)];
    let start: u32 = tiles
        .iter()
        .enumerate()
        .fold(0, |acc, (i, &t)| acc | ((t as u32) << (b * i as u32)));
    // The blank starts home, in cell 0 (the top bits of `start`).
    let done = zero_one_bfs(&mut dist, start, tiles, progress, deadline, |s| {
        let p = s & pmask;
        let blank = (s >> pbits) as usize;
        let mut occ = [u8::MAX; MAX_CELLS];
        for j in 0..k {
            occ[((p >> (b * j)) & cell_mask) as usize] = j as u8;
        }
        let mut out = [(0u32, 0u8); 4];
        for (o, &(c, _)) in out.iter_mut().zip(&nbrs[blank]) {
            *o = match occ[c] {
                u8::MAX => (p | ((c as u32) << pbits), 0),
                j => {
                    let sh = b * j as u32;
                    let np = p - ((c as u32) << sh) + ((blank as u32) << sh);
                    (np | ((c as u32) << pbits), 1)
                }
            };
        }
        (out, nbrs[blank].len())
    });
    if !done {
        return None;
    }
    let size = 1usize << pbits;
    let mut table = vec![u8::MAX; size];
    for (blank, chunk) in dist.chunks_exact(size).enumerate() {
        if blank >= n {
            break;
        }
        for (t, &v) in table.iter_mut().zip(chunk) {
            if v < *t {
                *t = v;
            }
        }
    }
    Some(table)
}

/// 0-1 breadth-first search over abstract states from `start`, filling `dist` (all
/// `u8::MAX` on entry). `expand(s)` gives the successors of `s` with their costs (0 or 1):
/// cost-0 successors join the current level, cost-1 ones the next. `progress` gets one line
/// per level, naming the pattern `tiles`.
/// The 0-1 BFS over abstract states; false when `deadline` passed first (checked every
/// 2^16 settled states).
fn zero_one_bfs(
    dist: &mut [u8],
    start: u32,
    tiles: &[u8],
    progress: &(dyn Fn(&str) + Sync),
    deadline: Option<Instant>,
    expand: impl Fn(u32) -> ([(u32, u8); 4], usize),
) -> bool {
    dist[start as usize] = 0;
    let mut cur: Vec<u32> = vec![start];
    let mut next: Vec<u32> = Vec::new();
    let mut d: u8 = 0;
    let mut settled = 0u64;
    while !cur.is_empty() {
        let mut i = 0;
        while i < cur.len() {
            let s = cur[i];
            i += 1;
            if dist[s as usize] != d {
                continue; // reached again later at a lower cost
            }
            settled += 1;
            if settled.is_multiple_of(1 << 16) && deadline.is_some_and(|d| Instant::now() >= d) {
                return false;
            }
            let (succ, count) = expand(s);
            for &(ns, cost) in &succ[..count] {
                let nd = d + cost;
                if nd < dist[ns as usize] {
                    dist[ns as usize] = nd;
                    if cost == 0 {
                        cur.push(ns);
                    } else {
                        next.push(ns);
                    }
                }
            }
        }
        progress(&format!(
            "pattern {tiles:?}: depth {d} done, {settled} abstract states settled"
        ));
        cur.clear();
        std::mem::swap(&mut cur, &mut next);
        d += 1;
    }
    true
}

/// 64-bit checksum of the cache file: word-wise multiply–xorshift. Every step is a bijection
/// of the running value, so any change confined to one 8-byte word is always detected.
pub fn checksum(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0x243F_6A88_85A3_08D3 ^ bytes.len() as u64;
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        let w = u64::from_le_bytes(c.try_into().expect("8 bytes"));
        h = (h ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^= h >> 29;
    }
    let mut last = [0u8; 8];
    last[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
    h = (h ^ u64::from_le_bytes(last)).wrapping_mul(0xD6E8_FEB8_6659_FD93);
    h ^ (h >> 32)
}

fn header(p: &Partition, lens: &[u64]) -> Vec<u8> {
    let mut h = Vec::new();
    h.extend_from_slice(MAGIC);
    h.extend_from_slice(&FILE_VERSION.to_le_bytes());
    h.extend_from_slice(&[
        p.rows as u8,
        p.cols as u8,
        p.bits() as u8,
        p.groups.len() as u8,
    ]);
    for g in &p.groups {
        h.push(g.len() as u8);
        h.extend_from_slice(g);
    }
    for l in lens {
        h.extend_from_slice(&l.to_le_bytes());
    }
    h
}

/// The file bytes for `tables` built for `p`.
pub fn encode(p: &Partition, tables: &[Vec<u8>]) -> Vec<u8> {
    let lens: Vec<u64> = tables.iter().map(|t| t.len() as u64).collect();
    encode_raw(header(p, &lens), tables)
}

/// `head`, the tables, and the checksum of both.
fn encode_raw(mut out: Vec<u8>, tables: &[Vec<u8>]) -> Vec<u8> {
    for t in tables {
        out.extend_from_slice(t);
    }
    let sum = checksum(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// Parse and check a cache file for `p`; the reason it is unusable otherwise.
pub fn decode(p: &Partition, bytes: &[u8]) -> Result<Vec<Vec<u8>>, String> {
    let lens: Vec<u64> = p
        .groups
        .iter()
        .map(|g| table_len(p.rows * p.cols, p.bits(), g.len()))
        .collect();
    decode_raw(&header(p, &lens), &lens, bytes)
}

/// The tables of a file written by [`encode_raw`] with header `head` and tables of `lens`
/// bytes; the reason it is unusable otherwise.
fn decode_raw(head: &[u8], lens: &[u64], bytes: &[u8]) -> Result<Vec<Vec<u8>>, String> {
    if bytes.len() < 16 || &bytes[..8] != MAGIC {
        return Err("not a tilekit pattern database".into());
    }
    let (body, tail) = bytes.split_at(bytes.len() - 8);
    let stored = u64::from_le_bytes(tail.try_into().expect("8 bytes"));
    if checksum(body) != stored {
        return Err("checksum mismatch (corrupt file)".into());
    }
    if body.len() < head.len() || body[..head.len()] != head[..] {
        return Err("built for another version, board or partition".into());
    }
    let payload = &body[head.len()..];
    if payload.len() as u64 != lens.iter().sum::<u64>() {
        return Err("wrong length".into());
    }
    let mut tables = Vec::new();
    let mut at = 0;
    for &l in lens {
        tables.push(huge_copy(&payload[at..at + l as usize]));
        at += l as usize;
    }
    Ok(tables)
}

/// `bytes` copied into memory the kernel is asked to back with huge pages (where it can):
/// table lookups land at random, and with 4 kB pages nearly each one misses the TLB too.
/// Built and loaded tables both go through here.
fn huge_copy(bytes: &[u8]) -> Vec<u8> {
    let mut v: Vec<u8> = Vec::with_capacity(bytes.len());
    #[cfg(target_os = "linux")]
    if bytes.len() >= 4 << 20 {
        const HUGE: usize = 2 << 20;
        let start = v.as_mut_ptr() as usize;
        let first = start.next_multiple_of(HUGE);
        let end = (start + bytes.len()) / HUGE * HUGE;
        if end > first {
            // SAFETY: the range lies inside `v`'s allocation; the advice changes no contents,
            // and a refusal only leaves the usual pages.
            unsafe {
                libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
            }
        }
    }
    v.extend_from_slice(bytes);
    v
}

/// Write `bytes` to `path` in `dir` beside, then rename (a reader never sees half a file);
/// whether it worked (a failure is reported through `progress`, not an error: the tables
/// are in memory).
fn save(dir: &Path, path: &Path, bytes: &[u8], progress: &(dyn Fn(&str) + Sync)) -> bool {
    std::fs::create_dir_all(dir)
        .and_then(|_| {
            let tmp = path.with_extension(format!("tmp{}", std::process::id()));
            // A signal mid-write removes the partial file too.
            let _record = crate::solve::cleanup::track_path(&tmp);
            std::fs::write(&tmp, bytes)?;
            std::fs::rename(&tmp, path)
        })
        .map_err(|e| progress(&format!("cannot save {}: {e}", path.display())))
        .is_ok()
}

/// Where the databases live: `$TILEKIT_CACHE`, else `$XDG_CACHE_HOME/tilekit`, else
/// `~/.cache/tilekit`, else the system temp dir.
pub fn default_cache_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("TILEKIT_CACHE").filter(|d| !d.is_empty()) {
        return PathBuf::from(d);
    }
    if let Some(d) = std::env::var_os("XDG_CACHE_HOME").filter(|d| !d.is_empty()) {
        return PathBuf::from(d).join("tilekit");
    }
    if let Some(h) = std::env::var_os("HOME").filter(|d| !d.is_empty()) {
        return PathBuf::from(h).join(".cache").join("tilekit");
    }
    std::env::temp_dir().join("tilekit-cache")
}

/// The cache file of `p` under `dir`.
pub fn cache_path(dir: &Path, p: &Partition) -> PathBuf {
    dir.join(format!("pdb-v{FILE_VERSION}-{}.bin", p.name()))
}

/// The cache file of the extra tables of `p`'s dual lookups ([`DualPlan`]) under `dir`.
pub fn dual_cache_path(dir: &Path, p: &Partition) -> PathBuf {
    dir.join(format!("pdb-v{FILE_VERSION}-{}-dual.bin", p.name()))
}

/// How the tables were obtained.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DbSource {
    /// Read from the cache file.
    Loaded,
    /// Built (no usable cache file); `String` says why, when a file was there.
    Built(Option<String>),
}

impl DbSource {
    /// `loaded` or `built`, as reports say it.
    pub fn name(&self) -> &'static str {
        match self {
            DbSource::Loaded => "loaded",
            DbSource::Built(_) => "built",
        }
    }
}

/// What loading or building cost.
#[derive(Debug, Clone, serde::Serialize)]
pub struct DbInfo {
    /// Loaded or built.
    pub source: DbSource,
    /// Wall-clock seconds for loading or building (and saving).
    pub seconds: f64,
    /// The cache file (None when it could not be written).
    pub path: Option<PathBuf>,
    /// Size of the tables in bytes.
    pub bytes: u64,
}

/// An additive pattern database over a partition, optionally with the diagonal reflection.
#[derive(Debug, Clone)]
pub struct AdditivePdb {
    partition: Partition,
    bits: u32,
    tables: Vec<Vec<u8>>,
    /// Group of each tile (`u8::MAX`: none) and the shift of its cell in the group's index.
    group_of: Vec<u8>,
    shift: Vec<u32>,
    /// Transposition of cells (= of tiles, blank-first goal) on square boards.
    reflect: Option<Vec<u8>>,
    /// Per group: `Some(k)` when the table is indexed by rank, `None` when by packed cells.
    ranked: Vec<Option<usize>>,
    cells: usize,
    /// The dual lookups, when switched on ([`with_dual`](Self::with_dual)).
    dual: Option<Dual>,
}

/// What the dual lookups need besides the tables (see [`AdditivePdb::with_dual`]).
#[derive(Debug, Clone)]
struct Dual {
    /// `picks[g * cells + b]`: the table that bounds group `g` of a dual board whose blank
    /// object is `b`.
    picks: Vec<Pick>,
    /// The tables besides the partition's own, ranked ([`DualPlan::extra`] says for what).
    extra: Vec<Vec<u8>>,
    /// Each cell's Manhattan distance from cell 0 (object 0's home).
    md0: Vec<u8>,
}

/// Which table bounds one group of a dual board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pick {
    /// The group's own table: the group does not hold the dual blank, and the dual goal's
    /// blank cell is in the region the table's goal puts the blank in.
    Own,
    /// Extra table `table`, looked up at the group's cells less slot `skip` (the dual blank,
    /// when the group holds it; [`NO_SKIP`] otherwise).
    Extra { table: u16, skip: u8 },
    /// The group is the dual blank alone: nothing of it to count.
    Nothing,
}

/// [`Pick::Extra`]'s `skip` when the group keeps all its objects.
const NO_SKIP: u8 = u8::MAX;

/// The tables the dual lookups of a partition need (a pure function of the partition, so
/// the cache file names the partition only).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DualPlan {
    picks: Vec<Pick>,
    /// Each extra table: its tiles (home cell = number) and the goal region of the blank,
    /// a cell mask. For a group holding the dual blank `b`, the group less `b` with the
    /// blank in `b`'s region; for a group whose home cells wall `b` off from cell 0, the
    /// group with the blank in `b`'s region.
    pub extra: Vec<(Vec<u8>, u32)>,
}

impl DualPlan {
    /// Work out, for every group and every dual blank, which table bounds it.
    pub fn of(p: &Partition) -> Self {
        let n = p.rows * p.cols;
        let mut picks = Vec::with_capacity(p.groups.len() * n);
        let mut extra: Vec<(Vec<u8>, u32)> = Vec::new();
        for group in &p.groups {
            for b in 0..n as u8 {
                let tiles: Vec<u8> = group.iter().copied().filter(|&t| t != b).collect();
                let skip = group
                    .iter()
                    .position(|&t| t == b)
                    .map_or(NO_SKIP, |i| i as u8);
                if tiles.is_empty() {
                    picks.push(Pick::Nothing);
                    continue;
                }
                let home = tiles.iter().fold(0u32, |m, &t| m | 1 << t);
                let region = pdb_regions::region_of(p.rows, p.cols, b, rank::full_mask(n) & !home);
                if skip == NO_SKIP && region & 1 == 1 {
                    picks.push(Pick::Own);
                    continue;
                }
                let key = (tiles, region);
                let table = match extra.iter().position(|e| *e == key) {
                    Some(i) => i,
                    None => {
                        extra.push(key);
                        extra.len() - 1
                    }
                };
                picks.push(Pick::Extra {
                    table: table as u16,
                    skip,
                });
            }
        }
        DualPlan { picks, extra }
    }

    /// The extra tables' lengths on an `n`-cell board.
    fn lens(&self, n: usize) -> Vec<u64> {
        self.extra
            .iter()
            .map(|(t, _)| perm_count(n, t.len()))
            .collect()
    }

    /// Bytes of the extra tables.
    pub fn bytes(&self, n: usize) -> u64 {
        self.lens(n).iter().sum()
    }

    /// Build the extra tables, each on every core.
    fn build(&self, p: &Partition, progress: &(dyn Fn(&str) + Sync)) -> Vec<Vec<u8>> {
        let threads = std::thread::available_parallelism().map_or(1, |t| t.get());
        self.extra
            .iter()
            .map(|(tiles, region)| {
                let goal = region.trailing_zeros() as u8;
                huge_copy(&pdb_regions::build_towards(
                    p.rows, p.cols, tiles, goal, threads, progress,
                ))
            })
            .collect()
    }

    /// The cache file's header: the partition's, then every extra table's tiles and region.
    fn header(&self, p: &Partition) -> Vec<u8> {
        let mut h = header(p, &self.lens(p.rows * p.cols));
        h.extend_from_slice(b"DUAL");
        for (tiles, region) in &self.extra {
            h.push(tiles.len() as u8);
            h.extend_from_slice(tiles);
            h.extend_from_slice(&region.to_le_bytes());
        }
        h
    }
}

/// Per-node state of [`AdditivePdb`]: the board and its diagonal reflection, and (with the
/// dual lookups) the dual board and its reflection.
#[derive(Debug, Clone, Copy)]
pub struct PdbAcc {
    fwd: Lookups,
    refl: Lookups,
    dual: DualSide,
    dual_refl: DualSide,
    /// The blank's cell: the dual board's blank object (kept only with the dual lookups).
    blank: u8,
    /// Table reads requested by [`Heuristic::update_deferred`] and not yet done: (group,
    /// position) for the board and for its reflection; group `u8::MAX` when none.
    pending: [(u8, u32); 2],
}

/// [`PdbAcc::pending`] with nothing pending.
const NO_READ: (u8, u32) = (u8::MAX, 0);

/// The dual board's per-group indices and Manhattan sums. Table entries are looked up only
/// when asked for ([`Heuristic::refine`]), since most nodes are cut off without them.
///
/// The dual board puts object `x` in cell `tiles[x]`: it reads which tile sits in each home
/// cell. Its "blank" is the object whose number is the blank's cell.
#[derive(Debug, Clone, Copy)]
struct DualSide {
    idx: [u32; MAX_GROUPS],
    /// Object 0's Manhattan distance from cell 0 (a tile of the dual board, unless the blank
    /// is home).
    md0: u8,
}

impl DualSide {
    const EMPTY: DualSide = DualSide {
        idx: [0; MAX_GROUPS],
        md0: 0,
    };
}

/// Each group's table index and entry, and the entries' sum. Keeping the entries means a
/// move looks up only the moved tile's new index, not its old one too.
#[derive(Debug, Clone, Copy)]
struct Lookups {
    idx: [u32; MAX_GROUPS],
    val: [u8; MAX_GROUPS],
    sum: u32,
}

impl Lookups {
    const EMPTY: Lookups = Lookups {
        idx: [0; MAX_GROUPS],
        val: [0; MAX_GROUPS],
        sum: 0,
    };
}

impl AdditivePdb {
    /// Build every group of `p`: the small (packed) groups in parallel, one thread each, then
    /// the ranked groups one after the other, each on every core (their searches are the
    /// long ones, and one at a time bounds the memory).
    pub fn build(p: &Partition, progress: &(dyn Fn(&str) + Sync)) -> Result<Self, PdbError> {
        Self::build_until(p, progress, None)
    }

    /// [`build`](Self::build), given up with [`PdbError::TimeLimit`] once `deadline` has
    /// passed: every group's search looks at the clock as it goes.
    pub fn build_until(
        p: &Partition,
        progress: &(dyn Fn(&str) + Sync),
        deadline: Option<Instant>,
    ) -> Result<Self, PdbError> {
        p.validate()?;
        let n = p.rows * p.cols;
        let threads = std::thread::available_parallelism().map_or(1, |t| t.get());
        // Per group: None for a ranked group (built below), Some(None) for a packed group whose
        // build the deadline stopped.
        let mut tables: Vec<Option<Option<Vec<u8>>>> = std::thread::scope(|s| {
            let handles: Vec<_> = p
                .groups
                .iter()
                .map(|g| {
                    (!is_ranked(n, g.len())).then(|| {
                        s.spawn(move || build_group_until(p.rows, p.cols, g, progress, deadline))
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.map(|h| h.join().expect("a pattern build thread panicked")))
                .collect()
        });
        let stopped = || PdbError::TimeLimit(p.shape());
        for (t, g) in tables.iter_mut().zip(&p.groups) {
            match t {
                Some(None) => return Err(stopped()),
                Some(Some(_)) => {}
                None => {
                    let built =
                        pdb_regions::build_until(p.rows, p.cols, g, threads, progress, deadline);
                    *t = Some(Some(built.ok_or_else(stopped)?));
                }
            }
        }
        // Into huge pages, as loaded tables are: a run that builds searches as fast as one
        // that loads.
        let tables = tables
            .into_iter()
            .flatten()
            .flatten()
            .map(|t| huge_copy(&t))
            .collect();
        Ok(Self::from_tables(p, tables))
    }

    /// Wrap tables built for `p` (as [`build`](Self::build) or [`decode`] return them).
    /// Private: the lengths are asserted because lookups rely on them, and only this
    /// module's builders and the checked decoder produce tables.
    fn from_tables(p: &Partition, tables: Vec<Vec<u8>>) -> Self {
        let n = p.rows * p.cols;
        let bits = p.bits();
        assert_eq!(tables.len(), p.groups.len(), "one table per group");
        for (g, t) in p.groups.iter().zip(&tables) {
            assert_eq!(t.len() as u64, table_len(n, bits, g.len()), "table length");
        }
        let mut group_of = vec![u8::MAX; n];
        let mut shift = vec![0; n];
        for (gi, g) in p.groups.iter().enumerate() {
            for (i, &t) in g.iter().enumerate() {
                group_of[t as usize] = gi as u8;
                shift[t as usize] = bits * i as u32;
            }
        }
        let reflect = (p.rows == p.cols).then(|| {
            (0..n)
                .map(|c| ((c % p.cols) * p.cols + c / p.cols) as u8)
                .collect()
        });
        let ranked = p
            .groups
            .iter()
            .map(|g| is_ranked(n, g.len()).then_some(g.len()))
            .collect();
        AdditivePdb {
            partition: p.clone(),
            bits,
            tables,
            group_of,
            shift,
            reflect,
            ranked,
            cells: n,
            dual: None,
        }
    }

    /// Load `p`'s tables from `dir` (default: [`default_cache_dir`]), or build and save them
    /// when the file is missing, unreadable, of another version or corrupt.
    pub fn load_or_build(
        p: &Partition,
        dir: Option<&Path>,
        progress: &(dyn Fn(&str) + Sync),
    ) -> Result<(Self, DbInfo), PdbError> {
        Self::load_or_build_until(p, dir, progress, None)
    }

    /// [`load_or_build`](Self::load_or_build), whose build (not its load) is given up with
    /// [`PdbError::TimeLimit`] once `deadline` has passed.
    pub fn load_or_build_until(
        p: &Partition,
        dir: Option<&Path>,
        progress: &(dyn Fn(&str) + Sync),
        deadline: Option<Instant>,
    ) -> Result<(Self, DbInfo), PdbError> {
        p.validate()?;
        let started = Instant::now();
        let dir = dir.map_or_else(default_cache_dir, Path::to_path_buf);
        let path = cache_path(&dir, p);
        let why = match std::fs::read(&path) {
            Ok(bytes) => match decode(p, &bytes) {
                Ok(tables) => {
                    let db = Self::from_tables(p, tables);
                    let info = DbInfo {
                        source: DbSource::Loaded,
                        seconds: started.elapsed().as_secs_f64(),
                        path: Some(path),
                        bytes: db.bytes(),
                    };
                    return Ok((db, info));
                }
                Err(why) => Some(why),
            },
            Err(_) => None,
        };
        progress(&format!(
            "{}building the {} pattern database {}{} (once: later runs load it)",
            super::NOTICE,
            p.shape(),
            path.display(),
            why.as_ref().map(|w| format!(" ({w})")).unwrap_or_default()
        ));
        let db = Self::build_until(p, progress, deadline)?;
        let saved = save(&dir, &path, &encode(p, &db.tables), progress);
        let info = DbInfo {
            source: DbSource::Built(why),
            seconds: started.elapsed().as_secs_f64(),
            path: saved.then_some(path),
            bytes: db.bytes(),
        };
        Ok((db, info))
    }

    /// The partition.
    pub fn partition(&self) -> &Partition {
        &self.partition
    }
    /// The tables, one per group.
    pub fn tables(&self) -> &[Vec<u8>] {
        &self.tables
    }
    /// Total table bytes.
    pub fn bytes(&self) -> u64 {
        self.tables.iter().map(|t| t.len() as u64).sum()
    }
    /// Drop the reflected lookup (for measuring what it buys).
    pub fn without_reflection(mut self) -> Self {
        self.reflect = None;
        self
    }
    /// Whether the estimate is the maximum with the diagonal reflection (square boards,
    /// unless [`without_reflection`](Self::without_reflection) dropped it).
    pub fn reflects(&self) -> bool {
        self.reflect.is_some()
    }
    /// Add the dual lookups (Felner, Zahavi, Schaeffer & Holte, "Dual lookups in pattern
    /// databases", IJCAI 2005), and their reflection when the board is square, to the
    /// estimate's maximum. The extra tables they need ([`DualPlan`]) are built in memory;
    /// [`with_dual_cached`](Self::with_dual_cached) keeps them on disk.
    ///
    /// The dual board puts object `x` in cell `tiles[x]`. Let `b` be the blank's cell. Replay
    /// a plan of the board backwards from the goal: each move swaps the object `b` with a
    /// neighbour, so the dual board is a legal position whose blank is the object `b`
    /// (sitting in cell 0), and the reversed plan takes it, move for move, to the identity,
    /// whose blank is in cell `b`. So every plan of the board is a plan of the dual board of
    /// the same length, and a lower bound for the dual board towards that goal is one for
    /// the board:
    /// - a group that does not hold the object `b` needs the moves its table counts when the
    ///   table's goal puts the blank in cell `b`'s region: its own table when that region is
    ///   cell 0's, else an extra table built towards `b`'s region;
    /// - a group that holds the object `b` (the dual blank, whose moves are no tile's) is
    ///   bounded by an extra table of its other objects, towards the blank in cell `b`;
    /// - object 0 (a tile of the dual board, unless the blank is home) needs at least its
    ///   Manhattan distance.
    ///
    /// Each move of the plan moves exactly one object other than `b`, so these terms add
    /// up. With the blank home every group uses its own table and the dual board is the
    /// inverse permutation, as distant from the goal as the board. The plain inverse is not
    /// a bound otherwise: on the 8-puzzle with this module's 4-4 tables it overestimates
    /// 17,105 of the 181,440 boards (the unit tests count them, and check the rule here
    /// against every board).
    pub fn with_dual(self, progress: &(dyn Fn(&str) + Sync)) -> Self {
        let plan = DualPlan::of(&self.partition);
        let extra = plan.build(&self.partition, progress);
        self.set_dual(plan, extra)
    }

    /// [`with_dual`](Self::with_dual), the extra tables loaded from `dir` (default:
    /// [`default_cache_dir`]), or built and saved there when the file is missing or
    /// unusable. For the 15-puzzle's 7-8 partition they are 16 tables, 560 MB.
    pub fn with_dual_cached(
        self,
        dir: Option<&Path>,
        progress: &(dyn Fn(&str) + Sync),
    ) -> (Self, DbInfo) {
        let started = Instant::now();
        let p = self.partition.clone();
        let n = self.cells;
        let plan = DualPlan::of(&p);
        let bytes = plan.bytes(n);
        if plan.extra.is_empty() {
            let info = DbInfo {
                source: DbSource::Loaded,
                seconds: 0.0,
                path: None,
                bytes,
            };
            return (self.set_dual(plan, Vec::new()), info);
        }
        let dir = dir.map_or_else(default_cache_dir, Path::to_path_buf);
        let path = dual_cache_path(&dir, &p);
        let head = plan.header(&p);
        let lens = plan.lens(n);
        let why = match std::fs::read(&path) {
            Ok(file) => match decode_raw(&head, &lens, &file) {
                Ok(tables) => {
                    let info = DbInfo {
                        source: DbSource::Loaded,
                        seconds: started.elapsed().as_secs_f64(),
                        path: Some(path),
                        bytes,
                    };
                    return (self.set_dual(plan, tables), info);
                }
                Err(why) => Some(why),
            },
            Err(_) => None,
        };
        progress(&format!(
            "{}building the {} dual lookups' {} extra tables {}{} (once: later runs load them)",
            super::NOTICE,
            p.shape(),
            plan.extra.len(),
            path.display(),
            why.as_ref().map(|w| format!(" ({w})")).unwrap_or_default()
        ));
        let tables = plan.build(&p, progress);
        let saved = save(&dir, &path, &encode_raw(head, &tables), progress);
        let info = DbInfo {
            source: DbSource::Built(why),
            seconds: started.elapsed().as_secs_f64(),
            path: saved.then_some(path),
            bytes,
        };
        (self.set_dual(plan, tables), info)
    }

    fn set_dual(mut self, plan: DualPlan, extra: Vec<Vec<u8>>) -> Self {
        let n = self.cells;
        let cols = self.partition.cols;
        let lens: Vec<u64> = extra.iter().map(|t| t.len() as u64).collect();
        assert_eq!(
            lens,
            plan.lens(n),
            "one table per planned one, of its length"
        );
        let md0 = (0..n).map(|c| (c / cols + c % cols) as u8).collect();
        self.dual = Some(Dual {
            picks: plan.picks,
            extra,
            md0,
        });
        self
    }

    /// Whether the dual lookups are on ([`with_dual`](Self::with_dual)).
    pub fn duals(&self) -> bool {
        self.dual.is_some()
    }

    /// Cell and tile map of a lookup: the identity, or the reflection.
    #[inline(always)]
    fn map(m: Option<&[u8]>, x: u8) -> u8 {
        m.map_or(x, |m| m[x as usize])
    }

    /// The dual side of a whole board, cells and tiles mapped by `map` when given.
    fn dual_side(&self, d: &Dual, tiles: &[u8], map: Option<&[u8]>) -> DualSide {
        let mut side = DualSide::EMPTY;
        for (x, &c) in tiles.iter().enumerate() {
            // Object x sits in cell tiles[x].
            self.place_dual(
                d,
                &mut side,
                Self::map(map, x as u8),
                0,
                Self::map(map, c),
                true,
            );
        }
        side
    }

    /// Object `y` of a dual board moves from cell `from` to cell `to` (`fresh`: it was in no
    /// cell yet).
    #[inline(always)]
    fn place_dual(&self, d: &Dual, side: &mut DualSide, y: u8, from: u8, to: u8, fresh: bool) {
        if y == 0 {
            side.md0 = d.md0[to as usize];
            return;
        }
        let g = self.group_of[y as usize];
        if g == u8::MAX {
            return;
        }
        let (g, s) = (g as usize, self.shift[y as usize]);
        if fresh {
            side.idx[g] |= (to as u32) << s;
        } else {
            side.idx[g] = side.idx[g]
                .wrapping_sub((from as u32) << s)
                .wrapping_add((to as u32) << s);
        }
    }

    /// The dual bound of one side whose blank object is `b` (see [`with_dual`](Self::with_dual)).
    #[inline]
    fn dual_value(&self, d: &Dual, side: &DualSide, b: u8) -> u32 {
        let n = self.cells;
        let mut sum = side.md0 as u32;
        for g in 0..self.tables.len() {
            sum += match d.picks[g * n + b as usize] {
                Pick::Own => self.get(g, side.idx[g]),
                Pick::Extra { table, skip } => {
                    let k = self.partition.groups[g].len();
                    let (bits, idx) = (self.bits, side.idx[g]);
                    let mask = (1u32 << bits) - 1;
                    let cells = (0..k)
                        .filter(|&i| i != skip as usize)
                        .map(|i| (idx >> (bits * i as u32)) & mask);
                    d.extra[table as usize][rank::rank(cells, n) as usize]
                }
                Pick::Nothing => 0,
            } as u32;
        }
        sum
    }

    /// The dual sides of a move: objects `to` (the blank's old cell) and `from` (its new
    /// one) of the dual board swap cells 0 and `tile`; the reflected dual board maps all
    /// four.
    #[inline(always)]
    fn move_dual(&self, a: &mut PdbAcc, tile: u8, from: u8, to: u8) {
        let Some(d) = &self.dual else { return };
        self.place_dual(d, &mut a.dual, to, 0, tile, false);
        self.place_dual(d, &mut a.dual, from, tile, 0, false);
        if let Some(r) = &self.reflect {
            let m = |x: u8| r[x as usize];
            self.place_dual(d, &mut a.dual_refl, m(to), 0, m(tile), false);
            self.place_dual(d, &mut a.dual_refl, m(from), m(tile), 0, false);
        }
        a.blank = from;
    }

    /// The value of a whole board (blank-first goal), without the reflection.
    pub fn lookup(&self, tiles: &[u8]) -> u32 {
        self.lookups(tiles, None).sum
    }

    /// The lookups of a whole board, its cells and tiles first mapped by `map` when given.
    fn lookups(&self, tiles: &[u8], map: Option<&[u8]>) -> Lookups {
        let mut l = self.indices(tiles, map);
        for g in 0..self.tables.len() {
            l.val[g] = self.get(g, l.idx[g]);
            l.sum += l.val[g] as u32;
        }
        l
    }

    /// Each group's packed cells for `tiles` (through `map`), the entries left at 0.
    fn indices(&self, tiles: &[u8], map: Option<&[u8]>) -> Lookups {
        let mut l = Lookups::EMPTY;
        for (c, &t) in tiles.iter().enumerate() {
            if t == 0 {
                continue;
            }
            let (t, c) = map.map_or((t, c as u8), |m| (m[t as usize], m[c]));
            let g = self.group_of[t as usize];
            if g != u8::MAX {
                l.idx[g as usize] |= (c as u32) << self.shift[t as usize];
            }
        }
        l
    }

    /// The accumulator of `tiles` with these lookups for the board and its reflection (the
    /// dual sides are arithmetic on the board: their entries are read only when refined).
    fn accumulator(&self, tiles: &[u8], fwd: Lookups, refl: Lookups) -> PdbAcc {
        let r = self.reflect.as_deref();
        let (dual, dual_refl) = match &self.dual {
            Some(d) => (
                self.dual_side(d, tiles, None),
                match r {
                    Some(_) => self.dual_side(d, tiles, r),
                    None => DualSide::EMPTY,
                },
            ),
            None => (DualSide::EMPTY, DualSide::EMPTY),
        };
        PdbAcc {
            fwd,
            refl,
            dual,
            dual_refl,
            blank: tiles.iter().position(|&t| t == 0).unwrap_or(0) as u8,
            pending: [NO_READ; 2],
        }
    }

    /// [`Self::indices`] with the entries `bytes` (one per group, in order) and their sum.
    fn with_entries(&self, tiles: &[u8], map: Option<&[u8]>, bytes: &[u8]) -> Lookups {
        let mut l = self.indices(tiles, map);
        for (g, &v) in bytes.iter().enumerate().take(self.tables.len()) {
            l.val[g] = v;
            l.sum += v as u32;
        }
        l
    }

    /// The table entry of group `g` for the packed cells `idx`.
    #[inline]
    fn get(&self, g: usize, idx: u32) -> u8 {
        self.read(g, self.position(g, idx))
    }

    /// Where group `g`'s entry for the packed cells `idx` is in its table.
    #[inline(always)]
    fn position(&self, g: usize, idx: u32) -> u32 {
        match self.ranked[g] {
            Some(k) => rank_packed(idx, self.bits, k, self.cells),
            None => idx,
        }
    }

    /// Group `g`'s entry at `at` (a [`position`](Self::position)).
    #[inline(always)]
    fn read(&self, g: usize, at: u32) -> u8 {
        let t = &self.tables[g];
        debug_assert!((at as usize) < t.len());
        // SAFETY: `at` is in range by construction: a packed index holds k cells < 2^bits
        // (the table has 2^(bits·k) entries), a rank of k distinct cells is < n!/(n−k)!
        // (the ranked table's length). `from_tables` only accepts tables of these lengths.
        unsafe { *t.get_unchecked(at as usize) }
    }

    /// `tile` slid from cell `from` to cell `to`: update its group's index; the group and
    /// the index's table position, for a read now ([`finish`](Self::finish)) or later.
    #[inline(always)]
    fn move_index(&self, l: &mut Lookups, tile: u8, from: u8, to: u8) -> (u8, u32) {
        let g = self.group_of[tile as usize];
        if g == u8::MAX {
            return NO_READ;
        }
        let s = self.shift[tile as usize];
        let gi = g as usize;
        l.idx[gi] = l.idx[gi]
            .wrapping_sub((from as u32) << s)
            .wrapping_add((to as u32) << s);
        (g, self.position(gi, l.idx[gi]))
    }

    /// [`bump`](Self::bump) with the table read prefetched and left pending.
    #[inline]
    fn bump_deferred(&self, l: &mut Lookups, tile: u8, from: u8, to: u8) -> (u8, u32) {
        let read = self.move_index(l, tile, from, to);
        if read.0 != u8::MAX {
            super::prefetch(&self.tables[read.0 as usize], read.1 as usize);
        }
        read
    }

    /// Read an entry [`move_index`](Self::move_index) located into the group's value and the
    /// sum.
    #[inline]
    fn finish(&self, l: &mut Lookups, (g, at): (u8, u32)) {
        if g == u8::MAX {
            return;
        }
        let g = g as usize;
        let v = self.read(g, at);
        l.sum = l.sum + v as u32 - l.val[g] as u32;
        l.val[g] = v;
    }

    /// `tile` slid from cell `from` to cell `to`: update its group's index and entry.
    #[inline]
    fn bump(&self, l: &mut Lookups, tile: u8, from: u8, to: u8) {
        let read = self.move_index(l, tile, from, to);
        self.finish(l, read);
    }
}

impl Heuristic for AdditivePdb {
    type Acc = PdbAcc;

    fn init(&self, tiles: &[u8]) -> PdbAcc {
        // Without the reflection its side stays at 0 (never updated), so `value` is the
        // plain sum.
        let refl = self
            .reflect
            .as_deref()
            .map_or(Lookups::EMPTY, |r| self.lookups(tiles, Some(r)));
        self.accumulator(tiles, self.lookups(tiles, None), refl)
    }

    #[inline]
    fn update(&self, acc: &PdbAcc, _tiles: &[u8], tile: u8, from: usize, to: usize) -> PdbAcc {
        let mut a = *acc;
        self.bump(&mut a.fwd, tile, from as u8, to as u8);
        if let Some(r) = &self.reflect {
            self.bump(&mut a.refl, r[tile as usize], r[from], r[to]);
        }
        self.move_dual(&mut a, tile, from as u8, to as u8);
        a
    }

    #[inline]
    fn update_deferred(
        &self,
        acc: &PdbAcc,
        a: &mut PdbAcc,
        _tiles: &[u8],
        (tile, from, to): (u8, usize, usize),
    ) {
        *a = *acc;
        a.pending[0] = self.bump_deferred(&mut a.fwd, tile, from as u8, to as u8);
        if let Some(r) = &self.reflect {
            a.pending[1] = self.bump_deferred(&mut a.refl, r[tile as usize], r[from], r[to]);
        }
        self.move_dual(a, tile, from as u8, to as u8);
    }

    #[inline]
    fn partial_value(&self, acc: &PdbAcc) -> u32 {
        // The board's own sum with its pending entry read; the reflection's read waits.
        match acc.pending[0] {
            (u8::MAX, _) => acc.fwd.sum,
            (g, at) => {
                let g = g as usize;
                acc.fwd.sum + self.read(g, at) as u32 - acc.fwd.val[g] as u32
            }
        }
    }

    #[inline]
    fn complete(&self, acc: &mut PdbAcc) {
        self.finish(&mut acc.fwd, acc.pending[0]);
        self.finish(&mut acc.refl, acc.pending[1]);
        acc.pending = [NO_READ; 2];
    }

    #[inline]
    fn value(&self, acc: &PdbAcc) -> u32 {
        acc.fwd.sum.max(acc.refl.sum)
    }

    #[inline]
    fn refine(&self, acc: &PdbAcc) -> u32 {
        let h = self.value(acc);
        let Some(d) = &self.dual else { return h };
        let mut h = h.max(self.dual_value(d, &acc.dual, acc.blank));
        if let Some(r) = &self.reflect {
            h = h.max(self.dual_value(d, &acc.dual_refl, r[acc.blank as usize]));
        }
        h
    }

    fn refines(&self) -> bool {
        self.dual.is_some()
    }

    fn entries(&self, acc: &PdbAcc) -> Option<u64> {
        let groups = self.tables.len();
        let sides = if self.reflect.is_some() { 2 } else { 1 };
        if groups * sides > 8 || acc.pending != [NO_READ; 2] {
            return None;
        }
        let mut bytes = [0u8; 8];
        bytes[..groups].copy_from_slice(&acc.fwd.val[..groups]);
        if sides == 2 {
            bytes[groups..2 * groups].copy_from_slice(&acc.refl.val[..groups]);
        }
        Some(u64::from_le_bytes(bytes))
    }

    fn restore(&self, tiles: &[u8], entries: u64) -> PdbAcc {
        let groups = self.tables.len().min(8);
        let bytes = entries.to_le_bytes();
        let fwd = self.with_entries(tiles, None, &bytes[..groups]);
        let refl = self.reflect.as_deref().map_or(Lookups::EMPTY, |r| {
            self.with_entries(tiles, Some(r), &bytes[groups..])
        });
        self.accumulator(tiles, fwd, refl)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quiet(_: &str) {}

    #[test]
    fn a_build_past_its_deadline_stops_and_says_so() {
        let p = Partition::fifteen_663();
        let past = Some(Instant::now());
        let e = AdditivePdb::build_until(&p, &|_: &str| {}, past)
            .err()
            .unwrap();
        assert!(
            matches!(&e, PdbError::TimeLimit(shape) if shape == "6-6-3"),
            "{e}"
        );
        assert!(e.to_string().contains("nothing was saved"), "{e}");
        assert!(build_group_until(4, 4, &p.groups[0], &|_: &str| {}, past).is_none());
        assert!(
            pdb_regions::build_until(4, 4, &[1, 2, 3, 5, 6, 7, 8], 2, &|_: &str| {}, past)
                .is_none()
        );
        // Nothing was written into the cache either.
        let dir = tempfile::tempdir().unwrap();
        let r = AdditivePdb::load_or_build_until(&p, Some(dir.path()), &|_: &str| {}, past);
        assert!(matches!(r, Err(PdbError::TimeLimit(_))));
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        // A deadline far off changes nothing: the 8-puzzle's tables as without one.
        let small = Partition {
            rows: 3,
            cols: 3,
            groups: vec![vec![1, 2, 3, 4], vec![5, 6, 7, 8]],
        };
        let later = Some(Instant::now() + std::time::Duration::from_secs(3600));
        let a = AdditivePdb::build(&small, &|_: &str| {}).unwrap();
        let b = AdditivePdb::build_until(&small, &|_: &str| {}, later).unwrap();
        assert_eq!(a.tables, b.tables);
    }

    #[test]
    fn checksum_detects_every_single_byte_change() {
        let data: Vec<u8> = (0..100u32).map(|i| (i * 37 % 251) as u8).collect();
        let base = checksum(&data);
        for i in 0..data.len() {
            let mut d = data.clone();
            d[i] ^= 0x40;
            assert_ne!(checksum(&d), base, "byte {i}");
        }
    }

    #[test]
    fn encode_decode_round_trip_and_rejections() {
        let p = Partition {
            rows: 2,
            cols: 3,
            groups: vec![vec![1, 2], vec![3, 4, 5]],
        };
        let db = AdditivePdb::build(&p, &quiet).unwrap();
        let bytes = encode(&p, db.tables());
        assert_eq!(decode(&p, &bytes).unwrap(), db.tables());
        let mut bad = bytes.clone();
        let mid = bad.len() / 2;
        bad[mid] ^= 1;
        assert!(decode(&p, &bad).unwrap_err().contains("checksum"));
        let other = Partition {
            groups: vec![vec![1, 2, 3], vec![4, 5]],
            ..p.clone()
        };
        assert!(decode(&other, &bytes).unwrap_err().contains("partition"));
        assert!(decode(&p, &bytes[..10]).is_err());
    }

    /// Ranked (7 tiles, 2×4) and packed groups, with the reflection (3×3) and without, and
    /// more than 16 cells (5×5: every group ranked).
    fn small_partitions() -> [Partition; 3] {
        [
            Partition {
                rows: 2,
                cols: 4,
                groups: vec![(1..8).collect()],
            },
            Partition {
                rows: 3,
                cols: 3,
                groups: vec![vec![1, 2, 3, 4], vec![5, 6, 7, 8]],
            },
            Partition {
                rows: 5,
                cols: 5,
                groups: vec![vec![1, 2, 3], vec![12, 18, 24], vec![20, 21]],
            },
        ]
    }

    #[test]
    fn incremental_updates_match_recomputed_values() {
        for p in small_partitions() {
            // The dual sides are carried along too (their values only count in `refine`).
            let db = AdditivePdb::build(&p, &quiet).unwrap().with_dual(&quiet);
            let nb = neighbours(p.rows, p.cols);
            let mut tiles: Vec<u8> = (0..(p.rows * p.cols) as u8).collect();
            let mut acc = db.init(&tiles);
            let mut blank = 0;
            for step in 0..300usize {
                let (c, _) = nb[blank][step * 7 % nb[blank].len()];
                let t = tiles[c];
                tiles[blank] = t;
                tiles[c] = 0;
                acc = db.update(&acc, &tiles, t, c, blank);
                blank = c;
                let fresh = db.init(&tiles);
                assert_eq!(db.value(&acc), db.value(&fresh), "{p:?} step {step}");
                assert_eq!(db.refine(&acc), db.refine(&fresh), "{p:?} step {step}");
                assert!(db.refine(&acc) >= db.value(&acc));
                assert_eq!(acc.fwd.sum, db.lookup(&tiles), "{p:?} step {step}");
            }
        }
    }

    #[test]
    fn an_accumulator_restored_from_its_entries_goes_on_as_a_fresh_one() {
        for p in small_partitions() {
            let db = AdditivePdb::build(&p, &quiet).unwrap().with_dual(&quiet);
            let nb = neighbours(p.rows, p.cols);
            let mut tiles: Vec<u8> = (0..(p.rows * p.cols) as u8).collect();
            let mut blank = 0;
            for step in 0..200usize {
                let (c, _) = nb[blank][step * 5 % nb[blank].len()];
                let t = tiles[c];
                tiles[blank] = t;
                tiles[c] = 0;
                blank = c;
                let fresh = db.init(&tiles);
                let word = db.entries(&fresh).expect("a few groups fit in a word");
                let mut back = db.restore(&tiles, word);
                assert_eq!(db.value(&back), db.value(&fresh), "{p:?} step {step}");
                assert_eq!(db.refine(&back), db.refine(&fresh), "{p:?} step {step}");
                // And it goes on moving as the fresh one does.
                let mut ahead = tiles.clone();
                let mut fresh = fresh;
                let mut b = blank;
                for k in 0..6usize {
                    let (c, _) = nb[b][(step + k) % nb[b].len()];
                    let t = ahead[c];
                    ahead[b] = t;
                    ahead[c] = 0;
                    back = db.update(&back, &ahead, t, c, b);
                    fresh = db.update(&fresh, &ahead, t, c, b);
                    b = c;
                    assert_eq!(db.value(&back), db.value(&fresh), "{p:?} step {step}.{k}");
                }
            }
        }
        // Eight groups and their reflection: sixteen entries do not fit in a word.
        let singles = Partition {
            rows: 3,
            cols: 3,
            groups: (1..9).map(|t| vec![t]).collect(),
        };
        let db = AdditivePdb::build(&singles, &quiet).unwrap();
        let tiles: Vec<u8> = (0..9).collect();
        let fits = db.entries(&db.init(&tiles)).is_some();
        assert_eq!(fits, db.reflect.is_none());
    }

    /// The extra tables the dual lookups of the named partitions need (what
    /// `docs/results/native-search.md#full-dual-tables` quotes), worked out without building them.
    #[test]
    fn dual_plans_of_the_named_partitions() {
        let seven: Vec<u8> = (1..8).collect();
        let p = Partition::fifteen_78();
        let plan = DualPlan::of(&p);
        // Seven 6-tile tables (the top half less the dual blank), eight 7-tile ones (the
        // bottom half less it), and the top half towards the bottom region: its home cells
        // wall cell 0 off.
        assert_eq!(plan.extra.len(), 16);
        assert!(plan.extra.contains(&(seven, 0xFF00)));
        assert_eq!(plan.bytes(16), 559_278_720);
        let plan = DualPlan::of(&Partition::twentyfour_6666());
        assert_eq!(plan.extra.len(), 25);
        assert_eq!(plan.bytes(25), 280_526_400);
        let plan = DualPlan::of(&Partition::fifteen_663());
        assert_eq!(plan.extra.len(), 15);
        assert_eq!(plan.bytes(16), 6_290_640);
        // With the blank home every group reads its own table.
        for p in [p, Partition::twentyfour_6666()] {
            let n = p.rows * p.cols;
            let plan = DualPlan::of(&p);
            for g in 0..p.groups.len() {
                assert_eq!(plan.picks[g * n], Pick::Own);
            }
        }
    }

    #[test]
    fn invalid_partitions_are_rejected() {
        let mk = |groups| Partition {
            rows: 4,
            cols: 4,
            groups,
        };
        assert!(mk(vec![vec![0, 1]]).validate().is_err());
        assert!(mk(vec![vec![1, 2], vec![2, 3]]).validate().is_err());
        assert!(mk(vec![(1..10).collect()]).validate().is_err());
        assert!(mk(vec![(1..9).collect()]).validate().is_ok());
        assert!(mk(vec![(1..8).collect()]).validate().is_ok());
        assert!(mk(vec![vec![16]]).validate().is_err());
        assert!(Partition::fifteen_663().validate().is_ok());
    }
}
