//! The AFL++ binary of the `edge_puzzle` target, whose body (shared with the test suite's corpus
//! run) is in `src/targets/edge_puzzle.rs`.
#[path = "../targets/edge_puzzle.rs"]
mod target;

fn main() {
    afl::fuzz!(|data: &[u8]| { target::run(data) });
}
