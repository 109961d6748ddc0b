//! The results database: every run's document, its measurements and findings, queryable.
//!
//! One schema, two backends: an embedded SQLite file (the default, in the user's data
//! directory) or a PostgreSQL server for labs (`postgres://…`). The whole document is kept as
//! JSON next to indexed columns (`headline::columns`, the rules the renderers use too), so nothing is lost when the
//! document types grow. Every document is stored in one transaction: a crash (even `kill -9`)
//! leaves either the whole run or nothing. Adding the same document twice stores it once (the
//! sha256 of its canonical JSON is unique).
//!
//! Module map:
//! - [`backend`]: the SQLite/PostgreSQL connections behind one `Exec` interface, values.
//! - [`schema`]: numbered migrations and the `schema_version` table.
//! - [`compare`]: side-by-side comparison of runs (ratios, per-GHz, beyond-spread flags).
//! - [`location`]: where the database is (`--db`, `BOARDBENCH_DB`, the default path).
//! - [`ranges`]: the physical range of each unit (values outside it are refused).
//! - [`filter`]: `results list` filters as SQL (LIKE wildcards escaped, dates checked).
//! - [`marks`]: which stored runs' headline figures are not comparable with sbc-bench's.
//! - [`table`]: the Results.md table (sorting, Markdown, CSV), for the CLI and the service.
//! - [`service`]: what the results service adds: upload tokens (stored hashed), run owners,
//!   paged listings.
//!
//! Commands that only read open the database with [`Store::open_read`]: read-only, no
//! migrations, and never a new file — a read-only database or a mistyped path stays as it is.

pub mod backend;
pub mod compare;
pub mod corpus_store;
pub mod filter;
pub mod location;
pub mod marks;
pub mod ranges;
pub mod schema;
pub mod service;
pub mod table;

use backend::{Dialect, Exec, Val};
use document::{Finding, Measurement, ResultDocument};
use headline::columns::RunColumns;
use serde::Serialize;
use serde_json::Value;

pub use location::Location;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("sqlite: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[cfg(feature = "postgres")]
    #[error("postgres: {}", postgres_text(.0))]
    Postgres(#[from] postgres::Error),
    /// A `postgres://` location in a program built without the `postgres` feature (the
    /// command names the location).
    #[error(
        "this boardbench is built without PostgreSQL (the release binaries for boards are); \
         send runs to the lab's results service with `boardbench upload`, use a SQLite file, or \
         build boardbench with `--features postgres`"
    )]
    NoPostgres,
    #[error("JSON: {0}")]
    Json(#[from] serde_json::Error),
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("not a result document: {0}")]
    NotADocument(String),
    #[error(
        "the database has schema version {0}, newer than this boardbench knows ({1}); update boardbench"
    )]
    SchemaTooNew(i64, i64),
    #[error("no results database at {0} yet")]
    NoDatabase(String),
    #[error(
        "the database {0} has schema version {1}, older than this boardbench ({2}); a writing command (`boardbench results add`) upgrades it"
    )]
    SchemaTooOld(String, i64, i64),
    /// The action touches another uploader's run (the results service answers 403).
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    Other(String),
}

enum Conn {
    Sqlite(rusqlite::Connection),
    #[cfg(feature = "postgres")]
    Postgres(Box<postgres::Client>),
}

/// A connection to the PostgreSQL server at `url` (without the `postgres` feature: an error
/// saying so).
#[cfg(feature = "postgres")]
fn connect_postgres(url: &str) -> Result<Conn, Error> {
    Ok(Conn::Postgres(Box::new(postgres::Client::connect(
        url,
        postgres::NoTls,
    )?)))
}

#[cfg(not(feature = "postgres"))]
fn connect_postgres(_url: &str) -> Result<Conn, Error> {
    Err(Error::NoPostgres)
}

/// An open results database with the schema migrated to the newest version.
pub struct Store {
    conn: Conn,
}

/// What `add` did with a document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Added {
    New(i64),
    /// The same document was already stored under this id.
    Duplicate(i64),
}

impl Added {
    pub fn id(self) -> i64 {
        match self {
            Added::New(i) | Added::Duplicate(i) => i,
        }
    }
}

/// Filters of `results list`; `None` = no filter.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    /// Substring of the device name, case-insensitive.
    pub device: Option<String>,
    /// Substring of the SoC, case-insensitive.
    pub soc: Option<String>,
    /// Architecture, case-insensitive exact (`arm64`, `aarch64`, `amd64` …).
    pub arch: Option<String>,
    /// Prefix of the kernel release (`6.1` matches `6.1.21-v8+`).
    pub kernel: Option<String>,
    /// ISO 8601 date or time; runs started at or after it.
    pub since: Option<String>,
    /// ISO 8601 date or time; runs started at or before it (a date includes its whole day).
    pub until: Option<String>,
    pub tag: Option<String>,
}

/// One line of `results list`: the run's id, the columns it is indexed by as they were stored
/// (`headline::columns::RunColumns`, the one home of what a run is listed by) and its tags.
///
/// Serialised (`results list --json`, `results show --json`'s `summary`) as it always was:
/// `id`, `started`, `device`, `soc`, `arch`, `kernel`, `distro`, `producer`, `imported`, `tags`
/// — the clock and the headline figures are in the columns but not in a listing.
#[derive(Debug, Clone, PartialEq)]
pub struct RunListing {
    pub id: i64,
    pub columns: RunColumns,
    pub tags: Vec<String>,
    /// A signal ended the run, or it was stopped while a phase ran: it has an `interrupted`
    /// or `stopped` finding ([`CUT_SHORT_KINDS`]). `results list` and `results table` mark it.
    pub interrupted: bool,
}

