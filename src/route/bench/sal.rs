//! `tilekit bench sal`: Salassa et al.'s Table 3 reproduced — the greedy and backtracking
//! constructions with 1×n and 2×n regions, each with and without the local search, on the
//! META 2010 10×10 to 16×16 instances and the official Eternity II set — with MAX, AVG and MIN
//! over runs (one seed each) beside the paper's figures.
//!
//! One run per seed and configuration gives two rows: the constructed board (`greedy`,
//! `backtracking`) and the same board after the local search (`+LS`), which the paper ran for
//! the backtracking heuristic's time limit; here `ls_time` is that budget, and `backtrack_time`
//! the backtracking limit, both as given (the paper's 1200–3600 s do not fit every machine).
//! Every board is verified by the independent checker before it is counted.

use super::{Column, Outcome, Table};
use crate::edge_search::construct::RegionShape;
use crate::field::Field;
use crate::puzzle::edge::EdgePuzzle;
use crate::route::edge_heuristic::{Construct, ConstructKind, HeuristicPlan, Improve, ImproveKind};
use crate::route::{Error, Progress};
use crate::solve::Limits;
use crate::solve::registry::Registry;
use std::io::Write;
use std::time::Duration;

/// One instance of the set, compiled in from `models/edge-matching/` (provenance there).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SalInstance {
    /// The name Table 3 gives it.
    pub name: &'static str,
    /// The piece file.
    pub text: &'static str,
}

/// The five instances of Table 3.
pub const INSTANCES: [SalInstance; 5] = [
    SalInstance {
        name: "10x10",
        text: include_str!("../../../models/edge-matching/meta2010/pieces_10x10.txt"),
    },
    SalInstance {
        name: "12x12",
        text: include_str!("../../../models/edge-matching/meta2010/pieces_12x12.txt"),
    },
    SalInstance {
        name: "14x14",
        text: include_str!("../../../models/edge-matching/meta2010/pieces_14x14.txt"),
    },
    SalInstance {
        name: "16x16",
        text: include_str!("../../../models/edge-matching/meta2010/pieces_16x16.txt"),
    },
    SalInstance {
        name: "EII",
        text: include_str!("../../../models/edge-matching/eternity2/e2pieces.txt"),
    },
];

/// Table 3 of the paper: (instance, start, region rows, MAX, AVG, MIN, average seconds), over
/// 20 runs with CPLEX 12.4 on a 3.46 GHz Nehalem core. Figures quoted for comparison.
pub const PAPER: [(&str, &str, usize, u32, f64, u32, f64); 40] = [
    ("10x10", "greedy", 1, 165, 161.10, 158, 4.29),
    ("10x10", "greedy+LS", 1, 168, 164.90, 161, 1204.29),
    ("10x10", "greedy", 2, 170, 166.35, 164, 25.93),
    ("10x10", "greedy+LS", 2, 170, 167.05, 164, 1225.93),
    ("10x10", "backtracking", 1, 169, 165.65, 162, 1200.24),
    ("10x10", "backtracking+LS", 1, 172, 167.75, 165, 2400.24),
    ("10x10", "backtracking", 2, 170, 167.65, 164, 1207.06),
    ("10x10", "backtracking+LS", 2, 171, 168.10, 165, 2407.06),
    ("12x12", "greedy", 1, 245, 241.20, 239, 6.83),
    ("12x12", "greedy+LS", 1, 247, 244.00, 240, 1806.83),
    ("12x12", "greedy", 2, 249, 247.00, 244, 101.02),
    ("12x12", "greedy+LS", 2, 250, 247.50, 245, 1901.02),
    ("12x12", "backtracking", 1, 248, 245.35, 242, 1801.51),
    ("12x12", "backtracking+LS", 1, 250, 247.75, 246, 3601.51),
    ("12x12", "backtracking", 2, 249, 247.60, 246, 1868.85),
    ("12x12", "backtracking+LS", 2, 252, 248.45, 246, 3668.85),
    ("14x14", "greedy", 1, 338, 333.00, 329, 10.43),
    ("14x14", "greedy+LS", 1, 339, 335.56, 332, 2410.43),
    ("14x14", "greedy", 2, 344, 340.50, 338, 2335.42),
    ("14x14", "greedy+LS", 2, 344, 340.80, 338, 4735.42),
    ("14x14", "backtracking", 1, 342, 338.25, 334, 2401.36),
    ("14x14", "backtracking+LS", 1, 344, 340.69, 336, 4801.36),
    ("14x14", "backtracking", 2, 344, 342.17, 340, 4664.65),
    ("14x14", "backtracking+LS", 2, 344, 342.33, 340, 7064.65),
    ("16x16", "greedy", 1, 448, 444.05, 440, 24.08),
    ("16x16", "greedy+LS", 1, 449, 446.20, 443, 3624.08),
    ("16x16", "greedy", 2, 454, 451.38, 448, 11188.03),
    ("16x16", "greedy+LS", 2, 454, 451.88, 448, 14788.03),
    ("16x16", "backtracking", 1, 453, 448.80, 444, 3605.68),
    ("16x16", "backtracking+LS", 1, 454, 451.53, 449, 7205.68),
    ("16x16", "backtracking", 2, 457, 453.69, 451, 13722.86),
    ("16x16", "backtracking+LS", 2, 457, 454.00, 451, 17322.86),
    ("EII", "greedy", 1, 449, 443.75, 440, 21.85),
    ("EII", "greedy+LS", 1, 450, 446.50, 442, 3621.85),
    ("EII", "greedy", 2, 456, 451.75, 450, 13835.04),
    ("EII", "greedy+LS", 2, 457, 451.95, 450, 17435.04),
    ("EII", "backtracking", 1, 453, 449.00, 446, 3605.08),
    ("EII", "backtracking+LS", 1, 454, 451.35, 447, 7205.08),
    ("EII", "backtracking", 2, 457, 452.80, 448, 15294.52),
    ("EII", "backtracking+LS", 2, 457, 453.15, 449, 18894.52),
];

