//! `boardbench report`: files and database ids in, one self-contained HTML page out; the page
//! opened in headless Chromium (Debian's `chromium` package) loads without console errors, has
//! its charts in the DOM and renders to a non-blank screenshot.
//!
//! The Chromium tests skip when no chromium is installed and under qemu (BOARDBENCH_EMULATED=1).
//! `cargo test -p boardbench --test integration -- --ignored report_html::regenerate_docs_screenshots`
//! rewrites docs/screenshots/*.png (one chart per picture).

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Output;

use document::ResultDocument;
use testsupport::demo;

fn write_doc(dir: &Path, name: &str, doc: &ResultDocument) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, serde_json::to_string_pretty(doc).unwrap()).unwrap();
    p
}

use common::boardbench;

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn report_from_files_with_bars_against_another() {
    let dir = tempfile::tempdir().unwrap();
    let run = write_doc(dir.path(), "run.json", &demo::run_document());
    let other = write_doc(
        dir.path(),
        "other.json",
        &demo::scaled_run("Other board", 1.25),
    );
    let out_html = dir.path().join("report.html");
    let out = boardbench(&[
        "report",
        run.to_str().unwrap(),
        "--html",
        out_html.to_str().unwrap(),
        "--against",
        other.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let html = std::fs::read_to_string(&out_html).unwrap();
    for id in [
        "chart-timeline",
        "chart-opp",
        "chart-memlat",
        "chart-compare",
    ] {
        assert!(html.contains(&format!("id=\"{id}\"")), "{id} missing");
    }
    assert!(
        html.contains("Other board (other)"),
        "others are named device (file)"
    );
    assert!(html.contains("1.25× · 7025 MIPS"));
}

#[test]
fn report_by_run_id_from_the_database() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("results.sqlite");
    let db = db.to_str().unwrap();
    let run = write_doc(dir.path(), "run.json", &demo::run_document());
    let other = write_doc(dir.path(), "b.json", &demo::scaled_run("Board B", 0.8));
    let add = boardbench(&[
        "results",
        "--db",
        db,
        "add",
        run.to_str().unwrap(),
        other.to_str().unwrap(),
    ]);
    assert!(add.status.success(), "{}", text(&add.stderr));
    let out = boardbench(&["report", "1", "--against", "2", "--db", db, "--html", "-"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let html = text(&out.stdout);
    assert!(html.contains("Synthetic RK3399 board"));
    assert!(html.contains("Board B (run 2)"));
    assert!(html.contains("0.8× · 4496 MIPS"));

    let missing = boardbench(&["report", "99", "--db", db, "--html", "-"]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(
        text(&missing.stderr).contains("no run 99"),
        "{}",
        text(&missing.stderr)
    );
}

#[test]
fn bad_inputs_give_one_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let out_html = dir.path().join("r.html");
    let o = out_html.to_str().unwrap();
    let nodb = dir.path().join("none.sqlite");
    let out = boardbench(&["report", "7", "--db", nodb.to_str().unwrap(), "--html", o]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("no results database"),
        "{}",
        text(&out.stderr)
    );
    assert!(!nodb.exists(), "a report never creates a database");

    let out = boardbench(&["report", "no-such-file.json", "--html", o]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("no such file"),
        "{}",
        text(&out.stderr)
    );

    let garbage = dir.path().join("garbage.json");
    std::fs::write(&garbage, "{\"hello\": 1}").unwrap();
    let out = boardbench(&["report", garbage.to_str().unwrap(), "--html", o]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("not a result document"),
        "{}",
        text(&out.stderr)
    );

    let mut future = serde_json::to_value(demo::run_document()).unwrap();
    future["schema_version"] = 99.into();
    let f = dir.path().join("future.json");
    std::fs::write(&f, future.to_string()).unwrap();
    let out = boardbench(&["report", f.to_str().unwrap(), "--html", o]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("newer"), "{}", text(&out.stderr));
    assert!(!out_html.exists());
}

// ---- headless Chromium ----

/// Headless Chromium on the page file (testsupport::chromium::run).
fn chromium_run(bin: &Path, page: &Path, extra: &[String]) -> Output {
    testsupport::chromium::run(bin, &format!("file://{}", page.display()), extra)
}

/// Width and height from a PNG's IHDR chunk.
fn png_size(bytes: &[u8]) -> Option<(u32, u32)> {
    if bytes.len() < 24 || &bytes[..8] != b"\x89PNG\r\n\x1a\n" || &bytes[12..16] != b"IHDR" {
        return None;
    }
    let be = |b: &[u8]| u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
    Some((be(&bytes[16..20]), be(&bytes[20..24])))
}

fn screenshot(bin: &Path, page: &Path, png: &Path, w: u32, h: u32) -> Vec<u8> {
    chromium_run(
        bin,
        page,
        &[
            format!("--screenshot={}", png.display()),
            format!("--window-size={w},{h}"),
        ],
    );
    std::fs::read(png).expect("screenshot written")
}

#[test]
fn chromium_loads_the_report_without_errors_and_draws_the_charts() {
    let Some(bin) = common::chromium() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    // A hostile device name: it must stay text in the browser's DOM.
    let evil = "<script>alert(1)</script>";
    let run = write_doc(dir.path(), "run.json", &demo::run_document_named(evil));
    let other = write_doc(
        dir.path(),
        "other.json",
        &demo::scaled_run("Other board", 1.4),
    );
    let page = dir.path().join("report.html");
    let out = boardbench(&[
        "report",
        run.to_str().unwrap(),
        "--html",
        page.to_str().unwrap(),
        "--against",
        other.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));

    let dom = chromium_run(&bin, &page, &["--dump-dom".into()]);
    let errors = testsupport::chromium::console_errors(&text(&dom.stderr)).join("\n");
    assert!(errors.is_empty(), "console errors:\n{errors}");
    let dom = text(&dom.stdout);
    assert_eq!(
        dom.matches("<svg").count(),
        5,
        "five charts in the DOM (the placement among sbc-bench's published results first)"
    );
    for id in [
        "chart-placement",
        "chart-timeline",
        "chart-opp",
        "chart-memlat",
        "chart-compare",
    ] {
        assert!(dom.contains(id), "{id} not in the DOM");
    }
    assert!(dom.contains("<polyline"), "lines drawn");
    assert!(
        !dom.contains("<script"),
        "the device name did not become a script"
    );
    assert!(dom.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));

    let png = dir.path().join("report.png");
    let shot = screenshot(&bin, &page, &png, 1280, 2400);
    assert_eq!(png_size(&shot), Some((1280, 2400)));
    let blank_page = dir.path().join("blank.html");
    std::fs::write(&blank_page, "<!DOCTYPE html><html><body></body></html>").unwrap();
    let blank = screenshot(&bin, &blank_page, &dir.path().join("blank.png"), 1280, 2400);
    assert_eq!(png_size(&blank), Some((1280, 2400)));
    println!(
        "report screenshot {} bytes, blank page {} bytes",
        shot.len(),
        blank.len()
    );
    // A white page compresses to almost nothing; text, tables and charts do not.
    assert!(
        shot.len() > 10 * blank.len() && shot.len() > 50_000,
        "screenshot looks blank: {} bytes (blank page {} bytes)",
        shot.len(),
        blank.len()
    );
}

#[test]
fn chromium_renders_each_chart_page() {
    let Some(bin) = common::chromium() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let doc = demo::run_document();
    let others = [("Other board".to_string(), demo::scaled_run("Other", 0.7))];
    let pages = report::chart_pages(&doc, &others);
    assert_eq!(pages.len(), 5, "with the placement chart");
    for (id, html) in pages {
        let page = dir.path().join(format!("{id}.html"));
        std::fs::write(&page, html).unwrap();
        let dom = chromium_run(&bin, &page, &["--dump-dom".into()]);
        let errors = testsupport::chromium::console_errors(&text(&dom.stderr)).join("\n");
        assert!(errors.is_empty(), "{id}: console errors:\n{errors}");
        assert_eq!(text(&dom.stdout).matches("<svg").count(), 1, "{id}");
    }
}

/// Sizes of the docs screenshots: the window each chart page is taken at.
const SHOTS: [(&str, u32, u32); 4] = [
    ("timeline", 1000, 720),
    ("opp", 700, 660),
    ("memlat", 860, 600),
    ("compare", 900, 560),
];

#[test]
#[ignore = "rewrites docs/screenshots/*.png; run on purpose"]
fn regenerate_docs_screenshots() {
    let Some(bin) = common::chromium() else {
        return;
    };
    let out_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/screenshots");
    std::fs::create_dir_all(&out_dir).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let doc = demo::run_document();
    let others = [
        (
            "Faster board".to_string(),
            demo::scaled_run("Faster board", 1.6),
        ),
        (
            "Slower board".to_string(),
            demo::scaled_run("Slower board", 0.55),
        ),
    ];
    let imported = {
        let name = "1lzP.txt";
        let p = testsupport::sbc_bench_logs().join(name);
        sbcimport::import_bytes(&std::fs::read(p).unwrap(), name).unwrap()
    };
    let mut pages = report::chart_pages(&doc, &others);
    if let Some((_, p)) = report::chart_pages(&imported, &[])
        .into_iter()
        .find(|(id, _)| *id == "timeline")
    {
        pages.push(("timeline-imported", p));
    }
    for (id, html) in pages {
        let (_, w, h) = SHOTS
            .iter()
            .find(|s| id.starts_with(s.0))
            .copied()
            .unwrap_or((id, 1000, 700));
        let page = dir.path().join(format!("{id}.html"));
        std::fs::write(&page, html).unwrap();
        let png = out_dir.join(format!("{id}.png"));
        let bytes = screenshot(&bin, &page, &png, w, h);
        assert!(bytes.len() < 200_000, "{id}.png is {} bytes", bytes.len());
        println!("{} ({} bytes)", png.display(), bytes.len());
    }
}
