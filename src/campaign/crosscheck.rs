//! The cross-check of a campaign: every run becomes a claim about its instance's optimum (a
//! verified objective is an upper bound; a proof of optimality, infeasibility at a horizon or
//! "no perfect board" is a lower bound), and the claims of all solvers, and the instance's
//! known optimum, must agree. A disagreement means a solver bug or a tilekit bug, so it is
//! reported with both answers and makes `tilekit run` exit 1.
//!
//! Units are the instance's objective: moves for a sliding puzzle, unmatched inner seams for
//! an edge-matching one. A model at one horizon says nothing about the optimum beyond it:
//! a sliding CNF or MILP proven infeasible at horizon T proves an optimum above T, no more.

use super::db::StoredRun;
use std::collections::BTreeMap;

/// What one run proves about its instance's optimum.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Claim {
    /// A proven lower bound.
    pub lower: Option<f64>,
    /// A verified solution's objective.
    pub upper: Option<f64>,
}

/// The kinds of disagreement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConflictKind {
    /// Two runs proved different optima.
    OptimaDiffer,
    /// A verified solution is better than another run's proven bound.
    BeatsBound,
    /// A verified solution is better than the instance's known optimum.
    BeatsKnown,
    /// A proven bound lies above the instance's known optimum.
    BoundAboveKnown,
    /// An answer no correct solver gives: a solution that failed verification, an unbounded
    /// model, an edge MILP (which always has a board) declared infeasible.
    Impossible,
}

impl ConflictKind {
    /// The name stored in the `conflicts` table.
    pub fn as_str(self) -> &'static str {
        match self {
            ConflictKind::OptimaDiffer => "optima_differ",
            ConflictKind::BeatsBound => "beats_bound",
            ConflictKind::BeatsKnown => "beats_known_optimum",
            ConflictKind::BoundAboveKnown => "bound_above_known_optimum",
            ConflictKind::Impossible => "impossible_answer",
        }
    }
}

/// One disagreement: the runs involved and what they said.
#[derive(Debug, Clone, PartialEq)]
pub struct Conflict {
    /// The instance's SHA-256.
    pub instance_sha256: String,
    /// The instance's id.
    pub instance: String,
    /// What kind.
    pub kind: ConflictKind,
    /// The first run's row id.
    pub run_a: i64,
    /// The second run's row id (none for a conflict with the known optimum or an impossible
    /// answer).
    pub run_b: Option<i64>,
    /// Both answers, in words.
    pub detail: String,
}

impl Conflict {
    /// The run whose claim the conflict refutes, when the evidence says which: a verified
    /// solution refutes the bound or optimum it beats, the known optimum refutes a bound above
    /// it, and an impossible answer refutes itself. A verified solution that beats the known
    /// optimum refutes no run (the stated optimum is what is wrong).
    pub fn refuted(&self) -> Option<i64> {
        match self.kind {
            ConflictKind::OptimaDiffer | ConflictKind::BeatsBound => self.run_b,
            ConflictKind::BoundAboveKnown | ConflictKind::Impossible => Some(self.run_a),
            ConflictKind::BeatsKnown => None,
        }
    }
}

/// Proven optimal by tilekit, or claimed optimal by the solver.
pub fn optimal_or_claimed(row: &crate::campaign::db::RunRow) -> bool {
    row.optimal || row.solver_claim == Some(crate::route::Claim::Optimal)
}

/// The claim of one run.
pub fn claim(r: &StoredRun) -> Result<Claim, String> {
    let row = &r.row;
    match row.status.as_str() {
        "solved" if row.verified => {
            let upper = row.objective;
            let mut lower = row.bound;
            // The solver's claim of optimality is what the cross-check weighs: a claim that
            // another run's verified solution beats is refuted.
            if optimal_or_claimed(row) {
                lower = upper;
            }
            Ok(Claim { lower, upper })
        }
        "infeasible" => match (r.family.as_str(), r.model.as_str()) {
            // No plan within the horizon: the optimum is beyond it.
            ("sliding", _) => Ok(Claim {
                lower: r.horizon.map(|t| t as f64 + 1.0),
                upper: None,
            }),
            // No perfect board: at least one seam is unmatched.
            ("edge", "sat" | "clique") => Ok(Claim {
                lower: Some(1.0),
                upper: None,
            }),
            _ => Err(format!(
                "declared the {} model infeasible, but every puzzle has a board",
                r.model
            )),
        },
        "unbounded" => Err("declared the model unbounded, which it cannot be".into()),
        "unverified" | "solved" => Err(format!(
            "claimed a solution that failed verification: {}",
            row.errors.join("; ")
        )),
        _ => Ok(Claim::default()),
    }
}

