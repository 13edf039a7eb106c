//! Sliding-tile puzzles on an R×C board: parsing, validation, moves and replay.
//!
//! Cells are numbered row-major from 0; tile 0 is the blank. A [`Move`] is the direction
//! **the blank** moves, as in the NEOS case study's u/d/l/r variables.

use crate::error::InputError;
use crate::field::Field;
use std::fmt;

/// Which solved board is the target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Goal {
    /// `1 2 … n-1 0`: the NEOS case study's and most textbooks' goal.
    #[default]
    BlankLast,
    /// `0 1 … n-1`: Korf's convention.
    BlankFirst,
}

impl Goal {
    /// The goal board for `cells` cells, row-major.
    pub fn board(self, cells: usize) -> Vec<u16> {
        match self {
            Goal::BlankLast => (1..cells as u16).chain(std::iter::once(0)).collect(),
            Goal::BlankFirst => (0..cells as u16).collect(),
        }
    }
    /// The goal cell of `tile` (0 = blank) on a board of `cells` cells.
    pub fn cell_of(self, tile: u16, cells: usize) -> usize {
        match self {
            Goal::BlankLast if tile == 0 => cells - 1,
            Goal::BlankLast => tile as usize - 1,
            Goal::BlankFirst => tile as usize,
        }
    }
    /// Parse `blank-last` / `blank-first`.
    pub fn parse(s: &str) -> Option<Goal> {
        match s {
            "blank-last" => Some(Goal::BlankLast),
            "blank-first" => Some(Goal::BlankFirst),
            _ => None,
        }
    }
}

impl fmt::Display for Goal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Goal::BlankLast => "blank-last",
            Goal::BlankFirst => "blank-first",
        })
    }
}

/// A move of the blank.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    /// Blank moves one row up.
    Up,
    /// Blank moves one row down.
    Down,
    /// Blank moves one column left.
    Left,
    /// Blank moves one column right.
    Right,
}

impl Move {
    /// All four, in the order U, D, L, R.
    pub const ALL: [Move; 4] = [Move::Up, Move::Down, Move::Left, Move::Right];
    /// The letter used in solution files.
    pub fn letter(self) -> char {
        match self {
            Move::Up => 'U',
            Move::Down => 'D',
            Move::Left => 'L',
            Move::Right => 'R',
        }
    }
    /// Parse a letter (upper or lower case).
    pub fn from_letter(c: char) -> Option<Move> {
        match c.to_ascii_uppercase() {
            'U' => Some(Move::Up),
            'D' => Some(Move::Down),
            'L' => Some(Move::Left),
            'R' => Some(Move::Right),
            _ => None,
        }
    }
    /// The move that undoes this one.
    pub fn inverse(self) -> Move {
        match self {
            Move::Up => Move::Down,
            Move::Down => Move::Up,
            Move::Left => Move::Right,
            Move::Right => Move::Left,
        }
    }
    /// (row delta, column delta) of the blank.
    pub fn delta(self) -> (i32, i32) {
        match self {
            Move::Up => (-1, 0),
            Move::Down => (1, 0),
            Move::Left => (0, -1),
            Move::Right => (0, 1),
        }
    }
}

/// A move that would take the blank off the board.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("move {step} ({letter}) takes the blank off the board from row {row}, column {col}")]
pub struct OffBoard {
    /// 1-based index of the move in the sequence.
    pub step: usize,
    /// The move's letter.
    pub letter: char,
    /// Blank's row before the move (0-based).
    pub row: usize,
    /// Blank's column before the move (0-based).
    pub col: usize,
}

/// A sliding-tile board: `rows × cols` cells holding tiles `0..rows*cols` (0 = blank).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SlidingPuzzle {
    rows: usize,
    cols: usize,
    tiles: Vec<u16>,
}

/// Largest board side accepted (models grow as cells² × horizon; beyond this nothing works).
pub const MAX_SIDE: usize = 64;

impl SlidingPuzzle {
    /// A board from row-major tiles; checks sizes and that the tiles are a permutation.
    pub fn new(rows: usize, cols: usize, tiles: Vec<u16>) -> Result<Self, String> {
        if !(2..=MAX_SIDE).contains(&rows) || !(2..=MAX_SIDE).contains(&cols) {
            return Err(format!(
                "a board must have between 2 and {MAX_SIDE} rows and columns, not {rows}×{cols}"
            ));
        }
        let n = rows * cols;
        if tiles.len() != n {
            return Err(format!(
                "a {rows}×{cols} board needs {n} tiles, found {}",
                tiles.len()
            ));
        }
        let mut seen = vec![false; n];
        for &t in &tiles {
            if t as usize >= n {
                return Err(format!(
                    "tile {t} is out of range: a {rows}×{cols} board has tiles 0 to {}",
                    n - 1
                ));
            }
            if seen[t as usize] {
                return Err(format!("tile {t} appears twice"));
            }
            seen[t as usize] = true;
        }
        Ok(SlidingPuzzle { rows, cols, tiles })
    }

