//! Edge-matching puzzles (Eternity II style): pieces, rotations, boards, scores, generation.
//!
//! Conventions (`docs/src/reference/formats.md`, `models/edge-matching/README.md`):
//! - a piece is listed as four colours in clockwise order **bottom, left, top, right**;
//!   colour 0 is the grey border; the piece id is the 1-based line number;
//! - a [`Rotation`] is a number of **clockwise** quarter turns applied to the listed piece;
//! - placed colours are given as **up, right, down, left** (also clockwise);
//! - board row 0 is the top, column 0 the left.
//!
//! A board of `R × C` cells has `2RC − R − C` inner seams; the score is the number of inner
//! seams whose two sides carry the same non-grey colour.

use crate::error::InputError;
use std::fmt::Write as _;

/// Largest board side accepted (EII is 16; beyond 100 nothing downstream is practical).
pub const MAX_SIDE: usize = 100;

/// A number of clockwise quarter turns, always in `0..4`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Rotation(u8);

impl Rotation {
    /// The four rotations, 0 to 3 quarter turns.
    pub const ALL: [Rotation; 4] = [Rotation(0), Rotation(1), Rotation(2), Rotation(3)];

    /// `turns` clockwise quarter turns, or `None` unless `turns < 4`.
    pub fn new(turns: u8) -> Option<Rotation> {
        (turns < 4).then_some(Rotation(turns))
    }
    /// The number of clockwise quarter turns (0..4).
    pub fn turns(self) -> u8 {
        self.0
    }
    /// This rotation followed by `other`.
    pub fn then(self, other: Rotation) -> Rotation {
        Rotation((self.0 + other.0) % 4)
    }
}

/// Colours of a listed piece (bottom, left, top, right) once rotated by `rot`, as
/// **(up, right, down, left)**.
///
/// At rotation 0 the listed top is up; each clockwise quarter turn moves every colour one
/// side further clockwise (left → up → right → down).
pub fn placed_colours(listed: [u16; 4], rot: Rotation) -> [u16; 4] {
    // Placed side d (0 up, 1 right, 2 down, 3 left) shows listed index (d + 2 − r) mod 4.
    let r = rot.0 as usize;
    std::array::from_fn(|d| listed[(d + 6 - r) % 4])
}

/// The inverse of [`placed_colours`]: the listing (bottom, left, top, right) of a piece that
/// shows `placed` (up, right, down, left) after rotation `rot`.
pub fn listed_colours(placed: [u16; 4], rot: Rotation) -> [u16; 4] {
    let r = rot.0 as usize;
    std::array::from_fn(|i| placed[(i + r + 2) % 4])
}

/// What part of the board a piece belongs to, from its grey sides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PieceKind {
    /// Two adjacent grey sides.
    Corner,
    /// One grey side.
    Edge,
    /// No grey side.
    Inner,
}

/// One piece as listed in the instance file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece {
    /// 1-based id (the line number in the file, header and comments not counted).
    pub id: u16,
    /// Colours in the file order: bottom, left, top, right (clockwise); 0 = grey.
    pub colours: [u16; 4],
}

impl Piece {
    /// Colours (up, right, down, left) when placed with rotation `rot`.
    pub fn placed(&self, rot: Rotation) -> [u16; 4] {
        placed_colours(self.colours, rot)
    }
    /// Number of grey sides.
    pub fn greys(&self) -> usize {
        self.colours.iter().filter(|&&c| c == 0).count()
    }
    /// Corner, edge or inner piece; `None` when the grey sides fit no cell of a board with at
    /// least two rows and columns (two opposite greys, or three or four).
    pub fn kind(&self) -> Option<PieceKind> {
        let g = self.colours.map(|c| c == 0);
        match self.greys() {
            0 => Some(PieceKind::Inner),
            1 => Some(PieceKind::Edge),
            // Two greys are adjacent exactly when one of bottom/top is grey and the other not.
            2 if g[0] != g[2] => Some(PieceKind::Corner),
            _ => None,
        }
    }
}

/// An edge-matching instance: `rows × cols` cells and exactly `rows * cols` pieces.
///
/// Built only through [`EdgePuzzle::new`], [`EdgePuzzle::parse`] or [`generate`], which
/// check the piece counts and grey patterns, so formulations may rely on them.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct EdgePuzzle {
    rows: usize,
    cols: usize,
    pieces: Vec<Piece>,
}

/// Which sides of a listed piece sit along the rim (a "frame" side) in any legal placement:
/// the sides next to a grey side of a border piece. Used for the parity rule.
fn frame_sides(colours: [u16; 4]) -> [bool; 4] {
    std::array::from_fn(|i| {
        colours[i] != 0 && (colours[(i + 1) % 4] == 0 || colours[(i + 3) % 4] == 0)
    })
}

impl EdgePuzzle {
    /// A puzzle from listed colours (bottom, left, top, right), ids 1.. in order. Checks the
    /// size, the piece count, the grey pattern of every piece, the number of corner, edge and
    /// inner pieces, and the colour parity rule (see [`EdgePuzzle::parse`]).
    pub fn new(rows: usize, cols: usize, colours: Vec<[u16; 4]>) -> Result<Self, String> {
        Self::build(rows, cols, colours).map_err(|(_, m)| m)
    }

