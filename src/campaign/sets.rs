//! The instance sets a campaign runs over: the published and shipped sets compiled into the
//! binary (`korf100`, `hardest80`, `meta2010`, …, each with an optional `:FIRST-LAST` range), a
//! directory or list file of instance files, or a generator spec
//! (`generate:edge:rows=7,cols=7,frame=3,inner=6,count=20,seed=1`). Every instance carries
//! its known optimum, when one is known, and where that number comes from, so that a
//! campaign's cross-check can hold solvers to it.

use crate::field::Field;
use crate::puzzle::edge::{self as edge_puzzle, EdgePuzzle};
use crate::puzzle::sliding::{Goal, SlidingPuzzle};
use crate::route::{Error, FamilyName, families};
use crate::search::sets::{self, BenchSet};
use crate::verify::Checker;
use crate::verify::edge::BoardChecker;
use std::path::{Path, PathBuf};

/// One instance of a set, as a campaign writes it (`instances/<id>.txt`).
#[derive(Debug, Clone, PartialEq)]
pub struct SetInstance {
    /// A name unique in the set, usable as a file name (`korf100-007`, `meta2010-05x05`).
    pub id: String,
    /// The puzzle family.
    pub family: FamilyName,
    /// The instance file's text.
    pub text: String,
    /// Sliding puzzles: the goal convention the set uses (the file cannot say it).
    pub goal: Option<Goal>,
    /// The optimal objective, when known: moves for a sliding puzzle, unmatched inner seams
    /// for an edge-matching one.
    pub known_optimum: Option<u64>,
    /// Where `known_optimum` comes from.
    pub optimum_source: Option<String>,
    /// Without a known optimum: the best objective known, and where it comes from.
    pub best_known: Option<(u64, String)>,
}

/// A resolved set: its instances in the set's own order.
#[derive(Debug, Clone)]
pub struct InstanceSet {
    /// The spec as given.
    pub spec: String,
    /// Where the instances come from, in words.
    pub provenance: String,
    /// The instances.
    pub instances: Vec<SetInstance>,
}

/// A built-in set: its name, what it is, and its family.
struct Builtin {
    name: &'static str,
    about: &'static str,
    range: &'static str,
}

/// The built-in sets, in the order messages list them.
const BUILTINS: [Builtin; 12] = [
    Builtin {
        name: "korf100",
        about: "Korf's 100 random 15-puzzles (Korf 1985), blank-first",
        range: "ids 1-100",
    },
    Builtin {
        name: "korf50-24",
        about: "Korf & Felner's 50 random 24-puzzles (2002), blank-first",
        range: "ids 1-50",
    },
    Builtin {
        name: "hardest80",
        about: "the 17 15-puzzles at distance 80 (Brüngger et al. 1999), blank-last",
        range: "ids 1-17",
    },
    Builtin {
        name: "deepcubea15",
        about: "the DeepCubeA 15-puzzle test set (Agostinelli et al. 2019), blank-last",
        range: "ids 1-500",
    },
    Builtin {
        name: "deepcubea24",
        about: "the DeepCubeA 24-puzzle test set (Agostinelli et al. 2019), blank-last",
        range: "ids 1-100",
    },
    Builtin {
        name: "short15",
        about: "15-puzzles with short optima, 4-54 moves (generated here, optima by IDA*+PDB), blank-first",
        range: "ids",
    },
    Builtin {
        name: "short8",
        about: "8-puzzles by BFS depth 1-31 (generated here, optima by BFS), blank-first",
        range: "ids",
    },
    Builtin {
        name: "meta2010",
        about: "Brendan Owen's set 2, square boards 3x3-16x16 (10, 12, 14, 16: the META 2010 contest)",
        range: "sides 3-16",
    },
    Builtin {
        name: "brendan1",
        about: "Brendan Owen's set 1, square boards 3x3-16x16 (perfect boards shipped for 3-9)",
        range: "sides 3-16",
    },
    Builtin {
        name: "eii",
        about: "the official Eternity II pieces (16x16)",
        range: "none",
    },
    Builtin {
        name: "eii-clues",
        about: "the four official Eternity II clue puzzles",
        range: "clues 1-4",
    },
    Builtin {
        name: "generate:edge:rows=R,cols=C,frame=F,inner=I,count=N,seed=S",
        about: "N planted edge-matching puzzles (seeds S..S+N-1; optimum 0)",
        range: "none",
    },
];

