//! A result document placed among the corpus's rows: every headline figure of the run (native
//! or an imported sbc-bench log), with the comparability rules of issue 24. Pure: reads the
//! typed document through `headline` only.
//!
//! - The class a run is ranked in comes from its userland (or kernel) architecture; without
//!   one it is not placed. x86 runs are ranked among the table's x86 rows only, and
//!   [`RunPlacement::comparison`] says so ("the page keeps x86 rows as comparison numbers").
//! - Figures the document marks not comparable with sbc-bench (a quick run's, 7-Zip other than
//!   16.02 …) are still placed, but each carries [`RunFigure::not_comparable`] and every line
//!   shows it.
//! - An imported log that is itself a row of the table (its file name is a row's log, letter
//!   case aside) is placed among the others: its own row is left out and
//!   [`RunPlacement::notes`] says so; a row the page marks not comparable marks every figure.
//! - The SoC is [`soc_of_document`]'s (the SoC catalogue, `document::socs`); the same-SoC group
//!   is also the run's core count.

use document::ResultDocument;
use document::analysis::{PlacedFigure, PlacementRecord, SocGroupRecord};
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
    /// The run's core count the same-SoC groups were held to.
    pub cores: Option<u32>,
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
/// any version but 16.02, the version sbc-bench's table was measured with — 9.20 of old
/// distributions scores differently as much as 23.01 does).
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
    let other = version_of(&v) != (16, 2);
    Some((v, other))
}

/// "9.20" → (9, 20); "16.02" → (16, 2).
fn version_of(v: &str) -> (u32, u32) {
    let mut it = v
        .trim()
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse::<u32>().unwrap_or(0));
    (it.next().unwrap_or(0), it.next().unwrap_or(0))
}

/// The file name of an imported log ("1iZq.txt"): the table row it is, when a row links it.
pub fn own_log(doc: &ResultDocument) -> Option<String> {
    let src = &doc.imported.as_ref()?.source;
    let name = src.rsplit(['/', '\\']).next()?.to_string();
    (!name.is_empty()).then_some(name)
}

/// A SoC guess line ("Rockchip RK3576 (35760000 / …)", "Amlogic Meson G12B (S922X) …",
/// "Allwinner H616/H313", "Nvidia Jetson Orin NX") as the SoC catalogue names it; `None` for a
/// guess the catalogue does not know or an ambiguous one ("one of: …"): an unknown guess never
/// becomes a name of its own.
pub fn soc_of_guess(_c: &Corpus, guess: &str) -> Option<String> {
    crate::known_soc(guess)
}

/// The run's SoC and how it was found.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SocFound {
    /// The catalogue's name; `None` when nothing in the document names a SoC it knows.
    pub soc: Option<String>,
    /// Where the name came from when not from the document's own SoC guess, or "SoC not known:
    /// …" when there is none.
    pub note: Option<String>,
}

/// The table row an imported log is (its file name is the row's log): the exact name first,
/// then without regard to letter case (the table links "1ixI" for "1ixi.txt").
pub fn own_row(c: &Corpus, doc: &ResultDocument) -> Option<usize> {
    let name = own_log(doc)?;
    let tail = format!("/{name}");
    c.entries
        .iter()
        .position(|e| e.log.as_deref().is_some_and(|l| l.ends_with(&tail)))
        .or_else(|| {
            let tail = tail.to_ascii_lowercase();
            c.entries.iter().position(|e| {
                e.log
                    .as_deref()
                    .is_some_and(|l| l.to_ascii_lowercase().ends_with(&tail))
            })
        })
}

/// The run's core count (an imported log's iostat header, a native run's CPU list).
pub fn cores_of(doc: &ResultDocument) -> Option<u32> {
    if let Some(n) = doc.imported.as_ref().and_then(|i| i.cpu_count) {
        return Some(n);
    }
    let cpus = &doc.machine.as_ref()?.cpus;
    let n = if cpus.present.is_empty() {
        cpus.online.len()
    } else {
        cpus.present.len()
    };
    (n > 0).then_some(n as u32)
}