/// What `bench sal` runs.
#[derive(Debug, Clone)]
pub struct SalOptions {
    /// Instances by name (`10x10`, …, `EII`); empty: all five.
    pub instances: Vec<String>,
    /// Starts: greedy and/or backtrack.
    pub starts: Vec<ConstructKind>,
    /// Region heights: 1 and/or 2 (whole-width bands, the paper's 1×n and 2×n).
    pub region_rows: Vec<usize>,
    /// Runs (seeds 1..=runs) per configuration.
    pub runs: usize,
    /// The local search's budget per run, seconds (0: no local search).
    pub ls_time: f64,
    /// The backtracking heuristic's own limit per run, seconds.
    pub backtrack_time: f64,
    /// A ceiling on each construction, seconds (greedy regions past it are filled cheaply).
    pub construct_time: f64,
    /// The MILP solver of the registry.
    pub solver: String,
    /// Its threads.
    pub threads: u32,
}

/// One row of the table: a configuration's figures over its runs, beside the paper's.
#[derive(Debug, Clone, serde::Serialize)]
pub struct SalRow {
    /// Instance.
    pub instance: String,
    /// `greedy`, `greedy+LS`, `backtracking` or `backtracking+LS`.
    pub start: String,
    /// Region shape, `1xn` or `2xn`.
    pub region: String,
    /// Matched seams per run (seed order).
    pub matched: Vec<usize>,
    /// Best.
    pub max: usize,
    /// Mean.
    pub avg: f64,
    /// Worst.
    pub min: usize,
    /// Mean seconds per run.
    pub seconds: f64,
    /// The paper's MAX, AVG, MIN and seconds for the same row.
    pub paper: Option<(u32, f64, u32, f64)>,
}

fn row(instance: &str, start: &str, rows: usize, runs: &[(usize, f64)]) -> SalRow {
    let matched: Vec<usize> = runs.iter().map(|r| r.0).collect();
    let n = runs.len().max(1) as f64;
    SalRow {
        instance: instance.to_string(),
        start: start.to_string(),
        region: format!("{rows}xn"),
        max: matched.iter().copied().max().unwrap_or(0),
        min: matched.iter().copied().min().unwrap_or(0),
        avg: matched.iter().sum::<usize>() as f64 / n,
        seconds: runs.iter().map(|r| r.1).sum::<f64>() / n,
        paper: PAPER
            .iter()
            .find(|p| p.0 == instance && p.1 == start && p.2 == rows)
            .map(|p| (p.3, p.4, p.5, p.6)),
        matched,
    }
}

/// The instances named (any case), all five when none is: shared by `bench sal` and
/// `bench edge` (`bench` names the command in the message for an unknown name).
pub fn pick(names: &[String], bench: &str) -> Result<Vec<SalInstance>, Error> {
    if names.is_empty() {
        return Ok(INSTANCES.to_vec());
    }
    names
        .iter()
        .map(|name| {
            INSTANCES
                .iter()
                .find(|i| i.name.eq_ignore_ascii_case(name))
                .copied()
                .ok_or_else(|| {
                    Error::Usage(format!(
                        "no instance {name:?} in bench {bench}: the instances are 10x10, 12x12, 14x14, 16x16 and EII"
                    ))
                })
        })
        .collect()
}

/// The table: ours, then the paper's figures for the same configuration.
const TABLE: Table = Table::new(&[
    Column::left("inst", 6),
    Column::left("start", 16),
    Column::left("region", 6),
    Column::right("MAX", 5),
    Column::right("AVG", 7),
    Column::right("MIN", 5),
    Column::right("time s", 8),
    Column::right("paper MAX", 9),
    Column::right("AVG", 7),
    Column::right("MIN", 5),
    Column::right("time s", 8),
]);

