//! End-to-end tests of `boardbench run`: a whole quick run on a fixture machine with stub
//! tools that replay recorded outputs (document, log, findings, restored settings), the idle
//! gate giving up on a busy box, SIGINT/SIGTERM in the middle of a phase restoring every
//! changed governor and frequency cap, and a real quick run on this machine.

use crate::common;

use std::path::Path;
use std::process::{Command, Stdio};

fn run_cmd(root: &Path, bin: &Path, dir: &Path) -> Command {
    let mut c = common::boardbench_cmd().unwrap();
    c.env_clear()
        .env("PATH", bin)
        .env("HOME", dir)
        .env("NO_COLOR", "1")
        .arg("--sysroot")
        .arg(root);
    if let Some(v) = std::env::var_os("QEMU_LD_PREFIX") {
        c.env("QEMU_LD_PREFIX", v);
    }
    c
}

/// `run --profile fast --phases PHASES` on a fixture machine with the tools in `bin`; returns
/// the document (the log goes to `dir/boardbench.log`).
fn fast_run(root: &Path, bin: &Path, dir: &Path, phases: &str) -> serde_json::Value {
    let doc_path = dir.join("doc.json");
    let out = run_cmd(root, bin, dir)
        .args(["run", "--profile", "fast", "--no-idle-gate", "--no-store"])
        .args(["--phases", phases])
        .arg("--log")
        .arg(dir.join("boardbench.log"))
        .arg("--output")
        .arg(&doc_path)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        matches!(out.status.code(), Some(0 | 2)),
        "exit {:?}\n{stderr}",
        out.status.code()
    );
    serde_json::from_slice(&std::fs::read(&doc_path).unwrap()).unwrap()
}

/// The fast profile passes sbc-bench's 7-Zip flags with a 1 s repetition (`-mtime=1`) and only
/// OpenSSL's score cell, leaves out the third all-core 7-Zip run when the first two agree (the
/// stub prints the same output each time), and its figures are marked comparable.
#[test]
fn fast_profile_invocations_with_stub_tools() {
    let tmp = tempfile::tempdir().unwrap();
    let root = common::fixture_machine("rk3588", tmp.path());
    let bin = common::stub_tools(tmp.path(), common::ALL_TOOLS);
    let doc = fast_run(&root, &bin, tmp.path(), "openssl,7zip-multi");
    common::assert_valid_document(&doc);
    let run = &doc["run"];
    assert_eq!(run["profile"], "fast");
    let flags = run["comparability"].as_array().unwrap();
    assert_eq!(flags.len(), 6);
    assert!(flags.iter().all(|f| f["comparable_with_sbc_bench"] == true));
    let phases = run["phases"].as_array().unwrap();
    let commands = |kind: &str| -> Vec<String> {
        phases
            .iter()
            .filter(|p| p["kind"] == kind)
            .flat_map(|p| p["tool_runs"].as_array().cloned().unwrap_or_default())
            .map(|t| t["command"].as_str().unwrap().to_string())
            .collect()
    };
    let ssl = commands("openssl");
    assert!(!ssl.is_empty());
    for c in &ssl {
        assert!(
            c.contains("speed -elapsed -seconds 3 -bytes 16384 -evp aes-"),
            "{c}"
        );
    }
    let multi: Vec<&serde_json::Value> = phases
        .iter()
        .filter(|p| p["kind"] == "7zip-multi")
        .collect();
    assert_eq!(multi.len(), 3);
    for c in commands("7zip-multi") {
        assert!(c.ends_with(" b -mmt=8 -mtime=1"), "{c}");
    }
    assert_eq!(multi[2]["status"], "skipped");
    assert!(
        multi[2]["reason"]
            .as_str()
            .unwrap()
            .starts_with("not needed: the earlier runs agree"),
        "{}",
        multi[2]["reason"]
    );
    // The summary row carries no profile marks.
    let text = std::fs::read_to_string(tmp.path().join("boardbench.log")).unwrap();
    let last = text.lines().last().unwrap();
    assert!(
        !last.contains("(quick)") && !last.contains("(fast)"),
        "{last}"
    );
}

