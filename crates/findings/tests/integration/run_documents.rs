//! Findings on `boardbench run` documents built in Rust: the clean run has none, and each kind
//! is triggered by the smallest change that should trigger it.

use crate::common;

use common::*;
use document::Severity;
use document::machine::{DeviceTree, RpiFirmware, SwapKind, Throttled, Virtualization, Zswap};
use document::run::{
    IdleGate, PowercapConstraint, PowercapZone, ProcessUse, RpiConfig, SettingChange,
    ThermalThrottle, kind,
};
use findings::{analyse, kinds, trustworthy};

#[test]
fn clean_run_has_no_findings() {
    let doc = clean_run();
    let f = analyse(&doc);
    assert!(f.is_empty(), "{f:#?}");
    assert!(trustworthy(&f));
}

#[test]
fn throttling_below_max_grew() {
    let mut doc = clean_run();
    // 60 s at 1416 MHz: twice what the clock walk there could explain (31 s).
    after_mut(&mut doc).policies[0].time_in_state = times(&[
        (408_000, 101.5),
        (1_008_000, 6.5),
        (1_416_000, 66.5),
        (1_800_000, 285.5),
    ]);
    let f = one(&doc, kinds::THROTTLING, Severity::Invalid);
    assert_eq!(
        f.message,
        "ATTENTION: Throttling occured. Check the log for details."
    );
    assert!(f.evidence[0].starts_with("Throttling statistics"), "{f:#?}");
    assert!(
        f.evidence.iter().any(|e| e == "1800 MHz:  235.50 sec"),
        "{f:#?}"
    );
    assert!(
        f.evidence
            .iter()
            .any(|e| e
                == "1416 MHz:   61.50 sec  (clock check at this OPP: up to 31.0 sec expected)")
    );
    assert!(
        f.evidence
            .iter()
            .any(|e| e.starts_with("30.50 sec below 1800 MHz"))
    );
    assert!(!trustworthy(&analyse(&doc)));
}

#[test]
fn throttling_outside_the_clock_walk_has_no_allowance() {
    let mut doc = clean_run();
    // 2 s on 1008 MHz are explained by the walk; the same 2 s without a walk are not.
    after_mut(&mut doc).policies[0].time_in_state[1].seconds = 7.0;
    assert!(of_kind(&doc, kinds::THROTTLING).is_empty());
    phase_mut(&mut doc, kind::CLOCK).clock.clear();
    one(&doc, kinds::THROTTLING, Severity::Invalid);
}

#[test]
fn max_khz_skips_throttling_with_a_note() {
    let mut doc = clean_run();
    after_mut(&mut doc).policies[0].time_in_state[2].seconds = 300.0;
    run_mut(&mut doc).options.max_khz = Some(1_416_000);
    assert!(of_kind(&doc, kinds::THROTTLING).is_empty());
    let f = one(&doc, kinds::THROTTLING_UNCHECKED, Severity::Info);
    assert!(f.message.contains("MaxKHz=1416000"), "{}", f.message);
}

#[test]
fn no_time_in_state_says_so() {
    let mut doc = clean_run();
    after_mut(&mut doc).policies[0].time_in_state.clear();
    before_mut(&mut doc).policies[0].time_in_state.clear();
    one(&doc, kinds::THROTTLING_UNCHECKED, Severity::Info);
    assert!(trustworthy(&analyse(&doc)));
}

#[test]
fn capped_policy() {
    let mut doc = clean_run();
    before_mut(&mut doc).policies[0].scaling_max_khz = Some(1_416_000);
    let f = one(&doc, kinds::POLICY_CAPPED, Severity::Warning);
    assert!(f.evidence[0].contains("1416 MHz < cpuinfo_max_freq 1800 MHz"));
    // Time at the cap is not throttling.
    assert!(of_kind(&doc, kinds::THROTTLING).is_empty());
}

