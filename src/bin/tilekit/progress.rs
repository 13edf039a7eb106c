//! What long work shows on stderr: one live status line (a spinner with the elapsed time and
//! the latest message from the library) while a command runs, and permanent lines for the
//! notices worth keeping (`route::NOTICE`: the horizon `auto` chose, a database being
//! built), and a bar for work with a known total (`route::step`: a pattern database's
//! placements, an external solver's run against its time limit). Shown when stderr is a terminal, or always with `--progress`; never with
//! `--quiet`. Without a terminal, `--progress` prints each message as a plain line.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::OnceLock;
use std::time::{Duration, Instant};
use tilekit::route::Line;

/// How progress is shown.
enum Mode {
    /// Nothing.
    Quiet,
    /// A live status line on the terminal.
    Live(ProgressBar),
    /// Plain lines (stderr is not a terminal, and `--progress` asked for them).
    Lines,
}

static MODE: OnceLock<Mode> = OnceLock::new();

/// Choose how progress is shown, once, from `--quiet` and `--progress`.
pub(crate) fn init(quiet: bool, forced: bool) {
    let terminal = std::io::stderr().is_terminal();
    let mode = if quiet || !(terminal || forced) {
        Mode::Quiet
    } else if terminal {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        bar.set_style(spinner_style());
        // Ticking starts with the first message: a command that finishes at once draws
        // nothing.
        Mode::Live(bar)
    } else {
        Mode::Lines
    };
    let _ = MODE.set(mode);
}

/// The spinner of work without a known total.
fn spinner_style() -> ProgressStyle {
    ProgressStyle::with_template("{spinner} [{elapsed_precise}] {wide_msg}")
        .unwrap_or_else(|_| ProgressStyle::default_spinner())
}

/// The bar of work with a known total (a database build, a solver run against its limit).
fn bar_style() -> ProgressStyle {
    ProgressStyle::with_template(
        "{spinner} [{elapsed_precise}] [{bar:24}] {percent:>3}% {wide_msg}",
    )
    .map(|s| s.progress_chars("=> "))
    .unwrap_or_else(|_| ProgressStyle::default_bar())
}

/// A progress message from the library.
pub(crate) fn line(msg: &str) {
    let msg = &*tilekit::route::output::printable(msg);
    let line = Line::parse(msg);
    match MODE.get() {
        None | Some(Mode::Quiet) => {}
        Some(Mode::Lines) => {
            // Plain lines pile up in a log: a bar's updates, which may come several times a
            // second, are printed about every 5 s (the solver heartbeat's own pace).
            static LAST_STEP: std::sync::Mutex<Option<Instant>> = std::sync::Mutex::new(None);
            if let Line::Step { done, total, .. } = line {
                let mut last = LAST_STEP.lock().unwrap_or_else(|e| e.into_inner());
                if done < total && last.is_some_and(|t| t.elapsed() < Duration::from_millis(4500)) {
                    return;
                }
                *last = Some(Instant::now());
                // Without a bar, the counts go into the line itself.
                return crate::note(&format!("{done} of {total}: {}", line.text()));
            }
            crate::note(line.text())
        }
        Some(Mode::Live(bar)) => {
            if let Line::Notice(text) = line {
                bar.println(format!("tilekit: {text}"));
                return;
            }
            if bar.message().is_empty() {
                bar.enable_steady_tick(Duration::from_millis(120));
            }
            bar.set_message(line.text().to_string());
            match line {
                Line::Step { done, total, .. } => {
                    // A new total is new work: the bar starts over in its own style.
                    if bar.length() != Some(total) {
                        bar.set_style(bar_style());
                        bar.set_length(total);
                    }
                    bar.set_position(done);
                }
                _ if bar.length().is_some() => {
                    bar.set_style(spinner_style());
                    bar.unset_length();
                }
                _ => {}
            }
        }
    }
}

/// Clear the status line before the answer is printed.
pub(crate) fn finish() {
    if let Some(Mode::Live(bar)) = MODE.get() {
        bar.finish_and_clear();
    }
}

/// Run `f` (which writes to the terminal) with the status line out of its way.
pub(crate) fn suspend<T>(f: impl FnOnce() -> T) -> T {
    match MODE.get() {
        // A line not shown yet (no message so far) is not drawn by a redraw either.
        Some(Mode::Live(bar)) if !bar.message().is_empty() => bar.suspend(f),
        _ => f(),
    }
}

/// Standard output for output written while work goes on (`bench`'s table): whole lines are
/// written at once, each with the status line cleared first and redrawn after (a `writeln!`
/// arrives in pieces, and the line must not be redrawn between them).
#[derive(Default)]
pub(crate) struct Stdout {
    pending: Vec<u8>,
}

impl Stdout {
    fn write_lines(&mut self, upto: usize) -> std::io::Result<()> {
        use std::io::Write;
        let lines: Vec<u8> = self.pending.drain(..upto).collect();
        suspend(|| {
            let mut out = std::io::stdout().lock();
            out.write_all(&lines)?;
            out.flush()
        })
    }
}

impl std::io::Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.pending.extend_from_slice(buf);
        if let Some(last) = self.pending.iter().rposition(|&b| b == b'\n') {
            self.write_lines(last + 1)?;
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        let n = self.pending.len();
        self.write_lines(n)
    }
}
