//! Raspberry Pi `config.txt`: the firmware settings that change performance (arm_freq,
//! over_voltage, arm_boost, temp_limit, temp_soft_limit, force_turbo …).
//!
//! Raspberry Pi OS Bookworm keeps it in /boot/firmware, older releases in /boot. The firmware
//! reads `key=value` lines, `#` comments and `[filter]` section headers (`[pi4]`, `[all]`);
//! `include FILE` inserts another file (relative to the config's directory). Settings are kept
//! in file order with the included file's settings where the include stood; includes are
//! followed one level (an include inside an included file is kept as a setting, so the
//! evidence shows it). Section headers are dropped, so a setting under `[pi3]` is listed on a
//! Pi 4 too: the type has no place for the filter.

use document::run::RpiConfig;

use crate::{Notes, Root};

/// Where the firmware's config is looked for, in order.
pub const PATHS: [&str; 2] = ["/boot/firmware/config.txt", "/boot/config.txt"];

/// The only keys written `key value` instead of `key=value`.
const SPACE_KEYS: [&str; 2] = ["include", "initramfs"];

/// A config.txt larger than this is not a config (a corrupted or wrong file).
const MAX_LINES: usize = 10_000;

/// Reads the first config.txt found; `None` when there is none (a missing file is not noted).
pub fn read(root: &Root, notes: &mut Notes) -> Option<RpiConfig> {
    let path = PATHS.into_iter().find(|p| root.exists(p))?;
    let text = notes.keep(root.read(path))?;
    let dir = path.rsplit_once('/').map_or("/", |(d, _)| d);
    let mut settings = Vec::new();
    for (k, v) in parse(&text) {
        if k == "include" {
            let inc = if v.starts_with('/') {
                v.clone()
            } else {
                format!("{dir}/{v}")
            };
            if let Some(t) = notes.keep(root.read(&inc)) {
                settings.extend(parse(&t));
                continue;
            }
        }
        settings.push((k, v));
    }
    Some(RpiConfig {
        path: path.to_string(),
        settings,
    })
}

/// The settings of one file in order: `key=value` (`include` and `initramfs` take `key value`); comments, blank lines and `[filter]` headers dropped.
pub fn parse(text: &str) -> Vec<(String, String)> {
    text.lines()
        .take(MAX_LINES)
        .filter_map(|l| {
            let l = l.trim();
            if l.is_empty() || l.starts_with('#') || l.starts_with('[') {
                return None;
            }
            let (k, v) = l.split_once('=').or_else(|| {
                let (k, v) = l.split_once(|c: char| c.is_whitespace())?;
                SPACE_KEYS.contains(&k).then_some((k, v))
            })?;
            let k = k.trim();
            if k.is_empty() || k.contains(char::is_whitespace) {
                return None;
            }
            Some((k.to_string(), v.trim().to_string()))
        })
        .collect()
}
