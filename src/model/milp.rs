//! Solver-neutral sparse MILP: variables with kind and bounds, named rows, one objective.
//!
//! Rows are stored row-major (CSR) because every formulation emits them one at a time and
//! the LP writer streams them in that order; [`Model::columns`] builds the column view the
//! MPS writer needs. Names are validated once, on insertion, so writers never have to.

use std::fmt;

/// A variable, by its 0-based position in [`Model`]'s variable list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Var(pub u32);

/// A row (constraint), by its 0-based position in [`Model`]'s row list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RowId(pub u32);

impl Var {
    /// The position as a `usize` index.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl RowId {
    /// The position as a `usize` index.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The domain of a variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VarKind {
    /// Real-valued.
    Continuous,
    /// Integer-valued within its bounds.
    Integer,
    /// Integer in {0, 1}; the bounds are always [0, 1].
    Binary,
}

/// The relation of a row to its right-hand side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sense {
    /// `expr <= rhs`
    Le,
    /// `expr >= rhs`
    Ge,
    /// `expr = rhs`
    Eq,
}

/// Direction of optimisation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ObjSense {
    /// Minimise the objective.
    Minimize,
    /// Maximise the objective.
    Maximize,
}

/// Errors raised while building a model.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ModelError {
    /// A name that LP, MPS and GAMS would not all accept.
    #[error("invalid name {name:?}: {why}")]
    BadName {
        /// The offending name.
        name: String,
        /// What rule it breaks.
        why: &'static str,
    },
    /// A coefficient, bound or right-hand side that is NaN or infinite where a number is needed.
    #[error("{what} of {name:?} is not a finite number ({value})")]
    NotFinite {
        /// Which quantity.
        what: &'static str,
        /// The row or variable it belongs to.
        name: String,
        /// The value given.
        value: f64,
    },
    /// Bounds with lb > ub.
    #[error("variable {name:?} has lower bound {lb} above upper bound {ub}")]
    EmptyBounds {
        /// The variable.
        name: String,
        /// Its lower bound.
        lb: f64,
        /// Its upper bound.
        ub: f64,
    },
    /// A term names a variable that does not exist.
    #[error("row {row:?} uses variable index {var}, but the model has {count} variables")]
    UnknownVar {
        /// The row.
        row: String,
        /// The index used.
        var: u32,
        /// How many variables exist.
        count: usize,
    },
}

/// Longest name accepted: GAMS's identifier limit, which is the tightest of our formats.
pub const MAX_NAME_LEN: usize = 63;

/// Words that HiGHS or CBC take for a section keyword when they start a line (measured:
/// HiGHS fails on these as variable names, CBC on `st` and `subject`).
const LP_KEYWORDS: &[&str] = &[
    "free",
    "bin",
    "bins",
    "binary",
    "binaries",
    "gen",
    "general",
    "generals",
    "int",
    "integer",
    "integers",
    "end",
    "bound",
    "bounds",
    "min",
    "max",
    "minimize",
    "maximize",
    "minimise",
    "maximise",
    "minimum",
    "maximum",
    "st",
    "subject",
    "such",
    "semi",
    "semis",
    "semicontinuous",
    "sos",
    "sos1",
    "sos2",
];

/// Check a name against the naming rules (`docs/src/reference/formats.md`): ASCII `[A-Za-z_][A-Za-z0-9_]*`, at most 63
/// characters, not `e`/`E` followed by a digit (LP readers may take it for an exponent).
pub fn check_name(name: &str) -> Result<(), ModelError> {
    let bad = |why| {
        Err(ModelError::BadName {
            name: name.to_string(),
            why,
        })
    };
    let b = name.as_bytes();
    if b.is_empty() {
        return bad("empty");
    }
    if b.len() > MAX_NAME_LEN {
        return bad("longer than 63 characters");
    }
    if !(b[0].is_ascii_alphabetic() || b[0] == b'_') {
        return bad("must start with a letter or '_'");
    }
    if !b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_') {
        return bad("only ASCII letters, digits and '_' are allowed");
    }
    if (b[0] == b'e' || b[0] == b'E') && b.len() > 1 && b[1].is_ascii_digit() {
        return bad("'e' followed by a digit reads as an exponent in LP files");
    }
    let lower = name.to_ascii_lowercase();
    // HiGHS reads a leading inf/nan as a number (`inflow` = `inf` `low`).
    if lower.starts_with("inf") || lower.starts_with("nan") {
        return bad("a name starting with 'inf' or 'nan' reads as a number in HiGHS's LP reader");
    }
    if LP_KEYWORDS.contains(&lower.as_str()) {
        return bad(
            "an LP section keyword cannot be a name (HiGHS or CBC would read a new section)",
        );
    }
    Ok(())
}

