//! Load and CPU states: /proc/loadavg and the deltas of /proc/stat's aggregate `cpu` line
//! (and the per-CPU lines' counters as they are, for `monitor --listen`).
//!
//! The formulas (sbc-bench's ProcessStats, with two deliberate differences):
//!
//! ```text
//! total = Δuser + Δnice + Δsystem + Δidle + Δiowait + Δirq + Δsoftirq + Δsteal
//! %cpu  = (total − Δidle) / total      iowait and steal count as busy, as in sbc-bench
//! %sys  = Δsystem / total
//! %usr  = Δuser / total
//! %nice = Δnice / total
//! %io   = Δiowait / total
//! %irq  = (Δirq + Δsoftirq) / total
//! ```
//!
//! Differences from sbc-bench, and why:
//! - guest and guest_nice are **not** added to the total. The kernel already accounts guest time
//!   in user (and guest_nice in nice), so sbc-bench's "sum of all fields" counts it twice. Only a
//!   host running KVM guests has non-zero guest time; there sbc-bench under-reports every share.
//! - The first sample covers a real interval: the caller keeps the previous reading (taken when
//!   the monitor starts) instead of starting from zero, which made sbc-bench's first line an
//!   average since boot.
//!
//! The shares are kept as exact fractions (in percent); the sbc-bench-style view truncates them
//! to integers when rendering. Counters that go backwards (iowait can, on some kernels) count as
//! no progress instead of wrapping around.

use document::samples::CpuStates;

/// Cumulative counters of the aggregate `cpu` line of /proc/stat, in USER_HZ ticks. Fields the
/// kernel does not print (old kernels have fewer columns) are 0.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CpuTimes {
    pub user: u64,
    pub nice: u64,
    pub system: u64,
    pub idle: u64,
    pub iowait: u64,
    pub irq: u64,
    pub softirq: u64,
    pub steal: u64,
    pub guest: u64,
    pub guest_nice: u64,
}

/// Parses the aggregate `cpu` line from the text of /proc/stat (only its beginning is needed:
/// the line is the first one on every kernel). `None` when there is no usable line.
pub fn parse_cpu_times(text: &[u8]) -> Option<CpuTimes> {
    let line = text
        .split(|&b| b == b'\n')
        .find(|l| l.starts_with(b"cpu ") || l.starts_with(b"cpu\t"))?;
    parse_fields(&line[3..])
}

/// Parses the per-CPU lines (`cpu0 …`, `cpu1 …`) of /proc/stat: each CPU's counters with its
/// number, in the kernel's order. An offline CPU has no line; a line that does not parse is left
/// out (as is a last line cut short, when only the beginning of the file was read).
pub fn parse_per_cpu_times(text: &[u8]) -> Vec<(u32, CpuTimes)> {
    let mut lines: Vec<&[u8]> = text.split(|&b| b == b'\n').collect();
    if !text.ends_with(b"\n") {
        lines.pop();
    }
    lines
        .into_iter()
        .filter_map(|l| {
            let rest = l.strip_prefix(b"cpu")?;
            let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
            let (number, fields) = rest.split_at(digits);
            if !fields.first().is_some_and(u8::is_ascii_whitespace) {
                return None;
            }
            let cpu = u32::try_from(parse_u64(number)?).ok()?;
            Some((cpu, parse_fields(fields)?))
        })
        .collect()
}

/// The counters after a `cpu…` line's name.
fn parse_fields(line: &[u8]) -> Option<CpuTimes> {
    let mut fields = [0u64; 10];
    let mut n = 0;
    for word in line
        .split(|b| b.is_ascii_whitespace())
        .filter(|w| !w.is_empty())
    {
        if n == fields.len() {
            break; // a future kernel's extra column: ignored, the known ones are complete
        }
        fields[n] = parse_u64(word)?;
        n += 1;
    }
    // user nice system idle are present since Linux 2.4; anything shorter is not /proc/stat.
    if n < 4 {
        return None;
    }
    let [
        user,
        nice,
        system,
        idle,
        iowait,
        irq,
        softirq,
        steal,
        guest,
        guest_nice,
    ] = fields;
    Some(CpuTimes {
        user,
        nice,
        system,
        idle,
        iowait,
        irq,
        softirq,
        steal,
        guest,
        guest_nice,
    })
}

