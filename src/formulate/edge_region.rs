//! The region MILP of Salassa, Vancroonenburg, Wauters, Della Croce and Vanden Berghe, "MILP
//! and Max-Clique based heuristics for the Eternity II puzzle" (§3.1, (15)–(17)): the model
//! (1)–(14) of [`super::edge_milp`] cut down to a region of empty cells of a partial board,
//! filled from a subset of the pieces not on the board.
//!
//! Given a partial board `S*` and a set `R'` of its empty cells (a rectangle in the paper's
//! construction; the rim for Border Optimisation; the holes a clique left in a window), and a
//! set `T'` of pieces not on the board:
//! - (12) `x_t{t}_r{r}_c{c}_a{α}` binary, one per piece of `T'`, cell of `R'` and rotation
//!   that puts grey exactly on the cell's outward sides;
//! - `h_r{r}_c{c}` / `v_r{r}_c{c}` binary, one per seam *counted*: a seam with at least one
//!   side in `R'` and the other side in `R'` or filled on `S*` (a seam to a cell still empty
//!   and outside `R'` is decided later, by another region, and is not counted);
//! - (15) `unmatched`: minimise the counted h and v;
//! - (16) `tile_t{t}`: Σ x ≤ 1 for every piece of `T'`: a piece is used at most once, and
//!   not every piece need be used;
//! - (3) `cell_r{r}_c{c}`: Σ x = 1 for every cell of `R'`;
//! - (4)–(7) `hr`/`hl`/`vd`/`vu` rows, per colour, for the seams inside `R'`, as in the whole
//!   model;
//! - `hf_r{r}_c{c}` / `vf_r{r}_c{c}` for a seam to a filled cell showing colour k:
//!   Σ x[shows k on that side] + h ≥ 1 (the only way to match a fixed side is to show its
//!   colour; a fixed side that shows grey can never match, and the row forces h = 1);
//! - (17) `cut{k}`: Σ_{x ∈ X_k} x ≤ |X_k| − 1 for each earlier region solution `X_k` to
//!   exclude (the backtracking heuristic's no-good);
//! - `perfect` (with [`RegionSpec::perfect`]): Σ h + Σ v ≤ 0, the backtracking heuristic's
//!   subproblem, whose optimum is restricted to zero: infeasible exactly when the region's
//!   lower bound is above zero.
//!
//! Where the paper was read, not copied: it writes (15) for the example region "(1,4)×(4,8)
//! given a partial solution on (1,1)×(4,4)" with the seams of columns 4..7 and 4..8, i.e. the
//! seams of the region *and* those to the already placed neighbours, which its text confirms
//! ("the edge constraints … also hold for rows and columns matching the boundaries of
//! previously solved regions"). The rim rows (8)–(11) become a variable filter: a placement
//! that breaks the rim rule gets no variable, which also keeps border pieces out of inner
//! cells (the whole model gets that from counting greys, which a subset of pieces cannot).

use crate::model::algebraic::{Algebraic, Table, Template};
use crate::model::milp::{Model, ModelError, ObjSense, Sense, Var, VarKind};
use crate::puzzle::edge::{Board, EdgePuzzle, Rotation, placed_colours};
use std::collections::BTreeSet;

pub use super::edge_milp::{BINARY_TOL, Placement};

/// Placed sides, as indices into [`crate::puzzle::edge::Piece::placed`].
const UP: usize = 0;
const RIGHT: usize = 1;
const DOWN: usize = 2;
const LEFT: usize = 3;

/// A cell, `(row, col)`, 0-based.
pub type Cell = (usize, usize);

/// A counted seam: its unmatched-seam variable, and its two cells (the second right of or
/// below the first).
pub type Seam = (Var, Cell, Cell);

/// What one region model is asked to fill.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RegionSpec {
    /// The cells to fill, `(row, col)`: each must be empty on the partial board.
    pub cells: Vec<(usize, usize)>,
    /// The pieces that may fill them, each at most once: none may be on the partial board.
    pub pieces: Vec<u16>,
    /// Earlier region solutions to exclude, one no-good (17) each.
    pub cuts: Vec<Vec<Placement>>,
    /// Only a region with every counted seam matched is acceptable (objective restricted to
    /// zero).
    pub perfect: bool,
}

