//! Bearer tokens: `Authorization: Bearer TOKEN`. Unknown or missing → 401, revoked → 403.
//! Uploads always need one; reading only when the service runs with `--read-token`.

use axum::http::HeaderMap;
use resultsdb::service::TokenCheck;

use crate::State;
use crate::api::ApiError;

/// The token of a request, if it carries one.
pub fn bearer(headers: &HeaderMap) -> Option<String> {
    let v = headers
        .get(axum::http::header::AUTHORIZATION)?
        .to_str()
        .ok()?;
    let (scheme, token) = v.trim().split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim().to_string())
        .filter(|t| !t.is_empty())
}

/// The uploader behind the request's token.
pub async fn uploader(state: &State, headers: &HeaderMap) -> Result<String, ApiError> {
    let Some(token) = bearer(headers) else {
        return Err(ApiError::new(
            401,
            "a token is needed: Authorization: Bearer TOKEN (boardbench serve token add NAME)",
        ));
    };
    match state.pool.with(move |s| s.token_check(&token)).await? {
        TokenCheck::Valid(name) => Ok(name),
        TokenCheck::Revoked(_) => Err(ApiError::new(403, "this token has been revoked")),
        TokenCheck::Unknown => Err(ApiError::new(401, "unknown token")),
    }
}

/// Nothing when reading is open; a valid token otherwise.
pub async fn may_read(state: &State, headers: &HeaderMap) -> Result<(), ApiError> {
    if state.config.read_token {
        uploader(state, headers).await?;
    }
    Ok(())
}
