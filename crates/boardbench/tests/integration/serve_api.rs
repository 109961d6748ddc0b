//! `boardbench serve` over a real PostgreSQL server (scripts/pg-test-server,
//! BOARDBENCH_TEST_PG_URL), the real binary listening on 127.0.0.1: upload, list, fetch, dedup,
//! tokens (none, wrong, revoked), ownership, malformed and oversized bodies (nothing stored),
//! `kill -9` during uploads (no acknowledged run lost), SIGTERM finishing a request in flight,
//! the access log, read protection, escaping and the security headers. One SQLite test runs
//! without PostgreSQL. Everything skips under qemu (BOARDBENCH_EMULATED).

use crate::serve_util;

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serve_util::{Server, doc, hash, pg_db, token};

fn count(s: &Server) -> i64 {
    s.get("/api/v1/runs?limit=0").json()["total"]
        .as_i64()
        .unwrap()
}

#[test]
fn upload_list_fetch_dedup_and_tokens() {
    let Some(db) = pg_db("api") else { return };
    let alice = token(&db, "alice");
    let bob = token(&db, "bob");
    let carol = token(&db, "carol");
    let out = serve_util::boardbench(&["serve", "--db", &db, "token", "revoke", "carol"]);
    assert!(out.status.success());
    let s = Server::start(&db, &[]);

    let d = doc("Lab board <A&B>", 1);
    let body = serde_json::to_vec_pretty(&d).unwrap();
    let r = s.post("/api/v1/runs", Some(&alice), &body);
    assert_eq!(r.status, 201, "{}", r.text());
    let j = r.json();
    assert_eq!(j["created"], true);
    assert_eq!(j["hash"], hash(&d));
    let id = j["id"].as_i64().unwrap();

    // The same document (other whitespace and key order) is stored once.
    let compact = serde_json::to_vec(&d).unwrap();
    let r = s.post("/api/v1/runs", Some(&alice), &compact);
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["created"], false);
    assert_eq!(r.json()["id"], id);

    // No token, a wrong token, a revoked token: refused, nothing stored.
    let other = serde_json::to_vec(&doc("Other board", 2)).unwrap();
    assert_eq!(s.post("/api/v1/runs", None, &other).status, 401);
    assert_eq!(s.post("/api/v1/runs", Some("bbt_0000"), &other).status, 401);
    let r = s.post("/api/v1/runs", Some(&carol), &other);
    assert_eq!(r.status, 403, "{}", r.text());
    assert!(r.json()["error"].as_str().unwrap().contains("revoked"));
    assert_eq!(count(&s), 1);

    // Bob stores his own run; he cannot delete or tag Alice's.
    let r = s.post("/api/v1/runs?tag=nightly", Some(&bob), &other);
    assert_eq!(r.status, 201, "{}", r.text());
    let bobs = r.json()["id"].as_i64().unwrap();
    assert_eq!(s.delete(&format!("/api/v1/runs/{id}"), &bob).status, 403);
    assert_eq!(
        s.post("/api/v1/runs?tag=mine", Some(&bob), &body).status,
        403
    );
    assert_eq!(count(&s), 2);

    // List with filters and paging.
    let l = s.get("/api/v1/runs?device=lab%20board").json();
    assert_eq!(l["total"], 1);
    assert_eq!(l["runs"][0]["id"], id);
    assert_eq!(l["runs"][0]["uploader"], "alice");
    assert_eq!(l["runs"][0]["hash"], hash(&d));
    assert_eq!(
        s.get("/api/v1/runs?tag=nightly").json()["runs"][0]["id"],
        bobs
    );
    let page = s.get("/api/v1/runs?limit=1&offset=1").json();
    assert_eq!(page["total"], 2);
    assert_eq!(page["runs"].as_array().unwrap().len(), 1);
    assert_eq!(page["runs"][0]["id"], bobs);
    assert_eq!(s.get("/api/v1/runs?since=notadate").status, 400);

    // Fetch: the document as uploaded; the report; the table.
    let back = s.get(&format!("/api/v1/runs/{id}"));
    assert_eq!(back.status, 200);
    assert_eq!(back.json(), d);
    assert_eq!(s.get("/api/v1/runs/999999").status, 404);
    let rep = s.get(&format!("/api/v1/runs/{id}/report"));
    assert_eq!(rep.status, 200);
    assert!(rep.text().contains("Lab board &lt;A&amp;B&gt;"));
    let csv = s.get("/api/v1/table?format=csv&sort=device").text();
    assert!(csv.starts_with("id,Device,"), "{csv}");
    assert_eq!(csv.lines().count(), 3, "{csv}");
    let md = s.get("/api/v1/table?format=md").text();
    assert!(md.starts_with("| Device | Clockspeed |"), "{md}");
    let json = s.get("/api/v1/table").json();
    assert_eq!(json.as_array().unwrap().len(), 2);
    assert_eq!(s.get("/api/v1/table?format=xml").status, 400);
    let api = s.get("/api/v1/openapi.json").json();
    assert_eq!(api["openapi"], "3.1.0");

    // Alice may delete her own run.
    assert_eq!(s.delete(&format!("/api/v1/runs/{id}"), &alice).status, 204);
    assert_eq!(s.get(&format!("/api/v1/runs/{id}")).status, 404);
    assert_eq!(count(&s), 1);

    // token list shows the names, counts and runs (never a token).
    let out = serve_util::boardbench(&["serve", "--db", &db, "token", "list", "--json"]);
    let list: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(list.as_array().unwrap().len(), 3);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains(&alice[4..20]), "no token in the list");
    assert_eq!(list[1]["uploader"], "bob");
    assert_eq!(list[1]["runs"], 1);
    assert_eq!(list[2]["revoked_tokens"], 1);
}

