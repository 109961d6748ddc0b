//! The kernel messages of a run's window, from /dev/kmsg.
//!
//! /dev/kmsg hands out one record per read(): `prio,seq,usec,flags[,…];text` followed by
//! continuation lines that start with a space (` SUBSYSTEM=cpu`, the record's dictionary).
//! Every new open starts at the oldest record still in the ring buffer, so the window of a run
//! is "every record with a sequence number above the last one seen before the run": take a
//! [`Cursor`] before, [`Kmsg::since`] after. Sequence numbers survive `dmesg -C` and
//! wrapping, unlike timestamps or line counts (sbc-bench diffs `dmesg` output, which breaks
//! when the buffer is cleared or wraps).
//!
//! In a fixture tree `dev/kmsg` is a plain file of such lines; read() on it returns many
//! records at once, so records are parsed from the concatenated bytes either way.
//! The `dmesg` program cannot read a fixture root, so without /dev/kmsg the window is empty
//! with source "none" and a note saying why.
//! Reading only (probe never writes): the marker at the start of a run is written by the
//! binary's session.

use std::io::Read;
use std::os::unix::fs::OpenOptionsExt;

use document::run::{KmsgLine, KmsgWindow};

use crate::Root;

pub const KMSG: &str = "/dev/kmsg";

/// The kernel writes records of at most 8 KiB (CONSOLE_EXT_LOG_MAX); a smaller read buffer
/// gets EINVAL.
const READ_BUF: usize = 16 * 1024;

/// The largest ring buffer the kernel allows is 32 MiB (log_buf_len); more is not a log.
const MAX_BYTES: usize = 64 << 20;

/// Where a run's window starts: the sequence number of the last record seen.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Cursor {
    /// `None` when the buffer was empty or unreadable: every record then belongs to the window.
    pub seq: Option<u64>,
}

/// One parsed /dev/kmsg record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// syslog facility × 8 + level.
    pub prio: u32,
    pub seq: u64,
    /// Microseconds since boot.
    pub usec: u64,
    /// The message, escapes decoded.
    pub text: String,
}

/// The kernel ring buffer, read through a root.
#[derive(Debug, Clone, Copy)]
pub struct Kmsg;

impl Kmsg {
    /// The last sequence number in the buffer now (take it right before the run).
    pub fn cursor(root: &Root) -> Cursor {
        let seq = read_records(root)
            .ok()
            .and_then(|(r, _)| r.iter().map(|r| r.seq).max());
        Cursor { seq }
    }

    /// The records written after `cursor`, oldest first.
    pub fn since(root: &Root, cursor: &Cursor) -> KmsgWindow {
        let (records, mut notes) = match read_records(root) {
            Ok(r) => r,
            Err(note) => {
                return KmsgWindow {
                    source: "none".into(),
                    lines: Vec::new(),
                    note: Some(note),
                };
            }
        };
        let after: Vec<&Record> = records
            .iter()
            .filter(|r| cursor.seq.is_none_or(|c| r.seq > c))
            .collect();
        if let (Some(c), Some(first)) = (cursor.seq, after.first())
            && first.seq > c.saturating_add(1)
        {
            notes.push(format!(
                "{} records lost: the ring buffer wrapped during the run",
                first.seq - c - 1
            ));
        }
        KmsgWindow {
            source: KMSG.into(),
            lines: after
                .into_iter()
                .map(|r| KmsgLine {
                    seconds: r.usec as f64 / 1e6,
                    level: Some((r.prio & 7) as u8),
                    text: r.text.clone(),
                })
                .collect(),
            note: (!notes.is_empty()).then(|| notes.join("; ")),
        }
    }
}

/// Every record in the buffer, and notes about the read (records lost while reading, a read
/// that stopped early). `Err` with the reason when /dev/kmsg cannot be opened.
fn read_records(root: &Root) -> Result<(Vec<Record>, Vec<String>), String> {
    let (bytes, notes) = read_bytes(root)?;
    Ok((parse_records(&bytes), notes))
}

