//! The AFL++ binary of the `solution_sol` target, whose body (shared with the test suite's corpus
//! run) is in `src/targets/solution_sol.rs`.
#[path = "../targets/solution_sol.rs"]
mod target;

fn main() {
    afl::fuzz!(|data: &[u8]| { target::run(data) });
}
