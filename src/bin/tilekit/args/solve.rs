//! `tilekit solve`'s options, under the headings `-h` shows: the method (route, model,
//! solver, preset and research parameters), the limits, the output, then each family's own.
//! Short help on one line each; the long help (`--help`) says the rest.
//!
//! The research parameters are `--set KEY=VALUE` keys (`tilekit params` lists them). Their
//! older flags (`--beam-width`, `--split`, …) are still read, hidden from the help, and turn
//! into the same keys ([`SolveArgs::settings`]), so that a command on a results page still
//! runs.

use super::{Common, model_names, route_names};
use clap::ValueEnum;
use std::path::PathBuf;
use tilekit::route::edge_heuristic::{ConstructKind, FixChoice, ImproveKind};
use tilekit::route::params::{ParamError, Preset, Settings};
use tilekit::route::{ModelName, Route};

/// `tilekit solve`.
#[derive(clap::Args)]
pub(crate) struct SolveArgs {
    /// The instance file, or a member of a built-in set (korf100:7, meta2010:5).
    pub instance: PathBuf,

    /// Route: native, astar, milp, sat, clique, maxsat, heuristic [default: best]
    ///
    /// Sliding: native (IDA* with pattern databases), astar (best-first search, also with a
    /// learned estimate), milp or sat (time-indexed models, stepped to the optimum). Edge:
    /// heuristic (beam search and the other constructions and improvements), milp, clique,
    /// sat or maxsat (exact models). Without --via, sliding puzzles go native and edge
    /// puzzles to an exact route where one finishes, else to the heuristic.
    #[arg(long, value_parser = route_names(), hide_possible_values = true, help_heading = "Method")]
    pub via: Option<Route>,
    /// The formulation: neos, flow, tight, sat, milp, clique or maxsat
    ///
    /// Default: the route's best.
    /// Sliding: tight (the default), neos (the case study's own model) or flow for --via
    /// milp, sat for --via sat. Edge: milp, clique, sat or maxsat, each its route's own.
    #[arg(long, value_parser = model_names(), hide_possible_values = true, help_heading = "Method")]
    pub model: Option<ModelName>,
    /// An embedded engine or a registry entry (`tilekit solvers`)
    ///
    /// Default: the best installed. For MILPs the embedded HiGHS when built with it, else an
    /// installed HiGHS, else CBC, else the embedded microlp; for max-clique the embedded
    /// mcq; for SAT varisat; for MaxSAT rc2.
    #[arg(long, help_heading = "Method")]
    pub solver: Option<String>,
    /// Choices as a bundle: recommended (the default), paper or fewest-nodes
    ///
    /// paper: the source papers' own configurations (the case study's model at its own
    /// horizon, Salassa et al.'s greedy construction and local search, no duplicate pruning,
    /// A* at weight 1, no starter piece). fewest-nodes: the native search's fewest nodes (two
    /// 7-8 partitions, their duals, BPMX, duplicate pruning to 16 moves).
    #[arg(long, value_parser = preset_names(), hide_possible_values = true, help_heading = "Method")]
    pub preset: Option<Preset>,
    /// A research parameter, KEY=VALUE (repeatable; `tilekit params`)
    #[arg(long = "set", value_name = "KEY=VALUE", help_heading = "Method")]
    pub set: Vec<String>,
    /// Read research parameters from a TOML file
    ///
    /// Tables name the groups: `[beam]` then `width = 4096` is beam.width. --set is applied
    /// after the file.
    #[arg(
        long,
        value_name = "FILE",
        hide_short_help = true,
        help_heading = "Method"
    )]
    pub params: Option<PathBuf>,
    /// Solver registry file [default: $TILEKIT_SOLVERS, ./solvers.toml, built-in]
    #[arg(
        long,
        value_name = "FILE",
        hide_short_help = true,
        help_heading = "Method"
    )]
    pub solvers_file: Option<PathBuf>,

    /// Wall-clock limit of the whole solve, in seconds
    ///
    /// `--horizon auto`, every SAT horizon and the solver share it, each stage getting what
    /// is left. An external solver is told the rest and, should it overrun, killed with its
    /// process group 2 s plus 10 % later (time to write its best solution). The DRAT check
    /// of --certify has a limit of its own, the same number of seconds.
    #[arg(
        long,
        default_value_t = 60.0,
        value_name = "SECS",
        help_heading = "Limits"
    )]
    pub time_limit: f64,
    /// Threads of the searches and of the solvers that take them
    #[arg(long, default_value_t = 1, value_name = "N", help_heading = "Limits")]
    pub threads: u32,

    /// Write the verified solution here (moves, or a board)
    #[arg(short = 'o', value_name = "FILE", help_heading = "Output")]
    pub output: Option<PathBuf>,
    /// Print one JSON object
    #[arg(long, help_heading = "Output")]
    pub json: bool,

    /// Native: pattern databases, e.g. 7-8 or 6-6-3
    ///
    /// 7-8, 7-8-cols, 7-7-1, 6-6-3 (15-puzzle), 6-6-6-6 (24-puzzle) or none. Built and cached when missing (7-8: about 4 minutes and 3.6 GB once). Default: the
    /// strongest already cached for the board ($TILEKIT_PDB names one), else 6-6-3 on the
    /// 15-puzzle and Manhattan + linear conflict (none) elsewhere.
    #[arg(long, value_name = "PDB", help_heading = "Sliding puzzles")]
    pub pdb: Option<String>,
    /// MILP: start from a plan: native, astar or a move file
    ///
    /// native: the IDA* plan; astar: weighted A*, w = 2, quick and not always optimal; or a
    /// move file. The plan is replayed, then the MILP decides whether a plan of at most L - 2
    /// moves exists: infeasible proves the plan optimal, a solution is a shorter plan. The
    /// horizon defaults to L - 2 (a smaller --horizon is kept).
    #[arg(long, value_name = "PLAN", help_heading = "Sliding puzzles")]
    pub incumbent: Option<String>,
    /// Prove optimality by a DRAT proof checked by rate
    ///
    /// The proof refutes every plan of L - 2 moves (L the plan's length; parity rules out
    /// L - 1).
    /// With --via sat the plan is the SAT search's; with --via native the native search's;
    /// with --plan a given one.
    #[arg(long, help_heading = "Sliding puzzles")]
    pub certify: bool,
    /// Certify this plan (a move file) instead of searching
    #[arg(
        long,
        requires = "certify",
        value_name = "FILE",
        hide_short_help = true,
        help_heading = "Sliding puzzles"
    )]
    pub plan: Option<PathBuf>,
    /// Keep the refuted CNF and its proof in this directory
    #[arg(
        long,
        requires = "certify",
        value_name = "DIR",
        hide_short_help = true,
        help_heading = "Sliding puzzles"
    )]
    pub proof_dir: Option<PathBuf>,
    /// SAT encoding: plain, pruned, strong or pdb
    ///
    /// Default pruned; pdb when --certify has the plan already (from --plan or --via native).
    /// pdb adds lower-bound clauses from small pattern databases and linear conflicts.
    #[arg(
        long,
        value_enum,
        hide_possible_values = true,
        help_heading = "Sliding puzzles"
    )]
    pub encoding: Option<super::EncodingArg>,
    /// Best-first: manhattan, pdb, ann or ann-pdb (learned)
    ///
    /// manhattan (+ linear conflict), pdb (the pattern databases; the default), ann (a trained
    /// network's estimate, Cahlík & Surynek: inadmissible) or ann-pdb (the network floored at
    /// the databases' value). The report's bound always comes from the admissible estimate.
    #[arg(
        long,
        value_enum,
        hide_possible_values = true,
        help_heading = "Sliding puzzles"
    )]
    pub heuristic: Option<HeuristicArg>,
    /// Best-first: f = g + W·h [default: 0.98 with ann, else 1]
    ///
    /// Above 1 it trades optimality for speed; below 1 it makes a learned estimate more
    /// cautious (0.98 gave 94.7 % optimal plans on 1,000 random 15-puzzles, 1.0 89.2 %).
    #[arg(long, value_name = "W", help_heading = "Sliding puzzles")]
    pub weight: Option<f64>,
    /// Best-first: focal search, within (1 + EPS) of the optimum
    #[arg(long, value_name = "EPS", help_heading = "Sliding puzzles")]
    pub suboptimality: Option<f64>,

    /// Heuristic: dfs, beam, exact, greedy, backtrack or random
    ///
    /// Default: dfs up to 100 cells, beam above.
    /// greedy: region MILPs filled one by one (Salassa et al.'s Algorithm 1); backtrack:
    /// perfect regions with no-good cuts, greedy at its time limit (Algorithm 2); random: each
    /// piece class shuffled into its cells; beam: beam search over a scan order; dfs:
    /// depth-first search whose mismatch budget opens late in the scan, with restarts; exact:
    /// complete depth-first search for a perfect board (or all of them), shared across the
    /// threads, proving there is none when it ends without one.
    #[arg(long, value_parser = construct_names(), hide_possible_values = true, help_heading = "Edge-matching puzzles")]
    pub construct: Option<ConstructKind>,
    /// Heuristic: then ls, lns or none [default: none after dfs and beam]
    ///
    /// ls: Salassa et al.'s multi-neighbourhood local search; lns: large-neighbourhood search,
    /// windows destroyed and rebuilt by a beam (the default after --start); none: the
    /// constructed board is the answer.
    #[arg(long, value_parser = improve_names(), hide_possible_values = true, help_heading = "Edge-matching puzzles")]
    pub improve: Option<ImproveKind>,
    /// Heuristic: improve this complete board instead of building one
    #[arg(long, value_name = "BOARD", help_heading = "Edge-matching puzzles")]
    pub start: Option<PathBuf>,
    /// Heuristic: fix a piece first (repeatable), or `clues`
    ///
    /// Row and column from 0 as in board files; ROT in clockwise quarter turns. On the
    /// official Eternity II set its starter piece (139@8,7,2) is fixed by itself unless
    /// --fix or --no-fix is given; `--fix clues` fixes the starter and the four hint pieces
    /// of the clue puzzles.
    #[arg(long, value_parser = parse_fix, value_name = "PIECE@ROW,COL,ROT", help_heading = "Edge-matching puzzles")]
    pub fix: Vec<FixChoice>,
    /// Heuristic: leave the official Eternity II starter piece free
    #[arg(long, conflicts_with = "fix", help_heading = "Edge-matching puzzles")]
    pub no_fix: bool,
    /// Heuristic: the seed of every random choice [default: 1]
    #[arg(long, help_heading = "Edge-matching puzzles")]
    pub seed: Option<u64>,

    #[command(flatten)]
    pub common: Common,

    #[command(flatten)]
    pub research: Research,
}

