//! The process side: PATH lookup with a caller-controlled PATH, missing tools become skips,
//! stub tools on a temporary PATH replay recorded outputs through the real runner (the
//! mechanism the end-to-end run test uses), pinning, stdin, time limit and process-group kill.

use crate::common;

use std::ffi::OsStr;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::time::Duration;

use adapters::tool::format_cpu_list;
use adapters::{
    Invocation, RunError, Runner, SearchPath, SystemRunner, Tool, cpuminer, openssl, sevenzip,
    stockfish,
};
use common::data_path;

/// Writes an executable shell script `name` into `dir`.
fn stub(dir: &Path, name: &str, body: &str) {
    let p = dir.join(name);
    std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// A stub that prints a recorded output.
fn replay(dir: &Path, name: &str, fixture: &str) {
    stub(
        dir,
        name,
        &format!("cat '{}'", data_path(fixture).display()),
    );
}

fn sh() -> Tool {
    Tool {
        name: "sh".into(),
        path: "/bin/sh".into(),
    }
}

#[test]
fn every_adapter_skips_with_a_reason_when_path_is_empty() {
    let sp = SearchPath::new(OsStr::new(""));
    let r = SystemRunner;
    let skips = [
        sevenzip::find(&sp, &r).unwrap_err(),
        openssl::find(&sp, &r).unwrap_err(),
        stockfish::find(&sp, &r).unwrap_err(),
        cpuminer::find(&sp, &r).unwrap_err(),
    ];
    let tools: Vec<&str> = skips.iter().map(|s| s.tool.as_str()).collect();
    assert_eq!(tools, ["7-Zip", "OpenSSL", "Stockfish", "cpuminer"]);
    assert_eq!(
        skips[0].reason,
        "none of 7zz, 7z, 7za, 7zr found in PATH (empty)"
    );
    assert!(skips[2].reason.contains("stockfish"));
    assert_eq!(
        skips[0].to_string(),
        "7-Zip skipped: none of 7zz, 7z, 7za, 7zr found in PATH (empty)"
    );
}

#[test]
fn custom_path_hides_the_games_directory() {
    // Only SearchPath::from_env adds /usr/games; a custom PATH is taken literally.
    let dir = tempfile::tempdir().unwrap();
    let sp = SearchPath::new(dir.path().as_os_str());
    assert_eq!(sp.dirs(), [dir.path()]);
    assert!(stockfish::find(&sp, &SystemRunner).is_err());
}

#[test]
fn non_executable_files_are_not_tools() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("openssl"), "not a program").unwrap();
    let sp = SearchPath::new(dir.path().as_os_str());
    assert!(sp.find_one("openssl").is_none());
    assert!(openssl::find(&sp, &SystemRunner).is_err());
}

#[test]
fn a_tool_without_version_banner_is_skipped_not_fatal() {
    let dir = tempfile::tempdir().unwrap();
    stub(dir.path(), "openssl", "echo 'something else'; exit 3");
    let sp = SearchPath::new(dir.path().as_os_str());
    let skip = openssl::find(&sp, &SystemRunner).unwrap_err();
    assert!(skip.reason.contains("no version line"), "{}", skip.reason);
    assert!(skip.reason.contains("exit status 3"), "{}", skip.reason);
}

#[test]
fn stub_7zip_on_temp_path_replays_through_the_real_runner() {
    let dir = tempfile::tempdir().unwrap();
    // Debian's wrapper as `7z`: banner without arguments, a recorded run for `b`.
    stub(
        dir.path(),
        "7z",
        &format!(
            "if [ \"$1\" = b ]; then cat '{}'; else cat '{}'; fi",
            data_path("7zip-26.02-p7zip-b-mmt1.txt").display(),
            data_path("7zip-26.02-p7zip-banner.txt").display()
        ),
    );
    let sp = SearchPath::new(dir.path().as_os_str());
    let found = sevenzip::find(&sp, &SystemRunner).unwrap();
    assert_eq!(found.tool.name, "7z");
    assert_eq!(found.tool.path, dir.path().join("7z"));
    assert_eq!(found.version.version, "26.02");
    assert!(!found.version.comparable_with_sbc_bench);

    let inv = sevenzip::invocation(&found.tool, &sevenzip::BenchOptions::sbc_bench(1, 1 << 30));
    let out = SystemRunner.run(&inv).unwrap();
    assert!(out.success());
    let bench = sevenzip::parse(&out.combined()).unwrap();
    assert_eq!(bench.tot.rating_mips, 4126);
}

#[test]
fn comparable_7zip_is_preferred_over_newer_ones() {
    let dir = tempfile::tempdir().unwrap();
    replay(dir.path(), "7zz", "7zip-26.01-7zz-banner.txt");
    replay(dir.path(), "7za", "7zip-16.02-4qpr-single.txt");
    let sp = SearchPath::new(dir.path().as_os_str());
    let found = sevenzip::find(&sp, &SystemRunner).unwrap();
    assert_eq!(found.tool.name, "7za");
    assert_eq!(found.version.version, "16.02");
    assert!(found.version.comparable_with_sbc_bench);

    // Without a comparable one the first candidate in preference order wins.
    std::fs::remove_file(dir.path().join("7za")).unwrap();
    replay(dir.path(), "7z", "7zip-26.02-p7zip-banner.txt");
    let found = sevenzip::find(&sp, &SystemRunner).unwrap();
    assert_eq!(found.tool.name, "7zz");
}

