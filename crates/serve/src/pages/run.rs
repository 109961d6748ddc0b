//! `/runs/{id}`: the run's HTML report (the page `boardbench report` writes) with the service's
//! navigation line and links to the document and the device's board page. The run is placed
//! once, in the report's own section (its chart and a line per figure) over the corpus the
//! service uses, not only the built-in one.

use axum::extract::{Path, State as AxState};
use axum::http::HeaderMap;
use axum::response::Html;
use report::escape::esc;

use super::{PageError, nav, urlenc};
use crate::{State, api, auth};

pub async fn page(
    AxState(state): AxState<State>,
    headers: HeaderMap,
    Path(id): Path<i64>,
) -> Result<Html<String>, PageError> {
    auth::may_read(&state, &headers).await?;
    // Reading and rendering the document: off the async workers, a bounded number at once,
    // within a deadline (crate::heavy).
    let html = crate::heavy(&state, &state.document_pages, move |s| {
        let doc = api::document_of(s, id)?;
        Ok(render(id, &doc))
    })
    .await?;
    Ok(Html(html))
}

/// The page of run `id`.
pub fn render(id: i64, doc: &document::ResultDocument) -> String {
    let reference = &super::corpus::reference().0;
    let html = report::html_with(doc, &[], reference);
    let mut links = format!(
        "{} <p class=\"dim\">Run {id} · <a href=\"/api/v1/runs/{id}\">document (JSON)</a>",
        nav()
    );
    if let Some(device) = report::overview::columns(doc).device {
        links.push_str(&format!(
            " · <a href=\"/board?device={}\">all runs of {}</a>",
            urlenc(&device),
            esc(&device)
        ));
    }
    links.push_str("</p>");
    // The placement once: the report's own section (its chart and a line per figure); the
    // page adds no second list.
    html.replacen("<body>\n", &format!("<body>\n{links}\n"), 1)
}
