//! `/compare?id=A&id=B…`: runs side by side as `boardbench results compare` shows them — each
//! later run as a ratio to A, per-GHz figures, `*` where the difference is beyond both runs'
//! spread — and the report's bars of the headline figures.

use axum::extract::{RawQuery, State as AxState};
use axum::http::HeaderMap;
use axum::response::Html;
use report::escape::esc;
use resultsdb::compare::Comparison;

use super::{PageError, page as html_page, urldec};
use crate::api::ApiError;
use crate::{State, auth};

/// Most runs on one compare page.
pub const MAX_RUNS: usize = 8;

/// Run ids from `id=1&id=2` (the table's checkboxes) or `ids=1,2`.
pub fn ids(query: Option<&str>) -> Result<Vec<i64>, ApiError> {
    let mut out = Vec::new();
    for pair in query.unwrap_or("").split('&') {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        if k != "id" && k != "ids" {
            continue;
        }
        for part in urldec(v)
            .split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
        {
            let id = part
                .parse::<i64>()
                .map_err(|_| ApiError::new(400, format!("not a run id: {part:?}")))?;
            if !out.contains(&id) {
                out.push(id);
            }
        }
    }
    if out.len() > MAX_RUNS {
        return Err(ApiError::new(
            400,
            format!("at most {MAX_RUNS} runs at once"),
        ));
    }
    Ok(out)
}

