//! HTML reports of result documents: one self-contained file (inline CSS and SVG, no scripts, no
//! network) with the summary, the findings and the charts — a pure function of the documents.
//!
//! Module map:
//! - [`escape`]: escaping of every document string (device names, tool output, findings).
//! - [`svg`]: a small SVG writer (shapes, linear/log scales, ticks, axes).
//! - [`chart`]: one module per chart: timeline (clock, temperature, CPU use with phase bands),
//!   OPP nominal vs measured, memory-latency ladder, graph sweeps (score and score per watt or
//!   per MHz against the clock), bars against other runs.
//! - [`overview`]: the summary (identity, headline numbers, phases) and findings sections.
//! - [`guide`]: the performance guide's tables with a bar chart per table (guide documents).
//! - [`page`]: the page skeleton and its stylesheet.
//!
//! The synthetic run document its tests, example and screenshots use is `testsupport::demo`.

pub mod chart;
pub mod escape;
pub mod guide;
pub mod overview;
pub mod page;
pub mod svg;

use document::ResultDocument;

use escape::esc;

/// How a run is named in the report and beside others: its device, else its log file, else
/// "this run".
pub fn run_name(doc: &ResultDocument) -> String {
    overview::columns(doc)
        .device
        .or_else(|| doc.imported.as_ref().map(|i| i.source.clone()))
        .unwrap_or_else(|| "this run".into())
}

/// The chart figures of a document in report order: (id, HTML figure) — only the charts the
/// document has data for.
pub fn charts(
    doc: &ResultDocument,
    others: &[(String, ResultDocument)],
) -> Vec<(&'static str, String)> {
    charts_with(doc, others, corpus::corpus())
}

/// [`charts`] with the run placed in `reference` (the corpus in use).
pub fn charts_with(
    doc: &ResultDocument,
    others: &[(String, ResultDocument)],
    reference: &corpus::Corpus,
) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    if let Some(p) = chart::placement::from_doc(reference, doc) {
        out.push(("placement", chart::placement::render(&p)));
    }
    if let Some(t) = chart::timeline::from_doc(doc) {
        out.push(("timeline", chart::timeline::render(&t)));
    }
    let opp = chart::opp::from_doc(doc);
    if !opp.is_empty() {
        out.push(("opp", chart::opp::render(&opp)));
    }
    if let Some(l) = chart::memlat::from_doc(doc) {
        out.push(("memlat", chart::memlat::render(&l)));
    }
    let sweeps = chart::efficiency::from_doc(doc);
    if !sweeps.is_empty() {
        out.push(("efficiency", chart::efficiency::render(&sweeps)));
    }
    if !others.is_empty() {
        let c = chart::compare::from_docs(&run_name(doc), doc, others);
        out.push(("compare", chart::compare::render(&c)));
    }
    out
}

fn chart_heading(id: &str) -> &'static str {
    match id {
        "timeline" => "Clock, temperature and CPU use over time",
        "opp" => "Cpufreq OPPs: nominal against measured",
        "memlat" => "Memory latency ladder",
        "efficiency" => "Performance per clock and per watt (graph sweep)",
        "compare" => "Against other runs",
        "placement" => "Among sbc-bench's published results",
        _ => "Chart",
    }
}

/// The report: one self-contained HTML page for `doc`, with bars against `others` (name,
/// document) when any are given.
pub fn html(doc: &ResultDocument, others: &[(String, ResultDocument)]) -> String {
    html_with(doc, others, corpus::corpus())
}

/// [`html`] with the run placed in `reference` (the corpus in use).
pub fn html_with(
    doc: &ResultDocument,
    others: &[(String, ResultDocument)],
    reference: &corpus::Corpus,
) -> String {
    let name = run_name(doc);
    let mut body = format!(
        "<header><h1>boardbench report: {}</h1><p class=\"dim\">{}</p></header>",
        esc(&name),
        esc(&subtitle(doc))
    );
    body.push_str(&overview::render(doc));
    body.push_str(&overview::findings(doc));
    body.push_str("<section id=\"charts\"><h2>Charts</h2>");
    let charts = charts_with(doc, others, reference);
    if charts.is_empty() {
        body.push_str("<p class=\"dim\">This document has no samples to chart.</p>");
    }
    for (id, fig) in &charts {
        body.push_str(&format!("<h3>{}</h3>", chart_heading(id)));
        body.push_str(fig);
    }
    let missing: Vec<&str> = ["timeline", "opp", "memlat"]
        .into_iter()
        .filter(|id| !charts.iter().any(|(c, _)| c == id))
        .map(chart_heading)
        .collect();
    if !missing.is_empty() {
        body.push_str(&format!(
            "<p class=\"dim\">Not in this document: {}.</p>",
            esc(&missing.join("; ").to_lowercase())
        ));
    }
    body.push_str("</section>");
    if doc.guide.is_some() {
        body.push_str(&guide_section(&name, doc, others));
    }
    body.push_str(&overview::run_details(doc));
    body.push_str(&format!(
        "<footer>Rendered from a result document (schema {}) by boardbench {}. Self-contained: no scripts, nothing loaded from the network.</footer>",
        doc.schema_version,
        env!("CARGO_PKG_VERSION")
    ));
    page::page(&format!("boardbench report: {}", esc(&name)), &body)
}

/// The guide tables of this run beside the other runs that are guides too.
fn guide_section(name: &str, doc: &ResultDocument, others: &[(String, ResultDocument)]) -> String {
    let mut runs = vec![::guidetables::Run {
        board: name.to_string(),
        doc,
    }];
    runs.extend(
        others
            .iter()
            .filter(|(_, d)| d.guide.is_some())
            .map(|(n, d)| ::guidetables::Run {
                board: n.clone(),
                doc: d,
            }),
    );
    guide::section(&::guidetables::merge(&runs))
}

fn subtitle(doc: &ResultDocument) -> String {
    match (&doc.run, &doc.imported) {
        (Some(r), _) => format!(
            "{} run{}",
            if r.profile.is_empty() {
                "a"
            } else {
                &r.profile
            },
            doc.started
                .as_deref()
                .map(|s| format!(" started {s}"))
                .unwrap_or_default()
        ),
        (None, Some(i)) => format!("imported sbc-bench log {}", i.source),
        (None, None) => doc.producer.clone(),
    }
}

/// One small page per chart (id, HTML page), for screenshots and embedding elsewhere.
pub fn chart_pages(
    doc: &ResultDocument,
    others: &[(String, ResultDocument)],
) -> Vec<(&'static str, String)> {
    charts(doc, others)
        .into_iter()
        .map(|(id, fig)| {
            let body = format!("<h3>{}</h3>{fig}", chart_heading(id));
            (id, page::page(chart_heading(id), &body))
        })
        .collect()
}
