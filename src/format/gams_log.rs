//! What GAMS prints about itself: recognising, in its log or listing, a run that GAMS stopped
//! for a licensing error, so that an expired or missing licence is reported as what it is
//! instead of as a listing without a solution.
//!
//! GAMS writes the cause on a `***` line of its log, then `*** Status: Terminated due to a
//! licensing error`; its listing says `**** Terminated due to a licensing error`. For a
//! time-limited licence the cause counts days ("Time-limited license expired 1 days ago"),
//! and the log's first line carries the date of the run (`--- Job t.gms Start 11/27/26
//! 08:08:49 …`), so the day the licence ran out is the run's date less those days.
//!
//! ```
//! use tilekit::format::gams_log::licence_problem;
//!
//! let log = "--- Job t.gms Start 11/27/26 08:08:49 54.6.1 20a39885 LEX-LEG x86 64bit/Linux\n\
//!            *** Time-limited license expired 1 days ago\n\
//!            *** Status: Terminated due to a licensing error\n";
//! let problem = licence_problem(log).unwrap();
//! assert_eq!(problem.expired_on.unwrap().to_string(), "2026-11-26");
//! assert!(licence_problem("--- Job t.gms Stop 11/27/26 08:08:49 elapsed 0:00:00.002\n").is_none());
//! ```

use jiff::civil::Date;
use std::fmt;

/// The words GAMS puts after its `***` (log) or `****` (listing) marker when a licence stops it.
const TERMINATED: &str = "Terminated due to a licensing error";

/// A GAMS run stopped for a licensing error, as GAMS's own output describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LicenceProblem {
    /// GAMS's words for the cause ("Time-limited license expired 1 days ago"), when its log
    /// gives one; only the listing was read otherwise.
    pub cause: Option<String>,
    /// The day a time-limited licence ran out: the run's date less the days GAMS counts.
    pub expired_on: Option<Date>,
    /// The licence file GAMS read, as it names it.
    pub file: Option<String>,
}

impl fmt::Display for LicenceProblem {
    /// One sentence: what stopped GAMS, and the day its licence ran out when that is known.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "GAMS stopped with a licensing error")?;
        match (&self.expired_on, &self.cause) {
            (Some(day), Some(cause)) => write!(
                f,
                ": its time-limited licence expired on {day} (\"{cause}\")"
            )?,
            (None, Some(cause)) => write!(f, ": \"{cause}\"")?,
            (_, None) => {}
        }
        if let Some(file) = &self.file {
            write!(f, "; licence file {file}")?;
        }
        Ok(())
    }
}

/// The licensing error GAMS stopped with, if `text` (its log, its listing, or both one after
/// the other, as a NEOS job returns them) says it stopped for one.
pub fn licence_problem(text: &str) -> Option<LicenceProblem> {
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let body = |l: &str| l.trim_start_matches('*').trim().to_string();
    let stopped_at = lines.iter().position(|l| {
        l.starts_with("***") && body(l).trim_start_matches("Status:").trim() == TERMINATED
    })?;
    // The log names the cause on the `***` line just before its status line; the listing's
    // marker has none before it.
    let cause = lines[..stopped_at]
        .last()
        .filter(|l| l.starts_with("***") && !l.starts_with("****"))
        .map(|l| body(l))
        .filter(|c| !c.is_empty());
    let file = lines.iter().find_map(|l| {
        let rest = body(l);
        let path = rest.strip_prefix("License file:")?.trim();
        (l.starts_with("***") && !path.is_empty()).then(|| path.to_string())
    });
    let expired_on = cause
        .as_deref()
        .and_then(days_ago)
        .zip(run_date(&lines))
        .and_then(|(days, run)| run.checked_sub(jiff::Span::new().days(days)).ok());
    Some(LicenceProblem {
        cause,
        expired_on,
        file,
    })
}

/// The days in "… expired N days ago" (GAMS writes "1 days" too).
fn days_ago(cause: &str) -> Option<i64> {
    let lower = cause.to_ascii_lowercase();
    let (_, after) = lower.split_once("expired ")?;
    let (days, rest) = after.split_once(' ')?;
    rest.starts_with("day").then(|| days.parse().ok())?
}

