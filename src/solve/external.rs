//! The external process runner: start a solver, drain its output, enforce a wall-clock limit.
//!
//! The child runs in its own process group so that a time-out kills the whole tree (a wrapper
//! script and the solver it started), and stdout and stderr are read by two threads so that a
//! chatty solver can never block on a full pipe.
//!
//! A solver also dies with tilekit, even when tilekit is killed by SIGKILL (the OOM killer,
//! `timeout -s KILL`, a batch system's hard kill), which no handler can see: the kernel
//! sends the solver SIGKILL when tilekit's thread that started it ends
//! (`PR_SET_PDEATHSIG`), and a watchdog, a shell waiting on a pipe that only tilekit holds,
//! kills the solver's whole process group when that pipe closes without a word, which is
//! what a dead tilekit leaves; a wrapper's own children are in that group.

use std::io::Read;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long to wait for the output pipes after the solver itself has exited, before
/// assuming a leftover grandchild holds them open and killing its process group.
const PIPE_GRACE: Duration = Duration::from_millis(500);

/// What to run.
#[derive(Debug, Clone, PartialEq)]
pub struct RunSpec {
    /// The program: a name looked up on `PATH`, or a path.
    pub program: String,
    /// Its arguments, already expanded.
    pub args: Vec<String>,
    /// Wall-clock limit; past it the process group is killed.
    pub time_limit: Duration,
    /// Working directory (the caller's when `None`).
    pub cwd: Option<PathBuf>,
    /// Another thread may ask for the run to end early (a race another run has won): the
    /// process group is then killed as at the time limit, and the run reports `timed_out`.
    pub stop: Option<StopFlag>,
}

/// A shared "stop now" signal for [`RunSpec::stop`].
#[derive(Debug, Clone, Default)]
pub struct StopFlag(std::sync::Arc<std::sync::atomic::AtomicBool>);

impl StopFlag {
    /// A flag not yet raised.
    pub fn new() -> Self {
        Self::default()
    }
    /// Ask every run holding this flag to end.
    pub fn raise(&self) {
        self.0.store(true, std::sync::atomic::Ordering::SeqCst);
    }
    /// True once [`StopFlag::raise`] was called.
    pub fn is_raised(&self) -> bool {
        self.0.load(std::sync::atomic::Ordering::SeqCst)
    }
}

impl PartialEq for StopFlag {
    /// The same flag (shared), not merely the same state.
    fn eq(&self, other: &Self) -> bool {
        std::sync::Arc::ptr_eq(&self.0, &other.0)
    }
}

/// What a finished (or killed) process left behind.
#[derive(Debug, Clone, PartialEq)]
pub struct RunOutput {
    /// The exit code, when the process exited normally.
    pub status: Option<i32>,
    /// The signal that ended the process, when one did.
    pub signal: Option<i32>,
    /// Everything written to stdout (lossily decoded as UTF-8).
    pub stdout: String,
    /// Everything written to stderr (lossily decoded as UTF-8).
    pub stderr: String,
    /// Wall-clock time from spawn to exit.
    pub elapsed: Duration,
    /// True when we killed the process at the time limit.
    pub timed_out: bool,
    /// User and system CPU time of the process and of the children it waited for.
    pub cpu: Duration,
    /// Peak resident memory in kilobytes: the largest of the process and the children it
    /// waited for.
    pub max_rss_kb: u64,
    /// The memory limit it ran under, in bytes, when its processes passed it together and
    /// were killed for it.
    pub memory_out: Option<u64>,
}

impl RunOutput {
    /// "exit code N", "signal N" or "killed at the time limit", for messages.
    pub fn describe_exit(&self) -> String {
        if let Some(limit) = self.memory_out {
            return format!(
                "killed at the memory limit of {} MB after {:.1} s",
                limit / 1_000_000,
                self.elapsed.as_secs_f64()
            );
        }
        match (self.timed_out, self.status, self.signal) {
            (true, _, _) => format!(
                "killed at the time limit after {:.1} s",
                self.elapsed.as_secs_f64()
            ),
            (_, Some(c), _) => format!("exit code {c}"),
            (_, _, Some(s)) => format!("signal {s}"),
            _ => "an unknown exit status".to_string(),
        }
    }

