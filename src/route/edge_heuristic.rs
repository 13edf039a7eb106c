//! The heuristic route for edge-matching puzzles: Salassa et al.'s construction (greedy or
//! backtracking region MILPs, or a random board) and their multi-neighbourhood local search
//! ([`crate::edge_search`]), through any MILP solver of the registry. Anytime: the best board so
//! far is kept in `best_so_far` (written beside it and renamed), progress says the score, the
//! elapsed time and the step, and the final board is judged by the independent
//! [`BoardChecker`] before it is reported.

use super::params::{self, ParamError, Preset, Settings};
use super::report::HeuristicStats;
use super::{Details, Error, FamilyName, Progress, Report, Solution, Status};
use crate::edge_search::construct::{self, Built, RegionShape};
use crate::edge_search::core::{Core, ScanOrder};
use crate::edge_search::dfs::DfsCheckpoint;
use crate::edge_search::dfs::{BreakSpec, DfsParams, finish_back_for};
use crate::edge_search::local::{LsParams, TraceRow};
use crate::edge_search::quota::QuotaSpec;
use crate::edge_search::scan::ExactCheckpoint;
use crate::edge_search::{Ctx, HeuristicError, Rng, matched};
use crate::field::Field;
use crate::formulate::edge_region::RegionError;
use crate::puzzle::edge::{Board, EdgePuzzle, Rotation};
use crate::solve::registry::Registry;
use crate::verify::Checker;
use crate::verify::edge::BoardChecker;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The share of the memory available that a beam (the construction's, or the LNS workers'
/// rebuilds together) may take: the rest is the board, the tables and everything else.
const BEAM_MEMORY_SHARE: f64 = 0.5;

/// The constructions by name: what builds the first complete board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConstructKind {
    /// Algorithm 1: each region filled optimally in turn.
    Greedy,
    /// Algorithm 2: perfect regions with backtracking, then greedy at its time limit.
    Backtrack,
    /// Every piece class shuffled into its cells (the paper's Table 4 start).
    Random,
    /// Beam search over a scan order ([`crate::edge_search::beam`]).
    Beam,
    /// Depth-first search with a late mismatch budget ([`crate::edge_search::dfs`]).
    Dfs,
    /// Complete depth-first search for a perfect board ([`crate::edge_search::scan::exact`]).
    Exact,
}

impl ConstructKind {
    /// Every construction, in the order help lists them.
    pub const ALL: [ConstructKind; 6] = [
        ConstructKind::Greedy,
        ConstructKind::Backtrack,
        ConstructKind::Random,
        ConstructKind::Beam,
        ConstructKind::Dfs,
        ConstructKind::Exact,
    ];

    /// The construction called `name`.
    pub fn from_name(name: &str) -> Option<ConstructKind> {
        ConstructKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            ConstructKind::Greedy => "greedy",
            ConstructKind::Backtrack => "backtrack",
            ConstructKind::Random => "random",
            ConstructKind::Beam => "beam",
            ConstructKind::Dfs => "dfs",
            ConstructKind::Exact => "exact",
        }
    }
}

/// The share of the DFS's budget that the exact search gets first: enough to prove in a
/// moment that clashing clues leave no perfect board, or to find a small planted board
/// (Brendan Owen's 7×7 in 0.3 s on 2 threads), and little enough to cost the DFS nothing
/// measurable elsewhere (META 10×10 in 60 s: the same scores). The DFS's restarts found a
/// generated 8×8 board sooner than the exact search did, so the share is kept small
/// (`docs/results/edge-record.md#the-dfs-after-the-exact-search`).
pub const EXACT_SHARE: f64 = 0.02;

/// What the beam and the DFS share.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchParams {
    /// The order cells are filled in (`search.scan`).
    pub scan: ScanOrder,
    /// Rank children by matched seams less the colour-supply penalty (`search.lookahead`).
    pub lookahead: bool,
    /// The construction's own budget (`search.time`); `None`: the whole time limit without
    /// an improvement, half of it with one.
    pub time: Option<Duration>,
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            scan: ScanOrder::Comb(usize::MAX),
            lookahead: false,
            time: None,
        }
    }
}

/// How the first complete board is built, each way with its own parameters: a parameter of
/// another construction cannot be given to it.
#[derive(Debug, Clone, PartialEq)]
pub enum Construct {
    /// Algorithm 1 over regions of this shape (`greedy.region`).
    Greedy {
        /// The region shape.
        region: RegionShape,
    },
    /// Algorithm 2 over regions of this shape, greedy after `time` (`backtrack.time`;
    /// `None`: half the time limit).
    Backtrack {
        /// The region shape.
        region: RegionShape,
        /// Its own limit.
        time: Option<Duration>,
    },
    /// A random legal board.
    Random,
    /// Beam search: one pass of `width` (`beam.width`), or passes of doubling width from
    /// 1024 while the time lasts.
    Beam {
        /// One pass of this width.
        width: Option<usize>,
        /// Scan order, look-ahead, budget.
        search: SearchParams,
    },
    /// Late-break depth-first search with restarts.
    Dfs {
        /// The mismatch budget (`dfs.breaks`; `None`: [`BreakSpec::default_for`]).
        breaks: Option<BreakSpec>,
        /// The colour quota (`dfs.quota`; `None`: none).
        quota: Option<QuotaSpec>,
        /// Deepest partial boards finished per restart (`dfs.finishes`).
        finishes: usize,
        /// Cells the search placed last that the finishing beam takes back
        /// (`dfs.finish_back`; `None`: [`finish_back_for`] the board).
        finish_back: Option<usize>,
        /// Placements per restart (`dfs.node_cap`).
        node_cap: u64,
        /// Restarts in all (`dfs.restarts`; `None`: until the time is up).
        restarts: Option<u64>,
        /// The share of the budget the exact search gets first (`dfs.exact_share`; 0: none;
        /// `None`: [`EXACT_SHARE`] on boards of up to [`HeuristicPlan::EXACT_FIRST_CELLS`] cells, none
        /// above). A perfect board it finds, or its proof that there is none, ends the run.
        exact_share: Option<f64>,
        /// Scan order, look-ahead, budget.
        search: SearchParams,
    },
    /// A complete search for a perfect board: the first in scan order, or all of them
    /// (`exact.all`), the work shared by prefixes of `prefix` cells (`exact.prefix`;
    /// `None`: enough prefixes to keep the threads busy). Without a perfect board it
    /// reports the deepest partial board, finished by a beam; a search that ends without one
    /// proves there is none.
    Exact {
        /// Count every perfect board.
        all: bool,
        /// Cells placed before the work is shared.
        prefix: Option<usize>,
        /// Scan order and budget (the look-ahead plays no part).
        search: SearchParams,
        /// Whether `search.scan` was given; if not, [`exact_order`] picks it for the board.
        scan_given: bool,
    },
    /// No construction: this complete board (a board file in any format tilekit reads).
    Start(PathBuf),
}

impl Construct {
    /// `kind` with its parameters at their defaults.
    pub fn new(kind: ConstructKind) -> Construct {
        match kind {
            ConstructKind::Greedy => Construct::Greedy {
                region: RegionShape::ROW,
            },
            ConstructKind::Backtrack => Construct::Backtrack {
                region: RegionShape::ROW,
                time: None,
            },
            ConstructKind::Random => Construct::Random,
            ConstructKind::Beam => Construct::Beam {
                width: None,
                search: SearchParams::default(),
            },
            ConstructKind::Dfs => Construct::Dfs {
                breaks: None,
                quota: None,
                finishes: 4,
                finish_back: None,
                node_cap: 20_000_000,
                restarts: None,
                exact_share: None,
                search: SearchParams::default(),
            },
            // A row scan: the order that always won the exhaustive searches of the
            // edge-matching community (see the project notes).
            ConstructKind::Exact => Construct::Exact {
                all: false,
                prefix: None,
                search: SearchParams {
                    scan: ScanOrder::RowMajor,
                    ..SearchParams::default()
                },
                scan_given: false,
            },
        }
    }

