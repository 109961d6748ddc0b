//! The boardbench results service: an HTTP API (`/api/v1`) and server-rendered pages over the
//! results database (crates/resultsdb: PostgreSQL for labs, SQLite for one person).
//!
//! Why it looks like this: the store is synchronous (rusqlite/postgres), so handlers borrow a
//! connection from a small pool inside `spawn_blocking`; every page is rendered on the server
//! with the renderers the CLI uses (report, Results.md table, compare), so a page and a
//! `boardbench results …` command never disagree. Nothing is stored on any 4xx: validation and
//! the owner check happen before the one transaction that stores a run.
//!
//! Module map:
//! - [`config`]: what the operator sets (listen address, database, limits, read protection).
//! - [`connections`]: accepting connections within the limits (time-outs, connection cap,
//!   shutdown deadline).
//! - [`pool`]: the database connections shared by the handlers.
//! - [`api`]: `/api/v1` (upload, list, fetch, report, table, OpenAPI).
//! - [`auth`]: bearer tokens (upload always, reading with `--read-token`).
//! - [`pages`]: the HTML pages (table, run, compare, board) and their security headers.
//! - [`openapi`]: the OpenAPI document.
//! - [`access_log`]: one structured line per request on stderr.
//! - [`validate`]: uploads against the result document's JSON Schema.

pub mod access_log;
pub mod api;
pub mod auth;
pub mod config;
pub mod connections;
pub mod openapi;
pub mod pages;
pub mod pool;
pub mod validate;

use std::sync::Arc;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::get;

pub use config::{Config, Limits};

/// What every handler shares.
pub struct AppState {
    pub config: Config,
    pub pool: Arc<pool::Pool>,
    /// Uploads being parsed and stored ([`Limits::max_uploads`]).
    pub uploads: tokio::sync::Semaphore,
    /// Pages that parse stored documents (run, report, compare, board, guide):
    /// [`DOCUMENT_PAGES`] at once.
    pub document_pages: Arc<tokio::sync::Semaphore>,
    /// Answers that read many rows but no document (the table as JSON, CSV or Markdown, the
    /// corpus): [`TABLE_ANSWERS`] at once.
    pub table_answers: Arc<tokio::sync::Semaphore>,
    /// Turns true at SIGTERM: a body still arriving is not waited for (503).
    pub stopping: tokio::sync::watch::Sender<bool>,
}

/// Pages that parse stored documents answered at once; more wait. A compare of eight runs of
/// the largest documents accepted holds them all in memory, so a burst of such requests (they
/// need no token where reading is open) would otherwise take memory without bound.
pub const DOCUMENT_PAGES: usize = 2;

/// Row-reading answers (the whole table, the corpus) computed at once; more wait.
pub const TABLE_ANSWERS: usize = 4;

/// How long a heavy answer ([`heavy`]) may take, waiting for its place included; after it the
/// request is answered 503 and its place is given back once the work has ended.
pub const HEAVY_DEADLINE: std::time::Duration = std::time::Duration::from_secs(20);

/// Runs `f` — a heavy answer: reading documents or many rows, parsing, rendering — on a
/// blocking thread with a database connection, never on the async workers (which answer
/// `/healthz` and every light request meanwhile), after taking a place of `places` (held until
/// `f` returns, so abandoned work still counts), all within [`HEAVY_DEADLINE`]: 503 after it.
pub async fn heavy<T: Send + 'static>(
    state: &State,
    places: &Arc<tokio::sync::Semaphore>,
    f: impl FnOnce(&mut resultsdb::Store) -> Result<T, api::ApiError> + Send + 'static,
) -> Result<T, api::ApiError> {
    let deadline = tokio::time::Instant::now() + HEAVY_DEADLINE;
    let late = || {
        api::ApiError::new(
            503,
            format!(
                "the service is busy: this answer did not come within {} s; try again later \
                 (or with fewer runs)",
                HEAVY_DEADLINE.as_secs()
            ),
        )
    };
    let place = tokio::time::timeout_at(deadline, Arc::clone(places).acquire_owned())
        .await
        .map_err(|_| late())?
        .map_err(|_| api::ApiError::new(503, "the service is stopping"))?;
    let pool = Arc::clone(&state.pool);
    let work = tokio::task::spawn_blocking(move || {
        let _place = place;
        pool.with_connection(f)
    });
    match tokio::time::timeout_at(deadline, work).await {
        Err(_) => Err(late()),
        Ok(Err(e)) => Err(api::ApiError::new(500, format!("the answer failed: {e}"))),
        Ok(Ok(r)) => r,
    }
}

