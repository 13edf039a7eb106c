//! Parsers for solver output files.