/// The SoC of a document, in this order of trust: its own SoC guess (the probe's, or the log's
/// `SoC guess:` line) when the catalogue knows it; the log's own table row; the device name
/// (a board the catalogue knows, a SoC named in it, the table's rows of the same device); a
/// SoC model in the kernel release ("4.4.138-rk3328"); a Raspberry Pi kernel with the cores it
/// ran on; an x86 CPU model name. A guess the catalogue does not know never beats any of these;
/// with none, the note says "SoC not known: …".
pub fn soc_of_document(c: &Corpus, doc: &ResultDocument) -> SocFound {
    let cols = headline::columns::columns(doc);
    let guess = cols.soc.as_deref().map(str::trim).filter(|g| !g.is_empty());
    if let Some(s) = guess.and_then(crate::known_soc) {
        return SocFound {
            soc: Some(s),
            note: None,
        };
    }
    let unknown_guess =
        guess.map(|g| format!("its SoC guess \"{g}\" is not in boardbench's SoC catalogue"));
    let found = |soc: String, how: String| SocFound {
        note: Some(match &unknown_guess {
            Some(u) => format!("{u}; {soc} is {how}"),
            None => format!("the document names no SoC: {soc} is {how}"),
        }),
        soc: Some(soc),
    };
    if let Some(i) = own_row(c, doc)
        && let Some(s) = &c.entries[i].soc
    {
        return found(s.clone(), "its own table row's".into());
    }
    let device = cols
        .device
        .as_deref()
        .map(str::trim)
        .filter(|d| !d.is_empty());
    if let Some(d) = device {
        // "RPi 4 Model B Rev 1.4 / BCM2711 rev B0", "Dell Inspiron / Atom(TM) N270": each part.
        for part in std::iter::once(d).chain(d.split(" / ").map(str::trim)) {
            if let Some(s) = document::socs::of_board(part)
                .or_else(|| document::socs::of_guess(part))
                .or_else(|| document::socs::lookup_prefix(part))
            {
                return found(s.name.to_string(), format!("named by the device \"{d}\""));
            }
        }
        if let Some((soc, row)) = soc_of_device(c, d) {
            return found(
                soc,
                format!("that of the table's \"{row}\" (same device name)"),
            );
        }
    }
    let imp = doc.imported.as_ref();
    if let Some(release) = imp.and_then(|i| i.kernel_release.as_deref()) {
        for tok in release.split(['-', '.', '+', '_']) {
            if tok.len() >= 5
                && tok.chars().any(|c| c.is_ascii_digit())
                && tok.chars().any(|c| c.is_ascii_alphabetic())
                && let Some(s) = document::socs::lookup(tok)
            {
                return found(
                    s.name.to_string(),
                    format!("named by the kernel release \"{release}\""),
                );
            }
        }
        if let Some(s) = raspberry_pi_kernel(release, doc) {
            return found(
                s.to_string(),
                format!("a Raspberry Pi's for the kernel \"{release}\" and its cores"),
            );
        }
    }
    if let Some(i) = imp
        && let Some(s) = document::socs::of_cores(&i.core_types, i.cpu_count)
    {
        return found(
            s.name.to_string(),
            format!("the one its cores ({}) single out", i.core_types.join(", ")),
        );
    }
    // x86: the CPU model name is the chip.
    let (userland, kernel) = arches(doc);
    let x86 = userland.or(kernel).and_then(|a| class_of_arch(&a)) == Some(ArchClass::X86);
    if x86 {
        let models = imp.map(|i| i.core_types.clone()).unwrap_or_default();
        let tail = device
            .and_then(|d| d.rsplit('/').next())
            .map(|t| t.trim().to_string());
        for m in models.iter().chain(tail.iter()) {
            if let Some(s) = document::socs::x86_model(m) {
                return found(s, format!("its CPU model \"{}\"", m.trim()));
            }
        }
    }
    let what = match (&unknown_guess, device) {
        (Some(u), _) => u.clone(),
        (None, Some(d)) => format!(
            "the document names no SoC and its device \"{d}\" is no board boardbench's SoC catalogue knows"
        ),
        (None, None) => "the document names neither a SoC nor a device".into(),
    };
    SocFound {
        soc: None,
        note: Some(format!("SoC not known: {what}; no same-SoC comparison")),
    }
}

