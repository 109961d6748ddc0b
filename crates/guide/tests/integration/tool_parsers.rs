//! The CoreMark, CoreMark-Pro, MultiBench and NBench parsers on sample outputs of several versions
//! (tests/data, written from the published formats: see tests/data/README.md).

use std::path::PathBuf;

use crate::common;

use guide::{coremark, coremark_pro, multibench, nbench};

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

/// The results log of `make certify-all` (EEMBC's scripts' formats: results_parser.pl's
/// lines, cert_median.pl's median lines), written for the test.
const CERTIFY_LOG: &str = "multibench-certify-linux64.gcc64.log";

#[test]
fn multibench_certification_log_single_and_best_runs() {
    let r = multibench::parse(&data(CERTIFY_LOG)).unwrap();
    // The harness prints no version; a wrapper may.
    assert_eq!(r.version, None);
    let t = multibench::tables(&r);
    assert_eq!(t.len(), 2, "the single run and the best-concurrency run");
    assert_eq!(t[0].title, "Multibench Benchmarks");
    assert_eq!(t[0].key_header, "Benchmarks");
    assert_eq!(t[0].columns, ["perf"]);
    // The seed's 27 rows and the harness's empty-wld (other editions of the guide print it),
    // lower case, sorted, in its unit.
    assert_eq!(t[0].rows.len(), 28);
    assert_eq!(t[0].rows[0].key, "4m-check (workloads/)");
    assert_eq!(t[0].rows[27].key, "x264-4mqw1 (workloads/)");
    assert!(t[0].rows.iter().any(|r| r.key == "idct-4m (workloads/)"));
    let cell = |t: &document::guide::GuideTable, key: &str| {
        t.rows
            .iter()
            .find(|r| r.key == key)
            .unwrap_or_else(|| panic!("{key}"))
            .cells[0]
            .clone()
    };
    // EEMBC's median line ("median single"), not the verification run's one iteration nor
    // a performance line.
    assert_eq!(cell(&t[0], "md5-4m (workloads/)").unwrap().value, 109.17);
    // Failed its verification run (Fails 1 there; the performance lines always print 0): no
    // figure, though its performance lines and median look fine.
    assert_eq!(cell(&t[0], "ipres-4mw1 (workloads/)"), None);
    let notes = multibench::check(&r).unwrap();
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("ipres-4Mw1 (Multibench Benchmarks): its verification run")),
        "{notes:?}"
    );
    // The best-concurrency run (4 contexts): its median lines ("median best").
    assert_eq!(t[1].title, "Multibench Benchmarks (4 contexts)");
    assert_eq!(t[1].rows.len(), 3);
    assert_eq!(cell(&t[1], "md5-4m (workloads/)").unwrap().value, 408.16);
    // One of its performance runs printed nothing, so EEMBC's script wrote no median line but
    // "Could not find 3 valid results": the median of the two lines there are, said in a note.
    let x = cell(&t[1], "x264-4mq (workloads/)").unwrap();
    assert!((x.value - (30.84 + 30.01) / 2.0).abs() < 1e-9, "{x:?}");
    assert!(
        notes
            .iter()
            .any(|n| n.contains("Could not find 3 valid results for x264-4Mq")),
        "{notes:?}"
    );
}

#[test]
fn multibench_mark_tables_when_no_result_lines_were_printed() {
    // What `make certify-all` prints at its end: cert_mark.pl's tables and its errors.
    let r = multibench::parse(&data("multibench-certify-marks.txt")).unwrap();
    assert!(r.from_mark_table);
    let t = multibench::tables(&r);
    assert_eq!(t.len(), 2);
    assert_eq!(t[0].title, "Multibench Benchmarks");
    assert_eq!(t[1].title, "Multibench Benchmarks (MultiCore)");
    // The script leaves empty-wld out of its table.
    assert_eq!(t[0].rows.len(), 27);
    let md5 = t[0]
        .rows
        .iter()
        .find(|r| r.key == "md5-4m (workloads/)")
        .unwrap();
    assert_eq!(md5.cells[0].as_ref().unwrap().value, 109.17);
    // "ERROR: Errors encountered in test ipres-4Mw1, single run": no figure in either table.
    for table in &t {
        let ipres = table
            .rows
            .iter()
            .find(|r| r.key == "ipres-4mw1 (workloads/)")
            .unwrap();
        assert_eq!(ipres.cells[0], None, "{}", table.title);
    }
    let notes = multibench::check(&r).unwrap();
    assert!(notes.iter().any(|n| n.contains("mark script")), "{notes:?}");
}

