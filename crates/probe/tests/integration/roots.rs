//! The probe on the fixture root trees (crates/probe/tests/roots, see its README.md).

use std::path::{Path, PathBuf};

use document::machine::{MachineInfo, OppSource, SensorKind, SwapKind};
use probe::Root;
use probe::snapshot::{self, Options};

fn tree(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/roots")
        .join(name)
}

fn snap(name: &str) -> MachineInfo {
    snapshot::take(&Root::new(tree(name)))
}

fn cpus(m: &MachineInfo) -> Vec<Vec<u32>> {
    m.clusters.iter().map(|c| c.cpus.clone()).collect()
}

/// Trees of well-formed machines read without a single note.
#[test]
fn well_formed_trees_read_without_notes() {
    for t in [
        "rk3399",
        "rk3588",
        "rpi4",
        "s922x",
        "intel-hybrid",
        "amd-desktop",
        "arm64-20-policies",
        "vm",
        "rpi1-armv6",
    ] {
        let m = snap(t);
        assert!(m.notes.is_empty(), "{t}: {:?}", m.notes);
        assert!(!m.clusters.is_empty(), "{t}");
        assert!(!m.cpuinfo.processors.is_empty(), "{t}");
    }
}

#[test]
fn rk3399_is_big_little_with_two_policies() {
    let m = snap("rk3399");
    assert_eq!(cpus(&m), [vec![0, 1, 2, 3], vec![4, 5]]);
    let (little, big) = (&m.clusters[0], &m.clusters[1]);
    assert_eq!(little.core_label().as_deref(), Some("Cortex-A53 / r0p4"));
    assert_eq!(big.core_label().as_deref(), Some("Cortex-A72 / r0p2"));
    assert_eq!((little.policy, big.policy), (Some(0), Some(4)));
    assert_eq!(
        (little.min_khz, little.max_khz),
        (Some(408_000), Some(1_416_000))
    );
    assert_eq!(big.max_khz, Some(1_800_000));
    assert_eq!((little.capacity, big.capacity), (Some(485), Some(1024)));
    let l2: Vec<_> = m
        .clusters
        .iter()
        .map(|c| c.caches.iter().find(|k| k.level == 2).unwrap().size_kib)
        .collect();
    assert_eq!(l2, [Some(512), Some(1024)]);
    assert_eq!(m.policies[1].opp_source, OppSource::Available);
    assert_eq!(m.policies[1].frequencies_khz.len(), 8);
    assert_eq!(m.policies[0].governor.as_deref(), Some("schedutil"));
    assert_eq!(m.policies[0].driver.as_deref(), Some("cpufreq-dt"));
}

#[test]
fn rk3588_has_three_clusters_on_policies_0_4_6() {
    let m = snap("rk3588");
    assert_eq!(cpus(&m), [vec![0, 1, 2, 3], vec![4, 5], vec![6, 7]]);
    let pol: Vec<_> = m.clusters.iter().map(|c| c.policy).collect();
    assert_eq!(pol, [Some(0), Some(4), Some(6)]);
    let names: Vec<_> = m
        .clusters
        .iter()
        .map(|c| c.core_name.clone().unwrap())
        .collect();
    assert_eq!(names, ["Cortex-A55", "Cortex-A76", "Cortex-A76"]);
    assert_eq!(m.topology[7].cluster, Some(2));
    assert_eq!(m.topology[7].package_id, Some(2));
    let t = m.thermal_source.as_ref().unwrap();
    assert_eq!(t.name, "soc-thermal");
    assert!(t.why.contains("tier 2"), "{}", t.why);
    // gpu/npu/center zones are never candidates.
    for s in &m.thermal_sensors {
        if ["gpu-thermal", "npu-thermal", "center-thermal"].contains(&s.name.as_str()) {
            assert_eq!(s.tier, None, "{}", s.name);
        }
    }
    let z = m.memory.zswap.as_ref().unwrap();
    assert_eq!(
        (z.enabled, z.compressor.as_deref()),
        (Some(true), Some("zstd"))
    );
    assert_eq!(m.memory.swaps[0].kind, SwapKind::File);
}

