//! The exact search's placement loop over sets of pieces, for puzzles of at most 64 pieces.
//!
//! The general loop reads a bucket's entries one by one and skips those whose piece is used:
//! a data-dependent branch that goes either way about as often, so the processor mispredicts
//! it once in every few entries. Here each bucket's exact matches are also one word with a bit
//! per piece, and the walk keeps the word of pieces it may still place (unused, and any
//! identical predecessor placed), so a cell's candidates are the AND of the two, taken lowest
//! piece first: the order of the bucket's entries (piece, then rotation), so the walk, its
//! placements per depth and its first board are the general loop's. Breaks, colour quotas and
//! fixed right or lower neighbours stay with the general loop. (Two words, for up to 128
//! pieces, were measured slower than the general loop on 9×9 and 10×10 boards: 3–18 %.)

use super::{AfterStretch, Plan, Span, Tables, WalkEnd, WalkLimits, Walker};

/// A set of pieces, one bit each.
type PieceSet = u64;

/// Pieces a set can hold.
const CAPACITY: usize = PieceSet::BITS as usize;

/// How many pieces of `set` are below piece `p`.
#[inline(always)]
fn below(set: PieceSet, p: usize) -> u32 {
    (set & ((1 << p) - 1)).count_ones()
}

/// `avail` once piece `p` is taken back: `p` again, and not the identical piece that may
/// follow it (`next[p]`, read only where the puzzle has identical pieces).
#[inline(always)]
fn released<const TWINS: bool>(avail: PieceSet, p: usize, next: &[PieceSet]) -> PieceSet {
    let avail = avail | 1 << p;
    if TWINS { avail & !next[p] } else { avail }
}

/// A bucket's exact matches: the pieces, and where their rows start (one row per piece, in
/// piece order); `second` indexes [`Sets::seconds`] (plus one; 0: none) for the pieces with
/// a second rotation that matches too.
#[derive(Debug, Clone, Copy, Default)]
struct Bucket {
    pieces: PieceSet,
    first: u32,
    second: u32,
}

/// One rotated piece of a bucket: its entry in [`Tables`] and the colours it shows.
#[derive(Debug, Clone, Copy)]
struct Row {
    at: u32,
    right: u8,
    down: u8,
}

/// The buckets of a [`Tables`] as piece sets.
#[derive(Debug, Clone)]
pub(super) struct Sets {
    buckets: Vec<Bucket>,
    /// Pieces with a second matching rotation in a bucket (a piece with three equal sides),
    /// and where their rows start.
    seconds: Vec<(PieceSet, u32)>,
    rows: Vec<Row>,
    /// Per piece: the identical piece that may follow it once it is placed (empty: none).
    next: Vec<PieceSet>,
}

/// What the walk keeps of a position.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct SetFrame {
    /// Candidates not yet tried: first rotations, second rotations.
    cand: PieceSet,
    cand2: PieceSet,
    bucket: u32,
    piece: u8,
}

impl Sets {
    /// The sets of `tables` (`pieces` pieces), or `None` where they do not fit or a bucket is
    /// not in piece order (a shuffled copy).
    pub(super) fn build(tables: &Tables, pieces: usize) -> Option<Sets> {
        if pieces > CAPACITY {
            return None;
        }
        let mut sets = Sets {
            buckets: Vec::with_capacity(tables.slots.len()),
            seconds: Vec::new(),
            rows: Vec::new(),
            next: vec![0; pieces],
        };
        for &(start, exact_end, _) in &tables.slots {
            let bucket = &tables.entries[start as usize..exact_end as usize];
            if bucket.windows(2).any(|w| w[0].orient() >= w[1].orient()) {
                return None;
            }
            let row = |k: usize| Row {
                at: start + k as u32,
                right: bucket[k].right,
                down: bucket[k].down,
            };
            let mut b = Bucket {
                first: sets.rows.len() as u32,
                ..Bucket::default()
            };
            let mut again = Vec::new();
            for (k, e) in bucket.iter().enumerate() {
                if k > 0 && bucket[k - 1].piece == e.piece {
                    again.push(k);
                } else {
                    b.pieces |= 1 << e.piece;
                    sets.rows.push(row(k));
                }
            }
            if !again.is_empty() {
                let mut twice: PieceSet = 0;
                let first = sets.rows.len() as u32;
                for &k in &again {
                    let p: PieceSet = 1 << bucket[k].piece;
                    if twice & p != 0 {
                        // A third rotation of one piece: two equal rotations, which the
                        // canonical tables never hold.
                        return None;
                    }
                    twice |= p;
                    sets.rows.push(row(k));
                }
                sets.seconds.push((twice, first));
                b.second = sets.seconds.len() as u32;
            }
            sets.buckets.push(b);
        }
        for (q, &t) in tables.twin.iter().enumerate() {
            if (t as usize) < pieces {
                sets.next[t as usize] |= 1 << q;
            }
        }
        Some(sets)
    }

    /// Whether a bucket holds two rotations of one piece.
    #[cfg(test)]
    pub(super) fn has_second_rotations(&self) -> bool {
        !self.seconds.is_empty()
    }

