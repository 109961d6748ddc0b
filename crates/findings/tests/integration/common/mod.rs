//! Builders for result documents of `boardbench run`, shared by the findings tests.
//!
//! [`clean_run`] is a run on a quiet 4-core ARM board (one cpufreq policy, 408–1800 MHz) that
//! deserves no finding at all: tuned governors, time_in_state grown only at the top OPP (plus
//! what the clock check's OPP walk explains), no swap growth, no OOM, samples at exactly one
//! busy core in single-threaded phases, steady 7-Zip scores. Each test changes one thing.
#![allow(dead_code)]

use document::machine::{CpuSets, MachineInfo, SwapArea, SwapKind};
use document::measure::clock::ClockReading;
use document::run::{
    KmsgLine, KmsgWindow, OppTime, Phase, PhaseStatus, PolicyState, RunOptions, RunRecord,
    StateSnapshot, ToolRun, kind,
};
use document::samples::{CpuStates, MonitorSample};
use document::{Finding, Measurement, ResultDocument, SCHEMA_VERSION, Severity};
use findings::analyse;

/// Start of the run (ms since the epoch) and the length of each phase.
pub const T0: u64 = 1_763_900_000_000;
pub const PHASE_MS: u64 = 60_000;
pub const OPPS_KHZ: [u64; 4] = [408_000, 1_008_000, 1_416_000, 1_800_000];

pub fn sample(cpu: f64, sys: f64) -> MonitorSample {
    MonitorSample {
        unix_ms: T0,
        interval_s: 5.0,
        clocks_mhz: vec![Some(1800)],
        load1: Some(1.0),
        cpu: Some(CpuStates {
            cpu,
            sys,
            usr: (cpu - sys).max(0.0),
            ..CpuStates::default()
        }),
        temp_c: Some(50.0),
        rpi: None,
    }
}

pub fn reading(cpu: u32, opp_khz: Option<u64>, mhz: f64) -> ClockReading {
    ClockReading {
        cpu,
        policy: Some(0),
        opp_khz,
        samples: Vec::new(),
        mhz,
        best_mhz: mhz,
        spread_pct: Some(0.1),
        deviation_pct: None,
        disturbed: false,
    }
}

/// A finished phase, the `index`-th of the run (its timestamps follow from it).
pub fn phase(index: u64, kind: &str, threads: u32, samples: Vec<MonitorSample>) -> Phase {
    let start = T0 + index * PHASE_MS;
    Phase {
        kind: kind.to_string(),
        title: kind.to_string(),
        threads,
        status: PhaseStatus::Done,
        started: String::new(),
        finished: String::new(),
        started_unix_ms: start,
        finished_unix_ms: start + PHASE_MS,
        monitor_interval_s: 5.0,
        samples,
        ..Phase::default()
    }
}

/// Samples of a single-threaded phase on 4 CPUs: the first one covers the tool's start.
pub fn single_threaded_samples() -> Vec<MonitorSample> {
    let mut v = vec![sample(40.0, 3.0)];
    v.extend((0..8).map(|_| sample(25.2, 0.2)));
    v
}

pub fn times(rows: &[(u64, f64)]) -> Vec<OppTime> {
    rows.iter()
        .map(|&(khz, seconds)| OppTime { khz, seconds })
        .collect()
}

pub fn policy(governor: &str, tis: Vec<OppTime>) -> PolicyState {
    PolicyState {
        policy: 0,
        cpus: vec![0, 1, 2, 3],
        governor: Some(governor.to_string()),
        scaling_min_khz: Some(408_000),
        scaling_max_khz: Some(1_800_000),
        cpuinfo_max_khz: Some(1_800_000),
        cur_khz: Some(1_800_000),
        time_in_state: tis,
        total_trans: Some(10),
    }
}

pub fn swap(path: &str, kind: SwapKind, used_kib: u64) -> SwapArea {
    SwapArea {
        path: path.to_string(),
        kind,
        size_kib: Some(1_048_576),
        used_kib: Some(used_kib),
        priority: Some(5),
    }
}

pub fn snapshot(unix_ms: u64, tis: Vec<OppTime>) -> StateSnapshot {
    StateSnapshot {
        taken: String::new(),
        unix_ms,
        online_cpus: vec![0, 1, 2, 3],
        policies: vec![policy("performance", tis)],
        swaps: vec![swap("/dev/zram0", SwapKind::Zram, 1024)],
        oom_kills: Some(0),
        temp_c: Some(45.0),
        ..StateSnapshot::default()
    }
}

/// 7-Zip run record: the rating lives in the document's measurements (the fallback path).
pub fn sevenzip_tool_run(comparable: bool) -> ToolRun {
    ToolRun {
        tool: "7-Zip".into(),
        program: "/usr/bin/7z".into(),
        version: Some(if comparable { "16.02" } else { "26.02" }.into()),
        comparable_with_sbc_bench: Some(comparable),
        command: "7z b".into(),
        end: "exit 0".into(),
        output: String::new(),
        wall_s: 20.0,
    }
}

