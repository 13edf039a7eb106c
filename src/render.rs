//! SVG pictures of boards, written as plain text (no drawing crate): edge-matching boards as
//! four coloured triangles per cell with unmatched edges marked in red, and sliding puzzles
//! as the start board with the blank's numbered path, next to the board the moves reach.
//!
//! Output is deterministic (fixed palette, integer coordinates), so it can be snapshot-tested.

use crate::puzzle::edge::{Board, EdgePuzzle};
use crate::puzzle::sliding::{Move, SlidingPuzzle};
use std::fmt::Write as _;

/// Options for [`render_edge`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EdgeRenderOptions {
    /// Side of one cell in pixels (at least 16).
    pub cell: u32,
    /// Write each piece's id in the middle of its cell.
    pub show_ids: bool,
    /// Write each side's colour number in its triangle (useful with many colours).
    pub show_colours: bool,
    /// Draw a red line on every inner seam whose sides differ and every outward side that is
    /// not grey (only when a board is given).
    pub mark_unmatched: bool,
}

impl Default for EdgeRenderOptions {
    fn default() -> Self {
        EdgeRenderOptions {
            cell: 48,
            show_ids: false,
            show_colours: false,
            mark_unmatched: true,
        }
    }
}

/// Twenty-two well-separated colours for colours 1..=22 (EII uses 22); beyond that
/// [`colour_fill`] walks the hue circle by the golden angle.
const PALETTE: [&str; 22] = [
    "#e6194b", "#3cb44b", "#ffe119", "#4363d8", "#f58231", "#911eb4", "#46f0f0", "#f032e6",
    "#bcf60c", "#fabebe", "#008080", "#e6beff", "#9a6324", "#fffac8", "#800000", "#aaffc3",
    "#808000", "#ffd8b1", "#000075", "#c0c0c0", "#ff7f7f", "#7f7fff",
];

/// The fill for a colour number: grey for 0, a fixed palette after that.
pub fn colour_fill(colour: u16) -> String {
    if colour == 0 {
        return "#7a7a7a".to_string();
    }
    if let Some(c) = PALETTE.get(colour as usize - 1) {
        return (*c).to_string();
    }
    // Golden-angle hues, two lightness levels; integer arithmetic keeps it reproducible.
    let k = colour as u32;
    let hue = (k * 137) % 360;
    let light = if k.is_multiple_of(2) { 45 } else { 65 };
    let (r, g, b) = hsl_to_rgb(hue, 70, light);
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// HSL (degrees, percent, percent) to 8-bit RGB.
fn hsl_to_rgb(h: u32, s: u32, l: u32) -> (u8, u8, u8) {
    let (s, l) = (s as f64 / 100.0, l as f64 / 100.0);
    let c = (1.0 - (2.0 * l - 1.0).abs()) * s;
    let hp = h as f64 / 60.0;
    let x = c * (1.0 - (hp % 2.0 - 1.0).abs());
    let (r1, g1, b1) = match h / 60 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = l - c / 2.0;
    let to = |v: f64| ((v + m) * 255.0).round().clamp(0.0, 255.0) as u8;
    (to(r1), to(g1), to(b1))
}

/// Black or white text, whichever reads better on `fill` (`#rrggbb`).
fn ink_for(fill: &str) -> &'static str {
    let v = |i: usize| u32::from_str_radix(fill.get(i..i + 2).unwrap_or("80"), 16).unwrap_or(128);
    let luma = 299 * v(1) + 587 * v(3) + 114 * v(5);
    if luma > 140_000 { "#000" } else { "#fff" }
}

const MARGIN: u32 = 8;