#[test]
fn fake_clock_at_the_top_opp() {
    let mut doc = clean_run();
    phase_mut(&mut doc, kind::CLOCK).clock[0].mhz = 1_700.0; // claims 1800
    let f = one(&doc, kinds::FAKE_CLOCK, Severity::Warning);
    assert!(f.message.contains("-5.6 %"), "{}", f.message);
    assert!(f.evidence[0].contains("Cpufreq OPP: 1800    Measured: 1700"));
    // A lower OPP off by 5 %: only worth knowing.
    let mut doc = clean_run();
    phase_mut(&mut doc, kind::CLOCK).clock[3].mhz = 388.0; // 408 claimed
    one(&doc, kinds::FAKE_CLOCK, Severity::Info);
    // Within ±3 %: nothing.
    let mut doc = clean_run();
    phase_mut(&mut doc, kind::CLOCK).clock[0].mhz = 1_760.0;
    assert!(of_kind(&doc, kinds::FAKE_CLOCK).is_empty());
}

#[test]
fn clock_lower_after_the_hot_phase() {
    let mut doc = clean_run();
    phase_mut(&mut doc, kind::CLOCK_HOT).clock[0].mhz = 1_700.0; // cold 1791
    let f = one(&doc, kinds::CLOCK_DROP, Severity::Invalid);
    assert!(
        f.evidence[0].starts_with("cpu0: 1791 MHz cold, 1700 MHz"),
        "{f:#?}"
    );
    assert!(
        f.message.ends_with("the SoC throttled under load."),
        "{}",
        f.message
    );
    // 2 % is within sbc-bench's 3 %.
    phase_mut(&mut doc, kind::CLOCK_HOT).clock[0].mhz = 1_760.0;
    assert!(of_kind(&doc, kinds::CLOCK_DROP).is_empty());
    // In a VM it is only a warning.
    phase_mut(&mut doc, kind::CLOCK_HOT).clock[0].mhz = 1_700.0;
    vm(&mut doc, "kvm");
    let f = one(&doc, kinds::CLOCK_DROP, Severity::Warning);
    // … and the host changed the clock: nothing says this board throttled.
    assert!(f.message.contains("the host changed it"), "{}", f.message);
    assert!(!f.message.contains("the SoC throttled"), "{}", f.message);
}

fn vm(doc: &mut document::ResultDocument, kind: &str) {
    doc.machine.as_mut().unwrap().identity.virtualization = Some(Virtualization {
        kind: kind.into(),
        evidence: vec!["cpuinfo flag hypervisor".into()],
        container: (kind == "container").then(|| "docker".into()),
    });
}

#[test]
fn swapping_zram_and_disk() {
    let mut doc = clean_run();
    after_mut(&mut doc).swaps[0].used_kib = Some(50_000);
    let f = one(&doc, kinds::SWAPPING, Severity::Invalid);
    assert_eq!(
        f.message,
        "Swapping (zram) has occured invalidating benchmark scores."
    );
    assert!(
        f.evidence
            .iter()
            .any(|e| e == "/dev/zram0 (zram): 1024 → 50000 KiB")
    );
    let mut doc = clean_run();
    before_mut(&mut doc).swaps = vec![swap("/swapfile", SwapKind::File, 0)];
    after_mut(&mut doc).swaps = vec![swap("/swapfile", SwapKind::File, 4096)];
    let f = one(&doc, kinds::SWAPPING, Severity::Invalid);
    assert!(f.message.contains("/swapfile (file)"), "{}", f.message);
    // Less swap used afterwards is no swapping.
    let mut doc = clean_run();
    after_mut(&mut doc).swaps[0].used_kib = Some(0);
    assert!(of_kind(&doc, kinds::SWAPPING).is_empty());
}

