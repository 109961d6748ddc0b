//! Headless Chromium for the tests that open pages (the HTML report, the service's pages).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The Chromium binary (`chromium`, else `chromium-browser`) as `which` finds a program — the
/// caller passes the one PATH lookup, `adapters::tool::SearchPath` (this crate depends on
/// `document` alone, so that `adapters`' own tests can use it) —, or `None` with a note on
/// stderr (the test skips): under emulation, or when it is not installed.
pub fn find(which: impl Fn(&str) -> Option<PathBuf>) -> Option<PathBuf> {
    if crate::emulated() {
        eprintln!("skipped: emulated target (BOARDBENCH_EMULATED=1)");
        return None;
    }
    let found = ["chromium", "chromium-browser"].into_iter().find_map(which);
    if found.is_none() {
        eprintln!("skipped: chromium is not installed (Debian package `chromium`)");
    }
    found
}

/// Runs Chromium headless on `target` (a `file://` or `http://` URL) with `extra` flags,
/// offline, with a throw-away profile and a time limit (a hung browser fails the test instead
/// of hanging it). Panics when Chromium fails.
pub fn run(bin: &Path, target: &str, extra: &[String]) -> Output {
    let profile = tempfile::tempdir().unwrap();
    let out = Command::new("timeout")
        .arg("120")
        .arg(bin)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-extensions",
            "--disable-sync",
            "--no-first-run",
            "--no-default-browser-check",
            "--hide-scrollbars",
            "--enable-logging=stderr",
            "--v=0",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(extra)
        .arg(target)
        .output()
        .expect("chromium starts");
    assert!(
        out.status.success(),
        "chromium failed ({:?}): {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Console messages and script errors in Chromium's log (dbus and GPU noise is not the page's).
pub fn console_errors(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter(|l| {
            l.contains("CONSOLE")
                || l.contains("Uncaught")
                || l.contains("Refused to")
                || l.contains("Content Security Policy")
        })
        .collect()
}
