//! Audio: the seed's "Audio Capture" table — ALSA capture (and playback) per sample rate,
//! stereo S16_LE with a 64-frame period, throughput in bit/s and the system's CPU load — with
//! `arecord`/`aplay` on the first PCM device that can do it. Skipped with the reason when there
//! is no such device or no alsa-utils.
//!
//! Throughput is timed on the data stream, not on the tool's life. arecord writes to a pipe:
//! the time runs from its first block to its end of file (that block's bytes left out). aplay
//! (buffer 100 ms) reads silence from a one-page pipe: once its buffer is full the device
//! paces it, and every write that waits marks the moment it emptied the page; from the first
//! such wait to the last, the bytes between are what the device consumed. A tool's start
//! (tens of ms on a board; most of a second in an emulated VM, where the first version of this
//! section read half the expected figure) is therefore not counted, and a device that runs
//! slower or faster than asked shows it. The expected figure is rate · 2 · 16 (48 kHz →
//! 1,536,000). CPU load is the system's over the same interval. A device that cannot run a
//! rate makes arecord resample or warn "rate is not accurate": the row
//! is left out and a note names the rate the device gave; over- and underruns are noted.

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use adapters::process::Group;
use document::guide::{GuideRow, GuideTable, GuideValue};

use crate::exec;
use crate::registry::Outcome;
use crate::{Context, sysload};

/// The seed's sample rates.
pub const RATES: [u32; 10] = [
    8000, 11025, 16000, 22050, 24000, 32000, 44100, 48000, 88200, 96000,
];

/// One line of /proc/asound/pcm: "00-01: ALC887-VD Digital : ALC887-VD Digital : playback 1".
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Pcm {
    pub card: u32,
    pub device: u32,
    pub name: String,
    pub playback: bool,
    pub capture: bool,
}

impl Pcm {
    /// The ALSA name without plugins ("hw:0,1"): no resampling, no mixing.
    pub fn hw(&self) -> String {
        format!("hw:{},{}", self.card, self.device)
    }
}

pub fn parse_pcm(text: &str) -> Vec<Pcm> {
    text.lines()
        .filter_map(|l| {
            let (id, rest) = l.split_once(':')?;
            let (c, d) = id.trim().split_once('-')?;
            let fields: Vec<&str> = rest.split(" : ").map(str::trim).collect();
            Some(Pcm {
                card: c.parse().ok()?,
                device: d.parse().ok()?,
                name: fields.first().copied().unwrap_or_default().to_string(),
                playback: fields.iter().any(|f| f.starts_with("playback")),
                capture: fields.iter().any(|f| f.starts_with("capture")),
            })
        })
        .collect()
}