/// sbc-bench #138: a policy whose CPUs are all unplugged.
#[test]
fn an_offline_cluster_stays_a_cluster() {
    let m = snap("rk3399-big-offline");
    assert_eq!(m.cpus.online, [0, 1, 2, 3]);
    assert_eq!(m.cpus.offline, [4, 5]);
    assert_eq!(cpus(&m), [vec![0, 1, 2, 3], vec![4, 5]]);
    let big = &m.clusters[1];
    assert_eq!(big.offline_cpus, [4, 5]);
    assert!(big.online_cpus().is_empty());
    assert_eq!(
        big.policy,
        Some(4),
        "the inactive policy named after the run's first CPU"
    );
    assert_eq!(big.core_name, None);
    assert_eq!(m.clusters[0].online_cpus(), [0, 1, 2, 3]);
    assert!(
        m.notes
            .iter()
            .any(|n| n.path.ends_with("policy4/related_cpus"))
    );
    assert!(!m.topology[4].online);
}

#[test]
fn raspberry_pi_reads_the_firmware_and_decodes_get_throttled() {
    let m = snap("rpi4");
    let r = m.rpi.as_ref().expect("a Raspberry Pi by its device tree");
    assert_eq!(r.arm_clock_hz, Some(1_500_398_464));
    assert_eq!(r.core_volts, Some(0.8563));
    let t = r.throttled.unwrap();
    assert_eq!(t.raw, 0x50005);
    assert!(t.under_voltage_now && t.throttled_now);
    assert!(t.under_voltage_occurred && t.throttled_occurred);
    assert!(!t.arm_freq_capped_now && !t.arm_freq_capped_occurred);
    assert!(!t.soft_temp_limit_now && !t.soft_temp_limit_occurred);
    // No stats/time_in_state on Raspberry Pi OS kernels: the OPPs come from the list.
    assert_eq!(m.policies[0].opp_source, OppSource::Available);
    assert_eq!(m.policies[0].frequencies_khz.first(), Some(&600_000));
}

#[test]
fn a_stray_vcgencmd_does_not_make_a_raspberry_pi() {
    // rk3399 has recorded vcgencmd outputs, but its device tree is no Raspberry Pi's.
    assert!(
        tree("rk3399")
            .join(".fixture/vcgencmd/get_throttled.txt")
            .exists()
    );
    assert_eq!(snap("rk3399").rpi, None);
}

#[test]
fn userland_architecture_from_the_elf_header() {
    let pi = snap("rpi4");
    let u = pi.identity.userland.as_ref().unwrap();
    assert_eq!((u.arch.as_deref(), u.bits), (Some("armhf"), Some(32)));
    assert!(u.mixed, "32-bit userland on the 64-bit kernel");
    assert_eq!(u.dpkg_architectures, ["armhf", "arm64"]);
    assert_eq!(pi.identity.kernel.arch.as_deref(), Some("aarch64"));
    // /bin → usr/bin and sh → dash are followed inside the root.
    let rk = snap("rk3399");
    let u = rk.identity.userland.as_ref().unwrap();
    assert_eq!((u.arch.as_deref(), u.mixed), (Some("arm64"), false));
    let amd = snap("amd-desktop");
    assert_eq!(
        amd.identity.userland.unwrap().arch.as_deref(),
        Some("amd64")
    );
}

#[test]
fn identity_of_boards_and_pcs() {
    let pi = snap("rpi4");
    let dt = pi.identity.device_tree.as_ref().unwrap();
    assert_eq!(dt.model.as_deref(), Some("Raspberry Pi 4 Model B Rev 1.4"));
    assert_eq!(dt.compatible, ["raspberrypi,4-model-b", "brcm,bcm2711"]);
    assert_eq!(pi.identity.kernel.release.as_deref(), Some("5.10.63-v8+"));
    assert_eq!(pi.identity.virtualization, None);
    let d = pi.identity.distro.as_ref().unwrap();
    assert_eq!(
        (d.id.as_deref(), d.version_codename.as_deref()),
        (Some("raspbian"), Some("bullseye"))
    );

    let amd = snap("amd-desktop");
    let d = amd.identity.distro.as_ref().unwrap();
    assert_eq!(
        d.source, "/usr/lib/os-release",
        "fallback when /etc/os-release is absent"
    );
    assert_eq!(d.id.as_deref(), Some("fedora"));
    assert_eq!(
        amd.identity.dmi.board_name.as_deref(),
        Some("MAG B550 TOMAHAWK (MS-7C91)")
    );
    assert_eq!(amd.identity.device_tree, None);

    // issue 11 item 16: a Firecracker KVM guest whose image kept a /.dockerenv on its ext4
    // root is a KVM guest (named by CPUID), not a docker container.
    let vm = snap("vm");
    let v = vm.identity.virtualization.as_ref().unwrap();
    assert_eq!((v.kind.as_str(), v.container.as_deref()), ("kvm", None));
    assert_eq!(v.evidence[0], "CPUID 0x40000000 \"KVMKVMKVM\"");
    assert_eq!(v.evidence[1], "cpuinfo flag hypervisor");
    assert!(
        v.evidence[2].contains("/.dockerenv exists, but / is ext4 on /dev/vda"),
        "{:?}",
        v.evidence
    );
    // The device is named by its CPU, never by its host name.
    assert_eq!(
        headline::device::device_name_with_source(&vm),
        Some((
            "AMD EPYC".to_string(),
            headline::device::DeviceNameSource::CpuModel
        ))
    );
    // Not treated as one cluster because it is virtual (#116): the topology decides.
    assert_eq!(cpus(&vm), [vec![0, 1]]);
}

