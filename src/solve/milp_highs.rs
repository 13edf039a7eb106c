//! The embedded HiGHS engine: HiGHS built from source by `highs-sys` and linked into the
//! process (cargo feature `highs`), so that models too hard for `microlp` (the case study's
//! faithful sliding model at horizon 12) are solved without writing a file or starting a
//! process.
//!
//! The model goes to HiGHS in one `Highs_passMip` call, straight from the in-memory model:
//! the column-major view [`Model::columns`] (the one the MPS writer uses, and HiGHS's own
//! storage order, so HiGHS need not transpose it), with bounds, kinds and objective copied
//! into the parallel arrays HiGHS takes. Statuses are mapped by the same table as HiGHS
//! solution files ([`crate::format::solution::highs`]), so both HiGHS routes agree on what
//! an answer means.

use crate::format::solution::highs::classify;
use crate::model::milp::{Model, ObjSense, Sense, VarKind};
use crate::solve::{
    Capabilities, ColumnValues, Limits, MilpSolution, MilpSolver, SolveError, Solver,
};
use highs_sys::{
    Highs_create, Highs_destroy, Highs_getIntInfoValue, Highs_getModelStatus,
    Highs_getObjectiveValue, Highs_getSolution, Highs_passMip, Highs_resetThreadScheduler,
    Highs_run, Highs_setBoolOptionValue, Highs_setDoubleOptionValue, Highs_setIntOptionValue,
    HighsInt, MATRIX_FORMAT_COLUMN_WISE, MODEL_STATUS_NOTSET, OBJECTIVE_SENSE_MAXIMIZE,
    OBJECTIVE_SENSE_MINIMIZE, SOLUTION_STATUS_FEASIBLE, STATUS_ERROR, STATUS_OK,
    VAR_TYPE_CONTINUOUS, VAR_TYPE_INTEGER,
};
use std::ffi::{CStr, c_void};
use std::time::Duration;

/// A failure of the embedded HiGHS engine that is not an answer about the model (those are
/// [`crate::solve::Outcome`]s).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum HighsError {
    /// The model has more columns, rows or non-zeros than HiGHS's 32-bit `HighsInt` indexes.
    #[error("the model has {count} {what}, more than HiGHS's index type can address")]
    TooLarge {
        /// Which count overflows ("columns", "rows", "non-zeros").
        what: &'static str,
        /// The count.
        count: usize,
    },
    /// `Highs_create` returned no instance (out of memory).
    #[error("HiGHS could not create a solver instance")]
    Create,
    /// HiGHS refused an option value.
    #[error("HiGHS rejected the option {option} = {value}")]
    Option {
        /// The option's HiGHS name.
        option: &'static str,
        /// The value given, as text.
        value: String,
    },
    /// HiGHS refused the model in `Highs_passMip` (it checks bounds and the matrix).
    #[error("HiGHS rejected the model (Highs_passMip failed)")]
    PassModel,
    /// `Highs_run` failed before it looked at the model (its model status is still "Not
    /// Set"); a failure during the solve is the outcome `Unknown` instead, with HiGHS's text.
    #[error("HiGHS failed to start the solve (Highs_run failed with model status \"Not Set\")")]
    Run,
    /// HiGHS reported a primal solution but would not hand it over.
    #[error("HiGHS reported a solution but Highs_getSolution failed")]
    Solution,
}

/// Owns a HiGHS instance, so that every early return (and a panic) frees it.
struct Instance(*mut c_void);

impl Drop for Instance {
    fn drop(&mut self) {
        // SAFETY: the pointer came from Highs_create, is non-null (checked on creation) and is
        // destroyed exactly once, here.
        unsafe { Highs_destroy(self.0) };
        // HiGHS keeps its worker pool in a thread-local scheduler that outlives the instance.
        // Shutting it down (blocking: this thread created it, so it joins the workers) frees
        // the threads and lets the next solve on this thread use a different thread count;
        // HiGHS refuses to run when the option differs from a live scheduler's size.
        // SAFETY: no HiGHS call is running on this thread, and the scheduler is this thread's.
        unsafe { Highs_resetThreadScheduler(1) };
    }
}

