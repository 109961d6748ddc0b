//! `/board?device=NAME`: one device's runs in time order with their kernels — the view a lab
//! opens after a kernel bump. Each headline figure is also given as a ratio to the device's
//! first run, a kernel change is marked, and the bars show every run against the first.

use axum::extract::{Query, State as AxState};
use axum::http::HeaderMap;
use axum::response::Html;
use report::escape::esc;
use serde::Deserialize;

use super::{PageError, num, validity_cell, wide_page};
use crate::api::ApiError;
use crate::{State, api, auth};

/// Most runs drawn in the bars (the table lists all it shows).
const MAX_BARS: usize = 12;

/// Most runs the page reads and lists (the latest ones): a device with years of nightly runs
/// stays one bounded page.
pub const MAX_RUNS: usize = 500;

/// A ratio to the first run further from 1 than this (in percent) is coloured.
const NOTABLE_PCT: f64 = 3.0;

/// A ratio under a figure: red when notably lower (every headline figure is better higher),
/// green when notably higher, grey otherwise.
/// The rule is applied to the ratio as shown (three decimals), so two cells that read the
/// same have the same colour (`×0.970` is grey: exactly 3 % lower is not more than 3 %).
fn ratio_cell(ratio: f64) -> String {
    let shown = (ratio * 1000.0).round() / 1000.0;
    let class = if shown < 1.0 - NOTABLE_PCT / 100.0 - 1e-9 {
        "worse"
    } else if shown > 1.0 + NOTABLE_PCT / 100.0 + 1e-9 {
        "better"
    } else {
        "dim"
    };
    format!("<br><span class=\"{class}\">×{ratio:.3}</span>")
}

#[derive(Debug, Deserialize)]
pub struct BoardQuery {
    pub device: Option<String>,
}

pub async fn page(
    AxState(state): AxState<State>,
    headers: HeaderMap,
    Query(q): Query<BoardQuery>,
) -> Result<Html<String>, PageError> {
    auth::may_read(&state, &headers).await?;
    let Some(device) = q.device.filter(|d| !d.trim().is_empty()) else {
        return Err(ApiError::new(400, "which device? /board?device=NAME").into());
    };
    // Reading and rendering the documents: off the async workers, a bounded number at once,
    // within a deadline (crate::heavy).
    let name = device.clone();
    let body = crate::heavy(&state, &state.document_pages, move |s| render(s, &name)).await?;
    Ok(wide_page(&format!("boardbench: {device}"), &body))
}