impl AppState {
    pub fn new(config: Config, pool: Arc<pool::Pool>) -> AppState {
        let uploads = tokio::sync::Semaphore::new(config.limits.max_uploads.max(1));
        AppState {
            config,
            pool,
            uploads,
            document_pages: Arc::new(tokio::sync::Semaphore::new(DOCUMENT_PAGES)),
            table_answers: Arc::new(tokio::sync::Semaphore::new(TABLE_ANSWERS)),
            stopping: tokio::sync::watch::Sender::new(false),
        }
    }
}

pub type State = Arc<AppState>;

/// The whole application (routes and middleware) over an opened pool.
pub fn app(state: State) -> Router {
    let limit = state.config.max_upload;
    Router::new()
        .route("/", get(pages::table::page))
        .route("/runs/{id}", get(pages::run::page))
        .route("/compare", get(pages::compare::page))
        .route("/board", get(pages::board::page))
        .route("/guide", get(pages::guide::page))
        .route("/healthz", get(|| async { "ok\n" }))
        .nest("/api/v1", api::router())
        .fallback(api::not_found)
        .layer(DefaultBodyLimit::max(limit))
        .layer(tower_http::timeout::RequestBodyTimeoutLayer::new(
            state.config.limits.body_timeout,
        ))
        .layer(axum::middleware::from_fn(api::json_errors))
        .layer(axum::middleware::from_fn(pages::security_headers))
        .layer(axum::middleware::from_fn_with_state(
            state.config.read_token,
            pages::private_when_protected,
        ))
        .layer(axum::middleware::from_fn(access_log::log))
        .with_state(state)
}

/// Opens the database (migrating it), binds the address and serves until SIGTERM or Ctrl-C;
/// requests in flight are finished before it returns, within the shutdown deadline.
pub fn run(config: Config) -> anyhow::Result<()> {
    // Blocking threads beyond the database connections would only wait for one; each more
    // thread may also hold a malloc arena of its own (resident memory under load).
    let rt = tokio::runtime::Builder::new_multi_thread()
        .max_blocking_threads(config.connections * 2 + 4)
        .enable_all()
        .thread_name("boardbench-serve")
        .build()?;
    // The synchronous PostgreSQL driver runs its own small runtime: connections are opened and
    // finally closed outside tokio's, the handlers use them inside `spawn_blocking`.
    let pool = Arc::new(pool::Pool::open(&config.db, config.connections)?);
    let served = Arc::clone(&pool);
    let result = rt.block_on(async move {
        let pool = served;
        let listener = tokio::net::TcpListener::bind(&config.listen)
            .await
            .map_err(|e| anyhow::anyhow!("cannot listen on {}: {e}", config.listen))?;
        let addr = listener.local_addr()?;
        access_log::line(&serde_json::json!({
            "ts": access_log::now(),
            "event": "listening",
            "addr": addr.to_string(),
            "db": config.db.display(),
            "read_token": config.read_token,
            "max_upload": config.max_upload,
        }));
        let limits = config.limits.clone();
        let state = Arc::new(AppState::new(config, pool));
        let stopping = state.stopping.clone();
        connections::serve(listener, app(state), &limits.connections(), async move {
            shutdown_signal().await;
            stopping.send_replace(true);
        })
        .await;
        Ok::<(), anyhow::Error>(())
    });
    // A database call still running after the deadline is not waited for without end.
    rt.shutdown_timeout(std::time::Duration::from_secs(5));
    drop(pool);
    access_log::line(&serde_json::json!({"ts": access_log::now(), "event": "stopped"}));
    result
}

async fn shutdown_signal() {
    use tokio::signal::unix::{SignalKind, signal};
    let mut term = signal(SignalKind::terminate()).expect("SIGTERM handler");
    let mut int = signal(SignalKind::interrupt()).expect("SIGINT handler");
    let which = tokio::select! {
        _ = term.recv() => "SIGTERM",
        _ = int.recv() => "SIGINT",
    };
    access_log::line(
        &serde_json::json!({"ts": access_log::now(), "event": "shutdown",
        "signal": which, "note": "finishing requests in flight"}),
    );
}
