//! Beam search construction: the cells are filled in a [`ScanOrder`]; at each cell every live
//! partial board proposes its best few placements, and the `width` best children (by matched
//! seams so far, ties drawn by the seed) live on.
//!
//! The design keeps the work per child small (the ideas are the ones that make the fastest
//! public Eternity II beam fast, measured in the project notes; the code is this project's):
//! - a live board is not stored: it is a *profile* (the colour each column shows downwards
//!   and each row shows rightwards, which is all a scan order whose up and left neighbours
//!   come first ever reads), a bit set of used pieces and a score; the placements themselves
//!   are kept per level as (parent, rotated piece) and read back once, at the end;
//! - a parent's children come from the core's candidate table for its two colours, exact
//!   matches first, capped at [`FANOUT`] per parent;
//! - the children are ranked by a counting sort on the integer score, and only the score
//!   class cut by the width is drawn at random.
//!
//! **Look-ahead** ([`Core::set_lookahead`]): a child is then ranked by its matched seams minus
//! a lower bound on the seams the rest of the board must break. Every profile colour that
//! faces an empty cell must be met by a side of an unused piece of the same colour; where a
//! colour's open sides outnumber the unused pieces' sides of that colour, the difference
//! is a count of seams that will break whatever comes next. The bound is optimistic (it
//! ignores rotations, cell classes and the sides the rest of the scan will open), so it never
//! makes a board that can still be perfect look worse than one that cannot; what it buys is
//! that a child which spends the last pieces of a scarce colour ranks below one that does
//! not. Each live board then carries its unused-side count per colour beside its profile.
//!
//! Deterministic for a seed whatever the thread count: each parent's choices use a generator
//! seeded by (seed, cell, parent), and the threads' children are merged in parent order.
//! With no width given, [`beam_anytime`] runs passes of doubling width while the time lasts
//! and keeps the best board.

use super::Rng;
use super::core::{Core, DOWN, LEFT, RIGHT, ScanOrder, UP, complete_greedily, has};
use std::time::Instant;

/// At most this many children per parent.
pub const FANOUT: usize = 8;

/// A child in the pool: its rank (`key`: the score, less the look-ahead's penalty plus a
/// constant when that is on), its matched seams, its parent and its rotated piece.
#[derive(Debug, Clone, Copy)]
struct Child {
    key: u16,
    score: u16,
    parent: u32,
    o: u16,
}

/// The look-ahead's fixed facts for one pass: which profile entries face an empty cell after
/// each depth, and where the per-colour supply sits in a live board's state.
struct Look {
    /// `open[depth * entries + e]`: entry `e` of the profile faces an empty cell once
    /// `cells[..=depth]` are placed.
    open: Vec<bool>,
    /// Profile entries (columns then rows).
    entries: usize,
    /// Colours (grey, 0, never counted).
    ncolours: usize,
    /// Added to every key so that the penalty never takes it below zero.
    offset: u16,
    /// Per depth, the next cell of the scan when it is free and its left or upper neighbour
    /// is this depth's cell: (cell, left neighbour is this one, upper neighbour is this one).
    next: Vec<Option<(usize, bool, bool)>>,
}