/// The sets a message lists when a spec is not understood.
pub fn help() -> String {
    let mut s = String::from(
        "a SET is one of these (a built-in set may take :FIRST-LAST, e.g. korf100:1-3 or meta2010:3-5):\n",
    );
    for b in &BUILTINS {
        s.push_str(&format!("  {} — {} [{}]\n", b.name, b.about, b.range));
    }
    s.push_str("  generate:sliding:rows=R,cols=C,walk=L,count=N,seed=S[,goal=blank-last|blank-first] — N random walks of L moves from the goal\n");
    s.push_str("  a directory of instance files, or a file listing one instance path per line");
    s
}

/// Brendan's square files, side 3 to 16, compiled in.
macro_rules! squares {
    ($dir:literal, $stem:literal) => {
        [
            (
                3,
                include_str!(concat!(
                    "../../models/edge-matching/",
                    $dir,
                    "/",
                    $stem,
                    "_03x03.txt"
                )),
            ),
            (
                4,
                include_str!(concat!(
                    "../../models/edge-matching/",
                    $dir,
                    "/",
                    $stem,
                    "_04x04.txt"
                )),
            ),
            (
                5,
                include_str!(concat!(
                    "../../models/edge-matching/",
                    $dir,
                    "/",
                    $stem,
                    "_05x05.txt"
                )),
            ),
            (
                6,
                include_str!(concat!(
                    "../../models/edge-matching/",
                    $dir,
                    "/",
                    $stem,
                    "_06x06.txt"
                )),
            ),
            (
                7,
                include_str!(concat!(
                    "../../models/edge-matching/",
                    $dir,
                    "/",
                    $stem,
                    "_07x07.txt"
                )),
            ),
            (
                8,
                include_str!(concat!(
                    "../../models/edge-matching/",
                    $dir,
                    "/",
                    $stem,
                    "_08x08.txt"
                )),
            ),
            (
                9,
                include_str!(concat!(
                    "../../models/edge-matching/",
                    $dir,
                    "/",
                    $stem,
                    "_09x09.txt"
                )),
            ),
            (
                10,
                include_str!(concat!(
                    "../../models/edge-matching/",
                    $dir,
                    "/",
                    $stem,
                    "_10x10.txt"
                )),
            ),
            (
                11,
                include_str!(concat!(
                    "../../models/edge-matching/",
                    $dir,
                    "/",
                    $stem,
                    "_11x11.txt"
                )),
            ),
            (
                12,
                include_str!(concat!(
                    "../../models/edge-matching/",
                    $dir,
                    "/",
                    $stem,
                    "_12x12.txt"
                )),
            ),
            (
                13,
                include_str!(concat!(
                    "../../models/edge-matching/",
                    $dir,
                    "/",
                    $stem,
                    "_13x13.txt"
                )),
            ),
            (
                14,
                include_str!(concat!(
                    "../../models/edge-matching/",
                    $dir,
                    "/",
                    $stem,
                    "_14x14.txt"
                )),
            ),
            (
                15,
                include_str!(concat!(
                    "../../models/edge-matching/",
                    $dir,
                    "/",
                    $stem,
                    "_15x15.txt"
                )),
            ),
            (
                16,
                include_str!(concat!(
                    "../../models/edge-matching/",
                    $dir,
                    "/",
                    $stem,
                    "_16x16.txt"
                )),
            ),
        ]
    };
}

const META2010: [(u32, &str); 14] = squares!("meta2010", "pieces");

