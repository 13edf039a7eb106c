//! `tilekit export-set`, `tilekit run` and `tilekit report`: the clap fields into the library's requests, and
//! the summaries printed (a cross-check's conflicts on stderr, each with both answers).

use crate::args::{Cmd, ExecutorArg};
use std::process::ExitCode;
use tilekit::campaign::cells::RunRequest;
use tilekit::campaign::export_set::{self, ExportSetRequest};
use tilekit::campaign::neos::{self, NeosOptions};
use tilekit::campaign::report::{self, ReportRequest};
use tilekit::campaign::run::{self, Executor};
use tilekit::campaign::slurm::{self, SlurmOptions};
use tilekit::route::Error;

/// Run a campaign command (`export-set`, `run`).
pub(crate) fn run(cmd: Cmd) -> Result<ExitCode, Error> {
    if let Cmd::Run(_) = cmd {
        return run_matrix(cmd);
    }
    if let Cmd::Report(_) = cmd {
        return report(cmd);
    }
    if let Cmd::RunTask(crate::args::RunTaskArgs { plan, task }) = cmd {
        let n = slurm::run_task(&plan, task)?;
        crate::note(&format!("task {task}: {n} run"));
        return Ok(ExitCode::SUCCESS);
    }
    let Cmd::ExportSet(crate::args::ExportSetArgs {
        set,
        models,
        formats,
        horizon,
        goal,
        filter,
        fix_corner,
        compress,
        jobs,
        output,
        json,
    }) = cmd
    else {
        unreachable!("main dispatches only campaign commands here")
    };
    let req = ExportSetRequest {
        set,
        models,
        formats,
        horizon,
        goal: goal.map(Into::into),
        filter,
        fix_corner,
        compress: compress.into(),
        jobs,
        output,
        command: std::env::args().collect(),
    };
    let s = export_set::export_set(&req, &crate::progress_line)?;
    let text = if json {
        serde_json::json!({
            "manifest": s.manifest.display().to_string(),
            "written": s.written,
            "kept": s.kept,
            "skipped": s.skipped,
            "removed": s.removed,
        })
        .to_string()
    } else {
        let removed = match s.removed {
            0 => String::new(),
            n => format!("; {n} files of an earlier export that this one does not list removed"),
        };
        format!(
            "{}: {} files written, {} kept from an earlier run, {} combinations skipped (listed in the manifest){removed}",
            s.manifest.display(),
            s.written,
            s.kept,
            s.skipped
        )
    };
    crate::say(&text)?;
    Ok(ExitCode::SUCCESS)
}

