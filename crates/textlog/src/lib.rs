//! Text renderers of a boardbench result document: the log file, sbc-bench's Results.md summary
//! line and the short summary printed at the end of a run.
//!
//! Record first, render later: everything here is a pure function of a
//! [`ResultDocument`](document::ResultDocument) — no clock, no file, no environment — so an
//! old run (or an imported sbc-bench log) renders the same today and tomorrow, and tests pin the
//! output byte for byte.
//!
//! Module map:
//! - [`results_row`]: the Results.md row (`| Device | MHz | Kernel | Distro arch | 7-zip multi | … |`)
//!   with sbc-bench's clock-cell and rounding rules.
//! - [`health_lines`]: sbc-bench's monitor lines ("System health while running …" tables).
//! - `logfile`: the log, one module per section; its very last line is the summary row.
//! - `terminal`: the end-of-run summary for the terminal (colour optional).
//! - `text`: small formatting helpers (CPU lists, sizes, control characters).

pub mod health_lines;
pub mod results_row;

mod logfile;
mod terminal;
mod text;

pub use logfile::log;
pub use results_row::{ResultsRowCells, results_row, results_row_cells};
pub use terminal::terminal_summary;
pub use text::cpu_range;
