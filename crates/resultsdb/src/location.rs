//! Where the database is: `--db` / `BOARDBENCH_DB` text, or the default file.
//!
//! Accepted: `postgres://…` / `postgresql://…` (a server), `sqlite:PATH` or a plain file path.
//! Any other `scheme://` (a typo such as `postgress://`, or `mysql://`) is an error: taken as a
//! path it would silently create a local file named after the URL.
//! Default: root uses /var/lib/boardbench/results.sqlite (shared by every user of the board);
//! others `$XDG_DATA_HOME/boardbench/results.sqlite`, else
//! `~/.local/share/boardbench/results.sqlite`.

use std::path::{Path, PathBuf};

use crate::Error;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    Sqlite(PathBuf),
    /// A connection URL (`postgres://user@host:port/db`, also with `?host=/socket/dir`).
    Postgres(String),
}

impl Location {
    /// Parses `--db` text.
    pub fn parse(s: &str) -> Result<Location, Error> {
        let s = s.trim();
        let loc = Self::parse_any(s)?;
        // `--db ""`, `sqlite:`: no file at all (SQLite would open a throw-away database and
        // every run "stored" there would be gone).
        if matches!(&loc, Location::Sqlite(p) if p.as_os_str().is_empty()) {
            return Err(Error::Other(format!(
                "{}: no database file named; use a file path, sqlite:PATH or postgres://user@host/db",
                if s.is_empty() {
                    "an empty database name (--db \"\" or BOARDBENCH_DB=)"
                } else {
                    s
                }
            )));
        }
        // SQLite's in-memory database: every run "stored" there is gone when the command ends.
        if matches!(&loc, Location::Sqlite(p) if p.as_os_str() == ":memory:"
            || p.to_string_lossy().starts_with("file:"))
        {
            return Err(Error::Other(format!(
                "{s}: an in-memory or URI database keeps nothing; use a file path, sqlite:PATH \
                 or postgres://user@host/db (--no-store runs without a database)"
            )));
        }
        Ok(loc)
    }

    fn parse_any(s: &str) -> Result<Location, Error> {
        Ok(
            if s.starts_with("postgres://") || s.starts_with("postgresql://") {
                Location::Postgres(s.to_string())
            } else if let Some(p) = s.strip_prefix("sqlite://") {
                Location::Sqlite(PathBuf::from(p))
            } else if let Some(p) = s.strip_prefix("sqlite:") {
                Location::Sqlite(PathBuf::from(p))
            } else if let Some((scheme, _)) = s.split_once("://")
                && !scheme.is_empty()
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
            {
                return Err(Error::Other(format!(
                    "unknown database URL scheme {scheme}:// in {}: use a file path, sqlite:PATH \
                     or postgres://user@host/db",
                    hide_password(s)
                )));
            } else {
                Location::Sqlite(PathBuf::from(s))
            },
        )
    }

    /// The default SQLite file for the current user.
    pub fn default_sqlite() -> Location {
        let euid = effective_uid();
        let xdg = std::env::var_os("XDG_DATA_HOME").map(PathBuf::from);
        let home = std::env::var_os("HOME").map(PathBuf::from);
        Location::Sqlite(default_path(
            euid == Some(0),
            xdg.as_deref(),
            home.as_deref(),
        ))
    }

    /// `--db` if given, else the default.
    /// `--db ""` and an empty `BOARDBENCH_DB=` are errors, not the default: a script that
    /// meant to name a database must not write into the system's.
    pub fn resolve(db: Option<&str>) -> Result<Location, Error> {
        let env_set_empty = std::env::var_os("BOARDBENCH_DB").is_some_and(|v| v.is_empty());
        match db {
            Some(s) => Location::parse(s),
            None if env_set_empty => Err(Error::Other(
                "BOARDBENCH_DB is set but empty: name a database (a file path, sqlite:PATH or \
                 postgres://…) or unset it for the default"
                    .into(),
            )),
            None if !no_home_needed() => Err(Error::Other(
                "neither HOME nor XDG_DATA_HOME is set, so there is no default database: name \
                 one (--db PATH or BOARDBENCH_DB=) or run with --no-store"
                    .into(),
            )),
            None => Ok(Location::default_sqlite()),
        }
    }

    /// For messages: the path, or the URL without its password.
    pub fn display(&self) -> String {
        match self {
            Location::Sqlite(p) => p.display().to_string(),
            Location::Postgres(url) => hide_password(url),
        }
    }
}

/// The rule of the default path, as a pure function.
pub fn default_path(is_root: bool, xdg_data_home: Option<&Path>, home: Option<&Path>) -> PathBuf {
    let dir = if is_root {
        PathBuf::from("/var/lib/boardbench")
    } else if let Some(x) = xdg_data_home.filter(|x| x.is_absolute()) {
        x.join("boardbench")
    } else if let Some(h) = home {
        h.join(".local/share/boardbench")
    } else {
        PathBuf::from(".")
    };
    dir.join("results.sqlite")
}

