//! Routes: the one way through the house. A request names a family, a model and a solver; a
//! route builds the formulation, hands its model to a solver object, decodes the answer and
//! has the family's independent checker judge it, and returns one [`Report`].
//!
//! The generic routes know nothing of puzzles: [`milp`], [`sat`], [`maxsat`] and [`clique`]
//! work for any formulation of their model kind and any [`crate::verify::Checker`]. The
//! families are tables over them: [`sliding`] (models neos, flow, tight, sat; routes native, milp,
//! sat) and [`edge`] (models milp, clique, sat, maxsat). [`neos`] sends either family's MILP to NEOS through
//! the remote executor and judges it on the same MILP route. [`output`] writes files the
//! safe way.

pub mod astar;
pub mod bench;
pub mod clique;
pub mod edge;
pub mod edge_heuristic;
mod error;
pub mod families;
pub mod family;
pub mod maxsat;
pub mod method;
pub mod milp;
pub mod models;
pub mod neos;
pub mod output;
pub mod params;
mod report;
pub mod sat;
pub mod size;
pub mod sliding;

pub use error::Error;
pub use report::{Claim, Details, FamilyName, NativeStats, Report, Solution, Status};

use crate::field::Field;
use std::time::{Duration, Instant};

/// The routes: how a puzzle is solved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Route {
    /// A puzzle-specific search (IDA* with pattern databases for sliding puzzles).
    Native,
    /// A MILP formulation and a MILP solver.
    Milp,
    /// A CNF formulation and a SAT solver.
    Sat,
    /// A max-clique graph and a clique solver.
    Clique,
    /// A weighted CNF (partial MaxSAT) and a MaxSAT solver.
    Maxsat,
    /// Edge-matching: Salassa et al.'s construction and local search over region MILPs.
    Heuristic,
    /// Sliding puzzles: best-first search (A*, weighted A*, focal search) with an admissible
    /// or a learned heuristic.
    Astar,
}

impl Route {
    /// Every route, in the order help texts list them.
    pub const ALL: [Route; 7] = [
        Route::Native,
        Route::Milp,
        Route::Sat,
        Route::Clique,
        Route::Maxsat,
        Route::Heuristic,
        Route::Astar,
    ];
    /// The route called `s`.
    pub fn from_name(s: &str) -> Option<Route> {
        Route::ALL.into_iter().find(|r| r.name() == s)
    }
    /// The route's name: the value of `via`.
    pub fn name(self) -> &'static str {
        match self {
            Route::Native => "native",
            Route::Milp => "milp",
            Route::Sat => "sat",
            Route::Clique => "clique",
            Route::Maxsat => "maxsat",
            Route::Heuristic => "heuristic",
            Route::Astar => "astar",
        }
    }
}

/// Every model name of every family (the values of `model`); each family says which are its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ModelName {
    /// Sliding: the NEOS case study's MILP.
    Neos,
    /// Sliding: the flow MILP.
    Flow,
    /// Sliding: the flow MILP with moves before rests, fixings, distance cuts and a root
    /// bound from the native heuristic (stays small at a generous horizon).
    Tight,
    /// Sliding or edge: the CNF.
    Sat,
    /// Edge: Salassa et al.'s MILP.
    Milp,
    /// Edge: the max-clique graph.
    Clique,
    /// Edge: the weighted CNF (hard: a legal board; soft: each inner seam matches).
    Maxsat,
    /// Edge: Salassa et al.'s region MILP (15)–(17), of a rectangle of a partial board.
    Region,
}

impl ModelName {
    /// Every model name, in the order help texts list them (a new formulation's name is one
    /// variant and one entry here; the command line takes its values from this list).
    pub const ALL: [ModelName; 8] = [
        ModelName::Neos,
        ModelName::Flow,
        ModelName::Tight,
        ModelName::Sat,
        ModelName::Milp,
        ModelName::Clique,
        ModelName::Maxsat,
        ModelName::Region,
    ];
    /// The model called `s`.
    pub fn from_name(s: &str) -> Option<ModelName> {
        ModelName::ALL.into_iter().find(|m| m.name() == s)
    }
    /// The model's name: the value of `model`.
    pub fn name(self) -> &'static str {
        match self {
            ModelName::Neos => "neos",
            ModelName::Flow => "flow",
            ModelName::Tight => "tight",
            ModelName::Sat => "sat",
            ModelName::Milp => "milp",
            ModelName::Clique => "clique",
            ModelName::Maxsat => "maxsat",
            ModelName::Region => "region",
        }
    }
}

