//! Every section of the guide, in the order the guide prints them. A section is a function
//! from the [`Context`] to an [`Outcome`]; adding one is a module and a line here.

use document::guide::GuideTable;

use crate::Context;

/// What a section returns.
#[derive(Debug, Default)]
pub struct Outcome {
    pub tables: Vec<GuideTable>,
    pub notes: Vec<String>,
    /// The external tool and its version, where one was used.
    pub tool: Option<String>,
    /// Set when the section did not run at all (missing tool, device or option), with the reason.
    pub skipped: Option<String>,
    /// Set when it started but could not finish; the tables hold what was measured.
    pub failed: Option<String>,
}

impl Outcome {
    pub fn skipped(reason: impl Into<String>) -> Self {
        Outcome {
            skipped: Some(reason.into()),
            ..Default::default()
        }
    }
}

pub struct SectionDef {
    /// The `--sections` name.
    pub name: &'static str,
    /// The guide's heading for it.
    pub title: &'static str,
    /// Run by `guide --quick` too.
    pub quick: bool,
    /// Run when `--sections` is not given (I/O sections need their options and are named).
    pub default: bool,
    pub run: fn(&Context) -> Outcome,
}

/// All sections, in the guide's order.
pub fn all() -> Vec<SectionDef> {
    vec![
        SectionDef {
            name: "lmbench",
            title: crate::lmbench::TITLE,
            quick: true,
            default: true,
            run: crate::lmbench::run,
        },
        SectionDef {
            name: "dhrystone",
            title: "Dhrystone Benchmarks",
            quick: true,
            default: true,
            run: crate::dhrystone::section,
        },
        SectionDef {
            name: "whetstone",
            title: "Whetstone Benchmarks",
            quick: true,
            default: true,
            run: crate::whetstone::section,
        },
        SectionDef {
            name: "linpack",
            title: "Linpack Benchmarks",
            quick: true,
            default: true,
            run: crate::linpack::section,
        },
        SectionDef {
            name: "nbench",
            title: "NBench Benchmarks",
            quick: false,
            default: true,
            run: crate::nbench::section,
        },
        SectionDef {
            name: "stream",
            title: "Stream Benchmarks",
            quick: true,
            default: true,
            run: crate::stream::section,
        },
        SectionDef {
            name: "coremark",
            title: "CoreMark Benchmarks",
            quick: true,
            default: true,
            run: crate::coremark::section,
        },
        SectionDef {
            name: "coremark-pro",
            title: "CoreMarkPro Benchmarks",
            quick: false,
            default: true,
            run: crate::coremark_pro::section,
        },
        SectionDef {
            name: "multibench",
            title: crate::multibench::TITLE,
            quick: false,
            default: true,
            run: crate::multibench::section,
        },
        SectionDef {
            name: "openssl",
            title: "OpenSSL Performance",
            quick: true,
            default: true,
            run: crate::openssl::section,
        },
        SectionDef {
            name: "storage",
            title: "Storage (fio)",
            quick: false,
            default: false,
            run: crate::storage::section,
        },
        SectionDef {
            name: "network",
            title: "Network (iperf3)",
            quick: false,
            default: false,
            run: crate::network::section,
        },
        SectionDef {
            name: "boot",
            title: "Boot time",
            quick: true,
            default: true,
            run: crate::boot::section,
        },
        SectionDef {
            name: "kcrypto",
            title: "Kernel crypto",
            quick: true,
            default: true,
            run: crate::kcrypto::section,
        },
        SectionDef {
            name: "ipsec",
            title: "IPSec Software Performance",
            quick: false,
            default: false,
            run: crate::ipsec::section,
        },
        SectionDef {
            name: "audio",
            title: "Audio",
            quick: false,
            default: false,
            run: crate::audio::section,
        },
    ]
}

/// The section called `name`.
pub fn find(name: &str) -> Option<SectionDef> {
    all().into_iter().find(|s| s.name == name)
}
