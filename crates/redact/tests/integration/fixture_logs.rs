//! Redaction of real sbc-bench logs (the shared fixture set, imported into documents) and of
//! generated identifiers: no MAC, IP, UUID or serial string of the input survives.

use std::sync::LazyLock;

use proptest::prelude::*;
use redact::{Kind, Redactor};
use regex::Regex;
use testsupport::sbc_bench_logs;

/// The identifiers a reader would find in the text, by rules written independently of the
/// crate's (simpler and broader).
fn identifiers_in(text: &str) -> Vec<String> {
    static RES: LazyLock<Vec<Regex>> = LazyLock::new(|| {
        [
            r"(?i)\b[0-9a-f]{2}(?::[0-9a-f]{2}){5}\b",
            r"\b(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])(?:\.(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])){3}\b",
            r"(?i)\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b",
            r"(?i)\bfe80:[0-9a-f:]{4,}",
            r"SerialNumber: ([0-9A-Za-z]{4,})",
        ]
        .iter()
        .map(|r| Regex::new(r).unwrap())
        .collect()
    });
    let mut out = Vec::new();
    for re in RES.iter() {
        for c in re.captures_iter(text) {
            let m = c.get(1).unwrap_or_else(|| c.get(0).unwrap()).as_str();
            // Versions like 2.04.100.07 are no addresses; loopback identifies nothing.
            if m.starts_with("127.") || m == "0.0.0.0" {
                continue;
            }
            out.push(m.to_string());
        }
    }
    out.retain(|m| {
        !(m.split('.').count() == 4 && m.split('.').any(|p| p.len() > 1 && p.starts_with('0')))
    });
    out.sort();
    out.dedup();
    out
}

#[test]
fn no_identifier_of_a_fixture_log_survives() {
    let r = Redactor::new(b"fixture salt");
    let mut found = 0;
    let mut docs = 0;
    for e in std::fs::read_dir(sbc_bench_logs()).unwrap() {
        let p = e.unwrap().path();
        if p.extension().and_then(|x| x.to_str()) != Some("txt") {
            continue;
        }
        let bytes = std::fs::read(&p).unwrap();
        let Ok(doc) = sbcimport::import_bytes(&bytes, &p.display().to_string()) else {
            continue;
        };
        docs += 1;
        let before = serde_json::to_string(&doc).unwrap();
        let ids = identifiers_in(&before);
        let red = r.document(&doc).unwrap();
        let after = serde_json::to_string(&red).unwrap();
        for id in &ids {
            assert!(
                !after.contains(id.as_str()),
                "{}: {id} survived",
                p.display()
            );
            found += 1;
        }
        let rec = red.redaction.as_ref().unwrap();
        assert_eq!(rec.mode, "hashed");
        if !ids.is_empty() {
            assert!(!rec.items.is_empty(), "{}: nothing recorded", p.display());
        }
        // Redacting again changes nothing (tokens are kept, the record stays the same).
        assert_eq!(r.document(&red).unwrap(), red, "{}", p.display());
        // The numbers are untouched.
        assert_eq!(red.measurements, doc.measurements);
        assert_eq!(
            red.imported.as_ref().map(|i| &i.headline),
            doc.imported.as_ref().map(|i| &i.headline)
        );
    }
    assert!(docs > 100, "only {docs} logs imported");
    assert!(
        found >= 10,
        "the fixture logs hold only {found} identifiers"
    );
}

#[test]
fn the_record_says_what_was_replaced_where() {
    let p = sbc_bench_logs();
    // The log with the UFW lines (MAC and IPv4 addresses in its kernel messages).
    let mut seen = false;
    for e in std::fs::read_dir(&p).unwrap() {
        let p = e.unwrap().path();
        let text = std::fs::read_to_string(&p).unwrap_or_default();
        if !text.contains("[UFW BLOCK]") {
            continue;
        }
        let doc = sbcimport::import_bytes(text.as_bytes(), "ufw.txt").unwrap();
        let red = Redactor::new(b"s").document(&doc).unwrap();
        let rec = red.redaction.unwrap();
        let kinds: Vec<&str> = rec.items.iter().map(|i| i.kind.as_str()).collect();
        assert!(
            kinds.contains(&"mac") && kinds.contains(&"ipv4"),
            "{kinds:?}"
        );
        let mac = rec.items.iter().find(|i| i.kind == "mac").unwrap();
        assert!(
            mac.places.iter().any(|p| p.starts_with("/imported/kmsg")),
            "{mac:?}"
        );
        assert!(mac.occurrences >= mac.distinct && mac.distinct >= 1);
        seen = true;
    }
    assert!(seen, "no fixture log with UFW kernel messages");
}

