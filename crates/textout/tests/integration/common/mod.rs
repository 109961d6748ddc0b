//! Builders of run documents for the renderer tests: a machine snapshot of a fixture root (read
//! only) plus phases, samples, snapshots and figures chosen by the test, so every expected cell
//! follows from known inputs.
#![allow(dead_code)]

use document::machine::MachineInfo;
use document::measure::clock::{ClockReading, ClockSample};
use document::measure::membw::{BwKind, BwTest, MembwResult};
use document::measure::sha256::{Sha256Backend, Sha256Report, Sha256Result};
use document::run::{
    KmsgLine, KmsgWindow, OppTime, Phase, PhaseStatus, PolicyState, RunOptions, RunRecord,
    SettingChange, StateSnapshot, ToolRun, kind,
};
use document::samples::{CpuStates, MonitorSample};
use document::{Finding, Measurement, ResultDocument, Severity};

/// The probe's snapshot of a fixture root (crates/probe/tests/roots/<name>).
pub fn machine(name: &str) -> MachineInfo {
    probe::snapshot::take(&probe::Root::new(testsupport::probe_root(name)))
}

/// The inputs a test controls.
#[derive(Debug, Clone)]
pub struct Figures {
    /// Measured clock at the top OPP as a fraction of the OPP (start of the run).
    pub clock_factor: f64,
    /// The same, measured again when hot.
    pub hot_factor: f64,
    /// The three all-core 7-Zip ratings (empty: no multi runs).
    pub zip_multi_runs: Vec<f64>,
    /// Single-threaded 7-Zip rating per cluster (empty: none).
    pub zip_single: Vec<f64>,
    /// aes-256-cbc 16 KiB figure per cluster, 1000 bytes/s (empty: OpenSSL skipped).
    pub aes: Vec<f64>,
    /// memcpy / memset MB/s per cluster (empty: no membw).
    pub memcpy: Vec<f64>,
    pub memset: Vec<f64>,
    pub khs: Option<f64>,
    /// Seconds spent below the top OPP of the last policy during the run.
    pub throttled_seconds: f64,
    pub findings: Vec<Finding>,
}

impl Default for Figures {
    fn default() -> Self {
        Figures {
            clock_factor: 0.996,
            hot_factor: 0.995,
            zip_multi_runs: vec![12_345.0, 12_346.0, 12_347.0],
            zip_single: vec![1_234.0, 2_306.0],
            aes: vec![847_364.10, 1_284_074.15],
            memcpy: vec![4_321.4, 5_113.9],
            memset: vec![15_710.2, 14_001.3],
            khs: None,
            throttled_seconds: 0.0,
            findings: Vec::new(),
        }
    }
}

pub fn finding(kind: &str, severity: Severity, message: &str) -> Finding {
    Finding {
        kind: kind.into(),
        severity,
        message: message.into(),
        evidence: vec![format!("evidence of {kind}")],
    }
}

/// 2026-11-23 11:00:00 UTC (12:00 in the +01:00 zone the documents are stamped in).
const T0_MS: u64 = 1_795_431_600_000;

fn iso(ms: u64) -> String {
    use chrono::TimeZone;
    let tz = chrono::FixedOffset::east_opt(3600).unwrap();
    tz.timestamp_millis_opt(ms as i64)
        .unwrap()
        .to_rfc3339_opts(chrono::SecondsFormat::Millis, false)
}

fn reading(cpu: u32, policy: Option<u32>, opp_khz: Option<u64>, mhz: f64) -> ClockReading {
    let samples: Vec<f64> = vec![mhz + 0.5, mhz, mhz - 0.5];
    ClockReading {
        cpu,
        policy,
        opp_khz,
        samples: samples
            .iter()
            .map(|&m| ClockSample {
                method: "aarch64 asm".into(),
                exact: true,
                count: 1000,
                short_ops: 10,
                long_ops: 20,
                short_ns: vec![1000],
                long_ns: vec![2000],
                mhz: m,
                elapsed_ns: 100_000_000,
            })
            .collect(),
        mhz,
        best_mhz: mhz + 0.5,
        spread_pct: Some(0.03),
        deviation_pct: None,
        disturbed: false,
    }
}

fn row(suite: &str, test: &str, threads: u32, cpus: &[u32], value: f64, unit: &str) -> Measurement {
    let m = Measurement::new(suite, test, threads, value, unit).with_cpus(cpus);
    if unit == "ns" { m.lower_is_better() } else { m }
}