#[test]
fn malformed_and_oversized_uploads_store_nothing() {
    let Some(db) = pg_db("bad") else { return };
    let t = token(&db, "lab");
    let s = Server::start(&db, &["--max-upload", "64K"]);
    let valid = doc("Board", 1);
    let mut big = valid.clone();
    big["producer"] = serde_json::Value::String("x".repeat(100 * 1024));
    let mut wrong_type = valid.clone();
    wrong_type["measurements"] = serde_json::json!("many");
    let mut bad_value = valid.clone();
    bad_value["measurements"][0]["value"] = serde_json::json!("fast");
    let cases: Vec<(&str, Vec<u8>, u16)> = vec![
        ("not JSON", b"{\"schema_version\": 1,".to_vec(), 422),
        ("not UTF-8", b"\xff\xfe{}".to_vec(), 422),
        ("an array", b"[1,2,3]".to_vec(), 422),
        ("no schema_version", b"{\"device\": \"x\"}".to_vec(), 422),
        (
            "measurements not a list",
            serde_json::to_vec(&wrong_type).unwrap(),
            422,
        ),
        (
            "a value not a number",
            serde_json::to_vec(&bad_value).unwrap(),
            422,
        ),
        ("above --max-upload", serde_json::to_vec(&big).unwrap(), 413),
        ("empty", Vec::new(), 422),
    ];
    for (what, body, want) in &cases {
        let r = s.post("/api/v1/runs", Some(&t), body);
        assert_eq!(r.status, *want, "{what}: {}", r.text());
        assert!(r.json()["error"].is_string(), "{what}: {}", r.text());
    }
    assert_eq!(count(&s), 0);
    // Nothing in any table either.
    let mut c = postgres::Client::connect(&db, postgres::NoTls).unwrap();
    for table in ["runs", "documents", "results", "findings", "tags"] {
        let n: i64 = c
            .query_one(&format!("SELECT COUNT(*) FROM {table}"), &[])
            .unwrap()
            .get(0);
        assert_eq!(n, 0, "{table}");
    }
    // The limit is on the body, not on valid documents below it.
    assert_eq!(
        s.post(
            "/api/v1/runs",
            Some(&t),
            &serde_json::to_vec(&valid).unwrap()
        )
        .status,
        201
    );
}