/// The finding kinds that mark a run as cut short in the listing and the table (findings'
/// `interrupted` and `stopped`).
pub const CUT_SHORT_KINDS: [&str; 2] = ["interrupted", "stopped"];

/// The SQL expression (on `runs`) counting a run's [`CUT_SHORT_KINDS`] findings.
macro_rules! cut_short_sql {
    () => {
        "(SELECT COUNT(*) FROM findings WHERE findings.run_id = runs.id \
         AND findings.kind IN ('interrupted', 'stopped'))"
    };
}
const CUT_SHORT_SQL: &str = cut_short_sql!();

impl Serialize for RunListing {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let c = &self.columns;
        let mut st = s.serialize_struct("RunListing", 11)?;
        st.serialize_field("id", &self.id)?;
        st.serialize_field("started", &c.started)?;
        st.serialize_field("device", &c.device)?;
        st.serialize_field("soc", &c.soc)?;
        st.serialize_field("arch", &c.arch)?;
        st.serialize_field("kernel", &c.kernel)?;
        st.serialize_field("distro", &c.distro)?;
        st.serialize_field("producer", &c.producer)?;
        st.serialize_field("imported", &c.imported)?;
        st.serialize_field("tags", &self.tags)?;
        st.serialize_field("interrupted", &self.interrupted)?;
        st.end()
    }
}

/// One row of `results table` (sbc-bench's Results.md columns).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TableRow {
    pub id: i64,
    pub device: Option<String>,
    pub clockspeed: Option<String>,
    pub kernel: Option<String>,
    pub distro: Option<String>,
    pub zip_multi: Option<f64>,
    pub zip_single: Option<f64>,
    pub aes: Option<f64>,
    pub memcpy: Option<f64>,
    pub memset: Option<f64>,
    pub khs: Option<f64>,
    /// What the service's table shows beside sbc-bench's columns: the SoC, when the run
    /// started (as the document says it), who uploaded it (NULL for runs stored on the board or
    /// by `results add`) and its worst finding's severity ("invalid", "warning", "info"; `None`
    /// without findings).
    pub soc: Option<String>,
    pub started: Option<String>,
    pub uploader: Option<String>,
    pub worst: Option<String>,
    /// As [`RunListing::interrupted`].
    pub interrupted: bool,
}

/// Everything stored about one run.
///
/// Serialised as it always was: `summary` (the listing), then the clock columns beside it
/// (`clockspeed`, `clock_mhz`, read from [`RunListing::columns`]), `measurements`, `findings`,
/// `document`.
#[derive(Debug, Clone, PartialEq)]
pub struct RunDetail {
    pub summary: RunListing,
    pub measurements: Vec<Measurement>,
    pub findings: Vec<Finding>,
    pub document: Value,
}

impl Serialize for RunDetail {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("RunDetail", 6)?;
        st.serialize_field("summary", &self.summary)?;
        st.serialize_field("clockspeed", &self.summary.columns.clockspeed)?;
        st.serialize_field("clock_mhz", &self.summary.columns.clock_mhz)?;
        st.serialize_field("measurements", &self.measurements)?;
        st.serialize_field("findings", &self.findings)?;
        st.serialize_field("document", &self.document)?;
        st.end()
    }
}

/// The columns [`run_listing`] reads, in its order: every column of [`RunColumns`], then
/// whether it was cut short.
pub(crate) const RUN_COLUMNS: &str = concat!(
    "id, started, device, soc, arch, kernel, distro, producer, \
     imported, clockspeed, clock_mhz, zip_multi, zip_single, aes, memcpy, memset, khs, ",
    cut_short_sql!()
);

