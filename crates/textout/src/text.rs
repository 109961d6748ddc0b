//! Small formatting helpers shared by the renderers.
//!
//! The rules for text from outside (`one_line`, `strip_ansi`) and the finding line live in
//! `document::text`, where the renderers and `review` (which must not depend on a renderer)
//! both reach them; this crate's modules use them through this module.

use chrono::{DateTime, FixedOffset};
use document::ResultDocument;
use document::cpus::CpuList;
use document::machine::MachineInfo;
pub(crate) use document::text::{one_line, strip_ansi};

/// sbc-bench's block separator: a line of 74 `#`.
pub const SEPARATOR: &str =
    "##########################################################################";

/// "0-3", "4", "0,2,4", "0-3,6": a CPU list as the kernel writes it; "-" when empty.
pub fn span(cpus: &[u32]) -> String {
    CpuList::new(cpus).to_string()
}

/// "cpu0-cpu3", "cpu4": the form of sbc-bench's clock check headings ([`CpuList::heading`]).
pub fn cpu_range(cpus: &[u32]) -> String {
    CpuList::new(cpus).heading()
}

/// Multi-line tool output made fit for a log: ANSI removed, carriage returns turned into line
/// ends (progress lines), other control characters dropped, trailing blanks and blank lines cut.
pub fn clean_block(s: &str) -> String {
    let s = strip_ansi(s).replace("\r\n", "\n").replace('\r', "\n");
    let lines: Vec<String> = s
        .lines()
        .map(|l| {
            l.chars()
                .filter(|c| *c == '\t' || !c.is_control())
                .collect::<String>()
                .trim_end()
                .to_string()
        })
        .collect();
    let mut text = lines.join("\n");
    let trimmed = text.trim_end().len();
    text.truncate(trimmed);
    // Leading blank lines too: the block's heading already has a blank line after it.
    text.trim_start_matches('\n').to_string()
}

/// The remark next to a single figure measured while another task used the measured CPU
/// (`disturbed` in the document).
pub const DISTURBED_REMARK: &str = "disturbed: another task used the measured CPU";

/// "7 of 15 rows disturbed" — one line for a table instead of a remark on each row; `None`
/// when nothing was disturbed.
pub fn disturbed_note(disturbed: usize, total: usize, what: &str) -> Option<String> {
    (disturbed > 0).then(|| {
        format!("{disturbed} of {total} {what} disturbed (another task used the measured CPU)")
    })
}

/// A spread (sample standard deviation, percent) is shown only above this: below it the
/// figure is as steady as a measurement gets. One rule for every figure of every renderer.
pub const SPREAD_SHOWN_PCT: f64 = 0.1;

/// The spread when it is worth showing ([`SPREAD_SHOWN_PCT`]).
pub fn shown_spread(spread_pct: Option<f64>) -> Option<f64> {
    spread_pct.filter(|s| s.is_finite() && *s > SPREAD_SHOWN_PCT)
}

/// KiB as a human size: "512 KiB", "3 MiB", "1.2 MiB", "15.4 GiB" — the one size rule of
/// every renderer ([`document::text::format_bytes`], a decimal only when the size is not whole),
/// fed KiB; zero reads "0 KiB".
pub fn kib(k: u64) -> String {
    if k == 0 {
        return "0 KiB".into();
    }
    document::text::format_bytes(k.saturating_mul(1024))
}

/// Seconds as awk prints `x/100` of a time_in_state value: "2083.27", "7.5", "0".
pub fn seconds(s: f64) -> String {
    if !s.is_finite() {
        return "?".into();
    }
    let t = format!("{s:.2}");
    let t = t.trim_end_matches('0').trim_end_matches('.');
    if t.is_empty() || t == "-" || t == "-0" {
        "0".into()
    } else {
        t.to_string()
    }
}

/// The time zone the run's wall-clock times are shown in: the offset of the recorded ISO
/// timestamps (so the log shows the run machine's local time, whatever machine renders it).
pub fn offset_of(doc: &ResultDocument) -> FixedOffset {
    let utc = FixedOffset::east_opt(0).expect("zero offset is valid");
    let candidates = doc.started.iter().chain(
        doc.run
            .iter()
            .flat_map(|r| r.phases.iter().map(|p| &p.started)),
    );
    for iso in candidates {
        if let Ok(t) = DateTime::parse_from_rfc3339(iso) {
            return *t.offset();
        }
    }
    utc
}

/// [`one_line`], or `None` when nothing printable is left (a value made of control characters
/// only).
pub fn one_line_or_none(s: &str) -> Option<String> {
    Some(one_line(s)).filter(|s| !s.is_empty())
}

/// "cpu4 (Cortex-A76)": the label of a cluster (first online CPU and core name).
pub fn cluster_label(m: &MachineInfo, index: usize) -> Option<String> {
    let c = m.clusters.get(index)?;
    let first = c
        .online_cpus()
        .first()
        .copied()
        .or(c.cpus.first().copied())?;
    Some(match &c.core_name {
        Some(n) => format!("cpu{first} ({})", one_line(n)),
        None => format!("cpu{first}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_lists() {
        assert_eq!(span(&[3, 0, 1, 2, 6]), "0-3,6");
        assert_eq!(span(&[]), "-");
        assert_eq!(cpu_range(&[0, 1, 2, 3]), "cpu0-cpu3");
        assert_eq!(cpu_range(&[4]), "cpu4");
        assert_eq!(cpu_range(&[0, 2, 4]), "cpu0,2,4");
        assert_eq!(
            cpu_range(&[u32::MAX - 1, u32::MAX]),
            format!("cpu{}-cpu{}", u32::MAX - 1, u32::MAX)
        );
    }

    #[test]
    fn tool_output_blocks_lose_colours_and_blank_lines() {
        assert_eq!(clean_block("\n\nx\r\ny\rz  \n\n"), "x\ny\nz");
        assert_eq!(clean_block("\u{1b}[1;32mok\u{1b}[0m\t1 "), "ok\t1");
    }

    #[test]
    fn tables_say_disturbance_once_and_spread_only_above_a_tenth_of_a_percent() {
        assert_eq!(disturbed_note(0, 15, "rows"), None);
        assert_eq!(
            disturbed_note(7, 15, "rows").unwrap(),
            "7 of 15 rows disturbed (another task used the measured CPU)"
        );
        assert_eq!(shown_spread(Some(0.4)), Some(0.4));
        assert_eq!(shown_spread(Some(0.1)), None);
        assert_eq!(shown_spread(Some(f64::NAN)), None);
        assert_eq!(shown_spread(None), None);
    }

    #[test]
    fn sizes_and_seconds() {
        assert_eq!(kib(0), "0 KiB");
        assert_eq!(kib(48), "48 KiB");
        assert_eq!(kib(3072), "3 MiB");
        assert_eq!(kib(1280), "1.2 MiB");
        assert_eq!(kib(8 * 1024 * 1024), "8 GiB");
        assert_eq!(kib(16_145_796), "15.4 GiB");
        assert_eq!(seconds(2083.27), "2083.27");
        assert_eq!(seconds(7.5), "7.5");
        assert_eq!(seconds(0.0), "0");
        assert_eq!(seconds(12.0), "12");
    }

    #[test]
    fn one_line_or_none_drops_what_is_not_printable() {
        assert_eq!(
            one_line_or_none(" Radxa\tROCK  5B\n").as_deref(),
            Some("Radxa ROCK 5B")
        );
        assert_eq!(one_line_or_none("\u{1b}[0m\r\n"), None);
    }
}