#[test]
fn stub_openssl_and_stockfish_replay() {
    let dir = tempfile::tempdir().unwrap();
    stub(
        dir.path(),
        "openssl",
        &format!(
            "if [ \"$1\" = version ]; then cat '{}'; else cat '{}'; fi",
            data_path("openssl-3.0.19-version.txt").display(),
            data_path("openssl-3.0.19-speed-aes-256-cbc-1s.txt").display()
        ),
    );
    // Stockfish reads its commands on stdin; the stub checks it got the bench command.
    stub(
        dir.path(),
        "stockfish",
        &format!(
            "read first; case \"$first\" in bench*) cat '{}';; *) cat '{}';; esac",
            data_path("stockfish-15.1-bench-16-1-8.txt").display(),
            data_path("stockfish-15.1-banner.txt").display()
        ),
    );
    let sp = SearchPath::new(dir.path().as_os_str());
    let r = SystemRunner;

    let ossl = openssl::find(&sp, &r).unwrap();
    assert_eq!(ossl.version.version, "3.0.19");
    let inv = openssl::invocation(&ossl.tool, &openssl::SpeedOptions::sbc_bench("aes-256-cbc"));
    let speed = openssl::parse(&r.run(&inv).unwrap().combined()).unwrap();
    assert_eq!(speed.sbc_bench_score("aes-256-cbc"), Some(787480.58));

    let sf = stockfish::find(&sp, &r).unwrap();
    assert_eq!(sf.version.version, "15.1");
    let inv = stockfish::invocation(&sf.tool, &stockfish::BenchOptions::sbc_bench(2));
    let bench = stockfish::parse(&r.run(&inv).unwrap().combined()).unwrap();
    assert_eq!(bench.nodes_per_second, 1_100_673);
}

#[test]
fn stub_cpuminer_is_ended_at_the_time_limit_and_its_output_kept() {
    let dir = tempfile::tempdir().unwrap();
    // Prints the recorded log, then keeps running (in a child process, like a real miner
    // thread would): only the time limit ends it.
    stub(
        dir.path(),
        "cpuminer",
        &format!(
            "if [ \"$1\" = --version ]; then echo 'cpuminer-multi 1.3.7 by tpruvot@github'; exit 0; fi\n\
             cat '{}'\nsleep 600",
            data_path("cpuminer-1.3.7-4qpr.txt").display()
        ),
    );
    let sp = SearchPath::new(dir.path().as_os_str());
    let found = cpuminer::find(&sp, &SystemRunner).unwrap();
    assert_eq!(found.version.label(), "cpuminer-multi 1.3.7");
    // Long enough for the stub to print everything even on a loaded machine.
    let inv = cpuminer::invocation(&found.tool, Duration::from_secs(2));
    assert_eq!(inv.args, ["--benchmark", "--cpu-priority=2"]);
    let out = SystemRunner.run(&inv).unwrap();
    assert!(out.timed_out);
    assert!(!out.success());
    assert_eq!(out.signal, Some(libc::SIGTERM));
    let bench = cpuminer::parse(&out.combined()).unwrap();
    assert_eq!(bench.score_khs, Some(41.43));
}

#[test]
fn a_child_ignoring_sigterm_is_killed() {
    let inv = Invocation::new(&sh(), &["-c", "trap '' TERM; echo started; sleep 600"])
        // Long enough for sh to install the trap even on a loaded machine.
        .time_limit(Duration::from_secs(2));
    let out = SystemRunner.run(&inv).unwrap();
    assert!(out.timed_out);
    assert_eq!(out.signal, Some(libc::SIGKILL));
    assert_eq!(out.stdout, "started\n");
    assert!(out.describe_end().starts_with("ended at the time limit"));
}

#[test]
fn exit_status_stdout_and_stderr_are_captured() {
    let inv = Invocation::new(&sh(), &["-c", "echo out; echo err >&2; exit 7"]);
    let out = SystemRunner.run(&inv).unwrap();
    assert_eq!(out.exit_code, Some(7));
    assert_eq!(out.signal, None);
    assert!(!out.timed_out);
    assert_eq!(out.stdout, "out\n");
    assert_eq!(out.stderr, "err\n");
    assert_eq!(out.combined(), "out\nerr\n");
    assert_eq!(out.describe_end(), "exit status 7");
}

#[test]
fn stdin_is_written_and_closed() {
    let inv = Invocation::new(&sh(), &["-c", "cat; echo done"]).stdin("bench 16 1 6\nquit\n");
    let out = SystemRunner.run(&inv).unwrap();
    assert_eq!(out.stdout, "bench 16 1 6\nquit\ndone\n");
    // Without stdin input the child reads /dev/null, so it never waits for a terminal.
    let out = SystemRunner
        .run(&Invocation::new(&sh(), &["-c", "cat; echo eof"]))
        .unwrap();
    assert_eq!(out.stdout, "eof\n");
}

