//! lat_sem: µs per hand-off of a SysV semaphore between this process and a forked partner (a
//! set of two semaphores; each round trip is two hand-offs, the figure is half of it). The
//! semaphore set is removed on every path. ENOUGH floor one second.

use document::guide::GuideValue;

use super::sys::Child;
use super::timing::{Error, Result, Timing, figures, os_err};

pub const FLOOR_US: f64 = 1_000_000.0;

/// A private SysV semaphore set, removed on drop.
struct SemSet(i32);

impl Drop for SemSet {
    fn drop(&mut self) {
        // SAFETY: removes our own semaphore set.
        unsafe { libc::semctl(self.0, 0, libc::IPC_RMID) };
    }
}

fn op(id: i32, ops: &mut [libc::sembuf]) -> bool {
    // SAFETY: semop on our set with a live array of operations.
    unsafe { libc::semop(id, ops.as_mut_ptr(), ops.len()) == 0 }
}

fn sb(num: u16, delta: i16) -> libc::sembuf {
    libc::sembuf {
        sem_num: num,
        sem_op: delta,
        sem_flg: 0,
    }
}

pub fn measure(t: &Timing) -> Result<GuideValue> {
    // SAFETY: creates a private set of two semaphores (initially 0 on Linux).
    let id = unsafe { libc::semget(libc::IPC_PRIVATE, 2, 0o600 | libc::IPC_CREAT) };
    if id < 0 {
        return Err(os_err("semget"));
    }
    let set = SemSet(id);
    let child = Child::spawn(move || {
        let mut post1 = [sb(1, 1)];
        if !op(id, &mut post1) {
            return;
        }
        let mut ops = [sb(0, -1), sb(1, 1)];
        while op(id, &mut ops) {}
    })?;
    let mut ops = [sb(1, -1), sb(0, 1)];
    let samples = t.benchmp_try(FLOOR_US, |n| {
        for _ in 0..n {
            if !op(set.0, &mut ops) {
                return Err(os_err("semop"));
            }
        }
        Ok(())
    });
    drop(child);
    drop(set);
    GuideValue::from_samples(&figures(&samples?, |us| us / 2.0))
        .ok_or(Error::Failed("no samples".into()))
}
