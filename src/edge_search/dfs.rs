//! Depth-first construction with a cumulative mismatch budget that opens only late in the
//! scan: the first cells must match exactly (a fast, narrow search), the last ones may break
//! a few seams, never a border seam. The idea is the Eternity II community's (Verhaard's
//! "slip array", Blackwood's break indexes; see the project notes). Unless given, the
//! schedule ([`Breaks`]) puts a total scaled to the board where a Markov chain fed by the
//! board's own fit counts rates it best ([`BreakSpec::Chain`], [`super::schedule`]).
//!
//! Each restart shuffles the candidate lists and stops after a node cap; its deepest partial
//! boards (the fewest breaks first, up to [`DfsParams::finishes`] of them) are finished by
//! a beam and the best is the restart's board: the leftover pieces of boards equally deep
//! differ, and so do their finished scores. The beam takes back the last cells the search
//! placed ([`DfsParams::finish_back`]) and places them again with the empty ones: the walk
//! stalls where its break rules leave too few candidates, and over a longer stretch without
//! those rules the beam finds better ends than over the empty cells alone. A complete
//! board within the budget tightens the budget to one break fewer, so the search keeps
//! looking for better. Workers (`threads`) share the restarts; restart `k` draws its
//! shuffle from a stream of its own (the seed and `k`), so a run is a sequence of numbered
//! restarts that a checkpoint ([`DfsCheckpoint`]: the restarts finished, the budgets, the
//! best board) resumes where it stopped.

use super::Rng;
use super::core::{Core, ScanOrder, complete_greedily};
use super::quota::Quota;
use super::scan::{Plan, Span, Tables, WalkEnd, WalkLimits, Walker};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The schema of a [`DfsCheckpoint`].
pub const DFS_CHECKPOINT_SCHEMA: &str = "tilekit-dfs-checkpoint/1";

/// Where a run of [`dfs`] stands: enough to resume it. Restarts are numbered, and restart
/// `k`'s shuffles come from the seed and `k` alone, so a resumed run runs the restarts the
/// first did not, under the budgets it had tightened to, and keeps its best board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DfsCheckpoint {
    /// [`DFS_CHECKPOINT_SCHEMA`].
    pub schema: String,
    /// The search it belongs to ([`fingerprint`]): the same board, scan, candidates, seed,
    /// node cap and budgets.
    pub fingerprint: String,
    /// Every restart numbered below this has finished (a few above it may have too).
    pub restarts: u64,
    /// Placements over those restarts.
    pub nodes: u64,
    /// The budget tables as tightened so far, one per budget.
    pub allowed: Vec<Vec<u16>>,
    /// The best board (rotated-piece indices per cell) and its matched seams.
    pub best: Option<(usize, Vec<u16>)>,
    /// Milliseconds the search has run, over this run and the runs it resumed.
    #[serde(default)]
    pub elapsed_ms: u64,
}

