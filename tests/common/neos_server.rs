//! A fake NEOS server for the integration tests: an XML-RPC server on 127.0.0.1 that plays
//! NEOS (<https://neos-server.org>) for the `tilekit neos` client.
//!
//! The server is hand-written (std TcpListener, minimal HTTP/1.1, XML-RPC read with
//! quick-xml and written by hand) and answers the documented forms: `[job, password]`
//! from `submitJob`, `Done`/`Running`/`Waiting`/`Unknown Job`/`Bad Password`, base64
//! results, faults. It "runs" a job by really solving it: LP/MPS jobs with the real `cbc`
//! (its log, then its solution listing, as NEOS shows CBC's output), GAMS jobs with the real
//! `gams` under `execMode=4` (NEOS forbids GAMS jobs to write files) returning its genuine
//! log and listing (or another `gams`, [`start_server_with_gams`]; a job its licence stops
//! answers with that error). [`Mode`] picks how it misbehaves, if at all.
//!
//! [`start_server`] starts one and returns its URL; [`start_counting_server`] also returns a
//! count of the `submitJob` calls it has received (so that a test can tell whether the client
//! submitted at all). Each server serves at most [`MAX_CONNECTIONS`] connections.

use base64::Engine;
use quick_xml::Reader;
use quick_xml::events::Event;
use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tilekit::format::gams_log::licence_problem;
use tilekit::format::neos_job::{self, InputMethod};

/// Solvers the fake NEOS offers, as `listAllSolvers` strings.
pub(crate) const SOLVERS: [&str; 4] = [
    "milp:Cbc:MPS",
    "milp:Cbc:LP",
    "milp:Cbc:GAMS",
    "milp:CPLEX:GAMS",
];

/// Connections one server serves at most: every request loop is bounded.
pub(crate) const MAX_CONNECTIONS: usize = 2000;

/// How a fake NEOS answers.
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Mode {
    /// Behave like NEOS.
    Normal,
    /// Answer every call with an XML-RPC fault.
    Fault,
    /// Accept, read the request, never answer (until the socket is dropped after 20 s).
    Hang,
    /// Answer with XML that ends in the middle.
    Malformed,
    /// Answer HTTP 200 with a body of bytes that are not text.
    Binary,
    /// Answer with bytes that are not HTTP at all.
    NotHttp,
    /// Behave like NEOS, but turn the first placement in each job's output by a quarter
    /// turn ([`tamper`]): a wrong answer that still parses.
    Tamper,
}

struct Job {
    password: String,
    status: &'static str,
    output: Vec<u8>,
    /// Its final results were fetched: it no longer counts as out.
    fetched: bool,
}

type Jobs = Arc<Mutex<HashMap<i64, Job>>>;

/// What a fake NEOS saw: every method called, in order, the priority of every job
/// submitted, and the most jobs that were out at once (submitted, final results not yet
/// fetched).
#[derive(Debug, Default)]
pub(crate) struct ServerLog {
    pub(crate) methods: Vec<String>,
    pub(crate) priorities: Vec<String>,
    pub(crate) max_outstanding: usize,
}

type Log = Arc<Mutex<ServerLog>>;

/// Start a fake NEOS on 127.0.0.1; returns its URL.
pub(crate) fn start_server(mode: Mode) -> String {
    start_counting_server(mode).0
}

/// Start a fake NEOS on 127.0.0.1 whose GAMS jobs run `gams` (a path) instead of the `gams`
/// on `PATH`; returns its URL.
pub(crate) fn start_server_with_gams(mode: Mode, gams: &Path) -> String {
    start(mode, gams.to_path_buf()).0
}

/// Start a fake NEOS on 127.0.0.1; returns its URL and the number of `submitJob` calls it
/// has received so far (every one, in every [`Mode`], whether the job was accepted or not).
pub(crate) fn start_counting_server(mode: Mode) -> (String, Arc<AtomicUsize>) {
    let (url, submits, _) = start(mode, PathBuf::from("gams"));
    (url, submits)
}

/// Start a fake NEOS on 127.0.0.1; returns its URL and what it sees ([`ServerLog`]).
pub(crate) fn start_logging_server(mode: Mode) -> (String, Log) {
    let (url, _, log) = start(mode, PathBuf::from("gams"));
    (url, log)
}

