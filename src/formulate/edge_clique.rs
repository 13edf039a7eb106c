//! Edge-matching puzzles as maximum clique: Salassa, Vancroonenburg, Wauters, Della Croce and
//! Vanden Berghe, "MILP and Max-Clique based heuristics for the Eternity II puzzle" (2017,
//! arXiv:1709.00252), §2.2.
//!
//! **Nodes** are the feasible placements (piece, cell, rotation):
//! - R1 (border filter): a piece may sit in a cell only in a rotation that shows grey exactly
//!   on the cell's outward sides. So corner pieces go only in corner cells and edge pieces only
//!   in non-corner border cells, one rotation each (grey outward); inner pieces go only in
//!   inner cells, in all four rotations.
//! - Rotations of one piece that show the same colours in the same cell (a piece with
//!   180° or 90° symmetry, as in the official clue puzzles) give **one** node, with the
//!   smallest such rotation: they are the same placement, and duplicate nodes would inflate
//!   the graph without adding solutions. Identical pieces (duplicates up to rotation) remain
//!   distinct nodes: they are different pieces.
//! - R2 (symmetry break, [`CliqueOptions::fix_first_corner`]): the first corner piece in file
//!   order may only go in the top-left cell, and no other piece may go there. Every perfect
//!   board of a square puzzle turns into one of this form, so no solution is lost. A
//!   rectangular board only has the half-turn symmetry, so there the first corner piece is
//!   restricted to the two top corners instead (and the cells stay open to other pieces).
//!
//! **Edges** join two placements unless they use the same piece, the same cell, or
//! orthogonally adjacent cells whose facing colours differ. A clique of `rows·cols` nodes is
//! exactly a perfect board. With R1 and R2 the META 2010 instances give the node and edge
//! counts of the paper's Table 1 (3×3 30/291, 4×4 138/6707, 7×7 2910/3620565, 8×8
//! 5770/14751304; 5×5 and 6x6 come out one edge below the paper's figures, 86183 and 674511).
//!
//! Node order (the DIMACS vertex order): by cell (row-major), then piece id, then rotation.
//! Edges are never stored: [`EdgeClique`] streams each node's neighbours from per-cell colour
//! buckets, and counts edges by combinatorics over cell pairs, so memory stays proportional to
//! the nodes.

pub use crate::formulate::edge_placements::{Placement, Placements};
use crate::model::graph::{self, StreamedGraph};
use crate::puzzle::edge::{Board, EdgePuzzle};

/// Options of the clique (and SAT) formulations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CliqueOptions {
    /// R2: fix the first corner piece (file order) in the top-left corner, and keep every
    /// other piece out of that cell (square boards; see the module docs for rectangles).
    /// Default true, as in the paper.
    pub fix_first_corner: bool,
}

impl Default for CliqueOptions {
    fn default() -> Self {
        CliqueOptions {
            fix_first_corner: true,
        }
    }
}

/// A node list that is not a (partial) board.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// A vertex number beyond the graph.
    #[error("vertex {vertex} does not exist: the graph has vertices 1 to {count}")]
    NoSuchVertex {
        /// 1-based vertex number, as in the DIMACS file.
        vertex: usize,
        /// Number of vertices.
        count: usize,
    },
    /// Two vertices fill the same cell.
    #[error(
        "vertices {first} and {second} both fill cell ({row}, {col}), so they are not a clique"
    )]
    CellTwice {
        /// 1-based vertex numbers.
        first: usize,
        /// 1-based vertex numbers.
        second: usize,
        /// The cell's row.
        row: usize,
        /// The cell's column.
        col: usize,
    },
    /// Two vertices use the same piece.
    #[error("vertices {first} and {second} both use piece {piece}, so they are not a clique")]
    PieceTwice {
        /// 1-based vertex numbers.
        first: usize,
        /// 1-based vertex numbers.
        second: usize,
        /// 1-based piece id.
        piece: u16,
    },
}

/// The max-clique graph of one puzzle (see the module docs).
#[derive(Debug, Clone)]
pub struct EdgeClique {
    pl: Placements,
    /// `buckets[cell * 4 + side]`: (colour shown on `side`, node), sorted.
    buckets: Vec<Vec<(u16, u32)>>,
    /// Nodes of each piece (index `piece − 1`), ascending.
    piece_nodes: Vec<Vec<u32>>,
    /// Edges of the compatibility graph, counted at build time.
    edges: u64,
}

