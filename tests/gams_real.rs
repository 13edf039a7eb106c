//! The generated GAMS model against the real `gams` (demo licence, bundled CPLEX): it
//! compiles at the case study's horizon, it solves the case study's instance to its known
//! 11-move optimum, its size matches the LP model's, and its solution file decodes by name
//! onto the LP model and replays to the goal.
//!
//! They need a licensed GAMS, and are ignored unless the `test-gams` feature is on:
//! `scripts/test.sh` checks the licence once and turns the feature on when it is valid. With
//! the feature on, a missing or unlicensed `gams` fails them.

use crate::common::gams;
use std::path::Path;
use tilekit::format::gams::{GamsOptions, SOLUTION_FILE, parse_gams_solution, write_gms};
use tilekit::formulate::sliding_case_study;
use tilekit::{ColumnValues, Goal, Move, Outcome, SlidingPuzzle};

const CASE_STUDY: &str = "5 1 2 3\n9 6 7 4\n13 10 11 8\n14 15 0 12\n";

fn case_study() -> SlidingPuzzle {
    SlidingPuzzle::parse(CASE_STUDY, "case-study", Goal::BlankLast).unwrap()
}

/// Write the model into `dir/name` and return its text.
fn write_model(
    dir: &Path,
    name: &str,
    puzzle: &SlidingPuzzle,
    goal: Goal,
    horizon: usize,
) -> String {
    let mut buf = Vec::new();
    let model = sliding_case_study::algebraic(puzzle, goal, horizon).unwrap();
    write_gms(&model, &GamsOptions::default(), &mut buf).unwrap();
    let text = String::from_utf8(buf).unwrap();
    std::fs::write(dir.join(name), &text).unwrap();
    text
}

/// The listing's compilation-error lines: `****` followed by a `$code` marker under the
/// source line or by the numbered message. (A clean listing still has `**** FILE SUMMARY`.)
fn error_markers(lst: &str) -> Vec<&str> {
    lst.lines()
        .filter(|l| {
            l.strip_prefix("****")
                .map(str::trim_start)
                .and_then(|rest| rest.chars().next())
                .is_some_and(|c| c == '$' || c.is_ascii_digit())
        })
        .collect()
}

/// The words after `label` on the listing's MODEL STATISTICS line that carries it, with
/// GAMS's thousands separators removed ("1,223" → "1223").
fn statistic(lst: &str, label: &str) -> Vec<String> {
    let line = lst
        .lines()
        .find(|l| l.contains(label))
        .unwrap_or_else(|| panic!("no {label:?} in the listing"));
    let after = &line[line.find(label).unwrap() + label.len()..];
    after
        .split_whitespace()
        .map(|w| w.replace(',', ""))
        .collect()
}

fn count(words: &[String]) -> usize {
    words
        .first()
        .and_then(|w| w.parse().ok())
        .unwrap_or_else(|| panic!("no count in {words:?}"))
}

/// The blank's moves from u/d/l/r levels, in step order; idle steps carry no move.
fn decode_moves(values: &ColumnValues) -> Vec<Move> {
    let ColumnValues::ByName(values) = values else {
        panic!("expected values by name, got {values:?}");
    };
    let mut moves: Vec<(usize, Move)> = Vec::new();
    for (name, v) in values {
        let Some((dir, step)) = name.split_once("_t") else {
            continue;
        };
        let m = match dir {
            "u" => Move::Up,
            "d" => Move::Down,
            "l" => Move::Left,
            "r" => Move::Right,
            _ => continue,
        };
        assert_eq!(
            *v, 1.0,
            "{name} = {v}: binaries are written rounded and only when nonzero"
        );
        moves.push((step.parse().unwrap(), m));
    }
    moves.sort_by_key(|&(s, _)| s);
    assert!(
        moves.windows(2).all(|w| w[0].0 < w[1].0),
        "two moves in one step: {moves:?}"
    );
    moves.into_iter().map(|(_, m)| m).collect()
}

#[test]
#[cfg_attr(not(feature = "test-gams"), ignore = "needs a licensed GAMS")]
fn case_study_at_horizon_80_compiles() {
    let dir = tempfile::tempdir().unwrap();
    write_model(dir.path(), "case80.gms", &case_study(), Goal::BlankLast, 80);
    let out = gams(dir.path(), "case80.gms", &["action=c", "lo=0"]);
    let lst = std::fs::read_to_string(dir.path().join("case80.lst")).unwrap();
    assert_eq!(out.status.code(), Some(0), "gams compile failed:\n{lst}");
    assert_eq!(
        error_markers(&lst),
        Vec::<&str>::new(),
        "errors in the listing"
    );
}