/// The settings every row of a run shares.
#[derive(Debug, Clone, serde::Serialize)]
pub struct SalSummary {
    /// Runs per configuration (seeds 1, 2, …).
    pub runs: usize,
    /// Seconds of local search per run (0: none).
    pub ls_seconds: f64,
    /// The MILP solver of the regions.
    pub solver: String,
}

/// Run the table, writing each row to `out` as it completes; returns every row.
pub fn run(
    opts: &SalOptions,
    out: &mut dyn Write,
    progress: Progress<'_>,
) -> Result<Outcome<SalRow, SalSummary>, Error> {
    let chosen = pick(&opts.instances, "sal")?;
    if opts.runs == 0 {
        return Err(Error::usage(format!("{} must be at least 1", Field::Runs)));
    }
    let registry = Registry::load(None)?;
    let io = crate::route::output::stdout_write_error;
    writeln!(out, "{}", TABLE.header()).map_err(io)?;
    let mut rows = Vec::new();
    for inst in &chosen {
        let p = EdgePuzzle::parse(inst.text, inst.name)?;
        for &start in &opts.starts {
            for &h in &opts.region_rows {
                let mut built = Vec::new();
                let mut improved = Vec::new();
                for seed in 1..=opts.runs as u64 {
                    progress(&format!(
                        "bench sal: {} {} {h}xn, run {seed} of {}",
                        inst.name,
                        start.name(),
                        opts.runs
                    ));
                    let region = RegionShape {
                        rows: h,
                        cols: None,
                    };
                    let construct = match start {
                        ConstructKind::Backtrack => Construct::Backtrack {
                            region,
                            time: Some(Duration::from_secs_f64(opts.backtrack_time)),
                        },
                        ConstructKind::Greedy => Construct::Greedy { region },
                        other => Construct::new(other),
                    };
                    let mut plan = HeuristicPlan::paper().construct_with(construct);
                    plan.improve = if opts.ls_time > 0.0 {
                        // The budget is the measure here: the search keeps cycling (TA and RO
                        // sample afresh each cycle) until it is spent.
                        match Improve::new(ImproveKind::Ls) {
                            Improve::Ls { params, .. } => Improve::Ls {
                                params,
                                patience: usize::MAX,
                            },
                            other => other,
                        }
                    } else {
                        Improve::None
                    };
                    plan.seed = seed;
                    plan.ls_time =
                        (opts.ls_time > 0.0).then(|| Duration::from_secs_f64(opts.ls_time));
                    let total = opts.construct_time
                        + opts.ls_time
                        + if start == ConstructKind::Backtrack {
                            opts.backtrack_time
                        } else {
                            0.0
                        };
                    let limits = Limits::new(Duration::from_secs_f64(total), opts.threads);
                    let rep = crate::route::edge_heuristic::solve(
                        &p,
                        &plan,
                        &opts.solver,
                        &registry,
                        &limits,
                        progress,
                    )?;
                    if !rep.verified {
                        return Err(Error::Failure(format!(
                            "{} {} seed {seed}: the board failed verification: {}",
                            inst.name,
                            start.name(),
                            rep.errors.join("; ")
                        )));
                    }
                    let stats = rep
                        .heuristic
                        .as_ref()
                        .expect("the heuristic route fills its stats");
                    let construct_s = stats.trace.first().map_or(0.0, |t| t.seconds);
                    built.push((stats.constructed, construct_s));
                    improved.push((rep.matched().unwrap_or(0), rep.seconds));
                }
                let label = match start {
                    ConstructKind::Backtrack => "backtracking",
                    other => other.name(),
                };
                let mut these = vec![row(inst.name, label, h, &built)];
                if opts.ls_time > 0.0 {
                    these.push(row(inst.name, &format!("{label}+LS"), h, &improved));
                }
                for r in these {
                    let paper = r.paper.map_or_else(
                        || ["-".to_string(), "-".into(), "-".into(), "-".into()],
                        |(a, b, c, d)| {
                            [
                                a.to_string(),
                                format!("{b:.2}"),
                                c.to_string(),
                                format!("{d:.1}"),
                            ]
                        },
                    );
                    let [pmax, pavg, pmin, psec] = paper;
                    let cells = [
                        r.instance.clone(),
                        r.start.clone(),
                        r.region.clone(),
                        r.max.to_string(),
                        format!("{:.2}", r.avg),
                        r.min.to_string(),
                        format!("{:.1}", r.seconds),
                        pmax,
                        pavg,
                        pmin,
                        psec,
                    ];
                    writeln!(out, "{}", TABLE.row(&cells)).map_err(io)?;
                    rows.push(r);
                }
            }
        }
    }
    Ok(Outcome {
        benchmark: "sal".into(),
        rows,
        summary: SalSummary {
            runs: opts.runs,
            ls_seconds: opts.ls_time,
            solver: opts.solver.clone(),
        },
    })
}
