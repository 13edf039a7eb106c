//! The AFL++ binary of the `edge_board` target, whose body (shared with the test suite's corpus
//! run) is in `src/targets/edge_board.rs`.
#[path = "../targets/edge_board.rs"]
mod target;

fn main() {
    afl::fuzz!(|data: &[u8]| { target::run(data) });
}
