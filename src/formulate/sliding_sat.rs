//! Sliding-tile puzzles as planning-as-SAT (Kautz & Selman style) for a fixed horizon T, and
//! the optimal driver that steps T = L, L+2, … until the formula is satisfiable.
//!
//! Semantics: **exactly T moves**, the blank moves at every step. Variables, named as they
//! appear in DIMACS comments:
//! - `a_i{i}_c{c}_t{t}`: tile `i` (tile 0 is the blank) is in cell `c` after `t` moves,
//!   `t = 0..=T`;
//! - `m_{U|D|L|R}_t{t}`: at step `t` (0-based, `t < T`) the blank moves that way;
//! - `eo_…_s{k}`: auxiliaries of the sequential-counter exactly-one constraints.
//!
//! Clauses, for every step:
//! - exactly one tile per cell and exactly one cell per tile (blank included);
//! - exactly one move;
//! - blank effect `a(0,c,t) ∧ m(dir,t) → a(0,c+dir,t+1)`, or `¬(a(0,c,t) ∧ m(dir,t))` when
//!   `c+dir` is off the board, and the converse link `a(0,c,t) ∧ a(0,c+dir,t+1) → m(dir,t)`;
//! - tile effect `a(i,c+dir,t) ∧ a(0,c,t) ∧ m(dir,t) → a(i,c,t+1)` (the tile the blank swaps
//!   with takes the blank's old cell);
//! - frame `a(i,e,t) ∧ ¬a(0,e,t+1) → a(i,e,t+1)` (a tile not at the blank's next cell stays);
//!
//! plus the start board at `t = 0` and the goal board at `t = T` as unit clauses.
//!
//! Three [`Encoding`]s of the same question, chosen explicitly (`encoding`):
//! - `plain`: the clauses above over every `a(i,c,t)`;
//! - `pruned` (the default of the SAT route): position variables no plan of exactly T moves can
//!   make true are left out (see [`build_with`]);
//! - `strong`: `pruned` plus a Manhattan-slack counter (see [`Encoding::Strong`]).
//!
//! **Why an UNSAT answer of a pruned or strong formula still means "no plan of exactly T
//! moves"** (this is what an optimality certificate relies on): take any plan of exactly T
//! moves and set every variable as the plan dictates. A pruned variable is false in it (a tile
//! moves at most one cell per move, so it cannot be farther than `t` from its start after `t`
//! moves nor farther than `T − t` from its goal with `T − t` moves left; the blank moves at
//! every step, so its checkerboard colour alternates), and the strong encoding's extra
//! clauses hold (each move changes the Manhattan sum by exactly ±1, so a plan of exactly T
//! moves makes exactly `(T − h₀)/2` increasing moves, `h₀` the start's Manhattan sum, and the
//! counter's auxiliaries can be set to the true running counts). So every plan is a model,
//! and UNSAT proves there is none. `satisfied_by_plan` in the tests checks this on real plans.

use crate::model::cnf::{BoolVar, Cnf, Lit};
use crate::puzzle::sliding::{Goal, Move, SlidingPuzzle};

/// A planning-as-SAT formula for one puzzle, goal and horizon, with its variable map.
#[derive(Debug, Clone)]
pub struct SlidingSat {
    cnf: Cnf,
    rows: usize,
    cols: usize,
    horizon: usize,
    /// `at[(t * n + i) * n + c]` is `a(i,c,t)`; `None` when pruned away (fixed false).
    at: Vec<Option<BoolVar>>,
    /// `moves[t][k]` is the move literal of `Move::ALL[k]` at step `t`.
    moves: Vec<[BoolVar; 4]>,
    /// Each object's cell at step 0 and at step T (tile 0 is the blank): the puzzle's start
    /// and goal, or the other way round for a [`Direction::Backward`] formula.
    start: Vec<usize>,
    target: Vec<usize>,
    direction: Direction,
}

/// Which way a formula runs: from the start to the goal, or from the goal back to the start.
/// A plan of exactly T moves one way, reversed and with each move inverted, is one the other
/// way, so both formulas are satisfiable or unsatisfiable together; a solver may find one
/// easier (the bound clauses and the counter are measured from different ends).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// Step 0 is the start, step T the goal.
    #[default]
    Forward,
    /// Step 0 is the goal, step T the start.
    Backward,
}

/// A model that does not encode a move sequence.
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
    /// No move literal is true at a step.
    #[error("step {step} has no true move literal")]
    NoMove {
        /// 0-based step.
        step: usize,
    },
    /// Several move literals are true at a step.
    #[error("step {step} has {count} true move literals, expected exactly one")]
    SeveralMoves {
        /// 0-based step.
        step: usize,
        /// How many are true.
        count: usize,
    },
}

/// Which clauses [`build_encoding`] writes; every choice has exactly the same plans (see the
/// module docs for why an UNSAT answer means the same thing for all three).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Encoding {
    /// Every position variable, no pruning.
    Plain,
    /// Unreachable position variables left out ([`build_with`] with `prune`).
    #[default]
    Pruned,
    /// `Pruned` plus a redundant cardinality constraint: a literal `inc_t{t}` implied by every
    /// tile move at step `t` that takes the tile one cell farther from its goal, and a
    /// sequential counter (Sinz 2005) saying at most `(T − h₀)/2` of them are true, `h₀` being
    /// the start's Manhattan sum. Each move changes the Manhattan sum by exactly ±1 and the
    /// goal's sum is 0, so every plan of exactly T moves has exactly that many increasing
    /// moves: the clauses cut no plan, but let the solver see early that a prefix has wasted
    /// too many moves.
    Strong,
    /// `Strong` plus lower-bound clauses from small pattern databases (see
    /// `SlidingSat::add_bound_clauses`): after `t` moves the board must be within `T − t`
    /// moves of the goal, and three admissible estimates of that distance are written as
    /// clauses: the exact distance of each tile together with the blank (binary clauses), of
    /// each pair of tiles sharing a goal row or column together with the blank (ternary
    /// clauses), and linear conflicts added to the Manhattan counter (one literal per line and
    /// step).
    Pdb,
}

impl Encoding {
    /// Parse an encoding's name.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "plain" => Some(Encoding::Plain),
            "pruned" => Some(Encoding::Pruned),
            "strong" => Some(Encoding::Strong),
            "pdb" => Some(Encoding::Pdb),
            _ => None,
        }
    }
    /// The CLI name.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Plain => "plain",
            Encoding::Pruned => "pruned",
            Encoding::Strong => "strong",
            Encoding::Pdb => "pdb",
        }
    }
}

/// The formula for exactly `horizon` moves in the chosen encoding.
pub fn build_encoding(
    puzzle: &SlidingPuzzle,
    goal: Goal,
    horizon: usize,
    encoding: Encoding,
) -> SlidingSat {
    build_directed(puzzle, goal, horizon, encoding, Direction::Forward)
}