impl RegionSpec {
    /// The cells of the rectangle from (`r0`, `c0`) to (`r1`, `c1`) (inclusive, 0-based), row
    /// by row, filled from every piece not on `partial`.
    pub fn rectangle(
        p: &EdgePuzzle,
        partial: &Board,
        (r0, c0): (usize, usize),
        (r1, c1): (usize, usize),
    ) -> RegionSpec {
        RegionSpec {
            cells: (r0..=r1)
                .flat_map(|r| (c0..=c1).map(move |c| (r, c)))
                .collect(),
            pieces: unused_pieces(p, partial),
            cuts: Vec::new(),
            perfect: false,
        }
    }
}

/// The pieces of `p` not on `board`, in id order.
pub fn unused_pieces(p: &EdgePuzzle, board: &Board) -> Vec<u16> {
    let used: BTreeSet<u16> = board.cells.iter().flatten().map(|&(id, _)| id).collect();
    p.pieces()
        .iter()
        .map(|pc| pc.id)
        .filter(|id| !used.contains(id))
        .collect()
}

/// Why a region model cannot be built: bad input, said in the user's terms.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RegionError {
    /// The partial board is for another size.
    #[error("the partial board is {got_rows}×{got_cols} but the puzzle is {rows}×{cols}")]
    BoardSize {
        /// Board rows.
        got_rows: usize,
        /// Board columns.
        got_cols: usize,
        /// Puzzle rows.
        rows: usize,
        /// Puzzle columns.
        cols: usize,
    },
    /// A region with no cell.
    #[error("the region has no cell")]
    Empty,
    /// A cell off the board.
    #[error("cell ({row}, {col}) of the region is off the {rows}×{cols} board")]
    OffBoard {
        /// Row (0-based).
        row: usize,
        /// Column (0-based).
        col: usize,
        /// Board rows.
        rows: usize,
        /// Board columns.
        cols: usize,
    },
    /// A cell listed twice, or already filled.
    #[error("cell ({row}, {col}) of the region is {why}")]
    Cell {
        /// Row (0-based).
        row: usize,
        /// Column (0-based).
        col: usize,
        /// "listed twice" or "already filled on the partial board".
        why: &'static str,
    },
    /// A piece that is not free to place.
    #[error("piece {piece} {why}")]
    Piece {
        /// The piece id.
        piece: u16,
        /// "does not exist", "is listed twice" or "is already on the partial board".
        why: &'static str,
    },
    /// Fewer pieces than cells: the model would be infeasible by counting alone.
    #[error("the region has {cells} cells but only {pieces} pieces may fill it")]
    TooFewPieces {
        /// Cells.
        cells: usize,
        /// Pieces.
        pieces: usize,
    },
    /// A name or number the model rejected (a bug, not bad input).
    #[error(transparent)]
    Model(#[from] ModelError),
}

/// Why solver values do not decode into a filling of the region.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RegionDecodeError {
    /// Not one value per variable.
    #[error("{got} values given for a model with {want} variables")]
    WrongLength {
        /// Values given.
        got: usize,
        /// Variables.
        want: usize,
    },
    /// A binary far from 0 and 1.
    #[error("binary {name} = {value} is not 0 or 1")]
    Fractional {
        /// The variable.
        name: String,
        /// Its value.
        value: f64,
    },
    /// A region cell with no placement, or two.
    #[error("cell ({row}, {col}) of the region has {count} placements at 1, not one")]
    Cell {
        /// Row.
        row: usize,
        /// Column.
        col: usize,
        /// Placements at 1.
        count: usize,
    },
}

