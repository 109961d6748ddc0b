//! The client half of the results service: sends result documents to `POST /api/v1/runs`,
//! retrying connection errors and 5xx with bounded backoff, and remembers per service which
//! local runs it acknowledged, so an upload without runs sends only what is new and a board
//! that is offline now sends its runs later — none lost, none twice.
//!
//! Redaction happens before this crate sees a document (the `redact` crate; the CLI's
//! `cmd/upload.rs` puts the two together). Module map: [`client`] the HTTP side and its retry
//! policy, [`state`] the acknowledgement file, `testing` a stand-in service on 127.0.0.1 for
//! tests (the client's here and the CLI's).

pub mod client;
pub mod state;
#[doc(hidden)]
pub mod testing;

pub use client::{Client, Outcome, RetryPolicy, Stored, service_root};
pub use state::{State, StateFile};

use sha2::{Digest, Sha256};

/// SHA-256 (hex) of a document in canonical form: re-serialised from a `serde_json::Value`,
/// whose objects keep their keys sorted — the rule the service uses for its hash.
pub fn document_hash(doc: &serde_json::Value) -> String {
    let text = serde_json::to_string(doc).expect("a JSON value serialises");
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Where the state lives when `--state` is not given: beside the SQLite results database
/// (`uploads.json` in its directory, so the run ids it stands for and the record of what was
/// sent move together), else `$XDG_STATE_HOME/boardbench/uploads.json`
/// (`~/.local/state/boardbench/uploads.json`).
pub fn default_state_path(sqlite_db: Option<&std::path::Path>) -> std::path::PathBuf {
    if let Some(dir) = sqlite_db
        .and_then(|p| p.parent())
        .filter(|d| !d.as_os_str().is_empty())
    {
        return dir.join("uploads.json");
    }
    let base = std::env::var_os("XDG_STATE_HOME")
        .filter(|v| !v.is_empty())
        .map(std::path::PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME").map(|h| std::path::PathBuf::from(h).join(".local/state"))
        })
        .unwrap_or_else(|| std::path::PathBuf::from("."));
    base.join("boardbench/uploads.json")
}
