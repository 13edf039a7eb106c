//! Edge-matching puzzles as weighted partial MaxSAT: the legal boards are the models of the
//! hard clauses, and the cost of a model is the number of its inner seams left unmatched, the
//! objective (1) of Salassa, Vancroonenburg, Wauters, Della Croce and Vanden Berghe, "MILP
//! and Max-Clique based heuristics for the Eternity II puzzle" (arXiv:1709.00252, §3; see
//! [`super::edge_milp`]).
//!
//! The hard part is the CNF of [`super::edge_sat`] (Heule's seam-colour encoding over the
//! placements that survive Salassa et al.'s R1, and R2 with `fix_first_corner`), with one
//! change: each inner seam gets a variable `m_h_r{row}_c{col}` (`m_v_…` for a vertical pair)
//! that guards the clauses making the seam match, `(¬m ∨ ¬x ∨ s)` and `(¬m ∨ ¬x)`. The
//! exactly-one rows (a legal board), the support clauses and the seam's at-most-one colour
//! stay unconditional; with `m` false every colour variable of the seam may be false, which
//! satisfies them whatever the two cells show. So:
//! - hard: every legal board (grey exactly on the rim, R1) extends to a model, and every
//!   model decodes to a legal board (its placement variables come first, as in the CNF, so
//!   [`EdgeSat::decode`] reads it);
//! - soft: one unit clause `(m)` of weight 1 per inner seam, "this seam matches". A true `m`
//!   forces both cells to show one colour there, so a model's cost is at least the board's
//!   unmatched seams, and the board's own seams give a model of exactly that cost: the
//!   minimum cost is the least number of unmatched inner seams, the MILP's optimum.
//!
//! Relaxing a CSP's soft constraints into guarded hard clauses plus soft units is the usual
//! partial MaxSAT modelling (Argelich and Manyà, "Exact Max-SAT solvers for over-constrained
//! problems", J. Heuristics 12, 2006); the guarded seam clauses are ours. R1 leaves the
//! optimum unchanged because a valid instance has exactly the corner and edge pieces the rim
//! needs, so every legal board already puts grey on the rim; R2 leaves it unchanged because
//! turning a square board by quarter turns (a rectangular one by a half turn, with the
//! corner in either top cell) keeps its unmatched seams.

use super::edge_sat::{self, EdgeSat, SatOptions};
use crate::model::cnf::BoolVar;
use crate::model::wcnf::Wcnf;
use crate::puzzle::edge::{Board, EdgePuzzle};

/// The WCNF of one puzzle, with the CNF's variable map.
#[derive(Debug, Clone)]
pub struct EdgeMaxsat {
    wcnf: Wcnf,
    /// The hard part's encoding, kept for its placements and decoding; its formula is moved
    /// into `wcnf` (this one is left empty).
    sat: EdgeSat,
    /// The guard variable of each inner seam, row-major, the right seam before the lower.
    guards: Vec<BoolVar>,
}

/// Build the WCNF of `puzzle` (`fix_first_corner`: R2).
pub fn build(puzzle: &EdgePuzzle, opts: &SatOptions) -> EdgeMaxsat {
    let (mut sat, guards) = edge_sat::build_with(puzzle, opts, true);
    let hard = std::mem::take(sat.cnf_mut());
    let mut wcnf = Wcnf::new(hard);
    for m in &guards {
        wcnf.add_soft(1, &[m.positive()]);
    }
    EdgeMaxsat { wcnf, sat, guards }
}

