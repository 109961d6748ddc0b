//! `/api/v1`: the contract shared with `boardbench upload`, the exporters and the Ansible role
//! (docs/serve.md). Errors are `{"error": "…"}` with the status saying what went wrong; nothing
//! is stored on any 4xx.

use axum::Json;
use axum::Router;
use axum::extract::{Path, Query};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use resultsdb::Filter;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::access_log::Uploader;
use crate::{State, auth};

/// An error answer: status and message.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
}

impl ApiError {
    pub fn new(status: u16, message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
            message: message.into(),
        }
    }
}

impl From<resultsdb::Error> for ApiError {
    fn from(e: resultsdb::Error) -> ApiError {
        match e {
            resultsdb::Error::NotADocument(_) | resultsdb::Error::Json(_) => {
                ApiError::new(422, format!("not a valid result document: {e}"))
            }
            resultsdb::Error::Forbidden(m) => ApiError::new(403, m),
            e => ApiError::new(500, format!("database error: {e}")),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut resp = (self.status, Json(json!({ "error": self.message }))).into_response();
        if self.status == StatusCode::UNAUTHORIZED {
            resp.headers_mut().insert(
                header::WWW_AUTHENTICATE,
                header::HeaderValue::from_static("Bearer realm=\"boardbench\""),
            );
        }
        resp
    }
}

/// Any route the service does not have.
pub async fn not_found(uri: axum::http::Uri) -> ApiError {
    ApiError::new(404, format!("no such path: {}", uri.path()))
}

/// Every error answer is JSON: axum's own rejections (a run id that is not a number, a query
/// that does not parse, a method a route does not have) come as plain text or with no body;
/// they are rewritten as `{"error": "…"}` with their status kept. Pages' HTML errors and
/// JSON errors pass unchanged.
pub async fn json_errors(req: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let resp = next.run(req).await;
    let status = resp.status();
    let plain = resp
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_none_or(|t| t.starts_with("text/plain"));
    if !(status.is_client_error() || status.is_server_error()) || !plain {
        return resp;
    }
    let (parts, body) = resp.into_parts();
    let text = axum::body::to_bytes(body, 64 * 1024)
        .await
        .map(|b| String::from_utf8_lossy(&b).trim().to_string())
        .unwrap_or_default();
    let message = if text.is_empty() {
        status.canonical_reason().unwrap_or("error").to_string()
    } else {
        text
    };
    let mut out = ApiError { status, message }.into_response();
    for (k, v) in &parts.headers {
        if k != header::CONTENT_TYPE && k != header::CONTENT_LENGTH {
            out.headers_mut().insert(k.clone(), v.clone());
        }
    }
    *out.extensions_mut() = parts.extensions;
    out
}

pub fn router() -> Router<State> {
    Router::new()
        .route("/runs", get(list).post(upload))
        .route("/runs/{id}", get(fetch).delete(delete))
        .route("/runs/{id}/report", get(report))
        .route("/table", get(table))
        .route("/corpus", get(corpus_rows))
        .route("/guide", get(crate::pages::guide::api))
        .route("/openapi.json", get(openapi))
}

#[derive(Debug, Deserialize)]
pub struct UploadQuery {
    /// A tag for the run (only on one's own runs).
    pub tag: Option<String>,
}

async fn upload(
    axum::extract::State(state): axum::extract::State<State>,
    Query(q): Query<UploadQuery>,
    req: axum::extract::Request,
) -> Result<Response, ApiError> {
    // The token first: a client without one does not get to send megabytes.
    let who = auth::uploader(&state, req.headers()).await?;
    let limit = state.config.max_upload;
    let too_large = || {
        ApiError::new(
            413,
            format!("the document is larger than this service accepts ({limit} bytes)"),
        )
    };
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > limit as u64) {
        return Err(too_large());
    }
    // The whole body within the body time-out, counted from here (tower-http's layer only
    // limits the wait for each frame: a byte every few seconds would never end), and not at all
    // once the service is stopping.
    let body_timeout = state.config.limits.body_timeout;
    let late = || {
        ApiError::new(
            408,
            format!(
                "the request body did not arrive within {} s",
                body_timeout.as_secs_f64()
            ),
        )
    };
    // At SIGTERM a body still arriving gets [`STOP_GRACE`] more (an upload in flight is
    // finished), not the rest of the body time-out: the service stops within seconds.
    let mut stopping = state.stopping.subscribe();
    let stop = async move {
        loop {
            if *stopping.borrow_and_update() {
                return;
            }
            if stopping.changed().await.is_err() {
                std::future::pending::<()>().await;
            }
        }
    };
    let read = tokio::time::timeout(body_timeout, axum::body::to_bytes(req.into_body(), limit));
    tokio::pin!(read);
    let body = tokio::select! {
        r = &mut read => r,
        () = stop => match tokio::time::timeout(STOP_GRACE, &mut read).await {
            Ok(r) => r,
            Err(_) => {
                return Err(ApiError::new(
                    503,
                    "the service is stopping; send the run again later",
                ));
            }
        },
    };
    let body = body.map_err(|_| late())?.map_err(|e| {
        if timed_out(&e) {
            late()
        } else if declared.is_none() {
            too_large()
        } else {
            ApiError::new(400, format!("the request body could not be read: {e}"))
        }
    })?;
    let tags: Vec<String> = q.tag.into_iter().filter(|t| !t.trim().is_empty()).collect();
    if let Some(t) = tags.iter().find(|t| t.chars().count() > MAX_TAG_CHARS) {
        return Err(ApiError::new(
            422,
            format!(
                "a tag is at most {MAX_TAG_CHARS} characters (this one has {})",
                t.chars().count()
            ),
        ));
    }
    // Parsing holds the whole document in memory several times over: a few at once.
    let _slot = state
        .uploads
        .acquire()
        .await
        .map_err(|_| ApiError::new(503, "the service is stopping"))?;
    // Checked, then — when no boardbench finished it (an older client, another tool: no
    // `analysis`) — finished by the one finisher, findings and analysis computed here and every
    // other field stored as it came. A document its boardbench finished is stored as sent, so
    // the client's own hash agrees (the contract); `results reanalyse` renews stored runs.
    let doc = tokio::task::spawn_blocking(move || {
        let mut doc = crate::validate::parse_upload(&body)?;
        if doc.get("analysis").is_none_or(serde_json::Value::is_null) {
            // One that does not read as a typed document is refused by the store with its reason.
            let _ = finish::finish_value(&mut doc, &crate::pages::corpus::reference().0);
        }
        Ok::<_, String>(doc)
    })
    .await
    .map_err(|e| ApiError::new(500, format!("the document could not be checked: {e}")))?
    .map_err(|e| ApiError::new(422, e))?;
    let name = who.clone();
    let up = state
        .pool
        .with(move |s| s.upload(doc, &tags, &name))
        .await?;
    let (status, id, created) = match up.added {
        resultsdb::Added::New(id) => (StatusCode::CREATED, id, true),
        resultsdb::Added::Duplicate(id) => (StatusCode::OK, id, false),
    };
    let mut resp = (
        status,
        [(header::LOCATION, format!("/api/v1/runs/{id}"))],
        Json(json!({"id": id, "hash": up.hash, "created": created})),
    )
        .into_response();
    resp.extensions_mut().insert(Uploader(who));
    Ok(resp)
}