/// A sparse mixed-integer linear program.
#[derive(Debug, Clone)]
pub struct Model {
    name: String,
    var_names: Vec<String>,
    var_kind: Vec<VarKind>,
    var_lb: Vec<f64>,
    var_ub: Vec<f64>,
    obj_name: String,
    obj_sense: ObjSense,
    /// Dense objective coefficients, one per variable (0 where absent).
    obj: Vec<f64>,
    row_names: Vec<String>,
    row_sense: Vec<Sense>,
    row_rhs: Vec<f64>,
    /// CSR: row r's terms are `row_start[r]..row_start[r+1]` of `col`/`val`.
    row_start: Vec<usize>,
    col: Vec<u32>,
    val: Vec<f64>,
}

/// The column-major (CSC) view of a model's constraint matrix.
#[derive(Debug, Clone)]
pub struct ColumnView {
    /// Column j's entries are `start[j]..start[j+1]` of `row`/`val`, in increasing row order.
    pub start: Vec<usize>,
    /// Row index of each entry.
    pub row: Vec<u32>,
    /// Coefficient of each entry.
    pub val: Vec<f64>,
}

impl ColumnView {
    /// The entries `(row, coefficient)` of column `v`.
    pub fn column(&self, v: Var) -> impl Iterator<Item = (RowId, f64)> + '_ {
        let (a, b) = (self.start[v.index()], self.start[v.index() + 1]);
        self.row[a..b]
            .iter()
            .zip(&self.val[a..b])
            .map(|(&r, &c)| (RowId(r), c))
    }
}

impl Model {
    /// An empty minimisation model called `name` (used by MPS `NAME` and GAMS comments).
    pub fn new(name: &str) -> Self {
        Model {
            name: name.to_string(),
            var_names: Vec::new(),
            var_kind: Vec::new(),
            var_lb: Vec::new(),
            var_ub: Vec::new(),
            obj_name: "obj".to_string(),
            obj_sense: ObjSense::Minimize,
            obj: Vec::new(),
            row_names: Vec::new(),
            row_sense: Vec::new(),
            row_rhs: Vec::new(),
            row_start: vec![0],
            col: Vec::new(),
            val: Vec::new(),
        }
    }

    /// Reserve space for `vars` variables, `rows` rows and `nnz` non-zeros.
    pub fn reserve(&mut self, vars: usize, rows: usize, nnz: usize) {
        self.var_names.reserve(vars);
        self.var_kind.reserve(vars);
        self.var_lb.reserve(vars);
        self.var_ub.reserve(vars);
        self.obj.reserve(vars);
        self.row_names.reserve(rows);
        self.row_sense.reserve(rows);
        self.row_rhs.reserve(rows);
        self.row_start.reserve(rows);
        self.col.reserve(nnz);
        self.val.reserve(nnz);
    }

