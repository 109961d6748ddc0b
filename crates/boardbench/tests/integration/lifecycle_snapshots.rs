//! Golden outputs of every mode that runs a session — `run --quick`, `thermal`, `env`, `graph`
//! and `review` — on fixture machines with stub tools: the terminal output (stdout, stderr and
//! exit code), the log and the result document.
//!
//! Why: the session lifecycle is shared by these modes, and moving it must not change what a
//! user sees. Every measured number, timestamp, duration, pid and temporary path is redacted
//! (numbers with their sign become `#`, padding collapses, repeated lines fold into one, monitor series keep one
//! sample), so the snapshots pin structure and wording, never a measurement of this noisy VM.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The instant every snapshot's clock starts at, and its zone: a Tuesday in November, as the
/// snapshots were first recorded. The day and zone the tests run in must not show (the log's
/// header names the weekday and month; the kernel's support status is judged as of today).
const CLOCK_START: &str = "2026-11-24T10:00:00+01:00";
const ZONE: &str = "UTC";

/// boardbench on `root` with a clean environment: only the stub tools (and the shell's
/// directories) on PATH, no colour, HOME in the temporary directory, the clock pinned.
fn cmd(root: &Path, dir: &Path) -> Command {
    let mut c = common::boardbench_cmd().unwrap();
    let bin = common::stub_tools(dir, &["7z", "openssl"]);
    c.env_clear()
        .env("PATH", format!("{}:/bin:/usr/bin", bin.display()))
        .env("HOME", dir)
        .env("NO_COLOR", "1")
        .env("BOARDBENCH_NOW", CLOCK_START)
        .env("TZ", ZONE)
        .arg("--sysroot")
        .arg(root);
    if let Some(v) = std::env::var_os("QEMU_LD_PREFIX") {
        c.env("QEMU_LD_PREFIX", v);
    }
    c
}

/// Numbers (digits with decimal points, and a sign before them) become `#`, runs of spaces one space, the temporary directory
/// `[TMP]`, a spread in parentheses goes, and consecutive lines that became equal fold into
/// one.
fn redact(text: &str, tmp: &Path) -> String {
    let t = text.replace(&tmp.display().to_string(), "[TMP]");
    let mut out = String::with_capacity(t.len());
    let mut chars = t.chars().peekable();
    let mut prev = ' ';
    while let Some(c) = chars.next() {
        // A sign belongs to the number (a score drop may come out as a small rise).
        let signed = matches!(c, '+' | '-')
            && !prev.is_alphanumeric()
            && chars.peek().is_some_and(|n| n.is_ascii_digit());
        prev = c;
        if c.is_ascii_digit() || signed {
            while let Some(&n) = chars.peek() {
                if n.is_ascii_digit() || n == '.' {
                    chars.next();
                } else {
                    break;
                }
            }
            out.push('#');
        } else if c == ' ' {
            while chars.peek() == Some(&' ') {
                chars.next();
            }
            out.push(' ');
        } else {
            out.push(c);
        }
    }
    // A spread is printed only when the repetitions differed ("(3, 0.4%)" or "(3)").
    let out = out.replace(", #%)", ")");
    // An ordinal's suffix follows its redacted number (the placement's "41st of 180").
    let out = out
        .replace("#st ", "#th ")
        .replace("#nd ", "#th ")
        .replace("#rd ", "#th ");
    let mut lines: Vec<&str> = Vec::new();
    for l in out.lines() {
        if lines.last() != Some(&l) {
            lines.push(l);
        }
    }
    lines.join("\n")
}

/// The document with numbers zeroed, strings redacted, monitor series cut to one sample and
/// consecutive array elements that became equal folded into one (how many cache levels the
/// latency ladder finds is a measurement too). Whether a figure was disturbed is a measurement
/// (it goes), and which code path measured depends on this host's CPU (it is redacted).
fn redact_json(v: &serde_json::Value, tmp: &Path) -> serde_json::Value {
    use serde_json::Value;
    match v {
        Value::Number(_) => Value::from(0),
        Value::String(s) => Value::String(redact(s, tmp)),
        Value::Array(a) => {
            let mut v: Vec<Value> = Vec::new();
            for x in a.iter().map(|x| redact_json(x, tmp)) {
                if v.last() != Some(&x) {
                    v.push(x);
                }
            }
            Value::Array(v)
        }
        Value::Object(o) => Value::Object(
            o.iter()
                .filter(|(k, _)| k.as_str() != "disturbed")
                .map(|(k, x)| {
                    let x = match (k.as_str(), x) {
                        ("samples", Value::Array(a)) => {
                            Value::Array(a.iter().take(1).cloned().collect())
                        }
                        ("backend" | "method", Value::String(_)) => Value::from("[HOST CPU]"),
                        _ => x.clone(),
                    };
                    (k.clone(), redact_json(&x, tmp))
                })
                .collect(),
        ),
        other => other.clone(),
    }
}

