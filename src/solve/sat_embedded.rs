//! The embedded SAT engine: the pure-Rust CDCL solver `varisat` (no external binary needed).
//!
//! varisat is unmaintained since 2020 and much slower than CaDiCaL or Kissat on hard
//! formulas; it is here so that small instances and tests need no installed solver.

use crate::model::answer::SatOutcome;
use crate::model::cnf::Cnf;
use crate::solve::{Capabilities, Limits, ProofSatSolver, SatSolver, SolveError, Solver};
use std::path::Path;
use std::sync::Arc;
use varisat::ExtendFormula;

/// The varisat version linked in (for `tilekit solvers`).
pub const VERSION: &str = "0.2.2";

/// varisat as a [`SatSolver`] and [`ProofSatSolver`] (registry name `varisat`).
///
/// varisat cannot be interrupted, so the time limit is kept by running it on a thread of its
/// own and abandoning that thread at the limit: the answer is then [`SatOutcome::Unknown`] at
/// once, while the abandoned search runs on in the background until it finishes or the
/// process exits (unnoticed by a command-line run; a long-lived library user that needs the
/// processor back should prefer an external solver, which is killed).
#[derive(Debug, Clone, Copy, Default)]
pub struct Varisat;

impl Solver for Varisat {
    fn name(&self) -> &str {
        "varisat"
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities {
            time_limit: true,
            threads: false,
            proofs: true,
            embedded: true,
        }
    }
}

fn engine_error(e: EmbeddedSatError) -> SolveError {
    match e {
        // A file that cannot be created is the file system's failure, worded as for an
        // external solver's proof file.
        EmbeddedSatError::Proof { path, source } => SolveError::Io {
            solver: "varisat".into(),
            path,
            source,
        },
        other => SolveError::Engine {
            solver: "varisat".into(),
            message: other.to_string(),
        },
    }
}

/// Run `work` on a thread of its own; `None` when it has not finished within `limit` (the
/// thread is then abandoned, see [`Varisat`]).
fn within<T: Send + 'static>(
    limit: std::time::Duration,
    work: impl FnOnce() -> T + Send + 'static,
) -> Option<T> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name("varisat".into())
        .spawn(move || {
            // The receiver is gone when the run was abandoned: nobody to tell then.
            let _ = tx.send(work());
        })
        .ok()?;
    rx.recv_timeout(limit).ok()
}

impl SatSolver for Varisat {
    fn solve(&self, cnf: &Cnf, limits: &Limits) -> Result<SatOutcome, SolveError> {
        let cnf = Arc::new(cnf.clone());
        match within(limits.time, move || solve_varisat_checked(&cnf)) {
            Some(answer) => answer.map_err(engine_error),
            None => Ok(SatOutcome::Unknown),
        }
    }
    fn proofs(&self) -> Option<&dyn ProofSatSolver> {
        Some(self)
    }
}

impl ProofSatSolver for Varisat {
    fn solve_with_proof(
        &self,
        cnf: &Cnf,
        _cnf_file: &Path,
        proof: &Path,
        limits: &Limits,
    ) -> Result<SatOutcome, SolveError> {
        let cnf = Arc::new(cnf.clone());
        let proof = proof.to_path_buf();
        match within(limits.time, move || solve_varisat_with_proof(&cnf, &proof)) {
            Some(answer) => answer.map_err(engine_error),
            None => Ok(SatOutcome::Unknown),
        }
    }
    fn deletes_units(&self) -> bool {
        true
    }
}

