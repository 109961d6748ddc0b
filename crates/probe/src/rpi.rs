//! Raspberry Pi firmware readings through `vcgencmd`.
//!
//! Used only when the device tree's `compatible` says `raspberrypi,…`: a `vcgencmd` on another
//! board (sbc-bench PR #13: fake wrappers) must not make it a Raspberry Pi.
//!
//! The command runs through a [`CommandRunner`] so tests (and fixture trees) replace it by
//! recorded outputs: [`FixtureRunner`] reads `<root>/.fixture/vcgencmd/<args joined by
//! spaces>.txt`, e.g. `.fixture/vcgencmd/measure_clock arm.txt` holding
//! `frequency(48)=1500398464`. A missing recording is "command not available".

use std::path::PathBuf;

use document::machine::{RpiFirmware, Throttled};
use document::samples::RpiReadings;

use crate::{Absent, Notes, Root};

/// Where fixture trees keep recorded vcgencmd outputs, relative to the root.
pub const FIXTURE_DIR: &str = ".fixture/vcgencmd";

/// Runs `vcgencmd <args>` and returns its standard output.
pub trait CommandRunner: Send {
    fn run(&mut self, args: &[&str]) -> Result<String, String>;
}

/// The real `vcgencmd` found on PATH (or in /usr/bin, /opt/vc/bin).
#[derive(Debug, Default)]
pub struct SystemRunner;

impl CommandRunner for SystemRunner {
    fn run(&mut self, args: &[&str]) -> Result<String, String> {
        let candidates = ["vcgencmd", "/usr/bin/vcgencmd", "/opt/vc/bin/vcgencmd"];
        let mut last = String::from("vcgencmd not found");
        for c in candidates {
            match run_bounded(c, args) {
                Ok(o) if o.status.success() => {
                    return Ok(String::from_utf8_lossy(&o.stdout).into_owned());
                }
                Ok(o) => {
                    return Err(format!(
                        "vcgencmd {} failed: {}",
                        args.join(" "),
                        String::from_utf8_lossy(&o.stderr).trim()
                    ));
                }
                Err(e) if e.kind() == std::io::ErrorKind::TimedOut => {
                    return Err(format!("vcgencmd {}: {e}", args.join(" ")));
                }
                Err(e) => last = format!("{c}: {e}"),
            }
        }
        Err(last)
    }
}

/// Runs a firmware query with the probe's read timeout: vcgencmd waits on the firmware's
/// mailbox, which can stop answering; the monitor must go on (and end on Ctrl-C) regardless.
/// The outputs are a line or two, far below a pipe's buffer, so reading them after the exit
/// cannot block the child.
fn run_bounded(program: &str, args: &[&str]) -> std::io::Result<std::process::Output> {
    use std::process::Stdio;
    let mut child = std::process::Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let deadline = std::time::Instant::now() + crate::bounded_read::READ_TIMEOUT;
    while child.try_wait()?.is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                format!(
                    "no answer within {} s",
                    crate::bounded_read::READ_TIMEOUT.as_secs()
                ),
            ));
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    child.wait_with_output()
}

/// Recorded outputs in a fixture tree.
#[derive(Debug, Clone)]
pub struct FixtureRunner {
    pub dir: PathBuf,
}

impl FixtureRunner {
    pub fn for_root(root: &Root) -> Self {
        FixtureRunner {
            dir: root.dir().join(FIXTURE_DIR),
        }
    }
}

impl CommandRunner for FixtureRunner {
    fn run(&mut self, args: &[&str]) -> Result<String, String> {
        // The message names the file relative to the root, so it is the same on every host.
        let name = format!("{}.txt", args.join(" "));
        crate::bounded_read::read_whole(&self.dir.join(&name), crate::bounded_read::Kind::Text)
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .map_err(|e| match e {
                crate::bounded_read::ReadError::Missing => {
                    format!("no recording {FIXTURE_DIR}/{name}")
                }
                e => format!("recording {FIXTURE_DIR}/{name}: {e}"),
            })
    }
}

/// The vcgencmd adapter: commands and their output parsers.
pub struct VcGenCmd {
    runner: Box<dyn CommandRunner>,
}

impl VcGenCmd {
    pub fn new(runner: Box<dyn CommandRunner>) -> Self {
        VcGenCmd { runner }
    }

    /// The real command on the live system, recorded outputs for any other root.
    pub fn for_root(root: &Root) -> Self {
        if root.is_host() {
            Self::new(Box::new(SystemRunner))
        } else {
            Self::new(Box::new(FixtureRunner::for_root(root)))
        }
    }

