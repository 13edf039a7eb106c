//! The neighbourhoods of the local search (§3.3) behind one trait, and the ones that need
//! no solver of their own: Tile Assignment, Black-and-White, Tiles Swap and Rotation.

use super::{Ctx, HeuristicError};
use crate::puzzle::edge::Board;

/// One neighbourhood of the multi-neighbourhood local search.
pub trait Neighbourhood {
    /// Its short name in traces and progress lines (`TA`, `BO`, `BW`, `TSR`, `RO`).
    fn name(&self) -> &'static str;
    /// Search the neighbourhood of the complete `board` and move to a better or equal board
    /// in place. Never makes the board worse (matched seams, rim rule kept); returns the
    /// matched seams gained (0 when nothing better was found). Stops early at the deadline.
    fn improve(&mut self, ctx: &mut Ctx<'_>, board: &mut Board) -> Result<usize, HeuristicError>;
}
