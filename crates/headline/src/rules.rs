//! Which rows of a result document give which headline figure.
//!
//! An imported sbc-bench log carries the figures its own version derived (kept as they are:
//! that is what Results.md shows); a native run derives them from its measurement rows. For
//! each figure the first matching rule wins; among matching rows the highest value is taken
//! (the best cluster, as sbc-bench does):
//!
//! | figure | suite | test |
//! |---|---|---|
//! | 7-zip multi | `7zip` | `multi`, or `total rating` with threads > 1 |
//! | 7-zip single | `7zip` | `single`, or `total rating` with threads = 1 |
//! | AES | `openssl` | `aes-256-cbc 16384` |
//! | memcpy | `tinymembench` / `membw` | `memcpy` / `libc memcpy…` |
//! | memset | `tinymembench` / `membw` | `memset` / `libc memset…` |
//! | kH/s | `cpuminer` | `scrypt` / `total score` |

use document::imported::Headline;
use document::{Measurement, ResultDocument};

/// The headline figures of a document: an imported log's own figures where present, otherwise
/// (and for each figure the log lacks) [`from_measurements`].
pub fn figures(doc: &ResultDocument) -> Headline<f64> {
    let derived = from_measurements(&doc.measurements);
    let Some(imported) = &doc.imported else {
        return derived;
    };
    let own = widen(&imported.headline);
    Headline {
        zip_multi: own.zip_multi.or(derived.zip_multi),
        zip_single: own.zip_single.or(derived.zip_single),
        aes: own.aes.or(derived.aes),
        memcpy: own.memcpy.or(derived.memcpy),
        memset: own.memset.or(derived.memset),
        khs: own.khs.filter(|v| v.is_finite()).or(derived.khs),
    }
}

/// The Results.md cells as figures (u64 → f64; the values are far below 2^53).
pub fn widen(h: &Headline) -> Headline<f64> {
    let f = |v: Option<u64>| v.map(|v| v as f64);
    Headline {
        zip_multi: f(h.zip_multi),
        zip_single: f(h.zip_single),
        aes: f(h.aes),
        memcpy: f(h.memcpy),
        memset: f(h.memset),
        khs: h.khs,
    }
}

/// The mapping from measurement rows to the figures (the one place to change when native runs
/// name their rows differently). Rows with a value that is not finite are ignored.
pub fn from_measurements(rows: &[Measurement]) -> Headline<f64> {
    let best = |pred: &dyn Fn(&Measurement) -> bool| {
        rows.iter()
            .filter(|r| r.value.is_finite() && pred(r))
            .map(|r| r.value)
            .reduce(f64::max)
    };
    let zip = |name: &str, multi: bool| {
        best(&|r| r.suite == "7zip" && r.test == name).or_else(|| {
            best(&|r| r.suite == "7zip" && r.test == "total rating" && (r.threads > 1) == multi)
        })
    };
    let mem = |name: &str| {
        let prefix = format!("libc {name}");
        best(&|r| r.suite == "tinymembench" && r.test == name)
            .or_else(|| best(&|r| r.suite == "membw" && r.test.starts_with(&prefix)))
    };
    Headline {
        zip_multi: zip("multi", true),
        zip_single: zip("single", false),
        // The headline row: imports carry it, a run derives it by sbc-bench's rule
        // ([`crate::native`]; the OpenSSL adapter's per-run rows are named
        // "aes-256-cbc 16384 bytes" and are not used here).
        aes: best(&|r| r.suite == "openssl" && r.test == "aes-256-cbc 16384"),
        memcpy: mem("memcpy"),
        memset: mem("memset"),
        khs: best(&|r| r.suite == "cpuminer" && (r.test == "scrypt" || r.test == "total score")),
    }
}

/// Measured clocks in MHz, one per cluster, highest first: suite "clock" rows in MHz for native
/// runs, the highest `measured_mhz` of each (not under load) clock check for imported logs.
pub fn measured_clocks(doc: &ResultDocument) -> Vec<f64> {
    let mut out: Vec<f64> = doc
        .measurements
        .iter()
        .filter(|r| r.suite == "clock" && r.unit.eq_ignore_ascii_case("MHz"))
        .map(|r| r.value)
        .filter(|v| v.is_finite())
        .collect();
    if out.is_empty()
        && let Some(imported) = &doc.imported
    {
        for c in imported.clock_checks.iter().filter(|c| !c.under_load) {
            let best = c
                .rows
                .iter()
                .map(|r| r.measured_mhz)
                .filter(|v| v.is_finite())
                .reduce(f64::max);
            out.extend(best);
        }
    }
    out.retain(|v| *v > 0.0);
    out.sort_by(|a, b| b.total_cmp(a));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use document::imported::ImportedLog;

    fn row(suite: &str, test: &str, threads: u32, value: f64, unit: &str) -> Measurement {
        Measurement::new(suite, test, threads, value, unit)
    }

    fn doc(measurements: Vec<Measurement>) -> ResultDocument {
        ResultDocument {
            schema_version: 1,
            producer: "test".into(),
            device: None,
            started: None,
            finished: None,
            machine: None,
            measurements,
            findings: vec![],
            imported: None,
            run: None,
            guide: None,
            redaction: None,
            analysis: None,
        }
    }

    #[test]
    fn native_measurements_map_to_the_figures() {
        let d = doc(vec![
            row("7zip", "total rating", 4, 9000.0, "MIPS"),
            row("7zip", "total rating", 1, 2000.0, "MIPS"),
            row("7zip", "total rating", 1, 2500.0, "MIPS"),
            row("membw", "libc memcpy copy", 1, 4000.0, "MB/s"),
            row("openssl", "aes-256-cbc 16384", 1, 1234.5, "kB/s"),
            row("openssl", "aes-256-cbc 16384", 1, f64::NAN, "kB/s"),
            row("clock", "cpu0", 1, 1800.4, "MHz"),
            row("clock", "cpu4", 1, 2304.0, "MHz"),
        ]);
        let h = figures(&d);
        assert_eq!(h.zip_multi, Some(9000.0));
        assert_eq!(h.zip_single, Some(2500.0));
        assert_eq!(h.memcpy, Some(4000.0));
        assert_eq!(h.aes, Some(1234.5));
        assert_eq!(h.memset, None);
        assert_eq!(measured_clocks(&d), vec![2304.0, 1800.4]);
    }

    #[test]
    fn named_rows_win_over_totals_and_imports_over_both() {
        let mut d = doc(vec![
            row("7zip", "total rating", 4, 9000.0, "MIPS"),
            row("7zip", "multi", 4, 8000.0, "MIPS"),
            row("tinymembench", "memset", 1, 7000.0, "MB/s"),
        ]);
        assert_eq!(figures(&d).zip_multi, Some(8000.0));
        d.imported = Some(ImportedLog {
            headline: Headline {
                zip_multi: Some(8120),
                ..Default::default()
            },
            ..Default::default()
        });
        let h = figures(&d);
        assert_eq!(h.zip_multi, Some(8120.0));
        assert_eq!(h.memset, Some(7000.0));
    }
}
