//! The table `graph` prints of a sweep: cluster, OPP, measured clock, score, score per MHz,
//! temperature, power. A pure function of the document — each row is one point phase
//! (`graph-point`) and its figures (`document::row_names::graph`) — so a stored graph run
//! renders the same table again ([`table`]); while the sweep runs, `graph` prints each row
//! ([`point_row`]) as its point finishes (a sweep takes minutes), and before it the idle
//! consumption ([`idle_line`]).

use document::machine::MachineInfo;
use document::row_names::graph as names;
use document::run::{Phase, kind};
use document::{Measurement, ResultDocument};

use crate::text::span;

/// One point, as the table shows it (a figure not measured is `None`, shown as `-`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Point {
    /// The cluster's CPUs ("cpu4-5").
    pub cpu_text: String,
    pub core_name: Option<String>,
    pub opp_khz: Option<u64>,
    pub measured_mhz: Option<f64>,
    pub score_khs: Option<f64>,
    pub score_per_mhz: Option<f64>,
    pub temp_c: Option<f64>,
    pub watts: Option<f64>,
    pub watts_above_idle: Option<f64>,
    pub score_per_watt: Option<f64>,
}

impl Point {
    /// The point a phase of kind `graph-point` records: its CPUs, the OPP its clock reading
    /// was capped to, the core name of its cluster in `machine`, and its figures (the
    /// phase's indexes into `measurements`, found by their row names).
    pub fn of_phase(
        p: &Phase,
        machine: Option<&MachineInfo>,
        measurements: &[Measurement],
    ) -> Self {
        let cpu_text = format!("cpu{}", span(&p.cpus));
        let opp_khz = p.clock.first().and_then(|c| c.opp_khz);
        let figure = |what: &str| {
            let test = names::point_test(what, &cpu_text, opp_khz);
            p.measurements
                .iter()
                .filter_map(|&i| measurements.get(i))
                .find(|m| m.suite == names::SUITE && m.test == test)
                .map(|m| m.value)
        };
        Point {
            core_name: p
                .cluster
                .and_then(|c| machine?.clusters.get(c)?.core_name.clone()),
            opp_khz,
            measured_mhz: figure(names::CLOCK),
            score_khs: figure(names::SCORE),
            score_per_mhz: figure(names::SCORE_PER_MHZ),
            temp_c: figure(names::TEMPERATURE),
            watts: figure(names::WATTS),
            watts_above_idle: figure(names::WATTS_ABOVE_IDLE),
            score_per_watt: figure(names::SCORE_PER_WATT),
            cpu_text,
        }
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
        "{:<22} {:>6} {:>8} {:>10} {:>9} {:>7} {:>7} {:>7} {:>8}",
        who,
        opp,
        opt(p.measured_mhz, 0),
        opt(p.score_khs, 1),
        opt(p.score_per_mhz, 3),
        opt(p.temp_c, 1),
        opt(p.watts, 2),
        opt(p.watts_above_idle, 2),
        opt(p.score_per_watt, 1),
    )
}

/// The row of a point phase (see [`Point::of_phase`]).
pub fn point_row(p: &Phase, machine: Option<&MachineInfo>, measurements: &[Measurement]) -> String {
    row(&Point::of_phase(p, machine, measurements))
}

/// The line of the idle-consumption phase (`graph-idle`), printed before the sweep: "Idle:
/// 2.50 W, 41.0°C" (the temperature when measured), or "Idle: no power reading (why)" — the
/// phase's reason — when it has no power figure.
pub fn idle_line(p: &Phase, measurements: &[Measurement]) -> String {
    let figure = |test: &str| {
        p.measurements
            .iter()
            .filter_map(|&i| measurements.get(i))
            .find(|m| m.suite == names::SUITE && m.test == test)
            .map(|m| m.value)
    };
    match figure(names::IDLE_WATTS) {
        Some(w) => format!(
            "Idle: {w:.2} W{}",
            figure(names::IDLE_TEMPERATURE)
                .map(|t| format!(", {t:.1}°C"))
                .unwrap_or_default()
        ),
        None => format!(
            "Idle: no power reading ({})",
            p.reason.as_deref().unwrap_or("no reason recorded")
        ),
    }
}

