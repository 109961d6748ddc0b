//! What the tests of several crates share (a dev-dependency only; of the workspace it depends
//! on the data model `document` alone, so every other crate's tests can use it): fixture trees
//! and the shared fixtures ([`shared_fixtures`], [`sbc_bench_logs`]),
//! the old kernels' cpufreq layout, a synthetic run document ([`demo`], for the report's and the
//! service's tests, the report's example and the screenshots), what running emulated means for a test ([`host_only`], [`timing_unreal`]), a fresh PostgreSQL database ([`pg`]),
//! headless Chromium ([`chromium`]), the check that a pattern matches alike under regex and
//! regex-lite ([`regex_lite`]), the tests' one HTTP client ([`http`]) and the binary under
//! test as a command the environment does not redirect ([`cli`]).

pub mod chromium;
pub mod cli;
pub mod demo;
pub mod http;
pub mod pg;
pub mod regex_lite;

use std::fs;
use std::path::{Path, PathBuf};

/// Whether the tests run under qemu-user (scripts/test sets `BOARDBENCH_EMULATED=1`). Three
/// things follow from it, each with its own helper so a test says which one it means:
/// [`host_only`], [`timing_unreal`] and [`forks_may_hang`]. The one place the variable is read.
fn emulated() -> bool {
    std::env::var_os("BOARDBENCH_EMULATED").is_some()
}

/// True when a test that needs the host must skip: it starts host programs (a real tool, a
/// stub tool's shell, ansible, a server, a browser, the binary under test end to end) — under
/// qemu-user they would run again from an emulated parent, or not start at all.
pub fn host_only() -> bool {
    emulated()
}

/// True when measured figures and durations are the emulator's, not the machine's: a test
/// checks their structure only, or does less work.
pub fn timing_unreal() -> bool {
    emulated()
}

/// True when a fork of a multi-threaded test binary may now and then hang inside the emulator
/// before exec (qemu-user, see scripts/test): a test that starts a child and ran into its
/// time limit may try once more there — natively a timeout is always the answer.
pub fn forks_may_hang() -> bool {
    emulated()
}

/// The repository's `crates/` directory.
pub fn crates_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("crates/testsupport has a parent")
        .to_path_buf()
}

/// `shared/fixtures` beside the checkout, the fixtures the tests of several crates read (see
/// their READMEs): the nearest ancestor of the repository that has it — a git worktree may sit
/// deeper than the main checkout —, else `../shared/fixtures` of the repository (a test then
/// fails naming the path it could not read).
pub fn shared_fixtures() -> PathBuf {
    let crates = crates_dir();
    crates
        .ancestors()
        .map(|a| a.join("shared/fixtures"))
        .find(|d| d.is_dir())
        .unwrap_or_else(|| crates.join("../../shared/fixtures"))
}

/// The shared sbc-bench logs (`shared/fixtures/sbc-bench-logs`: real logs and their
/// `expected.json`).
pub fn sbc_bench_logs() -> PathBuf {
    shared_fixtures().join("sbc-bench-logs")
}

/// A probe fixture root tree (`crates/probe/tests/roots/NAME`), read-only.
pub fn probe_root(name: &str) -> PathBuf {
    crates_dir().join("probe/tests/roots").join(name)
}

/// A review fixture root tree (`crates/review/tests/roots/NAME`), read-only.
pub fn review_root(name: &str) -> PathBuf {
    crates_dir().join("review/tests/roots").join(name)
}

/// Copies a directory tree (files, directories, symlinks as links).
pub fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for e in fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let t = to.join(e.file_name());
        let ft = e.file_type().unwrap();
        if ft.is_dir() {
            copy_tree(&e.path(), &t);
        } else if ft.is_symlink() {
            std::os::unix::fs::symlink(fs::read_link(e.path()).unwrap(), &t).unwrap();
        } else {
            fs::copy(e.path(), &t).unwrap();
        }
    }
}

