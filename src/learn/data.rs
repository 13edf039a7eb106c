//! Labelled training data: uniformly random solvable boards, each solved optimally by the
//! native solver (IDA* with the pattern databases), stored as solves (start and optimal
//! plan) rather than as states. Every board on an optimal path of length `L` is a sample
//! whose distance is known exactly (`L − i` after `i` moves), so one solve gives `L + 1`
//! labels spread from `L` down to 0, the near-goal region that random boards never reach
//! but that A* asks about at every step.
//!
//! The file (`.tkd`) is a 32-byte header (`TKLEARN\0`, format version, rows, columns, seed,
//! checksum) followed by chunks of up to [`CHUNK`] solves, each a little-endian count, the
//! 29-byte records (start board as a 64-bit key, plan length or 255 for a board not solved
//! within the limit, the plan at 2 bits per move) and a checksum. Board `i` is a function of
//! the seed and `i` alone, so the file is the same whatever the thread count, and a run that
//! was stopped resumes after its last whole chunk (a partial run lives in `FILE.partial`
//! until it completes, and is then renamed).

use crate::edge_search::Rng;
use crate::field::Field;
use crate::puzzle::sliding::{Goal, Move, SlidingPuzzle};
use crate::search::astar::{MAX_CELLS, Tiles, pack, unpack};
use crate::search::ida::{DOWN, LEFT, RIGHT, UP};
use crate::search::pdb::checksum;
use crate::search::{NativeSolver, NativeStatus, SearchError};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The file's first eight bytes.
pub const MAGIC: &[u8; 8] = b"TKLEARN\0";
/// The format version this code reads and writes.
pub const VERSION: u32 = 1;
/// Longest plan a record holds (the 15-puzzle's diameter is 80).
pub const MAX_LEN: usize = 80;
/// Solves per chunk.
pub const CHUNK: usize = 256;
const HEADER: usize = 32;
const RECORD: usize = 8 + 1 + MAX_LEN / 4;
const UNSOLVED: u8 = 255;

/// Why a data file cannot be read or made.
#[derive(Debug, thiserror::Error)]
pub enum DataError {
    /// A file operation failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not a usable data file.
    #[error("{path}: {why}")]
    Format {
        /// The file.
        path: String,
        /// What is wrong (with the byte offset where it helps).
        why: String,
    },
    /// Settings that cannot be run.
    #[error("{0}")]
    Usage(String),
    /// The solver could not be set up.
    #[error(transparent)]
    Search(#[from] SearchError),
}

/// What a data file is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Header {
    /// Board rows.
    pub rows: usize,
    /// Board columns.
    pub cols: usize,
    /// The seed boards are drawn from.
    pub seed: u64,
}

/// One labelled solve.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solve {
    /// The start board (blank-first goal).
    pub start: Tiles,
    /// An optimal plan (move codes of `search::ida`), or None when the solver hit its limit.
    pub plan: Option<Vec<u8>>,
}

/// A whole data file.
#[derive(Debug, Clone)]
pub struct DataFile {
    /// What it is about.
    pub header: Header,
    /// The solves, board 0 first.
    pub solves: Vec<Solve>,
}

/// Board `index` of the stream of `seed`: uniform over the solvable boards.
pub fn board(rows: usize, cols: usize, seed: u64, index: u64) -> Tiles {
    let n = rows * cols;
    let mut rng = Rng::new(seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03).rotate_left(17));
    let mut v: Vec<u8> = (0..n as u8).collect();
    rng.shuffle(&mut v);
    let p = SlidingPuzzle::new(rows, cols, v.iter().map(|&t| t as u16).collect())
        .expect("a permutation of 0..n");
    if !p.is_solvable(Goal::BlankFirst) {
        // Swapping two tiles flips the permutation's parity and keeps the draw uniform
        // over the solvable half (the swap is a bijection between the halves).
        let a = v.iter().position(|&t| t != 0).expect("a tile");
        let b = a + 1 + v[a + 1..].iter().position(|&t| t != 0).expect("two tiles");
        v.swap(a, b);
    }
    let mut t = [0u8; MAX_CELLS];
    t[..n].copy_from_slice(&v);
    t
}

