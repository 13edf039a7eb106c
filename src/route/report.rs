//! One report for every route and family: a typed [`Status`], the claim the route can prove
//! (`optimal`, or a proven `bound`), the verifier's findings, and the family's own fields.

use crate::certify::Certificate;
use crate::formulate::sliding_sat::Encoding;
use crate::model::answer::Outcome;
use crate::puzzle::edge::Board;
use crate::puzzle::sliding::Move;

/// How a solve ended, as the report's `status` field says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// A solution was found and verified (`optimal` says whether it is proven best, `bound`
    /// what is proven otherwise).
    Solved,
    /// Proven to have no solution (in this model: this horizon, a perfect board).
    Infeasible,
    /// The model is unbounded (or infeasible-or-unbounded).
    Unbounded,
    /// Stopped by the time limit with no solution.
    TimeLimit,
    /// The solver gave up without an answer.
    NoSolution,
    /// The solver claimed a solution that failed verification: a solver failure, never an
    /// answer.
    Unverified,
}

impl Status {
    /// The status of a MILP outcome before its solution is checked.
    pub fn of_outcome(o: Outcome) -> Status {
        match o {
            Outcome::Optimal | Outcome::Feasible => Status::Solved,
            Outcome::Infeasible => Status::Infeasible,
            Outcome::Unbounded => Status::Unbounded,
            Outcome::TimeLimit => Status::TimeLimit,
            Outcome::Unknown => Status::NoSolution,
        }
    }
    /// The name reports print.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Infeasible => "infeasible",
            Status::Unbounded => "unbounded",
            Status::TimeLimit => "time_limit",
            Status::NoSolution => "no_solution",
            Status::Unverified => "unverified",
        }
    }
}

impl PartialEq<&str> for Status {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a solver said that tilekit could not prove for itself (the report's `solver_claim`).
///
/// A report says `optimal` only when tilekit holds the proof: its own search's bound meets
/// the plan, a certificate it checked, or a perfect board. Where a solver's "optimal" or
/// "infeasible" rests on the solver's word alone, the report keeps it here, beside tilekit's
/// own `bound`; a claim tilekit can refute is a solver failure ([`Status::Unverified`]).
///
/// ```
/// use tilekit::route::Claim;
/// assert_eq!(serde_json::to_string(&Claim::Optimal).unwrap(), "\"optimal\"");
/// assert_eq!(Claim::Infeasible.as_str(), "infeasible");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Claim {
    /// The solver says its solution is optimal.
    Optimal,
    /// The solver says there is no solution (at this horizon; no perfect board).
    Infeasible,
}

impl Claim {
    /// The name reports print.
    pub fn as_str(self) -> &'static str {
        match self {
            Claim::Optimal => "optimal",
            Claim::Infeasible => "infeasible",
        }
    }
    /// The claim of a name [`Claim::as_str`] gives.
    pub fn from_name(s: &str) -> Option<Claim> {
        [Claim::Optimal, Claim::Infeasible]
            .into_iter()
            .find(|c| c.as_str() == s)
    }
}

/// The puzzle family a report is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FamilyName {
    /// Sliding-tile puzzles.
    Sliding,
    /// Edge-matching puzzles.
    Edge,
}

impl FamilyName {
    /// Every family name, in the order help texts list them.
    pub const ALL: [FamilyName; 2] = [FamilyName::Sliding, FamilyName::Edge];
    /// The family's name: the value of `family`.
    pub fn name(self) -> &'static str {
        match self {
            FamilyName::Sliding => "sliding",
            FamilyName::Edge => "edge",
        }
    }
    /// The family called `s`.
    pub fn from_name(s: &str) -> Option<FamilyName> {
        FamilyName::ALL.into_iter().find(|f| f.name() == s)
    }
}

/// A verified solution, typed.
#[derive(Debug, Clone, PartialEq)]
pub enum Solution {
    /// A sliding-puzzle plan.
    Plan(Vec<Move>),
    /// An edge-matching board.
    Board(Board),
}

