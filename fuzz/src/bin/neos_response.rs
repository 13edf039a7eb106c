//! The AFL++ binary of the `neos_response` target, whose body (shared with the test suite's corpus
//! run) is in `src/targets/neos_response.rs`.
#[path = "../targets/neos_response.rs"]
mod target;

fn main() {
    afl::fuzz!(|data: &[u8]| { target::run(data) });
}
