//! Free-format MPS writer, restricted to what CBC 2.10.8, HiGHS 1.15.1 and GLPK 5.0
//! (`--freemps`) read the same way.
//!
//! Two traps shape the output. There is no `OBJSENSE` section (CBC 2.10.8 ignores it and
//! GLPK rejects it), so a maximisation is written as the minimisation of the negated
//! objective; multiply the reported objective by [`mps_objective_sign`] to get the model's.
//! And every integer column gets explicit bounds, because all three solvers give an integer
//! column without bounds an upper bound of 1.

use std::io::{self, Write};

use super::lp::{DUMMY_ROW, DUMMY_VAR, NumFmt, check_objective_name, safe_model_name};
use crate::model::milp::{Model, ObjSense, Sense, VarKind};

/// Hand the buffer to the writer once it holds this many bytes.
const FLUSH_AT: usize = 256 * 1024;

/// Room past [`FLUSH_AT`] for one line plus the over-copy of fixed-size chunks (a line is at
/// most 2 + 63 + 2 × (1 + 63 + 1 + 24) + 1 bytes; copies run up to 64 bytes past its end).
const SLACK: usize = 1024;

/// Fixed chunk size of the name copies: a name (with its separator) of at most this many
/// bytes is copied as one fixed-size block, which compiles to two vector moves instead of a
/// `memcpy` call; the bytes past the name are overwritten by what follows.
const CHUNK: usize = 32;

/// An output buffer written through a cursor: the `Vec` always has its full length, so
/// fixed-size copies may run past the data written so far without reallocating.
struct Buf<W: Write> {
    buf: Vec<u8>,
    pos: usize,
    out: W,
    written: u64,
}

impl<W: Write> Buf<W> {
    fn new(out: W) -> Self {
        Buf {
            buf: vec![0; FLUSH_AT + SLACK],
            pos: 0,
            out,
            written: 0,
        }
    }

    #[inline]
    fn put(&mut self, b: &[u8]) {
        if self.pos + b.len() > self.buf.len() {
            // Only reachable from a single put longer than the slack (model names).
            self.buf.resize(self.pos + b.len() + SLACK, 0);
        }
        self.buf[self.pos..self.pos + b.len()].copy_from_slice(b);
        self.pos += b.len();
    }

    #[inline]
    fn put_str(&mut self, s: &str) {
        self.put(s.as_bytes());
    }

    #[inline]
    fn byte(&mut self, b: u8) {
        self.buf[self.pos] = b;
        self.pos += 1;
    }

    /// Append the first `len` bytes of `src`, where `src` holds at least `len` bytes and
    /// at least [`CHUNK`] bytes when `len <= CHUNK` (a padded name).
    #[inline(always)]
    fn put_padded(&mut self, src: &[u8], len: usize) {
        if len <= CHUNK {
            let chunk: &[u8; CHUNK] = src[..CHUNK].try_into().expect("padded source");
            let dst: &mut [u8; CHUNK] = (&mut self.buf[self.pos..self.pos + CHUNK])
                .try_into()
                .expect("slack");
            *dst = *chunk;
            self.pos += len;
        } else {
            self.put_long(&src[..len]);
        }
    }

    /// The rare long name, kept out of line so that the short path stays a fixed-size copy
    /// (merged into one branch, both would become a `memcpy` call).
    #[cold]
    #[inline(never)]
    fn put_long(&mut self, b: &[u8]) {
        self.buf[self.pos..self.pos + b.len()].copy_from_slice(b);
        self.pos += b.len();
    }

    /// Append `v` as [`NumFmt::fmt`] does, writing small integers digit by digit.
    #[inline(always)]
    fn num(&mut self, nf: &mut NumFmt, v: f64) {
        let i = v as i64;
        if i as f64 == v && (-99..=99).contains(&i) {
            let mut u = i;
            if u < 0 {
                self.byte(b'-');
                u = -u;
            }
            if u >= 10 {
                self.byte(b'0' + (u / 10) as u8);
            }
            self.byte(b'0' + (u % 10) as u8);
        } else {
            self.put_long(nf.fmt(v).as_bytes());
        }
    }