#[test]
fn zswap_on_top_of_zram() {
    let mut doc = clean_run();
    after_mut(&mut doc).zswap = Some(Zswap {
        enabled: Some(true),
        compressor: Some("lz4".into()),
        zpool: Some("z3fold".into()),
        max_pool_percent: Some(20),
    });
    one(&doc, kinds::ZSWAP_ON_ZRAM, Severity::Info);
    after_mut(&mut doc).swaps[0].used_kib = Some(9_999);
    one(&doc, kinds::ZSWAP_ON_ZRAM, Severity::Warning);
    after_mut(&mut doc).zswap.as_mut().unwrap().enabled = Some(false);
    assert!(of_kind(&doc, kinds::ZSWAP_ON_ZRAM).is_empty());
}

#[test]
fn oom_kills_from_vmstat_and_kmsg() {
    let mut doc = clean_run();
    after_mut(&mut doc).oom_kills = Some(2);
    let f = one(&doc, kinds::OOM_KILL, Severity::Invalid);
    assert!(
        f.message.starts_with("2 oom-killer invocation(s)"),
        "{}",
        f.message
    );
    let mut doc = clean_run();
    let k = run_mut(&mut doc).kmsg.as_mut().unwrap();
    k.lines
        .push(kmsg("7z invoked oom-killer: gfp_mask=0x140dca"));
    k.lines.push(kmsg(
        "Out of memory: Killed process 1234 (7z) total-vm:1000kB",
    ));
    let f = one(&doc, kinds::OOM_KILL, Severity::Invalid);
    assert!(
        f.message.starts_with("1 oom-killer invocation(s)"),
        "{}",
        f.message
    );
    assert!(
        f.evidence
            .iter()
            .any(|e| e.starts_with("Out of memory: Killed process"))
    );
}

#[test]
fn background_activity_in_single_threaded_phases() {
    let mut doc = clean_run();
    // 4 CPUs: one busy core is 25 %; 27.5 % on average is 2.5 % too much (tolerance 1 %).
    for s in phase_mut(&mut doc, kind::SEVENZIP_SINGLE)
        .samples
        .iter_mut()
        .skip(1)
    {
        s.cpu.as_mut().unwrap().cpu = 29.8;
    }
    let f = one(&doc, kinds::BACKGROUND_ACTIVITY, Severity::Invalid);
    assert!(
        f.message.contains("above the benchmark's own 25.0%"),
        "{}",
        f.message
    );
    // One peak of 31 % (6 % over, tolerance 5 %) is enough as well.
    let mut doc = clean_run();
    phase_mut(&mut doc, kind::MEMBW).samples[4]
        .cpu
        .as_mut()
        .unwrap()
        .cpu = 31.0;
    one(&doc, kinds::BACKGROUND_ACTIVITY, Severity::Invalid);
    // The first sample of a phase (the tool starting) does not count, nor do multi-threaded
    // phases.
    let mut doc = clean_run();
    phase_mut(&mut doc, kind::MEMBW).samples[0]
        .cpu
        .as_mut()
        .unwrap()
        .cpu = 90.0;
    assert!(of_kind(&doc, kinds::BACKGROUND_ACTIVITY).is_empty());
}

/// A phase shorter than one monitor interval has one sample, covering all of it: on a busy
/// machine that sample still judges the phase (it used to be skipped as "the tool starting",
/// and `run --quick --phases clock,membw` at load 6 passed as valid).
#[test]
fn a_phase_with_one_sample_is_judged_on_it() {
    let mut doc = clean_run();
    for p in doc.run.as_mut().unwrap().phases.iter_mut() {
        if p.threads == 1 && p.kind != kind::CLOCK && p.kind != kind::CLOCK_HOT {
            p.samples.truncate(1);
            p.samples[0].cpu.as_mut().unwrap().cpu = 99.7;
        }
    }
    one(&doc, kinds::BACKGROUND_ACTIVITY, Severity::Invalid);
    // The same single sample at the benchmark's own share passes.
    let mut doc = clean_run();
    for p in doc.run.as_mut().unwrap().phases.iter_mut() {
        if p.threads == 1 && p.kind != kind::CLOCK && p.kind != kind::CLOCK_HOT {
            p.samples.truncate(1);
            p.samples[0].cpu.as_mut().unwrap().cpu = 25.2;
        }
    }
    assert!(of_kind(&doc, kinds::BACKGROUND_ACTIVITY).is_empty());
}