/// Where progress lines go (one line at a time, without the `tilekit:` prefix).
pub type Progress<'a> = &'a (dyn Fn(&str) + Sync);

pub use crate::search::{Line, NOTICE, STEP, step};

/// Send `msg` through `progress` as a [`NOTICE`].
pub fn notice(progress: Progress<'_>, msg: &str) {
    progress(&format!("{NOTICE}{msg}"));
}

/// A [`Progress`] that says nothing.
pub fn quiet(_: &str) {}

/// What the checks of one answer found: the decoded solution, the objective the checker
/// recounted, and every problem.
#[derive(Debug, Clone, PartialEq)]
pub struct Checked<S> {
    /// The decoded solution, when the answer decoded.
    pub solution: Option<S>,
    /// The objective recomputed by the checker.
    pub objective: Option<f64>,
    /// One sentence per problem (empty: verified).
    pub errors: Vec<String>,
}

impl<S> Checked<S> {
    fn failed(error: String) -> Self {
        Checked {
            solution: None,
            objective: None,
            errors: vec![error],
        }
    }

    /// The common end of every route's check: `errors` found at the model level so far, then
    /// the decoded solution judged by `checker` (claiming `claimed`), or the decode error.
    fn judge_decoded<C>(
        mut errors: Vec<String>,
        decoded: Result<S, crate::formulate::DecodeError>,
        checker: &C,
        instance: &C::Instance,
        claimed: Option<f64>,
    ) -> Self
    where
        C: crate::verify::Checker,
        S: std::borrow::Borrow<C::Solution>,
    {
        match decoded {
            Ok(s) => {
                let v = checker.check(instance, s.borrow(), claimed);
                errors.extend(v.errors);
                Checked {
                    solution: Some(s),
                    objective: v.objective,
                    errors,
                }
            }
            Err(e) => {
                errors.push(e.to_string());
                Checked {
                    solution: None,
                    objective: None,
                    errors,
                }
            }
        }
    }
}

/// An answer as a route judged it, before the family words it into a [`Report`].
#[derive(Debug, Clone, PartialEq)]
pub struct Answer<S> {
    /// How it ended.
    pub status: Status,
    /// The decoded solution (verified only when `errors` is empty and `status` is solved).
    pub solution: Option<S>,
    /// The checker's objective.
    pub objective: Option<f64>,
    /// Proven lower bound.
    pub bound: Option<f64>,
    /// Proven optimal and verified.
    pub optimal: bool,
    /// Passed every check.
    pub verified: bool,
    /// What the checks found.
    pub errors: Vec<String>,
    /// The solver's status text.
    pub solver_status: String,
}

impl<S> Answer<S> {
    /// No solution: `status`, with the solver's words.
    pub fn without(status: Status, solver_status: impl Into<String>) -> Self {
        Answer {
            status,
            solution: None,
            objective: None,
            bound: None,
            optimal: false,
            verified: false,
            errors: Vec::new(),
            solver_status: solver_status.into(),
        }
    }

    /// A solver claimed a solution: judge it by `checked`. `proven_optimal` is what the
    /// solver proved; `floor` an objective nothing beats (then a verified solution reaching
    /// it is optimal whatever was proven).
    pub fn judged(
        checked: Checked<S>,
        proven_optimal: bool,
        floor: Option<f64>,
        solver_status: impl Into<String>,
    ) -> Self {
        let verified = checked.errors.is_empty() && checked.solution.is_some();
        let mut optimal = proven_optimal && verified;
        if verified && floor.is_some() && checked.objective == floor {
            optimal = true;
        }
        Answer {
            status: if verified {
                Status::Solved
            } else {
                Status::Unverified
            },
            bound: if optimal { checked.objective } else { None },
            solution: checked.solution,
            objective: checked.objective,
            optimal,
            verified,
            errors: checked.errors,
            solver_status: solver_status.into(),
        }
    }

    /// Copy the common fields into `rep` (the family fills in its own).
    pub fn fill(&self, rep: &mut Report) {
        rep.status = self.status;
        rep.objective = self.objective;
        rep.bound = self.bound;
        rep.optimal = self.optimal;
        rep.verified = self.verified;
        rep.errors = self.errors.clone();
        rep.solver_status = self.solver_status.clone();
    }
}