fn read_bytes(root: &Root) -> Result<(Vec<u8>, Vec<String>), String> {
    let mut f = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(root.path(KMSG))
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => format!("{KMSG}: missing"),
            std::io::ErrorKind::PermissionDenied => {
                format!("{KMSG}: permission denied (run as root)")
            }
            _ => format!("{KMSG}: {e}"),
        })?;
    let mut all = Vec::new();
    let mut notes = Vec::new();
    let mut buf = vec![0u8; READ_BUF];
    let mut lost = 0u32;
    loop {
        match f.read(&mut buf) {
            Ok(0) => break, // end of a plain file
            Ok(n) => {
                all.extend_from_slice(&buf[..n]);
                if all.len() > MAX_BYTES {
                    notes.push(format!("{KMSG}: stopped reading after {MAX_BYTES} bytes"));
                    break;
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break, // no more records
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            // EPIPE: records were overwritten while reading; the next read goes on with the
            // oldest one left. Bounded, so a device that always says EPIPE cannot loop.
            Err(e) if e.raw_os_error() == Some(libc::EPIPE) && lost < 1000 => lost += 1,
            Err(e) => {
                notes.push(format!("{KMSG}: read stopped: {e}"));
                break;
            }
        }
    }
    if lost > 0 {
        notes.push(format!(
            "{KMSG}: records were overwritten while reading ({lost}×)"
        ));
    }
    Ok((all, notes))
}

/// Parses every record line; continuation lines (leading space) and garbage are skipped.
pub fn parse_records(bytes: &[u8]) -> Vec<Record> {
    bytes
        .split(|&b| b == b'\n')
        .filter_map(parse_record)
        .collect()
}

/// One `prio,seq,usec,flags[,…];text` line. `None` for a continuation line or garbage.
pub fn parse_record(line: &[u8]) -> Option<Record> {
    if line.first().is_none_or(|b| b.is_ascii_whitespace()) {
        return None;
    }
    let semi = line.iter().position(|&b| b == b';')?;
    let header = std::str::from_utf8(&line[..semi]).ok()?;
    let mut f = header.split(',');
    let prio = f.next()?.parse().ok()?;
    let seq = f.next()?.parse().ok()?;
    let usec = f.next()?.parse().ok()?;
    Some(Record {
        prio,
        seq,
        usec,
        text: unescape(&line[semi + 1..]),
    })
}

/// Decodes the kernel's `\xNN` escapes (it escapes control characters, bytes ≥ 127 and the
/// backslash itself, so decoding restores the original bytes, UTF-8 included).
fn unescape(b: &[u8]) -> String {
    let hex = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\'
            && b.get(i + 1) == Some(&b'x')
            && let (Some(h), Some(l)) = (
                b.get(i + 2).copied().and_then(hex),
                b.get(i + 3).copied().and_then(hex),
            )
        {
            out.push(h * 16 + l);
            i += 4;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    let mut s = String::from_utf8_lossy(&out).into_owned();
    // A trailing carriage return of a hand-written fixture is not part of the message.
    if s.ends_with('\r') {
        s.pop();
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_fields_and_escapes() {
        let r = parse_record(b"6,339,5140900,-,caller=T1;a\\x5cb \\xc2\\xb0C").unwrap();
        assert_eq!((r.prio, r.seq, r.usec), (6, 339, 5_140_900));
        assert_eq!(r.text, "a\\b °C");
        assert_eq!(parse_record(b" SUBSYSTEM=cpu"), None);
        assert_eq!(parse_record(b"6,x,1,-;t"), None);
        assert_eq!(parse_record(b"no header"), None);
        assert_eq!(
            parse_record(b"6,1,2;"),
            Some(Record {
                prio: 6,
                seq: 1,
                usec: 2,
                text: String::new()
            })
        );
    }
}
