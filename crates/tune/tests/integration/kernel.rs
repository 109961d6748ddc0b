//! The Restorer against a model of the kernel: each file of `roots/kernel-forms` holds what the
//! kernel shows, and [`Kernel`] accepts a write only where the kernel would (one governor name,
//! one ASPM policy, a number …), then shows the new value in the kernel's own form. So a restore
//! that writes back the shown text of an `[a] b c` file fails here as it fails on a board.

use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use tune::tuning::{Plan, Write, apply};
use tune::{Restorer, Sysfs};

const GOV: &str = "/sys/devices/system/cpu/cpufreq/policy0/scaling_governor";
const MIN: &str = "/sys/devices/system/cpu/cpufreq/policy0/scaling_min_freq";
const MAX: &str = "/sys/devices/system/cpu/cpufreq/policy0/scaling_max_freq";
const SETSPEED: &str = "/sys/devices/system/cpu/cpufreq/policy0/scaling_setspeed";
const BOOST: &str = "/sys/devices/system/cpu/cpufreq/boost";
const DEVFREQ_GOV: &str = "/sys/class/devfreq/dmc/governor";
const DEVFREQ_MIN: &str = "/sys/class/devfreq/dmc/min_freq";
const DEVFREQ_MAX: &str = "/sys/class/devfreq/dmc/max_freq";
const ASPM: &str = "/sys/module/pcie_aspm/parameters/policy";
const THP: &str = "/sys/kernel/mm/transparent_hugepage/enabled";
const SCHED: &str = "/sys/block/mmcblk0/queue/scheduler";

/// Every file the Restorer writes, with a value to change it to.
const CHANGES: &[(&str, &str)] = &[
    (GOV, "performance"),
    (MIN, "1800000"),
    (MAX, "1416000"),
    (BOOST, "0"),
    (DEVFREQ_GOV, "performance"),
    (DEVFREQ_MIN, "856000000"),
    (DEVFREQ_MAX, "528000000"),
    (ASPM, "performance"),
    (THP, "always"),
    (SCHED, "none"),
];

/// A writable copy of the fixture tree.
fn tree() -> (tempfile::TempDir, probe::Root) {
    let d = tempfile::tempdir().unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/roots/kernel-forms");
    testsupport::copy_tree(&fixture, d.path());
    let root = probe::Root::new(d.path());
    (d, root)
}

/// The kernel's acceptance rules over a fixture tree; `refuse` maps paths to an errno.
#[derive(Debug)]
struct Kernel {
    dir: PathBuf,
    refuse: HashMap<&'static str, i32>,
    writes: Mutex<Vec<(String, String)>>,
}

impl Kernel {
    fn new(root: &probe::Root) -> Self {
        Kernel {
            dir: root.path("/"),
            refuse: HashMap::new(),
            writes: Mutex::new(Vec::new()),
        }
    }

    fn file(&self, abs: &str) -> PathBuf {
        self.dir.join(abs.trim_start_matches('/'))
    }

    fn sibling_words(&self, abs: &str, name: &str) -> Vec<String> {
        let dir = Path::new(abs).parent().unwrap().join(name);
        self.read(dir.to_str().unwrap())
            .unwrap()
            .split_whitespace()
            .map(str::to_string)
            .collect()
    }

    /// What the kernel shows after accepting `v`, or EINVAL.
    fn accept(&self, abs: &str, v: &str) -> io::Result<String> {
        let einval = || io::Error::from_raw_os_error(libc::EINVAL);
        let name = Path::new(abs).file_name().unwrap().to_str().unwrap();
        let number = || {
            v.parse::<u64>()
                .map(|_| format!("{v}\n"))
                .map_err(|_| einval())
        };
        match name {
            "scaling_governor"
                if self
                    .sibling_words(abs, "scaling_available_governors")
                    .iter()
                    .any(|g| g == v) =>
            {
                Ok(format!("{v}\n"))
            }
            "governor"
                if self
                    .sibling_words(abs, "available_governors")
                    .iter()
                    .any(|g| g == v) =>
            {
                Ok(format!("{v}\n"))
            }
            "scaling_min_freq" | "scaling_max_freq" | "min_freq" | "max_freq" => number(),
            "boost" if v == "0" || v == "1" => Ok(format!("{v}\n")),
            "policy" | "enabled" | "scheduler" => {
                let shown = self.read(abs)?;
                let words: Vec<&str> = shown
                    .split_whitespace()
                    .map(|w| w.trim_start_matches('[').trim_end_matches(']'))
                    .collect();
                if !words.contains(&v) {
                    return Err(einval());
                }
                let list: Vec<String> = words
                    .iter()
                    .map(|w| {
                        if *w == v {
                            format!("[{w}]")
                        } else {
                            w.to_string()
                        }
                    })
                    .collect();
                let tail = if shown.ends_with(" \n") { " \n" } else { "\n" };
                Ok(format!("{}{tail}", list.join(" ")))
            }
            _ => Err(einval()),
        }
    }
}

impl Sysfs for Kernel {
    fn read(&self, abs: &str) -> io::Result<String> {
        std::fs::read_to_string(self.file(abs))
    }

    fn write(&self, abs: &str, value: &str) -> io::Result<()> {
        self.writes
            .lock()
            .unwrap()
            .push((abs.to_string(), value.to_string()));
        if let Some(errno) = self.refuse.get(abs) {
            return Err(io::Error::from_raw_os_error(*errno));
        }
        // sysfs strips one trailing newline (sysfs_streq, sscanf); anything else stays.
        let v = value.strip_suffix('\n').unwrap_or(value);
        let shown = self.accept(abs, v)?;
        std::fs::write(self.file(abs), shown)
    }
}

