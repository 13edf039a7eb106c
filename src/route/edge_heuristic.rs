//! `solve --via heuristic` for edge-matching puzzles: Salassa et al.'s construction (greedy or
//! backtracking region MILPs, or a random board) and their multi-neighbourhood local search
//! ([`crate::heuristic`]), through any MILP solver of the registry. Anytime: the best board so
//! far is kept in `-o` (written beside it and renamed), progress says the score, the elapsed
//! time and the step, and the final board is judged by the independent [`BoardChecker`]
//! before it is reported.

use super::report::HeuristicStats;
use super::{Details, Error, FamilyName, Progress, Report, Solution, Status};
use crate::formulate::edge_region::RegionError;
use crate::heuristic::construct::{self, Built, RegionShape};
use crate::heuristic::core::{Core, ScanOrder};
use crate::heuristic::dfs::{BreakSpec, DfsParams};
use crate::heuristic::local::TraceRow;
use crate::heuristic::{Ctx, HeuristicError, Rng, matched};
use crate::puzzle::edge::{Board, EdgePuzzle, Rotation};
use crate::solve::registry::Registry;
use crate::verify::Checker;
use crate::verify::edge::BoardChecker;
use std::path::PathBuf;
use std::time::Instant;

/// How the first complete board is built (`--construct`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Construct {
    /// Algorithm 1: each region filled optimally in turn.
    #[default]
    Greedy,
    /// Algorithm 2: perfect regions with backtracking, then greedy at its time limit.
    Backtrack,
    /// Every piece class shuffled into its cells (the paper's Table 4 start).
    Random,
    /// Beam search over a scan order ([`crate::heuristic::beam`]).
    Beam,
    /// Depth-first search with a late mismatch budget ([`crate::heuristic::dfs`]).
    Dfs,
}

impl Construct {
    /// The name `--construct` takes.
    pub fn name(self) -> &'static str {
        match self {
            Construct::Greedy => "greedy",
            Construct::Backtrack => "backtrack",
            Construct::Random => "random",
            Construct::Beam => "beam",
            Construct::Dfs => "dfs",
        }
    }
}

/// What follows the construction (`--improve`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Improve {
    /// The multi-neighbourhood local search.
    #[default]
    Ls,
    /// Large-neighbourhood search: windows destroyed and rebuilt by a beam
    /// ([`crate::heuristic::lns`]).
    Lns,
    /// Nothing: the constructed board is the answer.
    None,
}

/// A piece fixed before anything is built (`--fix PIECE@ROW,COL,ROT`, 0-based cell as in
/// board files): the official Eternity II starter piece, or any clue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fix {
    /// Piece id.
    pub piece: u16,
    /// Row, 0-based.
    pub row: usize,
    /// Column, 0-based.
    pub col: usize,
    /// Clockwise quarter turns.
    pub rot: u8,
}

impl Fix {
    /// Read `PIECE@ROW,COL,ROT`.
    pub fn parse(s: &str) -> Result<Fix, String> {
        let bad = || {
            format!(
                "expected PIECE@ROW,COL,ROT (row and column from 0, as in board files; ROT in quarter turns 0..3), not {s:?}"
            )
        };
        let (piece, cell) = s.split_once('@').ok_or_else(bad)?;
        let parts: Vec<&str> = cell.split(',').map(str::trim).collect();
        let [row, col, rot] = parts[..] else {
            return Err(bad());
        };
        let rot: u8 = rot.parse().map_err(|_| bad())?;
        if rot > 3 {
            return Err(bad());
        }
        Ok(Fix {
            piece: piece.trim().parse().map_err(|_| bad())?,
            row: row.parse().map_err(|_| bad())?,
            col: col.parse().map_err(|_| bad())?,
            rot,
        })
    }
}

