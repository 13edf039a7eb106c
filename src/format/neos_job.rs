//! NEOS job documents: the XML that `submitJob` takes, written and read with quick-xml.
//!
//! A job document is a `<document>` element whose children name the category, the solver,
//! the input method, the priority and the user's e-mail, followed by the model itself in
//! CDATA. The tags follow the public NEOS solver templates (`getSolverTemplate` gives the
//! authoritative list for a solver):
//!
//! * LP input: the model in `<LP>`, solver options in `<options>`, `<wantsol>yes</wantsol>`;
//! * MPS input: the model in `<MPS>`, the same `<options>` and `<wantsol>`. CBC on NEOS
//!   prints its solution (status line, then `index name value reduced-cost` lines) in the
//!   job's output, which is what [`crate::neos::jobs::parse_results`] reads back;
//! * GAMS input: the program in `<model>`, empty `<options>`/`<parameters>`/`<gdx>`/
//!   `<restart>`, and `<wantlst>yes</wantlst>`, `<wantlog>yes</wantlog>` so that both the
//!   listing and the log come back: NEOS forbids GAMS jobs to write files, so the generated
//!   model also prints its solution to the log and listing behind the `tilekit-solution:`
//!   marker (see `templates/sliding_neos.gms.tera`).
//!
//! CDATA cannot contain `]]>`, so a payload that does is split into several CDATA sections
//! (`]]` ends one, `>` starts the next); readers join adjacent sections back into one text.
//! `templates/neos_job_example.xml` is a complete example, kept equal to this writer's
//! output by a test.

use quick_xml::Reader;
use quick_xml::Writer;
use quick_xml::events::{BytesCData, BytesEnd, BytesStart, BytesText, Event};
use std::io::Write;

/// How the model is given to the NEOS solver.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum InputMethod {
    /// CPLEX LP text.
    Lp,
    /// Free MPS text.
    Mps,
    /// A GAMS program.
    Gams,
}

impl InputMethod {
    /// Parse an input method's name (`lp`, `mps`, `gams`, any case).
    pub fn parse(s: &str) -> Option<Self> {
        match s.to_ascii_lowercase().as_str() {
            "lp" => Some(InputMethod::Lp),
            "mps" => Some(InputMethod::Mps),
            "gams" | "gms" => Some(InputMethod::Gams),
            _ => None,
        }
    }
    /// The name NEOS uses in `category:solver:INPUT` and in `<inputMethod>`.
    pub fn neos_name(self) -> &'static str {
        match self {
            InputMethod::Lp => "LP",
            InputMethod::Mps => "MPS",
            InputMethod::Gams => "GAMS",
        }
    }
    /// The element that carries the model text.
    pub fn payload_tag(self) -> &'static str {
        match self {
            InputMethod::Lp => "LP",
            InputMethod::Mps => "MPS",
            InputMethod::Gams => "model",
        }
    }
}

/// NEOS job priority.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Priority {
    /// At most 5 minutes; output streams while the job runs.
    Short,
    /// Longer jobs; output only at the end.
    Long,
}

impl Priority {
    /// The most a `short` job may run on NEOS.
    pub const SHORT_LIMIT: std::time::Duration = std::time::Duration::from_secs(300);

    /// The priority a job of `limit` needs: `short` up to [`Priority::SHORT_LIMIT`], whose
    /// output streams while it runs, else `long`.
    pub fn for_limit(limit: std::time::Duration) -> Self {
        if limit <= Self::SHORT_LIMIT {
            Priority::Short
        } else {
            Priority::Long
        }
    }

    /// Parse `short` or `long`.
    pub fn parse(s: &str) -> Option<Self> {
        match s.to_ascii_lowercase().as_str() {
            "short" => Some(Priority::Short),
            "long" => Some(Priority::Long),
            _ => None,
        }
    }
    /// The text in `<priority>`.
    pub fn as_str(self) -> &'static str {
        match self {
            Priority::Short => "short",
            Priority::Long => "long",
        }
    }
}

/// Everything a job document says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobSpec {
    /// NEOS category, e.g. `milp`.
    pub category: String,
    /// NEOS solver name as NEOS spells it, e.g. `Cbc`, `CPLEX`.
    pub solver: String,
    /// Input method.
    pub input: InputMethod,
    /// Priority.
    pub priority: Priority,
    /// The submitter's e-mail address (NEOS requires one).
    pub email: String,
    /// The model text (LP, MPS or GAMS).
    pub model: String,
    /// Free text for `<comments>`.
    pub comments: String,
}

