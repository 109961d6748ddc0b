//! Versioned migrations, the same for both backends.
//!
//! Each migration is a numbered SQL text written once, with three words that differ between the
//! dialects: `{ID}` (auto-numbered primary key), `{INT}` (64-bit integer) and `{REAL}` (double).
//! `schema_version` holds one row per applied migration; each migration runs in its own
//! transaction together with its row, so a crash leaves either the old or the new schema.

use crate::Error;
use crate::backend::{Dialect, Exec, Val};

/// (version, SQL). Append new migrations; never edit an applied one.
pub const MIGRATIONS: &[(i64, &str)] = &[(1, V1), (2, V2), (3, V3), (4, V4)];

/// Runs, their documents, measurements, findings and tags. The Results.md headline columns are extracted
/// into `runs` at insert time so `results table` is a single scan of one table.
const V1: &str = "
CREATE TABLE runs (
    id {ID},
    doc_hash TEXT NOT NULL UNIQUE,
    added TEXT NOT NULL,
    started TEXT,
    device TEXT,
    soc TEXT,
    arch TEXT,
    kernel TEXT,
    distro TEXT,
    producer TEXT,
    imported {INT} NOT NULL,
    clockspeed TEXT,
    clock_mhz {REAL},
    zip_multi {REAL},
    zip_single {REAL},
    aes {REAL},
    memcpy {REAL},
    memset {REAL},
    khs {REAL}
);
-- The whole document lives apart from the indexed columns: a scan of `runs` (the table, the
-- list) then reads small rows only.
CREATE TABLE documents (
    run_id {INT} PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
    json TEXT NOT NULL
);
CREATE INDEX runs_device ON runs(device);
CREATE INDEX runs_started ON runs(started);
CREATE INDEX runs_soc ON runs(soc);
CREATE INDEX runs_arch ON runs(arch);
CREATE INDEX runs_kernel ON runs(kernel);
CREATE TABLE results (
    run_id {INT} NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    seq {INT} NOT NULL,
    suite TEXT NOT NULL,
    test TEXT NOT NULL,
    variant TEXT,
    threads {INT} NOT NULL,
    cpus TEXT,
    value {REAL} NOT NULL,
    unit TEXT NOT NULL,
    higher_is_better {INT} NOT NULL,
    spread_pct {REAL},
    PRIMARY KEY (run_id, seq)
);
CREATE INDEX results_suite_test ON results(suite, test, variant, threads);
CREATE TABLE findings (
    run_id {INT} NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    seq {INT} NOT NULL,
    kind TEXT NOT NULL,
    severity TEXT NOT NULL,
    message TEXT NOT NULL,
    evidence TEXT,
    PRIMARY KEY (run_id, seq)
);
CREATE INDEX findings_kind ON findings(kind);
CREATE TABLE tags (
    run_id {INT} NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    tag TEXT NOT NULL,
    PRIMARY KEY (run_id, tag)
);
CREATE INDEX tags_tag ON tags(tag);
";

/// The results service: upload tokens (only their SHA-256 is kept) under an uploader's name,
/// which uploader stored each run (NULL for runs stored on the board itself or by `results add`),
/// and the run's not-comparable flags (`marks::column_text`; NULL for runs stored before), so
/// the table is read without parsing documents.
const V2: &str = "
CREATE TABLE tokens (
    id {ID},
    uploader TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    created TEXT NOT NULL,
    revoked TEXT
);
CREATE INDEX tokens_uploader ON tokens(uploader);
ALTER TABLE runs ADD COLUMN uploader TEXT;
ALTER TABLE runs ADD COLUMN not_comparable TEXT;
CREATE INDEX runs_uploader ON runs(uploader);
";

/// A run's id is never given to another run: SQLite's `INTEGER PRIMARY KEY` hands a deleted
/// highest id out again (a link to `/runs/7` or an uploader's uploads.json would then name
/// someone else's run); `AUTOINCREMENT` does not. SQLite cannot change a column's kind in place,
/// so `runs` is rebuilt (SQLite's documented twelve steps: foreign keys off around the
/// migration, see [`rebuilds_tables`]). PostgreSQL's BIGSERIAL never reuses an id: nothing to do.
const V3: &str = "{SQLITE}
CREATE TABLE runs_v3 (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    doc_hash TEXT NOT NULL UNIQUE,
    added TEXT NOT NULL,
    started TEXT,
    device TEXT,
    soc TEXT,
    arch TEXT,
    kernel TEXT,
    distro TEXT,
    producer TEXT,
    imported INTEGER NOT NULL,
    clockspeed TEXT,
    clock_mhz REAL,
    zip_multi REAL,
    zip_single REAL,
    aes REAL,
    memcpy REAL,
    memset REAL,
    khs REAL,
    uploader TEXT,
    not_comparable TEXT
);
INSERT INTO runs_v3 (id, doc_hash, added, started, device, soc, arch, kernel, distro, producer,
    imported, clockspeed, clock_mhz, zip_multi, zip_single, aes, memcpy, memset, khs, uploader,
    not_comparable)
  SELECT id, doc_hash, added, started, device, soc, arch, kernel, distro, producer, imported,
    clockspeed, clock_mhz, zip_multi, zip_single, aes, memcpy, memset, khs, uploader,
    not_comparable FROM runs;
