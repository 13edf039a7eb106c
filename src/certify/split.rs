//! Cube-and-conquer certificates: the formula F for L − 2 is split into
//! leaves F ∧ c, one per cube c of a binary decision tree over the blank's first and last
//! moves; every leaf gets its own DRAT proof, checked by the independent checker.
//!
//! **Why the leaves prove F unsatisfiable.** The cubes are the leaves of a complete binary
//! decision tree, but the certificate does not rely on how they were made: [`check_covering`]
//! checks, from the cubes' DIMACS literals alone, that
//! 1. no cube repeats a variable (so a uniformly random assignment satisfies cube c with
//!    probability exactly 2^−|c|),
//! 2. every two cubes clash (one has a literal whose negation the other has), so no
//!    assignment satisfies two cubes: these events are disjoint,
//! 3. Σ 2^−|c| = 1.
//!
//! Disjoint events whose probabilities sum to 1 leave no assignment out (the space is finite
//! and uniform), so every assignment satisfies some cube c; if every F ∧ c is unsatisfiable,
//! no assignment satisfies F. The check runs on the cubes of the leaves whose proofs the
//! checker *verified*: a leaf that is missing, unsolved or rejected leaves the sum below 1,
//! and the certificate fails. Each leaf file is also compared byte for byte with the base
//! file plus the cube's unit clauses ([`check_leaf_file`]), so the checker's verdict is about
//! F ∧ c and not some other formula.
//!
//! Leaves run on `jobs` worker threads (each runs the producer, then the checker, as
//! external processes, or varisat in-thread); all share one wall-clock deadline: processes
//! get what is left of it, no leaf starts after it, but a varisat leaf that has started
//! cannot be stopped and runs to its end.

use super::{CertifyError, CheckVerdict, CheckerSpec, Producer, ProofFormat, check_drat, io_err};
use crate::formulate::sliding_sat::SlidingSat;
use crate::model::answer::SatOutcome;
use crate::model::cnf::{Cnf, Lit};
use crate::puzzle::sliding::{Goal, Move, SlidingPuzzle};
use crate::solve::Limits;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::Instant;

/// One cube: DIMACS literals in decision order, and what they say in words.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Cube {
    /// The literals (DIMACS numbering of the base file).
    pub lits: Vec<i64>,
    /// E.g. "move 1 = U, move 40 ≠ D".
    pub description: String,
}

/// The steps split on, in order: 0, T − 1, 1, T − 2, … (`depth` of them, distinct, < T).
fn split_steps(horizon: usize, depth: usize) -> Vec<usize> {
    let mut steps = Vec::new();
    let (mut lo, mut hi) = (0usize, horizon);
    while steps.len() < depth && lo < hi {
        steps.push(lo);
        lo += 1;
        if steps.len() < depth && lo < hi {
            hi -= 1;
            steps.push(hi);
        }
    }
    steps
}

/// The cubes of a decision tree over the blank's move at the first and last `depth` steps
/// of `enc` (steps 0, T − 1, 1, T − 2, …). At each step the candidate directions are those
/// the blank can take there (from its start cell at step 0, into its goal cell at step
/// T − 1, all four elsewhere); k candidates make a chain of k − 1 decisions
/// (`m₁`, `¬m₁ ∧ m₂`, …, `¬m₁ ∧ … ∧ ¬m_{k−1}`), and the levels multiply. Depth 0 gives one
/// empty cube (no split).
pub fn move_cubes(enc: &SlidingSat, puzzle: &SlidingPuzzle, goal: Goal, depth: usize) -> Vec<Cube> {
    let t_max = enc.horizon();
    let goal_board = SlidingPuzzle::solved(puzzle.rows(), puzzle.cols(), goal);
    let mut cubes = vec![(Vec::<i64>::new(), Vec::<String>::new())];
    for s in split_steps(t_max, depth) {
        let legal: Vec<Move> = Move::ALL
            .into_iter()
            .filter(|&m| {
                if s == 0 {
                    puzzle.target(m).is_some()
                } else if s + 1 == t_max {
                    // The last move ends on the goal's blank cell: it came from the opposite side.
                    goal_board.target(m.inverse()).is_some()
                } else {
                    true
                }
            })
            .collect();
        if legal.len() < 2 {
            continue;
        }
        let var = |m: Move| {
            enc.move_var(s, m)
                .expect("split steps are below the horizon")
                .index() as i64
                + 1
        };
        let mut next = Vec::new();
        for (lits, words) in &cubes {
            for k in 0..legal.len() {
                let (mut l, mut w) = (lits.clone(), words.clone());
                for &m in &legal[..k] {
                    l.push(-var(m));
                }
                if k + 1 < legal.len() {
                    l.push(var(legal[k]));
                    w.push(format!("move {} = {}", s + 1, legal[k].letter()));
                } else {
                    let not: Vec<String> =
                        legal[..k].iter().map(|m| m.letter().to_string()).collect();
                    w.push(format!("move {} ∉ {{{}}}", s + 1, not.join(",")));
                }
                next.push((l, w));
            }
        }
        cubes = next;
    }
    cubes
        .into_iter()
        .map(|(lits, words)| Cube {
            lits,
            description: if words.is_empty() {
                "no split".into()
            } else {
                words.join(", ")
            },
        })
        .collect()
}

