//! The result document of an imported log, with `Measurement` rows for the headline numbers.
//!
//! Rows (suite / test / unit), so the store can compare imported and native runs:
//! - `7zip` / `multi` / MIPS (threads = CPU count), `7zip` / `single` / MIPS (threads 1);
//! - `openssl` / `aes-256-cbc 16384` / kB/s (1000 bytes/s, threads 1);
//! - `tinymembench` / `memcpy`, `memset` / MB/s (threads 1);
//! - `cpuminer` / `scrypt` / kH/s (threads = CPU count).
//!
//! The variant is `sbc-bench <version> headline` so these rows are never mistaken for a
//! native measurement with the same name.

use document::imported::ImportedLog;
use document::{Measurement, ResultDocument, SCHEMA_VERSION};

pub fn import(log: ImportedLog) -> ResultDocument {
    ResultDocument {
        schema_version: SCHEMA_VERSION,
        producer: format!(
            "boardbench {} (sbc-bench log import)",
            env!("CARGO_PKG_VERSION")
        ),
        device: log.device.clone(),
        started: log.date.as_deref().and_then(rfc2822_to_iso),
        finished: None,
        machine: None,
        measurements: measurements(&log),
        findings: Vec::new(),
        imported: Some(log),
        run: None,
        guide: None,
        redaction: None,
        analysis: None,
    }
}

pub fn measurements(log: &ImportedLog) -> Vec<Measurement> {
    let h = &log.headline;
    let variant = Some(format!(
        "sbc-bench {} headline",
        log.sbc_bench_version.as_deref().unwrap_or("pre-v0.4")
    ));
    let all = log.cpu_count.unwrap_or(0);
    let row = |suite: &str, test: &str, threads: u32, value: f64, unit: &str| Measurement {
        suite: suite.into(),
        test: test.into(),
        variant: variant.clone(),
        threads,
        cpus: Vec::new(),
        value,
        unit: unit.into(),
        higher_is_better: true,
        spread_pct: None,
    };
    let mut out = Vec::new();
    if let Some(v) = h.zip_multi {
        out.push(row("7zip", "multi", all, v as f64, "MIPS"));
    }
    if let Some(v) = h.zip_single {
        out.push(row("7zip", "single", 1, v as f64, "MIPS"));
    }
    if let Some(v) = h.aes {
        out.push(row("openssl", "aes-256-cbc 16384", 1, v as f64, "kB/s"));
    }
    if let Some(v) = h.memcpy {
        out.push(row("tinymembench", "memcpy", 1, v as f64, "MB/s"));
    }
    if let Some(v) = h.memset {
        out.push(row("tinymembench", "memset", 1, v as f64, "MB/s"));
    }
    if let Some(v) = h.khs {
        out.push(row("cpuminer", "scrypt", all, v, "kH/s"));
    }
    out
}

/// "Tue, 05 May 2026 10:08:45 +0000" → "2026-05-05T10:08:45+00:00"; `None` if unparsable.
fn rfc2822_to_iso(s: &str) -> Option<String> {
    chrono::DateTime::parse_from_rfc2822(s.trim())
        .ok()
        .map(|d| d.to_rfc3339())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(
            rfc2822_to_iso("Tue, 05 May 2026 10:08:45 +0000").as_deref(),
            Some("2026-05-05T10:08:45+00:00")
        );
        assert_eq!(rfc2822_to_iso("yesterday"), None);
    }
}
