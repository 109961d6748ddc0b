//! One reading of the live monitor as Prometheus metrics (OpenMetrics text), for
//! `boardbench monitor --listen`: what a lab dashboard watches on a board between runs.
//!
//! The caller reads the machine once per scrape and hands the reading here; this module only
//! names and encodes it (with the prometheus-client crate, which writes the OpenMetrics text
//! format Prometheus negotiates). A fresh registry per scrape keeps values that were not read
//! this time out of the answer instead of repeating a stale one.
//!
//! Every value is a gauge of the current state or a counter since boot — never a figure "since
//! the previous scrape", which would depend on who scraped last (two Prometheus servers, or a
//! curl in between, would distort each other's). CPU time is counted per CPU and mode as
//! node_exporter does (`boardbench_cpu_seconds_total`); PromQL's `rate()` turns it into shares.

use document::machine::Throttled;
use document::run::ThermalThrottle;
use document::samples::{MonitorLayout, MonitorSample};
use prometheus_client::encoding::text::encode;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::registry::{Registry, Unit};
use std::sync::atomic::AtomicU64;

type Labels = Vec<(&'static str, String)>;
type FloatGauges = Family<Labels, Gauge<f64, AtomicU64>>;

/// What one scrape read.
#[derive(Debug, Clone)]
pub struct LiveReading {
    pub layout: MonitorLayout,
    /// The monitor sample: clocks, temperature, load, Raspberry Pi readings. Its CPU states
    /// (shares since the sampler's previous sample) are not exported: [`LiveReading::cpu_ticks`]
    /// are.
    pub sample: MonitorSample,
    /// Each CPU's time per mode since boot (/proc/stat's `cpuN` lines).
    pub cpu_ticks: Vec<CpuTicks>,
    /// x86 `thermal_throttle` counters (empty elsewhere).
    pub thermal_throttle: Vec<ThermalThrottle>,
    /// Raspberry Pi `vcgencmd get_throttled`, when the board is one.
    pub rpi_throttled: Option<Throttled>,
}

/// The modes of [`CpuTicks::ticks`], in /proc/stat's column order (the `mode` label, as
/// node_exporter's `node_cpu_seconds_total`). Guest time is left out: the kernel already counts
/// it in user and nice.
pub const CPU_MODES: [&str; 8] = [
    "user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal",
];

/// The unit of /proc/stat's CPU times: the kernel's USER_HZ (`getconf CLK_TCK`), 100 per second
/// on every architecture boardbench runs on, whatever the kernel's own tick rate.
pub const USER_HZ: f64 = 100.0;

/// One CPU's time in each mode since boot, in USER_HZ ticks: a `cpuN` line of /proc/stat.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CpuTicks {
    pub cpu: u32,
    /// The cluster the CPU belongs to, named as `cpu_clock`'s `cluster` label (`cpu4`), so a
    /// dashboard can sum by cluster; `None` when the topology does not say.
    pub cluster: Option<String>,
    /// In [`CPU_MODES`] order.
    pub ticks: [u64; 8],
}

/// The content type of [`metrics`]'s answer.
pub const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

