//! The clock check tables ("Checking cpufreq OPP …:" with `Cpufreq OPP: … Measured: …` rows).

use document::imported::{ClockCheck, ClockRow};

use crate::text::{is_separator, leading_f64};

/// Every clock check block; those after "Testing … again" are marked `under_load`.
pub fn clock_checks(lines: &[&str]) -> Vec<ClockCheck> {
    let mut out: Vec<ClockCheck> = Vec::new();
    let mut under_load = false;
    let mut current: Option<ClockCheck> = None;
    for l in lines {
        if l.starts_with("Testing maximum cpufreq again")
            || l.starts_with("Testing clockspeeds again")
        {
            under_load = true;
        }
        if let Some(rest) = l.strip_prefix("Checking cpufreq OPP") {
            if let Some(c) = current.take() {
                out.push(c);
            }
            current = Some(ClockCheck {
                cluster: rest.trim().trim_end_matches(':').trim().to_string(),
                under_load,
                rows: Vec::new(),
            });
            continue;
        }
        if is_separator(l) {
            if let Some(c) = current.take() {
                out.push(c);
            }
            continue;
        }
        let Some(c) = current.as_mut() else { continue };
        if let Some(row) = clock_row(l) {
            c.rows.push(row);
        }
    }
    out.extend(current);
    out.retain(|c| !c.rows.is_empty());
    out
}

/// `Cpufreq OPP: 2016    Measured: 2102 (2102.983/…)  (+4.3%)`, the old
/// `Cpufreq OPP: 1512    Measured: 1414.085/1414.317/1414.271` and the RPi
/// `Cpufreq OPP: 1800  ThreadX: 1800  Measured: 1799 @ 0.9V`; and without cpufreq (VMs,
/// some x86 boards, a cluster whose policy is missing) a row without an OPP:
/// `No cpufreq support available. Measured on cpu1: 3580 MHz (…)` (or three samples only),
/// `No cpufreq support. Measured: 2598 MHz (…)` and `No cpufreq support.  Measured: 2598 (…)`.
fn clock_row(l: &str) -> Option<ClockRow> {
    let (opp_mhz, rest) = if let Some(rest) = l.strip_prefix("Cpufreq OPP:") {
        (
            rest.split_whitespace().next().and_then(|t| t.parse().ok()),
            rest,
        )
    } else {
        (None, l.strip_prefix("No cpufreq support")?)
    };
    let mut measured = &rest[rest.find("Measured")? + "Measured".len()..];
    // "Measured on cpu1: …" names the core it was measured on (not the first: IRQs).
    if let Some(on) = measured.strip_prefix(" on ") {
        measured = &on[on.find(':')?..];
    }
    let first = measured.strip_prefix(':')?.split_whitespace().next()?;
    let measured_mhz = if first.contains('/') {
        // Old format: three samples; report their mean.
        let v: Vec<f64> = first.split('/').filter_map(|t| t.parse().ok()).collect();
        if v.is_empty() {
            return None;
        }
        v.iter().sum::<f64>() / v.len() as f64
    } else {
        leading_f64(first)?
    };
    // "Measured on cpu1: 0 MHz ()": mhz failed on that run; there is nothing to keep.
    (measured_mhz > 0.0).then_some(ClockRow {
        opp_mhz,
        measured_mhz,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_without_cpufreq() {
        for (line, mhz) in [
            (
                "No cpufreq support available. Measured on cpu1: 3580 MHz (3579.412/3581.007/3580.530)",
                3580.0,
            ),
            (
                "No cpufreq support available. Measured on cpu1: 3590.5/3590.3/3590.2",
                3590.3333333333335,
            ),
            (
                "No cpufreq support. Measured: 2598 MHz (2599.030/2598.997/2598.965)",
                2598.0,
            ),
            (
                "No cpufreq support.  Measured: 2598 (2599.030/2598.997/2598.965)",
                2598.0,
            ),
            (
                "No cpufreq support available. Measured on cpu3: 1200 MHz ()",
                1200.0,
            ),
        ] {
            let r = clock_row(line).unwrap_or_else(|| panic!("{line}"));
            assert_eq!(r.opp_mhz, None, "{line}");
            assert!((r.measured_mhz - mhz).abs() < 1e-9, "{line}: {r:?}");
        }
        assert!(clock_row("No cpufreq support available. Not able to draw").is_none());
        assert!(clock_row("No cpufreq support available. Measured on cpu1: 0 MHz ()").is_none());
    }

    #[test]
    fn no_cpufreq_blocks_before_and_under_load() {
        let log = "Checking cpufreq OPP:\n\nNo cpufreq support available. Measured on cpu1: 3590.5/3590.3/3590.2\n\n\
                   ##########################\n\nTesting clockspeeds again. System health now:\n\nChecking cpufreq OPP:\n\n\
                   No cpufreq support available. Measured on cpu1: 3438.1/3537.6/3541.8\n\n##########################\n";
        let lines: Vec<&str> = log.lines().collect();
        let c = clock_checks(&lines);
        assert_eq!(c.len(), 2, "{c:?}");
        assert!(!c[0].under_load && c[1].under_load);
        assert!(c[1].rows[0].measured_mhz < c[0].rows[0].measured_mhz);
    }

    #[test]
    fn rows_of_each_era() {
        let r = clock_row(
            "Cpufreq OPP: 2016    Measured: 2102 (2102.983/2102.408/2101.105)     (+4.3%)",
        )
        .unwrap();
        assert_eq!((r.opp_mhz, r.measured_mhz), (Some(2016), 2102.0));
        let r = clock_row("Cpufreq OPP:  100    Measured: 98.0/99.0/100.0").unwrap();
        assert_eq!((r.opp_mhz, r.measured_mhz), (Some(100), 99.0));
        let r = clock_row("Cpufreq OPP: 1800  ThreadX: 1800  Measured: 1799 @ 0.9V").unwrap();
        assert_eq!(r.measured_mhz, 1799.0);
        assert!(clock_row("Cpufreq OPP: 1800").is_none());
    }
}
