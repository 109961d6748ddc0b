//! What a `graph` sweep visits: groups of CPUs (per cluster, from `--cpus`) and, for each, the cpufreq
//! OPPs to cap it to. Pure functions of the machine snapshot.

use document::machine::{MachineInfo, Policy};

/// CPUs of one cluster that run the workload together, one thread each.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    /// Index into `machine.clusters`.
    pub cluster: usize,
    /// Machine CPUs (online), lowest first.
    pub cpus: Vec<u32>,
    /// "Cortex-A76", when known.
    pub core_name: Option<String>,
    /// The cpufreq policy of the cluster.
    pub policy: Option<Policy>,
}

impl Group {
    /// "cpu4" or "cpu4-5".
    pub fn cpu_text(&self) -> String {
        format!("cpu{}", loops::affinity::format_cpu_list(&self.cpus))
    }
}

/// `--cpus`: sbc-bench's `-g` list words, or a CPU list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Selection {
    /// The first online core of each cluster, one thread (sbc-bench `cores`).
    Cores,
    /// Every online core of each cluster together (sbc-bench `clusters`).
    Clusters,
    /// `cores`, then `clusters` (sbc-bench `all`, without its all-clusters-at-once pass: the
    /// clusters have different OPP tables, so there is no common clock to cap them to).
    All,
    /// The listed CPUs, grouped by cluster.
    List(Vec<u32>),
}

pub fn parse_selection(s: &str) -> anyhow::Result<Selection> {
    Ok(match s.trim() {
        "cores" => Selection::Cores,
        "clusters" => Selection::Clusters,
        // sbc-bench merges clusters of one core type (RK3588's two A76 pairs); they have a
        // policy each, so there is no single cap to sweep.
        "coreclusters" => anyhow::bail!("--cpus coreclusters is not supported: use clusters"),
        "all" => Selection::All,
        list => Selection::List(
            loops::affinity::parse_cpu_list(list)
                .map_err(|e| anyhow::anyhow!("--cpus: {e} (or cores, clusters, all)"))?,
        ),
    })
}

fn policy_of(m: &MachineInfo, cpu: u32) -> Option<&Policy> {
    m.policies
        .iter()
        .find(|p| p.affected_cpus.contains(&cpu) || p.related_cpus.contains(&cpu))
}

/// The groups to sweep, in cluster order (and for `all`, the single cores first).
pub fn groups(m: &MachineInfo, sel: &Selection) -> Vec<Group> {
    let make = |cluster: usize, cpus: Vec<u32>| -> Option<Group> {
        let first = *cpus.first()?;
        Some(Group {
            cluster,
            core_name: m.clusters[cluster].core_name.clone(),
            policy: policy_of(m, first).cloned(),
            cpus,
        })
    };
    let per_cluster = |f: &dyn Fn(Vec<u32>) -> Vec<u32>| -> Vec<Group> {
        m.clusters
            .iter()
            .enumerate()
            .filter_map(|(i, c)| make(i, f(c.online_cpus())))
            .collect()
    };
    let first_only = |v: Vec<u32>| v.into_iter().take(1).collect();
    match sel {
        Selection::Cores => per_cluster(&first_only),
        Selection::Clusters => per_cluster(&|v| v),
        Selection::All => {
            let mut v = per_cluster(&first_only);
            v.extend(per_cluster(&|v| v).into_iter().filter(|g| g.cpus.len() > 1));
            v
        }
        Selection::List(list) => {
            per_cluster(&|v: Vec<u32>| v.into_iter().filter(|c| list.contains(c)).collect())
        }
    }
}

/// How the sweep walks each group's OPPs: every OPP (boost included) within MinKHz..MaxKHz,
/// highest first.
pub fn walk_options(min_khz: u64, max_khz: Option<u64>) -> measure::opp_walk::WalkOptions {
    measure::opp_walk::WalkOptions {
        max_khz,
        min_khz: Some(min_khz),
        ..Default::default()
    }
}

#[cfg(test)]
fn opps(p: &Policy, min_khz: u64, max_khz: Option<u64>) -> Vec<u64> {
    measure::opp_walk::opps(p, &walk_options(min_khz, max_khz))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rk3588() -> MachineInfo {
        probe::snapshot::take(&probe::Root::new(testsupport::probe_root("rk3588")))
    }

    #[test]
    fn selections_follow_sbc_bench_words() {
        let m = rk3588();
        let cpus = |s: &str| -> Vec<Vec<u32>> {
            groups(&m, &parse_selection(s).unwrap())
                .into_iter()
                .map(|g| g.cpus)
                .collect()
        };
        assert_eq!(cpus("clusters"), [vec![0, 1, 2, 3], vec![4, 5], vec![6, 7]]);
        assert_eq!(cpus("cores"), [vec![0], vec![4], vec![6]]);
        assert_eq!(cpus("all").len(), 6);
        assert_eq!(cpus("1,5-7"), [vec![1], vec![5], vec![6, 7]]);
        assert!(parse_selection("x").is_err());
        assert!(parse_selection("coreclusters").is_err());
        let g = &groups(&m, &Selection::Cores)[1];
        assert_eq!(g.policy.as_ref().map(|p| p.policy), Some(4));
        assert_eq!(g.cpu_text(), "cpu4");
    }

    #[test]
    fn opps_from_the_top_within_min_and_max() {
        let m = rk3588();
        let p = m.policies.iter().find(|p| p.policy == 4).unwrap();
        assert_eq!(
            opps(p, 600_000, Some(1_800_000)),
            [
                1_800_000, 1_608_000, 1_416_000, 1_200_000, 1_008_000, 816_000, 600_000
            ]
        );
        assert_eq!(opps(p, 2_300_000, None), [2_400_000]);
    }
}
