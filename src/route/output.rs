//! Writing what a command produces: an output file (written to a temporary file beside
//! it and renamed into place only once complete, so a failure or an interrupt never leaves a
//! truncated file or destroys the old one), or standard output for `-` or no file.
//!
//! An output never replaces one of the command's inputs, once [`protect_inputs`] is called
//! (the binary does, first thing: a process runs one command): every input file read
//! through [`super::read_text`] (or noted with [`note_input`]) is remembered by its identity
//! on disk (device, inode and change time, so a second name, a symlink or a hard link is the
//! same file), and writing over a remembered file is refused before anything is written.

use super::Error;
use std::io::Write;
use std::path::Path;
use std::sync::Mutex;

/// A file on disk as the kernel names it: the same for every path that leads to it. The
/// change time tells a file apart from a later one that reuses a deleted file's inode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Identity {
    dev: u64,
    ino: u64,
    ctime: i64,
    ctime_nsec: i64,
}

impl Identity {
    /// The identity of a regular file; pipes and devices are not remembered (reading
    /// `/dev/stdin` does not forbid writing `/dev/stdout`).
    fn of(meta: &std::fs::Metadata) -> Option<Identity> {
        use std::os::unix::fs::MetadataExt;
        meta.is_file().then(|| Identity {
            dev: meta.dev(),
            ino: meta.ino(),
            ctime: meta.ctime(),
            ctime_nsec: meta.ctime_nsec(),
        })
    }
}

/// The input files read so far, with what each was read as ("instance", "plan", ...).
#[derive(Debug, Default)]
struct Inputs(Vec<(Identity, String)>);

impl Inputs {
    fn note(&mut self, file: &std::fs::File, what: &str) {
        if let Some(id) = file.metadata().ok().as_ref().and_then(Identity::of)
            && !self.0.iter().any(|(i, _)| *i == id)
        {
            self.0.push((id, what.to_string()));
        }
    }

    /// Refuse `path` as an output when it is (or leads to) a file read as an input.
    fn refuse(&self, path: &Path) -> Result<(), Error> {
        let Some(id) = std::fs::metadata(path).ok().as_ref().and_then(Identity::of) else {
            return Ok(());
        };
        match self.0.iter().find(|(i, _)| *i == id) {
            Some((_, what)) => Err(Error::Usage(format!(
                "{}: this is the {what} this command read: writing the output there would \
                 replace it; name another output file",
                path.display()
            ))),
            None => Ok(()),
        }
    }
}

/// The process's inputs, once [`protect_inputs`] was called.
static INPUTS: Mutex<Option<Inputs>> = Mutex::new(None);

fn inputs() -> std::sync::MutexGuard<'static, Option<Inputs>> {
    // The list stays whole if a holder panicked: keep using it.
    INPUTS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// From now on, remember every input this process reads and refuse any output that would
/// replace one. A process that runs one command (the binary) calls it first; one that runs
/// many in turn (a notebook, a service) either does not, or calls [`forget_inputs`] between
/// commands, so that a file read by one may be written by the next.
pub fn protect_inputs() {
    inputs().get_or_insert_with(Inputs::default);
}

/// Forget the inputs noted so far (protection, if on, stays on).
pub fn forget_inputs() {
    if let Some(l) = inputs().as_mut() {
        l.0.clear();
    }
}

/// Remember `file`, just opened for reading as the command's `what`, so that no output of
/// this process replaces it (when [`protect_inputs`] was called).
pub fn note_input(file: &std::fs::File, what: &str) {
    if let Some(l) = inputs().as_mut() {
        l.note(file, what);
    }
}

/// Refuse `path` as an output when it is (or leads to) a file this command read.
fn refuse_input(path: &Path) -> Result<(), Error> {
    inputs().as_ref().map_or(Ok(()), |l| l.refuse(path))
}

/// Buffer of streamed outputs: model files run to gigabytes.
const BUFFER: usize = 1 << 20;

/// Standard output was closed when the process started (`>&-`): the Rust runtime then opened
/// `/dev/null` in its place, where every write succeeds and is lost.
static STDOUT_CLOSED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Tell the library that standard output was closed at start, so that writing an answer or a
/// file there is an error instead of a silent loss. Only the program can know it (the check
/// must run before the runtime fills descriptor 1: the `tilekit` binary's start-up
/// constructor does it).
pub fn stdout_was_closed() {
    STDOUT_CLOSED.store(true, std::sync::atomic::Ordering::Relaxed);
}

