//! The `tilekit` command: parse arguments, call the library, print, map outcomes to exit
//! codes (0 success, 1 the answer is "no", 2 usage or input error, 3 solver/system failure).

use clap::{Parser, Subcommand};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;
use tilekit::Goal;
use tilekit::pipeline::{self, Format, PipelineError, SlidingModel};
use tilekit::puzzle::edge;

#[derive(Parser)]
#[command(
    name = "tilekit",
    version,
    about = "Tile puzzles as optimisation models: export, solve, verify"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(clap::Args, Clone)]
struct Common {
    /// Puzzle family (detected from the content when omitted).
    #[arg(long)]
    family: Option<String>,
    /// Goal convention: blank-last (the case study's) or blank-first (Korf's).
    #[arg(long, default_value = "blank-last")]
    goal: String,
    /// Time steps of the time-indexed models: a number, or `auto` (the native solver's
    /// optimum, the smallest feasible horizon). Default: the board's known diameter.
    #[arg(long, value_parser = parse_horizon)]
    horizon: Option<HorizonArg>,
    /// Edge milp: keep only placements with grey exactly on the rim (off: the paper's model).
    #[arg(long)]
    filter: bool,
    /// Edge milp and sat: fix the first corner piece in the top-left corner (square boards).
    #[arg(long)]
    fix_corner: bool,
}

/// A `--horizon` value.
#[derive(Clone, Copy, Debug)]
enum HorizonArg {
    Auto,
    Steps(usize),
}

fn parse_horizon(s: &str) -> Result<HorizonArg, String> {
    if s == "auto" {
        return Ok(HorizonArg::Auto);
    }
    s.parse().map(HorizonArg::Steps).map_err(|_| {
        "expected a whole number of time steps or `auto` (the native solver's optimum)".to_string()
    })
}

/// Seconds `--horizon auto` may spend finding the optimum when no --time-limit applies.
const AUTO_HORIZON_SECONDS: f64 = 300.0;

/// The horizon as a number: `auto` runs the native solver on `p`.
fn horizon_of(
    common: &Common,
    p: &tilekit::SlidingPuzzle,
    goal: Goal,
    limit_seconds: f64,
) -> Result<Option<usize>, PipelineError> {
    match common.horizon {
        None => Ok(None),
        Some(HorizonArg::Steps(t)) => Ok(Some(t)),
        Some(HorizonArg::Auto) => pipeline::auto_horizon(
            p,
            goal,
            Duration::from_secs_f64(limit_seconds),
            Some(progress_line),
        )
        .map(Some),
    }
}

