//! `boardbench info` on every fixture root tree (crates/probe/tests/roots), text and `--json`,
//! pinned by insta snapshots (tests/snapshots/info_snapshots__*.snap). Review changes with
//! `cargo insta review` or by reading the `.snap.new` files.
//!
//! The output must not depend on the host: a fixture root never asks uname(2) or runs
//! vcgencmd, and the root's own path never appears in the output.

use crate::common;

use std::path::PathBuf;

const TREES: &[&str] = &[
    "rk3399",
    "rk3399-big-offline",
    "rk3588",
    "rpi4",
    "s922x",
    "intel-hybrid",
    "amd-desktop",
    "arm64-20-policies",
    "vm",
    "rpi1-armv6",
    "broken",
];

fn roots() -> PathBuf {
    testsupport::crates_dir().join("probe/tests/roots")
}

/// Under qemu-user (cross runs, BOARDBENCH_EMULATED=1) the test cannot start the cross-built
/// binary itself unless binfmt_misc is set up, which containers often lack. The output is a
/// pure function of the probe's snapshot, which the probe's own tests cover on every target,
/// so these end-to-end tests run on the host only.
fn emulated() -> bool {
    testsupport::host_only()
}

fn info(tree: &str, extra: &[&str]) -> String {
    let out = common::command()
        .arg("--sysroot")
        .arg(roots().join(tree))
        .arg("info")
        .args(extra)
        // Settings from the caller's environment would change the output (`common::command`
        // already drops the machine root and cpuinfo).
        .env_remove("BOARDBENCH_THERMAL_SOURCE")
        .output()
        .expect("run boardbench");
    assert!(
        out.status.success(),
        "{tree}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

#[test]
fn info_text() {
    if emulated() {
        return;
    }
    for t in TREES {
        insta::assert_snapshot!(format!("text-{t}"), info(t, &[]));
    }
}

#[test]
fn info_json() {
    if emulated() {
        return;
    }
    for t in TREES {
        let s = info(t, &["--json"]);
        let v: serde_json::Value = serde_json::from_str(&s).expect("valid JSON");
        assert!(v.get("clusters").is_some(), "{t}");
        insta::assert_snapshot!(format!("json-{t}"), s);
    }
}

#[test]
fn thermal_source_override_from_the_command_line() {
    if emulated() {
        return;
    }
    let s = info("rk3588", &["--thermal-source", "bigcore1-thermal"]);
    assert!(
        s.contains("Thermal source: /sys/class/thermal/thermal_zone2/temp (bigcore1-thermal"),
        "{s}"
    );
    assert!(s.contains("why: user override"), "{s}");
}

#[test]
fn the_text_names_what_matters() {
    if emulated() {
        return;
    }
    let s = info("rk3588", &[]);
    for want in [
        "SoC guess:",
        "CPU:        4× Cortex-A55 / r2p0, 4× Cortex-A76 / r4p0",
        // sbc-bench's PrintCPUTopology table, as the log has it (`textout::machine`).
        "CPU sysfs topology (clusters, cpufreq members, clockspeeds)\n",
        "  6        2        6      408    2400   Cortex-A76 / r4p0\n",
        "  cluster 2 (cpu6-7): governor schedutil, OPPs 408 ",
        "Thermal source: /sys/class/thermal/thermal_zone0/temp (soc-thermal, 36.1°C)",
        "Swap:       /swapfile (file)",
        "zswap:      enabled (zstd/zsmalloc",
    ] {
        assert!(s.contains(want), "missing {want:?} in\n{s}");
    }
    let pi = info("rpi4", &[]);
    assert!(pi.contains("32-bit userland on a 64-bit kernel"), "{pi}");
    assert!(
        pi.contains("Throttled:  0x50005: under-voltage now"),
        "{pi}"
    );
}

/// issue 11 item 4: `--cpuinfo-file` (CPUINFOFILE) with another board's capture: the CPU line
/// and the core-type table describe all of the file's processors; the topology is said to be
/// this machine's.
#[test]
fn a_foreign_cpuinfo_describes_the_files_processors() {
    if emulated() {
        return;
    }
    let file = roots().join("rk3588/proc/cpuinfo");
    let s = info("vm", &["--cpuinfo-file", file.to_str().unwrap()]);
    for want in [
        "CPU:        8 processors: 4× Cortex-A55 / r2p0, 4× Cortex-A76 / r4p0",
        "rk3588/proc/cpuinfo (core types from the file)",
        "   0   Cortex-A55 / r2p0\n",
        "   7   Cortex-A76 / r4p0\n",
        "the topology, cpufreq, caches and temperatures below are this machine's",
        "CPU sysfs topology (clusters, cpufreq members, clockspeeds)\n",
        "  1        0        -        -       -   AMD EPYC",
        "SoC guess:  one of: Rockchip RK3588,",
    ] {
        assert!(s.contains(want), "missing {want:?} in\n{s}");
    }
    // An old uniprocessor capture (no `processor : N`): one ARM1176, the Pi 1's SoC.
    let old = roots().join("rpi1-armv6/proc/cpuinfo");
    let s = info("vm", &["--cpuinfo-file", old.to_str().unwrap()]);
    assert!(
        s.contains("CPU:        1 processor: 1× ARM1176 / r0p7"),
        "{s}"
    );
    assert!(s.contains("SoC guess:  Broadcom BCM2835"), "{s}");
}
