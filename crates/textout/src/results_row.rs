//! sbc-bench's summary line, the row of its Results.md table:
//! `| Device | MHz | Kernel | Distro arch | 7-zip multi | 7-zip single | AES | memcpy | memset | kH/s |`
//! (docs/sbc-bench-compat.md). A run uploads nothing by itself, so there is no URL cell here;
//! `boardbench share` prints this row with the paste's link appended as that cell.
//!
//! The numbers are `headline::results_row`: the one mapping from measurement rows to the
//! Results.md columns, rounded as sbc-bench rounds them.

use document::ResultDocument;
use document::imported::ImportedLog;
use document::machine::MachineInfo;
use headline::{Figure, r10};

use crate::text::{one_line, one_line_or_none};

/// The cells of the summary row, before formatting (`None` = "-").
#[derive(Debug, Clone, PartialEq)]
pub struct ResultsRowCells {
    pub device: String,
    /// "2400/1800 MHz", "~2310", "1800 MHz (throttled)", "no cpufreq support".
    pub clock: String,
    /// Kernel major.minor ("6.1").
    pub kernel: String,
    /// "Debian GNU/Linux 12 (bookworm) arm64", "Ubuntu 22.04.2 LTS x86_64/amd64".
    pub distro: String,
    pub zip_multi: Option<u64>,
    pub zip_single: Option<u64>,
    pub aes: Option<u64>,
    pub memcpy: Option<u64>,
    pub memset: Option<u64>,
    pub khs: Option<f64>,
}

/// The summary row, without a line end. A figure not measured the way sbc-bench measures it
/// carries its profile (`5600 (quick)`), and a run a signal cut short its mark after the device
/// (`Rock 5B (interrupted)`), so the row never passes for a full run's.
pub fn results_row(doc: &ResultDocument) -> String {
    let c = results_row_cells(doc);
    let flags = headline::comparability::of_document(doc);
    let marked = |figure: Figure, v: String| {
        if v == "-" {
            v
        } else {
            v + &headline::comparability::mark(&flags, figure)
        }
    };
    let n = |figure: Figure, v: Option<u64>| {
        marked(figure, v.map_or_else(|| "-".to_string(), |v| v.to_string()))
    };
    let khs = marked(
        Figure::Khs,
        c.khs.map_or_else(|| "-".to_string(), |v| format!("{v:.2}")),
    );
    let mut device = cell(&c.device);
    if doc
        .run
        .as_ref()
        .is_some_and(|r| document::run::cut_short(&r.phases))
    {
        device.push_str(document::run::CUT_SHORT_MARK);
    }
    format!(
        "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
        device,
        cell(&c.clock),
        cell(&c.kernel),
        cell(&c.distro),
        n(Figure::ZipMulti, c.zip_multi),
        n(Figure::ZipSingle, c.zip_single),
        n(Figure::Aes, c.aes),
        n(Figure::Memcpy, c.memcpy),
        n(Figure::Memset, c.memset),
        khs
    )
}

/// A text cell: one line, no `|` (it would split the cell), "-" when empty.
fn cell(s: &str) -> String {
    let s = one_line(&s.replace('|', "/"));
    if s.is_empty() { "-".into() } else { s }
}

/// The cells of [`results_row`].
pub fn results_row_cells(doc: &ResultDocument) -> ResultsRowCells {
    let h = headline::results_row(doc);
    ResultsRowCells {
        device: headline::device::of_document(doc)
            .and_then(|d| one_line_or_none(&d))
            .unwrap_or_else(|| "unknown device".into()),
        clock: clock_cell(doc),
        kernel: kernel_cell(doc),
        distro: distro_cell(doc),
        zip_multi: h.zip_multi,
        zip_single: h.zip_single,
        aes: h.aes,
        memcpy: h.memcpy,
        memset: h.memset,
        khs: h.khs,
    }
}

/// Highest `cpuinfo_max_freq` of each cluster with online CPUs, in MHz, machine order. Clusters
/// with per-CPU policies (x86) take the highest of their policies.
fn cluster_max_mhz(m: &MachineInfo) -> Vec<u64> {
    m.clusters
        .iter()
        .filter(|c| !c.online_cpus().is_empty())
        .filter_map(|c| {
            let from_policies = m
                .policies
                .iter()
                .filter(|p| p.related_cpus.iter().any(|cpu| c.cpus.contains(cpu)))
                .filter_map(|p| p.cpuinfo_max_khz)
                .max();
            from_policies.or(c.max_khz).map(|k| k / 1000)
        })
        .filter(|&mhz| mhz > 0)
        .collect()
}

