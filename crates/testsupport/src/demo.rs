//! A synthetic but realistic run document (an RK3399-like board: 4× Cortex-A53 + 2× Cortex-A72)
//! for tests, examples and the screenshots in docs/: eight phases with ~60 monitor samples, a
//! temperature ramp under load, the big cluster's clock dropping when it gets hot, an OPP walk
//! with one optimistic top OPP, and a memory-latency ladder with two cache levels.
//!
//! Nothing here is measured; the numbers are plausible shapes, made to exercise every chart.

use document::machine::{Cluster, Distro, Identity, Kernel, MachineInfo, SocGuess, Userland};
use document::measure::clock::ClockReading;
use document::measure::memlat::{
    CacheAnalysis, CacheLevel, ChainRow, ChainTable, MemlatResult, RandomRow, RandomTable,
};
use document::run::{
    IdleGate, KmsgLine, KmsgWindow, Phase, PhaseStatus, RunOptions, RunRecord, SettingChange,
    ToolRun, kind,
};
use document::samples::{ClockColumns, CpuStates, MonitorLayout, MonitorSample, MonitoredCluster};
use document::{Finding, Measurement, ResultDocument, SCHEMA_VERSION, Severity};

/// 2026-11-23T10:00:00Z.
const T0_MS: u64 = 1_795_428_000_000;

/// Unix milliseconds as ISO 8601 UTC ("2026-11-23T10:00:04.500+00:00").
pub fn iso(ms: u64) -> String {
    let secs = ms / 1000;
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:03}+00:00",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        ms % 1000
    )
}

/// Builder of one phase: times in seconds after the run's start.
pub struct PhaseSpec {
    pub kind: &'static str,
    pub title: String,
    pub start_s: f64,
    pub end_s: f64,
    pub threads: u32,
    pub cpus: Vec<u32>,
}

impl PhaseSpec {
    pub fn new(kind: &'static str, title: &str, start_s: f64, end_s: f64, cpus: &[u32]) -> Self {
        PhaseSpec {
            kind,
            title: title.into(),
            start_s,
            end_s,
            threads: cpus.len().max(1) as u32,
            cpus: cpus.to_vec(),
        }
    }

    /// The phase with samples every `every_s` seconds from `sample(t)`.
    pub fn build(&self, every_s: f64, sample: &dyn Fn(f64) -> MonitorSample) -> Phase {
        let mut samples = Vec::new();
        let mut t = self.start_s + every_s;
        while t <= self.end_s + 1e-9 {
            samples.push(sample(t));
            t += every_s;
        }
        let ms = |s: f64| T0_MS + (s * 1000.0).round() as u64;
        Phase {
            kind: self.kind.into(),
            title: self.title.clone(),
            cpus: self.cpus.clone(),
            threads: self.threads,
            status: PhaseStatus::Done,
            started: iso(ms(self.start_s)),
            finished: iso(ms(self.end_s)),
            started_unix_ms: ms(self.start_s),
            finished_unix_ms: ms(self.end_s),
            monitor_interval_s: every_s,
            samples,
            ..Default::default()
        }
    }
}

/// A monitor sample: big and little clocks, temperature and CPU use.
pub fn sample(t_s: f64, big_mhz: u32, little_mhz: u32, temp_c: f64, cpu_pct: f64) -> MonitorSample {
    MonitorSample {
        unix_ms: T0_MS + (t_s * 1000.0).round() as u64,
        interval_s: 4.5,
        clocks_mhz: vec![Some(little_mhz), Some(big_mhz)],
        load1: Some(cpu_pct / 100.0 * 6.0),
        cpu: Some(CpuStates {
            cpu: cpu_pct,
            usr: cpu_pct * 0.95,
            sys: cpu_pct * 0.05,
            ..Default::default()
        }),
        temp_c: Some(temp_c),
        rpi: None,
    }
}

/// A clock reading at one OPP.
pub fn reading(cpu: u32, policy: u32, opp_mhz: u32, measured: f64) -> ClockReading {
    ClockReading {
        cpu,
        policy: Some(policy),
        opp_khz: Some(u64::from(opp_mhz) * 1000),
        samples: Vec::new(),
        mhz: measured,
        best_mhz: measured + 1.0,
        spread_pct: Some(0.2),
        deviation_pct: Some((measured - f64::from(opp_mhz)) / f64::from(opp_mhz) * 100.0),
        disturbed: false,
    }
}

