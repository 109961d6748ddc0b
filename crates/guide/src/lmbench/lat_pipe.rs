//! lat_pipe: µs per round trip of one byte through two pipes between this process and a forked
//! partner that reads a byte from one pipe and writes it to the other (two one-way transfers and,
//! on one CPU, two context switches). lmbench's ENOUGH floor is one second.

use document::guide::GuideValue;

use super::sys::{Child, pipe, raw, read_exact, round_trip, write_all};
use super::timing::{Error, Result, Timing, figures};

pub const FLOOR_US: f64 = 1_000_000.0;

pub fn measure(t: &Timing) -> Result<GuideValue> {
    let (a_rd, a_wr) = pipe()?;
    let (b_rd, b_wr) = pipe()?;
    let (cr, cw) = (raw(&a_rd), raw(&b_wr));
    let _child = Child::spawn(move || {
        let mut c = [0u8; 1];
        while read_exact(cr, &mut c) && write_all(cw, &c) {}
    })?;
    let mut msg = [0u8; 1];
    round_trip(raw(&a_wr), raw(&b_rd), &mut msg)?;
    let samples = t.benchmp_try(FLOOR_US, |n| {
        for _ in 0..n {
            round_trip(raw(&a_wr), raw(&b_rd), &mut msg)?;
        }
        Ok(())
    })?;
    GuideValue::from_samples(&figures(&samples, |us| us)).ok_or(Error::Failed("no samples".into()))
}
