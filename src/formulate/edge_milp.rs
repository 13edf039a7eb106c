//! The MILP of Salassa, Vancroonenburg, Wauters, Della Croce and Vanden Berghe, "MILP and
//! Max-Clique based heuristics for the Eternity II puzzle" (arXiv:1709.00252, §3), for an
//! `R × C` edge-matching puzzle with `n = R·C` tiles and non-grey colours `l = 1..L`.
//!
//! Indices: tile `t` (the 1-based piece id of the file), row `r` (0 = top), column `c`
//! (0 = left), rotation `α` (clockwise quarter turns of the listed piece, 0..3). Placed colours
//! are read with [`Piece::placed`](crate::puzzle::edge::Piece::placed) (up, right, down, left).
//!
//! Variables (named as in `docs/src/reference/formats.md`):
//! - (12) `x_t{t}_r{r}_c{c}_a{α}` binary: tile t sits in cell (r, c) with rotation α;
//! - (13) `h_r{r}_c{c}` binary: the vertical seam between (r, c) and (r, c+1) is unmatched;
//! - (14) `v_r{r}_c{c}` binary: the horizontal seam between (r, c) and (r+1, c) is unmatched.
//!
//! Objective (1) `unmatched`: minimise Σ h + Σ v, the unmatched inner seams.
//!
//! Rows:
//! - (2) `tile_t{t}`: Σ_{r,c,α} x = 1, every tile placed once;
//! - (3) `cell_r{r}_c{c}`: Σ_{t,α} x = 1, every cell filled once;
//! - (4) `hr_r{r}_c{c}_l{l}`: Σ x(·,r,c,·)[right shows l] − Σ x(·,r,c+1,·)[left shows l] ≤ h_{r,c};
//! - (5) `hl_r{r}_c{c}_l{l}`: the same difference the other way round ≤ h_{r,c};
//! - (6) `vd_r{r}_c{c}_l{l}`: Σ x(·,r,c,·)[down shows l] − Σ x(·,r+1,c,·)[up shows l] ≤ v_{r,c};
//! - (7) `vu_r{r}_c{c}_l{l}`: the same difference the other way round ≤ v_{r,c};
//! - (8)–(11) `rim_top_c{c}`, `rim_right_r{r}`, `rim_bottom_c{c}`, `rim_left_r{r}`: the
//!   placement in each border cell shows grey (0) on its outward side(s): Σ x[grey out] = 1.
//!
//! Where the paper had to be interpreted (the stored copy of the paper available when this
//! was written held only its first pages, so the numbering (1)–(14) above is our reading of
//! the published model, checked against its description: placement binaries for every tile,
//! cell and rotation; h and v unmatched-seam binaries; colour-matching rows for every colour;
//! grey only on the rim; minimise unmatched inner seams):
//! - **colours**: `l` runs over the non-grey colours that occur in the instance (grey is
//!   handled by the rim rows). A row of (4)–(7) whose x-part is empty reads `−h ≤ 0` and is
//!   left out; in the faithful model this only happens for colour numbers no piece uses.
//! - **grey never faces in**: not a separate row. Rows (8)–(11) put a grey side on each of
//!   the `2(R+C)` outward sides; a valid instance has exactly that many grey sides (four
//!   corners with two, `2(R−2)+2(C−2)` edge pieces with one), so none is left to face in.
//! - **both directions** of (4)/(5) and (6)/(7) are kept as the paper states them, although in
//!   an integer point one direction alone already forces h (v) to 1 on a mismatch.
//!
//! Options (off by default, never silent; see [`EdgeMilpOptions`]):
//! - `filter_feasible`: only (tile, cell, rotation) triples whose grey sides lie exactly on
//!   the cell's outward sides get a variable (corners in corners, edge pieces on the border
//!   grey outward, inner pieces inside in all four rotations): the node set of the paper's
//!   max-clique graph. The rows stay; rows of (4)–(7) left without x terms are dropped.
//! - `fix_first_corner`: the first corner piece of the file (first in file order) may only
//!   sit in the top-left cell, in the rotation putting its greys up and left, and no other
//!   tile may sit there. Valid on square boards only (the 90° board rotation maps any corner
//!   to the top-left one), so it is refused on rectangular boards.
//!
//! With both options the x count equals the clique graph's node count
//! `10 + (4(n−2))² + 4(n−2)⁴` on an `n × n` board (30, 138, 478, 1290, 2910, 5770 for the
//! META 3×3..8×8 instances; see the unit tests and `tests/edge_milp.rs`).

