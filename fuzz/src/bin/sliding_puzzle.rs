//! The AFL++ binary of the `sliding_puzzle` target, whose body (shared with the test suite's corpus
//! run) is in `src/targets/sliding_puzzle.rs`.
#[path = "../targets/sliding_puzzle.rs"]
mod target;

fn main() {
    afl::fuzz!(|data: &[u8]| { target::run(data) });
}
