//! How a puzzle is solved, as types: one method enum per family, each variant carrying the
//! options that method uses and no others. A combination that means nothing (a horizon for
//! the native search, a beam width for an exact route, a filter for the clique graph) has no
//! value to be written in, so the library checks numbers and files, never which options go
//! together. A front end maps its own option names onto these types and refuses, in its own
//! words, what has no place in them.
//!
//! [`Method::Recommended`] is each family's measured best; its choices are documented on
//! [`SlidingMethod::default`] and [`EdgeMethod::Auto`].
//!
//! ```
//! use tilekit::route::method::{Method, MilpMethod, SlidingMethod};
//! use tilekit::puzzle::sliding::Goal;
//!
//! // The case study's MILP on the strengthened model, stepped up from the bound (the MILP
//! // route's defaults), with the solver tilekit picks.
//! let method = Method::Sliding {
//!     goal: Goal::BlankLast,
//!     method: SlidingMethod::Milp(MilpMethod::default()),
//! };
//! assert_eq!(method.route(), Some(tilekit::route::Route::Milp));
//! ```

use super::Route;
use super::astar::AstarMethod;
use super::edge_heuristic::HeuristicChoice;
use super::family::{Horizon, Incumbent};
use crate::certify::CertifyOptions;
use crate::formulate::edge_milp::EdgeMilpOptions;
use crate::formulate::sliding_sat::Encoding;
use crate::puzzle::sliding::{Goal, Move};
use std::path::PathBuf;

/// How to solve an instance of either family.
#[derive(Debug, Clone, Default, PartialEq)]
pub enum Method {
    /// The family's measured best, whatever the family turns out to be: the native search
    /// for sliding puzzles (blank-last goal), [`EdgeMethod::Auto`] for edge-matching ones.
    #[default]
    Recommended,
    /// A sliding-tile puzzle's method, and the goal its board is solved towards.
    Sliding {
        /// Where the blank ends.
        goal: Goal,
        /// How.
        method: SlidingMethod,
    },
    /// An edge-matching puzzle's method.
    Edge(EdgeMethod),
}

impl Method {
    /// The route the method takes, where the method alone decides it (`None`: the
    /// recommended method, or an edge method that chooses by the board's size).
    pub fn route(&self) -> Option<Route> {
        match self {
            Method::Recommended | Method::Edge(EdgeMethod::Auto) => None,
            Method::Sliding { method, .. } => Some(method.route()),
            Method::Edge(EdgeMethod::Exact(e)) => Some(e.model.route()),
            Method::Edge(EdgeMethod::Heuristic(_)) => Some(Route::Heuristic),
        }
    }
}

/// How a sliding-tile puzzle is solved.
#[derive(Debug, Clone, PartialEq)]
pub enum SlidingMethod {
    /// IDA* with pattern databases: optimal, and the fastest route on every board measured
    /// (`docs/results/sliding-routes.md`).
    Native(NativeMethod),
    /// Best-first search (A*, weighted A*, focal search), with an admissible or a learned
    /// estimate.
    Astar(AstarMethod),
    /// A time-indexed MILP and a MILP solver.
    Milp(MilpMethod),
    /// Planning as SAT, horizon by horizon, with an optional DRAT certificate.
    Sat(SatMethod),
}

impl Default for SlidingMethod {
    /// The native search: it solved Korf's 100 boards optimally where every model-based
    /// route needs minutes a board (`docs/results/sliding-routes.md`).
    fn default() -> Self {
        SlidingMethod::Native(NativeMethod::default())
    }
}

impl SlidingMethod {
    /// The route this method takes.
    pub fn route(&self) -> Route {
        match self {
            SlidingMethod::Native(_) => Route::Native,
            SlidingMethod::Astar(_) => Route::Astar,
            SlidingMethod::Milp(_) => Route::Milp,
            SlidingMethod::Sat(_) => Route::Sat,
        }
    }
}

/// The native search's options.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NativeMethod {
    /// The pattern partition by name (`none`: Manhattan + linear conflict); `None`: the
    /// strongest already cached for the board, else the preset's.
    pub pdb: Option<String>,
    /// Certify the plan found: a DRAT proof that no plan two moves shorter exists.
    pub certificate: Option<Certificate>,
}

/// A certificate of optimality for a plan found elsewhere (the native search's).
#[derive(Debug, Clone, PartialEq)]
pub struct Certificate {
    /// The SAT solver that writes the proof (default varisat).
    pub solver: Option<String>,
    /// The encoding of the refuted formula (default pdb: with the plan in hand it refutes
    /// fastest, `docs/results/sat-certificates.md`).
    pub encoding: Option<Encoding>,
    /// The checker and the proof's options.
    pub options: CertifyOptions,
}