/// [`build_encoding`] running the chosen way ([`Direction`]); [`SlidingSat::decode`] turns a
/// backward model into the forward plan.
pub fn build_directed(
    puzzle: &SlidingPuzzle,
    goal: Goal,
    horizon: usize,
    encoding: Encoding,
    direction: Direction,
) -> SlidingSat {
    let prune = encoding != Encoding::Plain;
    let mut enc = build_inner(puzzle, goal, horizon, prune, prune, true, direction);
    match encoding {
        Encoding::Plain | Encoding::Pruned => {}
        Encoding::Strong => {
            enc.add_manhattan_slack();
        }
        Encoding::Pdb => {
            let counter = enc.add_manhattan_slack();
            enc.add_bound_clauses(counter.as_ref(), BoundFamilies::ALL);
        }
    }
    enc
}

/// The largest board (in cells) that gets the pair-with-blank clauses of [`Encoding::Pdb`].
pub const MAX_PAIR_CELLS: usize = 25;

/// Which lower-bound clause families [`build_bounded`] adds on top of `Strong`
/// ([`Encoding::Pdb`] is all three); for measuring what each one pays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoundFamilies {
    /// Each tile with the blank (binary clauses).
    pub tile_blank: bool,
    /// Two tiles of a goal line with the blank (ternary clauses; boards of at most
    /// [`MAX_PAIR_CELLS`] cells).
    pub pair_blank: bool,
    /// Linear conflicts on the Manhattan counter.
    pub linear_conflicts: bool,
}

impl BoundFamilies {
    /// All three, as in [`Encoding::Pdb`].
    pub const ALL: BoundFamilies = BoundFamilies {
        tile_blank: true,
        pair_blank: true,
        linear_conflicts: true,
    };
}

/// The `Strong` formula plus the chosen lower-bound families (all three: [`Encoding::Pdb`]),
/// running `direction`.
pub fn build_bounded(
    puzzle: &SlidingPuzzle,
    goal: Goal,
    horizon: usize,
    families: BoundFamilies,
    direction: Direction,
) -> SlidingSat {
    let mut enc = build_inner(puzzle, goal, horizon, true, true, true, direction);
    let counter = enc.add_manhattan_slack();
    enc.add_bound_clauses(counter.as_ref(), families);
    enc
}

/// The planning-as-SAT formula for exactly `horizon` moves, without pruning.
pub fn build(puzzle: &SlidingPuzzle, goal: Goal, horizon: usize) -> SlidingSat {
    build_with(puzzle, goal, horizon, false)
}

/// The planning-as-SAT formula for exactly `horizon` moves. With `prune`, position variables
/// that no plan can make true are left out (fixed false): tile `i` cannot be in cell `c` at
/// time `t` if it is more than `t` steps from its start cell or more than `T − t` from its
/// goal cell (each move shifts one tile by one cell), and the blank is on cells of the
/// checkerboard colour given by the parity of `t` (each move flips its colour).
///
/// Size grows as cells² × horizon; an unsolvable board simply gives an unsatisfiable formula.
pub fn build_with(puzzle: &SlidingPuzzle, goal: Goal, horizon: usize, prune: bool) -> SlidingSat {
    build_inner(
        puzzle,
        goal,
        horizon,
        prune,
        prune,
        true,
        Direction::Forward,
    )
}

/// An open formula for incremental solving across horizons: moves for `max_horizon` steps
/// from the start, **no goal** (ask for it at step T with [`SlidingSat::goal_literals`] as
/// assumptions), pruned from the start side only (distance from the start cell, the blank's
/// colour), since the goal-side pruning depends on T. With the goal assumed at step T the
/// remaining steps are free, and a blank can always keep moving, so the formula is
/// satisfiable under those assumptions iff a plan of exactly T moves exists.
pub fn build_open(puzzle: &SlidingPuzzle, goal: Goal, max_horizon: usize) -> SlidingSat {
    build_inner(
        puzzle,
        goal,
        max_horizon,
        true,
        false,
        false,
        Direction::Forward,
    )
}

fn build_inner(
    puzzle: &SlidingPuzzle,
    goal: Goal,
    horizon: usize,
    prune_start: bool,
    prune_goal: bool,
    goal_units: bool,
    direction: Direction,
) -> SlidingSat {
    let (rows, cols, n) = (puzzle.rows(), puzzle.cols(), puzzle.cells());
    let big_t = horizon;
    let (mut start, mut target) = (puzzle.positions(), goal_cells(goal, n));
    if direction == Direction::Backward {
        std::mem::swap(&mut start, &mut target);
    }
    let dist = |a: usize, b: usize| cell_dist(cols, a, b);

    let mut cnf = Cnf::new();
    let mut at = Vec::with_capacity((big_t + 1) * n * n);
    let mut moves = Vec::with_capacity(big_t);
    for t in 0..=big_t {
        for i in 0..n {
            for c in 0..n {
                let possible = (!prune_start
                    || (dist(start[i], c) <= t && (i != 0 || dist(start[0], c) % 2 == t % 2)))
                    && (!prune_goal || dist(c, target[i]) <= big_t - t);
                at.push(possible.then(|| cnf.new_var(format!("a_i{i}_c{c}_t{t}"))));
            }
        }
        if t < big_t {
            moves.push(Move::ALL.map(|m| cnf.new_var(format!("m_{}_t{t}", m.letter()))));
        }
    }
    let mut enc = SlidingSat {
        cnf,
        rows,
        cols,
        horizon,
        at,
        moves,
        start,
        target,
        direction,
    };
    enc.add_clauses(goal_units);
    enc
}

/// Each tile's goal cell, indexed by tile (0 = blank).
fn goal_cells(goal: Goal, n: usize) -> Vec<usize> {
    (0..n).map(|i| goal.cell_of(i as u16, n)).collect()
}

/// Grid distance between two cells of a board `cols` wide.
fn cell_dist(cols: usize, a: usize, b: usize) -> usize {
    (a / cols).abs_diff(b / cols) + (a % cols).abs_diff(b % cols)
}

/// Add the clause "all of `when` imply one of `then`". `None` is a pruned (false) variable:
/// a false premise makes the clause vacuous, a false conclusion drops out.
fn implies(cnf: &mut Cnf, when: &[Option<Lit>], then: &[Option<Lit>], buf: &mut Vec<Lit>) {
    if when.iter().any(Option::is_none) {
        return;
    }
    buf.clear();
    buf.extend(when.iter().flatten().map(|&l| !l));
    buf.extend(then.iter().flatten().copied());
    cnf.add_clause(buf);
}

