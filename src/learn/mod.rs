//! Learning a distance heuristic for sliding puzzles (Cahlík & Surynek 2019): labelled data
//! from the native optimal solver ([`data`]), and training behind the cargo feature `train`
//! (`train`, on candle), which writes the weight file [`crate::search::ann`] reads.

pub mod data;
#[cfg(feature = "train")]
pub mod train;

/// Write `bytes` to `path` through a temporary file beside it and a rename, so that a reader
/// (or a stop half-way) never sees half a file.
pub fn write_atomic(path: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    // A signal mid-write removes the temporary file too (the process exits without drops).
    let _record = crate::solve::cleanup::track_path(tmp.path());
    std::io::Write::write_all(&mut tmp, bytes)?;
    // A temporary file is private (0600); the result is an ordinary file like any other.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        tmp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o644))?;
    }
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}
