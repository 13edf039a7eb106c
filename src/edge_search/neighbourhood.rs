//! The neighbourhoods of the local search (§3.3) behind one trait, and the ones that need
//! no solver of their own: Tile Assignment, Black-and-White, Tiles Swap and Rotation.

use super::assign::{Assignment, KuhnMunkres};
use super::{Ctx, HeuristicError, Rng};
use crate::puzzle::edge::{Board, EdgePuzzle, PieceKind, Rotation};

/// One neighbourhood of the multi-neighbourhood local search.
pub trait Neighbourhood {
    /// Its short name in traces and progress lines (`TA`, `BO`, `BW`, `TSR`, `RO`).
    fn name(&self) -> &'static str;
    /// Search the neighbourhood of the complete `board` and move to a better or equal board
    /// in place. Never makes the board worse (matched seams, rim rule kept); returns the
    /// matched seams gained (0 when nothing better was found). Stops early at the deadline.
    fn improve(&mut self, ctx: &mut Ctx<'_>, board: &mut Board) -> Result<usize, HeuristicError>;
}

// ---------------------------------------------------------------------------------------
// Shared geometry and scoring.
// ---------------------------------------------------------------------------------------

/// The three piece classes in a fixed order; a legal board keeps every piece in a cell of
/// its own class, so every move here permutes pieces within one class only.
const CLASSES: [PieceKind; 3] = [PieceKind::Corner, PieceKind::Edge, PieceKind::Inner];

/// The class of cell (`row`, `col`) by its position: a corner cell has two outward sides, a
/// border cell one, an inner cell none (on a board two rows high the top and bottom rows
/// are all border, which matches the piece counts [`EdgePuzzle::new`] checks).
fn cell_kind(p: &EdgePuzzle, row: usize, col: usize) -> PieceKind {
    let rim_row = row == 0 || row + 1 == p.rows();
    let rim_col = col == 0 || col + 1 == p.cols();
    match (rim_row, rim_col) {
        (true, true) => PieceKind::Corner,
        (false, false) => PieceKind::Inner,
        _ => PieceKind::Edge,
    }
}

/// The cells (row-major indices) of each class, in the order of [`CLASSES`].
fn class_cells(p: &EdgePuzzle) -> [Vec<usize>; 3] {
    let mut out: [Vec<usize>; 3] = Default::default();
    for cell in 0..p.rows() * p.cols() {
        let kind = cell_kind(p, cell / p.cols(), cell % p.cols());
        let k = CLASSES.iter().position(|&c| c == kind).unwrap_or(2);
        out[k].push(cell);
    }
    out
}

/// [`class_cells`] without the frozen cells (fixed pieces such as the starter piece): the
/// cells a move may touch.
fn movable_class_cells(ctx: &Ctx<'_>) -> [Vec<usize>; 3] {
    let cols = ctx.puzzle.cols();
    class_cells(ctx.puzzle).map(|cells| {
        cells
            .into_iter()
            .filter(|&c| !ctx.is_frozen(c / cols, c % cols))
            .collect()
    })
}

/// The colour that side `d` (0 up, 1 right, 2 down, 3 left) of cell (`row`, `col`) shows,
/// `None` when the cell is empty or off the board.
fn side(p: &EdgePuzzle, board: &Board, row: usize, col: usize, d: usize) -> Option<u16> {
    let (id, rot) = board.get(row, col)?;
    Some(p.piece(id)?.placed(rot)[d])
}

/// Matched sides of piece `id` turned by `rot` if it stood in cell (`row`, `col`), against
/// the board's current neighbours of that cell (whatever the cell itself holds now is
/// ignored). Counts exactly the seams [`crate::puzzle::edge::score`] counts around the cell.
fn matched_sides(
    p: &EdgePuzzle,
    board: &Board,
    id: u16,
    rot: Rotation,
    row: usize,
    col: usize,
) -> usize {
    let Some(piece) = p.piece(id) else {
        return 0;
    };
    let pl = piece.placed(rot);
    // (neighbour, the side of ours that faces it, the side of theirs that faces us).
    let around = [
        (row.checked_sub(1).map(|r| (r, col)), 0, 2),
        (Some((row, col + 1)), 1, 3),
        (Some((row + 1, col)), 2, 0),
        (col.checked_sub(1).map(|c| (row, c)), 3, 1),
    ];
    around
        .into_iter()
        .filter(|&(nb, ours, theirs)| {
            pl[ours] != 0 && nb.is_some_and(|(r, c)| side(p, board, r, c, theirs) == Some(pl[ours]))
        })
        .count()
}

/// Matched sides of whatever cell `cell` holds now (0 when empty).
fn cell_matched(p: &EdgePuzzle, board: &Board, cell: usize) -> usize {
    let (row, col) = (cell / board.cols, cell % board.cols);
    board.cells[cell].map_or(0, |(id, rot)| matched_sides(p, board, id, rot, row, col))
}

/// The best rotation of piece `id` among those that fit cell `cell` (rim rule kept), and its
/// matched sides; `None` when no rotation fits (a piece of another class).
fn best_fit(p: &EdgePuzzle, board: &Board, id: u16, cell: usize) -> Option<(usize, Rotation)> {
    let (row, col) = (cell / board.cols, cell % board.cols);
    let mut best: Option<(usize, Rotation)> = None;
    for rot in p.fitting_rotations(id, row, col) {
        let v = matched_sides(p, board, id, rot, row, col);
        if best.is_none_or(|(b, _)| v > b) {
            best = Some((v, rot));
        }
    }
    best
}

/// Whether cells `a` and `b` share a side.
fn adjacent(cols: usize, a: usize, b: usize) -> bool {
    let (ra, ca, rb, cb) = (a / cols, a % cols, b / cols, b % cols);
    (ra == rb && ca.abs_diff(cb) == 1) || (ca == cb && ra.abs_diff(rb) == 1)
}

/// Whether the seam between the adjacent cells `a` and `b` is matched.
fn seam_matched(p: &EdgePuzzle, board: &Board, a: usize, b: usize) -> bool {
    let (lo, hi) = (a.min(b), a.max(b));
    let (r, c) = (lo / board.cols, lo % board.cols);
    // `lo` is above or left of `hi`: compare its down or right side with their up or left.
    let (ours, theirs) = if hi == lo + 1 { (1, 3) } else { (2, 0) };
    let (hr, hc) = (hi / board.cols, hi % board.cols);
    match (side(p, board, r, c, ours), side(p, board, hr, hc, theirs)) {
        (Some(x), Some(y)) => x != 0 && x == y,
        _ => false,
    }
}

/// A complete, legal board chosen at random: the pieces of each class shuffled into the
/// cells of that class, each turned by a random rotation that fits its cell (grey exactly on
/// the outward sides). The start of a local search from a random solution (§3.3) and of
/// the `random` construction.
pub fn random_board(p: &EdgePuzzle, rng: &mut Rng) -> Board {
    let mut board = Board::empty(p.rows(), p.cols());
    for (kind, cells) in CLASSES.iter().zip(class_cells(p)) {
        let mut ids: Vec<u16> = p
            .pieces()
            .iter()
            .filter(|pc| pc.kind() == Some(*kind))
            .map(|pc| pc.id)
            .collect();
        rng.shuffle(&mut ids);
        // A checked puzzle has exactly as many pieces of each class as cells.
        for (&cell, &id) in cells.iter().zip(&ids) {
            let fits = p.fitting_rotations(id, cell / p.cols(), cell % p.cols());
            let rot = fits.get(rng.below(fits.len())).copied().unwrap_or_default();
            board.cells[cell] = Some((id, rot));
        }
    }
    board
}

/// Take the pieces out of `cells` (pairwise non-adjacent, all filled) and put them back by
/// an optimal assignment of pieces to these cells, each in its best fitting rotation.
/// Returns the matched seams gained; the board changes only when the new total is at least
/// the old one (it always is on a legal board: leaving every piece where it is is one of
/// the assignments).
///
/// Non-adjacency is what makes this exact: every seam touches at most one of the cells, so
/// the value of a piece in a cell depends on the fixed neighbours alone, and the sum of the
/// cells' matched sides changes by exactly the change of the board's score.
fn reassign(p: &EdgePuzzle, board: &mut Board, cells: &[usize], solver: &dyn Assignment) -> usize {
    let n = cells.len();
    if n == 0 {
        return 0;
    }
    debug_assert!(
        cells
            .iter()
            .enumerate()
            .all(|(i, &a)| cells[i + 1..].iter().all(|&b| !adjacent(board.cols, a, b))),
        "reassign needs pairwise non-adjacent cells"
    );
    let pieces: Vec<(u16, Rotation)> = cells.iter().filter_map(|&c| board.cells[c]).collect();
    if pieces.len() != n {
        return 0;
    }
    let old: usize = cells.iter().map(|&c| cell_matched(p, board, c)).sum();
    // Below any total an assignment without it can reach (each cell gives 0..=4), so it is
    // chosen only when nothing else is possible, and the comparison with `old` then fails.
    let no_fit = -(4 * n as i64) - 1;
    let mut rots = vec![vec![Rotation::default(); n]; n];
    let mut weights = vec![vec![no_fit; n]; n];
    for (i, &(id, _)) in pieces.iter().enumerate() {
        for (j, &cell) in cells.iter().enumerate() {
            if let Some((v, rot)) = best_fit(p, board, id, cell) {
                weights[i][j] = v as i64;
                rots[i][j] = rot;
            }
        }
    }
    let (total, perm) = solver.max_weight(&weights);
    let legal = cells.iter().zip(&pieces).all(|(&c, &(id, rot))| {
        p.fitting_rotations(id, c / board.cols, c % board.cols)
            .contains(&rot)
    });
    debug_assert!(
        !legal || total >= old as i64,
        "{} returned {total} below the identity's {old}",
        solver.name()
    );
    if total < old as i64 {
        return 0;
    }
    for (i, &(id, _)) in pieces.iter().enumerate() {
        board.cells[cells[perm[i]]] = Some((id, rots[i][perm[i]]));
    }
    (total - old as i64) as usize
}

// ---------------------------------------------------------------------------------------
// Tile Assignment (TA).
// ---------------------------------------------------------------------------------------

/// Tile Assignment ("TA", §3.3, after Schaus and Deville, in the probabilistic variant of
/// Wauters et al.): each iteration removes up to `k` pieces of one class from pairwise
/// non-adjacent cells (diagonal neighbours allowed), favouring pieces with unmatched sides,
/// and re-inserts them by an optimal assignment ([`Assignment`]). Defaults: Table 2,
/// `TA.K` = 16 tiles, `TA.N` = 1000 iterations.
#[derive(Debug, Clone)]
pub struct TileAssignment<A: Assignment = KuhnMunkres> {
    /// Most cells taken out per iteration (`TA.K`).
    pub k: usize,
    /// Iterations per call of [`Neighbourhood::improve`] (`TA.N`).
    pub iterations: usize,
    /// The assignment solver.
    pub solver: A,
}

impl<A: Assignment + Default> Default for TileAssignment<A> {
    fn default() -> Self {
        TileAssignment {
            k: 16,
            iterations: 1000,
            solver: A::default(),
        }
    }
}

/// Up to `k` pairwise non-adjacent cells out of `cells` (one class), drawn one at a time
/// without replacement with probability proportional to 1 + the unmatched inner-facing
/// sides of the cell's piece (0 to 4 of them).
///
/// Wauters et al. only ask that tiles with many unmatched edges be likelier; this linear
/// rule is our choice. The "+1" keeps a fully matched piece selectable: moving it can free
/// its cell for a piece that fits there better, and without it a nearly perfect board would
/// leave too few candidates to fill a sample of `k`. Once a cell is drawn, its four side
/// neighbours are barred, which is what keeps the assignment exact.
fn select_cells(
    p: &EdgePuzzle,
    board: &Board,
    cells: &[usize],
    k: usize,
    rng: &mut Rng,
) -> Vec<usize> {
    let cols = board.cols;
    let mut weight: Vec<usize> = cells
        .iter()
        .map(|&c| {
            let (row, col) = (c / cols, c % cols);
            let inward = [row > 0, col + 1 < cols, row + 1 < board.rows, col > 0]
                .iter()
                .filter(|&&x| x)
                .count();
            1 + inward.saturating_sub(cell_matched(p, board, c))
        })
        .collect();
    let mut chosen = Vec::with_capacity(k);
    while chosen.len() < k {
        let total: usize = weight.iter().sum();
        if total == 0 {
            break;
        }
        let mut x = rng.below(total);
        let i = weight
            .iter()
            .position(|&w| {
                if x < w {
                    true
                } else {
                    x -= w;
                    false
                }
            })
            .unwrap_or(0);
        let c = cells[i];
        chosen.push(c);
        for (w, &other) in weight.iter_mut().zip(cells) {
            if other == c || adjacent(cols, c, other) {
                *w = 0;
            }
        }
    }
    chosen
}

impl<A: Assignment> Neighbourhood for TileAssignment<A> {
    fn name(&self) -> &'static str {
        "TA"
    }

