//! `since`/`until` compare instants across time zones and days as the run's own calendar day;
//! a start time that is not a date matches no date filter — on SQLite and (with
//! BOARDBENCH_TEST_PG_URL) PostgreSQL alike.

use document::{ResultDocument, SCHEMA_VERSION};
use resultsdb::{Filter, Location, Store};

fn doc(device: &str, started: &str) -> ResultDocument {
    ResultDocument {
        guide: None,
        redaction: None,
        analysis: None,
        schema_version: SCHEMA_VERSION,
        producer: "test".into(),
        device: Some(device.into()),
        started: Some(started.into()),
        finished: None,
        machine: None,
        measurements: vec![],
        findings: vec![],
        imported: None,
        run: None,
    }
}

fn devices(s: &mut Store, since: Option<&str>, until: Option<&str>) -> Vec<String> {
    let f = Filter {
        since: since.map(Into::into),
        until: until.map(Into::into),
        ..Filter::default()
    };
    let mut d: Vec<String> = s
        .list(&f)
        .unwrap()
        .into_iter()
        .filter_map(|r| r.columns.device)
        .collect();
    d.sort();
    d
}

fn check(loc: &Location) {
    let mut s = Store::open(loc).unwrap();
    // 19:21 UTC, 18:30 UTC, 23:30 UTC on the 24th (its own day: the 25th), and no date.
    s.add_document(&doc("ny", "2026-11-24T15:21:00-04:00"), &[])
        .unwrap();
    s.add_document(&doc("utc", "2026-11-24T18:30:00.250Z"), &[])
        .unwrap();
    s.add_document(&doc("tokyo", "2026-11-25T08:30:00+09:00"), &[])
        .unwrap();
    s.add_document(&doc("broken", "not a date"), &[]).unwrap();

    assert_eq!(
        devices(&mut s, None, None),
        ["broken", "ny", "tokyo", "utc"]
    );
    // Instants, whatever zone either side is written in.
    assert_eq!(
        devices(&mut s, Some("2026-11-24T19:00:00Z"), None),
        ["ny", "tokyo"]
    );
    assert_eq!(
        devices(&mut s, Some("2026-11-24T20:00:00+01:00"), None),
        ["ny", "tokyo"]
    );
    assert_eq!(devices(&mut s, None, Some("2026-11-24T19:00")), ["utc"]);
    // Days: the run's own calendar day.
    assert_eq!(devices(&mut s, Some("2026-11-25"), None), ["tokyo"]);
    assert_eq!(devices(&mut s, None, Some("2026-11-24")), ["ny", "utc"]);
    assert_eq!(
        devices(&mut s, Some("2026-11-24"), Some("2026-11-25")),
        ["ny", "tokyo", "utc"]
    );
}

#[test]
fn sqlite_date_filters_are_instants_and_days() {
    let dir = tempfile::tempdir().unwrap();
    check(&Location::Sqlite(dir.path().join("t.sqlite")));
}

// The PostgreSQL backend is a feature (on in the workspace's test build: the service needs it).
#[cfg(feature = "postgres")]
#[test]
fn postgres_date_filters_are_instants_and_days() {
    let Some(url) = testsupport::pg::fresh_db("store_dates") else {
        return;
    };
    check(&Location::Postgres(url));
}
