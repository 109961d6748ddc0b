//! Every fixture sbc-bench log through the binary, as a reviewer imports a folder of old logs:
//! `boardbench import` of all 155 into one temporary SQLite database, then `results list`,
//! `results show` of every run, `report` of a sample and `results reanalyse --all`. Per log: no
//! error, the document says its findings were analysed (even when there are none), and every
//! log whose own validation says throttling occurred has a `throttling` finding. The counts are
//! printed (`--nocapture`).

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, Instant};

use crate::common;
use testsupport::sbc_bench_logs;

fn bb(db: &Path, args: &[&std::ffi::OsStr], limit: Duration) -> Output {
    let mut c = common::command();
    c.args(args)
        .env("BOARDBENCH_DB", db)
        // The built-in corpus, whatever `corpus update` stored for the user running the tests.
        .env("BOARDBENCH_CORPUS_DIR", db.with_extension("corpus"));
    common::output_within(c, limit)
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// sbc-bench's own verdict in the log: a "Results validation" bullet "Throttling occured" (or
/// "might have occured", or the Raspberry Pi "Throttling / frequency capping" one), or the
/// "Throttling occured." line of the logs before that block existed.
fn validation_says_throttled(log: &str) -> bool {
    log.lines().any(|l| {
        let t = l.trim_start();
        let bullet = t.strip_prefix("* ").unwrap_or("");
        bullet.starts_with("Throttling occured")
            || bullet.starts_with("Throttling might have occured")
            || bullet.starts_with("Throttling / frequency capping")
            || l.starts_with("Throttling occured.")
    })
}

fn logs() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(sbc_bench_logs())
        .expect("fixture logs")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    v.sort();
    v
}

