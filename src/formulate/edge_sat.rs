//! Edge-matching puzzles as SAT, in the style of Heule, "Solving edge-matching problems with
//! satisfiability solvers" (SAT 2008 workshop): placement variables plus one variable per
//! (seam, colour), so that matching is per-seam colour exclusivity instead of pairwise
//! "disagreement" clauses between placements.
//!
//! Variables, named as they appear in DIMACS comments:
//! - `x_p{piece}_r{row}_c{col}_t{rot}`: the piece sits in the cell with that rotation, one per
//!   feasible placement of [`Placements`] (border filter R1, symmetric rotations merged, and
//!   R2 when [`SatOptions::fix_first_corner`] is set);
//! - `h_r{row}_c{col}_k{colour}`: the seam between (row, col) and (row, col+1) shows `colour`;
//!   `v_r{row}_c{col}_k{colour}`: the seam between (row, col) and (row+1, col) does; only
//!   colours that both cells can show there get a variable;
//! - `eo_…`, `amo_…`: auxiliaries of the sequential-counter cardinality constraints.
//!
//! Clauses:
//! - exactly one placement per cell, exactly one placement per piece;
//! - a placement implies the colour of each of its inner seams (`¬x ∨ s`), or is forbidden
//!   (`¬x`) when the neighbour cell can never show that colour there;
//! - at most one colour per seam, so the two sides of a seam agree;
//! - support: a seam colour implies a placement on each side showing it (redundant for
//!   correctness, it helps propagation and makes the seam variables functions of the board).
//!
//! Grey sits exactly on the frame by construction (R1), so the models are exactly the perfect
//! boards (projected on the placement variables; with R2, those with the first corner piece
//! in the top-left corner).

use crate::formulate::edge_placements::Placements;
use crate::model::cnf::{BoolVar, Cnf, Lit};
use crate::puzzle::edge::{Board, EdgePuzzle};

/// Options of the SAT formulation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SatOptions {
    /// R2: fix the first corner piece in the top-left corner (see
    /// [`crate::formulate::edge_clique`]). Default false, so that every perfect board is a
    /// model; true cuts the search (and an unsatisfiability proof) by up to four.
    pub fix_first_corner: bool,
}

/// The CNF of one puzzle, with its variable map.
#[derive(Debug, Clone)]
pub struct EdgeSat {
    cnf: Cnf,
    pl: Placements,
    /// Inner seams (variable `i < placements` is placement `i`).
    seams: usize,
}

/// A model that is not a board.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// Fewer values than the formula has variables.
    #[error("the model has {got} values but the formula has {want} variables")]
    ModelTooShort {
        /// Values in the model.
        got: usize,
        /// Variables in the formula.
        want: usize,
    },
    /// No placement is true in a cell.
    #[error("no piece is placed in cell ({row}, {col})")]
    EmptyCell {
        /// Row.
        row: usize,
        /// Column.
        col: usize,
    },
    /// Several placements are true in a cell.
    #[error("{count} pieces are placed in cell ({row}, {col}), expected exactly one")]
    CellTwice {
        /// Row.
        row: usize,
        /// Column.
        col: usize,
        /// How many.
        count: usize,
    },
}

/// Build the CNF of `puzzle`.
pub fn build(puzzle: &EdgePuzzle, opts: &SatOptions) -> EdgeSat {
    build_with(puzzle, opts, false).0
}

