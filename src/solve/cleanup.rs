//! What an interrupted run must undo. Every solver tilekit starts runs in a process group of
//! its own (so that a time limit kills its whole tree), which also means a Ctrl-C or a
//! batch system's SIGTERM to tilekit does not reach it; and every temporary directory or
//! half-written output file would be left behind, since a signal skips the destructors that
//! remove them. So the live ones are recorded here while they exist, and
//! [`exit_cleanly_on_signals`] (called first thing by the binary) kills the groups, removes
//! the files and exits with the shell's code for the signal (130 for SIGINT, 143 for
//! SIGTERM, 129 for SIGHUP).
//!
//! The signals are blocked in every thread and taken by one thread of ours with `sigwait`,
//! so the clean-up runs as ordinary code, not in a signal handler. Children start with an
//! empty signal mask (the standard library resets it before `exec`).

use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The process groups and paths alive now, with the key each was recorded under.
struct Live {
    next: u64,
    groups: Vec<(u64, u32)>,
    paths: Vec<(u64, PathBuf)>,
}

static LIVE: Mutex<Live> = Mutex::new(Live {
    next: 0,
    groups: Vec::new(),
    paths: Vec::new(),
});

fn live() -> std::sync::MutexGuard<'static, Live> {
    // A panic while the lock was held leaves lists that are still whole: keep using them.
    LIVE.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A recorded process group or path; dropping it forgets the record (the owner has ended
/// the process or removed the path itself).
#[derive(Debug)]
#[must_use = "the record is forgotten when this is dropped"]
pub struct Tracked(u64);

impl Drop for Tracked {
    fn drop(&mut self) {
        let mut l = live();
        l.groups.retain(|(k, _)| *k != self.0);
        l.paths.retain(|(k, _)| *k != self.0);
    }
}

impl Tracked {
    /// Reap `child` (waiting for it when `block`) and, once it has ended, forget this group
    /// record in the same step, so that a signal never kills a group whose id was reused.
    pub fn reap(
        &self,
        child: &mut std::process::Child,
        block: bool,
    ) -> std::io::Result<Option<std::process::ExitStatus>> {
        let mut l = live();
        let r = if block {
            child.wait().map(Some)
        } else {
            child.try_wait()
        };
        if let Ok(Some(_)) = r {
            l.groups.retain(|(k, _)| *k != self.0);
        }
        r
    }
}

/// A temporary directory that a signal also removes.
#[derive(Debug)]
pub struct TempDir {
    // Declared first, so dropped first: the directory goes, then its record.
    dir: tempfile::TempDir,
    _record: Tracked,
}

impl TempDir {
    /// The directory's path.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }
}

/// A new temporary directory (in `$TMPDIR`), removed when dropped or on a signal.
pub fn tempdir() -> std::io::Result<TempDir> {
    let dir = tempfile::tempdir()?;
    let _record = track_path(dir.path());
    Ok(TempDir { dir, _record })
}

/// Record the process group `pgid` (a child that leads its own group) until the child is
/// reaped through [`Tracked::reap`] (or the record is dropped).
pub fn track_group(pgid: u32) -> Tracked {
    let mut l = live();
    l.next += 1;
    let key = l.next;
    l.groups.push((key, pgid));
    Tracked(key)
}

/// Record a temporary file or directory to remove on a signal, until the returned record is
/// dropped.
pub fn track_path(path: &Path) -> Tracked {
    let mut l = live();
    l.next += 1;
    let key = l.next;
    l.paths.push((key, path.to_path_buf()));
    Tracked(key)
}

/// Kill every recorded process group and remove every recorded path, now. Holds the lock
/// until the process exits, so nothing new is started meanwhile.
fn clean_up_and_exit(code: i32) -> ! {
    let l = live();
    for (_, pgid) in &l.groups {
        if let Ok(pgid) = libc::pid_t::try_from(*pgid) {
            // SAFETY: kill(2) has no memory-safety preconditions; a negative pid names the
            // process group, which still exists (it is forgotten only after being reaped).
            unsafe {
                libc::kill(-pgid, libc::SIGKILL);
            }
        }
    }
    for (_, path) in &l.paths {
        let _ = if path.is_dir() {
            std::fs::remove_dir_all(path)
        } else {
            std::fs::remove_file(path)
        };
    }
    std::process::exit(code)
}

/// Take SIGINT, SIGTERM and SIGHUP from now on: on one, kill the recorded process groups,
/// remove the recorded paths and exit with 128 + the signal number. Call it before any
/// thread is started (the mask is inherited by threads started later, not earlier).
pub fn exit_cleanly_on_signals() -> std::io::Result<()> {
    // SAFETY: sigset_t is plain data that sigemptyset initialises before any other use.
    let mut set: libc::sigset_t = unsafe { std::mem::zeroed() };
    // SAFETY: `set` is a valid sigset_t; the calls only read and write it and the thread's
    // signal mask.
    let rc = unsafe {
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGINT);
        libc::sigaddset(&mut set, libc::SIGTERM);
        libc::sigaddset(&mut set, libc::SIGHUP);
        libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut())
    };
    if rc != 0 {
        return Err(std::io::Error::from_raw_os_error(rc));
    }
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            loop {
                let mut sig: libc::c_int = 0;
                // SAFETY: `set` was initialised above and `sig` is a valid out-pointer.
                if unsafe { libc::sigwait(&set, &mut sig) } == 0 {
                    clean_up_and_exit(128 + sig);
                }
            }
        })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_are_forgotten_when_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let a = track_path(dir.path());
        let g = track_group(4_000_000);
        {
            let l = live();
            assert!(l.paths.iter().any(|(_, p)| p == dir.path()));
            assert!(l.groups.iter().any(|(_, g)| *g == 4_000_000));
        }
        drop(a);
        drop(g);
        let l = live();
        assert!(!l.paths.iter().any(|(_, p)| p == dir.path()));
        assert!(!l.groups.iter().any(|(_, g)| *g == 4_000_000));
    }
}
