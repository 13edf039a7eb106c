//! tilekit's own exact maximum-clique search, as a bitset graph ([`BitGraph`]), the search
//! ([`max_clique`], [`max_clique_partitioned`]) and the embedded engine `mcq` ([`Mcq`]), a
//! [`CliqueSolver`] beside the external cliquer, so that the clique route works with
//! nothing installed. Region Optimisation (`edge_search::region_clique`) runs the same search on its
//! windows.
//!
//! On a graph whose nodes fall into known independent sets
//! ([`StreamedGraph::independent_sets`]: an edge-matching graph's placements by cell and by
//! piece), the engine bounds the clique by the parts still holding a candidate, and stops as
//! soon as a clique has a node in every part: that clique is maximum. It checks every part
//! it is given, so a wrong hint is ignored, never trusted.
//!
//! ```
//! use tilekit::solve::clique_native::{BitGraph, max_clique};
//!
//! // A triangle 0-1-2 and a pendant 3.
//! let mut g = BitGraph::new(4);
//! for (u, v) in [(0, 1), (1, 2), (0, 2), (2, 3)] {
//!     g.add_edge(u, v);
//! }
//! let found = max_clique(&g, &[], usize::MAX, u64::MAX, None);
//! assert_eq!((found.clique, found.proven), (vec![0, 1, 2], true));
//! ```

use crate::field::Field;
use crate::model::answer::CliqueOutcome;
use crate::model::graph::StreamedGraph;
use crate::solve::{Capabilities, CliqueSolver, Limits, SolveError, Solver};
use std::time::Instant;

/// The largest graph the engine takes: its adjacency matrix holds n² bits, and 2 GB of it
/// (about 130,000 nodes) is as much as a solve should claim. Bigger graphs are for cliquer
/// or for the edge heuristics.
pub const MAX_NODES: usize = 130_000;

/// The embedded engine's registry name.
pub const NAME: &str = "mcq";

/// The exact search as an embedded [`CliqueSolver`] (registry name `mcq`, after Tomita and
/// Seki's MCQ, on which it is built).
#[derive(Debug, Clone, Copy, Default)]
pub struct Mcq;

/// The search's version, for `tilekit solvers` (it is tilekit's own).
pub fn version() -> String {
    format!("tilekit {}", env!("CARGO_PKG_VERSION"))
}

impl Solver for Mcq {
    fn name(&self) -> &str {
        NAME
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities {
            time_limit: true,
            threads: false,
            proofs: false,
            embedded: true,
        }
    }
}

impl CliqueSolver for Mcq {
    fn solve(
        &self,
        graph: &dyn StreamedGraph,
        limits: &Limits,
    ) -> Result<CliqueOutcome, SolveError> {
        let deadline = Instant::now() + limits.time;
        let n = graph.num_nodes();
        if n > MAX_NODES {
            return Err(SolveError::Engine {
                solver: self.name().into(),
                message: format!(
                    "the graph has {n} nodes; the embedded search takes at most {MAX_NODES} \
                     (its adjacency matrix holds n² bits): use cliquer ({f_solver} cliquer)",
                    f_solver = Field::Solver
                ),
            });
        }
        let g = BitGraph::from_streamed(graph);
        // Only partitions whose every part is independent in the graph bound the search.
        let parts: Vec<Vec<Vec<usize>>> = graph
            .independent_sets()
            .into_iter()
            .filter(|partition| partition.iter().all(|part| g.is_independent(part)))
            .collect();
        // A clique holds at most one node of each part: any checked partition's count of
        // parts bounds it.
        let upper = parts
            .iter()
            .map(|p| p.iter().filter(|part| !part.is_empty()).count())
            .min()
            .unwrap_or(usize::MAX);
        let found = max_clique_partitioned(&g, &[], upper, &parts, u64::MAX, Some(deadline));
        Ok(if found.proven {
            CliqueOutcome::Found(found.clique)
        } else {
            CliqueOutcome::TimeLimit
        })
    }
}

/// An undirected simple graph as a bitset adjacency matrix (one row of `u64` words per node),
/// the representation the clique search works on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BitGraph {
    n: usize,
    words: usize,
    adj: Vec<u64>,
}

