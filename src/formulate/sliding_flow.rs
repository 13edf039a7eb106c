//! A strengthened MILP of the sliding puzzle beside the faithful `neos` model: a binary
//! time-expanded multi-commodity flow (as in Yu & LaValle's network-flow ILPs for multi-robot
//! path planning), with every item (tiles and the blank) a commodity.
//!
//! Variables (t = 0..T; moves at steps 1..T):
//! - `a_i{i}_c{c}_t{t}` binary: item i (0 = blank) is in cell c (0-based, row-major) at t;
//! - `m_c{c}_d{d}_t{t}` binary: the blank moves from cell c to the adjacent cell d at step t;
//! - `f_i{i}_c{c}_d{d}_t{t}` binary: tile i slides from c to d at step t (so the blank went d→c).
//!
//! Rows: one item per cell (`cell`), one cell per item (`item`), flow conservation per item
//! and cell (`cons`), the swap coupling Σᵢ f(i,c→d,t) = m(d→c,t) (`swap`), at most one move
//! per step (`one`; idle steps let the blank rest once the goal is reached), and the valid cut
//! `cut_t`: moves still to come ≥ Manhattan distance of the board at t (each move shifts one
//! tile by one cell). Variables are created only where an item can be: its Manhattan distance
//! from its start cell is at most t and to its goal cell at most T − t.
//!
//! Objective: minimise Σ m (blank moves), as in the faithful model.

use crate::model::milp::{Model, ModelError, ObjSense, Sense, Var, VarKind};
use crate::puzzle::sliding::{Goal, Move, SlidingPuzzle};
use std::collections::BTreeMap;

/// The built model with its variable maps.
#[derive(Debug, Clone)]
pub struct FlowModel {
    /// The MILP.
    pub model: Model,
    /// Board columns.
    pub cols: usize,
    /// Horizon T.
    pub horizon: usize,
    /// Blank moves per step: `moves[t-1]` lists `(from, to, var)`.
    pub moves: Vec<Vec<(usize, usize, Var)>>,
}

pub(crate) fn dist(a: usize, b: usize, cols: usize) -> usize {
    (a / cols).abs_diff(b / cols) + (a % cols).abs_diff(b % cols)
}

pub(crate) fn neighbours(c: usize, rows: usize, cols: usize) -> impl Iterator<Item = usize> {
    let (r, k) = (c / cols, c % cols);
    let up = (r > 0).then(|| c - cols);
    let down = (r + 1 < rows).then(|| c + cols);
    let left = (k > 0).then(|| c - 1);
    let right = (k + 1 < cols).then(|| c + 1);
    [up, down, left, right].into_iter().flatten()
}

/// The variables `flow` and [`super::sliding_tight`] share, for the rows they share.
pub(crate) struct FlowVars<'v> {
    /// `a[(i, c, t)]`: item i (0 = the blank) in cell c at t.
    pub(crate) a: &'v BTreeMap<(usize, usize, usize), Var>,
    /// `f[(i, c, d, t)]`: tile i slides from c to d at step t.
    pub(crate) f: &'v BTreeMap<(usize, usize, usize, usize), Var>,
    /// `mv[(c, d, t)]`: the blank moves from c to d at step t.
    pub(crate) mv: &'v BTreeMap<(usize, usize, usize), Var>,
}

