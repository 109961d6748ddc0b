//! `boardbench serve` against hostile clients and large data (issue 48): compares of large runs
//! answer while `/healthz` stays fast; strings PostgreSQL cannot index, out-of-range start times
//! and documents of too many values are refused with 422 on both databases alike (and
//! `boardbench upload` goes on after one); `since=` without seconds; the guide is not emptied by
//! look-alike documents; a trickled body gets 408; one address cannot take every connection; a
//! closed stderr loses the log, not the answers; with `--read-token` no shared cache keeps an
//! answer. Every storage test runs on SQLite and (with BOARDBENCH_TEST_PG_URL) on PostgreSQL;
//! everything is bounded in time and skips under qemu.

use crate::serve_util;

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use serve_util::{Server, doc, pg_db, token};

/// The databases a storage test runs on: a SQLite file in `dir`, and PostgreSQL when the test
/// server is there.
fn databases(dir: &tempfile::TempDir, name: &str) -> Vec<String> {
    let mut out = vec![dir.path().join("runs.sqlite").display().to_string()];
    out.extend(pg_db(name));
    out
}

/// A valid document of `n` measurements (distinct tests), unique by `seed`.
fn large_doc(seed: u32, n: usize) -> serde_json::Value {
    let mut d = doc("Large Board", seed);
    let m = d["measurements"][0].clone();
    let rows: Vec<serde_json::Value> = (0..n)
        .map(|i| {
            let mut r = m.clone();
            r["suite"] = "synthetic".into();
            r["test"] = format!("t{}", (i + seed as usize * 7919) % n).into();
            r["value"] = (1000.0 + i as f64).into();
            r
        })
        .collect();
    d["measurements"] = rows.into();
    d
}

#[test]
fn compares_of_large_runs_answer_and_health_stays_fast() {
    if serve_util::skip() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for db in databases(&dir, "hostile_compare") {
        let tok = token(&db, "alice");
        let s = Server::start(&db, &["--max-upload", "16MiB"]);
        let ids: Vec<String> = (1..=3)
            .map(|i| {
                let r = s.post(
                    "/api/v1/runs",
                    Some(&tok),
                    large_doc(i, 20_000).to_string().as_bytes(),
                );
                assert_eq!(r.status, 201, "{}", r.text());
                r.json()["id"].to_string()
            })
            .collect();
        let path = format!("/compare?ids={}", ids.join(","));
        let addr = s.addr.clone();
        let compares: Vec<_> = (0..2)
            .map(|_| {
                let (addr, path) = (addr.clone(), path.clone());
                std::thread::spawn(move || {
                    let t = Instant::now();
                    let r = serve_util::request(&addr, "GET", &path, None, b"");
                    (r.status, t.elapsed())
                })
            })
            .collect();
        // While they run, /healthz answers at once (the compares are off the async workers).
        let mut worst = Duration::ZERO;
        let start = Instant::now();
        while compares.iter().any(|c| !c.is_finished()) && start.elapsed() < Duration::from_secs(40)
        {
            let t = Instant::now();
            assert_eq!(s.get("/healthz").status, 200);
            worst = worst.max(t.elapsed());
            std::thread::sleep(Duration::from_millis(50));
        }
        for c in compares {
            let (status, took) = c.join().unwrap();
            assert_eq!(status, 200, "{db}");
            assert!(took < Duration::from_secs(30), "a compare took {took:?}");
        }
        assert!(worst < Duration::from_secs(1), "/healthz waited {worst:?}");
    }
}

#[test]
fn documents_of_too_many_values_are_refused_before_they_are_built() {
    if serve_util::skip() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("runs.sqlite").display().to_string();
    let tok = token(&db, "alice");
    let s = Server::start(&db, &["--max-upload", "16MiB"]);
    // 700,000 unknown fields one level down (accepted and stored before).
    let mut d = doc("Many Fields", 1);
    let extra: serde_json::Map<String, serde_json::Value> = (0..700_000)
        .map(|i| (format!("f{i}"), serde_json::Value::from(0)))
        .collect();
    d["measurements"][0]["x"] = extra.into();
    let r = s.post("/api/v1/runs", Some(&tok), d.to_string().as_bytes());
    assert_eq!(r.status, 422, "{}", r.text());
    assert!(r.json()["error"].as_str().unwrap().contains("JSON values"));
}

