//! `boardbench guide render` from the command line on written documents (no measurement, fast):
//! several runs of one board merged into one column (`--merge-by board`), a published guide as a
//! reference column (`--reference`), the TI layout (`--style ti`) and its refusal outside
//! reStructuredText. The renderers' exact output is checked by crates/guidetables' golden files.

use crate::common;

use std::path::Path;

use document::ResultDocument;
use document::guide::{GuideRecord, GuideSection, GuideTable, GuideValue, SectionStatus};

fn guide_doc(device: &str, started: &str, copy: f64, storage: bool) -> ResultDocument {
    let mut d: ResultDocument = serde_json::from_value(serde_json::json!({
        "schema_version": document::SCHEMA_VERSION,
        "producer": "boardbench test",
    }))
    .unwrap();
    d.device = Some(device.into());
    d.started = Some(started.into());
    let mut stream = GuideTable::perf("Stream Benchmarks", "Benchmarks");
    stream.push("copy (MB/s)", Some(GuideValue::one(copy)));
    stream.push("lat_syscall-null (us)", Some(GuideValue::one(0.0457)));
    let mut sections = vec![GuideSection {
        name: "stream".into(),
        title: "Stream Benchmarks".into(),
        tables: vec![stream],
        ..Default::default()
    }];
    if storage {
        let mut fio = GuideTable::perf("EMMC EXT4 FIO 1G", "Buffer size (bytes)");
        fio.columns = vec!["Write EXT4 Throughput (Mbytes/sec)".into()];
        fio.push("1m", Some(GuideValue::one(80.0)));
        sections = vec![
            GuideSection {
                name: "stream".into(),
                title: "Stream Benchmarks".into(),
                status: SectionStatus::Skipped,
                reason: Some("not asked for".into()),
                ..Default::default()
            },
            GuideSection {
                name: "storage".into(),
                title: "Storage".into(),
                tables: vec![fio],
                ..Default::default()
            },
        ];
    }
    d.guide = Some(GuideRecord {
        sections,
        ..Default::default()
    });
    d
}

fn write(dir: &Path, name: &str, d: &ResultDocument) -> String {
    let p = dir.join(name);
    std::fs::write(&p, serde_json::to_vec(d).unwrap()).unwrap();
    p.display().to_string()
}

