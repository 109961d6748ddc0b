//! The clock check tables ("Checking cpufreq OPP …:" with `Cpufreq OPP: … Measured: …` rows).

use model::imported::{ClockCheck, ClockRow};

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
/// `Cpufreq OPP: 1800  ThreadX: 1800  Measured: 1799 @ 0.9V`.
fn clock_row(l: &str) -> Option<ClockRow> {
    let rest = l.strip_prefix("Cpufreq OPP:")?;
    let opp_mhz = rest.split_whitespace().next().and_then(|t| t.parse().ok());
    let measured = &rest[rest.find("Measured:")? + "Measured:".len()..];
    let first = measured.split_whitespace().next()?;
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
    Some(ClockRow {
        opp_mhz,
        measured_mhz,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
