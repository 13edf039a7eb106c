//! `tilekit report results.sqlite -o DIR`: what a campaign's database says, as tables and
//! charts: solved counts and shifted geometric mean times per configuration (solver × model ×
//! format), Dolan–Moré performance profiles and cactus plots per family (SVG, drawn with
//! plotters), an HTML page that shows them, and the cross-check's conflicts.
//!
//! A run **solved** its model when it answered it completely: a proven optimum (or a proof
//! of infeasibility) for a MILP, a verified model or UNSAT for a CNF or a clique graph (a
//! decision question: "is there a perfect board", "is there a plan within this horizon").
//! A time limit, a solver error or an answer that failed verification is not solved, and
//! counts at the time limit in the mean. Nor is a run whose claim the cross-check refutes
//! (another run's verified solution beats its proven optimum or bound, its bound lies above
//! the known optimum, or its answer is impossible): it counts as failed.

use super::crosscheck::{self, Conflict};
use super::db::{Db, StoredRun};
use crate::field::Field;
use crate::route::{Error, output};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// `tilekit report`, as the flags say it.
#[derive(Debug, Clone)]
pub struct ReportRequest {
    /// The results database.
    pub db: PathBuf,
    /// The directory to write.
    pub output: PathBuf,
    /// The shift of the geometric mean, in seconds.
    pub shift: f64,
}

/// What `report` wrote.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ReportSummary {
    /// Runs read.
    pub runs: usize,
    /// Configurations (solver × model × format).
    pub configurations: usize,
    /// Conflicts found by the cross-check.
    pub conflicts: usize,
    /// The files written.
    pub files: Vec<String>,
}

/// One configuration's line of the tables.
#[derive(Debug, Clone, PartialEq)]
pub struct ConfigStats {
    /// `solver: model format`.
    pub config: String,
    /// `sliding` or `edge`.
    pub family: String,
    /// Runs.
    pub runs: usize,
    /// Runs that solved their model.
    pub solved: usize,
    /// Runs stopped by the time limit.
    pub time_limit: usize,
    /// Runs killed at the memory limit.
    pub memory_limit: usize,
    /// Solver errors, answers that failed verification and claims the cross-check refutes.
    pub failed: usize,
    /// The shifted geometric mean of the times (unsolved at the time limit).
    pub sgm: f64,
    /// The mean anytime score of its runs that have one ([`quality`]; NaN: none has).
    pub score: f64,
    /// The mean primal gap of its runs that have one (NaN: none has).
    pub gap: f64,
}

/// Did the run answer its model completely?
pub fn solved(r: &StoredRun) -> bool {
    let row = &r.row;
    let decision = matches!(r.model.as_str(), "sat" | "clique");
    match row.status.as_str() {
        // PAVER's rule: a verified solution that the solver calls optimal counts as solved;
        // the cross-check, not this count, is what tests the claim.
        "solved" => row.verified && (super::crosscheck::optimal_or_claimed(row) || decision),
        "infeasible" => true,
        _ => false,
    }
}

/// The shifted geometric mean exp(mean ln(t + s)) − s (Achterberg's convention for solver
/// benchmarks: the shift keeps very short runs from dominating).
pub fn shifted_geometric_mean(times: &[f64], shift: f64) -> f64 {
    if times.is_empty() {
        return f64::NAN;
    }
    let mean = times.iter().map(|t| (t + shift).ln()).sum::<f64>() / times.len() as f64;
    mean.exp() - shift
}

/// Dolan–Moré performance profile: for each configuration, the ratio of its time to the best
/// configuration's on every problem it was run on (`None`: not solved, an infinite ratio),
/// sorted. A problem no configuration solved keeps every ratio infinite.
pub fn profile(
    times: &BTreeMap<String, BTreeMap<String, Option<f64>>>,
) -> BTreeMap<String, Vec<f64>> {
    let mut best: BTreeMap<&str, f64> = BTreeMap::new();
    for per in times.values() {
        for (problem, t) in per {
            if let Some(t) = t {
                let b = best.entry(problem).or_insert(f64::INFINITY);
                *b = b.min(*t);
            }
        }
    }
    let problems: Vec<&str> = {
        let mut p: Vec<&str> = times
            .values()
            .flat_map(|per| per.keys().map(String::as_str))
            .collect();
        p.sort_unstable();
        p.dedup();
        p
    };
    times
        .iter()
        .map(|(config, per)| {
            let mut ratios: Vec<f64> = problems
                .iter()
                .map(|p| match (per.get(*p).copied().flatten(), best.get(p)) {
                    // A time of 0 (a clock's resolution) is taken as a millisecond.
                    (Some(t), Some(&b)) => t.max(1e-3) / b.max(1e-3),
                    _ => f64::INFINITY,
                })
                .collect();
            ratios.sort_by(f64::total_cmp);
            (config.clone(), ratios)
        })
        .collect()
}