fn closed_stdout() -> Error {
    Error::Usage(
        "standard output is closed: what this command writes there would be lost; \
         name an output file, or leave standard output open"
            .into(),
    )
}

/// True for `-` or no path: standard output.
pub fn is_stdout(path: Option<&Path>) -> bool {
    path.is_none_or(|p| p == Path::new("-"))
}

/// A writer that remembers its first I/O error, so that an error the caller turned into a
/// message can still be told apart by kind (a closed pipe from a full disk).
struct Watched<W> {
    inner: W,
    error: Option<std::io::Error>,
}

impl<W: Write> Write for Watched<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.inner.write(buf).inspect_err(|e| self.remember(e))
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush().inspect_err(|e| self.remember(e))
    }
}

impl<W> Watched<W> {
    fn remember(&mut self, e: &std::io::Error) {
        if self.error.is_none() {
            self.error = Some(std::io::Error::new(e.kind(), e.to_string()));
        }
    }
}

/// A failed write of a report or table to standard output as the command's error:
/// [`Error::ClosedPipe`] when the reader has gone (`… | head`), else a failure naming
/// standard output.
pub fn stdout_write_error(e: std::io::Error) -> Error {
    stdout_error(Some(&e), Error::failure(&e))
}

/// The error of a failed write to standard output: [`Error::ClosedPipe`] when the reader has
/// gone, else a failure naming standard output (a full disk behind a redirection).
fn stdout_error(io: Option<&std::io::Error>, fallback: Error) -> Error {
    match io {
        Some(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Error::ClosedPipe,
        Some(e) => Error::Failure(format!("standard output: cannot write: {e}")),
        None => fallback,
    }
}

/// Stream to standard output through a 1 MiB buffer, flushed at the end.
fn stream_to_stdout(write: impl FnOnce(&mut dyn Write) -> Result<(), Error>) -> Result<(), Error> {
    if STDOUT_CLOSED.load(std::sync::atomic::Ordering::Relaxed) {
        return Err(closed_stdout());
    }
    let mut w = Watched {
        inner: std::io::BufWriter::with_capacity(BUFFER, std::io::stdout().lock()),
        error: None,
    };
    let result = write(&mut w).and_then(|()| w.flush().map_err(Error::failure));
    result.map_err(|e| stdout_error(w.error.as_ref(), e))
}

/// `text` with control characters other than newline and tab shown as `\u{…}` escapes:
/// answers and messages carry text from solvers and servers, and raw escape sequences from
/// them must not reach a terminal.
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    if !text
        .chars()
        .any(|c| c.is_control() && c != '\n' && c != '\t')
    {
        return std::borrow::Cow::Borrowed(text);
    }
    text.chars()
        .map(|c| {
            if c.is_control() && c != '\n' && c != '\t' {
                c.escape_unicode().to_string()
            } else {
                c.to_string()
            }
        })
        .collect::<String>()
        .into()
}

/// Print `text` and a newline on standard output (a command's answer, [`printable`]): a
/// closed pipe is [`Error::ClosedPipe`], any other failure names standard output; never a
/// panic.
pub fn emit(text: &str) -> Result<(), Error> {
    let text = printable(text);
    stream_to_stdout(|w| {
        w.write_all(text.as_bytes())
            .and_then(|()| w.write_all(b"\n"))
            .map_err(Error::failure)
    })
}

/// Stream into `path` (or stdout) through a 1 MiB buffer, flushed at the end so a write error
/// is reported rather than lost on drop.
pub fn stream_to(
    path: Option<&Path>,
    write: impl FnOnce(&mut dyn Write) -> Result<(), Error>,
) -> Result<(), Error> {
    let path = match path {
        Some(p) if p != Path::new("-") => p,
        _ => return stream_to_stdout(write),
    };
    refuse_input(path)?;
    // A device or a pipe (`/dev/null`) is written in place: renaming over it would replace
    // the device node itself.
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| cannot_create(path, e))?;
        let mut w = Watched {
            inner: std::io::BufWriter::with_capacity(BUFFER, file),
            error: None,
        };
        let result = write(&mut w).and_then(|()| w.flush().map_err(Error::failure));
        return result.map_err(|e| match &w.error {
            Some(io) => Error::Failure(format!("{}: cannot write: {io}", path.display())),
            None => e,
        });
    }
    let temp = temp_beside(path)?;
    // A signal removes the partial file too (a destructor would not run).
    let _record = crate::solve::cleanup::track_path(temp.path());
    let mut w = Watched {
        inner: std::io::BufWriter::with_capacity(BUFFER, temp),
        error: None,
    };
    let cannot_write =
        |e: &std::io::Error| Error::Failure(format!("{}: cannot write: {e}", path.display()));
    if let Err(e) = write(&mut w) {
        // A disk that filled up is the file's failure, named as such; other errors (a refused
        // option half-way) are the writer's own.
        return Err(w.error.as_ref().map_or(e, cannot_write));
    }
    let temp = w.inner.into_inner().map_err(|e| cannot_write(e.error()))?;
    temp.as_file()
        .sync_all()
        .map_err(|e| Error::Failure(format!("{}: cannot write: {e}", path.display())))?;
    // The temporary file is private (0600); the output gets the usual mode.
    set_default_mode(temp.path());
    temp.persist(path)
        .map_err(|e| Error::Usage(format!("{}: cannot write: {}", path.display(), e.error)))?;
    Ok(())
}

