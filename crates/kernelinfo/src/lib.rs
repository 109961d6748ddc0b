//! Kernel information (`boardbench kernel`, sbc-bench's `-k`): version, build date and
//! configuration, whether the kernel is mainline, a distribution's or a vendor's (BSP), the
//! upstream status of its series from a dated table of kernel.org series (data/series.tsv),
//! how far behind its series' latest point release it is, and a verdict in plain words.
//!
//! Everything but [`read::gather`] is a pure function of its inputs; the current date is a
//! parameter so that tests are deterministic.

pub mod assess;
pub mod buildinfo;
pub mod config;
pub mod origin;
pub mod read;
pub mod table;
pub mod version;

use std::fmt::Write as _;

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

pub use assess::{EolBasis, Level, Status, Upstream};
pub use origin::{Kind, Origin};
pub use table::Table;

/// What the kernel check looks at (read from a machine by [`read::gather`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Input {
    /// `uname -r`.
    pub release: Option<String>,
    /// `uname -v`.
    pub version: Option<String>,
    /// /proc/version.
    pub proc_version: Option<String>,
    /// /proc/version_signature (Ubuntu).
    pub version_signature: Option<String>,
    /// `uname -m`.
    pub arch: Option<String>,
    pub dt_compatible: Vec<String>,
    pub dt_model: Option<String>,
    /// The configuration, already read and parsed.
    pub config: config::Config,
}

/// The result of the check (also the `--json` document).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub release: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arch: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parsed: Option<version::Release>,
    pub build: buildinfo::Build,
    pub config: config::Config,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub origin: Option<Origin>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub upstream: Option<Upstream>,
    pub level: Level,
    pub verdict: String,
    /// The month the series table was last checked against kernel.org.
    pub table_as_of: String,
    /// The date the verdict was made for.
    pub today: String,
}

/// Judges the kernel described by `input` on `today` with the built-in table.
pub fn assess(input: &Input, today: NaiveDate) -> Report {
    assess_with(input, today, Table::builtin())
}

/// [`assess`] with another table (tests, or a newer table file).
pub fn assess_with(input: &Input, today: NaiveDate, table: &Table) -> Report {
    let build = buildinfo::parse(input.version.as_deref(), input.proc_version.as_deref());
    let parsed = input.release.as_deref().and_then(version::parse_release);
    let mut report = Report {
        release: input.release.clone(),
        version: input.version.clone(),
        arch: input.arch.clone(),
        parsed: parsed.clone(),
        build,
        config: input.config.clone(),
        origin: None,
        upstream: None,
        level: Level::Unknown,
        verdict: String::new(),
        table_as_of: table.as_of.clone(),
        today: today.to_string(),
    };
    let Some(rel) = parsed else {
        report.verdict = match &input.release {
            Some(r) => {
                format!("kernel release {r:?} is not a Linux version number: cannot judge it")
            }
            None => "the kernel release (/proc/sys/kernel/osrelease) could not be read".into(),
        };
        return report;
    };
    let origin = origin::classify(
        &rel,
        &origin::Clues {
            version: input.version.as_deref(),
            version_signature: input.version_signature.as_deref(),
            dt_compatible: &input.dt_compatible,
            dt_model: input.dt_model.as_deref(),
        },
    );
    let up = assess::upstream(&rel, origin.upstream_point, table, today);
    let release = input.release.as_deref().unwrap_or("").trim();
    let (level, verdict) = assess::verdict(&rel, release, &origin, &up, table, today);
    report.origin = Some(origin);
    report.upstream = Some(up);
    report.level = level;
    report.verdict = verdict;
    report
}