/// The reference objective of each instance (by SHA-256) for the quality measures: the
/// known optimum, else the best of the best known value and every verified objective the
/// campaign found (the virtual best), counting no run in `refuted`. Both families minimise a
/// count (moves, unmatched seams), so the lowest is best.
pub fn references(runs: &[StoredRun], refuted: &BTreeSet<i64>) -> BTreeMap<String, f64> {
    let mut refs: BTreeMap<String, f64> = BTreeMap::new();
    let mut lower = |inst: &str, v: f64| {
        let e = refs.entry(inst.to_string()).or_insert(v);
        *e = e.min(v);
    };
    for r in runs {
        if let Some(k) = r.known_optimum {
            lower(&r.instance_sha256, k);
            continue;
        }
        if let Some(b) = r.best_known {
            lower(&r.instance_sha256, b);
        }
        if r.row.status == "solved"
            && r.row.verified
            && !refuted.contains(&r.id)
            && let Some(o) = r.row.objective
        {
            lower(&r.instance_sha256, o);
        }
    }
    refs
}

/// The quality of one run against its instance's reference: the primal gap
/// |objective − reference| / max(objective, reference) (0 when both are 0), and the MaxSAT
/// Evaluation's anytime score (reference + 1) / (objective + 1), 0 without a verified answer.
/// A proven infeasible model has neither (its answer is right, and no objective is asked), nor
/// has a run of an instance with no reference.
pub fn quality(
    r: &StoredRun,
    refs: &BTreeMap<String, f64>,
    refuted: &BTreeSet<i64>,
) -> (Option<f64>, Option<f64>) {
    let Some(&reference) = refs.get(&r.instance_sha256) else {
        return (None, None);
    };
    if r.row.status == "infeasible" {
        return (None, None);
    }
    let found = (r.row.status == "solved" && r.row.verified && !refuted.contains(&r.id))
        .then_some(r.row.objective)
        .flatten();
    match found {
        Some(o) => {
            let gap = if o == reference {
                0.0
            } else {
                (o - reference).abs() / o.abs().max(reference.abs())
            };
            (Some(gap), Some(((reference + 1.0) / (o + 1.0)).min(1.0)))
        }
        None => (None, Some(0.0)),
    }
}

/// A configuration: solver, model and format, and the seed when it is not the solver's
/// default, so that the runs of several seeds show as the lines of performance variability.
fn config_of(r: &StoredRun) -> String {
    match r.row.seed {
        0 => format!("{}: {} {}", r.row.solver, r.model, r.format),
        seed => format!("{} seed {seed}: {} {}", r.row.solver, r.model, r.format),
    }
}

/// The ids of the runs whose claims `conflicts` refute ([`Conflict::refuted`]).
pub fn refuted(conflicts: &[Conflict]) -> BTreeSet<i64> {
    conflicts.iter().filter_map(Conflict::refuted).collect()
}

