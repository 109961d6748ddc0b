//! `boardbench sha256` end to end: the Fast, Reference and Portable results, backend naming, the clock
//! (given or measured), verification, and refusal of nonsense input.

use crate::common;
use common::boardbench_cmd;

fn json(args: &[&str]) -> Option<serde_json::Value> {
    let out = boardbench_cmd()?
        .arg("sha256")
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(serde_json::from_slice(&out.stdout).unwrap())
}

/// The hardware backend this CPU should report as Fast (None: portable only).
fn expected_fast() -> Option<&'static str> {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("sha") {
        return Some("sha-ni");
    }
    #[cfg(target_arch = "aarch64")]
    if std::arch::is_aarch64_feature_detected!("sha2") {
        return Some("armv8-sha2");
    }
    None
}

#[test]
fn fast_reference_and_portable_agree_and_are_named_by_backend() {
    let args = [
        "-i",
        "20000",
        "--portable-iterations",
        "20000",
        "--runs",
        "2",
    ];
    let Some(v) = json(&args) else {
        return;
    };
    assert_eq!(v["iterations"], 20000);
    let r = &v["reference"];
    assert_eq!(r["verified"], true);
    assert_eq!(r["samples"].as_array().unwrap().len(), 2);
    match expected_fast() {
        Some(b) => {
            // Reference is the SHA extension written straightforwardly; Portable is beside it.
            assert_eq!(r["role"], "Reference");
            assert_eq!(r["backend"], b);
            let f = &v["fast"];
            assert_eq!(f["role"], "Fast");
            assert_eq!(f["backend"], b);
            assert_eq!(f["verified"], true);
            let p = &v["portable"];
            assert_eq!(p["role"], "Portable");
            assert_eq!(p["backend"], "portable");
            assert_eq!(p["verified"], true);
            assert_eq!(f["samples"][0]["digest"], r["samples"][0]["digest"]);
            assert_eq!(f["samples"][0]["digest"], p["samples"][0]["digest"]);
        }
        // Without the extension only Portable runs, and it is never called Fast or Reference.
        None => {
            assert!(v.get("fast").is_none(), "{v}");
            assert!(v.get("portable").is_none(), "{v}");
            assert_eq!(r["role"], "Portable");
            assert_eq!(r["backend"], "portable");
        }
    }
    // Without -s the clock is measured before and after, and cycles per hash follow from it.
    assert_eq!(v["clock_source"], "measured");
    assert!(v["clock_before_mhz"].as_f64().is_some());
    assert!(v["clock_after_mhz"].as_f64().is_some());
}

#[test]
fn a_given_clock_only_normalises() {
    let Some(v) = json(&["-i", "10k", "-s", "2.0", "--runs", "1"]) else {
        return;
    };
    assert_eq!(v["clock_source"], "given");
    assert_eq!(v["clock_mhz"], 2000.0);
    assert!(v.get("clock_before_mhz").is_none());
    let r = &v["reference"];
    let mhs = r["mhs"].as_f64().unwrap();
    let pu = r["mhs_per_100mhz"].as_f64().unwrap();
    assert!((pu - mhs / 20.0).abs() < 1e-9);
    let cph = r["cycles_per_hash"].as_f64().unwrap();
    assert!((cph - 2000.0 / mhs).abs() < 1e-6);
    // Portable runs a tenth of the iterations by default.
    let portable = if expected_fast().is_some() {
        &v["portable"]
    } else {
        r
    };
    assert_eq!(portable["samples"][0]["iterations"], 1000);
}

#[test]
fn text_output_has_every_row_in_the_chosen_unit_and_nothing_extra_when_piped() {
    let Some(mut cmd) = boardbench_cmd() else {
        return;
    };
    let out = cmd
        .args([
            "sha256", "-i", "10k", "-s", "3.0", "-m", "cpb", "--runs", "1",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // stderr is a pipe here: no progress line, only the one line saying what runs.
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(!err.contains('\r'), "{err}");
    let t = String::from_utf8(out.stdout).unwrap();
    assert!(t.contains("cycles/block"), "{t}");
    assert!(t.contains("Portable   portable"), "{t}");
    assert!(t.lines().any(|l| l.starts_with("Fast ")), "{t}");
    // The digest shown is the Reference's (10k), or Portable's (a tenth) without hardware.
    let n = match expected_fast() {
        Some(_) => {
            assert!(t.lines().any(|l| l.starts_with("Reference  ")), "{t}");
            "10k"
        }
        None => "1k",
    };
    assert!(t.contains(&format!("Final digest after {n}:")), "{t}");
}

#[test]
fn nonsense_input_is_refused_with_a_clear_message() {
    let cases: [(&[&str], &str); 6] = [
        (&["-i", "0"], "at least 1"),
        (&["-i", "lots"], "bad iteration count"),
        (&["-m", "GB"], "unknown unit"),
        (&["-s", "0"], "--ghz"),
        (&["--cpu", "999", "-i", "1"], "CPU 999 not online"),
        (&["--runs", "0"], "--runs"),
    ];
    for (args, msg) in cases {
        let Some(mut cmd) = boardbench_cmd() else {
            return;
        };
        let out = cmd.arg("sha256").args(args).output().unwrap();
        // A value error, before anything ran (issue 47: it was exit 1).
        assert_eq!(out.status.code(), Some(64), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(msg), "{args:?}: {err}");
    }
}

/// Without a terminal `sha256` says what it runs before the silent wait.
#[test]
fn without_a_terminal_it_says_what_runs() {
    let out = common::command()
        .args(["sha256", "-i", "10k", "-s", "2.0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("sha256 on cpu"), "{err}");
    assert!(
        err.contains("1 run(s) each of 10k recursive hashes"),
        "{err}"
    );
}