/// The heuristic route's flags; `None` is the default (the paper's Table 2 for the local
/// search).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HeuristicFlags {
    /// `--construct`.
    pub construct: Option<Construct>,
    /// `--region RxC` (default 1xn).
    pub region: Option<RegionShape>,
    /// `--improve`.
    pub improve: Option<Improve>,
    /// `--seed` (default 1).
    pub seed: Option<u64>,
    /// `--fix`, any number.
    pub fixes: Vec<Fix>,
    /// `--backtrack-time SECS`: the backtracking heuristic's own limit (default: half the
    /// time limit), after which it goes greedy.
    pub backtrack_time: Option<f64>,
    /// `--ta-k` (TA.K, default 16).
    pub ta_k: Option<usize>,
    /// `--ta-n` (TA.N, default 1000).
    pub ta_n: Option<usize>,
    /// `--clique-window WxH` (Clique.W × Clique.H, default 6x6).
    pub clique_window: Option<(usize, usize)>,
    /// `--clique-n` (Clique.N, default 10).
    pub clique_n: Option<usize>,
    /// `--tsr-first`: Tiles Swap and Rotation takes the first improvement, not the best.
    pub tsr_first: bool,
    /// `--patience N`: whole local-search cycles without gain before it stops (default 1, the
    /// paper's local optimum).
    pub patience: Option<usize>,
    /// The local search's own budget in seconds after the construction (default: the rest of
    /// the time limit); `bench sal` gives each run the paper's budget, scaled.
    pub ls_time: Option<f64>,
    /// Where the best board so far is kept (`-o`), rewritten on every improvement.
    pub best_so_far: Option<PathBuf>,
    /// `--beam-width K`: one beam pass of this width (default: passes of doubling width
    /// from 1024 while the time lasts).
    pub beam_width: Option<usize>,
    /// `--scan ORDER` for beam and dfs (default `comb`).
    pub scan: Option<ScanOrder>,
    /// `--breaks N|D:B,…`: the DFS's mismatch budget (default [`BreakSpec::default_for`]).
    pub breaks: Option<BreakSpec>,
    /// `--node-cap N`: placements per DFS restart (default 20 million).
    pub node_cap: Option<u64>,
    /// `--restarts N`: DFS restarts in all (default: until the time is up). With one thread,
    /// a run is then a function of its seed.
    pub restarts: Option<u64>,
    /// `--construct-time SECS`: the search constructors' own budget (default: the whole time
    /// limit with `--improve none`, half of it otherwise).
    pub construct_time: Option<f64>,
    /// `--lns-width K`: the beam width of a large-neighbourhood rebuild (default 128).
    pub lns_width: Option<usize>,
    /// `--lns-iterations N`: rebuilds in all (default: until the time is up).
    pub lns_iterations: Option<u64>,
    /// `--lns-assign SHARE`: the share of LNS repairs made by an exact assignment of
    /// non-adjacent cells, the rest by window rebuilds (default 0.5).
    pub lns_assign: Option<f64>,
    /// `--lookahead`: the beam ranks children by matched seams less the colour-supply
    /// penalty ([`crate::heuristic::beam`]).
    pub lookahead: bool,
    /// `--start FILE`: improve this complete board instead of constructing one (its own
    /// file, in any board format tilekit reads).
    pub start: Option<PathBuf>,
}

impl HeuristicFlags {
    /// The flags given, by name (for refusing them on other routes).
    pub fn given(&self) -> Vec<&'static str> {
        let mut g = Vec::new();
        let mut add = |set: bool, name| {
            if set {
                g.push(name);
            }
        };
        add(self.construct.is_some(), "--construct");
        add(self.region.is_some(), "--region");
        add(self.improve.is_some(), "--improve");
        add(self.seed.is_some(), "--seed");
        add(!self.fixes.is_empty(), "--fix");
        add(self.backtrack_time.is_some(), "--backtrack-time");
        add(self.ta_k.is_some(), "--ta-k");
        add(self.ta_n.is_some(), "--ta-n");
        add(self.clique_window.is_some(), "--clique-window");
        add(self.clique_n.is_some(), "--clique-n");
        add(self.tsr_first, "--tsr-first");
        add(self.patience.is_some(), "--patience");
        add(self.beam_width.is_some(), "--beam-width");
        add(self.scan.is_some(), "--scan");
        add(self.breaks.is_some(), "--breaks");
        add(self.node_cap.is_some(), "--node-cap");
        add(self.restarts.is_some(), "--restarts");
        add(self.construct_time.is_some(), "--construct-time");
        add(self.lns_width.is_some(), "--lns-width");
        add(self.lns_iterations.is_some(), "--lns-iterations");
        add(self.lns_assign.is_some(), "--lns-assign");
        add(self.start.is_some(), "--start");
        add(self.lookahead, "--lookahead");
        g
    }
}

