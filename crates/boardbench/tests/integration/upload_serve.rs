//! The client and the service together: `boardbench upload` sends stored runs (imported
//! fixture logs with addresses and serials in them) to a real `boardbench serve` on a free
//! port of 127.0.0.1; the service stores each once, redacted; a second `upload` sends nothing;
//! a revoked token stores nothing. Skipped under qemu (it starts a server).

use crate::common;
use crate::serve_util;

use std::path::Path;

use resultsdb::{Location, Store};
use serve_util::{Server, boardbench, token};

/// Two imported fixture logs, one with a MAC address in its kernel messages.
fn fill(db: &Path) -> usize {
    let dir = testsupport::sbc_bench_logs();
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    names.sort();
    let mut s = Store::open(&Location::Sqlite(db.to_path_buf())).unwrap();
    let mut n = 0;
    let mut with_mac = false;
    for p in names {
        let text = std::fs::read_to_string(&p).unwrap_or_default();
        let mac = text.contains("38:10:d5:62:ff:3c");
        if (n >= 1 && !mac) || (mac && with_mac) {
            continue;
        }
        if let Ok(doc) = sbcimport::import_bytes(text.as_bytes(), &p.display().to_string()) {
            s.add_document(&doc, &[]).unwrap();
            with_mac |= mac;
            n += 1;
        }
        if n == 2 && with_mac {
            break;
        }
    }
    assert!(with_mac, "a fixture log with the MAC address");
    n
}

fn upload(url: &str, local: &Path, tok: &str) -> std::process::Output {
    let db = local.to_str().unwrap();
    common::command()
        .args(["upload", url, "--db", db, "--token", tok, "--tries", "1"])
        .env_remove("BOARDBENCH_TOKEN")
        .output()
        .unwrap()
}

#[test]
fn upload_to_the_real_service_stores_each_run_once_redacted() {
    if serve_util::skip() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let local = dir.path().join("local.sqlite");
    let n = fill(&local);
    let service_db = dir.path().join("service.sqlite");
    let service_db = service_db.to_str().unwrap();
    let tok = token(service_db, "lab-board-1");
    let s = Server::start(service_db, &[]);
    let url = format!("http://{}", s.addr);

    let out = upload(&url, &local, &tok);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let list = s.get("/api/v1/runs").json();
    assert_eq!(list["total"], n as u64, "{list}");
    for r in list["runs"].as_array().unwrap() {
        assert_eq!(r["uploader"], "lab-board-1");
        let doc = s.get(&format!("/api/v1/runs/{}", r["id"])).text();
        assert!(
            !doc.contains("38:10:d5:62:ff:3c"),
            "a MAC address left the board"
        );
        let v: serde_json::Value = serde_json::from_str(&doc).unwrap();
        assert!(
            v.get("redaction").is_some(),
            "the document says what was redacted"
        );
    }

    // Nothing new: nothing sent, nothing stored twice.
    let again = upload(&url, &local, &tok);
    assert!(again.status.success());
    assert_eq!(s.get("/api/v1/runs").json()["total"], n as u64);

    // A revoked token: refused, nothing stored.
    let revoke = boardbench(&[
        "serve",
        "--db",
        service_db,
        "token",
        "revoke",
        "lab-board-1",
    ]);
    assert!(revoke.status.success());
    // (another directory: the upload state lives beside the database)
    let other_dir = dir.path().join("other");
    std::fs::create_dir(&other_dir).unwrap();
    let other = other_dir.join("local.sqlite");
    fill(&other);
    let refused = upload(&url, &other, &tok);
    assert!(!refused.status.success(), "a revoked token must not upload");
    assert_eq!(s.get("/api/v1/runs").json()["total"], n as u64);
}
