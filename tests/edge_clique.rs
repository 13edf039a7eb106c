//! The max-clique graph of edge-matching puzzles: exact node and edge counts on the META 2010
//! instances (Salassa et al. 2017, Table 1), the number of perfect boards by an independent
//! enumeration, snapshots of a tiny graph, and real cliquer runs whose cliques decode to
//! boards that the independent verifier calls perfect.
//!
//! A missing cliquer fails these tests loudly; without the `solver-tests` feature (`TILEKIT_SKIP_SOLVERS=1`) they show as ignored.

use crate::common::builtin;
use std::path::{Path, PathBuf};
use std::time::Duration;
use tilekit::format::solution::clique;
use tilekit::formulate::edge_clique::{self, CliqueOptions, EdgeClique, missing_cells};
use tilekit::model::graph;
use tilekit::puzzle::edge::{EdgePuzzle, generate};
use tilekit::solve::clique_external::{CliqueOutcome, solve_clique_file};
use tilekit::verify::edge::BoardChecker;

fn meta(n: usize) -> EdgePuzzle {
    let rel = format!("models/edge-matching/meta2010/pieces_{n:02}x{n:02}.txt");
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(&rel);
    EdgePuzzle::parse(&std::fs::read_to_string(path).unwrap(), &rel).unwrap()
}

fn write_graph(g: &EdgeClique, dir: &Path, name: &str) -> PathBuf {
    let path = dir.join(name);
    let f = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    tilekit::format::dimacs_graph::write_graph(g, false, true, f).unwrap();
    path
}

#[test]
fn meta_counts_match_the_paper() {
    // (size, nodes, edges): Salassa et al. Table 1; 5×5 and 6×6 are one below the paper's
    // 86184 and 674512 under these rules (see the research note).
    let want = [
        (3, 30, 291),
        (4, 138, 6707),
        (5, 478, 86183),
        (6, 1290, 674511),
        (7, 2910, 3620565),
        (8, 5770, 14751304),
    ];
    for (n, nodes, edges) in want {
        let g = edge_clique::build(&meta(n), &CliqueOptions::default());
        assert_eq!(
            (g.num_nodes(), g.count_edges(false)),
            (nodes, edges),
            "{n}x{n}"
        );
        assert_eq!(
            g.count_edges(true),
            (nodes * (nodes - 1) / 2) as u64 - edges,
            "{n}x{n}"
        );
        // Node-count formula of the note: 10 + (4(n−2))² + 4(n−2)⁴.
        let k = n - 2;
        assert_eq!(nodes, 10 + 16 * k * k + 4 * k.pow(4));
        if n <= 5 {
            // The streamed listing agrees with the combinatorial count, both ways.
            assert_eq!(graph::count_by_listing(&g, false), edges);
            assert_eq!(graph::count_by_listing(&g, true), g.count_edges(true));
        }
    }
    // Larger instances, counts only (independent all-pairs counts in the research note).
    for (n, nodes, edges, conflicts) in [
        (9, 10398, 49200267, 4853736),
        (10, 17418, 140717269, 10967384),
        (16, 156810, 11962157157, 332452488),
    ] {
        let g = edge_clique::build(&meta(n), &CliqueOptions::default());
        assert_eq!(
            (g.num_nodes(), g.count_edges(false), g.count_edges(true)),
            (nodes, edges, conflicts),
            "{n}x{n}"
        );
    }
    // Without R2: six more nodes (R1 only), as in the note's table.
    let g = edge_clique::build(
        &meta(4),
        &CliqueOptions {
            fix_first_corner: false,
        },
    );
    assert_eq!((g.num_nodes(), g.count_edges(false)), (144, 7472));
}

/// Count the cliques of `target` nodes (= perfect boards) by plain backtracking over cells in
/// node order, checking compatibility from the placements themselves, not the graph's
/// neighbour lists.
fn count_full_cliques(g: &EdgeClique) -> usize {
    let pl = g.placements();
    let cells = pl.rows() * pl.cols();
    let cols = pl.cols();
    let mut used = vec![false; pl.nodes().len() + 1];
    let mut chosen: Vec<usize> = Vec::new();
    fn rec(
        g: &EdgeClique,
        cell: usize,
        cells: usize,
        cols: usize,
        used: &mut Vec<bool>,
        chosen: &mut Vec<usize>,
    ) -> usize {
        if cell == cells {
            return 1;
        }
        let pl = g.placements();
        let mut total = 0;
        for v in pl.cell_range(cell) {
            let n = pl.nodes()[v];
            if used[n.piece as usize] {
                continue;
            }
            let left_ok = cell.is_multiple_of(cols)
                || pl.nodes()[chosen[cell - 1]].colours[1] == n.colours[3];
            let up_ok = cell < cols || pl.nodes()[chosen[cell - cols]].colours[2] == n.colours[0];
            if left_ok && up_ok {
                used[n.piece as usize] = true;
                chosen.push(v);
                total += rec(g, cell + 1, cells, cols, used, chosen);
                chosen.pop();
                used[n.piece as usize] = false;
            }
        }
        total
    }
    rec(g, 0, cells, cols, &mut used, &mut chosen)
}

#[test]
fn perfect_board_counts_with_the_first_corner_fixed() {
    for (n, want) in [(3, 2), (4, 12), (5, 1)] {
        let g = edge_clique::build(&meta(n), &CliqueOptions::default());
        assert_eq!(count_full_cliques(&g), want, "{n}x{n}");
    }
}