/// An imported log has no machine snapshot: its clock checks name the top OPP of each cluster.
fn imported_max_mhz(i: &ImportedLog) -> Vec<u64> {
    i.clock_checks
        .iter()
        .filter(|c| !c.under_load)
        .filter_map(|c| c.rows.iter().filter_map(|r| r.opp_mhz).max())
        .map(u64::from)
        .filter(|&mhz| mhz > 0)
        .collect()
}

/// sbc-bench's clock cell: `"<max> MHz"`, or `"<big>/<little> MHz"` from the last and the first
/// cluster when they differ; `"~<measured rounded to ten>"` when the measured top clock deviates more than 2 %
/// from the highest `cpuinfo_max_freq`; without cpufreq `"~NNNN MHz"` or "no cpufreq support";
/// " (throttled)" appended when throttling was found or the clock dropped by more than 3 %.
fn clock_cell(doc: &ResultDocument) -> String {
    let maxes = match (&doc.machine, &doc.imported) {
        (Some(m), _) if !cluster_max_mhz(m).is_empty() => cluster_max_mhz(m),
        (_, Some(i)) => imported_max_mhz(i),
        _ => Vec::new(),
    };
    let measured = headline::measured_clocks(doc).first().copied();
    let mut cell = match (maxes.iter().max(), measured) {
        (None, Some(m)) => format!("~{} MHz", r10(m)),
        (None, None) => "no cpufreq support".to_string(),
        (Some(&top), Some(m)) if (m - top as f64).abs() > 0.02 * top as f64 => {
            format!("~{}", r10(m))
        }
        (Some(&top), _) => match (maxes.first(), maxes.last()) {
            // Two clusters with the same maximum (two A76 clusters of an RK3588 seen as
            // first/last, per-core policies) show one value, as sbc-bench's rows do.
            (Some(&first), Some(&last)) if first != last => {
                format!("{}/{} MHz", first.max(last), first.min(last))
            }
            _ => format!("{top} MHz"),
        },
    };
    if throttled(doc) {
        cell.push_str(" (throttled)");
    }
    cell
}

/// A throttling finding, or the clock of the last cluster measured after the hardest phase
/// more than 3 % below the first measurement (sbc-bench's SummarizeResults rule).
pub(crate) fn throttled(doc: &ResultDocument) -> bool {
    // An imported log: sbc-bench writes its "Throttling statistics" only when time was spent
    // below the top OPP, so their presence is its verdict (also when the findings' threshold
    // left a short stay below the top out).
    let imported_verdict = doc.run.is_none()
        && doc
            .imported
            .as_ref()
            .is_some_and(|i| !i.throttling.is_empty());
    doc.findings.iter().any(|f| f.kind == "throttling")
        || imported_verdict
        || clock_drop(doc).is_some()
}

/// Before and after clock (MHz) of the last cluster measured both times, when before/after
/// exceeds 1.03.
pub(crate) fn clock_drop(doc: &ResultDocument) -> Option<(f64, f64)> {
    let pair = match &doc.imported {
        Some(i) if doc.run.is_none() => imported_clock_pair(i),
        _ => native_clock_pair(doc),
    }?;
    (pair.1 > 0.0 && pair.0 / pair.1 > 1.03).then_some(pair)
}

/// From the rows suite "clock" / "clock-hot", test "cpuN": the highest CPU measured both times.
fn native_clock_pair(doc: &ResultDocument) -> Option<(f64, f64)> {
    let rows: Vec<_> = doc
        .measurements
        .iter()
        .filter(|r| r.value.is_finite())
        .collect();
    let cpu_of = |t: &str| t.strip_prefix("cpu")?.parse::<u32>().ok();
    let mut best: Option<(u32, f64, f64)> = None;
    for hot in rows.iter().filter(|r| r.suite == "clock-hot") {
        let Some(cpu) = cpu_of(&hot.test) else {
            continue;
        };
        let before = rows
            .iter()
            .filter(|r| r.suite == "clock" && r.test == hot.test)
            .map(|r| r.value)
            .reduce(f64::max);
        if let Some(b) = before
            && best.is_none_or(|(c, _, _)| cpu > c)
        {
            best = Some((cpu, b, hot.value));
        }
    }
    best.map(|(_, b, a)| (b, a))
}

