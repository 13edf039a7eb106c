//! Region Optimisation (RO) by max-clique, §3.3 of Salassa et al.: sample a W×H window of the
//! complete board, build the clique graph of the window's own pieces over the window's cells
//! ([`WindowGraph`]), find a maximum clique (a perfect partial filling of the window) with
//! tilekit's exact search ([`crate::solve::clique_native`]), then fill the window cells the clique left empty
//! with the region MILP. Table 2 of the paper sets the window to 6×6 and the iterations to 10
//! (Clique.W, Clique.H, Clique.N).
//!
//! The paper solved its clique models with the heuristic of Grosso, Locatelli and Pullan; here
//! the search is exact branch and bound with a node budget and the run's deadline, so on a
//! window it usually proves its answer, and when it cannot it still returns the best clique it
//! met (never worse than the window's current perfect part, which seeds it).

use super::neighbourhood::Neighbourhood;
use super::{Ctx, HeuristicError, RegionOutcome, matched, solve_region};
use crate::formulate::edge_region::{Placement, RegionSpec};
use crate::model::graph::{self, StreamedGraph};
use crate::puzzle::edge::{Board, EdgePuzzle};
use crate::solve::clique_native::{BitGraph, max_clique_partitioned};
use std::time::Instant;

/// Search nodes one RO iteration's search for the largest clique may expand, after a first
/// search for a full filling of the window on five times as many ([`max_clique_partitioned`]).
/// A node of a 6×6 window graph (about 2,000–2,500 nodes on 12×12 and 16×16 boards) costs
/// 4–7 µs here, so a window that cannot be proven costs a few seconds at most (less when the
/// run's time slice for the window ends first); the seed keeps what the window had.
const NODE_BUDGET: u64 = 400_000;

/// The clique graph of one window of a board, for Region Optimisation (see the module docs).
///
/// Nodes are the placements (piece, cell, rotation) of the pieces now in the window onto the
/// window's cells that keep the rim rule and match every filled neighbour outside the window
/// (equal, non-grey facing colours): the paper leaves out placements that conflict with the
/// fixed surroundings. Rotations of one piece that show the same colours in a cell give one
/// node. Edges join placements on different cells with different pieces whose facing colours,
/// when the cells are adjacent, are equal and non-grey. A clique is thus a perfect partial
/// filling of the window, and a clique covering every cell a perfect window.
///
/// Node order (the DIMACS vertex order): by cell (row-major), then piece id, then rotation.
#[derive(Debug, Clone)]
pub struct WindowGraph {
    top: usize,
    left: usize,
    height: usize,
    width: usize,
    board_rows: usize,
    board_cols: usize,
    pieces: Vec<u16>,
    nodes: Vec<Placement>,
    /// The colours each node shows (up, right, down, left).
    colours: Vec<[u16; 4]>,
    adj: BitGraph,
}

/// Facing sides: (row step, column step, side of the first cell, side of the second).
const STEPS: [(isize, isize, usize, usize); 4] =
    [(-1, 0, 0, 2), (0, 1, 1, 3), (1, 0, 2, 0), (0, -1, 3, 1)];

