//! Every kind is documented: in `docs/findings.md` (the table and its rules) and in the crate
//! documentation's table, and the kind strings are unique.

use std::collections::BTreeSet;
use std::path::Path;

use findings::kinds::ALL;

#[test]
fn every_kind_is_documented_once() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("../../docs/findings.md")).unwrap();
    let lib = std::fs::read_to_string(root.join("src/lib.rs")).unwrap();
    let mut seen = BTreeSet::new();
    for k in ALL {
        assert!(seen.insert(k.kind), "duplicate kind {}", k.kind);
        let row = format!("| `{}` |", k.kind);
        assert_eq!(
            doc.matches(&row).count(),
            1,
            "docs/findings.md table: {}",
            k.kind
        );
        assert!(
            lib.contains(&format!("//! {row}")),
            "crate docs table: {}",
            k.kind
        );
    }
    // No row for a kind that does not exist.
    let table = doc
        .split("## Kinds")
        .nth(1)
        .and_then(|t| t.split("## Rules").next())
        .unwrap();
    let rows = table.lines().filter(|l| l.starts_with("| `")).count();
    assert_eq!(rows, ALL.len());
}
