//! What a thermal test says, as pure functions of its series: when clocks first fell below
//! their ceiling (and how hot the SoC was then), the sustained clock and score, and whether the
//! score settled or keeps falling.
//!
//! Rules (documented in `boardbench thermal --help` and the report):
//! - **Throttling** starts at the first monitor sample where some cluster's clock is more than
//!   [`CLOCK_TOLERANCE`] below its ceiling (the lower of its top clock and its `scaling_max_freq`
//!   during the test). cpufreq clocks are OPP values, so a real step down is always larger than
//!   that; the tolerance only absorbs rounding of drivers that report continuous clocks.
//! - **Sustained** values are medians over the last third of the test (the SoC has had two thirds
//!   of the time to heat up); the spread is the last third's standard deviation.
//! - **Stability**: least-squares slope of the score over the last third, in percent of the
//!   last third's mean per minute. "Keeps falling" when it is steeper than
//!   −[`FALLING_PCT_PER_MIN`] %/min *and* significant: more than [`SIGNIFICANCE`] standard errors
//!   below zero (on a noisy box a few intervals can show any slope; a real thermal decline is
//!   steady). The first third's slope is reported next to it (how fast it fell while heating
//!   up). Fewer than [`MIN_INTERVALS`] score intervals, or a last third shorter than
//!   [`MIN_WINDOW_S`]: too short to say (heat builds up over minutes; a trend over a few
//!   seconds on a shared box is other load, not temperature).

use document::run::PolicyState;
use document::samples::MonitorSample;

/// A clock this far below its ceiling (fraction) counts as throttled.
pub const CLOCK_TOLERANCE: f64 = 0.02;

// The thresholds of the stability verdict, and its type and the throttle's, are the document's:
// the report renders them from a stored run (`textout::thermal`).
pub use document::thermal::{
    FALLING_PCT_PER_MIN, MIN_INTERVALS, MIN_WINDOW_S, SIGNIFICANCE, Stability, Throttle,
};

/// The built-in load's rate over one interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ScoreInterval {
    /// Seconds since the load started (end of the interval).
    pub t_s: f64,
    /// Recursive SHA-256 hashes per second, all threads together.
    pub per_s: f64,
}

/// First throttled sample; `ceilings_mhz[i]` is cluster i's ceiling (`None`: unknown, never judged).
pub fn first_throttle(samples: &[MonitorSample], ceilings_mhz: &[Option<u32>]) -> Option<Throttle> {
    let t0 = samples.first()?.unix_ms;
    for (i, s) in samples.iter().enumerate() {
        for (c, (clock, ceiling)) in s.clocks_mhz.iter().zip(ceilings_mhz).enumerate() {
            if let (Some(mhz), Some(top)) = (*clock, *ceiling)
                && top > 0
                && f64::from(mhz) < f64::from(top) * (1.0 - CLOCK_TOLERANCE)
            {
                return Some(Throttle {
                    sample: i,
                    after_s: s.unix_ms.saturating_sub(t0) as f64 / 1000.0,
                    cluster: c,
                    mhz,
                    ceiling_mhz: top,
                    temp_c: s.temp_c,
                });
            }
        }
    }
    None
}

/// Seconds each policy spent below its top clock between two snapshots (cpufreq statistics,
/// `time_in_state`), for policies where that time grew by at least 0.5 s. This sees throttling
/// between two samples, which the sampled clocks may miss.
pub fn time_below_max(before: &[PolicyState], after: &[PolicyState]) -> Vec<(u32, f64)> {
    let mut out = Vec::new();
    for a in after {
        let Some(b) = before.iter().find(|b| b.policy == a.policy) else {
            continue;
        };
        let top = a
            .cpuinfo_max_khz
            .or_else(|| a.time_in_state.iter().map(|o| o.khz).max());
        let Some(top) = top else { continue };
        let below = |p: &PolicyState| -> f64 {
            p.time_in_state
                .iter()
                .filter(|o| o.khz < top)
                .map(|o| o.seconds)
                .sum()
        };
        let d = below(a) - below(b);
        if d >= 0.5 {
            out.push((a.policy, d));
        }
    }
    out
}

/// The median of the finite readings (`document::stats::median`).
pub fn median(v: &[f64]) -> Option<f64> {
    document::stats::median(v)
}

/// The last third of a series (at least one element when the series is not empty).
pub fn last_third<T>(v: &[T]) -> &[T] {
    let n = v.len().div_ceil(3);
    &v[v.len() - n..]
}

pub fn first_third<T>(v: &[T]) -> &[T] {
    &v[..v.len().div_ceil(3)]
}

/// Median clock of each cluster over the last third of the samples.
pub fn sustained_clocks(samples: &[MonitorSample]) -> Vec<Option<f64>> {
    let tail = last_third(samples);
    let n = samples
        .iter()
        .map(|s| s.clocks_mhz.len())
        .max()
        .unwrap_or(0);
    (0..n)
        .map(|c| {
            let v: Vec<f64> = tail
                .iter()
                .filter_map(|s| s.clocks_mhz.get(c).copied().flatten())
                .map(f64::from)
                .collect();
            median(&v)
        })
        .collect()
}