impl WindowGraph {
    /// The window graph of the `height × width` window whose top-left cell is `(top, left)`,
    /// clipped to the board (at least one cell: `top` and `left` are clamped onto it). `board`
    /// may be partial: the window's pieces are those on its cells, and only filled cells
    /// outside it constrain.
    pub fn new(
        p: &EdgePuzzle,
        board: &Board,
        (top, left): (usize, usize),
        (height, width): (usize, usize),
    ) -> WindowGraph {
        let (rows, cols) = (board.rows, board.cols);
        let top = top.min(rows.saturating_sub(1));
        let left = left.min(cols.saturating_sub(1));
        let height = height.clamp(1, rows - top);
        let width = width.clamp(1, cols - left);
        let inside = |r: usize, c: usize| {
            (top..top + height).contains(&r) && (left..left + width).contains(&c)
        };
        let mut pieces: Vec<u16> = (top..top + height)
            .flat_map(|r| (left..left + width).map(move |c| (r, c)))
            .filter_map(|(r, c)| board.get(r, c).map(|(id, _)| id))
            .collect();
        pieces.sort_unstable();
        pieces.dedup();
        let shown = |r: usize, c: usize| {
            board
                .get(r, c)
                .and_then(|(id, rot)| p.piece(id).map(|pc| pc.placed(rot)))
        };
        let mut nodes = Vec::new();
        let mut colours: Vec<[u16; 4]> = Vec::new();
        for r in top..top + height {
            for c in left..left + width {
                for &id in &pieces {
                    let Some(pc) = p.piece(id) else { continue };
                    let mut seen: Vec<[u16; 4]> = Vec::new();
                    for rot in p.fitting_rotations(id, r, c) {
                        let pl = pc.placed(rot);
                        if seen.contains(&pl) {
                            continue;
                        }
                        seen.push(pl);
                        let fits_outside = STEPS.iter().all(|&(dr, dc, side, facing)| {
                            let (Some(r2), Some(c2)) =
                                (r.checked_add_signed(dr), c.checked_add_signed(dc))
                            else {
                                return true;
                            };
                            if inside(r2, c2) {
                                return true;
                            }
                            shown(r2, c2).is_none_or(|o| pl[side] != 0 && pl[side] == o[facing])
                        });
                        if fits_outside {
                            nodes.push(Placement {
                                piece: id,
                                row: r,
                                col: c,
                                rot,
                            });
                            colours.push(pl);
                        }
                    }
                }
            }
        }
        let mut adj = BitGraph::new(nodes.len());
        for (u, a) in nodes.iter().enumerate() {
            for (v, b) in nodes.iter().enumerate().skip(u + 1) {
                if a.piece == b.piece || (a.row, a.col) == (b.row, b.col) {
                    continue;
                }
                let facing = STEPS.iter().find(|&&(dr, dc, _, _)| {
                    a.row.checked_add_signed(dr) == Some(b.row)
                        && a.col.checked_add_signed(dc) == Some(b.col)
                });
                let compatible = facing.is_none_or(|&(_, _, side, other)| {
                    colours[u][side] != 0 && colours[u][side] == colours[v][other]
                });
                if compatible {
                    adj.add_edge(u, v);
                }
            }
        }
        WindowGraph {
            top,
            left,
            height,
            width,
            board_rows: rows,
            board_cols: cols,
            pieces,
            nodes,
            colours,
            adj,
        }
    }
    /// The window's cells, row-major.
    pub fn cells(&self) -> Vec<(usize, usize)> {
        (self.top..self.top + self.height)
            .flat_map(|r| (self.left..self.left + self.width).map(move |c| (r, c)))
            .collect()
    }
    /// The pieces that were in the window, ascending ids.
    pub fn pieces(&self) -> &[u16] {
        &self.pieces
    }
    /// The placement behind each node.
    pub fn nodes(&self) -> &[Placement] {
        &self.nodes
    }
    /// No clique is larger than this: the cells that have a node, or the window's pieces if
    /// fewer (each cell, and each piece, is an independent set of nodes).
    pub fn clique_bound(&self) -> usize {
        let mut cells: Vec<(usize, usize)> = self.nodes.iter().map(|n| (n.row, n.col)).collect();
        cells.dedup();
        cells.len().min(self.pieces.len())
    }
    /// The nodes by cell and by piece: two partitions into independent sets, for
    /// [`max_clique_partitioned`].
    pub fn partitions(&self) -> Vec<Vec<Vec<usize>>> {
        let mut by_cell: Vec<Vec<usize>> = Vec::new();
        let mut cell_of: Vec<(usize, usize)> = Vec::new();
        let mut by_piece: Vec<Vec<usize>> = vec![Vec::new(); self.pieces.len()];
        for (v, nd) in self.nodes.iter().enumerate() {
            match cell_of.iter().position(|&c| c == (nd.row, nd.col)) {
                Some(k) => by_cell[k].push(v),
                None => {
                    cell_of.push((nd.row, nd.col));
                    by_cell.push(vec![v]);
                }
            }
            if let Ok(k) = self.pieces.binary_search(&nd.piece) {
                by_piece[k].push(v);
            }
        }
        vec![by_cell, by_piece]
    }
    /// The adjacency matrix, for [`crate::solve::clique_native::max_clique`].
    pub fn bits(&self) -> &BitGraph {
        &self.adj
    }
    /// The largest clique among the window's current placements that are nodes, grown
    /// greedily in cell order: the perfect part of the window as it stands, a seed that keeps
    /// the search from returning anything smaller.
    pub fn current_clique(&self, p: &EdgePuzzle, board: &Board) -> Vec<usize> {
        let mut chosen: Vec<usize> = Vec::new();
        for (r, c) in self.cells() {
            let Some((id, rot)) = board.get(r, c) else {
                continue;
            };
            let Some(pc) = p.piece(id) else { continue };
            // Symmetric rotations were merged into one node: match on what the cell shows.
            let pl = pc.placed(rot);
            let found = (0..self.nodes.len()).find(|&v| {
                let n = &self.nodes[v];
                n.piece == id && (n.row, n.col) == (r, c) && self.colours[v] == pl
            });
            if let Some(v) = found
                && chosen.iter().all(|&u| self.adj.has_edge(u, v))
            {
                chosen.push(v);
            }
        }
        chosen
    }
    /// The placements of a clique (node ids), in node order.
    pub fn placements(&self, clique: &[usize]) -> Vec<Placement> {
        let mut c = clique.to_vec();
        c.sort_unstable();
        c.iter().map(|&v| self.nodes[v]).collect()
    }
}