/// A writable copy of the probe fixture machine NAME as `dir/root`, with an idle load
/// average, for commands that change settings.
pub fn fixture_machine(name: &str, dir: &Path) -> PathBuf {
    let root = dir.join("root");
    copy_tree(&probe_root(name), &root);
    fs::create_dir_all(root.join("proc")).unwrap();
    fs::write(root.join("proc/loadavg"), "0.02 0.05 0.01 1/123 4567\n").unwrap();
    root
}

const CPU: &str = "sys/devices/system/cpu";

/// Turns the tree at `root` into an old kernel's cpufreq layout, in place: every
/// `cpufreq/policyN` directory becomes `cpuF/cpufreq` of its first related CPU F, and every
/// other related CPU's `cpuM/cpufreq` is a symlink to it (as 3.x kernels show them); the
/// `cpufreq` directory stays, without policies. Returns the first CPU of each moved policy.
pub fn legacy_cpufreq(root: &Path) -> Vec<u32> {
    let cpufreq = root.join(CPU).join("cpufreq");
    let mut policies: Vec<(u32, PathBuf)> = fs::read_dir(&cpufreq)
        .unwrap()
        .filter_map(|e| {
            let e = e.unwrap();
            let n = e
                .file_name()
                .to_str()?
                .strip_prefix("policy")?
                .parse()
                .ok()?;
            Some((n, e.path()))
        })
        .collect();
    policies.sort();
    let mut owners = Vec::new();
    for (n, dir) in policies {
        let related = fs::read_to_string(dir.join("related_cpus")).unwrap_or_default();
        let cpus = cpu_list(&related);
        let first = cpus.first().copied().unwrap_or(n);
        let owner = root.join(CPU).join(format!("cpu{first}"));
        fs::create_dir_all(&owner).unwrap();
        fs::rename(&dir, owner.join("cpufreq")).unwrap();
        for &c in cpus.iter().filter(|&&c| c != first) {
            let d = root.join(CPU).join(format!("cpu{c}"));
            fs::create_dir_all(&d).unwrap();
            std::os::unix::fs::symlink(format!("../cpu{first}/cpufreq"), d.join("cpufreq"))
                .unwrap();
        }
        owners.push(first);
    }
    owners
}

/// "0-3 4" or "0 1 2 3" or "0-3,6" as numbers.
fn cpu_list(s: &str) -> Vec<u32> {
    let mut v = Vec::new();
    for part in s.split([' ', ',', '\n']).filter(|p| !p.is_empty()) {
        match part.split_once('-') {
            Some((a, b)) => {
                if let (Ok(a), Ok(b)) = (a.parse::<u32>(), b.parse::<u32>()) {
                    v.extend(a..=b);
                }
            }
            None => v.extend(part.parse::<u32>().ok()),
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_lists_in_every_spelling() {
        assert_eq!(cpu_list("0 1 2 3\n"), [0, 1, 2, 3]);
        assert_eq!(cpu_list("0-3,6"), [0, 1, 2, 3, 6]);
        assert_eq!(cpu_list(""), Vec::<u32>::new());
    }

    #[test]
    fn rk3399_becomes_two_legacy_policies() {
        let d = std::env::temp_dir().join(format!("testsupport-legacy-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        let root = fixture_machine("rk3399", &d);
        assert_eq!(legacy_cpufreq(&root), [0, 4]);
        let cpu = root.join(CPU);
        assert!(cpu.join("cpu0/cpufreq/scaling_governor").is_file());
        assert!(cpu.join("cpu1/cpufreq").is_symlink());
        assert!(cpu.join("cpu5/cpufreq/scaling_governor").is_file());
        assert!(!cpu.join("cpufreq/policy0").exists());
        fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn the_shared_sbc_bench_logs_are_found() {
        let logs = sbc_bench_logs();
        assert!(logs.join("expected.json").is_file(), "{}", logs.display());
    }
}
