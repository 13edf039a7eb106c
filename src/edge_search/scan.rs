//! The fixed-order placement engine behind the depth-first searches: the shape of the
//! Eternity II community's record backtrackers (Verhaard's, Blackwood's; see the project
//! notes), written for this crate.
//!
//! - The free cells are filled in a fixed [`ScanOrder`]; cells holding a fixed piece are
//!   skipped (they are on the board from the start), and the free cell before a fixed right
//!   or lower neighbour checks that seam as it is placed, so clues narrow the search instead
//!   of stalling it.
//! - Every rotated piece is packed into one 8-byte [`Entry`] (piece, right and lower colour,
//!   which seam it breaks) and stored directly in the bucket of the colours its left and
//!   upper neighbours must show, exact matches first: the inner loop reads one entry, tests
//!   the piece's used flag before anything else, and writes two colour bytes.
//! - A cumulative budget per position of the scan (`allowed`) says how many seams may be
//!   broken once that many cells are placed; the one-break tail of a bucket is entered only
//!   while the budget has room, and a cell breaks at most one of its seams, never one whose
//!   other cell already has a broken seam (Blackwood's rule: every hole a broken seam leaves
//!   is one cell, so a repair can fill it). Border seams, between two rim cells, never break.
//! - Identical free pieces are placed in the order of their numbers (an entry carries its
//!   piece's identical predecessor, whose used flag the loop reads beside the piece's own),
//!   and a rotation that shows the same colours as an earlier one of its piece is left out:
//!   the walk meets one board of each set that differs only by such swaps, and
//!   [`Tables::multiplicity`] counts them back.
//! - On a puzzle of at most 64 pieces the exact search ([`Tables::with_sets`]) also holds
//!   each bucket's exact matches as a set of pieces, one bit each, and takes a cell's
//!   candidates with one AND against the pieces still free: no used flag read per entry,
//!   and the same walk.
//!
//! The engine counts placements (nodes) per depth; the drivers are [`super::dfs`] (restarts
//! with a budget) and [`exact`] (no budget: a complete search, split across threads by
//! prefixes, for the first perfect board or all of them).

use super::core::{Core, DOWN, LEFT, RIGHT, ScanOrder, UP};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

mod sets;

/// Which seam an entry breaks.
const EXACT: u8 = 0;
const BREAKS_LEFT: u8 = 1;
const BREAKS_UP: u8 = 2;

/// A rotated piece in a candidate bucket: one word, read whole by the inner loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(C, align(8))]
pub struct Entry {
    /// Piece index.
    piece: u16,
    /// The piece's twin ([`Tables::twin`]), here so that the loop reads its used flag
    /// beside the piece's own, not through a second lookup.
    twin: u16,
    /// Colour shown to the right neighbour.
    right: u8,
    /// Colour shown to the lower neighbour.
    down: u8,
    /// [`EXACT`], [`BREAKS_LEFT`] or [`BREAKS_UP`].
    side: u8,
    /// The rotation (0..4).
    rot: u8,
}

impl Entry {
    /// The rotated piece ([`Core::oriented`], four per piece in rotation order).
    fn orient(self) -> u16 {
        4 * self.piece + self.rot as u16
    }
}

/// "No cell": the index of the rim's slot in the colour arrays (always grey, never broken).
const NONE: u16 = u16::MAX;

/// The candidate buckets: per (cell class, left colour, up colour), the entries that match
/// both, then those that break one non-border seam. A worker owns a copy, shuffled per
/// restart.
#[derive(Debug, Clone)]
pub struct Tables {
    entries: Vec<Entry>,
    /// Per entry, its sides in the colours a colour quota counts ([`Self::count_colours`]);
    /// apart from the entries, which the loop without a quota reads alone.
    counted: Vec<u8>,
    /// Per bucket: start, end of the exact matches, end.
    slots: Vec<(u32, u32, u32)>,
    /// Per piece, the free piece before it with the same four colours (the sentinel
    /// `pieces`, always used, where there is none): identical pieces are placed in the order
    /// of their indices, so the walk meets one of the boards that differ only by swapping
    /// them, not all of them.
    twin: Vec<u16>,
    /// Whether any piece has a twin (the loop without them has no twin test at all).
    twins: bool,
    /// The boards one complete walk stands for: the product, over the classes of identical
    /// free pieces, of the ways to order them, and over the free pieces, of their rotations
    /// that show the same colours as another (only the first is a candidate).
    multiplicity: u64,
    /// The exact matches as piece sets ([`Self::with_sets`]), for the exact search's loop.
    sets: Option<Arc<sets::Sets>>,
}

impl Tables {
    /// The buckets of `core`, in its own candidate order, one of each set of boards that
    /// differ only by identical pieces or by a symmetric piece's rotation
    /// ([`Self::multiplicity`]).
    pub fn new(core: &Core) -> Tables {
        Self::build(core, true)
    }

    /// Boards one complete walk stands for (see [`Tables::new`]): 1 on a puzzle whose free
    /// pieces are all different and none symmetric; saturates at `u64::MAX`.
    ///
    /// ```
    /// use tilekit::edge_search::core::Core;
    /// use tilekit::edge_search::scan::Tables;
    /// use tilekit::puzzle::edge::{Board, generate};
    ///
    /// // One colour on the frame and one inside: the four corners are alike, so are the
    /// // eight edge pieces, and the four inner pieces look the same whichever way round.
    /// let (p, _) = generate(4, 4, 1, 1, 1).unwrap();
    /// let core = Core::new(&p, &Board::empty(4, 4)).unwrap();
    /// assert_eq!(Tables::new(&core).multiplicity(), 24 * 40_320 * 24 * 256);
    /// ```
    pub fn multiplicity(&self) -> u64 {
        self.multiplicity
    }

    /// The buckets; with `canonical`, one rotation of each set that shows the same colours
    /// and identical free pieces in index order.
    fn build(core: &Core, canonical: bool) -> Tables {
        let nc = core.ncolours();
        let pieces = core.pieces();
        let sides = |piece: usize, r: usize| core.oriented((4 * piece + r) as u16).sides;
        let fixed: Vec<bool> = {
            let mut f = vec![false; pieces];
            for cell in 0..core.cells() {
                if let Some(o) = core.fixed(cell) {
                    f[core.oriented(o).piece as usize] = true;
                }
            }
            f
        };
        // A rotation that shows the colours of an earlier one of its piece walks the same
        // subtrees again.
        let repeats = |o: u16| {
            let (piece, r) = (o as usize / 4, o as usize % 4);
            canonical && (0..r).any(|q| sides(piece, q) == sides(piece, r))
        };
        let mut twin = vec![pieces as u16; pieces];
        let mut multiplicity = 1u64;
        if canonical {
            // Pieces keyed by their least rotation: equal keys, identical pieces.
            let mut last: std::collections::HashMap<[u8; 4], (u16, u64)> =
                std::collections::HashMap::new();
            for piece in (0..pieces).filter(|&p| !fixed[p]) {
                let key = (0..4)
                    .map(|r| sides(piece, r))
                    .min()
                    .expect("four rotations");
                let same = (0..4)
                    .filter(|&r| sides(piece, r) == sides(piece, 0))
                    .count();
                multiplicity = multiplicity.saturating_mul(same as u64);
                let slot = last.entry(key).or_insert((pieces as u16, 0));
                twin[piece] = slot.0;
                slot.1 += 1;
                multiplicity = multiplicity.saturating_mul(slot.1);
                slot.0 = piece as u16;
            }
        }
        let mut entries = Vec::new();
        let mut slots = vec![(0, 0, 0); 16 * nc * nc];
        for k in 0..16u8 {
            if core.fitting(k).is_empty() {
                continue;
            }
            for l in 0..nc as u8 {
                for u in 0..nc as u8 {
                    let (exact, one) = core.candidates(k, l, u);
                    let entry = |o: u16| {
                        let s = core.oriented(o);
                        let side = if s.sides[LEFT] == l && s.sides[UP] == u {
                            EXACT
                        } else if s.sides[LEFT] != l {
                            BREAKS_LEFT
                        } else {
                            BREAKS_UP
                        };
                        debug_assert_eq!(o, 4 * s.piece + s.rot as u16);
                        Entry {
                            piece: s.piece,
                            twin: twin[s.piece as usize],
                            right: s.sides[RIGHT],
                            down: s.sides[DOWN],
                            side,
                            rot: s.rot,
                        }
                    };
                    let start = entries.len() as u32;
                    entries.extend(exact.iter().filter(|&&o| !repeats(o)).map(|&o| entry(o)));
                    let ee = entries.len() as u32;
                    entries.extend(one.iter().filter(|&&o| !repeats(o)).map(|&o| entry(o)));
                    slots[(k as usize * nc + l as usize) * nc + u as usize] =
                        (start, ee, entries.len() as u32);
                }
            }
        }
        Tables {
            counted: vec![0; entries.len()],
            entries,
            slots,
            twins: twin.iter().any(|&t| (t as usize) < pieces),
            twin,
            multiplicity,
            sets: None,
        }
    }

    /// These tables with their exact matches also as piece sets, where the puzzle has at
    /// most 64 pieces: a walk without breaks, quota or fixed cells ahead then takes a
    /// candidate by one AND of the bucket's pieces with those still free, instead of
    /// reading each entry's used flag. The walk is the same, placement for placement.
    ///
    /// ```
    /// use tilekit::edge_search::core::Core;
    /// use tilekit::edge_search::scan::Tables;
    /// use tilekit::puzzle::edge::{Board, generate};
    ///
    /// let (p, _) = generate(8, 8, 3, 8, 1).unwrap();
    /// let core = Core::new(&p, &Board::empty(8, 8)).unwrap();
    /// assert!(Tables::new(&core).with_sets(&core).has_sets());
    /// // 81 pieces do not fit one word: the entry loop walks them.
    /// let (p, _) = generate(9, 9, 3, 8, 1).unwrap();
    /// let core = Core::new(&p, &Board::empty(9, 9)).unwrap();
    /// assert!(!Tables::new(&core).with_sets(&core).has_sets());
    /// ```
    pub fn with_sets(mut self, core: &Core) -> Tables {
        self.sets = sets::Sets::build(&self, core.pieces()).map(Arc::new);
        self
    }

