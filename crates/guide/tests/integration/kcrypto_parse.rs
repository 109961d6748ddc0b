//! Kernel crypto: /proc/crypto parsing and the driver classification on recorded files, the
//! section over a fixture tree, and AF_ALG beside OpenSSL on the live kernel (skipped under
//! emulation, where AF_ALG calls go through qemu's syscall translation).

use crate::common;

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use guide::kcrypto::{
    CryptoAlg, Implementation, af_alg_throughput, classify, drivers_of, parse_openssl_mr,
    parse_proc_crypto,
};

#[test]
fn drivers_of_a_board_with_a_crypto_engine() {
    let algs = parse_proc_crypto(&common::data("proc-crypto-h6.txt"));
    assert_eq!(algs.len(), 7);
    let by = drivers_of(&algs);
    let (name, cbc) = &by.iter().find(|(n, _)| n == "cbc(aes)").unwrap();
    assert_eq!(name, "cbc(aes)");
    let names: Vec<&str> = cbc.iter().map(|d| d.driver.as_str()).collect();
    // Highest priority first; the internal helper is left out.
    assert_eq!(
        names,
        ["cbc-aes-sun8i-ce", "cbc-aes-ce", "cbc(aes-generic)"]
    );
    let kinds: Vec<Implementation> = cbc.iter().map(classify).collect();
    assert_eq!(
        kinds,
        [
            Implementation::Hardware,
            Implementation::CpuInstructions,
            Implementation::Generic
        ]
    );
    assert_eq!(cbc[0].priority, 400);
    assert_eq!(cbc[0].is_async, Some(true));
    let sha: Vec<_> = by
        .iter()
        .find(|(n, _)| n == "sha256")
        .unwrap()
        .1
        .iter()
        .map(classify)
        .collect();
    assert_eq!(
        sha,
        [Implementation::CpuInstructions, Implementation::Generic]
    );
}

#[test]
fn x86_proc_crypto_parses_and_has_no_engine() {
    let algs = parse_proc_crypto(&common::data("proc-crypto-x86.txt"));
    assert!(algs.len() > 20);
    assert!(
        algs.iter()
            .all(|a| !a.name.is_empty() && !a.driver.is_empty())
    );
    for (_, ds) in drivers_of(&algs) {
        for d in ds {
            assert_ne!(classify(&d), Implementation::Hardware, "{}", d.driver);
        }
    }
}

#[test]
fn section_over_a_fixture_tree_lists_drivers_only() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("proc")).unwrap();
    std::fs::write(
        dir.path().join("proc/crypto"),
        common::data("proc-crypto-h6.txt"),
    )
    .unwrap();
    let ctx = common::ctx(probe::Root::new(dir.path()), dir.path());
    let out = (guide::registry::find("kcrypto").unwrap().run)(&ctx);
    assert!(out.skipped.is_none());
    assert_eq!(out.tables.len(), 1, "no throughput from a fixture tree");
    let t = &out.tables[0];
    assert_eq!(t.title, "Kernel Crypto Drivers");
    assert_eq!(t.rows[0].key, "aes: aes-ce (CPU instructions)");
    let sel = t
        .rows
        .iter()
        .find(|r| r.key == "cbc(aes): cbc-aes-sun8i-ce (hardware engine)")
        .unwrap();
    assert_eq!(sel.cells[0].as_ref().unwrap().value, 400.0);
    assert_eq!(sel.cells[1].as_ref().unwrap().value, 1.0);
    assert!(out.notes.iter().any(|n| n.contains("cbc-aes-sun8i-ce")));

    let empty = tempfile::tempdir().unwrap();
    let ctx = common::ctx(probe::Root::new(empty.path()), empty.path());
    assert!(guide::kcrypto::section(&ctx).skipped.is_some());
}

#[test]
fn openssl_machine_readable_line() {
    assert_eq!(
        parse_openssl_mr("+H:16384\n+F:25:AES-128-CBC:1427046400.00\n"),
        Some(1427046400.0)
    );
    assert_eq!(parse_openssl_mr("nothing"), None);
}

#[test]
fn af_alg_encrypts_on_the_live_kernel() {
    if common::host_only() {
        eprintln!("skipped: emulated");
        return;
    }
    let never = AtomicBool::new(false);
    match af_alg_throughput("cbc(aes)", 16, 4096, Duration::from_millis(200), &never) {
        Ok(bps) => {
            eprintln!("AF_ALG cbc(aes) 4k: {:.0} MB/s", bps / 1e6);
            assert!(bps > 0.0)
        }
        // A kernel without CONFIG_CRYPTO_USER_API_SKCIPHER: the error says which call failed.
        Err(e) => {
            eprintln!("AF_ALG unavailable: {e}");
            assert!(e.contains("AF_ALG"), "{e}")
        }
    }
    assert!(
        af_alg_throughput("no-such(alg)", 16, 4096, Duration::from_millis(50), &never).is_err()
    );
}

/// Driver names of Debian's 6.1 kernel under QEMU (scripts/guide-vm): the instruction set in
/// the name wins over "generic" (`generic-gcm-aesni` is GCM on AES-NI), numbered families
/// (`avx2`, `sse4`) count.
#[test]
fn x86_driver_names_of_a_real_kernel_are_classified_by_their_instruction_set() {
    let of = |driver: &str, is_async| {
        classify(&CryptoAlg {
            driver: driver.into(),
            is_async: Some(is_async),
            ..Default::default()
        })
    };
    for d in [
        "generic-gcm-aesni",
        "sha256-avx2",
        "sha256-avx",
        "sha256-ssse3",
        "cbc-aes-aesni",
        "rfc4106-gcm-aesni",
        "crc32c-intel",
        "ghash-clmulni",
        "des3_ede-asm",
        "sha256-ni",
    ] {
        assert_eq!(of(d, true), Implementation::CpuInstructions, "{d}");
    }
    for d in ["aes-generic", "cbc(aes-generic)", "sha1-generic", "aes-lib"] {
        assert_eq!(of(d, false), Implementation::Generic, "{d}");
    }
    assert_eq!(of("cbc-aes-sun8i-ce", true), Implementation::Hardware);
    assert_eq!(of("cbc-aes-ce", false), Implementation::CpuInstructions);
}