    /// Pass the buffer on if it is full enough; call between lines.
    #[inline]
    fn maybe_flush(&mut self) -> io::Result<()> {
        if self.pos >= FLUSH_AT {
            self.flush_buf()
        } else {
            Ok(())
        }
    }

    fn flush_buf(&mut self) -> io::Result<()> {
        self.out.write_all(&self.buf[..self.pos])?;
        self.written += self.pos as u64;
        self.pos = 0;
        Ok(())
    }

    fn finish(mut self) -> io::Result<u64> {
        self.flush_buf()?;
        self.out.flush()?;
        Ok(self.written)
    }
}

/// An index type for the writer's own tables: `u32` when everything fits (half the memory
/// and bandwidth), `usize` otherwise.
trait Idx: Copy + Default + std::ops::AddAssign {
    const ONE: Self;
    fn from_usize(i: usize) -> Self;
    fn ix(self) -> usize;
}

impl Idx for u32 {
    const ONE: Self = 1;
    #[inline(always)]
    fn from_usize(i: usize) -> Self {
        i as u32
    }
    #[inline(always)]
    fn ix(self) -> usize {
        self as usize
    }
}

impl Idx for usize {
    const ONE: Self = 1;
    #[inline(always)]
    fn from_usize(i: usize) -> Self {
        i
    }
    #[inline(always)]
    fn ix(self) -> usize {
        self
    }
}

/// The row names, each followed by a space, back to back in one padded allocation, so an
/// entry's row name is one fixed-size copy from a contiguous table.
struct RowNames<I> {
    bytes: Vec<u8>,
    /// Row r's `name ` is `bytes[off[r]..off[r + 1]]`.
    off: Vec<I>,
}

impl<I: Idx> RowNames<I> {
    #[inline(always)]
    fn get(&self, r: usize) -> (&[u8], usize) {
        let (a, b) = (self.off[r].ix(), self.off[r + 1].ix());
        (&self.bytes[a..], b - a)
    }
}

/// The constraint matrix column by column (a counting-sort transpose of the rows): column
/// j's entries are `start[j]..start[j + 1]` of `row`/`val`, in increasing row order.
struct Columns<I> {
    start: Vec<I>,
    row: Vec<u32>,
    val: Vec<f64>,
}

fn transpose<I: Idx>(model: &Model) -> Columns<I> {
    let n = model.num_vars();
    let nnz = model.num_nonzeros();
    // Counts go to start[j + 2] so that after the prefix sum start[j + 1] is where column
    // j begins; the scatter then advances start[j + 1] to column j's end, which is column
    // j + 1's beginning: no second cursor array.
    let mut start = vec![I::default(); n + 2];
    for r in model.rows() {
        for (v, _) in model.row_terms(r) {
            start[v.index() + 2] += I::ONE;
        }
    }
    let mut acc = I::default();
    for s in &mut start[2..] {
        acc += *s;
        *s = acc;
    }
    let mut row = vec![0u32; nnz];
    let mut val = vec![0f64; nnz];
    for r in model.rows() {
        for (v, a) in model.row_terms(r) {
            let slot = &mut start[v.index() + 1];
            let k = slot.ix();
            row[k] = r.0;
            val[k] = a;
            *slot += I::ONE;
        }
    }
    start.pop();
    Columns { start, row, val }
}

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
/// Columns are written in model order (so solvers number them in model order), two entries
/// per line; a column with no entries gets an explicit `0` objective entry so that it still
/// exists. A maximisation is written negated, see [`mps_objective_sign`]. A model with no
/// variables gets a column `dummy_var` fixed at 0, a model with no rows an empty row
/// `dummy_row`. The `NAME` line ends in `FREE` (CBC 2.10.8 otherwise guesses fixed format
/// per line) and the `RHS` header is always present (CBC rejects `BOUNDS` right after
/// `COLUMNS`).
///
/// Fails with [`io::ErrorKind::InvalidInput`] if a row is named like the objective, and
/// with any error of `out`.
pub fn write_mps<W: Write>(model: &Model, out: W) -> io::Result<u64> {
    write_mps_named(model, model.name(), out)
}

