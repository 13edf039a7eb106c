//! `format::neos_job::{read_job_fields, parse_job}`: NEOS job documents (XML).

use tilekit::format::neos_job::{job_to_string, parse_job, read_job_fields};

/// One input, as AFL++ hands it over: a panic is a finding.
pub(crate) fn run(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = read_job_fields(text);
        if let Ok(spec) = parse_job(text) {
            // What the writer accepts of it reads back.
            if let Ok(xml) = job_to_string(&spec) {
                let again = parse_job(&xml).expect("round trip");
                assert_eq!((again.input, again.priority), (spec.input, spec.priority));
            }
        }
    }
}
