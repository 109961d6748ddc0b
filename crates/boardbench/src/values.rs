//! The one place every option value is parsed: durations, CPU lists, temperatures, numbers.
//! Each is a clap value parser, so a bad value is refused before the command starts, in one
//! form (`error: invalid value 'abc' for '--cpu <LIST>': not a CPU list …`) and with exit code
//! 64 (main.rs turns clap's usage errors into [`crate::output::USAGE`]). No value that passes
//! can make the command panic later (a duration of 1e30 s overflowed `Duration`).

use std::path::PathBuf;

/// The longest duration any option takes: a year. More is a typo (and `1e30` does not fit a
/// `Duration`).
pub const MAX_SECONDS: f64 = 366.0 * 86_400.0;

/// A number of seconds from `min` to `max`, finite.
pub fn seconds_between(s: &str, min: f64, max: f64) -> Result<f64, String> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("not a number of seconds: {s:?}"))?;
    if !v.is_finite() || v < min || v > max {
        return Err(format!("seconds from {min} to {max}, not {s}"));
    }
    Ok(v)
}

/// Seconds, 0 to [`MAX_SECONDS`] (`--idle-window`, `--idle-timeout`, `--cool-timeout` …).
pub fn seconds(s: &str) -> Result<f64, String> {
    seconds_between(s, 0.0, MAX_SECONDS)
}

/// Seconds above 0, up to [`MAX_SECONDS`] (`thermal --duration`).
pub fn positive_seconds(s: &str) -> Result<f64, String> {
    let v = seconds(s)?;
    if v == 0.0 {
        return Err("must be more than 0 seconds".into());
    }
    Ok(v)
}

/// A sampling interval: 0.01 s (below it the kernel's tick-based counters show nothing) to a
/// day.
pub fn interval(s: &str) -> Result<f64, String> {
    seconds_between(s, 0.01, 86_400.0)
}

/// A finite number, 0 or more (a load average).
pub fn non_negative(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        Ok(_) => Err("must be a number of 0 or more".into()),
        Err(_) => Err(format!("not a number: {s:?}")),
    }
}

/// A percentage, 0 to 100.
pub fn percent(s: &str) -> Result<f64, String> {
    let v = non_negative(s)?;
    if v > 100.0 {
        return Err("a percentage: 0 to 100".into());
    }
    Ok(v)
}

/// A SoC temperature to wait for, in °C: 20 to 110 (no board idles cooler than a room, and
/// above 110 °C every SoC throttles or shuts down; `500` was accepted and waited forever).
pub fn celsius(s: &str) -> Result<f64, String> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("not a temperature in °C: {s:?}"))?;
    if !v.is_finite() || !(20.0..=110.0).contains(&v) {
        return Err(format!("a temperature from 20 to 110 °C, not {s}"));
    }
    Ok(v)
}

/// A clock in GHz to normalise to (`sha256 -s`): above 0, below 100.
pub fn ghz(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 && v < 100.0 => Ok(v),
        _ => Err(format!("a clock in GHz like 3.6, not {s}")),
    }
}

/// A CPU list as `taskset -c` writes it (`0-3,6`), kept as given; whether the CPUs exist and
/// may be used is checked by the command.
pub fn cpu_list(s: &str) -> Result<String, String> {
    loops::affinity::parse_cpu_list(s)
        .map(|_| s.to_string())
        .map_err(|e| format!("not a CPU list (like 0-3,6): {e}"))
}

/// `graph --cpus`: a CPU list, or `cores`, `clusters`, `all` (`engine::sweep::parse_selection`).
pub fn cpu_selection(s: &str) -> Result<String, String> {
    engine::sweep::parse_selection(s)
        .map(|_| s.to_string())
        .map_err(|e| e.to_string())
}

/// A count like 100M, 2.5M, 500k, 1G or 12345 (decimal suffixes, as the original's table).
pub fn parse_count(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let (num, mult) = match t.char_indices().last() {
        Some((i, 'k' | 'K')) => (&t[..i], 1e3),
        Some((i, 'm' | 'M')) => (&t[..i], 1e6),
        Some((i, 'g' | 'G')) => (&t[..i], 1e9),
        _ => (t, 1.0),
    };
    let bad = || format!("bad iteration count {s:?} (a number like 100M, 500k or 12345)");
    let n = if mult == 1.0 {
        num.parse::<u64>().map_err(|_| bad())?
    } else {
        let x: f64 = num.parse().map_err(|_| bad())?;
        if !x.is_finite() || x < 0.0 || x * mult > 1e15 {
            return Err(bad());
        }
        (x * mult).round() as u64
    };
    if n == 0 {
        return Err(format!("iterations must be at least 1 (got {s:?})"));
    }
    Ok(n)
}

