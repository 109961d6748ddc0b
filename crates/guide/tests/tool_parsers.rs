//! The CoreMark, CoreMark-Pro and NBench parsers on sample outputs of several versions
//! (tests/data, written from the published formats: see tests/data/README.md).

use std::path::PathBuf;

use guide::{coremark, coremark_pro, nbench};

fn data(name: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn coremark_single_context() {
    let r = coremark::parse(&data("coremark-1.01-linux64.txt")).unwrap();
    assert_eq!(r.iterations_per_sec, 20219.720968);
    assert_eq!(r.iterations, Some(300000));
    assert_eq!(r.total_time_s, Some(14.837));
    assert_eq!(r.threads, 1);
    assert!(r.validated && r.errors.is_empty());
    assert_eq!(r.compiler.as_deref(), Some("GCC12.2.0"));
    assert_eq!(r.run_kind.as_deref(), Some("2K performance run"));
    assert!(
        r.summary
            .unwrap()
            .starts_with("CoreMark 1.0 : 20219.720968")
    );
}

#[test]
fn coremark_pthreads_build() {
    let r = coremark::parse(&data("coremark-1.01-pthreads4.txt")).unwrap();
    assert_eq!(r.threads, 4);
    assert_eq!(r.iterations_per_sec, 26417.898126);
    assert!(r.flags.unwrap().contains("-DMULTITHREAD=4"));
    assert!(r.validated);
}

#[test]
fn coremark_too_short_run_is_not_validated() {
    let r = coremark::parse(&data("coremark-1.0-too-short.txt")).unwrap();
    assert!(!r.validated);
    assert_eq!(r.errors.len(), 2);
    assert!(coremark::parse("hello\n").is_err());
    assert!(coremark::parse("Iterations/Sec   : nan\n").is_err());
}

#[test]
fn nbench_2_2_3_all_tests_and_indexes() {
    let r = nbench::parse(&data("nbench-byte-2.2.3.txt")).unwrap();
    assert_eq!(r.tests.len(), 10);
    assert_eq!(r.tests[2], ("bitfield".to_string(), 3.3803e8));
    assert!(r.indexes.contains(&("MEMORY INDEX".to_string(), 12.655)));
    let t = nbench::table(&r);
    assert_eq!(t.title, "NBench Benchmarks");
    let keys: Vec<&str> = t.rows.iter().map(|r| r.key.as_str()).collect();
    assert_eq!(keys[0], "assignment (Iterations)");
    assert!(keys.contains(&"lu_decomposition (Iterations)"));
    assert!(keys.contains(&"neural_net (Iterations)"));
    assert_eq!(t.rows[0].cells[0].as_ref().unwrap().value, 25.835);
}

#[test]
fn nbench_2_2_2_stopped_at_neural_net() {
    let r = nbench::parse(&data("nbench-byte-2.2.2-nnet-missing.txt")).unwrap();
    assert_eq!(r.tests.len(), 8);
    assert!(!r.tests.iter().any(|(n, _)| n == "neural_net"));
    assert!(nbench::parse("nothing").is_err());
}

#[test]
fn coremark_pro_tables() {
    let r = coremark_pro::parse(&data("coremark-pro-1.1.2743-linux64.txt")).unwrap();
    assert_eq!(r.workloads.len(), 9);
    let m = r.mark.as_ref().unwrap();
    assert_eq!(
        (m.multi, m.single, m.scaling),
        (Some(19183.84), Some(4850.24), Some(3.96))
    );
    let t = coremark_pro::table(&r, false, "CoreMarkPro Benchmarks");
    assert_eq!(t.rows.len(), 10);
    assert_eq!(t.rows[0].key, "cjpeg-rose7-preset (workloads/)");
    assert_eq!(t.rows[9].key, "coremark-pro ()");
    assert_eq!(t.rows[9].cells[0].as_ref().unwrap().value, 19183.84);
    let s = coremark_pro::table(&r, true, "x");
    assert_eq!(s.rows[1].key, "core (workloads/)");
    assert_eq!(s.rows[1].cells[0].as_ref().unwrap().value, 1.22);
    assert!(coremark_pro::parse("no tables").is_err());
}