fn render(args: &[&str]) -> (bool, String, String) {
    let out = common::boardbench(&[&["guide", "render"], args].concat());
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn runs_of_one_board_become_one_column_with_merge_by_board() {
    let tmp = tempfile::tempdir().unwrap();
    let a = write(
        tmp.path(),
        "a.json",
        &guide_doc("evm", "2026-11-24T10:00:00+00:00", 1000.0, false),
    );
    let b = write(
        tmp.path(),
        "b.json",
        &guide_doc("evm", "2026-11-25T10:00:00+00:00", 3000.0, false),
    );
    let c = write(
        tmp.path(),
        "c.json",
        &guide_doc("evm", "2026-11-26T10:00:00+00:00", 2000.0, false),
    );
    let s = write(
        tmp.path(),
        "s.json",
        &guide_doc("evm", "2026-11-26T11:00:00+00:00", 0.0, true),
    );
    // Per run (the default): one column each.
    let (ok, text, err) = render(&[&a, &b]);
    assert!(ok, "{err}");
    assert!(text.contains("\"evm: perf\",\"evm (2): perf\""), "{text}");
    // Per board: one column, the median of the three runs with their range.
    let (ok, text, err) = render(&[&a, &b, &c, &s, "--merge-by", "board"]);
    assert!(ok, "{err}");
    assert!(
        text.contains(":header: \"Benchmarks\",\"evm: perf\"\n"),
        "{text}"
    );
    assert!(
        text.contains("\"copy (MB/s)\",\"2000.00 (min 1000.00, max 3000.00)\""),
        "{text}"
    );
    assert!(text.contains("\"Runs\",\"4\""), "{text}");
    assert!(
        text.contains("median of the 3 runs that measured it"),
        "{text}"
    );
    // The storage run's table lands in the same column.
    assert!(
        text.contains(
            ":header: \"Buffer size (bytes)\",\"evm: Write EXT4 Throughput (Mbytes/sec)\""
        ),
        "{text}"
    );
    // CSV: one board column.
    let (ok, text, _) = render(&[&a, &b, &c, "--merge-by", "board", "--format", "csv"]);
    assert!(ok);
    assert!(text.starts_with("Table,Row,Column,evm\n"), "{text}");
    assert!(
        text.contains("Stream Benchmarks,copy (MB/s),perf,2000.00\n"),
        "{text}"
    );
}

#[test]
fn a_published_guide_is_set_beside_and_ti_style_is_rst_only() {
    let tmp = tempfile::tempdir().unwrap();
    let a = write(
        tmp.path(),
        "a.json",
        &guide_doc("evm", "2026-11-24T10:00:00+00:00", 1000.0, false),
    );
    let published = tmp.path().join("published.rst");
    std::fs::write(
        &published,
        "Stream\n^^^^^^\n\n.. csv-table:: Stream Benchmarks\n   :header: \"Benchmarks\",\"evm-x: perf\"\n\n   \"copy (mb/s)\",\"500.00\"\n",
    )
    .unwrap();
    let p = published.display().to_string();
    let (ok, text, err) = render(&[&a, "--reference", &p]);
    assert!(ok, "{err}");
    assert!(
        text.contains("\"Benchmarks\",\"evm: perf\",\"evm-x (published): perf\",\"evm / evm-x (published): perf\""),
        "{text}"
    );
    assert!(
        text.contains("\"copy (MB/s)\",\"1000.00\",\"500.00\",\"2.00\""),
        "{text}"
    );
    // TI's layout: two decimals, the command under the table.
    let (ok, text, err) = render(&[&a, "--style", "ti", "--reference", &p]);
    assert!(ok, "{err}");
    assert!(
        text.contains("\"lat_syscall-null (us)\",\"0.05\""),
        "{text}"
    );
    assert!(
        text.contains("   boardbench guide --sections stream\n"),
        "{text}"
    );
    // Not in another format; a file without csv-tables is refused.
    let (ok, _, err) = render(&[&a, "--style", "ti", "--format", "md"]);
    assert!(!ok && err.contains("--style ti"), "{err}");
    let empty = tmp.path().join("empty.rst");
    std::fs::write(&empty, "Title\n=====\n\nNo tables.\n").unwrap();
    let (ok, _, err) = render(&[&a, "--reference", &empty.display().to_string()]);
    assert!(!ok && err.contains("no `.. csv-table::` block"), "{err}");
}

/// What a new user gets wrong first: a missing file, a directory, a file that is not a result
/// document, a missing reference — one line each, exit 1.
#[test]
fn bad_inputs_are_one_line_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let a = write(
        tmp.path(),
        "a.json",
        &guide_doc("evm", "2026-11-24T10:00:00+00:00", 1000.0, false),
    );
    let not_json = tmp.path().join("notes.txt");
    std::fs::write(&not_json, "boot took 14 s\n").unwrap();
    let empty = tmp.path().join("empty.json");
    std::fs::write(&empty, "{}").unwrap();
    let dir = tmp.path().display().to_string();
    let missing = tmp.path().join("nope.json").display().to_string();
    let missing_ref = tmp.path().join("nope.rst").display().to_string();
    // A published guide with a quote never closed: docutils refuses the table, and so does
    // --reference, naming the file, the table and its line.
    let broken_ref = tmp.path().join("broken.rst");
    std::fs::write(
        &broken_ref,
        "Guide\n=====\n\n.. csv-table:: LMBench Benchmarks\n   :header: \"Benchmarks\",\"evm: perf\"\n\n   \"lat_pipe (us)\",\"4.00\n",
    )
    .unwrap();
    let broken_ref = broken_ref.display().to_string();
    let not_json = not_json.display().to_string();
    let empty = empty.display().to_string();
    for (args, says) in [
        (vec![missing.as_str()], "no such file, and not a run id"),
        (vec![dir.as_str()], "not a regular file"),
        (vec![not_json.as_str()], "not JSON"),
        (vec![empty.as_str()], "not a result document"),
        (
            vec![a.as_str(), "--reference", missing_ref.as_str()],
            "--reference",
        ),
        (
            vec![a.as_str(), "--reference", broken_ref.as_str()],
            "broken.rst: csv-table \"LMBench Benchmarks\" (line 4): a quoted field is never closed",
        ),
    ] {
        let (ok, _, err) = render(&args);
        assert!(!ok, "{args:?}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

/// Stored guide runs are queryable: one run's tables, and one table over every guide run with a
/// column per board.
#[test]
fn stored_guide_figures_are_queryable_from_the_results_database() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("results.sqlite").display().to_string();
    let files = [
        write(
            tmp.path(),
            "a.json",
            &guide_doc("evm", "2026-11-24T10:00:00+00:00", 1000.0, false),
        ),
        write(
            tmp.path(),
            "b.json",
            &guide_doc("evm", "2026-11-25T10:00:00+00:00", 3000.0, false),
        ),
        write(
            tmp.path(),
            "c.json",
            &guide_doc("rpi", "2026-11-25T11:00:00+00:00", 700.0, false),
        ),
    ];
    let mut add = vec!["results", "--db", &db, "add"];
    add.extend(files.iter().map(String::as_str));
    let out = common::boardbench(&add);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = common::boardbench(&["results", "--db", &db, "show", "1", "--guide"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("| Benchmarks | evm: perf |"), "{text}");
    assert!(text.contains("| copy (MB/s) | 1000.00 |"), "{text}");
    let out = common::boardbench(&[
        "results",
        "--db",
        &db,
        "table",
        "--guide",
        "stream benchmarks",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("| Benchmarks | evm: perf | rpi: perf |"),
        "{text}"
    );
    assert!(
        text.contains("| copy (MB/s) | 2000.00 (min 1000.00, max 3000.00) | 700.00 |"),
        "{text}"
    );
    let out = common::boardbench(&[
        "results",
        "--db",
        &db,
        "table",
        "--guide",
        "Stream Benchmarks",
        "--csv",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with(
            "Table,Row,Column,evm,rpi\nStream Benchmarks,copy (MB/s),perf,2000.00,700.00\n"
        ),
        "{text}"
    );
    let out = common::boardbench(&["results", "--db", &db, "table", "--guide", "Nope"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("known: Stream Benchmarks"));
}
