//! Raspberry Pi sections: config.txt as the log shows it ("ThreadX configuration (<path>):")
//! and the firmware's `get_throttled` bits ("Querying ThreadX on RPi for thermal or undervoltage
//! issues:" in v0.4–v0.8 logs, the bit string before its legend in throttling_info later).

use document::imported::RpiConfigText;

/// The "ThreadX configuration (<path>):" block: its lines up to the first empty line (or a
/// line that is neither a setting nor a `[section]`: the block of the oldest logs is followed
/// directly by the next one).
pub fn config(lines: &[&str]) -> Option<RpiConfigText> {
    let start = lines
        .iter()
        .position(|l| l.starts_with("ThreadX configuration ("))?;
    let path = lines[start]
        .trim_start_matches("ThreadX configuration (")
        .trim_end()
        .trim_end_matches(':')
        .trim_end_matches(')')
        .to_string();
    let body: Vec<String> = lines[start + 1..]
        .iter()
        .map(|l| l.trim_end())
        .take_while(|l| {
            let t = l.trim();
            !t.is_empty() && (t.contains('=') || t.starts_with('[') || t.starts_with('#'))
        })
        .map(str::to_string)
        .collect();
    Some(RpiConfigText { path, lines: body })
}

/// The get_throttled bit string: a line of 16 to 20 binary digits directly followed by the
/// legend (a line starting with `|`).
pub fn throttled(lines: &[&str]) -> Option<String> {
    lines.windows(2).find_map(|w| {
        let t = w[0].trim();
        let bits = (16..=20).contains(&t.len()) && t.bytes().all(|b| b == b'0' || b == b'1');
        (bits && w[1].trim_start().starts_with('|')).then(|| t.to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_block_and_bits() {
        let lines = [
            "ThreadX configuration (/boot/config.txt):",
            "disable_overscan=1",
            "[pi4]",
            "over_voltage=2",
            "arm_freq=1800",
            "Uptime: 17:56:03 up 11 min",
            "Querying ThreadX on RPi for thermal or undervoltage issues:",
            "",
            "0100000000000000000",
            "|||             |||_ under-voltage",
        ];
        let c = config(&lines).unwrap();
        assert_eq!(c.path, "/boot/config.txt");
        assert_eq!(
            c.lines,
            [
                "disable_overscan=1",
                "[pi4]",
                "over_voltage=2",
                "arm_freq=1800"
            ]
        );
        assert_eq!(throttled(&lines).as_deref(), Some("0100000000000000000"));
        assert_eq!(throttled(&lines[..8]), None);
    }
}
