//! Property tests: the probe's readers and parsers never panic, whatever the files contain.

use document::machine::SensorKind;
use probe::{Root, cache, cpufreq, identity, memory, root, rpi, snapshot, thermal};
use proptest::prelude::*;

/// Every file the snapshot reads on a typical board, each filled with arbitrary bytes.
const FILES: &[&str] = &[
    "proc/cpuinfo",
    "proc/meminfo",
    "proc/swaps",
    "proc/sys/kernel/ostype",
    "proc/sys/kernel/osrelease",
    "proc/sys/kernel/version",
    "proc/sys/kernel/arch",
    "proc/device-tree/model",
    "proc/device-tree/compatible",
    "proc/device-tree/hypervisor/compatible",
    "proc/device-tree/cpus/cpu@0/reg",
    "proc/device-tree/cpus/cpu@0/operating-points-v2",
    "proc/device-tree/cpus/cpu@0/operating-points",
    "proc/device-tree/cpus/cpu@0/clock-frequency",
    "proc/device-tree/cpus/opp-table-0/phandle",
    "proc/device-tree/cpus/opp-table-0/opp-1800000000/opp-hz",
    "proc/device-tree/cpus/opp-table-0/opp-1800000000/status",
    "proc/device-tree/memory-controller/lpddr4-channel0/compatible",
    "sys/class/devfreq/dmc/available_frequencies",
    "sys/class/devfreq/dmc/max_freq",
    "etc/os-release",
    "bin/sh",
    "var/lib/dpkg/arch",
    "sys/devices/system/cpu/possible",
    "sys/devices/system/cpu/online",
    "sys/devices/system/cpu/present",
    "sys/devices/system/cpu/cpu0/topology/physical_package_id",
    "sys/devices/system/cpu/cpu0/topology/core_id",
    "sys/devices/system/cpu/cpu0/cpu_capacity",
    "sys/devices/system/cpu/cpu0/cache/index0/level",
    "sys/devices/system/cpu/cpu0/cache/index0/size",
    "sys/devices/system/cpu/cpu0/cache/index0/type",
    "sys/devices/system/cpu/cpu0/cache/index0/shared_cpu_list",
    "sys/devices/system/cpu/cpufreq/policy0/related_cpus",
    "sys/devices/system/cpu/cpufreq/policy0/affected_cpus",
    "sys/devices/system/cpu/cpufreq/policy0/cpuinfo_min_freq",
    "sys/devices/system/cpu/cpufreq/policy0/cpuinfo_max_freq",
    "sys/devices/system/cpu/cpufreq/policy0/scaling_available_frequencies",
    "sys/devices/system/cpu/cpufreq/policy0/stats/time_in_state",
    "sys/devices/system/cpu/cpufreq/policy0/scaling_governor",
    "sys/devices/system/cpu/cpufreq/policy10/related_cpus",
    "sys/devices/system/cpu/cpufreq/boost",
    "sys/devices/cpu_core/cpus",
    "sys/devices/cpu_atom/cpus",
    "sys/class/thermal/thermal_zone0/type",
    "sys/class/thermal/thermal_zone0/temp",
    "sys/class/hwmon/hwmon0/name",
    "sys/class/hwmon/hwmon0/temp1_input",
    "sys/class/hwmon/hwmon0/temp1_label",
    "sys/block/zram0/disksize",
    "sys/block/zram0/comp_algorithm",
    "sys/block/zram0/mm_stat",
    "sys/module/zswap/parameters/enabled",
    "sys/class/dmi/id/sys_vendor",
    ".fixture/vcgencmd/measure_clock arm.txt",
    ".fixture/vcgencmd/measure_volts core.txt",
    ".fixture/vcgencmd/get_throttled.txt",
];

/// Mostly plausible sysfs text (numbers, lists, names), sometimes arbitrary bytes.
fn content() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..64),
        "[0-9 ,\\-x\\[\\]=.\n]{0,24}".prop_map(String::into_bytes),
        "(raspberrypi,4-model-b|cpu-thermal|0-3|1800000|Y|\\x7fELF)[\0\n]?"
            .prop_map(String::into_bytes),
    ]
}

