//! The NEOS Guide "15 Puzzle" case study's time-indexed integer model, generalised from
//! 4×4 to R×C (the constants 4 and 16 become the width `C` and the cell count `n`).
//!
//! Variables (names carry their indices, so a solution file decodes by name alone):
//! - `p_i{i}_t{t}` integer in [1, n]: cell (row-major, 1-based) of tile i at period t;
//! - `x_t{t}` integer in [1, R], `y_t{t}` integer in [1, C]: the blank's row and column;
//! - `u_t{t}`, `d_t{t}`, `l_t{t}`, `r_t{t}` binary: the blank moves up/down/left/right at step t;
//! - `z_i{i}_t{t}` binary: tile i moves at step t.
//!
//! Periods run t = 0..T, moves happen at t = 1..T. **Where the GAMS listing differs from the
//! mathematical statement:** the statement indexes time 1..T, while the listing's time set
//! starts at an extra period t = 0 holding the initial board. We follow the listing: period 0
//! is fixed to the start board and period T to the goal, so a horizon of T allows up to T moves
//! and the model has T+1 periods. Start and goal are variable fixings (lb = ub), as `.fx` in
//! the listing, not rows.
//!
//! Rows for every step t ≥ 1 (and tile i): `one` (at most one blank move), `xdyn`/`ydyn`
//! (blank coordinates follow u/d/l/r), `zsum` (one tile moves exactly when the blank does),
//! `stay1/2` (a tile with z = 0 keeps its cell), `to1/2` (a moved tile lands on the blank's
//! old cell), `from1/2` (it came from the blank's new cell); big-M = n. Objective: minimise
//! the number of blank moves Σ (u + d + l + r).
//!
//! The model text of the case study was not available to us verbatim; this reconstruction
//! follows its published variable set and description. It is "faithful" in that it adds
//! nothing: no cuts, no pruning (those live in other formulations).

use crate::model::algebraic::{Algebraic, Table, Template};
use crate::model::milp::{Model, ModelError, ObjSense, Sense, Var, VarKind};
use crate::puzzle::sliding::{Goal, Move, SlidingPuzzle};

/// Default horizon when none is given: the case study's 80 for 4×4 (the 15-puzzle's
/// diameter), and the known diameter for the other small boards (Korf's and others'
/// exhaustive searches; OEIS A087725 for n×n). `None` where no diameter is known: the user
/// must then give `horizon` (or use a native bound once available).
pub fn default_horizon(rows: usize, cols: usize) -> Option<usize> {
    let (a, b) = if rows <= cols {
        (rows, cols)
    } else {
        (cols, rows)
    };
    match (a, b) {
        (2, 2) => Some(6),
        (2, 3) => Some(21),
        (2, 4) => Some(36),
        (2, 5) => Some(55),
        (3, 3) => Some(31),
        (3, 4) => Some(53),
        (4, 4) => Some(80),
        _ => None,
    }
}

/// The built model with its variable map, for decoding.
#[derive(Debug, Clone)]
pub struct NeosModel {
    /// The MILP.
    pub model: Model,
    /// Board rows.
    pub rows: usize,
    /// Board columns.
    pub cols: usize,
    /// Number of periods minus one (moves happen at 1..=horizon).
    pub horizon: usize,
    /// `dir[t-1] = [u, d, l, r]` variables of step t.
    pub dir: Vec<[Var; 4]>,
}

/// Model size for given dimensions: (variables, rows). Used by tests and by the GAMS
/// comparison (GAMS adds one objective row and one objective variable).
pub fn size(rows: usize, cols: usize, horizon: usize) -> (usize, usize) {
    let n = rows * cols;
    let k = n - 1;
    let t = horizon;
    (k * (t + 1) + 2 * (t + 1) + 4 * t + k * t, t * (4 + 6 * k))
}

