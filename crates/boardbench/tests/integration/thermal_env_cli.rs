//! `boardbench thermal` and `boardbench env` end to end: on a writable copy of a fixture machine
//! (governors and devfreq set during the session and restored after it, also on SIGTERM and
//! SIGINT, with the result document still written), and a real 30-second thermal test on this
//! machine.

use crate::common;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

const GOV4: &str = "sys/devices/system/cpu/cpufreq/policy4/scaling_governor";

fn cmd(root: Option<&Path>, home: &Path) -> Command {
    let mut c = common::boardbench_cmd().unwrap();
    c.env_remove("BOARDBENCH_DB")
        .env_remove("BOARDBENCH_SYSROOT")
        .env("HOME", home)
        .env("XDG_DATA_HOME", home.join("data"))
        .env("NO_COLOR", "1");
    if let Some(r) = root {
        c.arg("--sysroot").arg(r);
    }
    c
}

/// Waits until the session has switched policy4 to performance.
fn wait_tuned(root: &Path, child: &mut Child) {
    common::wait_until_files_hold(child, &[(&root.join(GOV4), "performance")]);
}

fn read_doc(p: &Path) -> serde_json::Value {
    let doc: serde_json::Value = serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap();
    common::assert_valid_document(&doc);
    doc
}

/// The score series of the built-in load ("t_s hashes_per_s" lines of its tool run).
fn score_series(doc: &serde_json::Value) -> Vec<(f64, f64)> {
    let heat = doc["run"]["phases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["kind"] == "thermal-heat")
        .unwrap();
    let out = heat["tool_runs"][0]["output"].as_str().unwrap();
    out.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let mut w = l.split_whitespace().map(|x| x.parse::<f64>().unwrap());
            (w.next().unwrap(), w.next().unwrap())
        })
        .collect()
}

