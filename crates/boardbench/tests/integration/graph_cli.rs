//! `boardbench graph` on a writable copy of the rk3588 fixture machine: every OPP of every
//! cluster within MinKHz..MaxKHz is visited (and recorded as a phase), a `--power-cmd` gives
//! watts, everything is restored afterwards and on SIGTERM mid-sweep, the document is valid,
//! and the table printed is the one the stored document renders.

use crate::common;

use std::path::Path;
use std::process::{Command, Stdio};

fn graph_cmd(root: &Path, dir: &Path) -> Command {
    let mut c = common::boardbench_cmd().unwrap();
    c.env_clear()
        .env("PATH", "/usr/bin:/bin")
        .env("HOME", dir)
        .env("NO_COLOR", "1")
        .arg("--sysroot")
        .arg(root)
        .args(["graph", "--no-store", "--clock-samples", "1"]);
    if let Some(v) = std::env::var_os("QEMU_LD_PREFIX") {
        c.env("QEMU_LD_PREFIX", v);
    }
    c
}

/// The OPPs of a policy in the fixture within [min, max], highest first.
fn expected_opps(root: &Path, policy: u32, min: u64, max: Option<u64>) -> Vec<u64> {
    let dir = root.join(format!("sys/devices/system/cpu/cpufreq/policy{policy}"));
    let mut v: Vec<u64> = ["scaling_available_frequencies", "scaling_boost_frequencies"]
        .iter()
        .filter_map(|f| std::fs::read_to_string(dir.join(f)).ok())
        .flat_map(|s| {
            s.split_whitespace()
                .map(|w| w.parse::<u64>().unwrap())
                .collect::<Vec<_>>()
        })
        .filter(|&k| k >= min && max.is_none_or(|m| k <= m))
        .collect();
    v.sort_unstable_by(|a, b| b.cmp(a));
    v.dedup();
    v
}

#[test]
fn sweep_visits_every_opp_of_every_cluster_with_power_and_restores() {
    let tmp = tempfile::tempdir().unwrap();
    let root = common::fixture_machine("rk3588", tmp.path());
    let original = common::tunable_files(&root);
    let doc_path = tmp.path().join("graph.json");
    let out = graph_cmd(&root, tmp.path())
        .args([
            "--seconds-per-point",
            "0.1",
            "--idle-seconds",
            "0.2",
            "--power-cmd",
            "echo 3.2",
            "--cpus",
            "cores",
        ])
        .arg("-o")
        .arg(&doc_path)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        matches!(out.status.code(), Some(0 | 2)),
        "exit {:?}\n{stdout}\n{stderr}",
        out.status.code()
    );
    assert!(stdout.contains("Power: command `echo 3.2`"), "{stdout}");
    assert!(stdout.contains("Idle: 3.20 W"), "{stdout}");
    assert_eq!(
        common::tunable_files(&root),
        original,
        "settings not restored"
    );

    let doc: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&doc_path).unwrap()).unwrap();
    common::assert_valid_document(&doc);
    let run = &doc["run"];
    assert_eq!(run["profile"], "graph");
    // The table is a renderer of the document: the stored run prints the same table again.
    let stored: document::ResultDocument = serde_json::from_value(doc.clone()).unwrap();
    let table = textout::graph::table(&stored);
    assert!(table.lines().count() > 2, "{table}");
    assert!(stdout.contains(&table), "{table}\n---\n{stdout}");
    // Findings are listed as every command lists them (`document::text::finding_line`).
    for f in &stored.findings {
        assert!(
            stdout.contains(&format!("  {}\n", document::text::finding_line(f))),
            "{stdout}"
        );
    }
    let phases = run["phases"].as_array().unwrap();
    assert_eq!(phases[0]["kind"], "graph-idle");
    // One point per OPP ≥ MinKHz (600 MHz by default), highest first, per cluster (policy).
    for (policy, cpu) in [(0u32, 0u64), (4, 4), (6, 6)] {
        let visited: Vec<u64> = phases
            .iter()
            .filter(|p| p["kind"] == "graph-point" && p["cpus"] == serde_json::json!([cpu]))
            .map(|p| p["clock"][0]["opp_khz"].as_u64().unwrap())
            .collect();
        assert_eq!(
            visited,
            expected_opps(&root, policy, 600_000, None),
            "policy{policy}"
        );
        // The cap was written (and recorded with its original, restored afterwards).
        let cap = run["settings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| {
                s["path"]
                    .as_str()
                    .unwrap()
                    .ends_with(&format!("policy{policy}/scaling_max_freq"))
            })
            .unwrap_or_else(|| panic!("no cap recorded for policy{policy}"));
        assert_eq!(cap["after"], cap["before"]);
        assert_eq!(cap["set"], "600000", "the last cap is the lowest OPP");
    }
    for p in phases.iter().filter(|p| p["kind"] == "graph-point") {
        assert_eq!(p["status"], "done", "{}: {}", p["title"], p["reason"]);
        assert!(
            p["reason"].is_null(),
            "cap read back differs: {}",
            p["reason"]
        );
        assert!(chrono::DateTime::parse_from_rfc3339(p["started"].as_str().unwrap()).is_ok());
        assert!(!p["samples"].as_array().unwrap().is_empty());
    }
    let ms = doc["measurements"].as_array().unwrap();
    let find = |test: &str| {
        ms.iter()
            .find(|m| m["suite"] == "graph" && m["test"] == test)
            .unwrap_or_else(|| panic!("no measurement {test}"))
    };
    // Averages of many 3.2 W readings (floating-point sums).
    let value = |test: &str| find(test)["value"].as_f64().unwrap();
    assert!((value("idle watts") - 3.2).abs() < 1e-9);
    assert!((value("watts cpu4 @ 2400 MHz") - 3.2).abs() < 1e-9);
    assert_eq!(
        find("watts cpu4 @ 2400 MHz")["variant"],
        "command `echo 3.2`",
        "the source is named"
    );
    assert!(value("watts above idle cpu4 @ 2400 MHz").abs() < 1e-9);
    let score = find("score cpu4 @ 2400 MHz")["value"].as_f64().unwrap();
    assert!(score > 0.0);
    let per_w = find("score per watt cpu0 @ 600 MHz")["value"]
        .as_f64()
        .unwrap();
    let s0 = find("score cpu0 @ 600 MHz")["value"].as_f64().unwrap();
    let w0 = value("watts cpu0 @ 600 MHz");
    assert!((per_w - s0 / w0).abs() < 1e-6 * s0.max(1.0));
    assert!(
        ms.iter()
            .any(|m| m["test"] == "temperature cpu6 @ 1800 MHz")
    );
}

