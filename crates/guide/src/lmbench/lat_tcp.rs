//! lat_tcp: µs per round trip of a one-byte message over TCP on 127.0.0.1 to our own echo
//! server (a forked child; lmbench needs `lat_tcp -s` started by hand, and TI's figures without
//! it are of failing syscalls). No TCP_NODELAY, as lmbench. ENOUGH floor two seconds.

use document::guide::GuideValue;

use super::sys::{Serve, Server, raw, round_trip};
use super::timing::{Error, Result, Timing, figures};

pub const FLOOR_US: f64 = 2_000_000.0;

pub fn measure(t: &Timing) -> Result<GuideValue> {
    let server = Server::start(Serve::Echo)?;
    let sock = server.connect()?;
    let fd = raw(&sock);
    let mut msg = [0u8; 1];
    round_trip(fd, fd, &mut msg)?;
    let samples = t.benchmp_try(FLOOR_US, |n| {
        for _ in 0..n {
            round_trip(fd, fd, &mut msg)?;
        }
        Ok(())
    })?;
    GuideValue::from_samples(&figures(&samples, |us| us)).ok_or(Error::Failed("no samples".into()))
}
