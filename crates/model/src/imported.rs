//! What an imported sbc-bench log contributes (its headline numbers, version, raw sections).

use serde::{Deserialize, Serialize};

/// An sbc-bench log as imported. Owned by the `sbclog` crate.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ImportedLog {
    /// File name the log was read from.
    pub source: String,
    /// sha256 of the log file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
}