/// Build the clique graph of `puzzle`.
pub fn build(puzzle: &EdgePuzzle, opts: &CliqueOptions) -> EdgeClique {
    let pl = Placements::new(puzzle, opts.fix_first_corner);
    let cells = pl.rows() * pl.cols();
    let mut buckets = vec![Vec::new(); cells * 4];
    let mut piece_nodes = vec![Vec::new(); puzzle.pieces().len()];
    for (v, n) in pl.nodes().iter().enumerate() {
        for side in 0..4 {
            buckets[n.cell as usize * 4 + side].push((n.colours[side], v as u32));
        }
        piece_nodes[n.piece as usize - 1].push(v as u32);
    }
    for b in &mut buckets {
        b.sort_unstable();
    }
    let mut g = EdgeClique {
        pl,
        buckets,
        piece_nodes,
        edges: 0,
    };
    g.edges = g.count_compatible();
    g
}

impl EdgeClique {
    /// Number of nodes (feasible placements).
    pub fn num_nodes(&self) -> usize {
        self.pl.nodes().len()
    }
    /// The clique size of a perfect board: `rows · cols`.
    pub fn target_size(&self) -> usize {
        self.pl.rows() * self.pl.cols()
    }
    /// The placements behind the nodes.
    pub fn placements(&self) -> &Placements {
        &self.pl
    }
    /// The placement of node `v` (0-based).
    pub fn node(&self, v: usize) -> Option<&Placement> {
        self.pl.nodes().get(v)
    }
    /// Edges of the graph, or of its complement (the conflict graph), without listing them.
    pub fn count_edges(&self, complement: bool) -> u64 {
        if complement {
            graph::pairs(self.num_nodes()) - self.edges
        } else {
            self.edges
        }
    }
    /// The nodes of a board's placements (cells left empty, or placements that are not nodes,
    /// are skipped): a perfect board gives a clique of [`EdgeClique::target_size`] nodes.
    pub fn encode(&self, board: &Board) -> Vec<usize> {
        (0..board.cells.len())
            .filter_map(|cell| {
                let (p, r) = board.cells[cell]?;
                self.pl.find(p, cell / board.cols, cell % board.cols, r)
            })
            .collect()
    }
    /// The board of a (possibly partial) clique of 0-based node ids. Cells no node fills stay
    /// empty (see [`missing_cells`]). Errors: an id beyond the graph, two nodes in one cell,
    /// one piece twice. Adjacent colours are not checked here: that is the verifier's job
    /// (and [`graph::first_non_adjacent`] checks the clique itself).
    pub fn decode(&self, clique: &[usize]) -> Result<Board, DecodeError> {
        let (rows, cols) = (self.pl.rows(), self.pl.cols());
        let mut board = Board::empty(rows, cols);
        let mut by_cell: Vec<Option<usize>> = vec![None; rows * cols];
        let mut by_piece: Vec<Option<usize>> = vec![None; self.piece_nodes.len()];
        for &v in clique {
            let n = self.pl.nodes().get(v).ok_or(DecodeError::NoSuchVertex {
                vertex: v + 1,
                count: self.num_nodes(),
            })?;
            let (row, col) = self.pl.rc(n.cell);
            if let Some(first) = by_cell[n.cell as usize] {
                return Err(DecodeError::CellTwice {
                    first: first + 1,
                    second: v + 1,
                    row,
                    col,
                });
            }
            if let Some(first) = by_piece[n.piece as usize - 1] {
                return Err(DecodeError::PieceTwice {
                    first: first + 1,
                    second: v + 1,
                    piece: n.piece,
                });
            }
            by_cell[n.cell as usize] = Some(v);
            by_piece[n.piece as usize - 1] = Some(v);
            board.cells[n.cell as usize] = Some((n.piece, n.rot));
        }
        Ok(board)
    }

