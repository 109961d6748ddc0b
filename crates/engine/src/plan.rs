//! Which phases a run has, in sbc-bench's order, per cluster on hybrid CPUs, with the monitor
//! interval of each (both in docs/sbc-bench-compat.md) and a duration estimate for the progress
//! line. Pure:
//! the plan is a function of the machine and the profile, so it is tested on fixture trees.

use document::machine::MachineInfo;
use document::run::kind;

/// How much to run. Which tool invocations each profile uses is in [`crate::invocations`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Profile {
    /// The headline numbers in a few minutes (short tool runs, fewer repeats): not comparable
    /// with sbc-bench's figures, and every document and row says so.
    Quick,
    /// sbc-bench's figures in less time: only the OpenSSL cell the figure is read from (once),
    /// 7-Zip's rows repeated for 1 s instead of 4, one short SHA-256 run, the third 7-Zip
    /// multi run only when the first two disagree.
    Fast,
    /// sbc-bench's default run, its exact invocations (`--profile sbc-bench`).
    Standard,
    /// sbc-bench's `MODE=extensive`.
    Extensive,
}

impl Profile {
    pub fn name(self) -> &'static str {
        match self {
            Profile::Quick => "quick",
            Profile::Fast => "fast",
            Profile::Standard => "sbc-bench",
            Profile::Extensive => "extensive",
        }
    }

    /// `--profile NAME` ("standard" is the old name of "sbc-bench").
    pub fn parse(name: &str) -> Option<Profile> {
        Some(match name {
            "quick" => Profile::Quick,
            "fast" => Profile::Fast,
            "sbc-bench" | "standard" => Profile::Standard,
            "extensive" => Profile::Extensive,
            _ => return None,
        })
    }

    /// Per headline figure, whether it compares with sbc-bench's (stored in the document).
    pub fn comparability(self) -> Vec<document::run::FigureComparability> {
        headline::comparability::for_profile(self.name())
    }
}

/// What the plan needs besides the machine.
#[derive(Debug, Clone)]
pub struct PlanOptions {
    pub profile: Profile,
    pub stockfish: bool,
    pub cpuminer: bool,
    /// Only these phase kinds (tests, `--phases`); empty = all.
    pub only: Vec<String>,
}

/// One cluster as the run uses it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunCluster {
    /// Index into `machine.clusters` (None: the machine had no cluster list).
    pub index: Option<usize>,
    /// Its online CPUs.
    pub cpus: Vec<u32>,
    /// "cpu4 (Cortex-A76)".
    pub label: String,
}

/// A phase to run.
#[derive(Debug, Clone, PartialEq)]
pub struct Planned {
    pub kind: &'static str,
    pub title: String,
    pub cluster: Option<RunCluster>,
    /// CPUs to pin to (empty = all cores, unpinned).
    pub cpus: Vec<u32>,
    pub threads: u32,
    pub monitor_interval_s: f64,
    /// Expected duration in seconds (for the progress line only).
    pub estimate_s: f64,
    /// Left out when the earlier runs of the same kind agree within this many percent (their
    /// average would not move): the fast profile's third 7-Zip multi run.
    pub unless_agree_pct: Option<f64>,
}

/// The clusters with online CPUs, big ones last (as sbc-bench lists them: cpu0 first).
pub fn clusters(m: &MachineInfo) -> Vec<RunCluster> {
    let mut v: Vec<RunCluster> = m
        .clusters
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            let cpus = c.online_cpus();
            let first = *cpus.first()?;
            let core = c
                .core_name
                .as_deref()
                .map(|n| format!(" ({n})"))
                .unwrap_or_default();
            Some(RunCluster {
                index: Some(i),
                label: format!("cpu{first}{core}"),
                cpus,
            })
        })
        .collect();
    if v.is_empty() {
        let cpus = if m.cpus.online.is_empty() {
            vec![0]
        } else {
            m.cpus.online.clone()
        };
        v.push(RunCluster {
            index: None,
            label: format!("cpu{}", cpus[0]),
            cpus,
        });
    }
    v
}

