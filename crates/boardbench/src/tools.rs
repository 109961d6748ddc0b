//! The external tools a mode needs, before it starts: which are missing, which phases that
//! skips, the one command that installs them on this distribution, and `--install-tools` (the
//! only place boardbench installs anything, and only when asked, as root). The catalogue itself
//! is `adapters::catalogue`; `boardbench doctor` and `run` use this module.

use std::process::{Command, Stdio};

use adapters::catalogue::{self, Distro, Entry, InstallPlan};
use adapters::tool::SearchPath;

/// The distribution of the root (its `/etc/os-release`, else `/usr/lib/os-release`).
pub fn distro(root: &probe::Root) -> Distro {
    ["/etc/os-release", "/usr/lib/os-release"]
        .iter()
        .filter_map(|p| root.read(p).ok())
        .map(|text| Distro::from_pairs(&probe::identity::parse_os_release(&text)))
        .find(|d| !d.id.is_empty() || !d.pretty_name.is_empty())
        .unwrap_or_default()
}

/// A tool a mode needs and the phases of that mode it would run.
pub struct Need {
    pub entry: &'static Entry,
    pub phases: Vec<&'static str>,
}

/// The tools `run` needs with these switches, and for which of its phases (limited to
/// `--phases` when given).
pub fn run_needs(extensive: bool, stockfish: bool, cpuminer: bool, only: &[String]) -> Vec<Need> {
    let mut modes = vec!["run"];
    if extensive {
        modes.push("run --extensive");
    }
    if stockfish || extensive {
        modes.push("run -s");
    }
    if cpuminer || extensive {
        modes.push("run -c");
    }
    catalogue::CATALOGUE
        .iter()
        .filter_map(|e| {
            let phases: Vec<&'static str> = e
                .uses
                .iter()
                .filter(|u| modes.contains(&u.mode))
                .flat_map(|u| u.phases.iter().copied())
                .filter(|k| only.is_empty() || only.iter().any(|o| o.trim() == *k))
                .collect();
            (!phases.is_empty()).then_some(Need { entry: e, phases })
        })
        .collect()
}

/// The needs whose program is not on the search path (presence only: nothing is started).
pub fn missing(needs: Vec<Need>, sp: &SearchPath) -> Vec<Need> {
    needs
        .into_iter()
        .filter(|n| sp.find_all(n.entry.candidates).is_empty())
        .collect()
}

/// "Install with: …" or, where no command can be given, what to install by hand.
pub fn install_advice(plan: &InstallPlan, distro: &Distro) -> Vec<String> {
    let mut lines = Vec::new();
    let pm = plan
        .package_manager
        .map(|p| format!(", {}", p.name()))
        .unwrap_or_default();
    if let Some(c) = plan.command_line() {
        lines.push(format!("Install with ({}{pm}): {c}", distro.label()));
    }
    if !plan.unpackaged.is_empty() {
        if plan.package_manager.is_some() {
            lines.push(format!(
                "Not packaged for {}: {} (build it from source)",
                distro.label(),
                plan.unpackaged.join(", ")
            ));
        } else {
            lines.push(format!(
                "No known package manager for {}: install {} with its own tools",
                distro.label(),
                plan.unpackaged.join(", ")
            ));
        }
    }
    lines
}

/// The block `run` prints once before it starts (empty when nothing is missing).
pub fn missing_block(missing: &[Need], distro: &Distro) -> String {
    if missing.is_empty() {
        return String::new();
    }
    let phases: Vec<&str> = missing.iter().flat_map(|n| n.phases.clone()).collect();
    let mut s = format!(
        "Missing tools: these phases will be skipped: {}\n",
        phases.join(", ")
    );
    for n in missing {
        s.push_str(&format!(
            "  {} (none of {} found): {}\n",
            n.entry.family,
            n.entry.candidates.join(", "),
            n.phases.join(", ")
        ));
    }
    let entries: Vec<&Entry> = missing.iter().map(|n| n.entry).collect();
    let plan = InstallPlan::new(distro, &entries);
    for l in install_advice(&plan, distro) {
        s.push_str(&format!("  {l}\n"));
    }
    if plan.command.is_some() {
        s.push_str("  (or add --install-tools; `boardbench doctor` lists every tool)\n");
    }
    s
}

/// Whether `--install-tools` may run the command: only as root. `Err` is the usage error.
pub fn may_install(root_user: bool, command: &str) -> anyhow::Result<()> {
    if root_user {
        Ok(())
    } else {
        crate::output::usage(format!(
            "--install-tools installs packages and needs root: run it with sudo, or install \
             them yourself: {command}"
        ))
    }
}