/// One device-name rule: device tree, cpuinfo Model, DMI (placeholders skipped), a SoC guess
/// that names one SoC, the CPU model.
#[test]
fn device_names_follow_one_rule() {
    let name = |t: &str| headline::device::device_name(&snap(t));
    assert_eq!(name("rk3588").as_deref(), Some("Radxa ROCK 5 Model B"));
    assert_eq!(
        name("rpi4").as_deref(),
        Some("Raspberry Pi 4 Model B Rev 1.4")
    );
    assert_eq!(
        name("rpi1-armv6").as_deref(),
        Some("Broadcom BCM2835"),
        "no DT, no Model line: the SoC"
    );
    let amd = snap("amd-desktop");
    let dmi = headline::device::device_name_with_source(&amd).unwrap();
    assert_eq!(dmi.1, headline::device::DeviceNameSource::Dmi);
    // A placeholder product name falls through to the CPU model.
    let mut oem = amd.clone();
    oem.identity.dmi.product_name = Some("To Be Filled By O.E.M.".into());
    let (n, source) = headline::device::device_name_with_source(&oem).unwrap();
    assert_eq!(source, headline::device::DeviceNameSource::CpuModel, "{n}");
    assert!(n.contains("Ryzen"), "{n}");
}

/// issue 11 item 5: a 2013 Raspberry Pi kernel's cpuinfo has no `processor : N` entries.
#[test]
fn old_uniprocessor_arm_cpuinfo_is_one_arm1176() {
    let m = snap("rpi1-armv6");
    assert_eq!(m.cpuinfo.processors.len(), 1);
    assert_eq!(
        m.cpuinfo.processors[0].core_label().as_deref(),
        Some("ARM1176 / r0p7")
    );
    assert_eq!(cpus(&m), [vec![0]]);
    assert_eq!(m.clusters[0].core_name.as_deref(), Some("ARM1176"));
    let soc = m.identity.soc.unwrap();
    assert_eq!(soc.name, "Broadcom BCM2835");
    assert!(soc.why.contains("BCM2708"), "{}", soc.why);
}

/// issue 11 item 4: a foreign cpuinfo describes its own processors and names its own SoC; the
/// clusters stay this machine's.
#[test]
fn a_foreign_cpuinfo_keeps_this_machines_topology() {
    let root = Root::new(tree("vm")).with_cpuinfo_file(Some(tree("rk3588").join("proc/cpuinfo")));
    let m = snapshot::take(&root);
    assert!(
        m.cpuinfo
            .foreign_file
            .as_deref()
            .unwrap()
            .ends_with("rk3588/proc/cpuinfo")
    );
    assert_eq!(m.cpuinfo.processors.len(), 8);
    assert_eq!(cpus(&m), [vec![0, 1]], "the VM's two CPUs");
    assert_eq!(m.clusters[0].core_name.as_deref(), Some("AMD EPYC"));
    assert!(
        m.topology
            .iter()
            .all(|t| t.core_label.as_deref() == Some("AMD EPYC"))
    );
    assert!(m.identity.soc.unwrap().name.contains("RK3588"));
    // The VM's own cpuinfo still says it is a guest.
    assert_eq!(m.identity.virtualization.unwrap().kind, "kvm");
    // Not foreign: the tree's own file.
    assert_eq!(snap("vm").cpuinfo.foreign_file, None);
}