/// Why a job document could not be written or read.
#[derive(Debug, thiserror::Error)]
pub enum JobError {
    /// No e-mail address, or not one.
    #[error(
        "NEOS requires an e-mail address: pass {email} ADDRESS or set NEOS_EMAIL (got {0:?})",
        email = crate::field::Field::Email
    )]
    Email(String),
    /// A header field NEOS would not accept.
    #[error("{field} {value:?} is not valid: expected {expected}")]
    Field {
        /// The field.
        field: &'static str,
        /// The rejected value.
        value: String,
        /// What is accepted.
        expected: &'static str,
    },
    /// The document is not well-formed XML.
    #[error("the job document is not well-formed XML: {0}")]
    Xml(String),
    /// The document lacks something or says something unknown.
    #[error("the job document is not a NEOS job: {0}")]
    Content(String),
    /// Writing failed.
    #[error("writing the job document failed: {0}")]
    Io(#[from] std::io::Error),
}

/// Check that `email` looks like an address: one `@` with text on both sides, no spaces or
/// markup characters.
pub fn check_email(email: &str) -> Result<(), JobError> {
    let ok = match email.split_once('@') {
        Some((user, host)) => {
            !user.is_empty()
                && host.contains('.')
                && !host.starts_with('.')
                && !host.ends_with('.')
                && !host.contains('@')
                && !email
                    .chars()
                    .any(|c| c.is_whitespace() || c.is_control() || "<>&\"'".contains(c))
        }
        None => false,
    };
    if ok {
        Ok(())
    } else {
        Err(JobError::Email(email.to_string()))
    }
}

/// A category or solver name: letters, digits, `_`, `-`, `.`.
fn check_name(field: &'static str, value: &str) -> Result<(), JobError> {
    if !value.is_empty()
        && value.len() <= 64
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-.".contains(c))
    {
        Ok(())
    } else {
        Err(JobError::Field {
            field,
            value: value.to_string(),
            expected: "1-64 letters, digits, '_', '-' or '.'",
        })
    }
}

/// Write `spec` as a NEOS job document. The output is deterministic, well-formed XML; a
/// model containing `]]>` is split over several CDATA sections.
pub fn write_job<W: Write>(spec: &JobSpec, out: W) -> Result<(), JobError> {
    check_name("category", &spec.category)?;
    check_name("solver", &spec.solver)?;
    check_email(&spec.email)?;
    let mut w = Writer::new(out);
    let nl = || Event::Text(BytesText::from_escaped("\n"));
    w.write_event(Event::Start(BytesStart::new("document")))?;
    w.write_event(nl())?;
    let text_el = |w: &mut Writer<W>, tag: &str, text: &str| -> std::io::Result<()> {
        w.write_event(Event::Start(BytesStart::new(tag)))?;
        w.write_event(Event::Text(BytesText::new(text)))?;
        w.write_event(Event::End(BytesEnd::new(tag)))?;
        w.write_event(Event::Text(BytesText::from_escaped("\n")))
    };
    let cdata_el = |w: &mut Writer<W>, tag: &str, text: &str| -> std::io::Result<()> {
        w.write_event(Event::Start(BytesStart::new(tag)))?;
        for part in BytesCData::escaped(text) {
            w.write_event(Event::CData(part))?;
        }
        w.write_event(Event::End(BytesEnd::new(tag)))?;
        w.write_event(Event::Text(BytesText::from_escaped("\n")))
    };
    text_el(&mut w, "category", &spec.category)?;
    text_el(&mut w, "solver", &spec.solver)?;
    text_el(&mut w, "inputMethod", spec.input.neos_name())?;
    text_el(
        &mut w,
        "client",
        concat!("tilekit/", env!("CARGO_PKG_VERSION")),
    )?;
    text_el(&mut w, "priority", spec.priority.as_str())?;
    text_el(&mut w, "email", &spec.email)?;
    cdata_el(&mut w, spec.input.payload_tag(), &spec.model)?;
    match spec.input {
        InputMethod::Lp | InputMethod::Mps => {
            cdata_el(&mut w, "options", "")?;
            cdata_el(&mut w, "wantsol", "yes")?;
        }
        InputMethod::Gams => {
            cdata_el(&mut w, "options", "")?;
            cdata_el(&mut w, "parameters", "")?;
            text_el(&mut w, "gdx", "")?;
            text_el(&mut w, "restart", "")?;
            cdata_el(&mut w, "wantgdx", "")?;
            cdata_el(&mut w, "wantlst", "yes")?;
            cdata_el(&mut w, "wantlog", "yes")?;
        }
    }
    cdata_el(&mut w, "comments", &spec.comments)?;
    w.write_event(Event::End(BytesEnd::new("document")))?;
    w.write_event(nl())?;
    w.into_inner().flush()?;
    Ok(())
}

