//! The AFL++ binary of the `sliding_moves` target, whose body (shared with the test suite's corpus
//! run) is in `src/targets/sliding_moves.rs`.
#[path = "../targets/sliding_moves.rs"]
mod target;

fn main() {
    afl::fuzz!(|data: &[u8]| { target::run(data) });
}