    /// The compatibility-graph edge count: all pairs in different cells with different pieces,
    /// corrected on adjacent cell pairs to the pairs whose facing colours agree.
    fn count_compatible(&self) -> u64 {
        let pl = &self.pl;
        let cells = pl.rows() * pl.cols();
        let n = pl.nodes().len() as u64;
        // (piece, count) per cell, sorted by piece (nodes are sorted by piece within a cell).
        let per_cell: Vec<Vec<(u16, u64)>> = (0..cells)
            .map(|c| {
                let mut runs: Vec<(u16, u64)> = Vec::new();
                for nd in &pl.nodes()[pl.cell_range(c)] {
                    match runs.last_mut() {
                        Some((p, k)) if *p == nd.piece => *k += 1,
                        _ => runs.push((nd.piece, 1)),
                    }
                }
                runs
            })
            .collect();
        let sq_cells: u64 = (0..cells)
            .map(|c| (pl.cell_range(c).len() as u64).pow(2))
            .sum();
        let sq_piece_cell: u64 = per_cell.iter().flatten().map(|&(_, k)| k * k).sum();
        let sq_piece: u64 = self
            .piece_nodes
            .iter()
            .map(|v| (v.len() as u64).pow(2))
            .sum();
        // Different cells, different pieces.
        let mut total = (n * n - sq_cells) / 2 - (sq_piece - sq_piece_cell) / 2;
        let same_piece = |a: &[(u16, u64)], b: &[(u16, u64)]| -> u64 {
            let (mut i, mut j, mut s) = (0, 0, 0);
            while i < a.len() && j < b.len() {
                match a[i].0.cmp(&b[j].0) {
                    std::cmp::Ordering::Less => i += 1,
                    std::cmp::Ordering::Greater => j += 1,
                    std::cmp::Ordering::Equal => {
                        s += a[i].1 * b[j].1;
                        i += 1;
                        j += 1;
                    }
                }
            }
            s
        };
        for a in 0..cells {
            for (b, side) in self.later_neighbours(a) {
                let all = pl.cell_range(a).len() as u64 * pl.cell_range(b).len() as u64
                    - same_piece(&per_cell[a], &per_cell[b]);
                let mut matched = 0u64;
                for u in pl.cell_range(a) {
                    let nu = &pl.nodes()[u];
                    for &(_, v) in self.bucket(b, (side + 2) % 4, nu.colours[side]) {
                        if pl.nodes()[v as usize].piece != nu.piece {
                            matched += 1;
                        }
                    }
                }
                total = total - all + matched;
            }
        }
        total
    }

    /// The neighbouring cells after `a` in node order, with the side of `a` that faces them:
    /// right (1) and below (2).
    fn later_neighbours(&self, a: usize) -> impl Iterator<Item = (usize, usize)> + use<> {
        let (rows, cols) = (self.pl.rows(), self.pl.cols());
        let right = (a % cols + 1 < cols).then_some((a + 1, 1));
        let below = (a / cols + 1 < rows).then_some((a + cols, 2));
        right.into_iter().chain(below)
    }

    /// The nodes of `cell` showing `colour` on `side`, ascending.
    fn bucket(&self, cell: usize, side: usize, colour: u16) -> &[(u16, u32)] {
        let b = &self.buckets[cell * 4 + side];
        let lo = b.partition_point(|&(c, _)| c < colour);
        let hi = b.partition_point(|&(c, _)| c <= colour);
        &b[lo..hi]
    }
}

impl StreamedGraph for EdgeClique {
    fn num_nodes(&self) -> usize {
        self.pl.nodes().len()
    }

    fn node_label(&self, v: usize) -> String {
        let n = &self.pl.nodes()[v];
        let (row, col) = self.pl.rc(n.cell);
        format!("piece {} cell {row} {col} rot {}", n.piece, n.rot.turns())
    }

    fn describe(&self) -> String {
        let fixed = match self.pl.fixed {
            Some(p) if self.pl.rows() == self.pl.cols() => {
                format!("; piece {p} fixed in the top-left corner (R2)")
            }
            Some(p) => format!("; piece {p} kept to the top corners (R2, rectangular board)"),
            None => String::new(),
        };
        format!(
            "tilekit edge-matching max-clique graph (Salassa et al. 2017, sec. 2.2): {}x{} board; a vertex is a placement (piece, cell row col, clockwise quarter turns); placements are joined unless they share a piece or a cell or face each other with different colours; a clique of {} vertices is a perfect board{fixed}",
            self.pl.rows(),
            self.pl.cols(),
            self.target_size()
        )
    }

