//! `boardbench clock --opp-walk` on a writable fixture tree: which cpufreq files are written in
//! which order, and that every one of them is put back — after a normal end and after a SIGTERM
//! in the middle of the walk. The measured clocks are the real CPU's, so they are not checked
//! against the fake OPPs.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};

const CPU: &str = "sys/devices/system/cpu";

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn read(root: &Path, rel: &str) -> String {
    std::fs::read_to_string(root.join(rel)).unwrap()
}

/// Two one-CPU policies (cpu0, cpu1: CPUs that exist on every test machine… if it has two) in
/// two packages, so they are two clusters. policy0 is user-capped to 1008 MHz with a raised
/// floor and the schedutil governor.
fn board() -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    let r = d.path();
    for f in ["possible", "present", "online"] {
        write(r, &format!("{CPU}/{f}"), "0-1\n");
    }
    let policies = [
        (
            0,
            "600000 1008000 1800000 ",
            600_000,
            1_008_000,
            1_008_000,
            "schedutil",
        ),
        (
            1,
            "816000 2016000 ",
            816_000,
            816_000,
            2_016_000,
            "performance",
        ),
    ];
    for (p, opps, cpuinfo_min, min, max, gov) in policies {
        write(
            r,
            &format!("{CPU}/cpu{p}/topology/physical_package_id"),
            &format!("{p}\n"),
        );
        let b = format!("{CPU}/cpufreq/policy{p}");
        write(r, &format!("{b}/related_cpus"), &format!("{p}\n"));
        write(r, &format!("{b}/affected_cpus"), &format!("{p}\n"));
        write(
            r,
            &format!("{b}/scaling_available_frequencies"),
            &format!("{opps}\n"),
        );
        write(
            r,
            &format!("{b}/cpuinfo_min_freq"),
            &format!("{cpuinfo_min}\n"),
        );
        let top = opps.split_whitespace().last().unwrap();
        write(r, &format!("{b}/cpuinfo_max_freq"), &format!("{top}\n"));
        write(r, &format!("{b}/scaling_min_freq"), &format!("{min}\n"));
        write(r, &format!("{b}/scaling_max_freq"), &format!("{max}\n"));
        write(r, &format!("{b}/scaling_governor"), &format!("{gov}\n"));
        write(
            r,
            &format!("{b}/scaling_available_governors"),
            "performance schedutil powersave\n",
        );
    }
    d
}

/// Every file of the tree with its content.
fn snapshot(root: &Path) -> Vec<(String, String)> {
    fn walk(dir: &Path, base: &Path, out: &mut Vec<(String, String)>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, base, out);
            } else {
                let rel = p.strip_prefix(base).unwrap().display().to_string();
                out.push((rel, std::fs::read_to_string(&p).unwrap()));
            }
        }
    }
    let mut v = Vec::new();
    walk(root, root, &mut v);
    v.sort();
    v
}

fn two_cpus() -> bool {
    std::thread::available_parallelism().map_or(0, |n| n.get()) >= 2
}

use crate::common;
use common::boardbench_cmd;

fn boardbench(root: &Path) -> Option<Command> {
    let mut c = boardbench_cmd()?;
    c.arg("--sysroot")
        .arg(root)
        .env_remove("MaxKHz")
        .env_remove("MinKHz");
    Some(c)
}

#[test]
fn the_walk_measures_every_opp_from_the_top_and_restores_every_file() {
    if !two_cpus() {
        return;
    }
    let d = board();
    let before = snapshot(d.path());
    let Some(mut cmd) = boardbench(d.path()) else {
        return;
    };
    let out = cmd
        .args(["clock", "--opp-walk", "--samples", "1", "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["cpufreq"], true);
    let got: Vec<(u64, u64, u64)> = v["readings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["cpu"].as_u64().unwrap(),
                r["policy"].as_u64().unwrap(),
                r["opp_khz"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (0, 0, 1_800_000),
            (0, 0, 1_008_000),
            (0, 0, 600_000),
            (1, 1, 2_016_000),
            (1, 1, 816_000)
        ]
    );
    for r in v["readings"].as_array().unwrap() {
        assert_eq!(r["samples"].as_array().unwrap().len(), 1);
    }
    assert_eq!(snapshot(d.path()), before);
}

/// An old BSP kernel has no `cpufreq/policyN`, only `cpuN/cpufreq`: the same walk, the same
/// readings, every file put back.
#[test]
fn the_walk_on_an_old_kernels_cpufreq_layout_writes_there_and_restores() {
    if !two_cpus() {
        return;
    }
    let d = board();
    assert_eq!(testsupport::legacy_cpufreq(d.path()), [0, 1]);
    let before = snapshot(d.path());
    let Some(mut cmd) = boardbench(d.path()) else {
        return;
    };
    let out = cmd
        .args(["clock", "--opp-walk", "--samples", "1", "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let opps: Vec<u64> = v["readings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["opp_khz"].as_u64().unwrap())
        .collect();
    assert_eq!(opps, [1_800_000, 1_008_000, 600_000, 2_016_000, 816_000]);
    assert_eq!(snapshot(d.path()), before);
}

#[test]
fn max_and_min_khz_skip_opps_outside_the_window() {
    if !two_cpus() {
        return;
    }
    let d = board();
    let Some(mut cmd) = boardbench(d.path()) else {
        return;
    };
    let out = cmd
        .args(["clock", "--opp-walk", "--samples", "1"])
        .env("MaxKHz", "1500000")
        .env("MinKHz", "700000")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let opps: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("Cpufreq OPP: "))
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(opps, ["1008", "816"], "{text}");
    assert!(text.contains("Checking cpufreq OPP for cpu0:"), "{text}");
    assert!(text.contains("Checking cpufreq OPP for cpu1:"), "{text}");
}

#[test]
fn sigterm_in_the_middle_of_the_walk_restores_every_value() {
    interrupt_mid_walk(nix::sys::signal::Signal::SIGTERM, 143);
}

#[test]
fn ctrl_c_in_the_middle_of_the_walk_restores_every_value() {
    interrupt_mid_walk(nix::sys::signal::Signal::SIGINT, 130);
}

/// Starts a walk that pauses after the first OPP, checks the changed values, sends `sig` and
/// expects every file back as it was and the exit code `code` (128 + signal).
fn interrupt_mid_walk(sig: nix::sys::signal::Signal, code: i32) {
    let d = board();
    let before = snapshot(d.path());
    let Some(mut cmd) = boardbench(d.path()) else {
        return;
    };
    let mut child = cmd
        .args(["clock", "--opp-walk", "--cpu", "0", "--samples", "1"])
        .args(["--pause-ms", "60000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let heading = lines.next().unwrap().unwrap();
    assert_eq!(heading, "Checking cpufreq OPP for cpu0:");
    let first = lines.next().unwrap().unwrap();
    assert!(
        first.starts_with("Cpufreq OPP: 1800    Measured: "),
        "{first}"
    );
    // Mid-walk, pausing after the first OPP: governor, floor and cap are changed …
    let p0 = format!("{CPU}/cpufreq/policy0");
    assert_eq!(
        read(d.path(), &format!("{p0}/scaling_governor")),
        "performance\n"
    );
    assert_eq!(
        read(d.path(), &format!("{p0}/scaling_min_freq")),
        "600000\n"
    );
    assert_eq!(
        read(d.path(), &format!("{p0}/scaling_max_freq")),
        "1800000\n"
    );
    // … and the signal puts them back before the process exits with 128 + signal.
    nix::sys::signal::kill(nix::unistd::Pid::from_raw(child.id() as i32), sig).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(code));
    assert_eq!(snapshot(d.path()), before);
}
