//! Malformed input never panics: garbage, empty, binary, non-sbc-bench text, every fixture log
//! cut at several points, arbitrary strings (proptest). Each bad file gives one error; a cut log
//! that still has results is a document whose `problems` say what is missing.

use std::path::PathBuf;

use proptest::prelude::*;
use sbcimport::{ImportError, import_bytes, parse_log};
use testsupport::sbc_bench_logs;

fn log_files() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(sbc_bench_logs())
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
    let readme = std::fs::read(sbc_bench_logs().join("README.md")).unwrap();
    assert_eq!(
        import_bytes(&readme, "README.md").unwrap_err(),
        ImportError::NotSbcBench
    );
    let license = std::fs::read(sbc_bench_logs().join("LICENSE.sbc-bench")).unwrap();
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

/// `cat a.log b.log` of sbc-bench logs (which end without a newline): the second header
/// starts in the middle of the first log's summary row. Each log is imported on its own, with
/// its own figures — never one document mixing both boards.
#[test]
fn logs_concatenated_without_a_newline_are_split() {
    let a = std::fs::read(sbc_bench_logs().join("Xd38a.txt")).unwrap();
    let b = std::fs::read(sbc_bench_logs().join("3GmR.txt")).unwrap();
    let mut a_trimmed = a.clone();
    while a_trimmed.last() == Some(&b'\n') {
        a_trimmed.pop();
    }
    let mut both = a_trimmed.clone();
    both.extend_from_slice(&b);
    assert_eq!(
        import_bytes(&both, "both").unwrap_err(),
        ImportError::SeveralLogs(2)
    );
    let docs: Vec<_> = sbcimport::import_logs(&both, "both")
        .into_iter()
        .map(Result::unwrap)
        .collect();
    let alone = [
        import_bytes(&a_trimmed, "a").unwrap(),
        import_bytes(&b, "b").unwrap(),
    ];
    for (d, one) in docs.iter().zip(&alone) {
        assert_eq!(d.measurements, one.measurements);
    }
    // A sentence naming the version is not a header.
    let mut text = a.clone();
    text.extend_from_slice(
        b"\nTested with sbc-bench v0.9.72 on Tue, 11 Nov 2025 00:06:19 +0800.\n",
    );
    assert!(import_bytes(&text, "t").is_ok());
}

/// Binary data anywhere in a log, not only in its first 8 KiB, refuses it with the offset:
/// random bytes in the middle would otherwise change its figures silently.
#[test]
fn binary_data_inside_a_log_is_refused() {
    let log = std::fs::read(sbc_bench_logs().join("Xd38a.txt")).unwrap();
    let mid = log.len() / 2;
    assert!(mid > 8192, "the fixture is long enough");
    let noise: Vec<u8> = (0..3072u32)
        .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
        .collect();
    let mut damaged = log[..mid].to_vec();
    damaged.extend_from_slice(&noise);
    damaged.extend_from_slice(&log[mid..]);
    match import_bytes(&damaged, "d").unwrap_err() {
        ImportError::BinaryInside(at) => assert!(at >= 8192 && at <= mid + 3072, "{at}"),
        e => panic!("{e}"),
    }
}

/// Cut points for one log: a spread of byte offsets (pseudo-random, seeded by the log's length)
/// plus line ends. `BOARDBENCH_CUT_POINTS` sets how many per log (default 24, 8 under
/// emulation); every cut is checked, so more points only take longer.
fn cut_points(len: usize, text: &[u8]) -> Vec<usize> {
    let emulated = testsupport::timing_unreal();
    let n: usize = std::env::var("BOARDBENCH_CUT_POINTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if emulated { 8 } else { 24 });
    let mut x = len as u64 | 1;
    let mut cuts: Vec<usize> = (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % len as u64) as usize
        })
        .collect();
    // Cuts right after a newline: the last line looks complete.
    let newlines: Vec<usize> = text
        .iter()
        .enumerate()
        .filter(|(_, b)| **b == b'\n')
        .map(|(i, _)| i + 1)
        .collect();
    if !newlines.is_empty() {
        for k in 0..n / 2 {
            cuts.push(newlines[(k * 7919 + len) % newlines.len()]);
        }
    }
    cuts.retain(|&c| c > 0 && c < len);
    cuts.sort_unstable();
    cuts.dedup();
    cuts
}

