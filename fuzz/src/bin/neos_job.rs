//! The AFL++ binary of the `neos_job` target, whose body (shared with the test suite's corpus
//! run) is in `src/targets/neos_job.rs`.
#[path = "../targets/neos_job.rs"]
mod target;

fn main() {
    afl::fuzz!(|data: &[u8]| { target::run(data) });
}
