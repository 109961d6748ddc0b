//! `boardbench results` on SQLite: migrations, add (dedup, bad files), list filters, show,
//! the Results.md table (imported fixture logs and native documents), compare.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Output;

use document::{Finding, Measurement, ResultDocument, SCHEMA_VERSION, Severity};
use resultsdb::{Added, Filter, Location, Store};
use testsupport::sbc_bench_logs;

fn bb(db: &Path, args: &[&str]) -> Output {
    common::command()
        .arg("results")
        .arg("--db")
        .arg(db)
        .args(args)
        // The built-in corpus, whatever `corpus update` stored for the user running the tests.
        .env("BOARDBENCH_CORPUS_DIR", db.with_extension("corpus"))
        .output()
        .expect("run boardbench")
}

fn stdout(o: &Output) -> String {
    assert_eq!(
        o.status.code(),
        Some(0),
        "stderr: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn m(
    suite: &str,
    test: &str,
    threads: u32,
    value: f64,
    unit: &str,
    spread: Option<f64>,
) -> Measurement {
    Measurement {
        suite: suite.into(),
        test: test.into(),
        variant: None,
        threads,
        cpus: Vec::new(),
        value,
        unit: unit.into(),
        higher_is_better: true,
        spread_pct: spread,
    }
}

/// A native document as a boardbench run would make it (measurements, a finding, no machine).
fn native(device: &str, started: &str, clock: f64, zip: f64, spread: f64) -> ResultDocument {
    ResultDocument {
        schema_version: SCHEMA_VERSION,
        producer: "boardbench 0.1.0".into(),
        device: Some(device.into()),
        started: Some(started.into()),
        finished: None,
        machine: None,
        measurements: vec![
            m("clock", "cpu0", 1, clock, "MHz", None),
            m("7zip", "total rating", 4, zip, "MIPS", Some(spread)),
            m("7zip", "total rating", 1, zip / 4.0, "MIPS", Some(spread)),
            m("membw", "libc memcpy copy", 1, 3000.0, "MB/s", Some(1.0)),
        ],
        findings: vec![Finding {
            kind: "throttling".into(),
            severity: Severity::Warning,
            message: "clock dropped under load".into(),
            evidence: vec!["1800 → 1400 MHz".into()],
        }],
        imported: None,
        run: None,
        guide: None,
        redaction: None,
        analysis: None,
    }
}

fn write_json(dir: &Path, name: &str, doc: &ResultDocument) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, serde_json::to_string_pretty(doc).unwrap()).unwrap();
    p
}

fn imported(log: &str) -> ResultDocument {
    let bytes = std::fs::read(sbc_bench_logs().join(log)).unwrap();
    sbcimport::import_bytes(&bytes, log).expect("fixture log imports")
}

#[test]
fn migrations_create_the_schema_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sub/dir/results.sqlite");
    let loc = Location::Sqlite(path.clone());
    let mut s = Store::open(&loc).unwrap();
    assert_eq!(s.schema_version().unwrap(), resultsdb::schema::latest());
    let tables: Vec<String> = s
        .query(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name",
            &[],
        )
        .unwrap()
        .into_iter()
        .filter_map(|r| r[0].as_str().map(String::from))
        .collect();
    for t in ["findings", "results", "runs", "schema_version", "tags"] {
        assert!(tables.contains(&t.to_string()), "{t} missing: {tables:?}");
    }
    drop(s);
    // Re-opening applies nothing twice.
    let mut s = Store::open(&loc).unwrap();
    let rows = s.query("SELECT COUNT(*) FROM schema_version", &[]).unwrap();
    assert_eq!(
        rows[0][0].as_i64(),
        Some(resultsdb::schema::MIGRATIONS.len() as i64)
    );
    assert_eq!(s.integrity_check().unwrap(), "ok");
}

