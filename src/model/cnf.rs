//! Solver-neutral CNF: boolean variables (0-based) and clauses of literals.
//!
//! Only the DIMACS code converts to 1-based signed integers.

/// A boolean variable, 0-based.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BoolVar(pub u32);

/// A literal: a variable or its negation, packed as `2*var + negated`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Lit(u32);

impl BoolVar {
    /// The positive literal of this variable.
    pub fn positive(self) -> Lit {
        Lit(self.0 << 1)
    }
    /// The negative literal of this variable.
    pub fn negative(self) -> Lit {
        Lit((self.0 << 1) | 1)
    }
    /// The position as a `usize` index.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl Lit {
    /// The literal's variable.
    pub fn var(self) -> BoolVar {
        BoolVar(self.0 >> 1)
    }
    /// True for a negated literal.
    pub fn is_negated(self) -> bool {
        self.0 & 1 == 1
    }
    /// The DIMACS form: `±(var + 1)`.
    pub fn to_dimacs(self) -> i64 {
        let v = self.var().0 as i64 + 1;
        if self.is_negated() { -v } else { v }
    }
    /// Parse the DIMACS form; `None` for 0.
    pub fn from_dimacs(x: i64) -> Option<Lit> {
        if x == 0 {
            return None;
        }
        let v = BoolVar((x.unsigned_abs() - 1) as u32);
        Some(if x < 0 { v.negative() } else { v.positive() })
    }
    /// True when this literal holds under `assignment` (one bool per variable).
    pub fn holds(self, assignment: &[bool]) -> bool {
        assignment[self.var().index()] != self.is_negated()
    }
}

impl std::ops::Not for Lit {
    type Output = Lit;
    fn not(self) -> Lit {
        Lit(self.0 ^ 1)
    }
}

/// A CNF formula with named variables (names are written as DIMACS comments so a model
/// can be decoded by a person, and are not needed by the solvers).
#[derive(Debug, Clone, Default)]
pub struct Cnf {
    names: Vec<String>,
    /// Clause c's literals are `start[c]..start[c+1]` of `lits`.
    start: Vec<usize>,
    lits: Vec<Lit>,
}

impl Cnf {
    /// An empty formula.
    pub fn new() -> Self {
        Cnf {
            names: Vec::new(),
            start: vec![0],
            lits: Vec::new(),
        }
    }
    /// Add a fresh variable with a name (for comments and decoding).
    pub fn new_var(&mut self, name: impl Into<String>) -> BoolVar {
        self.names.push(name.into());
        BoolVar(self.names.len() as u32 - 1)
    }
    /// Add a clause (a disjunction). An empty clause makes the formula unsatisfiable.
    pub fn add_clause(&mut self, lits: &[Lit]) {
        self.lits.extend_from_slice(lits);
        self.start.push(self.lits.len());
    }
    /// At most one of `lits` holds. Pairwise up to 6 literals, otherwise the sequential
    /// counter of Sinz (2005), which needs n-1 auxiliaries and 3n-4 clauses instead of n²/2.
    pub fn at_most_one(&mut self, lits: &[Lit], aux_prefix: &str) {
        if lits.len() <= 6 {
            for i in 0..lits.len() {
                for j in i + 1..lits.len() {
                    self.add_clause(&[!lits[i], !lits[j]]);
                }
            }
            return;
        }
        let n = lits.len();
        let s: Vec<BoolVar> = (0..n - 1)
            .map(|i| self.new_var(format!("{aux_prefix}_s{i}")))
            .collect();
        self.add_clause(&[!lits[0], s[0].positive()]);
        for i in 1..n - 1 {
            self.add_clause(&[!lits[i], s[i].positive()]);
            self.add_clause(&[!s[i - 1].positive(), s[i].positive()]);
            self.add_clause(&[!lits[i], !s[i - 1].positive()]);
        }
        self.add_clause(&[!lits[n - 1], !s[n - 2].positive()]);
    }
    /// Exactly one of `lits` holds.
    pub fn exactly_one(&mut self, lits: &[Lit], aux_prefix: &str) {
        self.add_clause(lits);
        self.at_most_one(lits, aux_prefix);
    }
    /// Number of variables.
    pub fn num_vars(&self) -> usize {
        self.names.len()
    }
    /// Number of clauses.
    pub fn num_clauses(&self) -> usize {
        self.start.len() - 1
    }
    /// Number of literals over all clauses.
    pub fn num_literals(&self) -> usize {
        self.lits.len()
    }
    /// A variable's name.
    pub fn var_name(&self, v: BoolVar) -> &str {
        &self.names[v.index()]
    }
    /// All clauses, in order.
    pub fn clauses(&self) -> impl ExactSizeIterator<Item = &[Lit]> + '_ {
        self.start.windows(2).map(|w| &self.lits[w[0]..w[1]])
    }
    /// True when every clause has a literal that holds under `assignment`.
    pub fn is_satisfied_by(&self, assignment: &[bool]) -> bool {
        assignment.len() >= self.num_vars()
            && self
                .clauses()
                .all(|c| c.iter().any(|l| l.holds(assignment)))
    }
    /// The first clause (0-based index) violated by `assignment`, if any.
    pub fn first_violated(&self, assignment: &[bool]) -> Option<usize> {
        self.clauses()
            .position(|c| !c.iter().any(|l| l.holds(assignment)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_assignments(n: usize) -> impl Iterator<Item = Vec<bool>> {
        (0..1u32 << n).map(move |m| (0..n).map(|i| m >> i & 1 == 1).collect())
    }

    #[test]
    fn dimacs_literals_round_trip() {
        for x in [-5i64, -1, 1, 7] {
            assert_eq!(Lit::from_dimacs(x).unwrap().to_dimacs(), x);
        }
        assert!(Lit::from_dimacs(0).is_none());
    }

    #[test]
    fn exactly_one_encodings_are_exact() {
        for n in [1usize, 3, 6, 7, 9] {
            let mut f = Cnf::new();
            let xs: Vec<Lit> = (0..n)
                .map(|i| f.new_var(format!("x{i}")).positive())
                .collect();
            f.exactly_one(&xs, "eo");
            let aux = f.num_vars() - n;
            for a in all_assignments(n) {
                let ones = a.iter().filter(|b| **b).count();
                // satisfiable extension over the auxiliaries iff exactly one is true
                let sat = all_assignments(aux).any(|ext| {
                    let mut full = a.clone();
                    full.extend(ext);
                    f.is_satisfied_by(&full)
                });
                assert_eq!(sat, ones == 1, "n={n} a={a:?}");
            }
        }
    }
}
