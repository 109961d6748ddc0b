//! `outlier`: a headline figure far outside the range of its SoC's published rows (sbc-bench's
//! Results.md, the built-in corpus), connected to what the document already says could explain
//! it — or the statement that nothing in the run does.
//!
//! Rule: the run's figure (not one a quick run's profile marks not comparable) is placed among the comparable rows of the same SoC and the same
//! architecture class (`corpus::place_run`; an imported log's own table row is left out). With
//! at least [`OUTLIER_MIN_SOC_ROWS`] such rows, a figure more than [`OUTLIER_PCT`] % below the
//! lowest of them (or above the highest) is an outlier. One finding per run lists every such
//! figure; its evidence gives the possible causes in the document:
//! - the other findings that lower figures (throttling, clock drops, swapping, a governor …),
//! - figures the document marks not comparable (quick run, 7-Zip newer than 16.02),
//! - a measured clock more than [`OUTLIER_CLOCK_PCT`] % below (or above) the median of the
//!   clocks the SoC's rows were measured at,
//! - a 32-bit userland on a 64-bit kernel where the SoC's rows are mostly 64-bit,
//! - a kernel older than every one of the SoC's rows,
//! - clock or voltage settings in an imported Raspberry Pi log's config.txt (arm_freq,
//!   over_voltage, force_turbo …), for a figure too high or too low.

use document::{Finding, ResultDocument, Severity};

use crate::tolerances::{OUTLIER_CLOCK_PCT, OUTLIER_MIN_SOC_ROWS, OUTLIER_PCT};
use crate::{finding, kinds};

/// Findings that lower benchmark figures, with the figures they explain (`None`: all).
const CAUSES: &[(&str, Option<&[corpus::Figure]>)] = &[
    (kinds::THROTTLING, None),
    (kinds::CLOCK_DROP, None),
    (kinds::SILENT_THROTTLING, None),
    (kinds::FREQUENCY_CAPPING, None),
    (kinds::UNDERVOLTAGE, None),
    (kinds::FIRMWARE_THROTTLING, None),
    (kinds::SOFT_TEMP_LIMIT, None),
    (kinds::THERMAL_THROTTLE, None),
    (kinds::POWERCAP, None),
    (kinds::POLICY_CAPPED, None),
    (kinds::FAKE_CLOCK, None),
    (kinds::GOVERNOR, None),
    (kinds::SWAPPING, None),
    (kinds::OOM_KILL, None),
    (kinds::BACKGROUND_ACTIVITY, None),
    (kinds::SYSTEM_ACTIVITY, None),
    (kinds::BUSY_AT_START, None),
    (kinds::CORES_KILLED, None),
    (kinds::VM_GUEST, None),
    (
        kinds::SEVENZIP_FALLING,
        Some(&[corpus::Figure::SevenZipMulti] as &[corpus::Figure]),
    ),
    (
        kinds::SEVENZIP_NOT_COMPARABLE,
        Some(&[
            corpus::Figure::SevenZipMulti,
            corpus::Figure::SevenZipSingle,
        ] as &[corpus::Figure]),
    ),
];

/// The headline crate's name of a corpus figure (the comparability flags' key).
fn headline_name(f: corpus::Figure) -> &'static str {
    match f {
        corpus::Figure::SevenZipMulti => "zip_multi",
        corpus::Figure::SevenZipSingle => "zip_single",
        corpus::Figure::Aes256 => "aes",
        corpus::Figure::Memcpy => "memcpy",
        corpus::Figure::Memset => "memset",
        corpus::Figure::Cpuminer => "khs",
    }
}

/// "5.10.110" → (5, 10).
fn kernel_version(s: &str) -> Option<(u32, u32)> {
    let mut it = s.trim().split(|c: char| !c.is_ascii_digit());
    let major = it.next()?.parse().ok()?;
    let minor = it.next()?.parse().ok()?;
    Some((major, minor))
}

fn median(mut v: Vec<f64>) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    Some(if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    })
}

/// The outlier finding of `doc`, given the findings already made from it.
pub(crate) fn check(doc: &ResultDocument, found: &[Finding]) -> Option<Finding> {
    check_in(corpus::corpus(), doc, found)
}

