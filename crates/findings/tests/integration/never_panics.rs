//! `analyse` never panics, whatever a (partial, odd or hostile) document holds: random numbers
//! of phases, samples and readings, `None` everywhere it may be, NaN and infinite figures,
//! counters that went backwards, garbage kernel lines, out-of-range measurement indexes.

use document::imported::{
    ClockCheck, ClockRow, ImportedLog, MonitorRow, MonitorTable, OppTime as LogOpp, SevenZip,
    SevenZipRun, SwapInfo, ThrottlingTable,
};
use document::machine::{DeviceTree, MachineInfo, SwapArea, SwapKind, Virtualization, Zram, Zswap};
use document::measure::clock::ClockReading;
use document::run::{
    IdleGate, KmsgLine, KmsgWindow, OppTime, Phase, PhaseStatus, PolicyState, PowercapConstraint,
    PowercapZone, RpiConfig, RunOptions, RunRecord, SettingChange, StateSnapshot, ThermalThrottle,
    ToolRun,
};
use document::samples::{CpuStates, MonitorSample, RpiReadings};
use document::{Measurement, ResultDocument, SCHEMA_VERSION};
use findings::{analyse, trustworthy};
use proptest::collection::vec;
use proptest::option::of;
use proptest::prelude::*;

fn num() -> impl Strategy<Value = f64> {
    prop_oneof![
        0.0..120.0f64,
        -1e6..1e6f64,
        Just(f64::NAN),
        Just(f64::INFINITY),
        Just(f64::NEG_INFINITY),
        Just(0.0),
    ]
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        Just("CPU2: shutdown".to_string()),
        Just("CPU99999999999999999999: shutdown".to_string()),
        Just("xCPU: shutdown".to_string()),
        Just("7z invoked oom-killer".to_string()),
        Just("Out of memory: Killed process 1".to_string()),
        Just("hwmon hwmon1: Undervoltage detected!".to_string()),
        Just("/dev/zram0 partition 100 50 5".to_string()),
        Just("Tot: 100 2000 2000".to_string()),
        "\\PC{0,40}",
    ]
}

fn kind() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("clock".to_string()),
        Just("clock-hot".to_string()),
        Just("membw".to_string()),
        Just("7zip-single".to_string()),
        Just("7zip-multi".to_string()),
        "[a-z-]{0,8}",
    ]
}

fn sample() -> impl Strategy<Value = MonitorSample> {
    (
        any::<u64>(),
        num(),
        vec(of(any::<u32>()), 0..3),
        of(num()),
        of((num(), num(), num())),
        of(num()),
        of((of(any::<u32>()), of(num()))),
    )
        .prop_map(
            |(unix_ms, interval_s, clocks_mhz, load1, cpu, temp_c, rpi)| MonitorSample {
                unix_ms,
                interval_s,
                clocks_mhz,
                load1,
                cpu: cpu.map(|(cpu, sys, steal)| CpuStates {
                    cpu,
                    sys,
                    steal,
                    ..CpuStates::default()
                }),
                temp_c,
                rpi: rpi.map(|(arm_mhz, core_volts)| RpiReadings {
                    arm_mhz,
                    core_volts,
                }),
            },
        )
}

fn reading() -> impl Strategy<Value = ClockReading> {
    (0u32..8, of(0u32..3), of(any::<u64>()), num(), of(num())).prop_map(
        |(cpu, policy, opp_khz, mhz, deviation_pct)| ClockReading {
            cpu,
            policy,
            opp_khz,
            samples: Vec::new(),
            mhz,
            best_mhz: mhz,
            spread_pct: None,
            deviation_pct,
            disturbed: false,
        },
    )
}

fn tool_run() -> impl Strategy<Value = ToolRun> {
    (text(), of(any::<bool>()), of(text())).prop_map(|(output, comparable, version)| ToolRun {
        tool: "7-Zip".into(),
        program: "7z".into(),
        version,
        comparable_with_sbc_bench: comparable,
        command: "7z b".into(),
        end: "exit 0".into(),
        output,
        wall_s: 1.0,
    })
}

fn phase() -> impl Strategy<Value = Phase> {
    (
        kind(),
        0u32..5,
        prop_oneof![
            Just(PhaseStatus::Done),
            Just(PhaseStatus::Skipped),
            Just(PhaseStatus::Failed)
        ],
        (any::<u64>(), any::<u64>()),
        vec(sample(), 0..6),
        vec(reading(), 0..5),
        vec(tool_run(), 0..4),
        vec(any::<usize>(), 0..4),
    )
        .prop_map(
            |(kind, threads, status, (s, f), samples, clock, tool_runs, measurements)| Phase {
                kind,
                threads,
                status,
                started_unix_ms: s,
                finished_unix_ms: f,
                samples,
                clock,
                tool_runs,
                measurements,
                ..Phase::default()
            },
        )
}

