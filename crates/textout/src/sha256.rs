//! `boardbench sha256`'s report of a [`Sha256Report`]: one row per variant (Fast, Reference,
//! Portable) as the original's tables, in the unit asked for, with the per-clock figures, the
//! spread beyond 0.1 %, the disturbance remark and the final digest's verdict. (The log's block
//! of a run's SHA-256 phase is the shorter form in `logfile::phases`.)

use std::fmt::Write as _;

use document::measure::sha256::{Sha256Report, Sha256Result};

use crate::text::{DISTURBED_REMARK, shown_spread};

/// The result units of the original.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    Mh,
    Mb,
    Mib,
    Cpb,
}

impl Unit {
    pub fn parse(s: &str) -> Result<Unit, String> {
        Ok(match s.to_ascii_lowercase().as_str() {
            "mh" => Unit::Mh,
            "mb" => Unit::Mb,
            "mib" => Unit::Mib,
            "cpb" => Unit::Cpb,
            _ => return Err(format!("unknown unit {s:?}: use MH, MB, MiB or cpb")),
        })
    }
}

/// A count as the original's table writes it: "100M", "500k", "12345".
pub fn count_text(n: u64) -> String {
    if n >= 1_000_000 && n.is_multiple_of(1_000_000) {
        format!("{}M", n / 1_000_000)
    } else if n >= 1000 && n.is_multiple_of(1000) {
        format!("{}k", n / 1000)
    } else {
        n.to_string()
    }
}

