//! The results database on a real PostgreSQL server (`scripts/pg-test-server start` prints the
//! URL to put into BOARDBENCH_TEST_PG_URL). Skipped with a note when the variable is unset and
//! under qemu (BOARDBENCH_EMULATED=1). Each test works in a database of its own.
//!
//! PostgreSQL is an opt-in feature of the board binary (`--features postgres`; the release
//! binaries leave it out): scripts/test builds the tests with it.
#![cfg(feature = "postgres")]

use crate::common;

use document::{Finding, Measurement, ResultDocument, SCHEMA_VERSION, Severity};
use resultsdb::{Added, Filter, Location, Store};

/// A fresh database on the test server, or `None` (skip).
fn fresh_db(name: &str) -> Option<String> {
    testsupport::pg::fresh_db(name)
}

fn doc(device: &str, started: &str, zip: f64) -> ResultDocument {
    let m = |suite: &str, test: &str, threads: u32, value: f64, unit: &str| Measurement {
        suite: suite.into(),
        test: test.into(),
        variant: Some("v1".into()),
        threads,
        cpus: vec![0, 3],
        value,
        unit: unit.into(),
        higher_is_better: true,
        spread_pct: Some(0.8),
    };
    ResultDocument {
        schema_version: SCHEMA_VERSION,
        producer: "boardbench 0.1.0".into(),
        device: Some(device.into()),
        started: Some(started.into()),
        finished: None,
        machine: None,
        measurements: vec![
            m("clock", "cpu0", 1, 1800.0, "MHz"),
            m("7zip", "total rating", 4, zip, "MIPS"),
            m("cpuminer", "total score", 4, 12.5, "kH/s"),
        ],
        findings: vec![Finding {
            kind: "swapping".into(),
            severity: Severity::Invalid,
            message: "swapped".into(),
            evidence: vec!["a".into(), "b".into()],
        }],
        imported: None,
        run: None,
        guide: None,
        redaction: None,
        analysis: None,
    }
}

#[test]
fn postgres_store_round_trip() {
    let Some(url) = fresh_db("roundtrip") else {
        return;
    };
    let loc = Location::parse(&url).unwrap();
    let mut s = Store::open(&loc).unwrap();
    assert_eq!(s.schema_version().unwrap(), resultsdb::schema::latest());
    drop(s);
    let mut s = Store::open(&loc).unwrap(); // migrations are not applied twice
    let a = doc("Alpha", "2026-02-01T00:00:00+00:00", 9000.0);
    let id = s.add_document(&a, &["lab".into()]).unwrap();
    assert!(matches!(id, Added::New(_)));
    assert_eq!(s.add_document(&a, &[]).unwrap(), Added::Duplicate(id.id()));
    s.add_document(&doc("Beta", "2026-03-01T00:00:00+00:00", 9900.0), &[])
        .unwrap();
    assert_eq!(s.count().unwrap(), 2);

    let run = s.run(id.id()).unwrap().unwrap();
    assert_eq!(run.measurements, a.measurements);
    assert_eq!(run.findings, a.findings);
    assert_eq!(run.summary.tags, ["lab"]);
    assert_eq!(run.summary.columns.clock_mhz, Some(1800.0));
    let back: ResultDocument = serde_json::from_value(run.document).unwrap();
    assert_eq!(back, a);

    let f = |device: &str| Filter {
        device: Some(device.into()),
        ..Filter::default()
    };
    assert_eq!(s.list(&f("ALPHA")).unwrap().len(), 1);
    let since = Filter {
        since: Some("2026-02-15".into()),
        ..Filter::default()
    };
    assert_eq!(
        s.list(&since).unwrap()[0].columns.device.as_deref(),
        Some("Beta")
    );
    let tagged = Filter {
        tag: Some("lab".into()),
        ..Filter::default()
    };
    assert_eq!(s.list(&tagged).unwrap().len(), 1);

    let table = s.table().unwrap();
    assert_eq!(table.len(), 2);
    assert_eq!(table[0].zip_multi, Some(9000.0));
    assert_eq!(table[0].khs, Some(12.5));
    assert_eq!(table[0].clockspeed.as_deref(), Some("1800 MHz"));
}

#[test]
fn postgres_through_the_command_line() {
    let Some(url) = fresh_db("cli") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a.json");
    std::fs::write(
        &file,
        serde_json::to_string(&doc("Gamma", "2026-04-01T00:00:00+00:00", 5000.0)).unwrap(),
    )
    .unwrap();
    let run = |args: &[&str]| {
        common::command()
            .arg("results")
            .args(args)
            .env("BOARDBENCH_DB", &url)
            .output()
            .unwrap()
    };
    let out = run(&["add", file.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = run(&["table", "--format", "csv"]);
    let csv = String::from_utf8_lossy(&out.stdout);
    assert!(
        csv.lines().nth(1).unwrap().starts_with("1,Gamma,1800 MHz"),
        "{csv}"
    );
    let out = run(&["compare", "1", "1"]);
    assert_eq!(out.status.code(), Some(0));
}

/// `results reanalyse` on PostgreSQL: a run stored without findings (as before documents were
/// finished) gets them, through the same store interface as SQLite.
#[test]
fn postgres_reanalyse() {
    let Some(url) = fresh_db("reanalyse") else {
        return;
    };
    let bytes = std::fs::read(testsupport::sbc_bench_logs().join("8ctH.txt")).unwrap();
    let raw = sbcimport::import_bytes(&bytes, "8ctH.txt").unwrap();
    let id = {
        let mut s = Store::open(&Location::parse(&url).unwrap()).unwrap();
        s.add_document(&raw, &["old".into()]).unwrap().id()
    };
    let dir = tempfile::tempdir().unwrap();
    let out = common::command()
        .args(["results", "reanalyse", "--all"])
        .env("BOARDBENCH_DB", &url)
        .env("BOARDBENCH_CORPUS_DIR", dir.path())
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(said.contains("+throttling [invalid]"), "{said}");
    let mut s = Store::open_read(&Location::parse(&url).unwrap()).unwrap();
    let run = s.run(id).unwrap().unwrap();
    assert!(run.findings.iter().any(|f| f.kind == "throttling"));
    assert_eq!(run.summary.tags, ["old"], "the run keeps its tags");
    assert_eq!(run.document["analysis"]["findings_analysed"], true);
}
