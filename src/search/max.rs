//! The maximum of two admissible heuristics, each updated move by move: for two pattern
//! partitions of the same board, whose lookups catch different interactions (Korf & Felner's
//! 7-8 rows against a 7-8 split by columns). The maximum of admissible estimates is
//! admissible (and consistent when both are; with the dual lookups neither is, and BPMX
//! propagates the differences).

use super::ida::Heuristic;

/// `max(a, b)`, with both accumulators carried per node.
#[derive(Debug)]
pub struct Max<A, B> {
    /// The first heuristic.
    pub a: A,
    /// The second.
    pub b: B,
}

impl<A: Heuristic, B: Heuristic> Heuristic for Max<A, B> {
    type Acc = (A::Acc, B::Acc);

    fn init(&self, tiles: &[u8]) -> Self::Acc {
        (self.a.init(tiles), self.b.init(tiles))
    }

    #[inline]
    fn update(&self, acc: &Self::Acc, tiles: &[u8], tile: u8, from: usize, to: usize) -> Self::Acc {
        (
            self.a.update(&acc.0, tiles, tile, from, to),
            self.b.update(&acc.1, tiles, tile, from, to),
        )
    }

    #[inline]
    fn value(&self, acc: &Self::Acc) -> u32 {
        self.a.value(&acc.0).max(self.b.value(&acc.1))
    }

    #[inline]
    fn refine(&self, acc: &Self::Acc) -> u32 {
        self.a.refine(&acc.0).max(self.b.refine(&acc.1))
    }

    fn refines(&self) -> bool {
        self.a.refines() || self.b.refines()
    }

    #[inline]
    fn update_deferred(
        &self,
        acc: &Self::Acc,
        into: &mut Self::Acc,
        tiles: &[u8],
        mv: (u8, usize, usize),
    ) {
        self.a.update_deferred(&acc.0, &mut into.0, tiles, mv);
        self.b.update_deferred(&acc.1, &mut into.1, tiles, mv);
    }

    #[inline]
    fn complete(&self, acc: &mut Self::Acc) {
        self.a.complete(&mut acc.0);
        self.b.complete(&mut acc.1);
    }

    #[inline]
    fn partial_value(&self, acc: &Self::Acc) -> u32 {
        self.a
            .partial_value(&acc.0)
            .max(self.b.partial_value(&acc.1))
    }
}
