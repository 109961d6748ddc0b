//! Result documents (and the live monitor) for the engines board farms already run.
//!
//! Why a crate of its own: Prometheus and LAVA are two more renderers of the one result
//! document, and like the other renderers they are pure functions of it — no files, no
//! database, no network here. The command line (`boardbench export`, `monitor --listen`)
//! resolves runs, writes files and serves HTTP.
//!
//! - [`prometheus`]: stored documents as metrics in the text exposition format (node_exporter's
//!   textfile collector), written with [`exposition`].
//! - [`lava`]: a document as `lava-test-case` lines.
//! - [`live`]: one reading of the live monitor as metrics (prometheus-client), for a scrape.

pub mod exposition;
pub mod lava;
pub mod live;
pub mod prometheus;
