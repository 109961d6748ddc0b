//! Clock-column choice (docs/sbc-bench-compat.md) for 0/1/2/3/4/5+ clusters and the Raspberry Pi.

use document::machine::{Cluster, MachineInfo};
use document::samples::ClockColumns;
use probe::sampler::SamplerConfig;

fn machine(clusters: &[(u32, Option<u32>, Option<u64>)]) -> MachineInfo {
    MachineInfo {
        clusters: clusters
            .iter()
            .map(|&(first, policy, max)| Cluster {
                cpus: vec![first, first + 1],
                policy,
                core_name: None,
                min_khz: None,
                max_khz: max,
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    }
}

fn layout(clusters: &[(u32, Option<u32>, Option<u64>)]) -> (ClockColumns, Vec<usize>) {
    let l = SamplerConfig::from_machine(&machine(clusters)).layout;
    (l.columns, l.display_order)
}

#[test]
fn no_cpufreq_is_cpu_na() {
    assert_eq!(layout(&[]), (ClockColumns::None, vec![]));
    assert_eq!(layout(&[(0, None, None)]), (ClockColumns::None, vec![]));
}

#[test]
fn one_cluster_is_cpu() {
    assert_eq!(
        layout(&[(0, Some(0), Some(2_000_000))]),
        (ClockColumns::Single, vec![0])
    );
}

#[test]
fn two_clusters_are_big_little_with_the_faster_first() {
    // RK3399-style: little cores first, big last → big/little = last/first.
    assert_eq!(
        layout(&[(0, Some(0), Some(1_416_000)), (4, Some(4), Some(1_800_000))]),
        (ClockColumns::BigLittle, vec![1, 0])
    );
    // S922X-style: big cores first → swapped ("littlebig" in sbc-bench) to keep big first.
    assert_eq!(
        layout(&[(0, Some(0), Some(2_208_000)), (2, Some(2), Some(1_908_000))]),
        (ClockColumns::BigLittle, vec![0, 1])
    );
    // Unknown maxima: sbc-bench's default order, last/first.
    assert_eq!(
        layout(&[(0, Some(0), None), (4, Some(4), None)]),
        (ClockColumns::BigLittle, vec![1, 0])
    );
}

#[test]
fn three_four_and_more_clusters_get_one_column_each_up_to_five() {
    let three = [
        (0, Some(0), Some(1_800_000)),
        (4, Some(4), Some(2_256_000)),
        (6, Some(6), Some(2_256_000)),
    ];
    assert_eq!(layout(&three), (ClockColumns::PerCluster, vec![0, 1, 2]));
    let four = [
        (0, Some(0), None),
        (2, Some(2), None),
        (4, Some(4), None),
        (6, Some(6), None),
    ];
    assert_eq!(layout(&four), (ClockColumns::PerCluster, vec![0, 1, 2, 3]));
    let six: Vec<_> = (0..6).map(|i| (i * 2, Some(i * 2), None)).collect();
    let l = SamplerConfig::from_machine(&machine(&six)).layout;
    assert_eq!(l.columns, ClockColumns::PerCluster);
    assert_eq!(l.display_order, vec![0, 1, 2, 3, 4]);
    // Every cluster is still sampled; only the display is limited.
    assert_eq!(l.clusters.len(), 6);
    assert_eq!(l.clusters[5].first_cpu, 10);
}

#[test]
fn a_raspberry_pi_shows_fake_and_real_clocks() {
    let mut m = machine(&[(0, Some(0), Some(1_500_000))]);
    m.cpuinfo.model = Some("Raspberry Pi 4 Model B Rev 1.1".into());
    let l = SamplerConfig::from_machine(&m).layout;
    assert_eq!(l.columns, ClockColumns::FakeReal);
    assert_eq!(l.display_order, vec![0]);
    assert!(l.raspberry_pi);
    // Another board's model line does not make it a Pi.
    m.cpuinfo.model = Some("Radxa ROCK 5B".into());
    assert!(!SamplerConfig::from_machine(&m).layout.raspberry_pi);
}

#[test]
fn the_device_tree_compatible_also_identifies_a_pi_and_a_pi_can_drop_its_firmware_columns() {
    let mut m = machine(&[(0, Some(0), Some(2_400_000))]);
    m.identity.device_tree = Some(document::machine::DeviceTree {
        model: Some("Raspberry Pi 5 Model B Rev 1.0".into()),
        compatible: vec!["raspberrypi,5-model-b".into(), "brcm,bcm2712".into()],
    });
    let cfg = SamplerConfig::from_machine(&m);
    assert_eq!(cfg.layout.columns, ClockColumns::FakeReal);
    // No vcgencmd answering: the ordinary single-cluster view.
    let plain = cfg.without_raspberry_pi().layout;
    assert_eq!(plain.columns, ClockColumns::Single);
    assert!(!plain.raspberry_pi);
    assert_eq!(plain.clusters, cfg.layout.clusters);
}