/// `(instance id, file name, board)` of a board shipped in `models/edge-matching/boards/`.
macro_rules! board {
    ($id:literal, $file:literal) => {
        (
            $id,
            $file,
            include_str!(concat!("../../models/edge-matching/boards/", $file)),
        )
    };
}
const BRENDAN1: [(u32, &str); 14] = squares!("brendan_set1", "pieces");
/// Brendan's own perfect boards for set 1, sides 3 to 9.
const BRENDAN1_SOLUTIONS: [(u32, &str); 7] = [
    (
        3,
        include_str!("../../models/edge-matching/brendan_set1/solutions_03x03.txt"),
    ),
    (
        4,
        include_str!("../../models/edge-matching/brendan_set1/solutions_04x04.txt"),
    ),
    (
        5,
        include_str!("../../models/edge-matching/brendan_set1/solutions_05x05.txt"),
    ),
    (
        6,
        include_str!("../../models/edge-matching/brendan_set1/solutions_06x06.txt"),
    ),
    (
        7,
        include_str!("../../models/edge-matching/brendan_set1/solutions_07x07.txt"),
    ),
    (
        8,
        include_str!("../../models/edge-matching/brendan_set1/solutions_08x08.txt"),
    ),
    (
        9,
        include_str!("../../models/edge-matching/brendan_set1/solutions_09x09.txt"),
    ),
];
const EII: &str = include_str!("../../models/edge-matching/eternity2/e2pieces.txt");
const EII_CLUES: [(u32, &str); 4] = [
    (
        1,
        include_str!("../../models/edge-matching/eternity2/clue1.txt"),
    ),
    (
        2,
        include_str!("../../models/edge-matching/eternity2/clue2.txt"),
    ),
    (
        3,
        include_str!("../../models/edge-matching/eternity2/clue3.txt"),
    ),
    (
        4,
        include_str!("../../models/edge-matching/eternity2/clue4.txt"),
    ),
];

/// Resolve a SET argument. `goal` is the goal convention of sliding puzzles read from files
/// (built-in sets carry their own; `None`: blank-last).
pub fn resolve(spec: &str, goal: Option<Goal>) -> Result<InstanceSet, Error> {
    if let Some(rest) = spec.strip_prefix("generate:") {
        return generate(spec, rest);
    }
    let (name, range) = match spec.split_once(':') {
        Some((n, r)) => (n, Some(parse_range(spec, r)?)),
        None => (spec, None),
    };
    if let Some(set) = builtin(name, range, spec)? {
        if goal.is_some() && set.instances.iter().any(|i| i.goal.is_some()) {
            return Err(Error::Usage(format!(
                "{f_goal}: the set {name} has its own goal convention ({}): leave {f_goal} out",
                set.instances[0].goal.unwrap_or_default(),
                f_goal = Field::Goal
            )));
        }
        return Ok(set);
    }
    let path = Path::new(spec);
    if path.is_dir() {
        return from_files(spec, dir_files(path)?, goal);
    }
    if path.is_file() {
        return from_files(spec, list_files(path)?, goal);
    }
    Err(Error::Usage(format!(
        "{spec}: not a set tilekit knows, nor a directory or list file\n{}",
        help()
    )))
}

/// `FIRST-LAST` or `N`.
fn parse_range(spec: &str, r: &str) -> Result<(u32, u32), Error> {
    let bad = || {
        Error::Usage(format!(
            "{spec}: the range after ':' must be FIRST-LAST or N (whole numbers, FIRST ≤ LAST)"
        ))
    };
    let (a, b) = r.split_once('-').unwrap_or((r, r));
    let (a, b): (u32, u32) = (
        a.trim().parse().map_err(|_| bad())?,
        b.trim().parse().map_err(|_| bad())?,
    );
    if a > b {
        return Err(bad());
    }
    if a == 0 {
        return Err(Error::Usage(format!(
            "{spec}: instances are numbered from 1, so a range cannot start at 0"
        )));
    }
    Ok((a, b))
}