    /// Its name, as reports give it (`start` for a given board).
    pub fn name(&self) -> &'static str {
        match self {
            Construct::Greedy { .. } => "greedy",
            Construct::Backtrack { .. } => "backtrack",
            Construct::Random => "random",
            Construct::Beam { .. } => "beam",
            Construct::Dfs { .. } => "dfs",
            Construct::Exact { .. } => "exact",
            Construct::Start(_) => "start",
        }
    }

    /// The search constructions' shared settings.
    fn search(&self) -> Option<&SearchParams> {
        match self {
            Construct::Beam { search, .. }
            | Construct::Dfs { search, .. }
            | Construct::Exact { search, .. } => Some(search),
            _ => None,
        }
    }

    /// The region shape of the paper's constructions (1×n for the others' reports).
    fn region(&self) -> RegionShape {
        match self {
            Construct::Greedy { region } | Construct::Backtrack { region, .. } => *region,
            _ => RegionShape::ROW,
        }
    }

    /// Apply one parameter of this construction.
    fn set(&mut self, key: &str, value: &str) -> Result<(), ParamError> {
        let this = self.name();
        let not_used = || ParamError::NotUsed {
            key: key.to_string(),
            tunes: params::group_words(key),
            this: format!("the {this} construction"),
        };
        match (self, key) {
            (
                Construct::Greedy { region } | Construct::Backtrack { region, .. },
                "greedy.region",
            ) => {
                *region = RegionShape::parse(value).map_err(|_| ParamError::value(key, value))?;
            }
            (Construct::Backtrack { time, .. }, "backtrack.time") => {
                *time = Some(params::parse_seconds(key, value)?);
            }
            (Construct::Beam { width, .. }, "beam.width") => {
                *width = Some(params::parse_count(key, value)?);
            }
            (Construct::Dfs { breaks, .. }, "dfs.breaks") => {
                *breaks = Some(BreakSpec::parse(value).map_err(|_| ParamError::value(key, value))?);
            }
            (Construct::Dfs { quota, .. }, "dfs.quota") => {
                *quota = if value.trim() == "off" {
                    None
                } else {
                    Some(QuotaSpec::parse(value).map_err(|_| ParamError::value(key, value))?)
                };
            }
            (Construct::Dfs { finishes, .. }, "dfs.finishes") => {
                *finishes = params::parse_count(key, value)?;
            }
            (Construct::Dfs { finish_back, .. }, "dfs.finish_back") => {
                *finish_back = Some(params::parse(key, value)?);
            }
            (Construct::Dfs { node_cap, .. }, "dfs.node_cap") => {
                *node_cap = params::parse_count(key, value)?;
            }
            (Construct::Dfs { restarts, .. }, "dfs.restarts") => {
                *restarts = Some(params::parse_count(key, value)?);
            }
            (Construct::Dfs { exact_share, .. }, "dfs.exact_share") => {
                let v: f64 = params::parse(key, value)?;
                if !(0.0..=1.0).contains(&v) {
                    return Err(ParamError::value(key, value));
                }
                *exact_share = Some(v);
            }
            (Construct::Exact { all, .. }, "exact.all") => *all = params::parse_bool(key, value)?,
            (Construct::Exact { prefix, .. }, "exact.prefix") => {
                *prefix = Some(params::parse_count(key, value)?);
            }
            (
                Construct::Exact {
                    search, scan_given, ..
                },
                "search.scan",
            ) => {
                search.scan = ScanOrder::parse(value).map_err(|_| ParamError::value(key, value))?;
                *scan_given = true;
            }
            (
                Construct::Beam { search, .. }
                | Construct::Dfs { search, .. }
                | Construct::Exact { search, .. },
                _,
            ) if key.starts_with("search.") => match key {
                "search.scan" => {
                    search.scan =
                        ScanOrder::parse(value).map_err(|_| ParamError::value(key, value))?
                }
                "search.lookahead" => search.lookahead = params::parse_bool(key, value)?,
                "search.time" => search.time = Some(params::parse_seconds(key, value)?),
                _ => return Err(ParamError::Unknown { key: key.into() }),
            },
            _ => return Err(not_used()),
        }
        Ok(())
    }
}

/// The improvements by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImproveKind {
    /// The multi-neighbourhood local search.
    Ls,
    /// Large-neighbourhood search.
    Lns,
    /// None: the constructed board is the answer.
    None,
}

impl ImproveKind {
    /// Every improvement, in the order help lists them.
    pub const ALL: [ImproveKind; 3] = [ImproveKind::Ls, ImproveKind::Lns, ImproveKind::None];

    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            ImproveKind::Ls => "ls",
            ImproveKind::Lns => "lns",
            ImproveKind::None => "none",
        }
    }

    /// The improvement called `name`.
    pub fn from_name(name: &str) -> Option<ImproveKind> {
        ImproveKind::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// What follows the construction, with its own parameters.
#[derive(Debug, Clone, PartialEq)]
pub enum Improve {
    /// Nothing: the constructed board is the answer.
    None,
    /// Salassa et al.'s multi-neighbourhood local search (`ls.*`; their Table 2 by
    /// default), stopping after `patience` whole cycles without a gain.
    Ls {
        /// TA, RO and TSR settings.
        params: LsParams,
        /// Cycles without a gain before it stops (`ls.patience`).
        patience: usize,
    },
    /// Large-neighbourhood search: windows destroyed and rebuilt by a beam
    /// ([`crate::edge_search::lns`]).
    Lns {
        /// The rebuild's beam width (`lns.width`).
        width: usize,
        /// Rebuilds in all (`lns.iterations`; `None`: until the time is up).
        iterations: Option<u64>,
        /// The share of repairs made by assignment, 0 to 1 (`lns.assign`).
        assign: f64,
    },
}

impl Improve {
    /// `kind` with its parameters at their defaults.
    pub fn new(kind: ImproveKind) -> Improve {
        match kind {
            ImproveKind::None => Improve::None,
            ImproveKind::Ls => Improve::Ls {
                params: LsParams::default(),
                patience: 1,
            },
            ImproveKind::Lns => Improve::Lns {
                width: 128,
                iterations: None,
                assign: 0.5,
            },
        }
    }

    /// Its name, as reports and traces give it.
    pub fn name(&self) -> &'static str {
        match self {
            Improve::None => "none",
            Improve::Ls { .. } => "ls",
            Improve::Lns { .. } => "lns",
        }
    }

    /// The improvement a construction gets when none is asked for: the search
    /// constructions' boards are past what the paper's local search improves, and the LNS
    /// rarely improves one within a minute, so they keep the whole time; a given board is
    /// there to be improved, by the LNS; the paper's constructions get the paper's search.
    pub fn after(construct: &Construct) -> Improve {
        Improve::new(match construct {
            Construct::Beam { .. } | Construct::Dfs { .. } | Construct::Exact { .. } => {
                ImproveKind::None
            }
            Construct::Start(_) => ImproveKind::Lns,
            _ => ImproveKind::Ls,
        })
    }

    /// Apply one parameter of this improvement.
    fn set(&mut self, key: &str, value: &str) -> Result<(), ParamError> {
        let this = self.name();
        match (self, key) {
            (Improve::Ls { params: lp, .. }, "ls.ta_k") => {
                lp.ta_k = Some(params::parse_count(key, value)?)
            }
            (Improve::Ls { params: lp, .. }, "ls.ta_n") => {
                lp.ta_n = Some(params::parse_count(key, value)?)
            }
            (Improve::Ls { params: lp, .. }, "ls.clique_window") => {
                lp.clique_window =
                    Some(parse_window(value).ok_or_else(|| ParamError::value(key, value))?)
            }
            (Improve::Ls { params: lp, .. }, "ls.clique_n") => {
                lp.clique_n = Some(params::parse_count(key, value)?)
            }
            (Improve::Ls { params: lp, .. }, "ls.tsr_first") => {
                lp.tsr_first = params::parse_bool(key, value)?
            }
            (Improve::Ls { patience, .. }, "ls.patience") => {
                *patience = params::parse_count(key, value)?
            }
            (Improve::Lns { width, .. }, "lns.width") => *width = params::parse_count(key, value)?,
            (Improve::Lns { iterations, .. }, "lns.iterations") => {
                *iterations = Some(params::parse_count(key, value)?)
            }
            (Improve::Lns { assign, .. }, "lns.assign") => {
                let v: f64 = params::parse(key, value)?;
                if !(0.0..=1.0).contains(&v) {
                    return Err(ParamError::value(key, value));
                }
                *assign = v;
            }
            _ => {
                return Err(ParamError::NotUsed {
                    key: key.to_string(),
                    tunes: params::group_words(key),
                    this: format!("the improvement {this}"),
                });
            }
        }
        Ok(())
    }
}

