//! Research parameters by name, and named presets: the knobs that most runs leave at their
//! measured defaults, set as `key = value` (HiGHS's options file, CaDiCaL's `--name=value`)
//! instead of one command-line flag each. The keys are the library's own vocabulary: the
//! methods they tune apply them to their typed options (`route::edge_heuristic::HeuristicPlan`,
//! `search::NativeOptions`, …) and refuse a key that belongs to another method, naming it.
//!
//! [`PARAMS`] lists every key with its values, default and meaning; the parameter reference
//! of the user's guide is generated from it (and a test keeps the two the same).
//!
//! ```
//! use tilekit::route::params::Settings;
//!
//! let mut s = Settings::default();
//! s.push_assignment("beam.width=4096").unwrap();
//! s.extend_toml("[lns]\nwidth = 64\nassign = 0.25\n", "p.toml").unwrap();
//! let keys: Vec<&str> = s.iter().map(|(k, _)| k).collect();
//! assert_eq!(keys, ["beam.width", "lns.assign", "lns.width"]);
//! assert!(s.push_assignment("no.such=1").is_err());
//! ```

use crate::error::InputError;
use crate::field::Field;
use std::fmt;

/// What a parameter takes, for its reference line and its error messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Param {
    /// The key, `group.name`.
    pub key: &'static str,
    /// The values it takes, in words.
    pub values: &'static str,
    /// Its default, in words.
    pub default: &'static str,
    /// What it does, in one sentence.
    pub doc: &'static str,
}