#[test]
fn thermal_on_a_fixture_tunes_during_the_test_and_restores_after() {
    let tmp = tempfile::tempdir().unwrap();
    let root = common::fixture_machine("rk3588", tmp.path());
    let original = common::tunable_files(&root);
    let doc_path = tmp.path().join("doc.json");
    let mut child = cmd(Some(&root), tmp.path())
        .args([
            "thermal",
            "--duration",
            "3",
            "--interval",
            "0.5",
            "--no-store",
            "-o",
        ])
        .arg(&doc_path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_tuned(&root, &mut child);
    let during = common::tunable_files(&root);
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_ne!(during, original);
    assert_eq!(
        common::tunable_files(&root),
        original,
        "not everything was restored"
    );

    let doc = read_doc(&doc_path);
    let run = &doc["run"];
    assert_eq!(run["profile"], "thermal");
    // The report is a pure function of the document: the stored run renders it again.
    let stored: document::ResultDocument = serde_json::from_value(doc.clone()).unwrap();
    assert!(run["thermal"]["load_s"].is_number(), "{run}");
    assert_eq!(textout::thermal::report(&stored), stdout);
    // Every change is recorded with its original value and what it held after restoring.
    let changed = run["settings"].as_array().unwrap();
    assert!(changed.iter().any(|s| {
        s["path"]
            .as_str()
            .unwrap()
            .ends_with("policy4/scaling_governor")
    }));
    assert!(changed.iter().any(|s| {
        s["path"]
            .as_str()
            .unwrap()
            .starts_with("/sys/class/devfreq/")
    }));
    assert!(
        changed
            .iter()
            .all(|s| s["before"] == s["after"] && s["set"] == "performance")
    );
    let heat = run["phases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["kind"] == "thermal-heat")
        .unwrap();
    assert_eq!(heat["status"], "done");
    // The fixture has a thermal zone: the temperature curve is in the samples.
    let samples = heat["samples"].as_array().unwrap();
    assert!(samples.len() >= 2);
    assert!(samples.iter().all(|s| s["temp_c"].is_number()));
    let series = score_series(&doc);
    assert!(!series.is_empty());
    assert!(series.iter().all(|&(t, v)| t > 0.0 && v > 0.0));
    assert!(
        doc["measurements"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["test"] == "sustained score")
    );
    assert!(stdout.contains("Thermal test"), "{stdout}");
    assert!(stdout.contains("Temperature:"), "{stdout}");

    // The HTML report renders the document.
    let html = tmp.path().join("r.html");
    let r = cmd(None, tmp.path())
        .arg("report")
        .arg(&doc_path)
        .arg("--html")
        .arg(&html)
        .output()
        .unwrap();
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    assert!(std::fs::read_to_string(&html).unwrap().contains("<html"));
}

fn interrupted_thermal_restores_and_writes_the_document(signal: i32) {
    let tmp = tempfile::tempdir().unwrap();
    let root = common::fixture_machine("rk3588", tmp.path());
    let original = common::tunable_files(&root);
    let doc_path = tmp.path().join("doc.json");
    let mut child = cmd(Some(&root), tmp.path())
        .args([
            "thermal",
            "--duration",
            "600",
            "--interval",
            "0.2",
            "--no-store",
            "-o",
        ])
        .arg(&doc_path)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_tuned(&root, &mut child);
    // Mid-heat: let it sample a few intervals.
    std::thread::sleep(Duration::from_millis(1000));
    assert_ne!(common::tunable_files(&root), original);
    let status = common::signal_and_assert_restored(&mut child, signal, &root, &original);
    assert_eq!(status.code(), Some(128 + signal));
    let doc = read_doc(&doc_path);
    let heat = doc["run"]["phases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["kind"] == "thermal-heat")
        .unwrap();
    assert_eq!(heat["status"], "failed");
    assert!(heat["reason"].as_str().unwrap().contains("interrupted"));
    assert!(!heat["samples"].as_array().unwrap().is_empty());
}

#[test]
fn sigterm_mid_heat_restores_everything_and_keeps_the_record() {
    interrupted_thermal_restores_and_writes_the_document(libc::SIGTERM);
}

#[test]
fn sigint_mid_heat_restores_everything_and_keeps_the_record() {
    interrupted_thermal_restores_and_writes_the_document(libc::SIGINT);
}

#[test]
fn thermal_waits_for_the_target_temperature_first() {
    let tmp = tempfile::tempdir().unwrap();
    let root = common::fixture_machine("rk3588", tmp.path());
    let doc_path = tmp.path().join("doc.json");
    // Colder than the fixture will ever be (20 °C, the lowest target taken): the wait gives up
    // after its limit and heats anyway.
    let out = cmd(Some(&root), tmp.path())
        .args([
            "thermal",
            "--duration",
            "1",
            "--interval",
            "0.2",
            "--target-temp=20",
            "--cool-timeout",
            "0.5",
        ])
        .args(["--no-store", "-q", "-o"])
        .arg(&doc_path)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc = read_doc(&doc_path);
    let phases = doc["run"]["phases"].as_array().unwrap();
    assert_eq!(phases[0]["kind"], "thermal-cool");
    assert_eq!(phases[0]["status"], "failed");
    assert!(
        phases[0]["reason"]
            .as_str()
            .unwrap()
            .contains("heating anyway")
    );
    assert_eq!(phases[1]["kind"], "thermal-heat");
}

#[test]
fn thermal_with_an_external_load_ends_it_and_records_its_output() {
    let tmp = tempfile::tempdir().unwrap();
    let root = common::fixture_machine("rk3588", tmp.path());
    let doc_path = tmp.path().join("doc.json");
    let out = cmd(Some(&root), tmp.path())
        .args([
            "thermal",
            "--duration",
            "1",
            "--interval",
            "0.25",
            "--no-tune",
            "--no-store",
            "-q",
        ])
        .args(["--load", "echo heating; exec sleep 600", "-o"])
        .arg(&doc_path)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("External load: no score"), "{stdout}");
    let doc = read_doc(&doc_path);
    assert!(
        doc["run"].get("settings").is_none(),
        "--no-tune changed something"
    );
    let heat = &doc["run"]["phases"][0];
    let tr = &heat["tool_runs"][0];
    assert_eq!(tr["output"], "heating\n");
    assert_eq!(tr["end"], "killed by signal 15");
}

#[test]
fn env_runs_the_command_under_performance_and_restores_after() {
    let tmp = tempfile::tempdir().unwrap();
    let root = common::fixture_machine("rk3588", tmp.path());
    let original = common::tunable_files(&root);
    let doc_path = tmp.path().join("doc.json");
    let gov = root.join(GOV4);
    let out = cmd(Some(&root), tmp.path())
        .args([
            "env",
            "--for",
            "geekbench",
            "--no-idle-gate",
            "--no-store",
            "--interval",
            "0.2",
            "-o",
        ])
        .arg(&doc_path)
        .arg("--")
        .args(["sh", "-c", &format!("cat '{}'", gov.display())])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        matches!(out.status.code(), Some(0 | 2)),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The command saw performance; afterwards everything is back.
    assert!(stdout.starts_with("performance\n"), "{stdout}");
    assert_eq!(common::tunable_files(&root), original);
    let doc = read_doc(&doc_path);
    assert_eq!(doc["run"]["profile"], "env-geekbench");
    let phase = &doc["run"]["phases"][0];
    assert_eq!(phase["kind"], "env-wait");
    assert_eq!(phase["status"], "done");
    assert!(!phase["samples"].as_array().unwrap().is_empty());
    assert_eq!(phase["tool_runs"][0]["output"], "performance\n");
    assert_eq!(phase["tool_runs"][0]["end"], "exit 0");
}

#[test]
fn env_per_cluster_runs_the_command_once_per_cluster_then_on_all_cores() {
    let tmp = tempfile::tempdir().unwrap();
    let root = common::fixture_machine("rk3588", tmp.path());
    let original = common::tunable_files(&root);
    let doc_path = tmp.path().join("doc.json");
    let gov = root.join(GOV4);
    let out = cmd(Some(&root), tmp.path())
        .args([
            "env",
            "--for",
            "geekbench",
            "--per-cluster",
            "--no-idle-gate",
        ])
        .args(["--no-store", "--interval", "0.2", "-o"])
        .arg(&doc_path)
        .arg("--")
        .args(["sh", "-c", &format!("cat '{}'", gov.display())])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(matches!(out.status.code(), Some(0 | 2)), "{stderr}");
    assert_eq!(common::tunable_files(&root), original);
    let doc = read_doc(&doc_path);
    let phases = doc["run"]["phases"].as_array().unwrap();
    // RK3588: Cortex-A55 cpu0-3, Cortex-A76 cpu4-5 and cpu6-7, then all eight.
    let cpus: Vec<&serde_json::Value> = phases.iter().map(|p| &p["cpus"]).collect();
    assert_eq!(
        cpus,
        [
            &serde_json::json!([0, 1, 2, 3]),
            &serde_json::json!([4, 5]),
            &serde_json::json!([6, 7]),
            &serde_json::json!([0, 1, 2, 3, 4, 5, 6, 7]),
        ]
    );
    for (i, p) in phases.iter().enumerate() {
        assert_eq!(p["kind"], "env-wait");
        assert_eq!(p["status"], "done", "{p}");
        assert_eq!(p["tool_runs"][0]["output"], "performance\n", "run {i}");
        assert_eq!(
            p.get("cluster").and_then(|c| c.as_u64()),
            (i < 3).then_some(i as u64)
        );
    }
    assert!(
        phases[1]["title"]
            .as_str()
            .unwrap()
            .contains("(on cpu4-cpu5 (Cortex-A76")
    );
    assert!(stderr.contains("== Geekbench on cpu6-cpu7"), "{stderr}");

    // Without a command there is nothing to run per cluster.
    let out = cmd(Some(&root), tmp.path())
        .args(["env", "--for", "geekbench", "--per-cluster", "--no-store"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--per-cluster needs a command"));
}

#[test]
fn env_reports_a_failing_command_with_exit_code_2() {
    let tmp = tempfile::tempdir().unwrap();
    let root = common::fixture_machine("rk3588", tmp.path());
    let doc_path = tmp.path().join("doc.json");
    let out = cmd(Some(&root), tmp.path())
        .args([
            "env",
            "--for",
            "phoronix",
            "--no-idle-gate",
            "--no-store",
            "-o",
        ])
        .arg(&doc_path)
        .args(["--", "sh", "-c", "echo broken >&2; exit 3"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let doc = read_doc(&doc_path);
    let phase = &doc["run"]["phases"][0];
    assert_eq!(phase["status"], "failed");
    assert_eq!(phase["tool_runs"][0]["end"], "exit 3");
    assert_eq!(phase["tool_runs"][0]["output"], "broken\n");
}

fn interrupted_env(signal: i32, command: bool) {
    let tmp = tempfile::tempdir().unwrap();
    let root = common::fixture_machine("rk3588", tmp.path());
    let original = common::tunable_files(&root);
    let doc_path = tmp.path().join("doc.json");
    let mut c = cmd(Some(&root), tmp.path());
    c.args([
        "env",
        "--for",
        "phoronix",
        "--no-idle-gate",
        "--no-store",
        "--interval",
        "0.2",
        "-o",
    ])
    .arg(&doc_path);
    if command {
        c.args(["--", "sleep", "600"]);
    }
    let mut child = c
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_tuned(&root, &mut child);
    std::thread::sleep(Duration::from_millis(500));
    let status = common::signal_and_assert_restored(&mut child, signal, &root, &original);
    if command {
        assert_eq!(status.code(), Some(128 + signal));
    } else {
        // Without a command Ctrl-C is how the session ends.
        assert!(matches!(status.code(), Some(0 | 2)), "{status}");
    }
    let doc = read_doc(&doc_path);
    let phase = &doc["run"]["phases"][0];
    assert!(!phase["samples"].as_array().unwrap().is_empty());
    if command {
        assert_eq!(phase["status"], "failed");
        assert_eq!(phase["tool_runs"][0]["end"], "killed by signal 15");
    }
}

#[test]
fn ctrl_c_ends_env_without_a_command_and_writes_the_document() {
    interrupted_env(libc::SIGINT, false);
}

#[test]
fn sigterm_ends_the_command_under_env_restores_and_writes_the_document() {
    interrupted_env(libc::SIGTERM, true);
}

/// The real thing on this machine: 30 s of heat (what CI runs).
#[test]
fn real_thirty_second_thermal_test_on_this_machine() {
    if common::host_only() {
        eprintln!("skipped under emulation");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let doc_path = tmp.path().join("doc.json");
    let out = cmd(None, tmp.path())
        .args(["thermal", "--duration", "30", "--no-store", "-q", "-o"])
        .arg(&doc_path)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc = read_doc(&doc_path);
    let series = score_series(&doc);
    // A score for (about) every 2-second interval.
    assert!(series.len() >= 10, "{series:?}");
    assert!(series.iter().all(|&(_, v)| v > 0.0));
    let m = doc["measurements"].as_array().unwrap();
    assert!(
        m.iter()
            .any(|m| m["test"] == "sustained score" && m["value"].as_f64().unwrap() > 0.0)
    );
    let heat = doc["run"]["phases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["kind"] == "thermal-heat")
        .unwrap();
    let samples = heat["samples"].as_array().unwrap();
    let readings = samples.iter().any(|s| {
        s["temp_c"].is_number()
            || s["clocks_mhz"]
                .as_array()
                .is_some_and(|c| c.iter().any(|x| x.is_number()))
    });
    if !readings {
        assert!(
            stdout.contains("No clock/temperature readings on this machine"),
            "{stdout}"
        );
    }
    // 30 s is too short for a stability verdict (the last third spans 10 s).
    assert!(
        stdout.contains("Too short to say whether it stabilises"),
        "{stdout}"
    );
}