/// The page's body for `device`, read from `s`.
fn render(s: &mut resultsdb::Store, device: &str) -> Result<String, ApiError> {
    let (runs, total) = s.device_table(device, MAX_RUNS as i64)?;
    if runs.is_empty() {
        return Err(ApiError::new(404, format!("no runs of {device:?}")));
    }
    let figures = |r: &resultsdb::TableRow| -> [Option<f64>; 6] {
        [r.zip_multi, r.zip_single, r.aes, r.memcpy, r.memset, r.khs]
    };
    let base = figures(&runs[0]);

    let shown = if total > runs.len() {
        format!("the latest {} of {total} runs", runs.len())
    } else {
        format!(
            "{} run{}",
            runs.len(),
            if runs.len() == 1 { "" } else { "s" }
        )
    };
    let mut body = format!(
        "<h1>{}</h1><p class=\"dim\">{shown} in time order; ratios to the first run shown (run \
         {}): <span class=\"worse\">red</span> is more than {pct}% lower, \
         <span class=\"better\">green</span> more than {pct}% higher (every figure here is \
         better higher). Runs of several boards of this model are not told apart: documents \
         carry no board identity.</p>",
        esc(device),
        runs[0].id,
        pct = NOTABLE_PCT,
    );
    body.push_str("<form method=\"get\" action=\"/compare\"><div class=\"scroll\"><table id=\"board\" class=\"results\"><thead><tr><th title=\"tick runs to compare them\">✓</th><th>Run</th><th>Started</th><th>Clockspeed</th><th>Kernel</th><th>Distro</th>");
    for h in &resultsdb::table::HEADERS[4..] {
        body.push_str(&format!("<th>{}</th>", esc(h)));
    }
    body.push_str("<th>Findings</th></tr></thead><tbody>");
    let mut last_kernel: Option<&str> = None;
    for r in &runs {
        let kernel = r.kernel.as_deref().unwrap_or("-");
        let changed = last_kernel.is_some_and(|k| k != kernel);
        last_kernel = Some(kernel);
        let class = super::row_class(r.worst.as_deref());
        body.push_str(&format!(
            "<tr{class}><td><input type=\"checkbox\" name=\"id\" value=\"{id}\" aria-label=\"compare run {id}\"></td>\
             <td class=\"num\"><a href=\"/runs/{id}\">{id}</a></td><td>{}</td><td>{}</td><td>{}{}</td><td class=\"clip\" title=\"{distro}\">{distro}</td>",
            esc(r.started.as_deref().unwrap_or("-")),
            esc(r.clockspeed.as_deref().unwrap_or("-")),
            esc(kernel),
            if changed { " <strong>(new kernel)</strong>" } else { "" },
            distro = esc(r.distro.as_deref().unwrap_or("-")),
            id = r.id
        ));
        for (v, b) in figures(r).into_iter().zip(base) {
            let ratio = match (v, b) {
                (Some(v), Some(b)) if b > 0.0 && r.id != runs[0].id => ratio_cell(v / b),
                _ => String::new(),
            };
            body.push_str(&format!("<td class=\"num\">{}{ratio}</td>", num(v)));
        }
        body.push_str(&format!("<td>{}</td>", validity_cell(r.worst.as_deref())));
        body.push_str("</tr>");
    }
    body.push_str(
        "</tbody></table></div><p><button type=\"submit\">Compare the ticked runs</button></p></form>",
    );

    // The bars: the first run against the latest ones.
    let first = api::document_of(s, runs[0].id)?;
    let mut others = Vec::new();
    let label = |r: &resultsdb::TableRow| {
        format!(
            "run {} {} {}",
            r.id,
            super::day(r.started.as_deref()),
            r.kernel.as_deref().unwrap_or("")
        )
    };
    for r in runs.iter().skip(1).rev().take(MAX_BARS - 1).rev() {
        others.push((label(r), api::document_of(s, r.id)?));
    }
    if !others.is_empty() {
        let first_label = label(&runs[0]);
        body.push_str("<h2>Against the first run</h2>");
        body.push_str(&report::chart::compare::render(
            &report::chart::compare::from_docs(&first_label, &first, &others),
        ));
    }
    // Where the latest run stands among sbc-bench's published results, then the published
    // rows of the SoC these runs name.
    let reference = &super::corpus::reference().0;
    let latest = &runs[runs.len() - 1];
    let latest_doc = if latest.id == runs[0].id {
        first
    } else {
        match others.pop() {
            Some((_, doc)) => doc,
            None => api::document_of(s, latest.id)?,
        }
    };
    body.push_str(&super::corpus::placements(
        reference,
        &[(format!("The latest run ({})", label(latest)), &latest_doc)],
    ));
    if let Some(soc) = runs.iter().rev().find_map(|r| r.soc.clone()) {
        body.push_str(&super::corpus::soc_rows(reference, &soc));
    }
    Ok(body)
}

#[cfg(test)]
mod tests {
    #[test]
    fn cells_that_read_the_same_have_the_same_colour() {
        let a = super::ratio_cell(0.9704);
        let b = super::ratio_cell(0.9696);
        assert!(a.contains("×0.970") && b.contains("×0.970"));
        assert_eq!(a, b);
        assert!(a.contains("class=\"dim\""), "{a}");
        assert!(super::ratio_cell(0.969).contains("worse"));
        assert!(super::ratio_cell(1.031).contains("better"));
    }
}
