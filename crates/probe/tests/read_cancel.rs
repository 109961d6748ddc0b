//! The cancel flag (set by a command's SIGINT/SIGTERM handler) ends a read that hangs at once,
//! and every later read. Its own test binary: the flag is process-wide and stays set.

use std::path::Path;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use probe::bounded_read;

#[test]
fn cancelling_ends_a_hanging_read_at_once() {
    let flag = bounded_read::cancel_flag();
    let setter = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(100));
        flag.store(true, Ordering::Relaxed);
    });
    let (_keep, never) = std::sync::mpsc::channel::<()>();
    let t0 = Instant::now();
    // A read that would block for a minute, like a driver that stopped answering.
    let r = bounded_read::with_timeout(
        Path::new("/sys/stuck"),
        Duration::from_secs(60),
        move || never.recv_timeout(Duration::from_secs(60)).ok(),
    );
    assert_eq!(r.unwrap_err().to_string(), "interrupted");
    assert!(t0.elapsed() < Duration::from_secs(2), "{:?}", t0.elapsed());
    setter.join().unwrap();
    // Later reads do not even start.
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("x"), "1\n").unwrap();
    let e = bounded_read::read_whole(&d.path().join("x"), bounded_read::Kind::Value);
    assert_eq!(e.unwrap_err().to_string(), "interrupted");
}