    /// The solved board for `goal`.
    pub fn solved(rows: usize, cols: usize, goal: Goal) -> Self {
        SlidingPuzzle {
            rows,
            cols,
            tiles: goal.board(rows * cols),
        }
    }

    /// Parse the instance format (`docs/src/reference/formats.md`): `#` comments, an optional `R C` header line,
    /// then the tiles row-major (0 = blank). Without a header the board must be square.
    /// `goal` is used only for the solvability check.
    pub fn parse(text: &str, source: &str, goal: Goal) -> Result<Self, InputError> {
        let mut lines: Vec<(usize, Vec<&str>)> = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let content = raw.split('#').next().unwrap_or("");
            let toks: Vec<&str> = content.split_whitespace().collect();
            if !toks.is_empty() {
                lines.push((i + 1, toks));
            }
        }
        if lines.is_empty() {
            return Err(InputError::whole(
                source,
                "no tiles found: expected an optional 'R C' header and then the tiles",
            ));
        }
        let mut nums: Vec<(usize, u64)> = Vec::new();
        for (line, toks) in &lines {
            for t in toks {
                let v: u64 = t.parse().map_err(|_| {
                    InputError::at(
                        source,
                        *line,
                        format!(
                            "{t:?} is not a tile number: expected whole numbers, 0 for the blank"
                        ),
                    )
                })?;
                nums.push((*line, v));
            }
        }
        // A header is a first line of exactly two numbers R C (each ≥ 2) followed by R*C tiles.
        // R and C are any u64s here, so their product is taken in u128, where it cannot
        // overflow (in u64 a huge pair panicked, or wrapped onto the tile count).
        let (rows, cols, body) = {
            let first = &lines[0];
            let rest = nums.len() - first.1.len();
            let product = u128::from(nums[0].1) * u128::from(nums.get(1).map_or(0, |n| n.1));
            if first.1.len() == 2 && nums[0].1 >= 2 && nums[1].1 >= 2 && product == rest as u128 {
                (nums[0].1 as usize, nums[1].1 as usize, &nums[2..])
            } else if first.1.len() == 2 && nums.len() > 4 && !is_square(nums.len()) {
                let (r, c) = (nums[0].1, nums[1].1);
                if product == rest as u128 {
                    // The count fits: the header's size is what is wrong.
                    return Err(InputError::at(
                        source,
                        first.0,
                        format!("header says {r}×{c}: a board needs at least 2 rows and 2 columns"),
                    ));
                }
                return Err(InputError::at(
                    source,
                    first.0,
                    format!("header says {r}×{c} = {product} tiles but {rest} follow"),
                ));
            } else if lines.len() == 1 && nums.len() == 2 {
                // Two numbers alone read as a header, not as a board of two tiles.
                return Err(InputError::at(
                    source,
                    first.0,
                    format!(
                        "'{} {}' reads as an 'R C' header, and no tiles follow it",
                        nums[0].1, nums[1].1
                    ),
                ));
            } else {
                let n = nums.len();
                let side = (n as f64).sqrt().round() as usize;
                if side * side != n {
                    return Err(InputError::whole(
                        source,
                        format!(
                            "found {n} tiles, which is not a square board: add an 'R C' header line for a rectangular one"
                        ),
                    ));
                }
                (side, side, &nums[..])
            }
        };
        if !(2..=MAX_SIDE).contains(&rows) || !(2..=MAX_SIDE).contains(&cols) {
            return Err(InputError::at(
                source,
                body.first().map_or(lines[0].0, |b| b.0),
                format!(
                    "a board must have between 2 and {MAX_SIDE} rows and columns, not {rows}×{cols}"
                ),
            ));
        }
        let n = rows * cols;
        let mut seen: Vec<Option<usize>> = vec![None; n];
        for &(line, v) in body {
            if v as usize >= n {
                return Err(InputError::at(
                    source,
                    line,
                    format!(
                        "tile {v} is out of range: a {rows}×{cols} board has tiles 0 to {}",
                        n - 1
                    ),
                ));
            }
            if let Some(prev) = seen[v as usize] {
                return Err(InputError::at(
                    source,
                    line,
                    format!("tile {v} appears twice (first on line {prev})"),
                ));
            }
            seen[v as usize] = Some(line);
        }
        // Every tile in range, none twice, count = n: so none is missing.
        let p = SlidingPuzzle {
            rows,
            cols,
            tiles: body.iter().map(|&(_, v)| v as u16).collect(),
        };
        if !p.is_solvable(goal) {
            // The other goal convention is the likelier fix than a wrong board.
            let other = match goal {
                Goal::BlankLast => Goal::BlankFirst,
                Goal::BlankFirst => Goal::BlankLast,
            };
            let fix = if p.is_solvable(other) {
                format!(
                    "it can reach the {other} goal: pass {} {other}",
                    Field::Goal
                )
            } else {
                "swap two tiles to fix it".to_string()
            };
            return Err(InputError::whole(
                source,
                format!(
                    "this board cannot reach the {goal} goal: its permutation parity differs from the blank's distance parity ({fix})"
                ),
            ));
        }
        Ok(p)
    }

    /// Rows.
    pub fn rows(&self) -> usize {
        self.rows
    }
    /// Columns.
    pub fn cols(&self) -> usize {
        self.cols
    }
    /// Number of cells (`rows * cols`).
    pub fn cells(&self) -> usize {
        self.tiles.len()
    }
    /// Tiles in row-major order (0 = blank).
    pub fn tiles(&self) -> &[u16] {
        &self.tiles
    }
    /// The tile in a cell.
    pub fn tile_at(&self, cell: usize) -> u16 {
        self.tiles[cell]
    }
    /// The cell holding the blank.
    pub fn blank_cell(&self) -> usize {
        self.tiles
            .iter()
            .position(|&t| t == 0)
            .expect("a board always has a blank")
    }
    /// The cell of every tile: `pos[t]` is where tile `t` is.
    pub fn positions(&self) -> Vec<usize> {
        let mut pos = vec![0; self.cells()];
        for (c, &t) in self.tiles.iter().enumerate() {
            pos[t as usize] = c;
        }
        pos
    }
    /// True when the board equals the goal board.
    pub fn is_goal(&self, goal: Goal) -> bool {
        self.tiles == goal.board(self.cells())
    }

    /// Solvability, convention-free: the parity of the permutation taking this board to the
    /// goal (blank included) equals the parity of the blank's Manhattan distance to its goal.
    pub fn is_solvable(&self, goal: Goal) -> bool {
        let n = self.cells();
        // perm[c] = goal cell of the tile in cell c; count cycles for the parity.
        let perm: Vec<usize> = self.tiles.iter().map(|&t| goal.cell_of(t, n)).collect();
        let mut seen = vec![false; n];
        let mut transpositions = 0;
        for s in 0..n {
            let mut len = 0;
            let mut c = s;
            while !seen[c] {
                seen[c] = true;
                c = perm[c];
                len += 1;
            }
            if len > 0 {
                transpositions += len - 1;
            }
        }
        let b = self.blank_cell();
        let g = goal.cell_of(0, n);
        let dist =
            (b / self.cols).abs_diff(g / self.cols) + (b % self.cols).abs_diff(g % self.cols);
        transpositions % 2 == dist % 2
    }

    /// Sum over tiles (not the blank) of the Manhattan distance to their goal cells: a
    /// lower bound on the number of moves.
    pub fn manhattan(&self, goal: Goal) -> usize {
        let n = self.cells();
        self.tiles
            .iter()
            .enumerate()
            .filter(|(_, t)| **t != 0)
            .map(|(c, &t)| {
                let g = goal.cell_of(t, n);
                (c / self.cols).abs_diff(g / self.cols) + (c % self.cols).abs_diff(g % self.cols)
            })
            .sum()
    }

    /// Manhattan distance of the blank to its goal cell; every solution has this parity.
    pub fn blank_distance(&self, goal: Goal) -> usize {
        let b = self.blank_cell();
        let g = goal.cell_of(0, self.cells());
        (b / self.cols).abs_diff(g / self.cols) + (b % self.cols).abs_diff(g % self.cols)
    }

    /// The cell the blank would reach with `m`, if it stays on the board.
    pub fn target(&self, m: Move) -> Option<usize> {
        let b = self.blank_cell();
        let (dr, dc) = m.delta();
        let r = (b / self.cols) as i32 + dr;
        let c = (b % self.cols) as i32 + dc;
        if r < 0 || c < 0 || r >= self.rows as i32 || c >= self.cols as i32 {
            None
        } else {
            Some(r as usize * self.cols + c as usize)
        }
    }

    /// Apply one move; `false` (and no change) if it leaves the board.
    pub fn apply(&mut self, m: Move) -> bool {
        match self.target(m) {
            Some(t) => {
                let b = self.blank_cell();
                self.tiles.swap(b, t);
                true
            }
            None => false,
        }
    }

    /// Apply a sequence of moves, stopping at the first illegal one.
    pub fn replay(&self, moves: &[Move]) -> Result<SlidingPuzzle, OffBoard> {
        let mut p = self.clone();
        for (i, &m) in moves.iter().enumerate() {
            if !p.apply(m) {
                let b = p.blank_cell();
                return Err(OffBoard {
                    step: i + 1,
                    letter: m.letter(),
                    row: b / p.cols,
                    col: b % p.cols,
                });
            }
        }
        Ok(p)
    }

    /// The board in the instance format (with an `R C` header), one row per line.
    pub fn to_text(&self) -> String {
        let w = (self.cells() - 1).to_string().len();
        let mut s = format!("{} {}\n", self.rows, self.cols);
        for r in 0..self.rows {
            let row: Vec<String> = (0..self.cols)
                .map(|c| format!("{:>w$}", self.tiles[r * self.cols + c]))
                .collect();
            s.push_str(&row.join(" "));
            s.push('\n');
        }
        s
    }

    /// A deterministic random walk of `len` moves from the goal that never undoes the
    /// previous move (a planted instance whose optimum is at most `len`).
    pub fn random_walk(
        rows: usize,
        cols: usize,
        goal: Goal,
        len: usize,
        seed: u64,
    ) -> (SlidingPuzzle, Vec<Move>) {
        let mut p = SlidingPuzzle::solved(rows, cols, goal);
        let mut rng = crate::rng::Rng::new(seed);
        let mut walk = Vec::with_capacity(len);
        while walk.len() < len {
            let m = Move::ALL[(rng.next_u64() >> 60) as usize % 4];
            if walk.last().is_some_and(|&l: &Move| l.inverse() == m) {
                continue;
            }
            if p.apply(m) {
                walk.push(m);
            }
        }
        (p, walk)
    }
}