/// The line index (0-based) of the system information that follows the benchmarks, if any:
/// a cut before it loses benchmark output.
fn end_of_benchmarks(text: &str) -> Option<usize> {
    let lines: Vec<&str> = text.lines().collect();
    let last_result = lines.iter().rposition(|l| {
        l.trim_start().starts_with("standard mem")
            || l.trim_start().starts_with("libc mem")
            || l.starts_with("Tot:")
            || l.starts_with("Total:")
            || l.starts_with("Total Scores")
            || l.starts_with("Compression:")
            || l.starts_with("aes-")
    })?;
    let io = lines
        .iter()
        .rposition(|l| l.starts_with("Linux ") && l.trim_end().ends_with("CPU)"))?;
    (io > last_result).then_some(io)
}

/// Issue 16 item 3: a log cut anywhere never yields a headline figure that differs from the
/// whole log's, and a cut inside the benchmarks is always marked partial with problems that
/// say so.
#[test]
fn a_cut_log_never_gives_a_different_figure_and_is_marked_partial() {
    let (mut errors, mut partial, mut cuts_total) = (0, 0, 0);
    for path in log_files() {
        let bytes = std::fs::read(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let whole = import_bytes(&bytes, &name).unwrap().imported.unwrap();
        assert!(!whole.partial, "{name}: the whole log is marked partial");
        let text = String::from_utf8_lossy(&bytes);
        let bench_end = end_of_benchmarks(&text).map(|line| {
            text.split_inclusive('\n')
                .take(line)
                .map(str::len)
                .sum::<usize>()
        });
        let w = whole.headline;
        for cut in cut_points(bytes.len(), &bytes) {
            cuts_total += 1;
            // Byte cuts may split a UTF-8 character; the importer must cope.
            let Ok(doc) = import_bytes(&bytes[..cut], &name) else {
                errors += 1;
                continue;
            };
            let imp = doc.imported.unwrap();
            let h = &imp.headline;
            let at = format!("{name} cut at byte {cut} of {}", bytes.len());
            for (field, got, want) in [
                ("7zip multi", h.zip_multi, w.zip_multi),
                ("7zip single", h.zip_single, w.zip_single),
                ("aes", h.aes, w.aes),
                ("memcpy", h.memcpy, w.memcpy),
                ("memset", h.memset, w.memset),
            ] {
                assert!(
                    got.is_none() || got == want,
                    "{at}: {field} {got:?}, whole log {want:?}"
                );
            }
            assert!(
                h.khs.is_none() || h.khs == w.khs,
                "{at}: kH/s {:?} vs {:?}",
                h.khs,
                w.khs
            );
            if bench_end.is_none_or(|end| cut < end) {
                assert!(imp.partial, "{at}: not marked partial");
                assert!(
                    imp.problems.iter().any(|p| p.contains("cut off")),
                    "{at}: {:?}",
                    imp.problems
                );
            }
            if imp.partial {
                partial += 1;
            }
        }
    }
    println!(
        "{cuts_total} cuts: {errors} refused (no finished results), {partial} partial documents"
    );
    assert!(errors > 0 && partial > 0);
}

/// The three cuts of issue 16: inside 7-Zip's `Total:` line, after its second number, inside
/// the cpuminer section.
#[test]
fn the_reported_cuts_give_no_wrong_numbers() {
    let bytes = std::fs::read(sbc_bench_logs().join("Xd38a.txt")).unwrap();
    let text = String::from_utf8_lossy(&bytes);
    let at = |needle: &str| text.find(needle).unwrap() + needle.len();
    for cut in [at("Total: 12252,12314,12"), at("Total: 12252,12314")] {
        let imp = import_bytes(&bytes[..cut], "x").unwrap().imported.unwrap();
        assert!(imp.partial);
        assert_eq!(imp.headline.zip_multi, None);
        assert_eq!(imp.headline.zip_single, Some(2306));
        assert!(
            imp.problems.iter().any(|p| p.contains("7-zip multi")),
            "{:?}",
            imp.problems
        );
    }
    let miner = at("** cpuminer-multi") + 200;
    let imp = import_bytes(&bytes[..miner], "x")
        .unwrap()
        .imported
        .unwrap();
    assert!(imp.partial);
    assert_eq!(imp.headline.khs, None);
    assert_eq!(imp.headline.zip_multi, Some(12350));
    assert!(
        imp.problems.iter().any(|p| p.contains("cpuminer")),
        "{:?}",
        imp.problems
    );
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