/// At most `k` of `xs` hold: the sequential counter of Sinz (2005), where `{prefix}_i{i}_j{j}`
/// means "at least j of `xs[..=i]` hold"; (n−1)·k auxiliaries, about 2nk clauses. Returns the
/// registers, `at_least[i][j − 1]` for `i < n − 1` (none when `k = 0` or `k ≥ n`): each is
/// implied by "at least j of `xs[..=i]` hold", so a clause "¬register ∨ …" may use it.
fn at_most_k(cnf: &mut Cnf, xs: &[Lit], k: usize, prefix: &str) -> Vec<Vec<Lit>> {
    let n = xs.len();
    if k >= n {
        return Vec::new();
    }
    if k == 0 {
        for &x in xs {
            cnf.add_clause(&[!x]);
        }
        return Vec::new();
    }
    // s[i][j-1]: at least j of xs[..=i] hold, for i < n − 1.
    let s: Vec<Vec<Lit>> = (0..n - 1)
        .map(|i| {
            (1..=k)
                .map(|j| cnf.new_var(format!("{prefix}_i{i}_j{j}")).positive())
                .collect()
        })
        .collect();
    cnf.add_clause(&[!xs[0], s[0][0]]);
    for &sj in &s[0][1..] {
        cnf.add_clause(&[!sj]);
    }
    for i in 1..n - 1 {
        cnf.add_clause(&[!xs[i], s[i][0]]);
        cnf.add_clause(&[!s[i - 1][0], s[i][0]]);
        for j in 1..k {
            cnf.add_clause(&[!xs[i], !s[i - 1][j - 1], s[i][j]]);
            cnf.add_clause(&[!s[i - 1][j], s[i][j]]);
        }
        cnf.add_clause(&[!xs[i], !s[i - 1][k - 1]]);
    }
    cnf.add_clause(&[!xs[n - 1], !s[n - 2][k - 1]]);
    s
}

/// The Manhattan counter of [`Encoding::Strong`]: at most `slack` of the T moves take a tile
/// away from its goal; `at_least[i][j − 1]` is implied by "at least j of moves `0..=i` do".
struct SlackCounter {
    slack: usize,
    at_least: Vec<Vec<Lit>>,
}

/// Exact distances to the goal in the abstraction that tracks only `homes.len()` objects on a
/// `rows × cols` board (object 0 is the blank, the others are tiles; every other tile is
/// indistinguishable): `dist[Σ_j pos_j · n^j]` is the fewest moves taking the object at
/// `pos_j` to `homes[j]` for every j, `u8::MAX` for overlapping or unreachable placements.
/// Every real move projects to a move (or, when it moves an untracked tile, to the same
/// blank move) of the abstraction, so this never exceeds the real distance of any board
/// whose tracked objects stand there: an admissible (pattern database) estimate.
fn abstract_distances(rows: usize, cols: usize, homes: &[usize]) -> Vec<u8> {
    let n = rows * cols;
    let k = homes.len();
    let size = n.pow(k as u32);
    let index = |pos: &[usize]| pos.iter().rev().fold(0, |acc, &p| acc * n + p);
    let mut dist = vec![u8::MAX; size];
    let mut queue = std::collections::VecDeque::new();
    dist[index(homes)] = 0;
    queue.push_back(homes.to_vec());
    while let Some(pos) = queue.pop_front() {
        let d = dist[index(&pos)];
        let b = pos[0];
        let (r, c) = (b / cols, b % cols);
        let mut next = [None; 4];
        if r > 0 {
            next[0] = Some(b - cols);
        }
        if r + 1 < rows {
            next[1] = Some(b + cols);
        }
        if c > 0 {
            next[2] = Some(b - 1);
        }
        if c + 1 < cols {
            next[3] = Some(b + 1);
        }
        for e in next.into_iter().flatten() {
            let mut q = pos.clone();
            q[0] = e;
            if let Some(j) = (1..k).find(|&j| pos[j] == e) {
                q[j] = b;
            }
            let qi = index(&q);
            if dist[qi] == u8::MAX {
                dist[qi] = d.saturating_add(1).min(u8::MAX - 1);
                queue.push_back(q);
            }
        }
    }
    dist
}

impl SlidingSat {
    fn add_clauses(&mut self, goal_units: bool) {
        let n = self.rows * self.cols;
        let big_t = self.horizon;
        let mut buf = Vec::new();
        let mut lits = Vec::new();
        for i in 0..n {
            let s = self.a(i, self.start[i], 0);
            implies(&mut self.cnf, &[], &[s], &mut buf);
            if goal_units {
                let g = self.a(i, self.target[i], big_t);
                implies(&mut self.cnf, &[], &[g], &mut buf);
            }
        }
        for t in 0..=big_t {
            for c in 0..n {
                lits.clear();
                lits.extend((0..n).filter_map(|i| self.a(i, c, t)));
                self.cnf.exactly_one(&lits, &format!("eo_c{c}_t{t}"));
            }
            for i in 0..n {
                lits.clear();
                lits.extend((0..n).filter_map(|c| self.a(i, c, t)));
                self.cnf.exactly_one(&lits, &format!("eo_i{i}_t{t}"));
            }
        }
        for t in 0..big_t {
            let ms = self.moves[t].map(BoolVar::positive);
            self.cnf.exactly_one(&ms, &format!("eo_m_t{t}"));
            for c in 0..n {
                let b_now = self.a(0, c, t);
                for (k, &mv) in Move::ALL.iter().enumerate() {
                    let m = Some(ms[k]);
                    let Some(d) = self.neighbour(c, mv) else {
                        implies(&mut self.cnf, &[b_now, m], &[], &mut buf);
                        continue;
                    };
                    let b_next = self.a(0, d, t + 1);
                    implies(&mut self.cnf, &[b_now, m], &[b_next], &mut buf);
                    implies(&mut self.cnf, &[b_now, b_next], &[m], &mut buf);
                    for i in 1..n {
                        let (from, to) = (self.a(i, d, t), self.a(i, c, t + 1));
                        implies(&mut self.cnf, &[from, b_now, m], &[to], &mut buf);
                    }
                }
            }
            for e in 0..n {
                let blank_next = self.a(0, e, t + 1);
                for i in 1..n {
                    let (now, next) = (self.a(i, e, t), self.a(i, e, t + 1));
                    implies(&mut self.cnf, &[now], &[blank_next, next], &mut buf);
                }
            }
        }
    }

    /// The clauses of [`Encoding::Strong`] (see there and the module docs for soundness);
    /// `None` when T is below the start's Manhattan sum (no counter is needed then).
    fn add_manhattan_slack(&mut self) -> Option<SlackCounter> {
        let (n, cols, big_t) = (self.rows * self.cols, self.cols, self.horizon);
        let target = self.target.clone();
        let dist = |a: usize, b: usize| cell_dist(cols, a, b);
        let h0: usize = (1..n).map(|i| dist(self.start[i], target[i])).sum();
        if big_t < h0 {
            // No plan at all; the goal units already make this unsatisfiable.
            return None;
        }
        let slack = (big_t - h0) / 2;
        let mut buf = Vec::new();
        let mut inc = Vec::with_capacity(big_t);
        for t in 0..big_t {
            let b = self.cnf.new_var(format!("inc_t{t}")).positive();
            // A tile at `d` after t moves and at a neighbour `c` after t+1 moved d → c.
            for d in 0..n {
                for mv in Move::ALL {
                    let Some(c) = self.neighbour(d, mv) else {
                        continue;
                    };
                    for (i, &home) in target.iter().enumerate().skip(1) {
                        if dist(c, home) > dist(d, home) {
                            let (from, to) = (self.a(i, d, t), self.a(i, c, t + 1));
                            implies(&mut self.cnf, &[from, to], &[Some(b)], &mut buf);
                        }
                    }
                }
            }
            inc.push(b);
        }
        let at_least = at_most_k(&mut self.cnf, &inc, slack, "slack");
        Some(SlackCounter { slack, at_least })
    }