/// The content type of [`classic`]'s answer (Prometheus's text format 0.0.4).
pub const CLASSIC_CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// [`metrics`]'s OpenMetrics text in Prometheus's classic text format, for clients that do not
/// ask for OpenMetrics (curl, `promtool check metrics`, older scrapers): no `# UNIT` lines and
/// no `# EOF`, and a counter family is named with its `_total` suffix, as its samples are.
pub fn classic(openmetrics: &str) -> String {
    let counters: Vec<&str> = openmetrics
        .lines()
        .filter_map(|l| l.strip_prefix("# TYPE ")?.strip_suffix(" counter"))
        .collect();
    let mut out = String::with_capacity(openmetrics.len());
    for line in openmetrics.lines() {
        if line.starts_with("# UNIT ") || line == "# EOF" {
            continue;
        }
        let meta = ["# HELP ", "# TYPE "]
            .into_iter()
            .find_map(|p| line.strip_prefix(p).map(|rest| (p, rest)));
        match meta {
            Some((p, rest)) => {
                let (name, tail) = rest.split_once(' ').unwrap_or((rest, ""));
                if counters.contains(&name) {
                    out.push_str(&format!("{p}{name}_total {tail}"));
                } else {
                    out.push_str(line);
                }
            }
            None => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

/// The reading as OpenMetrics text (ends with `# EOF`).
pub fn metrics(r: &LiveReading) -> String {
    let mut reg = Registry::with_prefix("boardbench");

    let clock = FloatGauges::default();
    for (i, c) in r.layout.clusters.iter().enumerate() {
        if let Some(Some(mhz)) = r.sample.clocks_mhz.get(i) {
            clock
                .get_or_create(&vec![
                    ("cluster", format!("cpu{}", c.first_cpu)),
                    ("source", "cpufreq".into()),
                ])
                .set(f64::from(*mhz) * 1e6);
        }
    }
    if let Some(mhz) = r.sample.rpi.and_then(|p| p.arm_mhz) {
        clock
            .get_or_create(&vec![
                ("cluster", "arm".into()),
                ("source", "firmware".into()),
            ])
            .set(f64::from(mhz) * 1e6);
    }
    reg.register_with_unit(
        "cpu_clock",
        "Current CPU clock per cluster: the cpufreq driver's, and on a Raspberry Pi the firmware's real one",
        Unit::Other("hertz".into()),
        clock,
    );

    if let Some(t) = r.sample.temp_c.filter(|t| t.is_finite()) {
        let g = Gauge::<f64, AtomicU64>::default();
        g.set(t);
        let help = match &r.layout.thermal_path {
            Some(p) => format!("SoC/CPU temperature (sensor {p})"),
            None => "SoC/CPU temperature".to_string(),
        };
        reg.register_with_unit("temperature", help, Unit::Celsius, g);
    }

    if let Some(l) = r.sample.load1.filter(|l| l.is_finite()) {
        let g = Gauge::<f64, AtomicU64>::default();
        g.set(l);
        reg.register("load1", "1-minute load average", g);
    }

    if !r.cpu_ticks.is_empty() {
        let seconds = Family::<Labels, Counter<f64, AtomicU64>>::default();
        for c in &r.cpu_ticks {
            for (mode, ticks) in CPU_MODES.iter().zip(c.ticks) {
                let mut labels: Labels = Vec::with_capacity(3);
                if let Some(cluster) = &c.cluster {
                    labels.push(("cluster", cluster.clone()));
                }
                labels.push(("cpu", c.cpu.to_string()));
                labels.push(("mode", (*mode).into()));
                seconds
                    .get_or_create(&labels)
                    .inc_by(ticks as f64 / USER_HZ);
            }
        }
        reg.register_with_unit(
            "cpu",
            "Seconds each CPU spent in each mode since boot (/proc/stat; rate() gives the share)",
            Unit::Seconds,
            seconds,
        );
    }

    if let Some(v) = r.sample.rpi.and_then(|p| p.core_volts) {
        let g = Gauge::<f64, AtomicU64>::default();
        g.set(v);
        reg.register_with_unit(
            "rpi_core_voltage",
            "Raspberry Pi VCore (vcgencmd measure_volts core)",
            Unit::Volts,
            g,
        );
    }

    if !r.thermal_throttle.is_empty() {
        let events = Family::<Labels, Counter>::default();
        for t in &r.thermal_throttle {
            for (scope, n) in [
                ("core", t.core_throttle_count),
                ("package", t.package_throttle_count),
            ] {
                if let Some(n) = n {
                    events
                        .get_or_create(&vec![("cpu", t.cpu.to_string()), ("scope", scope.into())])
                        .inc_by(n);
                }
            }
        }
        reg.register(
            "thermal_throttle_events",
            "x86 thermal throttling events per CPU since boot (thermal_throttle/*_throttle_count)",
            events,
        );
    }

    if let Some(t) = r.rpi_throttled {
        let flags = Family::<Labels, Gauge>::default();
        for (flag, now, since) in [
            (
                "under_voltage",
                t.under_voltage_now,
                t.under_voltage_occurred,
            ),
            (
                "arm_freq_capped",
                t.arm_freq_capped_now,
                t.arm_freq_capped_occurred,
            ),
            ("throttled", t.throttled_now, t.throttled_occurred),
            (
                "soft_temp_limit",
                t.soft_temp_limit_now,
                t.soft_temp_limit_occurred,
            ),
        ] {
            for (when, set) in [("now", now), ("since_boot", since)] {
                flags
                    .get_or_create(&vec![("flag", flag.into()), ("when", when.into())])
                    .set(i64::from(set));
            }
        }
        reg.register(
            "rpi_throttled",
            "Raspberry Pi firmware flags (vcgencmd get_throttled): 1 when set",
            flags,
        );
    }

    let mut out = String::new();
    encode(&mut out, &reg).expect("writing to a String does not fail");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use document::samples::{ClockColumns, CpuStates, MonitoredCluster, RpiReadings};

    #[test]
    fn a_reading_becomes_named_metrics() {
        let r = LiveReading {
            layout: MonitorLayout {
                columns: ClockColumns::BigLittle,
                clusters: vec![
                    MonitoredCluster {
                        first_cpu: 0,
                        policy: Some(0),
                        max_khz: None,
                    },
                    MonitoredCluster {
                        first_cpu: 4,
                        policy: Some(4),
                        max_khz: None,
                    },
                ],
                display_order: vec![1, 0],
                thermal_path: None,
                raspberry_pi: true,
            },
            sample: MonitorSample {
                unix_ms: 0,
                interval_s: 1.0,
                clocks_mhz: vec![Some(1800), None],
                load1: Some(0.5),
                cpu: Some(CpuStates {
                    cpu: 50.0,
                    ..Default::default()
                }),
                temp_c: Some(41.5),
                rpi: Some(RpiReadings {
                    arm_mhz: Some(1500),
                    core_volts: Some(0.85),
                }),
            },
            thermal_throttle: vec![ThermalThrottle {
                cpu: 1,
                core_throttle_count: Some(7),
                package_throttle_count: None,
            }],
            cpu_ticks: Vec::new(),
            rpi_throttled: Some(document::machine::Throttled {
                under_voltage_occurred: true,
                ..Default::default()
            }),
        };
        let text = metrics(&r);
        for want in [
            "boardbench_cpu_clock_hertz{cluster=\"cpu0\",source=\"cpufreq\"} 1800000000.0",
            "boardbench_cpu_clock_hertz{cluster=\"arm\",source=\"firmware\"} 1500000000.0",
            "boardbench_temperature_celsius 41.5",
            "boardbench_load1 0.5",
            "boardbench_rpi_core_voltage_volts 0.85",
            "boardbench_thermal_throttle_events_total{cpu=\"1\",scope=\"core\"} 7",
            "boardbench_rpi_throttled{flag=\"under_voltage\",when=\"since_boot\"} 1",
            "boardbench_rpi_throttled{flag=\"under_voltage\",when=\"now\"} 0",
            "# EOF",
        ] {
            assert!(text.lines().any(|l| l == want), "{want:?} not in\n{text}");
        }
        assert!(!text.contains("cluster=\"cpu4\""), "{text}");
        // The sample's shares since the sampler's previous sample are not exported.
        assert!(!text.contains("usage") && !text.contains("busy"), "{text}");
        let c = classic(&text);
        assert!(c.contains("# TYPE boardbench_thermal_throttle_events_total counter\n"));
        assert!(c.contains("# HELP boardbench_thermal_throttle_events_total x86"));
        assert!(!c.contains("# EOF") && !c.contains("# UNIT"), "{c}");
    }

    #[test]
    fn cpu_time_is_a_counter_per_cpu_and_mode_in_seconds() {
        let r = LiveReading {
            layout: MonitorLayout {
                columns: ClockColumns::Single,
                clusters: Vec::new(),
                display_order: Vec::new(),
                thermal_path: None,
                raspberry_pi: false,
            },
            sample: MonitorSample {
                unix_ms: 0,
                interval_s: 1.0,
                clocks_mhz: Vec::new(),
                load1: None,
                cpu: None,
                temp_c: None,
                rpi: None,
            },
            cpu_ticks: vec![
                CpuTicks {
                    cpu: 0,
                    cluster: Some("cpu0".into()),
                    ticks: [1234, 5, 67, 900_000, 8, 0, 3, 0],
                },
                CpuTicks {
                    cpu: 1,
                    cluster: None,
                    ticks: [u64::from(u32::MAX), 0, 0, 1, 0, 0, 0, 0],
                },
            ],
            thermal_throttle: Vec::new(),
            rpi_throttled: None,
        };
        let text = metrics(&r);
        for want in [
            "# TYPE boardbench_cpu_seconds counter",
            "# UNIT boardbench_cpu_seconds seconds",
            "boardbench_cpu_seconds_total{cluster=\"cpu0\",cpu=\"0\",mode=\"user\"} 12.34",
            "boardbench_cpu_seconds_total{cluster=\"cpu0\",cpu=\"0\",mode=\"nice\"} 0.05",
            "boardbench_cpu_seconds_total{cluster=\"cpu0\",cpu=\"0\",mode=\"system\"} 0.67",
            "boardbench_cpu_seconds_total{cluster=\"cpu0\",cpu=\"0\",mode=\"idle\"} 9000.0",
            "boardbench_cpu_seconds_total{cluster=\"cpu0\",cpu=\"0\",mode=\"iowait\"} 0.08",
            "boardbench_cpu_seconds_total{cluster=\"cpu0\",cpu=\"0\",mode=\"irq\"} 0.0",
            "boardbench_cpu_seconds_total{cluster=\"cpu0\",cpu=\"0\",mode=\"softirq\"} 0.03",
            "boardbench_cpu_seconds_total{cluster=\"cpu0\",cpu=\"0\",mode=\"steal\"} 0.0",
            // Years of uptime keep their hundredths.
            "boardbench_cpu_seconds_total{cpu=\"1\",mode=\"user\"} 42949672.95",
            "boardbench_cpu_seconds_total{cpu=\"1\",mode=\"idle\"} 0.01",
            "# EOF",
        ] {
            assert!(text.lines().any(|l| l == want), "{want:?} not in\n{text}");
        }
        let series = |t: &str| {
            t.lines()
                .filter(|l| l.starts_with("boardbench_cpu_seconds_total{"))
                .count()
        };
        assert_eq!(series(&text), 2 * CPU_MODES.len(), "{text}");
        // The classic format names the family with its suffix, as the samples are.
        let c = classic(&text);
        assert!(
            c.contains("# TYPE boardbench_cpu_seconds_total counter\n"),
            "{c}"
        );
        assert!(
            c.contains("# HELP boardbench_cpu_seconds_total Seconds"),
            "{c}"
        );
        assert!(!c.contains("# UNIT") && !c.contains("# EOF"), "{c}");
        assert_eq!(series(&c), 2 * CPU_MODES.len(), "{c}");

        // No CPU line read, no family (rather than an empty one).
        let none = metrics(&LiveReading {
            cpu_ticks: Vec::new(),
            ..r
        });
        assert!(!none.contains("cpu_seconds"), "{none}");
    }
}