#[test]
fn intel_hybrid_splits_p_and_e_cores_despite_per_cpu_policies() {
    let m = snap("intel-hybrid");
    assert_eq!(m.policies.len(), 16);
    assert_eq!(cpus(&m), [(0..8).collect::<Vec<u32>>(), (8..16).collect()]);
    let (p, e) = (&m.clusters[0], &m.clusters[1]);
    assert_eq!(
        (p.hybrid.as_deref(), e.hybrid.as_deref()),
        (Some("P-core"), Some("E-core"))
    );
    assert_eq!((p.policy, e.policy), (Some(0), Some(8)));
    // The favoured cores' higher maximum (Turbo Boost Max 3.0) does not split the P-cores.
    assert_eq!((p.max_khz, e.max_khz), (Some(4_700_000), Some(3_400_000)));
    assert_eq!(m.policies[0].driver.as_deref(), Some("intel_pstate"));
    assert_eq!(m.policies[0].opp_source, OppSource::MinMax);
    assert_eq!(m.cpufreq.intel_pstate_status.as_deref(), Some("active"));
    assert_eq!(m.cpufreq.intel_no_turbo, Some(false));
    let t = m.thermal_source.as_ref().unwrap();
    assert_eq!(t.path, "/sys/class/thermal/thermal_zone3/temp");
    assert_eq!(t.name, "x86_pkg_temp");
    assert!(t.why.contains("tier 1"), "{}", t.why);
}

#[test]
fn amd_desktop_uses_k10temp_tctl_and_sees_boost() {
    let m = snap("amd-desktop");
    assert_eq!(cpus(&m), [(0..16).collect::<Vec<u32>>()]);
    assert_eq!(m.cpufreq.boost, Some(true));
    assert_eq!(m.policies[3].driver.as_deref(), Some("acpi-cpufreq"));
    let t = m.thermal_source.as_ref().unwrap();
    assert_eq!(
        (t.path.as_str(), t.name.as_str()),
        ("/sys/class/hwmon/hwmon1/temp1_input", "k10temp Tctl")
    );
    let nvme = m.thermal_sensors.iter().find(|s| s.name == "nvme").unwrap();
    assert_eq!((nvme.kind, nvme.tier), (SensorKind::Hwmon, None));
    assert_eq!(m.memory.swaps[0].kind, SwapKind::Zram);
    assert_eq!(m.memory.zram[0].algorithm.as_deref(), Some("zstd"));
}

/// sbc-bench's `policy?` glob misses policy10 and above.
#[test]
fn twenty_policies_are_all_read_in_numeric_order() {
    let m = snap("arm64-20-policies");
    let nums: Vec<u32> = m.policies.iter().map(|p| p.policy).collect();
    assert_eq!(nums, (0..20).collect::<Vec<u32>>());
    assert_eq!(m.policies[19].cpuinfo_max_khz, Some(3_900_000));
    assert_eq!(
        cpus(&m),
        [(0..10).collect::<Vec<u32>>(), (10..20).collect()]
    );
    assert_eq!(m.clusters[1].core_name.as_deref(), Some("Cortex-X925"));
    assert_eq!(m.clusters[1].policy, Some(10));
    assert_eq!(m.topology[19].policy, Some(19));
    // twelve zones: thermal_zone10 and thermal_zone11 are read too, in natural order.
    assert_eq!(m.thermal_sensors.len(), 12);
    assert_eq!(
        m.thermal_sensors[10].path,
        "/sys/class/thermal/thermal_zone10/temp"
    );
    assert_eq!(
        m.thermal_source.as_ref().unwrap().path,
        "/sys/class/thermal/thermal_zone0/temp"
    );
}

#[test]
fn s922x_takes_its_opps_from_time_in_state() {
    let m = snap("s922x");
    assert_eq!(cpus(&m), [vec![0, 1], vec![2, 3, 4, 5]]);
    assert_eq!(m.policies[0].opp_source, OppSource::TimeInState);
    assert_eq!(m.policies[1].frequencies_khz.last(), Some(&2_400_000));
    let s = &m.memory.swaps[0];
    assert_eq!((s.kind, s.used_kib), (SwapKind::Zram, Some(41_156)));
    let z = &m.memory.zram[0];
    assert_eq!(
        (z.algorithm.as_deref(), z.compr_data_bytes),
        (Some("lzo-rle"), Some(12_550_144))
    );
    assert_eq!(m.memory.zswap.as_ref().unwrap().enabled, Some(false));
}

