//! The manifest of an exported set (`manifest.json`, schema `tilekit-manifest/1`, and the same
//! file rows flattened in `manifest.csv`): every file with its SHA-256, size in bytes, what
//! model and format it is, the horizon, the model's size, and the instance's known optimum
//! with where it comes from, so that whoever runs the files can check they hold what the
//! manifest says, and a campaign can hold every solver to the same numbers.
//!
//! Reading is strict (`deny_unknown_fields`, the schema named): a manifest from another
//! version or edited by hand is refused with a message rather than half understood.

use crate::route::size::Counts;
use crate::route::{Error, FamilyName};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::io::Read;
use std::path::Path;

/// The schema this version writes and reads.
pub const SCHEMA: &str = "tilekit-manifest/1";

/// `manifest.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// [`SCHEMA`].
    pub schema: String,
    /// The tilekit that wrote the files (a model's bytes may change between versions).
    pub tilekit_version: String,
    /// The command line that wrote them.
    pub command: Vec<String>,
    /// The set.
    pub set: SetInfo,
    /// The export's options.
    pub options: ExportOptions,
    /// The instances, in the set's order; each copied under `instances/`.
    pub instances: Vec<InstanceEntry>,
    /// The model files: instance by instance in the set's order, then by model and format in
    /// the order asked for.
    pub files: Vec<FileEntry>,
    /// The instance × model × format combinations not written, and why.
    pub skipped: Vec<Skipped>,
}

/// The set a manifest was made from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetInfo {
    /// The SET argument.
    pub spec: String,
    /// Where the instances come from.
    pub provenance: String,
}

/// The options every file was written with.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExportOptions {
    /// The models, in order.
    pub models: Vec<String>,
    /// The formats, in order.
    pub formats: Vec<String>,
    /// The time-indexed sliding models' number of steps (`auto` or a number).
    pub horizon: String,
    /// Edge MILP and SAT: the grey-on-the-rim filter.
    pub filter: bool,
    /// Edge MILP and SAT: the first corner tile fixed in the top-left cell.
    pub fix_corner: bool,
    /// The compression: `none` or `gz`.
    pub compress: String,
}

/// One instance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InstanceEntry {
    /// Its id in the set.
    pub id: String,
    /// Its copy, relative to the manifest.
    pub path: String,
    /// SHA-256 of the copy.
    pub sha256: String,
    /// Bytes of the copy.
    pub bytes: u64,
    /// `sliding` or `edge`.
    pub family: String,
    /// Sliding: the goal convention (`blank-last`, `blank-first`).
    pub goal: Option<String>,
    /// The optimal objective when known (moves; unmatched inner seams).
    pub known_optimum: Option<u64>,
    /// Where it comes from.
    pub optimum_source: Option<String>,
    /// The best objective known when no optimum is (unmatched seams: the fewest on a known
    /// board), for MIPLIB's `=best=`; absent otherwise and in older manifests.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_known: Option<u64>,
    /// Where `best_known` comes from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_source: Option<String>,
}

/// One model file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileEntry {
    /// The file, relative to the manifest.
    pub path: String,
    /// SHA-256 of the file as it is on disk (compressed, when it is).
    pub sha256: String,
    /// Bytes on disk.
    pub bytes: u64,
    /// The instance's id.
    pub instance: String,
    /// `sliding` or `edge`.
    pub family: String,
    /// The model (`neos`, `flow`, `sat`, `milp`, `clique`).
    pub model: String,
    /// The format (`lp`, `mps`, `gms`, `cnf`, `dimacs`, `neos`).
    pub format: String,
    /// `gz` when compressed.
    pub compressed: Option<String>,
    /// Time-indexed sliding models: the horizon T.
    pub horizon: Option<u64>,
    /// Where T comes from: `set` (the set's stated optimum), `native` (the native solver's
    /// proven optimum), `given` (T given as the horizon).
    pub horizon_source: Option<String>,
    /// The model's size, counted on the model written (`None` for GAMS and NEOS job files).
    pub size: Option<Size>,
    /// The instance's known optimum.
    pub known_optimum: Option<u64>,
    /// Where it comes from.
    pub optimum_source: Option<String>,
    /// Decision models (CNF): the answer a solver must give, `sat`, `unsat` or `unknown`
    /// ([`FileEntry::expected_answer`]); absent for the others and in older manifests.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<String>,
    /// CNF and WCNF files: the Global Benchmark Database's identifier of the formula
    /// ([`crate::format::dimacs_cnf::gbd_hash`], [`crate::format::wcnf::gbd_hash`]), the
    /// same compressed or not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gbd: Option<String>,
    /// The best objective known when no optimum is (unmatched seams: the fewest on a known
    /// board), for MIPLIB's `=best=`; absent otherwise and in older manifests.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_known: Option<u64>,
    /// Where `best_known` comes from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_source: Option<String>,
}