/// A built-in set, or `None` when `name` is none.
fn builtin(
    name: &str,
    range: Option<(u32, u32)>,
    spec: &str,
) -> Result<Option<InstanceSet>, Error> {
    let keep = |k: u32| range.is_none_or(|(a, b)| (a..=b).contains(&k));
    let about = BUILTINS
        .iter()
        .find(|b| b.name == name)
        .map(|b| b.about.to_string());
    let Some(about) = about else {
        return Ok(None);
    };
    let instances: Vec<SetInstance> = match name {
        "korf100" | "korf50-24" | "hardest80" | "deepcubea15" | "deepcubea24" => {
            let set = BenchSet::parse(name).expect("the built-in sliding sets are bench sets");
            let source = match set {
                BenchSet::Korf100 => "published: Korf 1985",
                BenchSet::Korf50x24 => "published: Korf & Felner 2002",
                BenchSet::Hardest80 => "published: Brüngger et al. 1999",
                BenchSet::DeepCubeA15 | BenchSet::DeepCubeA24 => {
                    "published: Agostinelli et al. 2019 (DeepCubeA test set)"
                }
            };
            let mut cases = set.cases();
            // The set's own order is by id, whatever order the bench runs them in.
            cases.sort_by_key(|c| c.id);
            cases
                .into_iter()
                .filter(|c| keep(c.id))
                .map(|c| sliding(name, c.id, &c.puzzle, c.goal, c.optimal, source))
                .collect()
        }
        "short15" | "short8" => {
            let (text, side, from, source) = if name == "short15" {
                (
                    include_str!("../../models/sliding/fifteen_small_by_length.txt"),
                    4,
                    3,
                    "computed here: IDA* with pattern databases, plan replayed (file header)",
                )
            } else {
                (
                    include_str!("../../models/sliding/eightpuzzle_by_depth.txt"),
                    3,
                    2,
                    "computed here: breadth-first search over all states (file header)",
                )
            };
            sets::parse_set(text, side, from, None, Goal::BlankFirst)
                .into_iter()
                .filter(|c| keep(c.id))
                .map(|c| sliding(name, c.id, &c.puzzle, c.goal, c.optimal, source))
                .collect()
        }
        "meta2010" => META2010
            .iter()
            .filter(|(side, _)| keep(*side))
            .map(|&(side, text)| edge(format!("meta2010-{side:02}x{side:02}"), text, None))
            .collect::<Result<_, _>>()?,
        "brendan1" => BRENDAN1
            .iter()
            .filter(|(side, _)| keep(*side))
            .map(|&(side, text)| {
                let solution = BRENDAN1_SOLUTIONS
                    .iter()
                    .find(|(s, _)| *s == side)
                    .map(|(_, t)| *t);
                edge(format!("brendan1-{side:02}x{side:02}"), text, solution)
            })
            .collect::<Result<_, _>>()?,
        "eii" => {
            if range.is_some() {
                return Err(Error::Usage(format!(
                    "{spec}: the set eii is one instance and takes no range"
                )));
            }
            vec![edge("eii".into(), EII, None)?]
        }
        "eii-clues" => EII_CLUES
            .iter()
            .filter(|(k, _)| keep(*k))
            .map(|&(k, text)| edge(format!("eii-clue{k}"), text, None))
            .collect::<Result<_, _>>()?,
        _ => unreachable!("every built-in name has an arm"),
    };
    if instances.is_empty() {
        return Err(Error::Usage(format!(
            "{spec}: the range selects no instance of {name}"
        )));
    }
    Ok(Some(InstanceSet {
        spec: spec.to_string(),
        provenance: format!("built in: {about}"),
        instances,
    }))
}

/// A sliding instance of a built-in set.
fn sliding(
    set: &str,
    id: u32,
    p: &SlidingPuzzle,
    goal: Goal,
    optimal: u32,
    source: &str,
) -> SetInstance {
    SetInstance {
        id: format!("{set}-{id:03}"),
        family: FamilyName::Sliding,
        text: p.to_text(),
        goal: Some(goal),
        known_optimum: Some(optimal.into()),
        optimum_source: Some(source.to_string()),
        best_known: None,
    }
}

/// An edge instance of a built-in set; with a shipped perfect board, the optimum 0 once the
/// independent checker has accepted that board.
fn edge(id: String, text: &str, solution: Option<&str>) -> Result<SetInstance, Error> {
    let (known_optimum, optimum_source) = match solution {
        Some(board) => {
            let p = EdgePuzzle::parse(text, &id).map_err(Error::failure)?;
            let b = edge_puzzle::parse_any_board(board, &format!("{id} solution"), &p)
                .map_err(Error::failure)?;
            let v = BoardChecker.check(&p, &b, Some(0.0));
            if !v.valid {
                return Err(Error::Failure(format!(
                    "{id}: the shipped perfect board fails the checker: {}",
                    v.errors.join("; ")
                )));
            }
            (
                Some(0),
                Some("shipped perfect board (Brendan Owen), re-checked here".to_string()),
            )
        }
        None => (None, None),
    };
    let best_known = match known_optimum {
        Some(_) => None,
        None => best_known(&id, text)?,
    };
    Ok(SetInstance {
        id,
        family: FamilyName::Edge,
        text: text.to_string(),
        goal: None,
        best_known,
        known_optimum,
        optimum_source,
    })
}

