//! The linear assignment problem behind Tile Assignment and Black-and-White (§3.3): once
//! the chosen cells are pairwise non-adjacent, the value of a piece in a cell no longer
//! depends on where the other removed pieces go, so re-inserting them optimally is a
//! maximum-weight perfect matching of pieces to cells (the paper solves it with the
//! Hungarian algorithm). The solver sits behind [`Assignment`] so that another one can be
//! swapped in and compared.

use pathfinding::kuhn_munkres::kuhn_munkres;
use pathfinding::matrix::Matrix;

/// A solver of the square linear assignment problem, maximising.
pub trait Assignment {
    /// Its short name in traces.
    fn name(&self) -> &'static str;
    /// Given a square `n × n` matrix (`weights[i][j]`: the value of giving row `i` column
    /// `j`), a permutation `result` (row `i` gets column `result[i]`) maximising the sum of
    /// `weights[i][result[i]]`, and that sum. An empty matrix gives `(0, [])`.
    ///
    /// Panics when the matrix is not square.
    fn max_weight(&self, weights: &[Vec<i64>]) -> (i64, Vec<usize>);
}

/// The Kuhn–Munkres (Hungarian) algorithm of the `pathfinding` crate, O(n³).
#[derive(Debug, Clone, Copy, Default)]
pub struct KuhnMunkres;

impl Assignment for KuhnMunkres {
    fn name(&self) -> &'static str {
        "kuhn-munkres"
    }

    fn max_weight(&self, weights: &[Vec<i64>]) -> (i64, Vec<usize>) {
        let n = weights.len();
        // pathfinding's Matrix refuses zero rows; an empty selection is a legitimate case
        // (a class with no cell left to choose).
        if n == 0 {
            return (0, Vec::new());
        }
        assert!(
            weights.iter().all(|row| row.len() == n),
            "an assignment matrix must be square"
        );
        let m = Matrix::from_rows(weights.iter().map(|row| row.iter().copied()))
            .expect("rows of equal length");
        kuhn_munkres(&m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edge_search::Rng;

    /// The best sum over all permutations, by Heap's algorithm (k ≤ 7: at most 5040).
    fn brute_force(w: &[Vec<i64>]) -> i64 {
        let n = w.len();
        let mut perm: Vec<usize> = (0..n).collect();
        let value = |p: &[usize]| (0..n).map(|i| w[i][p[i]]).sum::<i64>();
        let mut best = value(&perm);
        let mut c = vec![0usize; n];
        let mut i = 0;
        while i < n {
            if c[i] < i {
                if i % 2 == 0 {
                    perm.swap(0, i);
                } else {
                    perm.swap(c[i], i);
                }
                best = best.max(value(&perm));
                c[i] += 1;
                i = 0;
            } else {
                c[i] = 0;
                i += 1;
            }
        }
        best
    }

    #[test]
    fn kuhn_munkres_equals_brute_force_on_random_matrices() {
        let mut rng = Rng::new(2024);
        for trial in 0..200 {
            let k = 1 + trial % 7;
            // Small ranges (ties, as with matched-side counts 0..4) and wide ones, with
            // negative entries (the "does not fit" penalty) now and then.
            let span = [5, 1000][trial % 2] as i64;
            let w: Vec<Vec<i64>> = (0..k)
                .map(|_| {
                    (0..k)
                        .map(|_| rng.below(span as usize) as i64 - span / 4)
                        .collect()
                })
                .collect();
            let (total, cols) = KuhnMunkres.max_weight(&w);
            let mut seen = cols.clone();
            seen.sort_unstable();
            assert_eq!(seen, (0..k).collect::<Vec<_>>(), "not a permutation");
            assert_eq!(total, (0..k).map(|i| w[i][cols[i]]).sum::<i64>());
            assert_eq!(total, brute_force(&w), "trial {trial}: {w:?}");
        }
        assert_eq!(KuhnMunkres.max_weight(&[]), (0, vec![]));
    }
}
