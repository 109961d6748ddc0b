//! `POST /api/v1/runs` with bounded retries.
//!
//! The service's answers (docs/upload.md has the contract): 201 stored, 200 stored already
//! (same hash), 401/403 token problems, 413 too large, 422 not a valid document, 5xx the
//! service's own trouble. Connection errors and 5xx are retried with exponential backoff
//! (doubling from `first_delay`, capped at `max_delay`, up to 25 % jitter so a lab's boards do
//! not all come back at the same instant, a `Retry-After` of the service honoured up to the
//! cap); a 4xx is never retried: sending the same body again cannot change the answer.

use std::time::Duration;

use serde::{Deserialize, Serialize};

/// How often and how patiently to try.
#[derive(Debug, Clone, Copy)]
pub struct RetryPolicy {
    /// Tries in all (1 = no retry).
    pub attempts: u32,
    /// Wait before the first retry; each later one waits twice as long.
    pub first_delay: Duration,
    /// No single wait is longer.
    pub max_delay: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            attempts: 5,
            first_delay: Duration::from_millis(500),
            max_delay: Duration::from_secs(30),
        }
    }
}

impl RetryPolicy {
    /// The wait before retry `n` (1 = the first retry), without jitter.
    pub fn delay(&self, n: u32) -> Duration {
        let factor = 1u32.checked_shl(n.saturating_sub(1)).unwrap_or(u32::MAX);
        self.first_delay
            .checked_mul(factor)
            .unwrap_or(self.max_delay)
            .min(self.max_delay)
    }
}

/// The service's answer to a stored document (201 or 200).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stored {
    pub id: i64,
    /// SHA-256 of the document as the service stored it.
    pub hash: String,
    /// false: the service had this document already.
    pub created: bool,
}

/// How one upload ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Stored(Stored),
    /// 401 or 403: the token is missing, unknown or revoked, or the run is another uploader's.
    /// Every further upload would be refused alike.
    Refused {
        status: u16,
        message: String,
    },
    /// Any other 4xx (413 too large, 422 not a valid document): this document only.
    Rejected {
        status: u16,
        message: String,
    },
    /// Connection errors or 5xx on every try: the service is not there now; try later.
    Unavailable {
        message: String,
    },
    /// 2xx with a body that is not the contract's answer: nothing is known to be stored.
    BadAnswer {
        status: u16,
        message: String,
    },
}

/// One retry: why, and how long it waited first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Retry {
    pub cause: String,
    pub waited: Duration,
}

/// A client of one results service.
pub struct Client {
    agent: ureq::Agent,
    runs_url: String,
    token: String,
    policy: RetryPolicy,
    sleep: fn(Duration),
}

/// The service's root URL: `http://host:8080`, also given as `…/api/v1` or `…/api/v1/runs`,
/// with or without a trailing slash. The state file keys acknowledgements by it.
pub fn service_root(url: &str) -> String {
    let mut u = url.trim().trim_end_matches('/');
    for suffix in ["/runs", "/api/v1"] {
        u = u.strip_suffix(suffix).unwrap_or(u).trim_end_matches('/');
    }
    u.to_string()
}

/// The first line of an error answer: the contract's `{"error":"…"}`, else the body's start.
fn message_of(body: &str) -> String {
    if let Ok(v) = serde_json::from_str::<serde_json::Value>(body)
        && let Some(e) = v.get("error").and_then(|e| e.as_str())
    {
        return e.to_string();
    }
    let line = body.lines().next().unwrap_or("").trim();
    line.chars().take(200).collect()
}

/// A little randomness for the jitter without a dependency: the clock's nanoseconds.
fn jitter(d: Duration) -> Duration {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|t| t.subsec_nanos())
        .unwrap_or(0);
    d + d.mul_f64(f64::from(nanos % 1000) / 4000.0)
}

