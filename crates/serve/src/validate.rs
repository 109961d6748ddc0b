//! Uploads are checked against the result document's JSON Schema (generated from the document
//! types, as `boardbench schema` prints it) before anything else: a document this version
//! cannot render or compare is refused with 422 and the schema's own words.

use std::sync::OnceLock;

/// The compiled validator (built once).
fn validator() -> &'static jsonschema::Validator {
    static V: OnceLock<jsonschema::Validator> = OnceLock::new();
    V.get_or_init(|| {
        let schema = schemars::schema_for!(document::ResultDocument).to_value();
        jsonschema::validator_for(&schema).expect("the document schema compiles")
    })
}

/// `Err` with up to five schema violations, each with where it is.
pub fn check(doc: &serde_json::Value) -> Result<(), String> {
    let errors: Vec<String> = validator()
        .iter_errors(doc)
        .take(5)
        .map(|e| {
            let at = e.instance_path().to_string();
            format!("{e} at {}", if at.is_empty() { "/" } else { &at })
        })
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(format!("schema violation: {}", errors.join("; ")))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn demo_document_is_valid_and_garbage_is_not() {
        let doc = serde_json::to_value(report::demo::run_document()).unwrap();
        super::check(&doc).unwrap();
        let e = super::check(&serde_json::json!({"schema_version": "x"})).unwrap_err();
        assert!(e.contains("schema violation"), "{e}");
    }
}