/// The filters of `GET /runs` (those of `boardbench results list`) and the page.
#[derive(Debug, Default, Clone, Deserialize)]
pub struct ListQuery {
    pub soc: Option<String>,
    pub device: Option<String>,
    pub kernel: Option<String>,
    pub arch: Option<String>,
    pub since: Option<String>,
    pub until: Option<String>,
    pub tag: Option<String>,
    pub limit: Option<i64>,
    pub offset: Option<i64>,
    /// The table: `json`, `csv` or `md`.
    pub format: Option<String>,
    /// The table: column to sort by, and descending.
    pub sort: Option<String>,
    pub desc: Option<String>,
}

impl ListQuery {
    /// The store's filter; empty fields (an unfilled form field) mean no filter.
    pub fn filter(&self) -> Filter {
        let f = |v: &Option<String>| v.clone().filter(|s| !s.trim().is_empty());
        Filter {
            device: f(&self.device),
            soc: f(&self.soc),
            arch: f(&self.arch),
            kernel: f(&self.kernel),
            since: f(&self.since),
            until: f(&self.until),
            tag: f(&self.tag),
        }
    }
}

/// Whether reading a body failed on the body time-out (tower-http's, somewhere in the chain).
fn timed_out(e: &axum::Error) -> bool {
    let mut cur: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(x) = cur {
        if x.is::<tower_http::timeout::TimeoutError>() {
            return true;
        }
        cur = x.source();
    }
    false
}