/// The fields only one family has (flattened into the report's JSON).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(untagged)]
pub enum Details {
    /// Sliding puzzles.
    Sliding {
        /// The horizon of the model solved (the native route: the length reached).
        horizon: usize,
        /// The plan as letters.
        moves: Option<String>,
    },
    /// Edge-matching puzzles.
    Edge {
        /// milp: `faithful`, `filter`, `fix` or `filter_fix`; clique: `r1_r2`; sat: `plain`
        /// or `fix`.
        variant: String,
        /// Matched inner seams of the decoded board.
        matched: Option<usize>,
        /// Inner seams, `2RC − R − C`.
        max: usize,
        /// Variables, rows and nonzeros (clique: nodes, edges, 0) of the model solved.
        size: [usize; 3],
    },
}

/// What the edge heuristic route did (flattened into the JSON).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct HeuristicStats {
    /// `greedy`, `backtrack` or `random`.
    pub construct: String,
    /// The region shape, `RxC`.
    pub region: String,
    /// Matched seams of the constructed board.
    pub constructed: usize,
    /// The seed.
    pub seed: u64,
    /// `[seconds, matched, step]` after the construction and after every neighbourhood that
    /// gained.
    pub trace: Vec<crate::edge_search::local::TraceRow>,
    /// Placements per second of a depth-first construction (the DFS's or the exact
    /// search's), over all its threads.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub placements_per_second: Option<f64>,
    /// The DFS's own rate: placements per second while its workers place pieces, over all
    /// of them (the finishing of partial boards and the bookkeeping between restarts left
    /// out, which [`placements_per_second`](Self::placements_per_second) counts).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search_placements_per_second: Option<f64>,
}

/// Search figures of the native route (flattened into the JSON).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct NativeStats {
    /// The heuristic, e.g. `pdb 6-6-3 + reflection`.
    pub heuristic: String,
    /// IDA* nodes over all iterations.
    pub nodes: u64,
    /// Heuristic value of the start board.
    pub initial_h: u32,
    /// Seconds spent loading or building pattern databases.
    pub db_seconds: f64,
    /// `loaded`, `built` or `none`.
    pub db_source: String,
    /// Search seconds after the databases were ready.
    pub search_seconds: f64,
}

/// The report of a solve, as printed in JSON.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Report {
    /// How the solve ended.
    pub status: Status,
    /// The puzzle family.
    pub family: FamilyName,
    /// The formulation (`native` for the native search).
    pub model: String,
    /// The engine or solver used.
    pub solver: String,
    /// The objective of the verified solution (moves; unmatched seams), recounted by the
    /// independent checker.
    pub objective: Option<f64>,
    /// A proven lower bound on the optimum, where one is known (= objective when optimal).
    pub bound: Option<f64>,
    /// True only when the solution is verified and tilekit holds the proof that it is optimal
    /// (see [`Claim`]).
    pub optimal: bool,
    /// What the solver claims beyond tilekit's proof: `optimal` for a verified solution that
    /// tilekit has not proven optimal, `infeasible` for a "no solution" tilekit has not proven.
    pub solver_claim: Option<Claim>,
    /// Wall-clock seconds, end to end.
    pub seconds: f64,
    /// True when the solution passed the independent checks (model level and puzzle level).
    pub verified: bool,
    /// The family's own fields.
    #[serde(flatten)]
    pub details: Details,
    /// What the checks found wrong.
    pub errors: Vec<String>,
    /// The solver's own status text.
    pub solver_status: String,
    /// Search figures of the native route.
    #[serde(flatten)]
    pub native: Option<NativeStats>,
    /// Construction and local-search figures of the edge heuristic route.
    #[serde(skip_serializing_if = "Option::is_none", flatten)]
    pub heuristic: Option<HeuristicStats>,
    /// Best-first search figures of the sliding A* route.
    #[serde(skip_serializing_if = "Option::is_none", flatten)]
    pub astar: Option<super::astar::AstarStats>,
    /// The CNF encoding (the sliding SAT route).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encoding: Option<Encoding>,
    /// The optimality certificate, when one was asked for and a plan was claimed optimal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub certificate: Option<Certificate>,
    /// True when a certificate was asked for: success then needs a certified one.
    #[serde(skip)]
    pub certificate_wanted: bool,
    /// The verified solution, typed.
    #[serde(skip)]
    pub solution: Option<Solution>,
}

