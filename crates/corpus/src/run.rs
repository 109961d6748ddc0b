//! A result document placed among the corpus's rows: every headline figure of the run (native
//! or an imported sbc-bench log), with the comparability rules of issue 24. Pure: reads the
//! typed document through `headline` only.
//!
//! - The class a run is ranked in comes from its userland (or kernel) architecture; without
//!   one it is not placed. x86 runs are ranked among the table's x86 rows only, and
//!   [`RunPlacement::comparison`] says so ("the page keeps x86 rows as comparison numbers").
//! - Figures the document marks not comparable with sbc-bench (a quick run's, 7-Zip newer than
//!   16.02 …) are still placed, but each carries [`RunFigure::not_comparable`] and every line
//!   shows it.
//! - An imported log that is itself a row of the table (its file name is a row's log) is placed
//!   among the others: its own row is left out and [`RunPlacement::notes`] says so.

use document::ResultDocument;
use headline::Figure as HFigure;
use serde::Serialize;

use crate::{ArchClass, Corpus, Figure, PlaceOptions, Placement, place_with};

pub use crate::place::{number, ordinal};

/// One headline figure of a run, placed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunFigure {
    pub placement: Placement,
    /// Why the document says this figure is not comparable with sbc-bench's ("quick: …",
    /// "7-Zip 23.01: …"); `None` when it is.
    pub not_comparable: Option<String>,
}

/// A run placed in a corpus.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunPlacement {
    pub source: String,
    pub date: String,
    /// The run's SoC as the document names it, normalised ([`crate::normalise_soc`]).
    pub soc: Option<String>,
    /// The class the run is ranked in; `None` when the document names no architecture.
    pub class: Option<ArchClass>,
    /// What the comparison is, in words ("ARM rows only (this run: arm64 userland)").
    pub comparison: String,
    /// Caveats that apply to the whole run (own row left out, 32-bit userland …).
    pub notes: Vec<String>,
    /// The figures the run has, in the table's column order.
    pub figures: Vec<RunFigure>,
}

/// The short form of the licence, for every place the data is shown.
pub const LICENSE_LINE: &str =
    "published results of sbc-bench, BSD-3-Clause, Copyright (c) 2018, Thomas Kaiser";

fn to_corpus(f: HFigure) -> Figure {
    match f {
        HFigure::ZipMulti => Figure::SevenZipMulti,
        HFigure::ZipSingle => Figure::SevenZipSingle,
        HFigure::Aes => Figure::Aes256,
        HFigure::Memcpy => Figure::Memcpy,
        HFigure::Memset => Figure::Memset,
        HFigure::Khs => Figure::Cpuminer,
    }
}

/// The class of an architecture name (`uname -m` or Debian's): `None` when unknown.
pub fn class_of_arch(arch: &str) -> Option<ArchClass> {
    let a = arch.trim().to_ascii_lowercase();
    if a.starts_with("aarch64") || a.starts_with("arm") {
        Some(ArchClass::Arm)
    } else if a == "x86_64" || a == "amd64" || a == "i386" || a == "i686" || a == "x86" {
        Some(ArchClass::X86)
    } else if a.starts_with("riscv") {
        Some(ArchClass::RiscV)
    } else if a.starts_with("loongarch") {
        Some(ArchClass::LoongArch)
    } else {
        None
    }
}

/// True for a 32-bit userland name (armhf, armv7l, i386 …).
pub fn is_32bit_arch(arch: &str) -> bool {
    let a = arch.trim().to_ascii_lowercase();
    matches!(a.as_str(), "armhf" | "armel" | "i386" | "i686") || a.starts_with("armv")
}

/// True for a 64-bit kernel machine name.
pub fn is_64bit_arch(arch: &str) -> bool {
    let a = arch.trim().to_ascii_lowercase();
    a.contains("64")
}

