//! Duplicate pruning for IDA* by a finite-state machine over the blank's moves (Taylor &
//! Korf, "Pruning duplicate nodes in depth-first search", AAAI 1993).
//!
//! IDA* walks a tree, so every state it can reach by two move sequences is searched twice.
//! Undoing the last move is the shortest such pair; the others are longer: on a square board
//! three turns of the blank around a 2×2 block (12 moves) restore it, and different routes
//! of equal length can rearrange the same tiles the same way. A move sequence is
//! *forbidden* from a blank cell when another sequence from that cell, shorter or of the same
//! length and earlier in move-code order, leaves every tile where it leaves them. Pruning the
//! forbidden sequences keeps, for every state, its first sequence in that order (shortlex);
//! replacing a part of a sequence by an earlier one makes the whole earlier, so the earliest
//! optimal plan contains no forbidden part and IDA* still finds an optimal plan, and its
//! bounds never skip the optimum (the earliest optimal plan's first node past a bound is
//! generated).
//!
//! Construction: from every blank cell at once, a breadth-first enumeration of the sequences
//! up to `max_len` moves in move-code order; a sequence whose tile arrangement was already
//! reached is forbidden and not extended (so every forbidden word is found at its first
//! forbidden prefix), and a sequence that ends in a word already found (from the cell where
//! that word starts) is dropped, so only the minimal words are kept: at 12 moves on the 5×5
//! board about 13 thousand instead of 770 thousand, the same pruning from an automaton a
//! thirtieth the size. The words go into an Aho–Corasick automaton over the four move codes; each
//! state carries the set of blank cells at which reaching it completes a forbidden word
//! (a word read from another cell is another word: the same letters may be forbidden from
//! one cell and not from another, near the border).

use super::moves::neighbours;
use rustc_hash::FxHashSet;
use std::collections::VecDeque;

/// Largest board the automaton is built for (arrangements are kept in 5 bits per cell).
pub const MAX_CELLS: usize = 25;

/// The automaton: a transition per (state, move code) and the blank cells at which each
/// state completes a forbidden word.
#[derive(Debug, Clone)]
pub struct Fsm {
    /// `edges[4 * state + code]`: the next state, shifted left by one, with the low bit set
    /// when reaching it completes a forbidden word from some blank cell. Four bytes per edge
    /// keep the automaton small enough for the core's own cache; the cells are read from
    /// `forbid` only on the rare edges whose bit is set.
    edges: Vec<u32>,
    /// Per state, the blank cells at which reaching it completes a forbidden word (bit `c`:
    /// pruned with the blank in cell `c`).
    forbid: Vec<u32>,
    states: usize,
    max_len: usize,
    words: usize,
}

/// The start state (no move made yet).
pub const START: u32 = 0;

impl Fsm {
    /// Build the automaton of the forbidden words of up to `max_len` moves on a `rows × cols`
    /// board (at most [`MAX_CELLS`] cells; `None` for a larger one).
    pub fn build(rows: usize, cols: usize, max_len: usize) -> Option<Fsm> {
        let n = rows * cols;
        if !(2..=MAX_CELLS).contains(&n) {
            return None;
        }
        // step[c][code] = the blank's cell after the move, if the move exists.
        let mut step = vec![[u8::MAX; 4]; n];
        for (c, list) in neighbours(rows, cols).iter().enumerate() {
            for &(d, code) in list {
                step[c][code as usize] = d as u8;
            }
        }
        let words = forbidden_words(&step, n, max_len.min(MAX_LEN));
        let count = words.len();
        let max_len = max_len.min(MAX_LEN);
        let (delta, forbid) = aho_corasick(&words);
        let edges = delta
            .iter()
            .map(|&t| t << 1 | u32::from(forbid[t as usize] != 0))
            .collect();
        Some(Fsm {
            edges,
            states: forbid.len(),
            forbid,
            max_len,
            words: count,
        })
    }

    /// The state after `code` from `state`, or `None` when the move, ending with the blank
    /// in `cell`, completes a forbidden word.
    #[inline(always)]
    pub fn step(&self, state: u32, code: u8, cell: usize) -> Option<u32> {
        // States and codes come from this automaton, so the index is in range.
        let e = self.edges[4 * state as usize + code as usize];
        let next = e >> 1;
        (e & 1 == 0 || self.forbid[next as usize] >> cell & 1 == 0).then_some(next)
    }

    /// Ask the memory system for `state`'s edges without waiting for them (the next
    /// [`step`](Self::step)s from `state` read them).
    #[inline(always)]
    pub fn prefetch(&self, state: u32) {
        super::prefetch(&self.edges, 4 * state as usize);
    }

    /// Longest forbidden word looked for.
    pub fn max_len(&self) -> usize {
        self.max_len
    }