impl Report {
    /// An empty report: nothing found yet.
    pub fn new(family: FamilyName, model: &str, solver: &str, details: Details) -> Self {
        Report {
            status: Status::NoSolution,
            family,
            model: model.into(),
            solver: solver.into(),
            objective: None,
            bound: None,
            optimal: false,
            solver_claim: None,
            seconds: 0.0,
            verified: false,
            details,
            errors: Vec::new(),
            solver_status: String::new(),
            native: None,
            heuristic: None,
            astar: None,
            encoding: None,
            certificate: None,
            certificate_wanted: false,
            solution: None,
        }
    }

    /// True when the answer is a full "yes": a verified solution and, when a certificate was
    /// asked for, a certified one. The command line exits 0 exactly then.
    pub fn success(&self) -> bool {
        self.verified
            && (!self.certificate_wanted || self.certificate.as_ref().is_some_and(|c| c.certified))
    }

    /// The command line's exit code: 0 for a full "yes" ([`Report::success`]), 3 when the
    /// solver contradicted what tilekit can check ([`Status::Unverified`]: a solver failure,
    /// on every route and family alike), 1 for any other "no".
    pub fn exit_code(&self) -> u8 {
        if self.success() {
            0
        } else if self.status == Status::Unverified {
            3
        } else {
            1
        }
    }

    /// The verified plan, if this is a sliding report with one.
    pub fn plan(&self) -> Option<&[Move]> {
        match &self.solution {
            Some(Solution::Plan(m)) if self.verified => Some(m),
            _ => None,
        }
    }

    /// The plan as letters (verified or not), if this is a sliding report with one.
    pub fn moves(&self) -> Option<&str> {
        match &self.details {
            Details::Sliding { moves, .. } => moves.as_deref(),
            Details::Edge { .. } => None,
        }
    }

    /// The horizon of a sliding report.
    pub fn horizon(&self) -> Option<usize> {
        match &self.details {
            Details::Sliding { horizon, .. } => Some(*horizon),
            Details::Edge { .. } => None,
        }
    }

    /// The matched seams of an edge report's board.
    pub fn matched(&self) -> Option<usize> {
        match &self.details {
            Details::Edge { matched, .. } => *matched,
            Details::Sliding { .. } => None,
        }
    }

    /// The verified board, if this is an edge report with one.
    pub fn board(&self) -> Option<&Board> {
        match &self.solution {
            Some(Solution::Board(b)) if self.verified => Some(b),
            _ => None,
        }
    }

    /// The report as `tilekit solve` prints it: one JSON object, or text (one line, and the
    /// certificate's summary when there is one).
    pub fn render(&self, json: bool) -> String {
        if json {
            return serde_json::to_string(self).unwrap_or_default();
        }
        // Only the parts there are: no empty `: ()` when a solver said nothing.
        let failed = || {
            let mut line = self.status.to_string();
            if self.solver_claim == Some(Claim::Infeasible) {
                line += " by the solver's claim";
            }
            if !self.errors.is_empty() {
                line += &format!(": {}", self.errors.join("; "));
            }
            if !self.solver_status.is_empty() {
                line += &format!(" ({})", self.solver_status);
            }
            line
        };
        let optimal = if self.optimal {
            ", optimal".to_string()
        } else if self.solver_claim == Some(Claim::Optimal) {
            match self.bound {
                Some(b) => format!(
                    ", optimal by the solver's claim; tilekit proves at least {}",
                    super::shown_number(b)
                ),
                None => ", optimal by the solver's claim".to_string(),
            }
        } else {
            // A verified answer short of a proof: the bound tilekit proves, and the gap.
            match (self.objective, self.bound) {
                (Some(o), Some(b)) if self.verified && b < o => format!(
                    ", proven at least {}, gap {}",
                    super::shown_number(b),
                    super::shown_number(o - b)
                ),
                _ => String::new(),
            }
        };
        let line = match &self.details {
            Details::Sliding { moves: Some(m), .. } if self.verified => format!(
                "{} moves{optimal} ({} via {}, {:.2} s, verified by replay): {m}",
                m.len(),
                self.model,
                self.solver,
                self.seconds
            ),
            Details::Edge {
                variant,
                matched: Some(m),
                max,
                ..
            } if self.verified => format!(
                "{m} of {max} inner edges matched ({} unmatched{optimal}; {} {variant} via {}, {:.2} s, verified)",
                max - m,
                self.model,
                self.solver,
                self.seconds
            ),
            _ => failed(),
        };
        match &self.certificate {
            Some(c) => format!("{line}\n{}", c.summary()),
            None => line,
        }
    }
}