    fn run(&mut self, args: &[&str]) -> Result<String, Absent> {
        self.runner.run(args).map_err(|reason| Absent {
            path: format!("vcgencmd {}", args.join(" ")),
            reason,
        })
    }

    fn parsed<T>(&mut self, args: &[&str], p: fn(&str) -> Option<T>) -> Result<T, Absent> {
        let out = self.run(args)?;
        p(&out).ok_or_else(|| Absent {
            path: format!("vcgencmd {}", args.join(" ")),
            reason: format!(
                "unexpected output {:?}",
                crate::root::truncate(out.trim(), 40)
            ),
        })
    }

    /// `measure_clock arm` in Hz.
    pub fn arm_clock_hz(&mut self) -> Result<u64, Absent> {
        self.parsed(&["measure_clock", "arm"], parse_clock)
    }

    /// `measure_volts core` in V.
    pub fn core_volts(&mut self) -> Result<f64, Absent> {
        self.parsed(&["measure_volts", "core"], parse_volts)
    }

    /// `get_throttled`, decoded.
    pub fn throttled(&mut self) -> Result<Throttled, Absent> {
        self.parsed(&["get_throttled"], parse_throttled)
    }

    /// The monitor's per-sample readings.
    pub fn readings(&mut self) -> RpiReadings {
        RpiReadings {
            arm_mhz: self
                .arm_clock_hz()
                .ok()
                .and_then(|hz| u32::try_from((hz + 500_000) / 1_000_000).ok()),
            core_volts: self.core_volts().ok(),
        }
    }

    /// All three readings for the snapshot; failures go to the notes.
    pub fn firmware(&mut self, notes: &mut Notes) -> RpiFirmware {
        RpiFirmware {
            arm_clock_hz: notes.keep(self.arm_clock_hz()),
            core_volts: notes.keep(self.core_volts()),
            throttled: notes.keep(self.throttled()),
        }
    }
}

/// `frequency(48)=1500398464` → 1500398464 (Hz).
pub fn parse_clock(out: &str) -> Option<u64> {
    let line = out
        .lines()
        .find(|l| l.trim_start().starts_with("frequency("))?;
    line.split_once('=')?.1.trim().parse().ok()
}

/// `volt=0.8563V` → 0.8563.
pub fn parse_volts(out: &str) -> Option<f64> {
    let line = out.lines().find(|l| l.trim_start().starts_with("volt="))?;
    let v = line.split_once('=')?.1.trim();
    let v: f64 = v.strip_suffix('V').unwrap_or(v).parse().ok()?;
    v.is_finite().then_some(v)
}

/// `throttled=0x50005` → decoded bits.
pub fn parse_throttled(out: &str) -> Option<Throttled> {
    let line = out
        .lines()
        .find(|l| l.trim_start().starts_with("throttled="))?;
    let v = line.split_once('=')?.1.trim();
    let hex = v.strip_prefix("0x").or_else(|| v.strip_prefix("0X"))?;
    Some(decode_throttled(u32::from_str_radix(hex, 16).ok()?))
}

/// The documented get_throttled bits: 0 under-voltage, 1 arm frequency capped, 2 throttled,
/// 3 soft temperature limit (now); 16–19 the same "has occurred since boot". Each bit on its
/// own, unlike sbc-bench's string-pattern decode (which never reports under-voltage alone).
pub fn decode_throttled(raw: u32) -> Throttled {
    let bit = |n: u32| raw & (1 << n) != 0;
    Throttled {
        raw,
        under_voltage_now: bit(0),
        arm_freq_capped_now: bit(1),
        throttled_now: bit(2),
        soft_temp_limit_now: bit(3),
        under_voltage_occurred: bit(16),
        arm_freq_capped_occurred: bit(17),
        throttled_occurred: bit(18),
        soft_temp_limit_occurred: bit(19),
    }
}

// The names of the set bits, for display, are the renderer's: `textout::machine::throttled_names`.

#[cfg(test)]
mod bounded_command_tests {
    #[test]
    fn a_firmware_query_that_does_not_answer_is_given_up() {
        let t0 = std::time::Instant::now();
        let e = super::run_bounded("sleep", &["30"]).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::TimedOut);
        assert!(t0.elapsed() < std::time::Duration::from_secs(10));
        let o = super::run_bounded("echo", &["volt=0.8563V"]).unwrap();
        assert_eq!(String::from_utf8_lossy(&o.stdout), "volt=0.8563V\n");
    }
}
