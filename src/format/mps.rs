//! Free-format MPS writer, restricted to what CBC 2.10.8, HiGHS 1.15.1 and GLPK 5.0
//! (`--freemps`) read the same way (notes §3.2).
//!
//! Two traps shape the output. There is no `OBJSENSE` section (CBC 2.10.8 ignores it and
//! GLPK rejects it), so a maximisation is written as the minimisation of the negated
//! objective; multiply the reported objective by [`mps_objective_sign`] to get the model's.
//! And every integer column gets explicit bounds, because all three solvers give an integer
//! column without bounds an upper bound of 1.

use std::io::{self, Write};

use super::lp::{DUMMY_ROW, DUMMY_VAR, NumFmt, Sink, check_objective_name, safe_model_name};
use crate::model::milp::{Model, ObjSense, Sense, VarKind};

/// The factor between the objective written to MPS and the model's objective: `1.0` for a
/// minimisation, `-1.0` for a maximisation (written negated). A solver's reported optimum of
/// the MPS file times this factor is the model's optimum.
pub fn mps_objective_sign(model: &Model) -> f64 {
    match model.objective_sense() {
        ObjSense::Minimize => 1.0,
        ObjSense::Maximize => -1.0,
    }
}

/// Write `model` as a free MPS file and return the number of bytes written.
///
/// Columns are written in model order (so solvers number them in model order); a column
/// with no entries gets an explicit `0` objective entry so that it still exists. A
/// maximisation is written negated, see [`mps_objective_sign`]. A model with no variables
/// gets a column `dummy_var` fixed at 0, a model with no rows an empty row `dummy_row`.
/// The `NAME` line ends in `FREE` (CBC 2.10.8 otherwise guesses fixed format per line) and
/// the `RHS` header is always present (CBC rejects `BOUNDS` right after `COLUMNS`).
///
/// Fails with [`io::ErrorKind::InvalidInput`] if a row is named like the objective, and
/// with any error of `out`.
pub fn write_mps<W: Write>(model: &Model, out: W) -> io::Result<u64> {
    check_objective_name(model)?;
    let mut s = Sink::new(out);
    let mut nf = NumFmt::default();
    let sign = mps_objective_sign(model);
    let obj = model.objective_name();
    let name = safe_model_name(model);

    s.put(b"* tilekit free MPS: model ");
    s.put_str(&name);
    s.put(b", ");
    s.put_str(itoa::Buffer::new().format(model.num_vars()));
    s.put(b" variables, ");
    s.put_str(itoa::Buffer::new().format(model.num_rows()));
    s.put(b" rows, ");
    s.put_str(itoa::Buffer::new().format(model.num_nonzeros()));
    s.put(b" non-zeros\n");
    if sign < 0.0 {
        s.put(b"* objective negated: model maximises\n");
    }
    // `FREE` after the name is what makes CBC 2.10.8 parse every line as free format; without
    // it CoinMpsIO guesses per line, and reads e.g. ` UP BND x 3` as a fixed-format card
    // ("No match for column"). GLPK and HiGHS ignore the extra token. CBC takes the first
    // token as the name, so an empty name needs a stand-in.
    s.put(b"NAME ");
    s.put_str(if name.is_empty() { "unnamed" } else { &name });
    s.put(b" FREE\nROWS\n N ");
    s.put_str(obj);
    s.byte(b'\n');
    if model.num_rows() == 0 {
        // HiGHS warns about a model with no rows ("Row names are not present"); an empty
        // `>= 0` row is read as harmless by all three solvers.
        s.put(b" G ");
        s.put_str(DUMMY_ROW);
        s.byte(b'\n');
    }
    for r in model.rows() {
        s.put(match model.row_sense(r) {
            Sense::Le => b" L ",
            Sense::Ge => b" G ",
            Sense::Eq => b" E ",
        });
        s.put_str(model.row_name(r));
        s.byte(b'\n');
        s.maybe_flush()?;
    }

    s.put(b"COLUMNS\n");
    let cols = model.columns();
    let mut in_int = false;
    for v in model.vars() {
        let is_int = model.var_kind(v) != VarKind::Continuous;
        if is_int != in_int {
            s.put(if is_int {
                &b" MARKER 'MARKER' 'INTORG'\n"[..]
            } else {
                &b" MARKER 'MARKER' 'INTEND'\n"[..]
            });
            in_int = is_int;
        }
        let col = model.var_name(v);
        let c = model.objective_coef(v);
        let empty = cols.start[v.index()] == cols.start[v.index() + 1];
        // Two entries per line; `pending` says a line is open with one entry on it.
        let mut pending = false;
        if c != 0.0 || empty {
            s.byte(b' ');
            s.put_str(col);
            s.byte(b' ');
            s.put_str(obj);
            s.byte(b' ');
            s.put_str(nf.fmt(sign * c));
            pending = true;
        }
        for (r, a) in cols.column(v) {
            if pending {
                s.byte(b' ');
            } else {
                s.byte(b' ');
                s.put_str(col);
                s.byte(b' ');
            }
            s.put_str(model.row_name(r));
            s.byte(b' ');
            s.put_str(nf.fmt(a));
            if pending {
                s.byte(b'\n');
            }
            pending = !pending;
        }
        if pending {
            s.byte(b'\n');
        }
        s.maybe_flush()?;
    }
    if in_int {
        s.put(b" MARKER 'MARKER' 'INTEND'\n");
    }
    if model.num_vars() == 0 {
        s.byte(b' ');
        s.put_str(DUMMY_VAR);
        s.byte(b' ');
        s.put_str(obj);
        s.put(b" 0\n");
    }
    drop(cols);

    // RHS: non-zero entries only, never on the objective row (solvers disagree on its sign).
    // The header is written even when empty: CBC 2.10.8 rejects a BOUNDS section that
    // follows COLUMNS directly ("Bad image at line n < BOUNDS >") [measured].
    s.put(b"RHS\n");
    let mut pending = false;
    for r in model.rows() {
        let b = model.row_rhs(r);
        if b == 0.0 {
            continue;
        }
        s.put(if pending { &b" "[..] } else { &b" RHS "[..] });
        s.put_str(model.row_name(r));
        s.byte(b' ');
        s.put_str(nf.fmt(b));
        if pending {
            s.byte(b'\n');
        }
        pending = !pending;
        s.maybe_flush()?;
    }
    if pending {
        s.byte(b'\n');
    }

    write_bounds(model, &mut s, &mut nf)?;
    s.put(b"ENDATA\n");
    s.finish()
}

