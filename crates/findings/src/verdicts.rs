//! What an imported log says about itself when the statistics behind a finding are missing:
//! sbc-bench's own "Results validation" bullets (throttling occurred, swapping, too much
//! background activity, oom-killer, stopped cores, powercap) and the Raspberry Pi firmware's
//! `get_throttled` bits as the log prints them. Each finding's evidence is the line as written.
//!
//! A verdict becomes a finding only when the log lacks the data that kind's rule reads (the
//! monitor samples for background activity, the swap figures for swapping, the dmesg section for
//! oom-killer and stopped cores): where the data is there, boardbench's rule decides (it differs
//! from sbc-bench's on purpose in places, e.g. 100/8 cores is 12.5 %, not 12). Throttling is the
//! exception: sbc-bench counts any time below the top OPP, so its "Throttling occured" with
//! statistics that stay under [`crate::tolerances::THROTTLING_MIN_S`] is still a `throttling`
//! finding, a warning. No verdict is added for a kind the data already gave.

use document::imported::ImportedLog;
use document::{Finding, Severity};
use sbcimport::signals::Signals;

use crate::{finding, kinds};

/// (the bullet starts with, kind, severity, message).
const BULLETS: &[(&str, &str, Severity, &str)] = &[
    (
        "Throttling occured",
        kinds::THROTTLING,
        Severity::Invalid,
        "Throttling occurred, says sbc-bench's own validation of the run: the benchmark figures were measured below the top clock.",
    ),
    (
        "Throttling / frequency capping",
        kinds::THROTTLING,
        Severity::Invalid,
        "Throttling and frequency capping occurred, says sbc-bench's own validation of the run (the Raspberry Pi firmware's bits).",
    ),
    (
        "Throttling might have occured",
        kinds::THROTTLING,
        Severity::Warning,
        "Throttling might have occurred, says sbc-bench's own validation (its time_in_state check is skewed by offlined cores in this mode).",
    ),
    (
        "Swapping (ZRAM) occured",
        kinds::SWAPPING,
        Severity::Invalid,
        "Swapping (zram) occurred, says sbc-bench's own validation: the benchmark figures are not to be trusted.",
    ),
    (
        "Swapping occured",
        kinds::SWAPPING,
        Severity::Invalid,
        "Swapping occurred, says sbc-bench's own validation: the benchmark figures are not to be trusted.",
    ),
    (
        "Too much other background activity",
        kinds::BACKGROUND_ACTIVITY,
        Severity::Invalid,
        "Too much other background activity during the single-threaded benchmarks, says sbc-bench's own validation.",
    ),
    (
        "Too much background activity (%system)",
        kinds::SYSTEM_ACTIVITY,
        Severity::Warning,
        "Too much background activity (%system) during the benchmarks, says sbc-bench's own validation.",
    ),
    (
        "Overheating resulted in CPU cores",
        kinds::CORES_KILLED,
        Severity::Invalid,
        "Overheating stopped CPU cores during the run, says sbc-bench's own validation.",
    ),
    (
        "Powercap detected",
        kinds::POWERCAP,
        Severity::Info,
        "Intel RAPL powercap is present, says sbc-bench's own validation: package power limits may cap the clock.",
    ),
];

/// True when the log lacks the data the rule of `kind` reads, so sbc-bench's verdict stands in.
fn data_missing(kind: &str, log: &ImportedLog, s: &Signals) -> bool {
    match kind {
        kinds::BACKGROUND_ACTIVITY => log.monitor.iter().all(|t| t.rows.len() < 2),
        kinds::SYSTEM_ACTIVITY => s.system_activity().is_none(),
        kinds::SWAPPING => s.swap.is_none(),
        kinds::OOM_KILL | kinds::CORES_KILLED => log.kmsg.is_empty(),
        _ => true,
    }
}

