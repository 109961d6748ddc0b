//! `boardbench review` on writable copies of the review's fixture trees: the review is
//! printed, governors (cpufreq and devfreq) and the ASPM policy are switched to performance
//! for the window and put back afterwards — at a normal end, when the command fails, and on
//! SIGTERM and SIGINT.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const GOV4: &str = "sys/devices/system/cpu/cpufreq/policy4/scaling_governor";
const DMC: &str = "sys/class/devfreq/dmc/governor";
const ASPM: &str = "sys/module/pcie_aspm/parameters/policy";
/// Every file review changes on the RK3588 tree.
const CHANGED: &[&str] = &[
    "sys/devices/system/cpu/cpufreq/policy0/scaling_governor",
    GOV4,
    "sys/devices/system/cpu/cpufreq/policy6/scaling_governor",
    DMC,
    "sys/class/devfreq/fb000000.gpu/governor",
    ASPM,
];

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../review/tests/roots")
        .join(name)
}

fn writable(name: &str) -> (tempfile::TempDir, PathBuf) {
    let d = tempfile::tempdir().unwrap();
    let root = d.path().join(name);
    common::copy_tree(&fixture(name), &root);
    (d, root)
}

/// Every changed file holds what was written to restore it: the file's original, except that a
/// choice list (ASPM's `default performance [powersave] powersupersave `) gets the selected
/// word, the one thing the kernel accepts (a kernel would show the list again).
fn assert_restored(root: &Path, name: &str) {
    for f in CHANGED {
        let original = std::fs::read_to_string(fixture(name).join(f)).unwrap();
        let want = tune::restore_form(&original).unwrap() + "\n";
        assert_eq!(
            std::fs::read_to_string(root.join(f)).unwrap(),
            want,
            "{f} not restored"
        );
    }
}

fn review(root: &Path) -> Command {
    let mut c = common::boardbench_cmd().unwrap();
    c.arg("--sysroot")
        .arg(root)
        .arg("review")
        .arg("--no-baseline");
    c.env_remove("ExecuteCommand");
    c
}