fn mac() -> impl Strategy<Value = String> {
    (any::<[u8; 6]>(), any::<bool>(), any::<bool>())
        .prop_filter("not all one byte", |(b, _, _)| b.iter().any(|x| *x != b[0]))
        .prop_map(|(b, dash, upper)| {
            let sep = if dash { "-" } else { ":" };
            let s = b
                .iter()
                .map(|x| format!("{x:02x}"))
                .collect::<Vec<_>>()
                .join(sep);
            if upper { s.to_uppercase() } else { s }
        })
}

fn ipv4() -> impl Strategy<Value = String> {
    any::<[u8; 4]>()
        .prop_map(std::net::Ipv4Addr::from)
        .prop_filter("identifying", |a| {
            !a.is_loopback() && !a.is_unspecified() && !a.is_broadcast()
        })
        .prop_map(|a| a.to_string())
}

fn ipv6() -> impl Strategy<Value = String> {
    (any::<[u16; 8]>(), 0usize..4).prop_map(|(mut g, zeros)| {
        g[0] |= 0x2000; // global-looking, never loopback/unspecified
        for x in g.iter_mut().skip(3).take(zeros) {
            *x = 0; // sometimes compressed ("::")
        }
        std::net::Ipv6Addr::from(g).to_string()
    })
}

fn uuid() -> impl Strategy<Value = String> {
    any::<[u8; 16]>().prop_map(|b| {
        let h: String = b.iter().map(|x| format!("{x:02x}")).collect();
        format!(
            "{}-{}-{}-{}-{}",
            &h[..8],
            &h[8..12],
            &h[12..16],
            &h[16..20],
            &h[20..]
        )
    })
}

fn serial() -> impl Strategy<Value = String> {
    "[0-9A-Za-z]{6,20}".prop_filter("not one repeated char", |s| {
        s.chars().any(|c| c != s.chars().next().unwrap())
    })
}

fn hostname() -> impl Strategy<Value = String> {
    "[a-z][a-z0-9-]{5,14}[a-z0-9]"
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn generated_identifiers_never_survive(
        mac in mac(), v4 in ipv4(), v6 in ipv6(), id in uuid(), sn in serial(),
        cid in "[0-9a-f]{32}", host in hostname(), usb in serial(),
    ) {
        let r = Redactor::new(b"prop")
            .with_known(Kind::Hostname, &host)
            .with_known(Kind::Serial, &cid);
        let text = format!(
            "[  913.554316] eth0: register at usb-0000:06:00.0-1, Ethernet, {mac}\n\
             [ 1633.629123] IN=wlan0 SRC={v4} DST={v6} LEN=36\n\
             root=UUID={id} rootwait\n\
             usb 2-1: SerialNumber: {usb}\n\
             Serial Number: {sn}\n\
             mmc0: cid {cid} on {host} ({host}.lan) inet {v4}/24 inet6 {v6}/64"
        );
        let (out, hits) = r.text(&text);
        for s in [&mac, &v4, &v6, &id, &sn, &cid, &host, &usb] {
            prop_assert!(!out.contains(s.as_str()), "{} survived in\n{}", s, out);
        }
        prop_assert!(out.contains("LEN=36") && out.contains("rootwait"), "{}", out);
        prop_assert!(hits.len() >= 8);
        // Redacting the result again changes nothing.
        prop_assert_eq!(r.text(&out).0, out.clone());
    }
}

/// Prints every string a fixture document changed in (for eyeballing false positives):
/// `cargo test -p boardbench-redact --test integration -- fixture_logs:: --ignored --nocapture`.
#[test]
#[ignore]
fn show_changed_strings() {
    fn strings(v: &serde_json::Value, out: &mut Vec<String>) {
        match v {
            serde_json::Value::String(s) => out.push(s.clone()),
            serde_json::Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
            serde_json::Value::Object(o) => o.values().for_each(|x| strings(x, out)),
            _ => {}
        }
    }
    let r = Redactor::new(b"s");
    for e in std::fs::read_dir(sbc_bench_logs()).unwrap() {
        let p = e.unwrap().path();
        let Ok(doc) = sbcimport::import_bytes(&std::fs::read(&p).unwrap(), "x") else {
            continue;
        };
        let mut red = r.document(&doc).unwrap();
        red.redaction = None;
        let (mut a, mut b) = (Vec::new(), Vec::new());
        strings(&serde_json::to_value(&doc).unwrap(), &mut a);
        strings(&serde_json::to_value(&red).unwrap(), &mut b);
        for (x, y) in a.iter().zip(&b) {
            if x != y {
                println!("- {x}\n+ {y}");
            }
        }
    }
}