/// Draw an edge-matching puzzle. With a board, each cell shows its piece as placed (empty
/// cells dashed); without one, the pieces are laid out in file order at rotation 0.
pub fn render_edge(puzzle: &EdgePuzzle, board: Option<&Board>, opts: &EdgeRenderOptions) -> String {
    let (rows, cols) = (puzzle.rows(), puzzle.cols());
    let cell = opts.cell.max(16);
    let (w, h) = (
        cols as u32 * cell + 2 * MARGIN,
        rows as u32 * cell + 2 * MARGIN,
    );
    // What each cell shows: (piece id, up/right/down/left colours).
    let shown: Vec<Option<(u16, [u16; 4])>> = (0..rows * cols)
        .map(|i| match board {
            Some(b) if (b.rows, b.cols) == (rows, cols) => b
                .cells
                .get(i)
                .copied()
                .flatten()
                .and_then(|(id, rot)| puzzle.piece(id).map(|p| (id, p.placed(rot)))),
            Some(_) => None,
            None => puzzle
                .pieces()
                .get(i)
                .map(|p| (p.id, p.placed(Default::default()))),
        })
        .collect();
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif">"#
    );
    let what = if board.is_some() {
        "board"
    } else {
        "pieces in file order"
    };
    let _ = writeln!(s, "<title>{rows}×{cols} edge-matching {what}</title>");
    let _ = writeln!(s, r##"<rect width="{w}" height="{h}" fill="#ffffff"/>"##);
    let at = |i: usize| {
        (
            MARGIN + (i % cols) as u32 * cell,
            MARGIN + (i / cols) as u32 * cell,
        )
    };
    for (i, content) in shown.iter().enumerate() {
        let (x0, y0) = at(i);
        let (x1, y1) = (x0 + cell, y0 + cell);
        let (cx, cy) = (x0 + cell / 2, y0 + cell / 2);
        let Some((id, col)) = content else {
            let _ = writeln!(
                s,
                r##"<rect x="{x0}" y="{y0}" width="{cell}" height="{cell}" fill="#ffffff" stroke="#999999" stroke-dasharray="4 3"/>"##
            );
            continue;
        };
        // Triangles up, right, down, left: the cell's side and its centre.
        let tri = [
            [(x0, y0), (x1, y0)],
            [(x1, y0), (x1, y1)],
            [(x1, y1), (x0, y1)],
            [(x0, y1), (x0, y0)],
        ];
        for (d, [(ax, ay), (bx, by)]) in tri.iter().enumerate() {
            let fill = colour_fill(col[d]);
            let _ = writeln!(
                s,
                r##"<polygon points="{ax},{ay} {bx},{by} {cx},{cy}" fill="{fill}" stroke="#333333" stroke-width="0.5"/>"##
            );
            if opts.show_colours {
                // Two thirds of the way from the centre to the side's midpoint.
                let (mx, my) = ((ax + bx) / 2, (ay + by) / 2);
                let (tx, ty) = ((cx + 2 * mx) / 3, (cy + 2 * my) / 3 + cell / 16);
                let _ = writeln!(
                    s,
                    r#"<text x="{tx}" y="{ty}" font-size="{}" text-anchor="middle" fill="{}">{}</text>"#,
                    cell / 5,
                    ink_for(&fill),
                    col[d]
                );
            }
        }
        if opts.show_ids {
            let _ = writeln!(
                s,
                r##"<circle cx="{cx}" cy="{cy}" r="{}" fill="#ffffff" fill-opacity="0.85"/>"##,
                cell / 5
            );
            let _ = writeln!(
                s,
                r#"<text x="{cx}" y="{}" font-size="{}" text-anchor="middle">{id}</text>"#,
                cy + cell / 14,
                cell / 5
            );
        }
    }
    if board.is_some() && opts.mark_unmatched {
        let mut marks = String::new();
        let mut line = |x0: u32, y0: u32, x1: u32, y1: u32| {
            let _ = writeln!(
                marks,
                r##"<line x1="{x0}" y1="{y0}" x2="{x1}" y2="{y1}" stroke="#ff0000" stroke-width="3" stroke-linecap="round"/>"##
            );
        };
        for (i, content) in shown.iter().enumerate() {
            let Some((_, col)) = content else { continue };
            let (r, c) = (i / cols, i % cols);
            let (x0, y0) = at(i);
            let (x1, y1) = (x0 + cell, y0 + cell);
            // Outward sides that are not grey.
            if r == 0 && col[0] != 0 {
                line(x0, y0, x1, y0);
            }
            if c + 1 == cols && col[1] != 0 {
                line(x1, y0, x1, y1);
            }
            if r + 1 == rows && col[2] != 0 {
                line(x0, y1, x1, y1);
            }
            if c == 0 && col[3] != 0 {
                line(x0, y0, x0, y1);
            }
            // Inner seams to the right and below, when both cells are filled.
            if c + 1 < cols
                && let Some((_, nb)) = shown[i + 1]
                && (col[1] != nb[3] || col[1] == 0)
            {
                line(x1, y0, x1, y1);
            }
            if r + 1 < rows
                && let Some((_, nb)) = shown[i + cols]
                && (col[2] != nb[0] || col[2] == 0)
            {
                line(x0, y1, x1, y1);
            }
        }
        s.push_str(&marks);
    }
    s.push_str("</svg>\n");
    s
}