/// The fake-clock finding compares this host's measured clock with the fixture's OPP table
/// (rk3588: 1800 and 2400 MHz at the top): "faster than claimed" on a host clocked well above,
/// none or "lower OPP(s) differ" for a group whose top OPP lies within ±3 % of what the host
/// measured at that moment (a CI host near 2.4 GHz, its turbo moving between runs), "does not
/// tell the truth" below. A measurement, not the lifecycle's structure, so it goes from every
/// snapshot: its line on the terminal, its line and evidence lines in the log (the findings
/// crate's tests pin its wording).
fn without_fake_clock(text: &str) -> String {
    let mut out = Vec::new();
    let mut in_finding = false;
    for l in text.lines() {
        if l.contains("] fake-clock: ") {
            // The log's form (" * [info] …") is followed by indented evidence lines.
            in_finding = l.trim_start().starts_with("* ");
            continue;
        }
        if in_finding && l.starts_with(' ') && !l.trim_start().starts_with("* ") {
            continue;
        }
        in_finding = false;
        out.push(l);
    }
    let mut s = out.join("\n");
    if text.ends_with('\n') {
        s.push('\n');
    }
    s
}

fn terminal(out: &Output, tmp: &Path) -> String {
    format!(
        "exit: {:?}\n--- stdout\n{}\n--- stderr\n{}\n",
        out.status.code(),
        redact(
            &without_fake_clock(&String::from_utf8_lossy(&out.stdout)),
            tmp
        ),
        redact(
            &without_fake_clock(&String::from_utf8_lossy(&out.stderr)),
            tmp
        )
    )
}

fn log_text(path: &Path, tmp: &Path) -> String {
    redact(
        &without_fake_clock(&std::fs::read_to_string(path).unwrap()),
        tmp,
    )
}

/// The document as [`redact_json`] leaves it, without its fake-clock findings (see
/// [`without_fake_clock`]).
fn document(path: &Path, tmp: &Path) -> String {
    let mut doc: serde_json::Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    if let Some(findings) = doc.get_mut("findings").and_then(|f| f.as_array_mut()) {
        findings.retain(|f| f["kind"] != "fake-clock");
    }
    serde_json::to_string_pretty(&redact_json(&doc, tmp)).unwrap()
}

#[test]
fn fake_clock_findings_leave_the_terminal_and_the_log_whole() {
    let terminal = "Findings:\n [warning] fake-clock: policy4 (cpu4): advertised 2400 MHz\n [info] 7zip: x\nFull log: y\n";
    assert_eq!(
        without_fake_clock(terminal),
        "Findings:\n [info] 7zip: x\nFull log: y\n"
    );
    let log = "Findings:\n\n * [info] fake-clock: a\n   Cpufreq OPP: 2400    Measured: 3136\n   tolerance ±3 %\n * [info] fake-clock: b\n   tolerance ±3 %\n * [info] 7zip: c\n   7-Zip 23.01\n\n####\n";
    assert_eq!(
        without_fake_clock(log),
        "Findings:\n\n * [info] 7zip: c\n   7-Zip 23.01\n\n####\n"
    );
}

#[test]
fn run_quick_on_rk3588_with_stub_tools() {
    if common::host_only() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let root = common::fixture_machine("rk3588", tmp.path());
    let log = tmp.path().join("boardbench.log");
    let doc = tmp.path().join("doc.json");
    let run = || {
        let _ = std::fs::remove_file(&log);
        // A repeated run writes a new document (-o never overwrites one).
        let _ = std::fs::remove_file(&doc);
        cmd(&root, tmp.path())
            .args([
                "run",
                "--quick",
                "--unattended",
                "--tiny-kernels",
                "--no-store",
                // Every phase but memory latency: how many cache levels its ladder finds (and so
                // the rows and notes it writes) is itself a measurement.
                "--phases",
                "clock,membw,openssl,sha256,7zip-single,7zip-multi,clock-hot",
                "--log",
            ])
            .arg(&log)
            .arg("-o")
            .arg(&doc)
            .output()
            .unwrap()
    };
    // The clock is measured on this host's CPU (the fixture only claims the OPPs): on a busy
    // machine the hot check can read a few % below the cold one, and the run rightly ends
    // INVALID with a clock-drop finding. That is a measurement, not the structure pinned
    // here: such a run is repeated (at most five runs in all, ~4 s each; three in a row were
    // seen once on the shared VM under faketime). The summary row's own rule (cold/hot > 1.03,
    // textout) also marks a drop of 2.9-3 % that the finding's (drop > 3 % of cold) does not:
    // either mark repeats the run.
    let mut out = run();
    for _ in 0..4 {
        let text = std::fs::read_to_string(&doc).unwrap_or_default();
        let row = std::fs::read_to_string(&log).unwrap_or_default();
        if !text.contains("\"clock-drop\"") && !row.contains("(throttled)") {
            break;
        }
        eprintln!("a clock-drop on this busy host: running again");
        out = run();
    }
    insta::assert_snapshot!("run_terminal", terminal(&out, tmp.path()));
    insta::assert_snapshot!("run_log", log_text(&log, tmp.path()));
    insta::assert_snapshot!("run_document", document(&doc, tmp.path()));
}