/// A Raspberry Pi kernel ("4.14.50-v7+", "5.10.63-v8+", "6.6.31+rpt-rpi-2712") and the log's
/// cores: the Pi's SoC.
fn raspberry_pi_kernel(release: &str, doc: &ResultDocument) -> Option<&'static str> {
    let r = release.to_ascii_lowercase();
    let rpi = r.ends_with("-v7+")
        || r.ends_with("-v7l+")
        || r.ends_with("-v8+")
        || r.ends_with("-v6+")
        || r.contains("-v8-16k")
        || r.contains("rpt-rpi")
        || r.contains("-rpi-");
    if !rpi {
        return None;
    }
    let imp = doc.imported.as_ref()?;
    let types = imp.core_types.join(" ").to_ascii_lowercase();
    let max_mhz = imp
        .clock_checks
        .iter()
        .flat_map(|c| c.rows.iter())
        .filter_map(|r| r.opp_mhz)
        .max()
        .unwrap_or(0);
    if types.contains("cortex-a76") {
        Some("Broadcom BCM2712")
    } else if types.contains("cortex-a72") {
        Some("Broadcom BCM2711")
    } else if types.contains("cortex-a53") || types.contains("armv7 processor rev 4") {
        // The Zero 2 (RP3A0) runs at 1 GHz; the Pi 3 at 1.2 or 1.4.
        (max_mhz > 1000).then_some("Broadcom BCM2837")
    } else if types.contains("cortex-a7") || types.contains("armv7 processor rev 5") {
        Some("Broadcom BCM2836")
    } else {
        None
    }
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

    let own = own_row(c, doc);
    let found = soc_of_document(c, doc);
    notes.extend(found.note.clone());
    let soc = found.soc.clone();
    let cores = cores_of(doc);
    let trimmed;
    let mut own_not_comparable: Option<String> = None;
    let corpus = match own {
        Some(i) => {
            let mut t = c.clone();
            let e = t.entries.remove(i);
            notes.push(format!(
                "this log is the table's own row \"{}\" (line {}): left out of its placement",
                e.device, e.line
            ));
            for m in &e.marks {
                if let crate::Mark::NotComparable { reason } = m {
                    own_not_comparable = Some(format!(
                        "the table marks this log's own row not comparable: {reason}"
                    ));
                    notes.push(format!(
                        "the table marks this log's own row not comparable: {reason}"
                    ));
                }
            }
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
                    "7-Zip {ver}: sbc-bench's table was measured with 7-Zip 16.02 and other versions score differently"
                ));
            }
            if why.is_none() {
                why.clone_from(&own_not_comparable);
            }
            let placement = place_with(
                corpus,
                to_corpus(f),
                v,
                soc.as_deref(),
                class,
                PlaceOptions {
                    cores,
                    ..PlaceOptions::default()
                },
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
        cores,
    }
}

/// The placement a reader shows: the one the finisher stored in the document
/// (`analysis.placement`), or — for a document stored before the finisher recorded figures, or
/// never finished — the document placed in `c` now.
pub fn shown(c: &Corpus, doc: &ResultDocument) -> PlacementRecord {
    match doc.analysis.as_ref().and_then(|a| a.placement.as_ref()) {
        Some(p) if p.figures.is_some() => p.clone(),
        _ => place_run(c, doc).record(),
    }
}

/// A stored figure's [`Figure`] (by the table's column heading).
pub fn figure_of(f: &PlacedFigure) -> Option<Figure> {
    Figure::ALL.into_iter().find(|x| x.column() == f.figure)
}

/// One or two lines for the end of a run: the lead figure (7-Zip multi, else the first placed)
/// in full, then the others short with the corpus's source, date and licence. Empty when
/// nothing is placed.
pub fn terminal_lines(p: &PlacementRecord) -> Vec<String> {
    let figures = p.figures.as_deref().unwrap_or_default();
    let Some(lead) = figures
        .iter()
        .find(|f| figure_of(f) == Some(Figure::SevenZipMulti))
        .or(figures.first())
    else {
        return Vec::new();
    };
    let mut first = lead.line.clone();
    if p.class.as_deref() == Some(ArchClass::X86.name()) {
        first += " — x86 rows only";
    }
    let others: Vec<&str> = figures
        .iter()
        .filter(|f| f.figure != lead.figure)
        .map(|f| f.short.as_str())
        .collect();
    let mut second = String::new();
    if !others.is_empty() {
        second = format!("{}; ", others.join(", "));
    }
    second += &format!(
        "among {} rows of {} ({LICENSE_LINE})",
        p.class.as_deref().unwrap_or("no"),
        p.corpus
    );
    vec![first, second]
}

impl RunFigure {
    /// The figure as stored.
    pub fn record(&self) -> PlacedFigure {
        let p = &self.placement;
        PlacedFigure {
            figure: p.figure.column().to_string(),
            value: p.value,
            rank: p.all.map(|r| r.rank),
            of: p.all.map(|r| r.of),
            same_soc: p.same_soc.as_ref().map(|s| SocGroupRecord {
                group: s.group.clone(),
                count: s.count,
                median: s.median,
                min: s.min,
                max: s.max,
                percent_of_median: s.percent_of_median,
            }),
            not_comparable: self.not_comparable.clone(),
            line: self.line(),
            short: self.short(),
        }
    }
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
            Some(r) if r.rank > r.of => s += &format!("below all {}", r.of),
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

    /// The terminal summary's lines ([`terminal_lines`] of [`RunPlacement::record`]).
    pub fn terminal_lines(&self) -> Vec<String> {
        terminal_lines(&self.record())
    }

    /// The placement as the finisher stores it (`analysis.placement`).
    pub fn record(&self) -> PlacementRecord {
        PlacementRecord {
            soc: self.soc.clone(),
            class: self.class.map(|c| c.name().to_string()),
            corpus: self.provenance(),
            lines: self.lines(),
            cores: self.cores,
            comparison: self.comparison.clone(),
            notes: self.notes.clone(),
            figures: Some(self.figures.iter().map(RunFigure::record).collect()),
        }
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
        assert_eq!(version_of("23.01"), (23, 1));
        assert_eq!(version_of("16.02"), (16, 2));
        assert_eq!(version_of("9.20"), (9, 20));
    }
}
