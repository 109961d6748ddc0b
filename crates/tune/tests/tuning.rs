//! A mode's tuning from start to finish on a writable copy of the RK3588 fixture tree: every
//! planned change is made, and after restoring each file reads as before.

use tune::Restorer;
use tune::tuning::{TuneOptions, apply, plan, restore_and_record};

#[test]
fn start_applies_and_finish_restores_and_records_after() {
    let d = tempfile::tempdir().unwrap();
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../probe/tests/roots/rk3588");
    copy(&src, d.path());
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

fn copy(from: &std::path::Path, to: &std::path::Path) {
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let t = to.join(e.file_name());
        let ty = e.file_type().unwrap();
        if ty.is_dir() {
            std::fs::create_dir_all(&t).unwrap();
            copy(&e.path(), &t);
        } else if ty.is_symlink() {
            std::os::unix::fs::symlink(std::fs::read_link(e.path()).unwrap(), &t).unwrap();
        } else {
            std::fs::copy(e.path(), &t).unwrap();
        }
    }
}
