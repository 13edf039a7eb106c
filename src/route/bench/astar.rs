//! `tilekit bench astar`: best-first search with the admissible and the learned heuristics
//! on a set of 15-puzzles, as Cahlík & Surynek report it (share of optimal plans, mean
//! excess, expanded nodes as mean, quartiles and maximum, time per board), with their
//! figures printed beside, plus the proven gap every method can state, and an SVG chart of
//! optimality against mean nodes.
//!
//! Sets: `random` (uniformly random solvable boards from a seed that training data does not
//! use, each labelled by the native optimal solver), `korf100` and `deepcubea15` (published
//! optima). Every plan is replayed on the board before it is counted.

use super::{Column, Outcome, Table};
use crate::field::Field;
use crate::learn::data::board;
use crate::puzzle::sliding::{Goal, SlidingPuzzle};
use crate::route::astar::{AstarEngine, AstarHeuristic, order_name, tiles_of};
use crate::route::{Error, Progress};
use crate::search::ann::Mlp;
use crate::search::astar::{Order, replay};
use crate::search::sets::BenchSet;
use crate::search::{NativeSolver, NativeStatus};
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The boards of a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AstarSet {
    /// `count` random boards of the stream `seed` (see `learn::data::board`).
    Random {
        /// Boards.
        count: usize,
        /// Stream.
        seed: u64,
    },
    /// Korf's 100.
    Korf100,
    /// DeepCubeA's 500 test boards.
    DeepCubeA15,
}

/// One method of the bench: a heuristic and an order.
#[derive(Debug, Clone, PartialEq)]
pub struct Method {
    /// As given.
    pub label: String,
    /// The heuristic ordering the search.
    pub heuristic: AstarHeuristic,
    /// A*, weighted A* or focal.
    pub order: Order,
}

impl Method {
    /// `pdb`, `manhattan`, `ann`, `ann-pdb` (A*); `wa:W` (weighted A* on the databases,
    /// W ≥ 1); `ann-wa:W` (weighted A* on the network, W > 0: below 1 is more cautious);
    /// `focal:E` (focal search, the network choosing).
    pub fn parse(s: &str) -> Result<Method, Error> {
        let num = |v: &str, what: &str| -> Result<f64, Error> {
            v.parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && *x >= 0.0)
                .ok_or_else(|| {
                    Error::Usage(format!("{} {s}: {what} must be a number", Field::Methods))
                })
        };
        let plain = |h| Method {
            label: s.into(),
            heuristic: h,
            order: Order::Weighted { weight: 1.0 },
        };
        Ok(match s.split_once(':') {
            None => match AstarHeuristic::ALL.into_iter().find(|h| h.name() == s) {
                Some(h) => plain(h),
                None => {
                    return Err(Error::Usage(format!(
                        "{}: unknown method {s:?}; use pdb, manhattan, ann, ann-pdb, wa:W, ann-wa:W or focal:EPS",
                        Field::Methods
                    )));
                }
            },
            Some(("wa", w)) | Some(("ann-wa", w)) => {
                let weight = num(w, "the weight")?;
                if (weight < 1.0 && s.starts_with("wa")) || weight == 0.0 {
                    return Err(Error::Usage(format!(
                        "{} {s}: the weight must be at least 1 (wa) or positive (ann-wa)",
                        Field::Methods
                    )));
                }
                Method {
                    label: s.into(),
                    heuristic: if s.starts_with("ann") {
                        AstarHeuristic::Ann
                    } else {
                        AstarHeuristic::Pdb
                    },
                    order: Order::Weighted { weight },
                }
            }
            Some(("focal", e)) => Method {
                label: s.into(),
                heuristic: AstarHeuristic::Ann,
                order: Order::Focal {
                    eps: num(e, "the suboptimality")?,
                },
            },
            Some(_) => {
                return Err(Error::Usage(format!(
                    "{}: unknown method {s:?}; use pdb, manhattan, ann, ann-pdb, wa:W, ann-wa:W or focal:EPS",
                    Field::Methods
                )));
            }
        })
    }
}

