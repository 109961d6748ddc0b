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
    probe::snapshot::take(&probe::Root::new(testsupport::probe_root(name)))
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
        analysis: None,
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
    merged_pair(&a, &b)
}

/// Two documents as two boards' columns, labelled as `guide render` labels them.
fn merged_pair(a: &ResultDocument, b: &ResultDocument) -> guidetables::Guide {
    let labels = guidetables::board_labels(&[a, b]);
    guidetables::merge(&[
        Run {
            board: labels[0].clone(),
            doc: a,
        },
        Run {
            board: labels[1].clone(),
            doc: b,
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
    docutils_strict(
        "plain",
        &guidetables::rst::render(&guide(), "Performance Guide"),
    );
    docutils_strict(
        "merged",
        &guidetables::rst::render(&merged(), "Performance Guide"),
    );
    docutils_strict(
        "reference",
        &guidetables::rst::render(&with_reference(), "Performance Guide"),
    );
    docutils_strict(
        "ti",
        &guidetables::rst::render_ti(&with_reference(), "Example SDK 2.0 Performance Guide"),
    );
}

/// docutils parses `text` with warnings as errors. Under emulation the host's run checks it
/// (the text does not depend on the target).
fn docutils_strict(what: &str, text: &str) {
    if testsupport::host_only() {
        eprintln!("skipped under emulation: docutils runs on the host test");
        return;
    }
    let tmp = std::env::temp_dir().join(format!(
        "boardbench-guide-rst-{what}-{}",
        std::process::id()
    ));
    std::fs::write(&tmp, text).unwrap();
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
        "docutils rejected the reStructuredText ({what}):\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Three runs of one board (the second with other figures and a section the first skipped, the
/// third measuring only storage) and one run of another, merged by board.
fn merged() -> guidetables::Guide {
    let a1 = doc("am62axx_sk-fs", "rk3588", 2352.4, 1.0, false);
    let mut a2 = doc("am62axx_sk-fs", "rk3588", 2340.0, 1.25, false);
    a2.started = Some("2026-11-25T09:15:00+00:00".into());
    let g2 = a2.guide.as_mut().unwrap();
    // Only two of the three runs measured lmbench; one of them lat_pipe too.
    g2.sections[0].tables[0]
        .rows
        .retain(|r| r.key != "lat_pipe (us)");
    g2.sections[1].notes = vec!["arrays 4× the last-level cache; two threads".into()];
    let mut a3 = doc("am62axx_sk-fs", "rk3588", 2360.0, 1.0, false);
    a3.started = Some("2026-11-26T08:00:00+00:00".into());
    let mut fio = GuideTable {
        title: "EMMC EXT4 FIO 1G".into(),
        key_header: "Buffer size (bytes)".into(),
        key_headers: Vec::new(),
        columns: vec![
            "Write EXT4 Throughput (Mbytes/sec)".into(),
            "Write EXT4 CPU Load (%)".into(),
        ],
        rows: Vec::new(),
    };
    fio.rows.push(GuideRow {
        key: "1m".into(),
        keys: Vec::new(),
        cells: vec![one(88.5), one(3.25)],
    });
    a3.guide.as_mut().unwrap().sections = vec![
        GuideSection {
            name: "lmbench".into(),
            title: "LMBench Benchmarks".into(),
            status: SectionStatus::Skipped,
            reason: Some("not asked for (--sections storage)".into()),
            ..Default::default()
        },
        GuideSection {
            name: "storage".into(),
            title: "Storage".into(),
            tables: vec![fio],
            tool: Some("fio-3.33".into()),
            ..Default::default()
        },
    ];
    let b = doc("rpi4", "rpi4", 1800.2, 1.5, true);
    let docs = [a1, a2, b, a3];
    guidetables::merge_documents_by(&docs, guidetables::MergeBy::Board)
}

#[test]
fn merged_by_board_matches_the_golden_files() {
    let g = merged();
    golden(
        "guide-merged.rst",
        &guidetables::rst::render(&g, "Performance Guide"),
    );
    golden(
        "guide-merged.md",
        &guidetables::md::render(&g, "Performance Guide"),
    );
    golden("guide-merged.csv", &guidetables::csv::render(&g));
    let mut html: String = std::iter::once(&g.header)
        .chain(g.sections.iter().flat_map(|s| &s.tables))
        .map(|t| guidetables::html::table(t) + "\n")
        .collect();
    html.push_str(&guidetables::html::notes(&g));
    html.push('\n');
    golden("guide-merged.html", &html);
}

/// What merging by board must do, said without the golden files.
#[test]
fn a_boards_runs_become_one_column_with_the_median_and_the_range() {
    let g = merged();
    let header: Vec<String> = g.header.columns.iter().map(|c| c.header()).collect();
    assert_eq!(header, ["am62axx_sk-fs", "rpi4"], "one column per board");
    let runs = g.header.rows.iter().find(|r| r.key == "Runs").unwrap();
    assert_eq!(guidetables::cell_text(&runs.cells[0]), "3");
    let lm = &g.sections[0].tables[0];
    assert_eq!(lm.columns.len(), 2);
    let row = |k: &str| lm.rows.iter().find(|r| r.key == k).unwrap();
    // bw_mem-rd-1mb: 4733.08 and 4733.08 / 1.25 = 3786.464 → median of two = their mean.
    let v = match &row("bw_mem-rd-1mb (MB/s)").cells[0] {
        Some(guidetables::Cell::Value(v)) => v.clone(),
        c => panic!("{c:?}"),
    };
    assert!((v.value - (4733.08 + 4733.08 / 1.25) / 2.0).abs() < 1e-9);
    assert_eq!(v.min, Some(4733.08 / 1.25));
    assert_eq!(v.max, Some(4733.08));
    assert_eq!(v.samples, 2, "the number of runs");
    // A figure one run measured keeps that run's own range.
    assert_eq!(
        guidetables::cell_text(&row("lat_pipe (us)").cells[0]),
        "4733.08 (min 2024.29, max 7441.86)"
    );
    assert!(
        lm.notes.iter().any(|n| n.contains("median of the 2 runs")),
        "{:?}",
        lm.notes
    );
    assert!(
        lm.notes
            .iter()
            .any(|n| n.contains("lat_pipe (us) from 1 of the 2 runs"))
    );
    // The storage table of the third run lands in the same column.
    let st = &g
        .sections
        .iter()
        .find(|s| s.name == "storage")
        .unwrap()
        .tables[0];
    assert_eq!(st.columns[0].board, "am62axx_sk-fs");
    assert!(st.notes[0].contains("measured in one of its 3 runs (run 3 of 3, 2026-11-26 08:00)"));
    // lmbench was skipped in run 3 but measured in runs 1 and 2: no "skipped" note.
    assert!(
        !g.notes.iter().any(|n| n.contains("skipped: not asked for")),
        "{:?}",
        g.notes
    );
    // A note every run says is said once for the board; one that differs names its run.
    assert_eq!(
        g.notes
            .iter()
            .filter(|n| n.contains("measured with OpenSSL"))
            .count(),
        2,
        "once per board: {:?}",
        g.notes
    );
    assert!(g.notes.iter().any(|n| n.starts_with("am62axx_sk-fs (run 2 of 3, 2026-11-25 09:15): Stream Benchmarks: arrays 4× the last-level cache; two threads")));
}

fn with_reference() -> guidetables::Guide {
    let a = doc("am62a-mine", "rk3588", 2352.4, 1.0, false);
    let mut g = guidetables::merge_documents(&[a]);
    let published = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/published.rst"),
    )
    .unwrap();
    let tables = guidetables::reference::parse_rst(&published).unwrap();
    guidetables::reference::add(&mut g, &tables, "published.rst");
    g
}

#[test]
fn reference_column_matches_the_golden_files() {
    let g = with_reference();
    golden(
        "guide-reference.rst",
        &guidetables::rst::render(&g, "Performance Guide"),
    );
    golden(
        "guide-reference.md",
        &guidetables::md::render(&g, "Performance Guide"),
    );
    golden("guide-reference.csv", &guidetables::csv::render(&g));
}

/// The published column sits beside the measured one, the ratio only where units agree and the
/// published figure is a measurement of the same thing.
#[test]
fn a_published_guide_is_a_reference_column_with_ratios_and_its_quirks_said() {
    let g = with_reference();
    let lm = &g.sections[0].tables[0];
    let headers: Vec<String> = lm.columns.iter().map(|c| c.header()).collect();
    assert_eq!(
        headers,
        [
            "am62a-mine: perf",
            "evm-x (published): perf",
            "am62a-mine / evm-x (published): perf"
        ]
    );
    let cell = |k: &str, c: usize| {
        let r = lm
            .rows
            .iter()
            .find(|r| r.key == k)
            .unwrap_or_else(|| panic!("{k}"));
        guidetables::cell_text(&r.cells[c])
    };
    // Lower-case units of the published guide match ours.
    assert_eq!(
        cell("af_unix_sock_stream_latency (microsec)", 1),
        "30.00 (min 29.00, max 31.00)"
    );
    assert_eq!(cell("af_unix_sock_stream_latency (microsec)", 2), "1.11");
    // Published as 0.05: its rounding alone is ±10 %, more than the ±5 % a ratio is read at.
    assert_eq!(cell("lat_syscall-null (us)", 2), "rounded");
    // bw_mem-rd-1mb: its min is bw_mem-wr-1mb's figure — two operations in one cell.
    assert_eq!(
        cell("bw_mem-rd-1mb (MB/s)", 1),
        "1500.00 (min 1000.00, max 2000.00)"
    );
    assert_eq!(
        cell("bw_mem-rd-1mb (MB/s)", 2),
        "merged",
        "no ratio for a merged cell, and one word why"
    );
    assert!(
        lm.notes.iter().any(|n| n
            .contains("published bw_mem at 1–8 MB not compared (1 cells: bw_mem-rd-1mb (mb/s))")),
        "{:?}",
        lm.notes
    );
    // No bw_tcp row: the published lat_tcp timed failing calls.
    assert!(
        lm.notes
            .iter()
            .any(|n| n.contains("published lat_tcp not compared"))
    );
    // A published row the run lacks is added; a measured row the guide lacks keeps an empty cell.
    assert_eq!(cell("bw_mem-rd-16mb (mb/s)", 1), "900.00");
    assert_eq!(cell("bw_mem-rd-16mb (mb/s)", 0), "");
    assert_eq!(cell("lat_pipe (us)", 1), "");
    // Text that is no figure is shown as published, without a ratio.
    let st = &g.sections[1].tables[0];
    let scale = st.rows.iter().find(|r| r.key == "scale (MB/s)").unwrap();
    assert_eq!(guidetables::cell_text(&scale.cells[1]), "not run");
    assert_eq!(guidetables::cell_text(&scale.cells[2]), "");
    assert!(
        g.notes.iter().any(
            |n| n.contains("published tables not measured in these runs: Whetstone Benchmarks")
        )
    );
    // The published board is a column of the header, said to be published.
    assert!(
        g.header
            .columns
            .iter()
            .any(|c| c.board == "evm-x (published)")
    );
}

#[test]
fn ti_style_matches_the_golden_file() {
    let text = guidetables::rst::render_ti(&with_reference(), "Example SDK 2.0 Performance Guide");
    golden("guide-ti.rst", &text);
}

/// The seed's structure: title over- and underlined, the Evaluation Modules grid, "System
/// Benchmarks" with one `^` sub-heading per section, two decimals, the command under each table.
#[test]
fn ti_style_has_the_seeds_structure() {
    let text = guidetables::rst::render_ti(&guide(), "Example SDK 2.0 Performance Guide");
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].chars().all(|c| c == '=') && lines[2] == lines[0],
        "{text}"
    );
    assert_eq!(lines[1], " Example SDK 2.0 Performance Guide");
    assert!(text.contains("| Name "), "{text}");
    assert!(text.contains("\nTable: Evaluation Modules\n"));
    assert!(text.contains("System Benchmarks\n-----------------\n"));
    assert!(text.contains("\nLMBench\n^^^^^^^\n"), "{text}");
    assert!(text.contains("\nStream\n^^^^^^\n"), "{text}");
    assert!(text.contains("   :header: \"Benchmarks\",\"am62axx_sk-fs: perf\""));
    // Two decimals throughout: 0.0457 prints as 0.05.
    assert!(
        text.contains("\"lat_syscall-null (us)\",\"0.05\""),
        "{text}"
    );
    assert!(!text.contains("0.0457"));
    assert!(
        text.contains("   boardbench guide --quick --sections lmbench\n"),
        "{text}"
    );
    // The notes sit under their section's table, not at the end.
    let stream = text.find("\nStream\n").unwrap();
    let note = text.find("arrays 4× the last-level cache").unwrap();
    assert!(note > stream);
    // The grid: the nominal clock per cluster with its source, the DDR data rate of the RK3588
    // fixture's dmc devfreq (2112 MHz DRAM clock: 4224 MT/s), nothing claimed for the Pi.
    assert!(
        text.contains(
            "Rockchip RK3588, CPU 4× 1.8 GHz Cortex-A55 + 4× 2.4 GHz Cortex-A76 (cpufreq), "
        ),
        "{text}"
    );
    assert!(
        text.contains("Broadcom BCM2711, CPU 4× 1.5 GHz Cortex-A72 (cpufreq), "),
        "{text}"
    );
    assert!(
        text.contains("DRAM 4224 MT/s (devfreq dmc: 2 × 2112 MHz DRAM clock)"),
        "{text}"
    );
    assert_eq!(text.matches("MT/s").count(), 1, "{text}");
    assert!(!text.contains("not recorded in the result documents"));
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

/// Where the machine's SMBIOS or EDAC states the DRAM type and data rate, the header and the
/// TI grid carry them, and the grid no longer says they are not recorded.
#[test]
fn the_dram_type_and_rate_where_smbios_or_edac_state_them() {
    let mut a = doc("am62axx_sk-fs", "rk3588", 2352.4, 1.0, false);
    let dimm = |loc: &str| document::machine::DramDevice {
        source: "smbios".into(),
        locator: Some(loc.into()),
        mem_type: Some("LPDDR4".into()),
        size_mib: Some(4096),
        speed_mts: Some(4266),
        configured_mts: Some(3733),
    };
    a.machine.as_mut().unwrap().memory.dram = vec![dimm("A"), dimm("B")];
    let b = doc("rpi4", "rpi4", 1800.2, 1.5, true);
    let g = merged_pair(&a, &b);
    let md = guidetables::md::render(&g, "Performance Guide");
    assert!(
        md.contains(
            "| DRAM (type, data rate) | LPDDR4, 3733 MT/s, 2 devices, 8192 MiB (SMBIOS); 4224 MT/s (devfreq dmc: 2 × 2112 MHz DRAM clock) |  |"
        ),
        "{md}"
    );
    let ti = guidetables::rst::render_ti(&g, "Example SDK 2.0 Performance Guide");
    assert!(
        ti.contains("DRAM LPDDR4, 3733 MT/s, 2 devices, 8192 MiB (SMBIOS)"),
        "{ti}"
    );
    assert!(
        ti.contains("as the board's SMBIOS memory devices, the kernel's EDAC, the device tree's")
    );
    assert!(!ti.contains("not recorded in the result documents"), "{ti}");
    docutils_strict("ti-dram", &ti);
}

/// A board without cpufreq states its nominal clock through the device tree: the header and the
/// TI grid say which source each cluster's clock comes from; a JEDEC memory node's type stands
/// beside the dmc devfreq's data rate.
#[test]
fn the_nominal_clock_and_dram_type_from_the_device_tree_say_so() {
    let render = |a: &ResultDocument| {
        let labels = guidetables::board_labels(&[a]);
        let g = guidetables::merge(&[Run {
            board: labels[0].clone(),
            doc: a,
        }]);
        (
            guidetables::md::render(&g, "T"),
            guidetables::rst::render_ti(&g, "T"),
        )
    };
    let mut a = doc("am62axx_sk-fs", "rk3588", 2352.4, 1.0, false);
    let m = a.machine.as_mut().unwrap();
    for c in &mut m.clusters {
        c.dt_max_khz = c.max_khz.take();
        c.dt_clock_from = Some("operating-points-v2 /cluster0-opp-table".into());
    }
    m.memory.dram.push(document::machine::DramDevice {
        source: "devicetree".into(),
        locator: Some("/memory-controller/lpddr4-channel0".into()),
        mem_type: Some("LPDDR4".into()),
        ..Default::default()
    });
    let (md, ti) = render(&a);
    assert!(
        md.contains(
            "| CPU clock (nominal) | 4× 1.8 GHz Cortex-A55 + 4× 2.4 GHz Cortex-A76 (device tree) |"
        ),
        "{md}"
    );
    assert!(
        md.contains(
            "| DRAM (type, data rate) | LPDDR4 (device tree); 4224 MT/s (devfreq dmc: 2 × 2112 MHz DRAM clock) |"
        ),
        "{md}"
    );
    assert!(
        ti.contains("CPU 4× 1.8 GHz Cortex-A55 + 4× 2.4 GHz Cortex-A76 (device tree)"),
        "{ti}"
    );
    docutils_strict("ti-devicetree", &ti);
    // cpufreq where it runs, the device tree where it does not: each part says its source.
    let m = a.machine.as_mut().unwrap();
    for c in m.clusters.iter_mut().filter(|c| !c.cpus.contains(&0)) {
        c.max_khz = c.dt_max_khz;
    }
    let (md, _) = render(&a);
    assert!(
        md.contains(
            "| CPU clock (nominal) | 4× 1.8 GHz Cortex-A55 (device tree) + 4× 2.4 GHz Cortex-A76 (cpufreq) |"
        ),
        "{md}"
    );
}

/// `--merge-by board` never puts a quick guide's figures into one median with full ones: the
/// board's quick runs are a column of their own.
#[test]
fn a_quick_run_is_never_merged_with_a_boards_full_runs() {
    let full1 = doc("evm", "rk3588", 2352.4, 1.0, false);
    let full2 = doc("evm", "rk3588", 2352.4, 1.2, false);
    let mut quick = doc("evm", "rk3588", 2352.4, 7.0, false);
    quick.guide.as_mut().unwrap().quick = true;
    let g = guidetables::merge_documents_by(&[full1, quick, full2], guidetables::MergeBy::Board);
    let header: Vec<String> = g.header.columns.iter().map(|c| c.header()).collect();
    assert_eq!(header, ["evm", "evm (quick)"]);
    let lm = &g.sections[0].tables[0];
    let row = lm
        .rows
        .iter()
        .find(|r| r.key == "lat_syscall-null (us)")
        .unwrap();
    let value = |c: usize| match &row.cells[c] {
        Some(guidetables::Cell::Value(v)) => v.clone(),
        c => panic!("{c:?}"),
    };
    // The full column: the median of the two full runs only (0.0457 and 0.0457 × 1.2).
    let full = value(0);
    assert_eq!(full.samples, 2);
    assert!((full.value - 0.0457 * 1.1).abs() < 1e-9, "{full:?}");
    assert_eq!(full.max, Some(0.0457 * 1.2));
    // The quick run alone, as it measured.
    assert!((value(1).value - 0.0457 * 7.0).abs() < 1e-9);
    assert!(
        g.notes
            .iter()
            .any(|n| n.starts_with("evm (quick): a quick guide")),
        "{:?}",
        g.notes
    );
}