DROP TABLE runs;
ALTER TABLE runs_v3 RENAME TO runs;
CREATE INDEX runs_device ON runs(device);
CREATE INDEX runs_started ON runs(started);
CREATE INDEX runs_soc ON runs(soc);
CREATE INDEX runs_arch ON runs(arch);
CREATE INDEX runs_kernel ON runs(kernel);
CREATE INDEX runs_uploader ON runs(uploader);
";

/// Which runs are guide runs (a top-level `guide` object: `boardbench guide` made them), so the
/// guide page selects them in the query — a `"guide":{}` nested anywhere else in a document
/// (unknown fields are kept) neither counts nor pushes real guide runs past the page's limit.
/// Stored runs that may be guide runs are marked here (the LIKE spares the parse of documents
/// that cannot be one); [`unmark_look_alikes`] then reads each and unmarks those without a real
/// top-level `guide` object (the bundled SQLite has no JSON functions).
pub const V4: &str = "
ALTER TABLE runs ADD COLUMN guide {INT} NOT NULL DEFAULT 0;
UPDATE runs SET guide = 1 WHERE id IN (SELECT run_id FROM documents
    WHERE json LIKE '%\"guide\":{%');
CREATE INDEX runs_guide ON runs(guide, id);
";

/// After [`V4`]: the runs marked as guide runs whose document has no top-level `guide` object
/// are unmarked (one document read at a time).
pub fn unmark_look_alikes(db: &mut dyn Exec) -> Result<(), Error> {
    let ids: Vec<i64> = db
        .query("SELECT id FROM runs WHERE guide = 1", &[])?
        .into_iter()
        .filter_map(|r| r.first().and_then(Val::as_i64))
        .collect();
    for id in ids {
        let text = db
            .query(
                "SELECT json FROM documents WHERE run_id = ?",
                &[Val::Int(id)],
            )?
            .into_iter()
            .next()
            .and_then(|r| r.into_iter().next())
            .and_then(Val::into_string)
            .unwrap_or_default();
        let real = serde_json::from_str::<serde_json::Value>(&text)
            .ok()
            .is_some_and(|v| v.get("guide").is_some_and(serde_json::Value::is_object));
        if !real {
            db.exec("UPDATE runs SET guide = 0 WHERE id = ?", &[Val::Int(id)])?;
        }
    }
    Ok(())
}

/// Marks a migration as SQLite's alone (empty for PostgreSQL).
const SQLITE_ONLY: &str = "{SQLITE}";

/// Whether the migration rebuilds a table on this dialect: SQLite must then run it with
/// foreign keys off (`DROP TABLE runs` would otherwise delete every run's rows by cascade), and
/// checks them before it commits.
pub fn rebuilds_tables(sql: &str, d: Dialect) -> bool {
    d == Dialect::Sqlite && sql.starts_with(SQLITE_ONLY)
}

/// The migration text for one dialect.
pub fn render(sql: &str, d: Dialect) -> String {
    let (id, int, real) = match d {
        Dialect::Sqlite => ("INTEGER PRIMARY KEY", "INTEGER", "REAL"),
        Dialect::Postgres => ("BIGSERIAL PRIMARY KEY", "BIGINT", "DOUBLE PRECISION"),
    };
    let sql = match sql.strip_prefix(SQLITE_ONLY) {
        Some(_) if d == Dialect::Postgres => "",
        Some(rest) => rest,
        None => sql,
    };
    sql.replace("{ID}", id)
        .replace("{INT}", int)
        .replace("{REAL}", real)
}

/// The newest applied migration (0 for an empty database).
pub fn current_version(db: &mut dyn Exec) -> Result<i64, Error> {
    let rows = db.query("SELECT MAX(version) FROM schema_version", &[])?;
    Ok(rows
        .first()
        .and_then(|r| r.first())
        .and_then(Val::as_i64)
        .unwrap_or(0))
}

/// The table that records applied migrations (idempotent).
pub fn version_table(d: Dialect) -> String {
    render(
        "CREATE TABLE IF NOT EXISTS schema_version (version {INT} PRIMARY KEY, applied TEXT NOT NULL)",
        d,
    )
}

/// Highest version this build knows.
pub fn latest() -> i64 {
    MIGRATIONS.last().map_or(0, |m| m.0)
}
