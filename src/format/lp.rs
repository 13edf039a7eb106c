//! CPLEX LP writer, restricted to the subset CBC 2.10.8, HiGHS 1.15.1 and GLPK 5.0 all
//! read the same way (the rules are listed under "Writer rules" in
//! `docs/src/reference/formats.md`).
//!
//! Output is streamed: bytes go into a reusable buffer that is handed to the sink every
//! 64 KiB, numbers are formatted with `itoa`/`ryu`, and nothing iterates a hash map, so the
//! same model always gives the same bytes. The small `Sink`/`NumFmt` helpers are shared
//! with the MPS writer.

use std::io::{self, Write};

use crate::model::milp::{Model, ObjSense, Sense, Var, VarKind};

/// Hand the buffer to the sink once it holds this many bytes.
const FLUSH_AT: usize = 64 * 1024;

/// Longest line the LP writer produces: CPLEX's documented limit is 510 (older) or 560.
pub(crate) const MAX_LINE: usize = 500;

/// Name of the row written when the model has none (GLPK rejects an empty `Subject To`).
pub(crate) const DUMMY_ROW: &str = "dummy_row";

/// Name of the fixed-at-zero column written when the model has no variables, so that the
/// objective and the rows have something to refer to.
pub(crate) const DUMMY_VAR: &str = "dummy_var";

/// A byte buffer in front of a writer that counts what it passes on.
pub(crate) struct Sink<W: Write> {
    buf: Vec<u8>,
    out: W,
    written: u64,
}

impl<W: Write> Sink<W> {
    pub(crate) fn new(out: W) -> Self {
        Sink {
            // Slack so one long line past the threshold never reallocates.
            buf: Vec::with_capacity(FLUSH_AT + 4096),
            out,
            written: 0,
        }
    }

    #[inline]
    pub(crate) fn put(&mut self, b: &[u8]) {
        self.buf.extend_from_slice(b);
    }

    #[inline]
    pub(crate) fn put_str(&mut self, s: &str) {
        self.buf.extend_from_slice(s.as_bytes());
    }

    #[inline]
    pub(crate) fn byte(&mut self, b: u8) {
        self.buf.push(b);
    }

    /// Pass the buffer on if it is full enough; call between lines or terms.
    #[inline]
    pub(crate) fn maybe_flush(&mut self) -> io::Result<()> {
        if self.buf.len() >= FLUSH_AT {
            self.flush_buf()
        } else {
            Ok(())
        }
    }

    fn flush_buf(&mut self) -> io::Result<()> {
        self.out.write_all(&self.buf)?;
        self.written += self.buf.len() as u64;
        self.buf.clear();
        Ok(())
    }

    /// Write out what is left, flush the writer, and return the total byte count.
    pub(crate) fn finish(mut self) -> io::Result<u64> {
        self.flush_buf()?;
        self.out.flush()?;
        Ok(self.written)
    }
}

/// Number formatting that every reader takes the same way: integral values as integers (never `3.0`, never `-0`),
/// everything else as ryu's shortest round-trip form (which may use an exponent).
#[derive(Default)]
pub(crate) struct NumFmt {
    int: itoa::Buffer,
    float: ryu::Buffer,
}

impl NumFmt {
    #[inline]
    pub(crate) fn fmt(&mut self, v: f64) -> &str {
        // Below 1e16 every integral f64 fits an i64 exactly, so the round trip through the
        // (truncating) cast tests integrality without a `trunc` libm call; `-0.0 as i64` is
        // 0. Larger integral values come out of ryu as `1e16`, which every reader takes.
        if v.abs() < 1e16 {
            let i = v as i64;
            if i as f64 == v {
                return self.int.format(i);
            }
        }
        self.float.format(v)
    }
}

/// The model name made safe for a comment or an MPS `NAME` field: printable ASCII with no
/// spaces (the name is not validated by [`Model::new`]).
pub(crate) fn safe_model_name(name: &str) -> String {
    name.chars()
        .map(|c| if c.is_ascii_graphic() { c } else { '_' })
        .collect()
}

