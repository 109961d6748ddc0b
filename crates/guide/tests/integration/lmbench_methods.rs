//! Each lmbench method on a case whose outcome the hardware dictates — ratios, never absolute
//! figures — with tiny ENOUGH so every test takes a few seconds. Under qemu-user
//! (BOARDBENCH_EMULATED=1) the methods still run (they are pure code) but the timing ratios are
//! not asserted, and fork-heavy methods are left to the host.

use std::path::PathBuf;

use guide::lmbench::timing::Timing;
use guide::lmbench::{self, Plan};
use guide::lmbench::{bw_ipc, bw_mem, lat_mem_rd, lat_ops, lat_pipe, lat_sig, lat_syscall};

/// A harness with a small ENOUGH and the one-second floors scaled down to it.
fn tiny() -> Timing {
    let mut t = Timing::with_enough(if testsupport::timing_unreal() {
        1000.0
    } else {
        3000.0
    });
    t.floor_scale = 0.0;
    t.tries = if testsupport::timing_unreal() { 3 } else { 5 };
    t
}

fn workdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("bb-lmbench-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn int_div_is_slower_than_add_and_an_add_takes_time() {
    let t = tiny();
    let ops: Vec<_> = lat_ops::measure_type(&t, "int")
        .into_iter()
        .map(|(op, v)| (op, v.unwrap().value))
        .collect();
    let get = |name: &str| ops.iter().find(|(o, _)| o == name).unwrap().1;
    for (op, v) in &ops {
        assert!(v.is_finite() && *v >= 0.0, "{op} {v}");
    }
    let double: Vec<_> = lat_ops::measure_type(&t, "double")
        .into_iter()
        .map(|(op, v)| (op, v.unwrap().value))
        .collect();
    assert_eq!(double.len(), 3);
    if testsupport::timing_unreal() {
        return;
    }
    // No CPU completes a dependent add in under 0.05 ns (a quarter cycle at 5 GHz).
    assert!(get("add") > 0.05, "int add {} ns", get("add"));
    assert!(
        get("div") > 2.0 * get("add"),
        "div {} add {}",
        get("div"),
        get("add")
    );
}

#[test]
fn lat_mem_rd_grows_past_the_last_level_cache() {
    let t = tiny();
    let small = lat_mem_rd::measure(&t, 16 << 10).unwrap().value;
    if testsupport::timing_unreal() {
        return;
    }
    let big = lat_mem_rd::measure(&t, 256 << 20).unwrap().value;
    assert!(big > 1.5 * small, "16 KiB {small} ns, 256 MiB {big} ns");
}

#[test]
fn lat_mem_rd_ranges_and_names_follow_lmbench_and_the_seed() {
    let r = lat_mem_rd::ranges(1 << 20);
    assert_eq!(&r[..8], &[512, 1024, 2048, 3072, 4096, 6144, 8192, 12288]);
    assert_eq!(*r.last().unwrap(), 1 << 20);
    assert!(r.contains(&(768 << 10)));
    let names: Vec<_> = [512, 32 << 10, 64 << 10, 128 << 10, 512 << 10, 1 << 20]
        .iter()
        .map(|&x| lat_mem_rd::row_size(x))
        .collect();
    assert_eq!(
        names,
        ["sz50", "sz31k", "sz62k", "sz125k", "sz500k", "sz1000k"]
    );
}

#[test]
fn bw_mem_inside_l1_is_faster_than_above_the_llc() {
    let t = tiny();
    for op in bw_mem::OPS {
        let v = bw_mem::measure(&t, op, 8 << 10).unwrap();
        assert!(v.value > 0.0, "{op}");
    }
    if testsupport::timing_unreal() {
        return;
    }
    // The best interval of each (the other tests of this binary share the CPUs); rd and bcopy
    // have the widest margins. (fwr/wr are store-throughput bound on many cores, inside L1 as
    // well: not a known case.)
    for op in ["rd", "bcopy"] {
        let best = |size| {
            let v = bw_mem::measure(&t, op, size).unwrap();
            v.max.unwrap_or(v.value)
        };
        let l1 = best(8 << 10);
        let big = best(128 * lmbench::MB);
        eprintln!("{op}: 8 KiB {l1:.0} MB/s, 128 MB {big:.0} MB/s");
        assert!(l1 > 1.5 * big, "{op}: 8 KiB {l1} MB/s, 128 MB {big} MB/s");
    }
}

#[test]
fn a_pipe_round_trip_costs_more_than_a_null_syscall() {
    let t = tiny();
    let dir = workdir("pipe");
    let file = lmbench::make_test_file(&dir).unwrap();
    let null = lat_syscall::measure(&t, lat_syscall::Op::Null, &file, false)
        .unwrap()
        .value;
    for op in lat_syscall::Op::ALL {
        assert!(lat_syscall::measure(&t, op, &file, false).unwrap().value >= 0.0);
    }
    let pipe = lat_pipe::measure(&t).unwrap().value;
    let _ = std::fs::remove_dir_all(&dir);
    if testsupport::timing_unreal() {
        return;
    }
    assert!(pipe > 2.0 * null, "pipe {pipe} µs, null {null} µs");
}

