//! `/guide`: the performance guide of every stored guide run (made by `boardbench guide`), one
//! table per guide table, one column per board — the runs of one board merged as `boardbench
//! guide render --merge-by board` merges them (`guidetables::merge_documents_by`, the same
//! code): each figure the median of the board's runs with their min and max.
//!
//! Sorting (no scripts, so links): the boards are ordered by name, or by one row's figure (a row
//! name is the link; again: the other way); every table follows that order, and the ratio
//! charts (`report::chart::guide`, as in the HTML render) divide by the first board. A board
//! filter (substring) narrows the columns. `/api/v1/guide?format=json|csv|md` answers the same
//! guide, with the same filter and order, for programs and spreadsheets.

use axum::extract::{Query, State as AxState};
use axum::http::{HeaderMap, header};
use axum::response::{Html, IntoResponse, Response};
use guidetables::{ColumnKind, Guide, Table, order};
use report::escape::esc;
use resultsdb::backend::Val;
use serde::Deserialize;

use super::{PageError, urlenc, wide_page};
use crate::api::{ApiError, truthy};
use crate::{State, auth};

/// Most guide runs read (the latest ones): a service with years of nightly guides stays one
/// bounded page.
pub const MAX_RUNS: usize = 500;

/// Most boards drawn in one chart (the first ones in the page's order; the tables have all).
pub const MAX_CHART_BOARDS: usize = 12;

#[derive(Debug, Default, Deserialize)]
pub struct GuideQuery {
    /// Only boards whose name contains this (case-insensitive).
    pub board: Option<String>,
    /// Order the boards by a row of this table (with `row`).
    pub table: Option<String>,
    /// The row's label (its name and further keys, as the page prints it).
    pub row: Option<String>,
    /// `1`: the other way (highest figure first; names Z to A).
    pub desc: Option<String>,
    /// `json` (default), `csv` or `md` (the API only).
    pub format: Option<String>,
}

impl GuideQuery {
    fn board_filter(&self) -> Option<&str> {
        self.board
            .as_deref()
            .map(str::trim)
            .filter(|b| !b.is_empty())
    }

    /// The row the boards are sorted by, when both parts are given.
    fn sort_row(&self) -> Option<(&str, &str)> {
        let t = self.table.as_deref().filter(|t| !t.trim().is_empty())?;
        let r = self.row.as_deref().filter(|r| !r.trim().is_empty())?;
        Some((t, r))
    }

    /// The query string of the filter (for the sort links).
    fn filter_query(&self) -> String {
        self.board_filter()
            .map(|b| format!("board={}&", urlenc(b)))
            .unwrap_or_default()
    }
}

/// The guide as the page and the API show it: the stored guide runs merged by board, filtered
/// and ordered as the query says; also how many runs it comes from and whether older ones were
/// left out.
pub struct Loaded {
    pub guide: Guide,
    pub runs: usize,
    pub truncated: bool,
}

/// Most document text the guide reads for one answer (the documents are read one at a time and
/// only their typed form kept): beyond it the older guide runs are left out, as beyond
/// [`MAX_RUNS`].
pub const MAX_GUIDE_BYTES: usize = 256 * 1024 * 1024;

