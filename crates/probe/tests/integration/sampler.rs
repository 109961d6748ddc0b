//! The sampler on recorded step sequences (tests/sampler-data): CPU-state deltas, the first
//! sample covering a real interval, clock sources, temperature and the Raspberry Pi input.

use std::path::{Path, PathBuf};

use document::machine::{Cluster, MachineInfo, ThermalSource};
use document::samples::{ClockColumns, RpiReadings};
use probe::Root;
use probe::sampler::{Sampler, SamplerConfig};
use probe::stat::parse_cpu_times;

fn data(case: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/sampler-data")
        .join(case)
}

/// A root whose directory is a symlink re-pointed to each recorded step in turn.
struct Steps {
    _dir: tempfile::TempDir,
    link: PathBuf,
    case: PathBuf,
}

impl Steps {
    fn new(case: &str) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("root");
        let s = Steps {
            _dir: dir,
            link,
            case: data(case),
        };
        s.go(0);
        s
    }
    fn go(&self, step: usize) {
        let _ = std::fs::remove_file(&self.link);
        std::os::unix::fs::symlink(self.case.join(format!("step{step}")), &self.link).unwrap();
    }
    fn root(&self) -> Root {
        Root::new(&self.link)
    }
}

fn cluster(cpus: std::ops::Range<u32>, policy: u32, max_khz: u64) -> Cluster {
    Cluster {
        cpus: cpus.clone().collect(),
        policy: Some(policy),
        core_name: None,
        min_khz: Some(408_000),
        max_khz: Some(max_khz),
        ..Default::default()
    }
}

