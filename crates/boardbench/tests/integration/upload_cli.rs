//! `boardbench upload` against the stand-in results service on 127.0.0.1 (the `upload` crate's
//! `testing` module, which follows the API contract): runs from the database and from files,
//! redacted and schema-valid; what was acknowledged is not sent again; offline now, online
//! later: nothing lost, nothing sent twice; token and document refusals. Network tests: skipped
//! under qemu (BOARDBENCH_EMULATED). Every upload here uses one try or no wait between tries.

use crate::common;

use std::path::PathBuf;
use std::process::Output;

use document::ResultDocument;
use resultsdb::{Location, Store};
use upload::testing::{Scripted, TestService};

/// Three documents: one with MAC and IP addresses in its kernel messages, one with USB serial
/// numbers and a MAC, one plain.
fn documents() -> Vec<ResultDocument> {
    vec![
        common::fixture_log(|t| t.contains("[UFW BLOCK]")),
        common::fixture_log(|t| t.contains("SerialNumber: 00000000000179")),
        common::fixture_log(|t| {
            !t.contains("SerialNumber") && !t.contains("UFW") && t.contains("7-Zip")
        }),
    ]
}

const SECRETS: &[&str] = &[
    "38:10:d5:62:ff:3c",
    "192.168.178.1",
    "fe80:0000:0000:0000:3a10:d5ff:fe62:ff3c",
    "00:0e:c6:7c:3f:3c",
    "00000000000179",
];

struct Bench {
    dir: tempfile::TempDir,
}

impl Bench {
    fn new(docs: &[ResultDocument]) -> Bench {
        let dir = tempfile::tempdir().unwrap();
        let mut s = Store::open(&Location::Sqlite(dir.path().join("results.sqlite"))).unwrap();
        for d in docs {
            s.add_document(d, &[]).unwrap();
        }
        Bench { dir }
    }

    fn db(&self) -> PathBuf {
        self.dir.path().join("results.sqlite")
    }

    fn add(&self, doc: &ResultDocument) {
        let mut s = Store::open(&Location::Sqlite(self.db())).unwrap();
        s.add_document(doc, &[]).unwrap();
    }

    fn upload(&self, url: &str, extra: &[&str]) -> Output {
        let mut c = common::boardbench_cmd().unwrap();
        c.env_remove("BOARDBENCH_TOKEN")
            .env_remove("BOARDBENCH_UPLOAD_STATE")
            .env_remove("BOARDBENCH_DB")
            .arg("upload")
            .arg(url)
            .arg("--db")
            .arg(self.db())
            .args(["--retry-delay", "0", "--tries", "2", "--timeout", "10"])
            .args(extra);
        c.output().unwrap()
    }

    fn state(&self) -> serde_json::Value {
        let p = self.dir.path().join("uploads.json");
        serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
    }
}