impl Look {
    /// The look-ahead of a pass over `cells`, or `None` when it is off or a colour has more
    /// than 255 sides (the supply is kept in bytes).
    fn new(core: &Core, cells: &[usize]) -> Option<(Look, Vec<u8>)> {
        if !core.lookahead() {
            return None;
        }
        let (rows, cols) = (core.rows(), core.cols());
        let entries = rows + cols;
        let nc = core.ncolours();
        let mut supply = vec![0u32; nc];
        let fixed: Vec<bool> = (0..rows * cols).map(|c| core.fixed(c).is_some()).collect();
        // The supply is every piece the pass has yet to place: all but those fixed outside
        // the scanned cells (a fixed cell inside the scan is placed, and taken out of the
        // supply, like any other).
        let mut scanned = vec![false; rows * cols];
        for &c in cells {
            scanned[c] = true;
        }
        let mut fixed_piece = vec![false; core.pieces()];
        for cell in (0..rows * cols).filter(|&c| !scanned[c]) {
            if let Some(o) = core.fixed(cell) {
                fixed_piece[core.oriented(o).piece as usize] = true;
            }
        }
        for piece in (0..core.pieces()).filter(|&p| !fixed_piece[p]) {
            for &c in &core.oriented(piece as u16 * 4).sides {
                if c != 0 {
                    supply[c as usize] += 1;
                }
            }
        }
        if supply.iter().any(|&n| n > 255) {
            return None;
        }
        let mut placed = fixed.clone();
        let (mut last_in_col, mut last_in_row) = (vec![None; cols], vec![None; rows]);
        let mut open = Vec::with_capacity(cells.len() * entries);
        for &cell in cells {
            let (r, c) = (cell / cols, cell % cols);
            placed[cell] = true;
            last_in_col[c] = Some(r);
            last_in_row[r] = Some(c);
            for (c, lr) in last_in_col.iter().enumerate() {
                open.push(lr.is_some_and(|r: usize| r + 1 < rows && !placed[(r + 1) * cols + c]));
            }
            for (r, lc) in last_in_row.iter().enumerate() {
                open.push(lc.is_some_and(|c: usize| c + 1 < cols && !placed[r * cols + c + 1]));
            }
        }
        let next = (0..cells.len())
            .map(|d| {
                let (cell, nx) = (cells[d], *cells.get(d + 1)?);
                let left = nx % cols > 0 && nx - 1 == cell;
                let up = nx >= cols && nx - cols == cell;
                (!fixed[nx] && (left || up)).then_some((nx, left, up))
            })
            .collect();
        let look = Look {
            open,
            entries,
            ncolours: nc,
            offset: entries as u16 + 1,
            next,
        };
        Some((look, supply.into_iter().map(|n| n as u8).collect()))
    }
}

/// What a beam pass produced.
#[derive(Debug, Clone)]
pub struct BeamResult {
    /// The board, as rotated-piece indices per cell (complete).
    pub cells: Vec<u16>,
    /// Its matched seams (the core's count).
    pub matched: usize,
    /// The width of the pass that built it.
    pub width: usize,
    /// Whether the pass reached the last cell (false: stopped by the deadline and finished
    /// greedily).
    pub complete: bool,
    /// Children generated over the pass.
    pub children: u64,
}

/// Bytes one live board of a pass over `cells` cells of `core` costs at the peak: its
/// profile and piece set twice (a level and the next), its share of the parents' history
/// (every level's), and its children in the pool.
pub fn bytes_per_board(core: &Core, cells: usize) -> usize {
    let stride = core.rows() + core.cols() + 64;
    let words = super::core::PieceSet::words(core.pieces());
    2 * (stride + 8 * words + 2) + 8 * cells + FANOUT * std::mem::size_of::<Child>()
}

/// The widest pass over `cells` cells that `budget` bytes hold (at least 1).
pub fn widest(core: &Core, cells: usize, budget: f64) -> usize {
    (budget / bytes_per_board(core, cells) as f64).max(1.0) as usize
}

/// One pass of width `width` over `order`, stopping at `deadline` (the best partial board is
/// then finished greedily). `threads` workers generate the children.
pub fn beam(
    core: &Core,
    order: ScanOrder,
    width: usize,
    seed: u64,
    threads: usize,
    deadline: Option<Instant>,
) -> BeamResult {
    let cells = order.cells(core.rows(), core.cols());
    beam_cells(core, &cells, width, seed, threads, deadline)
}