/// The date of the run, from the log's `--- Job NAME Start MM/DD/YY HH:MM:SS` line.
fn run_date(lines: &[&str]) -> Option<Date> {
    lines.iter().find_map(|l| {
        let rest = l.strip_prefix("--- Job ")?;
        let mut words = rest.split_whitespace().skip_while(|w| *w != "Start");
        words.next()?;
        let mut parts = words.next()?.split('/');
        let (m, d, y) = (parts.next()?, parts.next()?, parts.next()?);
        if parts.next().is_some() || y.len() != 2 {
            return None;
        }
        let year: i16 = y.parse().ok()?;
        Date::new(2000 + year, m.parse().ok()?, d.parse().ok()?).ok()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// GAMS 54.6.1's log, word for word, the day after its demo licence ran out.
    const EXPIRED_LOG: &str =
        "--- Job t.gms Start 11/27/26 08:08:49 54.6.1 20a39885 LEX-LEG x86 64bit/Linux
--- Applying:
    /opt/solvers/lib/python3.11/site-packages/gamspy_base/gmsprmun.txt
--- GAMS Parameters defined
    Input /tmp/g/t.gms
    ScrDir /tmp/g/225a/
    SysDir /opt/solvers/lib/python3.11/site-packages/gamspy_base/
    LogOption 3
    AppendLog 1
*** Time-limited license expired 1 days ago
*** Status: Terminated due to a licensing error
***         License file: /opt/solvers/lib/python3.11/site-packages/gamspy_base/gamslice.txt
***         Inspect listing file for more information.
--- Job t.gms Stop 11/27/26 08:08:49 elapsed 0:00:00.002
";

    /// The listing of the same run.
    const EXPIRED_LISTING: &str = "\u{c}-  Page 1
G e n e r a l   A l g e b r a i c   M o d e l i n g   S y s t e m


**** Terminated due to a licensing error
**** License file: /opt/solvers/lib/python3.11/site-packages/gamspy_base/gamslice.txt

**** Current license content:
     GAMS_Demo,_for_EULA_and_demo_limitations_see___G260530+0003Cc-GEN
";

    const LICENCE_FILE: &str = "/opt/solvers/lib/python3.11/site-packages/gamspy_base/gamslice.txt";

    #[test]
    fn an_expired_demo_licence_is_named_with_its_last_day() {
        let p = licence_problem(EXPIRED_LOG).unwrap();
        assert_eq!(
            p.cause.as_deref(),
            Some("Time-limited license expired 1 days ago")
        );
        assert_eq!(p.expired_on, Some(Date::new(2026, 11, 26).unwrap()));
        assert_eq!(p.file.as_deref(), Some(LICENCE_FILE));
        assert_eq!(
            p.to_string(),
            format!(
                "GAMS stopped with a licensing error: its time-limited licence expired on \
                 2026-11-26 (\"Time-limited license expired 1 days ago\"); licence file \
                 {LICENCE_FILE}"
            )
        );
    }

    #[test]
    fn the_log_and_listing_together_read_as_the_log() {
        let both = format!("{EXPIRED_LOG}\n{EXPIRED_LISTING}");
        assert_eq!(licence_problem(&both), licence_problem(EXPIRED_LOG));
    }

    #[test]
    fn days_are_counted_across_months_and_years() {
        let log = EXPIRED_LOG
            .replace("11/27/26", "01/03/27")
            .replace("expired 1 days", "expired 40 days");
        let p = licence_problem(&log).unwrap();
        assert_eq!(p.expired_on, Some(Date::new(2026, 11, 24).unwrap()));
    }

    #[test]
    fn the_listing_alone_says_there_was_a_licensing_error() {
        let p = licence_problem(EXPIRED_LISTING).unwrap();
        assert_eq!((p.cause, p.expired_on), (None, None));
        assert_eq!(p.file.as_deref(), Some(LICENCE_FILE));
    }

    #[test]
    fn another_cause_is_quoted_without_a_date() {
        let log = "--- Job t.gms Start 11/27/26 08:08:49 54.6.1\n\
                   *** The model exceeds the demo license limits\n\
                   *** Status: Terminated due to a licensing error\n";
        let p = licence_problem(log).unwrap();
        assert_eq!(p.expired_on, None);
        assert_eq!(
            p.to_string(),
            "GAMS stopped with a licensing error: \"The model exceeds the demo license limits\""
        );
    }

    #[test]
    fn runs_without_a_licensing_error_are_not_reported() {
        for text in [
            "",
            "--- Job t.gms Start 11/27/26 08:08:49 54.6.1\n--- Normal completion\n",
            // A model's own text may mention licences; only GAMS's marker line counts.
            "licence Terminated due to a licensing error\n",
            "*** Status: Normal completion\n",
        ] {
            assert_eq!(licence_problem(text), None, "{text:?}");
        }
    }
}
