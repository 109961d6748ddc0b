//! The table `graph` prints of a sweep, one row per point as it finishes (a sweep takes
//! minutes): cluster, OPP, measured clock, score, score per MHz, temperature, power.

/// One finished point, as the table shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Point {
    /// The cluster's CPUs ("cpu4-5").
    pub cpu_text: String,
    pub core_name: Option<String>,
    pub opp_khz: Option<u64>,
    pub measured_mhz: f64,
    pub score_khs: f64,
    pub temp_c: Option<f64>,
    pub watts: Option<f64>,
    pub watts_above_idle: Option<f64>,
}

impl Point {
    /// kH/s per measured MHz (`None` without a measured clock).
    pub fn score_per_mhz(&self) -> Option<f64> {
        (self.measured_mhz > 0.0).then(|| self.score_khs / self.measured_mhz)
    }
    /// kH/s per W = thousands of hashes per joule.
    pub fn score_per_watt(&self) -> Option<f64> {
        self.watts.filter(|&w| w > 0.0).map(|w| self.score_khs / w)
    }
}

/// The two header lines (names, then units).
pub fn header() -> String {
    format!(
        "{:<22} {:>6} {:>8} {:>10} {:>9} {:>7} {:>7} {:>7} {:>8}",
        "Cluster", "OPP", "Measured", "Score", "Score/", "Temp", "W", "W-idle", "Score/W"
    ) + "\n"
        + &format!(
            "{:<22} {:>6} {:>8} {:>10} {:>9} {:>7} {:>7} {:>7} {:>8}",
            "", "MHz", "MHz", "kH/s", "MHz", "°C", "", "", "kH/J"
        )
}

fn opt(v: Option<f64>, decimals: usize) -> String {
    v.map_or_else(|| "-".into(), |x| format!("{x:.decimals$}"))
}

/// The row of one point; a value not measured is `-`.
pub fn row(p: &Point) -> String {
    let who = match &p.core_name {
        Some(n) => format!("{} {n}", p.cpu_text),
        None => p.cpu_text.clone(),
    };
    let opp = p
        .opp_khz
        .map_or_else(|| "-".into(), |k| (k / 1000).to_string());
    format!(
        "{:<22} {:>6} {:>8.0} {:>10.1} {:>9} {:>7} {:>7} {:>7} {:>8}",
        who,
        opp,
        p.measured_mhz,
        p.score_khs,
        opt(p.score_per_mhz(), 3),
        opt(p.temp_c, 1),
        opt(p.watts, 2),
        opt(p.watts_above_idle, 2),
        opt(p.score_per_watt(), 1),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_line_up_with_the_header_and_show_missing_power_as_dashes() {
        let mut p = Point {
            cpu_text: "cpu4-5".into(),
            core_name: Some("Cortex-A76".into()),
            opp_khz: Some(2_400_000),
            measured_mhz: 2350.4,
            score_khs: 2000.0,
            temp_c: Some(45.25),
            watts: None,
            watts_above_idle: None,
        };
        let r = row(&p);
        assert!(r.starts_with("cpu4-5 Cortex-A76"), "{r}");
        assert!(
            r.contains("  2400     2350     2000.0     0.851    45.2       -       -        -"),
            "{r}"
        );
        p.watts = Some(4.0);
        p.watts_above_idle = Some(1.5);
        assert!(row(&p).ends_with("   4.00    1.50    500.0"), "{}", row(&p));
        assert_eq!(
            header().lines().next().unwrap().chars().count(),
            row(&p).chars().count()
        );
    }
}