#[test]
fn every_fixture_log_is_imported_finished_and_shown() {
    let logs = logs();
    assert!(logs.len() >= 150, "{} fixture logs", logs.len());
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("results.sqlite");
    let out_dir = dir.path().join("docs");

    let t = Instant::now();
    let mut args: Vec<&std::ffi::OsStr> =
        vec!["import".as_ref(), "--out".as_ref(), out_dir.as_os_str()];
    args.extend(logs.iter().map(|p| p.as_os_str()));
    let imported = bb(&db, &args, Duration::from_secs(600));
    let import_s = t.elapsed().as_secs_f64();
    let stderr = String::from_utf8_lossy(&imported.stderr);
    assert_eq!(imported.status.code(), Some(0), "import failed:\n{stderr}");
    // The only lines on stderr are the notices of files holding several logs.
    for l in stderr.lines() {
        assert!(
            l.contains("sbc-bench logs one after another"),
            "import said: {l}"
        );
    }

    // Run ids from the summary lines, one per log (a file with several logs: one per log).
    let lines = text(&imported);
    let mut ids: Vec<i64> = Vec::new();
    for l in lines.lines() {
        let run = l.split('\t').nth(1).unwrap_or("");
        let id = run
            .strip_prefix("run ")
            .and_then(|r| r.split(' ').next())
            .and_then(|n| n.parse().ok());
        ids.push(id.unwrap_or_else(|| panic!("no run id in {l:?}")));
    }
    ids.sort_unstable();
    ids.dedup();

    // Per log: its document(s) in --out.
    let (mut analysed, mut with_findings, mut findings_total) = (0usize, 0usize, 0usize);
    let (mut throttled_by_validation, mut throttling_found) = (0usize, 0usize);
    let mut docs = 0usize;
    let mut missing: Vec<String> = Vec::new();
    for log in &logs {
        let stem = log.file_stem().unwrap().to_string_lossy().into_owned();
        let mut mine: Vec<PathBuf> = std::fs::read_dir(&out_dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| {
                let n = p.file_stem().unwrap().to_string_lossy().into_owned();
                n == stem
                    || n.strip_prefix(&format!("{stem}-"))
                        .is_some_and(|k| k.parse::<u32>().is_ok())
            })
            .collect();
        mine.sort();
        assert!(!mine.is_empty(), "{}: no document written", log.display());
        let raw = String::from_utf8_lossy(&std::fs::read(log).unwrap()).into_owned();
        let throttled = validation_says_throttled(&raw);
        if throttled {
            throttled_by_validation += 1;
        }
        let mut has_throttling = false;
        for p in &mine {
            docs += 1;
            let doc: serde_json::Value =
                serde_json::from_slice(&std::fs::read(p).unwrap()).expect("JSON document");
            let a = &doc["analysis"];
            assert_eq!(
                a["findings_analysed"],
                true,
                "{}: the document does not say its findings were analysed",
                p.display()
            );
            let n = doc["findings"].as_array().map_or(0, Vec::len);
            assert_eq!(a["findings"], n, "{}", p.display());
            analysed += 1;
            findings_total += n;
            if n > 0 {
                with_findings += 1;
            }
            has_throttling |= doc["findings"]
                .as_array()
                .is_some_and(|f| f.iter().any(|f| f["kind"] == "throttling"));
        }
        if throttled {
            if has_throttling {
                throttling_found += 1;
            } else {
                missing.push(stem);
            }
        }
    }
    assert!(
        missing.is_empty(),
        "logs whose own validation says throttling occurred without a throttling finding: {missing:?}"
    );

    // `results list`: every stored run.
    let list = bb(
        &db,
        &["results".as_ref(), "list".as_ref()],
        Duration::from_secs(60),
    );
    assert_eq!(list.status.code(), Some(0));
    let listed = text(&list).lines().count();
    assert_eq!(listed, ids.len(), "results list shows every stored run");

    // `results show` of every run: the stored findings and the analysis, and the run's SoC
    // column in the catalogue's one name (or none, never the log's raw spelling).
    let t = Instant::now();
    let (mut soc_named, mut soc_none, mut soc_raw) = (0, 0, Vec::new());
    for id in &ids {
        let id_s = id.to_string();
        let o = bb(
            &db,
            &["results".as_ref(), "show".as_ref(), id_s.as_ref()],
            Duration::from_secs(30),
        );
        assert_eq!(o.status.code(), Some(0), "results show {id}");
        let s = text(&o);
        assert!(s.contains("findings ("), "results show {id}:\n{s}");
        assert!(
            s.contains("analysed by boardbench"),
            "results show {id}:\n{s}"
        );
        assert!(!s.contains("not analysed"), "results show {id}:\n{s}");
        let soc = s
            .lines()
            .find_map(|l| l.trim_start().strip_prefix("soc "))
            .map(str::trim)
            .unwrap_or_else(|| panic!("results show {id}: no soc line:\n{s}"));
        if soc == "-" {
            soc_none += 1;
        } else if document::socs::canonical(soc).as_deref() == Some(soc) {
            soc_named += 1;
        } else {
            soc_raw.push(format!("run {id}: {soc}"));
        }
    }
    println!(
        "import_all: results show soc: {soc_named} the catalogue's name, {soc_none} none, {} another spelling {soc_raw:?}",
        soc_raw.len()
    );
    assert!(
        soc_raw.is_empty(),
        "runs whose soc column is not the catalogue's name: {soc_raw:?}"
    );
    let show_s = t.elapsed().as_secs_f64();

    // `report` of a sample (every 15th run): the findings section says what was stored.
    for id in ids.iter().step_by(15) {
        let id_s = id.to_string();
        let o = bb(
            &db,
            &[
                "report".as_ref(),
                id_s.as_ref(),
                "--html".as_ref(),
                "-".as_ref(),
            ],
            Duration::from_secs(60),
        );
        assert_eq!(
            o.status.code(),
            Some(0),
            "report {id}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let html = text(&o);
        assert!(html.contains("id=\"findings\""), "report {id}");
        assert!(!html.contains("Findings not computed"), "report {id}");
    }

    // Re-analysing what was just finished changes nothing.
    let re = bb(
        &db,
        &["results".as_ref(), "reanalyse".as_ref(), "--all".as_ref()],
        Duration::from_secs(600),
    );
    assert_eq!(
        re.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&re.stderr)
    );
    let re_text = text(&re);
    assert!(
        re_text.contains(&format!("reanalysed {} runs: 0 changed", ids.len())),
        "{re_text}"
    );

    println!(
        "import_all: {} logs, {docs} documents, {} runs stored ({import_s:.1} s); {analysed} documents say findings were analysed, {with_findings} with findings ({findings_total} findings); {throttled_by_validation} logs throttled by their own validation, {throttling_found} of them with a throttling finding; results show of {} runs in {show_s:.1} s",
        logs.len(),
        ids.len(),
        ids.len()
    );
}

