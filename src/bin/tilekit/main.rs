//! The `tilekit` command: parse arguments, turn them into library requests, call the route,
//! print, and map outcomes to exit codes (0 success, 1 the answer is "no", 2 usage or input
//! error, 3 solver or system failure). No route rule and no pipeline step lives here.

mod args;
mod neos;
mod print;

use args::{Cli, Cmd, Common, FamilyArg, GenerateCmd};
use clap::Parser;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;
use tilekit::Error;
use tilekit::formulate::edge_milp::EdgeMilpOptions;
use tilekit::puzzle::edge;
use tilekit::route::output::{stream_to, write_to};
use tilekit::route::sliding::{self, AUTO_HORIZON_SECONDS, SlidingModel};
use tilekit::route::{self, ModelName};
use tilekit::solve::Limits;

fn progress_line(msg: &str) {
    if std::io::stderr().is_terminal() {
        eprintln!("tilekit: {msg}");
    }
}

/// True for an edge-matching instance: `--family`, else detected from the content.
fn is_edge(c: &Common, instance: &Path) -> Result<bool, Error> {
    match c.family {
        Some(f) => Ok(f == FamilyArg::Edge),
        None => Ok(edge::looks_like_edge_instance(&route::read_text(
            instance, "instance",
        )?)),
    }
}

/// The edge MILP options from `--filter` and `--fix-corner`.
fn milp_options(c: &Common) -> EdgeMilpOptions {
    EdgeMilpOptions {
        filter_feasible: c.filter,
        fix_first_corner: c.fix_corner,
    }
}

/// A sliding instance's horizon (`auto` resolved by the native solver within `limit`).
fn horizon(c: &Common, p: &tilekit::SlidingPuzzle, limit: f64) -> Result<Option<usize>, Error> {
    sliding::horizon_of(
        c.horizon,
        p,
        c.goal.into(),
        Duration::from_secs_f64(limit),
        &progress_line,
    )
}

/// A limit from `--time-limit`, refused when it is not a positive number of seconds.
fn limits(time_limit: f64, threads: u32) -> Result<Limits, Error> {
    if !(time_limit.is_finite() && time_limit > 0.0 && time_limit < 1e9) {
        return Err(Error::usage(
            "--time-limit must be a positive number of seconds",
        ));
    }
    Ok(Limits::new(Duration::from_secs_f64(time_limit), threads))
}

/// The NEOS job document `export --format neos` writes: the instance's MILP in `input`, for
/// the NEOS solver `solver`, with a 300 s limit written into GAMS models.
fn neos_job_text(
    inst: &route::neos::NeosInstance,
    instance: &Path,
    input: args::InputArg,
    solver: &str,
    email: Option<String>,
) -> Result<String, Error> {
    let email = neos::resolve_email(email.as_deref(), std::env::var("NEOS_EMAIL").ok())
        .map_err(|e| Error::Usage(e.to_string()))?;
    let job = route::neos::JobRequest {
        category: "milp".into(),
        solver: neos::neos_solver_name(solver),
        input: input.into(),
        priority: tilekit::format::neos_job::Priority::Short,
        email,
    };
    route::neos::job_text(
        inst,
        &instance.display().to_string(),
        &job,
        &Limits::new(Duration::from_secs(300), 1),
    )
}

