//! The `tight` MILP of the sliding puzzle: the `flow` model ([`super::sliding_flow`]: a
//! binary time-expanded multi-commodity flow after Yu & LaValle's network-flow ILPs for
//! multi-robot path planning) made to stay small and strong when the horizon T is generous,
//! as in the NEOS case study (T = 80 for an 11-move board).
//!
//! The flow model lets the blank rest at any step, so an L-move plan at horizon T has
//! C(T, L) copies that differ only in where the idle steps fall, and its distance pruning
//! (an item must be able to reach its goal in the steps left) prunes nothing in the middle of
//! a long horizon. Here every feasible point is a plan whose **moves come first**: step t
//! makes a move exactly when `s_t` = 1, and `s` never rises again once it has fallen. This
//! is the symmetry-breaking idea of time-indexed scheduling and planning models (no idle
//! time before the last job; Kautz & Selman's "no-op" handling in planning as
//! satisfiability): every plan of L moves, padded with rests at the end, is still a point
//! of the model, and the objective Σ s = L is unchanged, so no optimum is lost.
//!
//! Variables (t = 0..T; moves at steps 1..T), as in `flow`:
//! - `a_i{i}_c{c}_t{t}` binary: item i (0 = blank) is in cell c at t;
//! - `m_c{c}_d{d}_t{t}` binary: the blank moves from c to the adjacent d at step t;
//! - `f_i{i}_c{c}_d{d}_t{t}` binary: tile i slides from c to d at step t;
//! - new: `s_t{t}` binary, step t makes a move.
//!
//! Rows of `flow`, kept: `cell` (one item per cell), `item` (one cell per item), `cons`
//! (flow conservation per item and cell), `swap` (the tile the blank meets moves the other
//! way). Instead of `one` (at most one move per step), `act_t`: Σ m(·,·,t) = s_t. New rows,
//! each valid for every plan whose moves come first (so the optimum stays):
//! - `mono_t`: s_{t+1} ≤ s_t (moves before rests);
//! - `root`: Σ s ≥ B, where B is the caller's admissible lower bound on the optimum (an
//!   estimate that never exceeds the true distance: Manhattan distance, linear conflict, an
//!   additive pattern database) rounded up to the parity every plan has (each move changes
//!   the blank's cell parity, so a plan's length ≡ the blank's distance to its goal cell,
//!   mod 2). Every plan has at least B moves, and they come first, so s_t is **fixed** to 1
//!   for t ≤ B (bounds, not rows): the first B steps are moves. This is a valid
//!   inequality, not the answer: B is what the heuristic proves, and the solver must still
//!   find a plan and prove that none of length B, B + 2, … below it exists;
//! - `pair_t`: s_{B+2k+1} = s_{B+2k+2}: by that parity a plan's length is B, B + 2, …, so
//!   moves beyond B come in pairs; a last step with no partner is fixed to rest;
//! - `goal_i{i}_t{t}`: a(i, goal of i, t) + s_{t+1} ≥ 1: once the blank stops, every later
//!   step rests and the board at T is the goal, so the board is already the goal when the
//!   moves stop;
//! - `togo_t`: Σ_{u>t} s_u ≥ Σ over tiles of the Manhattan distance to the goal at t (each
//!   move shifts one tile by one cell: `flow`'s `cut_t`, written against the moves still to
//!   come); `bgo_t` the same for the blank alone (it moves at every move);
//! - `from_t`: Σ_{u≤t} s_u ≥ Σ over tiles of the Manhattan distance from the start at t (the
//!   same argument, backwards);
//! - `tgo_i{i}_t{t}` and `tfrom_i{i}_t{t}`, for t up to the bound: the same per tile with the
//!   two-body distances below (tile i at c needs at least the fewest moves that take it and
//!   the blank, wherever the blank may be at t, to their goal cells; and took at least as
//!   many from the start): one tile far from home late in the plan needs more moves than its
//!   Manhattan distance, since the blank has to walk round it.
//!
//! Fixings: variables are created only where an item can be, which is where the start and
//! the goal allow it at t whatever the plan:
//! - the blank within t of its start and T − t of its goal cell, and on the cell parity its
//!   moves so far force: at t ≤ B it has made exactly t moves, at t = B + 2k an even number
//!   more than B (the pairs);
//! - a tile i at cell c at t only where some blank cell b allows it in the puzzle of the
//!   blank and tile i alone (every other tile removed): the pair (c, b) is reached from the
//!   start pair in at most t moves and reaches the goal pair in at most T − t (breadth-first
//!   search over the n² pairs, per tile). Removing tiles only removes obstacles, so these
//!   distances never exceed the real ones: a plan's moves up to t take tile i and the blank
//!   from their start cells to (c, b), and its moves after t take them to their goal cells.
//!   The same test on both ends of a slide fixes `f`, and a blank cell no pair allows for
//!   some tile is left out too.
//!
//! Integrality: only the moves `m` and `s` need it. With the start fixed and at most one
//! move per step, integral moves force every `a` and `f`: at a rest every `swap` row has
//! m = 0, so no tile slides and each `cons` row copies the board; at a move c→d the only
//! slide that can be nonzero is d→c (every other `swap` row has m = 0), Σᵢ f(i, d→c) = 1,
//! and `cons` at d gives f(i, d→c) ≤ a(i, d, t − 1), which is 1 for the tile on d and 0 for
//! every other. So `a` and `f` past the bound are continuous columns in [0, 1], and the
//! model's integer points are unchanged.
//!
//! Objective: minimise Σ s (= Σ m, the blank's moves, as in the faithful model).