    /// Whether these tables hold piece sets ([`Self::with_sets`]; a shuffle drops them).
    pub fn has_sets(&self) -> bool {
        self.sets.is_some()
    }

    /// The buckets without [`Self::new`]'s reductions: every rotation, identical pieces in
    /// any order (each board met as often as it has labellings).
    #[cfg(test)]
    fn labelled(core: &Core) -> Tables {
        Self::build(core, false)
    }

    /// Mark each entry with its sides in `colours` (dense colours), which a colour quota
    /// ([`WalkLimits::quota`]) counts. (Putting those entries first in their buckets, as
    /// Blackwood's lists do, was measured slower on Eternity II and no better per restart:
    /// the pieces that pay the quota are the ones used early, so a walk reads past them.)
    pub fn count_colours(&mut self, core: &Core, colours: &[u8]) {
        for (k, e) in self.counted.iter_mut().zip(&self.entries) {
            let s = core.oriented(e.orient()).sides;
            *k = s.iter().filter(|c| colours.contains(c)).count() as u8;
        }
    }

    /// Shuffle the exact part and the one-break part of every bucket (counted sides move
    /// with their entries).
    pub fn shuffle(&mut self, rng: &mut super::Rng) {
        // The sets hold the canonical order.
        self.sets = None;
        let counts = self.counted.iter().any(|&c| c > 0);
        let mut pairs = Vec::new();
        for &(s, e, end) in &self.slots {
            for range in [s as usize..e as usize, e as usize..end as usize] {
                if !counts {
                    rng.shuffle(&mut self.entries[range]);
                    continue;
                }
                pairs.clear();
                pairs.extend(
                    self.entries[range.clone()]
                        .iter()
                        .copied()
                        .zip(self.counted[range.clone()].iter().copied()),
                );
                rng.shuffle(&mut pairs);
                for (k, &(en, c)) in range.zip(&pairs) {
                    self.entries[k] = en;
                    self.counted[k] = c;
                }
            }
        }
    }
}

/// What the inner loop reads of one position, in one record.
#[derive(Debug, Clone, Copy)]
struct Pos {
    /// The bucket base of the cell's class (`class * nc * nc`).
    base: u32,
    /// The cell.
    cell: u16,
    /// The cell above, or the rim's slot.
    up: u16,
    /// The cell to the left, or the rim's slot.
    left: u16,
    /// Whether a right or lower neighbour is fixed (a slow path checks those seams).
    checks: bool,
}

/// The scan: the free cells in order, with what each position reads and checks.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Per position, the hot fields.
    pos: Vec<Pos>,
    /// Cells of the board (the rim's slot in the colour arrays is `cells`).
    cells: usize,
    /// Per position: a fixed right neighbour (its cell), or [`NONE`].
    fixed_right: Vec<u16>,
    /// Per position: a fixed lower neighbour (its cell), or [`NONE`].
    fixed_down: Vec<u16>,
    /// Per position: whether the seam with the fixed right / lower neighbour is a border
    /// seam (never broken).
    border: Vec<[bool; 2]>,
    /// Colours on the board before the search: fixed cells' right and lower colours.
    right0: Vec<u8>,
    down0: Vec<u8>,
    /// Fixed cells' other two colours (left, up), for the seams to their right / lower free
    /// neighbours' own checks.
    left0: Vec<u8>,
    up0: Vec<u8>,
    /// Pieces used by the fixed cells, and a last slot always used ([`Tables::twin`]).
    used0: Vec<bool>,
    /// Broken seams among the fixed cells themselves.
    pub fixed_breaks: u16,
    nc: usize,
}

impl Plan {
    /// The scan of `core`'s free cells in `order` (every cell's upper and left neighbours
    /// come before it, or are fixed, or are the rim).
    pub fn new(core: &Core, order: ScanOrder) -> Plan {
        let (rows, cols, cells) = (core.rows(), core.cols(), core.cells());
        let nc = core.ncolours();
        let mut right0 = vec![0u8; cells + 1];
        let mut down0 = vec![0u8; cells + 1];
        let mut left0 = vec![0u8; cells + 1];
        let mut up0 = vec![0u8; cells + 1];
        // One more slot, always used: the twin of a piece without one.
        let mut used0 = vec![false; core.pieces() + 1];
        used0[core.pieces()] = true;
        for cell in 0..cells {
            if let Some(o) = core.fixed(cell) {
                let s = core.oriented(o);
                right0[cell] = s.sides[RIGHT];
                down0[cell] = s.sides[DOWN];
                left0[cell] = s.sides[LEFT];
                up0[cell] = s.sides[UP];
                used0[s.piece as usize] = true;
            }
        }
        let mut fixed_breaks = 0u16;
        for cell in 0..cells {
            let (r, c) = (cell / cols, cell % cols);
            if core.fixed(cell).is_none() {
                continue;
            }
            if c + 1 < cols && core.fixed(cell + 1).is_some() && right0[cell] != left0[cell + 1] {
                fixed_breaks += 1;
            }
            if r + 1 < rows && core.fixed(cell + cols).is_some() && down0[cell] != up0[cell + cols]
            {
                fixed_breaks += 1;
            }
        }
        let mut p = Plan {
            pos: Vec::new(),
            cells,
            fixed_right: Vec::new(),
            fixed_down: Vec::new(),
            border: Vec::new(),
            right0,
            down0,
            left0,
            up0,
            used0,
            fixed_breaks,
            nc,
        };
        for cell in order.cells(rows, cols) {
            if core.fixed(cell).is_some() {
                continue;
            }
            let (r, c) = (cell / cols, cell % cols);
            let fixed = |nb: usize| {
                if core.fixed(nb).is_some() {
                    nb as u16
                } else {
                    NONE
                }
            };
            let right = if c + 1 < cols { fixed(cell + 1) } else { NONE };
            let down = if r + 1 < rows {
                fixed(cell + cols)
            } else {
                NONE
            };
            p.pos.push(Pos {
                base: (core.class(cell) as usize * nc * nc) as u32,
                cell: cell as u16,
                up: if r > 0 { cell - cols } else { cells } as u16,
                left: if c > 0 { cell - 1 } else { cells } as u16,
                checks: right != NONE || down != NONE,
            });
            p.fixed_right.push(right);
            p.fixed_down.push(down);
            p.border
                .push([core.border_seam(cell, RIGHT), core.border_seam(cell, DOWN)]);
        }
        p
    }

    /// Free cells: the positions of the scan.
    pub fn len(&self) -> usize {
        self.pos.len()
    }

    /// Whether every cell is fixed.
    pub fn is_empty(&self) -> bool {
        self.pos.is_empty()
    }

    /// The cell at position `i`.
    pub fn cell(&self, i: usize) -> usize {
        self.pos[i].cell as usize
    }
}

/// One position's frame: the bucket range still to try, the breaks before it, and the cell
/// whose seam the placed entry broke.
#[derive(Debug, Clone, Copy, Default)]
struct Frame {
    cur: u32,
    exact_end: u32,
    end: u32,
    before: u16,
    partner: u16,
}

/// Extra breaks of entry `e` at position `i` against fixed right / lower neighbours, and
/// the cell of the broken seam: `None` when it breaks a border seam, or more than one of
/// its seams, or a seam whose other cell already has one broken (`brk`).
#[cold]
fn against_fixed(plan: &Plan, brk: &[bool], i: usize, e: Entry) -> Option<(u16, u16)> {
    let mut extra = 0u16;
    let mut partner = NONE;
    // The fixed neighbour, the colour it shows towards this cell, this entry's colour
    // there, and whether the seam is a border seam.
    for (nb, shows, mine, border) in [
        (plan.fixed_right[i], &plan.left0, e.right, plan.border[i][0]),
        (plan.fixed_down[i], &plan.up0, e.down, plan.border[i][1]),
    ] {
        if nb != NONE && shows[nb as usize] != mine {
            if border || brk[nb as usize] {
                return None;
            }
            extra += 1;
            partner = nb;
        }
    }
    (extra + (e.side != EXACT) as u16 <= 1).then_some((extra, partner))
}

/// Why a walk returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WalkEnd {
    /// Every placement below the start position was tried.
    Exhausted,
    /// The leaf callback asked to stop.
    Stopped,
    /// The node cap, the deadline or the shared stop flag.
    Limit,
}

/// What a walk does once a stretch of placements ends on an event.
enum AfterStretch {
    /// Return.
    End(WalkEnd),
    /// The leaf was heard: take its piece back and go on at the same position.
    TakeBack,
    /// Open the next position.
    Deeper,
}

/// The positions a walk covers, and the breaks before them.
#[derive(Debug, Clone, Copy)]
pub struct Span {
    /// The first position walked (those before are placed).
    pub from: usize,
    /// The position count at which a walk is a leaf.
    pub to: usize,
    /// Broken seams among the positions before `from` and the fixed cells.
    pub before: u16,
}

/// Limits of one walk.
pub struct WalkLimits<'a> {
    /// Placements in this walk.
    pub node_cap: u64,
    /// When to stop.
    pub deadline: Option<Instant>,
    /// Set by another worker to stop everyone.
    pub stop: &'a AtomicBool,
    /// Stop once this holds an index below the second: an exact search's first board was
    /// found on an earlier prefix than the one walked.
    pub beaten: Option<(&'a AtomicUsize, usize)>,
    /// Per position, the fewest counted sides ([`Tables::count_colours`]) the board must
    /// hold once that position is placed (Blackwood's colour quota: scarce colours spent
    /// early keep the endgame's pieces able to match); empty: no quota.
    pub quota: &'a [u16],
}

