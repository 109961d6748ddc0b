//! Server-rendered pages: plain HTML forms and links (no JavaScript), the report's stylesheet,
//! every string from a document or a request escaped (`report::escape::esc`).
//!
//! Every answer carries a strict Content-Security-Policy: no scripts at all, no fetches, styles
//! only the one stylesheet (by its hash), forms only to this service, no framing.
//!
//! One module per page: [`table`] (the Results.md table, sortable and filterable), [`run`] (the
//! HTML report), [`compare`] (ratios and per-GHz figures), [`board`] (one device over time),
//! [`guide`] (the guide runs' tables, one column per board).

pub mod board;
pub mod compare;
pub mod corpus;
pub mod guide;
pub mod run;
pub mod table;

use std::sync::OnceLock;

use axum::extract::Request;
use axum::http::{HeaderValue, header};
use axum::middleware::Next;
use axum::response::{Html, IntoResponse, Response};
use report::escape::esc;

use crate::api::ApiError;

/// The Content-Security-Policy of every answer.
pub fn csp() -> &'static str {
    static CSP: OnceLock<String> = OnceLock::new();
    CSP.get_or_init(|| {
        use sha2::Digest;
        let hash = base64(&sha2::Sha256::digest(report::page::CSS.as_bytes()));
        format!(
            "default-src 'none'; style-src 'sha256-{hash}'; img-src data:; form-action 'self'; \
             frame-ancestors 'none'; base-uri 'none'"
        )
    })
}

fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(A[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Security headers on every answer (API answers too: a JSON error opened in a browser runs
/// nothing either).
pub async fn security_headers(req: Request, next: Next) -> Response {
    let mut resp = next.run(req).await;
    let h = resp.headers_mut();
    if let Ok(v) = HeaderValue::from_str(csp()) {
        h.insert(header::CONTENT_SECURITY_POLICY, v);
    }
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    resp
}

/// With `--read-token` every answer depends on the reader's token: no shared cache (a TLS
/// proxy's, a browser's shared one) may keep it or hand it to someone else.
pub async fn private_when_protected(
    axum::extract::State(protected): axum::extract::State<bool>,
    req: Request,
    next: Next,
) -> Response {
    let mut resp = next.run(req).await;
    if protected {
        let h = resp.headers_mut();
        h.insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static("private, no-store"),
        );
        h.append(header::VARY, HeaderValue::from_static("Authorization"));
    }
    resp
}

/// The navigation line on every page.
pub fn nav() -> &'static str {
    "<nav class=\"dim\"><a href=\"/\">Results table</a> · <a href=\"/compare\">Compare</a> · \
     <a href=\"/guide\">Guide</a> · <a href=\"/api/v1/openapi.json\">API</a></nav>"
}

/// A whole page: title (plain text) and body HTML.
pub fn page(title: &str, body: &str) -> Html<String> {
    Html(report::page::page(
        &esc(title),
        &format!("{}\n{body}", nav()),
    ))
}

/// [`page`] for the wide tables (results, board).
pub fn wide_page(title: &str, body: &str) -> Html<String> {
    Html(report::page::wide_page(
        &esc(title),
        &format!("{}\n{body}", nav()),
    ))
}

/// The day of a document's `started` ("2026-11-24T15:21:07-04:00" → "2026-11-24"), "-" when
/// there is none.
pub fn day(started: Option<&str>) -> String {
    started
        .map(|s| s.get(..10).unwrap_or(s).to_string())
        .unwrap_or_else(|| "-".into())
}

/// ` class="invalid"` for the row of a run with an INVALID finding (tinted), else nothing.
pub fn row_class(worst: Option<&str>) -> &'static str {
    if worst == Some("invalid") {
        " class=\"invalid\""
    } else {
        ""
    }
}

/// The findings cell of a run: its worst severity as a badge ("invalid" reads INVALID), "ok"
/// without warnings.
pub fn validity_cell(worst: Option<&str>) -> String {
    match worst {
        Some("invalid") => "<span class=\"sev invalid\">invalid</span>".into(),
        Some("warning") => "<span class=\"sev warning\">warning</span>".into(),
        _ => "<span class=\"dim\">ok</span>".into(),
    }
}

/// An error shown as a page.
pub struct PageError(pub ApiError);

impl From<ApiError> for PageError {
    fn from(e: ApiError) -> PageError {
        PageError(e)
    }
}

impl From<resultsdb::Error> for PageError {
    fn from(e: resultsdb::Error) -> PageError {
        PageError(e.into())
    }
}

impl IntoResponse for PageError {
    fn into_response(self) -> Response {
        let title = format!(
            "{} {}",
            self.0.status.as_u16(),
            self.0.status.canonical_reason().unwrap_or("")
        );
        let body = format!("<h1>{}</h1><p>{}</p>", esc(&title), esc(&self.0.message));
        let mut resp = (self.0.status, page(&title, &body)).into_response();
        if self.0.status == axum::http::StatusCode::UNAUTHORIZED {
            resp.headers_mut().insert(
                header::WWW_AUTHENTICATE,
                HeaderValue::from_static("Bearer realm=\"boardbench\""),
            );
        }
        resp
    }
}

/// Percent-encodes a query value.
pub fn urlenc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Decodes a percent-encoded query value (`+` is a space).
pub fn urldec(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < b.len() => {
                let hex = |c: u8| (c as char).to_digit(16);
                match (hex(b[i + 1]), hex(b[i + 2])) {
                    (Some(h), Some(l)) => {
                        out.push((h * 16 + l) as u8);
                        i += 2;
                    }
                    _ => out.push(b'%'),
                }
            }
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A number as the table prints it, `-` when missing.
pub fn num(v: Option<f64>) -> String {
    resultsdb::table::opt_number(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_known_values() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
    }

    #[test]
    fn query_values_round_trip() {
        for s in ["a b&c=d", "Rock 5B <x>", "ü%", "50%"] {
            assert_eq!(urldec(&urlenc(s)), s);
        }
        assert_eq!(urldec("a+b%2"), "a b%2");
    }
}