impl BitGraph {
    /// The graph of `n` nodes and no edge.
    pub fn new(n: usize) -> BitGraph {
        let words = n.div_ceil(64);
        BitGraph {
            n,
            words,
            adj: vec![0; n * words],
        }
    }
    /// The number of nodes.
    pub fn num_nodes(&self) -> usize {
        self.n
    }
    /// Join `u` and `v` (a loop `u == v` is ignored: the graph stays simple).
    pub fn add_edge(&mut self, u: usize, v: usize) {
        if u != v {
            self.adj[u * self.words + v / 64] |= 1 << (v % 64);
            self.adj[v * self.words + u / 64] |= 1 << (u % 64);
        }
    }
    /// True when `u` and `v` are joined.
    pub fn has_edge(&self, u: usize, v: usize) -> bool {
        self.adj[u * self.words + v / 64] >> (v % 64) & 1 == 1
    }
    /// The neighbour set of `u`, as bitset words.
    fn row(&self, u: usize) -> &[u64] {
        &self.adj[u * self.words..(u + 1) * self.words]
    }
    /// The number of neighbours of `u`.
    pub fn degree(&self, u: usize) -> usize {
        self.row(u).iter().map(|w| w.count_ones() as usize).sum()
    }
    /// The number of edges.
    pub fn num_edges(&self) -> u64 {
        (0..self.n).map(|u| self.degree(u) as u64).sum::<u64>() / 2
    }
    /// True when no two of `nodes` are adjacent (and each is in range).
    pub fn is_independent(&self, nodes: &[usize]) -> bool {
        nodes.iter().enumerate().all(|(i, &u)| {
            u < self.n
                && nodes[i + 1..]
                    .iter()
                    .all(|&v| v < self.n && !self.has_edge(u, v))
        })
    }
    /// True when `nodes` are pairwise adjacent (distinct and in range).
    pub fn is_clique(&self, nodes: &[usize]) -> bool {
        nodes.iter().enumerate().all(|(i, &u)| {
            u < self.n
                && nodes[i + 1..]
                    .iter()
                    .all(|&v| v < self.n && self.has_edge(u, v))
        })
    }
    /// The graph of any [`StreamedGraph`] (its edges, not its complement's).
    pub fn from_streamed<G: StreamedGraph + ?Sized>(g: &G) -> BitGraph {
        let mut b = BitGraph::new(g.num_nodes());
        let mut buf = Vec::new();
        for u in 0..b.n {
            g.neighbours_above(u, false, &mut buf);
            for &v in &buf {
                b.add_edge(u, v as usize);
            }
        }
        b
    }
    /// The nodes `v > u` joined to `u` (or, with `complement`, not joined), ascending.
    pub fn above(&self, u: usize, complement: bool, out: &mut Vec<u32>) {
        out.clear();
        for v in u + 1..self.n {
            if self.has_edge(u, v) != complement {
                out.push(v as u32);
            }
        }
    }
}

/// What a [`max_clique`] search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CliqueSearch {
    /// The largest clique met, ascending node ids.
    pub clique: Vec<usize>,
    /// True when the search ran to the end, so no larger clique exists.
    pub proven: bool,
    /// Search nodes expanded.
    pub nodes: u64,
}

/// The largest clique of `g`, by exact branch and bound with greedy colouring bounds: the
/// MCQ algorithm of Tomita and Seki ("An efficient branch-and-bound algorithm for finding a
/// maximum clique", DMTCS 2003, LNCS 2731), with the bitset colouring of San Segundo, Rodríguez
/// -Losada and Jiménez ("An exact bit-parallel algorithm for the maximum clique problem",
/// Computers & OR 38, 2011).
///
/// Vertices are renumbered by non-increasing degree. At each search node the candidate set
/// `P` is coloured greedily (colour classes are independent sets, built lowest index first
/// with bit operations); a clique inside `P` has at most as many vertices as `P` has colours,
/// so candidates are tried from the highest colour down and the node is cut as soon as the
/// current clique plus the candidate's colour cannot beat the incumbent.
///
/// `initial` (a clique of `g`, or empty) seeds the incumbent. `upper` is a bound known from
/// outside (a window's cell count; `usize::MAX` for none): a clique that reaches it ends the
/// search, proven, where colouring alone would go on proving it. The search stops after
/// `node_budget` search nodes or at `deadline`, returning the best clique met with `proven`
/// false.
pub fn max_clique(
    g: &BitGraph,
    initial: &[usize],
    upper: usize,
    node_budget: u64,
    deadline: Option<Instant>,
) -> CliqueSearch {
    max_clique_partitioned(g, initial, upper, &[], node_budget, deadline)
}