impl Instance {
    fn set_bool(&self, option: &'static CStr, value: bool) -> Result<(), HighsError> {
        // SAFETY: live instance, NUL-terminated option name.
        let st = unsafe { Highs_setBoolOptionValue(self.0, option.as_ptr(), value.into()) };
        option_result(st, option, value)
    }
    fn set_int(&self, option: &'static CStr, value: HighsInt) -> Result<(), HighsError> {
        // SAFETY: live instance, NUL-terminated option name.
        let st = unsafe { Highs_setIntOptionValue(self.0, option.as_ptr(), value) };
        option_result(st, option, value)
    }
    fn set_double(&self, option: &'static CStr, value: f64) -> Result<(), HighsError> {
        // SAFETY: live instance, NUL-terminated option name.
        let st = unsafe { Highs_setDoubleOptionValue(self.0, option.as_ptr(), value) };
        option_result(st, option, value)
    }
    fn int_info(&self, info: &CStr) -> Option<HighsInt> {
        let mut v: HighsInt = 0;
        // SAFETY: live instance, NUL-terminated name, `v` is a valid out-pointer.
        let st = unsafe { Highs_getIntInfoValue(self.0, info.as_ptr(), &mut v) };
        (st == STATUS_OK).then_some(v)
    }
}

fn option_result(
    status: HighsInt,
    option: &'static CStr,
    value: impl ToString,
) -> Result<(), HighsError> {
    // A warning means HiGHS adjusted nothing we rely on; only an error is a refusal.
    if status == STATUS_ERROR {
        return Err(HighsError::Option {
            option: option.to_str().unwrap_or("?"),
            value: value.to_string(),
        });
    }
    Ok(())
}

fn highs_int(what: &'static str, count: usize) -> Result<HighsInt, HighsError> {
    HighsInt::try_from(count).map_err(|_| HighsError::TooLarge { what, count })
}

/// HiGHS's own name for a model status (`utilModelStatusToString` in HiGHS 1.16), which the
/// C API does not export; the same strings head a HiGHS solution file.
fn status_name(status: HighsInt) -> &'static str {
    use highs_sys::*;
    match status {
        MODEL_STATUS_NOTSET => "Not Set",
        MODEL_STATUS_LOAD_ERROR => "Load error",
        MODEL_STATUS_MODEL_ERROR => "Model error",
        MODEL_STATUS_PRESOLVE_ERROR => "Presolve error",
        MODEL_STATUS_SOLVE_ERROR => "Solve error",
        MODEL_STATUS_POSTSOLVE_ERROR => "Postsolve error",
        MODEL_STATUS_MODEL_EMPTY => "Empty",
        MODEL_STATUS_OPTIMAL => "Optimal",
        MODEL_STATUS_INFEASIBLE => "Infeasible",
        MODEL_STATUS_UNBOUNDED_OR_INFEASIBLE => "Primal infeasible or unbounded",
        MODEL_STATUS_UNBOUNDED => "Unbounded",
        MODEL_STATUS_OBJECTIVE_BOUND => "Bound on objective reached",
        MODEL_STATUS_OBJECTIVE_TARGET => "Target for objective reached",
        MODEL_STATUS_REACHED_TIME_LIMIT => "Time limit reached",
        MODEL_STATUS_REACHED_ITERATION_LIMIT => "Iteration limit reached",
        MODEL_STATUS_UNKNOWN => "Unknown",
        MODEL_STATUS_REACHED_SOLUTION_LIMIT => "Solution limit reached",
        MODEL_STATUS_REACHED_INTERRUPT => "Interrupted by user",
        MODEL_STATUS_REACHED_MEMORY_LIMIT => "Memory limit reached",
        MODEL_STATUS_HIGHS_INTERRUPT => "Interrupted by HiGHS",
        _ => "Unrecognised HiGHS model status",
    }
}

/// The version of the HiGHS library linked in, as it reports itself.
pub fn version() -> String {
    // SAFETY: Highs_version returns a pointer to a static NUL-terminated string.
    let v = unsafe { highs_sys::Highs_version() };
    if v.is_null() {
        return "unknown".into();
    }
    unsafe { CStr::from_ptr(v) }.to_string_lossy().into_owned()
}

/// The linked HiGHS as a [`MilpSolver`] (registry name `highs-embedded`): the model goes over
/// in memory, no files, no process.
#[derive(Debug, Clone, Copy, Default)]
pub struct HighsEmbedded;

impl Solver for HighsEmbedded {
    fn name(&self) -> &str {
        "highs-embedded"
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities {
            time_limit: true,
            threads: true,
            proofs: false,
            embedded: true,
        }
    }
}

impl MilpSolver for HighsEmbedded {
    fn solve(&self, model: &Model, limits: &Limits) -> Result<MilpSolution, SolveError> {
        solve_highs(model, Some(limits.time), limits.threads).map_err(|e| SolveError::Engine {
            solver: "highs-embedded".into(),
            message: e.to_string(),
        })
    }
}