/// The research flags that became `--set` keys: read, hidden, and turned into their keys.
#[derive(clap::Args)]
pub(crate) struct Research {
    /// MILP route: step the horizon (the default; milp.step).
    #[arg(long, hide = true)]
    pub step: bool,
    /// DRAT checker program.
    #[arg(long, hide = true, default_value = tilekit::certify::DEFAULT_CHECKER, requires = "certify")]
    pub checker: String,
    /// The network of --heuristic ann and ann-pdb.
    #[arg(long, hide = true, value_name = "FILE")]
    pub weights: Option<PathBuf>,
    #[arg(long, hide = true, requires = "certify")]
    split: Option<String>,
    #[arg(long, hide = true, requires = "certify")]
    split_jobs: Option<String>,
    #[arg(long, hide = true, requires = "certify")]
    direction: Option<String>,
    #[arg(long, hide = true)]
    batch: Option<String>,
    #[arg(long, hide = true)]
    max_states: Option<String>,
    #[arg(long, hide = true)]
    region: Option<String>,
    #[arg(long, hide = true)]
    backtrack_time: Option<String>,
    #[arg(long, hide = true)]
    ta_k: Option<String>,
    #[arg(long, hide = true)]
    ta_n: Option<String>,
    #[arg(long, hide = true)]
    clique_window: Option<String>,
    #[arg(long, hide = true)]
    clique_n: Option<String>,
    #[arg(long, hide = true)]
    tsr_first: bool,
    #[arg(long, hide = true)]
    patience: Option<String>,
    #[arg(long, hide = true)]
    beam_width: Option<String>,
    #[arg(long, hide = true)]
    scan: Option<String>,
    #[arg(long, hide = true)]
    breaks: Option<String>,
    #[arg(long, hide = true)]
    node_cap: Option<String>,
    #[arg(long, hide = true)]
    restarts: Option<String>,
    #[arg(long, hide = true)]
    construct_time: Option<String>,
    #[arg(long, hide = true)]
    lns_width: Option<String>,
    #[arg(long, hide = true)]
    lns_iterations: Option<String>,
    #[arg(long, hide = true)]
    lns_assign: Option<String>,
    #[arg(long, hide = true)]
    lookahead: bool,
}