/// [`max_clique`] with partitions of the nodes into independent sets known from outside (a
/// window graph's nodes by cell and by piece: two placements on one cell, or of one piece,
/// are never adjacent). A clique holds at most one node of each part, so at every search node
/// the parts still holding a candidate bound the clique as well as the colours do; the bound
/// is taken first, before colouring, and on the puzzle's graphs it is the sharper one: it
/// cuts a branch as soon as some cell has no placement left (forward checking), which greedy
/// colouring alone does not see.
pub fn max_clique_partitioned(
    g: &BitGraph,
    initial: &[usize],
    upper: usize,
    partitions: &[Vec<Vec<usize>>],
    node_budget: u64,
    deadline: Option<Instant>,
) -> CliqueSearch {
    let n = g.num_nodes();
    // MCQ's initial order: non-increasing degree (ties by id, for determinism).
    let mut order: Vec<usize> = (0..n).collect();
    let degree: Vec<usize> = (0..n).map(|u| g.degree(u)).collect();
    order.sort_by_key(|&u| (std::cmp::Reverse(degree[u]), u));
    let mut position = vec![0; n];
    for (i, &u) in order.iter().enumerate() {
        position[u] = i;
    }
    let mut h = BitGraph::new(n);
    for u in 0..n {
        for v in u + 1..n {
            if g.has_edge(u, v) {
                h.add_edge(position[u], position[v]);
            }
        }
    }
    let seed = if g.is_clique(initial) {
        initial.iter().map(|&u| position[u]).collect()
    } else {
        Vec::new()
    };
    // Each part as a bit mask over the renumbered nodes.
    let parts: Vec<Vec<Vec<u64>>> = partitions
        .iter()
        .map(|partition| {
            partition
                .iter()
                .map(|part| {
                    let mut mask = vec![0u64; h.words];
                    for &u in part.iter().filter(|&&u| u < n) {
                        let v = position[u];
                        mask[v / 64] |= 1 << (v % 64);
                    }
                    mask
                })
                .collect()
        })
        .collect();
    let mut s = Search {
        g: &h,
        best: seed,
        current: Vec::new(),
        nodes: 0,
        budget: node_budget,
        deadline,
        aborted: false,
        upper,
        parts,
        floor: 0,
    };
    let mut all = vec![0u64; h.words];
    for v in 0..n {
        all[v / 64] |= 1 << (v % 64);
    }
    if n > 0 && s.best.len() < upper {
        if s.parts.is_empty() {
            s.expand(all);
        } else {
            // First look only for a clique that reaches `upper` (every cell filled): a pure
            // puzzle search, where any cell left without a candidate cuts the branch, on five
            // times the budget (a full filling is what the window is for, and this search is
            // the cheap one: on a planted 6×6 board it needed 1–2 million nodes where the
            // second phase spent minutes); then the full search for the largest clique on
            // `node_budget` nodes.
            if upper < n {
                s.floor = upper - 1;
                s.budget = node_budget.saturating_mul(5);
                s.expand_by_part(all.clone());
                s.floor = 0;
                s.budget = s.nodes.saturating_add(node_budget);
                // An exhausted first phase proves only that no clique reaches `upper`.
                s.aborted = false;
            }
            if s.best.len() < upper {
                s.expand_by_part(all);
            }
        }
    }
    let mut clique: Vec<usize> = s.best.iter().map(|&i| order[i]).collect();
    clique.sort_unstable();
    CliqueSearch {
        clique,
        proven: !s.aborted,
        nodes: s.nodes,
    }
}

/// The state of one [`max_clique`] search, over the renumbered graph.
struct Search<'g> {
    g: &'g BitGraph,
    best: Vec<usize>,
    current: Vec<usize>,
    nodes: u64,
    budget: u64,
    deadline: Option<Instant>,
    aborted: bool,
    /// A known upper bound: reaching it ends the search.
    upper: usize,
    /// Partitions into independent sets, each part a mask ([`max_clique_partitioned`]).
    parts: Vec<Vec<Vec<u64>>>,
    /// Branches that cannot beat this size are cut too (a first phase that looks only for
    /// cliques of a given size).
    floor: usize,
}