fn policy() -> impl Strategy<Value = PolicyState> {
    (
        0u32..3,
        vec(0u32..8, 0..4),
        of(prop_oneof![Just("performance".to_string()), text()]),
        of(any::<u64>()),
        of(any::<u64>()),
        vec((0u64..3_000_000, num()), 0..5),
    )
        .prop_map(|(policy, cpus, governor, smax, cmax, tis)| PolicyState {
            policy,
            cpus,
            governor,
            scaling_max_khz: smax,
            cpuinfo_max_khz: cmax,
            time_in_state: tis
                .into_iter()
                .map(|(khz, seconds)| OppTime { khz, seconds })
                .collect(),
            ..PolicyState::default()
        })
}

fn swap_area() -> impl Strategy<Value = SwapArea> {
    (
        prop_oneof![
            Just("/dev/zram0".to_string()),
            Just("/swapfile".to_string())
        ],
        prop_oneof![
            Just(SwapKind::Zram),
            Just(SwapKind::File),
            Just(SwapKind::Unknown)
        ],
        of(any::<u64>()),
    )
        .prop_map(|(path, kind, used_kib)| SwapArea {
            path,
            kind,
            used_kib,
            ..SwapArea::default()
        })
}

fn snapshot() -> impl Strategy<Value = StateSnapshot> {
    (
        any::<u64>(),
        vec(0u32..8, 0..6),
        vec(policy(), 0..3),
        vec(swap_area(), 0..3),
        (of(any::<bool>()), of(any::<u64>()), of(any::<u32>())),
        vec((0u32..4, of(any::<u64>()), of(any::<u64>())), 0..3),
        vec((of(any::<u64>()), of(any::<u64>()), of(any::<u64>())), 0..3),
        of(vec(("[a-z_]{0,12}", "[0-9]{0,4}"), 0..4)),
    )
        .prop_map(
            |(unix_ms, online, policies, swaps, (zswap, oom, rpi), tt, pc, cfg)| StateSnapshot {
                unix_ms,
                online_cpus: online,
                policies,
                swaps,
                zram: vec![Zram::default()],
                zswap: zswap.map(|e| Zswap {
                    enabled: Some(e),
                    ..Zswap::default()
                }),
                oom_kills: oom,
                rpi_throttled: rpi,
                rpi_config: cfg.map(|settings| RpiConfig {
                    path: "config.txt".into(),
                    settings,
                }),
                thermal_throttle: tt
                    .into_iter()
                    .map(|(cpu, c, p)| ThermalThrottle {
                        cpu,
                        core_throttle_count: c,
                        package_throttle_count: p,
                    })
                    .collect(),
                powercap: pc
                    .into_iter()
                    .map(|(energy, limit, max)| PowercapZone {
                        path: "rapl".into(),
                        name: "package-0".into(),
                        enabled: None,
                        energy_uj: energy,
                        constraints: vec![PowercapConstraint {
                            name: "long_term".into(),
                            power_limit_uw: limit,
                            time_window_us: None,
                            max_power_uw: max,
                        }],
                    })
                    .collect(),
                ..StateSnapshot::default()
            },
        )
}

fn machine() -> impl Strategy<Value = MachineInfo> {
    (
        of(prop_oneof![
            Just("kvm".to_string()),
            Just("container".to_string())
        ]),
        of(prop_oneof![
            Just("Raspberry Pi 4 Model B Rev 1.".to_string()),
            Just("Raspberry Pi 4 Model B Rev 1.99999999999".to_string()),
            Just("Raspberry Pi 3 Model B Plus Rev 1.3".to_string()),
            text(),
        ]),
        vec(0u32..8, 0..4),
    )
        .prop_map(|(virt, model, online)| {
            let mut m = MachineInfo::default();
            m.identity.virtualization = virt.map(|kind| Virtualization {
                kind,
                evidence: Vec::new(),
                container: None,
            });
            m.identity.device_tree = model.map(|model| DeviceTree {
                model: Some(model),
                compatible: Vec::new(),
            });
            m.cpus.online = online;
            m
        })
}

