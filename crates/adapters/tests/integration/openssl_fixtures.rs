//! The OpenSSL parser on recorded tables of 1.0.2g, 1.1.0f, 1.1.1n, 3.0.2, 3.0.19 and 3.5.5.

use crate::common;

use adapters::RunContext;
use adapters::openssl;
use common::data;

const SIX: [u32; 6] = [16, 64, 256, 1024, 8192, 16384];

#[test]
fn version_command_3_0_19() {
    let v = openssl::parse_version(&data("openssl-3.0.19-version.txt")).unwrap();
    assert_eq!(v.flavour, "OpenSSL");
    assert_eq!(v.version, "3.0.19");
    assert_eq!((v.major, v.minor), (3, 0));
    assert_eq!(v.label(), "OpenSSL 3.0.19");
    assert!(v.prints_16k_column());
    assert!(v.supports_seconds());
    assert_eq!(v.patch, 19);
}

#[test]
fn raw_speed_output_3_0_19_upper_case_rows() {
    let s = openssl::parse(&data("openssl-3.0.19-speed-aes-256-cbc-1s.txt")).unwrap();
    // OpenSSL 3 prints "version: 3.0.19" at the top of `speed`.
    assert_eq!(s.version.as_ref().unwrap().version, "3.0.19");
    assert_eq!(s.block_sizes, SIX);
    assert_eq!(s.rows.len(), 1, "the 'Doing …' progress lines are not rows");
    assert_eq!(s.rows[0].algorithm, "aes-256-cbc");
    assert_eq!(
        s.rows[0].kb_per_s,
        [
            746978.30, 832956.22, 858790.40, 863688.70, 844595.20, 787480.58
        ]
    );
    assert_eq!(s.sbc_bench_score("aes-256-cbc"), Some(787480.58));
    assert_eq!(s.sbc_bench_score("AES-256-CBC"), Some(787480.58));

    let s = openssl::parse(&data("openssl-3.0.19-speed-aes-128-cbc.txt")).unwrap();
    assert_eq!(s.value("aes-128-cbc", 16), Some(876458.27));
    assert_eq!(s.sbc_bench_score("aes-128-cbc"), Some(1144897.54));
    assert_eq!(s.sbc_bench_score("aes-256-cbc"), None);
}

#[test]
fn openssl_1_0_2_has_no_16k_column() {
    let text = data("openssl-1.0.2g-1ixi.txt");
    let s = openssl::parse(&text).unwrap();
    let v = s.version.as_ref().unwrap();
    assert_eq!(v.version, "1.0.2g");
    assert!(!v.prints_16k_column());
    assert!(!v.supports_seconds());
    assert_eq!(s.block_sizes, [16, 64, 256, 1024, 8192]);
    assert_eq!(s.rows.len(), 6);
    assert_eq!(s.sbc_bench_score("aes-256-cbc"), None);
    assert_eq!(s.values("aes-256-cbc", 8192), [48545.79, 48496.64]);
    assert_eq!(s.values("aes-128-cbc", 16), [49674.25, 51758.24]);
}

#[test]
fn openssl_1_1_tables() {
    let s = openssl::parse(&data("openssl-1.1.0f-1jEr.txt")).unwrap();
    assert_eq!(s.version.as_ref().unwrap().version, "1.1.0f");
    assert!(!s.version.as_ref().unwrap().supports_seconds());
    assert_eq!(s.block_sizes, SIX);
    assert_eq!(s.values("aes-256-cbc", 16384), [837435.39, 836359.51]);
    assert_eq!(s.values("aes-192-cbc", 64), [350560.64, 349719.00]);

    let s = openssl::parse(&data("openssl-1.1.1n-3TQ2.txt")).unwrap();
    assert_eq!(s.version.as_ref().unwrap().version, "1.1.1n");
    assert!(s.version.as_ref().unwrap().supports_seconds());
    assert_eq!(s.values("aes-256-cbc", 16384), [981942.27, 981942.27]);
    assert_eq!(s.rows.len(), 6);
}

#[test]
fn openssl_3_tables_with_gcm_and_core_type_notes() {
    let s = openssl::parse(&data("openssl-3.0.2-4qpr.txt")).unwrap();
    assert_eq!(s.version.as_ref().unwrap().version, "3.0.2");
    assert_eq!(s.rows.len(), 7);
    assert_eq!(s.values("aes-256-cbc", 16384), [1377348.27, 1377211.73]);
    assert_eq!(s.sbc_bench_score("aes-256-gcm"), Some(5335607.98));

    let s = openssl::parse(&data("openssl-3.5.5-Xd38a.txt")).unwrap();
    assert_eq!(s.version.as_ref().unwrap().version, "3.5.5");
    assert_eq!(s.values("aes-256-cbc", 16384), [980691.63, 1305477.12]);
    let notes: Vec<Option<&str>> = s
        .rows
        .iter()
        .filter(|r| r.algorithm == "aes-256-cbc")
        .map(|r| r.note.as_deref())
        .collect();
    assert_eq!(notes, [Some("(Cortex-A53)"), Some("(Cortex-A72)")]);
}

