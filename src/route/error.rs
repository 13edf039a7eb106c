//! The crate's one error type: every failure that is not an answer, with the exit code the
//! command line gives it.

use crate::certify::CertifyError;
use crate::error::InputError;
use crate::neos::NeosError;
use crate::solve::SolveError;
use crate::solve::registry::RegistryError;

/// Everything that can go wrong in a route that is not an answer about the puzzle.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A usage error: an unknown name, flags that do not go together (exit 2).
    #[error("{0}")]
    Usage(String),
    /// Bad input, with the file and line (exit 2).
    #[error(transparent)]
    Input(#[from] InputError),
    /// A solver registry that cannot be read, or a solver it does not have (exit 2).
    #[error(transparent)]
    Registry(#[from] RegistryError),
    /// A solver could not run or gave an unreadable or contradictory answer (exit 3).
    #[error(transparent)]
    Solve(SolveError),
    /// A certificate could not be made or checked for reasons other than its verdict
    /// (exit 3).
    #[error(transparent)]
    Certify(#[from] CertifyError),
    /// A NEOS service call failed (exit 2 for usage, 3 for the server).
    #[error(transparent)]
    Neos(#[from] NeosError),
    /// Standard output is a pipe whose reader has gone (`tilekit … | head`): the command
    /// ends quietly, as `cat` does, with the shell's code for SIGPIPE (141).
    #[error("standard output is closed")]
    ClosedPipe,
    /// A system or engine failure not covered above: a file that cannot be written, a
    /// search that failed (exit 3).
    #[error("{0}")]
    Failure(String),
}

impl From<SolveError> for Error {
    /// A NEOS failure that came through the solver trait ([`SolveError::Remote`]) becomes
    /// [`Error::Neos`] again, so that it keeps its own exit code (2 for an unknown job or a
    /// bad password, 3 for the server) and its message.
    fn from(e: SolveError) -> Self {
        match e {
            SolveError::Remote(inner) => match inner.downcast::<NeosError>() {
                Ok(neos) => Error::Neos(*neos),
                Err(other) => Error::Solve(SolveError::Remote(other)),
            },
            other => Error::Solve(other),
        }
    }
}

impl Error {
    /// The command line's exit code: 2 for usage and input errors, 3 for solver and system
    /// failures (0 and 1 are answers, never errors).
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Usage(_) | Error::Input(_) | Error::Registry(_) => 2,
            Error::Neos(e) => u8::try_from(e.exit_code()).unwrap_or(3),
            Error::Solve(_) | Error::Certify(_) | Error::Failure(_) => 3,
            Error::ClosedPipe => 141,
        }
    }

    /// A usage error from any message.
    pub fn usage(msg: impl Into<String>) -> Self {
        Error::Usage(msg.into())
    }

    /// A failure from anything displayable.
    pub fn failure(e: impl std::fmt::Display) -> Self {
        Error::Failure(e.to_string())
    }
}
