//! Throughput of the LP and MPS writers on linopy's "basic" benchmark model, side by side
//! with linopy (and PuLP) when they are importable.
//!
//! `cargo bench --bench writers`; `TILEKIT_BENCH_N` sets the grid size (default 1600, which
//! gives 4·N² = 10.24 M constraint non-zeros). Prints a markdown table.

use std::fs::File;
use std::io;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

use tilekit::format::lp::write_lp;
use tilekit::format::mps::write_mps;
use tilekit::{Model, ObjSense, Sense, VarKind};

mod common;
use common::{machine, median, peak_rss_mib, reset_peak_rss};

const RUNS: usize = 5;
/// Fewer runs for linopy: one LP write of the full model takes many seconds.
const PY_RUNS: usize = 3;
/// PuLP builds its model very slowly; time it on a smaller grid and compare per non-zero.
const PULP_N: usize = 300;

/// For an N×N grid: x(i,j), y(i,j) ≥ 0; x − y ≥ i − j; x + y ≥ 0; minimise Σ 2x + y.
fn basic_model(n: usize) -> Model {
    let mut m = Model::new("basic");
    m.reserve(2 * n * n, 2 * n * n, 4 * n * n);
    let mut xs = Vec::with_capacity(n * n);
    let mut ys = Vec::with_capacity(n * n);
    for i in 0..n {
        for j in 0..n {
            xs.push(
                m.add_var(
                    &format!("x_{i}_{j}"),
                    VarKind::Continuous,
                    0.0,
                    f64::INFINITY,
                )
                .unwrap(),
            );
            ys.push(
                m.add_var(
                    &format!("y_{i}_{j}"),
                    VarKind::Continuous,
                    0.0,
                    f64::INFINITY,
                )
                .unwrap(),
            );
        }
    }
    let mut obj = Vec::with_capacity(2 * n * n);
    for k in 0..n * n {
        obj.push((xs[k], 2.0));
        obj.push((ys[k], 1.0));
    }
    m.set_objective("obj", ObjSense::Minimize, &obj).unwrap();
    for i in 0..n {
        for j in 0..n {
            let (x, y) = (xs[i * n + j], ys[i * n + j]);
            m.add_row(
                &format!("lo_{i}_{j}"),
                &[(x, 1.0), (y, -1.0)],
                Sense::Ge,
                i as f64 - j as f64,
            )
            .unwrap();
            m.add_row(
                &format!("pos_{i}_{j}"),
                &[(x, 1.0), (y, 1.0)],
                Sense::Ge,
                0.0,
            )
            .unwrap();
        }
    }
    m
}

type Writer = fn(&Model, File) -> io::Result<u64>;

/// Median seconds and bytes of `RUNS` writes of `m` to `path` (re-created each run).
fn time_writer(m: &Model, write: Writer, path: &Path) -> (f64, u64) {
    let mut times = Vec::new();
    let mut bytes = 0;
    for _ in 0..RUNS {
        let f = File::create(path).expect("open output");
        let t = Instant::now();
        bytes = write(m, f).expect("write");
        times.push(t.elapsed().as_secs_f64());
    }
    (median(times), bytes)
}

struct Row {
    what: String,
    n: usize,
    secs: f64,
    bytes: u64,
    nnz: usize,
    rss: f64,
}

impl Row {
    fn mb_s(&self) -> f64 {
        self.bytes as f64 / 1e6 / self.secs
    }
    fn mnz_s(&self) -> f64 {
        self.nnz as f64 / 1e6 / self.secs
    }
}

