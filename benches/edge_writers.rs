//! Building and writing the edge MILP (Salassa et al.) of the META 2010 16×16 instance:
//! the faithful model and the `--filter` model, each to LP and MPS. Reports median build
//! seconds, write seconds, MB/s and the process's peak RSS. Not a test: figures only.
//!
//! `cargo bench --bench edge_writers`; `TILEKIT_BENCH_EDGE=path` benches another instance.

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Instant;

use tilekit::Model;
use tilekit::format::lp::write_lp;
use tilekit::format::mps::write_mps;
use tilekit::formulate::edge_milp::{self, EdgeMilpOptions};
use tilekit::puzzle::edge::EdgePuzzle;

mod common;
use common::{machine, median, peak_rss_mib, reset_peak_rss};

const RUNS: usize = 5;

type Writer = fn(&Model, File) -> io::Result<u64>;

fn main() {
    let path = std::env::var("TILEKIT_BENCH_EDGE")
        .map(PathBuf::from)
        .unwrap_or_else(|_| {
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("models/edge-matching/meta2010/pieces_16x16.txt")
        });
    let text = std::fs::read_to_string(&path).expect("read the instance");
    let p = EdgePuzzle::parse(&text, &path.display().to_string()).expect("parse the instance");
    // `cargo test --all-targets` runs bench binaries without `--bench`: a smoke run there.
    if !std::env::args().any(|a| a == "--bench") {
        let small = tilekit::puzzle::edge::generate(3, 3, 2, 2, 1).unwrap().0;
        let e = edge_milp::build(&small, EdgeMilpOptions::default()).unwrap();
        write_lp(&e.model, Vec::new()).unwrap();
        write_mps(&e.model, Vec::new()).unwrap();
        println!("edge_writers smoke run; `cargo bench --bench edge_writers` for figures");
        return;
    }
    println!("Machine: {}", machine());
    println!(
        "Instance: {} ({}×{}). Median of {RUNS} runs; \"file\" = page cache, no fsync; peak \
         RSS = whole process (model included), reset before each measurement.\n",
        path.display(),
        p.rows(),
        p.cols()
    );
    println!(
        "| model | vars | rows | nonzeros | build (s) | build peak RSS (MiB) | format | write (s) | size (MB) | MB/s | write peak RSS (MiB) |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("model.out");
    for (name, opts) in [
        ("faithful", EdgeMilpOptions::default()),
        (
            "filter",
            EdgeMilpOptions {
                filter_feasible: true,
                fix_first_corner: false,
            },
        ),
    ] {
        let mut build_times = Vec::new();
        let mut build_rss = Vec::new();
        let mut built = None;
        for _ in 0..RUNS {
            // Drop the previous build first so the peak RSS is one model's.
            drop(built.take());
            reset_peak_rss();
            let t = Instant::now();
            let e = edge_milp::build(&p, opts).expect("build");
            build_times.push(t.elapsed().as_secs_f64());
            build_rss.push(peak_rss_mib());
            built = Some(e);
        }
        let e = built.expect("built");
        let m = &e.model;
        let writers: [(&str, Writer); 2] = [("LP", write_lp), ("MPS", write_mps)];
        for (fmt, w) in writers {
            let mut times = Vec::new();
            let mut rss = Vec::new();
            let mut bytes = 0;
            for _ in 0..RUNS {
                let f = File::create(&out).expect("create");
                reset_peak_rss();
                let t = Instant::now();
                bytes = w(m, f).expect("write");
                times.push(t.elapsed().as_secs_f64());
                rss.push(peak_rss_mib());
            }
            let secs = median(times);
            println!(
                "| {name} | {} | {} | {} | {:.2} | {:.0} | {fmt} | {:.2} | {:.1} | {:.0} | {:.0} |",
                m.num_vars(),
                m.num_rows(),
                m.num_nonzeros(),
                median(build_times.clone()),
                median(build_rss.clone()),
                secs,
                bytes as f64 / 1e6,
                bytes as f64 / 1e6 / secs,
                median(rss)
            );
        }
        let _ = std::fs::remove_file(&out);
    }
}
