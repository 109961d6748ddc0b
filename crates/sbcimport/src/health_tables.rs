//! The monitor tables: "System health while running X:" sections and the "System health now:"
//! snapshot taken under load at the end.

use document::imported::{MonitorRow, MonitorTable};

use crate::text::{is_separator, leading_f64};

pub fn read(lines: &[&str]) -> Vec<MonitorTable> {
    let mut out: Vec<MonitorTable> = Vec::new();
    let mut current: Option<MonitorTable> = None;
    for l in lines {
        let phase = if let Some(rest) = l.strip_prefix("System health while running ") {
            Some(rest.trim().trim_end_matches(':').to_string())
        } else if l.trim_end().ends_with("System health now:") {
            Some("now".to_string())
        } else {
            None
        };
        if let Some(phase) = phase {
            out.extend(current.take());
            current = Some(MonitorTable {
                phase,
                ..MonitorTable::default()
            });
            continue;
        }
        let Some(t) = current.as_mut() else { continue };
        if is_separator(l) {
            out.extend(current.take());
            continue;
        }
        if l.starts_with("Time ") && t.columns.is_empty() {
            t.columns = l.split_whitespace().map(str::to_string).collect();
        } else if let Some(row) = row(l) {
            t.rows.push(row);
        } else if !l.trim().is_empty() && !t.rows.is_empty() {
            // The table ended (the snapshot is followed by other output).
            out.extend(current.take());
        }
    }
    out.extend(current);
    out
}

/// `10:10:25: 2208/2016MHz  1.42   7%   1%   5%   0%   0%   0%   45.0°C  [more]`.
fn row(l: &str) -> Option<MonitorRow> {
    let toks: Vec<&str> = l.split_whitespace().collect();
    let time = toks.first()?.strip_suffix(':')?;
    let b = time.as_bytes();
    if b.len() != 8 || b[2] != b':' || b[5] != b':' {
        return None;
    }
    // The clock cell may contain spaces ("1800 MHz"); the load is the first number
    // followed by a percentage.
    let i = (1..toks.len().saturating_sub(1))
        .find(|&i| toks[i].parse::<f64>().is_ok() && toks[i + 1].ends_with('%'))?;
    let pct = |k: usize| {
        toks.get(i + 1 + k)
            .and_then(|t| t.strip_suffix('%'))
            .and_then(|t| t.parse().ok())
    };
    let npct = (0..6).take_while(|&k| pct(k).is_some()).count();
    let rest = &toks[(i + 1 + npct).min(toks.len())..];
    let (temp_c, extra) = match rest.first() {
        Some(t) if t.contains("°C") || *t == "--" => (leading_f64(t), &rest[1..]),
        _ => (None, rest),
    };
    Some(MonitorRow {
        time: time.to_string(),
        clock: toks[1..i].join(" "),
        load: toks[i].parse().ok(),
        cpu_pct: pct(0),
        sys_pct: pct(1),
        usr_pct: pct(2),
        nice_pct: pct(3),
        io_pct: pct(4),
        irq_pct: pct(5),
        temp_c,
        extra: extra.iter().map(|s| s.to_string()).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows() {
        let r = row("10:10:25: 2208/2016MHz  1.42   7%   1%   5%   0%   0%   0%  45.5°C").unwrap();
        assert_eq!(r.clock, "2208/2016MHz");
        assert_eq!(
            (r.cpu_pct, r.sys_pct, r.temp_c),
            (Some(7), Some(1), Some(45.5))
        );
        let r =
            row("10:10:25: 1800 MHz  1.42 100%   1%   5%   0%   0%   0%      °C  5.1V").unwrap();
        assert_eq!(r.clock, "1800 MHz");
        assert_eq!(r.temp_c, None);
        assert_eq!(r.extra, vec!["5.1V"]);
        assert!(row("Time       big.LITTLE   load %cpu").is_none());
    }
}