/// Least-squares slope of `per_s` over time in percent of the mean per minute.
pub fn slope_pct_per_min(series: &[ScoreInterval]) -> Option<f64> {
    slope_with_error(series).map(|(s, _)| s)
}

/// The slope and its standard error (same unit; the error is `None`-free only from three points:
/// with two it is reported as infinite).
pub fn slope_with_error(series: &[ScoreInterval]) -> Option<(f64, f64)> {
    if series.len() < 2 {
        return None;
    }
    let n = series.len() as f64;
    let mt = series.iter().map(|s| s.t_s).sum::<f64>() / n;
    let mv = series.iter().map(|s| s.per_s).sum::<f64>() / n;
    let sxx: f64 = series.iter().map(|s| (s.t_s - mt).powi(2)).sum();
    let sxy: f64 = series.iter().map(|s| (s.t_s - mt) * (s.per_s - mv)).sum();
    if sxx <= 0.0 || mv <= 0.0 {
        return None;
    }
    let b = sxy / sxx;
    let scale = 60.0 * 100.0 / mv;
    let se = if series.len() > 2 {
        let rss: f64 = series
            .iter()
            .map(|s| (s.per_s - mv - b * (s.t_s - mt)).powi(2))
            .sum();
        (rss / (n - 2.0) / sxx).sqrt() * scale
    } else {
        f64::INFINITY
    };
    Some((b * scale, se))
}

#[derive(Debug, Clone, PartialEq)]
pub struct ScoreVerdict {
    pub stability: Stability,
    /// Median of the first and the last third (hashes/s).
    pub initial: Option<f64>,
    pub sustained: Option<f64>,
    /// Standard deviation of the last third in percent of its mean.
    pub sustained_spread_pct: Option<f64>,
    /// How much lower the sustained score is than the initial one (percent; negative: higher).
    pub drop_pct: Option<f64>,
    pub first_slope_pct_per_min: Option<f64>,
    pub last_slope_pct_per_min: Option<f64>,
}

pub fn score_verdict(series: &[ScoreInterval]) -> ScoreVerdict {
    let vals = |s: &[ScoreInterval]| s.iter().map(|x| x.per_s).collect::<Vec<f64>>();
    let first = first_third(series);
    let last = last_third(series);
    let initial = median(&vals(first));
    let sustained = median(&vals(last));
    let spread = {
        let v = vals(last);
        let n = v.len() as f64;
        let mean = v.iter().sum::<f64>() / n.max(1.0);
        (v.len() >= 2 && mean > 0.0).then(|| {
            let var = v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
            var.sqrt() / mean * 100.0
        })
    };
    let drop_pct = match (initial, sustained) {
        (Some(i), Some(s)) if i > 0.0 => Some((i - s) / i * 100.0),
        _ => None,
    };
    let last_fit = slope_with_error(last);
    let last_slope = last_fit.map(|(s, _)| s);
    let window = match (last.first(), last.last()) {
        (Some(a), Some(b)) => b.t_s - a.t_s,
        _ => 0.0,
    };
    let stability = if series.len() < MIN_INTERVALS || window < MIN_WINDOW_S {
        Stability::TooShort
    } else if last_fit.is_some_and(|(s, se)| s < -FALLING_PCT_PER_MIN && s < -SIGNIFICANCE * se) {
        Stability::KeepsFalling
    } else {
        Stability::Stable
    };
    ScoreVerdict {
        stability,
        initial,
        sustained,
        sustained_spread_pct: spread,
        drop_pct,
        first_slope_pct_per_min: slope_pct_per_min(first),
        last_slope_pct_per_min: last_slope,
    }
}

/// The score series as text, one interval a line ("t_s hashes_per_s"): the compact record of the
/// built-in load's output in the document (its tool run), instead of one measurement per interval.
pub fn series_text(series: &[ScoreInterval]) -> String {
    let mut s =
        String::from("# seconds since start, recursive SHA-256 hashes per second (all threads)\n");
    for x in series {
        s.push_str(&format!("{:.1} {:.0}\n", x.t_s, x.per_s));
    }
    s
}