#[test]
fn the_same_document_is_stored_once() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = Store::open(&Location::Sqlite(dir.path().join("db"))).unwrap();
    let doc = native("Board", "2026-01-02T03:04:05+00:00", 1800.0, 8000.0, 1.0);
    let first = s.add_document(&doc, &[]).unwrap();
    assert!(matches!(first, Added::New(_)));
    // Same content, other whitespace: still the same document.
    let pretty = serde_json::to_string_pretty(&doc).unwrap();
    assert_eq!(
        s.add_json(&pretty, &["again".into()]).unwrap(),
        Added::Duplicate(first.id())
    );
    assert_eq!(s.count().unwrap(), 1);
    let rows = s.query("SELECT COUNT(*) FROM results", &[]).unwrap();
    assert_eq!(rows[0][0].as_i64(), Some(doc.measurements.len() as i64));
    // The duplicate's tag was still recorded.
    assert_eq!(s.run(first.id()).unwrap().unwrap().summary.tags, ["again"]);
}

#[test]
fn add_reports_each_file_and_continues_after_a_bad_one() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("r.sqlite");
    let good = write_json(
        dir.path(),
        "a.json",
        &native("A", "2026-01-01", 1000.0, 4000.0, 1.0),
    );
    let bad = dir.path().join("bad.json");
    std::fs::write(
        &bad,
        "{\"schema_version\": 1, \"measurements\": [{\"suite\": 3}]}",
    )
    .unwrap();
    let garbage = dir.path().join("garbage.json");
    std::fs::write(&garbage, "not json").unwrap();
    let good2 = write_json(dir.path(), "b.json", &imported("Xd38a.txt"));
    let out = bb(
        &db,
        &[
            "add",
            good.to_str().unwrap(),
            bad.to_str().unwrap(),
            garbage.to_str().unwrap(),
            good2.to_str().unwrap(),
            good.to_str().unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].starts_with("added 1"));
    assert!(lines[1].starts_with("added 2"));
    assert!(lines[2].starts_with("already stored as 1"));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 2, "{err}");
    assert!(err.contains("bad.json") && err.contains("garbage.json"));
}

/// Imported fixture logs and native runs in one database, through the command line.
fn populated(dir: &Path) -> PathBuf {
    let db = dir.join("r.sqlite");
    let mut files = Vec::new();
    for log in ["Xd38a.txt", "3GmR.txt", "1iJ7.txt"] {
        let name = log.replace(".txt", ".json");
        files.push(write_json(dir, &name, &imported(log)));
    }
    files.push(write_json(
        dir,
        "n1.json",
        &native(
            "Native One",
            "2026-03-01T10:00:00+00:00",
            2000.0,
            10000.0,
            1.0,
        ),
    ));
    files.push(write_json(
        dir,
        "n2.json",
        &native(
            "Native Two",
            "2026-03-05T10:00:00+00:00",
            1000.0,
            10150.0,
            1.0,
        ),
    ));
    let mut args = vec!["add", "--tag", "lab"];
    args.extend(files.iter().map(|f| f.to_str().unwrap()));
    stdout(&bb(&db, &args));
    db
}

#[test]
fn list_filters() {
    let dir = tempfile::tempdir().unwrap();
    let db = populated(dir.path());
    let ids = |args: &[&str]| -> Vec<String> {
        let mut a = vec!["list"];
        a.extend_from_slice(args);
        stdout(&bb(&db, &a))
            .lines()
            .map(|l| l.split('\t').next().unwrap().to_string())
            .collect()
    };
    // Ordered by start time: 1iJ7 (2018), 3GmR (2021), natives (2026-03), Xd38a (2026-05).
    assert_eq!(ids(&[]), ["3", "2", "4", "5", "1"]);
    assert_eq!(ids(&["--device", "nanopi"]), ["2"]);
    assert_eq!(ids(&["--soc", "rk3576"]), ["1"]);
    assert_eq!(ids(&["--arch", "ARM64"]), ["3", "2", "1"]);
    assert_eq!(ids(&["--kernel", "5.10"]), ["2"]);
    assert_eq!(
        ids(&["--since", "2026-01-01", "--until", "2026-03-01"]),
        ["4"]
    );
    assert_eq!(ids(&["--tag", "lab"]).len(), 5);
    assert!(ids(&["--tag", "nope"]).is_empty());
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&bb(&db, &["list", "--json", "--device", "one"]))).unwrap();
    assert_eq!(json.as_array().unwrap().len(), 2);
}