/// The fingerprint of a depth-first search: the scan, the candidate buckets (canonical
/// order), the seed, the node cap and the budgets, as a SHA-256.
pub fn fingerprint(core: &Core, params: &DfsParams) -> String {
    use sha2::{Digest, Sha256};
    let plan = Plan::new(core, params.order);
    let tables = Tables::new(core);
    let mut h = Sha256::new();
    h.update(super::scan::fingerprint(&plan, &tables, 0, 0).as_bytes());
    h.update(params.seed.to_le_bytes());
    h.update(params.node_cap.to_le_bytes());
    // Without a quota or extra finishes the fingerprint is what it was before they existed.
    if params.finishes > 1 {
        h.update(b"finishes");
        h.update((params.finishes as u64).to_le_bytes());
    }
    if params.finish_back > 0 {
        h.update(b"finish_back");
        h.update((params.finish_back as u64).to_le_bytes());
    }
    if let Some(q) = &params.quota {
        h.update(b"quota");
        h.update((q.colours.len() as u64).to_le_bytes());
        h.update(&q.colours);
        for x in &q.table {
            h.update(x.to_le_bytes());
        }
    }
    for b in budgets(params, plan.len()) {
        h.update((b.len() as u64).to_le_bytes());
        for x in b {
            h.update(x.to_le_bytes());
        }
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// The budget tables a run's workers use: the default, and the second one with two or more
/// workers.
fn budgets(params: &DfsParams, free: usize) -> Vec<Vec<u16>> {
    std::iter::once(&params.breaks)
        .chain(params.alt_breaks.as_ref().filter(|_| params.threads > 1))
        .map(|b| {
            assert_eq!(b.0.len(), free, "one budget entry per free cell");
            b.0.clone()
        })
        .collect()
}

/// The seed of restart `k`'s own stream (SplitMix64's finaliser over the run's seed and
/// `k`): restarts draw nothing from each other.
fn restart_seed(seed: u64, k: u64) -> u64 {
    let mut z = seed ^ k.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The cumulative breaks allowed once the cell at each position of the scan is placed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Breaks(pub Vec<u16>);

/// How the breaks were given: a total spread over the default gates, or a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BreakSpec {
    /// This many breaks, the first allowed at 75 % of the scan, the last at 94 %, evenly
    /// between.
    Total(u16),
    /// `(position, cumulative breaks)` gates, in increasing order (positions count placed
    /// cells, from 1).
    Table(Vec<(usize, u16)>),
    /// This many breaks, at the gates a Markov chain over (position, breaks used) rates
    /// best for the board, fed by fit counts measured on the board itself
    /// ([`super::schedule`]).
    Chain(u16),
}

impl BreakSpec {
    /// Read `N` (a total), `chain:N` (a total at the chain's gates) or `D:B,D:B,…` (gates:
    /// from D placed cells on, B breaks in all).
    pub fn parse(s: &str) -> Result<BreakSpec, String> {
        if let Ok(n) = s.trim().parse::<u16>() {
            return Ok(BreakSpec::Total(n));
        }
        let bad = || {
            format!(
                "expected a number of breaks, chain:N, or gates D:B,D:B,… (from D placed cells on, B breaks in all; both increasing), not {s:?}"
            )
        };
        if let Some(n) = s.trim().strip_prefix("chain:") {
            return n.parse().map(BreakSpec::Chain).map_err(|_| bad());
        }
        let mut gates = Vec::new();
        for part in s.split(',') {
            let (d, b) = part.trim().split_once(':').ok_or_else(bad)?;
            let d: usize = d.trim().parse().map_err(|_| bad())?;
            let b: u16 = b.trim().parse().map_err(|_| bad())?;
            if let Some(&(pd, pb)) = gates.last()
                && (d <= pd || b < pb)
            {
                return Err(bad());
            }
            gates.push((d, b));
        }
        Ok(BreakSpec::Table(gates))
    }

    /// The default for a board of `cells` cells: 12 breaks on Eternity II's 256 (the depth
    /// of the best late-break runs), in proportion elsewhere, at least 1, at the chain's
    /// gates for the board.
    pub fn default_for(cells: usize) -> BreakSpec {
        BreakSpec::Chain(((cells * 12) as f64 / 256.0).round().max(1.0) as u16)
    }

    /// The total, when the spec is one ([`Self::Total`] or [`Self::Chain`]).
    pub fn total(&self) -> Option<u16> {
        match self {
            BreakSpec::Total(t) | BreakSpec::Chain(t) => Some(*t),
            BreakSpec::Table(_) => None,
        }
    }

    /// The same kind of spec with another total (a table stays as it is).
    pub fn with_total(&self, t: u16) -> BreakSpec {
        match self {
            BreakSpec::Total(_) => BreakSpec::Total(t),
            BreakSpec::Chain(_) => BreakSpec::Chain(t),
            BreakSpec::Table(g) => BreakSpec::Table(g.clone()),
        }
    }

    /// The per-position table for the scan `order` of `core`: [`Self::table`], or for a
    /// [`Self::Chain`] the chain's best gates on a fit profile measured here (seeded, so
    /// the table is a function of the board and the scan).
    pub fn resolve(&self, core: &Core, order: ScanOrder) -> Breaks {
        Self::resolve_all(std::slice::from_ref(self), core, order)
            .pop()
            .expect("one table per spec")
    }

    /// [`Self::resolve`] for several specs, the fit profile measured once for all.
    pub fn resolve_all(specs: &[BreakSpec], core: &Core, order: ScanOrder) -> Vec<Breaks> {
        let free = Plan::new(core, order).len();
        let mut profile = None;
        specs
            .iter()
            .map(|spec| match spec {
                BreakSpec::Chain(t) => {
                    let profile = profile.get_or_insert_with(|| {
                        super::schedule::FitProfile::measure(
                            core,
                            order,
                            super::schedule::FitProfile::SAMPLE,
                            1,
                        )
                    });
                    BreakSpec::Table(profile.schedule(*t).gates).table(free)
                }
                _ => spec.table(free),
            })
            .collect()
    }

    /// The per-position table for a scan of `cells` cells (a [`Self::Chain`] spreads its
    /// total evenly here: [`Self::resolve`] places it).
    pub fn table(&self, cells: usize) -> Breaks {
        let gates: Vec<(usize, u16)> = match self {
            BreakSpec::Table(g) => g.clone(),
            BreakSpec::Chain(t) => return BreakSpec::Total(*t).table(cells),
            BreakSpec::Total(0) => Vec::new(),
            BreakSpec::Total(t) => {
                let (t, first, last) = (*t as usize, cells * 3 / 4, cells * 94 / 100);
                (1..=t)
                    .map(|b| {
                        let d = if t == 1 {
                            first
                        } else {
                            first + (last - first) * (b - 1) / (t - 1)
                        };
                        (d.max(1), b as u16)
                    })
                    .collect()
            }
        };
        Breaks(super::schedule::gate_table(&gates, cells))
    }
}

/// Knobs of a run.
#[derive(Debug, Clone)]
pub struct DfsParams {
    /// Scan order.
    pub order: ScanOrder,
    /// The budget table (per position of the scan).
    pub breaks: Breaks,
    /// A second budget for every other worker (with two or more): the budget that suits a
    /// board is not known in advance (on META 14×14, 12 breaks beat the default 9; on
    /// 12×12 and 16×16 the default was better), so two workers try two.
    pub alt_breaks: Option<Breaks>,
    /// A colour quota ([`super::quota`]); `None`: no quota.
    pub quota: Option<Quota>,
    /// How many of a restart's deepest partial boards are finished (all as deep, the
    /// fewest breaks first); the best finished board is the restart's (at least 1).
    pub finishes: usize,
    /// How many of the cells the search placed last in a partial board the finishing beam
    /// takes back and places again with the empty ones (0: the empty ones alone).
    pub finish_back: usize,
    /// Nodes (placements) per restart.
    pub node_cap: u64,
    /// Restarts in all (over all workers); `None`: until the deadline.
    pub restarts: Option<u64>,
    /// Seed.
    pub seed: u64,
    /// Workers.
    pub threads: usize,
}

/// The best board of a run.
#[derive(Debug, Clone)]
pub struct DfsResult {
    /// The complete board (rotated-piece indices per cell).
    pub cells: Vec<u16>,
    /// Its matched seams.
    pub matched: usize,
    /// The deepest partial board it was finished from.
    pub partial: Vec<u16>,
    /// Cells placed by the search in that partial (fixed cells included).
    pub depth: usize,
    /// Restarts run, and nodes in all.
    pub restarts: u64,
    /// Placements tried over the run.
    pub nodes: u64,
    /// Whether the search itself completed a board (not the greedy finish).
    pub searched_complete: bool,
    /// Which budget the worker that found it ran: 0 for `breaks`, 1 for `alt_breaks`.
    pub budget: usize,
    /// Seconds the workers spent placing pieces, summed over them: the search's own time,
    /// without the finishing of partial boards, the shared bookkeeping or the checkpoints.
    pub walk_seconds: f64,
}

/// Outcome of one restart.
struct Restart {
    /// Its deepest partial board, then others as deep ([`DfsParams::finishes`]).
    partials: Vec<Vec<u16>>,
    depth: usize,
    complete: bool,
    nodes: u64,
}

/// One restart: a walk of the whole scan under `allowed` until it completes a board or
/// spends `node_cap`; its deepest partial board (fewest breaks among the deepest), then up
/// to `finishes − 1` others as deep.
fn restart(
    core: &Core,
    (plan, tables): (&Plan, &Tables),
    walker: &mut Walker,
    (allowed, finishes): (&[u16], usize),
    limits: &WalkLimits,
) -> Restart {
    walker.reset(plan);
    walker.track_deepest = true;
    walker.keep_as_deep = finishes.saturating_sub(1);
    let before = walker.nodes;
    let end = walker.walk(
        (plan, tables),
        allowed,
        Span {
            from: 0,
            to: plan.len(),
            before: plan.fixed_breaks,
        },
        limits,
        &mut |_| true,
    );
    let depth = walker.deepest.0;
    // A completed board needs no other.
    let others = if end == WalkEnd::Stopped {
        &[][..]
    } else {
        &walker.as_deep[..]
    };
    Restart {
        partials: std::iter::once(&walker.deepest.2)
            .chain(others)
            .map(|path| Walker::cells_of(core, plan, tables, path))
            .collect(),
        // Fixed cells count as placed.
        depth: depth + (core.cells() - plan.len()),
        complete: end == WalkEnd::Stopped,
        nodes: walker.nodes - before,
    }
}

/// `partial` with the last `back` cells of the scan `order` that hold a piece emptied again,
/// fixed cells kept: the stretch where the search stalled, for [`finish`] to place anew.
///
/// ```
/// use tilekit::edge_search::core::{Core, ScanOrder};
/// use tilekit::edge_search::dfs::take_back;
/// use tilekit::puzzle::edge::{Board, generate};
///
/// let (p, solution) = generate(4, 4, 2, 3, 1).unwrap();
/// let core = Core::new(&p, &Board::empty(4, 4)).unwrap();
/// let order = ScanOrder::RowMajor.cells(4, 4);
/// let mut partial = Core::indices(&solution);
/// for &c in &order[12..] {
///     partial[c] = u16::MAX;
/// }
/// let back = take_back(&core, &partial, &order, 3);
/// let empty: Vec<usize> = order.iter().copied().filter(|&c| back[c] == u16::MAX).collect();
/// assert_eq!(empty, order[9..].to_vec());
/// ```
pub fn take_back(core: &Core, partial: &[u16], order: &[usize], back: usize) -> Vec<u16> {
    let mut out = partial.to_vec();
    for &c in order
        .iter()
        .rev()
        .filter(|&&c| partial[c] != u16::MAX && core.fixed(c).is_none())
        .take(back)
    {
        out[c] = u16::MAX;
    }
    out
}

/// The cells a finishing beam takes back on a board of `cells` cells when not told: an
/// eighth of the board (32 on Eternity II). On Eternity II in a minute, 30 to 40 cells
/// taken back gave one seam more than the empty cells alone on every seed measured, 20 to
/// 25 one seam on one seed of three, and 45 to 60 lost as often as they gained
/// (`docs/results/edge-record.md`).
///
/// ```
/// assert_eq!(tilekit::edge_search::dfs::finish_back_for(256), 32);
/// ```
pub fn finish_back_for(cells: usize) -> usize {
    cells / 8
}

/// The beam width that finishes a restart's deepest partial board.
pub const FINISH_WIDTH: usize = 2048;

/// Finish `partial` (its empty cells, in scan order) by a beam of [`FINISH_WIDTH`] with
/// everything placed pinned, or greedily where the beam leaves a cell empty: the last cells
/// are where the search stalled, and a beam over them recovers seams a greedy pass loses.
pub fn finish(work: &mut Core, partial: &[u16], order: &[usize], seed: u64) -> Vec<u16> {
    let free: Vec<usize> = order
        .iter()
        .copied()
        .filter(|&c| partial[c] == u16::MAX)
        .collect();
    if free.is_empty() {
        return partial.to_vec();
    }
    work.set_fixed(partial);
    let mut done = super::beam::beam_cells(work, &free, FINISH_WIDTH, seed, 1, None).cells;
    complete_greedily(work, &mut done, order);
    done
}

/// Run restarts until `params.restarts` (counting a resumed run's earlier ones) or
/// `deadline`; `on_best` hears every new best board (its matched count and cells),
/// `on_restart` where the run stands after each restart. `resume` continues from a
/// checkpoint of the same search ([`fingerprint`]; the caller checks it). Deterministic for
/// a seed with one worker and a restart count, resumed or not.
pub fn dfs(
    core: &Core,
    params: &DfsParams,
    deadline: Option<Instant>,
    resume: Option<&DfsCheckpoint>,
    on_best: &(dyn Fn(usize, &[u16]) + Sync),
    on_restart: &(dyn Fn(&DfsCheckpoint) + Sync),
) -> DfsResult {
    let started = Instant::now();
    let earlier_ms = resume.map_or(0, |c| c.elapsed_ms);
    let cells = params.order.cells(core.rows(), core.cols());
    let n = cells.len();
    let plan = Plan::new(core, params.order);
    assert_eq!(
        params.breaks.0.len(),
        plan.len(),
        "one budget entry per free cell"
    );
    struct Shared {
        best: Option<DfsResult>,
        allowed: Vec<Vec<u16>>,
        /// The next restart to hand out.
        next: u64,
        /// Every restart below this has finished; `finished` holds those above it.
        done_below: u64,
        finished: BTreeSet<u64>,
        nodes: u64,
        walking: std::time::Duration,
    }
    let resumed_best = resume
        .and_then(|c| c.best.as_ref())
        .map(|(matched, b)| DfsResult {
            cells: b.clone(),
            matched: *matched,
            partial: b.clone(),
            depth: n,
            restarts: 0,
            nodes: 0,
            searched_complete: false,
            budget: 0,
            walk_seconds: 0.0,
        });
    let shared = Mutex::new(Shared {
        best: resumed_best,
        allowed: resume.map_or_else(|| budgets(params, plan.len()), |c| c.allowed.clone()),
        next: resume.map_or(0, |c| c.restarts),
        done_below: resume.map_or(0, |c| c.restarts),
        finished: BTreeSet::new(),
        nodes: resume.map_or(0, |c| c.nodes),
        walking: std::time::Duration::ZERO,
    });
    let fingerprint = resume.map_or_else(|| fingerprint(core, params), |c| c.fingerprint.clone());
    // A board without a break is the end; a resumed one may already have it.
    let stop = AtomicBool::new(
        resume.is_some_and(|c| c.best.as_ref().is_some_and(|(m, _)| *m == core.max_score())),
    );
    let threads = params.threads.max(1);
    let mut canonical = Tables::new(core);
    if let Some(q) = &params.quota {
        canonical.count_colours(core, &q.colours);
    }
    let worker = || {
        let mut tables = canonical.clone();
        let mut walker = Walker::new(&plan);
        let mut finisher = core.clone();
        loop {
            let (k, budget, allowed) = {
                let mut s = shared.lock().expect("a DFS worker panicked");
                if params.restarts.is_some_and(|r| s.next >= r)
                    || deadline.is_some_and(|d| Instant::now() >= d)
                    || stop.load(Ordering::Relaxed)
                {
                    return;
                }
                let k = s.next;
                s.next += 1;
                let budget = (k % s.allowed.len() as u64) as usize;
                (k, budget, s.allowed[budget].clone())
            };
            // Restart k's shuffle from the canonical order and its own stream.
            tables.clone_from(&canonical);
            let seed = restart_seed(params.seed, k);
            tables.shuffle(&mut Rng::new(seed));
            let limits = WalkLimits {
                node_cap: params.node_cap,
                deadline,
                stop: &stop,
                beaten: None,
                quota: params.quota.as_ref().map_or(&[], |q| &q.table[..]),
            };
            let walk_started = Instant::now();
            let res = restart(
                core,
                (&plan, &tables),
                &mut walker,
                (&allowed, params.finishes),
                &limits,
            );
            let walked = walk_started.elapsed();
            // Its own stream: finishing does not change the restarts' shuffles. The best
            // finished board wins, the deepest first among equals. A partial board's own
            // finish is kept unless the one with cells taken back beats it (taking back
            // may undo a complete board's better end).
            let (matched, done, partial) = res
                .partials
                .into_iter()
                .map(|partial| {
                    let stream = seed ^ 0xF1_15_4E;
                    let mut done = finish(&mut finisher, &partial, &cells, stream);
                    let mut matched = core.matched(&done);
                    if params.finish_back > 0 {
                        let open = take_back(core, &partial, &cells, params.finish_back);
                        let again = finish(&mut finisher, &open, &cells, stream);
                        if core.matched(&again) > matched {
                            matched = core.matched(&again);
                            done = again;
                        }
                    }
                    (matched, done, partial)
                })
                .reduce(|best, x| if x.0 > best.0 { x } else { best })
                .expect("a restart has its deepest board");
            let mut s = shared.lock().expect("a DFS worker panicked");
            s.nodes += res.nodes;
            s.walking += walked;
            // A restart cut short by the deadline or a stop is not finished: a resumed run
            // runs it again whole.
            let cut = deadline.is_some_and(|d| Instant::now() >= d)
                || stop.load(Ordering::Relaxed) && !res.complete;
            if !cut {
                s.finished.insert(k);
                loop {
                    let next = s.done_below;
                    if !s.finished.remove(&next) {
                        break;
                    }
                    s.done_below += 1;
                }
            }
            if res.complete {
                // Look for one break fewer from now on.
                let brk = (core.max_score() - matched) as u16;
                if brk == 0 {
                    stop.store(true, Ordering::Relaxed);
                }
                for a in s.allowed.iter_mut().flatten() {
                    *a = (*a).min(brk.saturating_sub(1));
                }
            }
            if s.best.as_ref().is_none_or(|b| matched > b.matched) {
                on_best(matched, &done);
                s.best = Some(DfsResult {
                    cells: done,
                    matched,
                    partial,
                    depth: res.depth,
                    restarts: 0,
                    nodes: 0,
                    searched_complete: res.complete,
                    budget,
                    walk_seconds: 0.0,
                });
            }
            on_restart(&DfsCheckpoint {
                schema: DFS_CHECKPOINT_SCHEMA.into(),
                fingerprint: fingerprint.clone(),
                restarts: s.done_below,
                nodes: s.nodes,
                allowed: s.allowed.clone(),
                best: s.best.as_ref().map(|b| (b.matched, b.cells.clone())),
                elapsed_ms: earlier_ms + started.elapsed().as_millis() as u64,
            });
        }
    };
    if threads == 1 {
        worker();
    } else {
        std::thread::scope(|s| {
            for _ in 0..threads {
                s.spawn(worker);
            }
        });
    }
    let s = shared.into_inner().expect("a DFS worker panicked");
    let mut best = s.best.unwrap_or_else(|| {
        // Not even one restart (a deadline already passed): the greedy board.
        let mut cells_v: Vec<u16> = (0..n).map(|c| core.fixed(c).unwrap_or(u16::MAX)).collect();
        let partial = cells_v.clone();
        complete_greedily(core, &mut cells_v, &cells);
        DfsResult {
            matched: core.matched(&cells_v),
            cells: cells_v,
            partial,
            depth: 0,
            restarts: 0,
            nodes: 0,
            searched_complete: false,
            budget: 0,
            walk_seconds: 0.0,
        }
    });
    best.restarts = s.next.min(params.restarts.unwrap_or(u64::MAX));
    best.nodes = s.nodes;
    best.walk_seconds = s.walking.as_secs_f64();
    best
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_chain_budget_reads_back_and_places_its_breaks_late_and_in_order() {
        assert_eq!(BreakSpec::parse("chain:5"), Ok(BreakSpec::Chain(5)));
        assert!(BreakSpec::parse("chain:x").is_err());
        assert_eq!(BreakSpec::Chain(5).total(), Some(5));
        assert_eq!(BreakSpec::Total(5).with_total(7), BreakSpec::Total(7));
        let (p, _) = crate::puzzle::edge::generate(8, 8, 3, 8, 2).unwrap();
        let core = Core::new(&p, &crate::puzzle::edge::Board::empty(8, 8)).unwrap();
        let order = ScanOrder::RowMajor;
        let table = BreakSpec::Chain(3).resolve(&core, order).0;
        assert_eq!(table.len(), 64);
        assert_eq!(table.last(), Some(&3));
        assert!(table.windows(2).all(|w| w[0] <= w[1]), "{table:?}");
        // Seeded: the same board gives the same table, which a checkpoint relies on.
        assert_eq!(BreakSpec::Chain(3).resolve(&core, order).0, table);
        // No break before the first position where a one-break candidate can exist.
        assert_eq!(table[0], 0);
    }
    use super::*;
    use crate::puzzle::edge::{Board, generate, score};

    fn params(order: ScanOrder, breaks: Breaks, restarts: u64, seed: u64) -> DfsParams {
        DfsParams {
            order,
            breaks,
            alt_breaks: None,
            quota: None,
            finishes: 1,
            finish_back: 0,
            node_cap: 200_000,
            restarts: Some(restarts),
            seed,
            threads: 1,
        }
    }

    #[test]
    fn break_tables_parse_and_spread() {
        assert_eq!(BreakSpec::parse("3"), Ok(BreakSpec::Total(3)));
        assert_eq!(
            BreakSpec::parse("5:1, 8:3"),
            Ok(BreakSpec::Table(vec![(5, 1), (8, 3)]))
        );
        assert!(BreakSpec::parse("8:1,5:2").is_err());
        assert!(BreakSpec::parse("x").is_err());
        let t = BreakSpec::Table(vec![(3, 1), (5, 2)]).table(6);
        assert_eq!(t.0, vec![0, 0, 1, 1, 2, 2]);
        let t = BreakSpec::Total(12).table(256);
        // Gates count placed cells: the first opens with the 192nd.
        assert_eq!(t.0[190], 0);
        assert_eq!(t.0[191], 1);
        assert_eq!(t.0[255], 12);
        assert!(t.0.windows(2).all(|w| w[0] <= w[1]));
    }

    /// Mismatched seams among the first `k` cells of the scan, counted from the board alone.
    fn prefix_breaks(
        p: &crate::puzzle::edge::EdgePuzzle,
        cells: &[usize],
        b: &Board,
        k: usize,
    ) -> usize {
        let mut part = Board::empty(b.rows, b.cols);
        for &c in &cells[..k] {
            part.cells[c] = b.cells[c];
        }
        let sc = score(p, &part);
        // Seams with both cells placed, minus the matched ones.
        let mut both = 0;
        for &c in &cells[..k] {
            let (r, cc) = (c / b.cols, c % b.cols);
            if cc + 1 < b.cols && part.cells[c + 1].is_some() {
                both += 1;
            }
            if r + 1 < b.rows && part.cells[c + b.cols].is_some() {
                both += 1;
            }
        }
        both - sc.matched
    }

    #[test]
    fn the_budget_is_respected_at_every_depth_and_boards_verify() {
        for seed in 1..=4u64 {
            let (p, _) = generate(7, 7, 2, 6, seed).unwrap();
            let core = Core::new(&p, &Board::empty(7, 7)).unwrap();
            let order = ScanOrder::RowMajor;
            let breaks = BreakSpec::Total(3).table(49);
            let res = dfs(
                &core,
                &params(order, breaks.clone(), 5, seed),
                None,
                None,
                &|_, _| {},
                &|_| {},
            );
            let b = core.board(&res.cells);
            let sc = score(&p, &b);
            assert_eq!((sc.empty, sc.rim_faults, sc.repeats), (0, 0, 0), "{sc:?}");
            assert_eq!(sc.matched, res.matched);
            let cells = order.cells(7, 7);
            let partial = core.board(&res.partial);
            for k in 1..=res.depth {
                assert!(
                    prefix_breaks(&p, &cells, &partial, k) <= breaks.0[k - 1] as usize,
                    "seed {seed}: more breaks than allowed among the first {k} cells"
                );
            }
        }
    }

    #[test]
    fn a_colour_quota_holds_at_every_depth_of_the_deepest_board() {
        let (p, _) = generate(8, 8, 3, 7, 6).unwrap();
        let core = Core::new(&p, &Board::empty(8, 8)).unwrap();
        let order = ScanOrder::RowMajor;
        let spec = crate::edge_search::quota::QuotaSpec {
            full: 0.5,
            share: 0.9,
            ..crate::edge_search::quota::QuotaSpec::new(vec![1, 4, 5])
        };
        let quota = spec.resolve(&core, order).unwrap();
        assert!(quota.table.windows(2).all(|w| w[0] <= w[1]), "{quota:?}");
        let cells = order.cells(8, 8);
        // The first position where a run's deepest board falls below the quota, counted
        // from the puzzle's own colours, not the engine's tables.
        let first_short = |res: &DfsResult| {
            let mut counted = 0u16;
            (0..res.depth).find(|&k| {
                let o = core.oriented(res.partial[cells[k]]);
                counted += o
                    .sides
                    .iter()
                    .filter(|&&d| d != 0 && spec.colours.contains(&core.colour(d)))
                    .count() as u16;
                counted < quota.table[k]
            })
        };
        let mut pr = params(order, BreakSpec::Total(3).table(64), 4, 3);
        let free = dfs(&core, &pr, None, None, &|_, _| {}, &|_| {});
        // Without the quota the search spends those colours too late: the quota bites.
        assert!(first_short(&free).is_some(), "{quota:?}");
        pr.quota = Some(quota.clone());
        let res = dfs(&core, &pr, None, None, &|_, _| {}, &|_| {});
        assert!(res.depth > 32, "deepest {}", res.depth);
        assert_eq!(first_short(&res), None);
        let b = core.board(&res.cells);
        assert_eq!(score(&p, &b).repeats, 0);
        // A quota is part of what a checkpoint belongs to.
        let with = fingerprint(&core, &pr);
        pr.quota = None;
        assert_ne!(with, fingerprint(&core, &pr));
    }

    /// Six generated 9×9 boards searched as `params` gives, then after `change`: the
    /// changed search is another checkpoint's, its boards verify and are never worse, and
    /// some seed gains; with `same_walks`, it places exactly the same pieces.
    fn never_loses_and_can_gain(change: impl Fn(&mut DfsParams), same_walks: bool, what: &str) {
        let mut gained = false;
        for seed in 1..=6u64 {
            let (p, _) = generate(9, 9, 3, 9, seed).unwrap();
            let core = Core::new(&p, &Board::empty(9, 9)).unwrap();
            let mut pr = params(ScanOrder::RowMajor, BreakSpec::Total(3).table(81), 4, seed);
            pr.node_cap = 100_000;
            let before = dfs(&core, &pr, None, None, &|_, _| {}, &|_| {});
            let was = fingerprint(&core, &pr);
            change(&mut pr);
            assert_ne!(fingerprint(&core, &pr), was, "{what}: the same checkpoint");
            let after = dfs(&core, &pr, None, None, &|_, _| {}, &|_| {});
            if same_walks {
                assert_eq!(
                    before.nodes, after.nodes,
                    "{what}, seed {seed}: other walks"
                );
            }
            let sc = score(&p, &core.board(&after.cells));
            assert_eq!((sc.empty, sc.rim_faults, sc.repeats), (0, 0, 0), "{sc:?}");
            assert_eq!(sc.matched, after.matched);
            assert!(after.matched >= before.matched, "{what}, seed {seed}");
            gained |= after.matched > before.matched;
        }
        assert!(gained, "no seed gained from {what}");
    }

    /// The walks do not depend on how many deep boards are finished, so finishing more
    /// never gives a worse board, and on these boards some restart gains by it.
    #[test]
    fn finishing_more_deep_boards_never_loses_and_can_gain() {
        never_loses_and_can_gain(|pr| pr.finishes = 16, true, "more finishes");
    }

    /// The cells taken back are the last ones the search placed, in scan order, never a
    /// fixed one; all of them when fewer are placed; none for 0.
    #[test]
    fn taking_back_empties_the_last_placed_cells_of_the_scan() {
        let (p, solution) = generate(6, 6, 2, 4, 2).unwrap();
        let order = ScanOrder::RowMajor.cells(6, 6);
        let mut fixed = Board::empty(6, 6);
        fixed.cells[order[20]] = solution.cells[order[20]];
        let core = Core::new(&p, &fixed).unwrap();
        let mut partial = Core::indices(&solution);
        for &c in &order[24..] {
            partial[c] = u16::MAX;
        }
        let emptied = |back: &[u16]| -> Vec<usize> {
            (0..36).filter(|&i| back[order[i]] == u16::MAX).collect()
        };
        let five = take_back(&core, &partial, &order, 5);
        let want: Vec<usize> = [18, 19, 21, 22, 23].into_iter().chain(24..36).collect();
        assert_eq!(emptied(&five), want);
        let every = take_back(&core, &partial, &order, 100);
        assert_eq!(
            emptied(&every),
            (0..36).filter(|&i| i != 20).collect::<Vec<_>>()
        );
        assert_eq!(take_back(&core, &partial, &order, 0), partial);
    }

    /// A beam over the cells taken back as well as the empty ones never loses on these
    /// boards and gains on some (a complete board's better end may change the budgets, so
    /// the walks may differ).
    #[test]
    fn a_finish_over_cells_taken_back_never_loses_and_can_gain() {
        never_loses_and_can_gain(|pr| pr.finish_back = 10, false, "cells taken back");
    }

    #[test]
    fn the_same_seed_gives_the_same_board_with_one_worker() {
        let (p, _) = generate(8, 8, 3, 7, 3).unwrap();
        let core = Core::new(&p, &Board::empty(8, 8)).unwrap();
        let pr = params(
            ScanOrder::Comb(usize::MAX),
            BreakSpec::Total(4).table(64),
            4,
            9,
        );
        let a = dfs(&core, &pr, None, None, &|_, _| {}, &|_| {});
        let b = dfs(&core, &pr, None, None, &|_, _| {}, &|_| {});
        assert_eq!(a.cells, b.cells);
        assert_eq!(a.nodes, b.nodes);
    }

    /// A run stopped after some restarts and resumed from its checkpoint runs the
    /// restarts the first did not, under the budgets it had tightened, and ends with the
    /// board, placements and restart count of one unbroken run.
    #[test]
    fn a_run_resumed_from_its_checkpoint_ends_as_one_run() {
        let (p, _) = generate(8, 8, 3, 7, 4).unwrap();
        let core = Core::new(&p, &Board::empty(8, 8)).unwrap();
        let mut pr = params(ScanOrder::RowMajor, BreakSpec::Total(4).table(64), 12, 5);
        pr.node_cap = 20_000;
        let whole = dfs(&core, &pr, None, None, &|_, _| {}, &|_| {});
        for stop_after in [1, 5, 11] {
            let first = params(pr.order, pr.breaks.clone(), stop_after, pr.seed);
            let first = DfsParams {
                node_cap: pr.node_cap,
                ..first
            };
            let last = Mutex::new(None);
            let part = dfs(&core, &first, None, None, &|_, _| {}, &|c| {
                *last.lock().unwrap() = Some(c.clone());
            });
            let c = last.into_inner().unwrap().unwrap();
            assert_eq!(c.restarts, stop_after);
            assert_eq!(c.fingerprint, fingerprint(&core, &pr));
            assert_eq!(c.best.as_ref().map(|b| b.0), Some(part.matched));
            // Through JSON, as the route keeps it.
            let c: DfsCheckpoint =
                serde_json::from_str(&serde_json::to_string(&c).unwrap()).unwrap();
            let rest = dfs(&core, &pr, None, Some(&c), &|_, _| {}, &|_| {});
            assert_eq!(rest.cells, whole.cells, "stopped after {stop_after}");
            assert_eq!(rest.matched, whole.matched);
            assert_eq!(rest.nodes, whole.nodes);
            assert_eq!(rest.restarts, whole.restarts);
        }
        // On two workers (two budgets, taking turns by restart number) a resumed run runs
        // exactly the restarts the first did not, and keeps its best board.
        let two = DfsParams {
            threads: 2,
            alt_breaks: Some(BreakSpec::Total(6).table(64)),
            ..pr.clone()
        };
        let first = DfsParams {
            restarts: Some(5),
            ..two.clone()
        };
        let last = Mutex::new(None);
        dfs(&core, &first, None, None, &|_, _| {}, &|c| {
            let mut l = last.lock().unwrap();
            if l.as_ref()
                .is_none_or(|x: &DfsCheckpoint| c.restarts >= x.restarts)
            {
                *l = Some(c.clone());
            }
        });
        let c = last.into_inner().unwrap().unwrap();
        assert_eq!(c.restarts, 5);
        assert_eq!(c.allowed.len(), 2);
        let rest = dfs(&core, &two, None, Some(&c), &|_, _| {}, &|_| {});
        assert_eq!(rest.restarts, 12);
        assert!(rest.matched >= c.best.as_ref().unwrap().0);
    }

    #[test]
    fn an_exact_search_finds_a_planted_board() {
        let (p, _) = generate(6, 6, 3, 6, 5).unwrap();
        let core = Core::new(&p, &Board::empty(6, 6)).unwrap();
        let mut pr = params(ScanOrder::RowMajor, BreakSpec::Total(0).table(36), 50, 1);
        pr.node_cap = 5_000_000;
        let res = dfs(&core, &pr, None, None, &|_, _| {}, &|_| {});
        assert_eq!(res.matched, p.max_score());
        assert!(res.searched_complete);
    }

    #[test]
    fn fixed_pieces_stay_where_they_were_put() {
        let (p, planted) = generate(6, 6, 2, 5, 8).unwrap();
        let mut fixed = Board::empty(6, 6);
        fixed.cells[14] = planted.cells[14];
        fixed.cells[0] = planted.cells[0];
        let core = Core::new(&p, &fixed).unwrap();
        let res = dfs(
            &core,
            // The budget counts the 34 cells the search places.
            &params(ScanOrder::RowMajor, BreakSpec::Total(2).table(34), 3, 2),
            None,
            None,
            &|_, _| {},
            &|_| {},
        );
        let b = core.board(&res.cells);
        assert_eq!(b.cells[14], planted.cells[14]);
        assert_eq!(b.cells[0], planted.cells[0]);
        assert_eq!(score(&p, &b).repeats, 0);
    }
}