/// Settings of [`run`].
#[derive(Debug, Clone)]
pub struct AstarBenchOptions {
    /// The boards.
    pub set: AstarSet,
    /// Only the first N.
    pub limit: Option<usize>,
    /// The methods, in order.
    pub methods: Vec<Method>,
    /// The network (needed by the learned methods).
    pub weights: Option<PathBuf>,
    /// Expansions per batch.
    pub batch: usize,
    /// Per board and method.
    pub time_limit: Duration,
    /// Stored boards per search.
    pub max_states: usize,
    /// Boards searched in parallel.
    pub jobs: usize,
    /// Where to draw the chart.
    pub svg: Option<PathBuf>,
}

/// One method's figures.
#[derive(Debug, Clone, serde::Serialize)]
pub struct MethodSummary {
    /// As given.
    pub method: String,
    /// What ordered the search and how.
    pub description: String,
    /// Boards.
    pub boards: usize,
    /// Boards with a plan.
    pub solved: usize,
    /// Share of boards whose plan is optimal (percent of all boards).
    pub optimal_percent: f64,
    /// Share whose optimality the search itself proved (bound meets plan).
    pub proven_percent: f64,
    /// Mean moves above the optimum over the solved boards.
    pub mean_excess: f64,
    /// Mean (plan − proven bound) over the solved boards: the gap the report states.
    pub mean_stated_gap: f64,
    /// Expanded nodes: mean, 25 %, median, 75 %, max.
    pub nodes: [f64; 5],
    /// Mean seconds per board.
    pub mean_seconds: f64,
    /// Boards that hit the time or state limit.
    pub stopped: usize,
    /// Mean reopened nodes per board (re-expansions are counted in `nodes`).
    pub mean_reopened: f64,
    /// Plans that failed the replay (must be 0).
    pub bad_plans: usize,
}

/// Microseconds per board of a network's forward pass at batch sizes 1, 4 and 64 (one
/// thread, boards from the random stream).
pub fn forward_micros(mlp: &Mlp) -> [(usize, f64); 3] {
    let boards: Vec<_> = (0..256u64).map(|i| board(4, 4, 77, i)).collect();
    [1usize, 4, 64].map(|b| {
        let mut out = vec![0f32; b];
        let reps = (20_000 / b).max(1);
        let t = Instant::now();
        for r in 0..reps {
            let at = (r * b) % (boards.len() - b + 1);
            mlp.forward(&boards[at..at + b], &mut out);
        }
        (b, t.elapsed().as_secs_f64() * 1e6 / (reps * b) as f64)
    })
}

/// A network of the given hidden widths with random weights, for timing only.
pub fn random_network(hidden: &[usize]) -> Mlp {
    let mut rng = crate::edge_search::Rng::new(5);
    let mut dims = vec![256];
    dims.extend(hidden);
    dims.push(1);
    let mut owned: Vec<(String, Vec<usize>, Vec<f32>)> = Vec::new();
    for i in 0..dims.len() - 1 {
        let w = (0..dims[i] * dims[i + 1])
            .map(|_| rng.unit() as f32 * 0.02 - 0.01)
            .collect();
        owned.push((format!("layers.{i}.weight"), vec![dims[i + 1], dims[i]], w));
        owned.push((
            format!("layers.{i}.bias"),
            vec![dims[i + 1]],
            vec![0.0; dims[i + 1]],
        ));
    }
    let bytes = crate::search::ann::write_weights(&crate::search::ann::WeightsOut {
        tensors: owned,
        rows: 4,
        cols: 4,
        target: crate::search::ann::Target::Distance,
        base: String::new(),
        bn_eps: 1e-3,
    })
    .expect("a well-formed network");
    Mlp::from_bytes(&bytes).expect("a well-formed network")
}