    fn count_edges(&self, complement: bool) -> u64 {
        EdgeClique::count_edges(self, complement)
    }

    /// Placements on one cell, and placements of one piece, are never joined.
    fn independent_sets(&self) -> Vec<Vec<Vec<usize>>> {
        let cells = self.pl.rows() * self.pl.cols();
        let by_cell = (0..cells)
            .map(|c| self.pl.cell_range(c).collect())
            .collect();
        let by_piece = self
            .piece_nodes
            .iter()
            .map(|nodes| nodes.iter().map(|&v| v as usize).collect())
            .collect();
        vec![by_cell, by_piece]
    }

    fn neighbours_above(&self, u: usize, complement: bool, out: &mut Vec<u32>) {
        out.clear();
        let pl = &self.pl;
        let nu = pl.nodes()[u];
        let a = nu.cell as usize;
        let cells = pl.rows() * pl.cols();
        if complement {
            // Same cell, same piece elsewhere, and mismatching neighbours (other pieces): three
            // disjoint sets, merged by a sort.
            out.extend(u as u32 + 1..pl.cell_start[a + 1]);
            let pn = &self.piece_nodes[nu.piece as usize - 1];
            let from = pn.partition_point(|&v| v < pl.cell_start[a + 1]);
            out.extend_from_slice(&pn[from..]);
            for (b, side) in self.later_neighbours(a) {
                let opp = (side + 2) % 4;
                for v in pl.cell_range(b) {
                    let nv = &pl.nodes()[v];
                    if nv.piece != nu.piece && nv.colours[opp] != nu.colours[side] {
                        out.push(v as u32);
                    }
                }
            }
            out.sort_unstable();
            return;
        }
        let mut adjacent = self.later_neighbours(a);
        let mut next_adj = adjacent.next();
        for b in a + 1..cells {
            if let Some((nb, side)) = next_adj
                && nb == b
            {
                next_adj = adjacent.next();
                for &(_, v) in self.bucket(b, (side + 2) % 4, nu.colours[side]) {
                    if pl.nodes()[v as usize].piece != nu.piece {
                        out.push(v);
                    }
                }
                continue;
            }
            let (start, end) = (pl.cell_start[b], pl.cell_start[b + 1]);
            let in_cell = &pl.nodes()[start as usize..end as usize];
            let lo = start + in_cell.partition_point(|n| n.piece < nu.piece) as u32;
            let hi = start + in_cell.partition_point(|n| n.piece <= nu.piece) as u32;
            out.extend(start..lo);
            out.extend(hi..end);
        }
    }
}

