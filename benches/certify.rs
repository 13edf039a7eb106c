//! What an optimality certificate costs on the 15-puzzle short set
//! (`models/sliding/fifteen_small_by_length.txt`, blank-first): for each optimal length L, the
//! SAT run at L that finds the plan, then the certificate for it (the formula at L − 2 refuted
//! with a DRAT proof, the proof checked by `rate`), in each encoding.
//!
//! `cargo bench --bench certify`. Environment: `CERT_SOLVER` (cadical, kissat or varisat;
//! default cadical), `CERT_LENGTHS` (default 20,30,36,40,46,50), `CERT_ENCODINGS` (default
//! plain,pruned,strong), `CERT_LIMIT` (seconds per solver or checker run, default 120), and
//! `CERT_RUNS` (repetitions per cell, median reported; default 1). Prints a markdown table.
//! The first instance of each length is used.
//!
//! `CERT_MODE=split` times cube-and-conquer certificates of the stated optimum L (the plan's
//! length is taken from the file, as `--plan`/`--via native` would give it): for each depth in
//! `CERT_SPLITS` (default 0,1,2,3; 0 = one proof) and `CERT_JOBS` workers (default 2), the
//! whole `certify_plan` wall-clock, leaves, summed solver and checker seconds (medians of
//! `CERT_RUNS`), total proof size, and how many runs certified.
//!
//! `CERT_MODE=plan` certifies every instance whose optimum is in `CERT_LENGTHS` (default
//! 40 to 54), not only the first of each length, from its stated optimum as `--via native`
//! would (no SAT search): one row per instance and encoding (`CERT_ENCODINGS`, default
//! strong,pdb) with the refutation, proof, check and whole `certify_plan` wall-clock; the
//! solver and the checker each get `CERT_LIMIT` seconds. `CERT_IDS` keeps only those ids;
//! `CERT_DIRECTION=backward` refutes the formula running from the goal back to the start,
//! `both` races the two.
//!
//! `CERT_MODE=families` measures what each lower-bound clause family of the `pdb` encoding
//! pays: the formula at L − 2 for every instance with id in `CERT_IDS` (default 109,122,138),
//! in `strong`, with each family alone, tile-blank with linear conflicts, and all three
//! (`sliding_sat::build_bounded`; `CERT_VARIANTS` picks some by their 0-based index), each
//! way in `CERT_DIRECTIONS` (default forward,backward), solved without a proof
//! (`CERT_SOLVER`, `CERT_LIMIT` seconds): clauses and seconds.
//!
//! `CERT_MODE=search` instead times the whole horizon search with varisat (no proofs): rebuild
//! a formula per horizon (pruned, strong) against one open formula solved incrementally with
//! goal assumptions (`sliding_sat::build_open`, built to L + 2 steps).

use std::path::Path;
use std::time::{Duration, Instant};
use tilekit::certify::{self, CertifyOptions, Producer};
use tilekit::formulate::sliding_sat::{self, Encoding};
use tilekit::solve::Limits;
use tilekit::solve::registry::Registry;
use tilekit::{Goal, SatOutcome, SlidingPuzzle};

mod common;
use common::median;

fn env(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.to_string())
}

fn instance(length: usize) -> Option<SlidingPuzzle> {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("models/sliding/fifteen_small_by_length.txt");
    let text = std::fs::read_to_string(path).ok()?;
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            l.split_whitespace()
                .map(|x| x.parse::<usize>().unwrap())
                .collect::<Vec<_>>()
        })
        .find(|f| f[1] == length)
        .map(|f| SlidingPuzzle::new(4, 4, f[3..].iter().map(|&t| t as u16).collect()).unwrap())
}

/// One solver run on `cnf` (no proof) within `limit`: the outcome and its wall-clock seconds.
fn timed_solve(producer: &Producer<'_>, cnf: &tilekit::Cnf, limit: Duration) -> (SatOutcome, f64) {
    let t = Instant::now();
    let limits = Limits {
        time: limit,
        ..producer.limits
    };
    let outcome = producer.solver.solve(cnf, &limits).unwrap();
    (outcome, t.elapsed().as_secs_f64())
}

/// The SAT run at `l` (no proof): seconds and the plan's length, or `None` past the limit.
fn plan_at(
    p: &SlidingPuzzle,
    l: usize,
    e: Encoding,
    producer: &Producer<'_>,
    limit: Duration,
) -> Option<(f64, usize)> {
    let enc = sliding_sat::build_encoding(p, Goal::BlankFirst, l, e);
    let (outcome, secs) = timed_solve(producer, enc.cnf(), limit);
    match outcome {
        SatOutcome::Sat(model) => {
            let moves = enc.decode(&model).unwrap();
            assert!(p.replay(&moves).unwrap().is_goal(Goal::BlankFirst));
            Some((secs, moves.len()))
        }
        SatOutcome::Unsat => panic!("UNSAT at the stated optimum {l}"),
        SatOutcome::Unknown => None,
    }
}

