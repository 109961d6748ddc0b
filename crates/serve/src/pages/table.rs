//! `/`: the Results.md table of the stored runs. Filters (SoC, device, kernel, dates, tag) are a
//! plain GET form; each column heading is a link that sorts by it (again: the other way); the
//! rows are paged (200 a page) after sorting all matching runs. Ticking runs and pressing
//! "Compare" opens the compare page; a device name opens its board page.

use axum::extract::{Query, State as AxState};
use axum::http::HeaderMap;
use axum::response::Html;
use report::escape::esc;
use resultsdb::table::{Column, cells};

use super::{PageError, day, urlenc, validity_cell, wide_page};
use crate::api::{ListQuery, table_page, truthy};
use crate::{State, auth};

/// Rows on one page of the table.
pub const PAGE_ROWS: usize = 200;

const FILTERS: [(&str, &str, &str); 6] = [
    ("soc", "SoC", "contains, e.g. RK3588"),
    ("device", "Device", "contains"),
    ("kernel", "Kernel", "starts with, e.g. 6.1"),
    ("since", "From", "YYYY-MM-DD"),
    ("until", "To", "YYYY-MM-DD"),
    ("tag", "Tag", "exact"),
];

fn filter_value<'a>(q: &'a ListQuery, key: &str) -> Option<&'a str> {
    match key {
        "soc" => q.soc.as_deref(),
        "device" => q.device.as_deref(),
        "kernel" => q.kernel.as_deref(),
        "since" => q.since.as_deref(),
        "until" => q.until.as_deref(),
        "tag" => q.tag.as_deref(),
        _ => None,
    }
    .filter(|v| !v.trim().is_empty())
}

/// The query string of the current filters (for sort and page links).
fn filter_query(q: &ListQuery) -> String {
    FILTERS
        .iter()
        .filter_map(|(k, _, _)| filter_value(q, k).map(|v| format!("{k}={}", urlenc(v))))
        .collect::<Vec<_>>()
        .join("&")
}

