//! The OPP walk on a fixture root: which files it writes, in which order, and which OPPs it
//! measures.

use measure::opp_walk::{PolicyWriter, WalkOptions, WriteError, walk};

#[derive(Default)]
struct Recorder {
    writes: Vec<(String, String)>,
    refuse: Option<&'static str>,
}

impl PolicyWriter for Recorder {
    fn write_value(&mut self, abs: &str, value: &str) -> Result<(), String> {
        if self.refuse.is_some_and(|r| abs.ends_with(r)) {
            return Err("Permission denied".into());
        }
        self.writes.push((abs.to_string(), value.to_string()));
        Ok(())
    }
}

#[derive(Debug)]
enum TestError {
    Write(WriteError),
    Measure,
}

impl From<WriteError> for TestError {
    fn from(e: WriteError) -> Self {
        TestError::Write(e)
    }
}

impl From<measure::Error> for TestError {
    fn from(_: measure::Error) -> Self {
        TestError::Measure
    }
}

fn rk3399() -> probe::Root {
    probe::Root::new(testsupport::probe_root("rk3399"))
}

fn rk3399_policies() -> Vec<document::machine::Policy> {
    let mut notes = probe::Notes::default();
    probe::cpufreq::read_policies(&rk3399(), &mut notes)
}

fn no_settle() -> WalkOptions {
    WalkOptions {
        settle: std::time::Duration::ZERO,
        ..WalkOptions::default()
    }
}

fn rel(w: &[(String, String)]) -> Vec<(String, String)> {
    w.iter()
        .map(|(p, v)| {
            (
                p.trim_start_matches("/sys/devices/system/cpu/cpufreq/")
                    .to_string(),
                v.clone(),
            )
        })
        .collect()
}

#[test]
fn big_cluster_walk_sets_performance_and_floor_then_caps_highest_first() {
    let policies = rk3399_policies();
    let big = policies.iter().find(|p| p.policy == 4).expect("policy4");
    assert_eq!(big.governor.as_deref(), Some("schedutil"));
    let mut rec = Recorder::default();
    let mut seen_caps = Vec::new();
    let measured = walk(&rk3399(), big, 0, &no_settle(), &mut rec, |rec, opp| {
        // At each measurement the cap just written is the OPP being measured.
        seen_caps.push(rec.writes.last().unwrap().1.clone());
        Ok::<_, TestError>(opp)
    })
    .unwrap();
    assert_eq!(
        measured,
        [
            1_800_000, 1_608_000, 1_416_000, 1_200_000, 1_008_000, 816_000, 600_000, 408_000
        ]
    );
    assert_eq!(
        seen_caps,
        measured.iter().map(u64::to_string).collect::<Vec<_>>()
    );
    let w = rel(&rec.writes);
    assert_eq!(
        w[0],
        ("policy4/scaling_governor".into(), "performance".into())
    );
    assert_eq!(w[1], ("policy4/scaling_min_freq".into(), "408000".into()));
    assert_eq!(w[2], ("policy4/scaling_max_freq".into(), "1800000".into()));
    assert_eq!(
        w.last().unwrap(),
        &("policy4/scaling_max_freq".into(), "408000".into())
    );
    assert_eq!(w.len(), 2 + 8);
    // uncap: back to the top for what follows.
    measure::opp_walk::uncap(&rk3399(), big, &no_settle(), &mut rec).unwrap();
    assert_eq!(
        rel(&rec.writes).last().unwrap(),
        &("policy4/scaling_max_freq".into(), "1800000".into())
    );
}

