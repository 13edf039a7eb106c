//! Snapshots of the files written for one tiny instance: the 2×2 board `1 2 / 0 3`, solved
//! by one move of the blank, as the NEOS MILP (LP and MPS, horizon 3; the flow and tight
//! MILPs likewise) and as planning-as-SAT
//! (DIMACS CNF, horizon 3). A change in any writer or formulation shows up here as a diff
//! to review. The GAMS file of the same instance is already snapshotted in
//! `src/format/gams.rs` (`snapshot_2x2_horizon_3`), so it is not repeated here.

use tilekit::format::dimacs_cnf::write_cnf;
use tilekit::format::lp::write_lp;
use tilekit::format::mps::write_mps;
use tilekit::formulate::{sliding_case_study, sliding_flow, sliding_sat, sliding_tight};
use tilekit::{Goal, Model, SlidingPuzzle};

const HORIZON: usize = 3;

fn puzzle() -> SlidingPuzzle {
    let p = SlidingPuzzle::parse("1 2\n0 3\n", "tiny", Goal::BlankLast).unwrap();
    assert!(p.is_solvable(Goal::BlankLast));
    assert!(!p.is_goal(Goal::BlankLast));
    p
}

fn neos_model() -> Model {
    sliding_case_study::build(&puzzle(), Goal::BlankLast, HORIZON)
        .unwrap()
        .model
}

fn lp_bytes() -> Vec<u8> {
    let mut out = Vec::new();
    let n = write_lp(&neos_model(), &mut out).unwrap();
    assert_eq!(n as usize, out.len());
    out
}

fn mps_bytes() -> Vec<u8> {
    let mut out = Vec::new();
    let n = write_mps(&neos_model(), &mut out).unwrap();
    assert_eq!(n as usize, out.len());
    out
}

fn cnf_bytes() -> Vec<u8> {
    let enc = sliding_sat::build(&puzzle(), Goal::BlankLast, HORIZON);
    let mut out = Vec::new();
    let n = write_cnf(enc.cnf(), &mut out).unwrap();
    assert_eq!(n as usize, out.len());
    out
}

fn text(b: Vec<u8>) -> String {
    String::from_utf8(b).expect("writers produce UTF-8 (ASCII)")
}

#[test]
fn neos_2x2_lp() {
    insta::assert_snapshot!("neos_2x2_h3_lp", text(lp_bytes()));
}

#[test]
fn neos_2x2_mps() {
    insta::assert_snapshot!("neos_2x2_h3_mps", text(mps_bytes()));
}

fn flow_bytes(mps: bool) -> Vec<u8> {
    let m = sliding_flow::build(&puzzle(), Goal::BlankLast, HORIZON)
        .unwrap()
        .model;
    let mut out = Vec::new();
    if mps {
        write_mps(&m, &mut out).unwrap();
    } else {
        write_lp(&m, &mut out).unwrap();
    }
    out
}

#[test]
fn flow_2x2_lp_and_mps() {
    insta::assert_snapshot!("flow_2x2_h3_lp", text(flow_bytes(false)));
    insta::assert_snapshot!("flow_2x2_h3_mps", text(flow_bytes(true)));
    assert_eq!(flow_bytes(false), flow_bytes(false));
    assert_eq!(flow_bytes(true), flow_bytes(true));
}

fn tight_bytes(mps: bool) -> Vec<u8> {
    // The bound the route passes is the native heuristic's; Manhattan distance (1 here) is one.
    let p = puzzle();
    let m = sliding_tight::build(&p, Goal::BlankLast, HORIZON, p.manhattan(Goal::BlankLast))
        .unwrap()
        .model;
    let mut out = Vec::new();
    if mps {
        write_mps(&m, &mut out).unwrap();
    } else {
        write_lp(&m, &mut out).unwrap();
    }
    out
}

#[test]
fn tight_2x2_lp_and_mps() {
    insta::assert_snapshot!("tight_2x2_h3_lp", text(tight_bytes(false)));
    insta::assert_snapshot!("tight_2x2_h3_mps", text(tight_bytes(true)));
    assert_eq!(tight_bytes(false), tight_bytes(false));
    assert_eq!(tight_bytes(true), tight_bytes(true));
}

/// The 0/1 sliding models as OPB: `flow` as built, `tight` with its tail's columns binary.
#[test]
fn flow_and_tight_2x2_opb() {
    let p = puzzle();
    let opb = |m: &Model| {
        let mut out = Vec::new();
        tilekit::format::opb::write_opb(m, &mut out).unwrap();
        out
    };
    let flow = sliding_flow::build(&p, Goal::BlankLast, HORIZON)
        .unwrap()
        .model;
    let tight = sliding_tight::build_pure_binary(
        &p,
        Goal::BlankLast,
        HORIZON,
        p.manhattan(Goal::BlankLast),
    )
    .unwrap()
    .model;
    insta::assert_snapshot!("flow_2x2_h3_opb", text(opb(&flow)));
    insta::assert_snapshot!("tight_2x2_h3_opb", text(opb(&tight)));
    assert_eq!(opb(&tight), opb(&tight));
    // The same columns and rows as the MILP `tight`, every one 0/1.
    let milp = sliding_tight::build(&p, Goal::BlankLast, HORIZON, p.manhattan(Goal::BlankLast))
        .unwrap()
        .model;
    assert_eq!(
        (milp.num_vars(), milp.num_rows(), milp.num_nonzeros()),
        (tight.num_vars(), tight.num_rows(), tight.num_nonzeros())
    );
}

#[test]
fn sat_2x2_cnf() {
    insta::assert_snapshot!("sat_2x2_h3_cnf", text(cnf_bytes()));
}

#[test]
fn every_file_is_byte_identical_when_written_twice() {
    assert_eq!(lp_bytes(), lp_bytes(), "LP");
    assert_eq!(mps_bytes(), mps_bytes(), "MPS");
    assert_eq!(cnf_bytes(), cnf_bytes(), "CNF");
    // Also from one model written twice, not just two builds of it.
    let m = neos_model();
    let (mut a, mut b) = (Vec::new(), Vec::new());
    write_mps(&m, &mut a).unwrap();
    write_mps(&m, &mut b).unwrap();
    assert_eq!(a, b);
    let (mut a, mut b) = (Vec::new(), Vec::new());
    write_lp(&m, &mut a).unwrap();
    write_lp(&m, &mut b).unwrap();
    assert_eq!(a, b);
}
