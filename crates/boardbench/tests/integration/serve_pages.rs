//! The service's pages in headless Chromium (Debian's `chromium`): a service filled with
//! imported sbc-bench logs (the shared fixture logs, through `boardbench import` and the upload
//! API) serves the table, a run page, the compare page and a board page without console errors
//! (a CSP violation is one) and with their charts in the DOM. Skips under qemu
//! (BOARDBENCH_EMULATED=1) and without chromium. Uses PostgreSQL when BOARDBENCH_TEST_PG_URL is
//! set, a SQLite file otherwise.
//!
//! `cargo test -p boardbench --test integration -- --ignored serve_pages::regenerate_serve_screenshots`
//! rewrites docs/screenshots/serve-*.png (each page at 1400 and 390 px wide).

use crate::common;
use crate::serve_util;

use std::path::Path;

use serve_util::{Server, token};

/// The fixture logs used: several boards, two runs of one board.
const LOGS: [&str; 6] = [
    "1BsF.txt", "1ET4.txt", "1MFf.txt", "1iFm.txt", "1iFx.txt", "1iFz.txt",
];

/// A service on a fresh database, filled with the imported fixture logs.
fn filled_service(name: &str) -> (Server, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let db = serve_util::pg_db(name).unwrap_or_else(|| {
        dir.path()
            .join("results.sqlite")
            .to_string_lossy()
            .into_owned()
    });
    let logs = testsupport::sbc_bench_logs();
    let out_dir = dir.path().join("docs");
    let mut args: Vec<String> = vec!["import".into()];
    args.extend(
        LOGS.iter()
            .map(|l| logs.join(l).to_string_lossy().into_owned()),
    );
    args.extend([
        "--out".into(),
        out_dir.to_string_lossy().into_owned(),
        "--no-store".into(),
    ]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = serve_util::boardbench(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let t = token(&db, "lab");
    let s = Server::start(&db, &[]);
    let mut files: Vec<_> = std::fs::read_dir(&out_dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert_eq!(files.len(), LOGS.len());
    for f in files {
        let r = s.post("/api/v1/runs", Some(&t), &std::fs::read(&f).unwrap());
        assert_eq!(r.status, 201, "{}: {}", f.display(), r.text());
    }
    for d in board_history() {
        let r = s.post("/api/v1/runs", Some(&t), d.to_string().as_bytes());
        assert_eq!(r.status, 201, "{}", r.text());
    }
    (s, dir)
}

/// The board with a history ([`BOARD`]): a first run, then one on a later kernel with 7-Zip
/// 20 % lower, an INVALID finding and the quick profile.
const BOARD: &str = "Radxa ROCK 5B";

fn board_history() -> [serde_json::Value; 2] {
    let mut first = serve_util::doc(BOARD, 1);
    first["started"] = "2026-03-01T10:00:00+00:00".into();
    // The first run is the valid one: the demo run's data has a clock drop the analysis calls
    // invalid; this one is uploaded as its board finished it, without findings.
    first["findings"] = serde_json::json!([]);
    first["analysis"]["findings"] = 0.into();
    first["run"]["profile"] = "sbc-bench".into();
    let mut second = serve_util::doc(BOARD, 2);
    second["started"] = "2026-04-02T10:00:00+00:00".into();
    second["machine"]["identity"]["kernel"]["release"] = "6.12.1-edge".into();
    for m in second["measurements"].as_array_mut().unwrap() {
        if m["suite"] == "7zip" {
            m["value"] = (m["value"].as_f64().unwrap() * 0.8).round().into();
        }
    }
    second["findings"] = serde_json::json!([{
        "kind": "swapping", "severity": "invalid", "message": "the run swapped"
    }]);
    second["run"]["profile"] = "quick".into();
    second["run"]["comparability"] = serde_json::json!([]);
    [first, second]
}

/// A device with runs, from the API.
fn some_device(s: &Server) -> String {
    s.get("/api/v1/runs").json()["runs"][0]["device"]
        .as_str()
        .unwrap()
        .to_string()
}

fn dom(bin: &Path, url: &str) -> String {
    let out = testsupport::chromium::run(bin, url, &["--dump-dom".into()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let errors = testsupport::chromium::console_errors(&stderr).join("\n");
    assert!(errors.is_empty(), "{url}: console errors:\n{errors}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn chromium_opens_table_run_compare_and_board_pages() {
    let Some(bin) = common::chromium() else {
        return;
    };
    let (s, _dir) = filled_service("chromium");
    let base = format!("http://{}", s.addr);

    let table = dom(&bin, &format!("{base}/?sort=7zip-multi&desc=1"));
    assert!(table.contains("id=\"results\""), "{table}");
    assert_eq!(
        table.matches("type=\"checkbox\" name=\"id\"").count(),
        LOGS.len() + board_history().len()
    );
    assert!(table.contains("7-zip multi</a> ▼"));

    let run = dom(&bin, &format!("{base}/runs/1"));
    assert!(run.contains("<svg"), "the run page has its charts");
    assert!(run.contains("id=\"chart-timeline\""));

    let compare = dom(&bin, &format!("{base}/compare?id=1&id=2&id=3"));
    assert!(compare.contains("id=\"chart-compare\""));
    assert!(compare.contains("<svg"));
    assert!(compare.contains("per GHz"));

    let device = some_device(&s);
    let board = dom(
        &bin,
        &format!("{base}/board?device={}", device.replace(' ', "%20")),
    );
    assert!(board.contains("id=\"board\""), "{board}");
}

/// A guide run's document: the small valid document of [`serve_util::doc`] with a STREAM guide
/// table (copy, and a time row) measured on `device`.
fn guide_doc(device: &str, n: u32, copy: f64) -> serde_json::Value {
    let mut d = serve_util::doc(device, n);
    d["guide"] = serde_json::json!({
        "sections": [{
            "name": "stream",
            "title": "Stream Benchmarks",
            "status": "done",
            "tables": [{
                "title": "Stream Benchmarks",
                "key_header": "Benchmarks",
                "columns": ["perf"],
                "rows": [
                    {"key": "copy (MB/s)", "cells": [{"value": copy, "samples": 1}]},
                    {"key": "lat_syscall-null (us)", "cells": [{"value": 0.05 * f64::from(n), "samples": 1}]}
                ]
            }]
        }]
    });
    d
}

/// A service with three guide runs (two of one board) and one run that is not a guide.
fn guide_service(name: &str) -> (Server, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let db = serve_util::pg_db(name).unwrap_or_else(|| {
        dir.path()
            .join("results.sqlite")
            .to_string_lossy()
            .into_owned()
    });
    let t = token(&db, "vendor");
    let s = Server::start(&db, &[]);
    for d in [
        guide_doc("AM62A <EVM>", 1, 100.0),
        guide_doc("AM62A <EVM>", 2, 200.0),
        guide_doc("Board B", 3, 300.0),
        serve_util::doc("Not a guide", 4),
    ] {
        let r = s.post("/api/v1/runs", Some(&t), d.to_string().as_bytes());
        assert_eq!(r.status, 201, "{}", r.text());
    }
    (s, dir)
}

/// The guide page merges the guide runs by board (the median with min and max, a note saying
/// how many runs), leaves other runs out, orders the boards by a row's figure with every table
/// and the chart following, escapes names, and answers CSV and JSON of the same guide.
#[test]
fn guide_page_merges_runs_by_board_sorts_and_answers_csv_and_json() {
    if serve_util::skip() {
        return;
    }
    let (s, _dir) = guide_service("guide_page");
    let page = s.get("/guide");
    assert_eq!(page.status, 200);
    let page = page.text();
    assert!(page.contains("id=\"guide-page\""));
    assert!(page.contains("3 guide runs of 2 boards"), "{page}");
    assert!(
        !page.contains("Not a guide"),
        "a run without guide tables is no column"
    );
    assert!(!page.contains("<EVM>"), "names are escaped:\n{page}");
    assert!(page.contains("AM62A &lt;EVM&gt;</a>: perf"));
    assert!(page.contains("150.00 (min 100.00, max 200.00)"), "{page}");
    assert!(
        page.contains("median of the 2 runs that measured it"),
        "the merge note:\n{page}"
    );
    assert_eq!(
        page.matches("<svg").count(),
        1,
        "one ratio chart for one table"
    );
    assert!(
        page.contains("relative to AM62A &lt;EVM&gt;"),
        "by name, A first"
    );
    let a = page.find("AM62A &lt;EVM&gt;</a>: perf").unwrap();
    let b = page.find("Board B</a>: perf").unwrap();
    assert!(a < b);

    // Ordered by copy, highest first: Board B (300) before AM62A (150), chart relative to B.
    let sorted = s
        .get("/guide?table=Stream%20Benchmarks&row=copy%20(MB%2Fs)&desc=1")
        .text();
    let a = sorted.find("AM62A &lt;EVM&gt;</a>: perf").unwrap();
    let b = sorted.find("Board B</a>: perf").unwrap();
    assert!(b < a, "{sorted}");
    assert!(sorted.contains("relative to Board B"));
    assert!(sorted.contains("copy (MB/s)</a> ▼"));
    assert!(sorted.contains("highest first"));

    let filtered = s.get("/guide?board=board").text();
    assert!(filtered.contains("1 guide run of 1 board"), "{filtered}");
    assert!(!filtered.contains("AM62A"), "{filtered}");

    let csv =
        s.get("/api/v1/guide?format=csv&table=Stream%20Benchmarks&row=copy%20(MB%2Fs)&desc=1");
    assert_eq!(csv.status, 200);
    let csv = csv.text();
    assert!(
        csv.starts_with("Table,Row,Column,Board B,AM62A <EVM>\n"),
        "{csv}"
    );
    assert!(
        csv.contains("Stream Benchmarks,copy (MB/s),perf,300.00,150.00\n"),
        "{csv}"
    );

    let json = s.get("/api/v1/guide").json();
    assert_eq!(json["runs"], 3);
    assert_eq!(
        json["boards"],
        serde_json::json!(["AM62A <EVM>", "Board B"])
    );
    let t = &json["sections"][0]["tables"][0];
    assert_eq!(t["rows"][0]["cells"][0]["value"], 150.0);
    assert_eq!(t["rows"][0]["cells"][0]["min"], 100.0);
    assert_eq!(t["rows"][0]["cells"][1]["value"], 300.0);

    assert_eq!(s.get("/api/v1/guide?format=xml").status, 400);
    assert_eq!(
        s.get("/guide?table=Stream%20Benchmarks&row=nope").status,
        400
    );
    let md = s.get("/api/v1/guide?format=md").text();
    assert!(md.contains("Stream Benchmarks"), "{md}");
}

/// The guide page in headless Chromium: no console errors (a CSP violation is one), its tables
/// and ratio chart in the DOM.
#[test]
fn chromium_opens_the_guide_page() {
    let Some(bin) = common::chromium() else {
        return;
    };
    let (s, _dir) = guide_service("guide_chromium");
    let base = format!("http://{}", s.addr);
    let guide = dom(
        &bin,
        &format!("{base}/guide?table=Stream%20Benchmarks&row=copy%20(MB%2Fs)&desc=1"),
    );
    assert!(guide.contains("id=\"guide-page\""), "{guide}");
    assert!(guide.contains("<svg"), "the ratio chart");
    assert_eq!(
        guide.matches("<table class=\"guide\"").count(),
        2,
        "header and STREAM"
    );
}

#[test]
#[ignore = "rewrites docs/screenshots/serve-*.png; run on purpose"]
fn regenerate_serve_screenshots() {
    let Some(bin) = common::chromium() else {
        return;
    };
    let (s, _dir) = filled_service("shots");
    let base = format!("http://{}", s.addr);
    let out_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/screenshots");
    std::fs::create_dir_all(&out_dir).unwrap();
    let device = BOARD.replace(' ', "%20");
    let pages = [
        ("table", "/?sort=7zip-multi&desc=1".to_string()),
        ("run", format!("/runs/{}", LOGS.len() + 2)),
        (
            "compare",
            format!("/compare?id=1&id={}&id={}", LOGS.len() + 1, LOGS.len() + 2),
        ),
        ("board", format!("/board?device={device}")),
    ];
    let mut shots = Vec::new();
    for (page, path) in &pages {
        shots.push((format!("serve-{page}"), path.clone(), 1400, 800));
        shots.push((format!("serve-{page}-390"), path.clone(), 390, 800));
    }
    for (name, path, w, h) in shots {
        let png = out_dir.join(format!("{name}.png"));
        testsupport::chromium::run(
            &bin,
            &format!("{base}{path}"),
            &[
                format!("--screenshot={}", png.display()),
                format!("--window-size={w},{h}"),
            ],
        );
        let bytes = std::fs::read(&png).unwrap();
        assert!(bytes.len() < 250_000, "{name}.png is {} bytes", bytes.len());
        println!("{} ({} bytes)", png.display(), bytes.len());
    }
}

/// What the pages must show (issue 27, item 9), read as HTML without a browser: the table's
/// SoC, day, uploader and findings columns (an INVALID run stands out), the board page's clock
/// column and red regressions, compare naming runs of one board by id, day and kernel and each
/// cell by its own variant, a quick run's headline marked "(quick)" on its run page.
#[test]
fn pages_show_soc_day_uploader_validity_clock_and_regressions() {
    if serve_util::skip() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let db = serve_util::pg_db("pages_show").unwrap_or_else(|| {
        dir.path()
            .join("results.sqlite")
            .to_string_lossy()
            .into_owned()
    });
    let t = token(&db, "lab-uploader");
    let s = Server::start(&db, &[]);
    let post = |d: &serde_json::Value| {
        let r = s.post(
            "/api/v1/runs",
            Some(&t),
            serde_json::to_string(d).unwrap().as_bytes(),
        );
        assert_eq!(r.status, 201, "{}", r.text());
        r.json()["id"].as_i64().unwrap()
    };
    let [first, second] = board_history();
    let first_id = post(&first);
    let second_id = post(&second);

    let table = s.get("/").text();
    for want in [
        "<th>SoC</th>",
        "<th>Date</th>",
        "<th>Uploader</th>",
        "<th>Findings</th>",
        "RK3399",
        "2026-04-02",
        "lab-uploader",
        "<tr class=\"invalid\">",
        "<span class=\"sev invalid\">invalid</span>",
        "class=\"wide\"",
    ] {
        assert!(table.contains(want), "table lacks {want:?}:\n{table}");
    }
    assert_eq!(table.matches("<tr class=\"invalid\">").count(), 1);

    let board = s
        .get(&format!("/board?device={}", BOARD.replace(' ', "%20")))
        .text();
    assert!(board.contains("<th>Clockspeed</th>"), "{board}");
    assert!(
        board.contains("<span class=\"worse\">×0.8"),
        "a 20 % drop is red:\n{board}"
    );
    assert!(board.contains("(new kernel)"));

    let compare = s
        .get(&format!("/compare?id={first_id}&id={second_id}"))
        .text();
    assert!(
        compare.contains(&format!(
            "run {second_id}</a> Radxa ROCK 5B (clock unknown) — started 2026-04-02T10:00:00+00:00, kernel 6.12.1-edge"
        )) || compare.contains("— started 2026-04-02T10:00:00+00:00, kernel 6.12.1-edge"),
        "{compare}"
    );
    assert!(
        compare.contains("2026-03-01"),
        "the chart names runs by day"
    );

    let run = s.get(&format!("/runs/{second_id}")).text();
    assert!(
        run.contains(" (quick)</td>"),
        "the quick run's headline is marked:\n{run}"
    );
    let run = s.get(&format!("/runs/{first_id}")).text();
    assert!(!run.contains(" (quick)</td>"));
}