impl Client {
    /// A client for the service at `url` (see [`service_root`]) sending `token`.
    pub fn new(url: &str, token: &str, policy: RetryPolicy, timeout: Duration) -> Client {
        let config = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(timeout))
            .user_agent(format!("boardbench/{}", env!("CARGO_PKG_VERSION")))
            .build();
        Client {
            agent: ureq::Agent::new_with_config(config),
            runs_url: format!("{}/api/v1/runs", service_root(url)),
            token: token.to_string(),
            policy,
            sleep: std::thread::sleep,
        }
    }

    /// Replaces the sleep between tries (tests record the waits instead of waiting).
    pub fn with_sleep(mut self, sleep: fn(Duration)) -> Client {
        self.sleep = sleep;
        self
    }

    /// One try: `Ok((status, retry_after, body))` or a transport error.
    fn post_once(&self, body: &[u8]) -> Result<(u16, Option<Duration>, String), String> {
        let mut resp = self
            .agent
            .post(&self.runs_url)
            .header("Authorization", &format!("Bearer {}", self.token))
            .content_type("application/json")
            .send(body)
            .map_err(|e| e.to_string())?;
        let status = resp.status().as_u16();
        let retry_after = resp
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok())
            .map(Duration::from_secs);
        let text = resp
            .body_mut()
            .with_config()
            .limit(1 << 20)
            .read_to_string()
            .unwrap_or_default();
        Ok((status, retry_after, text))
    }

    /// Sends one document (its JSON bytes); the retries it took come back beside the outcome.
    pub fn post_run(&self, body: &[u8]) -> (Outcome, Vec<Retry>) {
        let mut retries = Vec::new();
        let mut attempt = 1;
        loop {
            let (cause, retry_after) = match self.post_once(body) {
                Ok((status @ (200 | 201), _, text)) => {
                    let outcome = match serde_json::from_str::<Stored>(&text) {
                        Ok(s) => Outcome::Stored(s),
                        Err(e) => Outcome::BadAnswer {
                            status,
                            message: format!("not the answer of a results service ({e})"),
                        },
                    };
                    return (outcome, retries);
                }
                Ok((status @ (401 | 403), _, text)) => {
                    let message = message_of(&text);
                    return (Outcome::Refused { status, message }, retries);
                }
                Ok((status @ 400..=499, _, text)) => {
                    let message = message_of(&text);
                    return (Outcome::Rejected { status, message }, retries);
                }
                Ok((status @ 500..=599, after, text)) => {
                    (format!("HTTP {status} {}", message_of(&text)), after)
                }
                Ok((status, _, text)) => {
                    let message = format!("unexpected answer: {}", message_of(&text));
                    return (Outcome::BadAnswer { status, message }, retries);
                }
                Err(e) => (e, None),
            };
            if attempt >= self.policy.attempts {
                let message = if attempt > 1 {
                    format!("{} (after {attempt} tries)", cause.trim())
                } else {
                    cause.trim().to_string()
                };
                return (Outcome::Unavailable { message }, retries);
            }
            let mut wait = jitter(self.policy.delay(attempt));
            if let Some(a) = retry_after {
                wait = wait.max(a.min(self.policy.max_delay));
            }
            (self.sleep)(wait);
            retries.push(Retry {
                cause: cause.trim().to_string(),
                waited: wait,
            });
            attempt += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn service_root_accepts_every_form() {
        for u in [
            "http://h:8080",
            "http://h:8080/",
            "http://h:8080/api/v1",
            "http://h:8080/api/v1/",
            "http://h:8080/api/v1/runs",
        ] {
            assert_eq!(service_root(u), "http://h:8080", "{u}");
        }
    }

    #[test]
    fn backoff_doubles_and_is_capped() {
        let p = RetryPolicy {
            attempts: 10,
            first_delay: Duration::from_millis(100),
            max_delay: Duration::from_millis(500),
        };
        let d: Vec<u128> = (1..=6).map(|n| p.delay(n).as_millis()).collect();
        assert_eq!(d, [100, 200, 400, 500, 500, 500]);
        assert_eq!(p.delay(100), Duration::from_millis(500));
    }

    #[test]
    fn error_messages_come_from_the_contract_body() {
        assert_eq!(message_of(r#"{"error":"schema: bad"}"#), "schema: bad");
        assert_eq!(message_of("Bad Gateway\nmore"), "Bad Gateway");
    }
}