/// Every parameter, grouped by the method it tunes.
pub const PARAMS: &[Param] = &[
    // Sliding, native IDA*.
    Param {
        key: "native.fsm",
        values: "0 to 20",
        default: "12",
        doc: "Prune move sequences of up to this many moves that repeat a shorter or earlier one (0: only a move and its undo); the automaton's build grows about 2.2 times per move.",
    },
    Param {
        key: "native.dual",
        values: "true or false",
        default: "false",
        doc: "Add the dual lookups (and their reflection) to the pattern databases' maximum; their extra tables are built once and cached.",
    },
    Param {
        key: "native.bpmx",
        values: "true or false",
        default: "false",
        doc: "Propagate inconsistent heuristic values between parent and children (bidirectional pathmax).",
    },
    Param {
        key: "native.frontier",
        values: "0 or more (boards)",
        default: "16777216 on boards of 25 cells or more, else 0 (0 in the paper preset)",
        doc: "Store the frontier of one IDA* iteration (up to this many boards, 64 bytes each) and run the later iterations from it, deepest boards first (Bu & Korf's A*+IDA* order); 0: never, every iteration from the start board.",
    },
    Param {
        key: "native.max_with",
        values: "a 15-puzzle partition: 7-8, 7-8-cols, 7-7-1 or 6-6-3",
        default: "none",
        doc: "Take the maximum with a second partition's estimate: fewer nodes, more table reads per node, twice the memory.",
    },
    Param {
        key: "native.incumbent_share",
        values: "0 to 0.9",
        default: "0.2",
        doc: "Under a time limit, the share of it that beam search and weighted IDA* get first for a plan (at least half a second; 0: none, only the optimal search, which may then end with a bound alone).",
    },
    // Sliding, time-indexed MILP.
    Param {
        key: "milp.step",
        values: "true or false",
        default: "true",
        doc: "Solve horizons B, B + 2, … up to the horizon, B the admissible bound; the first with a plan gives the optimum (false: one model at the horizon).",
    },
    // Sliding, SAT certificates.
    Param {
        key: "certify.direction",
        values: "forward, backward or both",
        default: "the encoding's choice",
        doc: "Which way the refuted formula runs from the start board; both races the two and stops the loser.",
    },
    Param {
        key: "certify.split",
        values: "0 to 8",
        default: "0",
        doc: "Cube-and-conquer: split the refutation on the first DEPTH moves and certify each leaf.",
    },
    Param {
        key: "certify.split_jobs",
        values: "1 to 256",
        default: "2",
        doc: "Leaves of a split refuted at the same time.",
    },
    // Sliding, best-first search.
    Param {
        key: "astar.batch",
        values: "1 or more",
        default: "1",
        doc: "Nodes expanded together before their children are estimated in one batch.",
    },
    Param {
        key: "astar.max_states",
        values: "1 or more",
        default: "30000000",
        doc: "Stop when this many boards are stored (30 million take about 1.2 GB).",
    },
    // Edge-matching heuristics: the construction.
    Param {
        key: "greedy.region",
        values: "RxC, e.g. 1xn, 2xn, 3x3 (n: the board's width)",
        default: "1xn",
        doc: "The region shape of the greedy and backtracking constructions, in the paper's order.",
    },
    Param {
        key: "backtrack.time",
        values: "seconds",
        default: "half the time limit",
        doc: "The backtracking construction's own limit, after which the deepest partial board is finished greedily.",
    },
    Param {
        key: "beam.width",
        values: "1 or more",
        default: "passes of doubling width from 1024 while the time lasts",
        doc: "One beam pass of this width.",
    },
    Param {
        key: "search.scan",
        values: "rowmajor, colmajor, diagonal, comb or comb:K",
        default: "comb",
        doc: "The order the beam and the DFS fill cells in (comb: rows, the last two column by column).",
    },
    Param {
        key: "search.lookahead",
        values: "true or false",
        default: "false",
        doc: "Rank the beam's children by matched seams less the seams some colour's supply forces to break.",
    },
    Param {
        key: "search.time",
        values: "seconds",
        default: "the whole time limit without an improvement, half of it with one",
        doc: "The beam's or the DFS's own budget.",
    },
    Param {
        key: "dfs.breaks",
        values: "chain:N (N breaks where the board's fit chain places them), N (spread evenly from 75 % to 94 % of the scan) or D:B,D:B,… (from D placed cells on, B breaks in all)",
        default: "chain:12 on a 256-cell board, in proportion elsewhere (a third more on every other worker)",
        doc: "The DFS's mismatch budget, opening late in the scan.",
    },
    Param {
        key: "dfs.quota",
        values: "off, or colours C,C,… as the puzzle numbers them",
        default: "off",
        doc: "A colour quota: the DFS must place the sides of these colours early (four fifths of them by half of the scan, on a curve computed from the board's pieces), or it cuts the branch.",
    },
    Param {
        key: "dfs.finishes",
        values: "1 or more",
        default: "4",
        doc: "How many of a DFS restart's deepest partial boards a beam finishes (all as deep, the fewest breaks first); the best finished board is the restart's.",
    },
    Param {
        key: "dfs.finish_back",
        values: "0 or more",
        default: "an eighth of the board's cells (32 on Eternity II)",
        doc: "How many of the cells a DFS restart placed last the finishing beam takes back and places again with the empty ones (0: the empty ones alone).",
    },
    Param {
        key: "dfs.node_cap",
        values: "1 or more",
        default: "20000000",
        doc: "Placements per DFS restart.",
    },
    Param {
        key: "dfs.restarts",
        values: "1 or more",
        default: "until the time is up",
        doc: "DFS restarts in all; with one thread the board is then a function of the seed (on boards of up to 100 cells, with dfs.exact_share=0 too: the exact search's share is timed).",
    },
    Param {
        key: "dfs.exact_share",
        values: "0 to 1",
        default: "0.02 on boards of up to 100 cells, 0 above",
        doc: "The share of the DFS's time the exact search gets first; a perfect board or a proof that there is none ends the run (0: no exact search).",
    },
    Param {
        key: "exact.all",
        values: "true or false",
        default: "false",
        doc: "The exact search counts every perfect board instead of stopping at the first.",
    },
    Param {
        key: "exact.prefix",
        values: "1 or more",
        default: "the first depth with 4096 prefixes",
        doc: "Cells the exact search places before it shares the work out by prefixes.",
    },
    // Edge-matching heuristics: the improvement.
    Param {
        key: "ls.ta_k",
        values: "1 or more",
        default: "16",
        doc: "Tile Assignment: tiles freed per move (the paper's TA.K).",
    },
    Param {
        key: "ls.ta_n",
        values: "1 or more",
        default: "1000",
        doc: "Tile Assignment: moves per cycle (TA.N).",
    },
    Param {
        key: "ls.clique_window",
        values: "WxH",
        default: "6x6",
        doc: "Region Optimisation: the max-clique window (Clique.W x Clique.H).",
    },
    Param {
        key: "ls.clique_n",
        values: "1 or more",
        default: "10",
        doc: "Region Optimisation: windows per cycle (Clique.N).",
    },
    Param {
        key: "ls.tsr_first",
        values: "true or false",
        default: "false",
        doc: "Tiles Swap and Rotation takes the first improvement instead of the best.",
    },
    Param {
        key: "ls.patience",
        values: "1 or more",
        default: "1",
        doc: "Whole local-search cycles without a gain before it stops (1: a local optimum of every neighbourhood).",
    },
    Param {
        key: "lns.width",
        values: "1 or more",
        default: "128",
        doc: "The beam width of each window's rebuild.",
    },
    Param {
        key: "lns.iterations",
        values: "1 or more",
        default: "until the time is up",
        doc: "Rebuilds in all; with one thread the board is then a function of the seed.",
    },
    Param {
        key: "lns.assign",
        values: "0 to 1",
        default: "0.5",
        doc: "The share of repairs made by an exact assignment of pairwise non-adjacent cells, the rest by window rebuilds.",
    },
];

