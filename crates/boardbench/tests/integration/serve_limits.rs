//! `boardbench serve` against slow, hostile and odd clients (issue 27): held half-open
//! connections are closed by the header time-out, the connection cap answers 503 and keeps
//! `/healthz` reachable, SIGTERM ends within the shutdown deadline whatever a client holds,
//! every error is JSON, and an upload is stored as sent or refused with 422 saying where —
//! the same answer on SQLite and PostgreSQL. Everything is bounded in time and skips under
//! qemu (BOARDBENCH_EMULATED).

use crate::serve_util;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use serve_util::{Server, doc, pg_db, token};

/// A connection that sent the start of a request and nothing more.
fn half_open(addr: &str) -> TcpStream {
    testsupport::http::half_open(addr, b"GET /api/v1/ru")
}

/// How long until the server closes `s` (reads EOF or a reset), at most `limit`.
fn closed_within(s: &mut TcpStream, limit: Duration) -> Option<Duration> {
    let start = Instant::now();
    s.set_read_timeout(Some(limit)).unwrap();
    let mut buf = [0u8; 512];
    loop {
        match s.read(&mut buf) {
            Ok(0) | Err(_) if start.elapsed() < limit => return Some(start.elapsed()),
            Ok(_) => continue,
            _ => return None,
        }
    }
}

fn sqlite_db(dir: &tempfile::TempDir) -> String {
    dir.path().join("runs.sqlite").display().to_string()
}

#[test]
fn held_half_open_connections_time_out_and_the_cap_keeps_health_answering() {
    if serve_util::skip() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let s = Server::start(
        &sqlite_db(&dir),
        &["--header-timeout", "1", "--max-connections", "6"],
    );
    let mut held: Vec<TcpStream> = (0..6).map(|_| half_open(&s.addr)).collect();
    std::thread::sleep(Duration::from_millis(200));
    // At the cap: one more connection is answered at once, 503 in JSON, and closed.
    let busy = s.get("/healthz");
    assert_eq!(busy.status, 503, "{}", busy.text());
    assert!(busy.json()["error"].as_str().unwrap().contains("too many"));
    // The held connections are closed by the header time-out (1 s), not kept for ever.
    for c in &mut held {
        let t = closed_within(c, Duration::from_secs(10)).expect("a held connection is closed");
        assert!(t < Duration::from_secs(5), "closed after {t:?}");
    }
    let ok = s.get("/healthz");
    assert_eq!(ok.status, 200);
    assert_eq!(ok.text(), "ok\n");
    // An idle kept-alive connection is ended by the same limit.
    let mut keep = TcpStream::connect(&s.addr).unwrap();
    keep.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    let t = closed_within(&mut keep, Duration::from_secs(10)).expect("the idle connection ends");
    assert!(t < Duration::from_secs(5), "idle for {t:?}");
}

#[test]
fn sigterm_ends_within_the_deadline_while_clients_hold_connections() {
    if serve_util::skip() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut s = Server::start(
        &sqlite_db(&dir),
        &[
            "--header-timeout",
            "60",
            "--body-timeout",
            "60",
            "--shutdown-deadline",
            "1",
        ],
    );
    let _held: Vec<TcpStream> = (0..3).map(|_| half_open(&s.addr)).collect();
    // A body that never comes: the request is in flight when SIGTERM arrives.
    let mut slow = TcpStream::connect(&s.addr).unwrap();
    slow.write_all(
        b"POST /api/v1/runs HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{",
    )
    .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let start = Instant::now();
    serve_util::signal(s.child.id(), "TERM");
    let code = serve_util::wait_exit(&mut s.child, Duration::from_secs(15));
    assert_eq!(code, Some(0));
    assert!(
        start.elapsed() < Duration::from_secs(6),
        "stopped after {:?}",
        start.elapsed()
    );
}

#[test]
fn a_body_that_stops_coming_is_timed_out() {
    if serve_util::skip() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let db = sqlite_db(&dir);
    let tok = token(&db, "alice");
    let s = Server::start(&db, &["--body-timeout", "1"]);
    let mut slow = TcpStream::connect(&s.addr).unwrap();
    slow.write_all(
        format!(
            "POST /api/v1/runs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {tok}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\nConnection: close\r\n\r\n{{"
        )
        .as_bytes(),
    )
    .unwrap();
    slow.set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let start = Instant::now();
    let r = testsupport::http::read_answer(&mut slow).expect("an answer");
    assert!(start.elapsed() < Duration::from_secs(6));
    assert_eq!(r.status, 408, "{}", r.text());
    assert!(r.json()["error"].as_str().is_some());
}