/// The output cannot be created: the message names the user's file only (an error from the
/// temporary file beside it ends by naming the temporary path).
fn cannot_create(path: &Path, e: std::io::Error) -> Error {
    let e = e.to_string();
    let e = e.split(" at path \"").next().unwrap_or(&e);
    Error::Usage(format!(
        "{}: cannot create the output file: {e}",
        path.display()
    ))
}

/// A private temporary file in `path`'s directory, to be renamed over `path` once complete.
fn temp_beside(path: &Path) -> Result<tempfile::NamedTempFile, Error> {
    if path.is_dir() {
        return Err(Error::Usage(format!(
            "{}: cannot create the output file: it is a directory",
            path.display()
        )));
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map_or("output".into(), |n| n.to_string_lossy().into_owned());
    tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".partial")
        .tempfile_in(dir)
        .map_err(|e| cannot_create(path, e))
}

/// Check, before long work, that `path` can be written (stdout always can): a device must
/// open for writing, a file must be creatable beside its target. Nothing is left behind.
pub fn check_writable(path: &Path) -> Result<(), Error> {
    if is_stdout(Some(path)) {
        // Refused here, before the work, not after it when the writing fails.
        if STDOUT_CLOSED.load(std::sync::atomic::Ordering::Relaxed) {
            return Err(closed_stdout());
        }
        return Ok(());
    }
    refuse_input(path)?;
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
        return std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .map(drop)
            .map_err(|e| cannot_create(path, e));
    }
    temp_beside(path).map(drop)
}

/// Bytes free to an unprivileged writer on the file system that holds `dir`, or `None` when
/// it cannot be asked.
pub fn free_bytes(dir: &Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(dir.as_os_str().as_bytes()).ok()?;
    let mut st = std::mem::MaybeUninit::<libc::statvfs>::uninit();
    // SAFETY: `c` is a NUL-terminated path and `st` is written by the call before it is read.
    let rc = unsafe { libc::statvfs(c.as_ptr(), st.as_mut_ptr()) };
    if rc != 0 {
        return None;
    }
    // SAFETY: statvfs returned 0, so it filled `st`.
    let st = unsafe { st.assume_init() };
    Some(st.f_bavail.saturating_mul(st.f_frsize))
}

/// Refuse, before writing starts, an output of about `bytes` that the file system holding
/// `path` (its directory; stdout and devices are not checked) has no room for: "`what`
/// would take about 40.1 GB and /data has 12.0 GB free".
pub fn check_space(path: Option<&Path>, bytes: u64, what: &str) -> Result<(), Error> {
    let Some(path) = path.filter(|p| !is_stdout(Some(p))) else {
        return Ok(());
    };
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
        return Ok(());
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    check_space_in(dir, bytes, what)
}

/// [`check_space`] for a file to be written in the directory `dir`. The space free is what
/// the file system reports, at most `$TILEKIT_MAX_DISK_GB` when that is set: a quota on a
/// cluster's shared disk is invisible to `statvfs`.
pub fn check_space_in(dir: &Path, bytes: u64, what: &str) -> Result<(), Error> {
    let quota = std::env::var("TILEKIT_MAX_DISK_GB")
        .ok()
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|gb| gb.is_finite() && *gb >= 0.0)
        .map(|gb| (gb * 1e9) as u64);
    let free = match (free_bytes(dir), quota) {
        (Some(f), Some(q)) => Some(f.min(q)),
        (f, q) => f.or(q),
    };
    match free {
        Some(free) if bytes > free => Err(Error::Usage(format!(
            "{what} would take about {:.1} GB on disk and {} has {:.1} GB free",
            bytes as f64 / 1e9,
            dir.display(),
            free as f64 / 1e9
        ))),
        _ => Ok(()),
    }
}

