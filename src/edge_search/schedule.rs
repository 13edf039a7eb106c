//! Break schedules derived from the board: a Markov chain over (position, breaks used), fed
//! by fit counts measured on the board itself, rates every schedule for a target, the way
//! Verhaard tuned his slip arrays (see the project notes).
//!
//! - [`FitProfile::measure`]: random descents of the scan count, per position, the exact
//!   and the one-break candidates a search could place there.
//! - [`FitProfile::rate`]: the chain. Nodes at position `i` with `k` breaks come from
//!   exact placements of nodes with `k` and one-break placements of nodes with `k − 1`,
//!   where the schedule allows `k`. Its yield is the complete boards it expects per node
//!   searched.
//! - [`FitProfile::schedule`]: the gates for `k` breaks that maximise the yield, by
//!   coordinate ascent from gates spread evenly; [`FitProfile::plan`] picks the fewest
//!   breaks whose best schedule expects a complete board within a node budget.
//!
//! The chain multiplies mean counts, so its node counts are optimistic in absolute terms
//! (on Eternity II it expects a board with 12 breaks every 10⁹ placements, which no run
//! comes near); what the search uses is its ranking of gates for a given total, which
//! measured better than gates spread evenly (`docs/results/edge-record.md`).
//!
//! ```
//! use tilekit::edge_search::core::{Core, ScanOrder};
//! use tilekit::edge_search::schedule::FitProfile;
//! use tilekit::puzzle::edge::{generate, Board};
//!
//! let (puzzle, _planted) = generate(6, 6, 3, 5, 3).unwrap();
//! let core = Core::new(&puzzle, &Board::empty(6, 6)).unwrap();
//! let profile = FitProfile::measure(&core, ScanOrder::RowMajor, FitProfile::SAMPLE, 1);
//! let two = profile.schedule(2);
//! assert_eq!(two.gates.len(), 2);
//! // Two breaks make a complete board cheaper than none.
//! assert!(two.log10_nodes_per_board < profile.rate(&[0; 36]));
//! ```

use super::Rng;
use super::core::{Core, ScanOrder};
use super::scan::{Plan, Tables, Walker};

/// Mean fit counts per position of a scan.
#[derive(Debug, Clone, PartialEq)]
pub struct FitProfile {
    /// Per position: exact candidates, on average over the descents that reached it.
    pub exact: Vec<f64>,
    /// Per position: one-break candidates.
    pub one: Vec<f64>,
}

/// A schedule as the chain rates it.
#[derive(Debug, Clone, PartialEq)]
pub struct Rated {
    /// Gates: from this many placed cells on, this many breaks in all.
    pub gates: Vec<(usize, u16)>,
    /// log10 of the nodes the chain expects per complete board.
    pub log10_nodes_per_board: f64,
}

impl FitProfile {
    /// The populations [`Self::measure`] runs by default: 16 of 64 descents (0.2 s on
    /// Eternity II).
    pub const SAMPLE: (usize, usize) = (16, 64);