fn run_matrix(cmd: Cmd) -> Result<ExitCode, Error> {
    let Cmd::Run(crate::args::RunArgs {
        manifest,
        solvers,
        db,
        time_limit,
        threads,
        jobs,
        solvers_file,
        retry_errors,
        executor,
        collect,
        work,
        cells_per_task,
        partition,
        sbatch_arg,
        wait,
        neos_solver,
        server,
        email,
        neos_interval,
        neos_max_wait,
        no_wait,
        jobs_file,
        json,
        memory_limit,
        seeds,
    }) = cmd
    else {
        unreachable!("run_matrix is called for `run` only")
    };
    if executor != ExecutorArg::Neos && (no_wait || email.is_some() || jobs_file.is_some()) {
        return Err(Error::usage(
            "--no-wait, --email and --jobs-file belong to --executor neos",
        ));
    }
    if executor == ExecutorArg::Neos && !solvers.is_empty() {
        return Err(Error::usage(
            "--executor neos sends every LP and MPS file to --neos-solver: leave --solvers out",
        ));
    }
    if executor != ExecutorArg::Neos && solvers.is_empty() && !collect {
        return Err(Error::usage("--solvers names the solvers to run"));
    }
    let slurm = SlurmOptions {
        work,
        cells_per_task,
        partition,
        sbatch_args: sbatch_arg,
        wait,
    };
    if executor != ExecutorArg::Slurm
        && (collect || wait || slurm.work.is_some() || slurm.partition.is_some())
    {
        return Err(Error::usage(
            "--collect, --wait, --work and --partition belong to --executor slurm",
        ));
    }
    if cells_per_task == 0 {
        return Err(Error::usage("--cells-per-task must be at least 1"));
    }
    if memory_limit == Some(0) {
        return Err(Error::usage("--memory-limit must be at least 1 (MB)"));
    }
    if executor == ExecutorArg::Neos && seeds > 1 {
        return Err(Error::usage(
            "--seeds runs the solvers here or on Slurm; a NEOS job runs with NEOS's own settings",
        ));
    }
    if executor == ExecutorArg::Neos && memory_limit.is_some() {
        return Err(Error::usage(
            "--memory-limit holds the solvers run here or on Slurm; NEOS sets its own",
        ));
    }
    let req = RunRequest {
        manifest,
        solvers,
        db: db.clone(),
        limits: tilekit::solve::Limits {
            memory: memory_limit.map(|mb| mb.saturating_mul(1_000_000)),
            ..tilekit::route::limits(time_limit, threads)?
        },
        jobs,
        solvers_file,
        retry_errors,
        seeds,
    };
    let run_on = match executor {
        ExecutorArg::Slurm => Executor::Slurm(slurm.clone()),
        _ => Executor::Local,
    };
    let s = if executor == ExecutorArg::Neos {
        let opts = NeosOptions {
            solver: neos_solver,
            server,
            email,
            interval: tilekit::route::seconds("--neos-interval", neos_interval.max(1e-3))?,
            no_wait,
            job_file: jobs_file,
            max_wait: tilekit::route::seconds("--neos-max-wait", neos_max_wait)?,
        };
        neos::run(&req, &opts, &crate::progress_line)?
    } else if collect {
        let (s, c) = slurm::collect_run(&req, &slurm)?;
        crate::note(&format!(
            "collected {} new rows from {} complete and {} partial shards; {} cells missing",
            c.stored,
            c.complete,
            c.partial.len(),
            c.missing
        ));
        s
    } else {
        run::run(&req, &run_on, &crate::progress_line)?
    };
    for n in &s.notes {
        crate::note(n);
    }
    for c in &s.conflicts {
        crate::note(&format!(
            "CONFLICT on {} ({}): {}",
            c.instance,
            c.kind.as_str(),
            c.detail
        ));
    }
    let text = if json {
        serde_json::to_string(&s).map_err(Error::failure)?
    } else {
        format!(
            "{}: {} cells: {} run now ({} solver errors), {} already done; {} conflicts",
            db.display(),
            s.cells,
            s.ran,
            s.errors,
            s.done_before,
            s.conflict_count
        )
    };
    crate::say(&text)?;
    // A solver that damaged the set failed, whatever the rows say; then conflicts.
    Ok(if !s.damaged.is_empty() {
        ExitCode::from(3)
    } else if s.conflicts.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn report(cmd: Cmd) -> Result<ExitCode, Error> {
    let Cmd::Report(crate::args::ReportArgs {
        db,
        output,
        shift,
        json,
    }) = cmd
    else {
        unreachable!("report is called for `report` only")
    };
    let (s, conflicts) = report::report(&ReportRequest {
        db,
        output: output.clone(),
        shift,
    })?;
    for c in &conflicts {
        crate::note(&format!(
            "CONFLICT on {} ({}): {}",
            c.instance,
            c.kind.as_str(),
            c.detail
        ));
    }
    let text = if json {
        serde_json::to_string(&s).map_err(Error::failure)?
    } else {
        format!(
            "{}: {} runs, {} configurations, {} conflicts; open {}",
            output.display(),
            s.runs,
            s.configurations,
            s.conflicts,
            output.join("index.html").display()
        )
    };
    crate::say(&text)?;
    Ok(if conflicts.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
