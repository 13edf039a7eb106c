//! The AFL++ binary of the `solution_clique` target, whose body (shared with the test suite's corpus
//! run) is in `src/targets/solution_clique.rs`.
#[path = "../targets/solution_clique.rs"]
mod target;

fn main() {
    afl::fuzz!(|data: &[u8]| { target::run(data) });
}
