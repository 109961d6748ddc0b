//! Every shared sbc-bench log (../shared/fixtures/sbc-bench-logs, 155) imported through
//! `boardbench import`, and the SoC its summary line names checked against the SoC of the
//! log's own table row in expected.json (both normalised through the SoC catalogue). Twice:
//! under the logs' own names, and copied under new names (`log-000.txt` …) so the table row
//! the file name links cannot help, as with a user's own new log. Prints right / wrong / none
//! (`cargo test -p boardbench --test integration sbc_logs_soc:: -- --nocapture`).
//!
//! Targets: at least 95 % right, and never a wrong chip (a wrong group is worse than none).

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::common;

/// The SoC the table row names, through the catalogue: the last parenthesised part that is a
/// SoC, else the device name itself (a SoC name, a board, an x86 model).
fn expected_soc(device: &str) -> Option<String> {
    let mut spelling = None;
    let mut rest = device;
    while let Some(open) = rest.find('(') {
        let after = &rest[open + 1..];
        let Some(close) = after.find(')') else { break };
        let inside = after[..close].trim();
        if !inside.ends_with("SO-DIMM") {
            spelling = Some(inside.to_string());
        }
        rest = &after[close + 1..];
    }
    let base = device.split(" (").next().unwrap_or(device).trim();
    let s = spelling.as_deref().unwrap_or(base);
    corpus::known_soc(s)
        .or_else(|| document::socs::lookup_prefix(s).map(|x| x.name.to_string()))
        .or_else(|| document::socs::of_board(s).map(|x| x.name.to_string()))
}

/// `boardbench import --no-store FILES…` within `limit`: its stdout.
fn import_all(files: &[PathBuf], out: &Path, limit: Duration) -> String {
    let stdout = std::fs::File::create(out).unwrap();
    let mut child = common::command()
        .arg("import")
        .arg("--no-store")
        .args(files)
        .stdout(stdout)
        .stderr(Stdio::piped())
        .spawn()
        .expect("boardbench starts");
    let t0 = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if t0.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "boardbench import of {} logs took over {limit:?}",
                files.len()
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(status.success(), "import failed: {status}\n{err}");
    std::fs::read_to_string(out).unwrap()
}

struct Counts {
    right: usize,
    wrong: Vec<String>,
    none: Vec<String>,
}

fn check(label: &str, rows: &[(PathBuf, String, Option<String>)], stdout: &str) -> Counts {
    let mut c = Counts {
        right: 0,
        wrong: vec![],
        none: vec![],
    };
    for (file, device, want) in rows {
        let shown = file.display().to_string();
        let line = stdout
            .lines()
            .find(|l| l.split('\t').next() == Some(shown.as_str()))
            .unwrap_or_else(|| panic!("{label}: no summary line for {shown}"));
        let cell = line.split('\t').nth(4).unwrap_or_default();
        let got = cell
            .strip_prefix("SoC ")
            .filter(|_| cell != "SoC not known");
        let name = file.file_name().unwrap().to_string_lossy();
        match (got, want) {
            (Some(g), Some(w)) if g == w => c.right += 1,
            (Some(g), _) => c
                .wrong
                .push(format!("{name} ({device}): {g}, want {want:?}")),
            (None, _) => c
                .none
                .push(format!("{name} ({device}): none, want {want:?}")),
        }
    }
    let n = rows.len();
    println!(
        "{label}: {n} logs: right {} ({:.1} %), wrong {}, none {}",
        c.right,
        100.0 * c.right as f64 / n as f64,
        c.wrong.len(),
        c.none.len()
    );
    for w in &c.wrong {
        println!("  WRONG {w}");
    }
    for w in &c.none {
        println!("  none  {w}");
    }
    c
}

#[test]
fn every_shared_log_gets_its_tables_soc_through_the_cli() {
    let dir = testsupport::sbc_bench_logs();
    let expected: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("expected.json")).unwrap()).unwrap();
    let rows = expected.as_array().unwrap();
    assert_eq!(rows.len(), 155, "the shared set has 155 logs");
    let tmp = tempfile::tempdir().unwrap();
    let mut own = Vec::new();
    let mut renamed = Vec::new();
    for (i, r) in rows.iter().enumerate() {
        let log = r["log"].as_str().unwrap();
        let device = r["device"].as_str().unwrap().to_string();
        // A row the catalogue cannot name counts as wrong whatever the log gets.
        let want = expected_soc(&device);
        let new = tmp.path().join(format!("log-{i:03}.txt"));
        std::fs::copy(dir.join(log), &new).unwrap();
        own.push((dir.join(log), device.clone(), want.clone()));
        renamed.push((new, device, want));
    }
    let limit = Duration::from_secs(300);
    let files = |v: &[(PathBuf, String, Option<String>)]| -> Vec<PathBuf> {
        v.iter().map(|(f, _, _)| f.clone()).collect()
    };
    let out = import_all(&files(&renamed), &tmp.path().join("renamed.out"), limit);
    let new_names = check("under new names", &renamed, &out);
    let out = import_all(&files(&own), &tmp.path().join("own.out"), limit);
    let own_names = check("under their own names", &own, &out);

    for (label, c) in [("new names", &new_names), ("own names", &own_names)] {
        assert!(
            c.wrong.is_empty(),
            "{label}: {} logs got a wrong chip: {:#?}",
            c.wrong.len(),
            c.wrong
        );
        assert!(
            c.right as f64 >= 0.95 * rows.len() as f64,
            "{label}: only {} of {} right",
            c.right,
            rows.len()
        );
    }
    // The own row can only add: every log right under a new name is right under its own.
    assert!(own_names.right >= new_names.right);
}
