//! The solver registry, `solvers.toml` (`docs/src/reference/solvers-toml.md`): which external solvers exist, how to call
//! them and which parser reads their answers.
//!
//! Lookup order: an explicit file (a request's `solvers_file`), `$TILEKIT_SOLVERS`,
//! `./solvers.toml`, then the crate's own `solvers.toml`, built in.

use crate::solve::external::{self, RunSpec};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The built-in registry (the crate's `solvers.toml`).
pub const BUILTIN: &str = include_str!("../../solvers.toml");

/// The environment variable naming a registry file.
pub const ENV_VAR: &str = "TILEKIT_SOLVERS";

/// The placeholders an argument may contain.
pub const PLACEHOLDERS: [&str; 6] = [
    "model",
    "solution",
    "time_limit",
    "time_limit_int",
    "threads",
    "seed",
];

/// What a solver solves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SolverKind {
    /// Mixed-integer linear programs.
    Milp,
    /// CNF satisfiability.
    Sat,
    /// Maximum (weight) clique.
    Clique,
    /// Weighted partial MaxSAT.
    Maxsat,
}

/// The model file format a solver reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum InputFormat {
    /// CPLEX LP.
    Lp,
    /// Free MPS.
    Mps,
    /// DIMACS CNF.
    Cnf,
    /// DIMACS graph.
    Dimacs,
    /// WCNF, MaxSAT Evaluation 2022 format (`h` hard clauses, no header).
    Wcnf,
    /// WCNF, the older format with a `p wcnf V C TOP` header (clasp 3.3, sat4j).
    #[serde(rename = "wcnf-legacy")]
    WcnfLegacy,
}

/// Which parser reads a solver's answer, and so where the answer is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SolutionFormat {
    /// CBC `-solu` file.
    Cbc,
    /// HiGHS `--solution_file` (raw style).
    Highs,
    /// GLPK `-w` file.
    Glpk,
    /// A `name value` file in MIPLIB's, SCIP's or Gurobi's form (`=obj=`, `solution status:`
    /// or `objective value:`, `# Objective value =`), as SCIP, Gurobi and COPT write them.
    Sol,
    /// CPLEX's XML solution file.
    #[serde(rename = "cplex-xml")]
    CplexXml,
    /// SAT-competition output on stdout.
    Sat,
    /// MiniSat's result file.
    Minisat,
    /// cliquer's result line on stdout.
    Cliquer,
    /// MaxSAT Evaluation output on stdout (`o`, `s`, `v` lines).
    Maxsat,
}

impl SolverKind {
    /// The input formats a solver of this kind may read, for messages.
    pub fn inputs(self) -> &'static str {
        match self {
            Self::Milp => "lp or mps",
            Self::Sat => "cnf",
            Self::Clique => "dimacs",
            Self::Maxsat => "wcnf or wcnf-legacy",
        }
    }
    /// The name used in solvers.toml.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Milp => "milp",
            Self::Sat => "sat",
            Self::Clique => "clique",
            Self::Maxsat => "maxsat",
        }
    }
}

impl InputFormat {
    /// True when a solver of `kind` can read this format.
    pub fn suits(self, kind: SolverKind) -> bool {
        matches!(
            (kind, self),
            (SolverKind::Milp, Self::Lp | Self::Mps)
                | (SolverKind::Sat, Self::Cnf)
                | (SolverKind::Clique, Self::Dimacs)
                | (SolverKind::Maxsat, Self::Wcnf | Self::WcnfLegacy)
        )
    }
    /// The name used in solvers.toml, which is also the usual file extension.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Lp => "lp",
            Self::Mps => "mps",
            Self::Cnf => "cnf",
            Self::Dimacs => "dimacs",
            Self::Wcnf => "wcnf",
            Self::WcnfLegacy => "wcnf-legacy",
        }
    }
    /// The extension of the model file written for the solver (both WCNF dialects are
    /// `.wcnf`: solvers that look at the extension know no other).
    pub fn extension(self) -> &'static str {
        match self {
            Self::WcnfLegacy => "wcnf",
            other => other.as_str(),
        }
    }
}

