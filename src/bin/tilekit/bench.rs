//! `tilekit bench …`: each benchmark's flags (already only its own: clap refuses the others)
//! into the library's options, and its runner.

use crate::args::bench::{AstarBenchArgs, BenchCmd, EdgeBenchArgs, NativeBenchArgs, SalBenchArgs};
use crate::{code, progress, progress_line, say};
use std::process::ExitCode;
use tilekit::Error;
use tilekit::search::sets::BenchSet;

/// Run the benchmark `cmd` names.
pub(crate) fn run(cmd: BenchCmd) -> Result<ExitCode, Error> {
    use tilekit::route::bench::astar::AstarSet;
    match cmd {
        BenchCmd::Korf100(a) => native(BenchSet::Korf100, a),
        BenchCmd::Korf50x24(a) => native(BenchSet::Korf50x24, a),
        BenchCmd::Deepcubea24(a) => native(BenchSet::DeepCubeA24, a),
        BenchCmd::Deepcubea15(a) => native(BenchSet::DeepCubeA15, a),
        BenchCmd::Hardest80(a) => native(BenchSet::Hardest80, a),
        BenchCmd::Sal(a) => sal(a),
        BenchCmd::Edge(a) => edge(a),
        BenchCmd::Astar { args, count, seed } => astar(AstarSet::Random { count, seed }, args),
        BenchCmd::AstarKorf100(a) => astar(AstarSet::Korf100, a),
        BenchCmd::AstarDeepcubea15(a) => astar(AstarSet::DeepCubeA15, a),
    }
}

/// The native solver on a published sliding set, under a preset whose parts the flags given
/// replace.
fn native(set: BenchSet, a: NativeBenchArgs) -> Result<ExitCode, Error> {
    use crate::args::PdbArg;
    use tilekit::route::bench::native as bench;
    use tilekit::route::params::Preset;
    let (fsm, dual, bpmx, pdb, max_with) = match a.preset.unwrap_or_default() {
        Preset::Recommended => (a.fsm.unwrap_or(12), a.dual, a.bpmx, a.pdb, a.max_with),
        Preset::Paper => (a.fsm.unwrap_or(0), a.dual, a.bpmx, a.pdb, a.max_with),
        Preset::FewestNodes => (
            a.fsm.unwrap_or(16),
            true,
            true,
            a.pdb.or(Some(PdbArg::P78)),
            a.max_with.or(Some(PdbArg::P78Cols)),
        ),
    };
    if a.interleave > 1 && (bpmx || a.threads > 1) {
        return Err(Error::Usage(
            "--interleave steps plain searches; it does not combine with --bpmx or --threads"
                .into(),
        ));
    }
    let opts = bench::BenchOptions {
        limit: a.limit,
        ids: a.instances,
        time_limit: a
            .time_limit
            .map(|t| tilekit::route::seconds("--time-limit", t))
            .transpose()?,
        jobs: a.jobs,
        interleave: a.interleave.into(),
        native: tilekit::search::NativeOptions {
            cache_dir: a.cache_dir,
            dual,
            bpmx,
            fsm: fsm.into(),
            threads: a.threads.into(),
            frontier: match a.preset.unwrap_or_default() {
                Preset::Paper => 0,
                _ => tilekit::search::default_frontier(set.cells()),
            },
            ..Default::default()
        },
        pdb: pdb.map(|p| p.name().to_string()),
        max_with: max_with.map(|p| p.name().to_string()),
        checkpoint: a.checkpoint,
        report_only: false,
    };
    let mut out = progress::Stdout::default();
    if a.executor == crate::args::bench::BenchExecutor::Slurm {
        let outcome = tilekit::campaign::bench::run(set, &opts, &mut out, &progress_line)?;
        if a.json {
            say(&serde_json::to_string(&outcome).map_err(Error::failure)?)?;
        }
        return Ok(code(
            outcome.summary.mismatches == 0
                && outcome.summary.timeouts == 0
                && outcome.summary.unfinished == 0,
        ));
    }
    let outcome = bench::run(set, &opts, &mut out, &progress_line).map_err(|e| match e {
        tilekit::search::SearchError::Output(io) if io.kind() == std::io::ErrorKind::BrokenPipe => {
            Error::ClosedPipe
        }
        tilekit::search::SearchError::Output(io) => {
            Error::Failure(format!("standard output: cannot write: {io}"))
        }
        other => Error::Usage(other.to_string()),
    })?;
    if a.json {
        say(&serde_json::to_string(&outcome).map_err(Error::failure)?)?;
    }
    Ok(code(
        outcome.summary.mismatches == 0
            && outcome.summary.timeouts == 0
            && outcome.summary.unfinished == 0,
    ))
}