/// [`write_mps`] with `name` on the `NAME` line instead of the model's own, so that the files
/// of one benchmark set can each carry their file's name, as MIPLIB's do (models of one size
/// and horizon share the formulation's name).
///
/// ```
/// use tilekit::model::milp::Model;
/// let mut out = Vec::new();
/// tilekit::format::mps::write_mps_named(&Model::new("m"), "korf100_1_T53", &mut out).unwrap();
/// assert!(String::from_utf8(out).unwrap().contains("NAME korf100_1_T53 FREE\n"));
/// ```
pub fn write_mps_named<W: Write>(model: &Model, name: &str, out: W) -> io::Result<u64> {
    check_objective_name(model)?;
    let name_bytes: usize = model.rows().map(|r| model.row_name(r).len() + 1).sum();
    if model.num_nonzeros() < u32::MAX as usize && name_bytes < u32::MAX as usize {
        write_body::<u32, W>(model, name, out, name_bytes)
    } else {
        write_body::<usize, W>(model, name, out, name_bytes)
    }
}

fn write_body<I: Idx, W: Write>(
    model: &Model,
    name: &str,
    out: W,
    name_bytes: usize,
) -> io::Result<u64> {
    let mut s = Buf::new(out);
    let mut nf = NumFmt::default();
    let sign = mps_objective_sign(model);
    let obj = model.objective_name();
    let name = safe_model_name(name);

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
    // The ROWS section, building the row-name table on the way.
    let mut names = RowNames::<I> {
        bytes: Vec::with_capacity(name_bytes + CHUNK),
        off: Vec::with_capacity(model.num_rows() + 1),
    };
    names.off.push(I::default());
    for r in model.rows() {
        s.put(match model.row_sense(r) {
            Sense::Le => b" L ",
            Sense::Ge => b" G ",
            Sense::Eq => b" E ",
        });
        let row = model.row_name(r).as_bytes();
        s.put(row);
        s.byte(b'\n');
        names.bytes.extend_from_slice(row);
        names.bytes.push(b' ');
        names.off.push(I::from_usize(names.bytes.len()));
        s.maybe_flush()?;
    }
    names.bytes.resize(names.bytes.len() + CHUNK, 0);

    s.put(b"COLUMNS\n");
    let cols = transpose::<I>(model);
    // ` obj `, padded for fixed-size copies.
    let mut obj_pad = Vec::with_capacity(obj.len() + 2 + CHUNK);
    obj_pad.push(b' ');
    obj_pad.extend_from_slice(obj.as_bytes());
    obj_pad.push(b' ');
    let obj_len = obj_pad.len();
    obj_pad.resize(obj_len + CHUNK, 0);
    // ` column `, padded, rebuilt once per column.
    let mut col = [0u8; 2 * CHUNK + 2 + CHUNK];
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
        let vname = model.var_name(v).as_bytes();
        let col_len = vname.len() + 2;
        col[0] = b' ';
        col[1..=vname.len()].copy_from_slice(vname);
        col[vname.len() + 1] = b' ';
        let c = model.objective_coef(v);
        let (a, b) = (cols.start[v.index()].ix(), cols.start[v.index() + 1].ix());
        let rows = &cols.row[a..b];
        let vals = &cols.val[a..b];
        let mut k = 0;
        if c != 0.0 || a == b {
            // The objective entry, and the first matrix entry if any, on one line.
            s.put_padded(&col, col_len);
            s.put_padded(&obj_pad[1..], obj_len - 1);
            s.num(&mut nf, sign * c);
            if let (Some(&r), Some(&x)) = (rows.first(), vals.first()) {
                s.byte(b' ');
                let (nm, len) = names.get(r as usize);
                s.put_padded(nm, len);
                s.num(&mut nf, x);
                k = 1;
            }
            s.byte(b'\n');
        }
        // Two entries per line.
        let (rows, vals) = (&rows[k..], &vals[k..]);
        let mut pairs_r = rows.chunks_exact(2);
        let mut pairs_v = vals.chunks_exact(2);
        for (r, x) in (&mut pairs_r).zip(&mut pairs_v) {
            s.put_padded(&col, col_len);
            let (nm, len) = names.get(r[0] as usize);
            s.put_padded(nm, len);
            s.num(&mut nf, x[0]);
            s.byte(b' ');
            let (nm, len) = names.get(r[1] as usize);
            s.put_padded(nm, len);
            s.num(&mut nf, x[1]);
            s.byte(b'\n');
            s.maybe_flush()?;
        }
        if let (&[r], &[x]) = (pairs_r.remainder(), pairs_v.remainder()) {
            s.put_padded(&col, col_len);
            let (nm, len) = names.get(r as usize);
            s.put_padded(nm, len);
            s.num(&mut nf, x);
            s.byte(b'\n');
        }
        s.maybe_flush()?;
    }
    drop(cols);
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
        let (nm, len) = names.get(r.index());
        s.put_padded(nm, len);
        s.num(&mut nf, b);
        if pending {
            s.byte(b'\n');
            s.maybe_flush()?;
        }
        pending = !pending;
    }
    if pending {
        s.byte(b'\n');
    }
    drop(names);

    write_bounds(model, &mut s, &mut nf)?;
    s.put(b"ENDATA\n");
    s.finish()
}

