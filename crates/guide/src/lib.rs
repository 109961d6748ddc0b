//! The board performance guide: each section measures one family of figures (system costs,
//! STREAM, Linpack …) and returns them as the guides' tables. Sections know nothing of the
//! command line, files or output; the command runs them under the session lifecycle and puts
//! their tables into the result document.
//!
//! Module map:
//! - [`context`]: what a section gets (machine, CPUs, budgets, cancellation).
//! - [`lmbench`]: the LMBench-style system costs (benchmp harness, one module per program).
//! - [`registry`]: every section with its `--sections` name, title and whether `--quick` runs it.

pub mod context;
pub mod lmbench;
pub mod registry;

pub use context::Context;
pub use registry::{Outcome, SectionDef};