impl Research {
    /// Each flag given, as the key it sets, in one fixed order.
    fn keys(&self) -> Vec<(&'static str, String)> {
        let mut out = Vec::new();
        let flags: [(&'static str, &Option<String>); 21] = [
            ("certify.split", &self.split),
            ("certify.split_jobs", &self.split_jobs),
            ("certify.direction", &self.direction),
            ("astar.batch", &self.batch),
            ("astar.max_states", &self.max_states),
            ("greedy.region", &self.region),
            ("backtrack.time", &self.backtrack_time),
            ("ls.ta_k", &self.ta_k),
            ("ls.ta_n", &self.ta_n),
            ("ls.clique_window", &self.clique_window),
            ("ls.clique_n", &self.clique_n),
            ("ls.patience", &self.patience),
            ("beam.width", &self.beam_width),
            ("search.scan", &self.scan),
            ("dfs.breaks", &self.breaks),
            ("dfs.node_cap", &self.node_cap),
            ("dfs.restarts", &self.restarts),
            ("search.time", &self.construct_time),
            ("lns.width", &self.lns_width),
            ("lns.iterations", &self.lns_iterations),
            ("lns.assign", &self.lns_assign),
        ];
        for (key, value) in flags {
            if let Some(v) = value {
                out.push((key, v.clone()));
            }
        }
        for (key, on) in [
            ("ls.tsr_first", self.tsr_first),
            ("search.lookahead", self.lookahead),
        ] {
            if on {
                out.push((key, "true".into()));
            }
        }
        out
    }
}

impl SolveArgs {
    /// The research parameters: the `--params` file, then the older flags, then `--set`,
    /// in that order (a later one wins).
    pub(crate) fn settings(&self) -> Result<Settings, tilekit::Error> {
        let mut s = Settings::default();
        if let Some(path) = &self.params {
            let text = tilekit::route::read_text(path, "parameter file")?;
            s.extend_toml(&text, &path.display().to_string())?;
        }
        let usage = |e: ParamError| tilekit::Error::Usage(e.to_string());
        for (key, value) in self.research.keys() {
            s.push(key, &value).map_err(usage)?;
        }
        for a in &self.set {
            s.push_assignment(a)
                .map_err(|e| tilekit::Error::Usage(format!("--set: {e}")))?;
        }
        Ok(s)
    }
}

/// `--preset`: the library's presets.
pub(crate) fn preset_names() -> impl clap::builder::TypedValueParser<Value = Preset> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(Preset::ALL.map(Preset::name))
        .map(|s| Preset::from_name(&s).expect("clap accepts only the listed names"))
}

