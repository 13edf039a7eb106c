//! Solver-neutral weighted CNF (partial weighted MaxSAT): hard clauses, which every answer must
//! satisfy, and weighted soft clauses, whose falsified weights sum to the cost to minimise.
//!
//! The hard part is a [`Cnf`] (it owns the variables and their names); soft clauses name only
//! variables of it. Only the writers in `format::wcnf` choose a file dialect.

use crate::model::cnf::{Cnf, Lit};

/// A weighted CNF: a hard [`Cnf`] and soft clauses with positive integer weights.
#[derive(Debug, Clone, Default)]
pub struct Wcnf {
    hard: Cnf,
    /// Soft clause s's literals are `soft_start[s]..soft_start[s+1]` of `soft_lits`.
    soft_start: Vec<usize>,
    soft_lits: Vec<Lit>,
    weights: Vec<u64>,
}

impl Wcnf {
    /// A formula with `hard` as its hard clauses and no soft clause yet.
    pub fn new(hard: Cnf) -> Self {
        Wcnf {
            hard,
            soft_start: vec![0],
            soft_lits: Vec::new(),
            weights: Vec::new(),
        }
    }
    /// Add a soft clause of weight `weight` (positive: a zero weight costs nothing and is a
    /// formulation's mistake, so it panics; so does a literal of a variable the hard part does
    /// not have).
    pub fn add_soft(&mut self, weight: u64, lits: &[Lit]) {
        assert!(weight > 0, "a soft clause needs a positive weight");
        assert!(
            lits.iter().all(|l| l.var().index() < self.hard.num_vars()),
            "a soft clause may only name variables of the hard part"
        );
        self.soft_lits.extend_from_slice(lits);
        self.soft_start.push(self.soft_lits.len());
        self.weights.push(weight);
    }
    /// The hard clauses (and the variables, with their names).
    pub fn hard(&self) -> &Cnf {
        &self.hard
    }
    /// Number of variables.
    pub fn num_vars(&self) -> usize {
        self.hard.num_vars()
    }
    /// Number of soft clauses.
    pub fn num_soft(&self) -> usize {
        self.weights.len()
    }
    /// The soft clauses in order, each with its weight.
    pub fn soft(&self) -> impl ExactSizeIterator<Item = (u64, &[Lit])> + '_ {
        self.soft_start
            .windows(2)
            .zip(&self.weights)
            .map(|(w, &weight)| (weight, &self.soft_lits[w[0]..w[1]]))
    }
    /// The sum of the soft weights: no assignment costs more. Saturates (a formula whose
    /// weights overflow `u64` cannot be written in either dialect anyway).
    pub fn total_soft_weight(&self) -> u64 {
        self.weights.iter().fold(0u64, |a, &w| a.saturating_add(w))
    }
    /// The cost of `assignment` (one bool per variable): the weights of the soft clauses it
    /// falsifies.
    pub fn cost(&self, assignment: &[bool]) -> u64 {
        self.soft()
            .filter(|(_, c)| !c.iter().any(|l| l.holds(assignment)))
            .fold(0u64, |a, (w, _)| a.saturating_add(w))
    }
    /// The first hard clause (0-based index) `assignment` falsifies, if any.
    pub fn first_violated_hard(&self, assignment: &[bool]) -> Option<usize> {
        self.hard.first_violated(assignment)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cost_counts_the_falsified_soft_weights() {
        let mut hard = Cnf::new();
        let a = hard.new_var("a");
        let b = hard.new_var("b");
        hard.add_clause(&[a.positive(), b.positive()]);
        let mut w = Wcnf::new(hard);
        w.add_soft(1, &[a.negative()]);
        w.add_soft(3, &[b.negative()]);
        w.add_soft(2, &[a.positive(), b.positive()]);
        assert_eq!(w.num_soft(), 3);
        assert_eq!(w.total_soft_weight(), 6);
        assert_eq!(w.cost(&[true, false]), 1);
        assert_eq!(w.cost(&[false, true]), 3);
        assert_eq!(w.cost(&[true, true]), 4);
        assert_eq!(w.cost(&[false, false]), 2);
        assert_eq!(w.first_violated_hard(&[false, false]), Some(0));
        assert_eq!(w.first_violated_hard(&[true, false]), None);
        let soft: Vec<(u64, usize)> = w.soft().map(|(w, c)| (w, c.len())).collect();
        assert_eq!(soft, [(1, 1), (3, 1), (2, 2)]);
    }

    #[test]
    #[should_panic(expected = "positive weight")]
    fn a_zero_weight_is_refused() {
        let mut hard = Cnf::new();
        let a = hard.new_var("a");
        Wcnf::new(hard).add_soft(0, &[a.positive()]);
    }
}