use crate::field::Field;
use crate::model::algebraic::{Algebraic, Table, Template};
use crate::model::milp::{Model, ModelError, ObjSense, Sense, Var, VarKind};
use crate::puzzle::edge::{Board, EdgePuzzle, PieceKind, Rotation, placed_colours};
use std::collections::BTreeSet;

/// Options of the edge MILP. Both are off by default: the default model is the paper's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct EdgeMilpOptions {
    /// Keep only the (tile, cell, rotation) triples that put grey exactly on the rim
    /// (`filter`).
    pub filter_feasible: bool,
    /// Fix the first corner piece in the top-left corner to break the board's rotational
    /// symmetry (`fix_corner`; square boards only).
    pub fix_first_corner: bool,
}

impl EdgeMilpOptions {
    /// A short tag for names and reports: `faithful`, `filter`, `fix` or `filter_fix`.
    pub fn tag(&self) -> &'static str {
        match (self.filter_feasible, self.fix_first_corner) {
            (false, false) => "faithful",
            (true, false) => "filter",
            (false, true) => "fix",
            (true, true) => "filter_fix",
        }
    }
}

/// One placement variable: tile `piece` in cell (`row`, `col`) with rotation `rot`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placement {
    /// 1-based piece id.
    pub piece: u16,
    /// Row, 0 = top.
    pub row: usize,
    /// Column, 0 = left.
    pub col: usize,
    /// Clockwise quarter turns.
    pub rot: Rotation,
}

/// Why the model could not be built.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum EdgeMilpError {
    /// The symmetry break needs a square board.
    #[error(
        "{} needs a square board: on a {rows}×{cols} board the first corner piece cannot be assumed to sit in the top-left corner",
        Field::FixCorner
    )]
    NotSquare {
        /// Rows.
        rows: usize,
        /// Columns.
        cols: usize,
    },
    /// A name or number the model rejected (a bug, not bad input).
    #[error(transparent)]
    Model(#[from] ModelError),
}

/// Why solver values could not be turned into a board.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DecodeError {
    /// Not one value per variable.
    #[error("{got} values given for a model with {want} variables")]
    WrongLength {
        /// Values given.
        got: usize,
        /// Variables in the model.
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
    /// A cell with no placement at 1.
    #[error("cell ({row}, {col}) has no piece: no x variable of it is 1")]
    EmptyCell {
        /// Row.
        row: usize,
        /// Column.
        col: usize,
    },
    /// A cell with two placements at 1.
    #[error("cell ({row}, {col}) has two pieces: {first} and {second} are both 1")]
    TwoPieces {
        /// Row.
        row: usize,
        /// Column.
        col: usize,
        /// One variable at 1.
        first: String,
        /// Another.
        second: String,
    },
}

/// The built model and what is needed to decode it.
#[derive(Debug, Clone)]
pub struct EdgeMilp {
    /// The MILP.
    pub model: Model,
    /// Board rows.
    pub rows: usize,
    /// Board columns.
    pub cols: usize,
    /// The options it was built with.
    pub options: EdgeMilpOptions,
    /// `placements[k]` is the meaning of variable `Var(k)`; the x variables come first.
    pub placements: Vec<Placement>,
    /// `h[r * (cols − 1) + c]`: seam between (r, c) and (r, c+1).
    pub h: Vec<Var>,
    /// `v[r * cols + c]`: seam between (r, c) and (r+1, c).
    pub v: Vec<Var>,
    /// The colours `l` the rows of (4)–(7) run over.
    pub colours: Vec<u16>,
    /// The fixed corner piece and its rotation, with `fix_first_corner`.
    pub fixed: Option<(u16, Rotation)>,
}