/// The parameter `key`, if there is one.
pub fn param(key: &str) -> Option<&'static Param> {
    PARAMS.iter().find(|p| p.key == key)
}

/// A parameter that cannot be applied.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParamError {
    /// No parameter has this key.
    #[error(
        "{key} is not a parameter (the parameter reference lists them: {})",
        known()
    )]
    Unknown {
        /// The key given.
        key: String,
    },
    /// The assignment is not `key=value`.
    #[error("{text:?} is not a parameter assignment: expected KEY=VALUE, e.g. beam.width=4096")]
    NotAnAssignment {
        /// What was given.
        text: String,
    },
    /// The value does not parse, or is out of range.
    #[error("{key} takes {expected}, not {value:?}")]
    Value {
        /// The key.
        key: &'static str,
        /// The value given.
        value: String,
        /// What it takes.
        expected: &'static str,
    },
    /// The key tunes a method this run does not use.
    #[error("{key} tunes {tunes}, which this run does not use (it runs {this})")]
    NotUsed {
        /// The key.
        key: String,
        /// The method it tunes, in words.
        tunes: &'static str,
        /// What the run uses instead, in words.
        this: String,
    },
}

/// The known keys, for the error message.
fn known() -> String {
    PARAMS.iter().map(|p| p.key).collect::<Vec<_>>().join(", ")
}

impl ParamError {
    /// The value of `key` could not be read as `param`'s values say.
    pub fn value(key: &str, value: &str) -> ParamError {
        match param(key) {
            Some(p) => ParamError::Value {
                key: p.key,
                value: value.to_string(),
                expected: p.values,
            },
            None => ParamError::Unknown {
                key: key.to_string(),
            },
        }
    }
}

/// Parameter assignments in the order given (a later one wins), every key known.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Settings(Vec<(String, String)>);

impl Settings {
    /// Add `key`'s value (a known key only).
    pub fn push(&mut self, key: &str, value: &str) -> Result<(), ParamError> {
        let p = param(key).ok_or_else(|| ParamError::Unknown { key: key.into() })?;
        self.0.push((p.key.to_string(), value.trim().to_string()));
        Ok(())
    }

    /// Add one `key=value` assignment.
    pub fn push_assignment(&mut self, text: &str) -> Result<(), ParamError> {
        let (key, value) = text
            .split_once('=')
            .ok_or_else(|| ParamError::NotAnAssignment { text: text.into() })?;
        self.push(key.trim(), value)
    }

    /// Add every parameter of a TOML file (tables name the groups: `[beam] width = 4096` is
    /// `beam.width`), in key order.
    pub fn extend_toml(&mut self, text: &str, source: &str) -> Result<(), InputError> {
        let table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
            // The line the parser stopped on, from the byte span it reports.
            match e.span() {
                Some(span) => {
                    let line = text[..span.start.min(text.len())].matches('\n').count() + 1;
                    InputError::at(source, line, e.message().to_string())
                }
                None => InputError::whole(source, e.message().to_string()),
            }
        })?;
        let mut flat = Vec::new();
        flatten("", &table, &mut flat);
        for (key, value) in flat {
            self.push(&key, &value)
                .map_err(|e| InputError::whole(source, e.to_string()))?;
        }
        Ok(())
    }

    /// The assignments, in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }

    /// True when nothing is set.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The assignments whose key starts with one of `groups` (`"beam."`, …).
    pub fn of<'a>(&'a self, groups: &'a [&str]) -> impl Iterator<Item = (&'a str, &'a str)> {
        self.iter()
            .filter(move |(k, _)| groups.iter().any(|g| k.starts_with(g)))
    }

    /// Refuse the first assignment not in `groups` (keys of methods this run does not use),
    /// naming `what` the run uses.
    pub fn only(&self, groups: &[&str], what: &str) -> Result<(), ParamError> {
        match self
            .iter()
            .find(|(k, _)| !groups.iter().any(|g| k.starts_with(g)))
        {
            Some((key, _)) => Err(ParamError::NotUsed {
                key: key.to_string(),
                tunes: group_words(key),
                this: what.to_string(),
            }),
            None => Ok(()),
        }
    }
}

