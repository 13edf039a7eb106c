//! WCNF (weighted partial MaxSAT) in two dialects: the MaxSAT Evaluation 2022 format, with no
//! header and hard clauses marked `h`, and the older format with a `p wcnf V C TOP` header,
//! where a clause of weight `TOP` is hard (clasp 3.3 and sat4j read only this one).
//!
//! Layout written (2022, the default):
//! ```text
//! c tilekit WCNF (MaxSAT Evaluation 2022 format): 3 variables, 2 hard clauses, 1 soft clauses of total weight 1
//! c var 1 x_p1_r0_c0_t0
//! …
//! h 1 -2 0
//! …
//! 1 3 0
//! ```
//! and in the legacy dialect the same comments, then `p wcnf 3 3 2`, every hard clause
//! prefixed by `TOP` (the soft weights' sum plus one, so that no set of soft clauses
//! outweighs one hard clause) instead of `h`, and the same soft lines.
//!
//! Sources: "MaxSAT Evaluation 2022: input format" (maxsat-evaluations.github.io/2022/rules.html)
//! and, for the legacy format, the rules of the 2017–2021 evaluations.

use crate::model::wcnf::Wcnf;
use std::io::{self, Write};

/// Flush the byte buffer to the writer once it is this large.
const CHUNK: usize = 1 << 16;

/// Which WCNF dialect to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// MaxSAT Evaluation 2022: no header, `h` for hard clauses (RC2, EvalMaxSAT, UWrMaxSat,
    /// Open-WBO as of their 2022 versions).
    Mse2022,
    /// The `p wcnf V C TOP` header, hard clauses of weight TOP (clasp, sat4j, older solvers).
    Legacy,
}

impl Dialect {
    /// Words for the header comment.
    fn describe(self) -> &'static str {
        match self {
            Dialect::Mse2022 => "MaxSAT Evaluation 2022 format",
            Dialect::Legacy => "p wcnf format",
        }
    }
}

/// Write `w` in `dialect`: a header comment, one `c var N name` comment per named variable,
/// the legacy `p wcnf` line, the hard clauses, then the soft clauses, each on one line ending
/// in `0`. Deterministic. Returns the number of bytes written. The legacy dialect refuses a
/// formula whose soft weights sum to `u64::MAX` or more (no TOP above them fits).
pub fn write_wcnf<W: Write>(w: &Wcnf, dialect: Dialect, mut out: W) -> io::Result<u64> {
    let total_weight = w.total_soft_weight();
    let top = match dialect {
        Dialect::Mse2022 => None,
        Dialect::Legacy => Some(total_weight.checked_add(1).ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                "the soft weights sum past u64: no `p wcnf` TOP weight above them exists",
            )
        })?),
    };
    let mut buf: Vec<u8> = Vec::with_capacity(CHUNK + 1024);
    let mut total = 0u64;
    let mut num = itoa::Buffer::new();
    let mut flush = |buf: &mut Vec<u8>, out: &mut W, force: bool| -> io::Result<()> {
        if force || buf.len() >= CHUNK {
            out.write_all(buf)?;
            total += buf.len() as u64;
            buf.clear();
        }
        Ok(())
    };
    let hard = w.hard();
    let (vars, hards, softs) = (w.num_vars(), hard.num_clauses(), w.num_soft());
    buf.extend_from_slice(b"c tilekit WCNF (");
    buf.extend_from_slice(dialect.describe().as_bytes());
    buf.extend_from_slice(b"): ");
    buf.extend_from_slice(num.format(vars).as_bytes());
    buf.extend_from_slice(b" variables, ");
    buf.extend_from_slice(num.format(hards).as_bytes());
    buf.extend_from_slice(b" hard clauses, ");
    buf.extend_from_slice(num.format(softs).as_bytes());
    buf.extend_from_slice(b" soft clauses of total weight ");
    buf.extend_from_slice(num.format(total_weight).as_bytes());
    buf.push(b'\n');
    for v in 0..vars {
        let name = hard.var_name(crate::model::cnf::BoolVar(v as u32));
        if !name.is_empty() {
            super::dimacs_cnf::push_var_comment(&mut buf, &mut num, v, name);
            flush(&mut buf, &mut out, false)?;
        }
    }
    if let Some(top) = top {
        buf.extend_from_slice(b"p wcnf ");
        buf.extend_from_slice(num.format(vars).as_bytes());
        buf.push(b' ');
        buf.extend_from_slice(num.format(hards + softs).as_bytes());
        buf.push(b' ');
        buf.extend_from_slice(num.format(top).as_bytes());
        buf.push(b'\n');
    }
    let clause = |buf: &mut Vec<u8>, num: &mut itoa::Buffer, lits: &[crate::model::cnf::Lit]| {
        for l in lits {
            buf.push(b' ');
            buf.extend_from_slice(num.format(l.to_dimacs()).as_bytes());
        }
        buf.extend_from_slice(b" 0\n");
    };
    for c in hard.clauses() {
        match top {
            Some(top) => buf.extend_from_slice(num.format(top).as_bytes()),
            None => buf.push(b'h'),
        }
        clause(&mut buf, &mut num, c);
        flush(&mut buf, &mut out, false)?;
    }
    for (weight, c) in w.soft() {
        buf.extend_from_slice(num.format(weight).as_bytes());
        clause(&mut buf, &mut num, c);
        flush(&mut buf, &mut out, false)?;
    }
    flush(&mut buf, &mut out, true)?;
    out.flush()?;
    Ok(total)
}