/// tilekit's own best boards, shipped in `models/edge-matching/boards/`: (instance id, file
/// name, board).
const BEST_BOARDS: [(&str, &str, &str); 15] = [
    board!("meta2010-10x10", "10x10-beam-60s.txt"),
    board!("meta2010-10x10", "10x10-dfs-60s.txt"),
    board!("meta2010-12x12", "12x12-beam+lns-60s.txt"),
    board!("meta2010-12x12", "12x12-beam-60s.txt"),
    board!("meta2010-12x12", "12x12-dfs-60s.txt"),
    board!("meta2010-14x14", "14x14-beam-60s-seed2.txt"),
    board!("meta2010-14x14", "14x14-beam-60s.txt"),
    board!("meta2010-14x14", "14x14-dfs-60s.txt"),
    board!("meta2010-16x16", "16x16-beam+lns-3600s.txt"),
    board!("meta2010-16x16", "16x16-beam-60s.txt"),
    board!("meta2010-16x16", "16x16-dfs-60s.txt"),
    board!("eii", "EII-beam+lns-3600s.txt"),
    board!("eii", "EII-beam-2100s.txt"),
    board!("eii", "EII-beam-60s.txt"),
    board!("eii", "EII-dfs-60s.txt"),
];

/// Published best scores without a board here: (instance id, unmatched seams, source).
const PUBLISHED_BEST: [(&str, u64, &str); 1] = [(
    "eii",
    10,
    "470 of 480 matched by Joshua Blackwood's search (published 2024; no board checked here)",
)];

/// The best objective known for edge instance `id`: the fewest unmatched seams of tilekit's
/// shipped boards, each re-checked here by the independent checker, or a published score
/// when it is lower (said so in the source).
fn best_known(id: &str, text: &str) -> Result<Option<(u64, String)>, Error> {
    let mut best: Option<(u64, String)> = None;
    let boards = BEST_BOARDS.iter().filter(|(i, _, _)| *i == id);
    for (_, name, board) in boards {
        let p = EdgePuzzle::parse(text, id).map_err(Error::failure)?;
        let b = edge_puzzle::parse_any_board(board, name, &p).map_err(Error::failure)?;
        let v = BoardChecker.check(&p, &b, None);
        let unmatched = v.objective.filter(|_| v.valid).ok_or_else(|| {
            Error::Failure(format!(
                "{id}: the shipped board {name} fails the checker: {}",
                v.errors.join("; ")
            ))
        })? as u64;
        if best.as_ref().is_none_or(|(u, _)| unmatched < *u) {
            best = Some((
                unmatched,
                format!("tilekit's board models/edge-matching/boards/{name}, re-checked here"),
            ));
        }
    }
    for (_, unmatched, source) in PUBLISHED_BEST.iter().filter(|(i, _, _)| *i == id) {
        if best.as_ref().is_none_or(|(u, _)| *unmatched < *u) {
            best = Some((*unmatched, (*source).to_string()));
        }
    }
    Ok(best)
}

