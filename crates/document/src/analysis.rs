//! What the finisher (crate `finish`) computed when it completed the document: set on every
//! document boardbench stores — a native run, an imported sbc-bench log, a guide run, a document
//! added with `results add`, an upload to the results service — and renewed by
//! `boardbench results reanalyse`. Readers show what is stored here and in
//! [`crate::ResultDocument::findings`]; a document without it was stored before the finisher
//! existed (or by another tool) and its findings were never computed.

use serde::{Deserialize, Serialize};

use crate::imported::Headline;
use crate::run::FigureComparability;

/// The finisher's record.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Analysis {
    /// The program whose rules finished the document ("boardbench 0.1.0").
    pub by: String,
    /// Findings were analysed (always true when this record exists: zero findings then means
    /// that nothing the rules look for was seen, not that nobody looked).
    pub findings_analysed: bool,
    /// How many findings the document holds after the analysis.
    pub findings: usize,
    /// Kinds of findings the document already carried that were kept as they came: kinds these
    /// rules do not know (a newer boardbench, another tool), and — in a document never finished
    /// before — its writer's findings the analysis did not reproduce.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kept: Vec<String>,
    /// The Results.md row of the document (the six headline figures, rounded by sbc-bench's
    /// rules), as the headline rules read it.
    #[serde(default)]
    pub headline: Headline,
    /// The comparability marks of the figures (which are not comparable with sbc-bench's, why).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub comparability: Vec<FigureComparability>,
    /// The placement among sbc-bench's published results, as it was computed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub placement: Option<PlacementRecord>,
}

/// A placement as stored: the SoC and class it used, the corpus, and its lines as `results show`
/// prints them.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PlacementRecord {
    /// The SoC the run was compared as (normalised); `None`: no SoC known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub soc: Option<String>,
    /// "ARM", "x86", "RISC-V", "LoongArch"; `None`: not placed (no architecture).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class: Option<String>,
    /// The corpus: source and date.
    pub corpus: String,
    /// What the comparison is, the notes, one line per figure, the nearest rows, the corpus.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<String>,
    /// The run's core count the same-SoC group was held to (rows of another count left out).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cores: Option<u32>,
    /// What the comparison is, in words ("ARM rows only (this run: arm64 userland) …").
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub comparison: String,
    /// Caveats for the whole run (its own table row left out, a 32-bit userland …).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Each placed figure, in the table's column order. `None` in a record written before
    /// figures were recorded: readers then place the document anew.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub figures: Option<Vec<PlacedFigure>>,
}

/// One figure as it was placed: what the terminal summary, the HTML report's chart and table,
/// the results table's placement columns and the service show.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PlacedFigure {
    /// The column heading of sbc-bench's table ("7-zip multi", "memcpy", "kH/s").
    pub figure: String,
    pub value: f64,
    /// 1 + the rows of the class with a higher value; `None`: the class has no row with it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rank: Option<usize>,
    /// The rows of the class with the figure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub of: Option<usize>,
    /// The same-SoC group's rows; `None`: no SoC known or no row of it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub same_soc: Option<SocGroupRecord>,
    /// Why the run's figure is not comparable with sbc-bench's; `None`: comparable.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_comparable: Option<String>,
    /// The full line ("memcpy 3,450 MB/s: 12th of 180 …").
    pub line: String,
    /// The short form ("memcpy 12th of 180, 98 % of its SoC's median").
    pub short: String,
}

/// The same SoC's rows a figure was compared with.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SocGroupRecord {
    /// The group in words ("Rockchip RK3588, 8 cores 4+4").
    pub group: String,
    pub count: usize,
    pub median: f64,
    pub min: f64,
    pub max: f64,
    pub percent_of_median: f64,
}
