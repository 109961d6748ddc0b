//! Boot time and U-Boot's storage figures from serial console logs, as a board farm records
//! them: the seed's "Boot time" tables (full root file system and `init=/bin/sh`, the boot
//! medium named) and its "UBOOT … RAW" / "UBOOT … FAT" tables.
//!
//! Why from the console: only a log taken outside the board sees the boot loaders. The board's
//! own clock starts with the kernel; systemd-analyze knows nothing before it on boards without
//! EFI (the `boot` section says so). A lab's reboot loop (integrations/lava/job-boot-time.yaml)
//! records every boot on the serial line with the host's time of each line.
//!
//! Logs read ([`lines`]), line by line, whatever mixture:
//! - LAVA's job log (`lavacli jobs logs --raw JOB`, the job page's YAML download): `- {"dt":
//!   "2026-11-27T04:00:00.123456", "lvl": "target", "msg": "…"}` — the dispatcher's time (UTC)
//!   of each console line; only `target` and `feedback` lines are the board's;
//! - a capture with the host's time in front: grabserial's `[12.345678 0.000123] …` (seconds
//!   since its start, the delta after), or an ISO date-time (`2026-11-27T04:00:00.123 …`,
//!   `[2026-11-27 04:00:00.123] …`, as `ts '%Y-%m-%dT%H:%M:%.S'` writes it);
//! - a plain capture (minicom, picocom): no host time; only the kernel's own stamps count.
//!
//! A log holds any number of boots ([`boots`]): a boot starts at the first boot-loader banner
//! (TPL/SPL, else U-Boot proper, else the kernel's first line) after the previous boot reached
//! U-Boot proper, the kernel or a prompt; a TI K3 board's two SPL banners (R5, then A53) are one
//! boot. Each boot's figures ([`Boot::figures`]), on the host's clock:
//! `SPL` = U-Boot's banner − the first SPL banner; `U-Boot` = kernel start − U-Boot's banner
//! (loading the kernel included); `kernel start to init` = the kernel's stamp of "Run … as init
//! process"; `init to prompt` = prompt − (kernel start + that stamp); the total = prompt − the
//! first boot-loader line. The kernel's start on the host's clock is the smallest (host time −
//! kernel stamp) over its stamped lines: a line is printed after it is stamped, never before.
//! Without host times the total is the kernel's last stamp before the prompt — from the
//! kernel's start, boot loaders not included — and the notes say so.
//!
//! Boots that do not count, each with a note: one where U-Boot was interrupted and commands
//! typed (its time is the operator's; the template's setup boots are such), one that reached
//! no prompt (hung, or the log ends). The setup (full root file system or `init=/bin/sh`) is
//! read from the kernel command line (`init=…sh`); the boot medium from `root=` (or the first
//! mounted file system) and the kernel's card lines (`mmc1: new … SDHC card` → SD, `… MMC card`
//! → eMMC), unless given.

use std::collections::BTreeMap;

use document::guide::{GuideRow, GuideTable, GuideValue};

/// One console line: the host's time of it (seconds, any origin) and its text.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Line {
    pub host: Option<f64>,
    pub text: String,
    /// LAVA only: the dispatcher's time of its first own entry between the previous console
    /// line and this one. LAVA logs a console line when its newline arrives (lava_dispatcher's
    /// ShellLogger keeps a partial line back), so a line printed without one — a login or
    /// shell prompt — is logged late (when the next output or LAVA's reply ends it), and the
    /// entry LAVA logged on matching the prompt is the closer time of it.
    pub dispatcher_before: Option<f64>,
}

/// Days since 1970-01-01 of a proleptic Gregorian date.
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// `2026-11-27T04:00:00.123456` or `2026-11-27 04:00:00.123` (a trailing `Z` or zone
/// offset ignored: one log has one zone) in seconds since the epoch.
pub fn parse_datetime(s: &str) -> Option<f64> {
    let s = s.trim();
    if s.len() < 19 || !s.is_char_boundary(10) || !s.is_char_boundary(11) {
        return None;
    }
    let (date, rest) = s.split_at(10);
    let sep = rest.chars().next()?;
    if sep != 'T' && sep != ' ' {
        return None;
    }
    let time = &rest[1..];
    let time = time.split(['Z', '+']).next()?.split('-').next()?.trim();
    let d: Vec<&str> = date.split('-').collect();
    let t: Vec<&str> = time.split(':').collect();
    if d.len() != 3 || t.len() != 3 || d.iter().any(|p| p.is_empty()) {
        return None;
    }
    let (y, mo, da): (i64, i64, i64) = (d[0].parse().ok()?, d[1].parse().ok()?, d[2].parse().ok()?);
    let (h, mi): (i64, i64) = (t[0].parse().ok()?, t[1].parse().ok()?);
    let sec: f64 = t[2].parse().ok()?;
    if !(1..=12).contains(&mo) || !(1..=31).contains(&da) || h > 23 || mi > 59 || sec >= 61.0 {
        return None;
    }
    Some((days_from_civil(y, mo, da) * 86_400 + h * 3600 + mi * 60) as f64 + sec)
}

/// A YAML double-quoted scalar at the start of `s` (LAVA writes its log lines with PyYAML's
/// `default_style='"'`: `\xE9`, `\e`, `\u2018` … are YAML escapes, not JSON): the text and
/// what follows the closing quote.
pub fn yaml_double_quoted(s: &str) -> Option<(String, &str)> {
    let body = s.strip_prefix('"')?;
    let mut out = String::new();
    let mut chars = body.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Some((out, &body[i + 1..])),
            '\\' => {
                let (_, e) = chars.next()?;
                let hex = |n: usize, chars: &mut std::str::CharIndices| -> Option<char> {
                    let h: String = (0..n)
                        .filter_map(|_| chars.next().map(|(_, c)| c))
                        .collect();
                    char::from_u32(u32::from_str_radix(&h, 16).ok()?)
                };
                let ch = match e {
                    '0' => '\0',
                    'a' => '\x07',
                    'b' => '\x08',
                    't' | '\t' => '\t',
                    'n' => '\n',
                    'v' => '\x0b',
                    'f' => '\x0c',
                    'r' => '\r',
                    'e' => '\x1b',
                    ' ' => ' ',
                    '"' => '"',
                    '/' => '/',
                    '\\' => '\\',
                    'N' => '\u{85}',
                    '_' => '\u{a0}',
                    'L' => '\u{2028}',
                    'P' => '\u{2029}',
                    'x' => hex(2, &mut chars)?,
                    'u' => hex(4, &mut chars)?,
                    'U' => hex(8, &mut chars)?,
                    _ => return None,
                };
                out.push(ch);
            }
            c => out.push(c),
        }
    }
    None
}