/// Start a fake NEOS whose GAMS jobs run `gams`.
fn start(mode: Mode, gams: PathBuf) -> (String, Arc<AtomicUsize>, Log) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
    let addr = listener.local_addr().unwrap();
    assert!(addr.ip().is_loopback());
    let jobs: Jobs = Arc::new(Mutex::new(HashMap::new()));
    let submits = Arc::new(AtomicUsize::new(0));
    let counter = submits.clone();
    let log: Log = Arc::default();
    let seen = log.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming().take(MAX_CONNECTIONS) {
            let Ok(stream) = stream else { continue };
            let jobs = jobs.clone();
            let submits = submits.clone();
            let gams = gams.clone();
            let log = log.clone();
            std::thread::spawn(move || handle(stream, mode, jobs, &submits, &gams, &log));
        }
    });
    (format!("http://{addr}"), counter, seen)
}

/// Read one HTTP request (headers, then Content-Length bytes of body).
fn read_request(stream: &mut TcpStream) -> Option<String> {
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .ok()?;
    let mut buf = Vec::new();
    let mut byte = [0u8; 1];
    while !buf.ends_with(b"\r\n\r\n") {
        if buf.len() > 64 * 1024 || stream.read(&mut byte).ok()? == 0 {
            return None;
        }
        buf.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&buf).into_owned();
    assert!(head.starts_with("POST "), "not a POST: {head}");
    assert!(
        head.to_ascii_lowercase().contains("content-type: text/xml"),
        "no text/xml content type: {head}"
    );
    let len: usize = head
        .lines()
        .find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.trim()
                .eq_ignore_ascii_case("content-length")
                .then(|| v.trim().parse().ok())?
        })
        .expect("a Content-Length header");
    assert!(len < 64 * 1024 * 1024);
    let mut body = vec![0u8; len];
    stream.read_exact(&mut body).ok()?;
    String::from_utf8(body).ok()
}

#[derive(Debug)]
enum P {
    Int(i64),
    Str(String),
}

/// The method name and flat (int/string) parameters of a methodCall.
fn parse_call(xml: &str) -> (String, Vec<P>) {
    let mut r = Reader::from_str(xml);
    let mut method = String::new();
    let mut params = Vec::new();
    let mut in_name = false;
    let mut typ: Option<String> = None;
    let mut text = String::new();
    let mut in_value = false;
    loop {
        match r.read_event().expect("the request is well-formed XML") {
            Event::Start(s) => match s.name().as_ref() {
                "methodName" => in_name = true,
                "value" => {
                    in_value = true;
                    typ = None;
                    text.clear();
                }
                t => typ = Some(t.to_string()),
            },
            Event::Text(t) if in_name => method.push_str(&t.xml10_content()),
            Event::Text(t) if in_value => text.push_str(&t.xml10_content()),
            Event::GeneralRef(g) => {
                let c = match g.xml10_content().as_ref() {
                    "amp" => '&',
                    "lt" => '<',
                    "gt" => '>',
                    "quot" => '"',
                    "apos" => '\'',
                    _ => g.resolve_char_ref().unwrap().unwrap(),
                };
                if in_value {
                    text.push(c)
                }
            }
            Event::End(e) => match e.name().as_ref() {
                "methodName" => in_name = false,
                "value" => {
                    in_value = false;
                    params.push(match typ.as_deref() {
                        Some("int" | "i4") => P::Int(text.trim().parse().expect("an int")),
                        _ => P::Str(text.clone()),
                    });
                }
                _ => {}
            },
            Event::Eof => break,
            _ => {}
        }
    }
    (method, params)
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
fn v_str(s: &str) -> String {
    format!("<value><string>{}</string></value>", esc(s))
}
fn v_int(i: i64) -> String {
    format!("<value><int>{i}</int></value>")
}
fn v_b64(b: &[u8]) -> String {
    format!(
        "<value><base64>{}</base64></value>",
        base64::engine::general_purpose::STANDARD.encode(b)
    )
}
fn v_array(items: &[String]) -> String {
    format!(
        "<value><array><data>{}</data></array></value>",
        items.concat()
    )
}
fn ok(v: String) -> String {
    format!(
        "<?xml version='1.0'?>\n<methodResponse><params><param>{v}</param></params></methodResponse>\n"
    )
}
fn fault(code: i64, msg: &str) -> String {
    format!(
        "<?xml version='1.0'?>\n<methodResponse><fault><value><struct>\
         <member><name>faultCode</name>{}</member>\
         <member><name>faultString</name>{}</member></struct></value></fault></methodResponse>\n",
        v_int(code),
        v_str(msg)
    )
}

/// Serve one connection: one request, one answer as `mode` says; `submits` counts the
/// `submitJob` calls (a hanging server's too).
fn handle(
    mut stream: TcpStream,
    mode: Mode,
    jobs: Jobs,
    submits: &AtomicUsize,
    gams: &Path,
    log: &Log,
) {
    let Some(body) = read_request(&mut stream) else {
        return;
    };
    let (mut method, mut params) = parse_call(&body);
    log.lock().unwrap().methods.push(method.clone());
    // An account's submission is a submission with two more parameters.
    if method == "authenticatedSubmitJob" {
        method = "submitJob".into();
        params.truncate(1);
    }
    if method == "submitJob" {
        submits.fetch_add(1, Ordering::SeqCst);
    }
    if mode == Mode::Hang {
        std::thread::sleep(Duration::from_secs(20));
        return;
    }
    match mode {
        Mode::Binary => {
            let body = [0xffu8, 0xfe, 0x00, 0x80, 0xc3, 0x28];
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            );
            let _ = stream.write_all(head.as_bytes());
            let _ = stream.write_all(&body);
            return;
        }
        Mode::NotHttp => {
            let _ = stream.write_all(b"\xff\xfe SSH-2.0-nonsense\r\n\r\n");
            return;
        }
        _ => {}
    }
    let reply = match mode {
        Mode::Fault => fault(1, "NEOS is down for maintenance"),
        Mode::Malformed => "<?xml version='1.0'?><methodResponse><params><param><value><str".into(),
        _ => dispatch(&method, &params, &jobs, mode, gams, log),
    };
    let head = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        reply.len()
    );
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(reply.as_bytes());
}