/// [`beam`] over the cells `cells` only, in that order; every other cell must be fixed in
/// `core` (a whole board's scan, or a window of a board being repaired). Each cell's upper
/// and left neighbours must come before it in `cells` or be fixed.
pub fn beam_cells(
    core: &Core,
    cells: &[usize],
    width: usize,
    seed: u64,
    threads: usize,
    deadline: Option<Instant>,
) -> BeamResult {
    let (rows, cols) = (core.rows(), core.cols());
    let look = Look::new(core, cells);
    // A live board's state: the profile, then (with the look-ahead) the unused sides per
    // colour.
    let stride = rows + cols + look.as_ref().map_or(0, |l| l.0.ncolours);
    let words = super::core::PieceSet::words(core.pieces());
    let width = width.max(1);
    // The root: every fixed piece already used, the profile all grey (the rim; a fixed
    // neighbour shows its own colour, see `expand_range`).
    let mut prof = vec![0u8; stride];
    if let Some((_, supply)) = &look {
        prof[rows + cols..].copy_from_slice(supply);
    }
    let look = look.map(|l| l.0);
    let mut used = vec![0u64; words];
    for cell in 0..rows * cols {
        if let Some(o) = core.fixed(cell) {
            let p = core.oriented(o).piece;
            used[p as usize >> 6] |= 1 << (p & 63);
        }
    }
    // Every seam is scored once, when the later of its two cells in the scan is placed (a
    // fixed cell's by the cell before it: the `bonus` below), fixed pairs included.
    let mut score: Vec<u16> = vec![0];
    let fixed_cells: Vec<u16> = (0..rows * cols)
        .map(|c| core.fixed(c).unwrap_or(u16::MAX))
        .collect();
    let mut hist: Vec<Vec<(u32, u16)>> = Vec::with_capacity(cells.len());
    let mut children = 0u64;
    let mut stopped = false;
    for (depth, &cell) in cells.iter().enumerate() {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            stopped = true;
            break;
        }
        let live = score.len();
        let Some(pool) = expand_all(
            core,
            cell,
            &prof,
            &used,
            &score,
            look.as_ref(),
            seed,
            depth,
            threads,
            deadline,
        ) else {
            // The deadline passed within the level: the last whole level stands.
            stopped = true;
            break;
        };
        if pool.is_empty() {
            // No unused piece fits (only with fixed pieces that leave a class short).
            break;
        }
        children += pool.len() as u64;
        let chosen = select(&pool, width, seed ^ (depth as u64).wrapping_mul(0x9E37));
        let (r, c) = (cell / cols, cell % cols);
        let mut nprof = Vec::with_capacity(chosen.len() * stride);
        let mut nused = Vec::with_capacity(chosen.len() * words);
        let mut nscore = Vec::with_capacity(chosen.len());
        let mut level = Vec::with_capacity(chosen.len());
        for ch in &chosen {
            let (s, parent, o) = (ch.score, ch.parent, ch.o);
            let pi = parent as usize;
            debug_assert!(pi < live);
            let or = core.oriented(o);
            nprof.extend_from_slice(&prof[pi * stride..(pi + 1) * stride]);
            let at = nprof.len() - stride;
            nprof[at + c] = or.sides[DOWN];
            nprof[at + cols + r] = or.sides[RIGHT];
            if look.is_some() {
                for &side in &or.sides {
                    if side != 0 {
                        nprof[at + rows + cols + side as usize] -= 1;
                    }
                }
            }
            nused.extend_from_slice(&used[pi * words..(pi + 1) * words]);
            let at = nused.len() - words;
            nused[at + (or.piece as usize >> 6)] |= 1 << (or.piece & 63);
            nscore.push(s);
            level.push((parent, o));
        }
        prof = nprof;
        used = nused;
        score = nscore;
        hist.push(level);
        if score.is_empty() {
            // No rotated piece fits (only possible with fixed pieces that leave a class short).
            break;
        }
    }
    // The best live board, read back through the parents.
    let mut board = vec![u16::MAX; rows * cols];
    for (cell, o) in fixed_cells.iter().enumerate() {
        if *o != u16::MAX {
            board[cell] = *o;
        }
    }
    if let Some((best, _)) = score
        .iter()
        .enumerate()
        .max_by_key(|&(i, &s)| (s, usize::MAX - i))
    {
        let mut at = best as u32;
        for depth in (0..hist.len()).rev() {
            let (parent, o) = hist[depth][at as usize];
            board[cells[depth]] = o;
            at = parent;
        }
    }
    let complete = !stopped && hist.len() == cells.len() && !score.is_empty();
    complete_greedily(core, &mut board, cells);
    BeamResult {
        matched: core.matched(&board),
        cells: board,
        width,
        complete,
        children,
    }
}

/// The children of every live board at `cell`, in parent order: (score, parent, rotated
/// piece). Split over `threads` workers by parent ranges. `None` when `deadline` passed
/// before every parent was expanded (a wide level takes long: the clock is read as it goes).
#[allow(
    clippy::too_many_arguments,
    reason = "one level's state in borrowed slices, so threads can share it"
)]
fn expand_all(
    core: &Core,
    cell: usize,
    prof: &[u8],
    used: &[u64],
    score: &[u16],
    look: Option<&Look>,
    seed: u64,
    depth: usize,
    threads: usize,
    deadline: Option<Instant>,
) -> Option<Vec<Child>> {
    let live = score.len();
    let threads = threads.clamp(1, live.div_ceil(256).max(1));
    let late = std::sync::atomic::AtomicBool::new(false);
    let level = Level {
        core,
        cell,
        prof,
        used,
        score,
        look,
        seed,
        depth,
        deadline,
        late: &late,
    };
    if threads == 1 {
        let mut pool = Vec::with_capacity(live * FANOUT);
        expand_range(&level, 0..live, &mut pool);
        return (!late.into_inner()).then_some(pool);
    }
    let chunk = live.div_ceil(threads);
    let pool = std::thread::scope(|s| {
        let level = &level;
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let range = t * chunk..((t + 1) * chunk).min(live);
                s.spawn(move || {
                    let mut pool = Vec::with_capacity(range.len() * FANOUT);
                    expand_range(level, range, &mut pool);
                    pool
                })
            })
            .collect();
        let mut pool = Vec::with_capacity(live * FANOUT);
        for h in handles {
            pool.extend(h.join().expect("a beam worker panicked"));
        }
        pool
    });
    (!late.into_inner()).then_some(pool)
}