/// Snapshots of one tree whose files are rewritten with arbitrary contents for every case (one
/// tree, on a RAM disk where there is one: creating thousands of small files on a slow disk is
/// what would make this test slow).
#[test]
fn snapshot_never_panics() {
    let dir = tempfile::tempdir_in("/dev/shm")
        .or_else(|_| tempfile::tempdir())
        .unwrap();
    for rel in FILES {
        std::fs::create_dir_all(dir.path().join(rel).parent().unwrap()).unwrap();
    }
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
        cases: 64,
        ..ProptestConfig::default()
    });
    runner
        .run(
            &proptest::collection::vec(content(), FILES.len()),
            |files| {
                for (rel, bytes) in FILES.iter().zip(&files) {
                    std::fs::write(dir.path().join(rel), bytes).unwrap();
                }
                let m = snapshot::take(&Root::new(dir.path()));
                // The document always serialises.
                serde_json::to_string(&m).unwrap();
                Ok(())
            },
        )
        .unwrap();
}

proptest! {
    #[test]
    fn parsers_never_panic(s in "\\PC{0,80}", b in proptest::collection::vec(any::<u8>(), 0..80)) {
        let _ = root::parse_cpu_list(&s);
        let _ = root::parse_u64_list(&s);
        let _ = root::natural_cmp(&s, "policy10");
        let _ = cpufreq::parse_time_in_state(&s);
        let _ = cache::parse_size_kib(&s);
        let _ = memory::parse_meminfo(&s);
        let _ = memory::parse_swaps(&s);
        let _ = memory::selected(&s);
        let _ = identity::parse_os_release(&s);
        let _ = identity::elf_arch(&b);
        let _ = rpi::parse_clock(&s);
        let _ = rpi::parse_volts(&s);
        let _ = rpi::parse_throttled(&s);
        let _ = thermal::classify(SensorKind::Zone, &s, Some(&s));
        let _ = thermal::classify(SensorKind::Hwmon, &s, None);
    }

    #[test]
    fn every_throttled_value_decodes_to_its_bits(raw in any::<u32>()) {
        let t = rpi::parse_throttled(&format!("throttled=0x{raw:x}\n")).unwrap();
        prop_assert_eq!(t.raw, raw);
        prop_assert_eq!(t.under_voltage_now, raw & 1 != 0);
        prop_assert_eq!(t.soft_temp_limit_occurred, raw & (1 << 19) != 0);
    }

    #[test]
    fn cpu_lists_round_trip(mut v in proptest::collection::vec(0u32..300, 0..20)) {
        v.sort_unstable();
        v.dedup();
        let text = v.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
        prop_assert_eq!(root::parse_cpu_list(&text), Some(v));
    }
}

#[test]
fn recorded_vcgencmd_outputs_parse() {
    assert_eq!(
        rpi::parse_clock("frequency(48)=1500398464\n"),
        Some(1_500_398_464)
    );
    assert_eq!(rpi::parse_clock("frequency(0)=0\n"), Some(0));
    assert_eq!(rpi::parse_volts("volt=0.8563V\n"), Some(0.8563));
    assert_eq!(rpi::parse_volts("volt=1.2000V"), Some(1.2));
    let t = rpi::parse_throttled("throttled=0x50005\n").unwrap();
    assert!(t.under_voltage_now && t.throttled_now);
    assert!(t.under_voltage_occurred && t.throttled_occurred);
    assert!(!t.arm_freq_capped_now && !t.soft_temp_limit_now);
    assert!(!t.arm_freq_capped_occurred && !t.soft_temp_limit_occurred);
    // Under-voltage alone is reported (sbc-bench's pattern decode says nothing for it).
    let uv = rpi::parse_throttled("throttled=0x10000").unwrap();
    assert!(uv.under_voltage_occurred && !uv.throttled_occurred);
    // Capping and throttling together are both reported (sbc-bench's branch for it is dead).
    let both = rpi::parse_throttled("throttled=0x60000").unwrap();
    assert!(both.arm_freq_capped_occurred && both.throttled_occurred);
    assert_eq!(rpi::parse_throttled("throttled=0x0").unwrap().raw, 0);
    for bad in [
        "",
        "error=1 error_msg=\"x\"",
        "throttled=50005",
        "throttled=0x",
        "volt=V",
    ] {
        assert_eq!(rpi::parse_throttled(bad), None, "{bad}");
        assert_eq!(rpi::parse_volts(bad), None, "{bad}");
        assert_eq!(rpi::parse_clock(bad), None, "{bad}");
    }
}
