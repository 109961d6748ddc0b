//! Which sections a guide runs (`--sections`, `--quick`) and on which CPUs (`--cpus`): pure
//! functions, so the choices are tested without running anything.

use anyhow::{bail, ensure};
use guide::SectionDef;

/// The sections to run, in the guide's order. Named sections (`--sections a,b`, or `all`) run
/// whether or not they are default or quick ones; without names, the default sections run
/// (with `--quick` only those marked quick).
pub fn sections(
    all: Vec<SectionDef>,
    names: &[String],
    quick: bool,
) -> anyhow::Result<Vec<SectionDef>> {
    let names: Vec<&str> = names
        .iter()
        .map(|n| n.trim())
        .filter(|n| !n.is_empty())
        .collect();
    if names.is_empty() {
        let v: Vec<SectionDef> = all
            .into_iter()
            .filter(|s| s.default && (!quick || s.quick))
            .collect();
        ensure!(
            !v.is_empty(),
            "this build has no guide sections to run by default; name them with --sections"
        );
        return Ok(v);
    }
    if names.contains(&"all") {
        return Ok(all);
    }
    for n in &names {
        if !all.iter().any(|s| s.name == *n) {
            let known: Vec<&str> = all.iter().map(|s| s.name).collect();
            bail!(
                "unknown guide section {n:?}; known: {}",
                if known.is_empty() {
                    "none in this build".to_string()
                } else {
                    format!("{} (or all)", known.join(", "))
                }
            );
        }
    }
    Ok(all
        .into_iter()
        .filter(|s| names.contains(&s.name))
        .collect())
}

/// A CPU list as the kernel writes them ("0-3,6"); sorted, without duplicates.
pub fn cpu_list(s: &str) -> anyhow::Result<Vec<u32>> {
    let mut v = Vec::new();
    for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (a, b) = match part.split_once('-') {
            Some((a, b)) => (a.trim(), b.trim()),
            None => (part, part),
        };
        let (Ok(a), Ok(b)) = (a.parse::<u32>(), b.parse::<u32>()) else {
            bail!("--cpus: {part:?} is not a CPU number or range (for example 0-3,6)");
        };
        ensure!(a <= b, "--cpus: {part:?} runs backwards");
        v.extend(a..=b);
    }
    v.sort_unstable();
    v.dedup();
    ensure!(!v.is_empty(), "--cpus: no CPU given");
    Ok(v)
}

/// The CPUs to use: `--cpus` (each must be online), else every online CPU.
pub fn cpus(arg: Option<&str>, online: &[u32]) -> anyhow::Result<Vec<u32>> {
    let Some(a) = arg else {
        return Ok(online.to_vec());
    };
    let v = cpu_list(a)?;
    let missing: Vec<String> = v
        .iter()
        .filter(|c| !online.contains(c))
        .map(u32::to_string)
        .collect();
    ensure!(
        missing.is_empty(),
        "--cpus: CPU {} not online (online: {})",
        missing.join(", "),
        textout::cpu_range(online)
    );
    Ok(v)
}

/// The first of `cpus` in each cluster (the CPUs single-threaded figures are pinned to).
pub fn cluster_leads(m: &document::machine::MachineInfo, cpus: &[u32]) -> Vec<u32> {
    let leads: Vec<u32> = m
        .clusters
        .iter()
        .filter_map(|c| c.online_cpus().into_iter().find(|x| cpus.contains(x)))
        .collect();
    if leads.is_empty() {
        cpus.first().copied().into_iter().collect()
    } else {
        leads
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use guide::{Context, Outcome};

    fn none(_: &Context) -> Outcome {
        Outcome::default()
    }

    fn defs() -> Vec<SectionDef> {
        let d = |name, quick, default| SectionDef {
            name,
            title: name,
            quick,
            default,
            run: none,
        };
        vec![
            d("lmbench", true, true),
            d("linpack", false, true),
            d("stream", true, true),
            d("storage", false, false),
        ]
    }

    fn names(v: &[SectionDef]) -> Vec<&'static str> {
        v.iter().map(|s| s.name).collect()
    }

    #[test]
    fn defaults_quick_and_named_sections() {
        assert_eq!(
            names(&sections(defs(), &[], false).unwrap()),
            ["lmbench", "linpack", "stream"]
        );
        assert_eq!(
            names(&sections(defs(), &[], true).unwrap()),
            ["lmbench", "stream"]
        );
        let named = vec!["storage".to_string(), "lmbench".to_string()];
        assert_eq!(
            names(&sections(defs(), &named, true).unwrap()),
            ["lmbench", "storage"],
            "the guide's order, named ones even when not quick or default"
        );
        assert_eq!(sections(defs(), &["all".into()], true).unwrap().len(), 4);
        let e = sections(defs(), &["nope".into()], false)
            .err()
            .expect("an unknown name is refused");
        assert!(e.to_string().contains("known: lmbench, linpack"), "{e}");
        assert!(sections(Vec::new(), &[], false).is_err());
    }

    #[test]
    fn cpu_lists() {
        assert_eq!(cpu_list("0-2, 5,1").unwrap(), [0, 1, 2, 5]);
        assert!(cpu_list("3-1").is_err());
        assert!(cpu_list("x").is_err());
        assert!(cpu_list("").is_err());
        assert_eq!(cpus(None, &[0, 1]).unwrap(), [0, 1]);
        assert!(
            cpus(Some("0,7"), &[0, 1])
                .unwrap_err()
                .to_string()
                .contains("7")
        );
    }
}