    /// Shared checks; an error carries the index of the offending piece when there is one.
    fn build(
        rows: usize,
        cols: usize,
        colours: Vec<[u16; 4]>,
    ) -> Result<Self, (Option<usize>, String)> {
        if !(2..=MAX_SIDE).contains(&rows) || !(2..=MAX_SIDE).contains(&cols) {
            return Err((
                None,
                format!(
                    "a board must have between 2 and {MAX_SIDE} rows and columns, not {rows}×{cols}"
                ),
            ));
        }
        let n = rows * cols;
        if colours.len() != n {
            return Err((
                None,
                format!(
                    "a {rows}×{cols} board needs {n} pieces, found {}",
                    colours.len()
                ),
            ));
        }
        let pieces: Vec<Piece> = colours
            .into_iter()
            .enumerate()
            .map(|(i, c)| Piece {
                id: (i + 1) as u16,
                colours: c,
            })
            .collect();
        let mut counts = [0usize; 3];
        for (i, p) in pieces.iter().enumerate() {
            match p.kind() {
                Some(PieceKind::Corner) => counts[0] += 1,
                Some(PieceKind::Edge) => counts[1] += 1,
                Some(PieceKind::Inner) => counts[2] += 1,
                None if p.greys() == 2 => {
                    return Err((
                        Some(i),
                        format!(
                            "piece {} has grey (0) on two opposite sides: no cell of a board with at least two rows and columns fits it",
                            p.id
                        ),
                    ));
                }
                None => {
                    return Err((
                        Some(i),
                        format!(
                            "piece {} has {} grey (0) sides: a piece has at most two, adjacent ones (a corner)",
                            p.id,
                            p.greys()
                        ),
                    ));
                }
            }
        }
        let want = [4, 2 * (rows - 2) + 2 * (cols - 2), (rows - 2) * (cols - 2)];
        for (k, name) in ["corner", "edge", "inner"].iter().enumerate() {
            if counts[k] != want[k] {
                return Err((
                    None,
                    format!(
                        "a {rows}×{cols} board needs {} {name} pieces ({}), found {}",
                        want[k],
                        ["two adjacent grey sides", "one grey side", "no grey side"][k],
                        counts[k]
                    ),
                ));
            }
        }
        // Parity: every seam joins two sides of the same class (two rim-running sides, or two
        // inward sides), so in a perfect board each colour occurs an even number of times on
        // each class. All shipped sets satisfy it; a mistyped piece usually breaks it.
        let mut tally: std::collections::BTreeMap<(u16, bool), (usize, usize)> = Default::default();
        for (i, p) in pieces.iter().enumerate() {
            for (&colour, frame) in p.colours.iter().zip(frame_sides(p.colours)) {
                if colour != 0 {
                    let e = tally.entry((colour, frame)).or_insert((0, i));
                    e.0 += 1;
                    e.1 = i;
                }
            }
        }
        for (&(colour, frame), &(count, last)) in &tally {
            if count % 2 == 1 {
                let class = if frame {
                    "on the rim-running sides of border pieces"
                } else {
                    "on inward-facing sides"
                };
                return Err((
                    Some(last),
                    format!(
                        "colour {colour} occurs {count} times {class}, an odd number, so no perfect board exists (last seen on piece {}; is a piece mistyped?)",
                        last + 1
                    ),
                ));
            }
        }
        Ok(EdgePuzzle { rows, cols, pieces })
    }

    /// Parse a piece file: `#` comments, an optional header line `R C`, then one piece per
    /// line as four colours (bottom, left, top, right; 0 = grey). Without a header the size
    /// is inferred from the number of pieces and of edge pieces (`R + C = edges/2 + 4`,
    /// `R·C = pieces`, rows ≤ cols): this reads the official 16×16 set and the 6×12 clue
    /// puzzles. Checks: four numbers per line, the piece count, grey patterns, the number of
    /// corner/edge/inner pieces, and colour parity (each colour occurs an even number of
    /// times on rim-running sides and an even number of times on inward sides, since every
    /// seam joins two sides of the same class; otherwise no perfect board exists).
    pub fn parse(text: &str, source: &str) -> Result<Self, InputError> {
        let mut header: Option<(usize, usize, usize)> = None;
        let mut colours: Vec<[u16; 4]> = Vec::new();
        let mut lines: Vec<usize> = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let toks: Vec<&str> = raw
                .split('#')
                .next()
                .unwrap_or("")
                .split_whitespace()
                .collect();
            if toks.is_empty() {
                continue;
            }
            if header.is_none() && colours.is_empty() && toks.len() == 2 {
                let mut dims = [0usize; 2];
                for (d, t) in dims.iter_mut().zip(&toks) {
                    *d = t.parse().map_err(|_| {
                        InputError::at(
                            source,
                            line,
                            format!(
                                "{t:?} is not a number: expected a header 'R C' (rows, columns)"
                            ),
                        )
                    })?;
                }
                if !(2..=MAX_SIDE).contains(&dims[0]) || !(2..=MAX_SIDE).contains(&dims[1]) {
                    return Err(InputError::at(
                        source,
                        line,
                        format!(
                            "a board must have between 2 and {MAX_SIDE} rows and columns, not {}×{}",
                            dims[0], dims[1]
                        ),
                    ));
                }
                header = Some((dims[0], dims[1], line));
                continue;
            }
            if toks.len() != 4 {
                return Err(InputError::at(
                    source,
                    line,
                    format!(
                        "found {} numbers: a piece line has four colours (bottom, left, top, right)",
                        toks.len()
                    ),
                ));
            }
            let mut c = [0u16; 4];
            for (v, t) in c.iter_mut().zip(&toks) {
                *v = t.parse().map_err(|_| {
                    InputError::at(
                        source,
                        line,
                        format!(
                            "{t:?} is not a colour: expected whole numbers 0 to 65535, 0 for grey"
                        ),
                    )
                })?;
            }
            colours.push(c);
            lines.push(line);
        }
        if colours.is_empty() {
            return Err(InputError::whole(
                source,
                "no pieces found: expected an optional 'R C' header, then one piece per line",
            ));
        }
        let n = colours.len();
        let (rows, cols) = match header {
            Some((r, c, line)) => {
                if r * c != n {
                    return Err(InputError::at(
                        source,
                        line,
                        format!("header says {r}×{c} = {} pieces but {n} follow", r * c),
                    ));
                }
                (r, c)
            }
            None => infer_size(&colours).ok_or_else(|| {
                InputError::whole(
                    source,
                    format!(
                        "cannot infer the board size from {n} pieces: no R×C board has that many pieces with this many edge pieces; add an 'R C' header line"
                    ),
                )
            })?,
        };
        Self::build(rows, cols, colours).map_err(|(piece, msg)| match piece {
            Some(i) => InputError::at(source, lines[i], msg),
            None => InputError::whole(source, msg),
        })
    }

    /// Rows.
    pub fn rows(&self) -> usize {
        self.rows
    }
    /// Columns.
    pub fn cols(&self) -> usize {
        self.cols
    }
    /// The pieces in file order (`pieces()[k].id == k + 1`).
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }
    /// The piece with 1-based id `id`, if any.
    pub fn piece(&self, id: u16) -> Option<&Piece> {
        (id as usize)
            .checked_sub(1)
            .and_then(|i| self.pieces.get(i))
    }
    /// Listed colours of every piece, in file order (the input of `verify::edge`).
    pub fn colours(&self) -> Vec<[u16; 4]> {
        self.pieces.iter().map(|p| p.colours).collect()
    }
    /// Number of inner seams, the best possible score: `2RC − R − C`.
    pub fn max_score(&self) -> usize {
        2 * self.rows * self.cols - self.rows - self.cols
    }
    /// The largest colour number used.
    pub fn max_colour(&self) -> u16 {
        self.pieces
            .iter()
            .flat_map(|p| p.colours)
            .max()
            .unwrap_or(0)
    }
    /// The rotations of a piece that put grey exactly on the outward sides of cell
    /// (`row`, `col`) and nowhere else (all four for an inner piece in an inner cell).
    pub fn fitting_rotations(&self, id: u16, row: usize, col: usize) -> Vec<Rotation> {
        let Some(p) = self.piece(id) else {
            return Vec::new();
        };
        let out = [
            row == 0,
            col + 1 == self.cols,
            row + 1 == self.rows,
            col == 0,
        ];
        Rotation::ALL
            .into_iter()
            .filter(|&r| {
                let pl = p.placed(r);
                (0..4).all(|d| (pl[d] == 0) == out[d])
            })
            .collect()
    }
    /// The instance in Brendan Owen's format: `R C` header, then one piece per line.
    pub fn to_text(&self) -> String {
        let mut s = format!("{} {}\n", self.rows, self.cols);
        for p in &self.pieces {
            let c = p.colours;
            let _ = writeln!(s, "{} {} {} {}", c[0], c[1], c[2], c[3]);
        }
        s
    }
}