#[test]
fn show_prints_summary_measurements_and_findings() {
    let dir = tempfile::tempdir().unwrap();
    let db = populated(dir.path());
    let text = stdout(&bb(&db, &["show", "4"]));
    assert!(text.contains("Native One"));
    assert!(text.contains("measurements (4):"));
    assert!(text.contains("libc memcpy copy"));
    // `results add` finished the document: a never-finished document keeps its writer's
    // findings that the analysis does not reproduce, and the run says it was analysed.
    assert!(text.contains("[warning] throttling: clock dropped under load"));
    assert!(text.contains("analysed by boardbench"), "{text}");
    let doc: ResultDocument =
        serde_json::from_str(&stdout(&bb(&db, &["show", "4", "--json"]))).unwrap();
    let mut expected = native(
        "Native One",
        "2026-03-01T10:00:00+00:00",
        2000.0,
        10000.0,
        1.0,
    );
    finish::finish_builtin(&mut expected);
    assert_eq!(doc, expected);
    let missing = bb(&db, &["show", "99"]);
    assert_eq!(missing.status.code(), Some(1));
}

#[test]
fn show_and_table_place_runs_among_the_published_results() {
    let dir = tempfile::tempdir().unwrap();
    let db = populated(dir.path());
    // Run 2 is 3GmR.txt, an imported log (a row of sbc-bench's table itself).
    let text = stdout(&bb(&db, &["show", "2"]));
    let at = text
        .find("placement among sbc-bench's published results:")
        .expect(&text);
    let placed = &text[at..];
    assert!(placed.contains("compared with: ARM rows only"), "{placed}");
    assert!(placed.contains("own row"), "{placed}");
    assert!(placed.contains("7-Zip multi"));
    assert!(placed.contains(corpus::DATE) && placed.contains("BSD-3-Clause"));

    let md = stdout(&bb(&db, &["table", "--placement"]));
    assert!(
        md.contains("Placement among sbc-bench's published results"),
        "{md}"
    );
    assert!(md.contains("| 2 | ARM |"), "{md}");
    assert!(md.contains(&format!("Corpus: {}", corpus::corpus().provenance())));
    let csv = stdout(&bb(&db, &["table", "--placement", "--csv"]));
    assert!(csv.lines().next().unwrap().ends_with(",class,placement 7-zip multi,placement 7-zip single,placement AES,placement memcpy,placement memset,placement kH/s"), "{csv}");
    assert_eq!(csv.lines().count(), 6);
    // A figure without a placement is "-" in the Markdown table and an empty field in the CSV,
    // as the results table's own CSV writes a missing figure (not a guarded `'-`). The last six
    // fields of a line are the placement cells (they hold no comma).
    let md_placed: Vec<Vec<&str>> = md[md.find("| id | class |").expect(&md)..]
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with("| "))
        .map(|l| {
            let cells: Vec<&str> = l.trim_matches('|').split(" | ").map(str::trim).collect();
            cells[cells.len() - 6..].to_vec()
        })
        .collect();
    let csv_placed: Vec<Vec<&str>> = csv
        .lines()
        .skip(1)
        .map(|l| {
            let mut cells: Vec<&str> = l.rsplitn(7, ',').take(6).collect();
            cells.reverse();
            cells
        })
        .collect();
    assert_eq!(md_placed.len(), csv_placed.len(), "{md}\n{csv}");
    assert!(md_placed.iter().flatten().any(|c| *c == "-"), "{md}");
    for (m, c) in md_placed.iter().zip(&csv_placed) {
        let want: Vec<&str> = m.iter().map(|x| if *x == "-" { "" } else { x }).collect();
        assert_eq!(*c, want, "{md}\n{csv}");
    }
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&bb(&db, &["table", "--placement", "--json"]))).unwrap();
    assert!(
        json["corpus"]["license"]
            .as_str()
            .unwrap()
            .contains("Thomas Kaiser")
    );
    let rows = json["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 5);
    // The placement as the document stores it (`analysis.placement`), class by its name.
    assert_eq!(rows[1]["placement"]["class"], "ARM");
    assert!(
        rows[1]["placement"]["figures"][0]["rank"].is_u64(),
        "{json}"
    );
    // Without --placement the table is unchanged.
    assert!(!stdout(&bb(&db, &["table"])).contains("Placement"));
}

