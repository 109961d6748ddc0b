//! `boardbench share [RUN]` and `run --share` against a paste server started here on 127.0.0.1
//! that speaks 0x0.st's form API (multipart `file=`, the link as the answer): the latest run's
//! log sent redacted once, the link with the summary row; `--dry-run` sends nothing; a refusal
//! ("User agent not allowed.") and an unreachable service are one line with the local log and
//! exit 75; no such run, an empty or missing database. Every request and child is bounded in
//! time. Network tests: skipped under qemu (BOARDBENCH_EMULATED).

use crate::common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use document::ResultDocument;
use resultsdb::{Location, Store};

/// One request the paste server received.
#[derive(Debug, Clone)]
struct Received {
    user_agent: String,
    content_type: String,
    body: Vec<u8>,
}

/// A paste server answering every POST with `status` and `answer` (`{url}` is its own root).
struct PasteServer {
    url: String,
    received: Arc<Mutex<Vec<Received>>>,
}

impl PasteServer {
    fn start(status: u16, answer: &'static str) -> PasteServer {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let received = Arc::new(Mutex::new(Vec::new()));
        let (shared, root) = (received.clone(), url.clone());
        std::thread::spawn(move || {
            for conn in listener.incoming() {
                let Ok(mut conn) = conn else { continue };
                let _ = conn.set_read_timeout(Some(Duration::from_secs(10)));
                let mut reader = BufReader::new(conn.try_clone().unwrap());
                let (mut length, mut ua, mut ct) = (0usize, String::new(), String::new());
                let mut line = String::new();
                loop {
                    line.clear();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 {
                        break;
                    }
                    let l = line.trim_end();
                    if l.is_empty() {
                        break;
                    }
                    if let Some((k, v)) = l.split_once(':') {
                        match k.trim().to_ascii_lowercase().as_str() {
                            "content-length" => length = v.trim().parse().unwrap_or(0),
                            "user-agent" => ua = v.trim().to_string(),
                            "content-type" => ct = v.trim().to_string(),
                            _ => {}
                        }
                    }
                }
                let mut body = vec![0; length];
                if reader.read_exact(&mut body).is_err() {
                    continue;
                }
                shared.lock().unwrap().push(Received {
                    user_agent: ua,
                    content_type: ct,
                    body,
                });
                let text = answer.replace("{url}", &root);
                let _ = write!(
                    conn,
                    "HTTP/1.1 {status} X\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{text}",
                    text.len()
                );
            }
        });
        PasteServer { url, received }
    }

    fn received(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }
}

/// The text of the form's `file` part.
fn file_part(r: &Received) -> String {
    let boundary = r
        .content_type
        .strip_prefix("multipart/form-data; boundary=")
        .unwrap_or_else(|| panic!("not a form: {}", r.content_type));
    let body = String::from_utf8(r.body.clone()).unwrap();
    let parts: Vec<&str> = body.split(&format!("--{boundary}")).collect();
    assert_eq!(parts.len(), 3, "one part: {body}");
    let (head, text) = parts[1].split_once("\r\n\r\n").unwrap();
    assert!(head.contains("name=\"file\""), "{head}");
    text.strip_suffix("\r\n").unwrap().to_string()
}

/// Identifiers in the fixture logs below (MAC and IP addresses of a firewall's kernel lines,
/// USB serial numbers).
const SECRETS: &[&str] = &[
    "38:10:d5:62:ff:3c",
    "192.168.178.1",
    "00:0e:c6:7c:3f:3c",
    "00000000000179",
];