#[test]
fn a_guide_sections_own_system_calls_are_not_background_activity() {
    // lmbench's section is system calls in several processes: its %sys is the measurement.
    let mut doc = clean_run();
    let p = phase_mut(&mut doc, kind::SEVENZIP_MULTI);
    p.kind = "guide-lmbench".into();
    for s in p.samples.iter_mut() {
        s.cpu.as_mut().unwrap().sys = 23.0;
    }
    assert!(of_kind(&doc, kinds::SYSTEM_ACTIVITY).is_empty());
    // A single-threaded guide section is still judged (by %cpu, and its %sys counts).
    phase_mut(&mut doc, "guide-lmbench").threads = 1;
    one(&doc, kinds::SYSTEM_ACTIVITY, Severity::Warning);
}

#[test]
fn system_activity_peaks() {
    let mut doc = clean_run();
    phase_mut(&mut doc, kind::SEVENZIP_MULTI).samples[3]
        .cpu
        .as_mut()
        .unwrap()
        .sys = 20.0;
    let f = one(&doc, kinds::SYSTEM_ACTIVITY, Severity::Warning);
    assert!(f.message.contains("20.0% max"), "{}", f.message);
}

#[test]
fn killed_and_offlined_cores() {
    let mut doc = clean_run();
    run_mut(&mut doc)
        .kmsg
        .as_mut()
        .unwrap()
        .lines
        .push(kmsg("[  566.894532] CPU13: shutdown"));
    let f = one(&doc, kinds::CORES_KILLED, Severity::Invalid);
    assert!(f.message.contains("(cpu13)"), "{}", f.message);
    let mut doc = clean_run();
    after_mut(&mut doc).online_cpus = vec![0, 1];
    let f = one(&doc, kinds::CORES_KILLED, Severity::Invalid);
    assert!(f.message.contains("cpu2, cpu3"), "{}", f.message);
}

#[test]
fn raspberry_pi_bits_and_kmsg() {
    let mut doc = clean_run();
    before_mut(&mut doc).rpi_throttled = Some(0);
    after_mut(&mut doc).rpi_throttled = Some(0x2_0002); // capped now, capping occurred
    let f = one(&doc, kinds::FREQUENCY_CAPPING, Severity::Invalid);
    assert!(
        f.evidence[0].contains("0x0 before, 0x20002 after"),
        "{f:#?}"
    );
    assert!(of_kind(&doc, kinds::UNDERVOLTAGE).is_empty());
    // Under-voltage alone (sbc-bench stays silent about it).
    after_mut(&mut doc).rpi_throttled = Some(0x1_0000);
    one(&doc, kinds::UNDERVOLTAGE, Severity::Invalid);
    // Occurred before the run already: a warning. The start value may come from the machine.
    let mut doc = clean_run();
    doc.machine.as_mut().unwrap().rpi = Some(RpiFirmware {
        throttled: Some(Throttled {
            raw: 0x1_0000,
            ..Throttled::default()
        }),
        ..RpiFirmware::default()
    });
    after_mut(&mut doc).rpi_throttled = Some(0x1_0000);
    one(&doc, kinds::UNDERVOLTAGE, Severity::Warning);
    // The kernel's line alone.
    let mut doc = clean_run();
    run_mut(&mut doc)
        .kmsg
        .as_mut()
        .unwrap()
        .lines
        .push(kmsg("hwmon hwmon1: Undervoltage detected!"));
    one(&doc, kinds::UNDERVOLTAGE, Severity::Invalid);
    // Soft limit and firmware throttling bits.
    let mut doc = clean_run();
    before_mut(&mut doc).rpi_throttled = Some(0);
    after_mut(&mut doc).rpi_throttled = Some(0xC_0000);
    one(&doc, kinds::FIRMWARE_THROTTLING, Severity::Invalid);
    one(&doc, kinds::SOFT_TEMP_LIMIT, Severity::Invalid);
}