/// The Global Benchmark Database's identifier of a WCNF file (gbd-tools' `wcnf` hash), in
/// either dialect: the MD5 of the clauses with comments and the header left out, each hard
/// clause as `h` and its literals, each soft one as its weight and its literals, so that the
/// 2022 and the legacy layout of one formula share it only where gbd-tools says they do.
///
/// gbd-tools' own reader is token-based and has two quirks this reproduces, since the point
/// of the identifier is to equal theirs: a `h` clause is not followed by the separating blank
/// that every other clause gets (so hard clauses written first run together), and a legacy
/// weight is rewritten as a plain decimal while a 2022 weight is hashed as written.
///
/// ```
/// use tilekit::format::wcnf::gbd_hash;
/// let a = gbd_hash("c x\nh 1 -2 0\n3 1 0\n".as_bytes()).unwrap();
/// let b = gbd_hash("h  1 -2\n 0 3 1 0".as_bytes()).unwrap();
/// assert_eq!(a, b);
/// assert_eq!(a.len(), 32);
/// ```
pub fn gbd_hash(input: impl io::Read) -> io::Result<String> {
    use md5::{Digest, Md5};
    use std::io::BufRead;
    let bad = |what: &str| io::Error::new(io::ErrorKind::InvalidData, what.to_string());
    let mut md5 = Md5::new();
    let mut reader = io::BufReader::with_capacity(256 * 1024, input);
    let mut line = Vec::with_capacity(4096);
    // The legacy header's TOP (0: the 2022 dialect); a clause has been hashed with its
    // separator; inside a clause (its terminating 0 not yet read).
    let (mut top, mut notfirst, mut open) = (0u64, false, false);
    loop {
        line.clear();
        if reader.read_until(b'\n', &mut line)? == 0 {
            break;
        }
        for segment in line.split(|&b| b == b'\r') {
            let mut tokens = segment
                .split(|b| b.is_ascii_whitespace())
                .filter(|t| !t.is_empty());
            while let Some(mut token) = tokens.next() {
                if !open {
                    match token[0] {
                        b'c' => break,
                        b'p' => {
                            let mut rest = tokens.by_ref().skip(if token == b"p" { 1 } else { 0 });
                            let t = rest
                                .nth(2)
                                .ok_or_else(|| bad("a p line without its top weight"))?;
                            top = std::str::from_utf8(t)
                                .ok()
                                .and_then(|t| t.parse().ok())
                                .ok_or_else(|| bad("a p line whose top weight is not a number"))?;
                            break;
                        }
                        b'h' => {
                            if notfirst {
                                md5.update(b" ");
                            }
                            md5.update(b"h ");
                            open = true;
                            token = &token[1..];
                            if token.is_empty() {
                                continue;
                            }
                        }
                        _ => {
                            if notfirst {
                                md5.update(b" ");
                            }
                            notfirst = true;
                            open = true;
                            if top > 0 {
                                let weight: u64 = std::str::from_utf8(token)
                                    .ok()
                                    .and_then(|t| t.parse().ok())
                                    .ok_or_else(|| bad("a clause weight that is not a number"))?;
                                if weight >= top {
                                    md5.update(b"h ");
                                } else {
                                    md5.update(itoa::Buffer::new().format(weight).as_bytes());
                                    md5.update(b" ");
                                }
                                continue;
                            }
                        }
                    }
                }
                let token = token.strip_prefix(b"+").unwrap_or(token);
                let digits = token.strip_prefix(b"-").unwrap_or(token);
                if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
                    return Err(bad("a literal that is not a number"));
                }
                if token == b"0" {
                    md5.update(b"0");
                    open = false;
                } else {
                    md5.update(token);
                    md5.update(b" ");
                }
            }
        }
    }
    if open {
        md5.update(b"0");
    }
    Ok(md5.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::cnf::Cnf;

    /// The identifiers gbd-tools 5.3.2 (`gbdc identify`) gave these two files: one formula in
    /// the 2022 and the legacy layout, which its reader hashes apart.
    #[test]
    fn gbd_hash_equals_gbd_tools_on_both_dialects() {
        let new = "c hi\nh 1 -2 0\n3 1 0\n5 -1 2 0\n";
        let legacy = "p wcnf 2 3 9\n9 1 -2 0\n3 1 0\n5 -1 2 0\n";
        assert_eq!(
            gbd_hash(new.as_bytes()).unwrap(),
            "8140595154de2b0c74df6afc2a720bcf"
        );
        assert_eq!(
            gbd_hash(legacy.as_bytes()).unwrap(),
            "01e035502b041d532fa63c89fa78d2de"
        );
        assert!(gbd_hash("h 1 x 0\n".as_bytes()).is_err());
        assert!(gbd_hash("p wcnf 2\n".as_bytes()).is_err());
    }

    fn tiny() -> Wcnf {
        let mut hard = Cnf::new();
        let a = hard.new_var("a");
        let b = hard.new_var("b two");
        let c = hard.new_var("");
        hard.add_clause(&[a.positive(), b.positive()]);
        hard.add_clause(&[a.negative(), b.negative()]);
        let mut w = Wcnf::new(hard);
        w.add_soft(1, &[a.positive()]);
        w.add_soft(3, &[b.negative(), c.positive()]);
        w
    }

    fn written(w: &Wcnf, d: Dialect) -> String {
        let mut out = Vec::new();
        let n = write_wcnf(w, d, &mut out).unwrap();
        assert_eq!(n as usize, out.len());
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn both_dialects_of_a_tiny_formula() {
        let w = tiny();
        assert_eq!(
            written(&w, Dialect::Mse2022),
            "c tilekit WCNF (MaxSAT Evaluation 2022 format): 3 variables, 2 hard clauses, 2 soft clauses of total weight 4\n\
             c var 1 a\nc var 2 b_two\n\
             h 1 2 0\nh -1 -2 0\n1 1 0\n3 -2 3 0\n"
        );
        assert_eq!(
            written(&w, Dialect::Legacy),
            "c tilekit WCNF (p wcnf format): 3 variables, 2 hard clauses, 2 soft clauses of total weight 4\n\
             c var 1 a\nc var 2 b_two\n\
             p wcnf 3 4 5\n5 1 2 0\n5 -1 -2 0\n1 1 0\n3 -2 3 0\n"
        );
    }

    #[test]
    fn large_output_is_chunked_and_identical() {
        let mut hard = Cnf::new();
        let vars: Vec<_> = (0..5000).map(|i| hard.new_var(format!("v{i}"))).collect();
        for p in vars.windows(2) {
            hard.add_clause(&[p[0].negative(), p[1].positive()]);
        }
        let mut w = Wcnf::new(hard);
        for v in &vars {
            w.add_soft(7, &[v.negative()]);
        }
        for d in [Dialect::Mse2022, Dialect::Legacy] {
            let a = written(&w, d);
            assert!(a.len() > 2 * CHUNK);
            assert_eq!(a, written(&w, d));
            assert_eq!(
                a.lines().filter(|l| !l.starts_with('c')).count() as u64,
                4999 + 5000 + u64::from(d == Dialect::Legacy)
            );
        }
    }

    #[test]
    fn a_top_past_u64_is_refused() {
        let mut hard = Cnf::new();
        let a = hard.new_var("a");
        let mut w = Wcnf::new(hard);
        w.add_soft(u64::MAX, &[a.positive()]);
        let e = write_wcnf(&w, Dialect::Legacy, Vec::new()).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
        assert!(write_wcnf(&w, Dialect::Mse2022, Vec::new()).is_ok());
    }
}