/// The tables' lines, by family then configuration; a run in `refuted` is failed, whatever
/// it claimed.
pub fn stats(runs: &[StoredRun], refuted: &BTreeSet<i64>, shift: f64) -> Vec<ConfigStats> {
    let solved = |r: &StoredRun| solved(r) && !refuted.contains(&r.id);
    let refs = references(runs, refuted);
    let mean = |xs: Vec<f64>| {
        if xs.is_empty() {
            f64::NAN
        } else {
            xs.iter().sum::<f64>() / xs.len() as f64
        }
    };
    let mut by: BTreeMap<(String, String), Vec<&StoredRun>> = BTreeMap::new();
    for r in runs {
        by.entry((r.family.clone(), config_of(r)))
            .or_default()
            .push(r);
    }
    by.into_iter()
        .map(|((family, config), rs)| {
            let qualities: Vec<(Option<f64>, Option<f64>)> =
                rs.iter().map(|r| quality(r, &refs, refuted)).collect();
            let times: Vec<f64> = rs
                .iter()
                .map(|r| {
                    if solved(r) {
                        r.row.seconds
                    } else {
                        r.row.time_limit
                    }
                })
                .collect();
            ConfigStats {
                config,
                family,
                runs: rs.len(),
                solved: rs.iter().filter(|r| solved(r)).count(),
                time_limit: rs.iter().filter(|r| r.row.status == "time_limit").count(),
                memory_limit: rs.iter().filter(|r| r.row.status == "memory_limit").count(),
                failed: rs
                    .iter()
                    .filter(|r| {
                        matches!(r.row.status.as_str(), "error" | "unverified")
                            || refuted.contains(&r.id)
                    })
                    .count(),
                sgm: shifted_geometric_mean(&times, shift),
                score: mean(qualities.iter().filter_map(|q| q.1).collect()),
                gap: mean(qualities.iter().filter_map(|q| q.0).collect()),
            }
        })
        .collect()
}

/// Write the report.
pub fn report(req: &ReportRequest) -> Result<(ReportSummary, Vec<Conflict>), Error> {
    if !req.db.is_file() {
        return Err(Error::Usage(format!(
            "{}: no such results database (tilekit run … {f_db} writes one)",
            req.db.display(),
            f_db = Field::Db
        )));
    }
    if !(req.shift.is_finite() && req.shift >= 0.0) {
        return Err(Error::usage(format!(
            "{} must be a number of seconds ≥ 0",
            Field::Shift
        )));
    }
    let db = Db::open(&req.db)?;
    let runs = db.runs()?;
    if runs.is_empty() {
        return Err(Error::Usage(format!(
            "{}: the database holds no run yet",
            req.db.display()
        )));
    }
    let conflicts = crosscheck::check(&runs);
    let refuted = refuted(&conflicts);
    let table = stats(&runs, &refuted, req.shift);
    let dir = &req.output;
    std::fs::create_dir_all(dir).map_err(|e| {
        Error::Usage(format!(
            "{}: cannot create the directory: {e}",
            dir.display()
        ))
    })?;
    let mut files = Vec::new();
    let mut write = |name: &str, text: &str| -> Result<(), Error> {
        output::write_to(Some(&dir.join(name)), text.as_bytes())?;
        files.push(name.to_string());
        Ok(())
    };
    write("solved.csv", &solved_csv(&table))?;
    write("sgm.csv", &sgm_csv(&table, req.shift))?;
    write("quality.csv", &quality_csv(&table))?;
    let refs = references(&runs, &refuted);
    write("runs.csv", &runs_csv(&runs, &refs, &refuted))?;
    write("paver.trc", &paver_trace(&runs, &refuted))?;
    let mut charts = Vec::new();
    let families: Vec<String> = {
        let mut f: Vec<String> = runs.iter().map(|r| r.family.clone()).collect();
        f.dedup();
        f.sort();
        f.dedup();
        f
    };
    for family in &families {
        let mut times: BTreeMap<String, BTreeMap<String, Option<f64>>> = BTreeMap::new();
        for r in runs.iter().filter(|r| &r.family == family) {
            let t = (solved(r) && !refuted.contains(&r.id)).then_some(r.row.seconds);
            times
                .entry(config_of(r))
                .or_default()
                .insert(r.instance.clone(), t);
        }
        let virtual_best = virtual_best(&times);
        times.insert(VIRTUAL_BEST.into(), virtual_best);
        let profile_svg = profile_chart(family, &profile(&times))?;
        let cactus_svg = cactus_chart(family, &times)?;
        let (p, c) = (
            format!("profile-{family}.svg"),
            format!("cactus-{family}.svg"),
        );
        write(&p, &profile_svg)?;
        write(&c, &cactus_svg)?;
        charts.push((family.clone(), p, c));
    }
    let md = summary_md(&req.db, &table, &conflicts, &runs, req.shift);
    write("summary.md", &md)?;
    write(
        "index.html",
        &index_html(&table, &conflicts, &charts, req.shift),
    )?;
    Ok((
        ReportSummary {
            runs: runs.len(),
            configurations: table.len(),
            conflicts: conflicts.len(),
            files,
        },
        conflicts,
    ))
}