/// `generate:edge:…` or `generate:sliding:…`.
fn generate(spec: &str, rest: &str) -> Result<InstanceSet, Error> {
    let (kind, params) = rest.split_once(':').unwrap_or((rest, ""));
    let mut kv: Vec<(&str, &str)> = Vec::new();
    for item in params.split(',').filter(|s| !s.is_empty()) {
        let (k, v) = item.split_once('=').ok_or_else(|| {
            Error::Usage(format!("{spec}: {item:?} is not KEY=VALUE\n{}", help()))
        })?;
        kv.push((k.trim(), v.trim()));
    }
    let keys: &[&str] = match kind {
        "edge" => &["rows", "cols", "frame", "inner", "count", "seed"],
        "sliding" => &["rows", "cols", "walk", "count", "seed", "goal"],
        _ => {
            return Err(Error::Usage(format!(
                "{spec}: generate:edge:… or generate:sliding:…\n{}",
                help()
            )));
        }
    };
    if let Some((k, _)) = kv.iter().find(|(k, _)| !keys.contains(k)) {
        return Err(Error::Usage(format!(
            "{spec}: unknown key {k:?}: generate:{kind} takes {}",
            keys.join(", ")
        )));
    }
    let text = |k: &str| kv.iter().rev().find(|(key, _)| *key == k).map(|(_, v)| *v);
    let num = |k: &str, default: Option<u64>| -> Result<u64, Error> {
        match text(k) {
            Some(v) => v
                .parse()
                .map_err(|_| Error::Usage(format!("{spec}: {k}={v} is not a whole number"))),
            None => default.ok_or_else(|| {
                Error::Usage(format!(
                    "{spec}: generate:{kind} needs {k}= (it takes {})",
                    keys.join(", ")
                ))
            }),
        }
    };
    let count = num("count", Some(1))?;
    let seed = num("seed", Some(1))?;
    if count == 0 || count > 100_000 {
        return Err(Error::Usage(format!("{spec}: count must be 1 to 100000")));
    }
    let mut instances = Vec::new();
    if kind == "edge" {
        let (rows, cols) = (num("rows", None)?, num("cols", None)?);
        let (frame, inner) = (num("frame", None)?, num("inner", None)?);
        let small = |x: u64| usize::try_from(x).ok().filter(|&x| x <= 64);
        let colours = |x: u64| u16::try_from(x).ok();
        let (Some(r), Some(c), Some(f), Some(i)) =
            (small(rows), small(cols), colours(frame), colours(inner))
        else {
            return Err(Error::Usage(format!(
                "{spec}: rows and cols must be at most 64, frame and inner at most 65535"
            )));
        };
        for k in 0..count {
            let s = seed + k;
            let (text, _) = edge_puzzle::generate_texts(r, c, f, i, s)
                .map_err(|e| Error::Usage(format!("{spec}: {e}")))?;
            instances.push(SetInstance {
                id: format!("edge-{r}x{c}-f{f}-i{i}-s{s}"),
                family: FamilyName::Edge,
                text,
                goal: None,
                known_optimum: Some(0),
                optimum_source: Some("planted perfect board (tilekit generate edge)".into()),
                best_known: None,
            });
        }
    } else {
        let (rows, cols, walk) = (num("rows", None)?, num("cols", None)?, num("walk", None)?);
        let goal = match text("goal") {
            None => Goal::BlankLast,
            Some(g) => Goal::parse(g).ok_or_else(|| {
                Error::Usage(format!("{spec}: goal={g}: use blank-last or blank-first"))
            })?,
        };
        let dim = |x: u64| usize::try_from(x).ok().filter(|&x| (2..=16).contains(&x));
        let (Some(r), Some(c)) = (dim(rows), dim(cols)) else {
            return Err(Error::Usage(format!(
                "{spec}: rows and cols must be 2 to 16"
            )));
        };
        let walk = usize::try_from(walk)
            .ok()
            .filter(|&w| w <= 10_000)
            .ok_or_else(|| Error::Usage(format!("{spec}: walk must be at most 10000")))?;
        for k in 0..count {
            let s = seed + k;
            let (p, _) = SlidingPuzzle::random_walk(r, c, goal, walk, s);
            instances.push(SetInstance {
                id: format!("sliding-{r}x{c}-w{walk}-s{s}"),
                family: FamilyName::Sliding,
                text: p.to_text(),
                goal: Some(goal),
                // A walk bounds the optimum from above only.
                known_optimum: None,
                optimum_source: None,
                best_known: None,
            });
        }
    }
    Ok(InstanceSet {
        spec: spec.to_string(),
        provenance: format!("generated by tilekit: {spec}"),
        instances,
    })
}

/// The regular files of a directory, sorted by name (hidden files and `*.solution` boards
/// left out).
fn dir_files(dir: &Path) -> Result<Vec<PathBuf>, Error> {
    let read = std::fs::read_dir(dir)
        .map_err(|e| Error::Usage(format!("{}: cannot read the directory: {e}", dir.display())))?;
    let mut files = Vec::new();
    for entry in read {
        let path = entry
            .map_err(|e| {
                Error::Usage(format!("{}: cannot read the directory: {e}", dir.display()))
            })?
            .path();
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        let name = name.unwrap_or_default();
        if path.is_file() && !name.starts_with('.') && !name.ends_with(".solution") {
            files.push(path);
        }
    }
    files.sort();
    if files.is_empty() {
        return Err(Error::Usage(format!(
            "{}: the directory holds no instance file",
            dir.display()
        )));
    }
    Ok(files)
}

/// The paths a list file names, one per line (`#` comments and blank lines skipped; a
/// relative path is relative to the list file).
fn list_files(list: &Path) -> Result<Vec<PathBuf>, Error> {
    let text = crate::route::read_text(list, "instance list")?;
    let base = list.parent().unwrap_or(Path::new("."));
    let mut files = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let path = base.join(line);
        if !path.is_file() {
            return Err(Error::Usage(format!(
                "{}:{}: {line}: no such instance file",
                list.display(),
                i + 1
            )));
        }
        files.push(path);
    }
    if files.is_empty() {
        return Err(Error::Usage(format!(
            "{}: the list names no instance file (one path per line)",
            list.display()
        )));
    }
    Ok(files)
}

