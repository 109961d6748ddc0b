//! Renders monitor samples: sbc-bench's `-m` text lines and JSON Lines.
//!
//! Pure functions of the layout and the samples, so the live view and a recorded run render
//! alike. The column widths follow sbc-bench's logs (clock values four wide, "MHz" once, load
//! five wide, integer percentages three wide, temperature six wide with one decimal), so tools
//! that parse sbc-bench's monitor lines can read these too.

use std::fmt::Write;

use chrono::{DateTime, TimeZone};
use document::cpus::CpuList;
use document::machine::MachineInfo;
use document::samples::{MonitorLayout, MonitorSample};

/// When to repeat the column header: every 15 lines on a terminal (sbc-bench's SPACING), so
/// the columns stay readable while scrolling; never in a file or pipe, where it would only get
/// in the way of parsing. The first header is printed by the caller.
#[derive(Debug, Clone)]
pub struct HeaderSpacing {
    every: Option<u32>,
    lines: u32,
}

impl HeaderSpacing {
    pub const EVERY: u32 = 15;

    pub fn new(tty: bool) -> Self {
        HeaderSpacing {
            every: tty.then_some(Self::EVERY),
            lines: 0,
        }
    }

    /// Call before writing each sample line; true when the header goes first.
    pub fn before_line(&mut self) -> bool {
        let Some(every) = self.every else {
            return false;
        };
        if self.lines == every {
            self.lines = 1;
            true
        } else {
            self.lines += 1;
            false
        }
    }
}

/// The column header ("Time        CPU    load %cpu …"). The layout lives in `textout`, so the
/// live view and the log's "System health" tables are one implementation.
pub fn header(layout: &MonitorLayout) -> String {
    textout::health_lines::header(layout)
}

/// Appends one monitor line (no newline) to `out`.
pub fn push_line<Tz: TimeZone>(out: &mut String, layout: &MonitorLayout, s: &MonitorSample, tz: &Tz)
where
    Tz::Offset: std::fmt::Display,
{
    out.push_str(&textout::health_lines::line(layout, s, tz));
}

/// One monitor line as a new string (the live loop reuses a buffer instead).
#[cfg(test)]
pub fn line<Tz: TimeZone>(layout: &MonitorLayout, s: &MonitorSample, tz: &Tz) -> String
where
    Tz::Offset: std::fmt::Display,
{
    textout::health_lines::line(layout, s, tz)
}

/// The JSON Lines record: the sample, its time as ISO 8601 with the zone offset, and which CPU
/// (the first of its cluster) each entry of `clocks_mhz` belongs to.
#[derive(serde::Serialize)]
struct JsonLine<'a> {
    timestamp: String,
    clock_cpus: Vec<u32>,
    #[serde(flatten)]
    sample: &'a MonitorSample,
}

pub fn json_line<Tz: TimeZone>(layout: &MonitorLayout, s: &MonitorSample, tz: &Tz) -> String
where
    Tz::Offset: std::fmt::Display,
{
    let timestamp = tz
        .timestamp_millis_opt(s.unix_ms as i64)
        .single()
        .map(|t: DateTime<Tz>| t.to_rfc3339_opts(chrono::SecondsFormat::Millis, false))
        .unwrap_or_default();
    let rec = JsonLine {
        timestamp,
        clock_cpus: layout.clusters.iter().map(|c| c.first_cpu).collect(),
        sample: s,
    };
    serde_json::to_string(&rec).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}

/// The hardware lines printed above the live view on a terminal (sbc-bench prints its CPU
/// info there): clusters with core names and clock ranges, the SoC guess, sbc-bench's kernel /
/// userland line and the temperature source.
pub fn hardware_header(m: &MachineInfo, layout: &MonitorLayout) -> String {
    let mut out = String::new();
    let ncpu: usize = m.clusters.iter().map(|c| c.cpus.len()).sum();
    if m.clusters.is_empty() {
        out.push_str("No CPU clusters found (no cpufreq): clocks are not shown.\n");
    } else {
        let _ = writeln!(
            out,
            "{ncpu} CPUs in {} cluster{}:",
            m.clusters.len(),
            if m.clusters.len() == 1 { "" } else { "s" }
        );
    }
    for c in &m.clusters {
        let cpus = CpuList::new(&c.cpus).cpu_prefixed();
        let name = c.core_name.as_deref().unwrap_or("unknown core");
        let clocks = match (c.min_khz, c.max_khz) {
            (Some(lo), Some(hi)) => format!("{}-{} MHz", lo / 1000, hi / 1000),
            (None, Some(hi)) => format!("up to {} MHz", hi / 1000),
            _ => "no cpufreq".to_string(),
        };
        let policy = c
            .policy
            .map(|p| format!(" (policy{p})"))
            .unwrap_or_default();
        let _ = writeln!(out, "  {cpus:<10} {name:<20} {clocks}{policy}");
    }
    if let Some(soc) = &m.identity.soc {
        let _ = writeln!(out, "SoC guess: {}", soc.name);
    }
    if let Some(k) = kernel_userland(m) {
        let _ = writeln!(out, "{k}");
    }
    match &m.thermal_source {
        Some(t) => {
            let _ = writeln!(out, "Thermal source: {} ({})", t.path, t.name);
        }
        None => out.push_str("Thermal source: none found\n"),
    }
    if layout.raspberry_pi {
        out.push_str("Raspberry Pi: \"fake\" is the kernel's clock, \"real\" the firmware's.\n");
    }
    out
}