#[test]
fn strings_postgresql_cannot_index_are_refused_alike_and_upload_goes_on() {
    if serve_util::skip() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for db in databases(&dir, "hostile_index") {
        let tok = token(&db, "alice");
        let s = Server::start(&db, &[]);
        let long = "x".repeat(3000);
        let mut by_device = doc("Board", 1);
        by_device["device"] = long.clone().into();
        let mut by_test = doc("Board", 2);
        by_test["measurements"][0]["test"] = long.clone().into();
        let mut by_kind = doc("Board", 3);
        by_kind["findings"] = serde_json::json!([{
            "kind": long, "severity": "info", "message": "m"
        }]);
        for (d, names) in [
            (&by_device, "device"),
            (&by_test, "/measurements/0/test"),
            (&by_kind, "/findings/0/kind"),
        ] {
            let r = s.post("/api/v1/runs", Some(&tok), d.to_string().as_bytes());
            assert_eq!(r.status, 422, "{db}: {}", r.text());
            let e = r.json()["error"].as_str().unwrap().to_string();
            assert!(e.contains(names) && e.contains("512 bytes"), "{e}");
        }
        // `boardbench upload` says why and sends the next run of the batch.
        let bad = dir.path().join("bad.json");
        let good = dir.path().join("good.json");
        std::fs::write(&bad, by_test.to_string()).unwrap();
        std::fs::write(&good, doc("Board", 4).to_string()).unwrap();
        let state = dir.path().join(format!("state-{}.json", db.len()));
        let out = serve_util::boardbench(&[
            "upload",
            &format!("http://{}", s.addr),
            bad.to_str().unwrap(),
            good.to_str().unwrap(),
            "--token",
            &tok,
            "--state",
            state.to_str().unwrap(),
            "--tries",
            "2",
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(
            err.contains("HTTP 422") && err.contains("512 bytes"),
            "{err}"
        );
        assert!(!err.contains("not sent"), "{err}");
        let list = s.get("/api/v1/runs");
        assert_eq!(list.json()["total"], 1, "{}", list.text());
    }
}

#[test]
fn start_times_out_of_range_are_refused_alike_and_filters_keep_answering() {
    if serve_util::skip() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for db in databases(&dir, "hostile_dates") {
        let tok = token(&db, "alice");
        let s = Server::start(&db, &[]);
        for (n, started) in [
            (1, "0000-01-01T00:00:00Z"),
            (2, "2026-11-24T10:00:00+23:59"),
            (3, "2026-02-30T10:00:00Z"),
        ] {
            let mut d = doc("Board", n);
            d["started"] = started.into();
            let r = s.post("/api/v1/runs", Some(&tok), d.to_string().as_bytes());
            assert_eq!(r.status, 422, "{db} {started}: {}", r.text());
            assert!(r.text().contains("/started"), "{}", r.text());
        }
        let mut d = doc("Board", 4);
        d["started"] = "2026-11-24T15:21:07-04:00".into();
        let r = s.post("/api/v1/runs", Some(&tok), d.to_string().as_bytes());
        assert_eq!(r.status, 201, "{}", r.text());
        for (q, want) in [
            ("since=2026-11-24T19:00Z", 1),
            ("since=2026-11-24T19:30Z", 0),
            ("since=2026-11-24T19:00", 1),
            ("until=2026-11-24", 1),
        ] {
            let r = s.get(&format!("/api/v1/runs?{q}"));
            assert_eq!(r.status, 200, "{db} {q}: {}", r.text());
            assert_eq!(r.json()["total"], want, "{db} {q}");
        }
        assert_eq!(s.get("/?since=2026-11-01&until=2026-12-01").status, 200);
        assert_eq!(s.get("/api/v1/runs?since=0000-01-01T00:00Z").status, 400);
    }
}

#[test]
fn look_alike_documents_do_not_empty_the_guide() {
    if serve_util::skip() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for db in databases(&dir, "hostile_guide") {
        let tok = token(&db, "alice");
        let s = Server::start(&db, &[]);
        let mut real = doc("Guide Board", 1);
        real["guide"] = serde_json::json!({"sections": [{
            "name": "stream", "title": "Stream", "status": "done",
            "tables": [{"title": "Stream", "key_header": "Benchmarks", "columns": ["perf"],
                "rows": [{"key": "copy (MB/s)", "cells": [{"value": 100.0, "samples": 1}]}]}]}]});
        let r = s.post("/api/v1/runs", Some(&tok), real.to_string().as_bytes());
        assert_eq!(r.status, 201, "{}", r.text());
        // More look-alikes than the guide reads (500 runs; a nested "guide":{} in a measurement).
        for n in 0..501 {
            let mut d = doc("Other", 10 + n);
            d["measurements"][0]["x"] = serde_json::json!({"guide": {}});
            let r = s.post("/api/v1/runs", Some(&tok), d.to_string().as_bytes());
            assert_eq!(r.status, 201, "{}", r.text());
        }
        let g = s.get("/api/v1/guide");
        assert_eq!(g.status, 200, "{}", g.text());
        assert_eq!(g.json()["runs"], 1, "{db}: {}", g.text());
        assert_eq!(g.json()["truncated"], false);
    }
}

#[test]
fn a_trickled_body_is_answered_408_at_the_deadline() {
    if serve_util::skip() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("runs.sqlite").display().to_string();
    let tok = token(&db, "alice");
    let s = Server::start(&db, &["--body-timeout", "2"]);
    let mut slow = TcpStream::connect(&s.addr).unwrap();
    slow.write_all(
        format!(
            "POST /api/v1/runs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {tok}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\nConnection: close\r\n\r\n"
        )
        .as_bytes(),
    )
    .unwrap();
    let start = Instant::now();
    // A byte every 0.5 s: each within tower-http's per-frame time-out, never the whole body.
    let writer = slow.try_clone().unwrap();
    let trickle = std::thread::spawn(move || {
        let mut w = writer;
        for _ in 0..20 {
            if w.write_all(b" ").is_err() {
                break;
            }
            std::thread::sleep(Duration::from_millis(500));
        }
    });
    slow.set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let r = testsupport::http::read_answer(&mut slow).expect("an answer");
    assert!(
        start.elapsed() < Duration::from_secs(6),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(r.status, 408, "{}", r.text());
    drop(slow);
    let _ = trickle.join();
}

/// A connection to `addr` from the loopback address `from` (any of 127.0.0.0/8 on Linux).
fn connect_from(from: &str, addr: &str) -> TcpStream {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let from: std::net::IpAddr = from.parse().unwrap();
    let to: std::net::SocketAddr = addr.parse().unwrap();
    let s = rt.block_on(async {
        let sock = tokio::net::TcpSocket::new_v4().unwrap();
        sock.bind(std::net::SocketAddr::new(from, 0)).unwrap();
        sock.connect(to).await.unwrap()
    });
    let s = s.into_std().unwrap();
    s.set_nonblocking(false).unwrap();
    s
}

#[test]
fn one_address_cannot_take_every_connection() {
    if serve_util::skip() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("runs.sqlite").display().to_string();
    let s = Server::start(
        &db,
        &[
            "--max-connections",
            "12",
            "--max-connections-per-address",
            "4",
            "--header-timeout",
            "30",
        ],
    );
    // Slowloris from one address: more than the whole cap.
    let held: Vec<TcpStream> = (0..16)
        .map(|_| {
            let mut c = connect_from("127.0.0.2", &s.addr);
            let _ = c.write_all(b"GET /api/v1/ru");
            c
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    for _ in 0..20 {
        assert_eq!(s.get("/healthz").status, 200);
    }
    drop(held);
}

#[test]
fn a_closed_stderr_loses_the_log_not_the_answers() {
    if serve_util::skip() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("runs.sqlite").display().to_string();
    testsupport::cli::service_binary(env!("CARGO_BIN_EXE_boardbench"));
    let mut child = crate::common::command()
        .args(["serve", "--db", &db, "--listen", "127.0.0.1:0"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut first = String::new();
    err.read_line(&mut first).unwrap();
    let v: serde_json::Value = serde_json::from_str(&first).unwrap();
    let addr = v["addr"].as_str().unwrap().to_string();
    // As `… 2>&1 | head -n 1`: the reader is gone.
    drop(err);
    for _ in 0..5 {
        let r = serve_util::request(&addr, "GET", "/healthz", None, b"");
        assert_eq!(r.status, 200);
        assert_eq!(
            serve_util::request(&addr, "GET", "/api/v1/runs", None, b"").status,
            200
        );
    }
    let _ = child.kill();
    let _ = child.wait();
}

#[test]
fn protected_answers_are_private_and_schema_errors_short() {
    if serve_util::skip() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("runs.sqlite").display().to_string();
    let tok = token(&db, "alice");
    let s = Server::start(&db, &["--read-token"]);
    for path in ["/", "/api/v1/runs", "/guide"] {
        let r = s.get_auth(path, &tok);
        assert_eq!(r.status, 200, "{path}");
        let h = r.headers.to_ascii_lowercase();
        assert!(
            h.contains("cache-control: private, no-store"),
            "{path}: {h}"
        );
        assert!(h.contains("vary: authorization"), "{path}: {h}");
    }
    // A large wrong value where an optional object belongs (anyOf): the answer stays short.
    let mut d = doc("Board", 1);
    d["machine"] = serde_json::json!(vec!["x".repeat(100); 200]);
    let r = s.post("/api/v1/runs", Some(&tok), d.to_string().as_bytes());
    assert_eq!(r.status, 422, "{}", r.text());
    assert!(r.body.len() < 4096, "{} bytes", r.body.len());
    assert!(r.text().contains("/machine"), "{}", r.text());
}

#[test]
fn a_password_in_a_url_parameter_stays_out_of_the_log() {
    let Some(db) = pg_db("hostile_password") else {
        return;
    };
    let url = format!("{db}?password=sekrit-word");
    let mut s = Server::start(&url, &[]);
    assert_eq!(s.get("/healthz").status, 200);
    let log = s.log_text();
    assert!(log.contains("password=***"), "{log}");
    assert!(!log.contains("sekrit"), "{log}");
}