fn run() -> impl Strategy<Value = RunRecord> {
    (
        (any::<bool>(), of(any::<u64>())),
        vec(phase(), 0..7),
        of(snapshot()),
        of(snapshot()),
        of(vec(text(), 0..5)),
        of((any::<bool>(), of(num()))),
        vec((text(), of(text())), 0..3),
    )
        .prop_map(
            |((tune, max_khz), phases, before, after, kmsg, gate, settings)| RunRecord {
                options: RunOptions {
                    tune,
                    max_khz,
                    ..RunOptions::default()
                },
                idle_gate: gate.map(|(passed, load1)| IdleGate {
                    passed,
                    load1,
                    ..IdleGate::default()
                }),
                settings: settings
                    .into_iter()
                    .map(|(before, after)| SettingChange {
                        path: "p".into(),
                        before,
                        set: "performance".into(),
                        after,
                    })
                    .collect(),
                phases,
                before,
                after,
                kmsg: kmsg.map(|lines| KmsgWindow {
                    source: "/dev/kmsg".into(),
                    lines: lines
                        .into_iter()
                        .map(|text| KmsgLine {
                            seconds: 0.0,
                            level: None,
                            text,
                        })
                        .collect(),
                    note: None,
                }),
                ..RunRecord::default()
            },
        )
}

fn imported() -> impl Strategy<Value = ImportedLog> {
    (
        of(any::<u32>()),
        vec(vec((any::<u32>(), num()), 0..4), 0..3),
        of((
            vec(text(), 0..3),
            vec(text(), 0..3),
            of(any::<u64>()),
            of(any::<u64>()),
        )),
        vec(
            (
                prop_oneof![Just("tinymembench".to_string()), text()],
                vec((of(any::<u32>()), of(any::<u32>())), 0..5),
            ),
            0..3,
        ),
        vec(text(), 0..4),
        vec((any::<bool>(), vec((of(any::<u32>()), num()), 0..3)), 0..3),
        vec(any::<u64>(), 0..4),
        vec(text(), 0..3),
    )
        .prop_map(
            |(cpu_count, throttling, swap, monitor, kmsg, clocks, multi, validation)| ImportedLog {
                cpu_count,
                throttling: throttling
                    .into_iter()
                    .map(|rows| ThrottlingTable {
                        cluster: String::new(),
                        rows: rows
                            .into_iter()
                            .map(|(mhz, seconds)| LogOpp { mhz, seconds })
                            .collect(),
                    })
                    .collect(),
                swap: swap.map(|(before, after, b, a)| SwapInfo {
                    before,
                    after,
                    used_kib_before: b,
                    used_kib_after: a,
                }),
                monitor: monitor
                    .into_iter()
                    .map(|(phase, rows)| MonitorTable {
                        phase,
                        columns: Vec::new(),
                        rows: rows
                            .into_iter()
                            .map(|(cpu_pct, sys_pct)| MonitorRow {
                                cpu_pct,
                                sys_pct,
                                ..MonitorRow::default()
                            })
                            .collect(),
                    })
                    .collect(),
                kmsg,
                clock_checks: clocks
                    .into_iter()
                    .map(|(under_load, rows)| ClockCheck {
                        cluster: String::new(),
                        under_load,
                        rows: rows
                            .into_iter()
                            .map(|(opp_mhz, measured_mhz)| ClockRow {
                                opp_mhz,
                                measured_mhz,
                            })
                            .collect(),
                    })
                    .collect(),
                sevenzip: Some(SevenZip {
                    multi: multi
                        .into_iter()
                        .map(|rating| SevenZipRun {
                            rating,
                            ..SevenZipRun::default()
                        })
                        .collect(),
                    ..SevenZip::default()
                }),
                validation,
                ..ImportedLog::default()
            },
        )
}

fn measurement() -> impl Strategy<Value = Measurement> {
    num().prop_map(|value| Measurement {
        suite: "7zip".into(),
        test: "total rating".into(),
        variant: None,
        threads: 2,
        cpus: Vec::new(),
        value,
        unit: "MIPS".into(),
        higher_is_better: true,
        spread_pct: None,
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        if testsupport::timing_unreal() { 64 } else { 512 }
    ))]

    #[test]
    fn analyse_never_panics(
        run in of(run()),
        machine in of(machine()),
        imported in of(imported()),
        measurements in vec(measurement(), 0..5),
    ) {
        let doc = ResultDocument {
            schema_version: SCHEMA_VERSION,
            producer: "proptest".into(),
            device: None,
            started: None,
            finished: None,
            machine,
            measurements,
            findings: Vec::new(),
            imported,
            run,
            guide: None,
            redaction: None,
            analysis: None,
        };
        let f = analyse(&doc);
        let _ = trustworthy(&f);
        for x in &f {
            prop_assert!(!x.kind.is_empty());
            prop_assert!(!x.message.contains('\n'));
        }
        prop_assert_eq!(f, analyse(&doc));
    }
}