/// The findings of the log's own words, for the kinds `found` lacks.
pub(crate) fn imported(log: &ImportedLog, s: &Signals, found: &[Finding]) -> Vec<Finding> {
    let mut out: Vec<Finding> = Vec::new();
    let have = |out: &[Finding], kind: &str| found.iter().chain(out.iter()).any(|f| f.kind == kind);
    for v in &log.validation {
        let text = v.trim();
        let bullet = BULLETS
            .iter()
            .find(|(start, ..)| text.starts_with(start))
            .copied()
            .or_else(|| {
                oom_count(text).map(|_| {
                    (
                        "",
                        kinds::OOM_KILL,
                        Severity::Invalid,
                        "The oom-killer ran during the run, says sbc-bench's own validation: the system was too low on memory.",
                    )
                })
            });
        let Some((_, kind, mut severity, message)) = bullet else {
            continue;
        };
        if have(&out, kind) || !data_missing(kind, log, s) {
            continue;
        }
        let mut evidence = vec![format!("Results validation: {text}")];
        let mut message = message.to_string();
        if kind == kinds::THROTTLING && s.has_throttling_statistics {
            // sbc-bench counts any time below the top OPP; ours needs more than the threshold.
            severity = Severity::Warning;
            message = format!(
                "Throttling occurred, says sbc-bench's own validation; its cpufreq statistics show less than {} s below the top clock (sbc-bench counts any time there).",
                crate::tolerances::THROTTLING_MIN_S
            );
            evidence.extend(s.throttling.iter().map(|t| {
                format!(
                    "{:.2} of {:.2} sec below {} MHz {}",
                    t.seconds_below_max, t.seconds_total, t.max_mhz, t.cluster
                )
            }));
        }
        out.push(finding(kind, severity, message, evidence));
    }
    out.extend(
        rpi_bits(log)
            .into_iter()
            .filter(|f| !found.iter().any(|g| g.kind == f.kind)),
    );
    out
}

/// "2 oom-killer invocations (…)" → 2.
fn oom_count(text: &str) -> Option<u32> {
    let (n, rest) = text.split_once(' ')?;
    rest.starts_with("oom-killer invocation")
        .then(|| n.parse().ok())
        .flatten()
}

/// (bit, kind, what the firmware says) for the bits sbc-bench's log shows.
const BITS: &[(u32, &str, &str)] = &[
    (0, kinds::UNDERVOLTAGE, "under-voltage detected now"),
    (1, kinds::FREQUENCY_CAPPING, "ARM frequency capped now"),
    (2, kinds::FIRMWARE_THROTTLING, "throttled now"),
    (
        3,
        kinds::SOFT_TEMP_LIMIT,
        "soft temperature limit active now",
    ),
    (
        16,
        kinds::UNDERVOLTAGE,
        "under-voltage has occurred since boot",
    ),
    (
        17,
        kinds::FREQUENCY_CAPPING,
        "ARM frequency capping has occurred since boot",
    ),
    (
        18,
        kinds::FIRMWARE_THROTTLING,
        "throttling has occurred since boot",
    ),
    (
        19,
        kinds::SOFT_TEMP_LIMIT,
        "soft temperature limit has occurred since boot",
    ),
];