/// Rows and columns (rows ≤ cols) from the piece count and the number of edge pieces.
fn infer_size(colours: &[[u16; 4]]) -> Option<(usize, usize)> {
    let n = colours.len();
    let edges = colours
        .iter()
        .filter(|c| c.iter().filter(|&&x| x == 0).count() == 1)
        .count();
    let mut found = None;
    for r in 2..=MAX_SIDE {
        if n.is_multiple_of(r) {
            let c = n / r;
            if c >= r && c <= MAX_SIDE && 2 * (r - 2) + 2 * (c - 2) == edges {
                found = Some((r, c));
            }
        }
    }
    // Fall back to a square (the error then comes from the piece-kind check).
    found.or_else(|| {
        let s = (n as f64).sqrt().round() as usize;
        (s * s == n && s >= 2).then_some((s, s))
    })
}

/// A (possibly partial) placement: `cells[row * cols + col]` holds `(piece id, rotation)`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Board {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// Row-major cells (row 0 at the top); `None` = empty.
    pub cells: Vec<Option<(u16, Rotation)>>,
}

impl Board {
    /// An empty `rows × cols` board.
    pub fn empty(rows: usize, cols: usize) -> Board {
        Board {
            rows,
            cols,
            cells: vec![None; rows * cols],
        }
    }
    /// The content of cell (`row`, `col`), `None` when empty or off the board.
    pub fn get(&self, row: usize, col: usize) -> Option<(u16, Rotation)> {
        if row < self.rows && col < self.cols {
            self.cells[row * self.cols + col]
        } else {
            None
        }
    }
    /// Cells as plain numbers `(piece id, quarter turns)`, the input of `verify::edge`.
    pub fn raw_cells(&self) -> Vec<Option<(usize, u8)>> {
        self.cells
            .iter()
            .map(|c| c.map(|(p, r)| (p as usize, r.turns())))
            .collect()
    }

    /// The board format (`docs/src/reference/formats.md`): `R C`, then `row col piece rot` per filled cell.
    pub fn to_text(&self) -> String {
        let mut s = format!("{} {}\n", self.rows, self.cols);
        for (i, cell) in self.cells.iter().enumerate() {
            if let Some((p, r)) = cell {
                let _ = writeln!(s, "{} {} {} {}", i / self.cols, i % self.cols, p, r.turns());
            }
        }
        s
    }