    /// Forbidden words (one per start cell and move sequence).
    pub fn words(&self) -> usize {
        self.words
    }

    /// States of the automaton.
    pub fn states(&self) -> usize {
        self.states
    }
}

/// The arrangement key after the blank moved from `b` to `c`: 5 bits per cell, holding which
/// cell's content is there now.
#[inline(always)]
fn swap(key: u128, b: usize, c: usize) -> u128 {
    let (sb, sc) = (5 * b as u32, 5 * c as u32);
    let (vb, vc) = ((key >> sb) & 31, (key >> sc) & 31);
    key ^ ((vb ^ vc) << sb) ^ ((vb ^ vc) << sc)
}

/// A move sequence (2 bits per move, the first move lowest), its length and the blank's
/// cell at its end.
#[derive(Debug, Clone, Copy)]
struct Word {
    moves: u64,
    len: u8,
    end: u8,
}

impl Word {
    fn code(&self, i: usize) -> u8 {
        (self.moves >> (2 * i) & 3) as u8
    }
}

/// Longest word a `Word` holds.
pub const MAX_LEN: usize = 32;

/// The minimal forbidden words of up to `max_len` moves from every blank cell.
///
/// All start cells go forward one length at a time together, because a sequence from one
/// cell ends in sequences from the cells it passes through: a sequence is dropped, neither
/// extended nor a word, when one of its proper suffixes is already a forbidden word (from the
/// cell where that suffix starts). Every sequence containing it is pruned by that shorter word
/// anyway, and such a sequence can never be the first to reach its arrangement. Without this
/// the automaton would hold nearly every kept sequence as the prefix of a word that merely
/// ends in an undone move. The sequences pruned are the same either way.
fn forbidden_words(step: &[[u8; 4]], n: usize, max_len: usize) -> Vec<Word> {
    let identity = (0..n).fold(0u128, |k, c| k | ((c as u128) << (5 * c)));
    // The words found so far, keyed by (moves, length, start cell).
    let mut words: FxHashSet<(u64, u8, u8)> = FxHashSet::default();
    let mut out = Vec::new();
    // Per start cell: the arrangements met, and the sequences of the current length that are
    // the first to reach theirs, in move-code order.
    let mut seen: Vec<FxHashSet<u128>> = (0..n).map(|_| FxHashSet::from_iter([identity])).collect();
    let mut level: Vec<Vec<(Word, u128)>> = (0..n)
        .map(|start| {
            let w = Word {
                moves: 0,
                len: 0,
                end: start as u8,
            };
            vec![(w, identity)]
        })
        .collect();
    let mut cells = [0u8; MAX_LEN + 1];
    for _ in 0..max_len {
        let mut found = Vec::new();
        for start in 0..n {
            let mut next = Vec::with_capacity(level[start].len() * 2);
            for (w, key) in &level[start] {
                // The blank's cell before each move of `w`, then after its last.
                cells[0] = start as u8;
                for i in 0..w.len as usize {
                    cells[i + 1] = step[cells[i] as usize][w.code(i) as usize];
                }
                for code in 0..4u8 {
                    let c = step[w.end as usize][code as usize];
                    if c == u8::MAX {
                        continue;
                    }
                    let word = Word {
                        moves: w.moves | (code as u64) << (2 * w.len),
                        len: w.len + 1,
                        end: c,
                    };
                    let len = word.len as usize;
                    let suffix_forbidden = (1..len - 1).any(|i| {
                        words.contains(&(word.moves >> (2 * i), (len - i) as u8, cells[i]))
                    });
                    if suffix_forbidden {
                        continue;
                    }
                    let k = swap(*key, w.end as usize, c as usize);
                    if seen[start].insert(k) {
                        next.push((word, k));
                    } else {
                        found.push((word, start as u8));
                    }
                }
            }
            level[start] = next;
        }
        for (word, start) in found {
            words.insert((word.moves, word.len, start));
            out.push(word);
        }
    }
    out
}