/// Placed sides, as indices into [`crate::puzzle::edge::Piece::placed`].
const UP: usize = 0;
const RIGHT: usize = 1;
const DOWN: usize = 2;
const LEFT: usize = 3;

/// The first corner piece in file order and the rotation that puts its greys up and left.
pub fn first_corner(p: &EdgePuzzle) -> Option<(u16, Rotation)> {
    let piece = p
        .pieces()
        .iter()
        .find(|pc| pc.kind() == Some(PieceKind::Corner))?;
    let rot = p.fitting_rotations(piece.id, 0, 0).into_iter().next()?;
    Some((piece.id, rot))
}

/// The corner fixed by `fix_first_corner` (`None` without it), refused on a rectangular
/// board. Shared by [`build`] and [`algebraic`] so that both forms refuse the same inputs.
fn fixed_corner(
    p: &EdgePuzzle,
    opts: EdgeMilpOptions,
) -> Result<Option<(u16, Rotation)>, EdgeMilpError> {
    if !opts.fix_first_corner {
        return Ok(None);
    }
    let (rows, cols) = (p.rows(), p.cols());
    if rows != cols {
        return Err(EdgeMilpError::NotSquare { rows, cols });
    }
    Ok(first_corner(p))
}

/// Whether tile `id` in cell (`row`, `col`) with rotation `rot` gets a variable: `fits` are
/// the rotations that fit the cell (consulted only when filtering), `fixed` the fixed corner.
fn allowed(
    filter: bool,
    fixed: Option<(u16, Rotation)>,
    id: u16,
    (row, col): (usize, usize),
    rot: Rotation,
    fits: &[Rotation],
) -> bool {
    if filter && !fits.contains(&rot) {
        return false;
    }
    match fixed {
        Some((t, a)) if t == id => (row, col, rot) == (0, 0, a),
        Some(_) => (row, col) != (0, 0),
        None => true,
    }
}

/// The placements of one cell: each x variable with the colours it shows (up, right, down,
/// left).
pub(crate) type CellPlacements = [(Var, [u16; 4])];

/// Rows (4)–(7) of one seam: for every colour l, a − b ≤ s and b − a ≤ s, where a (b) are the
/// placements of the first (second) cell `a` (`b`) showing l on side `side_a` (`side_b`).
/// Named `{names[0]}_{tag}_l{l}` and `{names[1]}_{tag}_l{l}`, written next to each other per
/// colour; a colour neither side can show gets no row. Shared with the region model
/// ([`super::edge_region`]), whose seams inside the region are the same rows.
#[allow(
    clippy::too_many_arguments,
    reason = "the row's parts, each named as the paper names them"
)]
pub(crate) fn seam_rows(
    m: &mut Model,
    colours: &[u16],
    names: [&str; 2],
    tag: &str,
    a: &CellPlacements,
    side_a: usize,
    b: &CellPlacements,
    side_b: usize,
    s: Var,
) -> Result<(), ModelError> {
    for &l in colours {
        let pa: Vec<Var> = a
            .iter()
            .filter(|(_, pl)| pl[side_a] == l)
            .map(|&(x, _)| x)
            .collect();
        let pb: Vec<Var> = b
            .iter()
            .filter(|(_, pl)| pl[side_b] == l)
            .map(|&(x, _)| x)
            .collect();
        if pa.is_empty() && pb.is_empty() {
            continue;
        }
        for (k, sign) in [(0, 1.0), (1, -1.0)] {
            let mut terms: Vec<(Var, f64)> = Vec::with_capacity(pa.len() + pb.len() + 1);
            terms.extend(pa.iter().map(|&x| (x, sign)));
            terms.extend(pb.iter().map(|&x| (x, -sign)));
            terms.push((s, -1.0));
            m.add_row(&format!("{}_{tag}_l{l}", names[k]), &terms, Sense::Le, 0.0)?;
        }
    }
    Ok(())
}

