//! What the CLI tests share.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The built boardbench binary. On foreign targets the tests run under qemu-user, and
/// scripts/test registers qemu with binfmt_misc (with QEMU_LD_PREFIX set), so the binary starts
/// like a native one. Tests that hand the path to another program (a wrapper, a symlink, a
/// script) use it; a test that starts the binary itself uses [`command`].
#[allow(dead_code)]
pub const BIN: &str = env!("CARGO_BIN_EXE_boardbench");

/// The binary under test as a command: `testsupport::cli::command`, the one rule of every test
/// that starts it — no machine root, foreign cpuinfo or results database taken from the
/// environment, stdin closed. A test adds its own arguments, environment, stdin and pipes.
#[allow(dead_code)]
pub fn command() -> Command {
    testsupport::cli::command(BIN)
}

/// [`command`] as an `Option`, for the callers written to skip where the binary cannot start.
#[allow(dead_code)]
pub fn boardbench_cmd() -> Option<Command> {
    Some(command())
}

/// `boardbench ARGS` started by [`command`]: its output.
#[allow(dead_code)]
pub fn boardbench(args: &[&str]) -> std::process::Output {
    command().args(args).output().expect("boardbench runs")
}

/// The result-document schema as `boardbench schema` prints it.
#[allow(dead_code)]
pub fn schema() -> serde_json::Value {
    let out = boardbench_cmd()
        .unwrap()
        .arg("schema")
        .output()
        .expect("boardbench schema runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("schema is JSON")
}

/// Fails the test with every validation error when `doc` does not match the schema.
#[allow(dead_code)]
pub fn assert_valid_document(doc: &serde_json::Value) {
    static SCHEMA: std::sync::OnceLock<serde_json::Value> = std::sync::OnceLock::new();
    let schema = SCHEMA.get_or_init(schema);
    let v = jsonschema::validator_for(schema).expect("valid schema");
    let errors: Vec<String> = v
        .iter_errors(doc)
        .take(10)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "document does not match the schema:\n{}",
        errors.join("\n")
    );
}

/// The first executable called `name` in PATH, then in the `fallback` directories: the one
/// lookup rule of the binary too, `adapters::tool::SearchPath` (executables only).
#[allow(dead_code)]
pub fn which(name: &str, fallback: &[&str]) -> Option<PathBuf> {
    let mut path = std::env::var_os("PATH").unwrap_or_default();
    for dir in fallback {
        path.push(":");
        path.push(dir);
    }
    adapters::tool::SearchPath::new(&path)
        .find_one(name)
        .map(|t| t.path)
}

/// Headless Chromium for the tests that open pages ([`testsupport::chromium`]), found on PATH
/// by [`which`]; `None` (the test skips, with a note) under emulation or when not installed.
#[allow(dead_code)]
pub fn chromium() -> Option<PathBuf> {
    testsupport::chromium::find(|name| which(name, &[]))
}

/// Debian's python3 with LAVA's schema code (lava-common), or `None` under emulation (with a
/// note); a host without it fails the test, saying what to install.
#[allow(dead_code)]
pub fn lava_python() -> Option<PathBuf> {
    if host_only() {
        eprintln!("skipped: emulated target (BOARDBENCH_EMULATED=1)");
        return None;
    }
    let py = PathBuf::from("/usr/bin/python3");
    let ok = Command::new(&py)
        .args(["-c", "import lava_common.schemas, yaml"])
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        ok,
        "/usr/bin/python3 cannot import lava_common: install Debian's lava-common (scripts/test does)"
    );
    Some(py)
}

