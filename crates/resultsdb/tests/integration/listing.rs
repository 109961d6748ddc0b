//! A run's listing holds the columns it is indexed by (`headline::columns::RunColumns`, their one
//! home): what `add_document` stores is what `list` and `run` read back, and the JSON of
//! `results list --json` / `results show --json` keeps its fields and their order.

use document::imported::Headline;
use document::{Measurement, ResultDocument, SCHEMA_VERSION};
use headline::columns::{RunColumns, columns};
use resultsdb::{Filter, Location, RunDetail, RunListing, Store};

fn doc() -> ResultDocument {
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
    ResultDocument {
        guide: None,
        redaction: None,
        analysis: None,
        schema_version: SCHEMA_VERSION,
        producer: "boardbench 0.1.0".into(),
        device: Some("Radxa ROCK 5B".into()),
        started: Some("2026-01-02T03:04:05+00:00".into()),
        finished: None,
        machine: None,
        measurements: vec![
            m("clock", "cpu4", 1, 2350.0, "MHz"),
            m("7zip", "total rating", 8, 16000.0, "MIPS"),
            m("cpuminer", "total score", 8, 25.5, "kH/s"),
        ],
        findings: vec![],
        imported: None,
        run: None,
    }
}

#[test]
fn the_stored_columns_read_back_as_the_documents_columns() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = Store::open(&Location::Sqlite(dir.path().join("r.db"))).unwrap();
    let d = doc();
    let id = s.add_document(&d, &["lab".into()]).unwrap().id();
    let want = columns(&d);
    assert!(want.clock_mhz.is_some() && want.headline.zip_multi.is_some());

    let listed = s.list(&Filter::default()).unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(
        (listed[0].id, &listed[0].tags),
        (id, &vec!["lab".to_string()])
    );
    assert_eq!(listed[0].columns, want);

    let run = s.run(id).unwrap().unwrap();
    assert_eq!(run.summary, listed[0]);
}

fn listing() -> RunListing {
    RunListing {
        id: 3,
        columns: RunColumns {
            started: Some("2026-01-02T03:04:05Z".into()),
            device: Some("Radxa ROCK 5B".into()),
            soc: Some("RK3588".into()),
            arch: Some("arm64".into()),
            kernel: Some("6.1.43".into()),
            distro: None,
            producer: Some("boardbench 0.1.0".into()),
            imported: false,
            clockspeed: Some("2350/1800 MHz".into()),
            clock_mhz: Some(2350.0),
            headline: Headline {
                zip_multi: Some(16000.0),
                ..Headline::default()
            },
        },
        tags: vec!["lab".into()],
        interrupted: false,
    }
}

/// The fields and their order as they were when the listing had its own copy of the columns:
/// the clock and the headline figures are not part of a listing, a missing value is `null`;
/// whether the run was cut short came last.
#[test]
fn a_listing_serialises_as_before() {
    assert_eq!(
        serde_json::to_string(&listing()).unwrap(),
        r#"{"id":3,"started":"2026-01-02T03:04:05Z","device":"Radxa ROCK 5B","soc":"RK3588","arch":"arm64","kernel":"6.1.43","distro":null,"producer":"boardbench 0.1.0","imported":false,"tags":["lab"],"interrupted":false}"#
    );
}

/// `results show --json`: the listing as `summary`, the clock columns beside it.
#[test]
fn a_run_serialises_as_before() {
    let run = RunDetail {
        summary: listing(),
        measurements: vec![],
        findings: vec![],
        document: serde_json::Value::Null,
    };
    let text = serde_json::to_string(&run).unwrap();
    let summary = serde_json::to_string(&listing()).unwrap();
    assert_eq!(
        text,
        format!(
            r#"{{"summary":{summary},"clockspeed":"2350/1800 MHz","clock_mhz":2350.0,"measurements":[],"findings":[],"document":null}}"#
        )
    );
}

/// Issue 47: an interrupted run (its `interrupted` finding) is marked in the listing and in
/// the table, and a complete one is not.
#[test]
fn an_interrupted_run_is_marked_in_the_listing_and_the_table() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = Store::open(&Location::Sqlite(dir.path().join("r.db"))).unwrap();
    let whole = s.add_document(&doc(), &[]).unwrap().id();
    let mut cut = doc();
    cut.started = Some("2026-01-03T03:04:05+00:00".into());
    cut.findings.push(document::Finding {
        kind: "interrupted".into(),
        severity: document::Severity::Invalid,
        message: "The run was interrupted".into(),
        evidence: vec![],
    });
    let cut = s.add_document(&cut, &[]).unwrap().id();
    let listed = s.list(&Filter::default()).unwrap();
    let mark = |id: i64| listed.iter().find(|r| r.id == id).unwrap().interrupted;
    assert!(!mark(whole) && mark(cut));
    assert!(s.run(cut).unwrap().unwrap().summary.interrupted);
    let rows = s.table().unwrap();
    let md = resultsdb::table::table_markdown(&rows, &Default::default());
    assert_eq!(md.matches("Radxa ROCK 5B (interrupted)").count(), 1, "{md}");
}
