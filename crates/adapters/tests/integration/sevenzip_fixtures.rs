//! The 7-Zip parser and version rule on recorded outputs of 9.20, 16.02 (64/32-bit, RISC-V),
//! 26.01 (`7zz`) and 26.02 (Debian's p7zip wrapper).

use crate::common;

use adapters::RunContext;
use adapters::sevenzip::{self, Rates, Total, test_names};
use common::data;

fn r(speed: Option<u64>, usage: u64, ru: u64, rating: u64) -> Rates {
    Rates {
        speed_kib_s: speed,
        usage_pct: usage,
        ru_mips: ru,
        rating_mips: rating,
    }
}

#[test]
fn debian_p7zip_wrapper_is_really_26_02_and_not_comparable() {
    for file in [
        "7zip-26.02-p7zip-banner.txt",
        "7zip-26.02-p7zip-7za-lalala.txt",
        "7zip-26.02-p7zip-b-mmt1.txt",
    ] {
        let v = sevenzip::parse_version(&data(file)).unwrap();
        assert_eq!(v.version, "26.02", "{file}");
        assert_eq!((v.major, v.minor), (26, 2));
        assert_eq!(v.p7zip_version.as_deref(), Some("16.02"), "{file}");
        assert_eq!(v.bits, Some(64));
        assert!(!v.comparable_with_sbc_bench, "{file}");
        assert!(v.flagged_by_sbc_bench);
        assert_eq!(v.banner.len(), 2);
        assert_eq!(v.label(), "7-Zip 26.02");
    }
}

#[test]
fn genuine_16_02_is_comparable() {
    for file in [
        "7zip-16.02-4qpr-single.txt",
        "7zip-16.02-32bit-1MFf.txt",
        "7zip-16.02-riscv-40BJ.txt",
    ] {
        let v = sevenzip::parse_version(&data(file)).unwrap();
        assert_eq!(v.version, "16.02", "{file}");
        assert_eq!(v.p7zip_version.as_deref(), Some("16.02"));
        assert!(v.comparable_with_sbc_bench, "{file}");
        assert!(!v.flagged_by_sbc_bench, "{file}");
    }
}

#[test]
fn official_7zz_is_not_comparable() {
    for file in [
        "7zip-26.01-7zz-banner.txt",
        "7zip-26.01-7zz-b1-mmt1-md18.txt",
    ] {
        let v = sevenzip::parse_version(&data(file)).unwrap();
        assert_eq!(v.version, "26.01");
        assert_eq!(v.p7zip_version, None);
        assert_eq!(v.bits, Some(64), "(x64) in the banner");
        assert!(!v.comparable_with_sbc_bench);
    }
    // A 23.01 banner written in the recorded 26.01 layout (no 23.01 recording here).
    let v = sevenzip::parse_version(
        "7-Zip (z) 23.01 (arm64) : Copyright (c) 1999-2023 Igor Pavlov : 2023-06-20",
    )
    .unwrap();
    assert_eq!(v.version, "23.01");
    assert!(!v.comparable_with_sbc_bench);
}

#[test]
fn version_9_20_is_older_than_the_reference() {
    let v = sevenzip::parse_version(&data("7zip-9.20-1ixi-single.txt")).unwrap();
    assert_eq!(v.version, "9.20");
    assert_eq!(v.p7zip_version.as_deref(), Some("9.20"));
    assert!(v.comparable_with_sbc_bench, "≤ 16.02");
    assert!(
        v.flagged_by_sbc_bench,
        "sbc-bench warns about anything but 16.02"
    );
    assert_eq!(v.bits, None);
}

#[test]
fn bits_come_from_the_p7zip_line_when_the_banner_has_none() {
    let v = sevenzip::parse_version(&data("7zip-16.02-riscv-40BJ.txt")).unwrap();
    assert_eq!(v.bits, Some(64));
    let v = sevenzip::parse_version(&data("7zip-16.02-32bit-1MFf.txt")).unwrap();
    assert_eq!(v.bits, Some(32));
}

#[test]
fn parses_26_02_single_thread_run() {
    let b = sevenzip::parse(&data("7zip-26.02-p7zip-b-mmt1.txt")).unwrap();
    assert_eq!(b.version.as_ref().unwrap().version, "26.02");
    assert_eq!(b.compiler.as_deref(), Some("ver:12.2.0 GCC 12.2.0 : SSE2"));
    assert!(b.cpu_freq.is_empty());
    assert_eq!(b.freq_lines.len(), 1);
    assert_eq!(b.freq_lines[0].threads, 1);
    let mhz: Vec<u64> = b.freq_lines[0].samples.iter().map(|s| s.mhz).collect();
    assert_eq!(mhz, [2634, 1776, 3191, 2798, 2893, 3178, 2645]);
    assert_eq!(b.estimated_mhz_1t(), Some(3191));
    assert_eq!(
        (b.ram_size_mb, b.hw_threads, b.ram_usage_mb, b.bench_threads),
        (Some(24105), Some(2), Some(437), Some(1))
    );
    let dicts: Vec<u32> = b.rows.iter().map(|r| r.dict_log2).collect();
    assert_eq!(dicts, [22, 23, 24, 25]);
    assert_eq!(b.rows[0].compress, r(Some(4702), 97, 4706, 4575));
    assert_eq!(b.rows[0].decompress, r(Some(48422), 98, 4199, 4134));
    assert_eq!(b.rows[3].compress, r(Some(3571), 100, 4079, 4078));
    assert_eq!(
        b.avr,
        Some((
            r(Some(3997), 99, 4230, 4181),
            r(Some(46703), 99, 4116, 4070)
        ))
    );
    assert_eq!(
        b.tot,
        Total {
            usage_pct: 99,
            ru_mips: 4173,
            rating_mips: 4126
        }
    );
}