impl Store {
    /// Opens (creating the SQLite file and its directory if needed) and migrates.
    pub fn open(loc: &Location) -> Result<Store, Error> {
        let conn = match loc {
            Location::Sqlite(path) => {
                if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                    std::fs::create_dir_all(dir).map_err(|e| {
                        Error::Other(format!("cannot create {}: {e}", dir.display()))
                    })?;
                }
                // Token hashes and every run: a new database file is its owner's alone
                // (SQLite gives its -wal and -shm files the same mode).
                if !path.exists() {
                    use std::os::unix::fs::OpenOptionsExt;
                    let _ = std::fs::OpenOptions::new()
                        .write(true)
                        .create_new(true)
                        .mode(0o600)
                        .open(path);
                }
                let c = rusqlite::Connection::open(path)?;
                // WAL: readers do not block the writer; a killed writer leaves the last
                // committed transaction (the WAL is replayed or ignored on next open).
                c.pragma_update(None, "journal_mode", "WAL")?;
                c.pragma_update(None, "synchronous", "NORMAL")?;
                c.pragma_update(None, "foreign_keys", "ON")?;
                c.busy_timeout(std::time::Duration::from_secs(30))?;
                Conn::Sqlite(c)
            }
            Location::Postgres(url) => connect_postgres(url)?,
        };
        let mut store = Store { conn };
        store.migrate()?;
        Ok(store)
    }

    /// Opens an existing database for reading only: no file or directory is created, nothing
    /// is migrated, and a database the user may only read is readable.
    pub fn open_read(loc: &Location) -> Result<Store, Error> {
        let mut store = match loc {
            Location::Sqlite(path) => {
                if !path.is_file() {
                    return Err(Error::NoDatabase(path.display().to_string()));
                }
                let mut store = Store {
                    conn: Conn::Sqlite(sqlite_read_only(path, false)?),
                };
                // A WAL database whose -shm file is missing in a directory the user cannot
                // write cannot be opened normally; nobody can be writing to it then, so it is
                // read as immutable.
                if let Err(Error::Sqlite(e)) = store.read_version()
                    && !e.to_string().contains("no such table")
                {
                    store = Store {
                        conn: Conn::Sqlite(sqlite_read_only(path, true)?),
                    };
                }
                store
            }
            Location::Postgres(url) => Store {
                conn: connect_postgres(url)?,
            },
        };
        let have = match store.read_version() {
            Ok(v) => v,
            // No schema_version table: an empty file or another program's database.
            Err(Error::Sqlite(e)) if e.to_string().contains("no such table") => 0,
            #[cfg(feature = "postgres")]
            Err(Error::Postgres(e))
                if e.code() == Some(&postgres::error::SqlState::UNDEFINED_TABLE) =>
            {
                0
            }
            Err(e) => return Err(e),
        };
        if have == 0 {
            return Err(Error::NoDatabase(loc.display()));
        }
        if have > schema::latest() {
            return Err(Error::SchemaTooNew(have, schema::latest()));
        }
        if have < schema::latest() {
            return Err(Error::SchemaTooOld(loc.display(), have, schema::latest()));
        }
        Ok(store)
    }

    /// The schema version without creating the version table (0 = no migrations applied).
    fn read_version(&mut self) -> Result<i64, Error> {
        schema::current_version(self.db())
    }

    pub fn dialect(&self) -> Dialect {
        match self.conn {
            Conn::Sqlite(_) => Dialect::Sqlite,
            #[cfg(feature = "postgres")]
            Conn::Postgres(_) => Dialect::Postgres,
        }
    }

    pub(crate) fn db(&mut self) -> &mut dyn Exec {
        match &mut self.conn {
            Conn::Sqlite(c) => c,
            #[cfg(feature = "postgres")]
            Conn::Postgres(c) => c.as_mut(),
        }
    }

    /// Runs `f` in one transaction: committed if it returns Ok, rolled back otherwise.
    pub(crate) fn in_transaction<T>(
        &mut self,
        f: impl FnOnce(&mut dyn Exec) -> Result<T, Error>,
    ) -> Result<T, Error> {
        match &mut self.conn {
            Conn::Sqlite(c) => {
                // IMMEDIATE takes the write lock up front, so two writers queue instead of
                // failing half-way with SQLITE_BUSY.
                let mut tx =
                    c.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
                let r = f(&mut tx)?;
                tx.commit()?;
                Ok(r)
            }
            #[cfg(feature = "postgres")]
            Conn::Postgres(c) => {
                let mut tx = c.transaction()?;
                let r = f(&mut tx)?;
                tx.commit()?;
                Ok(r)
            }
        }
    }

    /// Applies every migration newer than the database, each in its own transaction.
    fn migrate(&mut self) -> Result<(), Error> {
        let d = self.dialect();
        self.db().batch(&schema::version_table(d))?;
        let have = schema::current_version(self.db())?;
        if have > schema::latest() {
            return Err(Error::SchemaTooNew(have, schema::latest()));
        }
        for (version, sql) in schema::MIGRATIONS.iter().filter(|m| m.0 > have) {
            let rebuild = schema::rebuilds_tables(sql, d);
            if rebuild {
                // Only outside a transaction does this pragma take effect.
                self.db().batch("PRAGMA foreign_keys = OFF")?;
            }
            let applied = self.in_transaction(|db| {
                // Another process may have migrated meanwhile (checked under the write lock).
                if schema::current_version(db)? >= *version {
                    return Ok(());
                }
                let text = schema::render(sql, d);
                if !text.trim().is_empty() {
                    db.batch(&text)?;
                }
                if *sql == schema::V4 {
                    schema::unmark_look_alikes(db)?;
                }
                if rebuild && !db.query("PRAGMA foreign_key_check", &[])?.is_empty() {
                    return Err(Error::Other(format!(
                        "migration {version} would break a reference between tables"
                    )));
                }
                db.exec(
                    "INSERT INTO schema_version (version, applied) VALUES (?, ?)",
                    &[Val::Int(*version), Val::Text(now())],
                )?;
                Ok(())
            });
            if rebuild {
                self.db().batch("PRAGMA foreign_keys = ON")?;
            }
            applied?;
        }
        Ok(())
    }

    /// The schema version of the database.
    pub fn schema_version(&mut self) -> Result<i64, Error> {
        schema::current_version(self.db())
    }

    /// Stores a document given as JSON text (one transaction).
    pub fn add_json(&mut self, json: &str, tags: &[String]) -> Result<Added, Error> {
        let value: Value = serde_json::from_str(json)?;
        self.add_value(value, tags)
    }

    /// Stores a document (one transaction).
    pub fn add_document(&mut self, doc: &ResultDocument, tags: &[String]) -> Result<Added, Error> {
        self.add_value(serde_json::to_value(doc)?, tags)
    }

    /// Stores a document as JSON value: checks it is a result document, then writes the run,
    /// its measurements, findings and tags in one transaction. Tags are added to an already
    /// stored identical document.
    pub fn add_value(&mut self, doc: Value, tags: &[String]) -> Result<Added, Error> {
        self.add_value_by(doc, tags, None).map(|(added, _)| added)
    }

    /// [`Store::add_value`] on behalf of an uploader of the results service (recorded as the
    /// run's owner when the run is new); also gives the document's hash.
    pub fn add_value_by(
        &mut self,
        doc: Value,
        tags: &[String],
        uploader: Option<&str>,
    ) -> Result<(Added, String), Error> {
        let Prepared {
            measurements,
            findings,
            text,
            hash,
            not_comparable,
            c,
            guide,
        } = prepare(&doc)?;
        self.in_transaction(|db| {
            let inserted = db.query(
                "INSERT INTO runs (doc_hash, added, started, device, soc, arch, kernel, distro, \
                 producer, imported, clockspeed, clock_mhz, zip_multi, zip_single, aes, memcpy, \
                 memset, khs, uploader, not_comparable, guide) VALUES (?, ?, ?, ?, ?, ?, ?, ?, \
                 ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (doc_hash) DO NOTHING \
                 RETURNING id",
                &[Val::Text(hash.clone()), Val::Text(now())]
                    .into_iter()
                    .chain(column_values(&c))
                    .chain([
                        Val::opt_text(uploader),
                        Val::Text(not_comparable),
                        Val::Int(guide.into()),
                    ])
                    .collect::<Vec<_>>(),
            )?;
            let added = match inserted
                .first()
                .and_then(|r| r.first())
                .and_then(Val::as_i64)
            {
                Some(id) => Added::New(id),
                None => {
                    let rows = db.query(
                        "SELECT id FROM runs WHERE doc_hash = ?",
                        &[Val::Text(hash.clone())],
                    )?;
                    let id = rows
                        .first()
                        .and_then(|r| r.first())
                        .and_then(Val::as_i64)
                        .ok_or_else(|| Error::Other("duplicate run vanished".into()))?;
                    Added::Duplicate(id)
                }
            };
            let id = added.id();
            if let Added::New(_) = added {
                db.exec(
                    "INSERT INTO documents (run_id, json) VALUES (?, ?)",
                    &[Val::Int(id), Val::Text(text)],
                )?;
                insert_rows(db, id, &measurements, &findings)?;
            }
            for tag in tags.iter().map(|t| t.trim()).filter(|t| !t.is_empty()) {
                db.exec(
                    "INSERT INTO tags (run_id, tag) VALUES (?, ?) ON CONFLICT DO NOTHING",
                    &[Val::Int(id), Val::Text(tag.to_string())],
                )?;
            }
            Ok((added, hash))
        })
    }

    /// Replaces the document of stored run `id` by `doc` — the same run finished again
    /// (`boardbench results reanalyse`): the document, its hash, the indexed columns, its
    /// measurements and findings, in one transaction; the run keeps its id, tags, uploader and
    /// the time it was added. `Ok(false)` when no run has that id; an error when `doc` is not a
    /// result document or another stored run already holds exactly this document.
    pub fn replace_value(&mut self, id: i64, doc: Value) -> Result<bool, Error> {
        let Prepared {
            measurements,
            findings,
            text,
            hash,
            not_comparable,
            c,
            guide,
        } = prepare(&doc)?;
        self.in_transaction(|db| {
            let other = db.query(
                "SELECT id FROM runs WHERE doc_hash = ? AND id <> ?",
                &[Val::Text(hash.clone()), Val::Int(id)],
            )?;
            if let Some(o) = other.first().and_then(|r| r.first()).and_then(Val::as_i64) {
                return Err(Error::Other(format!(
                    "run {o} already holds the re-analysed document of run {id}"
                )));
            }
            let n = db.exec(
                "UPDATE runs SET doc_hash = ?, started = ?, device = ?, soc = ?, arch = ?, \
                 kernel = ?, distro = ?, producer = ?, imported = ?, clockspeed = ?, \
                 clock_mhz = ?, zip_multi = ?, zip_single = ?, aes = ?, memcpy = ?, memset = ?, \
                 khs = ?, not_comparable = ?, guide = ? WHERE id = ?",
                &std::iter::once(Val::Text(hash.clone()))
                    .chain(column_values(&c))
                    .chain([
                        Val::Text(not_comparable.clone()),
                        Val::Int(guide.into()),
                        Val::Int(id),
                    ])
                    .collect::<Vec<_>>(),
            )?;
            if n == 0 {
                return Ok(false);
            }
            db.exec(
                "UPDATE documents SET json = ? WHERE run_id = ?",
                &[Val::Text(text.clone()), Val::Int(id)],
            )?;
            db.exec("DELETE FROM results WHERE run_id = ?", &[Val::Int(id)])?;
            db.exec("DELETE FROM findings WHERE run_id = ?", &[Val::Int(id)])?;
            insert_rows(db, id, &measurements, &findings)?;
            Ok(true)
        })
    }

    /// Runs matching the filter, oldest first (by start time, then id). A date that does not
    /// parse is an error, not an empty (or complete) list.
    pub fn list(&mut self, f: &Filter) -> Result<Vec<RunListing>, Error> {
        let (conditions, params) = filter::sql(f, self.dialect())?;
        let sql =
            format!("SELECT {RUN_COLUMNS} FROM runs WHERE 1=1{conditions} ORDER BY started, id");
        let rows = self.db().query(&sql, &params)?;
        let mut tags = self.all_tags()?;
        Ok(rows
            .into_iter()
            .map(|r| {
                let mut s = run_listing(r);
                s.tags = tags.remove(&s.id).unwrap_or_default();
                s
            })
            .collect())
    }

    fn all_tags(&mut self) -> Result<std::collections::HashMap<i64, Vec<String>>, Error> {
        let mut out: std::collections::HashMap<i64, Vec<String>> = Default::default();
        for r in self
            .db()
            .query("SELECT run_id, tag FROM tags ORDER BY run_id, tag", &[])?
        {
            if let (Some(id), Some(t)) = (r[0].as_i64(), r[1].as_str()) {
                out.entry(id).or_default().push(t.to_string());
            }
        }
        Ok(out)
    }

    /// One run with its measurements and findings; `None` if there is no such id.
    pub fn run(&mut self, id: i64) -> Result<Option<RunDetail>, Error> {
        let db = self.db();
        let rows = db.query(
            &format!(
                "SELECT {RUN_COLUMNS}, (SELECT json FROM documents WHERE run_id = runs.id) \
                 FROM runs WHERE id = ?"
            ),
            &[Val::Int(id)],
        )?;
        let Some(mut row) = rows.into_iter().next() else {
            return Ok(None);
        };
        let document = row.pop().and_then(Val::into_string).unwrap_or_default();
        let mut summary = run_listing(row);
        summary.tags = db
            .query(
                "SELECT tag FROM tags WHERE run_id = ? ORDER BY tag",
                &[Val::Int(id)],
            )?
            .into_iter()
            .filter_map(|r| r.into_iter().next().and_then(Val::into_string))
            .collect();
        let measurements = db
            .query(
                "SELECT suite, test, variant, threads, cpus, value, unit, higher_is_better, \
                 spread_pct FROM results WHERE run_id = ? ORDER BY seq",
                &[Val::Int(id)],
            )?
            .into_iter()
            .map(|r| Measurement {
                suite: r[0].as_str().unwrap_or_default().to_string(),
                test: r[1].as_str().unwrap_or_default().to_string(),
                variant: r[2].as_str().map(String::from),
                threads: r[3].as_i64().unwrap_or(0).clamp(0, u32::MAX.into()) as u32,
                cpus: r[4]
                    .as_str()
                    .unwrap_or("")
                    .split(',')
                    .filter_map(|c| c.trim().parse().ok())
                    .collect(),
                value: r[5].as_f64().unwrap_or(f64::NAN),
                unit: r[6].as_str().unwrap_or_default().to_string(),
                higher_is_better: r[7].as_i64() != Some(0),
                spread_pct: r[8].as_f64(),
            })
            .collect();
        let findings = db
            .query(
                "SELECT kind, severity, message, evidence FROM findings WHERE run_id = ? \
                 ORDER BY seq",
                &[Val::Int(id)],
            )?
            .into_iter()
            .filter_map(|r| {
                let severity = serde_json::from_value(Value::String(r[1].as_str()?.into())).ok()?;
                Some(Finding {
                    kind: r[0].as_str()?.to_string(),
                    severity,
                    message: r[2].as_str()?.to_string(),
                    evidence: r[3]
                        .as_str()
                        .and_then(|e| serde_json::from_str(e).ok())
                        .unwrap_or_default(),
                })
            })
            .collect();
        Ok(Some(RunDetail {
            summary,
            measurements,
            findings,
            document: serde_json::from_str(&document).unwrap_or(Value::Null),
        }))
    }

    /// The Results.md table of every run, in id order (the caller sorts).
    pub fn table(&mut self) -> Result<Vec<TableRow>, Error> {
        self.table_filtered(&Filter::default())
    }

    /// The Results.md table of the runs matching a filter, in id order.
    pub fn table_filtered(&mut self, f: &Filter) -> Result<Vec<TableRow>, Error> {
        self.table_query(f, "id", None).map(|(rows, _)| rows)
    }

    /// The rows of the table matching a filter in SQL `order`, `limit` rows from `offset` when
    /// `page` is given; also the number of matching rows.
    pub(crate) fn table_query(
        &mut self,
        f: &Filter,
        order: &str,
        page: Option<(i64, i64)>,
    ) -> Result<(Vec<TableRow>, usize), Error> {
        let (conditions, params) = filter::sql(f, self.dialect())?;
        self.table_select(&conditions, params, order, page)
    }

    /// One device's rows (its exact name), the latest `limit` by start time, oldest first;
    /// also how many it has in all. The board page reads no more than it shows.
    pub fn device_table(
        &mut self,
        device: &str,
        limit: i64,
    ) -> Result<(Vec<TableRow>, usize), Error> {
        let (mut rows, total) = self.table_select(
            " AND device = ?",
            vec![Val::Text(device.to_string())],
            "started DESC, id DESC",
            Some((limit, 0)),
        )?;
        rows.reverse();
        Ok((rows, total))
    }

    /// The table rows `WHERE 1=1{conditions}` in SQL `order` (see [`Store::table_query`]).
    fn table_select(
        &mut self,
        conditions: &str,
        mut params: Vec<Val>,
        order: &str,
        page: Option<(i64, i64)>,
    ) -> Result<(Vec<TableRow>, usize), Error> {
        let count_params = params.clone();
        let limit = match page {
            Some((limit, offset)) => {
                params.push(Val::Int(limit.max(0)));
                params.push(Val::Int(offset.max(0)));
                " LIMIT ? OFFSET ?"
            }
            None => "",
        };
        let rows = self.db().query(
            &format!(
                "SELECT id, device, clockspeed, kernel, distro, zip_multi, zip_single, aes, \
                 memcpy, memset, khs, soc, started, uploader, \
                 (SELECT MAX(CASE severity WHEN 'invalid' THEN 3 WHEN 'warning' THEN 2 \
                  WHEN 'info' THEN 1 ELSE 0 END) FROM findings WHERE findings.run_id = runs.id), \
                 {CUT_SHORT_SQL} \
                 FROM runs WHERE 1=1{conditions} ORDER BY {order}{limit}"
            ),
            &params,
        )?;
        let rows: Vec<TableRow> = rows
            .into_iter()
            .map(|r| {
                let t = |i: usize| r[i].as_str().map(String::from);
                TableRow {
                    id: r[0].as_i64().unwrap_or(0),
                    device: t(1),
                    clockspeed: t(2),
                    kernel: t(3),
                    distro: t(4),
                    zip_multi: r[5].as_f64(),
                    zip_single: r[6].as_f64(),
                    aes: r[7].as_f64(),
                    memcpy: r[8].as_f64(),
                    memset: r[9].as_f64(),
                    khs: r[10].as_f64(),
                    soc: t(11),
                    started: t(12),
                    uploader: t(13),
                    worst: match r[14].as_i64() {
                        Some(3) => Some("invalid".into()),
                        Some(2) => Some("warning".into()),
                        Some(1) => Some("info".into()),
                        _ => None,
                    },
                    interrupted: r.get(15).and_then(Val::as_i64).unwrap_or(0) > 0,
                }
            })
            .collect();
        let total = if page.is_some() {
            self.db()
                .query(
                    &format!("SELECT COUNT(*) FROM runs WHERE 1=1{conditions}"),
                    &count_params,
                )?
                .first()
                .and_then(|r| r.first())
                .and_then(Val::as_i64)
                .unwrap_or(0) as usize
        } else {
            rows.len()
        };
        Ok((rows, total))
    }

    /// Number of stored runs.
    pub fn count(&mut self) -> Result<i64, Error> {
        let rows = self.db().query("SELECT COUNT(*) FROM runs", &[])?;
        Ok(rows
            .first()
            .and_then(|r| r.first())
            .and_then(Val::as_i64)
            .unwrap_or(0))
    }

    /// SQLite's `PRAGMA integrity_check` ("ok" when sound); PostgreSQL has no equivalent and
    /// answers "ok".
    pub fn integrity_check(&mut self) -> Result<String, Error> {
        match &mut self.conn {
            Conn::Sqlite(c) => {
                let rows = c.query("PRAGMA integrity_check", &[])?;
                Ok(rows
                    .into_iter()
                    .filter_map(|r| r.into_iter().next().and_then(Val::into_string))
                    .collect::<Vec<_>>()
                    .join("\n"))
            }
            #[cfg(feature = "postgres")]
            Conn::Postgres(_) => Ok("ok".into()),
        }
    }

    /// Runs a query against the database (tests and diagnostics).
    pub fn query(&mut self, sql: &str, params: &[Val]) -> Result<Vec<Vec<Val>>, Error> {
        self.db().query(sql, params)
    }
}