    fn improve(&mut self, ctx: &mut Ctx<'_>, board: &mut Board) -> Result<usize, HeuristicError> {
        let p = ctx.puzzle;
        let classes: Vec<Vec<usize>> = movable_class_cells(ctx)
            .into_iter()
            .map(|cells| {
                cells
                    .into_iter()
                    .filter(|&c| board.cells[c].is_some())
                    .collect()
            })
            .collect();
        let filled: usize = classes.iter().map(Vec::len).sum();
        let mut gain = 0;
        for _ in 0..self.iterations {
            if ctx.out_of_time() || filled == 0 {
                break;
            }
            // The class is drawn with probability proportional to its number of cells (a
            // uniform cell, then its class): on EII 196 of 256 iterations go to the inner
            // cells and about one in 64 to the four corners, whose 24 permutations a uniform
            // draw would revisit a third of the time for nothing.
            let mut x = ctx.rng.below(filled);
            let class = classes
                .iter()
                .find(|cells| {
                    if x < cells.len() {
                        true
                    } else {
                        x -= cells.len();
                        false
                    }
                })
                .map_or(&classes[2], |c| c);
            let chosen = select_cells(p, board, class, self.k, &mut ctx.rng);
            if chosen.len() >= 2 {
                gain += reassign(p, board, &chosen, &self.solver);
            }
        }
        Ok(gain)
    }
}