/// The cells of `board` that hold no piece, as `(row, col)`: what a partial clique leaves open.
pub fn missing_cells(board: &Board) -> Vec<(usize, usize)> {
    (0..board.cells.len())
        .filter(|&i| board.cells[i].is_none())
        .map(|i| (i / board.cols, i % board.cols))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::edge::generate;

    /// All-pairs adjacency straight from the definition.
    fn adjacent(pl: &Placements, u: usize, v: usize) -> bool {
        let (a, b) = (&pl.nodes()[u], &pl.nodes()[v]);
        if a.piece == b.piece || a.cell == b.cell {
            return false;
        }
        let ((ra, ca), (rb, cb)) = (pl.rc(a.cell), pl.rc(b.cell));
        let face = |a: &Placement, b: &Placement, (ra, ca): (usize, usize), (rb, cb)| {
            if ra == rb && ca + 1 == cb {
                Some(a.colours[1] == b.colours[3])
            } else if ca == cb && ra + 1 == rb {
                Some(a.colours[2] == b.colours[0])
            } else {
                None
            }
        };
        face(a, b, (ra, ca), (rb, cb))
            .or_else(|| face(b, a, (rb, cb), (ra, ca)))
            .unwrap_or(true)
    }

    #[test]
    fn streamed_neighbours_and_counts_match_the_definition() {
        for (rows, cols, seed, fix) in [(3, 3, 1, true), (3, 4, 2, true), (4, 4, 3, false)] {
            let (p, _) = generate(rows, cols, 2, 3, seed).unwrap();
            let g = build(
                &p,
                &CliqueOptions {
                    fix_first_corner: fix,
                },
            );
            let n = g.num_nodes();
            let mut buf = Vec::new();
            for complement in [false, true] {
                let mut m = 0;
                for u in 0..n {
                    g.neighbours_above(u, complement, &mut buf);
                    let want: Vec<u32> = (u + 1..n)
                        .filter(|&v| adjacent(&g.pl, u, v) != complement)
                        .map(|v| v as u32)
                        .collect();
                    assert_eq!(buf, want, "{rows}x{cols} u={u} complement={complement}");
                    m += want.len() as u64;
                }
                assert_eq!(g.count_edges(complement), m);
            }
        }
    }

    #[test]
    fn symmetric_pieces_give_one_node_per_distinct_placement() {
        // 3×3 whose centre piece shows 5 5 5 5: one node, not four.
        let p = EdgePuzzle::new(
            3,
            3,
            vec![
                [0, 0, 1, 1],
                [0, 0, 1, 1],
                [0, 0, 1, 1],
                [0, 0, 1, 1],
                [0, 1, 5, 1],
                [0, 1, 5, 1],
                [0, 1, 5, 1],
                [0, 1, 5, 1],
                [5, 5, 5, 5],
            ],
        )
        .unwrap();
        let g = build(&p, &CliqueOptions::default());
        let centre = g.placements().cell_range(4);
        assert_eq!(centre.len(), 1);
        // Corner cell 0 holds only piece 1; other corners hold the three other corner pieces.
        assert_eq!(g.placements().cell_range(0).len(), 1);
        assert_eq!(g.placements().cell_range(2).len(), 3);
        // Every rotation of the symmetric piece finds the one node.
        for r in crate::puzzle::edge::Rotation::ALL {
            assert_eq!(g.placements().find(9, 1, 1, r), Some(centre.start));
        }
    }

    #[test]
    fn planted_boards_are_cliques_and_decode_back() {
        let (p, board) = generate(4, 4, 2, 3, 11).unwrap();
        let g = build(
            &p,
            &CliqueOptions {
                fix_first_corner: false,
            },
        );
        let clique = g.encode(&board);
        assert_eq!(clique.len(), 16);
        assert_eq!(graph::first_non_adjacent(&g, &clique), None);
        let back = g.decode(&clique).unwrap();
        assert!(
            crate::verify::edge::BoardChecker
                .verdict(&p, &back, Some(0.0))
                .valid
        );
        let partial = g.decode(&clique[..10]).unwrap();
        assert_eq!(missing_cells(&partial).len(), 6);
    }

    #[test]
    fn decode_errors() {
        let (p, board) = generate(3, 3, 1, 2, 5).unwrap();
        let g = build(
            &p,
            &CliqueOptions {
                fix_first_corner: false,
            },
        );
        let c = g.encode(&board);
        let n = g.num_nodes();
        assert_eq!(
            g.decode(&[n]).unwrap_err().to_string(),
            format!(
                "vertex {} does not exist: the graph has vertices 1 to {n}",
                n + 1
            )
        );
        // Two nodes of one cell.
        let cell = g.node(c[0]).unwrap().cell as usize;
        let other = g
            .placements()
            .cell_range(cell)
            .find(|&v| v != c[0])
            .unwrap();
        let e = g.decode(&[c[0], other]).unwrap_err();
        assert!(matches!(e, DecodeError::CellTwice { .. }), "{e}");
        assert!(e.to_string().ends_with("so they are not a clique"), "{e}");
        // One piece twice.
        let piece = g.node(c[0]).unwrap().piece;
        let twice = g.piece_nodes[piece as usize - 1]
            .iter()
            .map(|&v| v as usize)
            .find(|&v| g.node(v).unwrap().cell as usize != cell)
            .unwrap();
        let e = g.decode(&[c[0], twice]).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "vertices {} and {} both use piece {piece}, so they are not a clique",
                c[0] + 1,
                twice + 1
            )
        );
    }
}
