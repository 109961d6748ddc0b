//! `boardbench membw` end to end with tiny settings: JSON shape, text report, and clear
//! refusals of nonsense input. No timed assertions.

use std::process::Output;

use crate::common;
use common::boardbench_cmd;

/// Runs `boardbench membw ARGS`; `None` when the binary cannot be started here.
fn membw(args: &[&str]) -> Option<Output> {
    let mut c = boardbench_cmd()?;
    Some(c.arg("membw").args(args).output().expect("run boardbench"))
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn json_has_the_headline_figures_and_the_aggregate() {
    let Some(o) = membw(&[
        "--size",
        "64K",
        "--samples",
        "2",
        "--variant",
        "libc memcpy copy,libc memset fill",
        "--variant",
        "scalar read (64-bit)",
        "--json",
    ]) else {
        return;
    };
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["mode"], "quick");
    assert_eq!(v["buffer_bytes"], 65536);
    let names: Vec<&str> = v["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "libc memcpy copy",
            "libc memset fill",
            "scalar read (64-bit)"
        ]
    );
    for t in v["tests"].as_array().unwrap() {
        let best = t["best_mb_s"].as_f64().unwrap();
        assert!(best.is_finite() && best > 0.0);
        assert!(t["samples_mb_s"].as_array().unwrap().len() <= 2);
    }
    assert_eq!(v["tests"][0]["headline"], true);
    assert_eq!(v["best_copy"], "libc memcpy copy");
    assert_eq!(v["best_read"], "scalar read (64-bit)");
    // memcpy, memset and the best read on every allowed CPU.
    assert_eq!(v["aggregate"].as_array().unwrap().len(), 3);
}

#[test]
fn text_report_names_the_best_variants() {
    let Some(o) = membw(&[
        "--size",
        "64K",
        "--samples",
        "1",
        "--no-aggregate",
        "--variant",
        "libc memcpy copy,scalar copy (64-bit)",
    ]) else {
        return;
    };
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("libc memcpy copy"), "{out}");
    assert!(out.contains("MB/s"), "{out}");
    assert!(out.contains("Best copy: "), "{out}");
    assert!(!out.contains("All cores"), "{out}");
}

#[test]
fn list_shows_the_variants_of_this_cpu() {
    let Some(o) = membw(&["--list"]) else {
        return;
    };
    assert!(o.status.success());
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("copy  libc memcpy copy") && out.contains("fill  libc memset fill"));
}

#[test]
fn nonsense_input_is_refused_with_a_clear_message() {
    for (args, needle) in [
        (&["--samples", "0"][..], "at least one sample"),
        (&["--size", "32X"][..], "unknown unit"),
        (&["--size", "100"][..], "too small"),
        (&["--cpu", "999"][..], "CPU 999 not online"),
        (&["--aggregate-cpus", "0,999"][..], "CPU 999 not online"),
        (&["--variant", "warp copy"][..], "unknown membw variant"),
    ] {
        let Some(o) = membw(args) else {
            return;
        };
        // Every value the user typed wrong is a usage error (issue 47).
        assert_eq!(o.status.code(), Some(64), "{args:?}");
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
    }
}
