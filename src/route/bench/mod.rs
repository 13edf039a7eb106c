//! The benchmarks `tilekit bench` runs, one file each: the native search on the published
//! sliding sets ([`native`]), Salassa et al.'s Table 3 ([`sal`]), the edge searches against
//! the published anchors ([`edge`]), and best-first search with the learned heuristic
//! ([`astar`]). They share one shape, so that a new benchmark is one more file of the same
//! kind: options in, a [`Table`] printed a row at a time as the rows arrive, an [`Outcome`]
//! out (the rows and what they add up to, which is also the JSON a benchmark prints), and a
//! chart drawn in one [`svg`] frame.
//!
//! ```
//! use tilekit::route::bench::{Column, Table};
//! const COLUMNS: &[Column] = &[Column::right("id", 4), Column::left("what", 0)];
//! let t = Table::new(COLUMNS);
//! assert_eq!(t.header(), "  id what");
//! assert_eq!(t.row(&["7".into(), "ok".into()]), "   7 ok");
//! ```

pub mod astar;
pub mod edge;
pub mod native;
pub mod sal;

use crate::route::Error;
use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, IntoDrawingArea, SVGBackend, WHITE};
use serde::Serialize;

/// One column of a benchmark's table: its heading, its width, and which side it keeps to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Column {
    /// The heading.
    pub name: &'static str,
    /// Characters the column takes (0: as wide as its text, for the last column).
    pub width: usize,
    /// Text columns keep to the left, numbers to the right.
    pub left: bool,
}

impl Column {
    /// A column of numbers, kept to the right.
    pub const fn right(name: &'static str, width: usize) -> Self {
        Column {
            name,
            width,
            left: false,
        }
    }

    /// A column of text, kept to the left.
    pub const fn left(name: &'static str, width: usize) -> Self {
        Column {
            name,
            width,
            left: true,
        }
    }

    fn fit(&self, text: &str) -> String {
        if self.left {
            format!("{text:<w$}", w = self.width)
        } else {
            format!("{text:>w$}", w = self.width)
        }
    }
}

/// A benchmark's table: one heading line, then one line per row, the cells one space apart.
#[derive(Debug, Clone, Copy)]
pub struct Table {
    columns: &'static [Column],
}

impl Table {
    /// The table of these columns.
    pub const fn new(columns: &'static [Column]) -> Self {
        Table { columns }
    }

    /// The heading line.
    pub fn header(&self) -> String {
        let names: Vec<String> = self.columns.iter().map(|c| c.name.to_string()).collect();
        self.row(&names)
    }

    /// One row's line from its cells, already formatted (as many as there are columns).
    pub fn row(&self, cells: &[String]) -> String {
        debug_assert_eq!(cells.len(), self.columns.len(), "one cell per column");
        let line: Vec<String> = self
            .columns
            .iter()
            .zip(cells)
            .map(|(c, text)| c.fit(text))
            .collect();
        line.join(" ").trim_end().to_string()
    }
}

/// What a benchmark returns, and prints as JSON: its rows, and what they add up to.
#[derive(Debug, Clone, Serialize)]
pub struct Outcome<R, S> {
    /// The benchmark's name, as `tilekit bench` calls it.
    pub benchmark: String,
    /// One row per instance (or per instance and method), in the table's order.
    pub rows: Vec<R>,
    /// The totals, and the run's settings where they matter to a reader.
    pub summary: S,
}

/// An SVG chart of `size` pixels on white, drawn by `draw` (a plotters chart on the area it
/// is handed); a drawing error becomes [`Error::Failure`].
pub fn svg(
    size: (u32, u32),
    draw: impl FnOnce(&DrawingArea<SVGBackend<'_>, Shift>) -> Result<(), String>,
) -> Result<String, Error> {
    let failed = |e: String| Error::Failure(format!("drawing the chart: {e}"));
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, size).into_drawing_area();
        root.fill(&WHITE).map_err(|e| failed(e.to_string()))?;
        draw(&root).map_err(failed)?;
        root.present().map_err(|e| failed(e.to_string()))?;
    }
    Ok(text)
}

/// The legend every chart here draws: lower right, on a light box with a black border.
pub fn legend<'a, DB, CT>(ch: &mut plotters::chart::ChartContext<'a, DB, CT>) -> Result<(), String>
where
    DB: plotters::prelude::DrawingBackend + 'a,
    CT: plotters::coord::CoordTranslate,
{
    use plotters::prelude::{BLACK, Color, SeriesLabelPosition};
    ch.configure_series_labels()
        .position(SeriesLabelPosition::LowerRight)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_pads_each_column_to_its_side() {
        const COLUMNS: &[Column] = &[
            Column::left("inst", 6),
            Column::right("best", 5),
            Column::left("note", 0),
        ];
        let t = Table::new(COLUMNS);
        assert_eq!(t.header(), "inst    best note");
        assert_eq!(
            t.row(&["EII".into(), "460".into(), "".into()]),
            "EII      460"
        );
    }

    #[test]
    fn a_chart_is_an_svg_document() {
        let svg = svg((100, 50), |_| Ok(())).unwrap();
        assert!(svg.starts_with("<svg"), "{svg}");
        let err = svg_error();
        assert!(err.contains("drawing the chart: no"), "{err}");
    }

    fn svg_error() -> String {
        svg((10, 10), |_| Err("no".into())).unwrap_err().to_string()
    }
}