#[test]
fn parses_26_02_multi_thread_run_with_usage_annotated_freq_lines() {
    let b = sevenzip::parse(&data("7zip-26.02-p7zip-b-mt2.txt")).unwrap();
    assert_eq!(b.bench_threads, Some(2));
    assert_eq!(b.freq_lines.len(), 3);
    assert_eq!(b.freq_lines[0].samples.len(), 7);
    assert_eq!(b.freq_lines[1].threads, 1);
    assert_eq!(b.freq_lines[1].samples[1].usage_pct, Some(100));
    assert_eq!(b.freq_lines[1].samples[1].mhz, 3202);
    assert_eq!(b.freq_lines[2].threads, 2);
    assert_eq!(b.freq_lines[2].samples[0].usage_pct, Some(185));
    assert_eq!(b.freq_lines[2].samples[0].mhz, 2957);
    // Only the plain 1T samples count for the clock estimate.
    assert_eq!(b.estimated_mhz_1t(), Some(3206));
    assert_eq!(
        b.avr,
        Some((
            r(Some(11179), 176, 6626, 11687),
            r(Some(94076), 196, 4188, 8199)
        ))
    );
    assert_eq!(b.tot.rating_mips, 9943);
    assert_eq!(b.tot.usage_pct, 186);
}

#[test]
fn parses_quick_runs_with_one_dictionary_row() {
    let b = sevenzip::parse(&data("7zip-26.02-p7zip-b1-mmt1-md18.txt")).unwrap();
    assert_eq!(b.rows.len(), 1);
    assert_eq!(b.rows[0].dict_log2, 18);
    assert_eq!(b.rows[0].compress, r(Some(8457), 100, 7521, 7535));
    assert_eq!(b.rows[0].decompress, r(Some(50790), 100, 4114, 4107));
    assert_eq!(b.ram_usage_mb, Some(6));
    assert_eq!(b.tot.rating_mips, 5821);

    let b = sevenzip::parse(&data("7zip-26.01-7zz-b1-mmt1-md18.txt")).unwrap();
    assert_eq!(b.version.as_ref().unwrap().version, "26.01");
    assert_eq!(
        b.tot,
        Total {
            usage_pct: 94,
            ru_mips: 4835,
            rating_mips: 4524
        }
    );
}

#[test]
fn parses_16_02_single_run_without_clock_estimates() {
    let b = sevenzip::parse(&data("7zip-16.02-4qpr-single.txt")).unwrap();
    assert_eq!(b.cpu_freq, vec![None; 9]);
    assert!(b.freq_lines.is_empty());
    assert_eq!(b.estimated_mhz_1t(), None);
    assert_eq!(b.compiler, None);
    assert_eq!(
        (b.ram_size_mb, b.hw_threads, b.ram_usage_mb, b.bench_threads),
        (Some(7657), Some(8), Some(435), Some(1))
    );
    assert_eq!(b.rows.len(), 4);
    assert_eq!(b.rows[0].compress, r(Some(4781), 100, 4653, 4651));
    assert_eq!(b.rows[0].decompress, r(Some(50721), 100, 4331, 4331));
    assert_eq!(
        b.avr,
        Some((r(None, 100, 4443, 4442), r(None, 100, 4354, 4353)))
    );
    assert_eq!(b.tot.rating_mips, 4398);
}

#[test]
fn three_16_02_runs_match_the_logs_own_lists() {
    // The log prints: Compression: 18237,12443,12465 / Decompression: 21766,20414,20364 /
    // Total: 20002,16428,16415 (sbc-bench's Avr fields 4 and 7 and Tot field 4).
    let runs = sevenzip::parse_all(&data("7zip-16.02-4qpr-multi-3runs.txt"));
    assert_eq!(runs.len(), 3);
    let tot: Vec<u64> = runs.iter().map(|b| b.tot.rating_mips).collect();
    let comp: Vec<u64> = runs.iter().map(|b| b.avr.unwrap().0.rating_mips).collect();
    let decomp: Vec<u64> = runs.iter().map(|b| b.avr.unwrap().1.rating_mips).collect();
    assert_eq!(tot, [20002, 16428, 16415]);
    assert_eq!(comp, [18237, 12443, 12465]);
    assert_eq!(decomp, [21766, 20414, 20364]);
    assert!(runs.iter().all(|b| b.bench_threads == Some(8)));
    assert!(
        runs.iter()
            .all(|b| b.version.as_ref().unwrap().version == "16.02")
    );
}