const TILE: u32 = 40;

/// Where a cell's path markers sit, relative to its top-left corner: a row along the top of
/// the cell, above the tile number (centred, baseline at `TILE / 2 + 6`), so that a marker and
/// the number it shares a cell with do not cover each other. The first visit sits at slot 0,
/// through which the path line runs; revisits take slots 1 and 2, then wrap around.
const MARKER_SLOTS: [(u32, u32); 3] = [(8, 8), (20, 8), (32, 8)];

/// Radius of a path marker: small enough that [`MARKER_SLOTS`] fit side by side in one cell.
const MARKER_R: u32 = 6;

/// How many times each cell has been visited so far along a path, in one pass: the marker
/// slot of a step depends only on its cell's earlier visits, so a counter per cell gives it in
/// constant time. (Counting matches over the whole path so far made long plans quadratic.)
struct Visits(Vec<u32>);

impl Visits {
    fn new(cells: usize) -> Self {
        Visits(vec![0; cells])
    }

    /// The number of earlier visits to `cell`, and this visit counted.
    fn visit(&mut self, cell: usize) -> u32 {
        let earlier = self.0[cell];
        self.0[cell] += 1;
        earlier
    }
}

/// Draw one sliding board's caption and tiles (without numbers) with its top-left corner at
/// (`x`, `y`). The numbers are a separate layer, [`sliding_numbers`], so that the start board's
/// path can go between the two and never hide a number.
fn sliding_tiles(s: &mut String, p: &SlidingPuzzle, x: u32, y: u32, label: &str) {
    let _ = writeln!(
        s,
        r#"<text x="{x}" y="{}" font-size="13">{label}</text>"#,
        y - 6
    );
    for (i, &t) in p.tiles().iter().enumerate() {
        let tx = x + (i % p.cols()) as u32 * TILE;
        let ty = y + (i / p.cols()) as u32 * TILE;
        let fill = if t == 0 { "#dddddd" } else { "#f4e4bc" };
        let _ = writeln!(
            s,
            r##"<rect x="{tx}" y="{ty}" width="{TILE}" height="{TILE}" fill="{fill}" stroke="#333333"/>"##
        );
    }
}

/// Write the tile numbers of a board drawn by [`sliding_tiles`] at (`x`, `y`). Each number has
/// a white halo (a stroke painted under the fill) so it stays legible where the path line or a
/// marker passes beneath it.
fn sliding_numbers(s: &mut String, p: &SlidingPuzzle, x: u32, y: u32) {
    for (i, &t) in p.tiles().iter().enumerate() {
        if t == 0 {
            continue;
        }
        let tx = x + (i % p.cols()) as u32 * TILE;
        let ty = y + (i / p.cols()) as u32 * TILE;
        let _ = writeln!(
            s,
            r##"<text x="{}" y="{}" font-size="16" text-anchor="middle" stroke="#ffffff" stroke-width="3" stroke-linejoin="round" paint-order="stroke">{t}</text>"##,
            tx + TILE / 2,
            ty + TILE / 2 + 6
        );
    }
}

