//! The fast board core of the search constructors ([`super::beam`], [`super::dfs`]): every
//! piece pre-rotated, with dense one-byte colours, and candidate tables indexed by what a cell
//! needs, so a constructor's inner loop touches only candidates.
//!
//! A constructor fills the cells in a [`ScanOrder`] in which every cell's upper and left
//! neighbours come first (or are the rim), so the colours a cell must match are known: the
//! table for (cell class, left colour, up colour) lists the rotated pieces that match both
//! exactly, then those that break one of the two seams. A cell class is which of its four
//! sides face the rim; a rotated piece fits a class when its grey sides face out, and only
//! those ([`crate::puzzle::edge`]'s rim rule). Seams between two rim cells ("border seams")
//! never appear broken in the one-mismatch lists: a break there is never worth it (the frame
//! colours are few and each mismatch there ruins two border pieces), the rule the late-break
//! backtrackers of the Eternity II community follow.
//!
//! Pieces fixed by the user (e.g. the Eternity II starter) sit in the order like any
//! cell but with a single forced candidate; a cell whose right or lower neighbour is fixed
//! checks that seam too ([`Core::fixed_side`]).

use crate::puzzle::edge::{Board, EdgePuzzle, Rotation};

/// Sides in the order of [`crate::puzzle::edge::Piece::placed`]: up, right, down, left.
pub const UP: usize = 0;
/// See [`UP`].
pub const RIGHT: usize = 1;
/// See [`UP`].
pub const DOWN: usize = 2;
/// See [`UP`].
pub const LEFT: usize = 3;

/// A piece in one rotation: `piece` 0-based, `sides` the dense colours (0 = grey) facing up,
/// right, down and left.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Oriented {
    /// Piece index (id − 1).
    pub piece: u16,
    /// Clockwise quarter turns.
    pub rot: u8,
    /// Dense colours, up, right, down, left.
    pub sides: [u8; 4],
}

/// The order in which a constructor fills the cells. Each keeps a cell's upper and left
/// neighbours before it, so the cell's needs are two known colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScanOrder {
    /// Row by row, left to right.
    RowMajor,
    /// Column by column, top to bottom.
    ColMajor,
    /// The first `k` rows row by row, then the rest column by column: the mismatches that
    /// pile up in the last rows ("piece theft") are spread over short columns instead.
    Comb(usize),
    /// Anti-diagonals from the top-left corner, each from the top down.
    Diagonal,
}

impl ScanOrder {
    /// Read `rowmajor`, `colmajor`, `diagonal`, `comb` (the last two rows as columns) or
    /// `comb:K` (the first K rows as rows).
    pub fn parse(s: &str) -> Result<ScanOrder, String> {
        match s {
            "rowmajor" | "rows" => Ok(ScanOrder::RowMajor),
            "colmajor" | "columns" => Ok(ScanOrder::ColMajor),
            "diagonal" => Ok(ScanOrder::Diagonal),
            "comb" => Ok(ScanOrder::Comb(usize::MAX)),
            _ => match s.strip_prefix("comb:").map(str::parse::<usize>) {
                Some(Ok(k)) => Ok(ScanOrder::Comb(k)),
                _ => Err(format!(
                    "expected rowmajor, colmajor, diagonal, comb or comb:K (K rows filled as rows, the rest as columns), not {s:?}"
                )),
            },
        }
    }

    /// The name [`parse`](Self::parse) reads back (`comb` with its row count resolved for a
    /// board of `rows` rows).
    pub fn label(self, rows: usize) -> String {
        match self {
            ScanOrder::RowMajor => "rowmajor".into(),
            ScanOrder::ColMajor => "colmajor".into(),
            ScanOrder::Diagonal => "diagonal".into(),
            ScanOrder::Comb(k) => format!("comb:{}", Self::comb_rows(k, rows)),
        }
    }

    fn comb_rows(k: usize, rows: usize) -> usize {
        if k == usize::MAX {
            rows.saturating_sub(2)
        } else {
            k.min(rows)
        }
    }

    /// The cells (`row * cols + col`) in this order.
    pub fn cells(self, rows: usize, cols: usize) -> Vec<usize> {
        match self {
            ScanOrder::RowMajor => (0..rows * cols).collect(),
            ScanOrder::ColMajor => (0..cols)
                .flat_map(|c| (0..rows).map(move |r| r * cols + c))
                .collect(),
            ScanOrder::Comb(k) => {
                let k = Self::comb_rows(k, rows);
                let head = (0..k * cols).collect::<Vec<_>>();
                let tail = (0..cols).flat_map(|c| (k..rows).map(move |r| r * cols + c));
                head.into_iter().chain(tail).collect()
            }
            ScanOrder::Diagonal => (0..rows + cols - 1)
                .flat_map(|s| {
                    (0..rows)
                        .filter(move |&r| s >= r && s - r < cols)
                        .map(move |r| r * cols + (s - r))
                })
                .collect(),
        }
    }
}

