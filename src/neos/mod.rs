//! The NEOS Server as a remote solver: an XML-RPC client ([`client`]), the local job file and
//! the job life cycle (job document → submit → follow → fetch → parse, [`jobs`]), and NEOS as
//! a MILP executor behind the solver trait ([`remote::NeosMilp`]), through which both puzzle
//! families' MILPs go to NEOS (`route::neos`); the `tilekit neos …` subcommands live in the
//! binary.
//!
//! The client speaks XML-RPC over HTTPS (the public server, `https://neos-server.org:3333`)
//! and plain HTTP (a local or loopback server). `docs/src/neos.md` shows a whole exchange.

pub mod client;
pub mod jobs;
pub mod remote;

/// Default XML-RPC endpoint of the public NEOS Server.
pub const DEFAULT_SERVER: &str = "https://neos-server.org:3333";

/// Everything that can go wrong talking to NEOS or handling its jobs.
#[derive(Debug, thiserror::Error)]
pub enum NeosError {
    /// Bad usage or input (exit code 2).
    #[error("{0}")]
    Usage(String),
    /// The server could not be reached (after retries).
    #[error("cannot connect to the NEOS server at {url}: {reason} (tried {attempts} times)")]
    Connect {
        /// The endpoint.
        url: String,
        /// What the system said.
        reason: String,
        /// Attempts made.
        attempts: u32,
    },
    /// The server did not answer in time (after retries).
    #[error(
        "the NEOS server at {url} did not answer {method} within {secs} s (tried {attempts} times)"
    )]
    Timeout {
        /// The endpoint.
        url: String,
        /// The XML-RPC method.
        method: String,
        /// The per-request timeout in seconds.
        secs: f64,
        /// Attempts made.
        attempts: u32,
    },
    /// The server answered with an HTTP error status.
    #[error("the NEOS server answered {method} with HTTP {status}: {body}")]
    Http {
        /// The XML-RPC method.
        method: String,
        /// The status code.
        status: u16,
        /// The start of the body.
        body: String,
    },
    /// An XML-RPC fault.
    #[error("the NEOS server reported a fault for {method}: {message} (fault code {code})")]
    Fault {
        /// The XML-RPC method.
        method: String,
        /// `faultCode`.
        code: i64,
        /// `faultString`.
        message: String,
    },
    /// The response is not the XML-RPC the method returns.
    #[error("malformed response to {method}: {detail}")]
    Malformed {
        /// The XML-RPC method.
        method: String,
        /// What is wrong.
        detail: String,
    },
    /// The server does not know the job.
    #[error("the NEOS server does not know job {0} (\"Unknown Job\")")]
    UnknownJob(i64),
    /// The password does not match the job.
    #[error("the NEOS server rejected the password of job {0} (\"Bad Password\")")]
    BadPassword(i64),
    /// NEOS refused a submission.
    #[error("NEOS refused the job: {0}")]
    Refused(String),
    /// The job ended without output tilekit can read.
    #[error("job {job}: {detail}")]
    Results {
        /// Job number.
        job: i64,
        /// What is wrong with the output.
        detail: String,
    },
    /// The job's GAMS stopped for a licensing error (an expired demo licence, say), so the
    /// job has no answer.
    #[error("job {job}: {problem}")]
    Licence {
        /// Job number.
        job: i64,
        /// What GAMS said of its licence.
        problem: crate::format::gams_log::LicenceProblem,
    },
    /// The local job file given cannot be read as one (unreadable, or not a tilekit job
    /// file): the user's input, like a bad flag.
    #[error("job file {path}: {detail}")]
    BadJobFile {
        /// Its path.
        path: String,
        /// What went wrong.
        detail: String,
    },
    /// The local job file could not be written.
    #[error("job file {path}: {detail}")]
    JobFile {
        /// Its path.
        path: String,
        /// What went wrong.
        detail: String,
    },
    /// Waiting for a job ran out of time.
    #[error(
        "job {job} is still {status} after {secs:.0} s: fetch it later with `tilekit neos results {job}`"
    )]
    NotDone {
        /// Job number.
        job: i64,
        /// Its last status.
        status: String,
        /// Seconds waited.
        secs: f64,
    },
}

impl NeosError {
    /// The process exit code: 2 for usage, job-reference and job-file input errors, 3 for
    /// server or system failures.
    pub fn exit_code(&self) -> i32 {
        match self {
            NeosError::Usage(_)
            | NeosError::UnknownJob(_)
            | NeosError::BadPassword(_)
            | NeosError::BadJobFile { .. } => 2,
            _ => 3,
        }
    }
}

impl From<crate::format::neos_job::JobError> for NeosError {
    fn from(e: crate::format::neos_job::JobError) -> Self {
        NeosError::Usage(e.to_string())
    }
}
