//! `boardbench doctor`: every external tool boardbench can use — where it is (or that it is
//! missing), its version as the adapters read it, whether its figures compare with sbc-bench's,
//! which mode and phase uses it — then, per mode, what is missing and the one command that
//! installs it on this distribution (from os-release). A report: exit 0 even when tools are
//! missing; works as any user. `--install-tools` runs that command (root only).

use adapters::catalogue::{self, Distro, Entry, InstallPlan, Status};
use adapters::tool::{SearchPath, SystemRunner};
use serde::Serialize;

use crate::cli::Globals;
use crate::tools;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    /// Install the missing tools that are packaged for this distribution (root only; the
    /// command is shown before it runs).
    #[arg(long)]
    pub install_tools: bool,
}

/// What is missing for one mode, and how to install it.
#[derive(Debug, Serialize)]
pub struct ModeGap {
    pub mode: &'static str,
    pub missing: Vec<&'static str>,
    pub phases: Vec<&'static str>,
    pub install: InstallPlan,
}

#[derive(Debug, Serialize)]
pub struct Report {
    pub distro: Distro,
    pub tools: Vec<Status>,
    pub missing: Vec<ModeGap>,
}

/// The modes in the order they are listed.
fn modes() -> Vec<&'static str> {
    let mut m: Vec<&'static str> = Vec::new();
    for e in catalogue::CATALOGUE {
        for u in e.uses {
            if !m.contains(&u.mode) {
                m.push(u.mode);
            }
        }
    }
    m
}

pub fn report(distro: Distro, tools: Vec<Status>) -> Report {
    let missing = modes()
        .into_iter()
        .filter_map(|mode| {
            let gone: Vec<(&'static Entry, &Status)> = catalogue::CATALOGUE
                .iter()
                .zip(&tools)
                .filter(|(e, s)| s.missing() && e.used_by(mode).is_some())
                .collect();
            if gone.is_empty() {
                return None;
            }
            let entries: Vec<&Entry> = gone.iter().map(|(e, _)| *e).collect();
            Some(ModeGap {
                mode,
                missing: entries.iter().map(|e| e.family).collect(),
                phases: entries
                    .iter()
                    .filter_map(|e| e.used_by(mode))
                    .flat_map(|u| u.phases.iter().copied())
                    .fold(Vec::new(), |mut v, p| {
                        if !v.contains(&p) {
                            v.push(p);
                        }
                        v
                    }),
                install: InstallPlan::new(&distro, &entries),
            })
        })
        .collect();
    Report {
        distro,
        tools,
        missing,
    }
}

/// The text report.
pub fn render(r: &Report) -> String {
    let mut rows = vec![[
        "Tool".to_string(),
        "Found".to_string(),
        "Version".to_string(),
        "Comparable with sbc-bench".to_string(),
        "Used by".to_string(),
    ]];
    for t in &r.tools {
        let used: Vec<String> = t
            .uses
            .iter()
            .map(|u| format!("{} ({})", u.mode, u.phases.join(", ")))
            .collect();
        rows.push([
            t.family.to_string(),
            t.path.clone().unwrap_or_else(|| "missing".into()),
            t.version.clone().unwrap_or_else(|| "-".into()),
            t.sbc_bench.clone(),
            used.join("; "),
        ]);
    }
    let mut width = [0usize; 5];
    for row in &rows {
        for (w, c) in width.iter_mut().zip(row) {
            *w = (*w).max(c.chars().count());
        }
    }
    let mut s = format!("External tools ({}):\n", r.distro.label());
    for row in &rows {
        let mut line = String::new();
        for (i, (w, c)) in width.iter().zip(row).enumerate() {
            if i + 1 == row.len() {
                line.push_str(c);
            } else {
                line.push_str(&format!("{c:<w$}  ", w = *w));
            }
        }
        s.push_str(line.trim_end());
        s.push('\n');
    }
    s.push_str(
        "Comparable: sbc-bench's 7-Zip figures come from 7-Zip 16.02 (newer versions score \
         differently); its AES figure (16 KiB column) follows OpenSSL's version and build \
         (ARMv8 Crypto Extensions, AES-NI).\n\n",
    );
    if r.missing.is_empty() {
        s.push_str("Nothing is missing: every mode has its tools.\n");
    }
    let mut all: Vec<&Entry> = Vec::new();
    for g in &r.missing {
        s.push_str(&format!(
            "Missing for {}: {} (skips {})\n",
            g.mode,
            g.missing.join(", "),
            g.phases.join(", ")
        ));
        for l in tools::install_advice(&g.install, &r.distro) {
            s.push_str(&format!("  {l}\n"));
        }
        for f in &g.missing {
            if let Some(e) = catalogue::entry(f).filter(|e| !all.contains(e)) {
                all.push(e);
            }
        }
    }
    if !all.is_empty() {
        let plan = InstallPlan::new(&r.distro, &all);
        if let Some(c) = plan.command_line() {
            s.push_str(&format!(
                "Everything at once: {c}  (or: boardbench doctor --install-tools)\n"
            ));
        }
    }
    s
}

/// Every missing tool, for `--install-tools`.
fn all_missing(r: &Report) -> Vec<&'static Entry> {
    catalogue::CATALOGUE
        .iter()
        .zip(&r.tools)
        .filter(|(_, s)| s.missing())
        .map(|(e, _)| e)
        .collect()
}

pub fn run(args: &Args, g: &Globals) -> anyhow::Result<i32> {
    let root = g.root();
    let distro = tools::distro(&root);
    let sp = SearchPath::from_env();
    let mut r = report(distro, catalogue::survey(&sp, &SystemRunner));
    if args.install_tools {
        let plan = InstallPlan::new(&r.distro, &all_missing(&r));
        // SAFETY: geteuid has no preconditions and cannot fail.
        let root_user = unsafe { libc::geteuid() } == 0;
        tools::install(&plan, &r.distro, root_user)?;
        if plan.command.is_some() {
            r = report(
                r.distro,
                catalogue::survey(&SearchPath::from_env(), &SystemRunner),
            );
        }
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&r)?);
    } else {
        print!("{}", render(&r));
    }
    Ok(0)
}