/// The built region model and what decoding it needs.
#[derive(Debug, Clone)]
pub struct EdgeRegion {
    /// The MILP.
    pub model: Model,
    /// The partial board the region is cut from.
    pub partial: Board,
    /// The region's cells, as given.
    pub cells: Vec<(usize, usize)>,
    /// `placements[k]` is the meaning of `Var(k)`; the x variables come first.
    pub placements: Vec<Placement>,
    /// The counted seams: `(seam variable, first cell, second cell)`, the second right of or
    /// below the first.
    pub seams: Vec<Seam>,
}

/// Check `spec` against `p` and `partial` (sizes, cells empty and on the board, pieces free).
fn validate(p: &EdgePuzzle, partial: &Board, spec: &RegionSpec) -> Result<(), RegionError> {
    let (rows, cols) = (p.rows(), p.cols());
    if (partial.rows, partial.cols) != (rows, cols) || partial.cells.len() != rows * cols {
        return Err(RegionError::BoardSize {
            got_rows: partial.rows,
            got_cols: partial.cols,
            rows,
            cols,
        });
    }
    if spec.cells.is_empty() {
        return Err(RegionError::Empty);
    }
    let mut seen = BTreeSet::new();
    for &(row, col) in &spec.cells {
        if row >= rows || col >= cols {
            return Err(RegionError::OffBoard {
                row,
                col,
                rows,
                cols,
            });
        }
        if !seen.insert((row, col)) {
            return Err(RegionError::Cell {
                row,
                col,
                why: "listed twice",
            });
        }
        if partial.get(row, col).is_some() {
            return Err(RegionError::Cell {
                row,
                col,
                why: "already filled on the partial board",
            });
        }
    }
    let on_board: BTreeSet<u16> = partial.cells.iter().flatten().map(|&(id, _)| id).collect();
    let mut listed = BTreeSet::new();
    for &id in &spec.pieces {
        let why = if p.piece(id).is_none() {
            "does not exist"
        } else if !listed.insert(id) {
            "is listed twice"
        } else if on_board.contains(&id) {
            "is already on the partial board"
        } else {
            continue;
        };
        return Err(RegionError::Piece { piece: id, why });
    }
    if spec.pieces.len() < spec.cells.len() {
        return Err(RegionError::TooFewPieces {
            cells: spec.cells.len(),
            pieces: spec.pieces.len(),
        });
    }
    Ok(())
}