#[test]
fn a_vm_without_cpufreq_or_thermal_is_normal() {
    let m = snap("vm");
    assert!(m.policies.is_empty());
    assert_eq!(m.clusters[0].policy, None);
    assert_eq!(m.thermal_source, None);
    assert!(m.thermal_sensors.is_empty());
    assert!(m.memory.swaps.is_empty());
    assert_eq!(m.memory.zram.len(), 1, "a zram device that is not swap");
    assert_eq!(m.memory.total_kib, Some(24_683_656));
}

#[test]
fn broken_files_are_absent_with_reasons() {
    let m = snap("broken");
    let has = |path: &str, reason: &str| {
        m.notes
            .iter()
            .any(|n| n.path.ends_with(path) && n.reason.contains(reason))
    };
    assert!(has("cpu/possible", "not a CPU list"));
    assert!(has("policy0/cpuinfo_min_freq", "empty"));
    assert!(has("policy0/scaling_min_freq", "not a number"));
    assert!(has("policy0/scaling_available_frequencies", "not numbers"));
    assert!(has("thermal_zone1/temp", "not a number"));
    assert!(has("hwmon0/temp1_input", "not a number"));
    assert!(has("/bin/sh", "not an ELF file"));
    assert!(has("get_throttled", "unexpected output"));
    assert_eq!(m.policies[0].cpuinfo_max_khz, None);
    // The truncated time_in_state still gives its one good row.
    assert_eq!(m.policies[0].frequencies_khz, [408_000]);
    assert_eq!(m.policies[0].opp_source, OppSource::TimeInState);
    // An implausible reading (9999.999 °C) is never the source.
    assert_eq!(m.thermal_source, None);
    // The second os-release is used when the first is empty; an unterminated quote is
    // read to the end of its line, an empty ID is absent.
    let d = m.identity.distro.as_ref().unwrap();
    assert_eq!(d.source, "/usr/lib/os-release");
    assert_eq!(
        (d.pretty_name.as_deref(), d.id.as_deref()),
        (Some("unterminated"), None)
    );
    assert_eq!(m.memory.total_kib, Some(12));
    let r = m.rpi.as_ref().unwrap();
    assert_eq!(
        (r.arm_clock_hz, r.core_volts, r.throttled),
        (None, None, None)
    );
}

#[test]
fn unreadable_files_are_noted_not_fatal() {
    use std::os::unix::fs::PermissionsExt;
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("sys/devices/system/cpu/cpufreq/policy0");
    std::fs::create_dir_all(&p).unwrap();
    std::fs::write(p.join("related_cpus"), "0-1\n").unwrap();
    std::fs::write(p.join("cpuinfo_max_freq"), "1800000\n").unwrap();
    std::fs::set_permissions(
        p.join("cpuinfo_max_freq"),
        std::fs::Permissions::from_mode(0o000),
    )
    .unwrap();
    // A directory where a file belongs: another read error than "missing".
    std::fs::create_dir_all(p.join("scaling_governor")).unwrap();
    let m = snapshot::take(&Root::new(d.path()));
    assert_eq!(m.policies[0].related_cpus, [0, 1]);
    assert_eq!(m.policies[0].governor, None);
    assert!(m.notes.iter().any(|n| n.path.ends_with("scaling_governor")));
    // root reads mode-0 files anyway; only an unprivileged run sees the denial.
    if std::fs::read(p.join("cpuinfo_max_freq")).is_err() {
        assert!(
            m.notes
                .iter()
                .any(|n| n.path.ends_with("cpuinfo_max_freq") && n.reason == "permission denied")
        );
        assert_eq!(m.policies[0].cpuinfo_max_khz, None);
    }
}

#[test]
fn an_empty_root_gives_an_empty_snapshot() {
    let d = tempfile::tempdir().unwrap();
    let m = snapshot::take(&Root::new(d.path()));
    assert!(m.clusters.is_empty());
    assert!(m.notes.iter().any(|n| n.path == "/proc/cpuinfo"));
}

#[test]
fn thermal_override_beats_the_ranking() {
    let root = Root::new(tree("rk3399"));
    let opts = Options {
        thermal_override: Some("gpu-thermal".into()),
    };
    let m = snapshot::take_with(&root, &opts);
    let t = m.thermal_source.unwrap();
    assert_eq!(t.path, "/sys/class/thermal/thermal_zone1/temp");
    assert!(t.why.contains("user override"));
}

#[test]
fn cpuinfo_file_replaces_proc_cpuinfo() {
    let root =
        Root::new(tree("rk3399")).with_cpuinfo_file(Some(tree("rk3588").join("proc/cpuinfo")));
    let m = snapshot::take(&root);
    assert_eq!(m.cpuinfo.processors.len(), 8);
}