fn parse_u64(word: &[u8]) -> Option<u64> {
    if word.is_empty() || word.len() > 20 {
        return None;
    }
    let mut v: u64 = 0;
    for &b in word {
        if !b.is_ascii_digit() {
            return None;
        }
        v = v.checked_mul(10)?.checked_add(u64::from(b - b'0'))?;
    }
    Some(v)
}

/// The 1-minute load average: the first field of /proc/loadavg.
pub fn parse_load1(text: &[u8]) -> Option<f64> {
    let first = text
        .split(|b| b.is_ascii_whitespace())
        .find(|w| !w.is_empty())?;
    let v: f64 = std::str::from_utf8(first).ok()?.parse().ok()?;
    (v.is_finite() && v >= 0.0).then_some(v)
}

impl CpuTimes {
    /// CPU states over the interval from `before` to `self`. `None` when no tick passed (the
    /// interval was shorter than one USER_HZ tick, or both readings are the same).
    pub fn states_since(&self, before: &CpuTimes) -> Option<CpuStates> {
        let d = |now: u64, then: u64| now.saturating_sub(then);
        let user = d(self.user, before.user);
        let nice = d(self.nice, before.nice);
        let system = d(self.system, before.system);
        let idle = d(self.idle, before.idle);
        let iowait = d(self.iowait, before.iowait);
        let irq = d(self.irq, before.irq) + d(self.softirq, before.softirq);
        let steal = d(self.steal, before.steal);
        // Sums of per-field deltas (not the difference of two totals), so no share can exceed
        // 100 % when a counter went backwards.
        let total = user + nice + system + idle + iowait + irq + steal;
        if total == 0 {
            return None;
        }
        let pct = |x: u64| x as f64 * 100.0 / total as f64;
        Some(CpuStates {
            cpu: pct(total - idle),
            sys: pct(system),
            usr: pct(user),
            nice: pct(nice),
            io: pct(iowait),
            irq: pct(irq),
            steal: pct(steal),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_modern_cpu_line() {
        let t = parse_cpu_times(b"cpu  40066 7223 5906 248104 2954 0 167 129 0 0\ncpu0 1 2 3 4\n")
            .unwrap();
        assert_eq!(t.user, 40066);
        assert_eq!(t.idle, 248104);
        assert_eq!(t.steal, 129);
    }

    #[test]
    fn parses_an_old_short_line_and_rejects_garbage() {
        let t = parse_cpu_times(b"cpu  10 0 5 100\n").unwrap();
        assert_eq!((t.user, t.iowait), (10, 0));
        assert_eq!(parse_cpu_times(b"cpu  10 x 5 100\n"), None);
        assert_eq!(parse_cpu_times(b"cpu0 10 0 5 100\n"), None);
        assert_eq!(parse_cpu_times(b"cpu 1 2\n"), None);
        assert_eq!(parse_cpu_times(b""), None);
    }

    #[test]
    fn per_cpu_lines_with_their_numbers() {
        let text = b"cpu  30 0 6 300 0 0 0 0 0 0\n\
cpu0 10 1 2 100 3 4 5 6 0 0\n\
cpu2 20 0 4 200 0 0 0 0 0 0\n\
cpux 1 2 3 4\n\
intr 12345 0 0\n\
cpu3 7 7";
        let per = parse_per_cpu_times(text);
        assert_eq!(per.len(), 2, "{per:?}");
        assert_eq!(per[0].0, 0);
        assert_eq!(
            (per[0].1.user, per[0].1.nice, per[0].1.idle, per[0].1.steal),
            (10, 1, 100, 6)
        );
        assert_eq!((per[1].0, per[1].1.user), (2, 20));
        assert!(parse_per_cpu_times(b"cpu  1 2 3 4\n").is_empty());
    }

    #[test]
    fn load_is_the_first_field() {
        assert_eq!(parse_load1(b"1.09 0.94 0.50 2/104 13555\n"), Some(1.09));
        assert_eq!(parse_load1(b"\n"), None);
        assert_eq!(parse_load1(b"-1 0 0"), None);
    }
}
