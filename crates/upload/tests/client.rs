//! The client against the stand-in service on 127.0.0.1: stored and stored-already answers,
//! retries with backoff on connection errors and 5xx, no retry on any 4xx. Waits are recorded,
//! not slept, so every test takes milliseconds. Skipped under qemu (BOARDBENCH_EMULATED).

use std::time::Duration;

use upload::testing::{Scripted, TestService};
use upload::{Client, Outcome, RetryPolicy};

const POLICY: RetryPolicy = RetryPolicy {
    attempts: 4,
    first_delay: Duration::from_millis(100),
    max_delay: Duration::from_millis(250),
};

fn client(url: &str, token: &str) -> Client {
    Client::new(url, token, POLICY, Duration::from_secs(10)).with_sleep(|_| {})
}

fn doc(n: u32) -> Vec<u8> {
    format!(r#"{{"schema_version":1,"producer":"test","device":"board {n}"}}"#).into_bytes()
}

#[test]
fn new_then_stored_already() {
    if testsupport::host_only() {
        return;
    }
    let s = TestService::start(&["t1"]);
    let c = client(&format!("{}/api/v1/", s.url), "t1");
    let (a, r) = c.post_run(&doc(1));
    let Outcome::Stored(a) = a else {
        panic!("{a:?}")
    };
    assert!(a.created && r.is_empty());
    let (b, _) = c.post_run(&doc(1));
    let Outcome::Stored(b) = b else {
        panic!("{b:?}")
    };
    assert!(!b.created);
    assert_eq!((a.id, &a.hash), (b.id, &b.hash));
    let req = &s.requests()[0];
    assert_eq!(
        (req.method.as_str(), req.path.as_str()),
        ("POST", "/api/v1/runs")
    );
    assert_eq!(req.authorization.as_deref(), Some("Bearer t1"));
}

#[test]
fn server_errors_and_dropped_connections_are_retried_with_growing_waits() {
    if testsupport::host_only() {
        return;
    }
    let s = TestService::start(&["t"]);
    s.script([
        Scripted::Status(503, r#"{"error":"busy"}"#.into()),
        Scripted::Drop,
        Scripted::Status(500, "oops".into()),
    ]);
    let (o, retries) = client(&s.url, "t").post_run(&doc(2));
    assert!(matches!(o, Outcome::Stored(ref st) if st.created), "{o:?}");
    assert_eq!(retries.len(), 3, "{retries:?}");
    assert!(retries[0].cause.contains("503"), "{retries:?}");
    assert!(retries[2].cause.contains("500"), "{retries:?}");
    for (i, r) in retries.iter().enumerate() {
        let base = POLICY.delay(i as u32 + 1);
        assert!(
            r.waited >= base && r.waited <= base.mul_f64(1.25),
            "{i}: {r:?}"
        );
    }
    assert_eq!(s.requests().len(), 4);
    assert_eq!(s.stored().len(), 1);
}

#[test]
fn retries_are_bounded() {
    if testsupport::host_only() {
        return;
    }
    let s = TestService::start(&["t"]);
    s.script((0..10).map(|_| Scripted::Status(502, "bad gateway".into())));
    let (o, retries) = client(&s.url, "t").post_run(&doc(3));
    assert!(
        matches!(o, Outcome::Unavailable { ref message } if message.contains("502") && message.contains("4 tries")),
        "{o:?}"
    );
    assert_eq!(retries.len(), 3);
    assert_eq!(s.requests().len(), 4);
    assert!(s.stored().is_empty());
}

#[test]
fn a_retry_after_is_honoured_up_to_the_cap() {
    if testsupport::host_only() {
        return;
    }
    // The stand-in sends no Retry-After; a raw one-shot server does.
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", l.local_addr().unwrap());
    let t = std::thread::spawn(move || {
        use std::io::{Read, Write};
        for (i, conn) in l.incoming().take(2).enumerate() {
            let mut c = conn.unwrap();
            let mut buf = [0u8; 4096];
            let _ = c.read(&mut buf);
            let reply = if i == 0 {
                "HTTP/1.1 503 X\r\nRetry-After: 120\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".to_string()
            } else {
                let b = r#"{"id":1,"hash":"h","created":true}"#;
                format!(
                    "HTTP/1.1 201 X\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{b}",
                    b.len()
                )
            };
            c.write_all(reply.as_bytes()).unwrap();
        }
    });
    let (o, retries) = client(&url, "t").post_run(&doc(4));
    t.join().unwrap();
    assert!(matches!(o, Outcome::Stored(_)), "{o:?}");
    assert_eq!(retries.len(), 1);
    assert_eq!(retries[0].waited, POLICY.max_delay, "120 s asked, capped");
}

#[test]
fn no_4xx_is_ever_retried() {
    if testsupport::host_only() {
        return;
    }
    let s = TestService::start(&["good"]);
    s.revoke("old");
    let (o, r) = client(&s.url, "wrong").post_run(&doc(5));
    assert!(matches!(o, Outcome::Refused { status: 401, .. }), "{o:?}");
    assert!(r.is_empty());
    let (o, _) = client(&s.url, "old").post_run(&doc(5));
    assert!(
        matches!(o, Outcome::Refused { status: 403, ref message } if message == "token revoked"),
        "{o:?}"
    );
    let (o, _) = client(&s.url, "good").post_run(b"{not json");
    assert!(matches!(o, Outcome::Rejected { status: 422, .. }), "{o:?}");
    s.set_max_body(10);
    let (o, _) = client(&s.url, "good").post_run(&doc(5));
    assert!(matches!(o, Outcome::Rejected { status: 413, .. }), "{o:?}");
    s.script([
        Scripted::Status(429, "slow down".into()),
        Scripted::Status(404, "".into()),
    ]);
    let (o, _) = client(&s.url, "good").post_run(&doc(5));
    assert!(matches!(o, Outcome::Rejected { status: 429, .. }), "{o:?}");
    let (o, _) = client(&s.url, "good").post_run(&doc(5));
    assert!(matches!(o, Outcome::Rejected { status: 404, .. }), "{o:?}");
    assert_eq!(s.requests().len(), 6, "one request per upload");
    assert!(s.stored().is_empty());
}

#[test]
fn an_unreachable_service_is_unavailable_after_the_bounded_tries() {
    if testsupport::host_only() {
        return;
    }
    // A port nobody listens on: bind, note it, close.
    let port = testsupport::http::free_port();
    let started = std::time::Instant::now();
    let (o, retries) = client(&format!("http://127.0.0.1:{port}"), "t").post_run(&doc(6));
    assert!(matches!(o, Outcome::Unavailable { .. }), "{o:?}");
    assert_eq!(retries.len(), 3);
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[test]
fn a_success_without_the_contract_body_is_not_an_acknowledgement() {
    if testsupport::host_only() {
        return;
    }
    let s = TestService::start(&["t"]);
    s.script([Scripted::Status(201, "<html>ok</html>".into())]);
    let (o, _) = client(&s.url, "t").post_run(&doc(7));
    assert!(matches!(o, Outcome::BadAnswer { status: 201, .. }), "{o:?}");
}
