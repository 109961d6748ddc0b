//! The log file: sbc-bench's sections in its order (docs/sbc-bench-compat.md), one module per
//! section, blocks separated by its line of 74 `#`.
//!
//! Order: header line, system information and run settings; the phases as they ran (clock
//! checks grouped like sbc-bench's "Checking cpufreq OPP" blocks, the hot re-check with the
//! "System health now" line); the monitor tables; throttling statistics; kernel messages; swap
//! and machine state before/after; kernel info (version, config, support status); findings; phase durations with ISO timestamps. The very last
//! line is the summary row followed by a single '\n' — nothing may follow it, so
//! `tail -n1` keeps working (sbc-bench broke that in 2026 by appending its durations after it).

mod aftermath;
mod clock_check;
mod durations;
mod findings;
mod health;
mod kernel;
mod phases;
mod system;
mod throttling;

use document::ResultDocument;

use crate::results_row::results_row;
use crate::text::SEPARATOR;

/// The log text of a run (or of an imported log, as far as its document carries the sections).
pub fn log(doc: &ResultDocument) -> String {
    let mut blocks: Vec<String> = vec![system::render(doc)];
    blocks.extend(phases::render(doc));
    blocks.extend(health::render(doc));
    blocks.extend(throttling::render(doc));
    blocks.extend(aftermath::kmsg(doc));
    blocks.extend(aftermath::state(doc));
    blocks.extend(kernel::render(doc));
    blocks.push(findings::render(doc));
    blocks.extend(durations::render(doc));

    let mut out = String::new();
    for (i, b) in blocks.iter().enumerate() {
        let b = b.trim_matches('\n');
        if b.is_empty() {
            continue;
        }
        if i > 0 {
            out.push_str("\n\n");
            out.push_str(SEPARATOR);
            out.push_str("\n\n");
        }
        out.push_str(b);
    }
    out.push_str("\n\n");
    out.push_str(&results_row(doc));
    out.push('\n');
    out
}
