//! The tests' one HTTP client: a request written as raw bytes on std's `TcpStream` (no client
//! library, no curl — the tests also send what a client library would refuse to: half
//! requests, bad heads, HEAD), the answer read until the server closes. Plus what the tests of
//! servers share: a free port on 127.0.0.1 and a child killed when the test ends.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::process::Child;
use std::time::{Duration, Instant};

/// An answer: status code, header block (the status line and the headers), body.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub headers: String,
    pub body: Vec<u8>,
}

impl Answer {
    /// The body as text (invalid UTF-8 as U+FFFD).
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// The body as JSON; a body that is not JSON fails the test, with the body shown.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text()))
    }

    /// The value of header `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<String> {
        self.headers.lines().find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.trim()
                .eq_ignore_ascii_case(name)
                .then(|| v.trim().to_string())
        })
    }
}

/// How long a connection may take to open and a read or write to wait.
#[derive(Debug, Clone, Copy)]
pub struct Timeouts {
    pub connect: Option<Duration>,
    pub io: Duration,
}

impl Timeouts {
    /// 5 s to connect, 5 s per read or write: a small local server.
    pub const QUICK: Timeouts = Timeouts {
        connect: Some(Duration::from_secs(5)),
        io: Duration::from_secs(5),
    };
}

/// Opens a connection to `addr` with the timeouts set.
pub fn connect(addr: impl ToSocketAddrs, t: Timeouts) -> std::io::Result<TcpStream> {
    let s = match t.connect {
        Some(limit) => {
            let a = addr
                .to_socket_addrs()?
                .next()
                .ok_or_else(|| std::io::Error::other("no address"))?;
            TcpStream::connect_timeout(&a, limit)?
        }
        None => TcpStream::connect(addr)?,
    };
    s.set_read_timeout(Some(t.io))?;
    s.set_write_timeout(Some(t.io))?;
    Ok(s)
}

/// A slow client: a connection that sent `start` (the beginning of a request) and nothing more,
/// held open — what the servers' header time-out and connection cap are tested with.
pub fn half_open(addr: impl ToSocketAddrs, start: &[u8]) -> TcpStream {
    let mut s = connect(addr, Timeouts::QUICK).expect("connect to the server under test");
    s.write_all(start).expect("send the start of a request");
    s
}

/// Sends `head` then `body` on a new connection and reads the answer. A server that answers
/// early (413) may close before the whole body is sent: that is not an error.
pub fn exchange(
    addr: impl ToSocketAddrs,
    t: Timeouts,
    head: &[u8],
    body: &[u8],
) -> std::io::Result<Answer> {
    let mut s = connect(addr, t)?;
    s.write_all(head)?;
    let _ = s.write_all(body);
    read_answer(&mut s)
}

/// Everything the server sends until it closes, as raw text (an answer that may not parse).
pub fn exchange_raw(addr: impl ToSocketAddrs, t: Timeouts, raw: &[u8]) -> std::io::Result<String> {
    let mut s = connect(addr, t)?;
    s.write_all(raw)?;
    let mut out = Vec::new();
    s.read_to_end(&mut out)?;
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// Reads an answer until the server closes the connection.
pub fn read_answer(s: &mut TcpStream) -> std::io::Result<Answer> {
    let mut raw = Vec::new();
    s.read_to_end(&mut raw)
        .or_else(|e| if raw.is_empty() { Err(e) } else { Ok(0) })?;
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or_else(|| std::io::Error::other("no response head"))?;
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| std::io::Error::other(format!("bad status line: {head}")))?;
    Ok(Answer {
        status,
        headers: head,
        body: raw[split + 4..].to_vec(),
    })
}

/// GET `path` from `addr` (HTTP/1.0, connection closed by the server), 5 s at most.
pub fn get(addr: SocketAddr, path: &str) -> std::io::Result<Answer> {
    get_accept(addr, path, "*/*")
}

/// [`get`] with this Accept header.
pub fn get_accept(addr: SocketAddr, path: &str, accept: &str) -> std::io::Result<Answer> {
    let head = format!("GET {path} HTTP/1.0\r\nHost: {addr}\r\nAccept: {accept}\r\n\r\n");
    exchange(addr, Timeouts::QUICK, head.as_bytes(), b"")
}

/// GET until it answers 200 or `limit` passes (a server that is still starting).
pub fn get_when_up(addr: SocketAddr, path: &str, limit: Duration) -> Answer {
    let t0 = Instant::now();
    loop {
        match get(addr, path) {
            Ok(a) if a.status == 200 => return a,
            r if t0.elapsed() > limit => panic!(
                "{addr}{path} did not answer within {limit:?}: {:?}",
                r.map(|a| (a.status, a.text()))
            ),
            _ => std::thread::sleep(Duration::from_millis(100)),
        }
    }
}

/// A port on 127.0.0.1 that was free a moment ago.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_is_read_until_the_server_closes() {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = l.local_addr().unwrap();
        let server = std::thread::spawn(move || {
            let (mut c, _) = l.accept().unwrap();
            let mut buf = [0u8; 256];
            let n = c.read(&mut buf).unwrap();
            assert!(buf[..n].starts_with(b"GET /x HTTP/1.0\r\n"));
            c.write_all(b"HTTP/1.0 404 Not Found\r\nContent-Type: text/plain\r\n\r\nno\r\n\r\nx")
                .unwrap();
        });
        let a = get(addr, "/x").unwrap();
        server.join().unwrap();
        assert_eq!(a.status, 404);
        assert_eq!(a.header("content-type").as_deref(), Some("text/plain"));
        assert_eq!(a.text(), "no\r\n\r\nx");
    }
}
