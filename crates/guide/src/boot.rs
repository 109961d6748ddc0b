//! Boot time: systemd-analyze's split (firmware, loader, kernel, initrd, userspace), the slowest
//! units of `blame`, and the kernel's own time from its start to running init (the timestamp of
//! its "Run /sbin/init as init process" line), recorded with the boot's id.
//!
//! Why: the seed's "Boot time" rows are a mean over several boots with their range. A lab runs
//! `boardbench guide --sections boot` after every reboot of a boot loop; each document carries
//! one boot (its id tells repeated runs of the same boot apart), and the guide's aggregation over
//! documents gives the `27.48 (min 26.22, max 31.25)` form. Nothing here measures time before
//! the kernel on boards whose loader does not report it (no EFI): the notes say which parts the
//! total holds. The section is cheap (two short commands and one read of the kernel log).

use std::process::Command;
use std::time::Duration;

use document::guide::{GuideRow, GuideTable, GuideValue};

use crate::Context;
use crate::exec;
use crate::registry::Outcome;

/// A systemd timespan ("850ms", "12.345s", "1min 2.345s", "1h 2min") in seconds.
pub fn parse_timespan(s: &str) -> Option<f64> {
    let mut total = 0.0;
    let mut any = false;
    for part in s.split_whitespace() {
        let split = part
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(part.len());
        let (num, unit) = part.split_at(split);
        let n: f64 = num.parse().ok()?;
        let mult = match unit {
            "y" => 31_557_600.0,
            "month" => 2_629_800.0,
            "w" => 604_800.0,
            "d" => 86_400.0,
            "h" => 3600.0,
            "min" => 60.0,
            "s" | "" => 1.0,
            "ms" => 1e-3,
            "us" | "µs" => 1e-6,
            "ns" => 1e-9,
            _ => return None,
        };
        total += n * mult;
        any = true;
    }
    any.then_some(total)
}

/// What `systemd-analyze time` says.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BootTimes {
    pub firmware: Option<f64>,
    pub loader: Option<f64>,
    pub kernel: Option<f64>,
    pub initrd: Option<f64>,
    pub userspace: Option<f64>,
    pub total: Option<f64>,
    /// The default target and when it was reached (seconds after userspace began).
    pub target: Option<(String, f64)>,
}

/// Parses `systemd-analyze time`.
pub fn parse_time(text: &str) -> Option<BootTimes> {
    let line = text.lines().find(|l| l.contains("Startup finished in"))?;
    let rest = line.split_once("Startup finished in")?.1;
    let (parts, total) = rest.rsplit_once('=')?;
    let mut b = BootTimes {
        total: parse_timespan(total.trim()),
        ..Default::default()
    };
    for p in parts.split(" + ") {
        let p = p.trim();
        let Some((span, which)) = p.rsplit_once('(') else {
            continue;
        };
        let secs = parse_timespan(span.trim());
        match which.trim_end_matches(')') {
            "firmware" => b.firmware = secs,
            "loader" => b.loader = secs,
            "kernel" => b.kernel = secs,
            "initrd" => b.initrd = secs,
            "userspace" => b.userspace = secs,
            _ => {}
        }
    }
    b.target = text.lines().find_map(|l| {
        let (t, after) = l.trim().split_once(" reached after ")?;
        let span = after
            .trim_end_matches('.')
            .trim_end_matches(" in userspace");
        Some((t.to_string(), parse_timespan(span)?))
    });
    Some(b)
}

/// Parses `systemd-analyze blame`: (unit, seconds), as printed (slowest first).
pub fn parse_blame(text: &str) -> Vec<(String, f64)> {
    text.lines()
        .filter_map(|l| {
            let l = l.trim();
            let unit_at = l.rfind(' ')?;
            let (span, unit) = l.split_at(unit_at);
            Some((unit.trim().to_string(), parse_timespan(span.trim())?))
        })
        .collect()
}

/// The kernel's time (seconds since it started) when it ran init, from the kernel log in
/// /dev/kmsg records ("6,1234,2345678,-;Run /sbin/init as init process") or dmesg lines
/// ("[    2.345678] Run /sbin/init as init process").
pub fn kernel_init_time(log: &str) -> Option<f64> {
    log.lines().find_map(|l| {
        if !(l.contains("Run ") && l.contains(" as init process")) {
            return None;
        }
        if let Some(rest) = l.trim_start().strip_prefix('[') {
            return rest.split(']').next()?.trim().parse().ok();
        }
        let head = l.split(';').next()?;
        let us: f64 = head.split(',').nth(2)?.parse().ok()?;
        Some(us / 1e6)
    })
}