/// Build the model for `p` under `opts`. Deterministic: same input, same model.
pub fn build(p: &EdgePuzzle, opts: EdgeMilpOptions) -> Result<EdgeMilp, EdgeMilpError> {
    let (rows, cols) = (p.rows(), p.cols());
    let fixed = fixed_corner(p, opts)?;
    let colours: Vec<u16> = p
        .pieces()
        .iter()
        .flat_map(|pc| pc.colours)
        .filter(|&c| c != 0)
        .collect::<BTreeSet<u16>>()
        .into_iter()
        .collect();
    let mut m = Model::new(&format!("edge_milp_{rows}x{cols}_{}", opts.tag()));

    // (12) x, tile by tile, then cells row-major, then rotations.
    let mut placements = Vec::new();
    // by_cell[cell] = (var, placed colours) of every x in that cell.
    let mut by_cell: Vec<Vec<(Var, [u16; 4])>> = vec![Vec::new(); rows * cols];
    let mut by_tile: Vec<Vec<Var>> = vec![Vec::new(); p.pieces().len()];
    for pc in p.pieces() {
        for row in 0..rows {
            for col in 0..cols {
                let fits = if opts.filter_feasible {
                    p.fitting_rotations(pc.id, row, col)
                } else {
                    Vec::new()
                };
                for rot in Rotation::ALL {
                    if !allowed(opts.filter_feasible, fixed, pc.id, (row, col), rot, &fits) {
                        continue;
                    }
                    let var = m.add_var(
                        &format!("x_t{}_r{row}_c{col}_a{}", pc.id, rot.turns()),
                        VarKind::Binary,
                        0.0,
                        1.0,
                    )?;
                    placements.push(Placement {
                        piece: pc.id,
                        row,
                        col,
                        rot,
                    });
                    by_cell[row * cols + col].push((var, pc.placed(rot)));
                    by_tile[pc.id as usize - 1].push(var);
                }
            }
        }
    }
    // (13), (14)
    let mut h = Vec::with_capacity(rows * (cols - 1));
    for r in 0..rows {
        for c in 0..cols - 1 {
            h.push(m.add_var(&format!("h_r{r}_c{c}"), VarKind::Binary, 0.0, 1.0)?);
        }
    }
    let mut v = Vec::with_capacity((rows - 1) * cols);
    for r in 0..rows - 1 {
        for c in 0..cols {
            v.push(m.add_var(&format!("v_r{r}_c{c}"), VarKind::Binary, 0.0, 1.0)?);
        }
    }
    // (1)
    let obj: Vec<(Var, f64)> = h.iter().chain(&v).map(|&x| (x, 1.0)).collect();
    m.set_objective("unmatched", ObjSense::Minimize, &obj)?;

    // (2)
    for (k, vars) in by_tile.iter().enumerate() {
        let terms: Vec<(Var, f64)> = vars.iter().map(|&x| (x, 1.0)).collect();
        m.add_row(&format!("tile_t{}", k + 1), &terms, Sense::Eq, 1.0)?;
    }
    // (3)
    for (cell, vars) in by_cell.iter().enumerate() {
        let terms: Vec<(Var, f64)> = vars.iter().map(|&(x, _)| (x, 1.0)).collect();
        m.add_row(
            &format!("cell_r{}_c{}", cell / cols, cell % cols),
            &terms,
            Sense::Eq,
            1.0,
        )?;
    }
    // (4)–(7), by `seam_rows`: rows (4) and (5) of one seam next to each other, per colour.
    for r in 0..rows {
        for c in 0..cols - 1 {
            let (a, b) = (&by_cell[r * cols + c], &by_cell[r * cols + c + 1]);
            seam_rows(
                &mut m,
                &colours,
                ["hr", "hl"],
                &format!("r{r}_c{c}"),
                a,
                RIGHT,
                b,
                LEFT,
                h[r * (cols - 1) + c],
            )?;
        }
    }
    for r in 0..rows - 1 {
        for c in 0..cols {
            let (a, b) = (&by_cell[r * cols + c], &by_cell[(r + 1) * cols + c]);
            seam_rows(
                &mut m,
                &colours,
                ["vd", "vu"],
                &format!("r{r}_c{c}"),
                a,
                DOWN,
                b,
                UP,
                v[r * cols + c],
            )?;
        }
    }
    // (8)–(11)
    let rim = |m: &mut Model, name: String, cell: usize, side: usize| {
        let terms: Vec<(Var, f64)> = by_cell[cell]
            .iter()
            .filter(|(_, pl)| pl[side] == 0)
            .map(|&(x, _)| (x, 1.0))
            .collect();
        m.add_row(&name, &terms, Sense::Eq, 1.0).map(|_| ())
    };
    for c in 0..cols {
        rim(&mut m, format!("rim_top_c{c}"), c, UP)?;
    }
    for r in 0..rows {
        rim(
            &mut m,
            format!("rim_right_r{r}"),
            r * cols + cols - 1,
            RIGHT,
        )?;
    }
    for c in 0..cols {
        rim(
            &mut m,
            format!("rim_bottom_c{c}"),
            (rows - 1) * cols + c,
            DOWN,
        )?;
    }
    for r in 0..rows {
        rim(&mut m, format!("rim_left_r{r}"), r * cols, LEFT)?;
    }

    Ok(EdgeMilp {
        model: m,
        rows,
        cols,
        options: opts,
        placements,
        h,
        v,
        colours,
        fixed,
    })
}