/// `WxH` (Clique.W × Clique.H), both at least 1.
fn parse_window(s: &str) -> Option<(usize, usize)> {
    let (w, h) = s.split_once(['x', '×'])?;
    let (w, h) = (w.trim().parse().ok()?, h.trim().parse().ok()?);
    (w >= 1 && h >= 1).then_some((w, h))
}

/// A whole heuristic run: how the first board is built, what improves it, the seed, the
/// pieces fixed first. Each construction and improvement carries its own parameters, so a
/// plan with a parameter of a method it does not run cannot be built.
#[derive(Debug, Clone, PartialEq)]
pub struct HeuristicPlan {
    /// The construction.
    pub construct: Construct,
    /// The improvement.
    pub improve: Improve,
    /// The seed of every random choice. Same seed and solver, same board.
    pub seed: u64,
    /// Pieces fixed before anything is built.
    pub fixes: Vec<Fix>,
    /// Fix the official Eternity II starter piece when the instance is the official set
    /// (recognised by content) and no piece is fixed otherwise.
    pub starter: bool,
    /// The local search's own budget after the construction (`None`: the rest of the time
    /// limit); `bench sal` gives each run the paper's budget, scaled.
    pub ls_time: Option<Duration>,
    /// Where the best board so far is kept, rewritten on every improvement.
    pub best_so_far: Option<PathBuf>,
}

impl HeuristicPlan {
    /// Boards of at most this many cells give the exact search a share of the DFS's time
    /// first ([`EXACT_SHARE`]); on larger ones a perfect board is out of its reach.
    pub const EXACT_FIRST_CELLS: usize = 100;

    /// The measured best for `p`: the late-break DFS for the whole time limit with nothing
    /// after it (the exact search first on boards of up to [`Self::EXACT_FIRST_CELLS`] cells), and
    /// the official starter piece fixed on the official set. In a minute on two threads the
    /// DFS gives 461, 461, 461, 460, 459 on Eternity II over five seeds (the beam 460, 460,
    /// 458, 459, 460), one seam more than the beam on META 14×14 and 16×16 and as much or
    /// more on 10×10 and 12×12, and finds planted 7×7 boards in seconds; Salassa et al.'s
    /// construction and local search give 443–448, and the LNS adds nothing within the
    /// minute (`docs/results/edge-record.md#finishing-over-cells-taken-back`).
    pub fn recommended(_p: &EdgePuzzle) -> HeuristicPlan {
        let construct = Construct::new(ConstructKind::Dfs);
        HeuristicPlan {
            improve: Improve::after(&construct),
            construct,
            seed: 1,
            fixes: Vec::new(),
            starter: true,
            ls_time: None,
            best_so_far: None,
        }
    }

    /// Salassa et al.'s: greedy 1×n region MILPs, then their local search with their
    /// Table 2; nothing fixed.
    pub fn paper() -> HeuristicPlan {
        let construct = Construct::new(ConstructKind::Greedy);
        HeuristicPlan {
            improve: Improve::after(&construct),
            construct,
            seed: 1,
            fixes: Vec::new(),
            starter: false,
            ls_time: None,
            best_so_far: None,
        }
    }

    /// The plan of `preset` for `p` (the native search's preset changes nothing here).
    pub fn of(preset: Preset, p: &EdgePuzzle) -> HeuristicPlan {
        match preset {
            Preset::Paper => HeuristicPlan::paper(),
            Preset::Recommended | Preset::FewestNodes => HeuristicPlan::recommended(p),
        }
    }

    /// Build the first board with `construct` instead, its improvement the one it gets by
    /// default.
    pub fn construct_with(mut self, construct: Construct) -> HeuristicPlan {
        self.improve = Improve::after(&construct);
        self.construct = construct;
        self
    }

    /// Apply the parameters in `settings` that tune a construction or an improvement, in
    /// order; refuse those of a construction or improvement this plan does not run.
    pub fn apply(&mut self, settings: &Settings) -> Result<(), ParamError> {
        for (key, value) in settings.iter() {
            let construction = [
                "greedy.",
                "backtrack.",
                "beam.",
                "search.",
                "dfs.",
                "exact.",
            ]
            .iter()
            .any(|g| key.starts_with(g));
            if construction {
                self.construct.set(key, value)?;
            } else if key.starts_with("ls.") || key.starts_with("lns.") {
                self.improve.set(key, value)?;
            } else {
                return Err(ParamError::NotUsed {
                    key: key.to_string(),
                    tunes: params::group_words(key),
                    this: "the edge-matching heuristic".into(),
                });
            }
        }
        Ok(())
    }
}

/// What a run of the heuristic is asked for beside its research parameters: the
/// construction or a start board, the improvement, the seed and the pieces fixed; `None`
/// and empty leave the preset's choice.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HeuristicChoice {
    /// How the first board is built.
    pub construct: Option<ConstructKind>,
    /// What improves it.
    pub improve: Option<ImproveKind>,
    /// A complete board to improve instead of building one.
    pub start: Option<PathBuf>,
    /// The seed.
    pub seed: Option<u64>,
    /// Pieces fixed first.
    pub fixes: Vec<FixChoice>,
    /// `Some(false)`: never fix the official Eternity II starter by itself.
    pub starter: Option<bool>,
}

impl HeuristicChoice {
    /// The plan for `p`: `preset`'s, with these choices, then `settings` applied in order.
    pub fn plan(
        &self,
        p: &EdgePuzzle,
        preset: Preset,
        settings: &Settings,
    ) -> Result<HeuristicPlan, Error> {
        let mut plan = HeuristicPlan::of(preset, p);
        match (&self.start, self.construct) {
            (Some(path), Some(kind)) => {
                return Err(Error::Usage(format!(
                    "the {} construction builds a first board, and the start board {} is one: choose one of them",
                    kind.name(),
                    path.display()
                )));
            }
            (Some(path), None) => plan = plan.construct_with(Construct::Start(path.clone())),
            (None, Some(kind)) => plan = plan.construct_with(Construct::new(kind)),
            (None, None) => {}
        }
        if let Some(kind) = self.improve {
            plan.improve = Improve::new(kind);
        }
        if let Some(seed) = self.seed {
            plan.seed = seed;
        }
        if !self.fixes.is_empty() {
            plan.fixes = FixChoice::resolve(&self.fixes, p)?;
        }
        if let Some(on) = self.starter {
            plan.starter = on;
        }
        plan.apply(settings)
            .map_err(|e| Error::Usage(e.to_string()))?;
        Ok(plan)
    }
}

/// A piece fixed before anything is built (`PIECE@ROW,COL,ROT` in `fixes`, 0-based cell as in
/// board files): the official Eternity II starter piece, or any clue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fix {
    /// Piece id.
    pub piece: u16,
    /// Row, 0-based.
    pub row: usize,
    /// Column, 0-based.
    pub col: usize,
    /// Clockwise quarter turns.
    pub rot: u8,
}

/// A fixing asked for: one piece in one cell, or the official Eternity II clues.
///
/// ```
/// use tilekit::route::edge_heuristic::{Fix, FixChoice};
///
/// assert_eq!(FixChoice::parse("clues"), Ok(FixChoice::OfficialClues));
/// assert_eq!(
///     FixChoice::parse("139@8,7,2"),
///     Ok(FixChoice::Piece(Fix { piece: 139, row: 8, col: 7, rot: 2 }))
/// );
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FixChoice {
    /// One piece, in one cell and rotation.
    Piece(Fix),
    /// The five official clues of Eternity II ([`CLUES`]): the starter and the four hint
    /// pieces the clue puzzles revealed, on the official set only (recognised by content).
    OfficialClues,
}

impl FixChoice {
    /// Read `clues` or `PIECE@ROW,COL,ROT`.
    pub fn parse(s: &str) -> Result<FixChoice, String> {
        if s.trim() == "clues" {
            return Ok(FixChoice::OfficialClues);
        }
        Fix::parse(s)
            .map(FixChoice::Piece)
            .map_err(|e| format!("{e}, or clues (the official Eternity II clues)"))
    }