fn header_bytes(h: &Header) -> [u8; HEADER] {
    let mut b = [0u8; HEADER];
    b[..8].copy_from_slice(MAGIC);
    b[8..12].copy_from_slice(&VERSION.to_le_bytes());
    b[12] = h.rows as u8;
    b[13] = h.cols as u8;
    b[16..24].copy_from_slice(&h.seed.to_le_bytes());
    let sum = checksum(&b[..24]);
    b[24..32].copy_from_slice(&sum.to_le_bytes());
    b
}

fn encode_record(s: &Solve, out: &mut Vec<u8>) {
    out.extend_from_slice(&pack(&s.start).to_le_bytes());
    let mut moves = [0u8; MAX_LEN / 4];
    match &s.plan {
        Some(p) => {
            out.push(p.len() as u8);
            for (i, &m) in p.iter().enumerate() {
                moves[i / 4] |= m << (2 * (i % 4));
            }
        }
        None => out.push(UNSOLVED),
    }
    out.extend_from_slice(&moves);
}

fn encode_chunk(solves: &[Solve]) -> Vec<u8> {
    let mut b = Vec::with_capacity(4 + solves.len() * RECORD + 8);
    b.extend_from_slice(&(solves.len() as u32).to_le_bytes());
    for s in solves {
        encode_record(s, &mut b);
    }
    let sum = checksum(&b);
    b.extend_from_slice(&sum.to_le_bytes());
    b
}

/// What a scan of the bytes found: the header, the whole chunks' solves, where the last
/// whole chunk ends, and why the scan stopped early (None: the bytes ended cleanly).
#[derive(Debug)]
struct Scan {
    header: Header,
    solves: Vec<Solve>,
    good: usize,
    stopped: Option<String>,
}

