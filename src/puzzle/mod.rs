//! The puzzles themselves: parsing, validation, moves.

pub mod edge;
pub mod sliding;
