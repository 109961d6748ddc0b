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

/// Compiles `source` with the host's gcc (no builtins, so `memcpy` stays a call) into `dir`.
fn gcc(dir: &Path, name: &str, source: &str, extra: &[&str]) -> String {
    let c = dir.join(format!("{name}.c"));
    std::fs::write(&c, source).unwrap();
    let bin = dir.join(name);
    let o = Command::new("gcc")
        .args(["-O0", "-fno-builtin"])
        .args(extra)
        .arg("-o")
        .arg(&bin)
        .arg(&c)
        .output()
        .expect("gcc runs (scripts/test installs it)");
    assert!(
        o.status.success(),
        "gcc {name}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    bin.to_string_lossy().into_owned()
}

/// The headline `libc memcpy`/`libc memset` figures are the board's C library's only if the
/// binary takes memcpy and memset from libc.so.6: a binary that defines one itself (as the armv7
/// zig build did, from zig's compiler-rt) measures its own, and its definition also wins over
/// libc's for every caller. Fixtures made here by the host's gcc: one binary imports memcpy and
/// memset (passes), one defines and exports memcpy, as the linker does when a shared library
/// defines the same name (fails, naming it).
#[test]
fn a_binary_must_take_memcpy_and_memset_from_libc() {
    if testsupport::host_only() {
        eprintln!("skipped under emulation: the fixtures are built by the host's gcc");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let imports = gcc(
        dir.path(),
        "imports",
        "#include <stdio.h>\n#include <string.h>\n\
         int main(int argc, char **argv) {\n\
           char buf[64]; size_t n = strlen(argv[0]) % 60;\n\
           memcpy(buf, argv[0], n); memset(buf + n, 0, 1); puts(buf); return argc > 9;\n\
         }\n",
        &[],
    );
    let defines = gcc(
        dir.path(),
        "defines",
        "#include <stddef.h>\n#include <stdio.h>\n\
         void *memcpy(void *d, const void *s, size_t n) {\n\
           char *a = d; const char *b = s; while (n--) *a++ = *b++; return d;\n\
         }\n\
         int main(int argc, char **argv) {\n\
           char buf[2]; memcpy(buf, argv[0], 1); buf[1] = 0; puts(buf); return argc > 9;\n\
         }\n",
        &["-rdynamic"],
    );
    let dynsyms = |bin: &str| {
        let o = Command::new("readelf")
            .args(["-W", "--dyn-syms", bin])
            .output()
            .unwrap();
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    // The fixtures are what they claim: memcpy imported (UND) in one, defined in the other.
    assert!(
        dynsyms(&imports)
            .lines()
            .any(|l| l.contains(" UND ") && l.contains(" memcpy@")),
        "{}",
        dynsyms(&imports)
    );
    assert!(
        dynsyms(&defines)
            .lines()
            .any(|l| !l.contains(" UND ") && l.trim_end().ends_with(" memcpy")),
        "{}",
        dynsyms(&defines)
    );

    // Any glibc version: these are linked against the host's (the floor is tested above).
    let floor = "2.99";
    let (code, out) = check(&[floor, &imports]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains(": ok, newest GLIBC_"), "{out}");
    let (code, out) = check(&[floor, &defines]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("FAIL: defines memcpy itself"), "{out}");
    // One such binary among good ones fails the whole check.
    let (code, out) = check(&[floor, &imports, &defines]);
    assert_eq!(code, Some(1), "{out}");
}
