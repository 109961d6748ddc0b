//! The client half of the results service: sends result documents to `POST /api/v1/runs`,
//! retrying connection errors and 5xx with bounded backoff, and remembers per service which
//! local runs it acknowledged, so an upload without runs sends only what is new and a board
//! that is offline now sends its runs later — none lost, none twice.
//!
//! Redaction happens before this crate sees a document (the `redact` crate; the CLI's
//! `cmd/upload.rs` puts the two together). Module map: [`client`] the HTTP side and its retry
//! policy, [`state`] the acknowledgement file, [`paste`] one log to a paste service (`share`),
//! `testing` a stand-in service on 127.0.0.1 for tests (the client's here and the CLI's).

pub mod client;
pub mod paste;
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
    // However the database is spelled (`r.sqlite`, `./r.sqlite`, an absolute path, a link to
    // its directory), the state file is the one in its real directory.
    if let Some(db) = sqlite_db {
        // A link to the database file itself: the state is beside the file it points to (the
        // same run redacted with the same salt, whichever name was used).
        let db = &std::fs::canonicalize(db).unwrap_or_else(|_| db.to_path_buf());
        let dir = db
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(std::path::Path::new("."));
        let dir = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
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

#[cfg(test)]
mod state_path_tests {
    use super::default_state_path;
    use std::path::Path;

    /// One database, one state file, however `--db` spells it.
    #[test]
    fn the_state_file_does_not_move_with_the_spelling_of_the_database() {
        let d = tempfile::tempdir().unwrap();
        let abs = d.path().join("r.sqlite");
        let via_dot = d.path().join(".").join("r.sqlite");
        let a = default_state_path(Some(&abs));
        assert_eq!(a, default_state_path(Some(&via_dot)));
        assert_eq!(
            a.parent().unwrap(),
            std::fs::canonicalize(d.path()).unwrap()
        );
        // A bare file name is the current directory's, not the user's state directory.
        let here = default_state_path(Some(Path::new("r.sqlite")));
        assert_eq!(
            here,
            std::fs::canonicalize(".").unwrap().join("uploads.json")
        );
        assert_eq!(here, default_state_path(Some(Path::new("./r.sqlite"))));
        // A link to the database file in another directory: the real file's state.
        let other = tempfile::tempdir().unwrap();
        std::fs::write(&abs, b"").unwrap();
        let link = other.path().join("link.sqlite");
        std::os::unix::fs::symlink(&abs, &link).unwrap();
        assert_eq!(default_state_path(Some(&link)), a);
    }
}
