//! The AFL++ binary of the `solver_registry` target, whose body (shared with the test suite's corpus
//! run) is in `src/targets/solver_registry.rs`.
#[path = "../targets/solver_registry.rs"]
mod target;

fn main() {
    afl::fuzz!(|data: &[u8]| { target::run(data) });
}
