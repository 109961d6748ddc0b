//! Reading a log file safely, and files that hold several logs.
//!
//! A log is text of a few hundred KB (the largest real ones are a few MB), so a file is read
//! with a ceiling ([`MAX_LOG_BYTES`]) and its head is checked for binary data before the rest
//! is read: `/dev/zero`, a disk image or an endless pipe gives one clear error instead of
//! filling memory. Pipes and process substitution still work (they are read like files).
//!
//! People append runs to one file (`cat *.log > all.txt`, or a log that sbc-bench kept
//! appending to): every line that is an sbc-bench header (`sbc-bench vX.Y …`) after the first
//! starts another log, and each is imported on its own.

use std::io::Read;

use crate::ImportError;

/// The largest file accepted as a log (or as several concatenated logs): 256 MiB.
pub const MAX_LOG_BYTES: u64 = 256 * 1024 * 1024;

/// How much is checked for binary data before reading on.
const HEAD_BYTES: usize = 8192;

/// Reads at most [`MAX_LOG_BYTES`] (`limit` in tests); refuses binary data after the first
/// 8 KiB, and anything longer than the limit.
pub fn read_log(mut r: impl Read, limit: u64) -> Result<Vec<u8>, ImportError> {
    let io = |e: std::io::Error| ImportError::Read(e.to_string());
    let mut bytes = Vec::new();
    (&mut r)
        .take(HEAD_BYTES as u64)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if crate::looks_binary(&bytes) {
        return Err(ImportError::Binary);
    }
    r.take(limit.saturating_sub(bytes.len() as u64).saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > limit {
        return Err(ImportError::TooLarge(limit));
    }
    Ok(bytes)
}

/// Byte ranges of the logs in `bytes`: split before every sbc-bench header after the first
/// line. One range for an ordinary log. sbc-bench's logs end without a newline, so in
/// `cat a.log b.log` the second header starts in the middle of the first log's last line
/// (its summary row): a header there counts too when it has its date (`(Sat, 08 Apr 2023 …)`
/// or `-- date`), which a sentence such as "Tested with sbc-bench v0.9.72 on …" has not.
pub fn split_logs(bytes: &[u8]) -> Vec<std::ops::Range<usize>> {
    let mut starts = vec![0];
    let mut pos = 0;
    for line in bytes.split_inclusive(|b| *b == b'\n') {
        if pos > 0 && is_header(line) {
            starts.push(pos);
        }
        let mut from = 1;
        while let Some(i) = find(&line[from.min(line.len())..], HEADER_START) {
            let at = from + i;
            // Right after the previous log's last character, not after a space (a quote, an
            // indented line, "Tested with sbc-bench v…").
            if !line[at - 1].is_ascii_whitespace() && is_dated_header(&line[at..]) {
                starts.push(pos + at);
            }
            from = at + 1;
        }
        pos += line.len();
    }
    let mut out: Vec<std::ops::Range<usize>> = starts.windows(2).map(|w| w[0]..w[1]).collect();
    out.push(*starts.last().expect("one start")..bytes.len());
    out
}

const HEADER_START: &[u8] = b"sbc-bench v";

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// A header with its date, to the end of the line (the form that may start in the middle of
/// a line): `… (Sat, 08 Apr 2023 10:08:45 +0000)` or v0.4's `-- Mon, 30 Jul 2018 06:15:21 +0000`.
fn is_dated_header(line: &[u8]) -> bool {
    let text = String::from_utf8_lossy(line);
    let Some(date) = crate::sysinfo::header(&text).and_then(|h| h.date) else {
        return false;
    };
    // The date ends the line with a time and a numeric zone offset.
    let d = date.trim_end_matches(')').trim_end();
    let zone = d.rsplit(' ').next().unwrap_or("");
    let ends_line = text.trim_end().ends_with(')') || text.trim_end().ends_with(d);
    ends_line
        && d.contains(':')
        && zone.len() == 5
        && zone.starts_with(['+', '-'])
        && zone[1..].bytes().all(|b| b.is_ascii_digit())
}

fn is_header(line: &[u8]) -> bool {
    line.starts_with(b"sbc-bench v")
        && crate::sysinfo::header(&String::from_utf8_lossy(line)).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endless_or_binary_input_is_refused_early() {
        let zeros = std::io::repeat(0).take(1 << 40);
        assert_eq!(read_log(zeros, 1 << 20), Err(ImportError::Binary));
        let endless = std::io::repeat(b'y');
        assert_eq!(
            read_log(endless, 1 << 16),
            Err(ImportError::TooLarge(1 << 16))
        );
        assert_eq!(read_log(&b"abc\n"[..], 4).unwrap(), b"abc\n");
    }

    #[test]
    fn concatenated_logs_are_split_at_headers() {
        let one = b"sbc-bench v0.9.72 A (Tue, 05 May 2026 10:08:45 +0000)\nx\n";
        let two = b"sbc-bench v0.9.8 B (Tue, 05 May 2026 11:08:45 +0000)\ny\n";
        let both = [&one[..], &two[..]].concat();
        assert_eq!(split_logs(&both), vec![0..one.len(), one.len()..both.len()]);
        assert_eq!(split_logs(one), vec![0..one.len()]);
        // Only a header at the start of a line counts.
        let quoted = b"x\n  sbc-bench v0.9.72 A (date)\n";
        assert_eq!(split_logs(quoted).len(), 1);
        // sbc-bench's logs end without a newline: the next header may start mid-line.
        let glued = b"| A | 1800 MHz |sbc-bench v0.9.8 B (Tue, 05 May 2026 11:08:45 +0000)\ny\n";
        assert_eq!(split_logs(glued), vec![0..16, 16..glued.len()]);
        let said = b"x\nTested with sbc-bench v0.9.72 on Tue, 11 Nov 2025.\n";
        assert_eq!(split_logs(said).len(), 1);
    }
}
