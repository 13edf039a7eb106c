//! The max-clique route, for any [`GraphFormulation`]: a maximum clique from a
//! [`CliqueSolver`], checked to be a clique of the graph, decoded and judged by the family's
//! [`Checker`]. A maximum clique smaller than the target size proves there is no perfect
//! solution.

use super::{Answer, Checked, Progress, Status, with_heartbeat};
use crate::formulate::GraphFormulation;
use crate::model::answer::CliqueOutcome;
use crate::solve::{CliqueSolver, Limits, SolveError};
use crate::verify::Checker;
use std::borrow::Borrow;

/// Check a clique answer: pairwise adjacent in the graph, decoded and checked by `checker`
/// claiming a perfect solution (objective 0).
pub fn check<G, C>(
    g: &G,
    checker: &C,
    instance: &C::Instance,
    ids: &[usize],
) -> Checked<G::Solution>
where
    G: GraphFormulation,
    C: Checker,
    G::Solution: Borrow<C::Solution>,
{
    let mut errors = Vec::new();
    if let Some((a, b)) = crate::model::graph::first_non_adjacent(g, ids) {
        errors.push(format!(
            "vertices {} and {} are not adjacent in the graph, so the answer is not a clique",
            a + 1,
            b + 1
        ));
    }
    Checked::judge_decoded(errors, g.decode(ids), checker, instance, Some(0.0))
}

/// Solve `g` with `solver` and judge the answer.
pub fn solve<G, C>(
    g: &G,
    checker: &C,
    instance: &C::Instance,
    solver: &dyn CliqueSolver,
    limits: &Limits,
    progress: Progress<'_>,
) -> Result<Answer<G::Solution>, SolveError>
where
    G: GraphFormulation,
    C: Checker,
    G::Solution: Borrow<C::Solution>,
{
    progress(&format!(
        "clique graph: {} nodes, {} edges; solving with {}",
        g.num_nodes(),
        g.count_edges(false),
        solver.name()
    ));
    let outcome = with_heartbeat(progress, solver.name(), limits.time, || {
        solver.solve(g, limits)
    })?;
    Ok(match outcome {
        CliqueOutcome::TimeLimit => Answer::without(Status::TimeLimit, "killed at the time limit"),
        CliqueOutcome::Found(ids) => {
            let words = format!("maximum clique of {} vertices", ids.len());
            let target = g.target_size();
            if ids.len() < target {
                // The solver proves its clique maximum: no clique covers every cell.
                let mut a = Answer::without(Status::Infeasible, words);
                a.errors.push(format!(
                    "no perfect {n}: the maximum clique has {} of the {target} vertices a {n} needs",
                    ids.len(),
                    n = checker.noun()
                ));
                a
            } else {
                Answer::judged(check(g, checker, instance, &ids), true, None, words)
            }
        }
    })
}