/// Build the faithful model for `puzzle` → `goal` with `horizon` steps.
pub fn build(puzzle: &SlidingPuzzle, goal: Goal, horizon: usize) -> Result<NeosModel, ModelError> {
    let (rr, cc) = (puzzle.rows(), puzzle.cols());
    let n = rr * cc;
    let k = n - 1;
    let nf = n as f64;
    let cf = cc as f64;
    let (nv, nr) = size(rr, cc, horizon);
    let mut m = Model::new(&format!("sliding_neos_{rr}x{cc}_T{horizon}"));
    m.reserve(nv, nr, horizon * (8 + k * 20));

    let start = puzzle.positions();
    let goal_cell = |tile: usize| goal.cell_of(tile as u16, n);
    // Cells are 1-based in the model, row-major: cell = C·(row−1) + col.
    let fixed_at = |t: usize, tile: usize| -> Option<f64> {
        if t == 0 {
            Some((start[tile] + 1) as f64)
        } else if t == horizon {
            Some((goal_cell(tile) + 1) as f64)
        } else {
            None
        }
    };

    let mut p = vec![Vec::with_capacity(horizon + 1); k + 1];
    let mut x = Vec::with_capacity(horizon + 1);
    let mut y = Vec::with_capacity(horizon + 1);
    for t in 0..=horizon {
        for (i, pi) in p.iter_mut().enumerate().skip(1) {
            let (lb, ub) = match fixed_at(t, i) {
                Some(v) => (v, v),
                None => (1.0, nf),
            };
            pi.push(m.add_var(&format!("p_i{i}_t{t}"), VarKind::Integer, lb, ub)?);
        }
        let (xb, yb) = match fixed_at(t, 0) {
            Some(c) => {
                let c = c as usize - 1;
                (
                    ((c / cc + 1) as f64, (c / cc + 1) as f64),
                    ((c % cc + 1) as f64, (c % cc + 1) as f64),
                )
            }
            None => ((1.0, rr as f64), (1.0, cf)),
        };
        x.push(m.add_var(&format!("x_t{t}"), VarKind::Integer, xb.0, xb.1)?);
        y.push(m.add_var(&format!("y_t{t}"), VarKind::Integer, yb.0, yb.1)?);
    }
    let mut dir = Vec::with_capacity(horizon);
    let mut z = vec![Vec::with_capacity(horizon); k + 1];
    for t in 1..=horizon {
        let mut d4 = [Var(0); 4];
        for (slot, name) in d4.iter_mut().zip(["u", "d", "l", "r"]) {
            *slot = m.add_var(&format!("{name}_t{t}"), VarKind::Binary, 0.0, 1.0)?;
        }
        dir.push(d4);
        for (i, zi) in z.iter_mut().enumerate().skip(1) {
            zi.push(m.add_var(&format!("z_i{i}_t{t}"), VarKind::Binary, 0.0, 1.0)?);
        }
    }

    for t in 1..=horizon {
        let [u, d, l, r] = dir[t - 1];
        m.add_row(
            &format!("one_t{t}"),
            &[(u, 1.0), (d, 1.0), (l, 1.0), (r, 1.0)],
            Sense::Le,
            1.0,
        )?;
        m.add_row(
            &format!("xdyn_t{t}"),
            &[(x[t], 1.0), (x[t - 1], -1.0), (u, 1.0), (d, -1.0)],
            Sense::Eq,
            0.0,
        )?;
        m.add_row(
            &format!("ydyn_t{t}"),
            &[(y[t], 1.0), (y[t - 1], -1.0), (l, 1.0), (r, -1.0)],
            Sense::Eq,
            0.0,
        )?;
        let mut zs: Vec<(Var, f64)> = (1..=k).map(|i| (z[i][t - 1], 1.0)).collect();
        zs.extend([(u, -1.0), (d, -1.0), (l, -1.0), (r, -1.0)]);
        m.add_row(&format!("zsum_t{t}"), &zs, Sense::Eq, 0.0)?;
        for i in 1..=k {
            let (pn, po, zi) = (p[i][t], p[i][t - 1], z[i][t - 1]);
            m.add_row(
                &format!("stay1_i{i}_t{t}"),
                &[(pn, 1.0), (po, -1.0), (zi, -nf)],
                Sense::Le,
                0.0,
            )?;
            m.add_row(
                &format!("stay2_i{i}_t{t}"),
                &[(pn, 1.0), (po, -1.0), (zi, nf)],
                Sense::Ge,
                0.0,
            )?;
            // p(i,t) − (C·(x(t−1)−1) + y(t−1)) within ±n·(1 − z): constants moved to the rhs.
            let to = [(pn, 1.0), (x[t - 1], -cf), (y[t - 1], -1.0)];
            m.add_row(
                &format!("to1_i{i}_t{t}"),
                &[to[0], to[1], to[2], (zi, nf)],
                Sense::Le,
                nf - cf,
            )?;
            m.add_row(
                &format!("to2_i{i}_t{t}"),
                &[to[0], to[1], to[2], (zi, -nf)],
                Sense::Ge,
                -nf - cf,
            )?;
            let from = [(po, 1.0), (x[t], -cf), (y[t], -1.0)];
            m.add_row(
                &format!("from1_i{i}_t{t}"),
                &[from[0], from[1], from[2], (zi, nf)],
                Sense::Le,
                nf - cf,
            )?;
            m.add_row(
                &format!("from2_i{i}_t{t}"),
                &[from[0], from[1], from[2], (zi, -nf)],
                Sense::Ge,
                -nf - cf,
            )?;
        }
    }
    let obj: Vec<(Var, f64)> = dir
        .iter()
        .flat_map(|d4| d4.iter().map(|&v| (v, 1.0)))
        .collect();
    m.set_objective("moves", ObjSense::Minimize, &obj)?;
    Ok(NeosModel {
        model: m,
        rows: rr,
        cols: cc,
        horizon,
        dir,
    })
}