fn solved_csv(table: &[ConfigStats]) -> String {
    let mut s = String::from("family,configuration,runs,solved,time_limit,failed,memory_limit\n");
    for t in table {
        s.push_str(&format!(
            "{},{},{},{},{},{},{}\n",
            t.family,
            super::manifest::csv_field(&t.config),
            t.runs,
            t.solved,
            t.time_limit,
            t.failed,
            t.memory_limit
        ));
    }
    s
}

/// The name of the virtual best solver's line in the charts.
pub const VIRTUAL_BEST: &str = "virtual best";

/// The virtual best solver (Paver's `CAN_SOLVE`): on each problem, the fastest time any
/// configuration solved it in.
pub fn virtual_best(
    times: &BTreeMap<String, BTreeMap<String, Option<f64>>>,
) -> BTreeMap<String, Option<f64>> {
    let mut best: BTreeMap<String, Option<f64>> = BTreeMap::new();
    for per in times.values() {
        for (problem, t) in per {
            let b = best.entry(problem.clone()).or_insert(None);
            if let Some(t) = t {
                *b = Some(b.map_or(*t, |b: f64| b.min(*t)));
            }
        }
    }
    best
}

fn number(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.4}")
    } else {
        String::new()
    }
}

fn opt(x: Option<f64>) -> String {
    x.map_or_else(String::new, |x| x.to_string())
}

fn quality_csv(table: &[ConfigStats]) -> String {
    let mut s = String::from("family,configuration,runs,mean_score,mean_gap\n");
    for t in table {
        s.push_str(&format!(
            "{},{},{},{},{}\n",
            t.family,
            super::manifest::csv_field(&t.config),
            t.runs,
            number(t.score),
            number(t.gap)
        ));
    }
    s
}

/// One row per run, tidy (for pandas, R, a spreadsheet): the run, its file and instance, the
/// reference objective, and its gap and anytime score ([`quality`]).
fn runs_csv(runs: &[StoredRun], refs: &BTreeMap<String, f64>, refuted: &BTreeSet<i64>) -> String {
    use super::manifest::csv_field;
    let mut s = String::from(
        "id,instance,family,model,format,path,horizon,solver,solver_version,time_limit,threads,seed,status,verified,optimal,solver_claim,refuted,objective,bound,solver_bound,known_optimum,best_known,reference,gap,score,seconds,solver_wall_s,solver_cpu_s,solver_max_rss_kb,executor,host,finished_at,log_dir\n",
    );
    for r in runs {
        let w = &r.row;
        let (gap, score) = quality(r, refs, refuted);
        let fields = [
            r.id.to_string(),
            csv_field(&r.instance),
            r.family.clone(),
            r.model.clone(),
            r.format.clone(),
            csv_field(&r.path),
            r.horizon.map_or_else(String::new, |h| h.to_string()),
            csv_field(&w.solver),
            csv_field(w.solver_version.as_deref().unwrap_or("")),
            w.time_limit.to_string(),
            w.threads.to_string(),
            w.seed.to_string(),
            w.status.clone(),
            (w.verified as u8).to_string(),
            (w.optimal as u8).to_string(),
            w.solver_claim
                .map_or("", crate::route::Claim::as_str)
                .to_string(),
            (refuted.contains(&r.id) as u8).to_string(),
            opt(w.objective),
            opt(w.bound),
            opt(w.solver_bound),
            opt(r.known_optimum),
            opt(r.best_known),
            opt(refs.get(&r.instance_sha256).copied()),
            gap.map_or_else(String::new, number),
            score.map_or_else(String::new, number),
            w.seconds.to_string(),
            opt(w.measured.solver_wall_s),
            opt(w.measured.solver_cpu_s),
            w.measured
                .solver_max_rss_kb
                .map_or_else(String::new, |k| k.to_string()),
            w.executor.clone(),
            csv_field(&w.host),
            w.finished_at.to_string(),
            csv_field(w.measured.log_dir.as_deref().unwrap_or("")),
        ];
        s.push_str(&fields.join(","));
        s.push('\n');
    }
    s
}