    /// The last `max_lines` non-blank lines of stderr, or of stdout when stderr is empty
    /// (CBC and GLPK report their errors on stdout), joined with " | ".
    pub fn output_tail(&self, max_lines: usize) -> String {
        let text = if self.stderr.trim().is_empty() {
            &self.stdout
        } else {
            &self.stderr
        };
        let lines: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        lines[lines.len().saturating_sub(max_lines)..].join(" | ")
    }
}

/// Why a process could not be run at all.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The program does not exist.
    #[error(
        "solver '{program}' not found on PATH: run scripts/install-solvers.sh or edit solvers.toml"
    )]
    NotFound {
        /// The program as given.
        program: String,
    },
    /// Any other failure to start it (permissions, bad working directory, ...).
    #[error("cannot start solver '{program}': {source}")]
    Spawn {
        /// The program as given.
        program: String,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// Waiting for the process failed.
    #[error("lost track of solver '{program}': {source}")]
    Wait {
        /// The program as given.
        program: String,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
}

/// Run `spec` to completion or to its time limit. A time-out is not an error: it comes back
/// as `timed_out` with whatever the process had written.
pub fn run(spec: &RunSpec) -> Result<RunOutput, RunError> {
    let program = spec.program.clone();
    if let Some(dir) = &spec.cwd {
        // Command reports a missing working directory as NotFound, which would blame the solver.
        if !dir.is_dir() {
            return Err(RunError::Spawn {
                program,
                source: std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    format!("working directory {} does not exist", dir.display()),
                ),
            });
        }
    }
    let mut cmd = Command::new(&spec.program);
    cmd.args(&spec.args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    if let Some(dir) = &spec.cwd {
        cmd.current_dir(dir);
    }
    die_with_parent(&mut cmd);
    let start = Instant::now();
    let mut child = cmd.spawn().map_err(|source| match source.kind() {
        std::io::ErrorKind::NotFound => RunError::NotFound {
            program: program.clone(),
        },
        _ => RunError::Spawn {
            program: program.clone(),
            source,
        },
    })?;
    // Recorded so that a signal to tilekit also ends the solver (it is in a group of its own).
    let group = super::cleanup::track_group(child.id());
    let watchdog = Watchdog::start(child.id());
    let out = drain(child.stdout.take());
    let err = drain(child.stderr.take());

    let deadline = start + spec.time_limit;
    let mut nap = Duration::from_millis(1);
    let mut timed_out = false;
    let memory_limit = SUPERVISION.with(|s| s.get());
    let mut memory_out = None;
    let mut next_look = start;
    let (status, usage) = loop {
        match group.reap_with_usage(&child, false) {
            Ok(Some(done)) => break done,
            Ok(None) => {}
            Err(source) => {
                kill_group(&mut child);
                return Err(RunError::Wait { program, source });
            }
        }
        let now = Instant::now();
        // The group's resident memory, looked at ten times a second: a solver that passes
        // the limit between two looks holds it for at most 0.1 s more.
        if let Some(limit) = memory_limit
            && now >= next_look
        {
            next_look = now + MEMORY_LOOK;
            if group_rss_bytes(child.id()) > limit {
                memory_out = Some(limit);
            }
        }
        if memory_out.is_some()
            || now >= deadline
            || spec.stop.as_ref().is_some_and(StopFlag::is_raised)
        {
            timed_out = memory_out.is_none();
            kill_group(&mut child);
            break group
                .reap_with_usage(&child, true)
                .map_err(|source| RunError::Wait {
                    program: program.clone(),
                    source,
                })?
                .expect("a blocking wait returns a status");
        }
        std::thread::sleep(nap.min(deadline - now));
        nap = (nap * 2).min(Duration::from_millis(25));
    };
    let elapsed = start.elapsed();
    // The run is over: the watchdog stands down (a run that errs out drops it too).
    drop(watchdog);

    // A grandchild that outlived the solver may still hold the pipes. While it lives its
    // process group exists, so the group id cannot have been reused and killing it is safe.
    let grace = Instant::now() + PIPE_GRACE;
    while !(out.is_finished() && err.is_finished()) && Instant::now() < grace {
        std::thread::sleep(Duration::from_millis(5));
    }
    if !(out.is_finished() && err.is_finished()) {
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", child.id())])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
    let text = |h: JoinHandle<Vec<u8>>| {
        String::from_utf8_lossy(&h.join().unwrap_or_default()).into_owned()
    };
    let tv =
        |t: libc::timeval| Duration::new(t.tv_sec.max(0) as u64, (t.tv_usec.max(0) as u32) * 1000);
    let output = RunOutput {
        status: status.code(),
        signal: status.signal(),
        stdout: text(out),
        stderr: text(err),
        elapsed,
        timed_out,
        cpu: tv(usage.ru_utime) + tv(usage.ru_stime),
        // Linux counts ru_maxrss in kilobytes.
        max_rss_kb: usage.ru_maxrss.max(0) as u64,
        memory_out,
    };
    record(spec, &output);
    Ok(output)
}

/// What [`recording`] keeps of one process: the command as run, where, and what it left.
#[derive(Debug, Clone, PartialEq)]
pub struct ProcessRecord {
    /// The program and its arguments, as run.
    pub command: Vec<String>,
    /// Its working directory.
    pub cwd: Option<PathBuf>,
    /// Its exit, output (each stream cut to its last [`LOG_CAP`] bytes) and measurements.
    pub output: RunOutput,
    /// The solution file it wrote, when its caller attached one ([`record_solution`]): the
    /// file's path and its first [`LOG_CAP`] bytes.
    pub solution: Option<(PathBuf, Vec<u8>)>,
}

/// The most of each stream (and of a solution file) a record keeps: a solver's log past a
/// megabyte is noise, and a campaign keeps one per run.
pub const LOG_CAP: usize = 1 << 20;

/// How often a memory limit is looked at.
const MEMORY_LOOK: Duration = Duration::from_millis(100);

/// The resident memory of every process in the process group `pgid`, in bytes, from
/// `/proc/PID/stat` (field 5 is the group, field 24 the resident pages). A process that ends
/// while it is read is skipped.
pub fn group_rss_bytes(pgid: u32) -> u64 {
    // SAFETY: sysconf has no preconditions.
    let page = u64::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).unwrap_or(4096);
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return 0;
    };
    let mut total = 0;
    for e in dir.flatten() {
        let name = e.file_name();
        if !name.to_string_lossy().bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let Ok(stat) = std::fs::read_to_string(e.path().join("stat")) else {
            continue;
        };
        // The command name (field 2) may hold spaces and parentheses: fields are counted
        // after its last ')'.
        let Some(rest) = stat.rfind(')').map(|i| &stat[i + 1..]) else {
            continue;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        // rest starts at field 3 (state): field 5 is index 2, field 24 index 21.
        if fields.get(2).and_then(|g| g.parse::<u32>().ok()) == Some(pgid) {
            total += fields
                .get(21)
                .and_then(|r| r.parse::<u64>().ok())
                .unwrap_or(0)
                * page;
        }
    }
    total
}

thread_local! {
    static SUPERVISION: std::cell::Cell<Option<u64>> = const { std::cell::Cell::new(None) };
}

/// Run `f` with every process the solver objects start on this thread killed once its
/// process group holds more than `memory` bytes of resident memory (`None`: no limit); its
/// [`RunOutput::memory_out`] says so. As with [`recording`], a campaign sets this per cell
/// without every solver object carrying it.
pub fn supervised<T>(memory: Option<u64>, f: impl FnOnce() -> T) -> T {
    let outer = SUPERVISION.with(|s| s.replace(memory));
    let value = f();
    SUPERVISION.with(|s| s.set(outer));
    value
}

thread_local! {
    static SEED: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// Run `f` with `seed` as the `{seed}` of every solver the solver objects start on this
/// thread meanwhile (outside such a call it is 0): a campaign runs one cell under several
/// seeds this way, as [`supervised`] holds it to a memory limit, without every solver object
/// carrying it.
pub fn seeded<T>(seed: u32, f: impl FnOnce() -> T) -> T {
    let outer = SEED.with(|s| s.replace(seed));
    let value = f();
    SEED.with(|s| s.set(outer));
    value
}

/// The seed of [`seeded`] on this thread.
pub fn current_seed() -> u32 {
    SEED.with(std::cell::Cell::get)
}

thread_local! {
    static RECORDS: std::cell::RefCell<Option<Vec<ProcessRecord>>> =
        const { std::cell::RefCell::new(None) };
}

/// Run `f`, keeping a record of every process the solver objects start on this thread
/// meanwhile: a campaign measures and logs its runs this way without every solver object
/// carrying a logger. Records nest: an inner call keeps its own, the outer one sees none of
/// them.
pub fn recording<T>(f: impl FnOnce() -> T) -> (T, Vec<ProcessRecord>) {
    let outer = RECORDS.with(|r| r.borrow_mut().replace(Vec::new()));
    let value = f();
    let records = RECORDS.with(|r| std::mem::replace(&mut *r.borrow_mut(), outer));
    (value, records.unwrap_or_default())
}

fn record(spec: &RunSpec, output: &RunOutput) {
    RECORDS.with(|r| {
        if let Some(records) = r.borrow_mut().as_mut() {
            let tail = |s: &str| {
                let mut from = s.len().saturating_sub(LOG_CAP);
                while !s.is_char_boundary(from) {
                    from += 1;
                }
                s[from..].to_string()
            };
            records.push(ProcessRecord {
                command: std::iter::once(spec.program.clone())
                    .chain(spec.args.iter().cloned())
                    .collect(),
                cwd: spec.cwd.clone(),
                output: RunOutput {
                    stdout: tail(&output.stdout),
                    stderr: tail(&output.stderr),
                    ..output.clone()
                },
                solution: None,
            });
        }
    });
}

/// Attach the solution file at `path` (its first [`LOG_CAP`] bytes) to the last process
/// recorded on this thread, when one is being recorded and the file exists.
pub fn record_solution(path: &std::path::Path) {
    RECORDS.with(|r| {
        if let Some(last) = r.borrow_mut().as_mut().and_then(|v| v.last_mut()) {
            use std::io::Read;
            let mut bytes = Vec::new();
            if let Ok(f) = std::fs::File::open(path)
                && f.take(LOG_CAP as u64).read_to_end(&mut bytes).is_ok()
            {
                last.solution = Some((path.to_path_buf(), bytes));
            }
        }
    });
}

/// Ask the kernel to SIGKILL the child when the thread that started it ends (with tilekit,
/// however it ends: the waiting thread outlives the child otherwise). A child whose parent
/// is already gone by then exits at once instead of running unwatched.
fn die_with_parent(cmd: &mut Command) {
    // SAFETY: getpid is async-signal-safe and called here, before the fork.
    let parent = unsafe { libc::getpid() };
    // SAFETY: the closure runs in the child between fork and exec, and calls only prctl,
    // getppid and _exit, which are async-signal-safe; it allocates nothing.
    unsafe {
        cmd.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            if libc::getppid() != parent {
                libc::_exit(137);
            }
            Ok(())
        });
    }
}