/// What a LAVA log entry is.
enum LavaEntry {
    /// A console line (`target`, `feedback`).
    Console(Line),
    /// What the dispatcher typed (`input`), as it sent it.
    Input(String),
    /// The dispatcher's own entry (or a message that is not text).
    Own,
}

/// Whether a line is an entry of LAVA's job log: the server's `- {"dt": …}` (`lavacli jobs
/// logs --raw`, the job page's download) or `lava-run`'s own output, the same entry without
/// the list's `- ` (a local run: integrations/lava/lava-run-local).
fn is_lava_entry(t: &str) -> bool {
    let t = t.trim_start();
    let t = t.strip_prefix("- ").unwrap_or(t);
    t.starts_with("{\"dt\"")
}

/// One line of LAVA's job log (`- {"dt": "…", "lvl": "…", "msg": "…"}`, `"ns"` too on
/// feedback lines; lava-run prints the same without `- `): the dispatcher's time and what the
/// entry is, None when the line is not LAVA's.
fn lava_line(t: &str) -> Option<(Option<f64>, LavaEntry)> {
    let t = t.strip_prefix("- ").unwrap_or(t);
    let mut rest = t.strip_prefix('{')?.trim_start();
    if !rest.starts_with("\"dt\"") {
        return None;
    }
    let (mut dt, mut lvl, mut msg) = (None, None, None);
    while let Some((key, after)) = yaml_double_quoted(rest) {
        let after = after.trim_start().strip_prefix(':')?.trim_start();
        if !after.starts_with('"') {
            // A mapping (a test result, an event): not a console line. "dt" comes first.
            return Some((dt.as_deref().and_then(parse_datetime), LavaEntry::Own));
        }
        let (value, after) = yaml_double_quoted(after)?;
        match key.as_str() {
            "dt" => dt = Some(value),
            "lvl" => lvl = Some(value),
            "msg" => msg = Some(value),
            _ => {}
        }
        rest = after.trim_start();
        rest = rest.strip_prefix(',').unwrap_or(rest).trim_start();
    }
    if !rest.starts_with('}') {
        return None;
    }
    let host = dt.as_deref().and_then(parse_datetime);
    match (lvl.as_deref(), msg) {
        // lava_dispatcher's ShellLogger escapes the board's `"` as `\"` before the entry is
        // written (itself YAML-escaped): undo it.
        (Some("target" | "feedback"), Some(m)) => Some((
            host,
            LavaEntry::Console(Line {
                host,
                text: m.trim_end_matches(['\r', '\n']).replace("\\\"", "\""),
                ..Default::default()
            }),
        )),
        (Some("input"), Some(m)) => Some((host, LavaEntry::Input(m))),
        _ => Some((host, LavaEntry::Own)),
    }
}

/// grabserial's `[12.345678 0.000123] text`.
fn grabserial_line(t: &str) -> Option<Line> {
    let inner = t.strip_prefix('[')?;
    let (stamp, text) = inner.split_once(']')?;
    let f: Vec<&str> = stamp.split_whitespace().collect();
    if f.len() != 2 {
        return None;
    }
    let abs: f64 = f[0].parse().ok()?;
    f[1].parse::<f64>().ok()?;
    Some(Line {
        host: Some(abs),
        text: text.strip_prefix(' ').unwrap_or(text).to_string(),
        ..Default::default()
    })
}

/// `2026-11-27T04:00:00.123 text` or `[2026-11-27 04:00:00.123] text`.
fn datetime_line(t: &str) -> Option<Line> {
    if let Some(inner) = t.strip_prefix('[') {
        let (stamp, text) = inner.split_once(']')?;
        return Some(Line {
            host: Some(parse_datetime(stamp)?),
            text: text.strip_prefix(' ').unwrap_or(text).to_string(),
            ..Default::default()
        });
    }
    let first = t.get(..10)?;
    if !first.chars().all(|c| c.is_ascii_digit() || c == '-') {
        return None;
    }
    // The date-time ends at the second space with a ' ' separator, else at the first.
    let end = if t.as_bytes().get(10) == Some(&b' ') {
        t[11..].find(' ').map(|i| i + 11)?
    } else {
        t.find(' ')?
    };
    Some(Line {
        host: Some(parse_datetime(&t[..end])?),
        text: t[end + 1..].to_string(),
        ..Default::default()
    })
}

/// The console lines of a log in any of the forms above (LAVA's own lines left out).
///
/// LAVA logs what it types into the console's stream too (lava_dispatcher's ShellCommand
/// hands pexpect its ShellLogger as `logfile`, which gets what is sent as well as what is
/// read): the typed text and its newline land in the middle of whatever line the board was
/// printing — `virtio read: device 0 block # 0, cou` + `fatwrite …` then `nt 131072 …` on the
/// next entry, or a U-Boot command's echo with the next command glued on when LAVA types ahead.
/// Each `input` entry (logged just before the send) says what was typed: the console entry
/// that ends with it loses it, and the board's part before it is joined to the next console
/// entry, so the board's own lines come out whole.
pub fn lines(log: &str) -> Vec<Line> {
    let mut out = Vec::new();
    // LAVA: the dispatcher's first entry since the last console line.
    let mut dispatcher: Option<f64> = None;
    // LAVA: what was typed last, not yet found in the console's entries.
    let mut typed: Option<String> = None;
    // LAVA: the board's part of an entry the typed text cut, waiting for the rest.
    let mut carry: Option<String> = None;
    for raw in log.lines() {
        let t = raw.trim_end_matches('\r');
        if let Some((dt, entry)) = lava_line(t.trim_start()) {
            match entry {
                LavaEntry::Console(mut l) => {
                    if let Some(head) = carry.take() {
                        l.text = head + &l.text;
                    }
                    if let Some(sent) = typed.take()
                        && !sent.is_empty()
                        && let Some(head) = l.text.strip_suffix(sent.as_str())
                    {
                        carry = Some(head.to_string());
                        continue;
                    }
                    l.dispatcher_before = dispatcher.take();
                    out.push(l);
                }
                LavaEntry::Input(m) => {
                    // A sendline (the text, then the line separator) ends the console
                    // entry it lands in; a control character (logged by its name) does not.
                    typed = m
                        .strip_suffix('\n')
                        .map(|t| t.trim_end_matches('\r').replace('\x1b', ""));
                    if dispatcher.is_none() {
                        dispatcher = dt;
                    }
                }
                LavaEntry::Own => {
                    if dispatcher.is_none() {
                        dispatcher = dt;
                    }
                }
            }
            continue;
        }
        if let Some(l) = grabserial_line(t).or_else(|| datetime_line(t)) {
            out.push(l);
            continue;
        }
        out.push(Line {
            host: None,
            text: t.to_string(),
            ..Default::default()
        });
    }
    out
}