    /// The pieces `choices` fix on `p`, in order, each once.
    pub fn resolve(choices: &[FixChoice], p: &EdgePuzzle) -> Result<Vec<Fix>, Error> {
        let mut fixes: Vec<Fix> = Vec::new();
        for choice in choices {
            let more = match choice {
                FixChoice::Piece(f) => vec![*f],
                FixChoice::OfficialClues => official_clues(p).ok_or_else(|| {
                    Error::Usage(format!(
                        "{} clues: the official Eternity II clues fix pieces of the official 256-piece set, and this {}×{} puzzle is not that set (its pieces are recognised by content, in any order and rotation)",
                        Field::Fix,
                        p.rows(),
                        p.cols()
                    ))
                })?,
            };
            for f in more {
                if !fixes.contains(&f) {
                    fixes.push(f);
                }
            }
        }
        Ok(fixes)
    }
}

impl Fix {
    /// Whether `board` holds this piece in this cell, turned this way.
    ///
    /// ```
    /// use tilekit::puzzle::edge::{Board, Rotation};
    /// use tilekit::route::edge_heuristic::Fix;
    ///
    /// let mut board = Board::empty(2, 2);
    /// board.cells[3] = Some((7, Rotation::new(1).unwrap()));
    /// assert!(Fix { piece: 7, row: 1, col: 1, rot: 1 }.holds_on(&board));
    /// assert!(!Fix { piece: 7, row: 1, col: 1, rot: 2 }.holds_on(&board));
    /// assert!(!Fix { piece: 7, row: 5, col: 0, rot: 1 }.holds_on(&board));
    /// ```
    pub fn holds_on(&self, board: &Board) -> bool {
        self.col < board.cols
            && board
                .cells
                .get(self.row * board.cols + self.col)
                .copied()
                .flatten()
                .is_some_and(|(piece, rot)| piece == self.piece && rot.turns() == self.rot)
    }

    /// Read `PIECE@ROW,COL,ROT`.
    pub fn parse(s: &str) -> Result<Fix, String> {
        let bad = || {
            format!(
                "expected PIECE@ROW,COL,ROT (row and column from 0, as in board files; ROT in quarter turns 0..3), not {s:?}"
            )
        };
        let (piece, cell) = s.split_once('@').ok_or_else(bad)?;
        let parts: Vec<&str> = cell.split(',').map(str::trim).collect();
        let [row, col, rot] = parts[..] else {
            return Err(bad());
        };
        let rot: u8 = rot.parse().map_err(|_| bad())?;
        if rot > 3 {
            return Err(bad());
        }
        Ok(Fix {
            piece: piece.trim().parse().map_err(|_| bad())?,
            row: row.parse().map_err(|_| bad())?,
            col: col.parse().map_err(|_| bad())?,
            rot,
        })
    }
}

/// The `start` board, checked before any search sees it: complete, every piece once, the
/// rim rule kept, and every fixed piece where `fixes` puts it.
fn given_board(p: &EdgePuzzle, path: &std::path::Path, fixed: &Board) -> Result<Built, Error> {
    let text = super::read_text(path, "start board")?;
    let board = crate::puzzle::edge::parse_any_board(&text, &path.display().to_string(), p)?;
    let sc = crate::puzzle::edge::score(p, &board);
    if sc.empty > 0 || sc.rim_faults > 0 || sc.repeats > 0 {
        return Err(Error::Usage(format!(
            "{}: the start board must be complete and legal; this one has {} empty cell(s), {} rim fault(s) and {} repeated piece(s)",
            path.display(),
            sc.empty,
            sc.rim_faults,
            sc.repeats
        )));
    }
    for (cell, want) in fixed.cells.iter().enumerate() {
        if want.is_some() && board.cells[cell] != *want {
            let (id, rot) = want.expect("checked");
            return Err(Error::Usage(format!(
                "{}: the fixed piece {}@{},{},{} is not on the start board (its cell holds {})",
                path.display(),
                id,
                cell / p.cols(),
                cell % p.cols(),
                rot.turns(),
                board.cells[cell].map_or("nothing".to_string(), |(i, r)| format!(
                    "piece {i} turned {}",
                    r.turns()
                ))
            )));
        }
    }
    Ok(Built {
        board,
        regions_solved: 0,
        regions: 0,
        perfect_regions: 0,
        backtracks: 0,
        exhausted: false,
    })
}

/// The board holding the fixed pieces, checked: each piece exists and is fixed once, each cell
/// is on the board and fixed once, and the rotation fits the cell (grey on the rim only).
fn fixed_board(p: &EdgePuzzle, fixes: &[Fix]) -> Result<Board, Error> {
    let mut board = Board::empty(p.rows(), p.cols());
    let mut used = std::collections::BTreeSet::new();
    for f in fixes {
        let what = format!("fixed piece {}@{},{},{}", f.piece, f.row, f.col, f.rot);
        if p.piece(f.piece).is_none() {
            return Err(Error::Usage(format!(
                "{what}: the puzzle has no piece {} (pieces are numbered 1 to {})",
                f.piece,
                p.pieces().len()
            )));
        }
        if f.row >= p.rows() || f.col >= p.cols() {
            return Err(Error::Usage(format!(
                "{what}: the cell is off the {}×{} board (rows and columns count from 0)",
                p.rows(),
                p.cols()
            )));
        }
        if !used.insert(f.piece) {
            return Err(Error::Usage(format!(
                "{what}: piece {} is fixed twice",
                f.piece
            )));
        }
        let cell = f.row * p.cols() + f.col;
        if board.cells[cell].is_some() {
            return Err(Error::Usage(format!("{what}: the cell is fixed twice")));
        }
        let rot = Rotation::new(f.rot).expect("checked when parsed");
        if !p.fitting_rotations(f.piece, f.row, f.col).contains(&rot) {
            return Err(Error::Usage(format!(
                "{what}: in that rotation the piece breaks the rim rule there (grey must face out, and only out)"
            )));
        }
        board.cells[cell] = Some((f.piece, rot));
    }
    Ok(board)
}

/// A heuristic run's failure as the route reports it.
fn heuristic_error(e: HeuristicError) -> Error {
    match e {
        HeuristicError::Region(RegionError::Model(m)) => Error::failure(m),
        HeuristicError::Region(r) => Error::Usage(r.to_string()),
        HeuristicError::Solve(s) => s.into(),
        HeuristicError::BadAnswer { .. } => Error::Failure(e.to_string()),
    }
}

/// The official Eternity II starter: piece 139 of the official set, at row 8, column 7,
/// turned twice.
pub const STARTER: Fix = Fix {
    piece: 139,
    row: 8,
    col: 7,
    rot: 2,
};

/// The official set, for recognising it by content.
const OFFICIAL_ETERNITY2: &str = include_str!("../../models/edge-matching/eternity2/e2pieces.txt");

/// The official clues of Eternity II in the official set's numbering: the starter, then the
/// hint pieces of clue puzzles 1 to 4 (N3, C14, N14 and C3 on the printed board). Their cells
/// and turns are those of jwortmann/Eternity2Puzzles.jl, whose piece file and rotation
/// convention tilekit shares, and they agree with the record boards shared on e2.bucas.name
/// (see `models/edge-matching/README.md`).
pub const CLUES: [Fix; 5] = [
    STARTER,
    Fix {
        piece: 181,
        row: 13,
        col: 2,
        rot: 3,
    },
    Fix {
        piece: 255,
        row: 2,
        col: 13,
        rot: 3,
    },
    Fix {
        piece: 249,
        row: 13,
        col: 13,
        rot: 0,
    },
    Fix {
        piece: 208,
        row: 2,
        col: 2,
        rot: 3,
    },
];

