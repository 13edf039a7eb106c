//! Puzzle → model formulations, one file per formulation citing its source; each also decodes
//! solver values back to a puzzle solution.
//!
//! The seam routes use is four small traits, one per model kind: [`MilpFormulation`],
//! [`CnfFormulation`], [`WcnfFormulation`] and [`GraphFormulation`]. A new formulation is a file here that builds
//! its model and implements one of them, plus a row in its family's table (`route::sliding`
//! or `route::edge`).

pub mod edge_clique;
pub mod edge_maxsat;
pub mod edge_milp;
pub mod edge_placements;
pub mod edge_region;
pub mod edge_sat;
pub mod sliding_case_study;
pub mod sliding_flow;
pub mod sliding_sat;
pub mod sliding_tight;

use crate::model::cnf::Cnf;
use crate::model::graph::StreamedGraph;
use crate::model::milp::Model;
use crate::model::wcnf::Wcnf;
use crate::puzzle::edge::Board;
use crate::puzzle::sliding::Move;

/// Why solver values do not decode into a puzzle solution (each formulation's own decode
/// error, as its message: routes only ever report it).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct DecodeError(pub String);

impl DecodeError {
    /// From any formulation's own error.
    pub fn from_display(e: impl std::fmt::Display) -> Self {
        DecodeError(e.to_string())
    }
}

/// A formulation whose model is a MILP.
pub trait MilpFormulation {
    /// What a point decodes to (a plan, a board).
    type Solution;
    /// The model.
    fn model(&self) -> &Model;
    /// Decode column values (in model order) into a puzzle solution.
    fn decode(&self, x: &[f64]) -> Result<Self::Solution, DecodeError>;
}

/// A formulation whose model is a CNF.
pub trait CnfFormulation {
    /// What a satisfying assignment decodes to.
    type Solution;
    /// The formula.
    fn cnf(&self) -> &Cnf;
    /// Decode an assignment (one value per variable) into a puzzle solution.
    fn decode(&self, model: &[bool]) -> Result<Self::Solution, DecodeError>;
}

/// A formulation whose model is a weighted CNF (partial MaxSAT): its hard clauses say what a
/// solution is, the falsified soft weights what it costs.
pub trait WcnfFormulation {
    /// What a model of the hard clauses decodes to.
    type Solution;
    /// The formula.
    fn wcnf(&self) -> &Wcnf;
    /// Decode an assignment (one value per variable) into a puzzle solution.
    fn decode(&self, model: &[bool]) -> Result<Self::Solution, DecodeError>;
    /// True when the hard clauses have a model by construction, whatever the instance: a
    /// solver answering "unsatisfiable" then contradicts the formulation, and is wrong.
    fn hard_satisfiable(&self) -> bool;
}

/// A formulation whose model is a graph in which a clique of [`target_size`] nodes is a
/// solution.
///
/// [`target_size`]: GraphFormulation::target_size
pub trait GraphFormulation: StreamedGraph + Sync {
    /// What a clique decodes to.
    type Solution;
    /// The clique size a solution needs.
    fn target_size(&self) -> usize;
    /// Decode a clique (0-based nodes) into a puzzle solution.
    fn decode(&self, clique: &[usize]) -> Result<Self::Solution, DecodeError>;
}

impl MilpFormulation for sliding_case_study::NeosModel {
    type Solution = Vec<Move>;
    fn model(&self) -> &Model {
        &self.model
    }
    fn decode(&self, x: &[f64]) -> Result<Vec<Move>, DecodeError> {
        sliding_case_study::NeosModel::decode(self, x).map_err(DecodeError::from_display)
    }
}

impl MilpFormulation for sliding_flow::FlowModel {
    type Solution = Vec<Move>;
    fn model(&self) -> &Model {
        &self.model
    }
    fn decode(&self, x: &[f64]) -> Result<Vec<Move>, DecodeError> {
        sliding_flow::FlowModel::decode(self, x).map_err(DecodeError::from_display)
    }
}

impl CnfFormulation for sliding_sat::SlidingSat {
    type Solution = Vec<Move>;
    fn cnf(&self) -> &Cnf {
        sliding_sat::SlidingSat::cnf(self)
    }
    fn decode(&self, model: &[bool]) -> Result<Vec<Move>, DecodeError> {
        sliding_sat::SlidingSat::decode(self, model).map_err(DecodeError::from_display)
    }
}

impl MilpFormulation for edge_milp::EdgeMilp {
    type Solution = Board;
    fn model(&self) -> &Model {
        &self.model
    }
    fn decode(&self, x: &[f64]) -> Result<Board, DecodeError> {
        edge_milp::EdgeMilp::decode(self, x).map_err(DecodeError::from_display)
    }
}

impl MilpFormulation for edge_region::EdgeRegion {
    type Solution = Board;
    fn model(&self) -> &Model {
        &self.model
    }
    fn decode(&self, x: &[f64]) -> Result<Board, DecodeError> {
        edge_region::EdgeRegion::decode(self, x).map_err(DecodeError::from_display)
    }
}

impl CnfFormulation for edge_sat::EdgeSat {
    type Solution = Board;
    fn cnf(&self) -> &Cnf {
        edge_sat::EdgeSat::cnf(self)
    }
    fn decode(&self, model: &[bool]) -> Result<Board, DecodeError> {
        edge_sat::EdgeSat::decode(self, model).map_err(DecodeError::from_display)
    }
}

impl WcnfFormulation for edge_maxsat::EdgeMaxsat {
    type Solution = Board;
    fn wcnf(&self) -> &Wcnf {
        edge_maxsat::EdgeMaxsat::wcnf(self)
    }
    fn decode(&self, model: &[bool]) -> Result<Board, DecodeError> {
        edge_maxsat::EdgeMaxsat::decode(self, model).map_err(DecodeError::from_display)
    }
    /// A puzzle that parsed has the corner, edge and inner pieces its rim and inside need,
    /// so a legal board exists (R2 only chooses which corner the first corner piece takes),
    /// and every legal board is a model with its seams' guards false.
    fn hard_satisfiable(&self) -> bool {
        true
    }
}

impl GraphFormulation for edge_clique::EdgeClique {
    type Solution = Board;
    fn target_size(&self) -> usize {
        edge_clique::EdgeClique::target_size(self)
    }
    fn decode(&self, clique: &[usize]) -> Result<Board, DecodeError> {
        edge_clique::EdgeClique::decode(self, clique).map_err(DecodeError::from_display)
    }
}