#[test]
fn table_has_the_results_md_numbers_and_sorts() {
    let dir = tempfile::tempdir().unwrap();
    let db = populated(dir.path());
    // Every imported log's row carries the six numbers derived by sbc-bench's rules
    // (expected.json `log_rule_values`).
    let expected: serde_json::Value =
        serde_json::from_slice(&std::fs::read(sbc_bench_logs().join("expected.json")).unwrap())
            .unwrap();
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&bb(&db, &["table", "--format", "json"]))).unwrap();
    let rows = json.as_array().unwrap();
    assert_eq!(rows.len(), 5);
    for (id, log) in [(1, "Xd38a.txt"), (2, "3GmR.txt"), (3, "1iJ7.txt")] {
        let e = expected
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["log"] == log)
            .unwrap();
        let r = rows.iter().find(|r| r["id"] == id).unwrap();
        for (col, key) in [
            ("zip_multi", "7zip_multi"),
            ("zip_single", "7zip_single"),
            ("aes", "aes"),
            ("memcpy", "memcpy"),
            ("memset", "memset"),
            ("khs", "khs"),
        ] {
            assert_eq!(
                r[col].as_f64(),
                e["log_rule_values"][key].as_f64(),
                "{log} {col}"
            );
        }
    }
    // Native runs: 7-zip from the "total rating" rows, memcpy from membw, clock from "clock".
    let n1 = rows.iter().find(|r| r["id"] == 4).unwrap();
    assert_eq!(n1["zip_multi"], 10000.0);
    assert_eq!(n1["zip_single"], 2500.0);
    assert_eq!(n1["memcpy"], 3000.0);
    assert_eq!(n1["clockspeed"], "2000 MHz");
    assert!(n1["aes"].is_null());

    let md = stdout(&bb(&db, &["table", "--sort", "7zip-multi", "--desc"]));
    let lines: Vec<&str> = md.lines().collect();
    assert!(lines[0].starts_with("| Device | Clockspeed | Kernel | Distro | 7-zip multi"));
    assert_eq!(lines.len(), 7);
    // 12350 (Flipper) > 10150 > 10000 > 6970 > 5450
    assert!(lines[2].contains("Flipper One"));
    assert!(lines[3].contains("Native Two"));
    assert!(lines[6].contains("| 5450 |"));
    assert!(
        lines[4].contains("| - |"),
        "missing numbers are '-': {}",
        lines[4]
    );

    let csv = stdout(&bb(&db, &["table", "--format", "csv", "--sort", "device"]));
    let first: Vec<&str> = csv.lines().nth(1).unwrap().split(',').collect();
    assert_eq!(first[1], "Flipper One rev. F0B0C1");
    assert_eq!(csv.lines().count(), 6);
    let bad = bb(&db, &["table", "--sort", "colour"]);
    assert_ne!(bad.status.code(), Some(0));
}

