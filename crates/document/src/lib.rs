//! The boardbench result document and every type that travels inside it.
//!
//! Record first, render later: a run (or an imported sbc-bench log) becomes one
//! [`ResultDocument`]. Logs, summary lines, HTML, database rows and findings are all
//! computed from it, so an old run can be re-analysed and re-rendered. This crate therefore has
//! no logic beyond small helpers: only data and its serde shape.
//!
//! Module map:
//! - [`cpu`]: what /proc/cpuinfo says about each processor (core names, ISA, IDs).
//! - [`cpus`]: CPU lists in the kernel's notation ("0-3,6"), parsed and printed by one rule.
//! - [`machine`]: the machine snapshot the probe takes (topology, cpufreq, thermal, memory, identity).
//! - [`samples`]: one sample of the background sampler (clocks, load, CPU states, temperature).
//! - [`measure`]: raw samples and summaries returned by the measurement kernels.
//! - the crate root: the versioned result document of a run or an import ([`ResultDocument`],
//!   its measurement rows and findings).
//! - [`imported`]: what an imported sbc-bench log contributes beyond a normal run.
//! - [`guide`]: the tables of a board performance guide (`boardbench guide`).
//! - [`run`]: what a `boardbench run` records: phases, samples, tool output, before/after state.
//! - [`row_names`]: the suite and test names that writers and readers of rows spell alike.
//! - [`thermal`]: what `boardbench thermal` concluded beyond its figures (its verdict).
//! - [`redaction`]: what `upload` removed from a document before it left the machine.
//! - [`analysis`]: what the finisher computed (findings analysed, placement) when the document was
//!   completed for storing.
//! - [`version`]: whether this build can read a document's `schema_version` (the one check).
//! - [`stats`]: mean, median, spread of repeated samples (the one definition every crate uses).
//! - [`text`]: rules for text from outside (one line, no ANSI, no bidi controls), sizes, and
//!   the one line a finding is listed as.
//! - [`csv`]: the one CSV writer (the `csv` crate, after our guard against formulas).

pub mod analysis;
pub mod cpu;
pub mod cpus;
pub mod csv;
pub mod guide;
mod result;
pub use result::{Finding, Measurement, ResultDocument, SCHEMA_VERSION, Severity};
pub mod imported;
pub mod machine;
pub mod measure;
pub mod redaction;
pub mod row_names;
pub mod run;
pub mod samples;
pub mod socs;
pub mod stats;
pub mod text;
pub mod thermal;
pub mod version;
