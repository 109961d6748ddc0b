//! Accepting connections so that no client can hold the service: hyper's HTTP/1 server with a
//! header read time-out (which also ends idle kept-alive connections), the body time-out of
//! tower-http (in [`crate::app`]), a cap on open connections (one more is answered 503 and
//! closed at once, so the file limit is never reached and `/healthz` keeps answering once a
//! held connection times out), and a graceful shutdown with a deadline.
//!
//! The results service hands its axum [`Router`] to [`serve`]. Every connection is its own task,
//! so a client that holds one half-open delays no other request. (`boardbench monitor --listen`
//! on a board has a small std server of its own: the board binary carries no web stack.)

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

use crate::access_log;
use crate::config::Limits;

/// What [`serve`] holds every client to.
#[derive(Debug, Clone)]
pub struct ConnectionLimits {
    /// A request's headers must arrive within this, counted from the first byte, or — on a
    /// kept-alive connection — from the end of the previous response (the idle limit).
    pub header_timeout: Duration,
    /// Connections served at once; one more is answered 503 and closed.
    pub max_connections: usize,
    /// After the shutdown signal: how long requests in flight (and connections still sending
    /// their headers) may take before every connection is closed.
    pub shutdown_deadline: Duration,
}

impl Limits {
    /// The results service's connection limits.
    pub fn connections(&self) -> ConnectionLimits {
        ConnectionLimits {
            header_timeout: self.header_timeout,
            max_connections: self.max_connections,
            shutdown_deadline: self.shutdown_deadline,
        }
    }
}

/// Serves `app` on `listener` until `shutdown` completes, then waits for the requests in
/// flight at most `limits.shutdown_deadline` and closes every connection left.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: &ConnectionLimits,
    shutdown: impl Future<Output = ()>,
) {
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout);
    let graceful = GracefulShutdown::new();
    let open = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let mut refused_logged = false;
    tokio::pin!(shutdown);
    loop {
        let stream = tokio::select! {
            r = listener.accept() => match r {
                Ok((stream, _)) => stream,
                Err(e) => {
                    // Out of file descriptors (or another transient error): say so, wait a
                    // little rather than spin, and go on.
                    log(serde_json::json!({"event": "accept-error", "error": e.to_string()}));
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let Ok(permit) = Arc::clone(&open).try_acquire_owned() else {
            if !refused_logged {
                log(serde_json::json!({"event": "connection-limit",
                    "max_connections": limits.max_connections,
                    "note": "further connections are answered 503 until one closes"}));
                refused_logged = true;
            }
            tokio::spawn(refuse(stream));
            continue;
        };
        refused_logged = false;
        let conn =
            http.serve_connection(TokioIo::new(stream), TowerToHyperService::new(app.clone()));
        let conn = graceful.watch(conn);
        tokio::spawn(async move {
            let _ = conn.await;
            drop(permit);
        });
    }
    drop(listener);
    let deadline = limits.shutdown_deadline;
    if tokio::time::timeout(deadline, graceful.shutdown())
        .await
        .is_err()
    {
        log(serde_json::json!({"event": "shutdown-deadline",
            "deadline_s": deadline.as_secs_f64(),
            "note": "connections still open were closed"}));
    }
}

/// One connection over the limit: a short 503 and the connection closed.
async fn refuse(mut stream: TcpStream) {
    const BUSY: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n\
Retry-After: 1\r\nConnection: close\r\nContent-Length: 44\r\n\r\n\
{\"error\":\"too many connections; try again\"}\n";
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        let _ = stream.write_all(BUSY).await;
        let _ = stream.shutdown().await;
    })
    .await;
}

fn log(mut v: serde_json::Value) {
    v["ts"] = access_log::now().into();
    eprintln!("{v}");
}
