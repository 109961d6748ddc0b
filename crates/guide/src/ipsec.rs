//! IPsec: the seed's "IPSec Software Performance" table — ESP throughput, packets per second
//! and CPU load through xfrm between two network namespaces on the board itself, measured with
//! iperf3 (TCP, 5 s; 1 s with `--quick`). Rows: `3des`, `aes128`, `aes192`, `aes256` (CBC with
//! HMAC-SHA256, as the seed's names suggest) and `aes128-gcm` (rfc4106).
//!
//! Why namespaces on the board: the figure is what the board's kernel crypto does for ESP,
//! independent of a network and a peer. ESP runs in tunnel mode (a host-to-host tunnel, as
//! gateways carry IPsec; 20 bytes more per packet than transport mode) between the two ends of
//! a veth pair (10.214.0.1/2, addresses that exist only inside the section's own namespaces).
//! Packets per second come from the sending state's packet counter (`ip -s xfrm state`).
//! Everything is removed however the section ends: deleting a namespace removes its veth end,
//! xfrm states and policies, and a guard's Drop deletes both namespaces and stops the server
//! (normal end, failure, cancel, panic). A kernel without ESP (or without an algorithm) gives a
//! note per row, or a skip when nothing works.
//!
//! With `--peer HOST --ipsec-peer` the section measures the seed's setting instead: ESP to
//! another host (running `boardbench guide peer --ipsec BOARD`) over the real link, see
//! [`link`]. The namespace pair stays the default (and what the tests run).
//!
//! Keys are lab-only ([`lab_key`]): derived from the row name, the same at both ends of a
//! link without any exchange. A benchmark of the ESP data path, not security.

pub mod link;

use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use adapters::process::Group;
use document::guide::{GuideRow, GuideTable, GuideValue};

use crate::Context;
use crate::exec;
use crate::network::{self, ClientError};
use crate::registry::Outcome;

/// The seed's table title; a link run adds the interface (`link`).
pub const TITLE: &str = "IPSec Software Performance";

/// The section's empty table under `title`: algorithm rows, throughput, packets/s, CPU load.
pub fn table(title: String) -> GuideTable {
    GuideTable {
        key_headers: Vec::new(),
        title,
        key_header: "Algorithm".into(),
        columns: vec![
            "Throughput (Mbps)".into(),
            "Packets/Sec".into(),
            "CPU Load".into(),
        ],
        rows: Vec::new(),
    }
}

/// The prefix of the section's namespace names ("bbipsec<pid>x<n>a").
pub const NS_PREFIX: &str = "bbipsec";

/// A lab-only key of `bytes` bytes for `what` (a row name, "ROW-hmac" for its integrity key):
/// the bytes of "boardbench-lab-key-WHAT-" repeated, in hex ("0x…"). Public by design: both ends
/// of a link derive the same key, and nobody should mistake the tunnel for a protected one.
pub fn lab_key(what: &str, bytes: usize) -> String {
    let seed = format!("boardbench-lab-key-{what}-");
    let hex: String = seed
        .bytes()
        .cycle()
        .take(bytes)
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("0x{hex}")
}

/// (row, `ip xfrm state` algorithm arguments, with the row's [`lab_key`]s).
pub fn algorithms() -> Vec<(&'static str, Vec<String>)> {
    let auth = |row: &str| {
        vec![
            "auth-trunc".into(),
            "hmac(sha256)".into(),
            lab_key(&format!("{row}-hmac"), 32),
            "128".into(),
        ]
    };
    let cbc = |row: &str, alg: &str, bytes| {
        let mut v = vec!["enc".to_string(), alg.to_string(), lab_key(row, bytes)];
        v.extend(auth(row));
        v
    };
    vec![
        ("3des", cbc("3des", "cbc(des3_ede)", 24)),
        ("aes128", cbc("aes128", "cbc(aes)", 16)),
        ("aes192", cbc("aes192", "cbc(aes)", 24)),
        ("aes256", cbc("aes256", "cbc(aes)", 32)),
        (
            "aes128-gcm",
            vec![
                "aead".into(),
                "rfc4106(gcm(aes))".into(),
                lab_key("aes128-gcm", 20),
                "128".into(),
            ],
        ),
    ]
}

