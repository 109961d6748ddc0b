//! sbc-bench's headline figures, the numbers of its Results.md row (7-Zip multi and single,
//! AES-256 16 KiB, memcpy, memset, cpuminer kH/s) and the clock cell beside them.
//!
//! Why a crate of its own: the log's summary row, the terminal summary, the HTML report, the
//! results database and the findings all show or judge these numbers, and they must agree.
//! The rules therefore live once, here, as pure functions of the typed result document — no
//! I/O, no database, no JSON round trip — so every renderer can depend on them cheaply.
//!
//! - [`figure`]: the names of the figures ([`Figure`]), their columns and units.
//! - [`rules`]: which measurement rows give which figure, an imported log's own figures first.
//! - [`rounding`]: sbc-bench's rounding of the Results.md cells (`r10`).
//! - [`native`]: the rows a native run adds so its document carries the figures sbc-bench
//!   would compute (7-Zip multi/single, AES).
//! - [`comparability`]: whether each figure was measured the way sbc-bench measures it (a
//!   quick run's are not), from the run's profile or its stored flags.
//! - [`columns`]: the names a run is listed under (device, SoC, kernel …) and its clock cell.
//! - [`device`]: the one rule for the device's name.

pub mod columns;
pub mod comparability;
pub mod device;
pub mod figure;
pub mod native;
pub mod rounding;
pub mod rules;

pub use document::imported::Headline;
pub use figure::Figure;
pub use rounding::{r10, results_row};
pub use rules::{figures, from_measurements, measured_clocks};