/// A run stored before documents were finished (no analysis, no findings) is finished by
/// `results reanalyse RUN`, which says what it added; `results show` and `report` then show the
/// stored findings. Without RUN or `--all` it is a usage error (64).
#[test]
fn reanalyse_finishes_a_run_stored_without_findings() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("results.sqlite");
    let bytes = std::fs::read(sbc_bench_logs().join("8ctH.txt")).unwrap();
    let doc = sbcimport::import_bytes(&bytes, "8ctH.txt").expect("imports");
    assert!(doc.findings.is_empty() && doc.analysis.is_none());
    let id = {
        let mut s = resultsdb::Store::open(&resultsdb::Location::Sqlite(db.clone())).unwrap();
        s.add_document(&doc, &[]).unwrap().id()
    };
    let id_s = id.to_string();
    let show = |db: &Path| {
        text(&bb(
            db,
            &["results".as_ref(), "show".as_ref(), id_s.as_ref()],
            Duration::from_secs(30),
        ))
    };
    let before = show(&db);
    assert!(before.contains("findings (0):"), "{before}");
    assert!(before.contains("not analysed"), "{before}");
    let html = text(&bb(
        &db,
        &[
            "report".as_ref(),
            id_s.as_ref(),
            "--html".as_ref(),
            "-".as_ref(),
        ],
        Duration::from_secs(60),
    ));
    assert!(html.contains("Findings not computed"));

    // A dry run says what would change and stores nothing.
    let dry = bb(
        &db,
        &[
            "results".as_ref(),
            "reanalyse".as_ref(),
            "--dry-run".as_ref(),
            id_s.as_ref(),
        ],
        Duration::from_secs(60),
    );
    assert_eq!(
        dry.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&dry.stderr)
    );
    assert!(
        text(&dry).contains("+throttling [invalid]"),
        "{}",
        text(&dry)
    );
    assert!(show(&db).contains("not analysed"));

    let re = bb(
        &db,
        &["results".as_ref(), "reanalyse".as_ref(), id_s.as_ref()],
        Duration::from_secs(60),
    );
    assert_eq!(
        re.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&re.stderr)
    );
    let said = text(&re);
    assert!(said.contains(&format!("run {id}\t")), "{said}");
    assert!(said.contains("+throttling [invalid]"), "{said}");
    assert!(said.contains("first analysis"), "{said}");
    assert!(said.contains("reanalysed 1 run: 1 changed"), "{said}");
    let after = show(&db);
    assert!(after.contains("[invalid] throttling:"), "{after}");
    assert!(after.contains("analysed by boardbench"), "{after}");
    let html = text(&bb(
        &db,
        &[
            "report".as_ref(),
            id_s.as_ref(),
            "--html".as_ref(),
            "-".as_ref(),
        ],
        Duration::from_secs(60),
    ));
    assert!(
        html.contains("(throttling)"),
        "the report shows the stored finding"
    );

    // Again: nothing changes.
    let again = text(&bb(
        &db,
        &["results".as_ref(), "reanalyse".as_ref(), id_s.as_ref()],
        Duration::from_secs(60),
    ));
    assert!(again.contains("findings unchanged"), "{again}");
    assert!(again.contains("0 changed"), "{again}");

    // A run that does not exist: an error line, exit 1. Neither RUN nor --all: usage, 64.
    let none = bb(
        &db,
        &["results".as_ref(), "reanalyse".as_ref(), "999".as_ref()],
        Duration::from_secs(30),
    );
    assert_eq!(none.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&none.stderr).contains("no run with id 999"));
    let usage = bb(
        &db,
        &["results".as_ref(), "reanalyse".as_ref()],
        Duration::from_secs(30),
    );
    assert_eq!(usage.status.code(), Some(64));
    let both = bb(
        &db,
        &[
            "results".as_ref(),
            "reanalyse".as_ref(),
            "--all".as_ref(),
            id_s.as_ref(),
        ],
        Duration::from_secs(30),
    );
    assert_eq!(both.status.code(), Some(64));
}