#[test]
fn measurements_name_algorithm_and_block_size() {
    let s = openssl::parse(&data("openssl-3.0.19-speed-aes-256-cbc-1s.txt")).unwrap();
    let rows = s.measurements(&RunContext::pinned(&[0]).variant("OpenSSL 3.0.19"));
    assert_eq!(rows.len(), 6);
    let last = rows.last().unwrap();
    assert_eq!(last.suite, "openssl");
    assert_eq!(last.test, "aes-256-cbc 16384 bytes");
    assert_eq!(last.unit, "kB/s");
    assert_eq!(last.value, 787480.58);
    assert_eq!(last.threads, 1);
    assert_eq!(last.cpus, [0]);
    assert_eq!(
        openssl::test_name("aes-128-cbc", 16),
        "aes-128-cbc 16 bytes"
    );
}

#[test]
fn text_without_table_is_an_error() {
    assert!(openssl::parse(&data("openssl-3.0.19-version.txt")).is_err());
    assert!(openssl::parse("type 16 bytes 64 bytes\n").is_err());
    assert!(openssl::parse_version("no version here").is_err());
}

// ---- machine-readable (`-mr`) output, as the performance guide runs `openssl speed` ----

#[test]
fn mr_single_3_0_19_is_bytes_per_second() {
    let s = openssl::parse_mr(&data("openssl-3.0.19-mr-aes-128-gcm-1s.txt")).unwrap();
    assert_eq!(s.block_sizes, SIX);
    assert_eq!(s.rows.len(), 1, "+DT/+R progress lines are not rows");
    assert_eq!(s.rows[0].algorithm, "aes-128-gcm");
    // +F values are bytes/s; the table's unit is 1000s of bytes/s.
    assert_eq!(s.value("aes-128-gcm", 16), Some(40589.92));
    assert_eq!(s.value("AES-128-GCM", 16384), Some(2883780.608));
}

#[test]
fn mr_multi_3_0_19_takes_the_parents_sum() {
    let text = data("openssl-3.0.19-mr-multi2-sha256-1s.txt");
    let s = openssl::parse_mr(&text).unwrap();
    assert_eq!(s.block_sizes, SIX, "header from the children's relayed +H");
    assert_eq!(s.rows.len(), 1, "children's 'Got: +F' lines are skipped");
    assert_eq!(s.value("sha256", 16), Some(81129.2));
    // The parent's row is the sum of the two children's.
    let child = |i: &str, col: usize| -> f64 {
        let l = text
            .lines()
            .find(|l| l.starts_with("Got: +F") && l.ends_with(&format!("from {i}")))
            .unwrap();
        let v = l
            .split(" from ")
            .next()
            .unwrap()
            .split(':')
            .collect::<Vec<_>>();
        v[4 + col].parse::<f64>().unwrap() / 1000.0
    };
    for (col, size) in SIX.iter().enumerate() {
        let sum = child("0", col) + child("1", col);
        assert!((s.value("sha256", *size).unwrap() - sum).abs() < 0.01);
    }
}

#[test]
fn mr_multi_1_1_1_format() {
    let s = openssl::parse_mr(&data("openssl-1.1.1-format-mr-multi2-aes-128-cbc.txt")).unwrap();
    assert_eq!(s.block_sizes, SIX);
    assert_eq!(s.rows.len(), 1);
    assert_eq!(s.value("aes-128-cbc", 16), Some(360000.0));
    assert_eq!(s.value("aes-128-cbc", 16384), Some(502000.0));
}

#[test]
fn human_1_1_1_format_and_3_0_19_long_names() {
    let s = openssl::parse(&data("openssl-1.1.1-format-human-sha512.txt")).unwrap();
    assert_eq!(s.version.as_ref().unwrap().version, "1.1.1w");
    assert_eq!(s.value("sha512", 256), Some(385972.22));
    let s = openssl::parse(&data("openssl-3.0.19-chacha20-poly1305-1s.txt")).unwrap();
    assert_eq!(s.rows[0].algorithm, "chacha20-poly1305");
    assert_eq!(s.rows[0].kb_per_s.len(), 6);
}

#[test]
fn mr_rejects_garbage() {
    assert!(openssl::parse_mr("").is_err());
    assert!(openssl::parse_mr("+H:16:64\n").is_err());
    assert!(
        openssl::parse_mr("+H:16:64\n+F:1:x:1.0\n").is_err(),
        "short row"
    );
    assert!(openssl::parse_mr("+H:16\n+F:1:x:abc\n").is_err());
    assert!(openssl::parse_mr("+H:16\n+F:1:x:inf\n").is_err());
    let s = openssl::parse_mr("+H:16\n+F:1:md5:2000.00\n+F2:0:rsa:512:0.1:0.01\n").unwrap();
    assert_eq!(s.value("md5", 16), Some(2.0));
}