/// Solve `model` with the HiGHS linked into this process, within `time_limit` (none: no
/// limit) using `threads` threads (0: HiGHS's choice, one per physical core this process
/// may run on).
///
/// The outcome follows HiGHS's model status: `Optimal` only when HiGHS proved optimality
/// (within its default MIP gap, as the `highs` command would); a limit with an incumbent is
/// `Feasible`, the time limit without one `TimeLimit`; `Infeasible`; `Unbounded` for both
/// unbounded and infeasible-or-unbounded; anything else `Unknown`. `status_text` is HiGHS's
/// own status string. Values are HiGHS's, unrounded, in model order; the objective is in the
/// model's own sense. HiGHS's console output is switched off so that tilekit's stdout stays
/// clean.
pub fn solve_highs(
    model: &Model,
    time_limit: Option<Duration>,
    threads: u32,
) -> Result<MilpSolution, HighsError> {
    let num_col = highs_int("columns", model.num_vars())?;
    let num_row = highs_int("rows", model.num_rows())?;
    let num_nz = highs_int("non-zeros", model.num_nonzeros())?;
    let threads = highs_int("threads", threads as usize)?;

    let n = model.num_vars();
    let mut cost = Vec::with_capacity(n);
    let mut col_lower = Vec::with_capacity(n);
    let mut col_upper = Vec::with_capacity(n);
    let mut integrality = Vec::with_capacity(n);
    for v in model.vars() {
        let (lb, ub) = model.var_bounds(v);
        cost.push(model.objective_coef(v));
        // HiGHS's infinity is the IEEE one (kHighsInf), so unbounded sides pass as they are.
        col_lower.push(lb);
        col_upper.push(ub);
        integrality.push(match model.var_kind(v) {
            VarKind::Continuous => VAR_TYPE_CONTINUOUS,
            // Binary columns already carry bounds [0, 1]; HiGHS has no separate binary type.
            VarKind::Integer | VarKind::Binary => VAR_TYPE_INTEGER,
        });
    }
    let (row_lower, row_upper): (Vec<f64>, Vec<f64>) = model
        .rows()
        .map(|r| {
            let rhs = model.row_rhs(r);
            match model.row_sense(r) {
                Sense::Le => (f64::NEG_INFINITY, rhs),
                Sense::Ge => (rhs, f64::INFINITY),
                Sense::Eq => (rhs, rhs),
            }
        })
        .collect();
    let cv = model.columns();
    // Both fit: every entry is at most num_nz, which fits in HighsInt (checked above).
    let a_start: Vec<HighsInt> = cv.start.iter().map(|&s| s as HighsInt).collect();
    let a_index: Vec<HighsInt> = cv.row.iter().map(|&r| r as HighsInt).collect();
    let sense = match model.objective_sense() {
        ObjSense::Minimize => OBJECTIVE_SENSE_MINIMIZE,
        ObjSense::Maximize => OBJECTIVE_SENSE_MAXIMIZE,
    };

    // SAFETY: Highs_create takes no arguments; null is checked below.
    let raw = unsafe { Highs_create() };
    if raw.is_null() {
        return Err(HighsError::Create);
    }
    let h = Instance(raw);
    // Options first, so that nothing HiGHS logs while taking the model reaches stdout.
    h.set_bool(c"output_flag", false)?;
    h.set_int(c"threads", threads)?;
    if let Some(t) = time_limit {
        h.set_double(c"time_limit", t.as_secs_f64())?;
    }

    // The model has no objective constant, so the offset is 0.
    // SAFETY: every array has the length HiGHS reads: num_col for costs, bounds, integrality
    // and a_start (which has one extra, unread entry), num_row for row bounds, num_nz for
    // a_index and a_value; all stay alive until the call returns (HiGHS copies them).
    let st = unsafe {
        Highs_passMip(
            h.0,
            num_col,
            num_row,
            num_nz,
            MATRIX_FORMAT_COLUMN_WISE,
            sense,
            0.0,
            cost.as_ptr(),
            col_lower.as_ptr(),
            col_upper.as_ptr(),
            row_lower.as_ptr(),
            row_upper.as_ptr(),
            a_start.as_ptr(),
            a_index.as_ptr(),
            cv.val.as_ptr(),
            integrality.as_ptr(),
        )
    };
    if st == STATUS_ERROR {
        return Err(HighsError::PassModel);
    }

    // SAFETY: live instance holding a model.
    let run = unsafe { Highs_run(h.0) };
    // SAFETY: live instance.
    let status = unsafe { Highs_getModelStatus(h.0) };
    if run == STATUS_ERROR && status == MODEL_STATUS_NOTSET {
        return Err(HighsError::Run);
    }
    let text = status_name(status);
    let feasible = h.int_info(c"primal_solution_status") == Some(SOLUTION_STATUS_FEASIBLE);
    let outcome = classify(text, feasible);
    if !outcome.has_solution() {
        return Ok(MilpSolution {
            outcome,
            status_text: text.to_string(),
            objective: None,
            values: ColumnValues::None,
        });
    }
    let mut values = vec![0.0; n];
    // SAFETY: live instance; `values` has num_col entries, the length of HiGHS's column
    // solution; the other three outputs are null, which HiGHS skips.
    let st = unsafe {
        Highs_getSolution(
            h.0,
            values.as_mut_ptr(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
        )
    };
    if st == STATUS_ERROR {
        return Err(HighsError::Solution);
    }
    // SAFETY: live instance. HiGHS reports the objective in the model's own sense.
    let objective = unsafe { Highs_getObjectiveValue(h.0) };
    Ok(MilpSolution {
        outcome,
        status_text: text.to_string(),
        objective: Some(objective),
        values: ColumnValues::ByIndex(values),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formulate::edge_milp::{self, EdgeMilpOptions};
    use crate::formulate::sliding_case_study;
    use crate::puzzle::edge::EdgePuzzle;
    use crate::puzzle::sliding::{Goal, SlidingPuzzle, moves_to_string};
    use crate::solve::Outcome;
    use crate::verify;
    use std::path::Path;
    use std::time::Instant;

    fn read(rel: &str) -> String {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    #[test]
    fn case_study_faithful_model_at_horizon_12_is_solved_to_11_moves() {
        let text = read("models/sliding/neos_case_study.txt");
        let p = SlidingPuzzle::parse(&text, "case", Goal::BlankLast).unwrap();
        let built = sliding_case_study::build(&p, Goal::BlankLast, 12).unwrap();
        let s = solve_highs(&built.model, Some(Duration::from_secs(300)), 1).unwrap();
        assert_eq!(s.outcome, Outcome::Optimal, "{}", s.status_text);
        assert_eq!(s.status_text, "Optimal");
        let obj = s.objective.unwrap();
        assert!((obj - 11.0).abs() < 1e-6, "objective {obj}");
        let x = s.resolve(&built.model).unwrap();
        let point = verify::milp::check_point(&built.model, &x, s.objective);
        assert!(point.valid, "{:?}", point.errors);
        let moves = built.decode(&x).unwrap();
        assert_eq!(moves.len(), 11);
        let goal = Goal::BlankLast.board(p.cells());
        let v = verify::sliding::check_moves(
            p.rows(),
            p.cols(),
            p.tiles(),
            &goal,
            &moves_to_string(&moves),
            s.objective,
        );
        assert!(v.valid, "{:?}", v.errors);
    }

    #[test]
    fn meta_4x4_is_solved_to_a_perfect_board() {
        let p = EdgePuzzle::parse(
            &read("models/edge-matching/meta2010/pieces_04x04.txt"),
            "meta",
        )
        .unwrap();
        let built = edge_milp::build(&p, EdgeMilpOptions::default()).unwrap();
        let s = solve_highs(&built.model, Some(Duration::from_secs(300)), 0).unwrap();
        assert_eq!(s.outcome, Outcome::Optimal, "{}", s.status_text);
        let obj = s.objective.unwrap();
        assert!(obj.abs() < 1e-6, "objective {obj}");
        let x = s.resolve(&built.model).unwrap();
        let point = verify::milp::check_point(&built.model, &x, s.objective);
        assert!(point.valid, "{:?}", point.errors);
        let board = built.decode(&x).unwrap();
        let v = verify::edge::check_board(
            board.rows,
            board.cols,
            &p.colours(),
            &board.raw_cells(),
            s.objective,
        );
        assert!(v.valid, "{:?}", v.errors);
        assert_eq!(v.objective, 0.0);
        assert_eq!(v.matched, v.max);
        assert_eq!(v.max, 24); // 2·4·4 − 4 − 4 inner seams
    }

    #[test]
    fn maximisation_objective_is_in_the_models_sense() {
        let mut m = Model::new("k");
        let x = m.add_var("x", VarKind::Integer, 0.0, 10.0).unwrap();
        let y = m.add_var("y", VarKind::Binary, 0.0, 1.0).unwrap();
        let z = m
            .add_var("z", VarKind::Continuous, f64::NEG_INFINITY, 0.5)
            .unwrap();
        m.add_row("c", &[(x, 2.0), (y, 3.0)], Sense::Le, 7.5)
            .unwrap();
        m.add_row("d", &[(z, 1.0), (y, -1.0)], Sense::Ge, -2.0)
            .unwrap();
        m.set_objective("obj", ObjSense::Maximize, &[(x, 1.0), (y, 2.0), (z, 1.0)])
            .unwrap();
        let s = solve_highs(&m, None, 1).unwrap();
        assert_eq!(s.outcome, Outcome::Optimal);
        // x=2, y=1, z=0.5 → 4.5 beats x=3, y=0, z=0.5 → 3.5.
        assert!(
            (s.objective.unwrap() - 4.5).abs() < 1e-9,
            "{:?}",
            s.objective
        );
        let v = s.resolve(&m).unwrap();
        let want = [2.0, 1.0, 0.5];
        assert!(
            v.iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-9),
            "{v:?}"
        );
    }

    #[test]
    fn infeasible_is_an_outcome() {
        let mut m = Model::new("k");
        let x = m.add_var("x", VarKind::Integer, 0.0, 10.0).unwrap();
        // 2x = 3 has no integer solution (its LP relaxation does: the MIP must say so).
        m.add_row("c", &[(x, 2.0)], Sense::Eq, 3.0).unwrap();
        let s = solve_highs(&m, Some(Duration::from_secs(10)), 1).unwrap();
        assert_eq!(s.outcome, Outcome::Infeasible);
        assert_eq!(s.status_text, "Infeasible");
        assert_eq!(s.objective, None);
        assert_eq!(s.values, ColumnValues::None);
    }

    #[test]
    fn unbounded_is_an_outcome() {
        let mut m = Model::new("k");
        let x = m
            .add_var("x", VarKind::Integer, 0.0, f64::INFINITY)
            .unwrap();
        m.set_objective("obj", ObjSense::Maximize, &[(x, 1.0)])
            .unwrap();
        let s = solve_highs(&m, Some(Duration::from_secs(10)), 1).unwrap();
        assert_eq!(s.outcome, Outcome::Unbounded, "{}", s.status_text);
    }

    #[test]
    fn a_short_time_limit_is_honoured() {
        // META 7×7 faithful: tens of thousands of binaries, far beyond a quarter of a second.
        let p = EdgePuzzle::parse(
            &read("models/edge-matching/meta2010/pieces_07x07.txt"),
            "meta",
        )
        .unwrap();
        let built = edge_milp::build(&p, EdgeMilpOptions::default()).unwrap();
        let t0 = Instant::now();
        let s = solve_highs(&built.model, Some(Duration::from_millis(250)), 1).unwrap();
        let took = t0.elapsed();
        assert!(
            matches!(s.outcome, Outcome::TimeLimit | Outcome::Feasible),
            "{:?} ({})",
            s.outcome,
            s.status_text
        );
        assert_eq!(s.status_text, "Time limit reached");
        assert_eq!(s.outcome.has_solution(), s.objective.is_some());
        // HiGHS checks its clock between steps; allow generous slack on a loaded machine.
        assert!(took < Duration::from_secs(20), "took {took:?}");
    }

    #[test]
    fn different_thread_counts_in_a_row_on_one_thread() {
        // HiGHS refuses a thread count that differs from its live thread-local scheduler's;
        // the scheduler is shut down after each solve, so this must work.
        let mut m = Model::new("k");
        let x = m.add_var("x", VarKind::Integer, 0.0, 10.0).unwrap();
        m.add_row("c", &[(x, 1.0)], Sense::Le, 4.5).unwrap();
        m.set_objective("obj", ObjSense::Maximize, &[(x, 1.0)])
            .unwrap();
        for threads in [1, 2, 1, 0] {
            let s = solve_highs(&m, None, threads).unwrap();
            assert_eq!(s.outcome, Outcome::Optimal, "threads {threads}");
            assert_eq!(s.objective, Some(4.0));
        }
    }

    #[test]
    fn every_status_is_named_and_classified_like_a_solution_file() {
        let named: Vec<_> = (0..=19).map(status_name).collect();
        assert_eq!(named[7], "Optimal");
        assert_eq!(named[9], "Primal infeasible or unbounded");
        assert_eq!(named[13], "Time limit reached");
        assert_eq!(named[19], "Interrupted by HiGHS");
        assert_eq!(status_name(20), "Unrecognised HiGHS model status");
        // Twenty distinct names: no status shadows another.
        let distinct: std::collections::BTreeSet<_> = named.iter().collect();
        assert_eq!(distinct.len(), 20);
        assert_eq!(classify(named[13], true), Outcome::Feasible);
        assert_eq!(classify(named[13], false), Outcome::TimeLimit);
        assert_eq!(classify(named[7], true), Outcome::Optimal);
        assert_eq!(classify(named[9], false), Outcome::Unbounded);
    }
}