/// Distance from 0 or 1 accepted for a binary (solvers print 0.99999999 and 1e-10).
pub const BINARY_TOL: f64 = 1e-4;

impl EdgeMilp {
    /// The board the x values describe. Binaries are rounded (error beyond [`BINARY_TOL`]);
    /// every cell must hold exactly one placement. A tile used twice is not an error here:
    /// the board is returned and the verifier reports it.
    pub fn decode(&self, x: &[f64]) -> Result<Board, DecodeError> {
        if x.len() != self.model.num_vars() {
            return Err(DecodeError::WrongLength {
                got: x.len(),
                want: self.model.num_vars(),
            });
        }
        for var in self.model.vars() {
            let val = x[var.index()];
            if !((val - val.round()).abs() <= BINARY_TOL && (-0.5..1.5).contains(&val)) {
                return Err(DecodeError::Fractional {
                    name: self.model.var_name(var).to_string(),
                    value: val,
                });
            }
        }
        let mut board = Board::empty(self.rows, self.cols);
        let mut first: Vec<Option<usize>> = vec![None; self.rows * self.cols];
        for (k, pl) in self.placements.iter().enumerate() {
            if x[k] < 0.5 {
                continue;
            }
            let cell = pl.row * self.cols + pl.col;
            if let Some(j) = first[cell] {
                return Err(DecodeError::TwoPieces {
                    row: pl.row,
                    col: pl.col,
                    first: self.model.var_name(Var(j as u32)).to_string(),
                    second: self.model.var_name(Var(k as u32)).to_string(),
                });
            }
            first[cell] = Some(k);
            board.cells[cell] = Some((pl.piece, pl.rot));
        }
        if let Some(cell) = first.iter().position(Option::is_none) {
            return Err(DecodeError::EmptyCell {
                row: cell / self.cols,
                col: cell % self.cols,
            });
        }
        Ok(board)
    }

    /// The solution point of a board: x from the placements, h and v from the seams (1 when
    /// unmatched). Placements the model has no variable for are skipped (the point then fails
    /// the model check). Used by tests and to check the model against known boards.
    pub fn point_of(&self, p: &EdgePuzzle, board: &Board) -> Vec<f64> {
        let mut x = vec![0.0; self.model.num_vars()];
        for (k, pl) in self.placements.iter().enumerate() {
            if board.get(pl.row, pl.col) == Some((pl.piece, pl.rot)) {
                x[k] = 1.0;
            }
        }
        let shown = |r: usize, c: usize| {
            board
                .get(r, c)
                .and_then(|(id, rot)| p.piece(id).map(|pc| pc.placed(rot)))
        };
        let unmatched =
            |a: Option<[u16; 4]>, sa: usize, b: Option<[u16; 4]>, sb: usize| match (a, b) {
                (Some(a), Some(b)) if a[sa] != 0 && a[sa] == b[sb] => 0.0,
                _ => 1.0,
            };
        for r in 0..self.rows {
            for c in 0..self.cols - 1 {
                x[self.h[r * (self.cols - 1) + c].index()] =
                    unmatched(shown(r, c), RIGHT, shown(r, c + 1), LEFT);
            }
        }
        for r in 0..self.rows - 1 {
            for c in 0..self.cols {
                x[self.v[r * self.cols + c].index()] =
                    unmatched(shown(r, c), DOWN, shown(r + 1, c), UP);
            }
        }
        x
    }
}

