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
//! - [`clock`]: the line of a clock reading — one rule for the log's clock checks and the
//!   `clock` command (deviation beyond 1 %, as sbc-bench).
//! - [`machine`]: the report `info` prints of a machine snapshot.
//! - [`membw`], [`memlat`], [`sha256`]: the reports the `membw`, `memlat` and `sha256` commands
//!   print, each a pure function of its result type in the document.
//! - [`graph`]: the table `graph` prints of its sweep, a row per point phase as it finishes —
//!   and the whole table of a stored graph run.
//! - [`thermal`]: the report `thermal` prints, from the thermal run's document (a stored run
//!   renders it again), and its live line while it runs.
//! - `logfile`: the log, one module per section; its very last line is the summary row.
//! - `terminal`: the end-of-run summary for the terminal (colour optional).
//! - [`text`]: small formatting helpers and the rules every renderer shares (CPU lists, sizes,
//!   control characters, when a spread is shown, how a disturbed figure reads).

pub mod clock;
pub mod graph;
pub mod health_lines;
pub mod machine;
pub mod membw;
pub mod memlat;
pub mod results_row;
pub mod sha256;
pub mod text;
pub mod thermal;

mod logfile;
mod terminal;

pub use logfile::log;
pub use results_row::{ResultsRowCells, results_row, results_row_cells};
pub use terminal::{terminal_summary, terminal_summary_with};
pub use text::cpu_range;