    /// Add a variable. Binary variables get bounds [0, 1] whatever is passed; integer
    /// bounds are rounded inwards (GLPK rejects fractional bounds on integer columns).
    pub fn add_var(
        &mut self,
        name: &str,
        kind: VarKind,
        lb: f64,
        ub: f64,
    ) -> Result<Var, ModelError> {
        check_name(name)?;
        let (mut lb, mut ub) = if kind == VarKind::Binary {
            (0.0, 1.0)
        } else {
            (lb, ub)
        };
        if lb.is_nan() || ub.is_nan() || lb == f64::INFINITY || ub == f64::NEG_INFINITY {
            return Err(ModelError::NotFinite {
                what: "a bound",
                name: name.to_string(),
                value: if lb.is_nan() || lb == f64::INFINITY {
                    lb
                } else {
                    ub
                },
            });
        }
        if kind == VarKind::Integer {
            lb = lb.ceil();
            ub = ub.floor();
        }
        if lb > ub {
            return Err(ModelError::EmptyBounds {
                name: name.to_string(),
                lb,
                ub,
            });
        }
        let v = Var(self.var_names.len() as u32);
        self.var_names.push(name.to_string());
        self.var_kind.push(kind);
        self.var_lb.push(lb);
        self.var_ub.push(ub);
        self.obj.push(0.0);
        Ok(v)
    }

    /// Add a row `sum(coef * var) sense rhs`. Duplicate variables are merged (CBC and GLPK
    /// reject `x + x`); terms that merge to exactly zero are dropped.
    pub fn add_row(
        &mut self,
        name: &str,
        terms: &[(Var, f64)],
        sense: Sense,
        rhs: f64,
    ) -> Result<RowId, ModelError> {
        check_name(name)?;
        if !rhs.is_finite() {
            return Err(ModelError::NotFinite {
                what: "the right-hand side",
                name: name.to_string(),
                value: rhs,
            });
        }
        let start = self.col.len();
        for &(v, c) in terms {
            if v.index() >= self.var_names.len() {
                self.col.truncate(start);
                self.val.truncate(start);
                return Err(ModelError::UnknownVar {
                    row: name.to_string(),
                    var: v.0,
                    count: self.var_names.len(),
                });
            }
            if !c.is_finite() {
                self.col.truncate(start);
                self.val.truncate(start);
                return Err(ModelError::NotFinite {
                    what: "a coefficient",
                    name: name.to_string(),
                    value: c,
                });
            }
            self.col.push(v.0);
            self.val.push(c);
        }
        // Rows are short in our formulations; a sort-and-merge keeps them canonical.
        let mut pairs: Vec<(u32, f64)> = self.col[start..]
            .iter()
            .copied()
            .zip(self.val[start..].iter().copied())
            .collect();
        let already_sorted = pairs.windows(2).all(|w| w[0].0 < w[1].0);
        if !already_sorted {
            pairs.sort_by_key(|p| p.0);
            self.col.truncate(start);
            self.val.truncate(start);
            let mut i = 0;
            while i < pairs.len() {
                let (c, mut s) = pairs[i];
                i += 1;
                while i < pairs.len() && pairs[i].0 == c {
                    s += pairs[i].1;
                    i += 1;
                }
                if s != 0.0 {
                    self.col.push(c);
                    self.val.push(s);
                }
            }
        }
        let r = RowId(self.row_names.len() as u32);
        self.row_names.push(name.to_string());
        self.row_sense.push(sense);
        self.row_rhs.push(rhs);
        self.row_start.push(self.col.len());
        Ok(r)
    }

    /// Set the objective: `sense sum(coef * var)`. Unlisted variables get coefficient 0.
    pub fn set_objective(
        &mut self,
        name: &str,
        sense: ObjSense,
        terms: &[(Var, f64)],
    ) -> Result<(), ModelError> {
        check_name(name)?;
        self.obj_name = name.to_string();
        self.obj_sense = sense;
        self.obj.iter_mut().for_each(|c| *c = 0.0);
        for &(v, c) in terms {
            if !c.is_finite() {
                return Err(ModelError::NotFinite {
                    what: "an objective coefficient",
                    name: self.var_names.get(v.index()).cloned().unwrap_or_default(),
                    value: c,
                });
            }
            let slot = self.obj.get_mut(v.index()).ok_or(ModelError::UnknownVar {
                row: name.to_string(),
                var: v.0,
                count: self.var_names.len(),
            })?;
            *slot += c;
        }
        Ok(())
    }