/// Draw a sliding puzzle's start board; with `moves`, overlay the blank's path (numbered
/// steps, 0 at the start) and draw the board the moves reach to the right. A move that would
/// leave the board ends the path there, and the caption says so.
///
/// Linear in the number of moves. The path and its markers are drawn beneath the start board's
/// tile numbers, in a row along the top of each cell, so both stay readable.
pub fn render_sliding(puzzle: &SlidingPuzzle, moves: Option<&[Move]>) -> String {
    let (rows, cols) = (puzzle.rows() as u32, puzzle.cols() as u32);
    let bw = cols * TILE;
    let top = 24;
    let panels = if moves.is_some() { 2 } else { 1 };
    let w = panels * (bw + 2 * MARGIN) + (panels - 1) * 16;
    let h = rows * TILE + top + MARGIN + 20;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif">"#
    );
    let _ = writeln!(s, "<title>{rows}×{cols} sliding puzzle</title>");
    let _ = writeln!(s, r##"<rect width="{w}" height="{h}" fill="#ffffff"/>"##);
    sliding_tiles(&mut s, puzzle, MARGIN, top, "start");
    let Some(moves) = moves else {
        sliding_numbers(&mut s, puzzle, MARGIN, top);
        s.push_str("</svg>\n");
        return s;
    };
    let mut board = puzzle.clone();
    let mut path = Vec::with_capacity(moves.len() + 1);
    path.push(board.blank_cell());
    let mut stopped = None;
    for (k, &m) in moves.iter().enumerate() {
        if !board.apply(m) {
            stopped = Some(k + 1);
            break;
        }
        path.push(board.blank_cell());
    }
    // A marker's position: its cell's top-left corner plus its slot.
    let marker_at = |cell: usize, slot: usize| {
        let (dx, dy) = MARKER_SLOTS[slot];
        (
            MARGIN + (cell as u32 % cols) * TILE + dx,
            top + (cell as u32 / cols) * TILE + dy,
        )
    };
    // The line joins the first-visit slots, so it meets the markers and mostly runs above
    // the numbers. Written straight into `s`: one pass, no per-point strings.
    s.push_str(r#"<polyline points=""#);
    for (k, &c) in path.iter().enumerate() {
        let (x, y) = marker_at(c, 0);
        let sep = if k == 0 { "" } else { " " };
        let _ = write!(s, "{sep}{x},{y}");
    }
    s.push_str(
        r##"" fill="none" stroke="#1f5fbf" stroke-width="3" stroke-opacity="0.6" stroke-linejoin="round"/>"##,
    );
    s.push('\n');
    let mut visits = Visits::new(puzzle.cells());
    for (k, &c) in path.iter().enumerate() {
        // Revisited cells: later steps take the next slot along so step numbers stay apart.
        let slot = (visits.visit(c) as usize) % MARKER_SLOTS.len();
        let (x, y) = marker_at(c, slot);
        let _ = writeln!(
            s,
            r##"<circle cx="{x}" cy="{y}" r="{MARKER_R}" fill="#1f5fbf" fill-opacity="0.8"/><text x="{x}" y="{}" font-size="8" text-anchor="middle" fill="#ffffff">{k}</text>"##,
            y + 3
        );
    }
    // The start board's numbers last, over the path, so no marker can hide one.
    sliding_numbers(&mut s, puzzle, MARGIN, top);
    let done = path.len() - 1;
    let label = match stopped {
        Some(k) => format!("after {done} moves (move {k} leaves the board)"),
        None => format!("after {done} moves"),
    };
    let x2 = MARGIN * 3 + bw + 16;
    sliding_tiles(&mut s, &board, x2, top, &label);
    sliding_numbers(&mut s, &board, x2, top);
    let _ = writeln!(
        s,
        r#"<text x="{MARGIN}" y="{}" font-size="12">{}</text>"#,
        h - 6,
        moves.iter().map(|m| m.letter()).collect::<String>()
    );
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::edge::Rotation;
    use crate::puzzle::sliding::Goal;

    /// Parses the whole document with quick_xml (which checks that end tags match).
    fn assert_well_formed(svg: &str) {
        let mut reader = quick_xml::Reader::from_str(svg);
        let mut depth = 0i32;
        let mut elements = 0;
        loop {
            match reader.read_event() {
                Ok(quick_xml::events::Event::Start(_)) => {
                    depth += 1;
                    elements += 1;
                }
                Ok(quick_xml::events::Event::Empty(_)) => elements += 1,
                Ok(quick_xml::events::Event::End(_)) => depth -= 1,
                Ok(quick_xml::events::Event::Eof) => break,
                Ok(_) => {}
                Err(e) => panic!("malformed SVG at {}: {e}", reader.buffer_position()),
            }
        }
        assert_eq!(depth, 0);
        assert!(elements > 3);
    }

    /// A generated 2×3 board with its two top corners swapped (turned to keep grey outward),
    /// so that some seams are unmatched.
    fn tiny() -> (EdgePuzzle, Board) {
        let (p, mut b) = crate::puzzle::edge::generate(2, 3, 2, 1, 3).unwrap();
        let (a, c) = (b.cells[0].unwrap().0, b.cells[2].unwrap().0);
        b.cells[0] = Some((c, p.fitting_rotations(c, 0, 0)[0]));
        b.cells[2] = Some((a, p.fitting_rotations(a, 0, 2)[0]));
        (p, b)
    }

    #[test]
    fn edge_snapshot_and_marks() {
        let (p, b) = tiny();
        let opts = EdgeRenderOptions {
            show_ids: true,
            ..Default::default()
        };
        let svg = render_edge(&p, Some(&b), &opts);
        assert_well_formed(&svg);
        insta::assert_snapshot!("edge_2x3_board", svg);
        // Same input, same bytes.
        assert_eq!(svg, render_edge(&p, Some(&b), &opts));
        let marks = svg.matches(r##"stroke="#ff0000""##).count();
        let sc = crate::puzzle::edge::score(&p, &b);
        assert_eq!(marks, sc.unmatched() + sc.rim_faults);
        // Turning a corner adds red marks; an empty cell is dashed.
        let mut b2 = b.clone();
        b2.cells[0] = Some((2, Rotation::new(2).unwrap()));
        b2.cells[5] = None;
        let svg2 = render_edge(&p, Some(&b2), &opts);
        assert_well_formed(&svg2);
        assert!(svg2.contains("stroke-dasharray"));
        assert!(svg2.matches(r##"stroke="#ff0000""##).count() > marks);
    }

    #[test]
    fn edge_pieces_without_board() {
        let (p, _) = tiny();
        let svg = render_edge(
            &p,
            None,
            &EdgeRenderOptions {
                show_colours: true,
                ..Default::default()
            },
        );
        assert_well_formed(&svg);
        assert_eq!(svg.matches("<polygon").count(), 24);
        assert!(!svg.contains("#ff0000"));
        // Large colour numbers still get distinct fills.
        assert_ne!(colour_fill(40), colour_fill(41));
        assert_eq!(colour_fill(0), "#7a7a7a");
    }

    #[test]
    fn sliding_snapshot() {
        let p = SlidingPuzzle::parse("1 2 3\n4 0 5\n7 8 6\n", "s", Goal::BlankLast).unwrap();
        let moves = [Move::Right, Move::Down];
        let svg = render_sliding(&p, Some(&moves));
        assert_well_formed(&svg);
        insta::assert_snapshot!("sliding_3x3_two_moves", svg);
        assert!(svg.contains(">after 2 moves<"));
        let plain = render_sliding(&p, None);
        assert_well_formed(&plain);
        assert!(!plain.contains("polyline"));
        // A move off the board stops the path and says so.
        let off = render_sliding(&p, Some(&[Move::Up, Move::Up, Move::Left]));
        assert_well_formed(&off);
        assert!(off.contains("after 1 moves (move 2 leaves the board)"));
    }

    /// The `(x, y)` attributes (or `cx`, `cy`) of every element named `name` whose
    /// `font-size` is `size` (any size when `None`), in document order.
    fn positions(svg: &str, name: &str, size: Option<&str>) -> Vec<(u32, u32)> {
        let mut reader = quick_xml::Reader::from_str(svg);
        let mut out = Vec::new();
        loop {
            match reader.read_event().unwrap() {
                quick_xml::events::Event::Start(e) | quick_xml::events::Event::Empty(e)
                    if e.name().as_ref() == name =>
                {
                    let attr = |k: &str| {
                        e.try_get_attribute(k)
                            .unwrap()
                            .map(|a| a.value.into_owned())
                    };
                    if size.is_some() && attr("font-size").as_deref() != size {
                        continue;
                    }
                    let num = |k: &str| attr(k).and_then(|v| v.parse().ok());
                    let p = num("x").zip(num("y"));
                    out.push(p.or(num("cx").zip(num("cy"))).unwrap());
                }
                quick_xml::events::Event::Eof => break,
                _ => {}
            }
        }
        out
    }

    /// Path markers must not hide the tile numbers: they are drawn before (beneath) the
    /// numbers and sit wholly above each number's glyphs in the same cell, including the
    /// slots used by revisits.
    #[test]
    fn sliding_markers_leave_numbers_readable() {
        let p = SlidingPuzzle::parse("1 2 3\n4 0 5\n7 8 6\n", "s", Goal::BlankLast).unwrap();
        // The blank goes back and forth three times (cells 4 and 5 get three markers each),
        // then down, left, left and up through four cells once each.
        let moves = [
            Move::Right,
            Move::Left,
            Move::Right,
            Move::Left,
            Move::Right,
            Move::Down,
            Move::Left,
            Move::Left,
            Move::Up,
        ];
        let svg = render_sliding(&p, Some(&moves));
        assert_well_formed(&svg);
        let circles = positions(&svg, "circle", None);
        assert_eq!(circles.len(), moves.len() + 1);
        // Every start-board number comes after the last marker, so it is painted over it.
        let last_marker = svg.rfind("<circle").unwrap();
        let first_number = svg.find(r#"font-size="16""#).unwrap();
        assert!(first_number > last_marker);
        assert!(svg.contains(r#"paint-order="stroke""#));
        let bw = 3 * TILE + 2 * MARGIN;
        let numbers: Vec<_> = positions(&svg, "text", Some("16"))
            .into_iter()
            .filter(|&(x, _)| x < bw)
            .collect();
        assert_eq!(numbers.len(), 8);
        for &(cx, cy) in &circles {
            for &(nx, ny) in &numbers {
                let same_cell = (cx - MARGIN) / TILE == (nx - MARGIN) / TILE
                    && (cy - 24) / TILE == (ny - 6 - TILE / 2 - 24) / TILE;
                // A 16 px number's glyphs rise about 12 px above its baseline.
                assert!(
                    !same_cell || cy + MARKER_R <= ny - 12,
                    "marker at {cx},{cy} covers the number at {nx},{ny}"
                );
            }
        }
        // Revisits take the other slots, so no two of a cell's first three markers coincide.
        let mut distinct = circles.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), 3 + 3 + 4);
    }

    #[test]
    fn visits_count_per_cell() {
        let mut v = Visits::new(4);
        let seq: Vec<u32> = [2, 3, 2, 2, 0, 3, 2].iter().map(|&c| v.visit(c)).collect();
        assert_eq!(seq, [0, 0, 1, 2, 0, 1, 3]);
    }

    /// A long back-and-forth plan (the shape that showed the quadratic time: every step
    /// revisits a cell seen thousands of times) renders completely: one marker per step, all
    /// on the two cells' three slots, and the SVG parses.
    #[test]
    fn sliding_long_plan_renders_every_marker() {
        let text = include_str!("../models/sliding/neos_case_study.txt");
        let p = SlidingPuzzle::parse(text, "neos_case_study.txt", Goal::BlankLast).unwrap();
        let n = 20_000;
        let moves: Vec<Move> = (0..n)
            .map(|i| if i % 2 == 0 { Move::Left } else { Move::Right })
            .collect();
        let svg = render_sliding(&p, Some(&moves));
        assert_well_formed(&svg);
        assert!(svg.contains(&format!(">after {n} moves<")));
        let circles = positions(&svg, "circle", None);
        assert_eq!(circles.len(), n + 1);
        let mut distinct = circles.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), 2 * MARKER_SLOTS.len());
        // The last step is the blank's 10,001st visit to its start cell: slot 10,000 % 3 = 1.
        let start = p.blank_cell() as u32;
        let (dx, dy) = MARKER_SLOTS[1];
        let expected = (
            MARGIN + (start % 4) * TILE + dx,
            24 + (start / 4) * TILE + dy,
        );
        assert_eq!(circles[n], expected);
        let polyline = svg.lines().find(|l| l.starts_with("<polyline")).unwrap();
        assert_eq!(polyline.matches(',').count(), n + 1);
        // Same input, same bytes.
        assert_eq!(svg, render_sliding(&p, Some(&moves)));
    }
}