/// The latest [`MAX_RUNS`] guide runs of the boards the filter names, oldest first, and whether
/// older ones were left out. Selected in the query (the runs table's `guide` column, the board
/// filter), so neither documents that only look like guide runs nor other boards' runs count
/// against the limit; read one document at a time within [`MAX_GUIDE_BYTES`]. A stored document
/// this build cannot read is left out (as `results table --guide` does).
fn guide_documents(
    s: &mut resultsdb::Store,
    board: Option<&str>,
) -> Result<(Vec<document::ResultDocument>, bool), ApiError> {
    let mut sql = String::from("SELECT id FROM runs WHERE guide = 1");
    let mut params = Vec::new();
    if let Some(b) = board {
        sql.push_str(" AND lower(device) LIKE ? ESCAPE '\\'");
        params.push(Val::Text(format!(
            "%{}%",
            resultsdb::filter::escape_like(&b.to_lowercase())
        )));
    }
    sql.push_str(" ORDER BY id DESC LIMIT ?");
    params.push(Val::Int(MAX_RUNS as i64 + 1));
    let ids: Vec<i64> = s
        .query(&sql, &params)?
        .into_iter()
        .filter_map(|r| r.first().and_then(Val::as_i64))
        .collect();
    let mut truncated = ids.len() > MAX_RUNS;
    let mut docs = Vec::new();
    let mut bytes = 0usize;
    for id in ids.into_iter().take(MAX_RUNS) {
        let Some(text) = s.document_text(id)? else {
            continue;
        };
        bytes += text.len();
        if bytes > MAX_GUIDE_BYTES {
            truncated = true;
            break;
        }
        if let Ok(d) = serde_json::from_str::<document::ResultDocument>(&text)
            && d.guide.is_some()
        {
            docs.push(d);
        }
    }
    docs.reverse();
    Ok((docs, truncated))
}

/// Reads, merges, filters and orders the guide (on the caller's blocking thread).
pub fn load(s: &mut resultsdb::Store, q: &GuideQuery) -> Result<Loaded, ApiError> {
    let (docs, truncated) = guide_documents(s, q.board_filter())?;
    let mut guide = guidetables::merge_documents_by(&docs, guidetables::MergeBy::Board);
    let desc = truthy(&q.desc);
    let boards = match q.sort_row() {
        Some((t, r)) => order::by_row(&guide, t, r, desc).ok_or_else(|| {
            ApiError::new(
                400,
                format!("no row {r:?} in a guide table {t:?} to sort by"),
            )
        })?,
        None => order::by_name(&guide, desc),
    };
    order::apply(&mut guide, &boards);
    Ok(Loaded {
        guide,
        runs: docs.len(),
        truncated,
    })
}

/// `GET /guide`.
pub async fn page(
    AxState(state): AxState<State>,
    headers: HeaderMap,
    Query(q): Query<GuideQuery>,
) -> Result<Html<String>, PageError> {
    auth::may_read(&state, &headers).await?;
    // Reading, merging and rendering the documents: off the async workers, a bounded number at
    // once, within a deadline (crate::heavy).
    let html = crate::heavy(&state, &state.document_pages, move |s| {
        Ok(body(&load(s, &q)?, &q))
    })
    .await?;
    Ok(wide_page("Performance guide", &html))
}