fn code(success: bool) -> ExitCode {
    if success {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
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
            common,
        } => {
            let out = output.as_deref();
            if is_edge(&common, &instance)? {
                let m = route::edge::EdgeModel::of(model.unwrap_or(ModelName::Milp))?;
                let fmt = route::edge::export_format(m, format, out, complement)?;
                let p = route::edge::load(&instance)?;
                let opts = milp_options(&common);
                if fmt == tilekit::format::Format::Neos {
                    let inst = route::neos::NeosInstance::edge(p, Some(ModelName::Milp), opts)?;
                    let text = neos_job_text(&inst, &instance, input, &neos_solver, email)?;
                    write_to(out, text.as_bytes())?;
                    return Ok(ExitCode::SUCCESS);
                }
                route::edge::export_to(&p, m, opts, complement, fmt, out)?;
                return Ok(ExitCode::SUCCESS);
            }
            let goal = common.goal.into();
            let name = model.unwrap_or(ModelName::Neos);
            let m = SlidingModel::of(name)?;
            let fmt = sliding::export_format(m, format, out)?;
            if fmt == tilekit::format::Format::Neos {
                if m == SlidingModel::Sat {
                    return Err(Error::usage(
                        "a NEOS job carries a MILP: use --model neos or flow",
                    ));
                }
                let puzzle = sliding::load(&instance, goal)?;
                let t = horizon(&common, &puzzle, AUTO_HORIZON_SECONDS)?;
                let inst = route::neos::NeosInstance::sliding(puzzle, goal, Some(name), t)?;
                let text = neos_job_text(&inst, &instance, input, &neos_solver, email)?;
                write_to(out, text.as_bytes())?;
                return Ok(ExitCode::SUCCESS);
            }
            sliding::check_format(m, fmt)?;
            let p = sliding::load(&instance, goal)?;
            let t = horizon(&common, &p, AUTO_HORIZON_SECONDS)?;
            let h = sliding::resolve_horizon(&p, t)?;
            stream_to(out, |w| sliding::export(&p, goal, m, fmt, h, w))?;
            Ok(ExitCode::SUCCESS)
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
            if is_edge(&common, &instance)? {
                let req = route::edge::SolveRequest {
                    via,
                    model,
                    solver,
                    limits: limits(time_limit, threads)?,
                    solvers_file: solvers,
                    options: milp_options(&common),
                };
                req.model()?;
                let p = route::edge::load(&instance)?;
                let rep = route::edge::solve(&p, &req, &progress_line)?;
                if let (Some(path), Some(board)) = (&output, rep.board()) {
                    write_to(Some(path), board.to_text_with_colours(&p).as_bytes())?;
                }
                println!("{}", rep.render(json));
                return Ok(code(rep.success()));
            }
            let goal = common.goal.into();
            let lim = limits(time_limit, threads)?;
            let certify_opts = certify.certify.then(|| tilekit::certify::CertifyOptions {
                checker: certify.checker.clone(),
                checker_time_limit: lim.time,
                proof_dir: certify.proof_dir.clone(),
                split: certify.split,
                jobs: certify.split_jobs,
            });
            // The route rules first (an empty plan stands for `--plan` while they are
            // checked), then the plan file: a refused combination reads no file.
            let mut plan = sliding::SolveRequest {
                via,
                model,
                solver,
                horizon: common.horizon,
                limits: lim,
                solvers_file: solvers,
                encoding: encoding.map(Into::into),
                certify: certify_opts,
                plan: certify.plan.as_ref().map(|_| Vec::new()),
            }
            .plan()?;
            if let Some(path) = &certify.plan {
                plan.request.plan = Some(tilekit::puzzle::sliding::parse_moves(
                    &route::read_text(path, "plan")?,
                    &path.display().to_string(),
                )?);
            }
            let p = sliding::load(&instance, goal)?;
            let rep = sliding::solve(&p, goal, &plan, &progress_line)?;
            if let (Some(path), Some(moves)) = (&output, rep.plan()) {
                let text = format!(
                    "# {} moves, verified by replay\n{}\n",
                    moves.len(),
                    tilekit::puzzle::sliding::moves_to_string(moves)
                );
                write_to(Some(path), text.as_bytes())?;
            }
            println!("{}", rep.render(json));
            Ok(code(rep.success()))
        }
        Cmd::Verify {
            instance,
            solution,
            model,
            json,
            common,
        } => {
            if is_edge(&common, &instance)? {
                let m = model.map(route::edge::EdgeModel::of).transpose()?;
                let p = route::edge::load(&instance)?;
                let text = route::read_text(&solution, "solution")?;
                let v = route::edge::verify(
                    &p,
                    &text,
                    &solution.display().to_string(),
                    m,
                    milp_options(&common),
                )?;
                println!("{}", print::edge_verification(&v, json));
                return Ok(code(v.valid()));
            }
            let goal = common.goal.into();
            let m = model.map(SlidingModel::of).transpose()?;
            let p = sliding::load(&instance, goal)?;
            let t = horizon(&common, &p, AUTO_HORIZON_SECONDS)?;
            let text = std::fs::read_to_string(&solution)
                .map_err(|e| Error::Usage(format!("{}: cannot read: {e}", solution.display())))?;
            let v = sliding::verify(&p, goal, &text, &solution.display().to_string(), m, t)?;
            println!("{}", print::sliding_verdict(&v, json));
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
            let (inst, sol) = edge::generate_texts(rows, cols, frame_colours, inner_colours, seed)
                .map_err(Error::Usage)?;
            let to_file = output.as_ref().filter(|o| *o != Path::new("-"));
            let sol_path = solution.or_else(|| {
                to_file.map(|o| {
                    let mut p = o.clone().into_os_string();
                    p.push(".solution");
                    PathBuf::from(p)
                })
            });
            write_to(output.as_deref(), inst.as_bytes())?;
            if let Some(sp) = sol_path {
                write_to(Some(&sp), sol.as_bytes())?;
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
                let puzzle = route::edge::load(&instance)?;
                let board = match &solution {
                    Some(sp) => Some(edge::parse_any_board(
                        &route::read_text(sp, "solution")?,
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
                let p = sliding::load(&instance, common.goal.into())?;
                let moves = match &solution {
                    Some(sp) => Some(tilekit::puzzle::sliding::parse_moves(
                        &route::read_text(sp, "solution")?,
                        &sp.display().to_string(),
                    )?),
                    None => None,
                };
                tilekit::render::render_sliding(&p, moves.as_deref())
            };
            write_to(Some(&output), svg.as_bytes())?;
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
            json,
        } => {
            use tilekit::search::bench;
            if time_limit.is_some_and(|t| !(t.is_finite() && t > 0.0 && t < 1e9)) {
                return Err(Error::usage(
                    "--time-limit must be a positive number of seconds",
                ));
            }
            if jobs == 0 || limit == Some(0) {
                return Err(Error::usage("--jobs and --limit must be at least 1"));
            }
            let opts = bench::BenchOptions {
                limit,
                time_limit: time_limit.map(Duration::from_secs_f64),
                jobs,
                native: tilekit::search::NativeOptions {
                    cache_dir,
                    ..Default::default()
                },
                pdb: pdb.map(|p| p.name().to_string()),
            };
            let mut out = std::io::stdout();
            let summary = bench::run(set.into(), &opts, &mut out, &progress_line)
                .map_err(|e| Error::Usage(e.to_string()))?;
            if json {
                println!("{}", serde_json::to_string(&summary).unwrap_or_default());
            }
            Ok(code(summary.mismatches == 0 && summary.timeouts == 0))
        }
        Cmd::Solvers { solvers, json } => {
            let reg = tilekit::solve::registry::Registry::load(solvers.as_deref())?;
            println!("{}", print::solvers(&reg, json));
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn main() -> ExitCode {
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
            eprint!("tilekit: {}", text.strip_prefix("error: ").unwrap_or(&text));
            return ExitCode::from(2);
        }
    };
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("tilekit: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}