#[derive(Subcommand)]
enum Cmd {
    /// Write a model of an instance in a solver format.
    Export {
        /// The instance file.
        instance: PathBuf,
        /// The formulation: sliding neos (default; the case study's MILP), flow or sat (CNF);
        /// edge milp (default; Salassa et al.), clique or sat.
        #[arg(long)]
        model: Option<String>,
        /// lp, mps, gms, cnf, or neos (a NEOS job document; default: from -o's extension).
        #[arg(long)]
        format: Option<String>,
        /// For --format neos: the model's input method inside the job (mps, lp or gams).
        #[arg(long, default_value = "mps")]
        input: String,
        /// For --format neos: the NEOS solver (cbc, cplex, ...).
        #[arg(long, default_value = "cbc")]
        neos_solver: String,
        /// For --format neos: the e-mail address NEOS requires (else $NEOS_EMAIL).
        #[arg(long)]
        email: Option<String>,
        /// Output file (`-` or omitted: stdout).
        #[arg(short = 'o')]
        output: Option<PathBuf>,
        /// Edge clique model: write the complement (the conflict graph; far smaller on big boards).
        #[arg(long)]
        complement: bool,
        #[command(flatten)]
        common: Common,
    },
    /// Solve an instance and verify the answer.
    Solve {
        /// The instance file.
        instance: PathBuf,
        /// Sliding: native (default; IDA* with pattern databases), milp or sat (CNF, horizon
        /// stepped to optimality). Edge: milp (default), clique or sat.
        #[arg(long)]
        via: Option<String>,
        /// Sliding: neos (default) or flow for --via milp, sat for --via sat. Edge: milp,
        /// clique or sat (default: the --via route's own model).
        #[arg(long)]
        model: Option<String>,
        /// microlp or varisat (embedded), or a registry entry: cbc, highs, glpk, cadical, kissat, minisat.
        #[arg(long)]
        solver: Option<String>,
        /// Wall-clock limit for each solver run, in seconds.
        #[arg(long, default_value_t = 60.0)]
        time_limit: f64,
        /// Threads for solvers that take them.
        #[arg(long, default_value_t = 1)]
        threads: u32,
        /// Write the verified solution here (moves; for edge puzzles the board).
        #[arg(short = 'o')]
        output: Option<PathBuf>,
        /// Solver registry file (else $TILEKIT_SOLVERS, ./solvers.toml, built-in).
        #[arg(long)]
        solvers: Option<PathBuf>,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
        /// SAT encoding for --via sat: plain, pruned (default) or strong (pruned + Manhattan slack).
        #[arg(long)]
        encoding: Option<String>,
        #[command(flatten)]
        certify: CertifyArgs,
        #[command(flatten)]
        common: Common,
    },
    /// Check a solution (tilekit moves, or a raw CBC/HiGHS/GLPK/SAT output) against an instance.
    Verify {
        /// The instance file.
        instance: PathBuf,
        /// The solution file.
        solution: PathBuf,
        /// The model a raw solver output belongs to (sliding: neos, flow or sat; edge: milp).
        #[arg(long)]
        model: Option<String>,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        common: Common,
    },
    /// Generate instances with a planted solution.
    Generate {
        #[command(subcommand)]
        what: GenerateCmd,
    },
    /// Draw an instance, and a solution if given, as SVG.
    Render {
        /// The instance file.
        instance: PathBuf,
        /// A solution: an edge-matching board, or a sliding move file.
        solution: Option<PathBuf>,
        /// The SVG file to write (`-` for stdout).
        #[arg(short = 'o')]
        output: PathBuf,
        /// Write piece ids on edge-matching boards.
        #[arg(long)]
        ids: bool,
        #[command(flatten)]
        common: Common,
    },
    /// NEOS-style services: job documents, submit, follow, fetch, solve and verify.
    Neos {
        #[command(subcommand)]
        cmd: tilekit::neos::cli::NeosCmd,
    },
    /// Solve a published benchmark set with the native solver: korf100, korf50-24, deepcubea24 or
    /// hardest80. Checks every length against the published optimum and replays every plan.
    Bench {
        /// korf100, korf50-24, deepcubea24 (easiest first) or hardest80.
        set: String,
        /// Only the first N instances.
        #[arg(long)]
        limit: Option<usize>,
        /// Per-instance limit in seconds (default: none).
        #[arg(long)]
        time_limit: Option<f64>,
        /// Instances solved in parallel.
        #[arg(long, default_value_t = 1)]
        jobs: usize,
        /// Pattern database cache directory (else $TILEKIT_CACHE, else ~/.cache/tilekit).
        #[arg(long)]
        cache_dir: Option<PathBuf>,
        /// Pattern databases: 7-8, 7-7-1 or 6-6-3 (15-puzzle), 6-6-6-6 (24-puzzle), or none
        /// (Manhattan + linear conflict); built and cached when missing. Default: the
        /// strongest already cached, else 6-6-3 (15-puzzle) or none (24-puzzle).
        #[arg(long)]
        pdb: Option<String>,
        /// Print the summary as one JSON object after the table.
        #[arg(long)]
        json: bool,
    },
    /// List the registered solvers, whether each is installed, and its version.
    Solvers {
        /// Solver registry file.
        #[arg(long)]
        solvers: Option<PathBuf>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
}

/// `--certify` and its options (SAT route only).
#[derive(clap::Args, Clone)]
struct CertifyArgs {
    /// With --via sat: prove optimality with a DRAT proof of UNSAT at L-2, checked by --checker.
    #[arg(long)]
    certify: bool,
    /// Keep the refuted CNF and its proof in this directory (default: a temporary one, removed).
    #[arg(long, requires = "certify")]
    proof_dir: Option<PathBuf>,
    /// The DRAT checker program.
    #[arg(long, default_value = tilekit::certify::DEFAULT_CHECKER, requires = "certify")]
    checker: String,
    /// Certify this plan (a move file, e.g. from another solver) instead of searching: replay
    /// it and refute its length minus 2.
    #[arg(long, requires = "certify")]
    plan: Option<PathBuf>,
    /// Cube-and-conquer: split the refutation of L-2 on the blank's first and last DEPTH moves
    /// (steps 1, L-2, 2, ...); each leaf gets its own proof and check. 0 = one proof. Used
    /// where the certificate refutes L-2 itself (--plan, --via native); a SAT search that
    /// already refuted L-2 keeps that proof.
    #[arg(long, default_value_t = 0, value_name = "DEPTH", requires = "certify")]
    split: usize,
    /// With --split: leaves solved and checked at once.
    #[arg(long, default_value_t = 2, requires = "certify")]
    split_jobs: usize,
}

#[derive(Subcommand)]
enum GenerateCmd {
    /// An edge-matching puzzle: a random perfect board (grey frame), shuffled and rotated.
    Edge {
        /// Board rows.
        #[arg(long)]
        rows: usize,
        /// Board columns.
        #[arg(long)]
        cols: usize,
        /// Colours used on frame (border-to-border) edges.
        #[arg(long)]
        frame_colours: u16,
        /// Colours used on inner edges.
        #[arg(long)]
        inner_colours: u16,
        /// Random seed (the same seed gives the same files).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Instance file (`-` or omitted: stdout).
        #[arg(short = 'o')]
        output: Option<PathBuf>,
        /// Where to write the planted solution board (default: OUTPUT.solution when -o is a file).
        #[arg(long)]
        solution: Option<PathBuf>,
    },
}

fn goal_of(c: &Common) -> Result<Goal, PipelineError> {
    Goal::parse(&c.goal).ok_or_else(|| {
        PipelineError::Input(format!(
            "--goal {} is not known: use blank-last or blank-first",
            c.goal
        ))
    })
}

fn read_text(path: &Path, what: &str) -> Result<String, PipelineError> {
    std::fs::read_to_string(path).map_err(|e| {
        PipelineError::Input(format!("{}: cannot read the {what}: {e}", path.display()))
    })
}

/// True for an edge-matching instance: `--family`, else detected from the content.
fn is_edge(c: &Common, instance: &Path) -> Result<bool, PipelineError> {
    match c.family.as_deref() {
        Some("sliding") => Ok(false),
        Some("edge") => Ok(true),
        Some(f) => Err(PipelineError::Input(format!(
            "--family {f} is not known: use sliding or edge"
        ))),
        None => Ok(edge::looks_like_edge_instance(&read_text(
            instance, "instance",
        )?)),
    }
}

/// The edge MILP options from `--filter` and `--fix-corner`.
fn milp_options(c: &Common) -> tilekit::formulate::edge_milp::EdgeMilpOptions {
    tilekit::formulate::edge_milp::EdgeMilpOptions {
        filter_feasible: c.filter,
        fix_first_corner: c.fix_corner,
    }
}

fn positive_limit(time_limit: f64) -> Result<Duration, PipelineError> {
    if !(time_limit.is_finite() && time_limit > 0.0) {
        return Err(PipelineError::Input(
            "--time-limit must be a positive number of seconds".into(),
        ));
    }
    Ok(Duration::from_secs_f64(time_limit))
}

/// `export` for an edge-matching instance.
fn export_edge(
    instance: &Path,
    model: Option<&str>,
    format: Option<String>,
    output: Option<PathBuf>,
    complement: bool,
    common: &Common,
) -> Result<ExitCode, PipelineError> {
    let m = pipeline::edge::model_of(model.unwrap_or("milp"))?;
    let fmt = match (&format, &output) {
        (Some(f), _) => f.clone(),
        (None, Some(o)) if o != Path::new("-") => o
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("")
            .to_string(),
        _ => m.default_format().to_string(),
    };
    pipeline::edge::check_format(m, &fmt, complement)?;
    let p = pipeline::edge::load_edge(instance)?;
    let opts = milp_options(common);
    if m == pipeline::edge::EdgeModel::Milp {
        // Build into memory first: a refused option must not leave an empty output file behind.
        let mut buf = Vec::new();
        pipeline::edge::export_edge(&p, m, opts, complement, &fmt, &mut buf)?;
        return write_output(output.as_deref(), &buf);
    }
    // Graphs run to gigabytes: stream them straight to the output.
    stream_output(output.as_deref(), |w| {
        pipeline::edge::export_edge(&p, m, opts, complement, &fmt, w)
    })
}

/// Stream an export to the `-o` file (`-` or none: stdout) through a 1 MiB buffer, flushed at
/// the end so a write error is reported, not lost on drop.
fn stream_output(
    output: Option<&Path>,
    write: impl FnOnce(&mut dyn Write) -> Result<(), PipelineError>,
) -> Result<ExitCode, PipelineError> {
    let sink: Box<dyn Write> = match output.filter(|o| *o != Path::new("-")) {
        Some(path) => Box::new(std::fs::File::create(path).map_err(|e| {
            PipelineError::Input(format!(
                "{}: cannot create the output file: {e}",
                path.display()
            ))
        })?),
        None => Box::new(std::io::stdout().lock()),
    };
    let mut w = std::io::BufWriter::with_capacity(1 << 20, sink);
    write(&mut w)?;
    w.flush()
        .map_err(|e| PipelineError::Solver(e.to_string()))?;
    Ok(ExitCode::SUCCESS)
}

/// `solve` for an edge-matching instance.
fn solve_edge(
    instance: &Path,
    via: Option<&str>,
    model: Option<&str>,
    opts: &pipeline::edge::EdgeSolveOptions,
    output: Option<PathBuf>,
    json: bool,
) -> Result<ExitCode, PipelineError> {
    let via = via.unwrap_or("milp");
    let default_model = match via {
        "clique" | "sat" => via,
        _ => "milp",
    };
    let m = pipeline::edge::model_of(model.unwrap_or(default_model))?;
    let p = pipeline::edge::load_edge(instance)?;
    let rep = pipeline::edge::solve_edge(&p, via, m, opts)?;
    if let (Some(path), Some(board)) = (&output, &rep.board)
        && rep.verified
    {
        write_output(Some(path), board.to_text_with_colours(&p).as_bytes())?;
    }
    println!("{}", rep.render(json));
    Ok(if rep.verified {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn model_of(s: &str) -> Result<SlidingModel, PipelineError> {
    SlidingModel::parse(s).ok_or_else(|| {
        PipelineError::Input(format!(
            "--model {s} is not known for sliding puzzles: use neos, flow or sat"
        ))
    })
}

/// A NEOS job document for `instance` (the same document `neos submit --dry-run` prints).
fn neos_job_text(
    instance: &Path,
    goal: Goal,
    model: SlidingModel,
    common: &Common,
    input: &str,
    solver: &str,
    email: Option<&str>,
) -> Result<String, PipelineError> {
    use tilekit::format::neos_job::{InputMethod, Priority, job_to_string};
    use tilekit::neos::jobs::SlidingJob;
    let bad = |e: String| PipelineError::Input(e);
    let input = InputMethod::parse(input)
        .ok_or_else(|| bad(format!("--input {input} is not known: use mps, lp or gams")))?;
    if model == SlidingModel::Sat {
        return Err(bad(
            "a NEOS job carries a MILP: use --model neos or flow".into()
        ));
    }
    let email = tilekit::neos::cli::resolve_email(email, std::env::var("NEOS_EMAIL").ok())
        .map_err(|e| bad(e.to_string()))?;
    let puzzle = pipeline::load_sliding(instance, goal)?;
    let t = horizon_of(common, &puzzle, goal, AUTO_HORIZON_SECONDS)?;
    let horizon = pipeline::resolve_horizon(&puzzle, t)?;
    let job = SlidingJob {
        puzzle,
        instance_path: instance.display().to_string(),
        goal,
        model,
        horizon,
        category: "milp".into(),
        solver: tilekit::neos::cli::neos_solver_name(solver),
        input,
        priority: Priority::Short,
        email,
        time_limit: Duration::from_secs(300),
    };
    let spec = job.spec().map_err(|e| bad(e.to_string()))?;
    job_to_string(&spec).map_err(|e| bad(e.to_string()))
}

/// Write bytes to a file, or to stdout for `-` or no file.
fn write_output(output: Option<&Path>, bytes: &[u8]) -> Result<ExitCode, PipelineError> {
    match output.filter(|o| *o != Path::new("-")) {
        Some(path) => std::fs::write(path, bytes)
            .map_err(|e| PipelineError::Input(format!("{}: cannot write: {e}", path.display())))?,
        None => std::io::stdout()
            .write_all(bytes)
            .map_err(|e| PipelineError::Solver(e.to_string()))?,
    }
    Ok(ExitCode::SUCCESS)
}

/// `verify` for an edge-matching board: every piece once, rotations legal, grey only outward,
/// matched edges recounted.
fn verify_edge(
    instance: &Path,
    solution: &Path,
    model: Option<&str>,
    common: &Common,
    json: bool,
) -> Result<ExitCode, PipelineError> {
    let raw_model = model.map(pipeline::edge::model_of).transpose()?;
    let puzzle = edge::EdgePuzzle::parse(
        &read_text(instance, "instance")?,
        &instance.display().to_string(),
    )?;
    let text = read_text(solution, "solution")?;
    let source = solution.display().to_string();
    // A raw solver output: decoded through the model rebuilt with the export's options (a
    // CBC/HiGHS/GLPK output is recognised without --model and read as the MILP).
    let raw = match raw_model {
        Some(m) if m != pipeline::edge::EdgeModel::Milp => {
            Some(pipeline::edge::verify_edge_raw_model(
                &puzzle,
                m,
                &text,
                &source,
                milp_options(common),
            )?)
        }
        _ => pipeline::edge::verify_edge_raw(&puzzle, &text, &source, milp_options(common))?,
    };
    if let Some(v) = raw {
        if json {
            println!("{}", serde_json::to_string(&v).unwrap_or_default());
        } else if v.valid {
            let m = v.matched.unwrap_or(0);
            println!(
                "valid: {m} of {} inner edges matched ({} unmatched; {} output of the {} {})",
                v.max,
                v.max - m,
                v.solver,
                v.variant,
                v.model
            );
        } else {
            println!("invalid: {}", v.errors.join("; "));
        }
        return Ok(if v.valid {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        });
    }
    if model.is_some() {
        return Err(PipelineError::Input(format!(
            "{source}: not a CBC, HiGHS or GLPK solution file; --model milp verifies raw solver outputs (a board needs no --model)"
        )));
    }
    let board = edge::parse_any_board(&text, &source, &puzzle)?;
    let v = edge::verify_board(&puzzle, &board, None);
    if json {
        println!("{}", serde_json::to_string(&v).unwrap_or_default());
    } else if v.valid {
        println!(
            "valid: {} of {} inner edges matched ({} unmatched)",
            v.matched,
            v.max,
            v.max - v.matched
        );
    } else {
        println!("invalid: {}", v.errors.join("; "));
    }
    Ok(if v.valid {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// `-o`: write the moves of a verified sliding solve (nothing when unverified).
fn write_verified_moves(
    output: Option<&Path>,
    rep: &pipeline::SolveReport,
) -> Result<(), PipelineError> {
    if let (Some(path), Some(moves)) = (output, &rep.moves)
        && rep.verified
    {
        std::fs::write(
            path,
            format!("# {} moves, verified by replay\n{moves}\n", moves.len()),
        )
        .map_err(|e| PipelineError::Input(format!("{}: cannot write: {e}", path.display())))?;
    }
    Ok(())
}

fn progress_line(msg: &str) {
    if std::io::stderr().is_terminal() {
        eprintln!("tilekit: {msg}");
    }
}

fn run(cli: Cli) -> Result<ExitCode, PipelineError> {
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
            common,
        } => {
            let goal = goal_of(&common)?;
            if is_edge(&common, &instance)? {
                return export_edge(
                    &instance,
                    model.as_deref(),
                    format,
                    output,
                    complement,
                    &common,
                );
            }
            let m = model_of(model.as_deref().unwrap_or("neos"))?;
            let fmt_name = match (&format, &output) {
                (Some(f), _) => f.clone(),
                (None, Some(o)) if o != Path::new("-") => o
                    .extension()
                    .and_then(|e| e.to_str())
                    .unwrap_or("")
                    .to_string(),
                _ if m == SlidingModel::Sat => "cnf".into(),
                _ => "lp".into(),
            };
            if fmt_name == "neos" || fmt_name == "xml" {
                let text = neos_job_text(
                    &instance,
                    goal,
                    m,
                    &common,
                    &input,
                    &neos_solver,
                    email.as_deref(),
                )?;
                return write_output(output.as_deref(), text.as_bytes());
            }
            let fmt = Format::parse(&fmt_name).ok_or_else(|| {
                PipelineError::Input(format!(
                    "format {fmt_name:?} is not known: use lp, mps, gms or cnf"
                ))
            })?;
            let p = pipeline::load_sliding(&instance, goal)?;
            let t = horizon_of(&common, &p, goal, AUTO_HORIZON_SECONDS)?;
            let horizon = pipeline::resolve_horizon(&p, t)?;
            stream_output(output.as_deref(), |w| {
                pipeline::export_sliding(&p, goal, m, fmt, horizon, w)
            })
        }
        Cmd::Solve {
            instance,
            via,
            model,
            solver,
            time_limit,
            threads,
            output,
            solvers,
            json,
            encoding,
            certify,
            common,
        } => {
            let goal = goal_of(&common)?;
            if is_edge(&common, &instance)? {
                let opts = pipeline::edge::EdgeSolveOptions {
                    milp: milp_options(&common),
                    solver,
                    time_limit: positive_limit(time_limit)?,
                    threads,
                    solvers_file: solvers,
                    progress: Some(progress_line),
                };
                return solve_edge(
                    &instance,
                    via.as_deref(),
                    model.as_deref(),
                    &opts,
                    output,
                    json,
                );
            }
            // --certify and --encoding belong to the SAT route, so they imply --via sat.
            let sat_route = certify.certify || encoding.is_some();
            let via = via.unwrap_or_else(|| if sat_route { "sat" } else { "native" }.into());
            // --via native --certify: the native plan, certified by refuting its length − 2.
            let native_certify = via == "native" && certify.certify;
            if sat_route && via != "sat" && !native_certify {
                return Err(PipelineError::Input(format!(
                    "--certify and --encoding belong to --via sat (or --via native --certify), not --via {via}"
                )));
            }
            if native_certify && certify.plan.is_some() {
                return Err(PipelineError::Input(
                    "--plan gives the plan to certify, so it goes with --via sat, not --via native"
                        .into(),
                ));
            }
            let milp_model = match (via.as_str(), model.as_deref()) {
                ("milp", None) => SlidingModel::Neos,
                ("milp", Some(m)) => match model_of(m)? {
                    SlidingModel::Sat => {
                        return Err(PipelineError::Input(
                            "--via milp solves --model neos or flow, not sat".into(),
                        ));
                    }
                    other => other,
                },
                ("native", Some(m)) => {
                    return Err(PipelineError::Input(format!(
                        "--via native searches the puzzle itself and takes no --model (got {m})"
                    )));
                }
                (_, Some(m)) if m != "sat" => {
                    return Err(PipelineError::Input(format!(
                        "--via {via} solves --model sat, not {m}"
                    )));
                }
                _ => SlidingModel::Sat,
            };
            if !(time_limit.is_finite() && time_limit > 0.0) {
                return Err(PipelineError::Input(
                    "--time-limit must be a positive number of seconds".into(),
                ));
            }
            let p = pipeline::load_sliding(&instance, goal)?;
            let horizon = if via == "native" {
                None // the native search needs no horizon
            } else {
                horizon_of(&common, &p, goal, time_limit)?
            };
            let opts = pipeline::SolveOptions {
                via,
                model: milp_model,
                solver,
                horizon,
                time_limit: Duration::from_secs_f64(time_limit),
                threads,
                solvers_file: solvers,
                progress: Some(progress_line),
            };
            if sat_route {
                let enc = encoding.as_deref().unwrap_or("pruned");
                let sat = pipeline::SatOptions {
                    encoding: tilekit::formulate::sliding_sat::Encoding::parse(enc).ok_or_else(
                        || {
                            PipelineError::Input(format!(
                                "--encoding {enc} is not known: use plain, pruned or strong"
                            ))
                        },
                    )?,
                    certify: certify.certify.then(|| tilekit::certify::CertifyOptions {
                        checker: certify.checker.clone(),
                        checker_time_limit: Duration::from_secs_f64(time_limit),
                        proof_dir: certify.proof_dir.clone(),
                        split: certify.split,
                        jobs: certify.split_jobs,
                    }),
                    plan: match &certify.plan {
                        Some(path) => Some(tilekit::puzzle::sliding::parse_moves(
                            &read_text(path, "plan")?,
                            &path.display().to_string(),
                        )?),
                        None => None,
                    },
                };
                let (opts, sat) = if native_certify {
                    // The native search finds the plan (no horizon search by SAT); --solver
                    // names the proof producer.
                    let native = pipeline::solve_sliding(
                        &p,
                        goal,
                        &pipeline::SolveOptions {
                            via: "native".into(),
                            solver: None,
                            ..opts.clone()
                        },
                    )?;
                    let Some(moves) = native.moves.as_deref().filter(|_| native.verified) else {
                        println!("{}", native.render(json));
                        return Ok(ExitCode::from(1));
                    };
                    let plan = tilekit::puzzle::sliding::parse_moves(moves, "the native plan")?;
                    (
                        pipeline::SolveOptions {
                            via: "sat".into(),
                            ..opts
                        },
                        pipeline::SatOptions {
                            plan: Some(plan),
                            ..sat
                        },
                    )
                } else {
                    (opts, sat)
                };
                let mut rep = pipeline::solve_sliding_sat(&p, goal, &opts, &sat)?;
                if native_certify {
                    rep.report.solver_status =
                        "plan from the native solver (IDA*); SAT used for the proof only".into();
                }
                write_verified_moves(output.as_deref(), &rep.report)?;
                println!("{}", rep.render(json));
                return Ok(if rep.success(certify.certify) {
                    ExitCode::SUCCESS
                } else {
                    ExitCode::from(1)
                });
            }
            let rep = pipeline::solve_sliding(&p, goal, &opts)?;
            write_verified_moves(output.as_deref(), &rep)?;
            println!("{}", rep.render(json));
            Ok(if rep.verified {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
        Cmd::Verify {
            instance,
            solution,
            model,
            json,
            common,
        } => {
            let goal = goal_of(&common)?;
            if is_edge(&common, &instance)? {
                return verify_edge(&instance, &solution, model.as_deref(), &common, json);
            }
            let m = model.as_deref().map(model_of).transpose()?;
            let p = pipeline::load_sliding(&instance, goal)?;
            let horizon = horizon_of(&common, &p, goal, AUTO_HORIZON_SECONDS)?;
            let text = std::fs::read_to_string(&solution).map_err(|e| {
                PipelineError::Input(format!("{}: cannot read: {e}", solution.display()))
            })?;
            let v = pipeline::verify_sliding(
                &p,
                goal,
                &text,
                &solution.display().to_string(),
                m,
                horizon,
            )?;
            if json {
                println!("{}", serde_json::to_string(&v).unwrap_or_default());
            } else if v.valid {
                println!("valid: {} moves reach the goal", v.objective.unwrap_or(0.0));
            } else {
                println!("invalid: {}", v.errors.join("; "));
            }
            Ok(if v.valid {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
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
            let (inst, sol) = edge::generate_texts(rows, cols, frame_colours, inner_colours, seed)
                .map_err(PipelineError::Input)?;
            let to_file = output.as_ref().filter(|o| *o != Path::new("-"));
            let sol_path = solution.or_else(|| {
                to_file.map(|o| {
                    let mut p = o.clone().into_os_string();
                    p.push(".solution");
                    PathBuf::from(p)
                })
            });
            write_output(output.as_deref(), inst.as_bytes())?;
            if let Some(sp) = sol_path {
                write_output(Some(&sp), sol.as_bytes())?;
                if to_file.is_some() {
                    eprintln!("tilekit: planted solution written to {}", sp.display());
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Render {
            instance,
            solution,
            output,
            ids,
            common,
        } => {
            let svg = if is_edge(&common, &instance)? {
                let name = instance.display().to_string();
                let puzzle = edge::EdgePuzzle::parse(&read_text(&instance, "instance")?, &name)?;
                let board = match &solution {
                    Some(sp) => Some(edge::parse_any_board(
                        &read_text(sp, "solution")?,
                        &sp.display().to_string(),
                        &puzzle,
                    )?),
                    None => None,
                };
                let opts = tilekit::render::EdgeRenderOptions {
                    show_ids: ids,
                    ..Default::default()
                };
                tilekit::render::render_edge(&puzzle, board.as_ref(), &opts)
            } else {
                let goal = goal_of(&common)?;
                let p = pipeline::load_sliding(&instance, goal)?;
                let moves = match &solution {
                    Some(sp) => Some(tilekit::puzzle::sliding::parse_moves(
                        &read_text(sp, "solution")?,
                        &sp.display().to_string(),
                    )?),
                    None => None,
                };
                tilekit::render::render_sliding(&p, moves.as_deref())
            };
            write_output(Some(&output), svg.as_bytes())
        }
        Cmd::Neos { cmd } => {
            let code = tilekit::neos::cli::run(cmd)?;
            Ok(ExitCode::from(u8::try_from(code).unwrap_or(3)))
        }
        Cmd::Bench {
            set,
            limit,
            time_limit,
            jobs,
            cache_dir,
            pdb,
            json,
        } => {
            use tilekit::search::bench;
            let which = bench::BenchSet::parse(&set).ok_or_else(|| {
                PipelineError::Input(format!(
                    "bench set {set:?} is not known: use korf100, korf50-24, deepcubea24 or hardest80"
                ))
            })?;
            if time_limit.is_some_and(|t| !(t.is_finite() && t > 0.0)) {
                return Err(PipelineError::Input(
                    "--time-limit must be a positive number of seconds".into(),
                ));
            }
            if jobs == 0 || limit == Some(0) {
                return Err(PipelineError::Input(
                    "--jobs and --limit must be at least 1".into(),
                ));
            }
            let opts = bench::BenchOptions {
                limit,
                time_limit: time_limit.map(Duration::from_secs_f64),
                jobs,
                native: tilekit::search::NativeOptions {
                    cache_dir,
                    ..Default::default()
                },
                pdb,
            };
            let mut out = std::io::stdout();
            let summary = bench::run(which, &opts, &mut out, &progress_line)
                .map_err(|e| PipelineError::Input(e.to_string()))?;
            if json {
                println!("{}", serde_json::to_string(&summary).unwrap_or_default());
            }
            Ok(if summary.mismatches == 0 && summary.timeouts == 0 {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
        Cmd::Solvers { solvers, json } => {
            let reg = tilekit::solve::registry::Registry::load(solvers.as_deref())
                .map_err(|e| PipelineError::Input(e.to_string()))?;
            let rows = tilekit::solve::registry::list(&reg);
            if json {
                println!("{}", serde_json::to_string(&rows).unwrap_or_default());
            } else {
                println!(
                    "{:<10} {:<6} {:<6} {:<9} version",
                    "name", "kind", "input", "installed"
                );
                println!(
                    "{:<10} {:<6} {:<6} {:<9} 0.7",
                    "microlp", "milp", "-", "embedded"
                );
                println!(
                    "{:<10} {:<6} {:<6} {:<9} 0.2.2",
                    "varisat", "sat", "-", "embedded"
                );
                for r in rows {
                    println!(
                        "{:<10} {:<6} {:<6} {:<9} {}",
                        r.name,
                        r.kind,
                        r.input,
                        if r.found { "yes" } else { "no" },
                        r.version.unwrap_or_default()
                    );
                }
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(code) => code,
        Err(PipelineError::Input(msg)) => {
            eprintln!("tilekit: {msg}");
            ExitCode::from(2)
        }
        Err(PipelineError::Solver(msg)) => {
            eprintln!("tilekit: {msg}");
            ExitCode::from(3)
        }
    }
}