/// The runs as a GAMS/Paver trace file: `InputFileName` is the model file's name without its
/// format and compression (the `.solu` file's names), the statuses GAMS's codes (model: 1
/// optimal, 8 an integer solution, 19 infeasible with no solution, 14 no solution returned;
/// solver: 1 normal completion, 3 a resource interrupt, 10 a solver failure, which is what
/// an answer failing verification is). A refuted claim of optimality is reported as a plain
/// solution. `ObjectiveValueEstimate` is the bound tilekit proved, else the dual bound the
/// solver's log claims (Paver checks such claims against the `.solu` values itself). Missing
/// values are `NA`.
fn paver_trace(runs: &[StoredRun], refuted: &BTreeSet<i64>) -> String {
    let mut s = String::from(
        "* Trace Record Definition\n* InputFileName,ModelType,SolverName,Direction,ModelStatus,SolverStatus,ObjectiveValue,ObjectiveValueEstimate,SolverTime\n*\n",
    );
    let na = |x: Option<f64>| x.map_or_else(|| "NA".to_string(), |x| x.to_string());
    for r in runs {
        let w = &r.row;
        let name = super::manifest::model_name(&r.path, &r.format);
        let model_type = match r.format.as_str() {
            "lp" | "mps" | "gms" | "opb" => "MIP",
            "cnf" => "SAT",
            "wcnf" | "wcnf-legacy" | "wbo" => "MAXSAT",
            _ => "CLIQUE",
        };
        let claimed_optimal = super::crosscheck::optimal_or_claimed(w) && !refuted.contains(&r.id);
        let (model_status, solver_status) = match w.status.as_str() {
            "solved" if w.verified && claimed_optimal => (1, 1),
            "solved" if w.verified => (8, 1),
            "infeasible" => (19, 1),
            "unbounded" => (3, 1),
            "time_limit" | "memory_limit" => (14, 3),
            "no_solution" => (14, 1),
            _ => (14, 10),
        };
        let objective = if w.verified { w.objective } else { None };
        s.push_str(&format!(
            "{},{model_type},{},0,{model_status},{solver_status},{},{},{}\n",
            super::manifest::csv_field(name),
            super::manifest::csv_field(&w.solver),
            na(objective),
            na(w.bound.or(w.solver_bound)),
            w.measured.solver_wall_s.unwrap_or(w.seconds)
        ));
    }
    s
}

fn sgm_csv(table: &[ConfigStats], shift: f64) -> String {
    let mut s = format!("family,configuration,runs,sgm_seconds_shift_{shift}\n");
    for t in table {
        s.push_str(&format!(
            "{},{},{},{:.4}\n",
            t.family,
            super::manifest::csv_field(&t.config),
            t.runs,
            t.sgm
        ));
    }
    s
}

fn summary_md(
    db: &Path,
    table: &[ConfigStats],
    conflicts: &[Conflict],
    runs: &[StoredRun],
    shift: f64,
) -> String {
    let instances: std::collections::BTreeSet<&str> =
        runs.iter().map(|r| r.instance_sha256.as_str()).collect();
    let mut s = format!(
        "# Campaign report: {}\n\n{} runs on {} instances, {} configurations. Solved: a proven optimum or infeasibility (MILP), a verified model or UNSAT (CNF, clique); failed: a solver error, an answer that failed verification, or a claim the conflicts below refute. Times are wall seconds per run, tilekit's model building included; the shifted geometric mean (shift {shift} s) counts unsolved runs at their time limit. Score: the MaxSAT Evaluation's anytime score, (reference + 1) / (objective + 1), 0 without a verified answer; gap: |objective − reference| / max of the two; the reference is the known optimum, else the best of the best known value and every verified answer (runs.csv has them per run).\n\n",
        db.display(),
        runs.len(),
        instances.len(),
        table.len()
    );
    s.push_str("| family | configuration | runs | solved | time limit | memory limit | failed | SGM (s) | score | gap |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for t in table {
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {:.3} | {} | {} |\n",
            t.family,
            t.config,
            t.runs,
            t.solved,
            t.time_limit,
            t.memory_limit,
            t.failed,
            t.sgm,
            dash(t.score),
            dash(t.gap)
        ));
    }
    s.push_str(&format!("\n## Conflicts: {}\n\n", conflicts.len()));
    if conflicts.is_empty() {
        s.push_str("Every proven optimum agrees, and no verified solution beats a proven bound or a known optimum.\n");
    }
    for c in conflicts {
        s.push_str(&format!(
            "- **{}** ({}): {}\n",
            c.instance,
            c.kind.as_str(),
            c.detail
        ));
    }
    s
}

