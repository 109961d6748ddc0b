//! `boardbench clock` on the machine itself: structure of the JSON, the sbc-bench line without
//! cpufreq on a tree that has none, and refusal of nonsense input.

use crate::common;
use common::boardbench_cmd;

#[test]
fn json_has_one_reading_per_requested_cpu_with_its_samples() {
    let Some(mut cmd) = boardbench_cmd() else {
        return;
    };
    let out = cmd
        .args(["clock", "--cpu", "0", "--samples", "2", "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let readings = v["readings"].as_array().unwrap();
    assert_eq!(readings.len(), 1);
    let r = &readings[0];
    assert_eq!(r["cpu"], 0);
    let samples = r["samples"].as_array().unwrap();
    assert_eq!(samples.len(), 2);
    let mean = (samples[0]["mhz"].as_f64().unwrap() + samples[1]["mhz"].as_f64().unwrap()) / 2.0;
    assert!((r["mhz"].as_f64().unwrap() - mean).abs() < 1e-6);
    if !common::timing_unreal() {
        assert!(mean > 20.0 && mean < 10_000.0, "{mean}");
    }
}

#[test]
fn without_cpufreq_the_line_is_sbc_benchs() {
    // An empty tree: no cpufreq, no topology. The first allowed CPU is measured.
    let d = tempfile::tempdir().unwrap();
    let Some(mut cmd) = boardbench_cmd() else {
        return;
    };
    let out = cmd
        .arg("--sysroot")
        .arg(d.path())
        .args(["clock", "--samples", "3"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let line = text.lines().next().unwrap();
    assert!(
        line.starts_with("No cpufreq support available. Measured on cpu"),
        "{line}"
    );
    // "… MHz (a/b/c)" with three samples of three decimals.
    let inner = line
        .split_once(" MHz (")
        .unwrap()
        .1
        .split(')')
        .next()
        .unwrap();
    assert_eq!(inner.split('/').count(), 3, "{line}");
    assert!(
        inner
            .split('/')
            .all(|x| x.split_once('.').unwrap().1.len() == 3)
    );
}

#[test]
fn nonsense_input_is_refused_with_a_clear_message() {
    let cases: [(&[&str], &str); 4] = [
        (&["clock", "--cpu", "999"], "CPU 999 not online"),
        (&["clock", "--cpu", "x"], "--cpu"),
        (&["clock", "--samples", "0"], "at least 1"),
        (&["clock", "--cpu", "3-1"], "--cpu"),
    ];
    for (args, msg) in cases {
        let Some(mut cmd) = boardbench_cmd() else {
            return;
        };
        let out = cmd.args(args).output().unwrap();
        // Every value the user typed wrong is a usage error (issue 47).
        assert_eq!(out.status.code(), Some(64), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(msg), "{args:?}: {err}");
    }
}