/// A PostgreSQL error with the server's own words (the driver's Display says only "db error").
#[cfg(feature = "postgres")]
fn postgres_text(e: &postgres::Error) -> String {
    match e.as_db_error() {
        Some(db) => match db.detail() {
            Some(d) => format!("{} ({d})", db.message()),
            None => db.message().to_string(),
        },
        None => e.to_string(),
    }
}

/// A row of [`RUN_COLUMNS`] as a listing (without its tags).
pub(crate) fn run_listing(r: Vec<Val>) -> RunListing {
    let t = |i: usize| r.get(i).and_then(|v| v.as_str()).map(String::from);
    let f = |i: usize| r.get(i).and_then(Val::as_f64);
    RunListing {
        id: r.first().and_then(Val::as_i64).unwrap_or(0),
        columns: RunColumns {
            started: t(1),
            device: t(2),
            soc: t(3),
            arch: t(4),
            kernel: t(5),
            distro: t(6),
            producer: t(7),
            imported: r.get(8).and_then(Val::as_i64).unwrap_or(0) != 0,
            clockspeed: t(9),
            clock_mhz: f(10),
            headline: document::imported::Headline {
                zip_multi: f(11),
                zip_single: f(12),
                aes: f(13),
                memcpy: f(14),
                memset: f(15),
                khs: f(16),
            },
        },
        tags: Vec::new(),
        interrupted: r.get(17).and_then(Val::as_i64).unwrap_or(0) > 0,
    }
}