/// Why the embedded engine gave no trustworthy answer.
#[derive(Debug, thiserror::Error)]
pub enum EmbeddedSatError {
    /// More variables than varisat supports.
    #[error("the formula has {vars} variables but varisat supports at most {max}")]
    TooManyVars {
        /// Variables in the formula.
        vars: usize,
        /// varisat's limit.
        max: usize,
    },
    /// varisat stopped with an error.
    #[error("varisat failed: {0}")]
    Solver(#[from] varisat::solver::SolverError),
    /// The proof file could not be created.
    #[error("cannot create the proof file {}: {source}", path.display())]
    Proof {
        /// The file.
        path: std::path::PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// varisat said satisfiable but gave no model.
    #[error("varisat reported satisfiable but returned no model")]
    NoModel,
    /// The model violates a clause: a solver bug, caught before anyone trusts the model.
    #[error("varisat's model violates clause {0} (0-based) of the formula")]
    BadModel(usize),
}

/// Solve `cnf` with varisat; the model is checked against every clause before it is returned.
pub fn solve_varisat_checked(cnf: &Cnf) -> Result<SatOutcome, EmbeddedSatError> {
    solve_with(varisat::Solver::new(), cnf)
}

/// Solve `cnf` with varisat while it writes a binary DRAT proof of unsatisfiability to
/// `proof` (created or truncated). The proof is complete only for an `Unsat` answer; variable
/// `k` of `cnf` is DIMACS variable `k + 1` in it, as in [`crate::format::dimacs_cnf`].
pub fn solve_varisat_with_proof(
    cnf: &Cnf,
    proof: &std::path::Path,
) -> Result<SatOutcome, EmbeddedSatError> {
    let file = std::fs::File::create(proof).map_err(|source| EmbeddedSatError::Proof {
        path: proof.to_path_buf(),
        source,
    })?;
    let mut solver = varisat::Solver::new();
    solver.write_proof(
        std::io::BufWriter::new(file),
        varisat::ProofFormat::BinaryDrat,
    );
    solve_with(solver, cnf)
}

fn solve_with(mut solver: varisat::Solver<'_>, cnf: &Cnf) -> Result<SatOutcome, EmbeddedSatError> {
    let vars = cnf.num_vars();
    if vars > varisat::Var::max_count() {
        return Err(EmbeddedSatError::TooManyVars {
            vars,
            max: varisat::Var::max_count(),
        });
    }
    let mut buf = Vec::new();
    for clause in cnf.clauses() {
        buf.clear();
        buf.extend(
            clause
                .iter()
                .map(|l| varisat::Lit::from_index(l.var().index(), !l.is_negated())),
        );
        solver.add_clause(&buf);
    }
    let sat = solver.solve()?;
    // Flushes and closes a proof being written (a no-op without one).
    solver.close_proof()?;
    if !sat {
        return Ok(SatOutcome::Unsat);
    }
    let lits = solver.model().ok_or(EmbeddedSatError::NoModel)?;
    // Variables varisat never saw (in no clause) stay false.
    let mut model = vec![false; vars];
    for l in lits {
        if let Some(slot) = model.get_mut(l.index()) {
            *slot = l.is_positive();
        }
    }
    match cnf.first_violated(&model) {
        Some(clause) => Err(EmbeddedSatError::BadModel(clause)),
        None => Ok(SatOutcome::Sat(model)),
    }
}

/// Solve `cnf` with varisat. Any failure of [`solve_varisat_checked`] (including a model that
/// does not satisfy the formula) is reported as [`SatOutcome::Unknown`], never as a model.
pub fn solve_varisat(cnf: &Cnf) -> SatOutcome {
    solve_varisat_checked(cnf).unwrap_or(SatOutcome::Unknown)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn php(pigeons: usize, holes: usize) -> Cnf {
        let mut f = Cnf::new();
        let x: Vec<Vec<_>> = (0..pigeons)
            .map(|p| {
                (0..holes)
                    .map(|h| f.new_var(format!("p{p}_h{h}")).positive())
                    .collect()
            })
            .collect();
        for row in &x {
            f.add_clause(row);
        }
        for h in 0..holes {
            for (p, xp) in x.iter().enumerate() {
                for xq in &x[p + 1..] {
                    f.add_clause(&[!xp[h], !xq[h]]);
                }
            }
        }
        f
    }

    /// varisat cannot be interrupted; the solver object keeps the limit all the same by
    /// abandoning its thread. PHP(12, 11) takes resolution-based solvers exponential time.
    #[test]
    fn the_time_limit_is_kept() {
        let limits = Limits::new(std::time::Duration::from_millis(200), 1);
        let started = std::time::Instant::now();
        let answer = Varisat.solve(&php(12, 11), &limits).unwrap();
        assert_eq!(answer, SatOutcome::Unknown);
        assert!(
            started.elapsed() < std::time::Duration::from_secs(2),
            "{:?}",
            started.elapsed()
        );
        // A formula it finishes within the limit is answered as usual.
        let long = Limits::new(std::time::Duration::from_secs(60), 1);
        assert_eq!(Varisat.solve(&php(4, 3), &long).unwrap(), SatOutcome::Unsat);
        assert!(matches!(
            Varisat.solve(&php(3, 3), &long).unwrap(),
            SatOutcome::Sat(_)
        ));
    }

    #[test]
    fn pigeonhole_sat_and_unsat() {
        match solve_varisat(&php(3, 3)) {
            SatOutcome::Sat(m) => assert!(php(3, 3).is_satisfied_by(&m)),
            other => panic!("PHP(3,3) should be SAT, got {other:?}"),
        }
        assert_eq!(solve_varisat(&php(4, 3)), SatOutcome::Unsat);
    }

    #[test]
    fn edge_cases() {
        // No clauses: SAT with every variable (even unused ones) given a value.
        let mut f = Cnf::new();
        f.new_var("unused");
        assert_eq!(solve_varisat(&f), SatOutcome::Sat(vec![false]));
        // An empty clause is UNSAT.
        f.add_clause(&[]);
        assert_eq!(solve_varisat(&f), SatOutcome::Unsat);
        // Units are honoured, including a variable only seen negated.
        let mut g = Cnf::new();
        let a = g.new_var("a");
        let b = g.new_var("b");
        g.add_clause(&[a.positive()]);
        g.add_clause(&[b.negative()]);
        assert_eq!(solve_varisat(&g), SatOutcome::Sat(vec![true, false]));
    }

    #[test]
    fn proofs_are_written_and_an_unwritable_proof_path_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let proof = dir.path().join("php.drat");
        assert_eq!(
            solve_varisat_with_proof(&php(4, 3), &proof).unwrap(),
            SatOutcome::Unsat
        );
        assert!(std::fs::metadata(&proof).unwrap().len() > 0);
        let bad = dir.path().join("no-such-dir").join("p.drat");
        let e = solve_varisat_with_proof(&php(2, 2), &bad).unwrap_err();
        assert!(matches!(e, EmbeddedSatError::Proof { .. }), "{e}");
        assert_eq!(
            e.to_string(),
            format!(
                "cannot create the proof file {}: No such file or directory (os error 2)",
                bad.display()
            )
        );
    }
}