/// A worker's board and stack.
#[derive(Debug, Clone)]
pub struct Walker {
    right: Vec<u8>,
    down: Vec<u8>,
    /// Per cell (rim slot last, never set): whether one of its seams is broken.
    brk: Vec<bool>,
    used: Vec<bool>,
    frames: Vec<Frame>,
    /// Per position: the entry placed there.
    path: Vec<u32>,
    /// Placements, in all and per depth (`hist[d]`: placements of position `d`).
    pub nodes: u64,
    /// See [`nodes`](Self::nodes).
    pub hist: Vec<u64>,
    /// Track the deepest partial board (and the fewest breaks at that depth).
    pub track_deepest: bool,
    /// The deepest position count reached, its breaks, and its path.
    pub deepest: (usize, u16, Vec<u32>),
    /// How many other paths as deep as [`Self::deepest`] to keep in [`Self::as_deep`].
    pub keep_as_deep: usize,
    /// Other paths the walk took to the deepest position count (the first ones met, and
    /// those the deepest replaced), at most [`Self::keep_as_deep`].
    pub as_deep: Vec<Vec<u32>>,
    /// Per position, the counted sides among the positions before it (kept only while a
    /// quota is on, and outside [`Frame`] so that a frame stays 16 bytes).
    counted: Vec<u16>,
    /// The set loop's frames ([`Tables::with_sets`]), made on first use.
    set_frames: Vec<sets::SetFrame>,
}

impl Walker {
    /// A walker with the fixed cells on the board and nothing else.
    pub fn new(plan: &Plan) -> Walker {
        let n = plan.len();
        Walker {
            right: plan.right0.clone(),
            down: plan.down0.clone(),
            brk: vec![false; plan.cells + 1],
            used: plan.used0.clone(),
            frames: vec![Frame::default(); n],
            path: vec![0; n],
            nodes: 0,
            hist: vec![0; n],
            track_deepest: false,
            deepest: (0, u16::MAX, Vec::new()),
            keep_as_deep: 0,
            as_deep: Vec::new(),
            counted: vec![0; n],
            set_frames: Vec::new(),
        }
    }

    /// Clear the board back to the fixed cells (the counters stay).
    pub fn reset(&mut self, plan: &Plan) {
        self.right.copy_from_slice(&plan.right0);
        self.down.copy_from_slice(&plan.down0);
        self.brk.iter_mut().for_each(|b| *b = false);
        self.used.copy_from_slice(&plan.used0);
        self.deepest = (0, u16::MAX, Vec::new());
        self.as_deep.clear();
    }

    /// The entries placed at positions `0..depth`.
    pub fn path(&self, depth: usize) -> &[u32] {
        &self.path[..depth]
    }

    /// The rotated piece of every cell for `path` (fixed cells included, `u16::MAX` for the
    /// cells past it).
    pub fn cells_of(core: &Core, plan: &Plan, tables: &Tables, path: &[u32]) -> Vec<u16> {
        let mut cells: Vec<u16> = (0..core.cells())
            .map(|c| core.fixed(c).unwrap_or(u16::MAX))
            .collect();
        for (i, &e) in path.iter().enumerate() {
            cells[plan.cell(i)] = tables.entries[e as usize].orient();
        }
        cells
    }

    /// Open position `i` with `before` breaks so far.
    #[inline(always)]
    fn open(&mut self, plan: &Plan, tables: &Tables, i: usize, before: u16) {
        let at = plan.pos[i];
        let l = self.right[at.left as usize] as usize;
        let u = self.down[at.up as usize] as usize;
        let (s, e, end) = tables.slots[at.base as usize + l * plan.nc + u];
        self.frames[i] = Frame {
            cur: s,
            exact_end: e,
            end,
            before,
            partner: NONE,
        };
    }

    /// [`against_fixed`] on this walker's board.
    fn against_fixed(&self, plan: &Plan, i: usize, e: Entry) -> Option<(u16, u16)> {
        against_fixed(plan, &self.brk, i, e)
    }

    /// Place the entries of `prefix` at positions `0..prefix.len()` (as a walk would), with
    /// the budget's breaks counted. The board must be reset.
    pub fn place_prefix(&mut self, plan: &Plan, tables: &Tables, prefix: &[u32]) {
        let mut before = plan.fixed_breaks;
        for (i, &at) in prefix.iter().enumerate() {
            self.open(plan, tables, i, before);
            let e = tables.entries[at as usize];
            let mut b = (e.side != EXACT) as u16;
            let mut partner = match e.side {
                BREAKS_LEFT => plan.pos[i].left,
                BREAKS_UP => plan.pos[i].up,
                _ => NONE,
            };
            if plan.fixed_right[i] != NONE || plan.fixed_down[i] != NONE {
                let (x, p) = self.against_fixed(plan, i, e).expect("a walked prefix");
                b += x;
                if p != NONE {
                    partner = p;
                }
            }
            self.set(plan, i, at, e, partner);
            before += b;
            self.frames[i].before = before - b;
        }
        if prefix.len() < plan.len() {
            self.frames[prefix.len()].before = before;
        }
    }

    #[inline(always)]
    fn set(&mut self, plan: &Plan, i: usize, at: u32, e: Entry, partner: u16) {
        let cell = plan.pos[i].cell as usize;
        self.used[e.piece as usize] = true;
        self.right[cell] = e.right;
        self.down[cell] = e.down;
        self.path[i] = at;
        if partner != NONE {
            self.brk[cell] = true;
            self.brk[partner as usize] = true;
        }
        self.frames[i].partner = partner;
    }

    #[inline(always)]
    fn unset(&mut self, plan: &Plan, tables: &Tables, i: usize) {
        let e = tables.entries[self.path[i] as usize];
        self.used[e.piece as usize] = false;
        let partner = self.frames[i].partner;
        if partner != NONE {
            self.brk[plan.pos[i].cell as usize] = false;
            self.brk[partner as usize] = false;
        }
    }

    /// Walk positions `from..to` of `span` depth first, with positions `0..from` placed and
    /// `before` breaks among them; `on_leaf` hears every walk that reaches `to` (the board then holds
    /// positions `0..to`) and returns true to stop. `allowed[i]`: the breaks allowed once
    /// position `i` is placed.
    pub fn walk(
        &mut self,
        tables: (&Plan, &Tables),
        allowed: &[u16],
        span: Span,
        limits: &WalkLimits,
        on_leaf: &mut dyn FnMut(&Walker) -> bool,
    ) -> WalkEnd {
        if span.from >= span.to {
            return if on_leaf(self) {
                WalkEnd::Stopped
            } else {
                WalkEnd::Exhausted
            };
        }
        if Self::sets_apply(tables.0, tables.1, allowed, &span, limits)
            && let Some(sets) = tables.1.sets.as_deref()
        {
            let mut frames = std::mem::take(&mut self.set_frames);
            frames.resize(tables.0.len(), Default::default());
            let end = if tables.1.twins {
                self.walk_sets::<true>(tables, sets, &mut frames, span, limits, on_leaf)
            } else {
                self.walk_sets::<false>(tables, sets, &mut frames, span, limits, on_leaf)
            };
            self.set_frames = frames;
            return end;
        }
        // Four builds of the loop: without a quota it has no quota test at all, and on a
        // puzzle without identical pieces no twin test.
        match (limits.quota.iter().any(|&q| q > 0), tables.1.twins) {
            (true, true) => self.walk_with::<true, true>(tables, allowed, span, limits, on_leaf),
            (true, false) => self.walk_with::<true, false>(tables, allowed, span, limits, on_leaf),
            (false, true) => self.walk_with::<false, true>(tables, allowed, span, limits, on_leaf),
            (false, false) => {
                self.walk_with::<false, false>(tables, allowed, span, limits, on_leaf)
            }
        }
    }