impl Search<'_> {
    /// Count one search node; true (and the search marked aborted) once the node budget or
    /// the deadline is spent. The clock is read every 1024 nodes only: a node costs a few
    /// microseconds, a clock read about as much.
    fn spent(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes > self.budget
            || (self.nodes.is_multiple_of(1024)
                && self.deadline.is_some_and(|d| Instant::now() >= d))
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// Search the cliques that extend `current` with vertices of `p` (non-empty).
    fn expand(&mut self, mut p: Vec<u64>) {
        if self.spent() {
            return;
        }
        let (vertices, colours) = self.colour_sort(&p);
        for i in (0..vertices.len()).rev() {
            if self.current.len() + colours[i] <= self.best.len() {
                return;
            }
            let v = vertices[i];
            self.current.push(v);
            let q: Vec<u64> = p.iter().zip(self.g.row(v)).map(|(a, b)| a & b).collect();
            if q.iter().all(|&w| w == 0) {
                if self.current.len() > self.best.len() {
                    self.best = self.current.clone();
                }
            } else {
                self.expand(q);
            }
            self.current.pop();
            p[v / 64] &= !(1 << (v % 64));
            if self.aborted || self.best.len() >= self.upper {
                return;
            }
        }
    }

    /// The search with partitions: branch on the part of the first partition (a cell) with
    /// the fewest candidates left — each of its candidates in turn, then leaving it out —
    /// and cut where the parts still live cannot beat the incumbent. On a window graph this
    /// is a puzzle search with forward checking and the most constrained cell first, and it
    /// stays exact for the maximum clique, since a cell may be left empty.
    fn expand_by_part(&mut self, p: Vec<u64>) {
        if self.spent() {
            return;
        }
        if p.iter().all(|&w| w == 0) {
            if self.current.len() > self.best.len() {
                self.best = self.current.clone();
            }
            return;
        }
        let count =
            |mask: &[u64]| -> u32 { mask.iter().zip(&p).map(|(m, w)| (m & w).count_ones()).sum() };
        let mut bound = usize::MAX;
        let mut branch: Option<(usize, u32)> = None;
        for (k, partition) in self.parts.iter().enumerate() {
            let mut live = 0;
            for (i, mask) in partition.iter().enumerate() {
                let c = count(mask);
                if c > 0 {
                    live += 1;
                    if k == 0 && branch.is_none_or(|(_, best)| c < best) {
                        branch = Some((i, c));
                    }
                }
            }
            bound = bound.min(live);
        }
        // Vertices outside every part of the first partition cannot be branched on by part:
        // the plain colouring search takes over.
        let covered: usize = self.parts[0].iter().map(|mask| count(mask) as usize).sum();
        let total: usize = p.iter().map(|w| w.count_ones() as usize).sum();
        if covered < total {
            return self.expand(p);
        }
        if self.current.len() + bound <= self.best.len().max(self.floor) {
            return;
        }
        let Some((part, _)) = branch else { return };
        let mask = self.parts[0][part].clone();
        let candidates: Vec<usize> = mask
            .iter()
            .zip(&p)
            .enumerate()
            .flat_map(|(wi, (m, w))| {
                let mut bits = m & w;
                std::iter::from_fn(move || {
                    (bits != 0).then(|| {
                        let b = bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        wi * 64 + b
                    })
                })
            })
            .collect();
        for v in candidates {
            self.current.push(v);
            let q: Vec<u64> = p.iter().zip(self.g.row(v)).map(|(a, b)| a & b).collect();
            self.expand_by_part(q);
            self.current.pop();
            if self.aborted || self.best.len() >= self.upper {
                return;
            }
        }
        // The cell left empty.
        let rest: Vec<u64> = p.iter().zip(&mask).map(|(w, m)| w & !m).collect();
        self.expand_by_part(rest);
    }

    /// Greedy sequential colouring of `p`: the vertices in order of non-decreasing colour,
    /// and each one's colour (1-based), which bounds the clique among it and those before it.
    fn colour_sort(&self, p: &[u64]) -> (Vec<usize>, Vec<usize>) {
        let mut uncoloured = p.to_vec();
        let (mut vertices, mut colours) = (Vec::new(), Vec::new());
        let mut k = 0;
        while uncoloured.iter().any(|&w| w != 0) {
            k += 1;
            let mut q = uncoloured.clone();
            for wi in 0..q.len() {
                while q[wi] != 0 {
                    let v = wi * 64 + q[wi].trailing_zeros() as usize;
                    uncoloured[wi] &= !(1 << (v % 64));
                    // Drop v and its neighbours: the rest of the class stays independent.
                    for (qw, nw) in q.iter_mut().zip(self.g.row(v)).skip(wi) {
                        *qw &= !nw;
                    }
                    q[wi] &= !(1 << (v % 64));
                    vertices.push(v);
                    colours.push(k);
                }
            }
        }
        (vertices, colours)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edge_search::Rng;

    /// The largest clique by trying every node subset (n ≤ 16).
    fn brute_force(g: &BitGraph) -> usize {
        let n = g.num_nodes();
        (0u32..1 << n)
            .filter(|&m| {
                let nodes: Vec<usize> = (0..n).filter(|&v| m >> v & 1 == 1).collect();
                g.is_clique(&nodes)
            })
            .map(|m| m.count_ones() as usize)
            .max()
            .unwrap_or(0)
    }

    #[test]
    fn max_clique_equals_brute_force_on_small_random_graphs() {
        let mut rng = Rng::new(7);
        for _ in 0..300 {
            let n = rng.below(15);
            let density = rng.unit();
            let mut g = BitGraph::new(n);
            for u in 0..n {
                for v in u + 1..n {
                    if rng.unit() < density {
                        g.add_edge(u, v);
                    }
                }
            }
            let found = max_clique(&g, &[], usize::MAX, u64::MAX, None);
            assert!(found.proven);
            assert!(g.is_clique(&found.clique), "{:?}", found.clique);
            assert_eq!(found.clique.len(), brute_force(&g), "{g:?}");
        }
    }

    #[test]
    fn a_spent_budget_returns_the_seed_unproven() {
        let mut g = BitGraph::new(70);
        for u in 0..70 {
            for v in u + 1..70 {
                if (u + v) % 3 != 0 {
                    g.add_edge(u, v);
                }
            }
        }
        let seed = [0, 1];
        assert!(g.is_clique(&seed));
        let found = max_clique(&g, &seed, usize::MAX, 1, None);
        assert!(!found.proven);
        assert_eq!(found.clique, vec![0, 1]);
        // A seed that is not a clique is ignored, not trusted.
        let found = max_clique(&g, &[0, 3], usize::MAX, u64::MAX, None);
        assert!(found.proven && g.is_clique(&found.clique));
    }

    /// A graph of three independent parts of two nodes each, every cross pair joined but one:
    /// the engine uses the parts, proves the triangle it finds and stops there.
    struct Parted {
        g: BitGraph,
        parts: Vec<Vec<Vec<usize>>>,
    }

    impl StreamedGraph for Parted {
        fn num_nodes(&self) -> usize {
            self.g.num_nodes()
        }
        fn node_label(&self, v: usize) -> String {
            format!("node {v}")
        }
        fn describe(&self) -> String {
            "parts".into()
        }
        fn count_edges(&self, complement: bool) -> u64 {
            crate::model::graph::count_by_listing(self, complement)
        }
        fn neighbours_above(&self, u: usize, complement: bool, out: &mut Vec<u32>) {
            self.g.above(u, complement, out);
        }
        fn independent_sets(&self) -> Vec<Vec<Vec<usize>>> {
            self.parts.clone()
        }
    }

    fn parted(parts: Vec<Vec<Vec<usize>>>) -> Parted {
        let mut g = BitGraph::new(6);
        for u in 0..6 {
            for v in u + 1..6 {
                if u / 2 != v / 2 && (u, v) != (0, 2) {
                    g.add_edge(u, v);
                }
            }
        }
        Parted { g, parts }
    }

    fn solve(g: &Parted) -> Vec<usize> {
        let limits = Limits::new(std::time::Duration::from_secs(10), 1);
        match Mcq.solve(g, &limits).unwrap() {
            CliqueOutcome::Found(c) => c,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_engine_finds_a_maximum_clique_with_and_without_parts() {
        let by_pair = vec![vec![vec![0, 1], vec![2, 3], vec![4, 5]]];
        for g in [parted(by_pair), parted(Vec::new())] {
            let c = solve(&g);
            assert_eq!(c.len(), 3, "{c:?}");
            assert!(g.g.is_clique(&c), "{c:?}");
        }
    }

    #[test]
    fn a_part_that_is_not_independent_is_not_trusted() {
        // All six nodes claimed as one part: trusted, it would bound every clique by 1 and
        // stop at the first node. It holds edges, so it is dropped and the answer stays right.
        let g = parted(vec![vec![(0..6).collect()]]);
        assert!(!g.g.is_independent(&[0, 1, 2, 3, 4, 5]));
        let c = solve(&g);
        assert_eq!(c.len(), 3, "{c:?}");
        assert!(g.g.is_clique(&c));
    }

    #[test]
    fn a_graph_over_the_size_limit_is_refused_before_any_allocation() {
        struct Huge;
        impl StreamedGraph for Huge {
            fn num_nodes(&self) -> usize {
                MAX_NODES + 1
            }
            fn node_label(&self, v: usize) -> String {
                v.to_string()
            }
            fn describe(&self) -> String {
                "huge".into()
            }
            fn count_edges(&self, _: bool) -> u64 {
                0
            }
            fn neighbours_above(&self, _: usize, _: bool, out: &mut Vec<u32>) {
                out.clear();
            }
        }
        let limits = Limits::new(std::time::Duration::from_secs(1), 1);
        let e = Mcq.solve(&Huge, &limits).unwrap_err();
        assert!(e.to_string().contains("use cliquer"), "{e}");
    }
}
