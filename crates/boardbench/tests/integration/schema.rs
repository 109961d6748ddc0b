//! `boardbench schema` prints a JSON Schema, and every document boardbench produces validates
//! against it: imported sbc-bench logs here, run documents in the run tests (which call
//! [`common::assert_valid_document`]).

use crate::common;

#[test]
fn schema_is_valid_json_schema_and_names_the_version() {
    let schema = common::schema();
    assert_eq!(
        schema["$schema"].as_str(),
        Some("https://json-schema.org/draft/2020-12/schema")
    );
    assert!(schema["$id"].as_str().unwrap().contains("-v1.json"));
    jsonschema::validator_for(&schema).expect("a valid schema");
    for field in [
        "schema_version",
        "producer",
        "measurements",
        "run",
        "imported",
        "redaction",
    ] {
        assert!(
            schema["properties"].get(field).is_some(),
            "schema lacks {field}"
        );
    }
}

#[test]
fn every_imported_fixture_log_validates() {
    let dir = testsupport::sbc_bench_logs();
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().and_then(|x| x.to_str()) != Some("txt") {
            continue;
        }
        let bytes = std::fs::read(&p).unwrap();
        let Ok(doc) = sbcimport::import_bytes(&bytes, &p.display().to_string()) else {
            continue;
        };
        common::assert_valid_document(&serde_json::to_value(&doc).unwrap());
        n += 1;
    }
    assert!(n > 100, "only {n} logs imported");
}

#[test]
fn a_wrong_document_is_rejected() {
    let v = jsonschema::validator_for(&common::schema()).unwrap();
    assert!(!v.is_valid(&serde_json::json!({"schema_version": "one", "producer": 5})));
}
