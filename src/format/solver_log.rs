//! What a MILP solver's own log says of its dual bound: the least objective it claims no
//! solution can beat, in the model's sense (minimisation throughout tilekit's models).
//!
//! A claim, never a proof: tilekit stores it beside the bounds it proves itself and never lets
//! it decide a cross-check. It is what a reader of a MIPLIB or Paver table expects to see
//! next to the primal value, and the gap a solver reports is computed from it.
//!
//! The layouts read, each the solver's own summary (the last occurrence in the log wins,
//! since a log grows as the search goes):
//! - HiGHS: `Dual bound  10` in the closing summary;
//! - CBC: `Lower bound: 10.000` after a stopped search, and the objective itself after
//!   `Result - Optimal solution found`;
//! - GLPK: its progress lines, `+ 1234: mip = 12 >= 10 ...` (or `>>>>> 12 >= 10`, or
//!   `>= tree is empty` once the search is over: the incumbent is then the bound), and its
//!   preprocessor's `Objective value = 4` when `INTEGER OPTIMAL SOLUTION FOUND` follows;
//! - SCIP: `Dual Bound : +1.0e+01` in its statistics (tilekit's SCIP command prints it);
//! - Gurobi: `Best objective 1.2e+01, best bound 1.0e+01, gap ...`;
//! - CP-SAT: `best_bound: 10` as in its response statistics (tilekit's CP-SAT command prints
//!   it).
//!
//! Infinite or unreadable values are no claim.

/// The dual bound `log` (a solver's stdout) claims last, if it claims one.
///
/// ```
/// use tilekit::format::solver_log::dual_bound;
/// let highs = "  Primal bound      55\n  Dual bound        12\n  Gap               78%\n";
/// assert_eq!(dual_bound(highs), Some(12.0));
/// assert_eq!(dual_bound("Dual bound        -inf\n"), None);
/// assert_eq!(dual_bound("nothing here\n"), None);
/// ```
pub fn dual_bound(log: &str) -> Option<f64> {
    let mut bound = None;
    let mut state = State::default();
    for line in log.lines() {
        let t = line.trim();
        if let Some(b) = line_bound(t, &mut state) {
            bound = Some(b);
        }
    }
    bound.filter(|b: &f64| b.is_finite())
}

/// What earlier lines said that a later one needs.
#[derive(Default)]
struct State {
    /// CBC's verdict was optimal: its objective line is the bound.
    cbc_optimal: bool,
    /// GLPK's last `Objective value =`, the bound if its optimal verdict follows.
    glpk_objective: Option<f64>,
}

/// The bound one trimmed line states, if any.
fn line_bound(t: &str, state: &mut State) -> Option<f64> {
    if let Some(rest) = t.strip_prefix("Dual bound") {
        return number(rest);
    }
    if let Some(rest) = t.strip_prefix("Dual Bound") {
        return number(rest.trim_start().strip_prefix(':')?);
    }
    if let Some(rest) = t.strip_prefix("Lower bound:") {
        return number(rest);
    }
    if let Some(rest) = t.strip_prefix("best_bound:") {
        return number(rest);
    }
    if t.starts_with("Result - ") {
        state.cbc_optimal = t == "Result - Optimal solution found";
        return None;
    }
    if state.cbc_optimal
        && let Some(rest) = t.strip_prefix("Objective value:")
    {
        return number(rest);
    }
    if let Some(rest) = t.strip_prefix("Objective value =") {
        state.glpk_objective = number(rest);
        return None;
    }
    if t.starts_with("INTEGER OPTIMAL SOLUTION FOUND") {
        return state.glpk_objective;
    }
    if t.starts_with("Best objective")
        && let Some((_, rest)) = t.split_once("best bound")
    {
        return number(rest.split(',').next()?);
    }
    if t.starts_with('+') && t.contains(':') && t.contains(">=") {
        return glpk_bound(t);
    }
    None
}

