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
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Most groups a partition may have.
pub const MAX_GROUPS: usize = 8;
/// Largest abstract search space a build may allocate, as a power of two (2^28 bytes).
pub const MAX_BUILD_BITS: u32 = 28;
const MAGIC: &[u8; 8] = b"TILEKPDB";
/// Version of the cache file layout and of the construction; bump to invalidate old files.
pub const FILE_VERSION: u32 = 1;

/// Problems with a partition (cache trouble is not an error: the tables are rebuilt).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PdbError {
    /// The partition does not fit the board or the limits.
    #[error("invalid pattern partition: {0}")]
    Partition(String),
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

    /// Bits per cell in the table index.
    pub fn bits(&self) -> u32 {
        let n = self.rows * self.cols;
        usize::BITS - (n - 1).leading_zeros()
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
        if !(2..=16).contains(&n) || self.rows < 2 || self.cols < 2 {
            return bad(format!(
                "pattern databases need a board of 4 to 16 cells, not {}×{}",
                self.rows, self.cols
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
            if self.bits() * (g.len() as u32 + 1) > MAX_BUILD_BITS {
                return bad(format!(
                    "a group of {} tiles is too large to build on a {}-cell board",
                    g.len(),
                    n
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

/// Build one group's table: `table[index(cells of the tiles)]` = fewest moves of pattern
/// tiles that bring them home, over every blank cell. `progress` gets one line per BFS level.
pub fn build_group(
    rows: usize,
    cols: usize,
    tiles: &[u8],
    progress: &(dyn Fn(&str) + Sync),
) -> Vec<u8> {
    let n = rows * cols;
    let b = Partition {
        rows,
        cols,
        groups: vec![],
    }
    .bits();
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
    dist[start as usize] = 0; // blank home in cell 0
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
            let p = s & pmask;
            let blank = (s >> pbits) as usize;
            let mut occ = [u8::MAX; 16];
            for j in 0..k {
                occ[((p >> (b * j)) & cell_mask) as usize] = j as u8;
            }
            for &(c, _) in &nbrs[blank] {
                let (ns, cost) = match occ[c] {
                    u8::MAX => (p | ((c as u32) << pbits), 0u8),
                    j => {
                        let sh = b * j as u32;
                        let np = p - ((c as u32) << sh) + ((blank as u32) << sh);
                        (np | ((c as u32) << pbits), 1u8)
                    }
                };
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
    table
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
    let mut out = header(p, &lens);
    for t in tables {
        out.extend_from_slice(t);
    }
    let sum = checksum(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// Parse and check a cache file for `p`; the reason it is unusable otherwise.
pub fn decode(p: &Partition, bytes: &[u8]) -> Result<Vec<Vec<u8>>, String> {
    if bytes.len() < 16 || &bytes[..8] != MAGIC {
        return Err("not a tilekit pattern database".into());
    }
    let (body, tail) = bytes.split_at(bytes.len() - 8);
    let stored = u64::from_le_bytes(tail.try_into().expect("8 bytes"));
    if checksum(body) != stored {
        return Err("checksum mismatch (corrupt file)".into());
    }
    let expected_lens: Vec<u64> = p
        .groups
        .iter()
        .map(|g| 1u64 << (p.bits() * g.len() as u32))
        .collect();
    let head = header(p, &expected_lens);
    if body.len() < head.len() || body[..head.len()] != head[..] {
        return Err("built for another version, board or partition".into());
    }
    let payload = &body[head.len()..];
    if payload.len() as u64 != expected_lens.iter().sum::<u64>() {
        return Err("wrong length".into());
    }
    let mut tables = Vec::new();
    let mut at = 0;
    for l in expected_lens {
        tables.push(payload[at..at + l as usize].to_vec());
        at += l as usize;
    }
    Ok(tables)
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

/// How the tables were obtained.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DbSource {
    /// Read from the cache file.
    Loaded,
    /// Built (no usable cache file); `String` says why, when a file was there.
    Built(Option<String>),
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
}

/// Per-node state of [`AdditivePdb`].
#[derive(Debug, Clone, Copy)]
pub struct PdbAcc {
    idx: [u32; MAX_GROUPS],
    ridx: [u32; MAX_GROUPS],
    sum: u32,
    rsum: u32,
}

impl AdditivePdb {
    /// Build every group of `p` (in parallel, one thread per group).
    pub fn build(p: &Partition, progress: &(dyn Fn(&str) + Sync)) -> Result<Self, PdbError> {
        p.validate()?;
        let tables: Vec<Vec<u8>> = std::thread::scope(|s| {
            let handles: Vec<_> = p
                .groups
                .iter()
                .map(|g| s.spawn(move || build_group(p.rows, p.cols, g, progress)))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a pattern build thread panicked"))
                .collect()
        });
        Ok(Self::from_tables(p, tables))
    }

    /// Wrap tables built for `p` (as [`build`](Self::build) or [`decode`] return them).
    pub fn from_tables(p: &Partition, tables: Vec<Vec<u8>>) -> Self {
        let n = p.rows * p.cols;
        let bits = p.bits();
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
        AdditivePdb {
            partition: p.clone(),
            bits,
            tables,
            group_of,
            shift,
            reflect,
        }
    }

    /// Load `p`'s tables from `dir` (default: [`default_cache_dir`]), or build and save them
    /// when the file is missing, unreadable, of another version or corrupt.
    pub fn load_or_build(
        p: &Partition,
        dir: Option<&Path>,
        progress: &(dyn Fn(&str) + Sync),
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
            "building the {} pattern database {}{}",
            p.shape(),
            path.display(),
            why.as_ref().map(|w| format!(" ({w})")).unwrap_or_default()
        ));
        let db = Self::build(p, progress)?;
        let saved = std::fs::create_dir_all(&dir)
            .and_then(|_| {
                // Write beside, then rename: a reader never sees half a file.
                let tmp = path.with_extension(format!("tmp{}", std::process::id()));
                std::fs::write(&tmp, encode(p, &db.tables))?;
                std::fs::rename(&tmp, &path)
            })
            .map_err(|e| progress(&format!("cannot save {}: {e}", path.display())))
            .is_ok();
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
    /// The value of a whole board (blank-first goal), without the reflection.
    pub fn lookup(&self, tiles: &[u8]) -> u32 {
        let mut idx = [0u32; MAX_GROUPS];
        for (c, &t) in tiles.iter().enumerate() {
            if t != 0 && self.group_of[t as usize] != u8::MAX {
                idx[self.group_of[t as usize] as usize] |= (c as u32) << self.shift[t as usize];
            }
        }
        (0..self.tables.len())
            .map(|g| self.tables[g][idx[g] as usize] as u32)
            .sum()
    }

    #[inline]
    fn bump(&self, idx: &mut [u32; MAX_GROUPS], sum: &mut u32, tile: u8, from: u8, to: u8) {
        let g = self.group_of[tile as usize];
        if g == u8::MAX {
            return;
        }
        let g = g as usize;
        let s = self.shift[tile as usize];
        let t = &self.tables[g];
        let old = t[idx[g] as usize] as u32;
        idx[g] = idx[g]
            .wrapping_sub((from as u32) << s)
            .wrapping_add((to as u32) << s);
        *sum = *sum + t[idx[g] as usize] as u32 - old;
    }
}

impl Heuristic for AdditivePdb {
    type Acc = PdbAcc;

    fn init(&self, tiles: &[u8]) -> PdbAcc {
        let _ = self.bits;
        let mut acc = PdbAcc {
            idx: [0; MAX_GROUPS],
            ridx: [0; MAX_GROUPS],
            sum: 0,
            rsum: 0,
        };
        for (c, &t) in tiles.iter().enumerate() {
            if t == 0 {
                continue;
            }
            if let Some(&g) = self.group_of.get(t as usize).filter(|g| **g != u8::MAX) {
                acc.idx[g as usize] |= (c as u32) << self.shift[t as usize];
            }
            if let Some(r) = &self.reflect {
                let (rt, rc) = (r[t as usize], r[c]);
                let g = self.group_of[rt as usize];
                if g != u8::MAX {
                    acc.ridx[g as usize] |= (rc as u32) << self.shift[rt as usize];
                }
            }
        }
        for g in 0..self.tables.len() {
            acc.sum += self.tables[g][acc.idx[g] as usize] as u32;
            if self.reflect.is_some() {
                acc.rsum += self.tables[g][acc.ridx[g] as usize] as u32;
            }
        }
        acc
    }

    #[inline]
    fn update(&self, acc: &PdbAcc, _tiles: &[u8], tile: u8, from: usize, to: usize) -> PdbAcc {
        let mut a = *acc;
        self.bump(&mut a.idx, &mut a.sum, tile, from as u8, to as u8);
        if let Some(r) = &self.reflect {
            self.bump(&mut a.ridx, &mut a.rsum, r[tile as usize], r[from], r[to]);
        }
        a
    }

    #[inline]
    fn value(&self, acc: &PdbAcc) -> u32 {
        acc.sum.max(acc.rsum)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quiet(_: &str) {}

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

    #[test]
    fn invalid_partitions_are_rejected() {
        let mk = |groups| Partition {
            rows: 4,
            cols: 4,
            groups,
        };
        assert!(mk(vec![vec![0, 1]]).validate().is_err());
        assert!(mk(vec![vec![1, 2], vec![2, 3]]).validate().is_err());
        assert!(mk(vec![(1..8).collect()]).validate().is_err());
        assert!(mk(vec![vec![16]]).validate().is_err());
        assert!(Partition::fifteen_663().validate().is_ok());
    }
}