/// One level's state in borrowed slices, shared by its workers.
struct Level<'a> {
    core: &'a Core,
    cell: usize,
    prof: &'a [u8],
    used: &'a [u64],
    score: &'a [u16],
    look: Option<&'a Look>,
    seed: u64,
    depth: usize,
    deadline: Option<Instant>,
    /// Set by the first worker to find the deadline passed; the others then stop too.
    late: &'a std::sync::atomic::AtomicBool,
}

/// Parents between two readings of the clock: a few milliseconds of work.
const CLOCK_EVERY: usize = 4096;

fn expand_range(level: &Level<'_>, range: std::ops::Range<usize>, pool: &mut Vec<Child>) {
    let Level {
        core,
        cell,
        prof,
        used,
        score,
        look,
        seed,
        depth,
        deadline,
        late,
    } = *level;
    let cols = core.cols();
    // The look-ahead's scratch: open sides and unused sides per colour of one parent.
    let (mut open_n, mut supply) = match look {
        Some(l) => (vec![0i16; l.ncolours], vec![0i16; l.ncolours]),
        None => (Vec::new(), Vec::new()),
    };
    // Each live board's share of the flat arrays: its profile (and supply), its piece set.
    let (stride, words) = (prof.len() / score.len(), used.len() / score.len());
    let (r, c) = (cell / cols, cell % cols);
    let k = core.class(cell);
    // Seams the placement closes towards the left and up (the rim closes none).
    let base = (r > 0) as u16 + (c > 0) as u16;
    let fixed_right = core.fixed_side(cell, RIGHT);
    let fixed_down = core.fixed_side(cell, DOWN);
    let bonus = |o: u16| {
        let s = core.oriented(o).sides;
        fixed_right.is_some_and(|x| x != 0 && x == s[RIGHT]) as u16
            + fixed_down.is_some_and(|x| x != 0 && x == s[DOWN]) as u16
    };
    let forced = core.fixed(cell);
    // A fixed neighbour above or to the left shows its own colour (the profile holds the
    // last placed cell of the column or row, which is that neighbour only when the cells
    // form rows and columns without gaps).
    let fixed_up = (r > 0)
        .then(|| core.fixed(cell - cols))
        .flatten()
        .map(|o| core.oriented(o).sides[DOWN]);
    let fixed_left = (c > 0)
        .then(|| core.fixed(cell - 1))
        .flatten()
        .map(|o| core.oriented(o).sides[RIGHT]);
    let mut pick: Vec<(u16, u16)> = Vec::with_capacity(64);
    let start = range.start;
    for pi in range {
        if (pi - start) % CLOCK_EVERY == CLOCK_EVERY - 1
            && let Some(d) = deadline
        {
            use std::sync::atomic::Ordering::Relaxed;
            if late.load(Relaxed) || Instant::now() >= d {
                late.store(true, Relaxed);
                return;
            }
        }
        let left = fixed_left.unwrap_or(prof[pi * stride + cols + r]);
        let up = fixed_up.unwrap_or(prof[pi * stride + c]);
        let u = &used[pi * words..(pi + 1) * words];
        let s0 = score[pi];
        // The parent's open sides per colour after this depth, its own two entries left out
        // (the child sets them), and its penalty on the other colours.
        let mut pen0 = 0i16;
        if let Some(l) = look {
            let open = &l.open[depth * l.entries..(depth + 1) * l.entries];
            let st = &prof[pi * stride..(pi + 1) * stride];
            open_n.fill(0);
            for (e, _) in open.iter().enumerate().filter(|&(_, &o)| o) {
                if e != c && e != cols + r && st[e] != 0 {
                    open_n[st[e] as usize] += 1;
                }
            }
            for (k, n) in supply.iter_mut().enumerate() {
                *n = st[l.entries + k] as i16;
            }
            pen0 = open_n
                .iter()
                .zip(&supply)
                .map(|(&d, &s)| (d - s).max(0))
                .sum();
        }
        // A child's key: its score, less the penalty once it is placed (its own sides leave
        // the supply; its down and right sides open when the cells there are empty).
        let mut key = |g: u16, o: u16| -> Child {
            let score = s0 + g;
            let Some(l) = look else {
                return Child {
                    key: score,
                    score,
                    parent: pi as u32,
                    o,
                };
            };
            let sd = core.oriented(o).sides;
            let open = &l.open[depth * l.entries..(depth + 1) * l.entries];
            let mut pen = pen0;
            let bump = |open_n: &mut [i16],
                        supply: &mut [i16],
                        pen: &mut i16,
                        (col, dem, sup): (u8, i16, i16)| {
                let k = col as usize;
                *pen -= (open_n[k] - supply[k]).max(0);
                open_n[k] += dem;
                supply[k] += sup;
                *pen += (open_n[k] - supply[k]).max(0);
            };
            let mut changes = [(0u8, 0i16, 0i16); 6];
            let mut n = 0;
            for &col in &sd {
                if col != 0 {
                    changes[n] = (col, 0, -1);
                    n += 1;
                }
            }
            if open[c] && sd[DOWN] != 0 {
                changes[n] = (sd[DOWN], 1, 0);
                n += 1;
            }
            if open[cols + r] && sd[RIGHT] != 0 {
                changes[n] = (sd[RIGHT], 1, 0);
                n += 1;
            }
            for &ch in &changes[..n] {
                bump(&mut open_n, &mut supply, &mut pen, ch);
            }
            let mut penalty = pen;
            for &(col, d, s) in &changes[..n] {
                bump(&mut open_n, &mut supply, &mut pen, (col, -d, -s));
            }
            // The next cell of the scan, when this one is its left or upper neighbour: with
            // no unused piece matching both of its known sides exactly, one of its seams
            // breaks. The larger of the two bounds is still a bound.
            if let Some((nx, left_here, up_here)) = l.next[depth] {
                let (rn, cn) = (nx / cols, nx % cols);
                let st = &prof[pi * stride..(pi + 1) * stride];
                let shown = |nb: usize, side: usize, entry: usize| {
                    core.fixed(nb)
                        .map_or(st[entry], |f| core.oriented(f).sides[side])
                };
                let left = match (left_here, cn > 0) {
                    (true, _) => sd[RIGHT],
                    (false, true) => shown(nx - 1, RIGHT, cols + rn),
                    (false, false) => 0,
                };
                let up = match (up_here, rn > 0) {
                    (true, _) => sd[DOWN],
                    (false, true) => shown(nx - cols, DOWN, cn),
                    (false, false) => 0,
                };
                let mine = core.oriented(o).piece;
                let (exact, _) = core.candidates(core.class(nx), left, up);
                let any = exact.iter().any(|&e| {
                    let pc = core.oriented(e).piece;
                    pc != mine && !has(u, pc)
                });
                if !any {
                    penalty = penalty.max(1);
                }
            }
            Child {
                key: (score + l.offset).saturating_sub(penalty.max(0) as u16),
                score,
                parent: pi as u32,
                o,
            }
        };
        if let Some(o) = forced {
            // Its upper and left seams were scored by the cells placed there (their bonus).
            pool.push(key(bonus(o), o));
            continue;
        }
        let (exact, one) = core.candidates(k, left, up);
        let mut rng = Rng::new(
            seed ^ ((depth as u64) << 40) ^ (pi as u64).wrapping_mul(0xD1B5_4A32_D192_ED03),
        );
        pick.clear();
        if fixed_right.is_some() || fixed_down.is_some() {
            // Rare: a fixed neighbour to the right or below; rank every candidate.
            for (list, g) in [(exact, base), (one, base - 1)] {
                for &o in list {
                    if !has(u, core.oriented(o).piece) {
                        pick.push((g + bonus(o), o));
                    }
                }
            }
            pick.sort_by_key(|&(g, _)| std::cmp::Reverse(g));
            pick.truncate(FANOUT);
        } else {
            for (list, g) in [(exact, base), (one, base.saturating_sub(1))] {
                if pick.len() >= FANOUT || list.is_empty() {
                    continue;
                }
                // Start at a random place so the cap does not always favour the same pieces.
                let off = rng.below(list.len());
                for i in 0..list.len() {
                    let o = list[(off + i) % list.len()];
                    if !has(u, core.oriented(o).piece) {
                        pick.push((g, o));
                        if pick.len() >= FANOUT {
                            break;
                        }
                    }
                }
            }
        }
        if pick.is_empty() {
            // Nothing matches either known seam: any unused piece that fits the cell.
            for &o in core.fitting(k) {
                let sd = core.oriented(o).sides;
                if !has(u, core.oriented(o).piece) {
                    let g = (r > 0 && sd[UP] == up) as u16 + (c > 0 && sd[LEFT] == left) as u16;
                    pick.push((g + bonus(o), o));
                    if pick.len() >= FANOUT {
                        break;
                    }
                }
            }
        }
        for &(g, o) in &pick {
            pool.push(key(g, o));
        }
    }
}

