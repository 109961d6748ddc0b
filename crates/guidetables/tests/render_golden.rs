//! Every renderer against checked-in expected files (tests/golden/), for two runs on two
//! fixture machines with merged and one-sided rows, repeated figures, a skipped and an
//! interrupted section, and names that need escaping. The reStructuredText is also checked with
//! docutils (strict: any warning fails), as Sphinx would read it.
//!
//! To accept a deliberate change: `UPDATE_GOLDEN=1 cargo test -p boardbench-guidetables --test
//! render_golden`, then review the diff.

use std::path::{Path, PathBuf};

use document::ResultDocument;
use document::guide::{
    GuideBuild, GuideRecord, GuideRow, GuideSection, GuideTable, GuideValue, SectionStatus,
};
use document::run::{Phase, RunRecord};
use guidetables::Run;

fn fixture_machine(name: &str) -> document::machine::MachineInfo {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../probe/tests/roots")
        .join(name);
    probe::snapshot::take(&probe::Root::new(root))
}

fn range(v: f64, lo: f64, hi: f64) -> Option<GuideValue> {
    Some(GuideValue {
        value: v,
        min: Some(lo),
        max: Some(hi),
        samples: 11,
        range_pct: Some((hi - lo) / v * 100.0),
    })
}

fn one(v: f64) -> Option<GuideValue> {
    Some(GuideValue::one(v))
}

fn doc(device: &str, machine: &str, mhz: f64, factor: f64, second: bool) -> ResultDocument {
    let mut lm = GuideTable::perf("LMBench Benchmarks", "Benchmarks");
    lm.push(
        "af_unix_sock_stream_latency (microsec)",
        range(33.39 * factor, 30.18, 38.42),
    );
    lm.push("bw_mem-rd-1mb (MB/s)", one(4733.08 / factor));
    lm.push("lat_syscall-null (us)", one(0.0457 * factor));
    if second {
        lm.push("lat_tcp (us)", one(41.2));
    } else {
        lm.push("lat_pipe (us)", range(4733.08, 2024.29, 7441.86));
    }
    let mut stream = GuideTable::perf("Stream Benchmarks", "Benchmarks");
    for (k, v) in [
        ("add (MB/s)", 2890.0),
        ("copy (MB/s)", 3605.5),
        ("scale (MB/s)", 3577.1),
        ("triad (MB/s)", 2870.4),
    ] {
        stream.push(k, one(v / factor));
    }
    let openssl = GuideTable {
        key_headers: Vec::new(),
        title: "OpenSSL CPU Load".into(),
        key_header: "Algorithm".into(),
        columns: vec!["CPU Load".into(), "CPU Load, all cores".into()],
        rows: vec![GuideRow {
            keys: Vec::new(),
            key: "aes-128-cbc".into(),
            cells: vec![one(98.0), if second { None } else { one(196.0) }],
        }],
    };
    let mut sections = vec![
        GuideSection {
            name: "lmbench".into(),
            title: "LMBench Benchmarks".into(),
            tables: vec![lm],
            duration_s: 61.0,
            ..Default::default()
        },
        GuideSection {
            name: "stream".into(),
            title: "Stream Benchmarks".into(),
            tables: vec![stream],
            notes: vec!["arrays 4× the last-level cache; one thread".into()],
            ..Default::default()
        },
        GuideSection {
            name: "openssl".into(),
            title: "OpenSSL Performance".into(),
            tables: vec![openssl],
            status: if second {
                SectionStatus::Interrupted
            } else {
                SectionStatus::Done
            },
            tool: Some("OpenSSL 3.0.11 19 Sep 2023".into()),
            reason: second.then(|| "interrupted by signal 2".into()),
            ..Default::default()
        },
    ];
    if second {
        sections.push(GuideSection {
            name: "coremark".into(),
            title: "CoreMark".into(),
            status: SectionStatus::Skipped,
            reason: Some("coremark not found on PATH".into()),
            ..Default::default()
        });
    }
    let machine = fixture_machine(machine);
    let cpu = machine
        .clusters
        .last()
        .and_then(|c| c.cpus.first().copied())
        .unwrap_or(0);
    let clock = Phase {
        kind: "clock".into(),
        clock: vec![document::measure::clock::ClockReading {
            cpu,
            policy: None,
            opp_khz: None,
            samples: Vec::new(),
            mhz,
            best_mhz: mhz,
            spread_pct: None,
            deviation_pct: None,
            disturbed: false,
        }],
        ..Default::default()
    };
    ResultDocument {
        redaction: None,
        schema_version: document::SCHEMA_VERSION,
        producer: "boardbench test".into(),
        device: Some(device.into()),
        started: Some("2026-11-24T10:40:13.123+00:00".into()),
        finished: None,
        machine: Some(machine),
        measurements: Vec::new(),
        findings: Vec::new(),
        imported: None,
        run: Some(RunRecord {
            profile: "guide".into(),
            phases: vec![clock],
            ..Default::default()
        }),
        guide: Some(GuideRecord {
            quick: second,
            sections,
            build: Some(GuideBuild {
                compiler: "rustc 1.95.0".into(),
                target: "aarch64-unknown-linux-gnu".into(),
                flags: "opt-level=3".into(),
                target_features: vec!["neon".into()],
            }),
        }),
    }
}