/// Width of one column of the colour table: wide enough for `t10000` (a 100×100 board) and
/// for any colour number, with room to spare so that a value never touches its neighbour.
const TABLE_WIDTH: usize = 8;

/// The same model stated algebraically ([`Template::EdgeMilp`]): the template holds
/// equations (1)–(11) over the sets of tiles, rows, columns, rotations and colours; this gives
/// it the instance: sizes, the pieces as a table `colour(t, k)` over the listed sides, the
/// rotation convention as the set `turn(a, s, k)`, and the options as 0/1 switches (with the
/// fixed corner's tile and rotation labels). GAMS then counts the same rows and columns as
/// [`build`], plus its objective row and free objective variable. Refuses what [`build`]
/// refuses ([`EdgeMilpError::NotSquare`]).
pub fn algebraic(p: &EdgePuzzle, opts: EdgeMilpOptions) -> Result<Algebraic, EdgeMilpError> {
    let fixed = fixed_corner(p, opts)?;
    let sides = ["bottom", "left", "top", "right"];
    let colour = Table {
        rows: p.pieces().iter().map(|pc| format!("t{}", pc.id)).collect(),
        cols: sides.iter().map(|k| k.to_string()).collect(),
        values: p
            .pieces()
            .iter()
            .map(|pc| pc.colours.iter().map(|&c| i64::from(c)).collect())
            .collect(),
        width: TABLE_WIDTH,
    };
    // The rotation convention, from the one function that defines it: placed side d of a
    // piece listed [0, 1, 2, 3] at rotation a shows listed side placed_colours(..)[d]. The
    // template never restates it, so GAMS and the LP model cannot disagree.
    let placed = ["up", "right", "down", "left"];
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
    let variant = match (opts.filter_feasible, opts.fix_first_corner) {
        (false, false) => "faithful (every tile in every cell with every rotation)".to_string(),
        (f, x) => [
            // The options as the command that writes the file names them: a model file's bytes
            // do not depend on the front end that asked for it.
            f.then_some("--filter (grey exactly on the rim)"),
            x.then_some("--fix-corner (first corner tile in the top-left cell)"),
        ]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" and "),
    };
    let int = |v: usize| v as i64;
    let mut model = Algebraic::new(Template::EdgeMilp)
        .scalar("nrow", int(p.rows()))
        .scalar("ncol", int(p.cols()))
        .scalar("ntiles", int(p.pieces().len()))
        // At least one colour, so that the set l is never empty (GAMS rejects 1*0).
        .scalar("ncolours", i64::from(p.max_colour().max(1)))
        .scalar("filter", i64::from(opts.filter_feasible))
        .scalar("fix", i64::from(fixed.is_some()))
        .text("variant", variant)
        .set("turn", turn)
        .table("colour", colour);
    if let Some((t, a)) = fixed {
        model = model
            .text("fix_tile", format!("t{t}"))
            .text("fix_rot", format!("a{}", a.turns()));
    }
    Ok(model)
}