/// From an imported log's clock checks: the last cluster's top row before and under load.
fn imported_clock_pair(i: &ImportedLog) -> Option<(f64, f64)> {
    let top = |under_load: bool| {
        let check = i
            .clock_checks
            .iter()
            .rfind(|c| c.under_load == under_load)?;
        check.rows.first().map(|r| r.measured_mhz)
    };
    Some((top(false)?, top(true)?))
}

/// "6.1" from "6.1.0-28-arm64".
fn kernel_cell(doc: &ResultDocument) -> String {
    let release = doc
        .machine
        .as_ref()
        .and_then(|m| m.identity.kernel.release.clone())
        .or_else(|| doc.imported.as_ref()?.kernel_release.clone());
    let Some(r) = release else {
        return "-".into();
    };
    let out = one_line(&headline::rounding::kernel_cell(&r));
    if out.is_empty() { "-".into() } else { out }
}

/// The distribution as `lsb_release` describes it (codename appended when the description
/// lacks it, as newer sbc-bench versions do) and the architecture: the userland's Debian name,
/// preceded by the kernel's when the two differ ("x86_64/amd64", "arm64/armhf").
fn distro_cell(doc: &ResultDocument) -> String {
    let (os, kernel_arch, userland) = match (&doc.machine, &doc.imported) {
        (Some(m), _) => {
            let id = &m.identity;
            let os = id.distro.as_ref().and_then(|d| {
                let name = d.pretty_name.clone().or_else(|| {
                    Some(format!(
                        "{} {}",
                        d.name.as_deref()?,
                        d.version_id.as_deref().unwrap_or("")
                    ))
                })?;
                Some(match &d.version_codename {
                    Some(c)
                        if !c.is_empty() && !name.to_lowercase().contains(&c.to_lowercase()) =>
                    {
                        format!("{name} ({c})")
                    }
                    _ => name,
                })
            });
            let userland = id.userland.as_ref().and_then(|u| u.arch.clone());
            (os, id.kernel.arch.clone(), userland)
        }
        (None, Some(i)) => (i.distro.clone(), i.kernel_machine.clone(), i.arch.clone()),
        (None, None) => (None, None, None),
    };
    let arch = match (kernel_arch, userland) {
        (Some(k), Some(u)) => {
            let k = debian_name_of_kernel_arch(&k);
            if k == u { u } else { format!("{k}/{u}") }
        }
        (Some(k), None) => k,
        (None, Some(u)) => u,
        (None, None) => String::new(),
    };
    let out = [os.unwrap_or_default(), arch]
        .into_iter()
        .map(|s| one_line(&s))
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    if out.is_empty() { "-".into() } else { out }
}

/// The kernel machine under the userland's name where both mean the same ABI; x86 keeps its
/// kernel name, as sbc-bench's "x86_64/amd64" shows.
fn debian_name_of_kernel_arch(k: &str) -> String {
    match k {
        "aarch64" | "arm64" => "arm64".into(),
        k if k.starts_with("armv7") || k.starts_with("armv6") || k == "armhf" => "armhf".into(),
        k => k.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kernel_major_minor() {
        let mut doc = ResultDocument {
            schema_version: 1,
            producer: "boardbench test".into(),
            device: None,
            started: None,
            finished: None,
            machine: Some(MachineInfo::default()),
            measurements: vec![],
            findings: vec![],
            imported: None,
            run: None,
            guide: None,
            redaction: None,
            analysis: None,
        };
        for (rel, want) in [
            ("6.1.0-28-arm64", "6.1"),
            ("5.10.110-rockchip-rk3588", "5.10"),
            ("6.12", "6.12"),
            ("7", "7"),
            ("", "-"),
        ] {
            if let Some(m) = doc.machine.as_mut() {
                m.identity.kernel.release = Some(rel.into());
            }
            assert_eq!(kernel_cell(&doc), want, "{rel}");
        }
    }

    #[test]
    fn cells_never_split() {
        assert_eq!(cell("a | b\nc"), "a / b c");
        assert_eq!(cell("  "), "-");
    }

    #[test]
    fn kernel_arch_names() {
        assert_eq!(debian_name_of_kernel_arch("aarch64"), "arm64");
        assert_eq!(debian_name_of_kernel_arch("armv7l"), "armhf");
        assert_eq!(debian_name_of_kernel_arch("x86_64"), "x86_64");
    }
}