/// Start, end of the exact matches, end of the one-mismatch candidates, in [`Core::cands`].
#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    start: u32,
    exact_end: u32,
    end: u32,
}

/// The pre-rotated pieces and candidate tables of one puzzle.
#[derive(Debug, Clone)]
pub struct Core {
    rows: usize,
    cols: usize,
    /// Dense colour count (grey included, as 0).
    ncolours: usize,
    /// Dense colour → the puzzle's colour number.
    colour_of: Vec<u16>,
    /// Every piece in every rotation: index `piece * 4 + rot`.
    oriented: Vec<Oriented>,
    /// Cell → class (bit s set when side s faces the rim).
    class_of: Vec<u8>,
    /// Per class, the rotated pieces (indices into `oriented`) that fit it.
    fitting: Vec<Vec<u16>>,
    /// Per (class, left, up): a slot of `cands`.
    slots: Vec<Slot>,
    /// The lists the slots point into.
    cands: Vec<u16>,
    /// The fixed rotated piece of each cell (`u16::MAX`: none).
    fixed: Vec<u16>,
    /// Whether the beam ranks its children with the colour-supply look-ahead
    /// ([`super::beam`]).
    lookahead: bool,
}

/// The rim flags of class `k`, side by side.
fn rim(k: u8, side: usize) -> bool {
    k & (1 << side) != 0
}

impl Core {
    /// The core of `p` with the pieces of `fixed` pinned (a partial board; its pieces must
    /// fit their cells, as the heuristic route checks). Colours are renumbered densely (grey
    /// stays 0); more than 255 distinct colours are refused.
    pub fn new(p: &EdgePuzzle, fixed: &Board) -> Result<Core, String> {
        let (rows, cols) = (p.rows(), p.cols());
        let mut colour_of: Vec<u16> = p.pieces().iter().flat_map(|pc| pc.colours).collect();
        colour_of.push(0);
        colour_of.sort_unstable();
        colour_of.dedup();
        if colour_of.len() > 255 {
            return Err(format!(
                "the search constructors handle at most 255 colours; this puzzle has {}",
                colour_of.len()
            ));
        }
        let dense = |c: u16| colour_of.binary_search(&c).expect("a listed colour") as u8;
        let oriented: Vec<Oriented> = p
            .pieces()
            .iter()
            .enumerate()
            .flat_map(|(i, pc)| {
                (0..4u8).map(move |r| (i, r, pc.placed(Rotation::new(r).expect("0..4"))))
            })
            .map(|(i, r, placed)| Oriented {
                piece: i as u16,
                rot: r,
                sides: placed.map(dense),
            })
            .collect();
        let class_of: Vec<u8> = (0..rows * cols)
            .map(|cell| {
                let (r, c) = (cell / cols, cell % cols);
                (r == 0) as u8
                    | ((c + 1 == cols) as u8) << 1
                    | ((r + 1 == rows) as u8) << 2
                    | ((c == 0) as u8) << 3
            })
            .collect();
        let fitting: Vec<Vec<u16>> = (0..16u8)
            .map(|k| {
                (0..oriented.len() as u16)
                    .filter(|&o| {
                        let s = oriented[o as usize].sides;
                        (0..4).all(|d| (s[d] == 0) == rim(k, d))
                    })
                    .collect()
            })
            .collect();
        let nc = colour_of.len();
        let mut slots = vec![Slot::default(); 16 * nc * nc];
        let mut cands = Vec::new();
        for k in 0..16u8 {
            if fitting[k as usize].is_empty() {
                continue;
            }
            // A seam between two rim cells never breaks: the left seam of a top or bottom
            // row cell (not in the left column), the upper seam of a left or right column
            // cell (not in the top row).
            let left_border = (rim(k, UP) || rim(k, DOWN)) && !rim(k, LEFT);
            let up_border = (rim(k, LEFT) || rim(k, RIGHT)) && !rim(k, UP);
            for l in 0..nc as u8 {
                for u in 0..nc as u8 {
                    let start = cands.len() as u32;
                    let list = &fitting[k as usize];
                    cands.extend(list.iter().copied().filter(|&o| {
                        let s = oriented[o as usize].sides;
                        s[LEFT] == l && s[UP] == u
                    }));
                    let exact_end = cands.len() as u32;
                    cands.extend(list.iter().copied().filter(|&o| {
                        let s = oriented[o as usize].sides;
                        let (lm, um) = (s[LEFT] == l, s[UP] == u);
                        (lm && !um && !up_border) || (um && !lm && !left_border)
                    }));
                    slots[(k as usize * nc + l as usize) * nc + u as usize] = Slot {
                        start,
                        exact_end,
                        end: cands.len() as u32,
                    };
                }
            }
        }
        let fixed_o = Core::indices(fixed);
        Ok(Core {
            rows,
            cols,
            ncolours: nc,
            colour_of,
            oriented,
            class_of,
            fitting,
            slots,
            cands,
            fixed: fixed_o,
            lookahead: false,
        })
    }

