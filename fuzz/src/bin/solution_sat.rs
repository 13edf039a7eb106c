//! The AFL++ binary of the `solution_sat` target, whose body (shared with the test suite's corpus
//! run) is in `src/targets/solution_sat.rs`.
#[path = "../targets/solution_sat.rs"]
mod target;

fn main() {
    afl::fuzz!(|data: &[u8]| { target::run(data) });
}