/// A 7-Zip that rejects `-mtime` (p7zip 16.02) gets sbc-bench's exact invocation: the refused
/// attempt is recorded beside the real run, and later 7-Zip phases do not try it again.
#[test]
fn fast_profile_falls_back_when_7zip_rejects_the_time_option() {
    let tmp = tempfile::tempdir().unwrap();
    let root = common::fixture_machine("rk3588", tmp.path());
    let bin = common::stub_tools(tmp.path(), &["7z"]);
    let data = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../adapters/tests/data");
    let calls = tmp.path().join("calls");
    std::fs::write(
        bin.join("7z"),
        format!(
            "#!/bin/sh\necho \"$*\" >> '{calls}'\n\
             case \"$1 $*\" in\n\
             b*-mtime*) /bin/cat '{rejected}'; exit 2;;\n\
             b*) exec /bin/cat '{bench}';;\n\
             *) exec /bin/cat '{banner}';;\n\
             esac\n",
            calls = calls.display(),
            rejected = data.join("7zip-26.02-b-mtm-rejected.txt").display(),
            bench = data.join("7zip-26.02-p7zip-b-mmt1.txt").display(),
            banner = data.join("7zip-26.02-p7zip-banner.txt").display(),
        ),
    )
    .unwrap();
    let doc = fast_run(&root, &bin, tmp.path(), "7zip-single,7zip-multi");
    let phases = doc["run"]["phases"].as_array().unwrap();
    let zip: Vec<&serde_json::Value> = phases
        .iter()
        .filter(|p| p["kind"].as_str().unwrap().starts_with("7zip"))
        .collect();
    // The first 7-Zip phase: the refused attempt, then sbc-bench's invocation, and figures.
    let first = zip[0]["tool_runs"].as_array().unwrap();
    assert_eq!(first.len(), 2, "{first:?}");
    assert!(first[0]["command"].as_str().unwrap().ends_with("-mtime=1"));
    assert!(!first[1]["command"].as_str().unwrap().contains("-mtime"));
    assert_eq!(zip[0]["status"], "done");
    // Every later one goes straight to sbc-bench's invocation.
    for p in &zip[1..] {
        for t in p["tool_runs"].as_array().cloned().unwrap_or_default() {
            assert!(!t["command"].as_str().unwrap().contains("-mtime"), "{t}");
        }
    }
    let tried = std::fs::read_to_string(&calls).unwrap();
    assert_eq!(tried.matches("-mtime").count(), 1, "{tried}");
}

