//! Model sizes, estimated before a model is built: a board of 100×100 or a horizon of 10⁸
//! would otherwise ask for tens of gigabytes and abort on allocation. A model that would not
//! fit in the memory this machine has available is refused with its estimate (exit 2).
//!
//! Time-indexed sliding models grow linearly in the horizon once it exceeds the board's
//! span, so their size is measured on three consecutive horizons there and extrapolated (the
//! SAT encoding measured without pruning, an upper bound). Edge-matching models grow with the feasible placements, which are counted in
//! closed form from the board's shape; the ratios of variables, rows and entries to
//! placements were measured on the META 2010 boards 4×4 to 12×12.

use super::Error;
use crate::formulate::sliding_sat::{self, Encoding};
use crate::formulate::{sliding_case_study, sliding_flow};
use crate::puzzle::edge::EdgePuzzle;
use crate::puzzle::sliding::{Goal, SlidingPuzzle};

pub use super::models::{EdgeModel, SlidingModel};

/// The kind of model, for its bytes per element.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Variables, rows and nonzeros.
    Milp,
    /// Variables, clauses and literals.
    Cnf,
    /// Nodes (the edges are streamed, never held).
    Graph,
    /// Variables, clauses (hard and soft) and literals.
    Wcnf,
}

/// An estimated model size.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Size {
    /// The kind of model.
    pub kind: Kind,
    /// Variables (nodes of a graph).
    pub vars: f64,
    /// Rows or clauses.
    pub rows: f64,
    /// Nonzeros or literals.
    pub entries: f64,
}

impl Size {
    /// Bytes the model takes in memory, with what its formulation keeps beside it: a
    /// variable's name, bounds and lists (about 120 bytes), a row (64), a nonzero (12); a
    /// CNF variable's name (40), a clause (8), a literal (4); a graph node (24).
    pub fn bytes(&self) -> f64 {
        match self.kind {
            Kind::Milp => self.vars * 120.0 + self.rows * 64.0 + self.entries * 12.0,
            Kind::Cnf | Kind::Wcnf => self.vars * 40.0 + self.rows * 8.0 + self.entries * 4.0,
            Kind::Graph => self.vars * 24.0,
        }
    }

    fn describe(&self) -> String {
        let (v, r, e) = match self.kind {
            Kind::Milp => ("variables", "rows", "nonzeros"),
            Kind::Cnf | Kind::Wcnf => ("variables", "clauses", "literals"),
            Kind::Graph => ("nodes", "", ""),
        };
        if self.kind == Kind::Graph {
            return format!("{} {v}", sci(self.vars));
        }
        format!(
            "{} {v}, {} {r} and {} {e}",
            sci(self.vars),
            sci(self.rows),
            sci(self.entries)
        )
    }
}

/// `4.0e8` style for big counts, plain below a million.
fn sci(x: f64) -> String {
    if x < 1e6 {
        format!("{x:.0}")
    } else {
        format!("{x:.1e}")
    }
}

/// What an exported model holds, counted on the model as it was written: the manifest of
/// `tilekit export-set` records it, and a reader can compare it with what a solver reports
/// on loading the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Counts {
    /// A MILP: its variables, rows (the objective is not one) and the rows' nonzeros.
    Milp {
        /// Columns.
        variables: u64,
        /// Constraints.
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
    /// A weighted CNF (MaxSAT).
    Wcnf {
        /// Variables.
        variables: u64,
        /// Hard clauses.
        hard: u64,
        /// Soft clauses.
        soft: u64,
    },
    /// An algebraic model (GAMS): its scalar size is the GAMS compiler's to count.
    Algebraic,
}

impl Counts {
    /// The counts of a MILP.
    pub fn milp(m: &crate::model::milp::Model) -> Self {
        Counts::Milp {
            variables: m.num_vars() as u64,
            rows: m.num_rows() as u64,
            nonzeros: m.num_nonzeros() as u64,
        }
    }
    /// The counts of a CNF.
    pub fn cnf(c: &crate::model::cnf::Cnf) -> Self {
        Counts::Cnf {
            variables: c.num_vars() as u64,
            clauses: c.num_clauses() as u64,
            literals: c.num_literals() as u64,
        }
    }
}