#[test]
fn the_snapshot_round_trips_through_json() {
    for t in ["rk3588", "intel-hybrid", "rpi4", "broken"] {
        let m = snap(t);
        let j = serde_json::to_string(&m).unwrap();
        let back: MachineInfo = serde_json::from_str(&j).unwrap();
        assert_eq!(back, m, "{t}");
    }
}

#[test]
fn a_container_in_a_vm_is_both() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join(".dockerenv"), "").unwrap();
    std::fs::create_dir_all(d.path().join("run/systemd")).unwrap();
    std::fs::write(d.path().join("run/systemd/container"), "lxc\n").unwrap();
    let in_vm = Root::new(d.path()).with_cpuinfo_file(Some(tree("vm").join("proc/cpuinfo")));
    let v = snapshot::take(&in_vm).identity.virtualization.unwrap();
    assert_eq!(
        (v.kind.as_str(), v.container.as_deref()),
        ("vm", Some("docker"))
    );
    assert_eq!(v.evidence.len(), 3, "{:?}", v.evidence);
    // On bare metal the container is the kind.
    let bare = Root::new(d.path()).with_cpuinfo_file(Some(tree("rk3399").join("proc/cpuinfo")));
    let v = snapshot::take(&bare).identity.virtualization.unwrap();
    assert_eq!(v.kind, "container");
}

/// cpufreq-dt lists OPPs marked `turbo-mode` separately (sbc-bench #37: SigmaStar SSD202D).
#[test]
fn boost_frequencies_are_kept_apart() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("sys/devices/system/cpu/cpufreq/policy0");
    std::fs::create_dir_all(&p).unwrap();
    for (f, v) in [
        ("related_cpus", "0 1 \n"),
        ("cpuinfo_min_freq", "400000\n"),
        ("cpuinfo_max_freq", "1700000\n"),
        (
            "scaling_available_frequencies",
            "400000 600000 800000 1000000 1200000 \n",
        ),
        ("scaling_boost_frequencies", "1700000 1400000 \n"),
    ] {
        std::fs::write(p.join(f), v).unwrap();
    }
    let m = snapshot::take(&Root::new(d.path()));
    let pol = &m.policies[0];
    assert_eq!(pol.related_cpus, [0, 1]);
    assert_eq!(pol.frequencies_khz.last(), Some(&1_200_000));
    assert_eq!(pol.boost_khz, [1_400_000, 1_700_000]);
    assert_eq!(m.clusters[0].max_khz, Some(1_700_000));
}

/// An old BSP kernel's layout (no `cpufreq/policyN`, only `cpuN/cpufreq`, the other CPUs of a
/// cluster linking to their first CPU's): the same policies, named after their first CPU, and
/// [`probe::cpufreq::policy_dir`] — the one rule every reader and writer uses — points there.
#[test]
fn an_old_kernels_cpufreq_layout_reads_like_the_new_one() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = testsupport::fixture_machine("rk3399", tmp.path());
    let modern = snap("rk3399");
    assert_eq!(testsupport::legacy_cpufreq(&dir), [0, 4]);
    let root = Root::new(&dir);
    let m = snapshot::take(&root);
    assert_eq!(m.policies.len(), 2);
    for (old, new) in m.policies.iter().zip(&modern.policies) {
        assert_eq!(old.policy, new.policy);
        assert_eq!(old.related_cpus, new.related_cpus);
        assert_eq!(old.frequencies_khz, new.frequencies_khz);
        assert_eq!(old.governor, new.governor);
    }
    assert_eq!(
        probe::cpufreq::policy_dir(&root, 4),
        "/sys/devices/system/cpu/cpu4/cpufreq"
    );
    let mut notes = probe::Notes::default();
    let state = probe::runstate::read_policy_state(&root, &mut notes, &m.policies[1]);
    assert_eq!(state.governor, modern.policies[1].governor);
    assert_eq!(state.scaling_max_khz, modern.policies[1].scaling_max_khz);
    // The modern layout keeps its path; a policy in neither layout gets the modern one.
    let modern_root = Root::new(tree("rk3399"));
    assert_eq!(
        probe::cpufreq::policy_dir(&modern_root, 4),
        "/sys/devices/system/cpu/cpufreq/policy4"
    );
    assert_eq!(
        probe::cpufreq::policy_dir(&root, 9),
        "/sys/devices/system/cpu/cpufreq/policy9"
    );
}