/// The largest result-document file read (a long run with every monitor series is a few MB).
pub const MAX_DOCUMENT_BYTES: u64 = 64 * 1024 * 1024;

/// Reads a result-document file, at most [`MAX_DOCUMENT_BYTES`]: `/dev/zero` or a huge file
/// is one clear error, not a full memory.
pub fn read_document_file(path: &std::path::Path) -> Result<String, Error> {
    use std::io::Read;
    let f = std::fs::File::open(path)?;
    if f.metadata()?.is_dir() {
        return Err(Error::Other("is a directory".into()));
    }
    let mut f = f;
    let mut bytes = Vec::new();
    (&mut f).take(8192).read_to_end(&mut bytes)?;
    // JSON text never holds a NUL byte.
    if bytes.contains(&0) {
        return Err(Error::NotADocument("binary data, not JSON".into()));
    }
    f.take(MAX_DOCUMENT_BYTES + 1 - bytes.len() as u64)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_DOCUMENT_BYTES {
        return Err(Error::NotADocument(format!(
            "larger than {} MiB",
            MAX_DOCUMENT_BYTES / (1024 * 1024)
        )));
    }
    String::from_utf8(bytes).map_err(|_| Error::NotADocument("not UTF-8 text".into()))
}

/// A run's measurement and finding rows, in document order.
fn insert_rows(
    db: &mut dyn Exec,
    id: i64,
    measurements: &[Measurement],
    findings: &[Finding],
) -> Result<(), Error> {
    for (seq, m) in measurements.iter().enumerate() {
        db.exec(
            "INSERT INTO results (run_id, seq, suite, test, variant, threads, cpus, \
             value, unit, higher_is_better, spread_pct) \
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            &[
                Val::Int(id),
                Val::Int(seq as i64),
                Val::Text(m.suite.clone()),
                Val::Text(m.test.clone()),
                Val::opt_text(m.variant.as_deref()),
                Val::Int(m.threads.into()),
                cpus_text(&m.cpus),
                Val::Real(m.value),
                Val::Text(m.unit.clone()),
                Val::Int(m.higher_is_better.into()),
                Val::opt_real(m.spread_pct.filter(|s| s.is_finite())),
            ],
        )?;
    }
    for (seq, f) in findings.iter().enumerate() {
        db.exec(
            "INSERT INTO findings (run_id, seq, kind, severity, message, evidence) \
             VALUES (?, ?, ?, ?, ?, ?)",
            &[
                Val::Int(id),
                Val::Int(seq as i64),
                Val::Text(f.kind.clone()),
                Val::Text(severity_text(f)),
                Val::Text(f.message.clone()),
                Val::Text(serde_json::to_string(&f.evidence)?),
            ],
        )?;
    }
    Ok(())
}

