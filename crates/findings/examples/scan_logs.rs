//! Prints the findings of every sbc-bench fixture log (kind and severity per log), to compare
//! with sbc-bench's own "Results validation" verdicts by eye.
//!
//! `cargo run -p boardbench-findings --example scan_logs [DIR]`

use std::path::PathBuf;

fn main() {
    let dir = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(testsupport::sbc_bench_logs);
    let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("fixture directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    names.sort();
    for path in names {
        let name = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        let Ok(doc) = sbcimport::import_bytes(&bytes, &name) else {
            println!("{name}: not importable");
            continue;
        };
        let findings = findings::analyse(&doc);
        let list: Vec<String> = findings
            .iter()
            .map(|f| format!("{}:{}", f.kind, document::text::severity_word(f.severity)))
            .collect();
        println!("{name}: {}", list.join(" "));
        if std::env::var_os("VERBOSE").is_some() {
            for f in &findings {
                println!("  {}", document::text::finding_line(f));
                for e in document::text::evidence_lines(f) {
                    println!("{e}");
                }
            }
        }
    }
}