/// How long a body still arriving at SIGTERM is waited for.
pub const STOP_GRACE: std::time::Duration = std::time::Duration::from_secs(3);

/// Longest tag, in characters.
pub const MAX_TAG_CHARS: usize = 200;

/// Largest page of `GET /runs`.
pub const MAX_LIMIT: i64 = 1000;

async fn list(
    axum::extract::State(state): axum::extract::State<State>,
    headers: HeaderMap,
    Query(q): Query<ListQuery>,
) -> Result<Response, ApiError> {
    auth::may_read(&state, &headers).await?;
    let limit = q.limit.unwrap_or(100).clamp(0, MAX_LIMIT);
    let offset = q.offset.unwrap_or(0).max(0);
    let filter = q.filter();
    let (runs, total) = state
        .pool
        .with(move |s| s.list_page(&filter, limit, offset))
        .await
        .map_err(|e| match e {
            resultsdb::Error::Other(m) => ApiError::new(400, m),
            e => e.into(),
        })?;
    Ok(
        Json(json!({"runs": runs, "total": total, "limit": limit, "offset": offset}))
            .into_response(),
    )
}

async fn fetch(
    axum::extract::State(state): axum::extract::State<State>,
    headers: HeaderMap,
    Path(id): Path<i64>,
) -> Result<Response, ApiError> {
    auth::may_read(&state, &headers).await?;
    match state.pool.with(move |s| s.document_text(id)).await? {
        Some(text) => Ok(([(header::CONTENT_TYPE, "application/json")], text).into_response()),
        None => Err(ApiError::new(404, format!("no run {id}"))),
    }
}

async fn delete(
    axum::extract::State(state): axum::extract::State<State>,
    headers: HeaderMap,
    Path(id): Path<i64>,
) -> Result<Response, ApiError> {
    let who = auth::uploader(&state, &headers).await?;
    let name = who.clone();
    let deleted = state.pool.with(move |s| s.delete_run_of(id, &name)).await?;
    if !deleted {
        return Err(ApiError::new(404, format!("no run {id}")));
    }
    let mut resp = StatusCode::NO_CONTENT.into_response();
    resp.extensions_mut().insert(Uploader(who));
    Ok(resp)
}

/// A stored document as this version's type (the report needs it), read on the caller's
/// (blocking) thread.
pub fn document_of(
    s: &mut resultsdb::Store,
    id: i64,
) -> Result<document::ResultDocument, ApiError> {
    let text = s
        .document_text(id)?
        .ok_or_else(|| ApiError::new(404, format!("no run {id}")))?;
    serde_json::from_str(&text).map_err(|e| {
        ApiError::new(
            500,
            format!("run {id} is stored in a form this version cannot render: {e}"),
        )
    })
}

async fn report(
    axum::extract::State(state): axum::extract::State<State>,
    headers: HeaderMap,
    Path(id): Path<i64>,
) -> Result<Response, ApiError> {
    auth::may_read(&state, &headers).await?;
    let html = crate::heavy(&state, &state.document_pages, move |s| {
        Ok(report::html(&document_of(s, id)?, &[]))
    })
    .await?;
    Ok(axum::response::Html(html).into_response())
}

/// A sort column by name (`None`: by id).
fn column(sort: Option<&str>) -> Result<resultsdb::table::Column, ApiError> {
    use resultsdb::table::Column;
    match sort.filter(|s| !s.is_empty()) {
        None => Ok(Column::Id),
        Some(s) => Column::parse(s).ok_or_else(|| {
            ApiError::new(
                400,
                format!(
                    "unknown column {s:?}: use one of {}",
                    Column::NAMES.join(", ")
                ),
            )
        }),
    }
}

/// A filter error (a date that does not parse) is the client's.
fn filter_error(e: resultsdb::Error) -> ApiError {
    match e {
        resultsdb::Error::Other(m) => ApiError::new(400, m),
        e => e.into(),
    }
}

