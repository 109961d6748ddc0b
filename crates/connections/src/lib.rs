//! Accepting connections so that no client can hold the server: hyper's HTTP/1 server with a
//! header read time-out (which also ends idle kept-alive connections), a cap on open connections
//! (one more is answered 503 and closed at once, so the file limit is never reached and the
//! server keeps answering once a held connection times out), and a graceful shutdown with a
//! deadline.
//!
//! Both of boardbench's servers hand their axum [`Router`] to [`serve`]: the results service
//! (multi-thread runtime, with tower-http's body time-out in its own router) and the board's
//! `monitor --listen` (a current-thread runtime). Every connection is its own task, so a client
//! that holds one half-open delays no other request. What an operator should know is handed to
//! the caller as an [`Event`].

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;

/// What [`serve`] holds every client to.
#[derive(Debug, Clone)]
pub struct ConnectionLimits {
    /// A request's headers must arrive within this, counted from the first byte, or — on a
    /// kept-alive connection — from the end of the previous response (the idle limit).
    pub header_timeout: Duration,
    /// Connections served at once; one more is answered [`Self::busy`] and closed.
    pub max_connections: usize,
    /// Connections served at once from one client address (0: no such cap); one more from
    /// that address is answered [`Self::busy`] and closed, so one client holding connections
    /// cannot take [`Self::max_connections`] from everyone else.
    pub max_per_address: usize,
    /// After the shutdown signal: how long requests in flight (and connections still sending
    /// their headers) may take before every connection is closed.
    pub shutdown_deadline: Duration,
    /// Whether a connection may carry more than one request (HTTP/1.1 keep-alive). Without it
    /// every answer says `Connection: close`.
    pub keep_alive: bool,
    /// The answer to a connection over the limit (status 503).
    pub busy: Busy,
}

/// The body of the 503 answer to a connection over the limit.
#[derive(Debug, Clone, Copy)]
pub struct Busy {
    pub content_type: &'static str,
    pub body: &'static str,
}

/// What happened that the caller may want to log.
#[derive(Debug)]
pub enum Event<'a> {
    /// `accept` failed (out of file descriptors, a connection reset before it was accepted):
    /// the server waits 100 ms and goes on.
    AcceptError(&'a std::io::Error),
    /// The cap was reached: further connections are answered 503 until one closes. Said once
    /// each time the cap is reached.
    ConnectionLimit { max_connections: usize },
    /// A client address already holds [`ConnectionLimits::max_per_address`] connections: one
    /// more from it was answered 503. Said for every connection refused so (the caller may
    /// count them).
    AddressLimit { max_per_address: usize },
    /// Connections were still open at the shutdown deadline and were closed.
    ShutdownDeadline { deadline: Duration },
}