/// Build the CNF of `puzzle`; with `guarded`, each inner seam first gets a variable `m_…`
/// (returned in seam order) that guards its placement→colour clauses, `(¬m ∨ ¬x ∨ s)` and
/// `(¬m ∨ ¬x)`: with `m` true the seam matches as in the plain CNF, with `m` false it may
/// show anything (every colour variable false satisfies its support and at-most-one
/// clauses). That is the hard part of [`super::edge_maxsat`]; unguarded, the CNF is exactly
/// [`build`]'s, variable for variable.
pub(crate) fn build_with(
    puzzle: &EdgePuzzle,
    opts: &SatOptions,
    guarded: bool,
) -> (EdgeSat, Vec<BoolVar>) {
    let pl = Placements::new(puzzle, opts.fix_first_corner);
    let (rows, cols) = (pl.rows(), pl.cols());
    let mut cnf = Cnf::new();
    // Placement variables first: variable i is node i.
    let x: Vec<Lit> = pl
        .nodes()
        .iter()
        .map(|n| {
            let (r, c) = (n.cell as usize / cols, n.cell as usize % cols);
            cnf.new_var(format!("x_p{}_r{r}_c{c}_t{}", n.piece, n.rot.turns()))
                .positive()
        })
        .collect();
    for cell in 0..rows * cols {
        let (r, c) = (cell / cols, cell % cols);
        let lits: Vec<Lit> = pl.cell_range(cell).map(|v| x[v]).collect();
        cnf.exactly_one(&lits, &format!("eo_cell_r{r}_c{c}"));
    }
    let mut by_piece: Vec<Vec<Lit>> = vec![Vec::new(); puzzle.pieces().len()];
    for (v, n) in pl.nodes().iter().enumerate() {
        by_piece[n.piece as usize - 1].push(x[v]);
    }
    for (i, lits) in by_piece.iter().enumerate() {
        // An empty list (a piece with no feasible cell) is the empty clause: unsatisfiable.
        cnf.exactly_one(lits, &format!("eo_piece_p{}", i + 1));
    }
    let mut seams = 0;
    let mut guards = Vec::new();
    for cell in 0..rows * cols {
        let (r, c) = (cell / cols, cell % cols);
        // (neighbour, this cell's side facing it, name prefix)
        let mut next = Vec::new();
        if c + 1 < cols {
            next.push((cell + 1, 1usize, format!("h_r{r}_c{c}")));
        }
        if r + 1 < rows {
            next.push((cell + cols, 2usize, format!("v_r{r}_c{c}")));
        }
        for (other, side, name) in next {
            seams += 1;
            let opp = (side + 2) % 4;
            // (colour, placement) on each side, sorted by colour.
            let sorted = |cell: usize, side: usize| {
                let mut v: Vec<(u16, usize)> = pl
                    .cell_range(cell)
                    .map(|k| (pl.nodes()[k].colours[side], k))
                    .collect();
                v.sort_unstable();
                v
            };
            let a = sorted(cell, side);
            let b = sorted(other, opp);
            // The colours both cells can show on this seam.
            let mut colours: Vec<u16> = a.iter().map(|&(k, _)| k).collect();
            colours.dedup();
            colours.retain(|&k| {
                let i = b.partition_point(|&(c, _)| c < k);
                i < b.len() && b[i].0 == k
            });
            let guard = guarded.then(|| cnf.new_var(format!("m_{name}")));
            guards.extend(guard);
            // (¬m ∨ …) when guarded: the seam matches only where it is said to.
            let unless: Vec<Lit> = guard.iter().map(|m| m.negative()).collect();
            let svars: Vec<BoolVar> = colours
                .iter()
                .map(|k| cnf.new_var(format!("{name}_k{k}")))
                .collect();
            for side_list in [&a, &b] {
                for &(k, v) in side_list {
                    let mut clause = unless.clone();
                    clause.push(!x[v]);
                    if let Ok(i) = colours.binary_search(&k) {
                        clause.push(svars[i].positive());
                    }
                    cnf.add_clause(&clause);
                }
                for (i, &k) in colours.iter().enumerate() {
                    let mut support = vec![svars[i].negative()];
                    support.extend(
                        side_list
                            .iter()
                            .filter(|&&(c, _)| c == k)
                            .map(|&(_, v)| x[v]),
                    );
                    cnf.add_clause(&support);
                }
            }
            let lits: Vec<Lit> = svars.iter().map(|s| s.positive()).collect();
            cnf.at_most_one(&lits, &format!("amo_{name}"));
        }
    }
    (EdgeSat { cnf, pl, seams }, guards)
}