/// Checker side: do `cubes` cover every assignment? (No repeated variable within a cube,
/// every two cubes clash, Σ 2^−|c| = 1; see the module docs.) Shares nothing with
/// [`move_cubes`]: it sees DIMACS literals only.
pub fn check_covering(cubes: &[&[i64]]) -> Result<(), String> {
    if cubes.is_empty() {
        return Err("no leaf".into());
    }
    const MAX: usize = 100;
    for (i, c) in cubes.iter().enumerate() {
        if c.len() > MAX {
            return Err(format!("cube {i} has {} literals (at most {MAX})", c.len()));
        }
        let mut vars: Vec<u64> = c.iter().map(|l| l.unsigned_abs()).collect();
        vars.sort_unstable();
        if vars.first() == Some(&0) {
            return Err(format!("cube {i} contains 0, which is not a literal"));
        }
        if vars.windows(2).any(|w| w[0] == w[1]) {
            return Err(format!("cube {i} repeats a variable"));
        }
    }
    for i in 0..cubes.len() {
        for j in i + 1..cubes.len() {
            if !cubes[i].iter().any(|l| cubes[j].contains(&-l)) {
                return Err(format!(
                    "cubes {i} and {j} do not clash: both can hold at once"
                ));
            }
        }
    }
    // Σ 2^(MAX − |c|) = 2^MAX, exactly, in base-2 big integers (little-endian u64 words).
    let words = MAX / 64 + 2;
    let mut sum = vec![0u64; words];
    for c in cubes {
        let bit = MAX - c.len();
        let mut k = bit / 64;
        let mut carry = 1u64 << (bit % 64);
        while carry != 0 && k < words {
            let (v, o) = sum[k].overflowing_add(carry);
            sum[k] = v;
            carry = o as u64;
            k += 1;
        }
    }
    let mut want = vec![0u64; words];
    want[MAX / 64] = 1u64 << (MAX % 64);
    if sum == want {
        Ok(())
    } else {
        Err(
            "the cubes' weights 2^-|c| do not sum to 1: some assignments are covered by no leaf"
                .into(),
        )
    }
}

/// The leaf file: the base file with its `p cnf V C` header raised to `C + |cube|` and the
/// cube's literals appended as unit clauses.
pub fn leaf_bytes(base: &[u8], cube: &[i64]) -> Result<Vec<u8>, String> {
    let (before, (vars, clauses), after) = split_header(base)?;
    let mut out = Vec::with_capacity(base.len() + 16 * cube.len() + 32);
    out.extend_from_slice(before);
    out.extend_from_slice(format!("p cnf {vars} {}\n", clauses + cube.len()).as_bytes());
    out.extend_from_slice(after);
    if !after.is_empty() && !after.ends_with(b"\n") {
        out.push(b'\n');
    }
    for l in cube {
        out.extend_from_slice(format!("{l} 0\n").as_bytes());
    }
    Ok(out)
}

/// A DIMACS file cut at its header: bytes before the header line, (V, C), bytes after it.
type Header<'a> = (&'a [u8], (usize, usize), &'a [u8]);

