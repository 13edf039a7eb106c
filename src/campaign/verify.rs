//! `tilekit verify` against an exported set's manifest: a solver's answer for one model file,
//! judged with the options the set was exported with. The manifest names the file's
//! instance, model, horizon and options, so nothing has to be repeated by hand (a horizon
//! given wrong would judge the answer against another model); and the file must still hash
//! to the manifest's SHA-256, so the answer is judged against the model its solver read.

use super::cells::base_dir;
use super::manifest::{self, Manifest};
use crate::field::Field;
use crate::route::family::{Verified, VerifyRequest};
use crate::route::{Error, ModelName, Progress, families};
use std::path::Path;

/// Verify `solution`, a solver's answer for the model file `file` of the set described by
/// `manifest_path`.
pub fn verify_file(
    manifest_path: &Path,
    file: &Path,
    solution: &Path,
    progress: Progress<'_>,
) -> Result<Verified, Error> {
    let m = Manifest::read(manifest_path)?;
    let base = base_dir(manifest_path);
    let wanted =
        std::path::absolute(file).map_err(|e| Error::Usage(format!("{}: {e}", file.display())))?;
    let entry = m
        .files
        .iter()
        .find(|f| std::path::absolute(base.join(&f.path)).is_ok_and(|p| p == wanted))
        .ok_or_else(|| {
            Error::Usage(format!(
                "{}: not a file of {} (its files are under {}/files/)",
                file.display(),
                manifest_path.display(),
                base.display()
            ))
        })?;
    let (sha, _) = manifest::sha256_file(file)
        .map_err(|e| Error::Usage(format!("{}: cannot read: {e}", file.display())))?;
    if sha != entry.sha256 {
        return Err(Error::Usage(format!(
            "{}: the file changed since it was exported (SHA-256 {sha}, the manifest says {}): an answer for it cannot be judged against the set's model",
            file.display(),
            entry.sha256
        )));
    }
    let inst = m
        .instances
        .iter()
        .find(|i| i.id == entry.instance)
        .ok_or_else(|| {
            Error::Usage(format!(
                "{}: the file's instance {} is not in the manifest",
                manifest_path.display(),
                entry.instance
            ))
        })?;
    let model = ModelName::from_name(&entry.model).ok_or_else(|| {
        Error::Usage(format!(
            "{}: {}: unknown {} {:?}",
            manifest_path.display(),
            entry.path,
            Field::Model,
            entry.model
        ))
    })?;
    let options = inst.options(
        entry.horizon.map(|t| t as usize),
        m.options.filter,
        m.options.fix_corner,
    );
    let instance = families::read(&base.join(&inst.path), Some(inst.family_name()))?;
    families::verify(
        &instance,
        &VerifyRequest {
            solution: solution.to_path_buf(),
            model: Some(model),
            options,
        },
        progress,
    )
}
