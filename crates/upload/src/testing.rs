//! A stand-in results service for tests (the client's and the CLI's): plain `std::net` on
//! 127.0.0.1, one connection at a time, HTTP/1.1 with `Connection: close`.
//!
//! It follows the upload part of the API contract — `POST /api/v1/runs` with a bearer token:
//! 201 for a new document, 200 for one stored already (same SHA-256 of the canonical JSON),
//! 401 without or with an unknown token, 403 for a revoked token, 413 above the size limit, 422
//! for a body that is not a JSON object with `schema_version` and `producer` — and can be told
//! to answer the next requests with given statuses or to drop connections, to test retries.

use std::collections::{BTreeMap, VecDeque};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A scripted answer for the next request.
#[derive(Debug, Clone)]
pub enum Scripted {
    /// Answer with this status and body (no storing).
    Status(u16, String),
    /// Close the connection without an answer.
    Drop,
}

/// One request as received.
#[derive(Debug, Clone)]
pub struct Request {
    pub method: String,
    pub path: String,
    pub authorization: Option<String>,
    pub body: Vec<u8>,
}

#[derive(Default)]
struct Inner {
    script: VecDeque<Scripted>,
    requests: Vec<Request>,
    /// hash → (id, document)
    stored: BTreeMap<String, (i64, serde_json::Value)>,
    tokens: Vec<String>,
    revoked: Vec<String>,
    max_body: usize,
}

/// The running stand-in service. It stops when dropped (at the end of the test process at the
/// latest: the accept thread is detached).
#[derive(Clone)]
pub struct TestService {
    pub url: String,
    inner: Arc<Mutex<Inner>>,
}

impl TestService {
    /// Starts on a free port of 127.0.0.1, accepting `tokens`.
    pub fn start(tokens: &[&str]) -> TestService {
        Self::start_at(0, tokens)
    }

    /// Starts on this port of 127.0.0.1 (0: a free one), accepting `tokens`.
    pub fn start_at(port: u16, tokens: &[&str]) -> TestService {
        let listener = TcpListener::bind(("127.0.0.1", port)).expect("bind 127.0.0.1");
        let url = format!("http://{}", listener.local_addr().expect("address"));
        let inner = Arc::new(Mutex::new(Inner {
            tokens: tokens.iter().map(|t| t.to_string()).collect(),
            max_body: 8 << 20,
            ..Default::default()
        }));
        let shared = inner.clone();
        std::thread::spawn(move || {
            for conn in listener.incoming() {
                let Ok(conn) = conn else { continue };
                let _ = serve(conn, &shared);
            }
        });
        TestService { url, inner }
    }

    /// Answers the next requests from this script first (in order), then by the contract.
    pub fn script(&self, answers: impl IntoIterator<Item = Scripted>) {
        self.inner.lock().unwrap().script.extend(answers);
    }

    pub fn revoke(&self, token: &str) {
        self.inner.lock().unwrap().revoked.push(token.to_string());
    }

    pub fn set_max_body(&self, bytes: usize) {
        self.inner.lock().unwrap().max_body = bytes;
    }

    /// Every request so far.
    pub fn requests(&self) -> Vec<Request> {
        self.inner.lock().unwrap().requests.clone()
    }

    /// The stored documents, by id.
    pub fn stored(&self) -> Vec<(i64, serde_json::Value)> {
        let mut v: Vec<(i64, serde_json::Value)> = self
            .inner
            .lock()
            .unwrap()
            .stored
            .values()
            .cloned()
            .collect();
        v.sort_by_key(|(id, _)| *id);
        v
    }
}

fn answer(conn: &mut TcpStream, status: u16, body: &str) -> std::io::Result<()> {
    write!(
        conn,
        "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )?;
    conn.flush()
}

fn serve(mut conn: TcpStream, inner: &Mutex<Inner>) -> std::io::Result<()> {
    conn.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut reader = BufReader::new(conn.try_clone()?);
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or("").to_string();
    let path = parts.next().unwrap_or("").to_string();
    let mut authorization = None;
    let mut length = 0usize;
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h)? == 0 || h == "\r\n" || h == "\n" {
            break;
        }
        if let Some((k, v)) = h.split_once(':') {
            let v = v.trim().to_string();
            match k.trim().to_ascii_lowercase().as_str() {
                "authorization" => authorization = Some(v),
                "content-length" => length = v.parse().unwrap_or(0),
                _ => {}
            }
        }
    }
    let mut body = vec![0u8; length];
    reader.read_exact(&mut body)?;
    let mut g = inner.lock().unwrap();
    g.requests.push(Request {
        method: method.clone(),
        path: path.clone(),
        authorization: authorization.clone(),
        body: body.clone(),
    });
    if let Some(s) = g.script.pop_front() {
        drop(g);
        return match s {
            Scripted::Status(code, b) => answer(&mut conn, code, &b),
            Scripted::Drop => conn.shutdown(std::net::Shutdown::Both),
        };
    }
    if method != "POST" || path != "/api/v1/runs" {
        return answer(&mut conn, 404, r#"{"error":"not found"}"#);
    }
    let token = authorization
        .as_deref()
        .and_then(|a| a.strip_prefix("Bearer "))
        .unwrap_or("");
    if g.revoked.iter().any(|t| t == token) {
        return answer(&mut conn, 403, r#"{"error":"token revoked"}"#);
    }
    if !g.tokens.iter().any(|t| t == token) {
        return answer(&mut conn, 401, r#"{"error":"unknown token"}"#);
    }
    if body.len() > g.max_body {
        return answer(&mut conn, 413, r#"{"error":"document too large"}"#);
    }
    let doc: serde_json::Value = match serde_json::from_slice(&body) {
        Ok(v @ serde_json::Value::Object(_))
            if v.get("schema_version").is_some() && v.get("producer").is_some() =>
        {
            v
        }
        _ => return answer(&mut conn, 422, r#"{"error":"not a result document"}"#),
    };
    let hash = crate::document_hash(&doc);
    let (status, id, created) = match g.stored.get(&hash) {
        Some((id, _)) => (200, *id, false),
        None => {
            let id = g.stored.len() as i64 + 1;
            g.stored.insert(hash.clone(), (id, doc));
            (201, id, true)
        }
    };
    drop(g);
    answer(
        &mut conn,
        status,
        &format!(r#"{{"id":{id},"hash":"{hash}","created":{created}}}"#),
    )
}