    /// The clauses of [`Encoding::Pdb`]. Sound because on a plan of exactly T moves the board
    /// after `t` moves reaches the goal in the remaining `T − t` moves, so every admissible
    /// estimate of its distance is at most `T − t`; each family below forbids a partial board
    /// whose estimate exceeds that:
    /// - `¬a(i,c,t) ∨ ¬a(0,b,t)` when tile `i` at `c` with the blank at `b` is more than
    ///   `T − t` moves from home in the abstraction tracking only the two
    ///   ([`abstract_distances`]);
    /// - `¬a(i,c,t) ∨ ¬a(j,d,t) ∨ ¬a(0,b,t)` likewise for two tiles whose goal cells share a
    ///   row or column (where linear conflicts live), written only where neither tile alone
    ///   already forbids it;
    /// - linear conflicts on top of the Manhattan counter: `lc_l{l}_t{t}` is implied by two
    ///   tiles of line `l` (goal row or column) standing in it in reversed order; each line in
    ///   conflict costs at least two moves beyond Manhattan, rows and columns adding up
    ///   (Hansson, Mayer & Yung 1992), and since the Manhattan sum after `t` moves is
    ///   `h₀ + 2·inc − t` (`inc` the increasing moves so far), `h_LC ≤ T − t` reads
    ///   `inc + #conflicting lines ≤ slack`: for every set of m ≤ 3 lines, "all m in conflict
    ///   and at least `slack − m + 1` increasing moves before step t" is forbidden.
    ///
    /// A plan's assignment sets each `lc` literal true exactly when its line is in conflict,
    /// and then satisfies every clause here.
    fn add_bound_clauses(&mut self, counter: Option<&SlackCounter>, families: BoundFamilies) {
        let (rows, cols, big_t) = (self.rows, self.cols, self.horizon);
        let n = rows * cols;
        let target = self.target.clone();
        let mut buf = Vec::new();
        // Tile with the blank.
        let single: Vec<Vec<u8>> = (0..n)
            .map(|i| {
                if i == 0 {
                    Vec::new()
                } else {
                    abstract_distances(rows, cols, &[target[0], target[i]])
                }
            })
            .collect();
        for t in (0..big_t).filter(|_| families.tile_blank) {
            let left = big_t - t;
            for (i, d1) in single.iter().enumerate().skip(1) {
                for c in 0..n {
                    for b in 0..n {
                        if b != c && usize::from(d1[c * n + b]) > left {
                            let when = [self.a(i, c, t), self.a(0, b, t)];
                            implies(&mut self.cnf, &when, &[], &mut buf);
                        }
                    }
                }
            }
        }
        // Two tiles of one goal line with the blank. Each table has n³ entries and every
        // step scans it, so boards past 5 × 5 leave this family out (still sound: fewer
        // clauses), where it would cost more than the rest of the formula.
        let same_line = |x: usize, y: usize| x / cols == y / cols || x % cols == y % cols;
        for i in (1..n).filter(|_| families.pair_blank && n <= MAX_PAIR_CELLS) {
            for j in i + 1..n {
                if !same_line(target[i], target[j]) {
                    continue;
                }
                let d2 = abstract_distances(rows, cols, &[target[0], target[i], target[j]]);
                for t in 0..big_t {
                    let left = big_t - t;
                    for c in 0..n {
                        let Some(ai) = self.a(i, c, t) else { continue };
                        for d in 0..n {
                            if d == c {
                                continue;
                            }
                            let Some(aj) = self.a(j, d, t) else { continue };
                            for b in 0..n {
                                if b == c || b == d {
                                    continue;
                                }
                                let est = usize::from(d2[(d * n + c) * n + b]);
                                // Already forbidden by a tile-with-blank clause?
                                let implied = families.tile_blank
                                    && (usize::from(single[i][c * n + b]) > left
                                        || usize::from(single[j][d * n + b]) > left);
                                if est <= left || implied {
                                    continue;
                                }
                                let Some(a0) = self.a(0, b, t) else { continue };
                                self.cnf.add_clause(&[!ai, !aj, !a0]);
                            }
                        }
                    }
                }
            }
        }
        // Linear conflicts on the Manhattan counter.
        let Some(counter) = counter.filter(|_| families.linear_conflicts) else {
            return;
        };
        // Lines as lists of cells in order: rows, then columns.
        let lines: Vec<Vec<usize>> = (0..rows)
            .map(|r| (0..cols).map(|k| r * cols + k).collect())
            .chain((0..cols).map(|k| (0..rows).map(|r| r * cols + k).collect()))
            .collect();
        for t in 0..big_t {
            let mut conflicts = Vec::new();
            for (l, line) in lines.iter().enumerate() {
                let mut lit = None;
                // Tiles of this line, in goal order along it.
                let tiles: Vec<usize> = line
                    .iter()
                    .filter_map(|&g| (1..n).find(|&i| target[i] == g))
                    .collect();
                for (x, &i) in tiles.iter().enumerate() {
                    for &j in &tiles[x + 1..] {
                        // i belongs before j; reversed when i stands after j in the line.
                        for (q, &cj) in line.iter().enumerate() {
                            for &ci in &line[q + 1..] {
                                let (Some(ai), Some(aj)) = (self.a(i, ci, t), self.a(j, cj, t))
                                else {
                                    continue;
                                };
                                let v = *lit.get_or_insert_with(|| {
                                    self.cnf.new_var(format!("lc_l{l}_t{t}")).positive()
                                });
                                self.cnf.add_clause(&[!ai, !aj, v]);
                            }
                        }
                    }
                }
                conflicts.extend(lit);
            }
            // Sets of up to three conflicting lines against the increasing moves so far.
            let slack = counter.slack;
            let register = |m: usize| -> Option<Option<Lit>> {
                if m > slack {
                    Some(None) // the lines alone exceed the slack
                } else if t >= 1 && slack - m < t {
                    // "at least slack − m + 1 of moves 0..t" (index t − 1).
                    counter.at_least.get(t - 1).map(|r| Some(r[slack - m]))
                } else {
                    None // cannot happen before step t
                }
            };
            let k = conflicts.len();
            for x in 0..k {
                if let Some(r) = register(1) {
                    self.add_forbidden(&[conflicts[x]], r);
                }
                for y in x + 1..k {
                    if let Some(r) = register(2) {
                        self.add_forbidden(&[conflicts[x], conflicts[y]], r);
                    }
                    for z in y + 1..k {
                        if let Some(r) = register(3) {
                            self.add_forbidden(&[conflicts[x], conflicts[y], conflicts[z]], r);
                        }
                    }
                }
            }
        }
    }

