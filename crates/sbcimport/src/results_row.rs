//! sbc-bench's own summary line (the last line of the log since v0.8.4):
//! `| name | clock | kernel | distro | 7zip multi | X | aes | memcpy | memset | kH/s | [url |]`.

use document::imported::SummaryLine;

use crate::version::Version;

/// Parses the summary line: normally the last line, but some logs have text appended after it
/// (e.g. a cpuinfo dump), so the last line of that shape counts. Before v0.9.9 the 6th cell is
/// AES-128; v0.9.9 logs exist in both layouts (AES-128 when it is larger than 7-zip multi).
pub fn find(lines: &[&str], version: Option<Version>) -> Option<SummaryLine> {
    let (last, cells) = lines.iter().rev().find_map(|l| {
        let l = l.trim();
        let cells = cells(l)?;
        Some((l, cells))
    })?;
    let int = |s: &str| -> Option<u64> { s.parse().ok() };
    let zip_multi = int(cells[4]);
    let x = int(cells[5]);
    let x_is_aes128 = match version {
        Some(v) if v < Version(0, 9, 9) => true,
        Some(Version(0, 9, 9)) => matches!((x, zip_multi), (Some(x), Some(m)) if x > m),
        _ => false,
    };
    let url = cells
        .get(10)
        .filter(|c| !c.is_empty() && !c.starts_with("[]"))
        .map(|c| c.to_string());
    Some(SummaryLine {
        raw: last.to_string(),
        device: cells[0].to_string(),
        clock: cells[1].to_string(),
        kernel: cells[2].to_string(),
        distro: cells[3].to_string(),
        zip_multi,
        zip_single: if x_is_aes128 { None } else { x },
        aes128: if x_is_aes128 { x } else { None },
        aes: int(cells[6]),
        memcpy: int(cells[7]),
        memset: int(cells[8]),
        khs: cells[9].parse().ok().filter(|v: &f64| v.is_finite()),
        url,
    })
}

/// The cells of a line shaped like a summary line: at least ten, numbers or "-" in the
/// figure columns.
fn cells(l: &str) -> Option<Vec<&str>> {
    if !l.starts_with('|') {
        return None;
    }
    let cells: Vec<&str> = l.trim_matches('|').split('|').map(str::trim).collect();
    if cells.len() < 10 {
        return None;
    }
    let figure = |c: &str| c == "-" || c.is_empty() || c.parse::<f64>().is_ok();
    cells[4..10].iter().all(|c| figure(c)).then_some(cells)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts() {
        let v = Version::parse("v0.9.72");
        let l = [
            "| Flipper One | ~2310 (throttled) | 7.1 | Debian arm64 | 12350 | 2306 | 1305480 | 5110 | 15710 | 18.74 | |",
        ];
        let s = find(&l, v).unwrap();
        assert_eq!(
            (s.zip_multi, s.zip_single, s.aes128),
            (Some(12350), Some(2306), None)
        );
        assert_eq!(s.khs, Some(18.74));
        assert_eq!(s.url, None);
        let l = [
            "| RPi 4 | 1500 MHz | 5.10 | Buster armhf | 5750 | 62310 | 64930 | 2550 | 3430 | - | []() |",
        ];
        let s = find(&l, Version::parse("v0.8.4")).unwrap();
        assert_eq!((s.zip_single, s.aes128, s.khs), (None, Some(62310), None));
        let l = ["| x | 1 | 5.4 | y | 12120 | 340470 | 1254540 | 8180 | 11680 | - |"];
        assert_eq!(
            find(&l, Version::parse("v0.9.9")).unwrap().aes128,
            Some(340470)
        );
        let l = ["| x | 1 | 5.4 | y | 4780 | 2566 | 98840 | 4120 | 3870 | - |"];
        assert_eq!(
            find(&l, Version::parse("v0.9.9")).unwrap().zip_single,
            Some(2566)
        );
        assert!(find(&["no summary"], v).is_none());
    }
}
