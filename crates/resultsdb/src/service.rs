//! What the results service (`boardbench serve`) keeps beside the runs: upload tokens and who
//! uploaded each run.
//!
//! A token is shown once when it is made and only its SHA-256 is stored (a stolen database
//! dump gives no usable token; tokens are 256 random bits, so a plain hash is enough). Several
//! tokens may share an uploader name (rotation); revoking a name revokes all of its tokens and
//! keeps them listed, so a revoked token is told apart from an unknown one (403 against 401).
//! A run belongs to the uploader that stored it first; nobody else may change or delete it.

use serde::Serialize;
use serde_json::Value;

use crate::backend::{Dialect, Val};
use crate::table::{Column, sort_rows};
use crate::{Added, Error, Filter, Store, TableRow, filter, now, sha256_hex};

/// One uploader name and its tokens, for `serve token list`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TokenInfo {
    pub uploader: String,
    /// When the first token was made.
    pub created: String,
    pub active_tokens: i64,
    pub revoked_tokens: i64,
    pub runs: i64,
}

/// What a presented token is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TokenCheck {
    Unknown,
    Revoked(String),
    Valid(String),
}

/// One line of the service's run listing.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ServiceListing {
    pub id: i64,
    pub hash: String,
    pub device: Option<String>,
    pub soc: Option<String>,
    pub kernel: Option<String>,
    pub started: Option<String>,
    pub uploader: Option<String>,
}

/// The result of an upload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Upload {
    pub added: Added,
    pub hash: String,
    /// The run's owner (the uploader that stored it first; `None` for a run stored locally).
    pub owner: Option<String>,
}

/// A new random token: `bbt_` and 64 hex digits from the kernel's random source.
pub fn new_token() -> Result<String, Error> {
    use std::io::Read;
    let mut bytes = [0u8; 32];
    std::fs::File::open("/dev/urandom")?.read_exact(&mut bytes)?;
    Ok(format!(
        "bbt_{}",
        bytes.iter().map(|b| format!("{b:02x}")).collect::<String>()
    ))
}

/// The stored form of a token.
pub fn token_hash(token: &str) -> String {
    sha256_hex(token.trim().as_bytes())
}

/// A valid uploader name: 1–64 letters, digits, `.`, `_`, `-`, `@` (it appears in URLs, logs
/// and pages).
pub fn check_uploader_name(name: &str) -> Result<(), Error> {
    let ok = !name.is_empty()
        && name.len() <= 64
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '@'));
    if ok {
        Ok(())
    } else {
        Err(Error::Other(format!(
            "uploader name {name:?}: use 1–64 letters, digits, '.', '_', '-' or '@'"
        )))
    }
}

fn first_i64(rows: &[Vec<Val>]) -> Option<i64> {
    rows.first().and_then(|r| r.first()).and_then(Val::as_i64)
}

impl Store {
    /// Makes a token for `uploader` and returns it (the only time it is seen in clear).
    pub fn token_add(&mut self, uploader: &str) -> Result<String, Error> {
        check_uploader_name(uploader)?;
        let token = new_token()?;
        let hash = token_hash(&token);
        self.db().exec(
            "INSERT INTO tokens (uploader, token_hash, created) VALUES (?, ?, ?)",
            &[
                Val::Text(uploader.into()),
                Val::Text(hash),
                Val::Text(now()),
            ],
        )?;
        Ok(token)
    }

    /// Revokes every active token of `uploader`; the number revoked.
    pub fn token_revoke(&mut self, uploader: &str) -> Result<u64, Error> {
        self.db().exec(
            "UPDATE tokens SET revoked = ? WHERE uploader = ? AND revoked IS NULL",
            &[Val::Text(now()), Val::Text(uploader.into())],
        )
    }

    /// Every uploader name with its token counts and stored runs.
    pub fn token_list(&mut self) -> Result<Vec<TokenInfo>, Error> {
        let rows = self.db().query(
            "SELECT t.uploader, MIN(t.created), \
             SUM(CASE WHEN t.revoked IS NULL THEN 1 ELSE 0 END), \
             SUM(CASE WHEN t.revoked IS NULL THEN 0 ELSE 1 END), \
             (SELECT COUNT(*) FROM runs r WHERE r.uploader = t.uploader) \
             FROM tokens t GROUP BY t.uploader ORDER BY t.uploader",
            &[],
        )?;
        Ok(rows
            .into_iter()
            .map(|r| TokenInfo {
                uploader: r[0].as_str().unwrap_or_default().into(),
                created: r[1].as_str().unwrap_or_default().into(),
                active_tokens: r[2].as_i64().unwrap_or(0),
                revoked_tokens: r[3].as_i64().unwrap_or(0),
                runs: r[4].as_i64().unwrap_or(0),
            })
            .collect())
    }