/// Build the region model. Deterministic: the variables follow the order of `spec.cells`,
/// then `spec.pieces`, then rotations; the seams follow the cells.
pub fn build(
    p: &EdgePuzzle,
    partial: &Board,
    spec: &RegionSpec,
) -> Result<EdgeRegion, RegionError> {
    validate(p, partial, spec)?;
    let (rows, cols) = (p.rows(), p.cols());
    let in_region: BTreeSet<(usize, usize)> = spec.cells.iter().copied().collect();
    let mut m = Model::new(&format!(
        "edge_region_{rows}x{cols}_{}cells{}",
        spec.cells.len(),
        if spec.perfect { "_perfect" } else { "" }
    ));

    // (12), filtered by the rim rule.
    let mut placements = Vec::new();
    let mut by_cell: Vec<Vec<(Var, [u16; 4])>> = vec![Vec::new(); rows * cols];
    let mut by_tile: Vec<(u16, Vec<Var>)> = Vec::new();
    let mut index: std::collections::HashMap<(u16, usize, usize, u8), Var> =
        std::collections::HashMap::new();
    for &(row, col) in &spec.cells {
        for &id in &spec.pieces {
            let pc = p.piece(id).expect("validated");
            for rot in p.fitting_rotations(id, row, col) {
                let var = m.add_var(
                    &format!("x_t{id}_r{row}_c{col}_a{}", rot.turns()),
                    VarKind::Binary,
                    0.0,
                    1.0,
                )?;
                placements.push(Placement {
                    piece: id,
                    row,
                    col,
                    rot,
                });
                by_cell[row * cols + col].push((var, pc.placed(rot)));
                index.insert((id, row, col, rot.turns()), var);
                match by_tile.iter_mut().find(|(t, _)| *t == id) {
                    Some((_, vars)) => vars.push(var),
                    None => by_tile.push((id, vec![var])),
                }
            }
        }
    }
    // The counted seams: every seam of a region cell to its right or below, and of a region
    // cell's left or upper neighbour when that one is filled (a region neighbour there is
    // met from its own side).
    let mut seams: Vec<Seam> = Vec::new();
    let filled = |r: usize, c: usize| partial.get(r, c).is_some();
    let mut seen_seam = BTreeSet::new();
    for &(r, c) in &spec.cells {
        let mut candidates = Vec::with_capacity(4);
        if c + 1 < cols {
            candidates.push(((r, c), (r, c + 1)));
        }
        if r + 1 < rows {
            candidates.push(((r, c), (r + 1, c)));
        }
        if c > 0 {
            candidates.push(((r, c - 1), (r, c)));
        }
        if r > 0 {
            candidates.push(((r - 1, c), (r, c)));
        }
        for (a, b) in candidates {
            let counted = (in_region.contains(&a) || filled(a.0, a.1))
                && (in_region.contains(&b) || filled(b.0, b.1));
            if counted && seen_seam.insert((a, b)) {
                let name = if a.0 == b.0 { "h" } else { "v" };
                let var = m.add_var(
                    &format!("{name}_r{}_c{}", a.0, a.1),
                    VarKind::Binary,
                    0.0,
                    1.0,
                )?;
                seams.push((var, a, b));
            }
        }
    }
    // (15)
    let obj: Vec<(Var, f64)> = seams.iter().map(|&(s, _, _)| (s, 1.0)).collect();
    m.set_objective("unmatched", ObjSense::Minimize, &obj)?;
    // (16)
    for (id, vars) in &by_tile {
        let terms: Vec<(Var, f64)> = vars.iter().map(|&x| (x, 1.0)).collect();
        m.add_row(&format!("tile_t{id}"), &terms, Sense::Le, 1.0)?;
    }
    // (3)
    for &(r, c) in &spec.cells {
        let terms: Vec<(Var, f64)> = by_cell[r * cols + c]
            .iter()
            .map(|&(x, _)| (x, 1.0))
            .collect();
        m.add_row(&format!("cell_r{r}_c{c}"), &terms, Sense::Eq, 1.0)?;
    }
    let colours: Vec<u16> = spec
        .pieces
        .iter()
        .filter_map(|&id| p.piece(id))
        .flat_map(|pc| pc.colours)
        .filter(|&c| c != 0)
        .collect::<BTreeSet<u16>>()
        .into_iter()
        .collect();
    for &(s, a, b) in &seams {
        let horizontal = a.0 == b.0;
        let (side_a, side_b) = if horizontal {
            (RIGHT, LEFT)
        } else {
            (DOWN, UP)
        };
        let tag = format!("r{}_c{}", a.0, a.1);
        let shown = |(r, c): (usize, usize), side: usize| {
            partial
                .get(r, c)
                .and_then(|(id, rot)| p.piece(id).map(|pc| pc.placed(rot)[side]))
        };
        match (shown(a, side_a), shown(b, side_b)) {
            (None, None) => {
                // (4)–(7): both sides in the region.
                let names = if horizontal {
                    ["hr", "hl"]
                } else {
                    ["vd", "vu"]
                };
                let (pa, pb) = (&by_cell[a.0 * cols + a.1], &by_cell[b.0 * cols + b.1]);
                super::edge_milp::seam_rows(
                    &mut m, &colours, names, &tag, pa, side_a, pb, side_b, s,
                )?;
            }
            (fixed_a, fixed_b) => {
                // One side filled on the partial board, showing colour k: the region side
                // matches only by showing k.
                let (k, cell, side) = match (fixed_a, fixed_b) {
                    (Some(k), _) => (k, b, side_b),
                    (None, Some(k)) => (k, a, side_a),
                    (None, None) => unreachable!("matched above"),
                };
                let mut terms: Vec<(Var, f64)> = if k == 0 {
                    Vec::new()
                } else {
                    by_cell[cell.0 * cols + cell.1]
                        .iter()
                        .filter(|(_, pl)| pl[side] == k)
                        .map(|&(x, _)| (x, 1.0))
                        .collect()
                };
                terms.push((s, 1.0));
                let name = if horizontal { "hf" } else { "vf" };
                m.add_row(&format!("{name}_{tag}"), &terms, Sense::Ge, 1.0)?;
            }
        }
    }
    // (17)
    for (k, cut) in spec.cuts.iter().enumerate() {
        let vars: Option<Vec<Var>> = cut
            .iter()
            .map(|pl| {
                index
                    .get(&(pl.piece, pl.row, pl.col, pl.rot.turns()))
                    .copied()
            })
            .collect();
        // A cut naming a placement the model cannot make excludes nothing: left out.
        let Some(vars) = vars.filter(|v| !v.is_empty()) else {
            continue;
        };
        let terms: Vec<(Var, f64)> = vars.iter().map(|&x| (x, 1.0)).collect();
        m.add_row(
            &format!("cut{}", k + 1),
            &terms,
            Sense::Le,
            vars.len() as f64 - 1.0,
        )?;
    }
    if spec.perfect && !obj.is_empty() {
        m.add_row("perfect", &obj, Sense::Le, 0.0)?;
    }
    Ok(EdgeRegion {
        model: m,
        partial: partial.clone(),
        cells: spec.cells.clone(),
        placements,
        seams,
    })
}