    /// [`Self::walk`] of a span of at least one position, with the quota's test when
    /// `QUOTA` and the twins' when `TWINS`.
    #[inline(never)]
    fn walk_with<const QUOTA: bool, const TWINS: bool>(
        &mut self,
        (plan, tables): (&Plan, &Tables),
        allowed: &[u16],
        Span { from, to, before }: Span,
        limits: &WalkLimits,
        on_leaf: &mut dyn FnMut(&Walker) -> bool,
    ) -> WalkEnd {
        let start_nodes = self.nodes;
        let entries = &tables.entries[..];
        let counted_of = &tables.counted[..];
        let slots = &tables.slots[..];
        let pos = &plan.pos[..to];
        let allowed = &allowed[..to];
        let quota = limits.quota;
        let nc = plan.nc;
        if QUOTA {
            self.counted[from] = self.path[..from]
                .iter()
                .map(|&at| counted_of[at as usize] as u16)
                .sum();
        }
        let mut i = from;
        self.open(plan, tables, i, before);
        // The frame of position `i`, kept in registers; it is stored when an entry is placed,
        // and read back when the walk backtracks to `i`.
        let mut f = self.frames[i];
        // The breaks once the last entry placed is.
        let mut now = before;
        loop {
            // A stretch of placements and backtracks, with the board's arrays borrowed as
            // slices (so the compiler need not reload them after every write), up to an
            // event that needs the whole walker: the walk exhausted, or a placement that may
            // be the deepest, fall on a limit check, or complete a leaf. The loop reads the
            // per-position record, the bucket's entries and the used flags, and writes two
            // colour bytes and the frame per placement; everything else is off the hot path
            // ([`against_fixed`], the deepest board, the limits every 65,536 placements).
            let placed = {
                let deep = self.deep_mark();
                let used = &mut self.used[..];
                let right = &mut self.right[..];
                let down = &mut self.down[..];
                let brk = &mut self.brk[..];
                let frames = &mut self.frames[..to];
                let path = &mut self.path[..to];
                let hist = &mut self.hist[..to];
                let counted = &mut self.counted[..];
                let mut nodes = self.nodes;
                loop {
                    let at_pos = pos[i];
                    let mut cur = f.cur;
                    let mut found: Option<(u32, Entry, u16, u16)> = None;
                    // The counted sides the entry placed here must bring; more than a piece
                    // has leaves nothing to try.
                    let need = if QUOTA {
                        quota[i].saturating_sub(counted[i])
                    } else {
                        0
                    };
                    if QUOTA && need > 4 {
                        cur = f.end;
                    }
                    while cur < f.exact_end {
                        let at = cur;
                        let e = entries[at as usize];
                        cur += 1;
                        if used[e.piece as usize]
                            || TWINS && !used[e.twin as usize]
                            || QUOTA && (counted_of[at as usize] as u16) < need
                        {
                            continue;
                        }
                        if at_pos.checks {
                            match against_fixed(plan, brk, i, e) {
                                Some((x, p)) if f.before + x <= allowed[i] => {
                                    found = Some((at, e, x, p));
                                    break;
                                }
                                _ => continue,
                            }
                        }
                        found = Some((at, e, 0, NONE));
                        break;
                    }
                    if found.is_none() && cur < f.end {
                        if f.before < allowed[i] {
                            // The used and quota tests are written out again: sharing them
                            // with the exact part through a closure cost 9 % of the rate.
                            while cur < f.end {
                                let at = cur;
                                let e = entries[at as usize];
                                cur += 1;
                                if used[e.piece as usize]
                                    || TWINS && !used[e.twin as usize]
                                    || QUOTA && (counted_of[at as usize] as u16) < need
                                {
                                    continue;
                                }
                                let partner = if e.side == BREAKS_LEFT {
                                    at_pos.left
                                } else {
                                    at_pos.up
                                };
                                if brk[partner as usize] {
                                    continue;
                                }
                                if at_pos.checks
                                    && !matches!(against_fixed(plan, brk, i, e), Some((0, _)))
                                {
                                    continue;
                                }
                                found = Some((at, e, 1, partner));
                                break;
                            }
                        } else {
                            cur = f.end;
                        }
                    }
                    let Some((at, e, b, partner)) = found else {
                        if i == from {
                            self.nodes = nodes;
                            break false;
                        }
                        i -= 1;
                        f = frames[i];
                        used[entries[path[i] as usize].piece as usize] = false;
                        if f.partner != NONE {
                            brk[pos[i].cell as usize] = false;
                            brk[f.partner as usize] = false;
                        }
                        continue;
                    };
                    f.cur = cur;
                    f.partner = partner;
                    frames[i] = f;
                    let cell = at_pos.cell as usize;
                    used[e.piece as usize] = true;
                    right[cell] = e.right;
                    down[cell] = e.down;
                    path[i] = at;
                    if partner != NONE {
                        brk[cell] = true;
                        brk[partner as usize] = true;
                    }
                    nodes += 1;
                    hist[i] += 1;
                    now = f.before + b;
                    if i + 1 >= deep || nodes & 0xFFFF == 0 || i + 1 == to {
                        self.nodes = nodes;
                        break true;
                    }
                    i += 1;
                    if QUOTA {
                        counted[i] = counted[i - 1] + counted_of[at as usize] as u16;
                    }
                    let next = pos[i];
                    let l = right[next.left as usize] as usize;
                    let u = down[next.up as usize] as usize;
                    let (s, e, end) = slots[next.base as usize + l * nc + u];
                    f = Frame {
                        cur: s,
                        exact_end: e,
                        end,
                        before: now,
                        partner: NONE,
                    };
                }
            };
            if !placed {
                return WalkEnd::Exhausted;
            }
            match self.after_stretch(i, now, to, (limits, start_nodes), on_leaf) {
                AfterStretch::End(end) => return end,
                AfterStretch::TakeBack => {
                    self.unset(plan, tables, i);
                    continue;
                }
                AfterStretch::Deeper => {}
            }
            i += 1;
            if QUOTA {
                self.counted[i] =
                    self.counted[i - 1] + counted_of[self.path[i - 1] as usize] as u16;
            }
            self.open(plan, tables, i, now);
            f = self.frames[i];
        }
    }

    /// One step of a fit profile's descent at position `i` (positions `0..i` placed): the
    /// exact and the one-break candidates a walk could place there (piece unused and its
    /// twin used, no seam broken twice at a cell, fixed neighbours respected), counted; then
    /// an exact one placed at random if there is one, else a one-break one. `None` where
    /// there is neither: the descent ends.
    pub fn probe_step(
        &mut self,
        (plan, tables): (&Plan, &Tables),
        i: usize,
        rng: &mut super::Rng,
    ) -> (usize, usize, bool) {
        self.open(plan, tables, i, 0);
        let f = self.frames[i];
        let at_pos = plan.pos[i];
        let (mut clean, mut broken) = (0usize, 0usize);
        // Two passes: count, then take the chosen one, so nothing is allocated.
        let candidate = |at: u32| -> Option<(Entry, u16, bool)> {
            let e = tables.entries[at as usize];
            if self.used[e.piece as usize] || !self.used[e.twin as usize] {
                return None;
            }
            let (mut b, mut partner) = match e.side {
                EXACT => (0, NONE),
                BREAKS_LEFT => (1, at_pos.left),
                _ => (1, at_pos.up),
            };
            if partner != NONE && self.brk[partner as usize] {
                return None;
            }
            if at_pos.checks {
                let (x, p) = self.against_fixed(plan, i, e)?;
                b += x;
                if p != NONE {
                    partner = p;
                }
            }
            Some((e, partner, b == 0))
        };
        for at in f.cur..f.end {
            match candidate(at) {
                Some((_, _, true)) => clean += 1,
                Some(_) => broken += 1,
                None => {}
            }
        }
        let (want_clean, count) = if clean > 0 {
            (true, clean)
        } else {
            (false, broken)
        };
        if count == 0 {
            return (clean, broken, false);
        }
        let mut k = rng.below(count);
        for at in f.cur..f.end {
            if let Some((e, partner, c)) = candidate(at)
                && c == want_clean
            {
                if k == 0 {
                    self.set(plan, i, at, e, partner);
                    return (clean, broken, true);
                }
                k -= 1;
            }
        }
        unreachable!("the chosen candidate was counted")
    }

    /// Keep the board as the deepest when it is deeper, or as deep with fewer breaks; keep
    /// other boards as deep in [`Self::as_deep`] while there is room.
    #[cold]
    fn note_deepest(&mut self, i: usize, now: u16) {
        let deeper = i + 1 > self.deepest.0;
        if deeper {
            self.as_deep.clear();
        }
        let room = self.as_deep.len() < self.keep_as_deep;
        if deeper || now < self.deepest.1 {
            if !deeper && room {
                self.as_deep.push(std::mem::take(&mut self.deepest.2));
            }
            self.deepest.0 = i + 1;
            self.deepest.1 = now;
            self.deepest.2.clear();
            self.deepest.2.extend_from_slice(&self.path[..=i]);
        } else if room {
            self.as_deep.push(self.path[..=i].to_vec());
        }
    }

    /// The depth at which a placement may make the deepest board (none where untracked).
    #[inline(always)]
    fn deep_mark(&self) -> usize {
        if self.track_deepest {
            self.deepest.0
        } else {
            usize::MAX
        }
    }

    /// The events after a stretch of a walk ended on a placement at position `i` (`breaks`
    /// broken seams on the board), in this order: a possibly deepest board, the limits
    /// every 65,536 placements, a leaf at `to`.
    #[inline(always)]
    fn after_stretch(
        &mut self,
        i: usize,
        breaks: u16,
        to: usize,
        (limits, start_nodes): (&WalkLimits, u64),
        on_leaf: &mut dyn FnMut(&Walker) -> bool,
    ) -> AfterStretch {
        if self.track_deepest && i + 1 >= self.deepest.0 {
            self.note_deepest(i, breaks);
        }
        if self.nodes & 0xFFFF == 0 && self.limit_reached(limits, start_nodes) {
            return AfterStretch::End(WalkEnd::Limit);
        }
        if i + 1 == to {
            if on_leaf(self) {
                return AfterStretch::End(WalkEnd::Stopped);
            }
            return AfterStretch::TakeBack;
        }
        AfterStretch::Deeper
    }

    #[cold]
    fn limit_reached(&self, limits: &WalkLimits, start_nodes: u64) -> bool {
        self.nodes - start_nodes >= limits.node_cap
            || limits.stop.load(Ordering::Relaxed)
            || limits
                .beaten
                .is_some_and(|(at, j)| at.load(Ordering::Relaxed) < j)
            || limits.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Take back positions `from..to` after a walk that stopped there (the board then holds
    /// `0..from` again).
    pub fn unwind(&mut self, plan: &Plan, tables: &Tables, from: usize, to: usize) {
        for i in (from..to).rev() {
            self.unset(plan, tables, i);
        }
    }
}

/// What an exact search is asked.
#[derive(Debug, Clone)]
pub struct ExactParams {
    /// Fill order.
    pub order: ScanOrder,
    /// Workers.
    pub threads: usize,
    /// Count every perfect board instead of stopping at the first.
    pub all: bool,
    /// Positions enumerated before the work is shared (`None`: the first depth with at
    /// least [`PREFIXES`] prefixes).
    pub prefix_depth: Option<usize>,
    /// Where an earlier run of the same search stopped: its finished prefixes are skipped
    /// and their boards and placements counted. A checkpoint of another search (another
    /// puzzle, order, fixed pieces or prefix depth) is ignored: see
    /// [`ExactResult::resumed`].
    pub resume: Option<ExactCheckpoint>,
}

/// A checkpoint given to an exact search of another puzzle, order, set of fixed pieces or
/// prefix depth: resuming from it would skip the wrong prefixes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "the checkpoint belongs to another search (its {prefixes} prefixes of {prefix_depth} cells are not this search's; another puzzle, scan order or fixed pieces?)"
)]
pub struct CheckpointMismatch {
    /// The checkpoint's prefix depth.
    pub prefix_depth: usize,
    /// Its prefix count.
    pub prefixes: usize,
}

