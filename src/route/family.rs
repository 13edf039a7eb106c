//! What a puzzle family is to the commands: a [`Family`] row of plain functions (detect,
//! export, solve, verify, render), the [`Instance`] they are handed, and the family-neutral
//! requests. The rows live in the families' own files (`route::sliding::FAMILY`,
//! `route::edge::FAMILY`); the table of them and the front door that reads an instance and
//! dispatches are in [`super::families`]. This file knows no family, so the family files can
//! use it without a circle.
//!
//! The requests here are typed by family where their options are: a solve carries a
//! [`Method`], an export, a verification or a drawing a [`FamilyOptions`]. A front end maps
//! its own option names onto them and refuses, in its own words, what an instance's family
//! has no place for; the families refuse the rest (another family's options) here.

use super::method::Method;
use super::{Error, FamilyName, ModelName, Progress, Report};
use crate::error::InputError;
use crate::field::Field;
use crate::format::Format;
use crate::format::neos_job::InputMethod;
use crate::puzzle::sliding::{Goal, Move};
use crate::solve::Limits;
use std::path::PathBuf;

/// One puzzle family as the commands see it: how its instance files are recognised and what
/// each command does with one. Every function gets the instance already read.
pub struct Family {
    /// The family's name (the `family` option, and the `family` field of reports).
    pub name: FamilyName,
    /// The family in words, plural (`sliding-tile puzzles`), for messages.
    pub noun: &'static str,
    /// One instance in words (`a sliding-tile puzzle`), for messages.
    pub one: &'static str,
    /// Does `text` look like this family's instance file?
    pub detect: fn(&str) -> Detect,
    /// `tilekit export`: writes the model, or asks the front door for a NEOS job document.
    pub export: fn(&Instance, &ExportRequest, Progress<'_>) -> Result<Exported, Error>,
    /// `tilekit solve`.
    pub solve: fn(&Instance, &SolveRequest, Progress<'_>) -> Result<Solved, Error>,
    /// `tilekit verify`.
    pub verify: fn(&Instance, &VerifyRequest, Progress<'_>) -> Result<Verified, Error>,
    /// `tilekit render`: the SVG, and what the picture alone does not say.
    pub render: fn(&Instance, &RenderRequest) -> Result<Rendered, Error>,
}

/// What a family makes of a file's content.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detect {
    /// This family's file, for the reason given.
    Yes(&'static str),
    /// Not well-formed for this family, but close (a parse error elsewhere should mention it).
    Resembles,
    /// Not this family's.
    No,
}

impl std::fmt::Debug for Family {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Family").field("name", &self.name).finish()
    }
}

/// An instance file, read once (and at most [`super::MAX_INPUT_BYTES`]), with the family it
/// belongs to and how that was decided.
#[derive(Debug)]
pub struct Instance {
    /// The path as given.
    pub path: PathBuf,
    /// The file's text.
    pub text: String,
    /// Its family.
    pub family: &'static Family,
    /// Why the content was taken for this family; `None` when the request named the family.
    pub detected: Option<&'static str>,
    /// Other families the content resembles (named in a parse error).
    pub resembles: Vec<&'static Family>,
}

impl Instance {
    /// The name errors give the file.
    pub fn source(&self) -> String {
        self.path.display().to_string()
    }

    /// Parse the text with the family's parser. When the family was detected and the
    /// content resembles another family's file, an error says what the file was read as,
    /// why, and how to name the other family.
    pub fn parse<T>(
        &self,
        parse: impl FnOnce(&str, &str) -> Result<T, InputError>,
    ) -> Result<T, Error> {
        parse(&self.text, &self.source()).map_err(|mut e| {
            e.message = self.with_hint(std::mem::take(&mut e.message));
            Error::Input(e)
        })
    }

    /// `e`, a usage error (a route or an option the family lacks), with the hint
    /// [`Instance::parse`] gives when the family was detected and the content resembles
    /// another's: the option may be right and the detection wrong.
    pub fn hint(&self, e: Error) -> Error {
        match e {
            Error::Usage(m) => Error::Usage(self.with_hint(m)),
            e => e,
        }
    }

    fn with_hint(&self, message: String) -> String {
        match (self.detected, self.resembles.first()) {
            (Some(why), Some(other)) => format!(
                "{message} (read as {} because {why}; it resembles {}: pass {} {} if it is one)",
                self.family.one,
                other.one,
                Field::Family,
                other.name.name()
            ),
            _ => message,
        }
    }
}

/// What a family's export did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Exported {
    /// The model file is written; what it holds.
    Written(super::size::Counts),
    /// The `neos` format: the front door writes a NEOS job document carrying this MILP (the
    /// horizon already resolved where the family has one).
    NeosJob {
        /// The MILP.
        model: ModelName,
        /// Time steps, for time-indexed models.
        horizon: Option<usize>,
    },
}

/// A horizon as given: a number of steps, or `auto`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Horizon {
    /// This many time steps.
    Steps(usize),
    /// The native solver's optimum: the smallest horizon at which a time-indexed model is
    /// feasible.
    Auto,
}