/// The `width` best of `pool` by score: a counting sort; only the score class that the
/// width cuts is drawn at random (seeded). Returned best first.
fn select(pool: &[Child], width: usize, seed: u64) -> Vec<Child> {
    if pool.len() <= width {
        let mut all = pool.to_vec();
        all.sort_by_key(|x| (std::cmp::Reverse(x.key), x.parent));
        return all;
    }
    let top = pool.iter().map(|x| x.key).max().unwrap_or(0) as usize;
    let mut count = vec![0usize; top + 1];
    for x in pool {
        count[x.key as usize] += 1;
    }
    // The lowest score kept, and how many of that score fit.
    let (mut cut, mut taken) = (top, 0usize);
    loop {
        if taken + count[cut] >= width || cut == 0 {
            break;
        }
        taken += count[cut];
        cut -= 1;
    }
    let room = width - taken;
    let mut out: Vec<Child> = pool
        .iter()
        .copied()
        .filter(|x| x.key as usize > cut)
        .collect();
    let mut tied: Vec<Child> = pool
        .iter()
        .copied()
        .filter(|x| x.key as usize == cut)
        .collect();
    let mut rng = Rng::new(seed);
    // Partial Fisher–Yates: the first `room` entries become a uniform sample.
    for i in 0..room.min(tied.len()) {
        let j = i + rng.below(tied.len() - i);
        tied.swap(i, j);
    }
    tied.truncate(room);
    out.extend(tied);
    out.sort_by_key(|x| std::cmp::Reverse(x.key));
    out
}