/// The `BOUNDS` section. Integer columns always get an upper bound (`UP` or `PL`), since a
/// bare integer column is read as binary; `MI` always precedes a negative `UP`, since the
/// solvers disagree on the lower bound a negative `UP` implies.
fn write_bounds<W: Write>(model: &Model, s: &mut Buf<W>, nf: &mut NumFmt) -> io::Result<()> {
    let mut header = false;
    let mut bound = |s: &mut Buf<W>, kind: &[u8], col: &str, value: Option<f64>| {
        if !header {
            s.put(b"BOUNDS\n");
            header = true;
        }
        s.put(kind);
        s.put(b" BND ");
        s.put_str(col);
        if let Some(x) = value {
            s.byte(b' ');
            s.num(nf, x);
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
    fn long_names_and_numbers_take_the_slow_path_unchanged() {
        // Names longer than one fixed-size chunk, and numbers outside the small-integer
        // fast path, must come out exactly as written by hand.
        let long = |c: char| std::iter::repeat_n(c, 63).collect::<String>();
        let (col, row, obj) = (format!("c{}", long('x')), long('r'), long('o'));
        let (col, row, obj) = (&col[..63], &row[..], &obj[..]);
        let mut m = Model::new("long");
        let v = m.add_var(col, VarKind::Continuous, 0.0, 1.0).unwrap();
        let w = m.add_var("w", VarKind::Continuous, 0.0, 1.0).unwrap();
        m.set_objective(obj, ObjSense::Minimize, &[(v, 123.0), (w, -100.0)])
            .unwrap();
        m.add_row(row, &[(v, 0.5), (w, 99.0)], Sense::Le, -1e300)
            .unwrap();
        m.add_row("s", &[(v, -99.0), (w, 1e-300)], Sense::Ge, 1234567.0)
            .unwrap();
        let text = mps_string(&m);
        assert!(
            text.contains(&format!("\n {col} {obj} 123 {row} 0.5\n {col} s -99\n")),
            "{text}"
        );
        assert!(
            text.contains(&format!("\n w {obj} -100 {row} 99\n w s 1e-300\n")),
            "{text}"
        );
        assert!(
            text.contains(&format!("\n RHS {row} -1e300 s 1234567\n")),
            "{text}"
        );
        assert!(
            text.contains(&format!("\n N {obj}\n L {row}\n G s\n")),
            "{text}"
        );
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