pub fn measurement(suite: &str, test: &str, threads: u32, value: f64, unit: &str) -> Measurement {
    Measurement {
        suite: suite.into(),
        test: test.into(),
        variant: None,
        threads,
        cpus: Vec::new(),
        value,
        unit: unit.into(),
        higher_is_better: unit != "ns",
        spread_pct: None,
    }
}

/// The memlat result of a Cortex-A72: 32 KiB L1, 1 MiB L2, DRAM behind.
pub fn memlat_ladder(cpu: u32) -> MemlatResult {
    let sizes: Vec<u64> = (12..=26).map(|e| 1u64 << e).collect();
    let lat = |size: u64| -> f64 {
        let kib = size / 1024;
        if kib <= 32 {
            2.2
        } else if kib <= 1024 {
            // L2 with a slow rise as TLB reach runs out.
            11.0 + (kib as f64 / 1024.0) * 3.0
        } else {
            // DRAM, rising with page walks.
            95.0 + ((size as f64).log2() - 20.0) * 8.0
        }
    };
    let chains = vec![1, 2, 4, 8];
    let rows = sizes
        .iter()
        .map(|&s| ChainRow {
            size_bytes: s,
            ns_per_step: chains
                .iter()
                .map(|&n| {
                    // Parallel chains overlap their misses (memory-level parallelism).
                    let overlap = if s <= 32 * 1024 { 0.95 } else { 0.45 };
                    lat(s) * (1.0 + (f64::from(n) - 1.0) * (1.0 - overlap))
                })
                .collect(),
            descheduled_retries: 0,
            disturbed: false,
        })
        .collect();
    let random = |huge: bool| RandomTable {
        huge_pages: Some(huge),
        madvise_error: None,
        baseline_single_ns: 2.2,
        baseline_dual_ns: 2.4,
        rows: sizes
            .iter()
            .filter(|&&s| s >= 64 * 1024)
            .map(|&s| {
                let tlb = if huge || s <= 2 << 20 { 0.0 } else { 25.0 };
                let raw = lat(s) * 1.05 + tlb;
                RandomRow {
                    size_bytes: s,
                    single_ns: raw - 2.2,
                    dual_ns: (raw - 2.2) * 0.6,
                    single_raw_ns: raw,
                    dual_raw_ns: raw * 0.6 + 1.0,
                }
            })
            .collect(),
        wall_s: 4.0,
    };
    MemlatResult {
        cpus: vec![cpu],
        chain: Some(ChainTable {
            chains,
            word_bytes: 8,
            rows,
            wall_s: 9.0,
        }),
        random: vec![random(false), random(true)],
        caches: Some(CacheAnalysis {
            levels: vec![
                CacheLevel {
                    level: 1,
                    effective_bytes: 32 * 1024,
                    next_bytes: 64 * 1024,
                    latency_ns: 2.2,
                    advertised_bytes: Some(32 * 1024),
                    agrees: Some(true),
                },
                CacheLevel {
                    level: 2,
                    effective_bytes: 1024 * 1024,
                    next_bytes: 2048 * 1024,
                    latency_ns: 11.2,
                    advertised_bytes: Some(1024 * 1024),
                    agrees: Some(true),
                },
            ],
            beyond_ns: Some(143.0),
            advertised: Vec::new(),
            flags: Vec::new(),
        }),
        wall_s: 17.0,
    }
}

fn machine() -> MachineInfo {
    MachineInfo {
        clusters: vec![
            Cluster {
                cpus: vec![0, 1, 2, 3],
                policy: Some(0),
                core_name: Some("Cortex-A53".into()),
                min_khz: Some(408_000),
                max_khz: Some(1_416_000),
                ..Default::default()
            },
            Cluster {
                cpus: vec![4, 5],
                policy: Some(4),
                core_name: Some("Cortex-A72".into()),
                min_khz: Some(408_000),
                max_khz: Some(1_800_000),
                ..Default::default()
            },
        ],
        identity: Identity {
            kernel: Kernel {
                release: Some("6.1.75-rockchip64".into()),
                arch: Some("aarch64".into()),
                ..Default::default()
            },
            distro: Some(Distro {
                pretty_name: Some("Debian GNU/Linux 12 (bookworm)".into()),
                source: "/etc/os-release".into(),
                ..Default::default()
            }),
            userland: Some(Userland {
                arch: Some("arm64".into()),
                bits: Some(64),
                ..Default::default()
            }),
            soc: Some(SocGuess {
                name: "Rockchip RK3399".into(),
                why: "device tree compatible rockchip,rk3399".into(),
            }),
            ..Default::default()
        },
        ..Default::default()
    }
}