/// Both formats put the objective and the rows in one namespace; a clash would silently
/// merge them in MPS and is an error in CPLEX.
pub(crate) fn check_objective_name(model: &Model) -> io::Result<()> {
    let obj = model.objective_name();
    if let Some(r) = model.rows().find(|&r| model.row_name(r) == obj) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "row {} has the same name as the objective",
                model.row_name(r)
            ),
        ));
    }
    Ok(())
}

/// Words an LP reader may take for a keyword when they stand alone as a variable name
/// (compared case-insensitively). Measured: HiGHS 1.15.1 fails to parse variables named
/// `free`, `bin`, `gen`, `end`, `bound(s)`, `min`/`max`/`minimize`/`minimum`/…, `binary`,
/// `general`, `integer(s)`, `semi`, `sos`; CBC 2.10.8 fails on `st` and `subject`. The rest
/// are CPLEX keywords too. Row and objective names are followed by `:`, which settles it.
const LP_KEYWORDS: &[&str] = &[
    "bin", "binaries", "binary", "bound", "bounds", "end", "free", "gen", "general", "generals",
    "int", "integer", "integers", "max", "maximise", "maximize", "maximum", "min", "minimise",
    "minimize", "minimum", "semi", "semis", "sos", "st", "subject", "such",
];

/// Why `name` cannot be written to an LP file, if it cannot. Any name (variable, row or
/// objective) starting with `inf` or `nan` in any case is read by HiGHS 1.15.1 as a number
/// (`inflow` = `inf` + `low`) and fails to parse [measured]; variable names must also not
/// be keywords ([`LP_KEYWORDS`]).
pub(crate) fn lp_name_problem(name: &str, is_var: bool) -> Option<&'static str> {
    let b = name.as_bytes();
    // Fast exit: every keyword and both prefixes start with one of these letters.
    if !matches!(
        b.first().map(u8::to_ascii_lowercase),
        Some(b'b' | b'e' | b'f' | b'g' | b'i' | b'm' | b'n' | b's')
    ) {
        return None;
    }
    if b.len() >= 3 && (b[..3].eq_ignore_ascii_case(b"inf") || b[..3].eq_ignore_ascii_case(b"nan"))
    {
        return Some("starts with 'inf' or 'nan', which HiGHS reads as a number");
    }
    if is_var && b.len() <= 8 && LP_KEYWORDS.iter().any(|k| k.eq_ignore_ascii_case(name)) {
        return Some("is an LP keyword");
    }
    None
}

/// Reject names the LP readers would misparse, before a single byte is written.
fn check_lp_names(model: &Model) -> io::Result<()> {
    let bad = |what: &str, name: &str, why: &str| {
        Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{what} name {name:?} cannot be written to an LP file: it {why}"),
        ))
    };
    if let Some(why) = lp_name_problem(model.objective_name(), false) {
        return bad("objective", model.objective_name(), why);
    }
    for v in model.vars() {
        if let Some(why) = lp_name_problem(model.var_name(v), true) {
            return bad("variable", model.var_name(v), why);
        }
    }
    for r in model.rows() {
        if let Some(why) = lp_name_problem(model.row_name(r), false) {
            return bad("row", model.row_name(r), why);
        }
    }
    Ok(())
}

