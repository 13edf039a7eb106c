//! Region Optimisation (RO) by max-clique, §3.3 of Salassa et al.: sample a W×H window of the
//! complete board, build the clique graph of the window's own pieces over the window's cells
//! ([`WindowGraph`]), find a maximum clique (a perfect partial filling of the window) with a
//! native exact search ([`max_clique`]), then fill the window cells the clique left empty
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
use std::time::Instant;

/// Search nodes one RO iteration's search for the largest clique may expand, after a first
/// search for a full filling of the window on five times as many ([`max_clique_partitioned`]).
/// A node of a 6×6 window graph (about 2,000–2,500 nodes on 12×12 and 16×16 boards) costs
/// 4–7 µs here, so a window that cannot be proven costs a few seconds at most (less when the
/// run's time slice for the window ends first); the seed keeps what the window had.
const NODE_BUDGET: u64 = 400_000;

/// An undirected simple graph as a bitset adjacency matrix (one row of `u64` words per node),
/// the representation the clique search works on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BitGraph {
    n: usize,
    words: usize,
    adj: Vec<u64>,
}

impl BitGraph {
    /// The graph of `n` nodes and no edge.
    pub fn new(n: usize) -> BitGraph {
        let words = n.div_ceil(64);
        BitGraph {
            n,
            words,
            adj: vec![0; n * words],
        }
    }
    /// The number of nodes.
    pub fn num_nodes(&self) -> usize {
        self.n
    }
    /// Join `u` and `v` (a loop `u == v` is ignored: the graph stays simple).
    pub fn add_edge(&mut self, u: usize, v: usize) {
        if u != v {
            self.adj[u * self.words + v / 64] |= 1 << (v % 64);
            self.adj[v * self.words + u / 64] |= 1 << (u % 64);
        }
    }
    /// True when `u` and `v` are joined.
    pub fn has_edge(&self, u: usize, v: usize) -> bool {
        self.adj[u * self.words + v / 64] >> (v % 64) & 1 == 1
    }
    /// The neighbour set of `u`, as bitset words.
    fn row(&self, u: usize) -> &[u64] {
        &self.adj[u * self.words..(u + 1) * self.words]
    }
    /// The number of neighbours of `u`.
    pub fn degree(&self, u: usize) -> usize {
        self.row(u).iter().map(|w| w.count_ones() as usize).sum()
    }
    /// The number of edges.
    pub fn num_edges(&self) -> u64 {
        (0..self.n).map(|u| self.degree(u) as u64).sum::<u64>() / 2
    }
    /// True when `nodes` are pairwise adjacent (distinct and in range).
    pub fn is_clique(&self, nodes: &[usize]) -> bool {
        nodes.iter().enumerate().all(|(i, &u)| {
            u < self.n
                && nodes[i + 1..]
                    .iter()
                    .all(|&v| v < self.n && self.has_edge(u, v))
        })
    }
    /// The graph of any [`StreamedGraph`] (its edges, not its complement's).
    pub fn from_streamed<G: StreamedGraph + ?Sized>(g: &G) -> BitGraph {
        let mut b = BitGraph::new(g.num_nodes());
        let mut buf = Vec::new();
        for u in 0..b.n {
            g.neighbours_above(u, false, &mut buf);
            for &v in &buf {
                b.add_edge(u, v as usize);
            }
        }
        b
    }
    /// The nodes `v > u` joined to `u` (or, with `complement`, not joined), ascending.
    fn above(&self, u: usize, complement: bool, out: &mut Vec<u32>) {
        out.clear();
        for v in u + 1..self.n {
            if self.has_edge(u, v) != complement {
                out.push(v as u32);
            }
        }
    }
}

/// What a [`max_clique`] search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CliqueSearch {
    /// The largest clique met, ascending node ids.
    pub clique: Vec<usize>,
    /// True when the search ran to the end, so no larger clique exists.
    pub proven: bool,
    /// Search nodes expanded.
    pub nodes: u64,
}

