//! The reference corpus: the rows of sbc-bench's published results table (Results.md of
//! sbc-bench v0.9.72, BSD-3-Clause, notice in [`LICENSE`]) as typed entries, and the placement
//! of a figure among them. Pure: no I/O, no network; the table is compiled in and parsed at
//! first use.
//!
//! Every use shows [`SOURCE`] and [`DATE`] (a [`Corpus`] carries them; [`Placement`] too).

use serde::Serialize;
use std::sync::OnceLock;

pub mod local;
mod parse;
mod place;
pub mod run;
mod soc;

pub use local::{LocalLayer, LocalRun};
pub use parse::{ParseError, RowError};
pub use place::{Neighbour, PlaceOptions, Placement, Rank, SocStats, place, place_with};
pub use run::{LICENSE_LINE, RunFigure, RunPlacement, place_run, shown, terminal_lines};
pub use soc::{SOC_ALIASES, known_soc, normalise_soc};

/// Where the built-in rows come from.
pub const SOURCE: &str =
    "sbc-bench v0.9.72 Results.md (github.com/ThomasKaiser/sbc-bench, commit 53f7951)";
/// The date of that sbc-bench commit: the corpus's date.
pub const DATE: &str = "2026-06-19";
/// The source of a corpus parsed from text whose origin was not given.
pub const UNKNOWN_SOURCE: &str = "sbc-bench Results.md (source not given)";
/// Its date.
pub const UNKNOWN_DATE: &str = "date unknown";
/// sbc-bench's licence notice, which travels with the data.
pub const LICENSE: &str = include_str!("../data/LICENSE.sbc-bench");
/// The page itself (table, footnotes, explanations), as published.
pub const RESULTS_MD: &str = include_str!("../data/sbc-bench-results.md");

/// The six headline figures of the table. Higher is better for all of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Figure {
    /// 7-Zip MIPS, multi-threaded (average of 3 `7z b`).
    SevenZipMulti,
    /// 7-Zip MIPS, single-threaded, fastest core.
    SevenZipSingle,
    /// `openssl speed -elapsed -evp aes-256-cbc`, 16 KiB blocks, k bytes/s.
    Aes256,
    /// tinymembench memcpy, MB/s.
    Memcpy,
    /// tinymembench memset, MB/s.
    Memset,
    /// cpuminer kH/s, multi-threaded.
    Cpuminer,
}

impl Figure {
    pub const ALL: [Figure; 6] = [
        Figure::SevenZipMulti,
        Figure::SevenZipSingle,
        Figure::Aes256,
        Figure::Memcpy,
        Figure::Memset,
        Figure::Cpuminer,
    ];
    pub fn index(self) -> usize {
        Figure::ALL.iter().position(|f| *f == self).unwrap_or(0)
    }
    /// The table's column heading.
    pub fn column(self) -> &'static str {
        [
            "7-zip multi",
            "7-zip single",
            "AES",
            "memcpy",
            "memset",
            "kH/s",
        ][self.index()]
    }
    pub fn label(self) -> &'static str {
        [
            "7-Zip multi",
            "7-Zip single",
            "AES-256 16 KiB",
            "memcpy",
            "memset",
            "cpuminer",
        ][self.index()]
    }
    pub fn unit(self) -> &'static str {
        ["MIPS", "MIPS", "kB/s", "MB/s", "MB/s", "kH/s"][self.index()]
    }
}

/// The userland architecture a row names in its distro cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Arch {
    Armhf,
    /// Also the table's "aarch64" and "arm-64".
    Arm64,
    /// The table's "amd64".
    X86_64,
    I386,
    Riscv64,
    Loongarch64,
}

impl Arch {
    pub fn class(self) -> ArchClass {
        match self {
            Arch::Armhf | Arch::Arm64 => ArchClass::Arm,
            Arch::X86_64 | Arch::I386 => ArchClass::X86,
            Arch::Riscv64 => ArchClass::RiscV,
            Arch::Loongarch64 => ArchClass::LoongArch,
        }
    }
}

/// The class a figure is ranked in: rows are only ranked against rows of the same class (the
/// page calls x86 numbers "meant as comparison", and says RISC-V OpenSSL is generic C).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum ArchClass {
    Arm,
    RiscV,
    X86,
    LoongArch,
}

