//! Model-level check of a MILP point: every bound and row within tolerance, integrality,
//! and the objective recomputed and compared with what the solver reported.

use super::Verdict;
use crate::model::milp::{Model, Sense, VarKind};

/// Absolute tolerance for rows and bounds (CBC prints 8 significant digits).
pub const FEAS_TOL: f64 = 1e-6;
/// Distance from an integer accepted for integer and binary variables.
pub const INT_TOL: f64 = 1e-6;

/// Check `x` (one value per variable) against `model`. At most 20 violations are listed,
/// followed by a count of the rest.
pub fn check_point(model: &Model, x: &[f64], reported_objective: Option<f64>) -> Verdict {
    let mut errors = Vec::new();
    let mut extra = 0usize;
    let mut push = |errors: &mut Vec<String>, e: String| {
        if errors.len() < 20 {
            errors.push(e);
        } else {
            extra += 1;
        }
    };
    if x.len() != model.num_vars() {
        return Verdict::from_errors(
            None,
            vec![format!(
                "{} values given for {} variables",
                x.len(),
                model.num_vars()
            )],
        );
    }
    for v in model.vars() {
        let val = x[v.index()];
        let name = model.var_name(v);
        if !val.is_finite() {
            push(&mut errors, format!("variable {name} has value {val}"));
            continue;
        }
        let (lb, ub) = model.var_bounds(v);
        if val < lb - FEAS_TOL || val > ub + FEAS_TOL {
            push(
                &mut errors,
                format!("variable {name} = {val} is outside its bounds [{lb}, {ub}]"),
            );
        }
        if model.var_kind(v) != VarKind::Continuous && (val - val.round()).abs() > INT_TOL {
            push(
                &mut errors,
                format!("integer variable {name} = {val} is not integral"),
            );
        }
    }
    for r in model.rows() {
        let a = model.row_activity(r, x);
        let b = model.row_rhs(r);
        // Scale the tolerance with the row's magnitude so big-M rows are judged fairly.
        let scale = 1.0
            + model
                .row_terms(r)
                .map(|(v, c)| (c * x[v.index()]).abs())
                .fold(b.abs(), f64::max);
        let tol = FEAS_TOL * scale;
        let ok = match model.row_sense(r) {
            Sense::Le => a <= b + tol,
            Sense::Ge => a >= b - tol,
            Sense::Eq => (a - b).abs() <= tol,
        };
        if !ok {
            let op = match model.row_sense(r) {
                Sense::Le => "<=",
                Sense::Ge => ">=",
                Sense::Eq => "=",
            };
            push(
                &mut errors,
                format!(
                    "row {} is violated: {a} {op} {b} does not hold",
                    model.row_name(r)
                ),
            );
        }
    }
    let obj = model.objective_value(x);
    if let Some(rep) = reported_objective
        && (obj - rep).abs() > 1e-6 * (1.0 + obj.abs())
    {
        push(
            &mut errors,
            format!("the solver reported objective {rep} but the values give {obj}"),
        );
    }
    if extra > 0 {
        errors.push(format!("... and {extra} more violations"));
    }
    Verdict::from_errors(Some(obj), errors)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::milp::ObjSense;

    fn model() -> Model {
        let mut m = Model::new("t");
        let x = m.add_var("x", VarKind::Integer, 0.0, 5.0).unwrap();
        let y = m.add_var("y", VarKind::Continuous, 0.0, 1.0).unwrap();
        m.add_row("c", &[(x, 1.0), (y, 1.0)], Sense::Le, 4.5)
            .unwrap();
        m.set_objective("obj", ObjSense::Maximize, &[(x, 1.0), (y, 1.0)])
            .unwrap();
        m
    }

    #[test]
    fn accepts_feasible_and_rejects_perturbed_points() {
        let m = model();
        assert!(check_point(&m, &[4.0, 0.5], Some(4.5)).valid);
        let v = check_point(&m, &[4.2, 0.3], Some(4.5));
        assert_eq!(v.errors, vec!["integer variable x = 4.2 is not integral"]);
        let v = check_point(&m, &[4.0, 1.0], None);
        assert_eq!(v.errors, vec!["row c is violated: 5 <= 4.5 does not hold"]);
        let v = check_point(&m, &[4.0, 0.5], Some(5.0));
        assert_eq!(
            v.errors,
            vec!["the solver reported objective 5 but the values give 4.5"]
        );
        let v = check_point(&m, &[6.0, 0.0], None);
        assert!(v.errors[0].contains("outside its bounds"));
    }
}