/// The kernel's `[    1.234567] ` stamp and the text after it.
pub fn kernel_stamp(text: &str) -> Option<(f64, &str)> {
    let inner = text.trim_start().strip_prefix('[')?;
    let (stamp, rest) = inner.split_once(']')?;
    let s: f64 = stamp.trim().parse().ok()?;
    Some((s, rest.strip_prefix(' ').unwrap_or(rest)))
}

/// What a prompt line is.
#[derive(Debug, Clone, PartialEq)]
pub enum Prompt {
    /// `host login:`
    Login,
    /// A root shell's prompt (`/ #`, `sh-5.2#`, `root@board:~#`).
    Shell,
    /// A prompt the caller named.
    Given(String),
}

/// A prompt at the end of a boot: a login prompt, a shell prompt, or one of `given`
/// (substrings). The prompt may be followed by what was typed at it (`login: root`, `/ # ls`):
/// a LAVA log has the prompt and the echo of its reply on one line.
pub fn prompt(text: &str, given: &[String]) -> Option<Prompt> {
    let t = text.trim();
    if let Some(p) = bare_prompt(t, given) {
        return Some(p);
    }
    // The prompt, then one typed word after a login prompt or a command after a shell's.
    // After `HOST login: ` anything: a LAVA log joins the prompt (printed without a newline)
    // with whatever the board prints next, a late kernel message as often as not.
    if let Some((head, after)) = t.split_once(" login: ")
        && (!after.trim().contains(' ') || is_host_name(head))
        && bare_prompt(&format!("{head} login:"), given) == Some(Prompt::Login)
    {
        return Some(Prompt::Login);
    }
    // (Not after a lone `#` or `$`: a line that starts "# " is more often a comment.)
    let end = t.find("# ").or_else(|| t.find("$ ")).filter(|e| *e > 0)?;
    bare_prompt(&t[..=end], given).filter(|p| *p == Prompt::Shell)
}

/// A host name as getty prints it before ` login:` (not "Last", of "Last login: …").
fn is_host_name(w: &str) -> bool {
    !w.is_empty()
        && w != "Last"
        && w.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_'))
}

/// A line that is a prompt and nothing else.
fn bare_prompt(t: &str, given: &[String]) -> Option<Prompt> {
    if let Some(g) = given
        .iter()
        .find(|g| !g.is_empty() && t.contains(g.as_str()))
    {
        return Some(Prompt::Given(g.clone()));
    }
    if t.ends_with(" login:") || t == "login:" {
        return Some(Prompt::Login);
    }
    let shell_word = |w: &str| {
        ["sh-", "bash-", "ash-"]
            .iter()
            .any(|p| w.starts_with(p) && w[p.len()..].starts_with(|c: char| c.is_ascii_digit()))
    };
    let bare = matches!(t, "#" | "/ #" | "~ #" | "$" | "/ $");
    let ends_like_a_prompt = t.ends_with('#') || t.ends_with('$');
    let named = shell_word(t.trim_end_matches(['#', '$']).trim())
        || (t.starts_with("root@") && t.contains(':') && !t.contains(' '));
    (bare || (ends_like_a_prompt && named)).then_some(Prompt::Shell)
}

/// Which setup a boot ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Setup {
    /// The root file system's own init (systemd, SysV) up to the login prompt.
    Full,
    /// `init=/bin/sh` (any shell): the kernel starts a shell, nothing else.
    InitShell,
}

/// A boot medium as the tables name it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Medium {
    /// In the row names, as the seed writes it ("mmc-sd", "emmc").
    pub name: String,
    /// In the titles ("MMCSD", "EMMC").
    pub title: String,
}

impl Medium {
    pub fn new(name: &str) -> Medium {
        let lower = name.trim().to_ascii_lowercase();
        let title = match lower.as_str() {
            "sd" | "mmc-sd" | "mmcsd" | "sdcard" | "sd card" => "MMCSD".to_string(),
            "emmc" | "mmc" => "EMMC".to_string(),
            other => other
                .chars()
                .filter(|c| c.is_ascii_alphanumeric())
                .collect::<String>()
                .to_ascii_uppercase(),
        };
        let name = match title.as_str() {
            "MMCSD" => "mmc-sd".to_string(),
            "EMMC" => "emmc".to_string(),
            _ => lower,
        };
        Medium { name, title }
    }
}

/// What one boot showed.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Boot {
    /// Host time of the first line of the boot (its first boot-loader banner).
    pub start: Option<f64>,
    /// Host time of the first TPL/SPL banner.
    pub spl: Option<f64>,
    /// Host time of U-Boot proper's banner.
    pub uboot: Option<f64>,
    /// Host time of U-Boot's "Starting kernel ..." (its last line before the kernel).
    pub starting_kernel: Option<f64>,
    /// The kernel's start on the host's clock (smallest host − stamp).
    pub kernel_zero: Option<f64>,
    /// Saw the kernel (a stamped line or its banner).
    pub kernel: bool,
    /// The kernel's last stamp before the prompt.
    pub last_stamp: Option<f64>,
    /// "Run /sbin/init as init process": (program, stamp).
    pub init: Option<(String, f64)>,
    /// The stamp of the kernel's last "Freeing unused kernel … memory" line: the moment before
    /// it starts init, for kernels that do not print "Run … as init process" (before 5.8).
    pub freeing_initmem: Option<f64>,
    pub cmdline: Option<String>,
    /// The prompt that ended the boot, with its host time.
    pub prompt: Option<(Prompt, Option<f64>)>,
    /// U-Boot's autoboot was stopped and commands typed at its prompt.
    pub interactive: bool,
    /// The kernel's MMC hosts: N of `mmcN` → "SD" or "eMMC" (its "new … card" line).
    pub mmc_hosts: BTreeMap<u32, String>,
    /// `mmcblkN: mmcM:…`: the block device's host.
    pub mmc_blocks: BTreeMap<u32, u32>,
    /// The first file system the kernel mounted ("EXT4-fs (mmcblk1p2): mounted …").
    pub first_mount: Option<String>,
    /// SPL's "Trying to boot from MMC2".
    pub spl_boot_device: Option<String>,
}

/// A boot's figures in seconds.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Figures {
    /// From the first boot-loader line (or, without host times, the kernel's start) to the
    /// prompt.
    pub total: Option<f64>,
    /// Whether the total starts at a boot loader on the host's clock (false: kernel stamps
    /// only).
    pub host_clock: bool,
    pub spl: Option<f64>,
    pub uboot: Option<f64>,
    pub kernel_to_init: Option<f64>,
    pub init_to_prompt: Option<f64>,
    /// From U-Boot's "Starting kernel ..." to the prompt (what some editions of the published
    /// guides time).
    pub starting_kernel_to_prompt: Option<f64>,
    /// kernel_to_init is the "Freeing unused kernel memory" stamp (no "Run … as init" line).
    pub init_from_freeing: bool,
}