/// [`write_job`] into a `String`.
pub fn job_to_string(spec: &JobSpec) -> Result<String, JobError> {
    let mut buf = Vec::new();
    write_job(spec, &mut buf)?;
    String::from_utf8(buf).map_err(|e| JobError::Xml(e.to_string()))
}

/// The children of a `<document>`: each tag with its text (CDATA sections and text joined),
/// in document order. Nested elements are rejected: job documents are flat.
pub fn read_job_fields(xml: &str) -> Result<Vec<(String, String)>, JobError> {
    let mut reader = Reader::from_str(xml);
    let mut fields: Vec<(String, String)> = Vec::new();
    let mut depth = 0usize;
    let mut seen_document = false;
    let mut current: Option<(String, String)> = None;
    let xml_err = |r: &Reader<&[u8]>, e: &dyn std::fmt::Display| {
        JobError::Xml(format!("at byte {}: {e}", r.buffer_position()))
    };
    loop {
        let ev = reader.read_event().map_err(|e| xml_err(&reader, &e))?;
        match ev {
            Event::Start(s) => {
                let name = s.name().as_ref().to_string();
                match depth {
                    0 if name == "document" && !seen_document => seen_document = true,
                    0 => {
                        return Err(JobError::Content(format!(
                            "the root element must be one <document>, found <{name}>"
                        )));
                    }
                    1 => current = Some((name, String::new())),
                    _ => {
                        return Err(JobError::Content(format!(
                            "<{name}> is nested inside <{}>: job fields hold text only",
                            current.as_ref().map(|c| c.0.as_str()).unwrap_or("?")
                        )));
                    }
                }
                depth += 1;
            }
            Event::Empty(s) => {
                let name = s.name().as_ref().to_string();
                if depth != 1 {
                    return Err(JobError::Content(format!(
                        "<{name}/> is nested or outside <document>: job fields hold text only"
                    )));
                }
                fields.push((name, String::new()));
            }
            Event::End(_) => {
                depth = depth.saturating_sub(1);
                if depth == 1
                    && let Some(f) = current.take()
                {
                    fields.push(f);
                }
            }
            Event::Text(t) => {
                let text = t.xml10_content();
                match current.as_mut() {
                    Some((_, buf)) if depth == 2 => buf.push_str(&text),
                    _ if text.trim().is_empty() => {}
                    _ => {
                        return Err(JobError::Content(format!(
                            "text {:?} outside any field",
                            text.trim()
                        )));
                    }
                }
            }
            Event::CData(c) => match current.as_mut() {
                Some((_, buf)) if depth == 2 => buf.push_str(&c.xml10_content()),
                _ => return Err(JobError::Content("CDATA outside any field".into())),
            },
            Event::GeneralRef(r) => {
                let ch = match r.resolve_char_ref().map_err(|e| xml_err(&reader, &e))? {
                    Some(c) => c,
                    None => match r.xml10_content().as_ref() {
                        "amp" => '&',
                        "lt" => '<',
                        "gt" => '>',
                        "quot" => '"',
                        "apos" => '\'',
                        other => {
                            return Err(JobError::Xml(format!("unknown entity &{other};")));
                        }
                    },
                };
                match current.as_mut() {
                    Some((_, buf)) if depth == 2 => buf.push(ch),
                    _ => return Err(JobError::Content("an entity outside any field".into())),
                }
            }
            Event::Eof => break,
            Event::Decl(_) | Event::Comment(_) | Event::PI(_) | Event::DocType(_) => {}
        }
    }
    if depth != 0 {
        return Err(JobError::Xml("the document ends inside an element".into()));
    }
    if !seen_document {
        return Err(JobError::Content("no <document> element".into()));
    }
    Ok(fields)
}

