//! What each results service acknowledged, so `upload URL` without runs sends only what is new,
//! and the salt of this machine's redaction tokens.
//!
//! One JSON file (mode 0600: it holds the salt). Local runs are keyed by the SHA-256 of their
//! unredacted document, so a run named by its id and the same run given as a file are one run,
//! and a database rebuilt from the same documents is still known. Every acknowledgement is
//! written at once, atomically (a temporary file in the same directory, fsync, rename, fsync of
//! the directory), under an exclusive lock on `FILE.lock`, so a kill at any moment, or two uploads
//! at the same time, lose nothing the service acknowledged; a run whose answer was lost is sent
//! again and the service answers "stored already" (it deduplicates by hash).

use std::collections::BTreeMap;
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::client::Stored;

/// One acknowledged upload.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ack {
    /// The run's id at the service.
    pub id: i64,
    /// The hash the service gave the (redacted) document.
    pub hash: String,
    /// When, as Unix seconds.
    pub at: u64,
    /// What it was here ("run 12", a file name), for people reading the file.
    pub source: String,
}

/// What one service acknowledged.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Service {
    /// Local document hash → the service's answer.
    #[serde(default)]
    pub acknowledged: BTreeMap<String, Ack>,
}

/// The whole file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    #[serde(default)]
    pub version: u32,
    /// Hex salt of this machine's redaction tokens (made on first use).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub salt: String,
    /// By service root URL.
    #[serde(default)]
    pub services: BTreeMap<String, Service>,
}

impl State {
    /// True when `service` acknowledged the local document `local_hash`.
    pub fn acknowledged(&self, service: &str, local_hash: &str) -> Option<&Ack> {
        self.services.get(service)?.acknowledged.get(local_hash)
    }
}

/// The state file at a path.
#[derive(Debug, Clone)]
pub struct StateFile {
    path: PathBuf,
}

fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

fn random_hex(n: usize) -> std::io::Result<String> {
    let mut buf = vec![0u8; n];
    std::io::Read::read_exact(&mut std::fs::File::open("/dev/urandom")?, &mut buf)?;
    Ok(buf.iter().map(|b| format!("{b:02x}")).collect())
}

impl StateFile {
    pub fn new(path: impl Into<PathBuf>) -> StateFile {
        StateFile { path: path.into() }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The state; an absent file is an empty state. A file that is not the state's JSON is an
    /// error (never silently forgotten: that would send everything again).
    pub fn load(&self) -> Result<State, String> {
        match std::fs::read_to_string(&self.path) {
            Ok(t) => serde_json::from_str(&t)
                .map_err(|e| format!("{}: not an upload state file: {e}", self.path.display())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(State::default()),
            Err(e) => Err(format!("cannot read {}: {e}", self.path.display())),
        }
    }

    /// Runs `change` on the newest state under the lock and writes the result atomically.
    pub fn update<T>(&self, change: impl FnOnce(&mut State) -> T) -> Result<T, String> {
        let dir = self
            .path
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let lock_path = self.path.with_extension("lock");
        let lock_file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .mode(0o600)
            .open(&lock_path)
            .map_err(|e| format!("cannot open {}: {e}", lock_path.display()))?;
        let _lock = nix::fcntl::Flock::lock(lock_file, nix::fcntl::FlockArg::LockExclusive)
            .map_err(|(_, e)| format!("cannot lock {}: {e}", lock_path.display()))?;
        let mut state = self.load()?;
        let out = change(&mut state);
        state.version = 1;
        self.write(dir, &state)?;
        Ok(out)
    }

    fn write(&self, dir: &Path, state: &State) -> Result<(), String> {
        let tmp = dir.join(format!(
            ".{}.{}.tmp",
            self.path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
            std::process::id()
        ));
        let fail = |e: std::io::Error| format!("cannot write {}: {e}", self.path.display());
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .truncate(true)
            .write(true)
            .mode(0o600)
            .open(&tmp)
            .map_err(fail)?;
        let text = serde_json::to_string_pretty(state).expect("state serialises");
        f.write_all(text.as_bytes()).map_err(fail)?;
        f.write_all(b"\n").map_err(fail)?;
        f.sync_all().map_err(fail)?;
        drop(f);
        std::fs::rename(&tmp, &self.path).map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            fail(e)
        })?;
        if let Ok(d) = std::fs::File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    }

    /// The salt of this machine's tokens, made (and written) on first use.
    pub fn salt(&self) -> Result<Vec<u8>, String> {
        let current = self.load()?.salt;
        let hex = if current.is_empty() {
            let fresh = random_hex(32).map_err(|e| format!("no random salt: {e}"))?;
            self.update(|s| {
                if s.salt.is_empty() {
                    s.salt = fresh;
                }
                s.salt.clone()
            })?
        } else {
            current
        };
        Ok(hex.into_bytes())
    }

    /// Remembers that `service` stored the local document `local_hash`.
    pub fn acknowledge(
        &self,
        service: &str,
        local_hash: &str,
        stored: &Stored,
        source: &str,
    ) -> Result<(), String> {
        self.update(|s| {
            s.services
                .entry(service.to_string())
                .or_default()
                .acknowledged
                .insert(
                    local_hash.to_string(),
                    Ack {
                        id: stored.id,
                        hash: stored.hash.clone(),
                        at: now(),
                        source: source.to_string(),
                    },
                );
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn acknowledgements_and_salt_survive_reopening() {
        let dir = tempfile::tempdir().unwrap();
        let f = StateFile::new(dir.path().join("sub/uploads.json"));
        assert_eq!(f.load().unwrap(), State::default());
        let salt = f.salt().unwrap();
        assert_eq!(salt.len(), 64);
        let stored = Stored {
            id: 7,
            hash: "ab".into(),
            created: true,
        };
        f.acknowledge("http://s", "h1", &stored, "run 1").unwrap();
        let again = StateFile::new(dir.path().join("sub/uploads.json"));
        assert_eq!(again.salt().unwrap(), salt);
        let st = again.load().unwrap();
        assert_eq!(st.acknowledged("http://s", "h1").unwrap().id, 7);
        assert!(st.acknowledged("http://other", "h1").is_none());
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(again.path())
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
        // No temporary file is left behind.
        let names: Vec<String> = std::fs::read_dir(dir.path().join("sub"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(names.iter().all(|n| !n.ends_with(".tmp")), "{names:?}");
    }

    #[test]
    fn a_damaged_file_is_an_error_not_an_empty_state() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("uploads.json");
        std::fs::write(&p, "{not json").unwrap();
        assert!(StateFile::new(&p).load().is_err());
        assert!(
            StateFile::new(&p)
                .acknowledge(
                    "u",
                    "h",
                    &Stored {
                        id: 1,
                        hash: "x".into(),
                        created: true
                    },
                    "s"
                )
                .is_err()
        );
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "{not json");
    }
}