fn has_word_sh(program: &str) -> bool {
    let base = program.rsplit('/').next().unwrap_or(program);
    base.ends_with("sh")
}

impl Boot {
    /// Full root file system or `init=/bin/sh`, from the command line or the init the kernel
    /// ran.
    pub fn setup(&self) -> Setup {
        let from_cmdline = self.cmdline.as_deref().and_then(|c| {
            c.split_whitespace()
                .find_map(|a| a.strip_prefix("init="))
                .map(has_word_sh)
        });
        let from_init = self.init.as_ref().map(|(p, _)| has_word_sh(p));
        if from_cmdline.or(from_init).unwrap_or(false) {
            Setup::InitShell
        } else {
            Setup::Full
        }
    }

    /// The root file system's medium, from `root=` (or the first mount) and the card lines.
    pub fn medium(&self) -> Option<Medium> {
        let root = self
            .cmdline
            .as_deref()
            .and_then(|c| c.split_whitespace().find_map(|a| a.strip_prefix("root=")));
        let dev = match root {
            Some(r) if r.starts_with("/dev/") => r.trim_start_matches("/dev/").to_string(),
            Some("nfs") | Some("/dev/nfs") => return Some(Medium::new("nfs")),
            _ => self.first_mount.clone()?,
        };
        if dev == "nfs" {
            return Some(Medium::new("nfs"));
        }
        if let Some(rest) = dev.strip_prefix("mmcblk") {
            let n: u32 = rest
                .chars()
                .take_while(|c| c.is_ascii_digit())
                .collect::<String>()
                .parse()
                .ok()?;
            let host = self.mmc_blocks.get(&n).copied().unwrap_or(n);
            return Some(match self.mmc_hosts.get(&host).map(String::as_str) {
                Some("SD") => Medium::new("mmc-sd"),
                Some("eMMC") => Medium::new("emmc"),
                _ => Medium::new(&format!("mmc{host}")),
            });
        }
        if dev.starts_with("nvme") {
            return Some(Medium::new("nvme"));
        }
        if dev.starts_with("sd") {
            return Some(Medium::new("usb-sata"));
        }
        None
    }

    /// The boot's figures (see the module's notes).
    pub fn figures(&self) -> Figures {
        let Some((_, prompt_host)) = &self.prompt else {
            return Figures::default();
        };
        let mut f = Figures::default();
        if let (Some(p), Some(s)) = (prompt_host, self.start) {
            f.total = Some(p - s);
            f.host_clock = true;
        } else {
            f.total = self.last_stamp;
        }
        if let (Some(a), Some(b)) = (self.spl, self.uboot) {
            f.spl = Some(b - a);
        }
        if let (Some(a), Some(b)) = (self.uboot, self.kernel_zero) {
            f.uboot = Some(b - a);
        }
        let init = self.init.as_ref().map(|(_, s)| *s);
        f.init_from_freeing = init.is_none() && self.freeing_initmem.is_some();
        f.kernel_to_init = init.or(self.freeing_initmem);
        if let (Some(p), Some(z), Some(i)) = (prompt_host, self.kernel_zero, f.kernel_to_init) {
            f.init_to_prompt = Some(p - (z + i));
        }
        if let (Some(p), Some(k)) = (prompt_host, self.starting_kernel) {
            f.starting_kernel_to_prompt = Some(p - k);
        }
        // Host times are seconds since 1970 as f64 (a quarter of a microsecond's resolution
        // there), so a difference carries binary noise below the logs' own microseconds
        // (15.099999904632568 for 15.1): every figure to the microsecond.
        for x in [
            &mut f.total,
            &mut f.spl,
            &mut f.uboot,
            &mut f.kernel_to_init,
            &mut f.init_to_prompt,
            &mut f.starting_kernel_to_prompt,
        ] {
            *x = x.map(|v| (v * 1e6).round() / 1e6);
        }
        f
    }
}

/// `U-Boot SPL 2024.04 (…)` (common/spl: "U-Boot " SPL_TPL_NAME " " version), TPL and VPL too.
fn is_spl_banner(t: &str) -> bool {
    ["U-Boot SPL ", "U-Boot TPL ", "U-Boot VPL "]
        .iter()
        .any(|p| t.starts_with(p))
}

fn is_uboot_banner(t: &str) -> bool {
    t.strip_prefix("U-Boot ")
        .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()))
}

/// A line typed at U-Boot's prompt (`=> cmd`, `U-Boot# cmd`): the command.
pub fn uboot_command(t: &str) -> Option<&str> {
    let t = t.trim_start();
    let cmd = t
        .strip_prefix("=> ")
        .or_else(|| t.strip_prefix("U-Boot# "))
        .or_else(|| t.strip_prefix("U-Boot> "))?
        .trim();
    (!cmd.is_empty()).then_some(cmd)
}