#[test]
fn tunes_for_the_command_and_restores_after() {
    let (_d, root) = writable("rk3588-nvme");
    let script = format!(
        "cat {} {} {}",
        root.join(GOV4).display(),
        root.join(DMC).display(),
        root.join(ASPM).display()
    );
    let out = review(&root)
        .args([
            "--count",
            "1",
            "--interval",
            "0.2",
            "--",
            "sh",
            "-c",
            &script,
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The review came first, with the downgraded link.
    assert!(stdout.contains("link downgraded to Gen2 x1"), "{stdout}");
    assert!(
        stdout.contains("devfreq dmc governor: dmc_ondemand → performance"),
        "{stdout}"
    );
    assert!(
        stdout.contains("PCIe ASPM policy: powersave → performance"),
        "{stdout}"
    );
    // During the command all three kinds of setting said performance.
    let perf = stdout.lines().filter(|l| *l == "performance").count();
    assert_eq!(perf, 3, "{stdout}");
    assert!(stdout.contains("Restored 6 setting(s)"), "{stdout}");
    assert_restored(&root, "rk3588-nvme");
}

#[test]
fn monitor_only_with_count_restores_and_execute_command_env_works() {
    let (_d, root) = writable("rk3588-nvme");
    let out = review(&root)
        .args(["--quick", "--count", "2", "--interval", "0.2"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("Window: "), "{stdout}");
    assert_restored(&root, "rk3588-nvme");

    // sbc-bench's ExecuteCommand: a shell command string.
    let out = review(&root)
        .args(["--count", "1", "--interval", "0.2"])
        .env(
            "ExecuteCommand",
            format!("cat {}", root.join(GOV4).display()),
        )
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.lines().any(|l| l == "performance"), "{stdout}");
    assert_restored(&root, "rk3588-nvme");
}

/// A file the kernel refuses to change (EPERM, as the ASPM policy on a machine whose firmware
/// owns ASPM): made immutable, so that even root's write fails. Skipped where `chattr` cannot
/// (not root, a filesystem without the flag).
#[test]
fn a_refused_write_is_reported_once_and_the_review_stays_good() {
    let (_d, root) = writable("rk3588-nvme");
    let aspm = root.join(ASPM);
    let immutable = |on: bool| {
        Command::new("chattr")
            .arg(if on { "+i" } else { "-i" })
            .arg(&aspm)
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    if !immutable(true) || std::fs::OpenOptions::new().write(true).open(&aspm).is_ok() {
        immutable(false);
        eprintln!("skipped: cannot make a file refuse writes here");
        return;
    }
    let out = review(&root)
        .args(["--quick", "--count", "1", "--interval", "0.2"])
        .output()
        .unwrap();
    immutable(false);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    let refusals: Vec<&str> = stdout
        .lines()
        .chain(stderr.lines())
        .filter(|l| l.contains("could not change") || l.contains("could not restore"))
        .collect();
    assert_eq!(
        refusals,
        ["  could not change PCIe ASPM policy: Operation not permitted (os error 1)"],
        "{stdout}{stderr}"
    );
    // The five other settings were changed and put back; the refused one never counted and was
    // never written again.
    assert!(
        stdout.contains("Restored 5 setting(s) to their original values."),
        "{stdout}"
    );
    assert_eq!(
        std::fs::read(&aspm).unwrap(),
        std::fs::read(fixture("rk3588-nvme").join(ASPM)).unwrap()
    );
    for f in CHANGED.iter().filter(|f| **f != ASPM) {
        assert_eq!(
            std::fs::read(root.join(f)).unwrap(),
            std::fs::read(fixture("rk3588-nvme").join(f)).unwrap(),
            "{f} not restored"
        );
    }
}

#[test]
fn a_failing_command_exits_2_and_still_restores() {
    let (_d, root) = writable("rk3588-nvme");
    let out = review(&root)
        .args(["--interval", "0.2", "--", "sh", "-c", "exit 3"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{stdout}");
    assert!(stdout.contains("ended: exit 3"), "{stdout}");
    assert_restored(&root, "rk3588-nvme");
}

#[test]
fn no_tune_changes_nothing_and_json_is_json_lines() {
    let (_d, root) = writable("rpi4-usb-sata");
    let out = review(&root)
        .args(["--json", "--no-tune", "--count", "1", "--interval", "0.2"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert_eq!(lines.len(), 3, "review, one sample, window: {stdout}");
    let kinds: Vec<&str> = lines[0]["review"]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["kind"].as_str().unwrap())
        .collect();
    assert!(kinds.contains(&"usb-storage-not-uas"), "{kinds:?}");
    assert!(kinds.contains(&"ondemand-io-is-busy"), "{kinds:?}");
    assert!(lines[1]["clocks_mhz"].is_array());
    assert_eq!(lines[2]["window"]["tuned"], false);
    let gov = "sys/devices/system/cpu/cpufreq/policy0/scaling_governor";
    assert_eq!(
        std::fs::read(root.join(gov)).unwrap(),
        std::fs::read(fixture("rpi4-usb-sata").join(gov)).unwrap()
    );
}

/// Interrupts review once everything is tuned. With a command, the command writes its pid
/// first and must be gone afterwards (sbc-bench leaves it running). Either way the window is
/// still judged and printed, then everything is restored, and the exit code is 128 + signal.
fn signal_restores(sig: nix::sys::signal::Signal, code: i32, with_command: bool) {
    let (d, root) = writable("rk3588-nvme");
    let pid_file = d.path().join("command.pid");
    let mut c = review(&root);
    c.args(["--interval", "30"]);
    if with_command {
        let script = format!("echo $$ > {}; exec sleep 600", pid_file.display());
        c.args(["--", "sh", "-c", &script]);
    }
    let mut child = c
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // The ASPM policy is written last: once it says performance, everything was changed.
    common::wait_until_files_hold(&mut child, &[(&root.join(ASPM), "performance")]);
    assert_eq!(
        std::fs::read_to_string(root.join(DMC)).unwrap().trim(),
        "performance"
    );
    let command_pid = with_command.then(|| {
        let start = Instant::now();
        loop {
            if let Some(p) = std::fs::read_to_string(&pid_file)
                .ok()
                .and_then(|s| s.trim().parse::<i32>().ok())
            {
                break p;
            }
            assert!(
                start.elapsed() < Duration::from_secs(120),
                "the command never started"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    });
    nix::sys::signal::kill(nix::unistd::Pid::from_raw(child.id() as i32), sig).unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(code), "{stdout}");
    assert!(
        stdout.contains(&format!("interrupted by signal {}", sig as i32)),
        "the window is still reported: {stdout}"
    );
    assert!(stdout.contains("Restored 6 setting(s)"), "{stdout}");
    assert_restored(&root, "rk3588-nvme");
    if let Some(p) = command_pid {
        assert!(
            nix::sys::signal::kill(nix::unistd::Pid::from_raw(p), None).is_err(),
            "the command (pid {p}) outlived review"
        );
    }
}

#[test]
fn sigterm_ends_the_command_reports_the_window_and_restores() {
    signal_restores(nix::sys::signal::Signal::SIGTERM, 143, true);
}

#[test]
fn sigint_reports_the_window_and_restores() {
    signal_restores(nix::sys::signal::Signal::SIGINT, 130, false);
}

#[test]
fn sighup_restores_too() {
    signal_restores(nix::sys::signal::Signal::SIGHUP, 129, false);
}
