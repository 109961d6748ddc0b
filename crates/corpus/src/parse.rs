//! Results.md → entries. A table row is a line starting with "| [" (a linked device) or any
//! "|" line after the header separator that is not the separator; every one must parse.

use crate::{Arch, ArchClass, Entry, Figure, Mark};
use serde::Serialize;
use std::fmt;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RowError {
    pub line: usize,
    pub text: String,
    pub why: String,
}

/// Rows that did not parse (all of them, not just the first), or no table at all.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ParseError {
    pub rows: Vec<RowError>,
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.message)?;
        for r in &self.rows {
            write!(f, "\n  line {}: {} ({})", r.line, r.text, r.why)?;
        }
        Ok(())
    }
}

impl std::error::Error for ParseError {}

/// The page's statements that make rows not comparable (Explanations section), as rules:
/// (device contains, clock cell equals or "" for any, reason).
#[rustfmt::skip]
static NOT_COMPARABLE: &[(&str, &str, &str)] = &[
    ("Raspberry Pi 3 B+", "UV/normal", "undervoltage: frequency capped to 600 MHz during 7-Zip while the kernel reported 1400 MHz"),
    ("Raspberry Pi 3 B+", "OC/normal", "overclocked; above 60 °C the firmware downclocked to 1200 MHz while the kernel reported 1570 MHz"),
    ("Hugsun X99", "", "overclocked RK3399 TV box (A72 at 2.1 GHz, A53 at 1.8 GHz)"),
    ("(WSL2)", "", "run inside WSL2: virtualisation overhead, and single-threaded tasks always on the Cortex-X1C"),
];

/// RPi 5B above its stock 2400 MHz: "The overclocked RPi 5B results are somewhat useless".
const RPI5_OC: &str = "overclocked RPi 5B: the page calls these results somewhat useless (most BCM2712 cannot run at this clock)";

/// Device names the page calls preliminary (besides every RISC-V row).
static PRELIMINARY: &[&str] = &[
    "ROCK 5B",
    "ROCK 5C Lite",
    "Orange Pi 5",
    "RK3568-ROC-PC",
    "Khadas VIM4",
    "Apple M1 Pro",
];
const PRELIMINARY_NOTE: &str =
    "preliminary: software support was at an early stage (RK358x, A311D2, RISC-V, Apple M1 Pro)";

/// Parenthesised device details that are not a SoC.
static NOT_SOC: &[&str] = &["1 x SO-DIMM", "2 x SO-DIMM", "WSL2"];

/// x86 model names among devices written without a SoC.
static X86_NAMES: &[&str] = &[
    "Atom", "Celeron", "Pentium", "Ryzen", "Athlon", "AMD E-", "Intel ", "x5-Z", "x7-Z",
];

pub(crate) fn parse(text: &str) -> Result<Vec<Entry>, ParseError> {
    let lines: Vec<&str> = text.lines().collect();
    let footnotes = footnotes(&lines);
    let mut in_table = false;
    let mut entries = vec![];
    let mut errors = vec![];
    let mut seen_header = false;
    for (i, raw) in lines.iter().enumerate() {
        let l = raw.trim();
        if !l.starts_with('|') {
            in_table = false;
            continue;
        }
        if l.starts_with("| Device") {
            seen_header = true;
            continue;
        }
        if l.starts_with("| -") || l.starts_with("|-") {
            in_table = seen_header;
            continue;
        }
        if !in_table {
            continue;
        }
        match row(i + 1, l, &footnotes) {
            Ok(e) => entries.push(e),
            Err(why) => errors.push(RowError {
                line: i + 1,
                text: l.to_string(),
                why,
            }),
        }
    }
    if !errors.is_empty() {
        return Err(ParseError {
            message: format!("{} table row(s) did not parse", errors.len()),
            rows: errors,
        });
    }
    if entries.is_empty() {
        return Err(ParseError {
            rows: vec![],
            message: "no results table (\"| Device / details | Clockspeed | …\") found".into(),
        });
    }
    Ok(entries)
}

/// Footnote definitions: lines outside the table starting with a marker ("&ast; text").
fn footnotes(lines: &[&str]) -> Vec<(String, String)> {
    lines
        .iter()
        .filter_map(|l| {
            let l = l.trim();
            let rest = l.strip_prefix("&ast;")?;
            Some(("&ast;".to_string(), rest.trim().to_string()))
        })
        .collect()
}

fn cells(l: &str) -> Vec<String> {
    let inner = l.trim().trim_start_matches('|');
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    let mut v: Vec<String> = inner.split('|').map(|c| c.trim().to_string()).collect();
    // A trailing empty cell ("… | - | |") is a stray separator.
    while v.len() > 10 && v.last().is_some_and(|c| c.is_empty()) {
        v.pop();
    }
    v
}

