//! The AFL++ binary of the `solution_glpk` target, whose body (shared with the test suite's corpus
//! run) is in `src/targets/solution_glpk.rs`.
#[path = "../targets/solution_glpk.rs"]
mod target;

fn main() {
    afl::fuzz!(|data: &[u8]| { target::run(data) });
}
