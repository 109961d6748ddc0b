//! `--power-cmd CMD`: a command that prints the current power in watts (a smart plug's HTTP
//! API through curl, a USB meter's tool, a lab supply). It runs through `sh -c`; the first
//! number in its standard output is the reading ("3.2", "power: 3.2 W", `{"apower": 3.2}`).
//! This makes the meter pluggable without boardbench knowing each brand (sbc-bench only
//! speaks Netio; issue #134 asked for Shelly plugs).

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::{Kind, PowerSource, Reading, plausible_watts};

/// A meter that hangs must not stall the sweep.
pub const TIMEOUT: Duration = Duration::from_secs(10);

#[derive(Debug, Clone)]
pub struct CommandSource {
    pub command: String,
    pub timeout: Duration,
}

impl CommandSource {
    pub fn new(command: &str) -> Self {
        CommandSource {
            command: command.to_string(),
            timeout: TIMEOUT,
        }
    }
}

/// The first decimal number in `text` (sign, fraction and exponent allowed). A sign counts only
/// at the start of a word, so "ina226-3" gives 226, not −3.
pub fn parse_first_number(text: &str) -> Option<f64> {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let starts_word = i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'.');
        let digit_at = |k: usize| b.get(k).is_some_and(|c| c.is_ascii_digit());
        let signed = (b[i] == b'-' || b[i] == b'+')
            && starts_word
            && (digit_at(i + 1) || (b.get(i + 1) == Some(&b'.') && digit_at(i + 2)));
        let unsigned = b[i].is_ascii_digit() || (b[i] == b'.' && digit_at(i + 1));
        let start = (signed || unsigned).then_some(i);
        if let Some(s) = start {
            let mut e = s + 1;
            while e < b.len()
                && (b[e].is_ascii_digit() || matches!(b[e], b'.' | b'e' | b'E' | b'+' | b'-'))
            {
                e += 1;
            }
            // Shrink to the longest prefix that parses ("3.2e" → 3.2, "1.2.3" → 1.2).
            let mut cand = &text[s..e];
            while !cand.is_empty() {
                if let Ok(v) = cand.parse::<f64>() {
                    return v.is_finite().then_some(v);
                }
                cand = &cand[..cand.len() - 1];
            }
            i = e;
        } else {
            i += 1;
        }
    }
    None
}

/// How long a command that ran out of time has between SIGTERM and SIGKILL.
const KILL_GRACE: Duration = Duration::from_secs(1);

/// Runs `sh -c command` with a time limit and returns its standard output. The command is
/// started and ended by the one child runner (`adapters::process::Group`): its own process
/// group, so a command over its time limit is ended with what it started (`curl` under the
/// shell), SIGTERM and SIGKILL after [`KILL_GRACE`].
pub fn run_with_timeout(command: &str, timeout: Duration) -> Result<String, String> {
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(command)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    let mut child = adapters::process::Group::spawn(&mut cmd)
        .map_err(|e| format!("cannot start `{command}`: {e}"))?;
    // Read on a thread: a chatty command must not block on a full pipe while we wait.
    let mut stdout = child.take_stdout().ok_or("no stdout")?;
    let reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = stdout.read_to_end(&mut s);
        s
    });
    let t0 = Instant::now();
    let (ended, stopped) = child
        .supervise(Duration::from_millis(5), KILL_GRACE, || {
            t0.elapsed() >= timeout
        })
        .map_err(|e| format!("`{command}`: {e}"))?;
    if stopped {
        return Err(format!(
            "`{command}` took longer than {} s",
            timeout.as_secs_f64()
        ));
    }
    let out = reader.join().unwrap_or_default();
    if !ended.status.success() {
        return Err(format!("`{command}` failed ({})", ended.status));
    }
    Ok(String::from_utf8_lossy(&out).into_owned())
}

impl PowerSource for CommandSource {
    fn kind(&self) -> Kind {
        Kind::Command
    }

    fn describe(&self) -> String {
        format!("command `{}`", self.command)
    }

    fn read(&mut self) -> Result<Reading, String> {
        let out = run_with_timeout(&self.command, self.timeout)?;
        let w = parse_first_number(&out)
            .ok_or_else(|| format!("`{}` printed no number", self.command))?;
        if plausible_watts(w) {
            Ok(Reading::Watts(w))
        } else {
            Err(format!("`{}` printed {w}: not a wattage", self.command))
        }
    }
}