#[test]
fn tiny_graph_snapshots() {
    let (p, _) = generate(2, 3, 2, 1, 4).unwrap();
    let g = edge_clique::build(&p, &CliqueOptions::default());
    for complement in [false, true] {
        let mut out = Vec::new();
        let m = tilekit::format::dimacs_graph::write_graph(&g, complement, true, &mut out).unwrap();
        assert_eq!(m, g.count_edges(complement));
        let name = if complement {
            "tiny_2x3_complement"
        } else {
            "tiny_2x3_graph"
        };
        insta::assert_snapshot!(name, String::from_utf8(out).unwrap());
    }
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn cliquer_solves_meta_3x3_to_5x5() {
    let entry = builtin("cliquer");
    let dir = tempfile::tempdir().unwrap();
    for n in 3..=5 {
        let p = meta(n);
        let g = edge_clique::build(&p, &CliqueOptions::default());
        let path = write_graph(&g, dir.path(), &format!("meta{n}.dimacs"));
        let (outcome, run) = solve_clique_file(
            &entry,
            &path,
            dir.path(),
            Duration::from_secs(60),
            g.num_nodes(),
        )
        .unwrap();
        let CliqueOutcome::Found(c) = outcome else {
            panic!("{n}x{n}: {outcome:?} {run:?}")
        };
        assert_eq!(c.len(), n * n, "{n}x{n}: cliquer's maximum clique");
        assert_eq!(graph::first_non_adjacent(&g, &c), None);
        let board = g.decode(&c).unwrap();
        assert!(missing_cells(&board).is_empty());
        let v = BoardChecker.verdict(&p, &board, Some(0.0));
        assert!(v.valid && v.matched == v.max, "{n}x{n}: {v:?}");
    }
}

#[cfg_attr(
    not(feature = "solver-tests"),
    ignore = "runs installed solvers: feature solver-tests, which scripts/test.sh turns on"
)]
#[test]
fn generated_puzzles_round_trip_through_cliquer() {
    let entry = builtin("cliquer");
    let dir = tempfile::tempdir().unwrap();
    for seed in 0..6u64 {
        let (rows, cols) = [(3, 3), (3, 4), (4, 4), (2, 5), (4, 3), (4, 5)][seed as usize];
        let (p, _) = generate(rows, cols, 2, 3, seed).unwrap();
        for fix in [true, false] {
            let g = edge_clique::build(
                &p,
                &CliqueOptions {
                    fix_first_corner: fix,
                },
            );
            let path = write_graph(&g, dir.path(), "gen.dimacs");
            let (outcome, _) = solve_clique_file(
                &entry,
                &path,
                dir.path(),
                Duration::from_secs(60),
                g.num_nodes(),
            )
            .unwrap();
            let CliqueOutcome::Found(c) = outcome else {
                panic!("{rows}x{cols} seed {seed}: {outcome:?}")
            };
            let board = g.decode(&c).unwrap();
            let v = BoardChecker.verdict(&p, &board, Some(0.0));
            assert!(v.valid, "{rows}x{cols} seed {seed} fix {fix}: {v:?}");
        }
    }
}

#[test]
fn a_vertex_list_decodes_like_cliquer_output() {
    let (p, board) = generate(3, 3, 1, 2, 9).unwrap();
    let g = edge_clique::build(&p, &CliqueOptions::default());
    let c = g.encode(&board);
    // The planted board may have its fixed corner elsewhere; then it is no clique of this graph.
    let text: String = c.iter().map(|v| format!("{}\n", v + 1)).collect();
    let parsed = clique::parse(&text, "list", g.num_nodes()).unwrap();
    assert_eq!(parsed, c);
    assert_eq!(
        g.decode(&parsed).unwrap().cells.iter().flatten().count(),
        c.len()
    );
}

#[test]
fn error_message_snapshots() {
    let (p, board) = generate(3, 3, 1, 2, 5).unwrap();
    let g = edge_clique::build(
        &p,
        &CliqueOptions {
            fix_first_corner: false,
        },
    );
    let c = g.encode(&board);
    let n = g.num_nodes();
    let cell0 = g.node(c[0]).unwrap().cell as usize;
    let same_cell = g
        .placements()
        .cell_range(cell0)
        .find(|&v| v != c[0])
        .unwrap();
    let piece0 = g.node(c[0]).unwrap().piece;
    let same_piece = (0..n)
        .find(|&v| {
            let nd = g.node(v).unwrap();
            nd.piece == piece0 && nd.cell as usize != cell0
        })
        .unwrap();
    let mut msgs: Vec<String> = [vec![n], vec![c[0], same_cell], vec![c[0], same_piece]]
        .iter()
        .map(|ids| g.decode(ids).unwrap_err().to_string())
        .collect();
    for text in [
        "size=2, weight=2: 1 2\nSegmentation fault\n",
        "size=x, weight=2: 1 2\n",
        "size=2, weight=2 1 2\n",
        "size=3, weight=3: 1 2\n",
        "1 2 99\n",
        "0\n",
        "1 2\n2\n",
        "1 two\n",
    ] {
        msgs.push(
            clique::parse(text, "answer.txt", 20)
                .unwrap_err()
                .to_string(),
        );
    }
    msgs.push(
        clique::parse_cliquer("\n", "answer.txt", 20)
            .unwrap_err()
            .to_string(),
    );
    insta::assert_snapshot!("clique_error_messages", msgs.join("\n"));
}