/// The table: one line per method.
const TABLE: Table = Table::new(&[
    Column::left("method", 14),
    Column::right("optimal", 7),
    Column::right("proven", 7),
    Column::right("excess", 7),
    Column::right("gap", 6),
    Column::right("nodes", 9),
    Column::right("25%", 8),
    Column::right("median", 8),
    Column::right("75%", 8),
    Column::right("max", 9),
    Column::right("s/board", 9),
    Column::right("stop", 5),
    Column::right("reopen", 7),
]);

/// The whole run: the set, the estimates and the networks (the rows are the methods).
#[derive(Debug, Clone, serde::Serialize)]
pub struct AstarBenchSummary {
    /// The set in words.
    pub set: String,
    /// Boards.
    pub boards: usize,
    /// Mean optimum.
    pub mean_optimum: f64,
    /// The admissible estimate.
    pub lower: String,
    /// Its bytes.
    pub lower_bytes: u64,
    /// The network's bytes (f32, as evaluated), when one was used.
    pub network_bytes: Option<usize>,
    /// The network's parameters.
    pub network_params: Option<usize>,
    /// µs per board of its forward pass at batch 1, 4, 64.
    pub network_micros: Option<[(usize, f64); 3]>,
    /// The same for a network of Cahlík & Surynek's size (random weights).
    pub cs_network_micros: Option<[(usize, f64); 3]>,
}

/// Cahlík & Surynek's figures (from the notebooks of `vcahlik/fifteen-puzzle`, quoted in
/// `docs/results/learned.md`): (label, optimal %, mean nodes).
pub const CS_POINTS: [(&str, f64, f64); 6] = [
    ("C&S 2019 A*+ANN", 75.9, 13_729.0),
    ("C&S 2019 A*+PDB 7-8", 100.0, 48_884.0),
    ("C&S journal WA* 1.15", 71.2, 3_296.0),
    ("C&S journal WA* 1.3", 27.6, 1_017.0),
    ("C&S journal ANN-MSE", 61.3, 355.0),
    ("C&S journal ANN-AMSE 0.8", 69.5, 2_576.0),
];

struct Case {
    tiles: crate::search::astar::Tiles,
    optimal: u32,
}

fn quantiles(mut v: Vec<u64>) -> [f64; 5] {
    if v.is_empty() {
        return [0.0; 5];
    }
    v.sort_unstable();
    let q = |p: f64| {
        let x = p * (v.len() - 1) as f64;
        let (lo, hi) = (x.floor() as usize, x.ceil() as usize);
        v[lo] as f64 + (v[hi] as f64 - v[lo] as f64) * (x - lo as f64)
    };
    let mean = v.iter().sum::<u64>() as f64 / v.len() as f64;
    [mean, q(0.25), q(0.5), q(0.75), v[v.len() - 1] as f64]
}

fn cases(
    opts: &AstarBenchOptions,
    native: &NativeSolver,
    progress: Progress<'_>,
) -> Result<(String, Vec<Case>), Error> {
    let take = |n: usize| opts.limit.map_or(n, |l| l.min(n));
    match opts.set {
        AstarSet::Korf100 | AstarSet::DeepCubeA15 => {
            let set = if opts.set == AstarSet::Korf100 {
                BenchSet::Korf100
            } else {
                BenchSet::DeepCubeA15
            };
            let all = set.cases();
            let n = take(all.len());
            Ok((
                set.name().into(),
                all[..n]
                    .iter()
                    .map(|c| Case {
                        tiles: tiles_of(&c.puzzle, c.goal),
                        optimal: c.optimal,
                    })
                    .collect(),
            ))
        }
        AstarSet::Random { count, seed } => {
            let n = take(count);
            let boards: Vec<_> = (0..n as u64).map(|i| board(4, 4, seed, i)).collect();
            // Labelled by the native optimal solver, in parallel.
            let labels = par_map(
                n,
                opts.jobs,
                |i| {
                    let p = SlidingPuzzle::new(
                        4,
                        4,
                        boards[i][..16].iter().map(|&t| t as u16).collect(),
                    )
                    .expect("a generated board");
                    native
                        .solve(&p, Goal::BlankFirst, None)
                        .ok()
                        .filter(|r| r.status == NativeStatus::Solved && r.proven_optimal)
                        .map(|r| r.lower_bound)
                },
                |d| {
                    if d.is_multiple_of(50) || d == n {
                        progress(&crate::search::step(
                            d as u64,
                            n as u64,
                            &format!("{d}/{n} boards labelled by IDA*"),
                        ));
                    }
                },
            );
            let mut out = Vec::new();
            for (t, l) in boards.into_iter().zip(labels) {
                let optimal = l.ok_or_else(|| {
                    Error::failure("the native solver failed to label a random board")
                })?;
                out.push(Case { tiles: t, optimal });
            }
            Ok((format!("random (seed {seed})"), out))
        }
    }
}