#[test]
#[cfg_attr(not(feature = "test-gams"), ignore = "needs a licensed GAMS")]
fn broken_model_fails_the_compile_check() {
    let dir = tempfile::tempdir().unwrap();
    let text = write_model(dir.path(), "ok.gms", &case_study(), Goal::BlankLast, 5);
    // An unknown symbol in one equation: the check must notice it.
    let broken = text.replacen("p(i,t) - p(i,t-1) =l=", "q(i,t) - p(i,t-1) =l=", 1);
    assert_ne!(broken, text);
    std::fs::write(dir.path().join("broken.gms"), broken).unwrap();
    let out = gams(dir.path(), "broken.gms", &["action=c", "lo=0"]);
    assert_eq!(out.status.code(), Some(2));
    let lst = std::fs::read_to_string(dir.path().join("broken.lst")).unwrap();
    let markers = error_markers(&lst);
    assert!(
        markers.iter().any(|l| l.contains("140  Unknown symbol")),
        "{markers:?}"
    );
}

#[test]
#[cfg_attr(not(feature = "test-gams"), ignore = "needs a licensed GAMS")]
fn case_study_at_horizon_13_solves_to_11_moves() {
    let puzzle = case_study();
    let horizon = 13;
    let dir = tempfile::tempdir().unwrap();
    write_model(dir.path(), "case13.gms", &puzzle, Goal::BlankLast, horizon);
    let out = gams(dir.path(), "case13.gms", &["lo=0"]);
    let lst = std::fs::read_to_string(dir.path().join("case13.lst")).unwrap();
    assert_eq!(out.status.code(), Some(0), "gams failed:\n{lst}");

    // Size: GAMS counts the LP model's rows and columns plus its objective row and `moves`.
    // Fixed variables (periods 0 and T) are counted too. The "N projected" after the count
    // is not about fixing: it is the p, x, y of periods 1..T-1, whose default level 0 lies
    // below their lower bound 1 and is moved into bounds before the solve.
    let (n, t) = (puzzle.cells(), horizon);
    let rows = t * (4 + 6 * (n - 1));
    let cols = (n - 1) * (t + 1) + 2 * (t + 1) + 4 * t + (n - 1) * t;
    assert_eq!(sliding_case_study::size(4, 4, horizon), (cols, rows));
    assert_eq!(count(&statistic(&lst, "SINGLE EQUATIONS")), rows + 1);
    let vars = statistic(&lst, "SINGLE VARIABLES");
    assert_eq!(count(&vars), cols + 1);
    let projected = (n - 1 + 2) * (t - 1);
    assert_eq!(vars[1..], [projected.to_string(), "projected".to_string()]);
    assert!(lst.contains("**** MODEL STATUS      1 Optimal"));

    let text = std::fs::read_to_string(dir.path().join(SOLUTION_FILE)).unwrap();
    let sol = parse_gams_solution(&text, SOLUTION_FILE).unwrap();
    assert_eq!(sol.outcome, Outcome::Optimal, "{}", sol.status_text);
    assert_eq!(sol.objective, Some(11.0));

    // Every name is one of the LP model's variables.
    let neos = sliding_case_study::build(&puzzle, Goal::BlankLast, horizon).unwrap();
    let x = sol.resolve(&neos.model).unwrap();
    assert_eq!(x.len(), cols);

    let moves = decode_moves(&sol.values);
    assert_eq!(moves.len(), 11);
    let end = puzzle.replay(&moves).unwrap();
    assert!(
        end.is_goal(Goal::BlankLast),
        "replay ends at\n{}",
        end.to_text()
    );
}

#[test]
#[cfg_attr(not(feature = "test-gams"), ignore = "needs a licensed GAMS")]
fn rectangular_blank_first_walk_solves_and_replays() {
    // A planted 2×3 instance for Korf's goal: the optimum is at most the walk's length,
    // and has its parity.
    let (puzzle, walk) = SlidingPuzzle::random_walk(2, 3, Goal::BlankFirst, 7, 3);
    let horizon = 9;
    let dir = tempfile::tempdir().unwrap();
    write_model(dir.path(), "walk.gms", &puzzle, Goal::BlankFirst, horizon);
    let out = gams(dir.path(), "walk.gms", &["lo=0"]);
    assert_eq!(out.status.code(), Some(0));
    let text = std::fs::read_to_string(dir.path().join(SOLUTION_FILE)).unwrap();
    let sol = parse_gams_solution(&text, SOLUTION_FILE).unwrap();
    assert_eq!(sol.outcome, Outcome::Optimal, "{}", sol.status_text);
    let moves = decode_moves(&sol.values);
    assert_eq!(sol.objective, Some(moves.len() as f64));
    assert!(moves.len() <= walk.len() && moves.len() % 2 == walk.len() % 2);
    assert!(puzzle.replay(&moves).unwrap().is_goal(Goal::BlankFirst));
    let neos = sliding_case_study::build(&puzzle, Goal::BlankFirst, horizon).unwrap();
    sol.resolve(&neos.model).unwrap();
}