/// The document's architectures: (userland, kernel machine).
pub fn arches(doc: &ResultDocument) -> (Option<String>, Option<String>) {
    let text = |s: Option<&String>| s.map(|s| s.trim().to_string()).filter(|s| !s.is_empty());
    let imp = doc.imported.as_ref();
    let id = doc.machine.as_ref().map(|m| &m.identity);
    let userland = text(imp.and_then(|i| i.arch.as_ref()))
        .or_else(|| text(id.and_then(|id| id.userland.as_ref()?.arch.as_ref())));
    let kernel = text(imp.and_then(|i| i.kernel_machine.as_ref()))
        .or_else(|| text(id.and_then(|id| id.kernel.arch.as_ref())));
    (userland, kernel)
}

/// The 7-Zip version behind the run's 7-Zip figures, and whether the document says its scores
/// are not comparable with sbc-bench's (native runs: the tool run's own flag; imported logs:
/// a version above 16.02, the version sbc-bench's table was measured with).
pub fn sevenzip(doc: &ResultDocument) -> Option<(String, bool)> {
    if let Some(run) = &doc.run
        && let Some(t) = run
            .phases
            .iter()
            .flat_map(|p| p.tool_runs.iter())
            .find(|t| t.tool == "7-Zip")
    {
        return Some((
            t.version
                .clone()
                .unwrap_or_else(|| "version unknown".into()),
            t.comparable_with_sbc_bench == Some(false),
        ));
    }
    let v = doc.imported.as_ref()?.sevenzip.as_ref()?.version.clone()?;
    let newer = version_above(&v, (16, 2));
    Some((v, newer))
}

/// "23.01" > (16, 2).
fn version_above(v: &str, than: (u32, u32)) -> bool {
    let mut it = v
        .trim()
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse::<u32>().unwrap_or(0));
    let major = it.next().unwrap_or(0);
    let minor = it.next().unwrap_or(0);
    (major, minor) > than
}

/// The file name of an imported log ("1iZq.txt"): the table row it is, when a row links it.
pub fn own_log(doc: &ResultDocument) -> Option<String> {
    let src = &doc.imported.as_ref()?.source;
    let name = src.rsplit(['/', '\\']).next()?.to_string();
    (!name.is_empty()).then_some(name)
}

/// A SoC guess ("Rockchip RK3576 (35760000 / …)", "Rockchip RK3576 / 35 76 …", "Nvidia Jetson
/// Orin NX", "one of: …") as the corpus names it: the guess without its detail, normalised, else its shorter
/// word-suffixes ("Jetson Orin NX", "Orin NX") where one names a SoC of the corpus. `None` for
/// an ambiguous guess.
pub fn soc_of_guess(c: &Corpus, guess: &str) -> Option<String> {
    let g = guess.trim();
    if g.is_empty() || g.to_ascii_lowercase().starts_with("one of") {
        return None;
    }
    // "Rockchip RK3576 (35760000 / …)", "Rockchip RK3576 / 35 76 22 …": the name comes first.
    let g = g.split(" (").next().unwrap_or(g);
    let g = g.split(" / ").next().unwrap_or(g).trim();
    let whole = crate::normalise_soc(g);
    let known = |s: &str| c.entries.iter().any(|e| e.soc.as_deref() == Some(s));
    if known(&whole) {
        return Some(whole);
    }
    let words: Vec<&str> = g.split_whitespace().collect();
    (1..words.len())
        .map(|i| crate::normalise_soc(&words[i..].join(" ")))
        .find(|s| known(s))
        .or(Some(whole))
}