/// The boots of a log's lines, in order (prompts: extra prompt substrings).
pub fn boots(lines: &[Line], prompts: &[String]) -> Vec<Boot> {
    let mut out: Vec<Boot> = Vec::new();
    let mut cur: Option<Boot> = None;
    // The last line was U-Boot's `version` typed at its prompt: the banner it prints is not a
    // new boot.
    let mut typed_version = false;
    for l in lines {
        let (stamp, text) = match kernel_stamp(&l.text) {
            Some((s, rest)) => (Some(s), rest),
            None => (None, l.text.as_str()),
        };
        let t = text.trim();
        let after_version = typed_version;
        typed_version = uboot_command(t).is_some_and(|c| c == "version" || c == "ver")
            || (typed_version && t.is_empty());
        let spl = stamp.is_none() && is_spl_banner(t);
        let ub = stamp.is_none() && is_uboot_banner(t) && !after_version;
        let kernel_banner = t.starts_with("Booting Linux on physical CPU")
            || (t.starts_with("Linux version ") && stamp.is_some());
        // Does this line start a new boot?
        let new = match &cur {
            None => spl || ub || kernel_banner,
            Some(b) => {
                // A boot loader's banner once the boot is past it (a TI K3 board's second SPL,
                // the A53's after the R5's, is the same boot), or the kernel starting again.
                let past_loader = b.uboot.is_some() || b.kernel || b.prompt.is_some();
                let kernel_again = kernel_banner
                    && stamp.is_some_and(|s| s < 1.0)
                    && b.last_stamp.is_some_and(|s| s > 1.0);
                ((spl || ub) && past_loader) || kernel_again
            }
        };
        if new {
            if let Some(b) = cur.take() {
                out.push(b);
            }
            cur = Some(Boot {
                start: l.host,
                ..Default::default()
            });
        }
        let Some(b) = cur.as_mut() else { continue };
        if b.prompt.is_some() {
            // After the prompt: nothing of this boot's timing changes (a new boot's banner is
            // caught above).
            continue;
        }
        if spl && b.spl.is_none() {
            b.spl = l.host;
        }
        if ub && b.uboot.is_none() {
            b.uboot = l.host;
            if b.start.is_none() {
                b.start = l.host;
            }
        }
        if uboot_command(t).is_some() && !b.kernel {
            b.interactive = true;
        }
        if t.starts_with("Starting kernel ...") && !b.kernel && b.starting_kernel.is_none() {
            b.starting_kernel = l.host;
        }
        if let Some(dev) = t.strip_prefix("Trying to boot from ")
            && b.spl_boot_device.is_none()
        {
            b.spl_boot_device = Some(dev.trim().to_string());
        }
        if let Some(s) = stamp {
            b.kernel = true;
            b.last_stamp = Some(s);
            if let Some(h) = l.host {
                let z = h - s;
                b.kernel_zero = Some(b.kernel_zero.map_or(z, |k: f64| k.min(z)));
            }
            if let Some(c) = t.strip_prefix("Kernel command line: ") {
                b.cmdline = Some(c.trim().to_string());
            }
            if let Some(rest) = t.strip_prefix("Run ")
                && let Some(prog) = rest.strip_suffix(" as init process")
                && b.init.is_none()
            {
                b.init = Some((prog.trim().to_string(), s));
            }
            // "Freeing unused kernel memory: 1024K", "Freeing unused kernel image (initmem)
            // memory: 2048K": init/main.c frees it just before it runs init.
            if t.starts_with("Freeing unused kernel") && b.init.is_none() {
                b.freeing_initmem = Some(s);
            }
            mmc_line(b, t);
            if b.first_mount.is_none()
                && let Some(rest) = t.split_once("-fs (")
                && rest.1.contains("mounted filesystem")
            {
                b.first_mount = rest.1.split(')').next().map(String::from);
            }
        } else if kernel_banner {
            b.kernel = true;
        }
        if b.kernel
            && let Some(p) = prompt(t, prompts)
        {
            // A LAVA log's prompt line is logged when a newline ends it; the dispatcher's entry
            // on matching the prompt, logged before it, is the closer time.
            let host = match (l.host, l.dispatcher_before) {
                (Some(h), Some(d)) => Some(h.min(d)),
                (h, _) => h,
            };
            b.prompt = Some((p, host));
        }
    }
    out.extend(cur);
    out
}

/// `mmc1: new ultra high speed SDR104 SDHC card at address aaaa`, `mmcblk0: mmc0:0001 …`.
fn mmc_line(b: &mut Boot, t: &str) {
    if let Some(rest) = t.strip_prefix("mmcblk") {
        if let Some((n, after)) = rest.split_once(": mmc")
            && let Ok(n) = n.parse::<u32>()
            && let Some(Ok(h)) = after.split(':').next().map(str::parse::<u32>)
        {
            b.mmc_blocks.insert(n, h);
        }
        return;
    }
    if let Some(rest) = t.strip_prefix("mmc")
        && let Some((n, what)) = rest.split_once(": new ")
        && let Ok(n) = n.parse::<u32>()
    {
        let sd = [" SD card", " SDHC card", " SDXC card"]
            .iter()
            .any(|k| what.contains(k));
        if what.contains(" MMC card") {
            b.mmc_hosts.insert(n, "eMMC".into());
        } else if sd {
            b.mmc_hosts.insert(n, "SD".into());
        }
    }
}

/// The seed's row of a setup on a medium.
pub fn row_name(setup: Setup, medium: &str) -> String {
    match setup {
        Setup::Full => {
            format!("Kernel boot time test when bootloader, kernel and sdk-rootfs are in {medium}")
        }
        Setup::InitShell => format!(
            "Kernel boot time test when init is /bin/sh and bootloader, kernel and sdk-rootfs are in {medium}"
        ),
    }
}

/// The boot-time tables of a set of boots, with the notes on what was counted.
#[derive(Debug, Default)]
pub struct BootTables {
    pub tables: Vec<GuideTable>,
    pub notes: Vec<String>,
    /// Boots counted.
    pub counted: usize,
}

/// One stage's figure of a boot.
type Pick = fn(&Figures) -> Option<f64>;