    /// Measure the profile of `core` in `order` with `replicas` populations of `walkers`
    /// descents each, from `seed`. A descent places a random exact candidate where there is
    /// one, else a one-break one; one that finds neither is replaced by a copy of a live
    /// descent of its population, so that each position is measured on boards that reached
    /// it (a sequential Monte Carlo estimate). Copies make a population's descents kin, so
    /// the estimate at a position averages the populations still alive there; past the
    /// depth where fewer than half are, the counts are extrapolated from the latest
    /// position of the same class, in proportion to the pieces of its kind still to place.
    pub fn measure(
        core: &Core,
        order: ScanOrder,
        (replicas, walkers): (usize, usize),
        seed: u64,
    ) -> FitProfile {
        let plan = Plan::new(core, order);
        let tables = Tables::new(core);
        let n = plan.len();
        let class: Vec<u8> = (0..n).map(|i| core.class(plan.cell(i))).collect();
        let left: Vec<f64> = (0..n)
            .map(|i| {
                let kind = class[i].count_ones();
                class[i..].iter().filter(|c| c.count_ones() == kind).count() as f64
            })
            .collect();
        let (mut exact, mut one, mut alive) = (vec![0.0; n], vec![0.0; n], vec![0usize; n]);
        let mut rng = Rng::new(seed);
        let replicas = replicas.max(1);
        for _ in 0..replicas {
            let mut pop = vec![Walker::new(&plan); walkers.max(1)];
            for i in 0..n {
                let (mut c_sum, mut b_sum) = (0usize, 0usize);
                let mut live = Vec::with_capacity(pop.len());
                for (w, walker) in pop.iter_mut().enumerate() {
                    let (c, b, placed) = walker.probe_step((&plan, &tables), i, &mut rng);
                    c_sum += c;
                    b_sum += b;
                    if placed {
                        live.push(w);
                    }
                }
                exact[i] += c_sum as f64 / pop.len() as f64;
                one[i] += b_sum as f64 / pop.len() as f64;
                alive[i] += 1;
                if live.is_empty() {
                    break;
                }
                if live.len() < pop.len() {
                    let kept: Vec<Walker> = live.iter().map(|&w| pop[w].clone()).collect();
                    pop = (0..pop.len())
                        .map(|_| kept[rng.below(kept.len())].clone())
                        .collect();
                }
            }
        }
        // Per class, and per kind (rim sides) for a class first met past that depth: the
        // counts per piece left at the latest well-measured position.
        let mut per_piece: [Option<(f64, f64)>; 16] = [None; 16];
        let mut per_kind: [Option<(f64, f64)>; 5] = [None; 5];
        for i in 0..n {
            if 2 * alive[i] >= replicas {
                exact[i] /= alive[i] as f64;
                one[i] /= alive[i] as f64;
                let ratio = Some((exact[i] / left[i], one[i] / left[i]));
                per_piece[class[i] as usize] = ratio;
                per_kind[class[i].count_ones() as usize] = ratio;
            } else if let Some((e, o)) =
                per_piece[class[i] as usize].or(per_kind[class[i].count_ones() as usize])
            {
                exact[i] = e * left[i];
                one[i] = o * left[i];
            } else {
                (exact[i], one[i]) = (0.0, 0.0);
            }
        }
        FitProfile { exact, one }
    }

    /// Positions of the scan.
    pub fn len(&self) -> usize {
        self.exact.len()
    }

    /// Whether the scan is empty.
    pub fn is_empty(&self) -> bool {
        self.exact.is_empty()
    }

    /// log10 of the nodes per complete board the chain expects under `allowed` (the breaks
    /// allowed once position `i` is placed, per position); infinite when no board is
    /// expected.
    pub fn rate(&self, allowed: &[u16]) -> f64 {
        let kmax = allowed.last().copied().unwrap_or(0) as usize;
        // Counts are kept as a shared power of ten and mantissas, so that trees of 10^300
        // nodes and more stay finite.
        let mut nodes = vec![0.0f64; kmax + 1];
        nodes[0] = 1.0;
        let mut scale = 0.0f64;
        let mut total = 0.0f64;
        for (i, &a) in allowed.iter().enumerate() {
            let a = a as usize;
            let mut next = vec![0.0f64; kmax + 1];
            for k in 0..=a.min(kmax) {
                next[k] = nodes[k] * self.exact[i]
                    + if k > 0 {
                        nodes[k - 1] * self.one[i]
                    } else {
                        0.0
                    };
            }
            let level: f64 = next.iter().sum();
            if level <= 0.0 {
                return f64::INFINITY;
            }
            // total and next are both in units of 10^scale.
            total += level;
            let shift = level.log10().floor();
            if shift.abs() >= 1.0 {
                let f = 10f64.powf(-shift);
                next.iter_mut().for_each(|x| *x *= f);
                total *= f;
                scale += shift;
            }
            nodes = next;
        }
        let boards: f64 = nodes.iter().sum();
        (total.log10() + scale) - (boards.log10() + scale)
    }

    /// The per-position table of `gates` (from `d` placed cells on, `b` breaks in all).
    pub fn table(&self, gates: &[(usize, u16)]) -> Vec<u16> {
        gate_table(gates, self.len())
    }

