//! Border Optimisation ("BO", §3.3 of Salassa et al.): with every inner piece fixed, the rim
//! is emptied and refilled optimally from the rim's own pieces by the region MILP
//! ([`crate::formulate::edge_region`]), whose counted seams are those along the rim and those
//! between the rim and the fixed inner ring. The paper reports that this one-dimensional
//! model was always solved, even for 16×16 boards.

use super::neighbourhood::Neighbourhood;
use super::region_clique::legal_and_not_worse;
use super::{Ctx, HeuristicError, RegionOutcome, matched, solve_region};
use crate::formulate::edge_region::RegionSpec;
use crate::puzzle::edge::Board;

/// Border Optimisation: one region MILP over all the rim cells (see the module docs). The
/// current rim is a feasible point of that model, so an optimal answer is never worse; an
/// answer that is worse anyway (the solver stopped early) or none at all keeps the board.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BorderOptimisation;

/// The rim cells of a `rows × cols` board, clockwise from the top-left corner (every cell
/// when the board has fewer than three rows or columns).
pub fn rim_cells(rows: usize, cols: usize) -> Vec<(usize, usize)> {
    (0..rows)
        .flat_map(|r| (0..cols).map(move |c| (r, c)))
        .filter(|&(r, c)| r == 0 || c == 0 || r + 1 == rows || c + 1 == cols)
        .collect()
}

impl Neighbourhood for BorderOptimisation {
    fn name(&self) -> &'static str {
        "BO"
    }
    fn improve(&mut self, ctx: &mut Ctx<'_>, board: &mut Board) -> Result<usize, HeuristicError> {
        if ctx.out_of_time() {
            return Ok(0);
        }
        let before = matched(ctx.puzzle, board);
        // Frozen rim cells (fixed pieces) stay, and so do their pieces.
        let cells: Vec<(usize, usize)> = rim_cells(board.rows, board.cols)
            .into_iter()
            .filter(|&(r, c)| !ctx.is_frozen(r, c))
            .collect();
        if cells.is_empty() {
            return Ok(0);
        }
        let mut partial = board.clone();
        let mut pieces = Vec::with_capacity(cells.len());
        for &(r, c) in &cells {
            if let Some((id, _)) = partial.cells[r * board.cols + c].take() {
                pieces.push(id);
            }
        }
        pieces.sort_unstable();
        let spec = RegionSpec {
            cells,
            pieces,
            cuts: Vec::new(),
            perfect: false,
        };
        let RegionOutcome::Filled { board: filled, .. } = solve_region(ctx, &partial, &spec)?
        else {
            return Ok(0);
        };
        match legal_and_not_worse(ctx.puzzle, board, filled) {
            Some(better) => {
                *board = better;
                Ok(matched(ctx.puzzle, board) - before)
            }
            None => Ok(0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edge_search::Rng;
    use crate::edge_search::region_clique::tests::{ctx, legal};
    use crate::puzzle::edge::generate;

    #[test]
    fn border_optimisation_restores_a_scrambled_planted_rim() {
        let (p, planted) = generate(6, 6, 2, 3, 17).unwrap();
        let mut board = planted.clone();
        // Swap edge pieces between cells of the top and left sides, each turned to fit.
        let mut rng = Rng::new(4);
        let mut edges: Vec<(usize, usize)> = (1..5)
            .map(|c| (0, c))
            .chain((1..5).map(|r| (r, 0)))
            .collect();
        rng.shuffle(&mut edges);
        let ids: Vec<u16> = edges
            .iter()
            .map(|&(r, c)| board.get(r, c).unwrap().0)
            .collect();
        let targets: Vec<(usize, usize)> = (1..5)
            .map(|c| (0, c))
            .chain((1..5).map(|r| (r, 0)))
            .collect();
        for (&(r, c), id) in targets.iter().zip(ids) {
            board.cells[r * 6 + c] = Some((id, p.fitting_rotations(id, r, c)[0]));
        }
        assert!(legal(&p, &board));
        let before = matched(&p, &board);
        assert!(before < p.max_score());
        let mut c = ctx(&p, 1);
        let gained = BorderOptimisation.improve(&mut c, &mut board).unwrap();
        assert_eq!(matched(&p, &board), p.max_score());
        assert_eq!(gained, p.max_score() - before);
        assert!(legal(&p, &board));
        // At the optimum, BO moves nothing and gains nothing.
        assert_eq!(BorderOptimisation.improve(&mut c, &mut board).unwrap(), 0);
        assert_eq!(matched(&p, &board), p.max_score());
    }
}
