//! The published sliding-puzzle sets (Korf's 100 and 50, the hardest 80-movers, DeepCubeA's
//! test sets), compiled in from `models/sliding/` (provenance in their headers), with their
//! published optima and node counts: the cases `tilekit bench` and the campaigns run.

use crate::puzzle::sliding::{Goal, SlidingPuzzle};

/// A benchmark set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BenchSet {
    /// Korf's 100 random 15-puzzle instances (blank-first).
    Korf100,
    /// Korf & Felner's 50 random 24-puzzle instances (blank-first).
    Korf50x24,
    /// The 17 15-puzzle positions at distance 80 (blank-last).
    Hardest80,
    /// The DeepCubeA 24-puzzle test set (blank-last), easiest first by the published node
    /// count of the paper's optimal solver.
    DeepCubeA24,
    /// The DeepCubeA 15-puzzle test set (500 boards, blank-last), in its own order.
    DeepCubeA15,
}

impl BenchSet {
    /// Parse the CLI name.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "korf100" => Some(BenchSet::Korf100),
            "korf50-24" => Some(BenchSet::Korf50x24),
            "hardest80" => Some(BenchSet::Hardest80),
            "deepcubea24" => Some(BenchSet::DeepCubeA24),
            "deepcubea15" => Some(BenchSet::DeepCubeA15),
            _ => None,
        }
    }
    /// The CLI name.
    pub fn name(self) -> &'static str {
        match self {
            BenchSet::Korf100 => "korf100",
            BenchSet::Korf50x24 => "korf50-24",
            BenchSet::Hardest80 => "hardest80",
            BenchSet::DeepCubeA24 => "deepcubea24",
            BenchSet::DeepCubeA15 => "deepcubea15",
        }
    }
    /// The cells of the set's boards (16 or 25).
    pub fn cells(self) -> usize {
        match self {
            BenchSet::Korf100 | BenchSet::Hardest80 | BenchSet::DeepCubeA15 => 16,
            BenchSet::Korf50x24 | BenchSet::DeepCubeA24 => 25,
        }
    }
    /// The instances of the set.
    pub fn cases(self) -> Vec<BenchCase> {
        match self {
            BenchSet::Korf100 => parse_set(
                include_str!("../../models/sliding/korf100_15puzzle.txt"),
                4,
                3,
                None,
                Goal::BlankFirst,
            ),
            BenchSet::Korf50x24 => {
                let mut cases = parse_set(
                    include_str!("../../models/sliding/korf50_24puzzle.txt"),
                    5,
                    2,
                    None,
                    Goal::BlankFirst,
                );
                // Korf & Felner's own node counts (6-6-6-6 + reflection): the set runs
                // easiest first by them, and each row shows ours beside theirs.
                let published = parse_fields(include_str!(
                    "../../models/sliding/korf50_24puzzle_published.txt"
                ));
                for c in &mut cases {
                    let row = published
                        .iter()
                        .find(|f| f[0] == c.id as u64 && f[1] == c.optimal as u64);
                    c.published_nodes = row.map(|f| f[2]);
                    // Döbbelin et al.'s own 6-6-6-6 run, expanded nodes.
                    c.published_expanded = row.map(|f| f[3]);
                }
                cases.sort_by_key(|c| (c.published_nodes, c.id));
                cases
            }
            BenchSet::Hardest80 => parse_set(
                include_str!("../../models/sliding/hardest80_15puzzle.txt"),
                4,
                2,
                None,
                Goal::BlankLast,
            ),
            BenchSet::DeepCubeA15 => parse_set(
                include_str!("../../models/sliding/deepcubea_test_15puzzle.txt"),
                4,
                4,
                Some(2),
                Goal::BlankLast,
            ),
            BenchSet::DeepCubeA24 => {
                let mut cases = parse_set(
                    include_str!("../../models/sliding/deepcubea_test_24puzzle.txt"),
                    5,
                    4,
                    Some(2),
                    Goal::BlankLast,
                );
                // Easiest first, by the published solver's node count.
                cases.sort_by_key(|c| (c.published_nodes, c.id));
                cases
            }
        }
    }
}