impl SolutionFormat {
    /// The name used in solvers.toml.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Cbc => "cbc",
            Self::Highs => "highs",
            Self::Glpk => "glpk",
            Self::Sol => "sol",
            Self::CplexXml => "cplex-xml",
            Self::Sat => "sat",
            Self::Minisat => "minisat",
            Self::Cliquer => "cliquer",
            Self::Maxsat => "maxsat",
        }
    }

    /// True when the answer is written to the `{solution}` file rather than stdout.
    pub fn reads_file(self) -> bool {
        matches!(
            self,
            Self::Cbc | Self::Highs | Self::Glpk | Self::Sol | Self::CplexXml | Self::Minisat
        )
    }

    /// The kind of solver whose answers this parser reads.
    pub fn kind(self) -> SolverKind {
        match self {
            Self::Cbc | Self::Highs | Self::Glpk | Self::Sol | Self::CplexXml => SolverKind::Milp,
            Self::Sat | Self::Minisat => SolverKind::Sat,
            Self::Cliquer => SolverKind::Clique,
            Self::Maxsat => SolverKind::Maxsat,
        }
    }
}

/// One `[solver.NAME]` table.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SolverEntry {
    /// The table's name (`cbc` in `[solver.cbc]`).
    pub name: String,
    /// What it solves.
    pub kind: SolverKind,
    /// The program: a name looked up on `PATH`, or a path.
    pub command: String,
    /// The model format it reads.
    pub input: InputFormat,
    /// Arguments with placeholders (see [`PLACEHOLDERS`]).
    pub args: Vec<String>,
    /// Which parser reads its answer.
    pub solution: SolutionFormat,
    /// Arguments that make it print its version, if it has such a flag.
    pub version: Option<Vec<String>>,
}

/// Values for the placeholders of [`SolverEntry::args`].
#[derive(Debug, Clone, PartialEq)]
pub struct Placeholders<'a> {
    /// `{model}`: the model file.
    pub model: &'a Path,
    /// `{solution}`: where the solver should write its answer.
    pub solution: &'a Path,
    /// `{time_limit}` (seconds) and `{time_limit_int}` (whole seconds, at least 1).
    pub time_limit: Duration,
    /// `{threads}`.
    pub threads: u32,
    /// `{seed}`: the run's random seed (0 unless a campaign runs several).
    pub seed: u32,
}

impl SolverEntry {
    /// The arguments with every placeholder replaced.
    pub fn expand_args(&self, p: &Placeholders<'_>) -> Vec<String> {
        let secs = p.time_limit.as_secs_f64();
        let whole = (secs.ceil() as u64).max(1);
        let values = [
            ("{model}", p.model.display().to_string()),
            ("{solution}", p.solution.display().to_string()),
            ("{time_limit}", format!("{secs}")),
            ("{time_limit_int}", whole.to_string()),
            ("{threads}", p.threads.to_string()),
            ("{seed}", p.seed.to_string()),
        ];
        self.args
            .iter()
            .map(|a| values.iter().fold(a.clone(), |s, (k, v)| s.replace(k, v)))
            .collect()
    }
}

/// A loaded registry.
#[derive(Debug, Clone, PartialEq)]
pub struct Registry {
    /// Where it came from: a file path or `<built-in solvers.toml>`.
    source: String,
    /// The entries, sorted by name.
    entries: Vec<SolverEntry>,
}

/// A registry that cannot be read or is wrong.
#[derive(Debug, thiserror::Error)]
pub enum RegistryError {
    /// The file cannot be read.
    #[error("cannot read solver registry {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// Not valid TOML, or not the expected shape.
    #[error("{source_name}: invalid solver registry: {message}")]
    Syntax {
        /// The file.
        source_name: String,
        /// What the TOML reader said, with line and column.
        message: String,
    },
    /// One entry is inconsistent.
    #[error("{source_name}: [solver.{solver}]: {message}")]
    Entry {
        /// The file.
        source_name: String,
        /// The entry's name.
        solver: String,
        /// What is wrong.
        message: String,
    },
    /// No entry or embedded engine by that name.
    #[error("no solver named {name:?} in the registry ({source_name}); known: {available}")]
    Unknown {
        /// The name asked for.
        name: String,
        /// The registry's source.
        source_name: String,
        /// The names it does have, comma-separated.
        available: String,
    },
    /// The solver exists but solves another kind of model.
    #[error("solver {name:?} is a {} solver, not a {} one", kind.as_str(), wanted.as_str())]
    WrongKind {
        /// The name asked for.
        name: String,
        /// What it solves.
        kind: SolverKind,
        /// What the route needs.
        wanted: SolverKind,
    },
}