#[test]
fn signals_are_caught_and_handlers_restored() {
    let t = tiny();
    let dir = workdir("sig");
    let action = |sig| {
        // SAFETY: reads the current action into zeroed storage.
        let mut old: libc::sigaction = unsafe { std::mem::zeroed() };
        // SAFETY: a valid out pointer.
        unsafe { libc::sigaction(sig, std::ptr::null(), &mut old) };
        old.sa_sigaction
    };
    let before: Vec<_> = [libc::SIGUSR1, libc::SIGSEGV, libc::SIGBUS]
        .into_iter()
        .map(action)
        .collect();
    let file = lmbench::make_test_file(&dir).unwrap();
    let install = lat_sig::install(&t).unwrap();
    let catch = lat_sig::catch(&t).unwrap();
    let prot = lat_sig::prot(&t, &file).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(install.value >= 0.0 && catch.value >= 0.0 && prot.value >= 0.0);
    // The SIGUSR1, SIGSEGV and SIGBUS actions are back to what they were.
    let after: Vec<_> = [libc::SIGUSR1, libc::SIGSEGV, libc::SIGBUS]
        .into_iter()
        .map(action)
        .collect();
    assert_eq!(before, after);
}

#[test]
fn the_whole_section_on_a_tiny_plan_names_every_seed_row() {
    if testsupport::timing_unreal() {
        eprintln!("skipped: emulated target (forks dozens of processes)");
        return;
    }
    let t = tiny();
    let dir = workdir("section");
    let plan = Plan {
        bw_mem_mb: vec![1, 2, 4, 8, 16],
        mem_rd_ranges: vec![
            512,
            32 << 10,
            64 << 10,
            128 << 10,
            256 << 10,
            512 << 10,
            1 << 20,
        ],
        ctx: vec![(2, 128), (2, 256), (4, 128), (4, 256)],
        ctx_tries: None,
        fs_sizes: vec![0, 1024, 4096, 10240],
        exec: true,
    };
    let out = lmbench::run_with(&t, &plan, &dir);
    assert_eq!(out.failed, None);
    let table = &out.tables[0];
    assert_eq!(
        (table.title.as_str(), table.key_header.as_str()),
        ("LMBench Benchmarks", "Benchmarks")
    );
    let keys: Vec<&str> = table.rows.iter().map(|r| r.key.as_str()).collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted);
    let seed = include_str!("../fixtures/lmbench-seed-rows.txt");
    for row in seed.lines().filter(|l| !l.trim().is_empty()) {
        let r = table.rows.iter().find(|r| r.key == row);
        assert!(
            r.is_some_and(|r| r.cells[0].is_some()),
            "row {row} missing or empty"
        );
    }
    assert!(keys.contains(&"bw_tcp (MB/s)") && keys.contains(&"lat_proc-shell (us)"));
    // Nothing left behind in the work directory (the test file and lat_fs trees are removed).
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ipc_bandwidth_and_registry() {
    let t = tiny();
    if !testsupport::timing_unreal() {
        for k in [bw_ipc::Kind::Pipe, bw_ipc::Kind::Unix, bw_ipc::Kind::Tcp] {
            assert!(bw_ipc::measure(&t, k).unwrap().value > 0.0, "{k:?}");
        }
    }
    let s = guide::registry::find("lmbench").unwrap();
    assert!(s.quick && s.default);
    assert_eq!(s.title, "LMBench Benchmarks");
}

#[test]
fn loopback_latencies_answer() {
    let t = tiny();
    if testsupport::timing_unreal() {
        return;
    }
    use guide::lmbench::{lat_connect, lat_select, lat_tcp};
    let connect = lat_connect::measure(&t).unwrap();
    let tcp = lat_tcp::measure(&t).unwrap();
    let select = lat_select::measure(&t).unwrap();
    eprintln!("connect {connect:?}\ntcp {tcp:?}\nselect {select:?}");
    assert!(connect.value > 0.0 && tcp.value > 0.0 && select.value > 0.0);
}

#[test]
fn the_remainder_steps_compute_the_remainder() {
    // lat_ops' int64 mod runs `cqo; idiv` on x86_64 (lmbench's compiled step): it must still be
    // Rust's `%` for every sign and width, including the chain's own values.
    let s = 1i64 + (1 << 56);
    let r0 = 300i64 + (300 << 32);
    for (r, d) in [
        (r0, s),
        (r0 | s, s),
        (-7, 3),
        (7, -3),
        (i64::MAX, s),
        (i64::MIN, 7),
        (0, 5),
    ] {
        assert_eq!(lat_ops::rem_i64(r, d), r % d, "{r} % {d}");
    }
    assert_eq!(lat_ops::rem_i32(-7, 63), std::hint::black_box(-7) % 63);
    // The whole chain runs (a few iterations) and returns.
    lat_ops::int64::rem(3);
    lat_ops::int32::rem(3);
}

#[test]
fn stat_and_open_by_name_in_the_files_directory_in_a_child_leave_our_directory_alone() {
    let t = tiny();
    let dir = workdir("syscall-at");
    let file = lmbench::make_test_file(&dir).unwrap();
    let here = std::env::current_dir().unwrap();
    assert_ne!(here, dir, "the test must start elsewhere");
    for op in [lat_syscall::Op::Stat, lat_syscall::Op::Open] {
        let (v, at) = lmbench::isolate::in_child_at(&t, &dir, |t, at| {
            // The child runs in the file's directory: the bare name is found from there.
            let found = std::path::Path::new("test1.txt").exists();
            lat_syscall::measure(t, op, &file, at).map(|v| (v, at && found))
        })
        .unwrap();
        assert!(at, "{op:?}: the child did not run in the file's directory");
        assert!(v.value > 0.0, "{op:?}: {v:?}");
    }
    // Named relative to a directory we are not in, the file is not found: the in-directory
    // form really names it relative to the working directory.
    assert!(lat_syscall::measure(&t, lat_syscall::Op::Stat, &file, true).is_err());
    assert_eq!(std::env::current_dir().unwrap(), here);
    let _ = std::fs::remove_dir_all(&dir);
}
