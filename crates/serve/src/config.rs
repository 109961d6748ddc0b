//! The operator's settings; the CLI (`boardbench serve`) fills them from flags and environment.

use std::time::Duration;

use resultsdb::Location;

/// Default upload size limit: 8 MiB (a full run with every monitor series is 1–3 MB).
pub const DEFAULT_MAX_UPLOAD: usize = 8 * 1024 * 1024;

#[derive(Debug, Clone)]
pub struct Config {
    /// `host:port` to listen on (default 127.0.0.1:8080: only this machine until the operator
    /// says otherwise, e.g. behind a TLS reverse proxy).
    pub listen: String,
    pub db: Location,
    /// Largest accepted request body in bytes.
    pub max_upload: usize,
    /// Reading (API and pages) needs a valid token too.
    pub read_token: bool,
    /// Database connections kept open.
    pub connections: usize,
    /// How the service holds against slow and idle clients.
    pub limits: Limits,
}

/// Time and connection limits: a client that is slow, idle or half-open cannot hold the
/// service (docs/serve.md, "Limits").
#[derive(Debug, Clone)]
pub struct Limits {
    /// A request's headers must arrive within this, counted from the first byte, or — on a
    /// kept-alive connection — from the end of the previous response (the idle limit).
    pub header_timeout: Duration,
    /// A request's body must arrive within this, counted from the end of its headers (a
    /// deadline for the whole body, however it trickles).
    pub body_timeout: Duration,
    /// Connections served at once; one more is answered 503 and closed.
    pub max_connections: usize,
    /// Connections served at once from one client address (0: no cap); one more from it is
    /// answered 503 and closed. Behind a proxy every connection is the proxy's: set it to
    /// `max_connections` there and cap per client in the proxy (docs/serve.md).
    pub max_per_address: usize,
    /// Uploads parsed and stored at once (each holds its document in memory); more wait.
    pub max_uploads: usize,
    /// After SIGTERM: how long requests in flight may take before the connections are closed.
    pub shutdown_deadline: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(60),
            max_connections: 512,
            max_per_address: 64,
            max_uploads: 4,
            shutdown_deadline: Duration::from_secs(20),
        }
    }
}
