//! The machine snapshot: every reader of the probe, assembled into one
//! [`MachineInfo`] (serialisable; the notes of everything that could not be read included).

use document::machine::{CpuTopology, MachineInfo, Note};

use crate::{
    Notes, Root, cache, cluster, cpufreq, cpuinfo, devicetree, identity, memory, rpi, soc, thermal,
    topology,
};

/// Options of a snapshot that do not come from the machine.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// User override of the temperature source (see [`thermal::choose`]).
    pub thermal_override: Option<String>,
}

/// Reads the whole machine through `root`.
pub fn take(root: &Root) -> MachineInfo {
    take_with(root, &Options::default())
}

/// [`take`] with options.
pub fn take_with(root: &Root, opts: &Options) -> MachineInfo {
    let mut notes = Notes::default();
    let cpuinfo = cpuinfo::read(root, &mut notes);
    // With a foreign cpuinfo (CPUINFOFILE) the clusters, topology labels and virtualisation
    // are still this machine's: they read its own /proc/cpuinfo. The file's processors stay in
    // `cpuinfo` and alone name the SoC (the device tree is this machine's, not the file's).
    let foreign = cpuinfo.foreign_file.is_some();
    // A tree without a cpuinfo of its own (a bare capture under study) is the file's machine.
    let own_cpuinfo = if foreign {
        Some(cpuinfo::read(&Root::new(root.dir()), &mut Notes::default()))
            .filter(|c| !c.processors.is_empty())
            .unwrap_or_else(|| cpuinfo.clone())
    } else {
        cpuinfo.clone()
    };

    let mut cpus = topology::read_sets(root, &mut notes);
    let policies = cpufreq::read_policies(root, &mut notes);
    let cpufreq_global = cpufreq::read_global(root, &mut notes);
    let devfreq = cpufreq::read_devfreq(root, &mut notes);
    if cpus.possible.is_empty() {
        // No CPU list in sysfs (a partial tree, a bare cpuinfo capture): the processors
        // cpuinfo lists, else the CPUs the cpufreq policies name, all taken as online.
        let mut v: Vec<u32> = own_cpuinfo.processors.iter().map(|p| p.index).collect();
        if v.is_empty() {
            v = policies
                .iter()
                .flat_map(|p| p.related_cpus.iter().copied())
                .collect();
        }
        v.sort_unstable();
        v.dedup();
        cpus.possible = v.clone();
        cpus.present = v.clone();
        cpus.online = v;
    }
    let ids = topology::read_ids(root, &mut notes, &cpus);
    let mut clusters = cluster::group(&ids, &policies, &own_cpuinfo);
    for c in &mut clusters {
        if let Some(&first) = c.online_cpus().first() {
            c.caches = cache::read_caches(root, &mut notes, first);
        }
        // The nominal clock the device tree states (a board without cpufreq has no other).
        if let Some(d) = c
            .cpus
            .first()
            .and_then(|&cpu| devicetree::cpu_clock(root, cpu))
        {
            c.dt_max_khz = Some(d.khz);
            c.dt_clock_from = Some(d.from);
        }
    }
    let cluster_of: std::collections::HashMap<u32, usize> = clusters
        .iter()
        .enumerate()
        .flat_map(|(i, c)| c.cpus.iter().map(move |&cpu| (cpu, i)))
        .collect();
    let topo = ids
        .iter()
        .map(|id| {
            let cluster = cluster_of.get(&id.cpu).copied();
            let label = own_cpuinfo
                .processors
                .iter()
                .find(|p| p.index == id.cpu)
                .and_then(|p| p.core_label().or_else(|| p.model_name.clone()));
            CpuTopology {
                cpu: id.cpu,
                online: id.online,
                cluster,
                // An offline CPU whose policy is unreadable takes its cluster's (inactive) one.
                policy: policies
                    .iter()
                    .find(|p| p.related_cpus.contains(&id.cpu) || p.affected_cpus.contains(&id.cpu))
                    .map(|p| p.policy)
                    .or_else(|| cluster.and_then(|c| clusters[c].policy)),
                package_id: id.package_id,
                cluster_id: id.cluster_id,
                core_id: id.core_id,
                capacity: id.capacity,
                core_label: label,
                hybrid: id.hybrid.map(str::to_string),
            }
        })
        .collect();

    let sensors = thermal::read_sensors(root, &mut notes);
    let thermal_source = thermal::choose(&sensors, opts.thermal_override.as_deref());
    let memory = memory::read(root, &mut notes);

    let kernel = identity::read_kernel(root, &mut notes, &own_cpuinfo);
    let userland = identity::read_userland(root, &mut notes, &kernel);
    let distro = identity::read_distro(root, &mut notes);
    let dmi = identity::read_dmi(root, &mut notes);
    let device_tree = identity::read_device_tree(root, &mut notes);
    let virtualization = identity::read_virtualization(root, &mut notes, &own_cpuinfo, &dmi);
    let max_khz: Vec<u64> = clusters.iter().filter_map(|c| c.max_khz).collect();
    let no_strings = Vec::new();
    let own_dt = device_tree.as_ref().filter(|_| !foreign);
    let soc = soc::guess(&soc::SocHints {
        dt_compatible: own_dt.map_or(&no_strings, |d| &d.compatible),
        dt_model: own_dt.and_then(|d| d.model.as_deref()),
        cpuinfo: &cpuinfo,
        max_khz_per_cluster: if foreign { &[] } else { &max_khz },
    });
    let rpi = identity::is_raspberry_pi(device_tree.as_ref())
        .then(|| rpi::VcGenCmd::for_root(root).firmware(&mut notes));

    MachineInfo {
        cpuinfo,
        clusters,
        thermal_source,
        cpus,
        topology: topo,
        policies,
        cpufreq: cpufreq_global,
        devfreq,
        thermal_sensors: sensors,
        memory,
        identity: document::machine::Identity {
            kernel,
            distro,
            userland,
            virtualization,
            dmi,
            device_tree,
            soc,
        },
        rpi,
        notes: notes
            .0
            .into_iter()
            .map(|a| Note {
                path: a.path,
                reason: a.reason,
            })
            .collect(),
    }
}