/// sbc-bench's "Kernel: aarch64, Userland: arm64" with the kernel release in its `uname -r`/arch
/// form: "Kernel: 6.1.0-rockchip/aarch64, Userland: armhf". A 32-bit userland on a 64-bit
/// kernel (Raspberry Pi OS 32-bit) is what this line exists to show.
fn kernel_userland(m: &MachineInfo) -> Option<String> {
    let k = &m.identity.kernel;
    let kernel = match (k.release.as_deref(), k.arch.as_deref()) {
        (Some(r), Some(a)) => format!("{r}/{a}"),
        (Some(x), None) | (None, Some(x)) => x.to_string(),
        (None, None) => "unknown".into(),
    };
    let u = m.identity.userland.as_ref();
    let userland = u
        .and_then(|u| {
            u.arch
                .clone()
                .or_else(|| u.dpkg_architectures.first().cloned())
        })
        .unwrap_or_else(|| "unknown".into());
    if k.release.is_none() && k.arch.is_none() && u.is_none() {
        return None;
    }
    let mixed = if u.is_some_and(|u| u.mixed) {
        " (32-bit userland on a 64-bit kernel)"
    } else {
        ""
    };
    Some(format!("Kernel: {kernel}, Userland: {userland}{mixed}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::Utc;
    use document::samples::{ClockColumns, CpuStates, MonitoredCluster, RpiReadings};
    use std::path::{Path, PathBuf};

    fn sampler_data(rel: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../probe/tests/sampler-data")
            .join(rel)
    }

    /// Line `n` (1-based) of an sbc-bench log, trailing blanks removed.
    fn log_line(log: &str, n: usize) -> String {
        let text = std::fs::read_to_string(testsupport::sbc_bench_logs().join(log)).unwrap();
        text.lines().nth(n - 1).unwrap().trim_end().to_string()
    }

    fn layout(
        columns: ClockColumns,
        first_cpus: &[u32],
        order: &[usize],
        rpi: bool,
    ) -> MonitorLayout {
        MonitorLayout {
            columns,
            clusters: first_cpus
                .iter()
                .map(|&c| MonitoredCluster {
                    first_cpu: c,
                    policy: Some(c),
                    max_khz: None,
                })
                .collect(),
            display_order: order.to_vec(),
            thermal_path: None,
            raspberry_pi: rpi,
        }
    }

    /// 2026-01-01 at "HH:MM:SS" UTC.
    fn at(hms: &str) -> u64 {
        let p: Vec<u64> = hms.split(':').map(|x| x.parse().unwrap()).collect();
        (1_767_225_600 + p[0] * 3600 + p[1] * 60 + p[2]) * 1000
    }

    /// A sample whose shares sit a little above the integers sbc-bench printed (truncation).
    fn sample(
        hms: &str,
        clocks: &[u32],
        load: f64,
        pcts: [u32; 6],
        temp: Option<f64>,
    ) -> MonitorSample {
        let f = |i: usize| f64::from(pcts[i]) + 0.4;
        MonitorSample {
            unix_ms: at(hms),
            interval_s: 5.0,
            clocks_mhz: clocks.iter().map(|&c| Some(c)).collect(),
            load1: Some(load),
            cpu: Some(CpuStates {
                cpu: f64::from(pcts[0]) + if pcts[0] == 100 { 0.0 } else { 0.4 },
                sys: f(1),
                usr: f(2),
                nice: f(3),
                io: f(4),
                irq: f(5),
                steal: 0.0,
            }),
            temp_c: temp,
            rpi: None,
        }
    }

    fn check(log: &str, header_at: usize, line_at: usize, l: &MonitorLayout, s: &MonitorSample) {
        assert_eq!(header(l), log_line(log, header_at), "header of {log}");
        assert_eq!(line(l, s, &Utc), log_line(log, line_at), "line of {log}");
    }

    #[test]
    fn single_cluster_matches_sbc_bench() {
        let l = layout(ClockColumns::Single, &[0], &[0], false);
        let s = sample("13:41:03", &[1392], 4.27, [100, 0, 99, 0, 0, 0], Some(69.6));
        check("1iFm.txt", 497, 498, &l, &s);
    }

    #[test]
    fn big_little_matches_sbc_bench_big_first() {
        // Samples are in cluster order (little cpu0 first); the view shows big/little.
        let l = layout(ClockColumns::BigLittle, &[0, 6], &[1, 0], false);
        let s = sample(
            "12:07:03",
            &[1794, 2002],
            0.98,
            [6, 1, 4, 0, 0, 0],
            Some(39.9),
        );
        check("rca7s.txt", 848, 849, &l, &s);
        // Clocks under 1000 MHz keep the four-wide columns: " 408/1800MHz".
        let s = sample(
            "17:52:41",
            &[1800, 408],
            0.94,
            [5, 0, 4, 0, 0, 0],
            Some(32.4),
        );
        check("41BH.txt", 1085, 1086, &l, &s);
    }

    #[test]
    fn three_and_five_clusters_match_sbc_bench() {
        let l = layout(ClockColumns::PerCluster, &[0, 4, 8], &[0, 1, 2], false);
        let s = sample(
            "17:08:10",
            &[3802, 4301, 4301],
            12.23,
            [100, 0, 99, 0, 0, 0],
            Some(63.2),
        );
        check("8SWL.txt", 1419, 1420, &l, &s);
        let l = layout(ClockColumns::PerCluster, &[0, 4, 6], &[0, 1, 2], false);
        let s = sample(
            "16:37:09",
            &[1800, 2256, 2256],
            6.51,
            [80, 1, 78, 0, 0, 0],
            Some(53.6),
        );
        check("8ENy.txt", 716, 717, &l, &s);
        let l = layout(
            ClockColumns::PerCluster,
            &[0, 1, 5, 7, 9, 11],
            &[0, 1, 2, 3, 4],
            false,
        );
        let s = sample(
            "17:47:30",
            &[2600, 1800, 2300, 2200, 2500, 2400],
            4.95,
            [17, 0, 17, 0, 0, 0],
            Some(32.0),
        );
        check("88LE.txt", 1859, 1860, &l, &s);
    }

    #[test]
    fn raspberry_pi_fake_real_and_vcore_match_sbc_bench() {
        let l = layout(ClockColumns::FakeReal, &[0], &[0], true);
        let mut s = sample("09:18:01", &[1500], 2.94, [84, 2, 81, 0, 0, 0], Some(48.7));
        s.rpi = Some(RpiReadings {
            arm_mhz: Some(1500),
            core_volts: Some(0.8438),
        });
        check("3EgS.txt", 307, 308, &l, &s);
    }

    #[test]
    fn no_cpufreq_matches_sbc_bench_up_to_its_temperature_bug() {
        let l = layout(ClockColumns::None, &[], &[], false);
        let s = sample("22:48:04", &[], 0.17, [11, 4, 5, 0, 1, 0], Some(-75.0));
        assert_eq!(header(&l), log_line("1lCe.txt", 417));
        let ours = line(&l, &s, &Utc);
        let theirs = log_line("1lCe.txt", 418);
        // sbc-bench prints the raw -75000 (it only divides values ≥ 1000); we print °C.
        assert_eq!(
            theirs,
            "22:48:04:   ---      0.17  11%   4%   5%   0%   1%   0%  -75000°C"
        );
        assert_eq!(
            ours,
            "22:48:04:   ---      0.17  11%   4%   5%   0%   1%   0% -75.0°C"
        );
    }

    fn recorded() -> (MonitorLayout, Vec<MonitorSample>) {
        let l = std::fs::read_to_string(sampler_data("rk3588-layout.json")).unwrap();
        let s = std::fs::read_to_string(sampler_data("rk3588-samples.jsonl")).unwrap();
        (
            serde_json::from_str(&l).unwrap(),
            s.lines()
                .map(|x| serde_json::from_str(x).unwrap())
                .collect(),
        )
    }

    #[test]
    fn absent_values_keep_the_columns_aligned() {
        let l = layout(ClockColumns::FakeReal, &[0], &[0], true);
        let s = MonitorSample {
            unix_ms: at("01:02:03"),
            interval_s: 1.0,
            clocks_mhz: vec![None],
            load1: None,
            cpu: None,
            temp_c: None,
            rpi: None,
        };
        let full = sample("01:02:03", &[1500], 2.94, [84, 2, 81, 0, 0, 0], Some(48.7));
        let mut full = full;
        full.rpi = Some(RpiReadings {
            arm_mhz: Some(1500),
            core_volts: Some(0.8438),
        });
        let a = line(&l, &s, &Utc);
        let b = line(&l, &full, &Utc);
        assert_eq!(
            a,
            "01:02:03:  ---/ ---MHz    --  --%  --%  --%  --%  --%  --%    --°C       --"
        );
        assert_eq!(a.chars().count(), b.chars().count());
    }

    #[test]
    fn json_lines_carry_an_iso_timestamp_and_the_sample() {
        let (l, samples) = recorded();
        let tz = chrono::FixedOffset::east_opt(3600).unwrap();
        for s in &samples {
            let j = json_line(&l, s, &tz);
            assert!(!j.contains('\n'), "one object per line");
            let v: serde_json::Value = serde_json::from_str(&j).unwrap();
            assert_eq!(v["clock_cpus"], serde_json::json!([0, 4, 6]));
            // The sample itself round-trips (the extra keys are ignored by its reader).
            let back: MonitorSample = serde_json::from_value(v.clone()).unwrap();
            assert_eq!(&back, s);
        }
        let v: serde_json::Value = serde_json::from_str(&json_line(&l, &samples[0], &tz)).unwrap();
        assert_eq!(v["timestamp"], "2026-01-01T13:00:05.000+01:00");
        assert_eq!(v["cpu"]["cpu"], 42.5);
        assert_eq!(v["clocks_mhz"], serde_json::json!([1800, 2254, 2304]));
    }

    #[test]
    fn header_repeats_every_15_lines_on_a_terminal_only() {
        let mut t = HeaderSpacing::new(true);
        let repeats: Vec<usize> = (0..50).filter(|_| t.before_line()).collect();
        assert_eq!(repeats, [15, 30, 45]);
        let mut f = HeaderSpacing::new(false);
        assert!((0..50).all(|_| !f.before_line()));
    }

    #[test]
    fn hardware_header_names_clusters_and_thermal_source() {
        let m = MachineInfo {
            clusters: vec![
                document::machine::Cluster {
                    cpus: vec![0, 1, 2, 3],
                    policy: Some(0),
                    core_name: Some("Cortex-A55".into()),
                    min_khz: Some(408_000),
                    max_khz: Some(1_800_000),
                    ..Default::default()
                },
                document::machine::Cluster {
                    cpus: vec![4, 6],
                    policy: Some(4),
                    max_khz: Some(2_400_000),
                    ..Default::default()
                },
            ],
            thermal_source: Some(document::machine::ThermalSource {
                path: "/sys/class/thermal/thermal_zone0/temp".into(),
                name: "soc-thermal".into(),
                why: "test".into(),
            }),
            ..Default::default()
        };
        let l = layout(ClockColumns::BigLittle, &[0, 4], &[1, 0], false);
        let h = hardware_header(&m, &l);
        assert!(h.starts_with("6 CPUs in 2 clusters:\n"), "{h}");
        assert!(
            h.contains("  cpu0-3     Cortex-A55           408-1800 MHz (policy0)\n"),
            "{h}"
        );
        assert!(
            h.contains("  cpu4,6     unknown core         up to 2400 MHz (policy4)\n"),
            "{h}"
        );
        assert!(h.contains("Thermal source: /sys/class/thermal/thermal_zone0/temp (soc-thermal)"));
        assert!(!h.contains("Kernel:"), "no kernel known, no line: {h}");
    }

    /// sbc-bench's kernel / userland line, from the fixture trees' snapshots.
    #[test]
    fn hardware_header_has_the_kernel_and_userland_line() {
        let tree = testsupport::probe_root;
        let l = layout(ClockColumns::Single, &[0], &[0], false);
        let pi = probe::snapshot::take(&probe::Root::new(tree("rpi4")));
        let h = hardware_header(&pi, &l);
        let line = h.lines().find(|l| l.starts_with("Kernel: ")).unwrap();
        assert!(
            line.ends_with("/aarch64, Userland: armhf (32-bit userland on a 64-bit kernel)"),
            "{line}"
        );
        let vm = probe::snapshot::take(&probe::Root::new(tree("vm")));
        let h = hardware_header(&vm, &l);
        assert!(
            h.contains("Kernel: 6.18.44-fc-v782/x86_64, Userland: amd64\n"),
            "{h}"
        );
    }
}