/// Write `model` as a CPLEX LP file and return the number of bytes written.
///
/// Every variable appears in the objective, in model order (with `0` where it has no
/// objective coefficient), so every solver numbers the columns of its solution in model
/// order; GLPK's `-w` output identifies columns by position only. A model with no rows gets
/// the row `dummy_row: 0 x >= 0`; a model with no variables gets a column `dummy_var`
/// fixed at 0, which a solver then reports as an extra column. Lines are wrapped to at most
/// 500 characters, continuation lines starting with the sign of the next term.
///
/// Fails with [`io::ErrorKind::InvalidInput`], before writing anything, if a row is named
/// like the objective or a name would be misread by an LP reader (a variable named like a
/// keyword such as `free` or `bin`, or any name starting with `inf`/`nan`; MPS has no such
/// restriction), and with any error of `out`.
pub fn write_lp<W: Write>(model: &Model, out: W) -> io::Result<u64> {
    check_objective_name(model)?;
    check_lp_names(model)?;
    let mut s = Sink::new(out);
    let mut nf = NumFmt::default();
    let mut tail_nf = NumFmt::default();
    let n = model.num_vars();

    // Header comment.
    s.put(b"\\ tilekit LP: model ");
    s.put_str(&safe_model_name(model.name()));
    s.put(b", ");
    s.put_str(itoa::Buffer::new().format(n));
    s.put(b" variables, ");
    s.put_str(itoa::Buffer::new().format(model.num_rows()));
    s.put(b" rows, ");
    s.put_str(itoa::Buffer::new().format(model.num_nonzeros()));
    s.put(b" non-zeros\n");

    s.put(match model.objective_sense() {
        ObjSense::Minimize => b"Minimize\n",
        ObjSense::Maximize => b"Maximize\n",
    });
    let label = model.objective_name();
    s.byte(b' ');
    s.put_str(label);
    s.byte(b':');
    let mut line = label.len() + 2;
    if n == 0 {
        s.put(b" 0 ");
        s.put_str(DUMMY_VAR);
    }
    for v in model.vars() {
        term(
            &mut s,
            &mut nf,
            &mut line,
            v.index() == 0,
            model.objective_coef(v),
            model.var_name(v),
            0,
        );
        s.maybe_flush()?;
    }
    s.put(b"\nSubject To\n");

    let first_var = if n == 0 {
        DUMMY_VAR
    } else {
        model.var_name(Var(0))
    };
    if model.num_rows() == 0 {
        s.put(b" ");
        s.put_str(DUMMY_ROW);
        s.put(b": 0 ");
        s.put_str(first_var);
        s.put(b" >= 0\n");
    }
    for r in model.rows() {
        let name = model.row_name(r);
        s.byte(b' ');
        s.put_str(name);
        s.byte(b':');
        line = name.len() + 2;
        let sense: &[u8] = match model.row_sense(r) {
            Sense::Le => b" <= ",
            Sense::Ge => b" >= ",
            Sense::Eq => b" = ",
        };
        let rhs = tail_nf.fmt(model.row_rhs(r));
        let tail = sense.len() + rhs.len();
        let terms = model.row_terms(r);
        let count = terms.len();
        if count == 0 {
            // A row needs at least one term; `0 x` is read the same by all three solvers.
            s.put(b" 0 ");
            s.put_str(first_var);
        }
        for (k, (v, c)) in terms.enumerate() {
            let t = if k + 1 == count { tail } else { 0 };
            term(&mut s, &mut nf, &mut line, k == 0, c, model.var_name(v), t);
        }
        s.put(sense);
        s.put_str(rhs);
        s.byte(b'\n');
        s.maybe_flush()?;
    }

    write_bounds(model, &mut s, &mut nf)?;
    write_name_list(model, &mut s, b"Generals\n", VarKind::Integer)?;
    write_name_list(model, &mut s, b"Binaries\n", VarKind::Binary)?;
    s.put(b"End\n");
    s.finish()
}

/// Append one term ` + c name` (or `- name` for -1), starting a continuation line first if
/// the term plus `tail` (what must follow it on the same line) would pass [`MAX_LINE`].
#[inline(always)]
fn term<W: Write>(
    s: &mut Sink<W>,
    nf: &mut NumFmt,
    line: &mut usize,
    first: bool,
    coef: f64,
    name: &str,
    tail: usize,
) {
    let neg = coef < 0.0;
    let mag = coef.abs();
    let num = if mag == 1.0 { "" } else { nf.fmt(mag) };
    // " - " + num + " " + name
    let len = 3 + num.len() + usize::from(!num.is_empty()) + name.len();
    if *line + len + tail > MAX_LINE {
        s.byte(b'\n');
        *line = 0;
    }
    let sign: &[u8] = match (neg, first, *line == 0) {
        (false, true, false) => b" ",
        (false, _, true) => b"+ ",
        (true, _, true) => b"- ",
        (false, false, false) => b" + ",
        (true, _, false) => b" - ",
    };
    s.put(sign);
    s.put_str(num);
    if !num.is_empty() {
        s.byte(b' ');
    }
    s.put_str(name);
    *line += len;
}

