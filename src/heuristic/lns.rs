//! Large-neighbourhood search: destroy a window of the board and rebuild it by a beam over its
//! cells with everything else pinned ([`beam_cells`]), keeping the result when the board
//! matches at least as many seams as before (sideways moves let the search cross plateaus,
//! which is where good boards sit). Windows are drawn around a random mismatched seam most of
//! the time (that is where a gain can be), anywhere otherwise, in sizes between the bounds.
//! After `patience` rebuilds without a new best the worker goes back to the best board.
//!
//! Workers (`threads`) run from their own seeds and adopt the shared best board when it is
//! better than theirs; with one worker and an iteration count a run is a function of its
//! seed.

use super::Rng;
use super::beam::beam_cells;
use super::core::{Core, DOWN, RIGHT};
use std::sync::Mutex;
use std::time::Instant;

/// Knobs of a run.
#[derive(Debug, Clone)]
pub struct LnsParams {
    /// Smallest and largest window side.
    pub window: (usize, usize),
    /// Beam width of a rebuild.
    pub width: usize,
    /// Rebuilds without a new best before going back to the best board.
    pub patience: u64,
    /// Rebuilds in all (over all workers); `None`: until the deadline.
    pub iterations: Option<u64>,
    /// Seed.
    pub seed: u64,
    /// Workers.
    pub threads: usize,
}

impl Default for LnsParams {
    fn default() -> Self {
        LnsParams {
            window: (3, 6),
            width: 128,
            patience: 2_000,
            iterations: None,
            seed: 1,
            threads: 1,
        }
    }
}

/// What a run reached.
#[derive(Debug, Clone)]
pub struct LnsResult {
    /// The best board (rotated-piece indices per cell).
    pub cells: Vec<u16>,
    /// Its matched seams.
    pub matched: usize,
    /// Rebuilds made, accepted (equal or better) and improving.
    pub iterations: u64,
    /// Rebuilds kept.
    pub accepted: u64,
    /// Rebuilds that found a new best.
    pub improved: u64,
}

/// The mismatched seams of `cells` as (cell, side) with side RIGHT or DOWN.
fn mismatches(core: &Core, cells: &[u16]) -> Vec<usize> {
    let (rows, cols) = (core.rows(), core.cols());
    let mut out = Vec::new();
    for (cell, &o) in cells.iter().enumerate() {
        let s = core.oriented(o).sides;
        let (r, c) = (cell / cols, cell % cols);
        if c + 1 < cols && core.oriented(cells[cell + 1]).sides[3] != s[RIGHT] {
            out.push(cell);
        }
        if r + 1 < rows && core.oriented(cells[cell + cols]).sides[0] != s[DOWN] {
            out.push(cell);
        }
    }
    out
}