impl InstanceEntry {
    /// Its family (`sliding` unless the manifest says `edge`).
    pub fn family_name(&self) -> FamilyName {
        match self.family.as_str() {
            "edge" => FamilyName::Edge,
            _ => FamilyName::Sliding,
        }
    }

    /// The options one of its model files was written with: a sliding instance's goal and
    /// `horizon`, an edge instance's `filter` and `fix_corner`.
    pub fn options(
        &self,
        horizon: Option<usize>,
        filter: bool,
        fix_corner: bool,
    ) -> crate::route::family::FamilyOptions {
        use crate::route::family::{FamilyOptions, Horizon, SlidingOptions};
        match self.family_name() {
            FamilyName::Sliding => FamilyOptions::Sliding(SlidingOptions {
                goal: self
                    .goal
                    .as_deref()
                    .and_then(crate::puzzle::sliding::Goal::parse)
                    .unwrap_or_default(),
                horizon: horizon.map(Horizon::Steps),
            }),
            FamilyName::Edge => FamilyOptions::Edge(crate::formulate::edge_milp::EdgeMilpOptions {
                filter_feasible: filter,
                fix_first_corner: fix_corner,
            }),
        }
    }
}

impl FileEntry {
    /// The answer a decision model (CNF) must get, from the instance's known optimum: a
    /// sliding CNF says "a plan of exactly T moves" (`formulate::sliding_sat`), which exists
    /// when T is at least the optimum and of its parity (every plan has the optimum's parity,
    /// and a move and its undo lengthen one by two); an edge CNF's models are the perfect
    /// boards, which exist when the optimum is 0 unmatched seams. `None` for other formats.
    pub fn expected_answer(&self) -> Option<&'static str> {
        if self.format != "cnf" {
            return None;
        }
        let Some(k) = self.known_optimum else {
            return Some("unknown");
        };
        let sat = match (self.family.as_str(), self.horizon) {
            ("sliding", Some(t)) => t >= k && (t - k) % 2 == 0,
            ("edge", _) => k == 0,
            _ => return Some("unknown"),
        };
        Some(if sat { "sat" } else { "unsat" })
    }

    /// The file's name without its format and compression extensions: its `.solu` name, and
    /// the `NAME` of an MPS file, unique in the set as MIPLIB's are.
    pub fn name(&self) -> &str {
        model_name(&self.path, &self.format)
    }

    /// The file's line in MIPLIB's `.solu` form, for an optimisation model (LP, MPS, GAMS,
    /// OPB): `=opt= NAME v` where the model's optimum is known, `=inf= NAME` where the model
    /// has no solution (a sliding MILP whose horizon is below the optimum: at most one move a
    /// step), `=unkn= NAME` otherwise. NAME is the file's name without its format and
    /// compression extensions. `None` for decision and graph files.
    pub fn solu_line(&self) -> Option<String> {
        if !matches!(self.format.as_str(), "lp" | "mps" | "gms" | "opb") {
            return None;
        }
        let name = self.name();
        Some(
            match (self.known_optimum, self.family.as_str(), self.horizon) {
                (Some(k), "sliding", Some(t)) if t < k => format!("=inf= {name}"),
                (Some(k), _, _) => format!("=opt= {name} {k}"),
                (None, _, _) => match self.best_known {
                    Some(b) => format!("=best= {name} {b}"),
                    None => format!("=unkn= {name}"),
                },
            },
        )
    }
}

/// The name of the file at `path` (a set's relative path or any path) written in `format`:
/// its file name without the format's and the compression's extensions.
///
/// ```
/// use tilekit::campaign::manifest::model_name;
/// assert_eq!(model_name("sliding/korf100_1.neos.T53.mps.xz", "mps"), "korf100_1.neos.T53");
/// ```
pub fn model_name<'a>(path: &'a str, format: &str) -> &'a str {
    let file = path.rsplit(['/', '\\']).next().unwrap_or(path);
    let file = file
        .strip_suffix(".gz")
        .or_else(|| file.strip_suffix(".xz"))
        .unwrap_or(file);
    file.strip_suffix(format)
        .and_then(|f| f.strip_suffix('.'))
        .unwrap_or(file)
}