    /// As [`Board::to_text`], with the placed colours `up right down left` on every line, a
    /// score comment and, when every colour is at most 25, a `# view:` comment with a link
    /// that opens the board in the e2.bucas.name viewer (its `board_edges`: URDL per cell,
    /// `'a' + colour`; on a full board its `board_pieces` too: each cell's piece id, as the
    /// instance numbers them from 1, in three digits).
    pub fn to_text_with_colours(&self, puzzle: &EdgePuzzle) -> String {
        let sc = score(puzzle, self);
        let mut s = format!(
            "# matched {} of {} inner edges ({} unmatched)\n",
            sc.matched,
            sc.max,
            sc.max - sc.matched
        );
        let placed = |cell: &Option<(u16, Rotation)>| {
            cell.and_then(|(p, r)| puzzle.piece(p).map(|pc| pc.placed(r)))
        };
        if self
            .cells
            .iter()
            .all(|c| placed(c).is_some_and(|pl| pl.iter().all(|&x| x <= 25)))
        {
            let edges: String = self
                .cells
                .iter()
                .flat_map(|c| placed(c).unwrap_or_default())
                .map(|x| (b'a' + x as u8) as char)
                .collect();
            // The viewer's piece numbers, three digits a cell, name each piece as the
            // instance file does (from 1), so the link carries which piece lies where too.
            let pieces: String = if self.cells.iter().all(|c| c.is_some_and(|(p, _)| p <= 999)) {
                let ids = self.cells.iter().flatten().map(|(p, _)| format!("{p:03}"));
                format!("&board_pieces={}", ids.collect::<String>())
            } else {
                String::new()
            };
            // A link that opens the board in the e2.bucas.name viewer, to share it.
            let _ = writeln!(
                s,
                "# view: https://e2.bucas.name/#board_w={}&board_h={}{pieces}&board_edges={edges}",
                self.cols, self.rows
            );
        }
        let _ = writeln!(s, "{} {}", self.rows, self.cols);
        for (i, cell) in self.cells.iter().enumerate() {
            if let Some((p, r)) = cell {
                let _ = write!(s, "{} {} {} {}", i / self.cols, i % self.cols, p, r.turns());
                if let Some(pl) = placed(cell) {
                    let _ = write!(s, " {} {} {} {}", pl[0], pl[1], pl[2], pl[3]);
                }
                s.push('\n');
            }
        }
        s
    }
}

/// Parse a board file (`docs/src/reference/formats.md`): `#` comments, a header `R C`, then lines
/// `row col piece rot [up right down left]` (row 0 at the top, `rot` clockwise quarter turns).
/// Cells not listed stay empty (the verifier reports them). With `puzzle`, the size must
/// agree, piece ids must exist and the optional colours must equal the piece as rotated.
/// A piece used twice is not a parse error: it is left to scoring and verification.
pub fn parse_board(
    text: &str,
    source: &str,
    puzzle: Option<&EdgePuzzle>,
) -> Result<Board, InputError> {
    let mut board: Option<Board> = None;
    let mut first_line: Vec<usize> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let toks: Vec<&str> = raw
            .split('#')
            .next()
            .unwrap_or("")
            .split_whitespace()
            .collect();
        if toks.is_empty() {
            continue;
        }
        let mut nums = Vec::with_capacity(toks.len());
        for t in &toks {
            nums.push(t.parse::<usize>().map_err(|_| {
                InputError::at(source, line, format!("{t:?} is not a whole number"))
            })?);
        }
        let Some(b) = board.as_mut() else {
            if nums.len() != 2 {
                return Err(InputError::at(
                    source,
                    line,
                    "expected the header 'R C' (rows, columns) before the cells",
                ));
            }
            let (r, c) = (nums[0], nums[1]);
            if !(2..=MAX_SIDE).contains(&r) || !(2..=MAX_SIDE).contains(&c) {
                return Err(InputError::at(
                    source,
                    line,
                    format!(
                        "a board must have between 2 and {MAX_SIDE} rows and columns, not {r}×{c}"
                    ),
                ));
            }
            if let Some(p) = puzzle
                && (p.rows(), p.cols()) != (r, c)
            {
                return Err(InputError::at(
                    source,
                    line,
                    format!(
                        "the board is {r}×{c} but the instance is {}×{}",
                        p.rows(),
                        p.cols()
                    ),
                ));
            }
            board = Some(Board::empty(r, c));
            first_line = vec![0; r * c];
            continue;
        };
        if nums.len() != 4 && nums.len() != 8 {
            return Err(InputError::at(
                source,
                line,
                format!(
                    "found {} numbers: expected 'row col piece rot' optionally followed by the colours 'up right down left'",
                    nums.len()
                ),
            ));
        }
        let (row, col, piece, rot) = (nums[0], nums[1], nums[2], nums[3]);
        if row >= b.rows || col >= b.cols {
            return Err(InputError::at(
                source,
                line,
                format!(
                    "cell ({row}, {col}) is off the {}×{} board (rows 0 to {}, columns 0 to {})",
                    b.rows,
                    b.cols,
                    b.rows - 1,
                    b.cols - 1
                ),
            ));
        }
        let Some(rotation) = u8::try_from(rot).ok().and_then(Rotation::new) else {
            return Err(InputError::at(
                source,
                line,
                format!("rotation {rot} is out of range: expected 0 to 3 clockwise quarter turns"),
            ));
        };
        let max_id = puzzle.map_or(u16::MAX as usize, |p| p.pieces().len());
        if piece == 0 || piece > max_id {
            return Err(InputError::at(
                source,
                line,
                format!("piece {piece} does not exist: pieces are numbered 1 to {max_id}"),
            ));
        }
        let cell = row * b.cols + col;
        if first_line[cell] != 0 {
            return Err(InputError::at(
                source,
                line,
                format!(
                    "cell ({row}, {col}) is given twice (first on line {})",
                    first_line[cell]
                ),
            ));
        }
        if nums.len() == 8
            && let Some(pc) = puzzle.and_then(|p| p.piece(piece as u16))
        {
            let want = pc.placed(rotation);
            let got = [nums[4], nums[5], nums[6], nums[7]];
            if want.iter().zip(&got).any(|(&w, &g)| w as usize != g) {
                return Err(InputError::at(
                    source,
                    line,
                    format!(
                        "colours {} {} {} {} disagree with piece {piece} at rotation {rot}, which shows {} {} {} {} (up right down left)",
                        got[0], got[1], got[2], got[3], want[0], want[1], want[2], want[3]
                    ),
                ));
            }
        }
        first_line[cell] = line;
        b.cells[cell] = Some((piece as u16, rotation));
    }
    board.ok_or_else(|| {
        InputError::whole(
            source,
            "empty board file: expected a header 'R C' and one line per cell",
        )
    })
}

