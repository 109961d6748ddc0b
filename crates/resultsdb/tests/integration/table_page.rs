//! `Store::table_page` sorts and pages in SQL for most columns; the order must be exactly the
//! one `table::sort_rows` gives over all rows (missing values last, ties by id, device names
//! case-insensitively), on SQLite and — when BOARDBENCH_TEST_PG_URL is set — on PostgreSQL.

use document::{Measurement, ResultDocument, SCHEMA_VERSION};
use resultsdb::table::{Column, sort_rows};
use resultsdb::{Filter, Location, Store};

fn doc(i: u32) -> ResultDocument {
    let devices = ["alpha", "Beta", "beta", "_x", "Zeta", "alpha 2", "Äpfel"];
    let m = |suite: &str, test: &str, threads: u32, value: f64, unit: &str| Measurement {
        suite: suite.into(),
        test: test.into(),
        variant: None,
        threads,
        cpus: vec![],
        value,
        unit: unit.into(),
        higher_is_better: true,
        spread_pct: None,
    };
    let mut measurements = vec![m("clock", "cpu0", 1, 1000.0 + f64::from(i % 5), "MHz")];
    if !i.is_multiple_of(4) {
        // Some runs lack the figure; several share a value (ties by id).
        measurements.push(m(
            "7zip",
            "total rating",
            4,
            f64::from(1000 + (i * 37) % 9),
            "MIPS",
        ));
    }
    if i.is_multiple_of(3) {
        measurements.push(m("cpuminer", "total score", 4, f64::from(i) / 3.0, "kH/s"));
    }
    ResultDocument {
        guide: None,
        redaction: None,
        analysis: None,
        schema_version: SCHEMA_VERSION,
        producer: "test".into(),
        device: (i % 6 != 5).then(|| devices[i as usize % devices.len()].to_string()),
        started: Some(format!("2026-01-{:02}T00:00:00+00:00", 1 + i % 28)),
        finished: None,
        machine: None,
        measurements,
        findings: vec![],
        imported: None,
        run: None,
    }
}

fn check(loc: &Location) {
    let mut s = Store::open(loc).unwrap();
    for i in 0..40 {
        s.add_document(&doc(i), &[]).unwrap();
    }
    let all = s.table().unwrap();
    for col in Column::NAMES.iter().map(|n| Column::parse(n).unwrap()) {
        for desc in [false, true] {
            let mut want = all.clone();
            sort_rows(&mut want, col, desc);
            let mut got = Vec::new();
            for offset in (0..45).step_by(7) {
                let (rows, total) = s
                    .table_page(&Filter::default(), col, desc, 7, offset)
                    .unwrap();
                assert_eq!(total, 40);
                got.extend(rows);
            }
            let ids = |r: &[resultsdb::TableRow]| r.iter().map(|r| r.id).collect::<Vec<_>>();
            assert_eq!(ids(&got), ids(&want), "{col:?} desc={desc}");
        }
    }
    let f = Filter {
        device: Some("BETA".into()),
        ..Filter::default()
    };
    let (rows, total) = s.table_page(&f, Column::ZipMulti, true, 2, 0).unwrap();
    assert_eq!(rows.len(), 2);
    assert!(total > 2);
}

#[test]
fn sqlite_pages_sort_like_sort_rows() {
    let dir = tempfile::tempdir().unwrap();
    check(&Location::Sqlite(dir.path().join("t.sqlite")));
}

// The PostgreSQL backend is a feature (on in the workspace's test build: the service needs it).
#[cfg(feature = "postgres")]
#[test]
fn postgres_pages_sort_like_sort_rows() {
    let Some(url) = testsupport::pg::fresh_db("store_page") else {
        return;
    };
    check(&Location::Postgres(url));
}

// ---- The service's rows: ids never reused, one device's latest runs, what the table shows ----

fn id_of(a: resultsdb::Added) -> i64 {
    match a {
        resultsdb::Added::New(id) | resultsdb::Added::Duplicate(id) => id,
    }
}

/// A deleted run's id is never given to the next run (a link or an uploader's uploads.json
/// would then name another run), and one device's page reads its latest runs only.
fn service_rows(loc: &Location) {
    let mut s = Store::open(loc).unwrap();
    let mut ids = Vec::new();
    for i in 0..3 {
        let mut d = doc(i);
        d.device = Some("Rock 5B".into());
        ids.push(
            s.upload(serde_json::to_value(&d).unwrap(), &[], "lab")
                .unwrap()
                .added,
        );
    }
    let last = id_of(ids[2]);
    assert!(s.delete_run_of(last, "lab").unwrap());
    let next = id_of(
        s.upload(serde_json::to_value(doc(30)).unwrap(), &[], "lab")
            .unwrap()
            .added,
    );
    assert!(
        next > last,
        "run id {last} was deleted, yet the next run got {next}"
    );

    // The device's latest two of its runs, oldest first, with the total; exact name only.
    let mut invalid = doc(31);
    invalid.device = Some("Rock 5B".into());
    invalid.started = Some("2026-02-01T00:00:00+00:00".into());
    invalid.findings = vec![
        document::Finding {
            kind: "throttling".into(),
            severity: document::Severity::Warning,
            message: "w".into(),
            evidence: vec![],
        },
        document::Finding {
            kind: "swapping".into(),
            severity: document::Severity::Invalid,
            message: "i".into(),
            evidence: vec![],
        },
    ];
    let newest = id_of(
        s.upload(serde_json::to_value(&invalid).unwrap(), &[], "lab")
            .unwrap()
            .added,
    );
    let mut other = doc(32);
    other.device = Some("Rock 5B Plus".into());
    s.add_document(&other, &[]).unwrap();
    let (rows, total) = s.device_table("Rock 5B", 2).unwrap();
    assert_eq!(
        total, 3,
        "the two kept uploads and the invalid one; not the Plus"
    );
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[1].id, newest, "newest last");
    assert!(rows.iter().all(|r| r.device.as_deref() == Some("Rock 5B")));
    // What the table shows beside sbc-bench's columns.
    let r = &rows[1];
    assert_eq!(r.worst.as_deref(), Some("invalid"));
    assert_eq!(r.uploader.as_deref(), Some("lab"));
    assert_eq!(r.started.as_deref(), Some("2026-02-01T00:00:00+00:00"));
    assert_eq!(rows[0].worst, None, "no findings: no severity");
    let local = s
        .table()
        .unwrap()
        .into_iter()
        .find(|r| r.device.as_deref() == Some("Rock 5B Plus"))
        .unwrap();
    assert_eq!(local.uploader, None, "stored locally");
}

