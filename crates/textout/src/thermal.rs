//! `boardbench thermal`'s report, a pure function of the thermal run's document: the figures
//! are its measurements (suite "thermal"), the temperatures and clocks its heat phase's samples,
//! the verdict (stability, the first throttled sample, time below the top clock) its
//! `run.thermal` record ([`ThermalVerdict`]). So a stored thermal run renders the same report
//! again; one written before the verdict was recorded renders without the verdict's lines.

use std::fmt::Write as _;

use document::ResultDocument;
use document::run::kind;
use document::samples::MonitorSample;
use document::thermal::{
    FALLING_PCT_PER_MIN, MIN_INTERVALS, MIN_WINDOW_S, SIGNIFICANCE, Stability, ThermalVerdict,
};

/// The suite of the thermal test's measurements.
pub const SUITE: &str = "thermal";

/// The value of the thermal figure `test` (the first one).
fn figure<'a>(doc: &'a ResultDocument, test: &str) -> Option<&'a document::Measurement> {
    doc.measurements
        .iter()
        .find(|m| m.suite == SUITE && m.test == test)
}

/// Whether any clock or temperature was read at all (a VM has neither).
fn has_readings(samples: &[MonitorSample]) -> (bool, bool) {
    let clocks = samples
        .iter()
        .any(|s| s.clocks_mhz.iter().any(Option::is_some));
    let temps = samples.iter().any(|s| s.temp_c.is_some());
    (clocks, temps)
}

/// The text report (printed, and appended to `--log`).
pub fn report(doc: &ResultDocument) -> String {
    let run = doc.run.as_ref();
    let verdict = run.and_then(|r| r.thermal.clone()).unwrap_or_default();
    let v: &ThermalVerdict = &verdict;
    let samples: &[MonitorSample] = run
        .and_then(|r| r.phases.iter().find(|p| p.kind == kind::THERMAL_HEAT))
        .map_or(&[], |p| p.samples.as_slice());
    let clusters = run
        .and_then(|r| r.monitor.as_ref())
        .map_or(&[][..], |m| m.clusters.as_slice());
    let tune = run.is_some_and(|r| r.options.tune);
    let (has_clocks, has_temps) = has_readings(samples);

    let mut r = String::new();
    let _ = writeln!(
        r,
        "Thermal test: {:.0} s of load, a sample every {:.1} s",
        v.load_s, v.interval_s
    );
    if !has_clocks && !has_temps {
        r.push_str("  No clock/temperature readings on this machine (no cpufreq, no thermal sensor): throttling cannot be seen directly; only the score tells.\n");
    } else {
        if !has_temps {
            r.push_str("  No temperature readings on this machine.\n");
        }
        if !has_clocks {
            r.push_str("  No clock readings on this machine.\n");
        }
    }
    if has_temps {
        let first = samples.iter().find_map(|s| s.temp_c);
        let last = samples.iter().rev().find_map(|s| s.temp_c);
        let peak = samples
            .iter()
            .filter_map(|s| s.temp_c)
            .fold(None, |m: Option<f64>, t| Some(m.map_or(t, |m| m.max(t))));
        if let (Some(a), Some(b), Some(p)) = (first, last, peak) {
            let _ = writeln!(
                r,
                "  Temperature: {a:.1} °C at start, {p:.1} °C peak, {b:.1} °C at the end"
            );
        }
    }
    if has_clocks {
        match &v.throttle {
            Some(th) => {
                let name = clusters
                    .get(th.cluster)
                    .map_or(String::new(), |c| format!("cpu{} ", c.first_cpu));
                let _ = writeln!(
                    r,
                    "  Throttling after {:.0} s: {name}at {} MHz instead of {} MHz{}",
                    th.after_s,
                    th.mhz,
                    th.ceiling_mhz,
                    th.temp_c
                        .map_or(String::new(), |c| format!(", at {c:.1} °C"))
                );
            }
            None => r.push_str("  No throttling: every clock stayed at its ceiling.\n"),
        }
        if !tune {
            r.push_str("  (Governors were not set to performance: lower clocks need not mean throttling.)\n");
        }
        let sc: Vec<String> = doc
            .measurements
            .iter()
            .filter(|m| m.suite == SUITE && m.test == "sustained clock")
            .filter_map(|m| {
                m.variant
                    .as_ref()
                    .map(|cpu| format!("{cpu} {:.0} MHz", m.value))
            })
            .collect();
        if !sc.is_empty() {
            let _ = writeln!(r, "  Sustained clock (last third): {}", sc.join(", "));
        }
    }
    for b in &v.below_max {
        let _ = writeln!(
            r,
            "  policy{} spent {:.1} s below its top clock (time_in_state)",
            b.policy, b.seconds
        );
    }
    let initial = figure(doc, "initial score");
    let sustained = figure(doc, "sustained score");
    if v.external_load {
        r.push_str("  External load: no score.\n");
    } else if let (Some(i), Some(s)) = (initial, sustained) {
        let drop = figure(doc, "score drop").map_or(0.0, |m| m.value);
        let _ = writeln!(
            r,
            "  Score: {:.2} MH/s at first, {:.2} MH/s sustained (last third, ±{:.1} %), {:+.1} %",
            i.value,
            s.value,
            s.spread_pct.unwrap_or(0.0),
            -drop
        );
        let slope = |v: Option<f64>| v.map_or("n/a".into(), |v| format!("{v:+.1} %/min"));
        r.push_str(&match v.stability {
            Stability::TooShort => format!(
                "  Too short to say whether it stabilises ({} intervals; the last third needs {} s and the test {} intervals).\n",
                v.score_intervals, MIN_WINDOW_S, MIN_INTERVALS
            ),
            Stability::Stable => format!(
                "  Stable: no significant fall over the last third (slope {}, first third {}; \"keeps falling\" needs a slope below −{:.1} %/min by more than {:.0} standard errors)\n",
                slope(v.last_slope_pct_per_min),
                slope(v.first_slope_pct_per_min),
                FALLING_PCT_PER_MIN,
                SIGNIFICANCE
            ),
            Stability::KeepsFalling => format!(
                "  Keeps falling: the score's slope over the last third is {} (first third {}){}\n",
                slope(v.last_slope_pct_per_min),
                slope(v.first_slope_pct_per_min),
                if has_clocks || has_temps {
                    ": a longer test or better cooling is needed"
                } else {
                    ": without clock or temperature readings the cause may be other load, not heat"
                }
            ),
        });
    }
    for f in &doc.findings {
        let _ = writeln!(r, "  {}", document::text::finding_line(f));
    }
    r
}

