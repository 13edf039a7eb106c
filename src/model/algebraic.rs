//! Algebraic models as data: which template states the model's equations over index sets,
//! and the instance data the template is filled with (whole-number scalars, labels and
//! comment text, explicitly listed sets, two-dimensional tables).
//!
//! A formulation builds an [`Algebraic`] from a puzzle (it validates the puzzle and decides
//! what every name means); a writer (`format::gams`) renders it without knowing any puzzle.
//! The names are the template's: a table or set is named after the GAMS symbol it fills, a
//! scalar or text after the placeholder that shows it.

/// The model templates a writer knows, one per formulation that is written algebraically.
/// The equations live in the template; only the instance data varies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Template {
    /// The NEOS Guide "15 Puzzle" case study's time-indexed model
    /// (`templates/sliding_neos.gms.tera`).
    SlidingNeos,
    /// The edge-matching MILP of Salassa et al. (`templates/edge_milp.gms.tera`).
    EdgeMilp,
    /// Their region MILP (15)–(17) (`templates/edge_region.gms.tera`).
    EdgeRegion,
}

impl Template {
    /// The template's file stem under `templates/` (`sliding_neos`, `edge_milp`).
    pub fn name(self) -> &'static str {
        match self {
            Template::SlidingNeos => "sliding_neos",
            Template::EdgeMilp => "edge_milp",
            Template::EdgeRegion => "edge_region",
        }
    }
}

/// A table of whole numbers over two label sets: `values[i][j]` belongs to row label
/// `rows[i]` and column label `cols[j]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    /// Row labels, in order.
    pub rows: Vec<String>,
    /// Column labels, in order.
    pub cols: Vec<String>,
    /// One row of values per row label, one value per column label.
    pub values: Vec<Vec<i64>>,
    /// Width of each printed column. GAMS matches a table value to the column label it
    /// overlaps, so the layout is part of the data's meaning; the formulation fixes it so that
    /// its files stay byte-for-byte stable. Every label and value must be narrower.
    pub width: usize,
}

/// One algebraic model instance: its template and the named data that fills it. Every name is
/// used once across all kinds of data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Algebraic {
    /// The template that states the model.
    pub template: Template,
    /// Whole numbers: sizes, set bounds, 0/1 switches.
    pub scalars: Vec<(String, i64)>,
    /// One-line texts: element labels (`t3`), and words for the model's comments.
    pub texts: Vec<(String, String)>,
    /// Multi-line texts, one string per line (the template indents and places them).
    pub blocks: Vec<(String, Vec<String>)>,
    /// Explicitly listed sets: each member is a tuple of labels, one per index.
    pub sets: Vec<(String, Vec<Vec<String>>)>,
    /// Two-dimensional tables of whole numbers.
    pub tables: Vec<(String, Table)>,
}

impl Algebraic {
    /// A model of `template` with no data yet.
    pub fn new(template: Template) -> Self {
        Algebraic {
            template,
            scalars: Vec::new(),
            texts: Vec::new(),
            blocks: Vec::new(),
            sets: Vec::new(),
            tables: Vec::new(),
        }
    }

    /// Add the scalar `name`.
    pub fn scalar(mut self, name: &str, value: i64) -> Self {
        self.scalars.push((name.to_string(), value));
        self
    }

    /// Add the one-line text `name`.
    pub fn text(mut self, name: &str, value: impl Into<String>) -> Self {
        self.texts.push((name.to_string(), value.into()));
        self
    }

    /// Add the multi-line text `name`, one string per line.
    pub fn block(mut self, name: &str, lines: Vec<String>) -> Self {
        self.blocks.push((name.to_string(), lines));
        self
    }

    /// Add the set `name` with its member tuples.
    pub fn set(mut self, name: &str, members: Vec<Vec<String>>) -> Self {
        self.sets.push((name.to_string(), members));
        self
    }

    /// Add the table `name`.
    pub fn table(mut self, name: &str, table: Table) -> Self {
        self.tables.push((name.to_string(), table));
        self
    }

    /// Every data name, in the order: scalars, texts, blocks, sets, tables.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        fn of<T>(v: &[(String, T)]) -> impl Iterator<Item = &str> {
            v.iter().map(|(n, _)| n.as_str())
        }
        of(&self.scalars)
            .chain(of(&self.texts))
            .chain(of(&self.blocks))
            .chain(of(&self.sets))
            .chain(of(&self.tables))
    }
}