fn scan(bytes: &[u8]) -> Result<Scan, String> {
    if bytes.len() < HEADER || &bytes[..8] != MAGIC {
        return Err("not a tilekit learning data file (no TKLEARN header)".into());
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
    if version != VERSION {
        return Err(format!(
            "data format version {version} (this tilekit reads {VERSION})"
        ));
    }
    if checksum(&bytes[..24]).to_le_bytes() != bytes[24..32] {
        return Err("header checksum mismatch: the file is damaged".into());
    }
    let header = Header {
        rows: bytes[12] as usize,
        cols: bytes[13] as usize,
        seed: u64::from_le_bytes(bytes[16..24].try_into().expect("8 bytes")),
    };
    let n = header.rows * header.cols;
    if header.rows < 2 || header.cols < 2 || n > MAX_CELLS {
        return Err(format!(
            "header says a {}×{} board (2 to 16 cells expected)",
            header.rows, header.cols
        ));
    }
    let mut at = HEADER;
    let mut solves = Vec::new();
    let mut stopped = None;
    while at < bytes.len() {
        let Some(cnt) = bytes.get(at..at + 4) else {
            stopped = Some(format!("a chunk is cut short at byte {at}"));
            break;
        };
        let cnt = u32::from_le_bytes(cnt.try_into().expect("4 bytes")) as usize;
        let end = at + 4 + cnt * RECORD + 8;
        if cnt == 0 || cnt > CHUNK || end > bytes.len() {
            stopped = Some(format!("a chunk is cut short or damaged at byte {at}"));
            break;
        }
        let body = &bytes[at..end - 8];
        if checksum(body).to_le_bytes() != bytes[end - 8..end] {
            stopped = Some(format!("chunk checksum mismatch at byte {at}"));
            break;
        }
        let mut chunk = Vec::with_capacity(cnt);
        for r in body[4..].chunks_exact(RECORD) {
            let start = unpack(u64::from_le_bytes(r[..8].try_into().expect("8 bytes")));
            let mut seen = [false; MAX_CELLS];
            for &t in &start[..n] {
                if (t as usize) < n {
                    seen[t as usize] = true;
                }
            }
            if !seen[..n].iter().all(|&s| s) || start[n..].iter().any(|&t| t != 0) {
                return Err(format!(
                    "record at byte {} is not a {}×{} board",
                    at, header.rows, header.cols
                ));
            }
            let plan = match r[8] {
                UNSOLVED => None,
                len if len as usize <= MAX_LEN => Some(
                    (0..len as usize)
                        .map(|i| (r[9 + i / 4] >> (2 * (i % 4))) & 3)
                        .collect(),
                ),
                len => return Err(format!("record at byte {at} has plan length {len}")),
            };
            chunk.push(Solve { start, plan });
        }
        solves.extend(chunk);
        at = end;
    }
    Ok(Scan {
        header,
        solves,
        good: at.min(bytes.len()),
        stopped,
    })
}

/// Read a whole data file; any damage is an error naming the byte where it starts.
pub fn read(path: &Path) -> Result<DataFile, DataError> {
    let bytes = std::fs::read(path).map_err(|source| DataError::Io {
        path: path.display().to_string(),
        source,
    })?;
    let s = scan(&bytes).map_err(|why| DataError::Format {
        path: path.display().to_string(),
        why,
    })?;
    if let Some(why) = s.stopped {
        return Err(DataError::Format {
            path: path.display().to_string(),
            why,
        });
    }
    Ok(DataFile {
        header: s.header,
        solves: s.solves,
    })
}

/// Settings of [`generate`].
#[derive(Debug, Clone)]
pub struct DataOptions {
    /// The file to make (or extend).
    pub path: PathBuf,
    /// Board rows.
    pub rows: usize,
    /// Board columns.
    pub cols: usize,
    /// Seed of the board stream.
    pub seed: u64,
    /// Solves wanted in all.
    pub count: usize,
    /// Worker threads.
    pub threads: usize,
    /// Time limit per board (a board over it is recorded as unsolved).
    pub board_limit: Duration,
}

/// What [`generate`] did.
#[derive(Debug, Clone, serde::Serialize)]
pub struct DataReport {
    /// The file.
    pub path: PathBuf,
    /// Solves in the file now.
    pub solves: usize,
    /// Of which solved within the limit.
    pub solved: usize,
    /// Solves already there when the run started.
    pub resumed_from: usize,
    /// Labelled states (path boards) of the solved ones.
    pub labels: usize,
    /// Mean optimal length.
    pub mean_length: f64,
    /// The solver's heuristic.
    pub solver: String,
    /// Seconds of this run.
    pub seconds: f64,
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> DataError + '_ {
    move |source| DataError::Io {
        path: path.display().to_string(),
        source,
    }
}

/// The partial file of a data file.
pub fn partial_path(path: &Path) -> PathBuf {
    let mut p = path.as_os_str().to_owned();
    p.push(".partial");
    PathBuf::from(p)
}

fn to_codes(moves: &[Move]) -> Vec<u8> {
    moves
        .iter()
        .map(|m| match m {
            Move::Up => UP,
            Move::Down => DOWN,
            Move::Left => LEFT,
            Move::Right => RIGHT,
        })
        .collect()
}

/// Solve one board, check the plan by replaying it with the puzzle's own rules.
fn solve_one(
    solver: &NativeSolver,
    rows: usize,
    cols: usize,
    start: Tiles,
    limit: Duration,
) -> Result<Solve, DataError> {
    let n = rows * cols;
    let p = SlidingPuzzle::new(rows, cols, start[..n].iter().map(|&t| t as u16).collect())
        .expect("a generated board");
    let r = solver.solve(&p, Goal::BlankFirst, Some(limit))?;
    let plan = match (r.status, r.moves) {
        (NativeStatus::Solved, Some(moves)) if r.proven_optimal => {
            let end = p.replay(&moves).map_err(|e| {
                DataError::Usage(format!("the native plan leaves the board: {e:?}"))
            })?;
            if !end.is_goal(Goal::BlankFirst) || moves.len() > MAX_LEN {
                return Err(DataError::Usage(
                    "the native plan does not reach the goal (solver failure)".into(),
                ));
            }
            Some(to_codes(&moves))
        }
        _ => None,
    };
    Ok(Solve { start, plan })
}

/// Make (or resume, or extend) a data file of `count` solves, `progress` told after every
/// chunk. Stops early, keeping every whole chunk, when `stop` is set.
pub fn generate(
    opts: &DataOptions,
    solver: &NativeSolver,
    stop: &AtomicBool,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<DataReport, DataError> {
    let started = std::time::Instant::now();
    if opts.rows * opts.cols > MAX_CELLS || opts.rows < 2 || opts.cols < 2 {
        return Err(DataError::Usage(format!(
            "learning data is for boards of 4 to 16 cells, not {}×{}",
            opts.rows, opts.cols
        )));
    }
    if opts.threads == 0 {
        return Err(DataError::Usage(format!(
            "{} must be at least 1",
            Field::Jobs
        )));
    }
    let want = Header {
        rows: opts.rows,
        cols: opts.cols,
        seed: opts.seed,
    };
    let partial = partial_path(&opts.path);
    let check_header = |h: &Header, path: &Path| {
        if *h != want {
            return Err(DataError::Usage(format!(
                "{} holds a {}×{} set with seed {}, not {}×{} with seed {}: choose another file",
                path.display(),
                h.rows,
                h.cols,
                h.seed,
                want.rows,
                want.cols,
                want.seed
            )));
        }
        Ok(())
    };
    if opts.path.exists() && !partial.exists() {
        let done = read(&opts.path)?;
        check_header(&done.header, &opts.path)?;
        if done.solves.len() >= opts.count {
            return Ok(report(
                opts,
                &done.solves,
                done.solves.len(),
                solver,
                started,
            ));
        }
        // Extend: the complete file becomes the partial one until the new total is reached.
        std::fs::rename(&opts.path, &partial).map_err(io(&opts.path))?;
    }
    let mut solves = Vec::new();
    if partial.exists() {
        let bytes = std::fs::read(&partial).map_err(io(&partial))?;
        let s = scan(&bytes).map_err(|why| DataError::Format {
            path: partial.display().to_string(),
            why,
        })?;
        check_header(&s.header, &partial)?;
        if let Some(why) = &s.stopped {
            progress(&format!(
                "{}: {why}; resuming after the last whole chunk",
                partial.display()
            ));
        }
        let f = std::fs::OpenOptions::new()
            .write(true)
            .open(&partial)
            .map_err(io(&partial))?;
        f.set_len(s.good as u64).map_err(io(&partial))?;
        solves = s.solves;
    } else {
        if let Some(dir) = partial.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(io(dir))?;
        }
        std::fs::write(&partial, header_bytes(&want)).map_err(io(&partial))?;
    }
    let resumed_from = solves.len();
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(&partial)
        .map_err(io(&partial))?;
    let first = solves.len();
    let chunks: Vec<(usize, usize)> = (first..opts.count)
        .step_by(CHUNK)
        .map(|a| (a, (a + CHUNK).min(opts.count)))
        .collect();
    // Chunks are written in order: a finished chunk waits for the ones before it. A failed
    // board or an interrupt (`stop`) ends the run; what was written stays for a resume.
    let mut failed: Option<DataError> = None;
    let mut waiting: BTreeMap<usize, Vec<Solve>> = BTreeMap::new();
    let mut k_next = 0;
    crate::work::par_stream(
        chunks.len(),
        opts.threads,
        |k| -> Option<Result<Vec<Solve>, DataError>> {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            let (a, b) = chunks[k];
            let mut out = Vec::with_capacity(b - a);
            for i in a..b {
                let start = board(opts.rows, opts.cols, opts.seed, i as u64);
                match solve_one(solver, opts.rows, opts.cols, start, opts.board_limit) {
                    Ok(s) => out.push(s),
                    Err(e) => {
                        stop.store(true, Ordering::Relaxed);
                        return Some(Err(e));
                    }
                }
                if stop.load(Ordering::Relaxed) {
                    return None;
                }
            }
            Some(Ok(out))
        },
        |k, r| {
            let out = match r {
                Some(Ok(out)) => out,
                Some(Err(e)) => {
                    failed.get_or_insert(e);
                    return false;
                }
                None => return false,
            };
            waiting.insert(k, out);
            while let Some(out) = waiting.remove(&k_next) {
                let written = file
                    .write_all(&encode_chunk(&out))
                    .and_then(|()| file.flush())
                    .map_err(io(&partial));
                if let Err(e) = written {
                    failed.get_or_insert(e);
                    return false;
                }
                solves.extend(out);
                k_next += 1;
                let (done, total) = (solves.len() - first, opts.count - first);
                progress(&crate::search::step(
                    done as u64,
                    total as u64,
                    &format!("{done}/{total} boards solved"),
                ));
            }
            true
        },
    );
    if let Some(e) = failed {
        return Err(e);
    }
    drop(file);
    if solves.len() >= opts.count {
        std::fs::rename(&partial, &opts.path).map_err(io(&partial))?;
    }
    Ok(report(opts, &solves, resumed_from, solver, started))
}

fn report(
    opts: &DataOptions,
    solves: &[Solve],
    resumed_from: usize,
    solver: &NativeSolver,
    started: std::time::Instant,
) -> DataReport {
    let lens: Vec<usize> = solves
        .iter()
        .filter_map(|s| s.plan.as_ref().map(Vec::len))
        .collect();
    DataReport {
        path: opts.path.clone(),
        solves: solves.len(),
        solved: lens.len(),
        resumed_from,
        labels: lens.iter().map(|l| l + 1).sum(),
        mean_length: lens.iter().sum::<usize>() as f64 / lens.len().max(1) as f64,
        solver: solver.heuristic_name(),
        seconds: started.elapsed().as_secs_f64(),
    }
}

/// One labelled board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sample {
    /// The board.
    pub tiles: Tiles,
    /// Its exact distance to the goal.
    pub distance: u8,
    /// The solve it comes from (to split training and validation by whole paths).
    pub solve: u32,
}

