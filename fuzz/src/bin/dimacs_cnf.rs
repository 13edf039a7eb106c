//! The AFL++ binary of the `dimacs_cnf` target, whose body (shared with the test suite's corpus
//! run) is in `src/targets/dimacs_cnf.rs`.
#[path = "../targets/dimacs_cnf.rs"]
mod target;

fn main() {
    afl::fuzz!(|data: &[u8]| { target::run(data) });
}
