//! sbc-bench's monitor lines (`-m` output and the log's "System health while running …" tables),
//! rendered from recorded [`MonitorSample`]s.
//!
//! The same column layout as the live view of the binary (`crates/boardbench/src/live_view.rs`),
//! byte for byte: a library cannot use the binary's modules, so the layout lives here too and a
//! test pins both to the same golden lines. Clock values are four wide with "MHz" once, load five
//! wide, integer percentages (truncated, as sbc-bench) three wide, temperature six wide with one
//! decimal; absent values keep the columns aligned.

use std::fmt::Write;

use chrono::TimeZone;
use document::samples::{ClockColumns, MonitorLayout, MonitorSample};

/// Columns after the clock, as sbc-bench spells them (its header is not aligned over `%nice`).
const TAIL: &str = "  load %cpu %sys %usr %nice %io %irq   Temp";

/// Width of the clock field of a line with `n` clock values: "1800/1400MHz".
fn clock_width(n: usize) -> usize {
    (5 * n + 2).max(3)
}

/// The column header: "Time        CPU    load %cpu …", "Time       big.LITTLE   load …".
pub fn header(layout: &MonitorLayout) -> String {
    let label = match layout.columns {
        ClockColumns::None => "CPU n/a  ".to_string(),
        ClockColumns::Single => "  CPU  ".to_string(),
        ClockColumns::BigLittle => " big.LITTLE ".to_string(),
        ClockColumns::FakeReal => "  fake/real ".to_string(),
        ClockColumns::PerCluster => {
            let names: Vec<String> = layout
                .display_order
                .iter()
                .filter_map(|&i| layout.clusters.get(i))
                .map(|c| format!("cpu{}", c.first_cpu))
                .collect();
            let names = names.join("/");
            let width = clock_width(layout.display_order.len());
            // One space before, the rest after (as sbc-bench's "cpu0/cpu4/cpu6" header).
            format!(" {names:<w$}", w = width.saturating_sub(1))
        }
    };
    let mut h = format!("Time      {label}{TAIL}");
    if layout.raspberry_pi {
        h.push_str("    VCore");
    }
    h
}

fn push_mhz(out: &mut String, v: Option<u32>) {
    match v {
        Some(m) => {
            let _ = write!(out, "{m:>4}");
        }
        None => out.push_str(" ---"),
    }
}

/// A percentage as sbc-bench shows it: truncated to an integer. The tiny epsilon keeps exact
/// values that came out as 29.999999… in floating point at 30.
fn pct(v: f64) -> i64 {
    if v.is_finite() {
        (v + 1e-9).floor() as i64
    } else {
        0
    }
}

/// One monitor line (no newline); `tz` gives the wall-clock time zone.
pub fn line<Tz: TimeZone>(layout: &MonitorLayout, s: &MonitorSample, tz: &Tz) -> String
where
    Tz::Offset: std::fmt::Display,
{
    let mut out = String::with_capacity(96);
    let t = i64::try_from(s.unix_ms)
        .ok()
        .and_then(|ms| tz.timestamp_millis_opt(ms).single());
    match t {
        Some(t) => {
            let _ = write!(out, "{}: ", t.format("%H:%M:%S"));
        }
        None => out.push_str("--:--:--: "),
    }
    let clock = |i: usize| s.clocks_mhz.get(i).copied().flatten();
    match layout.columns {
        ClockColumns::None => out.push_str("  ---    "),
        ClockColumns::FakeReal => {
            push_mhz(
                &mut out,
                layout.display_order.first().and_then(|&i| clock(i)),
            );
            out.push('/');
            push_mhz(&mut out, s.rpi.and_then(|r| r.arm_mhz));
            out.push_str("MHz");
        }
        _ => {
            for (k, &i) in layout.display_order.iter().enumerate() {
                if k > 0 {
                    out.push('/');
                }
                push_mhz(&mut out, clock(i));
            }
            out.push_str("MHz");
        }
    }
    match s.load1.filter(|l| l.is_finite()) {
        Some(l) => {
            let _ = write!(out, " {l:>5.2}");
        }
        None => out.push_str("    --"),
    }
    match &s.cpu {
        Some(c) => {
            for v in [c.cpu, c.sys, c.usr, c.nice, c.io, c.irq] {
                let _ = write!(out, " {:>3}%", pct(v));
            }
        }
        None => out.push_str("  --%  --%  --%  --%  --%  --%"),
    }
    match s.temp_c.filter(|t| t.is_finite()) {
        Some(t) => {
            let _ = write!(out, "{t:>6.1}°C");
        }
        None => out.push_str("    --°C"),
    }
    if layout.raspberry_pi {
        match s.rpi.and_then(|r| r.core_volts).filter(|v| v.is_finite()) {
            Some(v) => {
                let _ = write!(out, "  {v:.4}V");
            }
            None => out.push_str("       --"),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::Utc;
    use std::path::Path;

    fn recorded() -> (MonitorLayout, Vec<MonitorSample>) {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../probe/tests/sampler-data");
        let l = std::fs::read_to_string(dir.join("rk3588-layout.json")).unwrap();
        let s = std::fs::read_to_string(dir.join("rk3588-samples.jsonl")).unwrap();
        (
            serde_json::from_str(&l).unwrap(),
            s.lines()
                .map(|x| serde_json::from_str(x).unwrap())
                .collect(),
        )
    }

    /// A recorded sequence (the live `monitor` view prints through these same functions).
    #[test]
    fn recorded_sequence_renders_like_the_live_view() {
        let (l, samples) = recorded();
        let mut out = vec![header(&l)];
        out.extend(samples.iter().map(|s| line(&l, s, &Utc)));
        assert_eq!(
            out.join("\n"),
            "\
Time       cpu0/cpu4/cpu6    load %cpu %sys %usr %nice %io %irq   Temp
12:00:05: 1800/2254/2304MHz  0.61  42%   7%  30%   1%   2%   2%  41.5°C
12:00:10: 1800/ 406/ 408MHz  1.20  52%   2%  50%   0%   0%   0%  44.2°C
12:00:15:  408/ 406/ 408MHz  1.10   0%   0%   0%   0%   0%   0%  40.0°C
12:00:20:  408/ ---/ 408MHz  1.10  --%  --%  --%  --%  --%  --%  40.0°C"
        );
    }

    /// A line of sbc-bench's own log (8ENy.txt, ODROID-M2, three clusters), trailing blanks
    /// aside.
    #[test]
    fn matches_an_sbc_bench_log_line() {
        let (mut l, _) = recorded();
        l.display_order = vec![0, 1, 2];
        let s = MonitorSample {
            unix_ms: (1_749_573_429) * 1000, // 2025-06-10 16:37:09 UTC
            interval_s: 10.0,
            clocks_mhz: vec![Some(1800), Some(2256), Some(2256)],
            load1: Some(6.51),
            cpu: Some(document::samples::CpuStates {
                cpu: 80.4,
                sys: 1.2,
                usr: 78.9,
                nice: 0.0,
                io: 0.0,
                irq: 0.3,
                steal: 0.0,
            }),
            temp_c: Some(53.6),
            rpi: None,
        };
        assert_eq!(
            header(&l),
            "Time       cpu0/cpu4/cpu6    load %cpu %sys %usr %nice %io %irq   Temp"
        );
        assert_eq!(
            line(&l, &s, &Utc),
            "16:37:09: 1800/2256/2256MHz  6.51  80%   1%  78%   0%   0%   0%  53.6°C"
        );
    }
}
