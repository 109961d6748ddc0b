//! The service's connection limits, served by the shared `connections` crate (hyper's HTTP/1
//! server with a header read time-out, a cap on open connections answered 503, a graceful
//! shutdown with a deadline; `boardbench monitor --listen` on a board uses the same crate); the
//! body time-out of tower-http is in [`crate::app`]. What the crate reports is logged as one
//! JSON line each, as the rest of the service's log.

use std::future::Future;

use axum::Router;
use connections::{Busy, ConnectionLimits, Event};
use tokio::net::TcpListener;

use crate::access_log;
use crate::config::Limits;

impl Limits {
    /// The results service's connection limits.
    pub fn connections(&self) -> ConnectionLimits {
        ConnectionLimits {
            header_timeout: self.header_timeout,
            max_connections: self.max_connections,
            max_per_address: self.max_per_address,
            shutdown_deadline: self.shutdown_deadline,
            keep_alive: true,
            busy: Busy {
                content_type: "application/json",
                body: "{\"error\":\"too many connections; try again\"}\n",
            },
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
    connections::serve(listener, app, limits, shutdown, log_event).await;
}

fn log_event(event: Event<'_>) {
    let v = match event {
        Event::AcceptError(e) => {
            serde_json::json!({"event": "accept-error", "error": e.to_string()})
        }
        Event::ConnectionLimit { max_connections } => serde_json::json!({
            "event": "connection-limit",
            "max_connections": max_connections,
            "note": "further connections are answered 503 until one closes"}),
        Event::AddressLimit { max_per_address } => {
            // Once a second at most: a client refused in a loop does not fill the log.
            use std::sync::atomic::{AtomicU64, Ordering};
            static LAST: AtomicU64 = AtomicU64::new(0);
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs());
            if LAST.swap(now, Ordering::Relaxed) == now {
                return;
            }
            serde_json::json!({
                "event": "address-limit",
                "max_per_address": max_per_address,
                "note": "a client address holds its share of connections; more from it are answered 503"})
        }
        Event::ShutdownDeadline { deadline } => serde_json::json!({
            "event": "shutdown-deadline",
            "deadline_s": deadline.as_secs_f64(),
            "note": "connections still open were closed"}),
    };
    log(v);
}

fn log(mut v: serde_json::Value) {
    v["ts"] = access_log::now().into();
    access_log::line(&v);
}