/// The `get_throttled` bits of the log (queried when the benchmarks had ended): a bit set "now"
/// invalidates the run, an "occurred since boot" bit is a warning (the log cannot tell whether
/// it happened during the run or before it). Decoded as the firmware documents the bits, the
/// string's last digit being bit 0; old sbc-bench versions print a legend that names bits 1/2
/// and 17/18 the other way round.
fn rpi_bits(log: &ImportedLog) -> Vec<Finding> {
    let Some(raw) = log.rpi_throttled.as_deref() else {
        return Vec::new();
    };
    let Ok(v) = u32::from_str_radix(raw, 2) else {
        return Vec::new();
    };
    let mut out: Vec<Finding> = Vec::new();
    for &(bit, kind, what) in BITS {
        if v & (1 << bit) == 0 {
            continue;
        }
        let now = bit < 16;
        let severity = if now {
            Severity::Invalid
        } else {
            Severity::Warning
        };
        let evidence = vec![
            format!("get_throttled bits in the log: {raw} (0x{v:x})"),
            format!("bit {bit}: {what}"),
        ];
        if let Some(f) = out.iter_mut().find(|f| f.kind == kind) {
            f.evidence.push(format!("bit {bit}: {what}"));
            f.severity = f.severity.max(severity);
            continue;
        }
        let name = match kind {
            kinds::UNDERVOLTAGE => "Under-voltage",
            kinds::FREQUENCY_CAPPING => "ARM frequency capping",
            kinds::FIRMWARE_THROTTLING => "Firmware throttling",
            _ => "The soft temperature limit",
        };
        let when = if now {
            "was active when sbc-bench queried the firmware after the benchmarks"
        } else {
            "has occurred since boot, says the firmware (queried after the benchmarks: during the run or before it)"
        };
        out.push(finding(kind, severity, format!("{name} {when}."), evidence));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn log(validation: &[&str], bits: Option<&str>) -> ImportedLog {
        ImportedLog {
            validation: validation.iter().map(|s| s.to_string()).collect(),
            rpi_throttled: bits.map(str::to_string),
            ..Default::default()
        }
    }

    #[test]
    fn validation_bullets_become_findings_with_their_line() {
        let l = log(
            &[
                "No swapping",
                "Throttling occured -> https://tinyurl.com/4ky59sys",
                "Too much other background activity: 3% avg, 14% max",
                "2 oom-killer invocations (system too low on RAM and no ZRAM configured)",
            ],
            None,
        );
        let f = imported(&l, &sbcimport::signals::signals(&l), &[]);
        let kinds: Vec<&str> = f.iter().map(|f| f.kind.as_str()).collect();
        assert_eq!(kinds, ["throttling", "background-activity", "oom-kill"]);
        assert_eq!(
            f[0].evidence,
            ["Results validation: Throttling occured -> https://tinyurl.com/4ky59sys"]
        );
        // A finding from the data wins over the verdict.
        let data = finding(kinds::THROTTLING, Severity::Invalid, "x", Vec::new());
        let s = sbcimport::signals::signals(&l);
        assert!(
            imported(&l, &s, &[data])
                .iter()
                .all(|f| f.kind != "throttling")
        );
        // Monitor samples there: boardbench's own %cpu rule decides, not the verdict.
        let mut with_samples = l.clone();
        with_samples.monitor = vec![document::imported::MonitorTable {
            phase: "tinymembench".into(),
            columns: Vec::new(),
            rows: vec![Default::default(), Default::default()],
        }];
        let s = sbcimport::signals::signals(&with_samples);
        assert!(
            imported(&with_samples, &s, &[])
                .iter()
                .all(|f| f.kind != "background-activity")
        );
    }

    #[test]
    fn old_era_verdict_line() {
        let l = log(
            &["Throttling occured. Cpufreq statistics (time in milliseconds):"],
            None,
        );
        let s = sbcimport::signals::signals(&l);
        assert_eq!(imported(&l, &s, &[])[0].kind, "throttling");
    }

    #[test]
    fn firmware_bits_decoded() {
        // 1MFf.txt: bit 17 (capping occurred since boot).
        let l = log(&[], Some("0100000000000000000"));
        let f = imported(&l, &sbcimport::signals::signals(&l), &[]);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].kind, "frequency-capping");
        assert_eq!(f[0].severity, Severity::Warning);
        // Under-voltage now and since boot: one invalid finding.
        let l = log(&[], Some("00010000000000000001"));
        let f = imported(&l, &sbcimport::signals::signals(&l), &[]);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].kind, "undervoltage");
        assert_eq!(f[0].severity, Severity::Invalid);
        assert_eq!(f[0].evidence.len(), 3);
    }
}