/// The beam's anytime mode: passes of doubling width from `start` (each split over the
/// threads) until the next would take a fifth of the time left; then, at that width, passes
/// from fresh seeds, one per thread in parallel, while one more fits. A fifth rather than a
/// tenth: on Eternity II at 60 s on 2 threads one width more (131,072) gave a median of 460
/// in eight runs against 458, at the price of one seam on META 10×10 and 16×16 in single runs
/// (docs/results/edge-heuristics.md#the-default-with-no-method-flags). Scores vary from seed to
/// seed as much as from width to width at these sizes, so the second phase buys more than
/// one ever wider pass would. No pass is wider than `max_width`, nor, when passes run side
/// by side, than its share of it (the memory the caller has for the beam). The best board;
/// `on_pass` hears each pass's result and seconds.
#[allow(
    clippy::too_many_arguments,
    reason = "the pass's settings, its budget in time and memory, and its listener"
)]
pub fn beam_anytime(
    core: &Core,
    order: ScanOrder,
    start: usize,
    seed: u64,
    threads: usize,
    deadline: Instant,
    max_width: usize,
    on_pass: &mut (dyn FnMut(&BeamResult, f64) + Send),
) -> BeamResult {
    let left = || {
        deadline
            .checked_duration_since(Instant::now())
            .map_or(0.0, |d| d.as_secs_f64())
    };
    let max_width = max_width.max(1);
    let mut width = start.clamp(1, max_width);
    let mut best: Option<BeamResult> = None;
    let keep = |res: BeamResult, best: &mut Option<BeamResult>| {
        if best.as_ref().is_none_or(|b| res.matched > b.matched) {
            *best = Some(res);
        }
    };
    let last = loop {
        let t0 = Instant::now();
        let res = beam(core, order, width, seed, threads, Some(deadline));
        let took = t0.elapsed().as_secs_f64();
        on_pass(&res, took);
        // A perfect board is optimal: nothing is left to find.
        let stop = !res.complete || res.matched == core.max_score();
        keep(res, &mut best);
        if stop || left() < 2.2 * took {
            return best.expect("at least one pass");
        }
        if 2.0 * took > left() / 5.0 || width >= max_width {
            break took;
        }
        width = (width * 2).min(max_width);
    };
    // Fresh seeds at the last width, one pass per thread at a time.
    let threads = threads.max(1);
    let width = width.min(max_width / threads).max(1);
    let next = std::sync::atomic::AtomicU64::new(1);
    let shared = std::sync::Mutex::new((best, on_pass));
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                loop {
                    // A pass alone on a thread takes about `threads` times the split one.
                    let perfect = shared
                        .lock()
                        .expect("a beam worker panicked")
                        .0
                        .as_ref()
                        .is_some_and(|b| b.matched == core.max_score());
                    if perfect || left() < 1.1 * last * threads as f64 {
                        return;
                    }
                    let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let t0 = Instant::now();
                    let res = beam(
                        core,
                        order,
                        width,
                        seed.wrapping_add(k.wrapping_mul(0x9E37_79B9)),
                        1,
                        Some(deadline),
                    );
                    let took = t0.elapsed().as_secs_f64();
                    let mut g = shared.lock().expect("a beam worker panicked");
                    (g.1)(&res, took);
                    if g.0.as_ref().is_none_or(|b| res.matched > b.matched) {
                        g.0 = Some(res);
                    }
                }
            });
        }
    });
    shared
        .into_inner()
        .expect("a beam worker panicked")
        .0
        .expect("at least one pass")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::edge::{Board, generate, score};

    #[test]
    fn beam_boards_are_complete_legal_and_counted_right() {
        for seed in 1..=4 {
            let (p, _) = generate(6, 7, 2, 4, seed).unwrap();
            let mut core = Core::new(&p, &Board::empty(6, 7)).unwrap();
            core.set_lookahead(seed % 2 == 0);
            for order in [
                ScanOrder::RowMajor,
                ScanOrder::Comb(usize::MAX),
                ScanOrder::Diagonal,
            ] {
                let res = beam(&core, order, 64, seed, 1 + seed as usize % 2, None);
                let b = core.board(&res.cells);
                let sc = score(&p, &b);
                assert_eq!((sc.empty, sc.rim_faults, sc.repeats), (0, 0, 0), "{sc:?}");
                assert_eq!(sc.matched, res.matched);
                assert!(res.complete);
            }
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_board_whatever_the_threads() {
        let (p, _) = generate(8, 8, 3, 5, 7).unwrap();
        let mut core = Core::new(&p, &Board::empty(8, 8)).unwrap();
        let a = beam(&core, ScanOrder::RowMajor, 700, 3, 1, None);
        let b = beam(&core, ScanOrder::RowMajor, 700, 3, 2, None);
        assert_eq!(a.cells, b.cells);
        core.set_lookahead(true);
        let a = beam(&core, ScanOrder::RowMajor, 700, 3, 1, None);
        let b = beam(&core, ScanOrder::RowMajor, 700, 3, 2, None);
        assert_eq!(a.cells, b.cells, "with the look-ahead");
        let c = beam(&core, ScanOrder::RowMajor, 700, 4, 1, None);
        assert!(c.matched > 0);
    }

    #[test]
    fn a_wide_beam_finds_a_small_planted_board() {
        let (p, _) = generate(5, 5, 2, 4, 9).unwrap();
        let mut core = Core::new(&p, &Board::empty(5, 5)).unwrap();
        let res = beam(&core, ScanOrder::RowMajor, 20_000, 1, 2, None);
        assert_eq!(res.matched, p.max_score());
        // The look-ahead is a bound: a board that can still be perfect is never ranked below
        // one that cannot, so the planted board is found as well.
        core.set_lookahead(true);
        let res = beam(&core, ScanOrder::Comb(usize::MAX), 20_000, 1, 2, None);
        assert_eq!(res.matched, p.max_score());
    }

    #[test]
    fn selection_keeps_the_best_and_draws_only_the_cut_class() {
        let pool: Vec<Child> = (0..100)
            .map(|i| Child {
                key: (i % 10) as u16,
                score: 0,
                parent: i,
                o: 0,
            })
            .collect();
        let kept = select(&pool, 25, 5);
        assert_eq!(kept.len(), 25);
        assert!(kept.iter().filter(|x| x.key >= 8).count() == 20);
        assert!(kept.iter().filter(|x| x.key == 7).count() == 5);
        let again: Vec<u32> = select(&pool, 25, 5).iter().map(|x| x.parent).collect();
        assert_eq!(again, kept.iter().map(|x| x.parent).collect::<Vec<_>>());
    }
}

#[cfg(test)]
mod look_tests {
    use super::*;
    use crate::puzzle::edge::{Board, generate};

    /// A level wider than the time allows stops where the clock says, not at its end: a
    /// level of many parents whose deadline has passed gives no pool (the last whole level
    /// stands), and a pass cut short reports itself incomplete with a whole board.
    #[test]
    fn a_wide_level_reads_the_clock() {
        let (p, _) = generate(10, 10, 3, 8, 7).unwrap();
        let core = Core::new(&p, &Board::empty(10, 10)).unwrap();
        let words = super::super::core::PieceSet::words(core.pieces());
        let parents = 2 * CLOCK_EVERY;
        let (prof, used, score) = (
            vec![0u8; parents * 20],
            vec![0u64; parents * words],
            vec![0u16; parents],
        );
        let expand = |deadline| expand_all(&core, 0, &prof, &used, &score, None, 1, 0, 1, deadline);
        let past = Instant::now() - std::time::Duration::from_millis(1);
        assert!(expand(Some(past)).is_none());
        assert!(expand(None).is_some_and(|pool| pool.len() >= parents));
        let t0 = Instant::now();
        let r = beam(
            &core,
            ScanOrder::RowMajor,
            1_000_000,
            1,
            1,
            Some(t0 + std::time::Duration::from_millis(100)),
        );
        assert!(!r.complete);
        assert!(!r.cells.contains(&u16::MAX));
        assert!(widest(&core, 100, 1e9) < 1_000_000);
    }

    /// On a planted board, the children that continue the planted board never carry a
    /// penalty: the planted board's prefixes are replayed one cell at a time as the only
    /// live board, each expanded by `expand_range`, and the child that places the planted
    /// piece (when the fan-out keeps it) has a key equal to its score plus the offset, i.e.
    /// the look-ahead never calls a perfect board's prefix hopeless.
    #[test]
    fn a_perfect_boards_prefixes_carry_no_penalty() {
        for seed in 1..=10 {
            let (p, planted) = generate(6, 6, 2, 5, seed).unwrap();
            let all = Core::indices(&planted);
            // Half the seeds fix an inner piece where the planted board has it: the scan
            // places it like any cell, and its sides leave the supply once.
            let mut fixed = Board::empty(6, 6);
            if seed % 2 == 0 {
                fixed.cells[14] = planted.cells[14];
            }
            let mut core = Core::new(&p, &fixed).unwrap();
            core.set_lookahead(true);
            let cells = ScanOrder::RowMajor.cells(6, 6);
            let (look, supply) = Look::new(&core, &cells).unwrap();
            let stride = 12 + look.ncolours;
            let mut prof = vec![0u8; stride];
            prof[12..].copy_from_slice(&supply);
            let mut used = vec![0u64; 1];
            let mut score = 0u16;
            for (depth, &cell) in cells.iter().enumerate() {
                let mut pool = Vec::new();
                let late = std::sync::atomic::AtomicBool::new(false);
                let level = Level {
                    core: &core,
                    cell,
                    prof: &prof,
                    used: &used,
                    score: &[score],
                    look: Some(&look),
                    seed: 1,
                    depth,
                    deadline: None,
                    late: &late,
                };
                expand_range(&level, 0..1, &mut pool);
                let o = all[cell];
                // The planted piece may be past the fan-out cap; weigh it directly then.
                let ch = pool.iter().find(|c| c.o == o).copied();
                if let Some(ch) = ch {
                    assert_eq!(
                        ch.key,
                        ch.score + look.offset,
                        "seed {seed} depth {depth}: a planted prefix penalised"
                    );
                }
                let or = core.oriented(o);
                let (r, c) = (cell / 6, cell % 6);
                prof[c] = or.sides[DOWN];
                prof[6 + r] = or.sides[RIGHT];
                for &sd in &or.sides {
                    if sd != 0 {
                        let at = 12 + sd as usize;
                        prof[at] = prof[at]
                            .checked_sub(1)
                            .unwrap_or_else(|| panic!("seed {seed}: the supply ran out"));
                    }
                }
                used[0] |= 1 << or.piece;
                score += (r > 0) as u16 + (c > 0) as u16;
            }
        }
    }
}