use super::sliding_flow::{FlowModel, FlowVars, dist, neighbours};
use crate::model::milp::{Model, ModelError, ObjSense, Sense, Var, VarKind};
use crate::puzzle::sliding::{Goal, SlidingPuzzle};
use std::collections::BTreeMap;

/// The bound the model fixes moves by: `lower_bound` rounded up to the parity every plan of
/// `puzzle` has (its length ≡ the blank's distance to its goal cell, mod 2).
pub fn parity_bound(puzzle: &SlidingPuzzle, goal: Goal, lower_bound: usize) -> usize {
    let parity = puzzle.blank_distance(goal) % 2;
    if lower_bound % 2 == parity {
        lower_bound
    } else {
        lower_bound + 1
    }
}

/// Build the tight model for `puzzle` → `goal` with at most `horizon` moves, given an
/// admissible `lower_bound` on the optimum (a bound above the optimum would cut the optimum
/// off: the caller owes its admissibility).
pub fn build(
    puzzle: &SlidingPuzzle,
    goal: Goal,
    horizon: usize,
    lower_bound: usize,
) -> Result<FlowModel, ModelError> {
    build_with_tail(puzzle, goal, horizon, lower_bound, VarKind::Continuous)
}

/// [`build`] with every column 0/1: the board and slide columns past the bound, which
/// [`build`] leaves continuous, are binary too. Integral moves force them to 0/1 anyway (see
/// the module doc), so the integer points and the optimum are the same; this is the model a
/// pseudo-Boolean format (OPB) can hold.
pub fn build_pure_binary(
    puzzle: &SlidingPuzzle,
    goal: Goal,
    horizon: usize,
    lower_bound: usize,
) -> Result<FlowModel, ModelError> {
    build_with_tail(puzzle, goal, horizon, lower_bound, VarKind::Binary)
}

