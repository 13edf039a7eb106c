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
//! Prints a markdown table of medians.

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::time::Instant;

use tilekit::formulate::edge_clique::{self, CliqueOptions};
use tilekit::puzzle::edge::EdgePuzzle;

/// Peak resident set size since the last [`reset_peak_rss`], in MiB (Linux `VmHWM`).
fn peak_rss_mib() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<f64>().ok())
        })
        .map_or(f64::NAN, |kb| kb / 1024.0)
}

/// Reset the peak RSS to the current RSS (Linux ≥ 4.0: `echo 5 > /proc/self/clear_refs`).
fn reset_peak_rss() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn machine() -> String {
    let cpus = std::thread::available_parallelism().map_or(0, |n| n.get());
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, m)| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let load = std::fs::read_to_string("/proc/loadavg")
        .ok()
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|| "?".into());
    format!("{cpus} CPUs ({model}), load average {load}")
}

enum Out {
    Null,
    TempFile,
    Keep(PathBuf),
}

fn main() {
    // `cargo bench` passes `--bench`; ignore arguments.
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
        "| instance | nodes | edges | build s | count s | write s (median of runs) | MB | MB/s | M edges/s | peak RSS MiB |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
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
        let t = Instant::now();
        let m = g.count_edges(complement);
        let count_s = t.elapsed().as_secs_f64();
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
            let written = g.write_dimacs(complement, &mut w).expect("write");
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
            "| META {n}x{n}{} | {} | {m} | {build_s:.3} | {count_s:.6} | {secs:.2} ({these_runs} run{}) | {:.0} | {:.0} | {:.1} | {:.0} |",
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