/// The Aho–Corasick automaton of `words`: transitions and, per state,
/// the end cells of every word that ends there (its own and its suffixes').
fn aho_corasick(words: &[Word]) -> (Vec<u32>, Vec<u32>) {
    const NONE: u32 = u32::MAX;
    let mut goto: Vec<[u32; 4]> = vec![[NONE; 4]];
    let mut forbid: Vec<u32> = vec![0];
    for word in words {
        let mut s = 0usize;
        for code in (0..word.len as usize).map(|i| word.code(i)) {
            let t = goto[s][code as usize];
            s = if t == NONE {
                goto.push([NONE; 4]);
                forbid.push(0);
                let new = goto.len() - 1;
                goto[s][code as usize] = new as u32;
                new
            } else {
                t as usize
            };
        }
        forbid[s] |= 1 << word.end;
    }
    let states = goto.len();
    let mut fail = vec![0u32; states];
    let mut delta = vec![0u32; 4 * states];
    let mut queue = VecDeque::new();
    for code in 0..4 {
        match goto[0][code] {
            NONE => delta[code] = 0,
            t => {
                delta[code] = t;
                fail[t as usize] = 0;
                queue.push_back(t as usize);
            }
        }
    }
    while let Some(s) = queue.pop_front() {
        // A word that is a suffix of this state's string ends here too.
        forbid[s] |= forbid[fail[s] as usize];
        for code in 0..4 {
            match goto[s][code] {
                NONE => delta[4 * s + code] = delta[4 * fail[s] as usize + code],
                t => {
                    delta[4 * s + code] = t;
                    fail[t as usize] = delta[4 * fail[s] as usize + code];
                    queue.push_back(t as usize);
                }
            }
        }
    }
    (delta, forbid)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::moves::{DOWN, LEFT, RIGHT, UP};
    use std::collections::HashSet;

    /// Replay `codes` from a board with the blank in `start`: the arrangement key, or `None`
    /// when a move leaves the board.
    fn walk(rows: usize, cols: usize, start: usize, codes: &[u8]) -> Option<u128> {
        let n = rows * cols;
        let nb = neighbours(rows, cols);
        let mut key = (0..n).fold(0u128, |k, c| k | ((c as u128) << (5 * c)));
        let mut b = start;
        for &m in codes {
            let &(c, _) = nb[b].iter().find(|&&(_, code)| code == m)?;
            key = swap(key, b, c);
            b = c;
        }
        Some(key)
    }

    #[test]
    fn undoing_a_move_and_three_turns_around_a_block_are_pruned() {
        let f = Fsm::build(4, 4, 12).unwrap();
        // Run a word through the automaton from the blank cell `start`: the step at which
        // it is pruned, if any.
        let pruned_at = |start: usize, codes: &[u8]| {
            let nb = neighbours(4, 4);
            let (mut s, mut b) = (START, start);
            for (i, &m) in codes.iter().enumerate() {
                let &(c, _) = nb[b].iter().find(|&&(_, code)| code == m).unwrap();
                match f.step(s, m, c) {
                    Some(t) => s = t,
                    None => return Some(i + 1),
                }
                b = c;
            }
            None
        };
        assert_eq!(pruned_at(5, &[UP, DOWN]), Some(2));
        let turn = [RIGHT, DOWN, LEFT, UP];
        let three: Vec<u8> = turn.iter().cycle().take(12).copied().collect();
        assert_eq!(walk(4, 4, 5, &three), walk(4, 4, 5, &[]));
        // Pruned by the 12th move at the latest (earlier if a shorter duplicate exists).
        assert!(pruned_at(5, &three).is_some_and(|i| i <= 12));
        // A straight run is never a duplicate.
        assert_eq!(pruned_at(0, &[RIGHT, RIGHT, RIGHT, DOWN, DOWN, DOWN]), None);
    }

    #[test]
    fn every_arrangement_keeps_exactly_its_first_sequence() {
        // Brute force on 2×3 and 3×3: enumerate every move sequence up to the length from
        // every blank cell; the automaton must let through exactly the first sequence (in
        // shortlex order) of each arrangement and prune every sequence through a pruned
        // prefix.
        for (rows, cols, len) in [(2, 3, 10), (3, 3, 8)] {
            let f = Fsm::build(rows, cols, len).unwrap();
            let nb = neighbours(rows, cols);
            for start in 0..rows * cols {
                let mut first: HashSet<u128> = HashSet::new();
                first.insert(walk(rows, cols, start, &[]).unwrap());
                // (codes, blank, state) of the sequences the automaton lets through.
                let mut level = vec![(Vec::<u8>::new(), start, START)];
                for _ in 0..len {
                    let mut next = Vec::new();
                    for (codes, b, s) in &level {
                        for &(c, m) in &nb[*b] {
                            let mut w = codes.clone();
                            w.push(m);
                            let key = walk(rows, cols, start, &w).unwrap();
                            let is_first = first.insert(key);
                            match f.step(*s, m, c) {
                                Some(t) => {
                                    assert!(is_first, "{rows}x{cols} from {start}: {w:?} kept");
                                    next.push((w, c, t));
                                }
                                None => assert!(
                                    !is_first,
                                    "{rows}x{cols} from {start}: {w:?} pruned but first"
                                ),
                            }
                        }
                    }
                    // Sort by codes: the automaton's order is move-code order.
                    next.sort();
                    level = next;
                }
            }
        }
    }
}
