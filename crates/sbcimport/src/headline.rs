//! The six headline numbers of Results.md, derived exactly as sbc-bench derives them in the
//! version that wrote the log (rules documented in the fixtures README, checked against
//! expected.json). The rounding `r10` is the `headline` crate's, shared with the summary row.

use document::imported::{Headline, MemoryRun, OpenSsl, SevenZip};

use crate::memory;
use crate::version::{Era, Version};

pub use ::headline::r10;

/// Everything the rules look at.
pub struct Inputs<'a> {
    pub version: Option<Version>,
    pub cpu_count: Option<u32>,
    pub sevenzip: Option<&'a SevenZip>,
    pub openssl: Option<&'a OpenSsl>,
    pub memory: &'a [MemoryRun],
    pub total_scores: &'a [f64],
}

pub fn derive(i: &Inputs) -> Headline {
    let era = Era::of(i.version);
    let zip_multi = zip_multi(i, era);
    Headline {
        zip_multi,
        zip_single: zip_single(i, zip_multi),
        aes: aes(i, era),
        memcpy: mem(i, era, memory::memcpy),
        memset: mem(i, era, memory::memset),
        // A hash rate is finite and positive; anything else is a damaged list.
        khs: i
            .total_scores
            .get(1)
            .or(i.total_scores.first())
            .copied()
            .filter(|v| v.is_finite() && *v >= 0.0),
    }
}

/// R10(⌊sum / N⌋) over the `Total:` ratings; N = 3 for v0.8.4–v0.9.6 (unless only one run,
/// the single-core case), the number of finished runs otherwise.
fn zip_multi(i: &Inputs, era: Era) -> Option<u64> {
    let z = i.sevenzip?;
    let list = &z.totals;
    if list.is_empty() {
        return None;
    }
    let sum = saturating_sum(list);
    let n = match (era, i.version) {
        (Era::Manual, _) => list.len() as u64,
        (_, Some(v)) if v >= Version(0, 9, 7) => list.len() as u64,
        // One run (single-core machine): its rating. sbc-bench v0.9.1/v0.9.2 divided it by 3
        // in their own summary line, a bug the README lists; the table uses the rating.
        _ if list.len() == 1 => 1,
        _ => 3,
    };
    Some(r10((sum / n) as f64))
}

/// Sums that cannot overflow, whatever numbers a damaged log holds.
fn saturating_sum(v: &[u64]) -> u64 {
    v.iter().fold(0u64, |a, &b| a.saturating_add(b))
}

/// Max of the single-threaded ratings; empty when the log has none (logs before v0.8.4 often
/// ran 7-Zip multi-threaded only). Single-core machines (CPU count 1 in the log): before v0.9.9
/// the row repeats the rounded multi value, from v0.9.9 on it is the raw rating of the one run.
/// One multi-threaded run alone does not make a machine single-core: without the CPU count the
/// column stays empty rather than repeating the multi figure.
fn zip_single(i: &Inputs, zip_multi: Option<u64>) -> Option<u64> {
    let z = i.sevenzip?;
    if i.cpu_count == Some(1) {
        return match i.version {
            Some(v) if v >= Version(0, 9, 9) => z.totals.iter().max().copied().or(zip_multi),
            _ => zip_multi,
        };
    }
    z.single.iter().map(|r| r.rating).max()
}

/// aes-256-cbc, 16 KiB column, integer part (of the 8 KiB column when OpenSSL 1.0.x printed
/// only five: sbc-bench then read an empty field, i.e. 0; the hand-made rows used 8 KiB).
fn aes(i: &Inputs, era: Era) -> Option<u64> {
    let t = i.openssl?;
    let vals: Vec<u64> = t
        .rows
        .iter()
        .filter(|r| r.cipher == "aes-256-cbc" && !r.fully_parallel)
        .map(|r| {
            if r.values_k.len() >= 6 {
                r.values_k[5] as u64
            } else if era == Era::Manual {
                r.values_k.last().copied().unwrap_or(0.0) as u64
            } else {
                0
            }
        })
        .collect();
    if vals.is_empty() {
        return None;
    }
    let sum = saturating_sum(&vals);
    let max = *vals.iter().max().expect("non-empty");
    let v = match era {
        Era::Auto094 => match t.mode.as_deref() {
            Some("each_cluster") => max,
            _ => sum / vals.len().max(1) as u64,
        },
        Era::Auto084 => sum / 2,
        Era::Manual => {
            if i.cpu_count.is_some_and(|n| n > 4) {
                max
            } else {
                sum / vals.len() as u64
            }
        }
    };
    Some(r10(v as f64))
}

/// v0.9.4+: max over all runs; older: the last run (the last cluster tested).
fn mem(i: &Inputs, era: Era, pick: fn(&MemoryRun) -> Option<f64>) -> Option<u64> {
    let vals: Vec<f64> = i.memory.iter().filter_map(pick).collect();
    let v = match era {
        Era::Auto094 => vals
            .iter()
            .copied()
            .fold(None, |m: Option<f64>, x| Some(m.map_or(x, |m| m.max(x)))),
        _ => vals.last().copied(),
    }?;
    Some(r10(v))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(rating: u64) -> document::imported::SevenZipRun {
        document::imported::SevenZipRun {
            cluster: None,
            threads: Some(4),
            rating,
        }
    }

    /// Issue 11 item 7: an old log with only multi-threaded 7-Zip runs has no single figure,
    /// whatever the number of runs; a single-core machine repeats the multi figure.
    #[test]
    fn no_single_threaded_run_leaves_the_single_column_empty() {
        for runs in [vec![3679], vec![3679, 3688, 3664]] {
            let z = SevenZip {
                version: None,
                single: Vec::new(),
                multi: runs.iter().map(|&r| run(r)).collect(),
                totals: runs.clone(),
            };
            for cpus in [None, Some(4)] {
                let h = derive(&Inputs {
                    version: Version::parse("0.6.2"),
                    cpu_count: cpus,
                    sevenzip: Some(&z),
                    openssl: None,
                    memory: &[],
                    total_scores: &[],
                });
                assert!(h.zip_multi.is_some());
                assert_eq!(h.zip_single, None, "{runs:?} with {cpus:?} CPUs");
            }
            let single_core = derive(&Inputs {
                version: Version::parse("0.6.2"),
                cpu_count: Some(1),
                sevenzip: Some(&z),
                openssl: None,
                memory: &[],
                total_scores: &[],
            });
            assert_eq!(single_core.zip_single, single_core.zip_multi);
        }
    }

    #[test]
    fn sums_saturate() {
        assert_eq!(saturating_sum(&[u64::MAX, 5]), u64::MAX);
    }
}