/// Why the algebraic (GAMS) form of the model was not built.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum AlgebraicError {
    /// The horizon allows no move: periods 0 and T would be the same period.
    #[error("the horizon must be at least 1 step, not {0}")]
    Horizon(usize),
    /// The puzzle cannot reach the goal, so the model would only prove infeasibility.
    #[error(
        "this board cannot reach the {0} goal: its permutation parity differs from the blank's distance parity"
    )]
    Unsolvable(Goal),
}

/// Width of one column of the board tables: wide enough for the largest tile on a 64×64
/// board (4095), with room to spare so that a value never touches its neighbour.
const TABLE_WIDTH: usize = 6;

/// The same model stated algebraically ([`Template::SlidingNeos`]): the template holds the
/// equations over the sets of periods, tiles, rows and columns; this gives it the instance
/// (sizes, horizon, the start and goal boards as tables, the comment's board and goal
/// text). GAMS derives every tile's start and goal cell from the tables itself, so the data
/// stays as readable as the board file.
///
/// Unlike [`build`], which writes whatever it is asked, this refuses a zero horizon and an
/// unsolvable board: the algebraic file is meant to be run, and would only prove
/// infeasibility.
pub fn algebraic(
    puzzle: &SlidingPuzzle,
    goal: Goal,
    horizon: usize,
) -> Result<Algebraic, AlgebraicError> {
    if horizon == 0 {
        return Err(AlgebraicError::Horizon(horizon));
    }
    if !puzzle.is_solvable(goal) {
        return Err(AlgebraicError::Unsolvable(goal));
    }
    let (rows, cols, n) = (puzzle.rows(), puzzle.cols(), puzzle.cells());
    let goal_text = match goal {
        Goal::BlankLast => "tiles 1..n-1 row-major, blank in the last cell",
        Goal::BlankFirst => "blank in the first cell, then tiles 1..n-1 row-major",
    };
    // The header comment shows the board as its file does, without the size line.
    let start_lines = puzzle
        .to_text()
        .lines()
        .skip(1)
        .map(str::to_string)
        .collect();
    let int = |v: usize| v as i64;
    Ok(Algebraic::new(Template::SlidingNeos)
        .scalar("nrow", int(rows))
        .scalar("ncol", int(cols))
        .scalar("n", int(n))
        .scalar("tiles", int(n - 1))
        .scalar("horizon", int(horizon))
        .text("goal", goal.to_string())
        .text("goal_text", goal_text)
        .block("start_lines", start_lines)
        .table("board0", board_table(puzzle))
        .table(
            "boardT",
            board_table(&SlidingPuzzle::solved(rows, cols, goal)),
        ))
}

