//! `solve --via heuristic` for edge-matching puzzles: Salassa et al.'s construction (greedy or
//! backtracking region MILPs, or a random board) and their multi-neighbourhood local search
//! ([`crate::heuristic`]), through any MILP solver of the registry. Anytime: the best board so
//! far is kept in `-o` (written beside it and renamed), progress says the score, the elapsed
//! time and the step, and the final board is judged by the independent [`BoardChecker`]
//! before it is reported.

use super::report::HeuristicStats;
use super::{Details, Error, FamilyName, Progress, Report, Solution, Status};
use crate::formulate::edge_region::RegionError;
use crate::heuristic::construct::{self, RegionShape};
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
}

impl Construct {
    /// The name `--construct` takes.
    pub fn name(self) -> &'static str {
        match self {
            Construct::Greedy => "greedy",
            Construct::Backtrack => "backtrack",
            Construct::Random => "random",
        }
    }
}

/// What follows the construction (`--improve`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Improve {
    /// The multi-neighbourhood local search.
    #[default]
    Ls,
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
        g
    }
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
        Construct::Greedy => construct::greedy(&mut ctx, shape, start),
        Construct::Backtrack => {
            let limit = match flags.backtrack_time {
                Some(t) => super::seconds("--backtrack-time", t)?,
                None => limits.time / 2,
            };
            construct::backtracking(&mut ctx, shape, limit, start)
        }
        Construct::Random => Ok(construct::random(&mut ctx, start)),
    }
    .map_err(heuristic_error)?;
    let mut board = built.board.clone();
    let constructed = matched(p, &board);
    trace.push(TraceRow {
        seconds: started.elapsed().as_secs_f64(),
        matched: constructed,
        step: construct.name().to_string(),
    });
    keep(&board, constructed)?;
    let improve = flags.improve.unwrap_or_default();
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
    // The independent checker judges the board; the heuristic's own count is only claimed.
    let mine = matched(p, &board);
    let claimed = (p.max_score() - mine) as f64;
    let verdict = BoardChecker.check(p, &board, Some(claimed));
    let mut rep = Report::new(
        FamilyName::Edge,
        "heuristic",
        solver.name(),
        Details::Edge {
            variant: format!("{}_{}", construct.name(), shape.label(p.cols())),
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
        "{} construction: {constructed} matched; {} regions of {} by the MILP{}",
        construct.name(),
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
            String::new()
        }
    );
    rep.heuristic = Some(HeuristicStats {
        construct: construct.name().to_string(),
        region: shape.label(p.cols()),
        constructed,
        seed: flags.seed.unwrap_or(1),
        trace,
    });
    Ok(rep)
}
