//! The `tilekit` command: parse arguments, turn them into library requests, call the route,
//! print, and map outcomes to exit codes (0 success, 1 the answer is "no", 2 usage or input
//! error, 3 solver or system failure). No route rule and no pipeline step lives here.

mod args;
mod bench;
mod campaign;
mod neos;
mod print;
mod progress;
mod solve;
#[cfg(feature = "train")]
mod train;

use args::{Cli, Cmd, Common, GenerateCmd};
use clap::Parser;
use std::path::Path;
use std::process::ExitCode;
use tilekit::Error;
use tilekit::formulate::edge_milp::EdgeMilpOptions;
use tilekit::puzzle::sliding::Goal;
use tilekit::route::FamilyName;
use tilekit::route::families::{self, read};
use tilekit::route::family::Instance;
use tilekit::route::family::{
    ExportRequest, FamilyOptions, NeosJobFlags, RenderRequest, SlidingOptions, VerifyRequest,
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

/// The instance an INSTANCE argument names: a file, or else one member of a built-in set
/// (`korf100:7`, `meta2010:5`, `short8:3`), as `export-set` knows them. A set's goal
/// convention becomes `goal` when none was given, and contradicting it is refused.
pub(crate) fn read_instance(
    arg: &Path,
    family: Option<FamilyName>,
    goal: &mut Option<args::GoalArg>,
) -> Result<Instance, Error> {
    let spec = arg.to_str().filter(|s| s.contains(':'));
    let Some(spec) = spec.filter(|_| !arg.exists()) else {
        return read(arg, family);
    };
    let set = tilekit::campaign::sets::resolve(spec, None)
        .map_err(|e| Error::Usage(format!("{spec}: no such file, nor a member of a set: {e}")))?;
    let [one] = set.instances.as_slice() else {
        return Err(Error::Usage(format!(
            "{spec} names {} instances: name one (export-set takes a whole set)",
            set.instances.len()
        )));
    };
    if let Some(f) = family.filter(|f| *f != one.family) {
        return Err(Error::Usage(format!(
            "{spec} is of the {} family, not {}",
            one.family.name(),
            f.name()
        )));
    }
    if let Some(own) = one.goal {
        let own_arg = match own {
            Goal::BlankLast => args::GoalArg::BlankLast,
            Goal::BlankFirst => args::GoalArg::BlankFirst,
        };
        match goal {
            None => *goal = Some(own_arg),
            Some(given) if Goal::from(*given) != own => {
                return Err(Error::Usage(format!(
                    "--goal: {spec} has its own goal convention ({own}): leave --goal out"
                )));
            }
            Some(_) => {}
        }
    }
    families::from_text(arg, one.text.clone(), Some(one.family))
}

/// The family flags as the library takes them, for an instance of `family`: the other
/// family's flags are refused, by name.
pub(crate) fn family_options(c: &Common, family: FamilyName) -> Result<FamilyOptions, Error> {
    use tilekit::field::Field;
    let given = match family {
        FamilyName::Sliding => [(c.filter, Field::Filter), (c.fix_corner, Field::FixCorner)],
        FamilyName::Edge => [
            (c.goal.is_some(), Field::Goal),
            (c.horizon.is_some(), Field::Horizon),
        ],
    };
    args::refuse_for(family, &given)?;
    Ok(match family {
        FamilyName::Sliding => FamilyOptions::Sliding(SlidingOptions {
            goal: c.goal.map(Into::into).unwrap_or_default(),
            horizon: c.horizon,
        }),
        FamilyName::Edge => FamilyOptions::Edge(EdgeMilpOptions {
            filter_feasible: c.filter,
            fix_first_corner: c.fix_corner,
        }),
    })
}

pub(crate) fn code(success: bool) -> ExitCode {
    if success {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

fn run(cli: Cli) -> Result<ExitCode, Error> {
    match cli.cmd {
        Cmd::Export(args::ExportArgs {
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
        }) => {
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
                options: FamilyOptions::Default,
                name: None,
            };
            let mut common = common;
            let instance = read_instance(&instance, common.family, &mut common.goal)?;
            let req = ExportRequest {
                options: family_options(&common, instance.family.name)
                    .map_err(|e| instance.hint(e))?,
                ..req
            };
            families::export(&instance, &req, &progress_line)?;
            Ok(ExitCode::SUCCESS)
        }
        cmd @ (Cmd::ExportSet(_) | Cmd::Run(_) | Cmd::RunTask(_) | Cmd::Report(_)) => {
            campaign::run(cmd)
        }
        Cmd::Solve(a) => solve::run(*a),
        Cmd::Verify(args::VerifyArgs {
            instance,
            solution,
            manifest: Some(manifest),
            model,
            json,
            common,
        }) => {
            use tilekit::field::Field;
            let given = [
                (model.is_some(), Field::Model),
                (common.family.is_some(), Field::Family),
                (common.goal.is_some(), Field::Goal),
                (common.horizon.is_some(), Field::Horizon),
                (common.filter, Field::Filter),
                (common.fix_corner, Field::FixCorner),
            ];
            if let Some((_, f)) = given.iter().find(|(on, _)| *on) {
                return Err(Error::Usage(format!(
                    "{f} comes from the manifest with --manifest: leave it out"
                )));
            }
            let v = tilekit::campaign::verify::verify_file(
                &manifest,
                &instance,
                &solution,
                &progress_line,
            )?;
            say(v.render(json))?;
            Ok(code(v.valid))
        }
        Cmd::Verify(args::VerifyArgs {
            instance,
            solution,
            manifest: None,
            model,
            json,
            common,
        }) => {
            let mut common = common;
            let instance = read_instance(&instance, common.family, &mut common.goal)?;
            let req = VerifyRequest {
                solution,
                model,
                options: family_options(&common, instance.family.name)
                    .map_err(|e| instance.hint(e))?,
            };
            let v = families::verify(&instance, &req, &progress_line)?;
            say(v.render(json))?;
            Ok(code(v.valid))
        }
        Cmd::Generate(GenerateCmd::Edge(args::GenerateEdgeArgs {
            rows,
            cols,
            frame_colours,
            inner_colours,
            seed,
            output,
            solution,
        })) => {
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
        Cmd::Render(args::RenderArgs {
            instance,
            solution,
            output,
            ids,
            family,
            goal,
        }) => {
            let mut goal = goal;
            let instance = read_instance(&instance, family, &mut goal)?;
            let options = match instance.family.name {
                FamilyName::Sliding => FamilyOptions::Sliding(SlidingOptions {
                    goal: goal.map(Into::into).unwrap_or_default(),
                    horizon: None,
                }),
                FamilyName::Edge => {
                    args::refuse_for(
                        FamilyName::Edge,
                        &[(goal.is_some(), tilekit::field::Field::Goal)],
                    )
                    .map_err(|e| instance.hint(e))?;
                    FamilyOptions::Default
                }
            };
            let req = RenderRequest {
                solution,
                ids,
                options,
            };
            let drawn = families::render(&instance, &req)?;
            write_to(Some(&output), drawn.svg.as_bytes())?;
            for n in &drawn.notes {
                note(n);
            }
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Neos(cmd) => {
            let code = neos::run(cmd)?;
            Ok(ExitCode::from(u8::try_from(code).unwrap_or(3)))
        }
        Cmd::Bench(cmd) => bench::run(cmd),
        Cmd::Learn(cmd) => learn(cmd),
        Cmd::Params(args::ParamsArgs { markdown }) => {
            say(&if markdown {
                tilekit::route::params::reference_markdown()
            } else {
                print::params()
            })?;
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Solvers(args::SolversArgs { solvers_file, json }) => {
            let reg = tilekit::solve::registry::Registry::load(solvers_file.as_deref())?;
            say(&print::solvers(&reg, json))?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn learn(cmd: args::LearnCmd) -> Result<ExitCode, Error> {
    match cmd {
        args::LearnCmd::Data(args::LearnDataArgs {
            output,
            count,
            rows,
            cols,
            seed,
            jobs,
            board_limit,
            json,
        }) => {
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
    // The library names options by field; its messages here name them by their flags.
    tilekit::field::name_fields_by(args::flags::flag);
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