pub async fn page(
    AxState(state): AxState<State>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Result<Html<String>, PageError> {
    auth::may_read(&state, &headers).await?;
    let ids = ids(query.as_deref())?;
    // Reading, comparing and rendering the documents: off the async workers, a bounded number
    // at once, within a deadline (crate::heavy).
    let body = crate::heavy(&state, &state.document_pages, move |s| render(s, &ids)).await?;
    Ok(html_page("Compare runs", &body))
}

/// The page's body for runs `ids`, read from `s`.
fn render(s: &mut resultsdb::Store, ids: &[i64]) -> Result<String, ApiError> {
    if let [id] = ids[..] {
        // One run named: it must exist, like every run of a comparison.
        if s.document_text(id)?.is_none() {
            return Err(ApiError::new(404, format!("no run {id}")));
        }
    }
    if ids.len() < 2 {
        return Ok(
            "<h1>Compare runs</h1><p>Tick two or more runs in the <a href=\"/\">results table</a> \
             and press “Compare”, or open <code>/compare?ids=1,2</code>.</p>"
                .into(),
        );
    }
    let mut details = Vec::new();
    for id in ids {
        match s.run(*id)? {
            Some(r) => details.push(r),
            None => return Err(ApiError::new(404, format!("no run {id}"))),
        }
    }
    let marks = resultsdb::marks::load(s);
    let cmp = resultsdb::compare::compare(&details);
    // The typed documents from the values already read (each value freed as it is turned).
    let mut docs = Vec::new();
    for (d, id) in details.iter_mut().zip(ids) {
        let doc: document::ResultDocument = serde_json::from_value(std::mem::take(&mut d.document))
            .map_err(|e| {
                ApiError::new(
                    500,
                    format!("run {id} is stored in a form this version cannot render: {e}"),
                )
            })?;
        docs.push(doc);
    }
    // Runs of one board are told apart by their id, day and kernel, not by the device alone.
    let name = |i: usize| {
        let letter = (b'A' + i as u8) as char;
        let s = &details[i].summary.columns;
        format!(
            "{letter}: run {} {} {} {}",
            ids[i],
            s.device.as_deref().unwrap_or("-"),
            super::day(s.started.as_deref()),
            s.kernel.as_deref().unwrap_or("")
        )
        .trim_end()
        .to_string()
    };
    let others: Vec<(String, document::ResultDocument)> = docs
        .iter()
        .enumerate()
        .skip(1)
        .map(|(i, d)| (name(i), d.clone()))
        .collect();
    let chart = report::chart::compare::render(&report::chart::compare::from_docs(
        &name(0),
        &docs[0],
        &others,
    ));
    drop(others);

    let mut body = String::from("<h1>Compare runs</h1>");
    for w in resultsdb::marks::compare_warnings(&marks, ids) {
        body.push_str(&format!("<p class=\"warning\">{}</p>", esc(&w)));
    }
    body.push_str("<h2>Headline figures</h2>");
    body.push_str(&chart);
    let named: Vec<(String, &document::ResultDocument)> =
        docs.iter().enumerate().map(|(i, d)| (name(i), d)).collect();
    body.push_str(&super::corpus::placements(
        &super::corpus::reference().0,
        &named,
    ));
    body.push_str("<h2>Every measurement</h2>");
    body.push_str(&table(&cmp));
    Ok(body)
}

/// The comparison as a table: one row per measurement, per run value, ratio to A and per GHz.
pub fn table(c: &Comparison) -> String {
    let mut t = String::from("<ul id=\"compare-runs\">");
    for (i, r) in c.runs.iter().enumerate() {
        let letter = (b'A' + (i as u8 % 26)) as char;
        let clock = r
            .clock_mhz
            .map_or("clock unknown".to_string(), |c| format!("{c:.0} MHz"));
        t.push_str(&format!(
            "<li>{letter}: <a href=\"/runs/{id}\">run {id}</a> {} ({clock}) — started {}, kernel {}</li>",
            esc(r.device.as_deref().unwrap_or("-")),
            esc(r.started.as_deref().unwrap_or("unknown")),
            esc(r.kernel.as_deref().unwrap_or("unknown")),
            id = r.id
        ));
    }
    t.push_str(
        "</ul><p class=\"dim\">ratio = value / A; per GHz = value / measured GHz; * = difference \
         beyond both runs' spread, ~ = within it.</p>",
    );
    t.push_str("<table id=\"compare\"><thead><tr><th>Measurement</th><th>Unit</th>");
    for i in 0..c.runs.len() {
        let letter = (b'A' + (i as u8 % 26)) as char;
        t.push_str(&format!("<th>{letter}</th>"));
    }
    t.push_str("</tr></thead><tbody>");
    for row in &c.rows {
        let variant = row
            .variant
            .as_deref()
            .map_or(String::new(), |v| format!(" [{v}]"));
        t.push_str(&format!(
            "<tr><td>{} / {} {}T{}</td><td>{}{}</td>",
            esc(&row.suite),
            esc(&row.test),
            row.threads,
            esc(&variant),
            esc(&row.unit),
            if row.higher_is_better { " ↑" } else { " ↓" }
        ));
        for cell in &row.cells {
            let Some(cell) = cell else {
                t.push_str("<td class=\"num\">-</td>");
                continue;
            };
            let mut s = resultsdb::table::number(cell.value);
            if let Some(label) = &cell.own_label {
                s = format!("<span class=\"dim\">{}</span><br>{s}", esc(label));
            }
            if let Some(sp) = cell.spread_pct {
                s.push_str(&format!(" ±{sp:.1}%"));
            }
            if let Some(r) = cell.ratio {
                let mark = match cell.beyond_spread {
                    Some(true) => " *",
                    Some(false) => " ~",
                    None => "",
                };
                s.push_str(&format!("<br>×{r:.3}{mark}"));
            }
            if let Some(p) = cell.per_ghz {
                s.push_str(&format!("<br>{p:.1} per GHz"));
                if let Some(pr) = cell.per_ghz_ratio {
                    s.push_str(&format!(" (×{pr:.3})"));
                }
            }
            t.push_str(&format!("<td class=\"num\">{s}</td>"));
        }
        t.push_str("</tr>");
    }
    t.push_str("</tbody></table>");
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_from_checkboxes_and_lists() {
        assert_eq!(ids(Some("id=3&id=1&x=2")).unwrap(), [3, 1]);
        assert_eq!(ids(Some("ids=1%2C2,2")).unwrap(), [1, 2]);
        assert!(ids(Some("id=abc")).is_err());
        assert!(ids(None).unwrap().is_empty());
    }
}