/// The file's shape, before validation.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    #[serde(default)]
    solver: BTreeMap<String, RawEntry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEntry {
    kind: SolverKind,
    command: String,
    input: InputFormat,
    args: Vec<String>,
    solution: SolutionFormat,
    #[serde(default)]
    version: Option<Vec<String>>,
}

impl Registry {
    /// Parse and check registry text; `source_name` names it in errors.
    pub fn from_toml(text: &str, source_name: &str) -> Result<Self, RegistryError> {
        let raw: RawFile = toml::from_str(text).map_err(|e| RegistryError::Syntax {
            source_name: source_name.to_string(),
            message: e.to_string().trim_end().replace('\n', " "),
        })?;
        let mut entries = Vec::with_capacity(raw.solver.len());
        for (name, r) in raw.solver {
            let bad = |message: String| RegistryError::Entry {
                source_name: source_name.to_string(),
                solver: name.clone(),
                message,
            };
            if r.command.trim().is_empty() {
                return Err(bad("`command` is empty".into()));
            }
            if r.solution.kind() != r.kind {
                return Err(bad(format!(
                    "solution parser \"{}\" reads {} answers, but kind is \"{}\"",
                    r.solution.as_str(),
                    r.solution.kind().as_str(),
                    r.kind.as_str()
                )));
            }
            if !r.input.suits(r.kind) {
                return Err(bad(format!(
                    "input \"{}\" is not a {} model format: use {}",
                    r.input.as_str(),
                    r.kind.as_str(),
                    r.kind.inputs()
                )));
            }
            for a in &r.args {
                if let Some(p) = unknown_placeholder(a) {
                    return Err(bad(format!(
                        "unknown placeholder {{{p}}} in argument {a:?} (known: {})",
                        PLACEHOLDERS.map(|p| format!("{{{p}}}")).join(" ")
                    )));
                }
            }
            let mentions = |p: &str| r.args.iter().any(|a| a.contains(p));
            if !mentions("{model}") {
                return Err(bad(
                    "`args` never mention {model}, so the solver would not see the model".into(),
                ));
            }
            if r.solution.reads_file() && !mentions("{solution}") {
                return Err(bad(format!(
                    "the \"{}\" parser reads the {{solution}} file, but `args` never mention {{solution}}",
                    r.solution.as_str()
                )));
            }
            entries.push(SolverEntry {
                name,
                kind: r.kind,
                command: r.command,
                input: r.input,
                args: r.args,
                solution: r.solution,
                version: r.version,
            });
        }
        Ok(Registry {
            source: source_name.to_string(),
            entries,
        })
    }

    /// The built-in registry.
    pub fn builtin() -> Self {
        Self::from_toml(BUILTIN, "<built-in solvers.toml>")
            .expect("the built-in solvers.toml is checked by a unit test")
    }

    /// Read a registry file.
    pub fn from_file(path: &Path) -> Result<Self, RegistryError> {
        let text = std::fs::read_to_string(path).map_err(|source| RegistryError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        Self::from_toml(&text, &path.display().to_string())
    }

    /// Load by the lookup order: `explicit`, `$TILEKIT_SOLVERS`, `./solvers.toml`, built-in.
    pub fn load(explicit: Option<&Path>) -> Result<Self, RegistryError> {
        if let Some(p) = explicit {
            return Self::from_file(p);
        }
        if let Some(p) = std::env::var_os(ENV_VAR).filter(|v| !v.is_empty()) {
            return Self::from_file(Path::new(&p));
        }
        let local = Path::new("solvers.toml");
        if local.is_file() {
            return Self::from_file(local);
        }
        Ok(Self::builtin())
    }

    /// Where the registry came from: a file path or `<built-in solvers.toml>`.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Every entry, in name order.
    pub fn entries(&self) -> &[SolverEntry] {
        &self.entries
    }

    /// The entry names, in order.
    pub fn names(&self) -> Vec<&str> {
        self.entries.iter().map(|e| e.name.as_str()).collect()
    }

    /// The entry called `name`, if there is one.
    pub fn get(&self, name: &str) -> Option<&SolverEntry> {
        self.entries.iter().find(|e| e.name == name)
    }

    /// The entry called `name`, or an error listing the names there are.
    pub fn lookup(&self, name: &str) -> Result<&SolverEntry, RegistryError> {
        self.get(name).ok_or_else(|| RegistryError::Unknown {
            name: name.to_string(),
            source_name: self.source.clone(),
            available: self.names().join(", "),
        })
    }

    /// The entry called `name` of `kind`, with the error messages every route gives.
    pub(crate) fn entry_of(
        &self,
        name: &str,
        kind: SolverKind,
    ) -> Result<SolverEntry, RegistryError> {
        let entry = self.lookup(name)?;
        if entry.kind != kind {
            return Err(RegistryError::WrongKind {
                name: name.to_string(),
                kind: entry.kind,
                wanted: kind,
            });
        }
        Ok(entry.clone())
    }

    /// The entries of one kind, in name order.
    pub fn of_kind(&self, kind: SolverKind) -> impl Iterator<Item = &SolverEntry> + '_ {
        self.entries.iter().filter(move |e| e.kind == kind)
    }
}