/// `fixes` of the official set, in `p`'s own numbering when `p` is the official Eternity II
/// set with its pieces in any order and any listed rotation: each of `p`'s pieces turned to
/// show the official piece's colours in its cell. (No two pieces of the official set look
/// alike, nor does any piece look the same turned, so each piece and turn is unique.)
fn official_fixes(p: &EdgePuzzle, fixes: &[Fix]) -> Option<Vec<Fix>> {
    if (p.rows(), p.cols()) != (16, 16) {
        return None;
    }
    let official = EdgePuzzle::parse(OFFICIAL_ETERNITY2, "e2pieces.txt").ok()?;
    let canonical = |c: &crate::puzzle::edge::Piece| {
        Rotation::ALL
            .iter()
            .map(|&r| c.placed(r))
            .min()
            .expect("four rotations")
    };
    let mut mine: Vec<[u16; 4]> = p.pieces().iter().map(canonical).collect();
    let mut theirs: Vec<[u16; 4]> = official.pieces().iter().map(canonical).collect();
    mine.sort_unstable();
    theirs.sort_unstable();
    if mine != theirs {
        return None;
    }
    fixes
        .iter()
        .map(|f| {
            let rot = Rotation::new(f.rot).expect("a quarter-turn count");
            let want = official.piece(f.piece)?.placed(rot);
            p.pieces().iter().find_map(|pc| {
                Rotation::ALL
                    .into_iter()
                    .find(|&r| pc.placed(r) == want)
                    .map(|r| Fix {
                        piece: pc.id,
                        rot: r.turns(),
                        ..*f
                    })
            })
        })
        .collect()
}

/// The starter piece of `p` when `p` is the official Eternity II set, its pieces in any order
/// and any listed rotation: `p`'s own piece, turned to show the official starter's colours
/// in the starter's cell.
pub fn official_starter(p: &EdgePuzzle) -> Option<Fix> {
    official_fixes(p, &[STARTER]).map(|f| f[0])
}

/// The five official clues ([`CLUES`]) in `p`'s numbering when `p` is the official Eternity
/// II set (recognised by content, as by [`official_starter`]).
pub fn official_clues(p: &EdgePuzzle) -> Option<Vec<Fix>> {
    official_fixes(p, &CLUES)
}

/// Run `plan` on `p` with the MILP solver `solver_name` of the registry (the paper's
/// constructions and local search solve region MILPs with it).
pub fn solve(
    p: &EdgePuzzle,
    plan: &HeuristicPlan,
    solver_name: &str,
    registry: &Registry,
    limits: &crate::solve::Limits,
    progress: Progress<'_>,
) -> Result<Report, Error> {
    let started = Instant::now();
    let solver = registry.milp(solver_name)?;
    // The official starter, fixed when nothing else is and the instance is the official set.
    let starter = (plan.starter && plan.fixes.is_empty())
        .then(|| official_starter(p))
        .flatten();
    let fixes: Vec<Fix> = match starter {
        Some(f) => vec![f],
        None => plan.fixes.clone(),
    };
    if let Some(f) = starter {
        super::notice(
            progress,
            &format!(
                "the official Eternity II set: its starter piece {} is fixed at row {}, column {}, turned {} (recognised by content)",
                f.piece, f.row, f.col, f.rot
            ),
        );
    }
    let start = fixed_board(p, &fixes)?;
    let frozen: Vec<bool> = start.cells.iter().map(Option::is_some).collect();
    let construct = &plan.construct;
    let improve = &plan.improve;
    let searching = construct.search().is_some();
    let shape = construct.region();
    // A region larger than the board would be cut to it, and named by the size asked for.
    if shape.rows > p.rows() || shape.cols.is_some_and(|c| c > p.cols()) {
        return Err(Error::Usage(format!(
            "the region {} (greedy.region) does not fit the {}×{} board: at most {} rows and {} columns",
            shape.label(p.cols()),
            p.rows(),
            p.cols(),
            p.rows(),
            p.cols()
        )));
    }
    let mut ctx = Ctx {
        puzzle: p,
        milp: &*solver,
        rng: Rng::new(plan.seed),
        deadline: started + limits.time,
        threads: limits.threads,
        progress,
        frozen,
    };
    let mut trace: Vec<TraceRow> = Vec::new();
    let mut search_detail = String::new();
    let mut search_facts = SearchFacts::default();
    let mut best_written = 0usize;
    let mut keep = |board: &Board, score: usize| -> Result<(), Error> {
        if let Some(path) = &plan.best_so_far
            && (score > best_written || best_written == 0)
        {
            super::output::write_to(Some(path), board.to_text_with_colours(p).as_bytes())?;
            best_written = score;
        }
        super::notice(
            progress,
            &format!(
                "{score} of {} matched after {:.1} s",
                p.max_score(),
                started.elapsed().as_secs_f64()
            ),
        );
        Ok(())
    };
    let built = match construct {
        Construct::Start(path) => Ok(given_board(p, path, &start)?),
        Construct::Greedy { region } => construct::greedy(&mut ctx, *region, start),
        Construct::Backtrack { region, time } => {
            let limit = time.unwrap_or(limits.time / 2);
            construct::backtracking(&mut ctx, *region, limit, start)
        }
        Construct::Random => Ok(construct::random(&mut ctx, start)),
        Construct::Beam { search, .. }
        | Construct::Dfs { search, .. }
        | Construct::Exact { search, .. } => {
            let budget = match search.time {
                Some(t) => t,
                None if *improve == Improve::None => limits.time,
                None => limits.time / 2,
            };
            let (built, detail, steps, facts) = search_construct(
                p,
                construct,
                plan.seed,
                start,
                (started, (started + budget).min(ctx.deadline)),
                limits.threads.max(1) as usize,
                (&mut |b, s| keep(b, s), progress, plan.best_so_far.clone()),
            )?;
            search_detail = detail;
            search_facts = facts;
            // Each new best board of the search, for the score-over-time traces.
            trace.extend(steps.into_iter().map(|(seconds, matched)| TraceRow {
                seconds,
                matched,
                step: construct.name().to_string(),
            }));
            Ok(built)
        }
    }
    .map_err(heuristic_error)?;
    // What the report calls the first board's origin.
    let origin = construct.name();
    let given = matches!(construct, Construct::Start(_));
    let mut board = built.board.clone();
    let constructed = matched(p, &board);
    // The search constructors traced their own improvements; the others get one row.
    if !searching || trace.is_empty() {
        trace.push(TraceRow {
            seconds: started.elapsed().as_secs_f64(),
            matched: constructed,
            step: origin.to_string(),
        });
    }
    keep(&board, constructed)?;
    if let Some(t) = plan.ls_time {
        ctx.deadline = ctx.deadline.min(Instant::now() + t);
    }
    match improve {
        Improve::None => {}
        Improve::Ls { params, patience } => {
            let mut hoods = crate::edge_search::local::paper_neighbourhoods(params);
            let mut failed: Option<Error> = None;
            crate::edge_search::local::local_search(
                &mut ctx,
                &mut board,
                &mut hoods,
                *patience,
                started,
                &mut trace,
                &mut |b, s| {
                    if failed.is_none()
                        && let Err(e) = keep(b, s)
                    {
                        failed = Some(e);
                    }
                },
            )
            .map_err(heuristic_error)?;
            if let Some(e) = failed {
                return Err(e);
            }
        }
        Improve::Lns {
            width,
            iterations,
            assign,
        } => {
            let core = Core::new(p, &fixed_board(p, &fixes)?).map_err(Error::Usage)?;
            let cells = Core::indices(&board);
            let workers = limits.threads.max(1) as usize;
            // Every worker rebuilds with a beam of its own: each gets its share of the memory.
            let fits = crate::edge_search::beam::widest(
                &core,
                core.cells(),
                super::size::available_bytes() * BEAM_MEMORY_SHARE / workers as f64,
            );
            let width = (*width).max(1);
            if width > fits {
                search_detail.push_str(&format!(
                    "; lns.width {width} lowered to {fits}, the most the memory available holds"
                ));
            }
            let params = crate::edge_search::lns::LnsParams {
                width: width.min(fits),
                iterations: *iterations,
                assign_share: *assign,
                seed: plan.seed,
                threads: limits.threads.max(1) as usize,
                ..Default::default()
            };
            let failed = std::sync::Mutex::new(None::<Error>);
            let steps = std::sync::Mutex::new(Vec::new());
            let keep_m = std::sync::Mutex::new(&mut keep);
            let res = crate::edge_search::lns::lns(
                &core,
                &cells,
                &params,
                Some(ctx.deadline),
                &|m, c| {
                    steps
                        .lock()
                        .expect("poisoned")
                        .push((started.elapsed().as_secs_f64(), m));
                    let mut f = failed.lock().expect("poisoned");
                    if f.is_none()
                        && let Err(e) = (keep_m.lock().expect("poisoned"))(&core.board(c), m)
                    {
                        *f = Some(e);
                    }
                },
            );
            if let Some(e) = failed.into_inner().expect("poisoned") {
                return Err(e);
            }
            trace.extend(steps.into_inner().expect("poisoned").into_iter().map(
                |(seconds, matched)| TraceRow {
                    seconds,
                    matched,
                    step: "lns".to_string(),
                },
            ));
            board = core.board(&res.cells);
            search_detail.push_str(&format!(
                "; lns: {} repairs ({} by assignment, {} of them gaining; {} windows by the exact search, {} of them finished), {} kept, {} new bests",
                res.iterations,
                res.assignments.0,
                res.assignments.1,
                res.exact.0,
                res.exact.1,
                res.accepted,
                res.improved
            ));
        }
    }
    // The independent checker judges the board; the heuristic's own count is only claimed.
    let mine = matched(p, &board);
    let claimed = (p.max_score() - mine) as f64;
    let verdict = BoardChecker.check(p, &board, Some(claimed));
    let mut rep = Report::new(
        FamilyName::Edge,
        "heuristic",
        solver.name(),
        Details::Edge {
            variant: match construct.search() {
                _ if given => origin.to_string(),
                Some(_)
                    if matches!(
                        construct,
                        Construct::Exact {
                            scan_given: false,
                            ..
                        }
                    ) =>
                {
                    format!("{}_{}", origin, exact_order(p).label(p.rows()))
                }
                Some(search) => format!("{}_{}", origin, search.scan.label(p.rows())),
                None => format!("{}_{}", origin, shape.label(p.cols())),
            },
            matched: verdict.valid.then_some(mine),
            max: p.max_score(),
            size: [p.rows() * p.cols(), built.regions, built.regions_solved],
        },
    );
    rep.seconds = started.elapsed().as_secs_f64();
    rep.verified = verdict.valid;
    rep.errors = verdict.errors;
    if verdict.valid {
        rep.status = Status::Solved;
        rep.objective = verdict.objective;
        // No seam can be better than matched: 0 unmatched is the only bound known, and a
        // perfect board reaches it, unless a complete search proved there is none.
        rep.bound = Some(search_facts.proven_unmatched.unwrap_or(0) as f64);
        // Optimal when no seam is left, or when a complete search proved as many unmatched.
        rep.optimal = p.max_score() - mine == search_facts.proven_unmatched.unwrap_or(0);
        rep.solution = Some(Solution::Board(board));
    } else {
        rep.status = Status::Unverified;
    }
    rep.solver_status = format!(
        "{} {}: {constructed} matched; {} regions of {} by the MILP{}{}",
        origin,
        if given { "board" } else { "construction" },
        built.regions_solved,
        built.regions,
        if matches!(construct, Construct::Backtrack { .. }) {
            format!(
                ", {} perfect, {} backtracks{}",
                built.perfect_regions,
                built.backtracks,
                if built.exhausted {
                    ", every filling of region 1 tried"
                } else {
                    ""
                }
            )
        } else {
            search_detail
        },
        match starter {
            Some(f) => format!(
                "; the official Eternity II starter fixed ({}@{},{},{}, recognised by content)",
                f.piece, f.row, f.col, f.rot
            ),
            None if official_clues(p).is_some_and(|c| c == fixes) => {
                "; the five official Eternity II clues fixed".to_string()
            }
            None if !fixes.is_empty() => format!("; {} piece(s) fixed", fixes.len()),
            None => String::new(),
        }
    );
    rep.heuristic = Some(HeuristicStats {
        construct: origin.to_string(),
        region: shape.label(p.cols()),
        constructed,
        seed: plan.seed,
        trace,
        placements_per_second: search_facts.placements_per_second,
        search_placements_per_second: search_facts.search_placements_per_second,
    });
    Ok(rep)
}