fn lit(l: &tilekit::Lit) -> varisat::Lit {
    varisat::Lit::from_index(l.var().index(), !l.is_negated())
}

/// The optimum by one open formula and goal assumptions at T = bound, bound + 2, …
fn incremental(p: &SlidingPuzzle, max_h: usize) -> Option<usize> {
    let goal = Goal::BlankFirst;
    let open = sliding_sat::build_open(p, goal, max_h);
    let mut solver = varisat::Solver::new();
    for c in open.cnf().clauses() {
        let lits: Vec<varisat::Lit> = c.iter().map(lit).collect();
        varisat::ExtendFormula::add_clause(&mut solver, &lits);
    }
    let mut t = sliding_sat::lower_bound(p, goal);
    while t <= max_h {
        if let Some(g) = open.goal_literals(goal, t) {
            let a: Vec<varisat::Lit> = g.iter().map(lit).collect();
            solver.assume(&a);
            if solver.solve().unwrap() {
                return Some(t);
            }
        }
        t += 2;
    }
    None
}

fn search_mode() {
    println!("varisat, whole search from the lower bound to the optimum, seconds");
    println!("| L | rebuild, pruned | rebuild, strong | incremental (open formula to L + 2) |");
    println!("|---|---|---|---|");
    for l in env("CERT_LENGTHS", "20,24,30")
        .split(',')
        .map(|x| x.parse::<usize>().unwrap())
    {
        let Some(p) = instance(l) else { continue };
        let mut cells = Vec::new();
        for e in [Encoding::Pruned, Encoding::Strong] {
            let t = Instant::now();
            let plan = tilekit::search::sat_horizon::solve_optimal_with(
                &p,
                Goal::BlankFirst,
                l + 2,
                e,
                |cnf, _| Ok::<_, String>(tilekit::solve::sat_embedded::solve_varisat(cnf)),
                |_, _| {},
            )
            .unwrap();
            assert_eq!(plan.horizon, Some(l));
            cells.push(t.elapsed().as_secs_f64());
        }
        let t = Instant::now();
        assert_eq!(incremental(&p, l + 2), Some(l));
        cells.push(t.elapsed().as_secs_f64());
        println!(
            "| {l} | {:.2} | {:.2} | {:.2} |",
            cells[0], cells[1], cells[2]
        );
    }
}

fn main() {
    // `cargo test --all-targets` runs bench binaries without `--bench`: a tiny smoke run
    // there (embedded engine only) so the suite stays fast; the real thing under `cargo bench`.
    if !std::env::args().any(|a| a == "--bench") {
        let p = instance(8).expect("an 8-move instance");
        assert_eq!(incremental(&p, 10), Some(8));
        println!("certify bench smoke run; run `cargo bench --bench certify` for figures");
        return;
    }
    if env("CERT_MODE", "certify") == "search" {
        return search_mode();
    }
    let solver = env("CERT_SOLVER", "cadical");
    let limit = Duration::from_secs(env("CERT_LIMIT", "120").parse().unwrap());
    let runs: usize = env("CERT_RUNS", "1").parse().unwrap();
    let reg = Registry::load(None).unwrap();
    let engine = reg.sat(&solver).expect("a SAT solver");
    let producer = Producer {
        solver: engine.proofs().expect("a solver that writes proofs"),
        limits: Limits::new(limit, 1),
    };
    let opts = CertifyOptions {
        checker: "rate".into(),
        checker_time_limit: limit,
        proof_dir: None,
        split: 0,
        jobs: 1,
        direction: match env("CERT_DIRECTION", "forward").as_str() {
            "forward" | "both" => None,
            "backward" => Some(sliding_sat::Direction::Backward),
            other => panic!("CERT_DIRECTION: forward, backward or both, not {other}"),
        },
        race: env("CERT_DIRECTION", "forward") == "both",
    };
    if env("CERT_MODE", "certify") == "split" {
        return split_mode(&producer, opts, limit);
    }
    if env("CERT_MODE", "certify") == "plan" {
        return plan_mode(&producer, opts, limit);
    }
    if env("CERT_MODE", "certify") == "families" {
        return families_mode(&producer, limit);
    }
    println!(
        "solver {solver}, limit {} s per run, median of {runs}",
        limit.as_secs()
    );
    println!(
        "| L | encoding | vars / clauses at L−2 | SAT at L (s) | refute L−2 (s) | proof | check (s) | plan + proof + check (s) | certified |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for l in env("CERT_LENGTHS", "20,30,36,40,46,50")
        .split(',')
        .map(|x| x.parse::<usize>().unwrap())
    {
        let Some(p) = instance(l) else { continue };
        for e in env("CERT_ENCODINGS", "plain,pruned,strong")
            .split(',')
            .map(|x| Encoding::parse(x).unwrap())
        {
            let (mut plan_s, mut solve_s, mut check_s) = (vec![], vec![], vec![]);
            let mut row = None;
            for _ in 0..runs {
                let Some((ps, len)) = plan_at(&p, l, e, &producer, limit) else {
                    println!(
                        "| {l} | {} | | > {} | | | | | no plan |",
                        e.name(),
                        limit.as_secs()
                    );
                    break;
                };
                let c =
                    certify::certify_plan(&p, Goal::BlankFirst, len, e, &producer, &opts).unwrap();
                plan_s.push(ps);
                solve_s.push(c.solve_seconds.unwrap_or(f64::NAN));
                check_s.push(c.checker_seconds.unwrap_or(f64::NAN));
                row = Some(c);
            }
            let Some(c) = row else { continue };
            let (ps, ss, cs) = (median(plan_s), median(solve_s), median(check_s));
            println!(
                "| {l} | {} | {} / {} | {ps:.2} | {ss:.2} | {} | {cs:.2} | {:.1} | {} |",
                e.name(),
                c.cnf_vars.map_or("-".into(), |v| v.to_string()),
                c.cnf_clauses.map_or("-".into(), |v| v.to_string()),
                c.proof_bytes.map_or("-".into(), certify::human_bytes),
                ps + ss + cs,
                if c.certified {
                    "yes".to_string()
                } else {
                    format!("no: {}", c.statement)
                }
            );
        }
    }
}

/// Every instance of the short set whose optimum is in `lengths`: (id, optimum, board).
fn instances(lengths: &[usize]) -> Vec<(usize, usize, SlidingPuzzle)> {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("models/sliding/fifteen_small_by_length.txt");
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            l.split_whitespace()
                .map(|x| x.parse::<usize>().unwrap())
                .collect::<Vec<_>>()
        })
        .filter(|f| lengths.contains(&f[1]))
        .map(|f| {
            let tiles = f[3..].iter().map(|&t| t as u16).collect();
            (f[0], f[1], SlidingPuzzle::new(4, 4, tiles).unwrap())
        })
        .collect()
}