/// A run document whose kernel-message window holds the real kernel lines of fixture logs with
/// MAC and IP addresses (a firewall's) and USB serial numbers: its log carries all of them.
fn run_with_identifiers() -> ResultDocument {
    let mut lines = Vec::new();
    for marker in ["[UFW BLOCK]", "SerialNumber: 00000000000179"] {
        let doc = common::fixture_log(|t| t.contains(marker));
        let imported = doc.imported.expect("an imported log");
        lines.extend(
            imported
                .kmsg
                .iter()
                .filter(|l| SECRETS.iter().any(|s| l.contains(s)))
                .take(20)
                .cloned(),
        );
    }
    let mut doc = testsupport::demo::run_document();
    let run = doc.run.as_mut().unwrap();
    run.kmsg = Some(document::run::KmsgWindow {
        source: "/dev/kmsg".into(),
        lines: lines
            .into_iter()
            .enumerate()
            .map(|(i, text)| document::run::KmsgLine {
                seconds: 100.0 + i as f64,
                level: None,
                text,
            })
            .collect(),
        note: None,
    });
    let log = textout::log(&doc);
    for s in SECRETS {
        assert!(log.contains(s), "the unredacted log has {s}");
    }
    doc
}

fn db_with(dir: &Path, docs: &[ResultDocument]) -> PathBuf {
    let db = dir.join("results.sqlite");
    let mut s = Store::open(&Location::Sqlite(db.clone())).unwrap();
    for d in docs {
        s.add_document(d, &[]).unwrap();
    }
    db
}

fn share(db: &Path, extra: &[&str]) -> Output {
    let mut c = common::command();
    c.env_remove("BOARDBENCH_UPLOAD_STATE")
        .env_remove("BOARDBENCH_PASTE_URL")
        .env_remove("BOARDBENCH_DB")
        .arg("share")
        .arg("--db")
        .arg(db)
        .args(["--paste-timeout", "10"])
        .args(extra);
    common::output_within(c, Duration::from_secs(60))
}