/// The sliding MILP models.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum MilpModel {
    /// The NEOS case study's time-indexed MILP, faithful.
    Neos,
    /// The strengthened binary flow MILP.
    Flow,
    /// The flow MILP tightened for generous horizons: with stepping it solves the case
    /// study at horizon 80 in about 0.1 s on every solver, microlp included, where the
    /// faithful model does not finish with microlp (`docs/results/sliding-routes.md`).
    #[default]
    Tight,
}

/// The MILP route's options.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MilpMethod {
    /// The model; `None`: [`MilpModel::Tight`], or the case study's own under the paper
    /// preset.
    pub model: Option<MilpModel>,
    /// A MILP solver: an embedded engine or a registry entry (`None`: the registry's
    /// choice).
    pub solver: Option<String>,
    /// The number of time steps (`None`: the board size's default).
    pub horizon: Option<Horizon>,
    /// Start from a plan and ask the MILP only for a shorter one.
    pub incumbent: Option<Incumbent>,
    /// Step the horizon up from the admissible bound. `None`: step, except from an
    /// incumbent (which has a start of its own) and under the paper preset.
    pub step: Option<bool>,
}

/// The SAT route's options.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SatMethod {
    /// A SAT solver: an embedded engine or a registry entry (default varisat).
    pub solver: Option<String>,
    /// The largest horizon tried (`None`: the board size's diameter, else 200).
    pub horizon: Option<Horizon>,
    /// The encoding (`None`: pruned; pdb when certifying a plan already in hand).
    pub encoding: Option<Encoding>,
    /// Certify the plan: a checked DRAT proof that no plan two moves shorter exists.
    pub certify: Option<CertifyOptions>,
    /// A plan to certify instead of searching (only with `certify`).
    pub plan: Option<MoveFile>,
}

/// A move file, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveFile {
    /// The file's moves.
    pub moves: Vec<Move>,
    /// The file, for messages.
    pub path: PathBuf,
}

impl MoveFile {
    /// Read and parse the move file at `path` (errors name the file and line: exit 2).
    pub fn read(path: &std::path::Path, what: &str) -> Result<Self, super::Error> {
        Ok(MoveFile {
            moves: crate::puzzle::sliding::parse_moves(
                &super::read_text(path, what)?,
                &path.display().to_string(),
            )?,
            path: path.to_path_buf(),
        })
    }
}

/// How an edge-matching puzzle is solved.
#[derive(Debug, Clone, Default, PartialEq)]
pub enum EdgeMethod {
    /// By the board's size: up to [`super::edge::EXACT_CELLS`] cells the embedded exact
    /// max-clique search, which proves the optimum (META 6×6 in 0.7 s,
    /// `docs/results/edge-exact.md`); above, the heuristic's recommended search
    /// ([`HeuristicChoice::default`]).
    #[default]
    Auto,
    /// An exact model and its solver.
    Exact(ExactMethod),
    /// Constructions and improvements (`docs/results/edge-heuristics.md`).
    Heuristic(HeuristicMethod),
}

/// An exact edge-matching model and the solver of its kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExactMethod {
    /// The model, with its options.
    pub model: ExactModel,
    /// A solver of the model's kind (`None`: the model's default).
    pub solver: Option<String>,
}

/// The exact edge-matching models, each with the options it takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExactModel {
    /// Salassa et al.'s MILP.
    Milp(EdgeMilpOptions),
    /// The max-clique graph.
    Clique,
    /// The CNF of perfect boards.
    Sat(EdgeMilpOptions),
    /// The weighted CNF of legal boards.
    Maxsat(EdgeMilpOptions),
}

impl ExactModel {
    /// The route that solves it.
    pub fn route(self) -> Route {
        match self {
            ExactModel::Milp(_) => Route::Milp,
            ExactModel::Clique => Route::Clique,
            ExactModel::Sat(_) => Route::Sat,
            ExactModel::Maxsat(_) => Route::Maxsat,
        }
    }

    /// The model options (none for the clique graph).
    pub fn options(self) -> EdgeMilpOptions {
        match self {
            ExactModel::Milp(o) | ExactModel::Sat(o) | ExactModel::Maxsat(o) => o,
            ExactModel::Clique => EdgeMilpOptions::default(),
        }
    }
}

/// The heuristic route's options.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HeuristicMethod {
    /// The construction, improvement, start board, seed and fixed pieces (`default`: the
    /// preset's).
    pub choice: HeuristicChoice,
    /// The MILP solver of the region MILPs (greedy, backtrack, the local search).
    pub solver: Option<String>,
}