fn rpi(doc: &mut document::ResultDocument, model: &str, settings: &[(&str, &str)]) {
    doc.machine.as_mut().unwrap().identity.device_tree = Some(DeviceTree {
        model: Some(model.into()),
        compatible: vec!["raspberrypi,4-model-b".into()],
    });
    before_mut(doc).rpi_config = Some(RpiConfig {
        path: "/boot/firmware/config.txt".into(),
        settings: settings
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
    });
}

#[test]
fn raspberry_pi_config() {
    let mut doc = clean_run();
    rpi(
        &mut doc,
        "Raspberry Pi 3 Model B Plus Rev 1.3",
        &[("dtparam", "audio=on")],
    );
    one(&doc, kinds::RPI_TEMP_SOFT_LIMIT, Severity::Warning);
    rpi(
        &mut doc,
        "Raspberry Pi 3 Model B Plus Rev 1.3",
        &[("temp_soft_limit", "70")],
    );
    assert!(of_kind(&doc, kinds::RPI_TEMP_SOFT_LIMIT).is_empty());

    rpi(
        &mut doc,
        "Raspberry Pi 4 Model B Rev 1.4",
        &[("arm_freq", "1800")],
    );
    let f = one(&doc, kinds::RPI_ARM_BOOST, Severity::Info);
    assert!(f.message.starts_with("Silly settings"), "{}", f.message);
    rpi(
        &mut doc,
        "Raspberry Pi 4 Model B Rev 1.4",
        &[("arm_boost", "1")],
    );
    assert!(of_kind(&doc, kinds::RPI_ARM_BOOST).is_empty());
    // B0 steppings (Rev 1.1/1.2) cannot boost.
    rpi(&mut doc, "Raspberry Pi 4 Model B Rev 1.2", &[]);
    assert!(of_kind(&doc, kinds::RPI_ARM_BOOST).is_empty());
}

#[test]
fn powercap_limits() {
    let zone = |limit_w: u64, energy: u64| PowercapZone {
        path: "/sys/devices/virtual/powercap/intel-rapl/intel-rapl:0".into(),
        name: "package-0".into(),
        enabled: Some(true),
        energy_uj: Some(energy),
        constraints: vec![PowercapConstraint {
            name: "long_term".into(),
            power_limit_uw: Some(limit_w * 1_000_000),
            time_window_us: Some(28_000_000),
            max_power_uw: Some(28_000_000),
        }],
    };
    let mut doc = clean_run();
    before_mut(&mut doc).powercap = vec![zone(28, 0)];
    after_mut(&mut doc).powercap = vec![zone(28, 3_000_000_000)];
    let f = one(&doc, kinds::POWERCAP, Severity::Info);
    // 3000 J over 300 s.
    assert!(
        f.evidence
            .iter()
            .any(|e| e == "package-0: 10.0 W average over the run"),
        "{f:#?}"
    );
    before_mut(&mut doc).powercap = vec![zone(15, 0)];
    one(&doc, kinds::POWERCAP, Severity::Warning);
}

#[test]
fn x86_thermal_throttle_counters() {
    let counters = |n| ThermalThrottle {
        cpu: 0,
        core_throttle_count: Some(n),
        package_throttle_count: Some(0),
    };
    let mut doc = clean_run();
    before_mut(&mut doc).thermal_throttle = vec![counters(3)];
    after_mut(&mut doc).thermal_throttle = vec![counters(3)];
    assert!(of_kind(&doc, kinds::THERMAL_THROTTLE).is_empty());
    after_mut(&mut doc).thermal_throttle = vec![counters(10)];
    one(&doc, kinds::THERMAL_THROTTLE, Severity::Invalid);
}