/// Closed-form size of the faithful model (no options): (variables, rows) for an `R × C`
/// board whose pieces use `colours` distinct non-grey colours, each on at least one side of
/// some piece (then every (seam, colour) pair has rows, since every tile may sit anywhere).
pub fn faithful_size(rows: usize, cols: usize, colours: usize) -> (usize, usize) {
    let n = rows * cols;
    let seams = rows * (cols - 1) + (rows - 1) * cols;
    (
        4 * n * n + seams,
        2 * n + 2 * colours * seams + 2 * (rows + cols),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::edge::{generate, parse_brendan_solution, score};
    use crate::verify::milp::check_point;

    const B3: &str =
        "3 3\n0 0 1 1\n0 0 1 2\n0 0 2 1\n0 0 2 2\n0 1 3 2\n0 1 4 1\n0 2 3 1\n0 2 4 2\n3 3 4 4\n";
    const B3_SOL: &str = "3 3\n2 0 1\n0 0 2\n0 2 3\n2 2 0\n2 1 1\n0 1 3\n1 0 2\n1 2 0\n1 1 1\n";

    fn opts(filter: bool, fix: bool) -> EdgeMilpOptions {
        EdgeMilpOptions {
            filter_feasible: filter,
            fix_first_corner: fix,
        }
    }

    #[test]
    fn faithful_counts_follow_the_formula() {
        let p = EdgePuzzle::parse(B3, "b3").unwrap();
        let e = build(&p, EdgeMilpOptions::default()).unwrap();
        let m = &e.model;
        assert_eq!(e.colours, vec![1, 2, 3, 4]);
        assert_eq!((m.num_vars(), m.num_rows()), faithful_size(3, 3, 4));
        assert_eq!((m.num_vars(), m.num_rows()), (324 + 12, 18 + 96 + 12));
        // Nonzeros: (2) and (3) hold every x once; each seam row pair holds every placement
        // of both cells showing l on the seam side twice, plus h twice; the rim rows hold the
        // placements showing grey outward (corner cells count two rims).
        let greys: usize = p.pieces().iter().map(|pc| pc.greys()).sum();
        let x = 4 * 81;
        let seam_nnz = 12 * 2 * (2 * 4 * 9 - 2 * greys) + 12 * 2 * 4;
        let rim_nnz = 12 * greys;
        assert_eq!(m.num_nonzeros(), 2 * x + seam_nnz + rim_nnz);
        assert_eq!(m.num_nonzeros(), 2040);
        // Names follow the naming reference, which decoders rely on.
        assert_eq!(m.var_name(Var(0)), "x_t1_r0_c0_a0");
        assert_eq!(m.var_name(e.h[0]), "h_r0_c0");
        assert_eq!(m.var_name(e.v[5]), "v_r1_c2");
    }

    #[test]
    fn filtered_and_fixed_counts_are_the_clique_node_counts() {
        let p = EdgePuzzle::parse(B3, "b3").unwrap();
        let count = |f, x| build(&p, opts(f, x)).unwrap().placements.len();
        assert_eq!(count(true, true), 30);
        assert_eq!(count(true, false), 36);
        assert_eq!(count(false, true), 4 * 81 - 4 * 9 + 1 - 4 * 8);
        let e = build(&p, opts(true, true)).unwrap();
        assert_eq!(e.fixed, Some((1, Rotation::new(1).unwrap())));
        assert_eq!(e.placements[0].piece, 1);
        assert_eq!((e.placements[0].row, e.placements[0].col), (0, 0));
    }

    #[test]
    fn known_board_is_a_feasible_point_with_objective_zero() {
        let p = EdgePuzzle::parse(B3, "b3").unwrap();
        let b = parse_brendan_solution(B3_SOL, "s").unwrap();
        assert!(score(&p, &b).is_perfect());
        for o in [opts(false, false), opts(true, false)] {
            let e = build(&p, o).unwrap();
            let x = e.point_of(&p, &b);
            let v = check_point(&e.model, &x, Some(0.0));
            assert!(v.valid, "{:?}: {:?}", o, v.errors);
            assert_eq!(e.decode(&x).unwrap(), b);
        }
        // A board with a swapped pair of inner-adjacent pieces: still feasible, objective
        // = its unmatched seams.
        let (gp, gb) = generate(4, 4, 2, 3, 9).unwrap();
        let mut bad = gb.clone();
        bad.cells.swap(5, 6);
        let sc = score(&gp, &bad);
        let e = build(&gp, EdgeMilpOptions::default()).unwrap();
        let x = e.point_of(&gp, &bad);
        let v = check_point(&e.model, &x, Some(sc.unmatched() as f64));
        assert!(v.valid, "{:?}", v.errors);
        assert!(sc.unmatched() > 0);
    }

    #[test]
    fn a_point_hiding_a_mismatch_is_rejected_by_the_rows() {
        let (gp, gb) = generate(3, 3, 2, 2, 3).unwrap();
        let mut bad = gb.clone();
        // Turn the centre piece: its four seams no longer match (unless symmetric).
        let (id, rot) = bad.cells[4].unwrap();
        bad.cells[4] = Some((id, rot.then(Rotation::new(1).unwrap())));
        let e = build(&gp, EdgeMilpOptions::default()).unwrap();
        let mut x = e.point_of(&gp, &bad);
        let unmatched: f64 = e.h.iter().chain(&e.v).map(|v| x[v.index()]).sum();
        assert!(unmatched > 0.0);
        // Claim every seam matched: rows (4)–(7) must catch it.
        for v in e.h.iter().chain(&e.v) {
            x[v.index()] = 0.0;
        }
        let v = check_point(&e.model, &x, Some(0.0));
        assert!(!v.valid);
        assert!(
            v.errors.iter().any(|s| s.contains("hr_")
                || s.contains("hl_")
                || s.contains("vd_")
                || s.contains("vu_")),
            "{:?}",
            v.errors
        );
    }

    #[test]
    fn decode_errors() {
        let p = EdgePuzzle::parse(B3, "b3").unwrap();
        let e = build(&p, opts(true, true)).unwrap();
        let n = e.model.num_vars();
        assert_eq!(
            e.decode(&[0.0]).unwrap_err().to_string(),
            format!("1 values given for a model with {n} variables")
        );
        let mut x = vec![0.0; n];
        assert_eq!(
            e.decode(&x).unwrap_err().to_string(),
            "cell (0, 0) has no piece: no x variable of it is 1"
        );
        x[0] = 0.5;
        assert_eq!(
            e.decode(&x).unwrap_err().to_string(),
            "binary x_t1_r0_c0_a1 = 0.5 is not 0 or 1"
        );
        // Two placements at 1 in one cell (0.9999999 rounds to 1).
        x[0] = 1.0;
        let other = e
            .placements
            .iter()
            .position(|pl| (pl.row, pl.col) == (0, 2))
            .unwrap();
        let other2 = e
            .placements
            .iter()
            .rposition(|pl| (pl.row, pl.col) == (0, 2))
            .unwrap();
        assert_ne!(other, other2);
        x[other] = 0.9999999;
        x[other2] = 1.0;
        let err = e.decode(&x).unwrap_err().to_string();
        assert!(err.starts_with("cell (0, 2) has two pieces: x_t"), "{err}");
    }

    #[test]
    fn fix_corner_needs_a_square_board() {
        let (p, _) = generate(3, 4, 2, 2, 1).unwrap();
        assert_eq!(
            build(&p, opts(true, true)).unwrap_err().to_string(),
            "`fix_corner` needs a square board: on a 3×4 board the first corner piece cannot be assumed to sit in the top-left corner"
        );
        assert!(build(&p, opts(true, false)).is_ok());
        // The algebraic form refuses the same boards with the same words.
        assert_eq!(
            algebraic(&p, opts(false, true)).unwrap_err(),
            build(&p, opts(false, true)).unwrap_err()
        );
        assert!(algebraic(&p, opts(true, false)).is_ok());
    }

    #[test]
    fn algebraic_data_follows_the_options() {
        let p = EdgePuzzle::parse(B3, "b3").unwrap();
        let text = |m: &Algebraic, name: &str| {
            m.texts
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, t)| t.clone())
        };
        let plain = algebraic(&p, opts(false, false)).unwrap();
        assert_eq!(plain.template, Template::EdgeMilp);
        assert_eq!(text(&plain, "fix_tile"), None);
        let fixed = algebraic(&p, opts(true, true)).unwrap();
        let (t, a) = first_corner(&p).unwrap();
        assert_eq!(text(&fixed, "fix_tile"), Some(format!("t{t}")));
        assert_eq!(text(&fixed, "fix_rot"), Some(format!("a{}", a.turns())));
        assert_eq!(
            text(&fixed, "variant").unwrap(),
            "--filter (grey exactly on the rim) and --fix-corner (first corner tile in the top-left cell)"
        );
        // 4 rotations × 4 placed sides, each showing one listed side.
        assert_eq!(fixed.sets[0].1.len(), 16);
    }
}