/// Serves `app` on `listener` until `shutdown` completes, then waits for the requests in
/// flight at most `limits.shutdown_deadline` and closes every connection left.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: &ConnectionLimits,
    shutdown: impl Future<Output = ()>,
    on_event: impl Fn(Event<'_>),
) {
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .keep_alive(limits.keep_alive);
    let graceful = GracefulShutdown::new();
    let open = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let per_address = Arc::new(PerAddress::default());
    let busy = busy_answer(&limits.busy);
    let mut refused_logged = false;
    tokio::pin!(shutdown);
    loop {
        let stream = tokio::select! {
            r = listener.accept() => match r {
                Ok((stream, peer)) => (stream, peer.ip()),
                Err(e) => {
                    // Out of file descriptors (or another transient error): say so, wait a
                    // little rather than spin, and go on.
                    on_event(Event::AcceptError(&e));
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let (stream, peer) = stream;
        let Some(from_peer) = per_address.enter(peer, limits.max_per_address) else {
            on_event(Event::AddressLimit {
                max_per_address: limits.max_per_address,
            });
            tokio::spawn(refuse(stream, Arc::clone(&busy)));
            continue;
        };
        let Ok(permit) = Arc::clone(&open).try_acquire_owned() else {
            if !refused_logged {
                on_event(Event::ConnectionLimit {
                    max_connections: limits.max_connections,
                });
                refused_logged = true;
            }
            tokio::spawn(refuse(stream, Arc::clone(&busy)));
            continue;
        };
        refused_logged = false;
        let conn =
            http.serve_connection(TokioIo::new(stream), TowerToHyperService::new(app.clone()));
        let conn = graceful.watch(conn);
        tokio::spawn(async move {
            let _ = conn.await;
            drop(permit);
            drop(from_peer);
        });
    }
    drop(listener);
    let deadline = limits.shutdown_deadline;
    if tokio::time::timeout(deadline, graceful.shutdown())
        .await
        .is_err()
    {
        on_event(Event::ShutdownDeadline { deadline });
    }
}

/// Open connections by client address.
#[derive(Default)]
struct PerAddress {
    open: std::sync::Mutex<std::collections::HashMap<std::net::IpAddr, usize>>,
}

/// One connection of an address, counted until dropped.
struct FromPeer {
    table: Option<Arc<PerAddress>>,
    peer: std::net::IpAddr,
}

impl PerAddress {
    /// Counts a connection from `peer`, or `None` when it holds `max` already (0: no cap).
    fn enter(self: &Arc<Self>, peer: std::net::IpAddr, max: usize) -> Option<FromPeer> {
        if max == 0 {
            return Some(FromPeer { table: None, peer });
        }
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let n = open.entry(peer).or_insert(0);
        if *n >= max {
            return None;
        }
        *n += 1;
        Some(FromPeer {
            table: Some(Arc::clone(self)),
            peer,
        })
    }
}

impl Drop for FromPeer {
    fn drop(&mut self) {
        if let Some(t) = &self.table {
            let mut open = t.open.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(n) = open.get_mut(&self.peer) {
                *n -= 1;
                if *n == 0 {
                    open.remove(&self.peer);
                }
            }
        }
    }
}

fn busy_answer(busy: &Busy) -> Arc<[u8]> {
    format!(
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: {}\r\nRetry-After: 1\r\n\
         Connection: close\r\nContent-Length: {}\r\n\r\n{}",
        busy.content_type,
        busy.body.len(),
        busy.body
    )
    .into_bytes()
    .into()
}

/// One connection over the limit: a short 503 and the connection closed.
async fn refuse(mut stream: TcpStream, answer: Arc<[u8]>) {
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        let _ = stream.write_all(&answer).await;
        let _ = stream.shutdown().await;
    })
    .await;
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};
    use std::net::SocketAddr;
    use std::sync::Mutex;
    use std::time::Instant;

    fn limits(max_connections: usize) -> ConnectionLimits {
        ConnectionLimits {
            header_timeout: Duration::from_millis(300),
            max_connections,
            max_per_address: 0,
            shutdown_deadline: Duration::from_millis(300),
            keep_alive: false,
            busy: Busy {
                content_type: "text/plain",
                body: "busy\n",
            },
        }
    }

    /// Serves a one-route app on a current-thread runtime in a thread of its own until `stop`
    /// is sent; the events it reported come back when the thread ends.
    fn start(
        limits: ConnectionLimits,
    ) -> (
        SocketAddr,
        tokio::sync::oneshot::Sender<()>,
        std::thread::JoinHandle<Vec<String>>,
    ) {
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let (tx, rx) = std::sync::mpsc::channel();
        let server = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            let events = Mutex::new(Vec::new());
            rt.block_on(async {
                let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
                tx.send(listener.local_addr().unwrap()).unwrap();
                let app = Router::new().route("/", axum::routing::get(|| async { "hello\n" }));
                serve(
                    listener,
                    app,
                    &limits,
                    async {
                        let _ = stopped.await;
                    },
                    |e| events.lock().unwrap().push(format!("{e:?}")),
                )
                .await;
            });
            events.into_inner().unwrap()
        });
        let addr = rx.recv_timeout(Duration::from_secs(10)).unwrap();
        (addr, stop, server)
    }

    fn connect(addr: SocketAddr) -> std::net::TcpStream {
        let s = std::net::TcpStream::connect_timeout(&addr, Duration::from_secs(5)).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        s
    }

    fn get(addr: SocketAddr) -> String {
        let mut s = connect(addr);
        s.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
        let mut out = String::new();
        let _ = s.read_to_string(&mut out);
        out
    }

    #[test]
    fn over_the_cap_is_answered_503_and_a_held_connection_times_out() {
        let (addr, stop, server) = start(limits(2));
        let held: Vec<_> = (0..2)
            .map(|_| {
                let mut s = connect(addr);
                s.write_all(b"GET / HT").unwrap();
                s
            })
            .collect();
        std::thread::sleep(Duration::from_millis(50));
        let refused = get(addr);
        assert!(
            refused.starts_with("HTTP/1.1 503 Service Unavailable\r\n"),
            "{refused}"
        );
        assert!(
            refused.contains("Content-Type: text/plain\r\n"),
            "{refused}"
        );
        assert!(refused.ends_with("\r\n\r\nbusy\n"), "{refused}");
        // The held connections end at the header time-out; then there is room again.
        let t0 = Instant::now();
        let answer = loop {
            let a = get(addr);
            if a.contains(" 200 OK") || t0.elapsed() > Duration::from_secs(5) {
                break a;
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        assert!(answer.contains(" 200 OK"), "{answer}");
        // Without keep-alive the answer closes the connection.
        assert!(
            answer.to_ascii_lowercase().contains("connection: close"),
            "{answer}"
        );
        assert!(answer.ends_with("hello\n"), "{answer}");
        drop(held);
        stop.send(()).unwrap();
        let events = server.join().unwrap();
        assert_eq!(
            events
                .iter()
                .filter(|e| e.starts_with("ConnectionLimit"))
                .count(),
            1,
            "{events:?}"
        );
    }

    #[test]
    fn one_address_cannot_take_every_connection() {
        let mut l = limits(8);
        l.max_per_address = 2;
        l.header_timeout = Duration::from_secs(30);
        let (addr, stop, server) = start(l);
        // Two held from 127.0.0.2: a third from there is refused, 127.0.0.1 is served.
        let from = |ip: &str| connect_from(ip, addr);
        let mut held: Vec<_> = (0..2).map(|_| from("127.0.0.2")).collect();
        for s in &mut held {
            s.write_all(b"GET / HT").unwrap();
        }
        std::thread::sleep(Duration::from_millis(50));
        let mut third = from("127.0.0.2");
        third
            .write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            .unwrap();
        let mut out = String::new();
        let _ = third.read_to_string(&mut out);
        assert!(out.starts_with("HTTP/1.1 503"), "{out}");
        assert!(get(addr).contains(" 200 OK"));
        drop(held);
        stop.send(()).unwrap();
        let events = server.join().unwrap();
        assert!(
            events.iter().any(|e| e.starts_with("AddressLimit")),
            "{events:?}"
        );
    }

    /// A connection to `addr` from the loopback address `ip` (any of 127.0.0.0/8 on Linux).
    fn connect_from(ip: &str, addr: SocketAddr) -> std::net::TcpStream {
        // std cannot bind before connecting; tokio's TcpSocket can (on a runtime of its own).
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let ip: std::net::IpAddr = ip.parse().unwrap();
        let s = rt.block_on(async {
            let sock = tokio::net::TcpSocket::new_v4().unwrap();
            sock.bind(SocketAddr::new(ip, 0)).unwrap();
            sock.connect(addr).await.unwrap()
        });
        let s = s.into_std().unwrap();
        s.set_nonblocking(false).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        s
    }

    #[test]
    fn shutdown_closes_held_connections_at_the_deadline() {
        let mut l = limits(8);
        l.header_timeout = Duration::from_secs(30);
        let (addr, stop, server) = start(l);
        assert!(get(addr).contains(" 200 OK"));
        // Halfway through a request's head: a request in flight for the graceful shutdown.
        let mut held = connect(addr);
        held.write_all(b"GET / HT").unwrap();
        std::thread::sleep(Duration::from_millis(50));
        let t0 = Instant::now();
        stop.send(()).unwrap();
        let events = server.join().unwrap();
        let took = t0.elapsed();
        assert!(took >= Duration::from_millis(250), "{took:?}");
        assert!(took < Duration::from_secs(5), "{took:?}");
        assert!(
            events.iter().any(|e| e.starts_with("ShutdownDeadline")),
            "{events:?}"
        );
    }
}