pub async fn page(
    AxState(state): AxState<State>,
    headers: HeaderMap,
    Query(q): Query<ListQuery>,
) -> Result<Html<String>, PageError> {
    auth::may_read(&state, &headers).await?;
    let sort = q.sort.clone().filter(|s| !s.is_empty());
    let desc = truthy(&q.desc);
    let page_no: usize = q.offset.unwrap_or(0).max(0) as usize / PAGE_ROWS;
    let (rows, total, marks) = table_page(
        &state,
        q.filter(),
        sort.as_deref(),
        desc,
        PAGE_ROWS as i64,
        (page_no * PAGE_ROWS) as i64,
    )
    .await?;
    let base = filter_query(&q);
    let sep = if base.is_empty() { "" } else { "&" };

    let mut body = String::with_capacity(64 * 1024);
    body.push_str("<h1>boardbench results</h1>");
    body.push_str("<form method=\"get\" action=\"/\" class=\"filters\"><p>");
    for (key, label, hint) in FILTERS {
        body.push_str(&format!(
            "<label>{label} <input name=\"{key}\" value=\"{}\" placeholder=\"{hint}\" size=\"12\"></label> ",
            esc(filter_value(&q, key).unwrap_or(""))
        ));
    }
    if let Some(s) = &sort {
        body.push_str(&format!(
            "<input type=\"hidden\" name=\"sort\" value=\"{}\">",
            esc(s)
        ));
        if desc {
            body.push_str("<input type=\"hidden\" name=\"desc\" value=\"1\">");
        }
    }
    body.push_str("<button type=\"submit\">Filter</button> <a href=\"/\">clear</a></p></form>");

    let first = (page_no * PAGE_ROWS).min(total);
    let last = first + rows.len();
    body.push_str(&format!(
        "<p class=\"dim\" id=\"count\">{total} run{} match{}; showing {}–{last}. Numbers marked \
         (quick) were not measured the way sbc-bench measures them; a run marked INVALID has a \
         finding that says its numbers are not to be trusted (its run page says why).</p>",
        if total == 1 { "" } else { "s" },
        if total == 1 { "es" } else { "" },
        if total == 0 { 0 } else { first + 1 },
    ));

    body.push_str("<form method=\"get\" action=\"/compare\"><div class=\"scroll\">");
    body.push_str("<table id=\"results\" class=\"results\"><thead><tr><th title=\"tick runs to compare them\">✓</th>");
    let id_desc = sort.is_none() || sort.as_deref() == Some("id");
    body.push_str(&format!(
        "<th><a href=\"/?{base}{sep}sort=id{}\">Run</a></th>",
        if id_desc && !desc { "&desc=1" } else { "" }
    ));
    let sortable = |header: &str, key: &str| {
        let current = sort
            .as_deref()
            .and_then(Column::parse)
            .zip(Column::parse(key))
            .is_some_and(|(a, b)| a == b);
        let arrow = match (current, desc) {
            (true, false) => " ▲",
            (true, true) => " ▼",
            _ => "",
        };
        format!(
            "<th><a href=\"/?{base}{sep}sort={key}{}\">{}</a>{arrow}</th>",
            if current && !desc { "&desc=1" } else { "" },
            esc(header)
        )
    };
    let (headers, keys) = (resultsdb::table::HEADERS, resultsdb::table::header_keys());
    body.push_str(&sortable(headers[0], keys[0]));
    body.push_str("<th>SoC</th><th>Date</th>");
    for (header, key) in headers.iter().zip(keys).skip(1) {
        body.push_str(&sortable(header, key));
    }
    body.push_str("<th>Uploader</th><th>Findings</th>");
    body.push_str("</tr></thead><tbody>");
    for r in &rows {
        let c = cells(r, &marks);
        let class = super::row_class(r.worst.as_deref());
        body.push_str(&format!(
            "<tr{class}><td><input type=\"checkbox\" name=\"id\" value=\"{id}\" aria-label=\"compare run {id}\"></td>\
             <td class=\"num\"><a href=\"/runs/{id}\">{id}</a></td>",
            id = r.id
        ));
        match &r.device {
            Some(d) => body.push_str(&format!(
                "<td class=\"clip\" title=\"{t}\"><a href=\"/board?device={}\">{t}</a></td>",
                urlenc(d),
                t = esc(d)
            )),
            None => body.push_str("<td>-</td>"),
        }
        body.push_str(&clipped(r.soc.as_deref().unwrap_or("-")));
        body.push_str(&format!("<td>{}</td>", esc(&day(r.started.as_deref()))));
        for (i, cell) in c.iter().enumerate().skip(1) {
            match i {
                // Kernel and distro: one line each, the whole text on hover.
                2 | 3 => body.push_str(&clipped(cell)),
                1 => body.push_str(&clipped(cell)),
                // A figure's mark ("(quick)") on a line of its own under the number: the
                // column stays as wide as its numbers (every column fits 1400 px).
                _ => match cell.split_once(" (") {
                    Some((n, mark)) => body.push_str(&format!(
                        "<td class=\"num\">{}<span class=\"mark\">({}</span></td>",
                        esc(n),
                        esc(mark)
                    )),
                    None => body.push_str(&format!("<td class=\"num\">{}</td>", esc(cell))),
                },
            }
        }
        body.push_str(&clipped(r.uploader.as_deref().unwrap_or("-")));
        body.push_str(&format!("<td>{}</td>", validity_cell(r.worst.as_deref())));
        body.push_str("</tr>");
    }
    body.push_str("</tbody></table></div>");
    body.push_str("<p><button type=\"submit\">Compare the ticked runs</button></p></form>");

    let sort_q = sort
        .as_deref()
        .map(|s| format!("&sort={}{}", urlenc(s), if desc { "&desc=1" } else { "" }))
        .unwrap_or_default();
    let mut pager = Vec::new();
    if first > 0 {
        pager.push(format!(
            "<a href=\"/?{base}{sort_q}&offset={}\">← previous {PAGE_ROWS}</a>",
            first - PAGE_ROWS.min(first)
        ));
    }
    if last < total {
        pager.push(format!(
            "<a href=\"/?{base}{sort_q}&offset={last}\">next {PAGE_ROWS} →</a>"
        ));
    }
    if !pager.is_empty() {
        body.push_str(&format!("<p>{}</p>", pager.join(" · ")));
    }
    body.push_str(
        "<p class=\"dim\">The same table as Markdown, CSV or JSON: \
         <a href=\"/api/v1/table?format=md\">md</a> · <a href=\"/api/v1/table?format=csv\">csv</a> · \
         <a href=\"/api/v1/table?format=json\">json</a></p>",
    );
    Ok(wide_page("boardbench results", &body))
}

/// A cell that stays one line: text cut with an ellipsis, the whole text on hover.
fn clipped(text: &str) -> String {
    format!("<td class=\"clip\" title=\"{t}\">{t}</td>", t = esc(text))
}