/// Improve the complete board `start` (every cell filled; `core`'s fixed pieces in place and
/// kept) until `params.iterations` or `deadline`; `on_best` hears every new best board.
pub fn lns(
    core: &Core,
    start: &[u16],
    params: &LnsParams,
    deadline: Option<Instant>,
    on_best: &(dyn Fn(usize, &[u16]) + Sync),
) -> LnsResult {
    let pinned: Vec<bool> = (0..core.cells()).map(|c| core.fixed(c).is_some()).collect();
    struct Shared {
        best: Vec<u16>,
        matched: usize,
        iterations: u64,
        accepted: u64,
        improved: u64,
    }
    let shared = Mutex::new(Shared {
        best: start.to_vec(),
        matched: core.matched(start),
        iterations: 0,
        accepted: 0,
        improved: 0,
    });
    let worker = |w: usize| {
        let mut rng = Rng::new(params.seed.wrapping_add((w as u64) << 32));
        let mut work = core.clone();
        let (mut cur, mut cur_m) = {
            let s = shared.lock().expect("an LNS worker panicked");
            (s.best.clone(), s.matched)
        };
        let mut since_best = 0u64;
        let (rows, cols) = (core.rows(), core.cols());
        let (lo, hi) = (
            params.window.0.max(1),
            params.window.1.max(params.window.0.max(1)),
        );
        let mut pins = vec![u16::MAX; core.cells()];
        loop {
            {
                let mut s = shared.lock().expect("an LNS worker panicked");
                if params.iterations.is_some_and(|n| s.iterations >= n)
                    || deadline.is_some_and(|d| Instant::now() >= d)
                    || s.matched == core.max_score()
                {
                    return;
                }
                s.iterations += 1;
                // Adopt a better board another worker found, or go back to the best.
                if s.matched > cur_m || since_best >= params.patience {
                    cur.clone_from(&s.best);
                    cur_m = s.matched;
                    since_best = 0;
                }
            }
            let (h, wd) = (
                (lo + rng.below(hi - lo + 1)).min(rows),
                (lo + rng.below(hi - lo + 1)).min(cols),
            );
            let bad = mismatches(core, &cur);
            let (cr, cc) = if !bad.is_empty() && rng.below(5) != 0 {
                let cell = bad[rng.below(bad.len())];
                (cell / cols, cell % cols)
            } else {
                (rng.below(rows), rng.below(cols))
            };
            let r0 = cr.saturating_sub(rng.below(h)).min(rows - h);
            let c0 = cc.saturating_sub(rng.below(wd)).min(cols - wd);
            pins.copy_from_slice(&cur);
            let mut cells = Vec::with_capacity(h * wd);
            for r in r0..r0 + h {
                for c in c0..c0 + wd {
                    let cell = r * cols + c;
                    if !pinned[cell] {
                        pins[cell] = u16::MAX;
                        cells.push(cell);
                    }
                }
            }
            // Half the time, cells at other mismatches join the window, so that pieces can
            // travel between the two places (a window alone only rearranges its own).
            if !bad.is_empty() && rng.below(2) == 0 {
                for _ in 0..2 + rng.below(10) {
                    let cell = bad[rng.below(bad.len())];
                    let cell = if rng.below(2) == 0 {
                        cell
                    } else {
                        // The other end of the seam: right or below.
                        let right = cell % cols + 1 < cols
                            && core.oriented(cur[cell + 1]).sides[3]
                                != core.oriented(cur[cell]).sides[RIGHT];
                        if right {
                            cell + 1
                        } else {
                            (cell + cols).min(core.cells() - 1)
                        }
                    };
                    if !pinned[cell] && pins[cell] != u16::MAX {
                        pins[cell] = u16::MAX;
                        cells.push(cell);
                    }
                }
                cells.sort_unstable();
            }
            if cells.is_empty() {
                continue;
            }
            work.set_fixed(&pins);
            let res = beam_cells(&work, &cells, params.width, rng.next_u64(), 1, None);
            since_best += 1;
            if res.matched < cur_m || res.cells.contains(&u16::MAX) {
                continue;
            }
            let gained = res.matched > cur_m;
            cur = res.cells;
            cur_m = res.matched;
            let mut s = shared.lock().expect("an LNS worker panicked");
            s.accepted += 1;
            if cur_m > s.matched {
                s.matched = cur_m;
                s.best.clone_from(&cur);
                s.improved += 1;
                since_best = 0;
                on_best(cur_m, &cur);
            } else if gained {
                since_best = 0;
            }
        }
    };
    if params.threads <= 1 {
        worker(0);
    } else {
        std::thread::scope(|s| {
            for w in 0..params.threads {
                let worker = &worker;
                s.spawn(move || worker(w));
            }
        });
    }
    let s = shared.into_inner().expect("an LNS worker panicked");
    LnsResult {
        cells: s.best,
        matched: s.matched,
        iterations: s.iterations,
        accepted: s.accepted,
        improved: s.improved,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristic::beam::beam;
    use crate::heuristic::core::ScanOrder;
    use crate::puzzle::edge::{Board, generate, score};

    #[test]
    fn lns_never_loses_seams_keeps_fixed_pieces_and_is_deterministic() {
        let (p, planted) = generate(8, 8, 3, 6, 21).unwrap();
        let mut fixed = Board::empty(8, 8);
        fixed.cells[27] = planted.cells[27];
        let core = Core::new(&p, &fixed).unwrap();
        let start = beam(&core, ScanOrder::RowMajor, 8, 1, 1, None);
        let params = LnsParams {
            iterations: Some(400),
            seed: 3,
            ..LnsParams::default()
        };
        let a = lns(&core, &start.cells, &params, None, &|_, _| {});
        assert!(a.matched >= start.matched);
        let b = core.board(&a.cells);
        let sc = score(&p, &b);
        assert_eq!((sc.empty, sc.rim_faults, sc.repeats), (0, 0, 0));
        assert_eq!(sc.matched, a.matched);
        assert_eq!(b.cells[27], planted.cells[27]);
        let again = lns(&core, &start.cells, &params, None, &|_, _| {});
        assert_eq!(again.cells, a.cells);
    }
}

#[cfg(test)]
mod window_tests {
    use crate::heuristic::beam::beam_cells;
    use crate::heuristic::core::Core;
    use crate::puzzle::edge::{Board, generate};

    #[test]
    fn a_window_of_a_planted_board_is_rebuilt_perfectly() {
        for seed in 1..=5 {
            let (p, planted) = generate(9, 9, 3, 6, seed).unwrap();
            let all: Vec<u16> = planted
                .cells
                .iter()
                .map(|c| c.map_or(u16::MAX, |(id, r)| (id - 1) * 4 + r.turns() as u16))
                .collect();
            let mut core = Core::new(&p, &Board::empty(9, 9)).unwrap();
            for (r0, c0, h, w) in [(2, 3, 4, 4), (0, 0, 3, 5), (5, 4, 4, 5), (3, 0, 6, 2)] {
                let mut pins = all.clone();
                let mut cells = Vec::new();
                for r in r0..r0 + h {
                    for c in c0..c0 + w {
                        pins[r * 9 + c] = u16::MAX;
                        cells.push(r * 9 + c);
                    }
                }
                core.set_fixed(&pins);
                let res = beam_cells(&core, &cells, 2000, 1, 1, None);
                assert_eq!(
                    res.matched,
                    p.max_score(),
                    "seed {seed} window {r0},{c0} {h}x{w}"
                );
            }
        }
    }
}