/// Errors are JSON everywhere: an unknown route, a run id that is not a number, a query that
/// does not parse, a method a route does not have, a compare of runs that do not exist.
fn errors_are_json(s: &Server) {
    for (path, status) in [
        ("/no/such/page", 404),
        ("/api/v1/nothing", 404),
        ("/api/v1/runs/abc", 400),
        ("/api/v1/runs?limit=many", 400),
        ("/api/v1/runs/999999", 404),
    ] {
        let r = s.get(path);
        assert_eq!(r.status, status, "{path}: {}", r.text());
        assert!(
            r.header("content-type")
                .unwrap_or_default()
                .starts_with("application/json"),
            "{path}: {}",
            r.headers
        );
        assert!(
            r.json()["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{path}"
        );
    }
    for (path, status) in [
        ("/compare?id=999999", 404),
        ("/compare?ids=1,2,3,4,5,6,7,8,9", 400),
    ] {
        let r = s.get(path);
        assert_eq!(r.status, status, "{path}: {}", r.text());
    }
    let r = serve_util::request(&s.addr, "PUT", "/api/v1/runs", None, b"");
    assert_eq!(r.status, 405);
    assert!(r.json()["error"].is_string());
}

/// The same refusals on every database: U+0000, a repeated key, an unknown top-level field, a
/// schema violation (named by where it is), an overlong tag; and a float stored to the bit.
fn uploads_are_stored_as_sent_or_refused_with_where(s: &Server, tok: &str) {
    let base = doc("Hostile board", 7);
    let post = |body: &[u8], q: &str| s.post(&format!("/api/v1/runs{q}"), Some(tok), body);

    let mut d = base.clone();
    d["producer"] = "boardbench\u{0}0.1".into();
    let r = post(&serde_json::to_vec(&d).unwrap(), "");
    assert_eq!(r.status, 422, "{}", r.text());
    assert!(r.json()["error"].as_str().unwrap().contains("at /producer"));

    let text = serde_json::to_string(&base).unwrap();
    let twice = text.replacen('{', "{\"producer\":\"evil\",", 1);
    let r = post(twice.as_bytes(), "");
    assert_eq!(r.status, 422, "{}", r.text());
    assert!(r.json()["error"].as_str().unwrap().contains("twice"));

    let mut d = base.clone();
    d["padding"] = serde_json::Value::Array(vec![0.into(); 1000]);
    let r = post(&serde_json::to_vec(&d).unwrap(), "");
    assert_eq!(r.status, 422, "{}", r.text());
    assert!(r.json()["error"].as_str().unwrap().contains("padding"));

    let mut d = base.clone();
    d["started"] = serde_json::json!(20261124);
    let r = post(&serde_json::to_vec(&d).unwrap(), "");
    assert_eq!(r.status, 422, "{}", r.text());
    assert!(
        r.json()["error"].as_str().unwrap().contains("/started"),
        "{}",
        r.text()
    );

    let long = "t".repeat(300);
    let r = post(&serde_json::to_vec(&base).unwrap(), &format!("?tag={long}"));
    assert_eq!(r.status, 422, "{}", r.text());

    // Nothing of the above was stored.
    assert_eq!(
        s.get("/api/v1/runs?limit=0").json()["total"].as_i64(),
        Some(0)
    );

    // What is stored is what was sent, floats to the last bit.
    let mut d = base.clone();
    let tricky = 0.1f64 + 0.2;
    d["measurements"][0]["value"] = tricky.into();
    let r = post(&serde_json::to_vec(&d).unwrap(), "");
    assert_eq!(r.status, 201, "{}", r.text());
    let id = r.json()["id"].as_i64().unwrap();
    let back = s.get(&format!("/api/v1/runs/{id}")).json();
    assert_eq!(
        back["measurements"][0]["value"].as_f64().unwrap().to_bits(),
        tricky.to_bits()
    );
    assert_eq!(back, d);
}

#[test]
fn sqlite_errors_are_json_and_uploads_are_checked() {
    if serve_util::skip() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let db = sqlite_db(&dir);
    let tok = token(&db, "alice");
    // The database holds token hashes and every run: only its owner reads it.
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&db).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "{mode:o}");
    let s = Server::start(&db, &[]);
    errors_are_json(&s);
    uploads_are_stored_as_sent_or_refused_with_where(&s, &tok);
}

#[test]
fn postgres_errors_are_json_and_uploads_are_checked() {
    let Some(db) = pg_db("limits") else { return };
    let tok = token(&db, "alice");
    let s = Server::start(&db, &[]);
    errors_are_json(&s);
    uploads_are_stored_as_sent_or_refused_with_where(&s, &tok);
}