impl EdgeSat {
    /// The formula.
    pub fn cnf(&self) -> &Cnf {
        &self.cnf
    }
    /// The formula, by value.
    pub fn into_cnf(self) -> Cnf {
        self.cnf
    }
    /// The formula, to move out (the MaxSAT model takes it as its hard part).
    pub(crate) fn cnf_mut(&mut self) -> &mut Cnf {
        &mut self.cnf
    }
    /// The placements behind the placement variables (variable `i` is placement `i`).
    pub fn placements(&self) -> &Placements {
        &self.pl
    }
    /// Number of inner seams (each has its colour variables).
    pub fn num_seams(&self) -> usize {
        self.seams
    }
    /// The placement variable of `piece` in (`row`, `col`) at rotation `rot`, if feasible.
    pub fn placement_var(
        &self,
        piece: u16,
        row: usize,
        col: usize,
        rot: crate::puzzle::edge::Rotation,
    ) -> Option<BoolVar> {
        self.pl
            .find(piece, row, col, rot)
            .map(|v| BoolVar(v as u32))
    }
    /// The board of a model (one value per variable): exactly one true placement per cell.
    /// Pieces used twice are left to the verifier.
    pub fn decode(&self, model: &[bool]) -> Result<Board, DecodeError> {
        if model.len() < self.cnf.num_vars() {
            return Err(DecodeError::ModelTooShort {
                got: model.len(),
                want: self.cnf.num_vars(),
            });
        }
        self.decode_placements(model)
    }

    /// The board of the placement variables of `model` (the first [`Placements::nodes`]
    /// values; the caller has checked its length).
    pub(crate) fn decode_placements(&self, model: &[bool]) -> Result<Board, DecodeError> {
        let (rows, cols) = (self.pl.rows(), self.pl.cols());
        let mut board = Board::empty(rows, cols);
        for cell in 0..rows * cols {
            let (row, col) = (cell / cols, cell % cols);
            let on: Vec<usize> = self.pl.cell_range(cell).filter(|&v| model[v]).collect();
            match on.as_slice() {
                [] => return Err(DecodeError::EmptyCell { row, col }),
                [v] => {
                    let n = &self.pl.nodes()[*v];
                    board.cells[cell] = Some((n.piece, n.rot));
                }
                _ => {
                    return Err(DecodeError::CellTwice {
                        row,
                        col,
                        count: on.len(),
                    });
                }
            }
        }
        Ok(board)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::answer::SatOutcome;
    use crate::puzzle::edge::generate;
    use crate::solve::sat_embedded::solve_varisat_checked;

    #[test]
    fn the_planted_board_is_a_model_and_decodes_back() {
        let (p, planted) = generate(3, 4, 2, 2, 8).unwrap();
        let enc = build(&p, &SatOptions::default());
        let mut cnf = enc.cnf().clone();
        for (cell, c) in planted.cells.iter().enumerate() {
            let (piece, rot) = c.unwrap();
            let v = enc.placement_var(piece, cell / 4, cell % 4, rot).unwrap();
            cnf.add_clause(&[v.positive()]);
        }
        let SatOutcome::Sat(model) = solve_varisat_checked(&cnf).unwrap() else {
            panic!("the planted board must be a model")
        };
        let board = enc.decode(&model).unwrap();
        // Equal up to the rotation chosen for a symmetric piece: compare shown colours.
        for (a, b) in board.cells.iter().zip(&planted.cells) {
            let shown = |c: &Option<(u16, crate::puzzle::edge::Rotation)>| {
                c.map(|(id, r)| p.piece(id).unwrap().placed(r))
            };
            assert_eq!(shown(a), shown(b));
        }
        assert!(enc.num_seams() == 2 * 12 - 3 - 4);
    }

    #[test]
    fn a_forbidden_placement_is_not_in_any_model() {
        // Forcing a corner piece into an edge cell has no variable at all (R1).
        let (p, _) = generate(3, 3, 1, 2, 2).unwrap();
        let enc = build(&p, &SatOptions::default());
        let corner = p
            .pieces()
            .iter()
            .find(|pc| pc.kind() == Some(crate::puzzle::edge::PieceKind::Corner))
            .unwrap();
        for r in crate::puzzle::edge::Rotation::ALL {
            assert_eq!(enc.placement_var(corner.id, 0, 1, r), None);
        }
    }
}