/// The runs table's columns from `started` to `khs`, in the order both the INSERT of
/// [`Store::add_value_by`] and the UPDATE of [`Store::replace_value`] name them.
fn column_values(c: &headline::columns::RunColumns) -> Vec<Val> {
    let h = &c.headline;
    vec![
        Val::opt_text(c.started.as_deref()),
        Val::opt_text(c.device.as_deref()),
        Val::opt_text(c.soc.as_deref()),
        Val::opt_text(c.arch.as_deref()),
        Val::opt_text(c.kernel.as_deref()),
        Val::opt_text(c.distro.as_deref()),
        Val::opt_text(c.producer.as_deref()),
        Val::Int(c.imported.into()),
        Val::opt_text(c.clockspeed.as_deref()),
        Val::opt_real(c.clock_mhz),
        Val::opt_real(h.zip_multi),
        Val::opt_real(h.zip_single),
        Val::opt_real(h.aes),
        Val::opt_real(h.memcpy),
        Val::opt_real(h.memset),
        Val::opt_real(h.khs),
    ]
}

/// A document ready to be stored: what adding and replacing a run both check and derive.
struct Prepared {
    measurements: Vec<Measurement>,
    findings: Vec<Finding>,
    text: String,
    hash: String,
    not_comparable: String,
    c: headline::columns::RunColumns,
    /// A guide run (a top-level `guide` record): the runs table's `guide` column.
    guide: bool,
}