#[test]
fn quick_run_on_a_fixture_machine_with_stub_tools() {
    let tmp = tempfile::tempdir().unwrap();
    let root = common::fixture_machine("rk3588", tmp.path());
    let bin = common::stub_tools(tmp.path(), common::ALL_TOOLS);
    let original = common::tunable_files(&root);
    let log = tmp.path().join("boardbench.log");
    let doc_path = tmp.path().join("doc.json");
    let db = tmp.path().join("results.sqlite");
    std::fs::write(&log, "an earlier run\n").unwrap();
    let out = run_cmd(&root, &bin, tmp.path())
        .args([
            "run",
            "--quick",
            "--unattended",
            "--tiny-kernels",
            "-s",
            "-c",
            "--tag",
            "e2e",
        ])
        .arg("--db")
        .arg(&db)
        .arg("--log")
        .arg(&log)
        .arg("--output")
        .arg(&doc_path)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        matches!(out.status.code(), Some(0 | 2)),
        "exit {:?}\n{stderr}",
        out.status.code()
    );

    // Every setting is back.
    assert_eq!(
        common::tunable_files(&root),
        original,
        "settings not restored"
    );

    let doc: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&doc_path).unwrap()).unwrap();
    common::assert_valid_document(&doc);
    let run = &doc["run"];
    assert_eq!(run["profile"], "quick");
    // Every headline figure of a quick run is flagged as not comparable with sbc-bench's.
    let flags = run["comparability"].as_array().unwrap();
    assert_eq!(flags.len(), 6);
    assert!(
        flags
            .iter()
            .all(|f| f["comparable_with_sbc_bench"] == false)
    );
    // The governors were switched to performance during the run and recorded with originals.
    let settings = run["settings"].as_array().unwrap();
    assert!(settings.iter().any(|s| {
        s["path"]
            .as_str()
            .unwrap()
            .ends_with("policy0/scaling_governor")
            && s["set"] == "performance"
            && s["before"] == "schedutil"
            && s["after"] == "schedutil"
    }));
    // Phases in sbc-bench's order, per cluster, with ISO timestamps and monitor samples.
    let phases = run["phases"].as_array().unwrap();
    let kinds: Vec<&str> = phases.iter().map(|p| p["kind"].as_str().unwrap()).collect();
    for k in [
        "clock",
        "membw",
        "memlat",
        "openssl",
        "sha256",
        "7zip-single",
        "7zip-multi",
        "stockfish",
        "cpuminer",
        "clock-hot",
    ] {
        assert!(kinds.contains(&k), "no {k} phase in {kinds:?}");
    }
    assert_eq!(
        kinds.iter().filter(|k| **k == "7zip-single").count(),
        3,
        "one per cluster"
    );
    assert_eq!(kinds.iter().filter(|k| **k == "7zip-multi").count(), 3);
    for p in phases {
        let s = p["started"].as_str().unwrap();
        assert!(chrono::DateTime::parse_from_rfc3339(s).is_ok(), "{s}");
        assert!(p["finished_unix_ms"].as_u64() >= p["started_unix_ms"].as_u64());
        assert_eq!(p["status"], "done", "{}: {}", p["title"], p["reason"]);
        assert!(
            !p["samples"].as_array().unwrap().is_empty(),
            "{} has no samples",
            p["title"]
        );
    }
    // The real 7-Zip version behind the banner, marked not comparable.
    let sz = phases.iter().find(|p| p["kind"] == "7zip-single").unwrap();
    assert_eq!(sz["tool_runs"][0]["version"], "26.02");
    assert_eq!(sz["tool_runs"][0]["comparable_with_sbc_bench"], false);
    let ms = doc["measurements"].as_array().unwrap();
    let find =
        |suite: &str, test: &str| ms.iter().find(|m| m["suite"] == suite && m["test"] == test);
    assert!(find("7zip", "multi").is_some() && find("7zip", "single").is_some());
    assert!(find("openssl", "aes-256-cbc 16384 bytes").is_some());
    assert!(
        find("openssl", "aes-256-cbc 16384").is_some(),
        "the headline AES row"
    );
    assert!(find("membw", "libc memcpy copy").is_some());
    assert!(find("sha256", "recursive").is_some());

    // The kernel as judged on the day of the run: the fixture's Rockchip BSP kernel.
    let k = &doc["run"]["kernel"];
    assert_eq!(k["release"], "5.10.110-rockchip-rk3588", "{k}");
    assert_eq!(k["origin"], "vendor (BSP) kernel", "{k}");
    assert!(!k["verdict"].as_str().unwrap().is_empty(), "{k}");

    // The run stored its document in the results database.
    let list = run_cmd(&root, &bin, tmp.path())
        .args(["results", "list", "--json", "--db"])
        .arg(&db)
        .output()
        .unwrap();
    assert!(
        list.status.success(),
        "{}",
        String::from_utf8_lossy(&list.stderr)
    );
    let runs: serde_json::Value = serde_json::from_slice(&list.stdout).unwrap();
    assert_eq!(runs.as_array().map(Vec::len), Some(1), "{runs}");
    assert!(runs.to_string().contains("Radxa ROCK 5"), "{runs}");

    // The log: appended after the earlier run, summary row as its very last line.
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.starts_with("an earlier run\n\n\n\n"));
    assert!(
        text.contains("Kernel info:\n\nKernel:    5.10.110-rockchip-rk3588 (vendor (BSP) kernel"),
        "{text}"
    );
    assert!(
        text.ends_with(" |\n"),
        "log does not end with the summary row"
    );
    let last = text.lines().last().unwrap();
    assert!(last.starts_with("| "), "{last}");
    let cells: Vec<&str> = last.trim_matches('|').split(" | ").collect();
    assert!(cells.len() >= 10, "{last}");
    // 7-zip multi, single, AES, memcpy and memset are filled (the stubs and kernels ran), each
    // marked as a quick run's figure, which is not comparable with sbc-bench's.
    for (i, c) in cells.iter().enumerate().skip(4).take(5) {
        let number = c.trim().strip_suffix(" (quick)");
        assert!(
            number.is_some_and(|n| n.parse::<f64>().is_ok()),
            "cell {i} is {c:?} in {last}"
        );
    }
}