/// The "Boot time MEDIUM" and "Boot stages MEDIUM" tables over `boots` (each with a label for
/// the notes, "log.yaml boot 3"); `medium`: the user's name for every boot's medium.
pub fn boot_tables(boots: &[(String, Boot)], medium: Option<&str>) -> BootTables {
    let mut r = BootTables::default();
    // (medium, setup) → figures
    let mut by: BTreeMap<(Medium, Setup), Vec<Figures>> = BTreeMap::new();
    let mut kernel_only = false;
    let mut from_freeing = false;
    let mut unknown_medium = false;
    for (label, b) in boots {
        if b.interactive {
            r.notes.push(format!(
                "{label}: not counted — U-Boot was interrupted and commands typed (a setup boot)"
            ));
            continue;
        }
        if b.prompt.is_none() {
            r.notes.push(format!(
                "{label}: not counted — no prompt reached (the boot hung or the log ends)"
            ));
            continue;
        }
        let f = b.figures();
        if f.total.is_none() {
            r.notes.push(format!(
                "{label}: not counted — neither host times nor kernel stamps in the log"
            ));
            continue;
        }
        kernel_only |= !f.host_clock;
        from_freeing |= f.init_from_freeing;
        let m = match medium {
            Some(m) => Medium::new(m),
            None => b.medium().unwrap_or_else(|| {
                unknown_medium = true;
                Medium {
                    name: "an unknown medium".into(),
                    title: String::new(),
                }
            }),
        };
        by.entry((m, b.setup())).or_default().push(f);
        r.counted += 1;
    }
    let mut media: Vec<Medium> = by.keys().map(|(m, _)| m.clone()).collect();
    media.dedup();
    for m in media {
        let title_tail = if m.title.is_empty() {
            String::new()
        } else {
            format!(" {}", m.title)
        };
        let mut total = GuideTable {
            title: format!("Boot time{title_tail}"),
            key_header: "Boot Configuration".into(),
            key_headers: Vec::new(),
            columns: vec!["boot time (sec)".into()],
            rows: Vec::new(),
        };
        let setups: Vec<Setup> = by
            .keys()
            .filter(|(mm, _)| *mm == m)
            .map(|(_, s)| *s)
            .collect();
        let mut stages = GuideTable {
            title: format!("Boot stages{title_tail}"),
            key_header: "Stage".into(),
            key_headers: Vec::new(),
            columns: setups
                .iter()
                .map(|s| match s {
                    Setup::Full => "full root file system (sec)".to_string(),
                    Setup::InitShell => "init=/bin/sh (sec)".to_string(),
                })
                .collect(),
            rows: Vec::new(),
        };
        let stage_rows: [(&str, Pick); 5] = [
            ("SPL, to U-Boot's banner (s)", |f| f.spl),
            ("U-Boot, to the kernel's start (s)", |f| f.uboot),
            ("kernel start to init (s)", |f| f.kernel_to_init),
            ("init to prompt (s)", |f| f.init_to_prompt),
            ("U-Boot's \"Starting kernel ...\" to prompt (s)", |f| {
                f.starting_kernel_to_prompt
            }),
        ];
        for (key, pick) in stage_rows {
            let cells: Vec<Option<GuideValue>> = setups
                .iter()
                .map(|s| {
                    let v: Vec<f64> = by[&(m.clone(), *s)].iter().filter_map(pick).collect();
                    GuideValue::from_samples(&v)
                })
                .collect();
            if cells.iter().any(Option::is_some) {
                stages.rows.push(GuideRow {
                    key: key.into(),
                    keys: Vec::new(),
                    cells,
                });
            }
        }
        for s in &setups {
            let figs = &by[&(m.clone(), *s)];
            let v: Vec<f64> = figs.iter().filter_map(|f| f.total).collect();
            total.push(row_name(*s, &m.name), GuideValue::from_samples(&v));
        }
        r.tables.push(total);
        if !stages.rows.is_empty() {
            r.tables.push(stages);
        }
    }
    if r.counted > 0 {
        r.notes.push(if kernel_only {
            "boot time from the kernel's own stamps (the log has no host times): from the \
             kernel's start to its last message before the prompt; boot loaders not included"
                .to_string()
        } else {
            "boot time on the console host's clock: from the first boot-loader line (SPL, else \
             U-Boot) to the login or shell prompt; the boot ROM's time before its first line is \
             not in the log"
                .to_string()
        });
        r.notes.push(format!(
            "{} boot{} counted; each figure is the median of its setup's boots, with min and max",
            r.counted,
            if r.counted == 1 { "" } else { "s" }
        ));
    }
    if from_freeing {
        r.notes.push(
            "where the kernel printed no \"Run … as init process\" (kernels before 5.8), init \
             starts at its last \"Freeing unused kernel … memory\" line"
                .into(),
        );
    }
    if unknown_medium {
        r.notes.push(
            "the root file system's medium is not in the log (no root=/dev/…, no mount line): \
             name it with --medium"
                .into(),
        );
    }
    r
}

// ---------------------------------------------------------------------------------------------
// U-Boot's storage figures

/// What U-Boot's storage commands moved: one transfer.
#[derive(Debug, Clone, PartialEq)]
pub struct Transfer {
    /// "RAW" (`mmc read`/`mmc write`, `virtio read` …), "FAT" (`fatload`/`fatwrite`), "EXT4",
    /// "FS" (`load`, `save`: U-Boot finds the file system).
    pub kind: String,
    /// U-Boot's name of the device's interface, as typed: "mmc", "virtio", "scsi", "usb",
    /// "nvme", "sata", "ide" …
    pub iface: String,
    /// The device number on that interface.
    pub dev: u32,
    pub write: bool,
    pub bytes: u64,
    pub seconds: f64,
}

impl Transfer {
    /// KiB per second, as the seed's "Kbytes/sec" (its figures fit KiB and ms exactly).
    pub fn kib_per_s(&self) -> f64 {
        self.bytes as f64 / 1024.0 / self.seconds
    }
}

/// The seconds of U-Boot's `time` report after "time:".
pub fn uboot_time(rest: &str) -> Option<f64> {
    let w: Vec<&str> = rest.split_whitespace().collect();
    let num = |i: usize| {
        w.get(i)
            .and_then(|v| v.trim_end_matches(',').parse::<f64>().ok())
    };
    let unit = |i: usize, u: &str| w.get(i).is_some_and(|v| v.starts_with(u));
    if unit(1, "minute") && unit(3, "second") {
        return Some(num(0)? * 60.0 + num(2)?);
    }
    if unit(1, "second") { num(0) } else { None }
}

/// `mmc list`'s `mmc@fa00000: 1 (SD)` (one device a line; U-Boot's own `MMC:` line at start
/// joins them with ", " and types only the initialised ones): each device's medium.
fn mmc_list_devices(t: &str) -> Vec<(u32, String)> {
    let t = t.strip_prefix("MMC:").unwrap_or(t).trim();
    t.split(", ").filter_map(mmc_list_entry).collect()
}

/// One `name: N (SD)` entry.
fn mmc_list_entry(t: &str) -> Option<(u32, String)> {
    let (_, rest) = t.rsplit_once(": ")?;
    let (n, kind) = rest.split_once(' ')?;
    let kind = kind.trim().strip_prefix('(')?.strip_suffix(')')?;
    let n: u32 = n.trim().parse().ok()?;
    match kind {
        "SD" => Some((n, "MMCSD".into())),
        "eMMC" => Some((n, "EMMC".into())),
        _ => None,
    }
}

/// An interface name as U-Boot's block commands take it (`mmc`, `virtio`, `usb` …).
fn is_iface(w: &str) -> bool {
    !w.is_empty()
        && w.starts_with(|c: char| c.is_ascii_lowercase())
        && w.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
}

/// A device number as U-Boot parses it (hexadecimal: blk_get_device_part_str).
fn device_number(d: &str) -> Option<u32> {
    u32::from_str_radix(d.trim(), 16).ok()
}

/// `IF D[:P]` after a load/save command's name (`fatload virtio 0:1 …`): (IF, D).
fn command_dev(cmd: &str) -> Option<(String, u32)> {
    let w: Vec<&str> = cmd.split_whitespace().filter(|w| *w != "time").collect();
    let iface = *w.get(1)?;
    let dev = device_number(w.get(2)?.split(':').next()?)?;
    is_iface(iface).then(|| (iface.to_string(), dev))
}

/// A raw transfer's report: mmc's own `MMC read: dev # 0, block # 0, count 65536 ... 65536
/// blocks read: OK` or the other block commands' (cmd/blk_common.c) `virtio read: device 0
/// block # 0, count 65536 ... 65536 blocks read: OK`: (iface, dev, write, blocks).
fn raw_report(t: &str) -> Option<(String, u32, bool, u64)> {
    if !t.ends_with(": OK") {
        return None;
    }
    let (iface, rest) = t.split_once(' ')?;
    let (write, rest) = if let Some(r) = rest.strip_prefix("read: ") {
        (false, r)
    } else {
        (true, rest.strip_prefix("write: ")?)
    };
    let iface = if iface == "MMC" { "mmc" } else { iface };
    if !is_iface(iface) {
        return None;
    }
    let dev = rest
        .strip_prefix("dev # ")
        .or_else(|| rest.strip_prefix("device "))?
        .split([',', ' '])
        .next()
        .and_then(|d| d.trim().parse().ok())?;
    let count = rest
        .split_once("count ")
        .and_then(|(_, c)| c.split_whitespace().next())
        .and_then(|c| c.parse::<u64>().ok())?;
    Some((iface.to_string(), dev, write, count))
}

