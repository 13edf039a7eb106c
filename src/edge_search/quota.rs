//! Colour quotas for the depth-first search (Blackwood's forward pruning; see the project
//! notes): a few *counted* colours must be spent early. Once a position of the scan is
//! placed, the board must hold at least a set number of sides in those colours; a branch
//! below it is cut. The pieces left for the endgame, where the breaks are, then carry fewer
//! distinct colours, so more of them match there, much as if the puzzle had a colour fewer.
//!
//! Nothing here is tuned to Eternity II: the quota is a share of the counted sides the
//! board's own free pieces carry, rising along the scan on a concave curve, and never above
//! a share of the most that the cells placed so far could hold.

use super::core::{Core, ScanOrder};
use super::scan::Plan;

/// Which colours a quota counts, and how steeply it rises.
#[derive(Debug, Clone, PartialEq)]
pub struct QuotaSpec {
    /// The counted colours, as the puzzle numbers them.
    pub colours: Vec<u16>,
    /// The share of the scan placed before the quota starts to rise.
    pub start: f64,
    /// The share of the scan placed when the quota reaches [`Self::share`] of the counted
    /// sides.
    pub full: f64,
    /// The share of the counted sides required by [`Self::full`].
    pub share: f64,
    /// The curve's exponent (below 1: most of the quota is due early).
    pub power: f64,
    /// The most of what the placed cells could hold that the quota may ask for.
    pub cap: f64,
}

impl QuotaSpec {
    /// The default curve for `colours`: nothing due over the first sixteenth of the scan,
    /// then four fifths of the counted sides due by half of it, most of that early (the
    /// square root's shape, softened to the power 0.6), and never more than nine tenths of
    /// what the cells placed so far could hold. Blackwood's hand-made Eternity II curve has
    /// this shape; the figures are the best of the few tried on Eternity II (see the
    /// results page), where steeper curves cut most restarts off halfway down the board.
    pub fn new(colours: Vec<u16>) -> QuotaSpec {
        QuotaSpec {
            colours,
            start: 1.0 / 16.0,
            full: 0.5,
            share: 0.8,
            power: 0.6,
            cap: 0.9,
        }
    }

    /// Read `C,C,…` (the counted colours, as the puzzle numbers them).
    ///
    /// ```
    /// use tilekit::edge_search::quota::QuotaSpec;
    /// assert_eq!(QuotaSpec::parse("3,10,16").unwrap().colours, vec![3, 10, 16]);
    /// assert!(QuotaSpec::parse("3,x").is_err());
    /// ```
    pub fn parse(s: &str) -> Result<QuotaSpec, String> {
        let colours: Result<Vec<u16>, _> = s.split(',').map(|c| c.trim().parse::<u16>()).collect();
        match colours {
            Ok(c) if !c.is_empty() && !c.contains(&0) => Ok(QuotaSpec::new(c)),
            _ => Err(format!(
                "expected the counted colours as numbers above 0, separated by commas, not {s:?}"
            )),
        }
    }

    /// The quota for the scan `order` of `core`'s free cells; why not, when a counted
    /// colour is on no piece (a quota on it would silently ask for nothing).
    pub fn resolve(&self, core: &Core, order: ScanOrder) -> Result<Quota, String> {
        let dense: Vec<u8> = (0..core.ncolours() as u8)
            .filter(|&d| d != 0 && self.colours.contains(&core.colour(d)))
            .collect();
        if let Some(c) = self
            .colours
            .iter()
            .find(|&&c| !dense.iter().any(|&d| core.colour(d) == c))
        {
            return Err(format!(
                "colour {c} of the quota is on no piece of this puzzle"
            ));
        }
        let plan = Plan::new(core, order);
        let n = plan.len();
        let counted = |o: u16| -> u16 {
            let s = core.oriented(o).sides;
            s.iter().filter(|c| dense.contains(c)).count() as u16
        };
        // The free pieces' counted sides, by kind (rim sides: 0 inner, 1 border, 2 corner),
        // most first: the first k cells of a kind hold at most the k largest.
        let mut used = vec![false; core.pieces()];
        for c in 0..core.cells() {
            if let Some(o) = core.fixed(c) {
                used[core.oriented(o).piece as usize] = true;
            }
        }
        let mut by_kind: [Vec<u16>; 3] = Default::default();
        for (piece, _) in used.iter().enumerate().filter(|(_, u)| !**u) {
            let o = (piece * 4) as u16;
            let rims = core.oriented(o).sides.iter().filter(|&&c| c == 0).count();
            by_kind[rims.min(2)].push(counted(o));
        }
        let total: u16 = by_kind.iter().flatten().sum();
        for k in &mut by_kind {
            k.sort_unstable_by(|a, b| b.cmp(a));
        }
        let mut seen = [0usize; 3];
        let mut most = 0u32;
        let table = (0..n)
            .map(|i| {
                let kind = (core.class(plan.cell(i)).count_ones() as usize).min(2);
                most += by_kind[kind].get(seen[kind]).copied().unwrap_or(0) as u32;
                seen[kind] += 1;
                let x = (i + 1) as f64 / n as f64;
                let rise = ((x - self.start) / (self.full - self.start)).clamp(0.0, 1.0);
                let want = self.share * total as f64 * rise.powf(self.power);
                want.min(self.cap * most as f64).floor() as u16
            })
            .collect();
        Ok(Quota {
            colours: dense,
            table,
        })
    }
}

/// A resolved quota: the counted colours (dense, as [`Core`] numbers them) and, per
/// position of the scan, the fewest counted sides once it is placed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Quota {
    /// The counted colours, dense.
    pub colours: Vec<u8>,
    /// Per position of the scan.
    pub table: Vec<u16>,
}