impl EdgeMaxsat {
    /// The formula.
    pub fn wcnf(&self) -> &Wcnf {
        &self.wcnf
    }
    /// The guard variable ("this seam matches") of each inner seam, in soft-clause order.
    pub fn guards(&self) -> &[BoolVar] {
        &self.guards
    }
    /// Number of inner seams: the cost of a model is at most this.
    pub fn num_seams(&self) -> usize {
        self.guards.len()
    }
    /// The placement variable of `piece` in (`row`, `col`) at rotation `rot`, if feasible.
    pub fn placement_var(
        &self,
        piece: u16,
        row: usize,
        col: usize,
        rot: crate::puzzle::edge::Rotation,
    ) -> Option<BoolVar> {
        self.sat.placement_var(piece, row, col, rot)
    }
    /// The board of a model (one value per variable), read from the placement variables as
    /// the CNF's decode reads it.
    pub fn decode(&self, model: &[bool]) -> Result<Board, edge_sat::DecodeError> {
        if model.len() < self.wcnf.num_vars() {
            return Err(edge_sat::DecodeError::ModelTooShort {
                got: model.len(),
                want: self.wcnf.num_vars(),
            });
        }
        self.sat.decode_placements(model)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::answer::SatOutcome;
    use crate::puzzle::edge::generate;
    use crate::solve::sat_embedded::solve_varisat_checked;

    /// The hard part with the planted board's placements forced and every guard set to
    /// `value`: satisfiable, and the model costs what the guards say.
    fn planted_with_guards(value: bool) -> (EdgeMaxsat, Vec<bool>) {
        let (p, planted) = generate(3, 4, 2, 2, 8).unwrap();
        let enc = build(&p, &SatOptions::default());
        let mut cnf = enc.wcnf().hard().clone();
        for (cell, c) in planted.cells.iter().enumerate() {
            let (piece, rot) = c.unwrap();
            let v = enc.placement_var(piece, cell / 4, cell % 4, rot).unwrap();
            cnf.add_clause(&[v.positive()]);
        }
        for m in enc.guards() {
            cnf.add_clause(&[if value { m.positive() } else { m.negative() }]);
        }
        let SatOutcome::Sat(model) = solve_varisat_checked(&cnf).unwrap() else {
            panic!("the planted board with guards {value} must be a model")
        };
        (enc, model)
    }

    #[test]
    fn the_planted_board_costs_nothing_and_decodes_back() {
        let (enc, model) = planted_with_guards(true);
        assert_eq!(enc.num_seams(), 2 * 12 - 3 - 4);
        assert_eq!(enc.wcnf().num_soft(), enc.num_seams());
        assert_eq!(enc.wcnf().cost(&model), 0);
        assert_eq!(enc.wcnf().first_violated_hard(&model), None);
        let board = enc.decode(&model).unwrap();
        assert!(board.cells.iter().all(Option::is_some));
    }

    #[test]
    fn every_seam_may_be_given_up() {
        // With every guard false the hard part still holds (support and at-most-one are
        // satisfied by all-false colours): a legal board is always a model.
        let (enc, model) = planted_with_guards(false);
        assert_eq!(enc.wcnf().cost(&model), enc.num_seams() as u64);
    }

    #[test]
    fn a_guard_is_true_exactly_on_matching_seams() {
        // The planted board with two opposite corner pieces exchanged (a corner piece fits
        // any corner, turned): a legal board with unmatched seams.
        let (p, planted) = generate(3, 3, 2, 3, 5).unwrap();
        let enc = build(&p, &SatOptions::default());
        let mut board = planted.clone();
        board.cells.swap(0, 8);
        let mut pinned = enc.wcnf().hard().clone();
        for (cell, c) in board.cells.iter_mut().enumerate() {
            let (piece, rot) = c.as_mut().unwrap();
            let (v, r) = crate::puzzle::edge::Rotation::ALL
                .into_iter()
                .find_map(|r| {
                    enc.placement_var(*piece, cell / 3, cell % 3, r)
                        .map(|v| (v, r))
                })
                .unwrap();
            *rot = r;
            pinned.add_clause(&[v.positive()]);
        }
        let shown = |cell: usize| {
            let (piece, rot) = board.cells[cell].unwrap();
            p.piece(piece).unwrap().placed(rot)
        };
        // Each seam in guard order (row-major, right before down): does it match?
        let mut matches = Vec::new();
        for cell in 0..9 {
            let (r, c) = (cell / 3, cell % 3);
            if c + 1 < 3 {
                matches.push(shown(cell)[1] == shown(cell + 1)[3]);
            }
            if r + 1 < 3 {
                matches.push(shown(cell)[2] == shown(cell + 3)[0]);
            }
        }
        let unmatched = matches.iter().filter(|m| !**m).count();
        let v = crate::verify::edge::BoardChecker.verdict(&p, &board, None);
        assert!(v.valid, "{v:?}");
        assert_eq!(v.max - v.matched, unmatched);
        assert!(unmatched > 0);
        // Every guard true: no model. Guards true on the matching seams: a model costing
        // exactly the unmatched seams.
        let mut all = pinned.clone();
        for m in enc.guards() {
            all.add_clause(&[m.positive()]);
        }
        assert_eq!(solve_varisat_checked(&all).unwrap(), SatOutcome::Unsat);
        let mut exact = pinned;
        for (m, ok) in enc.guards().iter().zip(&matches) {
            exact.add_clause(&[if *ok { m.positive() } else { m.negative() }]);
        }
        let SatOutcome::Sat(model) = solve_varisat_checked(&exact).unwrap() else {
            panic!("the board with its matching seams guarded is a model")
        };
        assert_eq!(enc.wcnf().cost(&model), unmatched as u64);
        // The same board, up to the rotation named for a symmetric piece.
        let back = enc.decode(&model).unwrap();
        for (a, b) in back.cells.iter().zip(&board.cells) {
            let show = |c: &Option<(u16, crate::puzzle::edge::Rotation)>| {
                c.map(|(id, r)| p.piece(id).unwrap().placed(r))
            };
            assert_eq!(show(a), show(b));
        }
    }
}
