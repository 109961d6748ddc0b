//! Stored result documents as Prometheus metrics, for node_exporter's textfile collector.
//!
//! A lab's dashboards want the headline figures of the last run of every board next to the
//! board's other metrics. Names follow Prometheus's conventions: a `boardbench_` prefix, base
//! units in the name (`_seconds`, `_bytes_per_second`, `_hertz`; the document's MB/s, kB/s and
//! MHz are converted), an `_info` metric carrying the descriptive labels (board, SoC, kernel …)
//! so the figures themselves carry only `run`, and findings as a labelled gauge. Every series
//! has a `run` label (the first 12 hex digits of the document's SHA-256, see [`run_id`]) so
//! several runs fit in one file and a dashboard joins figures to `boardbench_run_info` on it.
//! The run's time is a gauge (`boardbench_run_start_timestamp_seconds`): the textfile collector
//! refuses explicit sample timestamps.

use document::{ResultDocument, Severity};
use headline::Figure;
use sha2::{Digest, Sha256};

use crate::exposition::{Family, render};

/// The document's identity as the results service computes it: SHA-256 (hex) of the document
/// serialised from a `serde_json::Value` (canonical key order).
pub fn document_hash(doc: &ResultDocument) -> String {
    let value = serde_json::to_value(doc).expect("a document serialises");
    let bytes = serde_json::to_vec(&value).expect("a value serialises");
    let digest = Sha256::digest(&bytes);
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// The `run` label: the first 12 hex digits of [`document_hash`].
pub fn run_id(doc: &ResultDocument) -> String {
    document_hash(doc)[..12].to_string()
}

/// Seconds since the Unix epoch of an RFC 3339 / ISO 8601 time with offset.
fn unix_seconds(t: Option<&String>) -> Option<f64> {
    let t = chrono::DateTime::parse_from_rfc3339(t?.trim()).ok()?;
    Some(t.timestamp_millis() as f64 / 1000.0)
}

/// Every document's metrics, in text exposition format (one family at a time, runs in the
/// order given; a document given twice is written once).
pub fn metrics(docs: &[ResultDocument]) -> String {
    let mut info = Family::gauge(
        "boardbench_run_info",
        "A boardbench run: board, SoC, kernel and what produced it (value always 1).",
    );
    let mut start = Family::gauge(
        "boardbench_run_start_timestamp_seconds",
        "When the run started, seconds since the Unix epoch.",
    );
    let mut end = Family::gauge(
        "boardbench_run_end_timestamp_seconds",
        "When the run finished, seconds since the Unix epoch.",
    );
    let mut duration = Family::gauge(
        "boardbench_run_duration_seconds",
        "Wall time of the run (idle gate excluded).",
    );
    let mut valid = Family::gauge(
        "boardbench_run_valid",
        "1 when no finding says the run's numbers are not to be trusted, else 0.",
    );
    let mut finding = Family::gauge(
        "boardbench_finding",
        "A finding of the run (value always 1): kind and severity (info, warning, invalid).",
    );
    let mut zip = Family::gauge(
        "boardbench_7zip_rating_mips",
        "7-Zip benchmark total rating (sbc-bench's 7-zip columns), threads=multi|single.",
    );
    let mut aes = Family::gauge(
        "boardbench_openssl_aes_256_cbc_bytes_per_second",
        "OpenSSL aes-256-cbc with 16 KiB blocks (sbc-bench's AES column).",
    );
    let mut mem = Family::gauge(
        "boardbench_memory_bandwidth_bytes_per_second",
        "libc memcpy/memset bandwidth, tinymembench's method (sbc-bench's memcpy and memset).",
    );
    let mut khs = Family::gauge(
        "boardbench_cpuminer_hashes_per_second",
        "cpuminer scrypt hash rate (sbc-bench's kH/s column).",
    );
    let mut clock = Family::gauge(
        "boardbench_cpu_clock_hertz",
        "Measured CPU clock of each cluster (not the cpufreq claim).",
    );
    let mut temp = Family::gauge(
        "boardbench_run_max_temperature_celsius",
        "Highest SoC temperature the run's monitor saw.",
    );

    let mut seen: Vec<String> = Vec::new();
    for doc in docs {
        let run = run_id(doc);
        if seen.contains(&run) {
            continue;
        }
        seen.push(run.clone());
        let r = || vec![("run", run.clone())];
        let with = |k: &'static str, v: &str| vec![("run", run.clone()), (k, v.to_string())];
        let c = headline::columns::columns(doc);
        let t = |s: &Option<String>| s.clone().unwrap_or_default();
        info.push(
            vec![
                ("run", run.clone()),
                ("board", t(&c.device)),
                ("soc", t(&c.soc)),
                ("arch", t(&c.arch)),
                ("kernel", t(&c.kernel)),
                ("distro", t(&c.distro)),
                ("producer", t(&c.producer)),
                (
                    "profile",
                    doc.run
                        .as_ref()
                        .map(|r| r.profile.clone())
                        .unwrap_or_default(),
                ),
                ("imported", if c.imported { "true" } else { "false" }.into()),
            ],
            1.0,
        );
        if let Some(s) = unix_seconds(doc.started.as_ref()) {
            start.push(r(), s);
        }
        if let Some(s) = unix_seconds(doc.finished.as_ref()) {
            end.push(r(), s);
        }
        if let Some(d) = doc.run.as_ref().map(|r| r.duration_s).filter(|d| *d > 0.0) {
            duration.push(r(), d);
        }
        let ok = !doc.findings.iter().any(|f| f.severity == Severity::Invalid);
        valid.push(r(), if ok { 1.0 } else { 0.0 });
        for f in &doc.findings {
            finding.push(
                vec![
                    ("run", run.clone()),
                    ("kind", f.kind.clone()),
                    ("severity", f.severity.name().to_string()),
                ],
                1.0,
            );
        }
        let h = &c.headline;
        for (fig, label) in [(Figure::ZipMulti, "multi"), (Figure::ZipSingle, "single")] {
            if let Some(v) = fig.of(h) {
                zip.push(with("threads", label), v);
            }
        }
        if let Some(v) = Figure::Aes.of(h) {
            aes.push(with("block_bytes", "16384"), v * 1000.0);
        }
        for (fig, label) in [(Figure::Memcpy, "memcpy"), (Figure::Memset, "memset")] {
            if let Some(v) = fig.of(h) {
                mem.push(with("function", label), v * 1e6);
            }
        }
        if let Some(v) = Figure::Khs.of(h) {
            khs.push(r(), v * 1000.0);
        }
        for c in cluster_clocks(doc) {
            let mut labels = with("cluster", &c.cluster);
            if let Some(core) = &c.core {
                labels.push(("core", core.clone()));
            }
            clock.push(labels, c.mhz * 1e6);
        }
        if let Some(t) = max_temperature(doc) {
            temp.push(r(), t);
        }
    }
    render(&[
        info, start, end, duration, valid, finding, zip, aes, mem, khs, clock, temp,
    ])
}

/// One cluster's measured clock.
#[derive(Debug, PartialEq)]
struct ClusterClock {
    /// The cluster's first CPU ("cpu4"), as a native run names its `clock` rows.
    cluster: String,
    /// The core type, where the document says it ("Cortex-A76").
    core: Option<String>,
    mhz: f64,
}

/// Measured clock per cluster in MHz, labelled by the cluster's CPUs (never by rank: an RK3588
/// log lists its A55 cluster first, and cpu0 is an A55 whatever the clocks): a native run's
/// `clock` rows, else the clock checks an imported log carries ("for cpu0-cpu3 (Cortex-A55)"),
/// each at its highest OPP.
fn cluster_clocks(doc: &ResultDocument) -> Vec<ClusterClock> {
    let native: Vec<ClusterClock> = doc
        .measurements
        .iter()
        .filter(|r| r.suite == "clock" && r.unit.eq_ignore_ascii_case("MHz"))
        .filter(|r| r.value.is_finite() && r.value > 0.0)
        .map(|r| ClusterClock {
            cluster: r.test.clone(),
            core: None,
            mhz: r.value,
        })
        .collect();
    if !native.is_empty() {
        return native;
    }
    let Some(log) = &doc.imported else {
        return Vec::new();
    };
    let mut out: Vec<ClusterClock> = Vec::new();
    for (i, c) in log
        .clock_checks
        .iter()
        .filter(|c| !c.under_load)
        .enumerate()
    {
        let top = c
            .rows
            .iter()
            .filter(|r| r.measured_mhz.is_finite() && r.measured_mhz > 0.0)
            .max_by(|a, b| {
                a.opp_mhz
                    .cmp(&b.opp_mhz)
                    .then(a.measured_mhz.total_cmp(&b.measured_mhz))
            });
        let Some(top) = top else { continue };
        let (cluster, core) = cluster_heading(&c.cluster);
        let cluster = cluster.unwrap_or_else(|| format!("cluster{i}"));
        if out.iter().any(|o| o.cluster == cluster) {
            continue;
        }
        out.push(ClusterClock {
            cluster,
            core,
            mhz: top.measured_mhz,
        });
    }
    out
}

/// "for cpu4-cpu5 (Cortex-A76)" → ("cpu4", "Cortex-A76").
fn cluster_heading(h: &str) -> (Option<String>, Option<String>) {
    let first = h
        .split(|c: char| !c.is_ascii_alphanumeric())
        .find(|w| {
            w.strip_prefix("cpu")
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        })
        .map(str::to_string);
    let core = h
        .split_once('(')
        .and_then(|(_, rest)| rest.split_once(')'))
        .map(|(c, _)| c.trim().to_string())
        .filter(|c| !c.is_empty());
    (first, core)
}

fn max_temperature(doc: &ResultDocument) -> Option<f64> {
    doc.run
        .as_ref()?
        .phases
        .iter()
        .flat_map(|p| p.samples.iter())
        .filter_map(|s| s.temp_c)
        .filter(|t| t.is_finite())
        .reduce(f64::max)
}

#[cfg(test)]
mod tests {
    use super::*;
    use document::{Finding, Measurement};

    fn doc() -> ResultDocument {
        ResultDocument {
            redaction: None,
            analysis: None,
            schema_version: 1,
            producer: "boardbench 0.1.0".into(),
            device: Some("Radxa \"ROCK\" 5B".into()),
            started: Some("2026-11-23T13:41:38.284+00:00".into()),
            finished: None,
            machine: None,
            measurements: vec![
                Measurement::new("7zip", "total rating", 8, 16000.0, "MIPS"),
                Measurement::new("7zip", "total rating", 1, 3000.0, "MIPS"),
                Measurement::new("membw", "libc memcpy copy", 1, 10500.5, "MB/s"),
                Measurement::new("openssl", "aes-256-cbc 16384", 1, 1300000.0, "kB/s"),
                Measurement::new("clock", "cpu0", 1, 1800.0, "MHz"),
                Measurement::new("clock", "cpu4", 1, 2304.0, "MHz"),
            ],
            findings: vec![Finding {
                kind: "throttling".into(),
                severity: Severity::Warning,
                message: "m".into(),
                evidence: vec![],
            }],
            imported: None,
            run: None,
            guide: None,
        }
    }

    #[test]
    fn figures_are_in_base_units_with_the_run_label() {
        let d = doc();
        let run = run_id(&d);
        let text = metrics(&[d.clone(), d]);
        let line = |s: &str| {
            assert!(
                text.lines().any(|l| l == s),
                "missing line {s:?} in:\n{text}"
            )
        };
        line(&format!(
            "boardbench_7zip_rating_mips{{run=\"{run}\",threads=\"multi\"}} 16000"
        ));
        line(&format!(
            "boardbench_memory_bandwidth_bytes_per_second{{run=\"{run}\",function=\"memcpy\"}} 10500500000"
        ));
        line(&format!(
            "boardbench_openssl_aes_256_cbc_bytes_per_second{{run=\"{run}\",block_bytes=\"16384\"}} 1300000000"
        ));
        line(&format!(
            "boardbench_cpu_clock_hertz{{run=\"{run}\",cluster=\"cpu4\"}} 2304000000"
        ));
        line(&format!(
            "boardbench_run_start_timestamp_seconds{{run=\"{run}\"}} 1795441298.284"
        ));
        line(&format!(
            "boardbench_finding{{run=\"{run}\",kind=\"throttling\",severity=\"warning\"}} 1"
        ));
        line(&format!("boardbench_run_valid{{run=\"{run}\"}} 1"));
        assert!(text.contains("board=\"Radxa \\\"ROCK\\\" 5B\""), "{text}");
        // Given twice, written once.
        assert_eq!(text.matches("boardbench_run_info{").count(), 1);
        assert!(!text.contains("boardbench_run_end_timestamp_seconds"));
    }

    #[test]
    fn an_imported_logs_clusters_are_labelled_by_their_cpus_and_core_type() {
        use document::imported::{ClockCheck, ClockRow, ImportedLog};
        let check = |cluster: &str, under_load: bool, mhz: &[(u32, f64)]| ClockCheck {
            cluster: cluster.into(),
            under_load,
            rows: mhz
                .iter()
                .map(|&(opp, m)| ClockRow {
                    opp_mhz: Some(opp),
                    measured_mhz: m,
                })
                .collect(),
        };
        let mut d = doc();
        d.measurements.retain(|m| m.suite != "clock");
        d.imported = Some(ImportedLog {
            clock_checks: vec![
                check(
                    "for cpu0-cpu3 (Cortex-A55)",
                    false,
                    &[(408, 407.0), (1800, 1828.0)],
                ),
                check(
                    "for cpu4-cpu5 (Cortex-A76)",
                    false,
                    &[(2256, 2348.0), (408, 410.0)],
                ),
                check("for cpu6-cpu7 (Cortex-A76)", false, &[(2256, 2350.0)]),
                check("for cpu0-cpu3 (Cortex-A55)", true, &[(1800, 1500.0)]),
            ],
            ..Default::default()
        });
        let run = run_id(&d);
        let text = metrics(&[d]);
        let clocks: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with("boardbench_cpu_clock_hertz{"))
            .collect();
        assert_eq!(
            clocks,
            [
                format!(
                    "boardbench_cpu_clock_hertz{{run=\"{run}\",cluster=\"cpu0\",core=\"Cortex-A55\"}} 1828000000"
                ),
                format!(
                    "boardbench_cpu_clock_hertz{{run=\"{run}\",cluster=\"cpu4\",core=\"Cortex-A76\"}} 2348000000"
                ),
                format!(
                    "boardbench_cpu_clock_hertz{{run=\"{run}\",cluster=\"cpu6\",core=\"Cortex-A76\"}} 2350000000"
                ),
            ],
            "{text}"
        );
    }
}
