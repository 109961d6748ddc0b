//! Sharing one log with a link, as sbc-bench users do: a paste service speaking 0x0.st's form
//! API — `POST /` with a `multipart/form-data` body whose part `file` is the text, and the
//! link to it as the answer's first line (`https://0x0.st/XXXX.txt`).
//!
//! sbc-bench sends `curl -s -A 'sbc-bench' -F file=@- 0x0.st` (sbc-bench.sh L5200) and tries
//! once more when curl fails. The same here: one more try after a connection error or a 5xx,
//! never after a 4xx (0x0.st answered sbc-bench "User agent not allowed." in 2025: sending the
//! same request again cannot change that). The user agent is boardbench's own
//! (`boardbench/VERSION`), not sbc-bench's.

use std::time::Duration;

/// sbc-bench's paste service (its `UploadServer`, over HTTPS).
pub const DEFAULT_URL: &str = "https://0x0.st";

/// The user agent sent (the paste service may refuse agents it does not like).
pub const USER_AGENT: &str = concat!("boardbench/", env!("CARGO_PKG_VERSION"));

/// How one paste ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pasted {
    /// A 2xx whose first line is an http(s) link: where the text is now.
    Link(String),
    /// Any other answer (a 4xx, a 5xx on both tries, a 2xx without a link).
    Refused { status: u16, message: String },
    /// No answer at all (name not resolved, connection refused, time limit) on both tries.
    Unreachable { message: String },
}

/// The first line of an answer, shortened: what a paste service says when it refuses.
fn first_line(body: &str) -> String {
    let line = body.lines().map(str::trim).find(|l| !l.is_empty());
    line.unwrap_or("").chars().take(200).collect()
}

/// A boundary that does not occur in `text`.
fn boundary_for(text: &[u8]) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|t| t.as_nanos())
        .unwrap_or(0);
    let mut n = 0u32;
    loop {
        let b = format!("boardbench-{nanos:x}-{n}");
        if !text.windows(b.len()).any(|w| w == b.as_bytes()) {
            return b;
        }
        n += 1;
    }
}

/// The form body: one part `file` holding `text` as `file_name` (text/plain), and its
/// Content-Type header value.
pub fn form(file_name: &str, text: &[u8]) -> (String, Vec<u8>) {
    let boundary = boundary_for(text);
    let name: String = file_name
        .chars()
        .map(|c| if c == '"' || c.is_control() { '_' } else { c })
        .collect();
    let mut body = Vec::with_capacity(text.len() + 256);
    body.extend_from_slice(
        format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\n\
             Content-Type: text/plain; charset=utf-8\r\n\r\n"
        )
        .as_bytes(),
    );
    body.extend_from_slice(text);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

/// Sends `text` as `file_name` to the paste service at `url` (each try within `timeout`;
/// `retry_wait` before the second one).
pub fn paste(
    url: &str,
    file_name: &str,
    text: &[u8],
    timeout: Duration,
    retry_wait: Duration,
) -> Pasted {
    let config = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(timeout))
        .user_agent(USER_AGENT)
        .build();
    let agent = ureq::Agent::new_with_config(config);
    let (content_type, body) = form(file_name, text);
    let mut last = Pasted::Unreachable {
        message: String::new(),
    };
    for attempt in 0..2 {
        if attempt > 0 {
            std::thread::sleep(retry_wait);
        }
        let answer = agent
            .post(url)
            .content_type(&content_type)
            .send(&body[..])
            .map_err(|e| e.to_string())
            .map(|mut resp| {
                let status = resp.status().as_u16();
                let text = resp
                    .body_mut()
                    .with_config()
                    .limit(64 << 10)
                    .read_to_string()
                    .unwrap_or_default();
                (status, text)
            });
        last = match answer {
            Ok((status @ 200..=299, text)) => {
                let line = first_line(&text);
                if line.starts_with("https://") || line.starts_with("http://") {
                    return Pasted::Link(line);
                }
                let message = if line.is_empty() {
                    "an answer without a link".to_string()
                } else {
                    format!("an answer without a link: {line}")
                };
                return Pasted::Refused { status, message };
            }
            Ok((status @ 500..=599, text)) => Pasted::Refused {
                status,
                message: first_line(&text),
            },
            Ok((status, text)) => {
                return Pasted::Refused {
                    status,
                    message: first_line(&text),
                };
            }
            Err(message) => Pasted::Unreachable { message },
        };
    }
    last
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_form_holds_the_text_once_between_its_boundaries() {
        let text = b"line 1\r\n--boardbench-\nline 3\n";
        let (ct, body) = form("run \"12\".txt", text);
        let boundary = ct.strip_prefix("multipart/form-data; boundary=").unwrap();
        let body = String::from_utf8(body).unwrap();
        assert!(body.starts_with(&format!("--{boundary}\r\n")));
        assert!(body.ends_with(&format!("\r\n--{boundary}--\r\n")));
        assert!(body.contains("name=\"file\"; filename=\"run _12_.txt\""));
        assert_eq!(body.matches(boundary).count(), 2);
        assert!(body.contains("\r\n\r\nline 1\r\n--boardbench-\nline 3\n\r\n--"));
    }

    #[test]
    fn a_refusal_is_its_first_line() {
        assert_eq!(
            first_line("\nUser agent not allowed.\nmore"),
            "User agent not allowed."
        );
    }
}
