//! The library's one work queue: items handed to a fixed number of threads, each taking the
//! next index as it frees up, results in index order. A benchmark, a campaign export and a
//! split certificate all have this shape; searches that share bounds between threads (the
//! native search's frontier) keep their own.
//!
//! ```
//! let squares = tilekit::work::par_map(5, 2, |i| i * i, |_| {});
//! assert_eq!(squares, vec![0, 1, 4, 9, 16]);
//! ```

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// `f(i)` for every `i < n` on `jobs` threads (at least one), in index order; `tick(done)`
/// after each item, with the number done so far.
pub fn par_map<T: Send>(
    n: usize,
    jobs: usize,
    f: impl Fn(usize) -> T + Sync,
    tick: impl Fn(usize) + Sync,
) -> Vec<T> {
    let slots: Vec<Mutex<Option<T>>> = (0..n).map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1).min(n.max(1)) {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= n {
                        return;
                    }
                    let v = f(i);
                    *slots[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(v);
                    tick(done.fetch_add(1, Ordering::Relaxed) + 1);
                }
            });
        }
    });
    slots
        .into_iter()
        .map(|s| {
            s.into_inner()
                .unwrap_or_else(|e| e.into_inner())
                .expect("every index ran")
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_index_runs_once_in_order_whatever_the_threads() {
        for jobs in [0, 1, 3, 16] {
            let count = AtomicUsize::new(0);
            let out = par_map(
                10,
                jobs,
                |i| i + 1,
                |_| {
                    count.fetch_add(1, Ordering::Relaxed);
                },
            );
            assert_eq!(out, (1..=10).collect::<Vec<_>>());
            assert_eq!(count.into_inner(), 10);
        }
        assert!(par_map(0, 4, |i| i, |_| {}).is_empty());
    }
}