impl FlowVars<'_> {
    /// One item per cell (`cell`) and one cell per item (`item`) at every t.
    pub(crate) fn assignment_rows(
        &self,
        m: &mut Model,
        n: usize,
        t_max: usize,
    ) -> Result<(), ModelError> {
        let a = self.a;
        for t in 0..=t_max {
            for c in 0..n {
                let terms: Vec<(Var, f64)> = (0..n)
                    .filter_map(|i| a.get(&(i, c, t)).map(|&v| (v, 1.0)))
                    .collect();
                m.add_row(&format!("cell_c{c}_t{t}"), &terms, Sense::Eq, 1.0)?;
            }
            for i in 0..n {
                let terms: Vec<(Var, f64)> = (0..n)
                    .filter_map(|c| a.get(&(i, c, t)).map(|&v| (v, 1.0)))
                    .collect();
                m.add_row(&format!("item_i{i}_t{t}"), &terms, Sense::Eq, 1.0)?;
            }
        }
        Ok(())
    }

    /// Step t's flow conservation per item and cell (`cons`) and the swap coupling of each
    /// blank move with the tile it exchanges (`swap`); `moves[t - 1]` are step t's moves.
    pub(crate) fn step_rows(
        &self,
        m: &mut Model,
        moves: &[Vec<(usize, usize, Var)>],
        rows: usize,
        cols: usize,
        n: usize,
        t: usize,
    ) -> Result<(), ModelError> {
        let (a, f, mv) = (self.a, self.f, self.mv);
        for i in 0..n {
            for c in 0..n {
                let mut terms = Vec::new();
                if let Some(&v) = a.get(&(i, c, t)) {
                    terms.push((v, 1.0));
                }
                if let Some(&v) = a.get(&(i, c, t - 1)) {
                    terms.push((v, -1.0));
                }
                for d in neighbours(c, rows, cols) {
                    let (out, inn) = if i == 0 {
                        (mv.get(&(c, d, t)), mv.get(&(d, c, t)))
                    } else {
                        (f.get(&(i, c, d, t)), f.get(&(i, d, c, t)))
                    };
                    if let Some(&v) = out {
                        terms.push((v, 1.0));
                    }
                    if let Some(&v) = inn {
                        terms.push((v, -1.0));
                    }
                }
                if !terms.is_empty() {
                    m.add_row(&format!("cons_i{i}_c{c}_t{t}"), &terms, Sense::Eq, 0.0)?;
                }
            }
        }
        for &(bc, bd, v) in &moves[t - 1] {
            let mut terms: Vec<(Var, f64)> = (1..n)
                .filter_map(|i| f.get(&(i, bd, bc, t)).map(|&x| (x, 1.0)))
                .collect();
            terms.push((v, -1.0));
            m.add_row(&format!("swap_c{bd}_d{bc}_t{t}"), &terms, Sense::Eq, 0.0)?;
        }
        Ok(())
    }
}

/// Build the flow model for `puzzle` → `goal` with at most `horizon` moves.
pub fn build(puzzle: &SlidingPuzzle, goal: Goal, horizon: usize) -> Result<FlowModel, ModelError> {
    let (rows, cols) = (puzzle.rows(), puzzle.cols());
    let n = rows * cols;
    let t_max = horizon;
    let start = puzzle.positions();
    let target: Vec<usize> = (0..n).map(|i| goal.cell_of(i as u16, n)).collect();
    let allowed = |i: usize, c: usize, t: usize| {
        dist(start[i], c, cols) <= t && dist(c, target[i], cols) <= t_max - t
    };

    let mut m = Model::new(&format!("sliding_flow_{rows}x{cols}_T{horizon}"));
    // a[(i, c, t)]; BTreeMap keeps creation and lookup deterministic.
    let mut a: BTreeMap<(usize, usize, usize), Var> = BTreeMap::new();
    for t in 0..=t_max {
        for i in 0..n {
            for c in 0..n {
                if allowed(i, c, t) {
                    a.insert(
                        (i, c, t),
                        m.add_var(&format!("a_i{i}_c{c}_t{t}"), VarKind::Binary, 0.0, 1.0)?,
                    );
                }
            }
        }
    }
    let mut moves = Vec::with_capacity(t_max);
    // f[(i, c, d, t)] tile i slides c→d at step t.
    let mut f: BTreeMap<(usize, usize, usize, usize), Var> = BTreeMap::new();
    let mut mv: BTreeMap<(usize, usize, usize), Var> = BTreeMap::new();
    for t in 1..=t_max {
        let mut step = Vec::new();
        for c in 0..n {
            if !allowed(0, c, t - 1) {
                continue;
            }
            for d in neighbours(c, rows, cols) {
                if allowed(0, d, t) {
                    let v = m.add_var(&format!("m_c{c}_d{d}_t{t}"), VarKind::Binary, 0.0, 1.0)?;
                    mv.insert((c, d, t), v);
                    step.push((c, d, v));
                }
            }
        }
        for &(bc, bd, _) in &step {
            // The blank goes bc→bd, so a tile slides bd→bc.
            for i in 1..n {
                if allowed(i, bd, t - 1) && allowed(i, bc, t) {
                    let v = m.add_var(
                        &format!("f_i{i}_c{bd}_d{bc}_t{t}"),
                        VarKind::Binary,
                        0.0,
                        1.0,
                    )?;
                    f.insert((i, bd, bc, t), v);
                }
            }
        }
        moves.push(step);
    }

    let flow_vars = FlowVars {
        a: &a,
        f: &f,
        mv: &mv,
    };
    flow_vars.assignment_rows(&mut m, n, t_max)?;
    for t in 1..=t_max {
        flow_vars.step_rows(&mut m, &moves, rows, cols, n, t)?;
        let one: Vec<(Var, f64)> = moves[t - 1].iter().map(|&(_, _, v)| (v, 1.0)).collect();
        if !one.is_empty() {
            m.add_row(&format!("one_t{t}"), &one, Sense::Le, 1.0)?;
        }
    }
    // Valid cut: remaining moves ≥ Manhattan distance of the tiles at t.
    for t in 0..t_max {
        let mut terms: Vec<(Var, f64)> = moves[t..]
            .iter()
            .flatten()
            .map(|&(_, _, v)| (v, 1.0))
            .collect();
        for (i, &home) in target.iter().enumerate().skip(1) {
            for c in 0..n {
                if let Some(&v) = a.get(&(i, c, t)) {
                    let dd = dist(c, home, cols);
                    if dd > 0 {
                        terms.push((v, -(dd as f64)));
                    }
                }
            }
        }
        m.add_row(&format!("cut_t{t}"), &terms, Sense::Ge, 0.0)?;
    }
    let obj: Vec<(Var, f64)> = moves.iter().flatten().map(|&(_, _, v)| (v, 1.0)).collect();
    m.set_objective("moves", ObjSense::Minimize, &obj)?;
    Ok(FlowModel {
        model: m,
        cols,
        horizon,
        moves,
    })
}