/// The same model stated algebraically ([`Template::EdgeRegion`]), for GAMS: the template
/// holds the equations over the sets; this gives it the instance: the board's size, the free
/// pieces and their colours (a table over the listed sides), the rotation convention, the
/// region's cells, the filled cells and the non-grey colours they show, and the cuts.
/// Refuses what [`build`] refuses.
pub fn algebraic(
    p: &EdgePuzzle,
    partial: &Board,
    spec: &RegionSpec,
) -> Result<Algebraic, RegionError> {
    validate(p, partial, spec)?;
    let sides = ["bottom", "left", "top", "right"];
    let placed = ["up", "right", "down", "left"];
    let mut pieces = spec.pieces.clone();
    pieces.sort_unstable();
    let colour = Table {
        rows: pieces.iter().map(|id| format!("t{id}")).collect(),
        cols: sides.iter().map(|k| k.to_string()).collect(),
        values: pieces
            .iter()
            .map(|&id| {
                let pc = p.piece(id).expect("validated");
                pc.colours.iter().map(|&c| i64::from(c)).collect()
            })
            .collect(),
        width: 8,
    };
    let turn = Rotation::ALL
        .into_iter()
        .flat_map(|rot| {
            let shown = placed_colours([0, 1, 2, 3], rot);
            (0..4).map(move |d| {
                vec![
                    format!("a{}", rot.turns()),
                    placed[d].to_string(),
                    sides[shown[d] as usize].to_string(),
                ]
            })
        })
        .collect();
    let mut cells = spec.cells.clone();
    cells.sort_unstable();
    let reg = cells
        .iter()
        .map(|&(r, c)| vec![format!("r{r}"), format!("c{c}")])
        .collect();
    let mut filled = Vec::new();
    let mut fixcol = Vec::new();
    for r in 0..p.rows() {
        for c in 0..p.cols() {
            let Some((id, rot)) = partial.get(r, c) else {
                continue;
            };
            filled.push(vec![format!("r{r}"), format!("c{c}")]);
            if let Some(pc) = p.piece(id) {
                for (d, &k) in pc.placed(rot).iter().enumerate() {
                    if k != 0 {
                        fixcol.push(vec![
                            format!("r{r}"),
                            format!("c{c}"),
                            placed[d].to_string(),
                            k.to_string(),
                        ]);
                    }
                }
            }
        }
    }
    let incut = spec
        .cuts
        .iter()
        .enumerate()
        .flat_map(|(q, cut)| {
            cut.iter().map(move |pl| {
                vec![
                    format!("q{}", q + 1),
                    format!("t{}", pl.piece),
                    format!("r{}", pl.row),
                    format!("c{}", pl.col),
                    format!("a{}", pl.rot.turns()),
                ]
            })
        })
        .collect();
    let int = |v: usize| v as i64;
    Ok(Algebraic::new(Template::EdgeRegion)
        .scalar("nrow", int(p.rows()))
        .scalar("ncol", int(p.cols()))
        .scalar("ncells", int(cells.len()))
        .scalar("ntiles", int(pieces.len()))
        .scalar("ncolours", i64::from(p.max_colour().max(1)))
        .scalar("ncuts", int(spec.cuts.len()))
        .scalar("perfect", i64::from(spec.perfect))
        .text(
            "tiles",
            pieces
                .iter()
                .map(|id| format!("t{id}"))
                .collect::<Vec<_>>()
                .join(", "),
        )
        .set("turn", turn)
        .set("reg", reg)
        .set("filled", filled)
        .set("fixcol", fixcol)
        .set("incut", incut)
        .table("colour", colour))
}

