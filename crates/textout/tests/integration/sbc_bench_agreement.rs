//! The summary row of documents imported from sbc-bench logs (auto era v0.9.4+, where sbc-bench
//! computed the row itself) against the row the log ends with: device, 7-zip multi and single,
//! AES, memcpy, memset and kH/s must agree on (almost) every log — proof that the renderer
//! follows sbc-bench's rules. The clock, kernel and distro cells are left out: sbc-bench's
//! came from the live machine, which an imported document does not carry.

use document::imported::SummaryLine;
use textout::results_row_cells;

#[test]
fn results_row_agrees_with_sbc_bench_own_row() {
    let dir = testsupport::sbc_bench_logs();
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    names.sort();
    let fields = [
        "device",
        "7z multi",
        "7z single",
        "aes",
        "memcpy",
        "memset",
        "kH/s",
    ];
    let mut agree = [0usize; 7];
    let mut compared = [0usize; 7];
    let (mut rows, mut full, mut clock_same) = (0usize, 0usize, 0usize);
    let mut misses = Vec::new();
    for path in names {
        let bytes = std::fs::read(&path).unwrap();
        let Ok(doc) = sbcimport::import_bytes(&bytes, &path.display().to_string()) else {
            continue;
        };
        let Some(imp) = &doc.imported else { continue };
        if imp.era != "auto-v0.9.4+" {
            continue;
        }
        let Some(theirs): Option<&SummaryLine> = imp.summary_line.as_ref() else {
            continue;
        };
        let ours = results_row_cells(&doc);
        rows += 1;
        // Informational: the clock cell from the log's clock checks (sbc-bench read sysfs).
        if ours.clock == theirs.clock {
            clock_same += 1;
        } else {
            eprintln!(
                "  clock cell: ours {:?}, theirs {:?}",
                ours.clock, theirs.clock
            );
        }
        let khs_eq = match (ours.khs, theirs.khs) {
            (Some(a), Some(b)) => (a - b).abs() < 0.005,
            (a, b) => a.is_none() && b.is_none(),
        };
        // 7-zip single: before v0.9.9 that column held AES-128; compare only where it is 7-zip.
        let single = theirs.zip_single.map(|t| ours.zip_single == Some(t));
        let checks = [
            Some(ours.device == theirs.device),
            Some(ours.zip_multi == theirs.zip_multi),
            single,
            Some(ours.aes == theirs.aes),
            Some(ours.memcpy == theirs.memcpy),
            Some(ours.memset == theirs.memset),
            Some(khs_eq),
        ];
        let mut all = true;
        for (i, c) in checks.iter().enumerate() {
            if let Some(ok) = c {
                compared[i] += 1;
                if *ok {
                    agree[i] += 1;
                } else {
                    all = false;
                }
            }
        }
        if all {
            full += 1;
        } else {
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            misses.push(format!(
                "{name}: ours {} | theirs {}",
                textout::results_row(&doc),
                theirs.raw
            ));
        }
    }
    eprintln!(
        "summary rows compared: {rows}; all six figures and the device agree on {full} ({:.1} %)",
        100.0 * full as f64 / rows.max(1) as f64
    );
    for (i, f) in fields.iter().enumerate() {
        eprintln!(
            "  {f:<10} {}/{} ({:.1} %)",
            agree[i],
            compared[i],
            100.0 * agree[i] as f64 / compared[i].max(1) as f64
        );
    }
    eprintln!("  clock cell (not asserted) {clock_same}/{rows}");
    for m in &misses {
        eprintln!("  differs: {m}");
    }
    assert!(rows >= 40, "only {rows} auto-era logs with a summary row");
    assert!(
        full * 100 >= rows * 90,
        "agreement {full}/{rows} below 90 %"
    );
}