/// Index into machine.clusters, online CPUs, policy, max kHz, label "cpu4 (Cortex-A76)".
type TestCluster = (usize, Vec<u32>, Option<u32>, Option<u64>, String);

struct Builder {
    doc: ResultDocument,
    now_ms: u64,
    phases: Vec<Phase>,
    clusters: Vec<TestCluster>,
    temp: f64,
}

impl Builder {
    /// A phase of `secs` seconds with a monitor sample every `interval` seconds.
    fn phase(
        &mut self,
        kind: &str,
        title: &str,
        (cluster, cpus): (Option<usize>, Vec<u32>),
        threads: u32,
        secs: u64,
        busy: f64,
    ) -> Phase {
        let start = self.now_ms;
        let end = start + secs * 1000;
        self.now_ms = end + 1000;
        let interval = (secs / 2).max(1);
        let mut samples = Vec::new();
        let mut t = start + interval * 1000;
        while t <= end {
            self.temp += 0.7;
            let clocks = self
                .clusters
                .iter()
                .map(|c| c.3.map(|k| (k / 1000) as u32))
                .collect();
            samples.push(MonitorSample {
                unix_ms: t,
                interval_s: interval as f64,
                clocks_mhz: clocks,
                load1: Some(busy / 25.0),
                cpu: Some(CpuStates {
                    cpu: busy + 0.4,
                    sys: 0.6,
                    usr: busy - 0.3,
                    nice: 0.0,
                    io: 0.0,
                    irq: 0.1,
                    steal: 0.0,
                }),
                temp_c: Some(self.temp),
                rpi: None,
            });
            t += interval * 1000;
        }
        Phase {
            kind: kind.into(),
            title: title.into(),
            cluster,
            cpus,
            threads,
            status: PhaseStatus::Done,
            reason: None,
            started: iso(start),
            finished: iso(end),
            started_unix_ms: start,
            finished_unix_ms: end,
            monitor_interval_s: interval as f64,
            samples,
            ..Phase::default()
        }
    }

    fn push(&mut self, mut p: Phase, rows: Vec<Measurement>) {
        let first = self.doc.measurements.len();
        self.doc.measurements.extend(rows);
        p.measurements = (first..self.doc.measurements.len()).collect();
        self.phases.push(p);
    }
}

fn policy_states(m: &MachineInfo, extra_low_seconds: f64, after: bool) -> Vec<PolicyState> {
    let n = m.policies.len();
    m.policies
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let mut opps = p.frequencies_khz.clone();
            if opps.is_empty() {
                opps.extend(p.cpuinfo_max_khz);
            }
            let top = opps.iter().copied().max().unwrap_or(0);
            let time_in_state = opps
                .iter()
                .map(|&khz| {
                    let mut s = if khz == top { 1000.0 } else { 5.0 };
                    if after && khz == top {
                        s += 600.0;
                    }
                    // The last policy spends time one OPP below the top when told so.
                    if after && i + 1 == n && Some(&khz) == opps.iter().rev().nth(1) {
                        s += extra_low_seconds;
                    }
                    OppTime { khz, seconds: s }
                })
                .collect();
            PolicyState {
                policy: p.policy,
                cpus: p.related_cpus.clone(),
                governor: Some(if after { "performance" } else { "schedutil" }.into()),
                cpuinfo_max_khz: p.cpuinfo_max_khz,
                time_in_state,
                ..PolicyState::default()
            }
        })
        .collect()
}

fn snapshot(m: &MachineInfo, ms: u64, f: &Figures, after: bool) -> StateSnapshot {
    let mut swaps = m.memory.swaps.clone();
    for s in &mut swaps {
        s.used_kib = Some(0);
    }
    StateSnapshot {
        taken: iso(ms),
        unix_ms: ms,
        online_cpus: m.cpus.online.clone(),
        policies: policy_states(m, f.throttled_seconds, after),
        swaps,
        zswap: m.memory.zswap.clone(),
        mem_available_kib: m.memory.available_kib,
        oom_kills: Some(0),
        temp_c: Some(if after { 61.5 } else { 40.2 }),
        ..StateSnapshot::default()
    }
}

