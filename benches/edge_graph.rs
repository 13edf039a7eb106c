//! Throughput of the edge-matching clique-graph writer (DIMACS `p edge`) on the META 2010
//! instances: build, count and write times, MB/s, edges/s and peak memory.
//!
//! `cargo bench --bench edge_graph`. Environment:
//! - `TILEKIT_BENCH_SIZES`: comma-separated sizes, `c` before a size for the complement
//!   (conflict) graph; default `8,9,10,c16`. 10×10 has 1.4·10^8 edges (≈ 2.5 GB of text).
//! - `TILEKIT_BENCH_RUNS`: runs per size (default 3; sizes over 10^8 edges run once).
//! - `TILEKIT_BENCH_OUT`: `null` (default, `/dev/null`), `file` (a temporary file, deleted
//!   after each run), or a directory where the graphs are written as `meta_NN[_c].dimacs` and
//!   kept (one run).
//!
//! - `TILEKIT_BENCH_REACH`: instead of writing, solve these META sizes (e.g. `6,7,8,9`) by
//!   each route, cliquer, varisat, CaDiCaL and Kissat, with `TILEKIT_BENCH_LIMIT` seconds each
//!   (default 60), one run, stopping a route at its first failure; every answer is decoded
//!   and verified. varisat runs in a child process so that the limit can stop it.
//!   `TILEKIT_BENCH_ROUTES` picks routes (comma-separated); `TILEKIT_BENCH_FIX=1` fixes the
//!   first corner in the CNF too (the clique graph always fixes it).
//!
//! Prints a markdown table of medians.

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::time::Instant;

use std::time::Duration;
use tilekit::SatOutcome;
use tilekit::format::dimacs_cnf::write_cnf;
use tilekit::formulate::edge_clique::{self, CliqueOptions};
use tilekit::formulate::edge_sat::{self, SatOptions};
use tilekit::puzzle::edge::EdgePuzzle;
use tilekit::solve::clique_external::{CliqueOutcome, solve_clique_file};
use tilekit::solve::external::{self, RunSpec};
use tilekit::solve::milp_external::solve_sat_file;
use tilekit::solve::registry::Registry;
use tilekit::solve::sat_embedded::solve_varisat_checked;
use tilekit::verify::edge::BoardChecker;

mod common;
use common::{machine, median, peak_rss_mib, reset_peak_rss};

enum Out {
    Null,
    TempFile,
    Keep(PathBuf),
}

fn meta(n: usize) -> EdgePuzzle {
    let rel = format!("models/edge-matching/meta2010/pieces_{n:02}x{n:02}.txt");
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(&rel);
    EdgePuzzle::parse(&std::fs::read_to_string(&path).expect("read"), &rel).expect("parse")
}

/// The CNF options of the reach runs: `TILEKIT_BENCH_FIX=1` fixes the first corner.
fn sat_options() -> SatOptions {
    SatOptions {
        fix_first_corner: std::env::var("TILEKIT_BENCH_FIX").as_deref() == Ok("1"),
    }
}

/// Child mode: solve META `n` with varisat, print `RESULT perfect|unsat|bad …`.
fn varisat_child(n: usize) {
    let p = meta(n);
    let enc = edge_sat::build(&p, &sat_options());
    match solve_varisat_checked(enc.cnf()).expect("varisat") {
        SatOutcome::Sat(model) => {
            let board = enc.decode(&model).expect("decode");
            let v = BoardChecker.verdict(&p, &board, Some(0.0));
            println!("RESULT {}", if v.valid { "perfect" } else { "bad board" });
        }
        SatOutcome::Unsat => println!("RESULT unsat"),
        SatOutcome::Unknown => println!("RESULT unknown"),
    }
}