/// The first `{name}` in `arg` that is not a known placeholder.
fn unknown_placeholder(arg: &str) -> Option<&str> {
    let mut rest = arg;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let close = after.find('}')?;
        let name = &after[..close];
        if !PLACEHOLDERS.contains(&name) {
            return Some(name);
        }
        rest = &after[close + 1..];
    }
    None
}

/// Whether a solver's command is installed, and its version.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SolverStatus {
    /// True when the command was found.
    pub found: bool,
    /// Where it was found.
    pub path: Option<PathBuf>,
    /// The version it reports; `None` when it has no version flag or did not answer
    /// (print it as `unknown`, see [`SolverStatus::version_text`]).
    pub version: Option<String>,
}

impl SolverStatus {
    /// The version, or `unknown`.
    pub fn version_text(&self) -> &str {
        self.version.as_deref().unwrap_or("unknown")
    }
}

/// Find `entry`'s command and ask its version (at most 5 s).
pub fn probe(entry: &SolverEntry) -> SolverStatus {
    let Some(path) = find_command(&entry.command) else {
        return SolverStatus {
            found: false,
            path: None,
            version: None,
        };
    };
    let version = entry.version.as_ref().and_then(|args| {
        let out = external::run(&RunSpec {
            program: path.display().to_string(),
            args: args.clone(),
            time_limit: Duration::from_secs(5),
            cwd: None,
            stop: None,
        })
        .ok()?;
        if out.timed_out {
            return None;
        }
        extract_version(&out.stdout).or_else(|| extract_version(&out.stderr))
    });
    SolverStatus {
        found: true,
        path: Some(path),
        version,
    }
}

/// One line of `tilekit solvers`: an entry and what probing it found.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SolverListing {
    /// The entry's name.
    pub name: String,
    /// What it solves (`milp`, `sat`, `clique`).
    pub kind: &'static str,
    /// The model format it reads.
    pub input: &'static str,
    /// The command as configured.
    pub command: String,
    /// True when the command was found.
    pub found: bool,
    /// Where it was found.
    pub path: Option<PathBuf>,
    /// The version it reports, when it has a version flag.
    pub version: Option<String>,
    /// Whether its licence lets it run, for a program that needs one (GAMS); absent for the
    /// others.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub licence: Option<Licence>,
}

/// What a licensed program's own run said of its licence.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum Licence {
    /// It ran: the licence is valid.
    Valid,
    /// It stopped for a licensing error, said in one sentence.
    Invalid {
        /// What the program said, as one sentence.
        problem: String,
    },
    /// It failed for another reason, so the licence was not seen.
    Unknown {
        /// How the run failed.
        reason: String,
    },
}

/// Probe every entry of `registry` (concurrently: each probe may start a process).
pub fn list(registry: &Registry) -> Vec<SolverListing> {
    std::thread::scope(|s| {
        let handles: Vec<_> = registry
            .entries()
            .iter()
            .map(|e| s.spawn(move || (e, probe(e))))
            .collect();
        handles
            .into_iter()
            .filter_map(|h| h.join().ok())
            .map(|(e, st)| SolverListing {
                name: e.name.clone(),
                kind: e.kind.as_str(),
                input: e.input.as_str(),
                command: e.command.clone(),
                found: st.found,
                path: st.path,
                version: st.version,
                licence: None,
            })
            .collect()
    })
}

/// Resolve a command the way the runner will: a path as is, a bare name on `PATH`.
pub fn find_command(command: &str) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let executable = |p: &Path| {
        p.metadata()
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    if command.contains('/') {
        let p = PathBuf::from(command);
        return executable(&p).then_some(p);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(command))
        .find(|p| executable(p))
}

