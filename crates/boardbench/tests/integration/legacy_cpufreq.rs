//! Old BSP kernels (3.4/3.10/4.4 on Allwinner, Rockchip, Amlogic boards) have no
//! `/sys/devices/system/cpu/cpufreq/policyN`, only `cpuN/cpufreq` (the other CPUs of a
//! cluster link to their first CPU's). On a copy of a fixture machine turned into that layout
//! (`testsupport::legacy_cpufreq`), every mode that changes cpufreq settings — `run` (tuning
//! and the OPP walk), `graph`, `thermal`, `review` — writes to `cpuN/cpufreq`, and puts every
//! file back (`clock --opp-walk`: clock_opp_walk.rs).

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// rk3588 (policies 0/4/6: cpu0-3, cpu4-5, cpu6-7) in the old layout, with an idle load.
fn legacy_machine(dir: &Path) -> PathBuf {
    let root = testsupport::fixture_machine("rk3588", dir);
    assert_eq!(testsupport::legacy_cpufreq(&root), [0, 4, 6]);
    // Each cluster's governor and limits are seen where an old kernel keeps them.
    let legacy = common::tunable_files(&root)
        .into_iter()
        .filter(|(p, _)| p.to_string_lossy().contains(LEGACY))
        .count();
    assert_eq!(legacy, 9);
    root
}

const LEGACY: &str = "/sys/devices/system/cpu/cpu";

fn cmd(root: &Path, home: &Path) -> Command {
    let mut c = common::boardbench_cmd().unwrap();
    c.env_remove("BOARDBENCH_DB")
        .env_remove("BOARDBENCH_SYSROOT")
        .env_remove("ExecuteCommand")
        .env("HOME", home)
        .env("XDG_DATA_HOME", home.join("data"))
        .env("NO_COLOR", "1")
        .arg("--sysroot")
        .arg(root);
    c
}

fn read_doc(p: &Path) -> serde_json::Value {
    let doc: serde_json::Value = serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap();
    common::assert_valid_document(&doc);
    doc
}

/// The document's settings: each under `cpuN/cpufreq` or devfreq, none under `cpufreq/policyN`,
/// each put back; returns the cpufreq paths.
fn legacy_settings(doc: &serde_json::Value) -> Vec<String> {
    let settings = doc["run"]["settings"].as_array().unwrap();
    let mut cpufreq = Vec::new();
    for s in settings {
        let path = s["path"].as_str().unwrap();
        assert!(!path.contains("cpufreq/policy"), "{path}");
        assert_eq!(s["after"], s["before"], "{path} not restored");
        if path.starts_with(LEGACY) {
            cpufreq.push(path.to_string());
        }
    }
    cpufreq
}

