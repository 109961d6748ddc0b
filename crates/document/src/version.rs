//! Whether this build can read a document: the one check of `schema_version`, before the
//! document is parsed (a newer document may not parse, and "update boardbench" is the better
//! answer than a serde error).

use crate::SCHEMA_VERSION;

/// Why a document's `schema_version` cannot be read by this build.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unreadable {
    /// No (numeric) `schema_version` field.
    Missing,
    /// 0: never a version.
    Zero,
    /// Written by a newer boardbench.
    Newer(u64),
}

impl std::fmt::Display for Unreadable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unreadable::Missing => write!(f, "no schema_version"),
            Unreadable::Zero => write!(
                f,
                "schema_version 0 is not supported (this boardbench reads 1 to {SCHEMA_VERSION})"
            ),
            Unreadable::Newer(v) => write!(
                f,
                "document schema version {v} is newer than this boardbench knows \
                 ({SCHEMA_VERSION}); update boardbench"
            ),
        }
    }
}

impl std::error::Error for Unreadable {}

/// The `schema_version` of a document (JSON), when this build can read it.
pub fn check(doc: &serde_json::Value) -> Result<u32, Unreadable> {
    let v = doc
        .get("schema_version")
        .and_then(serde_json::Value::as_u64)
        .ok_or(Unreadable::Missing)?;
    match v {
        0 => Err(Unreadable::Zero),
        v if v > u64::from(SCHEMA_VERSION) => Err(Unreadable::Newer(v)),
        v => Ok(v as u32),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn known_versions_pass_and_the_rest_say_why() {
        assert_eq!(check(&json!({"schema_version": 1})), Ok(1));
        assert_eq!(check(&json!({})), Err(Unreadable::Missing));
        assert_eq!(
            check(&json!({"schema_version": "1"})),
            Err(Unreadable::Missing)
        );
        assert_eq!(check(&json!({"schema_version": 0})), Err(Unreadable::Zero));
        let newer = check(&json!({"schema_version": 99})).unwrap_err();
        assert_eq!(newer, Unreadable::Newer(99));
        assert!(newer.to_string().contains("update boardbench"), "{newer}");
    }
}