/// Runs the install command (shown first on stderr, its output on stderr too, so standard
/// output stays the mode's own). A command that fails is an error: nothing starts after it.
pub fn install(plan: &InstallPlan, distro: &Distro, root_user: bool) -> anyhow::Result<()> {
    let Some(cmd) = &plan.command else {
        for l in install_advice(plan, distro) {
            eprintln!("{l}");
        }
        if plan.package_manager.is_none() && !plan.unpackaged.is_empty() {
            anyhow::bail!(
                "--install-tools: no known package manager for {}",
                distro.label()
            );
        }
        eprintln!("--install-tools: nothing packaged to install");
        return Ok(());
    };
    let line = cmd.join(" ");
    may_install(root_user, &line)?;
    eprintln!("Installing {}: {line}", plan.installs.join(", "));
    let stdout = {
        use std::os::fd::AsFd;
        std::io::stderr()
            .as_fd()
            .try_clone_to_owned()
            .map(Stdio::from)
            .unwrap_or_else(|_| Stdio::inherit())
    };
    let status = Command::new(&cmd[0])
        .args(&cmd[1..])
        .stdin(Stdio::null())
        .stdout(stdout)
        .status()
        .map_err(|e| anyhow::anyhow!("cannot start {}: {e}", cmd[0]))?;
    if !status.success() {
        anyhow::bail!("`{line}` failed ({status}): nothing else was done");
    }
    Ok(())
}

/// Before `run` starts: installs what is missing when asked (`--install-tools`), then prints the
/// block naming what is still missing. Returns the block (empty: every tool is there).
pub fn before_run(
    needs: Vec<Need>,
    root: &probe::Root,
    install_asked: bool,
    root_user: bool,
) -> anyhow::Result<String> {
    let sp = SearchPath::from_env();
    let distro = distro(root);
    let mut gone = missing(needs, &sp);
    if install_asked && !gone.is_empty() {
        let entries: Vec<&Entry> = gone.iter().map(|n| n.entry).collect();
        let plan = InstallPlan::new(&distro, &entries);
        if plan.command.is_some() {
            install(&plan, &distro, root_user)?;
            gone = missing(gone, &SearchPath::from_env());
        }
    }
    let block = missing_block(&gone, &distro);
    eprint!("{block}");
    Ok(block)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn debian() -> Distro {
        Distro {
            id: "debian".into(),
            pretty_name: "Debian GNU/Linux 12 (bookworm)".into(),
            ..Distro::default()
        }
    }

    #[test]
    fn run_needs_follow_the_switches_and_phases() {
        let fams = |n: Vec<Need>| -> Vec<&str> { n.iter().map(|n| n.entry.family).collect() };
        assert_eq!(
            fams(run_needs(false, false, false, &[])),
            ["OpenSSL", "7-Zip"]
        );
        assert_eq!(
            fams(run_needs(false, true, true, &[])),
            ["OpenSSL", "7-Zip", "Stockfish", "cpuminer"]
        );
        assert_eq!(
            fams(run_needs(
                false,
                false,
                false,
                &["clock".into(), "membw".into()]
            )),
            Vec::<&str>::new()
        );
        let ext = run_needs(true, false, false, &[]);
        assert!(ext[0].phases.contains(&"openssl-parallel"));
        assert!(ext[1].phases.contains(&"7zip-cluster"));
    }

    #[test]
    fn the_block_names_phases_and_the_one_command() {
        let empty = SearchPath::new(std::ffi::OsStr::new(""));
        let gone = missing(run_needs(false, false, true, &[]), &empty);
        let b = missing_block(&gone, &debian());
        assert!(
            b.starts_with(
                "Missing tools: these phases will be skipped: openssl, 7zip-single, 7zip-multi, cpuminer\n"
            ),
            "{b}"
        );
        assert!(
            b.contains(
                "Install with (Debian GNU/Linux 12 (bookworm), apt): apt-get install -y openssl p7zip-full\n"
            ),
            "{b}"
        );
        assert!(
            b.contains("Not packaged for Debian GNU/Linux 12 (bookworm): cpuminer"),
            "{b}"
        );
        assert_eq!(missing_block(&[], &debian()), "");
    }

    #[test]
    fn installing_is_for_root_only() {
        let e = may_install(false, "apt-get install -y openssl").unwrap_err();
        assert!(e.downcast_ref::<crate::output::Usage>().is_some());
        assert!(e.to_string().contains("needs root"), "{e}");
        may_install(true, "x").unwrap();
    }
}