#[test]
fn sqlite_ids_are_never_reused_and_device_pages_are_bounded() {
    let dir = tempfile::tempdir().unwrap();
    service_rows(&Location::Sqlite(dir.path().join("t.sqlite")));
}

// The PostgreSQL backend is a feature (on in the workspace's test build: the service needs it).
#[cfg(feature = "postgres")]
#[test]
fn postgres_ids_are_never_reused_and_device_pages_are_bounded() {
    let Some(url) = testsupport::pg::fresh_db("store_service_rows") else {
        return;
    };
    service_rows(&Location::Postgres(url));
}

/// A database written by an earlier version (schema 2, ids that SQLite could reuse) is
/// rebuilt with its runs and everything that hangs off them intact.
#[test]
fn a_schema_2_sqlite_database_keeps_its_runs_when_ids_become_unique() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.sqlite");
    let old = Location::Sqlite(path.clone());
    {
        // Schema 2 exactly as an earlier boardbench left it, with two runs in it.
        let c = rusqlite::Connection::open(&path).unwrap();
        c.execute_batch(&resultsdb::schema::version_table(
            resultsdb::backend::Dialect::Sqlite,
        ))
        .unwrap();
        for (v, sql) in &resultsdb::schema::MIGRATIONS[..2] {
            c.execute_batch(&resultsdb::schema::render(
                sql,
                resultsdb::backend::Dialect::Sqlite,
            ))
            .unwrap();
            c.execute(
                "INSERT INTO schema_version (version, applied) VALUES (?1, 'then')",
                [v],
            )
            .unwrap();
        }
    }
    // Rows written by hand, as schema 2 had them.
    {
        let c = rusqlite::Connection::open(&path).unwrap();
        c.execute_batch(
            "INSERT INTO runs (id, doc_hash, added, device, imported) VALUES (1, 'h1', 'then', 'a', 0);
             INSERT INTO runs (id, doc_hash, added, device, imported, uploader) VALUES (2, 'h2', 'then', 'b', 0, 'lab');
             INSERT INTO documents (run_id, json) VALUES (1, '{}'), (2, '{}');
             INSERT INTO results (run_id, seq, suite, test, threads, value, unit, higher_is_better)
               VALUES (1, 0, 's', 't', 1, 1.5, 'u', 1), (2, 0, 's', 't', 1, 2.5, 'u', 1);
             INSERT INTO findings (run_id, seq, kind, severity, message) VALUES (2, 0, 'k', 'invalid', 'm');
             INSERT INTO tags (run_id, tag) VALUES (2, 'nightly');",
        )
        .unwrap();
    }
    let mut s = Store::open(&old).unwrap();
    assert_eq!(s.schema_version().unwrap(), resultsdb::schema::latest());
    let rows = s.table().unwrap();
    assert_eq!(rows.iter().map(|r| r.id).collect::<Vec<_>>(), [1, 2]);
    assert_eq!(rows[1].worst.as_deref(), Some("invalid"), "findings kept");
    assert_eq!(rows[1].uploader.as_deref(), Some("lab"));
    drop(s);
    let c = rusqlite::Connection::open(&path).unwrap();
    let count = |sql: &str| c.query_row(sql, [], |r| r.get::<_, i64>(0)).unwrap();
    assert_eq!(count("SELECT COUNT(*) FROM results"), 2, "results kept");
    assert_eq!(count("SELECT COUNT(*) FROM documents"), 2, "documents kept");
    assert_eq!(count("SELECT COUNT(*) FROM tags"), 1, "tags kept");
    c.execute_batch("PRAGMA foreign_keys = ON; DELETE FROM runs WHERE id = 2;")
        .unwrap();
    assert_eq!(
        count("SELECT COUNT(*) FROM results"),
        1,
        "the references follow the rebuilt table (cascade still works)"
    );
    c.execute(
        "INSERT INTO runs (doc_hash, added, imported) VALUES ('h3', 'now', 0)",
        [],
    )
    .unwrap();
    assert_eq!(
        count("SELECT MAX(id) FROM runs"),
        3,
        "id 2 is not given out again"
    );
}