/// Lower-case letters and digits only.
fn squash(s: &str) -> String {
    s.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// The SoC of the table rows whose device name (without its parenthesised SoC) is the end of
/// `device` ("FriendlyElec NanoPC-T4" and the row "NanoPC T4 (RK3399)"), when they agree on
/// one; with the matched row's device.
pub fn soc_of_device(c: &Corpus, device: &str) -> Option<(String, String)> {
    let d = squash(device);
    let mut found: Option<(String, String)> = None;
    for e in &c.entries {
        let name = squash(e.device.split(" (").next().unwrap_or(&e.device));
        if name.len() < 5 || !d.ends_with(&name) {
            continue;
        }
        let Some(soc) = e.soc.clone() else {
            continue;
        };
        match &found {
            Some((s, _)) if *s != soc => return None,
            Some(_) => {}
            None => found = Some((soc, e.device.clone())),
        }
    }
    found
}

/// Place every headline figure of `doc` in `c`.
pub fn place_run(c: &Corpus, doc: &ResultDocument) -> RunPlacement {
    let cols = headline::columns::columns(doc);
    let (userland, kernel) = arches(doc);
    let class = userland
        .as_deref()
        .and_then(class_of_arch)
        .or_else(|| kernel.as_deref().and_then(class_of_arch));
    let mut notes = Vec::new();

    // The run's own row, when an imported log is one of the table's.
    let own = own_log(doc).and_then(|name| {
        c.entries.iter().position(|e| {
            e.log
                .as_deref()
                .is_some_and(|l| l.ends_with(&format!("/{name}")))
        })
    });
    let soc = match (cols.soc.as_deref().and_then(|g| soc_of_guess(c, g)), own) {
        (Some(s), _) => Some(s),
        (None, Some(i)) if c.entries[i].soc.is_some() => {
            notes.push("the document names no SoC: its own table row's is used".into());
            c.entries[i].soc.clone()
        }
        (None, _) => {
            let by_name = cols.device.as_deref().and_then(|d| soc_of_device(c, d));
            if let Some((soc, row)) = &by_name {
                notes.push(format!(
                    "the document names no SoC: {soc} is that of the table's \"{row}\" (same device name)"
                ));
            }
            by_name.map(|(s, _)| s)
        }
    };
    let trimmed;
    let corpus = match own {
        Some(i) => {
            let mut t = c.clone();
            let e = t.entries.remove(i);
            notes.push(format!(
                "this log is the table's own row \"{}\" (line {}): left out of its placement",
                e.device, e.line
            ));
            trimmed = t;
            &trimmed
        }
        None => c,
    };

    let arch_words = match (&userland, &kernel) {
        (Some(u), Some(k)) if u != k => format!("{u} userland, {k} kernel"),
        (Some(u), _) => format!("{u} userland"),
        (None, Some(k)) => format!("{k} kernel"),
        (None, None) => "architecture unknown".into(),
    };
    let comparison = match class {
        None => format!("not placed: the document names no architecture ({arch_words})"),
        Some(ArchClass::X86) => format!(
            "x86 rows only (this run: {arch_words}); the page keeps its x86 rows as comparison numbers, ARM and RISC-V rows are not ranked with them"
        ),
        Some(cl) => format!(
            "{} rows only (this run: {arch_words}); other architectures are never ranked with them",
            cl.name()
        ),
    };
    if let (Some(u), Some(k)) = (&userland, &kernel)
        && is_32bit_arch(u)
        && is_64bit_arch(k)
    {
        notes.push(format!(
            "32-bit userland ({u}) on a 64-bit kernel ({k}): most same-SoC rows are 64-bit, 7-Zip and AES differ with the userland"
        ));
    }

    let flags = headline::comparability::of_document(doc);
    let zip = sevenzip(doc);
    let mut figures = Vec::new();
    if let Some(class) = class {
        for f in HFigure::ALL {
            let Some(v) = f.of(&cols.headline).filter(|v| v.is_finite() && *v > 0.0) else {
                continue;
            };
            let mut why = flags
                .iter()
                .find(|x| x.figure == f.name() && !x.comparable_with_sbc_bench)
                .map(|x| x.how.clone());
            if why.is_none()
                && matches!(f, HFigure::ZipMulti | HFigure::ZipSingle)
                && let Some((ver, true)) = &zip
            {
                why = Some(format!(
                    "7-Zip {ver}: sbc-bench's table was measured with 7-Zip 16.02 and newer versions score differently"
                ));
            }
            let placement = place_with(
                corpus,
                to_corpus(f),
                v,
                soc.as_deref(),
                class,
                PlaceOptions::default(),
            );
            figures.push(RunFigure {
                placement,
                not_comparable: why,
            });
        }
    }
    RunPlacement {
        source: c.source.clone(),
        date: c.date.clone(),
        soc,
        class,
        comparison,
        notes,
        figures,
    }
}

impl RunFigure {
    /// The placement's line with the not-comparable mark in front.
    pub fn line(&self) -> String {
        let line = self.placement.line();
        match &self.not_comparable {
            Some(why) => format!("(not comparable: {why}) {line}"),
            None => line,
        }
    }
    /// Short: "7-Zip single 3rd of 180 (top 2 %)", marked when not comparable.
    pub fn short(&self) -> String {
        let p = &self.placement;
        let mut s = format!("{} ", p.figure.label());
        match p.all {
            Some(r) => s += &format!("{} of {}", ordinal(r.rank), r.of),
            None => s += "no row",
        }
        if let Some(soc) = &p.same_soc {
            s += &format!(", {:.0} % of its SoC's median", soc.percent_of_median);
        }
        if self.not_comparable.is_some() {
            s += " (not comparable)";
        }
        s
    }
}

impl RunPlacement {
    /// "sbc-bench v0.9.72 Results.md (…), 2026-06-19"
    pub fn provenance(&self) -> String {
        format!("{}, {}", self.source, self.date)
    }

    /// The figure whose placement leads (7-Zip multi, else the first the run has).
    pub fn lead(&self) -> Option<&RunFigure> {
        self.figures
            .iter()
            .find(|f| f.placement.figure == Figure::SevenZipMulti)
            .or(self.figures.first())
    }

    /// One or two lines for the end of a run: the lead figure in full, then the others short
    /// with the corpus's source, date and licence. Empty when nothing is placed.
    pub fn terminal_lines(&self) -> Vec<String> {
        let Some(lead) = self.lead() else {
            return Vec::new();
        };
        let mut first = lead.line();
        if self.class == Some(ArchClass::X86) {
            first += " — x86 rows only";
        }
        let others: Vec<String> = self
            .figures
            .iter()
            .filter(|f| f.placement.figure != lead.placement.figure)
            .map(RunFigure::short)
            .collect();
        let mut second = String::new();
        if !others.is_empty() {
            second = format!("{}; ", others.join(", "));
        }
        second += &format!(
            "among {} rows of {} ({LICENSE_LINE})",
            self.class.map_or("no", ArchClass::name),
            self.provenance()
        );
        vec![first, second]
    }

    /// Every line: what the comparison is, the notes, one line per figure, the nearest rows,
    /// the source and the licence (`results show`).
    pub fn lines(&self) -> Vec<String> {
        let mut out = vec![format!("compared with: {}", self.comparison)];
        for n in &self.notes {
            out.push(format!("note: {n}"));
        }
        for f in &self.figures {
            out.push(f.line());
            let p = &f.placement;
            let near = |n: &Option<crate::Neighbour>, word: &str| {
                n.as_ref()
                    .map(|n| format!("{word} {} ({})", n.device, number(n.value)))
            };
            let near: Vec<String> = [near(&p.above, "above:"), near(&p.below, "below:")]
                .into_iter()
                .flatten()
                .collect();
            if !near.is_empty() {
                out.push(format!("    {}", near.join("; ")));
            }
        }
        out.push(format!("corpus: {} ({LICENSE_LINE})", self.provenance()));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arch_classes_and_versions() {
        assert_eq!(class_of_arch("aarch64"), Some(ArchClass::Arm));
        assert_eq!(class_of_arch("armhf"), Some(ArchClass::Arm));
        assert_eq!(class_of_arch("amd64"), Some(ArchClass::X86));
        assert_eq!(class_of_arch("riscv64"), Some(ArchClass::RiscV));
        assert_eq!(class_of_arch("sparc64"), None);
        assert!(is_32bit_arch("armhf") && is_32bit_arch("armv7l") && !is_32bit_arch("arm64"));
        assert!(version_above("23.01", (16, 2)) && !version_above("16.02", (16, 2)));
        assert!(!version_above("9.20", (16, 2)));
    }
}
