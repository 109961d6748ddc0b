//! Fuzzing the result-document reader (proptest, bounded: `PROPTEST_CASES` raises the count):
//! arbitrary bytes and arbitrary JSON never panic `add_json`, and whatever is stored holds only
//! measurements inside their unit's physical range.

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use resultsdb::{self as bstore, Location, Store};
use serde_json::{Value, json};

fn store() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let s = Store::open(&Location::Sqlite(dir.path().join("f.sqlite"))).unwrap();
    (dir, s)
}

fn runner() -> TestRunner {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    })
}

#[test]
fn arbitrary_bytes_never_panic() {
    let (_dir, s) = store();
    let s = std::cell::RefCell::new(s);
    runner()
        .run(&proptest::collection::vec(any::<u8>(), 0..512), |b| {
            let _ = s.borrow_mut().add_json(&String::from_utf8_lossy(&b), &[]);
            Ok(())
        })
        .unwrap();
}

/// Any JSON value (nested a few levels).
fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|v| json!(v)),
        any::<f64>()
            .prop_filter("JSON has no NaN", |v| v.is_finite())
            .prop_map(|v| json!(v)),
        "\\PC{0,12}".prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            proptest::collection::btree_map("[a-z_]{1,12}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

#[test]
fn document_shaped_json_never_panics_and_stores_only_physical_values() {
    let (_dir, s) = store();
    let s = std::cell::RefCell::new(s);
    let measurement = (
        prop_oneof![
            Just("MIPS"),
            Just("MB/s"),
            Just("kH/s"),
            Just("°C"),
            Just("%"),
            Just("")
        ],
        prop_oneof![
            any::<f64>().prop_filter("finite", |v| v.is_finite()),
            -1e3..1e6f64,
        ],
        // Half of them well-formed: the store refuses what does not read as a document.
        prop_oneof![Just(json!(null)), any_json()],
    )
        .prop_map(|(unit, value, extra)| {
            json!({"suite": "s", "test": "t", "threads": 1, "value": value, "unit": unit,
                   "higher_is_better": true, "extra": extra})
        });
    let doc = (
        prop_oneof![Just(json!(1)), any_json()],
        proptest::collection::vec(measurement, 0..4),
        prop_oneof![Just(json!(null)), any_json()],
    )
        .prop_map(|(version, ms, imported)| {
            json!({"schema_version": version, "producer": "fuzz", "measurements": ms,
                   "imported": imported})
        });
    runner()
        .run(&doc, |d| {
            let _ = s.borrow_mut().add_value(d, &[]);
            Ok(())
        })
        .unwrap();
    let rows = s
        .borrow_mut()
        .query("SELECT value, unit FROM results", &[])
        .unwrap();
    assert!(
        s.borrow_mut().count().unwrap() > 0,
        "nothing was stored at all"
    );
    for r in rows {
        let value = r[0].as_f64().unwrap();
        let unit = r[1].as_str().unwrap();
        assert!(
            bstore::ranges::check(value, unit).is_ok(),
            "{value} {unit} stored"
        );
    }
}
