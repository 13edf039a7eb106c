//! The models of each family, by name: which formats each is written in, which route
//! solves it and with which solver by default. One set of enums, read by the family tables
//! (`route::sliding`, `route::edge`) and by the size estimates (`route::size`) alike.

use super::method::MilpModel;
use super::{Error, ModelName, Route};
use crate::field::Field;
use crate::format::Format;
use crate::solve::registry::Registry;

/// Sliding-puzzle formulations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SlidingModel {
    /// The NEOS case study's time-indexed MILP, faithful.
    Neos,
    /// The strengthened binary flow MILP.
    Flow,
    /// The flow MILP tightened for generous horizons (moves first, fixings, distance cuts,
    /// the native heuristic's bound).
    Tight,
    /// Planning as SAT (CNF).
    Sat,
}

impl SlidingModel {
    /// The model a [`ModelName`] names, or the message listing the ones this family has.
    pub fn of(name: ModelName) -> Result<Self, Error> {
        match name {
            ModelName::Neos => Ok(SlidingModel::Neos),
            ModelName::Flow => Ok(SlidingModel::Flow),
            ModelName::Tight => Ok(SlidingModel::Tight),
            ModelName::Sat => Ok(SlidingModel::Sat),
            other => Err(Error::Usage(format!(
                "{f_model} {} is not known for sliding puzzles: use neos, flow, tight or sat",
                other.name(),
                f_model = Field::Model
            ))),
        }
    }
    /// The MILP model this is (`None`: the SAT model).
    pub fn milp(self) -> Option<MilpModel> {
        match self {
            SlidingModel::Neos => Some(MilpModel::Neos),
            SlidingModel::Flow => Some(MilpModel::Flow),
            SlidingModel::Tight => Some(MilpModel::Tight),
            SlidingModel::Sat => None,
        }
    }
    /// The name reports and flags use.
    pub fn name(self) -> &'static str {
        match self {
            SlidingModel::Neos => "neos",
            SlidingModel::Flow => "flow",
            SlidingModel::Tight => "tight",
            SlidingModel::Sat => "sat",
        }
    }
    /// The format written when neither `format` nor the output file's extension says.
    pub fn default_format(self) -> Format {
        match self {
            SlidingModel::Sat => Format::Cnf,
            _ => Format::Lp,
        }
    }
    /// True when this model can be written as `f` (a NEOS job carries a MILP).
    pub fn writes(self, f: Format) -> bool {
        matches!(
            (self, f),
            (
                SlidingModel::Neos,
                Format::Lp | Format::Mps | Format::Gms | Format::Neos
            ) | (
                SlidingModel::Flow | SlidingModel::Tight,
                Format::Lp | Format::Mps | Format::Neos | Format::Opb
            ) | (SlidingModel::Sat, Format::Cnf)
        )
    }
}

/// Edge-matching formulations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EdgeModel {
    /// Salassa et al.'s MILP (1)–(14), faithful unless `filter` / `fix_corner`.
    Milp,
    /// The max-clique graph (DIMACS).
    Clique,
    /// A CNF whose models are the perfect boards.
    Sat,
    /// A weighted CNF whose hard models are the legal boards, costing their unmatched seams.
    Maxsat,
}

impl EdgeModel {
    /// The model a [`ModelName`] names, or the message listing the ones this family has.
    pub fn of(name: ModelName) -> Result<Self, Error> {
        match name {
            ModelName::Milp => Ok(EdgeModel::Milp),
            ModelName::Clique => Ok(EdgeModel::Clique),
            ModelName::Sat => Ok(EdgeModel::Sat),
            ModelName::Maxsat => Ok(EdgeModel::Maxsat),
            ModelName::Region => Err(Error::usage(format!(
                "{f_model} region is exported (tilekit export {f_model} region {f_region} R0,C0,R1,C1 {f_partial} BOARD) and solved inside {f_via} heuristic",
                f_model = Field::Model,
                f_region = Field::Region,
                f_partial = Field::Partial,
                f_via = Field::Via
            ))),
            other => Err(Error::Usage(format!(
                "{f_model} {} is not known for edge-matching puzzles: use milp, clique, sat or maxsat",
                other.name(),
                f_model = Field::Model
            ))),
        }
    }
    /// The name reports and flags use.
    pub fn name(self) -> &'static str {
        match self {
            EdgeModel::Milp => "milp",
            EdgeModel::Clique => "clique",
            EdgeModel::Sat => "sat",
            EdgeModel::Maxsat => "maxsat",
        }
    }
    /// The format written when none is asked for.
    pub fn default_format(self) -> Format {
        match self {
            EdgeModel::Milp => Format::Lp,
            EdgeModel::Clique => Format::Dimacs,
            EdgeModel::Sat => Format::Cnf,
            EdgeModel::Maxsat => Format::Wcnf,
        }
    }
    /// The route that solves this model.
    pub fn route(self) -> Route {
        match self {
            EdgeModel::Milp => Route::Milp,
            EdgeModel::Clique => Route::Clique,
            EdgeModel::Sat => Route::Sat,
            EdgeModel::Maxsat => Route::Maxsat,
        }
    }
    /// The solver used when none is named: for the MILP the registry's choice
    /// ([`Registry::choose_milp`]); for the clique graph the embedded mcq, which proved META
    /// 6×6 in 0.7 s where cliquer took 8.6 s, and 5×5 in under 0.01 s against 0.08 s
    /// (`docs/results/edge-exact.md#the-embedded-clique-search`); varisat and rc2 for the rest.
    pub fn default_solver(self, reg: &Registry) -> String {
        match self {
            EdgeModel::Milp => reg.choose_milp(),
            EdgeModel::Clique => "mcq".into(),
            EdgeModel::Sat => "varisat".into(),
            EdgeModel::Maxsat => "rc2".into(),
        }
    }
    /// The formats this model is written in (a NEOS job carries the MILP).
    pub(crate) fn formats(self) -> (&'static [Format], &'static str) {
        match self {
            EdgeModel::Milp => (
                &[
                    Format::Lp,
                    Format::Mps,
                    Format::Gms,
                    Format::Opb,
                    Format::Neos,
                ],
                "lp, mps, gms or opb",
            ),
            EdgeModel::Clique => (&[Format::Dimacs], "dimacs (also .clq or .col)"),
            EdgeModel::Sat => (&[Format::Cnf], "cnf"),
            EdgeModel::Maxsat => (
                &[Format::Wcnf, Format::WcnfLegacy, Format::Wbo],
                "wcnf (MaxSAT Evaluation 2022), wcnf-legacy (p wcnf) or wbo (pseudo-Boolean)",
            ),
        }
    }
}