/// A set of instance files, each read through the front door (its family detected).
fn from_files(spec: &str, files: Vec<PathBuf>, goal: Option<Goal>) -> Result<InstanceSet, Error> {
    let mut instances: Vec<SetInstance> = Vec::new();
    for path in files {
        let inst = families::read(&path, None)?;
        let family = inst.family.name;
        // Each file must parse as what it was detected as, so a bad file fails here, named.
        match family {
            FamilyName::Sliding => {
                let g = goal.unwrap_or_default();
                inst.parse(|t, s| SlidingPuzzle::parse(t, s, g))?;
            }
            FamilyName::Edge => {
                inst.parse(EdgePuzzle::parse)?;
            }
        }
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut id: String = stem
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        // Two files of one stem (`a.txt`, `a.dat`) keep apart.
        let base = id.clone();
        let mut k = 2;
        while instances.iter().any(|i| i.id == id) {
            id = format!("{base}-{k}");
            k += 1;
        }
        instances.push(SetInstance {
            id,
            family,
            text: inst.text,
            goal: (family == FamilyName::Sliding).then(|| goal.unwrap_or_default()),
            known_optimum: None,
            optimum_source: None,
            best_known: None,
        });
    }
    Ok(InstanceSet {
        spec: spec.to_string(),
        provenance: format!("instance files: {spec}"),
        instances,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_sets_resolve_with_their_optima() {
        let k = resolve("korf100:1-3", None).unwrap();
        assert_eq!(k.instances.len(), 3);
        assert_eq!(k.instances[0].id, "korf100-001");
        assert_eq!(k.instances[0].known_optimum, Some(57));
        assert_eq!(k.instances[0].goal, Some(Goal::BlankFirst));
        let m = resolve("meta2010:3-5", None).unwrap();
        let ids: Vec<&str> = m.instances.iter().map(|i| i.id.as_str()).collect();
        assert_eq!(ids, ["meta2010-03x03", "meta2010-04x04", "meta2010-05x05"]);
        // Brendan's shipped boards pass the checker, so their optimum is known.
        let b = resolve("brendan1:3-10", None).unwrap();
        assert!(b.instances[..7].iter().all(|i| i.known_optimum == Some(0)));
        assert_eq!(b.instances[7].known_optimum, None);
        for name in [
            "korf50-24",
            "hardest80",
            "deepcubea15",
            "deepcubea24",
            "short15",
            "short8",
            "eii",
            "eii-clues",
        ] {
            let s = resolve(name, None).unwrap();
            assert!(!s.instances.is_empty(), "{name}");
        }
        assert_eq!(resolve("hardest80", None).unwrap().instances.len(), 17);
    }

    #[test]
    fn generators_are_deterministic() {
        let spec = "generate:edge:rows=4,cols=5,frame=2,inner=3,count=3,seed=7";
        let a = resolve(spec, None).unwrap();
        assert_eq!(a.instances, resolve(spec, None).unwrap().instances);
        assert_eq!(a.instances.len(), 3);
        assert!(a.instances.iter().all(|i| i.known_optimum == Some(0)));
        let s = resolve(
            "generate:sliding:rows=3,cols=3,walk=10,count=2,seed=1",
            None,
        )
        .unwrap();
        assert_eq!(s.instances.len(), 2);
        assert_ne!(s.instances[0].text, s.instances[1].text);
    }

    #[test]
    fn bad_specs_say_what_is_accepted() {
        for (spec, says) in [
            ("korf101", "not a set tilekit knows"),
            ("korf100:5-2", "FIRST-LAST"),
            ("korf100:x", "FIRST-LAST"),
            ("korf100:200-300", "selects no instance"),
            ("eii:1", "takes no range"),
            ("generate:edge:rows=3", "needs cols="),
            (
                "generate:edge:rows=3,cols=3,frame=2,inner=2,colour=1",
                "unknown key",
            ),
            ("generate:cube:rows=3", "generate:edge"),
            ("generate:sliding:rows=1,cols=3,walk=3", "2 to 16"),
        ] {
            let e = resolve(spec, None).unwrap_err().to_string();
            assert!(e.contains(says), "{spec}: {e}");
        }
        let e = resolve("korf100", Some(Goal::BlankLast))
            .unwrap_err()
            .to_string();
        assert!(e.contains("own goal convention"), "{e}");
    }
}