/// Checks `doc` as a result document and derives what the runs table indexes (shared by
/// [`Store::add_value_by`] and [`Store::replace_value`]).
fn prepare(doc: &Value) -> Result<Prepared, Error> {
    let (measurements, findings) = check_document(doc)?;
    // serde_json's maps are sorted, so this text is canonical: the same document always
    // gives the same hash whatever the key order or whitespace of the file.
    let text = serde_json::to_string(doc)?;
    // What is stored can always be read back: a document larger than readers accept, or
    // one that does not read as a result document (a number where a date belongs), is
    // refused here rather than stored for `report`, `export` and `guide render` to refuse.
    if text.len() as u64 > MAX_DOCUMENT_BYTES {
        return Err(Error::NotADocument(format!(
            "{} MiB, larger than boardbench reads ({} MiB)",
            text.len() / (1024 * 1024),
            MAX_DOCUMENT_BYTES / (1024 * 1024)
        )));
    }
    let typed = serde_json::from_value::<ResultDocument>(doc.clone())
        .map_err(|e| Error::NotADocument(format!("does not read as a result document: {e}")))?;
    let hash = sha256_hex(text.as_bytes());
    let not_comparable = marks::column_text(&text);
    let c = headline::columns::columns(&typed);
    check_indexed(&c, &measurements, &findings)?;
    let h = &c.headline;
    for (name, value, unit) in [
        ("7-zip multi", h.zip_multi, "MIPS"),
        ("7-zip single", h.zip_single, "MIPS"),
        ("AES", h.aes, "kB/s"),
        ("memcpy", h.memcpy, "MB/s"),
        ("memset", h.memset, "MB/s"),
        ("kH/s", h.khs, "kH/s"),
    ] {
        if let Some(v) = value {
            ranges::check(v, unit)
                .map_err(|why| Error::NotADocument(format!("headline {name}: {why}")))?;
        }
    }
    Ok(Prepared {
        measurements,
        findings,
        text,
        hash,
        not_comparable,
        c,
        guide: typed.guide.is_some(),
    })
}

