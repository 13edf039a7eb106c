//! The front door: the table of puzzle families and the four commands through it. Every
//! command reads the instance once ([`read`]: the family given, else the first row of [`FAMILIES`]
//! that recognises the content) and goes through that family's row; the command line never
//! asks which family it holds. A new family is one [`Family`] row in its own
//! `route/<family>.rs` and one entry in [`FAMILIES`].

use super::family::{
    Detect, ExportRequest, Exported, Family, Instance, NeosJobFlags, RenderRequest, Rendered,
    SolveRequest, Solved, Verified, VerifyRequest,
};
use super::neos::{JobRequest, ModelRequest, NeosInstance};
use super::size::Counts;
use super::{Error, FamilyName, Progress};
use crate::field::Field;
use crate::format::neos_job::{self, InputMethod, Priority};
use crate::solve::Limits;
use std::path::Path;
use std::time::Duration;

/// Every family. Detection asks each in turn and the first that recognises the content wins,
/// so the sliding family, the catch-all, comes last.
pub const FAMILIES: [&Family; 2] = [&super::edge::FAMILY, &super::sliding::FAMILY];

/// The family called `name`.
pub fn family(name: FamilyName) -> &'static Family {
    FAMILIES
        .into_iter()
        .find(|f| f.name == name)
        .expect("every family name has a row in FAMILIES")
}

/// Read `path` (at most [`super::MAX_INPUT_BYTES`]) and find its family: `name` when given,
/// else the first row of [`FAMILIES`] that recognises the content. The families the content
/// merely resembles are kept, for a parse error to name.
pub fn read(path: &Path, name: Option<FamilyName>) -> Result<Instance, Error> {
    let text = super::read_text(path, "instance")?;
    from_text(path, text, name)
}

/// An instance from its text, as [`read`] makes one of a file's: `label` names it in
/// messages (a set's member has no file of its own), and the family is `name` or the one
/// the content plainly belongs to.
///
/// ```
/// use tilekit::route::families::from_text;
/// let i = from_text("korf100:1".as_ref(), "4 4\n1 2 3 4\n5 6 7 8\n9 10 11 12\n13 14 0 15\n".into(), None).unwrap();
/// assert_eq!(i.family.name.name(), "sliding");
/// assert_eq!(i.source(), "korf100:1");
/// ```
pub fn from_text(label: &Path, text: String, name: Option<FamilyName>) -> Result<Instance, Error> {
    let path = label;
    let mut resembles = Vec::new();
    let (family, detected) = match name {
        Some(name) => (family(name), None),
        None => FAMILIES
            .into_iter()
            .find_map(|f| match (f.detect)(&text) {
                Detect::Yes(why) => Some((f, Some(why))),
                Detect::Resembles => {
                    resembles.push(f);
                    None
                }
                Detect::No => None,
            })
            .ok_or_else(|| {
                Error::Usage(format!(
                    "{}: not an instance of any puzzle family tilekit knows: pass {f_family}",
                    path.display(),
                    f_family = Field::Family
                ))
            })?,
    };
    Ok(Instance {
        path: path.to_path_buf(),
        text,
        family,
        detected,
        resembles,
    })
}

/// `tilekit export`: the family writes its model; a NEOS job document is written here, for
/// either family's MILP. The counts of the model written (`None` for a job document).
pub fn export(
    inst: &Instance,
    req: &ExportRequest,
    progress: Progress<'_>,
) -> Result<Option<Counts>, Error> {
    match (inst.family.export)(inst, req, progress)? {
        Exported::Written(counts) => Ok(Some(counts)),
        Exported::NeosJob { model, horizon } => {
            let milp = NeosInstance::of(
                inst,
                &ModelRequest {
                    model: Some(model),
                    horizon,
                    // The family wrote the job: its options were its own.
                    goal: req.options.sliding().map(|o| o.goal).unwrap_or_default(),
                    edge: req.options.edge().unwrap_or_default(),
                },
            )?;
            let text = neos_job_text(&milp, &inst.source(), &req.neos)?;
            super::output::write_to(req.output.as_deref(), text.as_bytes())?;
            Ok(None)
        }
    }
}

/// The NEOS job document for a MILP: the input method (default MPS), the
/// NEOS solver (default cbc), the e-mail address (else `$NEOS_EMAIL`), and a 300 s limit written
/// into GAMS models.
fn neos_job_text(milp: &NeosInstance, source: &str, flags: &NeosJobFlags) -> Result<String, Error> {
    let email = flags
        .email
        .clone()
        .or_else(|| std::env::var("NEOS_EMAIL").ok())
        .map(|e| e.trim().to_string())
        .unwrap_or_default();
    neos_job::check_email(&email).map_err(|e| Error::Usage(e.to_string()))?;
    let job = JobRequest {
        category: "milp".into(),
        solver: super::neos::neos_solver_name(flags.solver.as_deref().unwrap_or("cbc")),
        input: flags.input.unwrap_or(InputMethod::Mps),
        priority: Priority::Short,
        email,
    };
    super::neos::job_text(
        milp,
        source,
        &job,
        &Limits::new(Duration::from_secs(300), 1),
    )
}