/// Find the `p cnf V C` line of `text`.
fn split_header(text: &[u8]) -> Result<Header<'_>, String> {
    let mut start = 0;
    while start < text.len() {
        let end = text[start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(text.len(), |p| start + p + 1);
        let line = std::str::from_utf8(&text[start..end]).unwrap_or("");
        if line.starts_with("p ") {
            let f: Vec<&str> = line.split_whitespace().collect();
            let num = |s: Option<&&str>| s.and_then(|x| x.parse::<usize>().ok());
            return match (f.get(1), num(f.get(2)), num(f.get(3))) {
                (Some(&"cnf"), Some(v), Some(c)) => Ok((&text[..start], (v, c), &text[end..])),
                _ => Err(format!("bad header line {:?}", line.trim())),
            };
        }
        start = end;
    }
    Err("no `p cnf` header".into())
}

/// Checker side: is the file at `leaf` exactly the file at `base` plus the cube's units?
pub fn check_leaf_file(base: &Path, leaf: &Path, cube: &[i64]) -> Result<(), String> {
    let read = |p: &Path| std::fs::read(p).map_err(|e| format!("{}: {e}", p.display()));
    let want = leaf_bytes(&read(base)?, cube)?;
    if read(leaf)? == want {
        Ok(())
    } else {
        Err(format!(
            "{} is not the base formula plus the cube's unit clauses",
            leaf.display()
        ))
    }
}

/// What the producer said about one leaf.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LeafOutcome {
    /// Refuted, with a proof.
    Unsat,
    /// Satisfiable: a plan of exactly L − 2 moves exists.
    Sat,
    /// No answer within the time left.
    Unknown,
    /// Not run (the deadline passed, or another leaf was satisfiable).
    NotRun,
}

/// One leaf of a split certificate, as reported in JSON.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct LeafReport {
    /// The cube (DIMACS literals of the base formula).
    pub cube: Vec<i64>,
    /// The cube in words.
    pub description: String,
    /// The producer's answer.
    pub outcome: LeafOutcome,
    /// Producer seconds.
    pub solve_seconds: f64,
    /// The proof's size in bytes (0 when none).
    pub proof_bytes: u64,
    /// The proof's encoding, detected from its first bytes (`None` when none).
    pub proof_format: Option<ProofFormat>,
    /// The checker's verdict on this leaf (`None`: not checked).
    pub checker_verdict: Option<CheckVerdict>,
    /// Checker seconds.
    pub checker_seconds: f64,
    /// The checker's last output lines, or why the leaf file was refused.
    pub checker_output: String,
    /// For a satisfiable leaf: the plan of exactly L − 2 moves its model encodes, replayed by
    /// the independent verifier.
    pub plan: Option<String>,
}

/// The split part of a certificate (`certificate.split` in JSON).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct SplitReport {
    /// Steps split on (`CertifyOptions::split`).
    pub depth: usize,
    /// Worker threads.
    pub jobs: usize,
    /// Every leaf, in tree order.
    pub leaves: Vec<LeafReport>,
    /// `Ok`: the verified leaves' cubes cover every assignment; else why not.
    pub covering: String,
    /// True when the verified leaves cover every assignment ([`assess`]).
    pub covered: bool,
    /// Wall-clock seconds for all leaves.
    pub wall_seconds: f64,
}

/// Checker side: the leaves whose proofs were verified, and whether their cubes cover every
/// assignment. A missing, unsolved or rejected leaf makes this fail.
pub fn assess(leaves: &[LeafReport]) -> Result<(), String> {
    let verified: Vec<&[i64]> = leaves
        .iter()
        .filter(|l| l.checker_verdict == Some(CheckVerdict::Verified))
        .map(|l| l.cube.as_slice())
        .collect();
    check_covering(&verified).map_err(|e| {
        format!(
            "{} of {} leaves verified; {e}",
            verified.len(),
            leaves.len()
        )
    })
}

/// A satisfiable leaf's model, decoded and replayed: the plan, or why it is none.
pub type Replay<'a> = dyn Fn(&[bool]) -> Result<String, CertifyError> + Sync + 'a;