/// The text report.
pub fn render(r: &Report) -> String {
    let mut o = String::new();
    let w = &mut o;
    let _ = writeln!(
        w,
        "Kernel:         {}{}",
        r.release.as_deref().unwrap_or("(unknown)"),
        r.arch
            .as_deref()
            .map(|a| format!(" ({a})"))
            .unwrap_or_default()
    );
    if let Some(v) = &r.version {
        let _ = writeln!(w, "Version:        {v}");
    }
    let mut built = Vec::new();
    match (&r.build.date, &r.build.date_source, &r.build.date_note) {
        (Some(d), Some(s), _) if s != "uname -v" => built.push(format!("{d} ({s})")),
        (Some(d), _, _) => built.push(d.clone()),
        (None, _, Some(n)) => built.push(format!("date unknown: {n}")),
        _ => built.push("date unknown".into()),
    }
    if let Some(c) = &r.build.compiler {
        built.push(format!("with {c}"));
    }
    if let Some(b) = &r.build.builder {
        built.push(format!("by {b}"));
    }
    let _ = writeln!(w, "Built:          {}", built.join(", "));
    let c = &r.config;
    match &c.source {
        Some(s) => {
            let mut parts = Vec::new();
            if let Some(hz) = c.hz {
                parts.push(format!("HZ {hz}"));
            }
            if let Some(p) = &c.preempt {
                parts.push(format!("preemption {p}"));
            }
            if let Some(l) = &c.localversion {
                parts.push(format!("LOCALVERSION {l:?}"));
            }
            if let Some(s) = c.cpu_freq_stat {
                parts.push(format!(
                    "CPU_FREQ_STAT {}",
                    if s {
                        "yes"
                    } else {
                        "no (no cpufreq statistics)"
                    }
                ));
            }
            let _ = writeln!(w, "Config:         {s}: {}", parts.join(", "));
            if let Some(p) = &c.problem {
                let _ = writeln!(w, "                ({p})");
            }
        }
        None => {
            let flags: Vec<&str> = r
                .build
                .flags
                .iter()
                .filter(|f| f.starts_with("PREEMPT"))
                .map(String::as_str)
                .collect();
            let _ = writeln!(
                w,
                "Config:         none readable (no /proc/config.gz or /boot/config-<release>){}{}",
                c.problem
                    .as_deref()
                    .map(|p| format!("; {p}"))
                    .unwrap_or_default(),
                if flags.is_empty() {
                    String::new()
                } else {
                    format!("; uname -v says {}", flags.join(" "))
                }
            );
        }
    }
    if let Some(o) = &r.origin {
        let _ = writeln!(
            w,
            "Origin:         {}{}",
            o.kind.words(),
            o.maintainer
                .as_deref()
                .map(|m| format!(": {m}"))
                .unwrap_or_default()
        );
        for e in &o.evidence {
            let _ = writeln!(w, "                - {e}");
        }
    }
    if let Some(u) = &r.upstream {
        let mut s = u.series.clone();
        match u.longterm {
            Some(true) => s.push_str(" longterm"),
            Some(false) => s.push_str(" (not longterm)"),
            None => {}
        }
        if let Some(d) = &u.released {
            let _ = write!(s, ", released {d}");
        }
        if let Some(e) = &u.eol {
            let basis = match u.eol_basis {
                Some(EolBasis::Projected) => " (projected)",
                Some(EolBasis::Estimated) => " (estimated)",
                _ => "",
            };
            let _ = write!(s, ", end of life {e}{basis}");
        }
        if let Some(l) = &u.latest_known {
            let _ = write!(
                s,
                ", {} {l} ({})",
                if u.latest_is_final {
                    "last release"
                } else {
                    "latest known"
                },
                u.latest_known_date.as_deref().unwrap_or("?")
            );
        }
        let _ = writeln!(w, "Series:         {s}");
        if let Some(o) = &r.origin {
            let point = match (o.upstream_point, &o.upstream_point_source) {
                (Some(p), Some(src)) if src != "release" => {
                    format!("{}.{p} (from {src})", u.series)
                }
                (Some(p), _) => format!("{}.{p}", u.series),
                (None, _) => "unknown".into(),
            };
            let behind = match u.behind {
                Some(0) => String::new(),
                Some(b) => format!(
                    ", {}{b} behind",
                    if u.behind_at_least { "at least " } else { "" }
                ),
                None => String::new(),
            };
            let _ = writeln!(w, "Point release:  {point}{behind}");
        }
    }
    let label = match r.level {
        Level::Ok => "OK",
        Level::Warning => "WARNING",
        Level::Critical => "CRITICAL",
        Level::Unknown => "UNKNOWN",
    };
    let _ = writeln!(w, "Verdict:        {label}: {}", r.verdict);
    let _ = writeln!(
        w,
        "(series table as of {}, judged on {})",
        r.table_as_of, r.today
    );
    o
}
