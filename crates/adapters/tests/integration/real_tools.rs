//! Short real runs of the installed tools (CI installs p7zip-full, openssl and stockfish).
//! Each test prints a note and returns when its tool is missing, and under qemu-user
//! (BOARDBENCH_EMULATED), where the host tools would only be run again from an emulated parent.
//! No figure is asserted beyond "positive": the machine is shared and noisy.

use adapters::{Found, RunContext, Runner, SearchPath, SystemRunner};
use adapters::{openssl, sevenzip, stockfish};

/// The tool, found only on the host: under emulation even the finding (which starts the tool
/// for its version) would fork from the emulated parent, where qemu-user can hang in fork().
fn available<V>(
    name: &str,
    find: impl FnOnce() -> Result<Found<V>, adapters::Skip>,
) -> Option<Found<V>> {
    if testsupport::host_only() {
        eprintln!("note: {name} real run skipped under emulation");
        return None;
    }
    match find() {
        Ok(f) => Some(f),
        Err(skip) => {
            eprintln!("note: {skip}; real run not tested");
            None
        }
    }
}

#[test]
fn real_openssl_quick_speed() {
    let sp = SearchPath::from_env();
    let Some(found) = available("openssl", || openssl::find(&sp, &SystemRunner)) else {
        return;
    };
    let opts = if found.version.supports_seconds() {
        openssl::SpeedOptions::quick("aes-128-cbc")
    } else {
        openssl::SpeedOptions::sbc_bench("aes-128-cbc")
    };
    let out = SystemRunner
        .run(&openssl::invocation(&found.tool, &opts))
        .unwrap();
    assert!(out.success(), "{}", out.stderr);
    let speed = openssl::parse(&out.combined()).unwrap();
    assert_eq!(speed.rows.len(), 1);
    assert_eq!(speed.rows[0].algorithm, "aes-128-cbc");
    assert!(speed.rows[0].kb_per_s.iter().all(|v| *v > 0.0));
    if found.version.prints_16k_column() {
        assert!(speed.sbc_bench_score("aes-128-cbc").unwrap() > 0.0);
    }
    let rows = speed.measurements(&RunContext::new().variant(&found.version.label()));
    assert_eq!(rows.len(), speed.block_sizes.len());
    eprintln!(
        "{}: aes-128-cbc 16384 bytes {:?} kB/s",
        found.version.label(),
        speed.sbc_bench_score("aes-128-cbc")
    );
}

#[test]
fn real_stockfish_quick_bench() {
    let sp = SearchPath::from_env();
    let Some(found) = available("stockfish", || stockfish::find(&sp, &SystemRunner)) else {
        return;
    };
    let opts = stockfish::BenchOptions::quick(1);
    let out = SystemRunner
        .run(&stockfish::invocation(&found.tool, &opts))
        .unwrap();
    assert!(out.success(), "{}", out.describe_end());
    let bench = stockfish::parse(&out.combined()).unwrap();
    assert!(bench.nodes_per_second > 0);
    assert!(bench.nodes_searched.unwrap_or(0) > 0);
    assert_eq!(
        bench.version.as_ref().map(|v| v.version.as_str()),
        Some(found.version.version.as_str())
    );
    eprintln!(
        "{}: {} nodes/s, {:?}",
        found.version.label(),
        bench.nodes_per_second,
        bench.evaluations
    );
}

#[test]
fn real_7zip_quick_bench_pinned() {
    let sp = SearchPath::from_env();
    let Some(found) = available("7-Zip", || sevenzip::find(&sp, &SystemRunner)) else {
        return;
    };
    // The first CPU we may use (a CI container's cpuset need not contain CPU 0).
    let cpu = first_allowed_cpu();
    let inv = sevenzip::invocation(&found.tool, &sevenzip::BenchOptions::quick(1)).pinned(&[cpu]);
    let out = SystemRunner.run(&inv).unwrap();
    assert!(out.success(), "{}", out.describe_end());
    let bench = sevenzip::parse(&out.combined()).unwrap();
    assert!(bench.tot.rating_mips > 0);
    assert_eq!(bench.rows.len(), 1);
    assert_eq!(bench.rows[0].dict_log2, 18);
    assert_eq!(bench.bench_threads, Some(1));
    assert_eq!(bench.version.as_ref(), Some(&found.version));
    // Debian 12: `p7zip-full 16.02+really26.02` must be seen as 7-Zip 26.02.
    if found.version.p7zip_version.is_some() && found.version.major > 16 {
        assert!(!found.version.comparable_with_sbc_bench);
    }
    eprintln!(
        "{} ({}): Tot {} MIPS, comparable with sbc-bench: {}",
        found.version.label(),
        found.tool.path.display(),
        bench.tot.rating_mips,
        found.version.comparable_with_sbc_bench
    );
}

fn first_allowed_cpu() -> u32 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
        .and_then(|list| {
            let first = list.trim().split([',', '-']).next()?;
            first.parse().ok()
        })
        .unwrap_or(0)
}
