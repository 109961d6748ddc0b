//! The external tools on a bare image: `boardbench doctor` (table, JSON, the install command per
//! distribution from os-release), the block `run` prints before it starts when a tool is
//! missing, and `--install-tools` with a fake package manager on a PATH made by the test (no
//! real package manager ever runs). The distribution is read through `--sysroot`.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn os_release(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/os-release")
        .join(name)
}

/// A root holding only `etc/os-release` of `distro`.
fn distro_root(dir: &Path, distro: &str) -> PathBuf {
    let root = dir.join(format!("root-{distro}"));
    std::fs::create_dir_all(root.join("etc")).unwrap();
    std::fs::copy(os_release(distro), root.join("etc/os-release")).unwrap();
    root
}

fn cmd(root: &Path, path: &str, home: &Path) -> Command {
    let mut c = common::boardbench_cmd().unwrap();
    c.env_clear()
        .env("PATH", path)
        .env("HOME", home)
        .env("NO_COLOR", "1")
        .arg("--sysroot")
        .arg(root);
    if let Some(v) = std::env::var_os("QEMU_LD_PREFIX") {
        c.env("QEMU_LD_PREFIX", v);
    }
    c
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() == 0 }
}

fn doctor_json(root: &Path, path: &str, home: &Path) -> serde_json::Value {
    let out = cmd(root, path, home)
        .args(["doctor", "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The install command `doctor --json` gives for `run`'s missing tools.
fn run_gap(report: &serde_json::Value) -> &serde_json::Value {
    report["missing"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["mode"] == "run")
        .expect("a gap for run")
}

/// Every supported distribution gets its one command; an unknown one gets the tools named and
/// no command. Nothing is on PATH but an empty directory, so OpenSSL and 7-Zip are missing.
#[test]
fn doctor_gives_the_install_command_of_each_distribution() {
    let tmp = tempfile::tempdir().unwrap();
    let empty = tmp.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let path = empty.display().to_string();
    let cases: &[(&str, &str, Option<&str>)] = &[
        (
            "debian-12",
            "apt",
            Some("apt-get install -y openssl p7zip-full"),
        ),
        (
            "ubuntu-20.04",
            "apt",
            Some("apt-get install -y openssl p7zip-full"),
        ),
        (
            "raspbian-11",
            "apt",
            Some("apt-get install -y openssl p7zip-full"),
        ),
        (
            "armbian-bookworm",
            "apt",
            Some("apt-get install -y openssl p7zip-full"),
        ),
        ("fedora-40", "dnf", Some("dnf install -y openssl p7zip")),
        (
            "arch",
            "pacman",
            Some("pacman -S --needed --noconfirm openssl 7zip"),
        ),
        ("alpine-3.20", "apk", Some("apk add openssl 7zip")),
        (
            "openwrt-23.05",
            "opkg",
            Some("opkg install openssl-util p7zip"),
        ),
        ("buildroot-2024.02", "", None),
    ];
    for (distro, pm, want) in cases {
        let root = distro_root(tmp.path(), distro);
        let r = doctor_json(&root, &path, tmp.path());
        let gap = run_gap(&r);
        assert_eq!(
            gap["missing"],
            serde_json::json!(["OpenSSL", "7-Zip"]),
            "{distro}"
        );
        assert_eq!(
            gap["phases"],
            serde_json::json!(["openssl", "7zip-single", "7zip-multi"]),
            "{distro}"
        );
        let install = &gap["install"];
        let command = install["command"].as_array().map(|c| {
            c.iter()
                .map(|w| w.as_str().unwrap())
                .collect::<Vec<_>>()
                .join(" ")
        });
        assert_eq!(command.as_deref(), *want, "{distro}");
        if pm.is_empty() {
            assert!(install["package_manager"].is_null(), "{distro}");
            assert_eq!(
                install["unpackaged"],
                serde_json::json!(["OpenSSL", "7-Zip"])
            );
        } else {
            assert_eq!(install["package_manager"], *pm, "{distro}");
        }
        // cpuminer is packaged nowhere: named, never given a made-up package.
        let miner = r["missing"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["mode"] == "run -c")
            .unwrap();
        assert!(miner["install"]["command"].is_null(), "{distro}");
        assert_eq!(
            miner["install"]["unpackaged"],
            serde_json::json!(["cpuminer"])
        );
    }
    // The text names the distribution, the modes and the command.
    let root = distro_root(tmp.path(), "raspbian-11");
    let out = cmd(&root, &path, tmp.path())
        .arg("doctor")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let t = text(&out.stdout);
    assert!(
        t.starts_with("External tools (Raspbian GNU/Linux 11 (bullseye)):\n"),
        "{t}"
    );
    assert!(
        t.contains("Missing for run: OpenSSL, 7-Zip (skips openssl, 7zip-single, 7zip-multi)"),
        "{t}"
    );
    assert!(
        t.contains("  Install with (Raspbian GNU/Linux 11 (bullseye), apt): apt-get install -y openssl p7zip-full\n"),
        "{t}"
    );
    let root = distro_root(tmp.path(), "buildroot-2024.02");
    let t = text(
        &cmd(&root, &path, tmp.path())
            .arg("doctor")
            .output()
            .unwrap()
            .stdout,
    );
    assert!(
        t.contains("No known package manager for Buildroot 2024.02: install OpenSSL, 7-Zip with its own tools"),
        "{t}"
    );
}

/// With the stub tools (recorded outputs of 7-Zip 26.02, OpenSSL 3.0.19 …) the table shows each
/// found tool's version as the adapters read it and whether it compares with sbc-bench.
#[test]
fn doctor_shows_versions_and_comparability() {
    let tmp = tempfile::tempdir().unwrap();
    let bin = common::stub_tools(tmp.path(), common::ALL_TOOLS);
    let root = distro_root(tmp.path(), "debian-12");
    let path = bin.display().to_string();
    let out = cmd(&root, &path, tmp.path())
        .arg("doctor")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let t = text(&out.stdout);
    let line = |family: &str| {
        t.lines()
            .find(|l| l.starts_with(&format!("{family} ")))
            .unwrap_or_else(|| panic!("no {family} row:\n{t}"))
            .to_string()
    };
    let sz = line("7-Zip");
    assert!(sz.contains(&bin.join("7z").display().to_string()), "{sz}");
    assert!(sz.contains("7-Zip 26.02"), "{sz}");
    assert!(sz.contains("no: 26.02 is newer than 16.02"), "{sz}");
    assert!(sz.contains("run (7zip-single, 7zip-multi)"), "{sz}");
    let ossl = line("OpenSSL");
    assert!(ossl.contains("OpenSSL 3.0.19"), "{ossl}");
    assert!(
        ossl.contains("yes, with the same OpenSSL version and build"),
        "{ossl}"
    );
    assert!(line("Stockfish").contains("Stockfish 15.1"), "{t}");
    assert!(line("cpuminer").contains("run -c (cpuminer)"), "{t}");
    assert!(!t.contains("Missing for run:"), "{t}");
    assert!(!t.contains("Missing for run -s"), "{t}");

    let r = doctor_json(&root, &path, tmp.path());
    let tools = r["tools"].as_array().unwrap();
    let sz = tools.iter().find(|s| s["family"] == "7-Zip").unwrap();
    assert_eq!(sz["version"], "7-Zip 26.02");
    assert!(
        r["missing"]
            .as_array()
            .unwrap()
            .iter()
            .all(|g| g["mode"] != "run")
    );
    // A usage error is 64, as everywhere.
    let out = cmd(&root, &path, tmp.path())
        .args(["doctor", "--jsn"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(64));
}

/// A fake `apt-get` that logs its arguments and "installs" stub tools by copying them from
/// `stubs` into `bin` (or fails with `fail`).
fn fake_apt(bin: &Path, stubs: &Path, log: &Path, fail: Option<i32>) {
    let body = match fail {
        Some(code) => format!("echo \"$@\" >> '{}'\nexit {code}\n", log.display()),
        None => format!(
            "echo \"$@\" >> '{}'\necho 'Setting up openssl ...'\n/bin/cp '{}'/* '{}'/\n",
            log.display(),
            stubs.display(),
            bin.display()
        ),
    };
    let p = bin.join("apt-get");
    std::fs::write(&p, format!("#!/bin/sh\n{body}")).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn doctor_install_tools_runs_the_shown_command_and_respects_its_status() {
    let tmp = tempfile::tempdir().unwrap();
    let stubs = common::stub_tools(&tmp.path().join("pkg"), &["7z", "openssl"]);
    let bin = tmp.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let log = tmp.path().join("apt.log");
    fake_apt(&bin, &stubs, &log, None);
    let root = distro_root(tmp.path(), "debian-12");
    let path = bin.display().to_string();
    let out = cmd(&root, &path, tmp.path())
        .args(["doctor", "--install-tools"])
        .output()
        .unwrap();
    let (t, e) = (text(&out.stdout), text(&out.stderr));
    if !is_root() {
        assert_eq!(out.status.code(), Some(64), "{e}");
        assert!(
            e.contains("--install-tools installs packages and needs root"),
            "{e}"
        );
        assert!(!log.exists(), "nothing may run as non-root");
        return;
    }
    assert_eq!(out.status.code(), Some(0), "{e}");
    let args = std::fs::read_to_string(&log).unwrap();
    assert!(args.starts_with("install -y openssl p7zip-full"), "{args}");
    // Shown before it ran; its output on stderr, the report (after installing) on stdout.
    let shown = e.find("apt-get install -y openssl p7zip-full").expect(&e);
    assert!(shown < e.find("Setting up openssl").expect(&e), "{e}");
    assert!(!t.contains("Setting up"), "{t}");
    assert!(
        !t.contains("Missing for run:"),
        "installed, so not missing: {t}"
    );

    // A failing package manager: its status is an error, exit 1.
    let bin2 = tmp.path().join("bin2");
    std::fs::create_dir_all(&bin2).unwrap();
    fake_apt(&bin2, &stubs, &log, Some(100));
    let out = cmd(&root, &bin2.display().to_string(), tmp.path())
        .args(["doctor", "--install-tools"])
        .output()
        .unwrap();
    let e = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{e}");
    assert!(e.contains("failed (exit status: 100)"), "{e}");
}

fn quick_run(root: &Path, path: &str, dir: &Path, extra: &[&str]) -> Output {
    cmd(root, path, dir)
        .args([
            "run",
            "--quick",
            "--tiny-kernels",
            "--no-idle-gate",
            "--no-store",
            "--no-tune",
            "--phases",
            "clock,openssl,7zip-single",
        ])
        .args(extra)
        .arg("--log")
        .arg(dir.join("boardbench.log"))
        .arg("--output")
        .arg(dir.join("doc.json"))
        .output()
        .unwrap()
}

/// `run` says once, before it starts, which phases a missing tool skips and the command; with
/// every tool there it says nothing of the kind.
#[test]
fn run_names_skipped_phases_and_the_command_before_it_starts() {
    let tmp = tempfile::tempdir().unwrap();
    let root = common::fixture_machine("rk3588", tmp.path()); // Ubuntu 22.04
    let empty = tmp.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let out = quick_run(&root, &empty.display().to_string(), tmp.path(), &[]);
    let e = text(&out.stderr);
    assert!(matches!(out.status.code(), Some(0 | 2)), "{e}");
    let block = "Missing tools: these phases will be skipped: openssl, 7zip-single\n\
                 \x20 OpenSSL (none of openssl found): openssl\n\
                 \x20 7-Zip (none of 7zz, 7z, 7za, 7zr found): 7zip-single\n\
                 \x20 Install with (Ubuntu 22.04.3 LTS, apt): apt-get install -y openssl p7zip-full\n\
                 \x20 (or add --install-tools; `boardbench doctor` lists every tool)\n";
    assert!(e.contains(block), "{e}");
    assert_eq!(e.matches("Missing tools").count(), 1, "once: {e}");
    let doc: serde_json::Value =
        serde_json::from_slice(&std::fs::read(tmp.path().join("doc.json")).unwrap()).unwrap();
    // rk3588 has three clusters: one skipped phase of each kind per cluster.
    let mut skipped: Vec<&str> = doc["run"]["phases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["status"] == "skipped")
        .map(|p| p["kind"].as_str().unwrap())
        .collect();
    skipped.dedup();
    assert_eq!(skipped, ["openssl", "7zip-single"], "{e}");

    std::fs::remove_file(tmp.path().join("doc.json")).unwrap();
    let bin = common::stub_tools(tmp.path(), &["7z", "openssl"]);
    let out = quick_run(&root, &bin.display().to_string(), tmp.path(), &[]);
    let e = text(&out.stderr);
    assert!(matches!(out.status.code(), Some(0 | 2)), "{e}");
    assert!(!e.contains("Missing tools"), "{e}");
}

#[test]
fn run_install_tools_installs_first_then_runs() {
    let tmp = tempfile::tempdir().unwrap();
    let root = common::fixture_machine("rk3588", tmp.path());
    let stubs = common::stub_tools(&tmp.path().join("pkg"), &["7z", "openssl"]);
    let bin = tmp.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let log = tmp.path().join("apt.log");
    fake_apt(&bin, &stubs, &log, None);
    let out = quick_run(
        &root,
        &bin.display().to_string(),
        tmp.path(),
        &["--install-tools"],
    );
    let e = text(&out.stderr);
    if !is_root() {
        assert_eq!(out.status.code(), Some(64), "{e}");
        assert!(!log.exists());
        return;
    }
    assert!(matches!(out.status.code(), Some(0 | 2)), "{e}");
    assert!(
        e.contains("Installing OpenSSL, 7-Zip: apt-get install -y openssl p7zip-full"),
        "{e}"
    );
    assert!(!e.contains("Missing tools"), "{e}");
    let doc: serde_json::Value =
        serde_json::from_slice(&std::fs::read(tmp.path().join("doc.json")).unwrap()).unwrap();
    assert!(
        doc["run"]["phases"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["status"] != "skipped"),
        "{e}"
    );
}

/// As any user but root, `--install-tools` is a usage error (64) naming the command, and the
/// package manager never runs. Run as `nobody` through setpriv where the test runs as root and
/// `nobody` can start the binary; skipped otherwise (the rule itself is also a unit test).
#[test]
fn install_tools_as_non_root_is_refused_and_runs_nothing() {
    use std::os::unix::fs::PermissionsExt;
    let as_nobody = |args: &[&str], path: &str, root: &Path| {
        Command::new("setpriv")
            .args([
                "--reuid=65534",
                "--regid=65534",
                "--clear-groups",
                "env",
                "-i",
            ])
            .arg(format!("PATH={path}"))
            .arg("NO_COLOR=1")
            .arg(env!("CARGO_BIN_EXE_boardbench"))
            .arg("--sysroot")
            .arg(root)
            .args(args)
            .output()
    };
    let tmp = tempfile::tempdir().unwrap();
    std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    let root = distro_root(tmp.path(), "fedora-40");
    let probe = as_nobody(&["--version"], "/nonexistent", &root);
    if !is_root() || !probe.is_ok_and(|o| o.status.success()) {
        eprintln!("skipped: needs root, setpriv and a binary user nobody can start");
        return;
    }
    let bin = tmp.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let log = tmp.path().join("dnf.log");
    let dnf = bin.join("dnf");
    std::fs::write(
        &dnf,
        format!("#!/bin/sh\necho \"$@\" > '{}'\n", log.display()),
    )
    .unwrap();
    std::fs::set_permissions(&dnf, std::fs::Permissions::from_mode(0o755)).unwrap();
    for p in [&bin, &root, &root.join("etc")] {
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    std::fs::set_permissions(
        root.join("etc/os-release"),
        std::fs::Permissions::from_mode(0o644),
    )
    .unwrap();
    let path = bin.display().to_string();
    let out = as_nobody(&["doctor", "--install-tools"], &path, &root).unwrap();
    let e = text(&out.stderr);
    assert_eq!(out.status.code(), Some(64), "{e}");
    assert!(
        e.contains("--install-tools installs packages and needs root"),
        "{e}"
    );
    assert!(e.contains("dnf install -y openssl p7zip"), "{e}");
    assert!(!log.exists(), "the package manager ran");
    // Without --install-tools the report works as any user, exit 0.
    let out = as_nobody(&["doctor"], &path, &root).unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("Install with (Fedora Linux 40 (Server Edition), dnf)"));
}