/// A model's size, as the manifest writes it. Kept apart from [`Counts`], which it is made
/// from: this is a file format others read (schema `tilekit-manifest/1`), so its field
/// names stay fixed whatever the route layer's type becomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum Size {
    /// A MILP.
    Milp {
        /// Columns.
        variables: u64,
        /// Constraints (the objective not counted).
        rows: u64,
        /// Constraint-matrix entries.
        nonzeros: u64,
    },
    /// A CNF.
    Cnf {
        /// Variables.
        variables: u64,
        /// Clauses.
        clauses: u64,
        /// Literal occurrences.
        literals: u64,
    },
    /// A graph.
    Graph {
        /// Nodes.
        nodes: u64,
        /// Edges.
        edges: u64,
    },
    /// A weighted CNF.
    Wcnf {
        /// Variables.
        variables: u64,
        /// Hard clauses.
        hard: u64,
        /// Soft clauses.
        soft: u64,
    },
}

impl Size {
    /// The size of what an export counted (`None` for an algebraic model).
    pub fn of(c: Counts) -> Option<Size> {
        match c {
            Counts::Milp {
                variables,
                rows,
                nonzeros,
            } => Some(Size::Milp {
                variables,
                rows,
                nonzeros,
            }),
            Counts::Cnf {
                variables,
                clauses,
                literals,
            } => Some(Size::Cnf {
                variables,
                clauses,
                literals,
            }),
            Counts::Graph { nodes, edges } => Some(Size::Graph { nodes, edges }),
            Counts::Wcnf {
                variables,
                hard,
                soft,
            } => Some(Size::Wcnf {
                variables,
                hard,
                soft,
            }),
            Counts::Algebraic => None,
        }
    }

    /// The kind and up to three numbers, for the CSV.
    fn columns(self) -> (&'static str, u64, u64, Option<u64>) {
        match self {
            Size::Milp {
                variables,
                rows,
                nonzeros,
            } => ("milp", variables, rows, Some(nonzeros)),
            Size::Cnf {
                variables,
                clauses,
                literals,
            } => ("cnf", variables, clauses, Some(literals)),
            Size::Graph { nodes, edges } => ("graph", nodes, edges, None),
            Size::Wcnf {
                variables,
                hard,
                soft,
            } => ("wcnf", variables, hard, Some(soft)),
        }
    }
}

/// A combination not written.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Skipped {
    /// The instance's id.
    pub instance: String,
    /// The model.
    pub model: String,
    /// The format.
    pub format: String,
    /// Why.
    pub reason: String,
}

impl Manifest {
    /// Read and check a manifest: the JSON, the schema, and that every path stays inside the
    /// manifest's directory.
    pub fn read(path: &Path) -> Result<Manifest, Error> {
        let text = crate::route::read_text(path, "manifest")?;
        let m: Manifest = serde_json::from_str(&text).map_err(|e| {
            Error::Usage(format!(
                "{}:{}: not a tilekit manifest: {e}",
                path.display(),
                e.line()
            ))
        })?;
        if m.schema != SCHEMA {
            return Err(Error::Usage(format!(
                "{}: schema {:?}: this tilekit reads {SCHEMA:?} (re-export the set with this version)",
                path.display(),
                m.schema
            )));
        }
        let paths = m
            .instances
            .iter()
            .map(|i| &i.path)
            .chain(m.files.iter().map(|f| &f.path));
        for p in paths {
            if !is_inside(p) {
                return Err(Error::Usage(format!(
                    "{}: the path {p:?} leaves the manifest's directory",
                    path.display()
                )));
            }
        }
        m.check_entries()
            .map_err(|e| Error::Usage(format!("{}: {e}", path.display())))?;
        Ok(m)
    }

    /// The entries must make one matrix: each instance and each file listed once (a repeated
    /// file would run twice and count twice), every family one tilekit knows, and every
    /// file of its instance's family.
    fn check_entries(&self) -> Result<(), String> {
        let mut ids = std::collections::HashMap::new();
        for (k, i) in self.instances.iter().enumerate() {
            if let Some(first) = ids.insert(i.id.as_str(), k) {
                return Err(format!(
                    "instances[{k}] repeats the id {:?} of instances[{first}]",
                    i.id
                ));
            }
            if FamilyName::from_name(&i.family).is_none() {
                return Err(format!(
                    "instances[{k}] ({}): unknown family {:?} (sliding or edge)",
                    i.id, i.family
                ));
            }
        }
        let mut paths = std::collections::HashMap::new();
        for (k, f) in self.files.iter().enumerate() {
            if let Some(first) = paths.insert(f.path.as_str(), k) {
                return Err(format!(
                    "files[{k}] lists {} again (files[{first}] lists it first)",
                    f.path
                ));
            }
            let Some(inst) = self.instances.iter().find(|i| i.id == f.instance) else {
                return Err(format!(
                    "files[{k}] ({}) names the instance {:?}, which the manifest does not list",
                    f.path, f.instance
                ));
            };
            if f.family != inst.family {
                return Err(format!(
                    "files[{k}] ({}) says family {:?}, but its instance {} is {:?}",
                    f.path, f.family, inst.id, inst.family
                ));
            }
        }
        Ok(())
    }

