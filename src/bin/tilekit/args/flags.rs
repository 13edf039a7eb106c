//! The one place the library's fields get their command-line names. The library names an
//! option by its [`Field`] in every message; `main` installs [`flag`] before anything runs,
//! so that a user reads the flag they typed (ripgrep's rule: flag names live in the binary).

use tilekit::field::Field;

/// The flag that sets `field`, as a user types it.
pub(crate) fn flag(field: Field) -> &'static str {
    match field {
        Field::Family => "--family",
        Field::Via => "--via",
        Field::Model => "--model",
        Field::Format => "--format",
        Field::Output => "-o",
        Field::Solution => "--solution",
        Field::Solver => "--solver",
        Field::SolversFile => "--solvers-file",
        Field::TimeLimit => "--time-limit",
        Field::Threads => "--threads",
        Field::MemoryLimit => "--memory-limit",
        Field::Preset => "--preset",
        Field::Set => "--set",
        Field::Params => "--params",
        Field::Goal => "--goal",
        Field::Horizon => "--horizon",
        Field::Encoding => "--encoding",
        Field::Certify => "--certify",
        Field::Plan => "--plan",
        Field::Incumbent => "--incumbent",
        Field::Step => "--step",
        Field::Pdb => "--pdb",
        Field::MaxWith => "--max-with",
        Field::Heuristic => "--heuristic",
        Field::Weights => "--weights",
        Field::Weight => "--weight",
        Field::Suboptimality => "--suboptimality",
        Field::Batch | Field::TrainBatch => "--batch",
        Field::MaxStates => "--max-states",
        Field::Filter => "--filter",
        Field::FixCorner => "--fix-corner",
        Field::Complement => "--complement",
        Field::Region => "--region",
        Field::Partial => "--partial",
        Field::Ids => "--ids",
        Field::Construct => "--construct",
        Field::Improve => "--improve",
        Field::Start => "--start",
        Field::Seed => "--seed",
        Field::Fix => "--fix",
        Field::NoFix => "--no-fix",
        Field::NeosInput => "--input",
        Field::NeosSolver => "--neos-solver",
        Field::Email => "--email",
        Field::Server => "--server",
        Field::Timeout => "--timeout",
        Field::JobsFile => "--jobs-file",
        Field::Raw => "--raw",
        Field::Jobs => "--jobs",
        Field::Solvers => "--solvers",
        Field::Seeds => "--seeds",
        Field::Models => "--models",
        Field::Formats => "--formats",
        Field::Compress => "--compress",
        Field::Db => "--db",
        Field::Shift => "--shift",
        Field::Executor => "--executor",
        Field::Work => "--work",
        Field::Collect => "--collect",
        Field::NoWait => "--no-wait",
        Field::Methods => "--methods",
        Field::Runs => "--runs",
        Field::Budget => "--budget",
        Field::Instances => "--instances",
        Field::Limit => "--limit",
        Field::Checkpoint => "--checkpoint",
        Field::Interleave => "--interleave",
        Field::Checker => "--checker",
        Field::ProofDir => "--proof-dir",
        Field::Epochs => "--epochs",
        Field::ValPercent => "--val-percent",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    /// Every flag a subcommand takes, by its long name (and `-o`).
    fn all_flags(cmd: &clap::Command, out: &mut Vec<String>) {
        for arg in cmd.get_arguments() {
            if let Some(long) = arg.get_long() {
                out.push(format!("--{long}"));
            }
            if let Some(short) = arg.get_short() {
                out.push(format!("-{short}"));
            }
        }
        for sub in cmd.get_subcommands() {
            all_flags(sub, out);
        }
    }

    /// The library's comments describe options by field too: none names one of this command
    /// line's flags, apart from `field.rs` (which says how the names get installed) and
    /// sbatch's `--wait`, which shares a name with `run --wait`.
    #[test]
    fn library_comments_name_no_flag_of_the_command_line() {
        let mut flags = Vec::new();
        all_flags(&super::super::Cli::command(), &mut flags);
        flags.retain(|f| f.starts_with("--"));
        let allowed = [("field.rs", "--horizon"), ("campaign/slurm.rs", "--wait")];
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = vec![src.clone()];
        let mut bad = Vec::new();
        while let Some(path) = files.pop() {
            if path.is_dir() {
                if path.file_name().is_some_and(|n| n == "bin") {
                    continue;
                }
                for entry in std::fs::read_dir(&path).unwrap() {
                    files.push(entry.unwrap().path());
                }
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let rel = path
                .strip_prefix(&src)
                .unwrap()
                .to_string_lossy()
                .to_string();
            let text = std::fs::read_to_string(&path).unwrap();
            for (n, line) in text.lines().enumerate() {
                let Some(comment) = line.trim_start().strip_prefix("//") else {
                    continue;
                };
                for flag in &flags {
                    let named = comment.match_indices(flag.as_str()).any(|(i, _)| {
                        let after = comment[i + flag.len()..].chars().next();
                        !after.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
                    });
                    if named && !allowed.contains(&(rel.as_str(), flag.as_str())) {
                        bad.push(format!("src/{rel}:{}: {flag}", n + 1));
                    }
                }
            }
        }
        assert!(
            bad.is_empty(),
            "library comments naming flags:\n{}",
            bad.join("\n")
        );
    }

    #[test]
    fn every_field_names_a_flag_the_command_line_has() {
        let mut flags = Vec::new();
        all_flags(&super::super::Cli::command(), &mut flags);
        for &field in Field::ALL {
            // The training flags exist only when the trainer is built.
            if cfg!(not(feature = "train"))
                && matches!(field, Field::TrainBatch | Field::Epochs | Field::ValPercent)
            {
                continue;
            }
            let name = flag(field);
            assert!(
                flags.iter().any(|f| f == name),
                "{field:?} is named {name}, which no subcommand takes"
            );
        }
    }
}