const SEVENZIP_OUTPUT: &str = "\n7-Zip (a) [64] 16.02 : Copyright (c) 1999-2016 Igor Pavlov : 2016-05-21\np7zip Version 16.02 (locale=C,Utf16=off,HugeFiles=on,64 bits,8 CPUs LE)\n\nAvr:             100   1998  14743  |              100   2510  17120\nTot:             100   2254  15931\n";

/// A complete standard run on `m` with the figures `f`.
pub fn run_doc(m: MachineInfo, f: &Figures) -> ResultDocument {
    let layout = probe::sampler::SamplerConfig::from_machine(&m).layout;
    let clusters: Vec<TestCluster> = m
        .clusters
        .iter()
        .enumerate()
        .filter(|(_, c)| !c.online_cpus().is_empty())
        .map(|(i, c)| {
            let cpus = c.online_cpus();
            let label = match &c.core_name {
                Some(n) => format!("cpu{} ({n})", cpus[0]),
                None => format!("cpu{}", cpus[0]),
            };
            (i, cpus, c.policy, c.max_khz, label)
        })
        .collect();
    let all: Vec<u32> = m.cpus.online.clone();
    let doc = ResultDocument {
        schema_version: document::SCHEMA_VERSION,
        producer: "boardbench 0.1.0".into(),
        device: None,
        started: Some(iso(T0_MS)),
        finished: None,
        machine: Some(m.clone()),
        measurements: Vec::new(),
        findings: f.findings.clone(),
        imported: None,
        run: None,
        guide: None,
        redaction: None,
        analysis: None,
    };
    let mut b = Builder {
        doc,
        now_ms: T0_MS + 2000,
        phases: Vec::new(),
        clusters: clusters.clone(),
        temp: 40.0,
    };
    let before_ms = T0_MS + 1000;

    for (ci, (i, cpus, policy, max, label)) in clusters.iter().enumerate() {
        let p = b.phase(
            kind::CLOCK,
            &format!("clock check on {label}"),
            (Some(*i), vec![cpus[0]]),
            1,
            6,
            12.0,
        );
        let mhz = max.map_or(2000.0, |k| k as f64 / 1000.0) * f.clock_factor;
        let mut p = p;
        p.clock = vec![reading(cpus[0], *policy, *max, mhz)];
        let r = row(
            "clock",
            &format!("cpu{}", cpus[0]),
            1,
            &[cpus[0]],
            mhz,
            "MHz",
        );
        b.push(p, vec![r]);
        let _ = ci;
    }
    for (ci, (i, cpus, _, _, label)) in clusters.iter().enumerate() {
        let (Some(&cp), Some(&st)) = (f.memcpy.get(ci), f.memset.get(ci)) else {
            continue;
        };
        let mut p = b.phase(
            kind::MEMBW,
            &format!("memory bandwidth on {label}"),
            (Some(*i), vec![cpus[0]]),
            1,
            20,
            12.0,
        );
        let test = |name: &str, kind: BwKind, v: f64| BwTest {
            name: name.into(),
            kind,
            headline: true,
            samples_mb_s: vec![v - 3.0, v, v - 1.0],
            best_mb_s: v,
            median_mb_s: v - 1.0,
            spread_pct: Some(0.04),
            calls_per_sample: 8,
            descheduled_retries: 0,
            disturbed: false,
        };
        p.membw = Some(MembwResult {
            cpus: vec![cpus[0]],
            mode: "quick".into(),
            buffer_bytes: 32 << 20,
            tests: vec![
                test("libc memcpy copy", BwKind::Copy, cp),
                test("libc memset fill", BwKind::Fill, st),
            ],
            best_copy: Some("libc memcpy copy".into()),
            best_fill: Some("libc memset fill".into()),
            best_read: None,
            aggregate: vec![],
            single_wall_s: 10.0,
            aggregate_wall_s: 0.0,
        });
        let rows = vec![
            row("membw", "libc memcpy copy", 1, &[cpus[0]], cp, "MB/s"),
            row("membw", "libc memset fill", 1, &[cpus[0]], st, "MB/s"),
        ];
        b.push(p, rows);
    }
    for (ci, (i, cpus, _, _, label)) in clusters.iter().enumerate() {
        let title = format!("OpenSSL AES on {label}");
        let mut p = b.phase(
            kind::OPENSSL,
            &title,
            (Some(*i), vec![cpus[0]]),
            1,
            18,
            12.0,
        );
        let Some(&aes) = f.aes.get(ci) else {
            p.status = PhaseStatus::Skipped;
            p.reason = Some("openssl not found on PATH".into());
            p.samples.clear();
            b.push(p, vec![]);
            continue;
        };
        p.tool_runs = vec![ToolRun {
            tool: "OpenSSL".into(),
            program: "/usr/bin/openssl".into(),
            version: Some("OpenSSL 3.0.15".into()),
            comparable_with_sbc_bench: None,
            command: format!(
                "taskset -c {} openssl speed -elapsed -evp aes-256-cbc",
                cpus[0]
            ),
            end: "exit 0".into(),
            output: format!(
                "\u{1b}[1mversion\u{1b}[0m: 3.0.15\r\ntype             16 bytes     64 bytes    256 bytes   1024 bytes   8192 bytes  16384 bytes\naes-256-cbc     158217.97k   403952.17k   668465.32k   796344.32k   844070.91k {aes:>11.2}k\n"
            ),
            wall_s: 18.0,
        }];
        b.push(
            p,
            vec![row(
                "openssl",
                "aes-256-cbc 16384",
                1,
                &[cpus[0]],
                aes,
                "kB/s",
            )],
        );
    }
    for (ci, (i, cpus, _, _, label)) in clusters.iter().enumerate() {
        let mut p = b.phase(
            kind::SHA256,
            &format!("recursive SHA-256 on {label}"),
            (Some(*i), vec![cpus[0]]),
            1,
            6,
            12.0,
        );
        let mhs = 1.5 + ci as f64;
        let result = |role: &str, backend: Sha256Backend, mhs: f64| Sha256Result {
            role: role.into(),
            backend,
            samples: vec![],
            mhs,
            spread_pct: None,
            mhs_per_100mhz: Some(mhs / 18.0),
            cycles_per_hash: Some(1200.0 / mhs),
            verified: true,
            disturbed: false,
        };
        p.sha256 = Some(Sha256Report {
            iterations: 100_000_000,
            cpu: Some(cpus[0]),
            clock_mhz: Some(1800.0),
            clock_source: Some("measured".into()),
            clock_before_mhz: Some(1800.0),
            clock_after_mhz: Some(1799.0),
            fast: Some(result("Fast", Sha256Backend::Armv8Sha2, mhs)),
            reference: result("Reference", Sha256Backend::Portable, mhs / 10.0),
            portable: None,
        });
        b.push(
            p,
            vec![row("sha256", "recursive", 1, &[cpus[0]], mhs, "MH/s")],
        );
    }
    let seven = |threads: u32, cpus: &str| ToolRun {
        tool: "7-Zip".into(),
        program: "/usr/bin/7z".into(),
        version: Some("16.02".into()),
        comparable_with_sbc_bench: Some(true),
        command: format!("taskset -c {cpus} 7z b -mmt{threads}"),
        end: "exit 0".into(),
        output: SEVENZIP_OUTPUT.into(),
        wall_s: 40.0,
    };
    for (ci, (i, cpus, _, _, label)) in clusters.iter().enumerate() {
        let Some(&rating) = f.zip_single.get(ci) else {
            continue;
        };
        let mut p = b.phase(
            kind::SEVENZIP_SINGLE,
            &format!("7-Zip single-threaded on {label}"),
            (Some(*i), vec![cpus[0]]),
            1,
            40,
            12.0,
        );
        p.tool_runs = vec![seven(1, &cpus[0].to_string())];
        b.push(
            p,
            vec![row("7zip", "total rating", 1, &[cpus[0]], rating, "MIPS")],
        );
    }
    let n = all.len() as u32;
    for (k, &rating) in f.zip_multi_runs.iter().enumerate() {
        let title = format!("7-Zip multi-threaded on all {n} cores (run {} of 3)", k + 1);
        let mut p = b.phase(kind::SEVENZIP_MULTI, &title, (None, vec![]), n, 40, 97.0);
        p.tool_runs = vec![seven(n, "all")];
        b.push(
            p,
            vec![
                row("7zip", "compress rating", n, &[], rating - 1000.0, "MIPS"),
                row("7zip", "decompress rating", n, &[], rating + 1000.0, "MIPS"),
                row("7zip", "total rating", n, &[], rating, "MIPS"),
            ],
        );
    }
    if !f.zip_multi_runs.is_empty() {
        let avg = f.zip_multi_runs.iter().sum::<f64>() / f.zip_multi_runs.len() as f64;
        let r = row("7zip", "multi", n, &[], avg, "MIPS");
        b.doc.measurements.push(r);
        let idx = b.doc.measurements.len() - 1;
        if let Some(p) = b
            .phases
            .iter_mut()
            .rev()
            .find(|p| p.kind == kind::SEVENZIP_MULTI)
        {
            p.measurements.push(idx);
        }
    }
    if let Some(best) = f.zip_single.iter().copied().reduce(f64::max) {
        b.doc
            .measurements
            .push(row("7zip", "single", 1, &[], best, "MIPS"));
    }
    if let Some(khs) = f.khs {
        let mut p = b.phase(
            kind::CPUMINER,
            &format!("cpuminer on all {n} cores"),
            (None, vec![]),
            n,
            30,
            99.0,
        );
        p.tool_runs = vec![ToolRun {
            tool: "cpuminer".into(),
            program: "/usr/local/bin/cpuminer".into(),
            version: Some("cpuminer-multi 1.3.7".into()),
            comparable_with_sbc_bench: None,
            command: "cpuminer --benchmark --cpu-priority=2".into(),
            end: "time limit".into(),
            output: format!("\u{1b}[32m[2026-11-23 12:30:00] Total: {khs:.2} kH/s\u{1b}[0m\n"),
            wall_s: 30.0,
        }];
        b.push(p, vec![row("cpuminer", "total score", n, &[], khs, "kH/s")]);
    }
    for (i, cpus, policy, max, label) in &clusters {
        let mut p = b.phase(
            kind::CLOCK_HOT,
            &format!("clock check again (hot) on {label}"),
            (Some(*i), vec![cpus[0]]),
            1,
            2,
            12.0,
        );
        let mhz = max.map_or(2000.0, |k| k as f64 / 1000.0) * f.hot_factor;
        p.clock = vec![reading(cpus[0], *policy, *max, mhz)];
        let r = row(
            "clock-hot",
            &format!("cpu{}", cpus[0]),
            1,
            &[cpus[0]],
            mhz,
            "MHz",
        );
        b.push(p, vec![r]);
    }
    let after_ms = b.now_ms;
    let settings = m
        .policies
        .iter()
        .map(|p| SettingChange {
            path: format!(
                "/sys/devices/system/cpu/cpufreq/policy{}/scaling_governor",
                p.policy
            ),
            before: "schedutil".into(),
            set: "performance".into(),
            after: Some("schedutil".into()),
        })
        .collect();
    b.doc.finished = Some(iso(after_ms + 500));
    b.doc.run = Some(RunRecord {
        comparability: Vec::new(),
        profile: "standard".into(),
        options: RunOptions {
            unattended: true,
            tune: true,
            invoked_as: "boardbench".into(),
            args: vec!["run".into(), "--unattended".into()],
            ..RunOptions::default()
        },
        idle_gate: Some(document::run::IdleGate {
            passed: true,
            waited_s: 30.0,
            load1_below: 0.1,
            cpu_pct_below: 2.5,
            window_s: 30.0,
            load1: Some(0.04),
            cpu_pct: Some(0.8),
            reason: "load 0.04 < 0.10".into(),
            top_processes: vec![],
        }),
        settings,
        monitor: Some(layout),
        phases: b.phases,
        before: Some(snapshot(&m, before_ms, f, false)),
        after: Some(snapshot(&m, after_ms, f, true)),
        kmsg: Some(KmsgWindow {
            source: "/dev/kmsg".into(),
            lines: vec![
                KmsgLine {
                    seconds: 611.341263,
                    level: Some(6),
                    text: "boardbench run started".into(),
                },
                KmsgLine {
                    seconds: 1627.5,
                    level: Some(4),
                    text: "hwmon hwmon1: Undervoltage detected!".into(),
                },
            ],
            note: None,
        }),
        duration_s: (after_ms - T0_MS) as f64 / 1000.0,
        kernel: None,
        thermal: None,
    });
    b.doc
}

/// The cells of a summary row.
pub fn cells(line: &str) -> Vec<String> {
    line.trim()
        .trim_matches('|')
        .split('|')
        .map(|c| c.trim().to_string())
        .collect()
}
