//! `boardbench import`: documents for good logs, one error line per bad file, exit code 1 if
//! any failed, the others still imported.

use crate::common;

use testsupport::sbc_bench_logs;

/// `boardbench import --no-store …` (these tests are about documents, not the database).
fn boardbench(args: &[&std::ffi::OsStr]) -> std::process::Output {
    assert_eq!(args[0], "import");
    common::command()
        .arg("import")
        .arg("--no-store")
        .args(&args[1..])
        .output()
        .expect("run boardbench")
}

#[test]
fn single_file_prints_an_imported_document() {
    let log = sbc_bench_logs().join("Xd38a.txt");
    let out = boardbench(&["import".as_ref(), log.as_os_str()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON document");
    assert_eq!(doc["schema_version"], 1);
    assert_eq!(doc["device"], "Flipper One rev. F0B0C1");
    let imp = &doc["imported"];
    assert_eq!(imp["source"], "Xd38a.txt");
    assert_eq!(imp["sbc_bench_version"], "v0.9.72");
    assert_eq!(imp["headline"]["zip_multi"], 12350);
    assert_eq!(imp["headline"]["khs"], 18.74);
    let m = doc["measurements"].as_array().unwrap();
    assert!(
        m.iter()
            .any(|r| r["suite"] == "openssl" && r["value"] == 1305480.0)
    );
}

#[test]
fn bad_files_are_reported_and_the_rest_imported() {
    let dir = tempfile::tempdir().unwrap();
    let garbage = dir.path().join("garbage.txt");
    std::fs::write(&garbage, "hello\nworld\n").unwrap();
    let empty = dir.path().join("empty.txt");
    std::fs::write(&empty, "").unwrap();
    let good1 = sbc_bench_logs().join("1iJ7.txt");
    let good2 = sbc_bench_logs().join("3GmR.txt");
    let missing = dir.path().join("missing.txt");
    let out_dir = dir.path().join("out");
    let out = boardbench(&[
        "import".as_ref(),
        "--out".as_ref(),
        out_dir.as_os_str(),
        garbage.as_os_str(),
        good1.as_os_str(),
        empty.as_os_str(),
        missing.as_os_str(),
        good2.as_os_str(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 3, "{stderr}");
    assert!(lines[0].starts_with(&format!(
        "import: {}: not an sbc-bench log",
        garbage.display()
    )));
    assert!(lines[1].starts_with(&format!("import: {}: empty file", empty.display())));
    assert!(lines[2].starts_with(&format!("import: {}: ", missing.display())));
    for stem in ["1iJ7", "3GmR"] {
        let text = std::fs::read_to_string(out_dir.join(format!("{stem}.json"))).unwrap();
        let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(doc["imported"]["source"], format!("{stem}.txt"));
    }
}

#[test]
fn several_files_without_out_print_one_line_each() {
    let a = sbc_bench_logs().join("Xd38a.txt");
    let b = sbc_bench_logs().join("1iyp.txt");
    let out = boardbench(&["import".as_ref(), a.as_os_str(), b.as_os_str()]);
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(
        lines[0].contains("v0.9.72")
            && lines[0].contains("| 12350 | 2306 | 1305480 | 5110 | 15710 | 18.74 |")
    );
    assert!(
        lines[1].contains("pre-v0.4")
            && lines[1].contains("| 6440 | 943 | 652620 | 1640 | 3710 | - |")
    );
}
