//! DIMACS graph format (the max-clique input of cliquer and the DIMACS 2nd challenge), written
//! by streaming a [`StreamedGraph`]: memory stays proportional to the nodes, whatever the
//! number of edges.
//!
//! Layout written (vertices 1-based):
//! ```text
//! c <the graph's description>
//! c nodes N, edges M
//! c v 1 <label of node 0>
//! …
//! p edge N M
//! e 1 2
//! …
//! ```
//! The second line ends ` (complement: the conflict graph)` when the complement is written;
//! the `c v` lines come only with `labels`. Edges come sorted by (smaller end, larger end),
//! each once. The edge count in the `p` line is computed before any edge is written, and
//! checked against the edges actually written.

use crate::model::graph::StreamedGraph;
use std::io::{self, Write};

/// Flush the byte buffer to the writer once it is this large: big enough that the writer sees
/// few, large writes (a graph can run to gigabytes).
const CHUNK: usize = 1 << 20;

/// Write `g` (or its complement, the conflict graph, when `complement`) as DIMACS `p edge`.
/// With `labels`, every vertex gets a `c v N label` comment line before the `p` line.
/// Deterministic. Returns the number of edges written.
///
/// Fails with [`io::ErrorKind::InvalidData`] if the graph lists a different number of edges
/// than [`StreamedGraph::count_edges`] announced (a bug in the graph, caught rather than
/// written as a file that solvers misread).
pub fn write_graph<G: StreamedGraph + ?Sized, W: Write>(
    g: &G,
    complement: bool,
    labels: bool,
    out: W,
) -> io::Result<u64> {
    write_graph_counted(g, complement, labels, out, &mut |_| Ok(()))
}

/// An upper bound on the bytes of the edge lines of a graph of `n` nodes and `m` edges
/// (`e U V`, each number at most as long as `n`): what a file needs on disk, known before it
/// is written.
pub fn edge_bytes_bound(n: usize, m: u64) -> u64 {
    let digits = n.checked_ilog10().map_or(1, |d| d as u64 + 1);
    m.saturating_mul(4 + 2 * digits)
}

/// [`write_graph`], calling `written_so_far(edges)` with the number of edges written so far
/// each time a buffer of about a megabyte goes out (for a progress bar: the total is
/// [`StreamedGraph::count_edges`]). An error it returns stops the writing and is returned (a
/// deadline passed, say).
pub fn write_graph_counted<G: StreamedGraph + ?Sized, W: Write>(
    g: &G,
    complement: bool,
    labels: bool,
    mut out: W,
    written_so_far: &mut dyn FnMut(u64) -> io::Result<()>,
) -> io::Result<u64> {
    let n = g.num_nodes();
    let m = g.count_edges(complement);
    let mut buf: Vec<u8> = Vec::with_capacity(CHUNK + 4096);
    let mut num = itoa::Buffer::new();
    let one_line = |s: String| s.replace(['\n', '\r'], " ");
    buf.extend_from_slice(b"c ");
    buf.extend_from_slice(one_line(g.describe()).as_bytes());
    buf.extend_from_slice(b"\nc nodes ");
    buf.extend_from_slice(num.format(n).as_bytes());
    buf.extend_from_slice(b", edges ");
    buf.extend_from_slice(num.format(m).as_bytes());
    buf.extend_from_slice(if complement {
        b" (complement: the conflict graph)\n".as_slice()
    } else {
        b"\n".as_slice()
    });
    if labels {
        for v in 0..n {
            buf.extend_from_slice(b"c v ");
            buf.extend_from_slice(num.format(v + 1).as_bytes());
            buf.push(b' ');
            buf.extend_from_slice(one_line(g.node_label(v)).as_bytes());
            buf.push(b'\n');
            if buf.len() >= CHUNK {
                out.write_all(&buf)?;
                buf.clear();
            }
        }
    }
    buf.extend_from_slice(b"p edge ");
    buf.extend_from_slice(num.format(n).as_bytes());
    buf.push(b' ');
    buf.extend_from_slice(num.format(m).as_bytes());
    buf.push(b'\n');

    let mut written = 0u64;
    let mut nbrs: Vec<u32> = Vec::new();
    let mut prefix: Vec<u8> = Vec::with_capacity(16);
    for u in 0..n {
        g.neighbours_above(u, complement, &mut nbrs);
        if nbrs.is_empty() {
            continue;
        }
        prefix.clear();
        prefix.extend_from_slice(b"e ");
        prefix.extend_from_slice(num.format(u + 1).as_bytes());
        prefix.push(b' ');
        for &v in &nbrs {
            buf.extend_from_slice(&prefix);
            buf.extend_from_slice(num.format(v + 1).as_bytes());
            buf.push(b'\n');
            if buf.len() >= CHUNK {
                out.write_all(&buf)?;
                buf.clear();
                written_so_far(written)?;
            }
        }
        written += nbrs.len() as u64;
    }
    out.write_all(&buf)?;
    out.flush()?;
    written_so_far(written)?;
    if written != m {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("the graph announced {m} edges but listed {written}"),
        ));
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The triangle 0 1 2 plus an isolated node 3, with a configurable wrong count.
    struct Tri {
        claimed: u64,
    }

    impl StreamedGraph for Tri {
        fn num_nodes(&self) -> usize {
            4
        }
        fn node_label(&self, v: usize) -> String {
            format!("node\n{v}")
        }
        fn describe(&self) -> String {
            "triangle".into()
        }
        fn count_edges(&self, complement: bool) -> u64 {
            if complement { 3 } else { self.claimed }
        }
        fn neighbours_above(&self, u: usize, complement: bool, out: &mut Vec<u32>) {
            out.clear();
            let all: &[u32] = match (u, complement) {
                (0, false) => &[1, 2],
                (1, false) => &[2],
                (0, true) | (1, true) | (2, true) => &[3],
                _ => &[],
            };
            out.extend_from_slice(all);
        }
    }

    #[test]
    fn edge_bytes_bound_holds_on_every_line() {
        // The longest line of an n-node graph is `e n n`: 4 + 2·digits(n) bytes.
        for (n, digits) in [(1, 1), (9, 1), (10, 2), (99, 2), (100, 3), (156_810, 6)] {
            let longest = format!("e {n} {n}\n").len() as u64;
            assert_eq!(longest, 4 + 2 * digits);
            assert_eq!(edge_bytes_bound(n, 3), 3 * longest);
        }
        assert_eq!(edge_bytes_bound(10, u64::MAX), u64::MAX);
    }

    #[test]
    fn writes_header_labels_and_sorted_edges() {
        let mut out = Vec::new();
        assert_eq!(
            write_graph(&Tri { claimed: 3 }, false, true, &mut out).unwrap(),
            3
        );
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "c triangle\nc nodes 4, edges 3\nc v 1 node 0\nc v 2 node 1\nc v 3 node 2\nc v 4 node 3\np edge 4 3\ne 1 2\ne 1 3\ne 2 3\n"
        );
        let mut out = Vec::new();
        write_graph(&Tri { claimed: 3 }, true, false, &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "c triangle\nc nodes 4, edges 3 (complement: the conflict graph)\np edge 4 3\ne 1 4\ne 2 4\ne 3 4\n"
        );
    }

    #[test]
    fn a_wrong_edge_count_is_caught() {
        let e = write_graph(&Tri { claimed: 4 }, false, false, io::sink()).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidData);
        assert_eq!(e.to_string(), "the graph announced 4 edges but listed 3");
    }
}