    /// The clause "not all of `lits`, and not `register`".
    fn add_forbidden(&mut self, lits: &[Lit], register: Option<Lit>) {
        let clause: Vec<Lit> = lits.iter().chain(register.as_ref()).map(|&l| !l).collect();
        self.cnf.add_clause(&clause);
    }

    fn neighbour(&self, c: usize, m: Move) -> Option<usize> {
        let (dr, dc) = m.delta();
        let r = (c / self.cols).checked_add_signed(dr as isize)?;
        let k = (c % self.cols).checked_add_signed(dc as isize)?;
        (r < self.rows && k < self.cols).then_some(r * self.cols + k)
    }

    fn a(&self, tile: usize, cell: usize, t: usize) -> Option<Lit> {
        self.at_var(tile, cell, t).map(BoolVar::positive)
    }

    /// The literals "the board is the goal after `t` moves", for assumptions on a
    /// [`build_open`] formula; `None` when one of them was pruned away (no plan of exactly
    /// `t` moves) or `t` is past the horizon.
    pub fn goal_literals(&self, goal: Goal, t: usize) -> Option<Vec<Lit>> {
        let n = self.rows * self.cols;
        (0..n)
            .map(|i| self.a(i, goal.cell_of(i as u16, n), t))
            .collect()
    }

    /// The formula.
    pub fn cnf(&self) -> &Cnf {
        &self.cnf
    }
    /// The formula, taking ownership.
    pub fn into_cnf(self) -> Cnf {
        self.cnf
    }
    /// The number of moves T the formula asks for.
    pub fn horizon(&self) -> usize {
        self.horizon
    }
    /// The variable "tile `tile` (0 = blank) is in `cell` after `t` moves", or `None` when it
    /// was pruned away (it is false in every plan) or the indices are out of range.
    pub fn at_var(&self, tile: usize, cell: usize, t: usize) -> Option<BoolVar> {
        let n = self.rows * self.cols;
        if tile >= n || cell >= n || t > self.horizon {
            return None;
        }
        self.at[(t * n + tile) * n + cell]
    }
    /// The variable "at step `t` (0-based) the blank moves `m`", or `None` for `t ≥ T`.
    pub fn move_var(&self, t: usize, m: Move) -> Option<BoolVar> {
        let k = Move::ALL.iter().position(|&x| x == m)?;
        self.moves.get(t).map(|ms| ms[k])
    }

    /// The plan from the puzzle's start to its goal that a model encodes, read from the move
    /// literals alone (no replay: checking that they reach the goal is the caller's
    /// independent step). A [`Direction::Backward`] model's moves run from the goal to the
    /// start, so they are reversed and each inverted.
    pub fn decode(&self, model: &[bool]) -> Result<Vec<Move>, DecodeError> {
        if model.len() < self.cnf.num_vars() {
            return Err(DecodeError::ModelTooShort {
                got: model.len(),
                want: self.cnf.num_vars(),
            });
        }
        let mut plan = Vec::with_capacity(self.horizon);
        for (step, ms) in self.moves.iter().enumerate() {
            let mut chosen = Move::ALL
                .iter()
                .zip(ms)
                .filter(|(_, v)| model[v.index()])
                .map(|(&m, _)| m);
            match (chosen.next(), chosen.count()) {
                (None, _) => return Err(DecodeError::NoMove { step }),
                (Some(m), 0) => plan.push(m),
                (Some(_), more) => {
                    return Err(DecodeError::SeveralMoves {
                        step,
                        count: more + 1,
                    });
                }
            }
        }
        if self.direction == Direction::Backward {
            plan = plan.iter().rev().map(|m| m.inverse()).collect();
        }
        Ok(plan)
    }

    /// Which way the formula runs.
    pub fn direction(&self) -> Direction {
        self.direction
    }
}