/// One run in words: solver, version, status, objective, bound, command.
pub fn describe(r: &StoredRun) -> String {
    let row = &r.row;
    let num = |x: Option<f64>| x.map_or("-".to_string(), |v| format!("{v}"));
    format!(
        "{} {} on {} ({} {}{}): {}{}, objective {}, bound {}; command: {}",
        row.solver,
        row.solver_version.as_deref().unwrap_or("(version unknown)"),
        r.path,
        r.model,
        r.format,
        r.horizon
            .map_or(String::new(), |t| format!(", horizon {t}")),
        row.status,
        if row.optimal {
            " (proven optimal)"
        } else if row.solver_claim == Some(crate::route::Claim::Optimal) {
            " (optimal by the solver's claim)"
        } else {
            ""
        },
        num(row.objective),
        num(row.bound),
        row.command
    )
}

/// Every disagreement among `runs` (any number of instances).
pub fn check(runs: &[StoredRun]) -> Vec<Conflict> {
    let mut by_instance: BTreeMap<&str, Vec<&StoredRun>> = BTreeMap::new();
    for r in runs {
        by_instance.entry(&r.instance_sha256).or_default().push(r);
    }
    let mut out = Vec::new();
    for runs in by_instance.values() {
        let first = runs[0];
        let conflict = |kind, a: &StoredRun, b: Option<&StoredRun>, detail: String| Conflict {
            instance_sha256: first.instance_sha256.clone(),
            instance: first.instance.clone(),
            kind,
            run_a: a.id,
            run_b: b.map(|b| b.id),
            detail,
        };
        let mut claims = Vec::new();
        for r in runs {
            match claim(r) {
                Ok(c) => claims.push((*r, c)),
                Err(why) => out.push(conflict(
                    ConflictKind::Impossible,
                    r,
                    None,
                    format!("{}: {why}", describe(r)),
                )),
            }
        }
        for (a, ca) in &claims {
            let Some(u) = ca.upper else { continue };
            for (b, cb) in &claims {
                let Some(l) = cb.lower else { continue };
                if a.id == b.id || u >= l - 1e-6 {
                    continue;
                }
                let kind = if ca.lower == ca.upper
                    && optimal_or_claimed(&a.row)
                    && optimal_or_claimed(&b.row)
                {
                    ConflictKind::OptimaDiffer
                } else {
                    ConflictKind::BeatsBound
                };
                let detail = format!(
                    "{} found a verified solution of {u}, below the bound {l} proven by {}",
                    describe(a),
                    describe(b)
                );
                out.push(conflict(kind, a, Some(b), detail));
            }
            if let Some(k) = first.known_optimum
                && u < k - 1e-6
            {
                out.push(conflict(
                    ConflictKind::BeatsKnown,
                    a,
                    None,
                    format!(
                        "{} found a verified solution of {u}, better than the known optimum {k} ({})",
                        describe(a),
                        first.optimum_source.as_deref().unwrap_or("source unknown")
                    ),
                ));
            }
        }
        if let Some(k) = first.known_optimum {
            for (b, cb) in &claims {
                if let Some(l) = cb.lower
                    && l > k + 1e-6
                {
                    out.push(conflict(
                        ConflictKind::BoundAboveKnown,
                        b,
                        None,
                        format!(
                            "{} proved a bound of {l}, above the known optimum {k} ({})",
                            describe(b),
                            first.optimum_source.as_deref().unwrap_or("source unknown")
                        ),
                    ));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::campaign::db::RunRow;

    fn run(
        id: i64,
        solver: &str,
        status: &str,
        objective: Option<f64>,
        optimal: bool,
    ) -> StoredRun {
        StoredRun {
            id,
            row: RunRow {
                file_sha256: "f".into(),
                solver: solver.into(),
                solver_version: None,
                time_limit: 10.0,
                threads: 1,
                status: status.into(),
                objective,
                bound: None,
                optimal,
                solver_claim: None,
                solver_bound: None,
                seed: 0,
                verified: status == "solved",
                errors: vec![],
                solver_status: String::new(),
                seconds: 1.0,
                host: "h".into(),
                command: format!("{solver} file"),
                executor: "local".into(),
                shard: None,
                tilekit_version: "0".into(),
                finished_at: 0,
                measured: Default::default(),
            },
            instance_sha256: "i".into(),
            instance: "inst".into(),
            family: "sliding".into(),
            model: "neos".into(),
            format: "lp".into(),
            path: "files/x.lp".into(),
            horizon: Some(9),
            known_optimum: Some(5.0),
            optimum_source: Some("test".into()),
            best_known: None,
        }
    }

    #[test]
    fn agreeing_runs_raise_nothing() {
        let runs = [
            run(1, "cbc", "solved", Some(5.0), true),
            run(2, "highs", "solved", Some(5.0), true),
            run(3, "glpk", "solved", Some(7.0), false),
            run(4, "slow", "time_limit", None, false),
        ];
        assert_eq!(check(&runs), vec![]);
    }

    #[test]
    fn a_worse_optimum_is_caught_with_both_answers() {
        let runs = [
            run(1, "highs", "solved", Some(5.0), true),
            run(2, "liar", "solved", Some(7.0), true),
        ];
        let c = check(&runs);
        let kinds: Vec<_> = c.iter().map(|c| c.kind).collect();
        assert!(kinds.contains(&ConflictKind::OptimaDiffer), "{c:?}");
        assert!(kinds.contains(&ConflictKind::BoundAboveKnown), "{c:?}");
        // Both conflicts refute the liar, never the run whose solution was verified.
        assert!(c.iter().all(|c| c.refuted() == Some(2)), "{c:?}");
        let d = &c
            .iter()
            .find(|c| c.kind == ConflictKind::OptimaDiffer)
            .unwrap()
            .detail;
        assert!(
            d.contains("highs") && d.contains("liar") && d.contains("5") && d.contains("7"),
            "{d}"
        );
    }

    /// The dual bound a solver's log claims is a claim, not a proof: even above a verified
    /// answer it makes no conflict (the cross-check weighs only what tilekit proved).
    #[test]
    fn a_logged_dual_bound_never_decides_a_conflict() {
        let mut boasting = run(2, "boast", "time_limit", None, false);
        boasting.row.solver_bound = Some(9.0);
        let runs = [run(1, "highs", "solved", Some(5.0), true), boasting];
        assert_eq!(check(&runs), vec![]);
    }

    /// A solver's claim of optimality that tilekit could not settle at the cell is weighed as
    /// a claim: a verified better solution refutes it, and the conflict says it was a claim.
    #[test]
    fn a_worse_optimum_claimed_but_not_proven_is_caught_too() {
        let mut liar = run(2, "liar", "solved", Some(7.0), false);
        liar.row.solver_claim = Some(crate::route::Claim::Optimal);
        liar.row.bound = Some(3.0);
        let runs = [run(1, "highs", "solved", Some(5.0), true), liar];
        let c = check(&runs);
        let differ = c
            .iter()
            .find(|c| c.kind == ConflictKind::OptimaDiffer)
            .unwrap_or_else(|| panic!("{c:?}"));
        assert_eq!(differ.refuted(), Some(2));
        assert!(
            differ.detail.contains("(optimal by the solver's claim)")
                && differ.detail.contains("(proven optimal)"),
            "{}",
            differ.detail
        );
        // Without the claim, a worse solution is just a worse solution.
        let runs = [
            run(1, "highs", "solved", Some(5.0), true),
            run(2, "slow", "solved", Some(7.0), false),
        ];
        assert_eq!(check(&runs), vec![]);
    }

    #[test]
    fn the_report_counts_a_refuted_claim_as_failed_not_solved() {
        use crate::campaign::report::{refuted, stats};
        let runs = [
            run(1, "highs", "solved", Some(5.0), true),
            run(2, "liar", "solved", Some(7.0), true),
        ];
        let table = stats(&runs, &refuted(&check(&runs)), 10.0);
        let line = |s: &str| {
            let t = table.iter().find(|t| t.config.starts_with(s)).unwrap();
            (t.solved, t.failed)
        };
        assert_eq!(line("highs"), (1, 0));
        assert_eq!(line("liar"), (0, 1));
    }

    #[test]
    fn infeasible_at_a_horizon_bounds_the_optimum_above_it() {
        let mut inf = run(2, "cadical", "infeasible", None, false);
        inf.horizon = Some(4);
        // Infeasible at 4: optimum ≥ 5, consistent with 5.
        assert_eq!(
            check(&[run(1, "cbc", "solved", Some(5.0), true), inf.clone()]),
            vec![]
        );
        // Infeasible at 6 contradicts a verified 5-move plan.
        inf.horizon = Some(6);
        let c = check(&[run(1, "cbc", "solved", Some(5.0), true), inf]);
        assert!(
            c.iter()
                .any(|c| c.kind == ConflictKind::BeatsBound && c.run_b == Some(2)),
            "{c:?}"
        );
    }

    #[test]
    fn impossible_answers_and_the_known_optimum() {
        let mut bad = run(1, "x", "unverified", Some(3.0), false);
        bad.row.errors = vec!["move 2 leaves the board".into()];
        let c = check(&[bad]);
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].kind, ConflictKind::Impossible);
        assert!(c[0].detail.contains("move 2 leaves the board"));
        // Better than the known optimum: the stated optimum (or the checker) is wrong.
        let c = check(&[run(1, "cbc", "solved", Some(3.0), false)]);
        assert_eq!(c[0].kind, ConflictKind::BeatsKnown);
        assert_eq!(c[0].refuted(), None);
        // An edge MILP declared infeasible.
        let mut e = run(1, "cbc", "infeasible", None, false);
        e.family = "edge".into();
        e.model = "milp".into();
        assert_eq!(check(&[e])[0].kind, ConflictKind::Impossible);
    }
}
