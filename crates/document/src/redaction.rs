//! What was taken out of a document before it left the machine (`boardbench upload`).
//!
//! A document shared with a results service must not carry the identity of the board or its
//! network: host names, IP and MAC addresses, serial numbers. The `redact` crate replaces them
//! and writes this record, so a reader of the uploaded document knows that a `<mac:…>` token
//! was a MAC address and where such tokens are, without learning the value.

use serde::{Deserialize, Serialize};

/// The redaction record of a document.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Redaction {
    /// "hashed": identifiers were replaced by `<kind:hash>` tokens (the hash is a salted SHA-256
    /// prefix, the same value gives the same token on one machine); "kept": the uploader chose
    /// `--keep-identifiers` and nothing was replaced.
    pub mode: String,
    /// One entry per kind of identifier found.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<RedactedKind>,
}

/// The identifiers of one kind that were replaced.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RedactedKind {
    /// "hostname", "ipv4", "ipv6", "mac", "serial", "uuid", "user" or "credentials".
    pub kind: String,
    /// How many distinct values were replaced.
    pub distinct: u32,
    /// How many times a value was replaced.
    pub occurrences: u32,
    /// Where, as JSON pointers with array indices written `*` ("/imported/kmsg/*"), sorted.
    pub places: Vec<String>,
}