/// Whether the default database has a home: root's is /var/lib, a user's needs HOME or an
/// absolute XDG_DATA_HOME (without either it would be `./results.sqlite`, wherever the
/// command happened to start).
fn no_home_needed() -> bool {
    effective_uid() == Some(0)
        || std::env::var_os("XDG_DATA_HOME").is_some_and(|x| Path::new(&x).is_absolute())
        || std::env::var_os("HOME").is_some_and(|h| !h.is_empty())
}

/// The effective user id from /proc (no libc call needed; `None` where /proc is missing).
fn effective_uid() -> Option<u32> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("Uid:"))?;
    line.split_whitespace().nth(2)?.parse().ok()
}

fn hide_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let (authority, query) = match rest.split_once('?') {
        Some((a, q)) => (a, Some(q)),
        None => (rest, None),
    };
    let mut out = match authority.rsplit_once('@') {
        Some((user, host)) if user.contains(':') => {
            let name = user.split(':').next().unwrap_or("");
            format!("{scheme}://{name}:***@{host}")
        }
        _ => format!("{scheme}://{authority}"),
    };
    // A password (or any secret) given as a parameter: `?password=…`, `&sslpassword=…`.
    if let Some(q) = query {
        let params: Vec<String> = q
            .split('&')
            .map(|p| match p.split_once('=') {
                Some((k, _)) if k.to_ascii_lowercase().contains("password") => format!("{k}=***"),
                _ => p.to_string(),
            })
            .collect();
        out.push('?');
        out.push_str(&params.join("&"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_are_hidden_wherever_the_url_gives_them() {
        assert_eq!(
            hide_password("postgres://u:secret@h/db"),
            "postgres://u:***@h/db"
        );
        assert_eq!(
            hide_password("postgres://u@h/db?password=secret&sslmode=require"),
            "postgres://u@h/db?password=***&sslmode=require"
        );
        assert_eq!(
            hide_password("postgresql://h/db?user=u&sslpassword=s"),
            "postgresql://h/db?user=u&sslpassword=***"
        );
    }

    #[test]
    fn parses_db_urls() {
        assert_eq!(
            Location::parse("postgres://u@h/db").unwrap(),
            Location::Postgres("postgres://u@h/db".into())
        );
        assert_eq!(
            Location::parse("sqlite:/tmp/x.db").unwrap(),
            Location::Sqlite("/tmp/x.db".into())
        );
        assert_eq!(
            Location::parse("rel/x.db").unwrap(),
            Location::Sqlite("rel/x.db".into())
        );
    }

    #[test]
    fn a_location_without_a_file_is_an_error() {
        for empty in ["", "  ", "sqlite:", "sqlite://"] {
            let e = Location::parse(empty).unwrap_err().to_string();
            assert!(e.contains("no database file named"), "{empty:?}: {e}");
        }
    }

    /// `--db :memory:` said "stored as run 1" and kept nothing (issue 47).
    #[test]
    fn an_in_memory_database_is_an_error() {
        for mem in [
            ":memory:",
            "sqlite::memory:",
            "sqlite://:memory:",
            "file::memory:",
        ] {
            let e = Location::parse(mem).unwrap_err().to_string();
            assert!(e.contains("keeps nothing"), "{mem}: {e}");
        }
        assert!(Location::parse("memory.sqlite").is_ok());
    }

    #[test]
    fn unknown_schemes_are_errors() {
        for bad in ["mysql://127.0.0.1/x", "postgress://u@h/db", "http://x/y"] {
            let e = Location::parse(bad).unwrap_err().to_string();
            assert!(e.contains("unknown database URL scheme"), "{e}");
        }
        let e = Location::parse("postgress://bob:secret@h/db")
            .unwrap_err()
            .to_string();
        assert!(!e.contains("secret"), "{e}");
    }

    #[test]
    fn default_paths() {
        assert_eq!(
            default_path(true, Some(Path::new("/x")), None),
            PathBuf::from("/var/lib/boardbench/results.sqlite")
        );
        assert_eq!(
            default_path(false, Some(Path::new("/x")), Some(Path::new("/home/u"))),
            PathBuf::from("/x/boardbench/results.sqlite")
        );
        assert_eq!(
            default_path(false, None, Some(Path::new("/home/u"))),
            PathBuf::from("/home/u/.local/share/boardbench/results.sqlite")
        );
    }

    /// Without the `postgres` feature (the board binary's release build) a postgres:// location
    /// is still understood; opening it says what to do instead.
    #[cfg(not(feature = "postgres"))]
    #[test]
    fn postgres_without_the_feature_says_so() {
        let loc = Location::parse("postgres://bob:secret@db/x").unwrap();
        for r in [crate::Store::open(&loc), crate::Store::open_read(&loc)] {
            let Err(e) = r else {
                panic!("opened PostgreSQL without the feature")
            };
            let e = e.to_string();
            assert!(e.contains("built without PostgreSQL"), "{e}");
            assert!(!e.contains("secret"), "{e}");
            assert!(e.contains("boardbench upload"), "{e}");
        }
    }

    #[test]
    fn passwords_are_hidden() {
        assert_eq!(
            hide_password("postgres://bob:secret@db:5432/x"),
            "postgres://bob:***@db:5432/x"
        );
    }
}