/// The line printed every interval while `thermal` runs: seconds since the start,
/// temperature, each cluster's clock, CPU use, and the load's score of the interval (MH/s)
/// when there is one. `n/a` for what was not read.
pub fn live_line(t: f64, s: &MonitorSample, score: Option<f64>) -> String {
    let temp = s.temp_c.map_or("  n/a".into(), |t| format!("{t:5.1}"));
    let clocks: Vec<String> = s
        .clocks_mhz
        .iter()
        .map(|c| c.map_or("n/a".into(), |m| m.to_string()))
        .collect();
    let clocks = if clocks.is_empty() {
        "n/a".to_string()
    } else {
        clocks.join("/")
    };
    let cpu = s.cpu.map_or("n/a".into(), |c| format!("{:.0} %", c.cpu));
    let score = score.map_or(String::new(), |v| format!("  {:.2} MH/s", v / 1e6));
    format!("{t:6.1} s  {temp} °C  {clocks} MHz  CPU {cpu}{score}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use document::run::{Phase, RunRecord};
    use document::samples::{ClockColumns, MonitorLayout, MonitoredCluster};
    use document::thermal::{Throttle, TimeBelowMax};
    use document::{Measurement, SCHEMA_VERSION};

    fn sample(ms: u64, mhz: Option<u32>, temp: Option<f64>) -> MonitorSample {
        MonitorSample {
            unix_ms: ms,
            interval_s: 2.0,
            clocks_mhz: vec![mhz],
            load1: None,
            cpu: None,
            temp_c: temp,
            rpi: None,
        }
    }

    #[test]
    fn the_live_line_shows_what_was_read_and_n_a_for_the_rest() {
        let mut s = sample(0, Some(1800), Some(61.04));
        s.clocks_mhz.push(None);
        s.cpu = Some(document::samples::CpuStates {
            cpu: 99.6,
            ..Default::default()
        });
        assert_eq!(
            live_line(12.0, &s, Some(11_504_000.0)),
            "  12.0 s   61.0 °C  1800/n/a MHz  CPU 100 %  11.50 MH/s"
        );
        assert_eq!(
            live_line(2.5, &sample(0, None, None), None),
            "   2.5 s    n/a °C  n/a MHz  CPU n/a"
        );
        let mut none = sample(0, None, None);
        none.clocks_mhz.clear();
        assert_eq!(
            live_line(0.0, &none, None),
            "   0.0 s    n/a °C  n/a MHz  CPU n/a"
        );
    }

    /// A stored thermal run: heat phase samples, the figures and the verdict.
    fn stored(verdict: Option<ThermalVerdict>, samples: Vec<MonitorSample>) -> ResultDocument {
        let thermal = |test: &str, v: f64, unit: &str| Measurement::new(SUITE, test, 4, v, unit);
        let mut sustained = thermal("sustained score", 11.5, "MH/s");
        sustained.spread_pct = Some(0.42);
        ResultDocument {
            schema_version: SCHEMA_VERSION,
            producer: "boardbench test".into(),
            device: None,
            started: None,
            finished: None,
            machine: None,
            measurements: vec![
                thermal("initial score", 12.0, "MH/s"),
                sustained,
                thermal("score drop", 4.1667, "%"),
                thermal("sustained clock", 1800.0, "MHz").with_variant("cpu4"),
            ],
            findings: Vec::new(),
            imported: None,
            run: Some(RunRecord {
                profile: "thermal".into(),
                options: document::run::RunOptions {
                    tune: true,
                    ..Default::default()
                },
                monitor: Some(MonitorLayout {
                    columns: ClockColumns::Single,
                    clusters: vec![MonitoredCluster {
                        first_cpu: 4,
                        policy: Some(4),
                        max_khz: Some(2_256_000),
                    }],
                    display_order: vec![0],
                    thermal_path: None,
                    raspberry_pi: false,
                }),
                phases: vec![Phase {
                    kind: kind::THERMAL_HEAT.into(),
                    samples,
                    ..Phase::default()
                }],
                thermal: verdict,
                ..RunRecord::default()
            }),
            guide: None,
            redaction: None,
            analysis: None,
        }
    }

    #[test]
    fn a_stored_run_renders_its_report_from_the_document() {
        let verdict = ThermalVerdict {
            load_s: 300.0,
            interval_s: 2.0,
            external_load: false,
            score_intervals: 150,
            stability: Stability::Stable,
            first_slope_pct_per_min: Some(-3.0),
            last_slope_pct_per_min: Some(-0.2),
            throttle: Some(Throttle {
                sample: 1,
                after_s: 42.0,
                cluster: 0,
                mhz: 1608,
                ceiling_mhz: 2256,
                temp_c: Some(85.0),
            }),
            below_max: vec![TimeBelowMax {
                policy: 4,
                seconds: 121.25,
            }],
        };
        let samples = vec![
            sample(0, Some(2256), Some(41.5)),
            sample(42_000, Some(1608), Some(85.0)),
            sample(300_000, Some(1800), Some(84.0)),
        ];
        assert_eq!(
            report(&stored(Some(verdict), samples)),
            "Thermal test: 300 s of load, a sample every 2.0 s\n\
             \x20 Temperature: 41.5 °C at start, 85.0 °C peak, 84.0 °C at the end\n\
             \x20 Throttling after 42 s: cpu4 at 1608 MHz instead of 2256 MHz, at 85.0 °C\n\
             \x20 Sustained clock (last third): cpu4 1800 MHz\n\
             \x20 policy4 spent 121.2 s below its top clock (time_in_state)\n\
             \x20 Score: 12.00 MH/s at first, 11.50 MH/s sustained (last third, ±0.4 %), -4.2 %\n\
             \x20 Stable: no significant fall over the last third (slope -0.2 %/min, first third -3.0 %/min; \"keeps falling\" needs a slope below −1.0 %/min by more than 2 standard errors)\n"
        );
    }

    #[test]
    fn readings_are_clocks_and_temperatures_seen_at_all() {
        let s = [sample(0, None, None), sample(1, Some(1800), None)];
        assert_eq!(has_readings(&s), (true, false));
        assert_eq!(has_readings(&[sample(0, None, Some(40.0))]), (false, true));
        assert_eq!(has_readings(&[]), (false, false));
    }

    #[test]
    fn without_readings_or_a_verdict_it_says_what_it_cannot_tell() {
        let r = report(&stored(None, vec![sample(0, None, None)]));
        assert!(
            r.contains("No clock/temperature readings on this machine"),
            "{r}"
        );
        // No verdict recorded (an older document): too short, no throttling lines.
        assert!(
            r.contains("Too short to say whether it stabilises (0 intervals"),
            "{r}"
        );
        assert!(!r.contains("Throttling"), "{r}");
    }
}