#[test]
fn governor_and_restore() {
    let mut doc = clean_run();
    before_mut(&mut doc).policies[0].governor = Some("schedutil".into());
    one(&doc, kinds::GOVERNOR, Severity::Warning);
    run_mut(&mut doc).options.tune = false;
    one(&doc, kinds::GOVERNOR, Severity::Info);

    let mut doc = clean_run();
    run_mut(&mut doc).settings = vec![SettingChange {
        path: "/sys/devices/system/cpu/cpufreq/policy0/scaling_governor".into(),
        before: "schedutil".into(),
        set: "performance".into(),
        after: Some("performance".into()),
    }];
    one(&doc, kinds::SETTINGS_NOT_RESTORED, Severity::Warning);
    run_mut(&mut doc).settings[0].after = Some("schedutil\n".into());
    assert!(of_kind(&doc, kinds::SETTINGS_NOT_RESTORED).is_empty());
}

#[test]
fn falling_7zip_scores() {
    let mut doc = clean_run();
    doc.measurements = vec![rating(5000.0), rating(4800.0), rating(4600.0)];
    let f = one(&doc, kinds::SEVENZIP_FALLING, Severity::Invalid);
    assert!(f.message.contains("5000 → 4600 MIPS"), "{}", f.message);
    // One steady step: not the throttling pattern.
    doc.measurements = vec![rating(5000.0), rating(4990.0), rating(4600.0)];
    assert!(of_kind(&doc, kinds::SEVENZIP_FALLING).is_empty());
}

#[test]
fn sevenzip_not_comparable() {
    let mut doc = clean_run();
    phase_mut(&mut doc, kind::SEVENZIP_MULTI).tool_runs = vec![sevenzip_tool_run(false); 3];
    let f = one(&doc, kinds::SEVENZIP_NOT_COMPARABLE, Severity::Info);
    assert_eq!(f.evidence, ["7-Zip 26.02 (/usr/bin/7z)"]);
    // Another tool that is not comparable either is not a 7-Zip finding.
    let mut doc = clean_run();
    let mut other = sevenzip_tool_run(false);
    other.tool = "built-in SHA-256 load".into();
    phase_mut(&mut doc, kind::SEVENZIP_MULTI).tool_runs = vec![other];
    assert!(of_kind(&doc, kinds::SEVENZIP_NOT_COMPARABLE).is_empty());
}

#[test]
fn vm_guest_and_container() {
    let mut doc = clean_run();
    vm(&mut doc, "kvm");
    let f = one(&doc, kinds::VM_GUEST, Severity::Warning);
    assert!(f.message.contains("host's mood"), "{}", f.message);
    assert!(f.evidence.iter().any(|e| e.starts_with("steal time")));
    vm(&mut doc, "container");
    one(&doc, kinds::VM_GUEST, Severity::Info);
}

#[test]
fn busy_machine_at_start() {
    let mut doc = clean_run();
    run_mut(&mut doc).idle_gate = Some(IdleGate {
        passed: false,
        waited_s: 600.0,
        load1_below: 0.1,
        cpu_pct_below: 2.5,
        window_s: 30.0,
        load1: Some(1.9),
        cpu_pct: Some(48.0),
        reason: "gave up after 600 s".into(),
        top_processes: vec![ProcessUse {
            pid: 42,
            command: "apt".into(),
            cpu_pct: 95.0,
        }],
    });
    let f = one(&doc, kinds::BUSY_AT_START, Severity::Invalid);
    assert!(f.evidence.iter().any(|e| e.contains("apt")));
}

