//! `boardbench membw`'s report of a [`MembwResult`]: tinymembench's lines, the best variant
//! of each kind beside libc's, the all-cores aggregate and the time taken. (The log's block of
//! a run's membw phase is the shorter form in `logfile::phases`.)

use document::cpus::CpuList;
use document::measure::membw::{BwTest, LIBC_MEMCPY, LIBC_MEMSET, MembwResult};
use document::text::format_bytes;

use crate::text::{DISTURBED_REMARK, shown_spread};

/// tinymembench's "(samples, stddev %)" suffix, the spread shown only above 0.1 %.
fn spread_suffix(n: usize, spread: Option<f64>) -> String {
    match shown_spread(spread) {
        Some(s) => format!(" ({n}, {s:.1}%)"),
        None => String::new(),
    }
}

/// One test's line, with the disturbance remark.
pub fn line(t: &BwTest) -> String {
    let disturbed = if t.disturbed {
        format!("   ({DISTURBED_REMARK})")
    } else {
        String::new()
    };
    format!(
        " {:<32} : {:>9.1} MB/s{}{disturbed}\n",
        t.name,
        t.best_mb_s,
        spread_suffix(t.samples_mb_s.len(), t.spread_pct)
    )
}

/// The text report.
pub fn render(r: &MembwResult) -> String {
    let cpus = CpuList::new(&r.cpus).to_string();
    let mut out = format!(
        "Memory bandwidth on CPU {cpus} ({} mode, {} buffers; MB/s, 1 MB = 10^6 B, a copy counts each byte once)\n",
        r.mode,
        format_bytes(r.buffer_bytes)
    );
    for t in &r.tests {
        out += &line(t);
    }
    let find = |name: &Option<String>| {
        name.as_ref()
            .and_then(|n| r.tests.iter().find(|t| &t.name == n))
    };
    let libc = |n: &str| r.tests.iter().find(|t| t.name == n);
    for (what, best, head) in [
        ("copy", find(&r.best_copy), libc(LIBC_MEMCPY)),
        ("fill", find(&r.best_fill), libc(LIBC_MEMSET)),
        ("read", find(&r.best_read), None),
    ] {
        let Some(b) = best else { continue };
        out += &format!("Best {what}: {} {:.1} MB/s", b.name, b.best_mb_s);
        if let Some(h) = head.filter(|h| h.name != b.name && b.best_mb_s > 0.0) {
            out += &format!(
                " ({} reaches {:.0} % of it)",
                h.name,
                h.best_mb_s / b.best_mb_s * 100.0
            );
        }
        out += "\n";
    }
    if let Some(a0) = r.aggregate.first() {
        out += &format!(
            "All cores (CPUs {}, one pinned thread each, own buffers, started together):\n",
            CpuList::new(&a0.cpus)
        );
        for a in &r.aggregate {
            let per: Vec<String> = a
                .cpus
                .iter()
                .zip(&a.per_thread_mb_s)
                .map(|(c, v)| format!("CPU {c} {v:.1}"))
                .collect();
            out += &format!(
                " {:<32} : {:>9.1} MB/s{} = {}\n",
                a.name,
                a.total_mb_s,
                spread_suffix(a.samples_mb_s.len(), a.spread_pct),
                per.join(" + ")
            );
        }
    }
    out += &format!(
        "Took {:.1} s (single-threaded {:.1} s, aggregate {:.1} s)\n",
        r.single_wall_s + r.aggregate_wall_s,
        r.single_wall_s,
        r.aggregate_wall_s
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use document::measure::membw::BwKind;

    #[test]
    fn a_disturbed_test_says_so_next_to_its_figure() {
        let mut t = BwTest {
            name: "libc memcpy copy".into(),
            kind: BwKind::Copy,
            headline: true,
            samples_mb_s: vec![2931.0],
            best_mb_s: 2931.0,
            median_mb_s: 2931.0,
            spread_pct: None,
            calls_per_sample: 1,
            descheduled_retries: 3,
            disturbed: true,
        };
        assert_eq!(
            line(&t),
            " libc memcpy copy                 :    2931.0 MB/s   (disturbed: another task used the measured CPU)\n"
        );
        t.disturbed = false;
        assert_eq!(
            line(&t),
            " libc memcpy copy                 :    2931.0 MB/s\n"
        );
    }

    #[test]
    fn spread_is_shown_only_above_a_tenth_of_a_percent() {
        assert_eq!(spread_suffix(3, Some(3.71)), " (3, 3.7%)");
        assert_eq!(spread_suffix(3, Some(0.05)), "");
        assert_eq!(spread_suffix(1, None), "");
    }
}