fn text(o: &Output) -> String {
    format!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn posts(s: &TestService) -> usize {
    s.requests().iter().filter(|r| r.method == "POST").count()
}

#[test]
fn stored_runs_are_sent_redacted_once() {
    if common::host_only() {
        return;
    }
    let docs = documents();
    let b = Bench::new(&docs[..2]);
    let s = TestService::start(&["tok"]);
    let o = b.upload(&s.url, &["--token", "tok"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("run 1 (") && out.contains("stored as run 1"),
        "{out}"
    );
    assert!(out.contains("2 new, 0 stored already"), "{out}");
    // The stand-in's hash is the contract's: no warning about a changed document.
    assert!(
        !String::from_utf8_lossy(&o.stderr).contains("hash"),
        "{}",
        text(&o)
    );
    let stored = s.stored();
    assert_eq!(stored.len(), 2);
    for (_, doc) in &stored {
        common::assert_valid_document(doc);
        let json = doc.to_string();
        for secret in SECRETS {
            assert!(!json.contains(secret), "{secret} left the machine");
        }
        assert_eq!(doc["redaction"]["mode"], "hashed");
    }
    let kinds: Vec<&str> = stored[0].1["redaction"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["kind"].as_str().unwrap())
        .collect();
    assert!(
        kinds.contains(&"mac") && kinds.contains(&"ipv4"),
        "{kinds:?}"
    );
    // The state beside the database knows both, with the service's ids.
    let st = b.state();
    assert_eq!(
        st["services"][&s.url]["acknowledged"]
            .as_object()
            .unwrap()
            .len(),
        2
    );

    // Again: nothing is sent.
    let o = b.upload(&s.url, &["--token", "tok"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("0 new, 0 stored already, 2 sent before"));
    assert_eq!(posts(&s), 2);

    // A new run: only it is sent. The same run named explicitly: "sent before".
    b.add(&docs[2]);
    let o = b.upload(&format!("{}/api/v1", s.url), &["--token", "tok"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("1 new"),
        "{}",
        text(&o)
    );
    assert_eq!(posts(&s), 3);
    let o = b.upload(&s.url, &["--token", "tok", "2"]);
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("run 2: sent before"),
        "{}",
        text(&o)
    );
    assert_eq!(posts(&s), 3);

    // --force sends it again and the service answers "stored already" (same redacted hash);
    // the same run twice on one command line (by id and as a file) is sent once.
    let file = b.dir.path().join("run2.json");
    std::fs::write(&file, serde_json::to_string(&docs[1]).unwrap()).unwrap();
    let o = b.upload(
        &s.url,
        &["--token", "tok", "--force", "2", file.to_str().unwrap()],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("run2.json: the same run as one above"),
        "{}",
        text(&o)
    );
    assert_eq!(posts(&s), 4);
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("stored already as run 2"),
        "{}",
        text(&o)
    );
    assert_eq!(s.stored().len(), 3);
}

#[test]
fn offline_now_online_later_loses_nothing_and_sends_nothing_twice() {
    if common::host_only() {
        return;
    }
    let docs = documents();
    let b = Bench::new(&docs);
    // A port nobody listens on yet.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("http://127.0.0.1:{port}");
    // Offline.
    let o = b.upload(&url, &["--token", "tok"]);
    assert_eq!(o.status.code(), Some(75), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("0 new") && out.contains("3 not sent"), "{out}");
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("tried again"),
        "{}",
        text(&o)
    );
    // Online, but the service fails (5xx on both tries) after the first run.
    let s = TestService::start_at(port, &["tok"]);
    let o = b.upload(&url, &["--token", "tok", "1"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    s.script([
        Scripted::Status(503, r#"{"error":"restarting"}"#.into()),
        Scripted::Status(503, r#"{"error":"restarting"}"#.into()),
    ]);
    let o = b.upload(&url, &["--token", "tok"]);
    assert_eq!(o.status.code(), Some(75), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("1 sent before; 2 not sent"),
        "{}",
        text(&o)
    );
    // Back: the rest goes, exactly once each.
    let o = b.upload(&url, &["--token", "tok"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("2 new, 0 stored already, 1 sent before"));
    assert_eq!(s.stored().len(), 3);
    let mut hashes: Vec<String> = s
        .requests()
        .iter()
        .filter(|r| r.method == "POST")
        .map(|r| upload::document_hash(&serde_json::from_slice(&r.body).unwrap()))
        .collect();
    assert_eq!(hashes.len(), 5, "1 + 2 refused by 503 + 2");
    hashes.sort();
    hashes.dedup();
    assert_eq!(hashes.len(), 3);
}

#[test]
fn tokens_and_documents_the_service_refuses() {
    if common::host_only() {
        return;
    }
    let docs = documents();
    let b = Bench::new(&docs[..2]);
    let s = TestService::start(&["tok"]);
    // No token at all: nothing is sent.
    let o = b.upload(&s.url, &[]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("no token"),
        "{}",
        text(&o)
    );
    assert_eq!(posts(&s), 0);
    // A wrong token: one request, no retry, nothing more sent, nothing remembered.
    let o = b.upload(&s.url, &["--token", "nope"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(String::from_utf8_lossy(&o.stderr).contains("refused the token (HTTP 401)"));
    assert_eq!(posts(&s), 1);
    // A revoked token, from BOARDBENCH_TOKEN.
    s.revoke("tok");
    let o = {
        let mut c = common::boardbench_cmd().unwrap();
        c.env("BOARDBENCH_TOKEN", "tok")
            .args(["upload", &s.url, "--db"])
            .arg(b.db())
            .args(["--tries", "1"]);
        c.output().unwrap()
    };
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("HTTP 403"),
        "{}",
        text(&o)
    );
    assert_eq!(posts(&s), 2);
    // One document refused (422): the other is still sent; exit 1 says a person must look.
    let s = TestService::start(&["tok"]);
    s.script([Scripted::Status(
        422,
        r#"{"error":"schema: bad field"}"#.into(),
    )]);
    let token_file = b.dir.path().join("token");
    std::fs::write(&token_file, "tok\n").unwrap();
    let o = b.upload(&s.url, &["--token-file", token_file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(String::from_utf8_lossy(&o.stderr).contains("HTTP 422): schema: bad field"));
    assert!(String::from_utf8_lossy(&o.stdout).contains("1 new, 0 stored already, 1 refused"));
    assert_eq!(posts(&s), 2, "a 4xx is not retried");

    // A malformed file and a missing one among the files named: said, skipped, and the good
    // documents are still sent (exit 1: a person must look).
    let s = TestService::start(&["tok"]);
    let good = b.dir.path().join("good.json");
    std::fs::write(&good, serde_json::to_vec(&docs[0]).unwrap()).unwrap();
    let bad = b.dir.path().join("bad.json");
    std::fs::write(&bad, b"{\"schema_version\": ").unwrap();
    let missing = b.dir.path().join("missing.json");
    let o = b.upload(
        &s.url,
        &[
            "--token",
            "tok",
            bad.to_str().unwrap(),
            missing.to_str().unwrap(),
            good.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("bad.json") && err.contains("missing.json"),
        "{err}"
    );
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("1 new, 0 stored already, 2 unreadable"),
        "{}",
        text(&o)
    );
    assert_eq!(posts(&s), 1);
}

#[test]
fn files_dry_run_kept_identifiers_and_this_machines_host_name() {
    if common::host_only() {
        return;
    }
    let mut doc = documents().remove(0);
    doc.imported
        .as_mut()
        .unwrap()
        .kmsg
        .push("[ 1.0] benchbox-42 systemd[1]: Hostname set to <benchbox-42>.".into());
    let b = Bench::new(&[]);
    let file = b.dir.path().join("run.json");
    std::fs::write(&file, serde_json::to_string(&doc).unwrap()).unwrap();
    let root = b.dir.path().join("root");
    std::fs::create_dir_all(root.join("proc/sys/kernel")).unwrap();
    std::fs::write(root.join("proc/sys/kernel/hostname"), "benchbox-42\n").unwrap();
    let s = TestService::start(&["tok"]);
    let save = b.dir.path().join("sent");
    let f = file.to_str().unwrap();
    let sysroot = root.to_str().unwrap();
    // Dry run: no token needed, nothing sent, the documents saved for a look.
    let o = b.upload(
        &s.url,
        &[
            "--sysroot",
            sysroot,
            "--dry-run",
            "--save",
            save.to_str().unwrap(),
            f,
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("run.json (") && out.contains("would send"),
        "{out}"
    );
    assert!(out.contains("hostname") && out.contains("mac"), "{out}");
    assert_eq!(posts(&s), 0);
    let saved = std::fs::read_to_string(save.join("run.json")).unwrap();
    assert!(!saved.contains("benchbox-42") && !saved.contains("38:10:d5:62:ff:3c"));
    // Sent as saved.
    let o = b.upload(&s.url, &["--sysroot", sysroot, "--token", "tok", f]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let (_, sent) = &s.stored()[0];
    assert_eq!(
        sent,
        &serde_json::from_str::<serde_json::Value>(&saved).unwrap()
    );
    // --keep-identifiers: as it is, and the document says so.
    let s = TestService::start(&["tok"]);
    let o = b.upload(&s.url, &["--token", "tok", "--keep-identifiers", f]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let (_, sent) = &s.stored()[0];
    assert!(sent.to_string().contains("38:10:d5:62:ff:3c"));
    assert_eq!(sent["redaction"]["mode"], "kept");
    common::assert_valid_document(sent);
}