    /// Position `i`'s frame: the bucket its placed neighbours choose, and its pieces that
    /// `avail` holds.
    #[inline(always)]
    fn open(&self, plan: &Plan, right: &[u8], down: &[u8], i: usize, avail: PieceSet) -> SetFrame {
        let at = plan.pos[i];
        let l = right[at.left as usize] as usize;
        let u = down[at.up as usize] as usize;
        let bucket = at.base as usize + l * plan.nc + u;
        let b = self.buckets[bucket];
        SetFrame {
            cand: b.pieces & avail,
            cand2: if b.second == 0 {
                0
            } else {
                self.seconds[b.second as usize - 1].0 & avail
            },
            bucket: bucket as u32,
            piece: 0,
        }
    }
}

impl Walker {
    /// Whether [`Walker::walk`] may take the set loop for this walk: the tables have sets,
    /// nothing breaks, nothing is counted and no fixed cell lies ahead of a free one.
    pub(super) fn sets_apply(
        plan: &Plan,
        tables: &Tables,
        allowed: &[u16],
        span: &Span,
        limits: &WalkLimits,
    ) -> bool {
        tables.sets.is_some()
            && span.before == 0
            && !limits.quota.iter().any(|&q| q > 0)
            && allowed[span.from..span.to].iter().all(|&a| a == 0)
            && !plan.pos[span.from..span.to].iter().any(|p| p.checks)
    }

    /// [`Walker::walk`] by piece sets, where [`Walker::sets_apply`], of a span of at least
    /// one position.
    #[inline(never)]
    pub(super) fn walk_sets<const TWINS: bool>(
        &mut self,
        (plan, tables): (&Plan, &Tables),
        sets: &Sets,
        frames: &mut [SetFrame],
        Span { from, to, before }: Span,
        limits: &WalkLimits,
        on_leaf: &mut dyn FnMut(&Walker) -> bool,
    ) -> WalkEnd {
        let start_nodes = self.nodes;
        // The general loop's frames say no seam was broken at the positions this walk
        // places, so that taking them back ([`Walker::unwind`]) clears no break flag.
        for f in &mut self.frames[from..to] {
            f.partner = super::NONE;
        }
        let pieces = sets.next.len();
        // Pieces a placement may take: unused, and any identical predecessor placed.
        let mut avail: PieceSet = 0;
        for p in 0..pieces {
            if !self.used[p] && self.used[tables.twin[p] as usize] {
                avail |= 1 << p;
            }
        }
        let pos = &plan.pos[..to];
        let (buckets, seconds, rows, next) = (
            &sets.buckets[..],
            &sets.seconds[..],
            &sets.rows[..],
            &sets.next[..],
        );
        let mut i = from;
        let mut f = sets.open(plan, &self.right, &self.down, i, avail);
        loop {
            // A stretch of placements and backtracks up to an event that needs the whole
            // walker, as in the general loop.
            let placed = {
                let deep = self.deep_mark();
                let used = &mut self.used[..];
                let right = &mut self.right[..];
                let down = &mut self.down[..];
                let frames = &mut frames[..to];
                let path = &mut self.path[..to];
                let hist = &mut self.hist[..to];
                let mut nodes = self.nodes;
                loop {
                    let pick = f.cand | f.cand2;
                    if pick == 0 {
                        if i == from {
                            self.nodes = nodes;
                            break false;
                        }
                        i -= 1;
                        f = frames[i];
                        let p = f.piece as usize;
                        used[p] = false;
                        avail = released::<TWINS>(avail, p, next);
                        continue;
                    }
                    let p = pick.trailing_zeros() as usize;
                    let one: PieceSet = 1 << p;
                    let b = buckets[f.bucket as usize];
                    // The first rotation before the second.
                    let row = if f.cand & one != 0 {
                        f.cand &= !one;
                        rows[(b.first + below(b.pieces, p)) as usize]
                    } else {
                        f.cand2 &= !one;
                        let (twice, first) = seconds[b.second as usize - 1];
                        rows[(first + below(twice, p)) as usize]
                    };
                    f.piece = p as u8;
                    frames[i] = f;
                    let cell = pos[i].cell as usize;
                    used[p] = true;
                    avail &= !one;
                    if TWINS {
                        avail |= next[p];
                    }
                    right[cell] = row.right;
                    down[cell] = row.down;
                    path[i] = row.at;
                    nodes += 1;
                    hist[i] += 1;
                    if i + 1 >= deep || nodes & 0xFFFF == 0 || i + 1 == to {
                        self.nodes = nodes;
                        break true;
                    }
                    i += 1;
                    f = sets.open(plan, right, down, i, avail);
                }
            };
            if !placed {
                return WalkEnd::Exhausted;
            }
            match self.after_stretch(i, before, to, (limits, start_nodes), on_leaf) {
                AfterStretch::End(end) => return end,
                AfterStretch::TakeBack => {
                    // Its frame goes on.
                    let p = f.piece as usize;
                    self.used[p] = false;
                    avail = released::<TWINS>(avail, p, next);
                    continue;
                }
                AfterStretch::Deeper => {}
            }
            i += 1;
            f = sets.open(plan, &self.right, &self.down, i, avail);
        }
    }
}