/// Memory available to a new model or search: `$TILEKIT_MAX_MEMORY_GB` when set (a batch
/// job's own limit), else the smaller of the kernel's `MemAvailable`, what the control group
/// (cgroup v2, as under Slurm or a container) still allows and what `ulimit -v` still lets
/// this process map; else 16 GiB.
pub fn available_bytes() -> f64 {
    if let Some(gb) = std::env::var("TILEKIT_MAX_MEMORY_GB")
        .ok()
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|gb| gb.is_finite() && *gb > 0.0)
    {
        return gb * 1e9;
    }
    let read = |path: &str| std::fs::read_to_string(path).ok();
    let meminfo = read("/proc/meminfo").and_then(|m| {
        m.lines()
            .find_map(|l| l.strip_prefix("MemAvailable:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
            .map(|kb| kb * 1024.0)
    });
    let number = |s: Option<String>| s.and_then(|s| s.trim().parse::<f64>().ok());
    let cgroup = number(read("/sys/fs/cgroup/memory.max"))
        .map(|max| max - number(read("/sys/fs/cgroup/memory.current")).unwrap_or(0.0));
    let machine = match (meminfo, cgroup) {
        (Some(m), Some(c)) => m.min(c),
        (Some(x), None) | (None, Some(x)) => x,
        (None, None) => 16.0 * (1u64 << 30) as f64,
    };
    address_space_left().map_or(machine, |left| machine.min(left))
}

/// What `ulimit -v` (RLIMIT_AS) still allows this process to map, when it is limited.
fn address_space_left() -> Option<f64> {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes the struct it is given and nothing else.
    if unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut lim) } != 0
        || lim.rlim_cur == libc::RLIM_INFINITY
    {
        return None;
    }
    let mapped = std::fs::read_to_string("/proc/self/status")
        .ok()?
        .lines()
        .find_map(|l| l.strip_prefix("VmSize:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())?
        * 1024.0;
    Some((lim.rlim_cur as f64 - mapped).max(0.0))
}

/// Refuse `size` when it would not fit in `available` bytes: "this model would have …".
pub fn check_within(size: Size, what: &str, available: f64) -> Result<(), Error> {
    let bytes = size.bytes();
    if bytes <= available {
        return Ok(());
    }
    Err(Error::Usage(format!(
        "{what} would have about {}, about {:.1} GB in memory, and this machine has {:.1} GB available: use a smaller instance or horizon",
        size.describe(),
        bytes / 1e9,
        available / 1e9
    )))
}

/// [`check_within`] the memory available now.
pub fn check(size: Size, what: &str) -> Result<(), Error> {
    check_within(size, what, available_bytes())
}

/// The size of a time-indexed sliding model at `horizon`, extrapolated from two probes. The
/// `tight` model is sized as the `flow` model it strengthens: fewer variables and a few rows
/// per step more, so the flow model's size bounds it.
pub fn sliding(p: &SlidingPuzzle, goal: Goal, model: SlidingModel, horizon: usize) -> Size {
    let at = |t: usize| -> Size {
        match model {
            SlidingModel::Neos | SlidingModel::Flow | SlidingModel::Tight => {
                let m = match model {
                    SlidingModel::Neos => sliding_case_study::build(p, goal, t).map(|b| b.model),
                    _ => sliding_flow::build(p, goal, t).map(|b| b.model),
                };
                match m {
                    Ok(m) => Size {
                        kind: Kind::Milp,
                        vars: m.num_vars() as f64,
                        rows: m.num_rows() as f64,
                        entries: m.num_nonzeros() as f64,
                    },
                    // A model that cannot be built at all is refused by the build itself.
                    Err(_) => Size {
                        kind: Kind::Milp,
                        vars: 0.0,
                        rows: 0.0,
                        entries: 0.0,
                    },
                }
            }
            SlidingModel::Sat => {
                let e = sliding_sat::build_encoding(p, goal, t, Encoding::Plain);
                Size {
                    kind: Kind::Cnf,
                    vars: e.cnf().num_vars() as f64,
                    rows: e.cnf().num_clauses() as f64,
                    entries: e.cnf().num_literals() as f64,
                }
            }
        }
    };
    // The flow model and the CNF leave out positions a tile cannot reach in time, so they
    // grow faster than linearly until the horizon passes about twice the board's span; the
    // slope is measured there (on boards of up to 64 cells, where such a probe is cheap).
    let cells = p.rows() * p.cols();
    let probe = if cells <= 64 {
        horizon.min(2 * (p.rows() + p.cols()))
    } else {
        1
    };
    if horizon <= probe + 2 {
        return at(horizon);
    }
    // Three probes: a few rows of the flow model span all steps, so its nonzeros grow with a
    // small quadratic term; the fit is exact for a quadratic (Newton's forward differences).
    let (a, b, c) = (at(probe), at(probe + 1), at(probe + 2));
    let t = (horizon - probe) as f64;
    let fit = |x0: f64, x1: f64, x2: f64| {
        let (d1, d2) = (x1 - x0, x2 - 2.0 * x1 + x0);
        x0 + d1 * t + d2 * t * (t - 1.0) / 2.0
    };
    Size {
        kind: a.kind,
        vars: fit(a.vars, b.vars, c.vars),
        rows: fit(a.rows, b.rows, c.rows),
        entries: fit(a.entries, b.entries, c.entries),
    }
}

/// Feasible placements of an R×C edge puzzle under the rim rule: corners (one rotation
/// each), border pieces on border cells (one rotation), inner pieces on inner cells (four).
fn filtered_placements(rows: f64, cols: f64) -> f64 {
    if rows < 2.0 || cols < 2.0 {
        return rows * cols * rows * cols * 4.0;
    }
    let border = 2.0 * (rows - 2.0) + 2.0 * (cols - 2.0);
    let inner = (rows - 2.0) * (cols - 2.0);
    16.0 + border * border + inner * inner * 4.0
}

/// The size of an edge-matching model: `milp` (with `filter`, only the feasible
/// placements; else every piece in every cell in every rotation), `sat`, `maxsat` or
/// `clique`.
pub fn edge(p: &EdgePuzzle, model: EdgeModel, filter: bool) -> Size {
    let (r, c) = (p.rows() as f64, p.cols() as f64);
    let cells = r * c;
    let placed = filtered_placements(r, c);
    match model {
        EdgeModel::Milp => {
            let x = if filter { placed } else { 4.0 * cells * cells };
            let vars = x + 2.0 * cells;
            Size {
                kind: Kind::Milp,
                vars,
                rows: vars / 4.0,
                entries: vars * 10.0,
            }
        }
        EdgeModel::Sat => Size {
            kind: Kind::Cnf,
            vars: placed * 3.2,
            rows: placed * 10.5,
            entries: placed * 27.0,
        },
        // The CNF's sizes, plus per inner seam one guard variable, one soft clause and one
        // guard literal in each of its placement→colour clauses (a few percent).
        EdgeModel::Maxsat => Size {
            kind: Kind::Wcnf,
            vars: placed * 3.2 + 2.0 * cells,
            rows: placed * 10.5 + 2.0 * cells,
            entries: placed * 29.0,
        },
        EdgeModel::Clique => Size {
            kind: Kind::Graph,
            vars: placed,
            rows: 0.0,
            entries: 0.0,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formulate::edge_milp::{self, EdgeMilpOptions};
    use crate::formulate::edge_sat::{self, SatOptions};

    const CASE: &str = "5 1 2 3\n9 6 7 4\n13 10 11 8\n14 15 0 12\n";

    fn close(estimate: f64, real: usize, tolerance: f64) -> bool {
        (estimate - real as f64).abs() <= tolerance * real as f64
    }

    #[test]
    fn sliding_estimates_match_the_built_models() {
        let p = SlidingPuzzle::parse(CASE, "case", Goal::BlankLast).unwrap();
        for t in [5, 13, 40, 90] {
            let m = sliding_case_study::build(&p, Goal::BlankLast, t)
                .unwrap()
                .model;
            let s = sliding(&p, Goal::BlankLast, SlidingModel::Neos, t);
            assert!(close(s.vars, m.num_vars(), 0.01), "{t}: {s:?}");
            assert!(close(s.entries, m.num_nonzeros(), 0.01), "{t}: {s:?}");
            let f = sliding_flow::build(&p, Goal::BlankLast, t).unwrap().model;
            let s = sliding(&p, Goal::BlankLast, SlidingModel::Flow, t);
            assert!(close(s.entries, f.num_nonzeros(), 0.01), "{t}: {s:?}");
            // The CNF estimate is the unpruned encoding: an upper bound of what is built.
            let c = sliding_sat::build(&p, Goal::BlankLast, t);
            let s = sliding(&p, Goal::BlankLast, SlidingModel::Sat, t);
            assert!(s.entries >= c.cnf().num_literals() as f64, "{t}: {s:?}");
        }
    }

    #[test]
    fn edge_estimates_are_near_the_built_models() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/models/edge-matching/meta2010/pieces_08x08.txt"
        ))
        .unwrap();
        let p = EdgePuzzle::parse(&text, "meta 8").unwrap();
        for filter in [false, true] {
            let m = edge_milp::build(
                &p,
                EdgeMilpOptions {
                    filter_feasible: filter,
                    fix_first_corner: false,
                },
            )
            .unwrap()
            .model;
            let s = edge(&p, EdgeModel::Milp, filter);
            assert!(close(s.vars, m.num_vars(), 0.05), "{filter}: {s:?}");
            assert!(close(s.entries, m.num_nonzeros(), 0.35), "{filter}: {s:?}");
        }
        let c = edge_sat::build(&p, &SatOptions::default());
        let s = edge(&p, EdgeModel::Sat, false);
        assert!(close(s.entries, c.cnf().num_literals(), 0.15), "{s:?}");
        let w = crate::formulate::edge_maxsat::build(&p, &SatOptions::default());
        let s = edge(&p, EdgeModel::Maxsat, false);
        let literals = w.wcnf().hard().num_literals() + w.wcnf().num_soft();
        assert!(close(s.vars, w.wcnf().num_vars(), 0.15), "{s:?}");
        assert!(close(s.entries, literals, 0.15), "{s:?}");
    }

    #[test]
    fn a_model_beyond_memory_is_refused_with_its_estimate() {
        let p = SlidingPuzzle::parse(CASE, "case", Goal::BlankLast).unwrap();
        let s = sliding(&p, Goal::BlankLast, SlidingModel::Neos, 99_999_999);
        let e = check_within(s, "this model", 8e9).unwrap_err();
        assert_eq!(e.exit_code(), 2);
        let msg = e.to_string();
        assert!(msg.starts_with("this model would have about 3."), "{msg}");
        assert!(msg.contains("e9 variables"), "{msg}");
        assert!(
            msg.contains("GB in memory, and this machine has 8.0 GB available"),
            "{msg}"
        );
        assert!(
            check_within(
                sliding(&p, Goal::BlankLast, SlidingModel::Neos, 80),
                "m",
                8e9
            )
            .is_ok()
        );
    }
}