    /// The model's name.
    pub fn name(&self) -> &str {
        &self.name
    }
    /// Number of variables.
    pub fn num_vars(&self) -> usize {
        self.var_names.len()
    }
    /// Number of rows (the objective is not a row).
    pub fn num_rows(&self) -> usize {
        self.row_names.len()
    }
    /// Number of constraint-matrix non-zeros (objective excluded).
    pub fn num_nonzeros(&self) -> usize {
        self.col.len()
    }
    /// All variables, in order.
    pub fn vars(&self) -> impl ExactSizeIterator<Item = Var> {
        (0..self.var_names.len() as u32).map(Var)
    }
    /// All rows, in order.
    pub fn rows(&self) -> impl ExactSizeIterator<Item = RowId> {
        (0..self.row_names.len() as u32).map(RowId)
    }
    /// A variable's name.
    pub fn var_name(&self, v: Var) -> &str {
        &self.var_names[v.index()]
    }
    /// A variable's kind.
    pub fn var_kind(&self, v: Var) -> VarKind {
        self.var_kind[v.index()]
    }
    /// A variable's bounds `(lb, ub)`; either may be infinite.
    pub fn var_bounds(&self, v: Var) -> (f64, f64) {
        (self.var_lb[v.index()], self.var_ub[v.index()])
    }
    /// The objective row's name.
    pub fn objective_name(&self) -> &str {
        &self.obj_name
    }
    /// The direction of optimisation.
    pub fn objective_sense(&self) -> ObjSense {
        self.obj_sense
    }
    /// A variable's objective coefficient.
    pub fn objective_coef(&self, v: Var) -> f64 {
        self.obj[v.index()]
    }
    /// The non-zero objective terms, in variable order.
    pub fn objective_terms(&self) -> impl Iterator<Item = (Var, f64)> + '_ {
        self.obj
            .iter()
            .enumerate()
            .filter(|(_, c)| **c != 0.0)
            .map(|(i, &c)| (Var(i as u32), c))
    }
    /// A row's name.
    pub fn row_name(&self, r: RowId) -> &str {
        &self.row_names[r.index()]
    }
    /// A row's sense.
    pub fn row_sense(&self, r: RowId) -> Sense {
        self.row_sense[r.index()]
    }
    /// A row's right-hand side.
    pub fn row_rhs(&self, r: RowId) -> f64 {
        self.row_rhs[r.index()]
    }
    /// A row's terms, in increasing variable order, duplicates merged.
    pub fn row_terms(&self, r: RowId) -> impl ExactSizeIterator<Item = (Var, f64)> + '_ {
        let (a, b) = (self.row_start[r.index()], self.row_start[r.index() + 1]);
        self.col[a..b]
            .iter()
            .zip(&self.val[a..b])
            .map(|(&c, &v)| (Var(c), v))
    }

    /// Find a variable by name (linear scan; for tests and decoding small models use
    /// [`Model::name_index`] to build a map once).
    pub fn var_by_name(&self, name: &str) -> Option<Var> {
        self.var_names
            .iter()
            .position(|n| n == name)
            .map(|i| Var(i as u32))
    }

    /// A name → variable map, for decoding solver output that lists names.
    pub fn name_index(&self) -> std::collections::HashMap<&str, Var> {
        self.var_names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.as_str(), Var(i as u32)))
            .collect()
    }

    /// Build the column-major view (a counting-sort transpose: O(nnz) time and memory).
    pub fn columns(&self) -> ColumnView {
        let n = self.num_vars();
        let mut start = vec![0usize; n + 1];
        for &c in &self.col {
            start[c as usize + 1] += 1;
        }
        for j in 0..n {
            start[j + 1] += start[j];
        }
        let mut next = start.clone();
        let mut row = vec![0u32; self.col.len()];
        let mut val = vec![0f64; self.col.len()];
        for r in 0..self.num_rows() {
            for k in self.row_start[r]..self.row_start[r + 1] {
                let c = self.col[k] as usize;
                row[next[c]] = r as u32;
                val[next[c]] = self.val[k];
                next[c] += 1;
            }
        }
        ColumnView { start, row, val }
    }

    /// Evaluate the objective at `x` (one value per variable).
    pub fn objective_value(&self, x: &[f64]) -> f64 {
        self.obj.iter().zip(x).map(|(c, v)| c * v).sum()
    }

    /// Evaluate a row's left-hand side at `x`.
    pub fn row_activity(&self, r: RowId, x: &[f64]) -> f64 {
        self.row_terms(r).map(|(v, c)| c * x[v.index()]).sum()
    }
}

