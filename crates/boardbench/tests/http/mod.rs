//! What the export and `monitor --listen` tests share: a plain HTTP GET over std (no client
//! library, no curl), a free port on 127.0.0.1, and a child process that is killed when the
//! test ends however it ends.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::process::Child;
use std::time::{Duration, Instant};

/// An answer: status code, header block, body.
#[allow(dead_code)]
pub struct Answer {
    pub status: u16,
    pub headers: String,
    pub body: String,
}

/// GET `path` from `addr` (HTTP/1.0, connection closed by the server), 5 s at most.
pub fn get(addr: SocketAddr, path: &str) -> std::io::Result<Answer> {
    get_accept(addr, path, "*/*")
}

/// [`get`] with this Accept header.
pub fn get_accept(addr: SocketAddr, path: &str, accept: &str) -> std::io::Result<Answer> {
    let mut s = TcpStream::connect_timeout(&addr, Duration::from_secs(5))?;
    s.set_read_timeout(Some(Duration::from_secs(5)))?;
    s.set_write_timeout(Some(Duration::from_secs(5)))?;
    write!(
        s,
        "GET {path} HTTP/1.0\r\nHost: {addr}\r\nAccept: {accept}\r\n\r\n"
    )?;
    let mut raw = Vec::new();
    s.read_to_end(&mut raw)?;
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    Ok(Answer {
        status,
        headers: head.to_string(),
        body: body.to_string(),
    })
}

/// GET until it answers 200 or `limit` passes (a server that is still starting).
#[allow(dead_code)]
pub fn get_when_up(addr: SocketAddr, path: &str, limit: Duration) -> Answer {
    let t0 = Instant::now();
    loop {
        match get(addr, path) {
            Ok(a) if a.status == 200 => return a,
            r if t0.elapsed() > limit => panic!(
                "{addr}{path} did not answer within {limit:?}: {:?}",
                r.map(|a| (a.status, a.body))
            ),
            _ => std::thread::sleep(Duration::from_millis(100)),
        }
    }
}

/// A port on 127.0.0.1 that was free a moment ago.
#[allow(dead_code)]
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Kills and reaps the child on drop.
pub struct KillOnDrop(pub Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}