/// The transposition of a square board: tile `t` in cell `c` becomes tile `T(t)` in cell
/// `T(c)`, `T` the reflection in the main diagonal. The blank-first goal maps to itself and
/// every move to a move, so distances are preserved exactly.
pub fn reflect(t: &Tiles, side: usize) -> Tiles {
    let tr = |c: usize| (c % side) * side + c / side;
    let mut r = [0u8; MAX_CELLS];
    for c in 0..side * side {
        r[tr(c)] = tr(t[c] as usize) as u8;
    }
    r
}

/// Every board on every solved path with its exact distance, plus the reflected copy of
/// each on square boards when `reflected`.
pub fn samples(df: &DataFile, reflected: bool) -> Vec<Sample> {
    let (rows, cols) = (df.header.rows, df.header.cols);
    let mut out = Vec::new();
    for (k, s) in df.solves.iter().enumerate() {
        let Some(plan) = &s.plan else { continue };
        let mut t = s.start;
        let len = plan.len();
        let mut push = |t: &Tiles, d: usize| {
            out.push(Sample {
                tiles: *t,
                distance: d as u8,
                solve: k as u32,
            });
            if reflected && rows == cols {
                out.push(Sample {
                    tiles: reflect(t, rows),
                    distance: d as u8,
                    solve: k as u32,
                });
            }
        };
        push(&t, len);
        for (i, &m) in plan.iter().enumerate() {
            t = crate::search::astar::replay(&t, rows, cols, &[m]).expect("a checked plan");
            push(&t, len - i - 1);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_are_solvable_permutations_and_reflection_keeps_the_goal() {
        for i in 0..200 {
            let t = board(4, 4, 9, i);
            let p = SlidingPuzzle::new(4, 4, t[..16].iter().map(|&v| v as u16).collect()).unwrap();
            assert!(p.is_solvable(Goal::BlankFirst));
            assert_eq!(reflect(&reflect(&t, 4), 4), t);
        }
        let goal: Tiles = core::array::from_fn(|c| c as u8);
        assert_eq!(reflect(&goal, 4), goal);
        assert_ne!(board(4, 4, 9, 0), board(4, 4, 9, 1));
        assert_eq!(board(3, 3, 5, 17), board(3, 3, 5, 17));
    }

    #[test]
    fn chunks_round_trip_and_damage_is_located() {
        let h = Header {
            rows: 3,
            cols: 3,
            seed: 4,
        };
        let solves = vec![
            Solve {
                start: board(3, 3, 4, 0),
                plan: Some(vec![0, 3, 1, 2, 2, 0, 3]),
            },
            Solve {
                start: board(3, 3, 4, 1),
                plan: None,
            },
        ];
        let mut bytes = header_bytes(&h).to_vec();
        bytes.extend(encode_chunk(&solves));
        bytes.extend(encode_chunk(&solves[..1]));
        let s = scan(&bytes).unwrap();
        assert_eq!((s.header, s.stopped.clone()), (h, None));
        assert_eq!(s.solves.len(), 3);
        assert_eq!(s.solves[..2], solves[..]);
        // A cut in the last chunk keeps the first one whole.
        let cut = scan(&bytes[..bytes.len() - 3]).unwrap();
        assert_eq!(cut.solves.len(), 2);
        assert!(cut.stopped.unwrap().contains("cut short"));
        let mut flip = bytes.clone();
        flip[HEADER + 10] ^= 1;
        let bad = scan(&flip).unwrap();
        assert!(bad.solves.is_empty() && bad.stopped.unwrap().contains("checksum"));
        let mut head = bytes.clone();
        head[12] = 9;
        assert!(scan(&head).unwrap_err().contains("header checksum"));
        assert!(scan(b"garbage").is_err());
    }
}