pub fn rating(value: f64) -> Measurement {
    Measurement {
        suite: "7zip".into(),
        test: "total rating".into(),
        variant: None,
        threads: 4,
        cpus: Vec::new(),
        value,
        unit: "MIPS".into(),
        higher_is_better: true,
        spread_pct: None,
    }
}

pub fn machine() -> MachineInfo {
    MachineInfo {
        cpus: CpuSets {
            possible: vec![0, 1, 2, 3],
            present: vec![0, 1, 2, 3],
            online: vec![0, 1, 2, 3],
            offline: Vec::new(),
        },
        ..MachineInfo::default()
    }
}

/// The clean run (see the module docs).
pub fn clean_run() -> ResultDocument {
    // Clock check (phase 0): OPP walk over four OPPs, every clock within 1 % of its OPP.
    let mut clock = phase(0, kind::CLOCK, 1, Vec::new());
    clock.clock = OPPS_KHZ
        .iter()
        .rev()
        .map(|&k| reading(0, Some(k), k as f64 / 1000.0 * 0.995))
        .collect();
    let membw = phase(1, kind::MEMBW, 1, single_threaded_samples());
    let single = phase(2, kind::SEVENZIP_SINGLE, 1, single_threaded_samples());
    let mut multi = phase(3, kind::SEVENZIP_MULTI, 4, vec![sample(99.0, 0.5); 10]);
    multi.tool_runs = vec![sevenzip_tool_run(true); 3];
    multi.measurements = vec![0, 1, 2];
    let mut hot = phase(4, kind::CLOCK_HOT, 1, Vec::new());
    hot.clock = vec![reading(0, Some(1_800_000), 1_792.0)];

    // Before: right before the clock check; after: right after the hot clock check. The walk
    // left 1.5 s on each lower OPP, well within its allowance (60 s / 4 readings × 2 + 1 s).
    let before = snapshot(
        T0,
        times(&[
            (408_000, 100.0),
            (1_008_000, 5.0),
            (1_416_000, 5.0),
            (1_800_000, 50.0),
        ]),
    );
    let after = snapshot(
        T0 + 5 * PHASE_MS,
        times(&[
            (408_000, 101.5),
            (1_008_000, 6.5),
            (1_416_000, 6.5),
            (1_800_000, 345.5),
        ]),
    );
    let run = RunRecord {
        comparability: Vec::new(),
        profile: "standard".into(),
        options: RunOptions {
            tune: true,
            ..RunOptions::default()
        },
        phases: vec![clock, membw, single, multi, hot],
        before: Some(before),
        after: Some(after),
        kmsg: Some(KmsgWindow {
            source: "/dev/kmsg".into(),
            lines: vec![kmsg("sbc-bench started")],
            note: None,
        }),
        duration_s: 300.0,
        ..RunRecord::default()
    };
    ResultDocument {
        schema_version: SCHEMA_VERSION,
        producer: "boardbench test".into(),
        device: Some("Test board".into()),
        started: None,
        finished: None,
        machine: Some(machine()),
        measurements: vec![rating(5000.0), rating(5020.0), rating(4990.0)],
        findings: Vec::new(),
        imported: None,
        run: Some(run),
        guide: None,
        redaction: None,
        analysis: None,
    }
}

pub fn kmsg(text: &str) -> KmsgLine {
    KmsgLine {
        seconds: 100.0,
        level: Some(4),
        text: text.to_string(),
    }
}

/// The run record of a document built here.
pub fn run_mut(doc: &mut ResultDocument) -> &mut RunRecord {
    doc.run.as_mut().expect("a run document")
}

pub fn before_mut(doc: &mut ResultDocument) -> &mut StateSnapshot {
    run_mut(doc).before.as_mut().expect("before snapshot")
}

pub fn after_mut(doc: &mut ResultDocument) -> &mut StateSnapshot {
    run_mut(doc).after.as_mut().expect("after snapshot")
}

pub fn phase_mut<'a>(doc: &'a mut ResultDocument, kind: &str) -> &'a mut Phase {
    run_mut(doc)
        .phases
        .iter_mut()
        .find(|p| p.kind == kind)
        .expect("phase of that kind")
}

/// The findings of one kind.
pub fn of_kind(doc: &ResultDocument, kind: &str) -> Vec<Finding> {
    analyse(doc)
        .into_iter()
        .filter(|f| f.kind == kind)
        .collect()
}

/// The one finding of a kind, with its severity checked.
pub fn one(doc: &ResultDocument, kind: &str, severity: Severity) -> Finding {
    let all = analyse(doc);
    let hits: Vec<&Finding> = all.iter().filter(|f| f.kind == kind).collect();
    assert_eq!(hits.len(), 1, "expected one {kind} finding, got {all:#?}");
    assert_eq!(hits[0].severity, severity, "{:#?}", hits[0]);
    hits[0].clone()
}
