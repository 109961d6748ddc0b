//! The service's pages in headless Chromium (Debian's `chromium`): a service filled with
//! imported sbc-bench logs (the shared fixture logs, through `boardbench import` and the upload
//! API) serves the table, a run page, the compare page and a board page without console errors
//! (a CSP violation is one) and with their charts in the DOM. Skips under qemu
//! (BOARDBENCH_EMULATED=1) and without chromium. Uses PostgreSQL when BOARDBENCH_TEST_PG_URL is
//! set, a SQLite file otherwise.
//!
//! `cargo test -p boardbench --test serve_pages -- --ignored regenerate_serve_screenshots`
//! rewrites docs/screenshots/serve-*.png.

mod serve_util;

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
    let logs =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/fixtures/sbc-bench-logs");
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
    (s, dir)
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
    let Some(bin) = testsupport::chromium::find() else {
        return;
    };
    let (s, _dir) = filled_service("chromium");
    let base = format!("http://{}", s.addr);

    let table = dom(&bin, &format!("{base}/?sort=7zip-multi&desc=1"));
    assert!(table.contains("id=\"results\""), "{table}");
    assert_eq!(
        table.matches("type=\"checkbox\" name=\"id\"").count(),
        LOGS.len()
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

#[test]
#[ignore = "rewrites docs/screenshots/serve-*.png; run on purpose"]
fn regenerate_serve_screenshots() {
    let Some(bin) = testsupport::chromium::find() else {
        return;
    };
    let (s, _dir) = filled_service("shots");
    let base = format!("http://{}", s.addr);
    let out_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/screenshots");
    std::fs::create_dir_all(&out_dir).unwrap();
    for (name, path, w, h) in [
        (
            "serve-table",
            "/?sort=7zip-multi&desc=1".to_string(),
            1100,
            560,
        ),
        (
            "serve-compare",
            "/compare?id=1&id=2&id=3".to_string(),
            1000,
            900,
        ),
    ] {
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