/// A mean for a table: three decimals, or a dash when there is none.
fn dash(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.3}")
    } else {
        "–".into()
    }
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn index_html(
    table: &[ConfigStats],
    conflicts: &[Conflict],
    charts: &[(String, String, String)],
    shift: f64,
) -> String {
    let mut s = String::from(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>tilekit campaign report</title>\n<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #999;padding:2px 8px}td.n{text-align:right}</style></head><body>\n<h1>Campaign report</h1>\n",
    );
    s.push_str(&format!(
        "<p>Solved: a proven optimum or infeasibility (MILP), a verified model or UNSAT (CNF, clique); failed: a solver error, an answer that failed verification, or a claim the conflicts below refute. SGM: shifted geometric mean of wall seconds, shift {shift} s, unsolved at the time limit.</p>\n<table><tr><th>family</th><th>configuration</th><th>runs</th><th>solved</th><th>time limit</th><th>memory limit</th><th>failed</th><th>SGM (s)</th><th>score</th><th>gap</th></tr>\n"
    ));
    for t in table {
        s.push_str(&format!(
            "<tr><td>{}</td><td>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{:.3}</td><td class=n>{}</td><td class=n>{}</td></tr>\n",
            html_escape(&t.family),
            html_escape(&t.config),
            t.runs,
            t.solved,
            t.time_limit,
            t.memory_limit,
            t.failed,
            t.sgm,
            dash(t.score),
            dash(t.gap)
        ));
    }
    s.push_str("</table>\n");
    for (family, p, c) in charts {
        s.push_str(&format!(
            "<h2>{}</h2>\n<img src=\"{p}\" alt=\"performance profile\"> <img src=\"{c}\" alt=\"cactus plot\">\n",
            html_escape(family)
        ));
    }
    s.push_str(&format!("<h2>Conflicts: {}</h2>\n<ul>\n", conflicts.len()));
    for c in conflicts {
        s.push_str(&format!(
            "<li><b>{}</b> ({}): {}</li>\n",
            html_escape(&c.instance),
            c.kind.as_str(),
            html_escape(&c.detail)
        ));
    }
    s.push_str("</ul>\n</body></html>\n");
    s
}

/// Twelve colours a reader can tell apart (a campaign of many configurations repeats them).
const PALETTE: [plotters::style::RGBColor; 12] = [
    plotters::style::RGBColor(31, 119, 180),
    plotters::style::RGBColor(214, 39, 40),
    plotters::style::RGBColor(44, 160, 44),
    plotters::style::RGBColor(148, 103, 189),
    plotters::style::RGBColor(255, 127, 14),
    plotters::style::RGBColor(23, 190, 207),
    plotters::style::RGBColor(140, 86, 75),
    plotters::style::RGBColor(0, 0, 0),
    plotters::style::RGBColor(227, 119, 194),
    plotters::style::RGBColor(188, 189, 34),
    plotters::style::RGBColor(127, 127, 127),
    plotters::style::RGBColor(0, 0, 128),
];

fn chart_error(e: &dyn std::fmt::Display) -> Error {
    Error::Failure(format!("drawing the chart: {e}"))
}

/// The profile as step lines: the share of problems within a factor 2^x of the best.
fn profile_chart(family: &str, profile: &BTreeMap<String, Vec<f64>>) -> Result<String, Error> {
    use plotters::prelude::*;
    let finite_max = profile
        .values()
        .flatten()
        .filter(|r| r.is_finite())
        .fold(1.0f64, |a, &b| a.max(b));
    let x_max = finite_max.log2().max(1.0) * 1.05;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (720, 420)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| chart_error(&e))?;
        let mut ch = ChartBuilder::on(&root)
            .caption(
                format!("{family}: performance profile (Dolan–Moré)"),
                ("sans-serif", 18),
            )
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(48)
            .build_cartesian_2d(0f64..x_max, 0f64..1.02)
            .map_err(|e| chart_error(&e))?;
        ch.configure_mesh()
            .x_desc("log2 of the time ratio to the best")
            .y_desc("share of problems")
            .draw()
            .map_err(|e| chart_error(&e))?;
        for (i, (config, ratios)) in profile.iter().enumerate() {
            let colour = PALETTE[i % PALETTE.len()];
            let n = ratios.len().max(1) as f64;
            let mut pts = vec![(0.0, 0.0)];
            let mut share = 0.0;
            for r in ratios.iter().filter(|r| r.is_finite()) {
                let x = r.log2().max(0.0);
                pts.push((x, share));
                share += 1.0 / n;
                pts.push((x, share));
            }
            pts.push((x_max, share));
            ch.draw_series(LineSeries::new(pts, colour.stroke_width(2)))
                .map_err(|e| chart_error(&e))?
                .label(config.clone())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 16, y)], colour.stroke_width(2))
                });
        }
        crate::route::bench::legend(&mut ch).map_err(|e| chart_error(&e))?;
        root.present().map_err(|e| chart_error(&e))?;
    }
    Ok(svg)
}