fn importable(module: &str) -> bool {
    Command::new("python3")
        .args(["-c", &format!("import {module}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Run the Python side; `None` (with a note) if linopy is not importable.
fn python_rows(n: usize, dir: &Path) -> Option<Vec<Row>> {
    if !importable("linopy") {
        println!("\n(linopy not importable: `pip install linopy pulp` to compare)\n");
        return None;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/linopy_writer.py");
    let pulp_n = if importable("pulp") { PULP_N } else { 0 };
    let out = Command::new("python3")
        .arg(&script)
        .args([
            n.to_string(),
            PY_RUNS.to_string(),
            dir.display().to_string(),
            pulp_n.to_string(),
        ])
        .output()
        .expect("run python3");
    if !out.status.success() {
        println!(
            "\n(linopy benchmark failed: {})\n",
            String::from_utf8_lossy(&out.stderr)
        );
        return None;
    }
    let rows = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.strip_prefix("RESULT ")?.split_whitespace().collect();
            let api = if f[0] == "linopy" {
                "`to_file`"
            } else if f[1] == "LP" {
                "`writeLP`"
            } else {
                "`writeMPS`"
            };
            Some(Row {
                what: format!("{} {} {api} → file", f[0], f[1]),
                n: f[2].parse().ok()?,
                secs: f[3].parse().ok()?,
                bytes: f[4].parse().ok()?,
                nnz: f[5].parse().ok()?,
                rss: f[6].parse().ok()?,
            })
        })
        .collect();
    Some(rows)
}

fn main() {
    // `cargo test --all-targets` runs bench binaries without `--bench`: do a tiny smoke run
    // there so the suite stays fast, and the real thing under `cargo bench`.
    if !std::env::args().any(|a| a == "--bench") {
        let m = basic_model(20);
        let (mut lp, mut mps) = (Vec::new(), Vec::new());
        write_lp(&m, &mut lp).expect("LP write to memory");
        write_mps(&m, &mut mps).expect("MPS write to memory");
        println!("writers bench smoke run: {m}; run `cargo bench --bench writers` for figures");
        return;
    }
    let n: usize = std::env::var("TILEKIT_BENCH_N")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1600);
    let machine_start = machine();
    eprintln!("machine: {machine_start}");
    let t = Instant::now();
    let m = basic_model(n);
    let build = t.elapsed().as_secs_f64();
    let rss_model = peak_rss_mib();
    let nnz = m.num_nonzeros();
    eprintln!("built {m} in {build:.1} s, peak RSS {rss_model:.0} MiB");

    // How long the column-major view alone takes (the MPS writer builds its own equivalent).
    let mut col_times = Vec::new();
    for _ in 0..RUNS {
        let t = Instant::now();
        let cols = m.columns();
        col_times.push(t.elapsed().as_secs_f64());
        assert_eq!(cols.row.len(), nnz);
    }
    let columns_secs = median(col_times);

    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("model.out");
    let null = Path::new("/dev/null");
    let mut rows = Vec::new();
    let writers: [(&str, Writer); 2] = [("LP", write_lp), ("MPS", write_mps)];
    for (name, w) in writers {
        for (target, path) in [("/dev/null", null), ("file", file.as_path())] {
            reset_peak_rss();
            let (secs, bytes) = time_writer(&m, w, path);
            rows.push(Row {
                what: format!("tilekit {name} → {target}"),
                n,
                secs,
                bytes,
                nnz,
                rss: peak_rss_mib(),
            });
        }
        let _ = std::fs::remove_file(&file);
    }
    drop(m);

    let py = python_rows(n, dir.path()).unwrap_or_default();

    println!("\nMachine: {machine_start} at start; {} at end.", machine());
    println!(
        "\nModel: basic, N = {n}: {} variables, {} rows, {nnz} constraint non-zeros \
         (+ {} objective terms), built in {build:.1} s, {rss_model:.0} MiB RSS. Median of \
         {RUNS} runs (Python: {PY_RUNS}); \"file\" = page cache, no fsync. Peak RSS = whole \
         process, model included.\n",
        2 * n * n,
        2 * n * n,
        2 * n * n
    );
    println!("| writer | N | time (s) | size (MB) | MB/s | M nz/s | peak RSS (MiB) |");
    println!("|---|---|---|---|---|---|---|");
    for r in rows.iter().chain(&py) {
        println!(
            "| {} | {} | {:.3} | {:.1} | {:.0} | {:.1} | {:.0} |",
            r.what,
            r.n,
            r.secs,
            r.bytes as f64 / 1e6,
            r.mb_s(),
            r.mnz_s(),
            r.rss
        );
    }
    if let Some(mps) = rows.iter().find(|r| r.what == "tilekit MPS → /dev/null") {
        println!(
            "\n`Model::columns()` alone (the CSR → CSC transpose MPS needs): {columns_secs:.3} s, \
             {:.0}% of the MPS write to /dev/null ({:.3} s).",
            100.0 * columns_secs / mps.secs,
            mps.secs
        );
    }
    if py.is_empty() {
        return;
    }
    println!("\n| comparison (per constraint non-zero, → file) | speed-up |\n|---|---|");
    for ours in rows.iter().filter(|r| r.what.ends_with("→ file")) {
        for theirs in &py {
            println!(
                "| {} vs {} (N = {}) | {:.1}× |",
                ours.what.trim_end_matches(" → file"),
                theirs.what.trim_end_matches(" → file"),
                theirs.n,
                ours.mnz_s() / theirs.mnz_s()
            );
        }
    }
}