// ---------------------------------------------------------------------------------------
// Black and White (BW).
// ---------------------------------------------------------------------------------------

/// Black-and-White ("BW", §3.3): Tile Assignment over a checkerboard. All cells with
/// `row + col` even ("black") are pairwise non-adjacent, and so are the odd ("white") ones;
/// for each colour and each piece class one assignment re-inserts all those pieces at once.
/// Black and white alternate until a full round (black, then white) gains nothing.
#[derive(Debug, Clone, Default)]
pub struct BlackAndWhite<A: Assignment = KuhnMunkres> {
    /// The assignment solver.
    pub solver: A,
}

impl<A: Assignment> Neighbourhood for BlackAndWhite<A> {
    fn name(&self) -> &'static str {
        "BW"
    }

    fn improve(&mut self, ctx: &mut Ctx<'_>, board: &mut Board) -> Result<usize, HeuristicError> {
        let p = ctx.puzzle;
        let cols = p.cols();
        let classes = movable_class_cells(ctx);
        let groups: Vec<Vec<usize>> = [0, 1]
            .into_iter()
            .flat_map(|colour| {
                classes.iter().map(move |cells| {
                    cells
                        .iter()
                        .copied()
                        .filter(|&c| (c / cols + c % cols) % 2 == colour)
                        .collect()
                })
            })
            .collect();
        let mut gain = 0;
        // Each round that goes on gains at least one seam, so this ends within max_score
        // rounds even without the deadline.
        loop {
            let mut round = 0;
            for cells in &groups {
                if ctx.out_of_time() {
                    return Ok(gain + round);
                }
                let filled: Vec<usize> = cells
                    .iter()
                    .copied()
                    .filter(|&c| board.cells[c].is_some())
                    .collect();
                if filled.len() >= 2 {
                    round += reassign(p, board, &filled, &self.solver);
                }
            }
            gain += round;
            if round == 0 {
                return Ok(gain);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Tiles Swap and Rotation (TSR).
// ---------------------------------------------------------------------------------------

/// Tiles Swap and Rotation ("TSR", §3.3): every swap of two pieces of the same class, each
/// tried in every rotation that fits its new cell, and every rotation of one piece in place;
/// moves by first or best improvement until no move improves (a local optimum).
///
/// The default is best improvement, as in the paper's steepest-descent framing.
#[derive(Debug, Clone, Copy, Default)]
pub struct SwapRotate {
    /// Take the first improving move found (cells visited in a fresh random order each
    /// scan) instead of the best one of a full scan.
    pub first_improvement: bool,
}

/// One TSR move: the content `cell` gets, for one or two cells.
#[derive(Debug, Clone, Copy)]
enum Move {
    /// Turn the piece in `cell` to `rot`.
    Rotate { cell: usize, rot: Rotation },
    /// Cell `a` gets `b`'s piece turned by `ra`, cell `b` gets `a`'s turned by `rb`.
    Swap {
        a: usize,
        ra: Rotation,
        b: usize,
        rb: Rotation,
    },
}

impl SwapRotate {
    /// One scan of the neighbourhood: the first or the best improving move and its gain.
    /// Leaves the board as it found it (adjacent swaps are tried in place and undone).
    fn scan(
        &self,
        ctx: &mut Ctx<'_>,
        board: &mut Board,
        classes: &[Vec<usize>],
    ) -> Option<(usize, Move)> {
        let p = ctx.puzzle;
        let cols = board.cols;
        let mut best: Option<(usize, Move)> = None;
        for cells in classes {
            let mut order = cells.clone();
            if self.first_improvement {
                ctx.rng.shuffle(&mut order);
            }
            for (ia, &a) in order.iter().enumerate() {
                // A scan of EII's inner cells is ~19,000 pairs: check the clock per cell.
                if ctx.out_of_time() {
                    return best;
                }
                let Some((pa, rot_a)) = board.cells[a] else {
                    continue;
                };
                let (row_a, col_a) = (a / cols, a % cols);
                let sa = cell_matched(p, board, a);
                let mut offer = |delta: usize, mv: Move| {
                    if best.is_none_or(|(d, _)| delta > d) {
                        best = Some((delta, mv));
                    }
                };
                for rot in p.fitting_rotations(pa, row_a, col_a) {
                    let v = matched_sides(p, board, pa, rot, row_a, col_a);
                    if rot != rot_a && v > sa {
                        offer(v - sa, Move::Rotate { cell: a, rot });
                    }
                }
                if self.first_improvement && best.is_some() {
                    return best;
                }
                for &b in &order[ia + 1..] {
                    let Some((pb, rot_b)) = board.cells[b] else {
                        continue;
                    };
                    let sb = cell_matched(p, board, b);
                    let found = if adjacent(cols, a, b) {
                        // The shared seam is counted by both cells: count it once, and try
                        // the rotations together since each one changes the other's value.
                        let old = sa + sb - usize::from(seam_matched(p, board, a, b));
                        let mut top: Option<(usize, Rotation, Rotation)> = None;
                        for ra in p.fitting_rotations(pb, row_a, col_a) {
                            for rb in p.fitting_rotations(pa, b / cols, b % cols) {
                                board.cells[a] = Some((pb, ra));
                                board.cells[b] = Some((pa, rb));
                                let new = cell_matched(p, board, a) + cell_matched(p, board, b)
                                    - usize::from(seam_matched(p, board, a, b));
                                if top.is_none_or(|(t, _, _)| new > t) {
                                    top = Some((new, ra, rb));
                                }
                            }
                        }
                        board.cells[a] = Some((pa, rot_a));
                        board.cells[b] = Some((pb, rot_b));
                        top.filter(|&(new, _, _)| new > old)
                            .map(|(new, ra, rb)| (new - old, ra, rb))
                    } else {
                        // Apart, each cell's value depends on its fixed neighbours alone.
                        match (best_fit(p, board, pb, a), best_fit(p, board, pa, b)) {
                            (Some((va, ra)), Some((vb, rb))) if va + vb > sa + sb => {
                                Some((va + vb - sa - sb, ra, rb))
                            }
                            _ => None,
                        }
                    };
                    if let Some((delta, ra, rb)) = found {
                        if best.is_none_or(|(d, _)| delta > d) {
                            best = Some((delta, Move::Swap { a, ra, b, rb }));
                        }
                        if self.first_improvement {
                            return best;
                        }
                    }
                }
            }
        }
        best
    }
}

impl Neighbourhood for SwapRotate {
    fn name(&self) -> &'static str {
        "TSR"
    }

    fn improve(&mut self, ctx: &mut Ctx<'_>, board: &mut Board) -> Result<usize, HeuristicError> {
        let classes = movable_class_cells(ctx);
        let mut gain = 0;
        // Every move gains at least one seam, so this ends within max_score moves.
        while !ctx.out_of_time() {
            let Some((delta, mv)) = self.scan(ctx, board, &classes) else {
                break;
            };
            match mv {
                Move::Rotate { cell, rot } => {
                    if let Some((id, _)) = board.cells[cell] {
                        board.cells[cell] = Some((id, rot));
                    }
                }
                Move::Swap { a, ra, b, rb } => {
                    if let (Some((pa, _)), Some((pb, _))) = (board.cells[a], board.cells[b]) {
                        board.cells[a] = Some((pb, ra));
                        board.cells[b] = Some((pa, rb));
                    }
                }
            }
            gain += delta;
        }
        Ok(gain)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edge_search::matched;
    use crate::puzzle::edge::{generate, score};

    use crate::edge_search::region_clique::tests::ctx;

    fn assert_legal(p: &EdgePuzzle, b: &Board, what: &str) {
        let s = score(p, b);
        assert_eq!(
            (s.rim_faults, s.repeats, s.empty),
            (0, 0, 0),
            "{what}: {s:?}"
        );
    }

    /// Every neighbourhood alone, on random legal boards of random small puzzles (few
    /// colours, so that both matches and mismatches abound): never worse, still legal, and
    /// the gain it reports is the score's change.
    #[test]
    fn neighbourhoods_never_worsen_keep_legality_and_report_their_gain() {
        let mut gained = [0usize; 4];
        for seed in 0..40u64 {
            let rows = 2 + (seed % 5) as usize;
            let cols = 2 + (seed / 5 % 5) as usize;
            let inner = if rows == 2 && cols == 2 { 0 } else { 2 };
            let (p, _) = generate(rows, cols, 2, inner + (seed % 2) as u16, seed).unwrap();
            let mut rng = Rng::new(seed + 100);
            let start = random_board(&p, &mut rng);
            assert_legal(&p, &start, "random_board");
            let mut hoods: Vec<Box<dyn Neighbourhood>> = vec![
                Box::new(TileAssignment::<KuhnMunkres> {
                    k: 1 + (seed % 16) as usize,
                    iterations: 60,
                    ..Default::default()
                }),
                Box::new(BlackAndWhite::<KuhnMunkres>::default()),
                Box::new(SwapRotate {
                    first_improvement: false,
                }),
                Box::new(SwapRotate {
                    first_improvement: true,
                }),
            ];
            for (h, hood) in hoods.iter_mut().enumerate() {
                let mut board = start.clone();
                let before = matched(&p, &board);
                let mut c = ctx(&p, seed);
                let gain = hood.improve(&mut c, &mut board).unwrap();
                let what = format!("{} on {rows}x{cols} seed {seed}", hood.name());
                assert_legal(&p, &board, &what);
                let after = matched(&p, &board);
                assert!(after >= before, "{what}: {before} -> {after}");
                assert_eq!(gain, after - before, "{what}");
                gained[h] += gain;
                // A local optimum stays one: a second call finds nothing.
                if hood.name() != "TA" {
                    assert_eq!(hood.improve(&mut c, &mut board).unwrap(), 0, "{what}");
                }
            }
        }
        // Random boards are far from local optima: every neighbourhood must find something.
        assert!(gained.iter().all(|&g| g > 0), "{gained:?}");
    }

    /// A planted 5×5 board with two inner pieces swapped (and turned).
    fn planted_with_swap(a: usize, b: usize) -> (EdgePuzzle, Board, Board) {
        let (p, solution) = generate(5, 5, 2, 4, 3).unwrap();
        let mut board = solution.clone();
        let (pa, ra) = board.cells[a].unwrap();
        let (pb, rb) = board.cells[b].unwrap();
        board.cells[a] = Some((pb, rb.then(Rotation::ALL[1])));
        board.cells[b] = Some((pa, ra));
        assert_legal(&p, &board, "swapped");
        assert!(matched(&p, &board) < p.max_score());
        (p, solution, board)
    }

    #[test]
    fn swap_rotate_restores_a_planted_board_with_two_inner_pieces_swapped() {
        // Apart (cells (1, 1) and (3, 2)) and side by side ((2, 2) and (2, 3)).
        for (a, b) in [(6, 17), (12, 13)] {
            let (p, _, mut board) = planted_with_swap(a, b);
            let before = matched(&p, &board);
            let gain = SwapRotate::default()
                .improve(&mut ctx(&p, 1), &mut board)
                .unwrap();
            assert_eq!(matched(&p, &board), p.max_score(), "cells {a}, {b}");
            assert_eq!(gain, p.max_score() - before);
        }
    }

    #[test]
    fn black_and_white_restores_two_swapped_pieces_of_one_colour() {
        // (1, 1) and (3, 3): both "black", so one assignment against the planted white
        // neighbours puts them back.
        let (p, _, mut board) = planted_with_swap(6, 18);
        BlackAndWhite::<KuhnMunkres>::default()
            .improve(&mut ctx(&p, 1), &mut board)
            .unwrap();
        assert_eq!(matched(&p, &board), p.max_score());
    }

    #[test]
    fn the_matched_sides_helper_agrees_with_the_score() {
        let (p, _) = generate(4, 5, 2, 2, 9).unwrap();
        let board = random_board(&p, &mut Rng::new(9));
        let per_cell: usize = (0..board.cells.len())
            .map(|c| cell_matched(&p, &board, c))
            .sum();
        // Every matched seam is seen from both of its cells.
        assert_eq!(per_cell, 2 * matched(&p, &board));
        for a in 0..board.cells.len() {
            for b in 0..board.cells.len() {
                if adjacent(board.cols, a, b) {
                    assert_eq!(
                        seam_matched(&p, &board, a, b),
                        seam_matched(&p, &board, b, a)
                    );
                }
            }
        }
    }

    #[test]
    fn tile_assignment_samples_pairwise_non_adjacent_cells_of_one_class() {
        let (p, _) = generate(8, 8, 2, 3, 5).unwrap();
        let board = random_board(&p, &mut Rng::new(5));
        let mut rng = Rng::new(6);
        for cells in class_cells(&p) {
            for _ in 0..20 {
                let chosen = select_cells(&p, &board, &cells, 16, &mut rng);
                assert!(!chosen.is_empty() && chosen.len() <= 16);
                for (i, &a) in chosen.iter().enumerate() {
                    assert!(cells.contains(&a));
                    for &b in &chosen[i + 1..] {
                        assert!(a != b && !adjacent(board.cols, a, b), "{a} {b}");
                    }
                }
            }
        }
    }
}