/// Longest text, in bytes, of a field the database indexes (the runs' device, SoC, architecture,
/// kernel and start; a measurement's suite, test and variant; a finding's kind). PostgreSQL's
/// B-tree index holds at most about 2,700 bytes a row (a third of a page), the three of a
/// measurement together: a longer one would be stored on SQLite and refused with 500 on
/// PostgreSQL. Both refuse it alike, before anything is stored; real names are far shorter.
pub const MAX_INDEXED_BYTES: usize = 512;

/// The first indexed field longer than [`MAX_INDEXED_BYTES`], named by where it is.
fn check_indexed(
    c: &headline::columns::RunColumns,
    measurements: &[Measurement],
    findings: &[Finding],
) -> Result<(), Error> {
    let long = |at: String, v: &str| -> Result<(), Error> {
        if v.len() > MAX_INDEXED_BYTES {
            return Err(Error::NotADocument(format!(
                "{at} is {} bytes long; the database indexes it and holds at most \
                 {MAX_INDEXED_BYTES} bytes there",
                v.len()
            )));
        }
        Ok(())
    };
    for (name, v) in [
        ("the device name", &c.device),
        ("the SoC name", &c.soc),
        ("the architecture", &c.arch),
        ("the kernel", &c.kernel),
        ("the start time", &c.started),
    ] {
        if let Some(v) = v {
            long(name.to_string(), v)?;
        }
    }
    for (i, m) in measurements.iter().enumerate() {
        long(format!("/measurements/{i}/suite"), &m.suite)?;
        long(format!("/measurements/{i}/test"), &m.test)?;
        if let Some(v) = &m.variant {
            long(format!("/measurements/{i}/variant"), v)?;
        }
    }
    for (i, f) in findings.iter().enumerate() {
        long(format!("/findings/{i}/kind"), &f.kind)?;
    }
    Ok(())
}

/// A result document: an object with a known `schema_version` whose measurements and findings
/// have the row shape the database stores.
fn check_document(doc: &Value) -> Result<(Vec<Measurement>, Vec<Finding>), Error> {
    let obj = doc
        .as_object()
        .ok_or_else(|| Error::NotADocument("not a JSON object".into()))?;
    document::version::check(doc).map_err(|e| Error::NotADocument(e.to_string()))?;
    for field in ["started", "finished"] {
        if let Some(t) = obj.get(field).and_then(Value::as_str) {
            filter::check_stored_time(t)
                .map_err(|why| Error::NotADocument(format!("{why} at /{field}")))?;
        }
    }
    let rows = |key: &str| obj.get(key).cloned().unwrap_or(Value::Array(Vec::new()));
    let measurements: Vec<Measurement> = serde_json::from_value(rows("measurements"))
        .map_err(|e| Error::NotADocument(format!("measurements: {e}")))?;
    for m in &measurements {
        ranges::check(m.value, &m.unit).map_err(|why| {
            Error::NotADocument(format!(
                "measurement {}/{} ({} threads): {why}",
                m.suite, m.test, m.threads
            ))
        })?;
    }
    let findings: Vec<Finding> = serde_json::from_value(rows("findings"))
        .map_err(|e| Error::NotADocument(format!("findings: {e}")))?;
    Ok((measurements, findings))
}

/// A read-only SQLite connection; `immutable` also tells SQLite that nobody writes the file
/// (no locks, no -shm file needed).
fn sqlite_read_only(
    path: &std::path::Path,
    immutable: bool,
) -> Result<rusqlite::Connection, Error> {
    use rusqlite::OpenFlags;
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let c = if immutable {
        let mut uri = String::from("file:");
        for ch in path.to_string_lossy().chars() {
            match ch {
                '?' | '#' | '%' => uri.push_str(&format!("%{:02X}", ch as u32)),
                c => uri.push(c),
            }
        }
        uri.push_str("?immutable=1");
        rusqlite::Connection::open_with_flags(uri, flags | OpenFlags::SQLITE_OPEN_URI)?
    } else {
        rusqlite::Connection::open_with_flags(path, flags)?
    };
    c.busy_timeout(std::time::Duration::from_secs(30))?;
    Ok(c)
}

fn cpus_text(cpus: &[u32]) -> Val {
    if cpus.is_empty() {
        return Val::Null;
    }
    Val::Text(
        cpus.iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(","),
    )
}

fn severity_text(f: &Finding) -> String {
    f.severity.name().to_string()
}

pub(crate) fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Current UTC time, RFC 3339.
pub(crate) fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}