/// `table` as dotted keys and plain-text values.
fn flatten(prefix: &str, table: &toml::Table, out: &mut Vec<(String, String)>) {
    for (k, v) in table {
        let key = if prefix.is_empty() {
            k.clone()
        } else {
            format!("{prefix}.{k}")
        };
        match v {
            toml::Value::Table(t) => flatten(&key, t, out),
            toml::Value::String(s) => out.push((key, s.clone())),
            other => out.push((key, other.to_string())),
        }
    }
}

/// The method a key's group tunes, in words.
pub fn group_words(key: &str) -> &'static str {
    match key.split('.').next().unwrap_or("") {
        "native" => "the native IDA* search",
        "milp" => "the sliding MILP route",
        "certify" => "SAT certificates",
        "astar" => "best-first search",
        "greedy" => "the greedy and backtracking constructions",
        "backtrack" => "the backtracking construction",
        "beam" => "the beam construction",
        "search" => "the beam, DFS and exact search constructions",
        "dfs" => "the DFS construction",
        "exact" => "the exact search",
        "ls" => "the local search",
        "lns" => "the large-neighbourhood search",
        _ => "another method",
    }
}

/// Read a value of `key` as `T`, or say what `key` takes.
pub fn parse<T: std::str::FromStr>(key: &str, value: &str) -> Result<T, ParamError> {
    value.parse().map_err(|_| ParamError::value(key, value))
}

/// Read a boolean value of `key`.
pub fn parse_bool(key: &str, value: &str) -> Result<bool, ParamError> {
    match value {
        "true" | "yes" | "on" | "1" => Ok(true),
        "false" | "no" | "off" | "0" => Ok(false),
        _ => Err(ParamError::value(key, value)),
    }
}

/// Read a count of at least 1 for `key`.
pub fn parse_count<T>(key: &str, value: &str) -> Result<T, ParamError>
where
    T: std::str::FromStr + PartialOrd + From<u8>,
{
    let v: T = parse(key, value)?;
    if v < T::from(1) {
        return Err(ParamError::value(key, value));
    }
    Ok(v)
}

/// Read a number of seconds for `key`: finite, positive, below 10⁹.
pub fn parse_seconds(key: &str, value: &str) -> Result<std::time::Duration, ParamError> {
    let s: f64 = parse(key, value)?;
    if !(s > 0.0 && s < 1e9) {
        return Err(ParamError::value(key, value));
    }
    Ok(std::time::Duration::from_secs_f64(s))
}

/// A named bundle of choices: what tilekit measured best, or what the source papers ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Preset {
    /// The measured best for each method (the defaults).
    #[default]
    Recommended,
    /// The source papers' configurations: the NEOS case study's own model at its own
    /// horizon, Salassa et al.'s greedy construction and local search, the native search
    /// without duplicate pruning or a stored frontier, A* at weight 1; no starter piece fixed.
    Paper,
    /// The fewest native search nodes tilekit has measured (two 7-8 partitions with their
    /// duals, BPMX, duplicate pruning to 16 moves): not the fastest, and 2.3 GB of tables.
    FewestNodes,
}

