//! Proof-producing runs of registry SAT solvers: the solver is given a proof file as its
//! second positional argument, after the formula (the SAT-competition convention that
//! CaDiCaL and Kissat follow: `cadical [options] FORMULA PROOF`, binary DRAT unless the
//! proof is a terminal or `--no-binary` is given). The embedded engine's counterpart is
//! [`crate::solve::sat_embedded::solve_varisat_with_proof`].

use crate::model::answer::SatOutcome;
use crate::solve::SolveError;
use crate::solve::external::{RunOutput, StopFlag};
use crate::solve::milp_external::solve_sat_file_until;
use crate::solve::registry::{SolutionFormat, SolverEntry};
use std::path::Path;
use std::time::Duration;

/// Whether `entry` can be asked for a DRAT proof this way: SAT-competition solvers (those
/// whose answer is read from stdout). MiniSat writes its answer to a result file in the
/// position where the others take the proof, and writes no proofs at all.
pub fn writes_proofs(entry: &SolverEntry) -> bool {
    entry.solution == SolutionFormat::Sat
}

/// [`solve_sat_file`](crate::solve::milp_external::solve_sat_file) with a DRAT proof written
/// to `proof` (removed first, so a stale proof can never be mistaken for this run's). The
/// proof is complete only for an `Unsat` answer.
/// An entry that cannot write proofs ([`writes_proofs`]) is a [`SolveError::Failed`] before
/// anything runs.
pub fn solve_sat_file_with_proof(
    entry: &SolverEntry,
    cnf_path: &Path,
    workdir: &Path,
    time_limit: Duration,
    num_vars: usize,
    proof: &Path,
    stop: Option<&StopFlag>,
) -> Result<(SatOutcome, RunOutput), SolveError> {
    if !writes_proofs(entry) {
        return Err(SolveError::Failed {
            solver: entry.name.clone(),
            exit: "not run".into(),
            tail: "it cannot write DRAT proofs; certify with cadical, kissat or varisat".into(),
        });
    }
    let io = |source| SolveError::Io {
        solver: entry.name.clone(),
        path: proof.to_path_buf(),
        source,
    };
    match std::fs::remove_file(proof) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(io(e)),
        _ => {}
    }
    // The solver runs in `workdir`: the proof path must not be relative to ours.
    let proof = std::path::absolute(proof).map_err(io)?;
    let mut with_proof = entry.clone();
    // A literal path contains no placeholder, so expansion leaves it alone.
    with_proof.args.push(proof.display().to_string());
    solve_sat_file_until(&with_proof, cnf_path, workdir, time_limit, num_vars, stop)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::registry::Registry;

    #[test]
    fn only_competition_style_solvers_write_proofs() {
        let reg = Registry::load(None).unwrap();
        assert!(writes_proofs(reg.get("cadical").unwrap()));
        assert!(writes_proofs(reg.get("kissat").unwrap()));
        let minisat = reg.get("minisat").unwrap();
        assert!(!writes_proofs(minisat));
        let dir = tempfile::tempdir().unwrap();
        let err = solve_sat_file_with_proof(
            minisat,
            &dir.path().join("f.cnf"),
            dir.path(),
            Duration::from_secs(1),
            1,
            &dir.path().join("f.drat"),
            None,
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "solver 'minisat' failed (not run): it cannot write DRAT proofs; certify with cadical, kissat or varisat"
        );
    }
}
