//! Crash safety: `boardbench results add` of many documents killed with SIGKILL half-way leaves
//! a consistent SQLite database (integrity check ok) with no half-stored run.

use crate::common;

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use document::{Measurement, ResultDocument, SCHEMA_VERSION};
use resultsdb::{Location, Store};

const DOCS: usize = 400;
const ROWS: usize = 400;

fn document(i: usize) -> ResultDocument {
    ResultDocument {
        schema_version: SCHEMA_VERSION,
        producer: "boardbench crash test".into(),
        device: Some(format!("Board {i}")),
        started: Some(format!("2026-01-01T00:00:{:02}+00:00", i % 60)),
        finished: None,
        machine: None,
        measurements: (0..ROWS)
            .map(|k| Measurement {
                suite: "synthetic".into(),
                test: format!("test {k}"),
                variant: Some(format!("document {i}")),
                threads: 1,
                cpus: vec![0, 1],
                value: (i * ROWS + k) as f64,
                unit: "ops/s".into(),
                higher_is_better: true,
                spread_pct: Some(0.5),
            })
            .collect(),
        findings: Vec::new(),
        imported: None,
        run: None,
        guide: None,
        redaction: None,
        analysis: None,
    }
}

fn stored_runs(db: &Path) -> i64 {
    // A reader never sees a half-committed run (WAL snapshot), so this only counts whole runs.
    Store::open(&Location::Sqlite(db.to_path_buf()))
        .and_then(|mut s| s.count())
        .unwrap_or(0)
}

#[test]
fn sigkill_during_a_large_add_leaves_no_half_stored_run() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("crash.sqlite");
    let mut files = Vec::new();
    for i in 0..DOCS {
        let p = dir.path().join(format!("doc{i:04}.json"));
        std::fs::write(&p, serde_json::to_vec(&document(i)).unwrap()).unwrap();
        files.push(p);
    }
    // Create the schema first so the reader below never races the migration.
    drop(Store::open(&Location::Sqlite(db.clone())).unwrap());

    let mut child = common::command()
        .arg("results")
        .arg("--db")
        .arg(&db)
        .arg("add")
        .args(&files)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start boardbench");
    // Kill once some runs are in: the writer is then, with high probability, inside the
    // transaction of a later one. (A generous limit only guards against a hung child.)
    let start = Instant::now();
    while stored_runs(&db) < 3 && start.elapsed() < Duration::from_secs(600) {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let _ = child.kill(); // SIGKILL
    let status = child.wait().unwrap();
    let finished = status.success();

    let mut s = Store::open(&Location::Sqlite(db.clone())).unwrap();
    assert_eq!(s.integrity_check().unwrap(), "ok");
    let runs = s.count().unwrap();
    eprintln!("child finished by itself: {finished}; runs stored: {runs} of {DOCS}");
    assert!(runs >= 1);
    if !finished {
        assert!(
            (runs as usize) < DOCS,
            "killed child cannot have stored every run"
        );
    }
    // Every stored run has all of its rows, and no rows belong to a missing run.
    let per_run = s
        .query(
            "SELECT r.id, (SELECT COUNT(*) FROM results WHERE run_id = r.id) FROM runs r",
            &[],
        )
        .unwrap();
    assert_eq!(per_run.len() as i64, runs);
    for row in per_run {
        assert_eq!(
            row[1].as_i64(),
            Some(ROWS as i64),
            "run {:?} is partial",
            row[0]
        );
    }
    let documents = s
        .query(
            "SELECT COUNT(*) FROM runs r JOIN documents d ON d.run_id = r.id",
            &[],
        )
        .unwrap();
    assert_eq!(
        documents[0][0].as_i64(),
        Some(runs),
        "every run keeps its document"
    );
    let orphans = s
        .query(
            "SELECT COUNT(*) FROM results WHERE run_id NOT IN (SELECT id FROM runs)",
            &[],
        )
        .unwrap();
    assert_eq!(orphans[0][0].as_i64(), Some(0));
    // The database is still writable and the killed document can be added afterwards.
    let last = document(DOCS - 1);
    assert!(s.add_document(&last, &[]).is_ok());
}