/// `bench edge`: the search constructors against the anchors.
fn edge(a: EdgeBenchArgs) -> Result<ExitCode, Error> {
    use tilekit::route::bench::edge::{self as bench_edge, EdgeMethod};
    use tilekit::route::edge_heuristic::ConstructKind;
    let opts = bench_edge::EdgeBenchOptions {
        instances: a.instances,
        methods: if a.methods.is_empty() {
            [ConstructKind::Beam, ConstructKind::Dfs]
                .map(|construct| EdgeMethod {
                    construct,
                    lns: false,
                })
                .to_vec()
        } else {
            a.methods
                .iter()
                .map(|m| EdgeMethod::parse(m).map_err(Error::Usage))
                .collect::<Result<_, _>>()?
        },
        budget: a.budget,
        runs: a.runs,
        threads: a.threads.into(),
        boards: a.boards,
        svg: a.svg,
        checkpoint: a.checkpoint,
        report_only: false,
    };
    let mut out = progress::Stdout::default();
    let outcome = if a.executor == crate::args::bench::BenchExecutor::Slurm {
        tilekit::campaign::bench_edge::run(&opts, &mut out, &progress_line)?
    } else {
        bench_edge::run(&opts, &mut out, &progress_line)?
    };
    if a.json {
        say(&serde_json::to_string(&outcome).map_err(Error::failure)?)?;
    }
    Ok(code(outcome.summary.unfinished == 0))
}

/// The methods `bench astar` runs when none are named: A* on the databases, weighted A* and
/// focal search at the settings the results page compares.
const ASTAR_METHODS: [&str; 11] = [
    "pdb",
    "wa:1.05",
    "wa:1.1",
    "wa:1.15",
    "wa:1.25",
    "wa:1.5",
    "ann",
    "ann-wa:0.98",
    "ann-wa:0.96",
    "focal:0.05",
    "focal:0.1",
];

/// `bench astar` and its variants: best-first search with the admissible and learned
/// heuristics.
fn astar(
    set: tilekit::route::bench::astar::AstarSet,
    a: AstarBenchArgs,
) -> Result<ExitCode, Error> {
    use tilekit::route::bench::astar::{self as bench_astar, Method};
    let methods = if a.methods.is_empty() {
        ASTAR_METHODS.map(String::from).to_vec()
    } else {
        a.methods
    };
    let opts = bench_astar::AstarBenchOptions {
        set,
        limit: a.limit,
        methods: methods
            .iter()
            .map(|m| Method::parse(m))
            .collect::<Result<_, _>>()?,
        weights: a.weights,
        batch: tilekit::route::astar::AstarMethod {
            batch: a.batch,
            ..Default::default()
        }
        .batch()?,
        time_limit: tilekit::route::seconds("--time-limit", a.time_limit)?,
        max_states: a.max_states.unwrap_or(tilekit::route::astar::MAX_STATES),
        jobs: a.jobs,
        svg: a.svg,
    };
    let mut out = progress::Stdout::default();
    let outcome = bench_astar::run(&opts, &mut out, &progress_line)?;
    if a.json {
        say(&serde_json::to_string(&outcome).map_err(Error::failure)?)?;
    }
    Ok(code(outcome.rows.iter().all(|m| m.bad_plans == 0)))
}

/// `bench sal`: Salassa et al.'s Table 3.
fn sal(a: SalBenchArgs) -> Result<ExitCode, Error> {
    use tilekit::route::bench::sal as bench_sal;
    let opts = bench_sal::SalOptions {
        instances: a.instances,
        starts: if a.starts.is_empty() {
            vec![tilekit::route::edge_heuristic::ConstructKind::Greedy]
        } else {
            a.starts
        },
        region_rows: if a.regions.is_empty() {
            vec![1]
        } else {
            a.regions
        },
        runs: a.runs,
        ls_time: a.ls_time,
        backtrack_time: a.backtrack_time,
        construct_time: a.construct_time,
        solver: a.solver,
        threads: 1,
    };
    let mut out = progress::Stdout::default();
    let outcome = bench_sal::run(&opts, &mut out, &progress_line)?;
    if a.json {
        say(&serde_json::to_string(&outcome).map_err(Error::failure)?)?;
    }
    Ok(ExitCode::SUCCESS)
}
