//! `boardbench memlat` end to end with tiny settings: JSON shape, cache sizes read through the
//! sysroot, text report, and clear refusals of nonsense input. No timed assertions.

use std::path::Path;
use std::process::Output;

use crate::common;
use common::boardbench_cmd;

/// Runs `boardbench memlat ARGS`; `None` when the binary cannot be started here.
fn memlat(args: &[&str], sysroot: Option<&Path>) -> Option<Output> {
    let mut c = boardbench_cmd()?;
    c.arg("memlat").args(args);
    if let Some(r) = sysroot {
        c.env("BOARDBENCH_SYSROOT", r);
    }
    Some(c.output().expect("run boardbench"))
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A sysroot advertising L1d 32K, L1i 32K, L2 512K, L3 32768K for every CPU the test may use.
fn cache_tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let allowed = boardbench_kernels_cpus();
    for cpu in allowed {
        for (i, (level, kind, size)) in [
            ("1", "Data", "32K"),
            ("1", "Instruction", "32K"),
            ("2", "Unified", "512K"),
            ("3", "Unified", "32768K"),
        ]
        .iter()
        .enumerate()
        {
            let d = dir
                .path()
                .join(format!("sys/devices/system/cpu/cpu{cpu}/cache/index{i}"));
            std::fs::create_dir_all(&d).unwrap();
            std::fs::write(d.join("level"), format!("{level}\n")).unwrap();
            std::fs::write(d.join("type"), format!("{kind}\n")).unwrap();
            std::fs::write(d.join("size"), format!("{size}\n")).unwrap();
        }
    }
    dir
}

/// CPUs this process may use (from /proc/self/status, to avoid a dependency in the test).
fn boardbench_kernels_cpus() -> Vec<u32> {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status
        .lines()
        .find(|l| l.starts_with("Cpus_allowed_list:"))
        .unwrap();
    let list = line.split(':').nth(1).unwrap().trim();
    let mut out = Vec::new();
    for part in list.split(',') {
        match part.split_once('-') {
            Some((a, b)) => out.extend(a.parse::<u32>().unwrap()..=b.parse().unwrap()),
            None => out.push(part.parse().unwrap()),
        }
    }
    out
}

#[test]
fn json_has_the_chain_table_random_tables_and_advertised_caches() {
    let root = cache_tree();
    let Some(o) = memlat(
        &["--max-size", "64K", "--cell-ms", "1", "--json"],
        Some(root.path()),
    ) else {
        return;
    };
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let chain = &v["chain"];
    assert_eq!(chain["chains"], serde_json::json!([1, 2, 4, 8]));
    let rows = chain["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 5); // 4K … 64K
    assert_eq!(rows[0]["size_bytes"], 4096);
    for r in rows {
        for x in r["ns_per_step"].as_array().unwrap() {
            let x = x.as_f64().unwrap();
            assert!(x.is_finite() && x > 0.0);
        }
    }
    let random = v["random"].as_array().unwrap();
    assert_eq!(random.len(), 2);
    assert_eq!(random[0]["rows"].as_array().unwrap().len(), 7); // 1K … 64K
    let adv = v["caches"]["advertised"].as_array().unwrap();
    assert_eq!(adv.len(), 4);
    assert_eq!(adv[3]["size_bytes"], 32u64 << 20);
    assert_eq!(adv[1]["kind"], "Instruction");
}

#[test]
fn text_report_without_random_tables() {
    let Some(o) = memlat(
        &["--max-size", "16K", "--cell-ms", "1", "--no-random"],
        None,
    ) else {
        return;
    };
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("1xPTR") && out.contains("8xPTR"), "{out}");
    assert!(out.contains("     16k:"), "{out}");
    assert!(!out.contains("Random read"), "{out}");
}

#[test]
fn nonsense_input_is_refused_with_a_clear_message() {
    for (args, needle) in [
        (&["--max-size", "0"][..], "must not be 0"),
        (&["--max-size", "3M"][..], "not a power of two"),
        (&["--max-size", "64Q"][..], "unknown unit"),
        (&["--max-size", "2K"][..], "below the minimum"),
        (&["--cell-ms", "0"][..], "--cell-ms 0"),
        (&["--cpu", "999"][..], "CPU 999 not online"),
    ] {
        let Some(o) = memlat(args, None) else {
            return;
        };
        // A CPU list naming a CPU this process may not use is a usage error, as every command's
        // (crates/boardbench/src/values.rs); the others are the measurement's own refusals.
        let want = if args[0] == "--cpu" { 64 } else { 1 };
        assert_eq!(o.status.code(), Some(want), "{args:?}");
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
    }
}