/// Read a job document back into a [`JobSpec`]. Accepts `<inputType>` as well as
/// `<inputMethod>`; unknown extra fields are ignored.
pub fn parse_job(xml: &str) -> Result<JobSpec, JobError> {
    let fields = read_job_fields(xml)?;
    let get = |tag: &str| -> Option<&str> {
        fields
            .iter()
            .find(|(t, _)| t == tag)
            .map(|(_, v)| v.as_str())
    };
    let need = |tag: &'static str| -> Result<String, JobError> {
        get(tag)
            .map(|v| v.trim().to_string())
            .ok_or_else(|| JobError::Content(format!("no <{tag}>")))
    };
    let input_text = get("inputMethod")
        .or_else(|| get("inputType"))
        .ok_or_else(|| JobError::Content("no <inputMethod>".into()))?
        .trim()
        .to_string();
    let input = InputMethod::parse(&input_text).ok_or_else(|| JobError::Field {
        field: "inputMethod",
        value: input_text.clone(),
        expected: "LP, MPS or GAMS",
    })?;
    let priority_text = get("priority").unwrap_or("long").trim().to_string();
    let priority = Priority::parse(&priority_text).ok_or_else(|| JobError::Field {
        field: "priority",
        value: priority_text.clone(),
        expected: "short or long",
    })?;
    let model = get(input.payload_tag())
        .ok_or_else(|| JobError::Content(format!("no <{}> with the model", input.payload_tag())))?
        .to_string();
    Ok(JobSpec {
        category: need("category")?,
        solver: need("solver")?,
        input,
        priority,
        email: need("email")?,
        model,
        comments: get("comments").unwrap_or("").to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(input: InputMethod, model: &str) -> JobSpec {
        JobSpec {
            category: "milp".into(),
            solver: "Cbc".into(),
            input,
            priority: Priority::Short,
            email: "you@example.org".into(),
            model: model.into(),
            comments: "tilekit example".into(),
        }
    }

    /// The example in templates/ is this writer's output for a tiny MPS model.
    #[test]
    fn example_in_templates_matches_the_writer() {
        let model = "NAME example\nROWS\n N obj\n L c1\nCOLUMNS\n    M1 'MARKER' 'INTORG'\n    x obj 1 c1 1\n    M2 'MARKER' 'INTEND'\nRHS\n    rhs c1 4\nBOUNDS\n UP bnd x 4\nENDATA\n";
        let text = job_to_string(&spec(InputMethod::Mps, model)).unwrap();
        let expected = include_str!("../../templates/neos_job_example.xml");
        assert_eq!(text, expected);
    }

    #[test]
    fn round_trips_every_input_method() {
        for input in [InputMethod::Lp, InputMethod::Mps, InputMethod::Gams] {
            let s = spec(input, "line 1 <&> \"q\"\n  line 2\n");
            let text = job_to_string(&s).unwrap();
            assert_eq!(parse_job(&text).unwrap(), s, "{text}");
            let payload = format!("<{}><![CDATA[line 1 <&>", input.payload_tag());
            assert!(text.contains(&payload), "{text}");
        }
    }

    #[test]
    fn cdata_terminator_in_the_payload_is_split() {
        let model = "a ]]> b ]]]]> c ]]>";
        let s = spec(InputMethod::Lp, model);
        let text = job_to_string(&s).unwrap();
        // One CDATA section per field (payload, options, wantsol, comments), plus one more
        // for each `]]>` in the payload.
        assert_eq!(text.matches("<![CDATA[").count(), 4 + 3);
        assert!(
            text.contains(
                "<LP><![CDATA[a ]]]]><![CDATA[> b ]]]]]]><![CDATA[> c ]]]]><![CDATA[>]]></LP>"
            ),
            "{text}"
        );
        assert_eq!(parse_job(&text).unwrap().model, model);
    }

    #[test]
    fn email_is_required_and_checked() {
        for bad in ["", "nobody", "a@b", "a b@c.org", "x@.org", "<x>@y.org"] {
            let mut s = spec(InputMethod::Mps, "m");
            s.email = bad.into();
            let e = job_to_string(&s).unwrap_err().to_string();
            assert!(e.contains("NEOS requires an e-mail address"), "{bad}: {e}");
        }
        let mut s = spec(InputMethod::Mps, "m");
        s.solver = "Cbc</solver>".into();
        assert!(
            job_to_string(&s)
                .unwrap_err()
                .to_string()
                .contains("solver")
        );
    }

    #[test]
    fn malformed_documents_are_errors() {
        let err = |x: &str| parse_job(x).unwrap_err().to_string();
        assert!(err("<document><category>milp</document>").contains("well-formed"));
        assert!(err("<document><category>milp</category>").contains("ends inside"));
        assert!(err("<job></job>").contains("<document>"));
        assert!(err("<document><category>milp</category></document>").contains("inputMethod"));
        assert!(err("<document><a><b/></a></document>").contains("nested"));
        let no_model = "<document><category>milp</category><solver>Cbc</solver>\
            <inputMethod>MPS</inputMethod><email>a@b.org</email></document>";
        assert!(err(no_model).contains("<MPS>"));
        let ok = "<document><category>milp</category><solver>Cbc</solver>\
            <inputType>GAMS</inputType><email>a@b.org</email><model>x &amp; y</model></document>";
        let s = parse_job(ok).unwrap();
        assert_eq!((s.input, s.model.as_str()), (InputMethod::Gams, "x & y"));
        assert_eq!(s.priority, Priority::Long);
    }
}