/// The board of `--start FILE`, checked before any search sees it: complete, every piece
/// once, the rim rule kept, and every `--fix` piece where the flag puts it.
fn given_board(p: &EdgePuzzle, path: &std::path::Path, fixed: &Board) -> Result<Built, Error> {
    let text = super::read_text(path, "start board")?;
    let board = crate::puzzle::edge::parse_any_board(&text, &path.display().to_string(), p)?;
    let sc = crate::puzzle::edge::score(p, &board);
    if sc.empty > 0 || sc.rim_faults > 0 || sc.repeats > 0 {
        return Err(Error::Usage(format!(
            "{}: --start needs a complete legal board; this one has {} empty cell(s), {} rim fault(s) and {} repeated piece(s)",
            path.display(),
            sc.empty,
            sc.rim_faults,
            sc.repeats
        )));
    }
    for (cell, want) in fixed.cells.iter().enumerate() {
        if want.is_some() && board.cells[cell] != *want {
            let (id, rot) = want.expect("checked");
            return Err(Error::Usage(format!(
                "{}: --fix {}@{},{},{} is not on the start board (its cell holds {})",
                path.display(),
                id,
                cell / p.cols(),
                cell % p.cols(),
                rot.turns(),
                board.cells[cell].map_or("nothing".to_string(), |(i, r)| format!(
                    "piece {i} turned {}",
                    r.turns()
                ))
            )));
        }
    }
    Ok(Built {
        board,
        regions_solved: 0,
        regions: 0,
        perfect_regions: 0,
        backtracks: 0,
        exhausted: false,
    })
}

/// The board holding the fixed pieces, checked: each piece exists and is fixed once, each cell
/// is on the board and fixed once, and the rotation fits the cell (grey on the rim only).
fn fixed_board(p: &EdgePuzzle, fixes: &[Fix]) -> Result<Board, Error> {
    let mut board = Board::empty(p.rows(), p.cols());
    let mut used = std::collections::BTreeSet::new();
    for f in fixes {
        let what = format!("--fix {}@{},{},{}", f.piece, f.row, f.col, f.rot);
        if p.piece(f.piece).is_none() {
            return Err(Error::Usage(format!(
                "{what}: the puzzle has no piece {} (pieces are numbered 1 to {})",
                f.piece,
                p.pieces().len()
            )));
        }
        if f.row >= p.rows() || f.col >= p.cols() {
            return Err(Error::Usage(format!(
                "{what}: the cell is off the {}×{} board (rows and columns count from 0)",
                p.rows(),
                p.cols()
            )));
        }
        if !used.insert(f.piece) {
            return Err(Error::Usage(format!(
                "{what}: piece {} is fixed twice",
                f.piece
            )));
        }
        let cell = f.row * p.cols() + f.col;
        if board.cells[cell].is_some() {
            return Err(Error::Usage(format!("{what}: the cell is fixed twice")));
        }
        let rot = Rotation::new(f.rot).expect("checked when parsed");
        if !p.fitting_rotations(f.piece, f.row, f.col).contains(&rot) {
            return Err(Error::Usage(format!(
                "{what}: in that rotation the piece breaks the rim rule there (grey must face out, and only out)"
            )));
        }
        board.cells[cell] = Some((f.piece, rot));
    }
    Ok(board)
}