#[test]
fn kill_9_during_uploads_loses_no_acknowledged_run() {
    let Some(db) = pg_db("kill") else { return };
    let t = token(&db, "lab");
    let mut s = Server::start(&db, &[]);
    let acked: Arc<Mutex<Vec<String>>> = Arc::default();
    let stop_at = Instant::now() + Duration::from_secs(20);
    let workers: Vec<_> = (0..4u32)
        .map(|w| {
            let (addr, t, acked) = (s.addr.clone(), t.clone(), Arc::clone(&acked));
            std::thread::spawn(move || {
                for i in 0..10_000u32 {
                    if Instant::now() > stop_at {
                        break;
                    }
                    let d = doc(&format!("board {w}"), i);
                    let body = serde_json::to_vec(&d).unwrap();
                    match serve_util::try_request(&addr, "POST", "/api/v1/runs", Some(&t), &body) {
                        Ok(r) if r.status == 201 || r.status == 200 => {
                            acked.lock().unwrap().push(hash(&d))
                        }
                        Ok(r) => panic!("unexpected answer {}: {}", r.status, r.text()),
                        Err(_) => break, // the server is gone
                    }
                }
            })
        })
        .collect();
    // Let some uploads be acknowledged, then kill the service without warning.
    while acked.lock().unwrap().len() < 20 && Instant::now() < stop_at {
        std::thread::sleep(Duration::from_millis(10));
    }
    s.child.kill().unwrap(); // SIGKILL
    s.child.wait().unwrap();
    for w in workers {
        w.join().unwrap();
    }
    let acked = acked.lock().unwrap().clone();
    assert!(
        acked.len() >= 20,
        "only {} uploads acknowledged",
        acked.len()
    );

    let mut c = postgres::Client::connect(&db, postgres::NoTls).unwrap();
    let stored: std::collections::HashSet<String> = c
        .query("SELECT doc_hash FROM runs", &[])
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    let lost: Vec<&String> = acked.iter().filter(|h| !stored.contains(*h)).collect();
    assert!(lost.is_empty(), "{} acknowledged runs lost", lost.len());
    // Every stored run is whole: its document is there.
    let orphans: i64 = c
        .query_one(
            "SELECT COUNT(*) FROM runs r WHERE NOT EXISTS (SELECT 1 FROM documents d WHERE d.run_id = r.id)",
            &[],
        )
        .unwrap()
        .get(0);
    assert_eq!(orphans, 0);

    // A restarted service serves them.
    let s = Server::start(&db, &[]);
    assert_eq!(count(&s), stored.len() as i64);
}

#[test]
fn sigterm_finishes_the_request_in_flight() {
    let Some(db) = pg_db("term") else { return };
    let t = token(&db, "lab");
    let mut s = Server::start(&db, &[]);
    let body = serde_json::to_vec(&doc("Board", 7)).unwrap();
    let mut conn = std::net::TcpStream::connect(&s.addr).unwrap();
    conn.set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    conn.write_all(serve_util::head("POST", "/api/v1/runs", Some(&t), body.len()).as_bytes())
        .unwrap();
    conn.write_all(&body[..body.len() / 2]).unwrap();
    std::thread::sleep(Duration::from_millis(300));
    serve_util::signal(s.child.id(), "TERM");
    std::thread::sleep(Duration::from_millis(300));
    // The server has not gone while the upload is still arriving …
    assert!(s.child.try_wait().unwrap().is_none());
    conn.write_all(&body[body.len() / 2..]).unwrap();
    // … and answers it, then stops.
    let r = testsupport::http::read_answer(&mut conn).unwrap();
    assert_eq!(r.status, 201, "{}", r.text());
    assert_eq!(
        serve_util::wait_exit(&mut s.child, Duration::from_secs(20)),
        Some(0)
    );
    let log = s.log_text();
    assert!(log.contains("\"event\":\"shutdown\""), "{log}");
    assert!(log.contains("\"event\":\"stopped\""), "{log}");
    // It was stored.
    let mut c = postgres::Client::connect(&db, postgres::NoTls).unwrap();
    let n: i64 = c
        .query_one("SELECT COUNT(*) FROM runs", &[])
        .unwrap()
        .get(0);
    assert_eq!(n, 1);
    // New connections are refused once it has stopped.
    assert!(serve_util::try_request(&s.addr, "GET", "/", None, b"").is_err());
}

#[test]
fn read_token_protects_reading() {
    let Some(db) = pg_db("read") else { return };
    let t = token(&db, "lab");
    let s = Server::start(&db, &["--read-token"]);
    for path in ["/", "/api/v1/runs", "/api/v1/table", "/compare"] {
        let r = s.get(path);
        assert_eq!(r.status, 401, "{path}");
        assert!(
            r.header("www-authenticate")
                .is_some_and(|v| v.starts_with("Bearer")),
            "{path}"
        );
        assert_eq!(s.get_auth(path, &t).status, 200, "{path}");
    }
}