/// One benchmark instance.
#[derive(Debug, Clone)]
pub struct BenchCase {
    /// The set's id.
    pub id: u32,
    /// The published optimal length.
    pub optimal: u32,
    /// The board.
    pub puzzle: SlidingPuzzle,
    /// The goal convention of the set.
    pub goal: Goal,
    /// Nodes the set's own optimal solver reported (DeepCubeA's PDB solver), for comparison.
    pub published_nodes: Option<u64>,
    /// Nodes expanded by a second published run with the same databases, where the set
    /// has one (Korf & Felner's 50: Döbbelin, Schütt & Reinefeld's 6-6-6-6 run), for
    /// comparison with a count of another kind.
    pub published_expanded: Option<u64>,
}

/// The integer fields of each data line (compiled-in files: the sets' own unit test checks
/// they parse). Non-integer fields (seconds) become 0.
fn parse_fields(text: &str) -> Vec<Vec<u64>> {
    text.lines()
        .filter(|l| !l.trim_start().starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            l.split_whitespace()
                .map(|x| x.parse().unwrap_or(0))
                .collect()
        })
        .collect()
}

/// Lines `id optimal [skip…] t0 … t(n−1)`; `tiles_from` is the field where tiles start,
/// `nodes_field` the one holding the published solver's node count, if any.
pub(crate) fn parse_set(
    text: &str,
    side: usize,
    tiles_from: usize,
    nodes_field: Option<usize>,
    goal: Goal,
) -> Vec<BenchCase> {
    parse_fields(text)
        .into_iter()
        .map(|f| {
            let tiles = f[tiles_from..].iter().map(|&t| t as u16).collect();
            BenchCase {
                id: f[0] as u32,
                optimal: f[1] as u32,
                puzzle: SlidingPuzzle::new(side, side, tiles).expect("benchmark boards are valid"),
                goal,
                published_nodes: nodes_field.map(|i| f[i]),
                published_expanded: None,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_parse_with_their_published_sums() {
        let k = BenchSet::Korf100.cases();
        assert_eq!(k.len(), 100);
        assert_eq!(k.iter().map(|c| c.optimal).sum::<u32>(), 5305);
        let k24 = BenchSet::Korf50x24.cases();
        assert_eq!(k24.len(), 50);
        assert_eq!(k24.iter().map(|c| c.optimal).sum::<u32>(), 5039);
        // Every instance has Korf & Felner's count (in all, 50 times their published mean
        // of 360,892,479,671, which is rounded), and the easiest (38,173,507 nodes) is instance 38 of the set.
        let korf: u64 = k24.iter().map(|c| c.published_nodes.unwrap()).sum();
        assert_eq!(korf, 18_044_623_983_548);
        assert_eq!((k24[0].id, k24[0].published_nodes), (38, Some(38_173_507)));
        // And Döbbelin et al.'s 6-6-6-6 column, whose total the file's header gives.
        let dsr: u64 = k24.iter().map(|c| c.published_expanded.unwrap()).sum();
        assert_eq!(dsr, 3_550_228_935_356);
        let h = BenchSet::Hardest80.cases();
        assert_eq!(h.len(), 17);
        let d24 = BenchSet::DeepCubeA24.cases();
        assert_eq!(d24.len(), 496);
        assert_eq!(d24.iter().map(|c| c.optimal).sum::<u32>(), 44348);
        // Easiest first: the published solver's fewest nodes (362,615) are instance 25's.
        assert_eq!(d24[0].id, 25);
        for c in k.iter().chain(&k24).chain(&h).chain(&d24) {
            assert!(c.puzzle.is_solvable(c.goal), "instance {}", c.id);
        }
    }
}