/// A shell that kills the process group `pgid` when tilekit dies. It reads one line from a
/// pipe whose writing end only this process holds (close-on-exec: no child inherits it): the
/// word `done` when the run ended normally, end-of-file when tilekit died.
struct Watchdog {
    child: Child,
    tell: Option<std::io::PipeWriter>,
}

impl Watchdog {
    /// Start the watchdog for `pgid`; `None` when it cannot be started (the kernel's
    /// parent-death signal still ends the solver itself).
    fn start(pgid: u32) -> Option<Watchdog> {
        let (read, tell) = std::io::pipe().ok()?;
        let child = Command::new("/bin/sh")
            .args([
                "-c",
                r#"read -r word; [ "$word" = done ] || kill -s KILL -- "-$1" 2>/dev/null"#,
                "tilekit-watchdog",
                &pgid.to_string(),
            ])
            .stdin(read)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            // Its own group: a Ctrl-C at the terminal is tilekit's to handle, not its.
            .process_group(0)
            .spawn()
            .ok()?;
        Some(Watchdog {
            child,
            tell: Some(tell),
        })
    }
}

impl Drop for Watchdog {
    /// The run is over: tell the watchdog so, and reap it.
    fn drop(&mut self) {
        use std::io::Write;
        if let Some(mut tell) = self.tell.take() {
            let _ = tell.write_all(b"done\n");
        }
        let _ = self.child.wait();
    }
}