    /// Rows.
    pub fn rows(&self) -> usize {
        self.rows
    }
    /// Columns.
    pub fn cols(&self) -> usize {
        self.cols
    }
    /// Cells.
    pub fn cells(&self) -> usize {
        self.rows * self.cols
    }
    /// Dense colours, grey included.
    pub fn ncolours(&self) -> usize {
        self.ncolours
    }
    /// Pieces.
    pub fn pieces(&self) -> usize {
        self.oriented.len() / 4
    }
    /// Inner seams: the most a board can match.
    pub fn max_score(&self) -> usize {
        self.rows * (self.cols - 1) + (self.rows - 1) * self.cols
    }
    /// The rotated piece of index `o`.
    #[inline(always)]
    pub fn oriented(&self, o: u16) -> &Oriented {
        &self.oriented[o as usize]
    }
    /// The class of `cell`.
    #[inline(always)]
    pub fn class(&self, cell: usize) -> u8 {
        self.class_of[cell]
    }
    /// Whether rotated piece `o` fits `cell`: its grey sides face the rim, and only those.
    #[inline(always)]
    pub fn fits(&self, o: u16, cell: usize) -> bool {
        let (s, k) = (self.oriented(o).sides, self.class(cell));
        (0..4).all(|d| (s[d] == 0) == rim(k, d))
    }
    /// Every rotated piece that fits class `k`.
    pub fn fitting(&self, k: u8) -> &[u16] {
        &self.fitting[k as usize]
    }
    /// Fix the rotated pieces of `cells` (`u16::MAX`: free), replacing the fixed set: how a
    /// repair pins everything outside the cells it rebuilds.
    pub fn set_fixed(&mut self, cells: &[u16]) {
        self.fixed.copy_from_slice(cells);
    }
    /// Rank the beam's children by matched seams minus the colour-supply look-ahead's
    /// penalty (see [`super::beam`]), or by matched seams alone (the default).
    pub fn set_lookahead(&mut self, on: bool) {
        self.lookahead = on;
    }
    /// Whether the beam uses the look-ahead.
    pub fn lookahead(&self) -> bool {
        self.lookahead
    }
    /// The fixed rotated pieces, per cell (`u16::MAX`: free).
    pub fn fixed_cells(&self) -> &[u16] {
        &self.fixed
    }
    /// The fixed rotated piece of `cell`, if any.
    #[inline(always)]
    pub fn fixed(&self, cell: usize) -> Option<u16> {
        let o = self.fixed[cell];
        (o != u16::MAX).then_some(o)
    }
    /// Candidates for a cell of class `k` whose left and upper neighbours show `left` and
    /// `up` (grey where the rim is): exact matches, then those breaking one non-border seam.
    #[inline(always)]
    pub fn candidates(&self, k: u8, left: u8, up: u8) -> (&[u16], &[u16]) {
        let nc = self.ncolours;
        let s = self.slots[(k as usize * nc + left as usize) * nc + up as usize];
        (
            &self.cands[s.start as usize..s.exact_end as usize],
            &self.cands[s.exact_end as usize..s.end as usize],
        )
    }
    /// The colour a fixed neighbour on `side` of `cell` shows towards it, when that neighbour
    /// is fixed (right and down are the only sides a scan order can reach before the
    /// neighbour).
    #[inline(always)]
    pub fn fixed_side(&self, cell: usize, side: usize) -> Option<u8> {
        let (r, c) = (cell / self.cols, cell % self.cols);
        let nb = match side {
            RIGHT if c + 1 < self.cols => cell + 1,
            DOWN if r + 1 < self.rows => cell + self.cols,
            _ => return None,
        };
        self.fixed(nb)
            .map(|o| self.oriented(o).sides[(side + 2) % 4])
    }
    /// True when the seam on `side` of `cell` joins two rim cells.
    pub fn border_seam(&self, cell: usize, side: usize) -> bool {
        let (r, c) = (cell / self.cols, cell % self.cols);
        let nb = match side {
            UP if r > 0 => cell - self.cols,
            RIGHT if c + 1 < self.cols => cell + 1,
            DOWN if r + 1 < self.rows => cell + self.cols,
            LEFT if c > 0 => cell - 1,
            _ => return false,
        };
        self.class_of[cell] != 0 && self.class_of[nb] != 0
    }
    /// The puzzle's colour number of dense colour `d`.
    pub fn colour(&self, d: u8) -> u16 {
        self.colour_of[d as usize]
    }