/// Parse one of Brendan Owen's `solutions_RRxCC.txt` files: header `R C`, then line k
/// (0-based) is `a b r` for piece k+1: row `a` (top = 0), column `b`, and Brendan's rotation
/// `r`, which is `(r + 3) mod 4` clockwise quarter turns in our convention.
pub fn parse_brendan_solution(text: &str, source: &str) -> Result<Board, InputError> {
    let mut board: Option<Board> = None;
    let mut first_line: Vec<usize> = Vec::new();
    let mut piece = 0usize;
    let mut last_line = 0;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let toks: Vec<&str> = raw
            .split('#')
            .next()
            .unwrap_or("")
            .split_whitespace()
            .collect();
        if toks.is_empty() {
            continue;
        }
        last_line = line;
        let mut nums = Vec::with_capacity(3);
        for t in &toks {
            nums.push(t.parse::<usize>().map_err(|_| {
                InputError::at(source, line, format!("{t:?} is not a whole number"))
            })?);
        }
        let Some(b) = board.as_mut() else {
            if nums.len() != 2
                || !(2..=MAX_SIDE).contains(&nums[0])
                || !(2..=MAX_SIDE).contains(&nums[1])
            {
                return Err(InputError::at(
                    source,
                    line,
                    format!("expected a header 'R C' with sides 2 to {MAX_SIDE}"),
                ));
            }
            board = Some(Board::empty(nums[0], nums[1]));
            first_line = vec![0; nums[0] * nums[1]];
            continue;
        };
        if nums.len() != 3 {
            return Err(InputError::at(
                source,
                line,
                format!(
                    "found {} numbers: expected 'row column rotation' for piece {}",
                    nums.len(),
                    piece + 1
                ),
            ));
        }
        piece += 1;
        if piece > b.rows * b.cols {
            return Err(InputError::at(
                source,
                line,
                format!(
                    "more than {} placements for a {}×{} board",
                    b.rows * b.cols,
                    b.rows,
                    b.cols
                ),
            ));
        }
        let (a, c, r) = (nums[0], nums[1], nums[2]);
        if a >= b.rows || c >= b.cols || r >= 4 {
            return Err(InputError::at(
                source,
                line,
                format!(
                    "piece {piece}: ({a}, {c}) rotation {r} is out of range for a {}×{} board (rotation 0 to 3)",
                    b.rows, b.cols
                ),
            ));
        }
        let cell = a * b.cols + c;
        if first_line[cell] != 0 {
            return Err(InputError::at(
                source,
                line,
                format!(
                    "cell ({a}, {c}) is given twice (first on line {})",
                    first_line[cell]
                ),
            ));
        }
        first_line[cell] = line;
        b.cells[cell] = Some((piece as u16, Rotation(((r + 3) % 4) as u8)));
    }
    let b = board
        .ok_or_else(|| InputError::whole(source, "empty solution file: expected a header 'R C'"))?;
    if piece != b.rows * b.cols {
        return Err(InputError::at(
            source,
            last_line,
            format!("only {piece} placements for a {}×{} board", b.rows, b.cols),
        ));
    }
    Ok(b)
}

/// Parse a solution in either format: the tilekit board format ([`parse_board`]) or one of
/// Brendan Owen's solution files ([`parse_brendan_solution`]), told apart by the first line
/// after the header (three numbers: Brendan's `a b r`). Checked against `puzzle` either way.
pub fn parse_any_board(text: &str, source: &str, puzzle: &EdgePuzzle) -> Result<Board, InputError> {
    let mut data = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").split_whitespace().count())
        .filter(|&n| n > 0);
    let _header = data.next();
    if data.next() == Some(3) {
        let b = parse_brendan_solution(text, source)?;
        if (b.rows, b.cols) != (puzzle.rows(), puzzle.cols()) {
            return Err(InputError::whole(
                source,
                format!(
                    "the board is {}×{} but the instance is {}×{}",
                    b.rows,
                    b.cols,
                    puzzle.rows(),
                    puzzle.cols()
                ),
            ));
        }
        Ok(b)
    } else {
        parse_board(text, source, Some(puzzle))
    }
}

/// A cheap guess for family detection: does `text` look like an edge-matching piece file
/// rather than a sliding board? True when, after an optional two-number header, every data
/// line has four numbers and at least eight of them are 0 (a sliding board has one blank).
pub fn looks_like_edge_instance(text: &str) -> bool {
    let mut lines = text
        .lines()
        .map(|l| {
            l.split('#')
                .next()
                .unwrap_or("")
                .split_whitespace()
                .collect::<Vec<_>>()
        })
        .filter(|t| !t.is_empty())
        .peekable();
    if lines.peek().is_some_and(|t| t.len() == 2) {
        lines.next();
    }
    let mut zeros = 0;
    let mut any = false;
    for t in lines {
        if t.len() != 4 {
            return false;
        }
        any = true;
        zeros += t.iter().filter(|x| x.parse::<u64>() == Ok(0)).count();
    }
    any && zeros >= 8
}