/// A solution that does not read as a move sequence.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("step {step}: {count} blank moves are set, at most one may be")]
pub struct FlowDecodeError {
    /// The step (1-based).
    pub step: usize,
    /// How many move variables are 1.
    pub count: usize,
}

impl FlowModel {
    /// Read the blank's moves (values rounded to the nearest integer; the model-level check
    /// runs separately on the unrounded values).
    pub fn decode(&self, values: &[f64]) -> Result<Vec<Move>, FlowDecodeError> {
        let mut out = Vec::new();
        for (s, step) in self.moves.iter().enumerate() {
            let set: Vec<_> = step
                .iter()
                .filter(|(_, _, v)| values[v.index()] > 0.5)
                .collect();
            match set.as_slice() {
                [] => {}
                [(c, d, _)] => out.push(match *d as isize - *c as isize {
                    x if x == -(self.cols as isize) => Move::Up,
                    x if x == self.cols as isize => Move::Down,
                    -1 => Move::Left,
                    _ => Move::Right,
                }),
                many => {
                    return Err(FlowDecodeError {
                        step: s + 1,
                        count: many.len(),
                    });
                }
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::milp_embedded::solve_microlp;
    use std::time::Duration;

    #[test]
    fn microlp_solves_small_walks_optimally_or_better() {
        for seed in 0..4 {
            let (p, walk) = SlidingPuzzle::random_walk(2, 3, Goal::BlankLast, 6, seed);
            let fm = build(&p, Goal::BlankLast, walk.len()).unwrap();
            let s = solve_microlp(&fm.model, Duration::from_secs(30)).unwrap();
            assert!(s.outcome.has_solution(), "{:?}", s.outcome);
            let x = s.resolve(&fm.model).unwrap();
            let plan = fm.decode(&x).unwrap();
            assert!(plan.len() <= walk.len());
            assert!(p.replay(&plan).unwrap().is_goal(Goal::BlankLast));
            assert_eq!(s.objective.map(|o| o.round() as usize), Some(plan.len()));
        }
    }

    #[test]
    fn horizon_below_the_optimum_is_infeasible() {
        // The case study needs 11 moves; 9 cannot do.
        let p = SlidingPuzzle::parse(
            "5 1 2 3\n9 6 7 4\n13 10 11 8\n14 15 0 12\n",
            "c",
            Goal::BlankLast,
        )
        .unwrap();
        let fm = build(&p, Goal::BlankLast, 9).unwrap();
        let s = solve_microlp(&fm.model, Duration::from_secs(60)).unwrap();
        assert_eq!(s.outcome, crate::solve::Outcome::Infeasible);
    }
}
