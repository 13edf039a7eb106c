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

/// `f(i)` for every `i < n` on `jobs` threads (at least one), each result handed to
/// `on_result(i, result)` on the calling thread as it arrives (in the order the items
/// finish), so that a long run keeps what it has (a campaign stores each row at once).
/// `on_result` returning `false` stops the queue: items already started finish, and no
/// other is taken.
pub fn par_stream<T: Send>(
    n: usize,
    jobs: usize,
    f: impl Fn(usize) -> T + Sync,
    mut on_result: impl FnMut(usize, T) -> bool,
) {
    let next = AtomicUsize::new(0);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let threads = jobs.max(1).min(n.max(1));
    // Bounded: a worker that is ahead of the consumer waits, so that a stop leaves little
    // done for nothing.
    let (tx, rx) = std::sync::mpsc::sync_channel::<(usize, T)>(threads);
    std::thread::scope(|s| {
        for _ in 0..threads {
            let tx = tx.clone();
            let (f, next, stop) = (&f, &next, &stop);
            s.spawn(move || {
                while !stop.load(Ordering::SeqCst) {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= n || tx.send((i, f(i))).is_err() {
                        return;
                    }
                }
            });
        }
        drop(tx);
        for (i, v) in rx.iter() {
            if !on_result(i, v) {
                stop.store(true, Ordering::SeqCst);
                break;
            }
        }
        // Unblocks the workers still waiting to send.
        drop(rx);
    });
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

    #[test]
    fn streamed_results_arrive_once_each_and_a_stop_takes_no_more() {
        let mut seen = Vec::new();
        par_stream(
            20,
            3,
            |i| i * 2,
            |i, v| {
                assert_eq!(v, i * 2);
                seen.push(i);
                true
            },
        );
        seen.sort_unstable();
        assert_eq!(seen, (0..20).collect::<Vec<_>>());
        let started = AtomicUsize::new(0);
        let mut got = 0;
        par_stream(
            1000,
            2,
            |i| {
                started.fetch_add(1, Ordering::SeqCst);
                i
            },
            |_, _| {
                got += 1;
                got < 5
            },
        );
        assert_eq!(got, 5);
        // Past the five consumed: at most the queue's two, and per worker one item in hand
        // and one taken before it saw the stop.
        assert!(started.into_inner() <= 5 + 2 + 2 * 2);
    }
}