impl StreamedGraph for WindowGraph {
    fn num_nodes(&self) -> usize {
        self.nodes.len()
    }
    fn node_label(&self, v: usize) -> String {
        let n = &self.nodes[v];
        format!(
            "piece {} at row {} col {} turned {}",
            n.piece,
            n.row,
            n.col,
            n.rot.turns()
        )
    }
    fn describe(&self) -> String {
        format!(
            "Region Optimisation window rows {}..={} cols {}..={} of a {}x{} board: nodes are \
             placements of the window's {} pieces matching the fixed cells around it, edges \
             join compatible placements (a clique is a perfect partial filling)",
            self.top,
            self.top + self.height - 1,
            self.left,
            self.left + self.width - 1,
            self.board_rows,
            self.board_cols,
            self.pieces.len()
        )
    }
    fn count_edges(&self, complement: bool) -> u64 {
        let e = self.adj.num_edges();
        if complement {
            graph::pairs(self.nodes.len()) - e
        } else {
            e
        }
    }
    fn neighbours_above(&self, u: usize, complement: bool, out: &mut Vec<u32>) {
        self.adj.above(u, complement, out);
    }
}

/// Region Optimisation ("RO", §3.3): `iterations` times, a `width × height` window placed
/// uniformly at random among the positions where it fits on the board (clipped when the board
/// is smaller) is refilled by a maximum clique of its [`WindowGraph`] and the region MILP
/// over the cells the clique left empty; the new board is kept when it matches at least as
/// many seams as before.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RegionOptimisation {
    /// Window columns (Clique.W).
    pub width: usize,
    /// Window rows (Clique.H).
    pub height: usize,
    /// Windows tried per call (Clique.N).
    pub iterations: usize,
}

impl Default for RegionOptimisation {
    /// The paper's Table 2: 6×6 windows, 10 iterations.
    fn default() -> Self {
        RegionOptimisation {
            width: 6,
            height: 6,
            iterations: 10,
        }
    }
}

impl RegionOptimisation {
    /// One window: refill it and return the better-or-equal board, or `None` to keep the
    /// current one (a worse refill, or the solver out of time).
    fn window(
        &self,
        ctx: &mut Ctx<'_>,
        board: &Board,
        slice_end: Instant,
    ) -> Result<Option<Board>, HeuristicError> {
        let (rows, cols) = (board.rows, board.cols);
        let (h, w) = (self.height.clamp(1, rows), self.width.clamp(1, cols));
        // A window over a frozen cell (a fixed piece) would move it: such windows are drawn
        // again, a few times, and the iteration passes when none is free.
        let mut drawn = None;
        for _ in 0..16 {
            let top = ctx.rng.below(rows - h + 1);
            let left = ctx.rng.below(cols - w + 1);
            let frozen = (top..top + h).any(|r| (left..left + w).any(|c| ctx.is_frozen(r, c)));
            if !frozen {
                drawn = Some((top, left));
                break;
            }
        }
        let Some((top, left)) = drawn else {
            return Ok(None);
        };
        let g = WindowGraph::new(ctx.puzzle, board, (top, left), (h, w));
        let seed = g.current_clique(ctx.puzzle, board);
        let found = max_clique_partitioned(
            g.bits(),
            &seed,
            g.clique_bound(),
            &g.partitions(),
            NODE_BUDGET,
            Some(slice_end),
        );
        let mut partial = board.clone();
        for (r, c) in g.cells() {
            partial.cells[r * cols + c] = None;
        }
        let placed = g.placements(&found.clique);
        for pl in &placed {
            partial.cells[pl.row * cols + pl.col] = Some((pl.piece, pl.rot));
        }
        let holes: Vec<(usize, usize)> = g
            .cells()
            .into_iter()
            .filter(|&(r, c)| partial.get(r, c).is_none())
            .collect();
        let candidate = if holes.is_empty() {
            partial
        } else {
            let spec = RegionSpec {
                cells: holes,
                pieces: g
                    .pieces()
                    .iter()
                    .copied()
                    .filter(|id| placed.iter().all(|pl| pl.piece != *id))
                    .collect(),
                cuts: Vec::new(),
                perfect: false,
            };
            match solve_region(ctx, &partial, &spec)? {
                RegionOutcome::Filled { board, .. } => board,
                RegionOutcome::Infeasible | RegionOutcome::TimeLimit => return Ok(None),
            }
        };
        Ok(legal_and_not_worse(ctx.puzzle, board, candidate))
    }
}