    /// Whose token this is, and whether it is still valid.
    pub fn token_check(&mut self, token: &str) -> Result<TokenCheck, Error> {
        let rows = self.db().query(
            "SELECT uploader, revoked FROM tokens WHERE token_hash = ?",
            &[Val::Text(token_hash(token))],
        )?;
        Ok(match rows.into_iter().next() {
            None => TokenCheck::Unknown,
            Some(mut r) => {
                let revoked = !matches!(r.pop(), Some(Val::Null) | None);
                let name = r.pop().and_then(Val::into_string).unwrap_or_default();
                if revoked {
                    TokenCheck::Revoked(name)
                } else {
                    TokenCheck::Valid(name)
                }
            }
        })
    }

    /// Stores an uploaded document for `uploader`. The document must read as this version's
    /// result document (else [`Error::NotADocument`]). Tags may only be added to one's own
    /// runs: tags on another uploader's identical run are refused with [`Error::Forbidden`]
    /// before anything is written.
    pub fn upload(&mut self, doc: Value, tags: &[String], uploader: &str) -> Result<Upload, Error> {
        if let Err(e) = serde_json::from_value::<document::ResultDocument>(doc.clone()) {
            return Err(Error::NotADocument(e.to_string()));
        }
        let hash = sha256_hex(serde_json::to_string(&doc)?.as_bytes());
        if !tags.is_empty()
            && let Some((id, owner)) = self.owner_by_hash(&hash)?
            && owner.as_deref() != Some(uploader)
        {
            return Err(Error::Forbidden(format!(
                "run {id} belongs to another uploader"
            )));
        }
        // A delete of the identical run between the INSERT that found it and the reads after
        // (or its rows gone under the tags' INSERT) is a race, not a failure: once more, and
        // the run is stored anew.
        let mut tries = 0;
        loop {
            tries += 1;
            let (added, hash) = match self.add_value_by(doc.clone(), tags, Some(uploader)) {
                Ok(a) => a,
                Err(e) if tries < 3 && raced_with_a_delete(&e) => continue,
                Err(e) => return Err(e),
            };
            let owner = match added {
                Added::New(_) => Some(uploader.to_string()),
                Added::Duplicate(id) => match self.run_owner(id)? {
                    Some(owner) => owner,
                    None if tries < 3 => continue,
                    None => None,
                },
            };
            return Ok(Upload { added, hash, owner });
        }
    }

    fn owner_by_hash(&mut self, hash: &str) -> Result<Option<(i64, Option<String>)>, Error> {
        let rows = self.db().query(
            "SELECT id, uploader FROM runs WHERE doc_hash = ?",
            &[Val::Text(hash.into())],
        )?;
        Ok(rows.into_iter().next().map(|mut r| {
            let owner = r.pop().and_then(Val::into_string);
            (r[0].as_i64().unwrap_or(0), owner)
        }))
    }

    /// `Some(owner)` for a stored run (owner `None` when stored locally), `None` without the run.
    pub fn run_owner(&mut self, id: i64) -> Result<Option<Option<String>>, Error> {
        let rows = self
            .db()
            .query("SELECT uploader FROM runs WHERE id = ?", &[Val::Int(id)])?;
        Ok(rows
            .into_iter()
            .next()
            .map(|mut r| r.pop().and_then(Val::into_string)))
    }

    /// Deletes a run of `uploader`: `Ok(false)` without such a run, [`Error::Forbidden`] when it
    /// is someone else's.
    pub fn delete_run_of(&mut self, id: i64, uploader: &str) -> Result<bool, Error> {
        self.in_transaction(|db| {
            let rows = db.query("SELECT uploader FROM runs WHERE id = ?", &[Val::Int(id)])?;
            let Some(mut row) = rows.into_iter().next() else {
                return Ok(false);
            };
            if row.pop().and_then(Val::into_string).as_deref() != Some(uploader) {
                return Err(Error::Forbidden(format!(
                    "run {id} belongs to another uploader"
                )));
            }
            for table in ["tags", "findings", "results", "documents"] {
                db.exec(
                    &format!("DELETE FROM {table} WHERE run_id = ?"),
                    &[Val::Int(id)],
                )?;
            }
            db.exec("DELETE FROM runs WHERE id = ?", &[Val::Int(id)])?;
            Ok(true)
        })
    }