/// The board as a table `(row, col)` → tile (0 = blank), rows and columns labelled from 1.
fn board_table(p: &SlidingPuzzle) -> Table {
    let labels = |k: usize| (1..=k).map(|i| i.to_string()).collect();
    Table {
        rows: labels(p.rows()),
        cols: labels(p.cols()),
        values: (0..p.rows())
            .map(|r| {
                (0..p.cols())
                    .map(|c| i64::from(p.tile_at(r * p.cols() + c)))
                    .collect()
            })
            .collect(),
        width: TABLE_WIDTH,
    }
}

/// A solution that does not read as a move sequence.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DecodeError {
    /// More than one direction set at one step.
    #[error("step {step}: {count} direction variables are 1, at most one may be")]
    TwoDirections {
        /// The step (1-based).
        step: usize,
        /// How many were set.
        count: usize,
    },
    /// A value far from 0 or 1 in a binary.
    #[error("variable {name} has value {value}, which is not within 1e-5 of 0 or 1")]
    NotBinary {
        /// The variable.
        name: String,
        /// Its value.
        value: f64,
    },
}

impl NeosModel {
    /// Read the move sequence from the direction binaries u/d/l/r (steps with no move are
    /// skipped: the model lets the blank rest once the goal is reached).
    pub fn decode(&self, values: &[f64]) -> Result<Vec<Move>, DecodeError> {
        let mut moves = Vec::new();
        for (s, d4) in self.dir.iter().enumerate() {
            let mut set = Vec::new();
            for (&v, mv) in d4
                .iter()
                .zip([Move::Up, Move::Down, Move::Left, Move::Right])
            {
                let val = values[v.index()];
                if (val - 1.0).abs() <= 1e-5 {
                    set.push(mv);
                } else if val.abs() > 1e-5 {
                    return Err(DecodeError::NotBinary {
                        name: self.model.var_name(v).to_string(),
                        value: val,
                    });
                }
            }
            match set.len() {
                0 => {}
                1 => moves.push(set[0]),
                c => {
                    return Err(DecodeError::TwoDirections {
                        step: s + 1,
                        count: c,
                    });
                }
            }
        }
        Ok(moves)
    }

