//! Raspberry Pi: the firmware's `get_throttled` bits, kmsg under-voltage lines, and the
//! config.txt settings sbc-bench warns about.
//!
//! The bits are decoded as the firmware documents them — 0 under-voltage now, 1 ARM frequency
//! capped now, 2 throttled now, 3 soft temperature limit now, 16–19 the same "has occurred since
//! boot" — not as sbc-bench does (its bc trick works, but its "throttling and capping" branch
//! can never match and under-voltage alone gives no warning). A bit set "now" at either end of
//! the run, or an "occurred" bit that appears during the run, invalidates it; an "occurred"
//! bit that was already set before the run is a warning (the board has a problem, the run may
//! not have been hit).

use document::imported::ImportedLog;
use document::run::RpiConfig;
use document::{Finding, Severity};

use crate::{RunCx, finding, kinds};

/// (bit now, bit since boot, kind, what happened).
const BITS: &[(u32, u32, &str, &str)] = &[
    (0, 16, kinds::UNDERVOLTAGE, "Under-voltage"),
    (1, 17, kinds::FREQUENCY_CAPPING, "ARM frequency capping"),
    (2, 18, kinds::FIRMWARE_THROTTLING, "Firmware throttling"),
    (3, 19, kinds::SOFT_TEMP_LIMIT, "Soft temperature limit"),
];

fn legend(bit: u32) -> &'static str {
    match bit {
        0 => "bit 0: under-voltage detected",
        1 => "bit 1: arm frequency capped",
        2 => "bit 2: currently throttled",
        3 => "bit 3: soft temperature limit active",
        16 => "bit 16: under-voltage has occurred since last reboot",
        17 => "bit 17: arm frequency capping has occurred since last reboot",
        18 => "bit 18: throttling has occurred since last reboot",
        19 => "bit 19: soft temperature limit has occurred since last reboot",
        _ => "",
    }
}

fn set(v: Option<u32>, bit: u32) -> bool {
    v.is_some_and(|v| v & (1 << bit) != 0)
}

pub(crate) fn run(cx: &RunCx) -> Vec<Finding> {
    let before = cx.before.and_then(|b| b.rpi_throttled).or_else(|| {
        cx.machine
            .and_then(|m| m.rpi.as_ref())
            .and_then(|r| r.throttled)
            .map(|t| t.raw)
    });
    let after = cx.after.and_then(|a| a.rpi_throttled);
    let uv_lines: Vec<String> = cx
        .kmsg()
        .filter(|l| l.contains("Undervoltage detected"))
        .map(str::to_string)
        .collect();
    let mut out = bits(before, after, uv_lines);
    out.extend(silent_throttling(cx));
    out.extend(config(cx));
    out
}

/// The firmware's real ARM clock (`vcgencmd measure_clock arm`) below the clock the kernel
/// believes in (cpufreq): the firmware throttles behind the kernel's back (sbc-bench's
/// "Silent throttling", seen as `1400/1200MHz` in its fake/real column on the RPi 3B+).
fn silent_throttling(cx: &RunCx) -> Option<Finding> {
    let mut ev = Vec::new();
    let mut worst: Option<(u32, u32)> = None;
    for p in cx
        .run
        .phases
        .iter()
        .filter(|p| p.status == document::run::PhaseStatus::Done)
    {
        let low: Vec<(u32, u32)> = p
            .samples
            .iter()
            .skip(1)
            .filter_map(|s| {
                let fake = (*s.clocks_mhz.first()?)?;
                let real = s.rpi?.arm_mhz?;
                (f64::from(real) < f64::from(fake) * (1.0 - SILENT_PCT / 100.0))
                    .then_some((fake, real))
            })
            .collect();
        if let Some(&(fake, real)) = low.iter().min_by_key(|(_, r)| *r) {
            ev.push(format!(
                "{}: {} samples below the kernel's clock, down to {fake}/{real} MHz (fake/real)",
                if p.title.is_empty() {
                    &p.kind
                } else {
                    &p.title
                },
                low.len()
            ));
            if worst.is_none_or(|w| real < w.1) {
                worst = Some((fake, real));
            }
        }
    }
    let (fake, real) = worst?;
    ev.push(format!("tolerance {SILENT_PCT} %"));
    Some(finding(
        kinds::SILENT_THROTTLING,
        Severity::Invalid,
        format!(
            "ATTENTION: Silent throttling has occured: the firmware ran the ARM cores at {real} MHz while the kernel set {fake} MHz."
        ),
        ev,
    ))
}