#[test]
fn max_and_min_khz_bound_the_walk_and_limit_keeps_the_top() {
    let policies = rk3399_policies();
    let little = policies.iter().find(|p| p.policy == 0).expect("policy0");
    let opts = WalkOptions {
        max_khz: Some(1_200_000),
        min_khz: Some(600_000),
        ..no_settle()
    };
    let mut rec = Recorder::default();
    let got = walk(&rk3399(), little, 0, &opts, &mut rec, |_, opp| {
        Ok::<_, TestError>(opp)
    })
    .unwrap();
    assert_eq!(got, [1_200_000, 1_008_000, 816_000, 600_000]);
    // The floor is cpuinfo_min_freq even when MinKHz skips the lowest OPPs.
    assert_eq!(rel(&rec.writes)[1].1, "408000");

    let top = WalkOptions {
        limit: Some(1),
        ..opts
    };
    let mut rec = Recorder::default();
    let got = walk(&rk3399(), little, 0, &top, &mut rec, |_, opp| {
        Ok::<_, TestError>(opp)
    })
    .unwrap();
    assert_eq!(got, [1_200_000]);
    assert_eq!(rec.writes.len(), 3);
}

#[test]
fn a_refused_write_ends_the_walk_before_any_measurement() {
    let policies = rk3399_policies();
    let mut rec = Recorder {
        refuse: Some("scaling_min_freq"),
        ..Recorder::default()
    };
    let mut measured = 0;
    let e = walk(
        &rk3399(),
        &policies[0],
        0,
        &no_settle(),
        &mut rec,
        |_, _| {
            measured += 1;
            Ok::<_, TestError>(())
        },
    )
    .unwrap_err();
    assert_eq!(measured, 0);
    match e {
        TestError::Write(w) => {
            assert!(w.path.ends_with("policy0/scaling_min_freq"), "{w}");
            assert!(w.to_string().contains("Permission denied"), "{w}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_policy_already_on_performance_keeps_its_governor_file_untouched() {
    let mut p = rk3399_policies().remove(0);
    p.governor = Some("performance".into());
    let mut rec = Recorder::default();
    walk(&rk3399(), &p, 0, &no_settle(), &mut rec, |_, _| {
        Ok::<_, TestError>(())
    })
    .unwrap();
    assert!(
        rec.writes
            .iter()
            .all(|(path, _)| !path.ends_with("scaling_governor"))
    );
}

/// An old BSP kernel (3.4/3.10/4.4) has no `cpufreq/policyN`, only `cpuN/cpufreq`: the walk
/// writes there, and the probe names the big cluster's policy after its first CPU.
#[test]
fn on_an_old_kernel_the_walk_writes_to_cpun_cpufreq() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = testsupport::fixture_machine("rk3399", tmp.path());
    assert_eq!(testsupport::legacy_cpufreq(&dir), [0, 4]);
    let root = probe::Root::new(&dir);
    let mut notes = probe::Notes::default();
    let policies = probe::cpufreq::read_policies(&root, &mut notes);
    let big = policies.iter().find(|p| p.policy == 4).expect("policy4");
    assert_eq!(big.related_cpus, [4, 5]);
    let mut rec = Recorder::default();
    let got = walk(&root, big, 0, &no_settle(), &mut rec, |_, opp| {
        Ok::<_, TestError>(opp)
    })
    .unwrap();
    assert_eq!(got.len(), 8);
    measure::opp_walk::uncap(&root, big, &no_settle(), &mut rec).unwrap();
    let dir = "/sys/devices/system/cpu/cpu4/cpufreq";
    assert!(
        rec.writes.iter().all(|(p, _)| p.starts_with(dir)),
        "{:?}",
        rec.writes
    );
    assert_eq!(
        rec.writes[0],
        (format!("{dir}/scaling_governor"), "performance".into())
    );
    assert_eq!(
        rec.writes.last().unwrap(),
        &(format!("{dir}/scaling_max_freq"), "1800000".into())
    );
}

#[test]
fn advertised_caches_come_from_the_probe_in_bytes() {
    let root = rk3399();
    let c = measure::caches::advertised(&root, 4);
    let mut notes = probe::Notes::default();
    let probed = probe::cache::read_caches(&root, &mut notes, 4);
    assert_eq!(
        c.len(),
        probed.iter().filter(|p| p.size_kib.is_some()).count()
    );
    for (a, p) in c.iter().zip(probed.iter().filter(|p| p.size_kib.is_some())) {
        assert_eq!((a.level, &a.kind), (p.level, &p.kind));
        assert_eq!(a.size_bytes, p.size_kib.unwrap() * 1024);
    }
}
