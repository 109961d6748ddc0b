//! `boardbench kernel` (sbc-bench -k) on fixture roots: the probe's board trees
//! (crates/probe/tests/roots, read-only) and the kernel-info trees with configuration files
//! (crates/kernelinfo/tests/roots, made by their generate.py). The date is fixed with
//! `--today` so verdicts do not change as time passes.

use crate::common;

use std::path::{Path, PathBuf};

const TODAY: &str = "2026-11-23";

use testsupport::probe_root;

fn kernel_root(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../kernelinfo/tests/roots")
        .join(name)
}

/// Runs `boardbench --sysroot ROOT kernel ARGS…`; `None` where the binary cannot start.
fn kernel(root: &Path, args: &[&str]) -> Option<(i32, String, String)> {
    let out = common::boardbench_cmd()?
        .arg("--sysroot")
        .arg(root)
        .arg("kernel")
        .args(args)
        .output()
        .expect("start boardbench");
    Some((
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    ))
}

fn text(root: &Path) -> Option<String> {
    let (code, out, err) = kernel(root, &["--today", TODAY])?;
    assert_eq!(code, 0, "{err}");
    assert!(
        out.ends_with(&format!(
            "(series table as of 2026-11, judged on {TODAY})\n"
        )),
        "{out}"
    );
    Some(out)
}

fn json(root: &Path) -> Option<serde_json::Value> {
    let (code, out, err) = kernel(root, &["--json", "--today", TODAY])?;
    assert_eq!(code, 0, "{err}");
    Some(serde_json::from_str(&out).expect("valid JSON"))
}

fn line<'a>(out: &'a str, label: &str) -> &'a str {
    out.lines()
        .find(|l| l.starts_with(label))
        .unwrap_or_else(|| panic!("no {label:?} line in\n{out}"))
}

#[test]
fn rk3588_bsp_from_the_probe_tree() {
    let Some(out) = text(&probe_root("rk3588")) else {
        return;
    };
    assert_eq!(
        line(&out, "Kernel:"),
        "Kernel:         5.10.110-rockchip-rk3588 (aarch64)"
    );
    assert_eq!(line(&out, "Built:"), "Built:          2023-09-27");
    assert_eq!(
        line(&out, "Origin:"),
        "Origin:         vendor (BSP) kernel: Rockchip"
    );
    assert!(
        out.contains("device tree: RK3588 (rockchip,rk3588)"),
        "{out}"
    );
    assert_eq!(
        line(&out, "Point release:"),
        "Point release:  5.10.110, at least 130 behind"
    );
    assert!(
        line(&out, "Verdict:").starts_with(
            "Verdict:        WARNING: vendor kernel based on 5.10 — security fixes depend on the vendor (Rockchip)"
        ),
        "{out}"
    );
}

#[test]
fn raspberry_pi_armbian_and_ubuntu_trees() {
    let Some(out) = text(&probe_root("rpi4")) else {
        return;
    };
    assert!(
        line(&out, "Origin:")
            .ends_with("downstream tree following kernel.org stable: Raspberry Pi")
    );
    assert!(
        line(&out, "Verdict:").contains("still supported until 2026-12"),
        "{out}"
    );

    let out = text(&probe_root("s922x")).unwrap();
    assert_eq!(
        line(&out, "Origin:"),
        "Origin:         mainline (kernel.org sources): Armbian"
    );
    assert!(
        line(&out, "Verdict:")
            .contains("Armbian build of kernel.org 5.10: 5.10 is a longterm series")
    );

    let out = text(&probe_root("intel-hybrid")).unwrap();
    assert_eq!(
        line(&out, "Origin:"),
        "Origin:         distribution kernel: Ubuntu"
    );
    assert!(line(&out, "Verdict:").contains("upstream series 6.8 is end of life since 2024-05-30"));
}

#[test]
fn every_probe_tree_gets_a_verdict() {
    for tree in [
        "rk3399",
        "rk3399-big-offline",
        "rk3588",
        "rpi4",
        "s922x",
        "intel-hybrid",
        "amd-desktop",
        "arm64-20-policies",
        "vm",
        "broken",
    ] {
        let Some(out) = text(&probe_root(tree)) else {
            return;
        };
        let v = line(&out, "Verdict:");
        assert!(
            ["OK: ", "WARNING: ", "CRITICAL: ", "UNKNOWN: "]
                .iter()
                .any(|l| v[16..].starts_with(l)),
            "{tree}: {v}"
        );
        // The fixture's own path never leaks into the report.
        assert!(!out.contains("tests/roots"), "{tree}: {out}");
    }
}