#[test]
fn parses_32bit_16_02_with_clock_values() {
    let b = sevenzip::parse(&data("7zip-16.02-32bit-1MFf.txt")).unwrap();
    assert_eq!(b.cpu_freq.len(), 9);
    assert_eq!(b.cpu_freq[0], Some(1465));
    assert_eq!(b.cpu_freq[8], Some(1486));
    assert_eq!(b.bench_threads, Some(4));
    assert_eq!(b.rows.len(), 4);
    assert_eq!(
        b.tot,
        Total {
            usage_pct: 99,
            ru_mips: 1615,
            rating_mips: 1606
        }
    );
}

#[test]
fn parses_riscv_16_02_with_bogus_clock_values() {
    let b = sevenzip::parse(&data("7zip-16.02-riscv-40BJ.txt")).unwrap();
    assert_eq!(b.cpu_freq[0], Some(32_000_000));
    assert_eq!(b.cpu_freq[8], Some(1_024_000_000));
    // The log's own lists: Compression: 305, Decompression: 591, Total: 448.
    let (c, d) = b.avr.unwrap();
    assert_eq!(
        (c.rating_mips, d.rating_mips, b.tot.rating_mips),
        (305, 591, 448)
    );
    assert_eq!(c, r(None, 93, 328, 305));
}

#[test]
fn parses_9_20_avr_line_without_separator() {
    let b = sevenzip::parse(&data("7zip-9.20-1ixi-single.txt")).unwrap();
    assert_eq!(b.rows.len(), 4);
    assert_eq!(b.rows[0].compress, r(Some(815), 99, 798, 793));
    assert_eq!(b.rows[0].decompress, r(Some(16123), 100, 1461, 1454));
    assert_eq!(
        b.avr,
        Some((r(None, 100, 818, 814), r(None, 100, 1447, 1441)))
    );
    assert_eq!(b.tot.rating_mips, 1128);
    assert_eq!(b.bench_threads, Some(4));

    let runs = sevenzip::parse_all(&data("7zip-9.20-1ixi-multi-3runs.txt"));
    let tot: Vec<u64> = runs.iter().map(|b| b.tot.rating_mips).collect();
    assert_eq!(tot, [4085, 4063, 4087]);
}

/// The fast profile's `-mtime=1` run prints the same rows as sbc-bench's invocation (7-Zip
/// echoes the option in its header line).
#[test]
fn parses_26_02_run_with_a_one_second_repetition() {
    let text = data("7zip-26.02-p7zip-b-mmt1-mtime1.txt");
    assert!(text.lines().any(|l| l.trim() == "mt=1 time=1"));
    let b = sevenzip::parse(&text).unwrap();
    let dicts: Vec<u32> = b.rows.iter().map(|r| r.dict_log2).collect();
    assert_eq!(dicts, [22, 23, 24, 25]);
    assert_eq!(b.tot.rating_mips, 3412);
    assert!(!sevenzip::rejects_time_option(&text));
    assert!(sevenzip::rejects_time_option(&data(
        "7zip-26.02-b-mtm-rejected.txt"
    )));
}

#[test]
fn a_run_without_tot_line_is_an_error() {
    // An OOM-killed run: everything up to the last dictionary row, no Avr/Tot.
    let text = data("7zip-16.02-4qpr-single.txt");
    let cut: String = text
        .lines()
        .take_while(|l| !l.starts_with("----"))
        .map(|l| format!("{l}\n"))
        .collect();
    let err = sevenzip::parse(&cut).unwrap_err();
    assert!(err.message.contains("Tot"), "{err}");
    assert!(sevenzip::parse_all(&cut).is_empty());
}

#[test]
fn measurements_use_the_documented_rows() {
    let b = sevenzip::parse(&data("7zip-26.02-p7zip-b-mmt1.txt")).unwrap();
    let v = b.version.as_ref().unwrap().label();
    let rows = b.measurements(&RunContext::pinned(&[1]).variant(&v));
    let names: Vec<&str> = rows.iter().map(|m| m.test.as_str()).collect();
    assert_eq!(
        names,
        [
            test_names::TOTAL_RATING,
            test_names::COMPRESS_RATING,
            test_names::DECOMPRESS_RATING,
            test_names::TOTAL_RATING_PER_USAGE
        ]
    );
    assert!(rows.iter().all(|m| m.suite == "7zip"
        && m.unit == "MIPS"
        && m.higher_is_better
        && m.threads == 1
        && m.cpus == [1]
        && m.variant.as_deref() == Some("7-Zip 26.02")));
    assert_eq!(rows[0].value, 4126.0);
    assert_eq!(rows[1].value, 4181.0);
    assert_eq!(rows[2].value, 4070.0);
    assert_eq!(rows[3].value, 4173.0);

    // Threads come from the output unless the caller says otherwise.
    let b = sevenzip::parse(&data("7zip-16.02-4qpr-multi-3runs.txt")).unwrap();
    assert_eq!(b.measurements(&RunContext::new())[0].threads, 8);
    assert_eq!(b.measurements(&RunContext::new().threads(4))[0].threads, 4);
}