/// The cactus plot: each configuration's solved times, sorted, against the number solved.
fn cactus_chart(
    family: &str,
    times: &BTreeMap<String, BTreeMap<String, Option<f64>>>,
) -> Result<String, Error> {
    use plotters::prelude::*;
    let sorted: Vec<(&String, Vec<f64>)> = times
        .iter()
        .map(|(c, per)| {
            let mut t: Vec<f64> = per.values().flatten().copied().collect();
            t.sort_by(f64::total_cmp);
            (c, t)
        })
        .collect();
    let n_max = sorted
        .iter()
        .map(|(_, t)| t.len())
        .max()
        .unwrap_or(0)
        .max(1);
    let t_max = sorted
        .iter()
        .flat_map(|(_, t)| t.iter().copied())
        .fold(0.01f64, f64::max);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (720, 420)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| chart_error(&e))?;
        let mut ch = ChartBuilder::on(&root)
            .caption(format!("{family}: cactus plot"), ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(48)
            .build_cartesian_2d(0f64..(n_max as f64 + 0.5), 0f64..t_max * 1.05)
            .map_err(|e| chart_error(&e))?;
        ch.configure_mesh()
            .x_desc("problems solved")
            .y_desc("seconds")
            .draw()
            .map_err(|e| chart_error(&e))?;
        for (i, (config, t)) in sorted.iter().enumerate() {
            let colour = PALETTE[i % PALETTE.len()];
            let pts: Vec<(f64, f64)> = t
                .iter()
                .enumerate()
                .map(|(k, &s)| ((k + 1) as f64, s))
                .collect();
            ch.draw_series(LineSeries::new(pts, colour.stroke_width(2)))
                .map_err(|e| chart_error(&e))?
                .label((*config).clone())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 16, y)], colour.stroke_width(2))
                });
        }
        ch.configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(|e| chart_error(&e))?;
        root.present().map_err(|e| chart_error(&e))?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shifted_geometric_mean_by_hand() {
        // exp((ln 11 + ln 21)/2) − 10 = sqrt(231) − 10.
        let g = shifted_geometric_mean(&[1.0, 11.0], 10.0);
        assert!((g - (231f64.sqrt() - 10.0)).abs() < 1e-12, "{g}");
        // Shift 0: the plain geometric mean.
        assert!((shifted_geometric_mean(&[2.0, 8.0], 0.0) - 4.0).abs() < 1e-12);
        assert!(shifted_geometric_mean(&[], 10.0).is_nan());
    }

    #[test]
    fn the_profile_by_hand() {
        // Three configurations on four problems; p4 solved by nobody, a tie on p1.
        let mut t: BTreeMap<String, BTreeMap<String, Option<f64>>> = BTreeMap::new();
        let mut put = |c: &str, v: [Option<f64>; 4]| {
            let per = t.entry(c.into()).or_default();
            for (i, x) in v.into_iter().enumerate() {
                per.insert(format!("p{}", i + 1), x);
            }
        };
        put("a", [Some(1.0), Some(2.0), None, None]);
        put("b", [Some(1.0), Some(1.0), Some(8.0), None]);
        put("c", [Some(4.0), None, Some(2.0), None]);
        let p = profile(&t);
        let inf = f64::INFINITY;
        assert_eq!(p["a"], vec![1.0, 2.0, inf, inf]);
        assert_eq!(p["b"], vec![1.0, 1.0, 4.0, inf]);
        assert_eq!(p["c"], vec![1.0, 4.0, inf, inf]);
        // Nothing solved at all: every ratio infinite.
        let mut none: BTreeMap<String, BTreeMap<String, Option<f64>>> = BTreeMap::new();
        none.entry("x".into()).or_default().insert("p".into(), None);
        assert_eq!(profile(&none)["x"], vec![inf]);
    }
}