/// The largest clique of `g`, by exact branch and bound with greedy colouring bounds: the
/// MCQ algorithm of Tomita and Seki ("An efficient branch-and-bound algorithm for finding a
/// maximum clique", DMTCS 2003, LNCS 2731), with the bitset colouring of San Segundo, Rodríguez
/// -Losada and Jiménez ("An exact bit-parallel algorithm for the maximum clique problem",
/// Computers & OR 38, 2011).
///
/// Vertices are renumbered by non-increasing degree. At each search node the candidate set
/// `P` is coloured greedily (colour classes are independent sets, built lowest index first
/// with bit operations); a clique inside `P` has at most as many vertices as `P` has colours,
/// so candidates are tried from the highest colour down and the node is cut as soon as the
/// current clique plus the candidate's colour cannot beat the incumbent.
///
/// `initial` (a clique of `g`, or empty) seeds the incumbent. `upper` is a bound known from
/// outside (a window's cell count; `usize::MAX` for none): a clique that reaches it ends the
/// search, proven, where colouring alone would go on proving it. The search stops after
/// `node_budget` search nodes or at `deadline`, returning the best clique met with `proven`
/// false.
pub fn max_clique(
    g: &BitGraph,
    initial: &[usize],
    upper: usize,
    node_budget: u64,
    deadline: Option<Instant>,
) -> CliqueSearch {
    max_clique_partitioned(g, initial, upper, &[], node_budget, deadline)
}

/// [`max_clique`] with partitions of the nodes into independent sets known from outside (a
/// window graph's nodes by cell and by piece: two placements on one cell, or of one piece,
/// are never adjacent). A clique holds at most one node of each part, so at every search node
/// the parts still holding a candidate bound the clique as well as the colours do; the bound
/// is taken first, before colouring, and on the puzzle's graphs it is the sharper one: it
/// cuts a branch as soon as some cell has no placement left (forward checking), which greedy
/// colouring alone does not see.
pub fn max_clique_partitioned(
    g: &BitGraph,
    initial: &[usize],
    upper: usize,
    partitions: &[Vec<Vec<usize>>],
    node_budget: u64,
    deadline: Option<Instant>,
) -> CliqueSearch {
    let n = g.num_nodes();
    // MCQ's initial order: non-increasing degree (ties by id, for determinism).
    let mut order: Vec<usize> = (0..n).collect();
    let degree: Vec<usize> = (0..n).map(|u| g.degree(u)).collect();
    order.sort_by_key(|&u| (std::cmp::Reverse(degree[u]), u));
    let mut position = vec![0; n];
    for (i, &u) in order.iter().enumerate() {
        position[u] = i;
    }
    let mut h = BitGraph::new(n);
    for u in 0..n {
        for v in u + 1..n {
            if g.has_edge(u, v) {
                h.add_edge(position[u], position[v]);
            }
        }
    }
    let seed = if g.is_clique(initial) {
        initial.iter().map(|&u| position[u]).collect()
    } else {
        Vec::new()
    };
    // Each part as a bit mask over the renumbered nodes.
    let parts: Vec<Vec<Vec<u64>>> = partitions
        .iter()
        .map(|partition| {
            partition
                .iter()
                .map(|part| {
                    let mut mask = vec![0u64; h.words];
                    for &u in part.iter().filter(|&&u| u < n) {
                        let v = position[u];
                        mask[v / 64] |= 1 << (v % 64);
                    }
                    mask
                })
                .collect()
        })
        .collect();
    let mut s = Search {
        g: &h,
        best: seed,
        current: Vec::new(),
        nodes: 0,
        budget: node_budget,
        deadline,
        aborted: false,
        upper,
        parts,
        floor: 0,
    };
    let mut all = vec![0u64; h.words];
    for v in 0..n {
        all[v / 64] |= 1 << (v % 64);
    }
    if n > 0 && s.best.len() < upper {
        if s.parts.is_empty() {
            s.expand(all);
        } else {
            // First look only for a clique that reaches `upper` (every cell filled): a pure
            // puzzle search, where any cell left without a candidate cuts the branch, on five
            // times the budget (a full filling is what the window is for, and this search is
            // the cheap one: on a planted 6×6 board it needed 1–2 million nodes where the
            // second phase spent minutes); then the full search for the largest clique on
            // `node_budget` nodes.
            if upper < n {
                s.floor = upper - 1;
                s.budget = node_budget.saturating_mul(5);
                s.expand_by_part(all.clone());
                s.floor = 0;
                s.budget = s.nodes.saturating_add(node_budget);
                // An exhausted first phase proves only that no clique reaches `upper`.
                s.aborted = false;
            }
            if s.best.len() < upper {
                s.expand_by_part(all);
            }
        }
    }
    let mut clique: Vec<usize> = s.best.iter().map(|&i| order[i]).collect();
    clique.sort_unstable();
    CliqueSearch {
        clique,
        proven: !s.aborted,
        nodes: s.nodes,
    }
}