/// U-Boot's storage transfers in the lines, with `mmc list`'s media (device → "MMCSD"/"EMMC").
///
/// Any interface U-Boot's block commands serve: `mmc` (with `mmc list`'s SD/eMMC), and the
/// `virtio`, `scsi` (SATA/UFS disks), `usb`, `nvme`, `sata`, `ide` forms — the tables name the
/// medium as U-Boot does. A raw transfer's bytes are its blocks times the device's block size
/// (`Capacity: … (N x 512)` of `IF info`/`IF dev`, else 512).
pub fn transfers(lines: &[Line]) -> (Vec<Transfer>, BTreeMap<u32, String>) {
    let mut out = Vec::new();
    let mut media = BTreeMap::new();
    // The last load/save command typed: (kind, iface, dev).
    let mut last_cmd: Option<(String, String, u32)> = None;
    // A raw transfer waiting for `time:`'s line: (iface, dev, write, blocks).
    let mut raw: Option<(String, u32, bool, u64)> = None;
    // mmc's current device (`mmc dev N`), for load/save commands without one.
    let mut current_dev: Option<u32> = None;
    // The interface of the last command typed, and the device of the last `Device N:` line.
    let mut last_iface: Option<String> = None;
    let mut listed_dev: Option<u32> = None;
    // (iface, dev) → block size in bytes.
    let mut block_size: BTreeMap<(String, u32), u64> = BTreeMap::new();
    for l in lines {
        let t = l.text.trim();
        if let Some(cmd) = uboot_command(t) {
            let mut words = cmd.split_whitespace().filter(|w| *w != "time");
            let word = words.next().unwrap_or("");
            if is_iface(word) {
                last_iface = Some(word.to_string());
            }
            let kind = match word {
                "fatload" | "fatwrite" => Some("FAT"),
                "ext4load" | "ext4write" => Some("EXT4"),
                "load" | "save" => Some("FS"),
                _ => None,
            };
            let dev = command_dev(cmd).or_else(|| current_dev.map(|d| ("mmc".to_string(), d)));
            last_cmd = match (kind, dev) {
                (Some(k), Some((i, d))) => Some((k.to_string(), i, d)),
                _ => None,
            };
            continue;
        }
        let listed = mmc_list_devices(t);
        if !listed.is_empty() {
            media.extend(listed);
            continue;
        }
        if let Some(rest) = t.strip_prefix("mmc")
            && let Some(n) = rest.split_whitespace().next()
            && t.ends_with("is current device")
        {
            current_dev = n.split('(').next().and_then(|d| d.parse().ok());
            continue;
        }
        // `virtio info`: "Device 0: 1af4 VirtIO Block Device", "Capacity: 128.0 MB = 0.1 GB
        // (262144 x 512)".
        if let Some(rest) = t.strip_prefix("Device ")
            && let Some((n, _)) = rest.split_once(':')
        {
            listed_dev = n.trim().parse().ok();
            continue;
        }
        if t.starts_with("Capacity:")
            && let (Some(i), Some(d)) = (&last_iface, listed_dev)
            && let Some(b) = t
                .rsplit_once(" x ")
                .and_then(|(_, b)| b.trim_end_matches(')').trim().parse::<u64>().ok())
            && b > 0
        {
            block_size.insert((i.clone(), d), b);
            continue;
        }
        if let Some(r) = raw_report(t) {
            raw = Some(r);
            continue;
        }
        // `time`'s report: "time: 1.234 seconds", "time: 1 minutes, 2.345 seconds".
        if let Some(rest) = t.strip_prefix("time:") {
            if let Some(s) = uboot_time(rest)
                && s > 0.0
                && let Some((iface, dev, write, blocks)) = raw.take()
            {
                let bs = block_size
                    .get(&(iface.clone(), dev))
                    .copied()
                    .unwrap_or(512);
                out.push(Transfer {
                    kind: "RAW".into(),
                    iface,
                    dev,
                    write,
                    bytes: blocks * bs,
                    seconds: s,
                });
            }
            continue;
        }
        // "4194304 bytes read in 178 ms (22.5 MiB/s)", "… bytes written in …"
        let w: Vec<&str> = t.split_whitespace().collect();
        if w.len() >= 6
            && w[1] == "bytes"
            && (w[2] == "read" || w[2] == "written")
            && w[3] == "in"
            && w[5] == "ms"
            && let (Ok(bytes), Ok(ms)) = (w[0].parse::<u64>(), w[4].parse::<f64>())
            && ms > 0.0
            && let Some((kind, iface, dev)) = last_cmd.take()
        {
            out.push(Transfer {
                kind,
                iface,
                dev,
                write: w[2] == "written",
                bytes,
                seconds: ms / 1000.0,
            });
        }
    }
    (out, media)
}

/// A transfer's medium in the tables' titles: an MMC device as `mmc list` typed it (EMMC,
/// MMCSD; else MMC<N>), any other interface by U-Boot's name of it (VIRTIO, SCSI, USB, NVME …),
/// with the device number when the log has more than one device on it.
fn medium_title(x: &Transfer, media: &BTreeMap<u32, String>, several: bool) -> String {
    if x.iface == "mmc" {
        return media
            .get(&x.dev)
            .cloned()
            .unwrap_or_else(|| format!("MMC{}", x.dev));
    }
    let name = x.iface.to_ascii_uppercase();
    if several {
        format!("{name}{}", x.dev)
    } else {
        name
    }
}