#[test]
fn compare_gives_ratios_per_ghz_and_spread_marks() {
    let dir = tempfile::tempdir().unwrap();
    let db = populated(dir.path());
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&bb(&db, &["compare", "4", "5", "--json"]))).unwrap();
    let rows = json["rows"].as_array().unwrap();
    let multi = rows
        .iter()
        .find(|r| r["suite"] == "7zip" && r["threads"] == 4)
        .unwrap();
    let b = &multi["cells"][1];
    assert!((b["ratio"].as_f64().unwrap() - 1.015).abs() < 1e-9);
    // 1.5 % difference with 1 % spread on each side: within the noise.
    assert_eq!(b["beyond_spread"], false);
    // Per GHz: 10000/2.0 = 5000 vs 10150/1.0 = 10150.
    assert_eq!(multi["cells"][0]["per_ghz"], 5000.0);
    assert_eq!(b["per_ghz"], 10150.0);
    // Imported logs match by (suite, test) although variant and threads differ.
    let text = stdout(&bb(&db, &["compare", "2", "1", "3"]));
    assert!(text.contains("7zip / multi"));
    assert!(text.contains("B:          12350  ×1.772"), "{text}");
    assert!(!text.contains("B: -"), "{text}");
    // Filter struct is what `list` uses; an unknown id is an error.
    assert_eq!(bb(&db, &["compare", "1", "77"]).status.code(), Some(1));
    let _ = Filter::default();
}

/// `results table` shows what each run's summary row shows: sbc-bench's rounding and the
/// kernel as major.minor (`--format json` keeps the stored figures); `results list --header`
/// names its columns.
#[test]
fn the_table_shows_the_summary_rows_figures_and_list_has_a_header() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("r.sqlite");
    let mut doc = native("Native", "2026-03-01T10:00:00+00:00", 2000.0, 10003.7, 1.0);
    doc.measurements[3].value = 7298.3;
    let f = write_json(dir.path(), "n.json", &doc);
    stdout(&bb(&db, &["add", f.to_str().unwrap()]));
    let md = stdout(&bb(&db, &["table"]));
    let row = md.lines().nth(2).unwrap();
    assert!(row.contains("| 10000 |"), "{row}");
    assert!(row.contains("| 7300 |"), "{row}");
    assert!(!row.contains("7298"), "{row}");
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&bb(&db, &["table", "--format", "json"]))).unwrap();
    assert_eq!(json[0]["memcpy"], 7298.3);
    let list = stdout(&bb(&db, &["list", "--header"]));
    assert!(list.starts_with("id\tstarted\tdevice"), "{list}");
    assert_eq!(list.lines().count(), 2);
    // Piped without --header: the lines only.
    assert_eq!(stdout(&bb(&db, &["list"])).lines().count(), 1);
}

/// `results compare` opens with the six headline figures, by the summary row's rules: a
/// native run's memcpy (`membw / libc memcpy copy`) meets an imported log's
/// (`tinymembench / memcpy`).
#[test]
fn compare_pairs_native_and_imported_headline_figures_first() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("r.sqlite");
    let imported_doc = write_json(dir.path(), "i.json", &imported("Xd38a.txt"));
    let native_doc = write_json(
        dir.path(),
        "n.json",
        &native("Native", "2026-03-01T10:00:00+00:00", 2000.0, 10000.0, 1.0),
    );
    stdout(&bb(
        &db,
        &[
            "add",
            imported_doc.to_str().unwrap(),
            native_doc.to_str().unwrap(),
        ],
    ));
    let text = stdout(&bb(&db, &["compare", "1", "2"]));
    let first_row = text
        .lines()
        .find(|l| l.contains(" / ") && !l.starts_with('('))
        .unwrap_or_default();
    assert!(first_row.starts_with("headline / 7-zip multi ("), "{text}");
    let memcpy = text
        .split("headline / memcpy (")
        .nth(1)
        .expect("a memcpy row");
    let cells: Vec<&str> = memcpy.lines().skip(1).take(2).collect();
    assert!(
        cells.iter().all(|c| !c.trim_end().ends_with('-')),
        "{cells:?}\n{text}"
    );
    assert!(cells[1].contains('×'), "{cells:?}");
}