impl EdgeRegion {
    /// The placements the x values choose, one per region cell, in the order of the cells.
    pub fn decode_placements(&self, x: &[f64]) -> Result<Vec<Placement>, RegionDecodeError> {
        if x.len() != self.model.num_vars() {
            return Err(RegionDecodeError::WrongLength {
                got: x.len(),
                want: self.model.num_vars(),
            });
        }
        for var in self.model.vars() {
            let val = x[var.index()];
            if !((val - val.round()).abs() <= BINARY_TOL && (-0.5..1.5).contains(&val)) {
                return Err(RegionDecodeError::Fractional {
                    name: self.model.var_name(var).to_string(),
                    value: val,
                });
            }
        }
        let mut out = Vec::with_capacity(self.cells.len());
        for &(row, col) in &self.cells {
            let chosen: Vec<&Placement> = self
                .placements
                .iter()
                .enumerate()
                .filter(|&(k, pl)| (pl.row, pl.col) == (row, col) && x[k] >= 0.5)
                .map(|(_, pl)| pl)
                .collect();
            if chosen.len() != 1 {
                return Err(RegionDecodeError::Cell {
                    row,
                    col,
                    count: chosen.len(),
                });
            }
            out.push(*chosen[0]);
        }
        Ok(out)
    }

    /// The partial board with the region filled as the x values say.
    pub fn decode(&self, x: &[f64]) -> Result<Board, RegionDecodeError> {
        let mut board = self.partial.clone();
        for pl in self.decode_placements(x)? {
            board.cells[pl.row * board.cols + pl.col] = Some((pl.piece, pl.rot));
        }
        Ok(board)
    }

    /// The model point of `board` (the partial board with the region filled): x from its
    /// placements, each counted seam 1 when unmatched. For tests and to check the model
    /// against boards built without it.
    pub fn point_of(&self, p: &EdgePuzzle, board: &Board) -> Vec<f64> {
        let mut x = vec![0.0; self.model.num_vars()];
        for (k, pl) in self.placements.iter().enumerate() {
            if board.get(pl.row, pl.col) == Some((pl.piece, pl.rot)) {
                x[k] = 1.0;
            }
        }
        let shown = |(r, c): (usize, usize)| {
            board
                .get(r, c)
                .and_then(|(id, rot)| p.piece(id).map(|pc| pc.placed(rot)))
        };
        for &(s, a, b) in &self.seams {
            let (sa, sb) = if a.0 == b.0 {
                (RIGHT, LEFT)
            } else {
                (DOWN, UP)
            };
            let matched = matches!((shown(a), shown(b)), (Some(pa), Some(pb)) if pa[sa] != 0 && pa[sa] == pb[sb]);
            x[s.index()] = if matched { 0.0 } else { 1.0 };
        }
        x
    }

