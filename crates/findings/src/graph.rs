//! What a `graph` sweep says about itself: a point whose clock fell below the OPP it was capped
//! to while its workload ran. Its score and score per watt then belong to a lower clock, not to
//! that OPP — the curve bends where the SoC throttled, not where efficiency changes.
//!
//! (The clock each point measured before its workload goes through the fake-clock rule like
//! the run's OPP walk: see `clocks`.)

use document::run::{Phase, kind};
use document::samples::MonitorLayout;
use document::{Finding, Severity};

use crate::tolerances::GRAPH_POINT_CLOCK_PCT;
use crate::{RunCx, capped, finding, kinds};

pub(crate) fn run(cx: &RunCx) -> Vec<Finding> {
    let layout = cx.run.monitor.as_ref();
    let mut ev = Vec::new();
    let mut worst: Option<(f64, String)> = None;
    for p in cx.run.phases_of(kind::GRAPH_POINT) {
        let Some(opp_mhz) = p
            .clock
            .first()
            .and_then(|r| r.opp_khz)
            .filter(|&k| k > 0)
            .map(|k| k as f64 / 1000.0)
        else {
            continue;
        };
        let Some(col) = column(p, layout) else {
            continue;
        };
        let seen: Vec<f64> = p
            .samples
            .iter()
            .filter_map(|s| s.clocks_mhz.get(col).copied().flatten())
            .map(f64::from)
            .collect();
        let floor = opp_mhz * (1.0 - GRAPH_POINT_CLOCK_PCT / 100.0);
        let below = seen.iter().filter(|&&m| m < floor).count();
        let Some(low) = seen.iter().copied().reduce(f64::min).filter(|_| below > 0) else {
            continue;
        };
        let line = format!(
            "{}: capped at {opp_mhz:.0} MHz, the kernel ran it down to {low:.0} MHz ({below} of {} samples)",
            p.title,
            seen.len()
        );
        let drop = (opp_mhz - low) / opp_mhz;
        if worst.as_ref().is_none_or(|w| drop > w.0) {
            worst = Some((drop, line.clone()));
        }
        ev.push(line);
    }
    let Some((_, worst)) = worst else {
        return Vec::new();
    };
    let n = ev.len();
    let mut evidence = capped(ev, 8);
    evidence.push(format!(
        "tolerance: {GRAPH_POINT_CLOCK_PCT} % below the cap, from the monitor's clock samples"
    ));
    evidence
        .push("Why it matters: these points' scores and efficiency belong to a lower clock".into());
    vec![finding(
        kinds::GRAPH_POINT_THROTTLED,
        Severity::Warning,
        format!(
            "{n} sweep point(s) did not hold their clock (worst: {worst}): those points of the curve are throttled, not the OPP's."
        ),
        evidence,
    )]
}

/// The monitor column of the point's cluster: the layout's cluster whose first CPU the point
/// ran on; without a layout the point's cluster index, or the only column there is.
fn column(p: &Phase, layout: Option<&MonitorLayout>) -> Option<usize> {
    if let Some(l) = layout.filter(|l| !l.clusters.is_empty()) {
        return l
            .clusters
            .iter()
            .position(|c| p.cpus.contains(&c.first_cpu));
    }
    let width = p.samples.iter().map(|s| s.clocks_mhz.len()).max()?;
    match p.cluster {
        Some(c) if c < width => Some(c),
        _ if width == 1 => Some(0),
        _ => None,
    }
}