/// The `Bounds` section: every non-default bound, written explicitly with signed
/// infinities (GLPK reads `1e30` as a finite number and rejects an unsigned `inf`).
fn write_bounds<W: Write>(model: &Model, s: &mut Sink<W>, nf: &mut NumFmt) -> io::Result<()> {
    let mut header = false;
    if model.num_vars() == 0 {
        s.put(b"Bounds\n ");
        s.put_str(DUMMY_VAR);
        s.put(b" = 0\n");
        return Ok(());
    }
    for v in model.vars() {
        if model.var_kind(v) == VarKind::Binary {
            continue; // `Binaries` sets [0, 1] itself.
        }
        let (lb, ub) = model.var_bounds(v);
        if lb == 0.0 && ub == f64::INFINITY {
            continue;
        }
        if !header {
            s.put(b"Bounds\n");
            header = true;
        }
        let name = model.var_name(v);
        s.byte(b' ');
        if lb == ub {
            s.put_str(name);
            s.put(b" = ");
            s.put_str(nf.fmt(lb));
        } else if lb == f64::NEG_INFINITY && ub == f64::INFINITY {
            s.put_str(name);
            s.put(b" free");
        } else if ub == f64::INFINITY {
            s.put_str(name);
            s.put(b" >= ");
            s.put_str(nf.fmt(lb));
        } else {
            // Both sides, so `x <= -3` can never leave lb at its default 0.
            if lb == f64::NEG_INFINITY {
                s.put(b"-inf");
            } else {
                s.put_str(nf.fmt(lb));
            }
            s.put(b" <= ");
            s.put_str(name);
            s.put(b" <= ");
            s.put_str(nf.fmt(ub));
        }
        s.byte(b'\n');
        s.maybe_flush()?;
    }
    Ok(())
}