fn assert_ran(out: &std::process::Output) {
    assert!(
        matches!(out.status.code(), Some(0 | 2)),
        "exit {:?}\n{}\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `run`: the governors of the three clusters go to performance for the run, and the clock
/// phase walks the OPPs (the quick profile checks the top one) with caps and floors in
/// `cpuN/cpufreq`.
#[test]
fn run_tunes_walks_and_restores_on_an_old_kernel() {
    let tmp = tempfile::tempdir().unwrap();
    let root = legacy_machine(tmp.path());
    let original = common::tunable_files(&root);
    let bin = common::stub_tools(tmp.path(), common::ALL_TOOLS);
    let doc_path = tmp.path().join("doc.json");
    let out = cmd(&root, tmp.path())
        .env("PATH", &bin)
        .args([
            "run",
            "--quick",
            "--no-idle-gate",
            "--no-store",
            "--tiny-kernels",
            "--phases",
            "clock",
        ])
        .arg("--log")
        .arg(tmp.path().join("boardbench.log"))
        .arg("--output")
        .arg(&doc_path)
        .output()
        .unwrap();
    assert_ran(&out);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("could not change"), "{stderr}");
    assert_eq!(
        common::tunable_files(&root),
        original,
        "settings not restored"
    );
    let doc = read_doc(&doc_path);
    let paths = legacy_settings(&doc);
    for c in [0, 4, 6] {
        let gov = format!("{LEGACY}{c}/cpufreq/scaling_governor");
        assert!(paths.contains(&gov), "{gov} not set: {paths:?}");
    }
    // The clock phase of each cluster walked (floor and cap written through the session's
    // restorer, which put them back: see `tunable_files` above) and measured at the top OPP;
    // a refused write would have failed the phase.
    let clock: Vec<&serde_json::Value> = doc["run"]["phases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["kind"] == "clock")
        .collect();
    assert_eq!(clock.len(), 3);
    for p in clock {
        assert_eq!(p["status"], "done", "{p:#}");
        assert!(p["clock"][0]["opp_khz"].is_u64(), "{p:#}");
    }
}

/// `graph`: every OPP of each cluster is capped in `cpuN/cpufreq`, recorded and put back.
#[test]
fn graph_sweeps_and_restores_on_an_old_kernel() {
    let tmp = tempfile::tempdir().unwrap();
    let root = legacy_machine(tmp.path());
    let original = common::tunable_files(&root);
    let doc_path = tmp.path().join("graph.json");
    let out = cmd(&root, tmp.path())
        .args(["graph", "--no-store", "--clock-samples", "1"])
        .args(["--seconds-per-point", "0.05", "--idle-seconds", "0.1"])
        .args(["--max-khz", "1008000", "--cpus", "cores"])
        .arg("-o")
        .arg(&doc_path)
        .output()
        .unwrap();
    assert_ran(&out);
    assert_eq!(
        common::tunable_files(&root),
        original,
        "settings not restored"
    );
    let doc = read_doc(&doc_path);
    let paths = legacy_settings(&doc);
    for c in [0, 4, 6] {
        let cap = format!("{LEGACY}{c}/cpufreq/scaling_max_freq");
        assert!(paths.contains(&cap), "{cap} not set: {paths:?}");
    }
    let points = doc["run"]["phases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["kind"] == "graph-point" && p["clock"][0]["opp_khz"].is_u64())
        .count();
    assert!(points >= 3, "{points} points");
}

/// `thermal`: the governors are performance during the test, in `cpuN/cpufreq`, and put back.
#[test]
fn thermal_tunes_and_restores_on_an_old_kernel() {
    let tmp = tempfile::tempdir().unwrap();
    let root = legacy_machine(tmp.path());
    let original = common::tunable_files(&root);
    let doc_path = tmp.path().join("doc.json");
    let mut child = cmd(&root, tmp.path())
        .args([
            "thermal",
            "--duration",
            "1",
            "--interval",
            "0.5",
            "--no-store",
        ])
        .arg("-o")
        .arg(&doc_path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let gov4 = root.join("sys/devices/system/cpu/cpu4/cpufreq/scaling_governor");
    common::wait_until_files_hold(&mut child, &[(&gov4, "performance")]);
    let out = child.wait_with_output().unwrap();
    assert_ran(&out);
    assert_eq!(
        common::tunable_files(&root),
        original,
        "settings not restored"
    );
    let doc = read_doc(&doc_path);
    let paths = legacy_settings(&doc);
    for c in [0, 4, 6] {
        let gov = format!("{LEGACY}{c}/cpufreq/scaling_governor");
        assert!(paths.contains(&gov), "{gov} not set: {paths:?}");
    }
}

/// `review`: its tune-up switches each cluster's governor in `cpuN/cpufreq` and restores it.
#[test]
fn review_tunes_and_restores_on_an_old_kernel() {
    let tmp = tempfile::tempdir().unwrap();
    let root = legacy_machine(tmp.path());
    let original = common::tunable_files(&root);
    let gov4 = root.join("sys/devices/system/cpu/cpu4/cpufreq/scaling_governor");
    let out = cmd(&root, tmp.path())
        .args([
            "review",
            "--no-baseline",
            "--count",
            "1",
            "--interval",
            "0.2",
        ])
        .args(["--", "cat"])
        .arg(&gov4)
        .output()
        .unwrap();
    assert_ran(&out);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("policy4 governor: schedutil → performance"),
        "{stdout}"
    );
    assert!(!stdout.contains("could not change"), "{stdout}");
    // The command saw the performance governor.
    assert!(stdout.lines().any(|l| l == "performance"), "{stdout}");
    assert_eq!(
        common::tunable_files(&root),
        original,
        "settings not restored"
    );
}
