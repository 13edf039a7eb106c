//! The AFL++ binary of the `gams_solution` target, whose body (shared with the test suite's corpus
//! run) is in `src/targets/gams_solution.rs`.
#[path = "../targets/gams_solution.rs"]
mod target;

fn main() {
    afl::fuzz!(|data: &[u8]| { target::run(data) });
}