/// Real clock below the kernel's by more than this (percent) counts as silent throttling.
const SILENT_PCT: f64 = 3.0;

fn hex(v: Option<u32>) -> String {
    v.map_or("unknown".into(), |v| format!("0x{v:x}"))
}

fn bits(before: Option<u32>, after: Option<u32>, uv_lines: Vec<String>) -> Vec<Finding> {
    let mut out = Vec::new();
    for &(now, occ, kind, what) in BITS {
        let now_set = set(before, now) || set(after, now);
        let occ_before = set(before, occ);
        let occ_after = set(after, occ);
        let kmsg: &[String] = if now == 0 { &uv_lines } else { &[] };
        let (severity, when) = if now_set {
            (Severity::Invalid, "is active")
        } else if occ_after && before.is_some() && !occ_before {
            (Severity::Invalid, "occurred during the run")
        } else if !kmsg.is_empty() {
            (Severity::Invalid, "was logged by the kernel during the run")
        } else if occ_after || occ_before {
            (
                Severity::Warning,
                "has occurred since boot (before the run)",
            )
        } else {
            continue;
        };
        let mut ev = vec![format!(
            "get_throttled: {} before, {} after the run",
            hex(before),
            hex(after)
        )];
        for b in [now, occ] {
            if set(before, b) || set(after, b) {
                ev.push(legend(b).to_string());
            }
        }
        ev.extend(kmsg.iter().take(10).cloned());
        let consequence = match now {
            0 => "the power supply does not keep up and the firmware may cap the clock",
            3 => "the firmware lowers the clock from the soft limit on",
            _ => "the clock was lower than requested",
        };
        out.push(finding(
            kind,
            severity,
            format!("{what} {when}: {consequence}."),
            ev,
        ));
    }
    out
}

/// sbc-bench's "silly settings": the knobs that decide the clock on some models.
fn config(cx: &RunCx) -> Vec<Finding> {
    let Some(model) = cx
        .machine
        .and_then(|m| m.identity.device_tree.as_ref())
        .and_then(|d| d.model.as_deref())
    else {
        return Vec::new();
    };
    let Some(cfg) = cx
        .after
        .and_then(|a| a.rpi_config.as_ref())
        .or_else(|| cx.before.and_then(|b| b.rpi_config.as_ref()))
    else {
        return Vec::new();
    };
    config_findings(model, cfg)
}

fn get<'a>(cfg: &'a RpiConfig, key: &str) -> Option<&'a str> {
    // The last setting wins, as in the firmware.
    cfg.settings
        .iter()
        .rev()
        .find(|(k, _)| k.trim() == key)
        .map(|(_, v)| v.trim())
}

/// Raspberry Pi 3B+, 3A+ and CM3+ throttle to 1.2 GHz at the 60 °C soft limit unless
/// `temp_soft_limit` raises it.
fn soft_limit_model(model: &str) -> bool {
    ["3 Model B Plus", "3 Model A Plus", "Compute Module 3 Plus"]
        .iter()
        .any(|m| model.contains(m))
}

/// BCM2711 C0 or later: Pi 4 B from board revision 1.4 on, Pi 400, CM4 (B0 boards are 1.1/1.2).
fn bcm2711_c0(model: &str) -> bool {
    if model.contains("Raspberry Pi 400") || model.contains("Compute Module 4") {
        return true;
    }
    let Some(rest) = model
        .find("Raspberry Pi 4 Model B Rev 1.")
        .map(|i| &model[i + "Raspberry Pi 4 Model B Rev 1.".len()..])
    else {
        return false;
    };
    let minor: String = rest.chars().take_while(char::is_ascii_digit).collect();
    minor.parse::<u32>().is_ok_and(|m| m >= 4)
}

