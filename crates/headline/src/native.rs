//! The headline rows a native run adds to its document, so that the document itself carries
//! the figures sbc-bench would have computed from the same runs (and [`crate::rules`] reads
//! them like an import's). Each row is attached to the last phase of its kind.

use document::Measurement;
use document::run::{Phase, kind};
use document::stats;

/// The 7-Zip adapter's row for a run's overall rating (its one home is
/// [`document::row_names`], which the adapter writes with).
pub use document::row_names::sevenzip::TOTAL_RATING;
/// The OpenSSL adapter's row for aes-256-cbc with 16 KiB blocks.
pub const AES_16K_RUN: &str = "aes-256-cbc 16384 bytes";
/// The headline AES row.
const AES_16K: &str = "aes-256-cbc 16384";

/// sbc-bench's 7-Zip figures: `multi` is the average of the finished all-core runs, `single`
/// the best single-threaded cluster; and its AES figure ([`add_aes_row`]).
pub fn add_rows(phases: &mut [Phase], measurements: &mut Vec<Measurement>) {
    let total = |p: &Phase| -> Option<f64> {
        p.measurements
            .iter()
            .filter_map(|&i| measurements.get(i))
            .find(|m| m.suite == document::row_names::sevenzip::SUITE && m.test == TOTAL_RATING)
            .map(|m| m.value)
    };
    let multi: Vec<f64> = phases
        .iter()
        .filter(|p| p.kind == kind::SEVENZIP_MULTI)
        .filter_map(total)
        .collect();
    let single: Vec<f64> = phases
        .iter()
        .filter(|p| p.kind == kind::SEVENZIP_SINGLE)
        .filter_map(total)
        .collect();
    if let Some(avg) = stats::mean(&multi) {
        let threads = phases
            .iter()
            .rev()
            .find(|p| p.kind == kind::SEVENZIP_MULTI)
            .map_or(1, |p| p.threads);
        let row = Measurement::new("7zip", "multi", threads, avg, "MIPS")
            .with_spread(stats::stddev_pct(&multi));
        attach(phases, measurements, kind::SEVENZIP_MULTI, row);
    }
    add_aes_row(phases, measurements);
    if let Some(best) = stats::max(&single) {
        let row = Measurement::new("7zip", "single", 1, best, "MIPS");
        attach(phases, measurements, kind::SEVENZIP_SINGLE, row);
    }
}

/// sbc-bench's AES figure: `aes-256-cbc` with 16 KiB blocks; the average of the runs on a
/// machine with one cluster, the best cluster's average otherwise.
fn add_aes_row(phases: &mut [Phase], measurements: &mut Vec<Measurement>) {
    let mut per_cluster: Vec<(Option<usize>, Vec<f64>)> = Vec::new();
    for p in phases.iter().filter(|p| p.kind == kind::OPENSSL) {
        for m in p.measurements.iter().filter_map(|&i| measurements.get(i)) {
            if m.suite == "openssl" && m.test == AES_16K_RUN {
                match per_cluster.iter_mut().find(|(c, _)| *c == p.cluster) {
                    Some((_, v)) => v.push(m.value),
                    None => per_cluster.push((p.cluster, vec![m.value])),
                }
            }
        }
    }
    let figure = per_cluster
        .iter()
        .filter_map(|(_, v)| stats::mean(v))
        .reduce(f64::max);
    if let Some(value) = figure {
        let unit = measurements
            .iter()
            .find(|m| m.suite == "openssl" && m.test == AES_16K_RUN)
            .map_or_else(|| "kB/s".to_string(), |m| m.unit.clone());
        let row = Measurement::new("openssl", AES_16K, 1, value, unit);
        attach(phases, measurements, kind::OPENSSL, row);
    }
}

/// Appends `row` and lists it in the last phase of `kind`.
fn attach(phases: &mut [Phase], measurements: &mut Vec<Measurement>, kind: &str, row: Measurement) {
    measurements.push(row);
    if let Some(p) = phases.iter_mut().rev().find(|p| p.kind == kind) {
        p.measurements.push(measurements.len() - 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn phase(kind: &str, cluster: Option<usize>, threads: u32, rows: Vec<usize>) -> Phase {
        Phase {
            kind: kind.into(),
            cluster,
            threads,
            measurements: rows,
            ..Phase::default()
        }
    }

    #[test]
    fn sevenzip_and_aes_rows_follow_sbc_bench() {
        let mut m = vec![
            Measurement::new("7zip", TOTAL_RATING, 4, 9000.0, "MIPS"),
            Measurement::new("7zip", TOTAL_RATING, 4, 8000.0, "MIPS"),
            Measurement::new("7zip", TOTAL_RATING, 1, 2000.0, "MIPS"),
            Measurement::new("7zip", TOTAL_RATING, 1, 2600.0, "MIPS"),
            Measurement::new("openssl", AES_16K_RUN, 1, 100.0, "kB/s"),
            Measurement::new("openssl", AES_16K_RUN, 1, 200.0, "kB/s"),
            Measurement::new("openssl", AES_16K_RUN, 1, 180.0, "kB/s"),
        ];
        let mut p = vec![
            phase(kind::SEVENZIP_MULTI, None, 4, vec![0]),
            phase(kind::SEVENZIP_MULTI, None, 4, vec![1]),
            phase(kind::SEVENZIP_SINGLE, Some(0), 1, vec![2]),
            phase(kind::SEVENZIP_SINGLE, Some(1), 1, vec![3]),
            phase(kind::OPENSSL, Some(0), 1, vec![4, 5]),
            phase(kind::OPENSSL, Some(1), 1, vec![6]),
        ];
        add_rows(&mut p, &mut m);
        let find = |t: &str| m.iter().find(|r| r.test == t).map(|r| r.value);
        assert_eq!(find("multi"), Some(8500.0));
        assert_eq!(find("single"), Some(2600.0));
        // Cluster 0 averages 150, cluster 1 has 180: the best cluster.
        assert_eq!(find(AES_16K), Some(180.0));
        assert_eq!(p[1].measurements, vec![1, 7]);
        assert_eq!(p[5].measurements, vec![6, 8]);
        assert_eq!(p[3].measurements, vec![3, 9]);
    }
}
