//! Redaction of a real `boardbench run --quick` document (recorded on the development VM): one
//! without identifiers comes back unchanged but for the record (no false positives among
//! timestamps, versions, paths, tool output); identifiers put into its kernel messages and
//! command line are removed. And no string makes the scanner panic.

use std::path::Path;

use document::ResultDocument;
use proptest::prelude::*;
use redact::Redactor;

fn run_quick() -> ResultDocument {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../boardbench/tests/data/run-quick.json");
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

#[test]
fn a_run_without_identifiers_comes_back_unchanged() {
    let doc = run_quick();
    let mut red = Redactor::new(b"s").document(&doc).unwrap();
    let rec = red.redaction.take().unwrap();
    assert_eq!(rec.mode, "hashed");
    assert!(rec.items.is_empty(), "{rec:?}");
    assert_eq!(red, doc);
}

#[test]
fn identifiers_in_a_runs_kernel_messages_and_command_line_are_removed() {
    let mut doc = run_quick();
    let run = doc.run.as_mut().unwrap();
    run.options.args.extend(
        [
            "--db",
            "postgres://lab:hunter22@10.20.30.40/results",
            "--token",
            "t0k3n-abc",
            "--log",
            "/home/alice/bb.log",
        ]
        .map(String::from),
    );
    let kmsg = run.kmsg.get_or_insert_with(Default::default);
    let mut line = kmsg.lines.first().cloned().unwrap_or_default();
    line.text = "r8169 0000:01:00.0 eth0: RTL8168h, 9c:6b:00:12:34:56, XID 541, IRQ 35".into();
    kmsg.lines.push(line.clone());
    line.text = "mmc0: new HS200 MMC card at address 0001, serial=0x2a3b4c5d".into();
    kmsg.lines.push(line);
    let red = Redactor::new(b"s").document(&doc).unwrap();
    let json = serde_json::to_string(&red).unwrap();
    for secret in [
        "hunter22",
        "lab:",
        "10.20.30.40",
        "t0k3n-abc",
        "alice",
        "9c:6b:00:12:34:56",
        "0x2a3b4c5d",
    ] {
        assert!(!json.contains(secret), "{secret} survived");
    }
    // What is not an identifier stays.
    assert!(
        json.contains("r8169 0000:01:00.0 eth0: RTL8168h, <mac:"),
        "{json}"
    );
    assert!(json.contains("postgres://<credentials>@<ipv4:"), "{json}");
    assert_eq!(red.measurements, doc.measurements);
    let kinds: Vec<String> = red
        .redaction
        .unwrap()
        .items
        .into_iter()
        .map(|i| i.kind)
        .collect();
    assert_eq!(kinds, ["ipv4", "mac", "serial", "user", "credentials"]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Any text (also non-ASCII, also near-miss addresses): no panic, and a second pass changes
    /// nothing.
    #[test]
    fn any_text_is_scanned_without_panic(s in "\\PC{0,80}|[0-9a-fA-F:.\\-/ =<>]{0,60}") {
        let r = Redactor::new(b"p");
        let (once, _) = r.text(&s);
        let (twice, hits) = r.text(&once);
        prop_assert_eq!(&twice, &once);
        prop_assert!(hits.is_empty());
    }
}