/// The Results.md table rows (filtered, sorted) and the runs' not-comparable marks, read on
/// the caller's (blocking) thread.
pub fn table_rows(
    s: &mut resultsdb::Store,
    filter: Filter,
    col: resultsdb::table::Column,
    desc: bool,
) -> Result<(Vec<resultsdb::TableRow>, resultsdb::marks::Marks), ApiError> {
    let mut rows = s.table_filtered(&filter).map_err(filter_error)?;
    resultsdb::table::sort_rows(&mut rows, col, desc);
    Ok((rows, resultsdb::marks::load(s)))
}

/// One page of the table: its rows, the number of matching runs, the marks.
pub async fn table_page(
    state: &State,
    filter: Filter,
    sort: Option<&str>,
    desc: bool,
    limit: i64,
    offset: i64,
) -> Result<(Vec<resultsdb::TableRow>, usize, resultsdb::marks::Marks), ApiError> {
    let col = column(sort)?;
    crate::heavy(state, &state.table_answers, move |s| {
        let (rows, total) = s
            .table_page(&filter, col, desc, limit, offset)
            .map_err(filter_error)?;
        Ok((rows, total, resultsdb::marks::load(s)))
    })
    .await
}

/// `desc=1`, `desc=true`, `desc=on` (a checkbox).
pub fn truthy(v: &Option<String>) -> bool {
    matches!(v.as_deref(), Some("1" | "true" | "on" | "yes"))
}

async fn table(
    axum::extract::State(state): axum::extract::State<State>,
    headers: HeaderMap,
    Query(q): Query<ListQuery>,
) -> Result<Response, ApiError> {
    auth::may_read(&state, &headers).await?;
    let format = q.format.clone().unwrap_or_else(|| "json".into());
    if !matches!(format.as_str(), "json" | "csv" | "md" | "markdown") {
        return Err(ApiError::new(
            400,
            format!("unknown format {format:?}: use json, csv or md"),
        ));
    }
    let col = column(q.sort.as_deref())?;
    let (filter, desc) = (q.filter(), truthy(&q.desc));
    // Every matching run's row, rendered off the async workers.
    let (content_type, text) = crate::heavy(&state, &state.table_answers, move |s| {
        let (rows, marks) = table_rows(s, filter, col, desc)?;
        Ok(match format.as_str() {
            "csv" => (
                "text/csv; charset=utf-8",
                resultsdb::table::table_csv(&rows, &marks),
            ),
            "md" | "markdown" => (
                "text/markdown; charset=utf-8",
                resultsdb::table::table_markdown(&rows, &marks),
            ),
            _ => (
                "application/json",
                serde_json::to_string(&Value::Array(resultsdb::table::table_json(&rows, &marks)))
                    .map_err(|e| ApiError::new(500, e.to_string()))?,
            ),
        })
    })
    .await?;
    Ok(([(header::CONTENT_TYPE, content_type)], text).into_response())
}

#[derive(Debug, Deserialize)]
pub struct CorpusQuery {
    /// Only the rows of this SoC (as the table or boardbench spells it).
    pub soc: Option<String>,
}

/// sbc-bench's published rows the service places runs among, with their source, date and
/// licence notice.
async fn corpus_rows(
    axum::extract::State(state): axum::extract::State<State>,
    headers: HeaderMap,
    Query(q): Query<CorpusQuery>,
) -> Result<Response, ApiError> {
    auth::may_read(&state, &headers).await?;
    let text = crate::heavy(&state, &state.table_answers, move |_| {
        let (c, whence) = crate::pages::corpus::reference();
        let entries: Vec<&corpus::Entry> = match q.soc.as_deref().filter(|s| !s.trim().is_empty()) {
            Some(s) => c.by_soc(s).collect(),
            None => c.entries.iter().collect(),
        };
        serde_json::to_string(&serde_json::json!({
            "source": c.source,
            "date": c.date,
            "in_use": whence,
            "rows": c.entries.len(),
            "soc": q.soc.as_deref().map(corpus::normalise_soc),
            "license": corpus::LICENSE,
            "entries": entries,
        }))
        .map_err(|e| ApiError::new(500, e.to_string()))
    })
    .await?;
    Ok(([(header::CONTENT_TYPE, "application/json")], text).into_response())
}

async fn openapi() -> Response {
    (
        [(header::CONTENT_TYPE, "application/json")],
        crate::openapi::DOCUMENT,
    )
        .into_response()
}