fn text(o: &Output) -> String {
    format!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn the_latest_run_is_shared_redacted_with_its_link_and_summary_row() {
    if common::host_only() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let plain = common::fixture_log(|t| !t.contains("SerialNumber") && t.contains("7-Zip"));
    let secret = run_with_identifiers();
    let db = db_with(tmp.path(), &[plain, secret.clone()]);
    let server = PasteServer::start(200, "{url}/Ab3x.txt\n");
    let o = share(&db, &["--paste-url", &server.url]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let link = format!("{}/Ab3x.txt", server.url);
    let out = String::from_utf8_lossy(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(
        lines[0].starts_with(&format!("Full results uploaded to {link} (redacted ")),
        "{out}"
    );
    assert!(lines[0].contains("kept: board, SoC"), "{out}");
    // The row is the log's last line with the link as one more cell, ready for a forum post.
    assert!(
        lines[1].starts_with("| ") && lines[1].ends_with(&format!(" | {link} |")),
        "{out}"
    );
    let got = server.received();
    assert_eq!(got.len(), 1);
    assert!(got[0].user_agent.starts_with("boardbench/"), "{got:?}");
    let sent = file_part(&got[0]);
    for s in SECRETS {
        assert!(!sent.contains(s), "{s} left the machine");
    }
    for token in ["<mac:", "<ipv4:", "<serial:"] {
        assert!(
            sent.contains(token),
            "{token}… in place of the identifier:\n{sent}"
        );
    }
    assert!(
        lines[0].contains("mac") && lines[0].contains("serial"),
        "{out}"
    );
    // The latest run (2) was sent: its summary row is the text's last line, as the row printed.
    let last = sent.lines().last().unwrap();
    assert_eq!(format!("{last} {link} |"), lines[1]);
    assert_eq!(last, textout::results_row(&secret));
    // What was sent is kept beside the upload state, byte for byte.
    let kept = tmp.path().join("shared/boardbench-run-2.txt");
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), sent);

    // --dry-run: the same text on stdout, nothing sent.
    let o = share(&db, &["--paste-url", &server.url, "--dry-run", "2"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        sent,
        "the same redaction"
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("dry run: would send") && err.contains(&server.url),
        "{err}"
    );
    assert_eq!(server.received().len(), 1);
}

#[test]
fn a_refusing_or_missing_service_is_one_line_with_the_local_log_and_exit_75() {
    if common::host_only() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let db = db_with(tmp.path(), &[common::fixture_log(|t| t.contains("7-Zip"))]);
    let kept = tmp.path().join("shared/boardbench-run-1.txt");

    // 0x0.st's answer to sbc-bench's user agent in 2025; a 4xx is not tried again.
    let server = PasteServer::start(403, "User agent not allowed.\n");
    let o = share(&db, &["--paste-url", &server.url, "1"]);
    assert_eq!(o.status.code(), Some(75), "{}", text(&o));
    assert!(o.stdout.is_empty(), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("refused the log (HTTP 403: User agent not allowed.)"),
        "{err}"
    );
    assert!(err.contains(&kept.display().to_string()), "{err}");
    assert!(kept.is_file());
    assert_eq!(server.received().len(), 1);

    // A 2xx without a link is no link either.
    let server = PasteServer::start(200, "<html>maintenance</html>");
    let o = share(&db, &["--paste-url", &server.url]);
    assert_eq!(o.status.code(), Some(75), "{}", text(&o));
    assert!(String::from_utf8_lossy(&o.stderr).contains("without a link"));

    // Nobody listens on the port: tried twice (as sbc-bench), then one line.
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let o = share(&db, &["--paste-url", &format!("http://127.0.0.1:{port}")]);
    assert_eq!(o.status.code(), Some(75), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("is not reachable"), "{err}");
    assert!(err.contains(&kept.display().to_string()), "{err}");
}

#[test]
fn no_such_run_and_no_run_at_all_are_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let unused = "http://127.0.0.1:9";
    // No database at all.
    let o = share(&tmp.path().join("none.sqlite"), &["--paste-url", unused]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no results database"));
    assert!(!tmp.path().join("none.sqlite").exists());
    // An empty database.
    let empty = db_with(tmp.path(), &[]);
    let o = share(&empty, &["--paste-url", unused]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("no run in the results database"),
        "{}",
        text(&o)
    );
    // A run id that is not there, a file that is not a document.
    let o = share(&empty, &["--paste-url", unused, "7"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no run 7"));
    let junk = tmp.path().join("junk.json");
    std::fs::write(&junk, "{}").unwrap();
    let o = share(&empty, &["--paste-url", unused, junk.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    // A paste URL that is not one is a usage error.
    let o = share(&empty, &["--paste-url", "0x0.st", junk.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(64), "{}", text(&o));
    assert!(
        !tmp.path().join("shared").exists(),
        "nothing kept for no run"
    );
}

/// `run --share`: the finished run's log goes to the paste service and its link is printed; the
/// run's exit code stays the run's.
#[test]
fn run_share_sends_the_finished_run() {
    if common::host_only() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let root = common::fixture_machine("rk3588", tmp.path());
    let bin = common::stub_tools(tmp.path(), common::ALL_TOOLS);
    let server = PasteServer::start(200, "{url}/Run1.txt\n");
    let mut c = common::command();
    c.env_clear()
        .env("PATH", &bin)
        .env("HOME", tmp.path())
        .env("NO_COLOR", "1")
        .env("BOARDBENCH_UPLOAD_STATE", tmp.path().join("uploads.json"))
        .arg("--sysroot")
        .arg(&root)
        .args(["run", "--profile", "fast", "--no-idle-gate", "--no-store"])
        .args(["--phases", "openssl", "--share", "--paste-url", &server.url])
        .args(["--paste-timeout", "10"])
        .arg("--log")
        .arg(tmp.path().join("boardbench.log"));
    let o = common::output_within(c, Duration::from_secs(120));
    assert!(matches!(o.status.code(), Some(0 | 2)), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    let link = format!("{}/Run1.txt", server.url);
    assert!(
        out.contains(&format!("Full results uploaded to {link}")),
        "{out}"
    );
    assert!(out.contains(&format!(" | {link} |")), "{out}");
    let got = server.received();
    assert_eq!(got.len(), 1);
    let sent = file_part(&got[0]);
    let log = std::fs::read_to_string(tmp.path().join("boardbench.log")).unwrap();
    // The same run: the log's summary row is the sent text's.
    assert_eq!(sent.lines().last(), log.lines().last());
}