#[test]
fn unattended_gives_up_on_a_busy_box_and_names_what_is_busy() {
    let tmp = tempfile::tempdir().unwrap();
    let root = common::fixture_machine("vm", tmp.path());
    std::fs::write(root.join("proc/loadavg"), "3.50 2.00 1.00 3/123 4567\n").unwrap();
    let bin = common::stub_tools(tmp.path(), common::ALL_TOOLS);
    let out = run_cmd(&root, &bin, tmp.path())
        .args([
            "run",
            "--quick",
            "--unattended",
            "--no-store",
            "--idle-timeout",
            "0.5",
            "--idle-step",
            "0.1",
        ])
        .arg("--log")
        .arg(tmp.path().join("log"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(
        stderr.contains("Too busy for benchmarking: load 3.50"),
        "{stderr}"
    );
    assert!(stderr.contains("not benchmarking a busy box"), "{stderr}");
    assert!(
        !tmp.path().join("log").exists(),
        "no log for a run that never started"
    );
}

fn interrupted_run_restores_everything(signal: i32) {
    let tmp = tempfile::tempdir().unwrap();
    let root = common::fixture_machine("rk3588", tmp.path());
    let bin = common::stub_tools(tmp.path(), common::ALL_TOOLS);
    let original = common::tunable_files(&root);
    let mut child = run_cmd(&root, &bin, tmp.path())
        .args([
            "run",
            "--quick",
            "--no-idle-gate",
            "--no-store",
            "--tiny-kernels",
            "--phases",
            "clock,membw",
            "--pause-ms",
            "60000",
        ])
        .env("MaxKHz", "1800000")
        .arg("--log")
        .arg(tmp.path().join("log"))
        .arg("-o")
        .arg(tmp.path().join("doc.json"))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until the run has changed the machine (governor and MaxKHz cap).
    let gov = root.join("sys/devices/system/cpu/cpufreq/policy4/scaling_governor");
    let cap = root.join("sys/devices/system/cpu/cpufreq/policy4/scaling_max_freq");
    common::wait_until_files_hold(&mut child, &[(&gov, "performance"), (&cap, "1800000")]);
    assert_ne!(common::tunable_files(&root), original);
    let status = common::signal_and_assert_restored(&mut child, signal, &root, &original);
    assert_eq!(status.code(), Some(128 + signal));
    // What was measured is kept: the clock phase's figures, membw marked as never run, the
    // `interrupted` finding; the log ends with the summary row.
    let doc: serde_json::Value =
        serde_json::from_slice(&std::fs::read(tmp.path().join("doc.json")).unwrap()).unwrap();
    let phases = doc["run"]["phases"].as_array().unwrap();
    // The signal comes while the first clock check runs, in the pause after it, or even just
    // before it (the machine is tuned before the first phase): whatever had not started by
    // then is recorded as not run, membw always among them.
    let not_run = format!("not run: interrupted by signal {signal}");
    let first_cut = phases
        .iter()
        .position(|p| p["reason"].as_str() == Some(not_run.as_str()))
        .expect("a phase recorded as not run");
    for p in &phases[first_cut..] {
        assert_eq!(p["status"], "skipped", "{p}");
        assert_eq!(p["reason"].as_str(), Some(not_run.as_str()), "{p}");
    }
    assert!(phases[first_cut..].iter().any(|p| p["kind"] == "membw"));
    let kinds: Vec<&str> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f["kind"].as_str())
        .collect();
    assert!(kinds.contains(&"interrupted"), "{kinds:?}");
    let log = std::fs::read_to_string(tmp.path().join("log")).unwrap();
    assert!(
        log.trim_end().lines().last().unwrap().starts_with('|'),
        "{log}"
    );
}

/// A signal while a tool runs ends the tool and whatever it started too (each tool runs in a
/// process group of its own, out of reach of the terminal's Ctrl-C): nothing is left running
/// under init.
#[test]
fn a_signal_mid_tool_leaves_no_tool_running() {
    let tmp = tempfile::tempdir().unwrap();
    let root = common::fixture_machine("rk3588", tmp.path());
    let bin = common::stub_tools(tmp.path(), common::ALL_TOOLS);
    // 7z's benchmark: note its group, then a grandchild that would run for a minute.
    let pid_file = tmp.path().join("7z.pid");
    let banner = std::fs::read_to_string(bin.join("7z")).unwrap();
    std::fs::write(
        bin.join("7z"),
        format!(
            "#!/bin/sh\ncase \"$1\" in b) /bin/sleep 60 & echo $$ $! > '{0}.tmp'; \
             /bin/mv '{0}.tmp' '{0}'; wait; exit 0;; esac\n{1}",
            pid_file.display(),
            banner.lines().skip(1).collect::<Vec<_>>().join("\n")
        ),
    )
    .unwrap();
    let mut child = run_cmd(&root, &bin, tmp.path())
        .args([
            "run",
            "--quick",
            "--no-idle-gate",
            "--no-store",
            "--phases",
            "7zip-single",
        ])
        .arg("--log")
        .arg(tmp.path().join("log"))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let t = std::time::Instant::now();
    let pids: Vec<i32> = loop {
        if let Ok(s) = std::fs::read_to_string(&pid_file) {
            break s.split_whitespace().map(|p| p.parse().unwrap()).collect();
        }
        assert!(t.elapsed().as_secs() < 60, "7z never started");
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before 7z started"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    // SAFETY: kill only signals our own child.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGTERM);
    }
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(128 + libc::SIGTERM));
    // The stub and its sleep are gone (the run ended them before exiting; a zombie waiting
    // for init to reap it runs nothing).
    let running = |pid: i32| {
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .ok()
            .and_then(|s| s.rsplit_once(") ").map(|(_, r)| !r.starts_with('Z')))
            .unwrap_or(false)
    };
    let t = std::time::Instant::now();
    while pids.iter().any(|&p| running(p)) && t.elapsed().as_secs() < 5 {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    for p in pids {
        assert!(
            !running(p),
            "7z's process {p} still runs after boardbench ended"
        );
    }
}

#[test]
fn sigterm_mid_phase_restores_every_governor_and_cap() {
    interrupted_run_restores_everything(libc::SIGTERM);
}

#[test]
fn sigint_mid_phase_restores_every_governor_and_cap() {
    interrupted_run_restores_everything(libc::SIGINT);
}

/// The real thing on this machine (real 7z and openssl when installed), quick profile.
#[test]
fn real_quick_run_on_this_machine() {
    if common::host_only() {
        eprintln!("skipped under emulation");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let doc_path = tmp.path().join("doc.json");
    let log = tmp.path().join("log");
    let out = common::boardbench_cmd()
        .unwrap()
        .env("NO_COLOR", "1")
        .args([
            "run",
            "--quick",
            "--no-idle-gate",
            "--no-store",
            "--phases",
            "clock,membw,sha256,openssl,7zip-single,clock-hot",
        ])
        .arg("--log")
        .arg(&log)
        .arg("--output")
        .arg(&doc_path)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(matches!(out.status.code(), Some(0 | 2)), "{stderr}");
    let doc: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&doc_path).unwrap()).unwrap();
    common::assert_valid_document(&doc);
    let phases = doc["run"]["phases"].as_array().unwrap();
    assert!(
        phases
            .iter()
            .filter(|p| p["kind"] == "clock")
            .all(|p| p["status"] == "done")
    );
    let clock = doc["measurements"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["suite"] == "clock")
        .unwrap();
    assert!(clock["value"].as_f64().unwrap() > 100.0);
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.lines().last().unwrap().starts_with("| "));
}

