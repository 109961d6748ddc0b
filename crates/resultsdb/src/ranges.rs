//! The physical range of a measurement's unit: a value outside it is a broken document (a
//! parser that read garbage, a hand-edited file), not a result, and is refused when storing.
//!
//! Rates, sizes, times and clocks cannot be negative (MB/s, MIPS, kH/s, ns, s, MHz …; any unit
//! ending in `/s`); temperatures cannot be below absolute zero; every value must be finite.
//! Units without a known range (`%`, `W` above idle, ratios) only need to be finite, because
//! differences can be negative.

/// Largest value accepted for any unit: far beyond every real figure, below nonsense such as
/// 1e308.
const CEILING: f64 = 1e15;

/// `Err(reason)` when `value` cannot be a measurement in `unit`.
pub fn check(value: f64, unit: &str) -> Result<(), String> {
    if !value.is_finite() {
        return Err(format!("{value} is not a number"));
    }
    if value.abs() > CEILING {
        return Err(format!("{value:e} {unit} is beyond any real measurement"));
    }
    let u = unit.trim();
    let non_negative = u.ends_with("/s")
        || matches!(
            u,
            "MIPS"
                | "MHz"
                | "GHz"
                | "kHz"
                | "ns"
                | "us"
                | "µs"
                | "ms"
                | "s"
                | "cycles"
                | "MH"
                | "bytes"
                | "B"
                | "KiB"
                | "MiB"
                | "GiB"
                | "cpb"
        );
    if non_negative && value < 0.0 {
        return Err(format!("{value} {u} is negative"));
    }
    if u == "°C" && value < -273.15 {
        return Err(format!("{value} °C is below absolute zero"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::check;

    #[test]
    fn physical_ranges() {
        assert!(check(-1e308, "MIPS").is_err());
        assert!(check(-1.0, "MB/s").is_err());
        assert!(check(f64::NAN, "kH/s").is_err());
        assert!(check(f64::INFINITY, "%").is_err());
        assert!(check(-300.0, "°C").is_err());
        assert!(check(1e300, "MIPS").is_err());
        assert!(check(12350.0, "MIPS").is_ok());
        assert!(check(0.0, "MB/s").is_ok());
        assert!(check(-3.5, "%").is_ok());
        assert!(check(-0.2, "W").is_ok());
        assert!(check(-10.0, "°C").is_ok());
    }
}
