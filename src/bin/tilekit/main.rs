//! The `tilekit` command: parse arguments, turn them into library requests, call the route,
//! print, and map outcomes to exit codes (0 success, 1 the answer is "no", 2 usage or input
//! error, 3 solver or system failure). No route rule and no pipeline step lives here.

mod args;
mod campaign;
mod neos;
mod print;
mod progress;
mod solve;
#[cfg(feature = "train")]
mod train;

use args::{Cli, Cmd, Common, GenerateCmd};
use clap::Parser;
use std::process::ExitCode;
use tilekit::Error;
use tilekit::route::families::{self, read};
use tilekit::route::family::{
    ExportRequest, FamilyOptions, NeosJobFlags, RenderRequest, VerifyRequest,
};
use tilekit::route::output::write_to;

pub(crate) fn progress_line(msg: &str) {
    progress::line(msg);
}

/// Print a command's answer on stdout, the status line cleared first.
pub(crate) fn say(text: &str) -> Result<(), Error> {
    progress::finish();
    tilekit::route::output::emit(text)
}

/// A line on stderr. A closed or failing stderr is ignored: a message is never worth a panic.
pub(crate) fn note(msg: &str) {
    use std::io::Write;
    let msg = tilekit::route::output::printable(msg);
    let _ = writeln!(std::io::stderr().lock(), "tilekit: {msg}");
}

/// The family flags as the library takes them.
pub(crate) fn family_options(c: &Common) -> FamilyOptions {
    FamilyOptions {
        goal: c.goal.map(Into::into),
        horizon: c.horizon,
        filter: c.filter,
        fix_corner: c.fix_corner,
    }
}

