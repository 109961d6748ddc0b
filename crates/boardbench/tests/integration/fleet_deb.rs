//! The Debian package (scripts/dist) installed into this machine with dpkg and removed again:
//! `boardbench --version`, `man boardbench` and `man boardbench-run` work, the bash completion
//! loads and completes a command, the sbc-bench name is an alternative pointing at boardbench,
//! and after `dpkg --purge` nothing of it is left. The package is built from the already built
//! debug binary (`scripts/dist --binary`), not by a release build.
//!
//! Host only (skipped under qemu) and only as root; it also skips, touching nothing, when a
//! boardbench package is installed already (the machine is left as it was found).
//! `version_is_the_package_version` runs everywhere: under qemu it is the check that the
//! foreign-architecture binary starts.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn run(args: &[&str]) -> Output {
    let mut c = Command::new("timeout");
    c.args(["-k", "5", "300"]).args(args);
    c.env("MANPAGER", "cat").env("MANWIDTH", "100");
    c.output().expect("timeout runs")
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn ok(args: &[&str]) -> String {
    let o = run(args);
    assert!(o.status.success(), "{args:?}:\n{}", text(&o));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// dpkg with its lock: another apt/dpkg on the machine is waited for (up to a minute).
fn dpkg(args: &[&str]) -> Output {
    let start = Instant::now();
    loop {
        let mut a = vec!["dpkg"];
        a.extend_from_slice(args);
        let o = run(&a);
        let locked = text(&o).contains("lock");
        if o.status.success() || !locked || start.elapsed() > Duration::from_secs(60) {
            return o;
        }
        std::thread::sleep(Duration::from_secs(2));
    }
}

/// Purges the package when the test ends, passed or not.
struct Installed;

impl Drop for Installed {
    fn drop(&mut self) {
        let o = dpkg(&["--purge", "boardbench"]);
        if !o.status.success() {
            eprintln!("dpkg --purge boardbench failed:\n{}", text(&o));
        }
    }
}

#[test]
fn version_is_the_package_version() {
    let version = |bin: &str, flag: &str| {
        let o = Command::new(bin).arg(flag).output().unwrap();
        assert!(o.status.success(), "{}", text(&o));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let want = format!("boardbench {}", env!("CARGO_PKG_VERSION"));
    // -V: the version alone (scripts compare it).
    assert_eq!(version(env!("CARGO_BIN_EXE_boardbench"), "-V").trim(), want);
    // --version: the version first, then the build and the oldest glibc it starts on.
    let long = version(env!("CARGO_BIN_EXE_boardbench"), "--version");
    let lines: Vec<&str> = long.lines().collect();
    assert_eq!(lines.first(), Some(&want.as_str()), "{long}");
    let build = lines.get(1).copied().unwrap_or_default();
    assert!(build.starts_with("build: "), "{long}");
    assert!(build.contains("-linux-"), "names the target: {long}");
    assert!(build.contains(" profile, git "), "{long}");
    assert!(
        lines.get(2).is_some_and(|l| l.starts_with("glibc: ")),
        "{long}"
    );
    // The results service says the same of itself: crates/serve/tests/program.rs.
}

#[test]
fn package_installs_works_and_removes_cleanly() {
    if common::host_only() {
        eprintln!("skipped under emulation");
        return;
    }
    // SAFETY: geteuid has no preconditions and cannot fail.
    if unsafe { libc::geteuid() } != 0 {
        eprintln!("skipped: installing a package needs root");
        return;
    }
    if run(&["dpkg-query", "-W", "boardbench"]).status.success() {
        eprintln!("skipped: a boardbench package is installed on this machine; not touching it");
        return;
    }
    if Path::new("/usr/bin/sbc-bench").exists() || Path::new("/usr/bin/boardbench").exists() {
        eprintln!("skipped: /usr/bin/sbc-bench or /usr/bin/boardbench exists; not touching it");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().to_str().unwrap();
    let dist = repo().join("scripts/dist");
    let serve_bin = testsupport::cli::service_binary(env!("CARGO_BIN_EXE_boardbench"));
    let deb = ok(&[
        dist.to_str().unwrap(),
        "--binary",
        env!("CARGO_BIN_EXE_boardbench"),
        "--serve-binary",
        serve_bin.to_str().unwrap(),
        "--fast-compress",
        "--out",
        out,
    ]);
    let debs: Vec<&str> = deb.lines().filter(|l| l.ends_with(".deb")).collect();
    let find = |prefix: &str| {
        debs.iter()
            .find(|d| {
                Path::new(d)
                    .file_name()
                    .unwrap()
                    .to_string_lossy()
                    .starts_with(prefix)
            })
            .unwrap_or_else(|| panic!("no {prefix}… package in {debs:?}"))
            .to_string()
    };
    let (deb, serve_deb) = (find("boardbench_"), find("boardbench-serve_"));
    // The results service is its own package: the board's carries none of it, and the two
    // share no file (both can be installed on one machine).
    let board_files = ok(&["dpkg-deb", "--contents", &deb]);
    let serve_files = ok(&["dpkg-deb", "--contents", &serve_deb]);
    assert!(!board_files.contains("boardbench-serve"), "{board_files}");
    assert!(
        serve_files.contains("./usr/bin/boardbench-serve\n"),
        "{serve_files}"
    );
    assert!(
        serve_files.contains("./usr/share/man/man1/boardbench-serve.1.gz"),
        "{serve_files}"
    );
    assert!(
        ok(&["dpkg-deb", "--field", &serve_deb, "Depends"]).contains("libc6 (>= "),
        "{serve_deb}"
    );
    let fields = ok(&["dpkg-deb", "--field", &deb, "Package", "Version", "Depends"]);
    assert!(
        fields.contains(&format!("Version: {}", env!("CARGO_PKG_VERSION"))),
        "{fields}"
    );
    assert!(fields.contains("libc6 (>= "), "{fields}");

    // Images that drop documentation (path-exclude in /etc/dpkg/dpkg.cfg.d) would drop the man
    // pages: the package's own pages are included explicitly.
    let o = dpkg(&[
        "--path-include=/usr/share/man/man1/boardbench*",
        "--path-include=/usr/share/doc/boardbench/*",
        "-i",
        &deb,
    ]);
    let guard = Installed;
    assert!(o.status.success(), "dpkg -i:\n{}", text(&o));

    assert_eq!(
        ok(&["/usr/bin/boardbench", "-V"]).trim(),
        format!("boardbench {}", env!("CARGO_PKG_VERSION"))
    );
    let page = ok(&["man", "boardbench"]);
    assert!(page.contains("boardbench"), "{page}");
    assert!(page.contains("--sysroot"), "{page}");
    let page = ok(&["man", "boardbench-run"]);
    assert!(page.contains("--unattended"), "{page}");

    // The completion script loads in bash and completes `boardbench ru` to `run`.
    let bash = ok(&[
        "bash",
        "-c",
        "source /usr/share/bash-completion/completions/boardbench && complete -p boardbench \
         && COMP_WORDS=(boardbench ru) COMP_CWORD=1 COMP_LINE='boardbench ru' COMP_POINT=13 \
         && _boardbench boardbench ru boardbench && printf '%s\\n' \"${COMPREPLY[@]}\"",
    ]);
    assert!(bash.contains("-F _boardbench boardbench"), "{bash}");
    assert!(bash.lines().any(|l| l == "run"), "{bash}");

    // sbc-bench is an alternative, not a file of the package.
    let alt = ok(&["update-alternatives", "--query", "sbc-bench"]);
    assert!(alt.contains("Value: /usr/bin/boardbench"), "{alt}");
    assert_eq!(
        std::fs::canonicalize("/usr/bin/sbc-bench").unwrap(),
        Path::new("/usr/bin/boardbench")
    );
    let help = ok(&["/usr/bin/sbc-bench", "-h"]);
    assert!(help.contains("called as sbc-bench"), "{help}");
    let files = ok(&["dpkg", "-L", "boardbench"]);
    assert!(!files.contains("sbc-bench"), "{files}");

    drop(guard);
    assert!(!run(&["dpkg-query", "-W", "boardbench"]).status.success());
    assert!(!Path::new("/usr/bin/boardbench").exists());
    assert!(!Path::new("/usr/bin/sbc-bench").exists());
    assert!(!Path::new("/etc/alternatives/sbc-bench").exists());
    assert!(
        !run(&["update-alternatives", "--query", "sbc-bench"])
            .status
            .success()
    );
}
