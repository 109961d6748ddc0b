//! The OpenSSL `speed` table (aes-*-cbc rows, optional core type suffix or "(fully parallel)").

use document::imported::{OpenSsl, OpenSslRow};

use crate::text::split_trailing_parens;

pub fn openssl(lines: &[&str]) -> Option<OpenSsl> {
    let mut t = OpenSsl::default();
    let mut seen = false;
    for l in lines {
        if l.starts_with("Executing benchmark twice on cluster 0") {
            t.mode = Some("twice_on_cluster0".into());
        } else if l.starts_with("Executing benchmark on each cluster individually") {
            t.mode = Some("each_cluster".into());
        } else if l.starts_with("OpenSSL ") && t.version.is_none() {
            t.version = Some(l.trim().to_string());
        } else if l.starts_with("type ") && l.contains("bytes") && t.sizes.is_empty() {
            let toks: Vec<&str> = l.split_whitespace().collect();
            t.sizes = toks
                .windows(2)
                .filter(|w| w[1] == "bytes")
                .filter_map(|w| w[0].parse().ok())
                .collect();
        } else if l.starts_with("aes-")
            && let Some(row) = row(l)
        {
            seen = true;
            t.rows.push(row);
        }
    }
    seen.then_some(t)
}

/// `aes-256-cbc  136689.01k … 980691.63k (Cortex-A53)`.
fn row(l: &str) -> Option<OpenSslRow> {
    let (body, suffix) = match split_trailing_parens(l) {
        Some((b, s)) => (b, Some(s)),
        None => (l.trim_end(), None),
    };
    let mut toks = body.split_whitespace();
    let cipher = toks.next()?.to_string();
    let mut values_k = Vec::new();
    for tok in toks {
        let v: f64 = tok.strip_suffix('k')?.parse().ok()?;
        values_k.push(v);
    }
    if values_k.is_empty() {
        return None;
    }
    let fully_parallel = suffix == Some("fully parallel");
    let core_type = suffix.filter(|_| !fully_parallel).map(str::to_string);
    Some(OpenSslRow {
        cipher,
        values_k,
        core_type,
        fully_parallel,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows() {
        let log = [
            "Executing benchmark on each cluster individually",
            "OpenSSL 3.5.5, built on 27 Jan 2026 (Library: OpenSSL 3.5.5 27 Jan 2026)",
            "type             16 bytes     64 bytes    256 bytes   1024 bytes   8192 bytes  16384 bytes",
            "aes-256-cbc     136689.01k   385227.24k   698706.26k   894991.70k   974326.44k   980691.63k (Cortex-A53)",
            "aes-256-cbc     1k   1k   1k   1k   1k   2k (fully parallel)",
        ];
        let t = openssl(&log).unwrap();
        assert_eq!(t.mode.as_deref(), Some("each_cluster"));
        assert_eq!(t.sizes, vec![16, 64, 256, 1024, 8192, 16384]);
        assert_eq!(t.rows[0].core_type.as_deref(), Some("Cortex-A53"));
        assert_eq!(t.rows[0].values_k[5], 980691.63);
        assert!(t.rows[1].fully_parallel);
    }
}