fn row(line: usize, l: &str, footnotes: &[(String, String)]) -> Result<Entry, String> {
    let c = cells(l);
    if c.len() != 10 {
        return Err(format!("{} cells, expected 10", c.len()));
    }
    let mut marks = vec![];
    for (name, cell) in [
        ("Device", &c[0]),
        ("Clockspeed", &c[1]),
        ("Kernel", &c[2]),
        ("Distro", &c[3]),
    ] {
        if let Some(b) = bold(cell) {
            marks.push(Mark::Bold {
                column: name.to_string(),
                text: b,
            });
        }
    }
    let (device, log) = device(&c[0])?;
    let clock_text = c[1].replace("**", "");
    let clocks_mhz = clocks(&clock_text)?;
    let kernel = c[2].replace("**", "");
    if kernel.is_empty() {
        return Err("empty kernel cell".into());
    }
    let distro = c[3].replace("**", "");
    let arch = arch(&distro);
    let soc_table = soc_of(&device);
    let soc = soc_table.as_deref().and_then(soc_name);
    let cores = row_cores(&device, soc.as_deref());
    let mut figures = [None; 6];
    for f in Figure::ALL {
        let cell = c[4 + f.index()].replace("**", "");
        let (v, note) = figure(&cell).map_err(|e| format!("{}: {e}", f.column()))?;
        figures[f.index()] = v;
        if let Some((marker, value)) = note {
            let text = footnotes
                .iter()
                .find(|(m, _)| *m == marker)
                .map(|(_, t)| t.clone())
                .unwrap_or_else(|| "(footnote text not found on the page)".into());
            marks.push(Mark::Footnote {
                figure: f,
                value,
                marker,
                text,
            });
        }
    }
    if figures.iter().all(Option::is_none) {
        return Err("no figure at all".into());
    }
    let class = match arch {
        Some(a) => a.class(),
        None if X86_NAMES.iter().any(|n| device.starts_with(n)) => ArchClass::X86,
        None if distro.contains("riscv") => ArchClass::RiscV,
        // The rows without an arch are Raspbian / Raspberry Pi OS and one Armbian (Allwinner H5).
        None => ArchClass::Arm,
    };
    for (dev, clock, reason) in NOT_COMPARABLE {
        if device.contains(dev) && (clock.is_empty() || clock_text == *clock) {
            marks.push(Mark::NotComparable {
                reason: reason.to_string(),
            });
        }
    }
    if soc.as_deref() == Some("Broadcom BCM2712") && clocks_mhz.first().is_some_and(|&m| m > 2400) {
        marks.push(Mark::NotComparable {
            reason: RPI5_OC.into(),
        });
    }
    // The named board, with or without its maker in front ("Radxa ROCK 5B"), not its
    // siblings ("Orange Pi 5 Max").
    let base = device.split(" (").next().unwrap_or(&device);
    let named = |p: &&str| base == *p || base.ends_with(&format!(" {p}"));
    if class == ArchClass::RiscV || PRELIMINARY.iter().any(named) {
        marks.push(Mark::Preliminary {
            note: PRELIMINARY_NOTE.into(),
        });
    }
    Ok(Entry {
        line,
        device,
        log,
        soc_table,
        soc,
        cores,
        clock_text,
        clocks_mhz,
        kernel,
        distro,
        arch,
        class,
        figures,
        marks,
    })
}

fn bold(cell: &str) -> Option<String> {
    let start = cell.find("**")?;
    let rest = &cell[start + 2..];
    let end = rest.find("**")?;
    Some(rest[..end].to_string())
}

/// "[Name<br />(SoC)](results/x.txt)" → ("Name (SoC)", Some("results/x.txt")); plain text too.
fn device(cell: &str) -> Result<(String, Option<String>), String> {
    let cell = cell.replace("**", "");
    let (name, log) = if let Some(rest) = cell.strip_prefix('[') {
        let close = rest.find("](").ok_or("device link without \"](\"")?;
        let target = &rest[close + 2..];
        let end = target.find(')').ok_or("device link not closed")?;
        (
            rest[..close].to_string(),
            Some(target[..end].trim().to_string()),
        )
    } else {
        (cell.clone(), None)
    };
    let name = name
        .replace("<br />", " ")
        .replace("<br/>", " ")
        .replace("<br>", " ");
    let name = name.split_whitespace().collect::<Vec<_>>().join(" ");
    if name.is_empty() {
        return Err("empty device".into());
    }
    Ok((name, log))
}

/// The last parenthesised part that is a SoC, else the device name itself when the SoC
/// catalogue reads a SoC in it (a SoC name with product words, "RK3228A TV Box", a board the
/// catalogue knows, an x86 model).
fn soc_of(device: &str) -> Option<String> {
    let mut found = None;
    let mut rest = device;
    while let Some(open) = rest.find('(') {
        let after = &rest[open + 1..];
        let Some(close) = after.find(')') else { break };
        let inside = after[..close].trim();
        if !NOT_SOC.contains(&inside) {
            found = Some(inside.to_string());
        }
        rest = &after[close + 1..];
    }
    if found.is_some() {
        return found;
    }
    let base = device.split(" (").next().unwrap_or(device).trim();
    let known = document::socs::lookup_prefix(base).is_some()
        || document::socs::of_board(base).is_some()
        || (X86_NAMES.iter().any(|n| base.starts_with(n))
            && document::socs::x86_model(base).is_some());
    known.then(|| base.to_string())
}