/// Write `bytes` to `path` (or stdout), atomically as [`stream_to`].
pub fn write_to(path: Option<&Path>, bytes: &[u8]) -> Result<(), Error> {
    stream_to(path, |w| w.write_all(bytes).map_err(Error::failure))
}

#[cfg(unix)]
fn set_default_mode(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    // rw-r--r-- less the process umask is what File::create would give; 0644 is the common
    // case. Failing to widen a private file harms nothing.
    let _ = std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o644));
}

#[cfg(not(unix))]
fn set_default_mode(_path: &Path) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("model.lp");
        write_to(Some(&out), b"old").unwrap();
        let e = stream_to(Some(&out), |w| {
            w.write_all(b"partial").map_err(Error::failure)?;
            Err(Error::usage("refused half-way"))
        })
        .unwrap_err();
        assert_eq!(e.to_string(), "refused half-way");
        assert_eq!(std::fs::read(&out).unwrap(), b"old");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("model.lp")]);
        write_to(Some(&out), b"new").unwrap();
        assert_eq!(std::fs::read(&out).unwrap(), b"new");
    }

    #[test]
    fn writability_is_checked_without_leaving_anything() {
        let dir = tempfile::tempdir().unwrap();
        check_writable(&dir.path().join("plan.txt")).unwrap();
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        let e = check_writable(&dir.path().join("missing/plan.txt")).unwrap_err();
        assert!(
            e.to_string()
                .contains("missing/plan.txt: cannot create the output file"),
            "{e}"
        );
        let e = check_writable(dir.path()).unwrap_err();
        assert!(e.to_string().ends_with("it is a directory"), "{e}");
        check_writable(Path::new("/dev/null")).unwrap();
        check_writable(Path::new("-")).unwrap();
    }

    #[test]
    fn an_input_is_known_under_any_of_its_names() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("instance.txt");
        std::fs::write(&input, b"the instance").unwrap();
        let link = dir.path().join("link.txt");
        std::os::unix::fs::symlink(&input, &link).unwrap();
        let hard = dir.path().join("hard.txt");
        std::fs::hard_link(&input, &hard).unwrap();
        let mut inputs = Inputs::default();
        inputs.note(&std::fs::File::open(&link).unwrap(), "instance");
        for out in [&input, &link, &hard] {
            let e = inputs.refuse(out).unwrap_err();
            assert_eq!(e.exit_code(), 2, "{e}");
            assert!(
                e.to_string()
                    .contains("this is the instance this command read"),
                "{e}"
            );
        }
        // Another file, a device, or one that only reuses a removed input's name, is not.
        inputs.refuse(&dir.path().join("board.txt")).unwrap();
        inputs.refuse(Path::new("/dev/null")).unwrap();
        let gone = dir.path().join("gone.txt");
        std::fs::write(&gone, b"read once").unwrap();
        inputs.note(&std::fs::File::open(&gone).unwrap(), "plan");
        inputs.refuse(&gone).unwrap_err();
        std::fs::remove_file(&gone).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(20));
        std::fs::write(&gone, b"a new file").unwrap();
        inputs.refuse(&gone).unwrap();
    }

    #[test]
    fn control_characters_are_escaped_for_the_terminal() {
        assert_eq!(printable("plain\n\ttext"), "plain\n\ttext");
        assert_eq!(printable("a\u{1b}[2Jb\r"), "a\\u{1b}[2Jb\\u{d}");
    }

    #[test]
    fn a_full_device_is_a_failure_naming_it() {
        let e = write_to(Some(Path::new("/dev/full")), b"no room").unwrap_err();
        assert_eq!(e.exit_code(), 3);
        assert!(
            e.to_string()
                .starts_with("/dev/full: cannot write: No space left"),
            "{e}"
        );
    }

    #[test]
    fn devices_are_written_in_place() {
        write_to(Some(Path::new("/dev/null")), b"gone").unwrap();
        assert!(
            std::fs::metadata("/dev/null")
                .unwrap()
                .file_type()
                .is_char_device_like()
        );
    }

    trait CharLike {
        fn is_char_device_like(&self) -> bool;
    }
    impl CharLike for std::fs::FileType {
        fn is_char_device_like(&self) -> bool {
            use std::os::unix::fs::FileTypeExt;
            self.is_char_device()
        }
    }
}