/// A heuristic run's failure as the route reports it.
fn heuristic_error(e: HeuristicError) -> Error {
    match e {
        HeuristicError::Region(RegionError::Model(m)) => Error::failure(m),
        HeuristicError::Region(r) => Error::Usage(r.to_string()),
        HeuristicError::Solve(s) => s.into(),
        HeuristicError::BadAnswer { .. } => Error::Failure(e.to_string()),
    }
}

/// Run the heuristic on `p` with the MILP solver `solver_name` of the registry.
pub fn solve(
    p: &EdgePuzzle,
    flags: &HeuristicFlags,
    solver_name: &str,
    registry: &Registry,
    limits: &crate::solve::Limits,
    progress: Progress<'_>,
) -> Result<Report, Error> {
    let started = Instant::now();
    let solver = registry.milp(solver_name)?;
    let start = fixed_board(p, &flags.fixes)?;
    let frozen: Vec<bool> = start.cells.iter().map(Option::is_some).collect();
    let construct = flags.construct.unwrap_or_default();
    let searching = matches!(construct, Construct::Beam | Construct::Dfs);
    // The search constructors' boards are past what the paper's local search improves, and
    // the LNS rarely improves one of a 60-s run (README): they get the whole time by default,
    // and `--improve lns` is asked for. A `--start` board is there to be improved.
    let improve = flags.improve.unwrap_or(if flags.start.is_some() {
        Improve::Lns
    } else if searching {
        Improve::None
    } else {
        Improve::Ls
    });
    // A flag of the construction beside `--start`, which gives the first board instead.
    let with_start = |flag: &str| -> Result<(), Error> {
        match &flags.start {
            Some(path) => Err(Error::Usage(format!(
                "{flag} builds a first board, and --start {} gives one: use one or the other",
                path.display()
            ))),
            None => Ok(()),
        }
    };
    if flags.construct.is_some() {
        with_start("--construct")?;
    }
    for (given, flag, applies) in [
        (
            flags.beam_width.is_some(),
            "--beam-width",
            construct == Construct::Beam,
        ),
        (
            flags.breaks.is_some(),
            "--breaks",
            construct == Construct::Dfs,
        ),
        (
            flags.node_cap.is_some(),
            "--node-cap",
            construct == Construct::Dfs,
        ),
        (
            flags.restarts.is_some(),
            "--restarts",
            construct == Construct::Dfs,
        ),
        (flags.scan.is_some(), "--scan", searching),
        (flags.lookahead, "--lookahead", searching),
        (
            flags.construct_time.is_some(),
            "--construct-time",
            searching,
        ),
        (flags.region.is_some(), "--region", !searching),
        (
            flags.backtrack_time.is_some(),
            "--backtrack-time",
            construct == Construct::Backtrack,
        ),
    ] {
        if given {
            with_start(flag)?;
        }
        if given && !applies {
            return Err(Error::Usage(format!(
                "{flag} does not apply to --construct {}",
                construct.name()
            )));
        }
    }
    if let Some(share) = flags.lns_assign
        && !(0.0..=1.0).contains(&share)
    {
        return Err(Error::Usage(format!(
            "--lns-assign is the share of repairs made by assignment, from 0 to 1, not {share}"
        )));
    }
    for (given, flag) in [
        (flags.lns_width.is_some(), "--lns-width"),
        (flags.lns_iterations.is_some(), "--lns-iterations"),
        (flags.lns_assign.is_some(), "--lns-assign"),
    ] {
        if given && improve != Improve::Lns {
            return Err(Error::Usage(format!("{flag} belongs to --improve lns")));
        }
    }
    let shape = flags.region.unwrap_or(RegionShape::ROW);
    let mut ctx = Ctx {
        puzzle: p,
        milp: &*solver,
        rng: Rng::new(flags.seed.unwrap_or(1)),
        deadline: started + limits.time,
        threads: limits.threads,
        progress,
        frozen,
    };
    let mut trace: Vec<TraceRow> = Vec::new();
    let mut search_detail = String::new();
    let mut best_written = 0usize;
    let mut keep = |board: &Board, score: usize| -> Result<(), Error> {
        if let Some(path) = &flags.best_so_far
            && (score > best_written || best_written == 0)
        {
            super::output::write_to(Some(path), board.to_text_with_colours(p).as_bytes())?;
            best_written = score;
        }
        super::notice(
            progress,
            &format!(
                "{score} of {} matched after {:.1} s",
                p.max_score(),
                started.elapsed().as_secs_f64()
            ),
        );
        Ok(())
    };
    let built = match construct {
        _ if flags.start.is_some() => {
            let path = flags.start.as_deref().expect("checked");
            Ok(given_board(p, path, &start)?)
        }
        Construct::Greedy => construct::greedy(&mut ctx, shape, start),
        Construct::Backtrack => {
            let limit = match flags.backtrack_time {
                Some(t) => super::seconds("--backtrack-time", t)?,
                None => limits.time / 2,
            };
            construct::backtracking(&mut ctx, shape, limit, start)
        }
        Construct::Random => Ok(construct::random(&mut ctx, start)),
        Construct::Beam | Construct::Dfs => {
            let budget = match flags.construct_time {
                Some(t) => super::seconds("--construct-time", t)?,
                None if improve == Improve::None => limits.time,
                None => limits.time / 2,
            };
            let (built, detail, steps) = search_construct(
                p,
                flags,
                construct,
                start,
                (started, (started + budget).min(ctx.deadline)),
                limits.threads.max(1) as usize,
                &mut |b, s| keep(b, s),
            )?;
            search_detail = detail;
            // Each new best board of the search, for the score-over-time traces.
            trace.extend(steps.into_iter().map(|(seconds, matched)| TraceRow {
                seconds,
                matched,
                step: construct.name().to_string(),
            }));
            Ok(built)
        }
    }
    .map_err(heuristic_error)?;
    // What the report calls the first board's origin.
    let origin = if flags.start.is_some() {
        "start"
    } else {
        construct.name()
    };
    let mut board = built.board.clone();
    let constructed = matched(p, &board);
    // The search constructors traced their own improvements; the others get one row.
    if !searching || trace.is_empty() {
        trace.push(TraceRow {
            seconds: started.elapsed().as_secs_f64(),
            matched: constructed,
            step: origin.to_string(),
        });
    }
    keep(&board, constructed)?;
    if let Some(t) = flags.ls_time {
        ctx.deadline = ctx
            .deadline
            .min(Instant::now() + super::seconds("the local search's budget", t)?);
    }
    if improve == Improve::Ls {
        let mut hoods =
            crate::heuristic::local::paper_neighbourhoods(&crate::heuristic::local::LsParams {
                ta_k: flags.ta_k,
                ta_n: flags.ta_n,
                clique_window: flags.clique_window,
                clique_n: flags.clique_n,
                tsr_first: flags.tsr_first,
            });
        let mut failed: Option<Error> = None;
        crate::heuristic::local::local_search(
            &mut ctx,
            &mut board,
            &mut hoods,
            flags.patience.unwrap_or(1),
            started,
            &mut trace,
            &mut |b, s| {
                if failed.is_none()
                    && let Err(e) = keep(b, s)
                {
                    failed = Some(e);
                }
            },
        )
        .map_err(heuristic_error)?;
        if let Some(e) = failed {
            return Err(e);
        }
    }
    if improve == Improve::Lns {
        let core = Core::new(p, &fixed_board(p, &flags.fixes)?).map_err(Error::Usage)?;
        let cells = Core::indices(&board);
        let params = crate::heuristic::lns::LnsParams {
            width: flags.lns_width.unwrap_or(128).max(1),
            iterations: flags.lns_iterations,
            assign_share: flags.lns_assign.unwrap_or(0.5),
            seed: flags.seed.unwrap_or(1),
            threads: limits.threads.max(1) as usize,
            ..Default::default()
        };
        let failed = std::sync::Mutex::new(None::<Error>);
        let steps = std::sync::Mutex::new(Vec::new());
        let keep_m = std::sync::Mutex::new(&mut keep);
        let res =
            crate::heuristic::lns::lns(&core, &cells, &params, Some(ctx.deadline), &|m, c| {
                steps
                    .lock()
                    .expect("poisoned")
                    .push((started.elapsed().as_secs_f64(), m));
                let mut f = failed.lock().expect("poisoned");
                if f.is_none()
                    && let Err(e) = (keep_m.lock().expect("poisoned"))(&core.board(c), m)
                {
                    *f = Some(e);
                }
            });
        if let Some(e) = failed.into_inner().expect("poisoned") {
            return Err(e);
        }
        trace.extend(steps.into_inner().expect("poisoned").into_iter().map(
            |(seconds, matched)| TraceRow {
                seconds,
                matched,
                step: "lns".to_string(),
            },
        ));
        board = core.board(&res.cells);
        search_detail.push_str(&format!(
            "; lns: {} repairs ({} by assignment, {} of them gaining; {} windows by the exact search, {} of them finished), {} kept, {} new bests",
            res.iterations,
            res.assignments.0,
            res.assignments.1,
            res.exact.0,
            res.exact.1,
            res.accepted,
            res.improved
        ));
    }
    // The independent checker judges the board; the heuristic's own count is only claimed.
    let mine = matched(p, &board);
    let claimed = (p.max_score() - mine) as f64;
    let verdict = BoardChecker.check(p, &board, Some(claimed));
    let mut rep = Report::new(
        FamilyName::Edge,
        "heuristic",
        solver.name(),
        Details::Edge {
            variant: if flags.start.is_some() {
                origin.to_string()
            } else if searching {
                format!(
                    "{}_{}",
                    construct.name(),
                    flags
                        .scan
                        .unwrap_or(ScanOrder::Comb(usize::MAX))
                        .label(p.rows())
                )
            } else {
                format!("{}_{}", construct.name(), shape.label(p.cols()))
            },
            matched: verdict.valid.then_some(mine),
            max: p.max_score(),
            size: [p.rows() * p.cols(), built.regions, built.regions_solved],
        },
    );
    rep.seconds = started.elapsed().as_secs_f64();
    rep.verified = verdict.valid;
    rep.errors = verdict.errors;
    if verdict.valid {
        rep.status = Status::Solved;
        rep.objective = verdict.objective;
        // No seam can be better than matched: 0 unmatched is the only bound known, and a
        // perfect board reaches it.
        rep.bound = Some(0.0);
        rep.optimal = mine == p.max_score();
        rep.solution = Some(Solution::Board(board));
    } else {
        rep.status = Status::Unverified;
    }
    rep.solver_status = format!(
        "{} {}: {constructed} matched; {} regions of {} by the MILP{}",
        origin,
        if flags.start.is_some() {
            "board"
        } else {
            "construction"
        },
        built.regions_solved,
        built.regions,
        if construct == Construct::Backtrack {
            format!(
                ", {} perfect, {} backtracks{}",
                built.perfect_regions,
                built.backtracks,
                if built.exhausted {
                    ", every filling of region 1 tried"
                } else {
                    ""
                }
            )
        } else {
            search_detail
        }
    );
    rep.heuristic = Some(HeuristicStats {
        construct: origin.to_string(),
        region: shape.label(p.cols()),
        constructed,
        seed: flags.seed.unwrap_or(1),
        trace,
    });
    Ok(rep)
}