fn code(success: bool) -> ExitCode {
    if success {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// The first of `given` that was given, refused: "FLAG does not apply to WHAT".
fn refuse(given: &[(bool, &str)], what: &str) -> Result<(), Error> {
    match given.iter().find(|(g, _)| *g) {
        Some((_, flag)) => Err(Error::Usage(format!("{flag} does not apply to {what}"))),
        None => Ok(()),
    }
}

/// `bench edge`: the search constructors against the anchors (the sliding sets' flags and
/// bench sal's do not apply).
fn bench_edge(
    limit: Option<usize>,
    time_limit: Option<f64>,
    jobs: usize,
    pdb: bool,
    json: bool,
    sal: args::SalArgs,
) -> Result<ExitCode, Error> {
    refuse(
        &[
            (limit.is_some(), "--limit"),
            (time_limit.is_some(), "--time-limit"),
            (jobs != 1, "--jobs"),
            (pdb, "--pdb"),
            (!sal.starts.is_empty(), "--starts"),
            (!sal.regions.is_empty(), "--regions"),
        ],
        "bench edge: its flags are --instances, --methods, --budget, --runs, --threads, --boards and --svg",
    )?;
    use tilekit::route::bench_edge;
    use tilekit::route::bench_edge::EdgeMethod;
    use tilekit::route::edge_heuristic::ConstructKind;
    let opts = bench_edge::EdgeBenchOptions {
        instances: sal.instances,
        methods: if sal.methods.is_empty() {
            [ConstructKind::Beam, ConstructKind::Dfs]
                .map(|construct| EdgeMethod {
                    construct,
                    lns: false,
                })
                .to_vec()
        } else {
            sal.methods
                .iter()
                .map(|m| EdgeMethod::parse(m).map_err(Error::Usage))
                .collect::<Result<_, _>>()?
        },
        budget: sal.budget.unwrap_or(60.0),
        runs: sal.runs,
        threads: sal.threads.unwrap_or(2),
        boards: sal.boards,
        svg: sal.svg,
    };
    let mut out = progress::Stdout::default();
    let rows = bench_edge::run(&opts, &mut out, &progress_line)?;
    if json {
        say(&serde_json::to_string(&rows).map_err(Error::failure)?)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `bench astar`: best-first search with the admissible and learned heuristics.
#[allow(
    clippy::too_many_arguments,
    reason = "the bench command's flags, passed through"
)]
fn bench_astar(
    set: args::BenchSetArg,
    limit: Option<usize>,
    time_limit: Option<f64>,
    jobs: usize,
    pdb: bool,
    json: bool,
    sal: args::SalArgs,
    astar: args::AstarBenchArgs,
) -> Result<ExitCode, Error> {
    use tilekit::route::bench_astar::{self, AstarSet, Method};
    let random = set == args::BenchSetArg::Astar;
    refuse(
        &[
            (pdb, "--pdb"),
            (!sal.instances.is_empty(), "--instances"),
            (!sal.starts.is_empty(), "--starts"),
            (!sal.regions.is_empty(), "--regions"),
            (sal.budget.is_some(), "--budget"),
            (sal.threads.is_some(), "--threads"),
            (sal.boards.is_some(), "--boards"),
            (!random && astar.count.is_some(), "--count"),
            (!random && astar.seed.is_some(), "--seed"),
        ],
        "bench astar: its flags are --methods, --weights, --count and --seed (random boards), --limit, --time-limit (per board), --jobs, --batch, --max-states and --svg",
    )?;
    let methods = if sal.methods.is_empty() {
        [
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
        ]
        .map(String::from)
        .to_vec()
    } else {
        sal.methods
    };
    let opts = bench_astar::AstarBenchOptions {
        set: match set {
            args::BenchSetArg::AstarKorf100 => AstarSet::Korf100,
            args::BenchSetArg::AstarDeepcubea15 => AstarSet::DeepCubeA15,
            _ => AstarSet::Random {
                count: astar.count.unwrap_or(1000),
                seed: astar.seed.unwrap_or(1001),
            },
        },
        limit,
        methods: methods
            .iter()
            .map(|m| Method::parse(m))
            .collect::<Result<_, _>>()?,
        weights: astar.weights,
        batch: tilekit::route::astar::AstarFlags {
            batch: astar.batch,
            ..Default::default()
        }
        .batch()?,
        time_limit: tilekit::route::seconds("--time-limit", time_limit.unwrap_or(60.0))?,
        max_states: astar
            .max_states
            .unwrap_or(tilekit::route::astar::MAX_STATES),
        jobs,
        svg: sal.svg,
    };
    let mut out = progress::Stdout::default();
    let summary = bench_astar::run(&opts, &mut out, &progress_line)?;
    if json {
        say(&serde_json::to_string(&summary).map_err(Error::failure)?)?;
    }
    Ok(code(summary.methods.iter().all(|m| m.bad_plans == 0)))
}

/// `bench sal`: Salassa et al.'s Table 3 (the sliding sets' flags do not apply).
fn bench_sal(
    limit: Option<usize>,
    time_limit: Option<f64>,
    jobs: usize,
    pdb: bool,
    json: bool,
    sal: args::SalArgs,
) -> Result<ExitCode, Error> {
    refuse(
        &[
            (limit.is_some(), "--limit"),
            (time_limit.is_some(), "--time-limit"),
            (jobs != 1, "--jobs"),
            (pdb, "--pdb"),
            (!sal.methods.is_empty(), "--methods"),
            (sal.budget.is_some(), "--budget"),
            (sal.threads.is_some(), "--threads"),
            (sal.boards.is_some(), "--boards"),
            (sal.svg.is_some(), "--svg"),
        ],
        "bench sal: its budgets are --ls-time, --backtrack-time and --construct-time",
    )?;
    use tilekit::route::bench_sal;
    let opts = bench_sal::SalOptions {
        instances: sal.instances,
        starts: if sal.starts.is_empty() {
            vec![tilekit::route::edge_heuristic::ConstructKind::Greedy]
        } else {
            sal.starts
        },
        region_rows: if sal.regions.is_empty() {
            vec![1]
        } else {
            sal.regions
        },
        runs: sal.runs,
        ls_time: sal.ls_time,
        backtrack_time: sal.backtrack_time,
        construct_time: sal.construct_time,
        solver: sal.solver,
        threads: 1,
    };
    let mut out = progress::Stdout::default();
    let rows = bench_sal::run(&opts, &mut out, &progress_line)?;
    if json {
        say(&serde_json::to_string(&rows).map_err(Error::failure)?)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn run(cli: Cli) -> Result<ExitCode, Error> {
    match cli.cmd {
        Cmd::Export {
            instance,
            model,
            format,
            input,
            neos_solver,
            email,
            output,
            complement,
            region,
            partial,
            common,
        } => {
            let req = ExportRequest {
                model,
                format,
                output,
                complement,
                region,
                partial,
                neos: NeosJobFlags {
                    input: input.map(Into::into),
                    solver: neos_solver,
                    email,
                },
                options: family_options(&common),
            };
            families::export(&read(&instance, common.family)?, &req, &progress_line)?;
            Ok(ExitCode::SUCCESS)
        }
        cmd @ (Cmd::ExportSet { .. }
        | Cmd::Run { .. }
        | Cmd::RunTask { .. }
        | Cmd::Report { .. }) => campaign::run(cmd),
        Cmd::Solve(a) => solve::run(*a),
        Cmd::Verify {
            instance,
            solution,
            model,
            json,
            common,
        } => {
            let req = VerifyRequest {
                solution,
                model,
                options: family_options(&common),
            };
            let v = families::verify(&read(&instance, common.family)?, &req, &progress_line)?;
            say(v.render(json))?;
            Ok(code(v.valid))
        }
        Cmd::Generate {
            what:
                GenerateCmd::Edge {
                    rows,
                    cols,
                    frame_colours,
                    inner_colours,
                    seed,
                    output,
                    solution,
                },
        } => {
            let board = tilekit::route::edge::generate_files(
                rows,
                cols,
                frame_colours,
                inner_colours,
                seed,
                output.as_deref(),
                solution.as_deref(),
            )?;
            if let Some(path) = board {
                note(&format!("planted solution written to {}", path.display()));
            }
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Render {
            instance,
            solution,
            output,
            ids,
            family,
            goal,
        } => {
            let req = RenderRequest {
                solution,
                ids,
                options: FamilyOptions {
                    goal: goal.map(Into::into),
                    ..FamilyOptions::default()
                },
            };
            let drawn = families::render(&read(&instance, family)?, &req)?;
            write_to(Some(&output), drawn.svg.as_bytes())?;
            for n in &drawn.notes {
                note(n);
            }
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Neos { cmd } => {
            let code = neos::run(cmd)?;
            Ok(ExitCode::from(u8::try_from(code).unwrap_or(3)))
        }
        Cmd::Bench {
            set,
            limit,
            time_limit,
            jobs,
            cache_dir,
            pdb,
            max_with,
            json,
            dual,
            bpmx,
            fsm,
            preset,
            interleave,
            sal,
            astar,
        } => {
            use tilekit::route::params::Preset;
            use tilekit::search::bench;
            if preset.is_some() && set.sliding().is_none() {
                return Err(Error::Usage(
                    "--preset applies to the native solver's sets: korf100, hardest80, korf50-24, deepcubea24, deepcubea15".into(),
                ));
            }
            let fsm_given = fsm.is_some();
            let preset = preset.unwrap_or_default();
            // The preset's configuration, each part replaced by what was given.
            let (fsm, dual, bpmx, pdb, max_with) = match preset {
                Preset::Recommended => (fsm.unwrap_or(12), dual, bpmx, pdb, max_with),
                Preset::Paper => (fsm.unwrap_or(0), dual, bpmx, pdb, max_with),
                Preset::FewestNodes => (
                    fsm.unwrap_or(16),
                    true,
                    true,
                    pdb.or(Some(args::PdbArg::P78)),
                    max_with.or(Some(args::PdbArg::P78Cols)),
                ),
            };
            if sal.threads.is_some_and(|t| t == 0 || t > 256) && set.sliding().is_some() {
                return Err(Error::Usage(
                    "--threads takes 1 to 256 threads per instance".into(),
                ));
            }
            if (dual || bpmx || fsm_given || interleave > 1 || max_with.is_some())
                && set.sliding().is_none()
            {
                return Err(Error::Usage(
                    "--dual, --bpmx, --fsm, --interleave and --max-with apply to the native solver's sets: korf100, hardest80, korf50-24, deepcubea24, deepcubea15".into(),
                ));
            }
            if interleave > 1 && (bpmx || sal.threads.is_some_and(|t| t > 1)) {
                return Err(Error::Usage(
                    "--interleave steps plain searches; it does not combine with --bpmx or --threads".into(),
                ));
            }
            if matches!(
                set,
                args::BenchSetArg::Astar
                    | args::BenchSetArg::AstarKorf100
                    | args::BenchSetArg::AstarDeepcubea15
            ) {
                return bench_astar(
                    set,
                    limit,
                    time_limit,
                    jobs,
                    pdb.is_some(),
                    json,
                    sal,
                    astar,
                );
            }
            if set == args::BenchSetArg::Edge {
                return bench_edge(limit, time_limit, jobs, pdb.is_some(), json, sal);
            }
            let Some(set) = set.sliding() else {
                return bench_sal(limit, time_limit, jobs, pdb.is_some(), json, sal);
            };
            let ids = sal
                .instances
                .iter()
                .map(|x| {
                    x.trim().parse::<u32>().map_err(|_| {
                        Error::Usage(format!(
                            "--instances: `{x}` is not an instance id (a number from the set's first column)"
                        ))
                    })
                })
                .collect::<Result<Vec<u32>, Error>>()?;
            let opts = bench::BenchOptions {
                limit,
                ids,
                time_limit: time_limit
                    .map(|t| tilekit::route::seconds("--time-limit", t))
                    .transpose()?,
                jobs,
                interleave: interleave.into(),
                native: tilekit::search::NativeOptions {
                    cache_dir,
                    dual,
                    bpmx,
                    fsm: fsm.into(),
                    threads: sal.threads.map_or(1, |t| t as usize),
                    ..Default::default()
                },
                pdb: pdb.map(|p| p.name().to_string()),
                max_with: max_with.map(|p| p.name().to_string()),
            };
            let mut out = progress::Stdout::default();
            let summary =
                bench::run(set, &opts, &mut out, &progress_line).map_err(|e| match e {
                    tilekit::search::SearchError::Output(io)
                        if io.kind() == std::io::ErrorKind::BrokenPipe =>
                    {
                        Error::ClosedPipe
                    }
                    tilekit::search::SearchError::Output(io) => {
                        Error::Failure(format!("standard output: cannot write: {io}"))
                    }
                    other => Error::Usage(other.to_string()),
                })?;
            if json {
                say(&serde_json::to_string(&summary).map_err(Error::failure)?)?;
            }
            Ok(code(summary.mismatches == 0 && summary.timeouts == 0))
        }
        Cmd::Learn { cmd } => learn(cmd),
        Cmd::Params { markdown } => {
            say(&if markdown {
                tilekit::route::params::reference_markdown()
            } else {
                print::params()
            })?;
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Solvers { solvers, json } => {
            let reg = tilekit::solve::registry::Registry::load(solvers.as_deref())?;
            say(&print::solvers(&reg, json))?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn learn(cmd: args::LearnCmd) -> Result<ExitCode, Error> {
    match cmd {
        args::LearnCmd::Data {
            output,
            count,
            rows,
            cols,
            seed,
            jobs,
            board_limit,
            json,
        } => {
            use tilekit::learn::data;
            let opts = data::DataOptions {
                path: output,
                rows,
                cols,
                seed,
                count,
                threads: jobs,
                board_limit: tilekit::route::seconds("--board-limit", board_limit)?,
            };
            let solver = tilekit::search::NativeSolver::new(
                rows,
                cols,
                &tilekit::search::NativeOptions::default(),
                &progress_line,
            )
            .map_err(|e| Error::Usage(e.to_string()))?;
            // A signal ends the process at once (see `exit_cleanly_on_signals`): every whole
            // chunk is already on disk, and the next run resumes after it.
            let stop = std::sync::atomic::AtomicBool::new(false);
            let r = data::generate(&opts, &solver, &stop, &progress_line).map_err(|e| match e {
                data::DataError::Io { .. } => Error::failure(e),
                other => Error::Usage(other.to_string()),
            })?;
            if json {
                say(&serde_json::to_string(&r).map_err(Error::failure)?)?;
            } else {
                say(&format!(
                    "{}: {} boards ({} solved, {} resumed), {} labelled states, mean optimum {:.2} moves, solver {}, {:.1} s",
                    r.path.display(),
                    r.solves,
                    r.solved,
                    r.resumed_from,
                    r.labels,
                    r.mean_length,
                    r.solver,
                    r.seconds
                ))?;
            }
            Ok(code(r.solves >= count))
        }
        #[cfg(feature = "train")]
        args::LearnCmd::Train(a) => train::run(*a),
    }
}

/// A failed command as `--json` prints it: one object on stdout, so that a script reading
/// JSON gets JSON either way (the message goes to stderr as well).
fn json_error(message: &str, code: u8) {
    let v = serde_json::json!({ "error": message, "exit_code": code });
    let _ = say(&v.to_string());
}

/// End with `e`: its message on stderr (and as JSON with `--json`) and its exit code; a
/// closed stdout ends quietly, as `cat` does.
fn fail(e: &Error, json: bool) -> ExitCode {
    progress::finish();
    if matches!(e, Error::ClosedPipe) {
        return ExitCode::from(e.exit_code());
    }
    note(&e.to_string());
    if json {
        json_error(&e.to_string(), e.exit_code());
    }
    ExitCode::from(e.exit_code())
}

/// Descriptor 1 was closed when the process started: read by [`STDOUT_PROBE`] before the
/// Rust runtime opens `/dev/null` there (which it does for a closed standard descriptor), as
/// afterwards a closed stdout and a redirection to `/dev/null` cannot be told apart.
#[cfg(target_os = "linux")]
static STDOUT_CLOSED_AT_START: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

/// A start-up constructor (the ELF `.init_array`, run by the loader before the runtime's own
/// start-up): records whether descriptor 1 was closed.
#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array")]
static STDOUT_PROBE: extern "C" fn() = {
    extern "C" fn probe() {
        // SAFETY: F_GETFD only reads the descriptor's flags; -1 means it is not open.
        if unsafe { libc::fcntl(1, libc::F_GETFD) } == -1 {
            STDOUT_CLOSED_AT_START.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    }
    probe
};

fn main() -> ExitCode {
    #[cfg(target_os = "linux")]
    if STDOUT_CLOSED_AT_START.load(std::sync::atomic::Ordering::Relaxed) {
        tilekit::route::output::stdout_was_closed();
    }
    // First, before any thread starts: a Ctrl-C or SIGTERM then also ends the solvers (each
    // in a process group of its own) and removes temporary and partial files.
    if let Err(e) = tilekit::solve::cleanup::exit_cleanly_on_signals() {
        note(&format!("signals will not clean up: {e}"));
    }
    // One process, one command: no output of it may replace one of its inputs.
    tilekit::route::output::protect_inputs();
    // Any `--json` among the arguments asks for JSON errors too, even when the arguments do
    // not parse (a flag's value is never `--json` itself).
    let json = std::env::args_os().skip(1).any(|a| a == "--json");
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // Help and version go to stdout as clap prints them; a usage error gets the same
        // `tilekit: ` prefix and exit code 2 as every other error, for scripts that read it.
        Err(e) if !e.use_stderr() => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            let text = e.render().to_string();
            let text = text.strip_prefix("error: ").unwrap_or(&text);
            {
                use std::io::Write;
                let _ = write!(std::io::stderr().lock(), "tilekit: {text}");
            }
            if json {
                json_error(text.lines().next().unwrap_or(text), 2);
            }
            return ExitCode::from(2);
        }
    };
    progress::init(cli.quiet, cli.progress);
    let result = run(cli);
    progress::finish();
    match result {
        Ok(code) => code,
        Err(e) => fail(&e, json),
    }
}