/// Look a job up the way NEOS does: `Err` carries NEOS's word for a bad reference.
fn with_job<T>(
    jobs: &Jobs,
    params: &[P],
    f: impl FnOnce(&mut Job) -> T,
) -> Result<T, &'static str> {
    let (Some(P::Int(n)), Some(P::Str(pw))) = (params.first(), params.get(1)) else {
        return Err("Unknown Job");
    };
    let mut map = jobs.lock().unwrap();
    let job = map.get_mut(n).ok_or("Unknown Job")?;
    if &job.password != pw {
        return Err("Bad Password");
    }
    Ok(f(job))
}

fn dispatch(method: &str, params: &[P], jobs: &Jobs, mode: Mode, gams: &Path, log: &Log) -> String {
    match method {
        "ping" => ok(v_str("NeosServer is alive\n")),
        "printQueue" => {
            let map = jobs.lock().unwrap();
            let mut lines = vec!["Running:".to_string()];
            let mut numbers: Vec<&i64> = map.keys().collect();
            numbers.sort();
            for n in numbers {
                lines.push(format!("  {n} {}", map[n].status));
            }
            ok(v_str(&lines.join("\n")))
        }
        "listAllSolvers" => ok(v_array(&SOLVERS.map(v_str))),
        "listSolversInCategory" => {
            let Some(P::Str(cat)) = params.first() else {
                return fault(2, "listSolversInCategory takes a category");
            };
            let items: Vec<String> = SOLVERS
                .iter()
                .filter_map(|s| s.strip_prefix(&format!("{cat}:")))
                .map(v_str)
                .collect();
            ok(v_array(&items))
        }
        "submitJob" => {
            let Some(P::Str(xml)) = params.first() else {
                return fault(2, "submitJob takes the job XML");
            };
            let spec = match neos_job::parse_job(xml) {
                Ok(s) => s,
                Err(e) => return ok(v_array(&[v_int(0), v_str(&format!("Error: {e}"))])),
            };
            let key = format!(
                "{}:{}:{}",
                spec.category,
                spec.solver,
                spec.input.neos_name()
            );
            if !SOLVERS.contains(&key.as_str()) {
                return ok(v_array(&[
                    v_int(0),
                    v_str(&format!("Error: no solver {key}")),
                ]));
            }
            let mut map = jobs.lock().unwrap();
            let number = 1000 + map.len() as i64;
            let password = format!("pw{number}x");
            map.insert(
                number,
                Job {
                    password: password.clone(),
                    status: "Waiting",
                    output: Vec::new(),
                    fetched: false,
                },
            );
            let out = map.values().filter(|j| !j.fetched).count();
            drop(map);
            {
                let mut l = log.lock().unwrap();
                l.priorities.push(spec.priority.as_str().to_string());
                l.max_outstanding = l.max_outstanding.max(out);
            }
            let jobs = jobs.clone();
            let gams = gams.to_path_buf();
            std::thread::spawn(move || {
                with_job(
                    &jobs,
                    &[P::Int(number), P::Str(format!("pw{number}x"))],
                    |j| j.status = "Running",
                )
                .unwrap();
                let mut output = run_job(spec.input, &spec.model, &gams);
                if mode == Mode::Tamper {
                    output = tamper(&output);
                }
                let mut map = jobs.lock().unwrap();
                let j = map.get_mut(&number).unwrap();
                j.output = output;
                j.status = "Done";
            });
            ok(v_array(&[v_int(number), v_str(&password)]))
        }
        "getJobStatus" => match with_job(jobs, params, |j| j.status) {
            Ok(s) | Err(s) => ok(v_str(s)),
        },
        "getIntermediateResults" => {
            let offset = match params.get(2) {
                Some(P::Int(o)) => *o as usize,
                _ => return fault(2, "getIntermediateResults takes job, password, offset"),
            };
            match with_job(jobs, params, |j| {
                // Output becomes visible when the job ends (this fake does not stream).
                let out = if j.status == "Done" {
                    j.output.clone()
                } else {
                    Vec::new()
                };
                let from = offset.min(out.len());
                (out[from..].to_vec(), out.len().max(offset))
            }) {
                Ok((chunk, off)) => ok(v_array(&[v_b64(&chunk), v_int(off as i64)])),
                Err(word) => ok(v_str(word)),
            }
        }
        "getFinalResults" => {
            // Blocks until the job is done, like NEOS (bounded here).
            let deadline = Instant::now() + Duration::from_secs(300);
            loop {
                match with_job(jobs, params, |j| {
                    if j.status == "Done" {
                        j.fetched = true;
                    }
                    (j.status, j.output.clone())
                }) {
                    Ok(("Done", out)) => return ok(v_b64(&out)),
                    Ok(_) if Instant::now() < deadline => {
                        std::thread::sleep(Duration::from_millis(100))
                    }
                    Ok(_) => return fault(3, "job did not finish"),
                    Err(word) => return ok(v_b64(word.as_bytes())),
                }
            }
        }
        "killJob" => match with_job(jobs, params, |j| j.status = "Done") {
            Ok(()) => ok(v_str("Job is being killed")),
            Err(word) => ok(v_str(word)),
        },
        other => fault(1, &format!("Unknown method {other}")),
    }
}