impl ExactCheckpoint {
    /// A checkpoint of nothing: what a search that ended before its prefixes were known
    /// leaves.
    pub fn empty() -> ExactCheckpoint {
        ExactCheckpoint {
            fingerprint: String::new(),
            prefix_depth: 0,
            prefixes: 0,
            done: Vec::new(),
            solutions: 0,
            nodes: 0,
            first: None,
        }
    }
}

/// Where an exact search stands, to resume it: the prefixes finished, what they held, and
/// the first perfect board found. Saved as JSON.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ExactCheckpoint {
    /// The search it belongs to (the scan, the candidate buckets and the prefixes).
    pub fingerprint: String,
    /// Positions per prefix.
    pub prefix_depth: usize,
    /// Prefixes in all.
    pub prefixes: usize,
    /// The finished prefixes, as half-open ranges of their indices.
    pub done: Vec<(usize, usize)>,
    /// Perfect boards in the finished prefixes.
    pub solutions: u64,
    /// Placements of the enumeration and of the finished prefixes.
    pub nodes: u64,
    /// The first perfect board found: its prefix and the candidate entries of its path.
    pub first: Option<(usize, Vec<u32>)>,
}

/// The prefixes an exact search aims to share out: enough for the threads to end together.
pub const PREFIXES: usize = 4096;

/// An exact search's progress, for a progress line.
#[derive(Debug, Clone)]
pub struct ExactProgress {
    /// Placements so far.
    pub nodes: u64,
    /// Seconds since the start.
    pub seconds: f64,
    /// Prefixes finished, of all.
    pub prefixes_done: usize,
    /// See [`prefixes_done`](Self::prefixes_done).
    pub prefixes: usize,
    /// Perfect boards so far.
    pub solutions: u64,
    /// The most cells placed so far (fixed ones included).
    pub deepest: usize,
    /// Where the search stands, to resume it later.
    pub checkpoint: ExactCheckpoint,
}

/// What an exact search found.
#[derive(Debug, Clone)]
pub struct ExactResult {
    /// The first perfect board in scan order (rotated pieces per cell), if one was found.
    pub first: Option<Vec<u16>>,
    /// Perfect boards found: all of them when `complete` and `all`; when not complete, those
    /// met so far (some may be met again by a resumed run, which counts them exactly). The
    /// walk meets one of the boards that differ only by swapping identical pieces or turning
    /// a symmetric one, and counts them all ([`Tables::multiplicity`]).
    pub solutions: u64,
    /// Whether the whole tree was searched (so `solutions` is the count, and none found
    /// proves there is none).
    pub complete: bool,
    /// Placements in this run, and per depth of the scan (the checkpoint counts those of
    /// earlier runs too).
    pub nodes: u64,
    /// See [`nodes`](Self::nodes).
    pub hist: Vec<u64>,
    /// Prefix depth and count the work was shared by.
    pub prefix_depth: usize,
    /// See [`prefix_depth`](Self::prefix_depth).
    pub prefixes: usize,
    /// Seconds of the search.
    pub seconds: f64,
    /// The deepest partial board (rotated pieces per cell, `u16::MAX` where empty; the
    /// first reached, in prefix order) and its cells placed, fixed ones included.
    pub deepest: Vec<u16>,
    /// See [`deepest`](Self::deepest).
    pub deepest_depth: usize,
    /// Whether the search resumed from the checkpoint it was given.
    pub resumed: bool,
    /// Where the search stands: all finished when `complete`.
    pub checkpoint: ExactCheckpoint,
}

/// Search `core` for perfect boards (no broken seam): depth first in `params.order`, the
/// work shared out by the prefixes of the first positions. The first board is the first in
/// the serial order of the search whatever the thread count: a worker that finds one stops
/// the workers on later prefixes, and those on earlier ones finish theirs.
///
/// ```
/// use tilekit::edge_search::core::{Core, ScanOrder};
/// use tilekit::edge_search::scan::{ExactParams, exact};
/// use tilekit::puzzle::edge::{Board, generate, score};
///
/// let (puzzle, _planted) = generate(5, 5, 2, 4, 7).unwrap();
/// let core = Core::new(&puzzle, &Board::empty(5, 5)).unwrap();
/// let params = ExactParams {
///     order: ScanOrder::RowMajor,
///     threads: 2,
///     all: true,
///     prefix_depth: None,
///     resume: None,
/// };
/// let found = exact(&core, &params, None, &|_| {}).unwrap();
/// assert!(found.complete && found.solutions >= 1);
/// let board = core.board(found.first.as_ref().unwrap());
/// assert_eq!(score(&puzzle, &board).matched, puzzle.max_score());
/// ```
pub fn exact(
    core: &Core,
    params: &ExactParams,
    deadline: Option<Instant>,
    progress: &(dyn Fn(&ExactProgress) + Sync),
) -> Result<ExactResult, CheckpointMismatch> {
    let started = Instant::now();
    let plan = Plan::new(core, params.order);
    let tables = Tables::new(core).with_sets(core);
    // The walk meets one board of each set that differs only by identical pieces or a
    // symmetric piece's rotation; the count is of boards.
    let per_board = tables.multiplicity();
    let n = plan.len();
    let zero = vec![0u16; n];
    let stop = AtomicBool::new(false);
    if plan.fixed_breaks > 0 {
        // The fixed pieces break a seam between them: no perfect board.
        return Ok(ExactResult {
            first: None,
            solutions: 0,
            complete: true,
            nodes: 0,
            hist: vec![0; n],
            prefix_depth: 0,
            prefixes: 0,
            seconds: started.elapsed().as_secs_f64(),
            deepest: Walker::cells_of(core, &plan, &tables, &[]),
            deepest_depth: core.cells() - n,
            resumed: false,
            checkpoint: ExactCheckpoint::empty(),
        });
    }
    // The prefixes: every walk to depth d, for the first d with enough of them.
    let mut w = Walker::new(&plan);
    w.track_deepest = true;
    let unlimited = WalkLimits {
        node_cap: u64::MAX,
        deadline,
        stop: &stop,
        beaten: None,
        quota: &[],
    };
    let mut enum_limit = false;
    let mut depth = 0;
    let mut prefixes: Vec<Vec<u32>> = vec![Vec::new()];
    let target = params.prefix_depth.unwrap_or(usize::MAX);
    while depth < n
        && depth < target
        && (params.prefix_depth.is_some() || prefixes.len() < PREFIXES)
    {
        let mut next = Vec::new();
        for p in &prefixes {
            let kept = std::mem::take(&mut w.deepest);
            w.reset(&plan);
            w.deepest = kept;
            w.place_prefix(&plan, &tables, p);
            let end = w.walk(
                (&plan, &tables),
                &zero,
                Span {
                    from: p.len(),
                    to: p.len() + 1,
                    before: 0,
                },
                &unlimited,
                &mut |w| {
                    next.push(w.path(depth + 1).to_vec());
                    false
                },
            );
            w.unwind(&plan, &tables, 0, p.len());
            if end == WalkEnd::Limit {
                enum_limit = true;
                break;
            }
        }
        depth += 1;
        prefixes = next;
        if prefixes.is_empty() || enum_limit {
            break;
        }
    }
    let fixed = core.cells() - n;
    // The enumeration's deepest: a prefix when there are any, else the deepest dead end.
    let enum_deepest = match prefixes.first() {
        Some(p) => p.clone(),
        None => w.deepest.2.clone(),
    };
    if enum_limit {
        return Ok(ExactResult {
            first: None,
            solutions: 0,
            complete: false,
            nodes: w.nodes,
            hist: w.hist,
            prefix_depth: depth,
            prefixes: 0,
            seconds: started.elapsed().as_secs_f64(),
            deepest_depth: fixed + enum_deepest.len(),
            deepest: Walker::cells_of(core, &plan, &tables, &enum_deepest),
            resumed: false,
            checkpoint: ExactCheckpoint::empty(),
        });
    }
    let enum_nodes = w.nodes;
    let mut hist = w.hist.clone();
    let total = prefixes.len();
    let fingerprint = fingerprint(&plan, &tables, depth, total);
    // What a checkpoint of this search says was finished before.
    let resumed = params
        .resume
        .as_ref()
        .filter(|c| c.fingerprint == fingerprint);
    let done_before: Vec<bool> = match resumed {
        Some(c) => {
            let mut d = vec![false; total];
            for &(a, b) in &c.done {
                d[a.min(total)..b.min(total)]
                    .iter_mut()
                    .for_each(|x| *x = true);
            }
            d
        }
        None => vec![false; total],
    };
    let next = AtomicUsize::new(0);
    let done_count = AtomicUsize::new(done_before.iter().filter(|&&d| d).count());
    // The lowest prefix index with a perfect board found so far.
    let first_at = AtomicUsize::new(
        resumed
            .and_then(|c| c.first.as_ref())
            .map_or(usize::MAX, |(j, _)| *j),
    );
    if let Some(c) = &params.resume
        && resumed.is_none()
        && !c.done.is_empty()
    {
        return Err(CheckpointMismatch {
            prefix_depth: c.prefix_depth,
            prefixes: c.prefixes,
        });
    }
    let nodes = AtomicU64::new(enum_nodes);
    let limit_hit = AtomicBool::new(false);
    struct Found {
        first: Option<(usize, Vec<u32>)>,
        hist: Vec<u64>,
        /// Depth, prefix index and path of the deepest walk.
        deepest: (usize, usize, Vec<u32>),
        /// Per prefix: finished (this run or before).
        done: Vec<bool>,
        /// Perfect boards and placements in the finished prefixes.
        solutions: u64,
        done_nodes: u64,
        /// Perfect boards met this run, in finished prefixes or not.
        seen: u64,
    }
    let found = Mutex::new(Found {
        first: resumed.and_then(|c| c.first.clone()),
        hist: vec![0; n],
        deepest: (enum_deepest.len(), 0, enum_deepest),
        done: done_before,
        solutions: resumed.map_or(0, |c| c.solutions),
        done_nodes: resumed.map_or(enum_nodes, |c| c.nodes),
        seen: 0,
    });
    let checkpoint = |f: &Found| ExactCheckpoint {
        fingerprint: fingerprint.clone(),
        prefix_depth: depth,
        prefixes: total,
        done: ranges(&f.done),
        solutions: f.solutions,
        nodes: f.done_nodes,
        first: f.first.clone(),
    };
    let deepest_now = AtomicUsize::new(0);
    let last_report = Mutex::new(Instant::now());
    let worker = || {
        let mut w = Walker::new(&plan);
        w.track_deepest = true;
        let mut flushed = 0u64;
        loop {
            let j = next.fetch_add(1, Ordering::Relaxed);
            if j >= total {
                break;
            }
            if (!params.all && j > first_at.load(Ordering::Relaxed))
                || found.lock().expect("an exact worker panicked").done[j]
            {
                continue;
            }
            w.reset(&plan);
            let p = &prefixes[j];
            w.place_prefix(&plan, &tables, p);
            // A worker on a later prefix than a found board stops.
            let limits = WalkLimits {
                node_cap: u64::MAX,
                deadline,
                stop: &stop,
                beaten: (!params.all).then_some((&first_at, j)),
                quota: &[],
            };
            let mut here = 0u64;
            let mut local_first: Option<Vec<u32>> = None;
            let before_walk = w.nodes;
            let end = w.walk(
                (&plan, &tables),
                &zero,
                Span {
                    from: p.len(),
                    to: n,
                    before: 0,
                },
                &limits,
                &mut |w| {
                    here = here.saturating_add(per_board);
                    if local_first.is_none() {
                        local_first = Some(w.path(n).to_vec());
                    }
                    !params.all
                },
            );
            let walked = w.nodes - before_walk;
            nodes.fetch_add(w.nodes - flushed, Ordering::Relaxed);
            flushed = w.nodes;
            let mut f = found.lock().expect("an exact worker panicked");
            let d = &w.deepest;
            if d.0 > f.deepest.0 || (d.0 == f.deepest.0 && j < f.deepest.1) {
                f.deepest = (d.0, j, d.2.clone());
                deepest_now.fetch_max(d.0, Ordering::Relaxed);
            }
            // A perfect board is one whether or not its prefix was finished.
            f.seen += here;
            if let Some(path) = local_first.take() {
                first_at.fetch_min(j, Ordering::Relaxed);
                if f.first.as_ref().is_none_or(|(k, _)| j < *k) {
                    f.first = Some((j, path));
                }
            }
            if end == WalkEnd::Limit {
                if !params.all && first_at.load(Ordering::Relaxed) < j {
                    // Abandoned for an earlier prefix's board. (A count abandons nothing:
                    // its limit is the deadline, which every later prefix would meet again
                    // after a check's worth of placements.)
                    continue;
                }
                limit_hit.store(true, Ordering::Relaxed);
                break;
            }
            if end == WalkEnd::Stopped {
                // The first board ends the walk part-way: the prefix is not finished, so a
                // count resumed from the checkpoint walks it whole.
                continue;
            }
            // Finished: its boards and placements count, in the checkpoint too.
            f.done[j] = true;
            f.solutions += here;
            f.done_nodes += walked;
            done_count.fetch_add(1, Ordering::Relaxed);
            let mut last = last_report.lock().expect("an exact worker panicked");
            if last.elapsed() >= Duration::from_secs(1) {
                *last = Instant::now();
                progress(&ExactProgress {
                    nodes: nodes.load(Ordering::Relaxed),
                    seconds: started.elapsed().as_secs_f64(),
                    prefixes_done: done_count.load(Ordering::Relaxed),
                    prefixes: total,
                    solutions: f.seen + resumed.map_or(0, |c| c.solutions),
                    deepest: fixed + deepest_now.load(Ordering::Relaxed),
                    checkpoint: checkpoint(&f),
                });
            }
        }
        nodes.fetch_add(w.nodes - flushed, Ordering::Relaxed);
        let mut f = found.lock().expect("an exact worker panicked");
        for (h, x) in f.hist.iter_mut().zip(&w.hist) {
            *h += x;
        }
    };
    if params.threads <= 1 {
        worker();
    } else {
        std::thread::scope(|s| {
            for _ in 0..params.threads {
                s.spawn(worker);
            }
        });
    }
    let f = found.into_inner().expect("an exact worker panicked");
    for (h, x) in hist.iter_mut().zip(&f.hist) {
        *h += x;
    }
    let checkpoint = checkpoint(&f);
    let first_found = f.first.is_some();
    let deepest_depth = fixed + f.deepest.0;
    let deepest = Walker::cells_of(core, &plan, &tables, &f.deepest.2);
    let first = f
        .first
        .map(|(_, path)| Walker::cells_of(core, &plan, &tables, &path));
    let complete = !limit_hit.load(Ordering::Relaxed)
        && (params.all || !first_found)
        && f.done.iter().all(|&d| d);
    // Without `all`, several workers may each have found one; the first is the answer. A
    // count cut short says how many were met; the checkpoint keeps only those of finished
    // prefixes, which a resumed run does not walk again.
    let solutions = match (params.all, complete) {
        (false, _) => first_found as u64,
        (true, true) => f.solutions,
        (true, false) => f.seen + resumed.map_or(0, |c| c.solutions),
    };
    Ok(ExactResult {
        first,
        solutions,
        complete,
        nodes: nodes.load(Ordering::Relaxed),
        hist,
        prefix_depth: depth,
        prefixes: total,
        seconds: started.elapsed().as_secs_f64(),
        deepest,
        deepest_depth,
        resumed: resumed.is_some(),
        checkpoint,
    })
}

