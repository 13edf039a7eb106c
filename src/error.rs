//! Errors shared by every parser: where the problem is, and one sentence saying what.

use std::fmt;

/// Bad input: a file (or `<stdin>`, or a label) with an optional 1-based line number.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct InputError {
    /// The file name or label the text came from.
    pub source_name: String,
    /// 1-based line number, when the problem sits on one line.
    pub line: Option<usize>,
    /// One sentence saying what was wrong and what was expected.
    pub message: String,
}

impl InputError {
    /// An error on a given line.
    pub fn at(source_name: &str, line: usize, message: impl Into<String>) -> Self {
        InputError {
            source_name: source_name.to_string(),
            line: Some(line),
            message: message.into(),
        }
    }
    /// An error about the whole input.
    pub fn whole(source_name: &str, message: impl Into<String>) -> Self {
        InputError {
            source_name: source_name.to_string(),
            line: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(l) => write!(f, "{}:{}: {}", self.source_name, l, self.message),
            None => write!(f, "{}: {}", self.source_name, self.message),
        }
    }
}