/// Reads [`series_text`] back (for tests and renderers); malformed lines are skipped.
#[cfg_attr(not(test), allow(dead_code))]
pub fn parse_series(text: &str) -> Vec<ScoreInterval> {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let mut w = l.split_whitespace();
            Some(ScoreInterval {
                t_s: w.next()?.parse().ok()?,
                per_s: w.next()?.parse().ok()?,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(ms: u64, clocks: &[Option<u32>], temp: Option<f64>) -> MonitorSample {
        MonitorSample {
            unix_ms: ms,
            interval_s: 2.0,
            clocks_mhz: clocks.to_vec(),
            load1: None,
            cpu: None,
            temp_c: temp,
            rpi: None,
        }
    }

    fn series(f: impl Fn(f64) -> f64, n: usize) -> Vec<ScoreInterval> {
        (1..=n)
            .map(|i| ScoreInterval {
                t_s: i as f64 * 2.0,
                per_s: f(i as f64 * 2.0),
            })
            .collect()
    }

    #[test]
    fn throttling_starts_at_the_first_clock_below_its_ceiling() {
        let s = vec![
            sample(1000, &[Some(2400), Some(1800)], Some(60.0)),
            sample(3000, &[Some(2400), Some(1800)], Some(79.0)),
            sample(5000, &[Some(2400), Some(1608)], Some(85.2)),
            sample(7000, &[Some(2208), Some(1608)], Some(86.0)),
        ];
        let t = first_throttle(&s, &[Some(2400), Some(1800)]).unwrap();
        assert_eq!(
            (t.sample, t.cluster, t.mhz, t.ceiling_mhz),
            (2, 1, 1608, 1800)
        );
        assert_eq!(t.after_s, 4.0);
        assert_eq!(t.temp_c, Some(85.2));
    }

    #[test]
    fn rounding_and_unknown_ceilings_are_not_throttling() {
        let s = vec![
            sample(0, &[Some(2395), Some(400)], None),
            sample(10, &[None, Some(300)], None),
        ];
        assert_eq!(first_throttle(&s, &[Some(2400), None]), None);
        assert_eq!(first_throttle(&[], &[Some(1)]), None);
    }

    #[test]
    fn a_flat_score_is_stable_and_a_falling_one_is_not() {
        let flat = score_verdict(&series(
            |t| {
                1e6 + if (t as u64).is_multiple_of(4) {
                    5e3
                } else {
                    -5e3
                }
            },
            45,
        ));
        assert_eq!(flat.stability, Stability::Stable);
        assert!(flat.drop_pct.unwrap().abs() < 1.0);
        // −3 % of the start value per minute all the way.
        let falling = score_verdict(&series(|t| 1e6 * (1.0 - 0.0005 * t), 90));
        assert_eq!(falling.stability, Stability::KeepsFalling);
        assert!(falling.last_slope_pct_per_min.unwrap() < -FALLING_PCT_PER_MIN);
        assert!(falling.drop_pct.unwrap() > 5.0);
        // A noisy but level score: steep slopes between neighbours, no significant trend.
        let noisy = score_verdict(&series(|t| 1e6 * (1.0 + 0.1 * ((t * 1.7).sin())), 45));
        assert_eq!(noisy.stability, Stability::Stable, "{noisy:?}");
    }

    #[test]
    fn a_score_that_falls_then_settles_is_stable_with_its_drop() {
        let v = score_verdict(&series(|t| if t < 40.0 { 1e6 - 5e3 * t } else { 8e5 }, 60));
        assert_eq!(v.stability, Stability::Stable);
        assert!(v.first_slope_pct_per_min.unwrap() < -10.0);
        assert_eq!(v.sustained, Some(8e5));
        // First third: median of 990 000 … 800 000 ≈ 895 000.
        assert!((v.drop_pct.unwrap() - 10.6).abs() < 0.5, "{:?}", v.drop_pct);
    }

    #[test]
    fn short_series_give_no_verdict_and_never_panic() {
        assert_eq!(score_verdict(&[]).stability, Stability::TooShort);
        assert_eq!(score_verdict(&[]).sustained, None);
        assert_eq!(
            score_verdict(&series(|_| 5.0, 8)).stability,
            Stability::TooShort
        );
        // Enough intervals, but the last third spans only 10 s (a 30-second test).
        let quick = score_verdict(&series(|t| 1e6 * (1.0 - 0.01 * t), 15));
        assert_eq!(quick.stability, Stability::TooShort);
        assert_eq!(slope_pct_per_min(&series(|_| 0.0, 5)), None);
        assert_eq!(median(&[f64::NAN]), None);
    }

    #[test]
    fn sustained_clock_is_the_median_of_the_last_third() {
        let s: Vec<MonitorSample> = [2400, 2400, 2400, 2208, 2016, 2016]
            .iter()
            .enumerate()
            .map(|(i, &c)| sample(i as u64, &[Some(c), None], None))
            .collect();
        assert_eq!(sustained_clocks(&s), vec![Some(2016.0), None]);
    }

    #[test]
    fn time_in_state_growth_below_the_top_clock_is_counted() {
        use document::run::OppTime;
        let st = |p: u32, low: f64, top: f64| PolicyState {
            policy: p,
            cpuinfo_max_khz: Some(2_400_000),
            time_in_state: vec![
                OppTime {
                    khz: 408_000,
                    seconds: low,
                },
                OppTime {
                    khz: 2_400_000,
                    seconds: top,
                },
            ],
            ..PolicyState::default()
        };
        let before = [st(0, 100.0, 5.0), st(4, 100.0, 5.0)];
        let after = [st(0, 100.2, 35.0), st(4, 112.0, 23.0)];
        assert_eq!(time_below_max(&before, &after), vec![(4, 12.0)]);
        assert!(time_below_max(&[], &after).is_empty());
    }

    #[test]
    fn the_series_text_round_trips() {
        let s = series(|t| 1000.0 * t, 4);
        assert_eq!(parse_series(&series_text(&s)), s);
        assert!(parse_series("garbage\n1.0\n2 x\n").is_empty());
    }
}
