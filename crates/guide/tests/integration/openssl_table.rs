//! The OpenSSL section's pure parts on recorded outputs (OpenSSL 3.0.19 recorded on the VM,
//! 1.1.1-format samples), the CPU-load computation, and one real child (skipped under qemu).

use crate::common;

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use adapters::openssl::parse_version;
use guide::child_cpu::{self, ChildRun};
use guide::openssl::{self, AlgResult, SpeedRun};

fn adapter_data(name: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../adapters/tests/data")
        .join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn run_of(stdout: &str, user_ms: u64, sys_ms: u64, wall_ms: u64) -> ChildRun {
    ChildRun {
        stdout: stdout.to_string(),
        user: Duration::from_millis(user_ms),
        system: Duration::from_millis(sys_ms),
        wall: Duration::from_millis(wall_ms),
        code: Some(0),
        ..Default::default()
    }
}

#[test]
fn command_lines() {
    let r = SpeedRun {
        algorithm: "sha256".into(),
        seconds: Some(1),
        bytes: Some(16384),
        multi: Some(4),
        backend: Default::default(),
    };
    assert_eq!(
        r.args(),
        [
            "speed", "-elapsed", "-seconds", "1", "-bytes", "16384", "-multi", "4", "-mr", "-evp",
            "sha256"
        ]
    );
    assert_eq!(r.expected(), Duration::from_secs(1));
}

#[test]
fn plans_follow_the_openssl_version_and_quick() {
    let v3 = parse_version("OpenSSL 3.0.19").unwrap();
    let quick = openssl::plan("aes-128-cbc", &v3, true, None);
    assert_eq!(
        quick.iter().map(|r| r.bytes).collect::<Vec<_>>(),
        [Some(16), Some(16384)]
    );
    let full = openssl::plan("aes-128-cbc", &v3, false, None);
    assert_eq!(
        (full.len(), full[0].seconds, full[0].bytes),
        (1, Some(3), None)
    );
    assert_eq!(full[0].expected(), Duration::from_secs(18));
    let multi = openssl::plan("aes-128-cbc", &v3, false, Some(2));
    assert_eq!((multi[0].seconds, multi[0].multi), (Some(1), Some(2)));
    // OpenSSL 1.1.0 has neither -seconds nor -bytes: its defaults are used.
    let v110 = parse_version("OpenSSL 1.1.0f").unwrap();
    let q = openssl::plan("sha256", &v110, true, None);
    assert_eq!((q.len(), q[0].seconds, q[0].bytes), (1, None, None));
}

#[test]
fn cpu_load_is_cpu_time_over_wall_time() {
    assert_eq!(
        child_cpu::cpu_load_pct(Duration::from_millis(970), Duration::from_secs(1)),
        97.0
    );
    assert_eq!(
        child_cpu::cpu_load_pct(Duration::from_secs(1), Duration::ZERO),
        0.0
    );
    let r = run_of("", 1500, 500, 1000);
    assert_eq!(
        r.cpu_load_pct(),
        200.0,
        "two CPUs busy = 200 %, as time -v says"
    );
}

#[test]
fn fold_reads_mr_output_and_sums_cpu_over_runs() {
    // One 3.0.19 run: 6 s wall, 2.9 s user + 0.1 s sys → 50 %.
    let r = openssl::fold(
        "aes-128-gcm",
        &[run_of(
            &adapter_data("openssl-3.0.19-mr-aes-128-gcm-1s.txt"),
            2900,
            100,
            6000,
        )],
    );
    assert_eq!(r.error, None);
    assert_eq!(r.kb_per_s.len(), 6);
    assert_eq!(r.kb_per_s[&16], 40589.92);
    assert_eq!(r.cpu_load_pct, Some(50.0));

    // -multi 2 (3.0.19): the parent's sum; load over both CPUs.
    let r = openssl::fold(
        "sha256",
        &[run_of(
            &adapter_data("openssl-3.0.19-mr-multi2-sha256-1s.txt"),
            11000,
            400,
            6000,
        )],
    );
    assert_eq!(r.kb_per_s[&16], 81129.2);
    assert_eq!(r.cpu_load_pct, Some(190.0));

    // The 1.1.1 format, and two -bytes runs folded into one row.
    let r = openssl::fold(
        "aes-128-cbc",
        &[
            run_of(
                &adapter_data("openssl-1.1.1-format-mr-multi2-aes-128-cbc.txt"),
                900,
                100,
                1000,
            ),
            run_of("+H:32\n+F:22:aes-128-cbc:1000.00\n", 500, 0, 1000),
        ],
    );
    assert_eq!(r.kb_per_s[&16384], 502000.0);
    assert_eq!(r.kb_per_s[&32], 1.0);
    assert_eq!(r.cpu_load_pct, Some(75.0));
}

#[test]
fn fold_reports_an_unknown_algorithm_with_openssls_reason() {
    let mut run = run_of("", 10, 0, 20);
    run.code = Some(1);
    run.stderr = "speed: Unknown algorithm chacha20-poly1305\n".into();
    let r = openssl::fold("chacha20-poly1305", &[run]);
    assert!(r.kb_per_s.is_empty());
    let e = r.error.unwrap();
    assert!(e.contains("Unknown algorithm"), "{e}");
    assert_eq!(r.cpu_load_pct, None);
}

#[test]
fn tables_have_the_seeds_layout() {
    let mut r = AlgResult::default();
    for s in openssl::SIZES {
        r.kb_per_s.insert(*s, *s as f64);
    }
    r.cpu_load_pct = Some(97.0);
    let results = vec![
        ("sha256".to_string(), r.clone()),
        ("aes-128-cbc".to_string(), r),
    ];
    let (perf, load) = openssl::tables(&results, "");
    assert_eq!(perf.title, "OpenSSL Performance");
    assert_eq!(perf.key_header, "Algorithm");
    // The size is a second key column (printed once, not per board), the figure the value.
    assert_eq!(perf.key_headers, ["Buffer Size (in bytes)"]);
    assert_eq!(perf.columns, ["throughput (KBytes/Sec)"]);
    assert_eq!(perf.rows.len(), 12);
    assert_eq!(perf.rows[0].key, "aes-128-cbc");
    // Sizes in the seed's (string) order.
    let sizes: Vec<&str> = perf.rows[..6].iter().map(|r| r.keys[0].as_str()).collect();
    assert_eq!(sizes, ["1024", "16", "16384", "256", "64", "8192"]);
    assert_eq!(perf.rows[1].cells[0].as_ref().unwrap().value, 16.0);
    assert_eq!(load.title, "OpenSSL CPU Load");
    assert_eq!(load.columns, ["CPU Load"]);
    assert_eq!(load.rows[1].key, "sha256");
    assert_eq!(load.rows[1].cells[0].as_ref().unwrap().value, 97.0);
    let (perf, _) = openssl::tables(&results, " (all cores)");
    assert_eq!(perf.title, "OpenSSL Performance (all cores)");
}

#[test]
fn a_real_child_busy_and_idle() {
    if testsupport::host_only() {
        eprintln!("skipped under qemu-user: spawns host processes");
        return;
    }
    let mut busy = Command::new("sh");
    busy.args(["-c", "i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done"]);
    let r = child_cpu::run(&mut busy, None, Duration::from_secs(60), &|| false).unwrap();
    assert_eq!(r.code, Some(0));
    // CPU time is work done, whatever else runs on the machine: a shell counting to 300000
    // spends well over 50 ms of it, and a single process no more than its wall time.
    let cpu = r.user + r.system;
    assert!(
        cpu > Duration::from_millis(50),
        "busy loop CPU time {cpu:?}"
    );
    assert!(
        cpu <= r.wall + Duration::from_millis(20),
        "{cpu:?} > {:?}",
        r.wall
    );

    let mut idle = Command::new("sleep");
    idle.arg("0.3");
    let r = child_cpu::run(&mut idle, Some(&[0]), Duration::from_secs(60), &|| false).unwrap();
    assert!(r.wall >= Duration::from_millis(300));
    assert!(
        r.user + r.system < Duration::from_millis(100),
        "sleep used {:?}",
        r.user
    );

    // Cancelled: the child is ended, not waited for.
    let mut long = Command::new("sleep");
    long.arg("30");
    let r = child_cpu::run(&mut long, None, Duration::from_secs(60), &|| true).unwrap();
    assert!(r.killed && r.code.is_none());
    assert!(r.wall < Duration::from_secs(10));
}

#[test]
fn the_local_openssl_measures_one_cell() {
    if testsupport::host_only() {
        eprintln!("skipped under qemu-user: spawns host processes");
        return;
    }
    let mut cmd = Command::new("openssl");
    cmd.args(
        SpeedRun {
            algorithm: "sha256".into(),
            seconds: Some(1),
            bytes: Some(1024),
            multi: None,
            backend: Default::default(),
        }
        .args(),
    );
    let r = child_cpu::run(&mut cmd, Some(&[0]), Duration::from_secs(60), &|| false)
        .expect("openssl is installed (scripts/test installs it)");
    let res = openssl::fold("sha256", &[r]);
    assert_eq!(res.error, None);
    assert!(res.kb_per_s[&1024] > 0.0);
    // One process: some CPU time, never more than one CPU's worth (+ rounding).
    let load = res.cpu_load_pct.unwrap();
    assert!(load > 0.0 && load < 105.0, "load {load}");
}

#[test]
fn offloads_are_found_in_recorded_provider_and_engine_outputs() {
    use openssl::{Backend, engine_available, offloads, parse_providers};
    let here = common::data("openssl-list-providers.txt");
    assert_eq!(parse_providers(&here), [("default".to_string(), true)]);
    let unavailable = common::data("openssl-engine-t-afalg-unavailable.txt");
    let available = common::data("openssl-engine-t-afalg-available.txt");
    assert!(!engine_available(&unavailable));
    assert!(engine_available(&available));
    // This machine: software only.
    assert!(offloads(&here, &[("afalg", &unavailable), ("devcrypto", "")]).is_empty());
    // A board with the AF_ALG engine and a vendor provider: OpenSSL's own legacy provider is
    // software, an inactive provider is not offered.
    let vendor = common::data("openssl-list-providers-offload.txt");
    let b = offloads(
        &vendor,
        &[("afalg", &available), ("devcrypto", &unavailable)],
    );
    assert_eq!(
        b,
        [
            Backend::Engine("afalg".into()),
            Backend::Provider("vendorhw".into())
        ]
    );
    assert_eq!(b[0].suffix(), " (afalg engine)");
    let run = SpeedRun {
        algorithm: "aes-128-cbc".into(),
        seconds: Some(3),
        bytes: None,
        multi: None,
        backend: b[0].clone(),
    };
    assert_eq!(
        run.args(),
        [
            "speed",
            "-elapsed",
            "-seconds",
            "3",
            "-engine",
            "afalg",
            "-mr",
            "-evp",
            "aes-128-cbc"
        ]
    );
    let (perf, load) = openssl::tables(&[], &b[1].suffix());
    assert_eq!(perf.title, "OpenSSL Performance (vendorhw provider)");
    assert_eq!(load.title, "OpenSSL CPU Load (vendorhw provider)");
}