/// The first horizon worth trying: the larger of the tiles' Manhattan distance and the
/// blank's distance to its goal cell, raised by one if needed to the parity of the blank's
/// distance (every solution has that parity).
pub fn lower_bound(puzzle: &SlidingPuzzle, goal: Goal) -> usize {
    let blank = puzzle.blank_distance(goal);
    let l = puzzle.manhattan(goal).max(blank);
    l + (l % 2 != blank % 2) as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::answer::SatOutcome;
    use crate::search::sat_horizon::{SatPlanError, StepResult, solve_optimal};
    use crate::solve::sat_embedded::solve_varisat;
    use std::collections::{HashSet, VecDeque};
    use std::convert::Infallible;

    fn varisat(cnf: &Cnf) -> Result<SatOutcome, Infallible> {
        Ok(solve_varisat(cnf))
    }

    /// Optimal length by breadth-first search (small boards only), independent of SAT.
    fn bfs_optimum(p: &SlidingPuzzle, goal: Goal) -> usize {
        let mut seen = HashSet::from([p.tiles().to_vec()]);
        let mut queue = VecDeque::from([(p.clone(), 0)]);
        while let Some((q, d)) = queue.pop_front() {
            if q.is_goal(goal) {
                return d;
            }
            for m in Move::ALL {
                let mut r = q.clone();
                if r.apply(m) && seen.insert(r.tiles().to_vec()) {
                    queue.push_back((r, d + 1));
                }
            }
        }
        panic!("goal unreachable in the test instance");
    }

    fn solve_at(p: &SlidingPuzzle, goal: Goal, t: usize, prune: bool) -> Option<Vec<Move>> {
        let enc = build_with(p, goal, t, prune);
        match solve_varisat(enc.cnf()) {
            SatOutcome::Sat(model) => Some(enc.decode(&model).expect("decodes")),
            SatOutcome::Unsat => None,
            SatOutcome::Unknown => panic!("varisat gave no answer at T={t}"),
        }
    }

    #[test]
    fn random_walks_are_sat_at_walk_length_and_unsat_at_wrong_parity() {
        for (rows, cols, len) in [(2, 2, 5), (2, 3, 9), (3, 3, 10)] {
            for seed in 0..3 {
                for goal in [Goal::BlankLast, Goal::BlankFirst] {
                    let (p, _) = SlidingPuzzle::random_walk(rows, cols, goal, len, seed);
                    for prune in [false, true] {
                        let plan = solve_at(&p, goal, len, prune)
                            .unwrap_or_else(|| panic!("{rows}x{cols} seed {seed}: UNSAT"));
                        assert_eq!(plan.len(), len);
                        assert!(p.replay(&plan).unwrap().is_goal(goal));
                        assert_eq!(solve_at(&p, goal, len + 1, prune), None);
                    }
                }
            }
        }
    }

    #[test]
    fn optimum_is_sat_and_two_less_is_unsat() {
        for (rows, cols, len) in [(2, 3, 12), (3, 3, 14)] {
            for seed in 10..13 {
                let goal = Goal::BlankLast;
                let (p, _) = SlidingPuzzle::random_walk(rows, cols, goal, len, seed);
                let opt = bfs_optimum(&p, goal);
                for prune in [false, true] {
                    let plan = solve_at(&p, goal, opt, prune).expect("SAT at the optimum");
                    assert!(p.replay(&plan).unwrap().is_goal(goal));
                    if opt >= 2 {
                        assert_eq!(solve_at(&p, goal, opt - 2, prune), None, "seed {seed}");
                    }
                }
            }
        }
    }

    #[test]
    fn driver_finds_bfs_optimum_on_small_boards() {
        for (rows, cols, len, seed) in [(2, 2, 7, 1), (2, 3, 15, 2), (3, 3, 16, 3), (3, 3, 20, 4)] {
            let goal = Goal::BlankFirst;
            let (p, _) = SlidingPuzzle::random_walk(rows, cols, goal, len, seed);
            let opt = bfs_optimum(&p, goal);
            for prune in [false, true] {
                let mut seen = Vec::new();
                let plan = solve_optimal(&p, goal, 40, prune, varisat, |k, s| {
                    seen.push((k, s.horizon))
                })
                .unwrap();
                assert_eq!(plan.horizon, Some(opt));
                assert!(plan.optimal);
                assert_eq!(plan.lower_bound, opt);
                let moves = plan.moves.unwrap();
                assert_eq!(moves.len(), opt);
                assert!(p.replay(&moves).unwrap().is_goal(goal));
                assert_eq!(seen.len(), plan.steps.len());
                assert!(
                    plan.steps[..plan.steps.len() - 1]
                        .iter()
                        .all(|s| s.result == StepResult::Unsat)
                );
            }
        }
    }

    #[test]
    fn neos_case_study_is_eleven_moves_optimal() {
        let p = SlidingPuzzle::new(
            4,
            4,
            vec![5, 1, 2, 3, 9, 6, 7, 4, 13, 10, 11, 8, 14, 15, 0, 12],
        )
        .unwrap();
        for prune in [false, true] {
            let plan = solve_optimal(&p, Goal::BlankLast, 15, prune, varisat, |_, _| {}).unwrap();
            assert_eq!(plan.horizon, Some(11));
            assert!(plan.optimal);
            let moves = plan.moves.unwrap();
            assert_eq!(moves.len(), 11);
            assert!(p.replay(&moves).unwrap().is_goal(Goal::BlankLast));
            // The lower bound is already 11 here; check the claim independently at 9.
            assert_eq!(solve_at(&p, Goal::BlankLast, 9, prune), None);
        }
    }

    /// True when the formula for exactly `plan.len()` moves admits this particular plan: every
    /// position and move literal the plan dictates is forced true and the rest is left to
    /// varisat (the auxiliaries). This is the property an UNSAT certificate relies on.
    fn admits_plan(p: &SlidingPuzzle, goal: Goal, plan: &[Move], encoding: Encoding) -> bool {
        [Direction::Forward, Direction::Backward]
            .into_iter()
            .all(|d| admits_plan_directed(p, goal, plan, encoding, d))
    }

    /// [`admits_plan`] one way: a backward formula's step t is the board `L − t` moves into
    /// the plan, and its move at step t undoes the plan's move `L − 1 − t`.
    fn admits_plan_directed(
        p: &SlidingPuzzle,
        goal: Goal,
        plan: &[Move],
        encoding: Encoding,
        direction: Direction,
    ) -> bool {
        let t_max = plan.len();
        let enc = build_directed(p, goal, t_max, encoding, direction);
        let mut cnf = enc.cnf().clone();
        let mut boards = vec![p.clone()];
        for &m in plan {
            let mut b = boards.last().unwrap().clone();
            assert!(b.apply(m));
            boards.push(b);
        }
        for t in 0..=t_max {
            let (board, step) = match direction {
                Direction::Forward => (&boards[t], plan.get(t).copied()),
                Direction::Backward => (
                    &boards[t_max - t],
                    (t < t_max).then(|| plan[t_max - 1 - t].inverse()),
                ),
            };
            for cell in 0..p.cells() {
                match enc.at_var(board.tile_at(cell) as usize, cell, t) {
                    Some(v) => cnf.add_clause(&[v.positive()]),
                    None => return false,
                }
            }
            if let Some(m) = step {
                cnf.add_clause(&[enc.move_var(t, m).unwrap().positive()]);
            }
        }
        matches!(solve_varisat(&cnf), SatOutcome::Sat(_))
    }

    #[test]
    fn backward_formulas_agree_and_decode_to_forward_plans() {
        for seed in 0..4 {
            for goal in [Goal::BlankFirst, Goal::BlankLast] {
                let (p, _) = SlidingPuzzle::random_walk(3, 3, goal, 30, seed);
                let opt = bfs_optimum(&p, goal);
                for e in [Encoding::Pruned, Encoding::Pdb] {
                    let back = build_directed(&p, goal, opt, e, Direction::Backward);
                    assert_eq!(back.direction(), Direction::Backward);
                    let SatOutcome::Sat(model) = solve_varisat(back.cnf()) else {
                        panic!("seed {seed} {goal} {e:?}: no plan at the optimum");
                    };
                    let plan = back.decode(&model).unwrap();
                    assert_eq!(plan.len(), opt);
                    assert!(
                        p.replay(&plan).unwrap().is_goal(goal),
                        "seed {seed} {goal} {e:?}"
                    );
                    if opt >= 2 {
                        let below = build_directed(&p, goal, opt - 2, e, Direction::Backward);
                        assert_eq!(solve_varisat(below.cnf()), SatOutcome::Unsat);
                    }
                }
            }
        }
    }

    /// The plan undoing a random walk from the goal, optionally padded by a back-and-forth.
    fn walk_plan(walk: &[Move], pad: Option<Move>) -> Vec<Move> {
        let mut plan: Vec<Move> = walk.iter().rev().map(|m| m.inverse()).collect();
        if let Some(m) = pad {
            plan.insert(0, m);
            plan.insert(1, m.inverse());
        }
        plan
    }

    #[test]
    fn every_encoding_admits_every_real_plan_optimal_or_not() {
        // 5 × 6 is past MAX_PAIR_CELLS: pdb without its pair tables.
        for (rows, cols, len) in [
            (3, 3, 9),
            (3, 3, 18),
            (4, 4, 12),
            (4, 4, 24),
            (2, 4, 15),
            (5, 6, 8),
        ] {
            for seed in 0..4 {
                for goal in [Goal::BlankFirst, Goal::BlankLast] {
                    let (p, walk) = SlidingPuzzle::random_walk(rows, cols, goal, len, seed);
                    // The padding move must be legal from the start board.
                    let pad = Move::ALL.into_iter().find(|&m| p.target(m).is_some());
                    for plan in [walk_plan(&walk, None), walk_plan(&walk, pad)] {
                        assert!(p.replay(&plan).unwrap().is_goal(goal));
                        for e in [
                            Encoding::Plain,
                            Encoding::Pruned,
                            Encoding::Strong,
                            Encoding::Pdb,
                        ] {
                            assert!(
                                admits_plan(&p, goal, &plan, e),
                                "{rows}x{cols} len {} seed {seed} {goal}: {e:?} cuts a real plan",
                                plan.len()
                            );
                        }
                    }
                }
            }
        }
    }

    /// An optimal plan by breadth-first search (small boards only), independent of SAT.
    fn bfs_plan(p: &SlidingPuzzle, goal: Goal) -> Vec<Move> {
        let mut parent: std::collections::HashMap<Vec<u16>, Option<(Move, Vec<u16>)>> =
            std::collections::HashMap::from([(p.tiles().to_vec(), None)]);
        let mut queue = VecDeque::from([p.clone()]);
        while let Some(q) = queue.pop_front() {
            if q.is_goal(goal) {
                let mut plan = Vec::new();
                let mut key = q.tiles().to_vec();
                while let Some(Some((m, prev))) = parent.get(&key) {
                    plan.push(*m);
                    key = prev.clone();
                }
                plan.reverse();
                return plan;
            }
            for m in Move::ALL {
                let mut r = q.clone();
                if r.apply(m) && !parent.contains_key(r.tiles()) {
                    parent.insert(r.tiles().to_vec(), Some((m, q.tiles().to_vec())));
                    queue.push_back(r);
                }
            }
        }
        panic!("goal unreachable in the test instance");
    }

    /// The lower-bound clauses are tight exactly on optimal plans (every board on one is at
    /// its true distance from the goal), so these are the plans that would expose an
    /// overestimate: optimal 8-puzzle plans by BFS (both goals) and optimal 15-puzzle plans of
    /// 20–34 moves by the native IDA* (blank-first, the instances' goal).
    #[test]
    fn every_encoding_admits_real_optimal_plans() {
        let encodings = [
            Encoding::Plain,
            Encoding::Pruned,
            Encoding::Strong,
            Encoding::Pdb,
        ];
        for seed in 0..6 {
            for goal in [Goal::BlankFirst, Goal::BlankLast] {
                let (p, _) = SlidingPuzzle::random_walk(3, 3, goal, 40, seed);
                let plan = bfs_plan(&p, goal);
                assert!(p.replay(&plan).unwrap().is_goal(goal));
                for e in encodings {
                    assert!(
                        admits_plan(&p, goal, &plan, e),
                        "3x3 seed {seed} {goal} {e:?}"
                    );
                }
            }
        }
        let text = include_str!("../../models/sliding/fifteen_small_by_length.txt");
        let heur = crate::search::manhattan::ManhattanLc::new(4, 4);
        let mut tried = 0;
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let f: Vec<usize> = line
                .split_whitespace()
                .map(|x| x.parse().unwrap())
                .collect();
            if ![20, 26, 30, 34].contains(&f[1]) {
                continue;
            }
            let tiles: Vec<u8> = f[3..].iter().map(|&t| t as u8).collect();
            let ida = crate::search::ida::search(&heur, 4, 4, &tiles, None);
            let crate::search::ida::IdaOutcome::Solved(codes) = ida.outcome else {
                panic!("no deadline, so IDA* solves it");
            };
            let plan = crate::search::codes_to_moves(&codes, Goal::BlankFirst);
            assert_eq!(plan.len(), f[1], "the file's optimum");
            let p =
                SlidingPuzzle::new(4, 4, tiles.iter().map(|&t| u16::from(t)).collect()).unwrap();
            assert!(p.replay(&plan).unwrap().is_goal(Goal::BlankFirst));
            for e in encodings {
                assert!(
                    admits_plan(&p, Goal::BlankFirst, &plan, e),
                    "15-puzzle id {} {e:?}",
                    f[0]
                );
            }
            tried += 1;
        }
        assert!(tried >= 8, "{tried}");
    }

    /// The small databases never exceed the real distance: every 8-puzzle board (BFS from the
    /// goal over all 181,440), every tile with the blank and every pair of tiles with the blank.
    #[test]
    fn small_databases_never_exceed_the_real_distance() {
        let goal = Goal::BlankLast;
        let solved = SlidingPuzzle::solved(3, 3, goal);
        let target = goal_cells(goal, 9);
        let mut dist = std::collections::HashMap::from([(solved.tiles().to_vec(), 0usize)]);
        let mut queue = VecDeque::from([solved]);
        while let Some(q) = queue.pop_front() {
            let d = dist[q.tiles()];
            for m in Move::ALL {
                let mut r = q.clone();
                if r.apply(m) && !dist.contains_key(r.tiles()) {
                    dist.insert(r.tiles().to_vec(), d + 1);
                    queue.push_back(r);
                }
            }
        }
        assert_eq!(dist.len(), 181_440);
        let singles: Vec<Vec<u8>> = (1..9)
            .map(|i| abstract_distances(3, 3, &[target[0], target[i]]))
            .collect();
        let pairs: Vec<((usize, usize), Vec<u8>)> = (1..9)
            .flat_map(|i| (i + 1..9).map(move |j| (i, j)))
            .map(|(i, j)| {
                (
                    (i, j),
                    abstract_distances(3, 3, &[target[0], target[i], target[j]]),
                )
            })
            .collect();
        let mut tight = 0;
        for (tiles, &real) in &dist {
            let mut cell = [0usize; 9];
            for (c, &t) in tiles.iter().enumerate() {
                cell[usize::from(t)] = c;
            }
            for (k, d1) in singles.iter().enumerate() {
                let est = usize::from(d1[cell[0] + cell[k + 1] * 9]);
                assert!(est <= real, "{tiles:?} tile {}: {est} > {real}", k + 1);
            }
            for ((i, j), d2) in &pairs {
                let est = usize::from(d2[cell[0] + cell[*i] * 9 + cell[*j] * 81]);
                assert!(est <= real, "{tiles:?} tiles {i},{j}: {est} > {real}");
                tight += usize::from(est == real);
            }
        }
        // Not vacuous: many boards are exactly at a pair's estimate.
        assert!(tight > 1000, "{tight}");
    }

    #[test]
    fn at_most_k_is_exact() {
        for n in 1..=6usize {
            for k in 0..=n {
                let mut f = Cnf::new();
                let xs: Vec<Lit> = (0..n)
                    .map(|i| f.new_var(format!("x{i}")).positive())
                    .collect();
                at_most_k(&mut f, &xs, k, "c");
                let aux = f.num_vars() - n;
                if aux > 12 {
                    continue;
                }
                for m in 0..1u32 << n {
                    let a: Vec<bool> = (0..n).map(|i| m >> i & 1 == 1).collect();
                    let ones = a.iter().filter(|b| **b).count();
                    let sat = (0..1u64 << aux).any(|e| {
                        let mut full = a.clone();
                        full.extend((0..aux).map(|j| e >> j & 1 == 1));
                        f.is_satisfied_by(&full)
                    });
                    assert_eq!(sat, ones <= k, "n={n} k={k} a={a:?}");
                }
            }
        }
    }

    #[test]
    fn strong_is_pruned_plus_the_counter() {
        let (p, _) = SlidingPuzzle::random_walk(3, 3, Goal::BlankLast, 14, 3);
        let pruned = build_encoding(&p, Goal::BlankLast, 16, Encoding::Pruned);
        let strong = build_encoding(&p, Goal::BlankLast, 16, Encoding::Strong);
        assert!(strong.cnf().num_vars() > pruned.cnf().num_vars());
        assert!(strong.cnf().num_clauses() > pruned.cnf().num_clauses());
        let first_extra = BoolVar(pruned.cnf().num_vars() as u32);
        assert_eq!(strong.cnf().var_name(first_extra), "inc_t0");
        assert_eq!(Encoding::parse("strong"), Some(Encoding::Strong));
        assert_eq!(Encoding::parse("bogus"), None);
        assert_eq!(Encoding::default(), Encoding::Pruned);
    }

    #[test]
    fn open_formula_with_goal_assumptions_agrees_with_rebuilding() {
        let goal = Goal::BlankLast;
        for seed in 0..3 {
            let (p, _) = SlidingPuzzle::random_walk(3, 3, goal, 14, seed);
            let opt = bfs_optimum(&p, goal);
            let open = build_open(&p, goal, opt + 3);
            let mut solver = varisat::Solver::new();
            for c in open.cnf().clauses() {
                let lits: Vec<varisat::Lit> = c
                    .iter()
                    .map(|l| varisat::Lit::from_index(l.var().index(), !l.is_negated()))
                    .collect();
                varisat::ExtendFormula::add_clause(&mut solver, &lits);
            }
            for t in 0..=opt + 3 {
                let sat = match open.goal_literals(goal, t) {
                    None => false,
                    Some(lits) => {
                        let a: Vec<varisat::Lit> = lits
                            .iter()
                            .map(|l| varisat::Lit::from_index(l.var().index(), !l.is_negated()))
                            .collect();
                        solver.assume(&a);
                        solver.solve().unwrap()
                    }
                };
                let want = t >= opt && (t - opt).is_multiple_of(2);
                assert_eq!(sat, want, "seed {seed} t {t} opt {opt}");
            }
        }
    }

    #[test]
    fn pruning_shrinks_the_formula() {
        let (p, _) = SlidingPuzzle::random_walk(3, 3, Goal::BlankLast, 12, 7);
        let plain = build(&p, Goal::BlankLast, 12);
        let pruned = build_with(&p, Goal::BlankLast, 12, true);
        assert!(pruned.cnf().num_vars() < plain.cnf().num_vars());
        assert!(pruned.cnf().num_clauses() < plain.cnf().num_clauses());
        // The start cell of the blank survives pruning, a far cell at t = 0 does not.
        let b = p.blank_cell();
        assert!(pruned.at_var(0, b, 0).is_some());
        assert!(pruned.at_var(0, (b + 4) % 9, 0).is_none());
        assert!(plain.at_var(0, (b + 4) % 9, 0).is_some());
    }

    #[test]
    fn names_are_readable() {
        let p = SlidingPuzzle::solved(2, 2, Goal::BlankLast);
        let enc = build(&p, Goal::BlankLast, 2);
        let v = enc.at_var(3, 1, 2).unwrap();
        assert_eq!(enc.cnf().var_name(v), "a_i3_c1_t2");
        let m = enc.move_var(1, Move::Up).unwrap();
        assert_eq!(enc.cnf().var_name(m), "m_U_t1");
        assert!(enc.move_var(2, Move::Up).is_none());
        assert!(enc.at_var(4, 0, 0).is_none());
    }

    #[test]
    fn zero_horizon_is_sat_only_at_the_goal() {
        let solved = SlidingPuzzle::solved(3, 3, Goal::BlankLast);
        assert_eq!(solve_at(&solved, Goal::BlankLast, 0, false), Some(vec![]));
        let plan = solve_optimal(&solved, Goal::BlankLast, 4, true, varisat, |_, _| {}).unwrap();
        assert_eq!(plan.moves, Some(vec![]));
        assert!(plan.optimal);
        let (p, _) = SlidingPuzzle::random_walk(3, 3, Goal::BlankLast, 2, 0);
        for prune in [false, true] {
            assert_eq!(solve_at(&p, Goal::BlankLast, 0, prune), None);
        }
    }

    #[test]
    fn decode_rejects_malformed_models() {
        let p = SlidingPuzzle::solved(2, 2, Goal::BlankLast);
        let enc = build(&p, Goal::BlankLast, 2);
        let n = enc.cnf().num_vars();
        assert_eq!(
            enc.decode(&[true]),
            Err(DecodeError::ModelTooShort { got: 1, want: n })
        );
        let mut model = vec![false; n];
        assert_eq!(enc.decode(&model), Err(DecodeError::NoMove { step: 0 }));
        model[enc.move_var(0, Move::Up).unwrap().index()] = true;
        model[enc.move_var(0, Move::Left).unwrap().index()] = true;
        assert_eq!(
            enc.decode(&model),
            Err(DecodeError::SeveralMoves { step: 0, count: 2 })
        );
        model[enc.move_var(0, Move::Left).unwrap().index()] = false;
        model[enc.move_var(1, Move::Down).unwrap().index()] = true;
        assert_eq!(enc.decode(&model), Ok(vec![Move::Up, Move::Down]));
    }

    #[test]
    fn driver_reports_honestly_without_a_plan() {
        let (p, _) = SlidingPuzzle::random_walk(3, 3, Goal::BlankLast, 14, 5);
        let opt = bfs_optimum(&p, Goal::BlankLast);
        // The horizon limit stops the search below the optimum.
        let plan = solve_optimal(&p, Goal::BlankLast, opt - 1, false, varisat, |_, _| {}).unwrap();
        assert_eq!(plan.moves, None);
        assert!(!plan.optimal);
        assert_eq!(plan.lower_bound, opt);
        // An engine without an answer stops the search with no optimality claim.
        let unknown = |_: &Cnf| Ok::<_, Infallible>(SatOutcome::Unknown);
        let plan = solve_optimal(&p, Goal::BlankLast, 40, false, unknown, |_, _| {}).unwrap();
        assert_eq!(
            (plan.moves, plan.optimal, plan.steps.len()),
            (None, false, 1)
        );
        // Engine errors, bad models and unsolvable boards are errors.
        let failing = |_: &Cnf| Err::<SatOutcome, _>(std::fmt::Error);
        let err = solve_optimal(&p, Goal::BlankLast, 40, false, failing, |_, _| {}).unwrap_err();
        assert!(matches!(err, SatPlanError::Engine { .. }), "{err}");
        let liar = |c: &Cnf| Ok::<_, Infallible>(SatOutcome::Sat(vec![false; c.num_vars()]));
        let err = solve_optimal(&p, Goal::BlankLast, 40, false, liar, |_, _| {}).unwrap_err();
        assert!(matches!(err, SatPlanError::BadModel { .. }), "{err}");
        let bad = SlidingPuzzle::new(3, 3, vec![2, 1, 3, 4, 5, 6, 7, 8, 0]).unwrap();
        let err = solve_optimal(&bad, Goal::BlankLast, 40, false, varisat, |_, _| {}).unwrap_err();
        assert!(matches!(err, SatPlanError::Unsolvable(_)), "{err}");
    }
}