/// The page's body (everything below the navigation line).
pub fn body(l: &Loaded, q: &GuideQuery) -> String {
    let g = &l.guide;
    let boards = order::boards(g);
    let fq = q.filter_query();
    let desc = truthy(&q.desc);
    let mut out = String::with_capacity(64 * 1024);
    out.push_str("<div id=\"guide-page\"><h1>Performance guide</h1>");
    out.push_str(&format!(
        "<p class=\"dim\" id=\"guide-count\">{} guide run{} of {} board{}{}. The runs of one board \
         are one column, merged as <code>boardbench guide render --merge-by board</code> merges \
         them: each figure is the median of the board's runs with their min and max, and a \
         note under a table says how many runs a column combines. A row's name orders the \
         boards by its figure (again: the other way); the charts divide each board's figure by \
         the first board's (for times, lower is faster).</p>",
        l.runs,
        if l.runs == 1 { "" } else { "s" },
        boards.len(),
        if boards.len() == 1 { "" } else { "s" },
        if l.truncated {
            format!(" (the latest {MAX_RUNS} guide runs; older ones are left out)")
        } else {
            String::new()
        },
    ));
    out.push_str("<form method=\"get\" action=\"/guide\" class=\"filters\"><p>");
    out.push_str(&format!(
        "<label>Board <input name=\"board\" value=\"{}\" placeholder=\"contains\" size=\"16\"></label> ",
        esc(q.board_filter().unwrap_or(""))
    ));
    if let Some((t, r)) = q.sort_row() {
        out.push_str(&format!(
            "<input type=\"hidden\" name=\"table\" value=\"{}\"><input type=\"hidden\" name=\"row\" value=\"{}\">",
            esc(t),
            esc(r)
        ));
    }
    if desc {
        out.push_str("<input type=\"hidden\" name=\"desc\" value=\"1\">");
    }
    out.push_str("<button type=\"submit\">Filter</button> <a href=\"/guide\">clear</a></p></form>");

    let sorted_by = match q.sort_row() {
        Some((t, r)) => format!(
            "by {} in {} ({})",
            esc(r),
            esc(t),
            if desc {
                "highest first"
            } else {
                "lowest first"
            }
        ),
        None => format!("by name ({})", if desc { "Z to A" } else { "A to Z" }),
    };
    let name_desc = q.sort_row().is_none() && !desc;
    out.push_str(&format!(
        "<p id=\"guide-order\">Boards ordered {sorted_by}. <a href=\"{}\">Order by name{}</a></p>",
        esc(&format!(
            "/guide?{fq}{}",
            if name_desc { "desc=1" } else { "" }
        )),
        if name_desc { " (Z to A)" } else { "" },
    ));
    if boards.is_empty() {
        out.push_str(
            "<p id=\"guide-empty\">No guide runs stored yet (or none matches the filter). A \
             guide run is a result document made by <code>boardbench guide</code>; upload it \
             with <code>boardbench upload RESULT.json</code>.</p></div>",
        );
        return out;
    }

    out.push_str(&format!("<h2>{}</h2>", esc(&g.header.title)));
    out.push_str(&table_html(&g.header, q, false));
    for s in &g.sections {
        out.push_str(&format!(
            "<section class=\"guide-section\" id=\"section-{}\"><h2>{}</h2>",
            esc(&s.name),
            esc(&s.title)
        ));
        for t in &s.tables {
            if t.title != s.title {
                out.push_str(&format!("<h3>{}</h3>", esc(&t.title)));
            }
            out.push_str(&table_html(t, q, true));
            out.push_str(&charts(t));
        }
        out.push_str("</section>");
    }
    out.push_str(&guidetables::html::notes(g));
    let qs = {
        let mut parts = Vec::new();
        if let Some(b) = q.board_filter() {
            parts.push(format!("board={}", urlenc(b)));
        }
        if let Some((t, r)) = q.sort_row() {
            parts.push(format!("table={}&row={}", urlenc(t), urlenc(r)));
        }
        if desc {
            parts.push("desc=1".into());
        }
        parts.iter().map(|p| format!("&{p}")).collect::<String>()
    };
    out.push_str(&format!(
        "<p class=\"dim\">This guide as CSV, JSON or Markdown: \
         <a href=\"/api/v1/guide?format=csv{qs}\">csv</a> · \
         <a href=\"/api/v1/guide?format=json{qs}\">json</a> · \
         <a href=\"/api/v1/guide?format=md{qs}\">md</a></p></div>",
        qs = esc(&qs)
    ));
    out
}

