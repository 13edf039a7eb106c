//! Bytes in and out: model writers and solution-file parsers, one file per format.

pub mod solution;