/// `tilekit solve` through the instance's family.
pub fn solve(inst: &Instance, req: &SolveRequest, progress: Progress<'_>) -> Result<Solved, Error> {
    (inst.family.solve)(inst, req, progress)
}

/// `tilekit verify` through the instance's family.
pub fn verify(
    inst: &Instance,
    req: &VerifyRequest,
    progress: Progress<'_>,
) -> Result<Verified, Error> {
    (inst.family.verify)(inst, req, progress)
}

/// `tilekit render` through the instance's family: the SVG, and its notes.
pub fn render(inst: &Instance, req: &RenderRequest) -> Result<Rendered, Error> {
    (inst.family.render)(inst, req)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::sliding::Goal;

    fn instance(text: &str, family: Option<FamilyName>) -> Result<Instance, Error> {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("i.txt");
        std::fs::write(&p, text).unwrap();
        read(&p, family)
    }

    #[test]
    fn every_family_has_one_row() {
        for name in FamilyName::ALL {
            assert_eq!(family(name).name, name);
        }
        assert_eq!(FAMILIES.len(), FamilyName::ALL.len());
    }

    #[test]
    fn content_decides_the_family_and_says_why() {
        let s = instance("1 2 3\n4 0 5\n7 8 6\n", None).unwrap();
        assert_eq!(s.family.name, FamilyName::Sliding);
        assert!(s.detected.is_some() && s.resembles.is_empty());
        let e = instance("2 2\n0 0 1 2\n0 0 2 1\n0 0 1 1\n0 0 2 2\n", None).unwrap();
        assert_eq!(e.family.name, FamilyName::Edge);
        let forced = instance("1 2 3\n4 0 5\n7 8 6\n", Some(FamilyName::Edge)).unwrap();
        assert_eq!(forced.family.name, FamilyName::Edge);
        assert_eq!(forced.detected, None);
    }

    #[test]
    fn a_parse_error_on_a_detected_family_names_the_family_and_why() {
        let parse = |s: &Instance| {
            s.parse(|t, src| crate::puzzle::sliding::SlidingPuzzle::parse(t, src, Goal::BlankLast))
                .unwrap_err()
                .to_string()
        };
        // A short board is a board's problem: no word of other families.
        let err = parse(&instance("3 3\n1 2 3\n4 0 5\n", None).unwrap());
        assert!(!err.contains("read as"), "{err}");
        // A piece file with a short line resembles an edge-matching puzzle.
        let s = instance("2 2\n0 0 1 2\n0 0 2\n0 0 1 1\n0 0 2 2\n", None).unwrap();
        assert_eq!(s.family.name, FamilyName::Sliding);
        let err = parse(&s);
        assert!(
            err.contains("(read as a sliding-tile puzzle because"),
            "{err}"
        );
        assert!(
            err.ends_with("it resembles an edge-matching puzzle: pass `family` edge if it is one)"),
            "{err}"
        );
    }

    #[test]
    fn malformed_piece_files_get_the_hint_and_sliding_files_do_not() {
        let resembles = |text: &str| !instance(text, None).unwrap().resembles.is_empty();
        // Piece files cut short, with too few grey sides for detection, or with none.
        assert!(resembles("2 2\n0 1 1 0\n0 1 1 0\n0 1 1 0\n"));
        assert!(resembles("1 1\n0 0 0 0\n"));
        assert!(resembles("2 2\n1 2 3 4\n2 3 4 1\n3 4 1 2\n4 1 2 3\n"));
        // Sliding boards, one or many (one per line, with an id and an optimum), do not.
        assert!(!resembles(
            "4 4\n1 2 3 4\n5 6 7 8\n9 10 11 12\n13 14 15 0\n"
        ));
        assert!(!resembles("1 2 3\n4 0 5\n7 8 6\n"));
        let list: String = (0..17)
            .map(|i| format!("{i} 80 0 12 9 13 15 11 10 14 3 7 2 5 4 8 6 1\n"))
            .collect();
        assert!(!resembles(&list));
        // A route the detected family lacks gets the hint too: the detection may be wrong.
        let s = instance("2 2\n0 1 1 0\n0 1 1 0\n0 1 1 0\n", None).unwrap();
        let e = s.hint(Error::usage(
            "`via` heuristic is not available for sliding puzzles",
        ));
        assert_eq!(e.exit_code(), 2);
        assert!(
            e.to_string().contains("pass `family` edge if it is one"),
            "{e}"
        );
    }
}
