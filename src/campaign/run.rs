//! A campaign run ([`RunRequest`]: a manifest, its solvers, the results database): the
//! matrix of [`super::cells`] run here, `jobs` cells at a time (or handed to the Slurm
//! executor), each row stored as it arrives by the one writer, then the cross-check.

use super::cells::{
    Prepared, RunRequest, RunSummary, cross_check, damaged_files, prepare, run_cell,
};
use crate::route::{Error, Progress};

/// Where the cells of `tilekit run` are run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Executor {
    /// Here, `jobs` at a time.
    Local,
    /// As a Slurm job array ([`super::slurm`]).
    Slurm(super::slurm::SlurmOptions),
}

/// Run the matrix (locally, or submitted to Slurm), store every row, then cross-check.
/// Conflicts are returned (the caller prints them and exits 1).
pub fn run(
    req: &RunRequest,
    executor: &Executor,
    progress: Progress<'_>,
) -> Result<RunSummary, Error> {
    let Prepared {
        m,
        base,
        solvers,
        all,
        pending,
        done_before,
        mut db,
    } = prepare(req, progress)?;
    if let Executor::Slurm(opts) = executor {
        let submitted = super::slurm::submit(req, opts, &m, &solvers, &pending, progress)?;
        let (ran, errors, notes) = match submitted {
            Some(work) if opts.wait => {
                let c = super::slurm::collect(&mut db, &m, &work)?;
                (c.stored, c.errors, c.notes)
            }
            _ => (0, 0, Vec::new()),
        };
        let conflicts = cross_check(&mut db, &m)?;
        let damaged = damaged_files(
            &base,
            &m,
            &pending.iter().map(|c| c.file).collect::<Vec<_>>(),
        );
        return Ok(RunSummary {
            cells: all.len(),
            ran,
            done_before,
            errors,
            conflict_count: conflicts.len(),
            conflicts,
            notes: notes.into_iter().chain(damaged_notes(&damaged)).collect(),
            damaged,
        });
    }
    let logs = &super::cells::logs_dir(&req.db);
    let total = pending.len();
    let (mut n, mut errors) = (0, 0);
    let mut stored: Result<(), Error> = Ok(());
    // The one writer: each row in its own transaction, as it arrives.
    crate::work::par_stream(
        total,
        req.jobs,
        |i| {
            let c = &pending[i];
            run_cell(
                &base,
                &m,
                (&m.files[c.file], &solvers[c.solver], c.seed),
                &req.limits,
                "local",
                Some(logs),
            )
        },
        |_, row| {
            n += 1;
            if row.status == "error" {
                errors += 1;
            }
            progress(&crate::route::step(
                n as u64,
                total as u64,
                &format!(
                    "run: {n} of {total} cells ({} on {}: {})",
                    row.solver,
                    m.files
                        .iter()
                        .find(|f| f.sha256 == row.file_sha256)
                        .map_or("?", |f| f.path.as_str()),
                    row.status
                ),
            ));
            match db.insert(&row, req.retry_errors) {
                Ok(_) => true,
                Err(e) => {
                    stored = Err(e);
                    false
                }
            }
        },
    );
    stored?;
    let ran = n;

    let conflicts = cross_check(&mut db, &m)?;
    let damaged = damaged_files(
        &base,
        &m,
        &pending.iter().map(|c| c.file).collect::<Vec<_>>(),
    );
    let notes = damaged_notes(&damaged).collect();
    Ok(RunSummary {
        cells: all.len(),
        ran,
        done_before,
        errors,
        conflict_count: conflicts.len(),
        conflicts,
        notes,
        damaged,
    })
}

/// One note per damaged file.
fn damaged_notes(damaged: &[String]) -> impl Iterator<Item = String> + '_ {
    damaged.iter().map(|f| {
        format!(
            "{f}: a solver changed this file during the run: export the set again before the next run"
        )
    })
}
