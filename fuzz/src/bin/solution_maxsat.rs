//! The AFL++ binary of the `solution_maxsat` target, whose body (shared with the test suite's corpus
//! run) is in `src/targets/solution_maxsat.rs`.
#[path = "../targets/solution_maxsat.rs"]
mod target;

fn main() {
    afl::fuzz!(|data: &[u8]| { target::run(data) });
}