/// One table; with `sortable`, each row's name is a link that orders the boards by it.
fn table_html(t: &Table, q: &GuideQuery, sortable: bool) -> String {
    let fq = q.filter_query();
    let desc = truthy(&q.desc);
    let mut out = String::from("<div class=\"scroll\"><table class=\"guide\"><thead><tr>");
    out.push_str(&format!("<th>{}</th>", esc(&t.key_header)));
    for h in &t.key_headers {
        out.push_str(&format!("<th>{}</th>", esc(h)));
    }
    for c in &t.columns {
        let board = format!(
            "<a href=\"/board?device={}\">{}</a>",
            urlenc(&c.board),
            esc(&c.board)
        );
        if c.name.is_empty() {
            out.push_str(&format!("<th>{board}</th>"));
        } else {
            out.push_str(&format!("<th>{board}: {}</th>", esc(&c.name)));
        }
    }
    out.push_str("</tr></thead><tbody>");
    for r in &t.rows {
        let label = r.label();
        if sortable {
            let current = q.sort_row().is_some_and(|(st, sr)| {
                st.trim().eq_ignore_ascii_case(t.title.trim()) && sr == label
            });
            let arrow = match (current, desc) {
                (true, true) => " ▼",
                (true, false) => " ▲",
                _ => "",
            };
            let href = format!(
                "/guide?{fq}table={}&row={}{}",
                urlenc(&t.title),
                urlenc(&label),
                if current && desc { "" } else { "&desc=1" },
            );
            out.push_str(&format!(
                "<tr><th><a href=\"{}\" title=\"order the boards by this row\">{}</a>{arrow}</th>",
                esc(&href),
                esc(&r.key)
            ));
        } else {
            out.push_str(&format!("<tr><th>{}</th>", esc(&r.key)));
        }
        out.push_str(&guidetables::html::row_cells(r));
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table></div>");
    out.push_str(&guidetables::html::table_notes(&t.notes));
    out
}

/// The ratio charts of a table as the HTML render draws them, over its first
/// [`MAX_CHART_BOARDS`] boards.
fn charts(t: &Table) -> String {
    let boards: Vec<&str> = {
        let mut b: Vec<&str> = Vec::new();
        for c in t.columns.iter().filter(|c| c.kind == ColumnKind::Measured) {
            if !b.contains(&c.board.as_str()) {
                b.push(&c.board);
            }
        }
        b
    };
    let mut out = String::new();
    let drawn = if boards.len() > MAX_CHART_BOARDS {
        let keep = &boards[..MAX_CHART_BOARDS];
        let mut idx = Vec::new();
        for (i, c) in t.columns.iter().enumerate() {
            if keep.contains(&c.board.as_str()) {
                idx.push(i);
            }
        }
        out.push_str(&format!(
            "<p class=\"dim\">The chart shows the first {MAX_CHART_BOARDS} of {} boards in this order.</p>",
            boards.len()
        ));
        Table {
            columns: idx.iter().map(|&i| t.columns[i].clone()).collect(),
            rows: t
                .rows
                .iter()
                .map(|r| guidetables::Row {
                    cells: idx
                        .iter()
                        .map(|&i| r.cells.get(i).cloned().flatten())
                        .collect(),
                    ..r.clone()
                })
                .collect(),
            ..t.clone()
        }
    } else {
        t.clone()
    };
    let mut figures = String::new();
    for b in report::chart::guide::from_table(&drawn) {
        figures.push_str(&report::chart::guide::render(&b));
    }
    // The note before the chart it speaks of, and only when there is one.
    if figures.is_empty() {
        return String::new();
    }
    out.push_str(&figures);
    out
}

/// `GET /api/v1/guide?format=json|csv|md`: the page's guide for programs.
pub async fn api(
    AxState(state): AxState<State>,
    headers: HeaderMap,
    Query(q): Query<GuideQuery>,
) -> Result<Response, ApiError> {
    auth::may_read(&state, &headers).await?;
    let format = q.format.clone().unwrap_or_else(|| "json".into());
    if !matches!(format.as_str(), "json" | "csv" | "md" | "markdown") {
        return Err(ApiError::new(
            400,
            format!("unknown format {format:?}: use json, csv or md"),
        ));
    }
    let (content_type, text) = crate::heavy(&state, &state.document_pages, move |s| {
        let l = load(s, &q)?;
        Ok(match format.as_str() {
            "csv" => (
                "text/csv; charset=utf-8",
                guidetables::csv::render(&l.guide),
            ),
            "md" | "markdown" => (
                "text/markdown; charset=utf-8",
                guidetables::md::render(&l.guide, "Performance guide"),
            ),
            _ => {
                let mut v = guidetables::json::guide(&l.guide);
                v["runs"] = l.runs.into();
                v["truncated"] = l.truncated.into();
                v["boards"] = order::boards(&l.guide).into();
                ("application/json", v.to_string())
            }
        })
    })
    .await?;
    Ok(([(header::CONTENT_TYPE, content_type)], text).into_response())
}
