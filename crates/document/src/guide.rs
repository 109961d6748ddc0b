//! The record of a `boardbench guide` run: a board performance guide (system micro-benchmarks,
//! STREAM, Linpack/Whetstone/Dhrystone, the OpenSSL table, storage, network, boot …) as tables.
//!
//! The shape follows the published vendor guides on purpose: each table has a first column of
//! row names ("lat_syscall-null (us)", "64" for a frame size …) and one or more value columns
//! ("perf", "THROUGHPUT (Mbits/sec)"). Renderers put one column per board beside each other
//! ("<board>: perf"), so a table of one document is exactly one board's column(s).

use serde::{Deserialize, Serialize};

/// Everything a guide run records (besides the machine snapshot and the session's record).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct GuideRecord {
    /// `--quick`: shorter budgets and fewer sizes; every figure is rough.
    #[serde(default)]
    pub quick: bool,
    /// The sections in the order they ran (skipped ones included, with their reason).
    #[serde(default)]
    pub sections: Vec<GuideSection>,
    /// How the built-in methods were compiled (compiler, target, features): C builds of the
    /// same programs with other flags give other numbers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub build: Option<GuideBuild>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct GuideBuild {
    /// "rustc 1.95.0"
    pub compiler: String,
    /// "aarch64-unknown-linux-gnu"
    pub target: String,
    /// "opt-level=3"
    #[serde(default)]
    pub flags: String,
    /// Target features the binary was built with ("neon", "aes", "sha2" …).
    #[serde(default)]
    pub target_features: Vec<String>,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum SectionStatus {
    #[default]
    Done,
    /// Not run: a tool or device is missing, or it needs an option (`--storage DIR`).
    Skipped,
    /// Started, but could not finish (the reason says why); the tables hold what was measured.
    Failed,
    /// Ctrl-C or SIGTERM arrived: the tables hold what was measured until then.
    Interrupted,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct GuideSection {
    /// The `--sections` name ("lmbench", "stream", "openssl", "storage" …).
    pub name: String,
    /// The heading ("LMBench Benchmarks").
    pub title: String,
    pub status: SectionStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// ISO 8601 with time zone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started: Option<String>,
    #[serde(default)]
    pub duration_s: f64,
    /// The external tool used, with its version ("fio-3.33", "OpenSSL 3.0.11").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    #[serde(default)]
    pub tables: Vec<GuideTable>,
    /// What a reader must know to compare the numbers (method, sizes, pinning, caveats).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct GuideTable {
    /// The table's title as the guides print it ("Stream Benchmarks", "EMMC EXT4 FIO 1G").
    pub title: String,
    /// The header of the first column ("Benchmarks", "Frame Size(bytes)", "Algorithm").
    pub key_header: String,
    /// Headers of further key columns, printed after the first and not per board: the OpenSSL
    /// table's "Buffer Size (in bytes)" (a row is then an algorithm *and* a size).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub key_headers: Vec<String>,
    /// The value columns' headers without the board ("perf", "THROUGHPUT (Mbits/sec)").
    pub columns: Vec<String>,
    pub rows: Vec<GuideRow>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct GuideRow {
    /// The row's name, with its unit where the guides write one ("lat_pipe (us)").
    pub key: String,
    /// The values of the table's further key columns ([`GuideTable::key_headers`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub keys: Vec<String>,
    /// One cell per column; `None` where nothing was measured.
    pub cells: Vec<Option<GuideValue>>,
}

/// One figure. Repeated measurements keep their range, rendered as
/// `4733.08 (min 2024.29, max 7441.86)`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct GuideValue {
    /// The figure (the median of the samples, or the method's own choice, e.g. lat_mem_rd's
    /// minimum).
    pub value: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<f64>,
    /// How many timed samples the figure comes from.
    #[serde(default)]
    pub samples: u32,
    /// The range of the samples, (max − min) / median in percent, when repeated. Not a
    /// *spread* (that word is the sample standard deviation in percent, as in
    /// [`Measurement::spread_pct`](crate::Measurement)); the serialised field keeps its first
    /// name, `spread_pct`.
    #[serde(
        rename = "spread_pct",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub range_pct: Option<f64>,
}

impl GuideValue {
    /// A single figure.
    pub fn one(value: f64) -> Self {
        GuideValue {
            value,
            samples: 1,
            ..Default::default()
        }
    }

    /// The median of `samples` with their min, max and range; `None` for no samples.
    pub fn from_samples(samples: &[f64]) -> Option<Self> {
        let median = crate::stats::median(samples)?;
        let min = samples.iter().copied().fold(f64::INFINITY, f64::min);
        let max = samples.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let many = samples.len() > 1;
        Some(GuideValue {
            value: median,
            min: many.then_some(min),
            max: many.then_some(max),
            samples: samples.len() as u32,
            range_pct: (many && median != 0.0).then(|| (max - min) / median.abs() * 100.0),
        })
    }
}

impl GuideTable {
    /// A table with one value column ("perf"), the guides' most common shape.
    pub fn perf(title: &str, key_header: &str) -> Self {
        GuideTable {
            title: title.into(),
            key_header: key_header.into(),
            columns: vec!["perf".into()],
            key_headers: Vec::new(),
            rows: Vec::new(),
        }
    }

    /// Adds a row of one cell (for one-column tables).
    pub fn push(&mut self, key: impl Into<String>, v: Option<GuideValue>) {
        self.rows.push(GuideRow {
            key: key.into(),
            keys: Vec::new(),
            cells: vec![v],
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_samples_keep_their_range() {
        let v = GuideValue::from_samples(&[3.0, 1.0, 2.0]).unwrap();
        assert_eq!(
            (v.value, v.min, v.max, v.samples),
            (2.0, Some(1.0), Some(3.0), 3)
        );
        assert_eq!(v.range_pct, Some(100.0));
        let one = GuideValue::from_samples(&[5.0]).unwrap();
        assert_eq!((one.min, one.range_pct), (None, None));
        assert!(GuideValue::from_samples(&[]).is_none());
    }
}
