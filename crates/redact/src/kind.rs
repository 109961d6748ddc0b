//! The kinds of identifiers and the tokens that replace them.
//!
//! A token is `<kind:hash>` with the first 12 hex digits of SHA-256(salt, kind, value): 48 bits,
//! enough that two boards of one lab do not collide, too few and too salted to look a serial
//! number up. Values are normalised first (MAC addresses and host names to lower case, MAC
//! separators to `:`), so one value written two ways gets one token.

use sha2::{Digest, Sha256};

/// What an identifier is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    Hostname,
    Ipv4,
    Ipv6,
    Mac,
    /// DMI, SD/eMMC (CID, serial), USB and disk serial numbers, the machine-id.
    Serial,
    /// Filesystem, partition and DMI product UUIDs.
    Uuid,
    /// A user's name in a home directory path (`/home/NAME/…`).
    User,
    /// User names, passwords and tokens (in URLs, on a command line): removed, never hashed.
    Credentials,
}

impl Kind {
    /// The name in tokens and in the document's redaction record.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Hostname => "hostname",
            Kind::Ipv4 => "ipv4",
            Kind::Ipv6 => "ipv6",
            Kind::Mac => "mac",
            Kind::Serial => "serial",
            Kind::Uuid => "uuid",
            Kind::User => "user",
            Kind::Credentials => "credentials",
        }
    }

    pub const ALL: [Kind; 8] = [
        Kind::Hostname,
        Kind::Ipv4,
        Kind::Ipv6,
        Kind::Mac,
        Kind::Serial,
        Kind::Uuid,
        Kind::User,
        Kind::Credentials,
    ];
}

/// The value in the form that is hashed.
pub fn normalise(kind: Kind, value: &str) -> String {
    let v = value.trim();
    match kind {
        Kind::Mac => v.to_ascii_lowercase().replace('-', ":"),
        Kind::Hostname | Kind::Uuid | Kind::Ipv6 => v.to_ascii_lowercase(),
        _ => v.to_string(),
    }
}

/// `<kind:hash>`; credentials become `<credentials>` (nothing of them is kept).
pub fn token(salt: &[u8], kind: Kind, value: &str) -> String {
    if kind == Kind::Credentials {
        return "<credentials>".into();
    }
    let mut h = Sha256::new();
    h.update(salt);
    h.update(kind.name().as_bytes());
    h.update([0]);
    h.update(normalise(kind, value).as_bytes());
    let d = h.finalize();
    let hex: String = d[..6].iter().map(|b| format!("{b:02x}")).collect();
    format!("<{}:{hex}>", kind.name())
}

/// True when `s` is exactly a token of this module (already redacted).
pub fn is_token(s: &str) -> bool {
    let Some(inner) = s.strip_prefix('<').and_then(|r| r.strip_suffix('>')) else {
        return false;
    };
    if inner == "credentials" {
        return true;
    }
    match inner.split_once(':') {
        Some((k, h)) => {
            Kind::ALL.iter().any(|x| x.name() == k)
                && h.len() == 12
                && h.bytes().all(|b| b.is_ascii_hexdigit())
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_stable_salted_and_normalised() {
        let a = token(b"salt", Kind::Mac, "00:0E:C6:7C:3F:3C");
        assert_eq!(a, token(b"salt", Kind::Mac, "00-0e-c6-7c-3f-3c"));
        assert_ne!(a, token(b"other", Kind::Mac, "00:0e:c6:7c:3f:3c"));
        assert!(
            a.starts_with("<mac:") && a.len() == "<mac:>".len() + 12,
            "{a}"
        );
        assert!(is_token(&a));
        assert!(is_token("<credentials>"));
        assert!(!is_token("<mac:xyz>"));
        assert_eq!(token(b"s", Kind::Credentials, "pw"), "<credentials>");
    }
}