/// An iteration count like 100M, 500k or 12345 (`sha256 -i`), kept as given.
pub fn count(s: &str) -> Result<String, String> {
    parse_count(s).map(|_| s.to_string())
}

/// `--sysroot` must name a directory: a typo would otherwise report every value "unknown".
pub fn existing_dir(s: &str) -> Result<PathBuf, String> {
    let p = PathBuf::from(s);
    if p.is_dir() {
        Ok(p)
    } else if p.exists() {
        Err("not a directory".into())
    } else {
        Err("no such directory".into())
    }
}

/// `--cpuinfo-file` / `CPUINFOFILE`: a regular file that can be read (a directory, a FIFO or
/// `/dev/zero` gave a note and exit 0, a whole run on this machine's cpuinfo).
pub fn cpuinfo_file(s: &str) -> Result<PathBuf, String> {
    // clap names the flag in its message also when the value came from the environment: say so.
    let from_env = std::env::var_os("CPUINFOFILE").is_some_and(|v| v == s);
    cpuinfo_file_checked(s).map_err(|e| {
        if from_env {
            format!("{e} (the value of the environment variable CPUINFOFILE)")
        } else {
            e
        }
    })
}

fn cpuinfo_file_checked(s: &str) -> Result<PathBuf, String> {
    let p = file(s)?;
    match std::fs::metadata(&p) {
        Ok(m) if m.is_file() => match std::fs::File::open(&p) {
            Ok(_) => Ok(p),
            Err(e) => Err(format!("cannot read it: {e}")),
        },
        Ok(m) if m.is_dir() => Err("a directory, not a cpuinfo capture".into()),
        Ok(_) => Err("not a regular file (a device or FIFO), not a cpuinfo capture".into()),
        Err(_) => Err("no such file".into()),
    }
}

/// The CPUs of `--cpu` this process may run on, or the usage error that names the others (a
/// value out of range: exit 64, as the other value errors).
pub fn allowed_cpus(cpus: &[u32], flag: &str) -> Result<(), crate::output::Usage> {
    let allowed = loops::affinity::allowed_cpus();
    let bad: Vec<String> = cpus
        .iter()
        .filter(|c| !allowed.contains(c))
        .map(u32::to_string)
        .collect();
    if bad.is_empty() {
        return Ok(());
    }
    Err(crate::output::Usage(format!(
        "{flag}: CPU {} not online or not allowed for this process (allowed: {})",
        bad.join(","),
        loops::affinity::format_cpu_list(&allowed)
    )))
}

/// A file name that is not empty.
pub fn file(s: &str) -> Result<PathBuf, String> {
    if s.is_empty() {
        return Err("an empty file name".into());
    }
    Ok(PathBuf::from(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 47: `--idle-window 1e30`, `thermal --duration 1e30` panicked converting to a
    /// `Duration`; every value that passes converts.
    #[test]
    fn every_accepted_duration_fits_a_duration() {
        for bad in ["1e30", "inf", "NaN", "-1", "abc", "", "1e400"] {
            assert!(seconds(bad).is_err(), "{bad}");
            assert!(positive_seconds(bad).is_err(), "{bad}");
            assert!(interval(bad).is_err(), "{bad}");
        }
        for good in ["0", "30", "0.5", "31622400"] {
            let v = seconds(good).unwrap();
            let _ = std::time::Duration::from_secs_f64(v);
        }
        assert!(positive_seconds("0").is_err());
        assert!(interval("0.001").is_err());
    }

    #[test]
    fn temperatures_and_cpu_lists() {
        assert!(celsius("500").is_err());
        assert!(celsius("-5").is_err());
        assert!(celsius("abc").is_err());
        assert_eq!(celsius("45").unwrap(), 45.0);
        assert!(cpu_list("abc").is_err());
        assert!(cpu_list("").is_err());
        assert_eq!(cpu_list("0-3,6").unwrap(), "0-3,6");
        assert!(percent("101").is_err());
        assert!(file("").is_err());
    }
}