/// Run every leaf of `cubes` on `jobs` threads: write `base_path` + cube, refute it with
/// `producer`, check the proof with `checker` (after [`check_leaf_file`]); a satisfiable
/// leaf's model goes through `replay`. Stops starting leaves at `deadline` or after a
/// satisfiable leaf.
#[allow(
    clippy::too_many_arguments,
    reason = "one certificate step needs the whole run context; a context struct is planned"
)]
pub fn run_leaves(
    base_cnf: &Cnf,
    base_path: &Path,
    cubes: &[Cube],
    producer: &Producer<'_>,
    checker: &CheckerSpec,
    replay: &Replay<'_>,
    dir: &Path,
    t: usize,
    jobs: usize,
    deadline: Instant,
) -> Result<Vec<LeafReport>, CertifyError> {
    let base = std::fs::read(base_path).map_err(io_err(base_path))?;
    // A SAT leaf (a shorter plan) or a failure ends the certificate: the leaves not yet
    // started are then not run.
    let stop = std::sync::atomic::AtomicBool::new(false);
    let results = crate::work::par_map(
        cubes.len(),
        jobs,
        |i| {
            let r = if stop.load(Ordering::SeqCst) || Instant::now() >= deadline {
                Ok(not_run(&cubes[i]))
            } else {
                run_leaf(
                    base_cnf, &base, base_path, &cubes[i], i, producer, checker, replay, dir, t,
                    deadline,
                )
            };
            if matches!(&r, Ok(l) if l.outcome == LeafOutcome::Sat) || r.is_err() {
                stop.store(true, Ordering::SeqCst);
            }
            r
        },
        |_| {},
    );
    results.into_iter().collect()
}

fn not_run(cube: &Cube) -> LeafReport {
    LeafReport {
        cube: cube.lits.clone(),
        description: cube.description.clone(),
        outcome: LeafOutcome::NotRun,
        solve_seconds: 0.0,
        proof_bytes: 0,
        proof_format: None,
        checker_verdict: None,
        checker_seconds: 0.0,
        checker_output: String::new(),
        plan: None,
    }
}

/// The files of leaf `i` of horizon `t`.
pub fn leaf_files(dir: &Path, t: usize, i: usize) -> (PathBuf, PathBuf) {
    (
        dir.join(format!("sliding_T{t}_leaf{i}.cnf")),
        dir.join(format!("sliding_T{t}_leaf{i}.drat")),
    )
}