/// The options of one family's models and files: a sliding puzzle's goal and horizon, an
/// edge-matching MILP's filter and fixed corner. An instance of the other family refuses
/// them ([`FamilyOptions::sliding`], [`FamilyOptions::edge`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum FamilyOptions {
    /// Each family's defaults.
    #[default]
    Default,
    /// Sliding puzzles.
    Sliding(SlidingOptions),
    /// Edge-matching puzzles: the options of the MILP and of the models that share its
    /// variables (CNF, WCNF).
    Edge(crate::formulate::edge_milp::EdgeMilpOptions),
}

/// A sliding puzzle's options.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SlidingOptions {
    /// Where the blank ends (default blank-last, the case study's convention).
    pub goal: Goal,
    /// The time-indexed models' number of steps (`None`: the board size's diameter).
    pub horizon: Option<Horizon>,
}

impl FamilyOptions {
    /// The sliding options, or the usage error an edge-matching option on a sliding puzzle
    /// is.
    pub fn sliding(&self) -> Result<SlidingOptions, Error> {
        match self {
            FamilyOptions::Default => Ok(SlidingOptions::default()),
            FamilyOptions::Sliding(o) => Ok(*o),
            FamilyOptions::Edge(_) => Err(Error::usage(
                "edge-matching model options do not apply to sliding-tile puzzles",
            )),
        }
    }

    /// The edge-matching options, or the usage error a sliding option on an edge-matching
    /// puzzle is.
    pub fn edge(&self) -> Result<crate::formulate::edge_milp::EdgeMilpOptions, Error> {
        match self {
            FamilyOptions::Default => Ok(Default::default()),
            FamilyOptions::Edge(o) => Ok(*o),
            FamilyOptions::Sliding(_) => Err(Error::usage(
                "a goal and a horizon do not apply to edge-matching puzzles",
            )),
        }
    }
}

/// The NEOS job options of an export in the `neos` format.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NeosJobFlags {
    /// How the model travels (default MPS).
    pub input: Option<InputMethod>,
    /// The NEOS solver (default cbc).
    pub solver: Option<String>,
    /// The e-mail address NEOS requires (else `$NEOS_EMAIL`).
    pub email: Option<String>,
}

/// `tilekit export`, as the flags say it.
#[derive(Debug, Clone, Default)]
pub struct ExportRequest {
    /// The model; `None`: the family's default model.
    pub model: Option<ModelName>,
    /// The file format; `None`: from the output's extension, else the model's own.
    pub format: Option<Format>,
    /// The output file (`None` or `-`: stdout).
    pub output: Option<PathBuf>,
    /// Edge clique: write the model as its conflict graph.
    pub complement: bool,
    /// Edge region: `R0,C0,R1,C1`, the rectangle's corners (0-based, inclusive).
    pub region: Option<[usize; 4]>,
    /// Edge region: the board the region is cut from.
    pub partial: Option<PathBuf>,
    /// The NEOS job flags.
    pub neos: NeosJobFlags,
    /// The family flags.
    pub options: FamilyOptions,
    /// An MPS file's `NAME` (`None`: the formulation's own, which models of one size share).
    pub name: Option<String>,
}