fn build_with_tail(
    puzzle: &SlidingPuzzle,
    goal: Goal,
    horizon: usize,
    lower_bound: usize,
    tail: VarKind,
) -> Result<FlowModel, ModelError> {
    let (rows, cols) = (puzzle.rows(), puzzle.cols());
    let n = rows * cols;
    let t_max = horizon;
    let start = puzzle.positions();
    let target: Vec<usize> = (0..n).map(|i| goal.cell_of(i as u16, n)).collect();
    let bound = parity_bound(puzzle, goal, lower_bound);
    // Steps 1..=fixed are moves in every plan.
    let fixed = bound.min(t_max);
    let parity = |c: usize| (c / cols + c % cols) % 2;
    // The blank's cell parity at t, where the moves so far force it.
    let blank_parity = |t: usize| -> Option<usize> {
        if t <= fixed {
            Some((parity(start[0]) + t) % 2)
        } else if (t - bound).is_multiple_of(2) {
            Some((parity(start[0]) + bound) % 2)
        } else {
            None
        }
    };
    let blank_ok = |c: usize, t: usize| -> bool {
        dist(start[0], c, cols) <= t
            && dist(c, target[0], cols) <= t_max - t
            && blank_parity(t).is_none_or(|p| parity(c) == p)
    };
    // Per tile i: moves from its start pair to each pair (tile cell, blank cell), and from
    // each pair to its goal pair, in the puzzle of the blank and tile i alone.
    let early: Vec<Vec<usize>> = (0..n)
        .map(|i| pair_distances(rows, cols, start[i], start[0]))
        .collect();
    let late: Vec<Vec<usize>> = (0..n)
        .map(|i| pair_distances(rows, cols, target[i], target[0]))
        .collect();
    let pair_ok = |i: usize, c: usize, b: usize, t: usize| -> bool {
        early[i][c * n + b] <= t && late[i][c * n + b] <= t_max - t
    };
    let allowed = |i: usize, c: usize, t: usize| -> bool {
        if i == 0 {
            return blank_ok(c, t) && (1..n).all(|k| (0..n).any(|p| p != c && pair_ok(k, p, c, t)));
        }
        (0..n).any(|b| b != c && blank_ok(b, t) && pair_ok(i, c, b, t))
    };
    // Board and slide columns past the bound are continuous: integral moves force them to
    // 0/1 (see the module doc), and a long horizon's tail then adds no binaries for the
    // solver to probe. Up to the bound they stay binary, where probing them is what proves
    // the short lengths infeasible.
    let board_kind = |t: usize| {
        if t <= fixed { VarKind::Binary } else { tail }
    };
    let mut m = Model::new(&format!("sliding_tight_{rows}x{cols}_T{horizon}"));
    let mut a: BTreeMap<(usize, usize, usize), Var> = BTreeMap::new();
    for t in 0..=t_max {
        for i in 0..n {
            for c in 0..n {
                if allowed(i, c, t) {
                    a.insert(
                        (i, c, t),
                        m.add_var(&format!("a_i{i}_c{c}_t{t}"), board_kind(t), 0.0, 1.0)?,
                    );
                }
            }
        }
    }
    // s[t-1]: step t makes a move. Fixed to 1 up to the bound; a last step past the bound
    // with no partner to pair with is fixed to rest.
    let mut s = Vec::with_capacity(t_max);
    for t in 1..=t_max {
        let (lb, ub) = if t <= fixed {
            (1.0, 1.0)
        } else if (t - bound) % 2 == 1 && t == t_max {
            (0.0, 0.0)
        } else {
            (0.0, 1.0)
        };
        // A fixed step is an integer column with equal bounds: the writers give a binary
        // its [0, 1] and nothing else.
        let kind = if lb == ub {
            VarKind::Integer
        } else {
            VarKind::Binary
        };
        s.push(m.add_var(&format!("s_t{t}"), kind, lb, ub)?);
    }
    let mut moves = Vec::with_capacity(t_max);
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
                // Before: tile i at bd, the blank at bc; after: the other way round.
                if allowed(i, bd, t - 1)
                    && allowed(i, bc, t)
                    && pair_ok(i, bd, bc, t - 1)
                    && pair_ok(i, bc, bd, t)
                {
                    let v =
                        m.add_var(&format!("f_i{i}_c{bd}_d{bc}_t{t}"), board_kind(t), 0.0, 1.0)?;
                    f.insert((i, bd, bc, t), v);
                }
            }
        }
        moves.push(step);
    }

    // The rows `flow` has (but `one`).
    let flow_vars = FlowVars {
        a: &a,
        f: &f,
        mv: &mv,
    };
    flow_vars.assignment_rows(&mut m, n, t_max)?;
    for t in 1..=t_max {
        flow_vars.step_rows(&mut m, &moves, rows, cols, n, t)?;
        let mut act: Vec<(Var, f64)> = moves[t - 1].iter().map(|&(_, _, v)| (v, 1.0)).collect();
        act.push((s[t - 1], -1.0));
        m.add_row(&format!("act_t{t}"), &act, Sense::Eq, 0.0)?;
    }

    // Moves before rests, and past the bound in pairs.
    for t in fixed.max(1)..t_max {
        let (now, next) = (s[t - 1], s[t]);
        if t > bound && (t - bound) % 2 == 1 {
            m.add_row(
                &format!("pair_t{t}"),
                &[(now, 1.0), (next, -1.0)],
                Sense::Eq,
                0.0,
            )?;
        } else {
            m.add_row(
                &format!("mono_t{t}"),
                &[(next, 1.0), (now, -1.0)],
                Sense::Le,
                0.0,
            )?;
        }
    }
    let all: Vec<(Var, f64)> = s.iter().map(|&v| (v, 1.0)).collect();
    m.add_row("root", &all, Sense::Ge, bound as f64)?;

    // Once the moves stop, the board is the goal.
    // (s[t] is step t + 1: the first move after t.)
    for (t, &next) in s.iter().enumerate().skip(fixed) {
        for (i, &home) in target.iter().enumerate() {
            let mut terms = vec![(next, 1.0)];
            if let Some(&v) = a.get(&(i, home, t)) {
                terms.push((v, 1.0));
            }
            m.add_row(&format!("goal_i{i}_t{t}"), &terms, Sense::Ge, 1.0)?;
        }
    }

    // Distance cuts: moves to come ≥ distance to the goal; moves made ≥ distance from the start.
    let weighted =
        |t: usize, items: std::ops::Range<usize>, far: &dyn Fn(usize, usize) -> usize| {
            let mut terms = Vec::new();
            for i in items {
                for c in 0..n {
                    if let Some(&v) = a.get(&(i, c, t)) {
                        let d = far(i, c);
                        if d > 0 {
                            terms.push((v, -(d as f64)));
                        }
                    }
                }
            }
            terms
        };
    let to_goal = |i: usize, c: usize| dist(c, target[i], cols);
    let from_start = |i: usize, c: usize| dist(start[i], c, cols);
    for t in 0..t_max {
        let rest: Vec<(Var, f64)> = s[t..].iter().map(|&v| (v, 1.0)).collect();
        let mut terms = rest.clone();
        terms.extend(weighted(t, 1..n, &to_goal));
        m.add_row(&format!("togo_t{t}"), &terms, Sense::Ge, 0.0)?;
        let mut terms = rest;
        terms.extend(weighted(t, 0..1, &to_goal));
        m.add_row(&format!("bgo_t{t}"), &terms, Sense::Ge, 0.0)?;
    }
    for t in 1..=t_max {
        let mut terms: Vec<(Var, f64)> = s[..t].iter().map(|&v| (v, 1.0)).collect();
        terms.extend(weighted(t, 1..n, &from_start));
        m.add_row(&format!("from_t{t}"), &terms, Sense::Ge, 0.0)?;
    }

    // Per tile, the same with the two-body distances: a tile at c at t needs at least the
    // fewest moves that bring it and the blank (on any cell the blank may hold at t) to their
    // goal cells, and took at least as many from the start. Only up to the bound, where every
    // step is a move: past it (a generous horizon) these n rows per step would double the
    // model's non-zeros for rows that the Manhattan ones nearly match there.
    for t in 0..=fixed {
        for i in 1..n {
            let need = |far: &[usize], c: usize| -> usize {
                (0..n)
                    .filter(|&b| b != c && blank_ok(b, t))
                    .map(|b| far[c * n + b])
                    .min()
                    .unwrap_or(0)
            };
            let mut to_go = Vec::new();
            let mut done = Vec::new();
            for c in 0..n {
                if let Some(&v) = a.get(&(i, c, t)) {
                    let (g, e) = (need(&late[i], c), need(&early[i], c));
                    if g > 0 && g != usize::MAX {
                        to_go.push((v, -(g as f64)));
                    }
                    if e > 0 && e != usize::MAX {
                        done.push((v, -(e as f64)));
                    }
                }
            }
            if t < t_max && to_go.iter().any(|&(_, w)| w < -1.0) {
                to_go.extend(s[t..].iter().map(|&v| (v, 1.0)));
                m.add_row(&format!("tgo_i{i}_t{t}"), &to_go, Sense::Ge, 0.0)?;
            }
            if t > 0 && done.iter().any(|&(_, w)| w < -1.0) {
                done.extend(s[..t].iter().map(|&v| (v, 1.0)));
                m.add_row(&format!("tfrom_i{i}_t{t}"), &done, Sense::Ge, 0.0)?;
            }
        }
    }

    m.set_objective("moves", ObjSense::Minimize, &all)?;
    Ok(FlowModel {
        model: m,
        cols,
        horizon,
        moves,
    })
}