#[test]
fn thermal_on_rk3588() {
    if common::host_only() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let root = common::fixture_machine("rk3588", tmp.path());
    let log = tmp.path().join("thermal.log");
    let doc = tmp.path().join("doc.json");
    let out = cmd(&root, tmp.path())
        .args([
            "thermal",
            "--duration",
            "1",
            "--interval",
            "0.25",
            "--no-store",
            "-q",
            "--log",
        ])
        .arg(&log)
        .arg("-o")
        .arg(&doc)
        .output()
        .unwrap();
    insta::assert_snapshot!("thermal_terminal", terminal(&out, tmp.path()));
    insta::assert_snapshot!("thermal_log", log_text(&log, tmp.path()));
    insta::assert_snapshot!("thermal_document", document(&doc, tmp.path()));
}

#[test]
fn env_with_a_command_on_rk3588() {
    let tmp = tempfile::tempdir().unwrap();
    let root = common::fixture_machine("rk3588", tmp.path());
    let doc = tmp.path().join("doc.json");
    let out = cmd(&root, tmp.path())
        .args([
            "env",
            "--for",
            "phoronix",
            "--no-idle-gate",
            "--no-store",
            "--interval",
            "0.2",
            "-o",
        ])
        .arg(&doc)
        .args(["--", "sh", "-c", "echo suite output"])
        .output()
        .unwrap();
    insta::assert_snapshot!("env_terminal", terminal(&out, tmp.path()));
    insta::assert_snapshot!("env_document", document(&doc, tmp.path()));
}

#[test]
fn graph_on_rk3588_with_a_power_command() {
    if common::host_only() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let root = common::fixture_machine("rk3588", tmp.path());
    let doc = tmp.path().join("doc.json");
    let out = cmd(&root, tmp.path())
        .args([
            "graph",
            "--no-store",
            "--clock-samples",
            "1",
            "--seconds-per-point",
            "0.1",
            "--idle-seconds",
            "0.2",
            "--power-cmd",
            "echo 3.2",
            "--cpus",
            "cores",
            "--min-khz",
            "1800000",
            "-o",
        ])
        .arg(&doc)
        .output()
        .unwrap();
    insta::assert_snapshot!("graph_terminal", terminal(&out, tmp.path()));
    insta::assert_snapshot!("graph_document", document(&doc, tmp.path()));
}

/// A copy of review's NVMe RK3588 fixture with an idle load average.
fn review_fixture(tmp: &Path) -> PathBuf {
    let root = tmp.join("root");
    common::copy_tree(&manifest().join("../review/tests/roots/rk3588-nvme"), &root);
    std::fs::write(root.join("proc/loadavg"), "0.02 0.05 0.01 1/123 4567\n").unwrap();
    root
}

#[test]
fn review_monitoring_on_rk3588_nvme() {
    let tmp = tempfile::tempdir().unwrap();
    let root = review_fixture(tmp.path());
    let out = cmd(&root, tmp.path())
        .args(["review", "--quick", "--count", "2", "--interval", "0.2"])
        .output()
        .unwrap();
    insta::assert_snapshot!("review_terminal", terminal(&out, tmp.path()));
}

/// Review's performance baseline (sbc-bench -r): the run engine's clock, memory, OpenSSL and
/// 7-Zip phases after tuning, summarised before the monitor starts.
#[test]
fn review_with_its_baseline_on_rk3588_nvme() {
    if common::host_only() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let root = review_fixture(tmp.path());
    let out = cmd(&root, tmp.path())
        .args([
            "review",
            "--tiny-kernels",
            "--count",
            "1",
            "--interval",
            "0.2",
        ])
        .output()
        .unwrap();
    let text = terminal(&out, tmp.path());
    let baseline = text
        .split_once("Performance baseline")
        .map(|(_, b)| b)
        .unwrap_or_else(|| panic!("no baseline in\n{text}"));
    // The baseline's findings about clocks compare this host's measured clock with the
    // fixture's OPP table: "faster than claimed" on a quiet machine, "clock-drop" on a busy
    // one. Which one is not the lifecycle's business; the findings block itself stays (and so
    // does "Check the log" unless only a clock-drop made the baseline untrusted).
    let drop_only = baseline.contains("clock-drop")
        && !baseline
            .lines()
            .any(|l| l.starts_with(" [INVALID]") && !l.contains("clock-drop"));
    let baseline: String = baseline
        .lines()
        .filter(|l| !(l.starts_with(" [") && l.contains("clock")))
        .filter(|l| !(drop_only && l.trim() == "Check the log for details."))
        .map(|l| format!("{l}\n"))
        .collect();
    insta::assert_snapshot!("review_baseline", baseline);
}
