//! Edge-matching: every shipped instance parses and validates, every shipped Brendan set-1
//! solution is perfect under the independent checker, and generator properties.

use proptest::prelude::*;
use std::path::{Path, PathBuf};
use tilekit::puzzle::edge::{
    self, Board, EdgePuzzle, Rotation, generate, parse_board, parse_brendan_solution, score,
};
use tilekit::verify::edge::check_board;

fn models() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("models/edge-matching")
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(models().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn files(dir: &str, prefix: &str) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(models().join(dir))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(prefix) && n.ends_with(".txt"))
        .map(|n| format!("{dir}/{n}"))
        .collect();
    v.sort();
    v
}

fn kinds(p: &EdgePuzzle) -> [usize; 3] {
    let mut k = [0; 3];
    for pc in p.pieces() {
        k[pc.greys().min(2)] += 1;
    }
    [k[2], k[1], k[0]] // corner, edge, inner
}

#[test]
fn every_shipped_instance_parses_and_validates() {
    let mut n = 0;
    for dir in ["meta2010", "brendan_set1"] {
        let fs = files(dir, "pieces_");
        assert_eq!(fs.len(), 14, "{dir}");
        for f in fs {
            let p = EdgePuzzle::parse(&read(&f), &f).unwrap_or_else(|e| panic!("{e}"));
            // pieces_NNxNN.txt
            let side: usize = f[f.len() - 6..f.len() - 4].parse().unwrap();
            assert_eq!((p.rows(), p.cols()), (side, side), "{f}");
            n += 1;
        }
    }
    // The official set and the clue puzzles have no header: the size is inferred.
    // Distinct non-grey colours: frame + inner, per the README's statistics table.
    for (f, rows, cols, k, colours) in [
        ("eternity2/e2pieces.txt", 16, 16, [4, 56, 196], 22),
        ("eternity2/clue1.txt", 6, 6, [4, 16, 16], 7),
        ("eternity2/clue2.txt", 6, 12, [4, 28, 40], 8),
        ("eternity2/clue3.txt", 6, 6, [4, 16, 16], 9),
        ("eternity2/clue4.txt", 6, 12, [4, 28, 40], 9),
    ] {
        let p = EdgePuzzle::parse(&read(f), f).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((p.rows(), p.cols()), (rows, cols), "{f}");
        assert_eq!(kinds(&p), k, "{f}");
        let distinct: std::collections::BTreeSet<u16> = p
            .pieces()
            .iter()
            .flat_map(|pc| pc.colours)
            .filter(|&c| c != 0)
            .collect();
        assert_eq!(distinct.len(), colours, "{f}");
        n += 1;
    }
    assert_eq!(n, 33);
    // The META 2010 16×16 uses 5 frame + 17 inner colours, like the real puzzle.
    let m16 = EdgePuzzle::parse(&read("meta2010/pieces_16x16.txt"), "m16").unwrap();
    assert_eq!(m16.max_colour(), 22);
}

#[test]
fn every_shipped_brendan_solution_is_perfect() {
    let sols = files("brendan_set1", "solutions_");
    assert_eq!(sols.len(), 7);
    for s in sols {
        let pf = s.replace("solutions_", "pieces_");
        let p = EdgePuzzle::parse(&read(&pf), &pf).unwrap();
        let b = parse_brendan_solution(&read(&s), &s).unwrap_or_else(|e| panic!("{e}"));
        let v = check_board(p.rows(), p.cols(), &p.colours(), &b.raw_cells(), Some(0.0));
        assert!(v.valid, "{s}: {:?}", v.errors);
        assert_eq!(v.matched, v.max, "{s}");
        assert_eq!(v.max, 2 * p.rows() * p.cols() - p.rows() - p.cols());
        assert!(score(&p, &b).is_perfect(), "{s}");
        // Our board format round-trips the same solution, colours included.
        let again = parse_board(&b.to_text_with_colours(&p), &s, Some(&p)).unwrap();
        assert_eq!(again, b);
    }
}