/// Run the job's model with the real solver, returning what NEOS would: the solver's output.
/// A GAMS job that GAMS stopped for its licence answers with that error, in one sentence,
/// before GAMS's own output.
fn run_job(input: InputMethod, model: &str, gams: &Path) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    match input {
        InputMethod::Lp | InputMethod::Mps => {
            let name = if input == InputMethod::Lp {
                "job.lp"
            } else {
                "job.mps"
            };
            std::fs::write(dir.path().join(name), model).unwrap();
            let out = Command::new("cbc")
                .args([
                    name,
                    "-sec",
                    "250",
                    "-threads",
                    "1",
                    "-solve",
                    "-solu",
                    "solution.txt",
                ])
                .current_dir(dir.path())
                .output()
                .expect("solver cbc not found: run scripts/install-solvers.sh");
            let mut text = out.stdout;
            text.extend_from_slice(&out.stderr);
            text.extend_from_slice(b"\n");
            if let Ok(sol) = std::fs::read(dir.path().join("solution.txt")) {
                text.extend_from_slice(&sol);
            }
            text
        }
        InputMethod::Gams => {
            std::fs::write(dir.path().join("job.gms"), model).unwrap();
            let out = Command::new(gams)
                .args(["job.gms", "execMode=4", "lo=3"])
                .current_dir(dir.path())
                .output()
                .expect("solver gams not found: run scripts/install-solvers.sh");
            let mut text = out.stdout;
            text.extend_from_slice(&out.stderr);
            text.extend_from_slice(b"\n");
            if let Ok(lst) = std::fs::read(dir.path().join("job.lst")) {
                text.extend_from_slice(&lst);
            }
            match licence_problem(&String::from_utf8_lossy(&text)) {
                Some(problem) => [format!("Error: {problem}\n\n").into_bytes(), text].concat(),
                None => text,
            }
        }
    }
}

/// The edge-matching placement `x_tT_rR_cC_aA` of the first line that sets one to 1 (a CBC
/// listing line or a GAMS `tilekit-solution:` line), renamed everywhere in `output` to the
/// same tile in the same cell a quarter turn further. No piece of the META 4×4 instance
/// looks the same after a quarter turn, so the answer is wrong, yet it still parses.
fn tamper(output: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(output).into_owned();
    let name = text
        .lines()
        .find_map(|l| {
            let toks: Vec<&str> = l.split_whitespace().collect();
            toks.windows(2)
                .find(|w| w[0].starts_with("x_t") && w[1].parse::<f64>() == Ok(1.0))
                .map(|w| w[0].to_string())
        })
        .unwrap_or_else(|| panic!("no placement set to 1 in the output:\n{text}"));
    let (stem, turns) = name
        .rsplit_once("_a")
        .expect("a placement name ends in _aA");
    let turned = format!("{stem}_a{}", (turns.parse::<u8>().unwrap() + 1) % 4);
    text.replace(&name, &turned).into_bytes()
}