fn is_square(n: usize) -> bool {
    let s = (n as f64).sqrt().round() as usize;
    s * s == n
}

/// Parse a solution file: letters `U D L R` (blank directions), `#` comments, whitespace
/// ignored. An empty file is the empty solution.
pub fn parse_moves(text: &str, source: &str) -> Result<Vec<Move>, InputError> {
    let mut moves = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let content = raw.split('#').next().unwrap_or("");
        for (col, ch) in content.chars().enumerate() {
            if ch.is_whitespace() || ch == ',' {
                continue;
            }
            match Move::from_letter(ch) {
                Some(m) => moves.push(m),
                None => {
                    return Err(InputError::at(
                        source,
                        i + 1,
                        format!(
                            "column {}: {ch:?} is not a move: expected U, D, L or R (the blank's direction)",
                            col + 1
                        ),
                    ));
                }
            }
        }
    }
    Ok(moves)
}

/// Moves as one line of letters.
pub fn moves_to_string(moves: &[Move]) -> String {
    moves.iter().map(|m| m.letter()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const CASE: &str = "5 1 2 3\n9 6 7 4\n13 10 11 8\n14 15 0 12\n";

    #[test]
    fn parses_case_study_instance() {
        let p = SlidingPuzzle::parse(CASE, "case.txt", Goal::BlankLast).unwrap();
        assert_eq!((p.rows(), p.cols()), (4, 4));
        assert_eq!(p.blank_cell(), 14);
        assert!(p.is_solvable(Goal::BlankLast));
        // The case study's known 11-move optimum is consistent with Manhattan distance.
        assert!(p.manhattan(Goal::BlankLast) <= 11);
        assert_eq!(p.blank_distance(Goal::BlankLast) % 2, 11 % 2);
    }

    #[test]
    fn header_and_rectangles() {
        let p = SlidingPuzzle::parse("# c\n2 3\n1 2 3\n4 0 5\n", "r.txt", Goal::BlankLast).unwrap();
        assert_eq!((p.rows(), p.cols()), (2, 3));
        let q = SlidingPuzzle::parse(&p.to_text(), "q", Goal::BlankLast).unwrap();
        assert_eq!(p, q);
        // A square 2×2 without header whose first line is "3 2" is not mistaken for a header.
        let s = SlidingPuzzle::parse("3 2\n1 0\n", "s", Goal::BlankLast);
        assert!(s.is_ok() || s.unwrap_err().message.contains("cannot reach"));
    }

    #[test]
    fn a_huge_header_is_an_error_not_an_overflow() {
        // Found by fuzzing (fuzz/src/bin/sliding_puzzle.rs): R·C overflowed u64 and panicked.
        let e = SlidingPuzzle::parse("1111111111111111111 63\n 912\n", "h.txt", Goal::BlankLast)
            .unwrap_err();
        assert!(e.message.contains("found 3 tiles"), "{e}");
        // (2^63 + 3)·2 wraps to 6 in u64: the six tiles must not make it a header.
        let e = SlidingPuzzle::parse(
            "9223372036854775811 2\n1 2 3\n4 0 5\n",
            "h.txt",
            Goal::BlankLast,
        )
        .unwrap_err();
        assert_eq!(e.line, Some(1), "{e}");
        assert!(
            e.message
                .contains("9223372036854775811×2 = 18446744073709551622 tiles but 6 follow"),
            "{e}"
        );
    }

    #[test]
    fn errors_name_file_line_and_problem() {
        let e =
            SlidingPuzzle::parse("1 2 3\n4 x 5\n6 7 0\n", "a.txt", Goal::BlankLast).unwrap_err();
        assert_eq!(
            e.to_string(),
            "a.txt:2: \"x\" is not a tile number: expected whole numbers, 0 for the blank"
        );
        let e =
            SlidingPuzzle::parse("1 2 3\n4 4 5\n6 7 0\n", "a.txt", Goal::BlankLast).unwrap_err();
        assert_eq!(
            e.to_string(),
            "a.txt:2: tile 4 appears twice (first on line 2)"
        );
        for header in ["65 2\n", "18446744073709551615 2\n"] {
            let e = SlidingPuzzle::parse(header, "a.txt", Goal::BlankLast).unwrap_err();
            assert!(
                e.to_string().starts_with("a.txt:1: '")
                    && e.to_string()
                        .ends_with("reads as an 'R C' header, and no tiles follow it"),
                "{e}"
            );
        }
        let e = SlidingPuzzle::parse("1 2 3\n4 5\n6 7 0\n", "a.txt", Goal::BlankLast).unwrap_err();
        assert!(
            e.to_string()
                .contains("found 8 tiles, which is not a square board"),
            "{e}"
        );
        let e =
            SlidingPuzzle::parse("1 2 3\n4 5 6\n8 7 0\n", "a.txt", Goal::BlankLast).unwrap_err();
        assert!(
            e.to_string().contains("cannot reach the blank-last goal"),
            "{e}"
        );
        let e =
            SlidingPuzzle::parse("1 2 3\n4 5 9\n8 7 0\n", "a.txt", Goal::BlankLast).unwrap_err();
        assert_eq!(
            e.to_string(),
            "a.txt:2: tile 9 is out of range: a 3×3 board has tiles 0 to 8"
        );
        let e = SlidingPuzzle::parse("# only\n", "a.txt", Goal::BlankLast).unwrap_err();
        assert!(e.to_string().starts_with("a.txt: no tiles found"));
    }

    #[test]
    fn solvability_depends_on_goal() {
        // Korf's convention and the textbook one differ on a 4×4: the blank-last goal board
        // is not reachable from the blank-first goal board.
        let bf = SlidingPuzzle::solved(4, 4, Goal::BlankFirst);
        assert!(bf.is_solvable(Goal::BlankFirst));
        assert!(!bf.is_solvable(Goal::BlankLast));
        let bl3 = SlidingPuzzle::solved(3, 3, Goal::BlankLast);
        assert!(bl3.is_solvable(Goal::BlankFirst));
    }

    #[test]
    fn random_walks_stay_solvable_and_replay_back() {
        for seed in 0..20 {
            let (p, walk) = SlidingPuzzle::random_walk(3, 4, Goal::BlankLast, 15, seed);
            assert!(p.is_solvable(Goal::BlankLast));
            let back: Vec<Move> = walk.iter().rev().map(|m| m.inverse()).collect();
            assert!(p.replay(&back).unwrap().is_goal(Goal::BlankLast));
        }
    }

    #[test]
    fn moves_parse_and_off_board_is_reported() {
        assert_eq!(parse_moves("# x\nUD lr\n", "m").unwrap().len(), 4);
        let e = parse_moves("UDX\n", "m.sol").unwrap_err();
        assert_eq!(
            e.to_string(),
            "m.sol:1: column 3: 'X' is not a move: expected U, D, L or R (the blank's direction)"
        );
        let p = SlidingPuzzle::solved(3, 3, Goal::BlankLast);
        let err = p.replay(&[Move::Up, Move::Right]).unwrap_err();
        assert_eq!(err.step, 2);
        assert_eq!(
            err.to_string(),
            "move 2 (R) takes the blank off the board from row 1, column 2"
        );
    }
}