/// The synthetic run document named `device`.
pub fn run_document_named(device: &str) -> ResultDocument {
    // Temperature rises with load and falls back slowly; the big cluster throttles above 80 °C.
    let little = [0u32];
    let big = [4u32];
    let all = [0u32, 1, 2, 3, 4, 5];
    let specs = [
        PhaseSpec::new(kind::CLOCK, "Checking cpufreq OPPs (walk)", 0.0, 24.0, &big),
        PhaseSpec::new(
            kind::MEMBW,
            "Memory bandwidth on cpu4 (Cortex-A72)",
            25.0,
            52.0,
            &big,
        ),
        PhaseSpec::new(
            kind::MEMLAT,
            "Memory latency on cpu4 (Cortex-A72)",
            53.0,
            75.0,
            &big,
        ),
        PhaseSpec::new(
            kind::OPENSSL,
            "OpenSSL speed on cpu4 (Cortex-A72)",
            76.0,
            112.0,
            &big,
        ),
        PhaseSpec::new(
            kind::SEVENZIP_SINGLE,
            "7-Zip single-threaded on cpu0 (Cortex-A53)",
            113.0,
            140.0,
            &little,
        ),
        PhaseSpec::new(
            kind::SEVENZIP_SINGLE,
            "7-Zip single-threaded on cpu4 (Cortex-A72)",
            141.0,
            162.0,
            &big,
        ),
        PhaseSpec::new(
            kind::SEVENZIP_MULTI,
            "7-Zip multi-threaded, 6 threads",
            163.0,
            253.0,
            &all,
        ),
        PhaseSpec::new(
            kind::CLOCK_HOT,
            "Clock check again, hot",
            254.0,
            270.0,
            &big,
        ),
    ];
    let temp = |t: f64| -> f64 {
        if t < 163.0 {
            42.0 + t * 0.06
        } else if t < 253.0 {
            // Full load: approaches 86 °C.
            let base = 42.0 + 163.0 * 0.06;
            base + (86.0 - base) * (1.0 - (-(t - 163.0) / 30.0).exp())
        } else {
            84.0 - (t - 253.0) * 0.3
        }
    };
    let mut phases = Vec::new();
    for spec in &specs {
        let multi = spec.kind == kind::SEVENZIP_MULTI;
        let single_cpu = 100.0 / 6.0;
        let p = spec.build(4.5, &|t| {
            let temp_c = temp(t);
            let big_mhz = if temp_c > 80.0 {
                1416
            } else if temp_c > 78.0 {
                1608
            } else {
                1800
            };
            let cpu = if multi { 99.0 } else { single_cpu + 1.5 };
            sample(t, big_mhz, 1416, temp_c, cpu)
        });
        phases.push(p);
    }
    phases[0].clock = [408u32, 600, 816, 1008, 1200, 1416, 1608, 1800]
        .iter()
        .map(|&opp| {
            let measured = if opp == 1800 {
                1704.0
            } else {
                f64::from(opp) * 0.997
            };
            reading(4, 4, opp, measured)
        })
        .chain(
            [408u32, 600, 816, 1008, 1200, 1416]
                .iter()
                .map(|&opp| reading(0, 0, opp, f64::from(opp) * 0.998)),
        )
        .collect();
    phases[7].clock = vec![reading(4, 4, 1800, 1412.0)];
    phases[2].memlat = Some(memlat_ladder(4));
    phases[6].tool_runs = vec![ToolRun {
        tool: "7-Zip".into(),
        program: "/usr/bin/7zr".into(),
        version: Some("16.02".into()),
        comparable_with_sbc_bench: Some(true),
        command: "7zr b -mmt=6".into(),
        end: "exit 0".into(),
        output: "7-Zip (a) [64] 16.02 : Copyright (c) 1999-2016 Igor Pavlov : 2016-05-21\n\
                 ...\nTot:             489   1150   5620\n"
            .into(),
        wall_s: 90.0,
    }];

    let mut measurements = vec![
        measurement("clock", "cpu0", 1, 1413.0, "MHz"),
        measurement("clock", "cpu4", 1, 1704.0, "MHz"),
        measurement("membw", "libc memcpy copy", 1, 2820.0, "MB/s"),
        measurement("membw", "libc memset fill", 1, 4960.0, "MB/s"),
        measurement("openssl", "aes-256-cbc 16384", 1, 726_500.0, "k/s"),
        measurement("7zip", "single", 1, 1380.0, "MIPS"),
        measurement("7zip", "multi", 6, 5620.0, "MIPS"),
    ];
    measurements[5].cpus = vec![4];
    let findings = vec![
        Finding {
            kind: "throttling".into(),
            severity: Severity::Warning,
            message:
                "cpu4 (Cortex-A72) was throttled from 1800 to 1416 MHz at 80 °C during 7-Zip multi"
                    .into(),
            evidence: vec![
                "7-Zip multi: 13 of 20 samples below 1800 MHz".into(),
                "highest temperature 85.7 °C".into(),
            ],
        },
        Finding {
            kind: "fake-opp".into(),
            severity: Severity::Info,
            message: "The 1800 MHz OPP of cpu4 runs at 1704 MHz (-5.3 %)".into(),
            evidence: vec!["Cpufreq OPP: 1800    Measured: 1704    (-5.3%)".into()],
        },
    ];
    let end_ms = phases.last().map_or(T0_MS, |p| p.finished_unix_ms);
    ResultDocument {
        schema_version: SCHEMA_VERSION,
        producer: "boardbench 0.1.0".into(),
        device: Some(device.into()),
        started: Some(iso(T0_MS)),
        finished: Some(iso(end_ms)),
        machine: Some(machine()),
        measurements,
        findings,
        imported: None,
        run: Some(RunRecord {
            comparability: Vec::new(),
            profile: "quick".into(),
            options: RunOptions {
                tune: true,
                invoked_as: "boardbench".into(),
                ..Default::default()
            },
            monitor: Some(MonitorLayout {
                columns: ClockColumns::BigLittle,
                clusters: vec![
                    MonitoredCluster {
                        first_cpu: 0,
                        policy: Some(0),
                        max_khz: Some(1_416_000),
                    },
                    MonitoredCluster {
                        first_cpu: 4,
                        policy: Some(4),
                        max_khz: Some(1_800_000),
                    },
                ],
                display_order: vec![1, 0],
                thermal_path: Some("/sys/class/thermal/thermal_zone0".into()),
                raspberry_pi: false,
            }),
            idle_gate: Some(IdleGate {
                passed: true,
                waited_s: 3.0,
                load1_below: 0.1,
                cpu_pct_below: 2.5,
                window_s: 3.0,
                load1: Some(0.04),
                cpu_pct: Some(0.6),
                reason: "load 0.04 < 0.10".into(),
                top_processes: Vec::new(),
            }),
            settings: vec![SettingChange {
                path: "/sys/devices/system/cpu/cpufreq/policy4/scaling_governor".into(),
                before: "schedutil".into(),
                set: "performance".into(),
                after: Some("schedutil".into()),
            }],
            kmsg: Some(KmsgWindow {
                source: "/dev/kmsg".into(),
                lines: vec![KmsgLine {
                    seconds: 8123.456789,
                    level: Some(4),
                    text: "thermal thermal_zone0: cpu4 throttled to 1416000 kHz".into(),
                }],
                note: None,
            }),
            phases,
            duration_s: (end_ms - T0_MS) as f64 / 1000.0,
            ..Default::default()
        }),
        guide: None,
        redaction: None,
        analysis: None,
    }
}

/// The synthetic run document ("Synthetic RK3399 board").
pub fn run_document() -> ResultDocument {
    run_document_named("Synthetic RK3399 board")
}

/// Another run to compare with: the same board's figures scaled by `factor` (a faster or slower
/// board), named `device`.
pub fn scaled_run(device: &str, factor: f64) -> ResultDocument {
    let mut d = run_document_named(device);
    for m in &mut d.measurements {
        if m.suite != "clock" {
            m.value = (m.value * factor).round();
        }
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso_formats_utc() {
        assert_eq!(iso(T0_MS + 4_500), "2026-11-23T10:00:04.500+00:00");
        assert_eq!(iso(0), "1970-01-01T00:00:00.000+00:00");
    }

    #[test]
    fn demo_has_the_promised_shape() {
        let d = run_document();
        let run = d.run.as_ref().unwrap();
        assert_eq!(run.phases.len(), 8);
        let n: usize = run.phases.iter().map(|p| p.samples.len()).sum();
        assert!((50..=70).contains(&n), "{n} samples");
    }
}