/// Run `work` while a background thread reports the elapsed time every 5 s through
/// `progress` (so a long solver run shows it is alive).
pub fn with_heartbeat<T>(
    progress: Progress<'_>,
    solver: &str,
    limit: Duration,
    work: impl FnOnce() -> T,
) -> T {
    // The work's end drops the sender, which wakes the heartbeat at once: a sleep would keep
    // every solve waiting for the heartbeat's next tick (up to 100 ms, which a campaign's
    // timings of short runs would measure).
    let (done, ticks) = std::sync::mpsc::channel::<()>();
    let started = Instant::now();
    std::thread::scope(|scope| {
        scope.spawn(move || {
            let mut next = 5;
            while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
                ticks.recv_timeout(Duration::from_millis(100))
            {
                let secs = started.elapsed().as_secs();
                if secs >= next {
                    progress(&crate::search::step(
                        secs,
                        (limit.as_secs_f64().round() as u64).max(secs),
                        &format!(
                            "{solver} running: {secs} s of at most {:.0} s",
                            limit.as_secs_f64()
                        ),
                    ));
                    next += 5;
                }
            }
        });
        let out = work();
        drop(done);
        out
    })
}

/// A number as a message shows it: as written for everyday sizes, in scientific notation
/// past a million (`1e300`, not three hundred digits).
pub fn shown_number(x: f64) -> String {
    if x.is_finite() && x.abs() >= 1e6 {
        format!("{x:e}")
    } else {
        x.to_string()
    }
}

/// A number of seconds from a flag (`flag` names it in the error): positive, finite and
/// below 10⁹ (31 years; larger values overflow the clocks they are added to).
pub fn seconds(flag: impl std::fmt::Display, value: f64) -> Result<Duration, Error> {
    if value.is_finite() && value > 0.0 && value < 1e9 {
        Ok(Duration::from_secs_f64(value))
    } else {
        Err(Error::Usage(format!(
            "{flag} must be a positive number of seconds below 10^9, not {}",
            shown_number(value)
        )))
    }
}

/// The most threads a run may ask for: far beyond the machines tilekit runs on, and small
/// enough that a typing error does not start a hundred thousand threads.
pub const MAX_THREADS: u32 = 256;

/// The limits of `time_limit` (seconds, checked by [`seconds`]) and `threads` (1 to
/// [`MAX_THREADS`]).
pub fn limits(time_limit: f64, threads: u32) -> Result<crate::solve::Limits, Error> {
    if !(1..=MAX_THREADS).contains(&threads) {
        return Err(Error::Usage(format!(
            "{} must be from 1 to {MAX_THREADS}, not {threads}",
            Field::Threads
        )));
    }
    Ok(crate::solve::Limits::new(
        seconds(Field::TimeLimit, time_limit)?,
        threads,
    ))
}

/// The time limit must be a positive, finite number of seconds (every family's rule).
pub fn check_limits(limits: &crate::solve::Limits) -> Result<(), Error> {
    let time = limits.time.as_secs_f64();
    if time.is_finite() && time > 0.0 {
        Ok(())
    } else {
        Err(Error::usage(format!(
            "{} must be a positive number of seconds",
            Field::TimeLimit
        )))
    }
}

/// The most any input file may hold (an instance, a solution, a plan): far beyond any real
/// one, and a bound on what a read of `/dev/zero` or a wrong file can cost.
pub const MAX_INPUT_BYTES: u64 = 256 << 20;

/// Read an instance file (or a solution, a plan: `what` names it in the error), refusing one
/// over [`MAX_INPUT_BYTES`] or not UTF-8.
pub fn read_text(path: &std::path::Path, what: &str) -> Result<String, Error> {
    use std::io::Read;
    let cannot = |e: std::io::Error| {
        Error::Usage(format!("{}: cannot read the {what}: {e}", path.display()))
    };
    let file = std::fs::File::open(path).map_err(cannot)?;
    output::note_input(&file, what);
    let mut bytes = Vec::new();
    file.take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(cannot)?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(Error::Usage(format!(
            "{}: the {what} is larger than {} MiB: not a file tilekit reads",
            path.display(),
            MAX_INPUT_BYTES >> 20
        )));
    }
    // A byte-order mark some editors write is not part of the text.
    if bytes.starts_with(b"\xef\xbb\xbf") {
        bytes.drain(..3);
    }
    String::from_utf8(bytes).map_err(|e| {
        Error::Usage(format!(
            "{}: cannot read the {what}: not UTF-8 text (byte {})",
            path.display(),
            e.utf8_error().valid_up_to()
        ))
    })
}
