//! `boardbench memlat`'s report of a [`MemlatResult`]: ramlat's chain table (ns per step of 1,
//! 2, 4, 8 parallel chains), tinymembench's random-read tables, the cache levels found beside
//! those /sys advertises. Rows measured while another task used the CPU are counted once under
//! the table. (The log's block of a run's memlat phase is the shorter form in
//! `logfile::phases`.)

use document::cpus::CpuList;
use document::measure::memlat::{CacheAnalysis, ChainTable, MemlatResult, RandomTable};
use document::text::format_bytes;

use crate::text::disturbed_note;

/// ramlat's size label: "4k", "65536k".
fn size_label(b: u64) -> String {
    format!("{}k", b >> 10)
}

/// Four significant digits, as ramlat -n prints.
fn sig4(x: f64) -> String {
    if !x.is_finite() {
        return "-".into();
    }
    let digits = if x >= 1000.0 {
        0
    } else if x >= 100.0 {
        1
    } else if x >= 10.0 {
        2
    } else {
        3
    };
    format!("{x:.digits$}")
}

pub fn render_chain(t: &ChainTable, cpus: &str) -> String {
    let mut out = format!(
        "Chain latency on CPU {cpus}: ns per step of N parallel chains (one step = one dependent \
         load in each chain; bit-reversal order, {}-byte words)\n",
        t.word_bytes
    );
    out += "   size:";
    for c in &t.chains {
        out += &format!(" {:>6}", format!("{c}xPTR"));
    }
    out += "\n";
    for r in &t.rows {
        out += &format!("{:>8}:", size_label(r.size_bytes));
        for v in &r.ns_per_step {
            out += &format!(" {:>6}", sig4(*v));
        }
        if r.descheduled_retries > 0 {
            out += &format!(
                "   ({} short run(s) discarded: descheduled)",
                r.descheduled_retries
            );
        }
        out += "\n";
    }
    out += &format!("({:.1} s)\n", t.wall_s);
    let disturbed = t.rows.iter().filter(|r| r.disturbed).count();
    if let Some(note) = disturbed_note(disturbed, t.rows.len(), "rows") {
        out += &format!("{note}\n");
    }
    out
}

fn render_random(t: &RandomTable) -> String {
    let title = match (t.huge_pages, &t.madvise_error) {
        (Some(false), _) => "without huge pages (MADV_NOHUGEPAGE)".to_string(),
        (Some(true), _) => "with huge pages (MADV_HUGEPAGE)".to_string(),
        (None, Some(e)) => format!("plain (madvise failed: {e})"),
        (None, None) => "plain".to_string(),
    };
    let mut out = format!(
        "Random read latency {title}: extra ns over an L1 hit (baseline {:.2} / {:.2} ns subtracted)\n",
        t.baseline_single_ns, t.baseline_dual_ns
    );
    out += " block size : single random read / dual random read\n";
    for r in &t.rows {
        out += &format!(
            " {:>10} : {:>6.1} ns          / {:>6.1} ns\n",
            r.size_bytes, r.single_ns, r.dual_ns
        );
    }
    out += &format!("({:.1} s)\n", t.wall_s);
    out
}

fn render_caches(c: &CacheAnalysis) -> String {
    let mut out = "Cache levels from the 1-chain ladder, beside /sys:\n".to_string();
    for l in &c.levels {
        out += &format!(
            " L{}: effective {} (slower from {}), {:.2} ns",
            l.level,
            format_bytes(l.effective_bytes),
            format_bytes(l.next_bytes),
            l.latency_ns
        );
        match (l.advertised_bytes, l.agrees) {
            (Some(a), Some(true)) => out += &format!("; advertised {} (agrees)\n", format_bytes(a)),
            (Some(a), _) => out += &format!("; advertised {} (DISAGREES)\n", format_bytes(a)),
            _ => out += "; not advertised\n",
        }
    }
    if let Some(b) = c.beyond_ns {
        out += &format!(" beyond the last level (largest window): {b:.1} ns\n");
    }
    for f in &c.flags {
        out += &format!(" ! {f}\n");
    }
    out
}

/// The text report.
pub fn render(r: &MemlatResult) -> String {
    let cpus = CpuList::new(&r.cpus).to_string();
    let mut out = String::new();
    if let Some(t) = &r.chain {
        out += &render_chain(t, &cpus);
    }
    for t in &r.random {
        out += &render_random(t);
    }
    if let Some(c) = &r.caches {
        out += &render_caches(c);
    }
    out += &format!("Took {:.1} s\n", r.wall_s);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn disturbed_rows_are_counted_once_under_the_table() {
        use document::measure::memlat::ChainRow;
        let row = |size: u64, disturbed: bool| ChainRow {
            size_bytes: size,
            ns_per_step: vec![1.0],
            descheduled_retries: u32::from(disturbed),
            disturbed,
        };
        let mut t = ChainTable {
            chains: vec![1],
            word_bytes: 8,
            rows: vec![row(4096, false), row(8192, true), row(16384, true)],
            wall_s: 0.1,
        };
        let out = render_chain(&t, "1");
        assert!(
            out.ends_with("2 of 3 rows disturbed (another task used the measured CPU)\n"),
            "{out}"
        );
        assert_eq!(out.matches("disturbed (").count(), 1, "{out}");
        t.rows.iter_mut().for_each(|r| r.disturbed = false);
        assert!(!render_chain(&t, "1").contains("disturbed ("));
    }

    #[test]
    fn ramlat_style_numbers() {
        assert_eq!(sig4(1.1274), "1.127");
        assert_eq!(sig4(15.004), "15.00");
        assert_eq!(sig4(121.14), "121.1");
        assert_eq!(sig4(1234.5), "1234");
        assert_eq!(size_label(65536 << 10), "65536k");
    }
}
