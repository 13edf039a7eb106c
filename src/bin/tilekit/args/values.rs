//! The value types flags take, and their conversion to the library's own: every closed set
//! of values is a `ValueEnum` (so `--help` lists them and clap refuses the rest), or a parser
//! over the library's own name lists (a new model or route adds its name there, not here).

use clap::ValueEnum;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use tilekit::format::Format;
use tilekit::format::neos_job::InputMethod;
use tilekit::formulate::sliding_sat::Encoding;
use tilekit::puzzle::sliding::Goal;
use tilekit::route::sliding::Horizon;
use tilekit::route::{FamilyName, ModelName, Route};

/// `--family`: the library's families (a new family adds its name there, not here).
pub(crate) fn family_names() -> impl TypedValueParser<Value = FamilyName> {
    PossibleValuesParser::new(FamilyName::ALL.map(FamilyName::name))
        .map(|s| FamilyName::from_name(&s).expect("clap accepts only the listed names"))
}

/// Goal conventions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GoalArg {
    /// Tiles 1..n in order, blank last (the case study's).
    BlankLast,
    /// Blank first, then tiles 1..n (Korf's).
    BlankFirst,
}

impl From<GoalArg> for Goal {
    fn from(g: GoalArg) -> Goal {
        match g {
            GoalArg::BlankLast => Goal::BlankLast,
            GoalArg::BlankFirst => Goal::BlankFirst,
        }
    }
}

/// `--model`: the library's model names (a new formulation adds its name there, not here).
pub(crate) fn model_names() -> impl TypedValueParser<Value = ModelName> {
    PossibleValuesParser::new(ModelName::ALL.map(ModelName::name))
        .map(|s| ModelName::from_name(&s).expect("clap accepts only the listed names"))
}

/// `--via`: the library's routes.
pub(crate) fn route_names() -> impl TypedValueParser<Value = Route> {
    PossibleValuesParser::new(Route::ALL.map(Route::name))
        .map(|s| Route::from_name(&s).expect("clap accepts only the listed names"))
}

/// `--format`: the library's formats, with their aliases (`clq`, `col`, `xml`).
pub(crate) fn format_names() -> impl TypedValueParser<Value = Format> {
    PossibleValuesParser::new(
        Format::ALL.map(|f| PossibleValue::new(f.name()).aliases(f.aliases().iter().copied())),
    )
    .map(|s| Format::from_name(&s).expect("clap accepts only the listed names"))
}

/// How a NEOS job carries its model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum InputArg {
    /// Free MPS.
    Mps,
    /// CPLEX LP.
    Lp,
    /// GAMS (the algebraic model).
    #[value(alias = "gms")]
    Gams,
}

impl From<InputArg> for InputMethod {
    fn from(i: InputArg) -> InputMethod {
        match i {
            InputArg::Mps => InputMethod::Mps,
            InputArg::Lp => InputMethod::Lp,
            InputArg::Gams => InputMethod::Gams,
        }
    }
}

/// SAT encodings of the sliding puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum EncodingArg {
    /// Every position variable.
    Plain,
    /// Unreachable positions left out.
    Pruned,
    /// Pruned, plus a redundant Manhattan cardinality constraint.
    Strong,
    /// Strong, plus lower-bound clauses from small pattern databases (tile + blank, two tiles
    /// of a goal line + blank) and linear conflicts on the Manhattan counter.
    Pdb,
}

impl From<EncodingArg> for Encoding {
    fn from(e: EncodingArg) -> Encoding {
        match e {
            EncodingArg::Plain => Encoding::Plain,
            EncodingArg::Pruned => Encoding::Pruned,
            EncodingArg::Strong => Encoding::Strong,
            EncodingArg::Pdb => Encoding::Pdb,
        }
    }
}

/// Pattern-database partitions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum PdbArg {
    /// 15-puzzle, Korf & Felner's 7-8.
    #[value(name = "7-8")]
    P78,
    /// 15-puzzle, the 7-8 split by columns (outer 7, middle 8).
    #[value(name = "7-8-cols")]
    P78Cols,
    /// 15-puzzle, 7-7-1.
    #[value(name = "7-7-1")]
    P771,
    /// 15-puzzle, 6-6-3.
    #[value(name = "6-6-3")]
    P663,
    /// 24-puzzle, 6-6-6-6.
    #[value(name = "6-6-6-6")]
    P6666,
    /// Manhattan distance + linear conflict.
    None,
}

impl PdbArg {
    /// The library's name for the partition.
    pub(crate) fn name(self) -> &'static str {
        match self {
            PdbArg::P78 => "7-8",
            PdbArg::P78Cols => "7-8-cols",
            PdbArg::P771 => "7-7-1",
            PdbArg::P663 => "6-6-3",
            PdbArg::P6666 => "6-6-6-6",
            PdbArg::None => "none",
        }
    }
}

pub(crate) fn parse_horizon(s: &str) -> Result<Horizon, String> {
    if s == "auto" {
        return Ok(Horizon::Auto);
    }
    s.parse().map(Horizon::Steps).map_err(|_| {
        "expected a whole number of time steps or `auto` (the native solver's optimum)".to_string()
    })
}