/// Read a pipe to its end on a thread of its own.
fn drain<R: Read + Send + 'static>(pipe: Option<R>) -> JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(mut p) = pipe {
            // A read error mid-way leaves what was read so far, which is all we can report.
            let _ = p.read_to_end(&mut buf);
        }
        buf
    })
}

/// Kill the child's whole process group (it leads it: `process_group(0)`), then the child
/// itself in case the `kill` program is unavailable. Called before the child is reaped, so
/// its pid, and hence the group id, cannot have been reused.
fn kill_group(child: &mut Child) {
    let _ = Command::new("kill")
        .args(["-KILL", "--", &format!("-{}", child.id())])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    let _ = child.kill();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str, limit_ms: u64) -> Result<RunOutput, RunError> {
        run(&RunSpec {
            program: "sh".into(),
            args: vec!["-c".into(), script.into()],
            time_limit: Duration::from_millis(limit_ms),
            cwd: None,
            stop: None,
        })
    }

    #[test]
    fn captures_both_streams_and_the_exit_code() {
        let o = sh("echo out; echo err >&2; exit 3", 5000).unwrap();
        assert_eq!((o.status, o.signal, o.timed_out), (Some(3), None, false));
        assert_eq!((o.stdout.as_str(), o.stderr.as_str()), ("out\n", "err\n"));
        assert_eq!(o.describe_exit(), "exit code 3");
        assert_eq!(o.output_tail(5), "err");
    }

    #[test]
    fn a_chatty_process_does_not_deadlock() {
        // 4 MB on each stream, far beyond a pipe buffer.
        let o = sh(
            "head -c 4000000 /dev/zero | tr '\\0' a; head -c 4000000 /dev/zero | tr '\\0' b >&2",
            20_000,
        )
        .unwrap();
        assert_eq!((o.stdout.len(), o.stderr.len()), (4_000_000, 4_000_000));
        assert!(!o.timed_out);
    }

    #[test]
    fn the_time_limit_kills_the_whole_group() {
        // The backgrounded sleep keeps stdout open: only a group kill ends the run promptly.
        // Two seconds, so that even a loaded machine has started `sh` and run `echo` by then.
        let o = sh("sleep 30 & echo started; sleep 30", 2000).unwrap();
        assert!(o.timed_out);
        assert_eq!(o.signal, Some(9));
        assert_eq!(o.stdout, "started\n");
        assert!(o.elapsed < Duration::from_secs(8), "{:?}", o.elapsed);
    }

    #[test]
    fn a_raised_stop_flag_kills_the_group_early() {
        let stop = StopFlag::new();
        let raiser = stop.clone();
        let t = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            raiser.raise();
        });
        let o = run(&RunSpec {
            program: "sh".into(),
            args: vec!["-c".into(), "sleep 30 & echo started; sleep 30".into()],
            time_limit: Duration::from_secs(20),
            cwd: None,
            stop: Some(stop.clone()),
        })
        .unwrap();
        t.join().unwrap();
        assert!(o.timed_out);
        assert_eq!(o.signal, Some(9));
        assert!(o.elapsed < Duration::from_secs(3), "{:?}", o.elapsed);
        assert_eq!(stop, stop.clone());
        assert_ne!(stop, StopFlag::new());
    }

    #[test]
    fn a_leftover_grandchild_does_not_hold_the_run() {
        let t = Instant::now();
        let o = sh("sleep 30 & exit 0", 10_000).unwrap();
        assert_eq!(o.status, Some(0));
        assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
    }

    #[test]
    fn missing_programs_and_directories() {
        let e = run(&RunSpec {
            program: "tilekit-no-such-solver".into(),
            args: vec![],
            time_limit: Duration::from_secs(1),
            cwd: None,
            stop: None,
        })
        .unwrap_err();
        assert!(matches!(e, RunError::NotFound { .. }));
        assert_eq!(
            e.to_string(),
            "solver 'tilekit-no-such-solver' not found on PATH: run scripts/install-solvers.sh or edit solvers.toml"
        );
        let e = run(&RunSpec {
            program: "sh".into(),
            args: vec![],
            time_limit: Duration::from_secs(1),
            cwd: Some("/no/such/dir".into()),
            stop: None,
        })
        .unwrap_err();
        assert!(matches!(e, RunError::Spawn { .. }), "{e}");
        assert!(e.to_string().contains("/no/such/dir"), "{e}");
    }
}