#[test]
fn locale_is_c_and_custom_path_reaches_the_child() {
    let dir = tempfile::tempdir().unwrap();
    let sp = SearchPath::new(dir.path().as_os_str());
    let inv = Invocation::new(&sh(), &["-c", "echo \"$LC_ALL $PATH\""]).search_path(&sp);
    let out = SystemRunner.run(&inv).unwrap();
    assert_eq!(out.stdout.trim(), format!("C {}", dir.path().display()));
}

fn allowed_cpus_of(status: &str) -> Option<String> {
    status
        .lines()
        .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
        .map(|s| s.trim().to_string())
}

fn own_allowed_cpus() -> Vec<u32> {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let list = allowed_cpus_of(&status).unwrap();
    let mut cpus = Vec::new();
    for part in list.split(',') {
        match part.split_once('-') {
            Some((a, b)) => cpus.extend(a.parse::<u32>().unwrap()..=b.parse::<u32>().unwrap()),
            None => cpus.push(part.parse().unwrap()),
        }
    }
    cpus
}

#[test]
fn child_is_pinned_to_the_requested_cpu() {
    let allowed = own_allowed_cpus();
    let last = *allowed.last().unwrap();
    let inv = Invocation::new(&sh(), &["-c", "cat /proc/self/status"]).pinned(&[last]);
    let out = SystemRunner.run(&inv).unwrap();
    assert_eq!(allowed_cpus_of(&out.stdout), Some(last.to_string()));

    // The whole allowed set, given as a list, comes back in the kernel's notation.
    let inv = Invocation::new(&sh(), &["-c", "cat /proc/self/status"]).pinned(&allowed);
    let out = SystemRunner.run(&inv).unwrap();
    assert_eq!(
        allowed_cpus_of(&out.stdout),
        Some(format_cpu_list(&allowed))
    );

    // Unpinned children inherit our mask.
    let out = SystemRunner
        .run(&Invocation::new(&sh(), &["-c", "cat /proc/self/status"]))
        .unwrap();
    assert_eq!(
        allowed_cpus_of(&out.stdout),
        Some(format_cpu_list(&allowed))
    );
}

#[test]
fn pinning_to_an_unavailable_cpu_is_an_error_not_a_crash() {
    let allowed = own_allowed_cpus();
    let absent = (0..1024).find(|c| !allowed.contains(c)).unwrap();
    let inv = Invocation::new(&sh(), &["-c", "true"]).pinned(&[absent]);
    match SystemRunner.run(&inv) {
        Err(RunError::Affinity(msg)) => assert!(msg.contains(&absent.to_string()), "{msg}"),
        other => panic!("expected an affinity error, got {other:?}"),
    }
}

#[test]
fn missing_program_is_a_spawn_error() {
    let tool = Tool {
        name: "nope".into(),
        path: "/nonexistent/nope".into(),
    };
    assert!(matches!(
        SystemRunner.run(&Invocation::new(&tool, &[])),
        Err(RunError::Spawn(_))
    ));
}

#[test]
fn leftover_children_of_a_finished_tool_do_not_hang_the_run() {
    // The leader exits at once; its background `sleep` still holds stdout.
    let inv = Invocation::new(&sh(), &["-c", "sleep 600 & echo bye"]);
    let out = SystemRunner.run(&inv).unwrap();
    assert_eq!(out.exit_code, Some(0));
    assert_eq!(out.stdout, "bye\n");
}

#[test]
fn replay_runner_drives_detection_and_parsing_without_processes() {
    use adapters::ReplayRunner;
    let banner = std::fs::read_to_string(data_path("stockfish-15.1-banner.txt")).unwrap();
    let bench = std::fs::read_to_string(data_path("stockfish-15.1-bench-16-1-8.txt")).unwrap();
    let r = ReplayRunner::new()
        .on("stockfish", &[], &banner)
        .on("stockfish", &["bench"], &bench);
    let tool = Tool {
        name: "stockfish".into(),
        path: "/usr/games/stockfish".into(),
    };
    let v = stockfish::detect(&r, &tool).unwrap();
    assert_eq!(v.version, "15.1");
    let out = r
        .run(&stockfish::invocation(
            &tool,
            &stockfish::BenchOptions::quick(1),
        ))
        .unwrap();
    assert_eq!(
        stockfish::parse(&out.combined()).unwrap().nodes_per_second,
        1_100_673
    );
    let calls = r.calls();
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[0].stdin.as_deref(), Some("quit\n"));
    assert_eq!(
        calls[1].stdin.as_deref(),
        Some("bench 16 1 6 default depth\nquit\n")
    );

    // An unknown program is like a missing one: detection becomes a skip.
    let other = Tool {
        name: "openssl".into(),
        path: "/usr/bin/openssl".into(),
    };
    let skip = openssl::detect(&r, &other).unwrap_err();
    assert!(
        skip.reason.contains("no recorded output"),
        "{}",
        skip.reason
    );
}
