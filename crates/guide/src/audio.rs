//! Audio: the seed's "Audio Capture" table — ALSA capture (and playback) per sample rate,
//! stereo S16_LE with a 64-frame period, throughput in bit/s and the system's CPU load — with
//! `arecord`/`aplay` on the first PCM device that can do it. Skipped with the reason when there
//! is no such device or no alsa-utils.
//!
//! Throughput = bytes moved · 8 / the tool's wall time, which includes its start (a few ms of
//! the 2 s per rate; 0.5 s with `--quick`); the expected figure is rate · 2 · 16 (48 kHz →
//! 1,536,000). A device that cannot run a rate makes arecord resample or warn "rate is not
//! accurate": the row is left out and a note names the rate the device gave.

use std::process::Command;
use std::time::{Duration, Instant};

use document::guide::{GuideRow, GuideTable, GuideValue};

use crate::exec::{self, RunError};
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

fn one(ctx: &Context, tool: &str, pcm: &Pcm, rate: u32, secs: f64) -> Step {
    let file = ctx.workdir.join(format!("audio-{tool}-{rate}.raw"));
    let bytes_wanted = (rate as f64 * 4.0 * secs) as usize;
    let mut cmd = Command::new(tool);
    cmd.args([
        "-q",
        "-D",
        &pcm.hw(),
        "-f",
        "S16_LE",
        "-c",
        "2",
        "-t",
        "raw",
    ])
    .arg("-r")
    .arg(rate.to_string())
    .arg("--period-size=64");
    if tool == "arecord" {
        // `-s` counts frames: exactly `secs` of audio.
        cmd.arg("-s").arg(((rate as f64 * secs) as u64).to_string());
    } else if std::fs::write(&file, vec![0u8; bytes_wanted]).is_err() {
        return Step::Stop(Some(format!("cannot write {}", file.display())));
    }
    cmd.arg(&file);
    let start = Instant::now();
    let (ran, load) = sysload::around(&ctx.root, || {
        exec::run(&mut cmd, Duration::from_secs(30), &ctx.cancel)
    });
    let elapsed = start.elapsed().as_secs_f64();
    let bytes = std::fs::metadata(&file).map(|m| m.len()).unwrap_or(0);
    let _ = std::fs::remove_file(&file);
    let ran = match ran {
        Ok(r) => r,
        Err(RunError::Cancelled) => return Step::Stop(None),
        Err(e) => return Step::Stop(Some(format!("{tool} {e}"))),
    };
    if let Some(got) = inaccurate_rate(&ran.stderr) {
        return Step::Note(format!(
            "{tool} {rate} Hz: the device ran {got} Hz; row left out"
        ));
    }
    if !ran.ok() {
        return Step::Note(format!(
            "{tool} {rate} Hz failed: {}",
            ran.stderr.lines().next().unwrap_or("no message")
        ));
    }
    Step::Row(GuideRow {
        keys: Vec::new(),
        key: rate.to_string(),
        cells: vec![
            Some(GuideValue::one(bytes as f64 * 8.0 / elapsed)),
            load.map(GuideValue::one),
        ],
    })
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
            "{title}: {} ({}), S16_LE stereo, period 64 frames, {secs} s per rate",
            pcm.hw(),
            pcm.name
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
