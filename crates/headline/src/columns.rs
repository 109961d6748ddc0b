//! The names a run is listed under — the indexed columns of the results database, which the
//! HTML report uses as well so a run is named exactly as `results list` names it. Imported logs
//! first take what the log said; native runs take what the probe saw. The SoC is the SoC
//! catalogue's name the finisher placed the run as, where it named one.

use document::ResultDocument;
use document::imported::Headline;

use crate::rules::{figures, measured_clocks};

/// What a run is indexed and listed by.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunColumns {
    pub started: Option<String>,
    pub device: Option<String>,
    pub soc: Option<String>,
    pub arch: Option<String>,
    pub kernel: Option<String>,
    pub distro: Option<String>,
    pub producer: Option<String>,
    pub imported: bool,
    /// "2300/1800 MHz" (an imported log's own summary cell where it has one).
    pub clockspeed: Option<String>,
    /// Highest measured clock in MHz (for per-GHz figures).
    pub clock_mhz: Option<f64>,
    pub headline: Headline<f64>,
}

/// Trimmed, `None` when empty.
fn text(s: Option<&String>) -> Option<String> {
    s.map(|s| s.trim())
        .filter(|s| !s.is_empty())
        .map(String::from)
}

/// Every column of a document.
pub fn columns(doc: &ResultDocument) -> RunColumns {
    let imp = doc.imported.as_ref();
    let id = doc.machine.as_ref().map(|m| &m.identity);

    let kernel = text(imp.and_then(|i| i.kernel_release.as_ref()))
        .or_else(|| text(id.and_then(|id| id.kernel.release.as_ref())));
    let arch = text(imp.and_then(|i| i.arch.as_ref()))
        .or_else(|| text(id.and_then(|id| id.userland.as_ref()?.arch.as_ref())))
        .or_else(|| text(imp.and_then(|i| i.kernel_machine.as_ref())))
        .or_else(|| text(id.and_then(|id| id.kernel.arch.as_ref())));
    let distro = text(imp.and_then(|i| i.distro.as_ref()))
        .or_else(|| text(id.and_then(|id| id.distro.as_ref()?.pretty_name.as_ref())))
        .or_else(|| text(imp.and_then(|i| i.summary_line.as_ref().map(|s| &s.distro))));
    // The SoC catalogue's name the finisher placed the run as comes first (one name per chip
    // everywhere: "Amlogic S922X" for the log's "Meson G12B (S922X) Revision 29:b", the board's
    // SoC for a log without a guess line); then the log's or the probe's own guess.
    let placed_soc = doc
        .analysis
        .as_ref()
        .and_then(|a| a.placement.as_ref())
        .and_then(|p| text(p.soc.as_ref()));
    let soc = placed_soc
        .or_else(|| text(imp.and_then(|i| i.soc_guess.as_ref())))
        .or_else(|| text(id.and_then(|id| id.soc.as_ref().map(|s| &s.name))));
    let device = crate::device::of_document(doc);

    let clocks = measured_clocks(doc);
    let clock_mhz = clocks.iter().copied().reduce(f64::max);
    let clockspeed = text(imp.and_then(|i| i.summary_line.as_ref().map(|s| &s.clock)))
        .or_else(|| clock_cell(&clocks));

    RunColumns {
        started: text(doc.started.as_ref()),
        device,
        soc,
        arch,
        kernel,
        distro,
        producer: text(Some(&doc.producer)),
        imported: imp.is_some(),
        clockspeed,
        clock_mhz,
        headline: figures(doc),
    }
}

/// "2300/1800 MHz" as Results.md writes the Clockspeed cell.
fn clock_cell(clocks: &[f64]) -> Option<String> {
    if clocks.is_empty() {
        return None;
    }
    let mut parts: Vec<String> = clocks.iter().map(|c| format!("{c:.0}")).collect();
    parts.dedup();
    Some(format!("{} MHz", parts.join("/")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use document::Measurement;

    #[test]
    fn empty_document_has_no_columns_and_clock_cells_join_clusters() {
        let mut doc = ResultDocument {
            schema_version: 1,
            producer: " ".into(),
            device: None,
            started: None,
            finished: None,
            machine: None,
            measurements: vec![],
            findings: vec![],
            imported: None,
            run: None,
            guide: None,
            redaction: None,
            analysis: None,
        };
        assert_eq!(columns(&doc), RunColumns::default());
        doc.measurements = vec![
            Measurement::new("clock", "cpu0", 1, 1800.4, "MHz"),
            Measurement::new("clock", "cpu4", 1, 2304.0, "MHz"),
        ];
        let c = columns(&doc);
        assert_eq!(c.clockspeed.as_deref(), Some("2304/1800 MHz"));
        assert_eq!(c.clock_mhz, Some(2304.0));
    }
}