/// `candidate` when it is complete, keeps the rim rule, uses no piece twice and matches at
/// least as many seams as `current`; else `None`. The last guard before a neighbourhood moves.
pub(crate) fn legal_and_not_worse(
    p: &EdgePuzzle,
    current: &Board,
    candidate: Board,
) -> Option<Board> {
    let s = crate::puzzle::edge::score(p, &candidate);
    (s.empty == 0 && s.rim_faults == 0 && s.repeats == 0 && s.matched >= matched(p, current))
        .then_some(candidate)
}

impl Neighbourhood for RegionOptimisation {
    fn name(&self) -> &'static str {
        "RO"
    }
    fn improve(&mut self, ctx: &mut Ctx<'_>, board: &mut Board) -> Result<usize, HeuristicError> {
        let start = matched(ctx.puzzle, board);
        for i in 0..self.iterations {
            let Some(left) = ctx.remaining() else { break };
            // Each window gets an equal share of the time left for its clique search, so one
            // hard window cannot starve the rest; the MILP over the holes may use the rest.
            let slice_end = Instant::now() + left / (self.iterations - i) as u32;
            if let Some(better) = self.window(ctx, board, slice_end)? {
                *board = better;
            }
        }
        Ok(matched(ctx.puzzle, board) - start)
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::edge_search::Rng;
    use crate::edge_search::border::BorderOptimisation;
    use crate::format::dimacs_graph::write_graph;
    use crate::puzzle::edge::{PieceKind, Rotation, generate, score};
    use crate::solve::clique_native::max_clique;
    use crate::solve::milp_embedded::Microlp;
    use proptest::prelude::*;
    use std::time::Duration;

    fn quiet(_: &str) {}

    /// A context on the embedded MILP engine with a minute to run.
    pub(in crate::edge_search) fn ctx(p: &EdgePuzzle, seed: u64) -> Ctx<'_> {
        Ctx {
            puzzle: p,
            milp: &Microlp,
            rng: Rng::new(seed),
            deadline: Instant::now() + Duration::from_secs(60),
            threads: 1,
            progress: &quiet,
            frozen: Vec::new(),
        }
    }

    /// The kind of piece cell (`r`, `c`) takes.
    fn cell_kind(p: &EdgePuzzle, r: usize, c: usize) -> PieceKind {
        let rim = [r == 0, c + 1 == p.cols(), r + 1 == p.rows(), c == 0];
        match rim.iter().filter(|&&b| b).count() {
            0 => PieceKind::Inner,
            1 => PieceKind::Edge,
            _ => PieceKind::Corner,
        }
    }

    /// A random legal complete board: each kind's pieces shuffled into that kind's cells, each
    /// in a random fitting rotation (boards of at least 3×3, where the kinds are exact).
    pub(in crate::edge_search) fn random_legal_board(p: &EdgePuzzle, rng: &mut Rng) -> Board {
        let mut board = Board::empty(p.rows(), p.cols());
        for kind in [PieceKind::Corner, PieceKind::Edge, PieceKind::Inner] {
            let mut ids: Vec<u16> = p
                .pieces()
                .iter()
                .filter(|pc| pc.kind() == Some(kind))
                .map(|pc| pc.id)
                .collect();
            rng.shuffle(&mut ids);
            let cells = (0..p.rows() * p.cols())
                .filter(|&i| cell_kind(p, i / p.cols(), i % p.cols()) == kind);
            for (i, id) in cells.zip(ids) {
                let rots = p.fitting_rotations(id, i / p.cols(), i % p.cols());
                board.cells[i] = Some((id, rots[rng.below(rots.len())]));
            }
        }
        assert!(legal(p, &board));
        board
    }

    /// Complete, rim rule kept, no piece twice.
    pub(in crate::edge_search) fn legal(p: &EdgePuzzle, board: &Board) -> bool {
        let s = score(p, board);
        s.empty == 0 && s.rim_faults == 0 && s.repeats == 0
    }

    /// Permute the inner pieces on `cells` (all inner cells) and turn each at random.
    pub(in crate::edge_search) fn scramble(
        board: &mut Board,
        cells: &[(usize, usize)],
        rng: &mut Rng,
    ) {
        let cols = board.cols;
        let mut ids: Vec<u16> = cells
            .iter()
            .map(|&(r, c)| board.get(r, c).unwrap().0)
            .collect();
        rng.shuffle(&mut ids);
        for (&(r, c), id) in cells.iter().zip(ids) {
            let rot = Rotation::ALL[rng.below(4)];
            board.cells[r * cols + c] = Some((id, rot));
        }
    }

    /// The maximum clique size cliquer reports for the DIMACS file of `g`.
    fn cliquer_size(g: &WindowGraph) -> usize {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("window.dimacs");
        let file = std::fs::File::create(&path).unwrap();
        write_graph(g, false, true, std::io::BufWriter::new(file)).unwrap();
        let out = std::process::Command::new("cliquer")
            .args(["-q", "-q"])
            .arg(&path)
            .output()
            .unwrap_or_else(|e| {
                panic!("cliquer could not run ({e}): run scripts/install-solvers.sh")
            });
        assert!(out.status.success(), "{out:?}");
        let text = String::from_utf8_lossy(&out.stdout);
        crate::format::solution::clique::parse_cliquer(&text, "cliquer", g.num_nodes())
            .unwrap()
            .len()
    }

    #[cfg_attr(
        not(feature = "solver-tests"),
        ignore = "runs the installed cliquer: feature solver-tests, which scripts/test.sh turns on"
    )]
    #[test]
    fn window_cliques_agree_with_cliquer() {
        let mut rng = Rng::new(3);
        let mut sizes = Vec::new();
        for (n, seed) in [(6, 1), (6, 2), (7, 3), (7, 4), (6, 5)] {
            let (p, planted) = generate(n, n, 2, 3, seed).unwrap();
            for trial in 0..3 {
                // A planted board with a few inner pieces swapped, or a random legal board.
                let board = if trial < 2 {
                    let mut b = planted.clone();
                    let cells: Vec<(usize, usize)> = (0..4)
                        .map(|_| (1 + rng.below(n - 2), 1 + rng.below(n - 2)))
                        .collect();
                    let mut cells = cells;
                    cells.sort_unstable();
                    cells.dedup();
                    scramble(&mut b, &cells, &mut rng);
                    b
                } else {
                    random_legal_board(&p, &mut rng)
                };
                let (h, w) = (3 + rng.below(2), 3 + rng.below(2));
                let at = (rng.below(n - h + 1), rng.below(n - w + 1));
                let g = WindowGraph::new(&p, &board, at, (h, w));
                let found = max_clique(g.bits(), &[], usize::MAX, u64::MAX, None);
                assert!(found.proven);
                assert!(g.bits().is_clique(&found.clique));
                assert_eq!(graph::first_non_adjacent(&g, &found.clique), None);
                assert_eq!(
                    found.clique.len(),
                    cliquer_size(&g),
                    "{n}x{n} seed {seed} {at:?} {h}x{w}"
                );
                sizes.push((found.clique.len(), h * w));
            }
        }
        // Both perfect windows and windows with holes were compared.
        assert!(sizes.iter().any(|&(k, cells)| k == cells));
        assert!(sizes.iter().any(|&(k, cells)| k < cells));
    }

    #[test]
    fn a_window_clique_is_a_perfect_partial_filling() {
        let (p, planted) = generate(6, 6, 2, 3, 9).unwrap();
        // The planted board's window is a clique of every cell, found from an empty seed.
        let g = WindowGraph::new(&p, &planted, (1, 2), (4, 4));
        let seed = g.current_clique(&p, &planted);
        assert_eq!(seed.len(), 16);
        let found = max_clique(g.bits(), &[], usize::MAX, u64::MAX, None);
        assert_eq!(found.clique.len(), 16);
        // Seeded with the window as it is and bounded by its cells, nothing is left to search.
        assert_eq!(g.clique_bound(), 16);
        let quick = max_clique(g.bits(), &seed, g.clique_bound(), u64::MAX, None);
        assert!(quick.proven);
        assert_eq!((quick.clique.len(), quick.nodes), (16, 0));
        let mut b = planted.clone();
        for (r, c) in g.cells() {
            b.cells[r * 6 + c] = None;
        }
        for pl in g.placements(&found.clique) {
            b.cells[pl.row * 6 + pl.col] = Some((pl.piece, pl.rot));
        }
        assert_eq!(matched(&p, &b), p.max_score());
        // Clipped: a window hanging off the board covers what is left of it.
        let g = WindowGraph::new(&p, &planted, (4, 4), (6, 6));
        assert_eq!(g.cells().len(), 4);
        assert_eq!(g.pieces().len(), 4);
    }

    #[test]
    fn region_optimisation_restores_a_scrambled_planted_window() {
        let (p, planted) = generate(6, 6, 2, 3, 21).unwrap();
        let mut rng = Rng::new(5);
        let mut board = planted.clone();
        // The centre 2×2 lies inside every 4×4 window of a 6×6 board.
        scramble(&mut board, &[(2, 2), (2, 3), (3, 2), (3, 3)], &mut rng);
        let before = matched(&p, &board);
        assert!(before < p.max_score());
        let mut c = ctx(&p, 1);
        let mut ro = RegionOptimisation {
            width: 4,
            height: 4,
            iterations: 2,
        };
        let gained = ro.improve(&mut c, &mut board).unwrap();
        assert_eq!(matched(&p, &board), p.max_score());
        assert_eq!(gained, p.max_score() - before);
        assert!(legal(&p, &board));
    }

    #[test]
    fn region_optimisation_fills_holes_with_the_milp() {
        // A random legal board of few colours: windows leave holes the MILP must fill.
        let (p, _) = generate(5, 5, 2, 2, 4).unwrap();
        let mut rng = Rng::new(8);
        let mut board = random_legal_board(&p, &mut rng);
        let before = matched(&p, &board);
        let mut c = ctx(&p, 2);
        let mut ro = RegionOptimisation {
            width: 3,
            height: 3,
            iterations: 6,
        };
        let gained = ro.improve(&mut c, &mut board).unwrap();
        assert!(legal(&p, &board));
        assert_eq!(matched(&p, &board), before + gained);
    }

    #[test]
    fn the_window_graph_is_written_as_dimacs() {
        let (p, planted) = generate(4, 4, 2, 2, 2).unwrap();
        let g = WindowGraph::new(&p, &planted, (0, 0), (2, 2));
        let mut out = Vec::new();
        let m = write_graph(&g, false, true, &mut out).unwrap();
        assert_eq!(m, g.bits().num_edges());
        assert_eq!(graph::count_by_listing(&g, true), g.count_edges(true));
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains(&format!("p edge {} {m}", g.num_nodes())),
            "{text}"
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

        #[test]
        fn bo_and_ro_never_make_a_random_board_worse(
            seed in any::<u64>(),
            n in 3usize..6,
            inner in 1u16..4,
        ) {
            let (p, _) = generate(n, n, 2, inner, seed).unwrap();
            let mut rng = Rng::new(seed);
            let start = random_legal_board(&p, &mut rng);
            let before = matched(&p, &start);

            let mut board = start.clone();
            let mut c = ctx(&p, seed);
            let gained = BorderOptimisation.improve(&mut c, &mut board).unwrap();
            prop_assert!(legal(&p, &board));
            prop_assert_eq!(matched(&p, &board), before + gained);

            let mut board = start.clone();
            let mut ro = RegionOptimisation { width: 3, height: 3, iterations: 3 };
            let gained = ro.improve(&mut c, &mut board).unwrap();
            prop_assert!(legal(&p, &board));
            prop_assert_eq!(matched(&p, &board), before + gained);
        }
    }
}
