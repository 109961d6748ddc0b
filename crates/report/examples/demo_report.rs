//! Writes the report of the synthetic run (with two synthetic runs to compare against) and one
//! page per chart into a directory: `cargo run -p boardbench-report --example demo_report -- DIR`.
//! Optionally an sbc-bench log to render as well: `… -- DIR LOG.txt`.

use testsupport::demo;

fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let dir = std::path::PathBuf::from(args.next().unwrap_or_else(|| "report-demo".into()));
    std::fs::create_dir_all(&dir)?;
    let doc = demo::run_document();
    let others = vec![
        (
            "Faster board".to_string(),
            demo::scaled_run("Faster board", 1.6),
        ),
        (
            "Slower board".to_string(),
            demo::scaled_run("Slower board", 0.55),
        ),
    ];
    std::fs::write(dir.join("report.html"), report::html(&doc, &others))?;
    for (id, page) in report::chart_pages(&doc, &others) {
        std::fs::write(dir.join(format!("{id}.html")), page)?;
    }
    if let Some(log) = args.next() {
        let bytes = std::fs::read(&log)?;
        match sbcimport::import_bytes(&bytes, &log) {
            Ok(d) => std::fs::write(dir.join("imported.html"), report::html(&d, &[]))?,
            Err(e) => eprintln!("{log}: {e}"),
        }
    }
    println!("written to {}", dir.display());
    Ok(())
}