impl ArchClass {
    pub fn name(self) -> &'static str {
        match self {
            ArchClass::Arm => "ARM",
            ArchClass::RiscV => "RISC-V",
            ArchClass::X86 => "x86",
            ArchClass::LoongArch => "LoongArch",
        }
    }
}

/// A caveat on a row, from the page.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Mark {
    /// A cell in bold. The page puts the userland in bold where it differs from the usual
    /// (Xenial/Jessie, Fedora, an armhf or arm64 userland where the other is usual); see
    /// [`BOLD_NOTE`]. The row stays comparable.
    Bold { column: String, text: String },
    /// A footnote reference in a figure cell, e.g. Helios4's AES "42500 &ast;98560": the
    /// figure keeps the first number, the footnoted one is here with the footnote's text.
    Footnote {
        figure: Figure,
        value: Option<f64>,
        marker: String,
        text: String,
    },
    /// The page calls the numbers preliminary (RK358x, A311D2, RISC-V, Apple M1 Pro).
    Preliminary { note: String },
    /// The page says the row's figures do not represent the hardware at its settings
    /// (undervoltage, overclocking, virtualisation). Excluded from placement by default.
    NotComparable { reason: String },
    /// A row of the local layer (`boardbench corpus update` with a results database or the
    /// service's export): one of the user's own runs, never one of the published rows.
    Local { origin: String },
}

/// What the bold mark means (the page gives no legend; this is what the bold cells have in common).
pub const BOLD_NOTE: &str = "the page highlights this userland: figures depend on distro, compiler and 32/64-bit userland (see its Insights)";

/// One row of the table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Entry {
    /// 1-based line of the row in the page.
    pub line: usize,
    /// The device cell's text, `<br />` as a space, link removed.
    pub device: String,
    /// The linked log, e.g. "results/87lq.txt".
    pub log: Option<String>,
    /// The SoC as the table spells it (parenthesised, or the device name where that is the SoC).
    pub soc_table: Option<String>,
    /// The SoC's name in the SoC catalogue ([`document::socs`]); `None` where the catalogue
    /// does not know the table's spelling (such a row is in no same-SoC group).
    pub soc: Option<String>,
    /// The row's core count: the SoC's fixed layout, else what the device name says (Ampere
    /// SKU, cloud instance); `None` where neither says.
    pub cores: Option<u32>,
    /// The clock cell as written ("2400/1800 MHz", "UV/normal").
    pub clock_text: String,
    /// Clocks in MHz per cluster, in the order written (usually the big cluster first; ODROID-N2
    /// writes "1800/1900"); empty where the cell has none ("normal", "UV/normal" …).
    pub clocks_mhz: Vec<u32>,
    pub kernel: String,
    /// The distro cell without bold markers.
    pub distro: String,
    pub arch: Option<Arch>,
    pub class: ArchClass,
    /// Indexed by [`Figure::index`]; `None` where the table has "-".
    pub figures: [Option<f64>; 6],
    pub marks: Vec<Mark>,
}

impl Entry {
    pub fn figure(&self, f: Figure) -> Option<f64> {
        self.figures[f.index()]
    }
    pub fn comparable(&self) -> bool {
        !self
            .marks
            .iter()
            .any(|m| matches!(m, Mark::NotComparable { .. }))
    }
    /// A row of the local layer ([`Mark::Local`]), not a published one.
    pub fn local(&self) -> bool {
        self.marks.iter().any(|m| matches!(m, Mark::Local { .. }))
    }
    pub fn bold(&self) -> bool {
        self.marks.iter().any(|m| matches!(m, Mark::Bold { .. }))
    }
    /// The row's identity for [`diff`]: the log link, or the device and clock.
    pub fn key(&self) -> String {
        match &self.log {
            Some(l) => l.clone(),
            None => format!("{} @ {}", self.device, self.clock_text),
        }
    }
}

/// The parsed table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Corpus {
    pub source: String,
    pub date: String,
    pub entries: Vec<Entry>,
}