/// How far each route goes on the META sizes within the limit.
fn reach(sizes: &str) {
    let limit = Duration::from_secs_f64(
        std::env::var("TILEKIT_BENCH_LIMIT")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(60.0),
    );
    let registry = Registry::builtin();
    let dir = tempfile::tempdir().expect("temp dir");
    println!(
        "machine: {}; limit {} s per run\n",
        machine(),
        limit.as_secs_f64()
    );
    println!("| route | instance | result | solver s | model file MB | write s |");
    println!("|---|---|---|---|---|---|");
    let mut failed = [false; 4];
    let routes = std::env::var("TILEKIT_BENCH_ROUTES")
        .unwrap_or_else(|_| "cliquer,varisat,cadical,kissat".into());
    for n in sizes
        .split(',')
        .filter_map(|s| s.trim().parse::<usize>().ok())
    {
        let p = meta(n);
        for (k, route) in ["cliquer", "varisat", "cadical", "kissat"]
            .iter()
            .enumerate()
        {
            if failed[k] || !routes.split(',').any(|r| r.trim() == *route) {
                continue;
            }
            let t = Instant::now();
            let (result, secs, mb, write_s) = match *route {
                "cliquer" => {
                    let g = edge_clique::build(&p, &CliqueOptions::default());
                    let path = dir.path().join("g.dimacs");
                    let f = BufWriter::with_capacity(1 << 20, File::create(&path).expect("create"));
                    tilekit::format::dimacs_graph::write_graph(&g, false, true, f).expect("write");
                    let write_s = t.elapsed().as_secs_f64();
                    let mb = std::fs::metadata(&path).map_or(0, |m| m.len()) as f64 / 1e6;
                    let entry = registry.get("cliquer").expect("entry");
                    let (o, run) =
                        solve_clique_file(entry, &path, dir.path(), limit, g.num_nodes())
                            .expect("cliquer run");
                    let _ = std::fs::remove_file(&path);
                    let result = match o {
                        CliqueOutcome::Found(c) => {
                            let board = g.decode(&c).expect("decode");
                            let v = BoardChecker.verdict(&p, &board, Some(0.0));
                            if v.valid {
                                "perfect".to_string()
                            } else {
                                format!("clique of {} (not perfect)", c.len())
                            }
                        }
                        CliqueOutcome::TimeLimit => "time limit".to_string(),
                    };
                    (result, run.elapsed.as_secs_f64(), mb, write_s)
                }
                "varisat" => {
                    let exe = std::env::current_exe().expect("exe");
                    let run = external::run(&RunSpec {
                        program: exe.display().to_string(),
                        args: vec!["--varisat-child".into(), n.to_string()],
                        time_limit: limit,
                        cwd: None,
                        stop: None,
                    })
                    .expect("child");
                    let result = if run.timed_out {
                        "time limit".to_string()
                    } else {
                        run.stdout
                            .lines()
                            .find_map(|l| l.strip_prefix("RESULT "))
                            .unwrap_or("no result")
                            .to_string()
                    };
                    (result, run.elapsed.as_secs_f64(), 0.0, 0.0)
                }
                name => {
                    let enc = edge_sat::build(&p, &sat_options());
                    let path = dir.path().join("m.cnf");
                    let f = BufWriter::with_capacity(1 << 20, File::create(&path).expect("create"));
                    write_cnf(enc.cnf(), f).expect("write");
                    let write_s = t.elapsed().as_secs_f64();
                    let mb = std::fs::metadata(&path).map_or(0, |m| m.len()) as f64 / 1e6;
                    let entry = registry.get(name).expect("entry");
                    let (o, run) =
                        solve_sat_file(entry, &path, dir.path(), limit, enc.cnf().num_vars())
                            .expect("sat run");
                    let result = match o {
                        SatOutcome::Sat(model) => {
                            let board = enc.decode(&model).expect("decode");
                            if BoardChecker.verdict(&p, &board, Some(0.0)).valid {
                                "perfect".to_string()
                            } else {
                                "bad board".to_string()
                            }
                        }
                        SatOutcome::Unsat => "unsat (wrong!)".to_string(),
                        SatOutcome::Unknown => "time limit".to_string(),
                    };
                    (result, run.elapsed.as_secs_f64(), mb, write_s)
                }
            };
            failed[k] = result != "perfect";
            println!("| {route} | META {n}x{n} | {result} | {secs:.1} | {mb:.1} | {write_s:.2} |");
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--varisat-child") {
        varisat_child(args[i + 1].parse().expect("size"));
        return;
    }
    if let Ok(sizes) = std::env::var("TILEKIT_BENCH_REACH") {
        reach(&sizes);
        return;
    }
    // `cargo bench` passes `--bench`; other arguments are ignored.
    let sizes = std::env::var("TILEKIT_BENCH_SIZES").unwrap_or_else(|_| "8,9,10,c16".into());
    let runs: usize = std::env::var("TILEKIT_BENCH_RUNS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3)
        .max(1);
    let out = match std::env::var("TILEKIT_BENCH_OUT").as_deref() {
        Ok("file") => Out::TempFile,
        Ok("null") | Err(_) => Out::Null,
        Ok(dir) => Out::Keep(PathBuf::from(dir)),
    };
    let tmp = tempfile::tempdir().expect("temp dir");
    println!("machine: {}\n", machine());
    println!(
        "| instance | nodes | edges | build s (incl. edge count) | write s (median of runs) | MB | MB/s | M edges/s | peak RSS MiB |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for spec in sizes.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (complement, n) = match spec.strip_prefix('c') {
            Some(rest) => (true, rest),
            None => (false, spec),
        };
        let n: usize = n.parse().expect("a size like 8 or c16");
        let rel = format!("models/edge-matching/meta2010/pieces_{n:02}x{n:02}.txt");
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(&rel);
        let puzzle =
            EdgePuzzle::parse(&std::fs::read_to_string(&path).expect("read"), &rel).expect("parse");
        reset_peak_rss();
        let t = Instant::now();
        let g = edge_clique::build(&puzzle, &CliqueOptions::default());
        let build_s = t.elapsed().as_secs_f64();
        let m = g.count_edges(complement);
        let these_runs = if m > 100_000_000 || matches!(out, Out::Keep(_)) {
            1
        } else {
            runs
        };
        let mut times = Vec::new();
        let mut bytes = 0u64;
        for _ in 0..these_runs {
            let target = match &out {
                Out::Null => PathBuf::from("/dev/null"),
                Out::TempFile => tmp.path().join("graph.dimacs"),
                Out::Keep(dir) => dir.join(format!(
                    "meta_{n:02}{}.dimacs",
                    if complement { "_c" } else { "" }
                )),
            };
            let f = File::create(&target).expect("create output");
            let t = Instant::now();
            let mut w = Counting(BufWriter::with_capacity(1 << 20, f), 0);
            let written = tilekit::format::dimacs_graph::write_graph(&g, complement, true, &mut w)
                .expect("write");
            bytes = w.1;
            drop(w);
            times.push(t.elapsed().as_secs_f64());
            assert_eq!(written, m);
            if matches!(out, Out::TempFile) {
                let _ = std::fs::remove_file(&target);
            }
        }
        let secs = median(times);
        println!(
            "| META {n}x{n}{} | {} | {m} | {build_s:.3} | {secs:.2} ({these_runs} run{}) | {:.0} | {:.0} | {:.1} | {:.0} |",
            if complement { " complement" } else { "" },
            g.num_nodes(),
            if these_runs == 1 { "" } else { "s" },
            bytes as f64 / 1e6,
            bytes as f64 / 1e6 / secs,
            m as f64 / 1e6 / secs,
            peak_rss_mib()
        );
    }
}

/// A writer that counts the bytes passing through.
struct Counting<W>(W, u64);

impl<W: std::io::Write> std::io::Write for Counting<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.0.write(buf)?;
        self.1 += n as u64;
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}