fn all_online(m: &MachineInfo, cl: &[RunCluster]) -> Vec<u32> {
    if !m.cpus.online.is_empty() {
        return m.cpus.online.clone();
    }
    let mut v: Vec<u32> = cl.iter().flat_map(|c| c.cpus.iter().copied()).collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// The phases of a run on `m`.
pub fn plan(m: &MachineInfo, o: &PlanOptions) -> Vec<Planned> {
    let cl = clusters(m);
    let n = cl.len() as f64;
    let all = all_online(m, &cl);
    let cores = all.len().max(1) as u32;
    let quick = o.profile == Profile::Quick;
    let extensive = o.profile == Profile::Extensive;
    let mut v = Vec::new();
    let single =
        |kind: &'static str, what: &str, c: &RunCluster, interval: f64, est: f64| Planned {
            kind,
            title: format!("{what} on {}", c.label),
            cluster: Some(c.clone()),
            cpus: vec![c.cpus[0]],
            threads: 1,
            monitor_interval_s: interval,
            estimate_s: est,
            unless_agree_pct: None,
        };
    let q = |quick_v: f64, std_v: f64| if quick { quick_v } else { std_v };
    let fast = o.profile == Profile::Fast;

    for c in &cl {
        v.push(single(kind::CLOCK, "clock check", c, 1.0, q(2.0, 10.0)));
    }
    for c in &cl {
        v.push(single(
            kind::MEMBW,
            "memory bandwidth",
            c,
            q(2.0, 10.0 * n),
            q(7.0, 20.0),
        ));
    }
    for c in &cl {
        v.push(single(
            kind::MEMLAT,
            "memory latency",
            c,
            q(2.0, 3.0 * n),
            q(5.0, 8.0),
        ));
    }
    let openssl_runs = crate::invocations::openssl_runs(o.profile, cl.len());
    for c in &cl {
        for _ in 0..openssl_runs {
            v.push(single(
                kind::OPENSSL,
                "OpenSSL AES",
                c,
                q(2.0, 16.0),
                if fast { 9.0 } else { q(18.0, 54.0) },
            ));
        }
    }
    if extensive {
        v.push(Planned {
            kind: kind::OPENSSL_PARALLEL,
            title: format!("OpenSSL AES on all {cores} cores in parallel"),
            cluster: None,
            cpus: all.clone(),
            threads: cores,
            monitor_interval_s: 4.0,
            estimate_s: 54.0,
            unless_agree_pct: None,
        });
    }
    for c in &cl {
        v.push(single(
            kind::SHA256,
            "recursive SHA-256",
            c,
            q(2.0, 5.0),
            if fast { 3.0 } else { q(6.0, 20.0) },
        ));
    }
    for c in &cl {
        v.push(single(
            kind::SEVENZIP_SINGLE,
            "7-Zip single-threaded",
            c,
            q(2.0, 10.0),
            if fast { 25.0 } else { q(5.0, 40.0) },
        ));
    }
    if cores > 1 {
        for run in 1..=3 {
            v.push(Planned {
                kind: kind::SEVENZIP_MULTI,
                title: format!("7-Zip multi-threaded on all {cores} cores (run {run} of 3)"),
                cluster: None,
                cpus: Vec::new(),
                threads: cores,
                monitor_interval_s: q(2.0, 10.0),
                estimate_s: if fast { 12.0 } else { q(4.0, 40.0) },
                unless_agree_pct: (fast && run == 3).then_some(crate::invocations::AGREE_PCT),
            });
        }
    }
    if extensive && cl.len() > 1 {
        for c in &cl {
            v.push(Planned {
                kind: kind::SEVENZIP_CLUSTER,
                title: format!("7-Zip multi-threaded on the cluster of {}", c.label),
                cluster: Some(c.clone()),
                cpus: c.cpus.clone(),
                threads: c.cpus.len() as u32,
                monitor_interval_s: 10.0 * n,
                estimate_s: 60.0,
                unless_agree_pct: None,
            });
        }
    }
    if o.cpuminer || extensive {
        v.push(Planned {
            kind: kind::CPUMINER,
            title: format!("cpuminer on all {cores} cores"),
            cluster: None,
            cpus: Vec::new(),
            threads: cores,
            monitor_interval_s: q(5.0, 40.0),
            estimate_s: q(30.0, 300.0),
            unless_agree_pct: None,
        });
    }
    if o.stockfish || extensive {
        for run in 1..=3 {
            v.push(Planned {
                kind: kind::STOCKFISH,
                title: format!("Stockfish on all {cores} cores (run {run} of 3)"),
                cluster: None,
                cpus: Vec::new(),
                threads: cores,
                monitor_interval_s: q(5.0, 60.0),
                estimate_s: q(5.0, 140.0),
                unless_agree_pct: None,
            });
        }
    }
    // Right after the hardest phase, while the SoC is hot: does it still reach its clock?
    for c in &cl {
        v.push(single(
            kind::CLOCK_HOT,
            "clock check again (hot)",
            c,
            1.0,
            2.0,
        ));
    }
    if !o.only.is_empty() {
        v.retain(|p| o.only.iter().any(|k| k == p.kind));
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn machine(root: &str) -> MachineInfo {
        probe::snapshot::take(&probe::Root::new(testsupport::probe_root(root)))
    }

    fn opts(profile: Profile) -> PlanOptions {
        PlanOptions {
            profile,
            stockfish: false,
            cpuminer: false,
            only: vec![],
        }
    }

    fn kinds(p: &[Planned]) -> Vec<&str> {
        p.iter().map(|x| x.kind).collect()
    }

    #[test]
    fn sbc_bench_order_per_cluster_and_hot_clock_last() {
        let m = machine("rk3588");
        let p = plan(&m, &opts(Profile::Standard));
        let k = kinds(&p);
        let first = |x: &str| k.iter().position(|y| *y == x).unwrap();
        assert!(first("clock") < first("membw"));
        assert!(first("membw") < first("memlat"));
        assert!(first("memlat") < first("openssl"));
        assert!(first("openssl") < first("sha256"));
        assert!(first("sha256") < first("7zip-single"));
        assert!(first("7zip-single") < first("7zip-multi"));
        assert_eq!(*k.last().unwrap(), "clock-hot");
        let n_clusters = clusters(&m).len();
        assert_eq!(n_clusters, 3);
        assert_eq!(
            k.iter().filter(|x| **x == "7zip-single").count(),
            n_clusters
        );
        assert_eq!(k.iter().filter(|x| **x == "7zip-multi").count(), 3);
        // single-threaded work is pinned to the first core of its cluster
        for ph in p.iter().filter(|x| x.kind == "7zip-single") {
            let c = ph.cluster.as_ref().unwrap();
            assert_eq!(ph.cpus, vec![c.cpus[0]]);
        }
        // one OpenSSL run per cluster on big.LITTLE
        assert_eq!(k.iter().filter(|x| **x == "openssl").count(), n_clusters);
    }

    #[test]
    fn one_cluster_runs_openssl_twice_and_extras_only_when_asked() {
        let m = machine("vm");
        let p = plan(&m, &opts(Profile::Standard));
        assert_eq!(kinds(&p).iter().filter(|x| **x == "openssl").count(), 2);
        assert!(!kinds(&p).contains(&"stockfish"));
        let mut o = opts(Profile::Standard);
        o.cpuminer = true;
        assert!(kinds(&plan(&m, &o)).contains(&"cpuminer"));
        let e = plan(&m, &opts(Profile::Extensive));
        assert!(kinds(&e).contains(&"stockfish") && kinds(&e).contains(&"cpuminer"));
        assert!(kinds(&e).contains(&"openssl-parallel"));
    }

    #[test]
    fn fast_keeps_sbc_bench_phases_and_may_leave_out_the_third_multi_run() {
        let m = machine("rk3588");
        let fast = plan(&m, &opts(Profile::Fast));
        let full = plan(&m, &opts(Profile::Standard));
        assert_eq!(kinds(&fast), kinds(&full));
        let optional: Vec<&Planned> = fast
            .iter()
            .filter(|p| p.unless_agree_pct.is_some())
            .collect();
        assert_eq!(optional.len(), 1);
        assert_eq!(optional[0].kind, "7zip-multi");
        assert!(optional[0].title.contains("run 3 of 3"));
        assert!(full.iter().all(|p| p.unless_agree_pct.is_none()));
        let secs = |p: &[Planned]| p.iter().map(|x| x.estimate_s).sum::<f64>();
        assert!(secs(&fast) < secs(&full));
    }

    #[test]
    fn fast_runs_openssl_once_on_a_one_cluster_machine() {
        let m = machine("vm");
        let count = |p: &[Planned]| p.iter().filter(|x| x.kind == "openssl").count();
        assert_eq!(count(&plan(&m, &opts(Profile::Standard))), 2);
        assert_eq!(count(&plan(&m, &opts(Profile::Fast))), 1);
    }

    #[test]
    fn profile_names_round_trip() {
        for p in [
            Profile::Quick,
            Profile::Fast,
            Profile::Standard,
            Profile::Extensive,
        ] {
            assert_eq!(Profile::parse(p.name()), Some(p));
        }
        assert_eq!(Profile::Standard.name(), "sbc-bench");
        assert_eq!(Profile::parse("standard"), Some(Profile::Standard));
        assert!(
            Profile::Quick
                .comparability()
                .iter()
                .all(|f| !f.comparable_with_sbc_bench)
        );
        assert!(
            Profile::Fast
                .comparability()
                .iter()
                .all(|f| f.comparable_with_sbc_bench)
        );
    }

    #[test]
    fn offline_clusters_are_skipped() {
        let m = machine("rk3399-big-offline");
        let cl = clusters(&m);
        assert_eq!(cl.len(), 1, "{cl:?}");
    }

    #[test]
    fn only_filters_kinds() {
        let m = machine("rk3588");
        let mut o = opts(Profile::Quick);
        o.only = vec!["clock".into(), "sha256".into()];
        let p = plan(&m, &o);
        let k = kinds(&p);
        assert!(!k.is_empty());
        assert!(k.iter().all(|x| *x == "clock" || *x == "sha256"));
    }
}
