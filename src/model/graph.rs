//! Solver-neutral undirected graphs for max-clique (and, through the complement, maximum
//! independent set) models.
//!
//! Clique graphs of edge-matching puzzles have up to ~1.2·10^10 edges (16×16), so a graph is
//! described by its nodes and a way to **stream** each node's neighbours; edges are never
//! stored. Nodes are 0-based here; only the DIMACS code (`format::dimacs_graph`) numbers them
//! from 1.

/// An undirected simple graph whose edges are produced on demand.
///
/// Implementations must be deterministic: the same graph always lists the same neighbours in
/// the same (ascending) order, so that written files are byte-identical.
pub trait StreamedGraph {
    /// Number of nodes; nodes are `0..num_nodes()`.
    fn num_nodes(&self) -> usize;

    /// A one-line human description of node `v` (written as a DIMACS comment), without
    /// newlines.
    fn node_label(&self, v: usize) -> String;

    /// A one-line description of the whole graph (what the nodes and edges mean).
    fn describe(&self) -> String;

    /// The number of edges of the graph, or of its complement when `complement` is true,
    /// computed without listing them.
    fn count_edges(&self, complement: bool) -> u64;

    /// Replace the contents of `out` with the neighbours `v > u` of node `u`, ascending; in the
    /// complement graph when `complement` is true. Every edge `{u, v}` is thus reported once,
    /// by its smaller end.
    fn neighbours_above(&self, u: usize, complement: bool, out: &mut Vec<u32>);

    /// Partitions of the nodes into sets that hold no edge, where the graph's structure
    /// gives them (an edge-matching graph's placements by cell and by piece): an exact
    /// clique search bounds a clique by the parts still holding a candidate. A solver checks
    /// each part before it relies on it. None by default.
    fn independent_sets(&self) -> Vec<Vec<Vec<usize>>> {
        Vec::new()
    }
}

/// The number of node pairs of an `n`-node graph, `n(n−1)/2`: a graph and its complement
/// have this many edges together.
pub fn pairs(n: usize) -> u64 {
    let n = n as u64;
    n * n.saturating_sub(1) / 2
}

/// Count the edges of `g` (or of its complement) by listing every neighbourhood: the slow,
/// obviously right count that tests hold [`StreamedGraph::count_edges`] against.
pub fn count_by_listing<G: StreamedGraph + ?Sized>(g: &G, complement: bool) -> u64 {
    let mut buf = Vec::new();
    (0..g.num_nodes())
        .map(|u| {
            g.neighbours_above(u, complement, &mut buf);
            buf.len() as u64
        })
        .sum()
}

/// `None` when `nodes` are pairwise adjacent in `g` (not in its complement), else the first
/// non-adjacent pair (smaller node first). A repeated node is paired with itself, and a node
/// out of range is returned as `(u, u)`.
pub fn first_non_adjacent<G: StreamedGraph + ?Sized>(
    g: &G,
    nodes: &[usize],
) -> Option<(usize, usize)> {
    let mut sorted = nodes.to_vec();
    sorted.sort_unstable();
    let mut buf = Vec::new();
    for (i, &u) in sorted.iter().enumerate() {
        if u >= g.num_nodes() {
            return Some((u, u));
        }
        g.neighbours_above(u, false, &mut buf);
        for &v in &sorted[i + 1..] {
            if v == u || buf.binary_search(&(v as u32)).is_err() {
                return Some((u, v));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The path 0 – 1 – 2.
    struct Path3;

    impl StreamedGraph for Path3 {
        fn num_nodes(&self) -> usize {
            3
        }
        fn node_label(&self, v: usize) -> String {
            format!("node {v}")
        }
        fn describe(&self) -> String {
            "a path".into()
        }
        fn count_edges(&self, complement: bool) -> u64 {
            if complement { 1 } else { 2 }
        }
        fn neighbours_above(&self, u: usize, complement: bool, out: &mut Vec<u32>) {
            out.clear();
            match (u, complement) {
                (0, false) | (1, false) => out.push(u as u32 + 1),
                (0, true) => out.push(2),
                _ => {}
            }
        }
    }

    #[test]
    fn listing_counts_and_clique_checks() {
        assert_eq!(count_by_listing(&Path3, false), 2);
        assert_eq!(count_by_listing(&Path3, true), 1);
        assert_eq!(pairs(3), 3);
        assert_eq!(pairs(0), 0);
        assert_eq!(first_non_adjacent(&Path3, &[1, 0]), None);
        assert_eq!(first_non_adjacent(&Path3, &[2, 0]), Some((0, 2)));
        assert_eq!(first_non_adjacent(&Path3, &[1, 1]), Some((1, 1)));
        assert_eq!(first_non_adjacent(&Path3, &[7]), Some((7, 7)));
    }
}