fn rk3588() -> MachineInfo {
    MachineInfo {
        clusters: vec![
            cluster(0..4, 0, 1_800_000),
            cluster(4..6, 4, 2_256_000),
            cluster(6..8, 6, 2_304_000),
        ],
        thermal_source: Some(ThermalSource {
            path: "/sys/class/thermal/thermal_zone0/temp".into(),
            name: "soc-thermal".into(),
            why: "test".into(),
        }),
        ..Default::default()
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[test]
fn cpu_states_follow_the_documented_formulas_step_by_step() {
    let steps = Steps::new("rk3588");
    let cfg = SamplerConfig::from_machine(&rk3588());
    let mut s = Sampler::start(&cfg, &steps.root());

    steps.go(1);
    let a = s.sample();
    let c = a.cpu.expect("states over step0→1");
    assert!(close(c.cpu, 42.5), "{c:?}");
    assert!(close(c.usr, 30.0) && close(c.sys, 7.5) && close(c.nice, 1.0));
    assert!(close(c.io, 2.0) && close(c.irq, 2.0) && close(c.steal, 0.0));

    // guest time is part of user already: not added to the total a second time.
    steps.go(2);
    let c = s.sample().cpu.unwrap();
    assert!(close(c.cpu, 52.5), "{c:?}");
    assert!(close(c.usr, 50.0));

    // iowait going backwards is no progress, not a wrap-around.
    steps.go(3);
    let c = s.sample().cpu.unwrap();
    assert!(close(c.cpu, 0.25), "{c:?}");
    assert!(close(c.io, 0.0));

    // No tick between two readings: no states rather than 0 % or NaN.
    steps.go(4);
    assert_eq!(s.sample().cpu, None);
}

#[test]
fn the_first_sample_covers_the_interval_since_start_not_since_boot() {
    let steps = Steps::new("vm-busy");
    let cfg = SamplerConfig::from_machine(&MachineInfo::default());
    let mut s = Sampler::start(&cfg, &steps.root());
    steps.go(1);
    let first = s.sample().cpu.unwrap();

    let read = |n: usize| {
        let text = std::fs::read(data("vm-busy").join(format!("step{n}/proc/stat"))).unwrap();
        parse_cpu_times(&text).unwrap()
    };
    let interval = read(1).states_since(&read(0)).unwrap();
    let since_boot = read(1)
        .states_since(&probe::stat::CpuTimes::default())
        .unwrap();
    assert_eq!(first, interval);
    // The recorded interval was saturated; the since-boot average was not.
    assert!(close(first.cpu, 100.0), "{first:?}");
    assert!(since_boot.cpu < 90.0);
    assert!(first.interval_is_plausible());
}

trait Plausible {
    fn interval_is_plausible(&self) -> bool;
}
impl Plausible for document::samples::CpuStates {
    fn interval_is_plausible(&self) -> bool {
        let parts = self.sys + self.usr + self.nice + self.io + self.irq + self.steal;
        (0.0..=100.0).contains(&self.cpu) && close(parts, self.cpu)
    }
}

#[test]
fn load_clocks_and_temperature_come_from_the_step_files() {
    let steps = Steps::new("rk3588");
    let cfg = SamplerConfig::from_machine(&rk3588());
    assert_eq!(cfg.layout.columns, ClockColumns::PerCluster);
    let mut s = Sampler::start(&cfg, &steps.root());
    steps.go(1);
    let a = s.sample();
    assert_eq!(a.load1, Some(0.61));
    // policy4 has a readable cpuinfo_cur_freq (2254000): it wins over scaling_cur_freq.
    assert_eq!(a.clocks_mhz, vec![Some(1800), Some(2254), Some(2304)]);
    assert_eq!(a.temp_c, Some(41.5));
    assert_eq!(a.rpi, None);
    steps.go(2);
    let b = s.sample();
    assert_eq!(b.clocks_mhz, vec![Some(1800), Some(406), Some(408)]);
    assert_eq!((b.load1, b.temp_c), (Some(1.2), Some(44.25)));
}

#[test]
fn missing_files_give_absent_values_not_errors() {
    let empty = tempfile::tempdir().unwrap();
    let cfg = SamplerConfig::from_machine(&rk3588());
    let mut s = Sampler::start(&cfg, &Root::new(empty.path()));
    let a = s.sample();
    assert_eq!(a.clocks_mhz, vec![None, None, None]);
    assert_eq!((a.load1, a.cpu, a.temp_c), (None, None, None));
}

#[test]
fn raspberry_pi_readings_come_from_the_supplied_source() {
    let steps = Steps::new("rk3588");
    let mut m = rk3588();
    m.clusters.truncate(1);
    m.cpuinfo.model = Some("Raspberry Pi 4 Model B Rev 1.4".into());
    let cfg = SamplerConfig::from_machine(&m);
    assert_eq!(cfg.layout.columns, ClockColumns::FakeReal);
    assert!(cfg.layout.raspberry_pi);
    let mut calls = 0u32;
    let mut s = Sampler::start(&cfg, &steps.root()).with_rpi(Box::new(move || {
        calls += 1;
        RpiReadings {
            arm_mhz: Some(1500 + calls),
            core_volts: Some(0.8595),
        }
    }));
    steps.go(1);
    let a = s.sample();
    assert_eq!(a.clocks_mhz, vec![Some(1800)]);
    assert_eq!(
        a.rpi,
        Some(RpiReadings {
            arm_mhz: Some(1501),
            core_volts: Some(0.8595)
        })
    );
    assert_eq!(s.sample().rpi.unwrap().arm_mhz, Some(1502));
}

#[test]
fn an_unreadable_clock_is_absent_and_the_sampler_can_move_to_a_thread() {
    // sbc-bench #138: a policy whose CPUs are all offline still exists, but reading its clock
    // fails (EBUSY there; a directory in place of the file here gives a read error too).
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("sys/devices/system/cpu/cpufreq/policy0");
    std::fs::create_dir_all(p.join("scaling_cur_freq")).unwrap();
    std::fs::create_dir_all(p.join("cpuinfo_cur_freq")).unwrap();
    let mut m = rk3588();
    m.clusters.truncate(1);
    let cfg = SamplerConfig::from_machine(&m);
    let s = Sampler::start(&cfg, &Root::new(d.path()));
    // The run's background monitor samples from its own thread.
    let sample = std::thread::spawn(move || {
        let mut s = s;
        s.sample()
    })
    .join()
    .unwrap();
    assert_eq!(sample.clocks_mhz, vec![None]);
}

#[test]
fn a_cluster_with_every_cpu_offline_gets_no_clock_column() {
    // RK3399 with the big cluster (cpu4-5) unplugged: sbc-bench #138.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/roots/rk3399-big-offline");
    let m = probe::snapshot::take(&Root::new(&root));
    assert_eq!(m.clusters.len(), 2, "the cluster itself stays");
    let cfg = SamplerConfig::from_machine(&m);
    let firsts: Vec<u32> = cfg.layout.clusters.iter().map(|c| c.first_cpu).collect();
    assert_eq!(firsts, [0]);
    assert_eq!(cfg.layout.columns, ClockColumns::Single);
    let full = probe::snapshot::take(&Root::new(root.with_file_name("rk3399")));
    assert_eq!(SamplerConfig::from_machine(&full).layout.clusters.len(), 2);
}