#[test]
fn debian_config_from_boot_as_json() {
    let Some(j) = json(&kernel_root("debian-arm64")) else {
        return;
    };
    assert_eq!(j["release"], "6.1.0-27-arm64");
    assert_eq!(j["config"]["source"], "/boot/config-6.1.0-27-arm64");
    assert_eq!(j["config"]["hz"], 250);
    assert_eq!(j["config"]["preempt"], "voluntary (dynamic)");
    assert_eq!(j["config"]["cpu_freq_stat"], true);
    assert_eq!(j["build"]["date"], "2024-11-01");
    assert_eq!(j["build"]["builder"], "debian-kernel@lists.debian.org");
    assert_eq!(j["origin"]["kind"], "distro");
    assert_eq!(j["origin"]["maintainer"], "Debian");
    assert_eq!(j["origin"]["upstream_point"], 115);
    assert_eq!(j["upstream"]["series"], "6.1");
    assert_eq!(j["upstream"]["longterm"], true);
    assert_eq!(j["upstream"]["eol"], "2027-12");
    assert_eq!(j["upstream"]["eol_basis"], "projected");
    assert_eq!(j["upstream"]["status"], "supported");
    assert_eq!(j["upstream"]["behind"], 32);
    assert_eq!(j["upstream"]["behind_at_least"], true);
    assert_eq!(j["level"], "ok");
    assert_eq!(j["table_as_of"], "2026-11");
    assert_eq!(j["today"], TODAY);
}

#[test]
fn bsp_config_gz_without_cpufreq_stats() {
    let Some(j) = json(&kernel_root("rk3588-bsp")) else {
        return;
    };
    assert_eq!(j["config"]["source"], "/proc/config.gz");
    assert_eq!(j["config"]["hz"], 300);
    assert_eq!(j["config"]["preempt"], "full");
    assert_eq!(j["config"]["cpu_freq_stat"], false);
    assert_eq!(j["origin"]["kind"], "vendor");
    assert_eq!(j["origin"]["maintainer"], "Rockchip");
    assert_eq!(j["level"], "warning");
    let out = text(&kernel_root("rk3588-bsp")).unwrap();
    assert!(
        line(&out, "Config:").contains("CPU_FREQ_STAT no (no cpufreq statistics)"),
        "{out}"
    );
}

#[test]
fn ubuntu_signature_and_broken_config_gz() {
    let Some(j) = json(&kernel_root("ubuntu-raspi")) else {
        return;
    };
    assert_eq!(j["origin"]["maintainer"], "Ubuntu");
    assert_eq!(j["origin"]["upstream_point"], 98);
    assert_eq!(
        j["origin"]["upstream_point_source"],
        "/proc/version_signature"
    );
    assert!(
        j["config"].get("source").is_none(),
        "no config in this tree"
    );

    let j = json(&kernel_root("bad-config")).unwrap();
    assert_eq!(j["config"]["source"], "/boot/config-6.12.1");
    assert_eq!(j["config"]["preempt"], "rt");
    let problem = j["config"]["problem"].as_str().unwrap();
    assert!(
        problem.starts_with("/proc/config.gz: not a readable gzip file"),
        "{problem}"
    );
}

#[test]
fn empty_root_is_an_error_and_the_real_date_is_the_default() {
    let dir = tempfile::tempdir().unwrap();
    let Some((code, out, _)) = kernel(dir.path(), &[]) else {
        return;
    };
    assert_eq!(code, 1);
    assert!(
        line(&out, "Verdict:").contains("could not be read"),
        "{out}"
    );
    // Without --today the verdict is made for the real date (not pinned: it changes daily).
    let (code, out, _) = kernel(&probe_root("vm"), &[]).unwrap();
    assert_eq!(code, 0);
    assert!(
        !out.contains(&format!("judged on {TODAY}")) || chrono_today_is(TODAY),
        "{out}"
    );
}

fn chrono_today_is(d: &str) -> bool {
    chrono::Local::now().date_naive().to_string() == d
}

#[test]
fn bad_today_is_rejected() {
    let Some((code, _, err)) = kernel(&probe_root("vm"), &["--today", "2026-13-01"]) else {
        return;
    };
    // A usage error (64), not 2 ("completed, not to be trusted").
    assert_eq!(code, 64, "{err}");
}