#[test]
fn a_solution_of_another_size_is_rejected_not_panicking() {
    let p = EdgePuzzle::parse(&read("brendan_set1/pieces_04x04.txt"), "p4").unwrap();
    let b = parse_brendan_solution(&read("brendan_set1/solutions_05x05.txt"), "s5").unwrap();
    let v = check_board(p.rows(), p.cols(), &p.colours(), &b.raw_cells(), None);
    assert!(!v.valid);
    assert!(parse_board(&b.to_text(), "s5", Some(&p)).is_err());
}

fn rotated(b: &Board, cell: usize, by: Rotation) -> Board {
    let mut b = b.clone();
    if let Some((id, r)) = b.cells[cell] {
        b.cells[cell] = Some((id, r.then(by)));
    }
    b
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn generate_print_parse_round_trip(
        rows in 2usize..9, cols in 2usize..9, f in 1u16..5, i in 1u16..8, seed in any::<u64>()
    ) {
        let (p, b) = generate(rows, cols, f, i, seed).unwrap();
        prop_assert_eq!(EdgePuzzle::parse(&p.to_text(), "gen").unwrap(), p.clone());
        prop_assert_eq!(parse_board(&b.to_text(), "sol", Some(&p)).unwrap(), b.clone());
        let (inst, sol) = edge::generate_texts(rows, cols, f, i, seed).unwrap();
        let p2 = EdgePuzzle::parse(&inst, "gen").unwrap();
        prop_assert_eq!(&p2, &p);
        prop_assert_eq!(parse_board(&sol, "sol", Some(&p2)).unwrap(), b);
    }

    #[test]
    fn generated_solution_verifies_perfect(
        rows in 2usize..10, cols in 2usize..10, f in 1u16..5, i in 1u16..8, seed in any::<u64>()
    ) {
        let (p, b) = generate(rows, cols, f, i, seed).unwrap();
        let v = check_board(rows, cols, &p.colours(), &b.raw_cells(), Some(0.0));
        prop_assert!(v.valid, "{:?}", v.errors);
        prop_assert_eq!(v.matched, p.max_score());
        prop_assert!(score(&p, &b).is_perfect());
    }

    /// Turning one piece breaks a perfect board, unless the piece looks the same after the
    /// turn (e.g. four equal inner sides), which no checker could tell apart.
    #[test]
    fn rotating_one_piece_breaks_a_perfect_board(
        rows in 3usize..8, cols in 3usize..8, f in 1u16..4, i in 2u16..6, seed in any::<u64>(),
        pick in any::<prop::sample::Index>(), turns in 1u8..4
    ) {
        let (p, b) = generate(rows, cols, f, i, seed).unwrap();
        let cell = pick.index(rows * cols);
        let by = Rotation::new(turns).unwrap();
        let (id, r) = b.cells[cell].unwrap();
        let piece = p.piece(id).unwrap();
        let b2 = rotated(&b, cell, by);
        let v = check_board(rows, cols, &p.colours(), &b2.raw_cells(), None);
        if piece.placed(r) == piece.placed(r.then(by)) {
            prop_assert!(v.valid && v.matched == v.max);
        } else {
            prop_assert!(!v.valid || v.matched < v.max, "{:?}", v);
            prop_assert!(!score(&p, &b2).is_perfect());
        }
    }

    /// The puzzle's scoring and the independent checker agree on arbitrary (shuffled) boards.
    #[test]
    fn score_and_checker_agree(
        rows in 2usize..7, cols in 2usize..7, seed in any::<u64>(),
        perm in Just(()).prop_perturb(|_, mut rng| {
            (0..64).map(|_| (rng.next_u32() as usize, (rng.next_u32() % 4) as u8)).collect::<Vec<_>>()
        })
    ) {
        let (p, mut b) = generate(rows, cols, 2, 3, seed).unwrap();
        let n = rows * cols;
        for (k, &(j, t)) in perm.iter().enumerate().take(n) {
            b.cells.swap(k, j % n);
            let (id, _) = b.cells[k].unwrap();
            b.cells[k] = Some((id, Rotation::new(t).unwrap()));
        }
        let s = score(&p, &b);
        let v = check_board(rows, cols, &p.colours(), &b.raw_cells(), Some(s.unmatched() as f64));
        prop_assert_eq!(v.matched, s.matched);
        prop_assert_eq!(v.valid, s.rim_faults == 0);
    }
}
