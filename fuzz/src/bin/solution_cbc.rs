//! The AFL++ binary of the `solution_cbc` target, whose body (shared with the test suite's corpus
//! run) is in `src/targets/solution_cbc.rs`.
#[path = "../targets/solution_cbc.rs"]
mod target;

fn main() {
    afl::fuzz!(|data: &[u8]| { target::run(data) });
}
