//! The local layer: a user's own runs (a boardbench results database, or the results
//! service's table export) kept beside the published rows by `boardbench corpus update`, never
//! mixed into them. Each row is an [`Entry`] carrying [`Mark::Local`] (where it comes from);
//! placements and the `outlier` finding use the published rows only, `corpus show` lists the
//! layer on its own. Pure: the I/O is `resultsdb::corpus_store`'s.

use serde::{Deserialize, Serialize};

use crate::run::{class_of_arch, soc_of_guess};
use crate::{Arch, ArchClass, Corpus, Entry, Figure, Mark};

/// One run of the user's, as a database or the service's table export lists it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LocalRun {
    /// The run's identity in its source: "run 12" (the database's or the service's id).
    pub key: String,
    pub device: Option<String>,
    /// The SoC as the run names it (the probe's guess, or an imported log's).
    pub soc: Option<String>,
    pub clock: Option<String>,
    pub kernel: Option<String>,
    pub distro: Option<String>,
    /// The userland (or kernel) architecture, when the source names it.
    pub arch: Option<String>,
    /// Indexed by [`Figure::index`].
    pub figures: [Option<f64>; 6],
    /// Which figures are not measured the way sbc-bench measures them ("quick: 7-zip multi,
    /// AES"); empty when all are.
    #[serde(default)]
    pub not_comparable: String,
}

/// A set of local runs and where they were read from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LocalLayer {
    /// "results database /home/me/results.sqlite", "service export table.json".
    pub source: String,
    pub date: String,
    pub runs: Vec<LocalRun>,
}

impl LocalRun {
    /// The class the run belongs to: its architecture, else an architecture word in its distro
    /// cell, else the class of the published rows of its SoC. `None` when nothing says.
    pub fn class(&self, published: &Corpus) -> Option<ArchClass> {
        if let Some(c) = self.arch.as_deref().and_then(class_of_arch) {
            return Some(c);
        }
        if let Some(c) = self.distro.as_deref().and_then(|d| {
            d.split(|c: char| c.is_whitespace() || c == '/' || c == ')' || c == '(')
                .filter_map(arch_of)
                .map(Arch::class)
                .next_back()
        }) {
            return Some(c);
        }
        let soc = self.soc_name(published)?;
        published
            .entries
            .iter()
            .find(|e| e.soc.as_deref() == Some(soc.as_str()))
            .map(|e| e.class)
    }

    /// The SoC as the corpus names it: the run's own SoC, else (older sbc-bench logs name
    /// none) the SoC of the published rows whose device name ends the run's, when they agree
    /// ([`crate::run::soc_of_device`], as placement does).
    pub fn soc_name(&self, published: &Corpus) -> Option<String> {
        self.soc
            .as_deref()
            .and_then(|s| soc_of_guess(published, s))
            .or_else(|| {
                crate::run::soc_of_device(published, self.device.as_deref()?).map(|(s, _)| s)
            })
    }

    /// The row this run is in the local layer: `None` without an architecture class (it could
    /// not be kept apart from the other classes) or without any figure.
    pub fn entry(&self, origin: &str, published: &Corpus) -> Option<Entry> {
        if self.figures.iter().all(Option::is_none) {
            return None;
        }
        let class = self.class(published)?;
        let arch = self.arch.as_deref().and_then(arch_of);
        let soc = self.soc_name(published);
        let mut marks = vec![Mark::Local {
            origin: format!("{origin}, {}", self.key),
        }];
        if !self.not_comparable.is_empty() {
            marks.push(Mark::NotComparable {
                reason: format!(
                    "not measured the way sbc-bench measures ({})",
                    self.not_comparable
                ),
            });
        }
        let clock_text = self.clock.clone().unwrap_or_else(|| "-".into());
        let clocks_mhz = clock_text
            .split(|c: char| !c.is_ascii_digit())
            .filter_map(|s| s.parse::<u32>().ok())
            .filter(|&m| m >= 100)
            .collect();
        Some(Entry {
            line: 0,
            device: self.device.clone().unwrap_or_else(|| "-".into()),
            log: Some(self.key.clone()),
            soc_table: self.soc.clone(),
            cores: crate::parse::row_cores(self.device.as_deref().unwrap_or(""), soc.as_deref()),
            soc,
            clock_text,
            clocks_mhz,
            kernel: self.kernel.clone().unwrap_or_else(|| "-".into()),
            distro: self.distro.clone().unwrap_or_else(|| "-".into()),
            arch,
            class,
            figures: self.figures,
            marks,
        })
    }
}

fn arch_of(a: &str) -> Option<Arch> {
    Some(match a.trim().to_ascii_lowercase().as_str() {
        "armhf" | "armel" | "armv6l" | "armv7l" => Arch::Armhf,
        "arm64" | "aarch64" => Arch::Arm64,
        "amd64" | "x86_64" => Arch::X86_64,
        "i386" | "i686" => Arch::I386,
        "riscv64" => Arch::Riscv64,
        "loongarch64" => Arch::Loongarch64,
        _ => return None,
    })
}

impl LocalLayer {
    /// The layer as a corpus (every row marked [`Mark::Local`]), and the keys of the runs left
    /// out with the reason.
    pub fn corpus(&self, published: &Corpus) -> (Corpus, Vec<(String, &'static str)>) {
        let mut entries = vec![];
        let mut left_out = vec![];
        for r in &self.runs {
            match r.entry(&self.source, published) {
                Some(e) => entries.push(e),
                None if r.figures.iter().all(Option::is_none) => {
                    left_out.push((r.key.clone(), "no headline figure"));
                }
                None => left_out.push((
                    r.key.clone(),
                    "no architecture (none named, SoC not in the published rows)",
                )),
            }
        }
        (
            Corpus {
                source: self.source.clone(),
                date: self.date.clone(),
                entries,
            },
            left_out,
        )
    }
}

/// The figures of a row in the column order of `results table`.
pub fn figures(
    zip_multi: Option<f64>,
    zip_single: Option<f64>,
    aes: Option<f64>,
    memcpy: Option<f64>,
    memset: Option<f64>,
    khs: Option<f64>,
) -> [Option<f64>; 6] {
    let mut f = [None; 6];
    f[Figure::SevenZipMulti.index()] = zip_multi;
    f[Figure::SevenZipSingle.index()] = zip_single;
    f[Figure::Aes256.index()] = aes;
    f[Figure::Memcpy.index()] = memcpy;
    f[Figure::Memset.index()] = memset;
    f[Figure::Cpuminer.index()] = khs;
    f
}