/// The `BOUNDS` section. Integer columns always get an upper bound (`UP` or `PL`), since a
/// bare integer column is read as binary; `MI` always precedes a negative `UP`, since the
/// solvers disagree on the lower bound a negative `UP` implies.
fn write_bounds<W: Write>(model: &Model, s: &mut Sink<W>, nf: &mut NumFmt) -> io::Result<()> {
    let mut header = false;
    let mut bound = |s: &mut Sink<W>, kind: &[u8], col: &str, value: Option<f64>| {
        if !header {
            s.put(b"BOUNDS\n");
            header = true;
        }
        s.put(kind);
        s.put(b" BND ");
        s.put_str(col);
        if let Some(x) = value {
            s.byte(b' ');
            s.put_str(nf.fmt(x));
        }
        s.byte(b'\n');
    };
    if model.num_vars() == 0 {
        bound(s, b" FX", DUMMY_VAR, Some(0.0));
    }
    for v in model.vars() {
        let col = model.var_name(v);
        let kind = model.var_kind(v);
        let (lb, ub) = model.var_bounds(v);
        if kind == VarKind::Binary {
            bound(s, b" BV", col, None);
        } else if lb == ub {
            bound(s, b" FX", col, Some(lb));
        } else if lb == f64::NEG_INFINITY && ub == f64::INFINITY {
            bound(s, b" FR", col, None);
        } else {
            if lb == f64::NEG_INFINITY {
                bound(s, b" MI", col, None);
            } else if lb != 0.0 {
                bound(s, b" LO", col, Some(lb));
            }
            if ub != f64::INFINITY {
                bound(s, b" UP", col, Some(ub));
            } else if kind == VarKind::Integer {
                bound(s, b" PL", col, None);
            }
        }
        s.maybe_flush()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::lp::tests::{feature_model, max_model};
    use crate::model::milp::Var;

    fn mps_string(m: &Model) -> String {
        let mut out = Vec::new();
        let n = write_mps(m, &mut out).unwrap();
        assert_eq!(n as usize, out.len(), "returned byte count");
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn snapshot_every_feature() {
        insta::assert_snapshot!("mps_features", mps_string(&feature_model()));
    }

    #[test]
    fn snapshot_maximize() {
        let m = max_model();
        assert_eq!(mps_objective_sign(&m), -1.0);
        let text = mps_string(&m);
        assert!(!text.contains("OBJSENSE"));
        assert!(text.contains("* objective negated: model maximises\n"));
        insta::assert_snapshot!("mps_maximize", text);
    }

    #[test]
    fn minimisation_is_not_negated() {
        let m = feature_model();
        assert_eq!(mps_objective_sign(&m), 1.0);
        let text = mps_string(&m);
        assert!(!text.contains("negated"));
        assert!(text.contains(" neg cost -2.5 "), "{text}");
    }

    #[test]
    fn degenerate_models_stay_readable() {
        let text = mps_string(&Model::new(""));
        assert!(text.contains("NAME unnamed FREE\n"), "{text}");
        assert!(text.contains(" dummy_var obj 0\n"), "{text}");
        assert!(text.contains(" FX BND dummy_var 0\n"), "{text}");
        assert!(text.contains(" G dummy_row\n"), "{text}");

        // A column with no entries at all must still be declared, or the columns shift.
        let mut m = Model::new("lonely");
        m.add_var("a", VarKind::Integer, 0.0, f64::INFINITY)
            .unwrap();
        m.add_var("b", VarKind::Continuous, 0.0, 1.0).unwrap();
        m.add_row("r", &[(Var(1), 1.0)], Sense::Le, 0.0).unwrap();
        let text = mps_string(&m);
        assert!(text.contains(" a obj 0\n"), "{text}");
        assert!(text.contains(" PL BND a\n"), "{text}");
        assert!(text.contains("COLUMNS\n"), "{text}");
        assert!(text.contains("\nRHS\nBOUNDS\n"), "{text}");
    }

    #[test]
    fn writing_twice_gives_identical_bytes() {
        let m = feature_model();
        let (mut a, mut b) = (Vec::new(), Vec::new());
        write_mps(&m, &mut a).unwrap();
        write_mps(&m, &mut b).unwrap();
        assert_eq!(a, b);
        assert!(!a.is_empty());
    }

    #[test]
    fn lines_stay_short_for_wide_rows() {
        let mut m = Model::new("wide");
        let terms: Vec<_> = (0..2000)
            .map(|i| {
                let v = m
                    .add_var(&format!("v_{i}"), VarKind::Continuous, 0.0, 1.0)
                    .unwrap();
                (v, 1.0 + i as f64)
            })
            .collect();
        m.set_objective("obj", ObjSense::Minimize, &terms).unwrap();
        m.add_row("wide_row", &terms, Sense::Ge, 1.0).unwrap();
        let text = mps_string(&m);
        assert!(text.lines().all(|l| l.len() <= 510));
        assert_eq!(text.matches(" wide_row ").count(), 2000 + 1);
    }
}
