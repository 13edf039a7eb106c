//! Bytes in and out: model writers and solution-file parsers, one file per format.

pub mod dimacs_cnf;
pub mod dimacs_graph;
pub mod gams;
pub mod gams_log;
pub mod lp;
pub mod mps;
pub mod neos_job;
pub mod opb;
pub mod solution;
pub mod solver_log;
pub mod wcnf;

/// The model file formats tilekit writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// CPLEX LP ([`lp`]).
    Lp,
    /// Free MPS ([`mps`]).
    Mps,
    /// GAMS, algebraic, from a template ([`gams`]).
    Gms,
    /// DIMACS CNF ([`dimacs_cnf`]).
    Cnf,
    /// WCNF, MaxSAT Evaluation 2022 format ([`wcnf`]).
    Wcnf,
    /// WCNF with the older `p wcnf` header ([`wcnf`]), for clasp and other pre-2022 solvers.
    WcnfLegacy,
    /// DIMACS graph ([`dimacs_graph`]).
    Dimacs,
    /// A NEOS job document wrapping one of the others ([`neos_job`]).
    Neos,
    /// OPB, the pseudo-Boolean competition's format, for 0/1 MILPs ([`opb`]).
    Opb,
    /// WBO, its weighted Boolean optimisation format, for MaxSAT models ([`opb::write_wbo`]).
    Wbo,
}

impl Format {
    /// Every format, in the order help texts list them.
    pub const ALL: [Format; 10] = [
        Format::Lp,
        Format::Mps,
        Format::Gms,
        Format::Cnf,
        Format::Wcnf,
        Format::WcnfLegacy,
        Format::Dimacs,
        Format::Neos,
        Format::Opb,
        Format::Wbo,
    ];
    /// The format's name, which is also the usual file extension.
    pub fn name(self) -> &'static str {
        match self {
            Format::Lp => "lp",
            Format::Mps => "mps",
            Format::Gms => "gms",
            Format::Cnf => "cnf",
            Format::Wcnf => "wcnf",
            Format::WcnfLegacy => "wcnf-legacy",
            Format::Dimacs => "dimacs",
            Format::Neos => "neos",
            Format::Opb => "opb",
            Format::Wbo => "wbo",
        }
    }
    /// Other names and file extensions of the same format.
    pub fn aliases(self) -> &'static [&'static str] {
        match self {
            Format::Dimacs => &["clq", "col"],
            Format::Neos => &["xml"],
            _ => &[],
        }
    }
    /// A format's name or a file extension (`clq` and `col` are DIMACS graphs, `xml` a
    /// NEOS job).
    pub fn from_name(s: &str) -> Option<Format> {
        match s {
            "lp" => Some(Format::Lp),
            "mps" => Some(Format::Mps),
            "gms" => Some(Format::Gms),
            "cnf" => Some(Format::Cnf),
            "wcnf" => Some(Format::Wcnf),
            "wcnf-legacy" => Some(Format::WcnfLegacy),
            "dimacs" | "clq" | "col" => Some(Format::Dimacs),
            "neos" | "xml" => Some(Format::Neos),
            "opb" => Some(Format::Opb),
            "wbo" => Some(Format::Wbo),
            _ => None,
        }
    }
}
