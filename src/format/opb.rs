//! OPB, the pseudo-Boolean competition's format (PB16, linear constraints), for MILPs whose
//! variables are all 0/1 and whose coefficients are all whole numbers: the edge MILP, the
//! sliding `flow` model, and the `tight` model as its formulation builds it for OPB (its tail's
//! columns binary). The faithful sliding model is not (its positions are integers up to the
//! board's size), and a model that is not is refused, naming the variable.
//!
//! OPB names variables `x1`, `x2`, …: the writer numbers the model's variables in order and
//! lists each number's name in a comment, so that a solver's `x`-named answer can be mapped
//! back. A maximisation is written as the minimisation of the negated objective (OPB has
//! `min:` only), and a `<=` row as the `>=` of its negation (PB16 has `>=` and `=` only); a
//! variable fixed by its bounds becomes a unit row. The first line is the size header the
//! competition's solvers read.
//!
//! ```
//! use tilekit::format::opb::write_opb;
//! use tilekit::{Model, ObjSense, Sense, VarKind};
//! let mut m = Model::new("pick");
//! let a = m.add_var("a", VarKind::Binary, 0.0, 1.0).unwrap();
//! let b = m.add_var("b", VarKind::Binary, 0.0, 1.0).unwrap();
//! m.add_row("one", &[(a, 1.0), (b, 1.0)], Sense::Le, 1.0).unwrap();
//! m.set_objective("gain", ObjSense::Maximize, &[(a, 2.0), (b, 3.0)]).unwrap();
//! let mut out = Vec::new();
//! write_opb(&m, &mut out).unwrap();
//! let text = String::from_utf8(out).unwrap();
//! assert!(text.starts_with("* #variable= 2 #constraint= 1\n"));
//! assert!(text.contains("min: -2 x1 -3 x2 ;\n"));
//! assert!(text.contains("-1 x1 -1 x2 >= -1 ;\n"));
//! ```

use crate::model::milp::{Model, ObjSense, Sense, Var, VarKind};
use std::io::{self, Write};

/// Why a model cannot be written as OPB.
#[derive(Debug, thiserror::Error)]
pub enum OpbError {
    /// A variable that is not 0/1.
    #[error(
        "variable {0} is not 0/1 (OPB holds pseudo-Boolean models only: write this model as lp or mps)"
    )]
    NotBinary(String),
    /// A coefficient or right-hand side that is not a whole number.
    #[error("{0} has the coefficient {1}, not a whole number (OPB's coefficients are integers)")]
    NotWhole(String, f64),
    /// A row without terms that no assignment satisfies.
    #[error("row {0} has no terms and cannot hold")]
    EmptyRow(String),
    /// The output failed.
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// A whole number, or the error naming `what`.
fn whole(v: f64, what: impl FnOnce() -> String) -> Result<i64, OpbError> {
    if v.is_finite() && v.fract() == 0.0 && v.abs() < 9.0e15 {
        Ok(v as i64)
    } else {
        Err(OpbError::NotWhole(what(), v))
    }
}

/// What a row of the model becomes, once checked: nothing (no terms, and it holds), or a
/// constraint of its sense.
fn checked_row(model: &Model, r: crate::model::milp::RowId) -> Result<Option<Sense>, OpbError> {
    let name = || format!("row {}", model.row_name(r));
    let mut terms = 0;
    for (v, c) in model.row_terms(r) {
        if whole(c, || format!("{} at {}", name(), model.var_name(v)))? != 0 {
            terms += 1;
        }
    }
    let rhs = whole(model.row_rhs(r), || {
        format!("the right-hand side of {}", name())
    })?;
    let sense = model.row_sense(r);
    if terms > 0 {
        return Ok(Some(sense));
    }
    let holds = match sense {
        Sense::Le => 0 <= rhs,
        Sense::Ge => 0 >= rhs,
        Sense::Eq => rhs == 0,
    };
    if holds {
        Ok(None)
    } else {
        Err(OpbError::EmptyRow(model.row_name(r).to_string()))
    }
}