/// The text report: one row per variant (Fast, Reference, Portable), as the original's tables.
pub fn render(r: &Sha256Report, unit: Unit) -> String {
    let mut o = String::new();
    let portable = if r.reference.role == "Portable" {
        Some(&r.reference)
    } else {
        r.portable.as_ref()
    };
    let portable_n = portable
        .and_then(|p| p.samples.first())
        .map(|s| format!(" (Portable {})", count_text(s.iterations)))
        .unwrap_or_default();
    let clock = match (r.clock_mhz, r.clock_source.as_deref()) {
        (Some(c), Some("given")) => format!("clock {:.0} MHz (given)", c),
        (Some(c), _) => format!(
            "clock {:.0} MHz (measured before/after: {:.0}/{:.0})",
            c,
            r.clock_before_mhz.unwrap_or(0.0),
            r.clock_after_mhz.unwrap_or(0.0)
        ),
        _ => "clock unknown".to_string(),
    };
    let _ = writeln!(
        o,
        "Recursive SHA-256 on cpu{}: {} iterations{portable_n}, {clock}",
        r.cpu.map_or("?".to_string(), |c| c.to_string()),
        count_text(r.iterations),
    );
    let (head, per) = match unit {
        Unit::Mh => ("MH/s", "P/U (MH/s per 0.1 GHz)"),
        Unit::Mb => ("MB/s", "P/U (MB/s per 0.1 GHz)"),
        Unit::Mib => ("MiB/s", "P/U (MiB/s per 0.1 GHz)"),
        Unit::Cpb => ("cycles/block", "cycles/byte"),
    };
    let _ = writeln!(o, "\n{:<11}{:<12}{:>13}   {}", "", "backend", head, per);
    let row = |o: &mut String, x: &Sha256Result| {
        let scale = match unit {
            Unit::Mh => 1.0,
            Unit::Mb => 64.0,
            Unit::Mib => 64.0 * 1e6 / 1_048_576.0,
            Unit::Cpb => 1.0,
        };
        let (a, b) = match unit {
            Unit::Cpb => (
                x.cycles_per_hash.map_or("-".into(), |c| format!("{c:.1}")),
                x.cycles_per_hash
                    .map_or("-".into(), |c| format!("{:.2}", c / 64.0)),
            ),
            _ => (
                format!("{:.2}", x.mhs * scale),
                x.mhs_per_100mhz
                    .map_or("-".into(), |p| format!("{:.3}", p * scale)),
            ),
        };
        let mut extra = String::new();
        if unit != Unit::Cpb
            && let Some(c) = x.cycles_per_hash
        {
            let _ = write!(extra, "   {c:.1} cycles/hash");
        }
        let _ = write!(extra, "   (best of {}", x.samples.len());
        if let Some(sp) = shown_spread(x.spread_pct) {
            let _ = write!(extra, ", spread {sp:.1}%");
        }
        extra.push(')');
        if x.disturbed {
            let _ = write!(extra, "   {}", DISTURBED_REMARK);
        }
        let _ = writeln!(
            o,
            "{:<11}{:<12}{:>13}   {:<23}{}",
            x.role,
            x.backend.label(),
            a,
            b,
            extra
        );
    };
    match &r.fast {
        Some(f) => {
            row(&mut o, f);
            row(&mut o, &r.reference);
        }
        None => {
            let _ = writeln!(
                o,
                "{:<11}not available: this CPU has no SHA-NI / ARMv8 SHA2 (Fast and Reference need it)",
                "Fast"
            );
        }
    }
    if let Some(p) = portable {
        row(&mut o, p);
    }
    if let Some(s) = r.reference.samples.first() {
        let verdict = match (&r.fast, r.all_verified()) {
            (Some(_), true) => "verified: Fast = Reference = Portable".to_string(),
            (None, true) => "all runs agree".to_string(),
            (_, false) => "NOT VERIFIED: digests disagree".to_string(),
        };
        let _ = writeln!(
            o,
            "\nFinal digest after {}: {} ({verdict})",
            count_text(s.iterations),
            s.digest
        );
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_as_the_original_writes_them() {
        assert_eq!(count_text(100_000_000), "100M");
        assert_eq!(count_text(500_000), "500k");
        assert_eq!(count_text(12345), "12345");
    }

    #[test]
    fn units_are_the_originals() {
        assert_eq!(Unit::parse("MH").unwrap(), Unit::Mh);
        assert_eq!(Unit::parse("MiB").unwrap(), Unit::Mib);
        assert_eq!(Unit::parse("cpb").unwrap(), Unit::Cpb);
        assert!(
            Unit::parse("GB")
                .unwrap_err()
                .to_string()
                .contains("unknown unit")
        );
    }

    use document::measure::sha256::{Sha256Backend, Sha256Sample};

    fn sample(backend: Sha256Backend, mhs: f64, iterations: u64) -> Sha256Sample {
        Sha256Sample {
            backend,
            iterations,
            wall_ns: 1,
            cpu_ns: 1,
            digest: "ab".into(),
            mhs,
        }
    }

    /// A verified result of one run, normalised to 3500 MHz (as `measure::sha256` does).
    fn row(role: &str, b: Sha256Backend, mhs: f64, n: u64) -> Sha256Result {
        Sha256Result {
            role: role.into(),
            backend: b,
            samples: vec![sample(b, mhs, n)],
            mhs,
            spread_pct: None,
            mhs_per_100mhz: Some(mhs / 35.0),
            cycles_per_hash: Some(3500.0 / mhs),
            verified: true,
            disturbed: false,
        }
    }

    #[test]
    fn render_shows_fast_reference_and_portable_rows_with_per_clock_figures() {
        let fast = row("Fast", Sha256Backend::ShaNi, 25.0, 10_000_000);
        assert_eq!(fast.cycles_per_hash, Some(140.0));
        assert!((fast.mhs_per_100mhz.unwrap() - 0.714).abs() < 0.001);
        let mut reference = row("Reference", Sha256Backend::ShaNi, 20.0, 10_000_000);
        reference.disturbed = true;
        let r = Sha256Report {
            iterations: 10_000_000,
            cpu: Some(1),
            clock_mhz: Some(3500.0),
            clock_source: Some("given".into()),
            clock_before_mhz: None,
            clock_after_mhz: None,
            fast: Some(fast),
            reference,
            portable: Some(row("Portable", Sha256Backend::Portable, 1.75, 1_000_000)),
        };
        let t = render(&r, Unit::Mh);
        assert!(t.contains("Fast       SHA-NI"), "{t}");
        assert!(t.contains("Reference  SHA-NI"), "{t}");
        assert!(t.contains("Portable   portable"), "{t}");
        assert!(t.contains("(Portable 1M)"), "{t}");
        assert!(t.contains("25.00"), "{t}");
        assert!(t.contains("0.714"), "{t}");
        assert!(t.contains("140.0 cycles/hash"), "{t}");
        assert!(t.contains("verified: Fast = Reference = Portable"), "{t}");
        // The disturbed row says so, the others do not.
        let disturbed: Vec<&str> = t.lines().filter(|l| l.contains("disturbed")).collect();
        assert_eq!(disturbed.len(), 1, "{t}");
        assert!(disturbed[0].starts_with("Reference"), "{t}");
        let t = render(&r, Unit::Cpb);
        assert!(t.contains("140.0"), "{t}");
        assert!(t.contains("2.19"), "{t}");
        let t = render(&r, Unit::Mb);
        assert!(t.contains("1600.00"), "{t}");
    }

    #[test]
    fn without_the_extension_the_output_says_so_and_shows_portable() {
        let r = Sha256Report {
            iterations: 10_000_000,
            cpu: Some(0),
            clock_mhz: None,
            clock_source: None,
            clock_before_mhz: None,
            clock_after_mhz: None,
            fast: None,
            reference: row("Portable", Sha256Backend::Portable, 1.75, 1_000_000),
            portable: None,
        };
        let t = render(&r, Unit::Mh);
        assert!(
            t.contains("Fast       not available: this CPU has no SHA-NI"),
            "{t}"
        );
        assert!(t.contains("Portable   portable"), "{t}");
        assert!(!t.contains("Reference  "), "{t}");
        assert!(t.contains("all runs agree"), "{t}");
    }
}