/// A weaker guess than [`looks_like_edge_instance`], for an error's hint: numbers only, and
/// either at least eight of them are 0 (grey: a piece file with a line cut short or a stray
/// token keeps its grey rim), or, after an optional two-number header, every line holds four
/// numbers and more than one of them is 0 or the lines are as many as the header's `R·C`
/// (a sliding board has one blank and `R` lines). A file of many sliding boards, one per line
/// with a blank each, is told apart by its long lines.
pub fn resembles_edge_instance(text: &str) -> bool {
    let mut lines = Vec::new();
    for line in text.lines() {
        let mut nums = Vec::new();
        for t in line.split('#').next().unwrap_or("").split_whitespace() {
            match t.parse::<u64>() {
                Ok(n) => nums.push(n),
                Err(_) => return false,
            }
        }
        if !nums.is_empty() {
            lines.push(nums);
        }
    }
    let zeros = |ls: &[Vec<u64>]| ls.iter().flatten().filter(|&&n| n == 0).count();
    let header = match lines.first() {
        Some(h) if h.len() == 2 && lines.len() > 1 => Some(u128::from(h[0]) * u128::from(h[1])),
        _ => None,
    };
    let data = &lines[usize::from(header.is_some())..];
    let pieces = !data.is_empty()
        && data.iter().all(|l| l.len() == 4)
        && (zeros(data) > 1 || header == Some(data.len() as u128));
    pieces || (zeros(&lines) >= 8 && lines.iter().all(|l| l.len() <= 8))
}

/// The score of a board, computed by the puzzle module (the verifier recomputes it on its own).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub struct Score {
    /// Inner seams whose two sides show the same non-grey colour.
    pub matched: usize,
    /// Number of inner seams, `2RC − R − C`.
    pub max: usize,
    /// Empty cells (or cells naming a piece that does not exist).
    pub empty: usize,
    /// Sides breaking the rim rule: an outward side that is not grey, or a grey side facing in.
    pub rim_faults: usize,
    /// Pieces placed more than once (each extra copy counts once).
    pub repeats: usize,
}

impl Score {
    /// Unmatched inner seams, the objective the models minimise.
    pub fn unmatched(&self) -> usize {
        self.max - self.matched
    }
    /// A full, legal board with every seam matched.
    pub fn is_perfect(&self) -> bool {
        self.matched == self.max && self.empty == 0 && self.rim_faults == 0 && self.repeats == 0
    }
}

/// Score `board` against `puzzle`. Sizes that disagree count every cell as empty.
pub fn score(puzzle: &EdgePuzzle, board: &Board) -> Score {
    let (rows, cols) = (puzzle.rows(), puzzle.cols());
    let mut sc = Score {
        max: puzzle.max_score(),
        ..Score::default()
    };
    if (board.rows, board.cols) != (rows, cols) || board.cells.len() != rows * cols {
        sc.empty = rows * cols;
        return sc;
    }
    let placed: Vec<Option<[u16; 4]>> = board
        .cells
        .iter()
        .map(|c| c.and_then(|(p, r)| puzzle.piece(p).map(|pc| pc.placed(r))))
        .collect();
    let mut used = vec![false; puzzle.pieces().len() + 1];
    for (p, _) in board.cells.iter().flatten() {
        if let Some(u) = used.get_mut(*p as usize) {
            if *u {
                sc.repeats += 1;
            }
            *u = true;
        }
    }
    for r in 0..rows {
        for c in 0..cols {
            let Some(pl) = placed[r * cols + c] else {
                sc.empty += 1;
                continue;
            };
            let out = [r == 0, c + 1 == cols, r + 1 == rows, c == 0];
            sc.rim_faults += (0..4).filter(|&d| (pl[d] == 0) != out[d]).count();
            if c + 1 < cols
                && let Some(right) = placed[r * cols + c + 1]
                && pl[1] != 0
                && pl[1] == right[3]
            {
                sc.matched += 1;
            }
            if r + 1 < rows
                && let Some(below) = placed[(r + 1) * cols + c]
                && pl[2] != 0
                && pl[2] == below[0]
            {
                sc.matched += 1;
            }
        }
    }
    sc
}

use crate::rng::Rng;

/// Generate a random `rows × cols` instance with a planted perfect board.
///
/// Seams along the rim get frame colours `1..=frame_colours`, all other inner seams get
/// inner colours `frame_colours+1 ..= frame_colours+inner_colours`, outward sides are grey.
/// The pieces are then shuffled and each turned by a random rotation. Returns the instance
/// and its known perfect board. Deterministic for a given seed.
pub fn generate(
    rows: usize,
    cols: usize,
    frame_colours: u16,
    inner_colours: u16,
    seed: u64,
) -> Result<(EdgePuzzle, Board), String> {
    if !(2..=MAX_SIDE).contains(&rows) || !(2..=MAX_SIDE).contains(&cols) {
        return Err(format!(
            "a board must have between 2 and {MAX_SIDE} rows and columns, not {rows}×{cols}"
        ));
    }
    if frame_colours == 0 {
        return Err("at least one frame colour is needed".to_string());
    }
    let has_inner_seams = rows > 2 || cols > 2;
    if inner_colours == 0 && has_inner_seams {
        return Err(format!(
            "a {rows}×{cols} board has inner seams: at least one inner colour is needed"
        ));
    }
    if frame_colours.checked_add(inner_colours).is_none() {
        return Err("too many colours: frame + inner must be at most 65535".to_string());
    }
    let mut rng = Rng::new(seed);
    let colour = |frame: bool, rng: &mut Rng| {
        if frame {
            1 + rng.below(frame_colours as usize) as u16
        } else {
            frame_colours + 1 + rng.below(inner_colours as usize) as u16
        }
    };
    // h[r][c]: seam between (r, c) and (r, c+1); v[r][c]: between (r, c) and (r+1, c).
    let h: Vec<Vec<u16>> = (0..rows)
        .map(|r| {
            (0..cols - 1)
                .map(|_| colour(r == 0 || r + 1 == rows, &mut rng))
                .collect()
        })
        .collect();
    let v: Vec<Vec<u16>> = (0..rows - 1)
        .map(|_| {
            (0..cols)
                .map(|c| colour(c == 0 || c + 1 == cols, &mut rng))
                .collect()
        })
        .collect();
    let n = rows * cols;
    // order[k] = the cell whose piece becomes piece id k+1 (Fisher–Yates).
    let mut order: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        order.swap(i, rng.below(i + 1));
    }
    let mut listed = Vec::with_capacity(n);
    let mut board = Board::empty(rows, cols);
    for (k, &cell) in order.iter().enumerate() {
        let (r, c) = (cell / cols, cell % cols);
        let placed = [
            if r == 0 { 0 } else { v[r - 1][c] },
            if c + 1 == cols { 0 } else { h[r][c] },
            if r + 1 == rows { 0 } else { v[r][c] },
            if c == 0 { 0 } else { h[r][c - 1] },
        ];
        let rot = Rotation(rng.below(4) as u8);
        listed.push(listed_colours(placed, rot));
        board.cells[cell] = Some(((k + 1) as u16, rot));
    }
    let puzzle = EdgePuzzle::new(rows, cols, listed)?;
    Ok((puzzle, board))
}