/// A search construction: the board, a line for the report, and (seconds, matched) at each
/// new best board.
type Searched = (Built, String, Vec<(f64, usize)>);

/// Beam or DFS construction on the fast core; the board and a line for the report. Every
/// new best board goes to `keep` (the anytime `-o` file and the progress line).
fn search_construct(
    p: &EdgePuzzle,
    flags: &HeuristicFlags,
    construct: Construct,
    start: Board,
    (started, deadline): (Instant, Instant),
    threads: usize,
    keep: &mut (dyn FnMut(&Board, usize) -> Result<(), Error> + Send),
) -> Result<Searched, Error> {
    let steps = std::sync::Mutex::new(Vec::new());
    let step = |m: usize| {
        steps
            .lock()
            .expect("poisoned")
            .push((started.elapsed().as_secs_f64(), m));
    };
    let mut core = Core::new(p, &start).map_err(Error::Usage)?;
    // The DFS's finishing beam uses it too.
    core.set_lookahead(flags.lookahead);
    let core = core;
    let order = flags.scan.unwrap_or(ScanOrder::Comb(usize::MAX));
    let seed = flags.seed.unwrap_or(1);
    let label = order.label(p.rows());
    let (cells, detail) = if construct == Construct::Beam {
        let mut failed: Option<Error> = None;
        let mut passes = Vec::new();
        let mut best = 0usize;
        let mut on_pass = |r: &crate::heuristic::beam::BeamResult, secs: f64| {
            passes.push(format!("{}→{} in {secs:.1} s", r.width, r.matched));
            if r.matched > best && failed.is_none() {
                best = r.matched;
                step(r.matched);
                if let Err(e) = keep(&core.board(&r.cells), r.matched) {
                    failed = Some(e);
                }
            }
        };
        let res = match flags.beam_width {
            Some(w) => {
                let t0 = Instant::now();
                let r =
                    crate::heuristic::beam::beam(&core, order, w, seed, threads, Some(deadline));
                on_pass(&r, t0.elapsed().as_secs_f64());
                r
            }
            None => crate::heuristic::beam::beam_anytime(
                &core,
                order,
                1024,
                seed,
                threads,
                deadline,
                &mut on_pass,
            ),
        };
        if let Some(e) = failed {
            return Err(e);
        }
        let detail = format!(
            "; beam over {label}, widths {}{}",
            passes.join(", "),
            if res.complete {
                ""
            } else {
                " (stopped by the time limit, finished greedily)"
            }
        );
        (res.cells, detail)
    } else {
        let n = p.rows() * p.cols();
        let spec = flags
            .breaks
            .clone()
            .unwrap_or_else(|| BreakSpec::default_for(n));
        // Without --breaks, every other worker tries a third more breaks than the default.
        let alt = match (&flags.breaks, &spec) {
            (None, BreakSpec::Total(t)) => Some(BreakSpec::Total(t + t.div_ceil(3)).table(n)),
            _ => None,
        };
        let params = DfsParams {
            order,
            breaks: spec.table(n),
            alt_breaks: alt,
            node_cap: flags.node_cap.unwrap_or(20_000_000).max(1),
            restarts: flags.restarts,
            seed,
            threads,
        };
        let failed = std::sync::Mutex::new(None::<Error>);
        let keep = std::sync::Mutex::new(keep);
        let res = crate::heuristic::dfs::dfs(&core, &params, Some(deadline), &|m, cells| {
            step(m);
            let mut f = failed.lock().expect("poisoned");
            if f.is_none()
                && let Err(e) = (keep.lock().expect("poisoned"))(&core.board(cells), m)
            {
                *f = Some(e);
            }
        });
        if let Some(e) = failed.into_inner().expect("poisoned") {
            return Err(e);
        }
        let detail = format!(
            "; dfs over {label}, budget {} breaks{}, {} restarts, {} nodes, deepest {} of {n} cells{}",
            params.breaks.0.last().copied().unwrap_or(0),
            match (&params.alt_breaks, threads > 1) {
                (Some(a), true) => format!(
                    " ({} on every other worker; the best board came from a {} one)",
                    a.0.last().copied().unwrap_or(0),
                    if res.budget == 0 { "default" } else { "second" }
                ),
                _ => String::new(),
            },
            res.restarts,
            res.nodes,
            res.depth,
            if res.searched_complete {
                " (completed by the search)"
            } else {
                ", the rest by a beam"
            }
        );
        (res.cells, detail)
    };
    Ok((
        Built {
            board: core.board(&cells),
            regions_solved: 0,
            regions: 0,
            perfect_regions: 0,
            backtracks: 0,
            exhausted: false,
        },
        detail,
        steps.into_inner().expect("poisoned"),
    ))
}