/// The kernel log: /dev/kmsg read without blocking on the host, the file in a fixture tree.
fn kernel_log(root: &probe::Root) -> Option<String> {
    if !root.is_host() {
        return root.read("/dev/kmsg").ok();
    }
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let mut f = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open("/dev/kmsg")
        .ok()?;
    let mut text = String::new();
    let mut buf = vec![0u8; 8192];
    // One record per read; EAGAIN at the end. EPIPE (records overwritten meanwhile) just skips.
    for _ in 0..200_000 {
        match f.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                text.push_str(&String::from_utf8_lossy(&buf[..n]));
                if !text.ends_with('\n') {
                    text.push('\n');
                }
            }
            Err(e) if e.raw_os_error() == Some(libc::EPIPE) => continue,
            Err(_) => break,
        }
    }
    Some(text)
}

fn analyze(ctx: &Context, what: &str) -> Result<String, String> {
    let r = exec::run(
        Command::new("systemd-analyze").arg(what),
        Duration::from_secs(30),
        &ctx.cancel,
    )
    .map_err(|e| e.to_string())?;
    if r.ok() {
        Ok(r.stdout)
    } else {
        Err(r
            .stderr
            .lines()
            .next()
            .unwrap_or("systemd-analyze failed")
            .to_string())
    }
}

/// How many `blame` lines the guide keeps.
pub const BLAME_TOP: usize = 10;

/// The registered section.
pub fn section(ctx: &Context) -> Outcome {
    let mut out = Outcome::default();
    let boot_id = ctx.root.read_value("/proc/sys/kernel/random/boot_id").ok();
    let mut table = GuideTable {
        key_headers: Vec::new(),
        title: "Boot time".into(),
        key_header: "Boot Configuration".into(),
        columns: vec!["boot time (sec)".into()],
        rows: Vec::new(),
    };
    let mut push = |key: &str, v: Option<f64>| {
        if let Some(v) = v {
            table.rows.push(GuideRow {
                keys: Vec::new(),
                key: key.into(),
                cells: vec![Some(GuideValue::one(v))],
            });
        }
    };
    let have_systemd = ctx.root.is_host() && exec::which("systemd-analyze").is_some();
    let mut blame = Vec::new();
    if have_systemd {
        out.tool = exec::version_line("systemd-analyze", &["--version"]);
        match analyze(ctx, "time").map(|t| parse_time(&t)) {
            Ok(Some(b)) => {
                push("firmware (s)", b.firmware);
                push("loader (s)", b.loader);
                push("kernel (s)", b.kernel);
                push("initrd (s)", b.initrd);
                push("userspace (s)", b.userspace);
                push("total, systemd-analyze (s)", b.total);
                if let Some((t, s)) = &b.target {
                    push(&format!("{t} reached, after userspace start (s)"), Some(*s));
                }
                if b.firmware.is_none() {
                    out.notes.push(
                        "the boot loader reports no firmware/loader times (no EFI): the total \
                         starts at the kernel, time spent in SPL/U-Boot is not in it"
                            .into(),
                    );
                }
                if let Ok(text) = analyze(ctx, "blame") {
                    blame = parse_blame(&text);
                }
            }
            Ok(None) => out
                .notes
                .push("systemd-analyze time: boot not finished yet".into()),
            Err(e) => out.notes.push(format!("systemd-analyze: {e}")),
        }
    } else {
        out.notes
            .push("systemd-analyze not available (no systemd, or a recorded tree)".into());
    }
    let init = kernel_log(&ctx.root).as_deref().and_then(kernel_init_time);
    push("kernel start to init, kernel log (s)", init);
    if table.rows.is_empty() {
        return Outcome {
            skipped: Some(format!("no boot times: {}", out.notes.join("; "))),
            ..Default::default()
        };
    }
    if let Some(id) = boot_id {
        out.notes.push(format!("boot id {id}"));
    }
    out.tables.push(table);
    if !blame.is_empty() {
        let mut t = GuideTable {
            key_headers: Vec::new(),
            title: format!("Boot blame (slowest {BLAME_TOP} units)"),
            key_header: "Unit".into(),
            columns: vec!["activation time (sec)".into()],
            rows: Vec::new(),
        };
        for (unit, s) in blame.into_iter().take(BLAME_TOP) {
            t.push(unit, Some(GuideValue::one(s)));
        }
        out.tables.push(t);
        out.notes
            .push("blame: units start in parallel, their times do not add up to the boot".into());
    }
    out
}