fn guide() -> guidetables::Guide {
    let a = doc("am62axx_sk-fs", "rk3588", 2352.4, 1.0, false);
    let b = doc("rpi4 *beta* | `x`", "rpi4", 1800.2, 1.5, true);
    let labels = guidetables::board_labels(&[&a, &b]);
    guidetables::merge(&[
        Run {
            board: labels[0].clone(),
            doc: &a,
        },
        Run {
            board: labels[1].clone(),
            doc: &b,
        },
    ])
}

fn golden(name: &str, actual: &str) {
    let path: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (UPDATE_GOLDEN=1 writes it)", path.display()));
    if expected != actual {
        let first = expected
            .lines()
            .zip(actual.lines())
            .position(|(e, a)| e != a)
            .unwrap_or(expected.lines().count().min(actual.lines().count()));
        panic!(
            "{name} differs from the golden file at line {}:\n expected: {:?}\n actual:   {:?}\n(UPDATE_GOLDEN=1 to accept)",
            first + 1,
            expected.lines().nth(first),
            actual.lines().nth(first)
        );
    }
}

#[test]
fn rst_matches_the_golden_file() {
    golden(
        "guide.rst",
        &guidetables::rst::render(&guide(), "Performance Guide"),
    );
}

#[test]
fn markdown_matches_the_golden_file() {
    golden(
        "guide.md",
        &guidetables::md::render(&guide(), "Performance Guide"),
    );
}

#[test]
fn csv_matches_the_golden_file() {
    golden("guide.csv", &guidetables::csv::render(&guide()));
}

#[test]
fn html_tables_match_the_golden_file() {
    let g = guide();
    let mut html: String = std::iter::once(&g.header)
        .chain(g.sections.iter().flat_map(|s| &s.tables))
        .map(|t| guidetables::html::table(t) + "\n")
        .collect();
    html.push_str(&guidetables::html::notes(&g));
    html.push('\n');
    golden("guide.html", &html);
}

/// The seed's exact header line and value form.
#[test]
fn rst_uses_the_seeds_header_and_value_form() {
    let rst = guidetables::rst::render(&guide(), "Performance Guide");
    assert!(
        rst.contains("    :header: \"Benchmarks\",\"am62axx_sk-fs: perf\","),
        "{rst}"
    );
    assert!(
        rst.contains("\"4733.08 (min 2024.29, max 7441.86)\""),
        "{rst}"
    );
}

/// docutils reads the output without a single warning (as `rst2html --strict`).
#[test]
fn rst_is_valid_restructuredtext() {
    if testsupport::host_only() {
        eprintln!("skipped under emulation: docutils runs on the host test");
        return;
    }
    let tmp = std::env::temp_dir().join(format!("boardbench-guide-rst-{}", std::process::id()));
    std::fs::write(
        &tmp,
        guidetables::rst::render(&guide(), "Performance Guide"),
    )
    .unwrap();
    let check = "import sys, docutils.core\n\
                 docutils.core.publish_doctree(open(sys.argv[1]).read(), \
                 settings_overrides={'halt_level': 2, 'report_level': 2})\n";
    let out = std::process::Command::new("python3")
        .args(["-c", check])
        .arg(&tmp)
        .output();
    let _ = std::fs::remove_file(&tmp);
    let out = out.expect("python3 (scripts/test installs python3-docutils)");
    assert!(
        out.status.success(),
        "docutils rejected the reStructuredText:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A run whose findings say "not to be trusted" carries that verdict into the guide, next to
/// its figures, in every text format that has notes.
#[test]
fn an_untrusted_runs_verdict_is_shown() {
    let mut a = doc("am62axx_sk-fs", "rk3588", 2352.4, 1.0, false);
    a.findings.push(document::Finding {
        kind: "throttling".into(),
        severity: document::Severity::Invalid,
        message: "Throttling: the clock fell below its top OPP.".into(),
        evidence: Vec::new(),
    });
    let labels = guidetables::board_labels(&[&a]);
    let g = guidetables::merge(&[Run {
        board: labels[0].clone(),
        doc: &a,
    }]);
    for text in [
        guidetables::rst::render(&g, "T"),
        guidetables::md::render(&g, "T"),
    ] {
        assert!(
            text.contains(
                "NOT TO BE TRUSTED: Throttling: the clock fell below its top OPP (throttling)"
            ),
            "{text}"
        );
    }
    // A clean run has no such note (the golden files above).
    assert!(!guidetables::rst::render(&guide(), "T").contains("NOT TO BE TRUSTED"));
}
