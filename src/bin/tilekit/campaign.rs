//! `tilekit export-set`: the clap fields into the library's request, and the summary printed.

use crate::args::Cmd;
use std::process::ExitCode;
use tilekit::campaign::export_set::{self, ExportSetRequest};
use tilekit::route::Error;

/// Run a campaign command (`export-set`).
pub(crate) fn run(cmd: Cmd) -> Result<ExitCode, Error> {
    let Cmd::ExportSet {
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
    } = cmd
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
        })
        .to_string()
    } else {
        format!(
            "{}: {} files written, {} kept from an earlier run, {} combinations skipped (listed in the manifest)",
            s.manifest.display(),
            s.written,
            s.kept,
            s.skipped
        )
    };
    crate::say(&text)?;
    Ok(ExitCode::SUCCESS)
}