use crate::work::par_map;

struct One {
    nodes: u64,
    reopened: u64,
    len: Option<u32>,
    bound: u32,
    seconds: f64,
    bad: bool,
}

/// Run every method on the set, printing a row per method to `out` as it finishes.
pub fn run(
    opts: &AstarBenchOptions,
    out: &mut dyn Write,
    progress: Progress<'_>,
) -> Result<Outcome<MethodSummary, AstarBenchSummary>, Error> {
    if opts.methods.is_empty() {
        return Err(Error::usage(format!(
            "{}: give at least one",
            Field::Methods
        )));
    }
    if opts.jobs == 0 {
        return Err(Error::usage(format!("{} must be at least 1", Field::Jobs)));
    }
    let w = crate::route::output::stdout_write_error;
    let learned = opts.methods.iter().any(|m| m.heuristic.learned());
    let engine = AstarEngine::new(
        4,
        4,
        if learned {
            AstarHeuristic::AnnPdb
        } else {
            AstarHeuristic::Pdb
        },
        if learned {
            opts.weights.as_deref()
        } else {
            None
        },
        progress,
    )?;
    let md_engine = opts
        .methods
        .iter()
        .any(|m| m.heuristic == AstarHeuristic::Manhattan)
        .then(|| AstarEngine::new(4, 4, AstarHeuristic::Manhattan, None, progress))
        .transpose()?;
    let (set_name, cases) = cases(opts, engine.native(), progress)?;
    let n = cases.len();
    let mean_opt = cases.iter().map(|c| c.optimal as f64).sum::<f64>() / n.max(1) as f64;
    writeln!(
        out,
        "{set_name}: {n} boards, mean optimum {mean_opt:.2}; admissible estimate {} ({:.0} MB){}",
        engine.lower_name(),
        engine.lower_bytes() as f64 / 1e6,
        engine.mlp().map_or(String::new(), |m| format!(
            "; network {:?} {} parameters ({:.2} MB f32)",
            m.hidden(),
            m.params(),
            m.bytes() as f64 / 1e6
        ))
    )
    .map_err(w)?;
    writeln!(out, "{}", TABLE.header()).map_err(w)?;
    let mut summaries = Vec::new();
    for m in &opts.methods {
        let eng = if m.heuristic == AstarHeuristic::Manhattan {
            md_engine.as_ref().expect("made above")
        } else {
            &engine
        };
        let rs: Vec<One> = par_map(
            n,
            opts.jobs,
            |i| {
                let c = &cases[i];
                let t0 = Instant::now();
                let r = eng.run(
                    &c.tiles,
                    m.heuristic,
                    m.order,
                    opts.batch,
                    Some(t0 + opts.time_limit),
                    opts.max_states,
                );
                let seconds = t0.elapsed().as_secs_f64();
                let goal: crate::search::astar::Tiles =
                    core::array::from_fn(|k| if k < 16 { k as u8 } else { 0 });
                let bad = r.plan.as_ref().is_some_and(|p| {
                    replay(&c.tiles, 4, 4, p) != Some(goal) || (p.len() as u32) < c.optimal
                });
                One {
                    nodes: r.expanded,
                    reopened: r.reopened,
                    len: r.plan.as_ref().map(|p| p.len() as u32),
                    bound: r.bound,
                    seconds,
                    bad,
                }
            },
            |d| {
                if d.is_multiple_of(20) || d == n {
                    progress(&crate::search::step(
                        d as u64,
                        n as u64,
                        &format!("{}: {d}/{n} boards", m.label),
                    ));
                }
            },
        );
        let solved: Vec<(&One, u32)> = rs
            .iter()
            .zip(&cases)
            .filter(|(r, _)| r.len.is_some())
            .map(|(r, c)| (r, c.optimal))
            .collect();
        let k = solved.len().max(1) as f64;
        let sm = MethodSummary {
            method: m.label.clone(),
            description: format!("{}, {}", eng.guide_name(m.heuristic), order_name(m.order)),
            boards: n,
            solved: solved.len(),
            optimal_percent: 100.0
                * solved.iter().filter(|(r, o)| r.len == Some(*o)).count() as f64
                / n.max(1) as f64,
            proven_percent: 100.0
                * solved
                    .iter()
                    .filter(|(r, _)| r.len == Some(r.bound))
                    .count() as f64
                / n.max(1) as f64,
            mean_excess: solved
                .iter()
                .map(|(r, o)| (r.len.unwrap_or(0) - o) as f64)
                .sum::<f64>()
                / k,
            mean_stated_gap: solved
                .iter()
                .map(|(r, _)| (r.len.unwrap_or(0) - r.bound) as f64)
                .sum::<f64>()
                / k,
            nodes: quantiles(rs.iter().map(|r| r.nodes).collect()),
            mean_seconds: rs.iter().map(|r| r.seconds).sum::<f64>() / n.max(1) as f64,
            stopped: n - solved.len(),
            mean_reopened: rs.iter().map(|r| r.reopened as f64).sum::<f64>() / n.max(1) as f64,
            bad_plans: rs.iter().filter(|r| r.bad).count(),
        };
        let cells = [
            sm.method.clone(),
            format!("{:.1}%", sm.optimal_percent),
            format!("{:.1}%", sm.proven_percent),
            format!("{:.3}", sm.mean_excess),
            format!("{:.2}", sm.mean_stated_gap),
            format!("{:.0}", sm.nodes[0]),
            format!("{:.0}", sm.nodes[1]),
            format!("{:.0}", sm.nodes[2]),
            format!("{:.0}", sm.nodes[3]),
            format!("{:.0}", sm.nodes[4]),
            format!("{:.4}", sm.mean_seconds),
            sm.stopped.to_string(),
            format!("{:.1}", sm.mean_reopened),
        ];
        writeln!(out, "{}", TABLE.row(&cells)).map_err(w)?;
        summaries.push(sm);
    }
    let micros = engine.mlp().map(forward_micros);
    let cs_micros = engine
        .mlp()
        .map(|_| forward_micros(&random_network(&[1024, 1024, 512, 128, 64])));
    if let (Some(m), Some(c)) = (micros, cs_micros) {
        let fmt = |v: [(usize, f64); 3]| {
            v.iter()
                .map(|(b, us)| format!("{us:.1} µs at batch {b}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        writeln!(
            out,
            "network forward pass per board, one thread: {}; a Cahlík & Surynek-size network (1024-1024-512-128-64): {}",
            fmt(m),
            fmt(c)
        )
        .map_err(w)?;
    }
    writeln!(
        out,
        "Cahlík & Surynek (random boards, Python; their A* never reopens): 2019 A*+ANN 75.9 % optimal, nodes mean 13,729 (2,518 / 6,392 / 15,757, max 384,139), 45.9 s/board; A*+PDB 7-8 (no reflection) mean 48,884 (4,791 / 15,645 / 45,135, max 3,367,519); journal WA* 1.15: 71.2 % at 3,296, ANN-MSE 61.3 % at 355, ANN-AMSE 0.8 69.5 % at 2,576"
    )
    .map_err(w)?;
    let summary = AstarBenchSummary {
        set: set_name,
        boards: n,
        mean_optimum: mean_opt,
        lower: engine.lower_name(),
        lower_bytes: engine.lower_bytes(),
        network_bytes: engine.mlp().map(|m| m.bytes()),
        network_params: engine.mlp().map(|m| m.params()),
        network_micros: micros,
        cs_network_micros: cs_micros,
    };
    let outcome = Outcome {
        benchmark: "astar".into(),
        rows: summaries,
        summary,
    };
    if let Some(path) = &opts.svg {
        let svg = chart(&outcome)?;
        crate::route::output::write_to(Some(path), svg.as_bytes())?;
    }
    Ok(outcome)
}

/// Optimal share against mean expanded nodes (log scale), one point per method, with
/// Cahlík & Surynek's points beside.
pub fn chart(o: &Outcome<MethodSummary, AstarBenchSummary>) -> Result<String, Error> {
    use plotters::prelude::*;
    let xs = o
        .rows
        .iter()
        .map(|m| m.nodes[0].max(1.0))
        .chain(CS_POINTS.iter().map(|p| p.2));
    let (lo, hi) = xs.fold((f64::MAX, 1.0f64), |(a, b), x| (a.min(x), b.max(x)));
    super::svg((760, 460), |root| {
        let mut ch = ChartBuilder::on(root)
            .caption(
                format!(
                    "{}: optimal plans against mean expanded nodes",
                    o.summary.set
                ),
                ("sans-serif", 18),
            )
            .margin(14)
            .x_label_area_size(38)
            .y_label_area_size(48)
            .build_cartesian_2d((lo / 2.0..hi * 2.0).log_scale(), 0f64..105f64)
            .map_err(|e| e.to_string())?;
        ch.configure_mesh()
            .x_desc("mean expanded nodes (log)")
            .y_desc("optimal plans (%)")
            .draw()
            .map_err(|e| e.to_string())?;
        let ours: Vec<(f64, f64, String)> = o
            .rows
            .iter()
            .map(|m| (m.nodes[0].max(1.0), m.optimal_percent, m.method.clone()))
            .collect();
        ch.draw_series(
            ours.iter()
                .map(|(x, y, _)| Circle::new((*x, *y), 5, BLUE.filled())),
        )
        .map_err(|e| e.to_string())?
        .label("tilekit (this run)")
        .legend(|(x, y)| Circle::new((x + 8, y), 5, BLUE.filled()));
        ch.draw_series(
            ours.iter()
                .map(|(x, y, l)| Text::new(l.clone(), (*x, *y), ("sans-serif", 12))),
        )
        .map_err(|e| e.to_string())?;
        ch.draw_series(
            CS_POINTS
                .iter()
                .map(|(_, y, x)| TriangleMarker::new((*x, *y), 6, RED.filled())),
        )
        .map_err(|e| e.to_string())?
        .label("Cahlík & Surynek (published)")
        .legend(|(x, y)| TriangleMarker::new((x + 8, y), 6, RED.filled()));
        ch.draw_series(
            CS_POINTS
                .iter()
                .map(|(l, y, x)| Text::new(l.to_string(), (*x, *y - 4.0), ("sans-serif", 11))),
        )
        .map_err(|e| e.to_string())?;
        super::legend(&mut ch)?;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn methods_parse_and_refuse() {
        let m = Method::parse("wa:1.15").unwrap();
        assert_eq!(
            (m.heuristic, m.order),
            (AstarHeuristic::Pdb, Order::Weighted { weight: 1.15 })
        );
        let f = Method::parse("focal:0.05").unwrap();
        assert_eq!(f.order, Order::Focal { eps: 0.05 });
        assert_eq!(
            Method::parse("ann-pdb").unwrap().heuristic,
            AstarHeuristic::AnnPdb
        );
        assert!(Method::parse("wa:0.5").is_err());
        assert!(Method::parse("focal:x").is_err());
        assert!(Method::parse("idastar").is_err());
    }

    #[test]
    fn quantiles_interpolate() {
        assert_eq!(quantiles(vec![1, 2, 3, 4, 5]), [3.0, 2.0, 3.0, 4.0, 5.0]);
        assert_eq!(quantiles(vec![]), [0.0; 5]);
    }
}
