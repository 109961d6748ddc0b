//! `Store::table_page` sorts and pages in SQL for most columns; the order must be exactly the
//! one `table::sort_rows` gives over all rows (missing values last, ties by id, device names
//! case-insensitively), on SQLite and — when BOARDBENCH_TEST_PG_URL is set — on PostgreSQL.

use document::{Measurement, ResultDocument, SCHEMA_VERSION};
use store::table::{Column, sort_rows};
use store::{Filter, Location, Store};

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
            let ids = |r: &[store::TableRow]| r.iter().map(|r| r.id).collect::<Vec<_>>();
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

#[test]
fn postgres_pages_sort_like_sort_rows() {
    let Some(url) = testsupport::pg::fresh_db("store_page") else {
        return;
    };
    check(&Location::Postgres(url));
}