/// sbc-bench's documented regression pipe, under sbc-bench's name (a link to the binary):
/// `MODE=unattended sbc-bench -c | grep -q 'Check the log' || tail -n1 <log>`. The hint appears
/// exactly when the run is not to be trusted (exit code 2); otherwise the log's last line is
/// the summary row.
#[test]
fn sbc_bench_name_and_regression_pipe() {
    let tmp = tempfile::tempdir().unwrap();
    let root = common::fixture_machine("rk3588", tmp.path());
    let bin = common::stub_tools(tmp.path(), common::ALL_TOOLS);
    let link = bin.join("sbc-bench");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_boardbench"), &link).unwrap();
    let log = tmp.path().join("sbc-bench.log");
    let mut c = Command::new(&link);
    c.env_clear()
        .env("PATH", &bin)
        .env("HOME", tmp.path())
        .env("MODE", "unattended")
        .args(["--sysroot"])
        .arg(&root)
        .args(["-c", "--quick", "--tiny-kernels", "--no-store", "--log"])
        .arg(&log);
    if let Some(v) = std::env::var_os("QEMU_LD_PREFIX") {
        c.env("QEMU_LD_PREFIX", v);
    }
    let out = c.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let hint = stdout.contains("Check the log");
    match out.status.code() {
        Some(2) => assert!(hint, "invalid run without the hint:\n{stdout}"),
        Some(0) => assert!(!hint, "valid run with the hint:\n{stdout}"),
        other => panic!("exit {other:?}\n{stderr}"),
    }
    let text = std::fs::read_to_string(&log).unwrap();
    let last = text.lines().last().unwrap();
    assert!(last.starts_with("| ") && last.ends_with(" |"), "{last}");
    let doc_line = text.lines().next().unwrap();
    assert!(
        doc_line.contains("unattended"),
        "header names the mode: {doc_line}"
    );
    // The cpuminer phase of -c ran (stub cpuminer) and the document says how it was started.
    assert!(text.contains("cpuminer"), "no cpuminer in the log");
}

