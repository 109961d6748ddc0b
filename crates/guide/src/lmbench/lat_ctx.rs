//! lat_ctx: µs per context switch in a ring of P processes joined by pipes, each summing its
//! own private working set of S KiB when the token arrives. The cost of one hop without a
//! switch (write a token into a pipe, read it back, sum a cache-hot buffer) is measured first in
//! a forked process of its own (as lmbench, in a benchmp child of its own) and subtracted:
//! figure = t/n/P − overhead; the ring is then forked from a second fresh child (lmbench's
//! second benchmp child). The working set is summed as
//! lmbench sums it (`sys::bread`). Not pinned, like TI's runs: on several CPUs the ring
//! measures cross-CPU wake-ups as much as switches.

use document::guide::GuideValue;

use super::sys::{Child, bread, pipe, raw, read_exact, write_all};
use super::timing::{Error, Result, Timing, median};

/// The ring's pipes (read, write) and the children; everything closes/dies on drop.
struct Ring {
    pipes: Vec<(std::os::fd::OwnedFd, std::os::fd::OwnedFd)>,
    _children: Vec<Child>,
}

/// A working set of `size` bytes (at least one word), word-aligned for [`bread`].
fn working_set(size: usize) -> Vec<usize> {
    vec![0usize; size.div_ceil(size_of::<usize>()).max(1)]
}

/// The working set's bytes.
fn bytes(w: &[usize]) -> &[u8] {
    // SAFETY: the same memory viewed as bytes (u8 has no alignment or validity requirement).
    unsafe { std::slice::from_raw_parts(w.as_ptr().cast::<u8>(), std::mem::size_of_val(w)) }
}

/// Fills a working set with non-zero bytes, so its pages are really the process's own.
fn fill(w: &mut [usize]) {
    for (k, x) in w.iter_mut().enumerate() {
        *x = k.wrapping_mul(0x0101_0101) | 1;
    }
}

fn hop(rd: i32, wr: i32, token: &mut [u8; 4]) -> bool {
    write_all(wr, token) && read_exact(rd, token)
}

/// µs of one hop without a context switch (the overhead), for `procs` pipes.
fn overhead(t: &Timing, procs: usize, size: usize) -> Result<f64> {
    let pipes: Vec<_> = (0..procs).map(|_| pipe()).collect::<Result<_>>()?;
    let mut buf = working_set(size);
    fill(&mut buf);
    let mut token = [0u8; 4];
    let mut sink = 0usize;
    let samples = t.benchmp_try(0.0, |n| {
        for i in 0..n as usize {
            let (r, w) = &pipes[i % procs];
            if !hop(raw(r), raw(w), &mut token) {
                return Err(Error::Failed("pipe hop failed".into()));
            }
            sink = sink.wrapping_add(bread(bytes(&buf)));
        }
        Ok(())
    })?;
    buf[0] = sink;
    std::hint::black_box(&buf);
    Ok(median(&samples).map(|s| s.per_iter()).unwrap_or(0.0))
}

/// µs per switch for `procs` processes with `size_kib` KiB each, and the overhead subtracted.
pub fn measure(t: &Timing, procs: usize, size_kib: usize) -> Result<(GuideValue, f64)> {
    let size = size_kib * 1024;
    // The overhead in a process of its own, as lmbench measures it in a benchmp child of its
    // own before the ring's: a ring process that has just run 11 busy intervals is placed
    // differently by the scheduler (on this 2-vCPU guest the ring then started cross-CPU at
    // 24–31 µs per hop; lmbench's and ours with a fresh first process start on one vCPU at 4 µs
    // and move apart later: the 4-process ring read 1.7× lmbench's before, 0.9–1.15× after).
    let ovr = super::isolate::in_child(t, |t| overhead(t, procs, size))?;
    // The ring, too, from a freshly forked process, as lmbench forks a benchmp child for it: a
    // new process starts with the load the scheduler gives a new task, and the ring's
    // placement on few CPUs follows from that. From the (small) process that forked the
    // overhead's child and waited for it, the 4-process ring read 1.13–1.15× lmbench's
    // (12 rotated rounds on issue 21's 2-vCPU guest); from a fresh child 0.94–0.98×.
    let samples = super::isolate::in_child(t, |t| ring(t, procs, size))?;
    let per_switch: Vec<f64> = samples
        .iter()
        .map(|s| (s / procs as f64 - ovr).max(0.0))
        .collect();
    let v = GuideValue::from_samples(&per_switch).ok_or(Error::Failed("no samples".into()))?;
    Ok((v, ovr))
}

/// The ring's per-iteration times (µs per trip around the ring), measured from this process.
fn ring(t: &Timing, procs: usize, size: usize) -> Result<Vec<f64>> {
    let pipes: Vec<_> = (0..procs).map(|_| pipe()).collect::<Result<_>>()?;
    let mut children = Vec::new();
    // Buffers prepared before the forks; each child writes its own copy once, so its pages
    // become private (copy-on-write) before the ring starts.
    let mut bufs: Vec<Vec<usize>> = (0..procs).map(|_| working_set(size)).collect();
    for i in 1..procs {
        let rd = raw(&pipes[i - 1].0);
        let wr = raw(&pipes[i].1);
        let buf_ptr = bufs[i].as_mut_ptr();
        let len = bufs[i].len();
        children.push(Child::spawn(move || {
            // SAFETY: the child's own copy of a buffer allocated before the fork.
            let buf = unsafe { std::slice::from_raw_parts_mut(buf_ptr, len) };
            fill(buf);
            let mut token = [0u8; 4];
            let mut sink = 0usize;
            while read_exact(rd, &mut token) {
                sink = sink.wrapping_add(bread(bytes(buf)));
                token[0] = token[0].wrapping_add(sink as u8 & 1);
                if !write_all(wr, &token) {
                    break;
                }
            }
        })?);
    }
    let ring = Ring {
        pipes,
        _children: children,
    };
    let first_wr = raw(&ring.pipes[0].1);
    let last_rd = raw(&ring.pipes[procs - 1].0);
    // Our own working set is written too (lmbench zeroes it): untouched pages of a zeroed
    // allocation would all map the kernel's one zero page, a 4 KiB working set.
    let mine = &mut bufs[0];
    fill(mine);
    let mut token = [0u8; 4];
    let mut sink = 0usize;
    let samples = t.benchmp_try(0.0, |n| {
        for _ in 0..n {
            if !hop(last_rd, first_wr, &mut token) {
                return Err(Error::Failed("lat_ctx: a ring process stopped".into()));
            }
            sink = sink.wrapping_add(bread(bytes(mine)));
        }
        Ok(())
    })?;
    std::hint::black_box(sink);
    drop(ring);
    Ok(samples.iter().map(|s| s.per_iter()).collect())
}