#[test]
fn without_a_power_source_it_says_so_and_keeps_performance_per_mhz() {
    let tmp = tempfile::tempdir().unwrap();
    let root = common::fixture_machine("rk3588", tmp.path());
    let original = common::tunable_files(&root);
    let doc_path = tmp.path().join("graph.json");
    let out = graph_cmd(&root, tmp.path())
        .env("MaxKHz", "2016000")
        .env("MinKHz", "1800000")
        .args(["--seconds-per-point", "0.1", "--cpus", "4-5"])
        .arg("-o")
        .arg(&doc_path)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        matches!(out.status.code(), Some(0 | 2)),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("No power reading: performance per MHz only; give --power-cmd"),
        "{stdout}"
    );
    assert!(
        stdout.contains("Score/MHz") || stdout.contains("Score/"),
        "{stdout}"
    );
    assert_eq!(common::tunable_files(&root), original);
    let doc: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&doc_path).unwrap()).unwrap();
    common::assert_valid_document(&doc);
    let phases = doc["run"]["phases"].as_array().unwrap();
    let opps: Vec<u64> = phases
        .iter()
        .map(|p| p["clock"][0]["opp_khz"].as_u64().unwrap())
        .collect();
    assert_eq!(
        opps,
        [2_016_000, 1_800_000],
        "MaxKHz and MinKHz bound the sweep; no idle phase"
    );
    let ms = doc["measurements"].as_array().unwrap();
    assert!(ms.iter().all(|m| m["unit"] != "W"));
    assert!(
        ms.iter()
            .any(|m| m["test"] == "score per MHz cpu4-5 @ 2016 MHz")
    );
}

#[test]
fn sigterm_mid_sweep_restores_every_cap() {
    let tmp = tempfile::tempdir().unwrap();
    let root = common::fixture_machine("rk3588", tmp.path());
    let original = common::tunable_files(&root);
    let mut child = graph_cmd(&root, tmp.path())
        .args([
            "--seconds-per-point",
            "0.1",
            "--cpus",
            "cores",
            "--pause-ms",
            "60000",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until the sweep has capped the first cluster.
    let gov = root.join("sys/devices/system/cpu/cpufreq/policy0/scaling_governor");
    let cap = root.join("sys/devices/system/cpu/cpufreq/policy0/scaling_max_freq");
    common::wait_until_files_hold(&mut child, &[(&gov, "performance"), (&cap, "1800000")]);
    assert_ne!(common::tunable_files(&root), original);
    let status = common::signal_and_assert_restored(&mut child, libc::SIGTERM, &root, &original);
    assert_eq!(status.code(), Some(128 + libc::SIGTERM));
}
