//! The feasible placements of an edge-matching puzzle: (piece, cell, rotation) triples that
//! survive R1 (grey exactly on the rim) and optionally R2 (the first corner piece fixed in the
//! top-left corner), after Salassa et al. §2.2. They are the nodes of the clique graph
//! ([`super::edge_clique`]) and the placement variables of the CNF ([`super::edge_sat`]), and
//! will be those of a region MILP: one list, shared.

use crate::puzzle::edge::{EdgePuzzle, PieceKind, Rotation};

/// One feasible placement: a node of the clique graph, a placement variable of the CNF.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placement {
    /// 1-based piece id.
    pub piece: u16,
    /// Row-major cell index, `row * cols + col`.
    pub cell: u32,
    /// Clockwise quarter turns.
    pub rot: Rotation,
    /// Colours shown up, right, down, left.
    pub colours: [u16; 4],
}

/// The feasible placements of a puzzle under R1 (and R2), in node order, with indexes.
#[derive(Debug, Clone)]
pub struct Placements {
    rows: usize,
    cols: usize,
    nodes: Vec<Placement>,
    /// Nodes of cell `c` are `cell_start[c]..cell_start[c + 1]` (read by the clique graph's
    /// neighbour streaming).
    pub(crate) cell_start: Vec<u32>,
    /// The piece fixed by R2, if any.
    pub(crate) fixed: Option<u16>,
}

impl Placements {
    /// The placements of `puzzle`; with `fix_first_corner`, R2 applies.
    pub fn new(puzzle: &EdgePuzzle, fix_first_corner: bool) -> Placements {
        let (rows, cols) = (puzzle.rows(), puzzle.cols());
        let cells = rows * cols;
        let fixed = fix_first_corner
            .then(|| {
                puzzle
                    .pieces()
                    .iter()
                    .find(|p| p.kind() == Some(PieceKind::Corner))
                    .map(|p| p.id)
            })
            .flatten();
        let square = rows == cols;
        let mut nodes = Vec::new();
        let mut cell_start = Vec::with_capacity(cells + 1);
        for cell in 0..cells {
            cell_start.push(nodes.len() as u32);
            let (row, col) = (cell / cols, cell % cols);
            for p in puzzle.pieces() {
                if let Some(f) = fixed {
                    let allowed = if square {
                        // The fixed piece only in cell 0, and only it there.
                        (p.id == f) == (cell == 0)
                    } else {
                        p.id != f || (row == 0 && (col == 0 || col + 1 == cols))
                    };
                    if !allowed {
                        continue;
                    }
                }
                let mut seen: [Option<[u16; 4]>; 4] = [None; 4];
                for (k, rot) in puzzle
                    .fitting_rotations(p.id, row, col)
                    .into_iter()
                    .enumerate()
                {
                    let colours = p.placed(rot);
                    if seen.contains(&Some(colours)) {
                        continue; // a symmetric piece: same placement as a smaller rotation
                    }
                    seen[k] = Some(colours);
                    nodes.push(Placement {
                        piece: p.id,
                        cell: cell as u32,
                        rot,
                        colours,
                    });
                }
            }
        }
        cell_start.push(nodes.len() as u32);
        Placements {
            rows,
            cols,
            nodes,
            cell_start,
            fixed,
        }
    }

    /// Board rows.
    pub fn rows(&self) -> usize {
        self.rows
    }
    /// Board columns.
    pub fn cols(&self) -> usize {
        self.cols
    }
    /// Every placement, in node order.
    pub fn nodes(&self) -> &[Placement] {
        &self.nodes
    }
    /// The node range of cell `cell` (row-major).
    pub fn cell_range(&self, cell: usize) -> std::ops::Range<usize> {
        self.cell_start[cell] as usize..self.cell_start[cell + 1] as usize
    }
    /// The piece fixed by R2, if any.
    pub fn fixed_piece(&self) -> Option<u16> {
        self.fixed
    }
    /// The node placing `piece` in (`row`, `col`) so that it shows the colours it shows at
    /// rotation `rot`, if that placement is feasible.
    pub fn find(&self, piece: u16, row: usize, col: usize, rot: Rotation) -> Option<usize> {
        if row >= self.rows || col >= self.cols {
            return None;
        }
        let range = self.cell_range(row * self.cols + col);
        let in_cell = &self.nodes[range.clone()];
        let lo = in_cell.partition_point(|n| n.piece < piece);
        let hi = in_cell.partition_point(|n| n.piece <= piece);
        let want = in_cell.get(lo)?;
        let shown = crate::puzzle::edge::placed_colours(
            crate::puzzle::edge::listed_colours(want.colours, want.rot),
            rot,
        );
        (lo..hi)
            .find(|&k| in_cell[k].colours == shown)
            .map(|k| range.start + k)
    }
    /// `(row, col)` of a cell index.
    pub(crate) fn rc(&self, cell: u32) -> (usize, usize) {
        (cell as usize / self.cols, cell as usize % self.cols)
    }
}