#[allow(
    clippy::too_many_arguments,
    reason = "one certificate step needs the whole run context; a context struct is planned"
)]
fn run_leaf(
    base_cnf: &Cnf,
    base: &[u8],
    base_path: &Path,
    cube: &Cube,
    i: usize,
    producer: &Producer<'_>,
    checker: &CheckerSpec,
    replay: &Replay<'_>,
    dir: &Path,
    t: usize,
    deadline: Instant,
) -> Result<LeafReport, CertifyError> {
    let (cnf_path, proof_path) = leaf_files(dir, t, i);
    let bytes = leaf_bytes(base, &cube.lits).map_err(|e| CertifyError::Plan(e.to_string()))?;
    std::fs::write(&cnf_path, bytes).map_err(io_err(&cnf_path))?;
    let left = || deadline.saturating_duration_since(Instant::now());
    let started = Instant::now();
    // An embedded producer solves the leaf formula in memory, so it gets the base plus the
    // cube's units; an external one reads the leaf file and needs from the formula only its
    // variables, which the units do not change: no copy of the base per leaf then.
    let with_units;
    let cnf = if producer.solver.capabilities().embedded {
        let mut leaf = base_cnf.clone();
        for &l in &cube.lits {
            leaf.add_clause(&[Lit::from_dimacs(l).expect("cube literals are nonzero")]);
        }
        with_units = leaf;
        &with_units
    } else {
        base_cnf
    };
    let limits = Limits {
        time: producer.limits.time.min(left()),
        ..producer.limits
    };
    let outcome = producer
        .solver
        .solve_with_proof(cnf, &cnf_path, &proof_path, &limits)
        .map_err(|e| CertifyError::Plan(e.to_string()))?;
    let mut leaf = not_run(cube);
    leaf.solve_seconds = started.elapsed().as_secs_f64();
    leaf.outcome = match outcome {
        SatOutcome::Unsat => LeafOutcome::Unsat,
        SatOutcome::Sat(model) => {
            leaf.plan = Some(replay(&model)?);
            LeafOutcome::Sat
        }
        SatOutcome::Unknown => LeafOutcome::Unknown,
    };
    if leaf.outcome != LeafOutcome::Unsat {
        return Ok(leaf);
    }
    leaf.proof_bytes = std::fs::metadata(&proof_path)
        .map_err(io_err(&proof_path))?
        .len();
    leaf.proof_format = Some(super::detect_file_format(&proof_path)?);
    if let Err(why) = check_leaf_file(base_path, &cnf_path, &cube.lits) {
        leaf.checker_verdict = Some(CheckVerdict::Rejected);
        leaf.checker_output = why;
        return Ok(leaf);
    }
    let spec = CheckerSpec {
        time_limit: checker.time_limit.min(left()),
        ..checker.clone()
    };
    let run = check_drat(&spec, &cnf_path, &proof_path)?;
    leaf.checker_verdict = Some(run.verdict);
    leaf.checker_seconds = run.seconds;
    leaf.checker_output = run.tail;
    Ok(leaf)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formulate::sliding_sat::{Encoding, build_encoding};

    #[test]
    fn steps_alternate_from_both_ends() {
        assert_eq!(split_steps(10, 0), Vec::<usize>::new());
        assert_eq!(split_steps(10, 3), vec![0, 9, 1]);
        assert_eq!(split_steps(2, 5), vec![0, 1]);
        assert_eq!(split_steps(1, 2), vec![0]);
    }

    #[test]
    fn coverings_are_checked() {
        assert_eq!(check_covering(&[&[]]), Ok(()));
        assert_eq!(check_covering(&[&[1], &[-1, 2], &[-1, -2]]), Ok(()));
        // A leaf missing.
        assert!(check_covering(&[&[1], &[-1, 2]]).is_err());
        // Overlapping cubes (weights sum to 1, but 1 ∧ 2 is counted twice, ¬1 ∧ ¬2 never).
        assert!(check_covering(&[&[1], &[2], &[-1, -2, 3], &[-1, -2, -3]]).is_err());
        // A repeated variable, a zero.
        assert!(check_covering(&[&[1, 1], &[-1]]).is_err());
        assert!(check_covering(&[&[0], &[1]]).is_err());
        assert!(check_covering(&[]).is_err());
    }

    #[test]
    fn move_cubes_cover_and_name_the_moves() {
        // 3×3, blank in the centre (4 moves) and a corner goal (2 last moves).
        let p = SlidingPuzzle::new(3, 3, vec![1, 2, 3, 4, 0, 5, 6, 7, 8]).unwrap();
        let enc = build_encoding(&p, Goal::BlankFirst, 6, Encoding::Pruned);
        for (depth, leaves) in [(0, 1), (1, 4), (2, 8), (3, 32)] {
            let cubes = move_cubes(&enc, &p, Goal::BlankFirst, depth);
            assert_eq!(cubes.len(), leaves, "depth {depth}");
            let lits: Vec<&[i64]> = cubes.iter().map(|c| c.lits.as_slice()).collect();
            assert_eq!(check_covering(&lits), Ok(()), "depth {depth}");
        }
        let cubes = move_cubes(&enc, &p, Goal::BlankFirst, 2);
        assert_eq!(cubes[0].description, "move 1 = U, move 6 = U");
        assert_eq!(cubes[7].description, "move 1 ∉ {U,D,L}, move 6 ∉ {U}");
    }

    #[test]
    fn leaf_files_are_the_base_plus_units() {
        let base = b"c hello\np cnf 3 2\n1 2 0\n-3 0\n";
        let leaf = leaf_bytes(base, &[-1, 2]).unwrap();
        assert_eq!(
            String::from_utf8(leaf.clone()).unwrap(),
            "c hello\np cnf 3 4\n1 2 0\n-3 0\n-1 0\n2 0\n"
        );
        let dir = tempfile::tempdir().unwrap();
        let (b, l) = (dir.path().join("b.cnf"), dir.path().join("l.cnf"));
        std::fs::write(&b, base).unwrap();
        std::fs::write(&l, &leaf).unwrap();
        assert_eq!(check_leaf_file(&b, &l, &[-1, 2]), Ok(()));
        assert!(check_leaf_file(&b, &l, &[1, 2]).is_err());
        assert!(check_leaf_file(&b, &l, &[-1]).is_err());
        assert!(leaf_bytes(b"1 2 0\n", &[1]).is_err());
    }
}