    /// The rotated-piece index of each cell of `board` (`u16::MAX`: empty), the inverse of
    /// [`board`](Self::board).
    pub fn indices(board: &Board) -> Vec<u16> {
        board
            .cells
            .iter()
            .map(|c| c.map_or(u16::MAX, |(id, r)| (id - 1) * 4 + r.turns() as u16))
            .collect()
    }

    /// A board from rotated-piece indices per cell (`u16::MAX`: empty).
    pub fn board(&self, cells: &[u16]) -> Board {
        let mut b = Board::empty(self.rows, self.cols);
        for (cell, &o) in cells.iter().enumerate() {
            if o != u16::MAX {
                let or = self.oriented(o);
                b.cells[cell] = Some((or.piece + 1, Rotation::new(or.rot).expect("0..4")));
            }
        }
        b
    }

    /// Matched inner seams of a board of rotated-piece indices (`u16::MAX`: empty): the
    /// constructors' own count, checked against the independent checker in the tests.
    pub fn matched(&self, cells: &[u16]) -> usize {
        let mut m = 0;
        for (cell, &o) in cells.iter().enumerate() {
            if o == u16::MAX {
                continue;
            }
            let s = self.oriented(o).sides;
            let (r, c) = (cell / self.cols, cell % self.cols);
            if c + 1 < self.cols {
                let n = cells[cell + 1];
                m += (n != u16::MAX && self.oriented(n).sides[LEFT] == s[RIGHT]) as usize;
            }
            if r + 1 < self.rows {
                let n = cells[cell + self.cols];
                m += (n != u16::MAX && self.oriented(n).sides[UP] == s[DOWN]) as usize;
            }
        }
        m
    }
}

/// A set of piece indices as bits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PieceSet(Vec<u64>);

impl PieceSet {
    /// An empty set for `n` pieces.
    pub fn new(n: usize) -> PieceSet {
        PieceSet(vec![0; n.div_ceil(64)])
    }
    /// Words needed for `n` pieces.
    pub fn words(n: usize) -> usize {
        n.div_ceil(64)
    }
    /// Whether `i` is in the set.
    #[inline(always)]
    pub fn has(&self, i: u16) -> bool {
        has(&self.0, i)
    }
    /// Add `i`.
    #[inline(always)]
    pub fn insert(&mut self, i: u16) {
        self.0[i as usize >> 6] |= 1 << (i & 63);
    }
    /// Remove `i`.
    #[inline(always)]
    pub fn remove(&mut self, i: u16) {
        self.0[i as usize >> 6] &= !(1 << (i & 63));
    }
    /// The words.
    pub fn words_of(&self) -> &[u64] {
        &self.0
    }
}

/// Whether bit `i` is set in `words` (a [`PieceSet`] stored in an arena).
#[inline(always)]
pub fn has(words: &[u64], i: u16) -> bool {
    words[i as usize >> 6] >> (i & 63) & 1 != 0
}