/// [`generate`], returning the instance text (Brendan's format with a provenance comment) and
/// the solution text (board format with colours), as `tilekit generate edge` writes them.
pub fn generate_texts(
    rows: usize,
    cols: usize,
    frame_colours: u16,
    inner_colours: u16,
    seed: u64,
) -> Result<(String, String), String> {
    let (p, b) = generate(rows, cols, frame_colours, inner_colours, seed)?;
    let comment = format!(
        "# tilekit generate edge --rows {rows} --cols {cols} --frame-colours {frame_colours} --inner-colours {inner_colours} --seed {seed}\n"
    );
    let instance = format!(
        "{comment}# pieces: bottom left top right (clockwise), 0 = grey\n{}",
        p.to_text()
    );
    let solution = format!(
        "{comment}# planted perfect board\n{}",
        b.to_text_with_colours(&p)
    );
    Ok((instance, solution))
}

#[cfg(test)]
mod tests {
    use super::*;

    const B3: &str =
        "3 3\n0 0 1 1\n0 0 1 2\n0 0 2 1\n0 0 2 2\n0 1 3 2\n0 1 4 1\n0 2 3 1\n0 2 4 2\n3 3 4 4\n";
    const B3_SOL: &str = "3 3\n2 0 1\n0 0 2\n0 2 3\n2 2 0\n2 1 1\n0 1 3\n1 0 2\n1 2 0\n1 1 1\n";

    #[test]
    fn rotation_conventions() {
        // bottom 1, left 2, top 3, right 4 → at rotation 0: up 3, right 4, down 1, left 2.
        let c = [1, 2, 3, 4];
        assert_eq!(placed_colours(c, Rotation(0)), [3, 4, 1, 2]);
        // One clockwise turn: the left colour comes up.
        assert_eq!(placed_colours(c, Rotation(1)), [2, 3, 4, 1]);
        assert_eq!(placed_colours(c, Rotation(2)), [1, 2, 3, 4]);
        for r in Rotation::ALL {
            assert_eq!(listed_colours(placed_colours(c, r), r), c);
            for q in Rotation::ALL {
                // Turning by r then q is turning by r + q; a full turn is the identity.
                let twice = Rotation::ALL[((r.turns() + q.turns()) % 4) as usize];
                assert_eq!(r.then(q), twice);
            }
            // One more clockwise turn: the left colour comes up.
            let s = placed_colours(c, r);
            assert_eq!(
                placed_colours(c, r.then(Rotation(1))),
                [s[3], s[0], s[1], s[2]]
            );
        }
        assert_eq!(Rotation::new(4), None);
    }

    #[test]
    fn brendan_3x3_and_its_solution() {
        let p = EdgePuzzle::parse(B3, "b3").unwrap();
        assert_eq!((p.rows(), p.cols(), p.max_score()), (3, 3, 12));
        let b = parse_brendan_solution(B3_SOL, "s3").unwrap();
        // Piece 1 (0 0 1 1): Brendan (2, 0, 1) = bottom-left corner, our rotation 0.
        assert_eq!(b.get(2, 0), Some((1, Rotation(0))));
        let s = score(&p, &b);
        assert!(s.is_perfect(), "{s:?}");
        assert!(
            crate::verify::edge::BoardChecker
                .verdict(&p, &b, Some(0.0))
                .valid
        );
        // The board text round-trips, with and without colours.
        for text in [b.to_text(), b.to_text_with_colours(&p)] {
            assert_eq!(parse_board(&text, "t", Some(&p)).unwrap(), b);
        }
        let view = b.to_text_with_colours(&p);
        let link = view
            .lines()
            .find_map(|l| l.strip_prefix("# view: https://e2.bucas.name/#"))
            .unwrap();
        // Every cell's piece id, in three digits, row by row.
        let ids: String = b
            .cells
            .iter()
            .map(|c| format!("{:03}", c.unwrap().0))
            .collect();
        assert!(link.contains(&format!("&board_pieces={ids}&")), "{link}");
        assert_eq!(p.fitting_rotations(1, 2, 0), vec![Rotation(0)]);
        assert_eq!(p.fitting_rotations(9, 1, 1).len(), 4);
        assert!(p.fitting_rotations(9, 0, 0).is_empty());
    }