#[test]
fn sorted_by_severity_and_deterministic() {
    let mut doc = clean_run();
    vm(&mut doc, "kvm"); // warning
    after_mut(&mut doc).swaps[0].used_kib = Some(50_000); // invalid
    run_mut(&mut doc).options.max_khz = Some(1_416_000); // info
    let f = analyse(&doc);
    let sev: Vec<Severity> = f.iter().map(|f| f.severity).collect();
    let mut sorted = sev.clone();
    sorted.sort_by(|a, b| b.cmp(a));
    assert_eq!(sev, sorted);
    assert_eq!(sev.first(), Some(&Severity::Invalid));
    assert_eq!(sev.last(), Some(&Severity::Info));
    assert_eq!(f, analyse(&doc));
    // Messages are one line.
    assert!(f.iter().all(|f| !f.message.contains('\n')));
}

#[test]
fn silent_throttling_on_raspberry_pi() {
    use document::samples::RpiReadings;
    let mut doc = clean_run();
    let real = |mhz| {
        Some(RpiReadings {
            arm_mhz: Some(mhz),
            core_volts: Some(1.2),
        })
    };
    for s in &mut phase_mut(&mut doc, kind::SEVENZIP_MULTI).samples {
        s.rpi = real(1800);
    }
    assert!(of_kind(&doc, kinds::SILENT_THROTTLING).is_empty());
    phase_mut(&mut doc, kind::SEVENZIP_MULTI).samples[5].rpi = real(1200);
    let f = one(&doc, kinds::SILENT_THROTTLING, Severity::Invalid);
    assert!(
        f.message
            .contains("at 1200 MHz while the kernel set 1800 MHz"),
        "{}",
        f.message
    );
}

#[test]
fn steal_is_not_background_activity() {
    // A VM guest whose host steals 6 % while a single-threaded phase runs: that is the
    // host's load (vm-guest), not a process on this machine.
    let mut doc = clean_run();
    vm(&mut doc, "kvm");
    for s in phase_mut(&mut doc, kind::SEVENZIP_SINGLE)
        .samples
        .iter_mut()
        .skip(1)
    {
        let c = s.cpu.as_mut().unwrap();
        c.cpu = 31.2;
        c.steal = 6.0;
    }
    assert!(of_kind(&doc, kinds::BACKGROUND_ACTIVITY).is_empty());
    let f = one(&doc, kinds::VM_GUEST, Severity::Warning);
    assert!(f.evidence.iter().any(|e| e.contains("6.0 % max")), "{f:#?}");
}

#[test]
fn implausible_temperatures_are_the_sensor_not_the_soc() {
    // Millidegrees read as degrees on one sample.
    fn sampled(doc: &mut document::ResultDocument) -> &mut Vec<document::samples::MonitorSample> {
        let p = run_mut(doc)
            .phases
            .iter_mut()
            .find(|p| p.samples.len() >= 2);
        &mut p.expect("a phase with samples").samples
    }
    let mut doc = clean_run();
    sampled(&mut doc)[0].temp_c = Some(48_500.0);
    let f = one(&doc, kinds::TEMPERATURE_IMPLAUSIBLE, Severity::Warning);
    assert!(f.message.contains("48500.0 °C"), "{f:#?}");
    assert!(f.evidence.iter().any(|e| e.contains("1 of ")), "{f:#?}");
    // The scores stand.
    assert!(trustworthy(&analyse(&doc)));

    // "Ominously low" (sbc-bench's words) — a room-temperature SoC under load is not.
    let mut doc = clean_run();
    for p in &mut run_mut(&mut doc).phases {
        for s in &mut p.samples {
            s.temp_c = Some(12.0);
        }
    }
    let f = one(&doc, kinds::TEMPERATURE_IMPLAUSIBLE, Severity::Warning);
    assert!(f.message.contains("12.0 °C"), "{f:#?}");

    // The edges are plausible.
    let mut doc = clean_run();
    sampled(&mut doc)[0].temp_c = Some(20.0);
    sampled(&mut doc)[1].temp_c = Some(150.0);
    assert!(of_kind(&doc, kinds::TEMPERATURE_IMPLAUSIBLE).is_empty());
}