pub(crate) fn check_in(
    c: &corpus::Corpus,
    doc: &ResultDocument,
    found: &[Finding],
) -> Option<Finding> {
    let placed = corpus::place_run(c, doc);
    let class = placed.class?;
    let soc = placed.soc.clone()?;
    // A quick run's figures are not sbc-bench's measurements: they are not judged against the
    // table at all (their placement says "not comparable"). A 7-Zip that is not comparable is
    // judged, and named as a cause.
    let flags = headline::comparability::of_document(doc);
    let profile_flagged = |f: corpus::Figure| {
        flags
            .iter()
            .any(|x| !x.comparable_with_sbc_bench && x.figure == headline_name(f))
    };
    let mut out: Vec<(&corpus::RunFigure, bool)> = Vec::new();
    for f in &placed.figures {
        if profile_flagged(f.placement.figure) {
            continue;
        }
        let Some(s) = &f.placement.same_soc else {
            continue;
        };
        if s.count < OUTLIER_MIN_SOC_ROWS {
            continue;
        }
        let v = f.placement.value;
        if v < s.min * (1.0 - OUTLIER_PCT / 100.0) {
            out.push((f, true));
        } else if v > s.max * (1.0 + OUTLIER_PCT / 100.0) {
            out.push((f, false));
        }
    }
    if out.is_empty() {
        return None;
    }

    let mut evidence: Vec<String> = out
        .iter()
        .map(|(f, low)| {
            let s = f.placement.same_soc.as_ref().expect("checked above");
            format!(
                "{} {}: {:.0} % of the {} median {} ({} comparable {} rows, range {}–{}), {} the range by more than {OUTLIER_PCT} %",
                f.placement.figure.label(),
                corpus::run::number(f.placement.value),
                s.percent_of_median,
                soc,
                corpus::run::number(s.median),
                s.count,
                class.name(),
                corpus::run::number(s.min),
                corpus::run::number(s.max),
                if *low { "below" } else { "above" }
            )
        })
        .collect();
    let any_low = out.iter().any(|(_, low)| *low);
    let figures: Vec<corpus::Figure> = out.iter().map(|(f, _)| f.placement.figure).collect();

    // What in the document could explain it.
    let mut causes: Vec<String> = Vec::new();
    if any_low {
        for (kind, only) in CAUSES {
            if let Some(only) = only
                && !figures.iter().any(|f| only.contains(f))
            {
                continue;
            }
            for f in found.iter().filter(|f| f.kind == *kind) {
                causes.push(format!("finding `{}`: {}", f.kind, f.message));
            }
        }
    }
    for (f, _) in &out {
        if let Some(why) = &f.not_comparable {
            causes.push(format!(
                "{} is not comparable with sbc-bench's: {why}",
                f.placement.figure.label()
            ));
        }
    }
    let rows: Vec<&corpus::Entry> = c
        .by_soc(&soc)
        .filter(|e| e.class == class && e.comparable())
        .collect();
    let run_clock = headline::rules::measured_clocks(doc).first().copied();
    let rows_clock = median(
        rows.iter()
            .filter_map(|e| e.clocks_mhz.iter().max().map(|&m| m as f64))
            .collect(),
    );
    if let (Some(run), Some(rows_clk)) = (run_clock, rows_clock) {
        let low_clock = run < rows_clk * (1.0 - OUTLIER_CLOCK_PCT / 100.0);
        let high_clock = run > rows_clk * (1.0 + OUTLIER_CLOCK_PCT / 100.0);
        if (any_low && low_clock) || (!any_low && high_clock) {
            causes.push(format!(
                "measured clock {run:.0} MHz, the {soc} rows' median clock {rows_clk:.0} MHz ({:+.0} %)",
                (run / rows_clk - 1.0) * 100.0
            ));
        }
    }
    if let Some(set) = clock_settings(doc) {
        causes.push(set);
    }
    let (userland, kernel) = corpus::run::arches(doc);
    if let (Some(u), Some(k)) = (&userland, &kernel)
        && corpus::run::is_32bit_arch(u)
        && corpus::run::is_64bit_arch(k)
    {
        let r64 = rows
            .iter()
            .filter(|e| matches!(e.arch, Some(corpus::Arch::Arm64 | corpus::Arch::X86_64)))
            .count();
        let r32 = rows
            .iter()
            .filter(|e| matches!(e.arch, Some(corpus::Arch::Armhf | corpus::Arch::I386)))
            .count();
        if r64 > r32 {
            causes.push(format!(
                "32-bit userland ({u}) on a 64-bit kernel ({k}); {r64} of the {soc} rows are 64-bit, {r32} 32-bit"
            ));
        }
    }
    let run_kernel = headline::columns::columns(doc)
        .kernel
        .as_deref()
        .and_then(kernel_version);
    let oldest = rows.iter().filter_map(|e| kernel_version(&e.kernel)).min();
    if any_low
        && let (Some(rk), Some(old)) = (run_kernel, oldest)
        && rk < old
    {
        causes.push(format!(
            "kernel {}.{} is older than every {soc} row's (oldest {}.{})",
            rk.0, rk.1, old.0, old.1
        ));
    }

    let (first, _) = out[0];
    let s = first.placement.same_soc.as_ref().expect("checked above");
    let more = if out.len() > 1 {
        format!(" ({} more figures too)", out.len() - 1)
    } else {
        String::new()
    };
    let head = format!(
        "{} is {:.0} % of the {} median of sbc-bench's published rows{more}",
        first.placement.figure.label(),
        s.percent_of_median,
        soc
    );
    let message = if causes.is_empty() {
        format!("{head}; nothing in the run explains it.")
    } else {
        format!(
            "{head}; possible cause{}: {}.",
            if causes.len() == 1 { "" } else { "s" },
            {
                let mut short: Vec<String> = Vec::new();
                for c in &causes {
                    let s = c.split(':').next().unwrap_or(c).to_string();
                    if !short.contains(&s) {
                        short.push(s);
                    }
                }
                short.join(", ")
            }
        )
    };
    evidence.extend(causes.iter().map(|c| format!("possible cause: {c}")));
    if causes.is_empty() {
        evidence.push(
            "nothing in the run explains it: no throttling, clock, swap, governor or comparability finding, clock, userland and kernel as the published rows'".into(),
        );
    }
    evidence.push(format!(
        "rule: at least {OUTLIER_MIN_SOC_ROWS} comparable rows of the SoC, more than {OUTLIER_PCT} % outside their range; corpus: {} ({})",
        placed.provenance(),
        corpus::LICENSE_LINE
    ));
    Some(finding(
        kinds::OUTLIER,
        Severity::Warning,
        message,
        evidence,
    ))
}