/// `CERT_MODE=families`: see the module docs.
fn families_mode(producer: &Producer<'_>, limit: Duration) {
    use sliding_sat::BoundFamilies;
    let ids: Vec<usize> = env("CERT_IDS", "109,122,138")
        .split(',')
        .map(|x| x.parse().unwrap())
        .collect();
    let none = BoundFamilies {
        tile_blank: false,
        pair_blank: false,
        linear_conflicts: false,
    };
    let variants = [
        ("strong", none),
        (
            "+ tile-blank",
            BoundFamilies {
                tile_blank: true,
                ..none
            },
        ),
        (
            "+ pair-blank",
            BoundFamilies {
                pair_blank: true,
                ..none
            },
        ),
        (
            "+ linear conflicts",
            BoundFamilies {
                linear_conflicts: true,
                ..none
            },
        ),
        (
            "+ tile-blank + linear conflicts",
            BoundFamilies {
                pair_blank: false,
                ..BoundFamilies::ALL
            },
        ),
        ("pdb (all three)", BoundFamilies::ALL),
    ];
    let ways: Vec<sliding_sat::Direction> = env("CERT_DIRECTIONS", "forward,backward")
        .split(',')
        .map(|d| match d {
            "forward" => sliding_sat::Direction::Forward,
            "backward" => sliding_sat::Direction::Backward,
            other => panic!("CERT_DIRECTIONS: forward or backward, not {other}"),
        })
        .collect();
    let picked: Vec<usize> = env("CERT_VARIANTS", "")
        .split(',')
        .filter(|x| !x.is_empty())
        .map(|x| x.parse().unwrap())
        .collect();
    println!(
        "solver {}, no proof, limit {} s, one run each",
        producer.name(),
        limit.as_secs()
    );
    println!("| id | L | clauses at L−2 | variant | direction | refute L−2 (s) |");
    println!("|---|---|---|---|---|---|");
    let all: Vec<usize> = (4..=54).collect();
    for (id, l, p) in instances(&all)
        .into_iter()
        .filter(|(id, ..)| ids.contains(id))
    {
        for &way in &ways {
            for (k, (name, families)) in variants.iter().enumerate() {
                if !picked.is_empty() && !picked.contains(&k) {
                    continue;
                }
                let enc = sliding_sat::build_bounded(&p, Goal::BlankFirst, l - 2, *families, way);
                let (outcome, secs) = timed_solve(producer, enc.cnf(), limit);
                let cell = match outcome {
                    SatOutcome::Unsat => format!("{secs:.2}"),
                    SatOutcome::Unknown => format!("> {} (no answer)", limit.as_secs()),
                    SatOutcome::Sat(_) => {
                        panic!("id {id}: a plan of {} moves, below the optimum", l - 2)
                    }
                };
                println!(
                    "| {id} | {l} | {} | {name} | {way:?} | {cell} |",
                    enc.cnf().num_clauses()
                );
            }
        }
    }
}