/// A search construction: the board, a line for the report, and (seconds, matched) at each
/// new best board.
type Searched = (Built, String, Vec<(f64, usize)>, SearchFacts);

/// Where a search construction's new best boards go (with their matched seams): the
/// anytime file and the progress line.
type Keep<'a> = dyn FnMut(&Board, usize) -> Result<(), Error> + Send + 'a;

/// What a search construction measured beside its board.
#[derive(Debug, Clone, Copy, Default)]
struct SearchFacts {
    /// Placements per second over the search (the DFS and exact searches).
    placements_per_second: Option<f64>,
    /// The DFS's rate while its workers place pieces ([`HeuristicStats`]).
    search_placements_per_second: Option<f64>,
    /// Unmatched seams every board has, proven by a complete search (1 when an exact
    /// search ends without a perfect board).
    proven_unmatched: Option<usize>,
}

/// Beam or DFS construction on the fast core; the board and a line for the report. Every
/// new best board goes to `keep` (the anytime `best_so_far` file and the progress line).
fn search_construct(
    p: &EdgePuzzle,
    construct: &Construct,
    seed: u64,
    start: Board,
    (started, deadline): (Instant, Instant),
    threads: usize,
    (keep, progress, checkpoint): (&mut Keep<'_>, Progress<'_>, Option<PathBuf>),
) -> Result<Searched, Error> {
    let steps = std::sync::Mutex::new(Vec::new());
    let step = |m: usize| {
        steps
            .lock()
            .expect("poisoned")
            .push((started.elapsed().as_secs_f64(), m));
    };
    let search = construct
        .search()
        .expect("only the search constructions come here");
    let mut core = Core::new(p, &start).map_err(Error::Usage)?;
    // The DFS's finishing beam uses it too.
    core.set_lookahead(search.lookahead);
    let core = core;
    let order = search.scan;
    let label = order.label(p.rows());
    let (cells, detail, facts) = if let Construct::Beam { width, .. } = construct {
        let mut failed: Option<Error> = None;
        let mut passes = Vec::new();
        let mut best = 0usize;
        let mut on_pass = |r: &crate::edge_search::beam::BeamResult, secs: f64| {
            passes.push(format!("{}→{} in {secs:.1} s", r.width, r.matched));
            if r.matched > best && failed.is_none() {
                best = r.matched;
                step(r.matched);
                if let Err(e) = keep(&core.board(&r.cells), r.matched) {
                    failed = Some(e);
                }
            }
        };
        let fits = crate::edge_search::beam::widest(
            &core,
            core.cells(),
            super::size::available_bytes() * BEAM_MEMORY_SHARE,
        );
        let mut lowered = String::new();
        let res = match *width {
            Some(w) => {
                if w > fits {
                    lowered = format!(
                        "; beam.width {w} lowered to {fits}, the most the memory available holds"
                    );
                }
                let t0 = Instant::now();
                let r = crate::edge_search::beam::beam(
                    &core,
                    order,
                    w.min(fits),
                    seed,
                    threads,
                    Some(deadline),
                );
                on_pass(&r, t0.elapsed().as_secs_f64());
                r
            }
            None => crate::edge_search::beam::beam_anytime(
                &core,
                order,
                1024,
                seed,
                threads,
                deadline,
                fits,
                &mut on_pass,
            ),
        };
        if let Some(e) = failed {
            return Err(e);
        }
        let detail = format!(
            "; beam over {label}, widths {}{}{lowered}",
            passes.join(", "),
            if res.complete {
                ""
            } else {
                " (stopped by the time limit, finished greedily)"
            }
        );
        (res.cells, detail, SearchFacts::default())
    } else if let Construct::Exact {
        all,
        prefix,
        scan_given,
        ..
    } = construct
    {
        let order = if *scan_given { order } else { exact_order(p) };
        return exact_construct(
            p,
            (*all, *prefix, order),
            start,
            (started, deadline),
            threads,
            keep,
            (&step, progress, checkpoint),
        )
        .map(|(b, d, f)| (b, d, steps.into_inner().expect("poisoned"), f));
    } else {
        let Construct::Dfs {
            breaks,
            quota,
            finishes,
            finish_back,
            node_cap,
            restarts,
            exact_share,
            ..
        } = construct
        else {
            unreachable!("a search construction is a beam or a DFS")
        };
        let n = p.rows() * p.cols();
        let spec = breaks.clone().unwrap_or_else(|| BreakSpec::default_for(n));
        // Without a budget of its own, every other worker tries a third more breaks than the
        // default.
        let mut specs = vec![spec.clone()];
        if let (None, Some(t)) = (breaks, spec.total())
            && threads > 1
        {
            specs.push(spec.with_total(t + t.div_ceil(3)));
        }
        let mut tables = BreakSpec::resolve_all(&specs, &core, order).into_iter();
        let params = DfsParams {
            order,
            breaks: tables.next().expect("the default budget"),
            alt_breaks: tables.next(),
            quota: quota
                .as_ref()
                .map(|q| q.resolve(&core, order))
                .transpose()
                .map_err(|why| Error::Usage(format!("dfs.quota: {why}")))?,
            finishes: (*finishes).max(1),
            finish_back: finish_back.unwrap_or_else(|| finish_back_for(n)),
            node_cap: (*node_cap).max(1),
            restarts: *restarts,
            seed,
            threads,
        };
        // A checkpoint beside the anytime board resumes the restarts where an earlier run
        // of the same search stopped, with its best board.
        let board_path = checkpoint.clone();
        let checkpoint = checkpoint.map(|b| checkpoint_path(&b, "dfs"));
        let mut resume: Option<DfsCheckpoint> =
            read_checkpoint(checkpoint.as_deref(), "depth-first search")?;
        if let (Some(c), Some(path)) = (&mut resume, &checkpoint) {
            let ours = crate::edge_search::dfs::fingerprint(&core, &params);
            if c.schema != crate::edge_search::dfs::DFS_CHECKPOINT_SCHEMA || c.fingerprint != ours {
                return Err(Error::Usage(format!(
                    "{}: the checkpoint belongs to another search (another puzzle, clues, scan, seed, node cap, budget, quota, number of finishes or cells taken back); remove it to start afresh",
                    path.display()
                )));
            }
            // The board file is written as soon as a board improves, the checkpoint at most
            // once a second: a kill between the two leaves the better board in the file.
            if let Some(bp) = board_path.as_deref().filter(|b| b.exists())
                && let Ok(text) = std::fs::read_to_string(bp)
                && let Ok(b) = crate::puzzle::edge::parse_board(&text, "board", Some(p))
            {
                let sc = crate::puzzle::edge::score(p, &b);
                let cells = Core::indices(&b);
                let fixed_kept =
                    (0..core.cells()).all(|i| core.fixed(i).is_none_or(|o| cells[i] == o));
                if sc.empty == 0
                    && sc.repeats == 0
                    && sc.rim_faults == 0
                    && fixed_kept
                    && c.best.as_ref().is_none_or(|(m, _)| sc.matched > *m)
                {
                    c.best = Some((core.matched(&cells), cells));
                }
            }
            super::notice(
                progress,
                &format!(
                    "resuming the depth-first search after {} restarts ({}), from {}",
                    c.restarts,
                    c.best
                        .as_ref()
                        .map_or("no board yet".to_string(), |(m, _)| format!(
                            "a board of {m} matched seams"
                        )),
                    path.display()
                ),
            );
        }
        // The exact search first: a perfect board, or the proof there is none, ends the run.
        let mut first_part: Option<(Vec<u16>, String)> = None;
        let exact_share =
            exact_share.unwrap_or(if core.cells() <= HeuristicPlan::EXACT_FIRST_CELLS {
                EXACT_SHARE
            } else {
                0.0
            });
        // Not on a resumed run: its first run gave the exact search its share already.
        if exact_share > 0.0 && resume.is_none() {
            let now = Instant::now();
            let until = now + deadline.saturating_duration_since(now).mul_f64(exact_share);
            let (built, detail, facts) = exact_construct(
                p,
                (false, None, exact_order(p)),
                start.clone(),
                (started, until),
                threads,
                keep,
                (&step, progress, None),
            )?;
            let perfect = matched(p, &built.board) == p.max_score();
            if perfect || facts.proven_unmatched.is_some() {
                let detail =
                    detail.replacen("; exact search", "; exact search (the DFS's first part)", 1);
                return Ok((built, detail, steps.into_inner().expect("poisoned"), facts));
            }
            first_part = Some((Core::indices(&built.board), detail));
        }
        let failed = std::sync::Mutex::new(None::<Error>);
        let keep = std::sync::Mutex::new(keep);
        let t0 = Instant::now();
        let last_line = std::sync::Mutex::new(t0);
        let last_save = std::sync::Mutex::new(None::<Instant>);
        let saved_best = std::sync::Mutex::new(
            resume
                .as_ref()
                .and_then(|c| c.best.as_ref())
                .map_or(0, |b| b.0),
        );
        let latest = std::sync::Mutex::new(None::<DfsCheckpoint>);
        let save = |c: &DfsCheckpoint| {
            if let Some(path) = &checkpoint {
                let json = serde_json::to_string(c).expect("a checkpoint serialises");
                if let Err(e) = super::output::write_to(Some(path), json.as_bytes()) {
                    failed.lock().expect("poisoned").get_or_insert(e);
                }
            }
        };
        let res = crate::edge_search::dfs::dfs(
            &core,
            &params,
            Some(deadline),
            resume.as_ref(),
            &|m, cells| {
                step(m);
                let mut f = failed.lock().expect("poisoned");
                if f.is_none()
                    && let Err(e) = (keep.lock().expect("poisoned"))(&core.board(cells), m)
                {
                    *f = Some(e);
                }
            },
            &|c| {
                let (restarts, nodes) = (c.restarts, c.nodes);
                // At once when the best board improved, else at most once a second; and once
                // at the end.
                let mut saved = last_save.lock().expect("poisoned");
                let best = c.best.as_ref().map_or(0, |b| b.0);
                let improved =
                    best > std::mem::replace(&mut *saved_best.lock().expect("poisoned"), best);
                if improved || saved.is_none_or(|t| t.elapsed() >= Duration::from_secs(1)) {
                    *saved = Some(Instant::now());
                    save(c);
                    *latest.lock().expect("poisoned") = None;
                } else {
                    *latest.lock().expect("poisoned") = Some(c.clone());
                }
                drop(saved);
                let mut last = last_line.lock().expect("poisoned");
                if last.elapsed() >= Duration::from_secs(1) {
                    *last = Instant::now();
                    let secs = t0.elapsed().as_secs_f64();
                    progress(&format!(
                        "dfs: {restarts} restarts, {nodes} placements, {}, {secs:.0} s",
                        rate_text(nodes as f64 / secs.max(1e-9))
                    ));
                }
            },
        );
        if let Some(c) = latest.into_inner().expect("poisoned") {
            save(&c);
        }
        if let Some(e) = failed.into_inner().expect("poisoned") {
            return Err(e);
        }
        let rate = res.nodes as f64 / t0.elapsed().as_secs_f64().max(1e-9);
        // Per worker while it walks, times the workers.
        let own_rate = (res.walk_seconds > 0.0)
            .then(|| res.nodes as f64 * threads.max(1) as f64 / res.walk_seconds);
        let detail = format!(
            "; dfs over {label}, budget {} breaks{}{}, {} restarts, {} placements ({}{}), deepest {} of {n} cells{}",
            params.breaks.0.last().copied().unwrap_or(0),
            match (quota, &params.quota) {
                (Some(spec), Some(q)) => format!(
                    ", colour quota on {} ({} of their sides by the end)",
                    spec.colours
                        .iter()
                        .map(|c| c.to_string())
                        .collect::<Vec<_>>()
                        .join(","),
                    q.table.last().copied().unwrap_or(0)
                ),
                _ => String::new(),
            },
            match (&params.alt_breaks, threads > 1) {
                (Some(a), true) => format!(
                    " ({} on every other worker; the best board came from a {} one)",
                    a.0.last().copied().unwrap_or(0),
                    if res.budget == 0 { "default" } else { "second" }
                ),
                _ => String::new(),
            },
            res.restarts,
            res.nodes,
            rate_text(rate),
            own_rate.map_or(String::new(), |r| format!(
                "; {} while placing",
                rate_text(r)
            )),
            res.depth,
            if res.searched_complete {
                " (completed by the search)"
            } else {
                ", the rest by a beam"
            }
        ) + &resume.as_ref().map_or(String::new(), |c| {
            format!(
                "; resumed after {} restarts from {}",
                c.restarts,
                checkpoint
                    .as_ref()
                    .map_or(String::new(), |p| p.display().to_string())
            )
        });
        let facts = SearchFacts {
            placements_per_second: Some(rate),
            search_placements_per_second: own_rate,
            proven_unmatched: None,
        };
        match first_part {
            Some((cells, first)) => {
                let detail = format!(
                    "{}{detail}",
                    first.replacen("; exact search", "; first an exact search", 1)
                );
                // The exact search's board when the DFS did not beat it.
                if core.matched(&cells) > res.matched {
                    (cells, detail, facts)
                } else {
                    (res.cells, detail, facts)
                }
            }
            None => (res.cells, detail, facts),
        }
    };
    Ok((
        searched(core.board(&cells), false),
        detail,
        steps.into_inner().expect("poisoned"),
        facts,
    ))
}