/// Finish a partial board of rotated-piece indices greedily, cell by cell in `order`: each
/// empty cell takes the unused rotated piece that fits its class and matches most of its
/// filled neighbours (first found on ties). Complete and legal whatever the input.
pub fn complete_greedily(core: &Core, cells: &mut [u16], order: &[usize]) {
    let mut used = PieceSet::new(core.pieces());
    for &o in cells.iter() {
        if o != u16::MAX {
            used.insert(core.oriented(o).piece);
        }
    }
    let cols = core.cols;
    for &cell in order {
        if cells[cell] != u16::MAX {
            continue;
        }
        let (r, c) = (cell / cols, cell % cols);
        let show = |nb: usize, side: usize| {
            let o = cells[nb];
            (o != u16::MAX).then(|| core.oriented(o).sides[side])
        };
        let need = [
            (r > 0).then(|| show(cell - cols, DOWN)).flatten(),
            (c + 1 < cols).then(|| show(cell + 1, LEFT)).flatten(),
            (r + 1 < core.rows).then(|| show(cell + cols, UP)).flatten(),
            (c > 0).then(|| show(cell - 1, RIGHT)).flatten(),
        ];
        let mut best: Option<(usize, u16)> = None;
        for &o in core.fitting(core.class(cell)) {
            let or = core.oriented(o);
            if used.has(or.piece) {
                continue;
            }
            let g = (0..4)
                .filter(|&d| need[d].is_some_and(|k| k != 0 && k == or.sides[d]))
                .count();
            if best.is_none_or(|(b, _)| g > b) {
                best = Some((g, o));
                if g == 4 {
                    break;
                }
            }
        }
        if let Some((_, o)) = best {
            cells[cell] = o;
            used.insert(core.oriented(o).piece);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::edge::{generate, score};

    #[test]
    fn scan_orders_are_permutations_that_keep_up_and_left_first() {
        for order in [
            ScanOrder::RowMajor,
            ScanOrder::ColMajor,
            ScanOrder::Comb(usize::MAX),
            ScanOrder::Comb(3),
            ScanOrder::Diagonal,
        ] {
            for (rows, cols) in [(4, 4), (5, 7), (7, 3)] {
                let cells = order.cells(rows, cols);
                let mut pos = vec![usize::MAX; rows * cols];
                for (i, &c) in cells.iter().enumerate() {
                    assert_eq!(pos[c], usize::MAX, "{order:?} repeats {c}");
                    pos[c] = i;
                }
                assert!(
                    pos.iter().all(|&p| p != usize::MAX),
                    "{order:?} misses a cell"
                );
                for c in 0..rows * cols {
                    if c >= cols {
                        assert!(pos[c - cols] < pos[c], "{order:?}: up after {c}");
                    }
                    if c % cols > 0 {
                        assert!(pos[c - 1] < pos[c], "{order:?}: left after {c}");
                    }
                }
            }
        }
        assert_eq!(ScanOrder::parse("comb:5"), Ok(ScanOrder::Comb(5)));
        assert_eq!(ScanOrder::Comb(usize::MAX).label(16), "comb:14");
        assert!(ScanOrder::parse("spiral").is_err());
    }

    #[test]
    fn more_than_255_colours_are_refused_in_one_sentence() {
        let (p, _) = generate(20, 20, 4, 600, 1).unwrap();
        let e = Core::new(&p, &Board::empty(20, 20)).unwrap_err();
        assert!(
            e.starts_with("the search constructors handle at most 255 colours; this puzzle has"),
            "{e}"
        );
    }

    #[test]
    fn candidate_lists_hold_exactly_the_matching_rotations() {
        let (p, _) = generate(6, 6, 3, 4, 2).unwrap();
        let core = Core::new(&p, &Board::empty(6, 6)).unwrap();
        for cell in 0..36 {
            let k = core.class(cell);
            for l in 0..core.ncolours as u8 {
                for u in 0..core.ncolours as u8 {
                    let (exact, one) = core.candidates(k, l, u);
                    for &o in core.fitting(k) {
                        let s = core.oriented(o).sides;
                        let breaks = (s[LEFT] != l) as usize + (s[UP] != u) as usize;
                        let legal_break = breaks == 1
                            && !(s[LEFT] != l && core.border_seam(cell, LEFT))
                            && !(s[UP] != u && core.border_seam(cell, UP));
                        assert_eq!(exact.contains(&o), breaks == 0);
                        // Border seams are judged per class; cells on the first row or column
                        // have no such seam on the rim side, so compare only where the
                        // neighbour exists.
                        if (cell >= 6 || s[UP] == u) && (cell % 6 > 0 || s[LEFT] == l) {
                            assert_eq!(one.contains(&o), legal_break, "cell {cell} o {o}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn the_core_count_agrees_with_the_checker_and_greedy_completion_is_legal() {
        let (p, planted) = generate(7, 5, 2, 3, 4).unwrap();
        let core = Core::new(&p, &Board::empty(7, 5)).unwrap();
        let cells = Core::indices(&planted);
        assert_eq!(core.board(&cells), planted);
        assert_eq!(core.matched(&cells), score(&p, &planted).matched);
        let mut partial = cells.clone();
        for (i, c) in partial.iter_mut().enumerate() {
            if i % 3 == 0 {
                *c = u16::MAX;
            }
        }
        complete_greedily(&core, &mut partial, &ScanOrder::RowMajor.cells(7, 5));
        let sc = score(&p, &core.board(&partial));
        assert_eq!((sc.empty, sc.rim_faults, sc.repeats), (0, 0, 0), "{sc:?}");
        assert_eq!(core.matched(&partial), sc.matched);
    }
}