/// The catalogue's name of a row's SoC spelling; `None` when it does not know it.
fn soc_name(spelling: &str) -> Option<String> {
    document::socs::of_guess(spelling)
        .or_else(|| document::socs::lookup_prefix(spelling))
        .or_else(|| document::socs::of_board(spelling))
        .map(|s| s.name.to_string())
        .or_else(|| document::socs::x86_model(spelling))
}

/// The row's core count: the SoC's fixed layout, else what the device name says (an Ampere
/// SKU "Q80-26", a Hetzner instance, a Jetson module); `None` where neither says.
pub(crate) fn row_cores(device: &str, soc: Option<&str>) -> Option<u32> {
    if let Some(n) = soc
        .and_then(document::socs::lookup)
        .and_then(|s| s.core_count())
    {
        return Some(n);
    }
    let d = device.to_ascii_lowercase();
    for (needle, n) in [
        ("cax11", 2),
        ("cax21", 4),
        ("cax31", 8),
        ("cax41", 16),
        ("a1.xlarge", 4),
        ("agx orin", 12),
        ("orin nano", 6),
        ("xavier agx", 8),
        ("xavier nx", 6),
    ] {
        if d.contains(needle) {
            return Some(n);
        }
    }
    // Ampere SKUs: "Q80-26", "M96-28", "A192-32X", "M128-30".
    for w in device.split_whitespace() {
        let w = w.trim_matches(|c: char| !c.is_ascii_alphanumeric());
        if let Some(rest) = w.strip_prefix(['Q', 'M', 'A'])
            && let Some((n, _)) = rest.split_once('-')
            && let Ok(n) = n.parse::<u32>()
            && d.contains("ampere")
        {
            let times = if d.contains("2 x ") { 2 } else { 1 };
            return Some(n * times);
        }
    }
    None
}

/// "2400/1800 MHz" → [2400, 1800]; "2980/? MHz" → [2980]; "~2290" → [2290]; "UV/normal" → [].
fn clocks(cell: &str) -> Result<Vec<u32>, String> {
    let t = cell.trim();
    let lower = t.to_ascii_lowercase();
    let numeric = lower.trim_end_matches("mhz").trim().trim_start_matches('~');
    if !numeric.starts_with(|c: char| c.is_ascii_digit()) {
        // Settings labels (RPi 3 B+: "original", "normal", "UV/normal", "with fan").
        return if t.is_empty() {
            Err("empty clock cell".into())
        } else {
            Ok(vec![])
        };
    }
    let mut v = vec![];
    for p in numeric.split('/') {
        let p = p.trim();
        if p == "?" {
            continue;
        }
        v.push(
            p.parse::<u32>()
                .map_err(|_| format!("clock {p:?} is not a number"))?,
        );
    }
    Ok(v)
}

fn arch(distro: &str) -> Option<Arch> {
    // The last recognised token wins ("Bullseye armv6l/armhf" → armhf).
    let mut found = None;
    for tok in distro.split(|c: char| c.is_whitespace() || c == '/' || c == ')') {
        let a = match tok {
            "armhf" | "armv6l" | "armv7l" => Arch::Armhf,
            "arm64" | "aarch64" | "arm-64" => Arch::Arm64,
            "amd64" | "x86_64" => Arch::X86_64,
            "i386" | "i686" => Arch::I386,
            "riscv64" => Arch::Riscv64,
            "loongarch64" => Arch::Loongarch64,
            _ => continue,
        };
        found = Some(a);
    }
    found
}

type FootnoteRef = (String, Option<f64>);

/// "-" → None; "42500" → 42500; "42500 &ast;98560" → 42500 with footnote ("&ast;", 98560).
fn figure(cell: &str) -> Result<(Option<f64>, Option<FootnoteRef>), String> {
    let t = cell.trim();
    if t == "-" || t.is_empty() {
        return Ok((None, None));
    }
    let (main, note) = match t.find("&ast;") {
        Some(i) => {
            let after = t[i + "&ast;".len()..].trim();
            let v = after.replace(',', "").parse::<f64>().ok();
            (t[..i].trim(), Some(("&ast;".to_string(), v)))
        }
        None => (t, None),
    };
    let v = main
        .replace(',', "")
        .parse::<f64>()
        .map_err(|_| format!("{main:?} is not a number"))?;
    if !v.is_finite() || v < 0.0 {
        return Err(format!("{main:?} is not a measured figure"));
    }
    Ok((Some(v), note))
}