impl fmt::Display for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "model {}: {} variables, {} rows, {} non-zeros",
            self.name,
            self.num_vars(),
            self.num_rows(),
            self.num_nonzeros()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_design_rules() {
        assert!(check_name("p_i3_t7").is_ok());
        assert!(check_name("_x").is_ok());
        assert!(check_name("e12").is_err());
        assert!(check_name("E1x").is_err());
        assert!(check_name("eels").is_ok());
        assert!(check_name("3x").is_err());
        assert!(check_name("x[1]").is_err());
        assert!(check_name(&"a".repeat(64)).is_err());
        assert!(check_name(&"a".repeat(63)).is_ok());
        assert!(check_name("inflow").is_err());
        assert!(check_name("NaN_x").is_err());
        assert!(check_name("Free").is_err());
        assert!(check_name("st").is_err());
        assert!(check_name("st_1").is_ok());
    }

    #[test]
    fn rows_merge_duplicates_and_sort() {
        let mut m = Model::new("t");
        let x = m.add_var("x", VarKind::Continuous, 0.0, 1.0).unwrap();
        let y = m.add_var("y", VarKind::Integer, -0.5, 3.7).unwrap();
        assert_eq!(m.var_bounds(y), (0.0, 3.0));
        let r = m
            .add_row(
                "r",
                &[(y, 2.0), (x, 1.0), (y, -2.0), (x, 1.5)],
                Sense::Le,
                4.0,
            )
            .unwrap();
        let terms: Vec<_> = m.row_terms(r).collect();
        assert_eq!(terms, vec![(x, 2.5)]);
    }

    #[test]
    fn bad_input_is_rejected() {
        let mut m = Model::new("t");
        assert!(matches!(
            m.add_var("x", VarKind::Continuous, 2.0, 1.0),
            Err(ModelError::EmptyBounds { .. })
        ));
        let x = m.add_var("x", VarKind::Continuous, 0.0, 1.0).unwrap();
        assert!(m.add_row("r", &[(x, f64::NAN)], Sense::Le, 1.0).is_err());
        assert!(m.add_row("r", &[(Var(7), 1.0)], Sense::Le, 1.0).is_err());
        assert_eq!(m.num_nonzeros(), 0);
        assert!(
            m.add_row("r", &[(x, 1.0)], Sense::Le, f64::INFINITY)
                .is_err()
        );
    }

    #[test]
    fn column_view_is_the_transpose() {
        let mut m = Model::new("t");
        let x = m.add_var("x", VarKind::Binary, 0.0, 9.0).unwrap();
        let y = m
            .add_var("y", VarKind::Continuous, f64::NEG_INFINITY, f64::INFINITY)
            .unwrap();
        assert_eq!(m.var_bounds(x), (0.0, 1.0));
        m.add_row("a", &[(x, 1.0), (y, 2.0)], Sense::Ge, 1.0)
            .unwrap();
        m.add_row("b", &[(y, 3.0)], Sense::Eq, 0.0).unwrap();
        let cv = m.columns();
        assert_eq!(cv.column(x).collect::<Vec<_>>(), vec![(RowId(0), 1.0)]);
        assert_eq!(
            cv.column(y).collect::<Vec<_>>(),
            vec![(RowId(0), 2.0), (RowId(1), 3.0)]
        );
    }
}