    /// The values of every variable for a given legal move sequence of at most `horizon`
    /// moves (the blank rests afterwards): a feasible point, used to test the model.
    pub fn encode_plan(&self, puzzle: &SlidingPuzzle, moves: &[Move]) -> Option<Vec<f64>> {
        if moves.len() > self.horizon {
            return None;
        }
        let mut vals = vec![0.0; self.model.num_vars()];
        let idx = self.model.name_index();
        let mut set = |name: String, v: f64| -> Option<()> {
            vals[idx.get(name.as_str())?.index()] = v;
            Some(())
        };
        let mut board = puzzle.clone();
        let k = board.cells() - 1;
        for t in 0..=self.horizon {
            if t >= 1 && t <= moves.len() {
                let m = moves[t - 1];
                let tile = board.tile_at(board.target(m)?);
                board.apply(m);
                let dn = match m {
                    Move::Up => "u",
                    Move::Down => "d",
                    Move::Left => "l",
                    Move::Right => "r",
                };
                set(format!("{dn}_t{t}"), 1.0)?;
                set(format!("z_i{tile}_t{t}"), 1.0)?;
            }
            let pos = board.positions();
            for (i, &c) in pos.iter().enumerate().take(k + 1).skip(1) {
                set(format!("p_i{i}_t{t}"), (c + 1) as f64)?;
            }
            set(format!("x_t{t}"), (pos[0] / self.cols + 1) as f64)?;
            set(format!("y_t{t}"), (pos[0] % self.cols + 1) as f64)?;
        }
        Some(vals)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case_study() -> SlidingPuzzle {
        SlidingPuzzle::parse(
            "5 1 2 3\n9 6 7 4\n13 10 11 8\n14 15 0 12\n",
            "case",
            Goal::BlankLast,
        )
        .unwrap()
    }

    fn max_violation(m: &Model, x: &[f64]) -> f64 {
        let mut worst: f64 = 0.0;
        for r in m.rows() {
            let a = m.row_activity(r, x);
            let b = m.row_rhs(r);
            let v = match m.row_sense(r) {
                Sense::Le => a - b,
                Sense::Ge => b - a,
                Sense::Eq => (a - b).abs(),
            };
            worst = worst.max(v);
        }
        for v in m.vars() {
            let (lb, ub) = m.var_bounds(v);
            worst = worst.max(lb - x[v.index()]).max(x[v.index()] - ub);
        }
        worst
    }

    #[test]
    fn counts_match_the_formula() {
        let p = case_study();
        let nm = build(&p, Goal::BlankLast, 80).unwrap();
        let (v, r) = size(4, 4, 80);
        assert_eq!((nm.model.num_vars(), nm.model.num_rows()), (v, r));
        assert_eq!(r, 80 * 94);
    }

    #[test]
    fn a_legal_plan_is_feasible_and_decodes_back() {
        // The walk's reverse solves the walked board; padded with rests up to the horizon.
        for (rows, cols) in [(2, 2), (2, 3), (3, 3), (4, 4), (3, 5)] {
            let (p, walk) = SlidingPuzzle::random_walk(rows, cols, Goal::BlankLast, 7, 3);
            let plan: Vec<Move> = walk.iter().rev().map(|m| m.inverse()).collect();
            let nm = build(&p, Goal::BlankLast, 9).unwrap();
            let x = nm.encode_plan(&p, &plan).unwrap();
            assert_eq!(max_violation(&nm.model, &x), 0.0, "{rows}x{cols}");
            assert_eq!(nm.model.objective_value(&x), plan.len() as f64);
            assert_eq!(nm.decode(&x).unwrap(), plan);
        }
    }

    #[test]
    fn a_wrong_plan_violates_a_row() {
        let p = case_study();
        let nm = build(&p, Goal::BlankLast, 12).unwrap();
        // Move the blank without moving the tile: set u but keep the board as it was.
        let mut x = nm.encode_plan(&p, &[]).unwrap();
        x[nm.dir[0][0].index()] = 1.0;
        assert!(max_violation(&nm.model, &x) > 0.5);
    }

    #[test]
    fn decode_rejects_fractional_and_double_moves() {
        let p = case_study();
        let nm = build(&p, Goal::BlankLast, 3).unwrap();
        let mut x = vec![0.0; nm.model.num_vars()];
        x[nm.dir[1][0].index()] = 0.5;
        assert!(matches!(nm.decode(&x), Err(DecodeError::NotBinary { .. })));
        x[nm.dir[1][0].index()] = 1.0;
        x[nm.dir[1][2].index()] = 1.0;
        assert_eq!(
            nm.decode(&x),
            Err(DecodeError::TwoDirections { step: 2, count: 2 })
        );
    }

    #[test]
    fn default_horizons() {
        assert_eq!(default_horizon(4, 4), Some(80));
        assert_eq!(default_horizon(4, 3), Some(53));
        assert_eq!(default_horizon(5, 5), None);
    }

    #[test]
    fn algebraic_refuses_what_it_cannot_run() {
        let p = SlidingPuzzle::new(2, 2, vec![1, 2, 0, 3]).unwrap();
        assert_eq!(
            algebraic(&p, Goal::BlankLast, 0),
            Err(AlgebraicError::Horizon(0))
        );
        let unsolvable = SlidingPuzzle::new(2, 2, vec![2, 1, 3, 0]).unwrap();
        assert_eq!(
            algebraic(&unsolvable, Goal::BlankLast, 3),
            Err(AlgebraicError::Unsolvable(Goal::BlankLast))
        );
        let m = algebraic(&p, Goal::BlankLast, 3).unwrap();
        assert_eq!(m.template, Template::SlidingNeos);
        // The goal table is the solved board, blank last.
        let goal = &m.tables.iter().find(|(n, _)| n == "boardT").unwrap().1;
        assert_eq!(goal.values, vec![vec![1, 2], vec![3, 0]]);
    }
}