    /// The manifest as JSON text (pretty, with a final newline).
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).expect("a manifest serialises");
        s.push('\n');
        s
    }

    /// `solutions.solu`: one MIPLIB line per optimisation model file
    /// ([`FileEntry::solu_line`]), in the manifest's order.
    pub fn solu(&self) -> String {
        let mut out = String::new();
        for line in self.files.iter().filter_map(FileEntry::solu_line) {
            out.push_str(&line);
            out.push('\n');
        }
        out
    }

    /// The file rows as CSV (RFC 4180), the size flattened into `size_kind,size_a,size_b,size_c`
    /// (variables/rows/nonzeros, variables/clauses/literals, nodes/edges,
    /// variables/hard/soft clauses).
    pub fn to_csv(&self) -> String {
        let mut out = String::from(
            "path,sha256,bytes,instance,family,model,format,compressed,horizon,horizon_source,size_kind,size_a,size_b,size_c,known_optimum,optimum_source,expected,gbd\n",
        );
        let num = |x: Option<u64>| x.map(|x| x.to_string()).unwrap_or_default();
        for f in &self.files {
            let (kind, a, b, c) = match f.size.map(Size::columns) {
                Some((k, a, b, c)) => (k, Some(a), Some(b), c),
                None => ("", None, None, None),
            };
            let row = [
                f.path.clone(),
                f.sha256.clone(),
                f.bytes.to_string(),
                f.instance.clone(),
                f.family.clone(),
                f.model.clone(),
                f.format.clone(),
                f.compressed.clone().unwrap_or_default(),
                num(f.horizon),
                f.horizon_source.clone().unwrap_or_default(),
                kind.to_string(),
                num(a),
                num(b),
                num(c),
                num(f.known_optimum),
                f.optimum_source.clone().unwrap_or_default(),
                f.expected.clone().unwrap_or_default(),
                f.gbd.clone().unwrap_or_default(),
            ];
            let fields: Vec<String> = row.iter().map(|x| csv_field(x)).collect();
            out.push_str(&fields.join(","));
            out.push('\n');
        }
        out
    }
}

/// A relative path with no `..`, no root and no empty part.
pub(crate) fn is_inside(p: &str) -> bool {
    let path = Path::new(p);
    !p.is_empty()
        && path
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_)))
}

/// One CSV field: quoted when it holds a comma, a quote or a line break, quotes doubled.
pub fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// SHA-256 (lower-case hex) and length of a file, read in 1 MiB blocks.
pub fn sha256_file(path: &Path) -> std::io::Result<(String, u64)> {
    let mut f = std::fs::File::open(path)?;
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    let mut n = 0u64;
    loop {
        let k = f.read(&mut buf)?;
        if k == 0 {
            break;
        }
        h.update(&buf[..k]);
        n += k as u64;
    }
    Ok((hex(&h.finalize()), n))
}

/// SHA-256 (lower-case hex) of bytes.
pub fn sha256_bytes(b: &[u8]) -> String {
    hex(&Sha256::digest(b))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_matches_the_standard_vectors() {
        assert_eq!(
            sha256_bytes(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(
            sha256_bytes(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("x");
        std::fs::write(&p, b"abc").unwrap();
        assert_eq!(sha256_file(&p).unwrap(), (sha256_bytes(b"abc"), 3));
    }

    #[test]
    fn csv_fields_are_quoted_when_they_must_be() {
        assert_eq!(csv_field("plain"), "plain");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_field("two\nlines"), "\"two\nlines\"");
    }

    #[test]
    fn paths_must_stay_inside() {
        assert!(is_inside("files/a.lp"));
        for p in ["", "/etc/passwd", "../x", "a/../../x", "./a"] {
            assert!(!is_inside(p), "{p}");
        }
    }
}