    /// The schedule of `breaks` breaks the chain rates best: one gate per break, moved one
    /// at a time to its best place between its neighbours until none moves.
    pub fn schedule(&self, breaks: u16) -> Rated {
        let n = self.len();
        let k = breaks as usize;
        if k == 0 || n == 0 {
            return Rated {
                gates: Vec::new(),
                log10_nodes_per_board: self.rate(&vec![0; n]),
            };
        }
        // Gate j opens break j+1 from `pos[j]` placed cells on; start evenly between 60 %
        // and 95 % of the scan.
        let (lo, hi) = (n * 6 / 10, n * 95 / 100);
        let mut pos: Vec<usize> = (0..k)
            .map(|j| lo + (hi - lo) * j / (k.max(2) - 1).max(1))
            .map(|d| d.clamp(1, n))
            .collect();
        let gates = |pos: &[usize]| -> Vec<(usize, u16)> {
            pos.iter()
                .enumerate()
                .map(|(j, &d)| (d, j as u16 + 1))
                .collect()
        };
        let mut best = self.rate(&self.table(&gates(&pos)));
        for _ in 0..32 {
            let mut moved = false;
            for j in 0..k {
                let from = if j == 0 { 1 } else { pos[j - 1] };
                let to = if j + 1 == k { n } else { pos[j + 1] };
                for d in from..=to {
                    if d == pos[j] {
                        continue;
                    }
                    let old = pos[j];
                    pos[j] = d;
                    let r = self.rate(&self.table(&gates(&pos)));
                    if r < best - 1e-9 {
                        best = r;
                        moved = true;
                    } else {
                        pos[j] = old;
                    }
                }
            }
            if !moved {
                break;
            }
        }
        Rated {
            gates: gates(&pos),
            log10_nodes_per_board: best,
        }
    }

    /// The fewest breaks (at most `max_breaks`) whose best schedule expects a complete
    /// board within `nodes` placements, with that schedule; the most breaks' schedule when
    /// none does.
    pub fn plan(&self, nodes: f64, max_breaks: u16) -> (u16, Rated) {
        let budget = nodes.max(1.0).log10();
        let mut last = None;
        for b in 0..=max_breaks {
            let r = self.schedule(b);
            if r.log10_nodes_per_board <= budget {
                return (b, r);
            }
            last = Some((b, r));
        }
        last.expect("at least the schedule of no break")
    }
}

/// The breaks allowed once each of `cells` positions is placed, for `gates` (from `d`
/// placed cells on, `b` breaks in all; increasing).
pub fn gate_table(gates: &[(usize, u16)], cells: usize) -> Vec<u16> {
    (1..=cells)
        .map(|placed| {
            gates
                .iter()
                .take_while(|&&(d, _)| d <= placed)
                .last()
                .map_or(0, |&(_, b)| b)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::edge::{Board, generate};

    #[test]
    fn a_planted_board_is_expected_within_its_tree_and_breaks_make_boards_cheaper() {
        let (p, _) = generate(6, 6, 3, 5, 3).unwrap();
        let core = Core::new(&p, &Board::empty(6, 6)).unwrap();
        let prof = FitProfile::measure(&core, ScanOrder::RowMajor, (8, 32), 1);
        assert_eq!(prof.len(), 36);
        // The first cell, a corner, has its four corner pieces in one turn each.
        assert!((prof.exact[0] - 4.0).abs() < 1e-9, "{:?}", prof.exact);
        let none = prof.rate(&[0; 36]);
        assert!(none.is_finite(), "a planted board is in the tree");
        let two = prof.schedule(2);
        assert!(two.log10_nodes_per_board < none, "{two:?} against {none}");
        assert_eq!(two.gates.len(), 2);
        assert!(two.gates[0].0 <= two.gates[1].0);
        assert_eq!(prof.table(&two.gates).len(), 36);
        // More breaks never rate worse, as the gates may sit at the end.
        let four = prof.schedule(4);
        assert!(four.log10_nodes_per_board <= two.log10_nodes_per_board + 1e-9);
        let (b, r) = prof.plan(10f64.powf(none + 1.0), 8);
        assert_eq!(b, 0, "{r:?}");
    }
}
