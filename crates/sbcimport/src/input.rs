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
///
/// Logs before v0.4 have no header: they start with `lsb_release -a`'s `Distributor ID:` line,
/// which every log of every era has exactly once — a second one in the same log starts the
/// next (pre-v0.4) log. A UTF-8 byte-order mark before the first log is left out (it made a
/// log of its own: "2 logs", the first empty).
pub fn split_logs(bytes: &[u8]) -> Vec<std::ops::Range<usize>> {
    let first = if bytes.starts_with(UTF8_BOM) {
        UTF8_BOM.len()
    } else {
        0
    };
    let mut starts = vec![first];
    let mut pos = first;
    // Whether the log that starts last has had its `Distributor ID:` line yet.
    let mut distributor = false;
    for line in bytes[first..].split_inclusive(|b| *b == b'\n') {
        if pos > first && is_header(line) {
            starts.push(pos);
            distributor = false;
        }
        let mut from = 1;
        while let Some(i) = find(&line[from.min(line.len())..], HEADER_START) {
            let at = from + i;
            // Right after the previous log's last character, not after a space (a quote, an
            // indented line, "Tested with sbc-bench v…").
            if !line[at - 1].is_ascii_whitespace() && is_dated_header(&line[at..]) {
                starts.push(pos + at);
                distributor = false;
            }
            from = at + 1;
        }
        if line.starts_with(DISTRIBUTOR) {
            if distributor && *starts.last().expect("one start") < pos {
                starts.push(pos);
            }
            distributor = true;
        }
        pos += line.len();
    }
    let mut out: Vec<std::ops::Range<usize>> = starts.windows(2).map(|w| w[0]..w[1]).collect();
    out.push(*starts.last().expect("one start")..bytes.len());
    out
}

const UTF8_BOM: &[u8] = b"\xef\xbb\xbf";

/// `lsb_release -a`'s first line, once in every sbc-bench log (the first line of one before
/// v0.4).
const DISTRIBUTOR: &[u8] = b"Distributor ID:";

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

    /// Issue 47: two logs from before v0.4 (no header line) one after another became one mixed
    /// run; a log starting with a UTF-8 byte-order mark was split into "2 logs".
    #[test]
    fn headerless_logs_and_a_byte_order_mark() {
        let old = b"Distributor ID:\tRaspbian\nRelease:\t9.4\n\nx\n\n";
        let both = [&old[..], &old[..]].concat();
        assert_eq!(split_logs(&both), vec![0..old.len(), old.len()..both.len()]);
        assert_eq!(split_logs(old), vec![0..old.len()]);
        // A headed log has its one Distributor line; a pre-v0.4 log glued after it splits.
        let headed =
            b"sbc-bench v0.4 -- Mon, 30 Jul 2018 06:15:21 +0000\nDistributor ID:\tDebian\n";
        let mixed = [&headed[..], &old[..]].concat();
        assert_eq!(
            split_logs(&mixed),
            vec![0..headed.len(), headed.len()..mixed.len()]
        );
        let bom = [b"\xef\xbb\xbf", &headed[..]].concat();
        assert_eq!(split_logs(&bom), vec![3..bom.len()]);
    }

    /// Every fixture log is one log.
    #[test]
    fn every_fixture_is_one_log() {
        let mut n = 0;
        for e in std::fs::read_dir(testsupport::sbc_bench_logs()).unwrap() {
            let log = e.unwrap().path();
            if log.extension().is_some_and(|x| x == "txt") {
                let bytes = std::fs::read(&log).unwrap();
                assert_eq!(split_logs(&bytes).len(), 1, "{}", log.display());
                n += 1;
            }
        }
        assert!(n > 100, "{n} logs");
    }
}
