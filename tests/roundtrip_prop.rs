//! Property tests: every format tilekit both writes and reads comes back equal. (The CNF's
//! round trip is a property test beside its writer, `format::dimacs_cnf`.)

use proptest::prelude::*;
use tilekit::format::neos_job::{InputMethod, JobSpec, Priority, parse_job, write_job};
use tilekit::puzzle::edge::{EdgePuzzle, generate, generate_texts, parse_any_board};
use tilekit::puzzle::sliding::{Move, moves_to_string, parse_moves};

fn arb_move() -> impl Strategy<Value = Move> {
    prop_oneof![
        Just(Move::Up),
        Just(Move::Down),
        Just(Move::Left),
        Just(Move::Right)
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Move files: written as letters, read back as the same moves.
    #[test]
    fn moves_round_trip(moves in proptest::collection::vec(arb_move(), 0..300)) {
        let text = format!("# a plan\n{}\n", moves_to_string(&moves));
        prop_assert_eq!(parse_moves(&text, "plan").unwrap(), moves);
    }

    /// Generated edge instances parse back to the generator's puzzle, and its planted board
    /// in both board formats (plain and with colours) parses back to the same board.
    #[test]
    fn edge_instances_and_boards_round_trip(
        rows in 2usize..8,
        cols in 2usize..8,
        frame in 1u16..5,
        inner in 1u16..9,
        seed in any::<u64>(),
    ) {
        let (puzzle, board) = generate(rows, cols, frame, inner, seed).unwrap();
        let (inst_text, sol_text) = generate_texts(rows, cols, frame, inner, seed).unwrap();
        let parsed = EdgePuzzle::parse(&inst_text, "gen").unwrap();
        prop_assert_eq!(&parsed, &puzzle);
        prop_assert_eq!(&parse_any_board(&sol_text, "sol", &parsed).unwrap(), &board);
        let coloured = board.to_text_with_colours(&parsed);
        prop_assert_eq!(&parse_any_board(&coloured, "col", &parsed).unwrap(), &board);
        prop_assert_eq!(&parse_any_board(&board.to_text(), "plain", &parsed).unwrap(), &board);
    }

    /// NEOS job documents: written, read back field for field, whatever the model text
    /// holds (XML's special characters included).
    #[test]
    fn neos_jobs_round_trip(
        category in "[a-z]{1,8}",
        solver in "[A-Za-z][A-Za-z0-9_.-]{0,20}",
        input in prop_oneof![Just(InputMethod::Lp), Just(InputMethod::Mps), Just(InputMethod::Gams)],
        long in any::<bool>(),
        user in "[a-z]{1,10}",
        model in "[ -~\n]{0,400}",
        comments in "[ -~]{0,80}",
    ) {
        let spec = JobSpec {
            category,
            solver,
            input,
            priority: if long { Priority::Long } else { Priority::Short },
            email: format!("{user}@example.org"),
            model,
            comments,
        };
        let mut out = Vec::new();
        write_job(&spec, &mut out).unwrap();
        let back = parse_job(std::str::from_utf8(&out).unwrap()).unwrap();
        prop_assert_eq!(back, spec);
    }
}

/// The characters XML and CDATA sections are touchy about, in the model text itself.
#[test]
fn a_model_with_xml_specials_round_trips() {
    let spec = JobSpec {
        category: "milp".into(),
        solver: "Cbc".into(),
        input: InputMethod::Lp,
        priority: Priority::Short,
        email: "a@example.org".into(),
        model: "\\ a < b && c > d ]]> e ]] > f <![CDATA[ g\n".into(),
        comments: "x ]]> y & z".into(),
    };
    let mut out = Vec::new();
    write_job(&spec, &mut out).unwrap();
    assert_eq!(parse_job(std::str::from_utf8(&out).unwrap()).unwrap(), spec);
}
