//! A small XML-RPC client for the NEOS Server: request encoding and response decoding with
//! quick-xml, transport with ureq (HTTPS through rustls, or plain HTTP), timeouts, and
//! retries with exponential backoff on transient failures (connection refused or reset,
//! time-outs, HTTP 5xx). XML-RPC faults and malformed answers are errors that say so.
//!
//! Only the methods tilekit uses are wrapped: `ping`, `listAllSolvers`,
//! `listSolversInCategory`, `submitJob`, `getJobStatus`, `getIntermediateResults`,
//! `getFinalResults` and `killJob`. [`Client::call`] reaches any other.

use super::NeosError;
use crate::field::Field;
use base64::Engine;
use quick_xml::Reader;
use quick_xml::Writer;
use quick_xml::events::{BytesEnd, BytesStart, BytesText, Event};
use std::time::Duration;

/// An XML-RPC value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// `<int>`, `<i4>`, `<i8>`.
    Int(i64),
    /// `<boolean>`.
    Bool(bool),
    /// `<double>`.
    Double(f64),
    /// `<string>`, an untyped `<value>`, or `<dateTime.iso8601>`.
    Str(String),
    /// `<base64>`, decoded.
    Base64(Vec<u8>),
    /// `<array>`.
    Array(Vec<Value>),
    /// `<struct>`, members in order.
    Struct(Vec<(String, Value)>),
    /// `<nil/>`.
    Nil,
}

impl Value {
    fn kind(&self) -> &'static str {
        match self {
            Value::Int(_) => "int",
            Value::Bool(_) => "boolean",
            Value::Double(_) => "double",
            Value::Str(_) => "string",
            Value::Base64(_) => "base64",
            Value::Array(_) => "array",
            Value::Struct(_) => "struct",
            Value::Nil => "nil",
        }
    }
}

/// Encode a `methodCall` document.
pub fn encode_call(method: &str, params: &[Value]) -> String {
    let mut w = Writer::new(Vec::new());
    // Writing into a Vec cannot fail.
    let _ = w.write_event(Event::Text(BytesText::from_escaped(
        "<?xml version=\"1.0\"?>\n",
    )));
    let _ = write_call(&mut w, method, params);
    String::from_utf8(w.into_inner()).unwrap_or_default()
}

fn write_call(w: &mut Writer<Vec<u8>>, method: &str, params: &[Value]) -> std::io::Result<()> {
    w.write_event(Event::Start(BytesStart::new("methodCall")))?;
    w.write_event(Event::Start(BytesStart::new("methodName")))?;
    w.write_event(Event::Text(BytesText::new(method)))?;
    w.write_event(Event::End(BytesEnd::new("methodName")))?;
    w.write_event(Event::Start(BytesStart::new("params")))?;
    for p in params {
        w.write_event(Event::Start(BytesStart::new("param")))?;
        write_value(w, p)?;
        w.write_event(Event::End(BytesEnd::new("param")))?;
    }
    w.write_event(Event::End(BytesEnd::new("params")))?;
    w.write_event(Event::End(BytesEnd::new("methodCall")))
}

fn write_value(w: &mut Writer<Vec<u8>>, v: &Value) -> std::io::Result<()> {
    let leaf = |w: &mut Writer<Vec<u8>>, tag: &str, text: &str| -> std::io::Result<()> {
        w.write_event(Event::Start(BytesStart::new(tag)))?;
        w.write_event(Event::Text(BytesText::new(text)))?;
        w.write_event(Event::End(BytesEnd::new(tag)))
    };
    w.write_event(Event::Start(BytesStart::new("value")))?;
    match v {
        Value::Int(i) => leaf(w, "int", &i.to_string())?,
        Value::Bool(b) => leaf(w, "boolean", if *b { "1" } else { "0" })?,
        Value::Double(d) => leaf(w, "double", &d.to_string())?,
        Value::Str(s) => leaf(w, "string", s)?,
        Value::Base64(b) => leaf(
            w,
            "base64",
            &base64::engine::general_purpose::STANDARD.encode(b),
        )?,
        Value::Array(items) => {
            w.write_event(Event::Start(BytesStart::new("array")))?;
            w.write_event(Event::Start(BytesStart::new("data")))?;
            for it in items {
                write_value(w, it)?;
            }
            w.write_event(Event::End(BytesEnd::new("data")))?;
            w.write_event(Event::End(BytesEnd::new("array")))?;
        }
        Value::Struct(members) => {
            w.write_event(Event::Start(BytesStart::new("struct")))?;
            for (name, val) in members {
                w.write_event(Event::Start(BytesStart::new("member")))?;
                leaf(w, "name", name)?;
                write_value(w, val)?;
                w.write_event(Event::End(BytesEnd::new("member")))?;
            }
            w.write_event(Event::End(BytesEnd::new("struct")))?;
        }
        Value::Nil => w.write_event(Event::Empty(BytesStart::new("nil")))?,
    }
    w.write_event(Event::End(BytesEnd::new("value")))
}

