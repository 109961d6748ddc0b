//! What the `serve_*` tests share: a fresh PostgreSQL database on the test server
//! (scripts/pg-test-server, BOARDBENCH_TEST_PG_URL), the real `boardbench serve` (handing over to
//! `boardbench-serve` beside the board binary) listening on a free port of 127.0.0.1 (it is
//! started on port 0 and says which port it got), and its requests (HTTP/1.1, a bearer token)
//! over the tests' one client, `testsupport::http`.

#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use testsupport::http::Answer;

/// Whether the service tests skip (they start servers: never under qemu).
pub fn skip() -> bool {
    if testsupport::host_only() {
        eprintln!("skipped: service tests do not run under emulation");
        return true;
    }
    false
}

/// A fresh database on the PostgreSQL test server, or `None` (skip, with a note).
pub fn pg_db(name: &str) -> Option<String> {
    testsupport::pg::fresh_db(&format!("serve_{name}"))
}

/// `boardbench ARGS` without a results database from the environment (the CLI tests' one
/// helper, `common::boardbench`: the test binary declares `mod common` once);
/// `boardbench serve …` hands over to the service's own program beside it (crates/serve), which
/// must have been built (`cargo test --workspace` builds it).
pub fn boardbench(args: &[&str]) -> std::process::Output {
    if args.first() == Some(&"serve") {
        testsupport::cli::service_binary(env!("CARGO_BIN_EXE_boardbench"));
    }
    crate::common::boardbench(args)
}

/// `serve token add NAME` → the token.
pub fn token(db: &str, name: &str) -> String {
    let out = boardbench(&["serve", "--db", db, "token", "add", name]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

/// A running `boardbench serve`; killed when dropped.
pub struct Server {
    pub child: Child,
    pub addr: String,
    pub log: Arc<Mutex<String>>,
    reader: Option<std::thread::JoinHandle<()>>,
}

impl Server {
    pub fn start(db: &str, extra: &[&str]) -> Server {
        testsupport::cli::service_binary(env!("CARGO_BIN_EXE_boardbench"));
        let mut child = crate::common::command()
            .args(["serve", "--db", db, "--listen", "127.0.0.1:0"])
            .args(extra)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("boardbench serve starts");
        let mut err = BufReader::new(child.stderr.take().unwrap());
        let mut first = String::new();
        err.read_line(&mut first).expect("first log line");
        let v: serde_json::Value = serde_json::from_str(&first)
            .unwrap_or_else(|e| panic!("first line is not the JSON listening line ({e}): {first}"));
        let addr = v["addr"].as_str().expect("addr").to_string();
        let log = Arc::new(Mutex::new(first));
        let sink = Arc::clone(&log);
        let reader = std::thread::spawn(move || {
            let mut line = String::new();
            while err.read_line(&mut line).unwrap_or(0) > 0 {
                sink.lock().unwrap().push_str(&line);
                line.clear();
            }
        });
        Server {
            child,
            addr,
            log,
            reader: Some(reader),
        }
    }

    pub fn get(&self, path: &str) -> Answer {
        request(&self.addr, "GET", path, None, b"")
    }

    pub fn get_auth(&self, path: &str, token: &str) -> Answer {
        request(&self.addr, "GET", path, Some(token), b"")
    }

    pub fn post(&self, path: &str, token: Option<&str>, body: &[u8]) -> Answer {
        request(&self.addr, "POST", path, token, body)
    }

    pub fn delete(&self, path: &str, token: &str) -> Answer {
        request(&self.addr, "DELETE", path, Some(token), b"")
    }

    /// SIGTERM, then the exit code (within 20 s).
    pub fn terminate(&mut self) -> Option<i32> {
        signal(self.child.id(), "TERM");
        wait_exit(&mut self.child, Duration::from_secs(20))
    }

    /// The log so far; once the server has exited, all of it (the reader has seen the end).
    pub fn log_text(&mut self) -> String {
        if self.child.try_wait().ok().flatten().is_some()
            && let Some(r) = self.reader.take()
        {
            let _ = r.join();
        }
        self.log.lock().unwrap().clone()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn signal(pid: u32, sig: &str) {
    let _ = Command::new("kill")
        .args([&format!("-{sig}"), &pid.to_string()])
        .status();
}

pub fn wait_exit(child: &mut Child, limit: Duration) -> Option<i32> {
    let start = Instant::now();
    while start.elapsed() < limit {
        if let Ok(Some(st)) = child.try_wait() {
            return st.code();
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("the server did not stop within {limit:?}");
}

/// The request head (everything but the body).
pub fn head(method: &str, path: &str, token: Option<&str>, len: usize) -> String {
    let mut h = format!(
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {len}\r\n"
    );
    if let Some(t) = token {
        h.push_str(&format!("Authorization: Bearer {t}\r\n"));
    }
    h.push_str("\r\n");
    h
}

/// One request on a new connection; `Err` when the connection fails (server gone).
pub fn try_request(
    addr: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: &[u8],
) -> std::io::Result<Answer> {
    let t = testsupport::http::Timeouts {
        connect: None,
        io: Duration::from_secs(30),
    };
    testsupport::http::exchange(
        addr,
        t,
        head(method, path, token, body.len()).as_bytes(),
        body,
    )
}

pub fn request(addr: &str, method: &str, path: &str, token: Option<&str>, body: &[u8]) -> Answer {
    try_request(addr, method, path, token, body).unwrap_or_else(|e| panic!("{method} {path}: {e}"))
}

/// A small valid result document; `n` makes it unique.
pub fn doc(device: &str, n: u32) -> serde_json::Value {
    let mut d = serde_json::to_value(testsupport::demo::scaled_run(
        device,
        1.0 + f64::from(n) / 1000.0,
    ))
    .unwrap();
    d["measurements"].as_array_mut().unwrap().truncate(12);
    // Finished, as a boardbench stores and uploads every document (the service then stores it
    // as sent).
    finish::finish_value(&mut d, corpus::corpus()).unwrap();
    // As a client has it: read from JSON text.
    serde_json::from_str(&serde_json::to_string(&d).unwrap()).unwrap()
}

/// The contract's hash: SHA-256 of the document re-serialised by serde_json from a Value (the
/// Value read from the text sent, as the service reads it).
pub fn hash(doc: &serde_json::Value) -> String {
    use sha2::Digest;
    let sent = serde_json::to_string(doc).unwrap();
    let read: serde_json::Value = serde_json::from_str(&sent).unwrap();
    sha2::Sha256::digest(serde_json::to_string(&read).unwrap().as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}