/// The version in a program's banner: the word after "version" (`HiGHS version 1.15.1`,
/// CBC's `Version: 2.10.8`), else the last word of the first line when it starts with a digit
/// (`GLPSOL--GLPK LP/MIP Solver 5.0`), else that first line (`sc2021`).
fn extract_version(text: &str) -> Option<String> {
    let looks_like = |w: &str| w.starts_with(|c: char| c.is_ascii_digit());
    // "version 1.15.1" anywhere, except a licence's own version ("License version 3").
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        for (i, w) in words.iter().enumerate() {
            let licence = i > 0 && words[i - 1].to_ascii_lowercase().starts_with("licen");
            if w.trim_end_matches(':').eq_ignore_ascii_case("version")
                && !licence
                && let Some(v) = words.get(i + 1).filter(|v| looks_like(v))
            {
                return Some(v.trim_end_matches(['.', ',']).to_string());
            }
        }
    }
    // Else the first line's last word when it is a version ("GLPK … 5.0", "4.0.4"), or a
    // first line of one word ("sc2021"); never a whole banner.
    let first = text.lines().map(str::trim).find(|l| !l.is_empty())?;
    let words: Vec<&str> = first.split_whitespace().collect();
    match words.as_slice() {
        [one] => Some((*one).to_string()),
        [.., last] if looks_like(last) => Some((*last).to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_registry_is_valid_and_complete() {
        let r = Registry::builtin();
        let names: Vec<&str> = r.entries.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "cadical",
                "cbc",
                "clasp",
                "cliquer",
                "cpsat",
                "evalmaxsat",
                "glpk",
                "highs",
                "kissat",
                "minisat",
                "open-wbo",
                "rc2",
                "scip",
                "uwrmaxsat"
            ]
        );
        assert_eq!(r.get("scip").unwrap().solution, SolutionFormat::Sol);
        assert_eq!(r.of_kind(SolverKind::Maxsat).count(), 5);
        assert_eq!(r.get("clasp").unwrap().input, InputFormat::WcnfLegacy);
        assert_eq!(r.get("rc2").unwrap().input, InputFormat::Wcnf);
        assert_eq!(r.get("glpk").unwrap().command, "glpsol");
        assert_eq!(r.of_kind(SolverKind::Milp).count(), 5);
        assert!(r.get("gurobi").is_none());
        let e = r.lookup("gurobi").unwrap_err().to_string();
        assert!(
            e.contains("no solver named \"gurobi\"") && e.contains("cbc, clasp, cliquer"),
            "{e}"
        );
    }

    #[test]
    fn placeholders_expand() {
        let r = Registry::builtin();
        let p = Placeholders {
            model: Path::new("/w/m.lp"),
            solution: Path::new("/w/m.sol"),
            time_limit: Duration::from_millis(1500),
            threads: 4,
            seed: 3,
        };
        assert_eq!(
            r.get("cbc").unwrap().expand_args(&p),
            [
                "/w/m.lp",
                "-timeMode",
                "elapsed",
                "-sec",
                "1.5",
                "-threads",
                "4",
                "-solve",
                "-solu",
                "/w/m.sol"
            ]
        );
        assert_eq!(r.get("glpk").unwrap().expand_args(&p)[3], "2");
        assert_eq!(
            r.get("kissat").unwrap().expand_args(&p)[..2],
            ["--time=2", "--seed=3"]
        );
        assert!(
            r.get("highs")
                .unwrap()
                .expand_args(&p)
                .ends_with(&["--random_seed".into(), "3".into()])
        );
    }

    #[test]
    fn bad_registries_name_the_file_and_the_problem() {
        let cases = [
            ("[solver.x]\nkind = \"milp\"\n", "missing field"),
            ("[solver.x\n", "invalid solver registry"),
            (
                "[solver.x]\nkind=\"quantum\"\ncommand=\"x\"\ninput=\"lp\"\nargs=[\"{model}\"]\nsolution=\"cbc\"\n",
                "unknown variant",
            ),
            (
                "[solver.x]\nkind=\"milp\"\ncommand=\"x\"\ninput=\"lp\"\nargs=[\"{model}\"]\nsolution=\"cbc\"\ncolour=1\n",
                "unknown field",
            ),
            (
                "[solver.x]\nkind=\"sat\"\ncommand=\"x\"\ninput=\"cnf\"\nargs=[\"{model}\"]\nsolution=\"cbc\"\n",
                "[solver.x]: solution parser \"cbc\" reads milp answers, but kind is \"sat\"",
            ),
            (
                "[solver.x]\nkind=\"milp\"\ncommand=\"x\"\ninput=\"lp\"\nargs=[\"{model}\"]\nsolution=\"cbc\"\n",
                "never mention {solution}",
            ),
            (
                "[solver.x]\nkind=\"sat\"\ncommand=\"x\"\ninput=\"cnf\"\nargs=[\"{modle}\"]\nsolution=\"sat\"\n",
                "unknown placeholder {modle}",
            ),
            (
                "[solver.x]\nkind=\"sat\"\ncommand=\"\"\ninput=\"cnf\"\nargs=[\"{model}\"]\nsolution=\"sat\"\n",
                "`command` is empty",
            ),
            (
                "[solver.x]\nkind=\"milp\"\ncommand=\"x\"\ninput=\"dimacs\"\nargs=[\"{model}\", \"{solution}\"]\nsolution=\"cbc\"\n",
                "[solver.x]: input \"dimacs\" is not a milp model format: use lp or mps",
            ),
            (
                "[solver.x]\nkind=\"sat\"\ncommand=\"x\"\ninput=\"lp\"\nargs=[\"{model}\"]\nsolution=\"sat\"\n",
                "input \"lp\" is not a sat model format: use cnf",
            ),
            (
                "[solver.x]\nkind=\"maxsat\"\ncommand=\"x\"\ninput=\"cnf\"\nargs=[\"{model}\"]\nsolution=\"maxsat\"\n",
                "input \"cnf\" is not a maxsat model format: use wcnf or wcnf-legacy",
            ),
            (
                "[solver.x]\nkind=\"maxsat\"\ncommand=\"x\"\ninput=\"wcnf_legacy\"\nargs=[\"{model}\"]\nsolution=\"maxsat\"\n",
                "unknown variant `wcnf_legacy`",
            ),
            (
                "[solver.x]\nkind=\"sat\"\ncommand=\"x\"\ninput=\"cnf\"\nargs=[\"{model}\"]\nsolution=\"maxsat\"\n",
                "solution parser \"maxsat\" reads maxsat answers, but kind is \"sat\"",
            ),
        ];
        for (text, words) in cases {
            let e = Registry::from_toml(text, "my.toml")
                .unwrap_err()
                .to_string();
            assert!(e.starts_with("my.toml: "), "{e}");
            assert!(e.contains(words), "{text:?}: {e}");
        }
        let e = Registry::from_file(Path::new("/no/such/solvers.toml"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("/no/such/solvers.toml"), "{e}");
    }

    #[test]
    fn versions_are_picked_out_of_banners() {
        let v = |s: &str| extract_version(s).unwrap();
        assert_eq!(
            v("Welcome to the CBC MILP Solver \nVersion: 2.10.8 \nBuild Date: May  9 2022 \n"),
            "2.10.8"
        );
        assert_eq!(
            v("HiGHS version 1.15.1 Githash 04024d7. Copyright (c) 2026"),
            "1.15.1"
        );
        assert_eq!(
            v("GLPSOL--GLPK LP/MIP Solver 5.0\nCopyright (C) 2000-2020\n"),
            "5.0"
        );
        assert_eq!(v("sc2021\n"), "sc2021");
        assert_eq!(v("4.0.4\n"), "4.0.4");
        assert_eq!(extract_version(""), None);
        // A licence line before the version line, and a banner with no version in it.
        assert_eq!(
            v(
                "Copyright (c) 2026 under MIT licence terms\nHiGHS version 1.15.1 Githash 04024d7.\n"
            ),
            "1.15.1"
        );
        assert_eq!(
            v("GNU General Public License version 3\nVersion: 2.10.8\n"),
            "2.10.8"
        );
        assert_eq!(extract_version("Usage: solver [options] file\n"), None);
    }

    #[test]
    fn probing_a_missing_command() {
        let mut e = Registry::builtin().get("cbc").unwrap().clone();
        e.command = "tilekit-no-such-solver".into();
        let s = probe(&e);
        assert!(!s.found && s.path.is_none());
        assert_eq!(s.version_text(), "unknown");
    }
}