/// The value a 0/1 variable's bounds fix it at, if they do; an error for a variable that is
/// not 0/1.
fn fixed_value(model: &Model, v: Var) -> Result<Option<i64>, OpbError> {
    let (lb, ub) = model.var_bounds(v);
    let binary = match model.var_kind(v) {
        VarKind::Binary => true,
        VarKind::Integer | VarKind::Continuous => lb >= 0.0 && ub <= 1.0 && lb <= ub,
    };
    // A continuous variable in [0, 1] is 0/1 only when its bounds pin it.
    let pinned = lb == ub;
    if !binary || (model.var_kind(v) == VarKind::Continuous && !pinned) {
        return Err(OpbError::NotBinary(model.var_name(v).to_string()));
    }
    // Bounds inside [0, 1] on a 0/1 variable fix it at the one value they allow.
    Ok((pinned || lb > 0.0 || ub < 1.0).then_some(if lb > 0.0 { 1 } else { 0 }))
}

/// Write `model` as OPB. The model is checked whole before the first byte (one pass that
/// keeps nothing but a count), then written straight from it: no copy of the matrix.
pub fn write_opb(model: &Model, out: impl Write) -> Result<(), OpbError> {
    let mut w = io::BufWriter::new(out);
    let mut constraints = 0;
    for v in model.vars() {
        constraints += usize::from(fixed_value(model, v)?.is_some());
    }
    for r in model.rows() {
        constraints += usize::from(checked_row(model, r)?.is_some());
    }
    let sign = match model.objective_sense() {
        ObjSense::Minimize => 1,
        ObjSense::Maximize => -1,
    };
    for (v, c) in model.objective_terms() {
        whole(c, || format!("the objective at {}", model.var_name(v)))?;
    }
    writeln!(
        w,
        "* #variable= {} #constraint= {constraints}",
        model.num_vars()
    )?;
    writeln!(w, "* {} written by tilekit", model.name())?;
    if sign < 0 {
        writeln!(
            w,
            "* the objective {} is maximised: this is its negation, minimised",
            model.objective_name()
        )?;
    }
    for v in model.vars() {
        writeln!(w, "* x{} = {}", v.index() + 1, model.var_name(v))?;
    }
    // Every coefficient was checked whole above, so the casts below are exact.
    w.write_all(b"min:")?;
    for (v, c) in model.objective_terms() {
        let c = sign * c as i64;
        if c != 0 {
            write!(w, " {c:+} x{}", v.index() + 1)?;
        }
    }
    w.write_all(b" ;\n")?;
    for v in model.vars() {
        if let Some(value) = fixed_value(model, v)? {
            writeln!(w, "+1 x{} = {value} ;", v.index() + 1)?;
        }
    }
    for r in model.rows() {
        let Some(sense) = checked_row(model, r)? else {
            continue;
        };
        // PB16 has `>=` and `=` only: a `<=` row is written as the `>=` of its negation.
        let flip = if sense == Sense::Le { -1 } else { 1 };
        let mut first = true;
        for (v, c) in model.row_terms(r) {
            let c = flip * c as i64;
            if c == 0 {
                continue;
            }
            if !first {
                w.write_all(b" ")?;
            }
            first = false;
            write!(w, "{c:+} x{}", v.index() + 1)?;
        }
        let rhs = flip * model.row_rhs(r) as i64;
        writeln!(
            w,
            " {} {rhs} ;",
            if sense == Sense::Eq { "=" } else { ">=" }
        )?;
    }
    w.flush()?;
    Ok(())
}