    /// The number of counted seams (the objective's worst value).
    pub fn counted_seams(&self) -> usize {
        self.seams.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::edge::generate;
    use crate::verify::milp::check_point;

    /// A planted 5×5 puzzle with rows 1..=2 emptied.
    fn planted() -> (EdgePuzzle, Board, Board) {
        let (p, solution) = generate(5, 5, 2, 3, 7).unwrap();
        let mut partial = solution.clone();
        for r in 1..=2 {
            for c in 0..5 {
                partial.cells[r * 5 + c] = None;
            }
        }
        (p, solution, partial)
    }

    #[test]
    fn the_planted_filling_is_a_point_of_the_model_at_zero() {
        let (p, solution, partial) = planted();
        let spec = RegionSpec::rectangle(&p, &partial, (1, 0), (2, 4));
        assert_eq!(spec.cells.len(), 10);
        assert_eq!(spec.pieces.len(), 10);
        let region = build(&p, &partial, &spec).unwrap();
        // Seams: 2 rows of 4 inside, 5 between the region rows, 5 up and 5 down to filled
        // rows.
        assert_eq!(region.counted_seams(), 8 + 5 + 5 + 5);
        let x = region.point_of(&p, &solution);
        let v = check_point(&region.model, &x, Some(0.0));
        assert!(v.errors.is_empty(), "{:?}", v.errors);
        assert_eq!(region.decode(&x).unwrap(), solution);
        // The same filling under the perfect restriction, and cut off by its own no-good.
        let mut perfect = spec.clone();
        perfect.perfect = true;
        let r = build(&p, &partial, &perfect).unwrap();
        assert!(
            check_point(&r.model, &r.point_of(&p, &solution), Some(0.0))
                .errors
                .is_empty()
        );
        perfect.cuts.push(region.decode_placements(&x).unwrap());
        let r = build(&p, &partial, &perfect).unwrap();
        let errors = check_point(&r.model, &r.point_of(&p, &solution), Some(0.0)).errors;
        assert!(errors.iter().any(|e| e.contains("cut1")), "{errors:?}");
    }

    #[test]
    fn a_wrong_board_counts_its_unmatched_seams() {
        let (p, solution, partial) = planted();
        let spec = RegionSpec::rectangle(&p, &partial, (1, 0), (2, 4));
        let region = build(&p, &partial, &spec).unwrap();
        // Swap two inner pieces of the region: a legal filling with unmatched seams.
        let mut swapped = solution.clone();
        swapped.cells.swap(6, 8);
        let x = region.point_of(&p, &swapped);
        let unmatched: f64 = region.seams.iter().map(|&(s, _, _)| x[s.index()]).sum();
        let lost = crate::puzzle::edge::score(&p, &solution).matched
            - crate::puzzle::edge::score(&p, &swapped).matched;
        assert_eq!(unmatched as usize, lost);
        assert!(lost > 0);
        let v = check_point(&region.model, &x, Some(unmatched));
        assert!(v.errors.is_empty(), "{:?}", v.errors);
    }

    #[test]
    fn bad_regions_are_refused_in_the_users_terms() {
        let (p, solution, partial) = planted();
        let err =
            |spec: RegionSpec, board: &Board| build(&p, board, &spec).unwrap_err().to_string();
        let mut spec = RegionSpec::rectangle(&p, &partial, (1, 0), (2, 4));
        spec.cells.push((0, 0));
        assert_eq!(
            err(spec, &partial),
            "cell (0, 0) of the region is already filled on the partial board"
        );
        let spec = RegionSpec::rectangle(&p, &partial, (1, 0), (5, 4));
        assert_eq!(
            err(spec, &partial),
            "cell (3, 0) of the region is already filled on the partial board"
        );
        let mut spec = RegionSpec::rectangle(&p, &partial, (1, 0), (2, 4));
        spec.pieces.truncate(4);
        assert_eq!(
            err(spec, &partial),
            "the region has 10 cells but only 4 pieces may fill it"
        );
        let mut spec = RegionSpec::rectangle(&p, &partial, (1, 0), (2, 4));
        spec.pieces.push(solution.cells[0].unwrap().0);
        assert!(err(spec, &partial).ends_with("is already on the partial board"));
        let spec = RegionSpec::rectangle(&p, &partial, (1, 0), (2, 4));
        assert_eq!(
            err(spec, &Board::empty(4, 4)),
            "the partial board is 4×4 but the puzzle is 5×5"
        );
    }
}
