//! A mode's tuning from start to finish on a writable copy of the RK3588 fixture tree: every
//! planned change is made, and after restoring each file reads as before.

use tune::Restorer;
use tune::tuning::{TuneOptions, apply, plan, restore_and_record};

#[test]
fn start_applies_and_finish_restores_and_records_after() {
    let d = tempfile::tempdir().unwrap();
    testsupport::copy_tree(&testsupport::probe_root("rk3588"), d.path());
    let root = probe::Root::new(d.path());
    let m = probe::snapshot::take(&root);
    let opts = TuneOptions {
        governors: true,
        max_khz: Some(1_800_000),
        aspm: false,
    };
    let restorer = Restorer::new(&root);
    let applied = apply(&root, &restorer, &plan(&root, &m, &opts));
    assert!(applied.failures.is_empty(), "{:?}", applied.failures);
    let mut settings = applied.settings;
    let n = settings.len();
    assert!(n >= 3);
    for s in &settings {
        assert_eq!(root.read_value(&s.path).unwrap(), s.set);
    }
    let failed = restore_and_record(&root, &restorer, &mut settings);
    assert!(failed.is_empty(), "{failed:?}");
    assert_eq!(settings.len(), n);
    for s in &settings {
        assert_eq!(s.after.as_deref(), Some(s.before.as_str()), "{}", s.path);
    }
}