/// An element of a parsed document: name, child elements, and its own text.
#[derive(Debug, Default)]
struct Node {
    name: String,
    children: Vec<Node>,
    text: String,
}

/// Deepest element nesting accepted (guards the recursive decoder).
const MAX_DEPTH: usize = 64;

fn parse_tree(xml: &str) -> Result<Node, String> {
    let mut reader = Reader::from_str(xml);
    let mut stack: Vec<Node> = Vec::new();
    let mut root: Option<Node> = None;
    loop {
        let ev = reader.read_event().map_err(|e| {
            format!(
                "not well-formed XML at byte {}: {e}",
                reader.buffer_position()
            )
        })?;
        match ev {
            Event::Start(s) => {
                if root.is_some() {
                    return Err("content after the root element".into());
                }
                if stack.len() >= MAX_DEPTH {
                    return Err(format!("elements nested deeper than {MAX_DEPTH}"));
                }
                stack.push(Node {
                    name: s.name().as_ref().to_string(),
                    ..Node::default()
                });
            }
            Event::Empty(s) => {
                let node = Node {
                    name: s.name().as_ref().to_string(),
                    ..Node::default()
                };
                match stack.last_mut() {
                    Some(parent) => parent.children.push(node),
                    None if root.is_none() => root = Some(node),
                    None => return Err("content after the root element".into()),
                }
            }
            Event::End(_) => {
                let node = stack.pop().ok_or("an end tag without a start tag")?;
                match stack.last_mut() {
                    Some(parent) => parent.children.push(node),
                    None => root = Some(node),
                }
            }
            Event::Text(t) => {
                let text = t.xml10_content();
                match stack.last_mut() {
                    Some(n) => n.text.push_str(&text),
                    None if text.trim().is_empty() => {}
                    None => {
                        return Err(format!("text outside the root element: {:?}", text.trim()));
                    }
                }
            }
            Event::CData(c) => match stack.last_mut() {
                Some(n) => n.text.push_str(&c.xml10_content()),
                None => return Err("CDATA outside the root element".into()),
            },
            Event::GeneralRef(r) => {
                let ch = match r.resolve_char_ref().map_err(|e| e.to_string())? {
                    Some(c) => c,
                    None => match r.xml10_content().as_ref() {
                        "amp" => '&',
                        "lt" => '<',
                        "gt" => '>',
                        "quot" => '"',
                        "apos" => '\'',
                        other => return Err(format!("unknown entity &{other};")),
                    },
                };
                match stack.last_mut() {
                    Some(n) => n.text.push(ch),
                    None => return Err("an entity outside the root element".into()),
                }
            }
            Event::Eof => break,
            Event::Decl(_) | Event::Comment(_) | Event::PI(_) | Event::DocType(_) => {}
        }
    }
    if !stack.is_empty() {
        return Err(format!(
            "the document ends inside <{}>",
            stack[stack.len() - 1].name
        ));
    }
    root.ok_or_else(|| "empty document".to_string())
}

