//! `neos::client::parse_response`: an XML-RPC `methodResponse` from the NEOS server.

/// One input, as AFL++ hands it over: a panic is a finding.
pub(crate) fn run(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = tilekit::neos::client::parse_response("fuzz", text);
    }
}
