//! The AFL++ binary of the `solution_cplex_xml` target, whose body (shared with the test suite's corpus
//! run) is in `src/targets/solution_cplex_xml.rs`.
#[path = "../targets/solution_cplex_xml.rs"]
mod target;

fn main() {
    afl::fuzz!(|data: &[u8]| { target::run(data) });
}