/// The state of one [`max_clique`] search, over the renumbered graph.
struct Search<'g> {
    g: &'g BitGraph,
    best: Vec<usize>,
    current: Vec<usize>,
    nodes: u64,
    budget: u64,
    deadline: Option<Instant>,
    aborted: bool,
    /// A known upper bound: reaching it ends the search.
    upper: usize,
    /// Partitions into independent sets, each part a mask ([`max_clique_partitioned`]).
    parts: Vec<Vec<Vec<u64>>>,
    /// Branches that cannot beat this size are cut too (a first phase that looks only for
    /// cliques of a given size).
    floor: usize,
}

impl Search<'_> {
    /// Count one search node; true (and the search marked aborted) once the node budget or
    /// the deadline is spent. The clock is read every 1024 nodes only: a node costs a few
    /// microseconds, a clock read about as much.
    fn spent(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes > self.budget
            || (self.nodes.is_multiple_of(1024)
                && self.deadline.is_some_and(|d| Instant::now() >= d))
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// Search the cliques that extend `current` with vertices of `p` (non-empty).
    fn expand(&mut self, mut p: Vec<u64>) {
        if self.spent() {
            return;
        }
        let (vertices, colours) = self.colour_sort(&p);
        for i in (0..vertices.len()).rev() {
            if self.current.len() + colours[i] <= self.best.len() {
                return;
            }
            let v = vertices[i];
            self.current.push(v);
            let q: Vec<u64> = p.iter().zip(self.g.row(v)).map(|(a, b)| a & b).collect();
            if q.iter().all(|&w| w == 0) {
                if self.current.len() > self.best.len() {
                    self.best = self.current.clone();
                }
            } else {
                self.expand(q);
            }
            self.current.pop();
            p[v / 64] &= !(1 << (v % 64));
            if self.aborted || self.best.len() >= self.upper {
                return;
            }
        }
    }

    /// The search with partitions: branch on the part of the first partition (a cell) with
    /// the fewest candidates left — each of its candidates in turn, then leaving it out —
    /// and cut where the parts still live cannot beat the incumbent. On a window graph this
    /// is a puzzle search with forward checking and the most constrained cell first, and it
    /// stays exact for the maximum clique, since a cell may be left empty.
    fn expand_by_part(&mut self, p: Vec<u64>) {
        if self.spent() {
            return;
        }
        if p.iter().all(|&w| w == 0) {
            if self.current.len() > self.best.len() {
                self.best = self.current.clone();
            }
            return;
        }
        let count =
            |mask: &[u64]| -> u32 { mask.iter().zip(&p).map(|(m, w)| (m & w).count_ones()).sum() };
        let mut bound = usize::MAX;
        let mut branch: Option<(usize, u32)> = None;
        for (k, partition) in self.parts.iter().enumerate() {
            let mut live = 0;
            for (i, mask) in partition.iter().enumerate() {
                let c = count(mask);
                if c > 0 {
                    live += 1;
                    if k == 0 && branch.is_none_or(|(_, best)| c < best) {
                        branch = Some((i, c));
                    }
                }
            }
            bound = bound.min(live);
        }
        // Vertices outside every part of the first partition cannot be branched on by part:
        // the plain colouring search takes over.
        let covered: usize = self.parts[0].iter().map(|mask| count(mask) as usize).sum();
        let total: usize = p.iter().map(|w| w.count_ones() as usize).sum();
        if covered < total {
            return self.expand(p);
        }
        if self.current.len() + bound <= self.best.len().max(self.floor) {
            return;
        }
        let Some((part, _)) = branch else { return };
        let mask = self.parts[0][part].clone();
        let candidates: Vec<usize> = mask
            .iter()
            .zip(&p)
            .enumerate()
            .flat_map(|(wi, (m, w))| {
                let mut bits = m & w;
                std::iter::from_fn(move || {
                    (bits != 0).then(|| {
                        let b = bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        wi * 64 + b
                    })
                })
            })
            .collect();
        for v in candidates {
            self.current.push(v);
            let q: Vec<u64> = p.iter().zip(self.g.row(v)).map(|(a, b)| a & b).collect();
            self.expand_by_part(q);
            self.current.pop();
            if self.aborted || self.best.len() >= self.upper {
                return;
            }
        }
        // The cell left empty.
        let rest: Vec<u64> = p.iter().zip(&mask).map(|(w, m)| w & !m).collect();
        self.expand_by_part(rest);
    }

    /// Greedy sequential colouring of `p`: the vertices in order of non-decreasing colour,
    /// and each one's colour (1-based), which bounds the clique among it and those before it.
    fn colour_sort(&self, p: &[u64]) -> (Vec<usize>, Vec<usize>) {
        let mut uncoloured = p.to_vec();
        let (mut vertices, mut colours) = (Vec::new(), Vec::new());
        let mut k = 0;
        while uncoloured.iter().any(|&w| w != 0) {
            k += 1;
            let mut q = uncoloured.clone();
            for wi in 0..q.len() {
                while q[wi] != 0 {
                    let v = wi * 64 + q[wi].trailing_zeros() as usize;
                    uncoloured[wi] &= !(1 << (v % 64));
                    // Drop v and its neighbours: the rest of the class stays independent.
                    for (qw, nw) in q.iter_mut().zip(self.g.row(v)).skip(wi) {
                        *qw &= !nw;
                    }
                    q[wi] &= !(1 << (v % 64));
                    vertices.push(v);
                    colours.push(k);
                }
            }
        }
        (vertices, colours)
    }
}

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
    /// The adjacency matrix, for [`max_clique`].
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
    use crate::format::dimacs_graph::write_graph;
    use crate::heuristic::Rng;
    use crate::heuristic::border::BorderOptimisation;
    use crate::puzzle::edge::{PieceKind, Rotation, generate, score};
    use crate::solve::milp_embedded::Microlp;
    use proptest::prelude::*;
    use std::time::Duration;

    fn quiet(_: &str) {}

    /// A context on the embedded MILP engine with a minute to run.
    pub(in crate::heuristic) fn ctx(p: &EdgePuzzle, seed: u64) -> Ctx<'_> {
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
    pub(in crate::heuristic) fn random_legal_board(p: &EdgePuzzle, rng: &mut Rng) -> Board {
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
    pub(in crate::heuristic) fn legal(p: &EdgePuzzle, board: &Board) -> bool {
        let s = score(p, board);
        s.empty == 0 && s.rim_faults == 0 && s.repeats == 0
    }

    /// Permute the inner pieces on `cells` (all inner cells) and turn each at random.
    pub(in crate::heuristic) fn scramble(
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

    /// The largest clique by trying every node subset (n ≤ 16).
    fn brute_force(g: &BitGraph) -> usize {
        let n = g.num_nodes();
        (0u32..1 << n)
            .filter(|&m| {
                let nodes: Vec<usize> = (0..n).filter(|&v| m >> v & 1 == 1).collect();
                g.is_clique(&nodes)
            })
            .map(|m| m.count_ones() as usize)
            .max()
            .unwrap_or(0)
    }

    #[test]
    fn max_clique_equals_brute_force_on_small_random_graphs() {
        let mut rng = Rng::new(7);
        for _ in 0..300 {
            let n = rng.below(15);
            let density = rng.unit();
            let mut g = BitGraph::new(n);
            for u in 0..n {
                for v in u + 1..n {
                    if rng.unit() < density {
                        g.add_edge(u, v);
                    }
                }
            }
            let found = max_clique(&g, &[], usize::MAX, u64::MAX, None);
            assert!(found.proven);
            assert!(g.is_clique(&found.clique), "{:?}", found.clique);
            assert_eq!(found.clique.len(), brute_force(&g), "{g:?}");
        }
    }

    #[test]
    fn a_spent_budget_returns_the_seed_unproven() {
        let mut g = BitGraph::new(70);
        for u in 0..70 {
            for v in u + 1..70 {
                if (u + v) % 3 != 0 {
                    g.add_edge(u, v);
                }
            }
        }
        let seed = [0, 1];
        assert!(g.is_clique(&seed));
        let found = max_clique(&g, &seed, usize::MAX, 1, None);
        assert!(!found.proven);
        assert_eq!(found.clique, vec![0, 1]);
        // A seed that is not a clique is ignored, not trusted.
        let found = max_clique(&g, &[0, 3], usize::MAX, u64::MAX, None);
        assert!(found.proven && g.is_clique(&found.clique));
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

    #[test]
    fn window_cliques_agree_with_cliquer() {
        if std::env::var("TILEKIT_SKIP_SOLVERS").as_deref() == Ok("1") {
            eprintln!("TILEKIT_SKIP_SOLVERS=1: cliquer comparison skipped");
            return;
        }
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