/// GLPK's progress line: `+ N: mip = INCUMBENT >= BOUND GAP% (...)`, `+ N: >>>>> INCUMBENT
/// >= BOUND ...`, with `tree is empty` for the bound once the search has closed (the
/// incumbent is then optimal) and `not found yet` for a missing incumbent.
fn glpk_bound(t: &str) -> Option<f64> {
    let (_, rest) = t.split_once(':')?;
    let (incumbent, after) = rest.split_once(">=")?;
    let after = after.trim_start();
    if after.starts_with("tree is empty") {
        let incumbent = incumbent.trim();
        let incumbent = incumbent
            .strip_prefix("mip =")
            .or_else(|| incumbent.strip_prefix(">>>>>"))
            .unwrap_or(incumbent);
        return number(incumbent);
    }
    number(after.split_whitespace().next()?)
}

/// The first whitespace-separated token of `s` as a number (SCIP writes `+1.0e+01`).
fn number(s: &str) -> Option<f64> {
    let token = s.split_whitespace().next()?;
    let token = token.strip_prefix('+').unwrap_or(token);
    token.parse::<f64>().ok()
}

#[cfg(test)]
mod tests {
    use super::dual_bound;

    #[test]
    fn every_solvers_summary_is_read_and_the_last_claim_wins() {
        let highs = "Src  Proc. InQueue |  Leaves   Expl. | BestBound       BestSol              Gap\n\
                     \n  Status            Time limit reached\n  Primal bound      55\n  Dual bound        3\n  Gap               94.55%\n";
        assert_eq!(dual_bound(highs), Some(3.0));
        let cbc_stopped = "Result - Stopped on time limit\n\nObjective value:                12.00000000\nLower bound:                    10.000\nGap:                            0.20\n";
        assert_eq!(dual_bound(cbc_stopped), Some(10.0));
        let cbc_optimal = "Result - Optimal solution found\n\nObjective value:                2.00000000\nEnumerated nodes:               0\n";
        assert_eq!(dual_bound(cbc_optimal), Some(2.0));
        // Without the verdict, CBC's objective is no bound.
        assert_eq!(dual_bound("Objective value: 2.0\n"), None);
        let glpk = "+   700: mip =     not found yet >=              -inf        (1; 0)\n\
                    +  7697: >>>>>   5.500000000e+01 >=   1.000000000e+00  98.2% (34; 0)\n\
                    +  9000: mip =   5.500000000e+01 >=   2.000000000e+00  96.4% (40; 2)\n";
        assert_eq!(dual_bound(glpk), Some(2.0));
        let glpk_done = "+    41: mip =   2.000000000e+00 >=     tree is empty   0.0% (0; 13)\n";
        assert_eq!(dual_bound(glpk_done), Some(2.0));
        let glpk_presolved = "Preprocessing...\nObjective value =   4.000000000e+00\nINTEGER OPTIMAL SOLUTION FOUND BY MIP PREPROCESSOR\n";
        assert_eq!(dual_bound(glpk_presolved), Some(4.0));
        assert_eq!(
            dual_bound("Objective value =   4.0\nTIME LIMIT EXCEEDED\n"),
            None
        );
        assert_eq!(
            dual_bound("  Dual Bound         : +1.00000000000000e+01\n"),
            Some(10.0)
        );
        let gurobi = "Explored 1 nodes (1 simplex iterations) in 0.01 seconds\n\
                      Best objective 1.200000000000e+01, best bound 1.000000000000e+01, gap 16.6667%\n";
        assert_eq!(dual_bound(gurobi), Some(10.0));
        assert_eq!(dual_bound("CP-SAT: FEASIBLE\nbest_bound: 7\n"), Some(7.0));
        // A bound claimed early and improved later: the last stands.
        assert_eq!(dual_bound("Dual bound 1\nDual bound 4\n"), Some(4.0));
        assert_eq!(dual_bound("Dual bound inf\n"), None);
    }
}
