//! What the CLI tests share.

use std::process::Command;

/// The built boardbench binary. On foreign targets the tests run under qemu-user, and
/// scripts/test registers qemu with binfmt_misc (with QEMU_LD_PREFIX set), so the binary starts
/// like a native one. `Option` lets a test skip where it cannot start (kept for callers that
/// handle it).
pub fn boardbench_cmd() -> Option<Command> {
    Some(Command::new(env!("CARGO_BIN_EXE_boardbench")))
}

/// The result-document schema as `boardbench schema` prints it.
#[allow(dead_code)]
pub fn schema() -> serde_json::Value {
    let out = boardbench_cmd()
        .unwrap()
        .arg("schema")
        .output()
        .expect("boardbench schema runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("schema is JSON")
}

/// Fails the test with every validation error when `doc` does not match the schema.
#[allow(dead_code)]
pub fn assert_valid_document(doc: &serde_json::Value) {
    static SCHEMA: std::sync::OnceLock<serde_json::Value> = std::sync::OnceLock::new();
    let schema = SCHEMA.get_or_init(schema);
    let v = jsonschema::validator_for(schema).expect("valid schema");
    let errors: Vec<String> = v
        .iter_errors(doc)
        .take(10)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "document does not match the schema:\n{}",
        errors.join("\n")
    );
}