impl ExportRequest {
    fn neos_given(&self) -> Vec<Field> {
        let mut g = Vec::new();
        if self.neos.input.is_some() {
            g.push(Field::NeosInput);
        }
        if self.neos.solver.is_some() {
            g.push(Field::NeosSolver);
        }
        if self.neos.email.is_some() {
            g.push(Field::Email);
        }
        g
    }

    /// Refuse the edge-matching export options (the conflict graph, a region) for a family
    /// that has none.
    pub fn refuse_edge_options(&self, family: &Family) -> Result<(), Error> {
        let given = [
            (self.complement, Field::Complement),
            (self.region.is_some(), Field::Region),
            (self.partial.is_some(), Field::Partial),
        ];
        match given.iter().find(|(on, _)| *on) {
            Some((_, f)) => Err(Error::Usage(format!(
                "{f} does not apply to {}: leave it out",
                family.noun
            ))),
            None => Ok(()),
        }
    }

    /// The NEOS job options belong to the `neos` format only.
    pub fn check_neos_flags(&self, format: Format) -> Result<(), Error> {
        match self.neos_given().first() {
            Some(field) if format != Format::Neos => Err(Error::Usage(format!(
                "{field} belongs to {} neos (a NEOS job document), not {}",
                Field::Format,
                format.name()
            ))),
            _ => Ok(()),
        }
    }
}

/// `tilekit solve`: the method, and what every method shares.
#[derive(Debug, Clone)]
pub struct SolveRequest {
    /// How to solve; [`Method::Recommended`] leaves it to the family.
    pub method: Method,
    /// The time limit and the threads.
    pub limits: Limits,
    /// An explicit registry file (else `$TILEKIT_SOLVERS`, `./solvers.toml`, the built-in one).
    pub solvers_file: Option<PathBuf>,
    /// The bundle of choices the method starts from.
    pub preset: super::params::Preset,
    /// Research parameters by key, one by one or from a file, applied by the method they tune.
    pub settings: super::params::Settings,
    /// Where a long search keeps the best solution so far, rewritten on every improvement.
    pub best_so_far: Option<PathBuf>,
}

impl SolveRequest {
    /// `method` under `limits`, everything else left to its default.
    pub fn new(method: Method, limits: Limits) -> Self {
        SolveRequest {
            method,
            limits,
            solvers_file: None,
            preset: Default::default(),
            settings: Default::default(),
            best_so_far: None,
        }
    }
}

/// What `solve` found: the report, and the verified solution as the family writes it to the
/// output file.
#[derive(Debug, Clone)]
pub struct Solved {
    /// The report.
    pub report: Report,
    /// The verified solution in the family's own file format (moves, a board).
    pub solution_text: Option<String>,
}

/// `tilekit verify`, as the flags say it.
#[derive(Debug, Clone)]
pub struct VerifyRequest {
    /// The solution file: the family's own, or a raw solver output.
    pub solution: PathBuf,
    /// The model a raw solver output belongs to.
    pub model: Option<ModelName>,
    /// The family flags (those the model was exported with).
    pub options: FamilyOptions,
}

/// What `verify` found, worded both ways.
#[derive(Debug, Clone, PartialEq)]
pub struct Verified {
    /// The solution passed every check.
    pub valid: bool,
    /// One line for people.
    pub text: String,
    /// One JSON object.
    pub json: String,
}

impl Verified {
    /// The verdict as `verify` prints it.
    pub fn render(&self, json: bool) -> &str {
        if json { &self.json } else { &self.text }
    }
}

