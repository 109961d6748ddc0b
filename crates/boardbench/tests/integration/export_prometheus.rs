//! `boardbench export prometheus`: the output passes Debian's `promtool check metrics`, the
//! textfile is replaced atomically, and Debian's prometheus-node-exporter (our own process on a
//! free 127.0.0.1 port, not the packaged service) serves boardbench's metrics from it.
//!
//! The tests that start host programs skip under qemu (BOARDBENCH_EMULATED=1); elsewhere
//! promtool and prometheus-node-exporter must be installed (scripts/test installs them).

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use testsupport::demo;
use testsupport::http;

use common::boardbench;

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn quick_run() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/run-quick.json")
}

/// Two documents of different runs.
fn two_runs(dir: &Path) -> (PathBuf, PathBuf) {
    let demo_run = dir.join("demo.json");
    std::fs::write(
        &demo_run,
        serde_json::to_string(&demo::run_document()).unwrap(),
    )
    .unwrap();
    (quick_run(), demo_run)
}

/// A host program, or `None` under emulation; missing elsewhere is a failure (CI installs it).
fn host_program(name: &str, package: &str) -> Option<PathBuf> {
    if common::host_only() {
        eprintln!("skipped: emulated target (BOARDBENCH_EMULATED=1)");
        return None;
    }
    let found = common::which(name, &["/usr/bin", "/usr/sbin"]);
    assert!(
        found.is_some(),
        "{name} not found: install Debian's {package} package (scripts/test does)"
    );
    found
}

#[test]
fn metrics_of_several_runs_pass_promtool() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = two_runs(dir.path());
    let out = boardbench(&[
        "export",
        "prometheus",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        a.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let metrics = text(&out.stdout);
    assert_eq!(
        metrics.matches("boardbench_run_info{").count(),
        2,
        "{metrics}"
    );
    assert_eq!(
        metrics
            .matches("# TYPE boardbench_7zip_rating_mips gauge")
            .count(),
        1
    );
    for name in [
        "boardbench_run_start_timestamp_seconds{",
        "boardbench_finding{",
        "boardbench_memory_bandwidth_bytes_per_second{",
        "boardbench_cpu_clock_hertz{",
        "board=\"vm\"",
    ] {
        assert!(metrics.contains(name), "{name} missing:\n{metrics}");
    }

    let Some(promtool) = host_program("promtool", "prometheus") else {
        return;
    };
    let mut child = Command::new(promtool)
        .args(["check", "metrics"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(metrics.as_bytes())
            .unwrap();
    }
    let check = child.wait_with_output().unwrap();
    assert!(
        check.status.success(),
        "promtool check metrics: {}{}\n{metrics}",
        text(&check.stdout),
        text(&check.stderr)
    );
}

#[test]
fn textfile_is_replaced_atomically_and_bad_arguments_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("boardbench.prom");
    std::fs::write(&target, "old\n").unwrap();
    let out = boardbench(&[
        "export",
        "prometheus",
        quick_run().to_str().unwrap(),
        "--textfile",
        dir.path().to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(out.stdout.is_empty());
    let written = std::fs::read_to_string(&target).unwrap();
    assert!(
        written.starts_with("# HELP boardbench_run_info"),
        "{written}"
    );
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["boardbench.prom"], "no temporary file left");

    let out = boardbench(&[
        "export",
        "prometheus",
        quick_run().to_str().unwrap(),
        "--textfile",
        dir.path().join("missing").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("not a directory"));
    let out = boardbench(&[
        "export",
        "prometheus",
        quick_run().to_str().unwrap(),
        "--textfile",
        dir.path().to_str().unwrap(),
        "--name",
        "../x",
    ]);
    // A usage error (64), not 2 ("completed, not to be trusted").
    assert_eq!(out.status.code(), Some(64), "{}", text(&out.stderr));
    let out = boardbench(&["export", "prometheus", "no-such-file.json"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("no such file"));
}

#[test]
fn runs_are_found_by_id_in_the_results_database() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("results.sqlite");
    let db = db.to_str().unwrap();
    let out = boardbench(&["results", "add", "--db", db, quick_run().to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let by_file = boardbench(&["export", "prometheus", quick_run().to_str().unwrap()]);
    let by_id = boardbench(&["export", "prometheus", "--db", db, "1"]);
    assert!(by_id.status.success(), "{}", text(&by_id.stderr));
    // `results add` stores the finished document (crates/finish): this fixture was written
    // before documents carried their analysis, so the stored one gains it and with it another
    // hash, the `run` label. Every metric and every other label is the same.
    let unlabelled = |s: String| {
        let mut parts = s.split("run=\"");
        let mut out = parts.next().unwrap_or_default().to_string();
        for p in parts {
            out.push_str("run=\"…");
            out.push_str(&p[p.find('"').unwrap_or(p.len())..]);
        }
        out
    };
    assert_eq!(
        unlabelled(text(&by_id.stdout)),
        unlabelled(text(&by_file.stdout))
    );
    let lava = boardbench(&["export", "lava", "#1", "--db", db]);
    assert!(lava.status.success(), "{}", text(&lava.stderr));
    assert!(text(&lava.stdout).starts_with("lava-test-case 7zip-multi --result pass"));
    let out = boardbench(&["export", "lava", "--db", db, "2"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("no run 2"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn node_exporter_serves_the_textfile() {
    let Some(exporter) = host_program("prometheus-node-exporter", "prometheus-node-exporter")
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = two_runs(dir.path());
    let textdir = dir.path().join("textfile");
    std::fs::create_dir(&textdir).unwrap();
    let out = boardbench(&[
        "export",
        "prometheus",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--textfile",
        textdir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));

    // Our own exporter on our own port (the packaged service, if running, uses 9100), with
    // only the textfile collector, so the scrape is small and reads nothing else.
    let port = http::free_port();
    let addr: std::net::SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    let _exporter = http::KillOnDrop(
        Command::new(exporter)
            .arg(format!("--web.listen-address=127.0.0.1:{port}"))
            .arg("--collector.disable-defaults")
            .arg("--collector.textfile")
            .arg(format!(
                "--collector.textfile.directory={}",
                textdir.display()
            ))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("prometheus-node-exporter starts"),
    );
    let answer = http::get_when_up(addr, "/metrics", Duration::from_secs(15));
    let body = answer.text();
    assert!(
        !body.lines().any(|l| l == "node_textfile_scrape_error 1"),
        "the exporter could not read the textfile:\n{body}"
    );
    for want in [
        "boardbench_run_info{",
        "boardbench_7zip_rating_mips{",
        "boardbench_run_valid{",
        "boardbench_finding{",
        "node_textfile_mtime_seconds{file=",
    ] {
        assert!(body.contains(want), "{want} not scraped:\n{body}");
    }
    assert_eq!(body.matches("boardbench_run_info{").count(), 2, "{body}");
}