/// The seed's U-Boot tables, one per (medium, kind): "UBOOT EMMC RAW", "UBOOT MMCSD FAT" —
/// key "File size (bytes in hex)", columns write and read throughput in Kbytes/sec (KiB/s),
/// each figure the median over the transfers of that size.
pub fn uboot_tables(transfers: &[Transfer], media: &BTreeMap<u32, String>) -> Vec<GuideTable> {
    // (medium, kind) → size → (writes, reads)
    type Sizes = BTreeMap<u64, (Vec<f64>, Vec<f64>)>;
    let mut by: BTreeMap<(String, String), Sizes> = BTreeMap::new();
    let mut devices: BTreeMap<&str, Vec<u32>> = BTreeMap::new();
    for x in transfers {
        let d = devices.entry(x.iface.as_str()).or_default();
        if !d.contains(&x.dev) {
            d.push(x.dev);
        }
    }
    for x in transfers {
        let medium = medium_title(x, media, devices[x.iface.as_str()].len() > 1);
        let e = by
            .entry((medium, x.kind.clone()))
            .or_default()
            .entry(x.bytes)
            .or_default();
        if x.write {
            e.0.push(x.kib_per_s());
        } else {
            e.1.push(x.kib_per_s());
        }
    }
    let mut out = Vec::new();
    for ((medium, kind), sizes) in by {
        let mut t = GuideTable {
            title: format!("UBOOT {medium} {kind}"),
            key_header: "File size (bytes in hex)".into(),
            key_headers: Vec::new(),
            columns: vec![
                "Write Throughput (Kbytes/sec)".into(),
                "Read Throughput (Kbytes/sec)".into(),
            ],
            rows: Vec::new(),
        };
        for (bytes, (w, r)) in sizes {
            t.rows.push(GuideRow {
                key: format!("{bytes:x}"),
                keys: Vec::new(),
                cells: vec![GuideValue::from_samples(&w), GuideValue::from_samples(&r)],
            });
        }
        out.push(t);
    }
    out
}

// ---------------------------------------------------------------------------------------------
// The guide's sections of a set of logs

/// What the user says of the logs.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The boot medium of every boot (`--medium`), instead of the one the kernel's lines show.
    pub medium: Option<String>,
    /// Prompts beside the login and shell prompts (substrings, `--prompt`).
    pub prompts: Vec<String>,
}

/// Transfers smaller than this are not rows of the U-Boot tables (64 KiB).
pub const MIN_RATE_BYTES: u64 = 64 * 1024;

/// The section names of a console document (`--style ti` groups them, the renderers print them
/// as any section).
pub const BOOT_SECTION: &str = "boot-console";
pub const UBOOT_SECTION: &str = "uboot-storage";

/// Which form a log had, for the notes.
fn form(lines: &[Line], log: &str) -> &'static str {
    let lava = log.lines().any(is_lava_entry);
    match (lava, lines.iter().any(|l| l.host.is_some())) {
        (true, _) => "LAVA job log (dispatcher times)",
        (false, true) => "console capture with host times",
        (false, false) => "console capture without host times",
    }
}

/// The first and last console line's time of the LAVA job logs among `logs`, in seconds since
/// the epoch (the dispatcher's `dt` is UTC): when the lab measured. Captures are left out: a
/// capture's time is relative (grabserial) or in a zone it does not state.
pub fn lava_time_span(logs: &[(String, String)]) -> Option<(f64, f64)> {
    let mut span: Option<(f64, f64)> = None;
    for (_, text) in logs {
        if !text.lines().any(is_lava_entry) {
            continue;
        }
        for h in lines(text).iter().filter_map(|l| l.host) {
            span = Some(span.map_or((h, h), |(a, b)| (a.min(h), b.max(h))));
        }
    }
    span
}

/// The boot-time and U-Boot storage sections of `logs` ((name, text) each).
pub fn sections(logs: &[(String, String)], o: &Options) -> Vec<document::guide::GuideSection> {
    use document::guide::{GuideSection, SectionStatus};
    let mut all_boots = Vec::new();
    let mut all_transfers = Vec::new();
    let mut media = BTreeMap::new();
    let mut log_notes = Vec::new();
    let mut boot_devices: Vec<String> = Vec::new();
    for (name, text) in logs {
        let ls = lines(text);
        let bs = boots(&ls, &o.prompts);
        log_notes.push(format!(
            "{name}: {} ({} boot{})",
            form(&ls, text),
            bs.len(),
            if bs.len() == 1 { "" } else { "s" }
        ));
        for (i, b) in bs.into_iter().enumerate() {
            if let Some(d) = &b.spl_boot_device
                && !boot_devices.contains(d)
            {
                boot_devices.push(d.clone());
            }
            all_boots.push((format!("{name} boot {}", i + 1), b));
        }
        let (ts, m) = transfers(&ls);
        all_transfers.extend(ts);
        media.extend(m);
    }
    let bt = boot_tables(&all_boots, o.medium.as_deref());
    let mut boot = GuideSection {
        name: BOOT_SECTION.into(),
        title: "Boot time (console log)".into(),
        ..Default::default()
    };
    boot.notes = log_notes.clone();
    if let Some(m) = &o.medium {
        boot.notes.push(format!(
            "boot medium as given (--medium): {}",
            Medium::new(m).name
        ));
    }
    if !boot_devices.is_empty() {
        boot.notes
            .push(format!("the SPL booted from: {}", boot_devices.join(", ")));
    }
    boot.notes.extend(bt.notes);
    if bt.tables.is_empty() {
        boot.status = SectionStatus::Skipped;
        boot.reason = Some("no boot in the logs reached a prompt that could be counted".into());
    }
    boot.tables = bt.tables;

    let mut storage = GuideSection {
        name: UBOOT_SECTION.into(),
        title: "U-Boot storage (console log)".into(),
        ..Default::default()
    };
    // A setup's small files (a U-Boot environment, a boot script) are transfers too, but U-Boot
    // times them in whole ms: 24 bytes in 11 ms is a latency, not a rate.
    let small = all_transfers
        .iter()
        .filter(|x| x.bytes < MIN_RATE_BYTES)
        .count();
    all_transfers.retain(|x| x.bytes >= MIN_RATE_BYTES);
    storage.tables = uboot_tables(&all_transfers, &media);
    if storage.tables.is_empty() {
        storage.status = SectionStatus::Skipped;
        storage.reason = Some(
            "no U-Boot transfer in the logs (`time mmc read/write`, `time virtio read`, \
             fatload/fatwrite …)"
                .into(),
        );
    } else {
        storage.notes = log_notes;
        storage.notes.push(format!(
            "{} transfer{} of U-Boot's own commands: Kbytes/sec = KiB/s (bytes/1024 over the \
             time U-Boot printed: `time` for raw reads/writes (mmc, virtio, scsi, usb, nvme …), \
             the command's own ms for fatload/fatwrite); each figure the median over the \
             transfers of that size",
            all_transfers.len(),
            if all_transfers.len() == 1 { "" } else { "s" }
        ));
        if small > 0 {
            storage.notes.push(format!(
                "{small} transfer{} smaller than 64 KiB left out (setup files such as an \
                 environment or a boot script: U-Boot's whole milliseconds make no rate of them)",
                if small == 1 { "" } else { "s" }
            ));
        }
        if media.is_empty() && all_transfers.iter().any(|x| x.iface == "mmc") {
            storage.notes.push(
                "no `mmc list` in the log: MMC devices are named MMC<N>, not SD or eMMC".into(),
            );
        }
    }
    vec![boot, storage]
}