#[test]
fn pages_escape_strings_and_send_a_strict_csp_and_the_log_has_one_line_per_request() {
    let Some(db) = pg_db("pages") else { return };
    let t = token(&db, "lab");
    let mut s = Server::start(&db, &[]);
    let evil = "<script>alert(1)</script>";
    let a = doc(evil, 1);
    let b = doc("Second \"board\"", 2);
    for d in [&a, &b] {
        let r = s.post("/api/v1/runs", Some(&t), &serde_json::to_vec(d).unwrap());
        assert_eq!(r.status, 201);
    }
    for path in [
        "/",
        "/?sort=device&desc=1&device=%3Cscript",
        "/runs/1",
        "/compare?id=1&id=2",
        "/board?device=%3Cscript%3Ealert(1)%3C%2Fscript%3E",
    ] {
        let r = s.get(path);
        assert_eq!(r.status, 200, "{path}: {}", r.text());
        let html = r.text();
        assert!(!html.contains(evil), "{path}: unescaped");
        assert!(
            html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
            "{path}"
        );
        let csp = r.header("content-security-policy").expect("CSP header");
        assert!(csp.starts_with("default-src 'none'"), "{csp}");
        assert!(!csp.contains("unsafe"), "{csp}");
        assert!(!html.contains("<script"), "{path}: no scripts at all");
        assert_eq!(
            r.header("x-content-type-options").as_deref(),
            Some("nosniff")
        );
    }
    let board = s.get("/board?device=Second%20%22board%22").text();
    assert!(
        board.contains("2 runs") || board.contains("1 run"),
        "{board}"
    );
    let cmp = s.get("/compare?ids=1,2").text();
    assert!(cmp.contains("per GHz"), "{cmp}");
    assert!(cmp.contains("×"), "{cmp}");
    assert_eq!(s.get("/compare?id=1&id=99").status, 404);
    assert_eq!(s.get("/board").status, 400);

    assert_eq!(s.terminate(), Some(0));
    let log = s.log_text();
    let lines: Vec<serde_json::Value> = log
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .filter(|v: &serde_json::Value| v.get("method").is_some())
        .collect();
    assert_eq!(lines.len(), 11, "one line per request:\n{log}");
    let upload = &lines[0];
    assert_eq!(upload["method"], "POST");
    assert_eq!(upload["path"], "/api/v1/runs");
    assert_eq!(upload["status"], 201);
    assert_eq!(upload["uploader"], "lab");
    assert!(upload["ms"].as_f64().unwrap() >= 0.0);
}

#[test]
fn sqlite_single_user_instance() {
    if serve_util::skip() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("results.sqlite");
    let db = db.to_str().unwrap();
    let t = token(db, "me");
    let s = Server::start(db, &[]);
    let d = doc("Board", 3);
    let r = s.post("/api/v1/runs", Some(&t), &serde_json::to_vec(&d).unwrap());
    assert_eq!(r.status, 201, "{}", r.text());
    assert_eq!(r.json()["hash"], hash(&d));
    assert_eq!(s.get("/api/v1/runs/1").json(), d);
    assert_eq!(s.get("/").status, 200);
    // The CLI reads the same database.
    let out = serve_util::boardbench(&["results", "--db", db, "list", "--json"]);
    let list: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(list.as_array().unwrap().len(), 1);
}

/// An upload that no boardbench finished (an imported log as an older client sends it: no
/// findings, no `analysis`) is finished by the service: the stored document has its findings.
#[test]
fn an_unfinished_upload_is_finished_by_the_service() {
    if serve_util::skip() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("results.sqlite");
    let db = db.to_str().unwrap();
    let t = token(db, "me");
    let s = Server::start(db, &[]);
    let bytes = std::fs::read(testsupport::sbc_bench_logs().join("8ctH.txt")).unwrap();
    let raw = sbcimport::import_bytes(&bytes, "8ctH.txt").unwrap();
    assert!(raw.findings.is_empty() && raw.analysis.is_none());
    let body = serde_json::to_vec(&raw).unwrap();
    let r = s.post("/api/v1/runs", Some(&t), &body);
    assert_eq!(r.status, 201, "{}", r.text());
    let id = r.json()["id"].as_i64().unwrap();
    let stored = s.get(&format!("/api/v1/runs/{id}")).json();
    assert_eq!(stored["analysis"]["findings_analysed"], true, "{stored}");
    assert!(
        stored["findings"]
            .as_array()
            .is_some_and(|f| f.iter().any(|f| f["kind"] == "throttling")),
        "{}",
        stored["findings"]
    );
    // Everything else as sent.
    let sent: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(stored["imported"], sent["imported"]);
    assert_eq!(stored["measurements"], sent["measurements"]);
}