/// Runs `py -c script ARGS…` and asserts it succeeded and printed `valid` (the LAVA schema
/// checks: the script validates the files it is given).
#[allow(dead_code)]
pub fn assert_python_says_valid(py: &Path, script: &str, args: &[PathBuf]) {
    let out = Command::new(py)
        .arg("-c")
        .arg(script)
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success() && String::from_utf8_lossy(&out.stdout).trim() == "valid",
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Under qemu (scripts/test sets BOARDBENCH_EMULATED): a test that needs the host skips, one
/// that checks figures checks their shape only.
#[allow(unused_imports)]
pub use testsupport::{host_only, timing_unreal};

/// Copying a fixture tree, and a writable fixture machine (a probe fixture tree under `dir`
/// with an idle load average, for commands that change settings): testsupport's, the one copy.
#[allow(unused_imports)]
pub use testsupport::{copy_tree, fixture_machine};

/// Every file a tuning command may change (cpufreq governors and limits, devfreq governors)
/// with its content, sorted: compare before and after to prove everything was restored. Both
/// cpufreq layouts: `cpufreq/policyN`, and old kernels' `cpuN/cpufreq` (a real directory for a
/// cluster's first CPU; the others, and every `cpuN/cpufreq` of the new layout, are links).
#[allow(dead_code)]
pub fn tunable_files(root: &std::path::Path) -> Vec<(std::path::PathBuf, String)> {
    let mut v = Vec::new();
    let cpu = root.join("sys/devices/system/cpu");
    let policies = std::fs::read_dir(cpu.join("cpufreq"))
        .into_iter()
        .flatten()
        .map(|e| e.unwrap().path());
    let legacy = std::fs::read_dir(&cpu)
        .into_iter()
        .flatten()
        .map(|e| e.unwrap().path().join("cpufreq"))
        .filter(|d| std::fs::symlink_metadata(d).is_ok_and(|m| m.is_dir()));
    for dir in policies.chain(legacy) {
        for f in ["scaling_governor", "scaling_max_freq", "scaling_min_freq"] {
            if let Ok(s) = std::fs::read_to_string(dir.join(f)) {
                v.push((dir.join(f), s));
            }
        }
    }
    if let Ok(rd) = std::fs::read_dir(root.join("sys/class/devfreq")) {
        for e in rd {
            let p = e.unwrap().path().join("governor");
            if let Ok(s) = std::fs::read_to_string(&p) {
                v.push((p, s));
            }
        }
    }
    v.sort();
    v
}

/// Waits (generously: qemu is slow) until every file holds its value (trimmed); panics when
/// `child` ends first (with its stderr when that was piped) or after two minutes.
#[allow(dead_code)]
pub fn wait_until_files_hold(child: &mut std::process::Child, want: &[(&std::path::Path, &str)]) {
    let t0 = std::time::Instant::now();
    loop {
        let held = |(f, v): &(&std::path::Path, &str)| {
            std::fs::read_to_string(f).is_ok_and(|s| s.trim() == *v)
        };
        if want.iter().all(held) {
            return;
        }
        if let Some(st) = child.try_wait().unwrap() {
            let mut err = String::new();
            if let Some(mut e) = child.stderr.take() {
                use std::io::Read;
                let _ = e.read_to_string(&mut err);
            }
            panic!("ended ({st}) before {want:?} held:\n{err}");
        }
        assert!(
            t0.elapsed() < std::time::Duration::from_secs(120),
            "{want:?} never held"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// Sends `signal` to `child` and returns how it ended; then every tunable file of `root` must be
/// back to `original` (see [`tunable_files`]).
#[allow(dead_code)]
pub fn signal_and_assert_restored(
    child: &mut std::process::Child,
    signal: i32,
    root: &std::path::Path,
    original: &[(std::path::PathBuf, String)],
) -> std::process::ExitStatus {
    // SAFETY: kill only sends a signal to our own child.
    unsafe {
        libc::kill(child.id() as i32, signal);
    }
    let status = child.wait().unwrap();
    assert_eq!(
        tunable_files(root),
        original,
        "not everything was restored after signal {signal} ({status})"
    );
    status
}

/// Every tool [`stub_tools`] can stand in for.
#[allow(dead_code)]
pub const ALL_TOOLS: &[&str] = &["7z", "openssl", "stockfish", "cpuminer"];

/// Stub tools (of 7z, openssl, stockfish, cpuminer: those named in `tools`) that print recorded
/// outputs (the adapters' test data), in `dir/bin`; returns that directory for PATH.
#[allow(dead_code)]
pub fn stub_tools(dir: &Path, tools: &[&str]) -> PathBuf {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../adapters/tests/data");
    let d = |f: &str| data.join(f).display().to_string();
    let scripts = [
        (
            "7z",
            format!(
                "case \"$1\" in b) exec /bin/cat '{}';; *) exec /bin/cat '{}';; esac",
                d("7zip-26.02-p7zip-b1-mmt1-md18.txt"),
                d("7zip-26.02-p7zip-banner.txt")
            ),
        ),
        (
            "openssl",
            format!(
                "case \"$1\" in version) exec /bin/cat '{}';; esac\n\
                 for a; do c=$a; done\n\
                 exec /bin/sed \"s/aes-256-cbc/$c/\" '{}'",
                d("openssl-3.0.19-version.txt"),
                d("openssl-3.0.19-speed-aes-256-cbc-1s.txt")
            ),
        ),
        (
            "stockfish",
            format!(
                "if /bin/grep -q bench; then exec /bin/cat '{}'; else exec /bin/cat '{}'; fi",
                d("stockfish-15.1-bench-16-1-8.txt"),
                d("stockfish-15.1-banner.txt")
            ),
        ),
        (
            "cpuminer",
            format!("exec /bin/cat '{}'", d("cpuminer-1.3.7-4qpr.txt")),
        ),
    ];
    for (name, body) in scripts.into_iter().filter(|(n, _)| tools.contains(n)) {
        let p = bin.join(name);
        std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    bin
}

/// Runs `c` to its end with stdout and stderr captured, killed after `limit` (the test then
/// fails saying so).
#[allow(dead_code)]
pub fn output_within(mut c: Command, limit: std::time::Duration) -> std::process::Output {
    use std::process::Stdio;
    let mut child = c
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("boardbench starts");
    // Both pipes are read on threads so a full pipe never stalls the child.
    let mut so = child.stdout.take().unwrap();
    let mut se = child.stderr.take().unwrap();
    let t_out = std::thread::spawn(move || {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut so, &mut v).ok();
        v
    });
    let t_err = std::thread::spawn(move || {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut se, &mut v).ok();
        v
    });
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("boardbench did not finish within {limit:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    std::process::Output {
        status,
        stdout: t_out.join().unwrap(),
        stderr: t_err.join().unwrap(),
    }
}

/// The first fixture sbc-bench log (by name) whose text `pred` accepts, imported.
#[allow(dead_code)]
pub fn fixture_log(pred: impl Fn(&str) -> bool) -> document::ResultDocument {
    let dir = testsupport::sbc_bench_logs();
    let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    names.sort();
    for p in names {
        let text = std::fs::read_to_string(&p).unwrap_or_default();
        if pred(&text)
            && let Ok(doc) = sbcimport::import_bytes(text.as_bytes(), &p.display().to_string())
        {
            return doc;
        }
    }
    panic!("no fixture log matches");
}
