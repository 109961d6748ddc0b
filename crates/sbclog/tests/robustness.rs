//! Malformed input never panics: garbage, empty, binary, non-sbc-bench text, every fixture log
//! cut at several points, arbitrary strings (proptest). Each bad file gives one error; a cut log
//! that still has results is a document whose `problems` say what is missing.

use std::path::{Path, PathBuf};

use boardbench_sbclog::{ImportError, import_bytes, parse_log};
use proptest::prelude::*;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/fixtures/sbc-bench-logs")
}

fn log_files() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(fixtures())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    v.sort();
    v
}

#[test]
fn bad_inputs_give_one_clear_error() {
    assert_eq!(import_bytes(b"", "e").unwrap_err(), ImportError::Empty);
    assert_eq!(
        import_bytes(b"  \n\n", "e").unwrap_err(),
        ImportError::Empty
    );
    assert_eq!(
        import_bytes(b"\x7fELF\x02\x01\x01\0\0\0", "b").unwrap_err(),
        ImportError::Binary
    );
    let noise: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
        .collect();
    assert_eq!(import_bytes(&noise, "n").unwrap_err(), ImportError::Binary);
    let readme = std::fs::read(fixtures().join("README.md")).unwrap();
    assert_eq!(
        import_bytes(&readme, "README.md").unwrap_err(),
        ImportError::NotSbcBench
    );
    let license = std::fs::read(fixtures().join("LICENSE.sbc-bench")).unwrap();
    assert_eq!(
        import_bytes(&license, "LICENSE").unwrap_err(),
        ImportError::NotSbcBench
    );
    let header_only =
        b"sbc-bench v0.9.72 Some Board (Tue, 05 May 2026 10:08:45 +0000)\n\nDescription: x\n";
    assert!(matches!(
        import_bytes(header_only, "h").unwrap_err(),
        ImportError::NoResults(_)
    ));
    // Every message is one line.
    for e in [
        ImportError::Empty,
        ImportError::Binary,
        ImportError::NotSbcBench,
        ImportError::NoResults(3),
    ] {
        assert!(!e.to_string().contains('\n'));
    }
}

#[test]
fn every_fixture_cut_at_several_points_never_panics() {
    let emulated = std::env::var_os("BOARDBENCH_EMULATED").is_some();
    let step = if emulated { 7 } else { 1 };
    let (mut errors, mut partial, mut whole) = (0, 0, 0);
    for path in log_files().iter().step_by(step) {
        let bytes = std::fs::read(path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        for frac in [0.001, 0.05, 0.2, 0.4, 0.6, 0.8, 0.97] {
            // Byte cuts may split a UTF-8 character; the importer must cope.
            let cut = &bytes[..((bytes.len() as f64 * frac) as usize).max(1)];
            match import_bytes(cut, &name) {
                Err(e) => {
                    errors += 1;
                    assert!(!e.to_string().is_empty());
                }
                Ok(doc) => {
                    let imp = doc.imported.expect("imported part");
                    // Without the 7-Zip `Total:` line the document must say it is partial.
                    if imp.sevenzip.as_ref().is_none_or(|z| z.totals.is_empty()) {
                        assert!(
                            !imp.problems.is_empty(),
                            "{name} cut at {frac}: unmarked partial"
                        );
                        assert_eq!(imp.headline.zip_multi, None, "{name} cut at {frac}");
                        partial += 1;
                    } else {
                        whole += 1;
                    }
                }
            }
        }
    }
    println!("cut logs: {errors} errors, {partial} partial documents, {whole} with all benchmarks");
    assert!(errors > 0 && partial > 0);
}

#[test]
fn shuffled_and_repeated_lines_never_panic() {
    for path in log_files().iter().step_by(10) {
        let text = std::fs::read_to_string(path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let reversed: String = lines.iter().rev().map(|l| format!("{l}\n")).collect();
        let _ = parse_log(&reversed, "r");
        let doubled = format!("{text}\n{text}");
        let _ = parse_log(&doubled, "d");
        let every_other: String = lines.iter().step_by(2).map(|l| format!("{l}\n")).collect();
        let _ = parse_log(&every_other, "e");
    }
}

proptest! {
    #[test]
    fn arbitrary_text_never_panics(s in "\\PC*") {
        let _ = parse_log(&s, "p");
        let _ = import_bytes(s.as_bytes(), "p");
    }

    #[test]
    fn arbitrary_bytes_never_panic(b in proptest::collection::vec(any::<u8>(), 0..2048)) {
        let _ = import_bytes(&b, "p");
    }

    /// Log-shaped lines with random numbers and junk: the section parsers see real prefixes.
    #[test]
    fn log_shaped_lines_never_panic(
        lines in proptest::collection::vec(
            prop_oneof![
                Just("sbc-bench v0.9.72 X (Tue, 05 May 2026 10:08:45 +0000)".to_string()),
                "Tot: [ 0-9.k-]{0,30}",
                "Total:[ 0-9,.-]{0,30}",
                "Total Scores:[ 0-9,.]{0,30}",
                ",[0-9,.]{0,20}",
                "aes-256-cbc[ 0-9.k()a-z]{0,80}",
                " libc memcpy copy *:[ 0-9.MB/s]{0,20}",
                " standard memset *:[ 0-9.MB/s]{0,20}",
                "Cpufreq OPP:[ 0-9]{0,6} *Measured:[ 0-9./()%+-]{0,30}",
                "[0-2][0-9]:[0-5][0-9]:[0-5][0-9]: [ 0-9./%MHz°C-]{0,60}",
                "[ 0-9]{1,4} MHz:[ 0-9.]{0,10} sec",
                "System health while running [a-z]{0,10}:",
                "Throttling statistics \\(time spent on each cpufreq OPP\\)[a-z ]{0,10}:",
                "Filename.*Used.*",
                "\\|[ 0-9|.a-z-]{0,80}",
                "Linux [a-z0-9.-]{0,10} \\([a-z]{0,5}\\) [0-9/]{0,8} _[a-z0-9]{0,7}_ \\([0-9]{0,3} CPU\\)",
                "Executing benchmark[ a-z0-9()-]{0,40}",
                "#{74}",
                "\\PC{0,40}",
            ],
            0..60,
        )
    ) {
        let text = lines.join("\n");
        let _ = parse_log(&text, "p");
    }
}
