//! The AFL++ binary of the `solution_highs` target, whose body (shared with the test suite's corpus
//! run) is in `src/targets/solution_highs.rs`.
#[path = "../targets/solution_highs.rs"]
mod target;

fn main() {
    afl::fuzz!(|data: &[u8]| { target::run(data) });
}