/// A fingerprint of an exact search: the scan, the candidate buckets and the prefixes, as
/// a SHA-256. Two searches with the same fingerprint enumerate the same prefixes in the same
/// order, so a checkpoint of one is valid for the other.
pub(crate) fn fingerprint(plan: &Plan, tables: &Tables, depth: usize, prefixes: usize) -> String {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    for p in &plan.pos {
        h.update(p.cell.to_le_bytes());
    }
    h.update(&plan.right0);
    h.update(&plan.down0);
    for e in &tables.entries {
        h.update(e.orient().to_le_bytes());
        h.update([e.side]);
    }
    for &(a, b, c) in &tables.slots {
        for x in [a, b, c] {
            h.update(x.to_le_bytes());
        }
    }
    // Without identical pieces the fingerprint is what it was before they were ordered.
    if tables.twins {
        for t in &tables.twin {
            h.update(t.to_le_bytes());
        }
    }
    h.update((depth as u64).to_le_bytes());
    h.update((prefixes as u64).to_le_bytes());
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// The runs of `true` in `flags` as half-open ranges.
fn ranges(flags: &[bool]) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    for (i, &f) in flags.iter().enumerate() {
        if !f {
            continue;
        }
        match out.last_mut() {
            Some((_, b)) if *b == i => *b = i + 1,
            _ => out.push((i, i + 1)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edge_search::dfs::BreakSpec;
    use crate::puzzle::edge::{Board, EdgePuzzle, Rotation, generate, score};

    /// The placements of an exhaustive walk, per depth, counted without the engine: every
    /// prefix of the scan that keeps the rules (each piece once, grey on the rim and only
    /// there, at most `allowed[d]` broken seams once `d + 1` cells are placed, none between
    /// two rim cells, at most one per cell) is one placement, whatever the order the
    /// candidates are tried in. Pieces and colours are read from the puzzle itself.
    struct Reference<'a> {
        p: &'a EdgePuzzle,
        order: Vec<usize>,
        allowed: Vec<u16>,
        board: Vec<Option<[u16; 4]>>,
        broken: Vec<bool>,
        used: Vec<bool>,
        hist: Vec<u64>,
        leaves: u64,
        /// Walk one board of each set that differs only by identical free pieces (taken in
        /// the order of their ids) or a rotation showing the same colours (the first one).
        canonical: bool,
        /// Pieces fixed on the board: never reordered.
        fixed: Vec<bool>,
    }

    impl Reference<'_> {
        fn rim_cell(&self, cell: usize) -> bool {
            let (r, c) = (cell / self.p.cols(), cell % self.p.cols());
            r == 0 || c == 0 || r + 1 == self.p.rows() || c + 1 == self.p.cols()
        }

        fn go(&mut self, d: usize, breaks: u16) {
            if d == self.order.len() {
                self.leaves += 1;
                return;
            }
            let cell = self.order[d];
            let (rows, cols) = (self.p.rows(), self.p.cols());
            let (r, c) = (cell / cols, cell % cols);
            for pc in self.p.pieces() {
                if self.used[pc.id as usize - 1] {
                    continue;
                }
                let identical = |q: &crate::puzzle::edge::Piece| {
                    Rotation::ALL
                        .iter()
                        .any(|&r| q.placed(r) == pc.placed(Rotation::ALL[0]))
                };
                if self.canonical
                    && self.p.pieces().iter().any(|q| {
                        q.id < pc.id
                            && !self.fixed[q.id as usize - 1]
                            && !self.used[q.id as usize - 1]
                            && identical(q)
                    })
                {
                    continue;
                }
                for (k, rot) in Rotation::ALL.into_iter().enumerate() {
                    let s = pc.placed(rot);
                    if self.canonical && Rotation::ALL[..k].iter().any(|&r| pc.placed(r) == s) {
                        continue;
                    }
                    // up, right, down, left
                    let out = [r == 0, c + 1 == cols, r + 1 == rows, c == 0];
                    if (0..4).any(|k| (s[k] == 0) != out[k]) {
                        continue;
                    }
                    let mut nbs = Vec::new();
                    if r > 0 {
                        nbs.push((cell - cols, 0usize));
                    }
                    if c + 1 < cols {
                        nbs.push((cell + 1, 1));
                    }
                    if r + 1 < rows {
                        nbs.push((cell + cols, 2));
                    }
                    if c > 0 {
                        nbs.push((cell - 1, 3));
                    }
                    let mut bad = Vec::new();
                    for (nb, side) in nbs {
                        if let Some(ns) = self.board[nb]
                            && ns[(side + 2) % 4] != s[side]
                        {
                            bad.push(nb);
                        }
                    }
                    if bad.len() > 1
                        || bad.iter().any(|&nb| {
                            self.broken[nb] || (self.rim_cell(nb) && self.rim_cell(cell))
                        })
                        || breaks + bad.len() as u16 > self.allowed[d]
                    {
                        continue;
                    }
                    self.board[cell] = Some(s);
                    self.used[pc.id as usize - 1] = true;
                    for &nb in &bad {
                        self.broken[nb] = true;
                        self.broken[cell] = true;
                    }
                    self.hist[d] += 1;
                    self.go(d + 1, breaks + bad.len() as u16);
                    for &nb in &bad {
                        self.broken[nb] = false;
                        self.broken[cell] = false;
                    }
                    self.used[pc.id as usize - 1] = false;
                    self.board[cell] = None;
                }
            }
        }
    }

    /// The reference's placements per depth and complete boards for `p` with `fixed`, every
    /// labelling of a board walked.
    fn reference(
        p: &EdgePuzzle,
        fixed: &Board,
        order: ScanOrder,
        allowed: &[u16],
    ) -> (Vec<u64>, u64) {
        reference_with(p, fixed, order, allowed, false)
    }

    /// [`reference`], with `canonical`: one board of each set that differs only by
    /// identical pieces or a symmetric piece's rotation.
    fn reference_with(
        p: &EdgePuzzle,
        fixed: &Board,
        order: ScanOrder,
        allowed: &[u16],
        canonical: bool,
    ) -> (Vec<u64>, u64) {
        let cells = order.cells(p.rows(), p.cols());
        let free: Vec<usize> = cells
            .into_iter()
            .filter(|&c| fixed.cells[c].is_none())
            .collect();
        let mut r = Reference {
            p,
            allowed: allowed.to_vec(),
            hist: vec![0; free.len()],
            order: free,
            board: fixed
                .cells
                .iter()
                .map(|c| c.map(|(id, rot)| p.piece(id).expect("a piece").placed(rot)))
                .collect(),
            broken: vec![false; p.rows() * p.cols()],
            used: vec![false; p.pieces().len()],
            leaves: 0,
            canonical,
            fixed: vec![false; p.pieces().len()],
        };
        for (id, _) in fixed.cells.iter().flatten() {
            r.used[*id as usize - 1] = true;
            r.fixed[*id as usize - 1] = true;
        }
        // Seams broken between two fixed pieces count from the start.
        let (rows, cols) = (p.rows(), p.cols());
        let mut clashes = 0;
        for cell in 0..rows * cols {
            let Some(s) = r.board[cell] else { continue };
            if cell % cols + 1 < cols && r.board[cell + 1].is_some_and(|t| t[3] != s[1]) {
                clashes += 1;
            }
            if cell / cols + 1 < rows && r.board[cell + cols].is_some_and(|t| t[0] != s[2]) {
                clashes += 1;
            }
        }
        r.go(0, clashes);
        (r.hist, r.leaves)
    }

    /// The engine's exhaustive walk: placements per depth and complete boards.
    fn engine(core: &Core, order: ScanOrder, allowed: &[u16], seed: u64) -> (Vec<u64>, u64) {
        engine_with(core, Tables::new(core), order, allowed, seed)
    }

    /// [`engine`] over `tables`.
    fn engine_with(
        core: &Core,
        mut tables: Tables,
        order: ScanOrder,
        allowed: &[u16],
        seed: u64,
    ) -> (Vec<u64>, u64) {
        let plan = Plan::new(core, order);
        tables.shuffle(&mut super::super::Rng::new(seed));
        let mut w = Walker::new(&plan);
        let stop = AtomicBool::new(false);
        let limits = WalkLimits {
            node_cap: u64::MAX,
            deadline: None,
            stop: &stop,
            beaten: None,
            quota: &[],
        };
        let mut leaves = 0u64;
        let end = w.walk(
            (&plan, &tables),
            allowed,
            Span {
                from: 0,
                to: plan.len(),
                before: plan.fixed_breaks,
            },
            &limits,
            &mut |_| {
                leaves += 1;
                false
            },
        );
        assert_eq!(end, WalkEnd::Exhausted);
        assert_eq!(w.nodes, w.hist.iter().sum::<u64>());
        (w.hist, leaves)
    }

    #[test]
    fn the_engine_places_exactly_what_the_rules_allow_at_every_depth() {
        for seed in 1..=3u64 {
            let (p, planted) = generate(4, 4, 2, 3, seed).unwrap();
            let mut fixed = Board::empty(4, 4);
            if seed == 3 {
                // An inner cell and a rim cell fixed: their seams are checked by the cells
                // before them in the scan.
                fixed.cells[6] = planted.cells[6];
                fixed.cells[11] = planted.cells[11];
            }
            let core = Core::new(&p, &fixed).unwrap();
            let free = Plan::new(&core, ScanOrder::RowMajor).len();
            for (order, spec) in [
                (ScanOrder::RowMajor, BreakSpec::Total(0)),
                (ScanOrder::RowMajor, BreakSpec::Table(vec![(3, 1), (9, 3)])),
                (ScanOrder::Comb(2), BreakSpec::Total(2)),
            ] {
                let allowed = spec.table(free).0;
                for canonical in [false, true] {
                    let tables = if canonical {
                        Tables::new(&core)
                    } else {
                        Tables::labelled(&core)
                    };
                    let mine = engine_with(&core, tables, order, &allowed, seed);
                    let theirs = reference_with(&p, &fixed, order, &allowed, canonical);
                    assert_eq!(
                        mine, theirs,
                        "seed {seed}, {order:?}, {spec:?}, {canonical}"
                    );
                    assert!(theirs.0.iter().sum::<u64>() > 0);
                }
            }
        }
    }

    /// How a walk ended, its placements per depth, every leaf's path in order, the deepest
    /// path, and whether the set loop walked it.
    type Walked = (WalkEnd, Vec<u64>, Vec<Vec<u32>>, (usize, Vec<u32>), bool);

    /// A walk from the empty board over `tables` without breaks, the deepest board tracked
    /// and at most `cap` placements.
    fn leaves_of(core: &Core, tables: &Tables, order: ScanOrder, cap: u64) -> Walked {
        let plan = Plan::new(core, order);
        let mut w = Walker::new(&plan);
        w.track_deepest = true;
        let stop = AtomicBool::new(false);
        let limits = WalkLimits {
            node_cap: cap,
            deadline: None,
            stop: &stop,
            beaten: None,
            quota: &[],
        };
        let mut leaves = Vec::new();
        let n = plan.len();
        let end = w.walk(
            (&plan, tables),
            &vec![0; n],
            Span {
                from: 0,
                to: n,
                before: 0,
            },
            &limits,
            &mut |w| {
                leaves.push(w.path(n).to_vec());
                false
            },
        );
        let sets = !w.set_frames.is_empty();
        (end, w.hist, leaves, (w.deepest.0, w.deepest.2), sets)
    }

    #[test]
    fn the_set_loop_walks_what_the_entry_loop_walks() {
        let mut walked = 0;
        // Few colours: identical pieces, symmetric ones and pieces with three equal sides
        // (two rotations in one bucket); more colours: larger boards; 8×8 fills the word.
        let mut cases: Vec<(usize, usize, u16, u16, u64)> = Vec::new();
        for seed in 1..=8 {
            cases.push((4, 4, 1, 2, seed));
            cases.push((4, 4, 2, 3, seed));
        }
        cases.extend([
            (5, 5, 2, 2, 1),
            (5, 5, 2, 4, 2),
            (6, 6, 2, 5, 3),
            (8, 8, 3, 12, 4),
        ]);
        let (mut second_rotations, mut leaves) = (false, 0);
        for (rows, cols, frame, inner, seed) in cases {
            let (p, planted) = generate(rows, cols, frame, inner, seed).unwrap();
            for fix_corner in [false, true] {
                let mut fixed = Board::empty(rows, cols);
                if fix_corner {
                    // Behind every free cell of the row scan: the set loop still applies.
                    fixed.cells[0] = planted.cells[0];
                }
                let core = Core::new(&p, &fixed).unwrap();
                let plain = Tables::new(&core);
                let with = Tables::new(&core).with_sets(&core);
                second_rotations |= with
                    .sets
                    .as_ref()
                    .unwrap_or_else(|| panic!("{rows}x{cols} {frame}/{inner} seed {seed}: no sets"))
                    .has_second_rotations();
                // Larger boards are walked as far as a cap (the limit falls on the same
                // placement in both loops, or it is a bug).
                let whole = if rows * cols <= 16 {
                    u64::MAX
                } else {
                    3_000_000
                };
                for order in [ScanOrder::RowMajor, ScanOrder::Comb(2)] {
                    for cap in [whole, 200_000] {
                        let a = leaves_of(&core, &plain, order, cap);
                        let b = leaves_of(&core, &with, order, cap);
                        assert!(!a.4 && b.4, "{rows}x{cols} seed {seed}");
                        assert_eq!(
                            (a.0, &a.1, &a.2, &a.3),
                            (b.0, &b.1, &b.2, &b.3),
                            "{rows}x{cols} {frame}/{inner} seed {seed}, {order:?}, cap {cap}"
                        );
                        walked += 1;
                        if cap == u64::MAX {
                            assert_eq!(a.0, WalkEnd::Exhausted);
                            assert!(!a.2.is_empty(), "{rows}x{cols} seed {seed}: planted");
                        }
                        leaves += a.2.len();
                    }
                }
            }
        }
        assert!(
            second_rotations,
            "no piece with two rotations in one bucket"
        );
        assert!(leaves > 100, "{leaves} boards");
        assert_eq!(walked, 20 * 2 * 2 * 2);
        // Past 64 pieces the entry loop walks.
        let (p, _) = generate(5, 14, 2, 9, 4).unwrap();
        let core = Core::new(&p, &Board::empty(5, 14)).unwrap();
        assert!(Tables::new(&core).with_sets(&core).sets.is_none());
        // A fixed piece ahead of a free cell (its seam checked as that cell is placed)
        // leaves the walk to the entry loop.
        let (p, planted) = generate(4, 4, 2, 3, 1).unwrap();
        let mut fixed = Board::empty(4, 4);
        fixed.cells[6] = planted.cells[6];
        let core = Core::new(&p, &fixed).unwrap();
        let with = Tables::new(&core).with_sets(&core);
        let b = leaves_of(&core, &with, ScanOrder::RowMajor, u64::MAX);
        assert!(!b.4);
        assert_eq!(
            (b.1, b.2.len() as u64),
            reference_with(&p, &fixed, ScanOrder::RowMajor, &[0; 15], true)
        );
    }

    #[test]
    fn identical_and_symmetric_pieces_are_walked_once_and_counted_in_full() {
        let (mut reduced, mut turned) = (0, 0);
        // Seeds 5 and 12 have pieces with two and four equal rotations.
        for seed in [1u64, 2, 3, 4, 5, 12] {
            let (p, planted) = generate(4, 4, 2, 3, seed).unwrap();
            let mut fixed = Board::empty(4, 4);
            if seed == 4 {
                // A fixed piece stays out of its twins' order.
                fixed.cells[5] = planted.cells[5];
            }
            let core = Core::new(&p, &fixed).unwrap();
            let zero = vec![0u16; Plan::new(&core, ScanOrder::RowMajor).len()];
            let tables = Tables::new(&core);
            let per_board = tables.multiplicity();
            turned += (tables.entries.len() < Tables::labelled(&core).entries.len()) as usize;
            let (all_hist, all) = engine_with(
                &core,
                Tables::labelled(&core),
                ScanOrder::RowMajor,
                &zero,
                1,
            );
            let (one_hist, one) = engine_with(&core, tables, ScanOrder::RowMajor, &zero, 1);
            assert!(all > 0, "seed {seed}: a planted board");
            assert_eq!(one * per_board, all, "seed {seed}");
            let params = ExactParams {
                order: ScanOrder::RowMajor,
                threads: 2,
                all: true,
                prefix_depth: None,
                resume: None,
            };
            assert_eq!(exact(&core, &params, None, &|_| {}).unwrap().solutions, all);
            let (walked, labelled) = (one_hist.iter().sum::<u64>(), all_hist.iter().sum::<u64>());
            if per_board > 1 {
                assert!(walked < labelled, "seed {seed}: {walked} of {labelled}");
                reduced += 1;
            } else {
                assert_eq!(walked, labelled);
            }
        }
        // Three colours inside: these puzzles repeat pieces.
        assert!(reduced >= 5 && turned >= 2, "{reduced} {turned}");
    }

    #[test]
    fn the_candidate_order_changes_the_path_not_the_count() {
        let (p, _) = generate(4, 4, 2, 3, 11).unwrap();
        let core = Core::new(&p, &Board::empty(4, 4)).unwrap();
        let allowed = BreakSpec::Total(1).table(16).0;
        let a = engine(&core, ScanOrder::RowMajor, &allowed, 1);
        let b = engine(&core, ScanOrder::RowMajor, &allowed, 2);
        assert_eq!(a, b);
    }

    #[test]
    fn the_exact_search_finds_planted_boards_and_counts_them_alike_on_any_thread_count() {
        for seed in [2u64, 5] {
            let (p, _) = generate(4, 5, 2, 4, seed).unwrap();
            let core = Core::new(&p, &Board::empty(4, 5)).unwrap();
            let zero = vec![0u16; 20];
            let (_, leaves) = reference(&p, &Board::empty(4, 5), ScanOrder::RowMajor, &zero);
            let run = |threads: usize, all: bool, prefix: Option<usize>| {
                let params = ExactParams {
                    order: ScanOrder::RowMajor,
                    threads,
                    all,
                    prefix_depth: prefix,
                    resume: None,
                };
                exact(&core, &params, None, &|_| {}).unwrap()
            };
            let one = run(1, true, None);
            assert!(one.complete);
            assert_eq!(one.solutions, leaves, "seed {seed}");
            assert!(leaves > 0);
            let two = run(2, true, Some(3));
            assert_eq!((two.solutions, two.nodes), (one.solutions, one.nodes));
            assert_eq!(two.hist, one.hist);
            // The first board: the same whatever the threads, and a perfect one by the
            // puzzle's own count.
            let first = run(1, false, None);
            let again = run(2, false, None);
            let board = core.board(first.first.as_ref().unwrap());
            assert_eq!(again.first, first.first);
            let sc = score(&p, &board);
            assert_eq!(
                (sc.matched, sc.empty, sc.repeats, sc.rim_faults),
                (p.max_score(), 0, 0, 0)
            );
            assert!(!first.complete);
        }
    }

    #[test]
    fn a_resumed_exact_search_skips_the_finished_prefixes_and_counts_the_rest() {
        let (p, _) = generate(5, 5, 2, 3, 9).unwrap();
        let core = Core::new(&p, &Board::empty(5, 5)).unwrap();
        let params = |resume: Option<ExactCheckpoint>, depth: Option<usize>| ExactParams {
            order: ScanOrder::RowMajor,
            threads: 2,
            all: true,
            prefix_depth: depth,
            resume,
        };
        let full = exact(&core, &params(None, Some(4)), None, &|_| {}).unwrap();
        assert!(full.complete && full.solutions > 0 && !full.resumed);
        let c = full.checkpoint.clone();
        assert_eq!(c.done, vec![(0, c.prefixes)]);
        assert!(c.prefixes >= 4, "{}", c.prefixes);
        // Two halves, each resumed from a checkpoint that says the other half is done.
        let half = c.prefixes / 2;
        let part = |done: (usize, usize)| {
            let ck = ExactCheckpoint {
                done: vec![done],
                solutions: 0,
                nodes: 0,
                first: None,
                ..c.clone()
            };
            let r = exact(&core, &params(Some(ck), Some(4)), None, &|_| {}).unwrap();
            assert!(r.resumed && r.complete);
            assert_eq!(r.checkpoint.done, vec![(0, c.prefixes)]);
            r.solutions
        };
        assert_eq!(part((0, half)) + part((half, c.prefixes)), full.solutions);
        // A checkpoint of another search is refused, not silently dropped.
        let other = ExactCheckpoint {
            fingerprint: "0".repeat(64),
            ..c.clone()
        };
        assert!(exact(&core, &params(Some(other), Some(4)), None, &|_| {}).is_err());
        // The same checkpoint with another prefix depth is another search too.
        assert!(exact(&core, &params(Some(c), Some(5)), None, &|_| {}).is_err());
    }

    #[test]
    fn a_count_resumed_from_a_first_board_search_counts_every_board() {
        for seed in 1..=4u64 {
            let (p, _) = generate(5, 5, 2, 2, seed).unwrap();
            let core = Core::new(&p, &Board::empty(5, 5)).unwrap();
            let params = |all: bool, resume: Option<ExactCheckpoint>| ExactParams {
                order: ScanOrder::RowMajor,
                threads: 1,
                all,
                prefix_depth: Some(4),
                resume,
            };
            let first = exact(&core, &params(false, None), None, &|_| {}).unwrap();
            assert!(first.first.is_some());
            let resumed = exact(&core, &params(true, Some(first.checkpoint)), None, &|_| {});
            let fresh = exact(&core, &params(true, None), None, &|_| {}).unwrap();
            let resumed = resumed.unwrap();
            assert!(resumed.resumed && resumed.complete && fresh.complete);
            assert_eq!(resumed.solutions, fresh.solutions, "seed {seed}");
        }
    }

    #[test]
    fn a_count_stops_at_its_deadline_after_a_board_was_found() {
        // Many boards, and subtrees under three cells far larger than a limit check's
        // stride.
        let (p, _) = generate(6, 6, 2, 2, 3).unwrap();
        let core = Core::new(&p, &Board::empty(6, 6)).unwrap();
        let params = |resume: Option<ExactCheckpoint>| ExactParams {
            order: ScanOrder::RowMajor,
            threads: 1,
            all: true,
            prefix_depth: Some(3),
            resume,
        };
        let past = Some(Instant::now());
        let once = exact(&core, &params(None), past, &|_| {}).unwrap();
        assert!(!once.complete && once.checkpoint.prefixes > 2);
        // Resumed with the first prefix done and holding a board, past the deadline: the
        // count stops in the next prefix, not after a check's worth of each of the rest.
        let ck = ExactCheckpoint {
            done: vec![(0, 1)],
            solutions: 1,
            first: Some((0, Vec::new())),
            ..once.checkpoint.clone()
        };
        let again = exact(&core, &params(Some(ck)), past, &|_| {}).unwrap();
        assert!(again.resumed && !again.complete);
        assert!(
            again.nodes <= once.nodes + 0x10000,
            "{} placements after the deadline, {} in the first run",
            again.nodes,
            once.nodes
        );
    }

    #[test]
    fn an_exact_search_that_ends_without_a_board_proves_there_is_none() {
        // Two pieces of a planted board fixed where they clash: no perfect board.
        let (p, planted) = generate(4, 4, 2, 3, 4).unwrap();
        let mut fixed = Board::empty(4, 4);
        fixed.cells[5] = planted.cells[5];
        fixed.cells[6] = planted.cells[10];
        let clash = score(&p, &fixed).matched == 0;
        let core = Core::new(&p, &fixed).unwrap();
        let params = ExactParams {
            order: ScanOrder::RowMajor,
            threads: 2,
            all: false,
            prefix_depth: None,
            resume: None,
        };
        let res = exact(&core, &params, None, &|_| {}).unwrap();
        assert!(res.complete);
        let (_, leaves) = reference(&p, &fixed, ScanOrder::RowMajor, &[0; 14]);
        assert_eq!(res.solutions, leaves);
        if clash {
            assert_eq!(res.solutions, 0);
        }
        assert!(res.deepest_depth <= 16);
    }
}
