//! `neos::client::parse_response`: an XML-RPC `methodResponse` from the NEOS server.
fn main() {
    afl::fuzz!(|data: &[u8]| {
        if let Ok(text) = std::str::from_utf8(data) {
            let _ = tilekit::neos::client::parse_response("fuzz", text);
        }
    });
}
