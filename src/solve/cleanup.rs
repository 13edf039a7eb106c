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

    /// [`Tracked::reap`] by `wait4`, which also returns what the child used: its CPU time
    /// and peak memory, its own reaped children's included (the kernel adds them in when
    /// they are waited for). After this `child` must not be waited for again.
    pub fn reap_with_usage(
        &self,
        child: &std::process::Child,
        block: bool,
    ) -> std::io::Result<Option<(std::process::ExitStatus, libc::rusage)>> {
        use std::os::unix::process::ExitStatusExt;
        let mut l = live();
        let pid = child.id() as libc::pid_t;
        let mut status: libc::c_int = 0;
        // SAFETY: rusage is a plain C struct for which all-zero bytes are a valid value.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        let flags = if block { 0 } else { libc::WNOHANG };
        let r = loop {
            // SAFETY: wait4 writes only into the two locals it is handed.
            let r = unsafe { libc::wait4(pid, &mut status, flags, &mut usage) };
            if r == -1 && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted
            {
                continue;
            }
            break r;
        };
        match r {
            -1 => Err(std::io::Error::last_os_error()),
            0 => Ok(None),
            _ => {
                l.groups.retain(|(k, _)| *k != self.0);
                Ok(Some((std::process::ExitStatus::from_raw(status), usage)))
            }
        }
    }
}

/// A temporary directory that a signal also removes, and that the next run removes when
/// not even a signal could (SIGKILL): it holds a lock file while its owner lives.
#[derive(Debug)]
pub struct TempDir {
    // Declared first, so dropped first: the directory goes, then its record and the lock.
    dir: tempfile::TempDir,
    _record: Tracked,
    _owner: std::fs::File,
}

impl TempDir {
    /// The directory's path.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }
}

/// How tilekit's temporary directories are named in `$TMPDIR`.
const PREFIX: &str = "tilekit-run-";
/// The lock file in each: locked (`flock`, which the kernel releases when the process ends,
/// however it ends) for as long as its owner lives.
const OWNER: &str = ".tilekit-owner";
/// A directory of ours without a lock file was left in the moment between its creation and
/// its lock's; one older than this is stale.
const UNLOCKED_GRACE: std::time::Duration = std::time::Duration::from_secs(3600);

/// A new temporary directory (in `$TMPDIR`), removed when dropped or on a signal. The first
/// call of a process first removes the directories that killed runs left behind.
pub fn tempdir() -> std::io::Result<TempDir> {
    static SWEPT: std::sync::Once = std::sync::Once::new();
    SWEPT.call_once(|| {
        remove_stale_in(&std::env::temp_dir());
    });
    let dir = tempfile::Builder::new().prefix(PREFIX).tempdir()?;
    let _record = track_path(dir.path());
    // Locked under another name and then renamed, so that a sweeper never finds the lock
    // file unlocked while its owner lives.
    let pending = dir.path().join(".tilekit-owner.pending");
    let _owner = std::fs::File::create(&pending)?;
    _owner.try_lock().map_err(std::io::Error::from)?;
    std::fs::rename(&pending, dir.path().join(OWNER))?;
    Ok(TempDir {
        dir,
        _record,
        _owner,
    })
}

/// Remove the temporary directories in `root` whose owner has died: a lock file that can
/// be locked, or none after `UNLOCKED_GRACE`. Returns how many went. Errors are ignored:
/// another run may be removing the same directory.
pub fn remove_stale_in(root: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(root) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        if !name.to_string_lossy().starts_with(PREFIX)
            || !entry.file_type().is_ok_and(|t| t.is_dir())
        {
            continue;
        }
        let dir = entry.path();
        let stale = match std::fs::File::open(dir.join(OWNER)) {
            // Held until the directory is gone, so that two sweepers do not race.
            Ok(lock) => lock.try_lock().is_ok().then_some(lock),
            Err(_) => None,
        };
        let abandoned = stale.is_none()
            && !dir.join(OWNER).exists()
            && entry
                .metadata()
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| t.elapsed().ok())
                .is_some_and(|age| age > UNLOCKED_GRACE);
        if (stale.is_some() || abandoned) && std::fs::remove_dir_all(&dir).is_ok() {
            removed += 1;
        }
    }
    removed
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

    #[test]
    fn only_the_directories_of_dead_runs_are_swept() {
        let root = tempfile::tempdir().unwrap();
        let make = |name: &str, owner: bool| {
            let d = root.path().join(name);
            std::fs::create_dir(&d).unwrap();
            std::fs::write(d.join("model.cnf"), "p cnf 1 1\n1 0\n").unwrap();
            if owner {
                std::fs::File::create(d.join(OWNER)).unwrap();
            }
            d
        };
        // Killed: its lock file is there and nobody holds it.
        let dead = make("tilekit-run-dead", true);
        // Alive: its owner holds the lock (a second open file, as another process would).
        let alive = make("tilekit-run-alive", true);
        let held = std::fs::File::open(alive.join(OWNER)).unwrap();
        held.try_lock().unwrap();
        // Being created this very moment: no lock file yet, and young.
        let young = make("tilekit-run-young", false);
        // Not ours.
        let other = root.path().join("other-dir");
        std::fs::create_dir(&other).unwrap();
        std::fs::File::create(other.join(OWNER)).unwrap();
        assert_eq!(remove_stale_in(root.path()), 1);
        assert!(!dead.exists());
        assert!(alive.exists() && young.exists() && other.exists());
        drop(held);
        assert_eq!(remove_stale_in(root.path()), 1);
        assert!(!alive.exists() && young.exists());
    }

    #[test]
    fn a_live_temporary_directory_is_never_swept() {
        let t = tempdir().unwrap();
        assert!(t.path().join(OWNER).exists());
        let root = t.path().parent().unwrap();
        remove_stale_in(root);
        assert!(t.path().is_dir());
    }
}