/// The config.txt settings that decide a Raspberry Pi's clock and voltage (an overclock or an
/// underclock written by the user).
const CLOCK_KEYS: &[&str] = &[
    "arm_freq",
    "arm_freq_max",
    "arm_freq_min",
    "over_voltage",
    "over_voltage_delta",
    "over_voltage_min",
    "force_turbo",
    "core_freq",
    "gpu_freq",
    "sdram_freq",
    "sdram_over_voltage",
];

/// "clock settings in the log's /boot/config.txt: over_voltage=2, arm_freq=1800" when an
/// imported log's config.txt sets the clock or voltage (comments left out).
fn clock_settings(doc: &ResultDocument) -> Option<String> {
    let cfg = doc.imported.as_ref()?.rpi_config.as_ref()?;
    let set: Vec<&str> = cfg
        .lines
        .iter()
        .map(|l| l.trim())
        .filter(|l| {
            l.split_once('=')
                .is_some_and(|(k, _)| CLOCK_KEYS.contains(&k.trim()))
        })
        .collect();
    (!set.is_empty()).then(|| {
        format!(
            "clock settings in the log's {}: {} (an overclock or underclock the published rows may not have)",
            cfg.path,
            set.join(", ")
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_settings_of_config_txt() {
        let mut doc = ResultDocument {
            schema_version: 1,
            producer: "t".into(),
            device: None,
            started: None,
            finished: None,
            machine: None,
            measurements: Vec::new(),
            findings: Vec::new(),
            imported: Some(document::imported::ImportedLog::default()),
            run: None,
            guide: None,
            redaction: None,
            analysis: None,
        };
        assert_eq!(clock_settings(&doc), None);
        doc.imported.as_mut().unwrap().rpi_config = Some(document::imported::RpiConfigText {
            path: "/boot/config.txt".into(),
            lines: vec![
                "dtparam=audio=on".into(),
                "over_voltage=2".into(),
                "arm_freq=1800".into(),
            ],
        });
        let s = clock_settings(&doc).unwrap();
        assert!(
            s.contains("/boot/config.txt: over_voltage=2, arm_freq=1800"),
            "{s}"
        );
    }

    #[test]
    fn kernel_versions() {
        assert_eq!(kernel_version("5.10.110-rockchip"), Some((5, 10)));
        assert_eq!(kernel_version("4.4"), Some((4, 4)));
        assert_eq!(kernel_version("x"), None);
        assert!(kernel_version("4.19").unwrap() < kernel_version("5.4").unwrap());
    }
}