/// Write a weighted partial MaxSAT formula as WBO, the pseudo-Boolean competition's weighted
/// Boolean optimisation format: each hard clause a constraint, each soft clause a constraint
/// with its weight in brackets, no upper bound on the cost (`soft: ;`). A clause
/// `l1 ∨ … ∨ lk` becomes `Σ x(positive) − Σ x(negated) ≥ 1 − (negated literals)`, since a
/// negated literal ¬x is 1 − x. Variables are `x1`, `x2`, … in the formula's order, each named
/// in a comment. The optimum cost is the formula's: the weight of the soft clauses left false.
///
/// ```
/// use tilekit::format::opb::write_wbo;
/// use tilekit::model::cnf::Cnf;
/// use tilekit::model::wcnf::Wcnf;
/// let mut hard = Cnf::new();
/// let (a, b) = (hard.new_var("a"), hard.new_var("b"));
/// hard.add_clause(&[a.negative(), b.negative()]);
/// let mut w = Wcnf::new(hard);
/// w.add_soft(2, &[a.positive()]);
/// let mut out = Vec::new();
/// write_wbo(&w, &mut out).unwrap();
/// let text = String::from_utf8(out).unwrap();
/// assert!(text.contains("-1 x1 -1 x2 >= -1 ;\n"));
/// assert!(text.contains("[2] +1 x1 >= 1 ;\n"));
/// ```
pub fn write_wbo(wcnf: &crate::model::wcnf::Wcnf, out: impl Write) -> io::Result<()> {
    use crate::model::cnf::Lit;
    let mut w = io::BufWriter::new(out);
    let hard = wcnf.hard();
    let weights: Vec<u64> = wcnf.soft().map(|(weight, _)| weight).collect();
    writeln!(
        w,
        "* #variable= {} #constraint= {} #soft= {} mincost= {} maxcost= {} sumcost= {}",
        wcnf.num_vars(),
        hard.num_clauses(),
        weights.len(),
        weights.iter().min().copied().unwrap_or(0),
        weights.iter().max().copied().unwrap_or(0),
        wcnf.total_soft_weight()
    )?;
    writeln!(w, "* written by tilekit")?;
    for v in 0..hard.num_vars() {
        let name = hard.var_name(crate::model::cnf::BoolVar(v as u32));
        writeln!(w, "* x{} = {name}", v + 1)?;
    }
    w.write_all(b"soft: ;\n")?;
    let clause = |w: &mut io::BufWriter<_>, lits: &[Lit]| -> io::Result<()> {
        let mut negated = 0i64;
        for (i, l) in lits.iter().enumerate() {
            if i > 0 {
                w.write_all(b" ")?;
            }
            let sign = if l.is_negated() {
                negated += 1;
                '-'
            } else {
                '+'
            };
            write!(w, "{sign}1 x{}", l.var().index() + 1)?;
        }
        writeln!(w, " >= {} ;", 1 - negated)
    };
    for (weight, lits) in wcnf.soft() {
        write!(w, "[{weight}] ")?;
        clause(&mut w, lits)?;
    }
    for lits in hard.clauses() {
        clause(&mut w, lits)?;
    }
    w.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_bounds_and_objective_in_pb16_form() {
        let mut m = Model::new("t");
        let a = m.add_var("a", VarKind::Binary, 0.0, 1.0).unwrap();
        let b = m.add_var("b", VarKind::Integer, 0.0, 1.0).unwrap();
        let c = m.add_var("c", VarKind::Integer, 1.0, 1.0).unwrap();
        m.add_row("ge", &[(a, 1.0), (b, 2.0)], Sense::Ge, 1.0)
            .unwrap();
        m.add_row("eq", &[(b, 1.0), (c, -1.0)], Sense::Eq, 0.0)
            .unwrap();
        m.add_row("empty", &[], Sense::Le, 3.0).unwrap();
        m.set_objective("cost", ObjSense::Minimize, &[(a, 1.0), (c, 4.0)])
            .unwrap();
        let mut out = Vec::new();
        write_opb(&m, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            text,
            "* #variable= 3 #constraint= 3\n* t written by tilekit\n* x1 = a\n* x2 = b\n* x3 = c\n\
             min: +1 x1 +4 x3 ;\n+1 x3 = 1 ;\n+1 x1 +2 x2 >= 1 ;\n+1 x2 -1 x3 = 0 ;\n"
        );
    }

    #[test]
    fn models_that_are_not_pseudo_boolean_are_refused() {
        let mut m = Model::new("t");
        let a = m.add_var("pos", VarKind::Integer, 0.0, 15.0).unwrap();
        m.set_objective("o", ObjSense::Minimize, &[(a, 1.0)])
            .unwrap();
        let e = write_opb(&m, Vec::new()).unwrap_err().to_string();
        assert!(e.starts_with("variable pos is not 0/1"), "{e}");
        let mut m = Model::new("t");
        let a = m.add_var("a", VarKind::Binary, 0.0, 1.0).unwrap();
        m.add_row("half", &[(a, 0.5)], Sense::Le, 1.0).unwrap();
        let e = write_opb(&m, Vec::new()).unwrap_err().to_string();
        assert!(
            e.starts_with("row half at a has the coefficient 0.5"),
            "{e}"
        );
        let mut m = Model::new("t");
        m.add_var("a", VarKind::Binary, 0.0, 1.0).unwrap();
        m.add_row("never", &[], Sense::Ge, 1.0).unwrap();
        let e = write_opb(&m, Vec::new()).unwrap_err().to_string();
        assert_eq!(e, "row never has no terms and cannot hold");
    }
}