/// The exact search's scan when none is given: along the board's shorter side (rows on a
/// board at least as tall as it is wide, columns on a wider one). A row scan is what the
/// exhaustive searches of the edge-matching community found best on square boards; on the
/// official 6×12 clue puzzles the short scan finds a perfect board in about 2 s where the
/// long one finds none in 60 s (`docs/results/edge-record.md#first-perfect-board`).
pub fn exact_order(p: &EdgePuzzle) -> ScanOrder {
    if p.cols() > p.rows() {
        ScanOrder::ColMajor
    } else {
        ScanOrder::RowMajor
    }
}

/// Where a search keeps its checkpoint beside the anytime board `best`: `best` with
/// `.exact.json` or `.dfs.json` appended.
pub(crate) fn checkpoint_path(best: &std::path::Path, search: &str) -> PathBuf {
    let mut name = best.as_os_str().to_owned();
    name.push(format!(".{search}.json"));
    PathBuf::from(name)
}

/// A search's checkpoint read back, `None` when there is none; `what` names the search in
/// messages.
pub(crate) fn read_checkpoint<T: serde::de::DeserializeOwned>(
    path: Option<&std::path::Path>,
    what: &str,
) -> Result<Option<T>, Error> {
    let Some(path) = path.filter(|p| p.exists()) else {
        return Ok(None);
    };
    // Read directly: a checkpoint is this command's own state, rewritten as it goes, not an
    // input the output guard protects.
    let text = std::fs::read_to_string(path).map_err(|e| {
        Error::Usage(format!(
            "{}: cannot read the {what}'s checkpoint: {e}",
            path.display()
        ))
    })?;
    serde_json::from_str(&text).map(Some).map_err(|e| {
        Error::Usage(format!(
            "{}: not a checkpoint of the {what} ({e}); remove it to start afresh",
            path.display()
        ))
    })
}