/// `CERT_MODE=plan`: see the module docs.
fn plan_mode(producer: &Producer<'_>, opts: CertifyOptions, limit: Duration) {
    let lengths: Vec<usize> = env("CERT_LENGTHS", "40,41,42,43,44,45,46,47,48,49,50,51,52,54")
        .split(',')
        .map(|x| x.parse().unwrap())
        .collect();
    let encodings: Vec<Encoding> = env("CERT_ENCODINGS", "strong,pdb")
        .split(',')
        .map(|x| Encoding::parse(x).unwrap())
        .collect();
    println!(
        "producer {}, limit {} s per solver or checker run, one run each",
        producer.name(),
        limit.as_secs()
    );
    println!(
        "| id | L | encoding | vars / clauses at L−2 | refute L−2 (s) | proof | check (s) | wall-clock (s) | certified |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    let ids: Vec<usize> = env("CERT_IDS", "")
        .split(',')
        .filter(|x| !x.is_empty())
        .map(|x| x.parse().unwrap())
        .collect();
    for (id, l, p) in instances(&lengths)
        .into_iter()
        .filter(|(id, ..)| ids.is_empty() || ids.contains(id))
    {
        for &e in &encodings {
            let t = Instant::now();
            let c = certify::certify_plan(&p, Goal::BlankFirst, l, e, producer, &opts).unwrap();
            let wall = t.elapsed().as_secs_f64();
            let secs = |x: Option<f64>| x.map_or("-".into(), |s| format!("{s:.2}"));
            println!(
                "| {id} | {l} | {} | {} / {} | {} | {} | {} | {wall:.1} | {} |",
                e.name(),
                c.cnf_vars.map_or("-".into(), |v| v.to_string()),
                c.cnf_clauses.map_or("-".into(), |v| v.to_string()),
                secs(c.solve_seconds),
                c.proof_bytes.map_or("-".into(), certify::human_bytes),
                secs(c.checker_seconds),
                if c.certified {
                    "yes".to_string()
                } else {
                    format!("no: {}", c.statement)
                }
            );
        }
    }
}

/// `CERT_MODE=split`: see the module docs.
fn split_mode(producer: &Producer<'_>, base: CertifyOptions, limit: Duration) {
    let jobs: usize = env("CERT_JOBS", "2").parse().unwrap();
    let runs: usize = env("CERT_RUNS", "1").parse().unwrap();
    println!(
        "producer {}, limit {} s for the whole certificate, {jobs} jobs, median of {runs}",
        producer.name(),
        limit.as_secs()
    );
    println!(
        "| L | encoding | split depth | leaves | refute, summed (s) | proofs | check, summed (s) | wall-clock (s) | certified |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for l in env("CERT_LENGTHS", "40,42,44,46")
        .split(',')
        .map(|x| x.parse::<usize>().unwrap())
    {
        let Some(p) = instance(l) else { continue };
        for e in env("CERT_ENCODINGS", "pruned")
            .split(',')
            .map(|x| Encoding::parse(x).unwrap())
        {
            for depth in env("CERT_SPLITS", "0,1,2,3")
                .split(',')
                .map(|x| x.parse::<usize>().unwrap())
            {
                let opts = CertifyOptions {
                    split: depth,
                    jobs,
                    ..base.clone()
                };
                let (mut walls, mut solves, mut checks, mut ok) = (vec![], vec![], vec![], 0);
                let mut last = None;
                for _ in 0..runs {
                    let t = Instant::now();
                    let c =
                        certify::certify_plan(&p, Goal::BlankFirst, l, e, producer, &opts).unwrap();
                    walls.push(t.elapsed().as_secs_f64());
                    solves.push(c.solve_seconds.unwrap_or(f64::NAN));
                    checks.push(c.checker_seconds.unwrap_or(f64::NAN));
                    ok += c.certified as usize;
                    last = Some(c);
                }
                let c = last.expect("at least one run");
                println!(
                    "| {l} | {} | {depth} | {} | {:.1} | {} | {:.1} | {:.1} | {ok} of {runs}{} |",
                    e.name(),
                    c.split.as_ref().map_or(1, |s| s.leaves.len()),
                    median(solves),
                    c.proof_bytes.map_or("-".into(), certify::human_bytes),
                    median(checks),
                    median(walls),
                    if c.certified {
                        String::new()
                    } else {
                        format!(" (last: {})", c.statement)
                    }
                );
            }
        }
    }
}
