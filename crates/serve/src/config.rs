//! The operator's settings; the CLI (`boardbench serve`) fills them from flags and environment.

use store::Location;

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
}
