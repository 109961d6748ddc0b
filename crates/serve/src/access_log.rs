//! One JSON line per request on stderr (journald keeps it; `jq` reads it): time, method, path,
//! status, latency in milliseconds, response size, and the uploader when a token was valid.
//! The query string is left out: with `--read-token` it is not where tokens go, but filters are
//! user text and the path says enough.

use std::time::Instant;

use axum::extract::Request;
use axum::middleware::Next;
use axum::response::Response;

/// Set by the auth code on the response so the log names the uploader.
#[derive(Clone)]
pub struct Uploader(pub String);

pub fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

pub async fn log(req: Request, next: Next) -> Response {
    let start = Instant::now();
    let method = req.method().to_string();
    let path = req.uri().path().to_string();
    let resp = next.run(req).await;
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    let bytes = axum::body::HttpBody::size_hint(resp.body()).exact();
    let uploader = resp.extensions().get::<Uploader>().map(|u| u.0.clone());
    line(&serde_json::json!({
        "ts": now(),
        "method": method,
        "path": path,
        "status": resp.status().as_u16(),
        "ms": (ms * 1000.0).round() / 1000.0,
        "bytes": bytes,
        "uploader": uploader,
    }));
    resp
}

/// Writes one log line on stderr. A write that fails (stderr closed: `… 2>&1 | head`, a
/// journald restart) is dropped: the log is for the operator, the answers are for the
/// clients, and `eprintln!` would panic in the handler and close the connection unanswered.
pub fn line(v: &serde_json::Value) {
    use std::io::Write;
    let mut text = v.to_string();
    text.push('\n');
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}
