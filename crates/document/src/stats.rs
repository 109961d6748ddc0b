//! Summary statistics over repeated samples: best, median and the spread that sbc-bench users read
//! as "background activity". The one place for them, so every crate that summarises repeats (the
//! kernels, the headline rules, thermal, graph, the report) agrees on what a median is.

/// Arithmetic mean; `None` for no samples.
pub fn mean(xs: &[f64]) -> Option<f64> {
    if xs.is_empty() {
        return None;
    }
    Some(xs.iter().sum::<f64>() / xs.len() as f64)
}

/// Sample standard deviation (n−1) in percent of the mean; `None` below two samples or a zero mean.
pub fn stddev_pct(xs: &[f64]) -> Option<f64> {
    if xs.len() < 2 {
        return None;
    }
    let m = mean(xs)?;
    if m == 0.0 {
        return None;
    }
    let var = xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (xs.len() - 1) as f64;
    Some(var.sqrt() / m.abs() * 100.0)
}

/// Median (mean of the middle two for an even count) of the finite samples; `None` when there
/// are none (a NaN or infinite reading is a missing sample, not a very large one).
pub fn median(xs: &[f64]) -> Option<f64> {
    let mut v: Vec<f64> = xs.iter().copied().filter(|x| x.is_finite()).collect();
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

/// Highest sample; `None` for no samples.
pub fn max(xs: &[f64]) -> Option<f64> {
    xs.iter().copied().max_by(f64::total_cmp)
}

/// Lowest sample; `None` for no samples.
pub fn min(xs: &[f64]) -> Option<f64> {
    xs.iter().copied().min_by(f64::total_cmp)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_statistics() {
        let xs = [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0];
        assert_eq!(mean(&xs), Some(5.0));
        assert_eq!(median(&xs), Some(4.5));
        // sample stddev = sqrt(32/7) = 2.138; 42.76 % of 5
        assert!((stddev_pct(&xs).unwrap() - 42.76).abs() < 0.01);
        assert_eq!(stddev_pct(&[1.0]), None);
        assert_eq!(max(&xs), Some(9.0));
        assert_eq!(min(&[]), None);
        assert_eq!(median(&[f64::NAN, 1.0, 3.0]), Some(2.0));
        assert_eq!(median(&[f64::NAN]), None);
    }
}
