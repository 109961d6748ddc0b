//! Times the import of every log in a directory (default: the shared fixtures), e.g.
//! `cargo run --release -p boardbench-sbcimport --example parse_all [DIR]`. A benchmark, not a test.

use std::path::PathBuf;
use std::time::Instant;

fn main() {
    let dir = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(testsupport::sbc_bench_logs);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("log directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    let mut times = Vec::new();
    for _ in 0..5 {
        let t = Instant::now();
        let mut ok = 0;
        for f in &files {
            let bytes = std::fs::read(f).expect("read");
            let name = f
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            if let Ok(doc) = sbcimport::import_bytes(&bytes, &name) {
                ok += serde_json::to_string(&doc).map(|_| 1).unwrap_or(0);
            }
        }
        times.push((t.elapsed().as_secs_f64(), ok));
    }
    times.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (median, ok) = times[times.len() / 2];
    println!(
        "{} logs ({ok} imported, to JSON): median of 5 passes {:.1} ms ({:.2} ms per log)",
        files.len(),
        median * 1e3,
        median * 1e3 / files.len() as f64
    );
}
