//! The versioned result document: one per run or per imported log.
//!
//! Every renderer (text log, summary line, terminal, HTML, database rows, LAVA, Prometheus) and
//! the findings are pure functions of this document. Fields are added, never renamed; a change
//! that breaks readers bumps [`SCHEMA_VERSION`].

use serde::{Deserialize, Serialize};

/// Version of the document layout. Readers refuse documents with a newer major version.
pub const SCHEMA_VERSION: u32 = 1;

/// One measured figure in a form every store and comparison understands.
///
/// This is the row shape of the results database: suite ("7zip", "membw", "sha256" …), test
/// ("libc memcpy copy"), variant (backend or tool version), threads and cpus it ran on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Measurement {
    pub suite: String,
    pub test: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    pub threads: u32,
    /// CPUs the work was pinned to (empty = not pinned).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cpus: Vec<u32>,
    pub value: f64,
    pub unit: String,
    pub higher_is_better: bool,
    /// Sample standard deviation in percent of the mean, when the figure came from repeats.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spread_pct: Option<f64>,
}

impl Measurement {
    /// A figure where higher is better, not pinned, without variant or spread; the `with_*`
    /// methods set the rest.
    pub fn new(
        suite: impl Into<String>,
        test: impl Into<String>,
        threads: u32,
        value: f64,
        unit: impl Into<String>,
    ) -> Self {
        Measurement {
            suite: suite.into(),
            test: test.into(),
            variant: None,
            threads,
            cpus: Vec::new(),
            value,
            unit: unit.into(),
            higher_is_better: true,
            spread_pct: None,
        }
    }

    /// The CPUs the work was pinned to.
    pub fn with_cpus(mut self, cpus: &[u32]) -> Self {
        self.cpus = cpus.to_vec();
        self
    }

    /// The backend or tool version.
    pub fn with_variant(mut self, variant: impl Into<String>) -> Self {
        self.variant = Some(variant.into());
        self
    }

    /// Spread of the repeats the value came from, in percent of their mean.
    pub fn with_spread(mut self, spread_pct: Option<f64>) -> Self {
        self.spread_pct = spread_pct;
        self
    }

    /// For figures where lower is better (latencies, times).
    pub fn lower_is_better(mut self) -> Self {
        self.higher_is_better = false;
        self
    }
}

/// A finding: something the analysis noticed, with the evidence it is based on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Finding {
    /// Stable machine-readable kind, e.g. "throttling", "swapping", "fake-clock".
    pub kind: String,
    pub severity: Severity,
    /// One line for humans.
    pub message: String,
    /// The numbers or lines the finding is based on.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub evidence: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Worth knowing, numbers still valid.
    Info,
    /// Numbers are probably affected.
    Warning,
    /// Numbers are not to be trusted.
    Invalid,
}

impl Severity {
    /// The name the document uses ("info", "warning", "invalid").
    /// (Same as its serde form; a test checks the two agree.)
    pub fn name(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Invalid => "invalid",
        }
    }

    /// The word a terminal line shows in brackets ("Info", "Warning", "Invalid").
    pub fn title(self) -> &'static str {
        match self {
            Severity::Info => "Info",
            Severity::Warning => "Warning",
            Severity::Invalid => "Invalid",
        }
    }
}

/// The result document of one run (or of one imported sbc-bench log).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ResultDocument {
    pub schema_version: u32,
    /// The program that produced the document ("boardbench 0.1.0").
    pub producer: String,
    /// Device name as the user knows it ("Radxa ROCK 5B").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device: Option<String>,
    /// ISO 8601 with time zone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finished: Option<String>,
    /// The machine as the probe saw it at the start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine: Option<crate::machine::MachineInfo>,
    /// Every measured figure, in the row shape the results database stores.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub measurements: Vec<Measurement>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub findings: Vec<Finding>,
    /// Set when the document was built from an sbc-bench log rather than measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub imported: Option<crate::imported::ImportedLog>,
    /// Set when the document is the record of a `boardbench run`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run: Option<crate::run::RunRecord>,
    /// Set when the document is the record of a `boardbench guide` (its session is in `run`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guide: Option<crate::guide::GuideRecord>,
    /// Set when identifiers were removed before the document left the machine (`upload`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redaction: Option<crate::redaction::Redaction>,
    /// What the finisher computed (findings analysed, headline, comparability, placement).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub analysis: Option<crate::analysis::Analysis>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn severity_names_are_the_serde_names() {
        for s in [Severity::Info, Severity::Warning, Severity::Invalid] {
            assert_eq!(serde_json::to_value(s).unwrap(), s.name());
            // The terminal's word was once the Debug form; the lines must not change.
            assert_eq!(s.title(), format!("{s:?}"));
        }
    }

    #[test]
    fn measurement_constructor_sets_the_defaults() {
        let m = Measurement::new("membw", "libc memcpy copy", 1, 4000.0, "MB/s")
            .with_cpus(&[4])
            .with_variant("avx2")
            .with_spread(Some(1.5));
        assert_eq!(m.cpus, vec![4]);
        assert_eq!(m.variant.as_deref(), Some("avx2"));
        assert!(m.higher_is_better);
        assert!(!m.clone().lower_is_better().higher_is_better);
        assert_eq!(m.spread_pct, Some(1.5));
    }
}