/// The rate the device really ran, from arecord/aplay's warning
/// "Warning: rate is not accurate (requested = 8000Hz, got = 48000Hz)".
pub fn inaccurate_rate(stderr: &str) -> Option<u32> {
    let l = stderr
        .lines()
        .find(|l| l.contains("rate is not accurate"))?;
    let got = l.split("got = ").nth(1)?;
    got.trim_end_matches(|c: char| !c.is_ascii_digit())
        .split(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()
}

/// The bit rate stereo S16_LE needs at `rate`.
pub fn expected_bps(rate: u32) -> f64 {
    rate as f64 * 2.0 * 16.0
}

enum Step {
    Row(GuideRow),
    Note(String),
    Stop(Option<String>),
}

/// What the data stream showed: bytes counted, over how long, the load meanwhile.
struct Stream {
    bytes: u64,
    secs: f64,
    load: Option<f64>,
}

/// Marks the start of the timed interval (first block / first waiting write) and its end.
struct Clock {
    root: probe::Root,
    start: Option<(Instant, Option<probe::stat::CpuTimes>)>,
}

impl Clock {
    fn begin(&mut self) {
        if self.start.is_none() {
            self.start = Some((Instant::now(), sysload::snapshot(&self.root)));
        }
    }

    fn end_at(self, at: Instant, bytes: u64) -> Option<Stream> {
        let (t0, before) = self.start?;
        let secs = at.duration_since(t0).as_secs_f64();
        let load = match (before, sysload::snapshot(&self.root)) {
            (Some(b), Some(a)) => sysload::busy_pct(&b, &a),
            _ => None,
        };
        (secs > 0.0).then_some(Stream { bytes, secs, load })
    }
}

enum Ended {
    Exited { ok: bool, stderr: String },
    Cancelled,
    Failed(String),
}

/// Runs `cmd` (its own process group), at most `limit`, stopped on cancel: its stdout drained
/// (arecord), or `bytes` of silence fed to its stdin (aplay; `fill` = the bytes of its buffer).
/// The stream figures come from the draining or feeding thread.
fn stream(
    ctx: &Context,
    cmd: &mut Command,
    capture: bool,
    bytes: u64,
    fill: u64,
    limit: Duration,
) -> (Ended, Option<Stream>) {
    cmd.stdin(if capture {
        Stdio::null()
    } else {
        Stdio::piped()
    })
    .stdout(if capture {
        Stdio::piped()
    } else {
        Stdio::null()
    })
    .stderr(Stdio::piped());
    let mut child = match Group::spawn(cmd) {
        Ok(c) => c,
        Err(e) => return (Ended::Failed(format!("could not start: {e}")), None),
    };
    let mut err = child.take_stderr().expect("piped");
    let (tx_err, rx_err) = mpsc::channel();
    std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = err.read_to_end(&mut s);
        let _ = tx_err.send(String::from_utf8_lossy(&s).into_owned());
    });
    let mut clock = Clock {
        root: ctx.root.clone(),
        start: None,
    };
    let (tx_data, rx_data) = mpsc::channel();
    if capture {
        let mut out = child.take_stdout().expect("piped");
        std::thread::spawn(move || {
            let mut buf = vec![0u8; 1 << 16];
            let mut counted = 0u64;
            loop {
                match out.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    // The first block only starts the clock: it was captured before.
                    Ok(_) if clock.start.is_none() => clock.begin(),
                    Ok(n) => counted += n as u64,
                }
            }
            let _ = tx_data.send(clock.end_at(Instant::now(), counted));
        });
    } else {
        let mut input = child.take_stdin().expect("piped");
        std::thread::spawn(move || {
            use std::os::fd::AsRawFd;
            // SAFETY: fcntl on a pipe this thread owns; failure only leaves the default size.
            let page = unsafe { libc::fcntl(input.as_raw_fd(), libc::F_SETPIPE_SZ, 4096) };
            let page = if page > 0 { page as u64 } else { 65536 };
            let chunk = [0u8; 256];
            let mut written = 0u64;
            // Once the tool's buffer is full the device paces its reads, and a write waits
            // each time the tool has emptied the pipe's page: timed from the first such wait
            // to the last, the bytes between are exactly what the device consumed.
            let mut first: Option<u64> = None;
            let mut last: Option<(Instant, u64)> = None;
            while written < bytes {
                let n = (bytes - written).min(chunk.len() as u64) as usize;
                let t = Instant::now();
                if input.write_all(&chunk[..n]).is_err() {
                    break;
                }
                if t.elapsed() >= Duration::from_millis(1) && written >= page + fill {
                    if first.is_none() {
                        clock.begin();
                        first = Some(written);
                    } else {
                        last = Some((Instant::now(), written));
                    }
                }
                written += n as u64;
            }
            drop(input);
            let figures = match (first, last) {
                (Some(f), Some((t, w))) => clock.end_at(t, w - f),
                _ => None,
            };
            let _ = tx_data.send(figures);
        });
    }
    let start = Instant::now();
    // Cancelled or over the limit: the one kill rule (SIGTERM to its group, SIGKILL after
    // exec::GRACE), then whatever is left of its group.
    let ended = child.supervise(Duration::from_millis(2), exec::GRACE, || {
        ctx.cancelled() || start.elapsed() > limit
    });
    let ok = match ended {
        Ok((e, false)) => Some(e.status.success()),
        Ok((_, true)) => {
            child.end_leftovers();
            None
        }
        Err(_) => {
            child.end_leftovers();
            None
        }
    };
    let Some(ok) = ok else {
        let e = if ctx.cancelled() {
            Ended::Cancelled
        } else {
            Ended::Failed(format!("did not finish within {} s", limit.as_secs()))
        };
        return (e, None);
    };
    let stderr = rx_err
        .recv_timeout(Duration::from_secs(2))
        .unwrap_or_default();
    let figures = rx_data.recv_timeout(Duration::from_secs(2)).ok().flatten();
    (Ended::Exited { ok, stderr }, figures)
}

/// aplay's buffer (µs).
const PLAYBACK_BUFFER_US: u64 = 100_000;