    #[test]
    fn instance_errors_name_file_line_and_problem() {
        let err = |t: &str| EdgePuzzle::parse(t, "e.txt").unwrap_err().to_string();
        assert_eq!(
            err("3 3\n0 0 1 1\n0 0 1\n"),
            "e.txt:3: found 3 numbers: a piece line has four colours (bottom, left, top, right)"
        );
        assert_eq!(
            err("0 0 1 x\n"),
            "e.txt:1: \"x\" is not a colour: expected whole numbers 0 to 65535, 0 for grey"
        );
        assert_eq!(
            err("3 3\n0 0 1 1\n"),
            "e.txt:1: header says 3×3 = 9 pieces but 1 follow"
        );
        // Piece 5 with grey top and bottom.
        let opp = B3.replace("0 1 3 2\n", "0 1 0 2\n");
        assert_eq!(
            err(&opp),
            "e.txt:6: piece 5 has grey (0) on two opposite sides: no cell of a board with at least two rows and columns fits it"
        );
        let three = B3.replace("0 1 3 2\n", "0 0 0 2\n");
        assert!(err(&three).starts_with("e.txt:6: piece 5 has 3 grey (0) sides"));
        // An inner piece in place of an edge piece.
        let kinds = B3.replace("0 1 3 2\n", "5 1 3 2\n");
        assert_eq!(
            err(&kinds),
            "e.txt: a 3×3 board needs 4 edge pieces (one grey side), found 3"
        );
        // A mistyped inner colour breaks parity.
        let typo = B3.replace("3 3 4 4\n", "3 3 4 5\n");
        assert!(
            err(&typo).starts_with("e.txt:10: colour 4 occurs 3 times on inward-facing sides"),
            "{}",
            err(&typo)
        );
        // A frame colour swapped for another breaks the rim-side parity.
        let frame = B3.replace("0 0 1 1\n", "0 0 1 2\n");
        assert!(
            err(&frame).contains("on the rim-running sides of border pieces"),
            "{}",
            err(&frame)
        );
        assert!(err("# nothing\n").starts_with("e.txt: no pieces found"));
        assert!(err("0 0 1 1\n0 0 1 1\n0 0 1 1\n").contains("cannot infer the board size"));
    }

    #[test]
    fn board_errors() {
        let p = EdgePuzzle::parse(B3, "b3").unwrap();
        let err = |t: &str| parse_board(t, "b.txt", Some(&p)).unwrap_err().to_string();
        assert_eq!(
            err("0 0 1 0\n"),
            "b.txt:1: expected the header 'R C' (rows, columns) before the cells"
        );
        assert_eq!(
            err("4 4\n"),
            "b.txt:1: the board is 4×4 but the instance is 3×3"
        );
        assert!(err("3 3\n3 0 1 0\n").starts_with("b.txt:2: cell (3, 0) is off the 3×3 board"));
        assert_eq!(
            err("3 3\n0 0 1 0\n# c\n0 0 2 0\n"),
            "b.txt:4: cell (0, 0) is given twice (first on line 2)"
        );
        assert_eq!(
            err("3 3\n0 0 10 0\n"),
            "b.txt:2: piece 10 does not exist: pieces are numbered 1 to 9"
        );
        assert!(err("3 3\n0 0 1 4\n").starts_with("b.txt:2: rotation 4 is out of range"));
        assert_eq!(
            err("3 3\n2 0 1 0 1 1 0 9\n"),
            "b.txt:2: colours 1 1 0 9 disagree with piece 1 at rotation 0, which shows 1 1 0 0 (up right down left)"
        );
        assert!(err("3 3\n0 0 1\n").contains("found 3 numbers"));
        // Partial boards and repeated pieces parse; scoring sees them.
        let b = parse_board("3 3\n0 0 1 1\n0 1 1 1\n", "b", Some(&p)).unwrap();
        let s = score(&p, &b);
        assert_eq!((s.empty, s.repeats), (7, 1));
        assert!(!s.is_perfect());
    }

    #[test]
    fn format_detection() {
        let p = EdgePuzzle::parse(B3, "b3").unwrap();
        let a = parse_any_board(B3_SOL, "s", &p).unwrap();
        let b = parse_any_board(&a.to_text(), "t", &p).unwrap();
        assert_eq!(a, b);
        assert!(parse_any_board("4 4\n0 0 0\n", "s", &p).is_err());
        assert!(looks_like_edge_instance(B3));
        assert!(!looks_like_edge_instance(
            "5 1 2 3\n9 6 7 4\n13 10 11 8\n14 15 0 12\n"
        ));
        assert!(!looks_like_edge_instance("1 2 3\n4 0 5\n7 8 6\n"));
    }

    #[test]
    fn brendan_solution_errors() {
        let err = |t: &str| parse_brendan_solution(t, "s.txt").unwrap_err().to_string();
        assert!(err("3 3\n0 0 0\n0 0 1\n").starts_with("s.txt:3: cell (0, 0) is given twice"));
        assert_eq!(
            err("3 3\n0 0 0\n"),
            "s.txt:2: only 1 placements for a 3×3 board"
        );
        assert!(err("3 3\n0 3 0\n").contains("out of range"));
    }

    #[test]
    fn generated_instances_are_valid_and_deterministic() {
        let (p, b) = generate(4, 6, 2, 3, 7).unwrap();
        assert_eq!((p.rows(), p.cols()), (4, 6));
        assert!(score(&p, &b).is_perfect());
        assert!(p.max_colour() <= 5);
        assert_eq!(generate(4, 6, 2, 3, 7).unwrap(), (p.clone(), b));
        assert_ne!(generate(4, 6, 2, 3, 8).unwrap().0, p);
        // Rectangular instance without a header: size inferred as rows ≤ cols.
        let body: String = p
            .to_text()
            .lines()
            .skip(1)
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(EdgePuzzle::parse(&body, "g").unwrap(), p);
        assert!(generate(2, 2, 1, 0, 1).is_ok());
        assert!(generate(3, 3, 1, 0, 1).is_err());
        assert!(generate(1, 3, 1, 1, 1).is_err());
        let (inst, sol) = generate_texts(3, 3, 1, 2, 5).unwrap();
        let p = EdgePuzzle::parse(&inst, "i").unwrap();
        let b = parse_board(&sol, "s", Some(&p)).unwrap();
        assert!(score(&p, &b).is_perfect());
    }
}