#[test]
fn corpus_api_and_published_rows_on_the_board_and_compare_pages() {
    if serve_util::skip() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("results.sqlite");
    let db = db.to_str().unwrap();
    // Two imported logs: the Flipper One (RK3576, a "SoC guess" line) and a NanoPi NEO4.
    let logs = testsupport::sbc_bench_logs();
    let out_dir = dir.path().join("docs");
    let a = logs.join("Xd38a.txt");
    let b = logs.join("3GmR.txt");
    let out = serve_util::boardbench(&[
        "import",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--out",
        out_dir.to_str().unwrap(),
        "--no-store",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut files: Vec<String> = std::fs::read_dir(&out_dir)
        .unwrap()
        .map(|e| e.unwrap().path().to_string_lossy().into_owned())
        .collect();
    files.sort();
    let mut args = vec!["results", "--db", db, "add"];
    args.extend(files.iter().map(String::as_str));
    assert!(serve_util::boardbench(&args).status.success());
    let s = Server::start(db, &[]);

    let all = s.get("/api/v1/corpus");
    assert_eq!(all.status, 200, "{}", all.text());
    let j = all.json();
    let entries = j["entries"].as_array().unwrap();
    assert_eq!(j["rows"].as_u64().unwrap() as usize, entries.len());
    assert!(
        j["license"]
            .as_str()
            .unwrap()
            .contains("Copyright (c) 2018, Thomas Kaiser")
    );
    assert!(j["source"].as_str().is_some() && j["date"].as_str().is_some());
    let rk = s.get("/api/v1/corpus?soc=RK3576").json();
    let rk = rk["entries"].as_array().unwrap();
    assert!(!rk.is_empty());
    assert!(rk.iter().all(|e| e["soc"] == "Rockchip RK3576"));

    let runs = s.get("/api/v1/runs").json();
    let flipper = runs["runs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["soc"].as_str().is_some_and(|x| x.contains("RK3576")))
        .expect("the Flipper One's run")
        .clone();
    let device = flipper["device"].as_str().unwrap();
    let board = s.get(&format!("/board?device={}", device.replace(' ', "%20")));
    assert_eq!(board.status, 200, "{}", board.text());
    let page = board.text();
    assert!(page.contains("Published rows of Rockchip RK3576"), "{page}");
    assert!(page.contains("id=\"published-rows\""), "{page}");
    assert!(page.contains("Thomas Kaiser"));
    // The latest run placed among the published results (rank within its class).
    assert!(page.contains("The latest run (run "), "{page}");
    assert!(page.contains(" ARM rows"), "{page}");

    // The service's table export, as the service writes it, is a local layer for
    // `boardbench corpus update`: both runs, kept apart from the published rows.
    let export = s.get("/api/v1/table?format=json");
    assert_eq!(export.status, 200, "{}", export.text());
    let export_file = dir.path().join("table.json");
    std::fs::write(&export_file, export.text()).unwrap();
    let corpus_dir = dir.path().join("corpus");
    let up = serve_util::boardbench(&[
        "corpus",
        "--dir",
        corpus_dir.to_str().unwrap(),
        "update",
        export_file.to_str().unwrap(),
    ]);
    let up_text = String::from_utf8_lossy(&up.stdout);
    assert!(
        up.status.success(),
        "{up_text} {}",
        String::from_utf8_lossy(&up.stderr)
    );
    assert!(up_text.contains("is a results service export"), "{up_text}");
    assert!(up_text.contains("2 added, 0 removed"), "{up_text}");
    let show = serde_json::from_slice::<serde_json::Value>(
        &serve_util::boardbench(&[
            "corpus",
            "--dir",
            corpus_dir.to_str().unwrap(),
            "show",
            "--json",
            "--soc",
            "RK3576",
        ])
        .stdout,
    )
    .unwrap();
    let local = show["local"]["entries"].as_array().unwrap();
    assert_eq!(local.len(), 1, "{show}");
    assert_eq!(local[0]["soc"], "Rockchip RK3576");
    assert_eq!(local[0]["class"], "Arm");

    // The run page places the run once: the report's chart and one line per figure, no
    // second list (issue 48).
    let id = flipper["id"].as_i64().unwrap();
    let run = s.get(&format!("/runs/{id}"));
    assert_eq!(run.status, 200, "{}", run.text());
    let page = run.text();
    assert!(!page.contains("id=\"corpus\""), "{page}");
    assert_eq!(page.matches("Among sbc-bench").count(), 1, "{page}");
    assert!(page.contains("7-Zip multi"), "{page}");
    assert!(page.contains(" ARM rows"), "{page}");
    assert!(page.contains("Rockchip RK3576"), "{page}");
    assert!(page.contains("BSD-3-Clause"), "{page}");
    assert!(page.contains("Among sbc-bench"), "{page}");

    let cmp = s.get("/compare?ids=1,2");
    assert_eq!(cmp.status, 200, "{}", cmp.text());
    let page = cmp.text();
    assert!(
        page.contains("Against sbc-bench&#39;s published results")
            || page.contains("Against sbc-bench's published results"),
        "{page}"
    );
    assert!(page.contains("7-Zip multi"));
    assert!(page.contains("BSD-3-Clause"));
}