pub(crate) fn config_findings(model: &str, cfg: &RpiConfig) -> Vec<Finding> {
    let mut out = Vec::new();
    if soft_limit_model(model) && get(cfg, "temp_soft_limit").is_none() {
        out.push(finding(
            kinds::RPI_TEMP_SOFT_LIMIT,
            Severity::Warning,
            format!(
                "\"temp_soft_limit\" not set in {}: the {model} drops to 1200 MHz at 60 °C.",
                cfg.path
            ),
            vec![format!("model: {model}"), format!("config: {}", cfg.path)],
        ));
    }
    if bcm2711_c0(model) && get(cfg, "arm_boost") != Some("1") {
        let freq = get(cfg, "arm_freq");
        let message = match freq {
            Some(f) => format!(
                "Silly settings: \"arm_boost=1\" missing but \"arm_freq={f}\" set in {}.",
                cfg.path
            ),
            None => format!(
                "\"arm_boost=1\" missing in {}: BCM2711 C0 may stay at 1500 instead of 1800 MHz.",
                cfg.path
            ),
        };
        out.push(finding(
            kinds::RPI_ARM_BOOST,
            Severity::Info,
            message,
            vec![format!("model: {model} (BCM2711 C0 or later)")],
        ));
    }
    out
}

pub(crate) fn imported(log: &ImportedLog) -> Vec<Finding> {
    let uv: Vec<String> = log
        .kmsg
        .iter()
        .filter(|l| l.contains("Undervoltage detected"))
        .cloned()
        .collect();
    let mut out = bits(None, None, uv);
    // sbc-bench's own verdict on the firmware bits, when the log has it.
    if let Some(v) = log
        .validation
        .iter()
        .find(|v| v.to_ascii_lowercase().contains("frequency capping"))
    {
        out.push(finding(
            kinds::FREQUENCY_CAPPING,
            Severity::Invalid,
            "Frequency capping occured (sbc-bench's verdict from get_throttled).",
            vec![v.clone()],
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c0_detection() {
        assert!(bcm2711_c0("Raspberry Pi 4 Model B Rev 1.4"));
        assert!(bcm2711_c0("Raspberry Pi 4 Model B Rev 1.5"));
        assert!(!bcm2711_c0("Raspberry Pi 4 Model B Rev 1.2"));
        assert!(bcm2711_c0("Raspberry Pi 400 Rev 1.0"));
        assert!(bcm2711_c0("Raspberry Pi Compute Module 4 Rev 1.0"));
        assert!(!bcm2711_c0("Raspberry Pi 5 Model B Rev 1.0"));
        assert!(soft_limit_model("Raspberry Pi 3 Model B Plus Rev 1.3"));
        assert!(!soft_limit_model("Raspberry Pi 3 Model B Rev 1.2"));
    }

    #[test]
    fn bits_decoded_as_documented() {
        // 0x50005: under-voltage now (0), throttled now (2), both occurred (16, 18).
        let f = bits(Some(0), Some(0x50005), Vec::new());
        let kinds: Vec<&str> = f.iter().map(|f| f.kind.as_str()).collect();
        assert_eq!(kinds, [kinds::UNDERVOLTAGE, kinds::FIRMWARE_THROTTLING]);
        assert!(f.iter().all(|f| f.severity == Severity::Invalid));
        // Under-voltage only in the past, before the run: a warning.
        let f = bits(Some(0x10000), Some(0x10000), Vec::new());
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].severity, Severity::Warning);
        // Soft limit occurred during the run.
        let f = bits(Some(0), Some(0x80000), Vec::new());
        assert_eq!(f[0].kind, kinds::SOFT_TEMP_LIMIT);
        assert_eq!(f[0].severity, Severity::Invalid);
        assert!(bits(Some(0), Some(0), Vec::new()).is_empty());
    }
}