/// Fewest moves from the pair (tile at `tile`, blank at `blank`) to every pair `c·n + b`
/// (tile at c, blank at b ≠ c) on a board with no other tile: the blank steps to a free
/// neighbour, or swaps with the tile when it steps onto it. `usize::MAX` where unreachable
/// (pairs with both on one cell). Moves are reversible, so this is also the distance from
/// every pair to the given one.
fn pair_distances(rows: usize, cols: usize, tile: usize, blank: usize) -> Vec<usize> {
    let n = rows * cols;
    let mut d = vec![usize::MAX; n * n];
    let mut queue = std::collections::VecDeque::from([(tile, blank)]);
    d[tile * n + blank] = 0;
    while let Some((c, b)) = queue.pop_front() {
        let here = d[c * n + b];
        for nb in neighbours(b, rows, cols) {
            // Stepping onto the tile swaps them.
            let next = if nb == c { (b, nb) } else { (c, nb) };
            let k = next.0 * n + next.1;
            if d[k] == usize::MAX {
                d[k] = here + 1;
                queue.push_back(next);
            }
        }
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::milp::Sense;
    use crate::puzzle::sliding::Move;
    use crate::solve::milp_embedded::solve_microlp;
    use std::time::Duration;

    /// The values of every variable for a legal plan of at most `horizon` moves, the moves
    /// first and rests after; `None` when the plan needs a variable the model left out.
    fn encode(fm: &FlowModel, p: &SlidingPuzzle, plan: &[Move]) -> Option<Vec<f64>> {
        let mut x = vec![0.0; fm.model.num_vars()];
        let idx = fm.model.name_index();
        let mut set = |name: String| -> Option<()> {
            x[idx.get(name.as_str())?.index()] = 1.0;
            Some(())
        };
        let mut board = p.clone();
        for t in 0..=fm.horizon {
            if t >= 1 && t <= plan.len() {
                let from = board.blank_cell();
                let to = board.target(plan[t - 1])?;
                let tile = board.tile_at(to);
                board.apply(plan[t - 1]);
                set(format!("s_t{t}"))?;
                set(format!("m_c{from}_d{to}_t{t}"))?;
                set(format!("f_i{tile}_c{to}_d{from}_t{t}"))?;
            }
            for (i, c) in board.positions().into_iter().enumerate() {
                set(format!("a_i{i}_c{c}_t{t}"))?;
            }
        }
        Some(x)
    }

    fn worst_row(m: &Model, x: &[f64]) -> f64 {
        let mut worst: f64 = 0.0;
        for r in m.rows() {
            let (act, rhs) = (m.row_activity(r, x), m.row_rhs(r));
            worst = worst.max(match m.row_sense(r) {
                Sense::Le => act - rhs,
                Sense::Ge => rhs - act,
                Sense::Eq => (act - rhs).abs(),
            });
        }
        for v in m.vars() {
            let (lb, ub) = m.var_bounds(v);
            worst = worst.max(lb - x[v.index()]).max(x[v.index()] - ub);
        }
        worst
    }

    /// The shortest plan by breadth-first search (small boards only).
    fn bfs(p: &SlidingPuzzle, goal: Goal) -> Vec<Move> {
        use std::collections::{HashMap, VecDeque};
        let mut seen: HashMap<Vec<u16>, (Vec<u16>, Move)> = HashMap::new();
        let mut queue = VecDeque::from([p.clone()]);
        let start = p.tiles().to_vec();
        while let Some(b) = queue.pop_front() {
            if b.is_goal(goal) {
                let mut plan = Vec::new();
                let mut at = b.tiles().to_vec();
                while at != start {
                    let (prev, mv) = seen[&at].clone();
                    plan.push(mv);
                    at = prev;
                }
                plan.reverse();
                return plan;
            }
            for mv in [Move::Up, Move::Down, Move::Left, Move::Right] {
                let mut next = b.clone();
                if next.apply(mv) && next.tiles() != start.as_slice() {
                    let key = next.tiles().to_vec();
                    if let std::collections::hash_map::Entry::Vacant(e) = seen.entry(key) {
                        e.insert((b.tiles().to_vec(), mv));
                        queue.push_back(next);
                    }
                }
            }
        }
        panic!("unsolvable");
    }

    #[test]
    fn every_optimal_plan_padded_with_rests_is_a_point_of_the_model() {
        // The fixings and rows must keep each optimal plan, at its own horizon and with
        // slack, with the bound at the optimum itself (the strongest admissible bound).
        for seed in 0..12 {
            let (p, _) = SlidingPuzzle::random_walk(3, 3, Goal::BlankLast, 14, seed);
            let plan = bfs(&p, Goal::BlankLast);
            for slack in [0, 1, 2, 5] {
                let h = plan.len() + slack;
                for bound in [0, p.manhattan(Goal::BlankLast), plan.len()] {
                    let fm = build(&p, Goal::BlankLast, h, bound).unwrap();
                    let x = encode(&fm, &p, &plan)
                        .unwrap_or_else(|| panic!("seed {seed} +{slack}: a variable is missing"));
                    assert_eq!(
                        worst_row(&fm.model, &x),
                        0.0,
                        "seed {seed} +{slack} B {bound}"
                    );
                    assert_eq!(fm.model.objective_value(&x), plan.len() as f64);
                    assert_eq!(fm.decode(&x).unwrap(), plan);
                }
            }
        }
    }

    #[test]
    fn a_plan_with_a_rest_before_a_move_is_not() {
        // Moves come first: the same plan with one rest first breaks `mono` (or a fixing).
        let (p, walk) = SlidingPuzzle::random_walk(2, 3, Goal::BlankLast, 5, 2);
        let plan: Vec<Move> = walk.iter().rev().map(|m| m.inverse()).collect();
        let fm = build(&p, Goal::BlankLast, plan.len() + 2, 0).unwrap();
        let x = encode(&fm, &p, &plan).unwrap();
        assert_eq!(worst_row(&fm.model, &x), 0.0);
        // Shift every move one step later: s_1 = 0, s_{L+1} = 1.
        let idx = fm.model.name_index();
        let mut y = vec![0.0; x.len()];
        let mut board = p.clone();
        let set = |y: &mut Vec<f64>, name: String| {
            if let Some(v) = idx.get(name.as_str()) {
                y[v.index()] = 1.0;
                true
            } else {
                false
            }
        };
        for t in 0..=fm.horizon {
            if t >= 2 && t <= plan.len() + 1 {
                let mv = plan[t - 2];
                let (from, to) = (board.blank_cell(), board.target(mv).unwrap());
                let tile = board.tile_at(to);
                board.apply(mv);
                set(&mut y, format!("s_t{t}"));
                set(&mut y, format!("m_c{from}_d{to}_t{t}"));
                set(&mut y, format!("f_i{tile}_c{to}_d{from}_t{t}"));
            }
            for (i, c) in board.positions().into_iter().enumerate() {
                set(&mut y, format!("a_i{i}_c{c}_t{t}"));
            }
        }
        assert!(worst_row(&fm.model, &y) > 0.5);
    }

    #[test]
    fn microlp_finds_the_optimum_at_a_generous_horizon() {
        for seed in 0..4 {
            let (p, _) = SlidingPuzzle::random_walk(2, 3, Goal::BlankLast, 9, seed);
            let best = bfs(&p, Goal::BlankLast).len();
            let fm = build(&p, Goal::BlankLast, best + 7, p.manhattan(Goal::BlankLast)).unwrap();
            let sol = solve_microlp(&fm.model, Duration::from_secs(60)).unwrap();
            let x = sol.resolve(&fm.model).unwrap();
            let plan = fm.decode(&x).unwrap();
            assert_eq!(plan.len(), best, "seed {seed}");
            assert!(p.replay(&plan).unwrap().is_goal(Goal::BlankLast));
        }
    }

    #[test]
    fn pair_distances_count_the_walk_around_a_tile() {
        // 3×3, tile in the centre (4), blank left of it (3): moving the tile one cell right
        // (to 5) takes the blank around it (3 → 0 → 1 → 2 → 5) and a swap: 5 moves.
        let d = pair_distances(3, 3, 4, 3);
        assert_eq!(d[4 * 9 + 3], 0);
        assert_eq!(d[3 * 9 + 4], 1, "one swap moves the tile left");
        assert_eq!(d[5 * 9 + 4], 5);
        assert_eq!(d[4 * 9 + 4], usize::MAX);
    }

    #[test]
    fn the_bound_is_rounded_to_the_plans_parity() {
        let p = SlidingPuzzle::parse(
            "5 1 2 3\n9 6 7 4\n13 10 11 8\n14 15 0 12\n",
            "case",
            Goal::BlankLast,
        )
        .unwrap();
        // The blank is one cell from its goal: every plan has odd length.
        assert_eq!(parity_bound(&p, Goal::BlankLast, 10), 11);
        assert_eq!(parity_bound(&p, Goal::BlankLast, 11), 11);
        // A bound above the horizon leaves no plan.
        let fm = build(&p, Goal::BlankLast, 9, 11).unwrap();
        let sol = solve_microlp(&fm.model, Duration::from_secs(60)).unwrap();
        assert_eq!(sol.outcome, crate::solve::Outcome::Infeasible);
    }
}