/// The sweep table of a graph run's document: the header and a row per point, in the order
/// they ran (each line ends in a newline). Only the header when the document has no point.
pub fn table(doc: &ResultDocument) -> String {
    let mut t = header() + "\n";
    for p in doc.run.iter().flat_map(|r| r.phases_of(kind::GRAPH_POINT)) {
        t.push_str(&point_row(p, doc.machine.as_ref(), &doc.measurements));
        t.push('\n');
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use document::machine::Cluster;
    use document::measure::clock::ClockReading;
    use document::run::RunRecord;

    fn figure(test: String, value: f64, unit: &str) -> Measurement {
        Measurement::new(names::SUITE, &test, 2, value, unit)
    }

    /// A sweep of cpu4-5 (cluster 1, Cortex-A76) at 2400 MHz with a temperature, and of
    /// cpu0 without an OPP, a temperature or power.
    fn sweep(with_power: bool) -> ResultDocument {
        let mut measurements = vec![figure(names::IDLE_WATTS.into(), 2.5, "W")];
        let mut phases = Vec::new();
        let point = |cpus: Vec<u32>, cluster, opp: Option<u64>, figures: &mut Vec<Measurement>| {
            let cpu_text = format!("cpu{}", span(&cpus));
            let name = |what| names::point_test(what, &cpu_text, opp);
            let mut rows = vec![
                figure(name(names::SCORE), 2000.0, "kH/s"),
                figure(name(names::CLOCK), 2350.4, "MHz"),
                figure(name(names::SCORE_PER_MHZ), 2000.0 / 2350.4, "kH/s/MHz"),
            ];
            if opp.is_some() {
                rows.push(figure(name(names::TEMPERATURE), 45.25, "°C"));
                if with_power {
                    rows.push(figure(name(names::WATTS), 4.0, "W"));
                    rows.push(figure(name(names::WATTS_ABOVE_IDLE), 1.5, "W"));
                    rows.push(figure(name(names::SCORE_PER_WATT), 500.0, "kH/J"));
                }
            }
            let first = figures.len();
            figures.extend(rows);
            Phase {
                kind: kind::GRAPH_POINT.into(),
                cluster: Some(cluster),
                clock: vec![ClockReading {
                    cpu: cpus[0],
                    policy: None,
                    opp_khz: opp,
                    samples: Vec::new(),
                    mhz: 2350.4,
                    best_mhz: 2350.4,
                    spread_pct: None,
                    deviation_pct: None,
                    disturbed: false,
                }],
                cpus,
                measurements: (first..figures.len()).collect(),
                ..Phase::default()
            }
        };
        phases.push(Phase {
            kind: kind::GRAPH_IDLE.into(),
            measurements: vec![0],
            ..Phase::default()
        });
        phases.push(point(vec![4, 5], 1, Some(2_400_000), &mut measurements));
        phases.push(point(vec![0], 0, None, &mut measurements));
        ResultDocument {
            schema_version: 1,
            producer: "boardbench test".into(),
            device: None,
            started: None,
            finished: None,
            machine: Some(MachineInfo {
                clusters: vec![
                    Cluster {
                        cpus: vec![0, 1, 2, 3],
                        ..Cluster::default()
                    },
                    Cluster {
                        cpus: vec![4, 5],
                        core_name: Some("Cortex-A76".into()),
                        ..Cluster::default()
                    },
                ],
                ..MachineInfo::default()
            }),
            measurements,
            findings: vec![],
            imported: None,
            run: Some(RunRecord {
                profile: "graph".into(),
                phases,
                ..RunRecord::default()
            }),
            guide: None,
            redaction: None,
            analysis: None,
        }
    }

    #[test]
    fn rows_line_up_with_the_header_and_show_missing_power_as_dashes() {
        let doc = sweep(false);
        let t = table(&doc);
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines.len(), 4, "{t}");
        let r = lines[2];
        assert!(r.starts_with("cpu4-5 Cortex-A76"), "{r}");
        assert!(
            r.contains("  2400     2350     2000.0     0.851    45.2       -       -        -"),
            "{r}"
        );
        assert_eq!(lines[0].chars().count(), r.chars().count());
        // No OPP, no temperature: dashes; no core name known for cluster 0.
        assert!(lines[3].starts_with("cpu0 "), "{t}");
        assert!(lines[3].contains("     -     2350"), "{t}");
        let with_power = table(&sweep(true));
        let r = with_power.lines().nth(2).unwrap();
        assert!(r.ends_with("   4.00    1.50    500.0"), "{r}");
        assert_eq!(lines[0].chars().count(), r.chars().count());
    }

    #[test]
    fn the_table_of_a_stored_run_is_the_rows_printed_while_it_ran() {
        let doc = sweep(true);
        let run = doc.run.as_ref().unwrap();
        let mut live = header() + "\n";
        for p in run.phases_of(kind::GRAPH_POINT) {
            live += &point_row(p, doc.machine.as_ref(), &doc.measurements);
            live.push('\n');
        }
        let stored: ResultDocument =
            serde_json::from_str(&serde_json::to_string(&doc).unwrap()).unwrap();
        assert_eq!(table(&stored), live);
        // Without the machine snapshot the rows still render, without core names.
        let bare = ResultDocument {
            machine: None,
            ..stored
        };
        assert!(table(&bare).lines().nth(2).unwrap().starts_with("cpu4-5  "));
    }

    #[test]
    fn the_idle_line_shows_the_idle_phase_figures_or_why_there_are_none() {
        let doc = sweep(false);
        let run = doc.run.as_ref().unwrap();
        let idle = run.phases_of(kind::GRAPH_IDLE).next().unwrap();
        assert_eq!(idle_line(idle, &doc.measurements), "Idle: 2.50 W");
        let mut measurements = doc.measurements.clone();
        measurements.push(figure(names::IDLE_TEMPERATURE.into(), 40.96, "°C"));
        let warm = Phase {
            measurements: vec![0, measurements.len() - 1],
            ..idle.clone()
        };
        assert_eq!(idle_line(&warm, &measurements), "Idle: 2.50 W, 41.0°C");
        let none = Phase {
            measurements: Vec::new(),
            reason: Some("no power source".into()),
            ..idle.clone()
        };
        assert_eq!(
            idle_line(&none, &measurements),
            "Idle: no power reading (no power source)"
        );
    }

    #[test]
    fn a_document_without_points_is_the_header_alone() {
        let mut doc = sweep(false);
        doc.run = None;
        assert_eq!(table(&doc), header() + "\n");
    }
}