/// What a search construction built: a board, no regions; `exhausted` when the search
/// tried everything.
fn searched(board: Board, exhausted: bool) -> Built {
    Built {
        board,
        regions_solved: 0,
        regions: 0,
        perfect_regions: 0,
        backtracks: 0,
        exhausted,
    }
}

/// A placement rate as people quote it: `48.2 M placements/s`.
fn rate_text(per_second: f64) -> String {
    format!("{:.1} M placements/s", per_second / 1e6)
}

/// The exact search's construction: the first perfect board (or all of them), else the
/// deepest partial board finished by a beam. On a square board with nothing fixed, one
/// corner piece is fixed in the top-left corner: every perfect board turned a quarter, half
/// or three quarters puts each corner piece there once, so nothing is lost and the search
/// shrinks fourfold.
fn exact_construct(
    p: &EdgePuzzle,
    (all, prefix, order): (bool, Option<usize>, ScanOrder),
    mut start: Board,
    (started, deadline): (Instant, Instant),
    threads: usize,
    keep: &mut Keep<'_>,
    (step, progress, checkpoint): (&(dyn Fn(usize) + Sync), Progress<'_>, Option<PathBuf>),
) -> Result<(Built, String, SearchFacts), Error> {
    let mut symmetry = String::new();
    if p.rows() == p.cols() && start.cells.iter().all(Option::is_none) {
        let corner = p.pieces().iter().find_map(|pc| {
            p.fitting_rotations(pc.id, 0, 0)
                .first()
                .map(|&r| (pc.id, r))
        });
        if let Some((id, r)) = corner {
            start.cells[0] = Some((id, r));
            symmetry = format!(
                "; corner piece {id} fixed at the top left (every perfect board has a quarter turn with it there)"
            );
        }
    }
    let core = Core::new(p, &start).map_err(Error::Usage)?;
    // A checkpoint beside the anytime board resumes the search where an earlier run stopped.
    let checkpoint = checkpoint.map(|b| checkpoint_path(&b, "exact"));
    let resume: Option<ExactCheckpoint> = read_checkpoint(checkpoint.as_deref(), "exact search")?;
    let params = crate::edge_search::scan::ExactParams {
        order,
        threads,
        all,
        // The prefixes of the checkpoint's search, unless asked otherwise.
        prefix_depth: prefix.or(resume
            .as_ref()
            .filter(|c| !c.done.is_empty())
            .map(|c| c.prefix_depth)),
        resume,
    };
    let save_failed = std::sync::Mutex::new(None::<Error>);
    let save = |c: &ExactCheckpoint| {
        if let Some(path) = &checkpoint
            && !c.fingerprint.is_empty()
        {
            let json = serde_json::to_string(c).expect("a checkpoint serialises");
            if let Err(e) = super::output::write_to(Some(path), json.as_bytes()) {
                save_failed.lock().expect("poisoned").get_or_insert(e);
            }
        }
    };
    let res = crate::edge_search::scan::exact(&core, &params, Some(deadline), &|pr| {
        save(&pr.checkpoint);
        progress(&super::step(
            pr.prefixes_done as u64,
            pr.prefixes as u64,
            &format!(
                "prefixes searched; {} placements, {}, deepest {} of {} cells{}",
                pr.nodes,
                rate_text(pr.nodes as f64 / pr.seconds.max(1e-9)),
                pr.deepest,
                core.cells(),
                if all {
                    format!(", {} perfect boards", pr.solutions)
                } else {
                    String::new()
                }
            ),
        ));
    })
    .map_err(|e| {
        Error::Usage(format!(
            "{}: {e}; remove it to start afresh",
            checkpoint
                .as_ref()
                .map_or("?".into(), |p| p.display().to_string())
        ))
    })?;
    save(&res.checkpoint);
    if let Some(e) = save_failed.into_inner().expect("poisoned") {
        return Err(e);
    }
    let n = core.cells();
    let rate = res.nodes as f64 / res.seconds.max(1e-9);
    let (cells, how) = match &res.first {
        Some(cells) => (cells.clone(), "a perfect board".to_string()),
        None => {
            let order_cells = order.cells(p.rows(), p.cols());
            let mut work = core.clone();
            let cells = crate::edge_search::dfs::finish(&mut work, &res.deepest, &order_cells, 1);
            (
                cells,
                format!(
                    "no perfect board{}; the deepest partial board ({} of {n} cells) finished by a beam",
                    if res.complete {
                        " exists (the whole tree was searched)"
                    } else {
                        " found within the time"
                    },
                    res.deepest_depth
                ),
            )
        }
    };
    let matched = core.matched(&cells);
    step(matched);
    keep(&core.board(&cells), matched)?;
    let count = if all {
        format!(
            ", {} perfect board{}{}",
            res.solutions,
            if res.solutions == 1 { "" } else { "s" },
            if res.complete {
                " in all"
            } else {
                " before the time ran out"
            }
        )
    } else {
        String::new()
    };
    let detail = format!(
        "; exact search over {}: {}{how}{count}, {} placements ({}), work shared by {} prefixes of {} cells, {:.1} s{symmetry}",
        order.label(p.rows()),
        match (&checkpoint, res.resumed) {
            (Some(path), true) => format!(
                "resumed from {} ({} prefixes finished before), ",
                path.display(),
                params.resume.as_ref().map_or(0, |c| c
                    .done
                    .iter()
                    .map(|(a, b)| b - a)
                    .sum::<usize>())
            ),
            _ => String::new(),
        },
        res.nodes,
        rate_text(rate),
        res.prefixes,
        res.prefix_depth,
        started.elapsed().as_secs_f64()
    );
    let facts = SearchFacts {
        placements_per_second: Some(rate),
        search_placements_per_second: None,
        proven_unmatched: (res.complete && res.solutions == 0).then_some(1),
    };
    Ok((searched(core.board(&cells), res.complete), detail, facts))
}
