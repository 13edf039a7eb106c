//! The blank's moves on a `rows × cols` board: the move codes and each cell's neighbours,
//! shared by the search ([`super::ida`]) and the duplicate-pruning automaton
//! ([`super::fsm`]), which both read paths as move codes.

/// Move codes used inside the search: the blank goes up, down, left, right. `m ^ 1` undoes `m`.
pub const UP: u8 = 0;
/// See [`UP`].
pub const DOWN: u8 = 1;
/// See [`UP`].
pub const LEFT: u8 = 2;
/// See [`UP`].
pub const RIGHT: u8 = 3;

/// The blank's neighbours on a `rows × cols` board, as (cell, move code).
pub fn neighbours(rows: usize, cols: usize) -> Vec<Vec<(usize, u8)>> {
    (0..rows * cols)
        .map(|c| {
            let (r, k) = (c / cols, c % cols);
            let mut v = Vec::with_capacity(4);
            if r > 0 {
                v.push((c - cols, UP));
            }
            if r + 1 < rows {
                v.push((c + cols, DOWN));
            }
            if k > 0 {
                v.push((c - 1, LEFT));
            }
            if k + 1 < cols {
                v.push((c + 1, RIGHT));
            }
            v
        })
        .collect()
}
