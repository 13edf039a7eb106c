//! The puzzles themselves: parsing, validation, moves.

pub mod sliding;