/// `--construct`: the library's constructions.
pub(crate) fn construct_names() -> impl clap::builder::TypedValueParser<Value = ConstructKind> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(ConstructKind::ALL.map(ConstructKind::name))
        .map(|s| ConstructKind::from_name(&s).expect("clap accepts only the listed names"))
}

/// `--improve`: the library's improvements.
fn improve_names() -> impl clap::builder::TypedValueParser<Value = ImproveKind> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(ImproveKind::ALL.map(ImproveKind::name))
        .map(|s| ImproveKind::from_name(&s).expect("clap accepts only the listed names"))
}

fn parse_fix(s: &str) -> Result<FixChoice, String> {
    FixChoice::parse(s)
}

/// `--heuristic` of `--via astar`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum HeuristicArg {
    /// Manhattan distance + linear conflict.
    Manhattan,
    /// The additive pattern databases with the reflection.
    Pdb,
    /// The network's estimate (inadmissible).
    Ann,
    /// The network floored at the databases' value.
    AnnPdb,
}

impl From<HeuristicArg> for tilekit::route::astar::AstarHeuristic {
    fn from(h: HeuristicArg) -> Self {
        use tilekit::route::astar::AstarHeuristic as H;
        match h {
            HeuristicArg::Manhattan => H::Manhattan,
            HeuristicArg::Pdb => H::Pdb,
            HeuristicArg::Ann => H::Ann,
            HeuristicArg::AnnPdb => H::AnnPdb,
        }
    }
}
