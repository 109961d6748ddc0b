//! `/board?device=NAME`: one device's runs in time order with their kernels — the view a lab
//! opens after a kernel bump. Each headline figure is also given as a ratio to the device's
//! first run, a kernel change is marked, and the bars show every run against the first.

use axum::extract::{Query, State as AxState};
use axum::http::HeaderMap;
use axum::response::Html;
use report::escape::esc;
use serde::Deserialize;
use store::Filter;

use super::{PageError, num, page as html_page};
use crate::api::ApiError;
use crate::{State, api, auth};

/// Most runs drawn in the bars (the table lists all).
const MAX_BARS: usize = 12;

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
    let name = device.clone();
    let (runs, table) = state
        .pool
        .with(move |s| {
            let f = Filter {
                device: Some(name.clone()),
                ..Filter::default()
            };
            let runs: Vec<_> = s
                .list(&f)?
                .into_iter()
                .filter(|r| r.device.as_deref() == Some(name.as_str()))
                .collect();
            let table = s.table_filtered(&f)?;
            Ok((runs, table))
        })
        .await?;
    if runs.is_empty() {
        return Err(ApiError::new(404, format!("no runs of {device:?}")).into());
    }
    let row_of = |id: i64| table.iter().find(|r| r.id == id);
    let figures = |id: i64| -> [Option<f64>; 6] {
        row_of(id).map_or([None; 6], |r| {
            [r.zip_multi, r.zip_single, r.aes, r.memcpy, r.memset, r.khs]
        })
    };
    let base = figures(runs[0].id);

    let mut body = format!(
        "<h1>{}</h1><p class=\"dim\">{} run{} in time order; ratios to the first run (run {}).</p>",
        esc(&device),
        runs.len(),
        if runs.len() == 1 { "" } else { "s" },
        runs[0].id
    );
    body.push_str("<form method=\"get\" action=\"/compare\"><table id=\"board\"><thead><tr><th>Compare</th><th>Run</th><th>Started</th><th>Kernel</th><th>Distro</th>");
    for h in &store::table::HEADERS[4..] {
        body.push_str(&format!("<th>{}</th>", esc(h)));
    }
    body.push_str("</tr></thead><tbody>");
    let mut last_kernel: Option<&str> = None;
    for r in &runs {
        let kernel = r.kernel.as_deref().unwrap_or("-");
        let changed = last_kernel.is_some_and(|k| k != kernel);
        last_kernel = Some(kernel);
        body.push_str(&format!(
            "<tr><td><input type=\"checkbox\" name=\"id\" value=\"{id}\" aria-label=\"compare run {id}\"></td>\
             <td class=\"num\"><a href=\"/runs/{id}\">{id}</a></td><td>{}</td><td>{}{}</td><td>{}</td>",
            esc(r.started.as_deref().unwrap_or("-")),
            esc(kernel),
            if changed { " <strong>(new kernel)</strong>" } else { "" },
            esc(r.distro.as_deref().unwrap_or("-")),
            id = r.id
        ));
        for (v, b) in figures(r.id).into_iter().zip(base) {
            let ratio = match (v, b) {
                (Some(v), Some(b)) if b > 0.0 && r.id != runs[0].id => {
                    format!("<br><span class=\"dim\">×{:.3}</span>", v / b)
                }
                _ => String::new(),
            };
            body.push_str(&format!("<td class=\"num\">{}{ratio}</td>", num(v)));
        }
        body.push_str("</tr>");
    }
    body.push_str(
        "</tbody></table><p><button type=\"submit\">Compare the ticked runs</button></p></form>",
    );

    // The bars: the first run against the latest ones.
    let first = api::document(&state, runs[0].id).await?;
    let mut others = Vec::new();
    for r in runs.iter().skip(1).rev().take(MAX_BARS - 1).rev() {
        let label = format!(
            "run {} {} {}",
            r.id,
            r.started
                .as_deref()
                .map_or("", |s| s.get(..10).unwrap_or(s)),
            r.kernel.as_deref().unwrap_or("")
        );
        others.push((label, api::document(&state, r.id).await?));
    }
    if !others.is_empty() {
        let first_label = format!(
            "run {} {} {}",
            runs[0].id,
            runs[0]
                .started
                .as_deref()
                .map_or("", |s| s.get(..10).unwrap_or(s)),
            runs[0].kernel.as_deref().unwrap_or("")
        );
        body.push_str("<h2>Against the first run</h2>");
        body.push_str(&report::chart::compare::render(
            &report::chart::compare::from_docs(&first_label, &first, &others),
        ));
    }
    Ok(html_page(&format!("boardbench: {device}"), &body))
}