    /// The stored document's JSON text.
    pub fn document_text(&mut self, id: i64) -> Result<Option<String>, Error> {
        let rows = self.db().query(
            "SELECT json FROM documents WHERE run_id = ?",
            &[Val::Int(id)],
        )?;
        Ok(rows
            .into_iter()
            .next()
            .and_then(|r| r.into_iter().next())
            .and_then(Val::into_string))
    }

    /// A page of runs matching the filter, by id (new runs come last, so paging stays stable
    /// while uploads arrive), and the number of all matching runs.
    pub fn list_page(
        &mut self,
        f: &Filter,
        limit: i64,
        offset: i64,
    ) -> Result<(Vec<ServiceListing>, i64), Error> {
        let (conditions, mut params) = filter::sql(f, self.dialect())?;
        let total = first_i64(&self.db().query(
            &format!("SELECT COUNT(*) FROM runs WHERE 1=1{conditions}"),
            &params,
        )?)
        .unwrap_or(0);
        params.push(Val::Int(limit.max(0)));
        params.push(Val::Int(offset.max(0)));
        let rows = self.db().query(
            &format!(
                "SELECT id, doc_hash, device, soc, kernel, started, uploader FROM runs \
                 WHERE 1=1{conditions} ORDER BY id LIMIT ? OFFSET ?"
            ),
            &params,
        )?;
        let runs = rows
            .into_iter()
            .map(|r| {
                let t = |i: usize| r[i].as_str().map(String::from);
                ServiceListing {
                    id: r[0].as_i64().unwrap_or(0),
                    hash: t(1).unwrap_or_default(),
                    device: t(2),
                    soc: t(3),
                    kernel: t(4),
                    started: t(5),
                    uploader: t(6),
                }
            })
            .collect();
        Ok((runs, total))
    }

    /// One page of the Results.md table sorted by `col` (as [`crate::table::sort_rows`] sorts:
    /// missing values last, ties by id), and the number of matching runs. Columns SQL can order
    /// the same way are sorted and cut by the database; the others (kernel versions, clock
    /// speeds) are sorted here over all matching rows.
    pub fn table_page(
        &mut self,
        f: &Filter,
        col: Column,
        desc: bool,
        limit: i64,
        offset: i64,
    ) -> Result<(Vec<TableRow>, usize), Error> {
        let dir = if desc { "DESC" } else { "ASC" };
        let collate = match self.dialect() {
            Dialect::Postgres => " COLLATE \"C\"",
            Dialect::Sqlite => "",
        };
        let expr = match col {
            Column::Id => Some("id".to_string()),
            Column::Device => Some(format!("lower(device){collate}")),
            Column::Distro => Some(format!("lower(distro){collate}")),
            Column::ZipMulti => Some("zip_multi".into()),
            Column::ZipSingle => Some("zip_single".into()),
            Column::Aes => Some("aes".into()),
            Column::Memcpy => Some("memcpy".into()),
            Column::Memset => Some("memset".into()),
            Column::Khs => Some("khs".into()),
            Column::Kernel | Column::Clockspeed => None,
        };
        match expr {
            Some(_) if col == Column::Id => {
                self.table_query(f, &format!("id {dir}"), Some((limit, offset)))
            }
            Some(e) => self.table_query(
                f,
                &format!("{e} IS NULL, {e} {dir}, id"),
                Some((limit, offset)),
            ),
            None => {
                let (mut rows, total) = self.table_query(f, "id", None)?;
                sort_rows(&mut rows, col, desc);
                let rows = rows
                    .into_iter()
                    .skip(offset.max(0) as usize)
                    .take(limit.max(0) as usize)
                    .collect();
                Ok((rows, total))
            }
        }
    }
}

/// Whether storing failed because the identical run was deleted meanwhile: it vanished between
/// the INSERT and the read of its id, or its tags' reference to it broke (PostgreSQL's foreign
/// key violation, SQLSTATE 23503; SQLite holds one writer at a time).
fn raced_with_a_delete(e: &Error) -> bool {
    match e {
        Error::Other(m) => m == "duplicate run vanished",
        #[cfg(feature = "postgres")]
        Error::Postgres(p) => p.code() == Some(&postgres::error::SqlState::FOREIGN_KEY_VIOLATION),
        _ => false,
    }
}