fn one(ctx: &Context, tool: &str, pcm: &Pcm, rate: u32, secs: f64) -> Step {
    let frames = (rate as f64 * secs) as u64;
    let capture = tool == "arecord";
    let mut cmd = Command::new(tool);
    // No `-q`: it also silences "rate is not accurate", the only word of a device that ran
    // another rate (snd-dummy stops at 48 kHz; quiet, the 96 kHz row read 48 kHz's figure).
    cmd.args(["-D", &pcm.hw(), "-f", "S16_LE", "-c", "2", "-t", "raw"])
        .arg("-r")
        .arg(rate.to_string())
        .arg("--period-size=64");
    if capture {
        // `-s` counts frames: exactly `secs` of audio.
        cmd.arg("-s").arg(frames.to_string());
    } else {
        // aplay's own default buffer is up to 0.5 s, all of a quick run: 100 ms leaves most of
        // it paced by the device.
        cmd.arg(format!("--buffer-time={PLAYBACK_BUFFER_US}"));
    }
    cmd.arg("-");
    let fill = (rate as u64 * 4 * PLAYBACK_BUFFER_US).div_ceil(1_000_000);
    let (ended, figures) = stream(
        ctx,
        &mut cmd,
        capture,
        frames * 4,
        fill,
        Duration::from_secs(30),
    );
    let stderr = match ended {
        Ended::Cancelled => return Step::Stop(None),
        Ended::Failed(e) => return Step::Stop(Some(format!("{tool} {e}"))),
        Ended::Exited { ok: false, stderr } => {
            return match inaccurate_rate(&stderr) {
                Some(got) => Step::Note(format!(
                    "{tool} {rate} Hz: the device ran {got} Hz; row left out"
                )),
                None => Step::Note(format!(
                    "{tool} {rate} Hz failed: {}",
                    stderr.lines().next().unwrap_or("no message")
                )),
            };
        }
        Ended::Exited { ok: true, stderr } => stderr,
    };
    if let Some(got) = inaccurate_rate(&stderr) {
        return Step::Note(format!(
            "{tool} {rate} Hz: the device ran {got} Hz; row left out"
        ));
    }
    let Some(f) = figures else {
        return Step::Note(format!(
            "{tool} {rate} Hz: the data stream could not be timed (too short, or never paced)"
        ));
    };
    let mut row = GuideRow {
        keys: Vec::new(),
        key: rate.to_string(),
        cells: vec![
            Some(GuideValue::one(f.bytes as f64 * 8.0 / f.secs)),
            f.load.map(GuideValue::one),
        ],
    };
    if stderr.contains("overrun") || stderr.contains("underrun") {
        row.key = format!("{rate} (xrun)");
    }
    Step::Row(row)
}

fn table(title: &str) -> GuideTable {
    GuideTable {
        key_headers: Vec::new(),
        title: title.into(),
        key_header: "Sampling Rate (Hz)".into(),
        columns: vec!["Throughput (bits/sec)".into(), "CPU Load (%)".into()],
        rows: Vec::new(),
    }
}

/// The registered section.
pub fn section(ctx: &Context) -> Outcome {
    let pcms = ctx
        .root
        .read("/proc/asound/pcm")
        .map(|t| parse_pcm(&t))
        .unwrap_or_default();
    if pcms.is_empty() {
        return Outcome::skipped("no ALSA PCM device (/proc/asound/pcm)");
    }
    if !ctx.root.is_host() {
        return Outcome::skipped("a recorded tree: no device to run");
    }
    let secs = if ctx.quick { 0.5 } else { 2.0 };
    let mut out = Outcome::default();
    for (tool, want_capture, title) in [
        ("arecord", true, "Audio Capture"),
        ("aplay", false, "Audio Playback"),
    ] {
        let Some(pcm) = pcms
            .iter()
            .find(|p| if want_capture { p.capture } else { p.playback })
        else {
            out.notes.push(format!("{title}: no device"));
            continue;
        };
        if exec::which(tool).is_none() {
            out.notes.push(format!(
                "{title}: {tool} not installed (Debian: alsa-utils)"
            ));
            continue;
        }
        out.tool = exec::version_line(tool, &["--version"]);
        out.notes.push(format!(
            "{title}: {} ({}), S16_LE stereo, period 64 frames{}, {secs} s per rate; timed on \
             the data stream{}",
            pcm.hw(),
            pcm.name,
            if want_capture { "" } else { ", buffer 100 ms" },
            if want_capture {
                " (first block to end of file)"
            } else {
                " while the device paces it"
            }
        ));
        let mut t = table(title);
        for rate in RATES {
            match one(ctx, tool, pcm, rate, secs) {
                Step::Row(r) => t.rows.push(r),
                Step::Note(n) => out.notes.push(n),
                Step::Stop(e) => {
                    out.failed = e;
                    if !t.rows.is_empty() {
                        out.tables.push(t);
                    }
                    return out;
                }
            }
        }
        if !t.rows.is_empty() {
            out.tables.push(t);
        }
    }
    if out.tables.is_empty() && out.failed.is_none() {
        return Outcome::skipped(format!("no audio figures: {}", out.notes.join("; ")));
    }
    out
}