impl Preset {
    /// Every preset, in the order help lists them.
    pub const ALL: [Preset; 3] = [Preset::Recommended, Preset::Paper, Preset::FewestNodes];

    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Recommended => "recommended",
            Preset::Paper => "paper",
            Preset::FewestNodes => "fewest-nodes",
        }
    }

    /// The preset called `name`.
    pub fn from_name(name: &str) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| p.name() == name)
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The parameter reference (the user's guide page), generated from [`PARAMS`].
pub fn reference_markdown() -> String {
    let mut out = format!(
        "# Parameters\n\n<!-- Generated from src/route/params.rs by `tilekit params`, in Markdown; a test keeps it current. -->\n\n\
         Research parameters tune one method each. Most runs leave them at their defaults, \
         which are the measured best; set them with `{} KEY=VALUE` (repeatable) or \
         `{} FILE` (TOML: `[beam]` then `width = 4096` is `beam.width`). A parameter \
         of a method the run does not use is refused.\n",
        Field::Set,
        Field::Params,
    );
    let mut group = "";
    for p in PARAMS {
        let g = p.key.split('.').next().unwrap_or("");
        if g != group {
            group = g;
            out.push_str(&format!(
                "\n## {}\n\n| key | values | default | what it does |\n|---|---|---|---|\n",
                capitalise(group_words(p.key))
            ));
        }
        out.push_str(&format!(
            "| `{}` | {} | {} | {} |\n",
            p.key, p.values, p.default, p.doc
        ));
    }
    out.push_str(&format!("\n## Presets\n\n`{} NAME` picks a bundle before any other choice; flags and parameters given with it still apply.\n\n| preset | what it is |\n|---|---|\n", Field::Preset));
    for p in Preset::ALL {
        out.push_str(&format!("| `{}` | {} |\n", p.name(), preset_words(p)));
    }
    out
}

/// A preset in one sentence, for the reference.
pub fn preset_words(p: Preset) -> &'static str {
    match p {
        Preset::Recommended => "The measured best for each method: the defaults.",
        Preset::Paper => {
            "The source papers' configurations: the NEOS case study's own model at its own horizon, Salassa et al.'s greedy construction and local search, the native search without duplicate pruning or a stored frontier, A* at weight 1, no starter piece fixed."
        }
        Preset::FewestNodes => {
            "The fewest native search nodes measured: two 7-8 partitions with their duals, BPMX and duplicate pruning to 16 moves (not the fastest; 2.3 GB of tables)."
        }
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_unique_grouped_and_described() {
        let mut seen = std::collections::HashSet::new();
        for p in PARAMS {
            assert!(seen.insert(p.key), "{} twice", p.key);
            assert!(p.key.contains('.'), "{}", p.key);
            assert_ne!(group_words(p.key), "another method", "{}", p.key);
            assert!(p.doc.ends_with('.'), "{}", p.key);
        }
    }

    #[test]
    fn assignments_and_files_keep_their_order_and_refuse_unknown_keys() {
        let mut s = Settings::default();
        s.push_assignment(" lns.width = 64 ").unwrap();
        assert_eq!(s.iter().collect::<Vec<_>>(), [("lns.width", "64")]);
        assert!(matches!(
            s.push_assignment("lns.widht=64"),
            Err(ParamError::Unknown { .. })
        ));
        assert!(matches!(
            s.push_assignment("lns.width"),
            Err(ParamError::NotAnAssignment { .. })
        ));
        let e = s
            .extend_toml("[lns]\nwidht = 3\n", "p.toml")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("p.toml: lns.widht is not a parameter"), "{e}");
        let e = s.extend_toml("[lns\n", "p.toml").unwrap_err();
        assert_eq!(e.source_name, "p.toml");
        let e = s
            .extend_toml("[beam]\nwidth = 4\nscan = \n", "p.toml")
            .unwrap_err();
        assert!(e.to_string().starts_with("p.toml:3:"), "{e}");
        s.extend_toml("native.fsm = 16\n[search]\nscan = \"comb:3\"\n", "p.toml")
            .unwrap();
        assert_eq!(
            s.iter().collect::<Vec<_>>(),
            [
                ("lns.width", "64"),
                ("native.fsm", "16"),
                ("search.scan", "comb:3")
            ]
        );
    }

    #[test]
    fn a_key_of_another_method_is_refused_with_both_named() {
        let mut s = Settings::default();
        s.push("beam.width", "8").unwrap();
        assert!(s.only(&["beam.", "search."], "beam").is_ok());
        assert_eq!(
            s.only(&["dfs.", "search."], "the DFS construction")
                .unwrap_err()
                .to_string(),
            "beam.width tunes the beam construction, which this run does not use (it runs the DFS construction)"
        );
    }

    #[test]
    fn values_are_read_or_refused_with_what_the_key_takes() {
        assert_eq!(parse_count::<u64>("dfs.node_cap", "5"), Ok(5));
        assert_eq!(
            parse_count::<u64>("dfs.node_cap", "0")
                .unwrap_err()
                .to_string(),
            "dfs.node_cap takes 1 or more, not \"0\""
        );
        assert_eq!(parse_bool("native.dual", "on"), Ok(true));
        assert!(parse_bool("native.dual", "maybe").is_err());
        assert!(parse_seconds("search.time", "nan").is_err());
        assert!(parse_seconds("search.time", "1e9").is_err());
        assert_eq!(
            parse_seconds("search.time", "1.5"),
            Ok(std::time::Duration::from_millis(1500))
        );
    }

    #[test]
    fn presets_round_trip_by_name() {
        for p in Preset::ALL {
            assert_eq!(Preset::from_name(p.name()), Some(p));
        }
        assert_eq!(Preset::from_name("fast"), None);
    }
}
