//! `scripts/check-glibc`, the check scripts/dist runs on every release binary (no GLIBC_ version
//! above the floor, dynamically linked against glibc), on tiny fixture binaries
//! (tests/data/glibc/README.md): no release build needed, milliseconds.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/glibc")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// Exit code and stdout+stderr of `scripts/check-glibc ARGS`.
fn check(args: &[&str]) -> (Option<i32>, String) {
    let o = Command::new(repo().join("scripts/check-glibc"))
        .args(args)
        .output()
        .expect("scripts/check-glibc runs (bash, readelf)");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    (o.status.code(), text)
}

#[test]
fn a_binary_built_against_the_floor_passes() {
    let (code, out) = check(&[
        "2.17",
        &fixture("hello-x86_64-glibc2.17"),
        &fixture("hello-aarch64-glibc2.17"),
    ]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("newest GLIBC_2.2.5 (floor 2.17)"), "{out}");
    assert!(out.contains("newest GLIBC_2.17 (floor 2.17)"), "{out}");
}

#[test]
fn a_newer_symbol_fails_and_is_named() {
    let (code, out) = check(&["2.17", &fixture("hello-x86_64-glibc2.36")]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("needs GLIBC_2.34"), "{out}");
    assert!(out.contains("__libc_start_main@GLIBC_2.34"), "{out}");
    // The same binary is fine for a floor at or above what it needs.
    let (code, out) = check(&["2.34", &fixture("hello-x86_64-glibc2.36")]);
    assert_eq!(code, Some(0), "{out}");
    // One bad binary among good ones fails the whole check.
    let (code, out) = check(&[
        "2.27",
        &fixture("hello-x86_64-glibc2.17"),
        &fixture("hello-x86_64-glibc2.36"),
    ]);
    assert_eq!(code, Some(1), "{out}");
}

#[test]
fn a_static_binary_or_no_elf_fails() {
    let (code, out) = check(&["2.17", &fixture("hello-x86_64-musl-static")]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("not dynamically linked"), "{out}");
    let (code, out) = check(&["2.17", &fixture("hello.c")]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("not an ELF file"), "{out}");
    let (code, _) = check(&["latest", &fixture("hello-x86_64-glibc2.17")]);
    assert_eq!(code, Some(64));
}