/// A graph sweep: one point per OPP of cluster cpu0-3, each with its clock reading at the cap
/// and monitor samples whose clock is `during` MHz.
fn graph_doc(points: &[(u64, f64, u32)]) -> document::ResultDocument {
    let mut doc = clean_run();
    let run = run_mut(&mut doc);
    run.profile = "graph".into();
    run.phases = points
        .iter()
        .enumerate()
        .map(|(i, &(opp_khz, measured, during))| {
            let samples = (0..5)
                .map(|_| {
                    let mut s = sample(100.0, 1.0);
                    s.clocks_mhz = vec![Some(during)];
                    s
                })
                .collect();
            let mut p = phase(i as u64, kind::GRAPH_POINT, 4, samples);
            p.title = format!("cpu0-3 at {} MHz", opp_khz / 1000);
            p.cluster = Some(0);
            p.cpus = vec![0, 1, 2, 3];
            p.clock = vec![reading(0, Some(opp_khz), measured)];
            p
        })
        .collect();
    doc
}

#[test]
fn a_graph_point_whose_clock_fell_during_its_workload() {
    // The 1800 MHz point ran at 1416 MHz for its whole workload; the others held their cap.
    let doc = graph_doc(&[
        (1_008_000, 1007.0, 1008),
        (1_416_000, 1415.0, 1416),
        (1_800_000, 1799.0, 1416),
    ]);
    let f = one(&doc, kinds::GRAPH_POINT_THROTTLED, Severity::Warning);
    assert!(f.message.starts_with("1 sweep point(s)"), "{f:#?}");
    assert!(
        f.evidence[0].contains("cpu0-3 at 1800 MHz: capped at 1800 MHz, the kernel ran it down to 1416 MHz (5 of 5 samples)"),
        "{f:#?}"
    );
    let all = analyse(&doc);
    assert!(trustworthy(&all), "the other points stand: {all:#?}");
    // The sweep's own caps are not throttling: time below the top OPP is its design.
    let unchecked = one(&doc, kinds::THROTTLING_UNCHECKED, Severity::Info);
    assert!(unchecked.message.contains("graph sweep"), "{unchecked:#?}");

    // Held caps (1 MHz of rounding is not a drop) give nothing.
    let held = graph_doc(&[(1_416_000, 1415.0, 1416), (1_800_000, 1799.0, 1786)]);
    assert!(of_kind(&held, kinds::GRAPH_POINT_THROTTLED).is_empty());
}

#[test]
fn graph_points_measure_fake_clocks_like_the_opp_walk() {
    // cpufreq claims 1800 MHz; the point measured 1600 before its workload.
    let doc = graph_doc(&[(1_416_000, 1415.0, 1416), (1_800_000, 1600.0, 1800)]);
    let f = of_kind(&doc, kinds::FAKE_CLOCK);
    assert_eq!(f.len(), 1, "{f:#?}");
    assert!(f[0].evidence.iter().any(|e| e.contains("1800")), "{f:#?}");
}

/// Issue 47: a phase during which the run was stopped (Ctrl-Z) says so, and the `stopped`
/// finding makes the run not to be trusted.
#[test]
fn a_phase_stopped_by_job_control_is_disturbed() {
    let mut doc = clean_run();
    let run = doc.run.as_mut().unwrap();
    let p = run.phases.last_mut().unwrap();
    p.reason = Some(format!("{} 1 time(s)", document::run::STOPPED_REASON));
    let f = analyse(&doc);
    let stopped: Vec<_> = f.iter().filter(|f| f.kind == kinds::STOPPED).collect();
    assert_eq!(stopped.len(), 1, "{f:#?}");
    assert_eq!(stopped[0].severity, Severity::Invalid);
    assert!(!trustworthy(&f));
}