/// A `Generals`/`Binaries` section listing the variables of `kind`, space-separated and
/// wrapped; omitted when there are none.
fn write_name_list<W: Write>(
    model: &Model,
    s: &mut Sink<W>,
    header: &[u8],
    kind: VarKind,
) -> io::Result<()> {
    let mut line = 0;
    let mut any = false;
    for v in model.vars().filter(|&v| model.var_kind(v) == kind) {
        if !any {
            s.put(header);
            any = true;
        }
        let name = model.var_name(v);
        if line > 0 && line + 1 + name.len() > MAX_LINE {
            s.byte(b'\n');
            line = 0;
        }
        s.byte(b' ');
        s.put_str(name);
        line += 1 + name.len();
        s.maybe_flush()?;
    }
    if any {
        s.byte(b'\n');
    }
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::model::milp::{Model, ObjSense, Sense, VarKind};

    const INF: f64 = f64::INFINITY;

    /// One model with every feature the writers handle.
    pub(crate) fn feature_model() -> Model {
        let mut m = Model::new("features");
        let free = m.add_var("v_free", VarKind::Continuous, -INF, INF).unwrap();
        let neg = m.add_var("neg", VarKind::Continuous, -5.0, -1.5).unwrap();
        let upneg = m.add_var("upneg", VarKind::Continuous, -INF, -2.0).unwrap();
        let lo = m.add_var("lo", VarKind::Continuous, 0.25, INF).unwrap();
        let fixed = m.add_var("fixed", VarKind::Continuous, 3.0, 3.0).unwrap();
        let ib = m.add_var("ib", VarKind::Integer, -2.0, 7.0).unwrap();
        let iu = m.add_var("iu", VarKind::Integer, 0.0, INF).unwrap();
        let ilo = m.add_var("ilo", VarKind::Integer, 1.0, INF).unwrap();
        let bin = m.add_var("v_bin", VarKind::Binary, 0.0, 1.0).unwrap();
        let plain = m.add_var("plain", VarKind::Continuous, 0.0, INF).unwrap();
        let unused = m.add_var("unused", VarKind::Continuous, 0.0, 10.0).unwrap();
        let _ = unused;
        m.set_objective(
            "cost",
            ObjSense::Minimize,
            &[
                (free, 1.0),
                (neg, -2.5),
                (ib, 3.0),
                (bin, 1e-7),
                (plain, 0.1 + 0.2),
            ],
        )
        .unwrap();
        m.add_row(
            "le_row",
            &[(free, 1.0), (neg, -1.0), (ib, 0.1)],
            Sense::Le,
            4.5,
        )
        .unwrap();
        m.add_row("ge_row", &[(upneg, 2.0), (lo, 1.0)], Sense::Ge, -3.0)
            .unwrap();
        // Keeps the minimisation bounded, so solvers can be run on this model too.
        m.add_row("floor", &[(free, 1.0), (lo, -1.0)], Sense::Ge, -1e6)
            .unwrap();
        m.add_row(
            "eq_row",
            &[(iu, 1.0), (ilo, -1.0), (bin, 1.0), (fixed, 1.0)],
            Sense::Eq,
            0.0,
        )
        .unwrap();
        // Terms out of order with a duplicate: the model merges them to `2 plain + 0.5 ib`.
        m.add_row(
            "merged",
            &[(plain, 1.5), (ib, 0.5), (plain, 0.5)],
            Sense::Le,
            1e-9,
        )
        .unwrap();
        m
    }

    /// A small maximisation.
    pub(crate) fn max_model() -> Model {
        let mut m = Model::new("tiny max");
        let x = m.add_var("x", VarKind::Continuous, 0.0, 3.0).unwrap();
        let y = m.add_var("y", VarKind::Binary, 0.0, 1.0).unwrap();
        let z = m.add_var("z", VarKind::Integer, 0.0, INF).unwrap();
        m.set_objective("obj", ObjSense::Maximize, &[(x, 3.0), (y, 2.0), (z, 4.0)])
            .unwrap();
        m.add_row("c1", &[(x, 1.0), (y, 1.0), (z, 2.0)], Sense::Le, 4.0)
            .unwrap();
        m.add_row("c2", &[(x, 1.0), (y, 3.0), (z, 1.0)], Sense::Le, 5.5)
            .unwrap();
        m.add_row("c3", &[(x, 1.0), (y, -1.0)], Sense::Ge, -1.0)
            .unwrap();
        m
    }

    fn lp_string(m: &Model) -> String {
        let mut out = Vec::new();
        let n = write_lp(m, &mut out).unwrap();
        assert_eq!(n as usize, out.len(), "returned byte count");
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn snapshot_every_feature() {
        insta::assert_snapshot!("lp_features", lp_string(&feature_model()));
    }

    #[test]
    fn snapshot_maximize() {
        insta::assert_snapshot!("lp_maximize", lp_string(&max_model()));
    }

    #[test]
    fn degenerate_models_stay_readable() {
        let empty = Model::new("empty");
        let text = lp_string(&empty);
        assert!(text.contains(" obj: 0 dummy_var\n"), "{text}");
        assert!(text.contains(" dummy_row: 0 dummy_var >= 0\n"), "{text}");
        assert!(text.contains(" dummy_var = 0\n"), "{text}");

        let mut m = Model::new("norows");
        m.add_var("a", VarKind::Continuous, 0.0, INF).unwrap();
        let text = lp_string(&m);
        assert!(text.contains(" dummy_row: 0 a >= 0\n"), "{text}");
        assert!(!text.contains("Bounds"), "{text}");
        assert!(text.ends_with("End\n"));

        // A row left with no terms still needs one to be a row.
        let a = Var(0);
        m.add_row("r", &[(a, 1.0), (a, -1.0)], Sense::Ge, 2.0)
            .unwrap();
        let text = lp_string(&m);
        assert!(text.contains(" r: 0 a >= 2\n"), "{text}");
    }

    #[test]
    fn objective_named_like_a_row_is_rejected() {
        let mut m = max_model();
        m.add_row("obj", &[(Var(0), 1.0)], Sense::Le, 1.0).unwrap();
        let err = write_lp(&m, Vec::new()).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
    }

    #[test]
    fn names_lp_readers_misparse_are_rejected() {
        // The model refuses them at build time (check_name); the writer's own check is a
        // second line of defence for models built some other way.
        for (var, row) in [
            ("free", "r"),
            ("BIN", "r"),
            ("Inflow", "r"),
            ("x", "nan_row"),
        ] {
            let mut m = Model::new("t");
            let rejected = match m.add_var(var, VarKind::Continuous, 0.0, 1.0) {
                Err(_) => true,
                Ok(x) => m.add_row(row, &[(x, 1.0)], Sense::Le, 1.0).is_err(),
            };
            assert!(rejected, "{var} {row}");
        }
        // Keywords are fine as parts of names.
        let mut m = Model::new("t");
        let x = m.add_var("free_x", VarKind::Continuous, 0.0, 1.0).unwrap();
        let y = m.add_var("in_f", VarKind::Continuous, 0.0, 1.0).unwrap();
        m.add_row("free_row", &[(x, 1.0), (y, 1.0)], Sense::Le, 1.0)
            .unwrap();
        assert!(write_lp(&m, Vec::new()).is_ok());
    }

    #[test]
    fn numbers_are_integral_or_shortest() {
        let mut nf = NumFmt::default();
        assert_eq!(nf.fmt(3.0), "3");
        assert_eq!(nf.fmt(-0.0), "0");
        assert_eq!(nf.fmt(-7.0), "-7");
        assert_eq!(nf.fmt(0.1), "0.1");
        assert_eq!(nf.fmt(1e-9), "1e-9");
        assert_eq!(nf.fmt(1e20), "1e20");
        assert_eq!(nf.fmt(9999999999999998.0), "9999999999999998");
        assert_eq!(nf.fmt(0.30000000000000004), "0.30000000000000004");
    }

    #[test]
    fn writing_twice_gives_identical_bytes() {
        let m = feature_model();
        let (mut a, mut b) = (Vec::new(), Vec::new());
        write_lp(&m, &mut a).unwrap();
        write_lp(&m, &mut b).unwrap();
        assert_eq!(a, b);
        assert!(!a.is_empty());
    }

    #[test]
    fn long_rows_are_wrapped() {
        let mut m = Model::new("wide");
        let vars: Vec<_> = (0..2000)
            .map(|i| {
                m.add_var(
                    &format!("a_long_variable_name_{i}"),
                    VarKind::Integer,
                    0.0,
                    9.0,
                )
                .unwrap()
            })
            .collect();
        let terms: Vec<_> = vars
            .iter()
            .enumerate()
            .map(|(i, &v)| {
                (
                    v,
                    if i % 3 == 0 {
                        -1.0
                    } else {
                        1.0 + i as f64 / 7.0
                    },
                )
            })
            .collect();
        m.set_objective("obj", ObjSense::Minimize, &terms).unwrap();
        m.add_row("wide_row", &terms, Sense::Le, 123456.789)
            .unwrap();
        let text = lp_string(&m);
        let longest = text.lines().map(str::len).max().unwrap();
        assert!(longest <= 510, "line of {longest} characters");
        // Continuation lines start with a sign, and the row still ends with its sense and rhs.
        let row_at = text.find(" wide_row:").unwrap();
        let row_end = text[row_at..].find("<= 123456.789\n").unwrap();
        let row = &text[row_at..row_at + row_end];
        assert!(row.lines().count() > 10);
        for cont in row.lines().skip(1) {
            assert!(cont.starts_with("+ ") || cont.starts_with("- "), "{cont:?}");
        }
        // Objective, row, Bounds and Generals each name every variable once.
        assert_eq!(text.matches("a_long_variable_name_").count(), 2000 * 4);
    }

    /// A sink that accepts only a few bytes and then fails, to check errors propagate.
    struct Failing(usize);
    impl Write for Failing {
        fn write(&mut self, b: &[u8]) -> io::Result<usize> {
            if self.0 < b.len() {
                return Err(io::Error::other("disk full"));
            }
            self.0 -= b.len();
            Ok(b.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn write_errors_propagate() {
        let err = write_lp(&feature_model(), Failing(10)).unwrap_err();
        assert_eq!(err.to_string(), "disk full");
    }
}