impl Corpus {
    /// Parse a Results.md page (a newer one, for `boardbench corpus update FILE`). Every table
    /// row must parse; otherwise the error lists each row that did not, with the reason. The
    /// source and date are [`UNKNOWN_SOURCE`] / [`UNKNOWN_DATE`] until [`Corpus::with_provenance`]
    /// says where the text came from (the page itself carries neither).
    pub fn from_markdown(text: &str) -> Result<Corpus, ParseError> {
        let entries = parse::parse(text)?;
        Ok(Corpus {
            source: UNKNOWN_SOURCE.to_string(),
            date: UNKNOWN_DATE.to_string(),
            entries,
        })
    }
    /// Name the corpus's source (e.g. the file and sbc-bench version) and date.
    pub fn with_provenance(mut self, source: &str, date: &str) -> Corpus {
        self.source = source.to_string();
        self.date = date.to_string();
        self
    }
    /// "sbc-bench v0.9.72 Results.md (…), 2026-06-19": to show with every use.
    pub fn provenance(&self) -> String {
        format!("{}, {}", self.source, self.date)
    }
    /// The rows of a SoC, by any spelling the SoC catalogue knows ("Cix P1", "RK3588s",
    /// "BCM2711B0"); a spelling it does not know matches the rows whose table cell is written
    /// that way (case aside).
    pub fn by_soc<'a>(&'a self, soc: &'a str) -> impl Iterator<Item = &'a Entry> + 'a {
        let known = known_soc(soc);
        let written = soc.trim().to_ascii_lowercase();
        self.entries.iter().filter(move |e| match &known {
            Some(k) => e.soc.as_deref() == Some(k.as_str()),
            None => e
                .soc_table
                .as_deref()
                .is_some_and(|t| t.to_ascii_lowercase() == written),
        })
    }
}

/// The built-in corpus, parsed at first use.
pub fn corpus() -> &'static Corpus {
    static C: OnceLock<Corpus> = OnceLock::new();
    C.get_or_init(|| {
        Corpus::from_markdown(RESULTS_MD)
            .expect("the built-in Results.md parses (tested)")
            .with_provenance(SOURCE, DATE)
    })
}

/// A row present in both corpora whose content differs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Changed {
    pub key: String,
    pub old: Entry,
    pub new: Entry,
    /// Which fields differ ("7-Zip multi", "kernel", "marks" …).
    pub fields: Vec<String>,
}

/// What changed between two corpora, rows matched by [`Entry::key`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Diff {
    pub added: Vec<Entry>,
    pub removed: Vec<Entry>,
    pub changed: Vec<Changed>,
    pub unchanged: usize,
}

impl Diff {
    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.removed.is_empty() && self.changed.is_empty()
    }
}

pub fn diff(old: &Corpus, new: &Corpus) -> Diff {
    use std::collections::HashMap;
    // Keys may repeat (the same log linked twice); pair them up in order.
    let mut old_by: HashMap<String, Vec<&Entry>> = HashMap::new();
    for e in &old.entries {
        old_by.entry(e.key()).or_default().push(e);
    }
    for v in old_by.values_mut() {
        v.reverse();
    }
    let mut d = Diff {
        added: vec![],
        removed: vec![],
        changed: vec![],
        unchanged: 0,
    };
    for n in &new.entries {
        match old_by.get_mut(&n.key()).and_then(|v| v.pop()) {
            None => d.added.push(n.clone()),
            Some(o) => {
                let fields = changed_fields(o, n);
                if fields.is_empty() {
                    d.unchanged += 1;
                } else {
                    d.changed.push(Changed {
                        key: n.key(),
                        old: o.clone(),
                        new: n.clone(),
                        fields,
                    });
                }
            }
        }
    }
    for e in &old.entries {
        if let Some(v) = old_by.get_mut(&e.key())
            && let Some(o) = v.pop()
        {
            d.removed.push(o.clone());
        }
    }
    d
}

fn changed_fields(o: &Entry, n: &Entry) -> Vec<String> {
    let mut f = vec![];
    let mut check = |name: &str, differs: bool| {
        if differs {
            f.push(name.to_string());
        }
    };
    check("device", o.device != n.device);
    check("SoC", o.soc != n.soc);
    check("clock", o.clock_text != n.clock_text);
    check("kernel", o.kernel != n.kernel);
    check("distro", o.distro != n.distro);
    for fig in Figure::ALL {
        check(fig.label(), o.figure(fig) != n.figure(fig));
    }
    check("marks", o.marks != n.marks);
    f
}