fn content(root: &probe::Root, abs: &str) -> String {
    std::fs::read_to_string(root.path(abs)).unwrap()
}

#[test]
fn every_written_file_is_put_back_in_a_form_the_kernel_accepts() {
    let (_d, root) = tree();
    let originals: Vec<String> = CHANGES.iter().map(|(p, _)| content(&root, p)).collect();
    let kernel = Arc::new(Kernel::new(&root));
    let r = Restorer::with_sysfs(kernel.clone());
    for (path, value) in CHANGES {
        r.write(path, value)
            .unwrap_or_else(|e| panic!("the model refused {value} for {path}: {e}"));
        assert_ne!(
            &content(&root, path),
            &originals[CHANGES.iter().position(|(p, _)| p == path).unwrap()],
            "{path} did not change"
        );
    }
    assert_eq!(r.changed().len(), CHANGES.len());
    let failed = r.restore();
    assert!(failed.is_empty(), "the kernel refused restores: {failed:?}");
    for ((path, _), original) in CHANGES.iter().zip(&originals) {
        assert_eq!(&content(&root, path), original, "{path} not as found");
    }
    let restores: HashMap<String, String> = kernel.writes.lock().unwrap()[CHANGES.len()..]
        .iter()
        .cloned()
        .collect();
    assert_eq!(restores[ASPM], "default\n");
    assert_eq!(restores[THP], "madvise\n");
    assert_eq!(restores[SCHED], "mq-deadline\n");
    assert_eq!(restores[GOV], "schedutil\n");
    assert_eq!(restores[DEVFREQ_GOV], "dmc_ondemand\n");
}

#[test]
fn on_plain_files_the_aspm_policy_is_restored_with_the_selected_word() {
    let (_d, root) = tree();
    {
        let r = Restorer::new(&root);
        r.write(ASPM, "performance").unwrap();
        assert_eq!(content(&root, ASPM), "performance\n");
    }
    // What a kernel accepts; it then shows "[default] performance powersave powersupersave ".
    assert_eq!(content(&root, ASPM), "default\n");
}

#[test]
fn a_refused_write_is_reported_once_not_recorded_and_not_restored() {
    let (_d, root) = tree();
    let mut kernel = Kernel::new(&root);
    kernel.refuse.insert(ASPM, libc::EPERM); // EPERM: ASPM disabled by the firmware or pcie_aspm=off
    let kernel = Arc::new(kernel);
    let r = Restorer::with_sysfs(kernel.clone());
    let e = r.write(ASPM, "performance").unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "could not change {ASPM} to performance: {}",
            io::Error::from_raw_os_error(libc::EPERM)
        )
    );
    r.write(GOV, "performance").unwrap();
    assert_eq!(r.changed(), [GOV]);
    assert!(r.restore().is_empty());
    let aspm_writes = kernel
        .writes
        .lock()
        .unwrap()
        .iter()
        .filter(|(p, _)| p == ASPM)
        .count();
    assert_eq!(aspm_writes, 1, "the refused file was written again");
    assert_eq!(
        content(&root, ASPM),
        "[default] performance powersave powersupersave \n"
    );
}

#[test]
fn tuning_reports_a_refused_write_and_records_only_real_changes() {
    let (_d, root) = tree();
    let mut kernel = Kernel::new(&root);
    kernel.refuse.insert(DEVFREQ_GOV, libc::EBUSY);
    let r = Restorer::with_sysfs(Arc::new(kernel));
    let plan = Plan {
        writes: [GOV, DEVFREQ_GOV]
            .iter()
            .map(|p| Write {
                what: p.to_string(),
                path: p.to_string(),
                from: None,
                value: "performance".into(),
            })
            .collect(),
        remarks: Vec::new(),
    };
    let applied = apply(&root, &r, &plan);
    assert_eq!(applied.settings.len(), 1);
    assert_eq!(applied.settings[0].path, GOV);
    assert_eq!(applied.settings[0].before, "schedutil");
    assert_eq!(applied.failures.len(), 1);
    assert!(
        applied.failures[0]
            .starts_with(&format!("could not change {DEVFREQ_GOV} to performance: ")),
        "{:?}",
        applied.failures
    );
    assert_eq!(r.changed(), [GOV]);
}

#[test]
fn a_file_whose_value_cannot_be_put_back_is_left_alone() {
    let (_d, root) = tree();
    let kernel = Arc::new(Kernel::new(&root));
    let r = Restorer::with_sysfs(kernel.clone());
    let e = r.write(SETSPEED, "1200000").unwrap_err();
    assert!(e.to_string().contains("could not be put back"), "{e}");
    assert!(kernel.writes.lock().unwrap().is_empty());
    assert!(r.changed().is_empty());
}

#[test]
fn a_missing_file_is_refused_and_nothing_is_recorded() {
    let (_d, root) = tree();
    let r = Restorer::new(&root);
    let e = r.write("/sys/nope/scaling_max_freq", "1").unwrap_err();
    assert!(e.to_string().contains("/sys/nope/scaling_max_freq"), "{e}");
    assert!(r.changed().is_empty());
    assert!(!root.path("/sys/nope").exists());
}