/// Packets the first state in `ip -s xfrm state` output has carried ("… 1234(bytes), 56(packets)"
/// under "lifetime current:").
pub fn state_packets(text: &str) -> Option<u64> {
    let mut lines = text.lines();
    while let Some(l) = lines.next() {
        if l.trim() == "lifetime current:" {
            let n = lines.next()?;
            let p = n.split(',').nth(1)?.trim();
            return p.strip_suffix("(packets)")?.trim().parse().ok();
        }
    }
    None
}

static SERIAL: AtomicU32 = AtomicU32::new(0);

/// The two namespaces, their veth pair and the iperf3 server; removed on drop.
pub struct Pair {
    pub a: String,
    pub b: String,
    server: Option<Group>,
}

/// Runs `ip ARGS`; its standard output, or the command and its error text.
pub(crate) fn ip<S: AsRef<str>>(args: &[S]) -> Result<String, String> {
    let args: Vec<&str> = args.iter().map(AsRef::as_ref).collect();
    let o = Command::new("ip")
        .args(&args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("ip: {e}"))?;
    if o.status.success() {
        Ok(String::from_utf8_lossy(&o.stdout).into_owned())
    } else {
        Err(format!(
            "ip {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&o.stderr).trim()
        ))
    }
}

impl Pair {
    pub fn new() -> Result<Pair, String> {
        let n = SERIAL.fetch_add(1, Ordering::Relaxed);
        let base = format!("{NS_PREFIX}{}x{n}", std::process::id());
        let mut p = Pair {
            a: format!("{base}a"),
            b: format!("{base}b"),
            server: None,
        };
        ip(&["netns", "add", &p.a])?;
        ip(&["netns", "add", &p.b])?;
        ip(&[
            "link", "add", "esp0", "netns", &p.a, "type", "veth", "peer", "name", "esp0", "netns",
            &p.b,
        ])?;
        for (ns, addr) in [(&p.a, "10.214.0.1/24"), (&p.b, "10.214.0.2/24")] {
            ip(&["-n", ns, "addr", "add", addr, "dev", "esp0"])?;
            ip(&["-n", ns, "link", "set", "esp0", "up"])?;
            ip(&["-n", ns, "link", "set", "lo", "up"])?;
        }
        let mut server = Command::new("ip");
        server
            .args(["netns", "exec", &p.b, "iperf3", "-s", "-B", "10.214.0.2"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        p.server = Some(Group::spawn(&mut server).map_err(|e| format!("iperf3 -s: {e}"))?);
        Ok(p)
    }

    /// ESP in tunnel mode between the two ends with `alg`; replaces what an earlier row set.
    pub fn esp(&self, alg: &[String]) -> Result<(), String> {
        let (x, y) = ("10.214.0.1", "10.214.0.2");
        for ns in [&self.a, &self.b] {
            ip(&["-n", ns, "xfrm", "state", "flush"])?;
            ip(&["-n", ns, "xfrm", "policy", "flush"])?;
            for (src, dst, spi) in [(x, y, "0x1001"), (y, x, "0x1002")] {
                let mut args: Vec<&str> = vec![
                    "-n", ns, "xfrm", "state", "add", "src", src, "dst", dst, "proto", "esp",
                    "spi", spi, "mode", "tunnel",
                ];
                args.extend(alg.iter().map(String::as_str));
                ip(&args)?;
            }
            let (me, other) = if ns == &self.a { (x, y) } else { (y, x) };
            for (dir, s, d) in [("out", me, other), ("in", other, me)] {
                ip(&[
                    "-n",
                    ns,
                    "xfrm",
                    "policy",
                    "add",
                    "src",
                    &format!("{s}/32"),
                    "dst",
                    &format!("{d}/32"),
                    "dir",
                    dir,
                    "tmpl",
                    "src",
                    s,
                    "dst",
                    d,
                    "proto",
                    "esp",
                    "mode",
                    "tunnel",
                ])?;
            }
        }
        Ok(())
    }

    fn sent_packets(&self) -> Option<u64> {
        let o = Command::new("ip")
            .args([
                "-n",
                &self.a,
                "-s",
                "xfrm",
                "state",
                "get",
                "src",
                "10.214.0.1",
            ])
            .args(["dst", "10.214.0.2", "proto", "esp", "spi", "0x1001"])
            .output()
            .ok()?;
        state_packets(&String::from_utf8_lossy(&o.stdout))
    }
}

impl Drop for Pair {
    fn drop(&mut self) {
        if let Some(mut s) = self.server.take() {
            // The one kill rule (SIGTERM, SIGKILL after the grace).
            let _ = s.stop(exec::GRACE);
        }
        for ns in [&self.a, &self.b] {
            let _ = ip(&["-n", ns, "xfrm", "state", "flush"]);
            let _ = ip(&["-n", ns, "xfrm", "policy", "flush"]);
            let _ = ip(&["netns", "del", ns]);
        }
    }
}

/// The registered section: the namespace pair, or with `--ipsec-peer` the link to `--peer`
/// (there `--net-time` sets the time per algorithm too).
pub fn section(ctx: &Context) -> Outcome {
    let time = ctx
        .budget(Duration::from_secs(5))
        .max(Duration::from_secs(1));
    if !ctx.network.ipsec_peer {
        return run(ctx, time);
    }
    let time = ctx.network.trial.map_or(time, |t| {
        t.clamp(Duration::from_secs(1), network::MAX_TRIAL)
    });
    match ctx.peer.as_deref() {
        Some(peer) => link::run(ctx, peer, time),
        None => Outcome::skipped(
            "--ipsec-peer needs --peer HOST (the host running `boardbench guide peer --ipsec \
             THIS-BOARD`)",
        ),
    }
}

/// Runs the IPsec section with `time` per algorithm.
pub fn run(ctx: &Context, time: Duration) -> Outcome {
    if !ctx.root.is_host() {
        return Outcome::skipped("a recorded tree: no kernel to run");
    }
    for tool in ["ip", "iperf3"] {
        if exec::which(tool).is_none() {
            return Outcome::skipped(format!("{tool} is not installed"));
        }
    }
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return Outcome::skipped("needs root (network namespaces and xfrm)");
    }
    let pair = match Pair::new() {
        Ok(p) => p,
        Err(e) => return Outcome::skipped(format!("cannot create network namespaces: {e}")),
    };
    let mut opt = network::Options::new("10.214.0.2");
    opt.prefix = ["ip", "netns", "exec", &pair.a].map(String::from).to_vec();
    let mut out = Outcome {
        tool: exec::version_line("iperf3", &["--version"]),
        ..Default::default()
    };
    let mut t = table(TITLE.into());
    for (row, alg) in algorithms() {
        if ctx.cancelled() {
            break;
        }
        if let Err(e) = pair.esp(&alg) {
            out.notes
                .push(format!("{row}: the kernel refused the ESP state: {e}"));
            continue;
        }
        match network::client(ctx, &opt, &[], time) {
            Ok((r, cpu)) => {
                let pps = pair.sent_packets().map(|p| p as f64 / time.as_secs_f64());
                t.rows.push(GuideRow {
                    keys: Vec::new(),
                    key: row.into(),
                    cells: vec![
                        Some(GuideValue::one(r.tcp_received_bps / 1e6)),
                        pps.map(GuideValue::one),
                        cpu.map(GuideValue::one),
                    ],
                });
            }
            Err(ClientError::Cancelled) => break,
            Err(ClientError::Failed(e)) => out.notes.push(format!("{row}: {e}")),
        }
    }
    drop(pair);
    if t.rows.is_empty() && !ctx.cancelled() {
        return Outcome::skipped(format!("no ESP figures: {}", out.notes.join("; ")));
    }
    out.notes.push(format!(
        "ESP tunnel mode between two network namespaces on this board (veth), iperf3 TCP {} s \
         per algorithm; CBC rows with HMAC-SHA256; Packets/Sec from the sending state's counter; \
         CPU Load = the whole system",
        time.as_secs()
    ));
    if !t.rows.is_empty() {
        out.tables.push(t);
    }
    out
}