/// Issue 47: a `-o` that fails at the end (a full disk; here /dev/full, which passes the
/// check as a device) lost the run from the database. The run is stored first, the document
/// kept beside the default database, and the error says both.
#[test]
fn a_failing_output_at_the_end_never_loses_the_run() {
    let tmp = tempfile::tempdir().unwrap();
    let root = common::fixture_machine("rk3588", tmp.path());
    let bin = common::stub_tools(tmp.path(), common::ALL_TOOLS);
    let db = tmp.path().join("r.sqlite");
    let out = run_cmd(&root, &bin, tmp.path())
        .env("XDG_DATA_HOME", tmp.path().join("data"))
        .args(["run", "--quick", "--no-idle-gate", "--phases", "openssl"])
        .arg("--log")
        .arg(tmp.path().join("log"))
        .arg("--db")
        .arg(&db)
        .args(["-o", "/dev/full"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("stored as run 1"), "{stderr}");
    // Beside the default database (XDG_DATA_HOME for a user, /var/lib/boardbench as root).
    let kept = std::path::PathBuf::from(
        stderr
            .split("the document kept in ")
            .nth(1)
            .unwrap_or_else(|| panic!("{stderr}"))
            .trim(),
    );
    assert!(
        kept.parent().unwrap().ends_with("boardbench/unstored"),
        "{stderr}"
    );
    let doc: serde_json::Value = serde_json::from_slice(&std::fs::read(&kept).unwrap()).unwrap();
    assert!(doc["run"]["phases"].is_array());
    std::fs::remove_file(&kept).unwrap();
    let listed = common::boardbench_cmd()
        .unwrap()
        .args(["results", "list", "--db"])
        .arg(&db)
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&listed.stdout).lines().count(), 1);
    // The log has the run too, its summary row last.
    let log = std::fs::read_to_string(tmp.path().join("log")).unwrap();
    assert!(log.trim_end().lines().last().unwrap().starts_with('|'));
}
