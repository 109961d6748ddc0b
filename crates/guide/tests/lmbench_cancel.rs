//! Ctrl-C in the middle of a method: the measurement stops with `Cancelled`, and nothing it
//! started is left — no partner process, no SysV semaphore set, no file. One test in its own
//! binary, so no other test's children are around when it counts them.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use guide::lmbench::timing::{Error, Timing};
use guide::lmbench::{self, Plan, lat_pipe, lat_sem};

fn sem_sets() -> usize {
    std::fs::read_to_string("/proc/sysvipc/sem")
        .map(|s| s.lines().count().saturating_sub(1))
        .unwrap_or(0)
}

fn no_children() -> bool {
    let mut status = 0;
    // SAFETY: a non-blocking wait for any child of this process.
    let r = unsafe { libc::waitpid(-1, &mut status, libc::WNOHANG) };
    r == -1 && std::io::Error::last_os_error().raw_os_error() == Some(libc::ECHILD)
}

/// A harness of 11 intervals of ≥ 20 ms (one-second floors ×0.05) whose cancel flag is set
/// after `after` (cancellation acts between intervals).
fn cancelled_after(after: Duration) -> Timing {
    let flag = Arc::new(AtomicBool::new(false));
    let f = flag.clone();
    std::thread::spawn(move || {
        std::thread::sleep(after);
        f.store(true, Ordering::Relaxed);
    });
    let mut t = Timing::with_enough(20_000.0).with_cancel(flag);
    t.floor_scale = 0.05;
    t
}

#[test]
fn cancelling_leaves_no_process_semaphore_or_file_behind() {
    if testsupport::host_only() {
        eprintln!("skipped: emulated target (forks partner processes)");
        return;
    }
    let sems = sem_sets();
    let t = cancelled_after(Duration::from_millis(100));
    assert_eq!(lat_sem::measure(&t), Err(Error::Cancelled));
    assert_eq!(sem_sets(), sems);
    assert!(no_children());
    let t = cancelled_after(Duration::from_millis(100));
    assert_eq!(lat_pipe::measure(&t), Err(Error::Cancelled));
    assert!(no_children());

    // The whole section: what was measured before the cancel is kept, the rest is not run.
    // The cancel comes 1.5 s after the section has written its test file (a busy machine may
    // take long to get there).
    let dir = std::env::temp_dir().join(format!("bb-lmbench-cancel-{}", std::process::id()));
    let flag = Arc::new(AtomicBool::new(false));
    let (f, file) = (flag.clone(), dir.join("test1.txt"));
    std::thread::spawn(move || {
        let full = lmbench::TEST_FILE_BYTES as u64;
        while std::fs::metadata(&file).map(|m| m.len()).unwrap_or(0) < full {
            std::thread::sleep(Duration::from_millis(10));
        }
        std::thread::sleep(Duration::from_millis(1500));
        f.store(true, Ordering::Relaxed);
    });
    let mut t = Timing::with_enough(20_000.0).with_cancel(flag);
    t.floor_scale = 0.05;
    let out = lmbench::run_with(&t, &Plan::quick(Some(1 << 20)), &dir);
    let rows = &out.tables[0].rows;
    assert!(rows.iter().any(|r| r.cells[0].is_some()), "nothing kept");
    assert!(!rows.iter().any(|r| r.key.starts_with("bw_tcp")), "ran on");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    assert!(no_children());
    assert_eq!(sem_sets(), sems);
    let _ = std::fs::remove_dir_all(&dir);
}