fn only_child<'a>(n: &'a Node, name: &str) -> Result<&'a Node, String> {
    match n.children.as_slice() {
        [c] if c.name == name => Ok(c),
        _ => Err(format!(
            "<{}> must hold exactly one <{name}>, found [{}]",
            n.name,
            n.children
                .iter()
                .map(|c| c.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

fn decode_value(v: &Node) -> Result<Value, String> {
    if v.name != "value" {
        return Err(format!("expected <value>, found <{}>", v.name));
    }
    let Some(typed) = v.children.first() else {
        // An untyped value is a string.
        return Ok(Value::Str(v.text.clone()));
    };
    if v.children.len() != 1 {
        return Err("a <value> holds more than one element".into());
    }
    let t = typed.text.trim();
    Ok(match typed.name.as_str() {
        "int" | "i4" | "i8" => Value::Int(
            t.parse()
                .map_err(|_| format!("<{}>{t}</{}> is not an integer", typed.name, typed.name))?,
        ),
        "boolean" => match t {
            "1" => Value::Bool(true),
            "0" => Value::Bool(false),
            _ => return Err(format!("<boolean>{t}</boolean> is not 0 or 1")),
        },
        "double" => Value::Double(
            t.parse()
                .map_err(|_| format!("<double>{t}</double> is not a number"))?,
        ),
        "string" | "dateTime.iso8601" => Value::Str(typed.text.clone()),
        "base64" => {
            let compact: String = typed.text.chars().filter(|c| !c.is_whitespace()).collect();
            Value::Base64(
                base64::engine::general_purpose::STANDARD
                    .decode(compact.as_bytes())
                    .map_err(|e| format!("<base64> does not decode: {e}"))?,
            )
        }
        "array" => {
            let data = only_child(typed, "data")?;
            Value::Array(
                data.children
                    .iter()
                    .map(decode_value)
                    .collect::<Result<_, _>>()?,
            )
        }
        "struct" => {
            let mut members = Vec::new();
            for m in &typed.children {
                if m.name != "member" {
                    return Err(format!("<struct> holds <{}>, not <member>", m.name));
                }
                let name = m
                    .children
                    .iter()
                    .find(|c| c.name == "name")
                    .ok_or("a <member> without <name>")?;
                let val = m
                    .children
                    .iter()
                    .find(|c| c.name == "value")
                    .ok_or("a <member> without <value>")?;
                members.push((name.text.clone(), decode_value(val)?));
            }
            Value::Struct(members)
        }
        "nil" => Value::Nil,
        other => return Err(format!("unknown XML-RPC type <{other}>")),
    })
}

/// Decode a `methodResponse`: its single value, or the fault it carries.
pub fn parse_response(method: &str, body: &str) -> Result<Value, NeosError> {
    let malformed = |detail: String| NeosError::Malformed {
        method: method.to_string(),
        detail,
    };
    let root = parse_tree(body).map_err(malformed)?;
    if root.name != "methodResponse" {
        return Err(malformed(format!(
            "the root element is <{}>, not <methodResponse>",
            root.name
        )));
    }
    let first = root
        .children
        .first()
        .ok_or_else(|| malformed("an empty <methodResponse>".into()))?;
    match first.name.as_str() {
        "fault" => {
            let v =
                decode_value(only_child(first, "value").map_err(malformed)?).map_err(malformed)?;
            let Value::Struct(members) = v else {
                return Err(malformed("a <fault> without a struct".into()));
            };
            let get = |k: &str| members.iter().find(|(n, _)| n == k).map(|(_, v)| v);
            let code = match get("faultCode") {
                Some(Value::Int(c)) => *c,
                _ => 0,
            };
            let message = match get("faultString") {
                Some(Value::Str(s)) => s.clone(),
                Some(other) => format!("{other:?}"),
                None => "(no faultString)".into(),
            };
            Err(NeosError::Fault {
                method: method.to_string(),
                code,
                message,
            })
        }
        "params" => {
            let param = only_child(first, "param").map_err(malformed)?;
            decode_value(only_child(param, "value").map_err(malformed)?).map_err(malformed)
        }
        other => Err(malformed(format!(
            "<methodResponse> holds <{other}>, not <params> or <fault>"
        ))),
    }
}

/// How hard the client tries.
#[derive(Debug, Clone)]
pub struct ClientOptions {
    /// Limit for one request, connection to last byte.
    pub timeout: Duration,
    /// Extra attempts after a transient failure.
    pub retries: u32,
    /// Wait before the first retry; doubled for each further one (capped at 30 s).
    pub backoff: Duration,
    /// A NEOS account: jobs are then submitted with `authenticatedSubmitJob`, and appear in
    /// the account's job list on the NEOS site.
    pub credentials: Option<Credentials>,
}

impl Default for ClientOptions {
    fn default() -> Self {
        ClientOptions {
            timeout: Duration::from_secs(60),
            retries: 3,
            backoff: Duration::from_secs(1),
            credentials: None,
        }
    }
}

/// A NEOS user name and password.
#[derive(Clone, PartialEq, Eq)]
pub struct Credentials {
    /// The user name.
    pub username: String,
    /// The password.
    pub password: String,
}

impl std::fmt::Debug for Credentials {
    /// The password is never printed.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Credentials")
            .field("username", &self.username)
            .finish_non_exhaustive()
    }
}

impl Credentials {
    /// The account in `$NEOS_USERNAME` and `$NEOS_PASSWORD`, as NEOS's own Python client
    /// reads them: `None` when neither is set, an error when only one is.
    pub fn from_env() -> Result<Option<Credentials>, NeosError> {
        let get = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
        match (get("NEOS_USERNAME"), get("NEOS_PASSWORD")) {
            (Some(username), Some(password)) => Ok(Some(Credentials { username, password })),
            (None, None) => Ok(None),
            (Some(_), None) => Err(NeosError::Usage(
                "NEOS_USERNAME is set but NEOS_PASSWORD is not: set both for authenticated submission, or neither".into(),
            )),
            (None, Some(_)) => Err(NeosError::Usage(
                "NEOS_PASSWORD is set but NEOS_USERNAME is not: set both for authenticated submission, or neither".into(),
            )),
        }
    }
}

/// A NEOS job's state, as `getJobStatus` reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JobStatus {
    /// Queued.
    Waiting,
    /// Running.
    Running,
    /// Finished: results can be fetched.
    Done,
}

impl JobStatus {
    /// NEOS's word for it.
    pub fn as_str(self) -> &'static str {
        match self {
            JobStatus::Waiting => "Waiting",
            JobStatus::Running => "Running",
            JobStatus::Done => "Done",
        }
    }
}

/// A transport failure, before retry policy.
enum Failure {
    /// Nothing was sent: safe to retry any method.
    NotSent(String),
    /// Maybe sent: retry only idempotent methods.
    Transient(String),
    /// Timed out: retry only idempotent methods.
    Timeout,
    /// HTTP error status.
    Status(u16, String),
    /// Something answered, but not with an HTTP reply carrying text: retry only idempotent
    /// methods (a proxy's hiccup can look like this), and name it as what it is, not as a
    /// connection that failed.
    Garbled(String),
    /// Anything else: do not retry.
    Fatal(String),
}

/// An XML-RPC client for one NEOS endpoint.
pub struct Client {
    url: String,
    agent: ureq::Agent,
    opts: ClientOptions,
}

/// Largest response accepted (NEOS results of big models can be tens of MB).
const MAX_RESPONSE: u64 = 512 * 1024 * 1024;

impl Client {
    /// A client for `url` (`https://…` or `http://…`).
    pub fn new(url: &str, opts: ClientOptions) -> Result<Self, NeosError> {
        let url = url.trim().to_string();
        let rest = url
            .strip_prefix("https://")
            .or_else(|| url.strip_prefix("http://"))
            .ok_or_else(|| {
                NeosError::Usage(format!(
                    "{} {url:?} is not an http:// or https:// URL",
                    Field::Server
                ))
            })?;
        if rest.is_empty() || rest.starts_with('/') {
            return Err(NeosError::Usage(format!(
                "{} {url:?} has no host",
                Field::Server
            )));
        }
        if opts.timeout.is_zero() {
            return Err(NeosError::Usage(format!(
                "{} must be positive",
                Field::Timeout
            )));
        }
        let config = ureq::Agent::config_builder()
            .timeout_global(Some(opts.timeout))
            .http_status_as_error(false)
            .user_agent(concat!("tilekit/", env!("CARGO_PKG_VERSION")))
            .build();
        Ok(Client {
            url,
            agent: config.into(),
            opts,
        })
    }

    /// The endpoint.
    pub fn url(&self) -> &str {
        &self.url
    }

    fn post_once(&self, body: &str) -> Result<String, Failure> {
        let resp = self
            .agent
            .post(&self.url)
            .header("Content-Type", "text/xml")
            .send(body.as_bytes());
        let mut resp = match resp {
            Ok(r) => r,
            Err(e) => return Err(classify(e)),
        };
        let status = resp.status().as_u16();
        let text = resp
            .body_mut()
            .with_config()
            .limit(MAX_RESPONSE)
            .read_to_string()
            .map_err(classify)?;
        if status >= 300 {
            let snippet: String = text.chars().take(200).collect();
            return Err(Failure::Status(status, snippet));
        }
        Ok(text)
    }

    /// Call `method` with `params`. `idempotent` methods are retried after any transient
    /// failure; others (`submitJob`, `killJob`) only when the request surely never left.
    pub fn call(
        &self,
        method: &str,
        params: &[Value],
        idempotent: bool,
    ) -> Result<Value, NeosError> {
        let body = encode_call(method, params);
        let attempts = self.opts.retries + 1;
        let mut last: Option<Failure> = None;
        for attempt in 0..attempts {
            if attempt > 0 {
                let factor = 1u32 << (attempt - 1).min(16);
                std::thread::sleep(
                    self.opts
                        .backoff
                        .saturating_mul(factor)
                        .min(Duration::from_secs(30)),
                );
            }
            match self.post_once(&body) {
                Ok(text) => return parse_response(method, &text),
                Err(f) => {
                    let retry = match &f {
                        Failure::NotSent(_) => true,
                        Failure::Transient(_) | Failure::Timeout | Failure::Garbled(_) => {
                            idempotent
                        }
                        Failure::Status(s, _) => *s >= 500 && idempotent,
                        Failure::Fatal(_) => false,
                    };
                    last = Some(f);
                    if !retry {
                        return Err(self.failure_error(method, last, attempt + 1));
                    }
                }
            }
        }
        Err(self.failure_error(method, last, attempts))
    }

    fn failure_error(&self, method: &str, f: Option<Failure>, attempts: u32) -> NeosError {
        match f {
            Some(Failure::Timeout) => NeosError::Timeout {
                url: self.url.clone(),
                method: method.to_string(),
                secs: self.opts.timeout.as_secs_f64(),
                attempts,
            },
            Some(Failure::Status(status, body)) => NeosError::Http {
                method: method.to_string(),
                status,
                body,
            },
            Some(Failure::Garbled(r)) => NeosError::Malformed {
                method: method.to_string(),
                detail: format!(
                    "the server at {} answered, but not with an XML-RPC reply: {r}",
                    self.url
                ),
            },
            Some(Failure::NotSent(r) | Failure::Transient(r) | Failure::Fatal(r)) => {
                NeosError::Connect {
                    url: self.url.clone(),
                    reason: r,
                    attempts,
                }
            }
            None => NeosError::Connect {
                url: self.url.clone(),
                reason: "no attempt was made".into(),
                attempts,
            },
        }
    }

    /// `ping()`: the server's greeting.
    pub fn ping(&self) -> Result<String, NeosError> {
        let v = self.call("ping", &[], true)?;
        expect_string("ping", v)
    }

    /// `listAllSolvers()`: `category:solver:input` strings.
    pub fn list_all_solvers(&self) -> Result<Vec<String>, NeosError> {
        let v = self.call("listAllSolvers", &[], true)?;
        expect_strings("listAllSolvers", v)
    }

    /// `listSolversInCategory(category)`: `solver:input` strings.
    pub fn list_solvers_in_category(&self, category: &str) -> Result<Vec<String>, NeosError> {
        let v = self.call(
            "listSolversInCategory",
            &[Value::Str(category.to_string())],
            true,
        )?;
        expect_strings("listSolversInCategory", v)
    }

    /// `submitJob(xml)`, or `authenticatedSubmitJob(xml, user, password)` with
    /// [`ClientOptions::credentials`]: the job number and its password.
    pub fn submit_job(&self, xml: &str) -> Result<(i64, String), NeosError> {
        let (method, params) = match &self.opts.credentials {
            Some(c) => (
                "authenticatedSubmitJob",
                vec![
                    Value::Str(xml.to_string()),
                    Value::Str(c.username.clone()),
                    Value::Str(c.password.clone()),
                ],
            ),
            None => ("submitJob", vec![Value::Str(xml.to_string())]),
        };
        let v = self.call(method, &params, false)?;
        let malformed = |d: String| NeosError::Malformed {
            method: method.into(),
            detail: d,
        };
        match v {
            Value::Array(items) => match items.as_slice() {
                [Value::Int(0), Value::Str(msg)] => Err(NeosError::Refused(msg.trim().to_string())),
                [Value::Int(n), Value::Str(pw)] if *n > 0 => Ok((*n, pw.clone())),
                _ => Err(malformed(format!(
                    "expected [job number, password], got {} items",
                    items.len()
                ))),
            },
            other => Err(malformed(format!(
                "expected an array, got {}",
                other.kind()
            ))),
        }
    }

    /// `getJobStatus(job, password)`.
    pub fn get_job_status(&self, job: i64, password: &str) -> Result<JobStatus, NeosError> {
        let v = self.call("getJobStatus", &job_params(job, password), true)?;
        let s = expect_string("getJobStatus", v)?;
        match s.trim() {
            "Done" => Ok(JobStatus::Done),
            "Running" => Ok(JobStatus::Running),
            "Waiting" => Ok(JobStatus::Waiting),
            other => Err(job_word_error("getJobStatus", job, other)),
        }
    }

    /// `getIntermediateResults(job, password, offset)`: the next chunk of output and the new
    /// offset (in decoded characters).
    pub fn get_intermediate_results(
        &self,
        job: i64,
        password: &str,
        offset: i64,
    ) -> Result<(Vec<u8>, i64), NeosError> {
        let mut params = job_params(job, password);
        params.push(Value::Int(offset));
        let v = self.call("getIntermediateResults", &params, true)?;
        let malformed = |d: String| NeosError::Malformed {
            method: "getIntermediateResults".into(),
            detail: d,
        };
        match v {
            Value::Array(items) => match items.as_slice() {
                [data, Value::Int(off)] => {
                    Ok((bytes_of("getIntermediateResults", job, data)?, *off))
                }
                _ => Err(malformed("expected [output, offset]".into())),
            },
            Value::Str(s) => Err(job_word_error("getIntermediateResults", job, s.trim())),
            other => Err(malformed(format!(
                "expected an array, got {}",
                other.kind()
            ))),
        }
    }

    /// `getFinalResults(job, password)`: the job's whole output (blocks on NEOS until the job
    /// is done; call it after [`Client::get_job_status`] says `Done`).
    pub fn get_final_results(&self, job: i64, password: &str) -> Result<Vec<u8>, NeosError> {
        let v = self.call("getFinalResults", &job_params(job, password), true)?;
        bytes_of("getFinalResults", job, &v)
    }

    /// `printQueue()`: the server's queue, as text.
    pub fn print_queue(&self) -> Result<String, NeosError> {
        let v = self.call("printQueue", &[], true)?;
        expect_string("printQueue", v)
    }

    /// `killJob(job, password)`: the server's reply text.
    pub fn kill_job(&self, job: i64, password: &str) -> Result<String, NeosError> {
        let v = self.call("killJob", &job_params(job, password), false)?;
        let s = expect_string("killJob", v)?;
        match s.trim() {
            "Unknown Job" => Err(NeosError::UnknownJob(job)),
            "Bad Password" => Err(NeosError::BadPassword(job)),
            _ => Ok(s),
        }
    }
}

fn job_params(job: i64, password: &str) -> Vec<Value> {
    vec![Value::Int(job), Value::Str(password.to_string())]
}

fn job_word_error(method: &str, job: i64, word: &str) -> NeosError {
    match word {
        "Unknown Job" => NeosError::UnknownJob(job),
        "Bad Password" => NeosError::BadPassword(job),
        other => NeosError::Malformed {
            method: method.into(),
            detail: format!("unexpected answer {other:?}"),
        },
    }
}

/// Results come as base64; a plain string is accepted too, but the words NEOS uses for a
/// bad job reference are errors.
fn bytes_of(method: &str, job: i64, v: &Value) -> Result<Vec<u8>, NeosError> {
    match v {
        Value::Base64(b) => Ok(b.clone()),
        Value::Str(s) => match s.trim() {
            w @ ("Unknown Job" | "Bad Password") => Err(job_word_error(method, job, w)),
            _ => Ok(s.as_bytes().to_vec()),
        },
        other => Err(NeosError::Malformed {
            method: method.into(),
            detail: format!("expected base64 output, got {}", other.kind()),
        }),
    }
}

fn expect_string(method: &str, v: Value) -> Result<String, NeosError> {
    match v {
        Value::Str(s) => Ok(s),
        Value::Base64(b) => Ok(String::from_utf8_lossy(&b).into_owned()),
        other => Err(NeosError::Malformed {
            method: method.into(),
            detail: format!("expected a string, got {}", other.kind()),
        }),
    }
}

fn expect_strings(method: &str, v: Value) -> Result<Vec<String>, NeosError> {
    match v {
        Value::Array(items) => items
            .into_iter()
            .map(|i| expect_string(method, i))
            .collect(),
        other => Err(NeosError::Malformed {
            method: method.into(),
            detail: format!("expected an array of strings, got {}", other.kind()),
        }),
    }
}

fn classify(e: ureq::Error) -> Failure {
    use std::io::ErrorKind as K;
    match e {
        ureq::Error::Timeout(_) => Failure::Timeout,
        ureq::Error::Io(io) => match io.kind() {
            K::TimedOut | K::WouldBlock => Failure::Timeout,
            K::ConnectionRefused => Failure::NotSent(format!("connection refused ({io})")),
            K::ConnectionReset | K::ConnectionAborted | K::BrokenPipe | K::UnexpectedEof => {
                Failure::Transient(format!("connection lost ({io})"))
            }
            // Only a body can fail to decode: the connection worked and the reply is bytes.
            K::InvalidData => Failure::Garbled(format!("the body is not UTF-8 text ({io})")),
            _ => Failure::Fatal(io.to_string()),
        },
        ureq::Error::HostNotFound => Failure::NotSent("host not found".into()),
        ureq::Error::ConnectionFailed => Failure::NotSent("connection failed".into()),
        ureq::Error::Protocol(p) => Failure::Garbled(format!("not an HTTP reply ({p})")),
        other => Failure::Fatal(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_a_call_with_escaping() {
        let x = encode_call(
            "submitJob",
            &[
                Value::Str("<a>&</a>".into()),
                Value::Int(7),
                Value::Array(vec![Value::Bool(true)]),
            ],
        );
        assert_eq!(
            x,
            "<?xml version=\"1.0\"?>\n<methodCall><methodName>submitJob</methodName><params>\
             <param><value><string>&lt;a&gt;&amp;&lt;/a&gt;</string></value></param>\
             <param><value><int>7</int></value></param>\
             <param><value><array><data><value><boolean>1</boolean></value></data></array></value></param>\
             </params></methodCall>"
        );
    }

    #[test]
    fn decodes_values_and_faults() {
        let r = |inner: &str| {
            parse_response(
                "m",
                &format!(
                    "<?xml version='1.0'?><methodResponse><params><param>{inner}</param></params></methodResponse>"
                ),
            )
        };
        assert_eq!(
            r("<value>plain &amp; text</value>").unwrap(),
            Value::Str("plain & text".into())
        );
        assert_eq!(
            r("<value><array><data><value><int>12</int></value><value><string>pw</string></value></data></array></value>").unwrap(),
            Value::Array(vec![Value::Int(12), Value::Str("pw".into())])
        );
        assert_eq!(
            r("<value><base64>aGVs\nbG8=</base64></value>").unwrap(),
            Value::Base64(b"hello".to_vec())
        );
        let fault = parse_response(
            "ping",
            "<methodResponse><fault><value><struct>\
             <member><name>faultCode</name><value><int>4</int></value></member>\
             <member><name>faultString</name><value><string>Too many params</string></value></member>\
             </struct></value></fault></methodResponse>",
        )
        .unwrap_err();
        assert_eq!(
            fault.to_string(),
            "the NEOS server reported a fault for ping: Too many params (fault code 4)"
        );
        for bad in [
            "",
            "<html>502</html>",
            "<methodResponse><params><param><value><int>x</int></value></param></params></methodResponse>",
            "<methodResponse><params><param><value><base64>!!</base64></value></param></params></methodResponse>",
            "<methodResponse><params>",
            "<methodResponse></methodResponse>",
        ] {
            let e = parse_response("ping", bad).unwrap_err();
            assert!(matches!(e, NeosError::Malformed { .. }), "{bad}: {e}");
        }
    }

    #[test]
    fn rejects_bad_urls() {
        for u in ["neos-server.org:3333", "ftp://x", "http://", "https:///x"] {
            assert!(matches!(
                Client::new(u, ClientOptions::default()),
                Err(NeosError::Usage(_))
            ));
        }
        assert!(Client::new("https://neos-server.org:3333", ClientOptions::default()).is_ok());
    }
}