/// `tilekit render`, as the flags say it.
#[derive(Debug, Clone, Default)]
pub struct RenderRequest {
    /// A solution to draw (the family's own file format).
    pub solution: Option<PathBuf>,
    /// Edge: piece numbers on the board.
    pub ids: bool,
    /// The family flags.
    pub options: FamilyOptions,
}

/// What `tilekit render` drew.
#[derive(Debug, Clone, PartialEq)]
pub struct Rendered {
    /// The SVG document.
    pub svg: String,
    /// What a reader must know that the picture alone does not say (a plan that stops short
    /// of the goal, say), one sentence each.
    pub notes: Vec<String>,
}

/// Where the MILP route's starting plan comes from (`incumbent`). The plan, of L moves, is
/// replayed by the independent checker; the MILP then decides whether a plan of at most
/// L − 2 moves exists (plan lengths share one parity, so that is every shorter plan): the
/// model at horizon L − 2 is infeasible, and the plan is optimal, or the MILP's optimum there
/// is a shorter plan, optimal too. This is the standard use of an incumbent (a MIP start
/// and its objective cutoff) made explicit in the model: a generous horizon costs nothing
/// past the incumbent, and the proof of the lower bound is the MILP solver's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Incumbent {
    /// The native IDA* plan: optimal by the search's own proof, which the MILP then proves
    /// again (the `tight` model embeds an admissible bound of the same kind as IDA*'s; the
    /// `neos` and `flow` models none). No MILP runs when the plan meets that bound.
    Native,
    /// Weighted A* (w = [`INCUMBENT_WEIGHT`]) on the pattern databases: a quick plan, not
    /// necessarily optimal.
    Astar,
    /// A move file (from another solver, say).
    File(PathBuf),
    /// A move file already read (the command reads it before anything runs).
    Moves {
        /// The file's moves.
        moves: Vec<Move>,
        /// The file.
        from: PathBuf,
    },
}

/// The weight of the weighted A* of [`Incumbent::Astar`].
pub const INCUMBENT_WEIGHT: f64 = 2.0;

impl Incumbent {
    /// `native`, `astar`, or a move file's path.
    pub fn parse(text: &str) -> Self {
        match text {
            "native" => Incumbent::Native,
            "astar" => Incumbent::Astar,
            path => Incumbent::File(PathBuf::from(path)),
        }
    }

    /// How the report names it.
    pub fn describe(&self) -> String {
        match self {
            Incumbent::Native => "the native IDA* plan".into(),
            Incumbent::Astar => format!("the weighted A* plan (w = {INCUMBENT_WEIGHT})"),
            Incumbent::File(p) | Incumbent::Moves { from: p, .. } => {
                format!("the plan in {}", p.display())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_of_the_other_family_are_refused() {
        let sliding = FamilyOptions::Sliding(SlidingOptions {
            goal: Goal::BlankFirst,
            horizon: Some(Horizon::Steps(3)),
        });
        assert_eq!(sliding.edge().unwrap_err().exit_code(), 2);
        assert_eq!(sliding.sliding().unwrap().goal, Goal::BlankFirst);
        let edge = FamilyOptions::Edge(Default::default());
        assert_eq!(edge.sliding().unwrap_err().exit_code(), 2);
        assert_eq!(
            FamilyOptions::Default.sliding().unwrap(),
            SlidingOptions::default()
        );
        let req = ExportRequest {
            complement: true,
            ..Default::default()
        };
        let err = req
            .refuse_edge_options(&super::super::sliding::FAMILY)
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "`complement` does not apply to sliding-tile puzzles: leave it out"
        );
    }

    #[test]
    fn neos_flags_belong_to_the_neos_format() {
        let req = ExportRequest {
            neos: NeosJobFlags {
                input: Some(InputMethod::Lp),
                ..Default::default()
            },
            ..Default::default()
        };
        assert!(req.check_neos_flags(Format::Neos).is_ok());
        let err = req.check_neos_flags(Format::Lp).unwrap_err().to_string();
        assert!(
            err.starts_with("`neos.input` belongs to `format` neos"),
            "{err}"
        );
    }
}
