//! lat_unix: µs per round trip of a one-byte message over an AF_UNIX stream socket pair to a
//! forked partner that echoes it.

use document::guide::GuideValue;

use super::sys::{Child, raw, read_exact, round_trip, socketpair, write_all};
use super::timing::{Error, Result, Timing, figures};

pub fn measure(t: &Timing) -> Result<GuideValue> {
    let (mine, theirs) = socketpair()?;
    let fd = raw(&theirs);
    let _child = Child::spawn(move || {
        let mut c = [0u8; 1];
        while read_exact(fd, &mut c) && write_all(fd, &c) {}
    })?;
    let mut msg = [0u8; 1];
    let samples = t.benchmp_try(0.0, |n| {
        for _ in 0..n {
            round_trip(raw(&mine), raw(&mine), &mut msg)?;
        }
        Ok(())
    })?;
    GuideValue::from_samples(&figures(&samples, |us| us)).ok_or(Error::Failed("no samples".into()))
}