#[test]
fn multibench_refuses_what_is_not_a_performance_run() {
    assert!(multibench::parse("make: *** No rule to make target 'run'.  Stop.\n").is_err());
    // `make run-all` without XCMD=-v0: the harness verified (one iteration each).
    let header = "#UID            Suite Name                                     Ctx Wrk Fails       t(s)       Iter     Iter/s  Codesize   Datasize\n";
    let line = "2012406           MLT md5-4M                                     1   1     0      0.013          1      77.98    115998    2177770\t\t\n";
    let run_all = format!("{header}#Results for run started at 26331:04:00:01 XCMD=-c1\n{line}");
    let r = multibench::parse(&run_all).unwrap();
    assert!(multibench::check(&r).unwrap_err().contains("-v0"));
    // With -v0 the same lines are a performance run.
    let run_all =
        format!("{header}#Results for run started at 26331:04:00:01 XCMD=-v0 -c1\n{line}");
    let r = multibench::parse(&run_all).unwrap();
    assert!(multibench::check(&r).unwrap().is_empty());
    assert_eq!(
        multibench::tables(&r)[0].rows[0].cells[0]
            .as_ref()
            .unwrap()
            .value,
        77.98
    );
    // A run log the harness could not read: a UID 0 line named by the log's path, Fails 1.
    let invalid = format!(
        "{header}#Results for performance runs started at 26331:04:00:01 XCMD=\n\
         0\tMLT\t/opt/mb/builds/linux64/gcc64/logs/md5-4M.run.log\t0\t0\t1\t0\t0\t0\t?\t?\t\t\n"
    );
    let r = multibench::parse(&invalid).unwrap();
    let t = multibench::tables(&r);
    assert_eq!(t[0].rows[0].key, "md5-4m (workloads/)");
    assert_eq!(t[0].rows[0].cells[0], None);
    assert!(
        multibench::check(&r).unwrap()[0].contains("could not read"),
        "{:?}",
        multibench::check(&r)
    );
    // A time of 0: Iter/s printed as Inf — no figure.
    let inf = format!(
        "{header}#Results for performance runs started at 26331:04:00:01 XCMD=\n\
         2012406           MLT md5-4M                                     1   1     0      0.000        100        Inf    115998    2177770\t\t\n"
    );
    let r = multibench::parse(&inf).unwrap();
    assert_eq!(multibench::tables(&r)[0].rows[0].cells[0], None);
    // Columns are taken from the #UID header, wherever Iter/s is.
    let reordered = "#UID Suite Name Iter/s Ctx Wrk Fails\n\
        #Results for performance runs started at 26331:04:01:10 XCMD=\n\
        236300289 MLT md5-4M 248.5 1 1 0\n";
    let r = multibench::parse(reordered).unwrap();
    assert_eq!(
        multibench::tables(&r)[0].rows[0].cells[0]
            .as_ref()
            .unwrap()
            .value,
        248.5
    );
}

#[test]
fn multibench_found_by_the_users_path_then_on_path_and_run() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let sp = adapters::SearchPath::new(dir.path().as_os_str());
    // Nothing installed, nothing given: skipped, with the way to give it.
    let why = multibench::locate(None, &sp).unwrap_err();
    assert!(
        why.contains("multibench") && why.contains(multibench::ENV),
        "{why}"
    );
    // A given path that is not a program.
    let not = dir.path().join("missing");
    let why = multibench::locate(Some(not.as_os_str()), &sp).unwrap_err();
    assert!(why.contains("not an executable file"), "{why}");
    // A wrapper printing the recorded output, given by path and found on PATH.
    let out = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(CERTIFY_LOG);
    let script = dir.path().join("multibench");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\necho 'EEMBC MultiBench 1.0.10, gcc 12.2 -O3'\ncat '{}'\n",
            out.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(
        multibench::locate(Some(script.as_os_str()), &sp)
            .unwrap()
            .path,
        script
    );
    let tool = multibench::locate(None, &sp).unwrap();
    assert_eq!(tool.name, "multibench");
    let ctx = common::ctx(probe::Root::host(), dir.path());
    let o = multibench::run_tool(&ctx, &tool);
    assert!(o.failed.is_none() && o.skipped.is_none(), "{o:?}");
    assert_eq!(o.tables.len(), 2);
    // The wrapper's version line becomes the tool.
    assert!(o.tool.unwrap().starts_with("EEMBC MultiBench 1.0.10"));
    assert!(o.notes.iter().any(|n| n.contains("ipres-4Mw1")));

    // A build whose run prints nothing the harness would: the section fails with the exit code.
    std::fs::write(
        &script,
        "#!/bin/sh\necho 'make: *** [run] Error 2'\nexit 2\n",
    )
    .unwrap();
    let o = multibench::run_tool(&ctx, &tool);
    assert!(
        o.failed.as_deref().unwrap().contains("exit code 2"),
        "{o:?}"
    );
}
